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
                         (checked on the position after it) is removed; declared ones
                         (:class:`StaysConnected`, :class:`NotMirrored`) play on a
                         game's kernel too
(Dagaz's JavaScript)     :class:`Line` templates (lines of pieces moved together), the
                         test :class:`Connected` (the mover's pieces one group), what a
                         capture cuts off (:class:`KeepLargestGroup`), a second move
                         in one turn (:class:`FollowUp`)
(GESS)                   :class:`Footprint` templates (patterns of pieces round a
                         centre moved as one)
=======================  ==============================================================

Predicates (``EMPTY``, ``FRIEND``, ``ENEMY``, ``ON_BOARD``, :func:`piece_is`,
:func:`~boardlab.core.ir.in_zone`, :func:`flag`, combinators :func:`not_`, :func:`all_of`,
:func:`any_of`) read the board *as it was when the move started*, as in ZRF. They and
the instructions are the nodes of :mod:`boardlab.core.ir`, re-exported here; a test
written in Python is an explicit :class:`~boardlab.core.ir.Native` with its reason.

**Group moves** (:class:`Group`) are products: first every single-piece step of the
mover in each direction, then every combination of steps of distinct pieces in the
same direction, dropping those that bump into an own piece that does not leave in
the same group move (a piece may enter a cell vacated by the group).

Directions are player-relative through the board's symmetry, so ``Step("n")`` is
"forward" for both sides of a board with a 180-degree symmetry.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple

from boardlab.core.groups import (
    cells_after,
    game_masks,
    groups_of,
    is_one_group,
    mask_after,
    owned,
    owned_mask,
)

# The language's nodes (:mod:`boardlab.core.ir`) and the interpreter's meaning of them
# (:mod:`boardlab.core.interpret`), re-exported: games build their rules from this module.
from boardlab.core.interpret import *  # noqa: F403
from boardlab.core.interpret import (
    _ATTACKING,
    Cursor,
    Fail,
    run,
    run_all,
    test,
)
from boardlab.core.ir import *  # noqa: F403
from boardlab.core.ir import (
    OFF,
    Add,
    Back,
    CaptureAt,
    CaptureHere,
    Cascade,
    ChangeOwner,
    ChangeType,
    Create,
    DiscardCascades,
    EveryCell,
    From,
    Go,
    GoTo,
    If,
    Inc,
    Instruction,
    Mark,
    MarkAt,
    Partial,
    Predicate,
    SetAttribute,
    SetFlag,
    SetPositionFlag,
    SetVar,
    Step,
    To,
    Verify,
    While,
)
from boardlab.core.move import (
    Action,
    Capture,
    Change,
    Move,
    Mover,
    Noted,
    Piece,
    Place,
    Shift,
    Spelling,
)
from boardlab.errors import BoardError, RulesError

if TYPE_CHECKING:
    from boardlab.core.position import PieceState

#: Builds a move without the Python-level ``Move.__new__`` (the hottest allocation).
_new_move = tuple.__new__


# --- templates and rules -------------------------------------------------------------------
@dataclass(frozen=True)
class Template:
    """A piece move: ``program`` run from every piece of the mover of a type in
    ``kinds`` (all types when empty). ``priority``: higher classes shadow lower ones.

    A move's actions come out in the order the program performs them (each
    ``cascade``, ``to`` and ``add`` appends its shift where the walk is), so a game's
    notation may rely on that order, e.g. the first shift of a push is the trailing
    piece's.

    ``move_type`` names the template's class (ZRF ``move-type``): a partial move goes on
    with its piece's templates of the type it names, and a turn may allow one type
    only. A template that is not ``top_level`` only continues partial moves (ZRF: a
    move type missing from ``move-priorities``)."""

    program: Sequence[Instruction]
    kinds: tuple[str, ...] = ()
    priority: int = 0
    name: str = ""
    direction: str | None = None
    move_type: str | None = None
    top_level: bool = True
    #: The program reads the last move (ZRF ``last-from?``), not only the board.
    reads_history: bool = False
    #: The mover may move other players' pieces too (Dagaz's ``shared pieces``).
    shared: bool = False
    #: Whether the program may make partial moves (an ``add-partial``): derived from
    #: it, once, as the template is made.
    may_go_on: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "may_go_on", any(
            isinstance(i, Add) and i.partial is not None for i in _instructions(self.program)))

    def generate(self, state: PieceState, player: int,
                 cells: Iterable[int] | None = None,
                 links: dict[str, tuple[int, ...]] | None = None) -> list:
        """The action lists (and :class:`Partial` moves) this template makes in
        ``state``, from every cell or only from ``cells`` (``links``: the board's link
        rows as ``player`` sees them, when the caller has them at hand)."""
        out: list = []
        if links is None:
            links = state.game.board.player_links(player)
        board_cells = state.cells
        kinds, program, direction = self.kinds, self.program, self.direction
        shared = self.shared
        for cell in (range(len(board_cells)) if cells is None else cells):
            piece = board_cells[cell]
            if piece is None or (piece.owner != player and not shared):
                continue
            if kinds and piece.kind not in kinds:
                continue
            cursor = Cursor(state, player, cell, piece, cell, [], None, {}, direction, links,
                            cell)
            try:
                for instruction in program:
                    run(instruction, cursor, out)
            except Fail:
                pass
        return out


@dataclass(frozen=True)
class Drop(Template):
    """A drop: ``program`` run from every cell with a piece of type ``kinds[0]`` of the
    mover in hand, if the mover's reserve holds one.

    ``cells`` limits the cells it runs from, ``zone`` to the mover's part of a zone (ZRF:
    a drop block starting with a position or a zone); for the players in
    ``unlimited_for`` the supply never runs out (ZRF drops without an ``off`` count), and
    a dropped piece starts with ``attributes``.
    """

    cells: tuple[int, ...] | None = None
    zone: str | None = None
    unlimited_for: frozenset[int] = frozenset()
    attributes: frozenset[str] = frozenset()

    def generate(self, state: PieceState, player: int,
                 cells: Iterable[int] | None = None) -> list:
        piece = Piece(player, self.kinds[0], self.attributes)
        unlimited = player in self.unlimited_for
        if not unlimited and state.reserves.get(piece, 0) <= 0:
            return []
        out: list = []
        board = state.game.board
        links = board.player_links(player)
        if self.zone is not None:
            where: Iterable[int] = sorted(board.zones[self.zone].get(player, ()))
        elif self.cells is not None:
            where = self.cells
        else:
            where = range(board.size)
        for cell in where:
            cursor = Cursor(state, player, cell, piece, None, direction=self.direction,
                            links=links, start=cell, reserve=not unlimited)
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
    #: The single-piece template of each direction, made from ``single`` as the group
    #: template is made.
    singles: Mapping[str, Template] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "singles", {} if self.single is None else {
            d: Template(tuple(self.single(d)), self.kinds) for d in self.directions})

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
            for actions in self.singles[d].generate(state, player):
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


