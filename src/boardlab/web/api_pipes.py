"""Pipe puzzles (Plumber) in the browser: the levels, a page to play them, and the check.

Rules: :doc:`/pipes`. On the page every segment has a *rotation*; the player
turns segments until the water runs from the tap to the drain, and the letters along the
water's path are the code. The server holds the levels and checks a board: it follows the
water from the tap through the rotated segments, and when the water leaves through the
drain the path is a solution of the puzzle and its letters are its code (the code of
:func:`boardlab.puzzles.pipes.solve.solutions` for that path).

Rotations, the water's flow and scrambles are :mod:`boardlab.puzzles.pipes.play`.

Levels: the ones stored in the database (:mod:`boardlab.store.pipes`, id = the level's
number) and, when it holds none, a few built-in samples generated deterministically with
:func:`boardlab.puzzles.pipes.generate.generate` (ids ``sample-1`` ...). Any random level
is also available as ``random-SIZE-SEED`` (exactly one solution, regenerated on demand).

Every request is bounded. An id names a level only within the bounds of its parts (a
stored id up to 2**31 - 1, SIZE 3 to 10, SEED 0 to 2**31 - 1); any other id is a 404.
The generator of a random level is given up after :data:`MAX_CHANGES` changes (its
worst seeds need many times more), which keeps a request to a few seconds: such a level
is a 422 that says to try another seed, and always the same seed is refused, whatever the
server's load. Generations and solution counts run at most :data:`WORKERS` at a time and
are remembered; a request that waits more than :data:`BUSY_SECONDS` for its turn is a
503 with ``Retry-After``.

Routes:

* ``GET /pipes`` -- the page (``?level=ID&seed=N``);
* ``GET /api/pipes/levels`` -- ``[{id, name, rows, cols, source}]``;
* ``GET /api/pipes/random?size=6&seed=N`` -- the level ``random-6-N``, as below;
* ``GET /api/pipes/levels/{id}?seed=N`` -- ``{id, name, rows, cols, cells, tap, drain,
  solutions, seed, start}``: ``cells[r][c]`` is ``{kind: "I"|"L", letter}`` or ``null``,
  ``tap``/``drain`` are ``{row, col, side}`` (1-based), ``solutions`` is how many there
  are (counted, never listed) and ``start`` a scrambled board (rotations per cell, from
  ``seed``, never already solved);
* ``POST /api/pipes/levels/{id}/check`` with ``{rotations: [[int]]}`` -- ``{level,
  solved, path: [[row, col]], end, code, notation, known}``: ``path`` is every cell the
  water fills in order, ``end`` why it stops (``drain``, ``edge``, ``empty``, ``closed``),
  ``code`` and ``notation`` (``|0-1|1-1|...|``) only when solved, ``known`` whether the
  database holds that code for a stored level (``null`` for other levels). A malformed
  board is 400 ``{error, where}`` with ``where`` naming the field or the cell
  (``rotations.2.3`` is cell 3-4);
* ``POST /api/pipes/levels/{id}/check-code`` with ``{code: "AKEZ..."}`` -- ``{level,
  valid}``: whether the typed code is the code of some solution, for an external quest
  engine (the seed's Encounter). The code loses its whitespace and is read in the level's
  own letter case (:func:`boardlab.puzzles.pipes.quest.read_answer`: ``akez`` is
  ``AKEZ`` unless the level has two letters differing only by case), then compared
  exactly with the stored codes (a stored level) or the solutions (a sample or random
  level, up to :data:`MAX_ENUMERATED` of them). A code is at most :data:`MAX_CODE`
  characters; a client may check :data:`CHECKS` codes per :data:`CHECK_SECONDS` seconds
  (then 429 ``tooManyChecks`` with ``Retry-After``).
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import HTMLResponse
from starlette.exceptions import HTTPException

from boardlab.errors import StoreError
from boardlab.puzzles.pipes.level import STRAIGHT, PipeLevel
from boardlab.puzzles.pipes.play import flow, scramble, solution_of, states
from boardlab.puzzles.pipes.quest import read_answer
from boardlab.puzzles.pipes.solve import solutions
from boardlab.store import pipes as pipe_store
from boardlab.web.api_triplex import RateLimit
from boardlab.web.errors import ApiError, ErrorBody, documented
from boardlab.web.security import page_response

router = APIRouter(tags=["pipes"])

PAGE = Path(__file__).with_name("static") / "pipes.html"
#: Built-in samples: (rows, cols, seed) for ``sample-1``, ``sample-2``, ...
SAMPLES = ((5, 5, 1), (6, 6, 2), (7, 7, 3))
#: Sizes a random level may have (a 12x12 takes seconds to generate).
MIN_SIZE, MAX_SIZE = 3, 10
MAX_SEED = 2**31 - 1
#: Stored ids are 32-bit integers in the database.
MAX_LEVEL_ID = 2**31 - 1
#: The changes the generation of one random level may try, over all its restarts. A
#: change costs about half a millisecond at 10x10, so this is about 4 s; the median
#: 10x10 seed needs about 1,000, about 1 in 25 needs more than this, and the worst of
#: 1,000 seeds more than 17,000 (8 s).
MAX_CHANGES = 8_000
#: Generations and solution counts computed at once (numba holds the GIL, so more
#: threads would only share the same cores).
WORKERS = 2
#: How long a request waits for a worker before it is answered 503.
BUSY_SECONDS = 3.0
#: Generated levels and counts remembered.
REMEMBERED = 256

#: The longest code ``check-code`` reads (a path visits each of at most 10,000 cells once).
MAX_CODE = 10_000
#: Code checks allowed per client address and :data:`CHECK_SECONDS` (a quest engine's
#: players type codes by hand; a script trying codes is stopped).
CHECKS = 60
#: The window of :data:`CHECKS`, in seconds.
CHECK_SECONDS = 60.0
#: The most solutions ``check-code`` enumerates for a level that is not stored.
MAX_ENUMERATED = 100_000

#: The answer of a request that found no free worker, for the OpenAPI schema.
BUSY = {503: {"model": ErrorBody, "description": "Busy making other levels; "
                                                 "``Retry-After`` says when to try again"}}


@dataclass(frozen=True)
class PlayLevel:
    """A level as the page plays it: its id, name, the puzzle and, for a stored level,
    its database id (to look its codes up)."""

    id: str
    name: str
    level: PipeLevel
    stored_id: int | None = None


class Work:
    """Costly results (generated levels, solution counts) computed by at most ``workers``
    threads at once and remembered: the ``remembered`` most recently used, by key."""

    def __init__(self, workers: int = WORKERS, remembered: int = REMEMBERED,
                 wait: float = BUSY_SECONDS):
        self.wait = wait
        self.remembered = remembered
        self._turns = threading.BoundedSemaphore(workers)
        self._lock = threading.Lock()
        self._done: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """``compute()``'s result for ``key``, remembered or computed in a free turn;
        503 when no turn frees within the wait."""
        with self._lock:
            if key in self._done:
                self._done.move_to_end(key)
                return self._done[key]
        if not self._turns.acquire(timeout=self.wait):
            raise HTTPException(503, "the server is busy making other pipe levels; try "
                                     "again in a few seconds", headers={"Retry-After": "5"})
        try:
            result = compute()
        finally:
            self._turns.release()
        with self._lock:
            self._done[key] = result
            while len(self._done) > self.remembered:
                self._done.popitem(last=False)
        return result


WORK = Work()


class _OverBudget(Exception):
    """The generation tried :data:`MAX_CHANGES` changes without finding the level."""


# -- the levels ------------------------------------------------------------------------------
def _generate(rows: int, cols: int, seed: int) -> PipeLevel | None:
    # Imported on first use, like every numba kernel: a server that never makes a pipe
    # level does not load numba (half a second and 75 MB).
    from boardlab.puzzles.pipes.generate import generate

    tried = 0

    def count_change(_attempt: int, _attempts: int, _solutions: int) -> None:
        nonlocal tried
        tried += 1
        if tried > MAX_CHANGES:
            raise _OverBudget

    try:
        return generate(rows, cols, seed=seed, progress=count_change).level
    except _OverBudget:
        return None


def _generated(rows: int, cols: int, seed: int, level_id: str, where: str) -> PipeLevel:
    level = WORK.get(("generated", rows, cols, seed), lambda: _generate(rows, cols, seed))
    if level is None:
        raise ApiError(422, f"pipe level {level_id} is too costly to generate (more than "
                            f"{MAX_CHANGES:,} changes tried); try another seed", where,
                   code="pipesTooCostly")
    return level


def _sample_levels() -> list[PlayLevel]:
    return [PlayLevel(f"sample-{i}", f"sample {i}",
                      _generated(rows, cols, seed, f"sample-{i}", "level"))
            for i, (rows, cols, seed) in enumerate(SAMPLES, start=1)]


def _random_level(size: int, seed: int, where: str = "seed") -> PlayLevel:
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ApiError(400, f"size must be from {MIN_SIZE} to {MAX_SIZE}, not {size}", "size")
    if not 0 <= seed <= MAX_SEED:
        raise ApiError(400, f"seed must be from 0 to {MAX_SEED}, not {seed}", "seed")
    level_id = f"random-{size}-{seed}"
    return PlayLevel(level_id, f"random {size}x{size} #{seed}",
                     _generated(size, size, seed, level_id, where))


def _number(text: str, largest: int) -> int | None:
    """``text`` as a number from 0 to ``largest`` when it is written in ASCII digits,
    without converting thousands of digits."""
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(largest)):
        return None
    value = int(text)
    return value if value <= largest else None


def _shown(level_id: str) -> str:
    return level_id if len(level_id) <= 40 else level_id[:40] + "..."


def _stored_level(stored: pipe_store.StoredLevel) -> PlayLevel:
    level = PipeLevel.parse(stored.text, f"pipe level {stored.name!r}")
    return PlayLevel(str(stored.id), stored.name, level, stored.id)


def _find(request: Request, level_id: str) -> PlayLevel:
    store = request.app.state.store
    unknown = ApiError(404, f"no pipe level {_shown(level_id)!r}", "level",
                       code="noPipeLevel", params={"level": _shown(level_id)})
    if level_id.isascii() and level_id.isdigit():
        stored_id = _number(level_id, MAX_LEVEL_ID)
        if stored_id is None:
            raise unknown
        try:
            return _stored_level(pipe_store.get_level(store, stored_id))
        except StoreError:
            raise unknown from None
    if level_id.startswith("sample-"):
        for sample in _sample_levels():
            if sample.id == level_id:
                return sample
    parts = level_id.split("-")
    if len(parts) == 3 and parts[0] == "random":
        size, seed = _number(parts[1], MAX_SIZE), _number(parts[2], MAX_SEED)
        # Only the canonical spelling names a level ("random-06-1" is not random-6-1).
        if size is not None and seed is not None and size >= MIN_SIZE \
                and level_id == f"random-{size}-{seed}":
            return _random_level(size, seed, "level")
    raise unknown


def _port(port: tuple[int, int, str]) -> dict[str, Any]:
    return {"row": port[0], "col": port[1], "side": port[2]}


def level_json(play: PlayLevel, seed: int) -> dict[str, Any]:
    """The level for the page, without its solutions (see the module docstring)."""
    from boardlab.puzzles.pipes.count import count_level

    level = play.level
    solutions = WORK.get(("count", level), lambda: count_level(level))
    return {"id": play.id, "name": play.name, "rows": level.rows, "cols": level.cols,
            "cells": [[None if cell.is_empty else {"kind": cell.kind, "letter": cell.letter}
                       for cell in row] for row in level.cells],
            "tap": _port(level.tap), "drain": _port(level.drain),
            "solutions": solutions, "seed": seed, "start": scramble(level, seed)}


def parse_rotations(level: PipeLevel, body: Any) -> list[list[int]]:
    """The board of a check request; :class:`ApiError` 400 naming what is malformed."""
    if not isinstance(body, dict):
        raise ApiError(400, "the body must be a JSON object {\"rotations\": [[...], ...]}",
                       "body")
    if "rotations" not in body:
        raise ApiError(400, "missing rotations: one list of rotations per grid row",
                       "rotations")
    rotations = body["rotations"]
    if not isinstance(rotations, list) or len(rotations) != level.rows:
        got = f"{len(rotations)} rows" if isinstance(rotations, list) else type(rotations).__name__
        raise ApiError(400, f"rotations must be a list of {level.rows} rows, got {got}",
                       "rotations")
    board = []
    for r, (row, cells) in enumerate(zip(rotations, level.cells, strict=True)):
        if not isinstance(row, list) or len(row) != level.cols:
            got = f"{len(row)} cells" if isinstance(row, list) else type(row).__name__
            raise ApiError(400, f"row {r + 1} of rotations must have {level.cols} cells, "
                           f"got {got}", f"rotations.{r}")
        for c, (value, cell) in enumerate(zip(row, cells, strict=True)):
            count = states(cell.kind)
            if value is None and cell.is_empty:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < count:
                what = ("a cell without a segment" if cell.is_empty else
                        "a straight" if cell.kind == STRAIGHT else "an elbow")
                raise ApiError(400, f"cell {r + 1}-{c + 1} is {what}: its rotation must be "
                               f"an integer from 0 to {count - 1}, not {value!r}",
                               f"rotations.{r}.{c}")
        board.append([value or 0 for value in row])
    return board


# -- the routes ------------------------------------------------------------------------------
@router.get("/pipes", include_in_schema=False)
def page() -> HTMLResponse:
    return page_response(PAGE)


@router.get("/api/pipes/levels", summary="The pipe levels")
def levels(request: Request) -> list[dict[str, Any]]:
    """The stored levels (``source: "database"``), or the built-in samples when none
    is stored: ``[{id, name, rows, cols, source}]``."""
    stored = pipe_store.list_levels(request.app.state.store)
    if stored:
        return [{"id": str(s.id), "name": s.name, "rows": s.rows, "cols": s.cols,
                 "source": "database"} for s in stored]
    return [{"id": s.id, "name": s.name, "rows": s.level.rows, "cols": s.level.cols,
             "source": "sample"} for s in _sample_levels()]


@router.get("/api/pipes/random", summary="A random level",
            responses=documented(400, 422) | BUSY)
def random_level(size: int = Query(6), seed: int = Query(1)) -> dict[str, Any]:
    """The level ``random-SIZE-SEED``: ``size`` x ``size`` cells with exactly one
    solution, regenerated on demand; the answer is that of the level route. A seed whose
    level is too costly to generate is a 422 (try another seed)."""
    return level_json(_random_level(size, seed), seed)


@router.get("/api/pipes/levels/{level_id}", summary="A level to play",
            responses=documented(400, 404, 422) | BUSY)
def level(request: Request, level_id: str,
          seed: int = Query(1, ge=0, le=MAX_SEED)) -> dict[str, Any]:
    """The level's cells, tap, drain, number of solutions (never the solutions) and a
    scrambled start board drawn from ``seed``: ``{id, name, rows, cols, cells, tap,
    drain, solutions, seed, start}``."""
    return level_json(_find(request, level_id), seed)


@router.post("/api/pipes/levels/{level_id}/check", summary="Check a board",
             responses=documented(400, 404, 422) | BUSY)
def check(request: Request, level_id: str, body: Annotated[Any, Body()] = None) -> dict[str, Any]:
    """Follow the water through the board ``{rotations: [[int]]}``: ``{level, solved,
    path, end, code, notation, known}``, the code only when the water reaches the drain;
    ``known`` says whether a stored level's codes include it."""
    play = _find(request, level_id)
    board = parse_rotations(play.level, body)
    water = flow(play.level, board)
    result: dict[str, Any] = {"level": play.id, "solved": water.solved,
                              "path": [list(cell) for cell in water.cells], "end": water.end,
                              "code": None, "notation": None, "known": None}
    if water.solved:
        solution = solution_of(play.level, water.cells)
        result["code"] = solution.code
        result["notation"] = solution.notation
        if play.stored_id is not None:
            store = request.app.state.store
            if pipe_store.get_level(store, play.stored_id).solution_count:
                result["known"] = pipe_store.check_code(store, play.stored_id, solution.code)
    return result


