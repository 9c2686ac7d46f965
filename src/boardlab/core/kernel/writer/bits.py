"""The kernel's writer: board-wide filters of a template's starts, on boards of at most
64 cells.

A template's run from a start that fails in its first steps costs a few dependent reads
of the link table and the board for nothing, and most runs fail there: a draughts man
has a jump to try in each of its directions and rarely one to make, an Othello drop on
an empty cell flanks nothing in most directions. So, before a template runs, the cells
from which it may add a move are found at once for the whole board, as 64-bit masks:

* each test the board answers alone (``empty?``, ``friend?``, a piece's type, a zone)
  is a mask, those of pieces filled by ``generate`` once a generation, those of cells
  kept in the table; ``enemy?`` is neither empty nor a friend;
* a step in a direction whose links are one shift of the cell's index (a square
  board's) is a shift of a mask, and a test a step away (``AtStep``) the test's mask
  shifted back;
* the template's program is followed over every start at once (``_Walk``):
  tests narrow the starts where the cursor's path from the start is known, ``mark``
  and ``back`` keep and restore the path, both ways of a branch are followed and
  joined, flags keep the starts for which they may be set, and a walk while a test
  holds (Othello's line of discs) ends where a fixed point of masks says. What the
  walk cannot follow narrows nothing.

The template then runs only from the starts the filter keeps, in the order of their
cells as before, and each run tests everything again: a filter only drops starts whose
run adds no move, so the moves and their order are the interpreter's. Random playouts
per CPU-second with the filters against without: Breakthrough 2.0x, English checkers
1.37x, Othello 1.2x to 1.37x, ``reversi.zrf`` 1.33x; ``chess.zrf``, whose runs seldom
fail their first step, 0.9x (benchmarks/README.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from boardlab.core import rules as r
from boardlab.core.kernel.layout import BOARD

#: The tests a mask holds: what they read is the piece on the cell (or the cell's
#: own place) and the side to move, nothing a run or a chain changes.
_ATOMS = (r.Empty, r.Friend, r.Enemy, r.Neutral, r.PieceIs, r.InZone, r.InCells,
          r.PositionIs)

#: The most cells a mask of one machine word holds.
_WORD = 64


class _Bits:
    """The part of ``_Writer`` that writes the board-wide filters of the templates'
    starts (see the module docstring)."""

    def bit_reset(self) -> None:
        """Forget the masks (the templates are written again)."""
        #: The expression at cell ``c`` of each mask generate fills, by its index.
        self.bit_atoms: dict[str, int] = {}
        #: The functions that compute the filters: their bodies, named.
        self.filters: dict[str, str] = {}

    def shifts(self, d: str) -> int | None:
        """Where the table holds direction ``d`` as a shift, for each player (or the
        first only, where all see the links alike): the offset to the next cell and
        the mask of the cells that have one, two words a player; None when the links
        of some player are not one shift of the cell's index."""
        key = ("shift", d)
        if key in self.offsets:
            return self.offsets[key]
        rows = []
        for p in range(1 if self.same_links else self.players):
            links = self.board.player_links(p).get(d)
            if links is None:
                return None
            delta, valid = None, 0
            for cell, target in enumerate(links):
                if target < 0:
                    continue
                if delta is not None and target - cell != delta:
                    return None
                delta = target - cell
                valid |= 1 << cell
            # The mask as a signed word, as the table holds it.
            rows += [delta or 0, valid - (1 << _WORD) if valid >> (_WORD - 1) else valid]
        return self.put(key, rows)

    def before_step(self, mask: str, d: str) -> str | None:
        """The mask of the cells whose step in direction ``d`` lands on a cell of
        ``mask`` (None where ``d`` is no shift)."""
        row = self.shifts(d)
        if row is None:
            return None
        at = f"{row}" if self.same_links else f"{row} + 2 * player"
        return f"bits_back({mask}, T[{at}], T[{at} + 1])"

    def atom(self, expr: str) -> str:
        """The mask of the cells where the kernel's expression ``expr`` (at cell ``c``
        holding piece code ``_c``) holds. Where it reads the cell alone (a zone), the
        table holds the mask of each player; else generate fills it, once a
        generation. The expression is the kernel's own, evaluated here on the table
        where it reads no position, so both agree by construction."""
        if "_c" not in expr and "S[" not in expr:
            masks = []
            for player in range(self.players):
                held = [_value(expr, self.table, player=player, c=c) for c in range(self.size)]
                if None in held:
                    break  # (generate fills it)
                word = sum(1 << c for c, v in enumerate(held) if v)
                masks.append(word - (1 << _WORD) if word >> (_WORD - 1) else word)
            else:
                return f"np.uint64(T[{self.put(('cells mask', expr), masks)} + player])"
        j = self.bit_atoms.setdefault(expr, len(self.bit_atoms))
        return f"np.uint64(T[XB + {j}])"

    def starts(self, kinds: Any) -> str:
        """The mask of the mover's pieces (of ``kinds``, where given)."""
        mine = f"(T[{self.owner} + _c] == player)"
        if not kinds:
            return self.atom(mine)
        return self.atom(f"{mine} & (T[{self.kinds_mask(kinds)} + _c] != 0)")

    def bits(self, p: Any) -> str | None:
        """The mask of the cells where test ``p`` holds, or None where the board alone
        does not answer it."""
        everything = f"np.uint64({(1 << self.size) - 1})"
        if isinstance(p, r.Always | r.OnBoard):
            return everything
        if isinstance(p, r.Never):
            return "np.uint64(0)"
        if isinstance(p, r.Enemy):
            # A piece, not the mover's: neither empty nor a friend, as the predicates
            # say them (t_enemy), from the two masks those fill.
            return f"(~({self.bits(r.EMPTY)} | {self.bits(r.FRIEND)}) & {everything})"
        if isinstance(p, _ATOMS):
            return self.atom(self.TEST[type(p)](self, p, "c", "_c"))
        if isinstance(p, r.Not):
            inner = self.bits(p.test)
            return None if inner is None else f"(~{inner} & {everything})"
        if isinstance(p, r.AllOf | r.AnyOf):
            parts = [self.bits(q) for q in p.tests]
            if None in parts or not parts:
                return None
            return "(" + (" & " if isinstance(p, r.AllOf) else " | ").join(parts) + ")"
        if isinstance(p, r.AtStep):
            inner = self.bits(p.test)
            return None if inner is None else self.before_step(inner, p.direction)
        return None

    def start_filter(self, t: r.Template | r.Drop) -> str | None:
        """A call that gives the mask of the starts from which template ``t`` may add
        a move (see the module docstring and ``_Walk``): a function of the module
        (one for each distinct filter, inlined where it is called). None on a board of
        more cells than a word, for a run that may leave the board or moves any
        piece, or where the mask would only test the start's own cell (which the loop
        over the starts does)."""
        if self.size > _WORD or self.leaving or getattr(t, "shared", False):
            return None
        atoms = dict(self.bit_atoms)
        walk = _Walk(self)
        done = walk.program(t.program, _State((), (), None, {}))
        result = walk.result
        if done is None or result is None or \
                not any("bits_back(" in line for line in walk.lines):
            self.bit_atoms = atoms  # generate fills no mask this filter alone read
            return None
        body = "".join(f"    {line}\n" for line in walk.lines) + f"    return {result}\n"
        if body not in self.filters:
            self.filters[body] = f"starts{len(self.filters)}"
        return f"{self.filters[body]}(S, T, player)"

    def filter_functions(self) -> str:
        """The module's functions that compute the filters (with bits_back), or none."""
        if not self.filters:
            return ""
        return "\n\n" + BACK + "".join(
            f"\n\n@njit(cache=True, inline='always')\ndef {name}(S, T, player):\n{body}"
            for body, name in self.filters.items())

    def bit_scan(self) -> tuple[list[str], list[str], list[str]]:
        """Generate's lines for the masks: before the loop over the board's cells, in
        it (``c`` the cell), and after it. Each mask that reads the cell's piece code
        alone is a bit of one word the table holds for each player and code (the
        kernel's expression evaluated here): one read a cell for all of them."""
        if not self.bit_atoms:
            return [], [], []
        by_code = [(expr, j) for expr, j in self.bit_atoms.items()
                   if not re.search(r"\bc\b|S\[", expr) and all(
                       _value(expr, self.table, player=player, _c=code) is not None
                       for player in range(self.players) for code in range(self.ncodes))]
        rest = [(expr, j) for expr, j in self.bit_atoms.items() if (expr, j) not in by_code]
        # Unsigned: a signed shift into the sign bit is an overflow numba may let
        # LLVM assume away (see mix).
        before = [f"    _b{j} = np.uint64(0)" for j in self.bit_atoms.values()]
        inside = [f"        _c = S[{BOARD} + c]"]
        if by_code:
            words = self.put(("code masks", tuple(by_code)), [
                sum(1 << k for k, (expr, _) in enumerate(by_code)
                    if _value(expr, self.table, player=player, _c=code))
                for player in range(self.players) for code in range(self.ncodes)])
            inside.append(f"        _w = np.uint64(T[{words} + player * {self.ncodes} + _c])")
            inside += [f"        _b{j} |= ((_w >> np.uint64({k})) & np.uint64(1)) << np.uint64(c)"
                       for k, (_, j) in enumerate(by_code)]
        inside += [f"        _b{j} |= np.uint64({expr}) << np.uint64(c)" for expr, j in rest]
        after = [f"    T[XB + {j}] = np.int64(_b{j})" for j in self.bit_atoms.values()]
        return before, inside, after


