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
black, ``.`` empty), the side to move, then ``ply:N`` and, in Ordo X, ``sideways`` while
the second half of a turn is pending.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from boardlab.core.board import Board
from boardlab.core.game import Option, State, zobrist_table
from boardlab.core.goals import AbsoluteConfig, Condition, Goals, PiecesRemaining
from boardlab.core.move import Action, Capture, Change, Move, Piece, Place, Shift
from boardlab.core.position import PieceGame, PieceState
from boardlab.core.registry import register
from boardlab.core.rules import (
    EMPTY,
    ENEMY,
    Add,
    Cursor,
    Rules,
    Step,
    Template,
    Verify,
    While,
    not_,
)
from boardlab.core.selection import line_closure
from boardlab.errors import NotationError

WHITE, BLACK = Piece(0, "man"), Piece(1, "man")
WIDTH, HEIGHT = 10, 8
FORWARD = ("n", "nw", "ne")
SIDEWAYS = ("w", "e")
BACKWARD = ("s", "sw", "se")
SETUP_WHITE = ("a2", "a3", "b2", "b3", "c1", "c2", "d1", "d2", "e2", "e3",
               "f2", "f3", "g1", "g2", "h1", "h2", "i2", "i3", "j2", "j3")

# --- connectivity on 80-bit masks (cell index = y * 10 + x) ---------------------------------
_FULL = (1 << (WIDTH * HEIGHT)) - 1
_FILE_A = sum(1 << (y * WIDTH) for y in range(HEIGHT))
_FILE_J = _FILE_A << (WIDTH - 1)
_NOT_A, _NOT_J = _FULL ^ _FILE_A, _FULL ^ _FILE_J


def _grow(bits: int) -> int:
    """``bits`` with their eight neighbours."""
    row = bits | ((bits << 1) & _NOT_A) | ((bits >> 1) & _NOT_J)
    return (row | (row << WIDTH) | (row >> WIDTH)) & _FULL


def components(mask: int) -> list[int]:
    """The 8-connected groups of the cells in ``mask``, as masks, by lowest cell."""
    out = []
    while mask:
        group = mask & -mask
        while True:
            bigger = _grow(group) & mask
            if bigger == group:
                break
            group = bigger
        out.append(group)
        mask ^= group
    return out


def is_connected(mask: int) -> bool:
    """Whether the cells of ``mask`` form at most one group."""
    if not mask:
        return True
    group = mask & -mask
    while True:
        bigger = _grow(group) & mask
        if bigger == group:
            return bigger == mask
        group = bigger


def own_mask(state: PieceState, player: int) -> int:
    """The cells of ``player``'s pieces as a mask (cached per position)."""
    key = ("own", player)
    cache = state._cache
    mask = cache.get(key)
    if mask is None:
        mask = 0
        for cell, piece in enumerate(state.cells):
            if piece is not None and piece.owner == player:
                mask |= 1 << cell
        cache[key] = mask
    return mask


def mask_after(state: PieceState, actions: Sequence[Action], player: int) -> int:
    """``player``'s mask once ``actions`` are played (as a position plays them: captures
    and lifts, then arrivals, then drops and changes), without playing them."""
    mask = own_mask(state, player)
    cells = state.cells
    for a in actions:
        if type(a) is Capture:
            mask &= ~(1 << a.cell)
        elif type(a) is Shift:
            mask &= ~(1 << a.source)
    for a in actions:
        if type(a) is Shift:
            mover = cells[a.source]
            if mover is not None and mover.owner == player:
                mask |= 1 << a.target
            else:
                mask &= ~(1 << a.target)
    for a in actions:
        if type(a) is Place or type(a) is Change:
            if a.piece.owner == player:
                mask |= 1 << a.cell
            else:
                mask &= ~(1 << a.cell)
    return mask


def is_split(state: PieceState, player: int) -> bool:
    """Whether ``player``'s pieces are disconnected (cached per position)."""
    key = ("split", player)
    cache = state._cache
    if key not in cache:
        cache[key] = not is_connected(own_mask(state, player))
    return cache[key]


class StaysConnected:
    """The connection rule, an invariant: after the move the mover's pieces are one
    group. Called on the position after the move (the reference), or asked
    :meth:`before` it from the mover's mask and the move's actions."""

    def __call__(self, state: PieceState, move: Move, player: int) -> bool:
        mask = 0
        for cell, piece in enumerate(state.cells):
            if piece is not None and piece.owner == player:
                mask |= 1 << cell
        return is_connected(mask)

    def before(self, state: PieceState, actions: Sequence[Action], player: int) -> bool:
        """The same answer, from the position before the move."""
        return is_connected(mask_after(state, actions, player))


stays_connected = StaysConnected()


def _split(c: Cursor) -> bool:
    return is_split(c.state, c.player)


def _pending(c: Cursor) -> bool:
    return bool(getattr(c.state, "pending", False))


