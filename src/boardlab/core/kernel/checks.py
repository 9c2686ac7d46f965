"""Which games get a kernel: the checks that a game's rules, goals and turns are ones
the kernel's writer writes exactly (:class:`~boardlab.core.kernel.layout.Unsupported`
names the first that is not; :func:`~boardlab.core.kernel.plan.why_not` reports it)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from boardlab.core import goals as g
from boardlab.core import ir
from boardlab.core import rules as r
from boardlab.core.position import PieceGame

if TYPE_CHECKING:
    pass

from boardlab.core.kernel.layout import _CELL_BITS, Unsupported


def _check(game: PieceGame) -> tuple[g.Goals, tuple[r.Template, ...]]:
    if not isinstance(game, PieceGame):
        raise Unsupported("not a game of the move language")
    if "kernel_fields" not in game.state_class.__dict__:
        raise Unsupported("the game's positions are a class that does not take kernels")
    goals = game.ruleset.goals
    if goals is None:
        raise Unsupported("the game's end is not written as goals")
    if game.ruleset.recycle_captures and game.move_rules.deferred_captures:
        raise Unsupported("recycled captures deferred to a chain's end")
    if game.ruleset.turn_order is None and type(game).next_player is not PieceGame.next_player:
        raise Unsupported("a turn order it does not give")
    if not game.defers_notation:
        raise Unsupported("a notation that reads the position")
    rules = game.move_rules
    if type(rules).generate is not r.Rules.generate:
        raise Unsupported("moves generated in Python, not by templates")
    if rules.invariant_guard is not None or any(
            type(inv) not in (r.StaysConnected, r.NotMirrored) for inv in rules.invariants) \
            or (rules.select is not None and not isinstance(rules.select, r.MaximalCaptures)):
        raise Unsupported("invariants or move filters")
    up = rules.follow_up
    if up is not None:
        if game.ruleset.turn_order is not None or rules.turns is not None:
            raise Unsupported("a follow-up move in a turn order")
        if up.test is not None:
            # Read on the position after a move, where no run stands.
            _check_predicate(up.test, game, run=False)
        for d in up.along:
            _check_direction(game, d)
    board = game.board
    _check_whole_moves(game, rules)
    if board.size >= (1 << _CELL_BITS) - 1 or len(rules.templates) > 4000 \
            or game.num_players > 8:
        raise Unsupported("too large a board or rule set")
    templates = tuple(rules.templates)
    for t in templates:
        if type(t) is r.Group:
            _check_group(t, game)
            continue
        if type(t) is r.Drop:
            if t.zone is not None and t.zone not in board.zones:
                raise Unsupported(f"zone {t.zone!r} is not on the board")
            if any(isinstance(i, r.To | r.Cascade | r.From)
                   for i in r.instructions(t.program)):
                raise Unsupported(f"drop template {t.name!r} moves a piece in hand")
        elif type(t) is r.Line:
            _check_line(t, game)
        elif type(t) is r.Footprint:
            _check_footprint(t, game)
            continue
        elif type(t) is not r.Template:
            raise Unsupported(f"template {t.name!r} is a {type(t).__name__}")
        _check_program(t.program, game)
    _check_leaving(game, templates)
    for c in goals.conditions:
        _check_goal(c.goal, game)
    return goals, templates


def _check_whole_moves(game: Any, rules: r.Rules) -> None:
    """Refuse the rules of whole moves (invariants, what a capture cuts off, turns of
    two plies) the kernel does not play as they are given."""
    board, players = game.board, game.num_players
    for inv in rules.invariants:
        if isinstance(inv, r.StaysConnected):
            _check_board_directions(game, inv.directions)
        elif players != 2 or len(inv.image) != board.size or \
                any(not 0 <= c < board.size for c in inv.image) or (
                    inv.onto is not None and len(inv.onto) != players):
            raise Unsupported("a mirror image of another board or of more players")
    if rules.cut_off is not None:
        if players != 2 or any(t.shared for t in rules.templates):
            raise Unsupported("captures that cut off groups with more players or shared "
                              "pieces")
        _check_board_directions(game, rules.cut_off.directions)
    along = rules.follow_up is not None and bool(rules.follow_up.along)
    if rules.cut_off is not None or along or any(
            isinstance(p, r.Connected) for t in rules.templates for p in _tests(t.program)):
        # What they add runs once the moves are found, or, for a test of the mover's
        # group, once before: not in a chain's steps, nor in the runs an attack makes.
        if any(isinstance(i, r.Add) and i.partial is not None
               for t in rules.templates for i in r.instructions(t.program)):
            raise Unsupported("partial moves with captures that cut off groups, follow-ups "
                              "along directions or tests of the mover's group")
        if rules.protect or any(isinstance(p, r.Attacked) for t in rules.templates
                                for p in _tests(t.program)) or any(
                isinstance(goal, g.Checkmated) for goal in game.ruleset.goals.leaves()):
            raise Unsupported("attacks with captures that cut off groups, follow-ups along "
                              "directions or tests of the mover's group")


def _check_board_directions(game: Any, directions: tuple[str, ...] | None) -> None:
    for d in directions or ():
        if d not in game.board.directions:
            raise Unsupported(f"direction {d!r} is not on the board")


def _check_line(t: r.Line, game: Any) -> None:
    """A line template the kernel plays: its program tests alone, its line and
    direction on the board, of the mover's pieces, starting moves."""
    if not t.top_level or t.shared or t.reads_history or t.min_size < 1 or \
            t.direction is None or any(type(i) is not r.Verify for i in t.program):
        raise Unsupported(f"line template {t.name!r} with more than tests, shared pieces "
                          "or history")
    _check_direction(game, t.line)
    _check_direction(game, t.direction)


