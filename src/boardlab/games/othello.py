"""Othello (modern Reversi) on the standard 8x8 board, written in boardlab's move
language.

Rules (World Othello Federation rules; see e.g. Wikipedia, "Reversi"): the game
starts with white discs on d4 and e5 and black discs on d5 and e4; black moves
first. A move puts a disc of one's colour on an empty cell so that one or more
straight lines (horizontal, vertical or diagonal) of the opponent's discs lie
between it and another disc of one's colour; all those opponent discs are flipped.
A player without such a placement passes, but only if the opponent can move; when
neither player can move the game ends and the player with more discs wins (equal
counts draw).

Moves are written as the cell's name, ``a1`` to ``h8``, or ``pass``. Cells use
Othello's usual names: files a..h from left to right, rows 1..8 from the *top*, so
the first moves are d3, c4, f5 and e6. The text form is FEN-like: the rows 1 to 8
(top to bottom), ``/``-separated, ``.`` for an empty cell, ``x`` for black and ``o``
for white, then the side to move:
``......../......../......../...ox.../...xo.../......../......../........ x``.

A move's actions are the :class:`~boardlab.core.move.Place` of the new disc and one
:class:`~boardlab.core.move.Change` per flipped disc, line by line in the order
n, ne, e, se, s, sw, w, nw of the board's directions (``n`` towards row 8), each line
from the new disc outwards; ``pass`` has no actions.

Perft from the start (passes count as moves, terminal positions are not expanded):
4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571056 (OEIS A124004,
"number of possible Reversi games at the end of the n-th ply").

In the language (the rules of ``examples/zrf/reversi.zrf``): a drop of one's own
disc onto an empty cell, from a supply that never runs out, which looks along each of
the eight directions for a line of the opponent's discs closed by one of the mover's,
flips that line's discs and sets a flag, then verifies the flag; a player with no drop
passes while the opponent has one (a forced pass); when neither has, a count condition
gives the game to the player with more discs. The game runs on its kernel
(:mod:`boardlab.core.kernel`): a position's moves and a whole random playout are
kernel calls.
"""

from __future__ import annotations

from typing import Any, ClassVar

from boardlab.core.board import Board
from boardlab.core.game import State
from boardlab.core.goals import Condition, Goals, Stalemated
from boardlab.core.heuristics import Blend, CellsHeld, MobilityBalance, PieceBalance
from boardlab.core.move import Piece, Place
from boardlab.core.position import PieceGame, PieceState
from boardlab.core.registry import register
from boardlab.core.rules import (
    EMPTY,
    ENEMY,
    FRIEND,
    Add,
    AtStep,
    Back,
    ChangeOwner,
    ChangeType,
    Drop,
    If,
    Instruction,
    Mark,
    Rules,
    SetFlag,
    Step,
    Verify,
    While,
    flag,
)
from boardlab.core.ruleset import RuleSet
from boardlab.errors import NotationError

SIZE = 8
# Board.square names cell y * 8 + x as file x, row y + 1; Othello draws row 1 on top,
# so only drawing and text order differ from the board's own bottom-up picture.
BOARD = Board.square(SIZE, SIZE)
#: Each colour is a type of its own (the web app names a disc by its type: "white"),
#: and the text form's symbol of each.
PIECES = {"x": Piece(0, "black"), "o": Piece(1, "white")}
SYMBOLS = {piece.owner: symbol for symbol, piece in PIECES.items()}
#: The directions a drop looks along, in the order its flips are listed.
DIRECTIONS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
CORNERS = tuple(BOARD.cell(n) for n in ("a1", "h1", "a8", "h8"))
_HEURISTIC = Blend(((0.5, CellsHeld(CORNERS)), (0.35, MobilityBalance()),
                    (0.15, PieceBalance())))


def flank(direction: str, colour: str) -> tuple[Instruction, ...]:
    """The ``flank`` macro of ``examples/zrf/reversi.zrf``: from the drop's cell, a line
    of the opponent's discs in ``direction`` closed by one of the mover's is flipped to
    ``colour`` (its owner the mover, its type ``colour``) and the flag ``flanked`` set;
    the cursor ends back on the drop's cell either way."""
    flip = (ChangeOwner(), ChangeType(colour))
    walk = (Step(direction),)
    closed = (Back(), Step(direction), While(ENEMY, (*flip, Step(direction))),
              SetFlag("flanked", True))
    return (Mark(),
            If(AtStep(ENEMY, direction),
               (Step(direction), While(AtStep(ENEMY, direction), walk),
                If(AtStep(FRIEND, direction), closed))),
            Back())


