"""Triplex on the server: the level packs, the game page and the leaderboard.

The original Triplex (:doc:`/triplex`) ran a leaderboard next to the offline game:
the first solver of every level and how long players take. Its players found the weak
spot -- a checksum alone can be computed by anyone holding the file -- so here a claim
carries the *solution*, and the server checks it against the level itself:

1. ``unlock`` (the code that opens level n: level n-1's code, for level 1 the pack's
   first code) must decrypt level n, which proves the player reached it;
2. the solution must tile the level's rectangle with exactly its pieces (identical pieces
   are interchangeable, the rotatable piece may be in any orientation), the check of
   :meth:`~boardlab.puzzles.polyomino.level.Level.from_puzzle`;
3. the next code is derived from the canonical solution (docs/polyomino-pack.md,
   sections 3 and 5) and returned, as the client derives it from its board.

Packs are the files ``DATA/packs/*.json``: public packs, and master copies (files with
``solutions``, e.g. ``pack.master.json``) that the server uses as a second check but
never serves; only a pack's public form leaves the server. Files are re-read when the
folder changes.

Routes:

* ``GET /api/triplex/packs`` -- ``[{id, name, pieces, levels}]`` (``id`` is the salt in hex);
* ``GET /api/triplex/packs/{pack}`` -- the public pack JSON;
* ``GET /triplex/{pack}`` -- the game page, with this server as its leaderboard (at the
  page's own origin, or the operator's public URL; never the request's ``Host``);
* ``GET /api/leaderboard/{pack}/{n}`` -- ``{level, first: {name, solved_at,
  ago_seconds} | null, solves, median_seconds}`` (``solved_at`` in Unix seconds);
* ``POST /api/leaderboard/{pack}/{n}`` with ``{name, seconds, unlock, solution}`` --
  ``{accepted, level, next_code, became_first, first, solves, median_seconds}``; a
  forgery is 400 naming the problem, an unknown pack or level 404, a bad name 422, too
  many submissions 429 with ``Retry-After`` (at most :data:`SUBMISSIONS` per
  :data:`PER_SECONDS` per client address and per (pack, level, name), in memory). The
  client address is the connecting one, or the one a trusted proxy forwards
  (``boardlab serve --trusted-proxy``, see :func:`boardlab.web.app.create_app`).

Names are stored as sent (trimmed) and only ever returned in JSON; the page inserts
them with ``textContent``.
"""

from __future__ import annotations

import hmac
import math
import threading
import time
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.exceptions import HTTPException

from boardlab.errors import BoardlabError, PuzzleError
from boardlab.puzzles.polyomino.codes import WrongCodeError, normalize_code
from boardlab.puzzles.polyomino.level import LETTERS, Level, Puzzle
from boardlab.puzzles.polyomino.pack import Pack
from boardlab.store.db import data_dir as default_data_dir
from boardlab.store.leaderboard import NAME_LENGTH, PACK_ID_LENGTH, add_solve, level_board
from boardlab.web.errors import ApiError, documented

router = APIRouter(tags=["triplex"])

#: Submissions allowed per :data:`PER_SECONDS`, per client address and per
#: (pack, level, name).
SUBMISSIONS = 10
#: The window of the rate limit, in seconds.
PER_SECONDS = 60.0
#: The longest solve time accepted: 30 days.
MAX_SECONDS = 30 * 86400
#: Bounds on a submitted solution, far above any level (62 pieces at most).
MAX_SOLUTION_TEXT = 10_000
MAX_ROWS = 100
MAX_CELLS = 400
#: Cells a text grid may leave empty (they are reported as uncovered).
EMPTY = ".# _-"


# -- the packs ----------------------------------------------------------------------------

@dataclass(frozen=True)
class ServedPack:
    """A pack the server holds: its public copy, and the master copy when present."""

    public: Pack
    master: Pack | None
    source: Path

    @property
    def id(self) -> str:
        return self.public.salt.hex()

    def summary(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.public.name, "pieces": self.public.piece_set,
                "levels": len(self.public)}


