"""The move language compiled: each template becomes one specialised Python function.

:mod:`boardlab.core.rules` *interprets* a template: for every piece it builds a
:class:`~boardlab.core.interpret.Cursor`, dispatches each instruction through a method
call, tests each predicate through a closure and ends a failed run by raising
:class:`~boardlab.core.interpret.Fail`. Here the same template is translated once into
Python source in which the cursor is a handful of local variables, the link rows of
the directions it walks are bound to locals, the predicates the language knows
(``EMPTY``, ``ENEMY``, ``piece_is``, ``at_step``, ...) are inlined as expressions and a
failed run is a ``return``. The function is compiled with :func:`compile` the first
time the template generates moves and kept on the template.

The interpreter stays the reference: instructions and predicates the compiler does not
know (a game's own :class:`~boardlab.core.ir.Instruction` subclass, a predicate
written as a function) run through it, on a cursor the compiled code keeps in step, so
every template compiles. Within :func:`interpreted` every template is interpreted
again; the tests compare both, move for move and in order, on every game.

``BOARDLAB_INTERPRET=1`` in the environment turns compilation off for a whole run.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from boardlab.core import interpret, ir
from boardlab.core import rules as r
from boardlab.core.move import Capture, Place, Shift
from boardlab.errors import BoardError

#: The signature of a compiled template: ``(state, player, sources, links, out)`` for a
#: piece template, with ``piece, reserve`` after them for a drop. It appends what the
#: template makes to ``out`` and returns False, having done nothing, when the position
#: needs the interpreter (a direction or zone the board lacks: the interpreter names it).
Compiled = Callable[..., bool]

_interpret = os.environ.get("BOARDLAB_INTERPRET", "") not in ("", "0")


@contextlib.contextmanager
def interpreted() -> Iterator[None]:
    """Run every template through the interpreter inside the ``with`` block (the
    reference the compiled functions are tested against)."""
    global _interpret
    before = _interpret
    _interpret = True
    try:
        yield
    finally:
        _interpret = before


def compiled(template: r.Template) -> Compiled | None:
    """The compiled function of ``template`` (built the first time), or None while
    :func:`interpreted` is in force."""
    if _interpret:
        return None
    fn = template.__dict__.get("_compiled")
    if fn is None:
        fn = template.__dict__["_compiled"] = _Compiler(template).build()
    return fn


def source(template: r.Template) -> str:
    """The Python source the compiler writes for ``template`` (to read or debug)."""
    compiler = _Compiler(template)
    compiler.write()
    return "\n".join(compiler.lines)


# Instructions the compiled code performs itself; every other one runs through its
# interpreter method on the cursor.
_INLINE = (r.Step, r.Verify, r.If, r.While, r.Add, r.CaptureHere, r.Mark, r.Back, r.GoTo,
           r.SetFlag, r.SetVar, r.Inc, r.From, r.To, r.Cascade)
# Of those, the ones that leave the hand, the actions and the attributes as they were.
_PURE = (r.Step, r.Verify, r.Mark, r.Back, r.GoTo, r.SetFlag, r.SetVar, r.Inc)

# ``{g}`` is the test that the cell is on the board, left out where the compiler knows
# it is (after a step that did not fail, or one step away from such a cell).
_SIMPLE = {
    r.OnBoard: "{on}",
    r.Empty: "({g}cells[{p}] is None)",
    r.Friend: "({g}(_x := cells[{p}]) is not None and _x.owner == player)",
    r.Enemy: "({g}(_x := cells[{p}]) is not None and _x.owner != player "
                 "and _x.owner >= 0)",
    r.Neutral: "({g}(_x := cells[{p}]) is not None and _x.owner in neutral)",
    r.LastFrom: "({g}{p} == state.last_from)",
    r.LastTo: "({g}{p} == state.last_to)",
    r.Marked: "({g}{p} == (start if mark is None else mark))",
    r.Always: "True",
    r.Never: "False",
    r.AdjacentToEnemy: "({g}enemy_next_to(cells, all_links, {p}, player))",
}


def _leaves(i: r.Instruction) -> bool:
    """Whether an instruction can take the cursor off the board (or where the compiler
    cannot follow it)."""
    return (isinstance(i, r.Step) and i.may_leave) or isinstance(i, r.Back) or \
        (isinstance(i, r.GoTo) and i.cell < 0) or not isinstance(i, _INLINE)


def tests_of(i: r.Instruction) -> Iterator[Any]:
    """The predicates (and values) an instruction reads, nested ones included."""
    for value in (getattr(i, "test", None), getattr(i, "value", None)):
        if isinstance(value, r.Test):
            yield from ir.parts(value)


def combination(p: Any, part: Callable[[Any], str]) -> str | None:
    """The expression of ``p`` when it is a ``not``, ``and`` or ``or`` of predicates,
    written from ``part`` of each (None otherwise): the template compiler and the game
    kernels' (:mod:`boardlab.core.kernel`) share it."""
    if isinstance(p, r.Not):
        return f"(not {part(p.test)})"
    if isinstance(p, r.AllOf | r.AnyOf):
        if not p.tests:
            return "True" if isinstance(p, r.AllOf) else "False"
        joint = " and " if isinstance(p, r.AllOf) else " or "
        return "(" + joint.join(part(q) for q in p.tests) + ")"
    return None


