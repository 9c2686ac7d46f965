"""The Plumber city quest (seeds/001): pages and JSON API under ``/quest`` and
``/api/quests``.

The seed article's game, played on boardlab's server: an organiser uploads a level
(the text form or the seed's CSV table, :mod:`boardlab.puzzles.pipes.table`) and gets a
secret organiser key and a location code per segment to write at the city's locations;
teams join with a name; each team's grid starts hidden and every valid location code
reveals its segment to that team; a team types the letters along its pipe and the server
accepts the code of *any* solution of the level (every code is enumerated and stored at
upload); the organiser watches every team's progress live. Storage:
:mod:`boardlab.store.quest`; codes: :mod:`boardlab.puzzles.pipes.quest`.

Secrets. The organiser's key and each team's token are random and stored only as their
SHA-256; they go in ``Authorization: Bearer ...``. The organiser's page link carries the
key after ``#``, so it never reaches a server log.

Routes:

* ``GET /quest`` -- the page: a new quest's upload form, or (``?id=ID``) a team's page;
  ``GET /quest/organiser?id=ID#key=KEY`` -- the organiser's page (live progress and the
  printable sheet of location codes);
* ``POST /api/quests`` ``{name, level, format}`` (``format``: ``auto``, ``text`` or
  ``csv``) -- 201 ``{quest, key, locations}``;
* ``GET /api/quests/{id}`` -- ``{id, name, rows, cols, segments, teams}``;
* ``POST /api/quests/{id}/teams`` ``{name}`` -- 201 ``{team, token}``;
* ``GET /api/quests/{id}/team`` (team token) -- the team: ``{name, found: [{row, col,
  kind, letter}], location_tries, wrong_locations, answer_tries, finished_at, seconds,
  answer}``;
* ``POST /api/quests/{id}/locations`` ``{code}`` (team token) -- ``{outcome: "found",
  segment, team}``; refusals: 409 ``alreadyFound`` (the team found it before, recorded
  once), 400 ``otherQuestCode`` (a code of another quest), 400 ``wrongLocationCode``;
* ``POST /api/quests/{id}/answer`` ``{code}`` (team token) -- ``{valid, finished_at,
  seconds, team}``: the code is read as :func:`~boardlab.puzzles.pipes.quest.read_answer`
  reads it; the first valid answer finishes the team;
* ``GET /api/quests/{id}/progress`` (organiser key) -- every team's progress (the live
  view below); ``GET /api/quests/{id}/sheet`` (organiser key) -- the location codes with
  their segments;
* ``/api/quests/{id}/live`` -- a WebSocket: the client says ``{"type": "hello", "key":
  KEY}`` first; the server then sends ``{"type": "progress", ...}`` at once and after
  every change (a team joining, a code tried, a finish). A wrong key is an error message
  and close code 4403.

Bounds. A level is at most :data:`MAX_LEVEL_TEXT` characters and :data:`MAX_CELLS`
cells and has from 1 to :data:`MAX_SOLUTIONS` solutions (each code is stored); names are
bounded; every code typed is bounded. Attempts are limited in memory (token buckets per
minute): location codes per team (:data:`ENTRIES_PER_TEAM`) and per client address
(:data:`ENTRIES_PER_CLIENT`), answers likewise, joins and uploads per client. A refused
attempt (429 ``tooManyAttempts`` with ``Retry-After``) is not recorded at all; an
accepted one is counted and recorded in one transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import threading
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Body, FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse

from boardlab.errors import NotationError, PuzzleError
from boardlab.puzzles.pipes.level import PipeLevel
from boardlab.puzzles.pipes.quest import (
    new_location_code,
    read_answer,
    read_location_code,
    segments,
)
from boardlab.puzzles.pipes.solve import solutions
from boardlab.puzzles.pipes.table import FORMATS, parse_level
from boardlab.store import quest as quest_store
from boardlab.web.api_triplex import RateLimit
from boardlab.web.errors import ApiError, documented
from boardlab.web.live import MAX_MESSAGE, Topics, pump
from boardlab.web.security import live_origins, page_response

router = APIRouter(tags=["quest"])

STATIC = Path(__file__).with_name("static")
TEAM_PAGE = STATIC / "quest.html"
ORGANISER_PAGE = STATIC / "quest-organiser.html"

#: The longest level text an upload may send (a 20x20 CSV table is about 4 KB).
MAX_LEVEL_TEXT = 64 * 1024
#: The most cells a quest's level may have (each segment is a location to visit).
MAX_CELLS = 400
#: The most solutions a quest's level may have: each is enumerated and its code stored
#: while the organiser waits (about 5 s for 20,000 here).
MAX_SOLUTIONS = 20_000
#: The longest quest and team names.
MAX_NAME = quest_store.NAME_LENGTH
MAX_TEAM_NAME = quest_store.TEAM_NAME_LENGTH
#: The longest location code and answer read (longer ones are refused, not cut).
MAX_LOCATION_CODE = 64
MAX_ANSWER = 2 * MAX_CELLS
#: Location codes per minute from one team (several teams may share an address behind a
#: mobile network, hence a larger limit per address).
ENTRIES_PER_TEAM = 30
#: Location codes per minute from one client address.
ENTRIES_PER_CLIENT = 120
#: Answers per minute from one team.
ANSWERS_PER_TEAM = 10
#: Answers per minute from one client address.
ANSWERS_PER_CLIENT = 60
#: Teams joining per minute from one client address.
JOINS_PER_CLIENT = 20
#: Quests uploaded per minute from one client address.
UPLOADS_PER_CLIENT = 10
#: The window of every limit, in seconds.
PER_SECONDS = 60.0
#: Seconds a live connection has to say hello with the organiser key.
HELLO_SECONDS = 5.0


@dataclass
class Limits:
    """The attempt limits of one app (see the module docstring)."""

    entries_by_team: RateLimit = field(
        default_factory=lambda: RateLimit(ENTRIES_PER_TEAM, PER_SECONDS))
    entries_by_client: RateLimit = field(
        default_factory=lambda: RateLimit(ENTRIES_PER_CLIENT, PER_SECONDS))
    answers_by_team: RateLimit = field(
        default_factory=lambda: RateLimit(ANSWERS_PER_TEAM, PER_SECONDS))
    answers_by_client: RateLimit = field(
        default_factory=lambda: RateLimit(ANSWERS_PER_CLIENT, PER_SECONDS))
    joins: RateLimit = field(default_factory=lambda: RateLimit(JOINS_PER_CLIENT, PER_SECONDS))
    uploads: RateLimit = field(
        default_factory=lambda: RateLimit(UPLOADS_PER_CLIENT, PER_SECONDS))
    lock: threading.Lock = field(default_factory=threading.Lock)

    def admit(self, *keys: tuple[RateLimit, Any], where: str = "code") -> None:
        """Count one attempt against every ``(limit, key)``, or refuse it (429, nothing
        counted, ``where`` naming the field) when any of them is spent."""
        with self.lock:
            wait = max(limit.wait(key) for limit, key in keys)
            if wait > 0:
                seconds = max(1, math.ceil(wait))
                raise ApiError(429, f"too many attempts; try again in {seconds} s", where,
                               code="tooManyAttempts", params={"seconds": seconds},
                               headers={"Retry-After": str(seconds)})
            for limit, key in keys:
                limit.take(key)


class QuestService:
    """What the quest routes share: the store, the limits and the organisers' live
    views (one topic per quest)."""

    def __init__(self, store: Any):
        self.store = store
        self.limits = Limits()
        self.topics = Topics(self.progress)

    def progress(self, quest_id: str) -> dict[str, Any]:
        """The organiser's view of a quest: the quest and every team's progress."""
        quest = quest_store.get_quest(self.store, quest_id)
        if quest is None:
            return {"type": "progress", "quest": None, "teams": []}
        level = _level(quest.id, quest.text)
        return {"type": "progress", "quest": _quest_json(quest, level),
                "teams": [_team_json(team, level) for team in
                          quest_store.teams(self.store, quest_id)]}


# -- helpers ------------------------------------------------------------------------------

@lru_cache(maxsize=256)
def _level(quest_id: str, text: str) -> PipeLevel:
    return PipeLevel.parse(text, f"quest {quest_id}")


def _service(request: Request) -> QuestService:
    return request.app.state.quest


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _shown(text: str) -> str:
    return text if len(text) <= 40 else text[:40] + "..."


def _quest(request: Request, quest_id: str) -> quest_store.Quest:
    quest = quest_store.get_quest(_service(request).store, quest_id)
    if quest is None:
        raise ApiError(404, f"no quest {_shown(quest_id)!r}", "quest", code="noQuest",
                       params={"quest": _shown(quest_id)})
    return quest


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    value = value.strip()
    if scheme.lower() != "bearer" or not value or len(value) > 200:
        return None
    return value


def _team(request: Request, quest: quest_store.Quest) -> quest_store.Team:
    token = _bearer(request)
    team = None if token is None else quest_store.team_by_token(
        _service(request).store, quest.id, token)
    if team is None:
        raise ApiError(403, "join the quest first: this browser holds no team of it",
                       "team", code="notInQuest")
    return team


def _organiser(request: Request, quest: quest_store.Quest) -> None:
    key = _bearer(request)
    if key is None or not quest_store.is_organiser(_service(request).store, quest.id, key):
        raise ApiError(403, "the organiser's key is missing or wrong", "key",
                       code="notOrganiser")


def _text_field(body: Any, name: str, limit: int, what: str) -> str:
    """``body[name]``, a string of at most ``limit`` characters; 400 otherwise."""
    if not isinstance(body, dict):
        raise ApiError(400, f'the body must be a JSON object with "{name}"', name,
                       code="badQuestRequest", params={"field": name})
    value = body.get(name)
    if not isinstance(value, str):
        raise ApiError(400, f"{name} must be a string: {what}", name,
                       code="badQuestRequest", params={"field": name})
    if len(value) > limit:
        raise ApiError(400, f"{name} is longer than {limit:,} characters", name,
                       code="questFieldTooLong", params={"field": name, "limit": limit})
    return value


def _name(value: str, limit: int, where: str) -> str:
    """A quest or team name: spaces collapsed, no control characters, not empty."""
    name = " ".join(value.split())
    if not name:
        raise ApiError(400, f"the {where} name is empty", where, code="emptyName",
                       params={"field": where})
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise ApiError(400, f"the {where} name has a control character", where,
                       code="badName", params={"field": where})
    if len(name) > limit:
        raise ApiError(400, f"the {where} name is longer than {limit} characters", where,
                       code="questFieldTooLong", params={"field": where, "limit": limit})
    return name


def _time(moment: Any) -> float | None:
    return None if moment is None else round(moment.timestamp(), 3)


def _quest_json(quest: quest_store.Quest, level: PipeLevel) -> dict[str, Any]:
    return {"id": quest.id, "name": quest.name, "rows": quest.rows, "cols": quest.cols,
            "segments": len(segments(level)), "codes": quest.code_count,
            "created_at": _time(quest.created_at)}


def _segment(level: PipeLevel, row: int, col: int) -> dict[str, Any]:
    cell = level.cell(row, col)
    return {"row": row, "col": col, "kind": cell.kind, "letter": cell.letter}


def _team_json(team: quest_store.Team, level: PipeLevel) -> dict[str, Any]:
    return {"name": team.name, "joined_at": _time(team.joined_at),
            "found": [{**_segment(level, r, c), "at": _time(at)} for r, c, at in team.found],
            "location_tries": team.location_tries, "wrong_locations": team.wrong_locations,
            "answer_tries": team.answer_tries, "finished_at": _time(team.finished_at),
            "seconds": None if team.seconds is None else round(team.seconds, 3),
            "answer": team.answer}


def _created(payload: dict[str, Any]) -> JSONResponse:
    return JSONResponse(payload, status_code=201)


# -- pages --------------------------------------------------------------------------------

@router.get("/quest", include_in_schema=False)
def team_page(request: Request) -> HTMLResponse:
    return page_response(TEAM_PAGE, live_origins(request.app.state.public_url))


@router.get("/quest/organiser", include_in_schema=False)
def organiser_page(request: Request) -> HTMLResponse:
    return page_response(ORGANISER_PAGE, live_origins(request.app.state.public_url))


# -- the organiser ------------------------------------------------------------------------

def _prepare(body: Any) -> tuple[str, PipeLevel, str]:
    """The name, level and level text (the text form) of an upload; 400/422 naming the
    problem (a malformed level: its line and column)."""
    name = _name(_text_field(body, "name", MAX_NAME * 4, "the quest's name"), MAX_NAME,
                 "name")
    text = _text_field(body, "level", MAX_LEVEL_TEXT, "the level as text or CSV")
    form = body.get("format", "auto")
    if form not in ("auto", *FORMATS):
        raise ApiError(400, f"format must be auto, text or csv, not {_shown(str(form))!r}",
                       "format", code="badQuestRequest", params={"field": "format"})
    try:
        level = parse_level(text, "level", form)
    except NotationError as e:
        detail = str(e).removeprefix(f"{e.where}: ") if e.where else str(e)
        raise ApiError(400, str(e), e.where or "level", code="badLevel",
                       params={"where": e.where or "level", "problem": detail}) from None
    except PuzzleError as e:
        raise ApiError(400, f"level: {e}", "level", code="badLevel",
                       params={"where": "level", "problem": str(e)}) from None
    if level.rows * level.cols > MAX_CELLS:
        cells = level.rows * level.cols
        raise ApiError(400, f"the level has {level.rows}x{level.cols} = {cells} cells, more "
                            f"than the {MAX_CELLS} a quest may have", "level",
                       code="questTooLarge",
                       params={"cells": cells, "limit": MAX_CELLS})
    return name, level, str(level)


@router.post("/api/quests", summary="Start a quest", status_code=201,
             responses=documented(400, 422, 429))
def create(request: Request, body: Annotated[Any, Body()] = None) -> JSONResponse:
    """Upload a level ``{name, level, format}``: ``{quest, key, locations}``, the
    organiser's key (shown once) and a location code per segment."""
    # The counter is a numba kernel, loaded by the first upload rather than by the server.
    from boardlab.puzzles.pipes.count import count_level

    service = _service(request)
    name, level, text = _prepare(body)
    service.limits.admit((service.limits.uploads, _client(request)), where="level")
    count = count_level(level)
    if count == 0:
        raise ApiError(422, "the level has no solution: no path leads from the tap to the "
                            "drain", "level", code="questNoSolution")
    if count > MAX_SOLUTIONS:
        raise ApiError(422, f"the level has {count:,} solutions, more than the "
                            f"{MAX_SOLUTIONS:,} a quest stores", "level",
                       code="questTooManySolutions",
                       params={"count": count, "limit": MAX_SOLUTIONS})
    quest, key = quest_store.create_quest(
        service.store, name, text, level.rows, level.cols, segments(level),
        (s.code for s in solutions(level)), new_location_code)
    return _created({"quest": _quest_json(quest, level), "key": key,
                     "solutions": count, "locations": _sheet(service, quest, level)})


