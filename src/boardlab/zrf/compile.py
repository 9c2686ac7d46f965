"""ZRF move blocks and goals, compiled onto the move language of :mod:`boardlab.core.rules`.

Each instruction of a block becomes one instruction of the language (a direction is a
:class:`~boardlab.core.ir.Step`, ``(verify C)`` a :class:`~boardlab.core.ir.Verify`,
``add`` an :class:`~boardlab.core.ir.Add`, ...), each condition a predicate, each
goal a :mod:`boardlab.core.goals` goal; a name is resolved against what the game
declares (directions, positions, zones, pieces, players, attributes, move types), so a
typo is an error naming its place, not a move that silently never happens. Semantics
and sources: ``docs/zrf-notes/semantics.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from boardlab.core import goals as g
from boardlab.core import rules as r
from boardlab.zrf.model import GameSpec
from boardlab.zrf.reader import Atom, Node, SList

#: Conditions written as a bare symbol.
_BARE = {
    "empty?": r.EMPTY, "friend?": r.FRIEND, "enemy?": r.ENEMY, "neutral?": r.NEUTRAL,
    "last-from?": r.LAST_FROM, "last-to?": r.LAST_TO, "marked?": r.MARKED,
    "true": r.ALWAYS, "false": r.NEVER, "adjacent-to-enemy?": r.adjacent_to_enemy,
}
#: Conditions that may take a cell or a direction: (empty? n), (friend? a1).
_AT = {"empty?": r.EMPTY, "friend?": r.FRIEND, "enemy?": r.ENEMY, "neutral?": r.NEUTRAL,
       "last-from?": r.LAST_FROM, "last-to?": r.LAST_TO, "marked?": r.MARKED,
       "adjacent-to-enemy?": r.adjacent_to_enemy}


@dataclass
class Context:
    """What names mean while compiling one game."""

    spec: GameSpec
    move_types: set[str]
    flags: set[str] = field(default_factory=set)
    goal_cells: frozenset[int] = frozenset()
    #: id of a node -> what it compiled to: an expanded file shares the nodes of a
    #: macro called again with the same arguments, and each is compiled once.
    memo: dict[int, tuple[Node, object]] = field(default_factory=dict)

    def remembered(self, node: Node) -> object | None:
        """What ``node`` compiled to before, if it did."""
        found = self.memo.get(id(node))
        return found[1] if found is not None and found[0] is node else None

    def remember(self, node: Node, value: object) -> None:
        """Keep what ``node`` compiled to."""
        self.memo[id(node)] = (node, value)

    @property
    def board(self):  # noqa: ANN201 - a Board
        """The game's board."""
        return self.spec.board

    def kind(self, node: Node) -> str:
        name = _atom(node, "a piece name")
        if name not in self.spec.pieces:
            raise node.where.error(f"no piece {name!r} (pieces: {', '.join(self.spec.pieces)})")
        return name

    def direction(self, node: Node) -> str:
        name = _atom(node, "a direction")
        if name not in self.board.directions:
            raise node.where.error(f"no direction {name!r} (directions: "
                                   f"{', '.join(self.board.directions)})")
        return name

    def cell(self, node: Node) -> int:
        name = _atom(node, "a position")
        if name not in self.spec.cells:
            raise node.where.error(f"no position {name!r} on the board")
        return self.spec.cells[name]

    def zone(self, node: Node) -> str:
        name = _atom(node, "a zone")
        if name not in self.board.zones:
            raise node.where.error(f"no zone {name!r} (zones: {', '.join(self.board.zones)})")
        return name

    def place(self, node: Node) -> tuple[int | None, str | None]:
        """A cell or a direction argument: ``(cell, None)`` or ``(None, direction)``."""
        name = _atom(node, "a position or direction")
        if name in self.board.directions:
            return None, name
        if name in self.spec.cells:
            return self.spec.cells[name], None
        raise node.where.error(f"no position or direction {name!r}")

    def is_attribute(self, name: str) -> bool:
        return any(name in p.attributes for p in self.spec.pieces.values())


