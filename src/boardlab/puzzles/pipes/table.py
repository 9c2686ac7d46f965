"""The seed's per-cell table of a pipe level, as CSV: one line ``y,x,type,lit`` per cell.

The article (seeds/001, :doc:`/pipes`) kept its grid in a MySQL table with one row per
segment: ``y`` the row, ``x`` the column (both 1-based), ``type`` 1 for an elbow and 0 for
a straight, ``lit`` the segment's letter. :func:`parse_table` reads that table exported as
CSV and gives the same :class:`~boardlab.puzzles.pipes.level.PipeLevel` as the level's
text form; :func:`table_text` writes it back.

The format:

* fields are separated by commas (or by semicolons or tabs, as a spreadsheet in another
  locale writes them: the first line with a cell decides); a field may be quoted with
  ``"`` (``""`` inside quotes is one ``"``), so a comma can be a letter; spaces around an
  unquoted field are ignored;
* an optional header line names the four columns, in any order (``lit,type,x,y``); without
  it the order is ``y,x,type,lit``;
* ``type`` is ``0`` (straight), ``1`` (elbow) or ``.`` (no segment, with an empty ``lit``);
  ``lit`` is one character that is not a space;
* the lines may come in any order; every cell of the rectangle from ``1,1`` to the largest
  ``y`` and ``x`` must be given exactly once, up to :data:`MAX_SIDE` rows and columns;
* blank lines and lines starting with ``#`` are ignored, as is a byte order mark.

A table has no tap or drain: its level has the default ones (the top of cell 1-1 and
the bottom of the last cell), as the seed's grid has.

Every problem is a :class:`~boardlab.errors.NotationError` naming the line and the column.

>>> level = parse_table("y,x,type,lit\\n1,1,1,A\\n1,2,0,K\\n2,2,1,Z\\n2,1,1,D\\n")
>>> print(level, end="")
LA IK
LD LZ
>>> print(table_text(level), end="")
y,x,type,lit
1,1,1,A
1,2,0,K
2,1,1,D
2,2,1,Z
>>> parse_table("1,1,1,A\\n1,1,0,B", "seed.csv")
Traceback (most recent call last):
...
boardlab.errors.NotationError: seed.csv line 2, column 1: cell 1-1 is given twice (first on line 1)
"""

from __future__ import annotations

from boardlab.errors import NotationError, PuzzleError
from boardlab.puzzles.pipes.level import ELBOW, STRAIGHT, Cell, PipeLevel

#: The columns of the seed's table, in its order.
COLUMNS = ("y", "x", "type", "lit")
#: The most rows and columns a table may give (a level of 10,000 cells).
MAX_SIDE = 100
#: ``type`` values: the seed's 0 and 1, and ``.`` for a cell without a segment.
TYPES = {"0": STRAIGHT, "1": ELBOW, ".": None}
_DELIMITERS = (",", ";", "\t")


def _fields(line: str, delimiter: str, error) -> list[tuple[str, int]]:
    """The fields of one line with the 1-based column where each starts; quotes as in CSV."""
    fields: list[tuple[str, int]] = []
    i, n = 0, len(line)
    while True:
        while i < n and line[i] in " \t" and line[i] != delimiter:
            i += 1
        start = i
        if i < n and line[i] == '"':
            value = []
            i += 1
            while True:
                if i >= n:
                    raise error("a quoted field is not closed", start + 1)
                if line[i] == '"':
                    if i + 1 < n and line[i + 1] == '"':
                        value.append('"')
                        i += 2
                        continue
                    i += 1
                    break
                value.append(line[i])
                i += 1
            while i < n and line[i] in " \t" and line[i] != delimiter:
                i += 1
            if i < n and line[i] != delimiter:
                raise error("text after a quoted field", i + 1)
            fields.append(("".join(value), start + 1))
        else:
            end = line.find(delimiter, i)
            end = n if end < 0 else end
            fields.append((line[i:end].strip(" \t"), start + 1))
            i = end
        if i >= n:
            return fields
        i += 1      # the delimiter


def _delimiter(line: str) -> str:
    """The separator of the first data line: a comma unless it has none and a semicolon
    or a tab."""
    for delimiter in _DELIMITERS:
        if delimiter in line:
            return delimiter
    return ","