# --- move templates ---------------------------------------------------------------------------
def slide(direction: str, guard: Sequence[Verify] = ()) -> Template:
    """A singleton slide (ZRF ``$1 (while empty? add $1) (verify enemy?) add``)."""
    program = (*guard, Step(direction), While(EMPTY, (Add(), Step(direction))),
               Verify(ENEMY), Add())
    return Template(program, name="sideways" if direction in SIDEWAYS else "single",
                    direction=direction)


@dataclass(frozen=True)
class OrdoTemplate(Template):
    """Ordo moves: every straight segment of two or more own pieces along ``line``
    (``"e"`` horizontal, ``"n"`` vertical, player-relative) slides ``direction`` over
    empty cells, all pieces the same distance; a segment moving in line may enter the
    cells it vacates. ``when`` gates the template on the position (reconnection,
    Ordo X's second half). Like :class:`~boardlab.core.rules.Group`, a product of
    single-piece slides kept only when every piece can go the same distance."""

    line: str = "e"
    when: Callable[[PieceState, int], bool] | None = None

    def generate(self, state: PieceState, player: int) -> list[tuple[Action, ...]]:
        if self.when is not None and not self.when(state, player):
            return []
        board = state.game.board
        cells = state.cells
        along = board.links[board.direction_index(board.player_direction(player, self.line))]
        d = self.direction
        assert d is not None
        ahead = board.links[board.direction_index(board.player_direction(player, d))]
        out: list[tuple[Action, ...]] = []
        for anchor, piece in enumerate(cells):
            if piece is None or piece.owner != player:
                continue
            segment = [anchor]
            nxt = along[anchor]
            while nxt >= 0 and (p := cells[nxt]) is not None and p.owner == player:
                segment.append(nxt)
                members = set(segment)
                targets = segment
                while True:
                    targets = [ahead[t] for t in targets]
                    if any(t < 0 or (cells[t] is not None and t not in members)
                           for t in targets):
                        break
                    out.append(tuple(Shift(s, t) for s, t in zip(segment, targets,
                                                                 strict=True)))
                nxt = along[nxt]
        return out


@dataclass(frozen=True)
class KeepLargestGroup(Template):
    """Ordo X's capture rule around the templates ``inner``: a capture that splits the
    opponent also removes every smaller sub-group; one move per largest group when
    several tie (the capturer chooses)."""

    inner: tuple[Template, ...] = ()

    def generate(self, state: PieceState, player: int) -> list[tuple[Action, ...]]:
        out: list[tuple[Action, ...]] = []
        enemy = None
        for template in self.inner:
            for actions in template.generate(state, player):
                captured = [a.cell for a in actions if isinstance(a, Capture)]
                if not captured:
                    out.append(actions)
                    continue
                if enemy is None:
                    enemy = own_mask(state, 1 - player)
                rest = enemy & ~(1 << captured[0])
                groups = components(rest)
                if len(groups) < 2:
                    out.append(actions)
                    continue
                biggest = max(g.bit_count() for g in groups)
                for kept in (g for g in groups if g.bit_count() == biggest):
                    gone = rest & ~kept
                    extra = tuple(Capture(c) for c in range(WIDTH * HEIGHT) if gone >> c & 1)
                    out.append((*actions, *extra))
        return out


# --- the games ----------------------------------------------------------------------------------
class _OrdoBase(PieceGame):
    player_names = ("white", "black")
    board_style = "chequered"
    pieces = {"w": WHITE, "b": BLACK}

    def make_board(self) -> Board:
        """10x8; Black's directions turned by 180 degrees."""
        return Board.square(WIDTH, HEIGHT).rotated_for(1)

    def initial_placement(self) -> dict[str, Piece]:
        """Stein's setup (three staggered rows of pieces, 2 x 20)."""
        out = {}
        for name in SETUP_WHITE:
            out[name] = WHITE
            out[f"{name[0]}{HEIGHT + 1 - int(name[1:])}"] = BLACK
        return out

    @cached_property
    def goals(self) -> Goals:
        """A piece on the opponent's home row wins; a side without pieces, or without a
        move (one that cannot reconnect), loses."""
        last = WIDTH * (HEIGHT - 1)
        far = (frozenset(range(last, last + WIDTH)), frozenset(range(WIDTH)))
        return Goals((
            Condition("win", (0, 1), AbsoluteConfig((("self", "man"),), far.__getitem__)),
            Condition("loss", (0, 1), PiecesRemaining(0)),
        ), 2)

    def end_goals(self) -> Goals:
        """:attr:`goals`."""
        return self.goals

    def ply_limit(self) -> int:
        """``move_limit``: the game is drawn when it is reached."""
        return self.options["move_limit"]

    def notation(self, state: PieceState, actions: tuple) -> str:
        """``b2-b5``, ``b2xb5`` (``/f6``: the group kept) or ``b2:e2-b4``."""
        name = self.board.cell_name
        shifts = sorted((a.source, a.target) for a in actions if isinstance(a, Shift))
        if len(shifts) > 1:
            (first, dest), (last, _) = shifts[0], shifts[-1]
            return f"{name(first)}:{name(last)}-{name(dest)}"
        source, target = shifts[0]
        captures = [a.cell for a in actions if isinstance(a, Capture)]
        if not captures:
            return f"{name(source)}-{name(target)}"
        text = f"{name(source)}x{name(target)}"
        if len(captures) > 1:
            victim = state.cells[target]
            assert victim is not None
            rest = own_mask(state, victim.owner) & ~(1 << target)
            groups = components(rest)
            biggest = max(g.bit_count() for g in groups)
            if sum(g.bit_count() == biggest for g in groups) > 1:
                removed = sum(1 << c for c in captures[1:])
                kept = rest & ~removed
                text += f"/{name((kept & -kept).bit_length() - 1)}"
        return text

    def max_length(self) -> int:
        """The move limit ends every game."""
        return self.options["move_limit"]

    def closure(self, state: State, group: Sequence[int], move: Move) -> list[int]:
        """Ordo's long pushes: own pieces on the line to the target join the selection."""
        return line_closure(state, group, move)

    def evaluate(self, state: State, player: int) -> float | None:
        """Advancement (mean and best row) and material."""
        assert isinstance(state, PieceState)
        score = 0.0
        best = [0, 0]
        for cell, piece in state.occupied():
            y = cell // WIDTH
            advance = y if piece.owner == 0 else HEIGHT - 1 - y
            best[piece.owner] = max(best[piece.owner], advance)
            value = 1.0 + 0.05 * advance
            score += value if piece.owner == player else -value
        score += 0.3 * (best[player] - best[1 - player])
        return max(-1.0, min(1.0, score / 20))


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
        back = (Verify(_split),)
        templates: list[Template] = [slide(d) for d in (*FORWARD, *SIDEWAYS)]
        templates += [slide(d, back) for d in BACKWARD]
        templates.append(OrdoTemplate((), name="ordo", line="e", direction="n"))
        templates.append(OrdoTemplate((), name="ordo", line="e", direction="s",
                                      when=is_split))
        templates += [OrdoTemplate((), name="sideways", line="n", direction=d)
                      for d in SIDEWAYS]
        return Rules(templates, invariants=[stays_connected])


