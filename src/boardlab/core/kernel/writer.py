"""The source of a game's kernel module: its writer (``_Writer``) visits the game's
templates, predicates and goals and writes, for each, the numba functions that play
it, then the functions every kernel shares (make and undo, the registry, perft, random
playouts)."""

from __future__ import annotations

import ast
import builtins
import hashlib
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from boardlab.core import goals as g
from boardlab.core import ir
from boardlab.core import rules as r
from boardlab.core.move import (
    Piece,
)
from boardlab.core.position import PieceGame

if TYPE_CHECKING:
    pass

from boardlab.core.kernel.checks import _combination, _tests, leaves
from boardlab.core.kernel.layout import (
    _ARENA,
    _BUCKETS,
    _CAPTURE,
    _CHANGE,
    _CHANGES,
    _EDGES,
    _FOOT,
    _HIST,
    _KINDS,
    _MASK64,
    _NODES,
    _NOTE,
    _PLACE,
    _QUEUE,
    _RHEAD,
    _RWORDS,
    _SHIFT,
    _STEP_MARK,
    _STEPS,
    _TOUCH,
    BOARD,
    DEPTH,
    FOLLOW,
    KEY,
    LAST,
    MAX_MOVES,
    MOVER,
    NEAR,
    NMOVES,
    PLY,
    REPS,
    SINCE,
    STATUS,
    TAKEN,
    TO_MOVE,
    TURNS,
    UNKNOWN,
    Status,
    Unsupported,
    _guarded,
    _signed,
    _taken_at,
    _taken_bits,
    pass_index,
)

# The source of a game's kernel module.


#: The most adds of plain templates whose moves generate writes out (see _Writer.inline).
_INLINE_ADDS = 32


#: The most lines of after (a line of it may be a call of an inlined test) that a
#: playout inlines in its loop (see _Writer.resolve).
_INLINED_AFTER = 40


#: The most lines of the templates that generate holds itself; more are written as
#: functions it calls (see _Writer.split): numba's compile time grows faster than a
#: function's length (Stratego's 100 templates, 2,300 lines in one function: 165 s),
#: and a call of each costs (English checkers' 366 lines: a first use of 17.6 s of CPU
#: in one function against 16.0 s split, its random playouts 1.25x as fast).
_SPLIT_LINES = 400


#: A number of the generated source (not one inside a name).
_NUMBER = re.compile(r"(?<![\w.])(0x[0-9A-Fa-f]+|\d+)(?![\w.])")


#: The locals a template's loops name (and every-cell's saved locals), numbered across
#: the whole module.
_LOOP_LOCAL = re.compile(r"\b_([fie])\d+\b")


#: The fewest instructions a subtree repeated in a template holds to be written as a
#: function of its own (see _repeated), and the locals of a run such a function takes
#: and gives back (with the run's flags and counters).
_ROUTINE_SIZE = 12


_RUN_STATE = ("pos", "q", "nc", "mark", "to", "hand", "hf", "n", "rsv", "ps")


_RETURN = re.compile(r"^([^#]*?\breturn )(.+)$")


def _repeated(templates: Sequence[r.Template]) -> frozenset[r.Instruction]:
    """The compound instructions that occur more than once in one template's program
    and hold at least ``_ROUTINE_SIZE`` instructions, the outermost of them: each is
    written once, as a function the run calls (see :meth:`_Writer.routine`).

    numba's passes over one function grow faster than its length: shogi.zrf's pawn
    drop, its uchifuzume test written out 18 times by macros (1,783 lines), took 182 s
    and 5 GB to compile.

    >>> from boardlab.core.ir import Add, If, Empty, Step
    >>> from boardlab.core.rules import Template
    >>> big = If(Empty(), (Step("n"),) * 10 + (Add(),))
    >>> _repeated([Template(program=(big, Step("e"), big))]) == {big}
    True
    >>> _repeated([Template(program=(big, Step("e")))])
    frozenset()
    """
    chosen: set[r.Instruction] = set()

    def walk(program: Sequence[r.Instruction], counts: Counter) -> None:
        for i in program:
            if counts[i] > 1 and sum(1 for _ in r.instructions((i,))) >= _ROUTINE_SIZE:
                chosen.add(i)
            elif isinstance(i, r.If):
                walk(i.then, counts)
                walk(i.else_, counts)
            elif isinstance(i, r.While | r.EveryCell):
                walk(i.body, counts)

    for t in templates:
        program = getattr(t, "program", ())
        walk(program, Counter(i for i in r.instructions(program)
                              if isinstance(i, r.If | r.While | r.EveryCell)))
    return frozenset(chosen)


#: The instructions that queue an action or a change, or move the piece in hand.
_QUEUING = (r.CaptureHere, r.CaptureAt, r.To, r.From, r.Cascade, r.DiscardCascades,
            r.Create, r.ChangeType, r.ChangeOwner, r.SetAttribute)


#: A local set to a bare integer, and an argument that is one (or a bool).
_CONSTANT_SET = re.compile(r"^(\s*)(\w+) = (-?(?:0x[0-9A-Fa-f]+|\d+))$", re.MULTILINE)


_CONSTANT = re.compile(r"\s*(-?(?:0x[0-9A-Fa-f]+|\d+)|True|False)\s*")


#: A function of a kernel's source: its decorator, name and arguments.
_FUNCTION = re.compile(r"^(@njit\([^\n]*\))\ndef (\w+)\(([^)]*)\):\n", re.MULTILINE)


def _shapes(texts: Iterable[tuple[Any, Any, str]]
            ) -> list[tuple[str, list[tuple[Any, list[str]]], list[int]]]:
    """Source ``texts`` (each a tag, a group and a text) put together where they are of
    one group and differ in numbers alone (their loops' locals numbered afresh in each:
    see _LOOP_LOCAL): for each such shape its text with the numbers that differ among
    its members as parameters ``c0``, ``c1``..., its members (each one's tag and
    numbers) and where the numbers that differ are among them.

    >>> _shapes([(0, "", "x = T[5] + _i7"), (1, "", "x = T[9] + _i8"), (2, "", "y = 1")])
    [('x = T[c0] + _i0', [(0, ['5']), (1, ['9'])], [0]), ('y = 1', [(2, ['1'])], [])]
    """
    groups: dict[tuple[Any, str], list[tuple[Any, list[str]]]] = {}
    for tag, group, text in texts:
        loops: dict[str, str] = {}
        text = _LOOP_LOCAL.sub(lambda m, loops=loops: loops.setdefault(
            m.group(0), f"_{m.group(1)}{len(loops)}"), text)
        shape = _NUMBER.sub("{}", text.replace("{", "{{").replace("}", "}}"))
        groups.setdefault((group, shape), []).append((tag, _NUMBER.findall(text)))
    out = []
    for (_, shape), members in groups.items():
        first = members[0][1]
        varying = [k for k in range(len(first))
                   if len({numbers[k] for _, numbers in members}) > 1]
        params = {k: f"c{j}" for j, k in enumerate(varying)}
        out.append((shape.format(*(params.get(k, v) for k, v in enumerate(first))),
                    members, varying))
    return out


def _merge_shapes(source: str) -> tuple[str, dict[str, tuple[str, list[str]]]]:
    r"""The functions of ``source`` (helpers: goals, counts...) with those whose text
    differs in numbers alone written once, the numbers that differ among them taken
    as arguments; and, by the name of each function merged, the name of the one that
    replaces it and the numbers its calls add (see :func:`_rename_calls`).

    numba's cost is per function compiled: tic-tac-toe's 16 lines, each a function
    that looks for it on the whole board at the start and one near the last move, took
    11 s. Functions inlined in numba's IR (``inline='always'``: the hot paths, each
    call site compiled again) are kept as they are; the others merge.

    >>> text, renames = _merge_shapes("@njit(cache=True)\n"
    ...     "def g0(S, T, p):\n    return T[5 + p] + 1\n\n\n"
    ...     "@njit(cache=True)\ndef g1(S, T, p):\n    return T[9 + p] + 1\n\n\n")
    >>> print(text)
    @njit(cache=True)
    def g0_shape(S, T, p, c0):
        return T[c0 + p] + 1
    <BLANKLINE>
    <BLANKLINE>
    <BLANKLINE>
    >>> renames
    {'g0': ('g0_shape', ['5']), 'g1': ('g0_shape', ['9'])}
    """
    starts = [m.start() for m in _FUNCTION.finditer(source)]
    if not starts:
        return source, {}
    chunks = [source[a:b] for a, b in zip(starts, [*starts[1:], len(source)], strict=True)]
    texts = []
    for at, chunk in enumerate(chunks):
        m = _FUNCTION.match(chunk)
        assert m is not None
        decorator, name, args = m.groups()
        body = chunk[m.end():]
        if decorator == "@njit(cache=True)" and not re.search(rf"\b{name}\(", body):
            texts.append(((at, name), args, body))  # not inlined, nor recursive
    merged: dict[int, str] = {}  # the function written where each chunk was, if another
    renames: dict[str, tuple[str, list[str]]] = {}
    for text, members, varying in _shapes(texts):
        if len(members) < 2:
            continue
        (first, name), _ = members[0]
        args = next(args for (at, _), args, _ in texts if at == first)
        merged[first] = (f"@njit(cache=True)\ndef {name}_shape({args}"
                         f"{''.join(f', c{j}' for j in range(len(varying)))}):\n" + text)
        for (at, member), numbers in members:
            merged.setdefault(at, "")
            renames[member] = (f"{name}_shape", [numbers[k] for k in varying])
    return source[:starts[0]] + "".join(merged.get(at, chunk)
                                        for at, chunk in enumerate(chunks)), renames


def _rename_calls(source: str, renames: dict[str, tuple[str, list[str]]]) -> str:
    """``source`` with each call of a function ``renames`` names made to the function
    that replaces it, with the numbers it adds (see :func:`_merge_shapes`).

    >>> _rename_calls("x = g1(S, f(T), 2) + g10(S)", {"g1": ("g", ["9"])})
    'x = g(S, f(T), 2, 9) + g10(S)'
    """
    if not renames:
        return source
    call = re.compile(r"\b(" + "|".join(sorted(map(re.escape, renames), key=len,
                                               reverse=True)) + r")\(")
    out: list[str] = []
    at = 0
    for m in call.finditer(source):
        if m.start() < at:
            continue
        depth, end = 1, m.end()
        while depth:  # the call's closing parenthesis
            depth += {"(": 1, ")": -1}.get(source[end], 0)
            end += 1
        merged, numbers = renames[m[1]]
        out.append(f"{source[at:m.start()]}{merged}({source[m.end():end - 1]}"
                   f"{''.join(', ' + n for n in numbers)})")
        at = end
    out.append(source[at:])
    return "".join(out)


def _unliteral(source: str) -> str:
    """``source`` with every integer a local is set to, and every integer or bool passed
    to a function of the module, written ``np.int64(...)``.

    numba compiles a function called from compiled code once for each combination of
    *literal* arguments it meets (a constant, or a local last set to one, even for a
    moment while the caller's types are inferred): a template written out with a
    constant cell, index or flag compiled once per value. An ``np.int64`` is typed as a
    plain integer, so each function compiles once (Minishogi's kernel: a function of
    1,000 lines compiled twice, ``attacked?`` 18 times).

    >>> print(_unliteral("def f(a, b):\\n    return a\\n\\n\\ndef g(S):\\n    x = 0\\n"
    ...                  "    return f(x, 3) + f(f(S[0], -1), True)\\n"))
    def f(a, b):
        return a
    <BLANKLINE>
    <BLANKLINE>
    def g(S):
        x = np.int64(0)
        return f(x, np.int64(3)) + f(f(S[0], np.int64(-1)), np.int64(1))
    <BLANKLINE>
    """
    source = _CONSTANT_SET.sub(lambda m: f"{m[1]}{m[2]} = np.int64({m[3]})", source)
    names = set(re.findall(r"^def (\w+)\(", source, re.MULTILINE))
    if not names:
        return source
    calls = re.compile(r"(?<![\w.])(" + "|".join(sorted(names)) + r")\(")
    return _calls_unliteral(source, calls)


#: The kernel's arrays (the position, the tables, the history, a playout's start and
#: results), indexed by :func:`_unsigned_indexes`.
_ARRAYS = frozenset({"S", "S0", "T", "H", "R"})


@lru_cache(maxsize=32)  # the same games are loaded again and again (a server's matches)
def _unsigned_indexes(source: str) -> str:
    """``source`` with every index into the kernel's arrays that is not a constant
    written ``np.uint64(...)``.

    numba turns a negative signed index into one from the end (``S[-1]``: the last
    word), two more instructions on the address of every load and store; in generate
    they lengthen each chain of loads that depend on each other (a cell's link, the
    piece there, its owner). No index the writer makes is negative: a link of -1 is
    tested before it is followed (and the tests play every kernel against the
    interpreter). Connect Four's playouts: 568k -> 749k a CPU-second; English checkers
    35k -> 41k. Positions come from the syntax tree, so comments stay.

    >>> print(_unsigned_indexes("x = S[36 + T[c]] + H[h, 5] + S[-1] + T[a:b][0]\\n"), end="")
    x = S[np.uint64(36 + T[np.uint64(c)])] + H[np.uint64(h), 5] + S[-1] + T[a:b][0]
    """
    edits: dict[int, list[tuple[int, str]]] = {}
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
                and node.value.id in _ARRAYS):
            continue
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        for part in parts:
            if isinstance(part, (ast.Slice, ast.Constant)) or (
                    isinstance(part, ast.UnaryOp) and isinstance(part.operand, ast.Constant)):
                continue
            assert part.end_lineno is not None and part.end_col_offset is not None
            edits.setdefault(part.lineno, []).append((part.col_offset, "np.uint64("))
            edits.setdefault(part.end_lineno, []).append((part.end_col_offset, ")"))
    lines = source.splitlines(keepends=True)
    for number, inserts in edits.items():
        # Columns count UTF-8 bytes; from the right, so earlier columns keep their place.
        line = lines[number - 1].encode()
        for column, text in sorted(inserts, reverse=True):
            line = line[:column] + text.encode() + line[column:]
        lines[number - 1] = line.decode()
    return "".join(lines)


def _calls_unliteral(text: str, calls: re.Pattern[str]) -> str:
    """``text`` with the constant arguments of its calls of ``calls`` (nested ones too)
    written ``np.int64(...)``; a function's own ``def`` line is left as it is."""
    out: list[str] = []
    at = 0
    for found in calls.finditer(text):
        start = found.end()
        if start <= at or text.startswith("def ", max(0, found.start() - 4)):
            continue  # inside a call rewritten already, or a def
        depth, i, args, begin = 1, start, [], start
        while depth:
            c = text[i]
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            if (c == "," and depth == 1) or depth == 0:
                args.append(text[begin:i])
                begin = i + 1
            i += 1
        pieces = []
        for arg in args:
            constant = _CONSTANT.fullmatch(arg)
            if constant is None:
                pieces.append(_calls_unliteral(arg, calls))
            else:
                value = {"True": "1", "False": "0"}.get(constant[1], constant[1])
                pieces.append(f"{arg[:len(arg) - len(arg.lstrip())]}np.int64({value})")
        out.append(text[at:start] + ",".join(pieces) + ")")
        at = i
    out.append(text[at:])
    return "".join(out)


def _apart(templates: Sequence[r.Template], board: Any, players: int,
           chained: Iterable[int] = ()) -> set[int]:
    """The priorities whose moves a position has all differ: where every template is a
    straight run of steps and tests ending in one plain add (or in an if of two), and,
    from each cell, the cells where the templates of the priority that may move its
    piece (their kinds meet) put it all differ and differ from it (each move then has a
    shift of its own). The kernel keeps the moves of those priorities as they come,
    looking for none equal (the interpreter drops equal moves). Templates that go on
    with chains (``chained``) keep their priority out.

    A drop whose run only steps and tests (in loops too) places its piece on a cell its
    steps reach from its start, one whose run is surely back on its start at its one add
    on that start: its moves differ when those cells differ for every two starts of the
    drops of a priority that place the same piece (and a drop never equals a move from
    a cell, which has a shift)."""
    def plain(add: Any) -> bool:
        return type(add) is r.Add and not add.copy and add.partial is None

    lands: dict[int, list[tuple[frozenset[str], list[int]]]] = {}
    reached: dict[tuple, dict[int, tuple[int, int]]] = {}
    out: set[int] = set()
    mixed: set[int] = {templates[k].priority for k in chained}
    for index, t in enumerate(templates):
        out.add(t.priority)
        program = t.program
        if type(t) is r.Drop:
            if not _drops_apart(index, t, board, players, reached):
                mixed.add(t.priority)
            continue
        last = program[-1] if program else None
        if type(t) is not r.Template or not program or any(
                type(i) not in (r.Step, r.Verify) or (type(i) is r.Step and i.may_leave)
                for i in program[:-1]) or not (plain(last) or (
                    type(last) is r.If and len(last.then) == len(last.else_) == 1
                    and plain(last.then[0]) and plain(last.else_[0]))):
            mixed.add(t.priority)
            continue
        steps = [i.direction for i in program if type(i) is r.Step]
        row = []
        for player in range(players):
            links = board.player_links(player)
            for cell in range(board.size):
                pos = cell
                for d in steps:
                    pos = links[d][pos] if pos >= 0 else -1
                row.append(pos)
        lands.setdefault(t.priority, []).append((frozenset(t.kinds), row))
    for priority, group in lands.items():
        for at in range(players * board.size):
            if any(row[at] == at % board.size for _, row in group):
                mixed.add(priority)
            for a, (kinds, row) in enumerate(group):
                for other, row2 in group[a + 1:]:
                    if row[at] >= 0 and row[at] == row2[at] and (
                            not kinds or not other or kinds & other):
                        mixed.add(priority)
    return out - mixed


def _acyclic(edges: Sequence[Sequence[int]]) -> bool:
    """Whether the graph of these out-edges (by node) has no cycle (Kahn's order)."""
    into = [0] * len(edges)
    for out in edges:
        for v in out:
            into[v] += 1
    ready = [v for v, k in enumerate(into) if k == 0]
    seen = 0
    while ready:
        u = ready.pop()
        seen += 1
        for v in edges[u]:
            into[v] -= 1
            if into[v] == 0:
                ready.append(v)
    return seen == len(edges)


#: Instructions that neither move nor add (a run's flags, tests and changes).
_IN_PLACE = (r.Verify, r.SetFlag, r.SetVar, r.Inc, r.SetPositionFlag, r.ChangeType,
             r.ChangeOwner, r.SetAttribute)


def _back_at_start(program: Sequence[r.Instruction], pos: bool, mark: bool
                   ) -> tuple[bool, bool] | None:
    """Whether a run is surely on its start, and its mark there, after ``program``
    (given whether they were before): None where it adds or does what this does not
    follow. A run's mark starts on its start (back with no mark goes there)."""
    for i in program:
        if isinstance(i, r.Step):
            pos = False
        elif type(i) is r.Mark:
            mark = pos
        elif type(i) is r.Back:
            pos = mark
        elif isinstance(i, r.If):
            then = _back_at_start(i.then, pos, mark)
            other = _back_at_start(i.else_, pos, mark)
            if then is None or other is None:
                return None
            pos, mark = then[0] and other[0], then[1] and other[1]
        elif isinstance(i, r.While):
            # Any number of turns: what holds before and after every turn.
            while True:
                turn = _back_at_start(i.body, pos, mark)
                if turn is None:
                    return None
                if (pos and turn[0], mark and turn[1]) == (pos, mark):
                    break
                pos, mark = pos and turn[0], mark and turn[1]
        elif not isinstance(i, _IN_PLACE):
            return None
    return pos, mark


def _drops_apart(index: int, t: r.Drop, board: Any, players: int,
                 reached: dict[tuple, dict[int, tuple[int, int]]]) -> bool:
    """Whether the cells drop ``t`` (template ``index``) can place its piece on, from
    each of its starts, are apart from those of every other start of the drops of
    its priority and piece met so far (kept in ``reached``); see :func:`_apart`."""
    def steps_only(program: Sequence[r.Instruction]) -> bool:
        return all(type(i) is r.Verify or (type(i) is r.Step and not i.may_leave) or (
            type(i) is r.While and steps_only(i.body)) for i in program)

    program = t.program
    if not program:
        return False
    last = program[-1]
    if type(last) is not r.Add or last.copy or last.partial is not None:
        return False
    if steps_only(program[:-1]):
        directions = {i.direction for i in r.instructions(program) if type(i) is r.Step}
    elif (_back_at_start(program[:-1], True, True) or (False,))[0]:
        directions = set()  # its one move places the piece on its start
    else:
        return False
    for player in range(players):
        links = board.player_links(player)
        if t.zone is not None:
            starts: Iterable[int] = sorted(board.zones[t.zone].get(player, ()))
        else:
            starts = t.cells if t.cells is not None else range(board.size)
        seen = reached.setdefault((t.priority, t.kinds[0], t.attributes, player), {})
        for start in starts:
            todo, here = [start], {start}
            while todo:
                cell = todo.pop()
                for d in directions:
                    nxt = links[d][cell]  # type: ignore[index]
                    if nxt >= 0 and nxt not in here:
                        here.add(nxt)
                        todo.append(nxt)
            for cell in here:
                if seen.setdefault(cell, (index, start)) != (index, start):
                    return False
    return True


def _settled_together(first: r.Instruction, second: r.Instruction) -> bool:
    """Whether two instructions in a row give the piece on one cell to the mover and
    a type (in either order): each sets a field of its own, so made one after the
    other (rules.emit) they change a piece exactly as made at once, and only when
    each alone does."""
    pair = {type(first), type(second)}
    return pair == {r.ChangeOwner, r.ChangeType} and \
        (first.cell, first.direction) == (second.cell, second.direction) and \
        not any(isinstance(i, r.ChangeOwner) and i.flip for i in (first, second))


