"""The kernel's writer: ``generate``: each template's runs from each start, by priority,
split into functions where long."""

from __future__ import annotations

from boardlab.core import rules as r
from boardlab.core.kernel.checks import _tests
from boardlab.core.kernel.layout import (
    BOARD,
    MAX_MOVES,
    Status,
    _guarded,
)
from boardlab.core.kernel.writer.source import _shapes


class _Generate:
    """The part of ``_Writer`` that writes
    ``generate``: each template's runs from each start, by priority, split into
    functions where long."""

    def runs(self) -> list[list[str]]:
        """Each template's lines in generate: its runs from each start."""
        runs = []
        self.lazy = {}
        self.bit_reset()
        #: Whether a template reads the list of the mover's cells (see mine in write).
        self.mine_listed = False
        self.routines = {}  # (written again: see write)
        for index, t in enumerate(self.templates):
            body: list[str] = []
            self.lines = body
            runs.append(body)
            guard = self.turn_guard(t)
            if guard is None:
                continue  # it only goes on with chains (see chains)
            if guard != "True":
                # A turn that limits the move types runs this template or not.
                self.lines = []
            if type(t) is r.Group:
                self.group(index, t)
            elif type(t) is r.Line:
                self.line(index, t)
            elif type(t) is r.Footprint:
                self.footprint(index, t)
            else:
                self.run_lines(index, t)
            if guard != "True":
                body += _guarded(guard, self.lines)
                if index in self.lazy:
                    lazy, finish = self.lazy[index]
                    self.lazy[index] = (_guarded(guard, lazy), finish)
        return runs

    def turn_guard(self, t: r.Template | r.Drop | r.Group) -> str | None:
        """When template ``t`` runs in generate: "True" (always, when no turn limits
        the move types), a test of the move type the turn allows (``T[XY]``, -1: any;
        see turn_mover), or None: never (it only goes on with chains)."""
        if self.limits is None and self.follow_up is None:
            return "True" if t.top_level else None
        tests = ["T[XY] < 0"] if t.top_level else []
        if t.move_type in self.limit_types:
            tests.append(f"T[XY] == {self.limit_types[t.move_type]}")
        return " or ".join(tests) or None

    def run_lines(self, index: int, t: r.Template | r.Drop) -> None:
        """Template ``t``'s lines in generate (into ``self.lines``): its runs from
        each start. Where the template ends in a sure tail (see :meth:`tail_at`), also
        its lines in generate_lazy and finish (:attr:`lazy`)."""
        body = self.lines
        self.emit(1, f"# template {index}: {t.name or '(unnamed)'}")
        self.in_hand = []
        self.leaving = index in self.leaving_templates
        # The starts from which the template may add a move, found board-wide (see
        # bits), or None.
        kept = self.start_filter(t)
        if type(t) is r.Drop:
            if kept is not None:
                # Found at the first cell the drop may go to: none for a player
                # without the piece (Othello's other colour).
                self.emit(1, "_f = np.uint64(0)")
                self.emit(1, "_fk = False")
            self.drop_head(t)
            if kept is not None:
                self.emit(2, "if not _fk:")
                self.emit(3, f"_f = {kept}")
                self.emit(3, "_fk = True")
                self.emit(2, "if (_f >> np.uint64(start)) & np.uint64(1) == 0: continue")
        else:
            if self.reserved:
                self.hold(1, "rsv = 0")  # its pieces in hand come from cells
            if t.shared:  # any piece on the board, not only the mover's
                self.emit(1, f"for start in range({self.size}):")
                self.emit(2, f"if S[{BOARD} + start] == 0: continue")
            elif kept is not None:
                # The mover's pieces (of its kinds) the board-wide filter keeps, in the
                # order of their cells (see bits).
                self.emit(1, f"_m = {self.starts(t.kinds)} & {kept}")
                self.emit(1, "while _m != 0:")
                self.emit(2, "start = np.int64(trailing_zeros(_m))")
                self.emit(2, "_m &= _m - np.uint64(1)")
            elif t.kinds:
                self.mine_listed = True
                # The mover's pieces of its kinds, listed by generate (see kind_lists).
                j = self.kind_lists.setdefault(frozenset(t.kinds), len(self.kind_lists))
                row = f"XKC + {j * (self.size + 1)}"
                self.emit(1, f"for _s in range(T[{row}]):")
                self.emit(2, f"start = T[{row} + 1 + _s]")
            else:
                self.mine_listed = True
                self.emit(1, "for _s in range(mine):")
                self.emit(2, "start = T[XC + _s]")
            self.hold(2, f"hand = S[{BOARD} + start]")
            if t.kinds and t.shared:
                self.emit(2, f"if T[{self.kinds_mask(t.kinds)} + hand] == 0: continue")
            self.hold(2, "hf = start")  # where the piece in hand is from (-1: no cell)
        self.emit(2, "pos = start")
        self.emit(2, "q = 0")  # the actions queued by the run
        self.emit(2, "nc = 0")  # the changes of type and owner it asked for
        # No mark yet (-1 is off the board in a run that may leave it: see unmarked).
        self.emit(2, f"mark = {-2 if self.leaving else -1}")
        self.emit(2, "to = -1")  # no ``to`` yet
        reset = len(body)
        self.block(t.program, 2, "continue", index, t.priority)
        self.leaving = False
        # Every flag and counter starts each run at 0 (written now that the
        # program has named them; numba wants a local set on every path).
        body[reset:reset] = self.run_resets("        ")
        split = self.tail_at(index)
        if split is None:
            return
        # generate_lazy: the run as far as its tail, then the move left to finish.
        lazy = body[:reset]
        self.lines = lazy
        self.block(t.program[:split], 2, "continue", index, t.priority)
        self.emit(2, f"if n >= {MAX_MOVES}: return {Status.MOVES:d}")
        if not self.one_priority:
            self.emit(2, f"T[XP + n] = {t.priority}")
        self.emit(2, "T[XN + n] = start")
        self.emit(2, "T[XO + n] = pos")
        self.emit(2, "T[XK + n] = -1  # to finish")
        self.emit(2, f"T[XT + n] = {index}")
        self.emit(2, "n += 1")
        # finish: the tail from where the run left it, its move written as the n-th.
        finish: list[str] = []
        self.lines = finish
        self.emit(1, f"if T[XT + n] == {index}:")
        self.emit(2, "start = T[XN + n]")
        for line in self.in_hand:  # the piece in hand, and its reserve, as the run had them
            self.emit(2, line)
        self.emit(2, "pos = T[XO + n]")
        for line in ("q = 0", "nc = 0", "mark = -1", "to = -1"):
            self.emit(2, line)
        self.block(t.program[split:], 2, f"return {Status.NO_MOVE:d}", index, t.priority)
        self.emit(2, "return 0")
        self.lazy[index] = (lazy, finish)
        self.lines = body

    def tail_at(self, index: int) -> int | None:
        """Where template ``index``'s program ends in a sure tail, or None: from there
        on it only walks loops that cannot fail (each turn a step its test has seen on
        the board, along directions with no cycle) to one add of a move written out,
        and before it nothing but steps and tests. Its runs then yield one move each
        once they reach the tail, which a random playout works out for the move it
        plays alone (as a keeper's moves in RBG): Connect Four's falls. None also where
        the moves are compared (two runs may make the same move), filtered by what
        they do (protection, maximal captures), chained, or the templates are
        functions."""
        t = self.templates[index]
        program = t.program
        if not self.lazy_allowed or type(t) is r.Group or not program or \
                index in self.leaving_templates or not (
                self.distinct or t.priority in self.apart):
            return None
        add = program[-1]
        if not isinstance(add, r.Add) or add.partial is not None or add.copy or \
                index not in self.plain_drops | self.inline:
            return None
        split = len(program) - 1
        while split > 0 and self.sure_loop(program[split - 1]):
            split -= 1
        if split == len(program) - 1:
            return None
        pure = (r.Step, r.Verify, r.If, r.While)
        if not all(isinstance(i, pure) for i in r.instructions(program[:split])):
            return None
        return split

    def sure_loop(self, i: r.Instruction) -> bool:
        """Whether ``i`` is a loop that cannot fail: each turn one step in a direction
        its test has seen lead to a cell, and it surely ends (see :meth:`ends`)."""
        if not isinstance(i, r.While) or len(i.body) != 1 or \
                not isinstance(i.body[0], r.Step):
            return False
        d = i.body[0].direction
        tests = i.test.tests if isinstance(i.test, r.AllOf) else (i.test,)
        seen = any(isinstance(p, r.AtStep | r.OnBoardStep) and p.direction == d
                   for p in tests)
        return seen and self.ends(i)

    def order(self) -> list[int]:
        """The templates in the order generate runs them: by priority, the highest
        first, and in their own order within one (so the moves kept, those of the
        highest priority found, come in the interpreter's order)."""
        return sorted(range(len(self.templates)), key=lambda i: -self.templates[i].priority)

    def skipped(self, index: int) -> bool:
        """Whether generate skips template ``index`` once a template of a higher
        priority found a move (see :meth:`order`): the priorities would drop its
        moves, and running it could do nothing else, as it makes no partial move for
        a chain, its loops surely end, and it asks no attack (whose loops may not)."""
        t = self.templates[index]
        # Moves a filter may drop leave a lower priority's moves legal.
        if len({t.priority for t in self.templates}) < 2 or self.game.move_rules.protect \
                or self.invariants or self.cut_off is not None or self.along is not None \
                or type(t) not in (r.Template, r.Drop) or \
                t.priority == max(t.priority for t in self.templates):
            return False
        return all(not (isinstance(i, r.Add) and i.partial is not None) and
                   not (isinstance(i, r.While) and not self.ends(i))
                   for i in r.instructions(t.program)) and \
            not any(isinstance(p, r.Attacked) for p in _tests(t.program))

    def levels(self, runs: list[list[str]]) -> list[str]:
        """Generate's lines that run the templates (their ``runs``, written out), in
        :meth:`order`, each that may be skipped (:meth:`skipped`) only while no move
        was found (in their own order, with nothing to count, where none may be)."""
        if not any(map(self.skipped, range(len(self.templates)))):
            return [line for lines in runs for line in lines]
        lines = ["    above = 0"]
        level = None
        for index in self.order():
            if self.templates[index].priority != level:
                # The moves found by the templates of higher priorities, their chains
                # with them (searched now, not once every template has run).
                if level is not None:
                    lines += self.level_chains("    ")
                level = self.templates[index].priority
                lines.append("    above = n")
            if self.skipped(index) and runs[index]:
                lines += _guarded("above == 0", runs[index])
            else:
                lines += runs[index]
        return lines

    def functions(self, templates: list[list[str]]) -> tuple[list[str], str]:
        """Generate's lines that call the templates, and the functions they call (see
        :meth:`shaped`), in :meth:`order`, skipping those that may be (:meth:`skipped`)
        once a move was found."""
        parts, table, width, calls = self.shaped(templates, "template",
                                                 "S, T, player, mine, n", "n")
        if not any(map(self.skipped, range(len(self.templates)))):
            # In their own order, none skipped: the table's rows as they are.
            lines = [f"    for _t in range({len(templates)}):",
                     f"        row = {table} + _t * {width}"]
            return lines + self.dispatch(calls), parts
        order = self.order()
        priority = [self.templates[index].priority for index in order]
        # Each template in order: its index, whether it may be skipped, and whether it
        # is the first of its priority.
        rows = self.put(("template order", table), [
            v for at, index in enumerate(order)
            for v in (index, int(self.skipped(index)),
                      int(at == 0 or priority[at] != priority[at - 1]))])
        # One call of each function, in a loop over the templates in order: LLVM
        # inlines a function at every call, and numba optimises again the callee's
        # code in every caller (100 calls: two minutes again).
        lines = ["    above = 0",
                 f"    for _t in range({len(templates)}):",
                 f"        if T[{rows} + 3 * _t + 2] != 0:",
                 *self.level_chains("            "),
                 "            above = n",
                 f"        if above > 0 and T[{rows} + 3 * _t + 1] != 0: continue",
                 f"        row = {table} + T[{rows} + 3 * _t] * {width}"]
        return lines + self.dispatch(calls), parts

    def level_chains(self, indent: str) -> list[str]:
        """Generate's lines that search, as a priority's templates have all run, the
        chains their first steps begin (see chains), so that their moves count among
        those found above the templates :meth:`skipped` (checkers' plain moves, where
        a man can jump): the moves in the end are the same, in the same order, as
        the priorities keep only the highest's, whose chains come after its own
        templates' moves either way."""
        if not self.partial_types:
            return []
        return [f"{indent}if T[XS + 2] > T[XS + 4]:",
                f"{indent}    n = chains(S, T, player, n)",
                f"{indent}    if n < 0: return n"]

    @staticmethod
    def dispatch(calls: list[str]) -> list[str]:
        """The lines in generate's loop over the templates that call the function of
        the template's shape (``T[row]``)."""
        lines = []
        for number, call in enumerate(calls):
            lines += [f"        {'if' if number == 0 else 'elif'} T[row] == {number}:",
                      f"            n = {call}"]
        return lines + ["        if n < 0: return n"]

    def shaped(self, bodies: list[list[str] | None], name: str, head: str, result: str
               ) -> tuple[str, int, int, list[str]]:
        """Functions ``name0``, ``name1``... of arguments ``head`` returning ``result``
        for the ``bodies`` (a template's lines each, None for none): one for the bodies
        whose sources differ in numbers alone (Stratego's 100 templates have 3 shapes),
        taking as arguments the numbers that differ among them. Their source, the table
        of each body's shape and numbers (a row of ``width`` from ``table``; shape -1:
        no body), and each shape's call reading its numbers from ``T[row + ...]``."""
        texts = [(index, "", "\n".join(line for line in lines
                                        if not line.lstrip().startswith("#")))
                 for index, lines in enumerate(bodies) if lines]
        parts = []
        rows: list[list[int]] = [[-1] for _ in bodies]
        calls = []
        for number, (text, members, varying) in enumerate(_shapes(texts)):
            args = "".join(f", c{j}" for j in range(len(varying)))
            parts.append(f"@njit(cache=True)\ndef {name}{number}({head}{args}):"
                         f"\n{text}\n    return {result}\n\n\n")
            for index, numbers in members:
                rows[index] = [number] + [int(numbers[k], 0) for k in varying]
            values = "".join(f", T[row + {j + 1}]" for j in range(len(varying)))
            calls.append(f"{name}{number}({head}{values})")
        width = max(map(len, rows))
        table = self.put(name + "s", [v for row in rows for v in row + [0] * (width - len(row))])
        return "".join(parts), table, width, calls

    def from_start(self, index: int, owned: bool) -> list[str]:
        """The lines of template ``index`` run once from the cell ``start`` (an attack's
        or a chain's step's function); ``owned``: only from a piece of ``player``'s
        (unless the template moves any player's pieces)."""
        t = self.templates[index]
        body: list[str] = []
        self.lines = body
        self.emit(1, f"hand = S[{BOARD} + start]")
        if owned:
            self.emit(1, "if hand == 0: return 0")
            if not t.shared:
                self.emit(1, f"if T[{self.owner} + hand] != player: return 0")
        if t.kinds:
            self.emit(1, f"if T[{self.kinds_mask(t.kinds)} + hand] == 0: return 0")
        for line in ("hf = start", "pos = start", "q = 0", "nc = 0", "mark = -1",
                     "to = -1", *(("rsv = 0",) if self.reserved else ())):
            self.emit(1, line)
        reset = len(body)
        self.block(t.program, 1, "return 0", index, t.priority)
        # Every flag and counter starts at 0 (see runs).
        body[reset:reset] = self.run_resets("    ")
        return body
