"""Monte Carlo tree search whole in a game's kernel: the tree a bot keeps, and the
calls of the kernel's ``uct`` that grow it (see :mod:`boardlab.core.kernel.writer.search`).

A node is a row of ``int64`` words (:data:`~boardlab.core.kernel.writer.search.COLUMNS`)
and the points its mover scored; children are linked from their parent (first child,
next sibling) and name their move by its index among the parent's moves, which the
kernel finds again at every pass in the order the position's legal moves have. A
child is always made after its parent, so its row comes later: keeping the subtree of
the position a game reached (the tree reused from one move to the next) is one pass over
the rows in order.
"""

from __future__ import annotations

import copy
import math
import time
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from boardlab.core.game import PlayoutPolicy
from boardlab.core.kernel.layout import _ERRORS, _MASK64, _ROOM, MAX_MOVES, Status, _signed
from boardlab.core.kernel.writer.search import (
    COLUMNS,
    FIRST,
    MOVE,
    MOVER,
    MOVES,
    NEXT,
    NODE_KEY,
    PARENT,
    PROVEN,
    VISITS,
)
from boardlab.errors import BoardError, RulesError

if TYPE_CHECKING:
    from boardlab.core.kernel.plan import Plan
    from boardlab.core.kernel.position import KernelPosition
    from boardlab.core.move import Move

#: Rows a new tree starts with (doubled as it fills).
_ROWS = 1 << 12
#: The most nodes a tree holds (88 bytes each: 185 MB): a search that fills it goes on
#: with playouts from the nodes it reaches, adding none, so a long search of a fast
#: game (Connect Four: 300,000 iterations a second, a node each) stays in bounds (the
#: web's bots run under a cap on their memory).
MAX_NODES = 1 << 21
#: Plies a call of ``uct`` may play before it returns (an iteration whose playout is
#: longer than this ends the search with an error: the game does not end).
_BUDGET = 1 << 20
#: The time one call of ``uct`` aims at when the search has a deadline (it checks the
#: clock between calls).
_SLICE = 0.005


@dataclass(frozen=True)
class Child:
    """What the search found of one of the root's moves: the move, its mover, visits,
    the points its mover scored, and the points of every player once proved (MCTS-Solver;
    None until then)."""

    move: Move
    mover: int
    visits: int
    points: float
    proven: tuple[float, ...] | None


