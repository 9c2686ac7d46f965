"""``/api/matches`` and ``/api/lobby``: create and join matches, play moves, let bots
move, resign, offer draws, take back, rematch, replay, watch live over a WebSocket, and
select groups of pieces for group moves.

A seat's token goes in the ``Authorization: Bearer TOKEN`` header (see
:mod:`boardlab.web.matches`): creating a match or joining one answers it (``token``),
or adopts the caller's own. Reading a match needs no token; acting for a seat does (403
otherwise). Every route answers the match's view (see :meth:`Matches.view
<boardlab.web.matches.Matches.view>`) unless it says otherwise.

``/api/matches/{id}/live`` is a WebSocket: the server sends ``{"type": "match", ...}``
(the view) at once and after every change of the match; the client may send
``{"type": "hello", "token": TOKEN}`` to be told its seats (``you``) and
``{"type": "ping"}`` (answered ``{"type": "pong"}``). A closed connection is
reopened by the client; the first message after it is the current view, so nothing is
missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from boardlab.web.errors import ApiError, documented
from boardlab.web.live import MAX_MESSAGE, Live, pump
from boardlab.web.matches import Matches
from boardlab.web.schemas import (
    BotRequest,
    ClosureRequest,
    GroupRequest,
    JoinRequest,
    MoveRequest,
    NewMatch,
    OfferRequest,
    SeatRequest,
    UndoRequest,
)

router = APIRouter(prefix="/api/matches", tags=["matches"])
lobby_router = APIRouter(prefix="/api/lobby", tags=["matches"])

#: Seconds a new live connection may take to say hello before it watches as a spectator.
HELLO_SECONDS = 2.0
#: Seconds of silence after which the server pings a live client's connection.
LIVE_PING_SECONDS = 25.0


def _matches(request: Request) -> Matches:
    return request.app.state.matches


def _live(request: Request) -> Live:
    return request.app.state.live


def seat_token(request: Request) -> str | None:
    """The seat token of ``Authorization: Bearer TOKEN``, or ``None``."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


@router.get("", summary="Recent public matches", responses=documented(422))
def list_matches(request: Request,
                 limit: Annotated[int, Query(ge=1, le=500)] = 50) -> list[dict[str, Any]]:
    """The most recently played public matches, newest first (stored facts only; a
    private match is reached only by its link)."""
    return _matches(request).summaries(limit)


@lobby_router.get("", summary="The lobby", responses=documented(422))
def lobby(request: Request,
          limit: Annotated[int, Query(ge=1, le=200)] = 50) -> dict[str, list[dict[str, Any]]]:
    """Public games ``open`` for an opponent, ``playing`` ones to watch and ``finished``
    ones to replay, and ``mine``: the caller's own matches (by its seat token)."""
    return _matches(request).lobby(limit, seat_token(request))


@router.post("", status_code=201, summary="Start a match", responses=documented(404, 422))
def create_match(request: Request, body: NewMatch) -> dict[str, Any]:
    """A new match of ``game`` with ``options`` and ``players``; the caller holds its
    human seats with the answer's ``token`` (its own, if it sent one)."""
    return _matches(request).create(body, seat_token(request))


@router.get("/{match_id}", summary="A match", responses=documented(404, 409, 422))
def get_match(request: Request, match_id: str) -> dict[str, Any]:
    """The match: moves, position, side to move, outcome, legal moves, clocks, offers,
    and ``you``, the seats the caller's token holds."""
    matches = _matches(request)
    return matches.view(matches.get(match_id), None, seat_token(request))


@router.post("/{match_id}/join", summary="Take an open seat",
             responses=documented(403, 404, 409, 422))
def join(request: Request, match_id: str,
         body: Annotated[JoinRequest | None, Body()] = None) -> dict[str, Any]:
    """Take the open ``seat`` (by default the first) under ``name``; the answer's
    ``token`` holds it."""
    body = body or JoinRequest()
    return _matches(request).join(match_id, seat_token(request), body.name, body.seat)


@router.post("/{match_id}/moves", summary="Play a move",
             responses=documented(400, 403, 404, 409, 422))
def play_move(request: Request, match_id: str, body: MoveRequest) -> dict[str, Any]:
    """Play ``move`` (the game's notation) for the seat to move, which the caller must
    hold; 400 naming it when it is not legal, 409 when the match is past ``revision``."""
    return _matches(request).play(match_id, body.move, seat_token(request), body.revision)


@router.post("/{match_id}/bot", summary="Let the bot move",
             responses=documented(403, 404, 409, 422))
async def bot_move(request: Request, match_id: str,
                   body: Annotated[BotRequest | None, Body()] = None) -> dict[str, Any]:
    """The match once the bot of the seat to move has moved (the server moves bots by
    itself; this waits for it), or with ``player``, that bot's move for the caller's
    own seat. Bots think in worker processes with limits on time and memory."""
    body = body or BotRequest()
    return await _live(request).bot_turn(match_id, body.player, seat_token(request),
                                         body.revision)


@router.post("/{match_id}/undo", summary="Take back a move",
             responses=documented(403, 404, 409, 422))
