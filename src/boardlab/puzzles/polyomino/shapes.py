"""Polyomino shapes: fixed orientations, their rotations/reflections, named sets.

A :class:`Shape` is a set of cells ``(x, y)`` (x to the right, y *down*, as drawn in
text) normalised so that its smallest x and y are 0. Shapes are fixed: Triplex never
rotates a piece except the level's one rotatable piece (:doc:`/triplex`),
so ``Shape`` equality is equality of cell sets, and :meth:`Shape.orientations` gives
the distinct images under the 8 symmetries of the square when a piece may turn.

Text form: rows of ``#`` (cell) and ``.`` (no cell), e.g. ``"##\\n.#"``.

Named sets (:data:`PIECE_SETS`): ``triplex`` (the 8 fixed shapes of 2 and 3 cells),
``tetra`` (the 27 fixed shapes of 2..4 cells), ``penta`` (the 90 fixed shapes of 2..5
cells), ``pentominoes`` (the 12 free pentominoes, one fixed representative each).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache

from boardlab.errors import NotationError
from boardlab.files import read_text

Cell = tuple[int, int]


def normalise(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """Distinct cells translated so that the smallest x and y are 0, sorted by (y, x)."""
    cells = set(cells)
    if not cells:
        return ()
    x0 = min(x for x, _ in cells)
    y0 = min(y for _, y in cells)
    return tuple(sorted(((x - x0, y - y0) for x, y in cells), key=lambda c: (c[1], c[0])))


class CellSet:
    """The geometry shared by shapes and regions: a normalised tuple ``cells``."""

    __slots__ = ()
    cells: tuple[Cell, ...]

    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self.cells)

    @property
    def width(self) -> int:
        """Columns of the bounding box."""
        return max(x for x, _ in self.cells) + 1

    @property
    def height(self) -> int:
        """Rows of the bounding box."""
        return max(y for _, y in self.cells) + 1


@dataclass(frozen=True, order=True)
class Shape(CellSet):
    """A fixed polyomino: a normalised, sorted tuple of ``(x, y)`` cells (y down).

    >>> Shape.parse("##\\n.#").cells
    ((0, 0), (1, 0), (1, 1))
    >>> print(Shape.parse("##\\n.#"))
    ##
    .#
    >>> len(Shape.parse("#.\\n##").orientations())
    4
    """

    cells: tuple[Cell, ...]

    @staticmethod
    def of(cells: Iterable[Cell]) -> Shape:
        """The shape of any cells (translated so min x = min y = 0)."""
        normal = normalise(cells)
        if not normal:
            raise NotationError("a shape needs at least one cell")
        return Shape(normal)

    @staticmethod
    def parse(text: str, where: str = "shape", first_line: int = 1) -> Shape:
        """Read rows of ``#`` and ``.``; :class:`NotationError` names the bad line and
        column (lines counted from ``first_line``, for shapes inside a file)."""
        cells = []
        for y, line in enumerate(text.strip("\n").splitlines()):
            for x, ch in enumerate(line.rstrip()):
                if ch == "#":
                    cells.append((x, y))
                elif ch not in ". ":
                    raise NotationError(f"unexpected {ch!r} (use # and .)",
                                        where=f"{where}, line {first_line + y}, "
                                              f"column {x + 1}")
        if not cells:
            raise NotationError("a shape needs at least one # cell",
                                where=f"{where}, line {first_line}")
        shape = Shape.of(cells)
        if not shape.is_connected():
            raise NotationError("the cells of a shape must be connected",
                                where=f"{where}, line {first_line}")
        return shape

    def is_connected(self) -> bool:
        """Whether the cells are edge-connected."""
        cells = set(self.cells)
        todo = [self.cells[0]]
        seen = {self.cells[0]}
        while todo:
            x, y = todo.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in cells and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return len(seen) == len(cells)

    def transformed(self, k: int) -> Shape:
        """The image under symmetry ``k`` in 0..7: ``k % 4`` quarter turns, then a mirror
        (x -> -x) when ``k >= 4``."""
        cells = self.cells
        for _ in range(k % 4):
            cells = tuple((-y, x) for x, y in cells)
        if k >= 4:
            cells = tuple((-x, y) for x, y in cells)
        return Shape.of(cells)

    def orientations(self) -> tuple[Shape, ...]:
        """The distinct fixed shapes this shape can turn into, itself first."""
        return _orientations(self)

    def free_form(self) -> Shape:
        """A canonical representative of the free shape (the least orientation)."""
        return min(self.orientations())

    def __str__(self) -> str:
        cells = set(self.cells)
        return "\n".join("".join("#" if (x, y) in cells else "." for x in range(self.width))
                         for y in range(self.height))


def shape_order(shape: Shape) -> tuple:
    """The order of shapes in the named sets and in a level's pieces: size, height, width,
    then cells."""
    return (shape.size, shape.height, shape.width, shape.cells)


@lru_cache(maxsize=4096)  # bounded: shapes may come from users' files and requests
def _orientations(shape: Shape) -> tuple[Shape, ...]:
    out: list[Shape] = []
    for k in range(8):
        s = shape.transformed(k)
        if s not in out:
            out.append(s)
    return tuple(out)


@cache
def fixed_polyominoes(size: int) -> tuple[Shape, ...]:
    """All fixed polyominoes of ``size`` cells, sorted (1, 2, 6, 19, 63, 216, ...)."""
    if size < 1:
        return ()
    if size == 1:
        return (Shape(((0, 0),)),)
    out: set[Shape] = set()
    for smaller in fixed_polyominoes(size - 1):
        cells = set(smaller.cells)
        for x, y in smaller.cells:
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n not in cells:
                    out.add(Shape.of([*cells, n]))
    return tuple(sorted(out, key=shape_order))


def free_polyominoes(size: int) -> tuple[Shape, ...]:
    """One representative per free polyomino of ``size`` cells (12 for size 5)."""
    return tuple(sorted({s.free_form() for s in fixed_polyominoes(size)},
                        key=lambda s: (s.height, s.width, s.cells)))


def _fixed_range(low: int, high: int) -> tuple[Shape, ...]:
    return tuple(s for n in range(low, high + 1) for s in fixed_polyominoes(n))


#: Piece sets by name. ``free`` says whether its pieces may rotate/reflect.
PIECE_SETS: dict[str, tuple[tuple[Shape, ...], bool]] = {
    "triplex": (_fixed_range(2, 3), False),
    "tetra": (_fixed_range(2, 4), False),
    "penta": (_fixed_range(2, 5), False),
    "pentominoes": (free_polyominoes(5), True),
}

#: Conventional letters of the 12 free pentominoes, keyed by free form.
PENTOMINO_NAMES: dict[Shape, str] = {}


def _name_pentominoes() -> None:
    drawings = {
        "F": ".##\n##.\n.#.", "I": "#####", "L": "####\n#...", "N": "##..\n.###",
        "P": "##\n##\n#.", "T": "###\n.#.\n.#.", "U": "#.#\n###", "V": "#..\n#..\n###",
        "W": "#..\n##.\n.##", "X": ".#.\n###\n.#.", "Y": "####\n.#..", "Z": "##.\n.#.\n.##",
    }
    for letter, drawing in drawings.items():
        PENTOMINO_NAMES[Shape.parse(drawing).free_form()] = letter


_name_pentominoes()


#: The name a pack records for pieces read from a file (any fixed shapes).
CUSTOM = "custom"


def piece_set(name: str) -> tuple[tuple[Shape, ...], bool]:
    """The shapes of a named set and whether they are free. ``file:PATH`` reads a piece
    file (:func:`parse_piece_file`; fixed shapes). :class:`NotationError` if the name is
    unknown or the file cannot be read or parsed (naming the file and line)."""
    if name.startswith("file:"):
        return _piece_file(name[len("file:"):]), False
    try:
        return PIECE_SETS[name]
    except KeyError:
        raise NotationError(f"unknown piece set {name!r}; known: "
                            f"{', '.join(PIECE_SETS)}, or a piece file") from None


@cache
def _piece_file(path: str) -> tuple[Shape, ...]:
    shapes = parse_piece_file(read_text(path), where=path)
    if len(set(shapes)) != len(shapes):
        raise NotationError("the same shape is drawn twice", where=path)
    return shapes


def parse_piece_file(text: str, where: str = "piece file") -> tuple[Shape, ...]:
    """Shapes drawn with ``#`` and ``.``, separated by blank lines; lines starting with
    ``;`` are comments. Errors name the line."""
    shapes: list[Shape] = []
    block: list[str] = []
    start = 1

    def flush() -> None:
        if block:
            shapes.append(Shape.parse("\n".join(block), where=where, first_line=start))

    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith(";"):
            continue
        if not line.strip():
            flush()
            block = []
            start = number + 1
            continue
        if not block:
            start = number
        block.append(line)
    flush()
    if not shapes:
        raise NotationError("no shapes found", where=where)
    return tuple(shapes)
