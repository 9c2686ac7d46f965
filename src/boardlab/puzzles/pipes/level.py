"""Levels of the pipe puzzle (Plumber): a grid of pipe segments with letters, a tap and
a drain.

The rules and the level file format are on :doc:`/pipes`. A cell holds a
**straight** (``I``: water goes through to the opposite side), an **elbow** (``L``: water
turns 90 degrees either way; segments may be rotated freely) or nothing (``.``: water
cannot pass). Every segment carries one letter, any single non-space character.

Text form (round-trips: ``PipeLevel.parse(str(level)) == level``)::

    # comment lines and blank lines are ignored
    tap: 1 1 top
    drain: 2 3 bottom
    LA IK LE
    LD .  LZ

Rows and columns are 1-based. The ``tap:`` and ``drain:`` headers come before the grid and
are optional: the tap defaults to the top of the top-left cell and the drain to the
bottom of the bottom-right cell, and ``str`` writes them only when they differ from the
defaults. A tap or drain side must face outside the grid, on a cell with a segment.

>>> level = PipeLevel.parse("LA IK\\nLD LZ")
>>> (level.rows, level.cols, level.tap, level.drain)
(2, 2, (1, 1, 'top'), (2, 2, 'bottom'))
>>> level.cell(1, 2)
Cell(kind='I', letter='K')
>>> print(level, end="")
LA IK
LD LZ
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from boardlab.errors import NotationError, PuzzleError

#: Segment kinds: a straight and an elbow.
STRAIGHT = "I"
ELBOW = "L"
KINDS = (STRAIGHT, ELBOW)
#: The text of a cell without a segment.
EMPTY = "."
#: The sides of a cell, and the (row, col) step from a cell to its neighbour on each side.
SIDES = {"top": (-1, 0), "left": (0, -1), "right": (0, 1), "bottom": (1, 0)}

#: A tap or drain: (row, col, side), 1-based.
Port = tuple[int, int, str]

_HEADER = re.compile(r"\s*([^\s:]+)\s*:")
_TOKEN = re.compile(r"\S+")


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell: ``kind`` is ``'I'``, ``'L'`` or ``None`` (no segment, letter ``None``)."""

    kind: str | None
    letter: str | None = None

    def __post_init__(self) -> None:
        if self.kind is None:
            if self.letter is not None:
                raise PuzzleError("a cell without a segment has no letter")
            return
        if self.kind not in KINDS:
            raise PuzzleError(f"unknown cell kind {self.kind!r} (use I, L or .)")
        if not isinstance(self.letter, str) or len(self.letter) != 1 or self.letter.isspace():
            raise PuzzleError(f"a segment needs one non-space letter, got {self.letter!r}")

    @property
    def is_empty(self) -> bool:
        """True for ``.``: no segment, water cannot pass."""
        return self.kind is None

    def __str__(self) -> str:
        return EMPTY if self.kind is None else f"{self.kind}{self.letter}"


def outside(rows: int, cols: int, port: Port) -> tuple[int, int]:
    """The pseudo-cell just outside the grid on the port's side, e.g. ``(0, 1)`` for the
    default tap (above cell 1-1)."""
    row, col, side = port
    dr, dc = SIDES[side]
    return row + dr, col + dc


def _port_problem(cells: tuple[tuple[Cell, ...], ...], port: Port) -> str | None:
    """Why ``port`` cannot be a tap or drain of this grid, or ``None``."""
    rows, cols = len(cells), len(cells[0])
    row, col, side = port
    if side not in SIDES:
        return f"unknown side {side!r} (use {', '.join(SIDES)})"
    if not (1 <= row <= rows and 1 <= col <= cols):
        return f"cell {row}-{col} is outside the {rows}x{cols} grid"
    r, c = outside(rows, cols, port)
    if 1 <= r <= rows and 1 <= c <= cols:
        return f"the {side} side of cell {row}-{col} does not face outside the grid"
    if cells[row - 1][col - 1].is_empty:
        return f"cell {row}-{col} has no segment"
    return None