def _sheet(service: QuestService, quest: quest_store.Quest,
           level: PipeLevel) -> list[dict[str, Any]]:
    return [{**_segment(level, loc.row, loc.col), "code": loc.code}
            for loc in quest_store.locations(service.store, quest.id)]


@router.get("/api/quests/{quest_id}/sheet", summary="The location codes",
            responses=documented(403, 404, 422))
def sheet(request: Request, quest_id: str) -> dict[str, Any]:
    """The organiser's sheet: ``{quest, locations: [{row, col, kind, letter, code}]}``."""
    quest = _quest(request, quest_id)
    _organiser(request, quest)
    level = _level(quest.id, quest.text)
    return {"quest": _quest_json(quest, level),
            "locations": _sheet(_service(request), quest, level)}


@router.get("/api/quests/{quest_id}/progress", summary="Every team's progress",
            responses=documented(403, 404, 422))
def progress(request: Request, quest_id: str) -> dict[str, Any]:
    """What the live view sends: ``{type: "progress", quest, teams}``."""
    quest = _quest(request, quest_id)
    _organiser(request, quest)
    return _service(request).progress(quest.id)


@router.websocket("/api/quests/{quest_id}/live")
async def live(websocket: WebSocket, quest_id: str) -> None:
    """The organiser's live view (see the module docstring)."""
    service: QuestService = websocket.app.state.quest
    await websocket.accept()
    try:
        first = await asyncio.wait_for(websocket.receive_text(), HELLO_SECONDS)
    except (TimeoutError, WebSocketDisconnect):
        first = None
    key = None
    if first is not None and len(first) <= MAX_MESSAGE:
        with contextlib.suppress(ValueError, AttributeError):
            hello = json.loads(first)
            if hello.get("type") == "hello" and isinstance(hello.get("key"), str):
                key = hello["key"]
    allowed = key is not None and len(key) <= 200 and await asyncio.to_thread(
        quest_store.is_organiser, service.store, quest_id, key)
    if not allowed:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            await websocket.send_json({"type": "error", "code": "notOrganiser",
                                       "error": "the organiser's key is missing or wrong"})
            await websocket.close(code=4403)
        return
    try:
        watcher = await service.topics.watch(quest_id)
    except ApiError as e:
        await websocket.send_json({"type": "error", "code": e.code, "error": e.message})
        await websocket.close(code=1013)
        return
    try:
        await pump(websocket, watcher)
    finally:
        service.topics.unwatch(quest_id, watcher)


