"""Which count vectors tile a rectangle exactly once: the level generator's hot loop.

The generator asks, for every canonical count vector of a rectangle, whether its pieces
tile the rectangle in exactly one way; for the survivors, whether the tiling has a
straight cut, and which shapes could be made rotatable (every other orientation of the
shape gives a vector with no tiling). :func:`classify` answers all of that for a batch of
vectors in one compiled call.

**The search** is the first-empty-cell depth-first search of
:mod:`~boardlab.puzzles.polyomino.solver` (cells along the short side, placements grouped
by anchor, a used-up kind skipped in one jump), with two cheap prunings instead of the
solver's dead-region tests:

* an empty cell whose four neighbours are all filled ends the branch (no shape has one
  cell);
* **a memo of facts shared by every vector and every call**: a state is the occupancy, the
  remaining counts and the rectangle and piece set, and its value is the number of ways
  to complete it, capped at 2. The value does not depend on the vector the search started
  from, so a vector meets states that other vectors have already settled (two vectors
  differ only in pieces that some branch has already placed). Values are stored only
  when they are known: a finished subtree, or at least 2 completions on the way to an
  early stop. The table (:data:`MEMO_BITS` entries, always replace) lives as long as the
  process, so chunks of one rectangle reuse each other's work.

Only the counts are asked for here, never steps, so nothing depends on what the memo held
before (the difficulty is the solver's own step count; see
:mod:`~boardlab.puzzles.polyomino.generator`). ``benchmarks/triplex.py`` compares the
pipeline with a plain depth-first program in C (``benchmarks/triplex_dfs.c``).

Sets of at most :data:`MAX_SHAPES` fixed shapes on rectangles of at most 64 cells; the
generator falls back to the solver for others.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from boardlab import compiled
from boardlab.puzzles.polyomino.shapes import Shape
from boardlab.puzzles.polyomino.solver import RectangleSolver

compiled.watch()

__all__ = ["MAX_SHAPES", "MEMO_BITS", "classify", "clear_memo", "supports", "warm_up"]

#: Shapes a set may have: each remaining count is a 6-bit field of one 64-bit word.
MAX_SHAPES = 10
#: The memo has 2**17 entries (2.5 MB): it stays in cache and holds the working set of
#: a 36-cell rectangle (the generator's benchmark measured 2**16 and 2**20 slower).
MEMO_BITS = 17

_FIELD = 6
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_H1 = np.uint64(0x9E3779B97F4A7C15)
_H2 = np.uint64(0xBF58476D1CE4E5B9)

#: Vector classes returned by :func:`classify`.
NO_TILING, UNIQUE, SEVERAL, CUT = 0, 1, 2, 3


@njit(cache=True, inline="always")
def _slot(occ, packed, mask):
    h = occ * _H1 ^ packed * _H2
    h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(mask))


@njit(cache=True, inline="always")
def _store(slot, occ, packed, value, tag, t_occ, t_cnt, t_val):
    t_occ[slot] = occ
    t_cnt[slot] = packed
    t_val[slot] = (tag << 2) | min(value, 2)


@njit(cache=True)
def _count(counts, packed, limit, sol, occ0, start, split, pmask, pkind, pnext, not_top,
           not_bottom, line, tag, t_occ, t_cnt, t_val, occ_s, ptr_s, stop_s, pid_s, entry_s,
           slot_s, pk_s):
    """Tilings of the counts (at most ``limit``, 1 or 2). With ``sol`` non-empty, the
    first tiling's placements are written there (-1 padded). ``counts`` comes back as it
    went in."""
    want = sol.shape[0] > 0
    mask = t_occ.shape[0] - 1
    found = 0
    if occ0 == _ALL:
        return 1
    d = 0
    occ_s[0] = occ0
    pk_s[0] = packed
    a = trailing_zeros(~occ0)
    ptr_s[0] = start[a]
    stop_s[0] = split[a] if a < 63 and (occ0 >> np.uint64(a + 1)) & _ONE else start[a + 1]
    stopped = False
    while True:
        occ = occ_s[d]
        p = ptr_s[d]
        stop = stop_s[d]
        descended = False
        while p < stop:
            q = p
            k = pkind[q]
            if counts[k] == 0:
                p = pnext[q]
                continue
            p += 1
            m = pmask[q]
            if m & occ:
                continue
            nocc = occ | m
            if nocc == _ALL:
                found += 1
                if found == 1 and want:
                    sol[:d] = pid_s[:d]
                    sol[d] = q
                    sol[d + 1:] = -1
                if found >= limit:
                    stopped = True
                    break
                continue
            empty = ~nocc
            around = (((empty << _ONE) & not_top) | ((empty >> _ONE) & not_bottom)
                      | (empty << line) | (empty >> line))
            if empty & ~around:
                continue
            npk = pk_s[d] - (_ONE << np.uint64(_FIELD * k))
            slot = _slot(nocc, npk, mask)
            if (t_val[slot] >> 2) == tag and t_occ[slot] == nocc and t_cnt[slot] == npk:
                value = t_val[slot] & 3
                if value == 0:
                    continue
                if value >= 2 or found > 0 or not want:
                    found += value
                    if found >= limit:
                        stopped = True
                        break
                    continue
            counts[k] -= 1
            ptr_s[d] = p
            pid_s[d] = q
            d += 1
            occ_s[d] = nocc
            pk_s[d] = npk
            slot_s[d] = slot
            entry_s[d] = found
            a = trailing_zeros(empty)
            ptr_s[d] = start[a]
            stop_s[d] = (split[a] if a < 63 and (nocc >> np.uint64(a + 1)) & _ONE
                         else start[a + 1])
            descended = True
            break
        if stopped:
            # the states on the stack with two completions already have at least two
            for i in range(1, d + 1):
                if found - entry_s[i] >= 2:
                    _store(slot_s[i], occ_s[i], pk_s[i], 2, tag, t_occ, t_cnt, t_val)
            for i in range(d):
                counts[pkind[pid_s[i]]] += 1
            return found
        if descended:
            continue
        if d == 0:
            return found
        _store(slot_s[d], occ_s[d], pk_s[d], found - entry_s[d], tag, t_occ, t_cnt, t_val)
        d -= 1
        counts[pkind[pid_s[d]]] += 1


@njit(cache=True)
def _classify(vectors, occ0, start, split, pmask, pkind, pnext, line, cut_sides, others,
              depth_max, tag, t_occ, t_cnt, t_val):
    n, k = vectors.shape
    classes = np.zeros(n, np.int8)
    first = np.full((n, depth_max), -1, np.int32)
    rotatable = np.zeros(n, np.int64)
    not_top = _ALL
    not_bottom = _ALL
    for b in range(64):
        if b % line == 0:
            not_top &= ~(_ONE << np.uint64(b))
        if b % line == line - 1:
            not_bottom &= ~(_ONE << np.uint64(b))
    lineu = np.uint64(line)
    occ_s = np.empty(depth_max + 1, np.uint64)
    pk_s = np.empty(depth_max + 1, np.uint64)
    ptr_s = np.empty(depth_max + 1, np.int64)
    stop_s = np.empty(depth_max + 1, np.int64)
    pid_s = np.empty(depth_max + 1, np.int64)
    entry_s = np.empty(depth_max + 1, np.int64)
    slot_s = np.empty(depth_max + 1, np.int64)
    no_sol = np.empty(0, np.int32)
    sol = np.empty(depth_max, np.int32)
    for i in range(n):
        counts = vectors[i].copy()
        packed = _ZERO
        for j in range(k):
            packed += np.uint64(counts[j]) << np.uint64(_FIELD * j)
        # counted first without the tiling, so that a subtree the memo knows has one
        # completion is not entered again; only a unique vector is searched once more,
        # for its tiling (the memo then leads straight to it)
        found = _count(counts, packed, 2, no_sol, occ0, start, split, pmask, pkind, pnext,
                       not_top, not_bottom, lineu, tag, t_occ, t_cnt, t_val, occ_s, ptr_s,
                       stop_s, pid_s, entry_s, slot_s, pk_s)
        classes[i] = min(found, 2)
        if found != 1:
            continue
        _count(counts, packed, 2, sol, occ0, start, split, pmask, pkind, pnext, not_top,
               not_bottom, lineu, tag, t_occ, t_cnt, t_val, occ_s, ptr_s, stop_s, pid_s,
               entry_s, slot_s, pk_s)
        first[i] = sol
        # a straight cut: a line (its side's cells in cut_sides) that no piece crosses
        for c in range(cut_sides.shape[0]):
            side = cut_sides[c]
            crossed = False
            for j in range(depth_max):
                if sol[j] < 0:
                    break
                m = pmask[sol[j]]
                if (m & side) and (m & ~side):
                    crossed = True
                    break
            if not crossed:
                classes[i] = CUT
                break
        if classes[i] == CUT:
            continue
        # shapes whose every other orientation gives a vector with no tiling (-1 when an
        # orientation is outside the set: the caller decides those)
        for s in range(k):
            if counts[s] == 0 or others[s, 0] == -2:
                continue
            qualifies = True
            for j in range(others.shape[1]):
                o = others[s, j]
                if o == -2:
                    break
                if o == -1:
                    rotatable[i] = -1
                    break
                counts[s] -= 1
                counts[o] += 1
                alt = packed - (_ONE << np.uint64(_FIELD * s)) + (_ONE << np.uint64(_FIELD * o))
                tilings = _count(counts, alt, 1, no_sol, occ0, start, split, pmask, pkind,
                                 pnext, not_top, not_bottom, lineu, tag, t_occ, t_cnt, t_val,
                                 occ_s, ptr_s, stop_s, pid_s, entry_s, slot_s, pk_s)
                counts[s] += 1
                counts[o] -= 1
                if tilings:
                    qualifies = False
                    break
            if rotatable[i] < 0:
                break
            if qualifies:
                rotatable[i] |= 1 << s
    return classes, first, rotatable


_memo: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
_tags: dict[tuple[int, int, tuple[Shape, ...]], int] = {}


def _table() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    global _memo
    if _memo is None:
        size = 1 << MEMO_BITS
        _memo = (np.zeros(size, np.uint64), np.zeros(size, np.uint64),
                 np.zeros(size, np.int64))
    return _memo


def clear_memo() -> None:
    """Forget every fact (the benchmark measures each run from an empty memo; results never
    depend on it)."""
    global _memo
    _memo = None


def supports(width: int, height: int, shapes: Sequence[Shape]) -> bool:
    """Whether :func:`classify` handles this rectangle and set."""
    return len(shapes) <= MAX_SHAPES and width * height <= 64 and width >= height


def _cut_sides(width: int, height: int) -> np.ndarray:
    sides = []
    for x in range(1, width):  # the cells left of a vertical line
        sides.append((1 << (x * height)) - 1)
    for y in range(1, height):  # the cells above a horizontal line
        column = (1 << y) - 1
        sides.append(sum(column << (x * height) for x in range(width)))
    return np.array(sides, np.uint64)


def _others(shapes: Sequence[Shape]) -> np.ndarray:
    index = {s: i for i, s in enumerate(shapes)}
    table = np.full((len(shapes), 8), -2, np.int64)
    for i, shape in enumerate(shapes):
        for j, o in enumerate(shape.orientations()[1:]):
            table[i, j] = index.get(o, -1)
    return table


def classify(solver: RectangleSolver, vectors: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each count vector of ``solver``'s rectangle: its class (:data:`NO_TILING`,
    :data:`UNIQUE`, :data:`SEVERAL` or :data:`CUT`, a unique tiling with a straight cut),
    the first tiling as placement ids (see :meth:`RectangleSolver.placement`; filled for
    UNIQUE and CUT), and for UNIQUE a bit mask of the shapes that may be made rotatable
    (-1 when some orientation is outside the set). The vectors' areas must be the
    rectangle's (:meth:`RectangleSolver.solve_counts` checks them)."""
    width, height = solver.region.width, solver.region.height
    if not supports(width, height, solver.shapes):
        raise ValueError(f"classify handles at most {MAX_SHAPES} shapes on a rectangle of "
                         f"at most 64 cells with width >= height")
    board = solver._board
    key = (width, height, solver.shapes)
    tag = _tags.setdefault(key, len(_tags) + 1)
    t_occ, t_cnt, t_val = _table()
    vectors = np.ascontiguousarray(vectors, dtype=np.int64)
    return _classify(vectors, board.occ0[0], board.start, board.split, board.pmask1,
                     board.place_kind, board.pnext, board.line, _cut_sides(width, height),
                     _others(solver.shapes), solver.max_pieces, tag, t_occ, t_cnt, t_val)


@cache  # once per process
def warm_up() -> None:
    """Compile the kernels (or load them from numba's cache) on a tiny rectangle, before a
    run hands work to other processes (see :func:`.solver.warm_up`)."""
    domino = Shape.parse("##")
    classify(RectangleSolver(2, 2, domino.orientations()), np.array([[2, 0]], np.int64))
