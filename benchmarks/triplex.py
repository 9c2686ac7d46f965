"""Triplex level generation: CPU per rectangle of the seed's table and in total.

Baselines, side by side:

* ``C``: ``benchmarks/triplex_dfs.c``, a plain depth-first program in C doing the
  pipeline's work (count vectors, one per symmetry orbit, tilings counted up to 2, straight
  cuts, rotatable candidates, a complete search per candidate), compiled here with
  ``cc -O2 -march=native`` and run in the same session; its CPU is its own
  ``CLOCK_PROCESS_CPUTIME_ID``. Its levels are compared with boardlab's, vector by
  vector.
* ``seed``: the published times of the article's generator (Java, partition
  enumeration; ../shared/seeds/000_*.txt, "table of sizes"): 45 days through area 36;
* ``partitions``: boardlab's own version of the seed's first method
  (:mod:`boardlab.puzzles.polyomino.partitions`: the edge-state loop with its seven
  filters, compiled), for rectangles up to ``--partitions-area`` cells (default 28); its
  levels are checked equal to the vector method's, on the seed's rectangles and on every
  other rectangle up to that area (the tests check them up to area 25);
* ``python``: a plain Python count-vector generator (first-empty-cell search, no numba,
  no memo, no pocket pruning) run here in the same process, for sizes where it finishes
  within ``--python-budget`` seconds.

boardlab's CPU is ``time.process_time()`` around the pipeline in this process (serial
backend) after the kernels are loaded, with every cache of the generator emptied before
each measurement (the memo of :mod:`boardlab.puzzles.polyomino.unique` included), so no
measurement profits from an earlier one.

    python benchmarks/triplex.py                 # the seed's sizes, then the full run
    python benchmarks/triplex.py --max-area 64   # also every rectangle up to area 64
    python benchmarks/triplex.py --partitions-area 20 --max-area 20   # a quick look
"""

from __future__ import annotations

import argparse
import collections
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from boardlab.puzzles.polyomino import generator, unique
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


C_SOURCE = Path(__file__).with_name("triplex_dfs.c")


def build_c(directory: Path) -> Path:
    """``triplex_dfs.c`` compiled with the machine's C compiler."""
    binary = directory / "triplex_dfs"
    subprocess.run(["cc", "-O2", "-march=native", "-o", str(binary), str(C_SOURCE)],
                   check=True)
    return binary


def run_c(binary: Path, max_area: int) -> tuple[dict, dict]:
    """The C program's ``{(w, h): (levels, cpu seconds)}`` and ``{(w, h): Counter of level
    count vectors}``."""
    out = subprocess.run([str(binary), str(max_area), "--levels"], check=True,
                         capture_output=True, text=True).stdout
    sizes: dict[tuple[int, int], tuple[int, float]] = {}
    vectors: dict[tuple[int, int], collections.Counter] = collections.defaultdict(
        collections.Counter)
    for line in out.splitlines():
        words = line.split()
        if words[0] == "size":
            sizes[int(words[1]), int(words[2])] = (int(words[6]), float(words[10]))
        elif words[0] == "level":
            vectors[int(words[1]), int(words[2])][tuple(map(int, words[3:]))] += 1
    return sizes, vectors


def level_vectors(levels) -> collections.Counter:
    """The count vectors (one count per Triplex shape) of levels."""
    index = {s: i for i, s in enumerate(TRIPLEX)}
    out: collections.Counter = collections.Counter()
    for level in levels:
        vector = [0] * len(TRIPLEX)
        for piece in level.pieces:
            vector[index[piece]] += 1
        out[tuple(vector)] += 1
    return out


def fresh() -> None:
    """Empty every cache of the generator, so a measurement starts from nothing."""
    for cached in (generator._vectors, generator._solver, generator._difficulty_solver):
        cached.cache_clear()
    unique.clear_memo()


