"""Live play: every change of a match reaches its watchers at once, bots move by
themselves and clocks fall on time.

:class:`Live` runs on the server's event loop. :class:`~boardlab.web.matches.Matches`
tells it of every match it saves (from whatever thread), and it then

- sends the match's new view to every WebSocket watching it (seats and spectators
  alike; each gets ``you``, the seats its token holds), in revision order, never an
  older view after a newer one;
- starts the bot of the seat to move, if any, in the :class:`~boardlab.web.botpool.BotPool`
  (one driver per match, which goes on while bots are to move); a random player's seat
  moves the same way, as a random bot (:meth:`Matches.bot_seat
  <boardlab.web.matches.Matches.bot_seat>`);
- arms a timer for the moment the running clock would fall, which then ends the game
  on time even if nobody asks.

A server that restarts resumes the unfinished matches it finds (bots and timers), and a
client that reconnects gets the current view first, so nothing is missed.

:class:`Topics` is the same watching for anything else that changes (a quest's progress,
:mod:`boardlab.web.api_quest`): a change of a topic, told from any thread, sends the
topic's view as it is then to its watchers; and :func:`pump` serves one watcher over its
WebSocket (its queue out, pings when idle, the client's messages in) for both.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from boardlab.store.web import StoredMatch
from boardlab.web.botpool import BotPool
from boardlab.web.errors import ApiError
from boardlab.web.matches import Matches, bot_options, clock_left, now_ms, status
from boardlab.web.schemas import MAX_BOT_SECONDS, BotPlayer

log = logging.getLogger("boardlab.web")

#: Messages a watcher may fall behind by before it is dropped (it reconnects and
#: resynchronises from the current view).
QUEUE = 64
#: Seconds between two bot moves when bots play each other, so watchers can follow.
BOT_PAUSE = 0.3
#: How many recently changed matches a starting server resumes.
RESUME = 500
#: Threads for the live service's work off the event loop (views, bot seats, saves).
THREADS = 32
#: The most live connections the server keeps at once (each holds a queue).
MAX_WATCHERS = 5000


class Watcher:
    """One WebSocket's subscription: its queue of messages and its seat token."""

    def __init__(self, token: str | None):
        self.token = token
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(QUEUE)


