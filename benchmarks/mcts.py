"""Monte Carlo tree search iterations per CPU-second: boardlab's search whole in the game
kernel against OpenSpiel's C++ ``MCTSBot``, side by side in one run.

Each subject runs UCT (exploration sqrt(2), MCTS-Solver, one uniformly random playout
to the end per iteration) from the initial position for a fixed number of iterations;
the figure is iterations per CPU-second (``time.process_time``: the machine may be
shared), the median of alternating rounds:

* boardlab kernel: :func:`boardlab.ai.mcts.search`, which runs the whole search in the
  game's kernel (:mod:`boardlab.core.kernel.search`) -- what the MCTS bot does on every
  kernel game whose playouts need no heuristic;
* boardlab Python tree: the same search with its tree in Python (:class:`Node`) and each
  playout one kernel call -- what the bot did before, and still does with MAST or a
  heuristic at a playout cap;
* OpenSpiel: ``pyspiel.MCTSBot`` with ``RandomRolloutEvaluator(1)`` and ``solve=True``,
  ``mcts_search`` from the same position (its iterations read off the root's visits).

Tic-tac-toe, Connect Four, Breakthrough (8x8) and Othello (boardlab's are written in the
move language). The ratio is the kernel's rate over OpenSpiel's.

Then games as the bot searches them by default: playouts cut at 40 plies and scored by
the game's heuristic, which the kernel computes too (Breakthrough's piece-square table,
Othello's blend of terms, a rule file's material and mobility) -- the kernel's search
against the Python tree (OpenSpiel has no such search to compare), from a position four
random moves in.

Usage: ``python benchmarks/mcts.py [--rounds 3] [--games tic-tac-toe,connect-four]
[--iterations N]`` (iterations per round; by default a count per game that takes about
a second).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from boardlab import catalog, load
from boardlab.ai.mcts import Node, search

#: boardlab's name, OpenSpiel's, and the iterations a round runs.
GAMES = {
    "tic-tac-toe": ("tic_tac_toe", 200_000),
    "connect-four": ("connect_four", 100_000),
    "breakthrough": ("breakthrough", 10_000),
    "othello": ("othello", 5_000),
}


#: Games searched with capped playouts: Breakthrough (its piece-square table), Othello
#: (its blend of corners, mobility and discs) and rule files from the tests' corpus
#: (material and mobility).
CAPPED = ("breakthrough", "othello", "checkers/english-checkers.zrf", "chess/chess.zrf")
_CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "zrf"


def _timed(run: Callable[[], int]) -> tuple[int, float]:
    start = time.process_time()
    done = run()
    return done, time.process_time() - start


def _boardlab(name: str, iterations: int, python_tree: bool,
              cap: int | None = None) -> Callable[[], int]:
    state = (catalog.resolve(str(_CORPUS / name)) if name.endswith(".zrf")
             else load(name)).initial_state()
    if cap is not None:
        for seed in range(4):
            state.apply(random.Random(seed).choice(state.legal_moves()))
    seeds = iter(range(1, 1 << 30))

    def run() -> int:
        root = Node(None, None, -1, state.key()) if python_tree else None
        return search(state, random.Random(next(seeds)), iterations=iterations,
                      playout_depth=cap, root=root).iterations

    run()  # compiled and loaded before the clock starts
    return run


def _openspiel(name: str, iterations: int) -> Callable[[], int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    seeds = iter(range(1, 1 << 30))

    def run() -> int:
        seed = next(seeds)
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), math.sqrt(2),
                              iterations, 1 << 12, True, seed, False)
        return bot.mcts_search(game.new_initial_state()).explore_count

    return run


def _rates(subjects: dict[str, Callable[[], int]], rounds: int) -> dict[str, float]:
    """The median iterations per CPU-second of each subject, run in alternation."""
    rates: dict[str, list[float]] = {key: [] for key in subjects}
    for _ in range(rounds):
        for key, run in subjects.items():  # alternating, so load hits all alike
            done, seconds = _timed(run)
            rates[key].append(done / seconds)
    return {key: statistics.median(values) for key, values in rates.items()}


def main() -> None:
    """Print each game's iterations per CPU-second, three ways, and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--iterations", type=int, default=None)
    args = parser.parse_args()
    print(f"{'game':<14}{'boardlab kernel':>17}{'Python tree':>14}{'OpenSpiel':>12}"
          f"{'kernel/OpenSpiel':>18}")
    for name in args.games.split(","):
        spiel_name, default = GAMES[name]
        iterations = args.iterations or default
        subjects = {"kernel": _boardlab(name, iterations, False),
                    "python": _boardlab(name, max(1, iterations // 20), True)}
        spiel = _openspiel(spiel_name, iterations)
        if spiel is not None:
            subjects["openspiel"] = spiel
        median = _rates(subjects, args.rounds)
        ratio = (f"{median['kernel'] / median['openspiel']:.2f}x"
                 if "openspiel" in median else "-")
        print(f"{name:<14}{median['kernel']:>17,.0f}{median['python']:>14,.0f}"
              f"{median.get('openspiel', float('nan')):>12,.0f}{ratio:>18}")
    print(f"\n{'capped at 40 plies':<32}{'boardlab kernel':>17}{'Python tree':>14}"
          f"{'ratio':>8}")
    for name in CAPPED:
        iterations = args.iterations or 3000
        median = _rates({"kernel": _boardlab(name, iterations, False, 40),
                         "python": _boardlab(name, max(1, iterations // 4), True, 40)},
                        args.rounds)
        print(f"{name:<32}{median['kernel']:>17,.0f}{median['python']:>14,.0f}"
              f"{median['kernel'] / median['python']:>7.2f}x")


if __name__ == "__main__":
    main()
