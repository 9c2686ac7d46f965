"""A turn of the move language: :class:`Rules` makes a position's legal moves from the
game's templates -- priorities, invariants, partial moves played out as chains and
composed into one move (:func:`compose`), the turn order's limits (:class:`TurnLimits`),
follow-up moves (:class:`FollowUp`), maximal captures (:class:`MaximalCaptures`), pieces
a move may not leave attacked (:class:`Protect`) and ZRF's ``attacked?``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from boardlab.core.analysis import EVERYWHERE, Attackers, Everywhere, kinds_by_player
from boardlab.core.goals import in_check
from boardlab.core.interpret import (
    _ATTACKING,
    Cursor,
    test,
)
from boardlab.core.ir import (
    Partial,
    Predicate,
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
from boardlab.core.templates import (
    Drop,
    Footprint,
    Group,
    Invariant,
    KeepLargestGroup,
    Line,
    Template,
    _new_move,
)
from boardlab.errors import RulesError

if TYPE_CHECKING:
    from boardlab.core.position import PieceState

__all__ = ["FollowUp", "MaximalCaptures", "Protect", "Rules", "TurnLimits", "compose", "turn_index"]


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

        Only the templates whose :func:`~boardlab.core.analysis.reach` from a piece's
        cell includes ``cell`` are run, from that piece only: a king is tested against
        the few pieces that could possibly hit it, not against every move of the other
        side.
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
        for player, kinds in kinds_by_player(cells).items():
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
                   ) -> Attackers:
        """Which of ``player``'s pieces of ``kind`` could reach which cell of ``game``'s
        board, by :func:`~boardlab.core.analysis.reach` (made once per game, player,
        piece type and move type, the first time such a piece is met)."""
        return game.derived(self, ("attackers", player, kind, move_type),
                            self._find_attackers, game.board, player, kind, move_type)

    def _find_attackers(self, board: Any, player: int, kind: str, move_type: str | None
                        ) -> Attackers:
        attackers = Attackers(board.size)
        for template in self.templates:
            if isinstance(template, Drop | Group | Line | Footprint):
                continue
            if move_type is not None and template.move_type != move_type:
                continue
            if template.kinds and kind not in template.kinds:
                continue
            attackers.add(template, board, player)
        return attackers


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
        present = kinds_by_player(state.cells)
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