class Shelf:
    """The packs of ``folder`` by id, re-read when a file there is added, changed or
    removed. A file that does not load is skipped (and named in :attr:`problems`)."""

    def __init__(self, folder: Path):
        self.folder = folder
        #: File name -> why it did not load.
        self.problems: dict[str, str] = {}
        self._lock = threading.Lock()
        self._signature: tuple = ()
        self._packs: dict[str, ServedPack] = {}

    def _scan(self) -> tuple:
        try:
            files = sorted(self.folder.glob("*.json"))
            return tuple((f.name, f.stat().st_mtime_ns, f.stat().st_size) for f in files)
        except OSError:
            return ()

    def packs(self) -> dict[str, ServedPack]:
        signature = self._scan()
        with self._lock:
            if signature != self._signature:
                self._packs = self._load(signature)
                self._signature = signature
            return self._packs

    def _load(self, signature: tuple) -> dict[str, ServedPack]:
        public: dict[str, tuple[Pack, Path]] = {}
        master: dict[str, tuple[Pack, Path]] = {}
        self.problems = {}
        for name, _, _ in signature:
            path = self.folder / name
            try:
                pack = Pack.load(path)
            except BoardlabError as e:  # not a pack, or not readable: skipped, named
                self.problems[name] = str(e)
                continue
            shelf = master if pack.levels is not None else public
            shelf.setdefault(pack.salt.hex(), (pack, path))
        out = {}
        for key in sorted(set(public) | set(master)):
            found = master.get(key)
            pack, path = public.get(key) or (found[0].public(), found[1])  # type: ignore[index]
            if found is not None and found[0].public().to_json() != pack.to_json():
                self.problems[path.name] = (f"differs from its master copy {found[1].name}; "
                                            "the master is served")
                pack = found[0].public()
            out[key] = ServedPack(pack, None if found is None else found[0], path)
        return out

    def get(self, pack_id: str) -> ServedPack:
        """The pack with this id; 404 when there is none."""
        served = self.packs().get(pack_id.lower()) if len(pack_id) <= PACK_ID_LENGTH else None
        if served is None:
            shown = pack_id if len(pack_id) <= PACK_ID_LENGTH else pack_id[:PACK_ID_LENGTH] + "..."
            raise ApiError(404, f"no Triplex pack {shown!r} on this server", "pack")
        return served


# -- rate limits --------------------------------------------------------------------------

@dataclass
class RateLimit:
    """Token buckets: ``capacity`` requests at once, refilled at ``capacity`` per
    ``per_seconds``; one bucket per key, kept in memory (forgotten once full again)."""

    capacity: int = SUBMISSIONS
    per_seconds: float = PER_SECONDS
    clock: Any = time.monotonic
    _buckets: dict[Any, tuple[float, float]] = field(default_factory=dict)

    def _level(self, key: Any, now: float) -> float:
        tokens, then = self._buckets.get(key, (float(self.capacity), now))
        return min(float(self.capacity), tokens + (now - then) * self.capacity / self.per_seconds)

    def wait(self, key: Any) -> float:
        """Seconds until ``key`` may make a request (0: now)."""
        tokens = self._level(key, self.clock())
        return 0.0 if tokens >= 1 else (1 - tokens) * self.per_seconds / self.capacity

    def take(self, key: Any) -> None:
        now = self.clock()
        self._buckets[key] = (self._level(key, now) - 1, now)
        if len(self._buckets) > 10_000:
            self._buckets = {k: v for k, v in self._buckets.items()
                             if self._level(k, now) < self.capacity}


@dataclass
class Triplex:
    """What the routes share: the packs and the two rate limits."""

    shelf: Shelf
    by_client: RateLimit = field(default_factory=RateLimit)
    by_name: RateLimit = field(default_factory=RateLimit)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def admit(self, client: str, pack: str, level: int, name: str) -> None:
        """Count one submission, or raise 429 with ``Retry-After``."""
        keys = [(self.by_client, client), (self.by_name, (pack, level, name.casefold()))]
        with self.lock:
            wait = max(limit.wait(key) for limit, key in keys)
            if wait > 0:
                raise HTTPException(429, f"too many submissions; try again in "
                                         f"{math.ceil(wait)} s",
                                    headers={"Retry-After": str(math.ceil(wait))})
            for limit, key in keys:
                limit.take(key)


def install(app: FastAPI, data_dir: str | Path | None = None) -> None:
    """Serve the packs of ``data_dir/packs`` (default: boardlab's data folder) and the
    leaderboard on ``app``."""
    folder = Path(data_dir).expanduser() if data_dir is not None else default_data_dir()
    app.state.triplex = Triplex(Shelf(folder / "packs"))
    app.include_router(router)


def _triplex(request: Request) -> Triplex:
    return request.app.state.triplex


# -- checking a solution ------------------------------------------------------------------

def _grid_from_text(rows: list[str], puzzle: Puzzle) -> list[list[str]]:
    for y, row in enumerate(rows):
        for x, letter in enumerate(row):
            if letter in EMPTY:
                raise PuzzleError(f"cell ({x}, {y}) is not covered")
            if letter not in LETTERS:
                raise PuzzleError(f"row {y + 1}, column {x + 1}: {letter!r} is not a piece "
                                  f"letter (a-z, A-Z, 0-9)")
    return [list(row) for row in rows]


