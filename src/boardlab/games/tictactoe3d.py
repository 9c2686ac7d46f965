"""Three-dimensional tic-tac-toe on a 3x3x3 cube, written in boardlab's move language.

Rules (the 3x3x3 form of Qubic; see e.g. Wikipedia, "3D tic-tac-toe"): X and O
take turns putting their mark in an empty cell of a 3x3x3 cube, X first. Three of
one's marks in a straight line wins; the cube has 49 such lines (27 along the
axes, 18 diagonals of the 9 axis-parallel planes and 4 space diagonals through the
centre). A full cube without a line would be a draw, but every way of filling
the cube contains a line, so the game cannot actually end drawn; with the centre
``b2B`` the first player wins easily, which is why Qubic is played on 4x4x4.

In the language: a drop for each player's mark (from a supply that never runs out, onto
an empty cell), and relative configurations, a line of three of the player's marks
along each of 13 directions, one of each opposite pair of the cube's 26 (3 along the
axes, 6 plane diagonals, 4 space diagonals); a player with no move (a full cube) draws.
The game runs on its kernel (:mod:`boardlab.core.kernel`), which looks for a new line
only through the cell just marked; its random playouts are compiled whole there.

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
from typing import Any, ClassVar

from boardlab.core.board import Board
from boardlab.core.game import State
from boardlab.core.move import Piece
from boardlab.core.position import PieceState
from boardlab.core.registry import register
from boardlab.errors import NotationError
from boardlab.games.in_a_row import PIECES, InARow

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


#: The cells of the 49 lines, for the evaluation.
LINES = _lines(BOARD)
SYMBOLS = ".xo"
LEVELS = "ABC"
# An open line holding two of one's marks threatens to win next move; a full one has won,
# worth more than every threat together (a finished game is asked too).
LINE_WEIGHTS = (0, 1, 6, 1000)


class TicTacToe3DState(PieceState):
    """A 3-D tic-tac-toe position, written level by level (see the module docstring)."""

    __slots__ = ()
    #: Nothing beyond :class:`PieceState`'s fields: a kernel plays these positions too.
    kernel_fields: ClassVar[dict[str, Any]] = {}

    def _rows(self, z: int) -> list[str]:
        cells = self.cells
        return ["".join(SYMBOLS[0 if (p := cells[z * 9 + y * SIDE + x]) is None
                                else p.owner + 1] for x in range(SIDE))
                for y in reversed(range(SIDE))]

    def __str__(self) -> str:
        levels = ["/".join(self._rows(z)) for z in range(SIDE)]
        return "|".join(levels) + " " + "xo"[self.to_move]

    def render(self) -> str:
        """The three levels side by side, A to C, rows from the top."""
        rows = [self._rows(z) for z in range(SIDE)]
        lines = ["     " + "      ".join(f"{level}" for level in LEVELS)]
        for i in range(SIDE):
            grids = "  ".join(" ".join(rows[z][i].upper()) for z in range(SIDE))
            lines.append(f"{SIDE - i}  {grids}")
        lines.append("   " + "  ".join(["a b c"] * SIDE))
        return "\n".join(lines)


@register
class TicTacToe3D(InARow):
    """3-D tic-tac-toe on a 3x3x3 cube: three in a row in any of 49 lines wins."""

    name = "tic-tac-toe-3d"
    description = "Tic-tac-toe on a 3x3x3 cube: three in a row along any of 49 lines wins"
    source = "Traditional; Wikipedia, '3D tic-tac-toe'"
    board_style = "lines"
    directions = ("e", "n", "u", "ne", "nw", "eu", "wu", "nu", "su",
                  "neu", "nwu", "seu", "swu")
    state_class = TicTacToe3DState

    def make_board(self) -> Board:
        """The 3x3x3 grid (cell ``z * 9 + y * 3 + x``)."""
        return BOARD

    def check_notation(self, text: str) -> None:
        """A move is a cell's name (the level's letter in either case)."""
        if not self.board.has_cell(text[:-1].lower() + text[-1:].upper()):
            raise NotationError("a move is a cell name: file a-c, rank 1-3, level A-C "
                                "(a1A to c3C)", where=repr(text))

    def max_length(self) -> int:
        """At most 27 marks."""
        return CELLS

    def parse_state(self, text: str) -> PieceState:
        """Read ``level|level|level side``, each level ``rows/rows/rows`` from the top."""
        parts = text.split()
        if len(parts) != 2:
            raise NotationError("expected 'levels side', e.g. "
                                "'.../.../...|.../.x./...|.../.../... o'", where=repr(text))
        levels = parts[0].split("|")
        if len(levels) != SIDE:
            raise NotationError("expected three levels separated by |", where=repr(parts[0]))
        cells: list[Piece | None] = [None] * CELLS
        for z, level in enumerate(levels):
            rows = level.split("/")
            if len(rows) != SIDE or any(len(r) != SIDE for r in rows):
                raise NotationError(f"expected three rows of three cells on level {LEVELS[z]}",
                                    where=repr(level))
            for i, row in enumerate(rows):
                for x, ch in enumerate(row):
                    cell = z * 9 + (SIDE - 1 - i) * SIDE + x
                    mark = ch.lower()
                    if mark != "." and mark not in PIECES:
                        raise NotationError(f"unknown mark {ch!r} (use x, o or .)",
                                            where=BOARD.cell_name(cell))
                    cells[cell] = PIECES.get(mark)
        if parts[1].lower() not in ("x", "o"):
            raise NotationError("side to move must be x or o", where=repr(parts[1]))
        state = self.new_state(cells, "xo".index(parts[1].lower()), {},
                               self.implied_ply(cells) or 0)
        winners = {cells[a].owner for a, b, c in LINES  # type: ignore[union-attr]
                   if cells[a] is not None and cells[a] == cells[b] == cells[c]}
        if len(winners) > 1:
            raise NotationError("both players have three in a row", where=str(state))
        return state

    def evaluate(self, state: State, player: int) -> float | None:
        """Lines still open to ``player`` (those holding two marks weigh most) minus the
        opponent's, squashed into (-1, 1)."""
        assert isinstance(state, PieceState)
        cells = state.cells
        score = 0
        for line in LINES:
            owners = [p.owner for c in line if (p := cells[c]) is not None]
            own, other = owners.count(player), owners.count(1 - player)
            if not other:
                score += LINE_WEIGHTS[own]
            elif not own:
                score -= LINE_WEIGHTS[other]
        return math.tanh(score / 20)
