"""Random playouts per second: boardlab's three paths against OpenSpiel's C++ games.

Last, tic-tac-toe, Connect Four and Breakthrough (8x8, written in the move language)
through the same Python loop on both sides: ``legal_moves``/``apply``/``is_terminal``
on boardlab's protocol against ``legal_actions``/``apply_action``/``is_terminal`` on
OpenSpiel's C++ game; games per second and their ratio. Breakthrough plays on its game
kernel (:mod:`boardlab.core.kernel`) and again without it (plain positions, compiled
templates), so the kernel's gain shows too.

For tic-tac-toe and Connect Four (6x7), from the initial position, each figure is the
number of complete uniformly random games played per second of wall-clock time:

* boardlab generic: :meth:`State.rollout` of the protocol itself, a Python loop over
  ``legal_moves()``/``apply()``/``undo()`` -- what every game gets for free;
* boardlab ``rollout()``: the game's override, one compiled (numba) bitboard playout
  per Python call;
* boardlab fast batch: the numba kernel playing N games in one call;
* OpenSpiel per game: ``pyspiel.evaluate_bots`` with two C++ uniform random bots, one
  Python call per game (the C++ loop over ``LegalActions``/``ApplyAction``);
* OpenSpiel batch: ``RandomRolloutEvaluator(N)`` run once at the root by a one-simulation
  ``MCTSBot.mcts_search``: N C++ random playouts in one Python call.

The ratios compare like with like: one game per Python call against OpenSpiel per
game, the batch against OpenSpiel's batch. OpenSpiel (``pip install open_spiel``, in
the ``bench`` extra) is optional; without it only boardlab's figures are printed.

Usage: ``python benchmarks/playouts.py [--seconds 1.0]`` (seconds per figure).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

import boardlab
from boardlab.core import kernel
from boardlab.core.game import State
from boardlab.games.connect_four import ConnectFourState
from boardlab.games.fast import connect_four_kernel, tictactoe_kernel
from boardlab.games.tictactoe import TicTacToeState


@dataclass(frozen=True)
class Subject:
    """One game as boardlab and OpenSpiel name it, and its batch kernel."""

    name: str
    openspiel_name: str
    batch: Callable[[State, int, int], object]


def ttt_batch(state: State, n: int, seed: int) -> object:
    assert isinstance(state, TicTacToeState)
    x, o = state.bitboards()
    return tictactoe_kernel.playouts(x, o, state.to_move, state.game.misere, n, seed)


def connect_four_batch(state: State, n: int, seed: int) -> object:
    assert isinstance(state, ConnectFourState)
    options = state.game.options
    return connect_four_kernel.playouts(state.discs[0], state.discs[1], state.to_move,
                                        options["rows"], options["columns"], n, seed)


SUBJECTS = (Subject("tic-tac-toe", "tic_tac_toe", ttt_batch),
            Subject("connect-four", "connect_four", connect_four_batch))


def per_call_rate(play_one: Callable[[], object], seconds: float) -> float:
    """Calls of ``play_one`` per second, over about ``seconds``."""
    play_one()  # compiles or loads the kernels before the clock starts
    n, chunk = 0, 10
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(chunk):
            play_one()
        n += chunk
    return n / elapsed


def batch_rate(play_many: Callable[[int], object], seconds: float, trial: int) -> float:
    """Games per second of ``play_many(n)``, with ``n`` sized from a ``trial`` run so
    that the measured call lasts about ``seconds``."""
    play_many(trial)
    start = time.perf_counter()
    play_many(trial)
    n = max(trial, int(trial * seconds / (time.perf_counter() - start)))
    start = time.perf_counter()
    play_many(n)
    return n / (time.perf_counter() - start)


def boardlab_rates(subject: Subject, seconds: float) -> dict[str, float]:
    state = boardlab.load(subject.name).initial_state()
    rng = random.Random(1)
    seeds = iter(range(1, 1 << 62))
    return {
        "generic": per_call_rate(lambda: State.rollout(state, rng), seconds),
        "rollout": per_call_rate(lambda: state.rollout(rng), seconds),
        "batch": batch_rate(lambda n: subject.batch(state, n, next(seeds)), seconds, 10_000),
    }


def openspiel_rates(pyspiel: ModuleType, subject: Subject, seconds: float) -> dict[str, float]:
    game = pyspiel.load_game(subject.openspiel_name)
    bots = [pyspiel.make_uniform_random_bot(p, 1 + p) for p in range(2)]
    seeds = iter(range(1, 1 << 62))

    def one_game() -> object:
        # evaluate_bots plays on the state it is given, so each game gets a fresh one
        return pyspiel.evaluate_bots(game.new_initial_state(), bots,
                                     next(seeds))

    def many_games(n: int) -> object:
        evaluator = pyspiel.RandomRolloutEvaluator(n, next(seeds))
        # one simulation: the root is evaluated, i.e. n playouts from it, and nothing else
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, 1, 1000, False,
                              next(seeds), False)
        root = bot.mcts_search(game.new_initial_state())
        assert root.explore_count == 1 and not root.children
        return root

    return {"game": per_call_rate(one_game, seconds),
            "batch": batch_rate(many_games, seconds, 2_000)}


#: Games compared through the same Python loop: boardlab name, OpenSpiel name.
LOOP_GAMES = (("tic-tac-toe", "tic_tac_toe"), ("connect-four", "connect_four"),
              ("breakthrough", "breakthrough"))


def boardlab_loop(name: str, rng: random.Random, kernels: bool = True
                  ) -> Callable[[], object]:
    """One uniformly random game through the protocol: ``legal_moves``, ``apply``,
    ``is_terminal`` from Python (no rollout override, no batch kernel). Without
    ``kernels``, a game that has one (:mod:`boardlab.core.kernel`) plays on plain
    positions with compiled templates instead."""
    game = boardlab.load(name)

    def play() -> int:
        if kernels:
            state = game.initial_state()
        else:
            with kernel.disabled():
                state = game.initial_state()
        plies = 0
        while not state.is_terminal():
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
            plies += 1
        return plies
    return play


def openspiel_loop(pyspiel: ModuleType, name: str, rng: random.Random) -> Callable[[], object]:
    """The same loop over OpenSpiel's C++ game: ``legal_actions``, ``apply_action``,
    ``is_terminal`` from Python."""
    game = pyspiel.load_game(name)

    def play() -> int:
        state = game.new_initial_state()
        plies = 0
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            plies += 1
        return plies
    return play


def rate_text(rate: float) -> str:
    return f"{rate:>13,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="seconds of play per figure (default 1.0)")
    args = parser.parse_args()

    try:
        import pyspiel
    except ImportError as e:
        pyspiel = None
        print(f"OpenSpiel is not importable ({e}); showing boardlab's figures only.\n"
              "Install it with `pip install open_spiel` (or the 'bench' extra).\n")

    print(f"Random playouts per second from the initial position "
          f"({args.seconds:g} s per figure)\n")
    label_width = 52
    print(f"{'':<{label_width}}{'playouts/s':>13}  boardlab/OpenSpiel")
    for subject in SUBJECTS:
        ours = boardlab_rates(subject, args.seconds)
        theirs = openspiel_rates(pyspiel, subject, args.seconds) if pyspiel else None
        rows = [
            ("boardlab generic (legal_moves/apply loop)", ours["generic"], "game"),
            ("boardlab rollout() (numba kernel, per call)", ours["rollout"], "game"),
            ("boardlab fast batch (numba kernel, N per call)", ours["batch"], "batch"),
        ]
        print(subject.name)
        for label, rate, kind in rows:
            ratio = (f"{rate / theirs[kind]:8.2f}  vs OpenSpiel {kind}" if theirs
                     else "       -")
            print(f"  {label:<{label_width - 2}}{rate_text(rate)}  {ratio}")
        if theirs:
            print(f"  {'OpenSpiel game (C++ evaluate_bots, per call)':<{label_width - 2}}"
                  f"{rate_text(theirs['game'])}")
            print(f"  {'OpenSpiel batch (C++ RandomRolloutEvaluator)':<{label_width - 2}}"
                  f"{rate_text(theirs['batch'])}")

    print("\nThe same Python loop (legal moves, a random one applied, until the end): "
          "games/s, best of two runs each, alternating")
    for name, openspiel_name in LOOP_GAMES:
        variants = [(name, True)]
        if kernel.plan_for(boardlab.load(name)) is not None:
            variants.append((f"{name} (no kernel)", False))
        theirs = None
        if pyspiel:
            theirs = 0.0
        for label, kernels in variants:
            ours = 0.0
            for _ in range(2):
                ours = max(ours, per_call_rate(boardlab_loop(name, random.Random(1), kernels),
                                               args.seconds))
                if pyspiel and kernels:
                    theirs = max(theirs, per_call_rate(  # type: ignore[type-var]
                        openspiel_loop(pyspiel, openspiel_name, random.Random(1)),
                        args.seconds))
            line = f"  {label:<26} boardlab {rate_text(ours)}"
            if theirs:
                line += f"   OpenSpiel C++ {rate_text(theirs)}   ratio {ours / theirs:6.3f}"
            print(line)


if __name__ == "__main__":
    main()