def cpu(function, *args, **kwargs):
    """``(result, CPU seconds)`` of a call made from empty caches."""
    fresh()
    start = time.process_time()
    result = function(*args, **kwargs)
    return result, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-area", type=int, default=36)
    parser.add_argument("--python-budget", type=float, default=20.0,
                        help="skip the Python baseline for sizes after one took this long")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--partitions-area", type=int, default=28,
                        help="time the partition method on rectangles up to this area")
    args = parser.parse_args()
    levels_of_size(4, 2)  # compile (numba caches to disk) before timing
    levels_of_size(4, 2, method="partitions")
    search_levels(4, 2)
    with tempfile.TemporaryDirectory() as tmp:
        c_sizes, c_vectors = run_c(build_c(Path(tmp)), min(args.max_area, 36))
    print("boardlab = the whole pipeline, serial, CPU (levels with rotatable piece and "
          "difficulty);")
    print("C = benchmarks/triplex_dfs.c, the same pipeline by a plain depth-first search;")
    print("search = boardlab's search alone, the same work as the python baseline;")
    print(f"partitions = the seed's edge-state method (boardlab's), up to area "
          f"{args.partitions_area}.")
    print(f"{'size':>6} {'levels':>6} {'seed':>5} {'C':>8} {'boardlab':>9} {'/C':>6} "
          f"{'partitions':>10} {'search':>8} {'python':>9} {'seed time':>10} "
          f"{'seed/boardlab':>13}")
    python_on = True
    total = total_c = 0.0
    for w, h in sorted(SEED, key=lambda s: (s[0] * s[1], -s[0])):
        if w * h > args.max_area:
            continue
        levels, ours = cpu(levels_of_size, w, h)
        count = len(levels)
        total += ours
        c_count, c_seconds = c_sizes[w, h]
        total_c += c_seconds
        assert c_count == count and c_vectors[w, h] == level_vectors(levels), (w, h)
        found, search = cpu(search_levels, w, h)
        assert found == count
        part = None
        if w * h <= args.partitions_area:
            by_partitions, part = cpu(levels_of_size, w, h, method="partitions")
            assert by_partitions == levels, (w, h)
        py = None
        if python_on:
            start = time.process_time()
            py_count = python_levels(w, h)
            py = time.process_time() - start
            assert py_count == count, (w, h, py_count, count)
            python_on = py < args.python_budget
        published, seed_seconds = SEED[(w, h)]
        ok = "" if published is None or published == count else " MISMATCH"
        print(f"{w}x{h:<4} {count:>6} {published or '20+':>5} {c_seconds:>8.4f} "
              f"{ours:>9.4f} {ours / c_seconds:>6.2f} "
              f"{human(part) if part is not None else '-':>10} {search:>8.4f} "
              f"{human(py) if py is not None else '-':>9} {human(seed_seconds):>10} "
              f"{seed_seconds / ours if seed_seconds else float('nan'):>13.0f}{ok}",
              flush=True)
    print(f"sum over these sizes: C {total_c:.3f} s, boardlab {total:.3f} s CPU "
          f"({total / total_c:.2f}x C)")
    # The rectangles the seed's table leaves out, up to --partitions-area: both methods
    # again (the tests compare them up to area 25).
    others = [s for s in sizes_up_to(args.partitions_area) if s not in SEED]
    for w, h in others:
        by_partitions, part = cpu(levels_of_size, w, h, method="partitions")
        levels, ours = cpu(levels_of_size, w, h)
        assert by_partitions == levels, (w, h)
    if others:
        print(f"partitions = vector method on the {len(others)} other rectangles up to area "
              f"{args.partitions_area} too")
    if args.max_area < 36:  # a quick look: no full run
        return
    sizes = sizes_up_to(36)
    levels, ours = cpu(generate_levels, sizes, backend="serial", progress=False)
    all_c = sum(c for _, c in c_sizes.values())
    assert sum(n for n, _ in c_sizes.values()) == len(levels)
    print(f"whole run through area 36 ({len(sizes)} rectangles, {len(levels)} levels), "
          f"serial: boardlab {ours:.3f} s CPU, C {all_c:.3f} s: {ours / all_c:.2f}x C")
    start = time.perf_counter()
    levels = generate_levels(sizes, backend="process", workers=args.workers, progress=False)
    wall = time.perf_counter() - start
    print(f"full run through area 36, process backend: {len(levels)} levels in "
          f"{human(wall)} wall (seed 45 days = {45 * 86400 / wall:.0f}x)")
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