class Live:
    """Watchers, bot drivers and clock timers of the matches of one :class:`Matches`."""

    def __init__(self, matches: Matches, pool: BotPool):
        self.matches = matches
        self.pool = pool
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: int | None = None
        self._watchers: dict[str, set[Watcher]] = {}
        self._published: dict[str, int] = {}
        self._drivers: dict[str, asyncio.Task[None]] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._waiters: dict[str, list[asyncio.Future[StoredMatch]]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    # --- lifecycle ------------------------------------------------------------------------
    async def start(self) -> None:
        """Listen to the matches' changes and resume the unfinished matches."""
        self._loop = asyncio.get_running_loop()
        self._thread = threading.get_ident()
        # Views, bot seats and saves run in the loop's default executor; its default size
        # (the cores plus 4) would queue them behind each other under load.
        self._loop.set_default_executor(ThreadPoolExecutor(THREADS, "boardlab-live"))
        self.matches.on_change = self.changed
        from boardlab.store import web as match_store

        recent = await asyncio.to_thread(match_store.list_matches, self.matches.store,
                                         RESUME)
        for match in recent:
            if match.result is None:
                self._react(match)

    async def stop(self) -> None:
        """Stop the drivers and timers and close every watcher."""
        self.matches.on_change = None
        for timer in self._timers.values():
            timer.cancel()
        for task in [*self._drivers.values(), *self._tasks]:
            task.cancel()
        for task in [*self._drivers.values(), *self._tasks]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for watchers in self._watchers.values():
            for watcher in watchers:
                with contextlib.suppress(asyncio.QueueFull):
                    watcher.queue.put_nowait(None)
        await asyncio.to_thread(self.pool.close)

    def _spawn(self, coroutine: Any) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # --- changes --------------------------------------------------------------------------
    def changed(self, match: StoredMatch) -> None:
        """A match was saved (callable from any thread)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if threading.get_ident() == self._thread:
            self._on_change(match)
        else:
            loop.call_soon_threadsafe(self._on_change, match)

    def _on_change(self, match: StoredMatch) -> None:
        for future in self._waiters.pop(match.id, []):
            if not future.done():
                future.set_result(match)
        if self._watchers.get(match.id):
            self._spawn(self._publish(match))
        self._react(match)

    def _react(self, match: StoredMatch) -> None:
        self._arm_timer(match)
        if match.result is None and status(match) == "playing":
            self.drive(match.id)

    async def _publish(self, match: StoredMatch) -> None:
        try:
            view = await asyncio.to_thread(self.matches.view, match)
        except ApiError as e:
            view = {"id": match.id, "revision": match.revision, "error": e.message}
        if self._published.get(match.id, -1) > match.revision:
            return
        self._published[match.id] = match.revision
        for watcher in list(self._watchers.get(match.id, ())):
            self.send(match, watcher, view)

    def send(self, match: StoredMatch, watcher: Watcher, view: dict[str, Any]) -> None:
        """Queue ``view`` of ``match`` for ``watcher``, with the seats its token holds."""
        message = {"type": "match", **view, "you": self.matches.seats_of(match,
                                                                          watcher.token)}
        try:
            watcher.queue.put_nowait(message)
        except asyncio.QueueFull:
            # Too far behind: drop it; it reconnects and starts from the current view.
            self.unwatch(match.id, watcher)
            with contextlib.suppress(asyncio.QueueEmpty):
                watcher.queue.get_nowait()
            watcher.queue.put_nowait(None)

    # --- watchers -------------------------------------------------------------------------
    async def watch(self, match_id: str, token: str | None) -> Watcher:
        """Subscribe to a match: the returned watcher's queue starts with the current
        view (404 if there is no such match, 503 past :data:`MAX_WATCHERS` connections);
        ``None`` in the queue means: reconnect."""
        if sum(len(w) for w in self._watchers.values()) >= MAX_WATCHERS:
            raise ApiError(503, "too many live connections; try again later", match_id,
                           code="busy")
        match = await asyncio.to_thread(self.matches.get, match_id)
        view = await asyncio.to_thread(self.matches.view, match)
        watcher = Watcher(token)
        self._watchers.setdefault(match_id, set()).add(watcher)
        self.send(match, watcher, view)
        self._react(match)
        return watcher

    def unwatch(self, match_id: str, watcher: Watcher) -> None:
        """Unsubscribe."""
        watchers = self._watchers.get(match_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self._watchers[match_id]
                self._published.pop(match_id, None)

    def watching(self, match_id: str) -> int:
        """How many watchers a match has."""
        return len(self._watchers.get(match_id, ()))

    # --- clocks ---------------------------------------------------------------------------
    def _arm_timer(self, match: StoredMatch) -> None:
        old = self._timers.pop(match.id, None)
        if old is not None:
            old.cancel()
        clock = match.clock
        if match.result is not None or clock is None or clock.get("turn") is None:
            return
        assert self._loop is not None
        left = clock_left(clock, now_ms())[clock["turn"]]
        self._timers[match.id] = self._loop.call_later(
            left / 1000 + 0.01, lambda: self._spawn(self._flag(match.id)))

    async def _flag(self, match_id: str) -> None:
        self._timers.pop(match_id, None)
        with contextlib.suppress(ApiError):
            await asyncio.to_thread(self.matches.get, match_id)   # settles the clock

    # --- bots -----------------------------------------------------------------------------
    def drive(self, match_id: str) -> None:
        """Make sure the bots of this match move while one is to move."""
        task = self._drivers.get(match_id)
        if task is None or task.done():
            task = self._drivers[match_id] = asyncio.ensure_future(self._drive(match_id))
            # A finished driver leaves no trace (a server runs for months).
            task.add_done_callback(lambda done: self._drivers.pop(match_id, None)
                                   if self._drivers.get(match_id) is done else None)

    async def _drive(self, match_id: str) -> None:
        moved = False
        while True:
            try:
                match, state, player = await asyncio.to_thread(self.matches.bot_seat,
                                                               match_id, None)
            except ApiError:
                return   # over, waiting, gone, or a human to move
            if moved and BOT_PAUSE > 0 and self.watching(match_id):
                await asyncio.sleep(BOT_PAUSE)
            try:
                await self._bot_move(match, state, player)
            except ApiError:
                pass     # changed meanwhile (an undo, a resignation): look again
            except Exception:  # noqa: BLE001 - a driver must never die silently
                log.exception("boardlab web: the bot of match %s failed", match_id)
                return
            moved = True

    def _budget(self, match: StoredMatch, state: Any, player: BotPlayer) -> dict[str, Any]:
        options = bot_options(player)
        clock = match.clock
        if clock is not None and clock.get("turn") is not None:
            # On a clock a bot spends at most a tenth of what it has left.
            left = clock_left(clock, now_ms())[state.to_move] / 1000
            options["time"] = max(0.05, min(options["time"], left / 10))
        return options

    async def _bot_move(self, match: StoredMatch, state: Any, player: BotPlayer
                        ) -> StoredMatch:
        options = self._budget(match, state, player)
        game = state.game
        choice = await self.pool.choose(game, match.moves, state, player.bot, options)
        if choice.how != "bot":
            log.warning("boardlab web: match %s, bot %s: %s; played a random move",
                        match.id, player.bot, choice.detail)
        return await asyncio.to_thread(self.matches.play_bot, match, state, choice.notation)

    async def bot_turn(self, match_id: str, override: BotPlayer | None, token: str | None,
                       revision: int | None) -> dict[str, Any]:
        """``POST /bot``: with ``override``, that bot plays for the caller's seat;
        otherwise wait until the match moves past ``revision`` (by default its current
        one) while its bot is to move, and answer the match then."""
        if override is not None:
            match, state, player = await asyncio.to_thread(self.matches.bot_seat, match_id,
                                                           override, token)
            saved = await self._bot_move(match, state, player)
            return await asyncio.to_thread(self.matches.view, saved, None, token)
        assert self._loop is not None
        # Listening before looking: a move saved after the look below wakes this up.
        future: asyncio.Future[StoredMatch] = self._loop.create_future()
        self._waiters.setdefault(match_id, []).append(future)
        try:
            match = await asyncio.to_thread(self.matches.get, match_id)
            if revision is None or match.revision <= revision:
                try:
                    await asyncio.to_thread(self.matches.bot_seat, match_id, None)
                except ApiError:
                    if not future.done():
                        raise
                self.drive(match_id)
                limit = self.pool.prepare_seconds + MAX_BOT_SECONDS + self.pool.grace
                try:
                    match = await asyncio.wait_for(asyncio.shield(future), limit)
                except TimeoutError:
                    raise ApiError(503, "the bot did not move in time; try again",
                                   match_id, code="botLate") from None
        finally:
            waiters = self._waiters.get(match_id, [])
            if future in waiters:
                waiters.remove(future)
            future.cancel()
        return await asyncio.to_thread(self.matches.view, match, None, token)


class Topics:
    """Watchers of named topics, each sent the topic's view ``view(topic)`` (a blocking
    call, run in a thread) when it starts watching and after every change.

    :meth:`changed` may be called from any thread once a watcher has started (before,
    nobody watches). Changes that come while a view is being made are folded into one
    more view afterwards, so a burst of changes costs two views, and the last view sent
    is always made after the last change.
    """

    def __init__(self, view: Callable[[str], dict[str, Any]]):
        self.view = view
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: int | None = None
        self._watchers: dict[str, set[Watcher]] = {}
        self._running: set[str] = set()
        self._dirty: set[str] = set()
        self._tasks: set[asyncio.Task[Any]] = set()

    async def watch(self, topic: str) -> Watcher:
        """Subscribe to ``topic``: the watcher's queue starts with its current view;
        ``None`` in the queue means: reconnect. 503 past :data:`MAX_WATCHERS`."""
        if sum(len(w) for w in self._watchers.values()) >= MAX_WATCHERS:
            raise ApiError(503, "too many live connections; try again later", topic,
                           code="busy")
        self._loop = asyncio.get_running_loop()
        self._thread = threading.get_ident()
        watcher = Watcher(None)
        self._watchers.setdefault(topic, set()).add(watcher)
        view = await asyncio.to_thread(self.view, topic)
        self._send(topic, watcher, view)
        return watcher

    def unwatch(self, topic: str, watcher: Watcher) -> None:
        """Unsubscribe."""
        watchers = self._watchers.get(topic)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self._watchers[topic]

    def watching(self, topic: str) -> int:
        """How many watchers ``topic`` has."""
        return len(self._watchers.get(topic, ()))

    def changed(self, topic: str) -> None:
        """``topic`` changed (callable from any thread)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if threading.get_ident() == self._thread:
            self._on_change(topic)
        else:
            loop.call_soon_threadsafe(self._on_change, topic)

    def _on_change(self, topic: str) -> None:
        if not self._watchers.get(topic):
            return
        if topic in self._running:
            self._dirty.add(topic)
            return
        self._running.add(topic)
        task = asyncio.ensure_future(self._publish(topic))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _publish(self, topic: str) -> None:
        try:
            while self._watchers.get(topic):
                self._dirty.discard(topic)
                try:
                    view = await asyncio.to_thread(self.view, topic)
                except Exception:  # noqa: BLE001 - a failed view must not stop the topic
                    log.exception("boardlab web: the view of %s failed", topic)
                    return
                for watcher in list(self._watchers.get(topic, ())):
                    self._send(topic, watcher, view)
                if topic not in self._dirty:
                    return
        finally:
            self._running.discard(topic)
            self._dirty.discard(topic)

    def _send(self, topic: str, watcher: Watcher, view: dict[str, Any]) -> None:
        try:
            watcher.queue.put_nowait(view)
        except asyncio.QueueFull:
            # Too far behind: it reconnects and starts from the current view.
            self.unwatch(topic, watcher)
            with contextlib.suppress(asyncio.QueueEmpty):
                watcher.queue.get_nowait()
            watcher.queue.put_nowait(None)


