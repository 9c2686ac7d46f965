"""The move language on small boards: pushes, broadsides, long pushes, castling, group
products, priorities, invariants and drops. Expected moves are worked out by hand from
the games' rules, independently of the interpreter."""

from __future__ import annotations

import pytest

from boardlab.core.board import Board
from boardlab.core.engine import Engine
from boardlab.core.move import Capture, Change, Piece, Place, Shift
from boardlab.core.rules import (
    EMPTY,
    ENEMY,
    FRIEND,
    ON_BOARD,
    Add,
    Back,
    Cascade,
    ChangeOwner,
    ChangeType,
    Drop,
    FollowUp,
    From,
    GoTo,
    Group,
    If,
    Inc,
    KeepLargestGroup,
    Line,
    Mark,
    NotMirrored,
    SetAttribute,
    SetVar,
    StaysConnected,
    Step,
    Template,
    To,
    Verify,
    While,
    all_of,
    any_of,
    compose,
    connected,
    for_directions,
    less,
    not_,
    piece_is,
    reach,
    var,
)
from boardlab.errors import NotationError
from tests.conftest import sandbox

HEX = Board.hexagon(5)  # Abalone's 61 cells, named a1..i9


def cells(state, names):
    return {state.game.board.cell(n) for n in names}


def occupancy(state):
    board = state.game.board
    return {board.cell_name(c): state.game.piece_names[p] for c, p in state.occupied()}


def abalone_inline(d):
    """An in-line move of 1-3 marbles from the tail marble; pushes need numbers (sumito)."""
    return (
        SetVar("own", 1),
        Step(d),
        While(FRIEND, (Inc("own"), Verify(less(var("own"), 4)), Cascade(), Step(d))),
        If(EMPTY, (Add(),)),
        Verify(ENEMY),
        SetVar("enemy", 0),
        While(ENEMY, (Inc("enemy"), Verify(less(var("enemy"), var("own"))),
                      Cascade(), Step(d, may_leave=True))),
        If(not_(ON_BOARD), (Add(),)),
        Verify(EMPTY),
        Add(),
    )


def moves_by_shifts(state):
    return {frozenset(m.actions): m for m in state.legal_moves()}


def test_inline_push_three_against_two():
    # Own line e3 e4 e5 pushes enemies e6 e7 east; e8 is empty.
    state = sandbox(HEX, [Template(abalone_inline("e"))],
                    {"e3": "X", "e4": "X", "e5": "X", "e6": "O", "e7": "O"})
    e = HEX.cell
    push = frozenset({Shift(e("e3"), e("e4")), Shift(e("e4"), e("e5")),
                      Shift(e("e5"), e("e6")), Shift(e("e6"), e("e7")),
                      Shift(e("e7"), e("e8"))})
    assert push in moves_by_shifts(state)
    after = state.play(moves_by_shifts(state)[push])
    assert occupancy(after) == {"e4": "X", "e5": "X", "e6": "X", "e7": "O", "e8": "O"}


def test_sumito_numbers():
    e = HEX.cell
    # 2 v 2 is forbidden, 2 v 1 is allowed.
    two_v_two = sandbox(HEX, [Template(abalone_inline("e"))],
                        {"e4": "X", "e5": "X", "e6": "O", "e7": "O"})
    sources = {frozenset(a.source for a in m.actions if isinstance(a, Shift))
               for m in two_v_two.legal_moves()}
    assert frozenset({e("e4"), e("e5"), e("e6"), e("e7")}) not in sources
    assert frozenset({e("e5"), e("e6")}) not in sources  # 1 v 2
    two_v_one = sandbox(HEX, [Template(abalone_inline("e"))],
                        {"e4": "X", "e5": "X", "e6": "O"})
    assert frozenset({Shift(e("e4"), e("e5")), Shift(e("e5"), e("e6")),
                      Shift(e("e6"), e("e7"))}) in moves_by_shifts(two_v_one)
    # A line of four own marbles cannot move in line from its tail.
    four = sandbox(HEX, [Template(abalone_inline("e"))],
                   {"e2": "X", "e3": "X", "e4": "X", "e5": "X"})
    assert all(e("e2") not in {a.source for a in m.actions} for m in four.legal_moves())