@dataclass(frozen=True)
class Line(Template):
    """Moves of lines of the mover's pieces (Ordo's *ordos*): from each piece of the
    mover's (of ``kinds``), every line of ``min_size`` or more of them that starts there
    and goes on along ``line`` (each piece a step further), moved ``direction`` by 1, 2,
    ... cells, every piece the same distance, the lines in order of length and each
    line's moves in order of distance. Every cell a piece crosses or lands on is empty
    or one the line leaves (a line moving along itself); nothing is captured. The
    ``program`` is a list of tests run from the line's first piece before it: where one
    fails, no line starts there. Directions are the mover's. A move's shifts go in the
    line's order, from its first piece."""

    line: str = "e"
    min_size: int = 2

    def generate(self, state: PieceState, player: int,
                 cells: Iterable[int] | None = None) -> list[tuple[Action, ...]]:
        links = state.game.board.player_links(player)
        along, ahead = links[self.line], links[self.direction]  # type: ignore[index]
        board_cells = state.cells
        kinds, program = self.kinds, self.program
        out: list[tuple[Action, ...]] = []
        for first in range(len(board_cells)) if cells is None else cells:
            piece = board_cells[first]
            if piece is None or piece.owner != player or (kinds and piece.kind not in kinds):
                continue
            if program:
                cursor = Cursor(state, player, first, piece, first, [], None, {},
                                self.direction, links, first)
                try:
                    run_all(program, cursor, out)
                except Fail:
                    continue
            line = [first]
            while True:
                if len(line) >= self.min_size:
                    members = set(line)
                    targets = line
                    # (A board whose lines go round ends the walk after a lap.)
                    for _ in range(len(board_cells)):
                        targets = [ahead[t] for t in targets]
                        if any(t < 0 or (board_cells[t] is not None and t not in members)
                               for t in targets):
                            break
                        out.append(tuple(Shift(s, t) for s, t in zip(line, targets,
                                                                     strict=True)))
                nxt = along[line[-1]]
                if nxt < 0 or (p := board_cells[nxt]) is None or p.owner != player or (
                        kinds and p.kind not in kinds) or nxt in line:
                    break
                line.append(nxt)
        return out


class Footstep(NamedTuple):
    """A move of a :class:`Footprint` template: its actions, and the centre of the
    footprint before and after it (the move's notation and tag)."""

    actions: tuple[Action, ...]
    origin: int
    centre: int


@dataclass(frozen=True)
class Footprint(Template):
    """Moves of patterns of pieces (GESS's pieces). A *footprint* is a centre cell of
    ``zone`` and the cells in the directions of ``shape`` from it (``""``: the centre
    itself). A footprint holding at least one piece of the mover's (of ``kinds``) and
    no other piece is a piece of the mover's, which moves as a unit, one cell at a
    time, in each direction of ``directions`` whose cell of the footprint holds one of
    its pieces: at most ``reach`` cells, or any distance when its centre holds one. The
    centre stays in ``zone``. The footprint stops on the first cell where it covers
    any other piece: those are captured. A piece carried out of ``zone`` (or off the
    board) is taken off.

    A move's actions are its captures in cell order, then each of its pieces' shifts
    (or removal) in the order of ``shape``; the moves come by centre (in cell order),
    direction, then distance. Each footprint makes moves of its own, even where
    another move (of a footprint or not) does the same to the board: its notation names the
    centre before and after (``l3-l6``), and its tag is that pair of cells. Directions
    are the mover's (the board's symmetry applies, as to a step)."""

    shape: tuple[str, ...] = ("nw", "n", "ne", "w", "", "e", "sw", "s", "se")
    directions: tuple[str, ...] = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
    zone: str = ""
    reach: int = 3

    def generate(self, state: PieceState, player: int) -> list[Footstep]:  # type: ignore[override]
        board = state.game.board
        links = board.player_links(player)
        zone = board.zones[self.zone].get(player, frozenset())
        cells, kinds, shape = state.cells, self.kinds, self.shape
        around = [None if o == "" else links[o] for o in shape]

        def at(centre: int, k: int) -> int:
            row = around[k]
            return centre if row is None else row[centre]

        out: list[Footstep] = []
        for origin in sorted(zone):
            own: list[tuple[int, int]] = []  # (index in shape, cell) of its pieces
            for k in range(len(shape)):
                c = at(origin, k)
                if c < 0 or (p := cells[c]) is None:
                    continue
                if p.owner != player or (kinds and p.kind not in kinds):
                    break
                own.append((k, c))
            else:
                held = {shape[k] for k, _ in own}
                sources = {c for _, c in own}
                for d in self.directions:
                    if d not in held:
                        continue
                    ahead, centre = links[d], origin
                    for _ in range(board.size if "" in held else self.reach):
                        centre = ahead[centre]
                        if centre < 0 or centre not in zone:
                            break
                        hits = sorted({c for k in range(len(shape)) if (c := at(centre, k)) >= 0
                                       and cells[c] is not None and c not in sources})
                        actions: list[Action] = [Capture(c) for c in hits]
                        for k, source in own:
                            target = at(centre, k)
                            actions.append(Shift(source, target) if target in zone
                                           else Capture(source))
                        out.append(Footstep(tuple(actions), origin, centre))
                        if hits:
                            break
        return out


def _instructions(program: Sequence[Instruction]) -> Iterable[Instruction]:
    for i in program:
        yield i
        if isinstance(i, If):
            yield from _instructions(i.then)
            yield from _instructions(i.else_)
        elif isinstance(i, While | EveryCell):
            yield from _instructions(i.body)


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


# --- rules of the whole move: what its position after may be, what it takes besides, ---
# --- and who moves next. Declared, not functions, so that a game kernel plays them too. ---
@dataclass(frozen=True)
class StaysConnected:
    """An invariant (:attr:`Rules.invariants`): after the move the mover's pieces are one
    group, each reaching every other by steps in ``directions`` (board directions; all
    of them when None) over the mover's pieces (Ordo's connection rule). Asked
    :meth:`before` the move, from the mover's cells and the move's actions."""

    directions: tuple[str, ...] | None = None

    def __call__(self, state: PieceState, move: Move, player: int) -> bool:
        return is_one_group(owned_mask(state.cells, player),
                            game_masks(state.game, self.directions))

    def before(self, state: PieceState, actions: Sequence[Action], player: int) -> bool:
        """The same answer, from the position before the move."""
        cells = state.cells
        return is_one_group(mask_after(cells, actions, player, owned(state, player)),
                            game_masks(state.game, self.directions))


@dataclass(frozen=True)
class NotMirrored:
    """An invariant (:attr:`Rules.invariants`): the position after the move is not its
    own mirror image, where each cell would hold what its ``image`` cell holds with the
    owner swapped (a rule of two players: owner 0 for 1, 1 for 0). With ``onto`` (the
    cells of each player), only a move that brings a piece of the mover's onto the
    mover's cells from a cell off them, or drops one there, is held to it (Epaminondas's
    anti-copycat rule: no move onto the opponent's home row that makes the position
    symmetric between the home rows, colours swapped). Asked :meth:`before` the move."""

    image: tuple[int, ...]
    onto: tuple[frozenset[int], ...] | None = None

    def applies(self, actions: Sequence[Action], player: int) -> bool:
        """Whether the move of ``actions`` by ``player`` is held to the rule."""
        if self.onto is None:
            return True
        onto = self.onto[player]
        for a in actions:
            kind = type(a)
            if kind is Shift:
                if a[1] in onto and a[0] not in onto:
                    return True
            elif kind is Place and a[0] in onto and a[1].owner == player:
                return True
        return False

    def mirrored(self, cells: Sequence[Piece | None]) -> bool:
        """Whether ``cells`` are their own mirror image, owners swapped."""
        image = self.image
        for cell, piece in enumerate(cells):
            other = cells[image[cell]]
            if piece is None:
                if other is not None:
                    return False
            elif other is None or other.owner != 1 - piece.owner or \
                    other.kind != piece.kind or other.attributes != piece.attributes:
                return False
        return True

    def __call__(self, state: PieceState, move: Move, player: int) -> bool:
        return not self.applies(move.actions, player) or not self.mirrored(state.cells)

    def before(self, state: PieceState, actions: Sequence[Action], player: int) -> bool:
        """The same answer, from the position before the move."""
        return not self.applies(actions, player) or \
            not self.mirrored(cells_after(state.cells, actions))


