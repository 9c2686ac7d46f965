"""The move language's reference interpreter: what each node of :mod:`boardlab.core.ir`
means, run on a position.

A template's run walks the board with a :class:`Cursor` from one of the mover's pieces
(or, for a drop, from a cell with a piece in hand): :func:`run_all` runs its
instructions, each through :data:`RUN` (a function per instruction type), and
:func:`test` answers a test through :data:`TESTS` (a function per test type). A run
ends without a move by raising :class:`Fail`; ``Add`` appends the move built so far
(see :func:`emit`). Tests read the board *as it was when the move started*, as in ZRF.

Every other backend (the Python code generator, the numba kernel) is checked move for
move against this one along random games.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from boardlab.core.groups import game_masks, is_one_group, owned
from boardlab.core.ir import (
    LOOP_LIMIT,
    OFF,
    Add,
    AdjacentToEnemy,
    AllOf,
    Always,
    AnyOf,
    AtCell,
    AtStep,
    Attacked,
    Attribute,
    Back,
    CaptureAt,
    CaptureHere,
    Cascade,
    ChangeOwner,
    ChangeType,
    Connected,
    Create,
    DiscardCascades,
    Empty,
    Enemy,
    EveryCell,
    Flag,
    Friend,
    From,
    Go,
    GoTo,
    If,
    Inc,
    InCells,
    Instruction,
    InZone,
    LastFrom,
    LastTo,
    Less,
    Mark,
    MarkAt,
    Marked,
    Native,
    Neutral,
    Never,
    Not,
    OnBoard,
    OnBoardStep,
    Partial,
    PieceCount,
    PieceIs,
    PositionFlag,
    PositionIs,
    SetAttribute,
    SetFlag,
    SetPositionFlag,
    SetVar,
    Step,
    Test,
    To,
    Var,
    Verify,
    While,
)
from boardlab.core.move import Action, Capture, Change, Piece, Place, Shift, in_hand
from boardlab.errors import BoardError

if TYPE_CHECKING:
    from boardlab.core.position import PieceState

__all__ = ["RUN", "TESTS", "Cursor", "Fail", "emit", "piece_count", "run", "run_all", "test"]

#: Set while the moves of a player are run to see what they attack: an attack test met
#: inside them is false. An attack is what the other side's moves could do now; a move
#: that itself asks whether a cell is attacked would ask of the first side's moves, and
#: so on without end (Zillions' own compulsory-capture chess: capture-type moves that
#: look whether the king is attacked). One level of moves is what the test means.
_ATTACKING: contextvars.ContextVar[bool] = contextvars.ContextVar("attacking", default=False)
_TO = To()


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
    #: Where the run started (ZRF ``back`` without a ``mark`` returns there).
    start: int = OFF
    #: Flags of positions set in this run (ZRF ``set-position-flag``): (name, cell).
    position_flags: dict[tuple[str, int], bool] | None = None
    #: Attribute values to give the pieces on cells after the move: cell -> {name: value}.
    attributes: dict[int, dict[str, bool]] | None = None
    #: A dropped piece comes from its owner's reserve (a limited supply).
    reserve: bool = True
    #: New types and owners to give the pieces on cells after the move, in the order the
    #: run asked (ZRF ``change-type``, ``change-owner``, ``flip``): see :func:`emit`.
    changes: list[tuple[int, str, Any]] | None = None
    #: Where the last ZRF ``to`` put the piece in hand down (None: no ``to`` since the
    #: run started or the last ``cascade``), for ``(go to)``.
    to: int | None = None

    @property
    def board(self):  # noqa: ANN201 - a Board; kept untyped to avoid an import cycle
        """The board of the game."""
        return self.state.game.board

    def piece(self) -> Piece | None:
        """The piece under the cursor on the board as it was at the start of the move."""
        return None if self.pos == OFF else self.state.cells[self.pos]




def _empty(p: Empty, c: Cursor) -> bool:
    return c.pos != OFF and c.state.cells[c.pos] is None


def _friend(p: Friend, c: Cursor) -> bool:
    piece = c.piece()
    return piece is not None and piece.owner == c.player


def _enemy(p: Enemy, c: Cursor) -> bool:
    piece = c.piece()
    return piece is not None and piece.owner != c.player and piece.owner >= 0


def _on_board(p: OnBoard, c: Cursor) -> bool:
    return c.pos != OFF


def _neutral(p: Neutral, c: Cursor) -> bool:
    piece = c.piece()
    return piece is not None and piece.owner in c.state.game.ruleset.neutral_players


def _last_from(p: LastFrom, c: Cursor) -> bool:
    return c.pos != OFF and c.pos == c.state.last_from


def _last_to(p: LastTo, c: Cursor) -> bool:
    return c.pos != OFF and c.pos == c.state.last_to


def _marked(p: Marked, c: Cursor) -> bool:
    return c.pos != OFF and c.pos == (c.start if c.mark is None else c.mark)


def _always(p: Always, c: Cursor) -> bool:
    return True


def _never(p: Never, c: Cursor) -> bool:
    return False


def _at_cell(p: AtCell, c: Cursor) -> bool:
    here = c.pos
    c.pos = p.cell
    try:
        return test(p.test, c)
    finally:
        c.pos = here


def _at_step(p: AtStep, c: Cursor) -> bool:
    if c.pos == OFF:
        return False
    nxt = _neighbour(c, p.direction)
    if nxt < 0:
        return False
    here = c.pos
    c.pos = nxt
    try:
        return test(p.test, c)
    finally:
        c.pos = here


def _position_is(p: PositionIs, c: Cursor) -> bool:
    return c.pos == p.cell


def _in_cells(p: InCells, c: Cursor) -> bool:
    return c.pos in p.cells


def _on_board_step(p: OnBoardStep, c: Cursor) -> bool:
    return c.pos != OFF and _neighbour(c, p.direction) >= 0


def _attribute(p: Attribute, c: Cursor) -> bool:
    return (piece := c.piece()) is not None and p.name in piece.attributes


def _position_flag(p: PositionFlag, c: Cursor) -> bool:
    return bool(c.position_flags and c.position_flags.get((p.name, c.pos)))


def _not(p: Not, c: Cursor) -> bool:
    return not test(p.test, c)


def _all_of(p: AllOf, c: Cursor) -> bool:
    return all(test(q, c) for q in p.tests)


def _any_of(p: AnyOf, c: Cursor) -> bool:
    return any(test(q, c) for q in p.tests)


def _piece_is(p: PieceIs, c: Cursor) -> bool:
    return (piece := c.piece()) is not None and piece.kind in p.kinds


def _in_zone(p: InZone, c: Cursor) -> bool:
    return c.pos != OFF and c.board.in_zone(p.zone, c.player, c.pos)


def _flag(p: Flag, c: Cursor) -> bool:
    return bool(c.flags.get(p.name))


def _var(p: Var, c: Cursor) -> int:
    return c.flags.get(p.name, 0)


def piece_count(p: PieceCount, state: PieceState, player: int) -> int:
    """What :class:`~boardlab.core.ir.PieceCount` ``p`` counts in ``state`` for
    ``player``."""
    # Kept with the position's moves (a move made on it clears both): every run of a
    # template asks again on the same board.
    cache = getattr(state, "_cache", None)
    n = None if cache is None else cache.get((p, player))
    if n is None:
        kinds, mine = p.kinds, p.mine

        def counted(piece: Piece) -> bool:
            owner = piece.owner
            return (owner == player if mine else owner != player and owner >= 0) and (
                not kinds or piece.kind in kinds)

        n = sum(1 for piece in state.cells if piece is not None and counted(piece))
        if p.in_hand:
            n += sum(k for piece, k in state.reserves.items() if counted(piece))
        if cache is not None:
            cache[p, player] = n
    return n


def _piece_count(p: PieceCount, c: Cursor) -> int:
    return piece_count(p, c.state, c.player)


def _connected(p: Connected, c: Cursor) -> bool:
    state = c.state
    key = ("connected", c.player, p.directions)
    cache = state._cache
    found = cache.get(key)
    if found is None:
        found = cache[key] = is_one_group(owned(state, c.player),
                                          game_masks(state.game, p.directions))
    return found


def _less(p: Less, c: Cursor) -> bool:
    left, right = p.left, p.right
    return (left if isinstance(left, int) else test(left, c)) < \
        (right if isinstance(right, int) else test(right, c))


def _attacked(p: Attacked, c: Cursor) -> bool:
    if c.pos == OFF or _ATTACKING.get():
        return False
    if p.defended:
        return _could_take(c, lambda p: p == c.player, p.move_type, c.start)
    return _could_take(c, lambda p: p != c.player, p.move_type, None)


def _adjacent_to_enemy(p: AdjacentToEnemy, c: Cursor) -> bool:
    return c.pos != OFF and _enemy_next_to(c.state.cells, c.board.links, c.pos, c.player)


def _enemy_next_to(cells: Sequence[Piece | None], links: Sequence[Sequence[int]], cell: int,
                   player: int) -> bool:
    for row in links:
        nxt = row[cell]
        if nxt >= 0 and (p := cells[nxt]) is not None and p.owner != player:
            return True
    return False


def _could_take(c: Cursor, by: Callable[[int], bool], move_type: str | None,
                exclude: int | None) -> bool:
    """Whether a player ``by`` accepts could capture on the cursor's cell.

    No move takes its own side's piece, so on a cell holding a piece of such a player
    the question is asked of a piece of the other side standing there instead: a piece
    is defended when its side could take back on its cell (the chess sense, and what
    shogi's mate tests need: a King may not take a defended piece). On an empty cell
    it is asked of the moving piece standing there (Zillions: a cell is attacked where
    a King moving there would stand in check), so a chess Pawn attacks the cells it
    takes on, not the one it steps to.
    """
    state = c.state
    cells = state.cells
    piece = cells[c.pos]
    rules = state.game.move_rules
    if piece is not None and not by(piece.owner):
        return rules.attacked(state, c.pos, by=by, move_type=move_type, exclude=exclude)
    if piece is None:
        moving = cells[c.start] if c.start != OFF else None
        piece = moving or c.hand
        if piece is None:
            return False
    # A player the test does not ask about: the mover for attacked?, another for defended?.
    other = next(p for p in (c.player, *range(state.game.num_players)) if not by(p))
    here = cells[c.pos]
    cells[c.pos] = Piece(other, piece.kind, piece.attributes)
    try:
        return rules.attacked(state, c.pos, by=by, move_type=move_type, exclude=exclude)
    finally:
        cells[c.pos] = here


def _neighbour(c: Cursor, direction: str) -> int:
    links = c.links
    row = links.get(direction) if links is not None else None
    return c.board.step(c.pos, direction, c.player) if row is None else row[c.pos]


def _step(i: Step, c: Cursor, out: list) -> None:
    if c.pos == OFF:
        raise Fail
    links = c.links
    if links is None:
        nxt = c.board.step(c.pos, i.direction, c.player)
    else:
        row = links.get(i.direction)
        nxt = c.board.step(c.pos, i.direction, c.player) if row is None else row[c.pos]
    if nxt < 0 and not i.may_leave:
        raise Fail
    c.pos = nxt if nxt >= 0 else OFF


def _verify(i: Verify, c: Cursor, out: list) -> None:
    if not test(i.test, c):
        raise Fail


def _if(i: If, c: Cursor, out: list) -> None:
    run_all(i.then if test(i.test, c) else i.else_, c, out)


def _while(i: While, c: Cursor, out: list) -> None:
    for _ in range(LOOP_LIMIT):
        if not test(i.test, c):
            return
        run_all(i.body, c, out)
    raise BoardError("move template loops forever (While never ends)")


def _every_cell(i: EveryCell, c: Cursor, out: list) -> None:
    # The run's state, restored in place after each cell: the caller holds this cursor.
    pos, hand, hand_from, mark, to = c.pos, c.hand, c.hand_from, c.mark, c.to
    actions, flags = list(c.actions), dict(c.flags)
    position_flags = c.position_flags
    attributes = c.attributes
    changes = c.changes

    def restore() -> None:
        c.pos, c.hand, c.hand_from, c.mark, c.to = pos, hand, hand_from, mark, to
        c.actions[:] = actions
        c.flags.clear()
        c.flags.update(flags)
        c.position_flags = None if position_flags is None else dict(position_flags)
        c.attributes = None if attributes is None else \
            {cell: dict(values) for cell, values in attributes.items()}
        c.changes = None if changes is None else list(changes)

    for cell in range(c.board.size):
        restore()
        c.pos = cell
        try:  # noqa: SIM105 - as in Template.generate's loop
            run_all(i.body, c, out)
        except Fail:
            pass
    restore()


def _add(i: Add, c: Cursor, out: list) -> None:
    state = c.state
    store = state.reserves if i.promote and state.game.ruleset.recycle_promotions else None
    move = emit(state.cells, c.pos, c.hand, c.hand_from, c.actions, c.attributes,
                c.reserve, i.promote, i.partial, i.copy, changes=c.changes,
                store=store)
    if move is not None:  # a promotion the reserve cannot supply is no move
        out.append(move)


def emit(cells: Sequence[Piece | None], pos: int, hand: Piece | None, hand_from: int | None,
         queued: Sequence[Action], attributes: dict[int, dict[str, bool]] | None,
         reserve: bool, promote: str | None = None, partial: str | None = None,
         copy: bool = False, changes: Sequence[tuple[int, str, Any]] | None = None,
         store: Mapping[Piece, int] | None = None) -> tuple[Action, ...] | Partial | None:
    """The move an :class:`Add` emits: the actions ``queued`` in the run, then the piece
    in hand (from ``hand_from``, or the reserve when None) going to ``pos``; then the
    ``changes`` of type (``(cell, "kind", kind)``) and owner (``(cell, "owner", player)``,
    or ``(cell, "flip", players)``: the next player) and the ``attributes`` the run
    asked for, given to the pieces standing on their cells once the pieces have moved.

    ``store``, the reserves when the game recycles promotions (ZRF ``recycle
    promotions``): a piece of the board promoted to ``promote`` is one of that type
    taken from its owner's reserve, and there is no move (None) when it holds none.
    """
    actions = list(queued)
    if hand is not None:
        if pos == OFF:
            if hand_from is not None and not copy:
                actions.append(Capture(hand_from))
        else:
            occupant = cells[pos]
            # One pass over the queued actions (most moves queue none): a piece leaves
            # the target, or a capture is queued on it.
            vacated = doomed = False
            for a in actions:
                kind = type(a)
                if kind is Shift:
                    if a[0] == pos:
                        vacated = True
                elif kind is Capture and a[0] == pos:
                    doomed = True
            if occupant is not None and not vacated and pos != hand_from and not doomed:
                actions.append(Capture(pos))
            piece = hand if promote is None else Piece(hand.owner, promote, hand.attributes)
            if doomed and pos != hand_from:
                # The capture comes after the move: it takes the arriving piece.
                if hand_from is not None and not copy:
                    actions.append(Capture(hand_from))
            elif (hand_from is None or copy) and not (
                    hand_from is None and reserve and piece != hand):
                actions.append(Place(pos, piece, from_reserve=hand_from is None and reserve))
            else:
                if hand_from is None:
                    # The reserve gives the piece in hand, which is then promoted on
                    # its cell (a promoted piece placed from the reserve would take one
                    # of its own type from there, which may hold none).
                    actions.append(Place(pos, hand, from_reserve=True))
                elif pos != hand_from:
                    actions.append(Shift(hand_from, pos))
                if piece != hand:
                    if store is None:
                        actions.append(Change(pos, piece))
                    elif in_hand(store, piece.owner, piece.kind) is None:
                        return None
                    else:
                        actions.append(Change(pos, piece, True))
    if changes:
        _change_pieces(cells, changes, actions)
    if attributes:
        _set_attributes(cells, attributes, actions)
    if partial is None:
        return tuple(actions)
    return Partial(tuple(actions), partial, pos)


def _change_pieces(cells: Sequence[Piece | None], changes: Sequence[tuple[int, str, Any]],
                   actions: list[Action]) -> None:
    """Give the pieces standing on the cells of ``changes`` after ``actions`` their new
    type or owner, one change after another (nothing where no piece stands then)."""
    for cell, what, value in changes:
        piece = _final_piece(cells, actions, cell)
        if piece is None:
            continue
        if what == "kind":
            changed = Piece(piece.owner, value, piece.attributes)
        elif what == "owner":
            changed = Piece(value, piece.kind, piece.attributes)
        else:
            changed = Piece((piece.owner + 1) % value, piece.kind, piece.attributes)
        _change(actions, cell, piece, changed)


def _set_attributes(cells: Sequence[Piece | None], attributes: dict[int, dict[str, bool]],
                    actions: list[Action]) -> None:
    """Give the pieces standing on the cells of ``attributes`` after ``actions`` their
    new attribute values (a Change of the piece there, replacing an earlier one)."""
    for cell, values in attributes.items():
        piece = _final_piece(cells, actions, cell)
        if piece is None:
            continue
        _change(actions, cell, piece, piece.with_attributes(values))


def _change(actions: list[Action], cell: int, piece: Piece, changed: Piece) -> None:
    """Make ``changed`` the piece on ``cell`` after ``actions`` (where ``piece`` would
    stand): a Change replacing any earlier one of the cell. A promotion that took its
    piece from the reserve stays taken: the new Change takes it instead when it keeps
    the piece's owner and type, else the promotion's Change stays before it."""
    if changed == piece:
        return
    taken = False
    for i in range(len(actions) - 1, -1, -1):
        a = actions[i]
        if isinstance(a, Change) and a.cell == cell:
            if a.from_reserve:
                if a.piece.owner != changed.owner or a.piece.kind != changed.kind:
                    continue
                taken = True
            del actions[i]
    actions.append(Change(cell, changed, taken))


def _final_piece(cells: Sequence[Piece | None], actions: Sequence[Action],
                 cell: int) -> Piece | None:
    """The piece on ``cell`` once ``actions`` are applied (simultaneously)."""
    piece = cells[cell]
    for a in actions:
        if isinstance(a, Capture) and a.cell == cell:
            piece = None
    for a in actions:
        if isinstance(a, Shift) and a.source == cell and piece is cells[cell]:
            piece = None
    for a in actions:
        if isinstance(a, Shift) and a.target == cell:
            piece = cells[a.source]
        elif isinstance(a, Place) and a.cell == cell:
            piece = a.piece
    for a in actions:
        if isinstance(a, Change) and a.cell == cell:
            piece = a.piece
    return piece


def _capture_here(i: CaptureHere, c: Cursor, out: list) -> None:
    if c.pos != OFF and c.state.cells[c.pos] is not None \
            and (taken := Capture(c.pos)) not in c.actions:
        c.actions.append(taken)


def _to(i: To, c: Cursor, out: list) -> None:
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
    c.to = c.pos


def _from(i: From, c: Cursor, out: list) -> None:
    piece = c.piece()
    c.hand = piece
    c.hand_from = c.pos if piece is not None else None


def _cascade(i: Cascade, c: Cursor, out: list) -> None:
    picked = c.piece()
    here = c.pos
    _to(_TO, c, out)
    c.hand = picked
    c.hand_from = here if picked is not None else None
    c.to = None  # a new leg starts, its destination not set yet


def _discard_cascades(i: DiscardCascades, c: Cursor, out: list) -> None:
    c.actions[:] = [a for a in c.actions
                    if not (type(a) is Shift or (type(a) is Place and a.from_reserve))]


def _mark(i: Mark, c: Cursor, out: list) -> None:
    c.mark = c.pos


def _back(i: Back, c: Cursor, out: list) -> None:
    if c.mark is None:
        if c.start == OFF:
            raise BoardError("back without mark")
        c.pos = c.start  # ZRF: back without a mark returns to the move's start
    else:
        c.pos = c.mark


def _set_flag(i: SetFlag, c: Cursor, out: list) -> None:
    value = i.value
    c.flags[i.name] = value if isinstance(value, bool) else bool(test(value, c))


def _set_position_flag(i: SetPositionFlag, c: Cursor, out: list) -> None:
    where = _target(c, i.cell, i.direction)
    if c.position_flags is None:
        c.position_flags = {}
    value = i.value
    c.position_flags[(i.name, where)] = value if isinstance(value, bool) \
        else bool(test(value, c))


def _set_attribute(i: SetAttribute, c: Cursor, out: list) -> None:
    if c.pos == OFF:
        raise Fail
    if c.attributes is None:
        c.attributes = {}
    value = i.value
    c.attributes.setdefault(c.pos, {})[i.name] = value if isinstance(value, bool) \
        else bool(test(value, c))


def _go_to(i: GoTo, c: Cursor, out: list) -> None:
    c.pos = i.cell


def _go(i: Go, c: Cursor, out: list) -> None:
    if i.where == "from":
        cell = c.start
    elif i.where == "to":
        cell = c.pos if c.to is None else c.to
    elif i.where == "last-from":
        cell = c.state.last_from
    elif i.where == "last-to":
        cell = c.state.last_to
    else:
        cell = c.start if c.mark is None else c.mark
    if cell is None or cell < 0:
        raise Fail
    c.pos = cell


def _mark_at(i: MarkAt, c: Cursor, out: list) -> None:
    if i.cell is not None:
        c.mark = i.cell
        return
    if c.pos == OFF or i.direction is None:
        raise Fail
    nxt = _neighbour(c, i.direction)
    if nxt < 0:
        raise Fail
    c.mark = nxt


def _target(c: Cursor, cell: int | None, direction: str | None) -> int:
    """The cell an instruction with an optional ``cell`` or ``direction`` acts on."""
    if cell is not None:
        return cell
    if c.pos == OFF:
        raise Fail
    if direction is None:
        return c.pos
    nxt = _neighbour(c, direction)
    if nxt < 0:
        raise Fail
    return nxt


def _capture_at(i: CaptureAt, c: Cursor, out: list) -> None:
    where = _target(c, i.cell, i.direction)
    if c.state.cells[where] is not None and (taken := Capture(where)) not in c.actions:
        c.actions.append(taken)


def _set_var(i: SetVar, c: Cursor, out: list) -> None:
    c.flags[i.name] = i.value


def _inc(i: Inc, c: Cursor, out: list) -> None:
    c.flags[i.name] = c.flags.get(i.name, 0) + i.by


def _create(i: Create, c: Cursor, out: list) -> None:
    where = _target(c, i.cell, i.direction)
    owner = c.player if i.owner is None else i.owner
    if i.kind is None:
        # No type named: a new piece of the moving piece's type.
        if c.hand is None:
            raise Fail
        kind = c.hand.kind
        piece = Piece(owner, kind, c.state.game.ruleset.attribute_defaults(kind))
    else:
        piece = Piece(owner, i.kind, i.attributes)
    if c.state.cells[where] is not None or _arrives(c.actions, where):
        c.actions.append(Change(where, piece))
    else:
        c.actions.append(Place(where, piece))


def _arrives(actions: list[Action], cell: int) -> bool:
    return any(isinstance(a, Shift) and a.target == cell for a in actions)


def _change_type(i: ChangeType, c: Cursor, out: list) -> None:
    _ask_change(c, _target(c, i.cell, i.direction), "kind", i.kind)


def _ask_change(c: Cursor, cell: int, what: str, value: Any) -> None:
    if c.changes is None:
        c.changes = []
    c.changes.append((cell, what, value))


def _change_owner(i: ChangeOwner, c: Cursor, out: list) -> None:
    where = _target(c, i.cell, i.direction)
    if i.flip:
        _ask_change(c, where, "flip", c.state.game.num_players)
    else:
        _ask_change(c, where, "owner", c.player)




def _native(p: Native, c: Cursor) -> bool:
    return p.function(c)


#: The interpreter's case for each test type.
TESTS: dict[type, Callable[[Any, Cursor], Any]] = {
    Empty: _empty, Friend: _friend, Enemy: _enemy, OnBoard: _on_board, Neutral: _neutral,
    LastFrom: _last_from, LastTo: _last_to, Marked: _marked, Always: _always,
    Never: _never, AdjacentToEnemy: _adjacent_to_enemy, AtCell: _at_cell,
    AtStep: _at_step, PositionIs: _position_is, InCells: _in_cells,
    OnBoardStep: _on_board_step, Attribute: _attribute, PositionFlag: _position_flag,
    Not: _not, AllOf: _all_of, AnyOf: _any_of, PieceIs: _piece_is, InZone: _in_zone,
    Flag: _flag, Var: _var, Less: _less, Attacked: _attacked, Native: _native,
    PieceCount: _piece_count, Connected: _connected,
}

#: The interpreter's case for each instruction type.
RUN: dict[type, Callable[[Any, Cursor, list], None]] = {
    Step: _step, Verify: _verify, If: _if, While: _while, EveryCell: _every_cell, Add: _add,
    CaptureHere: _capture_here, To: _to, From: _from, Cascade: _cascade,
    DiscardCascades: _discard_cascades, Mark: _mark, Back: _back, SetFlag: _set_flag,
    SetPositionFlag: _set_position_flag, SetAttribute: _set_attribute, GoTo: _go_to,
    Go: _go, MarkAt: _mark_at, CaptureAt: _capture_at, SetVar: _set_var, Inc: _inc,
    Create: _create, ChangeType: _change_type, ChangeOwner: _change_owner,
}


def test(p: Test, c: Cursor) -> Any:
    """What test ``p`` answers at the cursor (a counter's value for a :class:`Var`)."""
    try:
        case = TESTS[type(p)]
    except KeyError:
        raise TypeError(f"not a test of the move language: {p!r} (a Python function "
                        "must be wrapped in ir.Native with its reason)") from None
    return case(p, c)


def run(i: Instruction, c: Cursor, out: list) -> None:
    """Run one instruction: change the cursor, emit moves into ``out`` or raise
    :class:`Fail`."""
    try:
        case = RUN[type(i)]
    except KeyError:
        raise TypeError(f"not an instruction of the move language: {i!r}") from None
    case(i, c, out)


def run_all(program: Sequence[Instruction], c: Cursor, out: list[tuple[Action, ...]]) -> None:
    """Run instructions in order (a :class:`Fail` propagates)."""
    for instruction in program:
        RUN[type(instruction)](instruction, c, out)
