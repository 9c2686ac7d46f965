"""Nine and three men's morris on their game kernels: random games per CPU-second, perft
and MCTS, beside OpenSpiel's C++ nine men's morris (when ``pyspiel`` is installed).

    python benchmarks/morris.py [--games 20000] [--depth 5]

Figures (random games a CPU-second from the start): the kernel's batch
(``State.playouts``), the generic Python loop over the kernel position
(``State.rollout`` of the protocol, one kernel call a ply), the interpreter (no kernel),
and OpenSpiel's game driven from Python with uniform random moves.
Then perft from the start to ``--depth`` and MCTS's 5,000 iterations from the start, in
CPU seconds. The first run compiles the kernels (about 15 s of CPU), cached afterwards.
"""

from __future__ import annotations

import argparse
import random
import time

from boardlab import load
from boardlab.ai.mcts import search
from boardlab.core.engine import Engine
from boardlab.core.game import State, perft


def per_cpu_second(play, games: int) -> float:
    """Games a CPU-second of ``play(games)``."""
    start = time.process_time()
    play(games)
    return games / (time.process_time() - start)


def loop(state: State, games: int) -> None:
    """``games`` random games by the generic protocol loop."""
    rng = random.Random(1)
    for _ in range(games):
        State.rollout(state, rng)


def spiel_games(games: int) -> None:
    """``games`` uniformly random games of OpenSpiel's C++ nine men's morris."""
    import pyspiel

    game = pyspiel.load_game("nine_mens_morris")
    rng = random.Random(1)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--depth", type=int, default=5)
    args = parser.parse_args()
    for name in ("nine-mens-morris", "three-mens-morris"):
        report(name, args.games, args.depth)


def report(name: str, games: int, depth: int) -> None:
    """Print the figures of the game ``name``."""
    game = load(name)
    state = game.initial_state()
    state.playouts(10, seed=0)  # compiled (or loaded from the cache) now
    print(f"{name}: random games a CPU-second")
    batch = per_cpu_second(lambda n: state.playouts(n, seed=1), games)
    print(f"  kernel batch      {batch:10,.0f}")
    print(f"  loop over kernel  {per_cpu_second(lambda n: loop(state, n), games // 20):10,.0f}")
    plain = game.using(Engine.INTERPRETER).initial_state()
    print(f"  interpreter       {per_cpu_second(lambda n: loop(plain, n), 30):10,.0f}")
    if name == "nine-mens-morris":
        try:
            print(f"  OpenSpiel (C++)   {per_cpu_second(spiel_games, games // 20):10,.0f}")
        except ImportError:
            print("  OpenSpiel (C++)   pyspiel is not installed")
        start = time.process_time()
        counts = perft(state, depth)
        print(f"  perft({depth}) {counts[-1]:,} in {time.process_time() - start:.2f} s")
    search(state, random.Random(0), iterations=200)
    start = time.process_time()
    search(state, random.Random(1), iterations=5000)
    print(f"  MCTS 5,000 iterations {time.process_time() - start:.3f} s")

if __name__ == "__main__":
    main()