def _atom(node: Node, what: str) -> str:
    if not isinstance(node, Atom):
        raise node.where.error(f"expected {what}, found a list")
    return node.text


# --- instructions -----------------------------------------------------------------------
def block(program: SList, ctx: Context) -> tuple[r.Instruction, ...]:
    """The instructions of a move block."""
    return tuple(_instructions(program.items, ctx))


def _instructions(nodes: Sequence[Node], ctx: Context) -> list[r.Instruction]:
    out: list[r.Instruction] = []
    for node in nodes:
        out.extend(_instruction(node, ctx))
    return out


def _instruction(node: Node, ctx: Context) -> list[r.Instruction]:
    out = _one(node, ctx)
    if out and isinstance(out[-1], r.Add) and ctx.spec.option("discard cascades") == "true":
        # The option: the legs cascade saved belong to this add's move only. (A new
        # list: what a node compiled to is shared by every use of the node.)
        return [*out, r.DiscardCascades()]
    return out


def _one(node: Node, ctx: Context) -> list[r.Instruction]:
    if isinstance(node, Atom):
        return [_bare(node, ctx)]
    found = ctx.remembered(node)
    if found is None:
        found = _list_instruction(node, ctx)
        ctx.remember(node, found)
    return found  # type: ignore[return-value]


def _list_instruction(node: SList, ctx: Context) -> list[r.Instruction]:
    head = node.head
    if head is None:
        # A parenthesised sequence of instructions.
        return _instructions(node.items, ctx)
    args = node.rest
    if head == "verify":
        _arity(node, 1)
        return [r.Verify(condition(args[0], ctx))]
    if head == "if":
        if not args:
            raise node.where.error("expected (if CONDITION INSTRUCTION ... [else ...])")
        then, otherwise = _split_else(args[1:])
        return [r.If(condition(args[0], ctx), tuple(_instructions(then, ctx)),
                     tuple(_instructions(otherwise, ctx)))]
    if head == "while":
        if not args:
            raise node.where.error("expected (while CONDITION INSTRUCTION ...)")
        return [r.While(condition(args[0], ctx), tuple(_instructions(args[1:], ctx)))]
    if head in ("add", "add-copy"):
        kinds = [ctx.kind(a) for a in args]
        copy = head == "add-copy"
        return [r.Add(promote=k, copy=copy) for k in kinds] or [r.Add(copy=copy)]
    if head in ("add-partial", "add-copy-partial"):
        # (add-partial [PIECE ...] [MOVE-TYPE]): one argument is the move type to go on
        # with (a type no block has is legal: the chain then ends after this step);
        # before it, promotion types; with none, any move of the piece goes on.
        move_type = _atom(args[-1], "a move type") if args else ""
        kinds = [ctx.kind(a) for a in args[:-1]]
        copy = head == "add-copy-partial"
        return [r.Add(promote=k, partial=move_type, copy=copy) for k in kinds] or \
            [r.Add(partial=move_type, copy=copy)]
    if head == "capture":
        _arity(node, 1)
        cell, direction = ctx.place(args[0])
        return [r.CaptureAt(cell, direction)]
    if head == "mark":
        _arity(node, 1)
        cell, direction = ctx.place(args[0])
        return [r.MarkAt(cell, direction)]
    if head == "go":
        _arity(node, 1)
        where = _atom(args[0], "from, to, last-from, last-to or mark")
        if where not in ("from", "to", "last-from", "last-to", "mark"):
            raise args[0].where.error(f"go where? {where!r} (from, to, last-from, last-to "
                                      "or mark)")
        return [r.Go(where)]
    if head == "opposite":
        _arity(node, 1)
        d = ctx.direction(args[0])
        if d not in ctx.board.opposite:
            raise args[0].where.error(f"direction {d!r} has no opposite on this board")
        return [r.Step(ctx.board.opposite[d])]
    if head == "create":
        return [_create(node, ctx)]
    if head == "change-type":
        if len(args) not in (1, 2):
            raise node.where.error("expected (change-type PIECE [POSITION])")
        cell, direction = ctx.place(args[1]) if len(args) == 2 else (None, None)
        return [r.ChangeType(ctx.kind(args[0]), cell, direction)]
    if head in ("change-owner", "flip"):
        if len(args) > 1:
            raise node.where.error(f"expected ({head} [POSITION])")
        cell, direction = ctx.place(args[0]) if args else (None, None)
        return [r.ChangeOwner(cell, direction, flip=head == "flip")]
    if head == "set-position-flag":
        # (set-position-flag NAME VALUE [POSITION-OR-DIRECTION])
        if len(args) not in (2, 3):
            raise node.where.error("expected (set-position-flag NAME VALUE [POSITION])")
        cell, direction = ctx.place(args[2]) if len(args) == 3 else (None, None)
        return [r.SetPositionFlag(_atom(args[0], "a name"), _value(args[1], ctx), cell,
                                  direction)]
    if head in ("set-flag", "set-attribute"):
        _arity(node, 2)
        name = _atom(args[0], "a name")
        value = _value(args[1], ctx)
        if head == "set-flag":
            ctx.flags.add(name)
            return [r.SetFlag(name, value)]
        if not ctx.is_attribute(name):
            raise args[0].where.error(f"no attribute {name!r} declared by a piece")
        return [r.SetAttribute(name, value)]
    raise node.where.error(f"unsupported ZRF instruction {head!r}")


