"""The level generator against the seed's published table and an independent brute
force (a plain Python search over placements and its own symmetry handling)."""

from __future__ import annotations

import hashlib
import itertools
import random
from collections import Counter

import pytest

from boardlab.puzzles.polyomino.generator import (
    difficulty,
    generate_levels,
    levels_of_size,
    piece_kinds,
    rotatable_candidates,
    sizes_up_to,
)
from boardlab.puzzles.polyomino.level import Level, canonical_solution
from boardlab.puzzles.polyomino.region import Region
from boardlab.puzzles.polyomino.shapes import PIECE_SETS, Shape, shape_order
from boardlab.puzzles.polyomino.solver import PieceKind, count_tilings, solve
from boardlab.puzzles.polyomino.vectors import canonical_vectors, count_vectors

TRIPLEX = PIECE_SETS["triplex"][0]

# ../shared/specs/triplex.md, "The seed's table" (levels per rectangle, as published).
SEED_TABLE = {
    (4, 2): 2, (3, 3): 1, (5, 2): 1, (4, 3): 4, (5, 3): 6, (4, 4): 5, (6, 3): 8,
    (5, 4): 48, (7, 3): 16, (6, 4): 27, (8, 3): 16, (5, 5): 22, (9, 3): 19, (7, 4): 45,
    (6, 5): 55, (10, 3): 19, (8, 4): 112, (11, 3): 22, (7, 5): 158, (6, 6): 46, (9, 4): 69,
}


def tilings(width, height, pieces, limit=None):
    """Every tiling of the rectangle by the multiset ``pieces`` (identical pieces
    interchangeable), as frozensets of (shape, cells): a plain recursion over the
    placements covering the lowest empty cell in row-major order."""
    counts = {}
    for p in pieces:
        counts[p] = counts.get(p, 0) + 1
    grid = [[False] * width for _ in range(height)]
    placed = []
    out = []

    def first_empty():
        for y in range(height):
            for x in range(width):
                if not grid[y][x]:
                    return x, y
        return None

    def walk():
        if limit is not None and len(out) >= limit:
            return
        cell = first_empty()
        if cell is None:
            out.append(frozenset(placed))
            return
        for shape in sorted(counts):
            if not counts[shape]:
                continue
            ax, ay = shape.cells[0]  # the first cell in row-major order is the anchor
            ox, oy = cell[0] - ax, cell[1] - ay
            cells = [(ox + x, oy + y) for x, y in shape.cells]
            if all(0 <= x < width and 0 <= y < height and not grid[y][x] for x, y in cells):
                for x, y in cells:
                    grid[y][x] = True
                counts[shape] -= 1
                placed.append((shape, tuple(sorted(cells))))
                walk()
                placed.pop()
                counts[shape] += 1
                for x, y in cells:
                    grid[y][x] = False

    walk()
    return out