def _check_footprint(t: r.Footprint, game: Any) -> None:
    """A footprint template the kernel plays: its shape and directions on the board, a
    zone the board has, starting moves of the mover's pieces, room in the scratch for
    its cells twice and the pieces it covers."""
    if not t.top_level or t.shared or t.reads_history or t.program or t.reach < 0:
        raise Unsupported(f"footprint template {t.name!r} with a program, shared pieces "
                          "or history")
    if t.zone not in game.board.zones:
        raise Unsupported(f"zone {t.zone!r} is not on the board")
    rules = game.move_rules
    if rules.cut_off is not None or rules.protect:
        raise Unsupported(f"footprint template {t.name!r} with captures that cut off "
                          "groups or pieces to protect")
    if len(t.shape) != len(set(t.shape)) or 3 * len(t.shape) > 2 * game.board.size:
        raise Unsupported(f"footprint template {t.name!r} repeats a cell or covers more "
                          "than two thirds of the board")
    for d in (*(o for o in t.shape if o), *t.directions):
        _check_direction(game, d)


def _check_group(t: r.Group, game: Any) -> None:
    """A group template the kernel plays: groups of one to three pieces, each moved by
    a single-piece program of steps and tests ending in one plain ``Add`` (so a piece's
    target is a fixed function of its cell), no filter of the groups."""
    if not t.top_level or t.shared or t.reads_history or t.single is None \
            or t.accept is not None:
        raise Unsupported(f"group template {t.name!r} has a filter, shared pieces or history")
    if not t.sizes or any(k not in (1, 2, 3) for k in t.sizes) or len(t.directions) > 15:
        raise Unsupported(f"group template {t.name!r}: sizes beyond 1-3 or too many directions")
    for d in t.directions:
        program = tuple(t.single(d))
        last = program[-1] if program else None
        if not isinstance(last, r.Add) or last.promote is not None or any(
                not isinstance(i, r.Step | r.Verify) for i in program[:-1]):
            raise Unsupported(f"group template {t.name!r}: a single move that is not "
                              "steps and tests ending in one add")
        _check_program(program, game, run=False)
        if leaves(program):
            raise Unsupported("a step that may leave the board in a group move")
    # Two directions that take a piece to one cell would make equal moves, which the
    # interpreter drops and a kernel would not.
    targets = _group_targets(t, game.board, game.num_players)
    size = game.board.size
    for player in range(game.num_players):
        for cell in range(size):
            seen = [row[player * size + cell] for row in targets
                    if row[player * size + cell] not in (-1, cell)]
            if len(seen) != len(set(seen)):
                raise Unsupported(f"group template {t.name!r}: two directions lead to one "
                                  "cell")


