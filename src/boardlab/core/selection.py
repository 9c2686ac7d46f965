"""Selecting a group of pieces for a group move: Dagaz's ``closure``.

A player moving several pieces at once clicks them one by one. Dagaz (seed 003)
adds a clicked piece to the selection when a legal move uses every selected
piece, and *extends* the selection with the pieces a candidate move forces along:

* :func:`push_closure` (Abalone): a selected piece whose move lands on a cell
  holding one of the mover's own pieces brings that piece in, repeatedly, so a
  line pushed in line is selected whole;
* :func:`line_closure` (Ordo): every own piece on the straight path from a
  selected piece to its target is added, for long pushes of a whole line;
* :func:`no_closure` (Taacoca): the selection never grows; every piece of a
  group is picked explicitly.

:func:`moved_pieces` says which of the mover's pieces a move moves, and
:func:`moves_for_group` lists the legal moves that move exactly a selection.
Games choose their closure by overriding :meth:`Game.closure
<boardlab.core.game.Game.closure>`; states expose their pieces through
:meth:`State.piece_at <boardlab.core.game.State.piece_at>`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from boardlab.core.move import Capture, Move, Shift

if TYPE_CHECKING:
    from boardlab.core.game import State


def _own(state: State, cell: int) -> bool:
    piece = state.piece_at(cell)
    return piece is not None and piece.owner == state.to_move


def moved_pieces(state: State, move: Move) -> frozenset[int]:
    """The cells of the mover's own pieces that ``move`` shifts or removes (GESS
    carries stones off the board: they are part of the group that moved)."""
    return frozenset(a.source if isinstance(a, Shift) else a.cell for a in move.actions
                     if (isinstance(a, Shift) and _own(state, a.source))
                     or (isinstance(a, Capture) and _own(state, a.cell)))


def push_closure(state: State, group: Sequence[int], move: Move) -> list[int]:
    """``group`` extended by the own pieces ``move`` pushes (Dagaz's Abalone closure).

    >>> from boardlab.core.board import Board
    >>> from boardlab.core.move import Piece, Shift, Move
    >>> from tests.conftest import sandbox
    >>> state = sandbox(Board.square(4, 1), [], {"a1": "X", "b1": "X"})
    >>> push = Move("a1-b1", (Shift(0, 1), Shift(1, 2)))
    >>> push_closure(state, [0], push)
    [0, 1]
    """
    selected = list(group)
    i = 0
    while i < len(selected):
        here = selected[i]
        for a in move.actions:
            if isinstance(a, Shift) and a.source == here and a.target not in selected \
                    and _own(state, a.target):
                selected.append(a.target)
        i += 1
    return selected


def line_closure(state: State, group: Sequence[int], move: Move) -> list[int]:
    """``group`` extended by the own pieces on the straight path from each selected
    piece towards its target in ``move`` (Dagaz's Ordo closure, for long pushes)."""
    board = state.game.board
    assert board is not None
    where = {c: i for i, c in enumerate(board.coords)}
    selected = list(group)
    i = 0
    while i < len(selected):
        here = selected[i]
        for a in move.actions:
            if not isinstance(a, Shift) or a.source != here:
                continue
            start, end = board.coords[here], board.coords[a.target]
            step = tuple((e > s) - (e < s) for s, e in zip(start, end, strict=True))
            cell: int | None = here
            while cell is not None and cell != a.target:
                if not _own(state, cell):
                    break
                if cell not in selected:
                    selected.append(cell)
                nxt = tuple(c + d for c, d in zip(board.coords[cell], step, strict=True))
                cell = where.get(nxt)
        i += 1
    return selected


def no_closure(state: State, group: Sequence[int], move: Move) -> list[int]:
    """The selection unchanged (Taacoca: every piece of a group is picked)."""
    return list(group)


def moves_for_group(state: State, group: Iterable[int]) -> list[Move]:
    """The legal moves that move exactly the mover's pieces on ``group``."""
    wanted = frozenset(group)
    return [m for m in state.legal_moves() if moved_pieces(state, m) == wanted]


def moves_using(state: State, group: Iterable[int]) -> list[Move]:
    """The legal moves that move at least the pieces on ``group`` (a click adds a
    piece to the selection when this is not empty)."""
    wanted = frozenset(group)
    return [m for m in state.legal_moves() if wanted <= moved_pieces(state, m)]
