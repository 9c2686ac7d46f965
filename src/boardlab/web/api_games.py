"""``/api/games``: the registered games, and one game with its rules and board geometry.

``GET /api/games/{name}`` takes the game's options as query parameters
(``/api/games/connect-four?rows=7``), each read by the option's own parser.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from fastapi import APIRouter, Request

from boardlab.web.errors import documented
from boardlab.web.matches import load_game
from boardlab.web.views import game_json, games_json

router = APIRouter(prefix="/api/games", tags=["games"])


@cache
def _catalogue() -> list[dict[str, Any]]:
    # The registry is fixed once every game module is imported.
    return games_json()


@router.get("", summary="Every game")
def list_games() -> list[dict[str, Any]]:
    """Every game: name, description, players, options (with defaults) and source."""
    return _catalogue()


@router.get("/{name}", summary="One game with its rules and board",
            responses=documented(404, 422))
def get_game(name: str, request: Request) -> dict[str, Any]:
    """A game with the options in the query: info, rules text and board geometry."""
    return game_json(load_game(name, dict(request.query_params)))
