"""What a template's program can do, found without running it on a position: the cells
it may reach from a piece's cell (:func:`reach`) and the cells it reads (:func:`reads`),
by an abstract run over the cells it may stand on. A check test (ZRF ``attacked?``,
``checkmated``) runs only the templates whose reach holds the cell (:class:`Attackers`),
and a game kernel keeps the same tables.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from boardlab.core.ir import (
    OFF,
    Add,
    Back,
    CaptureAt,
    CaptureHere,
    Cascade,
    ChangeOwner,
    ChangeType,
    Create,
    DiscardCascades,
    EveryCell,
    From,
    Go,
    GoTo,
    If,
    Inc,
    Instruction,
    Mark,
    MarkAt,
    SetAttribute,
    SetFlag,
    SetPositionFlag,
    SetVar,
    Step,
    To,
    Verify,
    While,
)
from boardlab.core.move import Piece

if TYPE_CHECKING:
    from boardlab.core.templates import Template

__all__ = ["COSTLY", "EVERYWHERE", "REACH_CASES", "Attackers", "Everywhere", "kinds_by_player",
           "reach", "reads"]


class Attackers:
    """The (source cell, template, cells the run reads) triples of one player's pieces
    of one type whose :func:`reach` includes each cell: ``by_target`` for reaches the
    analysis found, ``wide`` for runs that may reach anywhere (kept once, not once per
    cell: a program too costly to follow reaches everywhere from every cell)."""

    def __init__(self, size: int):
        self.size = size
        self.by_target: list[list[tuple[int, Template, frozenset[int] | Everywhere]]] = \
            [[] for _ in range(size)]
        #: template -> (the cells from which it reaches anywhere, None for all; what it
        #: reads from them).
        self.wide: dict[Template, tuple[set[int] | None, frozenset[int] | Everywhere]] = {}

    def add(self, template: Template, board: Any, player: int) -> None:
        """Follow ``template`` from every cell."""
        for source in range(self.size):
            found, looked = _abstract_run(template.program, board, player, source)
            if looked is COSTLY:
                # Too costly to follow: it reaches anywhere from any cell.
                self.wide[template] = (None, EVERYWHERE)
                return
            if found is EVERYWHERE:
                self.wide.setdefault(template, (set(), looked))[0].add(source)  # type: ignore[union-attr]
                continue
            for target in found:  # type: ignore[union-attr]
                self.by_target[target].append((source, template, looked))

    def of(self, target: int, cells: Sequence[Piece | None], player: int, kind: str
           ) -> Iterator[tuple[int, Template, frozenset[int] | Everywhere]]:
        """The triples that may reach ``target`` whose source holds a piece of
        ``player`` of ``kind`` in ``cells``."""
        for source, template, looked in self.by_target[target]:
            piece = cells[source]
            if piece is not None and piece.owner == player and piece.kind == kind:
                yield source, template, looked
        if self.wide:
            mine = [c for c, p in enumerate(cells)
                    if p is not None and p.owner == player and p.kind == kind]
            for template, (sources, looked) in self.wide.items():
                for source in mine:
                    if sources is None or source in sources:
                        yield source, template, looked


def kinds_by_player(cells: Sequence[Piece | None]) -> dict[int, set[str]]:
    out: dict[int, set[str]] = {}
    for piece in cells:
        if piece is not None:
            out.setdefault(piece.owner, set()).add(piece.kind)
    return out


class _Lost(Exception):
    """The abstract run meets an instruction it cannot follow."""


class _Costly(_Lost):
    """The abstract run costs more than its budget."""


_OFF_BOARD = frozenset((OFF,))


class Everywhere:
    """The reach of a program the analysis cannot follow: every cell."""

    def __contains__(self, cell: object) -> bool:
        return True


EVERYWHERE = Everywhere()
#: The reach of a program the analysis gave up following because following it costs
#: more than its budget (a loop over the whole board inside a loop over it): every cell,
#: as for a program it cannot follow, and the same for every cell it starts from.
COSTLY = Everywhere()
#: The instructions an abstract run may visit before it gives up (a sound answer:
#: everywhere). Plain moves visit a few dozen.
_REACH_BUDGET = 1_000


def reach(program: Sequence[Instruction], board: Any, player: int,
          source: int) -> frozenset[int] | Everywhere:
    """The cells a run of ``program`` from ``source`` could move a piece to or capture
    on, whatever the position: every test is taken both ways and every loop to its
    fixed point (an abstract run over sets of cells). A program it cannot follow (one
    that reads the last move, or plays partial moves on) reaches everywhere."""
    return _abstract_run(program, board, player, source)[0]


def reads(program: Sequence[Instruction], board: Any, player: int,
          source: int) -> frozenset[int] | Everywhere:
    """The cells a run of ``program`` from ``source`` could look at, whatever the
    position (see :func:`reach`): a move that changes none of them cannot change what
    the run finds."""
    return _abstract_run(program, board, player, source)[1]


#: Instructions that neither move the cursor nor put a piece anywhere.
_MOVES_NOTHING = (Verify, SetFlag, SetPositionFlag, SetVar, Inc, Create, ChangeType,
                  ChangeOwner, SetAttribute, From, DiscardCascades)
#: Instructions that capture or put a piece down on the cursor's cells.
_LANDS_HERE = (CaptureHere, To, Cascade)
#: Instructions the abstract run does not follow (the run reaches everywhere).
_NOT_FOLLOWED = (Go,)
#: Every instruction type the abstract run has a case for.
REACH_CASES = frozenset((*_MOVES_NOTHING, *_LANDS_HERE, *_NOT_FOLLOWED, Step, If, While,
                         EveryCell, Add, CaptureAt, Mark, MarkAt, Back, GoTo))


def _abstract_run(program: Sequence[Instruction], board: Any, player: int, source: int
                  ) -> tuple[frozenset[int] | Everywhere, frozenset[int] | Everywhere]:
    links = board.player_links(player)
    found: set[int] = set()
    seen: set[int] = {source}
    # Whether a step that may leave the board (the run goes on, the cursor off) left it:
    # then a run whose cells ran out is still going.
    left: list[bool] = [False]

    def step(cells: frozenset[int], direction: str, may_leave: bool = False
             ) -> frozenset[int]:
        row = links.get(direction)
        if row is None:
            row = board.links[board.direction_index(board.player_direction(player,
                                                                           direction))]
        out = frozenset([row[c] for c in cells])
        if OFF in out:
            left[0] = left[0] or may_leave
            out = out.difference(_OFF_BOARD)
        seen.update(out)
        return out

    work = [0]

    def run(instructions: Sequence[Instruction], cells: frozenset[int],
            marks: frozenset[int]) -> tuple[frozenset[int], frozenset[int]]:
        work[0] += len(instructions)
        if work[0] > _REACH_BUDGET:
            raise _Costly
        for i in instructions:
            if not cells and not left[0]:
                # Every run has failed (a step led nowhere): nothing after it happens.
                return cells, marks
            if isinstance(i, Step):
                cells = step(cells, i.direction, i.may_leave)
            elif isinstance(i, _MOVES_NOTHING):
                continue
            elif isinstance(i, If):
                a = run(i.then, cells, marks)
                b = run(i.else_, cells, marks)
                cells, marks = a[0] | b[0], a[1] | b[1]
            elif isinstance(i, While):
                # The fixed point, each round running the body only from the cells the
                # last round added (the body's reach from a union is the union of its
                # reaches): a loop that walks the whole board costs one pass, not one
                # pass per cell.
                total, total_marks = cells, marks
                fresh = cells
                for _ in range(board.size + 1):
                    nxt, nxt_marks = run(i.body, fresh, total_marks)
                    fresh = nxt - total
                    if not fresh and nxt_marks <= total_marks:
                        break
                    total, total_marks = total | nxt, total_marks | nxt_marks
                cells, marks = total, total_marks
            elif isinstance(i, EveryCell):
                # A run of the body from each cell, none of which goes further; the
                # run then goes on where it stood.
                every = frozenset(range(board.size))
                seen.update(every)
                run(i.body, every, marks)
            elif isinstance(i, Add):
                if i.partial is not None:
                    raise _Lost
                found.update(cells)
            elif isinstance(i, _LANDS_HERE):
                found.update(cells)
            elif isinstance(i, CaptureAt):
                found.update(_reach_at(cells, i.cell, i.direction, step))
            elif isinstance(i, Mark):
                marks = cells
            elif isinstance(i, MarkAt):
                marks = _reach_at(cells, i.cell, i.direction, step)
            elif isinstance(i, Back):
                cells = marks | frozenset((source,))
            elif isinstance(i, GoTo):
                # A jump to a fixed cell is reached only by a run still going: after a
                # step no source can take (shogi's drops start with a step only a hand
                # cell has), the run has failed, and the jump must not revive it.
                if cells or left[0]:
                    cells = frozenset((i.cell,))
                    seen.add(i.cell)
            elif isinstance(i, _NOT_FOLLOWED):
                raise _Lost
            else:  # a node without a case here: tests/core/test_ir.py fails first
                raise TypeError(f"no abstract run of {type(i).__name__}")
        return cells, marks

    try:
        run(program, frozenset((source,)), frozenset())
    except _Costly:
        return EVERYWHERE, COSTLY
    except _Lost:
        return EVERYWHERE, EVERYWHERE
    return frozenset(found), frozenset(seen)


def _reach_at(cells: frozenset[int], cell: int | None, direction: str | None,
              step: Callable[[frozenset[int], str], frozenset[int]]) -> frozenset[int]:
    if cell is not None:
        return frozenset((cell,))
    return cells if direction is None else step(cells, direction)
