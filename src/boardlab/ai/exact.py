"""Exact game values: the value of a position under perfect play, with the best moves.

Two solvers sit behind :func:`solve_position`:

* quantum tic-tac-toe has a compiled alpha-beta solver
  (:mod:`boardlab.games.fast.quantum_kernel`) with an exact transposition table
  over the board's eight symmetries, for every option of the game;
* any other game is searched to the end by the generic alpha-beta
  (:mod:`boardlab.ai.alphabeta`), which is enough for small games;
* a game with chance players (a die) is solved by :func:`solve_chance`, an
  expectiminimax search (Michie, 1966) in exact fractions: a chance node is worth the
  mean of its children. Not by the alpha-beta: its values are floats on a scale that
  also counts plies, from which an expectation with a large denominator (dice over
  several turns) cannot be read back exactly.

Values are the first player's points minus the second's (a win 1, Goff's X 1 vs
O 1/2 is 1/2), as exact fractions; in a game with chance players, the first and second
real players' (chance players are no contestants), as an expectation under best play.

>>> from boardlab import load
>>> report = solve_position(load("tic-tac-toe").initial_state())
>>> report.value, report.verdict
(Fraction(0, 1), 'draw')
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from boardlab.ai.alphabeta import WIN_SCALE, Searcher
from boardlab.ai.bots import chance_turn, check_positive, draw_move, register_bot
from boardlab.core.game import State
from boardlab.core.move import Move
from boardlab.errors import BotError, OptionError

#: Default transposition table of the quantum solver: 2**24 slots, about 400 MB.
DEFAULT_TABLE_BITS = 24


@dataclass(frozen=True)
class SolveReport:
    """The exact value of a position and how it was found.

    ``value`` is the first player's points minus the second's under perfect play;
    ``moves`` lists ``(move, value)`` for the root moves that were evaluated
    exactly (all of them when ``all_moves`` was asked), best first for the player
    to move; ``nodes`` counts the positions searched.
    """

    value: Fraction
    best: Move | None
    nodes: int
    seconds: float
    moves: tuple[tuple[Move, Fraction], ...] = field(default=())
    player_names: tuple[str, ...] = ("first", "second")
    #: ``value`` is an expectation over chance moves (a game with chance players), and
    #: ``player_names`` are the two real players'.
    expected: bool = False

    @property
    def verdict(self) -> str:
        """``'draw'`` or ``'<first player> wins by <points>'`` and the like; with chance,
        ``'even on average'`` or ``'<player> ahead by <points> on average'``."""
        winner = self.player_names[0] if self.value > 0 else self.player_names[1]
        margin = abs(self.value)
        if self.expected:
            if margin == 0:
                return "even on average"
            return f"{winner} ahead by {_points(margin)} on average"
        if self.value == 0:
            return "draw"
        if margin == 1:
            return f"{winner} wins"
        return f"{winner} wins by {_points(margin)}"


def _points(x: Fraction) -> str:
    whole, part = divmod(x, 1)
    text = str(int(whole)) if whole else ""
    if part:
        text = f"{text} {part}".strip()
    return f"{text} point{'s' if x > 1 else ''}"


class QuantumSolver:
    """The compiled exact solver of quantum tic-tac-toe, keeping its transposition
    table between calls (positions of one game with one set of options)."""

    def __init__(self, game, table_bits: int = DEFAULT_TABLE_BITS):
        from boardlab.games import fast

        self.kernel = fast.kernel("quantum_kernel")
        k = self.kernel
        options = game.options
        self.game = game
        self.opt = np.array([1 if options["numbering"] == "goff" else 0,
                             k.SCORING_CODES[options["scoring"]],
                             int(options["deterministic_moves"]), int(options["duplicate_pair"]),
                             int(options["last_square_classical"]), int(options["misere"])],
                            dtype=np.int64)
        size = 1 << table_bits
        self.keys = np.full((size, 2), -1, dtype=np.int64)
        self.vals = np.zeros((size, 4), dtype=np.int8)
        self.moves = np.zeros((k.MAX_PLY, k.MAX_MOVES), dtype=np.int64)
        self.history = np.zeros((2, 128), dtype=np.int64)
        self.counters = np.zeros(2, dtype=np.int64)
        self.st = np.zeros((k.MAX_PLY, k.WIDTH), dtype=np.int64)

    def row(self, state) -> np.ndarray:
        """The kernel's encoding of a quantum tic-tac-toe state (:mod:`boardlab.games.quantum`)."""
        k = self.kernel
        row = np.zeros(k.WIDTH, dtype=np.int64)
        row[k.CLS:k.CLS + 9] = state.classical
        row[k.PA:k.PA + 10] = -1
        row[k.PB:k.PB + 10] = -1
        for n, (a, b) in state.pairs.items():
            row[k.PA + n] = a
            row[k.PB + n] = b
        row[k.MADE] = state.made
        row[k.PENDING] = int(state.pending)
        return row

    def value(self, state, alpha: int = -5, beta: int = 5) -> int:
        """X's margin in half points of a position (fail-soft in the window)."""
        outcome = state.outcome()
        if outcome is not None:
            return int((outcome[0] - outcome[1]) * 2)
        self.st[0] = self.row(state)
        return int(self.kernel.search(self.st, 0, alpha, beta, self.opt, self.keys,
                                      self.vals, self.moves, self.history, self.counters))

    @property
    def nodes(self) -> int:
        """Positions searched since the solver was made."""
        return int(self.counters[0])


