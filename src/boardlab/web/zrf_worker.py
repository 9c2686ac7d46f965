"""The process that reads rule files for the web app's library of imported games.

A rule file may be hostile or simply huge (a macro that expands to millions of nodes), and
a Python thread cannot be stopped, so the library (:mod:`boardlab.web.library`) never
reads a file it has not seen read here first: :class:`Reader` runs this module as a
child process (``python -m boardlab.web.zrf_worker``, through
:class:`boardlab.worker.Worker`, which also bounds the child's memory), sends it one file
at a time and waits at most ``seconds`` for the whole file (its default variant, then its
other variants); a file that takes longer has the child killed, and a new child reads the
next file.

A job is ``[path, shown name]``; the child answers per file ``["game", facts]`` for the
default variant, ``["variant", facts]`` for each other one, and ``["failed", reason]``
when the file does not load. Facts are ``{"variant", "title", "description", "players",
"chance", "error"}`` (``chance`` the indices of the random players, ``title`` the
variant's own, ``description`` the game's as ``boardlab.zrf.game.load_game`` makes it);
a reason is the error's one line
(:func:`boardlab.zrf.check.failure`). A loaded game's class is made at run time and
cannot cross processes, so the server loads a file again itself once the child has read
it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardlab.worker import Worker, WorkerError, serve


def read_file(job: list[str], send: Callable[..., None]) -> bool:
    """Load the rule file ``job = [path, shown]`` (errors name it ``shown``) and its
    variants, sending what was learnt as it goes (see the module docstring); true when
    the child should stop after it (see :func:`boardlab.worker.serve`)."""
    from boardlab.zrf.check import failure, unfit
    from boardlab.zrf.game import load_game
    from boardlab.zrf.model import variant_titles
    from boardlab.zrf.reader import load
    from boardlab.zrf.text import display_line

    path, shown = job
    try:
        game = load_game(path, name=shown)
        titles = variant_titles(load(path, shown), shown)
    except Exception as e:  # noqa: BLE001 - every failure is the file's reason
        send("failed", failure(e))
        return unfit(e)
    default = game.spec.variant
    named = {number: display_line(title) or f"variant {number}" for number, title in titles}
    send("game", {"variant": default, "title": named.get(default, game.description),
                  "description": game.description, "players": list(game.player_names),
                  "chance": sorted(game.chance_players), "error": None})
    retire = False
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
            facts["error"] = failure(e)
            retire = retire or unfit(e)
        send("variant", facts)
    return retire


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
        self._worker = Worker("boardlab.web.zrf_worker", name="boardlab-zrf-reader")
        self._closed = False
        self._lock = threading.Lock()

    def read(self, path: str, shown: str) -> Reading:
        """What the child learnt of the file at ``path`` within the time allowed."""
        out = Reading()
        with self._lock:
            if self._closed:
                out.error = "the server is stopping"
                return out
            try:
                run = self._worker.run([path, shown], self.seconds)
            except WorkerError as e:
                out.error = f"the rule file reader failed: {e}"
                return out
        for kind, *rest in run.messages:
            if kind == "failed":
                out.error = rest[0]
            elif kind == "game":
                out.game = rest[0]
            elif kind == "variant":
                out.variants += (rest[0],)
        if run.timed_out:
            out.cut = f"reading it took more than {self.seconds:g} s"
        elif run.death is not None:
            out.cut = "the server is stopping" if self._closed else \
                f"the reader stopped while reading it ({run.death})"
        if out.game is None and out.error is None:
            out.error = out.cut
        return out

    def close(self) -> None:
        """Stop the child (a read under way ends at once); later reads answer that the
        server is stopping."""
        self._closed = True
        self._worker.close()


if __name__ == "__main__":
    from boardlab.zrf import game  # noqa: F401 - imported before "ready", not per file

    serve(read_file)
