"""The move language's intermediate representation: a closed set of frozen dataclasses.

Every rule a game writes in the move language is a value built from these nodes:
*tests* (:class:`Test`: what a run reads at a cell) and *instructions*
(:class:`Instruction`: what a run does). They carry no behaviour. The meaning of
each node is given once by the reference interpreter (:mod:`boardlab.core.interpret`);
the analysis passes (:func:`boardlab.core.analysis.reach`) and the numba kernel writer
(:mod:`boardlab.core.kernel`) are backends over the same nodes, and
``tests/core/test_ir.py`` fails when a node lacks a case in one of them.
:mod:`boardlab.core.rules` builds templates and rule sets from these nodes and tells the
language's story (:doc:`/move-language`).

Game-specific Python, where a rule truly needs it, is a :class:`Native` test that
says why; the kernel refuses it by name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from boardlab.core.move import Action

__all__ = [
    "LOOP_LIMIT",
    "OFF",
    "Test",
    "Predicate",
    "Native",
    "Empty",
    "EMPTY",
    "Friend",
    "FRIEND",
    "Enemy",
    "ENEMY",
    "OnBoard",
    "ON_BOARD",
    "Neutral",
    "NEUTRAL",
    "LastFrom",
    "LAST_FROM",
    "LastTo",
    "LAST_TO",
    "Marked",
    "MARKED",
    "Always",
    "ALWAYS",
    "Never",
    "NEVER",
    "AtCell",
    "AtStep",
    "PositionIs",
    "InCells",
    "OnBoardStep",
    "Attribute",
    "PositionFlag",
    "Not",
    "AllOf",
    "AnyOf",
    "PieceIs",
    "InZone",
    "Flag",
    "Var",
    "PieceCount",
    "Less",
    "Connected",
    "Attacked",
    "at_cell",
    "at_step",
    "position_is",
    "on_board_step",
    "attribute",
    "position_flag",
    "AdjacentToEnemy",
    "ADJACENT_TO_ENEMY",
    "adjacent_to_enemy",
    "attacked",
    "defended",
    "not_",
    "all_of",
    "any_of",
    "piece_is",
    "in_zone",
    "in_cells",
    "flag",
    "var",
    "less",
    "connected",
    "Instruction",
    "Step",
    "Verify",
    "If",
    "While",
    "EveryCell",
    "Partial",
    "Add",
    "CaptureHere",
    "To",
    "From",
    "Cascade",
    "DiscardCascades",
    "Mark",
    "Back",
    "SetFlag",
    "SetPositionFlag",
    "SetAttribute",
    "GoTo",
    "Go",
    "MarkAt",
    "CaptureAt",
    "SetVar",
    "Inc",
    "Create",
    "ChangeType",
    "ChangeOwner",
    "instructions",
    "parts",
]

#: The cursor's cell when a step took it off the board.
OFF = -1
#: The most rounds a ``While`` may run: one more is an error of the rules (a loop that
#: never ends), not a move.
LOOP_LIMIT = 10_000


class Test:
    """A test of the cell under a run's cursor (ZRF's ``empty?``, ``enemy?``...)."""

    __slots__ = ()


#: Kept as the name the language's signatures use.
Predicate = Test


@dataclass(frozen=True, slots=True)
class Native(Test):
    """A test written in Python: ``function`` takes the interpreter's
    :class:`~boardlab.core.interpret.Cursor` and answers. ``why`` says what the
    language cannot say instead (the kernel refuses the test and gives it as the
    reason)."""

    function: Callable[[Any], bool]
    why: str


@dataclass(frozen=True, slots=True)
class Empty(Test):
    """The cell under the cursor is on the board and empty."""


#: The :class:`Empty` test (one value serves every use).
EMPTY = Empty()


@dataclass(frozen=True, slots=True)
class Friend(Test):
    """The cell holds a piece of the mover."""


#: The :class:`Friend` test (one value serves every use).
FRIEND = Friend()


@dataclass(frozen=True, slots=True)
class Enemy(Test):
    """The cell holds a piece of another player (not a piece taken earlier in a chain of
partial moves whose captures wait for its end, which belongs to nobody)."""


#: The :class:`Enemy` test (one value serves every use).
ENEMY = Enemy()


@dataclass(frozen=True, slots=True)
class OnBoard(Test):
    """The cursor is on the board (only false after ``Step(d, may_leave=True)``)."""


#: The :class:`OnBoard` test (one value serves every use).
ON_BOARD = OnBoard()


@dataclass(frozen=True, slots=True)
class Neutral(Test):
    """The cell holds a piece of a player who never moves (ZRF ``neutral?``)."""


#: The :class:`Neutral` test (one value serves every use).
NEUTRAL = Neutral()


@dataclass(frozen=True, slots=True)
class LastFrom(Test):
    """The cell is where the previous move (or partial step) started (ZRF ``last-from?``)."""


#: The :class:`LastFrom` test (one value serves every use).
LAST_FROM = LastFrom()


@dataclass(frozen=True, slots=True)
class LastTo(Test):
    """The cell is where the previous move (or partial step) ended (ZRF ``last-to?``)."""


#: The :class:`LastTo` test (one value serves every use).
LAST_TO = LastTo()


@dataclass(frozen=True, slots=True)
class Marked(Test):
    """The cursor is on the marked cell (ZRF ``marked?``)."""


#: The :class:`Marked` test (one value serves every use).
MARKED = Marked()


@dataclass(frozen=True, slots=True)
class Always(Test):
    """True (ZRF ``true``)."""


#: The :class:`Always` test (one value serves every use).
ALWAYS = Always()


@dataclass(frozen=True, slots=True)
class Never(Test):
    """False (ZRF ``false``)."""


#: The :class:`Never` test (one value serves every use).
NEVER = Never()


@dataclass(frozen=True, slots=True)
class AtCell(Test):
    """``test`` read at ``cell`` instead of the cursor (ZRF ``(empty? a1)``)."""

    test: Test
    cell: int


@dataclass(frozen=True, slots=True)
class AtStep(Test):
    """``test`` read one step away in ``direction`` (ZRF ``(enemy? n)``); false off the
    board, where a predicate has nothing to read."""

    test: Test
    direction: str


@dataclass(frozen=True, slots=True)
class PositionIs(Test):
    """The cursor is on ``cell`` (ZRF ``(position? a1)``)."""

    cell: int


@dataclass(frozen=True, slots=True)
class InCells(Test):
    """The cursor is on one of ``cells`` (ZRF ``goal-position?``)."""

    cells: frozenset[int]


@dataclass(frozen=True, slots=True)
class OnBoardStep(Test):
    """One step in ``direction`` stays on the board (ZRF ``(on-board? n)``)."""

    direction: str


@dataclass(frozen=True, slots=True)
class Attribute(Test):
    """The cell holds a piece whose attribute ``name`` is true."""

    name: str


@dataclass(frozen=True, slots=True)
class PositionFlag(Test):
    """A flag of the cursor's cell set in this run (ZRF ``position-flag?``)."""

    name: str