def _grid_from_placements(placements: list[list[list[int]]],
                          puzzle: Puzzle) -> list[list[int]]:
    grid: list[list[int | None]] = [[None] * puzzle.width for _ in range(puzzle.height)]
    for i, cells in enumerate(placements):
        if not cells:
            raise PuzzleError(f"placement {i} has no cells")
        for cell in cells:
            if len(cell) != 2:
                raise PuzzleError(f"placement {i}: a cell is [x, y], got {cell!r}")
            x, y = cell
            if not (0 <= x < puzzle.width and 0 <= y < puzzle.height):
                raise PuzzleError(f"placement {i} covers cell ({x}, {y}), outside the "
                                  f"{puzzle.width}x{puzzle.height} rectangle")
            if grid[y][x] is not None:
                raise PuzzleError(f"cell ({x}, {y}) is covered by placements {grid[y][x]} "
                                  f"and {i}")
            grid[y][x] = i
    for y, row in enumerate(grid):
        for x, owner in enumerate(row):
            if owner is None:
                raise PuzzleError(f"cell ({x}, {y}) is not covered")
    return grid  # type: ignore[return-value]


def check_solution(puzzle: Puzzle, solution: str | list[str] | list[list[list[int]]]
                   ) -> Level:
    """The level whose puzzle is ``puzzle`` and whose solution is ``solution``: text rows
    of letters (one letter per piece; a string with rows separated by ``/`` or newlines,
    or a list of rows) or a list of placements (each a list of ``[x, y]`` cells).
    :class:`PuzzleError` names what is wrong: a cell covered twice or not at all, a split
    piece, the wrong size or pieces.

    >>> puzzle = Level.parse("level 4x2\\nabbc\\naacc\\n").puzzle()
    >>> check_solution(puzzle, "xyyz/xxzz").solution_checksum()
    b'abbc/aacc'
    >>> check_solution(puzzle, "abbb/aacc")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boardlab.errors.PuzzleError: the solution does not use the puzzle's pieces (extra ###; ...)
    """
    if isinstance(solution, str):
        rows = [row.strip() for row in solution.replace("\n", "/").strip("/").split("/")]
        solution = rows
    if solution and all(isinstance(row, str) for row in solution):
        rows = list(solution)  # type: ignore[arg-type]
        if len(rows) != puzzle.height or any(len(row) != puzzle.width for row in rows):
            shape = f"{len(rows)} rows of " + "/".join(sorted({str(len(r)) for r in rows}))
            raise PuzzleError(f"the solution has {shape} cells but the level is "
                              f"{puzzle.width}x{puzzle.height}")
        grid: list[list[Any]] = _grid_from_text(rows, puzzle)
    else:
        grid = _grid_from_placements(solution, puzzle)  # type: ignore[arg-type]
    return Level.from_puzzle(puzzle, grid)


# -- request bodies -----------------------------------------------------------------------

Cell = Annotated[list[int], Field(min_length=2, max_length=2)]
Placement = Annotated[list[Cell], Field(min_length=1, max_length=MAX_CELLS)]
SolutionText = Annotated[str, Field(min_length=1, max_length=MAX_SOLUTION_TEXT)]
Rows = Annotated[list[Annotated[str, Field(max_length=MAX_ROWS)]],
                 Field(min_length=1, max_length=MAX_ROWS)]
Placements = Annotated[list[Placement], Field(min_length=1, max_length=MAX_CELLS)]


def check_name(name: str) -> str:
    """A player's name trimmed; ValueError unless it has 1 to 40 characters and no control
    characters."""
    name = name.strip()
    if not name:
        raise ValueError("the name is empty")
    if len(name) > NAME_LENGTH:
        raise ValueError(f"the name has {len(name)} characters, at most {NAME_LENGTH} allowed")
    for i, ch in enumerate(name, start=1):
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise ValueError(f"character {i} of the name ({ch!r}) is not allowed")
    return name