#: The generic solver's default node budget: a few minutes of search, enough for
#: tic-tac-toe-sized games; beyond it a game is too big to solve this way.
DEFAULT_MAX_NODES = 20_000_000
#: The exact bot's node budget per move in games without a compiled solver.
BOT_MAX_NODES = 1_000_000

#: ``progress(root moves done, root moves, nodes searched)``.
Progress = Callable[[int, int, int], None]


def solve_position(state: State, *, all_moves: bool = False,
                   table_bits: int | None = None, seconds: float | None = None,
                   max_nodes: int | None = None,
                   progress: Progress | None = None) -> SolveReport:
    """The exact value of ``state`` (not over) and a best move.

    With ``all_moves`` every root move's exact value is computed (slower: no
    pruning at the root). ``progress(done, total, nodes)`` is called after each root
    move and, in the generic solver, every few thousand nodes.

    quantum tic-tac-toe is solved by its compiled solver, whose transposition table has
    ``2 ** table_bits`` slots (default :data:`DEFAULT_TABLE_BITS`); its search always
    ends (the game lasts at most nine moves). Any other game is searched to the end by
    the generic solver within ``max_nodes`` nodes (default :data:`DEFAULT_MAX_NODES`)
    and, if given, ``seconds`` (both per root move with ``all_moves``);
    :class:`BotError` if a budget runs out before the end of every line. An option of
    the other solver is an :class:`~boardlab.errors.OptionError`, not ignored.
    """
    if state.is_terminal():
        raise BotError("the game is over; there is nothing to solve")
    started = time.perf_counter()
    names = tuple(state.game.player_names)
    if state.game.name == "quantum-tic-tac-toe":
        if seconds is not None or max_nodes is not None:
            raise OptionError("quantum-tic-tac-toe's compiled solver always finishes: "
                              "a time or node budget does not apply to it")
        bits = DEFAULT_TABLE_BITS if table_bits is None else table_bits
        return _solve_quantum(state, all_moves, bits, progress, started, names)
    if table_bits is not None:
        raise OptionError("the table size applies to quantum-tic-tac-toe's compiled "
                          f"solver only, not to {state.game.name}")
    return solve_generic(state, all_moves=all_moves, seconds=seconds, max_nodes=max_nodes,
                         progress=progress)


def _solve_quantum(state, all_moves, table_bits, progress, started, names,
                   solver: QuantumSolver | None = None,
                   moves: list[Move] | None = None) -> SolveReport:
    if solver is None:
        solver = QuantumSolver(state.game, table_bits)
    if moves is None:
        moves = state.legal_moves()
    maximise = state.to_move == 0
    results: list[tuple[Move, Fraction]] = []
    best_value: int | None = None
    best_move = None
    for i, move in enumerate(moves):
        child = state.play(move)
        if all_moves or best_value is None:
            v = solver.value(child)
        else:
            # Only whether the move beats the best so far matters: a null window.
            if maximise:
                v = solver.value(child, best_value, best_value + 1)
            else:
                v = solver.value(child, best_value - 1, best_value)
        better = best_value is None or (v > best_value if maximise else v < best_value)
        if better and not all_moves and best_value is not None:
            v = solver.value(child)  # the move is better: its exact value
            better = v > best_value if maximise else v < best_value
        if all_moves or better or best_value is None:
            results.append((move, Fraction(v, 2)))
        if better:
            best_value, best_move = v, move
        if progress is not None:
            progress(i + 1, len(moves), solver.nodes)
    assert best_value is not None
    results.sort(key=lambda mv: -mv[1] if maximise else mv[1])
    return SolveReport(Fraction(best_value, 2), best_move, solver.nodes,
                       time.perf_counter() - started, tuple(results), names)