@dataclass(frozen=True)
class KeepLargestGroup:
    """What a capture cuts off (:attr:`Rules.cut_off`): after a move that captures, the
    other player's pieces that do not form one group (linked by steps in
    ``directions``, board directions, all when None) keep their largest group alone,
    the others captured with the move. Where several groups are the largest the mover
    chooses: one move for each, in the order of their first cells, whose notation is
    followed by ``/`` and the name of the first cell of the group it keeps (Ordo X's
    group capture). A rule of two players, for moves of the mover's own pieces."""

    directions: tuple[str, ...] | None = None

    def expand(self, state: PieceState, player: int, actions: tuple[Action, ...]
               ) -> list[tuple[tuple[Action, ...], int | None]]:
        """The moves ``actions`` make under the rule: each with the first cell of the
        group it keeps where the mover chose it (else None)."""
        for a in actions:
            if type(a) is Capture:
                break
        else:
            return [(actions, None)]
        cells = state.cells
        other = 1 - player
        rest = mask_after(cells, actions, other, owned(state, other))
        groups = groups_of(rest, game_masks(state.game, self.directions))
        if len(groups) < 2:
            return [(actions, None)]
        biggest = max(group.bit_count() for group in groups)
        kept = [group for group in groups if group.bit_count() == biggest]
        out: list[tuple[tuple[Action, ...], int | None]] = []
        for group in kept:
            gone = rest & ~group
            extra = []
            while gone:
                low = gone & -gone
                extra.append(Capture(low.bit_length() - 1))
                gone ^= low
            first = (group & -group).bit_length() - 1
            out.append(((*actions, *extra), first if len(kept) > 1 else None))
        return out

    @staticmethod
    def note(board: Any, cell: int) -> str:
        """What the notation of a move that keeps the group of first cell ``cell`` ends
        with, where the mover chose that group."""
        return f"/{board.cell_name(cell)}"


