"""Whole games of the move language compiled to one numba kernel over an array board.

The interpreter (:mod:`boardlab.core.interpret`) builds
:class:`~boardlab.core.move.Move` objects and reads a list of
:class:`~boardlab.core.move.Piece` objects: a ply of Breakthrough costs tens of
microseconds where OpenSpiel's C++ takes two. Here a whole game -- its templates, its
end conditions (:mod:`boardlab.core.goals`), make and unmake with an incremental Zobrist
key -- becomes the source of one Python module of numba functions over an ``int64``
array (the side to move, the ply, the key, the legal moves and the board, one small
integer per piece). The module is written to a cache folder named after the hash of its
source and compiled with ``cache=True``, so a game compiles once per machine, in a child
process (one serves kernel after kernel, and leaves once its memory passes a bound):
compiling takes memory numba never gives back (shogi's kernel 5.9 GB), and the process
that plays loads the machine code from the cache
(tic-tac-toe's: 120 MB at most, against 323 MB compiling it in-process, for the same CPU
time).

A move is a list of action words, one ``int64`` per action (a capture, a shift, a drop
or a change, with its cells and piece code), written in the interpreter's order; the
game's registry of moves interns each list with its template and player and numbers it,
and the Python side keeps one interned :class:`~boardlab.core.move.Move` per number, so
listing the legal moves of a position costs one kernel call and one array lookup a move,
and playing one costs one kernel call, which also finds the new position's result and
moves.

A random playout is one kernel call for the whole game (``run``, behind
:meth:`~boardlab.core.kernel.position.KernelPosition.rollout`,
:meth:`~boardlab.core.kernel.position.KernelPosition.playout` and
:meth:`~boardlab.core.kernel.position.KernelPosition.playouts`): it copies the
position's fields and board and plays on the copy, drawing among the legal moves with
SplitMix64 (:mod:`boardlab.core.rng`)
from a seed the caller gives, uniformly or by a policy's weights, until the game ends or
a ply cap, and counts the final statuses of a batch of games. It plays moves by their
words and registers none, so it never needs room from Python (the registry, the
position's moves and its history are not touched) and leaves the position as it was;
copying the board costs less than undoing the game. It returns to Python every 2**20
plies and is called again, so a game that never ends can be interrupted; a loop that
never ends, or too many moves, fails as a ply would.

Only games the kernel can play exactly get one
(:func:`~boardlab.core.kernel.plan.why_not` says why not). It runs templates of steps,
tests, ifs and loops; captures anywhere and any number of them;
``to``, ``from`` and ``cascade`` (a line of pieces moved); ``create``, changes of type
and owner (``flip``) and promotion; copying adds; ``mark``, ``back``, jumps to a cell
and ``go``; a run's flags and counters; templates that move any player's pieces
(shared); drops, from the reserve (pieces in hand, counted after the board) or an
unlimited supply; group templates (Taacoca's moves of up to three pieces at once); the
predicates the board and the run can answer (empty, friend, enemy, piece types, zones,
cells, a step away, marked, flags, counters); end conditions made of piece
configurations and counts; alternating turns or a turn order
(:attr:`~boardlab.core.ruleset.RuleSet.turn_order`), turns limited to a move type or
given another player's pieces (:class:`~boardlab.core.turn.TurnLimits`), a ply limit, a
pass (always or when forced); chains of partial moves (``add-partial``: the
interpreter's search of the positions a chain's steps reach, in the kernel, each chain
one move of composed actions whose words carry its steps for its notation), with
deferred captures (draughts' Turkish strike) and the majority rule
(:class:`~boardlab.core.turn.MaximalCaptures`); the last move, repetitions, captures
and protected pieces read by the goals and rules; ``attacked?`` and ``defended?`` in a
run (over the same attack tables as ``checkmated``), ``adjacent-to-enemy?``, pieces'
attributes (each set of attributes a piece code of its own) and cells' flags set in a
run; recycled captures and promotions (ZRF ``recycle captures``/``recycle promotions``:
pieces go to and come from the hand); the rules of whole moves the language declares
(see ``_Writer.whole_moves``): line templates, the test of the mover's group, the
invariants of the mover's group and of a mirror image (each move held to one made and
unmade on the array), the groups a capture cuts off (a choice noted in the move's words)
and turns of two plies (a field of the position); forks at every cell, counts of pieces
in a run, a follow-up move of the same player in its turn (its move type kept in the
position), a count of turns apart from plies and its limit, a player without a move
judged before the goals (nine men's morris). Not yet: invariants and move filters
written in Python (no ZRF file has them). The game's positions are then kernel positions
(:class:`~boardlab.core.kernel.position.KernelPosition` mixed into its position
class: :class:`~boardlab.core.kernel.position.KernelState` for a
:class:`~boardlab.core.position.PieceState`), in every respect positions of that class
(their ``cells`` are read from the array when asked), so everything that reads positions
works unchanged; a position the kernel cannot hold (a piece it does not know, a piece in
hand the game's start does not count) is a plain one. The interpreter stays the
reference: a game made with :attr:`~boardlab.core.engine.Engine.INTERPRETER` (or
``BOARDLAB_KERNELS=0``) has plain positions, and the tests compare both, move for move,
along random games.


The package follows the compiler's passes: :mod:`~boardlab.core.kernel.checks` (which
games get a kernel), :mod:`~boardlab.core.kernel.writer` (the kernel's source),
:mod:`~boardlab.core.kernel.compiler` (compiling it once per machine),
:mod:`~boardlab.core.kernel.plan` (a game's compiled kernel) and
:mod:`~boardlab.core.kernel.position` (the positions it plays), over the array layout of
:mod:`~boardlab.core.kernel.layout`.
"""

from __future__ import annotations

from boardlab.core.kernel.layout import (
    BOARD,
    MAX_MOVES,
    NMOVES,
    REGISTRY,
    TO_MOVE,
    Status,
    Unsupported,
    decode,
    decode_steps,
)
from boardlab.core.kernel.plan import Plan, plan_for, source, why_not
from boardlab.core.kernel.position import KernelPosition, KernelState, kernel_class

__all__ = ["BOARD", "MAX_MOVES", "NMOVES", "REGISTRY", "TO_MOVE", "KernelPosition",
           "KernelState", "Plan", "Status", "Unsupported", "decode", "decode_steps",
           "kernel_class", "plan_for", "source", "why_not"]
