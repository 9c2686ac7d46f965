"""Three-dimensional tic-tac-toe on a 3x3x3 cube.

Rules (the 3x3x3 form of Qubic; see e.g. Wikipedia, "3D tic-tac-toe"): X and O
take turns putting their mark in an empty cell of a 3x3x3 cube, X first. Three of
one's marks in a straight line wins; the cube has 49 such lines (27 along the
axes, 18 diagonals of the 9 axis-parallel planes and 4 space diagonals through the
centre). A full cube without a line would be a draw, but every way of filling
the cube contains a line, so the game cannot actually end drawn; with the centre
``b2B`` the first player wins easily, which is why Qubic is played on 4x4x4.

Cells are named file, rank, level (:meth:`~boardlab.core.board.Board.grid3d`):
``a1A`` (bottom left of the lowest level) to ``c3C``. Moves are written as the
cell's name. The text form is FEN-like: the three levels from A to C, ``|``-separated,
each written as its rows from the top (rank 3) ``/``-separated with ``.`` for an
empty cell, then the side to move: ``.../.../...|.../.x./...|.../.../... o``.

Perft from the empty cube (terminal positions not expanded), computed rather than
published: 27, 702, 17550, 421200, 9687600 (27 * 26 * ... as no line can be
completed before the fifth mark), then 209556864 = (27 * 26 * 25 * 24 * 23 - 49 * 3!
* 24 * 23) * 22, the sequences in which X's first three marks make a line ending.
"""

from __future__ import annotations

import math

from boardlab.core.board import Board
from boardlab.core.game import DRAW, Game, IncrementalState, Returns, State, win_for, zobrist_table
from boardlab.core.move import Move, Piece, Place
from boardlab.core.registry import register
from boardlab.errors import NotationError

SIDE = 3
CELLS = SIDE ** 3
BOARD = Board.grid3d(SIDE, SIDE, SIDE)


def _lines(board: Board) -> tuple[tuple[int, int, int], ...]:
    """Every line of three cells: start at a cell with no neighbour behind it in some
    direction and take two steps forward."""
    found: set[tuple[int, int, int]] = set()
    for direction in board.directions:
        back = board.opposite[direction]
        for cell in range(board.size):
            ray = board.ray(cell, direction)
            if board.step(cell, back) < 0 and len(ray) == SIDE - 1:
                line = (cell, *ray)
                found.add(tuple(sorted(line)))  # type: ignore[arg-type]
    return tuple(sorted(found))


LINES = _lines(BOARD)
LINES_THROUGH: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(line for line in LINES if c in line) for c in range(CELLS))
SYMBOLS = ".xo"
PIECES = (Piece(0, "X"), Piece(1, "O"))
MOVES = tuple(tuple(Move(BOARD.cell_name(c), (Place(c, PIECES[p]),)) for c in range(CELLS))
              for p in range(2))
ZOBRIST = zobrist_table(2 * CELLS + 1, "tic-tac-toe-3d")
LEVELS = "ABC"
# An open line holding two of one's marks threatens to win next move.
LINE_WEIGHTS = (0, 1, 6)


@register
class TicTacToe3D(Game):
    """3-D tic-tac-toe on a 3x3x3 cube: three in a row in any of 49 lines wins."""

    name = "tic-tac-toe-3d"
    description = "Tic-tac-toe on a 3x3x3 cube: three in a row along any of 49 lines wins"
    source = "Traditional; Wikipedia, '3D tic-tac-toe'"
    player_names = ("X", "O")
    board_style = "lines"

    @property
    def board(self) -> Board:
        """The 3x3x3 grid (cell ``z * 9 + y * 3 + x``)."""
        return BOARD

    def initial_state(self) -> TicTacToe3DState:
        """The empty cube, X to move."""
        return TicTacToe3DState(self, [0] * CELLS, 0)

    def max_length(self) -> int:
        """At most 27 marks."""
        return CELLS

    def parse_state(self, text: str) -> TicTacToe3DState:
        """Read ``level|level|level side``, each level ``rows/rows/rows`` from the top."""
        parts = text.split()
        if len(parts) != 2:
            raise NotationError("expected 'levels side', e.g. "
                                "'.../.../...|.../.x./...|.../.../... o'", where=repr(text))
        levels = parts[0].split("|")
        if len(levels) != SIDE:
            raise NotationError("expected three levels separated by |", where=repr(parts[0]))
        cells = [0] * CELLS
        for z, level in enumerate(levels):
            rows = level.split("/")
            if len(rows) != SIDE or any(len(r) != SIDE for r in rows):
                raise NotationError(f"expected three rows of three cells on level {LEVELS[z]}",
                                    where=repr(level))
            for i, row in enumerate(rows):
                for x, ch in enumerate(row):
                    cell = z * 9 + (SIDE - 1 - i) * SIDE + x
                    v = SYMBOLS.find(ch.lower())
                    if v < 0:
                        raise NotationError(f"unknown mark {ch!r} (use x, o or .)",
                                            where=BOARD.cell_name(cell))
                    cells[cell] = v
        if parts[1].lower() not in ("x", "o"):
            raise NotationError("side to move must be x or o", where=repr(parts[1]))
        return TicTacToe3DState(self, cells, "xo".index(parts[1].lower()))

    def evaluate(self, state: State, player: int) -> float | None:
        """Lines still open to ``player`` (those holding two marks weigh most) minus the
        opponent's, squashed into (-1, 1)."""
        assert isinstance(state, TicTacToe3DState)
        cells = state.cells
        own, other = player + 1, 2 - player
        score = 0
        for line in LINES:
            marks = [cells[c] for c in line]
            if other not in marks:
                score += LINE_WEIGHTS[marks.count(own)]
            elif own not in marks:
                score -= LINE_WEIGHTS[marks.count(other)]
        return math.tanh(score / 20)