#: The function the filters shift masks with (written into every module that has them).
BACK = """@njit(cache=True, inline='always')
def bits_back(x, d, v):
    # The cells of v whose step (the next cell's index is theirs plus d) lands on a
    # cell of the mask x.
    if d >= 0:
        return (x >> np.uint64(d)) & np.uint64(v)
    return (x << np.uint64(-d)) & np.uint64(v)
"""



#: Instructions that neither move the cursor or the mark nor change what the board's
#: tests read during the run (what they change waits for the move's end).
_STILL = (r.CaptureHere, r.CaptureAt, r.ChangeType, r.ChangeOwner, r.Create, r.SetVar, r.Inc,
          r.SetAttribute, r.SetPositionFlag, r.To, r.From, r.Cascade, r.DiscardCascades)

#: A mask that holds no start.
_NONE = "np.uint64(0)"


@dataclass(frozen=True)
class _Ray:
    """A cursor that took the steps of ``path``, then walked in ``direction`` while
    ``test`` held."""

    path: tuple[str, ...]
    direction: str
    test: Any


@dataclass(frozen=True)
class _State:
    """Where a run may be, as the filter follows it: the cursor's and the mark's
    paths from the start (the steps taken, or a walk after them, None once unknown),
    the starts from which the run gets here (``cond``, None for any), and for each
    flag the starts for which it may be set here (absent: set for none)."""

    cur: tuple[str, ...] | _Ray | None
    mark: tuple[str, ...] | _Ray | None
    cond: str | None
    flags: dict[str, str | None]