def solve_generic(state: State, *, all_moves: bool = False, seconds: float | None = None,
                  max_nodes: int | None = None,
                  progress: Progress | None = None) -> SolveReport:
    """:func:`solve_position` by the generic alpha-beta search, whatever the game (the
    second opinion on a compiled solver); a game with chance players by
    :func:`solve_chance`."""
    if state.is_terminal():
        raise BotError("the game is over; there is nothing to solve")
    if state.game.chance_players:
        return solve_chance(state, all_moves=all_moves, seconds=seconds,
                            max_nodes=max_nodes, progress=progress)
    started = time.perf_counter()
    names = tuple(state.game.player_names)
    max_nodes = DEFAULT_MAX_NODES if max_nodes is None else max_nodes
    searcher = Searcher()
    done = [0, len(state.legal_moves()), 0]   # root moves done, root moves, nodes before

    def searched(nodes: int) -> None:
        if progress is not None:
            progress(done[0], done[1], done[2] + nodes)

    def run(position: State):
        result = searcher.search(position, seconds=seconds, max_nodes=max_nodes,
                                 exact=True, progress=searched)
        if not result.complete:
            budget = (f"{seconds:g} s" if seconds is not None
                      and result.nodes < max_nodes else f"{max_nodes:,} nodes")
            raise BotError(f"{state.game.name} not solved within {budget} (searched "
                           f"{result.depth} plies deep, {result.nodes:,} nodes): the game "
                           "is too big for the generic solver")
        return result

    me = state.to_move
    sign = 1 if me == 0 else -1
    moves = state.legal_moves()
    nodes = 0
    results: list[tuple[Move, Fraction]] = []
    if all_moves:
        for i, move in enumerate(moves):
            child = state.play(move)
            if child.is_terminal():
                out = child.outcome()
                assert out is not None
                value = out[0] - out[1]
            else:
                result = run(child)
                nodes += result.nodes
                value = _margin(result.value) * (1 if child.to_move == 0 else -1)
            results.append((move, value))
            done[0], done[2] = i + 1, nodes
            if progress is not None:
                progress(i + 1, len(moves), nodes)
        results.sort(key=lambda mv: -mv[1] * sign)
        best_move, value = results[0]
    else:
        result = run(state)
        nodes = result.nodes
        value = _margin(result.value) * sign
        best_move = result.move
        if progress is not None:
            progress(len(moves), len(moves), nodes)
    return SolveReport(value, best_move, nodes, time.perf_counter() - started,
                       tuple(results), names)