@dataclass(frozen=True, slots=True)
class Not(Test):
    """The negation of a predicate."""

    test: Test


@dataclass(frozen=True, slots=True)
class AllOf(Test):
    """All predicates hold (tested in order, stopping at the first false one)."""

    tests: tuple[Test, ...]


@dataclass(frozen=True, slots=True)
class AnyOf(Test):
    """Some predicate holds (tested in order, stopping at the first true one)."""

    tests: tuple[Test, ...]


@dataclass(frozen=True, slots=True)
class PieceIs(Test):
    """The cell holds a piece (of any owner) of one of ``kinds``."""

    kinds: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class InZone(Test):
    """The cursor is in the mover's part of ``zone``."""

    zone: str


@dataclass(frozen=True, slots=True)
class Flag(Test):
    """A flag set by :class:`SetFlag` in this run is true."""

    name: str


@dataclass(frozen=True, slots=True)
class Var(Test):
    """The value of a counter set by :class:`SetVar`/:class:`Inc` (0 if unset)."""

    name: str


@dataclass(frozen=True, slots=True)
class PieceCount(Test):
    """How many pieces the mover has on the board (``mine``; with ``mine`` false, the
    other players have), of ``kinds`` (every type when empty), and in hand too with
    ``in_hand``: a value :class:`Less` compares, read on the board as the move starts
    (nine men's morris: a player down to three men flies)."""

    kinds: tuple[str, ...] = ()
    in_hand: bool = False
    mine: bool = True


