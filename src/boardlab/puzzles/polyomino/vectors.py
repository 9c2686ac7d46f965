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
from functools import lru_cache

import numpy as np
from numba import njit

from boardlab import compiled
from boardlab.puzzles.polyomino.shapes import Shape

compiled.watch()

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
    perms = _symmetry_permutations(tuple(shapes), width == height)
    return _canonical(np.array([s.size for s in shapes], np.int64), np.array(usable),
                      np.array(perms, np.int64).reshape(len(perms), len(shapes)),
                      width * height, min_pieces, distinct)


@lru_cache(maxsize=64)
def _symmetry_permutations(shapes: tuple[Shape, ...], square: bool) -> list[list[int]]:
    # A shape's image is taken up to translation, so it depends on which symmetries the
    # rectangle has (a square has 8), not on its size.
    side = 2 if square else 3
    return [p for t in rectangle_symmetries(side, 2 if not square else side)
            if (p := shape_permutation(shapes, t)) is not None]


@njit(cache=True)
def _canonical(sizes, usable, perms, area, min_pieces, distinct):
    # count_vectors' odometer (first shape slowest, so lexicographic order), each vector
    # kept when no symmetry's image of it is lexicographically smaller
    k = sizes.shape[0]
    out = np.empty((64, k), np.int64)
    n = 0
    if k == 0:
        return out[:0]
    suffix = np.zeros(k + 1, np.int64)  # the area the shapes from i on can cover once each
    for i in range(k - 1, -1, -1):
        suffix[i] = suffix[i + 1] + (sizes[i] if usable[i] else 0)
    vec = np.zeros(k, np.int64)
    rest = np.zeros(k + 1, np.int64)
    top = np.zeros(k, np.int64)
    inverses = np.empty_like(perms)
    for p in range(perms.shape[0]):
        for j in range(k):
            inverses[p, perms[p, j]] = j
    rest[0] = area
    i = 0
    top[0] = _top(0, area, sizes, usable, distinct, suffix)
    while True:
        if vec[i] > top[i]:
            if i == 0:
                return out[:n]
            i -= 1
            vec[i] += 1
            continue
        left = rest[i] - vec[i] * sizes[i]
        if i < k - 1:
            rest[i + 1] = left
            i += 1
            vec[i] = 0
            top[i] = _top(i, left, sizes, usable, distinct, suffix)
            if i == k - 1:  # the last shape takes exactly what is left, or nothing fits
                need = rest[i] // sizes[i]
                vec[i] = need if rest[i] % sizes[i] == 0 and need <= top[i] else top[i] + 1
            continue
        if left == 0 and vec.sum() >= min_pieces and _least(vec, inverses):
            if n == out.shape[0]:
                bigger = np.empty((2 * n, k), np.int64)
                bigger[:n] = out
                out = bigger
            out[n] = vec
            n += 1
        vec[i] += 1


@njit(cache=True, inline="always")
def _top(i, left, sizes, usable, distinct, suffix):
    if distinct and left > suffix[i]:
        return -1  # the shapes from here on, once each, cannot fill what is left
    if not usable[i]:
        return 0
    return min(1, left // sizes[i]) if distinct else left // sizes[i]


@njit(cache=True, inline="always")
def _least(vec, inverses):
    # the image of vec under a permutation p has image[m] = vec[inverse[m]]; compared
    # with vec entry by entry until they differ
    for p in range(inverses.shape[0]):
        for m in range(vec.shape[0]):
            a = vec[inverses[p, m]]
            if a != vec[m]:
                if a < vec[m]:
                    return False
                break
    return True


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
