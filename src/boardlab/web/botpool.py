"""Bots of the web app think in worker processes, each move under hard limits.

A :class:`BotPool` keeps a few worker processes (spawned, so they share nothing with the
server but what they are sent). A move is one job: the game's
:meth:`~boardlab.core.game.Game.recipe`, the moves played so far and the bot's settings.
The worker builds the game (kept for its next jobs) and the position, says it is ready,
then lets the bot choose. The server never waits on the event loop and holds no lock
meanwhile; other matches and the database go on.

Limits, for every bot kind (``exact`` included, whose search ignores time):

- *wall time*: the bot's own budget plus :data:`GRACE_SECONDS` (``grace``) from the moment
  the position is ready (building a game may compile its kernel, which has a limit of
  its own, :data:`PREPARE_SECONDS` (``prepare_seconds``));
- *memory*: the worker's address space is capped (``RLIMIT_AS``) at
  :data:`MEMORY_MB` (``memory_mb``), so a search that grows too large fails inside the worker;
- *CPU*: workers run at a lower priority (:data:`NICENESS`), so bots thinking on every
  core never slow the server's answers.

A worker that overruns is killed and replaced, and the seat plays a random legal move
(seeded by the bot's seed), so a match never stalls on a bot. :class:`Choice` says how
the move was made.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
import resource
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from boardlab.core.game import Game, State

#: Seconds a worker may take to build a game and its position before the bot starts.
PREPARE_SECONDS = 120.0
#: Seconds a bot may think beyond its own budget before its worker is killed.
GRACE_SECONDS = 2.0
#: The default cap of a worker's address space, in MiB.
MEMORY_MB = 1024
#: How much lower a worker's CPU priority is than the server's (``nice``), so that a
#: machine busy with bots still answers requests at once.
NICENESS = 10


@dataclass(frozen=True)
class Choice:
    """A bot's move: its ``notation`` and ``how`` it was chosen: ``"bot"`` (by the bot),
    ``"overran"`` (time or memory ran out: a random legal move) or ``"failed"`` (the bot
    or its worker failed: a random legal move); ``detail`` says what happened."""

    notation: str
    how: str = "bot"
    detail: str = ""


def _limit_memory(megabytes: int) -> None:
    if megabytes > 0:
        limit = megabytes * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _serve(connection: Connection, megabytes: int) -> None:
    """A worker's loop: one job at a time until told to stop (``None``) or until the
    server is gone (its end of the pipe closed, also when it was killed)."""
    _limit_memory(megabytes)
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    try:
        while _one_job(connection):
            pass
    except (EOFError, OSError):
        return


_GAMES: dict[str, Game] = {}


def _one_job(connection: Connection) -> bool:
    from boardlab.ai.bots import make_bot, prepare

    job = connection.recv()
    if job is None:
        return False
    recipe, moves, bot, options = job
    try:
        key = repr(recipe)
        game = _GAMES.get(key)
        if game is None:
            build, args, kwargs = recipe
            game = _GAMES[key] = build(*args, **kwargs)
        state = game.initial_state().play_all(moves)
        state.legal_moves()
        player = make_bot(bot, **options)
        # What the bot compiles on first use (the kernel's search) counts as
        # preparing, not against the move's time.
        prepare(player, state)
        connection.send(("ready", None))
        move = player.choose(state)
    except MemoryError:
        connection.send(("memory", "the bot ran out of memory"))
        return False   # a process that hit its memory cap is not trusted with more work
    except (EOFError, OSError):
        raise
    except Exception as e:  # noqa: BLE001 - any failure of a bot is reported
        connection.send(("error", f"{type(e).__name__}: {e}"))
        return True
    connection.send(("move", move.notation))
    return True


class _Worker:
    def __init__(self, context: Any, megabytes: int):
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, megabytes), daemon=True,
                                       name="boardlab-bot")
        self.process.start()
        child.close()

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.connection.close()

    def stop(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.connection.send(None)
        self.process.join(2)
        self.kill()


def random_move(state: State, seed: int | None) -> str:
    """A random legal move of ``state`` (the fallback of a bot that overran)."""
    return random.Random(seed).choice(state.legal_moves()).notation


class BotPool:
    """Worker processes for bot moves: at most ``workers`` think at once; each move is
    limited in time and memory (see the module's docstring).

    ``workers=0`` thinks in threads of the server's process instead, with the bots'
    own budgets as the only limit (for games that cannot be rebuilt elsewhere, and
    for tests that must look inside a bot)."""

    def __init__(self, workers: int = 2, memory_mb: int = MEMORY_MB,
                 grace: float = GRACE_SECONDS, prepare_seconds: float = PREPARE_SECONDS):
        if workers < 0:
            raise ValueError("a bot pool has 0 or more workers")
        self.workers = workers
        self.memory_mb = memory_mb
        self.grace = grace
        self.prepare_seconds = prepare_seconds
        self._context = multiprocessing.get_context("spawn")
        self._idle: list[_Worker] = []
        self._slots: asyncio.Semaphore | None = None
        self._closed = False
        # Waiting on a worker blocks a thread for the whole move: these threads are the
        # pool's own, so the shared executor stays free for the server's other work.
        self._waiting = ThreadPoolExecutor(max(workers, 1) + 1, "boardlab-bot-wait")

    def _semaphore(self) -> asyncio.Semaphore:
        if self._slots is None:
            self._slots = asyncio.Semaphore(max(self.workers, 1))
        return self._slots

    async def choose(self, game: Game, moves: Sequence[str], state: State, bot: str,
                     options: Mapping[str, Any]) -> Choice:
        """The move of bot kind ``bot`` with ``options`` (``time`` is its budget in
        seconds) in ``state``, which ``moves`` lead to in ``game``."""
        seed = options.get("seed")
        recipe = game.recipe()
        if self.workers == 0 or recipe is None:
            return await asyncio.to_thread(self._in_thread, state, bot, options)
        async with self._semaphore():
            loop = asyncio.get_running_loop()
            try:
                worker = self._idle.pop() if self._idle else await loop.run_in_executor(
                    self._waiting, _Worker, self._context, self.memory_mb)
            except (OSError, RuntimeError) as e:
                return Choice(random_move(state, seed), "failed",
                              f"no worker process for the bot: {e}")
            limit = float(options.get("time") or 0) + self.grace
            outcome = await loop.run_in_executor(
                self._waiting, self._run, worker, (recipe, tuple(moves), bot, dict(options)),
                limit)
            kind, detail = outcome
            if kind == "move":
                self._release(worker)
                return Choice(detail)
            if kind == "error":
                self._release(worker)
            else:
                await loop.run_in_executor(self._waiting, worker.kill)
            how = "overran" if kind in ("time", "memory") else "failed"
            return Choice(random_move(state, seed), how, detail)

    def _release(self, worker: _Worker) -> None:
        if self._closed:
            worker.stop()
        else:
            self._idle.append(worker)

    def _run(self, worker: _Worker, job: tuple, limit: float) -> tuple[str, str]:
        """Send ``job`` and wait for its answer within the limits (in a thread)."""
        connection = worker.connection
        try:
            connection.send(job)
            for wait in (self.prepare_seconds, limit):
                if not connection.poll(wait):
                    return "time", f"the bot took longer than {wait:g} s"
                kind, detail = connection.recv()
                if kind != "ready":
                    return kind, detail
        except (EOFError, OSError) as e:
            return "crash", f"the bot's worker stopped ({type(e).__name__})"
        return "crash", "the bot's worker answered nothing"

    @staticmethod
    def _in_thread(state: State, bot: str, options: Mapping[str, Any]) -> Choice:
        from boardlab.ai.bots import make_bot

        return Choice(make_bot(bot, **options).choose(state).notation)

    def close(self) -> None:
        """Stop every idle worker (busy ones stop when their move is done)."""
        self._closed = True
        idle, self._idle = self._idle, []
        for worker in idle:
            worker.stop()
        self._waiting.shutdown(wait=False)

