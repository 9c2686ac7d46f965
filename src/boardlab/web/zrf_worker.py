"""The process that reads rule files for the web app's library of imported games.

A rule file may be hostile or simply huge (a macro that expands to millions of nodes), and
a Python thread cannot be stopped, so the library (:mod:`boardlab.web.library`) never
reads a file it has not seen read here first: :class:`Reader` runs this module as a
child process (``python -m boardlab.web.zrf_worker``), sends it one file at a time and
waits at most ``seconds`` for the whole file (its default variant, then its other
variants); a file that takes longer has the child killed, and a new child reads the next
file. The child also runs under a bound on its memory (:data:`MEMORY_BYTES`, where the
platform has ``RLIMIT_AS``). A plain child process rather than ``multiprocessing``,
whose children import the parent's main script again (a script that starts a server
without a ``__main__`` guard would start it twice).

They talk in JSON lines: a job is ``[path, shown name]`` on the child's standard input;
the child answers on its standard output ``["ready"]`` once, then per file
``["game", facts]`` for the default variant, ``["variant", facts]`` for each other one,
``["failed", reason]`` when the file does not load, and ``["done"]``. Facts are
``{"variant", "title", "description", "players", "chance", "error"}`` (``chance`` the
indices of the random players, ``title`` the variant's
own, ``description`` the game's as ``boardlab.zrf.game.load_game`` makes it); a reason
is the error's one line. A loaded game's class is made at run time and cannot cross
processes, so the server loads a file again itself once the child has read it.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

#: The address space a reading child may use (far above the corpus's largest files).
MEMORY_BYTES = 2 * 1024 ** 3
#: How long a new child may take to start (Python and the reader's imports).
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


def work(jobs: IO[str], answers: IO[str]) -> None:
    """The child's loop: read ``[path, shown name]`` lines from ``jobs`` until they end,
    answering on ``answers``."""
    _limit_memory()
    from boardlab.zrf import game  # noqa: F401 - imported before "ready", not per file

    def send(*message: Any) -> None:
        answers.write(json.dumps(message) + "\n")
        answers.flush()

    send("ready")
    for line in jobs:
        path, shown = json.loads(line)
        read_file(send, path, shown)


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


def read_file(send: Callable[..., None], path: str, shown: str) -> None:
    """Load the rule file at ``path`` (errors name it ``shown``) and its variants, sending
    what was learnt as it goes (see the module docstring)."""
    from boardlab.zrf.game import load_game
    from boardlab.zrf.model import variant_titles
    from boardlab.zrf.reader import load
    from boardlab.zrf.text import display_line

    try:
        game = load_game(path, name=shown)
        titles = variant_titles(load(path, shown), shown)
    except Exception as e:  # noqa: BLE001 - every failure is the file's reason
        send("failed", _failure(e))
        send("done")
        return
    default = game.spec.variant
    named = {number: display_line(title) or f"variant {number}" for number, title in titles}
    send("game", {"variant": default, "title": named.get(default, game.description),
                  "description": game.description, "players": list(game.player_names),
                  "chance": sorted(game.chance_players), "error": None})
    for number, title in named.items():
        if number == default:
            continue
        facts: dict[str, Any] = {"variant": number, "title": title, "description": title,
                                 "players": [], "chance": [], "error": None}
        try:
            other = load_game(path, number, name=shown)
            facts.update(description=other.description, players=list(other.player_names),
                         chance=sorted(other.chance_players))
        except Exception as e:  # noqa: BLE001
            facts["error"] = _failure(e)
        send("variant", facts)
    send("done")


@dataclass
class Reading:
    """What the child said of one file: the default variant's facts (``None`` when the
    file failed), the other variants' facts, and the reason of a failure or of a stop."""

    game: dict[str, Any] | None = None
    variants: tuple[dict[str, Any], ...] = ()
    error: str | None = None
    #: Why the reading stopped before every variant was read (time, a dead child).
    cut: str | None = None


class Reader:
    """Reads rule files in a child process, at most ``seconds`` per file (see the module
    docstring). Thread-safe: one file is read at a time."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._answers: queue.Queue[list[Any] | None] = queue.Queue()
        self._closed = False

    def _start(self) -> subprocess.Popen[str]:
        if self._process is not None and self._process.poll() is None:
            return self._process
        self._stop()
        # The child finds boardlab where this process found it.
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        process = subprocess.Popen(
            [sys.executable, "-m", "boardlab.web.zrf_worker"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, env=env, text=True, encoding="utf-8")
        answers: queue.Queue[list[Any] | None] = queue.Queue()
        threading.Thread(target=_listen, args=(process.stdout, answers), daemon=True,
                         name="boardlab-zrf-reader").start()
        self._process, self._answers = process, answers
        try:
            first = answers.get(timeout=START_SECONDS)
        except queue.Empty:
            first = None
        if first != ["ready"]:
            self._stop()
            raise RuntimeError("the rule file reader did not start")
        return process

    def _stop(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            process.kill()
            process.wait()
            for pipe in (process.stdin, process.stdout):
                if pipe is not None:
                    pipe.close()

    def read(self, path: str, shown: str) -> Reading:
        """What the child learnt of the file at ``path`` within the time allowed."""
        out = Reading()
        with self._lock:
            if self._closed:
                out.error = "the server is stopping"
                return out
            try:
                process = self._start()
                assert process.stdin is not None
                process.stdin.write(json.dumps([path, shown]) + "\n")
                process.stdin.flush()
            except (OSError, RuntimeError, ValueError) as e:
                self._stop()
                out.error = f"the rule file reader failed: {one_line(e)}"
                return out
            deadline = time.monotonic() + self.seconds
            while True:
                try:
                    message = self._answers.get(timeout=max(deadline - time.monotonic(), 0))
                except queue.Empty:
                    self._stop()
                    out.cut = f"reading it took more than {self.seconds:g} s"
                    break
                if message is None:  # the child's output ended: it died
                    self._stop()
                    out.cut = "the server is stopping" if self._closed else \
                        "the reader stopped while reading it (out of memory?)"
                    break
                if message[0] == "done":
                    break
                if message[0] == "failed":
                    out.error = message[1]
                elif message[0] == "game":
                    out.game = message[1]
                else:
                    out.variants += (message[1],)
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


def _listen(stream: IO[str] | None, answers: queue.Queue[list[Any] | None]) -> None:
    """Pass the child's answers on, then ``None`` when its output ends."""
    try:
        for line in stream or ():
            try:
                answers.put(json.loads(line))
            except ValueError:
                continue  # not an answer: something the rules' code printed
    except (OSError, ValueError):
        pass
    answers.put(None)


if __name__ == "__main__":
    # Answers go to the real standard output; anything else printed goes to stderr.
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    work(sys.stdin, answers)