def _bare(node: Atom, ctx: Context) -> r.Instruction:
    name = node.text
    simple: dict[str, Callable[[], r.Instruction]] = {
        "add": r.Add, "capture": r.CaptureHere, "cascade": r.Cascade, "from": r.From,
        "to": r.To, "mark": r.Mark, "back": r.Back, "add-copy": lambda: r.Add(copy=True),
        "change-owner": r.ChangeOwner, "flip": lambda: r.ChangeOwner(flip=True),
    }
    if name in simple:
        return simple[name]()
    if name in ctx.board.directions:
        return r.Step(name)
    if name in ctx.spec.cells:
        return r.GoTo(ctx.spec.cells[name])
    if name in ("add-partial", "add-copy-partial"):
        return r.Add(partial="", copy=name == "add-copy-partial")
    raise node.where.error(f"unsupported ZRF instruction {name!r} (not a command, "
                           "direction or position)")


def _split_else(items: Sequence[Node]) -> tuple[list[Node], list[Node]]:
    for i, item in enumerate(items):
        if isinstance(item, Atom) and item.text == "else":
            return list(items[:i]), list(items[i + 1:])
    return list(items), []


def _arity(node: SList, n: int) -> None:
    if len(node.rest) != n:
        raise node.where.error(f"({node.head} ...) takes {n} argument{'s' if n > 1 else ''}, "
                               f"got {len(node.rest)}")


def _create(node: SList, ctx: Context) -> r.Instruction:
    owner: int | None = None
    kind: str | None = None
    cell: int | None = None
    direction: str | None = None
    for arg in node.rest:
        name = _atom(arg, "a player, piece, position or direction")
        if name in ctx.spec.players and owner is None and kind is None:
            owner = ctx.spec.players.index(name)
        elif name in ctx.spec.pieces and kind is None:
            kind = name
        elif cell is None and direction is None:
            cell, direction = ctx.place(arg)
        else:
            raise arg.where.error(f"unexpected {name!r} in (create [PLAYER] PIECE [POSITION])")
    if kind is None:
        # No type: a piece of the moving piece's type (read when the move is made).
        return r.Create(None, owner, cell, direction)
    defaults = frozenset(a for a, v in ctx.spec.pieces[kind].attributes.items() if v == "true")
    return r.Create(kind, owner, cell, direction, defaults)


def _value(node: Node, ctx: Context) -> bool | r.Predicate:
    if isinstance(node, Atom) and node.text in ("true", "false"):
        return node.text == "true"
    return condition(node, ctx)