def _group_targets(t: r.Group, board: Any, players: int) -> list[list[int]]:
    """Where each direction's single move takes a piece: by direction, a row of
    cells for each player in turn (-1: off the board)."""
    out = []
    for d in t.directions:
        steps = [i.direction for i in t.single(d) if isinstance(i, r.Step)]
        row = []
        for player in range(players):
            links = board.player_links(player)
            for cell in range(board.size):
                pos = cell
                for step in steps:
                    if pos >= 0:
                        pos = links[step][pos]
                row.append(pos)
        out.append(row)
    return out


#: What a run may do once a step may have left the board (see _Writer.leaving): the
#: cursor off the board is -1, where every test of a cell is false, a step fails, a
#: cascade or a ``to`` puts the piece in hand off the board (taken), an add takes it, a
#: capture takes nothing and a mark marks it (so a run's lack of a mark is -2 there).
_OFF_BOARD_SAFE = (r.Step, r.Verify, r.If, r.While, r.SetVar, r.Inc, r.SetFlag, r.Cascade,
                   r.Add, r.Mark, r.Back, r.CaptureHere, r.To)


def leaves(program: Sequence[r.Instruction]) -> bool:
    """Whether ``program`` has a step that may leave the board (``may_leave``)."""
    return any(isinstance(i, r.Step) and i.may_leave for i in r.instructions(program))


def _check_leaving(game: Any, templates: Sequence[r.Template]) -> None:
    """Refuse a template whose steps may leave the board where its run does what the
    kernel does not do off the board, or where the rules ask which pieces are attacked
    (the templates then run as attacks too)."""
    leaving = [t for t in templates if leaves(t.program)]
    if not leaving:
        return
    if game.move_rules.protect or any(isinstance(p, r.Attacked) for t in templates
                                      for p in _tests(t.program)):
        raise Unsupported("a step that may leave the board where pieces are attacked")
    if any(isinstance(i, r.Add) and i.partial is not None
           for t in templates for i in r.instructions(t.program)):
        raise Unsupported("a step that may leave the board in rules of partial moves")
    for t in leaving:
        for i in r.instructions(t.program):
            if not isinstance(i, _OFF_BOARD_SAFE) or (
                    isinstance(i, r.Add) and (i.partial is not None or i.copy)):
                raise Unsupported(f"{type(i).__name__} in a run that may leave the board")


def _check_program(program: Sequence[r.Instruction], game: Any, run: bool = True) -> None:
    """Refuse what the kernel cannot run in ``program``; ``run`` False: a group's single
    move, which has no run of its own (no start, mark, flags or counters)."""
    for i in program:
        check = _CHECK_INSTRUCTION.get(type(i))
        if check is None:
            raise Unsupported(f"instruction {type(i).__name__}")
        check(i, game, run)
        if not run and not isinstance(i, r.Step | r.Verify | r.If | r.While | r.Add
                                      | r.CaptureHere):
            raise Unsupported(f"instruction {type(i).__name__} in a group's move")


def _check_nothing(node: Any, game: Any, run: bool) -> None:
    """A node the kernel runs wherever it appears."""


def _check_step(i: r.Step, game: Any, run: bool) -> None:
    _check_direction(game, i.direction)


def _check_tested(i: r.Verify, game: Any, run: bool) -> None:
    _check_predicate(i.test, game, run)


def _check_if(i: r.If, game: Any, run: bool) -> None:
    _check_predicate(i.test, game, run)
    _check_program(i.then, game, run)
    _check_program(i.else_, game, run)