# -- the teams ----------------------------------------------------------------------------

@router.get("/api/quests/{quest_id}", summary="A quest", responses=documented(404, 422))
def get(request: Request, quest_id: str) -> dict[str, Any]:
    """The quest as teams see it before playing: ``{id, name, rows, cols, segments,
    codes, created_at, teams}``."""
    quest = _quest(request, quest_id)
    level = _level(quest.id, quest.text)
    teams = quest_store.teams(_service(request).store, quest.id)
    return {**_quest_json(quest, level), "teams": len(teams)}


@router.post("/api/quests/{quest_id}/teams", summary="Join a quest", status_code=201,
             responses=documented(400, 404, 409, 422, 429))
def join(request: Request, quest_id: str,
         body: Annotated[Any, Body()] = None) -> JSONResponse:
    """Join with ``{name}`` (unique in the quest, whatever its case): ``{team, token}``,
    the team's secret token (shown once; the page keeps it)."""
    service = _service(request)
    quest = _quest(request, quest_id)
    name = _name(_text_field(body, "name", MAX_TEAM_NAME * 4, "the team's name"),
                 MAX_TEAM_NAME, "team")
    service.limits.admit((service.limits.joins, _client(request)), where="name")
    joined = quest_store.join(service.store, quest.id, name)
    if joined is None:
        raise ApiError(409, f"the quest has a team named {name!r} already", "name",
                       code="teamNameTaken", params={"name": name})
    team, token = joined
    service.topics.changed(quest.id)
    return _created({"team": _team_json(team, _level(quest.id, quest.text)), "token": token})