# --- conditions -------------------------------------------------------------------------
def condition(node: Node, ctx: Context) -> r.Predicate:
    """The predicate of a ZRF condition."""
    if isinstance(node, Atom):
        name = node.text
        if name in _BARE:
            return _BARE[name]
        if ctx.is_attribute(name):
            # An attribute may itself be named not-...: it is read as written.
            return r.attribute(name)
        if name.startswith("not-") and name[4:] in _BARE:
            return r.not_(_BARE[name[4:]])
        if name in ("attacked?", "defended?", "not-attacked?", "not-defended?"):
            test = r.attacked() if "attacked" in name else r.defended()
            return r.not_(test) if name.startswith("not-") else test
        if name in ("goal-position?", "not-goal-position?"):
            cells = ctx.goal_cells
            test = r.in_cells(cells)
            return r.not_(test) if name.startswith("not-") else test
        attribute = name.removeprefix("not-")
        if ctx.is_attribute(attribute):
            test = r.attribute(attribute)
            return r.not_(test) if name.startswith("not-") else test
        raise node.where.error(f"unsupported ZRF condition {name!r}")
    found = ctx.remembered(node)
    if found is None:
        found = _list_condition(node, ctx)
        ctx.remember(node, found)
    return found  # type: ignore[return-value]


def _list_condition(node: SList, ctx: Context) -> r.Predicate:
    head = node.head
    args = node.rest
    if head is None:
        raise node.where.error("expected a condition, found a list without a keyword")
    negate = False
    if head.startswith("not-") and head != "not" and not ctx.is_attribute(head):
        negate, head = True, head[4:]
    test = _condition_form(node, head, args, ctx)
    return r.not_(test) if negate else test


def _condition_form(node: SList, head: str, args: Sequence[Node],
                    ctx: Context) -> r.Predicate:
    if head == "not":
        _arity(node, 1)
        return r.not_(condition(args[0], ctx))
    if head in ("and", "or"):
        parts = [condition(a, ctx) for a in args]
        return r.all_of(*parts) if head == "and" else r.any_of(*parts)
    if head in _AT:
        if len(args) > 1:
            raise node.where.error(f"({head} [POSITION-OR-DIRECTION]) takes one argument")
        return _at(_AT[head], args[0], ctx) if args else _AT[head]
    if head == "piece?":
        if len(args) not in (1, 2):
            raise node.where.error("expected (piece? PIECE [POSITION])")
        test = r.piece_is(ctx.kind(args[0]))
        return _at(test, args[1], ctx) if len(args) == 2 else test
    if head == "in-zone?":
        if len(args) not in (1, 2):
            raise node.where.error("expected (in-zone? ZONE [POSITION])")
        test = r.in_zone(ctx.zone(args[0]))
        return _at(test, args[1], ctx) if len(args) == 2 else test
    if head == "on-board?":
        _arity(node, 1)
        name = _atom(args[0], "a position or direction")
        if name in ctx.spec.killed and name not in ctx.board.directions:
            # kill-positions took it off the board: a position, but not on the board.
            return r.NEVER
        cell, direction = ctx.place(args[0])
        if direction is not None:
            return r.on_board_step(direction)
        return r.ALWAYS
    if head == "position?":
        _arity(node, 1)
        return r.position_is(ctx.cell(args[0]))
    if head == "flag?":
        _arity(node, 1)
        return r.flag(_atom(args[0], "a flag"))
    if head == "position-flag?":
        if len(args) not in (1, 2):
            raise node.where.error("expected (position-flag? FLAG [POSITION])")
        test = r.position_flag(_atom(args[0], "a flag"))
        return _at(test, args[1], ctx) if len(args) == 2 else test
    if head in ("attacked?", "defended?"):
        if len(args) > 1:
            raise node.where.error(f"expected ({head} [MOVE-TYPE])")
        move_type = _atom(args[0], "a move type") if args else None
        return r.attacked(move_type) if head == "attacked?" else r.defended(move_type)
    if ctx.is_attribute(head):
        _arity(node, 1)
        return _at(r.attribute(head), args[0], ctx)
    raise node.where.error(f"unsupported ZRF condition {head!r}")


