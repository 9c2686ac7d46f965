"""Playing a pipe puzzle by turning its segments: rotations, the water's flow, scrambles.

Rules: :doc:`/pipes`; the level model is :mod:`boardlab.puzzles.pipes.level`. On a played
board every segment has a *rotation*; the player turns segments until the water runs
from the tap to the drain, and the letters along the water's path are the code (the
code :func:`boardlab.puzzles.pipes.solve.solutions` gives for that path).

Sides are numbered clockwise, ``0`` top, ``1`` right, ``2`` bottom, ``3`` left; turning
a segment by 90 degrees clockwise adds 1 to every side it opens. A straight with
rotation ``r`` opens sides ``r`` and ``r + 2`` (two states); an elbow opens ``r`` and
``r + 1`` (four states). A cell without a segment has rotation ``0``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from boardlab.puzzles.pipes.level import STRAIGHT, PipeLevel, outside
from boardlab.puzzles.pipes.solve import Solution

#: Sides in clockwise order, as the rotations count them, and their (row, col) steps.
SIDES = ("top", "right", "bottom", "left")
_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))


@dataclass(frozen=True)
class Flow:
    """Where the water goes on a rotated board: the cells it fills (1-based, in order)
    and why it stops: ``drain`` (solved), ``edge`` (it leaves the grid elsewhere),
    ``empty`` (into a cell without a segment), ``closed`` (into a segment not open
    towards it, or back into a cell it filled)."""

    cells: tuple[tuple[int, int], ...]
    end: str

    @property
    def solved(self) -> bool:
        return self.end == "drain"


def states(kind: str | None) -> int:
    """How many rotations a segment has: a straight 2, an elbow 4, no segment 1."""
    return 1 if kind is None else 2 if kind == STRAIGHT else 4


def openings(kind: str | None, rotation: int) -> frozenset[int]:
    """The sides (0 top, 1 right, 2 bottom, 3 left) a segment opens at ``rotation``.

    >>> sorted(openings("I", 1)), sorted(openings("L", 3))
    ([1, 3], [0, 3])
    """
    if kind is None:
        return frozenset()
    other = 2 if kind == STRAIGHT else 1
    return frozenset({rotation % 4, (rotation + other) % 4})


def flow(level: PipeLevel, rotations: list[list[int]]) -> Flow:
    """Follow the water from the tap through the rotated segments.

    >>> level = PipeLevel.parse("LA LB\\nLC LD", "demo")
    >>> flow(level, [[0, 2], [0, 0]])
    Flow(cells=((1, 1), (1, 2), (2, 2)), end='edge')
    >>> flow(level, [[1, 0], [0, 0]])
    Flow(cells=(), end='closed')
    """
    row, col, side = level.tap
    entering = SIDES.index(side)
    drain_row, drain_col, drain_side = level.drain
    cells: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    while True:
        if not (1 <= row <= level.rows and 1 <= col <= level.cols):
            return Flow(tuple(cells), "edge")
        cell = level.cells[row - 1][col - 1]
        if cell.is_empty:
            return Flow(tuple(cells), "empty")
        opened = openings(cell.kind, rotations[row - 1][col - 1])
        if entering not in opened or (row, col) in seen:
            return Flow(tuple(cells), "closed")
        cells.append((row, col))
        seen.add((row, col))
        (leaving,) = opened - {entering}
        if (row, col) == (drain_row, drain_col) and SIDES[leaving] == drain_side:
            return Flow(tuple(cells), "drain")
        dr, dc = _STEPS[leaving]
        row, col, entering = row + dr, col + dc, (leaving + 2) % 4


def solution_of(level: PipeLevel, path: tuple[tuple[int, int], ...]) -> Solution:
    """The solution a solved board's path is, with its code (letters in path order)."""
    code = "".join(level.cells[r - 1][c - 1].letter or "" for r, c in path)
    return Solution(path, code, outside(level.rows, level.cols, level.tap),
                    outside(level.rows, level.cols, level.drain))


def scramble(level: PipeLevel, seed: int) -> list[list[int]]:
    """Random rotations from ``seed`` on which the water does not reach the drain."""
    rng = random.Random(seed)
    while True:
        board = [[rng.randrange(states(cell.kind)) for cell in row] for row in level.cells]
        if not flow(level, board).solved:
            return board


def required_rotations(level: PipeLevel, path: tuple[tuple[int, int], ...]) -> dict:
    """The rotation each cell of ``path`` needs for the water to follow it:
    ``{(row, col): rotation}`` (used by tests and handy for hints)."""
    tap_outside = outside(level.rows, level.cols, level.tap)
    drain_outside = outside(level.rows, level.cols, level.drain)
    points = [tap_outside, *path, drain_outside]
    needed = {}
    for before, cell, after in zip(points, points[1:], points[2:], strict=False):
        sides = {_side_towards(cell, before), _side_towards(cell, after)}
        kind = level.cells[cell[0] - 1][cell[1] - 1].kind
        needed[cell] = next(r for r in range(states(kind)) if openings(kind, r) == sides)
    return needed


def _side_towards(cell: tuple[int, int], other: tuple[int, int]) -> int:
    return _STEPS.index((other[0] - cell[0], other[1] - cell[1]))