def test_push_blocked_by_own_marble_behind_enemy():
    e = HEX.cell
    state = sandbox(HEX, [Template(abalone_inline("e"))],
                    {"e3": "X", "e4": "X", "e5": "X", "e6": "O", "e7": "X"})
    for m in state.legal_moves():
        assert Shift(e("e5"), e("e6")) not in m.actions


def test_push_off_the_board_captures():
    e = HEX.cell
    # e9 is the east edge: pushing the enemy there throws it off.
    state = sandbox(HEX, [Template(abalone_inline("e"))],
                    {"e6": "X", "e7": "X", "e8": "X", "e9": "O"})
    push = frozenset({Shift(e("e6"), e("e7")), Shift(e("e7"), e("e8")),
                      Shift(e("e8"), e("e9")), Capture(e("e9"))})
    move = moves_by_shifts(state)[push]
    after = state.play(move)
    assert occupancy(after) == {"e7": "X", "e8": "X", "e9": "X"}
    # play() returns a new value: the original position is untouched.
    assert occupancy(state) == {"e6": "X", "e7": "X", "e8": "X", "e9": "O"}


def broadside(line, d):
    """Sideways move of 2 or 3 marbles in a line along ``line``, each one step to ``d``:
    mark, step, to (put down now), back, step along the line, cascade (pick up), ..."""
    return (
        Mark(), Step(d), Verify(EMPTY), To(), Back(),
        Step(line), Verify(FRIEND), Mark(), Cascade(), Step(d), Verify(EMPTY), Add(),
        To(), Back(),
        Step(line), Verify(FRIEND), Cascade(), Step(d), Verify(EMPTY), Add(),
    )


def test_broadside_with_mark_back_to_cascade():
    e = HEX.cell
    state = sandbox(HEX, [Template(broadside("e", "ne"))],
                    {"e3": "X", "e4": "X", "e5": "X"})
    got = {frozenset(m.actions) for m in state.legal_moves()}
    assert got == {
        frozenset({Shift(e("e3"), e("f4")), Shift(e("e4"), e("f5"))}),
        frozenset({Shift(e("e3"), e("f4")), Shift(e("e4"), e("f5")),
                   Shift(e("e5"), e("f6"))}),
        frozenset({Shift(e("e4"), e("f5")), Shift(e("e5"), e("f6"))}),
    }
    three = next(m for m in state.legal_moves() if len(m.actions) == 3)
    assert occupancy(state.play(three)) == {"f4": "X", "f5": "X", "f6": "X"}


def test_broadside_blocked_by_any_piece():
    state = sandbox(HEX, [Template(broadside("e", "ne"))],
                    {"e3": "X", "e4": "X", "f5": "O"})
    assert state.legal_moves() == []


SQ = Board.square(8, 3)


def push_2(d):
    """The article's Epaminondas push-2 template, literally."""
    return (
        Step(d), Verify(FRIEND),
        While(FRIEND, (Mark(), Step(d), Verify(not_(ENEMY)), To(), Back(), Cascade(), Step(d))),
        Step(d), Verify(not_(FRIEND)), Add(),
    )


def test_epaminondas_push_two_cells_with_to():
    state = sandbox(SQ, [Template(push_2("e"))], {"a1": "X", "b1": "X"})
    c = SQ.cell
    assert {frozenset(m.actions) for m in state.legal_moves()} == {
        frozenset({Shift(c("a1"), c("c1")), Shift(c("b1"), c("d1"))})}


def phalanx(d, length, distance):
    """A phalanx of ``length`` moving ``distance`` cells, written with to/from: pick up
    each piece in turn (from), walk it ``distance`` cells and put it down (to)."""
    program = [Mark()]
    for i in range(length):
        if i:
            program += [Back(), Step(d), Verify(FRIEND), Mark(), From()]
        for k in range(distance):
            program.append(Step(d))
            if i + k + 1 >= length:  # beyond the phalanx's head: the path must be empty
                program.append(Verify(EMPTY))
        if i < length - 1:
            program.append(To())
    return [*program, Add()]


