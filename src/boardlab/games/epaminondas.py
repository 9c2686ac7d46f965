"""Epaminondas (Robert Abbott, 1975), written in boardlab's move language.

Rules (Abbott's published rules as given by Wikipedia, "Epaminondas (game)"; Kerry
Handscomb, "Epaminondas", Abstract Games 3, 2000, reprinted on Abbott's logicmazes.com;
iggamecenter.com's and ludicum.org's rules pages):

* The board has 14 files and 12 rows; White fills rows 1-2, Black rows 11-12 (28 pieces
  each). The 8x8 variant (option ``size="8x8"``; "a board with 8x8 squares can also be
  used for faster games", iggamecenter; Dagaz's ``epaminondas.zrf``) has 16 pieces each
  on rows 1-2 and 7-8. White moves first.
* A *phalanx* is a line of one or more of a player's pieces, contiguous in one of the
  eight directions. A phalanx moves along its own line, forwards or backwards, by 1 to
  its length cells; a single piece moves like a chess king. A player need not move a
  whole line: the front part of a line may move away from the rest, so a move is fixed
  by its *rear piece* and its direction (the phalanx is every own piece contiguous
  ahead of the rear piece) and its distance.
* A phalanx never moves onto or across own pieces, nor across enemy pieces. Its head
  may land on an enemy piece if the enemy line that starts there and goes on in the
  direction of the move (the hit piece and the enemy pieces contiguous behind it) is
  strictly shorter than the moving phalanx; that whole enemy line is captured (chess
  capture; the phalanx stops on the first enemy's cell). A single piece therefore
  never captures. Capturing is never compulsory.
* Crossing: a player wins when, *at the start of his turn*, he has strictly more
  pieces on the opponent's home row than the opponent has on his own home row. So a
  piece reaching the far row does not win at once: the opponent gets one turn to
  capture it or to cross as many pieces himself; the win is decided at the start of
  the crosser's next turn (Wikipedia; iggamecenter: "after the opponent's turn").
  As goals: :class:`~boardlab.core.goals.MoreInZone` (the far rows) for the player
  :class:`~boardlab.core.goals.ToMove`.
* Anti-copycat rule (Wikipedia): no player may move a piece onto the opponent's home
  row if that move creates a symmetric pattern, here: the position mirrored between
  the two home rows with the colours swapped is the position itself (the pattern a
  second player copying every move would make).
* The published rules name no draw and no stalemate. As Dagaz's ZRF, a player without
  a legal move (or without pieces) loses. So that every game ends, option
  ``max_moves`` (default 1000 plies) declares a draw when reached; it is a boardlab
  addition, not Abbott's.

Move notation: the rear piece of the moving phalanx, ``-`` (or ``x`` when the move
captures), and the cell the rear piece goes to: ``a1-a3`` moves the phalanx a1-a2 two
cells north; ``c5xe7`` moves the diagonal c5-d6 two cells north-east onto the enemy on
e7 (and the enemies contiguous behind it on the diagonal), capturing them. The rear
piece and its target fix the direction, the distance and hence the phalanx, so the
notation is unique. Text form: the rows from the top (``W`` White, ``B`` Black, ``.``
empty), the side to move, then ``ply:N`` once moves were made.

Move language: one template per direction and distance, run from the rear piece,
generalising the article's push-2 (seed 003 and Dagaz's ZRF): at each piece of the
line ``Mark``, step to the cell the previous piece goes to, ``To`` (put it down),
``Back``, ``Cascade`` (pick this piece up), step on; then check the path beyond the
head and the length of the enemy line a capture takes (counters ``length`` and
``enemy``). The anti-copycat rule is an invariant of :class:`~boardlab.core.turn.Rules`,
:class:`~boardlab.core.templates.NotMirrored` (the board mirrored between the home rows, for
moves onto the far row), so the game plays on its kernel (:mod:`boardlab.core.kernel`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boardlab.core.board import SQUARE_DIRECTIONS, Board
from boardlab.core.game import Option, State
from boardlab.core.goals import AllOf, Condition, Goals, MoreInZone, ToMove
from boardlab.core.heuristics import PieceSquare
from boardlab.core.move import Capture, Move, Piece, Shift
from boardlab.core.position import PieceGame, PieceState
from boardlab.core.registry import register
from boardlab.core.rules import (
    EMPTY,
    ENEMY,
    FRIEND,
    Add,
    Back,
    CaptureHere,
    Cascade,
    If,
    Inc,
    Instruction,
    Mark,
    NotMirrored,
    Rules,
    SetVar,
    Step,
    Template,
    To,
    Verify,
    While,
    less,
    not_,
    var,
)
from boardlab.core.ruleset import RuleSet
from boardlab.core.selection import line_closure

WHITE, BLACK = Piece(0, "man"), Piece(1, "man")
SIZES = {"14x12": (14, 12), "8x8": (8, 8)}
DIRECTIONS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")


def phalanx_move(d: str, distance: int) -> tuple[Instruction, ...]:
    """The move of the phalanx whose rear piece is the template's piece, ``distance``
    cells in direction ``d``: the seed's push-2 generalised to any distance, with the
    length check and the capture of a shorter enemy line."""
    program: list[Instruction] = [SetVar("length", 1)]
    if distance > 1:  # the phalanx must be at least ``distance`` long: prune early
        program += [Mark(), *[i for _ in range(distance - 1) for i in (Step(d), Verify(FRIEND))],
                    Back()]
    walk = [Step(d), Verify(not_(ENEMY))] * (distance - 1)
    program += [
        Step(d),
        # At each further piece of the line: put the previous one down ``distance``
        # cells ahead of where it stood, come back and pick this one up.
        While(FRIEND, (Inc("length"), Mark(), *walk, To(), Back(), Cascade(), Step(d))),
    ]
    # The cursor is one cell beyond the head, the head in hand: the path must be empty
    # up to the landing cell, which is empty or holds a shorter enemy line.
    for _ in range(distance - 1):
        program += [Verify(EMPTY), Step(d)]
    program += [
        If(ENEMY, (
            SetVar("enemy", 1), Mark(), Step(d, may_leave=True),
            While(ENEMY, (CaptureHere(), Inc("enemy"), Step(d, may_leave=True))),
            Verify(less(var("enemy"), var("length"))),
            Back(),
        ), (Verify(EMPTY),)),
        Add(),
    ]
    return tuple(program)


@register
class Epaminondas(PieceGame):
    """Epaminondas: phalanxes of pieces move and capture along their lines."""

    name = "epaminondas"
    description = ("Epaminondas (Abbott 1975): phalanxes move along their lines, capture "
                   "shorter lines, cross to the far row")
    source = ("Robert Abbott, 1975; Wikipedia, 'Epaminondas (game)'; K. Handscomb, Abstract "
              "Games 3 (2000), logicmazes.com/games/epam; iggamecenter.com/rules/epaminondas")
    player_names = ("white", "black")
    board_style = "chequered"
    pieces = {"W": WHITE, "B": BLACK}
    option_schema = (
        Option("size", "14x12", "board: Abbott's 14x12 or the 8x8 variant",
               choices=tuple(SIZES)),
        Option("max_moves", 1000, "plies after which the game is a draw (not in the "
               "published rules)", minimum=2, maximum=100_000),
    )
    #: From the 14x12 start, computed by the independent brute-force generator of
    #: tests/games/test_epaminondas.py (8x8: 60, 3600, 269278); the tests check depths
    #: 1-2 against this module, depth 3 was checked once (too slow for the suite).
    known_perft = (114, 12996, 1787292)

    @property
    def width(self) -> int:
        """Number of files."""
        return SIZES[self.options["size"]][0]

    @property
    def height(self) -> int:
        """Number of rows."""
        return SIZES[self.options["size"]][1]

    def make_ruleset(self) -> RuleSet:
        """A square board with eight directions, zone ``home`` each side's first row,
        which with the next it fills; a template per direction and distance, the
        anti-copycat rule as invariant. The crossing rule: the player to move wins with
        more pieces on the far row (the opponent's home row) than the opponent has on
        theirs; a player without a move loses; ``max_moves`` draw."""
        width, height = self.width, self.height
        board = Board.square(width, height)
        board = board.with_zone("home", 0, board.names[:width])
        board = board.with_zone("home", 1, board.names[(height - 1) * width:])
        names = board.names
        placement = {}
        for row in (0, 1):
            for x in range(width):
                placement[names[row * width + x]] = WHITE
                placement[names[(height - 1 - row) * width + x]] = BLACK
        home = board.zones["home"]
        far_rows = (frozenset(home[1]), frozenset(home[0]))
        templates = [Template(phalanx_move(d, k), name="phalanx", direction=d)
                     for d in DIRECTIONS for k in range(1, self.farthest(d) + 1)]
        image = mirror_image(width, height)
        # Moves depend only on the cells and the side to move, which the key hashes.
        rules = Rules(templates, invariants=[NotMirrored(image, far_rows)], cache_size=1024)
        crossing = AllOf((ToMove(), MoreInZone(far_rows.__getitem__)))
        return self.named_ruleset(board=board, placement=placement, rules=rules,
                                  goals=Goals((Condition("win", (0, 1), crossing),), 2),
                                  ply_limit=self.options["max_moves"])

    def farthest(self, direction: str) -> int:
        """The longest distance a phalanx can move in ``direction``: a phalanx of
        length L moving k <= L cells needs L + k cells in its line, so k <= line / 2."""
        dx, dy = SQUARE_DIRECTIONS[direction]
        line = min(self.width if dx else self.height, self.height if dy else self.width)
        return line // 2

    # --- endings -------------------------------------------------------------------------
    def max_length(self) -> int:
        """The move limit."""
        return self.options["max_moves"]

    # --- notation and UI -----------------------------------------------------------------
    #: The notation reads the move's actions (and the side to move), not the position.
    notation_reads_position = False

    def notation(self, state: PieceState, actions: tuple) -> str:
        """The rear piece, ``-`` or ``x``, and the rear piece's target."""
        rear = rear_shift(self.board, actions)
        sep = "x" if any(isinstance(a, Capture) for a in actions) else "-"
        name = self.board.cell_name
        return f"{name(rear.source)}{sep}{name(rear.target)}"

    def closure(self, state: State, group: Sequence[int], move: Move) -> list[int]:
        """A selected rear piece grows along the phalanx's line (Dagaz's Ordo closure)."""
        return line_closure(state, group, move)

    def kernel_heuristic(self) -> PieceSquare:
        """Material, advancement and pieces on the far row, as a piece-square table the
        kernel computes too: a piece is worth 1 and half its advance over the rows, 2
        more on the far row; the sum over four rows of pieces."""
        return self.derived(self, "piece-square", self._piece_square)

    def _piece_square(self) -> PieceSquare:
        width, height = self.width, self.height

        def worth(cell: int, owner: int) -> float:
            y = cell // width
            advance = y if owner == 0 else height - 1 - y
            value = 1.0 + 0.5 * advance / (height - 1)
            if advance == height - 1:
                value += 2.0
            return value

        cells = range(self.board.size)
        return PieceSquare(tuple((piece, tuple(worth(c, piece.owner) for c in cells))
                                 for piece in (WHITE, BLACK)), 2 * width * 2)

    def evaluate(self, state: State, player: int) -> float | None:
        """Material, advancement and pieces on the far row, from ``player``'s side
        (:meth:`kernel_heuristic`)."""
        assert isinstance(state, PieceState)
        return self.kernel_heuristic().evaluate(state, player)


def rear_shift(board: Board, actions: Sequence[Any]) -> Shift:
    """The shift of the rear piece of a phalanx move: the one whose source is no other
    shift's target-side neighbour, i.e. the shift farthest back along the direction."""
    shifts = [a for a in actions if isinstance(a, Shift)]
    first = shifts[0]
    if len(shifts) == 1:
        return first
    (x0, y0), (x1, y1) = board.coords[first.source], board.coords[first.target]
    dx, dy = (x1 > x0) - (x1 < x0), (y1 > y0) - (y1 < y0)
    return min(shifts, key=lambda s: board.coords[s.source][0] * dx
               + board.coords[s.source][1] * dy)


def mirror_image(width: int, height: int) -> tuple[int, ...]:
    """Each cell's twin across the middle between the home rows (file kept, row
    mirrored)."""
    return tuple((height - 1 - cell // width) * width + cell % width
                 for cell in range(width * height))


def is_mirror_symmetric(cells: Sequence[Piece | None], width: int, height: int) -> bool:
    """Whether the position mirrored between the home rows, colours swapped, is itself."""
    return NotMirrored(mirror_image(width, height)).mirrored(cells)
