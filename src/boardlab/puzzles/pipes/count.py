"""Exact number of Plumber solutions, counted without enumerating them.

Rules: :doc:`/pipes` (a grid of straight ``I``, elbow ``L`` and empty ``.``
cells; water enters through the tap, must leave through the drain, and follows one
self-avoiding path of cells; a straight passes water to the opposite side, an elbow turns it).

Method: a frontier ("plug", broken-profile) dynamic program over the cells in row-major
order, along the shorter side of the grid (the grid is transposed when it has more columns
than rows, which keeps straights straight and elbows elbows). Between two cells the frontier
is ``width + 1`` edges: the down edges of the cells already swept in the current row, the edge
between the last swept cell and the next one, and the down edges of the previous row still
ahead. A state records, per frontier edge, whether the pipe crosses it and how it connects:

* ``0`` no pipe;
* ``1``/``2`` the two ends of a pipe piece with both ends on the frontier, written as
  matching brackets (pieces never cross, so the brackets nest);
* ``3`` an end whose piece leads to the tap or to the drain (the tap and the drain are
  extra pipe ends on the border sides given; such pieces reach the outer border, so a ``3``
  is never inside a bracket pair).

Each cell takes the two plugs entering it (from the left and from above) and either leaves
the cell unused or lays one pipe piece through it with its two ends on opposite sides (a
straight) or on adjacent sides (an elbow). Joining the two ends of one bracket pair would
close a loop and is never allowed; joining the tap piece to the drain piece completes the
path, which counts only if no other piece is open (every remaining cell is then unused).

Exact integers: every cell has at most two ways to continue a state (only an unused-or-start
choice at an elbow with no entering plug branches), so every count in the DP is at most
``2 ** (number of elbows)``. The numba kernel adds counts exactly as little-endian numbers
of ``limbs`` 62-bit words, with carry; a carry out of the top word is detected. The sweep
first runs with one word (the usual case, half the memory traffic of a wider table) and,
if any count overflowed, again with ``elbows // 62 + 1`` words, enough for the bound.
The result is rebuilt as a Python ``int``. The DP only ever adds counts, so no modular
arithmetic or Chinese remaindering is needed.

Speed: the states of the next cell go into an open-addressing hash table sized to the
current states (a random access per key dominates the time once the table leaves the
cache); a 20x20 grid with half elbows carries up to about 1.4 million states across one
cell. ``benchmarks/pipes_count.py`` times it.

>>> count_solutions(["III"], tap=(1, 1, "left"), drain=(1, 3, "right"))
1
>>> count_solutions(["LLLL", "LLIL", "ILLL", "LLLL"])
2
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit

from boardlab import compiled
from boardlab.errors import PuzzleError

compiled.watch()

# Bit of each side in the per-cell mask of external ends (tap and drain).
_SIDE_BIT = {"top": 1, "left": 2, "right": 4, "bottom": 8}
# Transposing the grid swaps rows and columns, hence these sides.
_TRANSPOSED_SIDE = {"top": "left", "left": "top", "right": "bottom", "bottom": "right"}
_KIND_CODE = {".": 0, "I": 1, "L": 2}
LIMB_BITS = 62

__all__ = ["count_level", "count_solutions"]


def count_solutions(
    kinds: Sequence[str],
    tap: tuple[int, int, str] = (1, 1, "top"),
    drain: tuple[int, int, str] | None = None,
) -> int:
    """Number of solutions of a grid given as row strings over ``"IL."``.

    ``tap`` and ``drain`` are ``(row, col, side)``, 1-based, on a border side of the grid;
    ``drain`` defaults to the bottom side of the bottom-right cell.

    Through four elbows the water turns four times and leaves sideways, not downwards:

    >>> count_solutions(["LL", "LL"])
    0
    >>> count_solutions(["LL", "LL"], drain=(2, 2, "right"))
    1
    """
    rows = len(kinds)
    cols = len(kinds[0]) if rows else 0
    if rows == 0 or cols == 0:
        raise PuzzleError("empty grid")
    for r, line in enumerate(kinds, 1):
        if len(line) != cols:
            raise PuzzleError(f"row {r} has {len(line)} cells, expected {cols}")
        for c, kind in enumerate(line, 1):
            if kind not in _KIND_CODE:
                raise PuzzleError(f"cell {r}-{c}: unknown segment {kind!r}")
    if drain is None:
        drain = (rows, cols, "bottom")
    ends = [_check_end(tap, rows, cols, "tap"), _check_end(drain, rows, cols, "drain")]
    if ends[0] == ends[1]:
        return 0
    grid = [list(line) for line in kinds]
    if cols > rows:
        grid = [list(column) for column in zip(*grid, strict=True)]
        ends = [(c, r, _TRANSPOSED_SIDE[side]) for r, c, side in ends]
        rows, cols = cols, rows
    kind_codes = np.array([[_KIND_CODE[k] for k in line] for line in grid], np.int8)
    external = np.zeros((rows, cols), np.int8)
    for r, c, side in ends:
        external[r - 1, c - 1] |= _SIDE_BIT[side]
    # First with one limb (counts below 2**62, the usual case, at half the memory
    # traffic); a carry out of the top limb is detected and the sweep is redone with
    # enough limbs for the proven bound 2**elbows.
    total = _sweep(kind_codes, external, 1)
    if total is None:
        elbows = int((kind_codes == 2).sum())
        total = _sweep(kind_codes, external, elbows // LIMB_BITS + 1)
    return sum(int(limb) << (LIMB_BITS * i) for i, limb in enumerate(total))


def count_level(level: Any) -> int:
    """Number of solutions of a level with ``rows``, ``cols``, ``cells``, ``tap``, ``drain``.

    ``cells`` is a tuple of rows of cells whose ``kind`` is ``"I"``, ``"L"`` or ``None``
    (no segment); ``tap`` and ``drain`` are ``(row, col, side)``, 1-based.
    """
    kinds = ["".join(cell.kind or "." for cell in row) for row in level.cells]
    if len(kinds) != level.rows or any(len(line) != level.cols for line in kinds):
        raise PuzzleError(f"level cells do not form a {level.rows}x{level.cols} grid")
    return count_solutions(kinds, tuple(level.tap), tuple(level.drain))


def _sweep(kind_codes: np.ndarray, external: np.ndarray, limbs: int) -> list[int] | None:
    """Run the DP cell by cell; the total as limbs, or None if a count overflowed them.

    The buffers are numpy arrays (numpy asks the kernel for huge pages on large ones, which
    matters for the randomly accessed table) grown here before a cell could fill them.
    """
    rows, cols = kind_codes.shape
    states = np.zeros(1024, np.int64)
    counts = np.zeros((1024, limbs + 1), np.int64)
    counts[0, 1] = 1
    n = 1
    total = np.zeros((1, limbs + 1), np.int64)
    table = np.zeros((1024, limbs + 1), np.int64)
    table[:, 0] = -1
    used = np.empty(1024, np.int64)
    for r in range(rows):
        for c in range(cols):
            if 2 * n + 2 > states.shape[0]:
                states = np.resize(states, 4 * n + 4)
                counts = np.resize(counts, (4 * n + 4, limbs + 1))
            # The table in use is a prefix of the buffer sized to the states at hand (a
            # larger one costs a cache miss per key); when it gets too full for fast
            # probing the cell is redone with a prefix twice as large.
            bits = max(10, (n + n // 4 + 2).bit_length())
            total_before = total.copy()
            while True:
                if table.shape[0] < 1 << bits:
                    table = np.zeros((1 << bits, limbs + 1), np.int64)
                    table[:, 0] = -1
                    used = np.empty(1 << bits, np.int64)
                header = np.array([(1 << bits) - 1, 64 - bits, 0], np.int64)
                m = _sweep_cell(int(kind_codes[r, c]), int(external[r, c]), r, c, rows, cols,
                                states, counts, n, table, used, header, total, limbs)
                if m != _TABLE_FULL:
                    break
                table[used[: header[2]]] = 0
                table[used[: header[2]], 0] = -1
                header[2] = 0
                total[:] = total_before
                bits += 1
            if m == _OVERFLOW:
                return None
            n = int(m)
        # Next row: its first cell has no left edge, and the last right edge is empty.
        states[:n] <<= 2
    return [int(limb) for limb in total[0, 1:]]


def _check_end(end: tuple[int, int, str], rows: int, cols: int, name: str) -> tuple:
    row, col, side = end
    if not (1 <= row <= rows and 1 <= col <= cols):
        raise PuzzleError(f"{name} {row}-{col}: outside the {rows}x{cols} grid")
    on_border = {"top": row == 1, "bottom": row == rows, "left": col == 1, "right": col == cols}
    if side not in on_border:
        raise PuzzleError(f"{name} {row}-{col}: unknown side {side!r}")
    if not on_border[side]:
        raise PuzzleError(f"{name} {row}-{col}: the {side} side is not on the grid border")
    return (row, col, side)


# ---------------------------------------------------------------------------------------
# The compiled frontier DP. A state packs frontier slot i into bits 2i, 2i+1. Before cell
# (r, c) slot c is the edge entering it from the left and slot c + 1 the edge entering it
# from above; afterwards slot c is its down edge and slot c + 1 its right edge.

_OVERFLOW = -1
_TABLE_FULL = -2
_NONE = -1  # no successor state
_DONE = -2  # the path is complete
_HASH_MULTIPLIER = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit number
_LIMB_BASE = 1 << LIMB_BITS


@njit(cache=True, inline="always")
def _slot(state, i):
    return (state >> (2 * i)) & 3


@njit(cache=True, inline="always")
def _set_slot(state, i, label):
    return (state & ~(np.int64(3) << (2 * i))) | (np.int64(label) << (2 * i))


@njit(cache=True, inline="always")
def _partner(state, i, label):
    """Slot of the bracket matching the one at slot ``i`` (3s are outside every pair)."""
    depth = 0
    step = 1 if label == 1 else -1
    j = i
    while True:
        v = (state >> (2 * j)) & 3
        if v == 1:
            depth += step
        elif v == 2:
            depth -= step
        if depth == 0:
            return j
        j += step


@njit(cache=True, inline="always")
def _join(state, base, pos_a, a, pos_b, b):
    """State after joining end ``a`` (slot ``pos_a``) to end ``b`` (slot ``pos_b``).

    ``base`` is ``state`` with the cell's slots cleared; ``pos`` is -1 for a tap or drain
    end. Returns ``_NONE`` when the join closes a loop, ``_DONE`` when it completes the
    path.
    """
    if a == 3 and b == 3:
        return _DONE
    if a == 3:
        return _set_slot(base, _partner(state, pos_b, b), 3)
    if b == 3:
        return _set_slot(base, _partner(state, pos_a, a), 3)
    if a == 1 and b == 1:
        # The inner pair's closing bracket becomes the opening of the merged piece.
        inner = pos_a if _partner(state, pos_a, 1) < _partner(state, pos_b, 1) else pos_b
        return _set_slot(base, _partner(state, inner, 1), 1)
    if a == 2 and b == 2:
        inner = pos_a if _partner(state, pos_a, 2) > _partner(state, pos_b, 2) else pos_b
        return _set_slot(base, _partner(state, inner, 2), 2)
    if _partner(state, pos_a, a) == pos_b:
        return _NONE
    return base


@njit(cache=True, inline="always")
def _finish(t, base):
    """A join that completes the path counts only if no other piece is left open."""
    if t == _DONE and base != 0:
        return _NONE
    return t


@njit(cache=True)
def _successors(s, kind, ext, c, can_right, can_down):
    """The (at most two) states after cell ``c`` for state ``s``: keys, _NONE or _DONE."""
    ext_right = (ext & 4) != 0
    ext_down = (ext & 8) != 0
    n_ext_out = int(ext_right) + int(ext_down)
    left = 3 if ext & 2 else _slot(s, c)
    up = 3 if ext & 1 else _slot(s, c + 1)
    pos_left = -1 if ext & 2 else c
    pos_up = -1 if ext & 1 else c + 1
    base = _set_slot(_set_slot(s, c, 0), c + 1, 0)
    n_in = int(left != 0) + int(up != 0)
    if kind == 0:
        return (s if n_in == 0 and n_ext_out == 0 else _NONE), _NONE
    if n_in == 2:
        # Left and top are adjacent sides: only an elbow joins them.
        if n_ext_out == 0 and kind == 2:
            return _finish(_join(s, base, pos_left, left, pos_up, up), base), _NONE
        return _NONE, _NONE
    if n_in == 1:
        from_left = left != 0
        label = left if from_left else up
        pos = pos_left if from_left else pos_up
        # Leaving to the right is straight from the left, an elbow from above.
        right_kind = 1 if from_left else 2
        down_kind = 2 if from_left else 1
        if n_ext_out == 1:
            if (ext_right and kind == right_kind) or (ext_down and kind == down_kind):
                return _finish(_join(s, base, pos, label, -1, 3), base), _NONE
            return _NONE, _NONE
        if n_ext_out == 2:
            return _NONE, _NONE
        first = _set_slot(base, c + 1, label) if can_right and kind == right_kind else _NONE
        second = _set_slot(base, c, label) if can_down and kind == down_kind else _NONE
        return first, second
    # No pipe enters: the cell is unused, or a piece starts here and leaves through its
    # right and bottom sides (an elbow).
    if n_ext_out == 0:
        if kind == 2 and can_right and can_down:
            return s, _set_slot(_set_slot(base, c, 1), c + 1, 2)
        return s, _NONE
    if kind != 2:
        return _NONE, _NONE
    if n_ext_out == 2:
        return (_DONE if base == 0 else _NONE), _NONE
    if ext_right and can_down:
        return _set_slot(base, c, 3), _NONE
    if ext_down and can_right:
        return _set_slot(base, c + 1, 3), _NONE
    return _NONE, _NONE


@njit(cache=True)
def _sweep_cell(kind, ext, r, c, rows, cols, states, counts, n, table, used, header, total,
                limbs):
    """Take the ``n`` states across cell (r, c) into ``states`` and ``counts``.

    Returns the new number of states, or ``_OVERFLOW`` or ``_TABLE_FULL`` (then the
    table holds partial sums and the states are untouched). The table is open addressing
    over rows [key, limbs...]; ``used`` lists the rows taken and ``header`` holds the
    mask, the hash shift and the number of rows taken. Counts are added limb by limb with
    carry; a carry out of the top limb is an overflow.
    """
    overflow = False
    mask = header[0]
    shift = header[1]
    taken = header[2]
    full = (7 * (mask + 1)) // 8
    can_right = c < cols - 1
    can_down = r < rows - 1
    for i in range(n):
        if taken > full:
            header[2] = taken
            return _TABLE_FULL
        first, second = _successors(states[i], kind, ext, c, can_right, can_down)
        for q in range(2):
            key = first if q == 0 else second
            if key == _NONE:
                continue
            if key == _DONE:
                carry = 0
                for k in range(1, limbs + 1):
                    t = total[0, k] + counts[i, k] + carry
                    carry = t >= _LIMB_BASE
                    total[0, k] = t - _LIMB_BASE if carry else t
                overflow |= carry
                continue
            # The top bits of a multiplicative hash depend on every bit of the key.
            h = ((key * _HASH_MULTIPLIER) >> shift) & mask
            while True:
                k = table[h, 0]
                if k == key:
                    break
                if k == -1:
                    table[h, 0] = key
                    used[taken] = h
                    taken += 1
                    break
                h = (h + 1) & mask
            carry = 0
            for k in range(1, limbs + 1):
                t = table[h, k] + counts[i, k] + carry
                carry = t >= _LIMB_BASE
                table[h, k] = t - _LIMB_BASE if carry else t
            overflow |= carry
    for j in range(taken):
        h = used[j]
        for k in range(limbs + 1):
            counts[j, k] = table[h, k]
            table[h, k] = 0
        states[j] = counts[j, 0]
        table[h, 0] = -1
    header[2] = 0
    return _OVERFLOW if overflow else taken