def test_long_push_with_to_and_from():
    c = SQ.cell
    state = sandbox(SQ, [Template(phalanx("e", 3, 3))], {"a1": "X", "b1": "X", "c1": "X"})
    moves = [m for m in state.legal_moves() if len(m.actions) == 3]
    assert {frozenset(m.actions) for m in moves} == {
        frozenset({Shift(c("a1"), c("d1")), Shift(c("b1"), c("e1")), Shift(c("c1"), c("f1"))})}
    assert occupancy(state.play(moves[0])) == {"d1": "X", "e1": "X", "f1": "X"}
    blocked = sandbox(SQ, [Template(phalanx("e", 3, 3))],
                      {"a1": "X", "b1": "X", "c1": "X", "e1": "O"})
    assert not [m for m in blocked.legal_moves() if len(m.actions) == 3]


def test_castling_with_cascade():
    board = Board.square(8, 1)
    c = board.cell
    king, rook = Piece(0, "king"), Piece(0, "rook")
    o_o = (  # chess.zrf's O-O: king two cells east, rook jumps over it
        Verify(piece_is("king")), Step("e"), Verify(EMPTY), Step("e"), Verify(EMPTY),
        Cascade(), Step("e"), Verify(all_of(FRIEND, piece_is("rook"))), From(),
        Step("w"), Step("w"), Add(),
    )
    state = sandbox(board, [Template(o_o)], {"e1": "K", "h1": "R"},
                    pieces={"K": king, "R": rook})
    (move,) = state.legal_moves()
    assert set(move.actions) == {Shift(c("e1"), c("g1")), Shift(c("h1"), c("f1"))}
    assert occupancy(state.play(move)) == {"g1": "K", "f1": "R"}
    blocked = sandbox(board, [Template(o_o)], {"e1": "K", "f1": "R", "h1": "R"},
                      pieces={"K": king, "R": rook})
    assert blocked.legal_moves() == []


def taacoca_group():
    return Group((), single=lambda d: (Step(d), Add()), directions=tuple(HEX.directions),
                 sizes=(1, 2, 3), name="group")


def test_group_product_enters_vacated_cells():
    c = HEX.cell
    state = sandbox(HEX, [taacoca_group()], {"e4": "X", "e5": "X", "e6": "X", "e7": "O"})
    moves = {frozenset(m.actions) for m in state.legal_moves()}
    # All three east: e6 enters e7 capturing, e5 enters e6 vacated, e4 enters e5 vacated.
    assert frozenset({Capture(c("e7")), Shift(c("e4"), c("e5")), Shift(c("e5"), c("e6")),
                      Shift(c("e6"), c("e7"))}) in moves
    # e4 alone east bumps into e5, which stays: not a move.
    assert frozenset({Shift(c("e4"), c("e5"))}) not in moves
    # Pairs of distinct pieces in one direction are moves too (north-west here).
    assert frozenset({Shift(c("e4"), c("f4")), Shift(c("e5"), c("f5"))}) in moves
    # Count: brute force over subsets of pieces and the six directions.
    pieces = [c("e4"), c("e5"), c("e6")]
    expected = set()
    import itertools

    for d in HEX.directions:
        for k in (1, 2, 3):
            for group in itertools.combinations(pieces, k):
                targets = [HEX.step(p, d) for p in group]
                if -1 in targets:
                    continue
                if any(t in pieces and t not in group for t in targets):
                    continue
                acts = {Shift(p, t) for p, t in zip(group, targets, strict=True)}
                if c("e7") in targets:
                    acts.add(Capture(c("e7")))
                expected.add(frozenset(acts))
    assert moves == expected


def test_priority_makes_captures_compulsory():
    board = Board.square(5, 5)
    step = for_directions(lambda d: (Step(d), Verify(EMPTY), Add()), ("nw", "ne"))
    jump = for_directions(lambda d: (Step(d), Verify(ENEMY), Mark(), Step(d), Verify(EMPTY),
                                     Add()), ("nw", "ne"), priority=1)
    state = sandbox(board, [*step, *jump], {"c1": "X", "a1": "X", "d2": "O"})
    assert [m.notation for m in state.legal_moves()] == ["c1-e3"]
    quiet = sandbox(board, [*step, *jump], {"c1": "X", "a1": "X"})
    assert {m.notation for m in quiet.legal_moves()} == {"a1-b2", "c1-b2", "c1-d2"}


def connected_after(state, move, player):
    cells_ = set(state.pieces_of(player))
    if not cells_:
        return True
    board = state.game.board
    todo = [next(iter(cells_))]
    seen = set(todo)
    while todo:
        for n in board.neighbours(todo.pop()):
            if n in cells_ and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == cells_