@dataclass(frozen=True)
class Rules:
    """A game's move templates with priorities and invariants.

    ``invariants`` are called on the position *after* a candidate move with the move
    and the mover; a move is kept only if every invariant returns True. An invariant
    with a ``before(state, actions, mover)`` method that answers the same from the
    position before the move is asked that way when all of them have one (the move is
    then not played to check it). Among the
    moves kept, only those of the highest template priority present are legal.

    ``invariant_guard(state, move)``, when given, says which moves can break an
    invariant at all (Epaminondas's anti-copycat rule concerns only moves onto the
    far row); the others skip the apply/undo the check needs. ``cache_size`` keeps
    (per game) the move lists of that many recent positions by their key (positions met again
    by transposition or re-parsed); use it only when the key covers everything
    move generation reads.

    Partial moves (:class:`Partial`, ZRF ``add-partial``) are played out here: the piece
    goes on with its templates of the partial move's type, on the board after each step,
    until no step follows, and each whole chain is one move (its actions composed by
    :func:`compose`); with ``pass_partial`` every shorter chain is a move too. A chain
    never returns to a position it has passed and has at most ``max_chain`` steps.
    ``turns`` (:class:`TurnLimits`) may restrict a turn to one move type and give it
    another player's pieces; ``select(state,
    moves)`` filters the legal moves last (ZRF ``maximal captures``); ``pass_turn`` adds a
    pass: ``"always"`` as one more move, ``"forced"`` only when there is no other and
    another player could move (when nobody can, the game is over).
    ``follow_up`` (:class:`FollowUp`) lets a move be followed, in the same turn, by
    another move of the same player (nine men's morris: a mill, then a removal; Ordo
    X: a sideways move, then a forward one).
    ``protect`` lists the pieces a move may not leave attacked (ZRF ``checkmated``): see
    :class:`Protect`. ``cut_off`` (:class:`KeepLargestGroup`) says what else a capture
    takes. With ``deferred_captures`` (Dagaz's option; draughts' "Turkish
    strike") a piece taken by a partial step stays on the board, owned by nobody, until
    the chain ends: it blocks the way and cannot be taken twice (a step that would take
    it again is not played). Exploring one position's chains takes at most
    ``max_chains`` partial steps; rules that need more raise
    :class:`~boardlab.errors.RulesError` rather than run unbounded.
    """

    templates: Sequence[Template]
    invariants: Sequence[Invariant] = ()
    invariant_guard: Callable[[PieceState, Move], bool] | None = None
    cache_size: int = 0
    pass_partial: bool = False
    max_chain: int = 64
    max_chains: int = 200_000
    turns: TurnLimits | None = None
    select: Callable[[PieceState, list[Move]], list[Move]] | None = None
    pass_turn: str | None = None
    protect: tuple[Protect, ...] = ()
    deferred_captures: bool = False
    cut_off: KeepLargestGroup | None = None
    follow_up: FollowUp | None = None
    #: The invariants' ``before`` methods, when all of them have one (see _keeps).
    _before: tuple[Callable[..., bool], ...] | None = field(init=False, compare=False,
                                                            repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_before", tuple(
            inv.before for inv in self.invariants  # type: ignore[attr-defined]
        ) if all(hasattr(inv, "before") for inv in self.invariants) else None)

    def generate(self, state: PieceState) -> list[Move]:
        """The legal moves of ``state``'s side to move, deterministic, without duplicates."""
        if self.cache_size:
            recent: dict[int, list[Move]] = state.game.derived(self, "recent moves", dict)
            key = state.key()
            cached = recent.get(key)
            if cached is None:
                if len(recent) >= self.cache_size:
                    recent.clear()
                cached = recent[key] = self._generate(state)
            return list(cached)
        return self._generate(state)

    def _generate(self, state: PieceState) -> list[Move]:
        game = state.game
        player, allowed = state.to_move, None
        if self.turns is not None:
            player, allowed = self.turns.at(state.ply, player)
        # The move due after the one before (FollowUp): of its move type, or any that
        # would not be followed in its turn.
        again = None
        if state.follow is not None:
            up = self.follow_up
            if up is None:
                raise RulesError(f"a move {state.follow!r} is due in a game without "
                                 f"follow-up moves")
            allowed = up.move_type
            again = up if up.move_type is None else None
        by_priority: dict[int, list[Move]] = {}
        # The moves found so far, per priority: a move that a higher class makes too
        # belongs to that class as well (Zillions' compulsory-capture chess offers a
        # King's step as a capture-type move when the King is in check).
        seen_in: dict[int, set[tuple[Action, ...]]] = {}
        guard = self.invariant_guard
        budget = [self.max_chains]
        # The mover's cells by piece type: a piece template runs from its own pieces
        # only, not from every cell of the board.
        cells_now = state.cells
        mine = [cell for cell, piece in enumerate(cells_now)
                if piece is not None and piece.owner == player]
        by_kind: dict[str, list[int]] | None = None  # built when a template asks
        guards = [g.kinds for g in self.protect if player in g.players]
        safety = _Safety(self, state, player, guards) if guards else None
        links = game.board.player_links(player)
        spelling: Spelling | None = None
        notation: Callable[[PieceState, tuple[Action, ...]], str] | None = None
        if game.defers_notation:
            spelling = Spelling(partial(game.notation, Mover(game, player)))
        else:
            notation = game.notation
        partials: dict[int, list[tuple[Partial, str]]] = {}
        cut_off = self.cut_off

        def keep(actions: tuple[Action, ...], steps: tuple[tuple[Action, ...], ...] | None,
                 tag: Any, priority: int, kept: int | None = None,
                 spelled: str | None = None) -> None:
            """Add the move of ``actions`` (a chain of ``steps``) to its priority's class
            unless it is there already or a check of the position after it refuses
            it; ``kept``: the first cell of the group a capture keeps, where the mover
            chose it (see :class:`KeepLargestGroup`). A move ``spelled`` (a
            :class:`Footstep`'s) is one of its own even where another does the same:
            it neither is dropped for one found before nor drops one found after."""
            if spelled is None:
                seen = seen_in[priority]
                if actions in seen:
                    return
                seen.add(actions)
            if again is not None and again.follows(game, player, actions):
                return
            if safety is not None and not safety.safe(actions):
                return
            if self.invariants:
                bare = _new_move(Move, ("", actions, None))
                if (guard is None or guard(state, bare)) and \
                        not self._keeps(state, bare, player):
                    return
            # The notation is built only for the moves the invariants keep.
            if spelled is not None:
                text = spelled
            elif steps is not None:
                text = game.chain_notation(state, steps)
            else:
                text = spelling if notation is None else notation(state, actions)
            if kept is not None:
                note = KeepLargestGroup.note(game.board, kept)
                text = text + note if isinstance(text, str) else Noted(text, note)
            by_priority[priority].append(_new_move(Move, (text, actions, tag)))

        for template in self.templates:
            if allowed is not None:
                if template.move_type != allowed:
                    continue
            elif not template.top_level:
                continue
            kinds = template.kinds
            if type(template) is Template and not template.shared:
                if not kinds:
                    cells = mine
                else:
                    if by_kind is None:
                        by_kind = {}
                        for cell in mine:
                            by_kind.setdefault(cells_now[cell].kind, []).append(cell)
                    if len(kinds) == 1:
                        cells = by_kind.get(kinds[0])
                        if cells is None:
                            continue
                    else:
                        cells = sorted(c for k in kinds for c in by_kind.get(k, ()))
                items = template.generate(state, player, cells, links)
            else:
                items = template.generate(state, player)
            if not items:
                continue
            priority = template.priority
            bucket = by_priority.get(priority)
            if bucket is None:
                bucket = by_priority[priority] = []
                seen_in[priority] = set()
            seen = seen_in[priority]
            tag = template.name
            if type(template) is Footprint:
                name = game.board.cell_name
                for actions, origin, centre in items:
                    spelled = f"{name(origin)}-{name(centre)}"
                    ways = [(actions, None)] if cut_off is None else \
                        cut_off.expand(state, player, actions)
                    for made, kept in ways:
                        keep(made, None, (origin, centre), priority, kept, spelled=spelled)
                continue
            if safety is None and not self.invariants and not template.may_go_on \
                    and cut_off is None and again is None:
                # The common case, without chains or checks on the position after.
                for actions in items:
                    known = len(seen)
                    seen.add(actions)  # one hashing of the actions, not two
                    if len(seen) > known:
                        bucket.append(_new_move(Move, (
                            spelling if notation is None else notation(state, actions),
                            actions, tag)))
                continue
            for item in items:
                if isinstance(item, Partial):
                    # Chains are played out together, once every template has run.
                    partials.setdefault(template.priority, []).append((item, tag))
                elif cut_off is None:
                    keep(item, None, tag, priority)
                else:
                    for actions, kept in cut_off.expand(state, player, item):
                        keep(actions, None, tag, priority, kept)
        for priority, firsts in partials.items():
            tags = {}
            for item, tag in firsts:
                tags.setdefault(item.actions, tag)
            for steps in self._chains(state, player, [item for item, _ in firsts], budget):
                actions = compose(state.cells, steps)
                if actions:  # a chain back to where it began is no move
                    keep(actions, steps, tags[steps[0]], priority)
        by_priority = {p: ms for p, ms in by_priority.items() if ms}
        moves = by_priority[max(by_priority)] if by_priority else []
        if self.select is not None and moves:
            moves = self.select(state, moves)
        if self.pass_turn == "always" or (self.pass_turn == "forced" and not moves
                                          and self._others_can_move(state, player)):
            moves = [*moves, Move("pass", ())]
        return moves

    def _others_can_move(self, state: PieceState, player: int) -> bool:
        """Whether another player has a move in this position (a forced pass is only
        for a player whose opponent can go on; otherwise the game is over)."""
        for other in range(state.game.num_players):
            if other == player or other in state.game.ruleset.neutral_players:
                continue
            for template in self.templates:
                if template.top_level and template.generate(state, other):
                    return True
        return False

    def _chains(self, state: PieceState, player: int, firsts: Sequence[Partial],
                budget: list[int]) -> list[tuple[tuple[Action, ...], ...]]:
        """The sequences of steps the partial moves ``firsts`` (of one template, from the
        position now) can grow into: one per way a chain can end, found by a search of
        the positions the steps reach, each position explored once (a chain of jumps
        over one's own pieces can take an exponential number of paths to few
        positions).

        A chain ends with a step that is not partial; or in a position with no step
        left (a step that would take again a piece the chain has taken does not
        count); or, where the steps go round in a cycle they cannot leave, in any
        position of that cycle without a last step of its own (the positions of a
        cycle are a strongly connected component of the positions, found as the search
        goes, Tarjan's way); with ``pass_partial``, anywhere. Each end is reached by a
        shortest chain, which the notation shows."""
        root = state.key()
        index: dict[int, int] = {root: 0}
        low: dict[int, int] = {root: 0}
        stack: list[int] = [root]
        on_stack: set[int] = {root}
        #: position -> the positions one step on, each with the first step found to it
        edges: dict[int, dict[int, tuple[Action, ...]]] = {root: {}}
        lasts: dict[int, list[tuple[Action, ...]]] = {root: []}
        ends: list[int] = []

        def visit(step: Partial, depth: int) -> int | None:
            budget[0] -= 1
            if budget[0] < 0:
                raise RulesError(f"the partial moves of this position take more than "
                                 f"{self.max_chains} steps to explore (the engine's "
                                 "bound): the rules' chains do not come to an end")
            if self.deferred_captures:
                cells = state.cells
                if any(isinstance(a, Capture) and (p := cells[a.cell]) is not None
                       and p.owner == -1 for a in step.actions):
                    return None
                state.apply_step(tuple(_taken(state.cells, a) for a in step.actions))
            else:
                state.apply_step(step.actions)
            try:
                key = state.key()
                if key in index:
                    return key
                index[key] = low[key] = len(index)
                stack.append(key)
                on_stack.add(key)
                nexts = edges[key] = {}
                last = lasts[key] = []
                if depth < self.max_chain:
                    for template in self.templates:
                        if step.move_type:
                            if template.move_type != step.move_type:
                                continue
                        elif type(template) is not Template:
                            # A partial move of no type goes on with any move of the piece.
                            continue
                        for item in template.generate(state, player, (step.cell,)):
                            if not isinstance(item, Partial):
                                last.append(item)
                                continue
                            self._follow(key, visit(item, depth + 1), item, nexts, low,
                                         on_stack)
                if low[key] == index[key]:
                    self._chain_ends(key, stack, on_stack, edges, lasts, ends)
                return key
            finally:
                state.undo()

        for first in firsts:
            self._follow(root, visit(first, 1), first, edges[root], low, on_stack)
        if low[root] == index[root]:
            self._chain_ends(root, stack, on_stack, edges, lasts, ends)
        # A shortest chain to each position (a breadth-first search of the steps found).
        paths: dict[int, tuple[tuple[Action, ...], ...]] = {root: ()}
        frontier = [root]
        while frontier:
            following = []
            for key in frontier:
                for after, actions in edges[key].items():
                    if after not in paths:
                        paths[after] = (*paths[key], actions)
                        following.append(after)
            frontier = following
        out: list[tuple[tuple[Action, ...], ...]] = []
        for key, stops in sorted(ends, key=lambda end: (len(paths[end[0]]), index[end[0]])):
            path = paths[key]
            out.extend((*path, last) for last in lasts[key])
            if stops and key != root:
                out.append(path)
        return out

    @staticmethod
    def _follow(key: int, after: int | None, step: Partial,
                nexts: dict[int, tuple[Action, ...]], low: dict[int, int],
                on_stack: set[int]) -> None:
        """Record the step from position ``key`` to ``after`` (None: not playable)."""
        if after is None:
            return
        nexts.setdefault(after, step.actions)
        if after in on_stack:
            low[key] = min(low[key], low[after])

    def _chain_ends(self, key: int, stack: list[int], on_stack: set[int],
                    edges: dict[int, dict[int, tuple[Action, ...]]],
                    lasts: dict[int, list[tuple[Action, ...]]],
                    ends: list[tuple[int, bool]]) -> None:
        """Pop the strongly connected component of ``key`` off Tarjan's ``stack`` and add
        its positions to ``ends``, each with whether a chain may stop there (see
        :meth:`_chains`)."""
        component: list[int] = []
        while True:
            member = stack.pop()
            on_stack.discard(member)
            component.append(member)
            if member == key:
                break
        members = set(component)
        closed = all(n in members for m in component for n in edges[m])
        cycle = len(component) > 1 or key in edges[key]
        for member in component:
            stops = self.pass_partial or (not lasts[member] and (
                not edges[member] or (closed and cycle)))
            ends.append((member, stops))

    def _keeps(self, state: PieceState, move: Move, player: int) -> bool:
        # Invariants that can answer from the position before the move (a ``before``
        # method, of the same meaning) spare playing it.
        before = self._before
        if before is not None:
            actions = move.actions
            return all(b(state, actions, player) for b in before)
        state.apply(move)
        try:
            return all(inv(state, move, player) for inv in self.invariants)
        finally:
            state.undo()

    def attacked(self, state: PieceState, cell: int, *, by: Callable[[int], bool],
                 move_type: str | None = None, exclude: int | None = None) -> bool:
        """Whether a player ``by`` accepts could capture on ``cell`` (or, if it is empty,
        move onto it) with one move of a template (of ``move_type``) now: the pieces'
        single steps, without invariants or chains (ZRF ``attacked?``).

        Only the templates whose :func:`reach` from a piece's cell includes ``cell`` are
        run, from that piece only: a king is tested against the few pieces that could
        possibly hit it, not against every move of the other side.
        """
        token = _ATTACKING.set(True)
        try:
            return self._attacked(state, cell, by, move_type, exclude)
        finally:
            _ATTACKING.reset(token)

    def _attacked(self, state: PieceState, cell: int, by: Callable[[int], bool],
                  move_type: str | None, exclude: int | None) -> bool:
        occupied = state.cells[cell] is not None
        cells = state.cells
        for player, kinds in _kinds_by_player(cells).items():
            if not by(player):
                continue
            for kind in kinds:
                for source, template, _ in self._attackers(state.game, player, kind, move_type
                                                           ).of(cell, cells, player, kind):
                    if source == exclude:
                        continue
                    for item in template.generate(state, player, (source,)):
                        actions = item.actions if isinstance(item, Partial) else item
                        for a in actions:
                            if occupied and isinstance(a, Capture) and a.cell == cell:
                                return True
                            if isinstance(a, Shift) and a.target == cell and \
                                    a.source != exclude:
                                return True
        return False

    def _attackers(self, game: Any, player: int, kind: str, move_type: str | None
                   ) -> _Attackers:
        """Which of ``player``'s pieces of ``kind`` could reach which cell of ``game``'s
        board, by :func:`reach` (made once per game, player, piece type and move type,
        the first time such a piece is met)."""
        return game.derived(self, ("attackers", player, kind, move_type),
                            self._find_attackers, game.board, player, kind, move_type)

    def _find_attackers(self, board: Any, player: int, kind: str, move_type: str | None
                        ) -> _Attackers:
        attackers = _Attackers(board.size)
        for template in self.templates:
            if isinstance(template, Drop | Group | Line | Footprint):
                continue
            if move_type is not None and template.move_type != move_type:
                continue
            if template.kinds and kind not in template.kinds:
                continue
            attackers.add(template, board, player)
        return attackers


