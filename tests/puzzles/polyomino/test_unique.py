"""The generator's compiled classification (:mod:`boardlab.puzzles.polyomino.unique`)
against the solver, against the generator's solver-only path, and against the C program
of the benchmark (an independent depth-first search written in C)."""

from __future__ import annotations

import collections
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from boardlab.puzzles.polyomino import generator, unique
from boardlab.puzzles.polyomino.generator import (
    _rotatable_candidates_batch,
    generate_levels,
    levels_of_size,
    sizes_up_to,
)
from boardlab.puzzles.polyomino.level import solution_checksum
from boardlab.puzzles.polyomino.shapes import PIECE_SETS, Shape
from boardlab.puzzles.polyomino.solver import RectangleSolver
from boardlab.puzzles.polyomino.vectors import canonical_vectors, has_straight_cut

TRIPLEX = PIECE_SETS["triplex"][0]
C_PROGRAM = Path(__file__).parents[3] / "benchmarks" / "triplex_dfs.c"


def classify(width, height, shapes=TRIPLEX, vectors=None):
    solver = RectangleSolver(width, height, shapes)
    if vectors is None:
        vectors = canonical_vectors(shapes, width, height)
    return solver, vectors, unique.classify(solver, vectors)


@pytest.mark.parametrize("size", sizes_up_to(25) + [(6, 6), (12, 3)])
def test_classes_agree_with_the_solver(size):
    solver, vectors, (classes, first, _) = classify(*size)
    counts, _, _ = solver.solve_counts(vectors, limit=2)
    assert np.array_equal(np.where(classes == unique.CUT, unique.UNIQUE, classes),
                          np.minimum(counts, 2))
    for row in np.flatnonzero(counts == 1):
        placed = [solver.placement(int(p)) for p in first[row] if p >= 0]
        # the tiling is one of the vector: its pieces are the counts and cover the rectangle
        assert np.array_equal(np.bincount([k for k, _ in placed], minlength=len(TRIPLEX)),
                              vectors[row])
        cells = [c for _, cs in placed for c in cs]
        assert len(set(cells)) == len(cells) == size[0] * size[1]
        assert (classes[row] == unique.CUT) == has_straight_cut(*size, [c for _, c in placed])


def test_answers_do_not_depend_on_the_memo():
    # the memo holds facts; whatever it holds, the answers (first tilings included) are
    # those of an empty memo
    solver = RectangleSolver(7, 4, TRIPLEX)
    vectors = canonical_vectors(TRIPLEX, 7, 4)
    unique.clear_memo()
    cold = unique.classify(solver, vectors)
    warm = unique.classify(solver, vectors)
    backwards = unique.classify(solver, vectors[::-1])
    for a, b, c in zip(cold, warm, backwards, strict=True):
        assert np.array_equal(a, b)
        assert np.array_equal(a, c[::-1])


@pytest.mark.parametrize("size", [(5, 4), (6, 5), (9, 3)])
def test_rotatable_shapes_agree_with_the_solver(size):
    solver, vectors, (classes, _, masks) = classify(*size)
    rows = np.flatnonzero(classes == unique.UNIQUE)
    expected = _rotatable_candidates_batch(solver, TRIPLEX, [vectors[r] for r in rows])
    got = [[TRIPLEX[s] for s in range(len(TRIPLEX)) if masks[r] >> s & 1] for r in rows]
    assert got == expected
    assert any(got)


@pytest.mark.parametrize("pieces, sizes", [
    ("triplex", [(5, 4), (6, 4), (7, 3)]),
    # orientations outside the set: the rotatable shapes are asked of the solver
    ("file:partial", [(4, 3), (5, 3), (4, 4), (5, 4), (6, 4), (7, 3), (5, 5), (8, 3)]),
])
def test_compiled_and_solver_paths_give_the_same_levels(pieces, sizes, tmp_path, monkeypatch):
    if pieces == "file:partial":
        path = tmp_path / "partial.txt"
        path.write_text("##\n\n#\n#\n\n##\n#.\n\n###\n")
        pieces = f"file:{path}"
    compiled = generate_levels(sizes, pieces, backend="serial", progress=False)
    generator._difficulty_solver.cache_clear()
    monkeypatch.setattr(unique, "supports", lambda *args: False)
    plain = generate_levels(sizes, pieces, backend="serial", progress=False)
    assert compiled == plain and len(compiled) > 10
    assert any(level.rotatable for level in compiled)


def test_large_sets_take_the_solver_path():
    shapes = PIECE_SETS["tetra"][0]
    assert not unique.supports(4, 3, shapes)
    levels = generate_levels([(4, 3)], "tetra", backend="serial", progress=False)
    assert levels and all(level.difficulty for level in levels)


def test_solution_checksum_without_a_level():
    for level in levels_of_size(6, 4):
        assert level.solution_checksum() == "/".join(level.rows()).encode()
        shuffled = [list(reversed(cells)) for cells in reversed(level.solution)]
        assert solution_checksum(level.width, level.height, shuffled) \
            == level.solution_checksum()


def run_c_program(tmp_path: Path, max_area: int):
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.fail("a C compiler is needed (CI installs gcc)")
    binary = tmp_path / "triplex_dfs"
    subprocess.run([compiler, "-O2", "-o", str(binary), str(C_PROGRAM)], check=True)
    out = subprocess.run([str(binary), str(max_area), "--levels"], check=True,
                         capture_output=True, text=True).stdout
    sizes, vectors = {}, collections.defaultdict(collections.Counter)
    for line in out.splitlines():
        words = line.split()
        if words[0] == "size":
            sizes[int(words[1]), int(words[2])] = (int(words[6]), int(words[8]))
        elif words[0] == "level":
            vectors[int(words[1]), int(words[2])][tuple(map(int, words[3:]))] += 1
    return sizes, vectors


def test_the_c_program_finds_the_same_levels(tmp_path):
    sizes, vectors = run_c_program(tmp_path, 30)
    index = {s: i for i, s in enumerate(TRIPLEX)}
    assert set(sizes) == set(sizes_up_to(30))
    for (width, height), (count, rotatable) in sizes.items():
        levels = levels_of_size(width, height)
        assert len(levels) == count
        assert sum(len(level.rotatable) for level in levels) == rotatable
        got = collections.Counter()
        for level in levels:
            vector = [0] * len(TRIPLEX)
            for piece in level.pieces:
                vector[index[piece]] += 1
            got[tuple(vector)] += 1
        assert got == vectors[width, height], (width, height)


def test_classify_refuses_what_it_does_not_handle():
    with pytest.raises(ValueError, match="at most 10 shapes"):
        unique.classify(RectangleSolver(4, 3, PIECE_SETS["tetra"][0]),
                        np.zeros((0, 27), np.int64))
    assert unique.supports(4, 2, [Shape.parse("##")])
