"""The source of a game's kernel module: its writer (``_Writer``) visits the game's
templates, predicates and goals and writes, for each, the numba functions that play
it, then the functions every kernel shares (make and undo, the registry, perft, random
playouts).

The writer is one class, ``_Writer``, made of
one mixin per part of the kernel it writes, as a compiler's code generator is split by
job: :mod:`~boardlab.core.kernel.writer.predicates` (tests),
:mod:`~boardlab.core.kernel.writer.instructions` (the instructions of templates),
:mod:`~boardlab.core.kernel.writer.templates` (groups, lines, footprints),
:mod:`~boardlab.core.kernel.writer.generate` (``generate``: the templates' runs by
priority), :mod:`~boardlab.core.kernel.writer.bits` (the board-wide filters of the
templates' starts), :mod:`~boardlab.core.kernel.writer.chains` (chains of partial moves and move
filters), :mod:`~boardlab.core.kernel.writer.whole_moves` (the rules of whole moves),
:mod:`~boardlab.core.kernel.writer.attacks` (attacks, for ``checkmated``),
:mod:`~boardlab.core.kernel.writer.goals` (end conditions); what it learns of the game
first is in :mod:`~boardlab.core.kernel.writer.facts`, and the passes over the written
text in :mod:`~boardlab.core.kernel.writer.source`.
"""

from __future__ import annotations

from boardlab.core.kernel.writer.facts import _acyclic, _back_at_start
from boardlab.core.kernel.writer.module import _Writer

__all__ = ["_Writer", "_acyclic", "_back_at_start"]
