"""Plumber: exact solution counts of random square grids by the frontier DP.

For each size (8x8 ... 20x20) a few seeded random grids (each cell an elbow with
probability 50%, a straight 45%, empty 5%; tap above the top-left cell, drain below the
bottom-right cell) are counted by :func:`boardlab.puzzles.pipes.count.count_solutions`
(numba kernel): time per grid (mean and worst), the largest count and its number of digits.
Next to them the named baseline, the pure-Python plug DP of the issue (159 s at 18x18,
about 3x per extra column), and, for the small sizes, this module's own DP run as plain
Python (``NUMBA_DISABLE_JIT=1`` in a subprocess) to show the compiled/interpreted ratio.

``--dense`` adds a harder series: 70% elbows, 30% straights, no empty cells, where far
more pipe pieces stay open across the frontier.

Usage: ``python benchmarks/pipes_count.py [--grids 5] [--dense] [--python-max 12]``.
The first run also compiles the kernel (cached afterwards in ``__pycache__``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

from boardlab.puzzles.pipes.count import count_solutions

SIZES = (8, 10, 12, 14, 16, 18, 20)
# The figure for a pure-Python plug DP: 159 s at 18x18, about 3x per extra column.
BASELINE_SECONDS_18 = 159.0
BASELINE_GROWTH = 3.0


def random_grid(size: int, seed: int, weights: tuple[int, int, int]) -> list[str]:
    rng = random.Random(f"pipes-{size}-{seed}-{weights}")
    return [
        "".join(rng.choices("LI.", weights=weights, k=size)) for _ in range(size)
    ]


def baseline(size: int) -> str:
    seconds = BASELINE_SECONDS_18 * BASELINE_GROWTH ** (size - 18)
    return f"{seconds:.3g}" + ("" if size == 18 else " (est.)")


def python_seconds(grids: list[list[str]]) -> float:
    """Mean seconds per grid of the same DP interpreted (numba JIT off), in a subprocess."""
    code = (
        "import json, sys, time\n"
        "import numpy as np\n"
        "from boardlab.puzzles.pipes.count import count_solutions\n"
        "np.seterr(over='ignore')  # the hash multiplication wraps on purpose\n"
        "grids = json.loads(sys.stdin.read())\n"
        "t = time.perf_counter()\n"
        "for g in grids: count_solutions(g)\n"
        "print((time.perf_counter() - t) / len(grids))\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code], input=json.dumps(grids), env=env,
                         capture_output=True, text=True, check=True)
    return float(out.stdout)


def series(title: str, weights: tuple[int, int, int], grids: int, python_max: int,
           sizes: tuple[int, ...]) -> None:
    print(title)
    print(f"{'size':>5} {'mean s':>8} {'worst s':>8} {'max count':>22} {'digits':>6} | "
          f"{'py DP s':>8} {'ratio':>7} | {'baseline s':>14}")
    for size in sizes:
        batch = [random_grid(size, seed, weights) for seed in range(grids)]
        times, counts = [], []
        for kinds in batch:
            t = time.perf_counter()
            counts.append(count_solutions(kinds))
            times.append(time.perf_counter() - t)
        mean = statistics.mean(times)
        best = max(counts)
        shown = str(best) if len(str(best)) <= 22 else str(best)[:19] + "..."
        if size <= python_max:
            py = python_seconds(batch)
            py_text, ratio = f"{py:8.3f}", f"{py / mean:7.0f}"
        else:
            py_text, ratio = f"{'-':>8}", f"{'-':>7}"
        print(f"{size:>2}x{size:<2} {mean:8.3f} {max(times):8.3f} {shown:>22} "
              f"{len(str(best)):>6} | {py_text} {ratio} | {baseline(size):>14}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grids", type=int, default=5, help="random grids per size")
    parser.add_argument("--dense", action="store_true", help="add the 70%% elbow series")
    parser.add_argument("--dense-max", type=int, default=16, help="largest dense size")
    parser.add_argument("--python-max", type=int, default=12,
                        help="largest size also run as plain Python")
    args = parser.parse_args()
    count_solutions(["L"])  # compile (or load the cached kernel) outside the timings
    series("Random grids: 50% elbows, 45% straights, 5% empty", (50, 45, 5), args.grids,
           args.python_max, SIZES)
    if args.dense:
        print()
        sizes = tuple(s for s in SIZES if s <= args.dense_max)
        series("Dense grids: 70% elbows, 30% straights", (70, 30, 0), args.grids,
               min(args.python_max, 10), sizes)


if __name__ == "__main__":
    main()
