"""Build the Triplex browser game as one self-contained HTML file.

The original game (:doc:`/triplex`; its article's "Клиентская часть игры") ships the whole game,
logic, resources and every level, in one HTML file that plays from the local disk without a
network. Here the page template, stylesheet and scripts in ``web/static/triplex/`` are
inlined into one file together with the *public* level pack (docs/polyomino-pack.md,
section 7): the levels stay encrypted and chained exactly as in the pack and are decrypted
in the browser with the previous level's code. A master pack's solutions are never written.
The page's Content-Security-Policy (:func:`content_security_policy`) lets only its own
inline scripts and stylesheet run, by their hashes, and lets it talk only to its
leaderboard.

>>> from boardlab.puzzles.polyomino.level import Level
>>> from boardlab.puzzles.polyomino.pack import Pack
>>> pack = Pack.build([Level.parse("level 4x2\\nabbc\\naacc\\n")], b"doctest", "triplex")
>>> page = render_html(pack)
>>> page.startswith("<!DOCTYPE html>") and '"solutions":' not in page
True
"""

from __future__ import annotations

import json
import os
import re
from html import escape
from importlib.resources import files
from pathlib import Path
from urllib.parse import urlsplit

from boardlab.errors import PuzzleError
from boardlab.files import check_output, write_atomic
from boardlab.puzzles.polyomino.pack import Pack

#: The static files of the page, inlined in this order.
STATIC = files("boardlab.web").joinpath("static", "triplex")
#: Scripts the Triplex game shares with the other pages (the phrase machinery and the one
#: phrase table of every page).
SHARED = files("boardlab.web").joinpath("static", "js")


def _static(name: str) -> str:
    return STATIC.joinpath(name).read_text(encoding="utf-8")


def _shared(name: str) -> str:
    return SHARED.joinpath(name).read_text(encoding="utf-8")


def _script_json(obj: object) -> str:
    """JSON safe inside a <script> element: no '<' can close it early."""
    text = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _inline(text: str, element: str, name: str) -> str:
    if re.search(rf"</{element}", text, re.IGNORECASE):
        raise PuzzleError(f"{name} contains '</{element}' and cannot be inlined")
    return text


def _server_origin(server: str) -> str:
    parts = urlsplit(server)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise PuzzleError(f"--server {server!r}: expected an http:// or https:// address")
    return f"{parts.scheme}://{parts.netloc}"


#: The slots of the page template that hold data rather than code.
DATA_SLOTS = ("CSP", "NAME", "CONFIG", "PACK")


def _page(data: dict[str, str]) -> str:
    code = {
        "CSS": _inline(_static("triplex.css"), "style", "triplex.css"),
        "PHRASES": _inline(_shared("phrases.js"), "script", "phrases.js"),
        "I18N": _inline(_shared("i18n.js"), "script", "i18n.js"),
        "LOGIC": _inline(_static("triplex.js"), "script", "triplex.js"),
        "GAME": _inline(_static("game.js"), "script", "game.js"),
    }
    values = {**code, **data}
    # One pass: a slot's value is never searched for slots itself.
    return re.sub(r"\{\{([A-Z0-9]+)\}\}", lambda m: values[m.group(1)],
                  _static("index.html"))


def content_security_policy(server: str | None = None) -> str:
    """The page's policy: nothing but its own inline scripts and stylesheet, known by
    their hashes (computed from the page with its data slots empty, so no data can ever
    be allowed to run), data: images, and requests to the page's own origin and to
    ``server``'s. The page fetches nothing but the leaderboard: the policy makes that a
    guarantee."""
    from boardlab.web.security import inline_hashes

    found = inline_hashes(_page(dict.fromkeys(DATA_SLOTS, "")))
    connect = "'self'" + (" " + _server_origin(server) if server else "")
    return (f"default-src 'none'; script-src {' '.join(found.scripts)}; "
            f"style-src {' '.join(found.styles)}; img-src data:; connect-src {connect}; "
            "base-uri 'none'; form-action 'none'")


def render_html(pack: Pack, server: str | None = None) -> str:
    """The game page for ``pack`` (its public copy); ``server`` is the leaderboard base URL
    (None: offline only, unless the page itself is served over HTTP, when the page's own
    origin is used)."""
    return _page({
        "CSP": escape(content_security_policy(server), quote=False),
        "NAME": escape(pack.name),
        "CONFIG": _script_json({"server": server.rstrip("/") if server else None}),
        "PACK": _script_json(pack.public().to_json()),
    })


def export_html(pack_path: str | os.PathLike, out_path: str | os.PathLike,
                server: str | None = None) -> Path:
    """Read a pack file and write the game page atomically (a temporary file renamed over
    ``out_path``); errors are :class:`PuzzleError` naming the file, and nothing is written."""
    out = check_output(out_path)
    page = render_html(Pack.load(pack_path), server)
    write_atomic(out, page)
    return out
