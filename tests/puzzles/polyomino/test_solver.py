"""The packing solver against independent truth.

* a slow, obviously correct reference written here (plain recursion over placements:
  cover the least empty cell by every placement of every kind left; no pruning, no
  tables) on hundreds of random small problems, seeded;
* miniexact (Knuth's Algorithm M in C: cells are items of multiplicity 1, each kind an
  item of multiplicity ``count``) on a sample of them, where no two kinds share an
  orientation;
* random Triplex levels with identical and rotatable pieces: a brute force over every
  orientation each rotatable piece may take, its tilings told apart by cells only;
* published counts: rectangles tiled by the 12 pentominoes (3x20: 2, 4x15: 368,
  5x12: 1010, 6x10: 2339 up to symmetry; the 8x8 board without its centre: 65), domino
  tilings (Fibonacci for 2xn, 36 for 4x4, 6728 for 6x6, 12988816 for 8x8, and on to
  12x12: OEIS A004003).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import product

import numpy as np
import pytest

from boardlab.errors import BoardlabError, NotationError, PuzzleError
from boardlab.puzzles.polyomino.region import Region
from boardlab.puzzles.polyomino.shapes import PIECE_SETS, Shape, piece_set
from boardlab.puzzles.polyomino.solver import (
    PieceKind,
    RectangleSolver,
    Tiling,
    _run,
    count_tilings,
    distinct_up_to_symmetry,
    solve,
)

TilingKey = frozenset[frozenset[tuple[int, int]]]

# --------------------------------------------------------------------------------------
# The reference


def reference_tilings(region: Region, kinds: Sequence[PieceKind]) -> list[TilingKey]:
    """Every tiling, as the set of the cells of its pieces, by plain recursion over
    every way to give the pieces their places: two ways that put the same shapes on the
    same cells are one tiling (a free piece and a fixed piece of the orientation it took
    swapped, spec rule 1)."""
    out: list[TilingKey] = []
    counts = [kind.count for kind in kinds]

    def cover(empty: set[tuple[int, int]], placed: list) -> None:
        if not empty:
            out.append(frozenset(placed))
            return
        x0, y0 = min(empty)
        for k, kind in enumerate(kinds):
            if not counts[k]:
                continue
            for shape in kind.orientations:
                for sx, sy in shape.cells:  # that cell of the shape on (x0, y0)
                    cells = frozenset((x - sx + x0, y - sy + y0) for x, y in shape.cells)
                    if cells <= empty:
                        counts[k] -= 1
                        placed.append((k, cells))
                        cover(empty - cells, placed)
                        placed.pop()
                        counts[k] += 1

    if sum(k.size * k.count for k in kinds) == region.size:
        cover(set(region.cells), [])
    return list(dict.fromkeys(frozenset(cells for _, cells in placed) for placed in out))


def miniexact_count(region: Region, kinds: Sequence[PieceKind], cap: int = 10_000) -> int:
    """The number of tilings by miniexact's Algorithm M (at most ``cap``)."""
    from miniexact import miniexacts_m

    solver = miniexacts_m()
    items = {c: solver.primary(f"c{c[0]}_{c[1]}") for c in region.cells}
    kind_items = {k: solver.primary(f"k{k}", kind.count, kind.count)
                  for k, kind in enumerate(kinds) if kind.count}
    options = 0
    for k, kind in enumerate(kinds):
        if not kind.count:
            continue
        for shape in kind.orientations:
            shifts = {(cx - sx, cy - sy) for cx, cy in region.cells for sx, sy in shape.cells}
            for x0, y0 in sorted(shifts):
                cells = [(x + x0, y + y0) for x, y in shape.cells]
                if all(c in items for c in cells):
                    solver.add([items[c] for c in cells] + [kind_items[k]])
                    options += 1
    if not options:
        return 0
    n = 0
    while n < cap and solver.solve() == 10:
        n += 1
    return n


def overlapping(kinds: Sequence[PieceKind]) -> bool:
    """Whether two kinds share an orientation."""
    shapes = [s for kind in kinds for s in kind.orientations]
    return len(shapes) != len(set(shapes))


def key(tiling: Tiling) -> TilingKey:
    return frozenset(frozenset(p.cells) for p in tiling.placements)


