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
   (:class:`~boardlab.puzzles.polyomino.solver.RectangleSolver`); exactly 1 is a
   candidate, and its tiling comes back with the count;
4. drop candidates whose solution has a straight cut;
5. choose the rotatable piece: a piece qualifies when every *other* orientation of it
   makes a multiset with no tiling at all; among those, the one whose rotation makes the
   solver work hardest; it is shown in an orientation drawn from a generator seeded by
   the level itself and the pack seed (reproducible packs);
6. the difficulty is the solver's step count for the level as the player gets it (with
   the rotatable piece free to turn).

Work is split into tasks of a few hundred vectors of one rectangle, run by
:func:`boardlab.puzzles.runner.run_tasks` (processes by default, or Ray), with a
checkpoint so that a killed run resumes with nothing lost or duplicated.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from boardlab.errors import PuzzleError
from boardlab.puzzles.polyomino.level import Level
from boardlab.puzzles.polyomino.region import Region
from boardlab.puzzles.polyomino.shapes import Shape, piece_set
from boardlab.puzzles.polyomino.solver import (
    PieceKind,
    RectangleSolver,
    count_tilings,
    solve,
    warm_up,
)
from boardlab.puzzles.polyomino.vectors import canonical_vectors, has_straight_cut
from boardlab.puzzles.runner import Task, TimelinePoint, run_tasks

#: Piece sets whose levels use every shape at most once (BlockPuzzle, Pentaplex).
DISTINCT_SETS = frozenset({"penta", "pentominoes"})
CHUNK = 400  # vectors per task: small enough for smooth progress, large enough to amortise


@dataclass(frozen=True)
class SizeReport:
    """What the generator did for one rectangle."""

    width: int
    height: int
    vectors: int
    levels: int
    seconds: float


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


def size_tasks(width: int, height: int, pieces: str = "triplex", seed: int = 0) -> list[Task]:
    """The tasks that find every level of one rectangle."""
    n = len(_vectors(width, height, pieces))
    return [Task(f"{pieces}:{width}x{height}:{start}",
                 {"width": width, "height": height, "pieces": pieces, "start": start,
                  "stop": min(n, start + CHUNK), "seed": seed},
                 weight=float(min(n, start + CHUNK) - start))
            for start in range(0, n, CHUNK)]


def solve_chunk(payload: dict[str, Any]) -> dict[str, Any]:
    """Worker: the levels among vectors ``start:stop`` of a rectangle, as level text."""
    width, height, pieces = payload["width"], payload["height"], payload["pieces"]
    shapes = _shapes(pieces)
    vectors = _vectors(width, height, pieces)[payload["start"]:payload["stop"]]
    solver = _solver(width, height, pieces)
    # A table shared by the whole chunk finds the counts and tilings faster; its step
    # counts depend on the chunk, so the difficulty's steps are taken again, per vector,
    # for the few vectors with exactly one tiling.
    counts, _, first = solver.solve_counts(vectors, limit=2, shared_table=True)
    unique = np.flatnonzero(counts == 1)
    steps = np.zeros(len(vectors), np.int64)
    if len(unique):
        _, steps[unique], _ = solver.solve_counts(vectors[unique], limit=2)
    found: list[tuple[Level, np.ndarray, int]] = []
    for row in unique:
        placed = [solver.placement(int(p)) for p in first[row] if p >= 0]
        cells = [c for _, c in placed]
        if not has_straight_cut(width, height, cells):
            level = Level(width, height, tuple(shapes[k] for k, _ in placed), tuple(cells))
            found.append((level, vectors[row], int(steps[row])))
    candidates = _rotatable_candidates_batch(solver, shapes, [v for _, v, _ in found])
    levels = [str(finish_level(level, payload["seed"], fixed_steps=work, candidates=cands))
              for (level, _, work), cands in zip(found, candidates, strict=True)]
    return {"levels": levels, "vectors": len(vectors), "steps": int(steps.sum())}


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


