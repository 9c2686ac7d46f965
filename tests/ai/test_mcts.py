"""UCT search: tactics on tic-tac-toe, reproducibility, points as rewards, and
never losing to a random player."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from boardlab import load, names
from boardlab.ai.arena import arena
from boardlab.ai.bots import BotError, RandomBot
from boardlab.ai.mcts import AUTO_PLAYOUT_DEPTH, MCTSBot, search
from boardlab.core import kernel
from boardlab.core.engine import Engine
from boardlab.core.game import PlayoutPolicy
from boardlab.errors import OptionError

TTT = load("tic-tac-toe")


def test_finds_an_immediate_win():
    state = TTT.parse_state("xx./oo./... x")
    assert MCTSBot(iterations=500, seed=3).choose(state).notation == "c3"


def test_takes_the_win_rather_than_blocking():
    # O to move can win on c1 or block X's a-file on a2: winning is better.
    state = TTT.parse_state("xxo/..o/x.. o")
    assert MCTSBot(iterations=1000, seed=4).choose(state).notation == "c1"


def test_blocks_a_threat():
    state = TTT.parse_state("x.o/.x./... o")
    assert MCTSBot(iterations=2000, seed=5).choose(state).notation == "c1"


def test_same_seed_same_search():
    state = TTT.initial_state()
    first = search(state, random.Random(11), iterations=300)
    second = search(state, random.Random(11), iterations=300)
    assert (first.move, first.value, first.visits) == (second.move, second.value, second.visits)
    assert MCTSBot(iterations=200, seed=2).choose(state) == \
        MCTSBot(iterations=200, seed=2).choose(state)


def test_search_leaves_the_state_unchanged():
    state = TTT.parse_state("x.o/.x./... o")
    before, key = str(state), state.key()
    search(state, random.Random(1), iterations=200)
    assert str(state) == before and state.key() == key


def test_budgets():
    state = TTT.initial_state()
    assert search(state, random.Random(1), iterations=123).iterations == 123
    timed = search(state, random.Random(1), seconds=0.02)
    assert timed.iterations >= 1 and timed.move in state.legal_moves()
    with pytest.raises(BotError):
        search(state, random.Random(1))
    with pytest.raises(BotError):
        search(TTT.parse_state("xxx/oo./... o"), random.Random(1), iterations=10)


def test_bot_options_are_checked():
    with pytest.raises(OptionError):
        MCTSBot(iterations=0)
    with pytest.raises(BotError):
        MCTSBot(exploration=-1.0)
    assert MCTSBot().name == "mcts(iterations=1000)"


def test_rewards_are_points(choice):
    # Points 3/4 beat 2/3 and the draw's 1/2: the mean reward, not the sign, counts.
    assert MCTSBot(iterations=400, seed=1).choose(choice).notation == "most"


@pytest.mark.parametrize("stones", [4, 5, 7])
def test_moves_keeping_the_player_to_move(bonus_nim, nim_wins, stones):
    state = bonus_nim(stones)
    move = MCTSBot(iterations=1500, seed=stones).choose(state)
    # Each winning move leaves a position the brute force calls won for the mover.
    left = stones - int(move.notation)
    if nim_wins(stones):
        assert left == 0 or (move.notation == "2" and nim_wins(left)) or \
            (move.notation == "1" and not nim_wins(left))


def test_never_loses_to_random():
    result = arena(TTT, MCTSBot(iterations=2000, seed=1), RandomBot(seed=2), 20)
    assert result.losses == 0
    assert result.wins >= 10


@pytest.mark.parametrize("name", names())
def test_plays_a_legal_move_in_every_game(name):
    state = load(name).initial_state()
    assert MCTSBot(iterations=20, seed=1).choose(state) in state.legal_moves()


def test_long_games_get_capped_playouts_scored_by_the_heuristic():
    from boardlab.ai.mcts import AUTO_PLAYOUT_DEPTH, _playout, auto_playout_depth

    assert auto_playout_depth(load("tic-tac-toe")) is None  # short: play out to the end
    assert auto_playout_depth(load("epaminondas")) == AUTO_PLAYOUT_DEPTH
    game = load("epaminondas", size="8x8")
    state = game.initial_state()
    assert isinstance(state, kernel.KernelPosition)
    before = (str(state), state.key())
    points = _playout(state, random.Random(1), 6)
    assert (str(state), state.key()) == before, "the playout must leave the state as it was"
    assert len(points) == 2 and abs(sum(points) - 1) < 1e-9
    # Six random plies from the start cannot end the game: the heuristic scored it, and
    # it is the evaluation of the position reached, mapped to points. The kernel plays
    # the six plies from one seed drawn from the generator: the position it reached,
    # six legal plies from the start, is the one scored.
    end = state.playout(random.Random(1), 6)
    assert end.ply == 6 and not end.is_terminal()
    assert points[0] == pytest.approx((1 + game.evaluate(end, 0)) / 2)
    # Without the kernel the plies are drawn one by one from the generator itself.
    plain = game.using(Engine.INTERPRETER).initial_state()
    points = _playout(plain, random.Random(1), 6)
    probe = plain.clone()
    rng = random.Random(1)
    for _ in range(6):
        moves = probe.legal_moves()
        probe.apply(moves[rng.randrange(len(moves))])
    assert points[0] == pytest.approx((1 + game.evaluate(probe, 0)) / 2)


def test_mcts_plays_a_long_game_quickly_with_capped_playouts():
    state = load("abalone").initial_state()
    bot = MCTSBot(iterations=30, seed=2)
    move = bot.choose(state)
    assert move in state.legal_moves() and bot.last.iterations == 30


# --- MAST playouts and tree reuse -------------------------------------------------------------
def test_mast_learns_move_averages_from_every_simulation():
    from boardlab.ai.mcts import Mast

    state = load("breakthrough", rows=5, columns=4).initial_state()
    mast = Mast(epsilon=0.1)
    result = search(state, random.Random(3), iterations=200, mast=mast)
    visits = sum(count for _, count in mast.table.values())
    # Every simulation adds each move it played (tree and playout) once.
    assert visits >= result.iterations * 2
    assert all(0 <= total <= count for total, count in mast.table.values())
    assert {mover for mover, _ in mast.table} == {0, 1}


def test_mast_plays_the_best_average_except_for_its_random_share():
    from boardlab.ai.mcts import Mast

    state = TTT.initial_state()
    moves = state.legal_moves()
    mast = Mast(epsilon=0.25)
    mast.update([(0, moves[4].actions)], [1.0, 0.0])  # b2 won once
    for m in moves:
        if m != moves[4]:
            mast.update([(0, m.actions)], [0.2, 0.8])
    rng = random.Random(5)
    picks = [mast.choose(moves, 0, rng) for _ in range(4000)]
    share = picks.count(moves[4]) / len(picks)
    # 0.75 greedy + 0.25 * 1/9 at random.
    assert abs(share - (0.75 + 0.25 / 9)) < 0.03
    # For the other player the table is empty: every move is as good as unknown.
    other = [mast.choose(moves, 1, rng) for _ in range(900)]
    assert len(set(other)) == 9


def test_the_tree_is_kept_from_move_to_move():
    game = load("connect-four")
    bot = MCTSBot(iterations=400, seed=7, playout="mast")
    state = game.initial_state()
    state.apply(bot.choose(state))
    first = bot.last
    assert first.reused == 0
    chosen = next(c for c in first.root.children if c.move == first.move)
    reply = max(chosen.children, key=lambda c: c.visits)
    kept = reply.visits
    state.apply(reply.move)
    bot.choose(state)
    # The reply's subtree was searched on: its visits count already.
    assert bot.last.reused == kept > 0
    assert bot.last.root is reply and reply.visits == kept + 400


def test_a_kept_tree_is_dropped_when_the_position_is_not_in_it():
    bot = MCTSBot(iterations=100, seed=1)
    bot.choose(TTT.initial_state())
    bot.choose(TTT.parse_state("xo./.x./o.. x"))  # not two plies below the last search
    assert bot.last.reused == 0
    bot.choose(load("connect-four").initial_state())  # another game: nothing kept
    assert bot.last.reused == 0


def test_playout_options_are_checked_and_used():
    with pytest.raises(BotError, match="playout"):
        MCTSBot(playout="smart")
    with pytest.raises(BotError, match="epsilon"):
        MCTSBot(epsilon=1.5)
    # Plain positions: no compiled playouts.
    state = load("breakthrough", rows=5, columns=4, engine="interpreter").initial_state()
    mast_bot, random_bot = MCTSBot(iterations=50, seed=1), MCTSBot(iterations=50, seed=1,
                                                                    playout="random")
    mast_bot.choose(state)
    random_bot.choose(state)
    assert mast_bot._mast is not None and mast_bot._mast.table
    assert random_bot._mast is None
    # Games with a compiled rollout keep it under "auto": a hand-written one, and every
    # game with a kernel.
    for fast_state in (TTT.initial_state(), load("breakthrough", rows=5,
                                                 columns=4).initial_state()):
        fast = MCTSBot(iterations=50, seed=1)
        fast.choose(fast_state)
        assert fast._mast is None
    chosen = MCTSBot(iterations=50, seed=1, playout="mast")
    chosen.choose(load("breakthrough", rows=5, columns=4).initial_state())
    assert chosen._mast is not None and chosen._mast.table


@pytest.fixture
def kernel_runs(monkeypatch) -> list[tuple]:
    """The arguments of every compiled playout call (``KernelPosition._run``) made while
    the test runs, in order."""
    calls: list[tuple] = []
    run = kernel.KernelPosition._run

    def counted(self, *args):
        calls.append(args)
        return run(self, *args)

    monkeypatch.setattr(kernel.KernelPosition, "_run", counted)
    return calls


def test_games_with_a_kernel_play_every_playout_in_it(kernel_runs):
    # Abalone is a long game with a heuristic in Python: capped playouts, each one call
    # of the kernel, its end scored by the heuristic.
    calls = kernel_runs
    state = load("abalone").initial_state()
    bot = MCTSBot(iterations=60, seed=1)
    assert bot.choose(state) in state.legal_moves()
    assert bot.last.tree is None
    assert len(calls) == 60  # no search of 60 passes reaches an end here
    assert all(games == 1 and plies == AUTO_PLAYOUT_DEPTH for games, _, plies, _ in calls)
    # Breakthrough's heuristic is a piece-square table its kernel computes: the whole
    # search, capped playouts and all, is one kernel call at a time, none a playout's.
    calls.clear()
    state = load("breakthrough").initial_state()
    bot = MCTSBot(iterations=60, seed=1)
    assert bot.choose(state) in state.legal_moves()
    assert bot.last.tree is not None and bot.last.iterations == 60 and not calls


def test_two_workers_search_on_two_cores_and_add_up_their_roots():
    game = load("connect-four")
    bot = MCTSBot(iterations=300, seed=3, workers=2, playout="mast")
    try:
        state = game.initial_state()
        move = bot.choose(state)
        # The local search and one worker's, 300 iterations each, merged by move.
        assert bot.last.iterations == 600
        assert bot.last.visits > max(c.visits for c in bot.last.root.children)
        assert move in state.legal_moves()
        state.apply(move)
        state.apply(state.legal_moves()[0])
        assert bot.choose(state) in state.legal_moves()
    finally:
        bot.close()


def test_workers_play_weighted_playouts_in_their_kernels():
    # The policy goes to the worker with the game's recipe; the worker's own position
    # of the game has a kernel that plays it.
    bot = MCTSBot(iterations=60, seed=3, workers=2, capture=4)
    try:
        state = load("breakthrough").initial_state()
        assert bot.choose(state) in state.legal_moves()
        assert bot.last.iterations == 120
    finally:
        bot.close()


def test_a_game_rebuilds_from_its_recipe_in_another_process():
    import pickle

    from boardlab.zrf.game import load_game

    for game in (load("abalone", start="belgian-daisy"),
                 load_game(Path(__file__).resolve().parents[1] / "data" / "zrf" / "chess"
                           / "chess.zrf")):
        build, args, kwargs = pickle.loads(pickle.dumps(game.recipe()))
        again = build(*args, **kwargs)
        assert again.name == game.name and dict(again.options) == dict(game.options)
        assert [m.notation for m in again.initial_state().legal_moves()] == \
            [m.notation for m in game.initial_state().legal_moves()]


def test_workers_option_is_checked():
    with pytest.raises(OptionError):
        MCTSBot(workers=0)
    with pytest.raises(BotError):
        MCTSBot(workers=1.5)


# --- MCTS-Solver -----------------------------------------------------------------------------
def test_the_solver_proves_a_forced_win_and_stops():
    # X to move: b2 makes two threats at once (a fork): a win in 3 plies.
    state = TTT.parse_state("x../.o./..x x")
    result = search(state, random.Random(2), iterations=20000)
    assert result.root.proven is not None and result.root.proven[0] == 1.0
    assert result.iterations < 20000  # stopped once proved
    from boardlab.ai.alphabeta import solve

    assert solve(state).proven == "win"
    after = state.clone()
    after.apply(result.move)
    assert solve(after).proven == "loss"  # the move keeps the win: O is lost


@pytest.mark.parametrize("seed", range(8))
def test_proved_values_agree_with_alpha_beta(seed):
    from boardlab.ai.alphabeta import solve

    rng = random.Random(seed)
    state = TTT.initial_state()
    for _ in range(rng.randrange(2, 6)):
        state.apply(rng.choice(state.legal_moves()))
        if state.is_terminal():
            pytest.skip("the random opening ended the game")
    result = search(state, random.Random(seed), iterations=6000)
    exact = solve(state).proven
    for child in result.root.children:
        if child.proven is None:
            continue
        after = state.clone()
        after.apply(child.move)
        if after.is_terminal():
            continue
        # The child's proven points, from its mover's side, against alpha-beta from the
        # side to move there (the other player).
        mine = child.proven[child.mover]
        expected = {"win": 0.0, "loss": 1.0, "draw": 0.5}[solve(after).proven]
        assert mine == expected, (str(state), child.move)
    if result.root.proven is not None:
        assert {1.0: "win", 0.0: "loss", 0.5: "draw"}[
            result.root.proven[state.to_move]] == exact


def test_the_solver_never_plays_a_proved_loss_when_a_move_remains():
    # O to move must block at c3; every other move loses at once.
    state = TTT.parse_state("xx./.o./... o")
    for seed in range(5):
        result = search(state, random.Random(seed), iterations=400)
        assert result.move.notation == "c3"


def test_mast_compares_a_sample_of_moves_when_a_ply_has_many():
    from boardlab.ai.mcts import MAST_CANDIDATES, Mast
    from boardlab.core.move import Move, Shift

    moves = [Move(f"m{i}", (Shift(i, i + 1),)) for i in range(4 * MAST_CANDIDATES)]
    mast = Mast(epsilon=0.0)
    for i, move in enumerate(moves):
        mast.update([(0, move.actions)], [1.0 if i == 7 else 0.1, 0.0])
    rng = random.Random(3)
    share = sum(mast.choose(moves, 0, rng) is moves[7] for _ in range(4000)) / 4000
    # The best move is played exactly when it is among the sampled candidates.
    assert abs(share - MAST_CANDIDATES / len(moves)) < 0.03


def test_a_capture_weight_weighs_the_random_playouts(kernel_runs):
    with pytest.raises(OptionError, match="capture"):
        MCTSBot(capture=-1)
    calls = kernel_runs
    state = load("abalone").initial_state()  # its heuristic is Python: the Python tree
    bot = MCTSBot(iterations=30, seed=1, capture=5)
    assert bot.choose(state) in state.legal_moves()
    assert len(calls) == 30 and all(policy == PlayoutPolicy(capture=5)
                                    for *_, policy in calls)
    # Without a kernel, "auto" plays the weighted random playouts too, not MAST.
    plain = load("breakthrough", rows=5, columns=4, engine="interpreter").initial_state()
    bot = MCTSBot(iterations=30, seed=1, capture=5)
    assert bot.choose(plain) in plain.legal_moves() and bot._mast is None