class _Attackers:
    """The (source cell, template, cells the run reads) triples of one player's pieces
    of one type whose :func:`reach` includes each cell: ``by_target`` for reaches the
    analysis found, ``wide`` for runs that may reach anywhere (kept once, not once per
    cell: a program too costly to follow reaches everywhere from every cell)."""

    def __init__(self, size: int):
        self.size = size
        self.by_target: list[list[tuple[int, Template, frozenset[int] | Everywhere]]] = \
            [[] for _ in range(size)]
        #: template -> (the cells from which it reaches anywhere, None for all; what it
        #: reads from them).
        self.wide: dict[Template, tuple[set[int] | None, frozenset[int] | Everywhere]] = {}

    def add(self, template: Template, board: Any, player: int) -> None:
        """Follow ``template`` from every cell."""
        for source in range(self.size):
            found, looked = _abstract_run(template.program, board, player, source)
            if looked is COSTLY:
                # Too costly to follow: it reaches anywhere from any cell.
                self.wide[template] = (None, EVERYWHERE)
                return
            if found is EVERYWHERE:
                self.wide.setdefault(template, (set(), looked))[0].add(source)  # type: ignore[union-attr]
                continue
            for target in found:  # type: ignore[union-attr]
                self.by_target[target].append((source, template, looked))

    def of(self, target: int, cells: Sequence[Piece | None], player: int, kind: str
           ) -> Iterator[tuple[int, Template, frozenset[int] | Everywhere]]:
        """The triples that may reach ``target`` whose source holds a piece of
        ``player`` of ``kind`` in ``cells``."""
        for source, template, looked in self.by_target[target]:
            piece = cells[source]
            if piece is not None and piece.owner == player and piece.kind == kind:
                yield source, template, looked
        if self.wide:
            mine = [c for c, p in enumerate(cells)
                    if p is not None and p.owner == player and p.kind == kind]
            for template, (sources, looked) in self.wide.items():
                for source in mine:
                    if sources is None or source in sources:
                        yield source, template, looked