@router.get("/api/quests/{quest_id}/team", summary="Your team", responses=documented(403, 404, 422))
def team(request: Request, quest_id: str) -> dict[str, Any]:
    """The team of the token presented, with the segments it revealed."""
    quest = _quest(request, quest_id)
    return {"quest": _quest_json(quest, _level(quest.id, quest.text)),
            "team": _team_json(_team(request, quest), _level(quest.id, quest.text))}


@router.post("/api/quests/{quest_id}/locations", summary="Type a location code",
             responses=documented(400, 403, 404, 409, 422, 429))
def enter_location(request: Request, quest_id: str,
                   body: Annotated[Any, Body()] = None) -> dict[str, Any]:
    """A location code ``{code}`` found in the city: reveals its segment to the team."""
    service = _service(request)
    quest = _quest(request, quest_id)
    member = _team(request, quest)
    typed = read_location_code(_text_field(body, "code", MAX_LOCATION_CODE,
                                           "the code written at the location"))
    if not typed:
        raise ApiError(400, "the code is empty", "code", code="emptyCode")
    limits = service.limits
    limits.admit((limits.entries_by_team, member.id),
                 (limits.entries_by_client, _client(request)))
    entry = quest_store.enter_location(service.store, member.id, typed)
    service.topics.changed(quest.id)
    level = _level(quest.id, quest.text)
    if entry.outcome == "wrong":
        raise ApiError(400, f"{typed!r} is not a location code of this quest", "code",
                       code="wrongLocationCode", params={"code": typed})
    if entry.outcome == "other":
        raise ApiError(400, f"{typed!r} is a location code of another quest", "code",
                       code="otherQuestCode", params={"code": typed})
    assert entry.row is not None and entry.col is not None
    if entry.outcome == "already":
        raise ApiError(409, f"already found: {typed!r} is the segment at row {entry.row}, "
                            f"column {entry.col}", "code", code="alreadyFound",
                       params={"code": typed, "row": entry.row, "col": entry.col})
    updated = quest_store.team_by_token(service.store, quest.id, _bearer(request) or "")
    assert updated is not None
    return {"outcome": "found", "segment": _segment(level, entry.row, entry.col),
            "team": _team_json(updated, level)}


