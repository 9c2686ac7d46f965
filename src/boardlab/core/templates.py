"""The move language's templates: what a piece's move is (:class:`Template`, run from
each of the mover's pieces), drops (:class:`Drop`), moves of several pieces at once
(:class:`Group`, :class:`Line`, :class:`Footprint`), and the declared rules of a whole
move (:class:`StaysConnected`, :class:`NotMirrored`, :class:`KeepLargestGroup`).

A game builds them through :mod:`boardlab.core.rules`, the language's one face; which of
them are legal in a turn is :mod:`boardlab.core.turn`'s job, what a program can reach
:mod:`boardlab.core.analysis`'s.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
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
from boardlab.core.interpret import (
    Cursor,
    Fail,
    run,
    run_all,
)
from boardlab.core.ir import (
    Add,
    Instruction,
    instructions,
)
from boardlab.core.move import (
    Action,
    Capture,
    Move,
    Piece,
    Place,
    Shift,
)
from boardlab.errors import BoardError

if TYPE_CHECKING:
    from boardlab.core.position import PieceState

__all__ = ["Drop", "Footprint", "Footstep", "Group", "Invariant", "KeepLargestGroup", "Line",
           "NotMirrored", "StaysConnected", "Template", "for_directions", "piece_set"]

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
            isinstance(i, Add) and i.partial is not None for i in instructions(self.program)))

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


def for_directions(make: Callable[[str], Sequence[Instruction]], directions: Iterable[str],
                   **template_args: Any) -> list[Template]:
    """One template per direction: ZRF's ``(moves (push n) (push s) ...)``."""
    return [Template(tuple(make(d)), direction=d, **template_args) for d in directions]


def piece_set(symbols: Mapping[str, tuple[int, str]]) -> dict[str, Piece]:
    """Symbol -> Piece from symbol -> (owner, kind)."""
    return {s: Piece(o, k) for s, (o, k) in symbols.items()}


