"""What the writer learns of a game before writing its kernel: repeated subtrees,
templates whose moves land apart, loops that end, the pieces a position can hold."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from boardlab.core import rules as r
from boardlab.core.kernel.checks import _tests
from boardlab.core.kernel.layout import (
    Unsupported,
    _signed,
)
from boardlab.core.move import Piece
from boardlab.core.position import PieceGame

#: The fewest instructions a subtree repeated in a template holds to be written as a
#: function of its own (see _repeated).
_ROUTINE_SIZE = 12


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


#: Most piece codes a kernel gives (a code is 16 bits of an action word; the keys of
#: every piece on every cell are in the table).
_MAX_PIECES = 4000


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