class OrdoXPosition(PieceState):
    """An Ordo X position: also whether the mover owes the forward half of a turn."""

    __slots__ = ("pending", "_pending_history")

    def __init__(self, game: PieceGame, cells: list[Piece | None], to_move: int,
                 reserves: dict[Piece, int], ply: int, pending: bool = False):
        self.pending = pending
        self._pending_history: list[bool] = []
        super().__init__(game, cells, to_move, reserves, ply)

    def _full_key(self) -> int:
        return super()._full_key() ^ (_PENDING_KEY if self.pending else 0)

    def apply(self, move: Move) -> None:
        mover = self._to_move
        was = self.pending
        super().apply(move)
        now = self._to_move == mover
        self._pending_history.append(was)
        if now != was:
            self._key ^= _PENDING_KEY
        self.pending = now

    def undo(self) -> None:
        super().undo()
        self.pending = self._pending_history.pop()

    def clone(self) -> OrdoXPosition:
        new = super().clone()
        assert isinstance(new, OrdoXPosition)
        new.pending = self.pending
        new._pending_history = []
        return new

    def signature(self) -> tuple[Any, ...]:
        return (*super().signature(), self.pending)

    def __str__(self) -> str:
        return super().__str__() + (" sideways" if self.pending else "")


_PENDING_KEY = zobrist_table(1, "ordo-x pending")[0]


def _is_sideways(move: Move, width: int = WIDTH) -> bool:
    return all(a.source // width == a.target // width for a in move.actions
               if isinstance(a, Shift))


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

    def make_rules(self) -> Rules:
        """Forward slides and ordo moves always; sideways ones only as a turn's first half."""
        first = (Verify(not_(_pending)),)

        def first_half(state: PieceState, player: int) -> bool:
            return not getattr(state, "pending", False)

        singles = [slide(d) for d in FORWARD] + [slide(d, first) for d in SIDEWAYS]
        templates: list[Template] = [KeepLargestGroup((), name="single", inner=tuple(singles))]
        for line in ("e", "n"):
            templates += [OrdoTemplate((), name="ordo", line=line, direction=d)
                          for d in FORWARD]
            templates += [OrdoTemplate((), name="sideways", line=line, direction=d,
                                       when=first_half) for d in SIDEWAYS]
        return Rules(templates, invariants=[stays_connected])

    def next_player(self, state: PieceState, move: Move) -> int:
        """The same player again after a sideways first half."""
        if not getattr(state, "pending", False) and _is_sideways(move):
            return state.to_move
        return 1 - state.to_move

    def initial_state(self) -> OrdoXPosition:
        base = super().initial_state()
        return OrdoXPosition(self, base.cells, base.to_move, base.reserves, base.ply)

    def parse_state(self, text: str) -> OrdoXPosition:
        parts = text.split()
        pending = bool(parts) and parts[-1] == "sideways"
        if pending:
            parts = parts[:-1]
        if "sideways" in parts:
            raise NotationError("'sideways' must come last", where=repr(text))
        base = super().parse_state(" ".join(parts))
        return OrdoXPosition(self, base.cells, base.to_move, base.reserves, base.ply,
                             pending)
