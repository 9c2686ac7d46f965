"""Perft of every registered game with published counts, at every published depth.

Prints the nodes per depth, whether they match, the time and the rate. The tests run
only the shallow levels of the same table (tests/test_conformance.py).

    python benchmarks/perft.py [GAME ...] [--max-depth D]
"""

from __future__ import annotations

import argparse
import time

import boardlab
from boardlab.core.game import perft
from boardlab.core.registry import game_class


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*")
    parser.add_argument("--max-depth", type=int, default=99)
    args = parser.parse_args()
    names = args.games or [n for n in boardlab.names() if game_class(n).known_perft]
    print(f"{'game':<20} {'depth':>5} {'nodes':>12} {'published':>12} {'ok':>3} "
          f"{'seconds':>9} {'nodes/s':>10}")
    for name in names:
        game = boardlab.load(name)
        for depth, published in enumerate(game.known_perft[: args.max_depth], start=1):
            start = time.perf_counter()
            nodes = perft(game.initial_state(), depth)[-1]
            seconds = time.perf_counter() - start
            ok = "yes" if nodes == published else "NO"
            print(f"{name:<20} {depth:>5} {nodes:>12} {published:>12} {ok:>3} "
                  f"{seconds:>9.2f} {nodes / max(seconds, 1e-9):>10.0f}", flush=True)


if __name__ == "__main__":
    main()
