"""Connect Four on a board of any size (6 rows by 7 columns by default).

Rules (standard; Milton Bradley 1974, see e.g. Wikipedia, "Connect Four"): X (red)
and O (yellow) take turns dropping one of their discs into a column that is not
full, X first; the disc falls to the lowest empty cell of the column. Four of one's
discs in a row -- horizontally, vertically or diagonally -- wins; a full board
without such a line is a draw. Options ``rows`` and ``columns`` (each at least 4)
change the board size.

Moves are written as the column's letter, ``a`` (left) to ``g`` (right); the move
places a disc on the column's lowest empty cell (``a1`` is the bottom left cell).
The text form is FEN-like: the rows from the top, ``/``-separated, ``.`` for an
empty cell, ``x`` and ``o`` for discs, then the side to move:
``......./......./......./......./......./...x... o``.

Perft from the empty 6x7 board (terminal positions not expanded): 7, 49, 343,
2401, 16807, 117649, 823536 (7**7 less the seven ways of filling one column at
depth 6), 5673234 (the first depth at which wins, on ply 7, cut lines short).

Internally each player's discs are a bitboard (a Python int) with ``rows + 1``
bits per column, the extra bit of each column always empty so that shifted
copies of the board never wrap from one column into the next (John Tromp's
layout); four in a row is then four shifts and ands.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import lru_cache

from boardlab.core.board import Board, file_letters
from boardlab.core.game import (
    DRAW,
    Game,
    IncrementalState,
    Option,
    PlayoutPolicy,
    Playouts,
    Returns,
    State,
    win_for,
    zobrist_table,
)
from boardlab.core.move import Move, Piece, Place
from boardlab.core.registry import register
from boardlab.errors import NotationError
from boardlab.games import fast

SYMBOLS = ".xo"
PIECES = (Piece(0, "X"), Piece(1, "O"))
# Value of a window of four cells holding 1, 2 or 3 discs of one player and none of the
# other: a window of three (an open three) is a threat, worth far more than a start.
WINDOW_WEIGHTS = (0, 1, 4, 16)
CENTRE_WEIGHT = 3


@dataclass(frozen=True)
class Tables:
    """Everything about a board size that the search loops look up."""

    rows: int
    columns: int
    board: Board
    #: Bit of each cell (indexed like :class:`Board` cells: ``y * columns + x``).
    bit: tuple[int, ...]
    #: Column of each cell.
    column_of: tuple[int, ...]
    #: ``moves[player][x][y]``: the move dropping ``player``'s disc into column ``x``
    #: when it lands on row ``y``.
    moves: tuple[tuple[tuple[Move, ...], ...], ...]
    #: Shifts between neighbouring bits along a line: vertical, horizontal, both diagonals.
    shifts: tuple[int, ...]
    #: Every window of four cells in a line, as a bitboard.
    windows: tuple[int, ...]
    #: The bits of the centre column(s).
    centre: int
    zobrist: tuple[int, ...]


@lru_cache(maxsize=16)
def tables(rows: int, columns: int) -> Tables:
    """The lookup tables of a ``rows`` x ``columns`` board (cached)."""
    board = Board.square(columns, rows)
    height = rows + 1
    bit = tuple(1 << (x * height + y) for y in range(rows) for x in range(columns))
    column_of = tuple(c % columns for c in range(rows * columns))
    letters = file_letters(columns)
    moves = tuple(
        tuple(tuple(Move(letters[x], (Place(y * columns + x, PIECES[p]),))
                    for y in range(rows)) for x in range(columns))
        for p in range(2))
    windows = []
    for y in range(rows):
        for x in range(columns):
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                ends = (x + 3 * dx, y + 3 * dy)
                if 0 <= ends[0] < columns and 0 <= ends[1] < rows:
                    mask = 0
                    for k in range(4):
                        mask |= bit[(y + k * dy) * columns + x + k * dx]
                    windows.append(mask)
    centre = 0
    for x in {(columns - 1) // 2, columns // 2}:
        for y in range(rows):
            centre |= bit[y * columns + x]
    return Tables(rows=rows, columns=columns, board=board, bit=bit, column_of=column_of,
                  moves=moves, shifts=(1, height, height - 1, height + 1),
                  windows=tuple(windows), centre=centre,
                  zobrist=tuple(zobrist_table(2 * rows * columns + 1,
                                              f"connect-four:{rows}x{columns}")))


def has_four(discs: int, shifts: tuple[int, ...]) -> bool:
    """Whether the bitboard ``discs`` holds four in a row along one of ``shifts``."""
    for s in shifts:
        pairs = discs & (discs >> s)
        if pairs & (pairs >> (2 * s)):
            return True
    return False


@register
class ConnectFour(Game):
    """Connect Four: drop discs into columns; four in a row wins."""

    name = "connect-four"
    description = "Connect Four: drop discs into columns, four in a row wins"
    source = "Milton Bradley (1974); Wikipedia, 'Connect Four'"
    player_names = ("X", "O")
    board_style = "columns"
    option_schema = (
        Option("rows", 6, "number of rows", minimum=4, maximum=26),
        Option("columns", 7, "number of columns (named a, b, ...)", minimum=4, maximum=26),
    )
    known_perft = (7, 49, 343, 2401, 16807, 117649, 823536, 5673234)

    def __init__(self, **options: object):
        super().__init__(**options)
        self.tables = tables(self.options["rows"], self.options["columns"])

    @property
    def board(self) -> Board:
        """The board, ``columns`` wide and ``rows`` high; ``a1`` is the bottom left."""
        return self.tables.board

    def initial_state(self) -> ConnectFourState:
        """The empty board, X to move."""
        return ConnectFourState(self, [0, 0], [0] * self.tables.columns, 0)

    def max_length(self) -> int:
        """At most one move per cell."""
        return self.tables.rows * self.tables.columns

    def parse_state(self, text: str) -> ConnectFourState:
        """Read ``rows/.../rows side`` (rows from the top), e.g. ``...x... o`` on each row."""
        t = self.tables
        parts = text.split()
        if len(parts) != 2:
            raise NotationError("expected 'rows side', e.g. '......./.../...x... o'",
                                where=repr(text))
        rows = parts[0].split("/")
        if len(rows) != t.rows or any(len(r) != t.columns for r in rows):
            raise NotationError(f"expected {t.rows} rows of {t.columns} cells",
                                where=repr(parts[0]))
        discs = [0, 0]
        heights = [0] * t.columns
        for i, row in enumerate(rows):
            y = t.rows - 1 - i
            for x, ch in enumerate(row):
                cell = y * t.columns + x
                v = SYMBOLS.find(ch.lower())
                if v < 0:
                    raise NotationError(f"unknown disc {ch!r} (use x, o or .)",
                                        where=t.board.cell_name(cell))
                if v:
                    discs[v - 1] |= t.bit[cell]
                    heights[x] = max(heights[x], y + 1)
        for x in range(t.columns):
            for y in range(heights[x]):
                if not (discs[0] | discs[1]) & t.bit[y * t.columns + x]:
                    raise NotationError("a disc floats above an empty cell",
                                        where=t.board.cell_name(y * t.columns + x))
        if parts[1].lower() not in ("x", "o"):
            raise NotationError("side to move must be x or o", where=repr(parts[1]))
        return ConnectFourState(self, discs, heights, "xo".index(parts[1].lower()))

    def evaluate(self, state: State, player: int) -> float | None:
        """Windows of four still open to ``player`` (weighted by how full they are, open
        threes most) and discs in the centre column, minus the opponent's, squashed
        into (-1, 1)."""
        assert isinstance(state, ConnectFourState)
        own, other = state.discs[player], state.discs[1 - player]
        score = 0
        for window in self.tables.windows:
            if window & other:
                if not window & own:
                    score -= WINDOW_WEIGHTS[(window & other).bit_count()]
            elif window & own:
                score += WINDOW_WEIGHTS[(window & own).bit_count()]
        centre = self.tables.centre
        score += CENTRE_WEIGHT * ((own & centre).bit_count() - (other & centre).bit_count())
        return math.tanh(score / 40)


class ConnectFourState(IncrementalState):
    """A Connect Four position: one bitboard per player, the height of every column
    and the side to move."""

    __slots__ = ("game", "tables", "discs", "heights", "_to_move", "_count", "_result",
                 "_history", "_key")

    def __init__(self, game: ConnectFour, discs: list[int], heights: list[int], to_move: int):
        self.game = game
        self.tables = t = game.tables
        self.discs = discs
        self.heights = heights
        self._to_move = to_move
        self._count = sum(heights)
        self._history: list[tuple[int, Returns | None]] = []
        n = t.rows * t.columns
        self._key = t.zobrist[2 * n] * to_move
        for cell in range(n):
            for p in range(2):
                if discs[p] & t.bit[cell]:
                    self._key ^= t.zobrist[p * n + cell]
        self._result = self._compute_result()

    def _compute_result(self) -> Returns | None:
        wins = [has_four(self.discs[p], self.tables.shifts) for p in range(2)]
        if wins[0] and wins[1]:
            raise NotationError("both players have four in a row", where=str(self))
        for p in range(2):
            if wins[p]:
                return win_for(p)
        if self._count == self.tables.rows * self.tables.columns:
            return DRAW
        return None

    def piece_at(self, cell: int) -> Piece | None:
        """The disc on ``cell`` (row-major from the bottom left), or ``None``."""
        bit = self.tables.bit[cell]
        for p in range(2):
            if self.discs[p] & bit:
                return PIECES[p]
        return None

    def legal_moves(self) -> list[Move]:
        if self._result is not None:
            return []
        rows = self.tables.rows
        table = self.tables.moves[self._to_move]
        return [table[x][y] for x, y in enumerate(self.heights) if y < rows]

    def apply(self, move: Move) -> None:
        t = self.tables
        cell = move.actions[0].cell  # type: ignore[union-attr]
        player = self._to_move
        self._history.append((cell, self._result))
        self.heights[t.column_of[cell]] += 1
        discs = self.discs[player] | t.bit[cell]
        self.discs[player] = discs
        self._count += 1
        n = t.rows * t.columns
        self._key ^= t.zobrist[player * n + cell] ^ t.zobrist[2 * n]
        self._to_move = 1 - player
        for s in t.shifts:
            pairs = discs & (discs >> s)
            if pairs & (pairs >> (2 * s)):
                self._result = win_for(player)
                return
        if self._count == n:
            self._result = DRAW

    def undo(self) -> None:
        t = self.tables
        cell, self._result = self._history.pop()
        player = self._to_move = 1 - self._to_move
        self.heights[t.column_of[cell]] -= 1
        self.discs[player] ^= t.bit[cell]
        self._count -= 1
        n = t.rows * t.columns
        self._key ^= t.zobrist[player * n + cell] ^ t.zobrist[2 * n]

    def clone(self) -> ConnectFourState:
        new = ConnectFourState.__new__(ConnectFourState)
        new.game = self.game
        new.tables = self.tables
        new.discs = self.discs[:]
        new.heights = self.heights[:]
        new._to_move = self._to_move
        new._count = self._count
        new._result = self._result
        new._history = []
        new._key = self._key
        return new

    def rollout(self, rng: random.Random) -> Returns:
        """Returns of a uniformly random playout from here, played by the compiled
        bitboard kernel (:mod:`boardlab.games.fast.connect_four_kernel`) with a seed
        drawn from ``rng``: the distribution of :meth:`State.rollout`, many times
        faster. Boards too big for the kernel's 63 bits take the generic path. The
        state is left unchanged."""
        if self._result is not None:
            return self._result
        t = self.tables
        kernel = fast.kernel("connect_four_kernel")
        if not kernel.fits(t.rows, t.columns):
            return super().rollout(rng)
        winner = kernel.playout(self.discs[0], self.discs[1], self._to_move, t.rows, t.columns,
                                rng.getrandbits(63))
        return fast.RETURNS[winner]

    def playouts(self, n: int, seed: int, plies: int | None = None,
                 policy: PlayoutPolicy | None = None) -> Playouts:
        """:meth:`State.playouts` of uniformly random whole games in one call of the
        compiled kernel (capped or weighted ones, a finished position and boards too big
        for the kernel take the generic path)."""
        t = self.tables
        kernel = fast.kernel("connect_four_kernel")
        if plies is not None or policy is not None or self._result is not None or n < 0 \
                or not kernel.fits(t.rows, t.columns):
            return super().playouts(n, seed, plies, policy)
        counts = kernel.playouts(self.discs[0], self.discs[1], self._to_move, t.rows,
                                 t.columns, n, seed & ((1 << 63) - 1))
        return Playouts.of(zip(fast.RETURNS, counts.tolist(), strict=True), 2)

    def signature(self) -> tuple[int, int, int]:
        return self.discs[0], self.discs[1], self._to_move

    def _symbol(self, cell: int) -> str:
        b = self.tables.bit[cell]
        return "x" if self.discs[0] & b else "o" if self.discs[1] & b else "."

    def __str__(self) -> str:
        t = self.tables
        rows = ["".join(self._symbol(y * t.columns + x) for x in range(t.columns))
                for y in reversed(range(t.rows))]
        return "/".join(rows) + " " + "xo"[self._to_move]

    def check_notation(self, text: str) -> None:
        letters = file_letters(self.tables.columns)
        if text.lower() not in letters:
            raise NotationError(f"a move is a column letter, a to {letters[-1]}",
                                where=repr(text))

    def render(self) -> str:
        t = self.tables
        lines = []
        for y in reversed(range(t.rows)):
            discs = " ".join(self._symbol(y * t.columns + x).upper() for x in range(t.columns))
            lines.append(f"{y + 1:>2}  {discs}")
        lines.append("    " + " ".join(file_letters(t.columns)))
        return "\n".join(lines)