@dataclass(frozen=True, slots=True)
class Less(Test):
    """One value (a :class:`Var`, a :class:`PieceCount` or a number) is smaller than
    another."""

    left: Var | PieceCount | int
    right: Var | PieceCount | int


@dataclass(frozen=True, slots=True)
class Connected(Test):
    """The mover's pieces form one group, each reaching every other by steps in
    ``directions`` (board directions; all of them when None) over the mover's pieces: a
    test of the position as the move starts, the same wherever the cursor is (Ordo's
    backward moves, allowed while a capture keeps the group split)."""

    directions: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Attacked(Test):
    """Another player could capture on the cell with a move (of ``move_type``) now
    (ZRF ``attacked?``), or with ``defended`` another of the mover's pieces could move
    onto it (ZRF ``defended?``): see :func:`attacked` and :func:`defended`."""

    move_type: str | None = None
    defended: bool = False


def at_cell(test: Test, cell: int) -> Test:
    """``test`` read at ``cell`` instead of the cursor (ZRF ``(empty? a1)``)."""
    return AtCell(test, cell)


def at_step(test: Test, direction: str) -> Test:
    """``test`` read one step away in ``direction`` (ZRF ``(enemy? n)``); false off the
    board, where a predicate has nothing to read."""
    return AtStep(test, direction)


def position_is(cell: int) -> Test:
    """The cursor is on ``cell`` (ZRF ``(position? a1)``)."""
    return PositionIs(cell)


def on_board_step(direction: str) -> Test:
    """One step in ``direction`` stays on the board (ZRF ``(on-board? n)``)."""
    return OnBoardStep(direction)


def attribute(name: str) -> Test:
    """The cell holds a piece whose attribute ``name`` is true."""
    return Attribute(name)


def position_flag(name: str) -> Test:
    """A flag of the cursor's cell set in this run (ZRF ``position-flag?``)."""
    return PositionFlag(name)


@dataclass(frozen=True, slots=True)
class AdjacentToEnemy(Test):
    """Some neighbour of the cell holds another player's piece (ZRF
    ``adjacent-to-enemy?``)."""


#: The :class:`AdjacentToEnemy` test (one value serves every use).
ADJACENT_TO_ENEMY = AdjacentToEnemy()
#: ZRF's name, as the importer spells it.
adjacent_to_enemy = ADJACENT_TO_ENEMY


def attacked(move_type: str | None = None) -> Test:
    """Another player could capture on the cell with a move (of ``move_type``) now (ZRF
    ``attacked?``): an occupied cell is attacked when a move captures the piece, an
    empty one when a move could capture the moving piece standing there. A cell holding
    another player's piece is attacked when they could take a piece of the mover's
    there."""
    return Attacked(move_type)


def defended(move_type: str | None = None) -> Test:
    """Another of the mover's pieces could take an enemy standing on the cell (ZRF
    ``defended?``): on a cell holding a piece of the mover's, the piece is protected
    (taken, it would be taken back)."""
    return Attacked(move_type, defended=True)


def not_(p: Test) -> Test:
    """The negation of a predicate."""
    return Not(p)


def all_of(*ps: Test) -> Test:
    """All predicates hold."""
    return AllOf(ps)


def any_of(*ps: Test) -> Test:
    """Some predicate holds."""
    return AnyOf(ps)


def piece_is(*kinds: str) -> Test:
    """The cell holds a piece (of any owner) of one of these types."""
    return PieceIs(kinds)


def in_zone(zone: str) -> Test:
    """The cursor is in the mover's part of ``zone``."""
    return InZone(zone)


def in_cells(cells: Iterable[int]) -> Test:
    """The cursor is on one of ``cells``."""
    return InCells(frozenset(cells))


def flag(name: str) -> Test:
    """A flag set by :class:`SetFlag` in this run is true."""
    return Flag(name)


def var(name: str) -> Var:
    """The value of a counter set by :class:`SetVar`/:class:`Inc` (0 if unset)."""
    return Var(name)


def less(left: Var | PieceCount | int, right: Var | PieceCount | int) -> Test:
    """``left`` < ``right``, each a counter (:func:`var`), a count of pieces
    (:class:`PieceCount`) or a number."""
    return Less(left, right)