def test_invariant_removes_disconnecting_moves():
    board = Board.square(4, 4)
    steps = for_directions(lambda d: (Step(d), Verify(EMPTY), Add()), ORTHO)
    state = sandbox(board, steps, {"a1": "X", "b1": "X", "c1": "X"}, invariants=[connected_after])
    got = {m.notation for m in state.legal_moves()}
    # b1 may go to b2 (still touching a1 and c1 diagonally); the ends may only move up.
    assert got == {"a1-a2", "b1-b2", "c1-c2"}
    free = sandbox(board, steps, {"a1": "X", "b1": "X", "c1": "X"})
    assert "c1-d1" in {m.notation for m in free.legal_moves()}


ORTHO = ("n", "s", "e", "w")


def test_drop_from_reserve_and_rider_fork():
    board = Board.square(3, 3)
    stone = Piece(0, "man")
    drop = Drop((Verify(EMPTY), Add()), kinds=("man",))
    state = sandbox(board, [drop], {"b2": "O"}, reserves={stone: 1})
    assert len(state.legal_moves()) == 8
    after = state.play(state.legal_moves()[0])
    assert after.reserves[stone] == 0
    assert after.legal_moves() == []  # reserve empty: no drop left
    rook = for_directions(lambda d: (Step(d), While(EMPTY, (Add(), Step(d))),
                                     Verify(ENEMY), Add()), ORTHO)
    rider = sandbox(board, rook, {"a1": "X", "a3": "O"})
    assert {m.notation for m in rider.legal_moves()} == {"a1-a2", "xa3 a1-a3", "a1-b1",
                                                         "a1-c1"}


def test_change_owner_flips():
    board = Board.square(3, 1)
    flip = (Step("e"), Verify(ENEMY), ChangeOwner(), Step("e"), Verify(EMPTY), Add())
    state = sandbox(board, [Template(flip)], {"a1": "X", "b1": "O"})
    (move,) = state.legal_moves()
    assert occupancy(state.play(move)) == {"b1": "X", "c1": "X"}


def test_apply_undo_restores_everything():
    state = sandbox(HEX, [Template(abalone_inline(d)) for d in HEX.directions]
                    + [taacoca_group()],
                    {"e3": "X", "e4": "X", "e5": "X", "e6": "O", "e7": "O", "d4": "X"})
    before = (list(state.cells), state.key(), str(state))
    for move in state.legal_moves():
        state.apply(move)
        state.undo()
        assert (list(state.cells), state.key(), str(state)) == before


def test_predicates_combine():
    board = Board.square(2, 1)
    state = sandbox(board, [Template((Step("e"), Verify(any_of(EMPTY, ENEMY)), Add()))],
                    {"a1": "X"})
    assert [m.actions for m in state.legal_moves()] == [(Shift(0, 1),)]
    drop_only = sandbox(board, [Drop((Verify(EMPTY), Add()), kinds=("man",))], {},
                        reserves={Piece(0, "man"): 2})
    assert [m.actions for m in drop_only.legal_moves()] == [
        (Place(0, Piece(0, "man"), from_reserve=True),),
        (Place(1, Piece(0, "man"), from_reserve=True),)]


def test_abalone_standard_start_has_44_moves():
    """In-line moves/pushes and broadsides in all directions reproduce the published
    count of 44 legal first moves from Abalone's standard start."""
    black = ["a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4", "b5", "b6", "c3", "c4", "c5"]
    white = ["i5", "i6", "i7", "i8", "i9", "h4", "h5", "h6", "h7", "h8", "h9", "g5", "g6", "g7"]
    templates = [Template(abalone_inline(d)) for d in HEX.directions]
    for line in ("e", "ne", "nw"):
        templates += [Template(broadside(line, d)) for d in HEX.directions
                      if d not in (line, HEX.opposite[line])]
    state = sandbox(HEX, templates, {**dict.fromkeys(black, "X"), **dict.fromkeys(white, "O")})
    assert len(state.legal_moves()) == 44
    assert len(sandbox(HEX, templates, {**dict.fromkeys(black, "O"),
                                        **dict.fromkeys(white, "X")}).legal_moves()) == 44


