"""Group selection (Dagaz's ``closure``) on sandbox positions built with the move language."""

from __future__ import annotations

from boardlab.core.board import Board
from boardlab.core.move import Capture, Move, Shift
from boardlab.core.rules import EMPTY, FRIEND, Add, Cascade, Group, Step, Template, Verify, While
from boardlab.core.selection import (
    line_closure,
    moved_pieces,
    moves_for_group,
    moves_using,
    no_closure,
    push_closure,
)
from tests.conftest import sandbox

LINE = Board.square(6, 1, diagonals=False)


def push_east():
    # An in-line push of a line of own pieces one cell east (the seed's push-1).
    return Template((Verify(FRIEND), While(FRIEND, (Cascade(), Step("e"))),
                     Verify(EMPTY), Add()), name="push")


def test_push_closure_selects_the_pushed_line_from_its_trailing_piece():
    state = sandbox(LINE, [push_east()], {"a1": "X", "b1": "X", "c1": "X", "e1": "O"})
    push = next(m for m in state.legal_moves() if moved_pieces(state, m) == {0, 1, 2})
    assert push_closure(state, [0], push) == [0, 1, 2]
    assert push_closure(state, [1], push) == [1, 2]  # from the middle: the front part
    assert no_closure(state, [0], push) == [0]


def test_line_closure_follows_a_long_push_and_stops_at_foreign_pieces():
    state = sandbox(LINE, [], {"a1": "X", "b1": "X", "c1": "O"})
    # A move taking the piece on a1 three cells east (a long push in one line).
    long_push = Move("a1-d1", (Shift(0, 3),))
    assert line_closure(state, [0], long_push) == [0, 1]
    assert push_closure(state, [0], long_push) == [0]


def test_group_moves_and_moves_using_a_selection():
    board = Board.square(3, 3)
    group = Group((), single=lambda d: (Step(d), Add()), directions=("n",), sizes=(1, 2))
    state = sandbox(board, [group], {"a1": "X", "b1": "X", "c2": "O"})
    pair = moves_for_group(state, [0, 1])
    assert [sorted(moved_pieces(state, m)) for m in pair] == [[0, 1]]
    assert len(moves_using(state, [0])) == 2  # a1 alone, and a1 with b1
    assert moves_for_group(state, [2]) == []  # not the mover's piece


def test_own_pieces_removed_by_a_move_count_as_moved():
    state = sandbox(LINE, [], {"a1": "X", "b1": "X"})
    off_board = Move("a1-b1 off", (Capture(1), Shift(0, 1)))
    assert moved_pieces(state, off_board) == {0, 1}


def test_the_game_hook_defaults_to_the_push_closure():
    state = sandbox(LINE, [push_east()], {"a1": "X", "b1": "X"})
    push = state.legal_moves()[0]
    assert state.game.closure(state, [0], push) == [0, 1]
    assert state.game.group_moves(state, [0, 1]) == [push]
