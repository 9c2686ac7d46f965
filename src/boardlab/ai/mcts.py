"""Monte Carlo tree search with the UCT selection rule and random playouts.

The algorithm of Kocsis and Szepesvári ("Bandit based Monte-Carlo planning",
2006) in its usual form (Browne et al., "A survey of Monte Carlo tree search
methods", 2012): select children by UCB1 until a node has an untried move,
expand one, finish the game with :meth:`State.rollout` or, capped,
:meth:`State.playout` (which games may replace by a compiled fast path: every game
with a kernel plays them whole in it, :mod:`boardlab.core.kernel`), and back the
returns up the path. Each node keeps the points its *mover* (the player who made the
move leading to it) scored, so returns that are points (1 win, 1/2 draw, 0 loss, or
any fraction) and any number of players need no special case. The move played is the
most visited child.

Long games (Abalone, Epaminondas, GESS run for hundreds of plies) make full random
playouts slow and nearly meaningless, so a playout may stop after ``playout_depth``
plies and score the position with the game's heuristic: ``evaluate`` in [-1, 1] for
the first player becomes points ``(1 + v) / 2`` and ``(1 - v) / 2`` (the usual
"early playout termination" of MCTS, Browne et al. section 6.1). By default the bot
does so, at :data:`AUTO_PLAYOUT_DEPTH` plies, for two-player games longer than
:data:`LONG_GAME` plies that have a heuristic; shorter games play out to the end.

Beyond plain UCT, as the strongest general game players do (Ludii's and CadiaPlayer's
agents):

* **MAST playouts** (:class:`Mast`): playouts prefer the moves whose average result,
  learnt from every simulation so far, is best, with a share of random moves; used by
  default unless the game plays random games in compiled code (a game kernel, or a
  hand-written fast path);
* **MCTS-Solver**: positions the search reaches the end of are proved won, lost or
  drawn, proofs are backed up, a proved loss is never played while a move remains, and
  a proved root ends the search;
* **tree reuse**: the bot keeps the subtree of the position it moves to (and MAST's
  table) and searches on from it after the reply;
* **root parallelism**: with ``workers`` > 1, independent searches in worker processes
  add their root statistics to the bot's own.

Where the position can grow the tree in compiled code (:meth:`State.search_tree
<boardlab.core.game.State.search_tree>`: every game with a kernel) and the search needs
no Python on the way (no MAST, no chance player, and no heuristic at a playout cap but
one the kernel computes: a rule file's), the whole search -- selection, expansion,
playout, backup, the solver and the tree kept for the next move -- runs in the kernel
(:mod:`boardlab.core.kernel.search`), the same algorithm on arrays: 1.6 to 4.3 times
the iterations a CPU-second of OpenSpiel's C++ ``MCTSBot`` (``benchmarks/mcts.py``).
The root's children come back as :class:`Node` objects, so what reads a result reads
both alike.

In games with chance players (a die: :attr:`Game.chance_players
<boardlab.core.game.Game.chance_players>`) a chance node is no bandit: its children are
all made on its first visit and one is drawn uniformly at every pass, in the tree as in
the playouts (MAST never picks a chance move), so its mean estimates the expectation. A
chance node is never proved (a mean of proved children is no win for anyone); its
children may be. Asked to move for a chance player, the bot draws the move uniformly.

Everything random comes from one seeded generator, so the same seed and the same
iteration budget choose the same move (on one core).

>>> from boardlab import load
>>> MCTSBot(iterations=300, seed=1).choose(load("tic-tac-toe").parse_state("xx./oo./... x"))
Move('c3')
"""

from __future__ import annotations

import math
import multiprocessing
import random
import time
import weakref
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from boardlab.ai.bots import BotError, chance_turn, check_positive, draw_move, register_bot
from boardlab.core.game import Game, PlayoutPolicy, State
from boardlab.core.move import Move