def assert_valid(tiling: Tiling, region: Region, kinds: Sequence[PieceKind]) -> None:
    cells = [c for p in tiling.placements for c in p.cells]
    assert sorted(cells) == sorted(region.cells)
    used = Counter(p.kind for p in tiling.placements)
    assert used == Counter({k: kind.count for k, kind in enumerate(kinds) if kind.count})
    for p in tiling.placements:
        assert Shape.of(p.cells) == kinds[p.kind].orientations[p.orientation]


# --------------------------------------------------------------------------------------
# Random problems


def random_region(rng: random.Random) -> Region:
    kind = rng.random()
    if kind < 0.4:
        w = rng.randint(1, 6)
        return Region.rectangle(w, rng.randint(1, max(1, min(6, 18 // w))))
    if kind < 0.8:  # a random mask of a small box
        w, h = rng.randint(2, 6), rng.randint(2, 5)
        cells = [(x, y) for x in range(w) for y in range(h) if rng.random() < 0.75]
        return Region.of(cells[:20] or [(0, 0)])
    # a staircase path with bumps: bounding boxes beyond 64 cells (several words)
    x, y = 0, 0
    cells = {(0, 0)}
    for _ in range(rng.randint(13, 17)):
        x, y = (x + 1, y) if rng.random() < 0.5 else (x, y + 1)
        cells.add((x, y))
        if rng.random() < 0.2:
            cells.add((x + 1, y - 1) if rng.random() < 0.5 else (x - 1, y + 1))
    return Region.of(cells)


def carve(region: Region, rng: random.Random, largest: int) -> list[Shape]:
    """Cut the region into random polyominoes (so that at least one tiling exists)."""
    free = set(region.cells)
    pieces = []
    while free:
        piece = {min(free)}
        target = rng.randint(2, largest)
        while len(piece) < target:
            around = sorted({(x + dx, y + dy) for x, y in piece
                             for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
                            & (free - piece))
            if not around:
                break
            piece.add(rng.choice(around))
        free -= piece
        pieces.append(Shape.of(piece))
    return pieces


def random_problem(rng: random.Random) -> tuple[Region, list[PieceKind]]:
    region = random_region(rng)
    style = rng.random()
    if style < 0.6:
        shapes = carve(region, rng, rng.choice((3, 4, 5)))
    else:  # a random multiset of the right area from the tetra or penta set (mostly no tiling)
        pool = piece_set(rng.choice(("tetra", "penta")))[0]
        shapes, area = [], 0
        while area < region.size:
            fitting = [s for s in pool if s.size <= region.size - area]
            if not fitting:
                fitting = [Shape(((0, 0),))]
            s = rng.choice(fitting)
            shapes.append(s)
            area += s.size
        if rng.random() < 0.5:  # repeat a piece
            s = rng.choice(shapes)
            shapes = [s if t.size == s.size and rng.random() < 0.5 else t for t in shapes]
    kinds: dict[Shape, list] = {}
    for s in shapes:
        free = rng.random() < 0.3
        form = s.free_form() if free else s
        kinds.setdefault((form, free), 0)
        kinds[form, free] += 1
    out = [PieceKind.free(form, n) if free else PieceKind.fixed(form, n)
           for (form, free), n in kinds.items()]
    rng.shuffle(out)
    if rng.random() < 0.2:  # a kind with no pieces changes nothing
        out.insert(rng.randrange(len(out) + 1), PieceKind.fixed(rng.choice(shapes), 0))
    return region, out


def problems(seed: int, n: int) -> Iterator[tuple[Region, list[PieceKind]]]:
    rng = random.Random(seed)
    for _ in range(n):
        yield random_problem(rng)


# --------------------------------------------------------------------------------------
# Cross-checks


@pytest.mark.parametrize("seed", range(8))
def test_solve_agrees_with_the_reference(seed):
    for region, kinds in problems(seed, 40):
        truth = reference_tilings(region, kinds)
        result = solve(region, kinds)
        assert result.complete and result.count == len(truth), (str(region), kinds)
        assert len(result.solutions) == result.count
        assert {key(t) for t in result.solutions} == set(truth)
        for tiling in result.solutions:
            assert_valid(tiling, region, kinds)
        assert solve(region, kinds, collect=False).count == len(truth)
        assert solve(region, kinds, collect=False).steps == result.steps
        assert count_tilings(region, kinds) == len(truth)
        long = solve(region, kinds, scan="long")
        assert {key(t) for t in long.solutions} == set(truth)


def triplex_problem(rng: random.Random) -> tuple[Region, list[Shape], list[int]]:
    """A rectangle carved into Triplex pieces, with up to three of them rotatable."""
    shapes = set(PIECE_SETS["triplex"][0])
    while True:
        w, h = rng.randint(2, 5), rng.randint(2, 4)
        region = Region.rectangle(w, h)
        pieces = carve(region, rng, 3)
        if all(p in shapes for p in pieces) and len(pieces) >= 3:
            # some repeats: a piece's neighbour in the list becomes its twin
            return region, pieces, rng.sample(range(len(pieces)), rng.randint(1, 3))


def brute_force_tilings(region: Region, pieces: Sequence[Shape], turning: Sequence[int]
                        ) -> set[TilingKey]:
    """Every tiling, by the reference recursion over fixed pieces, for every choice of an
    orientation for each rotatable piece: a set of cell sets, so a tiling reached by two
    choices (a turned piece standing where its identical twin stood) is one."""
    out: set[TilingKey] = set()
    choices = [p.orientations() if i in turning else (p,) for i, p in enumerate(pieces)]
    for pick in product(*choices):
        counts = Counter(pick)
        out |= set(reference_tilings(region, [PieceKind.fixed(s, n)
                                              for s, n in counts.items()]))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_rotatable_pieces_agree_with_the_brute_force(seed):
    rng = random.Random(seed)
    several = 0
    for _ in range(60):
        region, pieces, turning = triplex_problem(rng)
        fixed = Counter(p for i, p in enumerate(pieces) if i not in turning)
        free = Counter(p for i, p in enumerate(pieces) if i in turning)
        kinds = ([PieceKind.fixed(s, n) for s, n in fixed.items()]
                 + [PieceKind.free(s, n) for s, n in free.items()])
        rng.shuffle(kinds)
        truth = brute_force_tilings(region, pieces, turning)
        result = solve(region, kinds)
        assert result.complete and result.count == len(truth), (str(region), pieces, turning)
        assert [key(t) for t in result.solutions] == list(dict.fromkeys(
            key(t) for t in result.solutions))  # no tiling twice
        assert {key(t) for t in result.solutions} == truth
        for tiling in result.solutions:
            assert_valid(tiling, region, kinds)
        assert count_tilings(region, kinds) == len(truth)
        several += overlapping(kinds) and len(truth) > 1
    assert several >= 5  # the cases where swaps used to count twice are met


def test_a_rotatable_piece_and_its_fixed_twin_are_one_tiling():
    # a 2x2 square of a fixed horizontal domino and a free one: the free one lies
    # horizontally above or below the fixed one, which is one tiling (it used to be two)
    kinds = [PieceKind.fixed(DOMINO), PieceKind.free(DOMINO)]
    result = solve(Region.rectangle(2, 2), kinds)
    assert result.count == 1
    assert [str(t) for t in result.solutions] == ["AA\nBB"]
    # the free piece is the one that may turn: its placement names its kind
    assert sorted(p.kind for p in result.solutions[0].placements) == [0, 1]


@pytest.mark.parametrize("seed", range(100, 104))
def test_limits(seed):
    for region, kinds in problems(seed, 40):
        full = solve(region, kinds)
        for limit in (1, 2, 3):
            r = solve(region, kinds, limit=limit)
            assert r.count == min(limit, full.count)
            assert r.complete == (full.count < limit)
            # the same search, stopped early: the first solutions, in order
            assert [key(t) for t in r.solutions] == [key(t) for t in full.solutions[:limit]]
            assert r.steps <= full.steps
            assert count_tilings(region, kinds, limit=limit) == min(limit, full.count)


@pytest.mark.parametrize("seed", range(200, 204))
def test_several_words_agree_with_one(seed):
    # the same problems on the multi-word kernel (every word after the first full)
    for region, kinds in problems(seed, 30):
        one = solve(region, kinds)
        words = _run(region, kinds, None, True, False, "short", min_words=3)
        assert [key(t) for t in words.solutions] == [key(t) for t in one.solutions]
        counted = _run(region, kinds, None, False, True, "short", min_words=2)
        assert counted.count == one.count


def test_random_problems_cover_the_interesting_cases():
    seen = Counter()
    for seed in range(8):
        for region, kinds in problems(seed, 40):
            seen["words>1"] += region.width * region.height > 64
            seen["not rectangle"] += not region.is_rectangle
            seen["free"] += any(len(k.orientations) > 1 for k in kinds)
            seen["count>1"] += any(k.count > 1 for k in kinds)
            n = len(reference_tilings(region, kinds))
            seen["none"] += n == 0
            seen["unique"] += n == 1
            seen["several"] += n > 1
    assert all(seen[k] >= 10 for k in ("words>1", "not rectangle", "free", "count>1",
                                       "none", "unique", "several")), seen


@pytest.mark.parametrize("seed", range(300, 302))
def test_miniexact_agrees(seed):
    pytest.importorskip("miniexact")
    for region, kinds in problems(seed, 40):
        if overlapping(kinds):
            continue  # miniexact's options are (kind, place): it would count swaps twice
        assert solve(region, kinds, collect=False).count == miniexact_count(region, kinds)


def test_miniexact_agrees_on_pentomino_rectangle():
    pytest.importorskip("miniexact")
    kinds = [PieceKind.free(s) for s in PIECE_SETS["pentominoes"][0]]
    region = Region.rectangle(20, 3)
    assert miniexact_count(region, kinds) == solve(region, kinds).count == 8


# --------------------------------------------------------------------------------------
# The batch entry point


def all_vectors(area: int, sizes: Sequence[int]) -> np.ndarray:
    out: list[list[int]] = []

    def extend(prefix: list[int], left: int) -> None:
        if len(prefix) == len(sizes):
            if not left:
                out.append(prefix)
            return
        for n in range(left // sizes[len(prefix)] + 1):
            extend([*prefix, n], left - n * sizes[len(prefix)])

    extend([], area)
    return np.array(out, np.int64)


@pytest.mark.parametrize("width, height", [(4, 2), (3, 3), (4, 3), (5, 3), (4, 4)])
def test_batch_agrees_with_reference_and_solve(width, height):
    shapes = PIECE_SETS["triplex"][0]
    vectors = all_vectors(width * height, [s.size for s in shapes])
    batch = RectangleSolver(width, height, shapes)
    counts, steps, first = batch.solve_counts(vectors, limit=2)
    shared = batch.solve_counts(vectors, limit=2, shared_table=True)
    assert np.array_equal(shared[0], counts) and np.array_equal(shared[2], first)
    region = Region.rectangle(width, height)
    for i, vector in enumerate(vectors):
        kinds = [PieceKind.fixed(s, int(n)) for s, n in zip(shapes, vector, strict=True)]
        truth = reference_tilings(region, kinds)
        assert counts[i] == min(2, len(truth))
        placed = [batch.placement(int(p)) for p in first[i] if p >= 0]
        if truth:
            assert frozenset(frozenset(c) for _, c in placed) in set(truth)
        else:
            assert (first[i] == -1).all()
        r = solve(region, kinds, limit=2)  # the same steps and first tiling as solve()
        assert r.steps == steps[i]
        if r.solutions:
            assert [(p.kind, p.cells) for p in r.solutions[0].placements] == placed


def test_batch_on_fixed_tetra_pieces():
    # a larger fixed set (27 shapes) on 6x3: vectors of random carvings (at least one
    # tiling) and random vectors of the right area (mostly none)
    shapes = PIECE_SETS["tetra"][0]
    index = {s: i for i, s in enumerate(shapes)}
    region = Region.rectangle(6, 3)
    rng = random.Random(5)
    vectors = []
    while len(vectors) < 80:
        vector = [0] * len(shapes)
        if len(vectors) % 2:
            pieces = carve(region, rng, 4)
        else:
            pieces, area = [], 0
            while area < 18 and area != 17:
                pieces.append(rng.choice([s for s in shapes if s.size <= 18 - area]))
                area += pieces[-1].size
            if area != 18:
                continue
        if all(s in index for s in pieces):  # carvings may leave a monomino
            for s in pieces:
                vector[index[s]] += 1
            vectors.append(vector)
    vectors = np.array(vectors, np.int64)
    counts, steps, _ = RectangleSolver(6, 3, shapes).solve_counts(vectors, limit=3)
    assert 0 in counts and 3 in counts
    for i, vector in enumerate(vectors):
        kinds = [PieceKind.fixed(s, int(n)) for s, n in zip(shapes, vector, strict=True)]
        r = solve(region, kinds, limit=3, collect=False)
        assert counts[i] == r.count == min(3, len(reference_tilings(region, kinds)))
        assert steps[i] == r.steps


def test_batch_errors():
    batch = RectangleSolver(4, 2, PIECE_SETS["triplex"][0])
    with pytest.raises(PuzzleError, match="covers 6 cells"):
        batch.solve_counts(np.array([[3, 0, 0, 0, 0, 0, 0, 0]]))
    with pytest.raises(PuzzleError):
        batch.solve_counts(np.array([[4, 0, 0]]))
    with pytest.raises(PuzzleError):
        batch.solve_counts(np.array([[5, -1, 0, 0, 0, 0, 0, 0]]))
    with pytest.raises(PuzzleError):
        RectangleSolver(9, 8, PIECE_SETS["triplex"][0])
    counts, steps, first = batch.solve_counts(np.zeros((0, 8), np.int64))
    assert counts.shape == steps.shape == (0,) and first.shape == (0, 4)


# --------------------------------------------------------------------------------------
# Published counts

PENTOMINOES = [PieceKind.free(s) for s in PIECE_SETS["pentominoes"][0]]


@pytest.mark.parametrize("width, height, raw, distinct", [
    (20, 3, 8, 2),
    (15, 4, 1472, 368),
    (12, 5, 4040, 1010),
    pytest.param(10, 6, 9356, 2339, marks=pytest.mark.slow),
])
def test_pentomino_rectangles(width, height, raw, distinct):
    region = Region.rectangle(width, height)
    result = solve(region, PENTOMINOES)
    assert result.complete and result.count == raw == len(result.solutions)
    assert len(distinct_up_to_symmetry(result.solutions, region)) == distinct
    assert solve(Region.rectangle(height, width), PENTOMINOES, collect=False).count == raw


def test_pentomino_solutions_are_valid():
    region = Region.rectangle(20, 3)
    for tiling in solve(region, PENTOMINOES).solutions:
        assert_valid(tiling, region, PENTOMINOES)


def test_pentominoes_on_the_8x8_board_without_centre():
    # Dana Scott's 1958 problem: 65 solutions up to the 8 symmetries
    region = Region.of((x, y) for x in range(8) for y in range(8)
                       if not (3 <= x <= 4 and 3 <= y <= 4))
    result = solve(region, PENTOMINOES)
    assert result.count == 520
    assert len(distinct_up_to_symmetry(result.solutions, region)) == 65


DOMINO = Shape.parse("##")


@pytest.mark.parametrize("n", range(1, 16))
def test_dominoes_in_2xn_are_fibonacci(n):
    a, b = 1, 1
    for _ in range(n - 1):
        a, b = b, a + b
    kinds = [PieceKind.free(DOMINO, n)]
    assert count_tilings(Region.rectangle(n, 2), kinds) == b
    assert solve(Region.rectangle(2, n), kinds).count == b


@pytest.mark.parametrize("side, count", [(2, 2), (4, 36), (6, 6728)])
def test_dominoes_in_squares(side, count):
    kinds = [PieceKind.free(DOMINO, side * side // 2)]
    assert solve(Region.rectangle(side, side), kinds, collect=False).count == count
    assert count_tilings(Region.rectangle(side, side), kinds) == count


def test_dominoes_on_the_chessboard():
    assert count_tilings(Region.rectangle(8, 8), [PieceKind.free(DOMINO, 32)]) == 12988816


@pytest.mark.parametrize("side, count", [(10, 258584046368), (12, 53060477521960000)])
def test_dominoes_on_larger_squares(side, count):
    # beyond 64 cells: the multi-word kernel (OEIS A004003)
    assert count_tilings(Region.rectangle(side, side),
                         [PieceKind.free(DOMINO, side * side // 2)]) == count


def test_dominoes_as_two_fixed_kinds():
    # the states also carry how many of each kind are left
    square = Region.rectangle(4, 4)
    for horizontal in range(9):
        kinds = [PieceKind.fixed(DOMINO, horizontal), PieceKind.fixed(Shape.parse("#\n#"),
                                                                      8 - horizontal)]
        assert count_tilings(square, kinds) == len(reference_tilings(square, kinds))
    total = sum(count_tilings(Region.rectangle(6, 6), [
        PieceKind.fixed(DOMINO, h), PieceKind.fixed(Shape.parse("#\n#"), 18 - h)])
        for h in range(19))
    assert total == 6728


def test_identical_pieces_are_not_told_apart():
    # three horizontal trominoes in a 3x3: one tiling, not 3! = 6
    kinds = [PieceKind.fixed(Shape.parse("###"), 3)]
    assert solve(Region.rectangle(3, 3), kinds).count == 1
    # ... but a mirror image is a different tiling (spec rule 1)
    ell = [PieceKind.fixed(Shape.parse("#.\n##")), PieceKind.fixed(Shape.parse("##\n.#"))]
    assert solve(Region.rectangle(3, 2), ell).count == 1
    both = [PieceKind.free(Shape.parse("#.\n##"), 2)]
    tilings = solve(Region.rectangle(3, 2), both).solutions
    assert len(tilings) == 2
    assert len(distinct_up_to_symmetry(tilings, Region.rectangle(3, 2))) == 1


# --------------------------------------------------------------------------------------
# Steps, text, errors


def test_steps_are_deterministic():
    for region, kinds in problems(9, 30):
        a = solve(region, kinds)
        assert a.steps == solve(region, kinds).steps
        assert a.steps >= a.count  # the last placement of each tiling is a step
        # kinds without pieces change nothing, not even the steps
        present = [k for k in kinds if k.count]
        b = solve(region, present)
        assert (b.count, b.steps) == (a.count, a.steps)


def test_tiling_text_and_grid():
    kinds = [PieceKind.fixed(Shape.parse("###"), 2)]
    tiling = solve(Region.rectangle(3, 2), kinds).solutions[0]
    assert str(tiling) == "AAA\nBBB"
    assert tiling.grid() == ((0, 0, 0), (1, 1, 1))
    holed = Region.parse("###\n#.#\n###")
    t = solve(holed, [PieceKind.free(Shape.parse("###\n#.."), 2)]).solutions[0]
    assert [row.count(-1) for row in t.grid()] == [0, 1, 0]
    assert str(t).count(".") == 1


@pytest.mark.parametrize("make", [
    lambda: solve(Region.rectangle(3, 2), [PieceKind.fixed(DOMINO, 2)]),
    lambda: solve(Region.rectangle(2, 2), [PieceKind.fixed(DOMINO, 3)]),
    lambda: count_tilings(Region.rectangle(3, 1), [PieceKind.fixed(DOMINO)]),
    lambda: solve(Region.rectangle(2, 1), []),
])
def test_area_mismatch(make):
    with pytest.raises(PuzzleError, match="cover"):
        make()


@pytest.mark.parametrize("make, error", [
    (lambda: PieceKind((), 1), PuzzleError),
    (lambda: PieceKind(("##",), 1), PuzzleError),                   # not a Shape
    (lambda: PieceKind.fixed(DOMINO, -1), PuzzleError),
    (lambda: PieceKind((DOMINO, Shape.parse("###")), 1), PuzzleError),  # sizes differ
    (lambda: PieceKind((DOMINO, DOMINO), 1), PuzzleError),
    (lambda: solve(Region.rectangle(2, 1), [DOMINO]), PuzzleError),  # not a PieceKind
    (lambda: solve("##", [PieceKind.fixed(DOMINO)]), PuzzleError),
    (lambda: solve(Region.rectangle(2, 1), [PieceKind.fixed(DOMINO)], limit=0), PuzzleError),
    (lambda: solve(Region.rectangle(2, 1), [PieceKind.fixed(DOMINO)], scan="diagonal"),
     PuzzleError),
    (lambda: piece_set("hexominoes"), NotationError),                # unknown piece set
    (lambda: Region.parse("..."), NotationError),                    # empty region
])
def test_errors(make, error):
    with pytest.raises(error) as info:
        make()
    assert isinstance(info.value, BoardlabError)


def test_piece_kinds_take_numpy_counts_and_lists():
    kind = PieceKind([DOMINO, Shape.parse("#\n#")], np.int64(2))
    assert kind == PieceKind.free(DOMINO, 2) and type(kind.count) is int
    assert hash(kind) == hash(PieceKind.free(DOMINO, 2))
    with pytest.raises(PuzzleError):
        PieceKind.fixed(DOMINO, True)
    with pytest.raises(PuzzleError):
        PieceKind.fixed(DOMINO, 1.0)


def test_pieces_that_fit_nowhere_give_no_tiling():
    kinds = [PieceKind.fixed(Shape.parse("####"))]
    assert solve(Region.rectangle(2, 2), kinds).count == 0
    assert solve(Region.rectangle(2, 2), kinds).complete