class _Walk:
    """Follows a template's program over every start at once, to find the starts from
    which it may reach an ``add``: a test the board answers narrows the starts where
    the cursor's path from the start is known, a step lengthens the path, ``mark``
    and ``back`` keep and restore it, a branch is followed both ways and the ways
    joined, a flag keeps the starts for which it may be set. What it cannot follow
    (a loop's body, a jump to a cell, a test of the run) narrows nothing, so the
    starts it keeps are a superset of those that add a move. Each mask is computed
    once, as a line of its own (``_k0 = ...``)."""

    def __init__(self, writer: Any):
        self.writer = writer
        self.lines: list[str] = []
        self.names: dict[str, str] = {}
        #: For each mask made by narrowing others, the masks it is a subset of.
        self.within: dict[str, set[str]] = {}
        #: The starts from which some ``add`` is reached (None: any).
        self.result: str | None = _NONE
        #: Whether a test the filter reads away from the start asks for what few
        #: cells hold (another player's piece, or a piece of some types): a filter
        #: of empty cells and the mover's own pieces keeps most starts and costs more
        #: than it saves (chess: 0.89x as many random games a second).
        self.rare = False

    def name(self, expr: str) -> str:
        if expr not in self.names:
            self.names[expr] = f"_k{len(self.names)}"
            self.lines.append(f"{self.names[expr]} = {expr}")
        return self.names[expr]

    def both(self, a: str | None, b: str | None) -> str | None:
        if a is None:
            return b
        # (``within[x]``: the masks x is a subset of.)
        if b is None or a == b or b in self.within.get(a, ()):
            return a
        if a in self.within.get(b, ()):
            return b
        if _NONE in (a, b):
            return _NONE
        both = self.name(f"{a} & {b}")
        self.within[both] = {a, b} | self.within.get(a, set()) | self.within.get(b, set())
        return both

    def either(self, a: str | None, b: str | None) -> str | None:
        if a is None or b is None:
            return None
        if a in (_NONE, b) or b in self.within.get(a, ()):
            return b
        if b == _NONE or a in self.within.get(b, ()):
            return a
        either = self.name(f"{a} | {b}")
        for part in (a, b):
            self.within.setdefault(part, set()).add(either)
        return either

    def at(self, test: Any, cur: tuple[str, ...] | _Ray | None) -> str | None:
        """The starts from which ``test`` holds where the cursor is (None: any)."""
        if cur is None:
            return None
        mask = self.writer.bits(test)
        if mask is None:
            return None
        mask = self.name(mask)
        if (cur or isinstance(cur, _Ray)) and _asks_for_few(test):
            self.rare = True
        if isinstance(cur, _Ray):
            mask = self.ray_end(cur, mask)
            if mask is None:
                return None
            path = cur.path
        else:
            path = cur
        for d in reversed(path):
            mask = self.name(self.writer.before_step(mask, d))
        return mask

    def ray_end(self, ray: _Ray, mask: str) -> str | None:
        """The cells from which a walk in the ray's direction while its test holds
        (each turn a step, which fails off the board) stops on a cell of ``mask``:
        those where the test fails and ``mask`` holds, and those where it holds and the
        next cell is one of them, to a fixed point (a walk of at most a word's cells)."""
        goes = self.writer.bits(ray.test)
        if goes is None:
            return None
        goes = self.name(goes)
        key = f"ray {ray.direction} {goes} {mask}"
        if key not in self.names:
            stops = self.name(f"{mask} & ~{goes}")
            g = self.names[key] = f"_k{len(self.names)}"
            self.lines += [f"{g} = {stops}",
                           "while True:",
                           f"    _kr = {stops} | ({goes} & "
                           f"{self.writer.before_step(g, ray.direction)})",
                           f"    if _kr == {g}: break",
                           f"    {g} = _kr"]
        return self.names[key]

    def program(self, program: Any, state: _State) -> _State | None:
        """``state`` after ``program``; None for an instruction it does not know
        (then no filter is written)."""
        for i in program:
            state = self.instruction(i, state)
            if state is None:
                return None
        return state

    def instruction(self, i: Any, s: _State) -> _State | None:
        kind = type(i)
        if kind is r.Verify:
            if isinstance(i.test, r.Flag):
                return replace(s, cond=self.both(s.cond, s.flags.get(i.test.name, _NONE)))
            return replace(s, cond=self.both(s.cond, self.at(i.test, s.cur)))
        if kind is r.Step:
            if i.may_leave or not isinstance(s.cur, tuple) or \
                    self.writer.shifts(i.direction) is None:
                return replace(s, cur=None)
            # A step off the board fails the run, but where nothing is tested there
            # the starts it keeps are a superset still: only a test narrows them (and
            # a test at the end of the path asks for every step on it).
            return replace(s, cur=(*s.cur, i.direction))
        if kind is r.Mark:
            return replace(s, mark=s.cur)
        if kind is r.MarkAt:
            return replace(s, mark=None)
        if kind is r.Back:
            return replace(s, cur=s.mark)
        if kind is r.GoTo or kind is r.Go:
            return replace(s, cur=s.mark if kind is r.Go and i.where == "mark" else None)
        if kind is r.Add:
            self.result = self.either(self.result, s.cond)
            return s
        if kind is r.SetFlag:
            flags = dict(s.flags)
            flags[i.name] = _NONE if i.value is False else s.cond
            return replace(s, flags=flags)
        if kind is r.If:
            return self.branch(i, s)
        if any(type(j) is r.While and not self.writer.ends(j) for j in r.instructions((i,))):
            # A loop that may not end fails the run with an error, which a filter must
            # not spare the interpreter's starts: no filter.
            return None
        if kind is r.While and isinstance(s.cur, tuple) and len(i.body) == 1 and \
                type(i.body[0]) is r.Step and not i.body[0].may_leave and \
                self.writer.shifts(i.body[0].direction) is not None and \
                self.writer.bits(i.test) is not None:
            # A walk while a test of the board holds: the cursor ends where it fails.
            return replace(s, cur=_Ray(s.cur, i.body[0].direction, i.test))
        if kind is r.While or kind is r.EveryCell:
            return self.loop(i, s)
        if isinstance(i, _STILL):
            return s
        return None

    def branch(self, i: r.If, s: _State) -> _State | None:
        if isinstance(i.test, r.Flag):
            yes, no = s.flags.get(i.test.name, _NONE), None
        else:
            # The way through ``else`` is left as wide as it came: a superset of the
            # starts that take it, without masks of its own (the two ways are joined
            # after, and a join with the way in is the way in).
            yes, no = self.at(i.test, s.cur), None
        a = self.program(i.then, replace(s, cond=self.both(s.cond, yes)))
        b = self.program(i.else_, replace(s, cond=self.both(s.cond, no)))
        if a is None or b is None:
            return None
        cond = self.either(a.cond, b.cond)
        flags = {f: self.either(a.flags.get(f, _NONE), b.flags.get(f, _NONE))
                 for f in {*a.flags, *b.flags}}
        return _State(a.cur if a.cur == b.cur else None,
                      a.mark if a.mark == b.mark else None, cond, flags)

    def loop(self, i: r.While | r.EveryCell, s: _State) -> _State | None:
        """A loop's body, run any number of times (an ``EveryCell``'s, from each cell,
        each run forgotten after): its adds and flags count for every start that gets
        to the loop; the cursor and the mark are unknown after it where it moves
        them."""
        flags = dict(s.flags)
        moves = marks = False
        for j in r.instructions(i.body):
            if type(j) is r.Add:
                self.result = self.either(self.result, s.cond)
            elif type(j) is r.SetFlag and j.value is not False:
                flags[j.name] = self.either(flags.get(j.name, _NONE), s.cond)
            elif type(j) in (r.Step, r.Back, r.GoTo, r.Go):
                moves = True
            elif type(j) in (r.Mark, r.MarkAt):
                marks = True
            elif not isinstance(j, (r.Verify, r.SetFlag, r.If, r.While, r.EveryCell, *_STILL)):
                return None
        if type(i) is r.EveryCell:
            return s  # each cell's run is forgotten after the last
        return _State(None if moves else s.cur, None if marks else s.mark, s.cond, flags)


def _asks_for_few(test: Any) -> bool:
    """Whether ``test`` holds only where some piece stands: an enemy, or a piece of
    some types (not under a negation)."""
    if isinstance(test, r.Enemy | r.PieceIs):
        return True
    if isinstance(test, r.AllOf):
        return any(map(_asks_for_few, test.tests))
    if isinstance(test, r.AnyOf):
        return bool(test.tests) and all(map(_asks_for_few, test.tests))
    if isinstance(test, r.AtStep):
        return _asks_for_few(test.test)
    return False


def _value(expr: str, table: list[int], **names: int) -> bool | None:
    """The kernel's expression ``expr`` evaluated on the table as written so far, with
    ``names`` (the side to move, a cell or a piece code); None where it reads anything
    else (then generate evaluates it)."""
    try:
        return bool(eval(expr, {"__builtins__": {}, "T": table, **names}))  # noqa: S307
    except (NameError, IndexError, TypeError):
        return None
