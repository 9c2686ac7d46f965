"""Random playouts of tic-tac-toe (and its misère form) on bitboards, compiled by numba.

A position is two 9-bit masks, ``x`` and ``o``: bit ``c`` is set when the player
has a mark on cell ``c`` (the numbering of :mod:`boardlab.games.tictactoe`, ``a1`` = 0
to ``c3`` = 8), plus the side to move. The rules are those of that module, whose
line list this one reuses; its ``TicTacToeState.rollout`` calls ``playout``.

>>> x, o = 0b001_100_011, 0b110_011_000  # X a1 b1 c2 a3, O a2 b2 b3 c3: c1 is left
>>> playout(x, o, 0, False, 7)  # X fills c1 and completes the first row
0
>>> playout(x, o, 0, True, 7)  # which loses the misère game
1
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardlab.core.rng import next_below
from boardlab.games.fast import NOBODY
from boardlab.games.tictactoe import LINES

FULL = (1 << 9) - 1
LINE_MASKS = tuple(sum(1 << c for c in line) for line in LINES)
#: ``WINNING[marks]``: whether the 9-bit mask ``marks`` contains a whole line.
WINNING = np.array([any(marks & m == m for m in LINE_MASKS) for marks in range(1 << 9)],
                   dtype=np.bool_)


@njit(cache=True)
def _play(x: int, o: int, to_move: int, misere: bool, state: np.uint64
          ) -> tuple[int, np.uint64]:
    empty = FULL & ~(x | o)
    n = 0
    m = empty
    while m:
        m &= m - 1
        n += 1
    while n:
        k, state = next_below(state, n)
        m = empty
        for _ in range(k):
            m &= m - 1
        cell = m & -m
        empty ^= cell
        n -= 1
        if to_move == 0:
            x |= cell
            if WINNING[x]:
                return (1 if misere else 0), state
        else:
            o |= cell
            if WINNING[o]:
                return (0 if misere else 1), state
        to_move = 1 - to_move
    return NOBODY, state


@njit(cache=True)
def playout(x: int, o: int, to_move: int, misere: bool, seed: int) -> int:
    """The winner (0 X, 1 O, ``NOBODY`` for a draw) of one uniformly random playout from a
    position that is not over; ``seed`` (``0 <= seed < 2**63``) determines the game."""
    winner, _ = _play(x, o, to_move, misere, np.uint64(seed))
    return winner


@njit(cache=True)
def playouts(x: int, o: int, to_move: int, misere: bool, n: int, seed: int) -> np.ndarray:
    """Counts of X wins, O wins and draws in ``n`` random playouts from a position
    that is not over, as an int64 array of length 3."""
    counts = np.zeros(3, dtype=np.int64)
    state = np.uint64(seed)
    for _ in range(n):
        winner, state = _play(x, o, to_move, misere, state)
        counts[winner] += 1
    return counts
