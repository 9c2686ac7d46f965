"""Levels of polyomino packing puzzles: a rectangle, its pieces and their one solution.

The rules are on :doc:`/triplex` ("A level", "The rotatable piece"). A
:class:`Level` is what the generator produces and the level pack stores: the rectangle,
the pieces, where each piece goes in the solution, the one piece the player may turn (and
the orientation it is shown in) and the solver's difficulty. A :class:`Puzzle` is what
the player sees: the rectangle and the pieces, the rotatable one drawn in its shown
orientation, and no solution; it is the input of ``boardlab triplex solve`` and the
payload of an encrypted level in a pack (``pack.py``).

Values are canonical, so that equal levels compare equal: pieces are sorted (by size,
height, width, cells), identical pieces are adjacent and ordered by where they go in the
solution (top-most, then left-most first), and the rotatable index names the first of its
identical pieces. Identical pieces are interchangeable, so swapping two of them gives the
same ``Level``.

Text forms (both round-trip: ``Level.parse(str(level)) == level``)::

    level 4x2              puzzle 4x2
    abbc                   difficulty 3
    aacc
    rotatable a shown 1    rotatable
    difficulty 3           ##
                           .#
                           <blank>
                           2x
                           #.
                           ##

The level form draws the solution as a grid of letters, one letter per piece, assigned by
first appearance in row-major order (``a`` for the piece covering the top-left cell); the
grid alone determines the pieces. The puzzle form draws each piece with ``#`` and ``.``,
pieces separated by blank lines, a line ``Nx`` before a piece repeated N times and a
line ``rotatable`` before each piece the player may turn. Lines starting with ``;`` are
comments. docs/polyomino-pack.md describes both forms, the JSON forms and the canonical
solution encoding that level codes are derived from.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from boardlab.errors import PuzzleError
from boardlab.puzzles.polyomino.shapes import Cell, Shape, shape_order

#: The letters of the solution grid, in order of first appearance.
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
#: A level has at most one piece per letter.
MAX_PIECES = len(LETTERS)

#: The cells one piece covers in the solution, sorted top to bottom, left to right.
Placement = tuple[Cell, ...]

_LEVEL_HEADER = re.compile(r"level\s+(\d+)\s*x\s*(\d+)", re.IGNORECASE)
_PUZZLE_HEADER = re.compile(r"puzzle\s+(\d+)\s*x\s*(\d+)", re.IGNORECASE)
_ROTATABLE_LINE = re.compile(r"rotatable\s+(\S)\s+shown\s+(\d+)", re.IGNORECASE)
_DIFFICULTY_LINE = re.compile(r"difficulty\s+(\d+)", re.IGNORECASE)
_COUNT_LINE = re.compile(r"(\d+)\s*[x×]", re.IGNORECASE)


def _row_major(cells: Iterable[Cell]) -> Placement:
    return tuple(sorted(cells, key=lambda c: (c[1], c[0])))


def _placement_key(placement: Placement) -> list[tuple[int, int]]:
    return [(y, x) for x, y in placement]


def _drawing(shape: Shape) -> str:
    return str(shape).replace("\n", "/")


def _cells_text(cells: Iterable[Cell]) -> str:
    return ", ".join(f"({x}, {y})" for x, y in cells)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_size(width: Any, height: Any) -> None:
    if not (_is_int(width) and _is_int(height)):
        raise PuzzleError(f"width and height must be integers, got {width!r} and {height!r}")
    if width < 2 or height < 2:
        raise PuzzleError(f"both sides of the rectangle must be at least 2, got {width}x{height}")


def _check_pieces(pieces: tuple) -> None:
    if not pieces:
        raise PuzzleError("there are no pieces")
    for i, piece in enumerate(pieces):
        if not isinstance(piece, Shape):
            raise PuzzleError(f"piece {i} is not a Shape: {piece!r}")
        problem = _shape_problem(piece)
        if problem:
            raise PuzzleError(f"piece {i} {problem}")


@lru_cache(maxsize=4096)  # levels repeat a few shapes; bounded for shapes from requests
def _shape_problem(piece: Shape) -> str | None:
    if Shape.of(piece.cells) != piece:
        return f"is not a normalised Shape (use Shape.of): {piece!r}"
    if not piece.is_connected():
        return f"({_drawing(piece)}) is not connected"
    return None


def _is_placed(piece: Shape, placement: Placement) -> bool:
    """Whether ``placement`` (row-major, as :func:`_row_major` sorts) is ``piece``
    translated: ``piece.cells`` are row-major too, so a translate keeps the order."""
    if len(placement) != len(piece.cells):
        return False
    (x0, y0), (px, py) = placement[0], piece.cells[0]
    dx, dy = x0 - px, y0 - py
    return all(x == cx + dx and y == cy + dy
               for (x, y), (cx, cy) in zip(placement, piece.cells, strict=True))


def _check_difficulty(difficulty: Any) -> None:
    if difficulty is not None and not (_is_int(difficulty) and difficulty >= 0):
        raise PuzzleError(f"difficulty must be a non-negative integer or None, got "
                          f"{difficulty!r}")


def _area_message(pieces: Sequence[Shape], width: int, height: int) -> str | None:
    total = sum(p.size for p in pieces)
    if total == width * height:
        return None
    return (f"the pieces have {total} cells in all but the {width}x{height} rectangle has "
            f"{width * height}")


def _split_cell(cells: Sequence[Cell]) -> Cell | None:
    """The first cell (row-major) not edge-connected to ``cells[0]``, or None."""
    todo = [cells[0]]
    seen = {cells[0]}
    rest = set(cells)
    while todo:
        x, y = todo.pop()
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n in rest and n not in seen:
                seen.add(n)
                todo.append(n)
    missing = [c for c in cells if c not in seen]
    return _row_major(missing)[0] if missing else None


def _indices(value: Any, what: str) -> tuple[int, ...]:
    """``value`` (None, an index or a sequence of indices) as a tuple of indices."""
    if value is None:
        return ()
    if _is_int(value):
        return (value,)
    if isinstance(value, (tuple, list)) and all(_is_int(v) for v in value):
        return tuple(value)
    raise PuzzleError(f"{what} must be an index, a list of indices or None, got {value!r}")


def _first_of_groups(ordered: Sequence[Shape], shapes: Iterable[Shape]) -> tuple[int, ...]:
    """Indices in ``ordered`` for pieces of ``shapes`` (a multiset): the first pieces of
    each run of identical ones, which are interchangeable."""
    taken: Counter = Counter()
    out = []
    for shape in shapes:
        out.append(ordered.index(shape) + taken[shape])
        taken[shape] += 1
    return tuple(out)


def _groups(pieces: Sequence[Shape]) -> list[tuple[Shape, int, int]]:
    """Runs of identical pieces: (shape, first index, count)."""
    out: list[tuple[Shape, int, int]] = []
    for i, piece in enumerate(pieces):
        if out and out[-1][0] == piece:
            shape, start, count = out[-1]
            out[-1] = (shape, start, count + 1)
        else:
            out.append((piece, i, 1))
    return out


def canonical_solution(grid: Sequence[Sequence[Hashable]]) -> bytes:
    """The canonical byte encoding of a solution given as a grid of piece labels.

    Labels (any hashable, one per piece) are replaced by :data:`LETTERS` in order of
    first appearance, reading rows top to bottom and each row left to right; rows are
    joined with ``/``; the result is ASCII. Which label a piece had, and so which of two
    identical pieces went where, does not matter. This is what level codes are derived
    from (docs/polyomino-pack.md); :meth:`Level.solution_checksum` gives the same bytes.

    >>> canonical_solution(["xyyz", "xxzz"])
    b'abbc/aacc'
    >>> canonical_solution([[7, 7, 3], [7, 5, 3]])
    b'aab/acb'
    """
    letters: dict[Hashable, str] = {}
    rows: list[str] = []
    width = None
    for y, row in enumerate(grid):
        row = list(row)
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise PuzzleError(f"row {y + 1} of the solution has {len(row)} cells, expected "
                              f"{width}")
        line = []
        for label in row:
            if label not in letters:
                if len(letters) == MAX_PIECES:
                    raise PuzzleError(f"a solution has at most {MAX_PIECES} pieces")
                letters[label] = LETTERS[len(letters)]
            line.append(letters[label])
        rows.append("".join(line))
    if not rows or not width:
        raise PuzzleError("the solution grid is empty")
    return "/".join(rows).encode("ascii")


def _json_int(obj: Mapping, key: str, where: str, *, optional: bool = False) -> int | None:
    if key not in obj:
        if optional:
            return None
        raise PuzzleError(f"{where}: missing field {key!r}")
    value = obj[key]
    if value is None and optional:
        return None
    if not _is_int(value):
        raise PuzzleError(f"{where}: field {key!r}: expected an integer, got {value!r}")
    return value


def _one_or_list(values: tuple) -> Any:
    """The JSON of a tuple of rotatable pieces or orientations: null, one value, or a
    list of several (packs of one rotatable piece keep their format)."""
    return None if not values else values[0] if len(values) == 1 else list(values)


def _json_indices(obj: Mapping, key: str, where: str) -> tuple[int, ...]:
    value = obj.get(key)
    if value is None or _is_int(value):
        return _indices(value, key)
    if (isinstance(value, list) and len(value) >= 2
            and all(_is_int(v) and v >= 0 for v in value)):
        return tuple(value)
    raise PuzzleError(f"{where}: field {key!r}: expected null, an index or a list of "
                      f"indices, got {value!r}")


def _json_object(obj: Any, where: str) -> Mapping:
    if not isinstance(obj, Mapping):
        raise PuzzleError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    return obj


def canonical_json(obj: Any) -> bytes:
    """Compact JSON with sorted keys, as UTF-8: the byte form encrypted in a pack."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False
                      ).encode("utf-8")


