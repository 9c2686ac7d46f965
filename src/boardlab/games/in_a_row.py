"""What tic-tac-toe and Connect Four share, in the move language: each player drops
marks of their own, a line of them in a row wins (or loses), a full board draws."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import ClassVar

from boardlab.core.goals import AnyOf, Condition, Goals, RelativeConfig
from boardlab.core.move import Piece
from boardlab.core.position import PieceGame

#: Each player's mark is a type of its own (the web app draws an X and an O, or discs
#: of two colours).
PIECES = {"x": Piece(0, "X"), "o": Piece(1, "O")}
#: A line of the player's marks, one step apart in each of these directions.
DIRECTIONS = ("e", "n", "ne", "nw")


class InARow(PieceGame):
    """A game of drops alone where :attr:`line` of a player's marks in a row, across,
    up or along a diagonal, win (lose where :attr:`misere`), and a player with no move
    (a full board) draws. One mark a ply, so the text form leaves the ply out."""

    player_names = ("X", "O")
    pieces = PIECES
    #: How many marks in a row end the game.
    line: ClassVar[int] = 3
    #: Whether the line loses rather than wins.
    misere: ClassVar[bool] = False
    #: The notation reads the move's actions alone.
    notation_reads_position = False

    @cached_property
    def goals(self) -> Goals:
        """:attr:`line` of one's marks in a row win (lose, misère); a full board draws.
        Relative configurations under an ``or``: the kernel looks for a new line only
        through the cell just marked."""
        lines = []
        for d in DIRECTIONS:
            for piece in PIECES.values():
                mark = ("self", piece.kind)
                items: list = [mark]
                for _ in range(self.line - 1):
                    items += [d, mark]
                lines.append(RelativeConfig(tuple(items)))
        return Goals((Condition("loss" if self.misere else "win", (0, 1), AnyOf(tuple(lines))),),
                     2, "draw")

    def end_goals(self) -> Goals:
        """:attr:`goals`."""
        return self.goals

    def implied_ply(self, cells: Sequence[Piece | None]) -> int | None:
        """One mark a ply: as many plies as marks."""
        return sum(cell is not None for cell in cells)
