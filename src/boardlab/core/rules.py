"""The move language: Zillions-of-Games-style move templates, in Python.

A *template* is a list of instructions run from each of the mover's pieces (or,
for drops, from each cell with a piece in hand). The run walks the board with a
cursor and emits moves with :class:`Add`. The instructions mirror ZRF's
primitives (:doc:`/move-language` tells the story with worked examples):

=======================  ==============================================================
ZRF                      here
=======================  ==============================================================
``n``, ``$1``            :class:`Step` (``Step("n")``; off the board the run fails,
                         unless ``Step(d, may_leave=True)``: then the cursor is off)
``(verify p)``           :class:`Verify`
``(if p ...)``           :class:`If` (with ``else_``)
``(while p ...)``        :class:`While`
``add``                  :class:`Add`; an ``add`` that is not last emits a move and
                         the run goes on (a fork)
``capture``              :class:`CaptureHere`
``cascade``              :class:`Cascade`: put the piece in hand down here and pick up
                         the piece standing here; repeated, it moves a line of pieces
``to`` / ``from``        :class:`To` puts the piece in hand down *now*; :class:`From`
                         picks up the piece under the cursor (after navigating)
``mark`` / ``back``      :class:`Mark`, :class:`Back`
``set-flag``/``flag?``   :class:`SetFlag`, :func:`flag`; counters: :class:`SetVar`,
                         :class:`Inc`, :func:`var`
``create``               :class:`Create`; ``change-type``/``change-owner``:
                         :class:`ChangeType`, :class:`ChangeOwner`
drops                    :class:`Drop` templates over every cell, piece from reserve
move priorities          ``priority`` of a template: only the highest priority class
                         with a legal move is legal
invariants               :attr:`Rules.invariants`: a generated move that breaks one
                         (checked on the position after it) is removed
=======================  ==============================================================

Predicates (``EMPTY``, ``FRIEND``, ``ENEMY``, ``ON_BOARD``, :func:`piece_is`,
:func:`in_zone`, :func:`flag`, combinators :func:`not_`, :func:`all_of`,
:func:`any_of`) read the board *as it was when the move started*, as in ZRF; any
callable taking the :class:`Cursor` is a predicate.

**Group moves** (:class:`Group`) are products: first every single-piece step of the
mover in each direction, then every combination of steps of distinct pieces in the
same direction, dropping those that bump into an own piece that does not leave in
the same group move (a piece may enter a cell vacated by the group).

Directions are player-relative through the board's symmetry, so ``Step("n")`` is
"forward" for both sides of a board with a 180-degree symmetry.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from boardlab.core.move import Action, Capture, Change, Move, Piece, Place, Shift
from boardlab.errors import BoardError

if TYPE_CHECKING:
    from boardlab.core.position import PieceState

OFF = -1
_LOOP_LIMIT = 10_000


class Fail(Exception):
    """Ends a template run without a move (a failed ``verify`` or step)."""


@dataclass(slots=True)
class Cursor:
    """The walker of one template run: where it is, what it holds, what it built."""

    state: PieceState
    player: int
    pos: int
    hand: Piece | None
    hand_from: int | None  # None: the piece in hand comes from the reserve
    actions: list[Action] = field(default_factory=list)
    mark: int | None = None
    flags: dict[str, Any] = field(default_factory=dict)
    direction: str | None = None
    #: The board's link rows as the mover sees them (set by the template).
    links: dict[str, tuple[int, ...]] | None = None

    @property
    def board(self):  # noqa: ANN201 - a Board; kept untyped to avoid an import cycle
        """The board of the game."""
        return self.state.game.board

    def piece(self) -> Piece | None:
        """The piece under the cursor on the board as it was at the start of the move."""
        return None if self.pos == OFF else self.state.cells[self.pos]


#: A test of the cursor's cell; any callable taking the :class:`Cursor` will do.
Predicate = Callable[[Cursor], bool]


def EMPTY(c: Cursor) -> bool:  # noqa: N802 - reads like ZRF's empty?
    """The cell under the cursor is on the board and empty."""
    return c.pos != OFF and c.state.cells[c.pos] is None


def FRIEND(c: Cursor) -> bool:  # noqa: N802
    """The cell holds a piece of the mover."""
    p = c.piece()
    return p is not None and p.owner == c.player


def ENEMY(c: Cursor) -> bool:  # noqa: N802
    """The cell holds a piece of another player."""
    p = c.piece()
    return p is not None and p.owner != c.player


def ON_BOARD(c: Cursor) -> bool:  # noqa: N802
    """The cursor is on the board (only false after ``Step(d, may_leave=True)``)."""
    return c.pos != OFF


def not_(p: Predicate) -> Predicate:
    """The negation of a predicate."""
    return lambda c: not p(c)


def all_of(*ps: Predicate) -> Predicate:
    """All predicates hold."""
    return lambda c: all(p(c) for p in ps)


def any_of(*ps: Predicate) -> Predicate:
    """Some predicate holds."""
    return lambda c: any(p(c) for p in ps)


def piece_is(*kinds: str) -> Predicate:
    """The cell holds a piece (of any owner) of one of these types."""
    return lambda c: (p := c.piece()) is not None and p.kind in kinds


def in_zone(zone: str) -> Predicate:
    """The cursor is in the mover's part of ``zone``."""
    return lambda c: c.pos != OFF and c.board.in_zone(zone, c.player, c.pos)


