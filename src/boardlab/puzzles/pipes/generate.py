"""Random pipe levels with exactly K solutions (a classic puzzle: K = 1).

Method: plant a random self-avoiding path from the tap to the drain (a randomised
depth-first walk), give its cells the kinds that path needs (straight where it goes on,
elbow where it turns), fill the other cells with random kinds, then change off-path
cells one at a time, keeping a change when the exact number of solutions
(:func:`~boardlab.puzzles.pipes.count.count_level`, no enumeration) gets no further
from K. The planted path is never touched, so there is always at least one solution;
a cell is emptied ('.') only with a small probability, so levels stay full of pipes.
A run that does not reach K within its budget restarts from a fresh path.

Difficulty: the number of partial paths a plain depth-first search (no look-ahead)
explores from the tap before it has found every solution, i.e. how many wrong turns the
grid offers; it is deterministic for a level.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from dataclasses import dataclass

from boardlab.errors import PuzzleError
from boardlab.puzzles.pipes.count import count_level
from boardlab.puzzles.pipes.level import Cell, PipeLevel

STEPS = {"top": (-1, 0), "bottom": (1, 0), "left": (0, -1), "right": (0, 1)}
OPPOSITE = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}


@dataclass(frozen=True)
class GeneratedLevel:
    """A generated level, its exact number of solutions and its difficulty."""

    level: PipeLevel
    solutions: int
    difficulty: int


#: ``progress(attempt, attempts, solutions now)``, after every change tried.
Progress = Callable[[int, int, int], None]


def generate(rows: int, cols: int, solutions: int = 1, *, seed: int | None = None,
             letters: str = string.ascii_uppercase, empty_rate: float = 0.03,
             attempts: int = 40, progress: Progress | None = None) -> GeneratedLevel:
    """A random ``rows`` x ``cols`` level with exactly ``solutions`` solutions.

    :class:`PuzzleError` for sizes below 1x1 (or 1x1 itself: no path bends there), a
    count below 1, or when no level is found within ``attempts`` restarts.
    ``progress(attempt, attempts, count)`` is called after every change tried, with the
    1-based attempt and the current grid's number of solutions.
    """
    if rows < 1 or cols < 1 or rows * cols < 2:
        raise PuzzleError(f"a level needs at least 2 cells, not {rows}x{cols}")
    if solutions < 1:
        raise PuzzleError(f"the number of solutions must be at least 1, not {solutions}")
    if not letters:
        raise PuzzleError("letters must not be empty")
    rng = random.Random(seed)
    for attempt in range(1, attempts + 1):
        def report(count: int, attempt: int = attempt) -> None:
            if progress is not None:
                progress(attempt, attempts, count)

        found = _attempt(rng, rows, cols, solutions, letters, empty_rate, report)
        if found is not None:
            return GeneratedLevel(found, solutions, difficulty(found))
    raise PuzzleError(f"no {rows}x{cols} level with exactly {solutions} solutions found in "
                      f"{attempts} attempts; try another size, count or seed")


def _attempt(rng: random.Random, rows: int, cols: int, target: int, letters: str,
             empty_rate: float, report: Callable[[int], None]) -> PipeLevel | None:
    path = _random_path(rng, rows, cols)
    if path is None:
        return None
    kinds = [[rng.choice("IL") for _ in range(cols)] for _ in range(rows)]
    for (r, c), kind in path.items():
        kinds[r][c] = kind
    free = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in path]
    letter = [[rng.choice(letters) for _ in range(cols)] for _ in range(rows)]

    def build() -> PipeLevel:
        return PipeLevel(tuple(tuple(Cell(kinds[r][c], letter[r][c]) if kinds[r][c] != "."
                                     else Cell(None, None) for c in range(cols))
                               for r in range(rows)))

    count = count_level(build())
    budget = 40 * len(free) + 40
    while count != target and budget > 0 and free:
        budget -= 1
        r, c = rng.choice(free)
        old = kinds[r][c]
        choices = [k for k in "IL" if k != old]
        if rng.random() < empty_rate:
            choices = ["."]
        kinds[r][c] = rng.choice(choices)
        new = count_level(build())
        if abs(new - target) <= abs(count - target):
            count = new
        else:
            kinds[r][c] = old
        report(count)
    return build() if count == target else None


def _random_path(rng: random.Random, rows: int, cols: int) -> dict[tuple[int, int], str] | None:
    """A random self-avoiding path from the top of the top-left cell to the bottom of the
    bottom-right one, as cell -> the kind it needs (I straight, L elbow)."""
    goal = (rows - 1, cols - 1)
    stack = [((0, 0), [(0, 0)])]
    tries = 0
    while stack and tries < 20_000:
        tries += 1
        cell, path = stack.pop()
        if cell == goal:
            return _kinds_along([(-1, 0), *path, (rows, cols - 1)])
        seen = set(path)
        moves = [(cell[0] + dr, cell[1] + dc) for dr, dc in STEPS.values()]
        rng.shuffle(moves)
        for nxt in moves:
            if 0 <= nxt[0] < rows and 0 <= nxt[1] < cols and nxt not in seen:
                stack.append((nxt, [*path, nxt]))
    return None


def _kinds_along(points: list[tuple[int, int]]) -> dict[tuple[int, int], str]:
    out = {}
    for prev, cell, nxt in zip(points, points[1:], points[2:], strict=False):
        straight = prev[0] == nxt[0] or prev[1] == nxt[1]
        out[cell] = "I" if straight else "L"
    return out


def difficulty(level: PipeLevel) -> int:
    """Partial paths explored by a plain depth-first search from the tap (see the module
    docstring)."""
    rows, cols = level.rows, level.cols
    tap_row, tap_col, tap_side = level.tap
    drain_row, drain_col, drain_side = level.drain
    nodes = 0
    # State: cell (0-based), the side water enters by, cells used.
    stack = [((tap_row - 1, tap_col - 1), tap_side, frozenset())]
    while stack:
        (r, c), entered, used = stack.pop()
        if not (0 <= r < rows and 0 <= c < cols) or (r, c) in used:
            continue
        kind = level.cells[r][c].kind
        if kind is None:
            continue
        nodes += 1
        used = used | {(r, c)}
        exits = ([OPPOSITE[entered]] if kind == "I" else
                 [s for s in STEPS if s not in (entered, OPPOSITE[entered])])
        for side in exits:
            if (r + 1, c + 1) == (drain_row, drain_col) and side == drain_side:
                continue  # a solution: nothing further to explore on this branch
            dr, dc = STEPS[side]
            stack.append(((r + dr, c + dc), OPPOSITE[side], used))
    return nodes