def _check_while(i: r.While, game: Any, run: bool) -> None:
    _check_predicate(i.test, game, run)
    _check_program(i.body, game, run)


def _check_every_cell(i: r.EveryCell, game: Any, run: bool) -> None:
    # Each cell's run starts from the run as it stands: what the kernel keeps in locals
    # is restored, the cells' flags and a queue rewritten in place not.
    if any(isinstance(j, r.SetPositionFlag | r.DiscardCascades)
           for j in r.instructions(i.body)):
        raise Unsupported("cells' flags or discarded cascades in every-cell")
    _check_program(i.body, game, run)


def _check_add(i: r.Add, game: Any, run: bool) -> None:
    if i.partial is not None and not run:
        raise Unsupported("a partial move in a group")


def _check_at(i: Any, game: Any, run: bool) -> None:
    """An instruction acting on the cursor's cell, on ``cell`` or one step away."""
    if i.cell is not None and not 0 <= i.cell < game.board.size:
        raise Unsupported(f"{type(i).__name__} at no cell")
    if i.cell is None and i.direction is not None:
        _check_direction(game, i.direction)


def _check_position_flag(i: r.SetPositionFlag, game: Any, run: bool) -> None:
    _check_valued(i, game, run)
    _check_at(i, game, run)


def _check_go_to(i: r.GoTo, game: Any, run: bool) -> None:
    if not 0 <= i.cell < game.board.size:
        raise Unsupported("a jump to no cell")


def _check_go(i: r.Go, game: Any, run: bool) -> None:
    if i.where not in ("from", "to", "mark", "last-from", "last-to"):
        raise Unsupported(f"(go {i.where})")


def _check_mark_at(i: r.MarkAt, game: Any, run: bool) -> None:
    if i.cell is not None:
        if not 0 <= i.cell < game.board.size:
            raise Unsupported("a mark at no cell")
    elif i.direction is None:
        raise Unsupported("a mark at no cell")
    else:
        _check_direction(game, i.direction)


def _check_valued(i: r.SetFlag | r.SetAttribute | r.SetPositionFlag, game: Any,
                  run: bool) -> None:
    if not isinstance(i.value, bool):
        _check_predicate(i.value, game, run)


#: What the kernel checks of each instruction type before writing it (its writer's case
#: is :data:`_Writer.WRITE`).
_CHECK_INSTRUCTION: dict[type, Callable[[Any, Any, bool], None]] = {
    r.Step: _check_step, r.Verify: _check_tested, r.If: _check_if, r.While: _check_while,
    r.EveryCell: _check_every_cell, r.Add: _check_add, r.CaptureAt: _check_at, r.Create: _check_at,
    r.ChangeType: _check_at, r.ChangeOwner: _check_at,
    r.SetPositionFlag: _check_position_flag, r.GoTo: _check_go_to, r.Go: _check_go,
    r.MarkAt: _check_mark_at, r.SetFlag: _check_valued, r.SetAttribute: _check_valued,
    r.Mark: _check_nothing, r.Back: _check_nothing, r.SetVar: _check_nothing,
    r.Inc: _check_nothing, r.CaptureHere: _check_nothing, r.To: _check_nothing,
    r.From: _check_nothing, r.Cascade: _check_nothing, r.DiscardCascades: _check_nothing,
}


def _check_direction(game: Any, direction: str) -> None:
    for player in range(game.num_players):
        if direction not in game.board.player_links(player):
            raise Unsupported(f"direction {direction!r} is not on the board")


def _check_predicate(p: Any, game: Any, run: bool = True) -> None:
    check = _CHECK_TEST.get(type(p))
    if check is None:
        raise Unsupported(f"predicate {type(p).__name__}")
    if not run and isinstance(p, r.Marked | r.Flag | r.Var | r.Less | r.PositionFlag
                              | r.Attacked):
        raise Unsupported("a test of a run's mark, flags or counters in a group's move")
    check(p, game, run)


