"""The seed's first level generator: branch and bound over the states of the inner edges.

Source: the Triplex article, restated on :doc:`/triplex` (its sections "Вычислительная
сложность алгоритма", "Сокращение перебора, фильтрация", "Отчёт генератора"); the rules of
a level are that page's. This is the slow method the article started with, kept to
reproduce its filter report; :mod:`~boardlab.puzzles.polyomino.generator`'s vector method
finds the same levels far faster.

**Edge states.** Each of the ``2WH - W - H`` inner edges of a ``W x H`` rectangle is
closed (0: its two cells may lie in different pieces) or open (1: one piece). Cells are
ordered row by row, the top-left cell the oldest; each cell owns its bottom edge (older)
and its right edge (younger), so an edge state is a binary number whose most significant
bit is the top-left cell's bottom edge. The pieces of a state are the connected
components of its open edges (the seed's "colouring").

**The loop** is the seed's: start from 0 (every edge closed), pass the state through the
filters in order; the first filter that rejects it names the youngest cell ``k`` its
failure depends on, and the loop goes on by adding 1 at the youngest edge of cell ``k``
(every state that agrees with this one on the edges of cells ``0..k`` fails the same way,
so all of them are skipped). A state that passes, or fails a filter naming no cell, is
followed by the next number. "Checked" is the number of states the loop examines.

**The filters**, in the seed's order, and the cell each names:

1. ``2x2Duplicates``: four cells of a 2x2 block lie in one piece but an edge between two
   of them is closed (the same partition as with the edge open). Cell: the least ``k``
   such that the edges owned by cells ``0..k`` alone already connect the block and close
   one of its edges.
2. ``1x1Cell``: a piece of one cell. Cell: the youngest owner of that cell's edges (the
   cell itself, but for the bottom-right one, which owns none), least over such cells.
3. ``StraightCut``: a full horizontal or vertical line crossing only closed edges. Cell:
   the youngest owner of the line's edges, least over such lines.
4. ``Shapes3``: fewer than 3 pieces. Cell: the least ``k`` such that the edges of cells
   ``0..k``, with every other edge closed, already leave fewer than 3 pieces.
5. ``Shape23`` (for a set of all fixed polyominoes of 2 to ``n`` cells: a piece of more
   than ``n`` cells). Cell: the least ``k`` such that the edges of cells ``0..k`` alone
   already make such a piece.
6. ``RotatedAndReflected``: a symmetry of the rectangle (4, or 8 for a square) maps the
   state onto a smaller number: only the least of its images is kept. No cell.
7. ``Solver``: the pieces tile the rectangle in more than one way. No cell. The states
   that reach it are gathered by the compiled loop and their distinct count vectors asked
   of :func:`~boardlab.puzzles.polyomino.unique.classify` (or the solver) once each.

The filters 1 to 5 are evaluated incrementally: a state that follows a jump at cell
``k`` differs from the last one only from cell ``k`` on, and every edge after the bit
set is closed, so each state costs one cell's worth of work on the pieces of the
previous prefix. ``tests/puzzles/polyomino/test_partitions.py`` runs the same loop in
plain Python over the full states (every filter and every cell from scratch) and gets
the same counts.

A surviving partition is a level; it is turned into the level the vector method gives
for its symmetry class (the partition mapped by the symmetry that takes its count vector
to the least vector of the orbit), then finished by the generator's own ``_finish``
(rotatable piece, shown orientation, difficulty), so both methods give equal levels.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
from numba import njit

from boardlab import compiled
from boardlab.errors import PuzzleError
from boardlab.puzzles.polyomino.shapes import Shape, fixed_polyominoes
from boardlab.puzzles.polyomino.vectors import rectangle_symmetries, shape_permutation

compiled.watch()

__all__ = ["FILTERS", "EdgeLayout", "Partitions", "edge_layout", "enumerate_partitions",
           "largest_piece", "partition_cells", "partition_tasks", "solve_partitions",
           "symmetry_to", "warm_up", "with_rotatable"]

#: The seed's filters, in its order.
FILTERS = ("2x2Duplicates", "1x1Cell", "StraightCut", "Shapes3", "Shape23",
           "RotatedAndReflected", "Solver")
_INF = 1 << 30


def largest_piece(shapes: Sequence[Shape]) -> int | None:
    """``n`` when ``shapes`` are exactly the fixed polyominoes of 2 to ``n`` cells (the
    sets the partition method handles: Triplex is ``n = 3``), else ``None``."""
    if not shapes:
        return None
    n = max(s.size for s in shapes)
    every = {s for size in range(2, n + 1) for s in fixed_polyominoes(size)}
    return n if n <= 7 and set(shapes) == every and len(shapes) == len(every) else None


@dataclass(frozen=True)
class EdgeLayout:
    """The inner edges of a rectangle in the seed's order, as arrays for the kernel."""

    width: int
    height: int
    #: the two cells (row-major indices) of each edge, the older first
    ends: np.ndarray
    #: for each cell, the position of the youngest edge owned by it or an older cell
    last_edge: np.ndarray
    #: per 2x2 block: its cells a b c d (a top-left, d bottom-right) and edges ab ac bd cd
    blocks: np.ndarray
    #: per straight line: the cell its failure names, then its edges (-1 padded)
    lines: np.ndarray
    #: per symmetry other than the identity: the edge whose value lands on each position
    images: np.ndarray

    @property
    def edges(self) -> int:
        """``2WH - W - H``."""
        return len(self.ends)


