"""The frontier count of Plumber solutions against a brute force written here.

The brute force walks every self-avoiding path from the tap, cell by cell, with no pruning:
water entering a straight leaves by the opposite side, water entering an elbow leaves by
either adjacent side, and a path counts when it leaves the drain cell through the drain side.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from boardlab.errors import PuzzleError
from boardlab.puzzles.pipes.count import count_level, count_solutions

# side -> (row step, col step) of the neighbour across it, and the opposite side
STEP = {"top": (-1, 0), "bottom": (1, 0), "left": (0, -1), "right": (0, 1)}
OPPOSITE = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}
ADJACENT = {
    "top": ("left", "right"),
    "bottom": ("left", "right"),
    "left": ("top", "bottom"),
    "right": ("top", "bottom"),
}


def brute_force(kinds, tap=(1, 1, "top"), drain=None):
    rows, cols = len(kinds), len(kinds[0])
    if drain is None:
        drain = (rows, cols, "bottom")
    drain_cell = (drain[0] - 1, drain[1] - 1)
    visited = set()

    def walk(r, c, entered_by):
        kind = kinds[r][c]
        if kind == "." or (r, c) in visited:
            return 0
        exits = (OPPOSITE[entered_by],) if kind == "I" else ADJACENT[entered_by]
        visited.add((r, c))
        found = 0
        for side in exits:
            if (r, c) == drain_cell and side == drain[2]:
                found += 1
                continue
            dr, dc = STEP[side]
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols:
                found += walk(nr, nc, OPPOSITE[side])
        visited.discard((r, c))
        return found

    return walk(tap[0] - 1, tap[1] - 1, tap[2])


def border_end(rng, rows, cols):
    side = rng.choice(["top", "bottom", "left", "right"])
    if side in ("top", "bottom"):
        return (1 if side == "top" else rows, rng.randint(1, cols), side)
    return (rng.randint(1, rows), 1 if side == "left" else cols, side)


def random_grid(rng, rows, cols, empty):
    elbow = rng.random()
    return [
        "".join(
            "." if rng.random() < empty else ("L" if rng.random() < elbow else "I")
            for _ in range(cols)
        )
        for _ in range(rows)
    ]


def test_hand_counted():
    assert count_solutions(["IIII"], tap=(1, 1, "left"), drain=(1, 4, "right")) == 1
    assert count_solutions(["I", "I", "I"]) == 1
    assert count_solutions(["IIII"]) == 0  # water from above cannot turn along the row
    # Water from the top turns right, down, and must turn again: out right, not down.
    assert count_solutions(["LL", "LL"]) == 0
    assert count_solutions(["LL", "LL"], drain=(2, 2, "right")) == 1
    # Down, right along the middle row, down: the only way.
    assert count_solutions(["ILL", "LIL", "LLI"]) == 1
    assert count_solutions(["L"], drain=(1, 1, "left")) == 1
    assert count_solutions(["I"]) == 1
    assert count_solutions(["L"]) == 0
    assert count_solutions(["."]) == 0
    assert count_solutions(["II"], tap=(1, 1, "top"), drain=(1, 1, "top")) == 0


def test_seeded_random_grids_against_brute_force():
    rng = random.Random(20261122)
    nonzero = several = 0
    for _ in range(2000):
        rows, cols = rng.randint(1, 6), rng.randint(1, 6)
        kinds = random_grid(rng, rows, cols, rng.choice([0.0, 0.05, 0.2, 0.4]))
        if rng.random() < 0.3:
            tap, drain = (1, 1, "top"), None
        else:
            tap, drain = border_end(rng, rows, cols), border_end(rng, rows, cols)
        expected = brute_force(kinds, tap, drain)
        assert count_solutions(kinds, tap, drain) == expected, (kinds, tap, drain)
        nonzero += expected > 0
        several += expected > 1
    assert nonzero > 100 and several > 20


def test_larger_grids_against_brute_force():
    rng = random.Random(7)
    for rows, cols in [(6, 5), (5, 6), (6, 6), (4, 7), (7, 4)]:
        for _ in range(4):
            kinds = random_grid(rng, rows, cols, 0.05)
            tap, drain = border_end(rng, rows, cols), border_end(rng, rows, cols)
            assert count_solutions(kinds, tap, drain) == brute_force(kinds, tap, drain)


def test_transposed_grid_has_the_same_count():
    rng = random.Random(3)
    swap = {"top": "left", "left": "top", "bottom": "right", "right": "bottom"}
    for _ in range(50):
        rows, cols = rng.randint(1, 6), rng.randint(1, 6)
        kinds = random_grid(rng, rows, cols, 0.1)
        tap, drain = border_end(rng, rows, cols), border_end(rng, rows, cols)
        transposed = ["".join(column) for column in zip(*kinds, strict=True)]
        assert count_solutions(kinds, tap, drain) == count_solutions(
            transposed, (tap[1], tap[0], swap[tap[2]]), (drain[1], drain[0], swap[drain[2]])
        )


def test_big_counts_are_exact_products():
    # Blocks stacked with a row of empty cells between them except one straight under the
    # last column: every path crosses each straight once, downwards, so the count is the
    # product of the blocks' counts (each from the brute force), far beyond 64 bits.
    rng = random.Random(11)
    rows, cols = 5, 7
    grid, product, first = [], 1, True
    while product < 2**200:
        block = random_grid(rng, rows, cols, 0.0)
        block = ["".join("L" if rng.random() < 0.8 else k for k in line) for line in block]
        tap = (1, 1 if first else cols, "top")
        n = brute_force(block, tap, (rows, cols, "bottom"))
        if n < 2:
            continue
        if not first:
            grid.append("." * (cols - 1) + "I")
        grid += block
        product *= n
        first = False
    assert count_solutions(grid) == product
    transposed = ["".join(column) for column in zip(*grid, strict=True)]
    tap, drain = (1, 1, "left"), (cols, len(grid), "right")
    assert count_solutions(transposed, tap, drain) == product


def test_count_level_reads_a_level_like_object():
    def cell(kind):
        return SimpleNamespace(kind=None if kind == "." else kind, letter="A")

    kinds = ["LIL", "LLL", "ILL"]
    level = SimpleNamespace(
        rows=3, cols=3, cells=tuple(tuple(cell(k) for k in row) for row in kinds),
        tap=(1, 1, "top"), drain=(3, 3, "bottom"),
    )
    assert count_level(level) == brute_force(kinds)


@pytest.mark.parametrize(
    "kinds, tap, drain",
    [
        (["LL", "L"], (1, 1, "top"), None),
        (["LX"], (1, 1, "top"), None),
        (["LL"], (1, 2, "left"), None),
        (["LL"], (3, 1, "top"), None),
    ],
)
def test_bad_input_is_a_puzzle_error(kinds, tap, drain):
    with pytest.raises(PuzzleError):
        count_solutions(kinds, tap, drain)


def test_count_level_agrees_with_the_enumerating_solver():
    # A second, independent implementation when the level model and solver are present.
    level_module = pytest.importorskip("boardlab.puzzles.pipes.level")
    solve_module = pytest.importorskip("boardlab.puzzles.pipes.solve")
    solutions = getattr(solve_module, "solutions", None)
    if solutions is None or not hasattr(level_module.PipeLevel, "parse"):
        pytest.skip("no PipeLevel.parse / solutions() to compare with")
    rng = random.Random(5)
    for _ in range(60):
        rows, cols = rng.randint(2, 6), rng.randint(2, 6)
        kinds = random_grid(rng, rows, cols, 0.05)
        if "." in (kinds[0][0], kinds[-1][-1]):
            continue
        text = "\n".join(" ".join(k + "A" if k != "." else "." for k in line) for line in kinds)
        level = level_module.PipeLevel.parse(text)
        assert count_level(level) == sum(1 for _ in solutions(level)) == brute_force(kinds)