#: Games whose ``max_length()`` exceeds this get capped playouts by default.
LONG_GAME = 100
#: The playout cap the bot picks for long games.
AUTO_PLAYOUT_DEPTH = 40


def auto_playout_depth(game: Game) -> int | None:
    """The playout cap for ``game`` when the user gives none (see the module doc)."""
    if game.num_players - len(game.chance_players) != 2 or game.max_length() <= LONG_GAME:
        return None
    if type(game).evaluate is Game.evaluate:
        return None
    return AUTO_PLAYOUT_DEPTH


#: The playout policies: uniformly random moves, or MAST (below).
PLAYOUTS = ("auto", "random", "mast")
#: MAST's exploration: the share of playout moves chosen uniformly at random.
MAST_EPSILON = 0.1
#: The value MAST gives a move it has not seen yet (points are in [0, 1]).
MAST_UNKNOWN = 1.0
#: The most moves MAST compares for one playout move (drawn at random beyond).
MAST_CANDIDATES = 16


class Node:
    """A node of the search tree: the move that led to it, its mover, its children and
    untried moves, visits, the mover's points, the position's key and, once proved,
    the points every player scores from it with best play."""

    __slots__ = ("move", "parent", "mover", "children", "untried", "visits", "points",
                 "key", "proven")

    def __init__(self, move: Move | None, parent: Node | None, mover: int,
                 key: int | None = None):
        self.move = move
        self.parent = parent
        self.mover = mover
        self.children: list[Node] = []
        self.untried: list[Move] | None = None
        self.visits = 0
        self.points = 0.0
        #: The position's key (to find the node again when the tree is reused).
        self.key = key
        #: The points every player scores from here with best play, once the search
        #: has proved them (MCTS-Solver); None until then.
        self.proven: list[float] | None = None


@dataclass(frozen=True)
class MCTSResult:
    """What a search found: the move, its mean points for the mover, its visits,
    the iterations run and the time taken (``reused``: visits the root already had
    from an earlier search)."""

    move: Move
    value: float
    visits: int
    iterations: int
    seconds: float
    reused: int = 0
    root: Node | None = field(default=None, repr=False, compare=False)
    #: The tree the kernel searched (:meth:`State.search_tree
    #: <boardlab.core.game.State.search_tree>`), kept for the next move; None when the
    #: search ran in Python.
    tree: Any = field(default=None, repr=False, compare=False)


class Mast:
    """The Move-Average Sampling Technique (Finnsson and Björnsson, "Simulation-based
    approach to general game playing", 2008), ε-greedy as Tak, Winands and Björnsson
    found best ("N-grams and the last-good-reply policy applied in general game
    playing", 2012): every move of every simulation, in the tree and in the playout,
    adds the points its mover scored to the move's average (a move is its actions,
    whatever the position); a playout then plays the move of best average, or with
    probability ``epsilon`` a uniformly random one. The table lives as long as the bot,
    so what one search learns helps the next."""

    def __init__(self, epsilon: float = MAST_EPSILON):
        self.epsilon = epsilon
        self.table: dict[tuple[int, tuple], list[float]] = {}

    def choose(self, moves: list[Move], mover: int, rng: random.Random) -> Move:
        """A playout move among ``moves`` for ``mover``: of :data:`MAST_CANDIDATES`
        moves drawn at random when there are more (reading every move's average of a
        game with hundreds of moves a ply would cost more playouts than it gains)."""
        if rng.random() < self.epsilon:
            return moves[rng.randrange(len(moves))]
        if len(moves) > MAST_CANDIDATES:
            moves = rng.sample(moves, MAST_CANDIDATES)
        table = self.table
        best: list[Move] = []
        best_value = -1.0
        for move in moves:
            entry = table.get((mover, move[1]))
            value = MAST_UNKNOWN if entry is None else entry[0] / entry[1]
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]

    def update(self, played: list[tuple[int, tuple]], points: list[float]) -> None:
        """Add each (mover, actions) played in a simulation its mover's points."""
        table = self.table
        for key in played:
            entry = table.get(key)
            if entry is None:
                table[key] = [points[key[0]], 1.0]
            else:
                entry[0] += points[key[0]]
                entry[1] += 1.0


