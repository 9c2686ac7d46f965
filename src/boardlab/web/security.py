"""What keeps ``boardlab serve`` safe to put on a network: bounded request bodies, the
security headers of every answer, the pages' Content-Security-Policy and the checks of the
operator's settings (the public URL, the CORS origins, the trusted proxies).

Two pure ASGI middlewares (not Starlette's ``BaseHTTPMiddleware``, which buffers and
breaks streaming; WebSocket and lifespan scopes pass both untouched):

* :class:`BodyLimit` refuses a request body over :data:`MAX_BODY_BYTES` with the API's
  JSON error (``413 {"error", "where": "body"}``), at once when ``Content-Length`` says
  so and as soon as a chunked body streams past the limit;
* :class:`SecurityHeaders` adds ``Content-Security-Policy`` (:data:`BASE_POLICY` unless
  the route set its own), ``X-Content-Type-Options: nosniff``, ``Referrer-Policy:
  no-referrer`` and ``X-Frame-Options: DENY`` to every answer, and turns a redirect to the
  request's own ``Host`` into a relative one, so that no header echoes a forged ``Host``.

A page with inline ``<script>`` or ``<style>`` elements is served by :func:`page_response`
with a policy that allows exactly those elements by their SHA-256 hashes
(:func:`page_policy`), computed from the page's file (trusted, shipped with the package)
and never from an answer that could carry user input. No policy allows
``'unsafe-inline'`` or ``'unsafe-eval'``.

Policies follow CSP Level 3 (https://www.w3.org/TR/CSP3/): ``'self'`` matches the page's
own origin, and the same host over ``ws:``/``wss:`` for the live connection.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import HTMLResponse, JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from boardlab.errors import BoardlabError

log = logging.getLogger("boardlab.web")

#: The largest request body accepted by default (no request of the API needs a tenth).
MAX_BODY_BYTES = 1024 * 1024

#: The policy of every answer that does not set its own: the app's own files only.
BASE_POLICY = ("default-src 'self'; img-src 'self' data:; object-src 'none'; "
               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")

#: Headers every HTTP answer carries (besides the policy).
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    # frame-ancestors in the policy says the same to browsers that read CSP Level 2.
    "X-Frame-Options": "DENY",
}


class SettingError(BoardlabError, ValueError):
    """A server setting (the public URL, a CORS origin, a trusted proxy) is malformed."""


# -- the operator's settings --------------------------------------------------------------

def check_public_url(url: str) -> str:
    """The address the server is reached at (``https://boards.example.org``, maybe with a
    path), without a trailing slash; :class:`SettingError` unless it is an absolute
    http(s) URL without query, fragment or credentials.

    >>> check_public_url("https://boards.example.org/play/")
    'https://boards.example.org/play'
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SettingError(f"--public-url {url!r}: expected an http:// or https:// address")
    if parts.query or parts.fragment or parts.username is not None:
        raise SettingError(f"--public-url {url!r}: an address without a query, a fragment "
                           "or a user name")
    _port_of(parts, f"--public-url {url!r}")
    return f"{parts.scheme}://{parts.netloc.lower()}{parts.path.rstrip('/')}"


def check_origin(origin: str) -> str:
    """A CORS origin as browsers send it (``scheme://host[:port]``, lower case, no path),
    or ``null`` (a page opened from a file); :class:`SettingError` otherwise.

    >>> check_origin("HTTPS://A.Example:8443/")
    'https://a.example:8443'
    """
    if origin.strip() == "null":
        return "null"
    parts = urlsplit(origin.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SettingError(f"--cors-origin {origin!r}: expected scheme://host[:port], e.g. "
                           "https://boards.example.org, or null")
    if parts.path not in ("", "/") or parts.query or parts.fragment \
            or parts.username is not None:
        raise SettingError(f"--cors-origin {origin!r}: an origin has no path, query or "
                           "user name")
    _port_of(parts, f"--cors-origin {origin!r}")
    return f"{parts.scheme}://{parts.netloc.lower()}"


def check_proxy(address: str) -> str:
    """A trusted proxy's address or network (``10.0.0.2``, ``10.0.0.0/8``, ``::1``),
    normalised; :class:`SettingError` otherwise.

    >>> check_proxy("10.1.2.3/8")
    '10.0.0.0/8'
    """
    text = address.strip()
    try:
        if "/" in text:
            return str(ipaddress.ip_network(text, strict=False))
        return str(ipaddress.ip_address(text))
    except ValueError:
        raise SettingError(f"--trusted-proxy {address!r}: expected an IP address or a "
                           "network such as 10.0.0.0/8") from None


def _port_of(parts: Any, what: str) -> None:
    try:
        parts.port  # noqa: B018 - raises on a port that is not a number in range
    except ValueError:
        raise SettingError(f"{what}: the port must be a number from 0 to 65535") from None


# -- Content-Security-Policy --------------------------------------------------------------

_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.IGNORECASE | re.DOTALL)
_STYLE = re.compile(r"<style\b[^>]*>(.*?)</style\s*>", re.IGNORECASE | re.DOTALL)
_TYPE = re.compile(r"""\btype\s*=\s*["']?([^"'\s>]+)""", re.IGNORECASE)
#: Script types a browser runs (others, such as application/json, are data).
_RUN = {"", "module", "text/javascript", "application/javascript"}


@dataclass(frozen=True)
class InlineHashes:
    """The CSP sources (``'sha256-...'``) of a page's inline scripts and styles."""

    scripts: tuple[str, ...]
    styles: tuple[str, ...]


