"""Tic-tac-toe on 3x3 and its misère form.

Rules (standard; see e.g. Wikipedia, "Tic-tac-toe"): X and O take turns putting
their mark in an empty cell of a 3x3 grid, X first. Three of one's marks in a row,
column or diagonal wins; a full grid without such a line is a draw. In the misère
form (``misere-tic-tac-toe``) the player who completes a line *loses*.

Moves are written as the cell's name, ``a1`` (bottom left) to ``c3`` (top right).
The text form is FEN-like: the rows from the top, ``/``-separated, ``.`` for an
empty cell, then the side to move: ``x.o/.x./... o``.

Perft from the empty board (terminal positions not expanded): 9, 72, 504, 3024,
15120, 54720, 148176, 200448, 127872 -- 255,168 games, 5,478 distinct positions.
"""

from __future__ import annotations

import random
from typing import ClassVar

from boardlab.core.board import Board
from boardlab.core.game import (
    DRAW,
    Game,
    IncrementalState,
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

BOARD = Board.square(3, 3)
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6),
)
LINES_THROUGH: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(line for line in LINES if c in line) for c in range(9))
SYMBOLS = ".xo"
PIECES = (Piece(0, "X"), Piece(1, "O"))
MOVES = tuple(tuple(Move(BOARD.cell_name(c), (Place(c, PIECES[p]),)) for c in range(9))
              for p in range(2))
ZOBRIST = zobrist_table(2 * 9 + 1, "tic-tac-toe")


@register
class TicTacToe(Game):
    """Tic-tac-toe: three in a row wins."""

    name = "tic-tac-toe"
    description = "Tic-tac-toe on 3x3: three in a row wins"
    source = "Traditional; Wikipedia, 'Tic-tac-toe'"
    player_names = ("X", "O")
    board_style = "lines"
    known_perft = (9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872)
    misere: ClassVar[bool] = False

    @property
    def board(self) -> Board:
        """The 3x3 grid."""
        return BOARD

    def initial_state(self) -> TicTacToeState:
        """The empty grid, X to move."""
        return TicTacToeState(self, [0] * 9, 0)

    def max_length(self) -> int:
        """At most nine marks."""
        return 9

    def parse_state(self, text: str) -> TicTacToeState:
        """Read ``rows/rows/rows side``, e.g. ``x.o/.x./... o``."""
        parts = text.split()
        if len(parts) != 2:
            raise NotationError("expected 'rows side', e.g. 'x.o/.x./... o'", where=repr(text))
        rows = parts[0].split("/")
        if len(rows) != 3 or any(len(r) != 3 for r in rows):
            raise NotationError("expected three rows of three cells", where=repr(parts[0]))
        cells = [0] * 9
        for i, row in enumerate(rows):
            for x, ch in enumerate(row):
                if ch.lower() not in SYMBOLS:
                    raise NotationError(f"unknown mark {ch!r} (use x, o or .)",
                                        where=BOARD.cell_name((2 - i) * 3 + x))
                cells[(2 - i) * 3 + x] = SYMBOLS.index(ch.lower())
        if parts[1].lower() not in ("x", "o"):
            raise NotationError("side to move must be x or o", where=repr(parts[1]))
        return TicTacToeState(self, cells, "xo".index(parts[1].lower()))

    def evaluate(self, state: State, player: int) -> float | None:
        """Open lines of ``player`` minus the opponent's, scaled into [-1, 1]."""
        assert isinstance(state, TicTacToeState)
        score = 0
        for line in LINES:
            marks = {state.cells[c] for c in line} - {0}
            if marks == {player + 1}:
                score += 1
            elif marks == {2 - player}:
                score -= 1
        return score / 8


@register
class MisereTicTacToe(TicTacToe):
    """Misère tic-tac-toe: whoever completes three in a row loses."""

    name = "misere-tic-tac-toe"
    description = "Misère tic-tac-toe: three in a row loses"
    source = "Traditional (also 'toe-tac-tic'); Wikipedia, 'Tic-tac-toe', variations"
    misere = True

    def evaluate(self, state: State, player: int) -> float | None:
        """The opposite of tic-tac-toe's open-line count."""
        value = super().evaluate(state, player)
        return None if value is None else -value


