"""``boardlab serve`` killed with SIGKILL in the middle of play: after a restart every
acknowledged move is there, a bot that was thinking moves again by itself, and a client
that reconnects its live connection resumes from the match as it is."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.web.conftest import KEY, bearer

HUMAN = {"type": "human"}


def start(data: Path) -> tuple[subprocess.Popen, str]:
    """``boardlab serve`` on a free port with its data in ``data``; the process and URL.
    Its output goes to a file (a pipe nobody reads would fill and stop the server)."""
    log_path = data / f"server-{time.monotonic_ns()}.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "-c", "from boardlab.cli.main import main; main()", "serve",
             "--port", "0", "--data", str(data)],
            stdout=log, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "BOARDLAB_DATA": str(data)})
    deadline = time.monotonic() + 60
    url = None
    while url is None:
        assert process.poll() is None, log_path.read_text()
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.1)
        for line in log_path.read_text().splitlines():
            if "boardlab web app on http://" in line:
                url = line.split(" on ")[1].split(" ")[0]
    while True:
        try:
            if httpx.get(f"{url}/api/games", timeout=5).status_code == 200:
                return process, url
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "the server did not answer"
        time.sleep(0.1)


def live_view(url: str, match_id: str) -> dict:
    with connect(url.replace("http://", "ws://") + f"/api/matches/{match_id}/live",
                 open_timeout=20) as socket:
        socket.send(json.dumps({"type": "hello", "token": KEY}))
        first = json.loads(socket.recv(timeout=20))
        assert first["type"] == "match"
        return first


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_acknowledged_moves_survive_a_killed_server_and_play_resumes(tmp_path):
    process, url = start(tmp_path)
    try:
        with httpx.Client(base_url=url, headers=bearer(KEY), timeout=30) as client:
            made = client.post("/api/matches", json={"game": "connect-four", "players": [
                HUMAN, {"type": "bot", "bot": "random", "seed": 1}]}).json()
            acknowledged = []
            view = made
            for column in ("d", "d", "c"):
                answer = client.post(f"/api/matches/{made['id']}/moves",
                                     json={"move": column, "revision": view["revision"]})
                assert answer.status_code == 200, answer.text
                acknowledged = answer.json()["moves"]
                view = client.post(f"/api/matches/{made['id']}/bot",
                                   json={"revision": answer.json()["revision"]}).json()
                acknowledged = view["moves"]
            # a bot that thinks for 4 s: the server dies while it is thinking
            slow = client.post("/api/matches", json={"game": "connect-four", "players": [
                HUMAN, {"type": "bot", "bot": "mcts", "time": 4.0, "seed": 2}]}).json()
            moved = client.post(f"/api/matches/{slow['id']}/moves",
                                json={"move": "a", "revision": 0})
            assert moved.status_code == 200
            time.sleep(0.5)
        process.send_signal(signal.SIGKILL)
        process.wait(10)

        process, url = start(tmp_path)
        with httpx.Client(base_url=url, headers=bearer(KEY), timeout=30) as client:
            again = client.get(f"/api/matches/{made['id']}").json()
            assert again["moves"] == acknowledged and len(acknowledged) == 6
            assert again["you"] == [0] and again["to_move"] == 0
            assert live_view(url, made["id"])["moves"] == acknowledged
            # the thinking bot starts again by itself and its move reaches a watcher
            deadline = time.monotonic() + 60
            seen = live_view(url, slow["id"])
            while len(seen["moves"]) < 2:
                assert time.monotonic() < deadline, "the bot never moved after the restart"
                time.sleep(0.5)
                seen = live_view(url, slow["id"])
            assert seen["moves"][0] == "a" and seen["to_move"] == 0
            play = client.post(f"/api/matches/{slow['id']}/moves",
                               json={"move": "a", "revision": seen["revision"]})
            assert play.status_code == 200, play.text
    finally:
        process.kill()
        process.wait(10)
