"""``/api/matches``: create a match, look at it, play moves, ask the bot, undo, download
the record, and select groups of pieces for group moves.

Every route answers the match's view (see :meth:`Matches.view
<boardlab.web.matches.Matches.view>`) unless it says otherwise. A bot thinks in a worker
thread, so the server goes on answering other requests meanwhile.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from boardlab.web.errors import documented
from boardlab.web.matches import Matches
from boardlab.web.schemas import (
    BotRequest,
    ClosureRequest,
    GroupRequest,
    MoveRequest,
    NewMatch,
    UndoRequest,
)

router = APIRouter(prefix="/api/matches", tags=["matches"])


def _matches(request: Request) -> Matches:
    return request.app.state.matches


@router.get("", summary="Recent matches", responses=documented(422))
def list_matches(request: Request,
                 limit: Annotated[int, Query(ge=1, le=500)] = 50) -> list[dict[str, Any]]:
    """The most recently played matches, newest first (no replay: stored facts only)."""
    return _matches(request).summaries(limit)


@router.post("", status_code=201, summary="Start a match", responses=documented(404, 422))
def create_match(request: Request, body: NewMatch) -> dict[str, Any]:
    """A new match of ``game`` with ``options`` and ``players``."""
    return _matches(request).create(body)


@router.get("/{match_id}", summary="A match", responses=documented(404, 409, 422))
def get_match(request: Request, match_id: str) -> dict[str, Any]:
    """The match: moves, position, side to move, outcome, legal moves and the view."""
    matches = _matches(request)
    return matches.view(matches.get(match_id))


@router.post("/{match_id}/moves", summary="Play a move",
             responses=documented(400, 404, 409, 422))
def play_move(request: Request, match_id: str, body: MoveRequest) -> dict[str, Any]:
    """Play ``move`` (the game's notation); 400 naming it when it is not legal."""
    return _matches(request).play(match_id, body.move)


@router.post("/{match_id}/bot", summary="Let the bot move", responses=documented(404, 409, 422))
async def bot_move(request: Request, match_id: str,
                   body: Annotated[BotRequest | None, Body()] = None) -> dict[str, Any]:
    """The bot of the side to move (or ``player`` in the body) chooses and plays, in a
    worker thread."""
    player = None if body is None else body.player
    return await run_in_threadpool(_matches(request).bot_move, match_id, player)


@router.post("/{match_id}/undo", summary="Take back a move", responses=documented(404, 409, 422))
def undo(request: Request, match_id: str,
         body: Annotated[UndoRequest | None, Body()] = None) -> dict[str, Any]:
    """Take back the last move (``{"to_human": true}``: back to a human's turn)."""
    return _matches(request).undo(match_id, body is not None and body.to_human)


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