def search(state: State, rng: random.Random, iterations: int | None = None,
           seconds: float | None = None, exploration: float = math.sqrt(2),
           playout_depth: int | None = None, mast: Mast | None = None,
           root: Any = None, policy: PlayoutPolicy | None = None) -> MCTSResult:
    """Run UCT from ``state`` (left unchanged) for ``iterations`` and/or ``seconds``;
    with ``playout_depth``, playouts stop after that many plies (module doc); with
    ``mast``, playouts follow and feed its table instead of being uniformly random,
    and with ``policy`` they draw by its weights (:meth:`State.playout`).
    ``root``: the node of ``state`` kept from an earlier search (see
    :func:`reusable`), or the tree a kernel searched (:attr:`MCTSResult.tree`),
    searched on rather than from scratch.

    Where the game's position can grow the tree in compiled code
    (:meth:`State.search_tree`: every game with a kernel) and the search needs no Python
    on the way (no MAST, no chance player, and no heuristic at a playout cap but one the
    kernel computes: a rule file's), the kernel runs the same algorithm whole
    (:mod:`boardlab.core.kernel.search`)."""
    if state.is_terminal():
        raise BotError("cannot search a finished game")
    if iterations is None and seconds is None:
        raise BotError("MCTS needs an iteration or a time budget")
    started = time.perf_counter()
    if mast is None and not state.game.chance_players and not isinstance(root, Node):
        tree = state.search_tree(root, playout_depth)
        if tree is not None:
            return _search_tree(tree, state, rng, iterations, seconds, exploration, policy,
                                playout_depth, started)
    if not isinstance(root, Node):
        root = None
    deadline = math.inf if seconds is None else started + seconds
    budget = math.inf if iterations is None else iterations
    work = state.clone()
    if root is None:
        root = Node(None, None, -1, work.key())
    reused = root.visits
    chance = state.game.chance_players
    log, sqrt = math.log, math.sqrt
    done = 0
    played: list[tuple[int, tuple]] = []
    while done < budget and (done == 0 or time.perf_counter() < deadline):
        if root.proven is not None and done:
            break  # solved: more iterations cannot change the answer
        done += 1
        node = root
        depth = 0
        played.clear()
        while True:
            if node.proven is not None and node is not root:
                break  # a solved subtree scores its proven points
            if node.untried is None:
                if chance and work.to_move in chance:
                    _expand_chance(node, work)
                else:
                    # A copy: games may hand out their cached list, and expansion pops
                    # from it.
                    node.untried = list(work.legal_moves())
            if node.untried:
                # Expansion: a random untried move, removed by swapping with the last.
                untried = node.untried
                i = rng.randrange(len(untried))
                untried[i], untried[-1] = untried[-1], untried[i]
                move = untried.pop()
                mover = work.to_move
                work.apply(move)
                child = Node(move, node, mover, work.key())
                node.children.append(child)
                played.append((mover, move[1]))
                depth += 1
                node = child
                break
            if not node.children:
                break
            if chance and node.children[0].mover in chance:
                # The dice are drawn, not chosen: each move as likely, whatever it scored.
                node = node.children[rng.randrange(len(node.children))]
                work.apply(node.move)  # type: ignore[arg-type]
                depth += 1
                if node.visits == 0:
                    break  # a new node: played out from here
                continue
            scale = exploration * sqrt(log(node.visits))
            best, best_score = node.children[0], -math.inf
            for child in node.children:
                proven = child.proven
                if proven is not None:
                    if _wins(proven, child.mover):
                        best = child
                        break
                    if _loses(proven, child.mover):
                        continue  # never chosen while another move is open
                score = child.points / child.visits + scale / sqrt(child.visits)
                if score > best_score:
                    best, best_score = child, score
            node = best
            played.append((node.mover, node.move[1]))  # type: ignore[index]
            work.apply(node.move)  # type: ignore[arg-type]
            depth += 1
        outcome = None if node.proven is not None else work.outcome()
        if node.proven is not None:
            points = node.proven
        elif outcome is not None:
            points = node.proven = [float(r) for r in outcome]
        elif mast is not None:
            points = _playout(work, rng, playout_depth, mast, played)
        elif playout_depth is None and policy is None:
            points = [float(r) for r in work.rollout(rng)]
        else:
            points = _playout(work, rng, playout_depth, policy=policy)
        if mast is not None:
            mast.update(played, points)
        for _ in range(depth):
            work.undo()
        walk: Node | None = node
        while walk is not None:
            walk.visits += 1
            if walk.mover >= 0:
                walk.points += points[walk.mover]
            walk = walk.parent
        if node.proven is not None:
            up = node.parent
            while up is not None and up.proven is None and _prove(up, chance):
                up = up.parent
    best, value = _chosen(root)
    return MCTSResult(best.move, value, best.visits, done,  # type: ignore[arg-type]
                      time.perf_counter() - started, reused, root)