class Tree:
    """The tree of a UCT search run by the kernel of ``position``'s game, rooted at
    ``position``. :meth:`search` grows it; :meth:`keep` and :meth:`reused` carry it from
    one move of a game to the next."""

    def __init__(self, position: KernelPosition):
        self.plan: Plan = position._plan
        self.q = np.empty((_ROWS, COLUMNS), dtype=np.int64)
        self.v = np.zeros(_ROWS, dtype=np.float64)
        self.used = 1
        self.root = 0
        self.q[0] = (-1, -1, -1, 0, -1, 0, -1, -1, _signed(position.key()), -1)
        #: The root's legal moves, in the kernel's order (a child's move is an index).
        self.moves: list[Move] = list(position.legal_moves())

    # --- searching -----------------------------------------------------------------------
    @property
    def visits(self) -> int:
        """The root's visits (from this search and those kept)."""
        return int(self.q[self.root, VISITS])

    @property
    def proven(self) -> tuple[float, ...] | None:
        """The points every player scores from the root with best play, once proved."""
        status = int(self.q[self.root, PROVEN])
        return None if status < 0 else tuple(self.plan_points[status].tolist())

    @cached_property
    def plan_points(self) -> np.ndarray:
        """The points of each player by final status (what ``uct`` backs up)."""
        return points(self.plan)

    def search(self, position: KernelPosition, seed: int, iterations: float = math.inf,
               deadline: float = math.inf, exploration: float = math.sqrt(2),
               policy: PlayoutPolicy | None = None, cap: int | None = None) -> int:
        """Run iterations of UCT from ``position`` (the root's) until ``iterations``,
        the ``deadline`` (``time.perf_counter``) or a proved root; at least one when the
        root is open. Playouts stop after ``cap`` plies, scored by the game's heuristic
        (where the kernel has it: :meth:`KernelPosition.search_tree`). The iterations
        run."""
        plan = self.plan
        entry = plan.uct
        s = np.empty(plan.moves_at + _ROOM, dtype=np.int64)
        rows = position._h.copy() if plan.repeats else plan.row
        carry = np.array([_signed(seed & _MASK64), self.used, self.root, 0], dtype=np.int64)
        weights = plan.weights(policy)
        seen = np.empty(MAX_MOVES, dtype=np.int64)
        scratch = np.empty_like(s)
        scores = np.zeros(plan.players, dtype=np.float64)
        chunk = 16
        while carry[3] < iterations and self.q[self.root, PROVEN] < 0:
            if carry[3] and time.perf_counter() >= deadline:
                break
            n = int(min(chunk, iterations - carry[3]))
            self._room(n)
            before = int(carry[3])
            started = time.perf_counter()
            code = entry(position._s, s, rows, plan.table, self.q, self.v, self.plan_points,
                         carry, n, _BUDGET, float(exploration), weights, seen,
                         -1 if cap is None else cap, scratch, scores,
                         min(len(self.q), MAX_NODES))
            self.used = int(carry[1])
            if code == Status.HISTORY:
                rows = np.concatenate([rows, np.empty_like(rows)])
                continue
            if code == Status.BUDGET and carry[3] == before:
                raise RulesError(f"{plan.game.name}: a random playout went on for "
                                 f"{_BUDGET:,} plies without an end (in a search from "
                                 f"{position})")
            if code == Status.LOOPS:
                raise BoardError("move template loops forever (While never ends)")
            if code < 0 and code != Status.BUDGET:
                raise RulesError(f"{plan.game.name}: {_ERRORS.get(code, code)} (in a "
                                 f"search from {position})")
            if deadline < math.inf:
                # Calls of about _SLICE seconds: the clock is read between them.
                spent = time.perf_counter() - started
                if spent < _SLICE / 2:
                    chunk *= 2
                elif spent > 2 * _SLICE and chunk > 1:
                    chunk //= 2
            else:
                chunk = min(chunk * 2, 1 << 16)
        return int(carry[3])

    def _room(self, n: int) -> None:
        """Rows for ``n`` more nodes (an iteration makes one at most), up to
        :data:`MAX_NODES`."""
        need = min(self.used + n + 1, MAX_NODES)
        if need <= len(self.q):
            return
        size = len(self.q)
        while size < need:
            size = min(2 * size, MAX_NODES)
        q = np.empty((size, COLUMNS), dtype=np.int64)
        q[:self.used] = self.q[:self.used]
        v = np.zeros(size, dtype=np.float64)
        v[:self.used] = self.v[:self.used]
        self.q, self.v = q, v

    def children(self) -> list[Child]:
        """The root's children, in the order they were made."""
        q, out = self.q, []
        child = int(q[self.root, FIRST])
        table = self.plan_points
        while child >= 0:
            status = int(q[child, PROVEN])
            out.append(Child(self.moves[int(q[child, MOVE])], int(q[child, MOVER]),
                             int(q[child, VISITS]), float(self.v[child]),
                             None if status < 0 else tuple(table[status].tolist())))
            child = int(q[child, NEXT])
        out.reverse()
        return out

    # --- from one move to the next -------------------------------------------------------
    def keep(self, move: Move) -> Tree | None:
        """The tree rooted at the root's child of ``move`` (the position the bot moved
        to; it shares this tree's rows until :meth:`reused` copies its own), or None
        when the search never tried it."""
        q = self.q
        child = int(q[self.root, FIRST])
        while child >= 0:
            if self.moves[int(q[child, MOVE])] == move:
                kept = copy.copy(self)
                kept.root, kept.moves = child, []
                return kept
            child = int(q[child, NEXT])
        return None

    def reused(self, position: KernelPosition) -> Tree | None:
        """The subtree of ``position`` (the root, or a node up to two plies below it),
        alone in a tree of its own; None when the tree does not hold it or its moves no
        longer fit (keys could collide)."""
        if position._plan is not self.plan:
            return None
        key = _signed(position.key())
        legal = list(position.legal_moves())
        q = self.q
        level = [self.root]
        for depth in range(3):
            if depth:
                level = [c for node in level for c in self._kids(node)]
            for node in level:
                if q[node, NODE_KEY] == key and q[node, MOVES] in (-1, len(legal)) \
                        and self._fits(node, len(legal)):
                    self._compact(node)
                    self.moves = legal
                    return self
        return None

    def _kids(self, node: int) -> list[int]:
        out, child = [], int(self.q[node, FIRST])
        while child >= 0:
            out.append(child)
            child = int(self.q[child, NEXT])
        return out

    def _fits(self, node: int, moves: int) -> bool:
        # Every child's move an index among the position's moves.
        return all(0 <= self.q[c, MOVE] < moves for c in self._kids(node))

    def _compact(self, node: int) -> None:
        """Keep only the subtree of ``node``, as the root, in rows 0 on."""
        q = np.empty((max(_ROWS, len(self.q)), COLUMNS), dtype=np.int64)
        v = np.zeros(len(q), dtype=np.float64)
        self.used = int(_subtree(self.q, self.v, node, self.used, q, v))
        self.q, self.v, self.root = q, v, 0


@njit(cache=True)
def _subtree(Q: Any, V: Any, root: int, used: int, out: Any, values: Any) -> int:
    # The rows of the subtree of root copied in order to out (root first, its parent and
    # next sibling none), links renumbered; how many.
    new = np.full(used, -1, dtype=np.int64)
    new[root] = 0
    count = 1
    for i in range(root + 1, used):
        parent = Q[i, PARENT]
        if parent >= 0 and new[parent] >= 0:
            new[i] = count
            count += 1
    for i in range(root, used):
        j = new[i]
        if j < 0:
            continue
        for column in range(Q.shape[1]):
            out[j, column] = Q[i, column]
        for column in (FIRST, NEXT, PARENT):
            link = Q[i, column]
            out[j, column] = -1 if link < 0 else new[link]
        values[j] = V[i]
    out[0, NEXT] = -1
    out[0, PARENT] = -1
    return count


def points(plan: Plan) -> np.ndarray:
    """Each player's points by final kernel status (win, loss and draw of each player;
    ``final`` turns an ending by count into one of them), as ``uct`` backs them up."""
    n = plan.players
    kinds = ("win", "loss", "draw")
    out = np.zeros((len(kinds) * n, n), dtype=np.float64)
    for index, kind in enumerate(kinds):
        for player in range(n):
            returns = plan.goals.ending(kind, player, None)  # type: ignore[arg-type]
            out[index * n + player] = [float(r) for r in returns]
    return out