def flag(name: str) -> Predicate:
    """A flag set by :class:`SetFlag` in this run is true."""
    return lambda c: bool(c.flags.get(name))


def var(name: str) -> Callable[[Cursor], int]:
    """The value of a counter set by :class:`SetVar`/:class:`Inc` (0 if unset)."""
    return lambda c: c.flags.get(name, 0)


# --- instructions ---------------------------------------------------------------------
class Instruction:
    """One step of a template; ``run`` changes the cursor, emits moves or raises Fail."""

    def run(self, c: Cursor, out: list[tuple[Action, ...]]) -> None:  # pragma: no cover
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Step(Instruction):
    """Move the cursor one step in a (player-relative) direction."""

    direction: str
    may_leave: bool = False

    def run(self, c: Cursor, out: list[tuple[Action, ...]]) -> None:
        if c.pos == OFF:
            raise Fail
        links = c.links
        if links is None:
            nxt = c.board.step(c.pos, self.direction, c.player)
        else:
            row = links.get(self.direction)
            nxt = c.board.step(c.pos, self.direction, c.player) if row is None else row[c.pos]
        if nxt < 0 and not self.may_leave:
            raise Fail
        c.pos = nxt if nxt >= 0 else OFF


@dataclass(frozen=True, slots=True)
class Verify(Instruction):
    """Fail unless the predicate holds."""

    test: Predicate

    def run(self, c: Cursor, out: list[tuple[Action, ...]]) -> None:
        if not self.test(c):
            raise Fail


@dataclass(frozen=True, slots=True)
class If(Instruction):
    """Run ``then`` if the predicate holds, else ``else_``."""

    test: Predicate
    then: Sequence[Instruction]
    else_: Sequence[Instruction] = ()

    def run(self, c: Cursor, out: list[tuple[Action, ...]]) -> None:
        run_all(self.then if self.test(c) else self.else_, c, out)


@dataclass(frozen=True, slots=True)
class While(Instruction):
    """Run ``body`` while the predicate holds."""

    test: Predicate
    body: Sequence[Instruction]

    def run(self, c: Cursor, out: list[tuple[Action, ...]]) -> None:
        for _ in range(_LOOP_LIMIT):
            if not self.test(c):
                return
            run_all(self.body, c, out)
        raise BoardError("move template loops forever (While never ends)")


