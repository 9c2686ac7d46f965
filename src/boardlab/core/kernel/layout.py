"""The layout a game's kernel and its Python side share: a position's array (its
fields, then the board, then the moves), the words of a move, the rows of the history,
the status codes, the registry of moves and a few helpers of these."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, Any

import numpy as np

from boardlab.core.move import (
    Capture,
    Change,
    Piece,
    Place,
    Shift,
)
from boardlab.core.rules import Template

if TYPE_CHECKING:
    pass



# The layout of a position's array S: the fields, then the board, then the moves.
# DEPTH counts the rows of the history H, of which the first BASE are earlier positions
# (their keys alone: a ZRF position's past, kept by a copy or read from text), the others
# the moves played here; REPS is how often the position has occurred (as ``occurrences``
# says it), kept when the goals count repetitions; TAKEN says what the last move took,
# a bit for each Captured goal and player (see _Writer.taken). FOLLOW is the code of the
# move type due next in the turn (rules.FollowUp; -1: none), TURNS the turns played.
# SINCE is the first row of the history whose position may occur again: in a game whose
# moves never add a piece to the board, none before a move that took one (see
# _Writer.shrinking); 0 elsewhere.
# NEAR says where the goals that a move can only make true near the cells it changed
# need looking at: 0 everywhere, -1 none holds here, k > 0 none held before the last
# move, which changed the k cells that follow NEAR (see _Writer.near).
(TO_MOVE, PLY, KEY, NMOVES, STATUS, DEPTH, MOVER, LAST, BASE, REPS, TAKEN, FOLLOW, TURNS,
 SINCE, NEAR) = range(15)


MAX_MOVES = 1 << 15


# kind in the low two bits (a Capture, Shift, Place or Change), a cell in the next 16,
# a second cell (a Shift's target) or a piece code in the 16 after, and a Place's or a
# Change's ``from_reserve`` above them. The registry of moves keeps each move's words,
# its template and its player; a move's number is its index there.
_CAPTURE, _SHIFT, _PLACE, _CHANGE = range(4)


_CELL_BITS = 16


# in one chain).
_BUCKETS = 1024


_TOUCH = 24


BOARD = NEAR + 1 + _TOUCH


# the first row that may repeat, the move type due and the turns played before the
# move, what the move before took, occurrences, last move.
_HIST = 5 + 2 * _TOUCH + 6


#: moves of one position together.
_QUEUE = 1024


_ARENA = 1 << 16


#: quarter as many moves): a chess game's path of ten positions takes about 800.
_PERFT_ROOM = 1 << 14


#: Room for this many legal moves in a new position's array (it grows when needed).
_ROOM = 256


_CHANGES = 256


# actions composed (rules.compose), then, for its notation, each step's words after a
# word with this bit and the step's count (the actions end at the first such word).
_STEP_MARK = 1 << 41


# after its actions, a word with this mark (and the step mark, which ends the actions)
# and the kept group's first cell: its notation's note.
_NOTE_MARK = 1 << 42


_NOTE = _STEP_MARK | _NOTE_MARK


# the step mark) and the footprint's centre before and after: its notation and tag.
_FOOT_MARK = 1 << 43


_FOOT = _STEP_MARK | _FOOT_MARK


#: reach and steps between them it may keep (a search that needs more says so).
_STEPS = 1 << 14


_NODES = 1 << 12


_EDGES = 1 << 14


# player (an ending).
UNKNOWN = -2


_KINDS = ("win", "loss", "draw", "count")


class Status(IntEnum):
    """What a kernel's function answers below zero (its source writes them as numbers):
    an error of the rules, which the position raises, or a shortage the Python side
    makes room for before it calls again.

    The scan after a move shifts an error it meets by one number (``play`` writes it
    so): ``LOOPS`` becomes ``LOOPS_AFTER``, ``MOVES`` ``MOVES_AFTER``.

    >>> Status.LOOPS - Status.LOOPS_AFTER == Status.MOVES - Status.MOVES_AFTER
    True
    """

    #: A While that never ends (the interpreter's error).
    LOOPS = -1
    #: A position has more than MAX_MOVES moves.
    MOVES = -2
    #: The history is full.
    HISTORY = -3
    #: The registry of moves is full, before a move is played; after it:
    #: REGISTRY_AFTER.
    REGISTRY = -4
    #: A move that is not legal.
    ILLEGAL = -5
    #: The position's array has no room for its moves, before a move is played; after
    #: it: ROOM_AFTER.
    ROOM = -6
    ROOM_AFTER = -8
    REGISTRY_AFTER = -9
    #: A call in read mode met a move not registered (before a move; after it:
    #: UNREGISTERED_AFTER): the position calls again in write mode.
    UNREGISTERED = -10
    UNREGISTERED_AFTER = -11
    #: LOOPS and MOVES met by the scan of the position after a move.
    LOOPS_AFTER = -12
    MOVES_AFTER = -13
    #: A move has more actions, or a position's moves more words, than there is room.
    QUEUE = -14
    #: A move changes more than _TOUCH cells.
    TOUCH = -15
    #: A chain search goes past its room for steps, positions or steps between them.
    CHAINS = -16
    #: A chain search goes past the rules' bound of steps (``max_chains``).
    CHAIN_BOUND = -17
    #: Another error (QUEUE to CHAIN_BOUND) met by the scan after a move, which the new
    #: position's legal_moves raises.
    ERROR_AFTER = -18
    #: (Inside the kernel only) the move comes to nothing: a promotion the hand holds
    #: no piece for, or the finish of a run stopped at its tail (see tail_at) fails.
    NO_MOVE = -19
    #: A batch of playouts played its budget of plies: it is called again.
    BUDGET = -21


_ERRORS = {Status.MOVES: f"a position has more than {MAX_MOVES} moves",
           Status.QUEUE: f"a move has more than {_QUEUE} actions, or a position's moves "
                         f"more than {_ARENA}",
           Status.TOUCH: f"a move changes more than {_TOUCH} cells",
           Status.CHAINS: f"the chains of partial moves of a position take more than "
                          f"{_STEPS} steps, {_NODES} positions or {_EDGES} steps between "
                          "them"}


_AFTER_ERRORS = (Status.LOOPS_AFTER, Status.MOVES_AFTER, Status.ERROR_AFTER)


_AFTER_SHORTAGES = (Status.ROOM_AFTER, Status.REGISTRY_AFTER, Status.UNREGISTERED_AFTER)


_AFTER = {Status.REGISTRY: Status.REGISTRY_AFTER, Status.ROOM: Status.ROOM_AFTER,
          Status.LOOPS: Status.LOOPS_AFTER, Status.MOVES: Status.MOVES_AFTER}


REGISTRY = 1 << 12


_MASK64 = (1 << 64) - 1


class Unsupported(Exception):
    """What keeps a game from a kernel (the reason is the message)."""


# The plan: what the kernel needs to know of a game, and the checks that it can.

def pass_index(templates: Sequence[Template]) -> int:
    """The template index of a pass: the one after the last template's (so no
    template's move with no actions is taken for it)."""
    return len(templates)