def connected(directions: tuple[str, ...] | None = None) -> Test:
    """The mover's pieces form one group (see :class:`Connected`)."""
    return Connected(directions)


def parts(test: Test) -> Iterator[Test]:
    """``test`` and every test inside it, outermost first (the values a ``Less``
    compares that are tests too).

    >>> [type(p).__name__ for p in parts(Not(AnyOf((Empty(), Connected()))))]
    ['Not', 'AnyOf', 'Empty', 'Connected']
    """
    yield test
    if isinstance(test, Not | AtCell | AtStep):
        yield from parts(test.test)
    elif isinstance(test, AllOf | AnyOf):
        for inner in test.tests:
            yield from parts(inner)
    elif isinstance(test, Less):
        for value in (test.left, test.right):
            if not isinstance(value, int):
                yield from parts(value)


class Instruction:
    """One step of a template (see :mod:`boardlab.core.interpret` for what each does)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Step(Instruction):
    """Move the cursor one step in a (player-relative) direction."""

    direction: str
    may_leave: bool = False


@dataclass(frozen=True, slots=True)
class Verify(Instruction):
    """Fail unless the predicate holds."""

    test: Test


@dataclass(frozen=True, slots=True)
class If(Instruction):
    """Run ``then`` if the predicate holds, else ``else_``."""

    test: Test
    then: Sequence[Instruction]
    else_: Sequence[Instruction] = ()


@dataclass(frozen=True, slots=True)
class While(Instruction):
    """Run ``body`` while the predicate holds."""

    test: Test
    body: Sequence[Instruction]


@dataclass(frozen=True, slots=True)
class EveryCell(Instruction):
    """Run ``body`` with the cursor on each cell of the board in turn, in cell order,
    each run a fork of the run as it stands (Ludii's ``(to (sites Board))``; a
    morris man flying to any empty point): what one cell's run does -- the moves it
    adds, its flags, counters, mark, queued actions and piece in hand -- goes no
    further than that run, a failure ends that run alone, and after the last cell
    the run goes on from where it stood, as it was."""

    body: Sequence[Instruction]


@dataclass(frozen=True, slots=True)
class Partial:
    """A move that does not end the turn (ZRF ``add-partial``): after it the same piece,
    now on ``cell``, goes on with its moves of ``move_type`` (with any of its moves when
    ``move_type`` is empty); :class:`~boardlab.core.turn.Rules` plays out the chains
    and offers each as one move."""

    actions: tuple[Action, ...]
    move_type: str
    cell: int


@dataclass(frozen=True, slots=True)
class Add(Instruction):
    """Emit the move built so far: the piece in hand goes to the cursor (captured if the
    cursor is off the board), capturing what stands there; optionally promoted.

    ZRF's order of effects: a ``capture`` queued on the destination removes the piece
    arriving there; the types, owners and attributes changed in the run go to the pieces
    standing on their cells after the move. ``copy`` (ZRF ``add-copy``) leaves the piece
    on its cell too.
    ``partial`` (a move type) makes it ZRF ``add-partial``: a :class:`Partial`.
    """

    promote: str | None = None
    partial: str | None = None
    copy: bool = False


@dataclass(frozen=True, slots=True)
class CaptureHere(Instruction):
    """Capture the piece under the cursor (ZRF ``capture``)."""


@dataclass(frozen=True, slots=True)
class To(Instruction):
    """Put the piece in hand down under the cursor now (ZRF ``to``)."""


@dataclass(frozen=True, slots=True)
class From(Instruction):
    """Pick up the piece under the cursor (ZRF ``from``); the hand stays empty on an
    empty cell."""


@dataclass(frozen=True, slots=True)
class Cascade(Instruction):
    """Put the piece in hand down here and pick up the piece that stood here
    (ZRF ``cascade``): :class:`To` then :class:`From`."""


@dataclass(frozen=True, slots=True)
class DiscardCascades(Instruction):
    """Forget the legs ``cascade`` and ``to`` have saved (ZRF's option "discard
    cascades", after each ``add``): the run's later moves move the piece in hand alone,
    with the captures and changes queued so far."""


@dataclass(frozen=True, slots=True)
class Mark(Instruction):
    """Remember the cursor's cell (ZRF ``mark``)."""


@dataclass(frozen=True, slots=True)
class Back(Instruction):
    """Return to the marked cell (ZRF ``back``)."""


@dataclass(frozen=True, slots=True)
class SetFlag(Instruction):
    """Set a flag of this run (ZRF ``set-flag``); the value may be a predicate, read at
    the cursor now."""

    name: str
    value: bool | Test = True


@dataclass(frozen=True, slots=True)
class SetPositionFlag(Instruction):
    """Set a flag of the cursor's cell, of ``cell`` or of the cell one step in
    ``direction``, for this run (ZRF ``set-position-flag``); a predicate value is read
    at the cursor."""

    name: str
    value: bool | Test = True
    cell: int | None = None
    direction: str | None = None


@dataclass(frozen=True, slots=True)
class SetAttribute(Instruction):
    """After the move, the piece on the cursor's cell gets attribute ``name`` = ``value``
    (ZRF ``set-attribute``; a piece arriving there with this move included)."""

    name: str
    value: bool | Test = True


@dataclass(frozen=True, slots=True)
class GoTo(Instruction):
    """Put the cursor on ``cell`` (ZRF: a position name as an instruction)."""

    cell: int


@dataclass(frozen=True, slots=True)
class Go(Instruction):
    """Put the cursor on the move's start (``from``), its destination (``to``: where
    the last ``to`` put the piece down, else the cursor's cell, where ``add`` would),
    the previous move's start or end (``last-from``, ``last-to``) or the mark (ZRF
    ``go``)."""

    where: str


@dataclass(frozen=True, slots=True)
class MarkAt(Instruction):
    """Mark ``cell``, or the cell one step in ``direction`` (ZRF ``(mark a1)``,
    ``(mark n)``); the cursor stays."""

    cell: int | None = None
    direction: str | None = None


@dataclass(frozen=True, slots=True)
class CaptureAt(Instruction):
    """Capture the piece on ``cell`` or one step in ``direction`` without moving the
    cursor (ZRF ``(capture a1)``, ``(capture n)``)."""

    cell: int | None = None
    direction: str | None = None


@dataclass(frozen=True, slots=True)
class SetVar(Instruction):
    """Set a counter of this run."""

    name: str
    value: int = 0


@dataclass(frozen=True, slots=True)
class Inc(Instruction):
    """Add ``by`` to a counter of this run."""

    name: str
    by: int = 1


@dataclass(frozen=True, slots=True)
class Create(Instruction):
    """Create a piece of type ``kind`` (the moving piece's type when None; owned by the
    mover unless ``owner``) under the cursor, or on ``cell``, or one step in
    ``direction`` (ZRF ``create``); it replaces whatever stands there after the move's
    shifts, the mover included."""

    kind: str | None
    owner: int | None = None
    cell: int | None = None
    direction: str | None = None
    attributes: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class ChangeType(Instruction):
    """Change the type of the piece on the cursor's cell, on ``cell`` or one step in
    ``direction`` (ZRF ``change-type``): the piece standing there once the move's pieces
    have moved, so on the mover's destination it is the arriving piece."""

    kind: str
    cell: int | None = None
    direction: str | None = None


@dataclass(frozen=True, slots=True)
class ChangeOwner(Instruction):
    """Give the piece on the cursor's cell (on ``cell``, one step in ``direction``) to
    the mover (ZRF ``change-owner``), or with ``flip`` to the player after its owner
    (ZRF ``flip``): the piece standing there once the move's pieces have moved."""

    cell: int | None = None
    direction: str | None = None
    flip: bool = False


def instructions(program: Sequence[Instruction]) -> Iterator[Instruction]:
    """Every instruction of ``program`` and of the blocks inside it, in program order,
    each block's right after the instruction that holds it.

    >>> [type(i).__name__ for i in instructions((If(EMPTY, (Step("n"),)), Add()))]
    ['If', 'Step', 'Add']
    """
    for i in program:
        yield i
        if isinstance(i, If):
            yield from instructions(i.then)
            yield from instructions(i.else_)
        elif isinstance(i, While | EveryCell):
            yield from instructions(i.body)