def _kinds_by_player(cells: Sequence[Piece | None]) -> dict[int, set[str]]:
    out: dict[int, set[str]] = {}
    for piece in cells:
        if piece is not None:
            out.setdefault(piece.owner, set()).add(piece.kind)
    return out


def turn_index(ply: int, turns: int, repeat_from: int) -> int:
    """The index of the turn played at ``ply`` in a turn order of ``turns`` turns that
    goes round from turn ``repeat_from`` once it has run out (ZRF's ``repeat``).

    >>> [turn_index(ply, 3, 1) for ply in range(7)]
    [0, 1, 2, 1, 2, 1, 2]
    """
    if ply < turns:
        return ply
    return repeat_from + (ply - repeat_from) % (turns - repeat_from)


@dataclass(frozen=True)
class FollowUp:
    """A second move of the same player in one turn (:attr:`Rules.follow_up`). What
    gives it is one of two things:

    * ``test`` (nine men's morris: a man that closes a mill lets its owner remove an
      enemy man): after a move that puts a piece down (its last shift's target, else
      its last drop's cell: the position's ``last_to``), ``test`` is read at that cell
      for the mover, on the position after the move;
    * ``along`` (Ordo X's sideways preparation moves): a move of a piece at least,
      each going in one of these directions as the mover sees them (along a line of
      steps in one of them), read from the move alone.

    Where it holds the turn does not pass: the same player moves again, and that move
    ends the turn. The second move is one of the templates of ``move_type`` (those
    that are not ``top_level`` too), or with no ``move_type`` (``along`` only: its
    moves are known without playing them) any move that ``along`` would not give a
    second one. A move made with one due is never followed. A position says the move
    due by ``name`` (the ``follow`` of a :class:`~boardlab.core.position.PieceState`,
    ``follow:NAME`` in its text form; by default the move type) and counts turns
    apart from moves (its ``turns``).

    >>> FollowUp(along=("e", "w"), name="sideways").name
    'sideways'
    """

    test: Predicate | None = None
    move_type: str | None = None
    along: tuple[str, ...] = ()
    name: str = ""

    def __post_init__(self) -> None:
        if (self.test is None) == (not self.along):
            raise ValueError("a follow-up is given by a test or by directions, one of them")
        if self.move_type is None and not self.along:
            raise ValueError("a follow-up given by a test needs the move type it allows")
        if not self.name:
            if self.move_type is None:
                raise ValueError("a follow-up of any move needs a name")
            object.__setattr__(self, "name", self.move_type)

    def due(self, state: PieceState, player: int, actions: Sequence[Action]) -> bool:
        """Whether ``player``'s move of ``actions``, just played on ``state`` (with no
        follow-up due before it), is followed by another."""
        if self.along:
            return self.follows(state.game, player, actions)
        cell = state.last_to
        if cell is None or not any(type(a) is Shift or type(a) is Place for a in actions):
            return False
        links = state.game.board.player_links(player)
        return bool(test(self.test, Cursor(state, player, cell, None, None, links=links,
                                           start=cell)))

    def follows(self, game: Any, player: int, actions: Sequence[Action]) -> bool:
        """Whether ``player``'s move of ``actions`` in ``game`` goes along (see
        :attr:`along`): of a piece at least, every piece along one of the directions."""
        lines = game.derived(self, ("lines", player), self._lines, game.board, player)
        found = False
        for a in actions:
            if type(a) is Shift:
                if (a[0], a[1]) not in lines:
                    return False
                found = True
        return found

    def _lines(self, board: Any, player: int) -> frozenset[tuple[int, int]]:
        """The (from, to) pairs of cells along one of the directions for ``player``."""
        return frozenset((cell, target) for d in self.along for cell in range(board.size)
                         for target in board.ray(cell, d, player))


@dataclass(frozen=True)
class TurnLimits:
    """What each turn of a turn order allows beyond its player's moves (ZRF's
    ``(PLAYER MOVE-TYPE)``, ``(PLAYER OWNER)``, ``(PLAYER OWNER MOVE-TYPE)``): the one
    move type it allows (None: every template that starts a move; a type named here
    lets templates run that otherwise only go on with chains) and the player whose
    pieces it moves, read from that player's side (None: the side to move). Turns
    count as the turn order's (:attr:`~boardlab.core.ruleset.RuleSet.turn_order`):
    turn ``ply`` while there are turns, then round from ``repeat_from``.

    >>> limits = TurnLimits(("setup", "setup", None), (None, None, 2), repeat_from=2)
    >>> [limits.at(ply, 0) for ply in (0, 2, 5)]
    [(0, 'setup'), (2, None), (2, None)]
    """

    move_types: tuple[str | None, ...]
    movers: tuple[int | None, ...]
    repeat_from: int = 0

    def __post_init__(self) -> None:
        if len(self.movers) != len(self.move_types) or not \
                0 <= self.repeat_from < len(self.move_types):
            raise ValueError("a turn's move type and mover for each turn, and a turn "
                             "to repeat from among them")

    def turn(self, ply: int) -> int:
        """The index of the turn played at ``ply``."""
        return turn_index(ply, len(self.move_types), self.repeat_from)

    def at(self, ply: int, to_move: int) -> tuple[int, str | None]:
        """Whose pieces move at ``ply`` when ``to_move`` is to move, and the move type
        the turn allows (None: any)."""
        turn = self.turn(ply)
        mover = self.movers[turn]
        return (to_move if mover is None else mover), self.move_types[turn]


@dataclass(frozen=True)
class MaximalCaptures:
    """A move filter (:attr:`Rules.select`): only the moves that take the most pieces
    (ZRF's ``maximal captures``, draughts' majority rule); with ``kings_first``, the
    most pieces of another type than ``men`` first, then the most pieces (option
    ``2``). Declared, not a bare function, so that a game kernel plays it too.

    >>> from boardlab.core.move import Move
    >>> class Board:  # what the filter reads of a position
    ...     cells = [Piece(1, "Man"), Piece(1, "King"), Piece(1, "Man")]
    >>> moves = [Move("a", (Capture(0), Capture(2))), Move("b", (Capture(1),))]
    >>> [m.notation for m in MaximalCaptures()(Board(), moves)]
    ['a']
    >>> [m.notation for m in MaximalCaptures(kings_first=True, men="Man")(Board(), moves)]
    ['b']
    """

    kings_first: bool = False
    men: str | None = None

    def score(self, cells: Sequence[Piece | None], actions: Sequence[Action]
              ) -> tuple[int, int]:
        """What a move's captures weigh: (kings, pieces) with ``kings_first``, else
        (pieces, 0)."""
        taken = [cells[a.cell] for a in actions if isinstance(a, Capture)]
        if not self.kings_first:
            return (len(taken), 0)
        return (sum(1 for p in taken if p is not None and p.kind != self.men), len(taken))

    def __call__(self, state: Any, moves: list[Move]) -> list[Move]:
        cells = state.cells
        scores = [self.score(cells, m.actions) for m in moves]
        best = max(scores)
        return [m for m, score in zip(moves, scores, strict=True) if score == best]


