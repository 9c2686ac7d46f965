"""Breakthrough, written in boardlab's move language.

Rules (Dan Troyka, 2000; Wikipedia, "Breakthrough (board game)"): an 8x8 board,
each player's two home rows filled with pieces; White (rows 1-2) moves first. A
piece moves one cell straight forward or diagonally forward onto an empty cell,
and captures only diagonally forward (moving onto the enemy piece). A player wins
by reaching the opponent's home row or by capturing every enemy piece; a player
with no legal move loses.

Moves are written ``a2-a3`` and, for captures, ``b4xc5``. Text form: the rows from
the top (``w`` white, ``b`` black, ``.`` empty), then the side to move, as in
``bbbbbbbb/bbbbbbbb/8 dots.../wwwwwwww/wwwwwwww white``.

Options ``rows`` and ``columns`` (default 8) play smaller or larger boards.
Perft from the start: 22, 484, 11132, 256036, 6182818.
"""

from __future__ import annotations

from boardlab.core.board import Board
from boardlab.core.game import Option, State
from boardlab.core.goals import AbsoluteConfig, Condition, Goals, PiecesRemaining
from boardlab.core.heuristics import PieceSquare
from boardlab.core.move import Piece
from boardlab.core.position import PieceGame, PieceState
from boardlab.core.registry import register
from boardlab.core.rules import EMPTY, FRIEND, Add, Rules, Step, Template, Verify, not_
from boardlab.core.ruleset import RuleSet

WHITE, BLACK = Piece(0, "pawn"), Piece(1, "pawn")


@register
class Breakthrough(PieceGame):
    """Breakthrough: race a piece to the opponent's home row."""

    name = "breakthrough"
    description = "Breakthrough (Troyka 2000): race a piece to the far row, diagonal captures"
    source = "Dan Troyka, 2000; Wikipedia, 'Breakthrough (board game)'"
    player_names = ("white", "black")
    board_style = "chequered"
    pieces = {"w": WHITE, "b": BLACK}
    option_schema = (
        Option("rows", 8, "board rows", minimum=4, maximum=26),
        Option("columns", 8, "board columns", minimum=2, maximum=26),
    )
    known_perft = (22, 484, 11132, 256036, 6182818)

    def make_ruleset(self) -> RuleSet:
        """A square board on which Black's directions are turned by 180 degrees, two
        full home rows each; a piece steps forward onto an empty cell or diagonally
        forward onto a cell without a friend; a piece on the far row wins, a side
        without pieces, or without a move, loses."""
        rows, cols = self.options["rows"], self.options["columns"]
        board = Board.square(cols, rows).rotated_for(1)
        placement = {}
        for x in range(cols):
            for y in (0, 1):
                placement[board.cell_name(y * cols + x)] = WHITE
                placement[board.cell_name((rows - 1 - y) * cols + x)] = BLACK
        rules = Rules([
            Template((Step("n"), Verify(EMPTY), Add()), name="step"),
            Template((Step("nw"), Verify(not_(FRIEND)), Add()), name="diagonal"),
            Template((Step("ne"), Verify(not_(FRIEND)), Add()), name="diagonal"),
        ])
        far = (frozenset(range((rows - 1) * cols, rows * cols)), frozenset(range(cols)))
        goals = Goals((
            Condition("win", (0, 1), AbsoluteConfig((("self", "pawn"),), far.__getitem__)),
            Condition("loss", (0, 1), PiecesRemaining(0)),
        ), 2)
        return self.named_ruleset(board=board, placement=placement, rules=rules,
                                  goals=goals)

    #: The notation reads the move's actions (and the side to move), not the position.
    notation_reads_position = False

    def notation(self, state: PieceState, actions: tuple) -> str:
        """``a2-a3`` or ``b4xc5``."""
        # The rules make (Shift,) or (Capture, Shift): read them without a search.
        names = self.board.names
        shift = actions[-1]
        sep = "x" if len(actions) > 1 else "-"
        return f"{names[shift.source]}{sep}{names[shift.target]}"

    def max_length(self) -> int:
        """Every move takes a piece one row forward."""
        return 4 * self.options["columns"] * (self.options["rows"] - 1)

    def kernel_heuristic(self) -> PieceSquare:
        """Material and advancement as a piece-square table, which the kernel computes
        too: each piece is worth 1 and a tenth of the square of its advance over the
        rows, the sum over two rows of pieces (a side's start) 1."""
        return self.derived(self, "piece-square", self._piece_square)

    def _piece_square(self) -> PieceSquare:
        cols, rows = self.options["columns"], self.options["rows"]

        def worth(cell: int, owner: int) -> float:
            y = cell // cols
            advance = y if owner == 0 else rows - 1 - y
            return 1.0 + 0.1 * advance * advance / rows

        cells = range(self.board.size)
        return PieceSquare(tuple((piece, tuple(worth(c, piece.owner) for c in cells))
                                 for piece in (WHITE, BLACK)), 2 * cols)

    def evaluate(self, state: State, player: int) -> float | None:
        """Material and advancement (:meth:`kernel_heuristic`)."""
        assert isinstance(state, PieceState)
        return self.kernel_heuristic().evaluate(state, player)