def _content_lines(text: str) -> list[tuple[int, str]]:
    """Numbered lines (1-based), right-stripped."""
    return [(number, line.rstrip()) for number, line in enumerate(text.splitlines(), start=1)]


def _is_skippable(line: str) -> bool:
    return not line.strip() or line.lstrip().startswith(";")


@dataclass(frozen=True)
class Puzzle:
    """A level as the player sees it: a rectangle and pieces, no solution.

    ``rotatable`` holds the indices of the pieces the player may turn (usually none or
    one), each drawn in the orientation it is shown in; the others are fixed. The
    constructor also takes one index or None. ``difficulty`` is carried along for display.

    >>> p = Puzzle.parse("puzzle 4x2\\n\\n##\\n\\n2x\\n#.\\n##\\n")
    >>> p.width, p.height, len(p.pieces), p.rotatable
    (4, 2, 3, ())
    >>> Puzzle.parse(str(p)) == p
    True
    """

    width: int
    height: int
    pieces: tuple[Shape, ...]
    rotatable: tuple[int, ...] = ()
    difficulty: int | None = None

    def __post_init__(self) -> None:
        _check_size(self.width, self.height)
        pieces = tuple(self.pieces)
        _check_pieces(pieces)
        rotatable = _indices(self.rotatable, "rotatable")
        for i in rotatable:
            if not 0 <= i < len(pieces):
                raise PuzzleError(f"rotatable piece {i!r} is out of range: there are "
                                  f"{len(pieces)} pieces")
        if len(set(rotatable)) != len(rotatable):
            raise PuzzleError(f"rotatable pieces {list(rotatable)} name a piece twice")
        message = _area_message(pieces, self.width, self.height)
        if message:
            raise PuzzleError(message)
        _check_difficulty(self.difficulty)
        ordered = tuple(sorted(pieces, key=shape_order))
        object.__setattr__(self, "pieces", ordered)
        object.__setattr__(self, "rotatable", tuple(sorted(_first_of_groups(
            ordered, sorted((pieces[i] for i in rotatable), key=shape_order)))))

    # -- text form -------------------------------------------------------------------

    def __str__(self) -> str:
        blocks = [f"puzzle {self.width}x{self.height}"
                  + (f"\ndifficulty {self.difficulty}" if self.difficulty is not None else "")]
        for shape, start, count in _groups(self.pieces):
            for i in range(start, start + count):
                if i in self.rotatable:
                    blocks.append(f"rotatable\n{shape}")
                    count -= 1
            if count:
                blocks.append((f"{count}x\n" if count > 1 else "") + str(shape))
        return "\n\n".join(blocks) + "\n"

    @staticmethod
    def parse(text: str, where: str = "puzzle text") -> Puzzle:
        """Read the puzzle text form; :class:`PuzzleError` names the line and column."""
        lines = _content_lines(text)
        body = iter(lines)
        for number, line in body:
            if _is_skippable(line):
                continue
            m = _PUZZLE_HEADER.fullmatch(line.strip())
            if not m:
                raise PuzzleError(f"{where}, line {number}: expected a header like "
                                  f"'puzzle 5x3', got {line.strip()!r}")
            width, height = int(m[1]), int(m[2])
            break
        else:
            raise PuzzleError(f"{where}: empty (expected a header like 'puzzle 5x3')")

        pieces: list[Shape] = []
        rotatable: list[int] = []
        difficulty: int | None = None
        # the block being read: line of its first line, count, rotatable?, drawing rows
        block: dict[str, Any] | None = None

        def close() -> None:
            nonlocal block, rotatable
            if block is None:
                return
            if not block["rows"]:
                raise PuzzleError(f"{where}, line {block['line']}: a piece drawing must "
                                  f"follow {block['prefix']!r}")
            cells = [(x, y) for y, (_, row) in enumerate(block["rows"])
                     for x, ch in enumerate(row) if ch == "#"]
            first_line = block["rows"][0][0]
            if not cells:
                raise PuzzleError(f"{where}, line {first_line}: a piece needs at least one #")
            split = _split_cell(_row_major(cells))
            if split is not None:
                raise PuzzleError(f"{where}, line {first_line + split[1]}, column "
                                  f"{split[0] + 1}: this cell is not connected to the rest "
                                  f"of the piece (a blank line separates pieces)")
            if block["rotatable"]:
                rotatable.append(len(pieces))
            pieces.extend([Shape.of(cells)] * block["count"])
            block = None

        for number, line in body:
            stripped = line.strip()
            if stripped.startswith(";"):
                continue
            if not stripped:
                close()
                continue
            m = _DIFFICULTY_LINE.fullmatch(stripped)
            if m:
                if difficulty is not None:
                    raise PuzzleError(f"{where}, line {number}: a second difficulty line")
                difficulty = int(m[1])
                continue
            count = _COUNT_LINE.fullmatch(stripped)
            if count or stripped.lower() == "rotatable":
                if block is not None:
                    raise PuzzleError(f"{where}, line {number}: {stripped!r} must start a "
                                      f"piece (put a blank line before it)")
                if count and int(count[1]) < 1:
                    raise PuzzleError(f"{where}, line {number}: a count must be at least 1")
                block = {"line": number, "prefix": stripped, "rows": [],
                         "count": int(count[1]) if count else 1, "rotatable": not count}
                continue
            for column, ch in enumerate(line, start=1):
                if ch not in "#. ":
                    raise PuzzleError(f"{where}, line {number}, column {column}: unexpected "
                                      f"{ch!r} (draw pieces with # and .)")
            if block is None:
                block = {"line": number, "prefix": "", "rows": [], "count": 1,
                         "rotatable": False}
            block["rows"].append((number, line))
        close()
        if not pieces:
            raise PuzzleError(f"{where}: no pieces found")
        try:
            return Puzzle(width, height, tuple(pieces), tuple(rotatable), difficulty)
        except PuzzleError as e:
            raise PuzzleError(f"{where}: {e}") from None

    # -- JSON form -------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """``{"width", "height", "pieces": [[[x, y], ...], ...], "rotatable", "difficulty"}``
        with pieces in canonical order; ``rotatable`` indexes ``pieces``: null for no
        rotatable piece, an index for one, a list of indices for several."""
        return {
            "width": self.width,
            "height": self.height,
            "pieces": [[list(cell) for cell in piece.cells] for piece in self.pieces],
            "rotatable": _one_or_list(self.rotatable),
            "difficulty": self.difficulty,
        }

    @staticmethod
    def from_json(obj: Any, where: str = "puzzle JSON") -> Puzzle:
        """Read :meth:`to_json`'s form; errors name the field."""
        obj = _json_object(obj, where)
        width = _json_int(obj, "width", where)
        height = _json_int(obj, "height", where)
        raw = obj.get("pieces")
        if not isinstance(raw, list) or not raw:
            raise PuzzleError(f"{where}: field 'pieces': expected a non-empty list of pieces")
        pieces = []
        for i, piece in enumerate(raw):
            if not isinstance(piece, list) or not piece:
                raise PuzzleError(f"{where}: field 'pieces[{i}]': expected a list of [x, y]")
            for j, cell in enumerate(piece):
                if not (isinstance(cell, list) and len(cell) == 2
                        and all(_is_int(v) for v in cell)):
                    raise PuzzleError(f"{where}: field 'pieces[{i}][{j}]': expected [x, y], "
                                      f"got {cell!r}")
            shape = Shape.of(tuple(c) for c in piece)
            if shape.size != len(piece):
                raise PuzzleError(f"{where}: field 'pieces[{i}]': a cell appears twice")
            pieces.append(shape)
        try:
            return Puzzle(width, height, tuple(pieces), _json_indices(obj, "rotatable", where),
                          _json_int(obj, "difficulty", where, optional=True))
        except PuzzleError as e:
            raise PuzzleError(f"{where}: {e}") from None


