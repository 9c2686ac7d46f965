"""Checking rule files in bulk: each file (or each of its variants) loaded and played in
random games in a child process, within a bound on time and on memory.

This is ``boardlab zrf check`` (``boardlab.cli.zrf``) without its printing. A rule
file from elsewhere may nest its lists deeper than Python recurses, expand a macro
exponentially or make a single move take minutes, so no file is loaded in the process
that reports on them: a :class:`Checker` sends one job at a time to a long-lived child
(``python -m boardlab.zrf.check``, a :class:`boardlab.worker.Worker`) and kills it when
a job runs past its time, starting a new one for the next job. Each variant gets a record
(a dict, as the CLI prints it in JSON):

- ``path`` (the name shown), ``variant`` (its number: 0 is the game itself, then the
  file's variants in order, as :func:`boardlab.zrf.game.load_game` takes them) and
  ``variant_title``; both ``None`` when the file fails before its variants are known;
- ``status``: *played* (it loads and every game ran to its end or to the ply bound),
  *loaded* (it loads but its games, or the compilation of its kernel, did not finish in
  the time allowed), *suspect* (it loads, but the game is over or the side to move has
  no legal move in the initial position: every game would end at ply 0, which is a
  misread file far more often than a game) or *failed* (it does not load, a game raises
  an error or breaks an invariant of the engine, or the child ran out of memory or
  stack, died, or ran out of time while loading or in one move);
- ``reason``: one line, ``None`` when played; a file boardlab refuses is named with line
  and column;
- ``games``, ``plies`` (played in all), ``seconds``, and once loaded ``title`` (the
  game's description), ``incomplete`` (:func:`boardlab.zrf.game.incomplete`) and
  ``kernel`` (whether it plays on a compiled kernel, :mod:`boardlab.core.kernel`, whose
  first compilation on a machine, in the first position, has a bound of its own,
  :data:`KERNEL_SECONDS`, outside the file's time) and ``kernel_reason`` (why it does
  not, :func:`boardlab.core.kernel.plan.why_not`; None when it does).

With ``variants="all"`` the file's default variant is checked first, which tells the
playable variants (``spec.variant_titles``: ``-`` marks a menu separator, not a game),
then each other one as a job of its own with its own time.

In the child, a job is ``{"path", "name", "variant", "games", "plies", "seconds",
"seed", "verify", "memory_bytes"}``; the child sends ``["loaded", facts]`` once the game
is loaded, ``["variants", numbers]``, ``["started"]`` once the first position and its
moves are known, ``["game", games, plies]`` after each game (so a killed job's record
says how far it got) and ``["record", record]``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from boardlab.errors import BoardlabError
from boardlab.worker import MEMORY_BYTES, Worker, one_line, serve

#: Record statuses, from best to worst.
STATUSES = ("played", "loaded", "suspect", "failed")
#: Which variants of a file are checked: its default one, or every playable one.
VARIANT_CHOICES = ("default", "all")
#: The time a child gets past a job's own bound to stop its games and answer before it is
#: killed (games stop between two moves; a single move or a load may take longer).
GRACE_SECONDS = 2.0
#: The time the first position may take when it compiles the game's numba kernel (once
#: per machine), apart from the time of the file: as long as the web's bots allow it
#: (:data:`boardlab.web.botpool.PREPARE_SECONDS`).
KERNEL_SECONDS = 120.0
#: The menu separator among a file's variants.
SEPARATOR = "-"


def failure(error: BaseException, memory_bytes: int = MEMORY_BYTES) -> str:
    """Why a rule file did not load, as one line: a boardlab error's own (naming file,
    line and column), else what happened in the interpreter."""
    if isinstance(error, BoardlabError):
        return one_line(error)
    if isinstance(error, RecursionError):
        return "the rules nest too deep to read (deeper than Python recurses)"
    if isinstance(error, MemoryError):
        return f"reading it needs more than {_size(memory_bytes)} of memory"
    # A bug of the importer: the file is still reported as failed, with what went wrong.
    return f"internal error of the ZRF importer: {type(error).__name__}: {one_line(error)}"


def unfit(error: BaseException) -> bool:
    """Whether a child that met ``error`` should stop after its job: memory exhausted or
    a recursion cut short may leave it in no state to trust with the next file."""
    return isinstance(error, (MemoryError, RecursionError))


def _size(n: int) -> str:
    return f"{n / 1024 ** 3:g} GB" if n >= 1024 ** 3 else f"{n // 1024 ** 2} MB"


def playable(titles: tuple[str, ...]) -> list[int]:
    """The numbers of the playable entries among a file's variant titles (entry ``n`` is
    titled ``titles[n]``; a title ``-`` is a menu separator).

    >>> playable(("Chess", "Horde Chess", "-", "Chess960"))
    [0, 1, 3]
    """
    return [n for n, title in enumerate(titles) if title != SEPARATOR]


def check_variant(path: str | Path, name: str, variant: int | None = None, *,
                  games: int = 3, plies: int = 200, seconds: float = 60.0, seed: int = 0,
                  verify: bool = False, send: Callable[..., None] | None = None) -> dict[str, Any]:
    """Load one rule file's ``variant`` (``None``: the one it marks default) and play
    ``games`` random games of at most ``plies`` plies each within ``seconds`` (with
    ``verify``, checking the invariants of :mod:`boardlab.core.conformance` at every
    position), in this process; the record described in the module docstring.
    ``send`` (in the child) is told the steps as they happen."""
    return _check(path, name, variant, games, plies, seconds, seed, verify, send)[0]


def _check(path: str | Path, name: str, variant: int | None, games: int, plies: int,
           seconds: float, seed: int, verify: bool, send: Callable[..., None] | None,
           memory_bytes: int = MEMORY_BYTES) -> tuple[dict[str, Any], BaseException | None]:
    """:func:`check_variant`'s record, and the error that failed it, if one did."""
    from boardlab.core.conformance import ConformanceError, check_position
    from boardlab.zrf.game import incomplete, load_game

    def tell(*message: Any) -> None:
        if send is not None:
            send(*message)

    started = time.perf_counter()
    record: dict[str, Any] = {"path": name, "variant": variant, "variant_title": None,
                              "status": "failed", "reason": None, "games": 0, "plies": 0}
    try:
        game = load_game(path, variant, name=name, max_moves=plies)
    except Exception as e:  # noqa: BLE001 - every failure is the file's reason
        return _failed(record, started, failure(e, memory_bytes)), e
    spec = game.spec
    record.update(variant=spec.variant, variant_title=spec.title or Path(path).stem,
                  status="loaded", title=game.description, incomplete=incomplete(spec),
                  kernel=_uses_kernel(game), kernel_reason=_kernel_reason(game))
    tell("loaded", {k: record[k] for k in ("variant", "variant_title", "title",
                                           "incomplete", "kernel")})
    tell("variants", playable(spec.variant_titles))
    rng = random.Random(f"{seed}:{name}" if variant is None else f"{seed}:{name}@{variant}")
    try:
        before = time.perf_counter()
        start = game.initial_state()
        if not start.legal_moves():
            record["status"] = "suspect"
            if game.result(start) is None:
                who = game.player_names[start.to_move]
                record["reason"] = f"{who} has no legal move in the initial position"
            else:
                record["reason"] = "the game is over in the initial position, before any move"
            return _timed(record, started), None
        # A kernel compiled in the first position is a cost of the machine, once, and
        # has a bound of its own: the file's clock stops meanwhile.
        deadline = started + seconds + (time.perf_counter() - before if record["kernel"]
                                        else 0.0)
        tell("started")
        for _ in range(games):
            state = game.initial_state()
            while True:
                if verify:
                    check_position(state, rng)
                if state.is_terminal():
                    break
                if time.perf_counter() > deadline:
                    record["reason"] = (f"not played: {record['games']} of {games} games "
                                        f"in the {seconds:g} s allowed")
                    return _timed(record, started), None
                moves = state.legal_moves()
                state.apply(moves[rng.randrange(len(moves))])
                record["plies"] += 1
            record["games"] += 1
            tell("game", record["games"], record["plies"])
    except BoardlabError as e:
        return _failed(record, started, f"error while playing: {one_line(e)}"), e
    except ConformanceError as e:
        return _failed(record, started, f"invariant broken: {one_line(e)}"), e
    except RecursionError as e:
        return _failed(record, started, "error while playing: the rules recurse too deep"), e
    except MemoryError as e:
        return _failed(record, started, "error while playing: out of memory "
                       f"(more than {_size(memory_bytes)})"), e
    except Exception as e:  # noqa: BLE001 - a bug in boardlab, reported as one
        return _failed(record, started,
                       f"boardlab bug while playing: {type(e).__name__}: {one_line(e)}"), e
    record["status"] = "played"
    return _timed(record, started), None


