"""The kernel's writer: the lines of each instruction of a template (the visitor of its
instructions)."""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from boardlab.core import rules as r
from boardlab.core.kernel.layout import (
    _ARENA,
    _BUCKETS,
    _CAPTURE,
    _CHANGE,
    _CHANGES,
    _PLACE,
    _QUEUE,
    _SHIFT,
    BOARD,
    LAST,
    MAX_MOVES,
    Status,
    Unsupported,
)
from boardlab.core.kernel.writer.facts import _settled_together
from boardlab.core.move import Piece

#: The locals of a run that a function written for a repeated subtree (see
#: _Instructions.routine) takes and gives back, with the run's flags and counters.
_RUN_STATE = ("pos", "q", "nc", "mark", "to", "hand", "hf", "n", "rsv", "ps")


#: A line of such a function's body that returns (its value rewritten to give the
#: run's state back).
_RETURN = re.compile(r"^([^#]*?\breturn )(.+)$")


class _Instructions:
    """The part of ``_Writer`` that writes
    the lines of each instruction of a template (the visitor of its instructions)."""

    #: The method that writes each instruction type (filled in below the class).
    WRITE: ClassVar[dict[type, Callable[..., None]]] = {}

    # --- instructions ---------------------------------------------------------------
    def emit(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)

    def block(self, program: Sequence[r.Instruction], depth: int, fail: str,
              index: int, priority: int) -> None:
        if not program:
            self.emit(depth, "pass")
        k = 0
        while k < len(program):
            i = program[k]
            if k + 1 < len(program) and _settled_together(i, program[k + 1]):
                self.settle(i, program[k + 1], depth, fail)
                k += 2
                continue
            self.instruction(i, depth, fail, index, priority)
            k += 1

    def settle(self, first: Any, second: Any, depth: int, fail: str) -> None:
        """A change of owner to the mover and one of type on the same cell (see
        :func:`_settled_together`), queued as one change: what each piece becomes
        under both, a row for each player. As two changes of one cell, every move
        that flips a piece went through ``compose`` (Othello's random playouts: 1.8x
        as fast as one)."""
        kind = first.kind if isinstance(first, r.ChangeType) else second.kind
        where = self.target(first, depth, fail)
        values = [self.codes[Piece(pl, kind, p.attributes)] if p is not None else 0
                  for pl in range(self.players) for p in self.pieces]
        self.change(depth, where, f"({self.put(('settled', kind), values)} + player * "
                                  f"{len(self.pieces)})", 0)

    def instruction(self, i: r.Instruction, depth: int, fail: str, index: int,
                    priority: int) -> None:
        """Write instruction ``i`` of template ``index`` (of ``priority``) at ``depth``;
        ``fail`` is the line that ends the run without a move."""
        if i in self.repeated:
            self.routine(i, depth, fail, index, priority)
        else:
            self.WRITE[type(i)](self, i, depth, fail, index, priority)

    def routine(self, i: r.Instruction, depth: int, fail: str, index: int,
                priority: int) -> None:
        """Write instruction ``i`` as a call of a function that runs it (see
        :func:`_repeated`), written once for each context its lines depend on. The
        function takes the locals the lines read and gives back those they set of the
        run's (``_RUN_STATE`` and its flags and counters), after a code: 0 when the run
        goes on, 1 when it fails, 2 when the caller returns the value that follows."""
        key = (i, index, priority, self.attacking, self.continuing, self.leaving)
        if key not in self.routines:
            outer = self.lines
            self.lines = []
            self.WRITE[type(i)](self, i, 1, "return __FAIL__", index, priority)
            body, self.lines = self.lines, outer
            tree = ast.parse("\n".join(line[4:] for line in body))
            stored = {n.id for n in ast.walk(tree)
                      if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            called = {n.func.id for n in ast.walk(tree)
                      if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
            loaded = {n.id for n in ast.walk(tree)
                      if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
            state = [*_RUN_STATE, *self.variables.values()]
            # What the lines read and do not set, but the module's constants, the
            # functions they call and the placeholder of a failure.
            free = sorted(loaded - stored - called - {"__FAIL__"} - set(dir(builtins))
                          - {name for name in loaded if re.fullmatch(r"[A-Z][A-Z0-9_]+", name)})
            ins = [v for v in ("S", "T") if v in free] + \
                [v for v in state if v in loaded | stored] + \
                [v for v in free if v not in state and v not in ("S", "T")]
            outs = [v for v in state if v in stored]
            back = ", ".join(["{}", "{}", *outs])
            lines = []
            codes = set()
            for line in body:
                m = _RETURN.match(line)
                if m is not None:
                    code = 1 if m[2] == "__FAIL__" else 2
                    codes.add(code)
                    line = m[1] + back.format(code, 0 if code == 1 else m[2])
                lines.append(line)
            name = f"routine{len(self.routines)}"
            self.routines[key] = (name, ", ".join(["_k", "_r", *outs]), ", ".join(ins),
                                  frozenset(codes),
                                  f"@njit(cache=True)\ndef {name}({', '.join(ins)}):\n"
                                  + "\n".join(lines) + f"\n    return {back.format(0, 0)}\n")
        name, results, args, codes, _ = self.routines[key]
        self.emit(depth, f"{results} = {name}({args})")
        if 1 in codes:
            self.emit(depth, f"if _k == 1: {fail}")
        if 2 in codes:
            self.emit(depth, "if _k == 2: return _r")

    def step(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """A step (off the board only where it may leave)."""
        e = self.emit
        if self.leaving:
            e(depth, f"if pos < 0: {fail}")  # no step from off the board
        e(depth, f"pos = {self.direction(i.direction).format('pos')}")
        if not i.may_leave:
            e(depth, f"if pos < 0: {fail}")

    def verify(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """Fail unless the test holds."""
        e = self.emit
        e(depth, f"if not {self.expr(i.test, 'pos')}: {fail}")

    def if_(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """A branch on a test."""
        e = self.emit
        e(depth, f"if {self.expr(i.test, 'pos')}:")
        self.block(i.then, depth + 1, fail, index, priority)
        if i.else_:
            e(depth, "else:")
            self.block(i.else_, depth + 1, fail, index, priority)

    def while_(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """A loop (counted only where it might not end)."""
        e = self.emit
        self.loops += 1
        flag, turns = f"_f{self.loops}", f"_i{self.loops}"
        e(depth, f"{flag} = False")
        e(depth, f"{turns} = 0")
        e(depth, "while True:")
        e(depth + 1, f"if not {self.expr(i.test, 'pos')}: break")
        if not self.ends(i):
            e(depth + 1, f"{turns} += 1")
            e(depth + 1, f"if {turns} > {r.LOOP_LIMIT}: return {Status.LOOPS:d}")
        self.block(i.body, depth + 1, f"{flag} = True; break", index, priority)
        e(depth, f"if {flag}: {fail}")

    def capture(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """A capture here or at a cell: queued once."""
        e = self.emit
        if isinstance(i, r.CaptureHere) and self.leaving:
            e(depth, "if pos >= 0:")  # nothing to capture off the board
            self.leaving = False
            self.capture(i, depth + 1, fail, index, priority)
            self.leaving = True
            return
        where = "pos" if isinstance(i, r.CaptureHere) else self.target(i, depth, fail)
        # Capturing twice is capturing once (the interpreter's rule).
        e(depth, f"if S[{BOARD} + {where}] != 0 and not queued(T, q, "
                 f"{_CAPTURE} | ({where} << 2)):")
        self.queue(depth + 1, f"{_CAPTURE} | ({where} << 2)")

    def put_down(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """ZRF ``to`` and ``cascade``: the piece in hand goes down here."""
        e = self.emit
        if isinstance(i, r.Cascade) and self.leaving:
            # Off the board the piece in hand goes down nowhere: taken from its cell
            # (rules.To); nothing is picked up there.
            e(depth, "if pos < 0:")
            e(depth + 1, "if hand != 0 and hf >= 0:")
            self.queue(depth + 2, f"{_CAPTURE} | (hf << 2)")
            e(depth + 1, "hand = 0")
            e(depth + 1, "hf = -1")
            e(depth + 1, "to = -1")
            e(depth, "else:")
            self.leaving = False  # the cursor is on the board in this branch
            self.put_down(i, depth + 1, fail, index, priority)
            self.leaving = True
            return
        if isinstance(i, r.To) and self.leaving:
            # Off the board the piece in hand goes down nowhere: taken from its cell
            # (rules.To).
            e(depth, "if pos < 0:")
            e(depth + 1, "if hand != 0 and hf >= 0:")
            self.queue(depth + 2, f"{_CAPTURE} | (hf << 2)")
            e(depth + 1, "if hand != 0:")
            e(depth + 2, "hand = 0")
            e(depth + 2, "hf = -1")
            e(depth, "else:")
            self.leaving = False
            self.put_down(i, depth + 1, fail, index, priority)
            self.leaving = True
            return
        if isinstance(i, r.Cascade):
            e(depth, f"picked = S[{BOARD} + pos]")
        # The piece in hand goes down here (from a cell: a shift, unless it is
        # its own cell).
        e(depth, "if hand != 0:")
        e(depth + 1, "if hf < 0:")
        self.queue(depth + 2, f"{_PLACE} | (pos << 2) | (hand << 18) | (1 << 34)")
        e(depth + 1, "elif pos != hf:")
        self.queue(depth + 2, f"{_SHIFT} | (hf << 2) | (pos << 18)")
        if isinstance(i, r.Cascade):
            e(depth, "hand = picked")
            e(depth, "hf = pos if picked != 0 else -1")
            e(depth, "to = -1")  # a new leg starts
        else:
            e(depth, "hand = 0")
            e(depth, "hf = -1")
            e(depth, "to = pos")

    def from_(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """ZRF ``from``: pick up the piece here."""
        e = self.emit
        e(depth, f"hand = S[{BOARD} + pos]")
        e(depth, "hf = pos if hand != 0 else -1")

    def discard_cascades(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """Drop the legs queued by ``to`` and ``cascade``."""
        e = self.emit
        e(depth, "k = 0")
        e(depth, "for _j in range(q):")
        e(depth + 1, "a = T[XQ + _j]")
        e(depth + 1, f"if not (a & 3 == {_SHIFT} or (a & 3 == {_PLACE} and a >> 34 & 1)):")
        e(depth + 2, "T[XQ + k] = a")
        e(depth + 2, "k += 1")
        e(depth, "q = k")

    def create(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """A new piece here or at a cell."""
        e = self.emit
        where = self.target(i, depth, fail)
        if i.kind is None:
            # A new piece of the moving piece's type (none in hand: no move).
            e(depth, f"if hand == 0: {fail}")
            code = f"T[{self.creation_row(i)} + player * {self.ncodes} + hand]"
        elif i.owner is not None:
            code = str(self.codes[Piece(i.owner, i.kind, i.attributes)])
        else:
            row = self.put(("create", i.kind, i.attributes),
                           [self.codes[Piece(pl, i.kind, i.attributes)]
                            for pl in range(self.players)])
            code = f"T[{row} + player]"
        # It replaces what stands there after the move's shifts, the mover included.
        e(depth, f"if S[{BOARD} + {where}] != 0 or arrives(T, q, {where}):")
        self.queue(depth + 1, f"{_CHANGE} | ({where} << 2) | ({code} << 18)")
        e(depth, "else:")
        self.queue(depth + 1, f"{_PLACE} | ({where} << 2) | ({code} << 18)")

    def change_piece(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """A change of type or owner, given after the move."""
        where = self.target(i, depth, fail)
        if isinstance(i, r.ChangeType):
            table = str(self.changed(("kind", i.kind),
                                     lambda p, k=i.kind: Piece(p.owner, k, p.attributes)))
        elif i.flip:
            n = self.players
            table = str(self.changed(("flip",), lambda p: Piece((p.owner + 1) % n, p.kind,
                                                                p.attributes)))
        else:
            table = self.owned_by("player")
        self.change(depth, where, table, 0)

    def set_attribute(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """An attribute given after the move (a change of kind 1)."""
        # Given to the piece on the cell after the move, after the changes of type
        # and owner (rules.emit): a change of kind 1.
        name = i.name
        on, off = (self.changed(("attribute", name, v),
                                lambda p, v=v: p.with_attributes({name: v}))
                   for v in (True, False))
        if isinstance(i.value, bool):
            table = str(on if i.value else off)
        else:
            table = f"({on} if {self.expr(i.value, 'pos')} else {off})"
        self.change(depth, "pos", table, 1)

    def set_position_flag(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """A flag of a cell for this run."""
        e = self.emit
        where = self.target(i, depth, fail)
        value = i.value
        stamp = "ps" if value is True else "0" if value is False else \
            f"(ps if {self.expr(value, 'pos')} else 0)"
        e(depth, f"T[{self.position_flag(i.name)} + {where}] = {stamp}")

    def mark(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """Remember the cursor's cell."""
        e = self.emit
        e(depth, "mark = pos")

    def back(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """Back to the mark (without one, to the start)."""
        e = self.emit
        # Without a mark, back to where the run started (ZRF).
        e(depth, f"pos = start if mark {self.unmarked()} else mark")

    def go(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """ZRF ``go``: to the start, the last move's ends, the mark or where ``to`` put down."""
        e = self.emit
        if i.where == "mark":
            self.back(i, depth, fail, index, priority)
            return
        if i.where == "from":
            e(depth, "pos = start")
        elif i.where in ("last-from", "last-to"):  # none: the run fails
            e(depth, f"pos = (S[{LAST}] & 65535) - 1" if i.where == "last-from"
              else f"pos = (S[{LAST}] >> 16) - 1")
            e(depth, f"if pos < 0: {fail}")
        else:  # "to": where the last ``to`` put the piece down, else the cursor
            e(depth, "if to >= 0: pos = to")

    def go_to(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """Jump to a cell."""
        e = self.emit
        e(depth, f"pos = {i.cell}")

    def mark_at(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """Mark a cell or the cell one step away."""
        e = self.emit
        if i.cell is not None:
            e(depth, f"mark = {i.cell}")
        else:
            assert i.direction is not None
            e(depth, f"if {self.direction(i.direction).format('pos')} < 0: {fail}")
            e(depth, f"mark = {self.direction(i.direction).format('pos')}")

    def set_flag(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """A flag of this run."""
        e = self.emit
        value = str(int(i.value)) if isinstance(i.value, bool) else \
            f"(1 if {self.expr(i.value, 'pos')} else 0)"
        e(depth, f"{self.variable(i.name)} = {value}")

    def set_var(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """Set a counter."""
        e = self.emit
        e(depth, f"{self.variable(i.name)} = {int(i.value)}")

    def inc(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """Add to a counter."""
        e = self.emit
        e(depth, f"{self.variable(i.name)} += {int(i.by)}")

    def add(self, i: Any, depth: int, fail: str, index: int, priority: int) -> None:
        """Emit the move built so far (or a chain's step)."""
        e = self.emit
        becomes = "0"
        if i.promote is not None:
            off = self.promotion(i.promote)
            becomes = f"T[{off} + hand]"
        if self.attacking:
            # Whether the move takes a piece on ``target`` or lands there.
            if index in self.plain:
                e(depth, "if pos != hf and pos == target: return 1")
            else:
                rsv = "rsv" if self.reserved else "0"
                e(depth, f"if strikes(S, T, pos, hand, hf, q, nc, {becomes}, {i.copy}, "
                         f"{rsv}, target): return 1")
            return
        if i.partial is not None or self.continuing:
            # A step of a chain (a partial one goes on with its type's templates),
            # played out by chains once every template has run.
            rsv = "rsv" if self.reserved else "0"
            kind = -1 if i.partial is None else self.partial_types.index(i.partial)
            e(depth, f"rc = record(S, T, pos, hand, hf, q, nc, {becomes}, {i.copy}, "
                     f"{rsv}, {index}, {kind})")
            e(depth, "if rc < 0: return rc")
            return
        if index in self.plain_drops:
            for line in self.drop_lines(becomes, str(index), priority,
                                        index not in self.unchanging):
                e(depth, line)
        elif index in self.inline:
            for line in self.shift_lines(becomes, str(index), priority):
                e(depth, line)
        elif index in self.plain:
            e(depth, f"n = shift(S, T, n, pos, hand, hf, {becomes}, {index}, {priority})")
            e(depth, "if n < 0: return n")
        else:
            rsv = "rsv" if self.reserved else "0"
            e(depth, f"n = emit(S, T, n, pos, hand, hf, q, nc, {becomes}, {i.copy}, "
                     f"{rsv}, {index}, {priority}, player)")
        e(depth, "if n < 0: return n")

    def every_cell(self, i: r.EveryCell, depth: int, fail: str, index: int,
                   priority: int) -> None:
        """The lines of :class:`~boardlab.core.ir.EveryCell`: a loop over the cells,
        each turn the run as it stood (the locals it keeps saved before the loop and
        set again at each turn and after it), a failure ending the turn alone."""
        self.loops += 1
        cell = f"_i{self.loops}"
        at = len(self.lines)
        self.emit(depth, f"for {cell} in range({self.size}):")
        restore_at = len(self.lines)
        self.emit(depth + 1, f"pos = {cell}")
        self.block(i.body, depth + 1, "continue", index, priority)
        # The locals a run keeps, its flags and counters named so far included (those
        # named later are not the body's).
        names = ["pos", "q", "nc", "mark", "to", "hand", "hf", *self.variables.values()]
        saved = []
        for _ in names:
            self.loops += 1
            saved.append(f"_e{self.loops}")
        pad = "    " * depth
        self.lines[restore_at:restore_at] = [f"{pad}    {name} = {copy}"
                                             for name, copy in zip(names, saved, strict=True)]
        self.lines[at:at] = [f"{pad}{copy} = {name}"
                             for name, copy in zip(names, saved, strict=True)]
        for name, copy in zip(names, saved, strict=True):
            self.emit(depth, f"{name} = {copy}")

    def piece_count(self, v: r.PieceCount) -> str:
        """The expression of a :class:`~boardlab.core.ir.PieceCount` for ``player``:
        the counts the array keeps of each piece code on the board (and in hand)."""
        name = self.offsets.get(("piece count name", v))
        if name is None:
            kinds = frozenset(v.kinds)
            mask = self.mask_of_codes(("piece count", kinds),
                                      lambda piece: not kinds or piece.kind in kinds)
            name = f"count{len(self.helpers)}"
            self.offsets[("piece count name", v)] = name  # type: ignore[assignment]
            owned = "T[OWN + c] == player" if v.mine else \
                "T[OWN + c] != player and T[OWN + c] >= 0"
            hand = " + S[RES + c]" if v.in_hand and self.reserved else ""
            self.helpers.append(
                "@njit(cache=True, inline='always')\n"
                f"def {name}(S, T, player):\n"
                "    n = 0\n"
                f"    for c in range(1, {self.ncodes}):\n"
                f"        if T[{mask} + c] != 0 and {owned.replace('OWN', str(self.owner))}:\n"
                f"            n += S[CNT + c]{hand}\n"
                "    return n\n")
        return f"{name}(S, T, player)"

    def shift_lines(self, becomes: str, index: str, priority: int | str) -> list[str]:
        """The lines of the move of a plain template (see :attr:`plain`): its piece from
        its cell to ``pos``, taking what stands there. Written out where its add is
        (:attr:`inline`), not called: a call that passes the arrays and that LLVM does
        not inline costs more than the move (a call per move made Breakthrough's
        playouts half as fast)."""
        lines = ["top = T[XS + 1]",
                 f"if top + 3 > {_ARENA}: return {Status.QUEUE:d}",
                 "w = top",
                 "if pos != hf:",
                 f"    if S[{BOARD} + pos] != 0:",
                 f"        T[XA + w] = {_CAPTURE} | (pos << 2)",
                 "        w += 1",
                 f"    T[XA + w] = {_SHIFT} | (hf << 2) | (pos << 18)",
                 "    w += 1"]
        if becomes != "0":
            if becomes != "becomes":
                lines.append(f"becomes = {becomes}")
            lines += ["if becomes != 0 and becomes != hand:",
                      f"    T[XA + w] = {_CHANGE} | (pos << 2) | (becomes << 18)",
                      "    w += 1"]
        return lines + self.push_lines(index, priority)

    def drop_lines(self, becomes: str, index: str, priority: int | str, changes: bool
                   ) -> list[str]:
        """The lines of the move of a plain drop (see :attr:`plain_drops`), as compose
        writes it: what stands on ``pos`` taken, the piece in hand (or what it is
        promoted to) placed there, from the mover's reserve where ``rsv`` says so; then
        the ``changes`` of type and owner the run asked for, each of a piece the move
        leaves alone (compose writes the move where one is not)."""
        reserve = " | ((1 if rsv != 0 else 0) << 34)" if self.reserved else ""
        piece = "hand"
        lines = ["top = T[XS + 1]",
                 f"if top + 3 + nc > {_ARENA}: return {Status.QUEUE:d}",
                 "w = top",
                 f"if S[{BOARD} + pos] != 0:",
                 f"    T[XA + w] = {_CAPTURE} | (pos << 2)",
                 "    w += 1"]
        if becomes != "0":
            lines.append(f"piece = {becomes}")
            lines.append("if piece == 0: piece = hand")
            piece = "piece"
        if becomes != "0" and self.reserved:
            # From the reserve, the piece in hand, then promoted (compose).
            lines += ["if rsv != 0 and piece != hand:",
                      f"    T[XA + w] = {_PLACE} | (pos << 2) | (hand << 18) | (1 << 34)",
                      f"    T[XA + w + 1] = {_CHANGE} | (pos << 2) | (piece << 18)",
                      "    w += 2",
                      "else:",
                      f"    T[XA + w] = {_PLACE} | (pos << 2) | ({piece} << 18){reserve}",
                      "    w += 1"]
        else:
            lines += [f"T[XA + w] = {_PLACE} | (pos << 2) | ({piece} << 18){reserve}",
                      "w += 1"]
        if changes:
            rsv = "rsv" if self.reserved else "0"
            lines += [
                "for c in range(nc):",
                "    cell = T[XCH + 3 * c]",
                f"    was = S[{BOARD} + cell]",
                "    for i in range(top, w):",
                "        if (T[XA + i] >> 2) & 65535 == cell:",
                "            was = -1",
                "            break",
                "    if was < 0:",
                f"        w = compose(S, T, pos, hand, hf, q, nc, {becomes}, 0, {rsv})",
                "        if w < 0: return w",
                "        break",
                "    if was == 0: continue",
                "    now = T[T[XCH + 3 * c + 1] + was]",
                "    if now != was:",
                f"        T[XA + w] = {_CHANGE} | (cell << 2) | (now << 18)",
                "        w += 1"]
        return lines + self.push_lines(index, priority)

    def push_lines(self, index: str, priority: int | str) -> list[str]:
        """The lines that add the move of words T[XA + top:XA + w] to the n found
        (see ``push``), unless an equal one of its priority came before (none can
        where the priority, a number when known as the kernel is written, else the
        name of a variable, is one of :attr:`apart`)."""
        if self.distinct or (isinstance(priority, int) and priority in self.apart):
            # No equal move to look for; scan hashes the moves it registers, a
            # playout none. Nothing reads a move's priority where all have one and
            # no chain compares its moves with them.
            return [f"if n >= {MAX_MOVES}: return {Status.MOVES:d}",
                    *([] if self.one_priority else [f"T[XP + n] = {priority}"]),
                    "T[XO + n] = top",
                    "T[XK + n] = w - top",
                    f"T[XT + n] = {index}",
                    "T[XS + 1] = w",
                    "n += 1"]
        lines = ["h = 0x51ED270B27",
                 "for i in range(top, w):",
                 "    h = mix(h, T[XA + i])"]
        add = [f"if n >= {MAX_MOVES}: return {Status.MOVES:d}",
               "T[XN + n] = h",
               f"T[XP + n] = {priority}",
               "T[XO + n] = top",
               "T[XK + n] = w - top",
               f"T[XT + n] = {index}",
               "T[XS + 1] = w",
               "n += 1"]
        return lines + [
            f"b = XH + (spread(h) & {_BUCKETS - 1})",
            "stamp = T[XS]",
            "j = T[b] & 16777215 if T[b] >> 24 == stamp else 0",
            "first = j",
            "while j > 0:",
            "    o = j - 1",
            f"    if T[XN + o] == h and T[XP + o] == {priority} and T[XK + o] == w - top \\",
            "            and same(T, o, top, w - top):",
            "        break",
            "    j = T[XL + o]",
            "if j == 0:",
            "    T[XL + n] = first",
            "    T[b] = (stamp << 24) | (n + 1)",
            *("    " + line for line in add)]

    def drop_head(self, t: r.Drop) -> None:
        """The loop of a drop template over its cells, the piece in hand from no cell:
        from the mover's reserve (``rsv`` 1: none when it holds none), or from an
        unlimited supply."""
        board, e = self.board, self.emit
        cells = []
        for player in range(self.players):
            if t.zone is not None:
                where = sorted(board.zones[t.zone].get(player, ()))
            elif t.cells is not None:
                where = list(t.cells)
            else:
                where = list(range(self.size))
            # None for a player who never has the piece to drop (see _pieces).
            has = Piece(player, t.kinds[0], t.attributes) in self.codes
            cells.append(where if has else [])
        width = max(len(c) for c in cells) + 1
        table = self.put(("drop cells", t.zone, t.cells, t.unlimited_for),
                         [v for c in cells for v in (len(c), *c, *[0] * (width - 1 - len(c)))])
        # Code 0 for a player who never has the piece: no drop (see _pieces).
        pieces = self.put(("drop pieces", t.kinds[0], t.attributes), [
            self.codes.get(Piece(player, t.kinds[0], t.attributes), 0)
            for player in range(self.players)])
        if self.reserved:
            limited = self.put(("drop limited", t.unlimited_for),
                               [int(p not in t.unlimited_for) for p in range(self.players)])
            self.hold(1, f"rsv = T[{limited} + player]")
            e(1, f"cnt = T[{table} + player * {width}]")
            e(1, f"if rsv != 0 and S[RES + T[{pieces} + player]] <= 0: cnt = 0")
            e(1, "for _s in range(cnt):")
        else:
            e(1, f"for _s in range(T[{table} + player * {width}]):")
        e(2, f"start = T[{table} + player * {width} + 1 + _s]")
        self.hold(2, f"hand = T[{pieces} + player]")
        self.hold(2, "hf = -1")

    def hold(self, depth: int, line: str) -> None:
        """Emit ``line``, which sets the piece in hand of a template's runs (or the
        reserve it comes from), and keep it for the run's finish (see run_lines)."""
        self.emit(depth, line)
        self.in_hand.append(line)

    def queue(self, depth: int, word: str) -> None:
        """Queue an action of the run (room permitting)."""
        self.emit(depth, f"if q >= {_QUEUE}: return {Status.QUEUE:d}")
        self.emit(depth, f"T[XQ + q] = {word}")
        self.emit(depth, "q += 1")

    def target(self, i: Any, depth: int, fail: str) -> str:
        """The cell an instruction with an optional ``cell`` or ``direction`` acts on
        (interpret._target): written to ``tg``, failing the run off the board."""
        if i.cell is not None:
            return str(i.cell)
        if i.direction is None:
            return "pos"
        self.emit(depth, f"tg = {self.direction(i.direction).format('pos')}")
        self.emit(depth, f"if tg < 0: {fail}")
        return "tg"

    def change(self, depth: int, where: str, table: str, kind: int) -> None:
        """Queue a change of the piece on ``where`` after the move, by the row
        ``table`` of what each piece becomes: of type or owner (``kind`` 0), or of an
        attribute (1), given after every change of type or owner."""
        e = self.emit
        e(depth, f"if nc >= {_CHANGES}: return {Status.QUEUE:d}")
        e(depth, f"T[XCH + 3 * nc] = {where}")
        e(depth, f"T[XCH + 3 * nc + 1] = {table}")
        e(depth, f"T[XCH + 3 * nc + 2] = {kind}")
        e(depth, "nc += 1")

    def owned_by(self, player: str) -> str:
        """The row of what each piece code becomes when the player that ``player``
        names owns it (a row for each player, one after the other)."""
        rows = [self.changed(("owner", pl), lambda p, pl=pl: Piece(pl, p.kind, p.attributes))
                for pl in range(self.players)]
        step = rows[1] - rows[0] if len(rows) > 1 else 0
        assert all(rows[k] == rows[0] + k * step for k in range(len(rows)))
        return f"({rows[0]} + {player} * {step})"

    def changed(self, name: Any, change: Any) -> int:
        """A table of what each piece code becomes by ``change`` (code 0 stays 0)."""
        return self.put(("change", *name), [0] + [self.codes[change(p)]
                                                  for p in self.pieces[1:]])

    def creation_row(self, i: r.Create) -> int:
        """A table of the piece a ``create`` without a type makes, by player and the
        code of the piece in hand: a new piece of its type."""
        values = []
        for pl in range(self.players):
            owner = pl if i.owner is None else i.owner
            defaults = self.game.ruleset.attribute_defaults
            values.extend(0 if p is None else self.codes[Piece(owner, p.kind, defaults(p.kind))]
                          for p in self.pieces)
        return self.put(("create row", i.owner), values)

    def promotion(self, kind: str) -> int:
        values = [0]
        for piece in self.pieces[1:]:
            assert piece is not None
            target = Piece(piece.owner, kind, piece.attributes)
            if target not in self.codes:
                raise Unsupported(f"promotion to {kind!r} makes a piece the game lacks")
            values.append(0 if target == piece else self.codes[target])
        return self.put(("promote", kind), values)


#: The writer's case for each instruction type (checked first by :data:`_CHECK_INSTRUCTION`).
_Instructions.WRITE.update({
    r.Step: _Instructions.step,
    r.Verify: _Instructions.verify,
    r.If: _Instructions.if_,
    r.While: _Instructions.while_,
    r.EveryCell: _Instructions.every_cell,
    r.CaptureHere: _Instructions.capture,
    r.CaptureAt: _Instructions.capture,
    r.To: _Instructions.put_down,
    r.Cascade: _Instructions.put_down,
    r.From: _Instructions.from_,
    r.DiscardCascades: _Instructions.discard_cascades,
    r.Create: _Instructions.create,
    r.ChangeType: _Instructions.change_piece,
    r.ChangeOwner: _Instructions.change_piece,
    r.SetAttribute: _Instructions.set_attribute,
    r.SetPositionFlag: _Instructions.set_position_flag,
    r.Mark: _Instructions.mark,
    r.Back: _Instructions.back,
    r.Go: _Instructions.go,
    r.GoTo: _Instructions.go_to,
    r.MarkAt: _Instructions.mark_at,
    r.SetFlag: _Instructions.set_flag,
    r.SetVar: _Instructions.set_var,
    r.Inc: _Instructions.inc,
    r.Add: _Instructions.add,
})

