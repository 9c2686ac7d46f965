"""Ordo and Ordo X (Dieter Stein, 2009), written in boardlab's move language.

Rules (Dieter Stein, official rules at spielstein.com/games/ordo/rules and
spielstein.com/games/ordo-x; the same texts on boardspace.net/ordo/english/ordo-rules.html
and ordox-rules.html; Dagaz's ordo.zrf for the setup):

* A 10x8 board; 20 pieces each. White: a2 a3 b2 b3 c1 c2 d1 d2 e2 e3 f2 f3 g1 g2 h1 h2 i2
  i3 j2 j3; Black the mirror image (a6 a7 b6 b7 c7 c8 ...). White moves first; no passing.
* **Connection.** After a player's move all of that player's pieces form one group,
  orthogonally or diagonally connected (a single piece is a group).
* **Singleton moves.** A piece moves forward, diagonally forward or sideways in a straight
  line over any number of empty cells; it may end on an enemy piece, which is captured.
* **Ordo moves.** An *ordo* is a straight horizontal or vertical line of two or more own
  pieces (any such segment, not only a maximal one). A horizontal ordo moves forward, a
  vertical ordo sideways, every piece the same number of empty cells, never diagonally and
  never in single file (in line). Ordos do not capture.
* **Reconnection.** If a capture disconnects a player's group, that player's next move must
  reconnect it (the connection rule above); for that move only, pieces may also move
  backward (singletons straight or diagonally back, horizontal ordos back). If no move
  reconnects the group the player loses.
* **End.** A player wins by placing a piece on the opponent's home row, by capturing every
  enemy piece, or when the opponent cannot move (in particular cannot reconnect). As
  goals: :class:`~boardlab.core.goals.AbsoluteConfig` (the far row) wins,
  :class:`~boardlab.core.goals.PiecesRemaining` (none) loses; the connection rule is no
  goal but a rule of the moves (an invariant), so a player who cannot reconnect has no
  move.

Ordo X (``ordo-x``) changes, from spielstein.com/games/ordo-x and boardspace.net's
implementation of it:

* A capture that disconnects the opponent's group also removes every smaller isolated
  sub-group, so only the largest group remains; when several largest groups tie, the
  capturer chooses which one stays. Hence no reconnection (backward) moves ever.
* Ordos (still horizontal or vertical lines) also move diagonally forward and in single
  file; they still never capture and never move backward.
* A sideways move (singleton or ordo, to the left or right) is a *preparation move*: the
  same player then moves again, forward only (straight or diagonally), with the same or
  other pieces. The two halves are two plies here; the text form marks the pending half.
  Boardlab does not require that a forward move exist after a sideways move: a player
  left without one loses (as on boardspace.net, whose engine behaves the same way).
* A player wins by reaching the opponent's home row or capturing every enemy piece (or
  when the opponent cannot move).

Dagaz's ordo.zrf has a looser "Ordo X" (eight-way slides, pushes in every direction); we
follow Dieter Stein's published rules instead.

**Move limit.** The published rules have no draw; sideways moves can repeat forever, so
boardlab adds a draw after ``move_limit`` plies (option, default 300 for Ordo and 400 for
Ordo X, whose turns may take two plies).

**Notation.** A singleton move is ``b2-b5``, a capture ``b2xb5``; in Ordo X a capture that
removes sub-groups is written the same, with ``/f6`` appended (the first cell of the group
kept) only when the capturer had a choice. An ordo move is ``b2:e2-b4``: the ordo from its
first cell (its end nearer a1) to its last cell, then the cell where its first
piece lands (b2..e2 moved to b4..e4). Text form: rows from the top (``w`` white, ``b``
black, ``.`` empty), the side to move, then ``ply:N`` and, in Ordo X, ``follow:sideways``
while the second half of a turn is pending.

**Move language.** Singletons are slides (ZRF's ``$1 (while empty? add $1) (verify
enemy?) add``); ordos are :class:`~boardlab.core.templates.Line` templates (every line of two
or more own pieces along a row or a file from each piece, moved together); the
connection rule is the invariant :class:`~boardlab.core.templates.StaysConnected`, the
reconnection moves are guarded by the test :class:`~boardlab.core.ir.Connected`
(false while split); Ordo X's group capture is :class:`~boardlab.core.templates.KeepLargestGroup`
(its ``/f6`` note included) and its preparation moves are a
:class:`~boardlab.core.turn.FollowUp` along the sideways directions (a sideways move
gives a second ply). Nothing is
Python, so both games play on their kernels (:mod:`boardlab.core.kernel`), and the
notation reads the move's actions alone.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from boardlab.core.board import Board
from boardlab.core.game import Option, State
from boardlab.core.goals import AbsoluteConfig, Condition, Goals, PiecesRemaining
from boardlab.core.heuristics import PieceSquare
from boardlab.core.move import Capture, Move, Piece, Shift
from boardlab.core.position import PieceGame, PieceState
from boardlab.core.registry import register
from boardlab.core.rules import (
    EMPTY,
    ENEMY,
    Add,
    FollowUp,
    Instruction,
    KeepLargestGroup,
    Line,
    Rules,
    StaysConnected,
    Step,
    Template,
    Verify,
    While,
    connected,
    not_,
)
from boardlab.core.ruleset import RuleSet
from boardlab.core.selection import line_closure

WHITE, BLACK = Piece(0, "man"), Piece(1, "man")
WIDTH, HEIGHT = 10, 8
FORWARD = ("n", "nw", "ne")
SIDEWAYS = ("w", "e")
BACKWARD = ("s", "sw", "se")
SETUP_WHITE = ("a2", "a3", "b2", "b3", "c1", "c2", "d1", "d2", "e2", "e3",
               "f2", "f3", "g1", "g2", "h1", "h2", "i2", "i3", "j2", "j3")
#: The reconnection moves' guard: the mover's pieces are split.
SPLIT: tuple[Instruction, ...] = (Verify(not_(connected())),)


# --- move templates ---------------------------------------------------------------------------
def slide(direction: str, guard: Sequence[Instruction] = (), name: str | None = None
          ) -> Template:
    """A singleton slide (ZRF ``$1 (while empty? add $1) (verify enemy?) add``), named
    ``sideways`` or ``single`` unless ``name`` says."""
    program = (*guard, Step(direction), While(EMPTY, (Add(), Step(direction))),
               Verify(ENEMY), Add())
    if name is None:
        name = "sideways" if direction in SIDEWAYS else "single"
    return Template(program, name=name, direction=direction)


# --- the games ----------------------------------------------------------------------------------
class _OrdoBase(PieceGame):
    player_names = ("white", "black")
    board_style = "chequered"
    pieces = {"w": WHITE, "b": BLACK}

    def make_ruleset(self) -> RuleSet:
        """10x8, Black's directions turned by 180 degrees; Stein's setup (three
        staggered rows of pieces, 2 x 20); the variant's moves (:meth:`make_rules`). A
        piece on the opponent's home row wins; a side without pieces, or without a move
        (one that cannot reconnect), loses; ``move_limit`` plies draw."""
        placement = {}
        for name in SETUP_WHITE:
            placement[name] = WHITE
            placement[f"{name[0]}{HEIGHT + 1 - int(name[1:])}"] = BLACK
        last = WIDTH * (HEIGHT - 1)
        far = (frozenset(range(last, last + WIDTH)), frozenset(range(WIDTH)))
        goals = Goals((
            Condition("win", (0, 1), AbsoluteConfig((("self", "man"),), far.__getitem__)),
            Condition("loss", (0, 1), PiecesRemaining(0)),
        ), 2)
        return self.named_ruleset(board=Board.square(WIDTH, HEIGHT).rotated_for(1),
                                  placement=placement, rules=self.make_rules(), goals=goals,
                                  ply_limit=self.options["move_limit"])

    @abstractmethod
    def make_rules(self) -> Rules:
        """The variant's move templates and invariants."""

    #: The notation reads the move's actions alone (Ordo X's ``/f6``, the group a
    #: capture keeps, is the note of :class:`~boardlab.core.templates.KeepLargestGroup`).
    notation_reads_position = False

    def notation(self, state: PieceState, actions: tuple) -> str:
        """``b2-b5``, ``b2xb5`` or ``b2:e2-b4``."""
        name = self.board.cell_name
        shifts = sorted((a.source, a.target) for a in actions if isinstance(a, Shift))
        if len(shifts) > 1:
            (first, dest), (last, _) = shifts[0], shifts[-1]
            return f"{name(first)}:{name(last)}-{name(dest)}"
        source, target = shifts[0]
        sep = "x" if any(isinstance(a, Capture) for a in actions) else "-"
        return f"{name(source)}{sep}{name(target)}"

    def max_length(self) -> int:
        """The move limit ends every game."""
        return self.options["move_limit"]

    def closure(self, state: State, group: Sequence[int], move: Move) -> list[int]:
        """Ordo's long pushes: own pieces on the line to the target join the selection."""
        return line_closure(state, group, move)

    def kernel_heuristic(self) -> PieceSquare:
        """Advancement (each piece's and the best row's) and material, as a
        piece-square table the kernel computes too: a piece is worth 1 and 0.05 a row
        of advance, the most advanced of each side 0.3 a row; the sum over 20."""
        return self.derived(self, "piece-square", self._piece_square)

    def _piece_square(self) -> PieceSquare:
        def advance(cell: int, owner: int) -> int:
            y = cell // WIDTH
            return y if owner == 0 else HEIGHT - 1 - y

        cells = range(self.board.size)
        pieces = sorted({p for p in self.pieces.values()}, key=lambda p: p.owner)
        return PieceSquare(
            tuple((p, tuple(1.0 + 0.05 * advance(c, p.owner) for c in cells))
                  for p in pieces), 20,
            tuple((p, tuple(advance(c, p.owner) for c in cells)) for p in pieces), 0.3)

    def evaluate(self, state: State, player: int) -> float | None:
        """Advancement and material (:meth:`kernel_heuristic`)."""
        assert isinstance(state, PieceState)
        return self.kernel_heuristic().evaluate(state, player)


