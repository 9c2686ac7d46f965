"""Random playouts of Connect Four on bitboards, compiled by numba.

A position is the two players' bitboards in John Tromp's layout, the one
:mod:`boardlab.games.connect_four` keeps: cell (column ``x``, row ``y``) is bit
``x * (rows + 1) + y``, the extra bit on top of each column always empty so that
shifted copies never wrap into the next column. The lowest empty cell of every
column that is not full is then ``(taken + bottom) & board`` in one addition.
Four in a row wins; a full board is a draw. The boards live in int64, so the
layout must fit in 63 bits (:func:`fits`); the 6x7 board takes 49.
``ConnectFourState.rollout`` calls ``playout``.

>>> counts = playouts(0, 0, 0, 6, 7, 10_000, 1)  # from the empty 6x7 board
>>> [int(c) for c in counts]  # X wins, O wins, draws: moving first helps
[5565, 4414, 21]
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardlab.core.rng import next_below
from boardlab.games.fast import NOBODY

BITS = 63


def fits(rows: int, columns: int) -> bool:
    """Whether a ``rows`` x ``columns`` board fits the kernels' 63-bit boards."""
    return columns * (rows + 1) <= BITS


@njit(cache=True)
def _has_four(discs: int, height: int) -> bool:
    # vertical, horizontal and the two diagonals: neighbours 1, height, height -+ 1 bits apart
    for shift in (1, height, height - 1, height + 1):
        pairs = discs & (discs >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


@njit(cache=True)
def _masks(rows: int, columns: int) -> tuple[int, int, int]:
    bottom = 0
    for x in range(columns):
        bottom |= 1 << (x * (rows + 1))
    board = bottom * ((1 << rows) - 1)
    top = bottom << (rows - 1)
    return bottom, board, top


@njit(cache=True)
def _play(x: int, o: int, to_move: int, rows: int, bottom: int, board: int, top: int,
          state: np.uint64) -> tuple[int, np.uint64]:
    height = rows + 1
    taken = x | o
    free = (taken + bottom) & board
    n = 0
    while free:
        free &= free - 1
        n += 1
    while n:
        k, state = next_below(state, n)
        free = (taken + bottom) & board
        for _ in range(k):
            free &= free - 1
        cell = free & -free
        taken |= cell
        if cell & top:
            n -= 1
        if to_move == 0:
            x |= cell
            if _has_four(x, height):
                return 0, state
        else:
            o |= cell
            if _has_four(o, height):
                return 1, state
        to_move = 1 - to_move
    return NOBODY, state


@njit(cache=True)
def playout(x: int, o: int, to_move: int, rows: int, columns: int, seed: int) -> int:
    """The winner (0 X, 1 O, ``NOBODY`` for a draw) of one uniformly random playout from a
    position that is not over, on a board that :func:`fits`; ``seed``
    (``0 <= seed < 2**63``) determines the game."""
    bottom, board, top = _masks(rows, columns)
    winner, _ = _play(x, o, to_move, rows, bottom, board, top, np.uint64(seed))
    return winner


@njit(cache=True)
def playouts(x: int, o: int, to_move: int, rows: int, columns: int, n: int, seed: int
             ) -> np.ndarray:
    """Counts of X wins, O wins and draws in ``n`` random playouts from a position
    that is not over, as an int64 array of length 3."""
    bottom, board, top = _masks(rows, columns)
    counts = np.zeros(3, dtype=np.int64)
    state = np.uint64(seed)
    for _ in range(n):
        winner, state = _play(x, o, to_move, rows, bottom, board, top, state)
        counts[winner] += 1
    return counts
