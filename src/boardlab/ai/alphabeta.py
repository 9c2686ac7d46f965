"""Negamax search with alpha-beta pruning, iterative deepening and a transposition table.

The textbook algorithm (Knuth and Moore, "An analysis of alpha-beta pruning",
1975), generic over the game protocol:

* values are seen from the player to move; a move that leaves the same player to
  move (a capture after a mill, say) keeps the sign instead of negating it;
* a terminal position is worth ``returns[me] - max(returns of the others)``
  times :data:`WIN_SCALE`, less one per ply, so a faster win scores higher and a
  slower loss scores less badly; a draw is 0;
* a non-terminal leaf is worth ``game.evaluate(state, me)`` (in [-1, 1], far
  below any decided result), or 0 when the game has no heuristic;
* the transposition table is keyed by :meth:`State.key` and stores the depth
  searched, the value, whether it is exact or a bound, and the best move, tried
  first on the next visit; then come captures, the two *killer* moves of the ply
  (quiet moves that refuted a sibling) and the other quiet moves by their *history*
  credit (depth squared per cut-off they caused, Schaeffer 1989);
* in games with a heuristic, the leaves are *quiescent*: a quiescence search plays
  out the captures in sight (:data:`QUIESCENCE_PLIES` at most), each side free to
  stand on the heuristic instead, so no leaf is valued in the middle of an exchange;
* iterative deepening runs depths 1, 2, ... until the depth budget, the time
  budget, a proven win or loss, or a search that reached the end of every line;
  depth 1 always completes, even past the time budget, so a move is never a guess.

With more than two players the search is *paranoid*: every opponent is assumed
to play against the searching player.

In games with chance players (:attr:`Game.chance_players <boardlab.core.game.Game.chance_players>`,
a die) the search is *expectimax* (Michie, 1966; Ballard's ``*-minimax``, 1983, without its
pruning): a chance node is worth the mean of its children, each move as likely, valued
for the player who moved into it; a chance ply counts as a ply of the depth; nothing is
pruned across a chance node (its children are searched with the full window), nor stored
in the table (its value belongs to the player who moved into it); quiescence stands at
one. A value is then an expectation: a decided result no longer proves anything, so
iterative deepening goes on to its budget and :attr:`SearchResult.proven` says nothing.
The root must be a decision: at a chance player's turn the move is drawn, not searched.

>>> from boardlab import load
>>> result = solve(load("tic-tac-toe").parse_state("xx./oo./... x"))
>>> result.move, result.proven
(Move('c3'), 'win')
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from boardlab.ai.bots import BotError, chance_turn, check_positive, draw_move, register_bot
from boardlab.core.game import Game, Returns, State
from boardlab.core.move import Capture, Move

#: A decided result of ``d`` points' margin is worth ``d * WIN_SCALE`` less the plies to it.
WIN_SCALE = 1_000_000_000.0
#: Heuristic values lie in [-HEURISTIC_LIMIT, HEURISTIC_LIMIT]; decided results beyond it.
HEURISTIC_LIMIT = 1.0
#: The plies of captures a quiescence search plays out beyond the nominal depth.
QUIESCENCE_PLIES = 6
#: Depth stored for a subtree searched to the end of every line.
COMPLETE = 1 << 30
INFINITY = float("inf")

EXACT, LOWER, UPPER = 0, 1, 2


class _OutOfTime(Exception):
    """The time or node budget ran out mid-iteration."""


#: Nodes between two calls of a search's progress callback.
PROGRESS_EVERY = 4096


@dataclass(frozen=True)
class SearchResult:
    """What a search found.

    ``value`` is seen from the player to move at the root, on the scale described
    in the module docstring; ``depth`` is the deepest iteration completed;
    ``complete`` says the search reached the end of every line, so ``value`` is
    the game-theoretic value.
    """

    value: float
    move: Move | None
    nodes: int
    depth: int
    complete: bool
    seconds: float
    principal_variation: tuple[Move, ...] = ()
    #: The game has chance players: ``value`` is an expectation (module docstring).
    chance: bool = False

    @property
    def proven(self) -> str | None:
        """``'win'``/``'loss'`` once a decided result is forced, ``'draw'`` when a
        complete search found a draw; else ``None`` (always in a game with chance)."""
        if self.chance:
            return None
        if self.value > HEURISTIC_LIMIT:
            return "win"
        if self.value < -HEURISTIC_LIMIT:
            return "loss"
        if self.complete and self.value == 0:
            return "draw"
        return None

    @property
    def plies_to_end(self) -> int | None:
        """Plies to the forced end of the game when ``proven`` is win or loss."""
        if self.chance or abs(self.value) <= HEURISTIC_LIMIT:
            return None
        # The value is margin * WIN_SCALE - plies, and margins are fractions of points
        # with small denominators, far apart compared with plies / WIN_SCALE.
        size = abs(self.value)
        margin = Fraction(size / WIN_SCALE).limit_denominator(100)
        return round(float(margin) * WIN_SCALE - size)


class Searcher:
    """An alpha-beta searcher keeping its transposition table between searches.

    ``order`` may shuffle the root moves, which breaks ties between equally good
    moves (bots use it with a seeded generator).
    """

    def __init__(self, max_entries: int = 1_000_000, quiescence: bool = True):
        self.max_entries = max_entries
        self.quiescence = quiescence
        self.table: dict[int, tuple[int, float, int, Move | None]] = {}
        #: Two quiet moves per ply that refuted a sibling (the killer heuristic).
        self.killers: list[list[tuple]] = []
        #: Quiet moves' cut-off credit (the history heuristic), by (mover, actions).
        self.history: dict[tuple[int, tuple], int] = {}
        self._quiesce_on = False
        #: The chance players of the game searched (empty in most games).
        self._chance: frozenset[int] = frozenset()
        self._game = None
        self.nodes = 0
        self._cutoffs = 0
        self._deadline = INFINITY
        self._node_limit = INFINITY
        self._progress: Callable[[int], None] | None = None

    def search(self, state: State, depth: int | None = None, seconds: float | None = None,
               order: Callable[[list[Move]], None] | None = None, *,
               max_nodes: int | None = None, exact: bool = False,
               progress: Callable[[int], None] | None = None) -> SearchResult:
        """Search ``state`` (left unchanged) to ``depth`` plies and/or for ``seconds``
        and/or ``max_nodes`` nodes; ``progress(nodes)`` is called every
        :data:`PROGRESS_EVERY` nodes.

        With no budget the search runs until the end of every line, which is only
        sensible for small games. The node budget, unlike the time budget, also stops
        the first iteration: it is the hard bound of a caller that must finish.

        Iterative deepening stops early at a proven win or loss, which is all a bot
        needs; but a win found within some depth may not be the largest margin (a game
        scoring 1 1/2 points, say), so ``exact`` deepens until every line has ended
        (``complete``), for the exact value.
        """
        if state.is_terminal():
            raise BotError("cannot search a finished game")
        chance = self._chance = state.game.chance_players
        if state.to_move in chance:
            raise BotError(f"{state.game.player_names[state.to_move]} is a chance player: its "
                           "move is drawn, not searched")
        started = time.perf_counter()
        self._deadline = INFINITY if seconds is None else started + seconds
        self._node_limit = INFINITY if max_nodes is None else max_nodes
        self._progress = progress
        if state.game != self._game or len(self.table) > self.max_entries:
            # Zobrist keys of different games (or variants) can collide.
            self.table = {}
            self.history = {}
            self._game = state.game
        self.killers = []
        # Quiescence needs a heuristic to stand on: games without one search as before.
        self._quiesce_on = self.quiescence and type(state.game).evaluate is not Game.evaluate
        root = state.clone()
        # A copy: games may hand out their cached list, which must not be reordered.
        moves = list(root.legal_moves())
        if order is not None:
            order(moves)
        self.nodes = 0
        best: tuple[float, Move | None] = (0.0, moves[0])
        reached, complete = 0, False
        limit = COMPLETE if depth is None else depth
        current = 0
        deadline = self._deadline
        while current < limit:
            current += 1
            self._cutoffs = 0
            # The first iteration always finishes: without it the move would be a
            # blind guess (games whose positions are slow to expand overrun the budget).
            self._deadline = INFINITY if current == 1 else deadline
            try:
                best = self._root(root, moves, current)
            except _OutOfTime:
                break
            reached = current
            complete = self._cutoffs == 0
            # With chance, a value beyond the heuristic's range is a mean, not a proof.
            if complete or (not exact and not chance and abs(best[0]) > HEURISTIC_LIMIT):
                break
        # Adding 0.0 turns the -0.0 of a negated draw into 0.0.
        return SearchResult(best[0] + 0.0, best[1], self.nodes, reached, complete,
                            time.perf_counter() - started,
                            self._principal_variation(root, best[1], reached), bool(chance))

    # --- the search ---------------------------------------------------------------
    def _root(self, state: State, moves: list[Move], depth: int) -> tuple[float, Move | None]:
        entry = self.table.get(state.key())
        if entry is not None and entry[3] in moves:
            moves.remove(entry[3])
            moves.insert(0, entry[3])
        value, move = self._node(state, depth, -INFINITY, INFINITY, 0, moves)
        return value, move

    def _node(self, state: State, depth: int, alpha: float, beta: float, ply: int,
              moves: list[Move] | None = None) -> tuple[float, Move | None]:
        """The value of non-terminal ``state`` for its player to move, and the best move."""
        key = state.key()
        entry = self.table.get(key)
        tt_move = None
        if entry is not None:
            stored_depth, stored, flag, tt_move = entry
            if stored_depth >= depth and ply > 0:
                value = _from_table(stored, ply)
                if (flag == EXACT or (flag == LOWER and value >= beta)
                        or (flag == UPPER and value <= alpha)):
                    if stored_depth != COMPLETE:
                        self._cutoffs += 1
                    return value, tt_move
        if moves is None:
            moves = self._ordered(state.legal_moves(), tt_move, state.to_move, ply)
        cutoffs_before = self._cutoffs
        me = state.to_move
        alpha_in = alpha
        best_value, best_move = -INFINITY, moves[0]
        for move in moves:
            value = self._child(state, move, depth, alpha, beta, ply, me)
            if value > best_value:
                best_value, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        if not _captures(move):
                            self._credit(move, me, ply, depth)
                        break
        if best_value <= alpha_in:
            flag = UPPER
        elif best_value >= beta:
            flag = LOWER
        else:
            flag = EXACT
        stored_depth = COMPLETE if self._cutoffs == cutoffs_before else depth
        self.table[key] = (stored_depth, _to_table(best_value, ply), flag, best_move)
        return best_value, best_move

    def _expect(self, state: State, depth: int, ply: int, viewer: int) -> float:
        """The value for ``viewer`` of the non-terminal ``state``, where a chance player is
        to move: the mean of its moves' values (expectimax), each child searched with the
        full window, since a bound on one child says nothing of the mean."""
        moves = state.legal_moves()
        total = 0.0
        for move in moves:
            total += self._child(state, move, depth, -INFINITY, INFINITY, ply, viewer)
        return total / len(moves)

    def _child(self, state: State, move: Move, depth: int, alpha: float, beta: float,
               ply: int, me: int) -> float:
        """The value for ``me`` of ``move`` from ``state`` (a node ``depth`` plies from the
        horizon, ``ply`` from the root) within the window ``alpha``..``beta``: the game's
        end, the horizon's estimate, or a search of the position after it."""
        self.nodes += 1
        if not self.nodes & 63:
            if time.perf_counter() > self._deadline or self.nodes > self._node_limit:
                raise _OutOfTime
            if self._progress is not None and not self.nodes % PROGRESS_EVERY:
                self._progress(self.nodes)
        state.apply(move)
        try:
            outcome = state.outcome()
            if outcome is not None:
                return _terminal_value(outcome, me, ply + 1)
            if depth <= 1:
                if self._quiesce_on:
                    return self._quiesce(state, me, alpha, beta, ply + 1, QUIESCENCE_PLIES)
                self._cutoffs += 1
                return _heuristic(state, me)
            chance = self._chance
            if chance and state.to_move in chance:
                return self._expect(state, depth - 1, ply + 1, me)
            if state.to_move == me:
                return self._node(state, depth - 1, alpha, beta, ply + 1)[0]
            return -self._node(state, depth - 1, -beta, -alpha, ply + 1)[0]
        finally:
            state.undo()

    def _ordered(self, moves: list[Move], tt_move: Move | None, mover: int, ply: int
                 ) -> list[Move]:
        """A new list (games may hand out their cached one): the table's move, then
        captures, then this ply's killers, then quiet moves by history credit."""
        history = self.history
        killers = self.killers[ply] if ply < len(self.killers) else ()

        def rank(move: Move) -> tuple[int, int]:
            if tt_move is not None and move == tt_move:
                return (0, 0)
            if _captures(move):
                return (1, 0)
            actions = move[1]
            if actions in killers:
                return (2, 0)
            return (3, -history.get((mover, actions), 0))

        return sorted(moves, key=rank)

    def _credit(self, move: Move, mover: int, ply: int, depth: int) -> None:
        """A quiet move refuted a sibling: a killer of its ply, and history credit."""
        while len(self.killers) <= ply:
            self.killers.append([])
        killers = self.killers[ply]
        actions = move[1]
        if actions not in killers:
            killers.insert(0, actions)
            del killers[2:]
        key = (mover, actions)
        self.history[key] = self.history.get(key, 0) + depth * depth

    def _quiesce(self, state: State, me: int, alpha: float, beta: float, ply: int,
                 left: int) -> float:
        """The value for ``me`` (the window too is ``me``'s) of the non-terminal
        ``state`` once the captures in sight are played out: the side to move may stand
        on the heuristic or take, up to ``left`` plies (quiescence search, so a leaf is
        not valued in the middle of an exchange). ``me`` maximises, every other side
        minimises, as in the paranoid search."""
        self._cutoffs += 1  # a heuristic leaf: the search is not complete
        stand = _heuristic(state, me)
        maximising = state.to_move == me
        if left == 0 or (stand >= beta if maximising else stand <= alpha):
            return stand
        if self._chance and state.to_move in self._chance:
            return stand  # the dice are not played out: no capture is anybody's choice
        best = stand
        if maximising:
            alpha = max(alpha, stand)
        else:
            beta = min(beta, stand)
        for move in state.legal_moves():
            if not _captures(move):
                continue
            self.nodes += 1
            if not self.nodes & 63 and (time.perf_counter() > self._deadline
                                        or self.nodes > self._node_limit):
                raise _OutOfTime
            state.apply(move)
            try:
                outcome = state.outcome()
                if outcome is not None:
                    value = _terminal_value(outcome, me, ply + 1)
                else:
                    value = self._quiesce(state, me, alpha, beta, ply + 1, left - 1)
            finally:
                state.undo()
            if maximising and value > best:
                best = value
                alpha = max(alpha, value)
            elif not maximising and value < best:
                best = value
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best

    def _principal_variation(self, state: State, first: Move | None,
                             depth: int) -> tuple[Move, ...]:
        line: list[Move] = []
        move = first
        state = state.clone()
        while move is not None and len(line) < max(depth, 1):
            if move not in state.legal_moves():
                break
            line.append(move)
            state.apply(move)
            if state.is_terminal():
                break
            entry = self.table.get(state.key())
            move = entry[3] if entry is not None else None
        return tuple(line)