@dataclass(frozen=True)
class Protect:
    """A move of one of ``players`` may not leave one of their pieces of ``kinds``
    attacked (:meth:`Rules.attacked`): ZRF's ``checkmated`` goal, which Zillions also
    reads as "no move into check"."""

    kinds: tuple[str, ...]
    players: frozenset[int]


class _Safety:
    """Which of a position's candidate moves leave the mover's protected pieces
    attacked, without playing each move: only the other side's (piece, template) pairs
    whose reach includes a protected piece's cell can attack it, and a move that
    changes none of the cells such a pair reads leaves its answer as it was. A move
    that moves a protected piece or puts one down (a King dropped from the hand, a
    promotion to a King), or that a pair reading the last move may see, is played and
    tested in full."""

    def __init__(self, rules: Rules, state: PieceState, player: int,
                 guards: list[tuple[str, ...]]):
        self.rules, self.state, self.player = rules, state, player
        kinds = {k for g in guards for k in g}
        self.kinds = tuple(kinds)
        self.cells = frozenset(c for c, p in enumerate(state.cells)
                               if p is not None and p.owner == player and p.kind in kinds)
        self.pairs: list[tuple[int, int, Template, frozenset[int] | Everywhere]] = []
        present = _kinds_by_player(state.cells)
        for target in self.cells:
            for other, others_kinds in present.items():
                if other == player:
                    continue
                for kind in others_kinds:
                    for source, template, looked in rules._attackers(
                            state.game, other, kind, None).of(target, state.cells, other, kind):
                        self.pairs.append((target, source, template, looked))
        self._now: dict[int, bool] = {}

    def _hits(self, index: int) -> bool:
        """Whether pair ``index`` captures its target in the current position."""
        found = self._now.get(index)
        if found is None:
            target, source, template, _ = self.pairs[index]
            found = self._now[index] = _captures(self.state, template, source, target)
        return found

    def safe(self, actions: tuple[Action, ...]) -> bool:
        """Whether the move leaves every protected piece unattacked."""
        touched: set[int] = set()
        arrives = False  # a protected piece of the mover's comes on the board (a drop)
        for a in actions:
            if isinstance(a, Shift):
                touched.add(a.source)
                touched.add(a.target)
            else:
                touched.add(a.cell)
                if isinstance(a, Place | Change) and a.piece.owner == self.player and \
                        a.piece.kind in self.kinds:
                    arrives = True
        if arrives or touched & self.cells:
            return self._played(actions)
        if not self.cells:
            return True
        again = []
        for index, (_, source, template, looked) in enumerate(self.pairs):
            if template.reads_history or source in touched or \
                    looked is EVERYWHERE or touched & looked:  # type: ignore[operator]
                again.append(index)
            elif self._hits(index):
                return False
        if not again:
            return True
        state = self.state
        state.apply_step(actions)
        try:
            for index in again:
                target, source, template, _ = self.pairs[index]
                piece = state.cells[source]
                if piece is None or piece.owner == self.player:
                    continue
                if _captures(state, template, source, target):
                    return False
            return True
        finally:
            state.undo()

    def _played(self, actions: tuple[Action, ...]) -> bool:
        from boardlab.core.goals import in_check

        state = self.state
        state.apply_step(actions)
        try:
            return not in_check(state, self.player, self.kinds)
        finally:
            state.undo()


def _captures(state: PieceState, template: Template, source: int, target: int) -> bool:
    """Whether ``template`` run from the piece on ``source`` captures on ``target``."""
    player = state.cells[source].owner  # type: ignore[union-attr]
    occupied = state.cells[target] is not None
    token = _ATTACKING.set(True)
    try:
        items = template.generate(state, player, (source,))
    finally:
        _ATTACKING.reset(token)
    for item in items:
        actions = item.actions if isinstance(item, Partial) else item
        for a in actions:
            if occupied and isinstance(a, Capture) and a.cell == target:
                return True
            if isinstance(a, Shift) and a.target == target:
                return True
    return False


class _Lost(Exception):
    """The abstract run meets an instruction it cannot follow."""


class _Costly(_Lost):
    """The abstract run costs more than its budget."""


_OFF_BOARD = frozenset((OFF,))


class Everywhere:
    """The reach of a program the analysis cannot follow: every cell."""

    def __contains__(self, cell: object) -> bool:
        return True


EVERYWHERE = Everywhere()
#: The reach of a program the analysis gave up following because following it costs
#: more than its budget (a loop over the whole board inside a loop over it): every cell,
#: as for a program it cannot follow, and the same for every cell it starts from.
COSTLY = Everywhere()
#: The instructions an abstract run may visit before it gives up (a sound answer:
#: everywhere). Plain moves visit a few dozen.
_REACH_BUDGET = 1_000


def reach(program: Sequence[Instruction], board: Any, player: int,
          source: int) -> frozenset[int] | Everywhere:
    """The cells a run of ``program`` from ``source`` could move a piece to or capture
    on, whatever the position: every test is taken both ways and every loop to its
    fixed point (an abstract run over sets of cells). A program it cannot follow (one
    that reads the last move, or plays partial moves on) reaches everywhere."""
    return _abstract_run(program, board, player, source)[0]


def reads(program: Sequence[Instruction], board: Any, player: int,
          source: int) -> frozenset[int] | Everywhere:
    """The cells a run of ``program`` from ``source`` could look at, whatever the
    position (see :func:`reach`): a move that changes none of them cannot change what
    the run finds."""
    return _abstract_run(program, board, player, source)[1]


#: Instructions that neither move the cursor nor put a piece anywhere.
_MOVES_NOTHING = (Verify, SetFlag, SetPositionFlag, SetVar, Inc, Create, ChangeType,
                  ChangeOwner, SetAttribute, From, DiscardCascades)
#: Instructions that capture or put a piece down on the cursor's cells.
_LANDS_HERE = (CaptureHere, To, Cascade)
#: Instructions the abstract run does not follow (the run reaches everywhere).
_NOT_FOLLOWED = (Go,)
#: Every instruction type the abstract run has a case for.
REACH_CASES = frozenset((*_MOVES_NOTHING, *_LANDS_HERE, *_NOT_FOLLOWED, Step, If, While,
                         EveryCell, Add, CaptureAt, Mark, MarkAt, Back, GoTo))


