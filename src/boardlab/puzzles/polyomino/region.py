"""Regions to pack polyominoes into: rectangles and arbitrary sets of cells.

A :class:`Region` is a non-empty set of cells ``(x, y)`` (x to the right, y *down*, as
drawn in text, the convention of :mod:`boardlab.puzzles.polyomino.shapes`), normalised
so that its smallest x and y are 0. Triplex levels are rectangles
(:doc:`/triplex`); other shapes (a board with holes, the classic 8x8 minus
the centre) come from :meth:`Region.parse`.

Text form: rows of ``#`` (a cell of the region) and ``.`` (outside), the rows of the
bounding box; ``Region.parse(str(r)) == r``.

Symmetries act on the bounding box: symmetry ``k`` in 0..7 is ``k % 4`` quarter turns
then, when ``k >= 4``, a mirror (x -> -x), the numbering of
:meth:`Shape.transformed <boardlab.puzzles.polyomino.shapes.Shape.transformed>`,
followed by the translation that brings the box back to the origin. Those that keep
the box's dimensions (all 8 for a square box, 4 otherwise) are the symmetries of the
box; :meth:`Region.symmetries` keeps those that map the region onto itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from boardlab.errors import NotationError
from boardlab.puzzles.polyomino.shapes import Cell, CellSet, normalise


def transform_cell(cell: Cell, k: int, width: int, height: int) -> Cell:
    """The image of ``cell`` of a ``width`` x ``height`` box under symmetry ``k``.

    The image lies in the transformed box, which is ``height`` x ``width`` when ``k``
    is an odd number of quarter turns.

    >>> transform_cell((0, 0), 1, 3, 2)  # a quarter turn: the top-left corner goes right
    (1, 0)
    >>> transform_cell((0, 0), 4, 3, 2)  # the mirror x -> -x
    (2, 0)
    """
    if not 0 <= k < 8:
        raise ValueError(f"symmetry {k} is not in 0..7")
    x, y = cell
    w, h = width, height
    for _ in range(k % 4):
        # (x, y) -> (-y, x), then shift x back into the box (new width is the old height)
        x, y = h - 1 - y, x
        w, h = h, w
    if k >= 4:
        x = w - 1 - x
    return x, y


def box_symmetries(width: int, height: int) -> tuple[int, ...]:
    """The symmetries (0..7) that map a ``width`` x ``height`` box onto itself.

    >>> box_symmetries(3, 2)
    (0, 2, 4, 6)
    >>> len(box_symmetries(4, 4))
    8
    """
    return tuple(range(8)) if width == height else (0, 2, 4, 6)


@dataclass(frozen=True)
class Region(CellSet):
    """A non-empty set of cells, normalised (smallest x and y are 0), sorted by (y, x).

    >>> r = Region.parse("###\\n#.#")
    >>> r.size, r.width, r.height, r.is_rectangle
    (5, 3, 2, False)
    >>> print(r)
    ###
    #.#
    >>> r.symmetries()  # identity and the mirror x -> -x
    (0, 4)
    >>> Region.rectangle(6, 10).size
    60
    """

    cells: tuple[Cell, ...]

    def __post_init__(self) -> None:
        if not self.cells:
            raise NotationError("a region needs at least one cell")

    @staticmethod
    def of(cells: Iterable[Cell]) -> Region:
        """The region of any cells (translated so that min x = min y = 0)."""
        normal = normalise(cells)
        if not normal:
            raise NotationError("a region needs at least one cell")
        return Region(normal)

    @staticmethod
    def rectangle(width: int, height: int) -> Region:
        """The full ``width`` x ``height`` rectangle."""
        if width < 1 or height < 1:
            raise NotationError(f"a rectangle needs positive sides, not {width}x{height}")
        return Region(tuple((x, y) for y in range(height) for x in range(width)))

    @staticmethod
    def parse(text: str, where: str = "region") -> Region:
        """Read rows of ``#`` (cell) and ``.`` (outside); a :class:`NotationError` names
        the line and column of a bad character."""
        cells = []
        for y, line in enumerate(text.strip("\n").splitlines()):
            for x, ch in enumerate(line.rstrip()):
                if ch == "#":
                    cells.append((x, y))
                elif ch not in ". ":
                    raise NotationError(f"unexpected {ch!r} (use # and .)",
                                        where=f"{where}, line {y + 1}, column {x + 1}")
        if not cells:
            raise NotationError("a region needs at least one # cell", where=where)
        return Region.of(cells)

    @property
    def is_rectangle(self) -> bool:
        """Whether the region fills its bounding box."""
        return self.size == self.width * self.height

    def __contains__(self, cell: object) -> bool:
        return cell in self._cell_set()

    def _cell_set(self) -> frozenset[Cell]:
        return frozenset(self.cells)

    def transformed(self, k: int) -> Region:
        """The image of the region under symmetry ``k`` of its bounding box."""
        w, h = self.width, self.height
        return Region.of(transform_cell(c, k, w, h) for c in self.cells)

    def symmetries(self) -> tuple[int, ...]:
        """The symmetries of the bounding box (see the module docstring) that map the
        region onto itself, identity (0) first."""
        return tuple(k for k in box_symmetries(self.width, self.height)
                     if self.transformed(k) == self)

    def __str__(self) -> str:
        cells = self._cell_set()
        return "\n".join("".join("#" if (x, y) in cells else "." for x in range(self.width))
                         for y in range(self.height))
