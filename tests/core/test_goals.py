"""Goals (boardlab.core.goals): what a game's end scores when some players are chance
players (with boardlab.core.game.draw), the returns worked out by hand from the rule the
module states, a chance player 0 whatever ends the game; the goal kinds on hand-made
positions whose winner the games' published rules name; and the goal kinds on game
kernels against the interpreter."""

from __future__ import annotations

import random
from fractions import Fraction
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardlab
from boardlab.core import goals as g
from boardlab.core import kernel
from boardlab.core import rules as r
from boardlab.core.engine import Engine
from boardlab.core.game import draw, win_for
from boardlab.core.move import Piece
from tests.core.test_kernel import (
    BOARD,
    EXAMPLES,
    NAMES,
    PIECES,
    directions,
    goal_leaves,
    kernel_folder,  # noqa: F401 (a fixture the kernel tests use)
    kinds,
    make_game,
    owners,
    placements,
    play_both,
    templates,
    zones,
)

F = Fraction
#: Three seats, the first a die: ``(players ?Die White Black)``.
GOALS = g.Goals((), 3, chance=frozenset({0}))


def board(*owners: int) -> SimpleNamespace:
    """A stand-in position whose cells hold one man of each owner given."""
    return SimpleNamespace(cells=[Piece(owner, "man") for owner in owners])


def test_a_draw_splits_the_point_among_the_real_players():
    assert draw(3, frozenset({0})) == (F(0), F(1, 2), F(1, 2))
    assert draw(4, frozenset({1})) == (F(1, 3), F(0), F(1, 3), F(1, 3))
    assert draw(2) == (F(1, 2), F(1, 2))


@pytest.mark.parametrize(("kind", "player", "returns"), [
    ("win", 1, (0, 1, 0)),
    ("win", 0, (0, 0, 0)),                  # the die won: nobody at the table scores
    ("loss", 2, (0, 1, 0)),                 # the die does not share White's win
    ("loss", 0, (0, F(1, 2), F(1, 2))),     # the die lost: a draw between the others
    ("draw", 0, (0, F(1, 2), F(1, 2))),
    ("draw", 2, (0, F(1, 2), F(1, 2))),
])
def test_endings_leave_the_chance_player_nothing(kind, player, returns):
    assert GOALS.ending(kind, player, board()) == tuple(F(r) for r in returns)


def test_a_count_ranks_the_real_players_pieces_only():
    # The die's three pieces do not make it the leader; White's two beat Black's one.
    assert GOALS.ending("count", 1, board(0, 0, 0, 1, 1, 2)) == (0, 1, 0)
    assert GOALS.ending("count", 1, board(0, 0, 0, 1, 2)) == (0, F(1, 2), F(1, 2))


def test_a_game_for_one_player_against_the_dice():
    alone = g.Goals((), 2, chance=frozenset({0}))
    assert alone.ending("win", 0, board()) == (0, 0)       # the dice beat the player
    assert alone.ending("loss", 0, board()) == (0, 1)      # the dice lost
    assert alone.ending("loss", 1, board()) == (0, 0)
    assert alone.ending("draw", 1, board()) == (0, 1)


def test_without_chance_players_nothing_changes():
    plain = g.Goals((), 3)
    assert plain.ending("loss", 0, board()) == (0, F(1, 2), F(1, 2))
    assert plain.ending("draw", 0, board()) == (F(1, 3),) * 3
    assert g.Goals((), 1).ending("loss", 0, board()) == (0,)


# --- the goal kinds the games' ends need, on positions whose winner the rules name ----
def _abalone_without_whites(n: int, to_move: str = "black"):
    """Abalone's standard start with ``n`` of White's 14 marbles gone."""
    game = boardlab.load("abalone")
    cells, _ = str(game.initial_state()).split()
    whites = [c for c in cells.split(",") if c.endswith("=w")]
    kept = [c for c in cells.split(",") if c not in whites[:n]]
    return game.parse_state(f"{','.join(kept)} {to_move}")


@pytest.mark.parametrize(("gone", "lost"), [(0, False), (5, False), (6, True), (7, True)])
def test_pieces_lost_counts_the_marbles_pushed_off(gone, lost):
    # Abalone: "The first player to push six opposing marbles off wins" (the rules
    # leaflet as summarised by Wikipedia); every start has 14 marbles a side.
    state = _abalone_without_whites(gone)
    assert g.PiecesLost(6).holds(state, 1) is lost
    assert g.PiecesLost(6, "marble").holds(state, 1) is lost
    assert not g.PiecesLost(6).holds(state, 0)
    assert g.PiecesLost(gone).holds(state, 1) and not g.PiecesLost(gone + 1).holds(state, 1)
    assert not g.PiecesLost(1, "king").holds(state, 1)  # none at the start, none lost
    assert state.outcome() == (win_for(0) if lost else None)