def parse_table(text: str, where: str = "table") -> PipeLevel:
    """The level of a CSV table ``y,x,type,lit`` (see the module docstring); a
    :class:`NotationError` names ``where``, the line and the column of the first problem."""
    def error(message: str, line: int, column: int) -> NotationError:
        return NotationError(message, where=f"{where} line {line}, column {column}")

    text = text.removeprefix("\ufeff")
    lines = text.splitlines()
    order: tuple[int, ...] | None = None
    delimiter: str | None = None
    cells: dict[tuple[int, int], tuple[Cell, int]] = {}
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if delimiter is None:
            delimiter = _delimiter(line)

        def at(message: str, column: int, number: int = number) -> NotationError:
            return error(message, number, column)

        fields = _fields(line, delimiter, at)
        if order is None:
            names = [value.strip().lower() for value, _ in fields]
            if any(name in COLUMNS for name in names):
                for (value, column), name in zip(fields, names, strict=True):
                    if name not in COLUMNS:
                        raise at(f"unknown column {value!r} in the header (use "
                                 f"{', '.join(COLUMNS)})", column)
                    if names.count(name) > 1:
                        raise at(f"the header names column {name!r} twice", column)
                missing = [name for name in COLUMNS if name not in names]
                if missing:
                    raise at(f"the header lacks the column{'s' if len(missing) > 1 else ''} "
                             f"{', '.join(missing)}", len(line.rstrip()) + 1)
                order = tuple(names.index(name) for name in COLUMNS)
                continue
            order = (0, 1, 2, 3)
        if len(fields) != len(COLUMNS):
            column = fields[len(COLUMNS)][1] if len(fields) > len(COLUMNS) \
                else len(line.rstrip()) + 1
            raise at(f"{len(fields)} field{'' if len(fields) == 1 else 's'}, want "
                     f"{len(COLUMNS)} ({','.join(COLUMNS)})", column)
        y, x, kind, letter = (fields[i] for i in order)
        position = []
        for (value, column), name in ((y, "y (the row)"), (x, "x (the column)")):
            if not (value.isascii() and value.isdigit()) or len(value) > 6:
                raise at(f"{name} must be a whole number from 1 to {MAX_SIDE}, not "
                         f"{value!r}", column)
            if not 1 <= int(value) <= MAX_SIDE:
                raise at(f"{name} {int(value)} is out of bounds: 1 to {MAX_SIDE}", column)
            position.append(int(value))
        if kind[0] not in TYPES:
            raise at(f"type must be 1 (elbow), 0 (straight) or . (no segment), not "
                     f"{kind[0]!r}", kind[1])
        segment = TYPES[kind[0]]
        if segment is None:
            if letter[0]:
                raise at(f"a cell without a segment (type .) has no letter, not "
                         f"{letter[0]!r}", letter[1])
            cell = Cell(None)
        else:
            if len(letter[0]) != 1 or letter[0].isspace():
                what = "none" if not letter[0] else repr(letter[0])
                raise at(f"lit must be one letter (a character that is not a space), not "
                         f"{what}", letter[1])
            cell = Cell(segment, letter[0])
        key = (position[0], position[1])
        if key in cells:
            raise at(f"cell {key[0]}-{key[1]} is given twice (first on line "
                     f"{cells[key][1]})", y[1])
        cells[key] = (cell, number)
    end = len(lines) + 1
    if not cells:
        raise error("no cells: a table needs one line y,x,type,lit per cell", end, 1)
    rows = max(r for r, _ in cells)
    cols = max(c for _, c in cells)
    for r in range(1, rows + 1):
        given = [c for c in range(1, cols + 1) if (r, c) in cells]
        for c in range(1, cols + 1):
            if (r, c) not in cells:
                shape = (f"row {r} has {len(given)} of the grid's {cols} cells; "
                         if given else f"row {r} has no cell; ")
                raise error(f"cell {r}-{c} is missing: {shape}the grid is {rows}x{cols} "
                            f"(the largest y and x) and every cell needs one line", end, 1)
    grid = tuple(tuple(cells[r, c][0] for c in range(1, cols + 1))
                 for r in range(1, rows + 1))
    try:
        return PipeLevel(grid)
    except PuzzleError as e:    # a default tap or drain on a cell without a segment
        first = cells[1, 1] if "tap" in str(e) else cells[rows, cols]
        raise error(str(e), first[1], 1) from None


def table_text(level: PipeLevel) -> str:
    """The level as a CSV table with a header, row by row; :class:`PuzzleError` for a
    level whose tap or drain is not the default (a table cannot say where they are)."""
    if level.tap != level.default_tap or level.drain != level.default_drain:
        raise PuzzleError("a table has no tap or drain: only a level with the default tap "
                          "(top of cell 1-1) and drain (bottom of the last cell) can be "
                          "written as one")
    lines = [",".join(COLUMNS)]
    for r, row in enumerate(level.cells, start=1):
        for c, cell in enumerate(row, start=1):
            if cell.is_empty:
                lines.append(f"{r},{c},.,")
                continue
            letter = cell.letter or ""
            if letter in ',;"' or letter == "\t":
                letter = '"' + letter.replace('"', '""') + '"'
            lines.append(f"{r},{c},{1 if cell.kind == ELBOW else 0},{letter}")
    return "\n".join(lines) + "\n"


#: The forms a level file may take.
FORMATS = ("text", "csv")


def detect_format(text: str, name: str | None = None) -> str:
    """``"csv"`` for a file named ``*.csv`` or whose first line that is not blank or a
    comment starts with a digit or a header column; ``"text"`` otherwise.

    >>> detect_format("LA IK"), detect_format("1,1,1,A"), detect_format("LA", "a.csv")
    ('text', 'csv', 'csv')
    """
    if name is not None:
        suffix = name.rsplit(".", 1)[-1].lower() if "." in name else ""
        if suffix == "csv":
            return "csv"
        if suffix == "txt":
            return "text"
    for line in text.removeprefix("\ufeff").splitlines():
        stripped = line.strip().lstrip('"').lower()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped[0].isdigit() or stripped.startswith(COLUMNS):
            return "csv"
        return "text"
    return "text"


def parse_level(text: str, where: str = "level", format: str = "auto") -> PipeLevel:
    """A level in either form: ``format`` is ``"text"``, ``"csv"`` or ``"auto"``
    (:func:`detect_format` of the text and of ``where`` as a file name)."""
    if format == "auto":
        format = detect_format(text, where)
    if format == "csv":
        return parse_table(text, where)
    if format == "text":
        return PipeLevel.parse(text, where)
    raise PuzzleError(f"unknown level format {format!r} (use text, csv or auto)")


__all__ = ["COLUMNS", "FORMATS", "MAX_SIDE", "detect_format", "parse_level", "parse_table",
           "table_text"]
