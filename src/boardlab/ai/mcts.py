"""Monte Carlo tree search with the UCT selection rule and random playouts.

The algorithm of Kocsis and Szepesvári ("Bandit based Monte-Carlo planning",
2006) in its usual form (Browne et al., "A survey of Monte Carlo tree search
methods", 2012): select children by UCB1 until a node has an untried move,
expand one, finish the game with :meth:`State.rollout` (which games may replace
by a compiled fast path), and back the returns up the path. Each node keeps the
points its *mover* (the player who made the move leading to it) scored, so
returns that are points (1 win, 1/2 draw, 0 loss, or any fraction) and any number
of players need no special case. The move played is the most visited child.

Long games (Abalone, Epaminondas, GESS run for hundreds of plies) make full random
playouts slow and nearly meaningless, so a playout may stop after ``playout_depth``
plies and score the position with the game's heuristic: ``evaluate`` in [-1, 1] for
the first player becomes points ``(1 + v) / 2`` and ``(1 - v) / 2`` (the usual
"early playout termination" of MCTS, Browne et al. section 6.1). By default the bot
does so, at :data:`AUTO_PLAYOUT_DEPTH` plies, for two-player games longer than
:data:`LONG_GAME` plies that have a heuristic; shorter games play out to the end.

Everything random comes from one seeded generator, so the same seed and the same
iteration budget choose the same move.

>>> from boardlab import load
>>> MCTSBot(iterations=300, seed=1).choose(load("tic-tac-toe").parse_state("xx./oo./... x"))
Move('c3')
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from boardlab.ai.bots import BotError, check_positive, register_bot
from boardlab.core.game import Game, State
from boardlab.core.move import Move

#: Games whose ``max_length()`` exceeds this get capped playouts by default.
LONG_GAME = 100
#: The playout cap the bot picks for long games.
AUTO_PLAYOUT_DEPTH = 40


def auto_playout_depth(game: Game) -> int | None:
    """The playout cap for ``game`` when the user gives none (see the module doc)."""
    if game.num_players != 2 or game.max_length() <= LONG_GAME:
        return None
    if type(game).evaluate is Game.evaluate:
        return None
    return AUTO_PLAYOUT_DEPTH


class _Node:
    __slots__ = ("move", "parent", "mover", "children", "untried", "visits", "points")

    def __init__(self, move: Move | None, parent: _Node | None, mover: int):
        self.move = move
        self.parent = parent
        self.mover = mover
        self.children: list[_Node] = []
        self.untried: list[Move] | None = None
        self.visits = 0
        self.points = 0.0


@dataclass(frozen=True)
class MCTSResult:
    """What a search found: the move, its mean points for the mover, its visits,
    the iterations run and the time taken."""

    move: Move
    value: float
    visits: int
    iterations: int
    seconds: float


def search(state: State, rng: random.Random, iterations: int | None = None,
           seconds: float | None = None, exploration: float = math.sqrt(2),
           playout_depth: int | None = None) -> MCTSResult:
    """Run UCT from ``state`` (left unchanged) for ``iterations`` and/or ``seconds``;
    with ``playout_depth``, playouts stop after that many plies (module doc)."""
    if state.is_terminal():
        raise BotError("cannot search a finished game")
    if iterations is None and seconds is None:
        raise BotError("MCTS needs an iteration or a time budget")
    started = time.perf_counter()
    deadline = math.inf if seconds is None else started + seconds
    budget = math.inf if iterations is None else iterations
    work = state.clone()
    root = _Node(None, None, -1)
    log, sqrt = math.log, math.sqrt
    done = 0
    while done < budget and (done == 0 or time.perf_counter() < deadline):
        done += 1
        node = root
        depth = 0
        while True:
            if node.untried is None:
                # A copy: games may hand out their cached list, and expansion pops from it.
                node.untried = list(work.legal_moves())
            if node.untried:
                # Expansion: a random untried move, removed by swapping with the last.
                untried = node.untried
                i = rng.randrange(len(untried))
                untried[i], untried[-1] = untried[-1], untried[i]
                move = untried.pop()
                child = _Node(move, node, work.to_move)
                node.children.append(child)
                work.apply(move)
                depth += 1
                node = child
                break
            if not node.children:
                break
            scale = exploration * sqrt(log(node.visits))
            best, best_score = node.children[0], -math.inf
            for child in node.children:
                score = child.points / child.visits + scale / sqrt(child.visits)
                if score > best_score:
                    best, best_score = child, score
            node = best
            work.apply(node.move)  # type: ignore[arg-type]
            depth += 1
        outcome = work.outcome()
        if outcome is not None:
            points = [float(r) for r in outcome]
        elif playout_depth is None:
            points = [float(r) for r in work.rollout(rng)]
        else:
            points = _short_playout(work, rng, playout_depth)
        for _ in range(depth):
            work.undo()
        walk: _Node | None = node
        while walk is not None:
            walk.visits += 1
            if walk.mover >= 0:
                walk.points += points[walk.mover]
            walk = walk.parent
    best = max(root.children, key=lambda c: (c.visits, c.points / c.visits))
    assert best.move is not None
    return MCTSResult(best.move, best.points / best.visits, best.visits, done,
                      time.perf_counter() - started)


def _short_playout(state: State, rng: random.Random, plies: int) -> list[float]:
    """Points of a random playout cut after ``plies`` and scored by the heuristic."""
    played = 0
    outcome = state.outcome()
    while outcome is None and played < plies:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
        played += 1
        outcome = state.outcome()
    if outcome is not None:
        points = [float(r) for r in outcome]
    else:
        value = state.game.evaluate(state, 0) or 0.0
        value = max(-1.0, min(1.0, float(value)))
        points = [(1 + value) / 2, (1 - value) / 2]
    for _ in range(played):
        state.undo()
    return points


@register_bot("mcts", "Monte Carlo tree search (UCT) with random playouts")
class MCTSBot:
    """Plays the most visited move of a UCT search within an iteration and/or time
    budget (1000 iterations when neither is given)."""

    def __init__(self, *, iterations: int | None = None, time: float | None = None,
                 exploration: float | None = None, seed: int | None = None,
                 playout_depth: int | None = None):
        check_positive("iterations", iterations)
        check_positive("playout_depth", playout_depth)
        self.playout_depth = playout_depth
        check_positive("time", time)
        if exploration is not None and exploration < 0:
            raise BotError(f"bot option 'exploration' must be >= 0, got {exploration!r}")
        if iterations is None and time is None:
            iterations = 1000
        self.iterations = iterations
        self.time = time
        self.exploration = math.sqrt(2) if exploration is None else exploration
        self.seed = seed
        self.rng = random.Random(seed)
        self.last: MCTSResult | None = None
        budget = [f"iterations={iterations}" if iterations is not None else "",
                  f"time={time:g}s" if time is not None else ""]
        self.name = f"mcts({', '.join(b for b in budget if b)})"

    def choose(self, state: State) -> Move:
        """The most visited root move; ``last`` keeps the :class:`MCTSResult`."""
        depth = self.playout_depth
        if depth is None:
            depth = auto_playout_depth(state.game)
        self.last = search(state, self.rng, self.iterations, self.time, self.exploration,
                           depth)
        return self.last.move
