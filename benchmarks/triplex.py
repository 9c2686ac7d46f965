"""Triplex level generation: time per rectangle of the seed's table and in total.

Baselines, side by side:

* ``seed``: the published times of the article's generator (Java, partition
  enumeration; ../shared/seeds/000_*.txt, "table of sizes"): 45 days through area 36;
* ``python``: a plain Python count-vector generator (first-empty-cell search, no numba,
  no memo, no pocket pruning) run here in the same process, for sizes where it finishes
  within ``--python-budget`` seconds.

    python benchmarks/triplex.py                 # the seed's sizes, then the full run
    python benchmarks/triplex.py --max-area 64   # also every rectangle up to area 64
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from boardlab.puzzles.polyomino.generator import generate_levels, levels_of_size, sizes_up_to
from boardlab.puzzles.polyomino.shapes import PIECE_SETS
from boardlab.puzzles.polyomino.solver import RectangleSolver
from boardlab.puzzles.polyomino.vectors import canonical_vectors, has_straight_cut

SEED = {  # size: (levels, seconds of the seed's generator)
    (4, 2): (2, 0), (3, 3): (1, 0), (5, 2): (1, 0), (4, 3): (4, 0), (5, 3): (6, 0),
    (4, 4): (5, 0), (6, 3): (8, 0), (5, 4): (48, 0), (7, 3): (16, 0), (6, 4): (27, 120),
    (8, 3): (16, 60), (5, 5): (22, 180), (9, 3): (19, 720), (7, 4): (45, 41 * 60),
    (6, 5): (55, 3 * 3600), (10, 3): (19, 2 * 3600), (8, 4): (112, 17 * 3600),
    (11, 3): (22, 20 * 3600), (7, 5): (158, 7 * 86400), (6, 6): (46, 12 * 86400),
    (9, 4): (69, 16 * 86400), (12, 3): (None, 8 * 86400),
}
TRIPLEX = PIECE_SETS["triplex"][0]


def python_levels(width: int, height: int) -> int:
    """Level count by the plain Python baseline (same vectors and rules, naive search)."""
    index = {s: i for i, s in enumerate(TRIPLEX)}
    by_anchor: dict[int, list[tuple[int, int, list[tuple[int, int]]]]] = {}
    for s in TRIPLEX:
        for ox in range(width):
            for oy in range(height):
                cells = [(ox + x, oy + y) for x, y in s.cells]
                if all(0 <= x < width and 0 <= y < height for x, y in cells):
                    bits = sorted(x * height + y for x, y in cells)
                    by_anchor.setdefault(bits[0], []).append(
                        (index[s], sum(1 << b for b in bits), cells))
    full = (1 << (width * height)) - 1
    found = 0
    for vector in canonical_vectors(TRIPLEX, width, height).tolist():
        solutions = _python_search(by_anchor, full, list(vector))
        if len(solutions) == 1 and not has_straight_cut(width, height, solutions[0]):
            found += 1
    return found


def _python_search(by_anchor, full: int, counts: list[int]) -> list[list]:
    """Up to two tilings: cover the first empty cell, column by column."""
    placed: list = []
    solutions: list[list] = []

    def walk(occupied: int) -> bool:
        if occupied == full:
            solutions.append(list(placed))
            return len(solutions) >= 2
        cell = (~occupied & (occupied + 1)).bit_length() - 1
        for kind, mask, cells in by_anchor.get(cell, ()):
            if counts[kind] and not occupied & mask:
                counts[kind] -= 1
                placed.append(cells)
                if walk(occupied | mask):
                    return True
                placed.pop()
                counts[kind] += 1
        return False

    walk(0)
    return solutions


def search_levels(width: int, height: int) -> int:
    """Level count by boardlab's search alone (the same work as the Python baseline:
    vectors, counts up to 2, straight cuts; no rotatable piece, no difficulty)."""
    solver = RectangleSolver(width, height, TRIPLEX)
    vectors = canonical_vectors(TRIPLEX, width, height)
    counts, _, first = solver.solve_counts(vectors, limit=2, shared_table=True)
    found = 0
    for row in np.flatnonzero(counts == 1):
        cells = [solver.placement(int(p))[1] for p in first[row] if p >= 0]
        found += not has_straight_cut(width, height, cells)
    return found


def human(seconds: float) -> str:
    """Seconds as s/min/h/days."""
    for unit, size in (("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.1f} {unit}"
    return f"{seconds:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-area", type=int, default=36)
    parser.add_argument("--python-budget", type=float, default=20.0,
                        help="skip the Python baseline for sizes after one took this long")
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    levels_of_size(4, 2)  # compile (numba caches to disk) before timing
    search_levels(4, 2)
    print("boardlab = the whole pipeline (levels with rotatable piece and difficulty);")
    print("search = boardlab's search alone, the same work as the python baseline.")
    print(f"{'size':>6} {'levels':>6} {'seed':>6} {'boardlab':>10} {'search':>9} "
          f"{'python':>10} {'seed time':>10} {'python/search':>13} {'seed/boardlab':>13}")
    python_on = True
    total = 0.0
    for w, h in sorted(SEED, key=lambda s: (s[0] * s[1], -s[0])):
        start = time.perf_counter()
        count = len(levels_of_size(w, h))
        ours = time.perf_counter() - start
        total += ours
        start = time.perf_counter()
        assert search_levels(w, h) == count
        search = time.perf_counter() - start
        py = None
        if python_on:
            start = time.perf_counter()
            py_count = python_levels(w, h)
            py = time.perf_counter() - start
            assert py_count == count, (w, h, py_count, count)
            python_on = py < args.python_budget
        published, seed_seconds = SEED[(w, h)]
        ok = "" if published is None or published == count else " MISMATCH"
        print(f"{w}x{h:<4} {count:>6} {published or '20+':>6} {human(ours):>10} "
              f"{human(search):>9} {human(py) if py is not None else '-':>10} "
              f"{human(seed_seconds):>10} {py / search if py else float('nan'):>13.1f} "
              f"{seed_seconds / ours if seed_seconds else float('nan'):>13.0f}{ok}",
              flush=True)
    print(f"sum of per-size times (one core, serial): {human(total)}; seed: 45 days")
    start = time.perf_counter()
    levels = generate_levels(sizes_up_to(36), backend="process", workers=args.workers,
                             progress=False)
    wall = time.perf_counter() - start
    print(f"full run through area 36, process backend: {len(levels)} levels in "
          f"{human(wall)} wall (goal <= 10 s; seed 45 days = {45 * 86400 / wall:.0f}x)")
    if args.max_area > 36:
        sizes = [s for s in sizes_up_to(args.max_area) if s[0] * s[1] > 36]
        start = time.perf_counter()
        big = generate_levels(sizes, backend="process", workers=args.workers, progress=True)
        wall = time.perf_counter() - start
        per_size: dict[tuple[int, int], int] = {}
        for level in big:
            per_size[(level.width, level.height)] = per_size.get((level.width,
                                                                  level.height), 0) + 1
        print(f"areas 37..{args.max_area}: {len(big)} levels in {human(wall)} "
              f"(a reader's program: half a day for area 64)")
        for (w, h), n in sorted(per_size.items(), key=lambda kv: (kv[0][0] * kv[0][1],
                                                                   -kv[0][0])):
            print(f"  {w}x{h}: {n}")


if __name__ == "__main__":
    main()