def _at(test: r.Predicate, node: Node, ctx: Context) -> r.Predicate:
    cell, direction = ctx.place(node)
    return r.at_cell(test, cell) if cell is not None else r.at_step(test, direction)


# --- goals ------------------------------------------------------------------------------
def goal(node: Node, ctx: Context, include_off: bool) -> g.Goal:
    """The :mod:`boardlab.core.goals` goal of a ZRF goal form."""
    if isinstance(node, Atom):
        if node.text == "stalemated":
            return g.Stalemated()
        if node.text == "repetition":
            return g.Repetition()
        raise node.where.error(f"unsupported ZRF goal {node.text!r}")
    head, args = node.head, node.rest
    if head in ("and", "or"):
        parts = tuple(goal(a, ctx, include_off) for a in args)
        return g.AllOf(parts) if head == "and" else g.AnyOf(parts)
    if head == "not":
        _arity(node, 1)
        return g.NotGoal(goal(args[0], ctx, include_off))
    if head == "checkmated":
        return g.Checkmated(tuple(ctx.kind(a) for a in args))
    if head == "captured":
        return g.Captured(tuple(ctx.kind(a) for a in args))
    if head in ("pieces-remaining", "total-piece-count"):
        if len(args) not in (1, 2):
            raise node.where.error(f"expected ({head} COUNT [PIECE])")
        count = _count(args[0])
        kind = ctx.kind(args[1]) if len(args) == 2 else None
        if head == "total-piece-count":
            return g.TotalPieceCount(count, kind)
        return g.PiecesRemaining(count, kind, include_off)
    if head == "absolute-config":
        if len(args) < 2 or not isinstance(args[-1], SList):
            raise node.where.error("expected (absolute-config PIECE ... (POSITION-OR-ZONE ...))")
        pieces = tuple(_occupant(a, ctx) for a in args[:-1])
        fixed: set[int] = set()
        zones: list[str] = []
        for item in args[-1]:
            name = _atom(item, "a position or zone")
            if name in ctx.spec.cells:
                fixed.add(ctx.spec.cells[name])
            elif name in ctx.board.zones:
                zones.append(name)
            else:
                raise item.where.error(f"no position or zone {name!r}")
        board = ctx.board
        frozen = frozenset(fixed)

        def cells(player: int, zones: tuple[str, ...] = tuple(zones)) -> frozenset[int]:
            out = frozen
            for z in zones:
                out = out | board.zones[z].get(player, frozenset())
            return out

        ctx.goal_cells = ctx.goal_cells | frozen | frozenset(
            c for z in zones for cs in board.zones[z].values() for c in cs)
        return g.AbsoluteConfig(pieces, cells)
    if head == "relative-config":
        if len(args) % 2 == 0:
            raise node.where.error("expected (relative-config PIECE DIRECTION PIECE ...)")
        pattern: list[tuple[str, str] | str] = []
        for i, item in enumerate(args):
            if i % 2:
                pattern.append(ctx.direction(item))
            elif isinstance(item, Atom) and item.text == "empty":
                pattern.append(("any", "empty"))
            else:
                pattern.append(_occupant(item, ctx))
        return g.RelativeConfig(tuple(pattern))
    raise node.where.error(f"unsupported ZRF goal {head!r}")


def _occupant(node: Node, ctx: Context) -> tuple[str, str]:
    if isinstance(node, SList) and node.head in ("opponent", "any-owner") and len(node) == 2:
        return ("opponent" if node.head == "opponent" else "any", ctx.kind(node[1]))
    return ("self", ctx.kind(node))


def _count(node: Node) -> int:
    text = _atom(node, "a count")
    if not text.isdigit():
        raise node.where.error(f"expected a count (a whole number), found {text!r}")
    return int(text)