def test_reach_ends_where_every_run_has_failed():
    # A run that steps off the board has failed; a jump to a fixed cell after it does not
    # revive it (shogi.zrf's drops start with a step that only a hand cell can take), but
    # after a step allowed to leave the board the run goes on and the jump counts.
    board = Board.square(3, 3)
    a1, a3, c3 = board.cell("a1"), board.cell("a3"), board.cell("c3")
    assert board.step(a3, "n") < 0 <= board.step(a1, "n")
    assert reach([Step("n"), GoTo(c3), Add()], board, 0, a3) == frozenset()
    assert reach([Step("n"), GoTo(c3), Add()], board, 0, a1) == {c3}
    assert reach([Step("n", may_leave=True), GoTo(c3), Add()], board, 0, a3) == {c3}


def test_recycled_promotions_take_the_piece_from_hand():
    # ZRF "recycle promotions": a man reaching b1 becomes a king from its owner's hand
    # (kept with the attribute the move sets), or a queen by change-type after it: the
    # king is taken all the same. No king in hand, no promotion.
    board = Board.square(3, 1)
    king, marked = Piece(0, "king"), Piece(0, "king", frozenset({"moved"}))
    pieces = {"X": Piece(0, "man"), "K": king, "M": marked, "Q": Piece(0, "queen"),
              "O": Piece(1, "man")}
    east = (Step("e"), Verify(EMPTY))
    templates = [Template((*east, SetAttribute("moved"), Add(promote="king")), ("man",)),
                 Template((*east, ChangeType("queen"), Add(promote="king")), ("man",))]
    # (A sandbox has no kernel: the interpreter plays it.)
    state = sandbox(board, templates, {"a1": "X", "c1": "O"}, pieces=pieces,
                    reserves={king: 1}, recycle_promotions=True)
    assert [m.actions for m in state.legal_moves()] == [
        (Shift(0, 1), Change(1, marked, True)),
        (Shift(0, 1), Change(1, king, True), Change(1, Piece(0, "queen")))]
    before = (str(state), state.key())
    for move in state.legal_moves():
        after = state.play(move)
        assert after.reserves == {king: 0} and after.key() == after._full_key()
        state.apply(move)
        state.undo()
        assert (str(state), state.key()) == before
    empty = sandbox(board, templates, {"a1": "X", "c1": "O"}, pieces=pieces,
                    reserves={king: 0}, recycle_promotions=True)
    assert empty.legal_moves() == []


def test_a_chain_keeps_the_piece_its_promotion_took_from_hand():
    man, king = Piece(0, "man"), Piece(0, "king")
    steps = [(Shift(0, 1), Change(1, king, True)), (Shift(1, 2),)]
    assert compose([man, None, None], steps) == (Shift(0, 2), Change(2, king, True))


# --- rules of whole moves: lines, the mover's group, mirror images, cut-off groups, turns
# --- of two plies (worked out by hand from each rule's text) -----------------------------
SQUARE = Board.square(5, 5).rotated_for(1)


def lines(state):
    """Each legal move as the set of its shifts, by cell names."""
    name = state.game.board.cell_name
    return {frozenset(f"{name(a.source)}>{name(a.target)}" for a in m.actions
                      if isinstance(a, Shift)) for m in state.legal_moves()}


def test_line_templates_move_every_line_from_each_piece():
    place = {"b1": "X", "c1": "X", "d1": "X", "c3": "X", "c5": "O", "b5": "O"}
    north = sandbox(SQUARE, [Line((), line="e", direction="n")], place)
    # b1-c1, b1-c1-d1 and c1-d1 go one cell north: c3 stands in the second.
    assert lines(north) == {frozenset({"b1>b2", "c1>c2"}),
                            frozenset({"b1>b2", "c1>c2", "d1>d2"}),
                            frozenset({"c1>c2", "d1>d2"})}
    # Along its own line a line enters the cells it leaves: east b1-c1-d1 (b1-c1 bumps
    # into d1) and c1-d1; west b1-c1 and b1-c1-d1 (c1-d1 bumps into b1).
    east = sandbox(SQUARE, [Line((), line="e", direction="e")], place)
    assert lines(east) == {frozenset({"b1>c1", "c1>d1", "d1>e1"}),
                           frozenset({"c1>d1", "d1>e1"})}
    west = sandbox(SQUARE, [Line((), line="e", direction="w")], place)
    assert lines(west) == {frozenset({"b1>a1", "c1>b1"}),
                           frozenset({"b1>a1", "c1>b1", "d1>c1"})}
    # The second player's directions are turned: its line c5-b5 goes "north", down the
    # board, one cell (c3 is taken); its move lists c5's shift first.
    south = sandbox(SQUARE, [Line((), line="e", direction="n")], place, to_move=1)
    assert lines(south) == {frozenset({"c5>c4", "b5>b4"})}
    assert SQUARE.cell_name(south.legal_moves()[0].actions[0].source) == "c5"
    # Lines of one piece are moves too with min_size 1; a failed test starts none.
    single = sandbox(SQUARE, [Line((), line="e", direction="n", min_size=3)], place)
    assert lines(single) == {frozenset({"b1>b2", "c1>c2", "d1>d2"})}
    tested = sandbox(SQUARE, [Line((Verify(not_(FRIEND)),), line="e", direction="n")], place)
    assert lines(tested) == set()


