"""The web app (``boardlab serve``): the JSON API of every game and the lobby page.

:func:`create_app` builds the FastAPI application on a database (opened and migrated to
the newest schema at once, so a bad URL fails before the server starts); :func:`serve`
runs it with uvicorn on a socket it binds itself, so a busy port is one clear error.
Static files (``web/static/``, shipped with the package) are served under ``/static`` and
the lobby, ``static/index.html``, at ``/``; nothing is fetched from the network. The API's
interactive reference is at ``/docs`` (Swagger UI, its files from the ``swagger-ui-bundle``
package under ``/docs/assets``) and its schema at ``/openapi.json``.

Routes: ``/api/games`` and ``/api/imports`` (:mod:`boardlab.web.api_games`) and
``/api/matches`` (:mod:`boardlab.web.api_matches`); errors are JSON ``{"error", "where"}``
(:mod:`boardlab.web.errors`). The imported games are the rule files of the games folder
(:mod:`boardlab.web.library`), read in the background from the server's start.
"""

from __future__ import annotations

import errno
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path

import boardlab
from boardlab.errors import BoardlabError
from boardlab.store.db import Store, default_url, open_store
from boardlab.web import api_games, api_matches, api_triplex, errors
from boardlab.web.api_pipes import router as pipes_router
from boardlab.web.library import Library, games_folder
from boardlab.web.matches import Matches

STATIC = Path(__file__).with_name("static")
LOBBY = STATIC / "index.html"
GAME_PAGE = STATIC / "game.html"
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


def create_app(db_url: str | None = None, data_dir: str | Path | None = None,
               games_dir: str | Path | None = None) -> FastAPI:
    """The web application on the database chosen as by :func:`open_database`, with the
    imported games of ``games_dir`` (default: ``games`` in the data folder, when there is
    one).

    Raises :class:`~boardlab.errors.StoreError` when the database cannot be opened and
    :class:`~boardlab.errors.FileError` when ``games_dir`` is not a folder.
    """
    folder = games_folder(games_dir, data_dir)
    store = open_database(db_url, data_dir)
    library = Library(folder)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        library.refresh()
        yield
        library.close()
        store.close()

    # FastAPI's own /docs page loads Swagger UI from a CDN; the app must work offline, so
    # it serves the page itself (below) with the files of the swagger-ui-bundle package.
    app = FastAPI(title="boardlab", version=boardlab.__version__, docs_url=None,
                  redoc_url=None, lifespan=lifespan, description=API_DESCRIPTION)
    app.state.store = store
    app.state.library = library
    app.state.matches = Matches(store, library)
    errors.install(app)
    app.include_router(api_games.router)
    app.include_router(api_matches.router)
    api_triplex.install(app, data_dir)
    app.include_router(pipes_router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.mount(SWAGGER_ASSETS, StaticFiles(directory=str(swagger_ui_path)), name="swagger-ui")

    @app.get("/docs", include_in_schema=False)
    def api_reference() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=SWAGGER_SCHEMA, title="boardlab API",
            swagger_js_url=f"{SWAGGER_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{SWAGGER_ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{SWAGGER_ASSETS}/favicon-32x32.png")

    @app.get(SWAGGER_SCHEMA, include_in_schema=False)
    def schema_for_swagger_ui() -> JSONResponse:
        # swagger-ui-bundle ships Swagger UI 4, which refuses any document that declares
        # OpenAPI 3.1 (as FastAPI's does) but renders this one; /openapi.json stays exact.
        return JSONResponse({**app.openapi(), "openapi": "3.0.3"})

    @app.get("/", include_in_schema=False)
    def lobby() -> FileResponse:
        return FileResponse(LOBBY, media_type="text/html")

    @app.get("/game", include_in_schema=False)
    def game_page() -> FileResponse:
        return FileResponse(GAME_PAGE, media_type="text/html")

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
          echo: Callable[[str], object] = print, log_level: str = "info") -> None:
    """Open the database, bind the address, say where the app is and run it until
    interrupted (Ctrl-C)."""
    import uvicorn

    app = create_app(db_url, data_dir, games_dir)
    try:
        sock = bind(host, port)
    except ServeError:
        app.state.store.close()
        raise
    games = app.state.library.folder
    shown = f"; imported games from {games}" if games is not None and games.is_dir() else ""
    echo(f"boardlab web app on {url_of(sock)} (database {app.state.store.url}{shown}); "
         "Ctrl-C stops it")
    server = uvicorn.Server(uvicorn.Config(app, log_level=log_level, lifespan="on"))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