def _checks(request: Request) -> RateLimit:
    """The app's limit on code checks per client (made on first use)."""
    limit = getattr(request.app.state, "pipes_code_checks", None)
    if limit is None:
        limit = request.app.state.pipes_code_checks = RateLimit(CHECKS, CHECK_SECONDS)
    return limit


def _codes_of(level: PipeLevel) -> frozenset[str] | None:
    """Every solution code of a level that is not stored, or ``None`` past
    :data:`MAX_ENUMERATED` solutions."""
    from boardlab.puzzles.pipes.count import count_level

    if count_level(level) > MAX_ENUMERATED:
        return None
    return frozenset(s.code for s in solutions(level))


@router.post("/api/pipes/levels/{level_id}/check-code", summary="Check a typed code",
             responses=documented(400, 404, 422, 429) | BUSY)
def check_code(request: Request, level_id: str,
               body: Annotated[Any, Body()] = None) -> dict[str, Any]:
    """Whether ``{code}`` is the code of a solution of the level: ``{level, valid}``
    (see the module docstring for how the code is read and the limits)."""
    if not isinstance(body, dict) or not isinstance(body.get("code"), str):
        raise ApiError(400, 'the body must be a JSON object {"code": "AKEZ..."}', "code",
                       code="badCodeRequest")
    if len(body["code"]) > MAX_CODE:
        raise ApiError(400, f"the code is longer than {MAX_CODE:,} characters", "code",
                       code="codeTooLong", params={"limit": MAX_CODE})
    client = request.client.host if request.client else "unknown"
    limit = _checks(request)
    with _CHECKS_LOCK:
        wait = limit.wait(client)
        if wait > 0:
            seconds = math.ceil(wait)
            raise ApiError(429, f"too many codes checked from this address; try again in "
                                f"{seconds} s", "code", code="tooManyChecks",
                           params={"seconds": seconds}, headers={"Retry-After": str(seconds)})
        limit.take(client)
    play = _find(request, level_id)
    typed = read_answer(play.level, body["code"])
    if play.stored_id is not None:
        valid = pipe_store.check_code(request.app.state.store, play.stored_id, typed)
    else:
        codes = WORK.get(("codes", play.level), lambda: _codes_of(play.level))
        if codes is None:
            raise ApiError(422, f"pipe level {play.id} has more than {MAX_ENUMERATED:,} "
                                "solutions; import it to check its codes", "level",
                           code="pipesTooManySolutions")
        valid = typed in codes
    return {"level": play.id, "valid": valid}


_CHECKS_LOCK = threading.Lock()


__all__ = ["PlayLevel", "Work", "check_code", "level_json", "parse_rotations", "router"]