def undo(request: Request, match_id: str,
         body: Annotated[UndoRequest | None, Body()] = None) -> dict[str, Any]:
    """Take back the last move (``{"to_human": true}``: back to a human's turn); only
    for a caller holding every human seat (against bots, or hot-seat)."""
    return _matches(request).undo(match_id, body is not None and body.to_human,
                                  seat_token(request))


@router.post("/{match_id}/resign", summary="Resign", responses=documented(403, 404, 409, 422))
def resign(request: Request, match_id: str,
           body: Annotated[SeatRequest | None, Body()] = None) -> dict[str, Any]:
    """The caller's seat (``seat``, by default its seat to move or its only one)
    resigns."""
    return _matches(request).resign(match_id, seat_token(request),
                                    None if body is None else body.seat)


@router.post("/{match_id}/draw", summary="Offer, accept or decline a draw",
             responses=documented(403, 404, 409, 422))
def draw(request: Request, match_id: str, body: OfferRequest) -> dict[str, Any]:
    """``offer`` a draw, ``accept`` the opponent's offer (the game ends drawn) or
    ``decline`` it."""
    return _matches(request).draw(match_id, seat_token(request), body.action, body.seat)


@router.post("/{match_id}/takeback", summary="Ask for, accept or decline a take-back",
             responses=documented(403, 404, 409, 422))
def takeback(request: Request, match_id: str, body: OfferRequest) -> dict[str, Any]:
    """``request`` taking back one's last move, the opponent's ``accept`` (the moves go)
    or ``decline``."""
    return _matches(request).takeback(match_id, seat_token(request), body.action, body.seat)


@router.post("/{match_id}/rematch", summary="Play again, seats turned round",
             responses=documented(403, 404, 409, 422))
def rematch(request: Request, match_id: str) -> dict[str, Any]:
    """The rematch of a finished match (created by the first player to ask), with the
    colours swapped; every seat keeps its holder."""
    return _matches(request).rematch(match_id, seat_token(request))


@router.get("/{match_id}/positions/{ply}", summary="A position of the match",
            responses=documented(404, 409, 422))
def position(request: Request, match_id: str, ply: int) -> dict[str, Any]:
    """The position after the first ``ply`` moves, for a replay: drawing, text, side
    to move and the move that led there (404 past the match's last move)."""
    matches = _matches(request)
    return matches.position(matches.get(match_id), ply)


@router.get("/{match_id}/record", summary="Download the record",
            responses=documented(404, 409, 422))
def record(request: Request, match_id: str) -> JSONResponse:
    """The match as a JSON file to download: game, options, players, moves, result."""
    matches = _matches(request)
    match = matches.get(match_id)
    safe = re.sub(r"[^a-z0-9-]", "", match.game)
    return JSONResponse(matches.record(match), headers={
        "Content-Disposition": f'attachment; filename="{safe}-{match.id[:8]}.json"'})


@router.post("/{match_id}/closure", summary="Grow a selected group",
             responses=documented(400, 404, 409, 422))
def closure(request: Request, match_id: str, body: ClosureRequest) -> dict[str, Any]:
    """The selected ``group`` grown as the candidate ``move`` demands: ``{"group",
    "move"}``."""
    return _matches(request).closure(match_id, body.group, body.move)


@router.post("/{match_id}/group-moves", summary="Moves of a selected group",
             responses=documented(400, 404, 409, 422))
def group_moves(request: Request, match_id: str, body: GroupRequest) -> dict[str, Any]:
    """The legal moves moving exactly ``group`` (``moves``) and at least it
    (``moves_using``)."""
    return _matches(request).group_moves(match_id, body.group)


@router.websocket("/{match_id}/live")
async def live_match(websocket: WebSocket, match_id: str) -> None:
    """Watch a match live (see the module's docstring)."""
    live: Live = websocket.app.state.live
    await websocket.accept()
    # A client says who it is first, so that its first view already names its seats;
    # one that says nothing for a moment watches as a spectator.
    token = None
    try:
        first = await asyncio.wait_for(websocket.receive_text(), HELLO_SECONDS)
    except TimeoutError:
        first = None
    except WebSocketDisconnect:
        return
    if first is not None and len(first) <= MAX_MESSAGE:
        with contextlib.suppress(ValueError, AttributeError):
            hello = json.loads(first)
            if hello.get("type") == "hello" and isinstance(hello.get("token"), str):
                token = hello["token"]
    try:
        watcher = await live.watch(match_id, token)
    except ApiError as e:
        await websocket.send_json({"type": "error", "error": e.message, "where": e.where})
        await websocket.close(code={404: 4404, 503: 1013}.get(e.status, 4409))
        return

    async def on_message(message: dict[str, Any]) -> None:
        # A hello after the first (a seat joined meanwhile): the view again, with the
        # seats the new token holds.
        if message.get("type") != "hello":
            await websocket.send_json({"type": "error",
                                       "error": f"unknown type {message.get('type')!r}"})
            return
        token = message.get("token")
        watcher.token = token if isinstance(token, str) else None
        match = await asyncio.to_thread(live.matches.get, match_id)
        view = await asyncio.to_thread(live.matches.view, match)
        live.send(match, watcher, view)

    try:
        await pump(websocket, watcher, on_message, LIVE_PING_SECONDS)
    finally:
        live.unwatch(match_id, watcher)
