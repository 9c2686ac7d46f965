"""Board topologies: square, hexagonal and 3-D grids, graphs, layers.

A :class:`Board` is an immutable set of named cells (indexed 0..n-1 for speed)
with named directions between them, as in Zillions of Games' ZRF ``board``
section:

* ``links``: for each direction, the cell one step away or ``-1`` off the board;
* ``symmetry``: a per-player renaming of directions (ZRF ``symmetry``), so that
  "forward" for the second player is "south" on the board;
* ``zones``: named sets of cells per player (ZRF ``zone``);
* :meth:`Board.without` removes cells (ZRF ``kill-positions``), :meth:`Board.link`
  adds extra links, :meth:`Board.layered` stacks copies of the cells in several
  layers joined by ``up``/``down`` links (GESS and the quantum games overlay two
  boards on the same cells).

Cell names never contain spaces or the characters ``-@=`` used by move notation.
"""

from __future__ import annotations

import itertools
import re
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from boardlab.errors import BoardError

SQUARE_DIRECTIONS: dict[str, tuple[int, int]] = {
    "n": (0, 1), "s": (0, -1), "e": (1, 0), "w": (-1, 0),
    "ne": (1, 1), "nw": (-1, 1), "se": (1, -1), "sw": (-1, -1),
}
ORTHOGONAL = ("n", "s", "e", "w")
DIAGONAL = ("ne", "nw", "se", "sw")

# Pointy-top hexagons in axial coordinates (q along a row, r up the board): rows are
# horizontal, so the six neighbours are east/west and the four diagonals.
HEX_DIRECTIONS: dict[str, tuple[int, int]] = {
    "e": (1, 0), "w": (-1, 0), "ne": (1, 1), "sw": (-1, -1), "nw": (0, 1), "se": (0, -1),
}

_BAD_NAME = re.compile(r"[\s@=-]")


def file_letters(n: int) -> list[str]:
    """Column names a, b, ..., z, aa, ab, ... for ``n`` columns."""
    letters = string.ascii_lowercase
    out = []
    for i in range(n):
        name = ""
        i += 1
        while i:
            i, r = divmod(i - 1, 26)
            name = letters[r] + name
        out.append(name)
    return out


def _opposite_of(vec: Sequence[int], vectors: Mapping[str, Sequence[int]]) -> str | None:
    neg = tuple(-v for v in vec)
    for name, other in vectors.items():
        if tuple(other) == neg:
            return name
    return None