def _abstract_run(program: Sequence[Instruction], board: Any, player: int, source: int
                  ) -> tuple[frozenset[int] | Everywhere, frozenset[int] | Everywhere]:
    links = board.player_links(player)
    found: set[int] = set()
    seen: set[int] = {source}
    # Whether a step that may leave the board (the run goes on, the cursor off) left it:
    # then a run whose cells ran out is still going.
    left: list[bool] = [False]

    def step(cells: frozenset[int], direction: str, may_leave: bool = False
             ) -> frozenset[int]:
        row = links.get(direction)
        if row is None:
            row = board.links[board.direction_index(board.player_direction(player,
                                                                           direction))]
        out = frozenset([row[c] for c in cells])
        if OFF in out:
            left[0] = left[0] or may_leave
            out = out.difference(_OFF_BOARD)
        seen.update(out)
        return out

    work = [0]

    def run(instructions: Sequence[Instruction], cells: frozenset[int],
            marks: frozenset[int]) -> tuple[frozenset[int], frozenset[int]]:
        work[0] += len(instructions)
        if work[0] > _REACH_BUDGET:
            raise _Costly
        for i in instructions:
            if not cells and not left[0]:
                # Every run has failed (a step led nowhere): nothing after it happens.
                return cells, marks
            if isinstance(i, Step):
                cells = step(cells, i.direction, i.may_leave)
            elif isinstance(i, _MOVES_NOTHING):
                continue
            elif isinstance(i, If):
                a = run(i.then, cells, marks)
                b = run(i.else_, cells, marks)
                cells, marks = a[0] | b[0], a[1] | b[1]
            elif isinstance(i, While):
                # The fixed point, each round running the body only from the cells the
                # last round added (the body's reach from a union is the union of its
                # reaches): a loop that walks the whole board costs one pass, not one
                # pass per cell.
                total, total_marks = cells, marks
                fresh = cells
                for _ in range(board.size + 1):
                    nxt, nxt_marks = run(i.body, fresh, total_marks)
                    fresh = nxt - total
                    if not fresh and nxt_marks <= total_marks:
                        break
                    total, total_marks = total | nxt, total_marks | nxt_marks
                cells, marks = total, total_marks
            elif isinstance(i, EveryCell):
                # A run of the body from each cell, none of which goes further; the
                # run then goes on where it stood.
                every = frozenset(range(board.size))
                seen.update(every)
                run(i.body, every, marks)
            elif isinstance(i, Add):
                if i.partial is not None:
                    raise _Lost
                found.update(cells)
            elif isinstance(i, _LANDS_HERE):
                found.update(cells)
            elif isinstance(i, CaptureAt):
                found.update(_reach_at(cells, i.cell, i.direction, step))
            elif isinstance(i, Mark):
                marks = cells
            elif isinstance(i, MarkAt):
                marks = _reach_at(cells, i.cell, i.direction, step)
            elif isinstance(i, Back):
                cells = marks | frozenset((source,))
            elif isinstance(i, GoTo):
                # A jump to a fixed cell is reached only by a run still going: after a
                # step no source can take (shogi's drops start with a step only a hand
                # cell has), the run has failed, and the jump must not revive it.
                if cells or left[0]:
                    cells = frozenset((i.cell,))
                    seen.add(i.cell)
            elif isinstance(i, _NOT_FOLLOWED):
                raise _Lost
            else:  # a node without a case here: tests/core/test_ir.py fails first
                raise TypeError(f"no abstract run of {type(i).__name__}")
        return cells, marks

    try:
        run(program, frozenset((source,)), frozenset())
    except _Costly:
        return EVERYWHERE, COSTLY
    except _Lost:
        return EVERYWHERE, EVERYWHERE
    return frozenset(found), frozenset(seen)


def _reach_at(cells: frozenset[int], cell: int | None, direction: str | None,
              step: Callable[[frozenset[int], str], frozenset[int]]) -> frozenset[int]:
    if cell is not None:
        return frozenset((cell,))
    return cells if direction is None else step(cells, direction)


def _taken(cells: Sequence[Piece | None], action: Action) -> Action:
    """A capture of a chain step as a deferred capture: the piece stays, owned by
    nobody (owner -1), until the chain ends."""
    if isinstance(action, Capture) and (piece := cells[action.cell]) is not None:
        return Change(action.cell, Piece(-1, piece.kind, piece.attributes))
    return action


def compose(cells: Sequence[Piece | None], steps: Sequence[Sequence[Action]]
            ) -> tuple[Action, ...]:
    """The actions of steps played one after another (each step's actions simultaneous,
    as :meth:`~boardlab.core.position.PieceState.apply` plays them), as one simultaneous
    list: each piece's net shift, the pieces removed, placed and changed.

    >>> from boardlab.core.move import Piece
    >>> cells = [Piece(0), Piece(1), None, Piece(1), None]
    >>> compose(cells, [(Capture(1), Shift(0, 2)), (Capture(3), Shift(2, 4))])
    (Capture(cell=1), Capture(cell=3), Shift(source=0, target=4))
    """
    # cell -> (the piece's cell before the steps, or None for a new one; the piece; whether
    # a new piece, or a promotion, came from its owner's reserve)
    board: dict[int, tuple[int | None, Piece, bool]] = {}
    touched: set[int] = set()

    def at(cell: int) -> tuple[int | None, Piece, bool] | None:
        if cell in board:
            return board[cell]
        if cell in touched:
            return None
        piece = cells[cell]
        return None if piece is None else (cell, piece, False)

    for step in steps:
        lifted = [(a, at(a.source)) for a in step if isinstance(a, Shift)]
        for a in step:
            if isinstance(a, Capture):
                board.pop(a.cell, None)
                touched.add(a.cell)
        for a, _ in lifted:
            board.pop(a.source, None)
            touched.add(a.source)
        for a, token in lifted:
            touched.add(a.target)
            if token is None:
                board.pop(a.target, None)
            else:
                board[a.target] = token
        for a in step:
            if isinstance(a, Place):
                touched.add(a.cell)
                board[a.cell] = (None, a.piece, a.from_reserve)
            elif isinstance(a, Change):
                old = at(a.cell)
                touched.add(a.cell)
                board[a.cell] = (None, a.piece, a.from_reserve) if old is None else \
                    (old[0], a.piece, old[2] or a.from_reserve)
    alive = {origin for origin, _, _ in board.values() if origin is not None}
    captures = [Capture(c) for c in sorted(touched) if cells[c] is not None and c not in alive]
    shifts: list[Action] = []
    after: list[Action] = []
    for cell in sorted(board):
        origin, piece, reserve = board[cell]
        if origin is None:
            after.append(Place(cell, piece, from_reserve=reserve))
            continue
        if origin != cell:
            shifts.append(Shift(origin, cell))
        if piece != cells[origin] or reserve:
            after.append(Change(cell, piece, reserve))
    return (*captures, *shifts, *after)


def for_directions(make: Callable[[str], Sequence[Instruction]], directions: Iterable[str],
                   **template_args: Any) -> list[Template]:
    """One template per direction: ZRF's ``(moves (push n) (push s) ...)``."""
    return [Template(tuple(make(d)), direction=d, **template_args) for d in directions]


def piece_set(symbols: Mapping[str, tuple[int, str]]) -> dict[str, Piece]:
    """Symbol -> Piece from symbol -> (owner, kind)."""
    return {s: Piece(o, k) for s, (o, k) in symbols.items()}