def _captures(move: Move) -> bool:
    """Whether a move takes a piece (quiescence plays these; ordering tries them first)."""
    return any(type(a) is Capture for a in move[1])


def _terminal_value(outcome: Returns, me: int, ply: int) -> float:
    mine = float(outcome[me])
    others = max(float(r) for i, r in enumerate(outcome) if i != me)
    margin = mine - others
    if margin > 0:
        return margin * WIN_SCALE - ply
    if margin < 0:
        return margin * WIN_SCALE + ply
    return 0.0


def _heuristic(state: State, me: int) -> float:
    value = state.game.evaluate(state, me)
    if value is None:
        return 0.0
    return max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, float(value)))


# Decided values are stored relative to the node (plies from it, not from the root),
# so a position reached by paths of different lengths reads back the right distance.
def _to_table(value: float, ply: int) -> float:
    if value > HEURISTIC_LIMIT:
        return value + ply
    if value < -HEURISTIC_LIMIT:
        return value - ply
    return value


def _from_table(value: float, ply: int) -> float:
    if value > HEURISTIC_LIMIT:
        return value - ply
    if value < -HEURISTIC_LIMIT:
        return value + ply
    return value


def solve(state: State, depth: int | None = None, seconds: float | None = None) -> SearchResult:
    """Search ``state`` with a fresh table; with no budget, to the end of every line."""
    return Searcher().search(state, depth, seconds)


