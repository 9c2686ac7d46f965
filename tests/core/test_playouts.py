"""Random playouts played whole in a game kernel, against a second implementation.

The reference is a Python loop over the protocol (``legal_moves``, ``apply``,
``outcome``) that draws its moves with its own SplitMix64 written here in plain Python
(the generator's published algorithm, not :mod:`boardlab.core.rng`): with the seed the
kernel gets and the same order of legal moves, it must play exactly the game the kernel
plays, move for move, and end as it ends. Random games of the move language are played
on interpreted positions (no kernel at all); Breakthrough, Taacoca and ZRF files on
their kernel positions one ply at a time (the path the kernel tests compare with the
interpreter). Beside that: the totals add up as the game scores, the position is left
as it was, the ply cap holds, a registry of moves that grows meanwhile changes nothing,
and Breakthrough's first-player win rate agrees with the generic Python loop's.
"""

from __future__ import annotations

import math
import pickle
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardlab
from boardlab.core import kernel
from boardlab.core import rules as r
from boardlab.core.engine import Engine
from boardlab.core.game import PlayoutPolicy, Playouts, State
from boardlab.core.kernel import plan as kplan
from boardlab.errors import BoardError, OptionError, RulesError
from boardlab.zrf.game import load_game
from tests.core.test_kernel import (  # noqa: F401 - kernel_folder is a fixture
    CORPUS,
    EXAMPLE_RULES,
    EXAMPLES,
    conditions,
    kernel_folder,
    make_game,
    placements,
    templates,
)

MASK = (1 << 64) - 1


def splitmix(state: int) -> tuple[int, int]:
    """SplitMix64's next output and its next state."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31), state


def below(state: int, n: int) -> tuple[int, int]:
    """SplitMix64's next output scaled to ``[0, n)`` by its high 32 bits, and the next
    state."""
    z, state = splitmix(state)
    return ((z >> 32) * n) >> 32, state


def reference(state: State, seed: int, plies: int | None = None,
              policy: PlayoutPolicy | None = None) -> tuple[tuple, object, int]:
    """One playout through the protocol with :func:`below`'s draws: its returns (None
    when the cap stopped it), what is seen of the position where it stopped, and the
    generator's state after it. The state is left as it was."""
    chance = state.game.chance_players
    done = 0
    while state.outcome() is None and (plies is None or done < plies):
        moves = state.legal_moves()
        weights = [1 if policy is None or state.to_move in chance else policy.weight(m)
                   for m in moves]
        total = sum(weights)
        if not total:
            k, seed = below(seed, len(moves))
        else:
            draw, seed = below(seed, total)
            k = 0
            while draw >= weights[k]:
                draw -= weights[k]
                k += 1
        state.apply(moves[k])
        done += 1
    out = state.outcome()
    end = out if out is not None else seen(state)
    for _ in range(done):
        state.undo()
    return out, end, seed


def seen(state: State) -> tuple:
    """What a stopped playout's position must agree on."""
    return (str(state), state.key(), state.to_move, state.ply, state.outcome(),
            [(m.notation, m.tag) for m in state.legal_moves()])


def kernel_end(state: State, seed: int, plies: int | None = None,
               policy: PlayoutPolicy | None = None) -> object:
    """The kernel's playout from ``seed`` (the seed :meth:`playout` draws from a
    generator is its first 63 random bits), seen as :func:`reference` sees it."""
    rng = random.Random(seed)
    kernel_seed = random.Random(seed).getrandbits(63)
    end = state.playout(rng, plies, policy)
    return (seen(end) if isinstance(end, State) else end), kernel_seed


def agree(state: State, seeds: list[int], plies: int | None = None,
          policy: PlayoutPolicy | None = None) -> None:
    """The kernel's playouts from each seed, and a batch of as many games from the
    first seed (one generator for all, game after game), against the reference; the
    state left as it was."""
    before = seen(state)
    for seed in seeds:
        got, kernel_seed = kernel_end(state, seed, plies, policy)
        assert got == reference(state, kernel_seed, plies, policy)[1], f"seed {seed}"
    ends, generator = [], seeds[0]
    for _ in seeds:
        out, _, generator = reference(state, generator, plies, policy)
        ends.append((out, 1))
    want = Playouts.of(ends, state.game.num_players)
    assert state.playouts(len(seeds), seeds[0], plies, policy) == want
    assert seen(state) == before