def reference_levels(width, height):
    """Unique tilings with >= 3 pieces and no straight cut, one per symmetry class, by
    brute force over every multiset and every symmetry of every solution."""
    sizes = [s.size for s in TRIPLEX]
    found = {}
    for counts in itertools.product(*(range(width * height // n + 1) for n in sizes)):
        if sum(a * n for a, n in zip(counts, sizes, strict=True)) != width * height:
            continue
        if sum(counts) < 3:
            continue
        pieces = [s for s, a in zip(TRIPLEX, counts, strict=True) for _ in range(a)]
        sols = tilings(width, height, pieces, limit=2)
        if len(sols) != 1:
            continue
        (sol,) = sols
        cut = any(all(all(x < c for x, _ in cells) or all(x >= c for x, _ in cells)
                      for _, cells in sol) for c in range(1, width)) or \
            any(all(all(y < c for _, y in cells) or all(y >= c for _, y in cells)
                    for _, cells in sol) for c in range(1, height))
        if cut:
            continue
        found.setdefault(class_key(width, height, [cells for _, cells in sol]), sol)
    return found


def class_key(width, height, pieces_cells):
    """The least image of a solution (a list of cell lists) over the rectangle's
    symmetries: equal for solutions that are images of each other."""
    images = []
    for k in range(8):
        if k % 2 and width != height:
            continue  # quarter turns change the rectangle's shape
        image = []
        for cells in pieces_cells:
            moved = []
            for x, y in cells:
                w, h = width, height
                for _ in range(k % 4):
                    x, y = h - 1 - y, x
                    w, h = h, w
                if k >= 4:
                    x = w - 1 - x
                moved.append((x, y))
            image.append(tuple(sorted(moved)))
        images.append(tuple(sorted(image)))
    return min(images)


def cells_of(level: Level):
    return frozenset(tuple(sorted(cells)) for cells in level.solution)


@pytest.mark.parametrize("size", [(4, 2), (3, 3), (5, 2), (4, 3), (5, 3), (4, 4), (6, 2)])
def test_levels_equal_brute_force(size):
    width, height = size
    expected = reference_levels(width, height)
    got = levels_of_size(width, height)
    assert len(got) == len(expected) == SEED_TABLE.get(size, 0)
    assert {class_key(width, height, level.solution) for level in got} == set(expected)


@pytest.mark.parametrize("size", [s for s in sizes_up_to(25)])
def test_seed_table_up_to_area_25(size):
    levels = levels_of_size(*size)
    assert len(levels) == SEED_TABLE.get(size, 0)


@pytest.mark.parametrize("size", [(9, 3), (6, 6)])
def test_seed_table_sample_above_25(size):
    assert len(levels_of_size(*size)) == SEED_TABLE[size]


def test_every_level_obeys_the_rules():
    width, height = 5, 4
    levels = levels_of_size(width, height)
    seen = set()
    for level in levels:
        pieces = list(level.pieces)
        assert len(pieces) >= 3 and sum(p.size for p in pieces) == 20
        (only,) = tilings(width, height, pieces, limit=2)
        assert only == frozenset((p, tuple(sorted(c))) for p, c in
                                 zip(level.pieces, level.solution, strict=True))
        for x in range(1, width):  # no straight vertical cut
            assert not all(all(cx < x for cx, _ in c) or all(cx >= x for cx, _ in c)
                           for c in level.solution)
        # No two levels are images of each other: compare the multisets' orbits.
        orbit = set()
        for k in (0, 2, 4, 6):  # the rectangle's symmetries (turns by 0/180, mirrors)
            orbit.add(tuple(sorted(Shape.of(_plain(p.cells, k)).cells for p in pieces)))
        assert not orbit & seen
        seen |= orbit
        for turning in level.rotatable:
            rot = level.pieces[turning]
            for other in rot.orientations()[1:]:
                swapped = list(pieces)
                swapped[turning] = other
                assert tilings(width, height, swapped, limit=1) == []
    assert [lv.difficulty for lv in levels] == sorted(lv.difficulty for lv in levels)


def _plain(cells, k):
    out = []
    for x, y in cells:
        for _ in range(k % 4):
            x, y = -y, x
        if k >= 4:
            x = -x
        out.append((x, y))
    return out


def test_rotatable_choice_is_reproducible_and_seeded():
    a = levels_of_size(6, 4, seed=1)
    b = levels_of_size(6, 4, seed=1)
    c = levels_of_size(6, 4, seed=2)
    assert a == b
    assert [lv.solution for lv in a] == sorted([lv.solution for lv in c],
                                               key=lambda s: [x.solution for x in a].index(s))
    assert any(x.shown_orientation != y.shown_orientation for x, y in
               zip(a, sorted(c, key=lambda lv: [x.solution for x in a].index(lv.solution)),
                   strict=True))


@pytest.mark.parametrize("size", [(7, 4), (5, 4)])
def test_rotatable_and_difficulty_from_scratch(size):
    # The batch's choices equal the documented rule computed one level at a time: the
    # rotatable piece is the candidate with the longest search (the first on a tie), shown
    # in an orientation drawn from the seed and the solution, and the difficulty is
    # difficulty()'s steps.
    for level in levels_of_size(*size, seed=3):
        plain = Level(level.width, level.height, level.pieces, level.solution)
        candidates = rotatable_candidates(plain)
        if not candidates:
            assert level.rotatable == ()
            assert level.difficulty == difficulty(plain, None)
            continue
        works = [difficulty(plain, i) for i in candidates]
        best = candidates[works.index(max(works))]
        assert [level.pieces[i] for i in level.rotatable] == [plain.pieces[best]]
        assert level.difficulty == max(works)
        digest = hashlib.sha256(f"3:{plain.solution_checksum().decode()}".encode()).digest()
        choices = len(plain.pieces[best].orientations())
        assert level.shown_orientation == (random.Random(digest).randrange(choices),)


def test_vectors_and_orbits():
    all36 = list(count_vectors(TRIPLEX, 36, min_pieces=3))
    assert len(all36) == 33_822
    # 2(a1+a2) + 3(a3+..+a8) = 36 counted by the seed's own formula.
    formula = sum((k + 1) * _comb((36 - 2 * k) // 3 + 5, 5)
                  for k in range(0, 19) if (36 - 2 * k) % 3 == 0)
    assert formula == 33_822
    assert len(canonical_vectors(TRIPLEX, 6, 6)) == 4834


def _comb(n, k):
    from math import comb

    return comb(n, k)


def test_generate_levels_over_several_sizes_is_ordered():
    levels = generate_levels(sizes_up_to(16), backend="serial", progress=False)
    assert len(levels) == 2 + 1 + 1 + 4 + 6 + 5
    keys = [(lv.difficulty, lv.width * lv.height) for lv in levels]
    assert keys == sorted(keys)


def plain_canonical(shapes, width, height, distinct=False):
    """canonical_vectors by the plain enumeration and the orbit test on Python tuples."""
    from boardlab.puzzles.polyomino.vectors import (
        _image,
        fits,
        rectangle_symmetries,
        shape_permutation,
    )

    usable = [fits(s, width, height) for s in shapes]
    perms = [p for t in rectangle_symmetries(width, height)
             if (p := shape_permutation(shapes, t)) is not None]
    return [v for v in count_vectors(shapes, width * height, usable=usable, min_pieces=3,
                                     distinct=distinct)
            if all(tuple(_image(v, p)) >= v for p in perms)]


@pytest.mark.parametrize("size", [(4, 2), (5, 4), (6, 6), (9, 4), (7, 5), (12, 3), (14, 2)])
def test_compiled_orbit_filter_equals_the_plain_one(size):
    got = canonical_vectors(TRIPLEX, *size)
    assert [tuple(r) for r in got.tolist()] == plain_canonical(TRIPLEX, *size)


@pytest.mark.parametrize("pieces, distinct", [("tetra", False), ("penta", True)])
@pytest.mark.parametrize("size", [(4, 2), (4, 3), (5, 3), (4, 4)])
def test_compiled_orbit_filter_on_other_sets(pieces, distinct, size):
    shapes = PIECE_SETS[pieces][0]
    plain = plain_canonical(shapes, *size, distinct=distinct)
    got = canonical_vectors(shapes, *size, distinct=distinct)
    assert [tuple(r) for r in got.tolist()] == plain and plain


@pytest.mark.slow
def test_ray_backend_finds_the_same_levels():
    pytest.importorskip("ray")
    sizes = sizes_up_to(20)
    serial = generate_levels(sizes, backend="serial", progress=False)
    assert generate_levels(sizes, backend="ray", workers=2, progress=False) == serial


def brute_force_solutions(puzzle) -> set:
    """The tilings of a puzzle as the player has it, by the plain recursion above: one
    run per choice of an orientation for each rotatable piece, each tiling a set of
    (shape, cells), so a turned piece standing where its identical twin stood is the same
    tiling."""
    choices = [p.orientations() if i in puzzle.rotatable else (p,)
               for i, p in enumerate(puzzle.pieces)]
    found: set = set()
    for pieces in {tuple(sorted(pick, key=shape_order)) for pick in itertools.product(*choices)}:
        found |= set(tilings(puzzle.width, puzzle.height, pieces))
    return found


def test_every_level_has_one_solution_as_the_player_gets_it():
    # Rule 1 with the rotatable piece free to turn, by the brute force, for every level
    # through area 20 (the levels of larger areas: the slow test below, by the solver).
    levels = generate_levels(sizes_up_to(20), backend="serial", progress=False)
    assert len(levels) == 75
    for level in levels:
        puzzle = level.puzzle()
        assert len(brute_force_solutions(puzzle)) == 1, str(level)
        assert count_tilings(Region.rectangle(level.width, level.height),
                             piece_kinds(puzzle.pieces, puzzle.rotatable)) == 1


@pytest.mark.slow
def test_the_724_levels_have_one_solution_each():
    levels = generate_levels(sizes_up_to(36), backend="serial", progress=False)
    assert len(levels) == 724
    for level in levels:
        puzzle = level.puzzle()
        region = Region.rectangle(level.width, level.height)
        result = solve(region, piece_kinds(puzzle.pieces, puzzle.rotatable),
                       each_orientation=True)
        assert result.count == 1 and result.complete, str(level)
        assert result.steps == level.difficulty
        grid = result.solutions[0].grid()
        assert canonical_solution(grid) == level.solution_checksum()


def test_difficulty_searches_each_orientation_of_the_rotatable_piece():
    # The documented measure, computed here from its definition: the steps of one search
    # of fixed pieces per orientation the rotatable piece may take, added up.
    for level in levels_of_size(5, 4):
        if not level.rotatable:
            continue
        region = Region.rectangle(level.width, level.height)
        total = 0
        (turning,) = level.rotatable
        for o in level.pieces[turning].orientations():
            pieces = [o if i == turning else p for i, p in enumerate(level.pieces)]
            counts = Counter(pieces)
            kinds = [PieceKind.fixed(s, counts[s]) for s in sorted(counts, key=shape_order)]
            total += solve(region, kinds, collect=False).steps
        assert level.difficulty == total


@pytest.mark.parametrize("most, area, count", [(2, 20, 75), (3, 16, 19)])
def test_several_rotatable_pieces_keep_one_solution_and_the_longest_search(most, area,
                                                                          count):
    # --rotatable K: every level through the area still has one solution by the brute
    # force with all its turning pieces free, and its set is the one with the longest
    # search among every set of at most K pieces that keeps the solution unique (each
    # set tried here from scratch, by the brute force and difficulty()).
    levels = generate_levels(sizes_up_to(area), backend="serial", progress=False,
                             rotatable=most)
    assert len(levels) == count
    sizes = Counter(len(level.rotatable) for level in levels)
    assert sizes[most] > 0 and set(sizes) <= set(range(most + 1))
    for level in levels:
        assert len(brute_force_solutions(level.puzzle())) == 1, str(level)
        plain = Level(level.width, level.height, level.pieces, level.solution)
        best = difficulty(plain, None) if not level.rotatable else 0
        for size in range(1, most + 1):
            for subset in itertools.combinations(range(len(plain.pieces)), size):
                trial = Level(plain.width, plain.height, plain.pieces, plain.solution,
                              subset, (0,) * size)
                if len(brute_force_solutions(trial.puzzle())) == 1:
                    best = max(best, difficulty(plain, subset))
        assert level.difficulty == best, str(level)
        assert level.difficulty == difficulty(plain, level.rotatable)
