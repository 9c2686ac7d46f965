"""The polyomino solver: pentomino rectangles, scan direction, and the Triplex batch.

1. All tilings of the 3x20, 4x15, 5x12 and 6x10 rectangles by the 12 free pentominoes
   (raw counts 8, 1472, 4040, 9356; 2, 368, 1010, 2339 up to symmetry), with the cells
   numbered along the short side (the solver's choice) and along the long side, side by
   side: time, steps (placements made) and the long/short ratios.
2. :class:`RectangleSolver` on every Triplex piece-count vector of a 36-cell rectangle
   (6x6, 9x4, 12x3: ``2(a1 + a2) + 3(a3 + ... + a8) = 36``, 33822 vectors each), with a
   fresh transposition table per vector (steps as :func:`solve` reports them) and with
   one table shared by the batch: vectors per second.

Usage: ``python benchmarks/polyomino_solver.py [--quick]``; ``--quick`` leaves out the
two slowest long-side searches (4x15 and 5x12, about a minute together). The first run
also compiles the kernels (cached afterwards in ``__pycache__``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from boardlab.puzzles.polyomino.region import Region
from boardlab.puzzles.polyomino.shapes import PIECE_SETS
from boardlab.puzzles.polyomino.solver import (
    PieceKind,
    RectangleSolver,
    distinct_up_to_symmetry,
    solve,
)

PENTOMINO_RECTANGLES = ((20, 3), (15, 4), (12, 5), (10, 6))
SLOW_LONG_SIDE = {(15, 4), (12, 5)}
TRIPLEX_RECTANGLES = ((6, 6), (9, 4), (12, 3))


def count_vectors(area: int, sizes: list[int]) -> np.ndarray:
    """Every vector of non-negative counts with ``sum(count * size) == area``."""
    rows: list[list[int]] = [[]]
    left = [area]
    for size in sizes:
        rows_next, left_next = [], []
        for row, rest in zip(rows, left, strict=True):
            for n in range(rest // size + 1):
                rows_next.append([*row, n])
                left_next.append(rest - n * size)
        rows, left = rows_next, left_next
    return np.array([r for r, rest in zip(rows, left, strict=True) if rest == 0], np.int64)


def pentominoes(quick: bool) -> None:
    kinds = [PieceKind.free(s) for s in PIECE_SETS["pentominoes"][0]]
    print("12 pentominoes, all tilings (collected), cells numbered along each side")
    print(f"{'rectangle':>9} {'tilings':>8} {'distinct':>8} | {'short s':>8} {'steps':>11} | "
          f"{'long s':>8} {'steps':>11} | {'time x':>7} {'steps x':>7}")
    for width, height in PENTOMINO_RECTANGLES:
        region = Region.rectangle(width, height)
        t = time.perf_counter()
        short = solve(region, kinds)
        short_time = time.perf_counter() - t
        distinct = len(distinct_up_to_symmetry(short.solutions, region))
        line = (f"{height}x{width:<7} {short.count:>8} {distinct:>8} | {short_time:>8.2f} "
                f"{short.steps:>11,} | ")
        if quick and (width, height) in SLOW_LONG_SIDE:
            print(line + "(left out: --quick)", flush=True)
            continue
        t = time.perf_counter()
        long = solve(region, kinds, scan="long")
        long_time = time.perf_counter() - t
        assert long.count == short.count
        print(line + f"{long_time:>8.2f} {long.steps:>11,} | {long_time / short_time:>7.0f} "
              f"{long.steps / short.steps:>7.0f}", flush=True)


def triplex_batch() -> None:
    shapes = PIECE_SETS["triplex"][0]
    sizes = [s.size for s in shapes]
    print()
    print("Triplex: every count vector of a 36-cell rectangle, RectangleSolver.solve_counts"
          "(limit=2)")
    print(f"{'rectangle':>9} {'vectors':>8} {'unique':>6} | {'own tables s':>12} "
          f"{'vectors/s':>10} {'steps':>11} | {'shared s':>8} {'vectors/s':>10}")
    for width, height in TRIPLEX_RECTANGLES:
        vectors = count_vectors(width * height, sizes)
        batch = RectangleSolver(width, height, shapes)
        t = time.perf_counter()
        counts, steps, _ = batch.solve_counts(vectors, limit=2)
        own = time.perf_counter() - t
        t = time.perf_counter()
        shared_counts, _, _ = batch.solve_counts(vectors, limit=2, shared_table=True)
        shared = time.perf_counter() - t
        assert np.array_equal(counts, shared_counts)
        print(f"{width}x{height:<7} {len(vectors):>8} {int((counts == 1).sum()):>6} | "
              f"{own:>12.2f} {len(vectors) / own:>10,.0f} {int(steps.sum()):>11,} | "
              f"{shared:>8.2f} {len(vectors) / shared:>10,.0f}", flush=True)


def warm_up() -> None:
    t = time.perf_counter()
    region = Region.rectangle(5, 2)
    solve(region, [PieceKind.free(PIECE_SETS["pentominoes"][0][0], 2)])
    RectangleSolver(4, 2, PIECE_SETS["triplex"][0]).solve_counts(
        np.array([[4, 0, 0, 0, 0, 0, 0, 0]]), shared_table=True)
    print(f"(kernels loaded or compiled in {time.perf_counter() - t:.1f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="leave out the long-side searches of 4x15 and 5x12")
    args = parser.parse_args()
    warm_up()
    pentominoes(args.quick)
    triplex_batch()


if __name__ == "__main__":
    main()