@cache
def edge_layout(width: int, height: int) -> EdgeLayout:
    """The edges, blocks, lines and symmetry images of a ``width x height`` rectangle."""
    ends, index = [], {}
    for cell in range(width * height):
        x, y = cell % width, cell // width
        if y < height - 1:
            index[cell, cell + width] = len(ends)
            ends.append((cell, cell + width))
        if x < width - 1:
            index[cell, cell + 1] = len(ends)
            ends.append((cell, cell + 1))
    last_edge = np.full(width * height, -1, np.int64)
    for position, (owner, _) in enumerate(ends):
        last_edge[owner:] = position
    blocks = []
    for y in range(height - 1):
        for x in range(width - 1):
            a = y * width + x
            b, c, d = a + 1, a + width, a + width + 1
            blocks.append((a, b, c, d, index[a, b], index[a, c], index[b, d], index[c, d]))
    lines = []
    longest = max(width, height)
    for x in range(1, width):  # the right edges of column x - 1
        edges = [index[y * width + x - 1, y * width + x] for y in range(height)]
        lines.append([(height - 1) * width + x - 1, *edges, *[-1] * (longest - len(edges))])
    for y in range(1, height):  # the bottom edges of row y - 1
        edges = [index[(y - 1) * width + x, y * width + x] for x in range(width)]
        lines.append([(y - 1) * width + width - 1, *edges,
                      *[-1] * (longest - len(edges))])
    images = []
    for transform in rectangle_symmetries(width, height)[1:]:
        source = np.empty(len(ends), np.int64)
        for position, (u, v) in enumerate(ends):
            tu = transform(u % width, u // width)
            tv = transform(v % width, v // width)
            pair = tuple(sorted((tu[1] * width + tu[0], tv[1] * width + tv[0])))
            source[index[pair]] = position
        images.append(source)
    return EdgeLayout(width, height, np.array(ends, np.int64).reshape(-1, 2), last_edge,
                      np.array(blocks, np.int64).reshape(-1, 8),
                      np.array(lines, np.int64).reshape(len(lines), longest + 1),
                      np.array(images, np.int64).reshape(len(images), len(ends)))


@dataclass(frozen=True)
class Partitions:
    """What :func:`enumerate_partitions` found: ``checked[f]`` states reached filter ``f``
    (of :data:`FILTERS`' first six) and ``rejected[f]`` were rejected by it; ``vectors``
    and ``states`` are the count vectors and edge states (two 64-bit words, bit ``j`` of
    the state at bit ``j % 64`` of word ``j // 64``, edge 0 the oldest) of the states
    that reached the Solver."""

    checked: tuple[int, ...]
    rejected: tuple[int, ...]
    vectors: np.ndarray
    states: np.ndarray


def _shape_codes(shapes: Sequence[Shape]) -> np.ndarray:
    return np.array([sum(1 << (y * 8 + x) for x, y in s.cells) for s in shapes], np.uint64)


def enumerate_partitions(width: int, height: int, shapes: Sequence[Shape]) -> Partitions:
    """Run the seed's loop over the edge states of a ``width x height`` rectangle with the
    first six filters (``shapes`` must be a set :func:`largest_piece` accepts)."""
    n = largest_piece(shapes)
    if n is None:
        raise PuzzleError("the partition method needs a set of every fixed polyomino of 2 "
                          "to n cells (triplex, tetra)")
    if width * height > 64:
        raise PuzzleError(f"the partition method handles areas up to 64 cells, not "
                          f"{width}x{height}")
    layout = edge_layout(width, height)
    checked, rejected, vectors, states = _loop(
        width, height, n, layout.ends, layout.last_edge, layout.blocks, layout.lines,
        layout.images, _shape_codes(shapes))
    return Partitions(tuple(int(c) for c in checked), tuple(int(r) for r in rejected),
                      vectors, states)


def partition_cells(width: int, height: int, state: Sequence[int]
                    ) -> list[tuple[tuple[int, int], ...]]:
    """The pieces (cells ``(x, y)``) of an edge state given as its two words, in the order
    of their first cell."""
    layout = edge_layout(width, height)
    parent = list(range(width * height))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for position, (u, v) in enumerate(layout.ends.tolist()):
        if int(state[position >> 6]) >> (position & 63) & 1:
            parent[root(u)] = root(v)
    pieces: dict[int, list[tuple[int, int]]] = {}
    for cell in range(width * height):
        pieces.setdefault(root(cell), []).append((cell % width, cell // width))
    return [tuple(cells) for cells in pieces.values()]


def symmetry_to(width: int, height: int, shapes: Sequence[Shape], vector: Sequence[int],
                target: Sequence[int]):
    """A symmetry of the rectangle (a map of cells) taking count vector ``vector`` to
    ``target``, with its permutation of the shapes."""
    for transform in rectangle_symmetries(width, height):
        perm = shape_permutation(shapes, transform)
        if perm is None:
            continue
        image = [0] * len(vector)
        for i, a in enumerate(vector):
            image[perm[i]] += int(a)
        if image == [int(a) for a in target]:
            return transform, perm
    raise PuzzleError(f"no symmetry takes {list(vector)} to {list(target)}")


def partition_tasks(width: int, height: int, pieces: str, seed: int,
                    rotatable: int | None = None):
    """The one task that runs the loop over a rectangle (its edge states are one ordered
    sequence: the jumps of one part depend on the parts before it); ``rotatable`` as in
    :func:`~boardlab.puzzles.polyomino.generator.generate_levels`."""
    from boardlab.puzzles.runner import Task

    edges = 2 * width * height - width - height
    # "format" as in generator.size_tasks; the weight is a rough estimate of the states the
    # loop examines (about 2 ** (0.55 E) on the seed's sizes), for the work-done fraction
    return [Task(f"{pieces}:{width}x{height}:partitions",
                 {"width": width, "height": height, "pieces": pieces, "seed": seed,
                  "method": "partitions", "format": 4,
                  **({} if rotatable is None else {"rotatable": rotatable})},
                 weight=float(2 ** (0.55 * edges)))]


@cache
def _placement_ids(width: int, height: int, pieces: str) -> dict[tuple[int, frozenset], int]:
    from boardlab.puzzles.polyomino import generator

    solver = generator._solver(width, height, pieces)
    out = {}
    for pid in range(len(solver._board.place_kind)):
        kind, cells = solver.placement(pid)
        out[kind, frozenset(cells)] = pid
    return out


def with_rotatable(solver: Any, records: Sequence[Sequence[int]]) -> int:
    """How many of a worker's level records have a rotatable piece."""
    from boardlab.puzzles.polyomino import generator

    return sum(1 for record in records
               if generator.level_of(solver, record).rotatable not in (None, ()))


def _least_image(vector: Sequence[int], perms: Sequence[Sequence[int]]) -> tuple[int, ...]:
    best = tuple(int(a) for a in vector)
    for perm in perms:
        image = [0] * len(vector)
        for i, a in enumerate(vector):
            image[perm[i]] += int(a)
        best = min(best, tuple(image))
    return best


def solve_partitions(payload: dict[str, Any]) -> dict[str, Any]:
    """Worker: every level of a rectangle by the seed's loop, as
    :func:`~boardlab.puzzles.polyomino.generator.solve_chunk`'s records, with the stage
    counts and the seed's filter lines (``[name, checked, rejected]``)."""
    from boardlab.puzzles.polyomino import generator, unique

    started = time.perf_counter()
    width, height, pieces = payload["width"], payload["height"], payload["pieces"]
    shapes = generator._shapes(pieces)
    solver = generator._solver(width, height, pieces)
    run = enumerate_partitions(width, height, shapes)
    # 7. Solver: a partition passes when its count vector has one tiling; the vector
    # decides, so each distinct vector is solved once
    if len(run.vectors):
        distinct, inverse = np.unique(run.vectors, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
    else:
        distinct, inverse = run.vectors, np.zeros(0, np.int64)
    if unique.supports(width, height, shapes):
        classes, _, _ = unique.classify(solver, distinct)
        one = (classes == unique.UNIQUE) | (classes == unique.CUT)
    else:
        counts, _, _ = solver.solve_counts(distinct, limit=2, shared_table=True)
        one = counts == 1
    accepted = np.flatnonzero(one[inverse]) if len(inverse) else inverse
    # each partition becomes the tiling of the least vector of its orbit, the one the
    # vector method solves for this symmetry class
    perms = [p for t in rectangle_symmetries(width, height)
             if (p := shape_permutation(shapes, t)) is not None]
    ids = _placement_ids(width, height, pieces)
    mapped = []
    for row in accepted:
        vector = run.vectors[row]
        target = _least_image(vector, perms)
        transform, _ = symmetry_to(width, height, shapes, vector, target)
        pids = []
        for cells in partition_cells(width, height, run.states[row]):
            image = [transform(x, y) for x, y in cells]
            pids.append(ids[shapes.index(Shape.of(image)), frozenset(image)])
        mapped.append((target, sorted(pids)))
    mapped.sort()
    targets = np.array([t for t, _ in mapped], np.int64).reshape(len(mapped), len(shapes))
    if unique.supports(width, height, shapes):
        solved = generator._found_compiled(solver, targets)
    else:
        solved = generator._found_batch(solver, shapes, targets)
    if len(solved) != len(mapped):
        raise PuzzleError(f"{width}x{height}: the partition method's levels are not the "
                          "vector method's (a vector lost its unique tiling)")
    found = []
    for (target, pids), (vector, their_pids, candidates) in zip(mapped, solved, strict=True):
        if tuple(int(a) for a in vector) != target or sorted(their_pids) != pids:
            raise PuzzleError(f"{width}x{height}: partition {pids} is not the only tiling "
                              f"of {list(target)}")
        found.append((vector, pids, candidates))
    turning = (payload["rotatable"],) if "rotatable" in payload else ()
    records = generator._finish(solver, shapes, found, payload["seed"], *turning)
    names = list(FILTERS)
    lines = [[names[f], run.checked[f], run.rejected[f]] for f in range(6)]
    lines.append(["Solver", len(run.states), len(run.states) - len(accepted)])
    return {"levels": records,
            "stages": {"states": run.checked[0], "orbits": len(run.states),
                       "solved": len(distinct), "unique": len(accepted),
                       "cut": run.rejected[2], "levels": len(records),
                       "rotatable": with_rotatable(solver, records)},
            "filters": lines, "seconds": time.perf_counter() - started}


@cache  # once per process
def warm_up() -> None:
    """Compile the loop (or load it from numba's cache) before a run hands rectangles to
    other processes, as :func:`.solver.warm_up` does for the solver."""
    enumerate_partitions(2, 2, fixed_polyominoes(2))


# --- the compiled loop ---------------------------------------------------------------------


@njit(cache=True, inline="always")
def _union(lab, size, a, b, cells):
    # labels are the least cell of each piece; returns the merged piece's size, 0 if a and
    # b were already one piece
    ia, ib = lab[a], lab[b]
    if ia == ib:
        return 0
    keep, gone = (ia, ib) if ia < ib else (ib, ia)
    for i in range(gone, cells):
        if lab[i] == gone:
            lab[i] = keep
    size[keep] += size[gone]
    return size[keep]


@njit(cache=True, inline="always")
def _level(s, lab, size, comps, big, dup, few, iso, level, width, cells, ends, blocks, n,
           owned):
    """Level ``level + 1`` (the pieces made by the edges of cells ``0..level``, every
    other edge closed) from level ``level``."""
    c = level
    lab[c + 1, :] = lab[c, :]
    size[c + 1, :] = size[c, :]
    comps[c + 1] = comps[c]
    big[c + 1] = big[c]
    dup[c + 1] = dup[c]
    few[c + 1] = few[c]
    iso[c + 1] = iso[c]
    alone = True
    for j in range(owned[c], owned[c + 1]):
        if s[j]:
            alone = False
            grown = _union(lab[c + 1], size[c + 1], ends[j, 0], ends[j, 1], cells)
            if grown:
                comps[c + 1] -= 1
                if grown > n and big[c + 1] == _INF:
                    big[c + 1] = c
    if comps[c + 1] < 3 and few[c + 1] == _INF:
        few[c + 1] = c
    if iso[c + 1] == _INF and alone:
        x = c % width
        if (x == 0 or not s[_right(c - 1, owned, ends)]) and (
                c < width or not s[_bottom(c - width, owned, ends)]):
            iso[c + 1] = c
    if dup[c + 1] == _INF:
        row = lab[c + 1]
        for b in range(blocks.shape[0]):
            if blocks[b, 0] > c:  # blocks go by their top-left cell: no edge decided yet
                break
            if _one_piece(row, blocks, b):
                for e in range(4, 8):
                    j = blocks[b, e]
                    if ends[j, 0] <= c and not s[j]:
                        dup[c + 1] = c
                        break
                if dup[c + 1] != _INF:
                    break


@njit(cache=True, inline="always")
def _one_piece(row, blocks, b):
    r = row[blocks[b, 0]]
    return r == row[blocks[b, 1]] and r == row[blocks[b, 2]] and r == row[blocks[b, 3]]


@njit(cache=True, inline="always")
def _right(cell, owned, ends):
    # the right edge is the last one a cell owns (every cell but the last column's has one)
    return owned[cell + 1] - 1


@njit(cache=True, inline="always")
def _bottom(cell, owned, ends):
    return owned[cell]


@njit(cache=True)
def _loop(width, height, n, ends, last_edge, blocks, lines, images, codes):
    cells = width * height
    n_edges = ends.shape[0]
    k = codes.shape[0]
    # owned[c]..owned[c + 1]: the edges of cell c (bottom first)
    owned = np.zeros(cells + 1, np.int64)
    for j in range(n_edges):
        owned[ends[j, 0] + 1] += 1
    for c in range(cells):
        owned[c + 1] += owned[c]
    # one row per level; 64 cells at most, so bytes (copied once per state)
    lab = np.empty((cells + 1, cells), np.int8)
    size = np.empty((cells + 1, cells), np.int8)
    comps = np.empty(cells + 1, np.int64)
    big = np.empty(cells + 1, np.int64)
    dup = np.empty(cells + 1, np.int64)
    few = np.empty(cells + 1, np.int64)
    iso = np.empty(cells + 1, np.int64)
    for i in range(cells):
        lab[0, i] = i
        size[0, i] = 1
    comps[0] = cells
    big[0] = dup[0] = few[0] = iso[0] = _INF
    s = np.zeros(n_edges, np.int8)
    checked = np.zeros(6, np.int64)
    rejected = np.zeros(6, np.int64)
    out_vectors = np.empty((64, k), np.int64)
    out_states = np.empty((64, 2), np.uint64)
    found = 0
    owner = ends[:, 0]
    valid = 0  # levels 0..valid hold the pieces of the current state's prefixes
    first = 0  # the cell of the bit set last: every younger edge is closed
    minx = np.empty(cells, np.int64)
    miny = np.empty(cells, np.int64)
    code = np.empty(cells, np.uint64)
    while True:
        start = min(valid, first)
        for level in range(start, first + 1):
            _level(s, lab, size, comps, big, dup, few, iso, level, width, cells, ends,
                   blocks, n, owned)
        valid = first + 1
        top = first + 1  # the pieces of the whole state
        row = lab[top]
        jump = -1  # the cell a failure names; -1: the next number
        # 1. 2x2Duplicates
        checked[0] += 1
        bad = dup[top]
        if bad == _INF:
            for b in range(blocks.shape[0]):
                if blocks[b, 0] > first:
                    # every edge of these cells is closed: the block's bottom-left cell
                    # is a piece of its own
                    break
                if _one_piece(row, blocks, b):
                    for e in range(4, 8):
                        j = blocks[b, e]
                        if not s[j] and ends[j, 0] < bad:
                            bad = ends[j, 0]
        if bad != _INF:
            rejected[0] += 1
            jump = bad
        if jump < 0:  # 2. 1x1Cell
            checked[1] += 1
            bad = iso[top]
            if bad == _INF:
                for c in range(first + 1, cells):
                    x = c % width
                    if (x == 0 or not s[owned[c] - 1]) and (
                            c < width or not s[owned[c - width]]):
                        bad = c if c < cells - 1 else cells - 2
                        break
            if bad != _INF:
                rejected[1] += 1
                jump = bad
        if jump < 0:  # 3. StraightCut
            checked[2] += 1
            bad = _INF
            for line in range(lines.shape[0]):
                if lines[line, 0] >= bad:
                    continue
                cut = True
                for e in range(1, lines.shape[1]):
                    j = lines[line, e]
                    if j < 0:
                        break
                    if s[j]:
                        cut = False
                        break
                if cut:
                    bad = lines[line, 0]
            if bad != _INF:
                rejected[2] += 1
                jump = bad
        if jump < 0:  # 4. Shapes3
            checked[3] += 1
            if comps[top] < 3:
                rejected[3] += 1
                jump = few[top]
        if jump < 0:  # 5. Shape23
            checked[4] += 1
            if big[top] != _INF:
                rejected[4] += 1
                jump = big[top]
        if jump < 0:  # 6. RotatedAndReflected
            checked[5] += 1
            least = True
            for t in range(images.shape[0]):
                for j in range(n_edges):
                    a = s[images[t, j]]
                    if a != s[j]:
                        if a < s[j]:
                            least = False
                        break
                if not least:
                    break
            if not least:
                rejected[5] += 1
            else:  # on to the Solver
                if found == out_vectors.shape[0]:
                    more_v = np.empty((2 * found, k), np.int64)
                    more_v[:found] = out_vectors
                    out_vectors = more_v
                    more_s = np.empty((2 * found, 2), np.uint64)
                    more_s[:found] = out_states
                    out_states = more_s
                for c in range(cells):
                    minx[c] = width
                    miny[c] = height
                    code[c] = 0
                for c in range(cells):
                    r = row[c]
                    minx[r] = min(minx[r], c % width)
                    miny[r] = min(miny[r], c // width)
                for c in range(cells):
                    r = row[c]
                    code[r] |= np.uint64(1) << np.uint64((c // width - miny[r]) * 8
                                                         + c % width - minx[r])
                out_vectors[found, :] = 0
                for c in range(cells):
                    if row[c] == c:
                        for i in range(k):
                            if codes[i] == code[c]:
                                out_vectors[found, i] += 1
                                break
                w0 = np.uint64(0)
                w1 = np.uint64(0)
                for j in range(n_edges):
                    if s[j]:
                        if j < 64:
                            w0 |= np.uint64(1) << np.uint64(j)
                        else:
                            w1 |= np.uint64(1) << np.uint64(j - 64)
                out_states[found, 0] = w0
                out_states[found, 1] = w1
                found += 1
        # the next state: add 1 at the youngest edge of the cell named (or the last edge)
        p = n_edges - 1 if jump < 0 else last_edge[jump]
        for j in range(p + 1, n_edges):
            s[j] = 0
        while p >= 0 and s[p]:
            s[p] = 0
            p -= 1
        if p < 0:
            return checked, rejected, out_vectors[:found], out_states[:found]
        s[p] = 1
        first = owner[p]
