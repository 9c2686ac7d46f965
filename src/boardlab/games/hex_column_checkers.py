"""Hex column checkers: Bashni-style column draughts without kings, on a hex board whose
shape is data (Dagaz's "transformable" board, seed 003).

Sources:

* Column capture: Bashni (Stolbovye shashki, "towers"; Russia, described by Viskovatov
  1875 and Sargin 1885) -- Wikipedia, "Bashni"; J. P. Neto, *The World of Abstract
  Games*, "Bashnya"; draughts.github.io/bashni.html. A jumped piece is not removed but
  put *under* the jumping column; a column moves as one piece and belongs to the owner of
  its top piece; jumping a column takes only its top piece, the rest stays where it was
  and belongs to its new top piece's owner. Captures are compulsory, a capture goes on
  while it can, and the player may choose any capture sequence (no majority rule).
* Bashni follows the rules of Russian draughts, whose code includes the "Turkish strike"
  rule: within one move a piece may be jumped only once, and jumped pieces stay on the
  board (as obstacles) until the move is over. Here: a column jumped in a move may not be
  jumped again in that move (it could not be landed on anyway: landing cells are an even
  number of steps from the start along both axes, jumped cells an odd number). World of
  Abstract Games' "Bashnya" says instead that a stack may be attacked twice in one move,
  its tops taken one by one: that is option ``rejump``.
* Hex draughts: Hexdame (Christian Freeling, 1979; Wikipedia, "Hexdame"; mindsports.nl):
  men move one cell forward only, but capture by jumping in all six directions, and a man
  must capture; a player who cannot move loses. The Dagaz article asks for column checkers
  on a hex board *without kings*.

Rules as implemented (decisions marked ``*``):

* Board: any connected set of pointy-top hexagons (axial ``q, r`` cells, see
  :meth:`Board.hex_cells <boardlab.core.board.Board.hex_cells>`); rows are horizontal.
  Option ``shape``: ``hexagon`` (side 5, 61 cells), ``hexagon-6`` (91), ``diamond`` (a
  rhombus standing on a tip, 13 rows, 49 cells), ``star`` (a hexagram, 13 rows, 73
  cells), or ``custom`` with option ``cells`` (below).
* Setup*: White (moves first) fills the ``rows`` lowest rows of the shape, Black the
  ``rows`` highest ones, one man per cell; ``rows`` = 0 means ``(height - 2) // 2``,
  which leaves two or three empty rows in the middle (hexagon: 18 men each; hexagon-6:
  30; diamond: 15; star: 25).
* Moves*: with pointy-top hexagons two of the six directions point toward the opponent
  (White: north-east and north-west; Black: south-east and south-west); the sideways
  east/west directions are not forward. Hexdame's three forward directions come from its
  flat-top board, which has a straight "up" line that pointy-top hexagons lack. A column
  topped by a man steps one cell forward onto an empty cell.
* Captures*: in all six directions (Bashni men capture backward too; Hexdame men capture
  in all six directions): jump over an adjacent column topped by an enemy man onto the
  empty cell right behind it, taking that top man to the bottom of the jumping column.
  The cell the column started from counts as empty. Multi-jumps go on while possible;
  a move ends only where no further jump exists. Any complete sequence may be chosen;
  option ``majority`` requires one taking the most men (as in Hexdame).
* No kings: a man on the far row stays a man; it can no longer step and only captures.
* End: a player without a legal move (no column, or every column blocked) loses.
  Draw*: the published rules end only by blocking or agreement, and columns can be
  captured back and forth forever, so the game is drawn when ``move_limit`` plies have
  been played (default 5 per cell: 305 on the hexagon; random games end by blocking in
  about 110 plies there, 215 on hexagon-6); this draw is not in the published rules.

Notation: ``a1-b2`` for a step, ``c3xe5xc7`` for a capture (start cell, then every landing
cell, joined by ``x``); cell names are row letters from the bottom and 1-based diagonal
numbers, Abalone-style (:meth:`Board.hex_cells`). A capture is fixed by its landing cells,
so notations are unique.

Text form: the occupied cells as ``cell=column`` (the column from top to bottom, ``w``
White, ``b`` Black; ``-`` for an empty board), the side to move, then ``ply:N``, e.g.
``e5=wb,f6=b black ply:7``.

Custom shapes: option ``cells`` is text in one of two forms, either axial pairs
``"0,0 1,0 0,1 ..."`` (``q,r`` separated by spaces or ``;``), or a picture of rows from
the top, rows separated by new lines or ``/``, where ``o`` marks a cell and spaces or
``.`` mark gaps and each row is offset by one character from its neighbours, as hexagons
are drawn::

      o o o
     o o o o
    o o o o o
     o o o o
      o o o

A shape must be connected and have at least four rows and room for the setup; the
errors name the cell or row at fault.

Group selection: a move moves one column, so the selection never grows
(:func:`~boardlab.core.selection.no_closure`). Moves carry a ``Shift`` of the moving
column's cell and, per jumped cell, a ``Change`` to its new top piece or a ``Capture``
when the column there is gone; apply/undo work on the columns directly.

Why plain Python: the move language has one piece per cell, while here a cell holds a
column whose top piece moves and whose jumped tops go under the mover; captures with
stacks would need a stack model in the language. Moves are generated with a plain
depth-first search over jumps.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import Any

from boardlab.core.board import HEX_DIRECTIONS, Board
from boardlab.core.game import (
    DRAW,
    Game,
    Option,
    Returns,
    State,
    win_for,
    zobrist_table,
)
from boardlab.core.move import Capture, Change, Move, Piece, Shift
from boardlab.core.registry import register
from boardlab.core.selection import no_closure
from boardlab.errors import NotationError, OptionError

WHITE, BLACK = 0, 1
COLOURS = "wb"
MEN = (Piece(WHITE, "man"), Piece(BLACK, "man"))
DIRECTIONS = tuple(HEX_DIRECTIONS)  # e, w, ne, sw, nw, se
FORWARD = (("ne", "nw"), ("se", "sw"))
SHAPES = ("hexagon", "hexagon-6", "diamond", "star", "custom")
MIN_ROWS = 4
MAX_CELLS = 400
MAX_COORD = 60

Cell = tuple[int, int]


# --- shapes -------------------------------------------------------------------------------
def hexagon_cells(side: int) -> list[Cell]:
    """A regular hexagon with ``side`` cells on each edge."""
    n = side - 1
    return [(q, r) for r in range(-n, n + 1) for q in range(-n, n + 1) if abs(q - r) <= n]


def diamond_cells(n: int) -> list[Cell]:
    """A rhombus standing on a tip: rows of 1, 2, ..., n, ..., 2, 1 cells (``n`` odd)."""
    half = n - 1
    out = []
    for r in range(-half, half + 1):
        width = n - abs(r)
        first = (r - width + 1) // 2
        out.extend((first + i, r) for i in range(width))
    return out


def star_cells(n: int) -> list[Cell]:
    """A hexagram: two triangles of side ``3n + 1`` (n = 4 is the Chinese-checkers star)."""
    out = []
    for r in range(-2 * n, 2 * n + 1):
        for q in range(-3 * n, 3 * n + 1):
            up = q <= n and -r <= n and r - q <= n
            down = q >= -n and -r >= -n and r - q >= -n
            if up or down:
                out.append((q, r))
    return out


def shape_cells(shape: str) -> list[Cell]:
    """The cells of a shipped shape."""
    if shape == "hexagon":
        return hexagon_cells(5)
    if shape == "hexagon-6":
        return hexagon_cells(6)
    if shape == "diamond":
        return diamond_cells(7)
    if shape == "star":
        return star_cells(3)
    raise OptionError(f"option 'shape': no shipped shape {shape!r}; "
                      f"choose one of {', '.join(SHAPES)}")


_PAIR = re.compile(r"^(-?\d+),(-?\d+)$")


def parse_cells(text: str) -> list[Cell]:
    """The cells written in option ``cells``: axial pairs or a picture (module docstring).

    >>> parse_cells("0,0 1,0 1,1")
    [(0, 0), (1, 0), (1, 1)]
    >>> parse_cells(" o o/o o o")
    [(1, 1), (2, 1), (0, 0), (1, 0), (2, 0)]
    """
    if not text.strip():
        raise OptionError("option 'cells' is empty: give axial pairs '0,0 1,0 ...' or "
                          "a picture of rows of 'o'")
    if any(ch.isdigit() for ch in text):
        return _parse_pairs(text)
    return _parse_picture(text)


def _parse_pairs(text: str) -> list[Cell]:
    cells: list[Cell] = []
    seen: set[Cell] = set()
    for token in text.replace(";", " ").split():
        m = _PAIR.match(token)
        if m is None:
            raise OptionError(f"option 'cells': {token!r} is not an axial pair like '3,-1'")
        cell = (int(m[1]), int(m[2]))
        if cell in seen:
            raise OptionError(f"option 'cells': cell {token} is listed twice")
        seen.add(cell)
        cells.append(cell)
    return cells


def _parse_picture(text: str) -> list[Cell]:
    rows = [row for row in re.split(r"[/\n]", text.rstrip("\n"))]
    while rows and not rows[0].strip(" ."):
        rows.pop(0)
    while rows and not rows[-1].strip(" ."):
        rows.pop()
    height = len(rows)
    cells: list[Cell] = []
    parity: int | None = None
    for t, row in enumerate(rows):
        r = height - 1 - t
        for c, ch in enumerate(row):
            if ch in " .":
                continue
            if ch not in "oO":
                raise OptionError(f"option 'cells': row {t + 1} column {c + 1} has "
                                  f"{ch!r}; use 'o' for a cell and ' ' or '.' for a gap")
            if parity is None:
                parity = (c + r) % 2
            elif (c + r) % 2 != parity:
                raise OptionError(f"option 'cells': the cell at row {t + 1} column {c + 1} "
                                  f"sits between two hex positions; rows must be offset "
                                  f"by one character as hexagons are drawn")
            cells.append(((c + r - parity) // 2, r))
    return cells


def cells_text(cells: Iterable[Cell]) -> str:
    """Option ``cells`` text (axial pairs) for a set of cells, e.g. from a shape editor."""
    return " ".join(f"{q},{r}" for q, r in sorted(set(cells), key=lambda c: (c[1], c[0])))


def check_shape(cells: Sequence[Cell], rows: int) -> int:
    """Validate a board shape; returns the number of setup rows per side."""
    if len(cells) > MAX_CELLS:
        raise OptionError(f"option 'cells': {len(cells)} cells; at most {MAX_CELLS}")
    for q, r in cells:
        if abs(q) > MAX_COORD or abs(r) > MAX_COORD:
            raise OptionError(f"option 'cells': cell {q},{r} is too far out "
                              f"(coordinates within +-{MAX_COORD})")
    present = set(cells)
    heights = sorted({r for _, r in present})
    height = heights[-1] - heights[0] + 1 if heights else 0
    if height < MIN_ROWS:
        raise OptionError(f"option 'cells': the shape has {height} rows; "
                          f"at least {MIN_ROWS} are needed")
    start = next(iter(present))
    seen = {start}
    todo = [start]
    while todo:
        q, r = todo.pop()
        for dq, dr in HEX_DIRECTIONS.values():
            nxt = (q + dq, r + dr)
            if nxt in present and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    if len(seen) != len(present):
        apart = min(present - seen, key=lambda c: (c[1], c[0]))
        raise OptionError(f"option 'cells': the shape is not connected (cell "
                          f"{apart[0]},{apart[1]} is cut off from cell {start[0]},{start[1]})")
    setup = rows or (height - 2) // 2
    if 2 * setup >= height:
        raise OptionError(f"option 'rows': {setup} setup rows per side do not fit a shape of "
                          f"{height} rows (leave at least one empty row)")
    return setup


# --- the game -----------------------------------------------------------------------------
@register
class HexColumnCheckers(Game):
    """Column checkers (Bashni) without kings on a hex board of any shape."""

    name = "hex-column-checkers"
    description = "Bashni-style column checkers without kings on a reshapable hex board"
    source = ("Bashni (Wikipedia 'Bashni'; J. P. Neto, World of Abstract Games 'Bashnya'); "
              "Russian draughts Turkish-strike rule; Hexdame (Freeling 1979, Wikipedia); "
              "Dagaz article (seed 003): hex column checkers on a transformable board")
    player_names = ("white", "black")
    option_schema = (
        Option("shape", "hexagon", "board shape (custom: use option cells)", choices=SHAPES),
        Option("cells", "", "custom shape: axial pairs '0,0 1,0 ...' or rows of 'o'"),
        Option("rows", 0, "setup rows per side (0: (height - 2) // 2)", minimum=0,
               maximum=40),
        Option("majority", False, "a capture must take the most men (Hexdame)"),
        Option("rejump", False, "a column may be jumped again in one move (no Turkish "
                                "strike rule, as in World of Abstract Games' Bashnya)"),
        Option("move_limit", 0, "plies after which the game is drawn (0: 5 per cell)",
               minimum=0, maximum=100_000),
    )
    known_perft = (14, 196, 2912, 41904)  # the reference generator of the tests

    def _check_options(self) -> None:
        shape, text = self.options["shape"], self.options["cells"]
        if shape == "custom":
            if not text.strip():
                raise OptionError("option 'shape' is custom but option 'cells' is empty")
            cells = parse_cells(text)
        else:
            if text.strip():
                raise OptionError(f"option 'cells' needs shape=custom (shape is {shape!r})")
            cells = shape_cells(shape)
        self._setup_rows = check_shape(cells, self.options["rows"])
        self._cells = cells

    # --- board and tables ---------------------------------------------------------------
    @cached_property
    def board(self) -> Board:
        """The hex board of the chosen shape."""
        return Board.hex_cells(self._cells)

    @cached_property
    def _links(self) -> tuple[tuple[int, ...], ...]:
        board = self.board
        return tuple(board.links[board.direction_index(d)] for d in DIRECTIONS)

    @cached_property
    def _forward(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        board = self.board
        return tuple(tuple(board.links[board.direction_index(d)] for d in dirs)
                     for dirs in FORWARD)

    @cached_property
    def _rows(self) -> tuple[int, ...]:
        """Row of each cell counted from the bottom (0)."""
        low = min(c[1] for c in self.board.coords)
        return tuple(c[1] - low for c in self.board.coords)

    @cached_property
    def height(self) -> int:
        """Number of rows of the board."""
        return max(self._rows) + 1

    @cached_property
    def _men(self) -> int:
        return 2 * sum(1 for row in self._rows if row < self._setup_rows)

    @cached_property
    def _zobrist(self) -> list[int]:
        # one number per (cell, level from the bottom, colour); a column is at most as
        # tall as the board has cells (parse_state checks), then the two sides to move
        size = self.board.size
        return zobrist_table(size * size * 2 + 2, f"{self.name}:{size}")

    @cached_property
    def move_limit(self) -> int:
        """Plies after which the game is drawn: option ``move_limit``, or 5 per cell."""
        return self.options["move_limit"] or 5 * self.board.size

    def max_length(self) -> int:
        """The move-limit draw."""
        return self.move_limit

    # --- states -------------------------------------------------------------------------
    def initial_state(self) -> HexColumnState:
        """Each side's men on the rows nearest its edge."""
        rows, setup, top = self._rows, self._setup_rows, self.height - 1
        stacks = ["w" if row < setup else "b" if top - row < setup else "" for row in rows]
        return HexColumnState(self, stacks, WHITE, 0)

    def parse_state(self, text: str) -> HexColumnState:
        """Read the text form (see the module docstring)."""
        parts = text.split()
        if len(parts) < 2:
            raise NotationError("expected 'cells side [ply:N]'", where=repr(text))
        board = self.board
        stacks = [""] * board.size
        if parts[0] != "-":
            for item in parts[0].split(","):
                name, sep, column = item.partition("=")
                if not sep or not column or column.strip("wb"):
                    raise NotationError("expected cell=column of w and b", where=repr(item))
                if not board.has_cell(name):
                    raise NotationError("no such cell on this board", where=repr(name))
                if len(column) > board.size:
                    raise NotationError("column taller than the board has cells",
                                        where=repr(item))
                stacks[board.cell(name)] = column
        names = [n.lower() for n in self.player_names]
        if parts[1].lower() not in names:
            raise NotationError(f"side to move must be one of {', '.join(names)}",
                                where=repr(parts[1]))
        ply = 0
        for extra in parts[2:]:
            if extra.startswith("ply:") and extra[4:].isdigit():
                ply = int(extra[4:])
            else:
                raise NotationError("unknown field", where=repr(extra))
        return HexColumnState(self, stacks, names.index(parts[1].lower()), ply)

    # --- selection ----------------------------------------------------------------------
    def closure(self, state: State, group: Sequence[int], move: Move) -> list[int]:
        """A move moves one column: the selection never grows."""
        return no_closure(state, group, move)

    # --- evaluation ---------------------------------------------------------------------
    def evaluate(self, state: State, player: int) -> float | None:
        """Owned columns, men and prisoners in them, and advancement of owned columns."""
        assert isinstance(state, HexColumnState)
        rows, top = self._rows, self.height - 1
        score = 0.0
        for cell, column in enumerate(state.stacks):
            if not column:
                continue
            owner = COLOURS.index(column[0])
            own = column.count(column[0])
            value = 1.0 + 0.5 * own + 0.3 * (len(column) - own)
            advance = rows[cell] if owner == WHITE else top - rows[cell]
            value += 0.3 * advance / top
            score += value if owner == player else -value
        return max(-1.0, min(1.0, score / (1.0 + self._men)))

    # --- move generation ----------------------------------------------------------------
    def generate(self, stacks: list[str], player: int) -> list[Move]:
        """The legal moves of ``player`` with these columns (captures first, compulsory)."""
        me = COLOURS[player]
        links = self._links
        turkish = not self.options["rejump"]
        found: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []

        def jump(origin: int, pos: int, path: list[int], jumped: list[int]) -> None:
            extended = False
            for row in links:
                mid = row[pos]
                if mid < 0:
                    continue
                over = stacks[mid]
                if not over or over[0] == me or (turkish and mid in jumped):
                    continue
                land = row[mid]
                if land < 0 or stacks[land]:
                    continue
                extended = True
                stacks[mid] = over[1:]
                path.append(land)
                jumped.append(mid)
                jump(origin, land, path, jumped)
                jumped.pop()
                path.pop()
                stacks[mid] = over
            if not extended and path:
                found.append((origin, tuple(path), tuple(jumped)))

        for cell, column in enumerate(stacks):
            if column and column[0] == me:
                stacks[cell] = ""
                jump(cell, cell, [], [])
                stacks[cell] = column
        if found:
            if self.options["majority"]:
                most = max(len(j) for _, _, j in found)
                found = [f for f in found if len(f[2]) == most]
            return [self._capture_move(stacks, *f) for f in found]
        name = self.board.cell_name
        moves = []
        for cell, column in enumerate(stacks):
            if column and column[0] == me:
                for row in self._forward[player]:
                    target = row[cell]
                    if target >= 0 and not stacks[target]:
                        moves.append(Move(f"{name(cell)}-{name(target)}",
                                          (Shift(cell, target),), (cell, (target,), ())))
        return moves

    def _capture_move(self, stacks: list[str], origin: int, path: tuple[int, ...],
                      jumped: tuple[int, ...]) -> Move:
        name = self.board.cell_name
        notation = "x".join(name(c) for c in (origin, *path))
        after: dict[int, str] = {}
        for mid in jumped:
            after[mid] = after.get(mid, stacks[mid])[1:]
        actions: list[Any] = [Shift(origin, path[-1])]
        for mid, left in after.items():
            actions.append(Change(mid, MEN[COLOURS.index(left[0])]) if left else Capture(mid))
        return Move(notation, tuple(actions), (origin, path, jumped))


