"""The move language: Zillions-of-Games-style move templates, in Python.

A *template* is a list of instructions run from each of the mover's pieces (or,
for drops, from each cell with a piece in hand). The run walks the board with a
cursor and emits moves with :class:`Add`. The instructions mirror ZRF's
primitives (:doc:`/move-language` tells the story with worked examples):

=======================  ==============================================================
ZRF                      here
=======================  ==============================================================
``n``, ``$1``            :class:`Step` (``Step("n")``; off the board the run fails,
                         unless ``Step(d, may_leave=True)``: then the cursor is off)
``(verify p)``           :class:`Verify`
``(if p ...)``           :class:`If` (with ``else_``)
``(while p ...)``        :class:`While`
``add``                  :class:`Add`; an ``add`` that is not last emits a move and
                         the run goes on (a fork)
``capture``              :class:`CaptureHere`
``cascade``              :class:`Cascade`: put the piece in hand down here and pick up
                         the piece standing here; repeated, it moves a line of pieces
``to`` / ``from``        :class:`To` puts the piece in hand down *now*; :class:`From`
                         picks up the piece under the cursor (after navigating)
``mark`` / ``back``      :class:`Mark`, :class:`Back`
``set-flag``/``flag?``   :class:`SetFlag`, :func:`flag`; counters: :class:`SetVar`,
                         :class:`Inc`, :func:`var`
``create``               :class:`Create`; ``change-type``/``change-owner``:
                         :class:`ChangeType`, :class:`ChangeOwner`
drops                    :class:`Drop` templates over every cell, piece from reserve
move priorities          ``priority`` of a template: only the highest priority class
                         with a legal move is legal
invariants               :attr:`Rules.invariants`: a generated move that breaks one
                         (checked on the position after it) is removed; declared ones
                         (:class:`StaysConnected`, :class:`NotMirrored`) play on a
                         game's kernel too
(Dagaz's JavaScript)     :class:`Line` templates (lines of pieces moved together), the
                         test :class:`Connected` (the mover's pieces one group), what a
                         capture cuts off (:class:`KeepLargestGroup`), a second move
                         in one turn (:class:`FollowUp`)
(GESS)                   :class:`Footprint` templates (patterns of pieces round a
                         centre moved as one)
=======================  ==============================================================

Predicates (``EMPTY``, ``FRIEND``, ``ENEMY``, ``ON_BOARD``, :func:`piece_is`,
:func:`~boardlab.core.ir.in_zone`, :func:`flag`, combinators :func:`not_`, :func:`all_of`,
:func:`any_of`) read the board *as it was when the move started*, as in ZRF. They and
the instructions are the nodes of :mod:`boardlab.core.ir`, re-exported here; a test
written in Python is an explicit :class:`~boardlab.core.ir.Native` with its reason.

**Group moves** (:class:`Group`) are products: first every single-piece step of the
mover in each direction, then every combination of steps of distinct pieces in the
same direction, dropping those that bump into an own piece that does not leave in
the same group move (a piece may enter a cell vacated by the group).

Directions are player-relative through the board's symmetry, so ``Step("n")`` is
"forward" for both sides of a board with a 180-degree symmetry.

This module is the language's one face: it hands on the names of the modules that make
it, each with one job -- the nodes (:mod:`boardlab.core.ir`), their reference meaning
(:mod:`boardlab.core.interpret`), the templates and the declared rules of whole moves
(:mod:`boardlab.core.templates`), a turn's legal moves (:mod:`boardlab.core.turn`) and
what a program can reach without running (:mod:`boardlab.core.analysis`).
"""


from __future__ import annotations

# One face for the language's modules: a game builds its rules from here.
from boardlab.core.analysis import *  # noqa: F403
from boardlab.core.interpret import *  # noqa: F403
from boardlab.core.ir import *  # noqa: F403
from boardlab.core.templates import *  # noqa: F403
from boardlab.core.turn import *  # noqa: F403
