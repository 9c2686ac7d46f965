"""Load on ``boardlab serve``: many matches against thinking bots, many live watchers.

Starts ``boardlab serve`` on 127.0.0.1 (a fresh SQLite file, or ``--db`` such as a
PostgreSQL URL, whose web tables are emptied first), then for ``--seconds``:

* ``--matches`` players, one per match against an MCTS bot (``--bot-time`` s a move),
  arriving at random moments of the first ``--ramp`` seconds, each a loop of: play a
  random legal move on its revision, wait for the bot's reply (``POST /bot`` with the
  revision), read the match, now and then read the lobby;
* ``--watchers`` WebSocket clients spread over those matches, each checking that the
  revisions it is sent never go back.

Every request is timed; "bot" requests (waiting for a bot to think) are reported apart
from the others, whose p99 must stay under 1 s. Afterwards every move the server
acknowledged must be in the database. The targets of issue 14: 0 errors, p99 of non-bot
requests under 1 s, every acknowledged move present. It prints the figures and whether
each target is met, and exits 1 if one is not.

Usage: ``python benchmarks/web_load.py [--matches 200] [--watchers 300] [--seconds 120]
[--db URL] [--bot-time 0.2] [--ramp 10]``. Bounded: the run stops at ``--seconds`` plus a minute of
draining, whatever the server does.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import httpx
import websockets

TOKEN = "load-benchmark-token-0123456789"
HEADERS = {"Authorization": f"Bearer {TOKEN}"}
#: The game played: quick to replay, with bot moves that take the whole budget.
GAME = "connect-four"


def start_server(db: str | None, data: Path) -> tuple[subprocess.Popen, str]:
    """``boardlab serve`` on a free port of 127.0.0.1; the process and its URL."""
    command = [sys.executable, "-c", "from boardlab.cli.main import main; main()", "serve",
               "--port", "0", "--data", str(data)]
    if db:
        command += ["--db", db]
    # The server's output (its address, then uvicorn's access lines) goes to a file: a
    # pipe that nobody reads would fill up and stop the server.
    log_path = data / "server.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, text=True,
                                   env={**os.environ, "BOARDLAB_DATA": str(data)})
    deadline = time.monotonic() + 120
    line = ""
    while " on http://" not in line:
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise SystemExit(f"the server did not start: {log_path.read_text()[-2000:]}")
        time.sleep(0.1)
        line = next((text for text in log_path.read_text().splitlines()
                     if " on http://" in text), "")
    return process, line.split(" on ")[1].split(" ")[0]


def empty_web_tables(db: str) -> None:
    """Remove the matches a previous run left in ``db``."""
    from boardlab.store.db import open_store
    from boardlab.store.web import MatchRow

    with open_store(db) as store, store.session(write=True) as session:
        session.query(MatchRow).delete()


class Figures:
    """Latencies by kind of request, errors, acknowledged moves."""

    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.acknowledged: dict[str, list[str]] = {}
        self.messages = 0
        self.backwards = 0

    async def timed(self, kind: str, call) -> httpx.Response | None:
        started = time.perf_counter()
        try:
            response = await call
        except httpx.HTTPError as e:
            self.errors.append(f"{kind}: {type(e).__name__}: {e}")
            return None
        self.latency[kind].append(time.perf_counter() - started)
        if response.status_code >= 400:
            self.errors.append(f"{kind}: {response.status_code} {response.text[:200]}")
            return None
        return response


async def player(url: str, figures: Figures, match: dict, stop: float,
                 rng: random.Random, bot_time: float, ramp: float) -> None:
    """Plays one match against its bot until ``stop``, starting again when it ends.
    Each player has a client (a connection) of its own, as a browser would: one pool
    shared by hundreds of requests at once would time its own queueing, not the
    server (httpx's pool is slow with hundreds of waiting requests)."""
    # Players arrive during the ramp, not all in the same millisecond.
    await asyncio.sleep(rng.uniform(0, ramp))
    async with httpx.AsyncClient(base_url=url, headers=HEADERS,
                                 timeout=httpx.Timeout(120)) as client:
        await _play(client, figures, match, stop, rng, bot_time)


async def _play(client: httpx.AsyncClient, figures: Figures, match: dict, stop: float,
                rng: random.Random, bot_time: float) -> None:
    view = match
    while time.monotonic() < stop:
        if view["outcome"] is not None:
            made = await figures.timed("create", client.post("/api/matches", json={
                "game": GAME, "public": rng.random() < 0.5, "players": [
                    {"type": "human"}, {"type": "bot", "bot": "mcts", "time": bot_time}]}))
            if made is None:
                return
            view = made.json()
            figures.acknowledged[view["id"]] = []
        move = rng.choice(view["legal_moves"])["notation"]
        played = await figures.timed("move", client.post(
            f"/api/matches/{view['id']}/moves",
            json={"move": move, "revision": view["revision"]}))
        if played is None:
            return
        view = played.json()
        figures.acknowledged[view["id"]] = view["moves"]
        if view["outcome"] is None:
            replied = await figures.timed("bot", client.post(
                f"/api/matches/{view['id']}/bot", json={"revision": view["revision"]}))
            if replied is None:
                return
            view = replied.json()
            figures.acknowledged[view["id"]] = view["moves"]
        read = await figures.timed("read", client.get(f"/api/matches/{view['id']}"))
        if read is None:
            return
        view = read.json()
        if rng.random() < 0.1:
            await figures.timed("lobby", client.get("/api/lobby", params={"limit": 20}))


async def watcher(url: str, figures: Figures, match_id: str, stop: float) -> None:
    """Watches one match live until ``stop``; counts messages, checks their order."""
    address = url.replace("http://", "ws://") + f"/api/matches/{match_id}/live"
    last = -1
    while time.monotonic() < stop:
        try:
            async with websockets.connect(address, open_timeout=30) as socket:
                await socket.send(json.dumps({"type": "hello", "token": TOKEN}))
                while time.monotonic() < stop:
                    try:
                        text = await asyncio.wait_for(socket.recv(), stop - time.monotonic())
                    except TimeoutError:
                        return
                    message = json.loads(text)
                    if message.get("type") != "match":
                        continue
                    figures.messages += 1
                    if message["revision"] < last:
                        figures.backwards += 1
                    last = message["revision"]
        except (OSError, websockets.WebSocketException) as e:
            if time.monotonic() < stop:
                figures.errors.append(f"live: {type(e).__name__}: {e}")
                await asyncio.sleep(1)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


async def run(url: str, matches: int, watchers: int, seconds: float, bot_time: float,
              seed: int, ramp: float) -> Figures:
    figures = Figures()
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=matches + 20, max_keepalive_connections=matches)
    async with httpx.AsyncClient(base_url=url, headers=HEADERS, limits=limits,
                                 timeout=httpx.Timeout(120)) as client:
        created = []
        for i in range(matches):
            made = await figures.timed("create", client.post("/api/matches", json={
                "game": GAME, "public": i % 2 == 0, "players": [
                    {"type": "human"}, {"type": "bot", "bot": "mcts", "time": bot_time}]}))
            if made is None:
                raise SystemExit(f"cannot create matches: {figures.errors[-1]}")
            created.append(made.json())
            figures.acknowledged[created[-1]["id"]] = []
        stop = time.monotonic() + seconds
        tasks = [player(url, figures, match, stop, random.Random(rng.random()), bot_time,
                        ramp) for match in created]
        tasks += [watcher(url, figures, created[i % len(created)]["id"], stop)
                  for i in range(watchers)]
        try:
            await asyncio.wait_for(asyncio.gather(*tasks), seconds + 60)
        except TimeoutError:
            figures.errors.append("the run did not drain within a minute of its end")
        # every acknowledged move is in the database
        for match_id, moves in figures.acknowledged.items():
            stored = await figures.timed("check", client.get(f"/api/matches/{match_id}"))
            if stored is None:
                continue
            if stored.json()["moves"][:len(moves)] != moves:
                figures.errors.append(f"match {match_id}: acknowledged moves missing")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--watchers", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--bot-time", type=float, default=0.2)
    parser.add_argument("--db", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ramp", type=float, default=10.0,
                        help="seconds over which the players arrive (default 10)")
    args = parser.parse_args()
    if args.db:
        empty_web_tables(args.db)
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(args.db, Path(folder))
        try:
            started = time.monotonic()
            figures = asyncio.run(run(url, args.matches, args.watchers, args.seconds,
                                      args.bot_time, args.seed, args.ramp))
            wall = time.monotonic() - started
        finally:
            process.terminate()
            process.wait(30)
    database = "PostgreSQL" if args.db and args.db.startswith("postgresql") else "SQLite"
    print(f"boardlab serve on {database}: {args.matches} matches against MCTS "
          f"({args.bot_time:g} s a move), {args.watchers} live watchers, "
          f"{args.seconds:g} s, players arriving over {args.ramp:g} s "
          f"({wall:.0f} s with setup and checks)")
    print(f"{'request':<8} {'count':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    others: list[float] = []
    for kind in sorted(figures.latency):
        values = figures.latency[kind]
        if kind != "bot":
            others += values
        print(f"{kind:<8} {len(values):>7} {1000 * statistics.median(values):>8.1f} "
              f"{1000 * percentile(values, 0.99):>8.1f} {1000 * max(values):>8.1f}")
    moves = sum(len(m) for m in figures.acknowledged.values())
    p99 = percentile(others, 0.99)
    print(f"live messages received: {figures.messages}; out of order: {figures.backwards}")
    print(f"acknowledged moves: {moves} in {len(figures.acknowledged)} matches")
    checks = {"0 errors": not figures.errors and not figures.backwards,
              f"p99 of non-bot requests under 1 s ({1000 * p99:.0f} ms)": p99 < 1.0,
              "every acknowledged move present": not any("missing" in e
                                                         for e in figures.errors)}
    for name, met in checks.items():
        print(f"{'met' if met else 'NOT MET'}: {name}")
    for error in figures.errors[:10]:
        print("  error:", error)
    if len(figures.errors) > 10:
        print(f"  ... {len(figures.errors) - 10} more errors")
    sys.exit(0 if all(checks.values()) else 1)


if __name__ == "__main__":
    main()
