"""Errors of the web app's JSON API: every failure is ``{"error": text, "where": ...,
"code": name}`` with a 4xx status (5xx only for a database that fails or a bug).

``error`` is English for people reading the API; ``code`` is a stable machine name of the
failure (``noMatch``, ``notYourTurn``, ``illegalMove``...), and ``params`` (when given) the
values its message names, so the pages show the failure in the player's language
(``error.<code>`` in static/js/i18n.js) and fall back to ``error`` for a code they do not
know. A failure without a code of its own gets its status's (:data:`STATUS_CODES`).

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


#: The code of a failure that names none, by HTTP status.
STATUS_CODES = {400: "badRequest", 403: "forbidden", 404: "notFound", 405: "methodNotAllowed",
                409: "conflict", 413: "tooLarge", 422: "invalidRequest", 429: "tooMany",
                500: "internal", 503: "unavailable"}


def code_of(status: int) -> str:
    """The machine code of a failure with ``status`` and no code of its own."""
    return STATUS_CODES.get(status, f"http{status}")


class ErrorBody(BaseModel):
    """The body of every error answer."""

    error: str
    where: str | int | None = None
    code: str
    params: dict[str, Any] | None = None
    details: list[dict[str, Any]] | None = None


def documented(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route that may answer these error statuses, for the
    OpenAPI schema (FastAPI's default 422 describes a body this API never sends)."""
    return {status: {"model": ErrorBody, "description": MEANINGS[status]}
            for status in statuses}


class ApiError(Exception):
    """A failure to report as ``{"error": message, "where": where, "code": code}`` with
    ``status``; ``code`` (default: the status's) names it for the pages to translate, with
    ``params`` the values the message names, and ``headers`` the answer's (a 429's
    ``Retry-After``)."""

    def __init__(self, status: int, message: str, where: Any = None, *,
                 code: str | None = None, params: dict[str, Any] | None = None,
                 headers: dict[str, str] | None = None):
        self.status = status
        self.message = message
        self.where = where
        self.code = code or code_of(status)
        self.params = params
        self.headers = headers
        super().__init__(message)


def error_body(status: int, message: str, where: Any = None, code: str | None = None,
               params: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON body of one error (see the module's docstring)."""
    body: dict[str, Any] = {"error": message, "where": where, "code": code or code_of(status)}
    if params:
        body["params"] = params
    return body


def error_response(status: int, message: str, where: Any = None, code: str | None = None,
                   params: dict[str, Any] | None = None) -> JSONResponse:
    """The JSON response of one error."""
    return JSONResponse(error_body(status, message, where, code, params), status_code=status)


def code_of_error(error: BoardlabError) -> tuple[str | None, dict[str, Any] | None]:
    """The machine code and parameters of a boardlab error (None: its status's code)."""
    if isinstance(error, UnknownGameError):
        return "unknownGame", {"game": error.name}
    if isinstance(error, IllegalMoveError):
        return "illegalMove", {"move": error.move}
    if isinstance(error, NotationError):
        return "badNotation", None
    if isinstance(error, OptionError):
        return "badOption", None
    if isinstance(error, BotError):
        return "badBot", None
    if isinstance(error, StoreError):
        return "storeUnavailable", None
    return None, None


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
                              _where(first.get("loc", ("body",))), "malformedJson")
    first = problems[0] if problems else {"msg": "invalid request", "loc": ()}
    location = _where(first.get("loc", ()))
    details = [{"where": _where(p.get("loc", ())), "error": p.get("msg", "")}
               for p in problems]
    body = error_body(422, f"invalid request: {location}: {first.get('msg', '')}", location,
                      "invalidRequest")
    return JSONResponse({**body, "details": details}, status_code=422)


async def _api(_request: Request, error: ApiError) -> JSONResponse:
    response = error_response(error.status, error.message, error.where, error.code,
                              error.params)
    if error.headers:
        response.headers.update(error.headers)
    return response


async def _boardlab(_request: Request, error: BoardlabError) -> JSONResponse:
    status, where = status_of(error)
    if status >= 500:
        log.error("boardlab web: %s", error)
    code, params = code_of_error(error)
    return error_response(status, " ".join(str(error).splitlines()), where, code, params)


async def _http(_request: Request, error: HTTPException) -> JSONResponse:
    response = error_response(error.status_code, str(error.detail), None)
    if error.headers:
        response.headers.update(error.headers)
    return response


async def _bug(request: Request, error: Exception) -> JSONResponse:
    log.exception("boardlab web: unexpected error on %s %s", request.method, request.url.path,
                  exc_info=error)
    return error_response(500, "internal error (a bug in boardlab; see the server log)",
                          code="internal")


def install(app: FastAPI) -> None:
    """Register the handlers that turn every error into the API's JSON shape."""
    app.add_exception_handler(RequestValidationError, _validation)  # type: ignore[arg-type]
    app.add_exception_handler(ApiError, _api)  # type: ignore[arg-type]
    app.add_exception_handler(BoardlabError, _boardlab)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, _http)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, _bug)
