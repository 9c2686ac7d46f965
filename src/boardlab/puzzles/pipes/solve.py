"""Every solution of a pipe puzzle, enumerated lazily by depth-first search.

The rules are on :doc:`/pipes`: water enters the tap cell through the
tap side, a straight passes it on, an elbow turns it left or right, it may not visit a
cell twice nor leave the grid except through the drain side of the drain cell. Each
path is a :class:`Solution`; its code is the letters of its cells in path order.

Order. The search tries a cell's exits in the order up, left, right, down. Only elbows
branch, so this means: an elbow reached vertically sends the water left before right,
one reached horizontally sends it up before down. That is the order of the seed
article's PHP walker, so on the article's grid the solutions come out in its order.

Pruning. Besides dead ends (the grid's edge, a ``.`` cell, a cell already on the path),
a branch is cut as soon as the drain cell can no longer be reached from the head through
free cells (a flood fill that ignores segment kinds). The flood runs only when a move
can cut the free cells apart: when the free cells among the eight around the cell the
head leaves (the new head counted free) fall into several separate runs that each touch
one of its four sides. Otherwise every route that went through the old head can go round
it, so the drain stays reachable.

Random 18x18 grids have more than 10^10 solutions, so :func:`solutions` is a generator.

>>> from boardlab.puzzles.pipes.level import PipeLevel
>>> level = PipeLevel.parse("LA LB\\nLC LD")
>>> [s.code for s in solutions(level)]
[]
>>> level = PipeLevel.parse("LA IB LC\\nLD LE LF\\nLG LH LI")
>>> for s in solutions(level):
...     print(s)
|0-1|1-1|1-2|1-3|2-3|2-2|3-2|3-3|4-3|  ABCFEHI
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from boardlab.errors import NotationError
from boardlab.puzzles.pipes.level import ELBOW, PipeLevel, outside

#: Directions of travel in search order, and their (row, col) steps.
UP, LEFT, RIGHT, DOWN = range(4)
_STEPS = ((-1, 0), (0, -1), (0, 1), (1, 0))
#: The eight cells around a cell in cyclic order, starting above; even positions are
#: the four neighbours.
_RING = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
#: The direction of travel that leaves a cell through each side.
_SIDE_DIRECTION = {"top": UP, "left": LEFT, "right": RIGHT, "bottom": DOWN}


@dataclass(frozen=True, slots=True)
class Solution:
    """A path of water: ``cells`` as 1-based (row, col) in path order, its ``code`` and
    the pseudo-cells just outside the grid at the tap and at the drain (``None``: below
    the last cell, as for the default drain).

    >>> print(Solution(((1, 1), (2, 1)), "AB"))
    |0-1|1-1|2-1|3-1|  AB
    """

    cells: tuple[tuple[int, int], ...]
    code: str
    tap: tuple[int, int] = (0, 1)
    drain: tuple[int, int] | None = None

    @property
    def notation(self) -> str:
        """The seed's ``row-col`` form with the tap and drain pseudo-cells, e.g.
        ``|0-1|1-1|1-2|2-2|3-2|``."""
        drain = self.drain if self.drain is not None else (
            self.cells[-1][0] + 1, self.cells[-1][1])
        cells = (self.tap, *self.cells, drain)
        return "|" + "|".join(f"{r}-{c}" for r, c in cells) + "|"

    def __str__(self) -> str:
        return f"{self.notation}  {self.code}"

    @classmethod
    def parse(cls, text: str, where: str = "solution") -> Solution:
        """Read ``str(solution)``: the notation, two spaces, the code.

        >>> Solution.parse("|0-1|1-1|2-1|3-1|  AB").cells
        ((1, 1), (2, 1))
        """
        notation, separator, code = text.strip().partition("  ")
        try:
            if not separator or not (notation.startswith("|") and notation.endswith("|")):
                raise ValueError
            cells = tuple(tuple(int(x) for x in part.split("-"))
                          for part in notation[1:-1].split("|"))
            if len(cells) < 3 or any(len(cell) != 2 for cell in cells):
                raise ValueError
        except ValueError:
            raise NotationError(f"not a solution: {text.strip()!r} (want |R-C|...|  CODE)",
                                where=where) from None
        return cls(cells[1:-1], code.strip(), cells[0], cells[-1])  # type: ignore[arg-type]


def solutions(level: PipeLevel, limit: int | None = None) -> Iterator[Solution]:
    """The solutions of ``level`` in search order (see the module docstring), at most
    ``limit`` of them; lazily, one search step at a time."""
    if limit is not None and limit <= 0:
        return
    rows, cols = level.rows, level.cols
    size = rows * cols

    def index(r: int, c: int) -> int:
        return r * cols + c if 0 <= r < rows and 0 <= c < cols else size

    # Cell i is (i // cols, i % cols), 0-based; index ``size`` is every cell outside.
    neighbours = [tuple(index(i // cols + dr, i % cols + dc) for dr, dc in _STEPS)
                  for i in range(size)]
    rings = [tuple(index(i // cols + dr, i % cols + dc) for dr, dc in _RING)
             for i in range(size)]
    blocked = bytearray(1 if cell.is_empty else 0 for row in level.cells for cell in row)
    blocked.append(1)
    letters = [cell.letter for row in level.cells for cell in row]
    # exits[i][d]: the directions water may leave cell i in after entering it going d.
    exits: list[tuple[tuple[int, ...], ...]] = []
    for row in level.cells:
        for cell in row:
            if cell.kind == ELBOW:
                exits.append(((LEFT, RIGHT), (UP, DOWN), (UP, DOWN), (LEFT, RIGHT)))
            else:
                exits.append(((UP,), (LEFT,), (RIGHT,), (DOWN,)))
    tap_row, tap_col, tap_side = level.tap
    drain_row, drain_col, drain_side = level.drain
    start = (tap_row - 1) * cols + tap_col - 1
    drain = (drain_row - 1) * cols + drain_col - 1
    entering = 3 - _SIDE_DIRECTION[tap_side]
    leaving = _SIDE_DIRECTION[drain_side]
    tap_outside = outside(rows, cols, level.tap)
    drain_outside = outside(rows, cols, level.drain)
    seen = [0] * size
    stamp = 0

    def reaches_drain(head: int) -> bool:
        """Whether the drain is reachable from ``head`` through free cells."""
        nonlocal stamp
        stamp += 1
        seen[head] = stamp
        frontier = [head]
        while frontier:
            for n in neighbours[frontier.pop()]:
                if n == drain:
                    return True
                if not blocked[n] and seen[n] != stamp:
                    seen[n] = stamp
                    frontier.append(n)
        return False

    found = 0
    path = [start]
    blocked[start] = 1
    if start == drain:
        if leaving in exits[start][entering]:
            yield _solution(path, cols, letters, tap_outside, drain_outside)
        return
    if not reaches_drain(start):
        return
    # One frame per path cell: the directions still to try out of it.
    frames: list[list[int]] = [list(reversed(exits[start][entering]))]
    while frames:
        todo = frames[-1]
        if not todo:
            frames.pop()
            blocked[path.pop()] = 0
            continue
        direction = todo.pop()
        head = path[-1]
        n = neighbours[head][direction]
        if blocked[n]:
            continue
        if n == drain:
            # Water passing through the drain cell could never come back to leave by it.
            if leaving in exits[n][direction]:
                path.append(n)
                yield _solution(path, cols, letters, tap_outside, drain_outside)
                path.pop()
                found += 1
                if limit is not None and found >= limit:
                    return
            continue
        # The free cells around the old head, the new head among them: the move can
        # only cut the drain off if they fall apart into several pieces.
        mask = 0
        for bit, m in enumerate(rings[head]):
            if not blocked[m]:
                mask |= 1 << bit
        blocked[n] = 1
        if _PINCH[mask] and not reaches_drain(n):
            blocked[n] = 0
            continue
        path.append(n)
        frames.append(list(reversed(exits[n][direction])))


def _runs(mask: int) -> tuple[tuple[int, ...], ...]:
    """The separate runs of free cells around a cell (bit i of ``mask`` set: ring
    position i is free) that hold one of its four neighbours, each as the ring positions
    of those neighbours."""
    if mask == 0xFF:
        return ((0, 2, 4, 6),)
    first_blocked = next(i for i in range(8) if not mask >> i & 1)
    runs: list[tuple[int, ...]] = []
    run: list[int] | None = None
    for j in range(1, 9):
        i = (first_blocked + j) % 8
        if mask >> i & 1:
            if run is None:
                run = []
            if i % 2 == 0:
                run.append(i)
        elif run is not None:
            if run:
                runs.append(tuple(run))
            run = None
    return tuple(runs)


#: Whether taking away a cell whose ring has these free cells can cut them apart.
_PINCH = tuple(len(_runs(mask)) > 1 for mask in range(256))


def _solution(path: list[int], cols: int, letters: list[str | None],
              tap: tuple[int, int], drain: tuple[int, int]) -> Solution:
    return Solution(tuple((i // cols + 1, i % cols + 1) for i in path),
                    "".join(letters[i] or "" for i in path), tap, drain)