def _uses_kernel(game: Any) -> bool:
    """Whether ``game``'s positions are played by a compiled kernel."""
    from boardlab.core import kernel

    try:
        return game.engine.compiled and kernel.why_not(game) is None
    except Exception:  # noqa: BLE001 - the same error meets the first position, and is
        return False   # reported there


def _kernel_reason(game: Any) -> str | None:
    """Why ``game`` has no compiled kernel (None when it has one, or its engine is the
    interpreter)."""
    from boardlab.core import kernel

    try:
        return kernel.why_not(game) if game.engine.compiled else None
    except Exception as e:  # noqa: BLE001 - the error meets the first position too
        return f"{type(e).__name__}: {one_line(e)}"


def _failed(record: dict[str, Any], started: float, reason: str) -> dict[str, Any]:
    record["status"] = "failed"
    record["reason"] = reason
    return _timed(record, started)


def _timed(record: dict[str, Any], started: float) -> dict[str, Any]:
    record["seconds"] = round(time.perf_counter() - started, 3)
    return record


def _job(job: dict[str, Any], send: Callable[..., None]) -> bool:
    """The child's side: check the variant a job names and send its record; true when
    the child should stop after it."""
    record, error = _check(job["path"], job["name"], job["variant"], job["games"],
                           job["plies"], job["seconds"], job["seed"], job["verify"], send,
                           job["memory_bytes"])
    send("record", record)
    return error is not None and unfit(error)


