"""Generated pipe levels have exactly the asked number of solutions (checked by
enumeration, an independent code path from the counting DP the generator uses)."""

from __future__ import annotations

import pytest

from boardlab.errors import PuzzleError
from boardlab.puzzles.pipes.generate import difficulty, generate
from boardlab.puzzles.pipes.level import PipeLevel
from boardlab.puzzles.pipes.solve import solutions


@pytest.mark.parametrize("rows, cols, k", [(3, 3, 1), (4, 4, 1), (5, 5, 1), (5, 6, 2),
                                           (6, 6, 3), (4, 7, 1), (2, 5, 1)])
def test_exact_number_of_solutions(rows, cols, k):
    for seed in range(3):
        made = generate(rows, cols, k, seed=seed)
        level = made.level
        assert (level.rows, level.cols) == (rows, cols)
        assert made.solutions == k == sum(1 for _ in solutions(level))
        assert PipeLevel.parse(str(level)) == level
        assert made.difficulty == difficulty(level) >= rows + cols - 1


def test_seeded_and_varied():
    assert generate(6, 6, seed=5) == generate(6, 6, seed=5)
    assert len({str(generate(6, 6, seed=s).level) for s in range(5)}) == 5


def test_difficulty_counts_wrong_turns():
    one_way = PipeLevel.parse("tap: 1 1 left\ndrain: 1 3 right\nIA IB IC\n")
    assert difficulty(one_way) == 3  # three cells, no branching
    assert difficulty(PipeLevel.parse("LA LB\nLC LD\n")) > 0


@pytest.mark.parametrize("args, message", [((1, 1, 1), "at least 2 cells"),
                                           ((3, 3, 0), "at least 1")])
def test_bad_requests(args, message):
    with pytest.raises(PuzzleError, match=message):
        generate(*args)
