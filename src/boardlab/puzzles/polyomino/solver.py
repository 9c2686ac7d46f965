"""Exact solver for polyomino packing: count and enumerate the tilings of a region.

A problem is a :class:`Region` and a multiset of pieces given as :class:`PieceKind`
values (the orientations a piece of that kind may take, and how many such pieces there
are). A *tiling* places every piece once so that the pieces cover every cell of the
region exactly once. Pieces of one kind are interchangeable: tilings that differ only by
swapping two identical pieces are the same tiling (:doc:`/triplex`, rule 1),
and the search never tells them apart because it places "a piece of kind k", never
"piece number i". Whole-solution reflections and rotations are different tilings; count
them once with :func:`distinct_up_to_symmetry`.

The search (exact cover specialised to polyominoes, compiled by numba):

* **Cells along the short side.** Cells are numbered line by line along the region's
  short side (column by column when width >= height: bit ``x * height + y``), over the
  bounding box; cells outside the region start filled. The search always covers the
  *first empty cell* in that order, so the frontier between filled and empty cells stays
  one short line long; scanning along the long side is an order of magnitude slower
  (``benchmarks/polyomino_solver.py`` measures it; ``scan="long"`` selects it).
* **Placements by anchor.** A placement is a kind, an orientation and a translation
  with every cell in the region. It covers the first empty cell only if that cell is
  the placement's own first cell (its *anchor*), so placements are precomputed and
  grouped by anchor: first those that leave the next cell free, then those that cover
  it (skipped at once when that cell is filled), each group in order of kind then
  orientation (a used-up kind is skipped in one jump).
* **Bitboards.** The occupancy is one ``uint64`` when the bounding box has at most 64
  cells, an array of words otherwise (the same search, ``_search_words``).
* **Dead regions.** After a placement the empty cells are tested; if the test fails
  the placement is undone. When the kinds left have at most
  :data:`COVER_MAX_ORIENTATIONS` orientations in all (Triplex: 8 fixed shapes), the
  *coverage test*: every empty cell lies in some placement of a remaining kind on
  empty cells, and each remaining kind has at least as many such placements, and as
  many coverable cells, as its pieces need (this catches every pocket smaller than the
  smallest piece). Otherwise (and always on several words) the *pocket test*: every
  connected pocket of empty cells touching the placed piece with fewer than 64 cells
  must have a size that is a sum of sizes of the remaining pieces.
* **Transposition table.** A state is the occupancy and the remaining counts (packed
  exactly, one bit field per kind). The table (fixed size, always-replace, its row
  prefetched while the dead-region test runs) remembers states with no completion;
  :func:`count_tilings` also remembers the number of completions of every finished
  state, which turns counting into dynamic programming (12988816 domino tilings of
  8x8 in a few milliseconds).

**Steps.** :attr:`SolveResult.steps` counts *placements made*: every time the search
puts a piece on the board (the placement anchored at the first empty cell lies on empty
cells and a piece of its kind remains), whether the result then completes a tiling, is
found dead by the dead-region test or the transposition table, or is explored further.
Candidates that overlap filled cells or whose kind is used up are not steps. Steps are
deterministic: they depend only on the region, the kinds (and their order; kinds with no
pieces change nothing), ``limit`` and ``scan``. They are the difficulty measure of the
Triplex rules, and :class:`RectangleSolver` reports the same number as :func:`solve` for
the same instance. (:func:`count_tilings` takes fewer steps and does not report them.)

>>> from boardlab.puzzles.polyomino.shapes import Shape
>>> domino = PieceKind.free(Shape.parse("##"), count=4)
>>> solve(Region.rectangle(4, 2), [domino]).count  # Fibonacci: 1, 2, 3, 5
5
>>> count_tilings(Region.rectangle(8, 8), [PieceKind.free(Shape.parse("##"), 32)])
12988816
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations_with_replacement, product

import numpy as np
from llvmlite import ir as llvm_ir
from numba import njit, types
from numba.core import cgutils
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from boardlab import compiled
from boardlab.errors import PuzzleError
from boardlab.puzzles.polyomino.region import Region, transform_cell
from boardlab.puzzles.polyomino.shapes import Cell, Shape, shape_order

compiled.watch()

__all__ = [
    "PieceKind", "Placement", "Tiling", "SolveResult", "RectangleSolver",
    "solve", "count_tilings", "distinct_up_to_symmetry", "warm_up",
]

NO_LIMIT = 1 << 62

# ---------------------------------------------------------------------------------------
# Values


@dataclass(frozen=True)
class PieceKind:
    """Pieces of one kind: the orientations one may take, and how many there are.

    A fixed piece has one orientation, a free one all of ``shape.orientations()``.

    >>> PieceKind.free(Shape.parse("##\\n#."), 2).orientations[1]
    Shape(cells=((0, 0), (1, 0), (1, 1)))
    """

    orientations: tuple[Shape, ...]
    count: int = 1

    def __post_init__(self) -> None:
        orientations = tuple(self.orientations)
        if not orientations or not all(isinstance(s, Shape) for s in orientations):
            raise PuzzleError(f"a piece kind needs at least one Shape, not {orientations!r}")
        if len({s.size for s in orientations}) != 1:
            raise PuzzleError("the orientations of a piece kind must have the same size")
        if len(set(orientations)) != len(orientations):
            raise PuzzleError("the orientations of a piece kind must be distinct")
        try:
            count = operator.index(self.count)  # numpy integers too
        except TypeError:
            count = -1
        if count < 0 or isinstance(self.count, bool):
            raise PuzzleError(f"a piece count must be a non-negative integer, not {self.count!r}")
        object.__setattr__(self, "orientations", orientations)
        object.__setattr__(self, "count", count)

    @staticmethod
    def fixed(shape: Shape, count: int = 1) -> PieceKind:
        """``count`` pieces that never turn."""
        return PieceKind((shape,), count)

    @staticmethod
    def free(shape: Shape, count: int = 1) -> PieceKind:
        """``count`` pieces that may rotate and reflect."""
        return PieceKind(shape.orientations(), count)

    @property
    def size(self) -> int:
        """Cells of one piece."""
        return self.orientations[0].size


@dataclass(frozen=True)
class Placement:
    """A piece on the board: its kind index, orientation index and cells (sorted)."""

    kind: int
    orientation: int
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Tiling:
    """A solution: placements in the order the search made them (anchors in scan order).

    >>> from boardlab.puzzles.polyomino.shapes import Shape
    >>> t = solve(Region.rectangle(3, 2), [PieceKind.fixed(Shape.parse("###"), 2)])
    >>> print(t.solutions[0])
    AAA
    BBB
    """

    placements: tuple[Placement, ...]

    def grid(self) -> tuple[tuple[int, ...], ...]:
        """Rows (y down) over the bounding box of the covered cells: the index in
        :attr:`placements` of the piece covering each cell, -1 where none does."""
        cells = {c: i for i, p in enumerate(self.placements) for c in p.cells}
        width = max(x for x, _ in cells) + 1
        height = max(y for _, y in cells) + 1
        return tuple(tuple(cells.get((x, y), -1) for x in range(width)) for y in range(height))

    def __str__(self) -> str:
        letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
        return "\n".join("".join("." if i < 0 else letters[i % len(letters)] for i in row)
                         for row in self.grid())

    def key(self) -> frozenset[tuple[int, frozenset[Cell]]]:
        """What identifies the tiling: the (kind, cells) of its pieces, in any order."""
        return frozenset((p.kind, frozenset(p.cells)) for p in self.placements)

    def transformed(self, k: int, width: int, height: int) -> Tiling:
        """The image under symmetry ``k`` of the ``width`` x ``height`` box (kinds kept,
        orientation indices set to -1: the images of fixed pieces are other shapes)."""
        return Tiling(tuple(
            Placement(p.kind, -1, tuple(sorted((transform_cell(c, k, width, height)
                                                for c in p.cells), key=lambda c: (c[1], c[0]))))
            for p in self.placements))


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` found.

    ``count``: tilings found (at most ``limit``); ``complete``: the search finished, so
    ``count`` is the exact number of tilings; ``solutions``: the tilings found when
    collecting (in search order); ``steps``: placements made (see the module docstring).
    """

    count: int
    complete: bool
    solutions: tuple[Tiling, ...]
    steps: int