@register
class Ordo(_OrdoBase):
    """Ordo: keep your pieces connected and race to the far row."""

    name = "ordo"
    description = "Ordo (Stein 2009): connected group race; singletons and ordos move"
    source = ("Dieter Stein, 2009; official rules spielstein.com/games/ordo/rules; "
              "boardspace.net/ordo/english/ordo-rules.html; Dagaz ordo.zrf (setup)")
    option_schema = (
        Option("move_limit", 300, "plies after which the game is drawn (boardlab's rule)",
               minimum=10, maximum=10_000),
    )
    #: From the brute-force generator of tests/games/test_ordo.py (depth 3 agreed offline).
    known_perft = (56, 3136, 190114)

    def make_rules(self) -> Rules:
        """Slides forward/sideways (backward only while split), horizontal ordos forward
        (backward only while split), vertical ordos sideways; the connection invariant."""
        templates: list[Template] = [slide(d) for d in (*FORWARD, *SIDEWAYS)]
        templates += [slide(d, SPLIT) for d in BACKWARD]
        templates.append(Line((), name="ordo", line="e", direction="n"))
        templates.append(Line(SPLIT, name="ordo", line="e", direction="s"))
        templates += [Line((), name="sideways", line="n", direction=d) for d in SIDEWAYS]
        return Rules(templates, invariants=[StaysConnected()])


