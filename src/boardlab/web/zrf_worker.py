"""The process that reads rule files for the web app's library of imported games.

A rule file may be hostile or simply huge (a macro that expands to millions of nodes), and
a Python thread cannot be stopped, so the library (:mod:`boardlab.web.library`) never
reads a file it has not seen read here first: :class:`Reader` runs :func:`work` in a
child process, sends it one file at a time and waits at most ``seconds`` for the whole
file (its default variant, then its other variants); a file that takes longer has the
child killed, and a new child reads the next file. The child also runs under a bound
on its memory (:data:`MEMORY_BYTES`, where the platform has ``RLIMIT_AS``).

The child answers plain tuples (a loaded game's class is made at run time and cannot
cross processes): ``("game", facts)`` for the default variant, ``("variant", facts)`` for
each other one, ``("failed", reason)`` when the file does not load, then ``("done",)``.
Facts are ``{"variant", "title", "description", "players", "error"}`` (``title`` the
variant's own, ``description`` the game's as ``boardlab.zrf.game.load_game`` makes
it); a reason is the error's one line.
This module imports only the ZRF reader in the child, so a child starts quickly.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

#: The address space a reading child may use (far above the corpus's largest files).
MEMORY_BYTES = 2 * 1024 ** 3
#: How long a new child may take to start (importing the reader).
START_SECONDS = 60.0


def one_line(error: BaseException) -> str:
    """An error as one line, the way the CLI shows it."""
    return " ".join(str(error).split()) or type(error).__name__


def _limit_memory() -> None:
    try:
        import resource
    except ImportError:  # not on this platform
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    bound = MEMORY_BYTES if hard == resource.RLIM_INFINITY else min(hard, MEMORY_BYTES)
    if soft == resource.RLIM_INFINITY or soft > bound:
        resource.setrlimit(resource.RLIMIT_AS, (bound, hard))


def work(conn: Connection) -> None:
    """The child's loop: read ``(path, shown name)`` jobs until ``None`` or a closed pipe."""
    _limit_memory()
    from boardlab.zrf import game  # noqa: F401 - imported before "ready", not per file

    conn.send(("ready",))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        read_file(conn, *job)


def _failure(error: BaseException) -> str:
    from boardlab.errors import BoardlabError

    if isinstance(error, BoardlabError):
        return one_line(error)
    if isinstance(error, RecursionError):
        return "the rules nest too deep to read"
    if isinstance(error, MemoryError):
        return f"reading it needs more than {MEMORY_BYTES // 1024 ** 3} GB of memory"
    # A bug of the importer: the file is still listed as failed, with what went wrong.
    return f"internal error of the ZRF importer: {type(error).__name__}: {one_line(error)}"


def read_file(conn: Connection, path: str, shown: str) -> None:
    """Load the rule file at ``path`` (errors name it ``shown``) and its variants, sending
    what was learnt as it goes (see the module docstring)."""
    from boardlab.zrf.game import load_game
    from boardlab.zrf.model import games_of, variant_titles
    from boardlab.zrf.reader import load

    try:
        game = load_game(path, name=shown)
        titles = variant_titles(*games_of(load(path, shown), shown))
    except Exception as e:  # noqa: BLE001 - every failure is the file's reason
        conn.send(("failed", _failure(e)))
        conn.send(("done",))
        return
    default = game.spec.variant
    named = {number: title or f"variant {number}" for number, title in titles}
    conn.send(("game", {"variant": default, "title": named.get(default, game.description),
                        "description": game.description,
                        "players": list(game.player_names), "error": None}))
    for number, title in named.items():
        if number == default:
            continue
        facts: dict[str, Any] = {"variant": number, "title": title, "description": title,
                                 "players": [], "error": None}
        try:
            other = load_game(path, number, name=shown)
            facts.update(description=other.description, players=list(other.player_names))
        except Exception as e:  # noqa: BLE001
            facts["error"] = _failure(e)
        conn.send(("variant", facts))
    conn.send(("done",))


@dataclass
class Reading:
    """What the child said of one file: the default variant's facts (``None`` when the
    file failed), the other variants' facts, and the reason of a failure or of a stop."""

    game: dict[str, Any] | None = None
    variants: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    #: Why the reading stopped before every variant was read (time, a dead child).
    cut: str | None = None


class Reader:
    """Reads rule files in a child process, at most ``seconds`` per file (see the module
    docstring). Thread-safe: one file is read at a time."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self._lock = threading.Lock()
        self._process: Any = None
        self._conn: Connection | None = None
        self._closed = False

    def _start(self) -> Connection:
        if self._conn is not None and self._process is not None and \
                self._process.is_alive():
            return self._conn
        self._stop()
        context = multiprocessing.get_context("spawn")
        mine, theirs = context.Pipe()
        process = context.Process(target=work, args=(theirs,), daemon=True,
                                  name="boardlab-zrf-reader")
        process.start()
        theirs.close()
        if not mine.poll(START_SECONDS):
            process.kill()
            process.join()
            raise RuntimeError("the rule file reader did not start")
        mine.recv()
        self._process, self._conn = process, mine
        return mine

    def _stop(self) -> None:
        if self._conn is not None:
            self._conn.close()
        if self._process is not None:
            self._process.kill()
            self._process.join()
        self._process = self._conn = None

    def read(self, path: str, shown: str) -> Reading:
        """What the child learnt of the file at ``path`` within the time allowed."""
        out = Reading()
        with self._lock:
            if self._closed:
                out.error = "the server is stopping"
                return out
            try:
                conn = self._start()
                conn.send((path, shown))
            except (OSError, EOFError, RuntimeError) as e:
                self._stop()
                out.error = f"the rule file reader failed: {one_line(e)}"
                return out
            deadline = time.monotonic() + self.seconds
            while True:
                left = deadline - time.monotonic()
                try:
                    ready = left > 0 and conn.poll(left)
                    message = conn.recv() if ready else None
                except (EOFError, OSError):
                    self._stop()
                    out.cut = "the server is stopping" if self._closed else \
                        "the reader stopped while reading it (out of memory?)"
                    break
                if message is None:
                    self._stop()
                    out.cut = f"reading it took more than {self.seconds:g} s"
                    break
                if message[0] == "done":
                    break
                if message[0] == "failed":
                    out.error = message[1]
                elif message[0] == "game":
                    out.game = message[1]
                else:
                    out.variants.append(message[1])
        if out.game is None and out.error is None:
            out.error = out.cut
        return out

    def close(self) -> None:
        """Stop the child (a read under way ends at once); later reads answer that the
        server is stopping."""
        self._closed = True
        process = self._process
        if process is not None:
            process.kill()
        with self._lock:
            self._stop()