def _search_tree(tree: Any, state: State, rng: random.Random, iterations: int | None,
                 seconds: float | None, exploration: float, policy: PlayoutPolicy | None,
                 playout_depth: int | None, started: float) -> MCTSResult:
    """:func:`search` run by the kernel on ``tree``; the root's children as nodes."""
    reused = tree.visits
    done = tree.search(state, rng.getrandbits(63),
                       math.inf if iterations is None else iterations,
                       math.inf if seconds is None else started + seconds, exploration,
                       policy, playout_depth)
    root = Node(None, None, -1, state.key())
    root.visits = tree.visits
    proven = tree.proven
    root.proven = None if proven is None else list(proven)
    tried = set()
    for child in tree.children():
        tried.add(child.move)
        if child.visits == 0:
            continue  # made by an iteration the kernel dropped: not searched
        node = Node(child.move, root, child.mover)
        node.visits, node.points = child.visits, child.points
        node.proven = None if child.proven is None else list(child.proven)
        root.children.append(node)
    root.untried = [m for m in state.legal_moves() if m not in tried]
    best, value = _chosen(root)
    return MCTSResult(best.move, value, best.visits, done,  # type: ignore[arg-type]
                      time.perf_counter() - started, reused, root, tree)


# --- MCTS-Solver (Winands, Björnsson and Saito, "Monte-Carlo tree search solver", 2008),
# for any number of players, each maximising their own points: a move to a position
# proved a win for its mover proves its parent; a parent whose moves are all proved is
# worth the best of them for the player choosing.
def _wins(points: list[float], player: int) -> bool:
    mine = points[player]
    return all(mine > p for i, p in enumerate(points) if i != player)


def _loses(points: list[float], player: int) -> bool:
    mine = points[player]
    return any(mine < p for i, p in enumerate(points) if i != player)


def _expand_chance(node: Node, state: State) -> None:
    """Give the chance node of ``state`` all its children at once (one per legal move, in
    order), so that a pass draws among them uniformly."""
    mover = state.to_move
    for move in state.legal_moves():
        state.apply(move)
        node.children.append(Node(move, node, mover, state.key()))
        state.undo()
    node.untried = []


def _prove(node: Node, chance: frozenset[int] = frozenset()) -> bool:
    """Prove ``node`` from its children if they allow it (see above); a chance node
    never."""
    children = node.children
    if not children:
        return False
    chooser = children[0].mover
    if chooser in chance:
        return False
    for child in children:
        if child.proven is not None and _wins(child.proven, chooser):
            node.proven = child.proven
            return True
    if node.untried or any(child.proven is None for child in children):
        return False
    node.proven = max((child.proven for child in children),  # type: ignore[misc]
                      key=lambda points: points[chooser])
    return True