class _Writer:
    """Writes a game's kernel module and the table its functions read."""

    #: The method that writes each instruction type (filled in below the class).
    WRITE: ClassVar[dict[type, Callable[..., None]]] = {}
    #: The method that writes each test type as an expression (filled in below the class).
    TEST: ClassVar[dict[type, Callable[..., str]]] = {}

    def __init__(self, game: PieceGame, goals: g.Goals, templates: tuple[r.Template, ...]):
        self.game = game
        self.goals = goals
        self.templates = templates
        self.board = game.board
        self.size = self.board.size
        self.players = game.num_players
        self.pieces: tuple[Piece | None, ...] = (None, *_pieces(game, templates))
        self.codes = {p: i for i, p in enumerate(self.pieces) if p is not None}
        if self.size * len(self.pieces) > 4_000_000:
            raise Unsupported("too many pieces for a key of each on each cell")
        self.ncodes = len(self.pieces)
        #: The pieces in hand the positions count (a PieceState's reserves' keys), when
        #: the game has any or drops from them: each code's count is kept in the array
        #: after the board's counts, and a move that drops one touches it as a cell
        #: past the board's (``HAND`` + code).
        self.hand = tuple(game.ruleset.reserves)
        #: Whether a captured piece goes to its owner's hand (ZRF ``recycle captures``):
        #: the hand must count every piece a move can take.
        self.recycle = bool(game.ruleset.recycle_captures)
        if self.recycle:
            kept = set(self.hand)
            for piece in self.pieces[1:]:
                if piece.owner >= 0 and piece not in kept:
                    raise Unsupported(f"{piece} may be taken into a hand that does not "
                                      "count it")
        #: Whether a promotion takes its new piece from the hand (ZRF ``recycle
        #: promotions``): the hand's pieces in order, and each piece's owner and type
        #: as one number, to find the first of them the hand holds (rules.in_hand).
        self.recycle_promotions = bool(game.ruleset.recycle_promotions)
        self.reserved = bool(self.hand) or self.recycle or self.recycle_promotions or any(
            type(t) is r.Drop and set(range(self.players)) - t.unlimited_for
            for t in templates)
        self.table: list[int] = []
        self.offsets: dict[Any, int] = {}
        self.directions: dict[str, int] = {}
        #: By set of directions, whether no walk along them comes back (see ends).
        self.acyclic: dict[frozenset[str], bool] = {}
        #: Whether every player sees the directions alike (no symmetry turns them):
        #: the kernel then reads the first player's links for all.
        self.same_links = all(self.board.player_links(p) == self.board.player_links(0)
                              for p in range(1, self.players))
        self.lines: list[str] = []
        self.helpers: list[str] = []
        #: The function a playout's moves judge the position by: after, or its copy
        #: inlined in run (see resolve).
        self.after_run = "after"
        self.loops = 0
        #: The locals of the runs' flags and counters, by name.
        self.variables: dict[str, str] = {}
        #: Whether a run asks ``attacked?`` or ``defended?`` (rules.Attacked), and the
        #: codes of the move types they name.
        self.asks_attacks = any(isinstance(p, r.Attacked) for t in templates
                                for p in _tests(t.program))
        self.attack_types = {name: code for code, name in enumerate(dict.fromkeys(
            p.move_type for t in templates for p in _tests(t.program)
            if isinstance(p, r.Attacked) and p.move_type is not None))}
        #: The names of the cells' flags a run sets (ZRF position flags), numbered.
        self.position_flags: dict[str, int] = {}
        self.owner = self.put("owner", [-1] + [p.owner for p in self.pieces[1:]])
        # The keys are the position class's own (the kernel's keys equal a plain
        # position's): a piece's on each cell, and the side to move's at each turn of
        # the turn order, read from an empty position of that turn.
        empty: list[Piece | None] = [None] * self.size
        proto = game.state_class(game, empty, 0, {}, 0)
        try:
            self.zobrist = self.put("zobrist", [_signed(proto._piece_key(cell, piece))
                                                for cell in range(self.size)
                                                for piece in self.pieces[1:]])
        except ValueError as error:
            raise Unsupported(f"a piece without a key ({error})") from None
        order = game.ruleset.turn_order
        self.turns, self.repeat_from = order if order is not None else ((0,), 0)
        self.alternate = order is None
        # (With no turns played: a key that reads them has their part apart.)
        more = {} if game.turns_limit is None else {"turns": 0}
        self.sides = self.put("sides", [
            _signed(game.state_class(game, empty, player, {}, turn, **more).key())
            for turn in range(len(self.turns)) for player in range(self.players)])
        #: The keys of the turns played, up to the most a goal counts (turns_limit), when
        #: the key reads them.
        self.turns_keys = -1
        if game.turns_limit is not None:
            self.turns_keys = self.put("turns keys", [
                _signed(game.turns_key(t)) for t in range(game.turns_limit + 1)])
        self.turn_players = self.put("turn players", self.turns)
        #: What each turn allows (rules.TurnLimits): a table of the move type's code
        #: each turn allows (-1: any) and one of the player whose pieces it moves (-1:
        #: the side to move); None when every turn allows every move of its player.
        self.limits = game.move_rules.turns
        self.limit_types: dict[str, int] = {}
        if self.limits is not None:
            self.limit_types = {name: code for code, name in enumerate(dict.fromkeys(
                t for t in self.limits.move_types if t is not None))}
            self.put("turn types", [-1 if t is None else self.limit_types[t]
                                    for t in self.limits.move_types])
            self.put("turn movers", [-1 if m is None else m for m in self.limits.movers])
        #: The move that may follow a move in its turn (rules.FollowUp; never with turn
        #: limits, see _check): its move type is the one a turn with one due allows,
        #: code 0 of the follow-ups (S[FOLLOW]) and of the allowed types (T[XY]).
        self.follow_up = game.move_rules.follow_up
        self.follows: tuple[str, ...] = ()
        self.follow_keys = -1
        if self.follow_up is not None:
            self.follows = (self.follow_up.name,)
            if self.follow_up.move_type is not None:
                self.limit_types = {self.follow_up.move_type: 0}
            # By code + 1 (0: none due), the position class's own keys.
            self.follow_keys = self.put("follow keys", [0] + [
                _signed(game.follow_key(t)) for t in self.follows])
        self.limit = game.ruleset.ply_limit or 0
        # Read from the table, not written in the source: a game whose options change
        # its ply limit alone (a move limit) keeps its kernel, compiled once.
        self.put("ply limit", [self.limit])
        self.has_groups = False
        #: Where the keys of the last move's cells are, when the position's key reads
        #: them (a ZRF game whose rules read the last move): the source's part by
        #: source + 1 (0: none), then the target's by target.
        #: Whether the goals count repetitions (so make counts the position's).
        self.repeats = goals.reads(g.Repetition)
        #: Whether no move of the game ever adds a piece to the board (no drop, hand,
        #: creation or copy): a position after a move that took a piece then has fewer
        #: pieces than every one before, none of which can occur again, and make
        #: counts the repetitions of a position from the last such move on (SINCE).
        self.shrinking = self.repeats and not self.reserved and all(
            type(t) is r.Template and not any(
                isinstance(i, r.Create) or isinstance(i, r.Add) and i.copy
                for i in r.instructions(t.program)) for t in templates)
        #: The kinds of each Captured goal: what the last move took is kept as a bit
        #: for each of them and each player, set when it took a piece of theirs of
        #: those kinds (the table's ``taken`` row says which bits a piece sets).
        self.taken = tuple(dict.fromkeys(frozenset(goal.kinds) for goal in goals.leaves()
                                         if isinstance(goal, g.Captured)))
        if len(self.taken) * self.players > 62:
            raise Unsupported("too many captured goals")
        self.taken_bits = self.put("taken", [0] + [
            _taken_bits(self.taken, self.players, (piece,)) for piece in self.pieces[1:]])
        self.last_keys = -1
        if getattr(game, "tracks_last_move", False):
            self.last_keys = self.put("last keys", _last_keys(game))
        # The keys of each piece's count in hand, the position class's own (which
        # stop changing at some count: 63 for a PieceState, 255 for a ZRF position).
        self.hand_keys = self.put("hand keys", [
            _signed(proto._reserve_key(piece, count)) if piece in self.hand else 0
            for piece in self.pieces if self.reserved for count in range(_HAND_KEYS)])
        if self.recycle_promotions:
            sorts = {(p.owner, p.kind): k for k, p in enumerate(self.pieces[1:], 1)}
            self.sorts = self.put("piece sorts", [0] + [sorts[(p.owner, p.kind)]
                                                       for p in self.pieces[1:]])
            order = self.put("hand order", [self.codes[p] for p in self.hand])
            self.helpers.append(
                "@njit(cache=True)\n"
                "def inhand(S, T, piece):\n"
                "    # The first piece of the hand of ``piece``'s owner and type it holds\n"
                "    # one of (rules.in_hand), or -1.\n"
                f"    for i in range({len(self.hand)}):\n"
                f"        c = T[{order} + i]\n"
                f"        if T[{self.sorts} + c] == T[{self.sorts} + piece] and S[RES + c] > 0:\n"
                "            return c\n"
                "    return -1\n")
        #: The move types of the partial moves (ZRF ``add-partial``; "" for none), whose
        #: codes the steps of chains carry, and for each the templates that go on with
        #: it (see chains); none when the rules make no partial move.
        self.partial_types = list(dict.fromkeys(
            i.partial for t in templates for i in r.instructions(t.program)
            if isinstance(i, r.Add) and i.partial is not None))
        self.going_on: list[list[int]] = []
        for name in self.partial_types:
            # A partial move of no type goes on with any move of the piece (turn._chains).
            going = [k for k, t in enumerate(templates)
                     if (t.move_type == name if name else type(t) is r.Template)]
            if any(type(templates[k]) is not r.Template for k in going):
                raise Unsupported(f"a drop or a group goes on with partial moves of {name!r}")
            self.going_on.append(going)
        #: The templates whose moves are a piece's step alone (``shift``): from a cell
        #: of the board, nothing queued, nothing changed, nothing copied, no chain.
        self.plain = {index for index, t in enumerate(templates)
                      if type(t) is r.Template and not self.recycle_promotions and all(
                          not isinstance(i, _QUEUING) and not (
                              isinstance(i, r.Add) and (i.copy or i.partial is not None))
                          for i in r.instructions(t.program))}
        #: The drops whose moves are their piece placed and changes of type or owner
        #: (nothing else queued, nothing copied, no chain), written out where they add
        #: them (:meth:`drop_lines`) when they add few; those that change nothing.
        self.plain_drops = {
            index for index, t in enumerate(templates)
            if type(t) is r.Drop and not self.recycle_promotions and all(
                not isinstance(i, _QUEUING) or isinstance(i, r.ChangeType | r.ChangeOwner)
                for i in r.instructions(t.program)) and all(
                not (isinstance(i, r.Add) and (i.copy or i.partial is not None))
                for i in r.instructions(t.program))
            and sum(isinstance(i, r.Add) for i in r.instructions(t.program))
            <= _INLINE_ADDS}
        #: The templates whose runs may leave the board (see :attr:`leaving`): their
        #: adds compose their moves, none is written out.
        self.leaving_templates = {index for index, t in enumerate(templates)
                                  if leaves(t.program)}
        self.plain -= self.leaving_templates
        self.plain_drops -= self.leaving_templates
        #: Whether the template being written may leave the board: its cursor may then
        #: be -1, where its tests of a cell are false and its steps fail.
        self.leaving = False
        self.unchanging = {index for index in self.plain_drops if not any(
            isinstance(i, r.ChangeType | r.ChangeOwner)
            for i in r.instructions(templates[index].program))}
        #: Whether no two moves a position has can be equal, so none is looked for
        #: (see _apart); the priorities where none is, and whether that is every one.
        self.apart = _apart(templates, self.board, self.players,
                            {k for going in self.going_on for k in going})
        self.distinct = self.apart == {t.priority for t in templates}
        self.one_priority = len({t.priority for t in templates}) == 1 and \
            not self.partial_types
        #: Whether the templates are functions generate calls, one for each shape of
        #: template (see :meth:`functions`), not written out in generate.
        self.split = False
        #: The plain templates whose moves are written out where they add them, not made
        #: by calls of ``shift``: a few hundred written out make a function numba cannot
        #: compile (its SSA pass recurses through every branch).
        self.inline = self.inlined()
        #: Whether templates are being written as attacks (see :meth:`attacks`), or as
        #: steps that go on with a chain (see :meth:`chains`).
        self.attacking = False
        self.continuing = False
        #: Whether after() tests relative configurations only near the cells the last
        #: move changed, where none held before it (see :meth:`goal`): moves, make and
        #: undo then keep S[NEAR].
        self.near = False
        #: Whether runs may stop at a sure tail (see :meth:`tail_at`), and the lines in
        #: generate_lazy and finish of the templates that do, by index.
        rules = game.move_rules
        #: The rules of whole moves (see whole_moves): the invariants, what a capture
        #: cuts off, a follow-up along directions (whose second ply allows no move
        #: that goes along them).
        self.invariants = tuple(rules.invariants)
        self.cut_off = rules.cut_off
        up = rules.follow_up
        self.along = up if up is not None and up.along else None
        #: Whether a found move's words may go on past its actions (a chain's steps, or
        #: the note of the group a capture keeps: see _NOTE): T[XK] then holds the
        #: count of its actions, and of the words after them above bit 16.
        self.noted = bool(self.partial_types) or self.cut_off is not None or any(
            type(t) is r.Footprint for t in templates)
        #: The tests of the mover's group (rules.Connected) by their directions, each
        #: read once as generate starts (T[XCN + slot]).
        self.connections: dict[tuple[str, ...] | None, int] = {}
        #: The scratch of the searches of articulation points (see articulation).
        self.stays_regions = 0
        self.lazy_allowed = not self.partial_types and not rules.protect and \
            rules.select is None and not self.invariants and self.cut_off is None and \
            self.along is None
        self.lazy: dict[int, tuple[list[str], list[str]]] = {}
        #: The lines that set the piece in hand of the template being written (and the
        #: reserve it comes from), which its finish sets again (see :meth:`hold`).
        self.in_hand: list[str] = []
        #: The sets of kinds the templates of the mover's pieces move, each a list of
        #: the mover's cells holding them that generate writes (in cell order, as the
        #: mover's cells are), so that no template runs over the others' pieces.
        self.kind_lists: dict[frozenset[str], int] = {}
        #: The subtrees written as functions of their own (see :meth:`routine`), and
        #: the name and source of each function, by what its source depends on.
        self.repeated = _repeated(templates)
        self.routines: dict[tuple, tuple[str, str, str, frozenset[int], str]] = {}

    def inlined(self) -> set[int]:
        """The plain templates whose moves are written out (see :attr:`inline`): all
        when they have few adds in all, or, when the templates are functions, those
        with few adds of their own."""
        adds = {index: sum(1 for i in r.instructions(self.templates[index].program)
                           if isinstance(i, r.Add)) for index in self.plain}
        if self.split:
            return {index for index, k in adds.items() if k <= _INLINE_ADDS}
        return set(adds) if sum(adds.values()) <= _INLINE_ADDS else set()

    # --- the table ------------------------------------------------------------------
    def put(self, name: Any, values: Sequence[int]) -> int:
        if name in self.offsets:
            return self.offsets[name]
        offset = self.offsets[name] = len(self.table)
        self.table.extend(int(v) for v in values)
        return offset

    def links(self) -> int:
        return self.offsets.get("links", -1)

    def ends(self, loop: r.While) -> bool:
        """Whether ``loop`` surely ends before the interpreter's limit of turns: each
        turn steps (or fails), it only steps (and tests, changes, adds), and no cell can be
        reached again by its directions (for any player), on a board of no more cells
        than the limit."""
        def moves(program: Sequence[r.Instruction]) -> set[str] | None:
            found: set[str] = set()
            for i in program:
                if isinstance(i, r.Step):
                    found.add(i.direction)
                elif isinstance(i, r.If | r.While):
                    parts = [moves(i.then), moves(i.else_)] if isinstance(i, r.If) \
                        else [moves(i.body)]
                    if None in parts:
                        return None
                    found.update(*parts)  # type: ignore[arg-type]
                elif not isinstance(i, _IN_PLACE + (r.Add,)):
                    return None
            return found

        directions = moves(loop.body)
        if directions is None or not any(isinstance(i, r.Step) for i in loop.body) \
                or self.size > r.LOOP_LIMIT:
            return False
        key = frozenset(directions)
        if key not in self.acyclic:
            self.acyclic[key] = all(_acyclic(
                [[row[c] for row in (self.board.player_links(p)[d] for d in key)
                  if row[c] >= 0] for c in range(self.size)])
                for p in range(self.players))
        return self.acyclic[key]

    def direction(self, d: str) -> str:
        """The expression of the row of direction ``d`` for the mover, at ``{}``."""
        if d not in self.directions:
            self.directions[d] = len(self.directions)
        if self.same_links:
            return f"T[LK + {self.directions[d] * self.size} + {{}}]"
        return f"T[LK + (player * ND + {self.directions[d]}) * {self.size} + {{}}]"

    def mask_of_codes(self, name: Any, test: Any) -> int:
        return self.put(name, [0] + [1 if test(p) else 0 for p in self.pieces[1:]])

    def kinds_mask(self, kinds: Iterable[str]) -> int:
        """Where the table says, by piece code, whether the piece is of ``kinds``."""
        kinds = frozenset(kinds)
        return self.mask_of_codes(("kinds", kinds), lambda piece: piece.kind in kinds)

    # --- predicates -----------------------------------------------------------------
    def expr(self, p: Any, w: str) -> str:
        """The expression of predicate ``p`` read at cell ``w``: off the board (a
        cursor of -1, :attr:`leaving`), every test of the cell is false and
        ``on-board?`` is."""
        if self.leaving and w == "pos":
            combined = _combination(p, lambda q: self.expr(q, w))
            if combined is not None:
                return combined
            if isinstance(p, r.OnBoard):
                return "(pos >= 0)"
            if isinstance(p, r.Always | r.Never | r.Flag | r.Var | r.Less | r.AtCell
                          | r.Connected | r.PieceCount):
                return self.cell_expr(p, w)  # reads no cell under the cursor
            return f"(pos >= 0 and {self.cell_expr(p, w)})"
        return self.cell_expr(p, w)

    def cell_expr(self, p: Any, w: str) -> str:
        """:meth:`expr` where ``w`` is a cell of the board."""
        return self.TEST[type(p)](self, p, w, f"S[{BOARD} + {w}]")

    def t_empty(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Empty`` at ``w`` (``cell``: what stands there)."""
        return f"({cell} == 0)"

    def t_friend(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Friend`` at ``w`` (``cell``: what stands there)."""
        return f"(T[{self.owner} + {cell}] == player)"

    def t_enemy(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Enemy`` at ``w`` (``cell``: what stands there)."""
        return f"({cell} != 0 and T[{self.owner} + {cell}] != player)"

    def t_neutral(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Neutral`` at ``w`` (``cell``: what stands there)."""
        neutral = self.game.ruleset.neutral_players
        off = self.mask_of_codes(("neutral",), lambda piece: piece.owner in neutral)
        return f"(T[{off} + {cell}] != 0)"

    def t_on_board(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``OnBoard`` or ``Always`` at ``w`` (``cell``: what stands there)."""
        return "True"

    def t_last_from(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``LastFrom`` at ``w`` (``cell``: what stands there)."""
        # S[LAST]: the last move's source + 1 | its target + 1 << 16
        return f"({w} == (S[{LAST}] & 65535) - 1)"

    def t_last_to(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``LastTo`` at ``w`` (``cell``: what stands there)."""
        return f"({w} == (S[{LAST}] >> 16) - 1)"

    def t_never(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Never`` at ``w`` (``cell``: what stands there)."""
        return "False"

    def t_marked(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Marked`` at ``w`` (``cell``: what stands there)."""
        return f"({w} == (start if mark {self.unmarked()} else mark))"

    def t_flag(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Flag`` at ``w`` (``cell``: what stands there)."""
        return f"({self.variable(p.name)} != 0)"

    def t_position_flag(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``PositionFlag`` at ``w`` (``cell``: what stands there)."""
        return f"(T[{self.position_flag(p.name)} + {w}] == ps)"

    def t_attacked(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Attacked`` at ``w`` (``cell``: what stands there)."""
        if self.attacking:
            return "False"  # not asked inside an attack (the interpreter's)
        code = -1 if p.move_type is None else self.attack_types[p.move_type]
        return f"could_take(S, T, player, {w}, start, hand, {p.defended}, {code})"

    def t_var(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Var`` at ``w`` (``cell``: what stands there)."""
        return self.variable(p.name)

    def t_less(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Less`` at ``w`` (``cell``: what stands there)."""
        left, right = (str(v) if isinstance(v, int) else self.expr(v, w)
                       for v in (p.left, p.right))
        return f"({left} < {right})"

    def t_piece_count(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``PieceCount`` (a value, the same at every cell)."""
        return self.piece_count(p)

    def t_connected(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Connected`` (read once a position, the same at every
        cell: see :meth:`whole_moves`)."""
        slot = self.connections.setdefault(p.directions, len(self.connections))
        return f"(T[XCN + {slot}] != 0)"

    def t_at_cell(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``AtCell`` at ``w`` (``cell``: what stands there)."""
        return self.expr(p.test, str(p.cell))

    def t_at_step(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``AtStep`` at ``w`` (``cell``: what stands there)."""
        row = self.direction(p.direction).format(w)
        return f"({row} >= 0 and {self.expr(p.test, row)})"

    def t_on_board_step(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``OnBoardStep`` at ``w`` (``cell``: what stands there)."""
        return f"({self.direction(p.direction).format(w)} >= 0)"

    def t_position_is(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``PositionIs`` at ``w`` (``cell``: what stands there)."""
        return f"({w} == {p.cell})"

    def t_in_cells(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``InCells`` at ``w`` (``cell``: what stands there)."""
        cells = frozenset(p.cells)
        off = self.put(("cells", cells), [1 if c in cells else 0 for c in range(self.size)])
        return f"(T[{off} + {w}] != 0)"

    def t_piece_is(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``PieceIs`` at ``w`` (``cell``: what stands there)."""
        return f"(T[{self.kinds_mask(p.kinds)} + {cell}] != 0)"

    def t_attribute(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Attribute`` at ``w`` (``cell``: what stands there)."""
        name = p.name
        off = self.mask_of_codes(("attribute", name), lambda piece: name in piece.attributes)
        return f"(T[{off} + {cell}] != 0)"

    def t_adjacent_to_enemy(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``AdjacentToEnemy`` at ``w`` (``cell``: what stands there)."""
        if "neighbours" not in self.offsets:
            # Each cell's neighbours in every direction (interpret._enemy_next_to), a
            # run of the table from each cell's start.
            rows = [[row[c] for row in self.board.links if row[c] >= 0]
                    for c in range(self.size)]
            starts = [0]
            for cells in rows:
                starts.append(starts[-1] + len(cells))
            first = self.put("neighbours", [v + self.size + 1 for v in starts])
            self.put("neighbour cells", [c for cells in rows for c in cells])
            self.helpers.append(
                "@njit(cache=True)\n"
                "def near_enemy(S, T, cell, player):\n"
                f"    for i in range(T[{first} + cell], T[{first} + cell + 1]):\n"
                f"        v = S[{BOARD} + T[{first} + i]]\n"
                f"        if v != 0 and T[{self.owner} + v] != player:\n"
                "            return True\n"
                "    return False\n")
        return f"near_enemy(S, T, {w}, player)"

    def t_in_zone(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``InZone`` at ``w`` (``cell``: what stands there)."""
        zone = self.board.zones[p.zone]
        off = self.put(("zone", p.zone), [1 if c in zone.get(pl, ()) else 0
                                          for pl in range(self.players)
                                          for c in range(self.size)])
        return f"(T[{off} + player * {self.size} + {w}] != 0)"

    def t_combined(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Not``, ``AllOf`` or ``AnyOf`` at ``w``."""
        combined = _combination(p, lambda q: self.expr(q, w))
        assert combined is not None
        return combined

    def unmarked(self) -> str:
        """The test that a run has no mark, of ``mark``: below zero, but in a run that
        may leave the board, where a mark may be set off it (-1), -2."""
        return "== -2" if self.leaving else "< 0"

    def position_flag(self, name: str) -> str:
        """Where the flags ``name`` of the cells are (ZRF ``set-position-flag``): a
        cell's flag is set in this run when it holds the run's stamp ``ps`` (a number
        new at each run's start: nothing is cleared between runs)."""
        if name not in self.position_flags:
            self.position_flags[name] = len(self.position_flags)
        return f"XF + {self.position_flags[name] * self.size}"

    def run_resets(self, indent: str) -> list[str]:
        """The lines that start a run: every flag and counter at 0 (written once the
        program has named them; numba wants a local set on every path), and a new
        stamp for the cells' flags."""
        lines = [f"{indent}{v} = 0" for v in self.variables.values()]
        if self.position_flags:
            lines += [f"{indent}T[XF - 1] += 1", f"{indent}ps = T[XF - 1]"]
        return lines

    def variable(self, name: str) -> str:
        """The local of a run's flag or counter ``name`` (flags and counters share one
        namespace, as :class:`~boardlab.core.interpret.Cursor` keeps them in one dict: a
        flag is 1 or 0)."""
        if name not in self.variables:
            self.variables[name] = f"_v{len(self.variables)}"
        return self.variables[name]

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

    # --- goals ----------------------------------------------------------------------
    def goal(self, goal: g.Goal, player: str, near: bool = False) -> str:
        """The test of ``goal`` for ``player``; ``near``: a goal whose being false makes
        its condition's false (so false at a position that goes on), which a relative
        configuration then tests only around the cells the last move changed when it
        was false before it (see :attr:`near`)."""
        if isinstance(goal, g.AllOf | g.AnyOf):
            joint = " and " if isinstance(goal, g.AllOf) else " or "
            inner = near and isinstance(goal, g.AnyOf)
            children = list(goal.goals)
            lines = self.lines_near(children, player) if inner else None
            if lines is not None:
                children = [c for c in children if not any(c is x for x in lines[1])]
            # A part that never decides (always false in an or, true in an and) goes.
            parts = [part for part in ([lines[0]] if lines is not None else []) + [
                self.goal(child, player, inner) for child in children]
                     if part != ("True" if isinstance(goal, g.AllOf) else "False")]
            return "(" + (joint.join(parts) or ("True" if isinstance(goal, g.AllOf)
                                                else "False")) + ")"
        if isinstance(goal, g.NotGoal):
            return f"(not {self.goal(goal.goal, player)})"
        if isinstance(goal, g.Stalemated | g.ToMove):
            return f"(S[{TO_MOVE}] == {player})"
        if isinstance(goal, g.Repetition):
            return f"(S[{MOVER}] == {player} and S[{REPS}] >= {goal.times})"
        if isinstance(goal, g.TurnsPlayed):
            return f"(S[{TURNS}] >= {goal.count})"
        if isinstance(goal, g.Checkmated):
            mask = self.kinds_mask(goal.kinds)
            return f"(S[{TO_MOVE}] == {player} and in_check(S, T, {player}, {mask}) != 0)"
        if isinstance(goal, g.Captured):
            bit = self.taken.index(frozenset(goal.kinds)) * self.players
            return f"(((S[{TAKEN}] >> ({bit} + {player})) & 1) != 0)"
        if self.never(goal, player):
            return "False"
        name = f"goal{len(self.helpers)}"
        if isinstance(goal, g.AbsoluteConfig):
            rows = []
            for pl in range(self.players):
                cells = sorted(goal.cells(pl))
                rows.append([len(cells), *cells, *([0] * (self.size - len(cells)))])
            where = self.put(("config-cells", name), [v for row in rows for v in row])
            match = self.put(("config-match", name),
                             [0 if piece is None else
                              int(any(g._matches(piece, o, k, pl) for o, k in goal.pieces))
                              for pl in range(self.players) for piece in self.pieces])
            self.helpers.append(
                f"@njit(cache=True, inline='always')\n"
                f"def {name}(S, T, p):\n"
                f"    base = {where} + p * {self.size + 1}\n"
                f"    for i in range(T[base]):\n"
                f"        if T[{match} + p * {self.ncodes} + S[{BOARD} + T[base + 1 + i]]]:\n"
                f"            return True\n"
                f"    return False\n")
        elif isinstance(goal, g.PiecesRemaining | g.TotalPieceCount):
            kind = goal.kind
            mine = isinstance(goal, g.PiecesRemaining)
            # The counts of the piece codes the goal counts, kept up to date by play.
            self.helpers.append(
                f"@njit(cache=True, inline='always')\n"
                f"def {name}(S, T, p):\n"
                f"    n = 0\n"
                + "".join(
                    f"    if {'True' if not mine else f'{piece.owner} == p'}:\n"
                    f"        n += S[CNT + {code}]\n"
                    for code, piece in enumerate(self.pieces)
                    if piece is not None and (kind is None or piece.kind == kind))
                + "".join(
                    # ... and in hand when it counts them (PiecesRemaining.in_hand)
                    f"    if {piece.owner} == p:\n"
                    f"        n += S[RES + {self.codes[piece]}]\n"
                    for piece in self.hand
                    if mine and goal.in_hand and (kind is None or piece.kind == kind))
                + f"    return n {'<' if mine and goal.fewer else '=='} {goal.count}\n")
        elif isinstance(goal, g.PiecesLost):
            start = self.put(("lost-start", name),
                             [goal.at_start(self.game, pl) for pl in range(self.players)])
            self.helpers.append(
                f"@njit(cache=True, inline='always')\n"
                f"def {name}(S, T, p):\n"
                f"    n = 0\n"
                + "".join(
                    f"    if {piece.owner} == p:\n"
                    f"        n += S[CNT + {code}]\n"
                    for code, piece in enumerate(self.pieces)
                    if piece is not None and (goal.kind is None or piece.kind == goal.kind))
                + f"    return T[{start} + p] - n >= {goal.count}\n")
        elif isinstance(goal, g.MoreInZone):
            self.more_in_zone(name, goal)
        elif isinstance(goal, g.RelativeConfig):
            self.relative_config(name, goal, near)
            if near:
                self.near = True
                return f"({name}_near(S, T, {player}) if near else {name}(S, T, {player}))"
        else:  # pragma: no cover - _check refused it
            raise Unsupported(type(goal).__name__)
        return f"{name}(S, T, {player})"

    def more_in_zone(self, name: str, goal: g.MoreInZone) -> None:
        """The helper of a :class:`~boardlab.core.goals.MoreInZone` goal: each player's
        count of own pieces on their cells, the player's above every other's."""
        rows = []
        for pl in range(self.players):
            cells = sorted(goal.cells(pl))
            rows.append([len(cells), *cells, *([0] * (self.size - len(cells)))])
        where = self.put(("zone-cells", name), [v for row in rows for v in row])
        kind = goal.kind
        counted = self.mask_of_codes(("counted", kind),
                                     lambda piece: kind is None or piece.kind == kind)
        self.helpers.append(
            f"@njit(cache=True, inline='always')\n"
            f"def {name}_count(S, T, q):\n"
            f"    base = {where} + q * {self.size + 1}\n"
            f"    n = 0\n"
            f"    for i in range(T[base]):\n"
            f"        v = S[{BOARD} + T[base + 1 + i]]\n"
            f"        if v != 0 and T[{self.owner} + v] == q and T[{counted} + v] != 0:\n"
            f"            n += 1\n"
            f"    return n\n\n\n"
            f"@njit(cache=True, inline='always')\n"
            f"def {name}(S, T, p):\n"
            f"    mine = {name}_count(S, T, p)\n"
            f"    for q in range({self.players}):\n"
            f"        if q != p and {name}_count(S, T, q) >= mine:\n"
            f"            return False\n"
            f"    return True\n")

    def never(self, goal: g.Goal, player: str) -> bool:
        """Whether ``goal`` is a relative configuration with an item that no piece the
        kernel knows (nor an empty cell) fits for ``player`` (a number): never true
        (Connect Four's lines of the other's discs for each player), so not looked for
        at every position."""
        return isinstance(goal, g.RelativeConfig) and player.isdigit() and not all(
            any(g._fits(piece, item, int(player))  # type: ignore[arg-type]
                for piece in self.pieces) for item in goal.pattern[0::2])

    def lines_near(self, goals: Sequence[g.Goal], player: str
                   ) -> tuple[str, list[g.Goal]] | None:
        """Where two or more of ``goals`` (the parts of an or tested near the last
        move) are lines of one piece alike, n long, in various directions (Connect
        Four's four, a tic-tac-toe's): the test of them all and those goals. Near the
        last move it is one loop over their directions (a table), not a walk written
        out for each: small enough to inline in a playout's loop (see resolve). None
        where fewer are."""
        links = [self.board.player_links(pl) for pl in range(self.players)]
        found: dict[tuple[Any, int], list[g.RelativeConfig]] = {}
        for goal in goals:
            if not isinstance(goal, g.RelativeConfig):
                continue
            items, steps = goal.pattern[0::2], goal.pattern[1::2]
            if len(items) < 2 or len(set(items)) != 1 or len(set(steps)) != 1:
                continue
            codes = tuple(tuple(code for code, piece in enumerate(self.pieces)
                                if g._fits(piece, items[0], pl))  # type: ignore[arg-type]
                          for pl in range(self.players))
            if not all(len(row) <= 1 and 0 not in row for row in codes) or \
                    self.never(goal, player):
                continue
            found.setdefault((codes, len(items)), []).append(goal)
        best = max(found.items(), key=lambda kv: len(kv[1]), default=None)
        if best is None or len(best[1]) < 2:
            return None
        (codes, length), members = best
        name = f"goal{len(self.helpers)}"
        rows, whole = [], []
        for goal in members:
            part = f"goal{len(self.helpers)}"
            self.relative_config(part, goal, near=True, twin=False)
            whole.append(f"{part}(S, T, {player})")
            line = self.line_lengths(part, goal.pattern[0::2], goal.pattern[1::2], links)
            assert line is not None  # one item, one direction
            rows.extend(line)
        single = self.put(("relative-code", name), [row[0] if row else -1 for row in codes])
        ways = self.put(("line-ways", name), rows)
        size = self.size
        self.helpers.append("\n".join([
            f"@njit(cache=True, inline='always')\ndef {name}_near(S, T, p):",
            "    # The lines through each cell the last move changed, along each",
            "    # direction (its row of steps ahead and back in the table).",
            f"    code = T[{single} + p]",
            f"    for j in range(S[{NEAR}]):",
            f"        cell = S[{NEAR + 1} + j]",
            f"        if S[{BOARD} + cell] != code:",
            "            continue",
            f"        for k in range({len(members)}):",
            f"            ahead = T[{ways} + 2 * k] + p * {size}",
            f"            behind = T[{ways} + 2 * k + 1] + p * {size}",
            *("            " + line for line in self.run_through(
                length, "ahead", "behind", f"S[{BOARD} + c] == code")),
            "    return False"]) + "\n")
        self.near = True
        return (f"({name}_near(S, T, {player}) if near else ({' or '.join(whole)}))",
                members)

    def relative_config(self, name: str, goal: g.RelativeConfig, near: bool,
                        twin: bool = True) -> None:
        """The helper of a :class:`~boardlab.core.goals.RelativeConfig` goal: from each
        cell whose walk stays on the board (per player), the items in turn, unrolled;
        and where ``near`` (and ``twin``), its ``_near`` twin (see :meth:`goal`)."""
        items = goal.pattern[0::2]
        steps = goal.pattern[1::2]
        links = [self.board.player_links(pl) for pl in range(self.players)]
        starts = []
        for pl in range(self.players):
            found = []
            for cell in range(self.size):
                pos = cell
                for d in steps:
                    pos = links[pl][d][pos]  # type: ignore[index]
                    if pos < 0:
                        break
                else:
                    found.append(cell)
            starts.append([len(found), *found, *([0] * (self.size - len(found)))])
        where = self.put(("relative-starts", name), [v for row in starts for v in row])
        walk_lines = []
        for k, item in enumerate(items):
            if k:
                row = self.put(("relative-step", name, k),
                               [v for pl in range(self.players)
                                for v in links[pl][steps[k - 1]]])  # type: ignore[index]
                walk_lines.append(f"c = T[{row} + p * {self.size} + c]")
            fits = self.put(("relative-item", name, k),
                            [int(g._fits(piece, item, pl))  # type: ignore[arg-type]
                             for pl in range(self.players) for piece in self.pieces])
            walk_lines.append(f"if T[{fits} + p * {self.ncodes} + S[{BOARD} + c]] == 0:"
                              " continue")
        walk_lines.append("return True")
        # With a twin near the last move, this one is read at a game's start alone: a
        # function of its own, which may share its shape (see _merge_shapes).
        decorator = "@njit(cache=True)" if near else "@njit(cache=True, inline='always')"
        lines = [f"{decorator}\ndef {name}(S, T, p):",
                 f"    base = {where} + p * {self.size + 1}",
                 "    for i in range(T[base]):",
                 "        c = T[base + 1 + i]",
                 *("        " + line for line in walk_lines),
                 "    return False"]
        if near and twin:
            lines += ["", "", *self.relative_near(name, items, steps, links, starts,
                                                  walk_lines)]
        self.helpers.append("\n".join(lines) + "\n")

    def relative_near(self, name: str, items: Sequence[Any], steps: Sequence[str],
                      links: Sequence[Any], starts: Sequence[Sequence[int]],
                      walk_lines: Sequence[str]) -> list[str]:
        """The lines of ``{name}_near``: the relative configuration looked for only
        across the cells the last move changed (S[NEAR]), by the starts whose walk
        crosses each (from ``starts``, by player), or by the run through it of a row of
        one item alike (:meth:`line_lengths`)."""
        line = self.line_lengths(name, items, steps, links)
        codes = [[code for code, piece in enumerate(self.pieces)
                  if any(g._fits(piece, item, pl) for item in items)]  # type: ignore[arg-type]
                 for pl in range(self.players)]
        if line is not None and all(len(row) <= 1 and 0 not in row for row in codes):
            # A line of one item that at most one piece fits for each player (a line of
            # one's own discs): the cells are compared with its code (-1: none fits),
            # one load fewer a cell on the walk's chain of loads.
            single = self.put(("relative-code", name), [row[0] if row else -1 for row in codes])
            head = [f"    code = T[{single} + p]"]
            fits = f"S[{BOARD} + c] == code"
            fits_cell = f"S[{BOARD} + cell] != code"
        else:
            fits_any = self.put(("relative-any", name), [
                int(code in row) for row in codes for code in range(len(self.pieces))])
            head = []
            fits = f"T[{fits_any} + p * {self.ncodes} + S[{BOARD} + c]] != 0"
            fits_cell = f"T[{fits_any} + p * {self.ncodes} + S[{BOARD} + cell]] == 0"
        lines = [f"@njit(cache=True, inline='always')\ndef {name}_near(S, T, p):",
                 "    # Only the starts whose walk crosses a cell the last move changed",
                 "    # to a piece (or none) that some item of the pattern fits.",
                 *head,
                 f"    for j in range(S[{NEAR}]):",
                 f"        cell = S[{NEAR + 1} + j]",
                 f"        if {fits_cell}:",
                 "            continue"]
        if line is not None:
            # n alike in a row: the run of fitting cells through the cell, both ways.
            ahead, behind = (f"{row} + p * {self.size}" for row in line)
            lines += ["        " + line
                      for line in self.run_through(len(items), ahead, behind, fits)]
        else:
            # For each player and cell, the starts whose walk crosses the cell: where
            # the pattern can newly match once the cell changes.
            flat: list[int] = []
            heads: list[int] = []
            for pl in range(self.players):
                by_cell: list[list[int]] = [[] for _ in range(self.size)]
                for cell in starts[pl][1:1 + starts[pl][0]]:
                    pos = cell
                    walk = [pos]
                    for d in steps:
                        pos = links[pl][d][pos]  # type: ignore[index]
                        walk.append(pos)
                    for c in dict.fromkeys(walk):
                        by_cell[c].append(cell)
                for found in by_cell:
                    heads += [len(found), len(flat)]
                    flat += found
            near_heads = self.put(("relative-near", name), heads)
            near_starts = self.put(("relative-near-starts", name), flat)
            lines += [f"        x = {near_heads} + 2 * (p * {self.size} + cell)",
                      "        for i in range(T[x]):",
                      f"            c = T[{near_starts} + T[x + 1] + i]",
                      *("            " + line for line in walk_lines)]
        lines.append("    return False")
        return lines

    @staticmethod
    def run_through(length: int, ahead: str, behind: str, fits: str) -> list[str]:
        """The lines that count the run of cells ``fits`` (a test of cell ``c``)
        through ``cell`` along a direction, by the table rows ``ahead`` and ``behind``
        (of its steps and its steps back), and return True where it is ``length``
        long."""
        lines = ["run = 1"]
        for row in (ahead, behind):
            lines += [f"c = T[{row} + cell]",
                      f"while run < {length} and c >= 0 and {fits}:",
                      "    run += 1",
                      f"    c = T[{row} + c]"]
        return [*lines, f"if run >= {length}: return True"]

    def line_lengths(self, name: str, items: Sequence[Any], steps: Sequence[str],
                     links: Sequence[Any]) -> tuple[int, int] | None:
        """For a pattern of one item again and again, a step in one direction apart,
        where no two cells step to one cell (for any player): the table rows of that
        direction and of its way back, by player; else None. Such a pattern holds
        through a cell exactly when the run of cells the item fits through it, along
        the direction, is as long as the pattern."""
        if len(items) < 2 or len(set(items)) != 1 or len(set(steps)) != 1:
            return None
        d = steps[0]
        back = []
        for pl in range(self.players):
            row = [-1] * self.size
            for cell, nxt in enumerate(links[pl][d]):
                if nxt >= 0:
                    if row[nxt] >= 0:
                        return None
                    row[nxt] = cell
            back.extend(row)
        ahead = self.put(("relative-step", name, 1),
                         [v for pl in range(self.players) for v in links[pl][d]])
        return ahead, self.put(("relative-back", name), back)

    def resolve(self, name: str, conditions: Sequence[g.Condition]) -> None:
        """A function giving the status of the first condition to fire (by
        :meth:`Goals._resolve`'s order), or -1."""
        n = self.players
        lines = [f"@njit(cache=True)\ndef {name}(S, T):",
                 f"    mover = S[{MOVER}]",
                 "    best = 1 << 30"]
        for c in conditions:
            order = g._ORDER[c.kind]
            for p in c.players:
                # after()'s -1 says every condition false at a position that goes on
                # (moves keeps it in NEAR); stuck_conditions' says nothing of it.
                test = self.goal(c.goal, str(p), near=name == "after")
                lines.append(f"    if {test}:")
                lines.append(f"        rank = ({order * 2} + (0 if mover == {p} else 1)) * {n}"
                             f" + {p}")
                lines.append("        if rank < best: best = rank")
        if name == "after" and self.near:  # only after() asks for goals near
            lines.insert(2, f"    near = S[{NEAR}] > 0")
        lines.append("    if best == 1 << 30: return -1")
        lines.append(f"    return (best // {2 * n}) * {n} + best % {n}")
        self.helpers.append("\n".join(lines) + "\n")
        if name == "after" and len(lines) <= _INLINED_AFTER:
            # A playout's copy, inlined in run's loop: a call of after (which inlines
            # the tests near the last move) was half of a Connect Four playout's time.
            self.helpers.append("\n".join([
                "@njit(cache=True, inline='always')\ndef after_run(S, T):", *lines[1:]])
                + "\n")
            self.after_run = "after_run"

    # --- group templates ------------------------------------------------------------
    def group(self, index: int, t: r.Group) -> None:
        """The moves of a group template, in the interpreter's order: for each
        direction, the single steps of the mover's pieces (in cell order), then every
        combination of them of each size (lexicographic) that :func:`gmove` keeps."""
        size, e = self.size, self.emit
        e(1, f"# template {index}: group {t.name or '(unnamed)'}")
        kinds_mask = None
        if t.kinds:
            kinds_mask = self.kinds_mask(t.kinds)
        sizes = self.put(("sizes", t.sizes), t.sizes)
        e(1, "few = 0")
        if t.all_if_fewer:
            e(1, "left = 0")
            e(1, "for _s in range(mine):")
            if kinds_mask is None:
                e(2, "left += 1")
            else:
                e(2, f"left += T[{kinds_mask} + S[{BOARD} + T[XC + _s]]]")
            e(1, f"if 0 < left < {min(t.sizes)}: few = left")
        for program in (tuple(t.single(d)) for d in t.directions):
            e(1, "ns = 0")
            e(1, "for _s in range(mine):")
            e(2, "start = T[XC + _s]")
            e(2, f"hand = S[{BOARD} + start]")
            if kinds_mask is not None:
                e(2, f"if T[{kinds_mask} + hand] == 0: continue")
            e(2, "pos = start")
            self.block(program[:-1], 2, "continue", index, t.priority)
            e(2, "if pos != start:")
            e(3, "T[XG + ns] = start")
            e(3, f"T[XG + {size} + ns] = pos")
            e(3, "ns += 1")
            e(1, f"for _k in range(1 if few else {len(t.sizes)}):")
            e(2, f"k = few if few else T[{sizes} + _k]")
            call = (f"n = gmove(S, T, n, player, {{}}, {int(t.capture)}, {index}, "
                    f"{t.priority})")
            e(2, "if k == 1:")
            e(3, "for a in range(ns):")
            e(4, call.format("a, -1, -1"))
            e(4, "if n < 0: return n")
            e(2, "elif k == 2:")
            e(3, "for a in range(ns):")
            e(4, "for b in range(a + 1, ns):")
            e(5, call.format("a, b, -1"))
            e(5, "if n < 0: return n")
            e(2, "else:")
            e(3, "for a in range(ns):")
            e(4, "for b in range(a + 1, ns):")
            e(5, "for c in range(b + 1, ns):")
            e(6, call.format("a, b, c"))
            e(6, "if n < 0: return n")
        self.has_groups = True

    def group_move(self) -> str:
        """The function that keeps or drops a group move (none without groups)."""
        if not self.has_groups:
            return ""
        return f"""@njit(cache=True)
def gmove(S, T, n, player, a, b, c, capture, index, priority):
    # Steps a < b < c of the step list (b, c: -1 for a smaller group), kept unless two
    # share a source or a target, or one lands on a piece that stays (an own piece,
    # or any piece without capture): the interpreter's product of single moves, whose
    # actions are the captures on the targets, then the shifts.
    k = 1 if b < 0 else (2 if c < 0 else 3)
    for i in range(k):
        si = T[XG + (a if i == 0 else (b if i == 1 else c))]
        ti = T[XG + {self.size} + (a if i == 0 else (b if i == 1 else c))]
        for j in range(i):
            sj = T[XG + (a if j == 0 else (b if j == 1 else c))]
            tj = T[XG + {self.size} + (a if j == 0 else (b if j == 1 else c))]
            if si == sj or ti == tj:
                return n
    top = T[XS + 1]
    w = top
    for i in range(k):
        t = T[XG + {self.size} + (a if i == 0 else (b if i == 1 else c))]
        v = S[{BOARD} + t]
        if v != 0:
            leaves = False
            for j in range(k):
                if T[XG + (a if j == 0 else (b if j == 1 else c))] == t:
                    leaves = True
            if not leaves:
                if T[{self.owner} + v] == player or capture == 0:
                    return n
                T[XA + w] = {_CAPTURE} | (t << 2)
                w += 1
    for i in range(k):
        x = a if i == 0 else (b if i == 1 else c)
        T[XA + w] = {_SHIFT} | (T[XG + x] << 2) | (T[XG + {self.size} + x] << 18)
        w += 1
    return push(T, n, top, w, index, priority)


"""

    # --- line templates ---------------------------------------------------------------
    def line(self, index: int, t: r.Line) -> None:
        """The moves of a line template, in the interpreter's order: from each piece of
        the mover's (in cell order) that passes the template's tests, each line of
        enough pieces along ``t.line`` (XG[0:ln]), moved ``t.direction`` one cell
        further at a time (the targets in XG[size:size + ln]) while every target is
        empty or a cell of the line; ``lpush`` writes each move."""
        size, e = self.size, self.emit
        e(1, f"# template {index}: line {t.name or '(unnamed)'}")
        along, ahead = self.direction(t.line), self.direction(t.direction)  # type: ignore[arg-type]
        mask = self.kinds_mask(t.kinds) if t.kinds else None
        e(1, "for _s in range(mine):")
        e(2, "start = T[XC + _s]")
        e(2, f"hand = S[{BOARD} + start]")
        if mask is not None:
            e(2, f"if T[{mask} + hand] == 0: continue")
        for line in ("hf = start", "pos = start", "q = 0", "nc = 0", "mark = -1", "to = -1"):
            e(2, line)
        reset = len(self.lines)
        self.block(t.program, 2, "continue", index, t.priority)
        self.lines[reset:reset] = self.run_resets("        ")
        friend = f"v != 0 and T[{self.owner} + v] == player"
        if mask is not None:
            friend += f" and T[{mask} + v] != 0"
        for depth, line in (
                (2, "ln = 1"),
                (2, "T[XG] = start"),
                (2, "while True:"),
                (3, f"if ln >= {t.min_size}:"),
                (4, "for _j in range(ln):"),
                (5, f"T[XG + {size} + _j] = T[XG + _j]"),
                (4, f"for _d in range({size}):"),  # a lap ends a walk that goes round
                (5, "ok = True"),
                (5, "for _j in range(ln):"),
                (6, f"tg = {ahead.format(f'T[XG + {size} + _j]')}"),
                (6, "if tg < 0:"),
                (7, "ok = False"),
                (7, "break"),
                (6, f"if S[{BOARD} + tg] != 0:"),
                (7, "inside = False"),
                (7, "for _x in range(ln):"),
                (8, "if T[XG + _x] == tg:"),
                (9, "inside = True"),
                (9, "break"),
                (7, "if not inside:"),
                (8, "ok = False"),
                (8, "break"),
                (6, f"T[XG + {size} + _j] = tg"),
                (5, "if not ok: break"),
                (5, f"n = lpush(T, n, ln, {index}, {t.priority})"),
                (5, "if n < 0: return n"),
                (3, f"nx = {along.format('T[XG + ln - 1]')}"),
                (3, "if nx < 0: break"),
                (3, f"v = S[{BOARD} + nx]"),
                (3, f"if not ({friend}): break"),
                (3, "inside = False"),
                (3, "for _x in range(ln):"),
                (4, "if T[XG + _x] == nx:"),
                (5, "inside = True"),
                (5, "break"),
                (3, "if inside: break"),
                (3, "T[XG + ln] = nx"),
                (3, "ln += 1")):
            e(depth, line)
        if "lpush" not in self.offsets:
            self.offsets["lpush"] = -1  # written once
            self.helpers.append(
                "@njit(cache=True)\n"
                "def lpush(T, n, ln, index, priority):\n"
                "    # The move of the line XG[0:ln] to XG[size:size + ln], its shifts in\n"
                "    # the line's order.\n"
                "    top = T[XS + 1]\n"
                f"    if top + ln > {_ARENA}: return {Status.QUEUE:d}\n"
                "    w = top\n"
                "    for j in range(ln):\n"
                f"        T[XA + w] = {_SHIFT} | (T[XG + j] << 2) | (T[XG + {size} + j] << 18)\n"
                "        w += 1\n"
                "    return push(T, n, top, w, index, priority)\n")

    def noted_push(self) -> str:
        """The function that adds a found move whose words go on past its ``na``
        actions (see ``noted``): written once, where the first such move is."""
        if "npush" in self.offsets:
            return ""
        self.offsets["npush"] = -1
        return """@njit(cache=True)
def npush(T, n, top, na, w, index, priority):
    # The n-th move found: the words T[XA + top:XA + w], na of them its actions, by
    # template ``index``, in no chain of duplicates (none can equal it).
    h = 0x51ED270B27
    for i in range(top, w):
        h = mix(h, T[XA + i])
    T[XN + n] = h
    T[XP + n] = priority
    T[XO + n] = top
    T[XK + n] = na | ((w - top - na) << 16)
    T[XT + n] = index
    T[XL + n] = 0
    T[XS + 1] = w
    return n + 1


"""

    # --- footprint templates ----------------------------------------------------------
    def footprint(self, index: int, t: r.Footprint) -> None:
        """The moves of a footprint template, in the interpreter's order: from each
        centre of the mover's zone (in cell order) whose footprint holds pieces of the
        mover's (of its kinds) and no other, in each direction whose cell holds one,
        the footprint one cell further at a time while the centre stays in the zone,
        up to the first that covers another piece. XG[k] holds the cell of shape
        ``k`` that moves (-1: none), XG[K + k] where it lands, and XG[2K:] the pieces
        covered; ``fpush`` writes each move."""
        size, e, k_all = self.size, self.emit, len(t.shape)
        zone = self.board.zones[t.zone]
        listed = self.put(("zone list", t.zone), [
            v for pl in range(self.players)
            for v in (len(zone.get(pl, ())), *sorted(zone.get(pl, ())),
                      *([0] * (size - len(zone.get(pl, ())))))])
        inside = self.put(("zone", t.zone), [1 if c in zone.get(pl, ()) else 0
                                             for pl in range(self.players)
                                             for c in range(size)])
        mask = self.kinds_mask(t.kinds) if t.kinds else None

        def at(centre: str, k: int) -> str:
            return centre if t.shape[k] == "" else self.direction(t.shape[k]).format(centre)

        e(1, f"# template {index}: footprint {t.name or '(unnamed)'}")
        e(1, f"for _z in range(T[{listed} + player * {size + 1}]):")
        e(2, f"origin = T[{listed} + player * {size + 1} + 1 + _z]")
        e(2, "held = 0")
        for k in range(k_all):
            e(2, f"c = {at('origin', k)}")
            e(2, f"T[XG + {k}] = -1")
            e(2, f"if c >= 0 and S[{BOARD} + c] != 0:")
            mine = f"T[{self.owner} + S[{BOARD} + c]] == player"
            if mask is not None:
                mine += f" and T[{mask} + S[{BOARD} + c]] != 0"
            e(3, f"if not ({mine}): continue")
            e(3, f"held |= {1 << k}")
            e(3, f"T[XG + {k}] = c")
        e(2, "if held == 0: continue")
        far = t.shape.index("") if "" in t.shape else None
        for d in t.directions:
            if d not in t.shape:
                continue  # no cell of the footprint's there to hold a piece
            e(2, f"if held & {1 << t.shape.index(d)}:")
            e(3, "cen = origin")
            reach = str(t.reach) if far is None else f"{size} if held & {1 << far} else {t.reach}"
            e(3, f"for _r in range({reach}):")
            e(4, f"cen = {self.direction(d).format('cen')}")
            e(4, f"if cen < 0 or T[{inside} + player * {size} + cen] == 0: break")
            e(4, "nh = 0")
            for k in range(k_all):
                e(4, f"c = {at('cen', k)}")
                e(4, f"T[XG + {k_all + k}] = c")
                e(4, f"if c >= 0 and S[{BOARD} + c] != 0:")
                e(5, "own = False")
                e(5, f"for _j in range({k_all}):")
                e(6, "if T[XG + _j] == c: own = True")
                e(5, "if not own:")
                e(6, f"T[XG + {2 * k_all} + nh] = c")
                e(6, "nh += 1")
            e(4, f"n = fpush(T, n, player, origin, cen, nh, {k_all}, {inside}, {index}, "
                 f"{t.priority})")
            e(4, "if n < 0: return n")
            e(4, "if nh > 0: break")
        if "fpush" not in self.offsets:
            self.offsets["fpush"] = -1  # written once
            self.helpers.append(f"""@njit(cache=True)
def fpush(T, n, player, origin, cen, nh, kk, inside, index, priority):
    # The move of the footprint at origin to cen: the nh pieces covered (XG[2kk:])
    # taken in cell order, then the piece of each of its kk cells (XG[k] >= 0)
    # shifted to XG[kk + k] or, out of the zone (the table's row at inside), taken
    # off; then its note, the two centres (see _FOOT).
    if n >= {MAX_MOVES}: return {Status.MOVES:d}
    top = T[XS + 1]
    if top + nh + kk + 1 > {_ARENA}: return {Status.QUEUE:d}
    for i in range(1, nh):
        x = T[XG + 2 * kk + i]
        j = i
        while j > 0 and T[XG + 2 * kk + j - 1] > x:
            T[XG + 2 * kk + j] = T[XG + 2 * kk + j - 1]
            j -= 1
        T[XG + 2 * kk + j] = x
    w = top
    for i in range(nh):
        T[XA + w] = {_CAPTURE} | (T[XG + 2 * kk + i] << 2)
        w += 1
    for k in range(kk):
        src = T[XG + k]
        if src >= 0:
            tg = T[XG + kk + k]
            if tg >= 0 and T[inside + player * {size} + tg] != 0:
                T[XA + w] = {_SHIFT} | (src << 2) | (tg << 18)
            else:
                T[XA + w] = {_CAPTURE} | (src << 2)
            w += 1
    na = w - top
    T[XA + w] = {_FOOT} | origin | (cen << 16)
    return npush(T, n, top, na, w + 1, index, priority)
""")
            self.helpers.append(self.noted_push())

    # --- rules of whole moves -------------------------------------------------------
    def group_links(self, directions: tuple[str, ...] | None) -> int:
        """Where the table lists each cell's neighbours along ``directions`` (board
        directions, all when None; groups.neighbour_masks): from ``nb`` it returns,
        cell c's run from T[nb + c] to T[nb + c + 1], each an index from nb."""
        name = ("group links", directions)
        if name not in self.offsets:
            board = self.board
            rows = board.links if directions is None else \
                [board.links[board.direction_index(d)] for d in directions]
            cells = [sorted({row[c] for row in rows if row[c] >= 0})
                     for c in range(self.size)]
            starts = [0]
            for found in cells:
                starts.append(starts[-1] + len(found))
            self.put(name, [v + self.size + 1 for v in starts])
            self.put(("group link cells", directions), [c for found in cells for c in found])
        return self.offsets[name]

    def whole_moves(self) -> tuple[str, list[str], list[str]]:
        """The functions of the rules of whole moves (written before the links' table,
        as they name directions): the tests of the mover's group that generate reads
        as it starts, the lines of its tail that run the rules on the moves found
        (turns of two plies, what a capture cuts off, the invariants), and their
        source (see rules.FollowUp, rules.KeepLargestGroup, rules.StaysConnected,
        rules.NotMirrored)."""
        size, owner = self.size, self.owner
        parts: list[str] = []
        head = [f"    T[XCN + {slot}] = 1 if one_group(S, T, player, "
                f"{self.group_links(directions)}) else 0"
                for directions, slot in self.connections.items()]
        tail: list[str] = []
        groups = bool(self.connections) or any(isinstance(inv, r.StaysConnected)
                                               for inv in self.invariants)
        if groups:
            parts.append(f"""@njit(cache=True)
def one_group(S, T, player, nb):
    # Whether ``player``'s pieces form one group (groups.is_one_group): a search from
    # the first through the cells stamped as theirs (T[XI]: the stamp; a stamp and
    # the next a call: nothing is cleared).
    T[XI] += 2
    stamp = T[XI]
    count = 0
    first = -1
    for c in range({size}):
        v = S[{BOARD} + c]
        if v != 0 and T[{owner} + v] == player:
            T[XI + 1 + c] = stamp
            count += 1
            if first < 0:
                first = c
    if count < 2:
        return True
    T[XI + 1 + first] = stamp + 1
    T[XI + {1 + size}] = first
    top = 1
    seen = 1
    while top > 0:
        top -= 1
        c = T[XI + {1 + size} + top]
        for e in range(T[nb + c], T[nb + c + 1]):
            d = T[nb + e]
            if T[XI + 1 + d] == stamp:
                T[XI + 1 + d] = stamp + 1
                seen += 1
                T[XI + {1 + size} + top] = d
                top += 1
    return seen == count
""")
        rule = self.along
        if rule is not None:
            walks = []
            for d in rule.along:
                row = self.direction(d)
                walks += ["        if not along:",
                          f"            c = {row.format('src')}",
                          f"            for _ in range({size}):",
                          "                if c < 0: break",
                          "                if c == dst:",
                          "                    along = True",
                          "                    break",
                          f"                c = {row.format('c')}"]
            walk = "\n".join(walks)
            parts.append(f"""@njit(cache=True)
def prepares(T, at, count, player):
    # Whether the move of the ``count`` words at T[at:] is one that gives its player
    # a second ply (rules.FollowUp.follows): of a piece at least, each going along
    # one of the rule's directions (a walk of a lap at most).
    found = False
    for i in range(count):
        a = T[at + i]
        if a & 3 != {_SHIFT}:
            continue
        src = (a >> 2) & 65535
        dst = (a >> 18) & 65535
        along = False
{walk}
        if not along:
            return False
        found = True
    return found
""")
            parts.append(f"""@njit(cache=True)
def second_filter(S, T, player, n):
    # The moves found less those that give a second ply (none in the second ply).
    k = 0
    for i in range(n):
        if not prepares(T, XA + T[XO + i], {self.actions_of("T[XK + i]")}, player):
            kept(T, k, i)
            k += 1
    return k
""")
            tail += [f"    if S[{FOLLOW}] >= 0:",
                     "        n = second_filter(S, T, player, n)"]
        cut = self.cut_off
        if cut is not None:
            nb = self.group_links(cut.directions)
            labels, sizes, firsts = (f"XI + {1 + k * size}" for k in (2, 3, 4))
            parts.append(f"""@njit(cache=True)
def groups(S, T, player, nb):
    # The groups of ``player``'s pieces (groups.groups_of), in the order of their first
    # cells: their count; each cell's group in T[{labels} + c] (-1: none), each
    # group's size and first cell in T[{sizes} + g] and T[{firsts} + g].
    for c in range({size}):
        v = S[{BOARD} + c]
        T[{labels} + c] = -2 if v != 0 and T[{owner} + v] == player else -1
    ng = 0
    for c in range({size}):
        if T[{labels} + c] != -2:
            continue
        T[{labels} + c] = ng
        T[XI + {1 + size}] = c
        top = 1
        count = 1
        while top > 0:
            top -= 1
            x = T[XI + {1 + size} + top]
            for e in range(T[nb + x], T[nb + x + 1]):
                d = T[nb + e]
                if T[{labels} + d] == -2:
                    T[{labels} + d] = ng
                    count += 1
                    T[XI + {1 + size} + top] = d
                    top += 1
        T[{sizes} + ng] = count
        T[{firsts} + ng] = c
        ng += 1
    return ng


@njit(cache=True)
def cutoff(S, T, player, n):
    # The moves found as rules.KeepLargestGroup makes them: a move that captures, after
    # which the other player's pieces form several groups, becomes one move for each
    # largest group, which stays while the others are captured too (each cell of them
    # in order); where there are several, the move's words end with a note of the
    # kept group's first cell (_NOTE). The new list is written past the n moves, then
    # moved down.
    H = T[XU:XU + {_HIST}].reshape((1, {_HIST}))
    last = S[{LAST}]
    other = 1 - player
    m = n
    for i in range(n):
        at = XA + T[XO + i]
        count = T[XK + i]
        takes = False
        for j in range(count):
            if T[at + j] & 3 == {_CAPTURE}:
                takes = True
                break
        ng = 0
        if takes:
            touched = mplay(S, H, T, 0, at, count)
            if touched < 0:
                return touched
            ng = groups(S, T, other, {nb})
            for j in range(touched - 1, -1, -1):
                S[{BOARD} + H[0, 5 + 2 * j]] = H[0, 6 + 2 * j]
            S[{LAST}] = last
        if ng < 2:
            if m >= {MAX_MOVES}:
                return {Status.MOVES:d}
            kept(T, m, i)
            m += 1
            continue
        biggest = 0
        ties = 0
        for x in range(ng):
            if T[{sizes} + x] > biggest:
                biggest = T[{sizes} + x]
                ties = 1
            elif T[{sizes} + x] == biggest:
                ties += 1
        for x in range(ng):
            if T[{sizes} + x] != biggest:
                continue
            if m >= {MAX_MOVES}:
                return {Status.MOVES:d}
            top = T[XS + 1]
            if top + count + {size + 1} > {_ARENA}:
                return {Status.QUEUE:d}
            w = top
            for j in range(count):
                T[XA + w] = T[at + j]
                w += 1
            for c in range({size}):
                if T[{labels} + c] >= 0 and T[{labels} + c] != x:
                    T[XA + w] = {_CAPTURE} | (c << 2)
                    w += 1
            words = w - top
            if ties > 1:
                T[XA + w] = {_NOTE} | T[{firsts} + x]
                w += 1
            h = 0x51ED270B27
            for j in range(top, w):
                h = mix(h, T[XA + j])
            T[XN + m] = h
            T[XP + m] = T[XP + i]
            T[XO + m] = top
            T[XK + m] = words | ((w - top - words) << 16)
            T[XT + m] = T[XT + i]
            T[XS + 1] = w
            m += 1
    for j in range(m - n):
        kept(T, j, n + j)
    return m - n
""")
            tail += ["    n = cutoff(S, T, player, n)",
                     "    if n < 0: return n"]
        if self.invariants:
            # Each invariant: whether a move is held to it, a verdict found without
            # making the move (1 kept, 0 refused, -1 to be made), and its test once
            # made; and what invariants() works out first, once a position.
            tests: list[tuple[str, str | None, str]] = []
            first: list[str] = []
            for k, inv in enumerate(self.invariants):
                if isinstance(inv, r.StaysConnected):
                    nb = self.group_links(inv.directions)
                    base = f"XJ + {k * 6 * size}"
                    first.append(f"    g{k} = articulate(S, T, player, {nb}, {base})")
                    tests.append(("True", f"stays(S, T, player, at, count, {nb}, {base}, g{k})",
                                  f"one_group(S, T, player, {nb})"))
                    continue
                image = self.put(("mirror image", inv.image), inv.image)
                swap = self.put("owners swapped", [0] + [
                    self.codes.get(Piece(1 - p.owner, p.kind, p.attributes), -1)
                    for p in self.pieces[1:]])
                held = "True"
                if inv.onto is not None:
                    onto = self.put(("onto", inv.onto), [int(c in inv.onto[pl])
                                                        for pl in range(self.players)
                                                        for c in range(size)])
                    held = f"brings(T, at, count, player, {onto})"
                tests.append((held, None, f"(not mirrored(S, T, {image}, {swap}))"))
            if any(isinstance(inv, r.StaysConnected) for inv in self.invariants):
                self.stays_regions = 6 * size * len(self.invariants)
                parts.append(self.articulation())
            if any(isinstance(inv, r.NotMirrored) for inv in self.invariants):
                parts.append(f"""@njit(cache=True)
def mirrored(S, T, image, swap):
    # Whether the position is its own mirror image by the cells' ``image`` with the
    # owners swapped (rules.NotMirrored.mirrored).
    for c in range({size}):
        if S[{BOARD} + T[image + c]] != T[swap + S[{BOARD} + c]]:
            return False
    return True


@njit(cache=True)
def brings(T, at, count, player, onto):
    # Whether the move of the ``count`` words at T[at:] brings a piece of ``player``
    # onto its cells of ``onto`` (a row of flags by player) from off them, or drops
    # one there (rules.NotMirrored.applies).
    row = onto + player * {size}
    for i in range(count):
        a = T[at + i]
        if a & 3 == {_SHIFT}:
            if T[row + ((a >> 18) & 65535)] != 0 and T[row + ((a >> 2) & 65535)] == 0:
                return True
        elif a & 3 == {_PLACE}:
            if T[row + ((a >> 2) & 65535)] != 0 and T[{owner} + ((a >> 18) & 65535)] == player:
                return True
    return False
""")
            lines = []
            for k, (held, quick, _) in enumerate(tests):
                lines.append(f"        h{k} = {held}")
                lines.append(f"        q{k} = {quick if quick else '-1'} if h{k} else 1")
                lines.append(f"        if q{k} == 0: ok = False")
            verdicts = "\n".join(lines)
            play = " or ".join(f"q{k} < 0" for k in range(len(tests)))
            checks = "\n".join(f"            if ok and q{k} < 0 and not {test}:\n"
                               "                ok = False"
                               for k, (_, _, test) in enumerate(tests))
            parts.append(f"""@njit(cache=True)
def invariants(S, T, player, n):
    # The moves found less those whose position after breaks an invariant
    # (rules.Rules.invariants), in order: each held to one whose verdict is not known
    # before is made on S and unmade.
    H = T[XU:XU + {_HIST}].reshape((1, {_HIST}))
    last = S[{LAST}]
{chr(10).join(first)}
    k = 0
    for i in range(n):
        at = XA + T[XO + i]
        count = {self.actions_of("T[XK + i]")}
        ok = True
{verdicts}
        if ok and ({play}):
            touched = mplay(S, H, T, 0, at, count)
            if touched < 0:
                return touched
{checks}
            for j in range(touched - 1, -1, -1):
                S[{BOARD} + H[0, 5 + 2 * j]] = H[0, 6 + 2 * j]
            S[{LAST}] = last
        if ok:
            kept(T, k, i)
            k += 1
    return k
""")
            tail += ["    n = invariants(S, T, player, n)",
                     "    if n < 0: return n"]
        return "\n\n".join(parts) + ("\n\n" if parts else ""), head, tail

    def articulation(self) -> str:
        """``articulate`` and ``stays``: rules.StaysConnected answered without making
        most moves. Once a position, the mover's group and the pieces whose leaving
        would split it (its articulation points: Tarjan's search, without recursion);
        then a move of one of the mover's pieces, taking nothing of theirs, from a cell
        whose leaving splits nothing, keeps one group exactly when the piece lands next
        to another of them (or is alone). Other moves are made and their group searched
        (``one_group``)."""
        size, owner = self.size, self.owner
        return f"""@njit(cache=True)
def articulate(S, T, player, nb, base):
    # The count of ``player``'s pieces when they form one group (-1: not, or none),
    # each cell's flag of an articulation point at T[base + {5 * size} + c].
    disc = base
    low = base + {size}
    par = base + {2 * size}
    it = base + {3 * size}
    stk = base + {4 * size}
    cut = base + {5 * size}
    root = -1
    count = 0
    for c in range({size}):
        T[disc + c] = 0
        T[cut + c] = 0
        v = S[{BOARD} + c]
        if v != 0 and T[{owner} + v] == player:
            count += 1
            if root < 0:
                root = c
    if count == 0:
        return -1
    time = 1
    T[disc + root] = 1
    T[low + root] = 1
    T[par + root] = -1
    T[it + root] = T[nb + root]
    T[stk] = root
    sp = 1
    kids = 0
    while sp > 0:
        u = T[stk + sp - 1]
        e = T[it + u]
        if e < T[nb + u + 1]:
            T[it + u] = e + 1
            w = T[nb + e]
            x = S[{BOARD} + w]
            if x == 0 or T[{owner} + x] != player:
                continue
            if T[disc + w] == 0:
                time += 1
                T[disc + w] = time
                T[low + w] = time
                T[par + w] = u
                T[it + w] = T[nb + w]
                T[stk + sp] = w
                sp += 1
                if u == root:
                    kids += 1
            elif w != T[par + u] and T[disc + w] < T[low + u]:
                T[low + u] = T[disc + w]
        else:
            sp -= 1
            p = T[par + u]
            if p >= 0:
                if T[low + u] < T[low + p]:
                    T[low + p] = T[low + u]
                if p != root and T[low + u] >= T[disc + p]:
                    T[cut + p] = 1
    if kids > 1:
        T[cut + root] = 1
    return count if time == count else -1


@njit(cache=True)
def stays(S, T, player, at, count, nb, base, before):
    # Whether the move of the ``count`` words at T[at:] leaves ``player``'s pieces one
    # group (1) or not (0), where a single shift of theirs that takes none of theirs
    # answers it from ``articulate``'s findings (``before``: its count); else -1.
    if before < 0:
        return -1
    src = -1
    dst = -1
    for i in range(count):
        a = T[at + i]
        k = a & 3
        if k == {_SHIFT}:
            if src >= 0:
                return -1
            src = (a >> 2) & 65535
            dst = (a >> 18) & 65535
        elif k == {_CAPTURE}:
            v = S[{BOARD} + ((a >> 2) & 65535)]
            if v != 0 and T[{owner} + v] == player:
                return -1
        else:
            return -1
    if src < 0:
        return -1
    v = S[{BOARD} + src]
    if v == 0 or T[{owner} + v] != player or T[base + {5 * size} + src] != 0:
        return -1
    v = S[{BOARD} + dst]
    if v != 0 and T[{owner} + v] == player:
        return -1
    if before == 1:
        return 1
    for e in range(T[nb + dst], T[nb + dst + 1]):
        d = T[nb + e]
        if d != src:
            v = S[{BOARD} + d]
            if v != 0 and T[{owner} + v] == player:
                return 1
    return 0
"""

    def runs(self) -> list[list[str]]:
        """Each template's lines in generate: its runs from each start."""
        runs = []
        self.lazy = {}
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
        if type(t) is r.Drop:
            self.drop_head(t)
        else:
            if self.reserved:
                self.hold(1, "rsv = 0")  # its pieces in hand come from cells
            if t.shared:  # any piece on the board, not only the mover's
                self.emit(1, f"for start in range({self.size}):")
                self.emit(2, f"if S[{BOARD} + start] == 0: continue")
            elif t.kinds:
                # The mover's pieces of its kinds, listed by generate (see kind_lists).
                j = self.kind_lists.setdefault(frozenset(t.kinds), len(self.kind_lists))
                row = f"XKC + {j * (self.size + 1)}"
                self.emit(1, f"for _s in range(T[{row}]):")
                self.emit(2, f"start = T[{row} + 1 + _s]")
            else:
                self.emit(1, "for _s in range(mine):")
                self.emit(2, "start = T[XC + _s]")
            self.hold(2, f"hand = S[{BOARD} + start]")
            if t.kinds and t.shared:
                self.emit(2, f"if T[{self.kinds_mask(t.kinds)} + hand] == 0: continue")
            self.hold(2, "hf = start")  # where the piece in hand is from (-1: no cell)
        self.emit(2, "pos = start")
        self.emit(2, "q = 0")  # the actions queued by the run
        self.emit(2, "nc = 0")  # the changes of type and owner it asked for
        self.leaving = index in self.leaving_templates
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

    def attacks(self) -> str:
        """The functions that say whether a piece is attacked (rules.attacked, for
        ``checkmated``): each template written to say whether, run for ``player``
        from ``start``, it takes a piece on ``target`` or lands there (1; -1: it loops
        for ever); ``in_check``, which runs the templates whose reach from a piece of
        another player includes a protected piece's cell (rules._attackers: the same
        analysis as the interpreter's); ``guard``, which keeps the moves found that
        leave no protected piece of the mover attacked (turn._Safety)."""
        game, size, n = self.game, self.size, self.players
        rules = game.move_rules
        bodies: list[list[str] | None] = []
        self.attacking = True
        for index, t in enumerate(self.templates):
            if type(t) is not r.Template:
                bodies.append(None)  # drops and groups attack nothing (the interpreter's)
                continue
            bodies.append(self.from_start(index, owned=False))
        self.attacking = False
        parts, table, width, calls = self.shaped(bodies, "attack", "S, T, player, start, target",
                                                 "0")
        dispatch = "".join(f"    {'if' if k == 0 else 'elif'} T[row] == {k}:\n"
                           f"        return {call}\n" for k, call in enumerate(calls))
        # Which templates may attack each cell from which cells, for each player.
        index_of = {id(t): i for i, t in enumerate(self.templates)}
        entries: list[list[set[tuple[int, int]]]] = [[set() for _ in range(size)]
                                                     for _ in range(n)]
        # The cells each (player, source, template) run reads, as a mask of the board's
        # cells (and its source's): a move that changes none leaves its attack as it was.
        looks: dict[tuple[int, int, int], int] = {}

        def reads(q: int, source: int, index: int, looked: Any) -> None:
            # A run that reads the last move, which every move changes: any cell.
            everywhere = looked is r.EVERYWHERE or self.templates[index].reads_history
            bits = -1 if everywhere else sum(1 << c for c in looked)
            looks[q, source, index] = looks.get((q, source, index), 0) | bits | (1 << source)

        for q in range(n):
            for kind in sorted({p.kind for p in self.pieces[1:] if p.owner == q}):
                found = rules._attackers(self.game, q, kind, None)
                for target in range(size):
                    for source, t, looked in found.by_target[target]:
                        entries[q][target].add((source, index_of[id(t)]))
                        reads(q, source, index_of[id(t)], looked)
                for t, (sources, looked) in found.wide.items():
                    for source in (range(size) if sources is None else sources):
                        reads(q, source, index_of[id(t)], looked)
                        for target in range(size):
                            entries[q][target].add((source, index_of[id(t)]))
        starts, flat, masks = [], [], []
        for q in range(n):
            for target in range(size):
                starts.append(len(flat) // 2)
                for pair in sorted(entries[q][target]):
                    flat.extend(pair)
                    masks.append(_signed(looks[(q, *pair)] & _MASK64))
                if len(flat) > 1 << 23:
                    raise Unsupported("too many attacks to tabulate")
        starts.append(len(flat) // 2)
        at = self.put("attack starts", starts)
        pairs = self.put("attack pairs", flat)
        # A move is looked at in full where the cells do not fit a mask of 64 bits.
        masked = size <= 64
        reach = self.put("attack reads", masks) if masked else -1
        sources = by_source = lowest = -1
        if masked:
            # By player and target: the cells its attackers may stand on (a mask), and
            # where each source cell's pairs start (the pairs are in order of source),
            # so that only the cells holding a piece are looked at; the index of a
            # mask's lowest bit by a de Bruijn product.
            source_bits, firsts = [], []
            for q in range(n):
                for target in range(size):
                    lo, hi = starts[q * size + target], starts[q * size + target + 1]
                    cells = [flat[2 * e] for e in range(lo, hi)]
                    source_bits.append(_signed(sum(1 << c for c in set(cells))))
                    e = lo
                    for c in range(size + 1):
                        while e < hi and flat[2 * e] < c:
                            e += 1
                        firsts.append(e)
            sources = self.put("attack sources", source_bits)
            by_source = self.put("attack pairs by source", firsts)
            bit_of = [0] * 64
            for bit in range(64):
                bit_of[(((1 << bit) * _DE_BRUIJN) & _MASK64) >> 58] = bit
            lowest = self.put("lowest bit", bit_of)
        # The mover's protected pieces (ZRF checkmated), a mask row by player (-1: none).
        guards = []
        for player in range(n):
            kinds = {k for guard in rules.protect if player in guard.players
                     for k in guard.kinds}
            guards.append(self.kinds_mask(kinds) if kinds else -1)
        self.guards = self.put("guards", guards)
        return f"""{parts}{self.could_take(at, pairs)}@njit(cache=True)
def attack(S, T, index, player, start, target):
    row = {table} + index * {width}
{dispatch}    return 0


@njit(cache=True)
def strikes(S, T, pos, hand, hf, q, nc, becomes, copy, rsv, target):
    # Whether the move an add makes takes the piece on ``target`` or lands there (a
    # move with more actions than room: no).
    top = T[XS + 1]
    w = compose(S, T, pos, hand, hf, q, nc, becomes, copy, rsv)
    occupied = S[{BOARD} + target] != 0
    for i in range(top, w):
        a = T[XA + i]
        if a & 3 == {_CAPTURE} and (a >> 2) & 65535 == target and occupied:
            return True
        if a & 3 == {_SHIFT} and (a >> 18) & 65535 == target:
            return True
    return False


@njit(cache=True)
def in_check(S, T, player, mask):
    # 1 when another player could take a piece of ``player``'s that ``mask`` (a row of
    # piece codes) names with one move now, -1 when a template loops for ever, else 0.
    for c in range({size}):
        hit = checked_at(S, T, player, mask, c)
        if hit != 0:
            return hit
    return 0


@njit(cache=True, inline='always')
def checked_at(S, T, player, mask, c):
    # in_check for the piece on cell c alone (0 where it is none that mask names).
    v = S[{BOARD} + c]
    if v == 0 or T[{self.owner} + v] != player or T[mask + v] == 0:
        return 0
    for q in range({n}):
        if q == player:
            continue
        for e in range(T[{at} + q * {size} + c], T[{at} + q * {size} + c + 1]):
            s = T[{pairs} + 2 * e]
            u = S[{BOARD} + s]
            if u == 0 or T[{self.owner} + u] != q:
                continue
            hit = attack(S, T, T[{pairs} + 2 * e + 1], q, s, c)
            if hit != 0:
                return hit
    return 0


@njit(cache=True, inline='always')
def attackers(S, T, player, c, others, w):
    # Each run (its pair * 8 + its player) that may reach cell c from a cell of
    # ``others`` (a mask of the other players' pieces' cells) holding a piece of its
    # player, appended to T[XW + w:]: the list's new end, or -1 where it is full
    # (masked kernels alone).
    for q in range({n}):
        if q == player:
            continue
        base = {by_source} + (q * {size} + c) * {size + 1}
        bits = others & T[{sources} + q * {size} + c]
        while bits != 0:
            low = bits & -bits
            bits ^= low
            s = T[{lowest} + np.int64((np.uint64(low) * np.uint64({_DE_BRUIJN})) >> np.uint64(58))]
            u = S[{BOARD} + s]
            if u == 0 or T[{self.owner} + u] != q:
                continue
            for e in range(T[base + s], T[base + s + 1]):
                if w >= {_ATTACKERS}:
                    return -1
                T[XW + w] = e * 8 + q
                w += 1
    return w


@njit(cache=True, inline='always')
def hits(S, T, c, start, end):
    # Whether a run of T[XW + start:XW + end] takes the piece on c (-1: it loops).
    for x in range(start, end):
        e = T[XW + x] >> 3
        hit = attack(S, T, T[{pairs} + 2 * e + 1], T[XW + x] & 7, T[{pairs} + 2 * e], c)
        if hit != 0:
            return hit
    return 0


@njit(cache=True, inline='always')
def checked_bits(S, T, player, mask, c, others, w):
    # checked_at, trying only the attackers standing on a cell of ``others`` (listed
    # from T[XW + w], see attackers).
    v = S[{BOARD} + c]
    if v == 0 or T[{self.owner} + v] != player or T[mask + v] == 0:
        return 0
    end = attackers(S, T, player, c, others, w)
    if end < 0:
        return checked_at(S, T, player, mask, c)
    return hits(S, T, c, w, end)


@njit(cache=True)
def guard(S, T, player, n):
    # The n moves found less those after which a protected piece of the mover is
    # attacked, in order (each made on S and unmade, its changes kept in a row of
    # the table's scratch); or below zero, as generate says.
    mask = T[{self.guards} + player]
    H = T[XU:XU + {_HIST}].reshape((1, {_HIST}))
    last = S[{LAST}]
    # The protected pieces' cells now: after a move they are on these or on the cells
    # the move touched, so no move needs the whole board looked over.
    nv = 0
    for c in range({size}):
        v = S[{BOARD} + c]
        if v != 0 and T[{self.owner} + v] == player and T[mask + v] != 0:
            T[XV + nv] = c
            nv += 1
    # Each piece's attackers now: the runs that may reach it from another player's
    # piece, listed in T[XW + T[XV + {size} + j]:XW + T[XV + {2 * size} + j]] (pair and
    # player). A move that changes none of the cells a run reads (T[{reach} + pair])
    # leaves its answer as it is now, none (turn._Safety); every move is looked at
    # in full where one is attacked now, the list is too long, or the cells do not
    # fit the masks (masked: {masked}).
    full = not {masked}
    w = 0
    # The cells of the other players' pieces (masked kernels).
    others = 0
    for c in range({size} if {masked} else 0):
        v = S[{BOARD} + c]
        others |= np.int64(v != 0 and T[{self.owner} + v] != player) << c
    for j in range(nv if {masked} else 0):
        c = T[XV + j]
        end = attackers(S, T, player, c, others, w)
        if end < 0:
            full = True
            break
        hit = hits(S, T, c, w, end)
        if hit < 0:
            return hit
        if hit != 0:
            full = True
        T[XV + {size} + j] = w
        T[XV + {2 * size} + j] = end
        w = end
    k = 0
    for i in range(n):
        touched = mplay(S, H, T, 0, XA + T[XO + i], {self.actions_of("T[XK + i]")})
        if touched < 0:
            return touched
        hit = 0
        changed = 0
        whole = full
        after = others
        for j in range(touched):
            cell = H[0, 5 + 2 * j]
            if cell < {size}:
                changed |= 1 << cell
                after &= ~(1 << cell)
                u = S[{BOARD} + cell]
                if u != 0 and T[{self.owner} + u] != player:
                    whole = True  # another player's piece arrives (or stays)
                    after |= 1 << cell
        for j in range(nv + touched):
            if j < nv:
                c = T[XV + j]
                if not whole and (changed >> c) & 1 == 0:
                    for x in range(T[XV + {size} + j], T[XV + {2 * size} + j]):
                        e = T[XW + x] >> 3
                        if T[{reach} + e] & changed == 0:
                            continue
                        q = T[XW + x] & 7
                        s = T[{pairs} + 2 * e]
                        u = S[{BOARD} + s]
                        if u != 0 and T[{self.owner} + u] == q:
                            hit = attack(S, T, T[{pairs} + 2 * e + 1], q, s, c)
                            if hit != 0:
                                break
                    if hit != 0:
                        break
                    continue
            else:
                c = H[0, 5 + 2 * (j - nv)]
            if c < {size}:
                if {masked}:
                    hit = checked_bits(S, T, player, mask, c, after, w)
                else:
                    hit = checked_at(S, T, player, mask, c)
                if hit != 0:
                    break
        for j in range(touched - 1, -1, -1):
            S[{BOARD} + H[0, 5 + 2 * j]] = H[0, 6 + 2 * j]
        S[{LAST}] = last
        if hit < 0:
            return hit
        if hit == 0:
            kept(T, k, i)
            k += 1
    return k


"""

    def could_take(self, at: int, pairs: int) -> str:
        """``could_take``, the kernel's interpret._could_take (``attacked?`` and
        ``defended?`` in a run: ``defended`` 0 or 1, ``kind`` the code of the move type
        asked about, -1 for any), and ``attacked_at``, its rules.attacked over the
        attack tables (``at``, ``pairs``; see attacks). A template that loops for ever
        leaves -1 in ``T[XE]`` for generate to return."""
        if not self.asks_attacks:
            return ""
        n, size = self.players, self.size
        owned_by_other = self.owned_by("other")
        types = self.put("attack types", [self.attack_types.get(t.move_type, -2)
                                          if t.move_type is not None else -2
                                          for t in self.templates])
        return f"""@njit(cache=True)
def attacked_at(S, T, cell, player, defended, kind, exclude):
    # Whether a player the question asks about (the mover's opponents, or with
    # ``defended`` the mover) could capture on ``cell`` or move onto it with one move
    # of a template (of move type ``kind``) now; -1: a template loops for ever.
    for q in range({n}):
        if (q == player) != defended:
            continue
        for e in range(T[{at} + q * {size} + cell], T[{at} + q * {size} + cell + 1]):
            s = T[{pairs} + 2 * e]
            if s == exclude:
                continue
            u = S[{BOARD} + s]
            if u == 0 or T[{self.owner} + u] != q:
                continue
            t = T[{pairs} + 2 * e + 1]
            if kind >= 0 and T[{types} + t] != kind:
                continue
            hit = attack(S, T, t, q, s, cell)
            if hit != 0:
                return hit
    return 0


@njit(cache=True)
def could_take(S, T, player, pos, start, hand, defended, kind):
    v = S[{BOARD} + pos]
    exclude = start if defended else -1
    hit = 0
    if v != 0 and (T[{self.owner} + v] == player) != defended:
        hit = attacked_at(S, T, pos, player, defended, kind, exclude)
    else:
        # The question asked of a piece of a player it does not ask about on the cell:
        # the one there, else the moving piece.
        piece = v
        if piece == 0:
            piece = S[{BOARD} + start] if start >= 0 else 0
            if piece == 0:
                piece = hand
            if piece == 0:
                return False
        other = player
        if defended:
            other = 1 if player == 0 else 0
        S[{BOARD} + pos] = T[{owned_by_other} + piece]
        hit = attacked_at(S, T, pos, player, defended, kind, exclude)
        S[{BOARD} + pos] = v
    if hit < 0:
        T[XE] = -1
        return False
    return hit != 0


"""

    # --- move filters and chains of partial moves ---------------------------------
    def maximal(self) -> str:
        """The move filter of draughts' majority rule (rules.MaximalCaptures: ZRF's
        ``maximal captures``): the moves whose captures weigh the most, in order."""
        select = self.game.move_rules.select
        if select is None:
            return ""
        assert isinstance(select, r.MaximalCaptures)
        if select.kings_first:
            kings = self.mask_of_codes(("not men", select.men),
                                       lambda p: p.kind != select.men)
            weigh = "(kings << 20) | c"
            count = (f"            if p != 0 and T[{kings} + p] != 0:\n"
                     "                kings += 1\n")
        else:
            weigh, count = "c", ""
        return f'''@njit(cache=True)
def weight(S, T, i):
    c = 0
    kings = 0
    for j in range(T[XO + i], T[XO + i] + {self.actions_of("T[XK + i]")}):
        a = T[XA + j]
        if a & 3 == {_CAPTURE}:
            c += 1
            p = S[{BOARD} + ((a >> 2) & 65535)]
{count}    return {weigh}


@njit(cache=True)
def maximal(S, T, n):
    best = -1
    for i in range(n):
        w = weight(S, T, i)
        if w > best:
            best = w
    k = 0
    for i in range(n):
        if weight(S, T, i) == best:
            kept(T, k, i)
            k += 1
    return k


'''

    def hand_key_lines(self) -> str:
        """The lines of a loop over the touched cells (``cell``, ``old``, ``new``) that
        turn ``key`` for a count in hand (a cell from ``HAND`` on), when any is kept."""
        if not self.reserved:
            return ""
        return ("        if cell >= HAND:\n"
                f"            row = {self.hand_keys} + (cell - HAND) * {_HAND_KEYS}\n"
                f"            key ^= T[row + min(old, {_HAND_KEYS - 1})] ^ "
                f"T[row + min(new, {_HAND_KEYS - 1})]\n"
                "            continue\n")

    def last_key_lines(self) -> str:
        """The lines that turn ``key`` from the last move's cells ``l0`` (before) to
        those in S now (none when the key does not read them)."""
        if self.last_keys < 0:
            return ""
        size = self.size
        return "".join(f"    {line}\n" for line in (
            f"l1 = S[{LAST}]",
            "if l0 != l1:",
            "    if l0 >> 16:",
            f"        key ^= T[{self.last_keys} + (l0 & 65535)] ^ "
            f"T[{self.last_keys + size + 1} + (l0 >> 16)]",
            "    if l1 >> 16:",
            f"        key ^= T[{self.last_keys} + (l1 & 65535)] ^ "
            f"T[{self.last_keys + size + 1} + (l1 >> 16)]"))

    def actions_of(self, count: str) -> str:
        """The count of a found move's actions, from its count of words ``count``
        (a chain's has its steps' above, see cpush)."""
        return f"({count} & 65535)" if self.noted else count

    def chain_regions(self) -> list[tuple[str, int]]:
        """The scratch the search of chains uses (none without partial moves): the
        steps found (start and count of words, template, type, cell, next last step of
        the same position), the positions reached and the steps between them, the
        search's frames and history rows, and what composing a chain needs."""
        if not self.partial_types:
            return []
        rows = self.game.move_rules.max_chain + 2
        return [("XW", 6 * _STEPS), ("NC", 1), ("NK", _NODES), ("NL", _NODES), ("NO", _NODES),
                ("NEH", _NODES), ("NET", _NODES), ("NLH", _NODES), ("NLT", _NODES),
                ("NPL", _NODES), ("NPA", _NODES), ("NPS", _NODES), ("NCO", _NODES),
                ("NSL", _NODES), ("TS", _NODES), ("EN", 2 * _NODES), ("BQ", _NODES),
                ("SOK", _NODES), ("SOI", _NODES),
                ("HS", 2 * _NODES), ("ETO", _EDGES), ("ERC", _EDGES), ("ENX", _EDGES),
                ("FR", 8 * rows), ("HC", _HIST * rows), ("PB", rows),
                ("CST", self.size), ("COG", self.size), ("CPC", self.size),
                ("CRS", self.size), ("CTL", self.size), ("LT", 3 * _QUEUE),
                ("DB", _QUEUE + 3 + _CHANGES)]

    def chains(self) -> str:
        """The functions that play chains of partial moves out (rules.Rules._chains,
        the interpreter's search, step for step): ``record`` keeps a step a template
        makes; each template that goes on with a chain is written once more to run
        from the cell the chain's piece stands on (``cont``); ``chains`` searches, for
        each priority, the positions the first steps lead to (each once, Tarjan's way:
        where the steps go round in a cycle, a chain may end in it), then adds a move
        for each way a chain ends, by a shortest chain, as ``ccompose`` composes its
        steps (rules.compose), its steps' words after its actions for its notation."""
        if not self.partial_types:
            return ""
        rules = self.game.move_rules
        templates = self.templates
        bodies: list[list[str] | None] = []
        going = {k for row in self.going_on for k in row}
        self.continuing = True
        for index in range(len(templates)):
            if index not in going:
                bodies.append(None)
                continue
            bodies.append(self.from_start(index, owned=True))
        self.continuing = False
        parts, table, width, calls = self.shaped(bodies, "cont", "S, T, player, start", "0")
        dispatch = "".join(f"    {'if' if k == 0 else 'elif'} T[row] == {k}:\n"
                           f"        return {call}\n" for k, call in enumerate(calls))
        starts, flat = [], []
        for row in self.going_on:
            starts.append(len(flat))
            flat.extend(row)
        starts.append(len(flat))
        goes = self.put("going on starts", starts)
        going_list = self.put("going on", flat)
        prio = self.put("priorities", [t.priority for t in templates])
        # The rules' bound on the steps a position's chains take to explore (a table
        # value, not the source's: rules that differ in it alone share a kernel).
        bound = self.put("most steps", [rules.max_chains])
        maxc = rules.max_chain
        n_stops = "True" if rules.pass_partial else "False"
        z = self.zobrist
        npieces = len(self.pieces) - 1
        last_key = self.last_key_lines()
        if rules.deferred_captures:
            # A piece a step takes stays, owned by nobody, until the chain ends: a step
            # that would take it again is not played (rules.Rules._chains).
            taken = self.put("taken pieces", [0] + [
                self.codes[Piece(-1, p.kind, p.attributes)] for p in self.pieces[1:]])
            deferred = "".join(f"    {line}\n" for line in (
                "at = DB",
                "for i in range(T[r + 1]):",
                "    a = T[XA + T[r] + i]",
                f"    c = S[{BOARD} + ((a >> 2) & 65535)]",
                f"    if a & 3 == {_CAPTURE} and c != 0:",
                f"        if T[{self.owner} + c] == -1:",
                "            return -100, key",
                f"        a = {_CHANGE} | (a & {(1 << 18) - 1}) | (T[{taken} + c] << 18)",
                "    T[DB + i] = a"))
        else:
            deferred = "    at = XA + T[r]\n"
        return f'''{self.noted_push()}{parts}@njit(cache=True)
def cont(S, T, index, player, start):
    row = {table} + index * {width}
{dispatch}    return 0


@njit(cache=True)
def record(S, T, pos, hand, hf, q, nc, becomes, copy, rsv, index, kind):
    # A step a template makes (its words at the words' top): of a partial move of
    # type ``kind``, or (-1) a step that ends a chain.
    top = T[XS + 1]
    w = compose(S, T, pos, hand, hf, q, nc, becomes, copy, rsv)
    if w == {Status.NO_MOVE:d}:  # a promotion the hand holds no piece for: no step
        return 0
    if w < 0:
        return w
    k = T[XS + 2]
    if k >= {_STEPS}:
        return {Status.CHAINS:d}
    r = XW + 6 * k
    T[r] = top
    T[r + 1] = w - top
    T[r + 2] = index
    T[r + 3] = kind
    T[r + 4] = pos
    T[r + 5] = -1
    T[XS + 1] = w
    T[XS + 2] = k + 1
    return 0


@njit(cache=True)
def cstep(S, T, H, h, r, key):
    # The step r made on S (its changes kept in row h of H): the cells it touched
    # and the position's new key (-100: a step not played).
    l0 = S[{LAST}]
{deferred}    k = mplay(S, H, T, h, at, T[r + 1])
    if k < 0:
        return k, key
    for j in range(k):
        cell = H[h, 5 + 2 * j]
        old = H[h, 6 + 2 * j]
        new = S[{BOARD} + cell]
{self.hand_key_lines()}        if old != new:
            if old != 0:
                key ^= T[{z} + cell * {npieces} + old - 1]
            if new != 0:
                key ^= T[{z} + cell * {npieces} + new - 1]
{last_key}    return k, key


@njit(cache=True)
def cundo(S, H, h, k, last):
    for j in range(k - 1, -1, -1):
        S[{BOARD} + H[h, 5 + 2 * j]] = H[h, 6 + 2 * j]
    S[{LAST}] = last


@njit(cache=True)
def follow(T, p, a, ri, edges):
    # The step ri from position p to a (the first step to a kept), Tarjan's low.
    e = T[NEH + p]
    while e >= 0:
        if T[ETO + e] == a:
            break
        e = T[ENX + e]
    if e < 0:
        if edges >= {_EDGES}:
            return {Status.CHAINS:d}
        T[ETO + edges] = a
        T[ERC + edges] = ri
        T[ENX + edges] = -1
        if T[NET + p] < 0:
            T[NEH + p] = edges
        else:
            T[ENX + T[NET + p]] = edges
        T[NET + p] = edges
        edges += 1
    if T[NO + a] != 0 and T[NL + a] < T[NL + p]:
        T[NL + p] = T[NL + a]
    return edges


@njit(cache=True)
def node(T, key, nodes, top):
    # The position of ``key``: found (its number), or made (number nodes + 1 << 32;
    # -16 when there is no room).
    slot = spread(key) & {2 * _NODES - 1}
    while True:
        v = T[HS + slot] - 1  # 0: a free slot
        if v < 0:
            break
        if T[NK + v] == key:
            return v
        slot = (slot + 1) & {2 * _NODES - 1}
    if nodes >= {_NODES}:
        return {Status.CHAINS:d}
    v = nodes
    T[HS + slot] = v + 1
    T[NSL + v] = slot
    T[NK + v] = key
    T[NL + v] = v
    T[NO + v] = 1
    T[NEH + v] = -1
    T[NET + v] = -1
    T[NLH + v] = -1
    T[NLT + v] = -1
    T[NCO + v] = -1
    T[TS + top] = v
    return v | (1 << 32)


@njit(cache=True)
def ends(T, x, top, count):
    # Position x closes a strongly connected component of the positions: its members
    # (off Tarjan's stack) become ends, each with whether a chain may stop there.
    start = top - 1
    while T[TS + start] != x:
        start -= 1
    for i in range(start, top):
        T[NCO + T[TS + i]] = x
        T[NO + T[TS + i]] = 0
    closed = True
    loop = top - start > 1
    for i in range(start, top):
        m = T[TS + i]
        e = T[NEH + m]
        while e >= 0:
            if T[NCO + T[ETO + e]] != x:
                closed = False
            if m == x and T[ETO + e] == x:
                loop = True
            e = T[ENX + e]
    for i in range(top - 1, start - 1, -1):
        m = T[TS + i]
        T[EN + 2 * count] = m
        T[EN + 2 * count + 1] = 1 if {n_stops} or (T[NLH + m] < 0 and (
            T[NEH + m] < 0 or (closed and loop))) else 0
        count += 1
    return start, count


@njit(cache=True)
def ctouch(T, c, nt):
    if T[CST + c] == 0:
        T[CTL + nt] = c
        return nt + 1
    return nt


@njit(cache=True)
def ccompose(S, T, count):
    # The actions of the chain of steps T[PB:PB + count] as one move (rules.compose),
    # written at the words' top: their end (-14: no room).
    if count == 1:
        # One step that takes pieces (in the order of their cells, each there) and
        # moves one piece elsewhere, maybe changing it there: its words are the move's
        # as they stand (a checkers jump), as the composition below would write them.
        r = XW + 6 * T[PB]
        at = XA + T[r]
        m = T[r + 1]
        j = 0
        c = -1
        while j < m and T[at + j] & 3 == {_CAPTURE}:
            d = (T[at + j] >> 2) & 65535
            if d <= c or S[{BOARD} + d] == 0:
                break
            c = d
            j += 1
        a = T[at + j] if j < m else 0
        f = (a >> 2) & 65535
        t = (a >> 18) & 65535
        plain = j < m and a & 3 == {_SHIFT} and f != t and S[{BOARD} + f] != 0 and (
            j + 1 == m or (j + 2 == m and T[at + j + 1] & 3 == {_CHANGE} and
                           (T[at + j + 1] >> 2) & 65535 == t))
        # Nor does it take the moving piece, or land on a piece it does not take.
        free = S[{BOARD} + t] == 0
        for i in range(j):
            d = (T[at + i] >> 2) & 65535
            if d == f:
                plain = False
            elif d == t:
                free = True
        if plain and free:
            top = T[XS + 1]
            if top + m > {_ARENA}:
                return {Status.QUEUE:d}
            for i in range(m):
                T[XA + top + i] = T[at + i]
            return top + m
    nt = 0
    for s in range(count):
        r = XW + 6 * T[PB + s]
        at = XA + T[r]
        m = T[r + 1]
        nl = 0
        for i in range(m):
            a = T[at + i]
            if a & 3 == {_SHIFT}:
                c = (a >> 2) & 65535
                if T[CST + c] == 2:
                    T[LT + 3 * nl] = T[COG + c]
                    T[LT + 3 * nl + 1] = T[CPC + c]
                    T[LT + 3 * nl + 2] = T[CRS + c]
                elif T[CST + c] == 1 or S[{BOARD} + c] == 0:
                    T[LT + 3 * nl] = -2
                else:
                    T[LT + 3 * nl] = c
                    T[LT + 3 * nl + 1] = S[{BOARD} + c]
                    T[LT + 3 * nl + 2] = 0
                nl += 1
        # The captured cells and the shifts' sources empty (the cells touched are a
        # set, put in order below).
        for i in range(m):
            a = T[at + i]
            if a & 3 == {_CAPTURE} or a & 3 == {_SHIFT}:
                c = (a >> 2) & 65535
                nt = ctouch(T, c, nt)
                T[CST + c] = 1
        j = 0
        for i in range(m):
            a = T[at + i]
            if a & 3 == {_SHIFT}:
                c = (a >> 18) & 65535
                nt = ctouch(T, c, nt)
                if T[LT + 3 * j] == -2:
                    T[CST + c] = 1
                else:
                    T[CST + c] = 2
                    T[COG + c] = T[LT + 3 * j]
                    T[CPC + c] = T[LT + 3 * j + 1]
                    T[CRS + c] = T[LT + 3 * j + 2]
                j += 1
        for i in range(m):
            a = T[at + i]
            k = a & 3
            if k == {_PLACE} or k == {_CHANGE}:
                c = (a >> 2) & 65535
                fr = (a >> 34) & 1
                if k == {_CHANGE} and T[CST + c] == 2:
                    T[CRS + c] = T[CRS + c] | fr
                elif k == {_CHANGE} and T[CST + c] == 0 and S[{BOARD} + c] != 0:
                    T[COG + c] = c
                    T[CRS + c] = fr
                else:
                    T[COG + c] = -1
                    T[CRS + c] = fr
                nt = ctouch(T, c, nt)
                T[CST + c] = 2
                T[CPC + c] = (a >> 18) & 65535
    # The cells in order.
    for i in range(1, nt):
        c = T[CTL + i]
        j = i - 1
        while j >= 0 and T[CTL + j] > c:
            T[CTL + j + 1] = T[CTL + j]
            j -= 1
        T[CTL + j + 1] = c
    top = T[XS + 1]
    if top + 3 * nt > {_ARENA}:
        return {Status.QUEUE:d}
    w = top
    for i in range(nt):
        c = T[CTL + i]
        if S[{BOARD} + c] == 0:
            continue
        alive = False
        for j in range(nt):
            d = T[CTL + j]
            if T[CST + d] == 2 and T[COG + d] == c:
                alive = True
                break
        if not alive:
            T[XA + w] = {_CAPTURE} | (c << 2)
            w += 1
    for i in range(nt):
        c = T[CTL + i]
        if T[CST + c] == 2 and T[COG + c] >= 0 and T[COG + c] != c:
            T[XA + w] = {_SHIFT} | (T[COG + c] << 2) | (c << 18)
            w += 1
    for i in range(nt):
        c = T[CTL + i]
        if T[CST + c] != 2:
            continue
        o = T[COG + c]
        if o < 0:
            T[XA + w] = {_PLACE} | (c << 2) | (T[CPC + c] << 18) | (T[CRS + c] << 34)
            w += 1
        elif T[CPC + c] != S[{BOARD} + o] or T[CRS + c] != 0:
            T[XA + w] = {_CHANGE} | (c << 2) | (T[CPC + c] << 18) | (T[CRS + c] << 34)
            w += 1
    for i in range(nt):
        T[CST + T[CTL + i]] = 0
    return w


@njit(cache=True)
def cpush(S, T, n, count, priority, firsts):
    # The move of the chain T[PB:PB + count], unless it does nothing or an equal one
    # of its priority came before (rules.Rules.generate's keep); its template is the
    # first's of the first steps whose words are its first step's.
    top = T[XS + 1]
    w = ccompose(S, T, count)
    if w < 0:
        return w
    na = w - top
    if na == 0:
        return n
    for o in range(n):
        if T[XP + o] != priority or T[XK + o] & 65535 != na:
            continue
        same = True
        for i in range(na):
            if T[XA + T[XO + o] + i] != T[XA + top + i]:
                same = False
                break
        if same:
            return n
    for s in range(count):
        r = XW + 6 * T[PB + s]
        if w + 1 + T[r + 1] > {_ARENA}:
            return {Status.QUEUE:d}
        T[XA + w] = {_STEP_MARK} | T[r + 1]
        w += 1
        for i in range(T[r + 1]):
            T[XA + w] = T[XA + T[r] + i]
            w += 1
    f = XW + 6 * T[PB]
    template = T[f + 2]
    for g in range(firsts):
        r = XW + 6 * g
        if T[{prio} + T[r + 2]] != priority or T[r + 1] != T[f + 1]:
            continue
        same = True
        for i in range(T[r + 1]):
            if T[XA + T[r] + i] != T[XA + T[f] + i]:
                same = False
                break
        if same:
            template = T[r + 2]
            break
    if n >= {MAX_MOVES}:
        return {Status.MOVES:d}
    return npush(T, n, top, na, w, template, priority)


@njit(cache=True)
def single(S, T, H, player, n, priority, firsts, budget):
    # The chains of the first steps of ``priority`` where none goes on (a jump that
    # cannot jump again): each step played, the templates that go on run from its
    # cell, the step taken back. Where none finds a step, each position the steps
    # reach (but the start) is an end of a chain of one step, in the order first
    # reached, by the first step to reach it: what search finds, without its graph.
    # Whether it was so, the moves added to the n found and the budget left; else
    # nothing changed (search then explores the chains).
    root = S[{KEY}]
    ends = 0
    spent = 0
    for ri in range(firsts):
        r = XW + 6 * ri
        if T[{prio} + T[r + 2]] != priority:
            continue
        if T[r + 3] < 0 or spent >= budget:
            # A step that ends a chain at the start, or the bound met: search says it.
            return False, n, budget
        spent += 1
        last = S[{LAST}]
        k, after = cstep(S, T, H, 1, r, root)
        if k == -100:
            continue
        if k < 0:
            return True, k, budget
        kind = T[r + 3]
        at = T[{goes} + kind]
        on = False
        for t in range(T[{goes} + kind + 1] - at if {maxc} > 1 else 0):
            rc = cont(S, T, T[{going_list} + at + t], player, T[r + 4])
            if rc < 0:
                cundo(S, H, 1, k, last)
                T[XS + 2] = firsts
                return True, rc, budget
            if T[XS + 2] > firsts:
                on = True
                break
        T[XS + 2] = firsts
        cundo(S, H, 1, k, last)
        if on:
            return False, n, budget
        if after == root:
            continue
        known = False
        for e in range(ends):
            if T[NK + e] == after:
                known = True
                break
        if not known:
            if ends >= {_NODES - 1}:
                # As many positions as search has room for (its start counts).
                return True, {Status.CHAINS:d}, budget
            T[NK + ends] = after
            T[NL + ends] = ri
            ends += 1
    for e in range(ends):
        T[PB] = T[NL + e]
        n = cpush(S, T, n, 1, priority, firsts)
        if n < 0:
            break
    return True, n, budget - spent


@njit(cache=True)
def search(S, T, player, n, priority, firsts, budget):
    # The chains of the first steps of ``priority`` (rules.Rules._chains): their moves
    # added to the n found, and the budget of steps left. The positions met are
    # counted at T[NC] (chains frees their slots, whatever the search ends with).
    H = T[HC:HC + {_HIST * (maxc + 2)}].reshape(({maxc + 2}, {_HIST}))
    done, n, left = single(S, T, H, player, n, priority, firsts, budget)
    if done or n < 0:
        return n, left
    key = S[{KEY}]
    v = node(T, key, 0, 0)
    if v < 0:
        return v, budget
    nodes = 1
    T[NC] = 1
    top = 1
    edges = 0
    count = 0
    T[FR] = 0
    T[FR + 1] = 1 << 30
    T[FR + 2] = 0
    T[FR + 3] = firsts
    d = 0
    err = 0
    while True:
        f = FR + 8 * d
        ri = T[f + 2]
        if ri < T[f + 3]:
            T[f + 2] = ri + 1
            r = XW + 6 * ri
            if d == 0 and T[{prio} + T[r + 2]] != priority:
                continue
            x = T[f]
            if T[r + 3] < 0:
                # A step that ends a chain here.
                if T[NLT + x] < 0:
                    T[NLH + x] = ri
                else:
                    T[XW + 6 * T[NLT + x] + 5] = ri
                T[NLT + x] = ri
                continue
            budget -= 1
            if budget < 0:
                err = {Status.CHAIN_BOUND:d}
                break
            last = S[{LAST}]
            k, after = cstep(S, T, H, d + 1, r, key)
            if k == -100:
                continue
            if k < 0:
                err = k
                break
            v = node(T, after, nodes, top)
            if v < 0 or v >> 32 == 0:
                cundo(S, H, d + 1, k, last)
                if v < 0:
                    err = v
                    break
                edges = follow(T, x, v, ri, edges)
                if edges < 0:
                    err = edges
                    break
                continue
            nodes += 1
            T[NC] = nodes
            top += 1
            d += 1
            g = FR + 8 * d
            T[g] = v & 0xFFFFFFFF
            T[g + 1] = 0 if d < {maxc} else 1 << 30
            T[g + 2] = 0
            T[g + 3] = 0
            T[g + 4] = key
            T[g + 5] = last
            T[g + 6] = k
            T[g + 7] = ri
            key = after
            continue
        if d > 0:
            # The next template that goes on from this position's cell.
            t = T[f + 1]
            r = XW + 6 * T[f + 7]
            kind = T[r + 3]
            at = T[{goes} + kind]
            if t < T[{goes} + kind + 1] - at:
                T[f + 1] = t + 1
                a = T[XS + 2]
                rc = cont(S, T, T[{going_list} + at + t], player, T[r + 4])
                if rc < 0:
                    err = rc
                    break
                T[f + 2] = a
                T[f + 3] = T[XS + 2]
                continue
        x = T[f]
        if T[NL + x] == x:
            top, count = ends(T, x, top, count)
        if d == 0:
            break
        cundo(S, H, d, T[f + 6], T[f + 5])
        key = T[f + 4]
        d -= 1
        edges = follow(T, T[FR + 8 * d], x, T[f + 7], edges)
        if edges < 0:
            err = edges
            break
    if err < 0:
        # The steps made so far taken back: the position is as it was.
        while d > 0:
            f = FR + 8 * d
            cundo(S, H, d, T[f + 6], T[f + 5])
            d -= 1
        return err, budget
    # A shortest chain to each position, breadth first.
    for v in range(nodes):
        T[NPL + v] = -1
    T[NPL] = 0
    T[BQ] = 0
    head = 0
    tail = 1
    while head < tail:
        v = T[BQ + head]
        head += 1
        e = T[NEH + v]
        while e >= 0:
            a = T[ETO + e]
            if T[NPL + a] < 0:
                T[NPL + a] = T[NPL + v] + 1
                T[NPA + a] = v
                T[NPS + a] = T[ERC + e]
                T[BQ + tail] = a
                tail += 1
            e = T[ENX + e]
    # The ends by the length of their chain, then their node: an insertion sort of
    # their indices (a few ends; numba's own sort costs seconds of compilation), in
    # the table's scratch (arrays of their own cost an allocation at every search).
    for i in range(count):
        key = T[NPL + T[EN + 2 * i]] * {_NODES} + T[EN + 2 * i]
        j = i
        while j > 0 and T[SOK + j - 1] > key:
            T[SOK + j] = T[SOK + j - 1]
            T[SOI + j] = T[SOI + j - 1]
            j -= 1
        T[SOK + j] = key
        T[SOI + j] = i
    for o in range(count):
        i = T[SOI + o]
        x = T[EN + 2 * i]
        length = T[NPL + x]
        v = x
        for j in range(length - 1, -1, -1):
            T[PB + j] = T[NPS + v]
            v = T[NPA + v]
        e = T[NLH + x]
        while e >= 0:
            T[PB + length] = e
            n = cpush(S, T, n, length + 1, priority, firsts)
            if n < 0:
                return n, budget
            e = T[XW + 6 * e + 5]
        if T[EN + 2 * i + 1] != 0 and x != 0:
            n = cpush(S, T, n, length, priority, firsts)
            if n < 0:
                return n, budget
    return n, budget


@njit(cache=True)
def chains(S, T, player, n):
    # The moves of the chains the first steps found since the last call begin, a
    # priority at a time in the order they were first found (the interpreter's). The
    # steps the search may take are the position's (T[XS + 3]: those taken so far).
    done = T[XS + 4]
    firsts = T[XS + 2]
    budget = T[{bound}] - T[XS + 3]
    for i in range(done, firsts):
        p = T[{prio} + T[XW + 6 * i + 2]]
        known = False
        for j in range(i):
            if T[{prio} + T[XW + 6 * j + 2]] == p:
                known = True
                break
        if known:
            continue
        n, budget = search(S, T, player, n, p, firsts, budget)
        for v in range(T[NC]):
            T[HS + T[NSL + v]] = 0
        T[NC] = 0
        T[XS + 2] = firsts
        if n < 0:
            return n
    T[XS + 3] = T[{bound}] - budget
    T[XS + 4] = firsts
    return n


'''

    # --- the module -----------------------------------------------------------------
    def turn_mover(self) -> str:
        """``turn_mover(S, T)``: whose pieces move now (rules.TurnLimits), which also
        puts the move type the turn allows in ``T[XY]`` (-1: any)."""
        limits = self.limits
        if limits is None:
            # The move type of a follow-up due, or any (-1; a follow-up of any move
            # drops those that would be followed, see whole_moves).
            up = self.follow_up
            allowed = f"S[{FOLLOW}]" if up is not None and up.move_type is not None \
                else "-1"
            return ("@njit(cache=True)\n"
                    "def turn_mover(S, T):\n"
                    f"    T[XY] = {allowed}\n"
                    f"    return S[{TO_MOVE}]\n")
        count = len(limits.move_types)
        start = limits.repeat_from
        # The turn order's own turn, unless the limits count turns otherwise.
        turn = "turn(ply)" if (count, start) == (len(self.turns), self.repeat_from) else \
            f"ply if ply < {count} else {start} + (ply - {start}) % {count - start}"
        return ("@njit(cache=True)\n"
                "def turn_mover(S, T):\n"
                f"    ply = S[{PLY}]\n"
                f"    t = {turn}\n"
                f"    T[XY] = T[{self.offsets['turn types']} + t]\n"
                f"    mover = T[{self.offsets['turn movers']} + t]\n"
                f"    return S[{TO_MOVE}] if mover < 0 else mover\n")

    def passes(self) -> str:
        """The pass a player may make (``pass_turn``), after the moves as the
        interpreter adds it: always, or when forced -- no move, and another player has
        one. Its template is no template's (:func:`pass_index`)."""
        rule = self.game.move_rules.pass_turn
        index = pass_index(self.templates)
        if rule == "always":
            return (f"        n = push(T, n, T[XS + 1], T[XS + 1], {index}, -(1 << 40))\n"
                    f"        if n < 0:\n            return n")
        if rule == "forced":
            # The others who can move: not a neutral player (turn._others_can_move).
            others = [q for q in range(self.players) if q not in self.game.ruleset.neutral_players]
            if not others:
                return ""
            # Every template that starts a move, whatever the turn allows.
            return (f"        if n == 0:\n"
                    f"            T[XY] = -1\n"
                    f"            for q in {tuple(others)!r}:\n"
                    f"                if q != mover:\n"
                    f"                    k = generate(S, T, q)\n"
                    f"                    if k == {Status.LOOPS:d}:\n"
                    f"                        return {Status.LOOPS:d}\n"
                    f"                    if k != 0:  # {Status.MOVES:d}: more moves than room\n"
                    f"                        T[XS] += 1\n"
                    f"                        T[XS + 1] = 0\n"
                    f"                        n = push(T, 0, 0, 0, {index}, 0)\n"
                    f"                        break")
        if rule is not None:  # pragma: no cover - Rules takes no other value
            raise Unsupported(f"pass rule {rule!r}")
        return ""

    def write(self) -> str:
        goals = self.goals
        n = self.players
        self.resolve("after", [c for c in goals.conditions if not c.goal.needs_moves])
        self.resolve("stuck_conditions", [c for c in goals.conditions if c.goal.needs_moves])
        stalemate = _KINDS.index(goals.stalemate)
        priorities = {t.priority for t in self.templates}
        runs = self.runs()
        if sum(map(len, runs)) > _SPLIT_LINES:
            # Too long for one function: the templates become functions, and the plain
            # ones each write their moves out again (see inline).
            self.split = True
            self.inline = self.inlined()
            self.lazy_allowed = False  # (see tail_at)
            runs = self.runs()
        parts = ""
        if self.split:
            body, parts = self.functions(runs)
        else:
            body = self.levels(runs)
        rules = self.game.move_rules
        up = self.follow_up
        if up is not None and up.test is not None:
            # Written before whole_moves, which writes the tests of the mover's group
            # every expression written so far reads (this one's too).
            follow_test = self.expr(up.test, "fc")
        whole, whole_head, whole_tail = self.whole_moves()
        checks = ""
        if rules.protect or self.asks_attacks or \
                any(isinstance(goal, g.Checkmated) for goal in goals.leaves()):
            checks = self.attacks()
        follow_up = follow_on = turns_key = ""
        if self.turns_keys >= 0:
            # The key reads the turns played, up to the most a goal counts.
            limit = self.game.turns_limit
            turns_key = "".join(f"    {line}\n" for line in (
                f"t1 = S[{TURNS}]",
                f"if t1 != H[h, {_HIST - 4}]:",
                f"    key ^= T[{self.turns_keys} + min(t1 - 1, {limit})] ^ "
                f"T[{self.turns_keys} + min(t1, {limit})]"))
        if up is not None and up.along:
            # rules.FollowUp along directions: a move made with none due that goes
            # along them (see whole_moves) is followed.
            follow_up = "".join(f"    {line}\n" for line in (
                "due = -1",
                f"if S[{FOLLOW}] < 0 and prepares(T, at, count, mover):",
                "    due = 0"))
        elif up is not None:
            # rules.FollowUp of a test: after a move made with none due that puts a
            # piece down, its test read at the piece's cell for the mover.
            # A test of the mover's group reads T[XCN], which generate sets as it
            # starts: here it is set again, for the mover on the board after the move.
            groups = [f"            T[XCN + {self.connections[p.directions]}] = 1 if "
                      f"one_group(S, T, mover, {self.group_links(p.directions)}) else 0"
                      for p in dict.fromkeys(ir.parts(up.test))
                      if isinstance(p, r.Connected)]
            follow_up = "".join(f"    {line}\n" for line in (
                "due = -1",
                f"if S[{FOLLOW}] < 0:",
                "    for i in range(count):",
                f"        if T[at + i] & 3 == {_SHIFT} or T[at + i] & 3 == {_PLACE}:",
                f"            fc = (S[{LAST}] >> 16) - 1",
                "            player = mover",
                *groups,
                f"            if {follow_test}:",
                "                due = 0",
                "            break"))
        if up is not None:
            # Where one is due, the mover goes on with it, in the same turn.
            follow_on = "".join(f"    {line}\n" for line in (
                "if due >= 0:",
                "    nxt = mover",
                f"    S[{TURNS}] -= 1",
                f"if due != S[{FOLLOW}]:",
                f"    key ^= T[{self.follow_keys} + 1 + S[{FOLLOW}]] ^ "
                f"T[{self.follow_keys} + 1 + due]",
                f"    S[{FOLLOW}] = due"))
        # The links of the directions the templates and tests name, for each player.
        rows = [self.board.player_links(p)[d] for p in range(n) for d in self.directions]
        links = self.put("links", [v for row in rows for v in row])
        chained = bool(self.partial_types)
        tail = [
            # The chains of partial moves, once every template has run.
            *(["    if T[XS + 2] > T[XS + 4]:",
               "        n = chains(S, T, player, n)",
               "        if n < 0: return n"] if chained else []),
            # A template that looped for ever in an attack asked by a run.
            *(["    if T[XE] != 0:",
               "        T[XE] = 0",
               f"        return {Status.LOOPS:d}"] if self.asks_attacks else []),
            # The rules of whole moves (see whole_moves).
            *whole_tail,
            # The moves that leave a protected piece attacked go (before the priorities:
            # the interpreter's classes hold the moves it keeps).
            *([f"    if T[{self.guards} + player] >= 0:",
               "        n = guard(S, T, player, n)",
               "        if n < 0: return n"] if rules.protect else []),
            f"    if {len(priorities) > 1}:",
            "        top = -(1 << 30)",
            "        for i in range(n):",
            "            if T[XP + i] > top: top = T[XP + i]",
            "        k = 0",
            "        for i in range(n):",
            "            if T[XP + i] == top:",
            "                T[XN + k] = T[XN + i]",
            "                T[XO + k] = T[XO + i]",
            "                T[XK + k] = T[XK + i]",
            "                T[XT + k] = T[XT + i]",
            "                k += 1",
            "        n = k",
            # The moves that take the most (rules.MaximalCaptures), after the
            # priorities as the interpreter filters them.
            *(["    n = maximal(S, T, n)"] if rules.select is not None else []),
            "    return n",
        ]
        size = self.size
        near_moves = near_make = near_undo = ""
        if self.near:
            near_moves = f"    if status == -1: S[{NEAR}] = -1\n"
            # The cells of the board the move changed (a count in hand it changed is
            # touched as a cell past the board's, HAND + code: no cell to look near).
            near_make = (
                f"    if S[{NEAR}] == -1:\n"
                "        m = 0\n"
                "        for j in range(k):\n"
                f"            if H[h, 5 + 2 * j] < {size}:\n"
                f"                S[{NEAR + 1} + m] = H[h, 5 + 2 * j]\n"
                "                m += 1\n"
                f"        S[{NEAR}] = m\n"
                "    else:\n"
                f"        S[{NEAR}] = 0\n")
            near_undo = f"    S[{NEAR}] = 0\n"
        group_move = self.group_move()
        chain_source = self.chains() + self.maximal()
        # The mover's cells, read by the templates that move a piece of the mover's
        # (drops, and templates of any piece, have starts of their own).
        mine = "    mine = 0\n"
        if any(isinstance(t, r.Group | r.Line) or (type(t) is r.Template and not t.shared)
               for t in self.templates):
            mine += (
                "    # Without a branch: whether a cell holds a piece of the mover is a\n"
                "    # coin toss the processor cannot learn.\n"
                f"    for c in range({size}):\n"
                "        T[XC + mine] = c\n"
                f"        mine += T[{self.owner} + S[{BOARD} + c]] == player\n")
        for kinds, j in self.kind_lists.items():
            # Each list of the mover's pieces of some kinds, in the order of its cells.
            row = f"XKC + {j * (size + 1)}"
            mine += ("    k = 0\n"
                     "    for _s in range(mine):\n"
                     "        c = T[XC + _s]\n"
                     f"        T[{row} + 1 + k] = c\n"
                     f"        k += T[{self.kinds_mask(kinds)} + S[{BOARD} + c]]\n"
                     f"    T[{row}] = k\n")
        # A chain's move: its actions, then its steps' words (see _STEP_MARK).
        words = "(T[XK + i] & 65535) + (T[XK + i] >> 16)" if self.noted else "T[XK + i]"
        hash_words, hashed = "", "T[XN + i]"
        if self.apart:
            # Moves of some priorities were found with no hash (see push_lines).
            hash_words = ("        h = 0x51ED270B27\n"
                          f"        for j in range(T[XO + i], T[XO + i] + {words}):\n"
                          "            h = mix(h, T[XA + j])\n")
            hashed = "h"
        chain_count = "" if not self.noted else (
            "    for i in range(count):\n"
            f"        if T[at + i] & {_STEP_MARK}:\n"
            "            count = i\n"
            "            break\n")
        hand_touch = hand_take = hand_key = hand_undo = last_key = count_repeats = ""
        recycle_touch = recycle_take = change_take = keep_taken = replaced = ""
        promotion_change = f"                T[XA + w] = {_CHANGE} | (pos << 2) | (piece << 18)\n"
        if self.recycle_promotions:
            # rules.emit: a promotion takes its piece from the hand (none there: no
            # move); interpret._change: a later change of the cell keeps it taken.
            promotion_change = (
                "                tk = 0\n"
                "                if becomes != 0:\n"
                "                    if inhand(S, T, piece) < 0:\n"
                f"                        return {Status.NO_MOVE:d}\n"
                "                    tk = 1\n"
                f"                T[XA + w] = {_CHANGE} | (pos << 2) | (piece << 18) | "
                "(tk << 34)\n")
            replaced = (" (a promotion's from the hand stays unless the new piece is of its "
                        "owner and type, and then the new one is taken from the hand)")
            keep_taken = ("                if (a >> 34) & 1:\n"
                          f"                    if T[{self.sorts} + ((a >> 18) & 65535)] != "
                          f"T[{self.sorts} + changed]:\n"
                          "                        T[XA + k] = a\n"
                          "                        k += 1\n"
                          "                        continue\n"
                          "                    taken = 1\n")
            # A promotion's new piece leaves the hand: the first of its owner and type
            # the hand holds when the move is played (its count touched as a cell).
            change_take = (f"            if a & 3 == {_CHANGE} and (a >> 34) & 1:\n"
                           "                c = inhand(S, T, (a >> 18) & 65535)\n"
                           "                if c < 0:\n"
                           "                    c = (a >> 18) & 65535\n"
                           "                k = touch(S, H, h, k, HAND + c)\n"
                           "                if k < 0:\n"
                           f"                    return {Status.TOUCH:d}\n"
                           "                S[RES + c] -= 1\n")
        if self.recycle:
            # A captured piece goes to its owner's hand: its count is touched as a cell.
            recycle_touch = (f"        if a & 3 == {_CAPTURE} and "
                             f"S[{BOARD} + ((a >> 2) & 65535)] != 0:\n"
                             f"            k = touch(S, H, h, k, HAND + "
                             f"S[{BOARD} + ((a >> 2) & 65535)])\n"
                             "            if k < 0:\n"
                             f"                return {Status.TOUCH:d}\n")
            recycle_take = (f"            if S[{BOARD} + ((a >> 2) & 65535)] != 0:\n"
                            f"                S[RES + S[{BOARD} + ((a >> 2) & 65535)]] += 1\n")
        take = took = ""
        if self.taken:
            # What the move takes, read before it is made.
            take = ("    tk = 0\n"
                    "    for i in range(count):\n"
                    "        a = T[at + i]\n"
                    f"        if a & 3 == {_CAPTURE}:\n"
                    f"            tk |= T[{self.taken_bits} + S[{BOARD} + ((a >> 2) & 65535)]]\n")
            took = f"    S[{TAKEN}] = tk\n"
        since = since_save = since_undo = empties = count_gone = ""
        if self.shrinking:
            # The rows before the last move that took a piece hold none that may repeat.
            # A move took one when it left more cells empty: the count of code 0, which
            # make keeps as it keeps every code's (from 0 at the position's start: only
            # its changes count here).
            since = f"S[{SINCE}], "
            since_save = f"    H[h, {_HIST - 6}] = S[{SINCE}]\n"
            since_undo = f"    S[{SINCE}] = H[h, {_HIST - 6}]\n"
            empties = "    empty = S[CNT]\n"
            count_gone = f"    if S[CNT] > empty:\n        S[{SINCE}] = h + 1\n"
        if self.repeats:
            # Every earlier position is a row of the history (its key before the move).
            count_repeats = (f"    key = S[{KEY}]\n"
                             "    c = 1\n"
                             f"    for i in range({since}h + 1):\n"
                             "        if H[i, 1] == key:\n"
                             "            c += 1\n"
                             f"    S[{REPS}] = c\n")
        if self.last_keys >= 0:
            # The key reads the last move's cells (none before the first move).
            last_key = f"    l0 = H[h, {_HIST - 1}]\n" + self.last_key_lines()
        push = "".join(f"    {line}\n" for line in self.push_lines("index", "priority"))
        shift = "" if self.inline == self.plain else (
            "@njit(cache=True)\n"
            "def shift(S, T, n, pos, hand, hf, becomes, index, priority):\n"
            "    # The move of a plain template (_Writer.shift_lines), for rules with too\n"
            "    # many to write out.\n"
            + "".join(f"    {line}\n" for line in self.shift_lines("becomes", "index",
                                                                   "priority"))
            + "    return n\n\n\n")
        if self.reserved:
            # A drop from the reserve touches its piece's count as the cell HAND + code
            # (kept and restored as a cell's piece is), and takes one.
            hand_touch = (f"        if a & 3 == {_PLACE} and (a >> 34) & 1:\n"
                          "            k = touch(S, H, h, k, HAND + ((a >> 18) & 65535))\n"
                          "            if k < 0:\n"
                          f"                return {Status.TOUCH:d}\n")
            hand_take = ("    for i in range(count):\n"
                         "        a = T[at + i]\n"
                         f"        if a & 3 == {_PLACE} and (a >> 34) & 1:\n"
                         "            S[RES + ((a >> 18) & 65535)] -= 1\n")
            hand_key = self.hand_key_lines()
            hand_undo = ("        if cell >= HAND:\n"
                         f"            S[{BOARD} + cell] = H[h, 6 + 2 * j]\n"
                         "            continue\n")
        # The scratch area: the moves found (hash, priority, chain, words' start and
        # count, template), the buckets of the chains, the generation's stamp and the
        # words' top, the mover's cells, the group steps, a run's queue and changes,
        # a move's moving pieces, and the words of the moves.
        scratch = len(self.table)
        at = {}
        for name, width in (("XN", MAX_MOVES), ("XP", MAX_MOVES), ("XL", MAX_MOVES),
                            ("XO", MAX_MOVES), ("XK", MAX_MOVES), ("XT", MAX_MOVES),
                            ("XH", _BUCKETS), ("XS", 5 if chained else 2), ("XY", 1), ("XC", size),
                            ("XKC", len(self.kind_lists) * (size + 1)),
                            # The cells' flags: the last run's stamp, then a row a name.
                            *((("XP0", 1), ("XF", len(self.position_flags) * size))
                              if self.position_flags else ()),
                            *((("XE", 1),) if self.asks_attacks else ()),
                            # The tests of the mover's group, and the searches of groups.
                            *((("XCN", len(self.connections)),) if self.connections else ()),
                            *((("XI", 1 + 5 * size),) if whole else ()),
                            *((("XJ", self.stays_regions),) if self.stays_regions else ()),
                            ("XG", 2 * size),
                            ("XQ", _QUEUE), ("XCH", 3 * _CHANGES), ("XM", _TOUCH),
                            ("XA", _ARENA), ("XU", _HIST), ("XV", 3 * size),
                            *((("XW", _ATTACKERS),) if checks else ()),
                            *self.chain_regions()):
            at[name] = scratch
            scratch += width
        self.registry = scratch
        self.scratch = scratch - len(self.table)
        layout = "\n".join(f"{name} = {offset}" for name, offset in at.items())
        def open_generate(name: str) -> str:
            return (f"@njit(cache=True)\ndef {name}(S, T, player):\n{mine}"
                    "    T[XS] += 1  # a new generation of duplicate chains\n"
                    "    T[XS + 1] = 0  # and of words\n"
                    + ("    T[XS + 2] = 0  # and of the steps of chains\n"
                       "    T[XS + 3] = 0  # the steps the chains' search took\n"
                       "    T[XS + 4] = 0  # the first steps whose chains were searched\n"
                       if chained else "")
                    + ("    T[XE] = 0  # no attack looped yet\n" if self.asks_attacks else "")
                    + "".join(line + "\n" for line in whole_head)
                    + "    n = 0\n")

        lazy = ""
        if self.lazy:
            # The runs that stop at their tails (see tail_at), and the tails.
            lines = self.levels([self.lazy[index][0] if index in self.lazy else lines
                                 for index, lines in enumerate(runs)])
            lazy = (open_generate("generate_lazy") + "\n".join(lines) + "\n"
                    + "\n".join(tail) + "\n\n\n"
                    "@njit(cache=True, inline='always')\n"
                    "def finish(S, T, n):\n"
                    "    # The n-th move generate_lazy found, finished: its words written.\n"
                    "    player = turn_mover(S, T)\n"
                    + "".join(line + "\n" for _, lines in self.lazy.values() for line in lines)
                    + f"    return {Status.NO_MOVE:d}\n\n\n")
        # numba's cache knows nothing of a change to what another module compiles.
        from boardlab.core import unmanaged as unmanaged_module

        unmanaged_digest = hashlib.sha256(
            Path(unmanaged_module.__file__).read_bytes()).hexdigest()[:16]
        head = f'''"""The kernel of {self.game.name} (written by boardlab.core.kernel)."""
import numpy as np
from numba import njit

from boardlab.core.rng import next_below
from boardlab.core.unmanaged import unmanaged  # {unmanaged_digest}

LK = {links}
ND = {max(1, len(self.directions))}
CNT = {BOARD + size}
RES = CNT + {self.ncodes}
HAND = {size + self.ncodes}
MOVES = {BOARD + size + self.ncodes * (2 if self.reserved else 1)}
{layout}
RB = {self.registry}
RK = RB + {_RHEAD}


@njit(cache=True)
def mix(h, w):
    # A hash of words: in unsigned arithmetic, since numba marks a signed product or
    # sum as never overflowing, and LLVM may then fold one that does into anything.
    return np.int64(np.uint64(h ^ w) * np.uint64(0x100000001B3) + np.uint64(h >> 29))


@njit(cache=True)
def spread(key):
    # A hash slot's bits from a key (mix's unsigned arithmetic; its high bits, the
    # best mixed, shifted down: mask them to the table's size).
    return np.int64((np.uint64(key ^ (key >> 29)) * np.uint64(0x5851F42D4C957F2D))
                    >> np.uint64(20))


@njit(cache=True)
def same(T, o, top, count):
    # Whether the o-th move found has the ``count`` words at T[XA + top:].
    for i in range(count):
        if T[XA + T[XO + o] + i] != T[XA + top + i]:
            return False
    return True


@njit(cache=True)
def push(T, n, top, w, index, priority):
    # The move whose words are T[XA + top:XA + w], made by template ``index``: kept
    # unless a move of its priority with the same actions came before (as the
    # interpreter drops it: the same move made by a template of a higher priority
    # still shadows the lower ones). The moves so far are chained by a hash of their
    # words, so only the few in this move's chain are compared; a chain's head is
    # stamped with this generation's number, so no table is cleared. (No chains when
    # the rules make no two equal moves: _apart.) Plain templates have it written
    # out in generate (_Writer.shift).
{push}    return n


{shift}@njit(cache=True)
def kept(T, k, i):
    # The i-th move found kept as the k-th (k <= i), by a filter of the moves found.
    T[XN + k] = T[XN + i]
    T[XP + k] = T[XP + i]
    T[XO + k] = T[XO + i]
    T[XK + k] = T[XK + i]
    T[XT + k] = T[XT + i]


@njit(cache=True)
def queued(T, q, word):
    for i in range(q):
        if T[XQ + i] == word:
            return True
    return False


@njit(cache=True)
def arrives(T, q, cell):
    for i in range(q):
        a = T[XQ + i]
        if a & 3 == {_SHIFT} and (a >> 18) & 65535 == cell:
            return True
    return False


@njit(cache=True)
def piece_after(S, T, top, w, cell):
    # The piece on ``cell`` once the actions T[XA + top:XA + w] are made (all at once).
    piece = S[{BOARD} + cell]
    for i in range(top, w):
        a = T[XA + i]
        if a & 3 == {_CAPTURE} and (a >> 2) & 65535 == cell:
            piece = 0
    for i in range(top, w):
        a = T[XA + i]
        if a & 3 == {_SHIFT} and (a >> 2) & 65535 == cell:
            piece = 0
    for i in range(top, w):
        a = T[XA + i]
        k = a & 3
        if k == {_SHIFT} and (a >> 18) & 65535 == cell:
            piece = S[{BOARD} + ((a >> 2) & 65535)]
        elif k == {_PLACE} and (a >> 2) & 65535 == cell:
            piece = (a >> 18) & 65535
    for i in range(top, w):
        a = T[XA + i]
        if a & 3 == {_CHANGE} and (a >> 2) & 65535 == cell:
            piece = (a >> 18) & 65535
    return piece


@njit(cache=True)
def emit(S, T, n, pos, hand, hf, q, nc, becomes, copy, rsv, index, priority, player):
    w = compose(S, T, pos, hand, hf, q, nc, becomes, copy, rsv)
    if w == {Status.NO_MOVE:d}:  # a promotion the hand holds no piece for: no move
        return n
    if w < 0:
        return w
    return push(T, n, T[XS + 1], w, index, priority)


@njit(cache=True)
def compose(S, T, pos, hand, hf, q, nc, becomes, copy, rsv):
    # The words of the move an add makes (rules.emit), written at the words' top: the
    # queued actions, then the piece in hand going to ``pos``, then the changes of type
    # and owner. Their end, or -14.
    top = T[XS + 1]
    if top + q + 3 + nc > {_ARENA}:
        return {Status.QUEUE:d}
    w = top
    for i in range(q):
        T[XA + w] = T[XQ + i]
        w += 1
    if hand != 0 and pos < 0:
        # Off the board (a step that may leave it): the piece in hand is taken.
        if hf >= 0 and not copy:
            T[XA + w] = {_CAPTURE} | (hf << 2)
            w += 1
    elif hand != 0:
        vacated = False
        doomed = False
        for i in range(q):
            a = T[XQ + i]
            if (a >> 2) & 65535 == pos:
                if a & 3 == {_SHIFT}:
                    vacated = True
                elif a & 3 == {_CAPTURE}:
                    doomed = True
        if S[{BOARD} + pos] != 0 and not vacated and pos != hf and not doomed:
            T[XA + w] = {_CAPTURE} | (pos << 2)
            w += 1
        piece = hand if becomes == 0 else becomes
        if doomed and pos != hf:
            # The capture comes after the move: it takes the arriving piece.
            if hf >= 0 and not copy:
                T[XA + w] = {_CAPTURE} | (hf << 2)
                w += 1
        elif hf < 0 and rsv != 0 and piece != hand:
            # The reserve gives the piece in hand, then promoted on its cell (rules.emit).
            T[XA + w] = {_PLACE} | (pos << 2) | (hand << 18) | (1 << 34)
            w += 1
            if piece != hand:
{promotion_change}                w += 1
        elif hf < 0 or copy:
            # From the mover's reserve: a drop's piece, unless the supply is unlimited.
            T[XA + w] = {_PLACE} | (pos << 2) | (piece << 18) | \
                ((1 if hf < 0 and rsv != 0 else 0) << 34)
            w += 1
        else:
            if pos != hf:
                T[XA + w] = {_SHIFT} | (hf << 2) | (pos << 18)
                w += 1
            if piece != hand:
{promotion_change}                w += 1
    for c in range(2 * nc):
        # The changes of type and owner in order, then the attributes, a cell at a
        # time in the order each cell was first given one (rules.emit).
        if c < nc:
            if T[XCH + 3 * c + 2] != 0:
                continue
            cell = T[XCH + 3 * c]
        else:
            if T[XCH + 3 * (c - nc) + 2] != 1:
                continue
            cell = T[XCH + 3 * (c - nc)]
            first = True
            for b in range(c - nc):
                if T[XCH + 3 * b + 2] == 1 and T[XCH + 3 * b] == cell:
                    first = False
                    break
            if not first:
                continue
        piece = piece_after(S, T, top, w, cell)
        if piece == 0:
            continue
        if c < nc:
            changed = T[T[XCH + 3 * c + 1] + piece]
        else:
            changed = piece
            for b in range(c - nc, nc):
                if T[XCH + 3 * b + 2] == 1 and T[XCH + 3 * b] == cell:
                    changed = T[T[XCH + 3 * b + 1] + changed]
        if changed == piece:
            continue
        # A change replaces an earlier one of its cell{replaced}.
        taken = 0
        k = top
        for i in range(top, w):
            a = T[XA + i]
            if a & 3 == {_CHANGE} and (a >> 2) & 65535 == cell:
{keep_taken}                continue
            T[XA + k] = a
            k += 1
        w = k
        T[XA + w] = {_CHANGE} | (cell << 2) | (changed << 18) | (taken << 34)
        w += 1
    return w


{group_move}{parts}{whole}{checks}{chain_source}{open_generate("generate")}'''
        limit = self.offsets["ply limit"]

        def moves_source(name: str, generate: str, decorator: str, after: str = "after"
                         ) -> str:
            # moves, by the name given, finding the moves by ``generate`` and judging
            # the position by ``after``
            if goals.moves_first:
                # A player to move without a move is judged first (Goals.moves_first),
                # then the conditions and the ply limit where there are moves.
                passes = "".join(line[4:] + "\n" for line in self.passes().splitlines())
                return f'''{decorator}
def {name}(S, T):
    # The position's status and moves (in T[XN:XN + n], unregistered): n | (status + 2)
    # << 24, or -1 and -2 as generate says them.
    player = S[{TO_MOVE}]
    mover = turn_mover(S, T)
    n = {generate}(S, T, mover)
    if n < 0:
        return n
{passes}    if n == 0:
        status = stuck_conditions(S, T)
        if status < 0:
            status = {stalemate * n} + player
        return (status + 2) << 24
    status = {after}(S, T)
{near_moves}    if status < 0 and T[{limit}] > 0 and S[{PLY}] >= T[{limit}]:
        status = {2 * n}  # a draw when the game reaches its ply limit
    if status >= 0:
        n = 0
    return n | ((status + 2) << 24)


'''
            return f'''{decorator}
def {name}(S, T):
    # The position's status and moves (in T[XN:XN + n], unregistered): n | (status + 2)
    # << 24, or -1 and -2 as generate says them.
    status = {after}(S, T)
{near_moves}    if status < 0 and T[{limit}] > 0 and S[{PLY}] >= T[{limit}]:
        status = {2 * n}  # a draw when the game reaches its ply limit
    player = S[{TO_MOVE}]
    n = 0
    if status < 0:
        mover = turn_mover(S, T)
        n = {generate}(S, T, mover)
        if n < 0:
            return n
{self.passes()}
        if n == 0:
            status = stuck_conditions(S, T)
            if status < 0:
                status = {stalemate * n} + player
    return n | ((status + 2) << 24)


'''

        def plays(suffix: str, decorator: str) -> str:
            # mplay and make, named with the suffix (the playouts' inlined copies)
            return f'''{decorator}
def mplay{suffix}(S, H, T, h, at, count):
    # The actions of the ``count`` words at T[at:], all at once (as a PieceState plays
    # them): the shifts' pieces are read first, then the captures and the shifts'
    # sources empty, the shifts land, and the drops and changes follow in order.
    a = T[at + count - 1]
    if a & 3 == {_SHIFT} and (count == 1 or ({not self.recycle} and
            count == 2 and T[at] == {_CAPTURE} | (((a >> 18) & 65535) << 2))):
        # The common move, at once: a piece from a cell to another, taking what stood
        # there.
        src = (a >> 2) & 65535
        dst = (a >> 18) & 65535
        H[h, 5] = src
        H[h, 6] = S[{BOARD} + src]
        H[h, 7] = dst
        H[h, 8] = S[{BOARD} + dst]
        S[{BOARD} + dst] = S[{BOARD} + src]
        S[{BOARD} + src] = 0
        S[{LAST}] = (src + 1) | ((dst + 1) << 16)
        return 2
    if count == 1 and a & 3 == {_PLACE} and (a >> 34) & 1 == 0 and \
            S[{BOARD} + ((a >> 2) & 65535)] == 0:
        # A drop on an empty cell from no reserve, at once.
        dst = (a >> 2) & 65535
        H[h, 5] = dst
        H[h, 6] = 0
        S[{BOARD} + dst] = (a >> 18) & 65535
        S[{LAST}] = (dst + 1) << 16
        return 1
    k = 0
    shifts = 0
    for i in range(count):
        a = T[at + i]
        k = touch(S, H, h, k, (a >> 2) & 65535)
        if k < 0:
            return {Status.TOUCH:d}
{hand_touch}{recycle_touch}        if a & 3 == {_SHIFT}:
            k = touch(S, H, h, k, (a >> 18) & 65535)
            if k < 0:
                return {Status.TOUCH:d}
            if shifts >= {_TOUCH}:
                return {Status.TOUCH:d}
            T[XM + shifts] = S[{BOARD} + ((a >> 2) & 65535)]
            shifts += 1
    for i in range(count):
        a = T[at + i]
        if a & 3 == {_CAPTURE}:
{recycle_take}            S[{BOARD} + ((a >> 2) & 65535)] = 0
    for i in range(count):
        a = T[at + i]
        if a & 3 == {_SHIFT}:
            S[{BOARD} + ((a >> 2) & 65535)] = 0
    j = 0
    for i in range(count):
        a = T[at + i]
        if a & 3 == {_SHIFT}:
            S[{BOARD} + ((a >> 18) & 65535)] = T[XM + j]
            j += 1
            # The last move's cells change with a shift or a drop (as a PieceState's do).
            S[{LAST}] = (((a >> 2) & 65535) + 1) | ((((a >> 18) & 65535) + 1) << 16)
    for i in range(count):
        a = T[at + i]
        if a & 3 == {_PLACE} or a & 3 == {_CHANGE}:
            S[{BOARD} + ((a >> 2) & 65535)] = (a >> 18) & 65535
            if a & 3 == {_PLACE} and shifts == 0:
                S[{LAST}] = (((a >> 2) & 65535) + 1) << 16
{change_take}{hand_take}    return k


{decorator}
def make{suffix}(S, H, T, h, at, count, number):
    # The move of the ``count`` words at T[at:] (registry number ``number``, -1 for a
    # playout's) made on S, what it changes kept in row h of H; the new position not
    # scanned. 0, or -15 (nothing changed) when it changes more cells than a row holds.
    H[h, 0] = S[{TO_MOVE}]
    H[h, 1] = S[{KEY}]
    H[h, 2] = S[{STATUS}]
    H[h, 3] = S[{MOVER}]
    H[h, 4] = number
    H[h, {_HIST - 5}] = S[{FOLLOW}]
    H[h, {_HIST - 4}] = S[{TURNS}]
    H[h, {_HIST - 3}] = S[{TAKEN}]
    H[h, {_HIST - 2}] = S[{REPS}]
    H[h, {_HIST - 1}] = S[{LAST}]
{since_save}{take}    k = mplay{suffix}(S, H, T, h, at, count)
    if k < 0:
        # Nothing was changed: a move's cells are all touched before any changes.
        return k
{took}{near_make}
    if k < {_TOUCH}:
        H[h, 5 + 2 * k] = -1  # the touched cells end here
    key = S[{KEY}]
{empties}    for j in range(k):
        cell = H[h, 5 + 2 * j]
        old = H[h, 6 + 2 * j]
        new = S[{BOARD} + cell]
{hand_key}        if old != new:
            S[CNT + old] -= 1
            S[CNT + new] += 1
            if old != 0:
                key ^= T[{self.zobrist} + cell * {len(self.pieces) - 1} + old - 1]
            if new != 0:
                key ^= T[{self.zobrist} + cell * {len(self.pieces) - 1} + new - 1]
{count_gone}{last_key}    mover = S[{TO_MOVE}]
    ply = S[{PLY}]
{follow_up}    {"nxt = (mover + 1) % " + str(n) if self.alternate
     else "nxt = T[" + str(self.turn_players) + " + turn(ply + 1)]"}
    S[{TURNS}] += 1
{follow_on}{turns_key}    S[{KEY}] = key ^ T[{self.sides} + turn(ply) * {n} + mover] ^ \\
        T[{self.sides} + turn(ply + 1) * {n} + nxt]
    S[{TO_MOVE}] = nxt
    S[{MOVER}] = mover
    S[{PLY}] = ply + 1
    S[{DEPTH}] = h + 1
    S[{NMOVES}] = -1
{count_repeats}    return 0


'''

        mid = f'''

@njit(cache=True)
def intern(T, S, h, player, template, top, count, write):
    # The registry index of the move with these words (found at T[XA + top:]), made
    # by ``template`` for ``player``; registered now in write mode.
    key = mix(mix(h, template), player)
    cap = T[RB + 1]
    meta = RK + 2 * cap
    words = RK + 3 * cap
    slot = spread(key) & (cap - 1)
    while True:
        k = T[RK + slot]
        if k == -1:
            break
        if k == key:
            index = T[RK + cap + slot]
            m = T[meta + index]
            if m & 7 == player and (m >> 3) & 4095 == template and \\
                    (m >> 15) & 4095 == count:
                at = words + (m >> 27)
                same = True
                for i in range(count):
                    if T[at + i] != T[XA + top + i]:
                        same = False
                        break
                if same:
                    return index
        slot = (slot + 1) & (cap - 1)
    if not write:
        return {Status.UNREGISTERED:d}
    index = T[RB]
    used = T[RB + 3]
    if index >= cap // 2 or used + count > {_RWORDS} * cap:
        return -1
    T[RK + slot] = key
    T[RK + cap + slot] = index
    T[meta + index] = (used << 27) | (count << 15) | (template << 3) | player
    for i in range(count):
        T[words + used + i] = T[XA + top + i]
    T[RB + 3] = used + count
    T[RB] = index + 1
    return index


@njit(cache=True)
def rehash(T, old):
    # A grown registry: every move of the old one again, in order (each keeps its
    # index).
    ocap = old[1]
    for index in range(old[0]):
        m = old[{_RHEAD} + 2 * ocap + index]
        count = (m >> 15) & 4095
        at = {_RHEAD} + 3 * ocap + (m >> 27)
        h = 0x51ED270B27
        for i in range(count):
            T[XA + i] = old[at + i]
            h = mix(h, old[at + i])
        if intern(T, T, h, m & 7, (m >> 3) & 4095, 0, count, 1) != index:
            return -1
    return old[0]


{moves_source('moves', 'generate', '@njit(cache=True)')}@njit(cache=True)
def scan(S, T, write):
    S = unmanaged(S)  # no counting of references below (boardlab.core.unmanaged)
    T = unmanaged(T)
    found = moves(S, T)
    if found < 0:
        return found
    n = found & 16777215
    status = (found >> 24) - 2
    player = S[{TO_MOVE}]
    mover = turn_mover(S, T)
    if n > S.shape[0] - MOVES:
        return {Status.ROOM:d}
    top = -1
    for i in range(n):
{hash_words}        index = intern(T, S, {hashed}, mover, T[XT + i], T[XO + i], {words}, write)
        if index < 0:
            return {Status.REGISTRY:d} if index == -1 else index
        S[MOVES + i] = index
        if index > top:
            top = index
    S[{NMOVES}] = n
    S[{STATUS}] = status
    packed = n | ((status + 2) << 24) | (player << 31)
    if top >= T[RB + 2]:
        packed |= 1 << 34  # moves without a Move object yet
    if T[RB] * 4 > T[RB + 1] or T[RB + 3] * 2 > {_RWORDS} * T[RB + 1]:
        packed |= 1 << 35
    return packed


{self.turn_mover()}

@njit(cache=True)
def turn(ply):
    if ply < {len(self.turns)}:
        return ply
    return {self.repeat_from} + (ply - {self.repeat_from}) % {len(self.turns) - self.repeat_from}


@njit(cache=True)
def touch(S, H, h, k, cell):
    for j in range(k):
        if H[h, 5 + 2 * j] == cell:
            return k
    if k >= {_TOUCH}:
        return -1
    H[h, 5 + 2 * k] = cell
    H[h, 6 + 2 * k] = S[{BOARD} + cell]
    return k + 1


{plays('', '@njit(cache=True)')}@njit(cache=True)
def play(S, H, T, index):
    S = unmanaged(S)
    H = unmanaged(H)
    T = unmanaged(T)
    write = index >> 40
    index &= (1 << 40) - 1
    if index < 0 or index >= T[RB]:
        return {Status.ILLEGAL:d}
    if T[RK + 2 * T[RB + 1] + index] & 7 != turn_mover(S, T):
        return {Status.ILLEGAL:d}
    if S[{NMOVES}] < 0:
        packed = scan(S, T, write)
        if packed < 0:
            return packed
    legal = False
    for i in range(S[{NMOVES}]):
        if S[MOVES + i] == index:
            legal = True
            break
    if not legal:
        return {Status.ILLEGAL:d}
    h = S[{DEPTH}]
    if h >= H.shape[0]:
        return {Status.HISTORY:d}
    at = RK + 3 * T[RB + 1] + (T[RK + 2 * T[RB + 1] + index] >> 27)
    count = (T[RK + 2 * T[RB + 1] + index] >> 15) & 4095
{chain_count}    k = make(S, H, T, h, at, count, index)
    if k < 0:
        return k
    packed = scan(S, T, write)
    if packed == {Status.ROOM:d}:
        return {Status.ROOM_AFTER:d}
    if packed == {Status.REGISTRY:d}:
        return {Status.REGISTRY_AFTER:d}
    if packed == {Status.UNREGISTERED:d}:
        return {Status.UNREGISTERED_AFTER:d}
    if packed == {Status.LOOPS:d} or packed == {Status.MOVES:d}:
        # The move stands; only the new position's moves failed, which its
        # legal_moves will say, as the interpreter does.
        S[{STATUS}] = {UNKNOWN}
        return packed - {Status.LOOPS - Status.LOOPS_AFTER:d}
    if packed <= {Status.QUEUE:d}:
        S[{STATUS}] = {UNKNOWN}
        return {Status.ERROR_AFTER:d}
    return packed


@njit(cache=True)
def undo(S, H):
    S = unmanaged(S)
    H = unmanaged(H)
    h = S[{DEPTH}] - 1
    for j in range({_TOUCH}):
        cell = H[h, 5 + 2 * j]
        if cell < 0:
            break
{hand_undo}        S[CNT + S[{BOARD} + cell]] -= 1
        S[{BOARD} + cell] = H[h, 6 + 2 * j]
        S[CNT + S[{BOARD} + cell]] += 1
    S[{TO_MOVE}] = H[h, 0]
    S[{KEY}] = H[h, 1]
    S[{STATUS}] = H[h, 2]
    S[{MOVER}] = H[h, 3]
    S[{FOLLOW}] = H[h, {_HIST - 5}]
    S[{TURNS}] = H[h, {_HIST - 4}]
    S[{LAST}] = H[h, {_HIST - 1}]
    S[{REPS}] = H[h, {_HIST - 2}]
    S[{TAKEN}] = H[h, {_HIST - 3}]
{since_undo}    S[{NMOVES}] = -1
    S[{PLY}] -= 1
    S[{DEPTH}] = h
{near_undo}''' + self.playouts(
            plays('_run', "@njit(cache=True, inline='always')")
            + (moves_source('moves_lazy', 'generate_lazy', "@njit(cache=True, inline='always')",
                            self.after_run) if self.lazy else "")
            # Without lazy moves, the copy of moves in run's loop (see playouts) judges
            # by the inlined copy of after.
            + (moves_source('moves_run', 'generate', "@njit(cache=True, inline='always')",
                            self.after_run) if not self.lazy and self.after_run != "after"
               else "")) + self.perft()
        helpers, renames = _merge_shapes("\n\n".join(
            self.helpers + [text for *_, text in self.routines.values()]))
        return _unsigned_indexes(_unliteral(_rename_calls(
            head + "\n".join(body) + "\n" + "\n".join(tail) + "\n\n\n"
            + helpers + ("\n\n" + lazy if lazy else "") + mid, renames)))


    def perft(self) -> str:
        """The functions of a perft counted whole in the kernel: ``perft`` and what it
        calls (see :meth:`KernelPosition.perft`). Each position's moves are found by
        ``moves`` and made by ``make`` as a playout's are, and unmade by ``undo``."""
        count = self.actions_of("T[XK + k]")
        return f'''

# Perft, counted in the kernel.
@njit(cache=True)
def keep_moves(T, n, w, at, cnt, m):
    # The words of the n moves just found copied to T[w:], out of the scratch the next
    # position's moves are found in, each move's start and count to at[m + k] and
    # cnt[m + k]; the words' new top, or -1 when T or at has no room left.
    if m + n > at.shape[0]:
        return -1
    for k in range(n):
        c = {count}
        o = XA + T[XO + k]
        if w + c > T.shape[0]:
            return -1
        for i in range(c):
            T[w + i] = T[o + i]
        at[m + k] = w
        cnt[m + k] = c
        w += c
    return w


@njit(cache=True)
def perft(S, H, T, counts, room, at, cnt):
    # The moves at each depth 1..len(counts) below the position S (found as the
    # position's legal moves are), added to counts: each made on S, its history a row
    # of H, and unmade; the moves of the positions on the way kept in T[room:], their
    # starts in at and counts in cnt. 0, or what moves or make answered below zero, or
    # {Status.ROOM:d} out of room (S and H are then left where it stopped).
    S = unmanaged(S)
    H = unmanaged(H)
    T = unmanaged(T)
    counts = unmanaged(counts)
    depth = counts.shape[0]
    found = moves(S, T)
    if found < 0:
        return found
    n = found & 16777215
    counts[0] += n
    if depth < 2 or n == 0:
        return 0
    # By depth: the moves' range in at and cnt, the next one to make, the words' top
    # and what NEAR was once the moves were found (undo clears it).
    last = np.empty(depth, np.int64)
    nxt = np.empty(depth, np.int64)
    tops = np.empty(depth, np.int64)
    near = np.empty(depth, np.int64)
    w = keep_moves(T, n, room, at, cnt, 0)
    if w < 0:
        return {Status.ROOM:d}
    nxt[0] = 0
    last[0] = n
    tops[0] = w
    near[0] = S[{NEAR}]
    level = 0
    while True:
        if nxt[level] == last[level]:
            if level == 0:
                return 0
            level -= 1
            undo(S, H)
            S[{NEAR}] = near[level]
            continue
        k = nxt[level]
        nxt[level] += 1
        rc = make(S, H, T, S[{DEPTH}], at[k], cnt[k], -1)
        if rc < 0:
            return rc
        found = moves(S, T)
        if found < 0:
            return found
        n = found & 16777215
        counts[level + 1] += n
        if n == 0 or level + 2 == depth:
            undo(S, H)
            S[{NEAR}] = near[level]
            continue
        w = keep_moves(T, n, tops[level], at, cnt, last[level])
        if w < 0:
            return {Status.ROOM:d}
        level += 1
        nxt[level] = last[level - 1]
        last[level] = last[level - 1] + n
        tops[level] = w
        near[level] = S[{NEAR}]
'''

    def playouts(self, plays: str) -> str:
        """The functions of random playouts played whole in the kernel: ``run`` and
        what it calls (see :meth:`KernelPosition.playouts`), with ``plays``, the source
        of the copies of mplay and make it inlines."""
        n = self.players
        # The history row a move is made with: the next, where the goals read the
        # history, else the first again.
        row = f"S[{DEPTH}]" if self.repeats else "0"
        taken_at = _taken_at(n)
        record_taken = ""
        if self.taken:
            # The pieces the move takes, kept for the position where a playout stops
            # (what its last move took is part of it).
            record_taken = (
                "        nt = 0\n"
                f"        for i in range(T[XO + k], T[XO + k] + {self.actions_of('T[XK + k]')}):\n"
                "            a = T[XA + i]\n"
                f"            c = S[{BOARD} + ((a >> 2) & 65535)]\n"
                f"            if a & 3 == {_CAPTURE} and c != 0 and nt < {_TOUCH}:\n"
                f"                R[{taken_at + 1} + nt] = c\n"
                "                nt += 1\n"
                f"        R[{taken_at}] = nt\n")
        real = [p for p in range(n) if p not in self.goals.chance]
        if real:
            leader = (f"    best = -1\n"
                      f"    leader = -1\n"
                      f"    for p in {tuple(real)!r}:\n"
                      f"        c = 0\n"
                      f"        for code in range(1, {self.ncodes}):\n"
                      f"            if T[{self.owner} + code] == p:\n"
                      f"                c += S[CNT + code]\n"
                      f"        if c > best:\n"
                      f"            best = c\n"
                      f"            leader = p\n"
                      f"        elif c == best:\n"
                      f"            leader = -1\n"
                      f"    return leader if leader >= 0 else {2 * n}\n")
        else:
            leader = f"    return {2 * n}\n"
        # The generator's source is part of this module's (so of its name): numba's
        # cache knows nothing of a change to a function another module compiles.
        from boardlab.core import rng

        digest = hashlib.sha256(Path(rng.__file__).read_bytes()).hexdigest()[:16]
        count = self.actions_of("T[XK + k]")
        finish = ""
        if self.lazy:
            # Only the move played has its words (see tail_at); a weighted choice
            # reads every move's (moves_run).
            finish = ("        if T[XK + k] < 0:\n"
                      "            rc = finish(S, T, k)\n"
                      "            if rc < 0:\n"
                      "                R[0] = np.int64(state)\n"
                      "                R[1] = plies\n"
                      "                R[2] = done\n"
                      "                return rc\n")
        return f'''

# The random playouts (boardlab.core.rng {digest}).
@njit(cache=True)
def captures(T, k):
    # 1 when the k-th move found takes a piece.
    for i in range(T[XO + k], T[XO + k] + {self.actions_of("T[XK + k]")}):
        if T[XA + i] & 3 == {_CAPTURE}:
            return 1
    return 0


@njit(cache=True)
def final(S, T, status):
    # A status as its returns read it: an ending by count is a win of the real player
    # with the most pieces, or a draw when several have as many.
    if status < {3 * n}:
        return status
{leader}

# A playout's ply calls moves, make and choose inlined in run's loop (numba inlines
# them as it compiles run; a call passes each array as seven words and costs a fifth
# of a Connect Four ply); scan and play keep the shared compiled ones.
{"" if not self.lazy and self.after_run != "after" else
   "moves_run = njit(inline='always')(moves.py_func)"}
{plays}

@njit(cache=True)
def run(S0, S, H, T, R, games, cap, budget, weights):
    # Uniformly random games (or by weights, see choose) from the position S0, each
    # played on S, no move registered. R holds what one call leaves to the next: the
    # generator's state, the plies of the game under way (-1: none), the games done,
    # the last game's status (-1: stopped at the cap), then the numbers of games by
    # final status and, last, of games stopped at cap plies (cap < 0: none). At most
    # budget plies a call: 0 when the games are done, -21 to be called again, or
    # moves' -1 and -2.
    S0 = unmanaged(S0)
    S = unmanaged(S)
    H = unmanaged(H)
    T = unmanaged(T)
    R = unmanaged(R)
    weights = unmanaged(weights)
    state = np.uint64(R[0])
    plies = R[1]
    done = R[2]
    while True:
        if plies < 0:
            if done >= games:
                R[0] = np.int64(state)
                R[2] = done
                return 0
            for i in range(MOVES):
                S[i] = S0[i]
            plies = 0
            R[{taken_at}] = -1  # no move yet: the start's own
        found = {"moves_lazy(S, T) if weights.shape[0] == 0 else " if self.lazy else ""}\
moves_run(S, T)
        if found < 0:
            R[0] = np.int64(state)
            R[1] = plies
            R[2] = done
            return found
        status = (found >> 24) - 2
        if status >= 0 or 0 <= cap <= plies:
            if status >= 0:
                status = final(S, T, status)
                R[4 + status] += 1
            else:
                R[{taken_at - 1}] += 1
            R[3] = status
            done += 1
            plies = -1
            continue
        if budget <= 0 or ({self.repeats} and S[{DEPTH}] >= H.shape[0]):
            # Out of plies for this call, or of history rows, which the goals read.
            R[0] = np.int64(state)
            R[1] = plies
            R[2] = done
            return {Status.BUDGET:d} if budget <= 0 else {Status.HISTORY:d}
        budget -= 1
        k, state = choose(S, T, found & 16777215, weights, state)
{finish}{record_taken}        if make_run(S, H, T, {row}, XA + T[XO + k], {count}, -1) < 0:
            R[0] = np.int64(state)
            R[1] = plies
            R[2] = done
            return {Status.TOUCH:d}
        plies += 1


@njit(cache=True, inline='always')
def choose(S, T, n, weights, state):
    # One of the n moves in T[XN:XN + n]: uniformly without weights; with them, by
    # its weight (by player, template and whether it captures; uniformly when every
    # move weighs 0). The index and the generator's next state.
    if weights.shape[0] == 0:
        return next_below(state, n)
    base = S[{TO_MOVE}] * {2 * (len(self.templates) + 1)}
    total = 0
    for i in range(n):
        total += weights[base + 2 * T[XT + i] + captures(T, i)]
    if total == 0:
        return next_below(state, n)
    r, state = next_below(state, total)
    k = 0
    while True:
        r -= weights[base + 2 * T[XT + k] + captures(T, k)]
        if r < 0:
            return k, state
        k += 1
'''


#: The writer's case for each instruction type (checked first by :data:`_CHECK_INSTRUCTION`).
_Writer.WRITE.update({
    r.Step: _Writer.step, r.Verify: _Writer.verify, r.If: _Writer.if_,
    r.While: _Writer.while_, r.EveryCell: _Writer.every_cell, r.CaptureHere: _Writer.capture,
    r.CaptureAt: _Writer.capture,
    r.To: _Writer.put_down, r.Cascade: _Writer.put_down, r.From: _Writer.from_,
    r.DiscardCascades: _Writer.discard_cascades, r.Create: _Writer.create,
    r.ChangeType: _Writer.change_piece, r.ChangeOwner: _Writer.change_piece,
    r.SetAttribute: _Writer.set_attribute, r.SetPositionFlag: _Writer.set_position_flag,
    r.Mark: _Writer.mark, r.Back: _Writer.back, r.Go: _Writer.go, r.GoTo: _Writer.go_to,
    r.MarkAt: _Writer.mark_at, r.SetFlag: _Writer.set_flag, r.SetVar: _Writer.set_var,
    r.Inc: _Writer.inc, r.Add: _Writer.add,
})


#: The writer's expression for each test type (checked first by :data:`_CHECK_TEST`).
_Writer.TEST.update({
    r.Empty: _Writer.t_empty,
    r.Friend: _Writer.t_friend,
    r.Enemy: _Writer.t_enemy,
    r.Neutral: _Writer.t_neutral,
    r.OnBoard: _Writer.t_on_board,
    r.Always: _Writer.t_on_board,
    r.LastFrom: _Writer.t_last_from,
    r.LastTo: _Writer.t_last_to,
    r.Never: _Writer.t_never,
    r.Marked: _Writer.t_marked,
    r.Flag: _Writer.t_flag,
    r.PositionFlag: _Writer.t_position_flag,
    r.Attacked: _Writer.t_attacked,
    r.Var: _Writer.t_var,
    r.Less: _Writer.t_less,
    r.PieceCount: _Writer.t_piece_count,
    r.Connected: _Writer.t_connected,
    r.AtCell: _Writer.t_at_cell,
    r.AtStep: _Writer.t_at_step,
    r.OnBoardStep: _Writer.t_on_board_step,
    r.PositionIs: _Writer.t_position_is,
    r.InCells: _Writer.t_in_cells,
    r.PieceIs: _Writer.t_piece_is,
    r.Attribute: _Writer.t_attribute,
    r.AdjacentToEnemy: _Writer.t_adjacent_to_enemy,
    r.InZone: _Writer.t_in_zone,
    r.Not: _Writer.t_combined,
    r.AllOf: _Writer.t_combined,
    r.AnyOf: _Writer.t_combined,
})


#: A de Bruijn sequence: the top six bits of a power of two times it differ for each
#: power (the index of a mask's lowest bit, see _Writer.attacks); the kernel multiplies
#: unsigned (a signed product that overflows is undefined in numba's code).
_DE_BRUIJN = 0x03F79D71B4CB0A89


#: looked at in full).
_ATTACKERS = 4096


#: every piece on every cell are in the table).
_MAX_PIECES = 4000


_HAND_KEYS = 256


def _pieces(game: PieceGame, templates: Sequence[r.Template]) -> list[Piece]:
    """Every piece a position of the game can hold: the game's pieces, those of its
    start, and all that promotions, changes of type and owner and creations can make
    of them (until none is new)."""
    out = list(dict.fromkeys([*game.piece_list, *game.ruleset.placement.values(),
                              *game.ruleset.reserves]))
    # A drop's piece, for the players who have it: from an unlimited supply, or in
    # hand at the start (no other piece comes into a hand a kernel counts).
    hand = game.ruleset.reserves
    for t in templates:
        if type(t) is r.Drop:
            for player in range(game.num_players):
                piece = Piece(player, t.kinds[0], t.attributes)
                if player in t.unlimited_for or piece in hand:
                    out.append(piece)
    out = list(dict.fromkeys(out))
    every = [i for t in templates for i in r.instructions(t.program)]
    kinds = sorted({i.promote for i in every if isinstance(i, r.Add) and i.promote}
                   | {i.kind for i in every if isinstance(i, r.ChangeType)})
    # attacked?/defended? ask their question of a piece of another player standing on
    # the cell (interpret._could_take).
    owners = any(isinstance(i, r.ChangeOwner) and not i.flip for i in every) or any(
        isinstance(p, r.Attacked) for t in templates for p in _tests(t.program))
    flips = any(isinstance(i, r.ChangeOwner) and i.flip for i in every)
    creates = [i for i in every if isinstance(i, r.Create)]
    attributes = sorted({i.name for i in every if isinstance(i, r.SetAttribute)})
    players = range(game.num_players)
    if game.move_rules.deferred_captures:
        # A piece a chain's step takes stays until the chain ends, owned by nobody.
        out.extend(Piece(-1, p.kind, p.attributes) for p in list(out))
    for i in creates:
        if i.kind is not None:
            out.extend(Piece(pl if i.owner is None else i.owner, i.kind, i.attributes)
                       for pl in players)
    seen = set(out)
    frontier = list(out)
    while frontier:
        made: list[Piece] = []
        for piece in frontier:
            made.extend(Piece(piece.owner, kind, piece.attributes) for kind in kinds)
            if owners:
                made.extend(Piece(pl, piece.kind, piece.attributes) for pl in players)
            if flips:
                made.append(Piece((piece.owner + 1) % game.num_players, piece.kind,
                                  piece.attributes))
            made.extend(Piece(pl if i.owner is None else i.owner, piece.kind,
                              game.ruleset.attribute_defaults(piece.kind))
                        for i in creates if i.kind is None for pl in players)
            made.extend(piece.with_attributes({name: value}) for name in attributes
                        for value in (True, False))
        frontier = []
        for piece in made:
            if piece not in seen:
                seen.add(piece)
                out.append(piece)
                frontier.append(piece)
        if len(out) > _MAX_PIECES:
            raise Unsupported(f"more than {_MAX_PIECES} pieces")
    return out


def _last_keys(game: Any) -> list[int]:
    """The keys of the last move's cells: a part for its source (or none) and one for
    its target, as ``game.last_key`` makes them; by source + 1 (0: none), then by
    target + 1 (0 unused), so that the array's last move indexes them at once."""
    size = game.board.size
    none = game.last_key(None, 0)
    sources = [game.last_key(None if c < 0 else c, 0) ^ none for c in range(-1, size)]
    targets = [0] + [game.last_key(None, c) for c in range(size)]
    # The key of a last move must be its source's part and its target's.
    for a in (None, 0, size - 1):
        for b in (0, size // 2, size - 1):
            if game.last_key(a, b) != sources[0 if a is None else a + 1] ^ targets[b + 1]:
                raise Unsupported("a key of the last move that is not its cells' parts")
    return [_signed(v) for v in sources + targets]
