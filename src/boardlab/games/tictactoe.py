"""Tic-tac-toe on 3x3 and its misère form, written in boardlab's move language.

Rules (standard; see e.g. Wikipedia, "Tic-tac-toe"): X and O take turns putting
their mark in an empty cell of a 3x3 grid, X first. Three of one's marks in a row,
column or diagonal wins; a full grid without such a line is a draw. In the misère
form (``misere-tic-tac-toe``) the player who completes a line *loses*.

In the language: a drop for each player's mark (from a supply that never runs out, onto
an empty cell), and relative configurations, a line of three of the player's marks
across, up and along each diagonal; a player with no move (a full grid) draws. The game runs on its
kernel (:mod:`boardlab.core.kernel`), which looks for a new line only through the cell
just marked; its random playouts are compiled whole there.

Moves are written as the cell's name, ``a1`` (bottom left) to ``c3`` (top right).
The text form is FEN-like: the rows from the top, ``/``-separated, ``.`` for an
empty cell, then the side to move: ``x.o/.x./... o``.

Perft from the empty board (terminal positions not expanded): 9, 72, 504, 3024,
15120, 54720, 148176, 200448, 127872 -- 255,168 games, 5,478 distinct positions.
"""

from __future__ import annotations

from boardlab.core.board import Board
from boardlab.core.game import State
from boardlab.core.position import PieceState
from boardlab.core.registry import register
from boardlab.errors import NotationError
from boardlab.games.in_a_row import InARow

#: The cells of the eight lines (``a1`` = 0, row by row), for the evaluation.
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6),
)


@register
class TicTacToe(InARow):
    """Tic-tac-toe: three in a row wins."""

    name = "tic-tac-toe"
    description = "Tic-tac-toe on 3x3: three in a row wins"
    source = "Traditional; Wikipedia, 'Tic-tac-toe'"
    board_style = "lines"
    known_perft = (9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872)

    def make_board(self) -> Board:
        """The 3x3 grid."""
        return Board.square(3, 3)

    def check_notation(self, text: str) -> None:
        """A move is a cell's name."""
        if not self.board.has_cell(text.lower()):
            raise NotationError("a move is a cell name, a1 to c3", where=repr(text))

    def max_length(self) -> int:
        """At most nine marks."""
        return 9

    def parse_state(self, text: str) -> PieceState:
        """Read ``rows/rows/rows side``, e.g. ``x.o/.x./... o`` (the side ``x`` or
        ``o``, any case)."""
        parts = text.split()
        if len(parts) != 2:
            raise NotationError("expected 'rows side', e.g. 'x.o/.x./... o'", where=repr(text))
        if parts[1].lower() not in ("x", "o"):
            raise NotationError("side to move must be x or o", where=repr(parts[1]))
        return super().parse_state(f"{parts[0].lower()} {parts[1].lower()}")

    def evaluate(self, state: State, player: int) -> float | None:
        """Open lines of ``player`` minus the opponent's, scaled into [-1, 1]
        (misère: the opposite)."""
        assert isinstance(state, PieceState)
        cells = state.cells
        score = 0
        for line in LINES:
            owners = {p.owner for c in line if (p := cells[c]) is not None}
            if owners == {player}:
                score += 1
            elif owners == {1 - player}:
                score -= 1
        return (-score if self.misere else score) / 8


@register
class MisereTicTacToe(TicTacToe):
    """Misère tic-tac-toe: whoever completes three in a row loses."""

    name = "misere-tic-tac-toe"
    description = "Misère tic-tac-toe: three in a row loses"
    source = "Traditional (also 'toe-tac-tic'); Wikipedia, 'Tic-tac-toe', variations"
    misere = True
