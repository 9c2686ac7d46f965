"""Connect Four on a board of any size (6 rows by 7 columns by default), written in
boardlab's move language.

Rules (standard; Milton Bradley 1974, see e.g. Wikipedia, "Connect Four"): X (red)
and O (yellow) take turns dropping one of their discs into a column that is not
full, X first; the disc falls to the lowest empty cell of the column. Four of one's
discs in a row -- horizontally, vertically or diagonally -- wins; a full board
without such a line is a draw. Options ``rows`` and ``columns`` (each at least 4)
change the board size.

In the language: a drop for each player's disc onto an empty cell of the top row,
from a supply that never runs out, which then falls while the cell below is empty;
the goals are relative configurations, four of the player's discs in a line across,
up and along each diagonal; a player with no move (a full board) draws. The game
runs on its kernel (:mod:`boardlab.core.kernel`): a random playout works a fall out
for the move it plays alone, and looks for a new line only through the cell just
filled.

Moves are written as the column's letter, ``a`` (left) to ``g`` (right); the move
places a disc on the column's lowest empty cell (``a1`` is the bottom left cell).
The text form is FEN-like: the rows from the top, ``/``-separated, ``.`` for an
empty cell, ``x`` and ``o`` for discs, then the side to move:
``......./......./......./......./......./...x... o``.

Perft from the empty 6x7 board (terminal positions not expanded): 7, 49, 343,
2401, 16807, 117649, 823536 (7**7 less the seven ways of filling one column at
depth 6), 5673234 (the first depth at which wins, on ply 7, cut lines short).
"""

from __future__ import annotations

import math
from functools import lru_cache

from boardlab.core.board import Board, file_letters
from boardlab.core.game import Option, State
from boardlab.core.move import Place
from boardlab.core.position import PieceState
from boardlab.core.registry import register
from boardlab.core.rules import EMPTY, Add, AtStep, Drop, Rules, Step, Verify, While
from boardlab.errors import NotationError
from boardlab.games.in_a_row import PIECES, InARow

# Value of a window of four cells holding 1, 2, 3 or 4 discs of one player and none of
# the other: a window of three (an open three) is a threat, worth far more than a start;
# a full one has won, worth more than any count of threats (a finished game is asked
# too).
WINDOW_WEIGHTS = (0, 1, 4, 16, 1000)
CENTRE_WEIGHT = 3


@lru_cache(maxsize=16)
def windows(rows: int, columns: int) -> tuple[tuple[int, ...], ...]:
    """Every line of four cells of a ``rows`` x ``columns`` board (cells numbered
    ``y * columns + x`` from the bottom left)."""
    out = []
    for y in range(rows):
        for x in range(columns):
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if 0 <= x + 3 * dx < columns and 0 <= y + 3 * dy < rows:
                    out.append(tuple((y + k * dy) * columns + x + k * dx for k in range(4)))
    return tuple(out)


@register
class ConnectFour(InARow):
    """Connect Four: drop discs into columns; four in a row wins."""

    name = "connect-four"
    description = "Connect Four: drop discs into columns, four in a row wins"
    source = "Milton Bradley (1974); Wikipedia, 'Connect Four'"
    board_style = "columns"
    line = 4
    option_schema = (
        Option("rows", 6, "number of rows", minimum=4, maximum=26),
        Option("columns", 7, "number of columns (named a, b, ...)", minimum=4, maximum=26),
    )
    known_perft = (7, 49, 343, 2401, 16807, 117649, 823536, 5673234)

    @property
    def rows(self) -> int:
        """The board's height."""
        return int(self.options["rows"])

    @property
    def columns(self) -> int:
        """The board's width."""
        return int(self.options["columns"])

    def make_board(self) -> Board:
        """The board, ``columns`` wide and ``rows`` high (``a1`` bottom left), its top
        row the zone where both players' drops start."""
        board = Board.square(self.columns, self.rows)
        top = [board.cell_name((self.rows - 1) * self.columns + x) for x in range(self.columns)]
        return board.with_zone("top", 0, top).with_zone("top", 1, top)

    def make_rules(self) -> Rules:
        """A disc of one's own onto an empty cell of the top row, falling while the
        cell below is empty (each player's supply never runs out; the other player has
        none of it)."""
        fall = While(AtStep(EMPTY, "s"), (Step("s"),))
        return Rules([Drop((Verify(EMPTY), fall, Add()), kinds=(piece.kind,), name="drop",
                           zone="top", unlimited_for=frozenset({piece.owner}))
                      for piece in PIECES.values()])

    def notation(self, state: PieceState, actions: tuple) -> str:
        """The column's letter, ``d``."""
        place = actions[-1]
        assert isinstance(place, Place)
        return file_letters(self.columns)[place.cell % self.columns]

    def check_notation(self, text: str) -> None:
        """A move is a column's letter."""
        letters = file_letters(self.columns)
        if text.lower() not in letters:
            raise NotationError(f"a move is a column letter, a to {letters[-1]}",
                                where=repr(text))

    def max_length(self) -> int:
        """At most one move per cell."""
        return self.rows * self.columns

    def parse_state(self, text: str) -> PieceState:
        """Read ``rows/.../rows side`` (rows from the top, the side ``x`` or ``o``, any
        case), e.g. ``...x... o`` on each row; no disc may float above an empty cell,
        nor may both players have four in a row."""
        parts = text.split()
        if len(parts) != 2:
            raise NotationError("expected 'rows side', e.g. '......./.../...x... o'",
                                where=repr(text))
        if parts[1].lower() not in ("x", "o"):
            raise NotationError("side to move must be x or o", where=repr(parts[1]))
        state = super().parse_state(f"{parts[0].lower()} {parts[1].lower()}")
        cells, columns = state.cells, self.columns
        for c in range(columns, len(cells)):
            if cells[c] is not None and cells[c - columns] is None:
                raise NotationError("a disc floats above an empty cell",
                                    where=self.board.cell_name(c - columns))
        owners = {cells[window[0]].owner for window in windows(self.rows, columns)  # type: ignore[union-attr]
                  if cells[window[0]] is not None
                  and all(cells[c] == cells[window[0]] for c in window)}
        if len(owners) > 1:
            raise NotationError("both players have four in a row", where=repr(text))
        return state

    def evaluate(self, state: State, player: int) -> float | None:
        """Windows of four still open to ``player`` (weighted by how full they are, open
        threes most) and discs in the centre column(s), minus the opponent's, squashed
        into (-1, 1)."""
        assert isinstance(state, PieceState)
        cells = state.cells
        score = 0
        for window in windows(self.rows, self.columns):
            own = other = 0
            for c in window:
                if (p := cells[c]) is not None:
                    if p.owner == player:
                        own += 1
                    else:
                        other += 1
            if own and not other:
                score += WINDOW_WEIGHTS[own]
            elif other and not own:
                score -= WINDOW_WEIGHTS[other]
        for x in {(self.columns - 1) // 2, self.columns // 2}:
            for y in range(self.rows):
                if (p := cells[y * self.columns + x]) is not None:
                    score += CENTRE_WEIGHT if p.owner == player else -CENTRE_WEIGHT
        return math.tanh(score / 40)