class OrdoXPosition(PieceState):
    """An Ordo X position: :attr:`pending` says whether the mover owes the forward half
    of a turn (its second ply, a :class:`~boardlab.core.turn.FollowUp`)."""

    __slots__ = ()
    kernel_fields: ClassVar[dict] = {}

    @property
    def pending(self) -> bool:
        """Whether the forward half of the mover's turn is due."""
        return self.follow is not None


@register
class OrdoX(_OrdoBase):
    """Ordo X: sub-groups cut off are captured; ordos move diagonally and in line;
    a sideways move is followed by a forward move of the same player."""

    name = "ordo-x"
    description = ("Ordo X (Stein): Ordo with diagonal and in-line ordo moves, "
                   "sideways preparation moves and group capture")
    source = ("Dieter Stein; spielstein.com/games/ordo-x; "
              "boardspace.net/ordo/english/ordox-rules.html")
    option_schema = (
        Option("move_limit", 400, "plies after which the game is drawn (boardlab's rule)",
               minimum=10, maximum=10_000),
    )
    #: Plies (a sideways half-turn counts as one), from the test file's brute-force generator.
    known_perft = (92, 7512, 673812)

    state_class = OrdoXPosition

    def make_rules(self) -> Rules:
        """Forward slides and ordo moves always; sideways ones only as a turn's first
        half (a sideways move gives a second ply); group capture; the connection
        invariant."""
        # Every singleton is tagged "single", sideways or not.
        templates: list[Template] = [slide(d, name="single") for d in (*FORWARD, *SIDEWAYS)]
        for line in ("e", "n"):
            templates += [Line((), name="ordo", line=line, direction=d) for d in FORWARD]
            templates += [Line((), name="sideways", line=line, direction=d)
                          for d in SIDEWAYS]
        return Rules(templates, invariants=[StaysConnected()], cut_off=KeepLargestGroup(),
                     follow_up=FollowUp(along=SIDEWAYS, name="sideways"))