@dataclass(frozen=True, slots=True)
class Add(Instruction):
    """Emit the move built so far: the piece in hand goes to the cursor (captured if the
    cursor is off the board), capturing an enemy standing there; optionally promoted."""

    promote: str | None = None

    def run(self, c: Cursor, out: list[tuple[Action, ...]]) -> None:
        actions = list(c.actions)
        if c.hand is not None:
            if c.pos == OFF:
                if c.hand_from is not None:
                    actions.append(Capture(c.hand_from))
            else:
                occupant = c.state.cells[c.pos]
                vacated = any(isinstance(a, Shift) and a.source == c.pos for a in actions)
                if occupant is not None and not vacated and c.pos != c.hand_from:
                    actions.append(Capture(c.pos))
                piece = c.hand if self.promote is None else Piece(c.hand.owner, self.promote)
                if c.hand_from is None:
                    actions.append(Place(c.pos, piece, from_reserve=True))
                else:
                    if c.pos != c.hand_from:
                        actions.append(Shift(c.hand_from, c.pos))
                    if piece != c.hand:
                        actions.append(Change(c.pos, piece))
        out.append(tuple(actions))


@dataclass(frozen=True, slots=True)
class CaptureHere(Instruction):
    """Capture the piece under the cursor (ZRF ``capture``)."""

    def run(self, c: Cursor, out: list[tuple[Action, ...]]) -> None:
        if c.pos != OFF and c.state.cells[c.pos] is not None:
            c.actions.append(Capture(c.pos))


@dataclass(frozen=True, slots=True)
class To(Instruction):
    """Put the piece in hand down under the cursor now (ZRF ``to``)."""

    def run(self, c: Cursor, out: list[tuple[Action, ...]]) -> None:
        if c.hand is None:
            return
        if c.pos == OFF:
            if c.hand_from is not None:
                c.actions.append(Capture(c.hand_from))
        elif c.hand_from is None:
            c.actions.append(Place(c.pos, c.hand, from_reserve=True))
        elif c.pos != c.hand_from:
            c.actions.append(Shift(c.hand_from, c.pos))
        c.hand = None
        c.hand_from = None


@dataclass(frozen=True, slots=True)
class From(Instruction):
    """Pick up the piece under the cursor (ZRF ``from``); the hand stays empty on an
    empty cell."""

    def run(self, c: Cursor, out: list[tuple[Action, ...]]) -> None:
        piece = c.piece()
        c.hand = piece
        c.hand_from = c.pos if piece is not None else None


@dataclass(frozen=True, slots=True)
class Cascade(Instruction):
    """Put the piece in hand down here and pick up the piece that stood here
    (ZRF ``cascade``): :class:`To` then :class:`From`."""

    def run(self, c: Cursor, out: list[tuple[Action, ...]]) -> None:
        picked = c.piece()
        here = c.pos
        To().run(c, out)
        c.hand = picked
        c.hand_from = here if picked is not None else None


@dataclass(frozen=True, slots=True)
class Mark(Instruction):
    """Remember the cursor's cell (ZRF ``mark``)."""

    def run(self, c: Cursor, out: list[tuple[Action, ...]]) -> None:
        c.mark = c.pos


@dataclass(frozen=True, slots=True)
class Back(Instruction):
    """Return to the marked cell (ZRF ``back``)."""

    def run(self, c: Cursor, out: list[tuple[Action, ...]]) -> None:
        if c.mark is None:
            raise BoardError("back without mark")
        c.pos = c.mark


@dataclass(frozen=True, slots=True)
class SetFlag(Instruction):
    """Set a flag of this run (ZRF ``set-flag``)."""

    name: str
    value: bool = True

    def run(self, c: Cursor, out: list[tuple[Action, ...]]) -> None:
        c.flags[self.name] = self.value


@dataclass(frozen=True, slots=True)
class SetVar(Instruction):
    """Set a counter of this run."""

    name: str
    value: int = 0

    def run(self, c: Cursor, out: list[tuple[Action, ...]]) -> None:
        c.flags[self.name] = self.value


@dataclass(frozen=True, slots=True)
class Inc(Instruction):
    """Add ``by`` to a counter of this run."""

    name: str
    by: int = 1

    def run(self, c: Cursor, out: list[tuple[Action, ...]]) -> None:
        c.flags[self.name] = c.flags.get(self.name, 0) + self.by