def _epaminondas(rows: dict[int, str], to_move: str):
    """An 8x8 Epaminondas position: row number -> its eight cells (``W``, ``B``, ``.``)."""
    game = boardlab.load("epaminondas", size="8x8")
    text = "/".join(rows.get(y, "........") for y in range(8, 0, -1))
    return game.parse_state(f"{text} {to_move}")


_HOME = boardlab.load("epaminondas", size="8x8").board.zones["home"]
# Each player's far row: the other's home row.
CROSSING = g.MoreInZone((frozenset(_HOME[1]), frozenset(_HOME[0])).__getitem__)


@pytest.mark.parametrize(("rows", "to_move", "leader", "winner"), [
    # White has two pieces on row 8, Black one on row 1.
    ({8: "WW......", 1: "B.......", 4: "....W..B"}, "white", 0, 0),
    ({8: "WW......", 1: "B.......", 4: "....W..B"}, "black", 0, None),
    # One each: nobody has more.
    ({8: "W.......", 1: ".B......", 4: "....W..B"}, "white", None, None),
    ({8: "W.......", 1: ".B......", 4: "....W..B"}, "black", None, None),
    # Black alone across; pieces on their own home row do not count.
    ({8: "B.......", 1: "W..B....", 4: "....W..B"}, "black", 1, 1),
    ({8: "B.......", 1: "W..B....", 4: "....W..B"}, "white", 1, None),
])
def test_more_in_zone_and_to_move_are_the_crossing_rule(rows, to_move, leader, winner):
    # Epaminondas: "a player wins when, at the start of his turn, he has strictly more
    # pieces on the opponent's home row than the opponent has on his own home row"
    # (Abbott's rules, as Wikipedia gives them).
    state = _epaminondas(rows, to_move)
    for player in (0, 1):
        assert CROSSING.holds(state, player) is (player == leader)
        assert g.ToMove().holds(state, player) is (player == state.to_move)
    assert state.outcome() == (None if winner is None else win_for(winner))


def test_more_in_zone_counts_one_kind():
    state = _epaminondas({8: "WW......", 1: "B.......", 4: "....W..B"}, "white")
    assert not g.MoreInZone(CROSSING.cells, "king").holds(state, 0)
    assert g.MoreInZone(CROSSING.cells, "man").holds(state, 0)


def _brute_relative(pattern, state, player) -> bool:
    """A relative configuration by brute force: from every cell, step by step with
    :meth:`Board.step`, each item tested as its words say."""
    board = state.game.board
    for start in range(board.size):
        cell, fits = start, True
        for k, item in enumerate(pattern[0::2]):
            if k:
                cell = board.step(cell, pattern[2 * k - 1], player)
                if cell < 0:
                    fits = False
                    break
            owner, kind = item
            piece = state.cells[cell]
            if kind == "empty":
                fits = piece is None
            else:
                fits = piece is not None and piece.kind == kind and (
                    owner == "any" or (piece.owner == player) == (owner == "self"))
            if not fits:
                break
        if fits:
            return True
    return False


def test_relative_config_agrees_with_brute_force_on_random_positions():
    rng = random.Random(28)
    items = [(o, k) for o in ("self", "opponent", "any") for k in ("man", "king")]
    items.append(("any", "empty"))
    held = 0
    for _ in range(400):
        pattern = [rng.choice(items)]
        for _ in range(rng.randint(0, 3)):
            pattern += [rng.choice(("n", "s", "e", "w", "ne", "sw")), rng.choice(items)]
        placement = {c: rng.choice(sorted(PIECES))
                     for c in rng.sample(NAMES, rng.randint(0, 14))}
        state = make_game([], [], "loss", placement).using(Engine.INTERPRETER).initial_state()
        for player in (0, 1):
            found = g.RelativeConfig(tuple(pattern)).holds(state, player)
            assert found == _brute_relative(pattern, state, player), (pattern, str(state))
            held += found
    assert 100 < held < 700


# --- the goal kinds on game kernels, against the interpreter ----------------------------
FAR = BOARD.zones["far"]
STEPS = [r.Template((r.Step(d), r.Verify(r.EMPTY), r.Add()), name=d) for d in ("n", "e", "w")]
TAKES = [r.Template((r.Step(d), r.Verify(r.ENEMY), r.Add()), name="x" + d)
         for d in ("ne", "nw", "n")]
#: Men on the first and last rows of a 4x4 board, stepping forward or sideways and taking
#: forward; what ends the game is the goal kinds, a few at a time (each game compiles a
#: kernel); a player without a move draws, so a win or a loss is a goal's.
ENDS = {
    "lost, crossing": [
        g.Condition("loss", (0, 1), g.PiecesLost(2)),
        g.Condition("win", (0, 1), g.AllOf((g.ToMove(), g.MoreInZone(FAR.__getitem__))))],
    "facing, lost by the mover": [
        g.Condition("win", (0, 1),
                    g.RelativeConfig((("self", "man"), "n", ("opponent", "man")))),
        g.Condition("loss", (0, 1), g.AllOf((g.NotGoal(g.ToMove()), g.PiecesLost(1, "man"))))],
    "column, row": [
        g.Condition("loss", (0, 1), g.RelativeConfig((("self", "man"), "n", ("self", "man")))),
        g.Condition("win", (0, 1), g.RelativeConfig(
            (("any", "empty"), "e", ("self", "man"), "e", ("self", "man"), "n",
             ("opponent", "man"))))],
}