def test_the_mover_s_group_is_tested_as_the_move_starts():
    back = [Template((Verify(not_(connected())), Step("s"), Verify(EMPTY), Add()))]
    split = sandbox(SQUARE, back, {"a3": "X", "c3": "X", "e5": "O"})
    assert {m.notation for m in split.legal_moves()} == {"a3-a2", "c3-c2"}
    joined = sandbox(SQUARE, back, {"a3": "X", "b4": "X", "e5": "O"})
    assert joined.legal_moves() == []
    # a3 and b4 touch diagonally: apart when only orthogonal steps join pieces.
    orthogonal = [Template((Verify(not_(connected(ORTHO))), Step("s"), Verify(EMPTY), Add()))]
    apart = sandbox(SQUARE, orthogonal, {"a3": "X", "b4": "X", "e5": "O"})
    assert {m.notation for m in apart.legal_moves()} == {"a3-a2", "b4-b3"}


def test_a_move_must_keep_the_mover_s_pieces_one_group():
    steps = for_directions(lambda d: (Step(d), Verify(EMPTY), Add()), ORTHO)
    place = {"a1": "X", "b1": "X", "b2": "X", "e5": "O"}
    kings = sandbox(SQUARE, steps, place, invariants=[StaysConnected()])
    assert {m.notation for m in kings.legal_moves()} == {"a1-a2", "b1-c1", "b2-c2", "b2-a2"}
    # Orthogonally, b1-c1 cuts a1 off, b2-c2 leaves c2 alone.
    rooks = sandbox(SQUARE, steps, place, invariants=[StaysConnected(ORTHO)])
    assert {m.notation for m in rooks.legal_moves()} == {"a1-a2", "b2-a2"}
    before = StaysConnected(ORTHO).before
    assert all(before(rooks, m.actions, 0) for m in rooks.legal_moves())