def _chosen(root: Node) -> tuple[Node, float]:
    """The move to play (:func:`_final`) and its value for its mover."""
    best = _final(root)
    assert best.move is not None
    return best, best.points / best.visits if best.proven is None else best.proven[best.mover]


def _final(root: Node) -> Node:
    """The move to play: a proved win, else the most visited move not proved lost
    (a proved loss only when every move is one)."""
    for child in root.children:
        if child.proven is not None and _wins(child.proven, child.mover):
            return child
    open_ = [c for c in root.children
             if c.proven is None or not _loses(c.proven, c.mover)] or root.children
    return max(open_, key=lambda c: (c.visits, c.points / c.visits))


# --- root parallelism ----------------------------------------------------------------------
#: Games built in a worker process, by recipe (a worker serves many searches).
_WORKER_GAMES: dict[str, Game] = {}


def _worker_search(recipe: tuple, text: str, seed: int, iterations: int | None,
                   seconds: float | None, exploration: float, playout_depth: int | None,
                   epsilon: float | None, policy: PlayoutPolicy | None = None
                   ) -> tuple[list[tuple[tuple, float, float]], int]:
    """One independent search in a worker process: the root's moves (as actions) with
    their visits and points, and the iterations run."""
    key = repr(recipe)
    game = _WORKER_GAMES.get(key)
    if game is None:
        build, args, kwargs = recipe
        game = _WORKER_GAMES[key] = build(*args, **kwargs)
    state = game.parse_state(text)
    mast = None if epsilon is None else Mast(epsilon)
    result = search(state, random.Random(seed), iterations, seconds, exploration,
                    playout_depth, mast, policy=policy)
    assert result.root is not None
    return ([(c.move[1], float(c.visits), c.points)  # type: ignore[index]
             for c in result.root.children], result.iterations)


def _merged(local: MCTSResult, others: list[tuple[list[tuple[tuple, float, float]], int]],
            started: float) -> MCTSResult:
    """Root parallelism (Chaslot, Winands and van den Herik, "Parallel Monte-Carlo tree
    search", 2008): the searches' root statistics added up by move, the most visited
    move played."""
    assert local.root is not None
    by_actions = {c.move[1]: [c, float(c.visits), c.points]  # type: ignore[index]
                  for c in local.root.children}
    iterations = local.iterations
    for children, done in others:
        iterations += done
        for actions, visits, points in children:
            entry = by_actions.get(actions)
            if entry is not None:  # a move the local search never tried is left out
                entry[1] += visits
                entry[2] += points
    node, visits, points = max(by_actions.values(), key=lambda e: (e[1], e[2] / e[1]))
    return MCTSResult(node.move, points / visits, int(visits), iterations,
                      time.perf_counter() - started, local.reused, local.root, local.tree)


def reusable(previous: Node | None, state: State) -> Node | None:
    """The node of ``state`` in a tree kept from an earlier search (its root, the
    position after the bot's move, or up to two plies below it), detached as a new
    root; None when the tree does not hold it or no longer fits the position's moves."""
    if previous is None:
        return None
    key = state.key()
    frontier = [previous]
    for level in range(3):
        if level:
            frontier = [c for n in frontier for c in n.children]
        for node in frontier:
            if node.key == key and _fits(node, state):
                node.parent = None
                node.move = None
                return node
    return None


def _fits(node: Node, state: State) -> bool:
    # Keys could collide, and a game's moves may depend on more than its key: the kept
    # moves must all be legal here.
    legal = set(state.legal_moves())
    return all(c.move in legal for c in node.children) and \
        all(m in legal for m in node.untried or ())