def _kinds(pieces: Sequence[Shape], free: int | None = None,
           orientation: Shape | None = None) -> list[PieceKind]:
    """Kinds for a multiset of pieces: identical fixed pieces merged; piece ``free`` (an
    index) as a free kind of its own, or replaced by the fixed ``orientation``."""
    counts: dict[Shape, int] = {}
    extra: list[PieceKind] = []
    for i, shape in enumerate(pieces):
        if i == free:
            if orientation is None:
                extra.append(PieceKind.free(shape))
            else:
                counts[orientation] = counts.get(orientation, 0) + 1
            continue
        counts[shape] = counts.get(shape, 0) + 1
    # The piece sets' own order (size, height, width, cells), so that steps agree with
    # the batch solver's, which takes the kinds in set order.
    order = sorted(counts, key=lambda s: (s.size, s.height, s.width, s.cells))
    return [PieceKind.fixed(s, counts[s]) for s in order] + extra


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
        if others and all(count_tilings(region, _kinds(level.pieces, i, o), limit=1) == 0
                          for o in others):
            out.append(i)
    return out


def difficulty(level: Level, rotatable: int | None) -> int:
    """Solver steps for a complete search of the level as the player gets it."""
    region = Region.rectangle(level.width, level.height)
    return solve(region, _kinds(level.pieces, rotatable), collect=False).steps


def finish_level(level: Level, seed: int = 0, *, fixed_steps: int | None = None,
                 candidates: Sequence[Shape] | None = None) -> Level:
    """The level with its rotatable piece chosen and shown orientation drawn (seeded by
    the level's solution and ``seed``), and its difficulty. ``fixed_steps`` (the steps of
    the level without a rotatable piece) and ``candidates`` (the qualifying shapes) may
    come precomputed from the batch solver."""
    indices = (rotatable_candidates(level) if candidates is None
               else [level.pieces.index(shape) for shape in candidates])
    best: tuple[int, int] | None = None
    for i in indices:
        work = difficulty(level, i)
        if best is None or work > best[0]:
            best = (work, i)
    if best is None:
        work = difficulty(level, None) if fixed_steps is None else fixed_steps
        return Level(level.width, level.height, level.pieces, level.solution,
                     difficulty=work)
    work, index = best
    digest = hashlib.sha256(f"{seed}:{level.solution_checksum().decode()}".encode()).digest()
    choices = len(level.pieces[index].orientations())
    shown = random.Random(digest).randrange(choices)
    return Level(level.width, level.height, level.pieces, level.solution, rotatable=index,
                 shown_orientation=shown, difficulty=work)


def order_key(level: Level) -> tuple[int, int, int, str]:
    """Pack order: difficulty, then area, then height, then the text (deterministic)."""
    return (level.difficulty or 0, level.width * level.height, level.height, str(level))


def generate_levels(sizes: Sequence[tuple[int, int]], pieces: str = "triplex", *,
                    seed: int = 0, backend: str = "process", workers: int | None = None,
                    ray_address: str | None = None, checkpoint: Path | None = None,
                    progress: bool = True, timeline: list[TimelinePoint] | None = None,
                    on_size: Callable[[SizeReport], None] | None = None) -> list[Level]:
    """Every level of the given rectangles, ordered by :func:`order_key`."""
    _shapes(pieces)  # an unknown set or a bad piece file fails here, before any work
    checked = [check_size(w, h) for w, h in sizes]
    tasks = [t for w, h in checked for t in size_tasks(w, h, pieces, seed)]
    warm_up()
    results = run_tasks(tasks, solve_chunk, backend=backend, workers=workers,
                        ray_address=ray_address, checkpoint=checkpoint, progress=progress,
                        description=f"{pieces} levels", found=lambda r: len(r["levels"]),
                        found_label="levels", timeline=timeline)
    levels = [Level.parse(text) for r in results.values() for text in r["levels"]]
    return sorted(levels, key=order_key)


def levels_of_size(width: int, height: int, pieces: str = "triplex", *, seed: int = 0,
                   backend: str = "serial", workers: int | None = None) -> list[Level]:
    """Every level of one rectangle, ordered by difficulty."""
    return generate_levels([(width, height)], pieces, seed=seed, backend=backend,
                           workers=workers, progress=False)