@dataclass(frozen=True)
class PipeLevel:
    """A pipe puzzle: ``cells[row - 1][col - 1]`` for 1-based rows and columns, the tap
    (where water enters) and the drain (where it must leave).

    ``tap`` and ``drain`` default to ``(1, 1, 'top')`` and ``(rows, cols, 'bottom')``.
    """

    cells: tuple[tuple[Cell, ...], ...]
    tap: Port = field(default=None)  # type: ignore[assignment]
    drain: Port = field(default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        cells = tuple(tuple(row) for row in self.cells)
        if not cells or not cells[0]:
            raise PuzzleError("a level needs at least one cell")
        if any(len(row) != len(cells[0]) for row in cells):
            raise PuzzleError("all rows of a level must have the same number of cells")
        object.__setattr__(self, "cells", cells)
        if self.tap is None:
            object.__setattr__(self, "tap", (1, 1, "top"))
        if self.drain is None:
            object.__setattr__(self, "drain", (len(cells), len(cells[0]), "bottom"))
        for name in ("tap", "drain"):
            port = tuple(getattr(self, name))
            object.__setattr__(self, name, port)
            problem = _port_problem(cells, port) if len(port) == 3 else "needs row, col, side"
            if problem is not None:
                raise PuzzleError(f"{name}: {problem}")

    @property
    def rows(self) -> int:
        return len(self.cells)

    @property
    def cols(self) -> int:
        return len(self.cells[0])

    def cell(self, row: int, col: int) -> Cell:
        """The cell at 1-based ``row``, ``col``."""
        if not (1 <= row <= self.rows and 1 <= col <= self.cols):
            raise PuzzleError(f"cell {row}-{col} is outside the {self.rows}x{self.cols} grid")
        return self.cells[row - 1][col - 1]

    @property
    def default_tap(self) -> Port:
        return (1, 1, "top")

    @property
    def default_drain(self) -> Port:
        return (self.rows, self.cols, "bottom")

    def __str__(self) -> str:
        lines = []
        if self.tap != self.default_tap:
            lines.append("tap: {} {} {}".format(*self.tap))
        if self.drain != self.default_drain:
            lines.append("drain: {} {} {}".format(*self.drain))
        lines.extend(" ".join(str(c) for c in row) for row in self.cells)
        return "\n".join(lines) + "\n"

    @classmethod
    def parse(cls, text: str, where: str = "level") -> PipeLevel:
        """Read the text form; a :class:`NotationError` names ``where``, the line and
        the column of the problem.

        >>> PipeLevel.parse("LA XB")
        Traceback (most recent call last):
        ...
        boardlab.errors.NotationError: level line 1, column 4: unknown cell kind 'X' (use I, L or .)
        """
        def error(message: str, line: int, column: int) -> NotationError:
            return NotationError(message, where=f"{where} line {line}, column {column}")

        text = text.removeprefix("\ufeff")
        ports: dict[str, tuple[Port, int, int]] = {}
        rows: list[tuple[Cell, ...]] = []
        # (line, column) of every cell, to point at a default tap or drain on a '.'.
        positions: list[list[tuple[int, int]]] = []
        lines = text.splitlines()
        for number, line in enumerate(lines, start=1):
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            header = _HEADER.match(line)
            if header and header.group(1) not in (*KINDS, EMPTY):
                name = header.group(1).lower()
                column = header.start(1) + 1
                if name not in ("tap", "drain"):
                    raise error(f"unknown header {header.group(1)!r} (use tap: or drain:)",
                                number, column)
                if rows:
                    raise error(f"the {name}: header must come before the grid", number, column)
                if name in ports:
                    raise error(f"a second {name}: header", number, column)
                ports[name] = _parse_port(line, header.end(), name, number, error)
                continue
            row: list[Cell] = []
            positions.append([])
            for token in _TOKEN.finditer(line):
                word, column = token.group(), token.start() + 1
                positions[-1].append((number, column))
                if word == EMPTY:
                    row.append(Cell(None))
                    continue
                if word[0] == EMPTY:
                    raise error(f"cell {word!r}: '.' takes no letter", number, column + 1)
                if word[0] not in KINDS:
                    raise error(f"unknown cell kind {word[0]!r} (use I, L or .)", number, column)
                if len(word) == 1:
                    raise error(f"cell {word!r} has no letter", number, column + 1)
                if len(word) > 2:
                    raise error(f"cell {word!r} has more than one letter", number, column + 2)
                row.append(Cell(word[0], word[1]))
                if rows and len(row) > len(rows[0]):
                    raise error(f"row {len(rows) + 1} has more cells than row 1 "
                                f"({len(rows[0])})", number, column)
            if rows and len(row) < len(rows[0]):
                raise error(f"row {len(rows) + 1} has {len(row)} cells, row 1 has "
                            f"{len(rows[0])}", number, len(line.rstrip()) + 1)
            rows.append(tuple(row))
        if not rows:
            raise error("no grid: a level needs at least one row of cells",
                        len(lines) + 1, 1)
        cells = tuple(rows)
        defaults = {"tap": (1, 1, "top"), "drain": (len(cells), len(cells[0]), "bottom")}
        for name, default in defaults.items():
            if name not in ports:
                row, col = default[0], default[1]
                ports[name] = (default, *positions[row - 1][col - 1])
        for name, (port, number, column) in ports.items():
            problem = _port_problem(cells, port)
            if problem is not None:
                raise error(f"{name}: {problem}", number, column)
        return cls(cells, tap=ports["tap"][0], drain=ports["drain"][0])


def _parse_port(line: str, start: int, name: str, number: int, error) -> tuple[Port, int, int]:
    """The ``ROW COL SIDE`` after a header's colon, with the line and column of ROW."""
    tokens = list(_TOKEN.finditer(line, start))
    column = tokens[0].start() + 1 if tokens else len(line) + 1
    if len(tokens) != 3:
        raise error(f"{name}: needs ROW COL SIDE, e.g. '{name}: 1 1 top'", number, column)
    values = []
    for token in tokens[:2]:
        if not re.fullmatch(r"[0-9]+", token.group()):
            raise error(f"{name}: {token.group()!r} is not a row or column number",
                        number, token.start() + 1)
        values.append(int(token.group()))
    side = tokens[2].group().lower()
    if side not in SIDES:
        raise error(f"{name}: unknown side {tokens[2].group()!r} (use {', '.join(SIDES)})",
                    number, tokens[2].start() + 1)
    return (values[0], values[1], side), number, column