def solution_checksum(width: int, height: int, solution: Iterable[Iterable[Cell]]) -> bytes:
    """:meth:`Level.solution_checksum` of a tiling given as the cells of each piece (in
    any order), without building the level: the rows of the grid with each piece's letter
    given by its first cell in reading order."""
    grid = [[-1] * width for _ in range(height)]
    for i, cells in enumerate(solution):
        for x, y in cells:
            grid[y][x] = i
    letters: dict[int, str] = {}
    rows = ["".join(letters.setdefault(i, LETTERS[len(letters)]) for i in row) for row in grid]
    return "/".join(rows).encode("ascii")


@dataclass(frozen=True)
class Level:
    """A puzzle with its solution: ``solution[i]`` is where ``pieces[i]`` goes.

    ``rotatable`` holds the indices of the pieces the player may turn (usually none or
    one) and ``shown_orientation``, beside it, the orientation each is shown in, an index
    into ``pieces[i].orientations()``; ``pieces[i]`` itself is the orientation the
    solution uses. The constructor also takes one index (and one orientation) or None.
    ``difficulty`` is the solver's step count (None until rated).
    Construction canonicalises the order of the pieces (see the module docstring) and
    raises :class:`PuzzleError` naming the problem (the cell, the piece, both areas).

    >>> level = Level.parse("level 4x2\\nabbc\\naacc\\n")
    >>> [str(p).replace("\\n", "/") for p in level.pieces]
    ['##', '#./##', '.#/##']
    >>> level.solution[0]
    ((1, 0), (2, 0))
    >>> level.solution_checksum()
    b'abbc/aacc'
    >>> Level.parse(str(level)) == level
    True
    """

    width: int
    height: int
    pieces: tuple[Shape, ...]
    solution: tuple[Placement, ...]
    rotatable: tuple[int, ...] = ()
    shown_orientation: tuple[int, ...] = ()
    difficulty: int | None = None

    def __post_init__(self) -> None:
        width, height = self.width, self.height
        _check_size(width, height)
        pieces = tuple(self.pieces)
        _check_pieces(pieces)
        if len(pieces) > MAX_PIECES:
            raise PuzzleError(f"a level has at most {MAX_PIECES} pieces, got {len(pieces)}")
        solution = self._normalised_solution(pieces)
        self._check_rotatable(pieces)
        _check_difficulty(self.difficulty)

        message = _area_message(pieces, width, height)
        if message:
            covered = {c for p in solution for c in p}
            uncovered = [(x, y) for y in range(height) for x in range(width)
                         if (x, y) not in covered]
            if uncovered and sum(p.size for p in pieces) < width * height:
                message += f": cell {_cells_text(uncovered[:1])} is left uncovered"
            raise PuzzleError(message)
        owner: dict[Cell, int] = {}
        for i, (piece, placement) in enumerate(zip(pieces, solution, strict=True)):
            if not _is_placed(piece, placement):
                raise PuzzleError(f"piece {i} ({_drawing(piece)}) is placed on "
                                  f"{_cells_text(placement)}, which is not its shape")
            for x, y in placement:
                if not (0 <= x < width and 0 <= y < height):
                    raise PuzzleError(f"piece {i} covers cell ({x}, {y}), outside the "
                                      f"{width}x{height} rectangle")
                if (x, y) in owner:
                    raise PuzzleError(f"cell ({x}, {y}) is covered by pieces {owner[x, y]} "
                                      f"and {i}")
                owner[x, y] = i
        # area matches and nothing overlaps or sticks out, so every cell is covered

        order = sorted(range(len(pieces)),
                       key=lambda i: (shape_order(pieces[i]), _placement_key(solution[i])))
        ordered = tuple(pieces[i] for i in order)
        object.__setattr__(self, "pieces", ordered)
        object.__setattr__(self, "solution", tuple(solution[i] for i in order))
        # identical pieces are interchangeable: the turning ones are the first of their
        # run, their shown orientations in increasing order
        turning = sorted(((pieces[i], shown) for i, shown in zip(
            self.rotatable, self.shown_orientation, strict=True)),
            key=lambda pair: (shape_order(pair[0]), pair[1]))
        indices = _first_of_groups(ordered, (shape for shape, _ in turning))
        object.__setattr__(self, "rotatable", indices)
        object.__setattr__(self, "shown_orientation", tuple(shown for _, shown in turning))

    def _normalised_solution(self, pieces: tuple[Shape, ...]) -> tuple[Placement, ...]:
        raw = tuple(self.solution)
        if len(raw) != len(pieces):
            raise PuzzleError(f"the solution places {len(raw)} pieces but there are "
                              f"{len(pieces)}")
        solution = []
        for i, placement in enumerate(raw):
            cells = []
            for cell in placement:
                if (type(cell) is tuple and len(cell) == 2 and type(cell[0]) is int
                        and type(cell[1]) is int):
                    cells.append(cell)  # the common case, checked without the ABC test
                    continue
                if not (isinstance(cell, Sequence) and len(cell) == 2
                        and all(_is_int(v) for v in cell)):
                    raise PuzzleError(f"the placement of piece {i} has a bad cell {cell!r}")
                cells.append((cell[0], cell[1]))
            if len(set(cells)) != len(cells):
                raise PuzzleError(f"the placement of piece {i} lists a cell twice")
            if not cells:
                raise PuzzleError(f"the placement of piece {i} is empty")
            solution.append(_row_major(cells))
        object.__setattr__(self, "solution", tuple(solution))
        return tuple(solution)

    def _check_rotatable(self, pieces: tuple[Shape, ...]) -> None:
        rotatable = _indices(self.rotatable, "rotatable")
        shown = _indices(self.shown_orientation, "shown_orientation")
        if len(rotatable) != len(shown):
            raise PuzzleError("rotatable and shown_orientation must be given together "
                              f"(got {self.rotatable!r} and {self.shown_orientation!r})")
        if len(set(rotatable)) != len(rotatable):
            raise PuzzleError(f"rotatable pieces {list(rotatable)} name a piece twice")
        for piece, orientation in zip(rotatable, shown, strict=True):
            if not 0 <= piece < len(pieces):
                raise PuzzleError(f"rotatable piece {piece!r} is out of range: there are "
                                  f"{len(pieces)} pieces")
            count = len(pieces[piece].orientations())
            if not 0 <= orientation < count:
                raise PuzzleError(f"shown orientation {orientation!r} is out of range: piece "
                                  f"{piece} ({_drawing(pieces[piece])}) has {count} "
                                  f"orientations")
        object.__setattr__(self, "rotatable", rotatable)
        object.__setattr__(self, "shown_orientation", shown)

    # -- views -----------------------------------------------------------------------

    def grid(self) -> tuple[tuple[int, ...], ...]:
        """The solution as rows of piece indices: ``grid()[y][x]`` covers cell (x, y)."""
        rows = [[0] * self.width for _ in range(self.height)]
        for i, placement in enumerate(self.solution):
            for x, y in placement:
                rows[y][x] = i
        return tuple(tuple(row) for row in rows)

    def letters(self) -> tuple[str, ...]:
        """The letter of each piece in the text form (by first appearance, row-major)."""
        order = sorted(range(len(self.pieces)), key=lambda i: _placement_key(self.solution[i]))
        out = [""] * len(self.pieces)
        for rank, i in enumerate(order):
            out[i] = LETTERS[rank]
        return tuple(out)

    def rows(self) -> tuple[str, ...]:
        """The solution as rows of letters, as in the text form."""
        letters = self.letters()
        return tuple("".join(letters[i] for i in row) for row in self.grid())

    def solution_checksum(self) -> bytes:
        """The canonical encoding of the solution: :meth:`rows` joined with ``/``, ASCII.

        It depends only on how the rectangle is cut into pieces: letters go by first
        appearance, so it does not matter which of two identical pieces went where (see
        :func:`canonical_solution`). Level codes are derived from it.
        """
        return solution_checksum(self.width, self.height, self.solution)

    @property
    def shown_pieces(self) -> tuple[Shape, ...]:
        """The rotatable pieces in the orientations the player sees."""
        return tuple(self.pieces[i].orientations()[o]
                     for i, o in zip(self.rotatable, self.shown_orientation, strict=True))

    def puzzle(self) -> Puzzle:
        """What the player sees: the pieces, the rotatable ones in their shown
        orientations."""
        pieces = list(self.pieces)
        for i, shown in zip(self.rotatable, self.shown_pieces, strict=True):
            pieces[i] = shown
        return Puzzle(self.width, self.height, tuple(pieces), self.rotatable, self.difficulty)

    # -- construction from other forms -------------------------------------------------

    @staticmethod
    def from_grid(grid: Sequence[Sequence[Hashable]], *,
                  rotatable: Hashable | list[Hashable] | None = None,
                  shown_orientation: int | list[int] | None = None,
                  difficulty: int | None = None) -> Level:
        """A level from its solution drawn as rows of labels, one label per piece.

        ``rotatable`` is the label of the rotatable piece, or a list of the labels of
        several (then ``shown_orientation`` is a list beside it).

        >>> Level.from_grid(["abbb", "aacc"]).pieces[0].cells
        ((0, 0), (1, 0))
        """
        rows = [list(row) for row in grid]
        if not rows or not rows[0]:
            raise PuzzleError("the solution grid is empty")
        width = len(rows[0])
        cells: dict[Hashable, list[Cell]] = {}
        for y, row in enumerate(rows):
            if len(row) != width:
                raise PuzzleError(f"row {y + 1} of the solution has {len(row)} cells, "
                                  f"expected {width}")
            for x, label in enumerate(row):
                cells.setdefault(label, []).append((x, y))
        for label, region in cells.items():
            split = _split_cell(region)
            if split is not None:
                raise PuzzleError(f"piece {label!r} is split: cell ({split[0]}, {split[1]}) "
                                  f"is not connected to cell ({region[0][0]}, "
                                  f"{region[0][1]})")
        labels = list(cells)
        turning = [] if rotatable is None else rotatable if isinstance(rotatable, list) else [
            rotatable]
        for label in turning:
            if label not in cells:
                raise PuzzleError(f"no piece {label!r} in the solution grid")
        return Level(width, len(rows), tuple(Shape.of(cells[k]) for k in labels),
                     tuple(tuple(cells[k]) for k in labels),
                     tuple(labels.index(label) for label in turning),
                     _indices(shown_orientation, "shown_orientation"), difficulty)

    @staticmethod
    def from_puzzle(puzzle: Puzzle, grid: Sequence[Sequence[Hashable]]) -> Level:
        """The level whose puzzle is ``puzzle`` and whose solution is ``grid`` (rows of
        labels); :class:`PuzzleError` if the grid does not use exactly the puzzle's pieces
        (the rotatable one may be turned)."""
        level = Level.from_grid(grid, difficulty=puzzle.difficulty)
        if (level.width, level.height) != (puzzle.width, puzzle.height):
            raise PuzzleError(f"the solution is {level.width}x{level.height} but the puzzle "
                              f"is {puzzle.width}x{puzzle.height}")
        have = Counter(level.pieces)
        fixed = Counter(puzzle.pieces)
        shown = [puzzle.pieces[i] for i in puzzle.rotatable]
        fixed.subtract(shown)
        extra = have - fixed
        missing = +fixed - have
        if missing or sum(extra.values()) != len(shown):
            raise PuzzleError("the solution does not use the puzzle's pieces"
                              + _difference(extra, missing))
        # each extra shape is a rotatable piece turned: match them by the orientations
        # they share (those of one free shape are all alike, so any match will do)
        turned = sorted(extra.elements(), key=shape_order)
        pairs = []
        for piece in shown:
            match = next((t for t in turned if piece in t.orientations()), None)
            if match is None:
                raise PuzzleError(f"the solution uses {_drawing(turned[0])} where the puzzle "
                                  f"has the rotatable piece {_drawing(piece)}, which cannot "
                                  f"turn into it")
            turned.remove(match)
            pairs.append((match, match.orientations().index(piece)))
        return Level(level.width, level.height, level.pieces, level.solution,
                     _first_of_groups(level.pieces, (t for t, _ in pairs)),
                     tuple(o for _, o in pairs), level.difficulty)

    # -- text form ---------------------------------------------------------------------

    def __str__(self) -> str:
        lines = [f"level {self.width}x{self.height}", *self.rows()]
        letters = self.letters()
        for i, shown in zip(self.rotatable, self.shown_orientation, strict=True):
            lines.append(f"rotatable {letters[i]} shown {shown}")
        if self.difficulty is not None:
            lines.append(f"difficulty {self.difficulty}")
        return "\n".join(lines) + "\n"

    @staticmethod
    def parse(text: str, where: str = "level text") -> Level:
        """Read the level text form; :class:`PuzzleError` names the line and column."""
        lines = _content_lines(text)
        i = 0
        while i < len(lines) and _is_skippable(lines[i][1]):
            i += 1
        if i == len(lines):
            raise PuzzleError(f"{where}: empty (expected a header like 'level 5x3')")
        number, header = lines[i]
        m = _LEVEL_HEADER.fullmatch(header.strip())
        if not m:
            raise PuzzleError(f"{where}, line {number}: expected a header like 'level 5x3', "
                              f"got {header.strip()!r}")
        width, height = int(m[1]), int(m[2])
        if width < 2 or height < 2:
            raise PuzzleError(f"{where}, line {number}: both sides of the rectangle must be "
                              f"at least 2, got {width}x{height}")
        grid_lines = lines[i + 1:i + 1 + height]
        if len(grid_lines) < height:
            raise PuzzleError(f"{where}, line {number}: expected {height} grid rows after "
                              f"the header, found {len(grid_lines)}")
        for number, row in grid_lines:
            for column, ch in enumerate(row, start=1):
                if ch not in LETTERS:
                    raise PuzzleError(f"{where}, line {number}, column {column}: unexpected "
                                      f"{ch!r} (one letter a-z, A-Z, 0-9 per piece)")
            if len(row) != width:
                raise PuzzleError(f"{where}, line {number}: the row has {len(row)} cells, "
                                  f"expected {width}")
        first_row = grid_lines[0][0]
        cells: dict[str, list[Cell]] = {}
        for y, (_, row) in enumerate(grid_lines):
            for x, ch in enumerate(row):
                cells.setdefault(ch, []).append((x, y))
        for letter, region in cells.items():
            split = _split_cell(region)
            if split is not None:
                raise PuzzleError(f"{where}, line {first_row + split[1]}, column "
                                  f"{split[0] + 1}: piece {letter!r} is split (this cell is "
                                  f"not connected to its first cell)")

        rotatable: dict[str, int] = {}
        difficulty: int | None = None
        for number, line in lines[i + 1 + height:]:
            if _is_skippable(line):
                continue
            stripped = line.strip()
            if m := _ROTATABLE_LINE.fullmatch(stripped):
                letter, shown = m[1], int(m[2])
                if letter in rotatable:
                    raise PuzzleError(f"{where}, line {number}: a second rotatable line for "
                                      f"piece {letter!r}")
                if letter not in cells:
                    raise PuzzleError(f"{where}, line {number}: no piece {letter!r} in the "
                                      f"grid")
                count = len(Shape.of(cells[letter]).orientations())
                if shown >= count:
                    raise PuzzleError(f"{where}, line {number}: shown orientation {shown} is "
                                      f"out of range: piece {letter!r} has {count} "
                                      f"orientations (0..{count - 1})")
                rotatable[letter] = shown
            elif m := _DIFFICULTY_LINE.fullmatch(stripped):
                if difficulty is not None:
                    raise PuzzleError(f"{where}, line {number}: a second difficulty line")
                difficulty = int(m[1])
            else:
                raise PuzzleError(f"{where}, line {number}: expected 'rotatable <letter> "
                                  f"shown <n>' or 'difficulty <n>', got {stripped!r}")
        try:
            return Level.from_grid([row for _, row in grid_lines],
                                   rotatable=list(rotatable),
                                   shown_orientation=list(rotatable.values()),
                                   difficulty=difficulty)
        except PuzzleError as e:
            raise PuzzleError(f"{where}: {e}") from None

    # -- JSON form ---------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """``{"width", "height", "solution": [rows of letters], "rotatable",
        "shown_orientation", "difficulty"}``: ``rotatable`` a letter and
        ``shown_orientation`` an index for one rotatable piece, null for none, lists beside
        each other for several."""
        letters = self.letters()
        return {
            "width": self.width,
            "height": self.height,
            "solution": list(self.rows()),
            "rotatable": _one_or_list(tuple(letters[i] for i in self.rotatable)),
            "shown_orientation": _one_or_list(self.shown_orientation),
            "difficulty": self.difficulty,
        }

    @staticmethod
    def from_json(obj: Any, where: str = "level JSON") -> Level:
        """Read :meth:`to_json`'s form; errors name the field."""
        obj = _json_object(obj, where)
        width = _json_int(obj, "width", where)
        height = _json_int(obj, "height", where)
        rows = obj.get("solution")
        if not (isinstance(rows, list) and rows and all(isinstance(r, str) for r in rows)):
            raise PuzzleError(f"{where}: field 'solution': expected a list of rows of letters")
        if len(rows) != height or any(len(r) != width for r in rows):
            raise PuzzleError(f"{where}: field 'solution': expected {height} rows of {width} "
                              f"letters for a {width}x{height} level")
        rotatable = obj.get("rotatable")
        if not (rotatable is None or isinstance(rotatable, str) or (
                isinstance(rotatable, list) and len(rotatable) >= 2
                and all(isinstance(r, str) for r in rotatable))):
            raise PuzzleError(f"{where}: field 'rotatable': expected a letter, a list of "
                              f"letters or null, got {rotatable!r}")
        shown = obj.get("shown_orientation")
        shown = (_json_int(obj, "shown_orientation", where, optional=True)
                 if not isinstance(shown, list) else _json_indices(obj, "shown_orientation",
                                                                    where))
        try:
            return Level.from_grid(rows, rotatable=rotatable, shown_orientation=shown,
                                   difficulty=_json_int(obj, "difficulty", where, optional=True))
        except PuzzleError as e:
            raise PuzzleError(f"{where}: {e}") from None


def _difference(extra: Counter, missing: Counter) -> str:
    parts = []
    if extra:
        parts.append("extra " + ", ".join(_drawing(s) for s in extra.elements()))
    if missing:
        parts.append("missing " + ", ".join(_drawing(s) for s in missing.elements()))
    return f" ({'; '.join(parts)})" if parts else ""


def read_puzzle(text: str, where: str = "puzzle text") -> Puzzle:
    """A puzzle from either text form: a ``puzzle WxH`` text, or a ``level WxH`` text
    whose solution is dropped (for ``boardlab triplex solve``)."""
    for _, line in _content_lines(text):
        if _is_skippable(line):
            continue
        if _LEVEL_HEADER.fullmatch(line.strip()):
            return Level.parse(text, where).puzzle()
        break
    return Puzzle.parse(text, where)
