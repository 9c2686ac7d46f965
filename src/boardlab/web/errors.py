"""Errors of the web app's JSON API: every failure is ``{"error": text, "where": ...}``
with a 4xx status (5xx only for a database that fails or a bug).

Routes raise :class:`ApiError` for what only the web layer knows (an unknown match, a
stale revision) and let boardlab's own errors through; :func:`install` maps those to
statuses: an unknown game 404, a bad option or bot 422, a bad or illegal move 400, a
database failure 503. Request bodies that do not parse or validate are 400 (malformed
JSON) or 422, with ``where`` naming the field.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException

from boardlab.errors import (
    BoardError,
    BoardlabError,
    BotError,
    IllegalMoveError,
    NotationError,
    OptionError,
    RulesError,
    StoreError,
    UnknownGameError,
)

log = logging.getLogger("boardlab.web")

#: What each error status means in this API, for the OpenAPI schema.
MEANINGS = {
    400: "Malformed or illegal: a move, a code, a solution, a board or malformed JSON",
    403: "Not yours to do: the seat token (Authorization: Bearer) does not hold the seat",
    404: "No such game, match, pack, level or pipe level",
    409: "Not possible in the match's state (over, nothing to undo, changed meanwhile)",
    422: "The request does not validate (``details`` lists every problem)",
    429: "Too many submissions; ``Retry-After`` says when to try again",
}


class ErrorBody(BaseModel):
    """The body of every error answer."""

    error: str
    where: str | int | None = None
    details: list[dict[str, Any]] | None = None


def documented(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route that may answer these error statuses, for the
    OpenAPI schema (FastAPI's default 422 describes a body this API never sends)."""
    return {status: {"model": ErrorBody, "description": MEANINGS[status]}
            for status in statuses}


class ApiError(Exception):
    """A failure to report as ``{"error": message, "where": where}`` with ``status``."""

    def __init__(self, status: int, message: str, where: Any = None):
        self.status = status
        self.message = message
        self.where = where
        super().__init__(message)


def error_response(status: int, message: str, where: Any = None) -> JSONResponse:
    """The JSON response of one error."""
    return JSONResponse({"error": message, "where": where}, status_code=status)


def status_of(error: BoardlabError) -> tuple[int, Any]:
    """The HTTP status of a boardlab error and what its ``where`` is."""
    if isinstance(error, UnknownGameError):
        return 404, error.name
    if isinstance(error, IllegalMoveError):
        return 400, error.move
    if isinstance(error, NotationError):
        return 400, error.where
    if isinstance(error, OptionError | BotError | RulesError):
        # The request is well formed; the game (its options, a bot, its rules) cannot
        # do what it asks.
        return 422, None
    if isinstance(error, BoardError):
        return 400, None
    if isinstance(error, StoreError):
        return 503, None
    return 400, None


def _where(location: tuple[Any, ...] | list[Any]) -> str:
    return ".".join(str(part) for part in location)


async def _validation(_request: Request, error: RequestValidationError) -> JSONResponse:
    problems = error.errors()
    if any(p.get("type") == "json_invalid" for p in problems):
        first = next(p for p in problems if p.get("type") == "json_invalid")
        detail = (first.get("ctx") or {}).get("error", "")
        return error_response(400, f"malformed JSON{': ' + detail if detail else ''}",
                              _where(first.get("loc", ("body",))))
    first = problems[0] if problems else {"msg": "invalid request", "loc": ()}
    location = _where(first.get("loc", ()))
    details = [{"where": _where(p.get("loc", ())), "error": p.get("msg", "")}
               for p in problems]
    return JSONResponse({"error": f"invalid request: {location}: {first.get('msg', '')}",
                         "where": location, "details": details}, status_code=422)


async def _api(_request: Request, error: ApiError) -> JSONResponse:
    return error_response(error.status, error.message, error.where)


async def _boardlab(_request: Request, error: BoardlabError) -> JSONResponse:
    status, where = status_of(error)
    if status >= 500:
        log.error("boardlab web: %s", error)
    return error_response(status, " ".join(str(error).splitlines()), where)


async def _http(_request: Request, error: HTTPException) -> JSONResponse:
    response = error_response(error.status_code, str(error.detail), None)
    if error.headers:
        response.headers.update(error.headers)
    return response


async def _bug(request: Request, error: Exception) -> JSONResponse:
    log.exception("boardlab web: unexpected error on %s %s", request.method, request.url.path,
                  exc_info=error)
    return error_response(500, "internal error (a bug in boardlab; see the server log)")


def install(app: FastAPI) -> None:
    """Register the handlers that turn every error into the API's JSON shape."""
    app.add_exception_handler(RequestValidationError, _validation)  # type: ignore[arg-type]
    app.add_exception_handler(ApiError, _api)  # type: ignore[arg-type]
    app.add_exception_handler(BoardlabError, _boardlab)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, _http)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, _bug)