@dataclass(frozen=True, slots=True)
class Create(Instruction):
    """Create a piece of type ``kind`` (owned by the mover unless ``owner``) under the
    cursor (ZRF ``create``)."""

    kind: str
    owner: int | None = None

    def run(self, c: Cursor, out: list[tuple[Action, ...]]) -> None:
        if c.pos == OFF:
            raise Fail
        owner = c.player if self.owner is None else self.owner
        if c.state.cells[c.pos] is not None:
            c.actions.append(Change(c.pos, Piece(owner, self.kind)))
        else:
            c.actions.append(Place(c.pos, Piece(owner, self.kind)))


@dataclass(frozen=True, slots=True)
class ChangeType(Instruction):
    """Change the type of the piece under the cursor (ZRF ``change-type``)."""

    kind: str

    def run(self, c: Cursor, out: list[tuple[Action, ...]]) -> None:
        p = c.piece()
        if p is None:
            raise Fail
        c.actions.append(Change(c.pos, Piece(p.owner, self.kind)))


@dataclass(frozen=True, slots=True)
class ChangeOwner(Instruction):
    """Give the piece under the cursor to the mover (ZRF ``change-owner``)."""

    def run(self, c: Cursor, out: list[tuple[Action, ...]]) -> None:
        p = c.piece()
        if p is None:
            raise Fail
        c.actions.append(Change(c.pos, Piece(c.player, p.kind)))


def run_all(program: Sequence[Instruction], c: Cursor, out: list[tuple[Action, ...]]) -> None:
    """Run instructions in order (a :class:`Fail` propagates)."""
    for instruction in program:
        instruction.run(c, out)


# --- templates and rules -------------------------------------------------------------------
@dataclass(frozen=True)
class Template:
    """A piece move: ``program`` run from every piece of the mover of a type in
    ``kinds`` (all types when empty). ``priority``: higher classes shadow lower ones.

    A move's actions come out in the order the program performs them (each
    ``cascade``, ``to`` and ``add`` appends its shift where the walk is), so a game's
    notation may rely on that order, e.g. the first shift of a push is the trailing
    piece's."""

    program: Sequence[Instruction]
    kinds: tuple[str, ...] = ()
    priority: int = 0
    name: str = ""
    direction: str | None = None

    def generate(self, state: PieceState, player: int) -> list[tuple[Action, ...]]:
        """The action lists this template makes in ``state``."""
        out: list[tuple[Action, ...]] = []
        links = state.game.board.player_links(player)
        for cell, piece in enumerate(state.cells):
            if piece is None or piece.owner != player:
                continue
            if self.kinds and piece.kind not in self.kinds:
                continue
            cursor = Cursor(state, player, cell, piece, cell, direction=self.direction,
                            links=links)
            try:  # noqa: SIM105 - a bare try is cheaper than suppress() in this hot loop
                run_all(self.program, cursor, out)
            except Fail:
                pass
        return out


@dataclass(frozen=True)
class Drop(Template):
    """A drop: ``program`` run from every cell with a piece of type ``kinds[0]`` of the
    mover in hand, if the mover's reserve holds one."""

    def generate(self, state: PieceState, player: int) -> list[tuple[Action, ...]]:
        piece = Piece(player, self.kinds[0])
        if state.reserves.get(piece, 0) <= 0:
            return []
        out: list[tuple[Action, ...]] = []
        links = state.game.board.player_links(player)
        for cell in range(state.game.board.size):
            cursor = Cursor(state, player, cell, piece, None, direction=self.direction,
                            links=links)
            try:  # noqa: SIM105 - a bare try is cheaper than suppress() in this hot loop
                run_all(self.program, cursor, out)
            except Fail:
                pass
        return out


