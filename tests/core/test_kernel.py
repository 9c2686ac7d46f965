"""Game kernels (numba, array boards, integer moves) against the interpreter.

The reference is a plain :class:`PieceState` with every template interpreted. Random
games -- random templates over everything a kernel compiles, random end conditions,
random start positions -- are played on both, move for move: the same legal moves in
the same order (notation, actions, template), the same outcome, key, text, last move
and captures at every ply, and again at every ply on the way back by undo. Breakthrough,
which has a kernel, is held to its published perft and to the interpreter along random
games of several board sizes.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import boardlab
from boardlab.core import goals as g
from boardlab.core import kernel
from boardlab.core import rules as r
from boardlab.core.board import Board
from boardlab.core.engine import Engine
from boardlab.core.game import State, perft
from boardlab.core.kernel import compiler as kcompiler
from boardlab.core.kernel import layout as klayout
from boardlab.core.kernel import plan as kplan
from boardlab.core.kernel import position as kposition
from boardlab.core.kernel import writer as kwriter
from boardlab.core.kernel.writer import chains as kchains
from boardlab.core.kernel.writer import module as kmodule
from boardlab.core.move import Capture, Move, Piece, Place, Shift
from boardlab.core.position import PieceGame, PieceState
from boardlab.core.ruleset import RuleSet
from boardlab.errors import BoardError, IllegalMoveError, RulesError
from boardlab.zrf.game import load_game
from tests.core.strategies import predicate_trees

PIECES = {"X": Piece(0, "man"), "K": Piece(0, "king"), "O": Piece(1, "man"),
          "Q": Piece(1, "king")}
#: The same pieces with the attributes runs set ("moved", "royal"), so that every piece
#: a move can make has a key.
PIECES.update({f"{symbol}{'m' * ('moved' in a)}{'r' * ('royal' in a)}": Piece(
    piece.owner, piece.kind, a) for symbol, piece in list(PIECES.items())
    for a in (frozenset({"moved"}), frozenset({"royal"}), frozenset({"moved", "royal"}))})
BOARD = Board.square(4, 4).rotated_for(1).with_zone("far", 0, ["a4", "b4", "c4", "d4"]) \
    .with_zone("far", 1, ["a1", "b1", "c1", "d1"])
DIRECTIONS = ("n", "s", "e", "w", "ne", "sw")
NAMES = [BOARD.cell_name(c) for c in range(BOARD.size)]


def make_game(templates, conditions, stalemate, placement, pass_turn=None, recycle="",
              moves_first=False, follow_up=None, pieces=None):
    """An unregistered game with a kernel: these templates, these end conditions, this
    pass rule. ``recycle`` names "captures" (a piece taken goes to its owner's hand)
    and "promotions" (a promotion takes its piece from the hand): the hand then counts
    every piece from the start, a king each. ``moves_first``: a player without a move
    is judged first; ``follow_up``: a rules.FollowUp; ``pieces``: the game's pieces by
    symbol (:data:`PIECES`, with every attribute a run may set, when None)."""
    goals = g.Goals(tuple(conditions), 2, stalemate, moves_first=moves_first)
    symbols = PIECES if pieces is None else pieces

    class Random(PieceGame):
        name = "random-kernel-game"
        description = "test game"
        player_names = ("x", "o")
        pieces = symbols

        def make_ruleset(self) -> RuleSet:
            reserves = {p: int(p.kind == "king" and not p.attributes)
                        for p in PIECES.values()} if recycle else {}
            return self.named_ruleset(
                board=BOARD, placement={cell: symbols[s] for cell, s in placement.items()},
                reserves=reserves,
                rules=r.Rules(list(templates), pass_turn=pass_turn, follow_up=follow_up),
                goals=goals, recycle_captures="captures" in recycle,
                recycle_promotions="promotions" in recycle)

        def result(self, state):
            return goals.result(state)

        def no_moves(self, state):
            return goals.no_moves(state)

    return Random()


cells = st.integers(0, BOARD.size - 1)
directions = st.sampled_from(DIRECTIONS)
kinds = st.sampled_from(("man", "king"))
leaves = st.one_of(
    st.sampled_from([r.EMPTY, r.FRIEND, r.ENEMY, r.ON_BOARD, r.ALWAYS, r.NEVER]),
    st.one_of(
        st.builds(r.position_is, cells),
        st.builds(r.in_cells, st.frozensets(cells, max_size=4)),
        st.builds(r.on_board_step, directions),
        st.builds(lambda k: r.piece_is(*k), st.lists(kinds, min_size=1, max_size=2)),
        st.builds(r.in_zone, st.just("far")),
        st.just(r.adjacent_to_enemy),
        st.builds(r.attribute, st.sampled_from(("moved", "royal"))),
        # The mover's pieces one group (read once as the position's moves are found).
        st.builds(r.connected, st.sampled_from((None, ("n", "s", "e", "w")))),
    ),
)
names = st.sampled_from(("f", "g"))
# What a run remembers: its mark, and its flags and counters (one namespace).
run_leaves = st.one_of(st.just(r.MARKED), st.builds(r.Flag, names),
                       st.builds(r.position_flag, names), st.builds(
    r.Less, st.one_of(st.builds(r.Var, names), st.integers(-1, 2)),
    st.one_of(st.builds(r.Var, names), st.integers(-1, 2))))
# Counts of pieces, the mover's or the others', of one type or any, in hand too.
counts = st.builds(r.PieceCount, st.sampled_from(((), ("man",), ("king",))), st.booleans(),
                   st.booleans())
run_leaves = run_leaves | st.builds(r.Less, st.one_of(counts, st.integers(0, 4)),
                                    st.one_of(counts, st.integers(0, 4)))
predicates = predicate_trees(st.one_of(leaves, run_leaves), cells, directions)
#: The tests of a cell that no run reads (a follow-up's, read after a move).
cell_tests = predicate_trees(leaves, cells, directions)
walks = st.one_of(st.builds(r.Step, directions), st.builds(r.Verify, predicates))
adds = st.one_of(st.just(r.Add()), st.just(r.Add("king")), st.just(r.Add(copy=True)))
wheres = st.one_of(st.just({}), st.builds(lambda c: {"cell": c}, cells),
                   st.builds(lambda d: {"direction": d}, directions))
# Instructions that move the cursor without a step, or set what the run remembers.
jumps = st.one_of(
    st.just(r.Mark()), st.just(r.Back()), st.builds(r.GoTo, cells),
    st.builds(r.Go, st.sampled_from(("from", "to", "mark"))),
    st.builds(r.MarkAt, cells), st.builds(lambda d: r.MarkAt(direction=d), directions),
    st.builds(r.SetFlag, names, st.one_of(st.booleans(), predicates)),
    st.builds(lambda n, v, w: r.SetPositionFlag(n, v, **w), names,
              st.one_of(st.booleans(), leaves), wheres),
    st.builds(r.SetVar, names, st.integers(-1, 2)), st.builds(r.Inc, names, st.integers(-1, 2)),
)
# Instructions that act on the board: captures, the piece in hand put down and picked
# up, creations and changes of type and owner, here or a cell or a step away.
acts = st.one_of(
    st.just(r.CaptureHere()), st.builds(lambda w: r.CaptureAt(**w), wheres.filter(bool)),
    st.just(r.To()), st.just(r.From()), st.just(r.Cascade()), st.just(r.DiscardCascades()),
    st.builds(lambda k, o, w: r.Create(k, o, **w), st.one_of(st.none(), kinds),
              st.sampled_from((None, 0, 1)), wheres),
    st.builds(lambda k, w: r.ChangeType(k, **w), kinds, wheres),
    st.builds(lambda f, w: r.ChangeOwner(flip=f, **w), st.booleans(), wheres),
    st.builds(r.SetAttribute, st.sampled_from(("moved", "royal")),
              st.one_of(st.booleans(), leaves)),
)
simple = st.one_of(walks, adds, acts, jumps)


def _loop_body(items):
    # Every turn of a loop walks on (a loop that stays would never end).
    return tuple(items)


instructions = st.one_of(
    simple,
    # A fork at every cell (what the kernel keeps in locals is restored: no cells'
    # flags or discarded cascades inside).
    st.builds(lambda body: r.EveryCell(tuple(body)), st.lists(st.one_of(
        walks, adds, st.just(r.CaptureHere()), st.just(r.To()), st.just(r.Cascade()),
        st.builds(r.SetFlag, names, st.one_of(st.booleans(), predicates)),
        st.builds(r.Inc, names, st.integers(-1, 2)), st.just(r.Mark()), st.just(r.Back())),
        max_size=3)),
    st.builds(r.If, predicates, st.lists(simple, max_size=3).map(tuple),
              st.lists(simple, max_size=3).map(tuple)),
    st.builds(lambda t, d, body: r.While(t, (r.Step(d), *_loop_body(body))),
              predicates, directions, st.lists(st.one_of(walks, adds), max_size=2)),
)


# A program ends with an add (else most runs would make nothing to compare).
programs = st.lists(instructions, max_size=6).map(lambda p: (*p, r.Add()))


def _in_hand_stays(program):
    """The program without the instructions that put the piece in hand down or pick
    one up (a kernel refuses them in a drop, whose piece comes from the hand)."""
    out = []
    for i in program:
        if isinstance(i, r.To | r.From | r.Cascade):
            continue
        if isinstance(i, r.If):
            i = r.If(i.test, _in_hand_stays(i.then), _in_hand_stays(i.else_))
        elif isinstance(i, r.While):
            i = r.While(i.test, _in_hand_stays(i.body))
        elif isinstance(i, r.EveryCell):
            i = r.EveryCell(_in_hand_stays(i.body))
        out.append(i)
    return tuple(out)


templates = st.lists(st.one_of(
    # Of move type "t" (a follow-up's), those not top-level only as follow-ups.
    st.builds(lambda program, k, priority, name, shared, follow: r.Template(
        program, kinds=k, priority=priority, name=name, shared=shared,
        move_type="t" if follow else None, top_level=follow != "only"),
        programs, st.sampled_from(((), ("man",), ("king",), ("man", "king"))),
        st.integers(0, 1), st.sampled_from(("a", "b", "c")), st.booleans(),
        st.sampled_from(("", "", "also", "only"))),
    # Drops from an unlimited supply, or for player 0 alone from its hand (which only
    # recycled captures fill).
    st.builds(lambda program, k, priority, zone, players: r.Drop(
        program, kinds=(k,), priority=priority, name="d", zone=zone,
        unlimited_for=players), programs.map(_in_hand_stays), kinds, st.integers(0, 1),
        st.sampled_from((None, "far")), st.sampled_from((frozenset({0, 1}),
                                                          frozenset({1})))),
), min_size=1, max_size=3)
owners = st.sampled_from(("self", "opponent", "any"))
zones = st.sampled_from(((frozenset(range(12, 16)), frozenset(range(4))),
                         (frozenset({5, 6, 9, 10}),) * 2))
goal_leaves = st.one_of(
    st.builds(lambda o, k, z: g.AbsoluteConfig(((o, k),), z.__getitem__), owners, kinds,
              zones),
    st.builds(g.PiecesRemaining, st.integers(0, 2), st.one_of(st.none(), kinds)),
    st.builds(g.TotalPieceCount, st.integers(0, 4), st.one_of(st.none(), kinds)),
    st.builds(g.Repetition, st.integers(1, 3)),
    st.builds(g.TurnsPlayed, st.integers(0, 12)),
    st.builds(lambda n, k, hand: g.PiecesRemaining(n, k, hand, fewer=True),
              st.integers(0, 4), st.one_of(st.none(), kinds), st.booleans()),
    # Lines of pieces, which the kernel looks for near the last move's cells alone
    # where none held before it (under AnyOf: near; under AllOf or NotGoal: everywhere).
    st.builds(lambda first, rest: g.RelativeConfig(
        (first, *[x for step in rest for x in step])),
        st.tuples(owners, st.sampled_from(("man", "king", "empty"))),
        st.lists(st.tuples(directions, st.tuples(owners, st.sampled_from(
            ("man", "king", "empty")))), max_size=2)),
)
goal_trees = st.recursive(goal_leaves, lambda inner: st.one_of(
    st.builds(lambda c: g.AllOf(tuple(c)), st.lists(inner, min_size=1, max_size=2)),
    st.builds(lambda c: g.AnyOf(tuple(c)), st.lists(inner, min_size=1, max_size=2)),
    st.builds(g.NotGoal, inner),
), max_leaves=3)
conditions = st.lists(st.one_of(
    st.builds(g.Condition, st.sampled_from(("win", "loss", "draw", "count")),
              st.sampled_from(((0,), (1,), (0, 1))), goal_trees),
    st.builds(g.Condition, st.sampled_from(("win", "loss", "draw")),
              st.sampled_from(((0,), (1,), (0, 1))), st.just(g.Stalemated())),
), max_size=3)
placements = st.dictionaries(st.sampled_from(NAMES), st.sampled_from(sorted(PIECES)),
                             max_size=10).map(lambda d: {"b2": "X", "c3": "O", **d})


def snapshot(state):
    """What the two positions must agree on."""
    try:
        moves = [(m.notation, m.actions, m.tag) for m in state.legal_moves()]
        outcome = state.outcome()
    except (BoardError, RulesError) as error:
        return ("error", type(error).__name__, str(error))
    return (moves, outcome, state.key(), str(state), state.to_move, state.ply,
            state.last_from, state.last_to, state.last_mover, state.last_actions,
            state.captured_by_last_move(), state.occurrences(), state.signature())


def play_both(game, seed: int, plies: int, pick=None) -> int:
    """A random game on a kernel position and on an interpreted one, compared at every
    ply forth and back (``pick(moves, rng)``: the index of the move played, else one at
    random); returns the plies played."""
    fast = game.initial_state()
    assert isinstance(fast, kernel.KernelPosition), kernel.why_not(game)
    slow = game.using(Engine.INTERPRETER).initial_state()
    assert not isinstance(slow, kernel.KernelPosition)
    rng = random.Random(seed)
    seen = []
    for _ in range(plies):
        got = snapshot(fast)
        want = snapshot(slow)
        assert got == want, kernel.source(game)
        if got[0] == "error" or fast.is_terminal():
            break
        seen.append(got)
        moves = fast.legal_moves()
        i = rng.randrange(len(moves)) if pick is None else pick(moves, rng)
        fast.apply(moves[i])
        slow.apply(slow.legal_moves()[i])
    for before in reversed(seen):
        fast.undo()
        assert snapshot(fast) == before
    return len(seen)


#: Random games compiled in one run: each new kernel takes 6 s of CPU or more to compile
#: (10 s to 25 s in a loaded run of the suite), so the suite plays a sample of 4 (with the
#: cases a search found, as explicit examples) and marks these tests slow;
#: ``BOARDLAB_KERNEL_EXAMPLES=500`` plays a deep run (benchmarks/README).
EXAMPLES = int(os.environ.get("BOARDLAB_KERNEL_EXAMPLES", "4"))


@pytest.fixture(scope="module")
def kernel_folder(tmp_path_factory):
    """Random games' kernels go to a temporary folder, not the user's cache."""
    before = os.environ.get("BOARDLAB_KERNEL_DIR")
    os.environ["BOARDLAB_KERNEL_DIR"] = str(tmp_path_factory.mktemp("kernels"))
    yield
    if before is None:
        del os.environ["BOARDLAB_KERNEL_DIR"]
    else:
        os.environ["BOARDLAB_KERNEL_DIR"] = before


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(templates=templates, conditions=conditions,
       stalemate=st.sampled_from(("loss", "win", "draw")), placement=placements,
       seed=st.integers(0, 1 << 16), pass_turn=st.sampled_from((None, "always", "forced")),
       split=st.booleans(),
       recycle=st.sampled_from(("", "captures", "promotions", "captures promotions")),
       moves_first=st.booleans(),
       follow_up=st.one_of(st.none(), st.builds(lambda t: r.FollowUp(t, "t"), cell_tests)))
# Found by the search: a follow-up whose test reads the mover's group, on the board after
# the move (the kernel read the group as the move's generation had found it); a template
# that nothing runs (not top-level, no follow-up: the kernel writes no function for it).
@example(templates=[r.Template((r.Step("n"), r.Add()), name="a")], conditions=[],
         stalemate="loss", placement={"b2": "X", "c3": "O", "a1": "K"}, seed=50694,
         pass_turn="always", split=True, recycle="captures", moves_first=False,
         follow_up=r.FollowUp(r.Not(r.AnyOf((r.Connected(), r.PositionIs(3)))), "t"))
@example(templates=[r.Template((r.Add(),), name="a", move_type="t", top_level=False)],
         conditions=[], stalemate="loss", placement={"b2": "X", "c3": "O"}, seed=0,
         pass_turn=None, split=True, recycle="", moves_first=False, follow_up=None)
def test_random_games_play_as_the_interpreter_plays_them(kernel_folder, templates, conditions,
                                                         stalemate, placement, seed,
                                                         pass_turn, split, recycle,
                                                         moves_first, follow_up):
    game = make_game(templates, conditions, stalemate, placement, pass_turn, recycle,
                     moves_first, follow_up)
    # Half of them with their templates as functions (the kernel of large rule sets).
    before = kmodule._SPLIT_LINES
    kmodule._SPLIT_LINES = 0 if split else 1 << 30
    try:
        # Split: each template that runs is a function (none runs that is not
        # top-level when no follow-up calls it).
        runs = any(t.top_level or follow_up is not None and t.move_type == follow_up.move_type
                   for t in templates)
        assert ("def template0(" in kernel.source(game)) == (split and runs)
        play_both(game, seed, 24)
    finally:
        kmodule._SPLIT_LINES = before


# Runs whose steps may leave the board (the cursor then off it: -1 on a kernel), and
# what the kernel runs there: tests (false of a cell off the board), flags and counters,
# cascades and puts down (the piece in hand put down off the board: taken), adds, marks
# (of the cell off the board too), ways back and captures (of nothing there).
leaving_simple = st.one_of(
    st.builds(r.Step, directions, st.booleans()), st.builds(r.Verify, predicates),
    st.builds(r.SetFlag, names, st.one_of(st.booleans(), predicates)),
    st.builds(r.SetVar, names, st.integers(-1, 2)), st.builds(r.Inc, names, st.integers(-1, 2)),
    st.just(r.Cascade()), st.just(r.Add()), st.just(r.Add("king")),
    # A mark (off the board too), a way back to it, a capture and a piece put down.
    st.just(r.Mark()), st.just(r.Back()), st.just(r.CaptureHere()), st.just(r.To()))
leaving_programs = st.tuples(directions, st.lists(st.one_of(
    leaving_simple,
    st.builds(r.If, predicates, st.lists(leaving_simple, max_size=3).map(tuple),
              st.lists(leaving_simple, max_size=3).map(tuple)),
    st.builds(lambda t, d, body: r.While(t, (r.Step(d, may_leave=True), *body)),
              predicates, directions, st.lists(leaving_simple, max_size=2)),
), max_size=5)).map(lambda p: (r.Step(p[0], may_leave=True), *p[1], r.Add()))


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(programs=st.lists(leaving_programs, min_size=1, max_size=3), conditions=conditions,
       placement=placements, seed=st.integers(0, 1 << 16))
def test_runs_that_leave_the_board_play_as_the_interpreter_plays_them(
        kernel_folder, programs, conditions, placement, seed):
    templates = [r.Template(p, name=f"t{k}") for k, p in enumerate(programs)]
    game = make_game(templates, conditions, "loss", placement)
    assert kernel.why_not(game) is None
    play_both(game, seed, 24)


def test_a_loop_met_only_after_a_move_fails_there_as_the_interpreter_fails(kernel_folder):
    # x's man walks a3-a4; then o's man at b3 spins (a step east and back) for ever,
    # because an enemy stands on a4. The move itself is legal and stands on both
    # positions; the next position's moves fail, and the move undoes cleanly. (A kernel
    # used to refuse the move itself, where the interpreter played it.)
    walk = r.Template((r.Step("n"), r.Verify(r.EMPTY), r.Add()), name="walk")
    spin = r.Template((r.Verify(r.at_cell(r.ENEMY, BOARD.cell("a4"))),
                       r.While(r.ALWAYS, (r.Step("e"), r.Step("w"))), r.Add()), name="spin")
    game = make_game([walk, spin], [], "draw", {"a3": "X", "b3": "O"})
    fast = game.initial_state()
    assert isinstance(fast, kernel.KernelPosition)
    assert [m.notation for m in fast.legal_moves()] == ["a3-a4"]
    before = snapshot(fast)
    fast.apply(fast.legal_moves()[0])
    assert fast.to_move == 1 and fast.last_to == BOARD.cell("a4")
    with pytest.raises(BoardError, match="loops forever"):
        fast.legal_moves()
    with pytest.raises(BoardError, match="loops forever"):
        fast.is_terminal()
    fast.undo()
    assert snapshot(fast) == before
    assert play_both(game, 0, 4) == 1
    # A perft counted in the kernel meets the loop below the move: the walk over the
    # position's moves takes over and fails there, as the interpreter's perft does.
    assert perft(fast, 1) == [1]
    with pytest.raises(BoardError, match="loops forever"):
        perft(fast, 2)
    with pytest.raises(BoardError, match="loops forever"):
        perft(game.using(Engine.INTERPRETER).initial_state(), 2)
    assert snapshot(fast) == before


def _lookout(spin: bool = False) -> r.If:
    """An empty cell from which no friend stands one step n, e, s or w is added; then a
    step north that fails the run off the board (as shogi.zrf's pawn drop tests each
    cell, by one macro written many times). ``spin``: an enemy on a4 makes it loop."""
    def look(d: str) -> r.If:
        return r.If(r.OnBoardStep(d), (r.Step(d), r.If(r.FRIEND, (r.SetFlag("ok", False),)),
                                       r.Back()))
    loop = (r.If(r.at_cell(r.ENEMY, BOARD.cell("a4")),
                 (r.While(r.ALWAYS, (r.Step("e"), r.Step("w"))),)),) if spin else ()
    return r.If(r.EMPTY, (r.SetFlag("ok", True), r.Mark(), *loop, look("n"), look("e"),
                          look("s"), look("w"), r.If(r.Flag("ok"), (r.Add(),)),
                          r.Step("n")))


def test_a_subtree_a_template_repeats_runs_as_a_function_as_the_interpreter_runs_it(
        kernel_folder):
    # The subtree is written once, as a function the run calls: the flag it sets, the
    # mark, the moves it adds and the failure of its last step come back to the run.
    here = _lookout()
    # After it, the run reads its flag and goes back to its mark.
    scout = r.Template((r.Step("n"), here, r.Step("e"), here,
                        r.If(r.Flag("ok"), (r.Back(), r.Step("s"))), here, r.Step("w"),
                        r.Verify(r.EMPTY), r.Add()), name="scout")
    walk = r.Template((r.Step("n"), r.Verify(r.EMPTY), r.Add()), name="walk")
    game = make_game([scout, walk], [g.Condition("win", (0, 1), g.PiecesRemaining(0))], "loss",
                     {"a1": "X", "c1": "X", "b4": "O", "d3": "O"})
    assert kernel.source(game).count("= routine0(") == 3
    assert sum(play_both(game, seed, 30) for seed in range(6)) > 30
    # A loop that never ends, met inside the function, is the run's error.
    spinner = r.Template((r.Step("n"), _lookout(spin=True), r.Step("e"), _lookout(spin=True)),
                         name="spinner")
    game = make_game([spinner, walk], [], "draw", {"a2": "X", "a4": "O"})
    assert "= routine0(" in kernel.source(game)
    with pytest.raises(BoardError, match="loops forever"):
        game.initial_state().legal_moves()


def test_a_move_a_higher_priority_makes_again_shadows_the_lower_ones(kernel_folder):
    # x's man steps b2-b3, plain or promoted, at priority 0; a priority-1 template
    # makes the plain step again, which leaves it alone. (A kernel used to drop the
    # second b2-b3 as a repeat, and with it its priority: both moves stood.)
    both = r.Template((r.Step("n"), r.Verify(r.EMPTY), r.Add(), r.Add(promote="king")),
                      ("man",), name="both")
    plain = r.Template((r.Step("n"), r.Verify(r.EMPTY), r.Add()), ("man",), priority=1,
                       name="plain")
    game = make_game([both, plain], [], "draw", {"b2": "X", "d4": "O"})
    fast = game.initial_state()
    assert isinstance(fast, kernel.KernelPosition)
    assert [(m.notation, m.tag) for m in fast.legal_moves()] == [("b2-b3", "plain")]
    assert play_both(game, 0, 4) == 4


@pytest.mark.parametrize("split", [False, True])
def test_a_priority_is_skipped_only_once_a_higher_one_found_a_move(
        kernel_folder, monkeypatch, split):
    # Jumps (priority 1) come first; the two steps of priority 0 run where no jump is
    # found, both of them (a kernel skipped a step once the other had found one), in
    # their own order; the templates written out in generate or as functions.
    monkeypatch.setattr(kmodule, "_SPLIT_LINES", 0 if split else 10_000)
    jump = r.Template((r.Step("n"), r.Verify(r.ENEMY), r.CaptureHere(), r.Step("n"),
                       r.Verify(r.EMPTY), r.Add()), ("man",), priority=1, name="jump")
    north = r.Template((r.Step("n"), r.Verify(r.EMPTY), r.Add()), ("man",), name="north")
    east = r.Template((r.Step("e"), r.Verify(r.EMPTY), r.Add()), ("man",), name="east")
    game = make_game([north, jump, east], [], "draw", {"a1": "X", "c1": "X", "c4": "O"})
    writer, _ = kplan._write(game)
    assert writer.split == split and writer.order() == [1, 0, 2]
    assert writer.skipped(0) and writer.skipped(2) and not writer.skipped(1)
    start = game.initial_state()
    assert isinstance(start, kernel.KernelPosition)
    assert [m.notation for m in start.legal_moves()] == ["a1-a2", "c1-c2", "a1-b1", "c1-d1"]
    assert sum(play_both(game, seed, 30) for seed in range(6)) > 12


def test_a_priority_s_chains_are_searched_as_it_ends_within_the_position_s_bound(
        kernel_folder):
    # A jump that goes on (priority 1) and slides that go on (priority 0) make chains;
    # a plain step (priority 0) is skipped once a higher priority found a move, so the
    # jump's chains are searched as its priority ends, the slides' after every template.
    # The steps the two searches may take are the position's, not each search's: the
    # jump's chains explore 4 steps, the slides' 3, and a bound of 6 is an error on
    # both engines, as the interpreter explores them all against one bound.
    import dataclasses

    jump = r.Template((r.Step("n"), r.Verify(r.ENEMY), r.CaptureHere(), r.Step("n"),
                       r.Verify(r.EMPTY), r.Add(partial="")), ("man",), priority=1,
                      name="jump")
    slide = r.Template((r.Step("e"), r.Verify(r.EMPTY), r.Add(partial="")), ("man",),
                       name="slide")
    north = r.Template((r.Step("n"), r.Verify(r.EMPTY), r.Add()), ("man",), name="north")
    placement = {"a1": "X", "a2": "O", "d4": "O"}

    def moves(bound, fast):
        game = make_game([jump, slide, north], [], "draw", placement)
        if not fast:
            game = game.using(Engine.INTERPRETER)
        game.move_rules = dataclasses.replace(game.move_rules, max_chains=bound)
        try:
            state = game.initial_state()
            assert isinstance(state, kernel.KernelPosition) == fast
            return [m.notation for m in state.legal_moves()]
        except RulesError as error:
            assert "more than" in str(error)
            return None

    game = make_game([jump, slide, north], [], "draw", placement)
    writer, source = kplan._write(game)
    assert [writer.skipped(i) for i in range(3)] == [False, False, True]
    assert source.count("n = chains(S, T, player, n)") == 2
    # The slides alone (no jump: no enemy ahead) explore 3 steps.
    placement.pop("a2")
    assert moves(2, False) is None and moves(3, False)
    placement["a2"] = "O"
    for fast in (False, True):
        assert moves(6, fast) is None
        assert moves(7, fast) == ["xa2 a1-a3; a3-a4", "xa2 a1-a3; a3-b3; b3-b4",
                                  "xa2 a1-a3; a3-b3; b3-c3; c3-c4",
                                  "xa2 a1-a3; a3-b3; b3-c3; c3-d3"]
    assert sum(play_both(game, seed, 20) for seed in range(4)) > 8


@pytest.mark.parametrize("rule", ["always", "forced"])
def test_a_pass_plays_as_the_interpreter_plays_it(kernel_folder, rule):
    # x's man is blocked at once; o's man walks north-east past it. A forced pass is
    # x's only move while o can go on; an "always" pass is every position's last move.
    north = r.Template((r.Step("n"), r.Verify(r.EMPTY), r.Add()), name="north")
    game = make_game([north], [], "draw", {"b2": "X", "b3": "O", "c3": "O"}, rule)
    start = game.initial_state()
    assert isinstance(start, kernel.KernelPosition)
    assert [m.notation for m in start.legal_moves()] == ["pass"]
    start.apply(start.legal_moves()[0])
    assert start.last_actions == () and start.to_move == 1
    assert [m.notation for m in start.legal_moves()] == \
        (["c3-c2"] if rule == "forced" else ["c3-c2", "pass"])
    for seed in range(6):
        play_both(game, seed, 12)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "options"), [
    ("breakthrough", {}), ("breakthrough", {"rows": 5, "columns": 4}),
    ("breakthrough", {"rows": 6, "columns": 3}), ("breakthrough", {"rows": 10, "columns": 12}),
    # Group moves, forward only and in all six directions, of three stones or of 1-3.
    ("taacoca", {}), ("taacoca", {"directions": "all"}), ("taacoca", {"group": "any"}),
    ("taacoca", {"directions": "all", "group": "any"}),
    # Drops that flip lines of discs (changes of owner and type), forced passes, the
    # count of discs when neither side can move.
    ("othello", {}),
    # Drops alone, lines of three along 13 directions of a cube.
    ("tic-tac-toe-3d", {}),
    # Lines that push the opponent's marbles, off the board too (steps that may leave
    # it), and broadsides.
    ("abalone", {}), ("abalone", {"start": "belgian-daisy"}),
    # Removals that follow a mill in the same turn, flights to every empty point at
    # three men, men outside mills first (priorities), a limit of turns, no move judged
    # first; three men's morris's lines of three along two or four axes.
    ("nine-mens-morris", {}), ("three-mens-morris", {}),
    ("three-mens-morris", {"diagonals": False, "max_moves": 30})])
def test_language_games_play_on_their_kernel_as_the_interpreter_plays_them(name, options):
    game = boardlab.load(name, **options)
    assert kernel.why_not(game) is None
    plies = sum(play_both(game, seed, 400) for seed in range(4))
    assert plies > 40


def footprint_game(placement, cut_off=None):
    """A game of footprint templates on a 6x6 board whose directions turn for o: men
    move in 3x3 footprints (centres in a zone of each player's own, at most two
    cells, any distance with a man in the centre), kings in L-shaped ones of three
    cells (one cell at a time, never south); a king also steps west, a man north."""
    board = Board.square(6, 6).rotated_for(1) \
        .with_zone("inside", 0, [f"{f}{k}" for f in "bcde" for k in "2345"]) \
        .with_zone("inside", 1, [f"{f}{k}" for f in "abcdef" for k in "2345"])
    rules = r.Rules([
        r.Footprint((), ("man",), name="men", zone="inside", reach=2),
        r.Footprint((), ("king",), name="kings", zone="inside", reach=1,
                    shape=("", "n", "e"), directions=("n", "e", "s", "w")),
        r.Template((r.Step("w"), r.Verify(r.EMPTY), r.Add()), ("king",), name="step"),
        r.Template((r.Step("n"), r.Verify(r.EMPTY), r.Add()), ("man",), name="walk")],
        cut_off=cut_off)

    # A rule set played as it is, without a class of its own.
    return PieceGame(RuleSet(
        name="footprint-kernel-game", players=("x", "o"), pieces=PIECES, board=board,
        placement={cell: PIECES[s] for cell, s in placement.items()}, rules=rules,
        goals=g.Goals((), 2, "loss")))


def test_footprints_play_on_the_kernel_as_the_interpreter_plays_them(kernel_folder):
    # Random starts, x's pieces on rows 1-3 and o's on rows 4-6: footprints that hold
    # other pieces are no pieces, those holding a king and a man belong to neither
    # template, moves stop on covered pieces (own ones too) and carry pieces out of a
    # zone that differs by player; a footprint's move stands beside a step that does
    # the same. One kernel for all (the placement is not in its source).
    rng = random.Random(7)
    plies = captures = 0
    for seed in range(12):
        placement = {}
        for rows, symbols in (("123", "XXXK"), ("456", "OOOQ")):
            cells = [f"{f}{k}" for f in "abcdef" for k in rows]
            placement.update({c: rng.choice(symbols)
                              for c in rng.sample(cells, rng.randint(3, 8))})
        game = footprint_game(placement)
        assert kernel.why_not(game) is None
        plies += play_both(game, seed, 40)
        state = game.initial_state()
        captures += sum(any(type(a) is Capture for a in m.actions) for m in state.legal_moves())
    assert plies > 100 and captures > 20
    # A move's notation and tag are the centres before and after, on both engines.
    game = footprint_game({"c3": "X", "c4": "X", "e5": "O"})
    moves = game.initial_state().legal_moves()
    assert [(m.notation, m.tag)
            for m in game.using(Engine.INTERPRETER).initial_state().legal_moves()] == \
        [(m.notation, m.tag) for m in moves]
    assert ("c3-c5", (game.board.cell("c3"), game.board.cell("c5"))) in \
        [(m.notation, m.tag) for m in moves]


def test_a_footprint_s_capture_cuts_off_groups_on_the_interpreter():
    # x's man on c3 moves in the footprint centred on c2 to c3's, covering o's c4: o's
    # men left, a6 and f6, are two groups as large, so the mover keeps either (one
    # move each, noted). The kernel says it does not play the two rules together.
    game = footprint_game({"c3": "X", "c4": "O", "a6": "O", "f6": "O"},
                          cut_off=r.KeepLargestGroup())
    assert "cut off" in kernel.why_not(game)
    state = game.initial_state()
    assert not isinstance(state, kernel.KernelPosition)
    cut = [m for m in state.legal_moves() if str(m.notation).startswith("c2-c3")]
    c = game.board.cell
    assert [(str(m.notation), m.tag) for m in cut] == [
        ("c2-c3/a6", (c("c2"), c("c3"))), ("c2-c3/f6", (c("c2"), c("c3")))]
    assert [set(m.actions) for m in cut] == [
        {Capture(c("c4")), Capture(c("f6")), Shift(c("c3"), c("c4"))},
        {Capture(c("c4")), Capture(c("a6")), Shift(c("c3"), c("c4"))}]


def test_pushes_off_the_board_on_the_kernel_as_the_interpreter_pushes_them():
    # Abalone's sumitos that push a marble off the board (a step that may leave it, a
    # cascade and an add there): random games that push off whenever they can, both
    # positions compared at every ply.
    game = boardlab.load("abalone", start="belgian-daisy")
    fast = game.initial_state()
    assert isinstance(fast, kernel.KernelPosition)
    slow = game.using(Engine.INTERPRETER).initial_state()
    rng, off = random.Random(3), 0
    for _ in range(400):
        got = snapshot(fast)
        assert got == snapshot(slow)
        moves = fast.legal_moves()
        pushes = [k for k, m in enumerate(moves)
                  if any(type(a).__name__ == "Capture" for a in m.actions)]
        k = rng.choice(pushes) if pushes else rng.randrange(len(moves))
        off += bool(pushes)
        fast.apply(moves[k])
        slow.apply(slow.legal_moves()[k])
        if fast.is_terminal():
            break
    # Six marbles of one side off: the game is over, the same way on both.
    assert off >= 6 and fast.is_terminal() and fast.outcome() == slow.outcome()


EXAMPLE_RULES = Path(__file__).resolve().parents[2] / "examples" / "zrf"


def test_a_change_of_owner_and_of_type_together_are_one_change(kernel_folder):
    # A change of owner to the mover and one of type on the same cell, in either order,
    # are queued as one (Othello's flips); a flip to the next player, or a change of
    # another cell, stays apart. On a piece the move takes, on the mover's own
    # destination and on pieces that already are what they become, the kernel's moves
    # are still the interpreter's.
    templates = [
        r.Template((r.ChangeType("king", direction="n"), r.ChangeOwner(direction="n"),
                    r.Step("e"), r.Verify(r.EMPTY), r.Add()), ("man",), name="turn"),
        r.Template((r.Step("e"), r.ChangeOwner(), r.ChangeType("man"), r.Add()),
                   ("king",), name="land"),
        r.Template((r.Step("s"), r.ChangeOwner(flip=True), r.ChangeType("king"),
                    r.ChangeOwner(direction="w"), r.ChangeType("man"), r.Add()),
                   ("king", "man"), name="flip")]
    game = make_game(templates, [], "draw", {"b2": "X", "b3": "O", "c1": "K", "c3": "Q",
                                            "a4": "O", "d2": "X"})
    assert kernel.why_not(game) is None
    writer, _ = kplan._write(game)
    assert {name for name in writer.offsets if name[0] == "settled"} == \
        {("settled", "king"), ("settled", "man")}
    assert sum(play_both(game, seed, 30) for seed in range(12)) > 60


@pytest.mark.parametrize("name", ["connect-four", "reversi", "tic-tac-toe"])
def test_drop_games_play_on_their_kernel_as_the_interpreter_plays_them(kernel_folder, name):
    # Their drops are written out with no search for equal moves (each lands apart),
    # connect four's and tic-tac-toe's lines are looked for near the last drop alone,
    # reversi's flips are written with its drop, its loops run without a count of turns.
    game = load_game(EXAMPLE_RULES / f"{name}.zrf")
    assert kernel.why_not(game) is None
    writer, source = kplan._write(game)
    assert writer.distinct and writer.plain_drops == {0}
    assert f"> {r.LOOP_LIMIT}" not in source
    assert ("_near(S, T" in source) == (name != "reversi")
    plies = sum(play_both(game, seed, 80) for seed in range(6))
    assert plies > 30


def test_a_line_of_pieces_a_player_never_has_is_not_looked_for(kernel_folder):
    # Connect Four's goals are lines of x's discs and lines of o's, in four directions,
    # each for both players as their own ("self"): x never owns an o disc, so half of
    # each player's lines can never hold. They are not looked for after each move; the
    # others are, near the disc just dropped, by the run of the player's one disc code
    # through it along each direction: one loop over the four (two walks in a function
    # for each player), in after and in the copy a playout inlines; and the games end
    # as the interpreter's.
    game = boardlab.load("connect-four", rows=5, columns=5)
    source = kernel.source(game)
    after = source[source.index("def after("):source.index("def after_run(")]
    for player in (0, 1):
        assert after.count(f"_near(S, T, np.int64({player}))") == 1
    assert source.count(" == code:") == 4
    assert "@njit(cache=True, inline='always')\ndef after_run(S, T):" in source
    assert "status = after_run(S, T)" in source
    plies = sum(play_both(game, seed, 30) for seed in range(8))
    assert plies > 60
    # Lines of one piece alike along three directions and one of another length: the
    # three are tested in one loop, the other by a walk of its own; the games end as
    # the interpreter's.
    rows = g.AnyOf(tuple(
        g.RelativeConfig((("self", "man"), d, ("self", "man"), d, ("self", "man")))
        for d in ("n", "e", "ne")) + (g.RelativeConfig((("self", "king"), "n",
                                                         ("self", "king"))),))
    drop = r.Drop((r.Verify(r.EMPTY), r.Add()), kinds=("man",),
                  unlimited_for=frozenset({0, 1}))
    plain = {symbol: PIECES[symbol] for symbol in "XKOQ"}
    game = make_game([drop], [g.Condition("win", (0, 1), rows)], "draw", {"b2": "K"},
                     pieces=plain)
    source = kernel.source(game)
    after = source[source.index("def after("):source.index("def after_run(")]
    assert after.count("_near(S, T, np.int64(0))") == 2 and "for k in range(3):" in source
    assert sum(play_both(game, seed, 20) for seed in range(10)) > 40


def test_drops_that_can_land_on_one_cell_are_not_taken_as_distinct(kernel_folder):
    # Two starts in one column fall to its foot: one move, as the interpreter has it.
    fall = r.Drop((r.While(r.AtStep(r.EMPTY, "s"), (r.Step("s"),)), r.Add()), kinds=("man",),
                  cells=(BOARD.cell("a4"), BOARD.cell("a3")), unlimited_for=frozenset({0, 1}))
    game = make_game([fall], [], "draw", {})
    assert not kplan._write(game)[0].distinct
    start = game.initial_state()
    assert isinstance(start, kernel.KernelPosition)
    assert [m.notation for m in start.legal_moves()] == ["X@a1"]
    play_both(game, 0, 8)
    # Back on its start at the add (marks and backs; reversi's flank): apart again.
    flank = (r.Mark(), r.If(r.AtStep(r.ENEMY, "n"), (r.Step("n"), r.ChangeOwner(), r.Back()),
                            ()), r.Back())
    assert kwriter._back_at_start(flank, True, True) == (True, True)
    assert kwriter._back_at_start((r.Mark(), r.Step("n")), True, True) == (False, True)
    assert kwriter._back_at_start((r.Step("n"), r.Mark(), r.Back()), True, True) == \
        (False, False)


def test_a_promoting_drop_takes_the_piece_in_hand_from_the_reserve(kernel_folder):
    # x drops men from its reserve (filled by recycled captures), each promoted to a
    # king: the reserve gives a man, which is then promoted on its cell. (The promoted
    # king used to come from the reserve, whose count of kings went below zero, and the
    # kernel's key of such a reserve differed from the interpreter's: a random-rules
    # example.)
    drop = r.Drop((r.Add(promote="king"), r.ChangeType("man"), r.Verify(r.not_(r.EMPTY)),
                   r.Step("n"), r.Add()), kinds=("man",), name="d",
                   unlimited_for=frozenset({1}))
    game = make_game([drop], [], "loss", {"b2": "X", "c3": "O"}, "forced", "captures")
    assert play_both(game, 296, 24) == 24
    state = game.initial_state()
    rng = random.Random(296)
    for _ in range(24):
        for move in state.legal_moves():
            placed = [a for a in move.actions if type(a) is Place and a.from_reserve]
            assert all(a.piece.kind == "man" for a in placed)
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
        assert min(state.reserves.values()) >= 0


def test_a_loop_that_can_come_back_keeps_its_count_of_turns(kernel_folder):
    # North then south can come back to a cell: the loop keeps the interpreter's limit.
    walk = r.Template((r.While(r.ALWAYS, (r.Step("n"),)), r.Add()), name="north")
    spin = r.Template((r.While(r.ALWAYS, (r.Step("n"), r.Step("s"))), r.Add()), name="spin")
    assert f"> {r.LOOP_LIMIT}" not in kernel.source(make_game([walk], [], "draw", {}))
    assert f"> {r.LOOP_LIMIT}" in kernel.source(make_game([spin], [], "draw", {}))
    assert kwriter._acyclic([[1], [2], []]) and not kwriter._acyclic([[1], [0]])


@pytest.mark.parametrize(("name", "counts"), [("breakthrough", [22, 484, 11132, 256036]),
                                              ("taacoca", [58, 3364, 352408])])
def test_perft_on_the_kernel(name, counts):
    state = boardlab.load(name).initial_state()
    assert isinstance(state, kernel.KernelState)
    assert perft(state, len(counts)) == counts


def _groups_game(**group):
    """Men (and kings that never move) stepping in groups on a 6x6 board: the group
    template's kinds, sizes, capture rule, test and all-if-fewer rule."""
    board = Board.square(6, 6).rotated_for(1)
    single = group.pop("single", lambda d: (r.Step(d), r.Verify(r.not_(r.AtStep(r.FRIEND, d))),
                                            r.Add()))
    template = r.Group((), single=single, name="group", kinds=("man",), **group)
    placement = {"a1": "X", "b1": "X", "c1": "K", "d2": "X", "e1": "X", "f2": "X",
                 "a6": "O", "b5": "O", "c6": "Q", "d5": "O", "e6": "O", "f6": "O"}

    goals = g.Goals((g.Condition("loss", (0, 1), g.PiecesRemaining(0, "man")),), 2)
    return _test_game("groups", board, placement, [template], goals)


def _test_game(name: str, board: Board, placement: dict[str, str], templates: list,
               goals: g.Goals, **rules) -> PieceGame:
    """A two-player test game of :data:`PIECES` (``placement``: cell name to symbol)
    whose end is ``goals`` (``rules``: more fields of its rules)."""

    class TestGame(PieceGame):
        description = "test game"
        player_names = ("x", "o")
        pieces = PIECES

        def make_ruleset(self):
            return self.named_ruleset(
                board=board, placement={cell: PIECES[s] for cell, s in placement.items()},
                rules=r.Rules(list(templates), **rules), goals=goals)

        def result(self, state):
            return goals.result(state)

        def no_moves(self, state):
            return goals.no_moves(state)

    TestGame.name = name
    return TestGame()


@pytest.mark.slow
@pytest.mark.parametrize("group", [
    {"directions": ("n", "ne", "nw"), "sizes": (1, 2, 3)},
    {"directions": ("n", "e", "w", "s"), "sizes": (2,), "capture": False},
    {"directions": ("ne", "nw", "n"), "sizes": (3, 1), "all_if_fewer": True},
    {"directions": ("n",), "sizes": (2, 3),
     "single": lambda d: (r.Step(d), r.Verify(r.EMPTY), r.Step(d), r.Add())},
])
def test_group_templates_play_as_the_interpreter_plays_them(group):
    game = _groups_game(**group)
    assert kernel.why_not(game) is None
    plies = sum(play_both(game, seed, 120) for seed in range(4))
    assert plies > 12


#: Tests the board alone answers: a filter of a template's starts reads them as masks
#: of the whole board (kernel/writer/bits.py).
board_tests = predicate_trees(st.one_of(
    st.sampled_from([r.EMPTY, r.FRIEND, r.ENEMY, r.ON_BOARD, r.ALWAYS, r.NEVER]),
    st.builds(r.position_is, cells), st.builds(r.in_cells, st.frozensets(cells, max_size=4)),
    st.builds(lambda k: r.piece_is(*k), st.lists(kinds, min_size=1, max_size=2)),
    st.builds(r.in_zone, st.just("far"))), cells, directions)
#: Programs that begin with a step, then steps, tests of the board and captures (what a
#: filter reads), then anything (where a test follows the steps, a filter is written).
filtered_programs = st.tuples(directions, st.lists(st.one_of(
    st.builds(r.Step, directions), st.builds(r.Verify, board_tests), st.just(r.CaptureHere())),
    max_size=4), programs).map(lambda p: (r.Step(p[0]), *p[1], *p[2]))


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(programs=st.lists(st.tuples(filtered_programs, st.sampled_from(
    ((), ("man",), ("king",), ("man", "king")))), min_size=1, max_size=3),
       placement=placements, seed=st.integers(0, 1 << 16))
def test_runs_from_the_starts_a_board_wide_filter_keeps_play_as_the_interpreter_plays_them(
        kernel_folder, programs, placement, seed):
    templates = [r.Template(p, kinds=k, name=f"t{i}") for i, (p, k) in enumerate(programs)]
    play_both(make_game(templates, [], "loss", placement), seed, 24)


def _jumps_game(board: Board, placement: dict[str, str]) -> PieceGame:
    """Men that jump an enemy piece (in four directions) onto an empty cell, and pieces
    that step onto one (in three)."""
    jump = [r.Template((r.Step(d), r.Verify(r.ENEMY), r.CaptureHere(), r.Step(d),
                        r.Verify(r.EMPTY), r.Add()), name="jump", kinds=("man",))
            for d in ("ne", "e", "w", "sw")]
    step = [r.Template((r.Step(d), r.Verify(r.EMPTY), r.Add()), name="step")
            for d in ("ne", "e", "w")]
    goals = g.Goals((g.Condition("loss", (0, 1), g.PiecesRemaining(0, "man")),), 2)
    return _test_game("jumps", board, placement, jump + step, goals)


def test_a_board_wide_filter_of_starts_only_where_each_step_is_a_shift_of_a_word():
    square = {"b2": "X", "c2": "X", "b3": "O", "c4": "O", "d3": "K", "a4": "Q"}
    board = Board.square(5, 5).rotated_for(1)
    source = kernel.source(_jumps_game(board, square))
    # Each template runs from the starts its filter keeps; the board's masks are
    # filled once a generation.
    assert source.count("start = np.int64(trailing_zeros(_m))") == 7
    assert "for _s in range(mine)" not in source
    # A link from a1 westwards to e1 (the board wraps there): a step west (east for
    # the second player, whose board is turned) is no longer one shift of the cell's
    # index, so the four templates that step east or west run from every start, the
    # others from those their filters keep.
    wrapped = _jumps_game(board.link("a1", "w", "e1"), square)
    assert kernel.source(wrapped).count("start = np.int64(trailing_zeros(_m))") == 3
    plies = sum(play_both(wrapped, seed, 60) for seed in range(3))
    assert plies > 20
    # 81 cells, more than a word holds: every template runs from every start.
    assert "bits_back(" not in kernel.source(_jumps_game(Board.square(9, 9), square))


def test_a_template_with_a_loop_that_may_not_end_gets_no_filter(kernel_folder):
    # From a man whose north is empty the loop never ends (it does not step): the
    # interpreter fails the position with an error, whatever the run tests after it,
    # and so must the kernel, which a filter of the test after the loop would spare.
    loop = r.Template((r.Mark(), r.Step("n"), r.While(r.EMPTY, (r.Inc("v"),)), r.Back(),
                       r.Step("e"), r.Verify(r.ENEMY), r.Add()), name="loop")
    game = make_game([loop], [], "loss", {"b2": "X", "d4": "O"})
    assert "bits_back(" not in kernel.source(game)
    assert play_both(game, 0, 4) == 0  # the first position is the error, on both


def test_othello_s_filter_keeps_exactly_the_drops_that_flank_a_line():
    """Othello's drop: an empty cell, then in each direction a walk over the other
    player's discs that must end on one of the mover's. The filter follows each walk
    to its end (a fixed point of masks), so the cells it keeps are the legal drops
    themselves, along random games of each colour."""
    state = boardlab.load("othello").initial_state()
    plan = state._plan
    module = plan.module
    rng = random.Random(3)
    seen = 0
    while not state.is_terminal():
        moves = state.legal_moves()
        drops = {a.cell for m in moves for a in m.actions if isinstance(a, Place)}
        player = state.to_move
        module.generate(state._s, plan.table, player)  # fills the masks
        kept = int(np.uint64(module.starts0(state._s, plan.table, player)))
        assert kept == sum(1 << c for c in drops), str(state)
        seen += len(drops)
        state = state.play(rng.choice(moves))
    assert seen > 200


def test_group_templates_beyond_a_kernel_say_why():
    assert "filter" in kernel.why_not(_groups_game(directions=("n",),
                                                   accept=lambda state, shifts: True))
    assert "1-3" in kernel.why_not(_groups_game(directions=("n",), sizes=(4,)))
    assert "one add" in kernel.why_not(_groups_game(
        directions=("n",), single=lambda d: (r.Step(d), r.CaptureHere(), r.Add())))
    assert "one cell" in kernel.why_not(_groups_game(directions=("n", "n")))


def test_a_move_that_is_not_legal_is_refused():
    state = boardlab.load("breakthrough").initial_state()
    white = state.legal_moves()[0]
    state.apply(state.legal_moves()[1])
    with pytest.raises(IllegalMoveError):
        state.apply(white)  # white's move, black to move
    foreign = Move("a7-a5", state.legal_moves()[0].actions[:0])
    with pytest.raises(IllegalMoveError):
        state.apply(foreign)
    # An equal move that is not the interned object is found by value.
    black = state.legal_moves()[0]
    state.apply(Move(black.notation, black.actions))
    assert state.ply == 2


def test_clone_and_with_turn_are_independent_positions():
    state = boardlab.load("breakthrough").initial_state()
    copy = state.clone()
    state.apply(state.legal_moves()[0])
    assert copy.ply == 0 and str(copy) != str(state)
    turned = state.with_turn(0)
    plain = boardlab.load("breakthrough", engine="interpreter").parse_state(
        str(state)).with_turn(0)
    assert [m.notation for m in turned.legal_moves()] == [m.notation for m in plain.legal_moves()]
    assert turned.key() == plain.key()


def test_many_moves_and_a_small_registry_grow_as_needed(monkeypatch):
    # Sliding kings on a 12x12 board: hundreds of moves a position, and a registry of
    # 64 slots that must double many times.
    monkeypatch.setattr(kplan, "REGISTRY", 64)
    game = _kings_game()
    assert len(game.initial_state().legal_moves()) > kposition._ROOM
    play_both(game, 1, 30)
    assert kernel.plan_for(game).table[kernel.plan_for(game).registry + 1] > 64


def test_a_grown_registry_finds_its_moves_of_no_words(monkeypatch):
    # Reversi's passes are moves of no words: a registry of 64 slots doubles many times
    # over these games and must find each pass again after it grew, not register it
    # twice (a hash whose signed product overflowed, undefined in numba's code, once
    # gave them other slots there, and the next growth failed).
    monkeypatch.setattr(kplan, "REGISTRY", 64)
    game = load_game(EXAMPLE_RULES / "reversi.zrf")
    rng, passes = random.Random(5), 0
    for _ in range(12):
        state = game.initial_state()
        while not state.is_terminal():
            moves = state.legal_moves()
            passes += moves[0].notation == "pass"
            state.apply(moves[rng.randrange(len(moves))])
    plan = kernel.plan_for(game)
    count = int(plan.table[plan.registry])
    assert passes > 0 and plan.table[plan.registry + 1] >= 1024
    assert len(plan.objects) == count  # every registered move has been spelled
    assert sum(m.notation == "pass" for m in plan.objects) == 2  # one for each player


def _kings_game():
    board = Board.square(12, 12)
    slide = [r.Template((r.While(r.ALWAYS, (r.Step(d), r.Verify(r.EMPTY), r.Add())),),
                        name=d) for d in ("n", "s", "e", "w", "ne", "nw", "se", "sw")]
    placement = {board.cell_name(c): "K" if c % 2 else "Q" for c in range(0, 144, 7)}

    return _test_game("kings", board, placement, slide, g.Goals((), 2))


def _walk(game, seed: int, plies: int = 40) -> list[list[str]]:
    state, rng, out = game.initial_state(), random.Random(seed), []
    for _ in range(plies):
        moves = state.legal_moves()
        out.append([m.notation for m in moves])
        state.apply(moves[rng.randrange(len(moves))])
    return out


def test_positions_of_one_game_played_from_several_threads(monkeypatch):
    # A small registry grows while eight threads register moves in it at once, and
    # the first positions of a new plan are asked for by all of them together (its
    # start position outgrows its array then: a copy made meanwhile once mixed the
    # old array with the new count). Ten new plans, for races that show now and then.
    import threading

    monkeypatch.setattr(kplan, "REGISTRY", 64)
    want = [_walk(_kings_game().using(Engine.INTERPRETER), seed) for seed in range(8)]
    for _ in range(10):
        game = _kings_game()
        got: list = [None] * 8

        def run(seed: int, game=game, got=got) -> None:
            got[seed] = _walk(game, seed)

        threads = [threading.Thread(target=run, args=(seed,)) for seed in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert got == want
        assert isinstance(game.initial_state(), kernel.KernelPosition)


def test_a_call_in_read_mode_registers_nothing():
    # Positions call their kernel without the plan's lock in read mode: such a call
    # must leave the shared registry as it was and ask for write mode instead.
    game = _kings_game()
    start = game.initial_state()
    plan = kernel.plan_for(game)
    count = int(plan.table[plan.registry])
    s = start._s.copy()
    s[kernel.TO_MOVE], s[kernel.NMOVES] = 1, -1  # the other side: moves not met yet
    assert plan.scan(s, plan.table, 0) == -10
    assert int(plan.table[plan.registry]) == count
    move = start.legal_moves()[0]
    h = np.empty((64, klayout._HIST), dtype=np.int64)
    s = start._s.copy()
    assert plan.play(s, h, plan.table, plan.ids[id(move)]) == -11  # played; the reply unmet
    assert int(plan.table[plan.registry]) == count
    assert plan.scan(s, plan.table, 1) >= 0
    assert int(plan.table[plan.registry]) > count
    after = start.clone()
    after.apply(move)
    assert s[kernel.BOARD:plan.counts_at].tolist() == after._s[kernel.BOARD:plan.counts_at].tolist()


def test_threads_that_build_one_kernel_at_once_share_it(tmp_path, monkeypatch):
    # Eight threads ask for the kernel of a game never compiled before, all at once:
    # one module is written and loaded, one plan made, and every thread gets it.
    import hashlib
    import sys
    import threading

    monkeypatch.setenv("BOARDLAB_KERNEL_DIR", str(tmp_path))
    game = _kings_game()
    digest = hashlib.sha256(kernel.source(game).encode()).hexdigest()[:20]
    monkeypatch.delitem(sys.modules, f"boardlab.kernels.k{digest}", raising=False)
    start = threading.Barrier(8)
    plans: list = []
    errors: list = []

    def run() -> None:
        start.wait()
        try:
            plans.append(kernel.plan_for(game))
        except Exception as error:  # noqa: BLE001 - the test reports what a thread met
            errors.append(error)

    threads = [threading.Thread(target=run) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(plans) == 8 and plans[0] is not None
    assert all(plan is plans[0] for plan in plans)
    assert sorted(p.name for p in tmp_path.glob("*.py")) == [f"k{digest}.py"]
    assert not list(tmp_path.glob("*.tmp"))


def test_games_beyond_a_kernel_say_why():
    assert kernel.why_not(boardlab.load("hex-column-checkers")) == \
        "not a game of the move language"
    assert kernel.plan_for(boardlab.load("hex-column-checkers")) is None
    # Rules whose moves a Python method makes (as GESS's were before its footprints).
    class HandWritten(r.Rules):
        def generate(self, state):
            return [Move("pass", ())]

    base = type(make_game([r.Template((r.Step("n"), r.Add()))], [], "loss", {"a1": "X"}))

    class ByHand(base):
        def make_ruleset(self) -> RuleSet:
            return replace(super().make_ruleset(), rules=HandWritten([]))

    assert kernel.why_not(ByHand()) == "moves generated in Python, not by templates"
    state = ByHand().initial_state()
    assert not isinstance(state, kernel.KernelPosition)
    assert [m.notation for m in state.legal_moves()] == ["pass"]
    assert type(boardlab.load("breakthrough", engine="interpreter").initial_state()) \
        is PieceState


def test_recycled_promotions_take_the_new_piece_from_the_hand_on_the_kernel():
    # With "recycle promotions" a promotion needs the piece in hand: one king each, so
    # one man promotes and the second cannot; recycled captures bring the king back.
    promote = r.Template((r.Step("n"), r.Verify(r.EMPTY), r.Add(promote="king")), ("man",))
    take = r.Template((r.Step("e"), r.Verify(r.ENEMY), r.Add()), ("king",))
    game = make_game([promote, take], [], "loss", {"a1": "X", "b1": "X", "d4": "O"},
                     recycle="captures promotions")
    assert kernel.why_not(game) is None
    state = game.initial_state()
    assert isinstance(state, kernel.KernelPosition)
    assert [m.notation for m in state.legal_moves()] == ["a1-a2 a2=K", "b1-b2 b2=K"]
    state = state.play(state.legal_moves()[0])
    assert state.reserves[Piece(0, "king")] == 0
    state = state.play(state.legal_moves()[0])  # Black's man promotes with its king
    assert "b1-b2 b2=K" not in [m.notation for m in state.legal_moves()]
    for seed in (1, 2, 3):
        play_both(game, seed, 30)
CORPUS = Path(__file__).resolve().parents[1] / "data" / "zrf"
#: A sample of the ZRF files that get a kernel (benchmarks/kernels.py plays them all):
#: races, a turn order of several turns, promotions, captures, ply limits, puzzles.
ZRF_SAMPLE = ("breakthrough/breakthrough.zrf", "breakthrough/taacoca.zrf", "arrange/loa.zrf",
              "go-family/alak.zrf", "mancala/bakuk.zrf", "sliding-puzzles/10-puzzle.zrf",
              "light-off/light-off.zrf", "chess/catch-pigs.zrf",
              # Passes: forced, and always.
              "mancala/toguz-kumalak.zrf", "arrange/netwalk.zrf",
              # 100 templates in 3 shapes, written as functions; drops from the reserve.
              "races/stratego.zrf",
              # En passant: the rules read the last move, which the key holds.
              "chess/ttc.zrf")


@pytest.mark.slow
@pytest.mark.parametrize("path", ZRF_SAMPLE)
def test_zrf_games_play_on_their_kernel_as_the_interpreter_plays_them(path):
    game = load_game(CORPUS / path)
    assert kernel.why_not(game) is None
    assert play_both(game, 7, 40) > 0


def test_zrf_ply_limit_draws_on_the_kernel():
    game = load_game(CORPUS / "breakthrough/breakthrough.zrf", max_moves=6)
    state = game.initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    assert state.ply == 6 and state.outcome() == (Fraction(1, 2), Fraction(1, 2))


def test_with_turn_on_a_zrf_kernel_position_keys_as_a_plain_one():
    game = load_game(CORPUS / "breakthrough/taacoca.zrf")
    state = game.initial_state()
    rng = random.Random(5)
    for _ in range(7):
        state.apply(rng.choice(state.legal_moves()))
    plain = game.using(Engine.INTERPRETER).parse_state(str(state))
    assert not isinstance(plain, kernel.KernelPosition)
    for player in (0, 1):
        assert state.with_turn(player).key() == plain.with_turn(player).key()
        assert str(state.with_turn(player)) == str(plain.with_turn(player))


@pytest.mark.parametrize(("last", "en_passant"), [("d7-d5", True), ("d6-d5", False),
                                                  (None, False)])
def test_a_zrf_position_read_with_its_last_move_plays_it_on_the_kernel(last, en_passant):
    # ttc.zrf's en passant reads last-to? and last-from?: the pawn that just came two
    # cells may be taken, no other.
    game = load_game(CORPUS / "chess/ttc.zrf")
    text = "e1=White.King,e8=Black.King,e5=White.Pawn,d5=Black.Pawn White ply:1"
    text += f" last:{last}" if last else ""
    state = game.parse_state(text)
    assert isinstance(state, kernel.KernelPosition)
    plain = game.using(Engine.INTERPRETER).parse_state(text)
    assert snapshot(state) == snapshot(plain)
    assert ("e5-d6 xd5" in [m.notation for m in state.legal_moves()]) == en_passant
    # The last move is part of the position: its key and its text.
    assert (state.key() == game.parse_state(text.split(" last:")[0]).key()) == (not last)
    state.apply(state.legal_moves()[0])
    plain.apply(plain.legal_moves()[0])
    assert snapshot(state) == snapshot(plain)


def test_a_repetition_ends_a_game_on_the_kernel_as_on_the_interpreter():
    # kono.zrf: the player who repeats a position for the third time loses. Seed 0's
    # random game ends so at ply 77 (the interpreter says it): both agree at every ply,
    # forth and back, and so does a position read from the text of ply 60 (its past
    # keys in ``seen:``) played on to the end.
    game = load_game(CORPUS / "elimination/kono.zrf")
    assert kernel.why_not(game) is None
    assert play_both(game, 0, 200) == 77
    rng = random.Random(0)
    state = game.initial_state()
    played = []
    while not state.is_terminal():
        moves = state.legal_moves()
        played.append(moves[rng.randrange(len(moves))])
        state.apply(played[-1])
    assert state.ply == 77 and state.occurrences() == 3 and state.outcome() == (0, 1)
    for _ in range(17):
        state.undo()
    text = str(state)
    assert text.count(",") > 60 and " seen:" in text
    read = game.parse_state(text)
    plain = game.using(Engine.INTERPRETER).parse_state(text)
    assert isinstance(read, kernel.KernelPosition) and not isinstance(plain, kernel.KernelPosition)
    for move in played[60:]:
        assert snapshot(read) == snapshot(plain)
        read.apply(move)
        plain.apply(move)
    assert snapshot(read) == snapshot(plain) and read.outcome() == (0, 1)
    # A copy keeps the past (a ZRF position's), a position for another side does not.
    assert read.clone().occurrences() == 3 and read.clone().outcome() == (0, 1)
    assert read.with_turn(read.to_move).occurrences() == 1


#: Kings and men on a row: taking a King ends the game (ZRF ``captured``), taking a man
#: does not, and the text of a position says what its last move took.
TAKE = """(game (title "Take two")
 (players A B)
 (turn-order A B)
 (board (grid (dimensions ("a/b/c/d/e/f" (1 0)) ("1" (0 1))) (directions (e 1 0) (w -1 0))))
 (piece (name King) (moves (e (verify not-friend?) add) (w (verify not-friend?) add)))
 (piece (name Man) (moves (e (verify not-friend?) add) (w (verify not-friend?) add)))
 (board-setup (A (King a1) (Man c1)) (B (Man d1) (King f1)))
 (loss-condition (A B) (captured King)))
"""


def take_game(tmp_path):
    """The :data:`TAKE` game."""
    path = tmp_path / "take.zrf"
    path.write_text(TAKE)
    return load_game(path, name="take.zrf")


def test_a_captured_goal_ends_a_game_on_the_kernel_as_on_the_interpreter(tmp_path):
    game = take_game(tmp_path)
    assert kernel.why_not(game) is None
    assert sum(play_both(game, seed, 30) for seed in range(8)) > 8
    # c1xd1 takes a man (the game goes on); after f1-e1, d1xe1 takes B's King (A wins).
    for moves, outcome in ((["c1xd1"], None), (["c1xd1", "f1-e1", "d1xe1"], (1, 0))):
        state = game.initial_state().play_all(moves)
        plain = game.using(Engine.INTERPRETER).initial_state().play_all(moves)
        assert isinstance(state, kernel.KernelPosition)
        assert state.outcome() == outcome and snapshot(state) == snapshot(plain)
        # What the last move took stays with a copy and the text, not a change of side.
        text = str(state)
        assert " taken:" in text
        read_plain = plain.game.parse_state(text)
        copied_plain = plain.clone()
        turned_plain = plain.with_turn(0)
        for got, want in ((game.parse_state(text), read_plain),
                          (state.clone(), copied_plain), (state.with_turn(0), turned_plain)):
            assert isinstance(got, kernel.KernelPosition)
            assert snapshot(got) == snapshot(want)
        assert game.parse_state(text).outcome() == outcome


def test_a_position_after_a_capture_repeats_on_the_kernel_as_on_the_interpreter(tmp_path):
    # A game whose moves never add a piece: the kernel counts a position's repetitions
    # from the last capture on (no earlier position has as few pieces). After c1xd1 the
    # Kings go back and forth twice: each position of the second round stands for the
    # second time, and the position after the capture, the third time it stands, loses
    # for A, who made it.
    path = tmp_path / "shuffle.zrf"
    path.write_text(TAKE.replace("(loss-condition (A B) (captured King))",
                                 "(loss-condition (A B) repetition)"))
    game = load_game(path, name="shuffle.zrf")
    assert kernel.why_not(game) is None
    shuffle = ["f1-e1", "a1-b1", "e1-f1", "b1-a1"]
    moves = ["c1xd1", *shuffle, *shuffle]
    fast = game.initial_state()
    slow = game.using(Engine.INTERPRETER).initial_state()
    assert isinstance(fast, kernel.KernelPosition) and not isinstance(slow, kernel.KernelPosition)
    for ply, move in enumerate(moves, 1):
        # Played in place: a copy keeps the past as keys alone, counted whole.
        fast.apply(fast.parse_move(move))
        slow.apply(slow.parse_move(move))
        want = (slow.occurrences(), slow.outcome())
        assert (fast.occurrences(), fast.outcome()) == want == \
            (1 + (ply - 1) // 4, (0, 1) if ply == len(moves) else None)


def test_chess_keeps_its_king_out_of_check_on_the_kernel():
    # chess.zrf's checkmated goal: no move may leave the King attacked (a reverse
    # attack scan of the templates that reach it, not the opponent's moves). Perft to
    # depth 4 (the published counts: the fourth ply meets checks), the fool's mate, and
    # a pinned rook that may only move along its file.
    game = load_game(CORPUS / "chess/chess.zrf")
    state = game.initial_state()
    assert isinstance(state, kernel.KernelPosition)
    assert perft(state, 4) == [20, 400, 8902, 197281]
    mate = state.play_all(["f2-f3", "e7-e5", "g2-g4", "d8-h4"])
    assert mate.legal_moves() == [] and mate.outcome() == (0, 1)
    text = "e1=White.King,e2=White.Rook,e8=Black.Rook,a8=Black.King White"
    pinned = game.parse_state(text)
    plain = game.using(Engine.INTERPRETER).parse_state(text)
    assert snapshot(pinned) == snapshot(plain)
    assert {m.notation for m in pinned.legal_moves() if m.notation.startswith("e2")} == \
        {"e2-e3", "e2-e4", "e2-e5", "e2-e6", "e2-e7", "e2xe8"}


def test_in_the_background_a_game_plays_on_the_interpreter_until_its_kernel_is_compiled(
        kernel_folder, monkeypatch):
    # The web server's and bot workers' mode: no request waits for numba.
    import threading
    import time

    step = r.Template((r.Step("n"), r.Verify(r.EMPTY), r.Add()), name="step")
    game = make_game([step], [g.Condition("win", (0, 1), g.PiecesRemaining(0))], "draw",
                     {"a1": "X", "d4": "O", "c1": "K"})
    digest = klayout._digest(kernel.source(game))
    assert digest not in kplan._COMPILED
    # The compiling thread waits for a signal; the sources written are counted.
    go, build, write, written = threading.Event(), kplan._build, kplan._write, []

    def held_build(*args):
        if threading.current_thread().name.startswith("kernel "):
            assert go.wait(300)
        return build(*args)

    monkeypatch.setattr(kplan, "_build", held_build)
    monkeypatch.setattr(kplan, "_write", lambda game: written.append(1) or write(game))
    game = game.using(Engine.BACKGROUND)
    first = game.initial_state()
    assert not isinstance(first, kernel.KernelPosition)
    # While the kernel compiles, new positions are plain, its source not written again.
    again = game.initial_state()
    assert not isinstance(again, kernel.KernelPosition) and len(written) == 1
    assert digest in kplan._COMPILING
    go.set()
    give_up = time.monotonic() + 300
    while digest not in kplan._COMPILED and time.monotonic() < give_up:
        time.sleep(0.05)
    later = game.initial_state()
    assert isinstance(later, kernel.KernelPosition)
    assert snapshot(first) == snapshot(later)
    assert play_both(game, 3, 10) > 0


def test_a_condition_both_players_meet_goes_to_the_mover():
    # Goals' rule: among several winners the player who just moved comes first.
    take = r.Template((r.Step("n"), r.Verify(r.ENEMY), r.Add()), name="take")
    game = make_game([take], [g.Condition("win", (0, 1), g.TotalPieceCount(1))], "loss",
                     {"b2": "X", "b3": "O"})
    state = game.initial_state()
    assert isinstance(state, kernel.KernelPosition)
    state.apply(state.legal_moves()[0])
    assert state.outcome() == (1, 0)
    assert play_both(game, 0, 5) == 1


# --- chains of partial moves --------------------------------------------------------
CONFORMANCE = Path(__file__).resolve().parents[1] / "zrf" / "conformance"


def test_chains_of_one_step_meet_the_search_s_room_for_positions(kernel_folder, monkeypatch):
    # Men jump once each, from where none can jump again: a chain of one step each, as
    # many positions past the start. A kernel's search has room for _NODES positions,
    # its start among them: with room for 4, the fourth end of four jumpers is the
    # search's error (written past the table's room before), and three jumpers' three
    # moves stand. (One kernel for both: the room is written into its source.)
    jump = r.Template((r.Step("n"), r.Verify(r.ENEMY), r.CaptureHere(), r.Step("n"),
                       r.Verify(r.EMPTY), r.Add(partial="")), ("man",), name="jump")
    monkeypatch.setattr(kchains, "_NODES", 4)
    for files, error in (("abcd", True), ("abc", False)):
        placement = {f"{f}{rank}": "X" if rank == "1" else "O" for f in files for rank in "12"}
        state = make_game([jump], [], "draw", placement).initial_state()
        assert isinstance(state, kernel.KernelPosition)
        if error:
            with pytest.raises(RulesError, match="chains of partial moves .* positions"):
                state.legal_moves()
        else:
            assert [m.notation for m in state.legal_moves()] == [
                "xa2 a1-a3", "xb2 b1-b3", "xc2 c1-c3"]


# Chains of partial moves: steps and jumps whose adds go on or end the chain (promoted
# or not), at two priorities. A chain may come back to its start or to a position
# another reached, go on from some cells only, or end at once: the kernel's chains of
# one step (played without the search's graph), its composition of one step and its
# search must each give the interpreter's moves.
chain_runs = st.lists(st.one_of(
    st.builds(r.Step, directions),
    st.builds(r.Verify, st.sampled_from([r.EMPTY, r.ENEMY, r.FRIEND, r.ON_BOARD])),
    st.just(r.CaptureHere()), st.builds(lambda d: r.CaptureAt(direction=d), directions)),
    min_size=1, max_size=4)
chain_templates = st.lists(st.builds(
    lambda run, end, k, priority, name: r.Template((*run, end), kinds=k, priority=priority,
                                                   name=name),
    chain_runs, st.sampled_from((r.Add(partial=""), r.Add(partial=""),
                                 r.Add(partial="", promote="king"), r.Add(),
                                 r.Add("king"))),
    st.sampled_from(((), ("man",), ("king",))), st.integers(0, 1),
    st.sampled_from(("a", "b"))), min_size=1, max_size=3)


def test_a_chain_of_one_step_is_composed_in_the_order_of_its_cells(kernel_folder):
    # x's man on b1 takes b2, then c1, and lands on c2, from where d3 stops a jump: a
    # chain of one step, whose words (b2 taken before c1) are not the order of their
    # cells: the move takes c1 first, then b2, on both engines. The same with the two
    # taken in their cells' order, and a step that also promotes, keep their words.
    def move(*takes, promote=None):
        run = (*(r.CaptureAt(direction=d) for d in takes), r.Step("ne"), r.Verify(r.EMPTY),
               r.Add(partial="", promote=promote))
        game = make_game([r.Template(run, ("man",), name="j")], [], "draw",
                         {"b1": "X", "b2": "O", "c1": "O", "d3": "O"})
        fast = game.initial_state()
        assert isinstance(fast, kernel.KernelPosition)
        slow = [(m.notation, m.actions)
                for m in game.using(Engine.INTERPRETER).initial_state().legal_moves()]
        assert [(m.notation, m.actions) for m in fast.legal_moves()] == slow
        return slow[0][1]

    taken = [Capture(2), Capture(5)]
    assert list(move("n", "e")[:2]) == taken
    assert list(move("e", "n")[:2]) == taken
    assert len(move("e", "n", promote="king")) == 4


@pytest.mark.slow
@settings(max_examples=max(EXAMPLES // 2, 1), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(templates=chain_templates, placement=placements, seed=st.integers(0, 1 << 16))
def test_random_chains_play_as_the_interpreter_plays_them(kernel_folder, templates,
                                                          placement, seed):
    game = make_game(templates, [], "draw", placement)
    if any(t.program[-1].partial is not None for t in templates):
        assert "def single(" in kernel.source(game)
    play_both(game, seed, 24)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["add-partial-any", "add-partial-cycle", "add-copy-partial",
                                  "pass-partial"])
def test_chains_of_partial_moves_play_on_the_kernel_as_the_interpreter_plays_them(name):
    # The reference's own small files: partial moves of no type (any move of the piece
    # goes on), a cycle a chain may end anywhere on, copies, and pass partial (chains of
    # one type: English checkers below). Their kernels go to the usual cache, as the
    # corpus files' do.
    game = load_game(CONFORMANCE / f"{name}.zrf")
    assert kernel.why_not(game) is None
    for seed in (1, 2, 3):
        play_both(game, seed, 30)


def test_a_chain_round_a_cycle_ends_where_the_interpreter_ends_it():
    # add-partial-cycle.zrf: the King on a1 jumps its own stones round a square, either
    # way; the chain may end on a3, c1 or c3, each by a shortest chain.
    state = load_game(CONFORMANCE / "add-partial-cycle.zrf").initial_state()
    assert isinstance(state, kernel.KernelPosition)
    assert [m.notation for m in state.legal_moves()] == ["a1-a3", "a1-c1", "a1-a3-c3"]


def test_english_checkers_perft_on_the_kernel_is_published():
    # Aart Bik's counts (OpenSpiel's checkers agrees, tests/zrf/test_outside_perft.py):
    # every multiple jump is a chain of partial moves the kernel plays out.
    state = load_game(CORPUS / "checkers/english-checkers.zrf").initial_state()
    assert isinstance(state, kernel.KernelPosition)
    assert perft(state, 7) == [7, 49, 302, 1469, 7361, 36768, 179740]


@pytest.mark.parametrize("name", ["tic-tac-toe", "connect-four", "othello", "nine-mens-morris",
                                  "checkers/english-checkers.zrf", "chess/chess.zrf"])
def test_a_perft_counted_in_the_kernel_is_the_walk_over_the_position_s_moves(name):
    # The kernel finds, makes and unmakes the moves on its arrays; the walk of State
    # asks the position for its moves and plays them. From random positions part-way
    # through a game (near-move goals, a history that counts repetitions, chains of
    # partial moves, follow-up moves, king safety), both count alike and leave the
    # position as it was.
    game = load_game(CORPUS / name) if name.endswith(".zrf") else boardlab.load(name)
    rng = random.Random(name)
    for _ in range(3):
        state = game.initial_state()
        assert isinstance(state, kernel.KernelPosition)
        for _ in range(rng.randrange(12)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_moves()))
        before = snapshot(state)
        counted = state.perft(3)
        assert snapshot(state) == before
        assert counted == State.perft(state, 3) and counted[0] == len(state.legal_moves())
        assert snapshot(state) == before


def test_a_kernel_perft_short_of_room_for_its_path_doubles_it_and_counts_again(monkeypatch):
    # Room for two words and one move: each shortage doubles it and the count starts
    # again in the kernel, which reaches the published counts; the walk is not asked.
    monkeypatch.setattr(kposition, "_PERFT_ROOM", 2)
    monkeypatch.setattr(State, "perft", lambda self, depth: pytest.fail("walked"))
    game = boardlab.load("connect-four")
    plan = kernel.plan_for(game)
    counted, calls = plan.perft, []

    def count(*args):
        calls.append(len(args[2]) - args[4])  # the room for the path's words
        return counted(*args)

    plan.__dict__["perft"] = count
    assert perft(game.initial_state(), 5) == [7, 49, 343, 2401, 16807]
    # The path keeps four positions' 7 drops, a word each: 28 words and 28 moves, the
    # moves' room a quarter of the words' at first (1, 2, ... 32).
    assert calls == [2, 4, 8, 16, 32, 64]


def test_english_checkers_plays_on_the_kernel_as_the_interpreter_plays_it():
    game = load_game(CORPUS / "checkers/english-checkers.zrf")
    assert sum(play_both(game, seed, 120) for seed in (3, 4)) > 100


def test_a_chain_search_past_the_rules_bound_fails_and_leaves_the_position():
    import dataclasses

    game = load_game(CORPUS / "checkers/english-checkers.zrf")
    game.move_rules = dataclasses.replace(game.move_rules, max_chains=1)
    text = "c3=Black.Man,d4=White.Man,f6=White.Man,h8=White.Man Black"
    state = game.parse_state(text)
    assert isinstance(state, kernel.KernelPosition)
    before = str(state)
    # The double jump c3-e5-g7 takes two steps to explore: the bound stops it with the
    # interpreter's error, the steps made on the board taken back.
    with pytest.raises(RulesError, match="more than 1 steps"):
        state.legal_moves()
    assert str(state) == before
    plain = game.using(Engine.INTERPRETER)
    plain.move_rules = game.move_rules
    with pytest.raises(RulesError, match="more than 1 steps"):
        plain.parse_state(text).legal_moves()
    wide = load_game(CORPUS / "checkers/english-checkers.zrf").parse_state(text)
    assert [m.notation for m in wide.legal_moves()] == ["c3-e5-g7 xd4 xf6"]


@pytest.mark.slow
@pytest.mark.parametrize("path", ["checkers/international-checkers.zrf",
                                  "checkers/frisian-checkers.zrf"])
def test_draughts_majority_and_turkish_strike_play_on_the_kernel(path):
    # Deferred captures (a piece taken stays, owned by nobody, until the chain ends)
    # and the majority rule (Frisian: kings weigh first), as the interpreter plays them;
    # international perft against the published counts: tests/zrf/test_game.py.
    game = load_game(CORPUS / path)
    assert kernel.why_not(game) is None
    assert sum(play_both(game, seed, 80) for seed in (5, 6)) > 60


def test_chains_with_pieces_in_hand_play_on_the_kernel_as_the_interpreter_plays_them():
    # Bagh-chal: the goats come from hand, the tigers' jumps are chains; a step's key
    # holds the counts in hand as a move's does.
    game = load_game(CORPUS / "checkers-like/bagh-chal.zrf")
    assert kernel.why_not(game) is None
    assert sum(play_both(game, seed, 60) for seed in (1, 2)) > 40


@pytest.mark.parametrize("name", ["turn-order-types", "turn-order"])
def test_turns_limited_to_a_move_type_or_another_players_pieces_play_on_the_kernel(name):
    # The reference's turns (PLAYER MOVE-TYPE) and (PLAYER OWNER [MOVE-TYPE]): the jump
    # of the man runs only on Black's turn, as a move of White's man; Neutral's stone
    # moves on White's turn, read from Neutral's side (Klin Zha's setup turns and
    # Duel's type-normal turns are the corpus's; benchmarks/kernels.py plays them).
    game = load_game(CONFORMANCE / f"{name}.zrf")
    assert kernel.why_not(game) is None
    state = game.initial_state()
    assert isinstance(state, kernel.KernelPosition)
    if name == "turn-order-types":
        assert [m.notation for m in state.legal_moves()] == ["a1-a2"]
        state = state.play_all(["a1-a2"])
        assert [m.notation for m in state.legal_moves()] == ["a2-a4"]
        assert state.play_all(["a2-a4"]).outcome() == (0, 1)
    else:
        assert sorted(m.notation for m in state.legal_moves()) == ["b2-b1", "b2xc2"]
    for seed in (1, 2):
        play_both(game, seed, 20)


def test_a_game_no_one_holds_frees_its_kernel_tables():
    # Its Move objects sat in an object array the cyclic collector does not look into:
    # a cycle through them back to the game held every game loaded (and its table of
    # megabytes) for good; a test that loaded Connect Four a thousand times took 15 GB.
    # A move kept outlives the game's other holders, and still spells itself.
    import gc
    import weakref

    def played() -> weakref.ref:
        game = boardlab.load("connect-four", rows=4, columns=4)
        state = game.initial_state()
        assert isinstance(state, kernel.KernelPosition)
        state.apply(state.legal_moves()[0])
        assert [m.notation for m in state.legal_moves()][:2] == ["a", "b"]
        return weakref.ref(game)

    games = [played() for _ in range(3)]
    gc.collect()
    assert all(game() is None for game in games)
    kept = boardlab.load("connect-four", rows=4, columns=4).initial_state().legal_moves()[2]
    gc.collect()
    assert kept.notation == "c" and repr(kept) == "Move('c')"


# --- rules of whole moves: line templates, the mover's group, mirror images, groups a
# --- capture cuts off, turns of two plies ---------------------------------------------------
SIX = Board.square(6, 6).rotated_for(1)
ORTHOGONAL = ("n", "s", "e", "w")
#: Each cell's twin across the middle between rows 3 and 4, and each side's far row.
MIRROR = tuple((5 - c // 6) * 6 + c % 6 for c in range(36))
FAR_ROWS = (frozenset(range(30, 36)), frozenset(range(6)))


def _slide(d: str, guard=()) -> r.Template:
    return r.Template((*guard, r.Step(d), r.While(r.EMPTY, (r.Add(), r.Step(d))),
                       r.Verify(r.ENEMY), r.Add()), name="slide", direction=d)


def _whole_game(name: str, group=None, **rules) -> PieceGame:
    """Men and kings on 6x6 (a setup of its own mirror image) that slide and capture,
    back only while split (their group joined along ``group``), and move lines of
    pieces: across, along and back; a side wins with its king on the far row, loses
    without pieces."""
    split = (r.Verify(r.not_(r.connected(group))),)
    templates = [*(_slide(d) for d in ("n", "ne", "nw", "e", "w")),
                 *(_slide(d, split) for d in ("s", "se", "sw")),
                 r.Line((), name="line", line="e", direction="n"),
                 r.Line(split, name="line", line="e", direction="s"),
                 r.Line((), name="line", line="n", direction="e"),
                 r.Line((), name="file", line="n", direction="n", min_size=3),
                 r.Line((), name="men", line="e", direction="w", kinds=("man",))]
    placement = {c: "X" for c in ("a1", "b1", "c1", "e1", "b2", "c2", "d2", "f2")}
    placement.update({c: "O" for c in ("a6", "b6", "c6", "e6", "b5", "c5", "d5", "f5")})
    placement.update({"d1": "K", "d6": "Q"})
    goals = g.Goals((g.Condition("win", (0, 1), g.AbsoluteConfig((("self", "king"),),
                                                                  FAR_ROWS.__getitem__)),
                     g.Condition("loss", (0, 1), g.PiecesRemaining(0))), 2)
    return _test_game(name, SIX, placement, templates, goals, **rules)


WHOLE = {
    "group": {"invariants": [r.StaysConnected()]},
    "orthogonal": {"invariants": [r.StaysConnected(ORTHOGONAL)], "group": ORTHOGONAL},
    "mirror": {"invariants": [r.NotMirrored(MIRROR)]},
    "mirror onto": {"invariants": [r.NotMirrored(MIRROR, FAR_ROWS)]},
    "cut off": {"cut_off": r.KeepLargestGroup()},
    "cut off orthogonal": {"cut_off": r.KeepLargestGroup(ORTHOGONAL)},
    "two plies": {"follow_up": r.FollowUp(along=("e", "w"), name="again")},
    "all": {"invariants": [r.StaysConnected(), r.NotMirrored(MIRROR, FAR_ROWS)],
            "cut_off": r.KeepLargestGroup(),
            "follow_up": r.FollowUp(along=("e", "w"), name="second")},
}


def _captures_first(moves, rng):
    """A capture half the time when there is one (so that groups are cut off)."""
    takes = [k for k, m in enumerate(moves) if any(isinstance(a, Capture) for a in m.actions)]
    return rng.choice(takes) if takes and rng.random() < 0.5 else rng.randrange(len(moves))


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(WHOLE))
def test_rules_of_whole_moves_play_on_the_kernel_as_the_interpreter_plays_them(
        kernel_folder, variant):
    game = _whole_game(f"whole-{variant.replace(' ', '-')}", **WHOLE[variant])
    assert kernel.why_not(game) is None
    plies = sum(play_both(game, seed, 120, _captures_first) for seed in range(6))
    assert plies > 60


def _both(game: PieceGame, to_move: int = 0):
    """The game's start with ``to_move`` to move, on the kernel and interpreted."""
    fast = game.initial_state()
    slow = game.using(Engine.INTERPRETER).initial_state()
    if to_move:
        fast, slow = fast.with_turn(to_move), slow.with_turn(to_move)
    assert isinstance(fast, kernel.KernelPosition)
    assert not isinstance(slow, kernel.KernelPosition)
    return fast, slow


FIVE = Board.square(5, 5).rotated_for(1)
#: Each cell's twin across the middle row, and each side's far row.
MIRROR5 = tuple((4 - c // 5) * 5 + c % 5 for c in range(25))
FAR5 = (frozenset(range(20, 25)), frozenset(range(5)))


def _steps(*ds: str) -> list[r.Template]:
    return [r.Template((r.Step(d), r.Verify(r.EMPTY), r.Add()), name=d, direction=d)
            for d in ds]


#: Positions whose moves the rules of whole moves change, worked out by hand (as
#: tests/core/test_rules.py works them for the interpreter): templates, placement, side
#: to move, rules, the moves' notations (generic: the game keeps the default notation).
WORKED = {
    "lines": ([r.Line((), line="e", direction="n"), r.Line((), line="e", direction="e"),
               r.Line((), line="e", direction="w")],
              {"b1": "X", "c1": "X", "d1": "X", "c3": "X", "c5": "O", "b5": "O"}, 0, {},
              ["b1-b2 c1-c2", "b1-b2 c1-c2 d1-d2", "c1-c2 d1-d2", "b1-c1 c1-d1 d1-e1",
               "c1-d1 d1-e1", "b1-a1 c1-b1", "b1-a1 c1-b1 d1-c1"]),
    "their lines": ([r.Line((), line="e", direction="n")],
                    {"b1": "X", "c1": "X", "c3": "X", "c5": "O", "b5": "O"}, 1, {},
                    ["c5-c4 b5-b4"]),
    "split": ([r.Template((r.Verify(r.not_(r.connected())), r.Step("s"), r.Verify(r.EMPTY),
                           r.Add()))], {"a3": "X", "c3": "X", "e5": "O"}, 0, {},
              ["a3-a2", "c3-c2"]),
    "joined": ([r.Template((r.Verify(r.not_(r.connected())), r.Step("s"), r.Verify(r.EMPTY),
                            r.Add()))], {"a3": "X", "b4": "X", "e5": "O"}, 0, {}, []),
    "group": (_steps(*ORTHOGONAL), {"a1": "X", "b1": "X", "b2": "X", "e5": "O"}, 0,
              {"invariants": [r.StaysConnected()]}, ["a1-a2", "b1-c1", "b2-c2", "b2-a2"]),
    # b2 holds a1 and c1 together: its move to b1 keeps them (found by a search),
    # its others split them; the others' moves keep the group where they land next to
    # it (found without making them).
    "cut point": (_steps(*ORTHOGONAL), {"a1": "X", "b2": "X", "c1": "X", "e5": "O"}, 0,
                  {"invariants": [r.StaysConnected()]},
                  ["a1-a2", "c1-c2", "b2-b1", "a1-b1", "c1-b1"]),
    "orthogonal group": (_steps(*ORTHOGONAL), {"a1": "X", "b1": "X", "b2": "X", "e5": "O"},
                         0, {"invariants": [r.StaysConnected(ORTHOGONAL)]},
                         ["a1-a2", "b2-a2"]),
    "mirror": (_steps("e"), {"a1": "X", "a5": "O", "b2": "X", "c4": "O"}, 0,
               {"invariants": [r.NotMirrored(MIRROR5)]}, ["a1-b1"]),
    "mirror onto": (_steps("e"), {"a1": "X", "a5": "O", "b2": "X", "c4": "O"}, 0,
                    {"invariants": [r.NotMirrored(MIRROR5, FAR5)]}, ["a1-b1", "b2-c2"]),
    "tie": ([r.Template((r.Step("n"), r.Verify(r.ENEMY), r.Add()))],
            {"c2": "X", "c3": "O", "b4": "O", "d4": "O"}, 0,
            {"cut_off": r.KeepLargestGroup()},
            ["xc3 c2-c3 xd4/b4", "xc3 c2-c3 xb4/d4"]),
    "largest": ([r.Template((r.Step("n"), r.Verify(r.ENEMY), r.Add()))],
                {"c2": "X", "c3": "O", "b4": "O", "d4": "O", "d5": "O"}, 0,
                {"cut_off": r.KeepLargestGroup()}, ["xc3 c2-c3 xb4"]),
    "orthogonal tie": ([r.Template((r.Step("n"), r.Verify(r.ENEMY), r.Add()))],
                       {"c2": "X", "c3": "O", "b4": "O", "c5": "O"}, 0,
                       {"cut_off": r.KeepLargestGroup(ORTHOGONAL)},
                       ["xc3 c2-c3 xc5/b4", "xc3 c2-c3 xb4/c5"]),
}


@pytest.mark.parametrize("case", list(WORKED))
def test_rules_of_whole_moves_on_positions_worked_out_by_hand(kernel_folder, case):
    templates, placement, to_move, rules, notations = WORKED[case]
    goals = g.Goals((g.Condition("loss", (0, 1), g.PiecesRemaining(0)),), 2)
    game = _test_game(f"worked-{case.replace(' ', '-')}", FIVE, placement, templates,
                      goals, **rules)
    fast, slow = _both(game, to_move)
    assert [m.notation for m in fast.legal_moves()] == notations
    assert snapshot(fast) == snapshot(slow)
    for k, move in enumerate(fast.legal_moves()):  # each move played, then taken back
        fast.apply(move)
        slow.apply(slow.legal_moves()[k])
        assert snapshot(fast) == snapshot(slow)
        fast.undo()
        slow.undo()
        assert snapshot(fast) == snapshot(slow)


def test_a_sideways_move_gives_a_second_ply_on_the_kernel_as_on_the_interpreter():
    goals = g.Goals((g.Condition("loss", (0, 1), g.PiecesRemaining(0)),), 2)
    game = _test_game("second-ply", FIVE, {"c1": "X", "c5": "O"}, _steps("n", "e", "w"),
                      goals, follow_up=r.FollowUp(along=("e", "w"), name="again"))
    for state in _both(game):
        state.apply(state.parse_move("c1-b1"))
        assert state.to_move == 0 and state.follow == "again" and state.turns == 0
        assert str(state).endswith(" follow:again")
        assert [m.notation for m in state.legal_moves()] == ["b1-b2"]
        again = game.parse_state(str(state))
        assert again == state and again.key() == state.key()
        state.apply(state.parse_move("b1-b2"))
        assert state.to_move == 1 and state.follow is None and state.turns == 1
        state.apply(state.parse_move("c5-b5"))  # its "e" is west: sideways too
        assert state.to_move == 1 and state.follow == "again"
        state.undo()
        assert state.to_move == 1 and state.follow is None
    assert sum(play_both(game, seed, 60) for seed in range(3)) > 30


def test_rules_of_whole_moves_beyond_a_kernel_say_why():
    goals = g.Goals((g.Condition("loss", (0, 1), g.PiecesRemaining(0)),), 2)

    def why(templates=(), **rules):
        game = _test_game("beyond", FIVE, {"a1": "X", "e5": "O"},
                          list(templates) or _steps("n"), goals, **rules)
        return kernel.why_not(game)

    assert why(invariants=[lambda state, move, player: True]) == "invariants or move filters"
    assert why(invariants=[r.StaysConnected()], invariant_guard=lambda s, m: True) == \
        "invariants or move filters"
    assert "mirror image" in why(invariants=[r.NotMirrored((0,) * 24)])
    assert "not on the board" in why(cut_off=r.KeepLargestGroup(("up",)))
    assert "line template" in why([r.Line((r.Step("n"),), line="e", direction="n")])
    partial = r.Template((r.Step("n"), r.Verify(r.EMPTY), r.Add(partial="")))
    assert "partial moves" in why([partial], follow_up=r.FollowUp(along=("e",), name="x"))


# --- kernels compiled in a child process ----------------------------------------------------
@pytest.fixture
def spied_compiles(monkeypatch):
    """A function that gives this test a compiler of its own and the list of kernel
    modules sent to it from then on (still compiled); its children are stopped after
    the test, not left idle until the pipes are collected."""
    made = []

    def spy_on_a_new_compiler():
        compiler = kcompiler._Compiler()
        made.append(compiler)
        monkeypatch.setattr(kcompiler, "_COMPILER", compiler)
        calls = []
        real = compiler.compile

        def spy(path):
            calls.append(Path(path))
            return real(path)

        monkeypatch.setattr(compiler, "compile", spy)
        return calls

    yield spy_on_a_new_compiler
    for compiler in made:
        compiler.close()


def test_a_kernel_compiles_in_a_child_and_loads_from_numba_s_cache(tmp_path, monkeypatch,
                                                                  spied_compiles):
    # Compiling takes memory numba never gives back (shogi: 5.9 GB); a child process
    # compiles, this one loads the code. Tic-tac-toe's published perft holds on it.
    monkeypatch.setenv("BOARDLAB_KERNEL_DIR", str(tmp_path))
    monkeypatch.setattr(kplan, "_COMPILED", set())  # nothing compiled in this process
    calls = spied_compiles()
    game = boardlab.load("tic-tac-toe")
    assert kernel.plan_for(game) is not None
    assert len(calls) == 1 and kcompiler._COMPILER.pid not in (None, os.getpid())
    marks = list(tmp_path.glob("*.compiled-py*"))
    assert len(marks) == 1 and marks[0].stem == calls[0].stem
    assert perft(game.initial_state(), 4) == [9, 72, 504, 3024]
    # Another game object with the same kernel, in a process that has not compiled it:
    # the cache says it is there, nothing is sent to the child.
    monkeypatch.setattr(kplan, "_COMPILED", set())
    again = boardlab.load("tic-tac-toe")
    assert again is not game and again.kernel_found is None
    assert kernel.plan_for(again) is not None and len(calls) == 1
    assert perft(again.initial_state(), 3) == [9, 72, 504]


def test_a_compiling_child_left_idle_is_stopped_and_the_next_kernel_starts_another(
        tmp_path, monkeypatch, spied_compiles):
    # A server meets its kernels at its start; its child must not hold its memory for
    # the server's life.
    monkeypatch.setenv("BOARDLAB_KERNEL_DIR", str(tmp_path))
    monkeypatch.setattr(kplan, "_COMPILED", set())
    monkeypatch.setattr(kcompiler, "_COMPILER_IDLE", 0.5)
    calls = spied_compiles()
    assert kernel.plan_for(boardlab.load("tic-tac-toe")) is not None
    first = kcompiler._COMPILER.pid
    assert first is not None
    for _ in range(200):
        if kcompiler._COMPILER.pid is None:
            break
        threading.Event().wait(0.1)
    assert kcompiler._COMPILER.pid is None
    game = boardlab.load("connect-four", rows=4, columns=4)
    assert kernel.plan_for(game) is not None and len(calls) == 2
    assert kcompiler._COMPILER.pid not in (None, first)
    assert perft(game.initial_state(), 3) == [4, 16, 64]


def test_a_child_s_peak_memory_is_its_own_not_its_large_parent_s():
    # Linux carries ru_maxrss over fork and exec: a compiling child of a test worker or
    # a server past the bound would leave after every kernel (CI, stop 44).
    child = ("from boardlab.core.kernel.compiler import _peak_bytes; print(_peak_bytes())")
    parent = ("import subprocess, sys\n"
              "held = bytearray(1 << 30)\n"
              "for i in range(0, len(held), 4096): held[i] = 1\n"
              f"print(subprocess.run([sys.executable, '-c', {child!r}], check=True,"
              " capture_output=True, text=True).stdout)")
    out = subprocess.run([sys.executable, "-c", parent], check=True, capture_output=True,
                         text=True).stdout
    assert 0 < int(out) < (1 << 30) // 2  # the child imported numba, it holds no GiB
    assert kcompiler._peak_bytes() > 0


def test_one_child_compiles_kernel_after_kernel_until_its_memory_passes_the_bound(
        tmp_path, monkeypatch, spied_compiles):
    monkeypatch.setenv("BOARDLAB_KERNEL_DIR", str(tmp_path))
    monkeypatch.setattr(kplan, "_COMPILED", set())
    calls = spied_compiles()
    children = []
    for name in ("tic-tac-toe", "connect-four"):
        assert kernel.plan_for(boardlab.load(name)) is not None
        children.append(kcompiler._COMPILER.pid)
    assert len(calls) == 2 and None not in children and children[0] == children[1] != os.getpid()
    # A child past the bound answers, then leaves; the next kernel gets a new child.
    monkeypatch.setattr(kcompiler, "_COMPILER_BYTES", 1)
    calls = spied_compiles()
    game = boardlab.load("connect-four", rows=4, columns=4)
    assert kernel.plan_for(game) is not None and kcompiler._COMPILER.pid is None
    assert kernel.plan_for(boardlab.load("breakthrough", rows=5, columns=4)) is not None
    assert len(calls) == 2 and kcompiler._COMPILER.pid is None
    assert perft(game.initial_state(), 2) == [4, 16]


def test_builders_that_meet_a_new_kernel_at_once_compile_it_once(tmp_path, monkeypatch,
                                                                 spied_compiles):
    # Two builders at once (as a test run's workers or a server's): the second waits on
    # the kernel's lock, then finds it in the cache. Each calls _build, past plan_for's
    # lock of this process, as two processes would.
    monkeypatch.setenv("BOARDLAB_KERNEL_DIR", str(tmp_path))
    monkeypatch.setattr(kplan, "_COMPILED", set())
    calls = spied_compiles()
    games = [boardlab.load("tic-tac-toe") for _ in range(2)]
    start = threading.Barrier(2)
    plans = []

    def build(game):
        written = kplan._write(game)
        start.wait()
        plans.append(kplan._build(game, written))

    threads = [threading.Thread(target=build, args=(game,)) for game in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(calls) == 1
    assert len(plans) == 2 and all(perft(p.game.initial_state(), 3) == [9, 72, 504]
                                   for p in plans)


def test_a_child_that_fails_to_compile_leaves_the_game_on_the_interpreter(tmp_path,
                                                                          monkeypatch):
    # A child that dies (here as the kernel of a machine out of memory would): its last
    # word is the reason, and the next kernel gets a new child.
    monkeypatch.setenv("BOARDLAB_KERNEL_DIR", str(tmp_path))
    monkeypatch.setattr(kplan, "_COMPILED", set())
    monkeypatch.setattr(kcompiler, "_COMPILER", kcompiler._Compiler())
    dying = ("import os, sys; sys.stdin.readline(); "
             "sys.stderr.write('numba: compiling\\nMemoryError\\n'); sys.stderr.flush(); "
             "os._exit(137)")
    monkeypatch.setattr(kcompiler, "_compiler_command", lambda: [sys.executable, "-c", dying])
    game = boardlab.load("tic-tac-toe")
    assert kernel.plan_for(game) is None
    assert kernel.why_not(game) == "compiling the kernel apart failed: MemoryError"
    assert kcompiler._COMPILER.pid is None
    state = game.initial_state()
    assert not isinstance(state, kernel.KernelPosition)
    assert perft(state, 3) == [9, 72, 504]


def test_each_part_of_the_kernel_writer_defines_its_own_methods():
    # The writer is one class made of a mixin per part of a kernel (writer/*.py): a
    # name two parts define would be one part's silently, by the method resolution
    # order, so each name is defined once.
    from collections import Counter

    parts = kwriter._Writer.__mro__[:-1]
    assert len(parts) >= 9
    counts = Counter(name for part in parts for name in vars(part)
                     if not (name.startswith("__") and name.endswith("__")))
    assert [name for name, k in counts.items() if k > 1] == []
