"""Taacoca, written in boardlab's move language with group products.

Rules (Víkingur Fjalar Eiríksson, 2009), as published by the inventor's game site
iGGameCenter, "Taacoca" (http://www.iggamecenter.com/info/en/taacoca.html, the page
Dagaz's ``taacoca.zrf`` cites), with the board and setup of that ZRF file:

* A hexagonal board with five cells per side (61 cells), rows horizontal. The bottom
  row is White's home row, the top row Black's. Cells have Abalone's names: rows
  ``a`` (bottom) to ``i`` (top), numbered from the left edge of the hexagon.
* Each player has 12 stones: the five cells of the home row, the middle four cells
  of the next row and the middle three of the row after (White ``a1``-``a5``,
  ``b2``-``b5``, ``c3``-``c5``; Black the 180-degree turn of that).
* White moves first. A turn moves exactly three of one's stones one cell *forward*,
  all in the same direction (the two forward directions of a hex board with
  horizontal rows: north-west and north-east for White, south-east and south-west
  for Black). A player with fewer than three stones moves all of them; one who
  cannot, loses. The stones need not be adjacent.
* No stone may land on a cell held by one of the mover's stones, unless that stone
  leaves it in the same move (stones of a group may follow each other). Enemy
  stones on target cells are captured (chess capture).
* A player wins by reaching the opponent's home row with a stone, or when the
  opponent has no stones or no legal move. No draws are possible: every move takes
  stones forward.

Decisions, where sources differ: iGGameCenter says "forward" and "any of the two
shown directions", and that no draws are possible, which only holds if stones never
move back; Dagaz's ZRF and several student implementations let the group step in
all six directions. The default follows the published page; option ``directions``
= ``all`` plays the six-direction reading, where (the game being able to cycle) a
game is drawn after ``move_limit`` plies. Seed 003 describes exactly-three groups;
the project's notes on group moves say "groups of 1-3": option ``group`` = ``any``
lets 1, 2 or 3 stones move.

Moves are generated as Dagaz does (seed 003): every single-stone step first, then
the Cartesian products of steps of distinct stones in one direction
(:class:`~boardlab.core.templates.Group`), dropping those that bump into a stone of the
mover that stays. A move is written with the moved stones (in board order), a colon
and the direction of the board (``n``-``e``-``s``-``w`` compass names), then the
captured cells after ``x``: ``a2,b3,c5:nw`` or ``c3,c4,c5:ne xd5``. Selecting a
group in a UI never grows the selection (:func:`~boardlab.core.selection.no_closure`,
Dagaz's Taacoca closure): every stone is picked.

Text form: occupied cells as ``cell=symbol`` (``w`` White, ``b`` Black), the side to
move and the ply count. Perft from the start (default options): 58, 3364, 352408
(counted by the independent generator in tests/games/test_taacoca.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from boardlab.core.board import HEX_DIRECTIONS, Board
from boardlab.core.game import Option, State
from boardlab.core.goals import AbsoluteConfig, Condition, Goals, PiecesRemaining
from boardlab.core.heuristics import PieceSquare
from boardlab.core.move import Capture, Move, Piece, Shift
from boardlab.core.position import PieceGame, PieceState
from boardlab.core.registry import register
from boardlab.core.rules import Add, Group, Rules, Step
from boardlab.core.ruleset import RuleSet
from boardlab.core.selection import no_closure

WHITE, BLACK = Piece(0, "stone"), Piece(1, "stone")
SIDE = 5  # cells per side of the hexagon
FORWARD = ("nw", "ne")  # White's; Black's are their 180-degree turn (board symmetry)
_DIRECTION_OF = {v: k for k, v in HEX_DIRECTIONS.items()}


def single_step(direction: str) -> tuple:
    """The single-stone step the group product combines: ``$1 add`` (seed 003)."""
    return (Step(direction), Add())


@register
class Taacoca(PieceGame):
    """Taacoca: move three stones one step the same way; reach the far row."""

    name = "taacoca"
    description = "Taacoca (Eiriksson 2009): move three stones a step forward at once on a hex"
    source = ("Víkingur Fjalar Eiríksson, 2009; iGGameCenter, 'Taacoca' "
              "(iggamecenter.com/info/en/taacoca.html); Dagaz taacoca.zrf")
    player_names = ("white", "black")
    pieces = {"w": WHITE, "b": BLACK}
    option_schema = (
        Option("directions", "forward", "forward: the two forward directions (published); "
               "all: the six directions (Dagaz's ZRF)", choices=("forward", "all")),
        Option("group", "three", "three: exactly three stones (or all if fewer); "
               "any: 1, 2 or 3 stones", choices=("three", "any")),
        Option("move_limit", 300, "plies before a draw when directions=all",
               minimum=10, maximum=100_000),
    )
    known_perft = (58, 3364, 352408)

    def make_ruleset(self) -> RuleSet:
        """Abalone's 61-cell hexagon, Black's directions turned by 180 degrees; each
        side's home row, the middle four cells of the next row and the middle three of
        the third (taacoca.zrf's setup in Abalone's cell names); one group template
        over the allowed directions. A stone on the opponent's home row wins; a side
        without stones, or without a move, loses; ``move_limit`` plies draw when stones
        may move back (``directions=all``)."""
        board = Board.hexagon(SIDE).rotated_for(1)
        rows = {0: "a", 1: "i"}  # each side's goal: the opponent's home row
        for player, row in rows.items():
            board = board.with_zone("goal", player,
                                    [n for n in board.names if n[0] == row])
        white = ["a1", "a2", "a3", "a4", "a5", "b2", "b3", "b4", "b5", "c3", "c4", "c5"]
        black = ["i5", "i6", "i7", "i8", "i9", "h5", "h6", "h7", "h8", "g5", "g6", "g7"]
        directions = FORWARD if self.options["directions"] == "forward" \
            else tuple(HEX_DIRECTIONS)
        if self.options["group"] == "three":
            template = Group((), single=single_step, directions=directions, sizes=(3,),
                             all_if_fewer=True, name="group")
        else:
            template = Group((), single=single_step, directions=directions,
                             sizes=(1, 2, 3), name="group")
        zone = board.zones["goal"]
        home_of_the_other = (frozenset(zone[1]), frozenset(zone[0]))
        goals = Goals((
            Condition("win", (0, 1), AbsoluteConfig((("self", "stone"),),
                                                    home_of_the_other.__getitem__)),
            Condition("loss", (0, 1), PiecesRemaining(0)),
        ), 2)
        return self.named_ruleset(
            board=board, placement={**dict.fromkeys(white, WHITE), **dict.fromkeys(black, BLACK)},
            rules=Rules([template]), goals=goals,
            ply_limit=self.options["move_limit"] if self.options["directions"] == "all"
            else None)

    #: The notation reads the move's actions (and the side to move), not the position.
    notation_reads_position = False

    def notation(self, state: PieceState, actions: tuple) -> str:
        """``a2,b3,c5:nw``, then ``xd5,e6`` for captures."""
        board = self.board
        shifts = sorted((a.source, a.target) for a in actions if isinstance(a, Shift))
        source, target = shifts[0]
        vector = tuple(t - s for s, t in zip(board.coords[source], board.coords[target],
                                             strict=True))
        text = ",".join(board.cell_name(s) for s, _ in shifts) + ":" + _DIRECTION_OF[vector]
        captured = sorted(a.cell for a in actions if isinstance(a, Capture))
        if captured:
            text += " x" + ",".join(board.cell_name(c) for c in captured)
        return text

    def max_length(self) -> int:
        """Forward play: every move takes a side's stones at least one row nearer the
        goal, and they start 86 rows away in all; otherwise the move limit."""
        if self.options["directions"] == "forward":
            return 2 * 86
        return self.options["move_limit"]

    def closure(self, state: State, group: Sequence[int], move: Move) -> list[int]:
        """Dagaz's Taacoca closure: the selection never grows."""
        return no_closure(state, group, move)

    def kernel_heuristic(self) -> PieceSquare:
        """Material and advancement, the most advanced stone counting extra, as a
        piece-square table the kernel computes too: a stone is worth 1 and 0.08 of the
        square of its advance over the rows, the most advanced of each side 0.3 a row;
        the sum over 12."""
        return self.derived(self, "piece-square", self._piece_square)

    def _piece_square(self) -> PieceSquare:
        rows = 2 * SIDE - 1

        def advance(cell: int, owner: int) -> int:
            r = self.board.coords[cell][1] + SIDE - 1
            return r if owner == 0 else rows - 1 - r

        cells = range(self.board.size)
        pieces = sorted({p for p in self.pieces.values()}, key=lambda p: p.owner)
        return PieceSquare(
            tuple((p, tuple(1.0 + 0.08 * advance(c, p.owner) * advance(c, p.owner) / rows
                            for c in cells)) for p in pieces), 12,
            tuple((p, tuple(advance(c, p.owner) for c in cells)) for p in pieces), 0.3)

    def evaluate(self, state: State, player: int) -> float | None:
        """Material and advancement (:meth:`kernel_heuristic`)."""
        assert isinstance(state, PieceState)
        return self.kernel_heuristic().evaluate(state, player)