class TicTacToeState(IncrementalState):
    """A tic-tac-toe position: nine cells (0 empty, 1 X, 2 O) and the side to move."""

    __slots__ = ("game", "cells", "_to_move", "_result", "_history", "_key")

    def __init__(self, game: TicTacToe, cells: list[int], to_move: int):
        self.game = game
        self.cells = cells
        self._to_move = to_move
        self._history: list[tuple[int, Returns | None]] = []
        self._key = ZOBRIST[18] * to_move
        for c, v in enumerate(cells):
            if v:
                self._key ^= ZOBRIST[(v - 1) * 9 + c]
        self._result = self._compute_result()

    def _compute_result(self) -> Returns | None:
        for a, b, c in LINES:
            v = self.cells[a]
            if v and v == self.cells[b] == self.cells[c]:
                return win_for(1 - (v - 1) if self.game.misere else v - 1)
        if all(self.cells):
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
        return [row[c] for c in range(9) if not self.cells[c]]

    def apply(self, move: Move) -> None:
        cell = move.actions[0].cell  # type: ignore[union-attr]
        player = self._to_move
        self._history.append((cell, self._result))
        self.cells[cell] = player + 1
        self._key ^= ZOBRIST[player * 9 + cell] ^ ZOBRIST[18]
        self._to_move = 1 - player
        for a, b, c in LINES_THROUGH[cell]:
            if self.cells[a] == self.cells[b] == self.cells[c]:
                self._result = win_for(1 - player if self.game.misere else player)
                return
        if all(self.cells):
            self._result = DRAW

    def undo(self) -> None:
        cell, self._result = self._history.pop()
        self._to_move = 1 - self._to_move
        self.cells[cell] = 0
        self._key ^= ZOBRIST[self._to_move * 9 + cell] ^ ZOBRIST[18]

    def clone(self) -> TicTacToeState:
        new = TicTacToeState.__new__(TicTacToeState)
        new.game = self.game
        new.cells = self.cells[:]
        new._to_move = self._to_move
        new._result = self._result
        new._history = []
        new._key = self._key
        return new

    def bitboards(self) -> tuple[int, int]:
        """X's and O's cells as 9-bit masks, bit ``c`` for cell ``c`` (the encoding of
        :mod:`boardlab.games.fast.tictactoe_kernel`)."""
        x = o = 0
        bit = 1
        for v in self.cells:
            if v == 1:
                x |= bit
            elif v:
                o |= bit
            bit <<= 1
        return x, o

    def rollout(self, rng: random.Random) -> Returns:
        """Returns of a uniformly random playout from here, played by the compiled
        bitboard kernel (:mod:`boardlab.games.fast.tictactoe_kernel`) with a seed drawn
        from ``rng``: the distribution of :meth:`State.rollout`, many times faster.
        The state is left unchanged."""
        if self._result is not None:
            return self._result
        x, o = self.bitboards()
        playout = fast.kernel("tictactoe_kernel").playout
        winner = playout(x, o, self._to_move, self.game.misere, rng.getrandbits(63))
        return fast.RETURNS[winner]

    def playouts(self, n: int, seed: int, plies: int | None = None,
                 policy: PlayoutPolicy | None = None) -> Playouts:
        """:meth:`State.playouts` of uniformly random whole games in one call of the
        compiled kernel (capped or weighted ones, and a finished position, take the
        generic path)."""
        if plies is not None or policy is not None or self._result is not None or n < 0:
            return super().playouts(n, seed, plies, policy)
        x, o = self.bitboards()
        counts = fast.kernel("tictactoe_kernel").playouts(
            x, o, self._to_move, self.game.misere, n, seed & ((1 << 63) - 1))
        return Playouts.of(zip(fast.RETURNS, counts.tolist(), strict=True), 2)

    def signature(self) -> tuple[tuple[int, ...], int]:
        return tuple(self.cells), self._to_move

    def __str__(self) -> str:
        rows = ["".join(SYMBOLS[self.cells[y * 3 + x]] for x in range(3)) for y in (2, 1, 0)]
        return "/".join(rows) + " " + "xo"[self._to_move]

    def check_notation(self, text: str) -> None:
        if not BOARD.has_cell(text.lower()):
            raise NotationError("a move is a cell name, a1 to c3", where=repr(text))

    def render(self) -> str:
        lines = []
        for y in (2, 1, 0):
            marks = " ".join(SYMBOLS[self.cells[y * 3 + x]].upper() for x in range(3))
            lines.append(f"{y + 1}  {marks}")
        lines.append("   a b c")
        return "\n".join(lines)