class HexColumnState(State):
    """Columns on the cells of a :class:`HexColumnCheckers` board, side to move, ply."""

    __slots__ = ("game", "stacks", "_to_move", "ply", "_history", "_key", "_cache")

    def __init__(self, game: HexColumnCheckers, stacks: list[str], to_move: int, ply: int):
        self.game: HexColumnCheckers = game
        self.stacks = stacks
        self._to_move = to_move
        self.ply = ply
        self._history: list[tuple[Any, ...]] = []
        self._cache: list[Move] | None = None
        self._key = self._full_key()

    # --- hashing ------------------------------------------------------------------------
    def _column_key(self, cell: int, column: str) -> int:
        table = self.game._zobrist
        base = cell * self.game.board.size * 2
        key = 0
        n = len(column)
        for level, colour in enumerate(column):
            key ^= table[base + 2 * (n - 1 - level) + (colour == "b")]
        return key

    def _side_key(self, player: int) -> int:
        return self.game._zobrist[-1 - player]

    def _full_key(self) -> int:
        key = self._side_key(self._to_move)
        for cell, column in enumerate(self.stacks):
            if column:
                key ^= self._column_key(cell, column)
        return key

    # --- protocol -----------------------------------------------------------------------
    @property
    def to_move(self) -> int:
        return self._to_move

    def key(self) -> int:
        return self._key

    def legal_moves(self) -> list[Move]:
        if self._cache is None:
            if self.ply >= self.game.move_limit:
                self._cache = []
            else:
                self._cache = self.game.generate(self.stacks, self._to_move)
        return list(self._cache)

    def outcome(self) -> Returns | None:
        if self.ply >= self.game.move_limit:
            return DRAW
        if not self.legal_moves():
            return win_for(1 - self._to_move)
        return None

    def apply(self, move: Move) -> None:
        origin, path, jumped = self._decode(move)
        stacks = self.stacks
        touched: dict[int, str] = {}
        key = self._key
        column = stacks[origin]
        touched[origin] = column
        for mid in jumped:
            over = stacks[mid]
            touched.setdefault(mid, over)
            column += over[0]
            stacks[mid] = over[1:]
        target = path[-1]
        touched.setdefault(target, stacks[target])
        stacks[origin] = ""
        stacks[target] = column
        for cell, old in touched.items():
            if old:
                key ^= self._column_key(cell, old)
            if stacks[cell]:
                key ^= self._column_key(cell, stacks[cell])
        self._history.append((touched, self._key, self._cache))
        nxt = 1 - self._to_move
        self._key = key ^ self._side_key(self._to_move) ^ self._side_key(nxt)
        self._to_move = nxt
        self._cache = None
        self.ply += 1

    def _decode(self, move: Move) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
        if move.tag is not None:
            return move.tag  # type: ignore[return-value]
        for legal in self.legal_moves():
            if legal == move:
                return legal.tag  # type: ignore[return-value]
        raise NotationError("not a legal move here", where=repr(move.notation))

    def undo(self) -> None:
        touched, key, cache = self._history.pop()
        for cell, old in touched.items():
            self.stacks[cell] = old
        self._key = key
        self._cache = cache
        self._to_move = 1 - self._to_move
        self.ply -= 1

    def clone(self) -> HexColumnState:
        new = HexColumnState.__new__(HexColumnState)
        new.game = self.game
        new.stacks = self.stacks[:]
        new._to_move = self._to_move
        new.ply = self.ply
        new._history = []
        new._key = self._key
        new._cache = self._cache
        return new

    def signature(self) -> tuple[Any, ...]:
        return (tuple(self.stacks), self._to_move, self.ply)

    def check_notation(self, text: str) -> None:
        board = self.game.board
        steps = text.split("-")
        jumps = text.split("x")
        if len(steps) == 2:
            cells = steps
        elif len(jumps) >= 2:
            cells = jumps
        else:
            raise NotationError("expected a step 'a1-b2' or a capture 'c3xe5'", where=repr(text))
        for name in cells:
            if not board.has_cell(name):
                raise NotationError("no such cell on this board", where=repr(name))

    # --- pieces and text ------------------------------------------------------------------
    def piece_at(self, cell: int) -> Piece | None:
        """The top man of the column on ``cell`` (which owns the column), or ``None``."""
        column = self.stacks[cell]
        return MEN[COLOURS.index(column[0])] if column else None

    def view(self) -> dict[str, Any]:
        """The position for a board UI: every occupied cell's top man (``owner``,
        ``kind``) and its whole ``column``, owners from top to bottom.

        >>> state = HexColumnCheckers().parse_state("e5=wb,f6=b black")
        >>> state.view()["cells"]["e5"]
        {'owner': 0, 'kind': 'man', 'column': [0, 1]}
        """
        view = super().view()
        name = self.game.board.cell_name
        for cell, column in enumerate(self.stacks):
            if column:
                view["cells"][name(cell)]["column"] = [COLOURS.index(c) for c in column]
        return view

    def column_at(self, cell: int) -> str:
        """The column on ``cell`` from top to bottom (``w``/``b``), ``""`` if empty."""
        return self.stacks[cell]

    def __str__(self) -> str:
        name = self.game.board.cell_name
        layout = ",".join(f"{name(c)}={s}" for c, s in enumerate(self.stacks) if s) or "-"
        out = f"{layout} {self.game.player_names[self._to_move]}"
        return out + (f" ply:{self.ply}" if self.ply else "")

    def render(self) -> str:
        """The board drawn as hexagons (top man of each column), then the tall columns."""
        board = self.game.board
        coords = board.coords
        low_x = min(2 * q - r for q, r in coords)
        top = max(r for _, r in coords)
        bottom = min(r for _, r in coords)
        lines = []
        for r in range(top, bottom - 1, -1):
            row = {2 * q - r - low_x: c for c, (q, rr) in enumerate(coords) if rr == r}
            width = max(row) + 1
            text = "".join((self.stacks[row[x]][:1] or ".") if x in row else " "
                           for x in range(width))
            label = board.cell_name(row[min(row)]).rstrip("0123456789")
            lines.append(f"{label:>2}  {text.rstrip()}")
        tall = [f"{board.cell_name(c)}={s}" for c, s in enumerate(self.stacks) if len(s) > 1]
        if tall:
            lines.append("columns: " + " ".join(tall))
        lines.append(f"{self.game.player_names[self._to_move]} to move")
        return "\n".join(lines)
