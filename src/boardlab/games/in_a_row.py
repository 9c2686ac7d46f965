"""What tic-tac-toe (flat and 3-D) and Connect Four share, in the move language: each
player drops marks of their own, a line of them in a row wins (or loses), a full board
draws."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from functools import cached_property
from typing import ClassVar

from boardlab.core.board import Board
from boardlab.core.goals import AnyOf, Condition, Goals, RelativeConfig
from boardlab.core.move import Piece, Place
from boardlab.core.position import PieceGame, PieceState
from boardlab.core.rules import EMPTY, Add, Drop, Rules, Verify
from boardlab.core.ruleset import RuleSet

#: Each player's mark is a type of its own (the web app draws an X and an O, or discs
#: of two colours).
PIECES = {"x": Piece(0, "X"), "o": Piece(1, "O")}


class InARow(PieceGame):
    """A game of drops alone where :attr:`line` of a player's marks in a row along one
    of :attr:`directions` win (lose where :attr:`misere`), and a player with no move
    (a full board) draws. One mark a ply, so the text form leaves the ply out.

    By default a mark goes onto any empty cell of an empty board and is written as the
    cell's name (tic-tac-toe's way; Connect Four's discs fall instead)."""

    player_names = ("X", "O")
    pieces = PIECES
    #: How many marks in a row end the game.
    line: ClassVar[int] = 3
    #: The lines' directions on the board, one of each opposite pair (a line read
    #: both ways would be looked for twice): across, up and along both diagonals of a
    #: square board by default.
    directions: ClassVar[tuple[str, ...]] = ("e", "n", "ne", "nw")
    #: Whether the line loses rather than wins.
    misere: ClassVar[bool] = False
    #: The notation reads the move's actions alone.
    notation_reads_position = False

    def make_ruleset(self) -> RuleSet:
        """The game's board (:meth:`make_board`), empty at the start, its drops
        (:meth:`make_rules`) and :attr:`goals`."""
        return self.named_ruleset(board=self.make_board(), placement={},
                                  rules=self.make_rules(), goals=self.goals)

    @abstractmethod
    def make_board(self) -> Board:
        """The board for the current options."""

    def make_rules(self) -> Rules:
        """A mark of one's own onto any empty cell, from a supply that never runs out
        (the other player has none of it)."""
        return Rules([Drop((Verify(EMPTY), Add()), kinds=(piece.kind,), name="mark",
                           unlimited_for=frozenset({piece.owner}))
                      for piece in PIECES.values()])

    def notation(self, state: PieceState, actions: tuple) -> str:
        """The marked cell's name, ``b2``."""
        place = actions[-1]
        assert isinstance(place, Place)
        return self.board.names[place.cell]

    @cached_property
    def goals(self) -> Goals:
        """:attr:`line` of one's marks in a row along one of :attr:`directions` win
        (lose, misère); a full board draws.
        Relative configurations under an ``or``: the kernel looks for a new line only
        through the cell just marked."""
        lines = []
        for d in self.directions:
            for piece in PIECES.values():
                mark = ("self", piece.kind)
                items: list = [mark]
                for _ in range(self.line - 1):
                    items += [d, mark]
                lines.append(RelativeConfig(tuple(items)))
        return Goals((Condition("loss" if self.misere else "win", (0, 1), AnyOf(tuple(lines))),),
                     2, "draw")

    def implied_ply(self, cells: Sequence[Piece | None]) -> int | None:
        """One mark a ply: as many plies as marks."""
        return sum(cell is not None for cell in cells)
