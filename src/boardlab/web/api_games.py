"""``/api/games``: the registered and imported games, one game with its rules and board
geometry, and the state of the imported rule files.

``GET /api/games/{name}`` takes the game's options as query parameters
(``/api/games/connect-four?rows=7``), each read by the option's own parser. ``name`` is a
registered game's name or an imported game's id (``zrf:chess/chess``, ``zrf:chess/chess@2``;
see :mod:`boardlab.web.library`); ``GET /api/imports`` lists the rule files that failed
to load, with their reasons, and those still being read.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from fastapi import APIRouter, Request

from boardlab.web.errors import documented
from boardlab.web.library import Library, is_imported
from boardlab.web.matches import Matches
from boardlab.web.views import game_json, games_json

router = APIRouter(prefix="/api", tags=["games"])


@cache
def _catalogue() -> list[dict[str, Any]]:
    # The registry is fixed once every game module is imported.
    return [{**game, "imported": None} for game in games_json()]


def _library(request: Request) -> Library:
    return request.app.state.library


@router.get("/games", summary="Every game")
def list_games(request: Request) -> list[dict[str, Any]]:
    """Every game: name, description, players, ``chance`` (the random players' indices:
    their seats are the server's to move), options (with defaults), source and
    ``imported``: ``null`` for a registered game; for an imported one ``{file, variant,
    default_variant, variants: [{id, variant, title, description, players, chance, error}],
    note}``, the rule file (its path in the games folder) and its variants. Registered
    games come first, by name, then the imported ones, by file."""
    return _catalogue() + _library(request).games()


@router.get("/games/{name:path}", summary="One game with its rules and board",
            responses=documented(404, 422))
def get_game(name: str, request: Request) -> dict[str, Any]:
    """A game with the options in the query: info, rules (``rules``, the text as written;
    ``rules_html``, the same as HTML to show in a page) and board geometry. An
    imported game's board also has ``rects`` (each cell's rectangle on the rule file's
    screen, ``[left, top, right, bottom]``, or ``null``) and ``labels`` (piece -> the
    letters drawn on it)."""
    options = dict(request.query_params)
    if is_imported(name):
        return _library(request).game_json(name, options)
    matches: Matches = request.app.state.matches
    return game_json(matches.load(name, options)[1])


@router.get("/imports", summary="The imported rule files")
def imports(request: Request) -> dict[str, Any]:
    """The rule files of the games folder: ``files`` (how many), ``loaded``, ``failed``
    (``[{file, error}]``, the error's one line naming file, line and column), ``pending``
    (files still being read) and ``skipped`` (files beyond the most a folder may offer)."""
    return _library(request).status()