class _Compiler:
    """Writes the source of one template's function."""

    def __init__(self, template: r.Template):
        self.template = template
        self.drop = isinstance(template, r.Drop)
        self.lines: list[str] = []
        self.consts: dict[str, object] = {}
        self.rows: dict[str, str] = {}  # direction -> local name of its link row
        self.zones: dict[str, str] = {}  # zone -> local name of the mover's cells
        self.temps = 0
        program = tuple(template.program)
        every = list(r._instructions(program))
        predicates = [p for i in every for p in tests_of(i)]
        self.opaque = any(not self._known(p) for p in predicates)
        # An ``add`` can take the short way when nothing before it can have changed the
        # piece in hand or queued actions: a piece template whose program only walks
        # and tests.
        self.fast_add = not self.drop and all(isinstance(i, _PURE + (r.If, r.While, r.Add))
                                              for i in every)
        # The cursor object exists when something reads it: an instruction or predicate
        # the compiler leaves to the interpreter, or position flags (only set there).
        self.cursor = self.opaque or any(not isinstance(i, _INLINE) for i in every) \
            or any(isinstance(p, r.PositionFlag) for p in predicates)
        self.flags = self.cursor or any(isinstance(i, r.SetFlag | r.SetVar | r.Inc)
                                        for i in every) or \
            any(isinstance(p, r.Flag | r.Var | r.Less) for p in predicates)
        # ``(go to)`` reads where ``to`` put the piece down, which only the cursor keeps:
        # then ``to`` and ``cascade`` run on it too.
        self.reads_to = any(isinstance(i, r.Go) and i.where == "to" for i in every)

    # --- helpers -------------------------------------------------------------------------
    def const(self, value: object, prefix: str = "K") -> str:
        for name, known in self.consts.items():
            if known is value:
                return name
        name = f"{prefix}{len(self.consts)}"
        self.consts[name] = value
        return name

    def row(self, direction: str) -> str:
        if direction not in self.rows:
            self.rows[direction] = f"R{len(self.rows)}"
        return self.rows[direction]

    def zone(self, zone: str) -> str:
        if zone not in self.zones:
            self.zones[zone] = f"Z{len(self.zones)}"
        return self.zones[zone]

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)

    def _short(self, add: r.Add) -> bool:
        """Whether ``add`` takes the short way (a plain move of the piece in hand)."""
        return self.fast_add and add == r.Add()

    # --- predicates ------------------------------------------------------------------------
    def _known(self, p: Any) -> bool:
        if type(p) in _SIMPLE:
            return True
        return isinstance(p, r.AtCell | r.AtStep | r.PositionIs | r.InCells | r.OnBoardStep
                          | r.Attribute | r.PositionFlag | r.Not | r.AllOf | r.AnyOf
                          | r.PieceIs | r.InZone | r.Flag | r.Var | r.Less)

    def expr(self, p: Any, where: str = "pos", known: bool | None = None) -> str:
        """A Python expression for predicate ``p`` read at the cell named ``where``
        (``known``: that cell is on the board; by default what the compiler knows of
        the cursor's, and true of any other cell it names)."""
        if known is None:
            known = self.on_board if where == "pos" else True
        g = "" if known else f"{where} != -1 and "
        simple = _SIMPLE.get(type(p))
        if simple is not None:
            return simple.format(p=where, g=g, on="True" if known else f"({where} != -1)")
        combined = combination(p, lambda q: self.expr(q, where, known))
        if combined is not None:
            return combined
        if isinstance(p, r.AtCell):
            return self.expr(p.test, str(p.cell), p.cell >= 0)
        if isinstance(p, r.AtStep):
            t = self.temp()
            return (f"({g}({t} := {self.row(p.direction)}[{where}]) >= 0 "
                    f"and {self.expr(p.test, t, True)})")
        if isinstance(p, r.PositionIs):
            return f"({where} == {p.cell})"
        if isinstance(p, r.InCells):
            return f"({where} in {self.const(p.cells)})"
        if isinstance(p, r.OnBoardStep):
            return f"({g}{self.row(p.direction)}[{where}] >= 0)"
        if isinstance(p, r.Attribute):
            return f"({g}(_x := cells[{where}]) is not None and {p.name!r} in _x.attributes)"
        if isinstance(p, r.PositionFlag):
            return f"bool((_pf := c.position_flags) and _pf.get(({p.name!r}, {where})))"
        if isinstance(p, r.PieceIs):
            kinds = self.const(frozenset(p.kinds))
            return f"({g}(_x := cells[{where}]) is not None and _x.kind in {kinds})"
        if isinstance(p, r.InZone):
            return f"({g}{where} in {self.zone(p.zone)})"
        if isinstance(p, r.Flag):
            return f"bool(flags.get({p.name!r}))"
        if isinstance(p, r.Var):
            return f"flags.get({p.name!r}, 0)"
        if isinstance(p, r.Less):
            left, right = (str(v) if isinstance(v, int) else self.expr(v, where, known)
                           for v in (p.left, p.right))
            return f"({left} < {right})"
        # Anything else is left to the interpreter, on the cursor.
        return f"test({self.const(p, 'P')}, at(c, {where}, hand, hand_from, mark))"

    def value(self, v: bool | r.Predicate) -> str:
        return repr(v) if isinstance(v, bool) else f"bool({self.expr(v)})"

    # --- instructions ----------------------------------------------------------------------
    def block(self, program: Sequence[r.Instruction], depth: int) -> None:
        if not program:
            self.emit(depth, "pass")
        for i in program:
            self.instruction(i, depth)

    def instruction(self, i: r.Instruction, depth: int) -> None:  # noqa: C901 - a dispatch
        e = self.emit
        fail = self.fail
        known = self.on_board
        if isinstance(i, r.Step):
            if not known:
                e(depth, f"if pos == -1: {fail}")
            e(depth, f"pos = {self.row(i.direction)}[pos]")
            e(depth, "if pos < 0: " + ("pos = -1" if i.may_leave else fail))
            self.on_board = not i.may_leave
        elif isinstance(i, r.Verify):
            e(depth, f"if not {self.expr(i.test)}: {fail}")
        elif isinstance(i, r.If):
            e(depth, f"if {self.expr(i.test)}:")
            self.block(i.then, depth + 1)
            after, self.on_board = self.on_board, known
            if i.else_:
                e(depth, "else:")
                self.block(i.else_, depth + 1)
            self.on_board = self.on_board and after
        elif isinstance(i, r.While):
            # The loop starts again where its body ended: what is known at the start
            # must hold there too, which it does unless the body can leave the board.
            entry = self.on_board = known and not any(_leaves(j) for j in r._instructions(i.body))
            # A run that fails in the loop leaves it with ``_failed`` set (a ``break``
            # skips the ``else``) and then fails where the loop stands.
            e(depth, "_failed = False")
            e(depth, f"for _ in range({r.LOOP_LIMIT}):")
            e(depth + 1, f"if not {self.expr(i.test)}: break")
            self.fail = "_failed = True; break"
            self.block(i.body, depth + 1)
            self.fail = fail
            e(depth, "else:")
            e(depth + 1, "raise BoardError('move template loops forever (While never ends)')")
            e(depth, f"if _failed: {fail}")
            self.on_board = entry
        elif isinstance(i, r.Add) and self._short(i):
            # Add.run when the hand holds the piece from ``start`` and nothing is queued.
            if not known:
                e(depth, "if pos == -1: out.append((Capture(start),))")
            e(depth, ("elif" if not known else "if") + " pos == start: out.append(())")
            e(depth, "elif cells[pos] is not None: out.append((Capture(pos), Shift(start, pos)))")
            e(depth, "else: out.append((Shift(start, pos),))")
        elif isinstance(i, r.CaptureHere):
            e(depth, f"if {'' if known else 'pos != -1 and '}cells[pos] is not None:")
            e(depth + 1, "_taken = Capture(pos)")
            e(depth + 1, "if _taken not in acts: acts.append(_taken)")
        elif isinstance(i, r.Mark):
            e(depth, "mark = pos")
        elif isinstance(i, r.Back):
            e(depth, "if mark is not None: pos = mark")
            e(depth, "elif start == -1: raise BoardError('back without mark')")
            e(depth, "else: pos = start")
            self.on_board = False
        elif isinstance(i, r.GoTo):
            e(depth, f"pos = {i.cell}")
            self.on_board = i.cell >= 0
        elif isinstance(i, r.SetFlag):
            e(depth, f"flags[{i.name!r}] = {self.value(i.value)}")
        elif isinstance(i, r.SetVar):
            e(depth, f"flags[{i.name!r}] = {i.value!r}")
        elif isinstance(i, r.Inc):
            e(depth, f"flags[{i.name!r}] = flags.get({i.name!r}, 0) + {i.by!r}")
        elif isinstance(i, r.Add):
            attributes = "c.attributes" if self.cursor else "None"
            changes = ", changes=c.changes" if self.cursor else ""
            call = (f"emit(cells, pos, hand, hand_from, acts, {attributes}, reserve, "
                    f"{i.promote!r}, {i.partial!r}, {i.copy!r}{changes}")
            if i.promote is None:
                e(depth, f"out.append({call}))")
            else:
                # A promotion may need a piece the reserve lacks (Add.run).
                e(depth, f"_move = {call}, store=store)")
                e(depth, "if _move is not None: out.append(_move)")
        elif isinstance(i, r.From):
            e(depth, f"hand = cells[pos]{'' if known else ' if pos != -1 else None'}")
            e(depth, "hand_from = pos if hand is not None else None")
        elif isinstance(i, r.To) and not self.reads_to:
            self.put_down(depth)
        elif isinstance(i, r.Cascade) and not self.reads_to:
            e(depth, f"_picked = cells[pos]{'' if known else ' if pos != -1 else None'}")
            e(depth, "_here = pos")
            self.put_down(depth)
            e(depth, "hand = _picked")
            e(depth, "hand_from = _here if _picked is not None else None")
        else:
            # The interpreter's own method, on the cursor brought up to date.
            e(depth, "c.pos = pos; c.hand = hand; c.hand_from = hand_from; c.mark = mark")
            e(depth, "try:")
            e(depth + 1, f"run_instruction({self.const(i, 'I')}, c, out)")
            e(depth, "except Fail:")
            e(depth + 1, fail)
            e(depth, "pos = c.pos; hand = c.hand; hand_from = c.hand_from; mark = c.mark")
            self.on_board = False

    def put_down(self, depth: int) -> None:
        """:class:`~boardlab.core.ir.To`: the piece in hand goes down here now."""
        e = self.emit
        e(depth, "if hand is not None:")
        if self.on_board:
            e(depth + 1, "if hand_from is None: acts.append(Place(pos, hand, from_reserve=True))")
        else:
            e(depth + 1, "if pos == -1:")
            e(depth + 2, "if hand_from is not None: acts.append(Capture(hand_from))")
            e(depth + 1, "elif hand_from is None: "
                         "acts.append(Place(pos, hand, from_reserve=True))")
        e(depth + 1, "elif pos != hand_from: acts.append(Shift(hand_from, pos))")
        e(depth + 1, "hand = None")
        e(depth + 1, "hand_from = None")

    # --- the function ----------------------------------------------------------------------
    def write(self) -> None:
        t = self.template
        program = tuple(t.program)
        # The program is written inside the loop over the sources: a failed run is a
        # ``continue`` of that loop.
        self.fail = "continue"
        self.on_board = True  # the run starts on its source cell
        body: list[str] = []
        saved, self.lines = self.lines, body
        self.block(program, 2)
        self.lines = saved
        text = "\n".join(body)
        prologue = ["pos = start"]
        if "mark" in text or self.cursor:
            prologue.append("mark = None")
        if "acts" in text or self.cursor:
            prologue.append("acts = []")
        if self.flags:
            prologue.append("flags = {}")
        if self.cursor:
            prologue.append(f"c = Cursor(state, player, start, hand, hand_from, acts, None, "
                            f"flags, {t.direction!r}, links, start, reserve=reserve)")
        # Only what the body reads is looked up for each call.
        extras = [*self.rows.values(), *self.zones.values(),
                  *(name for name in ("neutral", "all_links") if name in text)]
        e = self.emit
        head = "def generate(state, player, sources, links, out" + \
            (", piece, reserve):" if self.drop else "):")
        e(0, head)
        e(1, "cells = state.cells")
        for d, name in self.rows.items():
            e(1, f"{name} = links.get({d!r})")
            e(1, f"if {name} is None: return False")
        if self.zones:
            e(1, "zones = state.game.board.zones")
        for z, name in self.zones.items():
            e(1, f"{name} = zones.get({z!r})")
            e(1, f"if {name} is None: return False")
            e(1, f"{name} = {name}.get(player, ())")
        if "neutral" in extras:
            e(1, "neutral = state.game.neutral_players")
        if "all_links" in extras:
            e(1, "all_links = state.game.board.links")
        if "store=store" in text:
            e(1, "store = state.reserves if state.game.recycle_promotions else None")
        if not self.drop:
            e(1, "reserve = True")
        e(1, "for start in sources:")
        if self.drop:
            e(2, "hand = piece")
            e(2, "hand_from = None")
        else:
            e(2, "piece = cells[start]")
            e(2, "if piece is None" + ("" if t.shared else " or piece.owner != player")
              + ": continue")
            if t.kinds:
                e(2, f"if piece.kind not in {self.const(frozenset(t.kinds))}: continue")
            e(2, "hand = piece")
            e(2, "hand_from = start")
        for line in prologue:
            e(2, line)
        self.lines.extend(body)
        e(1, "return True")

    def build(self) -> Compiled:
        self.write()
        text = "\n".join(self.lines)
        scope: dict[str, object] = {
            "Capture": Capture, "Shift": Shift, "Place": Place, "emit": r.emit,
            "Cursor": interpret.Cursor, "Fail": interpret.Fail,
            "BoardError": BoardError, "at": _at, "enemy_next_to": interpret._enemy_next_to,
            "run_instruction": interpret.run, "test": interpret.test,
            **self.consts}
        name = self.template.name or type(self.template).__name__
        exec(compile(text, f"<template {name}>", "exec"), scope)  # noqa: S102 - our own code
        return scope["generate"]  # type: ignore[return-value]


def _at(c: r.Cursor, pos: int, hand: Any, hand_from: int | None, mark: int | None
        ) -> r.Cursor:
    """The cursor brought up to date for a predicate the compiler calls as is."""
    c.pos, c.hand, c.hand_from, c.mark = pos, hand, hand_from, mark
    return c