#: The largest message a live client may send (a hello with its token or key is far
#: smaller).
MAX_MESSAGE = 4096
#: Seconds of silence after which the server pings a live client's connection.
PING_SECONDS = 25.0


async def pump(websocket: WebSocket, watcher: Watcher,
               on_message: Callable[[dict[str, Any]], Awaitable[None]] | None = None,
               ping_seconds: float = PING_SECONDS) -> None:
    """Serve one watcher over its (accepted) WebSocket until either side closes: every
    message of its queue goes out (``None``: close with 1013, the client reconnects), a
    ping after ``ping_seconds`` of silence; the client's pings are answered, its pongs
    ignored, other JSON objects handed to ``on_message`` and anything else answered with
    an error message."""

    async def listen() -> None:
        while True:
            text = await websocket.receive_text()
            if len(text) > MAX_MESSAGE:
                await websocket.close(code=1009, reason="message too big")
                return
            try:
                message = json.loads(text)
            except ValueError:
                message = None
            if not isinstance(message, dict):
                await websocket.send_json({"type": "error", "error": "messages are JSON "
                                           "objects with a type"})
                continue
            kind = message.get("type")
            if kind == "ping":
                await websocket.send_json({"type": "pong"})
            elif kind == "pong":
                pass    # the answer to the server's own ping
            elif on_message is not None:
                await on_message(message)
            else:
                await websocket.send_json({"type": "error",
                                           "error": f"unknown type {kind!r}"})

    listener = asyncio.ensure_future(listen())
    try:
        while not listener.done():
            getter = asyncio.ensure_future(watcher.queue.get())
            done, _ = await asyncio.wait({getter, listener}, timeout=ping_seconds,
                                         return_when=asyncio.FIRST_COMPLETED)
            if getter not in done:
                getter.cancel()
                if not done:
                    await websocket.send_json({"type": "ping"})
                continue
            message = getter.result()
            if message is None:     # fell behind, or the server stops: reconnect
                await websocket.close(code=1013)
                return
            await websocket.send_json(message)
    except (WebSocketDisconnect, RuntimeError, ConnectionError):
        pass
    finally:
        listener.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await listener