@register_bot("alphabeta", "negamax with alpha-beta, iterative deepening and a "
                           "transposition table")
class AlphaBetaBot:
    """Plays the best move of an alpha-beta search within a depth and/or time budget.

    With neither budget given it searches for one second. The seed shuffles the
    root moves, so equally good moves are chosen at random, reproducibly.
    """

    def __init__(self, *, depth: int | None = None, time: float | None = None,
                 seed: int | None = None):
        check_positive("depth", depth)
        check_positive("time", time)
        if depth is None and time is None:
            time = 1.0
        self.depth = depth
        self.time = time
        self.seed = seed
        self.rng = random.Random(seed)
        self.searcher = Searcher()
        self.last: SearchResult | None = None
        budget = [f"depth={depth}" if depth is not None else "",
                  f"time={time:g}s" if time is not None else ""]
        self.name = f"alphabeta({', '.join(b for b in budget if b)})"

    def choose(self, state: State) -> Move:
        """The best move found; ``last`` keeps the :class:`SearchResult`. At a chance
        player's turn, a move drawn uniformly with the bot's generator (no search)."""
        if chance_turn(state):
            return draw_move(state, self.rng)
        self.last = self.searcher.search(state, self.depth, self.time, order=self.rng.shuffle)
        assert self.last.move is not None
        return self.last.move