def test_a_move_may_not_leave_the_position_its_own_mirror_image():
    image = tuple((4 - c // 5) * 5 + c % 5 for c in range(25))  # row y <-> row 4 - y
    step = [Template((Step("e"), Verify(EMPTY), Add()))]
    place = {"a1": "X", "a5": "O", "b2": "X", "c4": "O"}
    # b2-c2 leaves X a1 c2 against O a5 c4: the mirror image, colours swapped.
    assert {m.notation for m in sandbox(SQUARE, step, place).legal_moves()} == \
        {"a1-b1", "b2-c2"}
    mirror = sandbox(SQUARE, step, place, invariants=[NotMirrored(image)])
    assert {m.notation for m in mirror.legal_moves()} == {"a1-b1"}
    # Held to the rule only onto the far row, b2-c2 is legal again.
    far = (frozenset(range(20, 25)), frozenset(range(5)))
    onto = sandbox(SQUARE, step, place, invariants=[NotMirrored(image, far)])
    assert {m.notation for m in onto.legal_moves()} == {"a1-b1", "b2-c2"}
    assert NotMirrored(image).mirrored(onto.play("b2-c2").cells)


def test_a_capture_keeps_the_largest_group_of_the_other_side():
    take = [Template((Step("n"), Verify(ENEMY), Add()))]
    rule = {"cut_off": KeepLargestGroup()}
    # c3 taken, b4 and d4 are two groups of one: the mover chooses, each move noted.
    tie = sandbox(SQUARE, take, {"c2": "X", "c3": "O", "b4": "O", "d4": "O"}, **rule)
    moves = tie.legal_moves()
    assert [m.notation for m in moves] == ["xc3 c2-c3 xd4/b4", "xc3 c2-c3 xb4/d4"]
    assert not isinstance(moves[0][0], str)  # the note is deferred with the notation
    assert occupancy(tie.play(moves[0])) == {"c3": "X", "b4": "O"}
    # d4-d5 is the largest: b4 goes with c3.
    largest = sandbox(SQUARE, take, {"c2": "X", "c3": "O", "b4": "O", "d4": "O", "d5": "O"},
                      **rule)
    assert [m.notation for m in largest.legal_moves()] == ["xc3 c2-c3 xb4"]
    # b4 and c5 touch diagonally: one group, unless only orthogonal steps join pieces.
    place = {"c2": "X", "c3": "O", "b4": "O", "c5": "O"}
    assert [m.notation for m in sandbox(SQUARE, take, place, **rule).legal_moves()] == \
        ["xc3 c2-c3"]
    apart = sandbox(SQUARE, take, place, cut_off=KeepLargestGroup(ORTHO))
    assert [m.notation for m in apart.legal_moves()] == ["xc3 c2-c3 xc5/b4",
                                                         "xc3 c2-c3 xb4/c5"]


def test_a_sideways_move_gives_its_player_a_second_ply():
    steps = for_directions(lambda d: (Step(d), Verify(EMPTY), Add()), ("n", "e", "w"))
    state = sandbox(SQUARE, steps, {"c1": "X", "c5": "O"},
                    follow_up=FollowUp(along=("e", "w"), name="again"))
    before = (str(state), state.key())
    state.apply(state.parse_move("c1-b1"))
    assert state.to_move == 0 and state.follow == "again"
    assert str(state).endswith(" follow:again") and state.turns == 0
    assert state.key() == state._full_key() != state.game.parse_state(
        str(state)[:-len(" follow:again")]).key()
    assert state.game.parse_state(str(state)) == state
    assert {m.notation for m in state.legal_moves()} == {"b1-b2"}  # no second sideways
    state.apply(state.parse_move("b1-b2"))
    assert state.to_move == 1 and state.follow is None and state.turns == 1
    # The other side's sideways move (its "e" is west) gives it a second ply too.
    state.apply(state.parse_move("c5-b5"))
    assert state.to_move == 1 and state.follow == "again"
    for _ in range(3):
        state.undo()
    assert (str(state), state.key()) == before
    # A move due that the game has none of is named.
    with pytest.raises(NotationError, match="no such move due.*'again'"):
        state.game.parse_state(before[0] + " follow:other")


# --- every cell, counts of pieces, follow-up moves -----------------------------------

def test_every_cell_forks_the_run_at_each_cell_and_goes_on_as_it_was():
    # Each cell's run captures c3, counts and adds; none of it goes further than that
    # run (the counter starts at 0 in each, so every empty cell makes a move), a
    # failure (a1 and c3 are not empty) ends that cell's run alone, and the run goes
    # on from a1 afterwards with nothing queued and its counter at 0.
    from boardlab.core.rules import CaptureAt, EveryCell, Less, Var

    program = (EveryCell((CaptureAt(cell=8), Inc("n"), Verify(Less(Var("n"), 2)),
                          Verify(EMPTY), Add())),
               Verify(Less(Var("n"), 1)), Step("n"), Add())
    state = sandbox(Board.square(3, 3), [Template(program)], {"a1": "X", "c3": "O"})
    moves = [m.actions for m in state.legal_moves()]
    names = ["b1", "c1", "a2", "b2", "c2", "a3", "b3"]
    assert moves == [(Capture(8), Shift(0, state.game.board.cell(n))) for n in names] \
        + [(Shift(0, 3),)]


def test_piece_count_is_a_value_a_run_compares():
    from boardlab.core.rules import Less, PieceCount

    def moves(test, reserves=None):
        program = (Verify(test), Step("n"), Add())
        state = sandbox(Board.square(3, 3), [Template(program)],
                        {"a1": "X", "b1": "X", "c3": "O"}, reserves=reserves)
        return len(state.legal_moves())

    assert moves(Less(PieceCount(), 3)) == 2  # two men of the mover's
    assert moves(Less(PieceCount(), 2)) == 0
    assert moves(Less(PieceCount(mine=False), 2)) == 2  # one of the other side's
    assert moves(Less(1, PieceCount(mine=False))) == 0
    assert moves(Less(PieceCount(kinds=("king",)), 1)) == 2
    # With in_hand, the men in hand count too.
    hand = {Piece(0, "man"): 2}
    assert moves(Less(PieceCount(in_hand=True), 4), hand) == 0
    assert moves(Less(PieceCount(in_hand=True), 5), hand) == 2
    assert moves(Less(PieceCount(), 3), hand) == 2


def _row_game(follow=True):
    """Drops from a hand of three men on a 3x3 board; a man dropped that completes a
    row lets its owner take an enemy man, a move of type "take" of its own."""
    from boardlab.core.goals import Goals
    from boardlab.core.position import PieceGame
    from boardlab.core.rules import CaptureHere, Rules, at_step

    row = any_of(all_of(at_step(FRIEND, "e"), at_step(at_step(FRIEND, "e"), "e")),
                 all_of(at_step(FRIEND, "w"), at_step(at_step(FRIEND, "w"), "w")),
                 all_of(at_step(FRIEND, "e"), at_step(FRIEND, "w")))
    x, o = Piece(0, "man"), Piece(1, "man")

    class Rows(PieceGame):
        name = "rows"
        description = "test game"
        player_names = ("x", "o")
        pieces = {"X": x, "O": o}

        def make_ruleset(self):
            take = Template((Verify(ENEMY), CaptureHere(), Add()), name="take",
                            move_type="take", top_level=False, shared=True)
            drop = Drop((Verify(EMPTY), Add()), kinds=("man",), name="drop")
            return self.named_ruleset(
                board=Board.square(3, 3), placement={}, reserves={x: 3, o: 3},
                rules=Rules([drop, take], follow_up=FollowUp(row, "take") if follow else None),
                goals=Goals((), 2, "draw"))

    return Rows()


def test_a_follow_up_is_a_second_move_of_the_same_player_in_one_turn():
    for engine in (Engine.KERNEL, Engine.INTERPRETER):
        game = _row_game().using(engine)
        state = game.initial_state().play_all(["X@a1", "O@a3", "X@b1", "O@b3"])
        assert (state.to_move, state.ply, state.turns, state.follow) == (0, 4, 4, None)
        key = state.key()
        state = state.play("X@c1")  # a1 b1 c1: a row
        assert (state.to_move, state.ply, state.turns, state.follow) == (0, 5, 4, "take")
        # Only the move due: a take, of either of O's men (the template is no turn's).
        assert [m.notation for m in state.legal_moves()] == ["xa3", "xb3"]
        assert str(state) == "OO./.../XXX x ply:5 reserve:X=0,O=1 turns:4 follow:take"
        back = game.parse_state(str(state))
        assert back == state and back.key() == state.key() == state._full_key()
        after = state.play("xb3")
        assert (after.to_move, after.ply, after.turns, after.follow) == (1, 6, 5, None)
        # The take put no man down: it is followed by nothing, though c1 is in a row.
        assert after.legal_moves() and all(m.tag == "drop" for m in after.legal_moves())
        after.undo()
        assert after == state and after.key() == state.key()
        state.undo()
        assert state.key() == key and state.follow is None and state.turns == 4
        # Without the rule, the turn passes, and a take is never made.
        plain = _row_game(follow=False).using(engine).initial_state().play_all(
            ["X@a1", "O@a3", "X@b1", "O@b3", "X@c1"])
        assert plain.to_move == 1 and plain.turns == 5
        assert all(m.tag == "drop" for m in plain.legal_moves())


def test_a_follow_up_is_given_one_way_and_names_what_is_due():
    # A test or directions, not both nor neither; a follow-up of any move goes along
    # directions (its moves are known without playing them) and has a name.
    with pytest.raises(ValueError, match="one of them"):
        FollowUp(FRIEND, "take", along=("e",))
    with pytest.raises(ValueError, match="one of them"):
        FollowUp(move_type="take")
    with pytest.raises(ValueError, match="needs the move type"):
        FollowUp(FRIEND)
    with pytest.raises(ValueError, match="needs a name"):
        FollowUp(along=("e",))
    assert FollowUp(FRIEND, "take").name == "take"
    assert FollowUp(along=("e",), move_type="forward").name == "forward"