class Submission(BaseModel):
    """A claim that a level was solved: who, how long it took, the code that opened the
    level and the solution."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, Field(max_length=1000)]
    seconds: Annotated[float, Field(ge=0, le=MAX_SECONDS, allow_inf_nan=False)]
    unlock: Annotated[str, Field(min_length=1, max_length=100)]
    solution: SolutionText | Rows | Placements

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return check_name(value)


# -- routes -------------------------------------------------------------------------------

def _level_number(served: ServedPack, n: int) -> None:
    if not 1 <= n <= len(served.public):
        raise ApiError(404, f"pack {served.id} has levels 1..{len(served.public)}, not {n}",
                       "level")


def _board_json(pack_id: str, n: int, request: Request) -> dict[str, Any]:
    board = level_board(request.app.state.store, pack_id, n)
    first = None
    if board.first is not None:
        at = board.first.solved_at
        first = {"name": board.first.name, "solved_at": round(at.timestamp(), 3),
                 "ago_seconds": max(0.0, round((datetime.now(UTC) - at).total_seconds(), 3))}
    return {"level": n, "first": first, "solves": board.solves,
            "median_seconds": board.median_seconds}


@router.get("/api/triplex/packs", summary="The packs on this server")
def list_packs(request: Request) -> list[dict[str, Any]]:
    """The packs on this server: id (salt in hex), name, piece set, number of levels."""
    return [served.summary() for served in _triplex(request).shelf.packs().values()]


@router.get("/api/triplex/packs/{pack}", summary="A public pack", responses=documented(404, 422))
def get_pack(pack: str, request: Request) -> dict[str, Any]:
    """The public pack file (levels encrypted, no solutions)."""
    return _triplex(request).shelf.get(pack).public.to_json()


@router.get("/triplex/{pack}", response_class=HTMLResponse, include_in_schema=False)
def game_page(pack: str, request: Request) -> HTMLResponse:
    """The game page of a pack, with this server as its leaderboard: the operator's public
    URL when there is one, else the page's own origin (the page's script falls back to
    it), never the request's ``Host``, which a client may forge."""
    from boardlab.web.triplex.export import content_security_policy, render_html

    served = _triplex(request).shelf.get(pack)
    server = getattr(request.app.state, "public_url", None)
    policy = f"{content_security_policy(server)}; frame-ancestors 'none'"
    return HTMLResponse(render_html(served.public, server=server),
                        headers={"Content-Security-Policy": policy})


class Progress(BaseModel):
    """Progress written on paper: a level number and the code that opens it."""

    model_config = ConfigDict(extra="forbid")

    level: int
    code: Annotated[str, Field(min_length=1, max_length=100)]


@router.post("/api/triplex/packs/{pack}/progress", summary="Check a written-down code",
             responses=documented(400, 404, 422))
def check_progress(pack: str, body: Progress, request: Request) -> dict[str, Any]:
    """Whether ``code`` opens level ``level`` of the pack: the progress a player restores
    on another device. ``{level, valid, levels}``; a malformed code is a 400."""
    served = _triplex(request).shelf.get(pack)
    _level_number(served, body.level)
    try:
        code = normalize_code(body.code)
    except PuzzleError as e:
        raise ApiError(400, f"code: {e}", "code") from None
    try:
        served.public.unlock(body.level, code)
        valid = True
    except WrongCodeError:
        valid = False
    return {"level": body.level, "valid": valid, "levels": len(served.public)}


@router.get("/api/leaderboard/{pack}/{n}", summary="A level's leaderboard",
            responses=documented(404, 422))
def get_board(pack: str, n: int, request: Request) -> dict[str, Any]:
    """A level's first solver (with how long ago), its number of solves and median time."""
    served = _triplex(request).shelf.get(pack)
    _level_number(served, n)
    return _board_json(served.id, n, request)


@router.post("/api/leaderboard/{pack}/{n}", summary="Submit a solve",
             responses=documented(400, 404, 422, 429))
def submit(pack: str, n: int, body: Submission, request: Request) -> dict[str, Any]:
    """Verify a solve (see the module docstring) and record it."""
    triplex = _triplex(request)
    served = triplex.shelf.get(pack)
    _level_number(served, n)
    client = request.client.host if request.client else "unknown"
    triplex.admit(client, served.id, n, body.name)
    try:
        code = normalize_code(body.unlock)
    except PuzzleError as e:
        raise ApiError(400, f"unlock: {e}", "unlock") from None
    try:
        puzzle = served.public.unlock(n, code)
    except WrongCodeError:
        raise ApiError(400, f"the unlock code does not open level {n}", "unlock") from None
    try:
        level = check_solution(puzzle, body.solution)
    except PuzzleError as e:
        raise ApiError(400, f"solution: {' '.join(str(e).splitlines())}", "solution"
                       ) from None
    if served.master is not None:
        expected = served.master.level(n).solution_checksum()
        if not hmac.compare_digest(level.solution_checksum(), expected):
            raise ApiError(400, "solution: it tiles the rectangle but is not the level's "
                                "solution", "solution")
    next_code = served.public.code_after(n, level)
    solve = add_solve(request.app.state.store, served.id, n, body.name, body.seconds)
    board = _board_json(served.id, n, request)
    became_first = board["first"] is not None and board["first"]["name"] == solve.name \
        and board["first"]["solved_at"] == round(solve.solved_at.timestamp(), 3)
    return {"accepted": True, "next_code": next_code, "became_first": became_first, **board}


__all__ = ["Progress", "RateLimit", "Shelf", "Submission", "Triplex", "check_name",
           "check_solution", "install", "router"]