class Checker:
    """Checks rule files in a child process, each variant within ``seconds`` (loading
    included) and the child within ``memory_bytes`` (see the module docstring). Use it
    as a context manager, or :meth:`close` it: the child is stopped."""

    def __init__(self, *, games: int = 3, plies: int = 200, seconds: float = 60.0,
                 seed: int = 0, verify: bool = False, variants: str = "default",
                 memory_bytes: int = MEMORY_BYTES):
        if variants not in VARIANT_CHOICES:
            raise ValueError(f"variants must be one of {VARIANT_CHOICES}, not {variants!r}")
        self.games, self.plies, self.seconds = games, plies, seconds
        self.seed, self.verify, self.variants = seed, verify, variants
        self.memory_bytes = memory_bytes
        self.worker = Worker("boardlab.zrf.check", memory_bytes=memory_bytes,
                             name="boardlab-zrf-check")

    def __enter__(self) -> Checker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the child."""
        self.worker.close()

    def check(self, path: str | Path, name: str,
              on_record: Callable[[dict[str, Any]], None] | None = None
              ) -> list[dict[str, Any]]:
        """The records of the rule file at ``path`` (shown as ``name``): its default
        variant's, and with ``variants="all"`` every other playable variant's, in number
        order. ``on_record`` is called on each as it is made (the default variant
        first)."""
        records = []
        for record in self._records(str(path), name):
            records.append(record)
            if on_record is not None:
                on_record(record)
        return sorted(records, key=lambda r: -1 if r["variant"] is None else r["variant"])

    def _records(self, path: str, name: str) -> Iterator[dict[str, Any]]:
        record, numbers = self._run(path, name, None)
        yield record
        if self.variants == "all":
            for number in numbers:
                if number != record["variant"]:
                    yield self._run(path, name, number)[0]

    def _run(self, path: str, name: str, variant: int | None
             ) -> tuple[dict[str, Any], list[int]]:
        """One job: the variant's record and the file's playable variants (as far as the
        child told them)."""
        job = {"path": path, "name": name, "variant": variant, "games": self.games,
               "plies": self.plies, "seconds": self.seconds, "seed": self.seed,
               "verify": self.verify, "memory_bytes": self.memory_bytes}
        started = time.perf_counter()
        compiled_from = started

        def pace(message: list[Any]) -> float | None:
            nonlocal compiled_from
            if message[0] == "loaded" and message[1]["kernel"]:
                compiled_from = time.perf_counter()
                return KERNEL_SECONDS
            if message[0] == "started" and compiled_from != started:
                spent = compiled_from - started
                return max(self.seconds - spent, 0.0) + GRACE_SECONDS
            return None

        run = self.worker.run(job, self.seconds + GRACE_SECONDS, pace)
        said: dict[str, Any] = {}
        for kind, *rest in run.messages:
            said[kind] = rest
        numbers = said.get("variants", [[]])[0]
        if "record" in said:
            return said["record"][0], numbers
        record: dict[str, Any] = {"path": name, "variant": variant, "variant_title": None,
                                  "status": "failed", "reason": None, "games": 0,
                                  "plies": 0}
        loaded = said.get("loaded", [None])[0]
        if loaded is not None:
            record.update(loaded)
        games, plies = said.get("game", [0, 0])
        record.update(games=games, plies=plies)
        compiling = loaded is not None and loaded["kernel"] and "started" not in said
        if loaded is None:
            where = "while loading"
        elif compiling:
            where = "while compiling its numba kernel (done once per machine)"
        elif "started" not in said:
            where = "while finding the first moves"
        else:
            where = f"in game {games + 1} of {self.games}, after {plies} plies in all"
        if run.timed_out and compiling:
            record["reason"] = f"stopped {where}: it took more than {KERNEL_SECONDS:g} s"
            # The time went to a cost of the machine's, not to the file's rules.
            record["status"] = "loaded"
        elif run.timed_out:
            record["reason"] = f"stopped {where}: it took more than the {self.seconds:g} s allowed"
        else:
            record["reason"] = f"the checking process died {where} ({run.death})"
        record["seconds"] = round(time.perf_counter() - started, 3)
        return record, numbers


if __name__ == "__main__":
    from boardlab.core import conformance  # noqa: F401 - imported before "ready"
    from boardlab.zrf import game  # noqa: F401

    serve(_job)