def test_the_reference_generator_is_splitmix64():
    # The published first outputs for seed 1234567 (Rosetta Code, "Pseudo-random
    # numbers/Splitmix64", from Vigna's splitmix64.c).
    state, outputs = 1234567, []
    for _ in range(5):
        z, state = splitmix(state)
        outputs.append(z)
    assert outputs == [6457827717110365317, 3203168211198807973, 9817491932198370423,
                       4593380528125082431, 16408922859458223821]


@pytest.mark.slow
@settings(max_examples=max(1, EXAMPLES // 4), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(templates=templates, conditions=conditions,
       stalemate=st.sampled_from(("loss", "win", "draw")), placement=placements,
       seed=st.integers(0, 1 << 16), pass_turn=st.sampled_from((None, "always", "forced")),
       capture=st.integers(0, 5))
def test_random_games_play_out_as_the_interpreter_plays_them(
        kernel_folder, templates, conditions, stalemate, placement, seed, pass_turn,  # noqa: F811
        capture):
    # Every kind of ending (count too), passes, priorities, promotions: the kernel's
    # playouts against the reference on interpreted positions, capped (these games
    # need not end), uniform and weighted by a policy.
    game = make_game(templates, conditions, stalemate, placement, pass_turn)
    fast = game.initial_state()
    assert isinstance(fast, kernel.KernelPosition)
    slow = game.using(Engine.INTERPRETER).initial_state()
    policy = PlayoutPolicy(capture=capture, tags={"a": 3, "b": 0})
    for plies in (0, 3, 30):
        for chosen in (None, policy):
            for s in range(seed, seed + 3):
                kernel_seed = random.Random(s).getrandbits(63)
                got = attempt(kernel_end, 0, fast, s, plies, chosen)
                want = attempt(reference, 1, slow, kernel_seed, plies, chosen)
                assert got == want, kernel.source(game)


def attempt(play, item: int, *args) -> object:
    """Item ``item`` of what ``play(*args)`` gives, or the error the rules raise on the
    way (a template looping for ever fails a playout where it fails the game)."""
    try:
        return play(*args)[item]
    except (BoardError, RulesError) as error:
        return ("error", type(error).__name__, str(error))


@pytest.mark.parametrize(("name", "options"), [
    ("breakthrough", {}), ("breakthrough", {"rows": 5, "columns": 4}),
    ("taacoca", {}), ("taacoca", {"directions": "all", "group": "any"}), ("othello", {})])
def test_language_games_play_out_as_the_reference_plays_them(name, options):
    state = boardlab.load(name, **options).initial_state()
    agree(state, list(range(40)))
    agree(state, list(range(40, 60)), plies=12)
    agree(state, list(range(60, 80)), policy=PlayoutPolicy(capture=8))


@pytest.mark.parametrize("path", ["breakthrough/breakthrough.zrf", "go-family/alak.zrf",
                                  "mancala/toguz-kumalak.zrf", "arrange/netwalk.zrf",
                                  "elimination/kono.zrf", "chess/chess.zrf"])
def test_zrf_games_play_out_as_the_reference_plays_them(path):
    # A ZRF file with a kernel: a ply limit, a turn order, forced and free passes, a
    # third repetition that loses (kono: a third of its random games end so), a King
    # no move may leave attacked (chess).
    game = load_game(CORPUS / path)
    assert kernel.why_not(game) is None
    state = game.initial_state()
    agree(state, list(range(6)), plies=60)
    agree(state, list(range(6, 9)), plies=60, policy=PlayoutPolicy(capture=5))


def test_playouts_from_the_middle_of_a_game_leave_it_as_it_was():
    state = boardlab.load("breakthrough").initial_state()
    rng = random.Random(5)
    for _ in range(9):
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    before = seen(state)
    agree(state, list(range(30)))
    assert seen(state) == before
    # Its history is intact: the nine moves undo to the start.
    for _ in range(9):
        state.undo()
    assert seen(state) == seen(boardlab.load("breakthrough").initial_state())


def test_the_ply_cap_holds():
    state = boardlab.load("breakthrough").initial_state()
    for plies in (0, 1, 7, 25):
        end = state.playout(random.Random(plies), plies)
        assert isinstance(end, kernel.KernelPosition) and end.ply == plies
    # A man needs six moves to cross the board: ten plies end no game, eleven may.
    totals = state.playouts(500, 3, plies=10)
    assert totals.unfinished == 500
    totals = state.playouts(500, 3, plies=60)
    assert 0 < totals.unfinished < 500
    assert sum(totals.wins) + totals.draws + totals.unfinished == 500


def test_totals_add_up_as_the_game_scores():
    # Every finished game gives out one point in all; a breakthrough game never draws;
    # a ply-limited ZRF game draws at its limit and shares the point.
    totals = boardlab.load("breakthrough").initial_state().playouts(1000, 11)
    assert totals.games == 1000 and totals.draws == 0 and totals.unfinished == 0
    assert totals.points == (Fraction(totals.wins[0]), Fraction(totals.wins[1]))
    game = load_game(CORPUS / "breakthrough/breakthrough.zrf", max_moves=6)
    totals = game.initial_state().playouts(200, 2)
    assert totals.draws == 200 and totals.points == (Fraction(100), Fraction(100))


def test_a_registry_that_grows_meanwhile_changes_no_playout(monkeypatch):
    # From a fresh plan with a small registry: kernel playouts register nothing; the
    # reference then plays the same games a ply at a time on the kernel position,
    # which registers their moves and grows the registry many times; the kernel's
    # playouts after that are the same games.
    monkeypatch.setattr(kplan, "REGISTRY", 64)
    game = boardlab.load("taacoca", group="any")
    state = game.initial_state()
    plan = kernel.plan_for(game)
    registered, slots = (int(v) for v in plan.table[plan.registry:plan.registry + 2])
    first = state.playouts(30, 8)
    # Nothing registered (the start's moves were, when it was scanned).
    assert [int(v) for v in plan.table[plan.registry:plan.registry + 2]] == \
        [registered, slots]
    agree(state, list(range(30)))
    assert int(plan.table[plan.registry + 1]) >= 8 * slots
    assert state.playouts(30, 8) == first


def test_a_loop_that_never_ends_fails_a_playout_as_it_fails_the_game(kernel_folder):  # noqa: F811
    # As in the kernel tests: after a3-a4, o's moves loop for ever.
    board = make_game([], [], "draw", {}).board
    walk = r.Template((r.Step("n"), r.Verify(r.EMPTY), r.Add()), name="walk")
    spin = r.Template((r.Verify(r.at_cell(r.ENEMY, board.cell("a4"))),
                       r.While(r.ALWAYS, (r.Step("e"), r.Step("w"))), r.Add()), name="spin")
    game = make_game([walk, spin], [], "draw", {"a3": "X", "b3": "O"})
    state = game.initial_state()
    before = seen(state)
    for rollout in (type(state).rollout, State.rollout, State.playout):
        with pytest.raises(BoardError, match="loops forever"):
            rollout(state, random.Random(1))
        assert seen(state) == before


def test_the_first_player_wins_as_often_as_in_the_python_loop():
    # 2,000 games each way: the kernel's batch, and State.rollout's Python loop over
    # the protocol; the first player's win rates within four standard errors of each
    # other (a chance of 1 in 15,000 to fail by bad luck alone).
    state = boardlab.load("breakthrough").initial_state()
    n = 2000
    compiled_wins = state.playouts(n, 2024).wins[0]
    rng = random.Random(2024)
    loop_wins = sum(1 for _ in range(n) if State.rollout(state, rng)[0] == 1)
    p = (compiled_wins + loop_wins) / (2 * n)
    assert abs(compiled_wins - loop_wins) / n < 4 * math.sqrt(2 * p * (1 - p) / n)


def test_policies_weigh_moves_and_refuse_bad_weights():
    state = boardlab.load("breakthrough").initial_state()
    # Captures first makes games short: most pieces go early.
    eager = state.playouts(300, 1, policy=PlayoutPolicy(capture=100))
    plain = state.playouts(300, 1)
    assert eager != plain
    # No straight steps at all: every move is diagonal while one is open.
    diagonal = PlayoutPolicy(tags={"step": 0})
    end = state.playout(random.Random(3), 6, diagonal)
    assert isinstance(end, State)
    # Bots send policies to their worker processes.
    policy = PlayoutPolicy(capture=3, tags={"step": 2})
    assert pickle.loads(pickle.dumps(policy)) == policy
    assert hash(policy) == hash(PlayoutPolicy(capture=3, tags={"step": 2}))
    for bad in ({"capture": -1}, {"capture": 101}, {"tags": {"step": 0.5}},
                {"capture": True}):
        with pytest.raises(OptionError):
            PlayoutPolicy(**bad)
    with pytest.raises(OptionError):
        state.playouts(-1, 1)


def test_games_without_a_kernel_play_out_in_python():
    # Plain positions (no kernel): the generic loop, seeded, by Python's generator.
    plain = boardlab.load("breakthrough", rows=5, columns=4,
                          engine="interpreter").initial_state()
    assert not isinstance(plain, kernel.KernelPosition)
    totals = plain.playouts(200, 5)
    assert totals == plain.playouts(200, 5)
    assert totals.games == 200 and totals.unfinished == 0 and totals.draws == 0
    assert totals.points == (Fraction(totals.wins[0]), Fraction(totals.wins[1]))
    assert plain.playouts(50, 5, plies=2).unfinished == 50
    # The weighted playout draws as the policy says, with Python's generator.
    policy = PlayoutPolicy(capture=7)
    end = plain.playout(random.Random(9), 10, policy)
    probe, rng = plain.clone(), random.Random(9)
    for _ in range(10):
        probe.apply(policy.choose(probe.legal_moves(), rng))
    assert isinstance(end, State) and str(end) == str(probe)


def exact_random_play(state: State, memo: dict) -> tuple[Fraction, ...]:
    """The chances of X's win, O's win and a draw when both play uniformly at random
    from ``state``, by brute force."""
    key = str(state)
    if key not in memo:
        out = state.outcome()
        if out is not None:
            memo[key] = (Fraction(out[0] == 1), Fraction(out[1] == 1),
                         Fraction(out[0] == out[1]))
        else:
            moves = state.legal_moves()
            total = [Fraction(0)] * 3
            for move in moves:
                state.apply(move)
                for i, p in enumerate(exact_random_play(state, memo)):
                    total[i] += p / len(moves)
                state.undo()
            memo[key] = tuple(total)
    return memo[key]


@pytest.mark.parametrize("position", [".../.../... x", "x../.o./... x"])
def test_tic_tac_toe_batches_score_as_exact_random_play(position):
    # Its hand-written kernel plays the batch: the shares of X's wins, O's wins and
    # draws in 20,000 games within four standard errors of the exact chances.
    state = boardlab.load("tic-tac-toe").parse_state(position)
    exact = exact_random_play(state.clone(), {})
    n = 20_000
    totals = state.playouts(n, 17)
    for count, p in zip((*totals.wins, totals.draws), exact, strict=True):
        assert abs(count / n - p) < 4 * math.sqrt(p * (1 - p) / n)
    assert totals == state.playouts(n, 17) and totals.unfinished == 0
    # Capped, the generic loop plays them.
    assert state.playouts(10, 1, plies=1).unfinished == 10


def test_a_playout_stopped_after_a_capture_keeps_what_it_took(tmp_path):
    # A captured goal's game: where a capped playout stops, the position says what its
    # last move took (its text does), as the reference's position does.
    from tests.core.test_kernel import take_game

    state = take_game(tmp_path).initial_state()
    assert isinstance(state, kernel.KernelPosition)
    for plies in (0, 1, 2, 3):
        agree(state, list(range(12)), plies=plies)
    agree(state, list(range(12)))


def test_a_fall_is_worked_out_for_the_move_played_alone():
    # Connect Four's drops fall by a loop that cannot fail: a playout's generation stops
    # each run where the fall starts and works it out for the move it plays alone
    # (_Writer.tail_at); the games are still the reference's, uniform and weighted.
    game = load_game(EXAMPLE_RULES / "connect-four.zrf")
    writer, source = kplan._write(game)
    assert set(writer.lazy) == {0} and "def finish(S, T, n)" in source
    state = game.initial_state()
    agree(state, list(range(30)))
    agree(state, list(range(30, 40)), plies=9)
    agree(state, list(range(40, 50)), policy=PlayoutPolicy(capture=5))


@pytest.mark.parametrize(("loop", "lazy"), [
    # Down as far as it is empty: each turn a step its test saw lead to a cell.
    (r.While(r.AtStep(r.EMPTY, "s"), (r.Step("s"),)), True),
    (r.While(r.all_of(r.AtStep(r.EMPTY, "s"), r.OnBoardStep("s")), (r.Step("s"),)), True),
    # A step the test did not look at may leave the board: the run may fail there.
    (r.While(r.AtStep(r.EMPTY, "s"), (r.Step("n"),)), False),
    (r.While(r.EMPTY, (r.Step("s"),)), False),
    # Two steps a turn: more than a sure loop.
    (r.While(r.AtStep(r.EMPTY, "s"), (r.Step("s"), r.Step("s"))), False)])
def test_only_a_loop_that_cannot_fail_is_left_to_finish(kernel_folder, loop, lazy):  # noqa: F811
    fall = r.Drop((r.Verify(r.EMPTY), loop, r.Add()), kinds=("man",),
                  zone="far", unlimited_for=frozenset({0, 1}))
    game = make_game([fall], [], "draw", {"b2": "X", "c3": "O"})
    assert bool(kplan._write(game)[0].lazy) == lazy
    state = game.initial_state()
    agree(state, list(range(12)), plies=20)