@dataclass(frozen=True)
class Group(Template):
    """Group moves as Cartesian products of single-piece moves in one direction.

    For each direction of ``directions``, ``program`` (for example
    ``[Step(d), Add()]``, built by ``single(d)``) gives the single-piece moves; every
    set of ``sizes`` distinct pieces each with a single move in that direction makes a
    group move, unless a piece lands on an own piece that stays, two pieces land on
    one cell, or ``accept(state, shifts)`` says no. Enemies on target cells are
    captured (chess capture) unless ``capture`` is false, in which case targets must
    be empty or vacated.
    """

    single: Callable[[str], Sequence[Instruction]] | None = None
    directions: tuple[str, ...] = ()
    sizes: tuple[int, ...] = (1, 2, 3)
    capture: bool = True
    accept: Callable[[PieceState, tuple[tuple[int, int], ...]], bool] | None = None
    #: With fewer pieces (of ``kinds``) than the smallest size, all of them move
    #: together (Taacoca: three stones, or all when fewer are left).
    all_if_fewer: bool = False

    def _sizes(self, state: PieceState, player: int) -> tuple[int, ...]:
        if not self.all_if_fewer:
            return self.sizes
        left = sum(1 for p in state.cells if p is not None and p.owner == player
                   and (not self.kinds or p.kind in self.kinds))
        if 0 < left < min(self.sizes):
            return (left,)
        return self.sizes

    def generate(self, state: PieceState, player: int) -> list[tuple[Action, ...]]:
        if self.single is None:
            raise BoardError("Group needs a single(direction) program")
        out: list[tuple[Action, ...]] = []
        sizes = self._sizes(state, player)
        for d in self.directions:
            steps: list[tuple[int, int]] = []
            for actions in Template(self.single(d), self.kinds).generate(state, player):
                shifts = [a for a in actions if isinstance(a, Shift)]
                if len(shifts) == 1:
                    steps.append((shifts[0].source, shifts[0].target))
            groups = _chain_groups(state, player, steps, sizes, self.capture)
            if groups is None:
                groups = _product_groups(state, player, steps, sizes, self.capture)
            for combo in groups:
                shifts_of = tuple(steps[i] for i in combo)
                if self.accept is not None and not self.accept(state, shifts_of):
                    continue
                sources = {s for s, _ in shifts_of}
                captures = [Capture(t) for _, t in shifts_of
                            if t not in sources and state.cells[t] is not None]
                out.append((*captures, *(Shift(s, t) for s, t in shifts_of)))
        return out


def _product_groups(state: PieceState, player: int, steps: list[tuple[int, int]],
                    sizes: tuple[int, ...], capture: bool) -> list[tuple[int, ...]]:
    """Every set of ``sizes`` steps of distinct pieces that bumps into no own piece
    staying behind: the plain Cartesian product, for any single-step program."""
    cells = state.cells
    groups: list[tuple[int, ...]] = []
    for k in sizes:
        for combo in itertools.combinations(range(len(steps)), k):
            sources = {steps[i][0] for i in combo}
            targets = {steps[i][1] for i in combo}
            if len(sources) < k or len(targets) < k:
                continue
            ok = True
            for i in combo:
                occupant = cells[steps[i][1]]
                if occupant is None or steps[i][1] in sources:
                    continue
                if occupant.owner == player or not capture:
                    ok = False
                    break
            if ok:
                groups.append(combo)
    return groups


def _chain_groups(state: PieceState, player: int, steps: list[tuple[int, int]],
                  sizes: tuple[int, ...], capture: bool) -> list[tuple[int, ...]] | None:
    """The same groups as :func:`_product_groups`, in the same order, found without
    trying every combination; ``None`` when the steps do not have the shape it needs
    (one step per piece and per target, as with a one-cell step in one direction).

    A step onto an own piece is only legal when that piece moves too, so the steps
    form chains, each ending in a step onto an empty cell or an enemy (or a blocked
    one, which kills the whole chain). A legal group takes a tail of each chain;
    the groups of ``k`` pieces are the ways of splitting ``k`` among the chains.
    """
    cells = state.cells
    by_source = {s: i for i, (s, _) in enumerate(steps)}
    if len(by_source) < len(steps) or len({t for _, t in steps}) < len(steps):
        return None
    successor: list[int | None] = []
    for _, t in steps:
        occupant = cells[t]
        if occupant is not None and occupant.owner == player:
            successor.append(by_source.get(t, -2))  # -2: an own piece that cannot move
        elif occupant is not None and not capture:
            successor.append(-2)
        else:
            successor.append(None)
    has_parent = {j for j in successor if j is not None and j >= 0}
    chains: list[list[int]] = []
    seen = 0
    for i in range(len(steps)):
        if i in has_parent:
            continue
        chain = [i]
        nxt = successor[i]
        while nxt is not None and nxt >= 0:
            chain.append(nxt)
            nxt = successor[nxt]
        seen += len(chain)
        if nxt is None:  # the chain ends on a free cell or a capture
            chains.append(chain)
    if seen < len(steps):  # pieces stepping into each other in a ring
        return None

    groups: list[tuple[int, ...]] = []

    def split(c: int, left: int, taken: list[int], found: list[tuple[int, ...]]) -> None:
        if left == 0:
            found.append(tuple(sorted(taken)))
            return
        if c == len(chains):
            return
        chain = chains[c]
        for n in range(min(left, len(chain)), -1, -1):
            split(c + 1, left - n, taken + chain[len(chain) - n:], found)

    for k in sizes:
        found: list[tuple[int, ...]] = []
        split(0, k, [], found)
        groups.extend(sorted(found))
    return groups


