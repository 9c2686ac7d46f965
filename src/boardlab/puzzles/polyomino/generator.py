"""The level generator: every unique-solution packing level of a rectangle.

Rules: :doc:`/triplex`. A level of a
``W x H`` rectangle is a multiset of fixed pieces that tiles it in exactly one way
(identical pieces interchangeable, whole-solution mirrors and turns counted as
different tilings), with at least 3 pieces and no straight cut; levels whose solutions
are images of each other under a symmetry of the rectangle are one level.

Method (the seed's faster "second approach", refined):

1. enumerate the piece-count vectors whose areas sum to ``W*H``
   (:mod:`~boardlab.puzzles.polyomino.vectors`), leaving out shapes that cannot fit;
2. keep one vector per symmetry orbit (a symmetry maps the tilings of a vector onto
   those of its image, so uniqueness is shared by the orbit);
3. count the tilings of each vector up to 2 in one compiled batch
   (:func:`~boardlab.puzzles.polyomino.unique.classify`: a depth-first search with a memo
   shared by all vectors; for sets of more than 10 shapes the solver's
   :class:`~boardlab.puzzles.polyomino.solver.RectangleSolver`); exactly 1 is a
   candidate, and its tiling comes back with the count;
4. drop candidates whose solution has a straight cut;
5. choose the rotatable piece: a piece qualifies when every *other* orientation of it
   makes a multiset with no tiling at all (asked in the same batch); among those, the one
   whose rotation makes the solver work hardest; it is shown in an orientation drawn
   from a generator seeded by the level itself and the pack seed (reproducible packs);
6. the difficulty is the solver's step count for the level as the player gets it (with
   the rotatable piece free to turn): :func:`difficulty`, computed for all the levels of
   a task in one batch with the same kinds in the same order, so the same steps.

``benchmarks/triplex.py`` times this pipeline against a plain depth-first program in C
(``benchmarks/triplex_dfs.c``), and the tests compare their levels.

Work is split into tasks of a few hundred vectors of one rectangle, run by
:func:`boardlab.puzzles.runner.run_tasks` (processes by default, or Ray), with a
checkpoint so that a killed run resumes with nothing lost or duplicated.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from boardlab.errors import PuzzleError
from boardlab.puzzles.polyomino import unique
from boardlab.puzzles.polyomino.level import Level, solution_checksum
from boardlab.puzzles.polyomino.partitions import with_rotatable
from boardlab.puzzles.polyomino.region import Region
from boardlab.puzzles.polyomino.report import SizeReport, orbit_total, size_report
from boardlab.puzzles.polyomino.shapes import Shape, piece_set, shape_order
from boardlab.puzzles.polyomino.solver import (
    NO_LIMIT,
    PieceKind,
    RectangleSolver,
    count_tilings,
    solve,
    warm_up,
)
from boardlab.puzzles.polyomino.vectors import (
    _symmetry_permutations,
    canonical_vectors,
    has_straight_cut,
)
from boardlab.puzzles.runner import Task, TimelinePoint, run_tasks

#: Piece sets whose levels use every shape at most once (BlockPuzzle, Pentaplex).
DISTINCT_SETS = frozenset({"penta", "pentominoes"})
CHUNK = 400  # vectors per task: small enough for smooth progress, large enough to amortise
#: Most rotatable pieces a level may have (the sets tried grow as candidates^K).
MAX_ROTATABLE = 4


#: The generator's methods: the vector method (here) and the seed's partition enumeration
#: (:mod:`~boardlab.puzzles.polyomino.partitions`).
METHODS = ("vectors", "partitions")


def sizes_up_to(max_area: int, *, min_side: int = 2) -> list[tuple[int, int]]:
    """Every rectangle ``W x H`` with ``W >= H >= min_side`` and area at most
    ``max_area``, by area then height (the seed's table order)."""
    out = [(w, h) for h in range(min_side, max_area + 1) for w in range(h, max_area + 1)
           if w * h <= max_area]
    return sorted(out, key=lambda s: (s[0] * s[1], -s[0]))


def check_size(width: int, height: int) -> tuple[int, int]:
    """``(W, H)`` with ``W >= H``; :class:`PuzzleError` when a side is below 2 or the area is
    beyond the 64 cells the compiled generator handles."""
    if min(width, height) < 2:
        raise PuzzleError(f"a level needs both sides >= 2, not {width}x{height}")
    width, height = max(width, height), min(width, height)
    if width * height > 64:
        raise PuzzleError(f"the generator handles areas up to 64 cells, not {width}x{height}"
                          f" = {width * height}")
    return width, height


@cache
def _shapes(pieces: str) -> tuple[Shape, ...]:
    shapes, free = piece_set(pieces)
    if free:
        raise PuzzleError(f"piece set {pieces!r} is of free pieces; levels need fixed shapes")
    return shapes


@cache
def _vectors(width: int, height: int, pieces: str) -> np.ndarray:
    return canonical_vectors(_shapes(pieces), width, height,
                             distinct=pieces in DISTINCT_SETS)


@cache
def _solver(width: int, height: int, pieces: str) -> RectangleSolver:
    return RectangleSolver(width, height, _shapes(pieces))


def size_tasks(width: int, height: int, pieces: str = "triplex", seed: int = 0,
               rotatable: int = 1) -> list[Task]:
    """The tasks that find every level of one rectangle, with up to ``rotatable`` pieces
    that may turn."""
    n = len(_vectors(width, height, pieces))
    return [Task(f"{pieces}:{width}x{height}:{start}",
                 # "format": what a result holds (2: level records), so that a checkpoint
                 # of another format is refused rather than misread
                 {"width": width, "height": height, "pieces": pieces, "start": start,
                  "stop": min(n, start + CHUNK), "seed": seed, "rotatable": rotatable,
                  "format": 4},
                 weight=float(min(n, start + CHUNK) - start))
            for start in range(0, n, CHUNK)]


def solve_chunk(payload: dict[str, Any]) -> dict[str, Any]:
    """Worker: the levels among vectors ``start:stop`` of a rectangle.

    Each level comes back as a record ``[k, shape_1, shown_1, ..., shape_k, shown_k,
    difficulty, *placements]``: the number of rotatable pieces, for each the index in the
    piece set of its shape and its shown orientation, the difficulty and the placement
    ids of the solution (see :meth:`RectangleSolver.placement`); :func:`level_of` turns
    it into a :class:`Level`.
    """
    started = time.perf_counter()
    width, height, pieces = payload["width"], payload["height"], payload["pieces"]
    shapes = _shapes(pieces)
    vectors = _vectors(width, height, pieces)[payload["start"]:payload["stop"]]
    solver = _solver(width, height, pieces)
    tally = {"unique": 0, "cut": 0}
    if unique.supports(width, height, shapes):
        found = _found_compiled(solver, vectors, tally)
    else:
        found = _found_batch(solver, shapes, vectors, tally)
    records = _finish(solver, shapes, found, payload["seed"], payload["rotatable"])
    # the report's stage counts (format 4): see boardlab.puzzles.polyomino.report
    stages = {"vectors": orbit_total(vectors.tolist(), _symmetry_permutations(
                  tuple(shapes), width == height)),
              "orbits": len(vectors), "solved": len(vectors), **tally,
              "levels": len(records), "rotatable": with_rotatable(solver, records)}
    return {"levels": records, "vectors": len(vectors), "stages": stages,
            "seconds": time.perf_counter() - started}


# (count vector, placement ids of its only tiling, set indices of the shapes that may be
# made rotatable)
_Found = tuple[np.ndarray, list[int], list[int]]


def _found_compiled(solver: RectangleSolver, vectors: np.ndarray,
                    tally: dict[str, int] | None = None) -> list[_Found]:
    classes, first, masks = unique.classify(solver, vectors)
    if tally is not None:  # vectors with one tiling, and those whose tiling has a cut
        tally["unique"] += int(np.count_nonzero((classes == unique.UNIQUE)
                                                | (classes == unique.CUT)))
        tally["cut"] += int(np.count_nonzero(classes == unique.CUT))
    found = []
    for row in np.flatnonzero(classes == unique.UNIQUE):
        pids = [int(p) for p in first[row] if p >= 0]
        mask = int(masks[row])
        if mask < 0:  # an orientation outside the set: ask the solver about each
            candidates = _candidates_of(solver, vectors[row], pids)
        else:
            candidates = [s for s in range(len(solver.shapes)) if mask >> s & 1]
        found.append((vectors[row], pids, candidates))
    return found


def _found_batch(solver: RectangleSolver, shapes: Sequence[Shape],
                 vectors: np.ndarray, tally: dict[str, int] | None = None) -> list[_Found]:
    # A table shared by the whole chunk finds the counts and tilings faster (its step
    # counts depend on the chunk; the difficulty is taken again in _finish).
    counts, _, first = solver.solve_counts(vectors, limit=2, shared_table=True)
    kept = []
    for row in np.flatnonzero(counts == 1):
        pids = [int(p) for p in first[row] if p >= 0]
        if not has_straight_cut(solver.region.width, solver.region.height,
                                [solver.placement(p)[1] for p in pids]):
            kept.append((vectors[row], pids))
    if tally is not None:
        tally["unique"] += int(np.count_nonzero(counts == 1))
        tally["cut"] += int(np.count_nonzero(counts == 1)) - len(kept)
    index = {s: i for i, s in enumerate(shapes)}
    candidates = _rotatable_candidates_batch(solver, shapes, [v for v, _ in kept])
    return [(vector, pids, _candidates_of(solver, vector, pids) if cands is None
             else [index[s] for s in cands])
            for (vector, pids), cands in zip(kept, candidates, strict=True)]


def _candidates_of(solver: RectangleSolver, vector: np.ndarray, pids: list[int]) -> list[int]:
    level = _plain_level(solver, pids)
    index = {s: i for i, s in enumerate(solver.shapes)}
    return sorted(index[level.pieces[i]] for i in rotatable_candidates(level))


def _placed(solver: RectangleSolver, pids: Sequence[int]
            ) -> tuple[tuple[Shape, ...], tuple[tuple[tuple[int, int], ...], ...]]:
    """The shapes and cells of placements of ``solver``."""
    placed = [solver.placement(p) for p in pids]
    return tuple(solver.shapes[k] for k, _ in placed), tuple(c for _, c in placed)


def _plain_level(solver: RectangleSolver, pids: Sequence[int]) -> Level:
    return Level(solver.region.width, solver.region.height, *_placed(solver, pids))


def _finish(solver: RectangleSolver, shapes: Sequence[Shape], found: Sequence[_Found],
            seed: int, rotatable: int = 1) -> list[list[int]]:
    """The records of the levels: the rotatable pieces are the set of at most
    ``rotatable`` candidates whose turning keeps the solution unique and makes the
    search the longest (one piece: the candidate with the longest search, the first in
    set order on a tie), each shown in an orientation drawn from a generator seeded by
    the solution and ``seed``; the difficulty is :func:`difficulty`'s steps."""
    width, height = solver.region.width, solver.region.height
    if rotatable == 0:  # no piece turns: the difficulty is that of the fixed pieces
        found = [(vector, pids, []) for vector, pids, _ in found]
    records = []
    for (_, pids, candidates), works in zip(found, _difficulty_steps(solver, found),
                                            strict=True):
        if candidates:
            best = max(range(len(candidates)), key=lambda j: (works[j], -j))
            chosen, work = [candidates[best]], works[best]
            if rotatable > 1:
                chosen, work = _best_set(solver, pids, candidates, rotatable, chosen, work)
            cells = [solver.placement(p)[1] for p in pids]
            digest = hashlib.sha256(
                f"{seed}:{solution_checksum(width, height, cells).decode()}".encode()).digest()
            draw = random.Random(digest)
            turning = [(shape, draw.randrange(len(shapes[shape].orientations())))
                       for shape in chosen]
        else:
            turning, work = [], works[0]
        records.append([len(turning), *(x for pair in turning for x in pair), work, *pids])
    return records


def _best_set(solver: RectangleSolver, pids: Sequence[int], candidates: Sequence[int],
              most: int, single: list[int], single_work: int) -> tuple[list[int], int]:
    """The set of 2 to ``most`` rotatable pieces (shape indices, a shape repeated as often
    as the level has such pieces) that keeps the solution unique and gives the longest
    search, if it beats the best single piece ``single`` (``single_work`` steps); on a
    tie, fewer pieces, then the first set in set order.

    A set keeps the solution unique only if each of its pieces does alone (its pieces
    turning give every tiling a subset of them gives), so only candidates are tried."""
    level = _plain_level(solver, pids)
    region = Region.rectangle(level.width, level.height)
    have = {c: sum(1 for p in level.pieces if p == solver.shapes[c]) for c in candidates}
    pool = [c for c in candidates for _ in range(have[c])]
    best, best_work = single, single_work
    for size in range(2, most + 1):
        for combo in sorted(set(combinations(pool, size))):
            indices = []
            for c in set(combo):
                shape = solver.shapes[c]
                first = level.pieces.index(shape)
                indices += range(first, first + combo.count(c))
            kinds = piece_kinds(level.pieces, indices)
            if count_tilings(region, kinds, limit=2) != 1:
                continue
            work = difficulty(level, indices)
            if work > best_work:
                best, best_work = list(combo), work
    return best, best_work


def _difficulty_steps(solver: RectangleSolver, found: Sequence[_Found]) -> list[list[int]]:
    """For each level, the steps of :func:`difficulty` with each candidate made rotatable
    (or, with none, of the fixed pieces)."""
    width, height = solver.region.width, solver.region.height
    shapes = solver.shapes
    index = {s: i for i, s in enumerate(shapes)}
    closed = all(o in index for s in shapes for o in s.orientations())
    if not unique.supports(width, height, shapes) or not closed:
        # one search per level and candidate, on the level's own kinds
        out = []
        for _, pids, candidates in found:
            level = _plain_level(solver, pids)
            out.append([difficulty(level, level.pieces.index(shapes[c])) for c in candidates]
                       or [difficulty(level, None)])
        return out
    # difficulty() has the solver search once per orientation of the rotatable piece
    # (its kinds made fixed, in set order): the same rows here, in one batch on a solver
    # whose kinds are the fixed shapes in that order (kinds with no pieces change
    # nothing), so the same steps.
    if not found:
        return []
    batch, order = _difficulty_solver(width, height, tuple(shapes))
    position = {int(s): j for j, s in enumerate(order)}
    rows: list[np.ndarray] = []
    plan: list[list[list[int]]] = []
    for vector, _, candidates in found:
        base = np.asarray(vector, np.int64)[order]
        ids = []
        for c in candidates or [None]:
            variant = []
            for o in [None] if c is None else shapes[c].orientations():
                row = base.copy()
                if o is not None:
                    row[position[c]] -= 1
                    row[position[index[o]]] += 1
                variant.append(len(rows))
                rows.append(row)
            ids.append(variant)
        plan.append(ids)
    _, steps, _ = batch.solve_counts(np.array(rows), limit=NO_LIMIT)
    return [[int(steps[variant].sum()) for variant in ids] for ids in plan]


@cache
def _difficulty_solver(width: int, height: int, shapes: tuple[Shape, ...]
                       ) -> tuple[RectangleSolver, np.ndarray]:
    order = np.array(sorted(range(len(shapes)), key=lambda i: shape_order(shapes[i])),
                     np.int64)
    return RectangleSolver(width, height, [shapes[i] for i in order]), order


def level_of(solver: RectangleSolver, record: Sequence[int]) -> Level:
    """The :class:`Level` of a record of :func:`solve_chunk` on ``solver``'s rectangle."""
    k = record[0]
    turning = [(record[1 + 2 * j], record[2 + 2 * j]) for j in range(k)]
    work, *pids = record[1 + 2 * k:]
    pieces, cells = _placed(solver, pids)
    indices, taken = [], Counter[int]()
    for shape, _ in turning:  # identical pieces are interchangeable: any unused one
        indices.append([i for i, p in enumerate(pieces) if p == solver.shapes[shape]][
            taken[shape]])
        taken[shape] += 1
    return Level(solver.region.width, solver.region.height, pieces, cells,
                 rotatable=tuple(indices), shown_orientation=tuple(o for _, o in turning),
                 difficulty=work)


def _rotatable_candidates_batch(solver: RectangleSolver, shapes: Sequence[Shape],
                                vectors: Sequence[np.ndarray]) -> list[list[Shape] | None]:
    """For each count vector, the shapes whose every other orientation makes a vector
    with no tiling, asked of the compiled solver in one batch; ``None`` where an
    orientation is outside the set (then :func:`rotatable_candidates` decides)."""
    index = {s: i for i, s in enumerate(shapes)}
    rows: list[np.ndarray] = []
    plans: list[list[tuple[Shape, list[int]]] | None] = []
    for vector in vectors:
        plan: list[tuple[Shape, list[int]]] | None = []
        for i in np.flatnonzero(vector):
            others = shapes[i].orientations()[1:]
            if any(o not in index for o in others):
                plan = None
                break
            ids = []
            for o in others:
                alternative = vector.copy()
                alternative[i] -= 1
                alternative[index[o]] += 1
                ids.append(len(rows))
                rows.append(alternative)
            if ids:
                plan.append((shapes[i], ids))
        plans.append(plan)
    if not rows:
        return [None if plan is None else [] for plan in plans]
    counts, _, _ = solver.solve_counts(np.array(rows, dtype=np.int64), limit=1)
    return [None if plan is None else [shape for shape, ids in plan if not counts[ids].any()]
            for plan in plans]


def piece_kinds(pieces: Sequence[Shape], free: int | Sequence[int] | None = None,
           orientation: Shape | None = None) -> list[PieceKind]:
    """Kinds for a multiset of pieces: identical fixed pieces merged; the pieces ``free``
    (an index or indices) as free kinds (identical ones merged), or the one piece
    ``free`` replaced by the fixed ``orientation``. The solver counts a tiling once
    however the free pieces' orientations coincide with fixed pieces
    (:func:`~boardlab.puzzles.polyomino.solver.solve`)."""
    chosen = set() if free is None else {free} if isinstance(free, int) else set(free)
    if orientation is not None and len(chosen) != 1:
        raise PuzzleError("an orientation replaces exactly one piece")
    counts: dict[Shape, int] = {}
    turning: dict[Shape, int] = {}
    for i, shape in enumerate(pieces):
        if i in chosen:
            if orientation is None:
                turning[shape] = turning.get(shape, 0) + 1
            else:
                counts[orientation] = counts.get(orientation, 0) + 1
            continue
        counts[shape] = counts.get(shape, 0) + 1
    # The piece sets' own order (size, height, width, cells), so that steps agree with
    # the batch solver's, which takes the kinds in set order.
    return ([PieceKind.fixed(s, counts[s]) for s in sorted(counts, key=shape_order)]
            + [PieceKind.free(s, turning[s]) for s in sorted(turning, key=shape_order)])


def rotatable_candidates(level: Level) -> list[int]:
    """Indices of the pieces that may be made rotatable: every other orientation of the
    piece makes a multiset that cannot tile the rectangle (one index per distinct shape:
    identical pieces are interchangeable)."""
    region = Region.rectangle(level.width, level.height)
    out = []
    seen: set[Shape] = set()
    for i, shape in enumerate(level.pieces):
        if shape in seen:
            continue
        seen.add(shape)
        others = shape.orientations()[1:]
        if others and all(count_tilings(region, piece_kinds(level.pieces, i, o), limit=1) == 0
                          for o in others):
            out.append(i)
    return out


def difficulty(level: Level, rotatable: int | Sequence[int] | None) -> int:
    """Solver steps for a complete search of the level as the player gets it: the
    rotatable pieces (an index, indices or None) free to turn, each multiset of
    orientations they can take searched once (a rotatable piece that matches a fixed one
    is not a second way to place it)."""
    region = Region.rectangle(level.width, level.height)
    return solve(region, piece_kinds(level.pieces, rotatable), collect=False,
                 each_orientation=True).steps


def order_key(level: Level) -> tuple[int, int, int, str]:
    """Pack order: difficulty, then area, then height, then the text (deterministic)."""
    return (level.difficulty or 0, level.width * level.height, level.height, str(level))


def generate_levels(sizes: Sequence[tuple[int, int]], pieces: str = "triplex", *,
                    seed: int = 0, backend: str = "process", workers: int | None = None,
                    ray_address: str | None = None, checkpoint: Path | None = None,
                    progress: bool = True, timeline: list[TimelinePoint] | None = None,
                    on_size: Callable[[SizeReport], None] | None = None,
                    rotatable: int = 1, method: str = "vectors") -> list[Level]:
    """Every level of the given rectangles, ordered by :func:`order_key`, with up to
    ``rotatable`` pieces that may turn (0: none; the seed's game has 1, its "next
    version" several).

    ``method`` is ``"vectors"`` (this module's) or ``"partitions"`` (the seed's edge-state
    enumeration, :mod:`~boardlab.puzzles.polyomino.partitions`: the same levels, far
    slower; sets of every fixed polyomino of 2 to n cells only). ``on_size`` is called
    once per rectangle, in the order of ``sizes``, with its
    :class:`~boardlab.puzzles.polyomino.report.SizeReport` (for a resumed run, the tasks
    read from the checkpoint included)."""
    shapes = _shapes(pieces)  # an unknown set or a bad piece file fails here, before work
    if not (isinstance(rotatable, int) and 0 <= rotatable <= MAX_ROTATABLE):
        raise PuzzleError(f"rotatable pieces: 0 to {MAX_ROTATABLE}, not {rotatable!r}")
    if method not in METHODS:
        raise PuzzleError(f"unknown method {method!r}; use {', '.join(METHODS)}")
    checked = [check_size(w, h) for w, h in sizes]
    worker: Callable[[dict[str, Any]], dict[str, Any]] = solve_chunk
    if method == "partitions":
        from boardlab.puzzles.polyomino import partitions

        if partitions.largest_piece(shapes) is None or pieces in DISTINCT_SETS:
            raise PuzzleError(f"the partitions method handles sets of every fixed "
                              f"polyomino of 2 to n cells, repeats allowed (triplex, "
                              f"tetra), not {pieces!r}; use --method vectors")
        by_size = [partitions.partition_tasks(w, h, pieces, seed, rotatable)
                   for w, h in checked]
        worker = partitions.solve_partitions
        partitions.warm_up()
    else:
        by_size = [size_tasks(w, h, pieces, seed, rotatable) for w, h in checked]
    tasks = [t for size in by_size for t in size]
    warm_up()
    unique.warm_up()
    results = run_tasks(tasks, worker, backend=backend, workers=workers,
                        ray_address=ray_address, checkpoint=checkpoint, progress=progress,
                        description=f"{pieces} levels", found=lambda r: len(r["levels"]),
                        found_label="levels", timeline=timeline)
    levels = []
    for (w, h), size in zip(checked, by_size, strict=True):
        solver = _solver(w, h, pieces)
        for task in size:
            levels += [level_of(solver, record) for record in results[task.id]["levels"]]
        if on_size is not None:
            on_size(size_report(w, h, method, [results[task.id] for task in size]))
    return sorted(levels, key=order_key)


def levels_of_size(width: int, height: int, pieces: str = "triplex", *, seed: int = 0,
                   backend: str = "serial", workers: int | None = None,
                   rotatable: int = 1, method: str = "vectors") -> list[Level]:
    """Every level of one rectangle, ordered by difficulty."""
    return generate_levels([(width, height)], pieces, seed=seed, backend=backend,
                           workers=workers, progress=False, rotatable=rotatable,
                           method=method)
