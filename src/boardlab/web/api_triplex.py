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

The server also *times* every solve itself, so that a time and a first place mean
something: when a level is opened the page asks for a **start token**, which the server
signs (HMAC-SHA256 under a key of its own, made on first use and kept in the database,
:mod:`boardlab.store.secrets`) and which says the pack, the level, when it was issued and
a random nonce. Opening level n needs the code that opens it (level 1: none), so only a
player who reached the level can start its clock. A submission carries the token; the
recorded time is the server's ``now - issued``, and the client's own figure is kept as a
trace and never used. A token records one solve (its nonce is unique in the table: a
replay is 409 ``tokenUsed``) and expires after :data:`TOKEN_SECONDS`. A solve faster than
the level's floor (:func:`floor_seconds`, :data:`FLOOR_PER_PIECE` per piece) is recorded
as *suspect*: counted and listed, never first, in no median. Every solve keeps an
anonymised key of its client (:meth:`Triplex.client_key`), so a scripted run leaves a
trace even when it waits past the floor.

Packs are the files ``DATA/packs/*.json``: public packs, and master copies (files with
``solutions``, e.g. ``pack.master.json``) that the server uses as a second check but
never serves; only a pack's public form leaves the server. Files are re-read when the
folder changes.

Routes:

* ``GET /api/triplex/packs`` -- ``[{id, name, pieces, levels}]`` (``id`` is the salt in hex);
* ``GET /api/triplex/packs/{pack}`` -- the public pack JSON;
* ``GET /triplex/{pack}`` -- the game page, with this server as its leaderboard (at the
  page's own origin, or the operator's public URL; never the request's ``Host``);
* ``GET /triplex/{pack}/table`` -- the page of the pack's tables;
* ``POST /api/triplex/packs/{pack}/levels/{n}/start`` with ``{unlock}`` (level 1: ``{}``)
  -- ``{level, token, issued_at, expires_at, floor_seconds}``;
* ``GET /api/leaderboard/{pack}`` -- every level (``first``, ``solves``, ``suspect_solves``,
  ``median_seconds``, ``best_seconds``, ``timed``, ``clients``) and the players (``name``,
  ``levels``, ``first_solves``, ``solves``);
* ``GET /api/leaderboard/{pack}/{n}`` -- one level's line of that table, ``first`` as
  ``{name, solved_at, ago_seconds} | null`` (``solved_at`` in Unix seconds);
* ``POST /api/leaderboard/{pack}/{n}`` with ``{name, token, unlock, solution, seconds?}``
  -- ``{accepted, recorded, level, next_code, became_first, seconds, suspect,
  floor_seconds, ...}``; without ``name``, ``{accepted, recorded: false, token, ...}``
  with the token stopped (the clock of a player who solved before typing a name)
  (the level's line after the solve); a forgery is 400 naming the problem (``badToken``,
  ``tokenExpired``, ``wrongUnlock``, ``wrongSolution``), a replayed token 409, an unknown
  pack or level 404, a bad name 422;
* ``POST /api/triplex/progress/save`` with ``{name, secret, pack, level, code}`` and
  ``POST /api/triplex/progress/load`` with ``{name, secret, pack}`` -- progress kept on the
  server (:mod:`boardlab.store.players`): 403 ``wrongPlayerSecret``, 404 ``noSuchPlayer``.

Every limit counts the client's address (the connecting one, or the one a trusted proxy
forwards: ``boardlab serve --trusted-proxy``, see :func:`boardlab.web.app.create_app`),
per pack where there is one, and never the name typed, so claims under someone's name
cannot lock them out: :data:`SUBMISSIONS` submissions and :data:`OPENS` openings per
:data:`PER_SECONDS` per (address, pack), :data:`PROGRESS_ATTEMPTS` progress saves and
loads per address; past them 429 with ``Retry-After`` (in memory, per process).

Names are stored as sent (trimmed) and only ever returned in JSON; the page inserts
them with ``textContent``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import math
import re
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field, replace
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
from boardlab.store.leaderboard import (
    NAME_LENGTH,
    PACK_ID_LENGTH,
    LevelBoard,
    Solve,
    TokenUsedError,
    add_solve,
    level_board,
    level_table,
    players_table,
)
from boardlab.store.players import (
    SECRET_MAX,
    SECRET_MIN,
    NoPlayerError,
    Player,
    PlayerError,
    WrongSecretError,
    check_secret,
    claim_player,
    find_player,
    progress_of,
    save_progress,
)
from boardlab.store.players import Progress as ProgressLine
from boardlab.store.secrets import server_secret
from boardlab.web.errors import ApiError, documented
from boardlab.web.security import page_response

router = APIRouter(tags=["triplex"])

#: Submissions allowed per :data:`PER_SECONDS`, per client address and pack.
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
#: Players listed in a pack's table (the most levels solved first).
PLAYERS_SHOWN = 100
#: The page of a pack's tables.
TABLE_PAGE = Path(__file__).with_name("static") / "triplex" / "table.html"


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
        # A clock that steps back (a test's, or wall time after an adjustment) refills
        # nothing rather than taking tokens away.
        elapsed = max(0.0, now - then)
        return min(float(self.capacity), tokens + elapsed * self.capacity / self.per_seconds)

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


# -- start tokens -------------------------------------------------------------------------

#: How long a start token may time a solve: 7 days (a hard level may take a player days,
#: and the page keeps its token across reloads; past this the page opens a new one).
TOKEN_SECONDS = 7 * 86400
#: How far a token's issue time may lie in the future: clocks of the server's processes
#: may differ by this much.
CLOCK_SKEW = 5.0
#: The largest token the API reads (a real one has ~120 characters).
TOKEN_LENGTH = 400
_TOKEN = re.compile(r"^v1\.([0-9a-f]{2,128})\.([0-9]{1,7})\.([0-9]{1,15})\.([0-9a-f]{32})"
                    r"(?:\.s([0-9]{1,12}))?\.([A-Za-z0-9_-]{43})$")
#: Seconds a human needs per piece at least (one drag each): a solve faster than
#: this times the level's pieces is *suspect*.
FLOOR_PER_PIECE = 0.75
#: Start tokens a client may ask for, per pack and :data:`PER_SECONDS`.
OPENS = 60
#: Progress saves and loads a client may try per :data:`PER_SECONDS` (each costs a
#: scrypt hash, and a wrong secret is a guess).
PROGRESS_ATTEMPTS = 10


@dataclass(frozen=True)
class StartToken:
    """What a start token says: the pack, the level, when the server issued it (Unix
    seconds, to the millisecond) and its nonce (32 hex digits, unique per token); a
    *stopped* token also says how many seconds the solve took (the server verified it
    before the player gave a name, see :func:`submit`)."""

    pack: str
    level: int
    issued: float
    nonce: str
    stopped: float | None = None


def sign_token(key: bytes, token: StartToken) -> str:
    """The token as text: ``v1.PACK.LEVEL.MILLISECONDS.NONCE[.sMILLISECONDS].MAC``, the
    MAC an HMAC-SHA256 of the rest under the server's key (base64url, no padding)."""
    body = f"v1.{token.pack}.{token.level}.{round(token.issued * 1000)}.{token.nonce}"
    if token.stopped is not None:
        body += f".s{round(token.stopped * 1000)}"
    mac = hmac.new(key, body.encode("ascii"), hashlib.sha256).digest()
    return f"{body}.{base64.urlsafe_b64encode(mac).decode('ascii').rstrip('=')}"


def read_token(key: bytes, text: str) -> StartToken:
    """The token ``text`` says, if the server's ``key`` signed it; :class:`ApiError`
    (400, ``badToken``) for anything else. Expiry is the caller's to check."""
    found = _TOKEN.match(text)
    if found is None:
        raise ApiError(400, "token: not a start token of this server", "token",
                       code="badToken")
    body = text[:text.rindex(".")]
    mac = hmac.new(key, body.encode("ascii"), hashlib.sha256).digest()
    given = found.group(6) + "="
    if not hmac.compare_digest(base64.urlsafe_b64decode(given), mac):
        raise ApiError(400, "token: not a start token of this server (the signature does "
                            "not match)", "token", code="badToken")
    stopped = None if found.group(5) is None else int(found.group(5)) / 1000
    return StartToken(found.group(1), int(found.group(2)), int(found.group(3)) / 1000,
                      found.group(4), stopped)


def floor_seconds(puzzle: Puzzle) -> float:
    """The fastest plausible human solve of ``puzzle``: :data:`FLOOR_PER_PIECE` seconds
    per piece. A faster solve is recorded as *suspect*: listed, never first, in no
    time."""
    return round(FLOOR_PER_PIECE * len(puzzle.pieces), 3)


@dataclass
class Triplex:
    """What the routes share: the packs, the rate limits (every one keyed by the client's
    address, and the pack where there is one; never by a name typed), the clock of
    the start tokens and the server's keys (read from the database once)."""

    shelf: Shelf
    by_client: RateLimit = field(default_factory=RateLimit)
    opens: RateLimit = field(default_factory=lambda: RateLimit(capacity=OPENS))
    attempts: RateLimit = field(default_factory=lambda: RateLimit(capacity=PROGRESS_ATTEMPTS))
    clock: Callable[[], float] = time.time
    lock: threading.Lock = field(default_factory=threading.Lock)
    _keys: dict[str, bytes] = field(default_factory=dict)

    def admit(self, limit: RateLimit, key: Any, what: str = "submissions") -> None:
        """Count one request of ``key`` against ``limit``, or raise 429 with
        ``Retry-After``."""
        with self.lock:
            wait = limit.wait(key)
            if wait > 0:
                seconds = math.ceil(wait)
                raise HTTPException(429, f"too many {what} from this address; try again "
                                         f"in {seconds} s",
                                    headers={"Retry-After": str(seconds)})
            limit.take(key)

    def key(self, store: Any, name: str) -> bytes:
        """The server's key ``name`` (made on first use, see :mod:`boardlab.store.secrets`),
        read once per process."""
        found = self._keys.get(name)
        if found is None:
            found = self._keys[name] = server_secret(store, name)
        return found

    def client_key(self, store: Any, address: str) -> str:
        """An anonymised key of a client address: 16 hex digits of its HMAC under a key of
        the server, the same for the same address, and no way back to it without the key."""
        mac = hmac.new(self.key(store, "triplex-client"), address.encode("utf-8"),
                       hashlib.sha256)
        return mac.hexdigest()[:16]


def install(app: FastAPI, data_dir: str | Path | None = None) -> None:
    """Serve the packs of ``data_dir/packs`` (default: boardlab's data folder) and the
    leaderboard on ``app``."""
    folder = Path(data_dir).expanduser() if data_dir is not None else default_data_dir()
    app.state.triplex = Triplex(Shelf(folder / "packs"))
    app.include_router(router)


def _client(request: Request) -> str:
    # The connecting address, or the one a trusted proxy forwarded: uvicorn's
    # ProxyHeadersMiddleware (installed by create_app for --trusted-proxy only) has
    # already put it here.
    return request.client.host if request.client else "unknown"


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
    """A claim that a level was solved: who, the start token the server gave when the
    level was opened, the code that opened it and the solution. ``seconds``, the client's
    own figure, is optional and only kept as a trace: the recorded time is the server's.
    Without a name the solve is verified and its clock stopped, but not recorded (see
    :func:`submit`)."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[str | None, Field(max_length=1000)] = None
    token: Annotated[str, Field(min_length=1, max_length=TOKEN_LENGTH)]
    unlock: Annotated[str, Field(min_length=1, max_length=100)]
    solution: SolutionText | Rows | Placements
    seconds: Annotated[float | None, Field(ge=0, le=MAX_SECONDS, allow_inf_nan=False)] = None

    @field_validator("name")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        return None if value is None else check_name(value)


class Opening(BaseModel):
    """A request to open a level: the code that opens it (level 1 needs none)."""

    model_config = ConfigDict(extra="forbid")

    unlock: Annotated[str | None, Field(min_length=1, max_length=100)] = None


# -- routes -------------------------------------------------------------------------------

def _level_number(served: ServedPack, n: int) -> None:
    if not 1 <= n <= len(served.public):
        raise ApiError(404, f"pack {served.id} has levels 1..{len(served.public)}, not {n}",
                       "level", code="noTriplexLevel", params={"n": n})


def _unlock(served: ServedPack, n: int, text: str | None) -> tuple[str, Puzzle]:
    """The normalised code and the puzzle of level ``n``; 400 naming ``unlock`` when the
    code is malformed or does not open the level."""
    if text is None:
        if n != 1:
            raise ApiError(400, f"unlock: level {n} needs its code (the one after level "
                                f"{n - 1})", "unlock", code="wrongUnlock", params={"n": n})
        text = served.public.first_code
    try:
        code = normalize_code(text)
    except PuzzleError as e:
        raise ApiError(400, f"unlock: {e}", "unlock", code="malformedCode") from None
    try:
        return code, served.public.unlock(n, code)
    except WrongCodeError:
        raise ApiError(400, f"the unlock code does not open level {n}", "unlock",
                       code="wrongUnlock", params={"n": n}) from None


def _first_json(first: Solve | None) -> dict[str, Any] | None:
    if first is None:
        return None
    at = first.solved_at
    return {"name": first.name, "solved_at": round(at.timestamp(), 3),
            "ago_seconds": max(0.0, round((datetime.now(UTC) - at).total_seconds(), 3))}


def _level_json(board: LevelBoard) -> dict[str, Any]:
    return {"level": board.level, "first": _first_json(board.first), "solves": board.solves,
            "median_seconds": board.median_seconds, "best_seconds": board.best_seconds,
            "timed": board.timed, "suspect_solves": board.suspect, "clients": board.clients}


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


@router.get("/triplex/{pack}/table", response_class=HTMLResponse, include_in_schema=False)
def table_page(pack: str, request: Request) -> HTMLResponse:
    """The tables of a pack: every level (first solver, solves, times) and the players."""
    _triplex(request).shelf.get(pack)  # an unknown pack is a 404, not an empty page
    return page_response(TABLE_PAGE)


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
        raise ApiError(400, f"code: {e}", "code", code="malformedCode") from None
    try:
        served.public.unlock(body.level, code)
        valid = True
    except WrongCodeError:
        valid = False
    return {"level": body.level, "valid": valid, "levels": len(served.public)}


@router.post("/api/triplex/packs/{pack}/levels/{n}/start", summary="Open a level",
             responses=documented(400, 404, 422, 429))
def start_level(pack: str, n: int, request: Request,
                body: Opening | None = None) -> dict[str, Any]:
    """Open level ``n``: with the code that opens it (level 1: none), the server issues a
    signed start token, ``{level, token, issued_at, expires_at, floor_seconds}``. The
    solve submitted with it is timed by the server from ``issued_at``."""
    triplex = _triplex(request)
    served = triplex.shelf.get(pack)
    _level_number(served, n)
    triplex.admit(triplex.opens, (_client(request), served.id), "level openings")
    _, puzzle = _unlock(served, n, body.unlock if body is not None else None)
    issued = round(triplex.clock(), 3)
    token = StartToken(served.id, n, issued, secrets.token_hex(16))
    key = triplex.key(request.app.state.store, "triplex-token")
    return {"level": n, "token": sign_token(key, token), "issued_at": issued,
            "expires_at": issued + TOKEN_SECONDS, "floor_seconds": floor_seconds(puzzle)}


@router.get("/api/leaderboard/{pack}", summary="Every level and the players of a pack",
            responses=documented(404, 422))
def get_tables(pack: str, request: Request) -> dict[str, Any]:
    """The tables of a pack: ``{pack, name, levels: [{level, first, solves, suspect_solves,
    median_seconds, best_seconds, timed, clients}], players: [{name, levels,
    first_solves, solves}]}``, the players most levels first, at most
    :data:`PLAYERS_SHOWN` of them."""
    served = _triplex(request).shelf.get(pack)
    store = request.app.state.store
    levels = [_level_json(board) for board in level_table(store, served.id, len(served.public))]
    players = [{"name": p.name, "levels": p.levels, "first_solves": p.first_solves,
                "solves": p.solves} for p in players_table(store, served.id, PLAYERS_SHOWN)]
    return {"pack": served.id, "name": served.public.name, "levels": levels,
            "players": players}


@router.get("/api/leaderboard/{pack}/{n}", summary="A level's leaderboard",
            responses=documented(404, 422))
def get_board(pack: str, n: int, request: Request) -> dict[str, Any]:
    """A level's first solver (with how long ago), its number of solves and times."""
    served = _triplex(request).shelf.get(pack)
    _level_number(served, n)
    return _level_json(level_board(request.app.state.store, served.id, n))


@router.post("/api/leaderboard/{pack}/{n}", summary="Submit a solve",
             responses=documented(400, 404, 409, 422, 429))
def submit(pack: str, n: int, body: Submission, request: Request) -> dict[str, Any]:
    """Verify a solve (see the module docstring), time it by its start token and record
    it. Without a name (a player who solved before typing one) the solve is verified but
    not recorded: the answer's ``token`` is the start token *stopped* at this moment,
    signed anew, and a later submission with a name and that token records the time
    measured now, not the time the name took to come."""
    triplex = _triplex(request)
    served = triplex.shelf.get(pack)
    _level_number(served, n)
    address = _client(request)
    triplex.admit(triplex.by_client, (address, served.id))
    store = request.app.state.store
    now = triplex.clock()
    token = read_token(triplex.key(store, "triplex-token"), body.token)
    if token.pack != served.id or token.level != n:
        raise ApiError(400, f"token: it opened level {token.level} of pack {token.pack}, "
                            f"not level {n} of this pack", "token", code="badToken")
    if token.issued > now + CLOCK_SKEW:
        raise ApiError(400, "token: issued in the future", "token", code="badToken")
    if now - token.issued > TOKEN_SECONDS:
        raise ApiError(400, f"token: expired ({TOKEN_SECONDS // 86400} days after the "
                            "level was opened); open the level again", "token",
                       code="tokenExpired")
    _, puzzle = _unlock(served, n, body.unlock)
    try:
        level = check_solution(puzzle, body.solution)
    except PuzzleError as e:
        raise ApiError(400, f"solution: {' '.join(str(e).splitlines())}", "solution",
                       code="wrongSolution") from None
    if served.master is not None:
        expected = served.master.level(n).solution_checksum()
        if not hmac.compare_digest(level.solution_checksum(), expected):
            raise ApiError(400, "solution: it tiles the rectangle but is not the level's "
                                "solution", "solution", code="wrongSolution")
    next_code = served.public.code_after(n, level)
    seconds = round(max(0.0, now - token.issued), 3) if token.stopped is None \
        else token.stopped
    floor = floor_seconds(puzzle)
    if body.name is None:
        stopped = sign_token(triplex.key(store, "triplex-token"),
                             replace(token, stopped=seconds))
        return {"accepted": True, "recorded": False, "next_code": next_code,
                "token": stopped, "seconds": seconds, "suspect": seconds < floor,
                "floor_seconds": floor}
    try:
        solve = add_solve(store, served.id, n, body.name, seconds, timed=True,
                          token=token.nonce, client=triplex.client_key(store, address),
                          client_seconds=body.seconds, suspect=seconds < floor)
    except TokenUsedError:
        raise ApiError(409, "token: it has already recorded a solve; open the level again "
                            "to time another", "token", code="tokenUsed") from None
    board = level_board(store, served.id, n)
    became_first = board.first is not None and board.first.id == solve.id
    return {"accepted": True, "recorded": True, "next_code": next_code,
            "became_first": became_first, "seconds": seconds, "suspect": solve.suspect,
            "floor_seconds": floor, **_level_json(board)}


# -- progress on the server -----------------------------------------------------------------

Secret = Annotated[str, Field(min_length=1, max_length=SECRET_MAX)]


class Credentials(BaseModel):
    """A player's name and secret, and the pack whose progress is meant."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, Field(max_length=1000)]
    secret: Secret
    pack: Annotated[str, Field(min_length=1, max_length=PACK_ID_LENGTH)]

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return check_name(value)


class SavedProgress(Credentials):
    """Progress to keep: the level reached and the code that opens it."""

    level: Annotated[int, Field(ge=1)]
    code: Annotated[str, Field(min_length=1, max_length=100)]


def _attempt(request: Request) -> None:
    # Counted before anything is checked: a wrong code, name or secret is an attempt too.
    triplex = _triplex(request)
    triplex.admit(triplex.attempts, _client(request), "progress attempts")


def _player(request: Request, body: Credentials, *, claim: bool) -> Player:
    store = request.app.state.store
    try:
        check_secret(body.secret)
        return claim_player(store, body.name, body.secret) if claim \
            else find_player(store, body.name, body.secret)
    except WrongSecretError as e:
        raise ApiError(403, str(e), "secret", code="wrongPlayerSecret") from None
    except NoPlayerError as e:
        raise ApiError(404, str(e), "name", code="noSuchPlayer") from None
    except PlayerError as e:
        raise ApiError(422, f"secret: {e}", "secret", code="badPlayerSecret",
                       params={"min": SECRET_MIN, "max": SECRET_MAX}) from None


def _progress_json(served: ServedPack, player: Player, kept: ProgressLine | None
                   ) -> dict[str, Any]:
    return {"name": player.name, "pack": served.id, "levels": len(served.public),
            "level": None if kept is None else kept.level,
            "code": None if kept is None else kept.code,
            "updated_at": None if kept is None else round(kept.updated_at.timestamp(), 3)}


@router.post("/api/triplex/progress/save", summary="Keep progress on the server",
             responses=documented(400, 403, 404, 422, 429))
def save_progress_route(body: SavedProgress, request: Request) -> dict[str, Any]:
    """Keep a level and the code that opens it as the player's progress in a pack (a
    higher level already kept stays). The first save of a name makes the player with
    this secret; later ones need the same secret (403 ``wrongPlayerSecret``). Answers what is
    kept: ``{name, pack, levels, level, code, updated_at}``."""
    _attempt(request)
    served = _triplex(request).shelf.get(body.pack)
    _level_number(served, body.level)
    code, _ = _unlock(served, body.level, body.code)
    player = _player(request, body, claim=True)
    kept = save_progress(request.app.state.store, player, served.id, body.level, code)
    return _progress_json(served, player, kept)


@router.post("/api/triplex/progress/load", summary="Read progress kept on the server",
             responses=documented(403, 404, 422, 429))
def load_progress_route(body: Credentials, request: Request) -> dict[str, Any]:
    """The player's progress in a pack, ``{name, pack, levels, level, code, updated_at}``
    (``level`` and ``code`` null when nothing is kept); 404 ``noSuchPlayer`` for an unknown
    name, 403 ``wrongPlayerSecret`` for a wrong secret."""
    _attempt(request)
    served = _triplex(request).shelf.get(body.pack)
    player = _player(request, body, claim=False)
    kept = progress_of(request.app.state.store, player, served.id)
    return _progress_json(served, player, kept[0] if kept else None)


__all__ = ["FLOOR_PER_PIECE", "Progress", "RateLimit", "Shelf", "StartToken", "Submission",
           "TOKEN_SECONDS", "Triplex", "check_name", "check_solution", "floor_seconds",
           "install", "read_token", "router", "sign_token"]
