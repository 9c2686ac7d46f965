"""The web app (``boardlab serve``): the JSON API of every game and the lobby page.

:func:`create_app` builds the FastAPI application on a database (opened and migrated to
the newest schema at once, so a bad URL fails before the server starts); :func:`serve`
runs it with uvicorn on a socket it binds itself, so a busy port is one clear error.
Static files (``web/static/``, shipped with the package) are served under ``/static`` and
the lobby, ``static/index.html``, at ``/``; nothing is fetched from the network. The API's
interactive reference is at ``/docs`` (Swagger UI, its files from the ``swagger-ui-bundle``
package under ``/docs/assets``) and its schema at ``/openapi.json``.

Routes: ``/api/games`` and ``/api/imports`` (:mod:`boardlab.web.api_games`), each game's
rules page ``/games/{name}/rules`` (:mod:`boardlab.web.rules_page`),
``/api/matches`` and ``/api/lobby`` (:mod:`boardlab.web.api_matches`, with live play
over WebSockets, :mod:`boardlab.web.live`), the Plumber city quest ``/quest`` and
``/api/quests`` (:mod:`boardlab.web.api_quest`); errors are JSON ``{"error", "where"}``
(:mod:`boardlab.web.errors`). The imported games are the rule files of the games folder
(:mod:`boardlab.web.library`), read in the background from the server's start.

Every request is bounded and every answer hardened (:mod:`boardlab.web.security`): bodies
over ``max_body_bytes`` are refused, every answer carries the security headers, pages
allow only their own scripts and styles, and the ``Host`` header is never written into a
page (links are relative, or use the operator's ``public_url``). Browsers on the
``cors_origins`` may call the API from their own pages (an exported Triplex file posting
to the leaderboard), and ``X-Forwarded-For`` is believed only from ``trusted_proxies``,
so the leaderboard's rate limits count the real clients behind a reverse proxy.
"""

from __future__ import annotations

import errno
import socket
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp
from swagger_ui_bundle import swagger_ui_path
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

import boardlab
from boardlab.errors import BoardlabError
from boardlab.store.db import Store, default_url, open_store
from boardlab.web import api_games, api_matches, api_quest, api_triplex, errors, rules_page
from boardlab.web.api_pipes import router as pipes_router
from boardlab.web.botpool import MEMORY_MB, BotPool
from boardlab.web.library import Library, games_folder
from boardlab.web.live import Live
from boardlab.web.matches import Matches
from boardlab.web.security import (
    MAX_BODY_BYTES,
    BodyLimit,
    SecurityHeaders,
    SettingError,
    check_origin,
    check_proxy,
    check_public_url,
    live_origins,
    page_response,
)

STATIC = Path(__file__).with_name("static")
LOBBY = STATIC / "index.html"
GAME_PAGE = STATIC / "game.html"
FAVICON = STATIC / "favicon.svg"
#: Where the app serves Swagger UI's own files.
SWAGGER_ASSETS = "/docs/assets"
#: The schema as the /docs page reads it (see :func:`create_app`).
SWAGGER_SCHEMA = "/docs/openapi.json"


API_DESCRIPTION = """The JSON API behind boardlab's web pages: the games, matches against the
bots, Triplex packs and their leaderboard, and pipe puzzles.

Every error is a JSON object `{"error": text, "where": what was wrong or null}` with a
4xx status (5xx only when the database fails, or for a bug); a request that does not
validate is a 422 and adds `details`, one `{"where", "error"}` per problem."""


class ServeError(BoardlabError, OSError):
    """The server cannot listen where it was asked (a busy port, an unknown host)."""


def open_database(db_url: str | None = None, data_dir: str | Path | None = None) -> Store:
    """The database of the app: ``db_url`` (an SQLAlchemy URL or an SQLite file), else
    ``boardlab.db`` in ``data_dir``, else the default of :func:`boardlab.store.db.open_store`."""
    if db_url is not None:
        return open_store(db_url)
    if data_dir is not None:
        return open_store(default_url(Path(data_dir)))
    return open_store()


class _App(FastAPI):
    """FastAPI whose every answer, even the 500 of a bug (sent by the error middleware
    that FastAPI keeps outermost), goes through :class:`SecurityHeaders`."""

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeaders(super().build_middleware_stack())