def _check_inner(p: r.Not | r.AtCell, game: Any, run: bool) -> None:
    if isinstance(p, r.AtCell) and p.cell < 0:
        raise Unsupported("a test at no cell")
    _check_predicate(p.test, game, run)


def _check_each(p: r.AllOf | r.AnyOf, game: Any, run: bool) -> None:
    for q in p.tests:
        _check_predicate(q, game, run)


def _check_at_step(p: r.AtStep | r.OnBoardStep, game: Any, run: bool) -> None:
    _check_direction(game, p.direction)
    if isinstance(p, r.AtStep):
        _check_predicate(p.test, game, run)


def _check_zone(p: r.InZone, game: Any, run: bool) -> None:
    if p.zone not in game.board.zones:
        raise Unsupported(f"zone {p.zone!r} is not on the board")


def _check_less(p: r.Less, game: Any, run: bool) -> None:
    for side in (p.left, p.right):
        if not isinstance(side, int | r.Var | r.PieceCount):
            raise Unsupported("a comparison of something other than counters")


def _check_connected(p: r.Connected, game: Any, run: bool) -> None:
    _check_board_directions(game, p.directions)


def _check_native(p: r.Native, game: Any, run: bool) -> None:
    raise Unsupported(f"a test in Python ({p.why})")


#: What the kernel checks of each test type (its writer's case is :data:`_Writer.TEST`).
_CHECK_TEST: dict[type, Callable[[Any, Any, bool], None]] = {
    **dict.fromkeys((r.Empty, r.Friend, r.Enemy, r.OnBoard, r.Always, r.Never, r.Neutral,
                     r.LastFrom, r.LastTo, r.Marked, r.AdjacentToEnemy, r.PositionIs,
                     r.InCells, r.PieceIs, r.Flag, r.Var, r.Attribute, r.PositionFlag,
                     r.Attacked, r.PieceCount), _check_nothing),
    r.Not: _check_inner, r.AtCell: _check_inner, r.AllOf: _check_each,
    r.AnyOf: _check_each, r.AtStep: _check_at_step, r.OnBoardStep: _check_at_step,
    r.InZone: _check_zone, r.Less: _check_less, r.Native: _check_native,
    r.Connected: _check_connected,
}


def _tests(program: Sequence[r.Instruction]) -> Iterator[Any]:
    """Every predicate ``program`` reads, nested ones included."""
    return (p for i in r.instructions(program) for p in _tests_of(i))


def _tests_of(i: r.Instruction) -> Iterator[Any]:
    """The predicates (and values) an instruction reads, nested ones included."""
    for value in (getattr(i, "test", None), getattr(i, "value", None)):
        if isinstance(value, r.Test):
            yield from ir.parts(value)


def _combination(p: Any, part: Callable[[Any], str]) -> str | None:
    """The expression of ``p`` when it is a ``not``, ``and`` or ``or`` of predicates,
    written from ``part`` of each (None otherwise)."""
    if isinstance(p, r.Not):
        return f"(not {part(p.test)})"
    if isinstance(p, r.AllOf | r.AnyOf):
        if not p.tests:
            return "True" if isinstance(p, r.AllOf) else "False"
        joint = " and " if isinstance(p, r.AllOf) else " or "
        return "(" + joint.join(part(q) for q in p.tests) + ")"
    return None


def _check_goal(goal: g.Goal, game: Any) -> None:
    if isinstance(goal, g.AllOf | g.AnyOf):
        for child in goal.goals:
            _check_goal(child, game)
    elif isinstance(goal, g.NotGoal):
        _check_goal(goal.goal, game)
    elif isinstance(goal, g.RelativeConfig):
        for d in goal.pattern[1::2]:
            _check_direction(game, d)  # type: ignore[arg-type]
    elif not isinstance(goal, g.AbsoluteConfig | g.PiecesRemaining | g.TotalPieceCount
                        | g.Stalemated | g.ToMove | g.PiecesLost | g.MoreInZone
                        | g.Repetition | g.Captured | g.Checkmated | g.TurnsPlayed):
        raise Unsupported(f"goal {type(goal).__name__}")