def solve_chance(state: State, *, all_moves: bool = False, seconds: float | None = None,
                 max_nodes: int | None = None, progress: Progress | None = None,
                 moves: list[Move] | None = None) -> SolveReport:
    """:func:`solve_position` of a game with chance players: the expected margin of its
    two real players under best play, by expectiminimax in exact fractions. The first
    real player maximises the margin, the second minimises it, a chance node is the mean
    of its moves' values; every position is searched once (a table by position), within
    ``max_nodes`` positions (default :data:`DEFAULT_MAX_NODES`) and ``seconds``.

    Every root move is valued (nothing is pruned), so ``moves`` always lists them, best
    first for a decision (``moves``: the order to try them, which breaks ties); at a chance
    player's turn they keep their order and ``best`` is ``None``.

    :class:`BotError` when the game has other than two real players (the value is their
    margin), when a position comes back on a line (a cycle: no value without a rule that
    ends it), when a line runs deeper than Python's recursion limit, or when a budget
    runs out.
    """
    if state.is_terminal():
        raise BotError("the game is over; there is nothing to solve")
    game = state.game
    chance = game.chance_players
    real = [p for p in range(game.num_players) if p not in chance]
    if len(real) != 2:
        raise BotError(f"{game.name} has {len(real)} real players besides its chance players: "
                       "the exact solver gives the margin of two")
    first, second = real
    started = time.perf_counter()
    deadline = float("inf") if seconds is None else started + seconds
    limit = DEFAULT_MAX_NODES if max_nodes is None else max_nodes
    known: dict[object, Fraction] = {}
    on_line: set[object] = set()
    nodes = 0
    work = state.clone()

    def value() -> Fraction:
        nonlocal nodes
        out = work.outcome()
        if out is not None:
            return out[first] - out[second]
        seen = work.signature()
        found = known.get(seen)
        if found is not None:
            return found
        if seen in on_line:
            raise BotError(f"{game.name}: a position comes back on a line of play; the "
                           "exact solver of games with chance needs games whose positions "
                           f"never repeat ({work})")
        nodes += 1
        if nodes > limit or (not nodes & 1023 and time.perf_counter() > deadline):
            budget = f"{limit:,} positions" if nodes > limit else f"{seconds:g} s"
            raise BotError(f"{game.name} not solved within {budget}: the game is too big "
                           "for the exact solver")
        if progress is not None and not nodes % 4096:
            progress(done, len(root_moves), nodes)
        on_line.add(seen)
        children = []
        for move in work.legal_moves():
            work.apply(move)
            try:
                children.append(value())
            finally:
                work.undo()
        on_line.discard(seen)
        mover = work.to_move
        if mover in chance:
            result = sum(children, Fraction(0)) / len(children)
        elif mover == first:
            result = max(children)
        else:
            result = min(children)
        known[seen] = result
        return result

    root_moves = list(state.legal_moves()) if moves is None else list(moves)
    results: list[tuple[Move, Fraction]] = []
    on_line.add(work.signature())
    # ``done`` (root moves done) is read by the progress calls inside the search too.
    for done, move in enumerate(root_moves):
        work.apply(move)
        try:
            results.append((move, value()))
        except RecursionError:
            raise BotError(f"{game.name} not solved: its lines of play run deeper than the "
                           "exact solver follows (Python's recursion limit, "
                           f"{sys.getrecursionlimit()})") from None
        finally:
            work.undo()
        if progress is not None:
            progress(done + 1, len(root_moves), nodes)
    mover = state.to_move
    names = (game.player_names[first], game.player_names[second])
    if mover in chance:
        total = sum((v for _, v in results), Fraction(0)) / len(results)
        return SolveReport(total, None, nodes, time.perf_counter() - started,
                           tuple(results), names, expected=True)
    sign = 1 if mover == first else -1
    # Stable: among equal values the first tried comes first (the bot's shuffle decides).
    results.sort(key=lambda mv: -mv[1] * sign)
    best_move, best = results[0]
    return SolveReport(best, best_move, nodes, time.perf_counter() - started,
                       tuple(results) if all_moves or moves is not None else ((best_move, best),),
                       names, expected=True)


@register_bot("exact", "perfect play: quantum tic-tac-toe's compiled solver, or a full "
                       "alpha-beta search in other small games")
class ExactBot:
    """Plays a move of best game-theoretic value, ties broken by the seed.

    In quantum tic-tac-toe it keeps one :class:`QuantumSolver` (and its table) for the
    whole game, so only the first move is slow (a few seconds); ``time`` does not apply
    there. Other games are searched to the end by :func:`solve_position` within
    :data:`BOT_MAX_NODES` nodes and, if given, ``time`` seconds per move
    (:class:`BotError` when that is not enough: the game is too big to play perfectly);
    a game with chance players by :func:`solve_chance`, for the best expected margin. At
    a chance player's turn it draws the move uniformly with its generator.
    """

    def __init__(self, *, seed: int | None = None, time: float | None = None):
        check_positive("time", time)
        self.rng = random.Random(seed)
        self.time = time
        self.solver: QuantumSolver | None = None
        self.last: SolveReport | None = None
        self.name = "exact"

    def choose(self, state: State) -> Move:
        """A best move of ``state``; ``last`` keeps the :class:`SolveReport`."""
        if chance_turn(state):
            return draw_move(state, self.rng)
        moves = list(state.legal_moves())
        self.rng.shuffle(moves)
        names = tuple(state.game.player_names)
        if state.game.chance_players:
            self.last = solve_chance(state, seconds=self.time, max_nodes=BOT_MAX_NODES,
                                     moves=moves)
        elif state.game.name == "quantum-tic-tac-toe":
            if self.solver is None or self.solver.game != state.game:
                self.solver = QuantumSolver(state.game, table_bits=22)
            self.last = _solve_quantum(state, False, 22, None, time.perf_counter(), names,
                                       self.solver, moves)
        else:
            self.last = solve_position(state, seconds=self.time, max_nodes=BOT_MAX_NODES)
        assert self.last.best is not None
        return self.last.best


def _margin(value: float) -> Fraction:
    """The points margin behind an alpha-beta value (decided results only)."""
    if abs(value) <= 1.0:
        return Fraction(0)
    return Fraction(value / WIN_SCALE).limit_denominator(100)