@dataclass(frozen=True, eq=False)
class Board:
    """An immutable board: cells, directions, links, symmetries, zones.

    Build boards with the class methods (:meth:`square`, :meth:`hexagon`,
    :meth:`hex_cells`, :meth:`grid3d`, :meth:`graph`) and refine them with
    :meth:`without`, :meth:`link`, :meth:`with_zone`, :meth:`with_symmetry` and
    :meth:`layered`; every refinement returns a new board.

    >>> b = Board.square(3, 3)
    >>> b.cell_name(b.step(b.cell("a1"), "ne"))
    'b2'
    >>> b.step(b.cell("a1"), "s")
    -1
    """

    names: tuple[str, ...]
    coords: tuple[tuple[int, ...], ...]
    directions: tuple[str, ...]
    links: tuple[tuple[int, ...], ...]  # links[d][cell]
    opposite: Mapping[str, str] = field(default_factory=dict)
    symmetry: Mapping[int, Mapping[str, str]] = field(default_factory=dict)
    zones: Mapping[str, Mapping[int, frozenset[int]]] = field(default_factory=dict)
    kind: str = "graph"
    layer_names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(set(self.names)) != len(self.names):
            dup = sorted({n for n in self.names if self.names.count(n) > 1})
            raise BoardError(f"duplicate cell names: {', '.join(dup)}")
        for name in self.names:
            if not name or _BAD_NAME.search(name):
                raise BoardError(f"cell name {name!r} is empty or contains space, -, @ or =")
        object.__setattr__(self, "_index", {n: i for i, n in enumerate(self.names)})
        object.__setattr__(self, "_dir_index", {d: i for i, d in enumerate(self.directions)})
        # Each player's direction rows, made here once: move generation steps through
        # them without name lookups (players without a symmetry share the board's own).
        object.__setattr__(self, "_links_of", {
            player: self._rows_for(player) for player in (None, *self.symmetry)})

    # --- lookup -------------------------------------------------------------------
    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def cell(self, name: str) -> int:
        """The index of the cell called ``name``; :class:`BoardError` if there is none."""
        try:
            return self._index[name]  # type: ignore[attr-defined]
        except KeyError:
            raise BoardError(f"no cell {name!r} on this board") from None

    def has_cell(self, name: str) -> bool:
        """Whether a cell is called ``name``."""
        return name in self._index  # type: ignore[attr-defined]

    def cell_name(self, cell: int) -> str:
        """The name of cell index ``cell``."""
        return self.names[cell]

    def direction_index(self, direction: str) -> int:
        """The index of a direction name; :class:`BoardError` if unknown."""
        try:
            return self._dir_index[direction]  # type: ignore[attr-defined]
        except KeyError:
            raise BoardError(f"no direction {direction!r}; "
                             f"directions: {', '.join(self.directions)}") from None

    def player_direction(self, player: int, direction: str) -> str:
        """The board direction that ``direction`` means for ``player`` (ZRF symmetry)."""
        return self.symmetry.get(player, {}).get(direction, direction)

    def player_links(self, player: int) -> dict[str, tuple[int, ...]]:
        """Direction name -> its link row as ``player`` sees it (made once per board:
        move generation steps through these rows without name lookups)."""
        links = self._links_of  # type: ignore[attr-defined]
        return links.get(player) or links[None]

    def _rows_for(self, player: int | None) -> dict[str, tuple[int, ...]]:
        turned = self.symmetry.get(player, {}) if player is not None else {}
        return {d: self.links[self.direction_index(turned.get(d, d))]
                for d in {*self.directions, *turned}}

    def step(self, cell: int, direction: str, player: int = 0) -> int:
        """The cell one step from ``cell`` in ``direction`` as seen by ``player``, or -1."""
        d = self.direction_index(self.player_direction(player, direction))
        return self.links[d][cell]

    def neighbours(self, cell: int) -> list[int]:
        """Distinct cells linked from ``cell`` in any direction, in direction order."""
        out: list[int] = []
        for row in self.links:
            nxt = row[cell]
            if nxt >= 0 and nxt not in out:
                out.append(nxt)
        return out

    def ray(self, cell: int, direction: str, player: int = 0) -> list[int]:
        """The cells met walking from ``cell`` (excluded) in ``direction`` until the edge."""
        row = self.links[self.direction_index(self.player_direction(player, direction))]
        out = []
        nxt = row[cell]
        while nxt >= 0 and nxt not in out:
            out.append(nxt)
            nxt = row[nxt]
        return out

    def in_zone(self, zone: str, player: int, cell: int) -> bool:
        """Whether ``cell`` is in ``player``'s part of ``zone``."""
        try:
            return cell in self.zones[zone][player]
        except KeyError:
            if zone not in self.zones:
                raise BoardError(f"no zone {zone!r}") from None
            return False

    # --- constructors -------------------------------------------------------------
    @classmethod
    def square(cls, width: int, height: int, *, diagonals: bool = True,
               names: Sequence[str] | None = None) -> Board:
        """A ``width`` x ``height`` grid, cells named a1 (bottom left) .. ; index = y*width+x.

        Directions n, s, e, w and, with ``diagonals``, ne, nw, se, sw.
        """
        if width < 1 or height < 1:
            raise BoardError(f"a square board needs positive sizes, got {width}x{height}")
        files = file_letters(width)
        coords = [(x, y) for y in range(height) for x in range(width)]
        cell_names = names or [f"{files[x]}{y + 1}" for x, y in coords]
        dirs = {k: v for k, v in SQUARE_DIRECTIONS.items()
                if diagonals or k in ORTHOGONAL}
        return cls._from_vectors(cell_names, coords, dirs, kind="square")

    @classmethod
    def hex_cells(cls, cells: Iterable[tuple[int, int]], *,
                  names: Sequence[str] | None = None) -> Board:
        """A board of pointy-top hexagons at the given axial ``(q, r)`` coordinates.

        Any set of cells makes a board (transformable boards are just data). Cells
        are ordered by row (``r``) then ``q``; default names are a row letter (``a``
        for the lowest row) and the 1-based ``q`` offset from the smallest ``q``,
        which for :meth:`hexagon` gives Abalone's standard names (A1..I9, lowercase).
        """
        coords = sorted(set(cells), key=lambda c: (c[1], c[0]))
        if not coords:
            raise BoardError("a hex board needs at least one cell")
        if names is None:
            q0 = min(q for q, _ in coords)
            r0 = min(r for _, r in coords)
            rows = file_letters(max(r for _, r in coords) - r0 + 1)
            names = [f"{rows[r - r0]}{q - q0 + 1}" for q, r in coords]
        return cls._from_vectors(names, coords, HEX_DIRECTIONS, kind="hex")

    @classmethod
    def hexagon(cls, side: int) -> Board:
        """A hexagon-shaped hex board with ``side`` cells on each edge (Abalone: 5)."""
        if side < 1:
            raise BoardError(f"hexagon side must be positive, got {side}")
        n = side - 1
        cells = [(q, r) for r in range(-n, n + 1) for q in range(-n, n + 1)
                 if abs(q - r) <= n]
        return cls.hex_cells(cells)

    @classmethod
    def grid3d(cls, width: int, height: int, depth: int) -> Board:
        """A 3-D grid; cells named file, rank, level letter (``a1A``); 26 directions.

        Direction names join n/s, e/w and u/d (up, down): ``n``, ``neu``, ``d``...
        """
        files = file_letters(width)
        levels = string.ascii_uppercase
        if depth > len(levels):
            raise BoardError("at most 26 levels")
        coords = [(x, y, z) for z in range(depth) for y in range(height) for x in range(width)]
        cell_names = [f"{files[x]}{y + 1}{levels[z]}" for x, y, z in coords]
        dirs: dict[str, tuple[int, int, int]] = {}
        for dx, dy, dz in itertools.product((0, 1, -1), repeat=3):
            if (dx, dy, dz) == (0, 0, 0):
                continue
            name = ({1: "n", -1: "s", 0: ""}[dy] + {1: "e", -1: "w", 0: ""}[dx]
                    + {1: "u", -1: "d", 0: ""}[dz])
            dirs[name] = (dx, dy, dz)
        return cls._from_vectors(cell_names, coords, dirs, kind="grid3d")

    @classmethod
    def graph(cls, names: Sequence[str], links: Iterable[tuple[str, str, str]], *,
              opposite: Mapping[str, str] | None = None,
              coords: Sequence[tuple[int, ...]] | None = None) -> Board:
        """A board of named cells joined by ``(from, direction, to)`` links.

        With ``opposite`` (e.g. ``{"n": "s", ...}``) every link also gets its reverse.
        """
        names = list(names)
        index = {n: i for i, n in enumerate(names)}
        link_list = list(links)
        opposite = dict(opposite or {})
        directions: list[str] = []
        for _, d, _ in link_list:
            for dd in (d, opposite.get(d)):
                if dd is not None and dd not in directions:
                    directions.append(dd)
        table = {d: [-1] * len(names) for d in directions}
        for a, d, b in link_list:
            for x in (a, b):
                if x not in index:
                    raise BoardError(f"link {a}-{d}-{b} names unknown cell {x!r}")
            table[d][index[a]] = index[b]
            if d in opposite:
                table[opposite[d]][index[b]] = index[a]
        return cls(names=tuple(names),
                   coords=tuple(coords) if coords else tuple((i,) for i in range(len(names))),
                   directions=tuple(directions),
                   links=tuple(tuple(table[d]) for d in directions),
                   opposite=opposite)

    @classmethod
    def _from_vectors(cls, names: Sequence[str], coords: Sequence[tuple[int, ...]],
                      vectors: Mapping[str, Sequence[int]], kind: str) -> Board:
        where = {c: i for i, c in enumerate(coords)}
        links = []
        for vec in vectors.values():
            links.append(tuple(where.get(tuple(a + b for a, b in zip(c, vec, strict=True)), -1)
                               for c in coords))
        opposite = {d: o for d, v in vectors.items() if (o := _opposite_of(v, vectors))}
        return cls(names=tuple(names), coords=tuple(tuple(c) for c in coords),
                   directions=tuple(vectors), links=tuple(links), opposite=opposite,
                   kind=kind)

    # --- refinements --------------------------------------------------------------
    def _replace(self, **changes: object) -> Board:
        fields = dict(names=self.names, coords=self.coords, directions=self.directions,
                      links=self.links, opposite=self.opposite, symmetry=self.symmetry,
                      zones=self.zones, kind=self.kind, layer_names=self.layer_names)
        fields.update(changes)
        return Board(**fields)  # type: ignore[arg-type]

    def without(self, cells: Iterable[str]) -> Board:
        """The board with the named cells removed (ZRF ``kill-positions``); links to them
        become off-board and the remaining cells are renumbered in order."""
        dead = {self.cell(n) for n in cells}
        keep = [i for i in range(self.size) if i not in dead]
        new_index = {old: new for new, old in enumerate(keep)}
        links = tuple(tuple(new_index.get(row[i], -1) if row[i] >= 0 else -1 for i in keep)
                      for row in self.links)
        zones = {z: {p: frozenset(new_index[c] for c in cs if c in new_index)
                     for p, cs in per.items()} for z, per in self.zones.items()}
        return self._replace(names=tuple(self.names[i] for i in keep),
                             coords=tuple(self.coords[i] for i in keep), links=links,
                             zones=zones)

    def link(self, source: str, direction: str, target: str) -> Board:
        """The board with an extra link (a new direction name is allowed)."""
        a, b = self.cell(source), self.cell(target)
        directions = list(self.directions)
        links = [list(row) for row in self.links]
        if direction not in directions:
            directions.append(direction)
            links.append([-1] * self.size)
        links[directions.index(direction)][a] = b
        return self._replace(directions=tuple(directions),
                             links=tuple(tuple(r) for r in links))

    def with_zone(self, zone: str, player: int, cells: Iterable[str]) -> Board:
        """The board with ``player``'s part of ``zone`` set to the named cells."""
        zones = {z: dict(per) for z, per in self.zones.items()}
        zones.setdefault(zone, {})[player] = frozenset(self.cell(n) for n in cells)
        return self._replace(zones=zones)

    def with_symmetry(self, player: int, mapping: Mapping[str, str]) -> Board:
        """The board where, for ``player``, direction ``d`` means ``mapping[d]``."""
        for d in (*mapping, *mapping.values()):
            self.direction_index(d)
        sym = {p: dict(m) for p, m in self.symmetry.items()}
        sym[player] = dict(mapping)
        return self._replace(symmetry=sym)

    def rotated_for(self, player: int) -> Board:
        """The board where every direction of ``player`` is reversed (a 180-degree turn,
        the usual ZRF symmetry of the second player)."""
        return self.with_symmetry(player, dict(self.opposite))

    def layered(self, layers: Sequence[str]) -> Board:
        """Several copies of the cells, one per layer name, joined by ``up``/``down``.

        Cell ``c`` of layer ``L`` is named ``L.c`` and has index ``k * size + c`` for
        the ``k``-th layer; within a layer the links are the original ones.
        """
        if len(layers) < 2 or len(set(layers)) != len(layers):
            raise BoardError("layered() needs at least two distinct layer names")
        n = self.size
        names = tuple(f"{layer}.{c}" for layer in layers for c in self.names)
        coords = tuple((*c, k) for k in range(len(layers)) for c in self.coords)
        links = [tuple(x + k * n if x >= 0 else -1 for k in range(len(layers)) for x in row)
                 for row in self.links]
        up = tuple(i + n if i + n < n * len(layers) else -1 for i in range(n * len(layers)))
        down = tuple(i - n if i >= n else -1 for i in range(n * len(layers)))
        opposite = dict(self.opposite) | {"up": "down", "down": "up"}
        return self._replace(names=names, coords=coords,
                             directions=(*self.directions, "up", "down"),
                             links=(*links, up, down), opposite=opposite,
                             zones={}, layer_names=tuple(layers))