@pytest.mark.usefixtures("kernel_folder")
@pytest.mark.parametrize("end", sorted(ENDS))
def test_goal_kinds_end_kernel_games_as_the_interpreter_ends_them(end):
    placement = {"a1": "X", "b1": "X", "c1": "X", "d1": "X",
                 "a4": "O", "b4": "O", "c4": "O", "d4": "O"}
    game = make_game(STEPS + TAKES, ENDS[end], "draw", placement)
    assert kernel.why_not(game) is None
    ended = 0
    for seed in range(12):
        play_both(game, seed, 60)
        state = game.initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():  # the game play_both played, on the kernel
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        ended += state.outcome() in ((1, 0), (0, 1))
    assert ended >= 3


new_leaves = st.one_of(
    st.just(g.ToMove()),
    st.builds(g.PiecesLost, st.integers(0, 3), st.one_of(st.none(), kinds)),
    st.builds(lambda z, k: g.MoreInZone(z.__getitem__, k), zones, st.one_of(st.none(), kinds)),
    st.builds(lambda first, rest: g.RelativeConfig((first, *(i for p in rest for i in p))),
              st.tuples(owners, kinds) | st.just(("any", "empty")),
              st.lists(st.tuples(directions, st.tuples(owners, kinds)
                                 | st.just(("any", "empty"))), max_size=2)),
)
new_trees = st.recursive(st.one_of(new_leaves, goal_leaves), lambda inner: st.one_of(
    st.builds(lambda c: g.AllOf(tuple(c)), st.lists(inner, min_size=1, max_size=2)),
    st.builds(g.NotGoal, inner),
), max_leaves=3)
new_conditions = st.lists(st.builds(
    g.Condition, st.sampled_from(("win", "loss", "draw", "count")),
    st.sampled_from(((0,), (1,), (0, 1))), new_trees), min_size=1, max_size=3)


@pytest.mark.slow
@pytest.mark.usefixtures("kernel_folder")
@settings(max_examples=max(4, EXAMPLES // 5), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(templates=templates, conditions=new_conditions, placement=placements,
       seed=st.integers(0, 1 << 16))
def test_random_games_with_the_new_goal_kinds_end_as_the_interpreter_ends_them(
        templates, conditions, placement, seed):
    play_both(make_game(templates, conditions, "loss", placement), seed, 24)


@pytest.mark.usefixtures("kernel_folder")
@pytest.mark.parametrize("first", [False, True])
def test_moves_first_judges_a_player_without_a_move_before_the_conditions(first):
    # A condition that always holds (no turn played yet is at least none), and X to
    # move on a4, whose only template steps north off the board: by default the
    # condition ends the game; judged first, X without a move loses. X on b2 can move:
    # the condition ends the game either way.
    step = r.Template((r.Step("n"), r.Verify(r.EMPTY), r.Add()), name="a")
    always = [g.Condition("draw", (0,), g.TurnsPlayed(0))]
    for cell, want in (("a4", win_for(1) if first else draw(2)), ("b2", draw(2))):
        game = make_game([step], always, "loss", {cell: "X", "c3": "O"}, moves_first=first)
        state = game.initial_state()
        assert isinstance(state, kernel.KernelPosition)
        assert state.outcome() == want and state.legal_moves() == []
        plain = game.using(Engine.INTERPRETER).initial_state()
        assert plain.outcome() == want and plain.legal_moves() == []


def test_turns_played_and_fewer_pieces_remaining():
    # Nine men's morris's ends: fewer than three men in all lose; 200 turns draw.
    game = boardlab.load("nine-mens-morris")
    state = game.parse_state("b.b/.../b../....../..w/.w./.w. w - 0/0 150")
    fewer = g.PiecesRemaining(3, in_hand=True, fewer=True)
    assert not fewer.holds(state, 0) and not fewer.holds(state, 1)
    assert g.TurnsPlayed(150).holds(state, 0) and not g.TurnsPlayed(151).holds(state, 1)
    state = state.play("e3-d3").play("xa7")
    assert fewer.holds(state, 1) and not fewer.holds(state, 0)
    assert state.turns == 151 and g.TurnsPlayed(151).holds(state, 0)
    assert g.PiecesRemaining(2, in_hand=True).holds(state, 1)
    # The goals count turns: the key reads them, up to the limit (200).
    keys = {game.parse_state(f"b.b/.../b../....../..w/.w./.w. w - 0/0 {t}").key()
            for t in (150, 151, 199, 200)}
    assert len(keys) == 4 and game.turns_limit == 200
