"""What the browser tests share: the real app served by uvicorn in a thread."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from boardlab.web.app import bind, url_of

#: Debian's chromium, which Playwright drives (it downloads no browser of its own).
CHROMIUM = Path("/usr/bin/chromium")


def screenshots(fallback: Path, name: str) -> Path:
    """The folder for a browser test's screenshots: ``$BOARDLAB_ARTIFACTS/NAME``, which
    .ci/run keeps, else ``NAME`` under the test's own ``fallback`` folder (made)."""
    folder = Path(os.environ.get("BOARDLAB_ARTIFACTS") or fallback) / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextmanager
def serving(app) -> Iterator[str]:
    """Serve ``app`` with uvicorn in a thread on a free port of 127.0.0.1; yields its URL
    and stops the server afterwards."""
    import uvicorn

    sock = bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        yield url_of(sock)
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


@pytest.fixture(scope="module")
def browser():
    """Headless chromium for a test module (skipped without chromium or Playwright)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not CHROMIUM.exists():
        pytest.skip("no Chromium at /usr/bin/chromium to drive headless")
    with sync_api.sync_playwright() as p:
        opened = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield opened
        opened.close()


@contextmanager
def watched_page(browser, server: str, width: int = 1200, height: int = 900):
    """A page of a new browser context that holds the seats of ``KEY``, with ``base``
    set to ``server``; on leaving, it must have had no script error, no console error (a
    refused inline script or style is one) and no request outside the server."""
    context = browser.new_context(viewport={"width": width, "height": height})
    hold_seats(context)
    opened = context.new_page()
    problems: list[str] = []
    opened.problems = problems
    opened.on("pageerror", lambda e: problems.append(str(e)))
    opened.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    opened.on("request", lambda r: None if r.url.startswith(server) or
              r.url.startswith("data:") else problems.append(f"outside request {r.url}"))
    opened.base = server
    try:
        yield opened
    finally:
        context.close()
    assert problems == []


def sideways_scroll(page) -> int:
    """How many pixels the page is wider than its window (0: no sideways scrolling)."""
    return page.evaluate("document.documentElement.scrollWidth - "
                         "document.documentElement.clientWidth")


def drag(page, piece: int, target: tuple[int, int], width: int) -> None:
    """Drag a Triplex piece by its first square onto the board cell where that square
    belongs, with the mouse."""
    square = page.locator(f'.piece[data-piece="{piece}"] .square').first
    dx, dy = int(square.get_attribute("data-dx")), int(square.get_attribute("data-dy"))
    start = square.bounding_box()
    cell = page.locator("#board .cell").nth((target[1] + dy) * width + target[0] + dx)
    end = cell.bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()


# --- the JSON API, through a test client -------------------------------------------------
def assert_error(response, status: int, *words: str) -> dict:
    """``response`` is the JSON error ``status`` whose message holds every word."""
    assert response.status_code == status, response.text
    data = response.json()
    assert set(data) >= {"error", "where"}
    for word in words:
        assert word in data["error"], data
    return data


#: The seat token the test clients send, as a browser sends its own (one per browser).
KEY = "test-key-0123456789abcdef"


def bearer(token: str) -> dict[str, str]:
    """The header that presents a seat token."""
    return {"Authorization": f"Bearer {token}"}


def hold_seats(context, token: str = KEY) -> None:
    """Make every page of a browser context present ``token`` as its seat token (what
    seat.js keeps in localStorage), so it plays the seats a test's API client made."""
    context.add_init_script(f"localStorage.setItem('boardlab.seatToken', '{token}')")


def new_match(client, game: str, players=None, **options) -> dict:
    """A new match of ``game`` created through the API (the client's own token, if it
    sends one, holds its human seats)."""
    body: dict = {"game": game, "options": options}
    if players is not None:
        body["players"] = players
    response = client.post("/api/matches", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def play(client, match: dict, move: str, **headers: str) -> dict:
    """``match`` after ``move``, played through the API on the revision of ``match``
    (so a test that missed a change fails here rather than moving blindly)."""
    response = client.post(f"/api/matches/{match['id']}/moves",
                           json={"move": move, "revision": match["revision"]},
                           headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def wait_for_bot(client, match: dict) -> dict:
    """``match`` once the bot to move in it has moved (the server moves bots by itself;
    ``POST /bot`` with the revision waits for that move)."""
    response = client.post(f"/api/matches/{match['id']}/bot",
                           json={"revision": match["revision"]})
    assert response.status_code == 200, response.text
    return response.json()


def serve_help() -> str:
    """``boardlab serve --help`` as a user sees it, from a process of its own: a help
    this long printed through CliRunner in the test process lost its captured output to
    another thread's work now and then ("I/O operation on closed file")."""
    import os
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "boardlab.cli.main", "serve", "--help"],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert done.returncode == 0, done.stderr
    return done.stdout