def _source(text: str) -> str:
    # Browsers hash the element's text after the HTML parser's newline normalisation.
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def inline_hashes(html: str) -> InlineHashes:
    """The hashes of every inline script (not data blocks such as ``application/json``,
    not ``src=`` scripts) and every ``<style>`` element of ``html``.

    >>> inline_hashes("<style>p{}</style><script src=a.js></script>"
    ...               '<script type="application/json">{}</script>').scripts
    ()
    """
    scripts = []
    for attributes, body in _SCRIPT.findall(html):
        if re.search(r"\bsrc\s*=", attributes, re.IGNORECASE):
            continue
        kind = _TYPE.search(attributes)
        if (kind.group(1).lower() if kind else "") in _RUN:
            scripts.append(_source(body))
    styles = [_source(body) for body in _STYLE.findall(html)]
    return InlineHashes(tuple(dict.fromkeys(scripts)), tuple(dict.fromkeys(styles)))


def page_policy(html: str, connect: Iterable[str] = ()) -> str:
    """The policy of a page: its own origin for everything, plus its inline scripts and
    styles by hash and the extra ``connect`` sources (another server's origin)."""
    found = inline_hashes(html)
    script = " ".join(("'self'", *found.scripts))
    style = " ".join(("'self'", *found.styles))
    reach = " ".join(("'self'", *dict.fromkeys(connect)))
    return (f"default-src 'self'; script-src {script}; style-src {style}; "
            f"img-src 'self' data:; connect-src {reach}; object-src 'none'; "
            "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def live_origins(public_url: str | None) -> tuple[str, ...]:
    """What a page's ``connect-src`` adds for an operator's public URL: its origin over
    http(s) and ws(s) (for browsers whose ``'self'`` does not cover WebSockets)."""
    if not public_url:
        return ()
    parts = urlsplit(public_url)
    live = "wss" if parts.scheme == "https" else "ws"
    return (f"{parts.scheme}://{parts.netloc}", f"{live}://{parts.netloc}")


@lru_cache(maxsize=32)
def _page(path: Path, signature: tuple[int, int], connect: tuple[str, ...]) -> tuple[str, str]:
    html = path.read_text(encoding="utf-8")
    return html, page_policy(html, connect)


def page_response(page: Path | str, connect: Sequence[str] = ()) -> HTMLResponse:
    """An HTML page (a file of the package, or text made by the app from trusted parts)
    with the policy that allows its inline elements; a file is read again when it
    changes."""
    if isinstance(page, Path):
        stat = page.stat()
        html, policy = _page(page, (stat.st_mtime_ns, stat.st_size), tuple(connect))
    else:
        html, policy = page, page_policy(page, connect)
    return HTMLResponse(html, headers={"Content-Security-Policy": policy})


# -- the middlewares ----------------------------------------------------------------------

def _content_length(scope: Scope) -> int | None:
    value = Headers(scope=scope).get("content-length", "").strip()
    if not (value.isascii() and value.isdigit()):
        # Not a plain number: left to the server, and the bytes still count.
        return None
    # Past 18 digits it is over any limit; int() of thousands of digits is slow or fails.
    return int(value) if len(value) <= 18 else 10**18


class BodyLimit:
    """Refuse request bodies over ``max_bytes`` with ``413 {"error", "where": "body"}``.

    A declared ``Content-Length`` over the limit is refused before the app runs. A body
    without one (chunked) is counted as the app reads it: past the limit the 413 is sent
    (unless the app has begun its answer), the app reads a disconnect, and what it sends
    afterwards is dropped.
    """

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES):
        self.app = app
        self.max_bytes = max_bytes

    def _refusal(self) -> JSONResponse:
        return JSONResponse({"error": f"the request body is larger than the limit of "
                                      f"{self.max_bytes:,} bytes", "where": "body",
                             "code": "tooLarge", "params": {"limit": self.max_bytes}},
                            status_code=413, headers={"Connection": "close"})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refusal()(scope, receive, send)
            return
        received = 0
        started = False
        refused = False

        async def counted() -> Message:
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    if not started:
                        refused = True
                        await self._refusal()(scope, receive, send)
                    return {"type": "http.disconnect"}
            return message

        async def answer(message: Message) -> None:
            nonlocal started
            if refused:
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, answer)
        except Exception:
            # The app may fail on the disconnect it was handed; the client already has
            # its 413, and the failure is not a bug worth a traceback.
            if not refused:
                raise
            log.debug("boardlab web: the app failed after a body over the limit",
                      exc_info=True)


class SecurityHeaders:
    """Add the security headers (:data:`HEADERS`, and ``policy`` unless the answer has a
    ``Content-Security-Policy`` of its own) to every HTTP answer, and make a redirect to
    the request's own host relative."""

    def __init__(self, app: ASGIApp, policy: str = BASE_POLICY):
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = Headers(scope=scope).get("host", "").lower()

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("Content-Security-Policy", self.policy)
                for name, value in HEADERS.items():
                    headers.setdefault(name, value)
                location = headers.get("location")
                if location is not None:
                    headers["location"] = _relative(location, host)
            await send(message)

        await self.app(scope, receive, secured)


def _relative(location: str, host: str) -> str:
    """A redirect to this host without scheme and host: Starlette builds redirects (such
    as the one to the path without a trailing slash) from the request's ``Host``."""
    parts = urlsplit(location)
    if not parts.netloc or parts.netloc.lower() != host:
        return location
    relative = parts.path or "/"
    if parts.query:
        relative += "?" + parts.query
    if parts.fragment:
        relative += "#" + parts.fragment
    # "//x" would be read as another host.
    return "/" + relative.lstrip("/")


__all__ = ["BASE_POLICY", "HEADERS", "MAX_BODY_BYTES", "BodyLimit", "InlineHashes",
           "SecurityHeaders", "SettingError", "check_origin", "check_proxy",
           "check_public_url", "inline_hashes", "live_origins", "page_policy",
           "page_response"]