def distinct_up_to_symmetry(solutions: Iterable[Tiling], region: Region) -> list[Tiling]:
    """One tiling (the first met) per orbit of ``solutions`` under the symmetries of
    ``region`` (:meth:`Region.symmetries`); the region's raw tiling count divided by
    symmetry when ``solutions`` are all its tilings and the pieces are free.

    >>> from boardlab.puzzles.polyomino.shapes import PIECE_SETS
    >>> pentominoes = [PieceKind.free(s) for s in PIECE_SETS["pentominoes"][0]]
    >>> r = Region.rectangle(20, 3)
    >>> tilings = solve(r, pentominoes).solutions
    >>> len(tilings), len(distinct_up_to_symmetry(tilings, r))
    (8, 2)
    """
    width, height = region.width, region.height
    symmetries = region.symmetries()
    seen: set[frozenset] = set()
    out = []
    for tiling in solutions:
        images = [tiling.transformed(k, width, height).key() for k in symmetries]
        if not any(image in seen for image in images):
            out.append(tiling)
        seen.add(tiling.key())
    return out


# ---------------------------------------------------------------------------------------
# The compiled search

ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
ONE = np.uint64(1)
ZERO = np.uint64(0)
_SEED = np.uint64(0x9E3779B97F4A7C15)
_MIX = np.uint64(0xBF58476D1CE4E5B9)
#: Transposition table of a whole batch (:meth:`RectangleSolver.solve_counts`), 2**20
#: entries (32 MB).
SHARED_TABLE_BITS = 20
#: Pockets this large or larger are assumed fillable (the size test is a 64-bit set).
POCKET_CAP = 64
#: The coverage test runs when the remaining kinds have at most this many orientations in
#: all (Triplex: 8); with more (the 12 free pentominoes: 63) it costs more than it saves.
COVER_MAX_ORIENTATIONS = 16


@intrinsic
def _ctpop(typingctx, x):
    # LLVM's population count: one instruction where the CPU has it
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctpop", [args[0].type])
        return builder.call(fn, args)

    return sig, codegen


@njit(cache=True, inline="always")
def _popcount(x: np.uint64) -> int:
    return np.int64(_ctpop(x))


@njit(cache=True, inline="always")
def _mix(h: np.uint64, word: np.uint64) -> np.uint64:
    h = (h ^ word) * _MIX
    return h ^ (h >> np.uint64(31))