def decode(words: Sequence[int], pieces: Sequence[Piece | None]) -> tuple:
    """The actions of a move's words (see the layout above; a chain's steps, after
    them, are not its actions)."""
    out: list = []
    for w in words:
        if w & _STEP_MARK:
            break
        kind, a, b = w & 3, (w >> 2) & 0xFFFF, (w >> 18) & 0xFFFF
        if kind == _CAPTURE:
            out.append(Capture(a))
        elif kind == _SHIFT:
            out.append(Shift(a, b))
        elif kind == _PLACE:
            out.append(Place(a, pieces[b], bool(w >> 34 & 1)))  # type: ignore[arg-type]
        else:
            out.append(Change(a, pieces[b], bool(w >> 34 & 1)))  # type: ignore[arg-type]
    return tuple(out)


def decode_steps(words: Sequence[int], pieces: Sequence[Piece | None]
                 ) -> tuple[tuple, ...]:
    """The steps of a chain's words (after its actions: each step's count in a marked
    word, then its words), each as the actions of that step."""
    steps = []
    i = 0
    while i < len(words):
        if words[i] & _STEP_MARK:
            count = words[i] & 0xFFFF
            steps.append(decode(words[i + 1:i + 1 + count], pieces))
            i += 1 + count
        else:
            i += 1
    return tuple(steps)


def _entry(dispatcher: Any, *kinds: str) -> Any:
    """The compiled overload of a kernel function for the arguments positions pass it
    (C-contiguous int64 vectors and matrices, integers; float64 ones for a search's
    points), loaded from numba's cache or compiled now."""
    from numba import types as nt

    of_kind = {"vector": nt.Array(nt.int64, 1, "C"), "matrix": nt.Array(nt.int64, 2, "C"),
               "int": nt.int64, "floats": nt.Array(nt.float64, 1, "C"),
               "float matrix": nt.Array(nt.float64, 2, "C"), "float": nt.float64}
    signature = tuple(of_kind[k] for k in kinds)
    dispatcher.compile(signature)
    return dispatcher.overloads[signature].entry_point


#: The kernel functions a plan calls from Python, compiled when it is made, and the
#: kinds of their arguments (see :func:`_entry`).
_ENTRIES: dict[str, tuple[str, ...]] = {
    "scan": ("vector", "vector", "int"),
    "play": ("vector", "matrix", "vector", "int"),
    "undo": ("vector", "matrix"),
    "rehash": ("vector", "vector"),
}


#: The registry's head: the count of moves, the capacity (hash slots), the count of
#: moves with a Move object, the words used.
_RHEAD = 4


_RWORDS = 8


def _registry(cap: int) -> np.ndarray:
    """An empty registry of ``cap`` hash slots: the head, then the slots' keys and
    indices, each move's meta (where its words are, how many, its template and
    player) and the moves' words."""
    out = np.zeros(_RHEAD + 3 * cap + _RWORDS * cap, dtype=np.int64)
    out[1] = cap
    out[_RHEAD:_RHEAD + cap] = -1
    return out


def _digest(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()[:20]


def _taken_at(players: int) -> int:
    """Where a playout's carry (see ``run``) holds how many pieces the last move
    took (-1: no move made), before their codes: after the numbers of games by final
    status and the number stopped at the cap."""
    return 4 + len(_KINDS) * players + 1


def _taken_bits(taken: Sequence[frozenset[str]], players: int, pieces: Any) -> int:
    """The bits of TAKEN that a move taking ``pieces`` sets: for each Captured goal's
    kinds (``taken``) and each piece's owner."""
    return sum({1 << (j * players + piece.owner) for piece in pieces
                for j, kinds in enumerate(taken) if piece.kind in kinds})


def _signed(value: int) -> int:
    """A 64-bit unsigned number as the int64 with the same bits."""
    return value - (1 << 64) if value >= 1 << 63 else value


def _guarded(test: str, lines: list[str]) -> list[str]:
    """Generate's ``lines`` run only where ``test`` holds."""
    return [f"    if {test}:"] + ["    " + part for line in lines for part in line.split("\n")]


_NO_WEIGHTS = np.zeros(0, dtype=np.int64)