@router.post("/api/quests/{quest_id}/answer", summary="Type the pipe's letters",
             responses=documented(400, 403, 404, 422, 429))
def answer(request: Request, quest_id: str,
           body: Annotated[Any, Body()] = None) -> dict[str, Any]:
    """The letters along the team's pipe ``{code}``: ``{valid, first, finished_at,
    seconds, team}``; any solution's code is valid."""
    service = _service(request)
    quest = _quest(request, quest_id)
    member = _team(request, quest)
    level = _level(quest.id, quest.text)
    typed = read_answer(level, _text_field(body, "code", MAX_ANSWER * 4,
                                           "the letters along the pipe"))
    if not typed:
        raise ApiError(400, "the code is empty", "code", code="emptyCode")
    if len(typed) > MAX_ANSWER:
        raise ApiError(400, f"the code is longer than {MAX_ANSWER} letters", "code",
                       code="codeTooLong", params={"limit": MAX_ANSWER})
    limits = service.limits
    limits.admit((limits.answers_by_team, member.id),
                 (limits.answers_by_client, _client(request)))
    result = quest_store.enter_answer(service.store, member.id, typed)
    service.topics.changed(quest.id)
    updated = quest_store.team_by_token(service.store, quest.id, _bearer(request) or "")
    assert updated is not None
    return {"valid": result.valid, "first": result.first,
            "finished_at": _time(result.finished_at),
            "seconds": None if updated.seconds is None else round(updated.seconds, 3),
            "team": _team_json(updated, level)}


def install(app: FastAPI) -> None:
    """Serve the quest on ``app`` (its store must be ``app.state.store``)."""
    app.state.quest = QuestService(app.state.store)
    app.include_router(router)


__all__ = ["Limits", "QuestService", "install", "router"]