def _playout(state: State, rng: random.Random, plies: int | None,
             mast: Mast | None = None, played: list[tuple[int, tuple]] | None = None,
             policy: PlayoutPolicy | None = None) -> list[float]:
    """Points of a playout, random (uniformly, or by ``policy``'s weights) or with
    ``mast`` MAST's (appending the (mover, actions) it plays to ``played``), cut after
    ``plies`` when given and then scored by the heuristic. A random one is
    :meth:`State.playout`, which games with a kernel play whole in compiled code."""
    if mast is None:
        end = state.playout(rng, plies, policy)
        return _heuristic_points(end) if isinstance(end, State) else [float(r) for r in end]
    done = 0
    outcome = state.outcome()
    chance = state.game.chance_players
    while outcome is None and (plies is None or done < plies):
        moves = state.legal_moves()
        if chance and state.to_move in chance:
            move = moves[rng.randrange(len(moves))]
        else:
            mover = state.to_move
            move = mast.choose(moves, mover, rng)
            played.append((mover, move[1]))  # type: ignore[union-attr]
        state.apply(move)
        done += 1
        outcome = state.outcome()
    points = _heuristic_points(state) if outcome is None else [float(r) for r in outcome]
    for _ in range(done):
        state.undo()
    return points


def _heuristic_points(state: State) -> list[float]:
    """The heuristic of the first real player (not a chance player) as points: its
    share, and the rest for the others (a chance player scores 0)."""
    game = state.game
    chance = game.chance_players
    real = [p for p in range(game.num_players) if p not in chance]
    value = game.evaluate(state, real[0]) or 0.0
    value = max(-1.0, min(1.0, float(value)))
    points = [0.0] * game.num_players
    for p in real:
        points[p] = (1 - value) / 2
    points[real[0]] = (1 + value) / 2
    return points


@register_bot("mcts", "Monte Carlo tree search (UCT); MAST playouts that learn during "
                     "the search, the tree kept from move to move")