class OthelloState(PieceState):
    """An Othello position: the generic position of pieces with Othello's text form
    (row 1 first, ``x`` and ``o``), drawing and disc counts; positions are equal by
    their discs and side to move alone."""

    __slots__ = ()
    # Takes kernels: its fields are PieceState's.
    kernel_fields: ClassVar[dict[str, Any]] = {}

    def signature(self) -> tuple[Any, ...]:
        """The cells and the side to move, not the ply: the rules never read it and the
        text cannot say it (a pass leaves no trace on the board), so a position equals
        itself read back from its text whatever ply it was reached at."""
        return tuple(self.cells), self._to_move

    def disc_counts(self) -> tuple[int, int]:
        """The number of black and white discs."""
        black = white = 0
        for piece in self.cells:
            if piece is not None:
                if piece.owner:
                    white += 1
                else:
                    black += 1
        return black, white

    def _rows(self) -> list[str]:
        """The symbols of rows 1 to 8."""
        cells = self.cells
        return ["".join("." if (p := cells[y * SIZE + x]) is None else SYMBOLS[p.owner]
                        for x in range(SIZE)) for y in range(SIZE)]

    def __str__(self) -> str:
        return "/".join(self._rows()) + " " + "xo"[self._to_move]

    def render(self) -> str:
        """The board, row 1 on top, and the count of each colour's discs."""
        lines = ["   a b c d e f g h"]
        for y, row in enumerate(self._rows()):
            lines.append(f"{y + 1}  {' '.join(row.upper())}")
        black, white = self.disc_counts()
        lines.append(f"black (X) {black}, white (O) {white}")
        return "\n".join(lines)


def othello_rules() -> Rules:
    """For each colour, a drop of its disc onto an empty cell (its player's supply
    never runs out, the other player has none of it) that flanks a line of the
    opponent's discs in at least one direction, flipping every line it flanks; a
    player with no drop passes while the opponent has one."""
    templates = []
    for piece in PIECES.values():
        program: list[Instruction] = [Verify(EMPTY)]
        for d in DIRECTIONS:
            program += flank(d, piece.kind)
        program += [Verify(flag("flanked")), Add()]
        templates.append(Drop(tuple(program), kinds=(piece.kind,), name="drop",
                              unlimited_for=frozenset({piece.owner})))
    return Rules(templates, pass_turn="forced")


@register
class Othello(PieceGame):
    """Othello: outflank and flip the opponent's discs; most discs wins."""

    name = "othello"
    description = "Othello (Reversi) on 8x8: flip the opponent's discs, most discs wins"
    source = "World Othello Federation rules; Wikipedia, 'Reversi'; perft: OEIS A124004"
    player_names = ("black", "white")
    board_style = "lines"
    known_perft = (4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288)
    pieces = PIECES
    state_class = OthelloState
    #: The notation reads the move's actions alone.
    notation_reads_position = False

    def make_ruleset(self) -> RuleSet:
        """The 8x8 board (cell ``y * 8 + x`` is file ``x``, row ``y + 1``); white on
        d4 and e5, black on d5 and e4, black moves first; the drops of
        :func:`othello_rules`. When the player to move has no move, not even a pass
        (neither player can place a disc), the game is counted: more discs wins, equal
        counts draw."""
        black, white = PIECES["x"], PIECES["o"]
        return self.named_ruleset(
            board=BOARD, placement={"d4": white, "e5": white, "d5": black, "e4": black},
            rules=othello_rules(), goals=Goals((Condition("count", (0, 1), Stalemated()),), 2))

    def notation(self, state: PieceState, actions: tuple) -> str:
        """The new disc's cell, ``d3``."""
        place = actions[0]
        assert isinstance(place, Place)
        return BOARD.names[place.cell]

    def check_notation(self, text: str) -> None:
        """A move is a cell name or ``pass``."""
        if text.lower() != "pass" and not BOARD.has_cell(text.lower()):
            raise NotationError("a move is a cell name, a1 to h8, or pass", where=repr(text))

    def max_length(self) -> int:
        """At most 60 placements, and a pass is always followed by a placement."""
        return 120

    def parse_state(self, text: str) -> PieceState:
        """Read ``rows/.../rows side`` (row 1 first; ``x``, ``o`` and ``.``, any case),
        e.g. ``...ox...`` for row 4. The ply is the count of discs placed since the
        start (passes leave no trace)."""
        parts = text.split()
        if len(parts) != 2:
            raise NotationError("expected 'rows side', e.g. '......../.../...ox.../... x'",
                                where=repr(text))
        rows = parts[0].split("/")
        if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
            raise NotationError("expected eight rows of eight cells", where=repr(parts[0]))
        cells: list[Piece | None] = [None] * BOARD.size
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                symbol = ch.lower()
                if symbol != "." and symbol not in PIECES:
                    raise NotationError(f"unknown disc {ch!r} (use x, o or .)",
                                        where=BOARD.cell_name(y * SIZE + x))
                cells[y * SIZE + x] = PIECES.get(symbol)
        if parts[1].lower() not in ("x", "o"):
            raise NotationError("side to move must be x (black) or o (white)",
                                where=repr(parts[1]))
        discs = sum(cell is not None for cell in cells)
        return self.new_state(cells, "xo".index(parts[1].lower()), {}, max(0, discs - 4))

    def kernel_heuristic(self) -> Blend:
        """Corners held, then mobility (the moves that place a disc), then discs: each
        a difference scaled into [-1, 1], weighted 0.5, 0.35 and 0.15; the kernel
        computes it too."""
        return _HEURISTIC

    def evaluate(self, state: State, player: int) -> float | None:
        """:meth:`kernel_heuristic`."""
        assert isinstance(state, OthelloState)
        return _HEURISTIC.evaluate(state, player)

