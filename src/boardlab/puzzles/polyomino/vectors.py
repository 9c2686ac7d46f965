"""Piece-count vectors and the symmetries of a rectangle acting on them.

The original article's fast generator (its "other variants of the algorithm"; see
:doc:`/triplex`) enumerates the vectors ``(a1, ..., ak)`` of piece counts whose areas sum to
the rectangle's, and asks the solver about each. Two refinements here:

* shapes that do not fit the rectangle at all (a vertical straight tromino in a
  rectangle of height 2) are left out of the enumeration;
* a symmetry of the rectangle maps every tiling by a multiset onto a tiling by the
  image multiset, so the number of tilings is the same for a vector and its images:
  only the lexicographically least vector of each orbit is solved, and it stands for
  the whole symmetry class (:doc:`/triplex`, rule 5: one representative per class).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np

from boardlab.puzzles.polyomino.shapes import Shape

Transform = Callable[[int, int], tuple[int, int]]


def rectangle_symmetries(width: int, height: int) -> list[Transform]:
    """The symmetries of a ``width`` x ``height`` rectangle as maps of cells (x, y):
    4 when ``width != height`` (identity, two mirrors, half turn), 8 for a square."""
    w, h = width - 1, height - 1
    out: list[Transform] = [
        lambda x, y: (x, y),
        lambda x, y: (w - x, y),
        lambda x, y: (x, h - y),
        lambda x, y: (w - x, h - y),
    ]
    if width == height:
        out += [
            lambda x, y: (y, x),
            lambda x, y: (h - y, x),
            lambda x, y: (y, w - x),
            lambda x, y: (h - y, w - x),
        ]
    return out


def shape_permutation(shapes: Sequence[Shape], transform: Transform) -> list[int] | None:
    """Where ``transform`` sends each shape (an index into ``shapes``), or ``None`` when
    some image is not in the set (the set is not closed under this symmetry)."""
    index = {s: i for i, s in enumerate(shapes)}
    out = []
    for s in shapes:
        image = Shape.of([transform(x, y) for x, y in s.cells])
        if image not in index:
            return None
        out.append(index[image])
    return out


def fits(shape: Shape, width: int, height: int) -> bool:
    """Whether ``shape`` fits in the rectangle at all."""
    return shape.width <= width and shape.height <= height


def count_vectors(shapes: Sequence[Shape], area: int, *, usable: Sequence[bool] | None = None,
                  min_pieces: int = 1, distinct: bool = False) -> Iterator[tuple[int, ...]]:
    """Every vector of piece counts whose areas sum to ``area``, in lexicographic order
    (``usable[i]`` false forces shape ``i`` to 0; ``distinct`` allows at most one of each).
    """
    sizes = [s.size for s in shapes]
    usable = list(usable) if usable is not None else [True] * len(shapes)
    k = len(shapes)
    # The largest area the shapes from i on can still cover bounds nothing (counts are
    # unbounded) unless distinct; the smallest size from i on prunes impossible rests.
    suffix_max = [0] * (k + 1)
    for i in reversed(range(k)):
        suffix_max[i] = suffix_max[i + 1] + (sizes[i] if usable[i] else 0)
    vector = [0] * k

    def walk(i: int, rest: int, pieces: int) -> Iterator[tuple[int, ...]]:
        if i == k:
            if rest == 0 and pieces >= min_pieces:
                yield tuple(vector)
            return
        if distinct and rest > suffix_max[i]:
            return
        top = 0 if not usable[i] else (min(1, rest // sizes[i]) if distinct
                                       else rest // sizes[i])
        for a in range(top + 1):
            vector[i] = a
            yield from walk(i + 1, rest - a * sizes[i], pieces + a)
        vector[i] = 0

    yield from walk(0, area, 0)


def canonical_vectors(shapes: Sequence[Shape], width: int, height: int, *,
                      min_pieces: int = 3, distinct: bool = False) -> np.ndarray:
    """The vectors to solve for a rectangle: area ``width*height``, at least
    ``min_pieces`` pieces, only shapes that fit, one (the least) per symmetry orbit, in
    lexicographic order. Returns an int64 array of shape (n, len(shapes))."""
    usable = [fits(s, width, height) for s in shapes]
    perms = [p for t in rectangle_symmetries(width, height)
             if (p := shape_permutation(shapes, t)) is not None]
    area = width * height
    if not distinct and len(shapes) <= _PACKED_SHAPES and area < 1 << _PACKED_BITS:
        return _canonical_numpy(shapes, area, usable, perms, min_pieces)
    rows = []
    for vector in count_vectors(shapes, area, usable=usable, min_pieces=min_pieces,
                                distinct=distinct):
        if all(tuple(_image(vector, p)) >= vector for p in perms):
            rows.append(vector)
    return np.array(rows, dtype=np.int64).reshape(len(rows), len(shapes))


_PACKED_SHAPES = 9  # vectors packed into one int64, 7 bits a count
_PACKED_BITS = 7


def _canonical_numpy(shapes: Sequence[Shape], area: int, usable: Sequence[bool],
                     perms: Sequence[Sequence[int]], min_pieces: int) -> np.ndarray:
    """:func:`canonical_vectors` for small shape sets, with whole-array operations: the
    vectors grow one shape at a time (the last usable shape takes whatever area is left),
    and a vector is kept when its packed key is not above any image's."""
    sizes = [s.size for s in shapes]
    k = len(shapes)
    last = max((i for i in range(k) if usable[i]), default=-1)
    rows = np.zeros((1, 0), np.int64)
    rest = np.array([area], np.int64)
    for i in range(k):
        if not usable[i]:
            counts = np.zeros(len(rows), np.int64)
        elif i == last:
            keep = rest % sizes[i] == 0
            rows, rest = rows[keep], rest[keep]
            counts = rest // sizes[i]
        else:
            reps = rest // sizes[i] + 1
            starts = np.repeat(np.cumsum(reps) - reps, reps)
            counts = np.arange(int(reps.sum()), dtype=np.int64) - starts
            rows, rest = np.repeat(rows, reps, axis=0), np.repeat(rest, reps)
        rows = np.column_stack([rows, counts])
        rest = rest - counts * sizes[i]
    rows = rows[(rest == 0) & (rows.sum(axis=1) >= min_pieces)]
    weights = np.array([1 << (_PACKED_BITS * (k - 1 - i)) for i in range(k)], np.int64)
    keys = rows @ weights
    keep = np.ones(len(rows), bool)
    for perm in perms:
        inverse = np.argsort(perm)  # image[perm[i]] = v[i]  <=>  image = v[inverse]
        keep &= rows[:, inverse] @ weights >= keys
    return np.ascontiguousarray(rows[keep])


def _image(vector: Sequence[int], perm: Sequence[int]) -> list[int]:
    out = [0] * len(vector)
    for i, a in enumerate(vector):
        out[perm[i]] += a
    return out


def has_straight_cut(width: int, height: int, pieces: Sequence[Sequence[tuple[int, int]]]
                     ) -> bool:
    """Whether a full horizontal or vertical line through the rectangle crosses no piece
    (:doc:`/triplex`, rule 3): then the level is two smaller levels side by side."""
    for x in range(1, width):
        if all(all(cx < x for cx, _ in cells) or all(cx >= x for cx, _ in cells)
               for cells in pieces):
            return True
    for y in range(1, height):
        if all(all(cy < y for _, cy in cells) or all(cy >= y for _, cy in cells)
               for cells in pieces):
            return True
    return False