@njit(cache=True, inline="always")
def _reachable_sums(counts: np.ndarray, sizes: np.ndarray) -> np.uint64:
    # bit s set iff s (< 64) is a sum of sizes of remaining pieces
    reach = ONE
    for k in range(counts.shape[0]):
        c = counts[k]
        s = sizes[k]
        if c > 0 and s < 64:
            shift = np.uint64(s)
            for _ in range(min(c, 63 // s)):
                reach |= reach << shift
    return reach


@njit(cache=True, inline="always")
def _pockets_ok(occ: np.uint64, seeds: np.uint64, line: np.uint64, not_top: np.uint64,
                not_bottom: np.uint64, counts: np.ndarray, sizes: np.ndarray) -> bool:
    empty = ~occ
    seeds &= empty
    reach = ZERO
    while seeds:
        f = seeds & (~seeds + ONE)
        while True:
            g = (f | ((f << ONE) & not_top) | ((f >> ONE) & not_bottom) | (f << line)
                 | (f >> line)) & empty
            if g == f:
                break
            f = g
        if f == empty:
            return True
        size = _popcount(f)
        if size < POCKET_CAP:
            if reach == ZERO:
                reach = _reachable_sums(counts, sizes)
            if not (reach >> np.uint64(size)) & ONE:
                return False
        seeds &= ~f
    return True


@njit(cache=True, inline="always")
def _all_coverable(empty: np.uint64, counts: np.ndarray, sizes: np.ndarray,
                   ko_kind: np.ndarray, ko_anchor: np.ndarray, ko_off: np.ndarray) -> bool:
    # every empty cell lies in some placement on empty cells of a kind that remains, and
    # each remaining kind has room for its pieces: as many anchors and cells/size as pieces
    cover = ZERO
    j = 0
    n = ko_kind.shape[0]
    while j < n:
        k = ko_kind[j]
        if counts[k] == 0:
            j += 1
            continue
        fit_k = ZERO
        cover_k = ZERO
        while j < n and ko_kind[j] == k:
            fit = ko_anchor[j]
            for c in range(ko_off.shape[1]):
                off = ko_off[j, c]
                if off < 0:
                    break
                fit &= empty >> np.uint64(off)
            if fit:
                fit_k |= fit
                for c in range(ko_off.shape[1]):
                    off = ko_off[j, c]
                    if off < 0:
                        break
                    cover_k |= fit << np.uint64(off)
            j += 1
        if _popcount(cover_k) < counts[k] * sizes[k] or _popcount(fit_k) < counts[k]:
            return False
        cover |= cover_k
    return (empty & ~cover) == ZERO


@njit(cache=True, inline="always")
def _record(sols: np.ndarray, nsols: int, pid_s: np.ndarray, d: int, q: int, grow: bool,
            depth_max: int) -> tuple[np.ndarray, int]:
    """Store the tiling on the stack (placements ``pid_s[:d]`` then ``q``) as row
    ``nsols`` of ``sols``, doubling the array when it is full and may ``grow``."""
    if nsols == sols.shape[0] and grow:
        bigger = np.empty((2 * sols.shape[0], depth_max), np.int32)
        bigger[:nsols] = sols[:nsols]
        sols = bigger
    if nsols < sols.shape[0]:
        sols[nsols, :d] = pid_s[:d]
        sols[nsols, d] = q
        sols[nsols, d + 1:] = -1
        nsols += 1
    return sols, nsols


@njit(cache=True, inline="always")
def _tt_slot(occ: np.ndarray, ck: np.ndarray, mask: int) -> int:
    h = _SEED
    for w in range(occ.shape[0]):
        h = _mix(h, occ[w])
    for w in range(ck.shape[0]):
        h = _mix(h, ck[w])
    return np.int64(h & np.uint64(mask))


@intrinsic
def _prefetch(typingctx, table, slot):
    # ask for the table row early: the dead-region test then runs while it loads
    sig = types.void(table, slot)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, value=args[0])
        zero = context.get_constant(types.intp, 0)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1], zero],
                                       wraparound=False)
        i32 = llvm_ir.IntType(32)
        fnty = llvm_ir.FunctionType(llvm_ir.VoidType(), [ptr.type, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [ptr, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


@njit(cache=True, inline="always")
def _tt_match(slot: int, occ: np.ndarray, ck: np.ndarray, table: np.ndarray,
              gen: int) -> bool:
    # a row of the table: generation, value, occupancy words, packed count words
    if table[slot, 0] != np.uint64(gen):
        return False
    nw = occ.shape[0]
    for w in range(nw):
        if table[slot, 2 + w] != occ[w]:
            return False
    for w in range(ck.shape[0]):  # noqa: SIM110 (numba compiles no generator in all())
        if table[slot, 2 + nw + w] != ck[w]:
            return False
    return True


@njit(cache=True, inline="always")
def _tt_store(slot: int, occ: np.ndarray, ck: np.ndarray, value: int, table: np.ndarray,
              gen: int) -> None:
    nw = occ.shape[0]
    table[slot, 0] = np.uint64(gen)
    table[slot, 1] = np.uint64(value)
    for w in range(nw):
        table[slot, 2 + w] = occ[w]
    for w in range(ck.shape[0]):
        table[slot, 2 + nw + w] = ck[w]


@njit(cache=True, inline="always")
def _stop_word(occ: np.uint64, a: int, start: np.ndarray, split: np.ndarray) -> int:
    # the end of the placements anchored at a that may fit: without those covering the
    # next bit when it is filled
    if a < 63 and (occ >> np.uint64(a + 1)) & ONE:
        return split[a]
    return start[a + 1]


@njit(cache=True)
def _search_word(occ0, start, split, pmask, pnext, pnb, pkind, sizes, counts, fword, fshift, ck,
                 line, ko_kind, ko_anchor, ko_off, limit, memo_counts, collect, grow, sols,
                 table, gen):
    """The search on a one-word board (bounding box of at most 64 cells).

    Placements ``start[a]:start[a + 1]`` are anchored at bit ``a``, those from
    ``split[a]`` on cover bit ``a + 1``; ``pnext[q]`` is the first placement after ``q``
    of another kind (or group). ``counts`` and ``ck`` (the packed
    counts) are modified: pass copies. ``table`` is the transposition table, its
    rows of generation ``gen`` valid. Returns ``(count, steps, complete,
    sols, rows of sols filled)``; ``sols`` is reallocated when full and ``grow`` is set.
    """
    depth_max = sols.shape[1]
    occ_s = np.empty(depth_max + 1, np.uint64)
    stop_s = np.empty(depth_max + 1, np.int64)  # where the placements to try end
    ptr_s = np.empty(depth_max + 1, np.int64)
    pid_s = np.empty(depth_max + 1, np.int64)
    entry_s = np.empty(depth_max + 1, np.int64)
    slot_s = np.empty(depth_max + 1, np.int64)
    table_mask = table.shape[0] - 1
    key = np.empty(1, np.uint64)
    lineu = np.uint64(line)
    not_top = ALL
    not_bottom = ALL
    for b in range(64):
        if b % line == 0:
            not_top &= ~(ONE << np.uint64(b))
        if b % line == line - 1:
            not_bottom &= ~(ONE << np.uint64(b))
    active = 0
    for j in range(ko_kind.shape[0]):
        if counts[ko_kind[j]] > 0:
            active += 1
    use_cover = active <= COVER_MAX_ORIENTATIONS
    if use_cover and active < ko_kind.shape[0]:
        # the coverage test reads only the kinds with pieces at the start (a kind never
        # gains pieces): a batch over many kinds, most of them empty, skips the rest
        keep = np.empty(active, np.int64)
        i = 0
        for j in range(ko_kind.shape[0]):
            if counts[ko_kind[j]] > 0:
                keep[i] = j
                i += 1
        ko_kind = ko_kind[keep]
        ko_anchor = ko_anchor[keep]
        ko_off = ko_off[keep]
    count = 0
    steps = 0
    nsols = 0
    complete = True
    if occ0 == ALL:
        return 1, 0, True, sols, 0
    d = 0
    occ_s[0] = occ0
    a = trailing_zeros(~occ0)
    stop_s[0] = _stop_word(occ0, a, start, split)
    ptr_s[0] = start[a]
    entry_s[0] = 0
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
            if pmask[q] & occ:
                continue
            steps += 1
            nocc = occ | pmask[q]
            if nocc == ALL:
                count += 1
                if collect:
                    sols, nsols = _record(sols, nsols, pid_s, d, q, grow, depth_max)
                if count >= limit:
                    complete = False
                    break
                continue
            counts[k] -= 1
            ck[fword[k]] -= ONE << fshift[k]
            key[0] = nocc
            slot = _tt_slot(key, ck, table_mask)
            _prefetch(table, slot)
            if use_cover:
                ok = _all_coverable(~nocc, counts, sizes, ko_kind, ko_anchor, ko_off)
            else:
                ok = _pockets_ok(nocc, pnb[q], lineu, not_top, not_bottom, counts, sizes)
            if ok and _tt_match(slot, key, ck, table, gen):
                ok = False
                count += np.int64(table[slot, 1])
                if count >= limit:
                    count = limit
                    complete = False
                    break
            if not ok:
                counts[k] += 1
                ck[fword[k]] += ONE << fshift[k]
                continue
            ptr_s[d] = p
            pid_s[d] = q
            d += 1
            slot_s[d] = slot
            occ_s[d] = nocc
            a = trailing_zeros(~nocc)
            stop_s[d] = _stop_word(nocc, a, start, split)
            ptr_s[d] = start[a]
            entry_s[d] = count
            descended = True
            break
        if not complete:
            break
        if descended:
            continue
        if d == 0:
            break
        if memo_counts or count == entry_s[d]:
            key[0] = occ_s[d]
            _tt_store(slot_s[d], key, ck, count - entry_s[d], table, gen)
        d -= 1
        k = pkind[pid_s[d]]
        counts[k] += 1
        ck[fword[k]] += ONE << fshift[k]
    return count, steps, complete, sols, nsols


@njit(cache=True, inline="always")
def _first_empty(occ: np.ndarray) -> int:
    for w in range(occ.shape[0]):
        if occ[w] != ALL:
            return w * 64 + np.int64(trailing_zeros(~occ[w]))
    return -1


@njit(cache=True, inline="always")
def _is_empty(occ: np.ndarray, i: int) -> bool:
    return not (occ[i >> 6] >> np.uint64(i & 63)) & ONE


@njit(cache=True, inline="always")
def _stop_words(occ: np.ndarray, a: int, start: np.ndarray, split: np.ndarray,
                n_bits: int) -> int:
    if a + 1 < n_bits and not _is_empty(occ, a + 1):
        return split[a]
    return start[a + 1]


@njit(cache=True, inline="always")
def _pockets_ok_words(occ, seeds, line, n_bits, counts, sizes, mark, stamp, queue) -> bool:
    # the same test as _pockets_ok, by a breadth-first search stopped at POCKET_CAP cells
    reach = ZERO
    for j in range(seeds.shape[0]):
        c = seeds[j]
        if c < 0:
            break
        if not _is_empty(occ, c) or mark[c] == stamp:
            continue
        mark[c] = stamp
        queue[0] = c
        head = 0
        tail = 1
        big = False
        while head < tail and not big:
            i = queue[head]
            head += 1
            for n in range(4):
                if n == 0:
                    nb = i - 1 if i % line != 0 else -1
                elif n == 1:
                    nb = i + 1 if i % line != line - 1 else -1
                elif n == 2:
                    nb = i - line
                else:
                    nb = i + line if i + line < n_bits else -1
                if nb >= 0 and mark[nb] != stamp and _is_empty(occ, nb):
                    mark[nb] = stamp
                    queue[tail] = nb
                    tail += 1
                    if tail >= POCKET_CAP:
                        big = True
                        break
        if not big:
            if reach == ZERO:
                reach = _reachable_sums(counts, sizes)
            if not (reach >> np.uint64(tail)) & ONE:
                # the pocket might be the only one left, whose size is always a sum
                total = 0
                for k in range(counts.shape[0]):
                    total += counts[k] * sizes[k]
                if total != tail:
                    return False
    return True


@njit(cache=True)
def _search_words(occ0, start, split, pmask, pnext, pw0, pw1, pnbc, pkind, sizes, counts, fword,
                  fshift, ck, line, n_bits, limit, memo_counts, collect, grow, sols, table,
                  gen):
    """:func:`_search_word` on a board of several words: ``pmask`` is ``(placements,
    words)``, ``pw0``/``pw1`` the first and last word a placement touches, ``pnbc`` its
    neighbour cells padded with -1. The dead-region test is always the pocket test."""
    depth_max = sols.shape[1]
    nw = occ0.shape[0]
    occ_s = np.empty((depth_max + 1, nw), np.uint64)
    rem_s = np.empty(depth_max + 1, np.int64)
    slot_s = np.empty(depth_max + 1, np.int64)
    stop_s = np.empty(depth_max + 1, np.int64)
    ptr_s = np.empty(depth_max + 1, np.int64)
    pid_s = np.empty(depth_max + 1, np.int64)
    entry_s = np.empty(depth_max + 1, np.int64)
    mark = np.zeros(n_bits, np.int64)
    queue = np.empty(POCKET_CAP + 4, np.int64)
    stamp = 0
    count = 0
    steps = 0
    nsols = 0
    complete = True
    rem = 0
    for k in range(counts.shape[0]):
        rem += counts[k] * sizes[k]
    a = _first_empty(occ0)
    if a < 0:
        return 1, 0, True, sols, 0
    d = 0
    occ_s[0] = occ0
    rem_s[0] = rem
    stop_s[0] = _stop_words(occ0, a, start, split, n_bits)
    ptr_s[0] = start[a]
    entry_s[0] = 0
    while True:
        p = ptr_s[d]
        stop = stop_s[d]
        descended = False
        while p < stop:
            q = p
            p += 1
            k = pkind[q]
            if counts[k] == 0:
                p = pnext[q]
                continue
            fits = True
            for w in range(pw0[q], pw1[q] + 1):
                if pmask[q, w] & occ_s[d, w]:
                    fits = False
                    break
            if not fits:
                continue
            steps += 1
            if rem_s[d] == sizes[k]:
                count += 1
                if collect:
                    sols, nsols = _record(sols, nsols, pid_s, d, q, grow, depth_max)
                if count >= limit:
                    complete = False
                    break
                continue
            nocc = occ_s[d + 1]
            nocc[:] = occ_s[d]
            for w in range(pw0[q], pw1[q] + 1):
                nocc[w] |= pmask[q, w]
            counts[k] -= 1
            ck[fword[k]] -= ONE << fshift[k]
            stamp += 1
            slot = _tt_slot(nocc, ck, table.shape[0] - 1)
            _prefetch(table, slot)
            ok = _pockets_ok_words(nocc, pnbc[q], line, n_bits, counts, sizes, mark, stamp,
                                   queue)
            if ok and _tt_match(slot, nocc, ck, table, gen):
                ok = False
                count += np.int64(table[slot, 1])
                if count >= limit:
                    count = limit
                    complete = False
                    break
            if not ok:
                counts[k] += 1
                ck[fword[k]] += ONE << fshift[k]
                continue
            ptr_s[d] = p
            pid_s[d] = q
            rem_s[d + 1] = rem_s[d] - sizes[k]
            d += 1
            slot_s[d] = slot
            a = _first_empty(nocc)
            stop_s[d] = _stop_words(nocc, a, start, split, n_bits)
            ptr_s[d] = start[a]
            entry_s[d] = count
            descended = True
            break
        if not complete:
            break
        if descended:
            continue
        if d == 0:
            break
        if memo_counts or count == entry_s[d]:
            _tt_store(slot_s[d], occ_s[d], ck, count - entry_s[d], table, gen)
        d -= 1
        k = pkind[pid_s[d]]
        counts[k] += 1
        ck[fword[k]] += ONE << fshift[k]
    return count, steps, complete, sols, nsols


@njit(cache=True)
def _count_fields(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Bit fields packing ``counts`` and every smaller vector exactly, none across a word
    (a count of 0 takes no bits): (word of each field, its shift, number of words)."""
    fword = np.zeros(counts.shape[0], np.int64)
    fshift = np.zeros(counts.shape[0], np.uint64)
    word = 0
    used = 0
    for k in range(counts.shape[0]):
        bits = 0
        while counts[k] >> bits:
            bits += 1
        if used + bits > 64:
            word += 1
            used = 0
        fword[k] = word
        fshift[k] = used
        used += bits
    return fword, fshift, word + 1


@njit(cache=True)
def _pack_counts(counts: np.ndarray, fword: np.ndarray, fshift: np.ndarray,
                 n_words: int) -> np.ndarray:
    ck = np.zeros(n_words, np.uint64)
    for k in range(counts.shape[0]):
        ck[fword[k]] += np.uint64(counts[k]) << fshift[k]
    return ck


@njit(cache=True)
def _batch_word(vectors, occ0, start, split, pmask, pnext, pnb, pkind, sizes, line, ko_kind,
                ko_anchor, ko_off, limit, depth_max, table, gen0, shared):
    # table: rows valid only for their generation; this call uses gen0 + 1 (shared) or
    # gen0 + 1 + i (row i), so rows of earlier calls are never read
    n = vectors.shape[0]
    counts_out = np.zeros(n, np.int64)
    steps_out = np.zeros(n, np.int64)
    first = np.full((n, depth_max), -1, np.int32)
    # a shared table needs one packing for all rows: the one of their maximum
    most = vectors[0].copy()
    for i in range(n):
        for k in range(most.shape[0]):
            most[k] = max(most[k], vectors[i, k])
    fword, fshift, n_ck = _count_fields(most)
    sols = np.empty((1, depth_max), np.int32)
    for i in range(n):
        counts = vectors[i].copy()
        if not shared:
            fword, fshift, n_ck = _count_fields(counts)
        ck = _pack_counts(counts, fword, fshift, n_ck)
        count, steps, _, sols, nsols = _search_word(
            occ0, start, split, pmask, pnext, pnb, pkind, sizes, counts, fword, fshift, ck, line,
            ko_kind, ko_anchor, ko_off, limit, False, True, False, sols, table,
            gen0 + 1 if shared else gen0 + 1 + i)
        counts_out[i] = count
        steps_out[i] = steps
        if nsols:
            first[i] = sols[0]
    return counts_out, steps_out, first


# ---------------------------------------------------------------------------------------
# Turning a problem into arrays


class _Board:
    """Cell numbering and placements of some kinds in a region, as the kernels want them.

    Bits number the bounding box line by line along the scan lines; placement ids are
    sorted by (anchor bit, covers the next bit, kind, orientation): ``start[a]:start[a +
    1]`` are the placements anchored at bit ``a``, those from ``split[a]`` on cover bit
    ``a + 1``.
    """

    def __init__(self, region: Region, kinds: Sequence[tuple[Shape, ...]], scan: str = "short",
                 min_words: int = 1):
        if scan not in ("short", "long"):
            raise PuzzleError(f"scan must be 'short' or 'long', not {scan!r}")
        width, height = region.width, region.height
        self.columns = (width >= height) == (scan == "short")
        self.line = height if self.columns else width
        self.n_bits = width * height
        self.words = max(min_words, (self.n_bits + 63) // 64)
        cells = set(region.cells)
        self.cell_of_bit = [self._cell(b) for b in range(self.n_bits)]
        inside = sum(1 << self.bit(c) for c in cells)
        self.occ0 = _words(~inside & ((1 << (64 * self.words)) - 1), self.words)
        bit_of = {c: self.bit(c) for c in cells}
        rows: list[tuple[int, bool, int, int, int]] = []  # anchor, covers next, k, o, mask
        for k, orientations in enumerate(kinds):
            for o, shape in enumerate(orientations):
                first = min(shape.cells, key=lambda c: c if self.columns else (c[1], c[0]))
                relative = [(x - first[0], y - first[1]) for x, y in shape.cells]
                for (ax, ay), a in bit_of.items():
                    mask = 0
                    for dx, dy in relative:
                        b = bit_of.get((ax + dx, ay + dy))
                        if b is None:
                            break
                        mask |= 1 << b
                    else:
                        rows.append((a, bool(mask >> (a + 1) & 1), k, o, mask))
        rows.sort()
        n = len(rows)
        self.place_kind = np.array([r[2] for r in rows], np.int64)
        self.place_orientation = [r[3] for r in rows]
        masks = [r[4] for r in rows]
        start = [0] * (self.n_bits + 1)
        split = [0] * self.n_bits
        for r in rows:
            start[r[0] + 1] += 1
            split[r[0]] += not r[1]
        self.start = np.cumsum(np.array(start, np.int64))
        self.split = self.start[:-1] + np.array(split, np.int64)
        # the first placement after each one that has another kind or another group
        pnext = list(range(1, n + 1))
        for i in range(n - 2, -1, -1):
            if rows[i][:3] == rows[i + 1][:3]:
                pnext[i] = pnext[i + 1]
        self.pnext = np.array(pnext, np.int64)
        around = [0] * self.n_bits
        for b in range(self.n_bits):
            for nb in self._neighbours(b):
                around[b] |= 1 << nb
        neighbours = []
        for m in masks:
            nb = 0
            rest = m
            while rest:
                low = rest & -rest
                nb |= around[low.bit_length() - 1]
                rest ^= low
            neighbours.append(nb & ~m)
        self.pmask = _words_array(masks, self.words)
        self.pnb = _words_array(neighbours, self.words)
        self.pw0 = np.array([(m & -m).bit_length() - 1 >> 6 for m in masks], np.int64)
        self.pw1 = np.array([m.bit_length() - 1 >> 6 for m in masks], np.int64)
        orientations = [(k, o, shape) for k, kind in enumerate(kinds)
                        for o, shape in enumerate(kind)]
        self.ko_kind = np.array([k for k, _, _ in orientations], np.int64)
        index = {(k, o): j for j, (k, o, _) in enumerate(orientations)}
        anchors = [0] * len(orientations)
        self.ko_off = np.full((len(orientations), max((s.size for *_, s in orientations),
                                                      default=0) + 1), -1, np.int64)
        for r in rows:
            j = index[r[2], r[3]]
            if not anchors[j]:
                self.ko_off[j, :bin(r[4]).count("1")] = _bits(r[4] >> r[0])
            anchors[j] |= 1 << r[0]
        self.ko_anchor = _words_array(anchors, self.words)
        if self.words == 1:
            self.pmask1 = self.pmask[:, 0].copy()
            self.pnb1 = self.pnb[:, 0].copy()
            self.ko_anchor1 = self.ko_anchor[:, 0].copy()
        else:
            lists = [_bits(m) for m in neighbours]
            self.pnbc = np.full((n, max(map(len, lists), default=0) + 1), -1, np.int64)
            for i, bits in enumerate(lists):
                self.pnbc[i, :len(bits)] = bits
        self._masks = masks
        self._placements: dict[int, Placement] = {}

    def bit(self, cell: Cell) -> int:
        x, y = cell
        return x * self.line + y if self.columns else y * self.line + x

    def _cell(self, b: int) -> Cell:
        i, j = divmod(b, self.line)
        return (i, j) if self.columns else (j, i)

    def _neighbours(self, b: int) -> list[int]:
        out = []
        if b % self.line:
            out.append(b - 1)
        if b % self.line != self.line - 1:
            out.append(b + 1)
        if b >= self.line:
            out.append(b - self.line)
        if b + self.line < self.n_bits:
            out.append(b + self.line)
        return out

    def placement(self, pid: int) -> Placement:
        known = self._placements.get(pid)
        if known is None:
            known = self._placements[pid] = self._placement(pid)
        return known

    def _placement(self, pid: int) -> Placement:
        return Placement(int(self.place_kind[pid]), self.place_orientation[pid],
                         tuple(sorted((self.cell_of_bit[b] for b in _bits(self._masks[pid])),
                                      key=lambda c: (c[1], c[0]))))


def _bits(mask: int) -> list[int]:
    """The set bits of a Python int, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_WORD = (1 << 64) - 1


def _words(mask: int, words: int) -> np.ndarray:
    return np.array([(mask >> (64 * w)) & _WORD for w in range(words)], np.uint64)


def _words_array(masks: Sequence[int], words: int) -> np.ndarray:
    if words == 1:
        return np.array(masks, np.uint64).reshape(len(masks), 1)
    return np.array([[(m >> (64 * w)) & _WORD for w in range(words)] for m in masks],
                    np.uint64).reshape(len(masks), words)


@lru_cache(maxsize=256)
def _board(region: Region, kinds: tuple[tuple[Shape, ...], ...], scan: str,
           min_words: int) -> _Board:
    # the generator asks many questions about the same rectangle and shapes
    return _Board(region, kinds, scan, min_words)


def _check(region: Region, kinds: Sequence[PieceKind]) -> None:
    if not isinstance(region, Region):
        raise PuzzleError(f"expected a Region, not {type(region).__name__}")
    for i, kind in enumerate(kinds):
        if not isinstance(kind, PieceKind):
            raise PuzzleError(f"piece kind {i}: expected a PieceKind, not {kind!r}")
    area = sum(kind.size * kind.count for kind in kinds)
    if area != region.size:
        raise PuzzleError(f"the pieces cover {area} cells but the region has {region.size}")


def _table_bits(n_cells: int) -> int:
    return min(20, max(12, n_cells // 3 + 4))


#: Most fixed count vectors one problem with overlapping kinds may split into.
MAX_VARIANTS = 100_000


@dataclass(frozen=True)
class _Split:
    """Kinds made disjoint: the board's kinds, and the count vectors to search one after
    the other, each with the (kind, orientation) of the caller's kinds that the pieces of
    every board kind stand for, in turn (one witness of how the caller's pieces take
    those shapes)."""

    board_kinds: tuple[tuple[Shape, ...], ...]
    vectors: tuple[tuple[int, ...], ...]
    witnesses: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]


def _split(kinds: Sequence[PieceKind], each_orientation: bool = False) -> _Split:
    """Make the kinds disjoint, so that every tiling is found once.

    Two kinds that share an orientation (a rotatable piece and a fixed piece of one of
    its orientations) would let the search place "a piece of kind A" and "a piece of kind
    B" on the same two spots in either order: the same tiling twice. A tiling is a set of
    placed shapes, and its shapes say which orientation every free piece took, so each
    group of overlapping kinds becomes fixed kinds, one per shape, searched once for
    every distinct multiset of shapes the group's pieces can form. Kinds that overlap no
    other stay as they are (their pieces' orientation is the placement's), unless
    ``each_orientation`` asks for every free kind to be split so.
    """
    n = len(kinds)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[Shape, int] = {}
    for i, kind in enumerate(kinds):
        for shape in kind.orientations:
            if shape in owner:
                parent[root(i)] = root(owner[shape])
            else:
                owner[shape] = i
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    board: list[tuple[Shape, ...]] = []
    # per group: its board columns, and each multiset of shapes its pieces can form with
    # one witness: for each column, the (kind, orientation) of its pieces in turn
    Witness = tuple[tuple[tuple[int, int], ...], ...]
    parts: list[tuple[list[int], dict[tuple[int, ...], Witness]]] = []
    expanded = False
    for members in groups.values():
        i = members[0]
        if len(members) == 1 and not (each_orientation and len(kinds[i].orientations) > 1):
            parts.append(([len(board)], {(kinds[i].count,): (((i, -1),) * kinds[i].count,)}))
            board.append(kinds[i].orientations)
            continue
        expanded = True
        shapes = sorted({s for i in members for s in kinds[i].orientations}, key=shape_order)
        column = {s: j for j, s in enumerate(shapes)}
        made: dict[tuple[int, ...], Witness] = {(0,) * len(shapes): ((),) * len(shapes)}
        for i in members:
            kind = kinds[i]
            grown: dict[tuple[int, ...], Witness] = {}
            for pick in combinations_with_replacement(range(len(kind.orientations)), kind.count):
                for vector, witness in made.items():
                    v, w = list(vector), [list(x) for x in witness]
                    for o in pick:
                        v[column[kind.orientations[o]]] += 1
                        w[column[kind.orientations[o]]].append((i, o))
                    grown.setdefault(tuple(v), tuple(map(tuple, w)))
                if len(grown) > MAX_VARIANTS:
                    raise PuzzleError(f"the free pieces can take more than {MAX_VARIANTS} "
                                      "combinations of orientations")
            made = grown
        parts.append((list(range(len(board), len(board) + len(shapes))), made))
        board += [(s,) for s in shapes]
    total = 1
    for _, made in parts:
        total *= len(made)
    if total > MAX_VARIANTS:
        raise PuzzleError(f"the free pieces can take more than {MAX_VARIANTS} combinations "
                          "of orientations")
    order = list(range(len(board)))
    if expanded and all(len(k) == 1 for k in board):
        # kinds merged and every kind fixed: the set order, as the level generator's
        # batches of fixed kinds take them, so that both count the same steps
        order.sort(key=lambda j: shape_order(board[j][0]))
    vectors, witnesses = [], []
    for pick in product(*(sorted(made.items()) for _, made in parts)):
        v = [0] * len(board)
        w: list[tuple[tuple[int, int], ...]] = [()] * len(board)
        for (columns, _), (counts, witness) in zip(parts, pick, strict=True):
            for c, x, pieces in zip(columns, counts, witness, strict=True):
                v[c], w[c] = x, pieces
        vectors.append(tuple(v[j] for j in order))
        witnesses.append(tuple(w[j] for j in order))
    return _Split(tuple(board[j] for j in order), tuple(vectors), tuple(witnesses))


def _run(region: Region, kinds: Sequence[PieceKind], limit: int | None, collect: bool,
         memo_counts: bool, scan: str, min_words: int = 1, each_orientation: bool = False):
    _check(region, kinds)
    limit = NO_LIMIT if limit is None else limit
    if limit < 1:
        raise PuzzleError(f"limit must be at least 1, not {limit}")
    split = _split(kinds, each_orientation)
    board = _board(region, split.board_kinds, scan, min_words)
    sizes = np.array([k[0].size for k in split.board_kinds], np.int64)
    # One table for every multiset, each searching its own generation of rows (as
    # RectangleSolver's batches do): the same steps as a fresh table each, without
    # zeroing megabytes per multiset. Wide enough for the widest packed counts.
    most = np.array(split.vectors, np.int64).max(axis=0)
    table = np.zeros((1 << _table_bits(region.size), 2 + board.words + _count_fields(most)[2]),
                     np.uint64)
    count = steps = 0
    complete = True
    tilings: list[Tiling] = []
    for gen, (vector, witness) in enumerate(zip(split.vectors, split.witnesses, strict=True),
                                            start=1):
        left = limit - count
        if left == 0:  # the limit is reached and another multiset is still to search
            complete = False
            break
        counts = np.array(vector, np.int64)
        fword, fshift, n_ck = _count_fields(counts)
        ck = _pack_counts(counts, fword, fshift, n_ck)
        depth = max(1, int(counts.sum()))
        sols = np.empty((16 if collect else 1, depth), np.int32)
        if board.words == 1:
            found, work, done, sols, nsols = _search_word(
                board.occ0[0], board.start, board.split, board.pmask1, board.pnext,
                board.pnb1, board.place_kind, sizes, counts, fword, fshift, ck, board.line,
                board.ko_kind, board.ko_anchor1, board.ko_off, left,
                memo_counts, collect, collect, sols, table, gen)
        else:
            found, work, done, sols, nsols = _search_words(
                board.occ0, board.start, board.split, board.pmask, board.pnext, board.pw0,
                board.pw1, board.pnbc, board.place_kind, sizes, counts, fword, fshift, ck,
                board.line, board.n_bits, left, memo_counts, collect, collect, sols, table,
                gen)
        count += int(found)
        steps += int(work)
        if collect:
            tilings += [_tiling(board, row, witness) for row in sols[:nsols]]
        if not done:
            complete = False
            break
    return SolveResult(count, complete, tuple(tilings), steps)


def _tiling(board: _Board, row: np.ndarray, witness) -> Tiling:
    """A found tiling in the caller's kinds: the pieces of each board kind take the
    (kind, orientation) of the witness in turn (-1: the placement's own orientation)."""
    used = [0] * len(witness)
    placements = []
    for pid in row:
        if pid < 0:
            continue
        p = board.placement(int(pid))
        kind, orientation = witness[p.kind][used[p.kind]]
        used[p.kind] += 1
        placements.append(Placement(kind, p.orientation if orientation < 0 else orientation,
                                    p.cells))
    return Tiling(tuple(placements))


def solve(region: Region, kinds: Sequence[PieceKind], limit: int | None = None,
          collect: bool = True, *, scan: str = "short",
          each_orientation: bool = False) -> SolveResult:
    """Search the tilings of ``region`` by the pieces of ``kinds``, stopping after
    ``limit`` tilings when given; collect them when ``collect``.

    A tiling is a set of placed shapes: when a free kind can take the shape of another
    kind's piece, the two pieces trading places is the same tiling, found once (the
    kinds are searched as fixed shapes, once per multiset of orientations the free pieces
    can take). ``each_orientation`` searches every free kind so, as the seed's solver
    tries each orientation of a Triplex level's rotatable piece in turn: the same
    tilings, and the steps that are the levels' difficulty.

    :class:`PuzzleError` if the pieces' total area is not the region's.
    ``scan="long"`` numbers cells along the long side instead (slower; for comparison).

    >>> from boardlab.puzzles.polyomino.shapes import Shape
    >>> ell = Shape.parse("#.\\n##")
    >>> r = solve(Region.rectangle(3, 2), [PieceKind.free(ell, 2)])
    >>> r.count, r.complete, r.steps
    (2, True, 5)
    >>> solve(Region.rectangle(3, 2), [PieceKind.free(ell, 2)], limit=1).complete
    False
    >>> domino = Shape.parse("##")  # a fixed domino and a free one: one tiling of 2x2
    >>> solve(Region.rectangle(2, 2), [PieceKind.fixed(domino), PieceKind.free(domino)]).count
    1
    """
    return _run(region, kinds, limit, collect, False, scan, each_orientation=each_orientation)


def count_tilings(region: Region, kinds: Sequence[PieceKind], limit: int | None = None,
                  *, scan: str = "short") -> int:
    """The number of tilings (at most ``limit``); remembers the completion count of every
    state, so it can count far more tilings than :func:`solve` could list."""
    return _run(region, kinds, limit, False, True, scan).count


_tables: dict[tuple[int, int], np.ndarray] = {}
_generation = 0


def _batch_table(bits: int, columns: int, rows: int) -> tuple[np.ndarray, int]:
    """A transposition table of ``2**bits`` rows and the generation the next batch of
    ``rows`` vectors starts after. Tables of up to 2**16 rows are kept for the process
    (zeroing a fresh one cost more than a small batch's searches); larger ones are made
    for the call, so a long-lived process does not hold them."""
    global _generation
    if bits > 16:
        return np.zeros((1 << bits, columns), np.uint64), 0
    table = _tables.get((bits, columns))
    if table is None:
        table = _tables[bits, columns] = np.zeros((1 << bits, columns), np.uint64)
    gen0 = _generation
    _generation += rows + 1
    return table, gen0


class RectangleSolver:
    """Many instances on one rectangle, solved in one compiled call.

    ``shapes`` are the kinds: a :class:`Shape` is a fixed kind, a tuple of shapes a kind
    whose pieces may take any of those orientations.

    The level generator asks, for thousands of piece-count vectors, how many tilings
    each has (up to 2). Placements are computed once here; :meth:`solve_counts` runs every
    vector inside one numba call, each with the search of :func:`solve` on
    ``[PieceKind.fixed(shape, n) for shape, n in zip(shapes, vector)]`` (same counts,
    same steps, same first tiling). All 33822 Triplex vectors of 6x6 take about 2 s
    (0.8 s with ``shared_table``); ``benchmarks/polyomino_solver.py`` measures it.

    >>> from boardlab.puzzles.polyomino.shapes import PIECE_SETS
    >>> shapes = PIECE_SETS["triplex"][0]
    >>> rs = RectangleSolver(4, 2, shapes)
    >>> counts, steps, first = rs.solve_counts(np.array([[4, 0, 0, 0, 0, 0, 0, 0],
    ...                                                  [2, 2, 0, 0, 0, 0, 0, 0]]))
    >>> counts.tolist()  # 4 horizontal dominoes; 2 horizontal and 2 vertical (3 ways)
    [1, 2]
    >>> [rs.placement(int(p)) for p in first[0] if p >= 0][:2]
    [(0, ((0, 0), (1, 0))), (0, ((0, 1), (1, 1)))]
    """

    def __init__(self, width: int, height: int, shapes: Sequence[Shape | tuple[Shape, ...]],
                 *, scan: str = "short"):
        self.region = Region.rectangle(width, height)
        self.shapes = tuple(shapes)
        kinds = []
        for s in self.shapes:
            orientations = (s,) if isinstance(s, Shape) else s
            # PieceKind checks the orientations: Shapes of one size, distinct
            kinds.append(PieceKind(orientations).orientations)
        self._board = _Board(self.region, kinds, scan)
        if self._board.words != 1:
            raise PuzzleError(f"RectangleSolver handles at most 64 cells, not {width}x{height}")
        self.sizes = np.array([k[0].size for k in kinds], np.int64)
        self.max_pieces = self.region.size // int(self.sizes.min())

    def solve_counts(self, count_vectors: np.ndarray, limit: int = 2, *,
                     shared_table: bool = False
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For each row of counts (one column per shape): the number of tilings (at most
        ``limit``), the steps, and the first tiling found as placement ids (-1 padded,
        all -1 if none; see :meth:`placement`). :class:`PuzzleError` if a row's area is
        not the rectangle's.

        Each row gets a fresh transposition table, so its steps are those of
        :func:`solve`. With ``shared_table`` one larger table serves the whole batch (a
        state without completion is dead whatever vector it came from): counts and
        first solutions are unchanged and the batch runs 2-3 times faster, but a row's
        steps then depend on the rows before it -- recompute the difficulty of the rows
        you keep without it.
        """
        vectors = np.ascontiguousarray(count_vectors, dtype=np.int64)
        if vectors.ndim != 2 or vectors.shape[1] != len(self.shapes):
            raise PuzzleError(f"expected count vectors of shape (n, {len(self.shapes)}), "
                              f"not {vectors.shape}")
        if len(vectors) and vectors.min() < 0:
            raise PuzzleError("piece counts must be non-negative")
        areas = vectors @ self.sizes
        bad = np.flatnonzero(areas != self.region.size)
        if len(bad):
            raise PuzzleError(f"count vector {int(bad[0])} covers {int(areas[bad[0]])} cells, "
                              f"the rectangle has {self.region.size}")
        if limit < 1:
            raise PuzzleError(f"limit must be at least 1, not {limit}")
        if not len(vectors):
            return (np.zeros(0, np.int64), np.zeros(0, np.int64),
                    np.zeros((0, self.max_pieces), np.int32))
        b = self._board
        bits = SHARED_TABLE_BITS if shared_table else _table_bits(self.region.size)
        most = vectors.max(axis=0)
        table, gen0 = _batch_table(bits, 3 + int(_count_fields(most)[2]), len(vectors))
        return _batch_word(vectors, b.occ0[0], b.start, b.split, b.pmask1, b.pnext, b.pnb1,
                           b.place_kind, self.sizes, b.line, b.ko_kind, b.ko_anchor1,
                           b.ko_off, limit, self.max_pieces, table, gen0, shared_table)

    def placement(self, pid: int) -> tuple[int, tuple[Cell, ...]]:
        """The shape index and cells of placement id ``pid``."""
        p = self._board.placement(pid)
        return p.kind, p.cells


@cache  # once per process
def warm_up() -> None:
    """Compile every kernel of the solver (or load it from numba's cache) on tiny inputs.

    A run that hands the work to other processes calls it first, so the kernels compile
    once, here (announced by :mod:`boardlab.compiled`), instead of in every worker at
    the same time.
    """
    domino = Shape.parse("##")
    solve(Region.rectangle(2, 2), [PieceKind.free(domino, 2)])
    # More than 64 cells: the multi-word search.
    solve(Region.rectangle(11, 6), [PieceKind.free(domino, 33)], limit=1)
    count_tilings(Region.rectangle(2, 2), [PieceKind.free(domino, 2)])
    batch = RectangleSolver(2, 2, domino.orientations())
    for shared in (False, True):
        batch.solve_counts(np.array([[2, 0], [0, 2]], np.int64), shared_table=shared)