class TicTacToe3DState(IncrementalState):
    """A 3-D tic-tac-toe position: 27 cells (0 empty, 1 X, 2 O) and the side to move."""

    __slots__ = ("game", "cells", "_to_move", "_count", "_result", "_history", "_key")

    def __init__(self, game: TicTacToe3D, cells: list[int], to_move: int):
        self.game = game
        self.cells = cells
        self._to_move = to_move
        self._count = sum(1 for v in cells if v)
        self._history: list[tuple[int, Returns | None]] = []
        self._key = ZOBRIST[2 * CELLS] * to_move
        for c, v in enumerate(cells):
            if v:
                self._key ^= ZOBRIST[(v - 1) * CELLS + c]
        self._result = self._compute_result()

    def _compute_result(self) -> Returns | None:
        winners = set()
        for a, b, c in LINES:
            v = self.cells[a]
            if v and v == self.cells[b] == self.cells[c]:
                winners.add(v - 1)
        if len(winners) > 1:
            raise NotationError("both players have three in a row", where=str(self))
        if winners:
            return win_for(winners.pop())
        if self._count == CELLS:
            return DRAW
        return None

    def piece_at(self, cell: int) -> Piece | None:
        """X's or O's mark on ``cell``, or ``None``."""
        v = self.cells[cell]
        return PIECES[v - 1] if v else None

    def legal_moves(self) -> list[Move]:
        if self._result is not None:
            return []
        row = MOVES[self._to_move]
        cells = self.cells
        return [row[c] for c in range(CELLS) if not cells[c]]

    def apply(self, move: Move) -> None:
        cell = move.actions[0].cell  # type: ignore[union-attr]
        player = self._to_move
        cells = self.cells
        self._history.append((cell, self._result))
        cells[cell] = mark = player + 1
        self._count += 1
        self._key ^= ZOBRIST[player * CELLS + cell] ^ ZOBRIST[2 * CELLS]
        self._to_move = 1 - player
        for a, b, c in LINES_THROUGH[cell]:
            if cells[a] == mark and cells[b] == mark and cells[c] == mark:
                self._result = win_for(player)
                return
        if self._count == CELLS:
            self._result = DRAW

    def undo(self) -> None:
        cell, self._result = self._history.pop()
        self._to_move = 1 - self._to_move
        self.cells[cell] = 0
        self._count -= 1
        self._key ^= ZOBRIST[self._to_move * CELLS + cell] ^ ZOBRIST[2 * CELLS]

    def clone(self) -> TicTacToe3DState:
        new = TicTacToe3DState.__new__(TicTacToe3DState)
        new.game = self.game
        new.cells = self.cells[:]
        new._to_move = self._to_move
        new._count = self._count
        new._result = self._result
        new._history = []
        new._key = self._key
        return new

    def signature(self) -> tuple[tuple[int, ...], int]:
        return tuple(self.cells), self._to_move

    def _rows(self, z: int) -> list[str]:
        return ["".join(SYMBOLS[self.cells[z * 9 + y * SIDE + x]] for x in range(SIDE))
                for y in reversed(range(SIDE))]

    def __str__(self) -> str:
        levels = ["/".join(self._rows(z)) for z in range(SIDE)]
        return "|".join(levels) + " " + "xo"[self._to_move]

    def check_notation(self, text: str) -> None:
        if not BOARD.has_cell(text[:-1].lower() + text[-1:].upper()):
            raise NotationError("a move is a cell name: file a-c, rank 1-3, level A-C "
                                "(a1A to c3C)", where=repr(text))

    def render(self) -> str:
        rows = [self._rows(z) for z in range(SIDE)]
        lines = ["     " + "      ".join(f"{level}" for level in LEVELS)]
        for i in range(SIDE):
            grids = "  ".join(" ".join(rows[z][i].upper()) for z in range(SIDE))
            lines.append(f"{SIDE - i}  {grids}")
        lines.append("   " + "  ".join(["a b c"] * SIDE))
        return "\n".join(lines)