def create_app(db_url: str | None = None, data_dir: str | Path | None = None,
               games_dir: str | Path | None = None, *,
               max_body_bytes: int = MAX_BODY_BYTES, public_url: str | None = None,
               cors_origins: Iterable[str] = (),
               trusted_proxies: Iterable[str] = (), bot_workers: int = 2,
               bot_memory_mb: int = MEMORY_MB) -> FastAPI:
    """The web application on the database chosen as by :func:`open_database`, with the
    imported games of ``games_dir`` (default: ``games`` in the data folder, when there is
    one). Bots think in ``bot_workers`` worker processes (0: in threads of the server),
    each capped at ``bot_memory_mb`` MiB (see :mod:`boardlab.web.botpool`).

    ``max_body_bytes`` bounds request bodies (413 past it); ``public_url`` is the address
    the server is reached at, written into pages that need an absolute one (otherwise
    they use relative addresses); ``cors_origins`` are the origins whose pages may call
    the API (``null``: files opened from disk); ``trusted_proxies`` the addresses or
    networks whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed.

    Raises :class:`~boardlab.web.security.SettingError` for a malformed setting,
    :class:`~boardlab.errors.StoreError` when the database cannot be opened and
    :class:`~boardlab.errors.FileError` when ``games_dir`` is not a folder.
    """
    public = check_public_url(public_url) if public_url else None
    origins = list(dict.fromkeys(check_origin(origin) for origin in cors_origins))
    proxies = list(dict.fromkeys(check_proxy(proxy) for proxy in trusted_proxies))
    if max_body_bytes < 0:
        raise SettingError(f"max_body_bytes must be 0 or more, not {max_body_bytes}")
    folder = games_folder(games_dir, data_dir)
    store = open_database(db_url, data_dir)
    library = Library(folder)
    matches = Matches(store, library)
    live_play = Live(matches, BotPool(bot_workers, bot_memory_mb))

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        library.refresh()
        await live_play.start()
        yield
        await live_play.stop()
        library.close()
        store.close()

    # FastAPI's own /docs page loads Swagger UI from a CDN; the app must work offline, so
    # it serves the page itself (below) with the files of the swagger-ui-bundle package.
    app = _App(title="boardlab", version=boardlab.__version__, docs_url=None,
               redoc_url=None, lifespan=lifespan, description=API_DESCRIPTION)
    app.state.store = store
    app.state.library = library
    app.state.matches = matches
    app.state.live = live_play
    app.state.public_url = public
    errors.install(app)
    # The last added runs first: the client's real address is known before anything
    # else looks at the request, and CORS answers its preflights before the body limit.
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    if origins:
        app.add_middleware(CORSMiddleware, allow_origins=origins,
                           allow_methods=["GET", "POST"],
                           allow_headers=["Content-Type", "Authorization"],
                           expose_headers=["Retry-After"], max_age=600)
    if proxies:
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=proxies)
    app.include_router(api_games.router)
    app.include_router(rules_page.router)
    app.include_router(api_matches.router)
    app.include_router(api_matches.lobby_router)
    api_triplex.install(app, data_dir)
    app.include_router(pipes_router)
    api_quest.install(app)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.mount(SWAGGER_ASSETS, StaticFiles(directory=str(swagger_ui_path)), name="swagger-ui")
    live = live_origins(public)
    swagger_page = get_swagger_ui_html(
        openapi_url=SWAGGER_SCHEMA, title="boardlab API",
        swagger_js_url=f"{SWAGGER_ASSETS}/swagger-ui-bundle.js",
        swagger_css_url=f"{SWAGGER_ASSETS}/swagger-ui.css",
        swagger_favicon_url=f"{SWAGGER_ASSETS}/favicon-32x32.png").body.decode("utf-8")

    @app.get("/docs", include_in_schema=False)
    def api_reference() -> HTMLResponse:
        return page_response(swagger_page)

    @app.get(SWAGGER_SCHEMA, include_in_schema=False)
    def schema_for_swagger_ui() -> JSONResponse:
        # swagger-ui-bundle ships Swagger UI 4, which refuses any document that declares
        # OpenAPI 3.1 (as FastAPI's does) but renders this one; /openapi.json stays exact.
        return JSONResponse({**app.openapi(), "openapi": "3.0.3"})

    @app.get("/", include_in_schema=False)
    def lobby() -> HTMLResponse:
        return page_response(LOBBY, live)

    @app.get("/game", include_in_schema=False)
    def game_page() -> HTMLResponse:
        return page_response(GAME_PAGE, live)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        # Browsers ask every site for /favicon.ico; an SVG answers them all.
        return FileResponse(FAVICON, media_type="image/svg+xml",
                            headers={"Cache-Control": "public, max-age=86400"})

    return app


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (port 0: any free port);
    :class:`ServeError` if the address is busy or unknown."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (OSError, UnicodeError) as e:
        raise ServeError(f"cannot listen on {host}:{port}: unknown host ({e})") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as e:
        sock.close()
        reason = "the port is in use" if e.errno == errno.EADDRINUSE else (e.strerror or e)
        raise ServeError(f"cannot listen on {host}:{port}: {reason}") from None
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    """The http URL a bound socket answers on."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def serve(host: str = "127.0.0.1", port: int = 8000, db_url: str | None = None,
          data_dir: str | Path | None = None, *, games_dir: str | Path | None = None,
          public_url: str | None = None, cors_origins: Iterable[str] = (),
          trusted_proxies: Iterable[str] = (), bot_workers: int = 2,
          bot_memory_mb: int = MEMORY_MB, echo: Callable[[str], object] = print,
          log_level: str = "info") -> None:
    """Open the database, bind the address, say where the app is and run it until
    interrupted (Ctrl-C). ``public_url``, ``cors_origins``, ``trusted_proxies``,
    ``bot_workers`` and ``bot_memory_mb`` are those of :func:`create_app`."""
    import uvicorn

    app = create_app(db_url, data_dir, games_dir, public_url=public_url,
                     cors_origins=cors_origins, trusted_proxies=trusted_proxies,
                     bot_workers=bot_workers, bot_memory_mb=bot_memory_mb)
    try:
        sock = bind(host, port)
    except ServeError:
        app.state.store.close()
        raise
    games = app.state.library.folder
    shown = f"; imported games from {games}" if games is not None and games.is_dir() else ""
    echo(f"boardlab web app on {url_of(sock)} (database {app.state.store.url}{shown}); "
         "Ctrl-C stops it")
    # uvicorn would believe X-Forwarded-For from 127.0.0.1 (or $FORWARDED_ALLOW_IPS);
    # the app believes it from the trusted proxies only (see create_app).
    server = uvicorn.Server(uvicorn.Config(app, log_level=log_level, lifespan="on",
                                           proxy_headers=False, server_header=False))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