#: A check of the position after a candidate move, given the move and the mover.
Invariant = Callable[["PieceState", Move, int], bool]


@dataclass(frozen=True)
class Rules:
    """A game's move templates with priorities and invariants.

    ``invariants`` are called on the position *after* a candidate move with the move
    and the mover; a move is kept only if every invariant returns True. Among the
    moves kept, only those of the highest template priority present are legal.

    ``invariant_guard(state, move)``, when given, says which moves can break an
    invariant at all (Epaminondas's anti-copycat rule concerns only moves onto the
    far row); the others skip the apply/undo the check needs. ``cache_size`` keeps
    the move lists of that many recent positions by their key (positions met again
    by transposition or re-parsed); use it only when the key covers everything
    move generation reads.
    """

    templates: Sequence[Template]
    invariants: Sequence[Invariant] = ()
    invariant_guard: Callable[[PieceState, Move], bool] | None = None
    cache_size: int = 0
    _cache: dict[int, list[Move]] = field(default_factory=dict, compare=False, repr=False)

    def generate(self, state: PieceState) -> list[Move]:
        """The legal moves of ``state``'s side to move, deterministic, without duplicates."""
        if self.cache_size:
            key = state.key()
            cached = self._cache.get(key)
            if cached is None:
                if len(self._cache) >= self.cache_size:
                    self._cache.clear()
                cached = self._cache[key] = self._generate(state)
            return list(cached)
        return self._generate(state)

    def _generate(self, state: PieceState) -> list[Move]:
        game = state.game
        player = state.to_move
        by_priority: dict[int, list[Move]] = {}
        seen: set[tuple[Action, ...]] = set()
        guard = self.invariant_guard
        for template in self.templates:
            for actions in template.generate(state, player):
                if actions in seen:
                    continue
                seen.add(actions)
                if self.invariants:
                    bare = Move("", actions)
                    if (guard is None or guard(state, bare)) and \
                            not self._keeps(state, bare, player):
                        continue
                # The notation is built only for the moves the invariants keep.
                move = Move(game.notation(state, actions), actions, tag=template.name)
                by_priority.setdefault(template.priority, []).append(move)
        if not by_priority:
            return []
        return by_priority[max(by_priority)]

    def _keeps(self, state: PieceState, move: Move, player: int) -> bool:
        state.apply(move)
        try:
            return all(inv(state, move, player) for inv in self.invariants)
        finally:
            state.undo()


def for_directions(make: Callable[[str], Sequence[Instruction]], directions: Iterable[str],
                   **template_args: Any) -> list[Template]:
    """One template per direction: ZRF's ``(moves (push n) (push s) ...)``."""
    return [Template(tuple(make(d)), direction=d, **template_args) for d in directions]


def piece_set(symbols: Mapping[str, tuple[int, str]]) -> dict[str, Piece]:
    """Symbol -> Piece from symbol -> (owner, kind)."""
    return {s: Piece(o, k) for s, (o, k) in symbols.items()}