class MCTSBot:
    """Plays the most visited move of a UCT search within an iteration and/or time
    budget (1000 iterations when neither is given).

    ``playout``: ``"mast"`` (:class:`Mast`), ``"random"``, or ``"auto"`` (the default):
    MAST, unless the game plays random games in compiled code (its own
    :meth:`State.rollout`: every game with a kernel), whose speed is worth more than a
    Python policy, or a ``capture`` weight is given. ``epsilon`` is MAST's share of
    random moves. ``capture`` weighs the random playouts' moves: a move that takes a
    piece is drawn that many times as often as one that does not (a
    :class:`~boardlab.core.game.PlayoutPolicy`, which kernels play compiled). ``reuse``
    keeps the tree and MAST's table from one move to the next (the subtree of the
    position reached is searched on).

    ``workers`` > 1 searches on that many cores (root parallelism): the bot's own
    search plus ``workers - 1`` independent ones in worker processes, each with its
    own seed and the same budget, their root statistics added up. The workers rebuild
    the game from its :meth:`~boardlab.core.game.Game.recipe` and the position from its
    text; a game without a recipe is searched on one core.
    """

    def __init__(self, *, iterations: int | None = None, time: float | None = None,
                 exploration: float | None = None, seed: int | None = None,
                 playout_depth: int | None = None, playout: str | None = None,
                 epsilon: float | None = None, reuse: bool | None = None,
                 workers: int | None = None, capture: int | None = None):
        check_positive("iterations", iterations)
        check_positive("playout_depth", playout_depth)
        self.playout_depth = playout_depth
        check_positive("time", time)
        if exploration is not None and exploration < 0:
            raise BotError(f"bot option 'exploration' must be >= 0, got {exploration!r}")
        if playout is not None and playout not in PLAYOUTS:
            raise BotError(f"bot option 'playout' must be one of {', '.join(PLAYOUTS)}, "
                           f"got {playout!r}")
        if epsilon is not None and not 0 <= epsilon <= 1:
            raise BotError(f"bot option 'epsilon' must be between 0 and 1, got {epsilon!r}")
        if iterations is None and time is None:
            iterations = 1000
        self.iterations = iterations
        self.time = time
        self.exploration = math.sqrt(2) if exploration is None else exploration
        self.playout = playout or "auto"
        self.epsilon = MAST_EPSILON if epsilon is None else epsilon
        self.policy = None if capture is None else PlayoutPolicy(capture=capture)
        self.reuse = True if reuse is None else bool(reuse)
        check_positive("workers", workers)
        if workers is not None and workers != int(workers):
            raise BotError(f"bot option 'workers' must be a whole number, got {workers!r}")
        self.workers = 1 if workers is None else int(workers)
        self._pool: ProcessPoolExecutor | None = None
        self.seed = seed
        self.rng = random.Random(seed)
        self.last: MCTSResult | None = None
        self._mast: Mast | None = None
        self._tree: Node | None = None
        self._game: object = None
        budget = [f"iterations={iterations}" if iterations is not None else "",
                  f"time={time:g}s" if time is not None else "",
                  f"workers={self.workers}" if self.workers > 1 else ""]
        self.name = f"mcts({', '.join(b for b in budget if b)})"

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # Spawned, not forked: the bot may live in a threaded server.
            self._pool = ProcessPoolExecutor(self.workers - 1,
                                             mp_context=multiprocessing.get_context("spawn"))
            weakref.finalize(self, self._pool.shutdown, wait=False, cancel_futures=True)
        return self._pool

    def close(self) -> None:
        """Stop the worker processes (they also stop when the bot is collected)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def _depth(self, state: State) -> int | None:
        # The playout cap: the user's, else the game's by default (auto_playout_depth).
        if self.playout_depth is not None:
            return self.playout_depth
        return auto_playout_depth(state.game)

    def _uses_mast(self, state: State) -> bool:
        if self.playout == "auto":
            return type(state).rollout is State.rollout and self.policy is None
        return self.playout == "mast"

    def prepare(self, state: State) -> None:
        """Compile what a search of ``state`` runs (the kernel's search or its
        playouts, compiled on first use), with one iteration drawn from a generator of
        its own: the bot's own draws and kept tree are untouched."""
        if state.is_terminal() or chance_turn(state):
            return
        mast = Mast(self.epsilon) if self._uses_mast(state) else None
        search(state, random.Random(0), 1, None, self.exploration, self._depth(state), mast,
               policy=self.policy)

    def choose(self, state: State) -> Move:
        """The most visited root move; ``last`` keeps the :class:`MCTSResult`. At a chance
        player's turn, a move drawn uniformly with the bot's generator (no search)."""
        if chance_turn(state):
            return draw_move(state, self.rng)
        depth = self._depth(state)
        if state.game is not self._game or not self.reuse:
            self._game, self._tree = state.game, None
            self._mast = None
        mast = None
        if self._uses_mast(state):
            if self._mast is None:
                self._mast = Mast(self.epsilon)
            mast = self._mast
        root = None
        if self.reuse:
            # A kernel's tree finds the position itself (State.search_tree).
            root = reusable(self._tree, state) if isinstance(self._tree, Node) else self._tree
        recipe = state.game.recipe() if self.workers > 1 else None
        started = time.perf_counter()
        pending = []
        if recipe is not None:
            pool = self._workers()
            text = str(state)
            epsilon = self.epsilon if mast is not None else None
            pending = [pool.submit(_worker_search, recipe, text, self.rng.randrange(1 << 62),
                                   self.iterations, self.time, self.exploration, depth,
                                   epsilon, self.policy) for _ in range(self.workers - 1)]
        self.last = search(state, self.rng, self.iterations, self.time, self.exploration,
                           depth, mast, root, self.policy)
        if pending:
            self.last = _merged(self.last, [f.result() for f in pending], started)
        # Keep the subtree of the chosen move: the next position is below it.
        if not self.reuse:
            self._tree = None
        elif self.last.tree is not None:
            self._tree = self.last.tree.keep(self.last.move)
        else:
            self._tree = next(c for c in self.last.root.children  # type: ignore[union-attr]
                              if c.move == self.last.move)
        return self.last.move
