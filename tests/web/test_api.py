"""The web app's JSON API through FastAPI's TestClient on a temporary SQLite file: every
route, its happy paths and its 4xx answers, whole games against the bots, group
selection on Abalone, resuming from the database, the quantum and column views, and a
bot that thinks without blocking the server. Also ``boardlab serve`` at the CLI edge."""

from __future__ import annotations

import random
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from boardlab.cli.main import app as cli_app
from boardlab.core.registry import names
from boardlab.web.app import create_app
from boardlab.web.matches import bot_options
from boardlab.web.schemas import MAX_BOT_SECONDS, BotPlayer
from tests.web.conftest import KEY, assert_error, bearer, new_match, play, serve_help, wait_for_bot

HUMAN = {"type": "human"}


def db_url(folder: Path) -> str:
    return f"sqlite:///{folder / 'web.db'}"


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    """A browser's client: it presents its own seat token, and the server's bots think
    in one worker process."""
    with TestClient(create_app(db_url(tmp_path), bot_workers=1),
                    headers=bearer(KEY)) as opened:
        yield opened


# --- games --------------------------------------------------------------------------------
def test_list_games_describes_every_registered_game(client):
    games = client.get("/api/games").json()
    assert [g["name"] for g in games] == names()
    connect_four = next(g for g in games if g["name"] == "connect-four")
    assert connect_four["players"] and connect_four["description"]
    assert {o["name"]: o["default"] for o in connect_four["options"]} == {"rows": 6,
                                                                          "columns": 7}
    assert all(set(g) == {"name", "description", "players", "chance", "options", "source",
                          "imported"}
               and g["imported"] is None for g in games)


def test_a_game_has_rules_and_a_drawable_board(client):
    data = client.get("/api/games/abalone").json()
    assert "Abalone" in data["rules"]
    board = data["board"]
    assert board["kind"] == "hex" and len(board["cells"]) == 61
    assert board["cells"][0] == {"name": "a1", "coords": [-4, -4]}
    size = len(board["cells"])
    for direction in board["directions"]:
        row = board["links"][direction]
        assert len(row) == size and all(-1 <= target < size for target in row)
    square = client.get("/api/games/tic-tac-toe").json()["board"]
    b2 = [c["name"] for c in square["cells"]].index("b2")
    assert square["cells"][square["links"]["n"][b2]]["name"] == "b3"
    assert square["layers"] == []


def test_game_options_come_from_the_query(client):
    data = client.get("/api/games/connect-four", params={"rows": "7"}).json()
    assert data["values"]["rows"] == 7
    assert len(data["board"]["cells"]) == 7 * 7


@pytest.mark.parametrize("name", names())
def test_every_game_describes_itself_and_starts_a_match(client, name):
    info = client.get(f"/api/games/{name}")
    assert info.status_code == 200
    board = info.json()["board"]
    match = new_match(client, name, [HUMAN] * len(info.json()["players"]))
    cells = {c["name"] for c in board["cells"]} if board else set()
    assert match["legal_moves"] and match["to_move"] == 0 and match["outcome"] is None
    assert set(match["view"]["cells"]) <= cells
    first = match["legal_moves"][0]
    assert set(first["cells"]) <= cells and set(first["from"]) <= set(first["cells"])
    after = play(client, match, first["notation"])
    assert after["moves"] == [first["notation"]] and after["ply"] == 1


def test_unknown_game_and_bad_options_are_4xx(client):
    assert_error(client.get("/api/games/no-such-game"), 404, "no-such-game")
    assert_error(client.post("/api/matches", json={"game": "no-such-game"}), 404)
    assert_error(client.get("/api/games/connect-four", params={"rows": "many"}), 422, "rows")
    assert_error(client.get("/api/games/connect-four", params={"colour": "red"}), 422,
                 "colour")
    for options in ({"rows": 1000}, {"rows": "x"}, {"depth": 3}, {"rows": True}):
        assert_error(client.post("/api/matches", json={"game": "connect-four",
                                                       "options": options}), 422)
    assert_error(client.post("/api/matches", json={"game": "connect-four",
                                                   "options": {"rows": [1]}}), 422)
    # A name, never a path: the server reads no file its clients name, and the engine
    # is the server's to choose.
    for name in ("/etc/hostname", "../tests/data/zrf/chess/chess.zrf", "chess.zrf"):
        assert_error(client.post("/api/matches", json={"game": name}), 404, "unknown game")
    assert_error(client.post("/api/matches", json={"game": "breakthrough", "options": {
        "engine": "interpreter"}}), 422, "the engine is chosen apart from the options")


# --- creating matches ------------------------------------------------------------------------
def test_a_match_is_stored_with_its_players_and_defaults(client):
    match = new_match(client, "connect-four", rows=7)
    assert len(match["id"]) == 32 and match["options"] == {"rows": 7, "columns": 7}
    assert match["players"] == [HUMAN, {"type": "bot", "bot": "mcts"}]
    assert match["moves"] == [] and len(match["player_names"]) == 2
    assert client.get(f"/api/matches/{match['id']}").json()["id"] == match["id"]
    assert match["token"] == KEY and match["you"] == [0] and match["status"] == "playing"
    # a private match (the default) is reached only by its link
    assert client.get("/api/matches").json() == []
    public = client.post("/api/matches", json={"game": "connect-four", "public": True})
    listed = client.get("/api/matches").json()
    assert [m["id"] for m in listed] == [public.json()["id"]] and listed[0]["ply"] == 0
    assert "token" not in listed[0] and "tokens" not in listed[0]


@pytest.mark.parametrize("players", [
    [HUMAN],
    [HUMAN, HUMAN, HUMAN],
    [HUMAN, {"type": "bot", "bot": "deep-blue"}],
    [HUMAN, {"type": "bot", "bot": "mcts", "time": -1}],
    [HUMAN, {"type": "bot", "bot": "alphabeta", "depth": 0}],
    [HUMAN, {"type": "robot"}],
    [HUMAN, {"type": "human", "colour": "extra field"}],
    [HUMAN, {"type": "human", "name": "n" * 41}],
    [],
])
def test_bad_players_are_422(client, players):
    assert_error(client.post("/api/matches", json={"game": "tic-tac-toe",
                                                   "players": players}), 422)


def test_malformed_and_misshapen_bodies(client):
    headers = {"Content-Type": "application/json"}
    data = assert_error(client.post("/api/matches", content="{bad json", headers=headers),
                        400, "malformed JSON")
    assert data["where"].startswith("body")
    assert_error(client.post("/api/matches", json=["tic-tac-toe"]), 422)
    assert_error(client.post("/api/matches", json={}), 422, "game")
    match = new_match(client, "tic-tac-toe", [HUMAN, HUMAN])
    url = f"/api/matches/{match['id']}"
    assert_error(client.post(f"{url}/moves", content="[", headers=headers), 400)
    assert_error(client.post(f"{url}/moves", json={"move": 5}), 422, "move")
    assert_error(client.post(f"{url}/moves", json={"move": ""}), 422)
    assert_error(client.post(f"{url}/undo", json={"to_human": "yes"}), 422)
    assert_error(client.get("/api/matches", params={"limit": 0}), 422, "limit")
    assert_error(client.get("/no/such/page"), 404)
    assert_error(client.delete(url), 405)


# --- playing --------------------------------------------------------------------------------
def test_moves_views_and_illegal_moves(client):
    match = new_match(client, "tic-tac-toe", [HUMAN, HUMAN])
    view = play(client, match, "b2")
    assert view["moves"] == ["b2"] and view["to_move"] == 1
    assert "b2" not in [m["notation"] for m in view["legal_moves"]]
    assert view["legal_moves"][0] == {"notation": "a1", "from": [], "to": [], "cells": ["a1"]}
    assert view["position"] and view["text"]
    data = assert_error(client.post(f"/api/matches/{match['id']}/moves", json={"move": "b2"}),
                        400, "illegal move", "b2")
    assert data["where"] == "b2"
    assert_error(client.post(f"/api/matches/{match['id']}/moves", json={"move": "z9"}), 400,
                 "z9")
    assert client.get(f"/api/matches/{match['id']}").json()["moves"] == ["b2"]


def test_shift_moves_name_their_cells(client):
    match = new_match(client, "breakthrough", [HUMAN, HUMAN])
    move = match["legal_moves"][0]
    assert len(move["from"]) == 1 and len(move["to"]) == 1
    assert move["cells"] == move["from"] + move["to"]
    assert match["view"]["cells"][move["from"][0]]["owner"] == 0
    after = play(client, match, move["notation"])
    assert move["from"][0] not in after["view"]["cells"]
    assert after["view"]["cells"][move["to"][0]]["owner"] == 0


def test_unknown_match_is_404_everywhere(client):
    missing = "0" * 32
    for response in (client.get(f"/api/matches/{missing}"),
                     client.get(f"/api/matches/{missing}/record"),
                     client.post(f"/api/matches/{missing}/moves", json={"move": "a1"}),
                     client.post(f"/api/matches/{missing}/bot"),
                     client.post(f"/api/matches/{missing}/undo"),
                     client.post(f"/api/matches/{missing}/closure",
                                 json={"group": [], "move": "a1"}),
                     client.post(f"/api/matches/{missing}/group-moves", json={"group": []}),
                     client.get("/api/matches/" + "x" * 500)):
        assert_error(response, 404)


def test_a_whole_tic_tac_toe_game_against_the_bot(client):
    match = new_match(client, "tic-tac-toe",
                      [HUMAN, {"type": "bot", "bot": "alphabeta", "depth": 9, "seed": 1}])
    url = f"/api/matches/{match['id']}"
    view = match
    while view["outcome"] is None:
        if view["to_move"] == 0:
            view = play(client, view, view["legal_moves"][0]["notation"])
        else:
            view = wait_for_bot(client, view)
    # a perfect O never loses to X's naive first-legal-move play
    assert view["outcome"] in (["0", "1"], ["1/2", "1/2"])
    assert view["to_move"] is None and view["legal_moves"] == []
    assert view["reason"] == "rules" and view["status"] == "over"
    assert_error(client.post(f"{url}/bot"), 409, "over")
    assert_error(client.post(f"{url}/moves", json={"move": "a1"}), 409, "over")
    record = client.get(f"{url}/record")
    assert record.status_code == 200
    assert record.headers["content-disposition"].startswith('attachment; filename="tic-tac-toe-')
    data = record.json()
    assert data["game"] == "tic-tac-toe" and data["moves"] == view["moves"]
    assert data["result"] == view["outcome"] and data["reason"] == "rules"


def test_bot_for_a_human_seat_needs_a_named_bot(client):
    match = new_match(client, "tic-tac-toe", [HUMAN, HUMAN])
    url = f"/api/matches/{match['id']}/bot"
    assert_error(client.post(url), 409, "human")
    hint = client.post(url, json={"player": {"bot": "random", "seed": 3}})
    assert hint.status_code == 200 and len(hint.json()["moves"]) == 1
    assert_error(client.post(url, json={"player": {"bot": "oracle"}}), 422)


def test_undo_one_move_or_back_to_the_human(client):
    match = new_match(client, "tic-tac-toe", [HUMAN, {"type": "bot", "bot": "random"}])
    url = f"/api/matches/{match['id']}"
    assert_error(client.post(f"{url}/undo"), 409, "no move")
    view = wait_for_bot(client, play(client, match, "b2"))
    view = wait_for_bot(client, play(client, view, view["legal_moves"][0]["notation"]))
    moves = view["moves"]
    assert len(moves) == 4
    # one move back: the bot is to move again, and does
    undone = client.post(f"{url}/undo").json()
    assert undone["moves"] == moves[:3]
    view = wait_for_bot(client, undone)
    assert len(view["moves"]) == 4 and view["moves"][:3] == moves[:3]
    # back to the human: the bot's reply and X's move before it go together
    view = client.post(f"{url}/undo", json={"to_human": True}).json()
    assert view["moves"] == moves[:2] and view["to_move"] == 0
    view = client.post(f"{url}/undo", json={"to_human": True}).json()
    assert view["ply"] == 0 and view["to_move"] == 0


def test_a_second_app_on_the_same_database_resumes_the_match(tmp_path):
    with TestClient(create_app(db_url(tmp_path)), headers=bearer(KEY)) as first:
        match = new_match(first, "connect-four", [HUMAN, HUMAN])
        play(first, play(first, match, "d"), "c")
    with TestClient(create_app(data_dir=tmp_path / "other")) as elsewhere:
        assert_error(elsewhere.get(f"/api/matches/{match['id']}"), 404)
    with TestClient(create_app(db_url(tmp_path)), headers=bearer(KEY)) as second:
        view = second.get(f"/api/matches/{match['id']}").json()
        assert view["moves"] == ["d", "c"] and view["to_move"] == 0
        assert play(second, view, "d")["ply"] == 3


# --- group selection -------------------------------------------------------------------------
def test_abalone_closure_grows_the_trailing_marble_to_the_pushed_line(client):
    match = new_match(client, "abalone", [HUMAN, HUMAN])
    url = f"/api/matches/{match['id']}"
    response = client.post(f"{url}/closure", json={"group": ["c3"], "move": "c3c4"})
    assert response.status_code == 200, response.text
    assert response.json() == {"group": ["c3", "c4", "c5"], "move": "c3c4"}
    moves = client.post(f"{url}/group-moves", json={"group": ["c3", "c4", "c5"]}).json()
    exact = {m["notation"] for m in moves["moves"]}
    using = {m["notation"] for m in moves["moves_using"]}
    assert "c3c4" in exact and exact <= using
    single = client.post(f"{url}/group-moves", json={"group": ["c3"]}).json()
    assert "c3c4" in {m["notation"] for m in single["moves_using"]}
    assert "c3c4" not in {m["notation"] for m in single["moves"]}


@pytest.mark.parametrize(("group", "move", "words"), [
    (["z9"], "c3c4", ("z9",)),              # no such cell
    (["c3", "c3"], "c3c4", ("twice",)),     # selected twice
    (["i9"], "c3c4", ("no piece",)),        # the opponent's marble
    (["e5"], "c3c4", ("no piece",)),        # an empty cell
    (["a1"], "c3c4", ("does not move",)),   # a marble the move leaves
    (["c3"], "c3c9", ("c3c9",)),            # not a legal move
])
def test_bad_closure_groups_are_400(client, group, move, words):
    match = new_match(client, "abalone", [HUMAN, HUMAN])
    response = client.post(f"/api/matches/{match['id']}/closure",
                           json={"group": group, "move": move})
    assert_error(response, 400, *words)


def test_group_moves_refuse_unknown_cells(client):
    match = new_match(client, "abalone", [HUMAN, HUMAN])
    url = f"/api/matches/{match['id']}/group-moves"
    assert_error(client.post(url, json={"group": ["q7"]}), 400, "q7")
    assert_error(client.post(url, json={"group": "c3"}), 422)


# --- views of richer cells -------------------------------------------------------------------
def test_quantum_view_shows_spooky_marks_and_the_pending_collapse(client):
    match = new_match(client, "quantum-tic-tac-toe", [HUMAN, HUMAN])
    view = play(client, play(client, match, "1-2"), "1-2")
    assert view["view"]["pending"] == {"number": 2, "label": "O2", "squares": ["1", "2"]}
    marks = view["view"]["spooky"]["2"]
    assert [(m["label"], m["owner"], m["pending"]) for m in marks] == [
        ("X1", 0, False), ("O2", 1, True)]
    assert {m["notation"] for m in view["legal_moves"]} == {"→1", "→2"}
    view = play(client, view, ">1")
    assert view["view"]["cells"] == {"1": {"owner": 1, "kind": "O2"},
                                     "2": {"owner": 0, "kind": "X1"}}
    assert view["view"]["pending"] is None and view["view"]["spooky"]["1"] == []


def test_hex_column_checkers_view_shows_columns(client):
    match = new_match(client, "hex-column-checkers", [HUMAN, HUMAN])
    cells = match["view"]["cells"]
    assert len(cells) == 36
    assert all(c["column"] == [c["owner"]] for c in cells.values())
    # play until somebody captures: the capturing column then holds two men
    view = match
    for _ in range(60):
        captures = [m for m in view["legal_moves"] if "x" in m["notation"]]
        move = (captures or view["legal_moves"])[0]
        view = play(client, view, move["notation"])
        if captures:
            landed = view["view"]["cells"][move["to"][0]]
            assert len(landed["column"]) == 2 and landed["column"][0] == landed["owner"]
            break
    else:
        pytest.fail("no capture in 60 plies")


# --- a bot thinking in the server's own threads ------------------------------------------------
def test_a_thinking_bot_does_not_block_other_requests(tmp_path, monkeypatch):
    from boardlab.ai.mcts import MCTSBot

    thinking, release = threading.Event(), threading.Event()
    original = MCTSBot.choose

    def held_choose(self, state):
        thinking.set()
        assert release.wait(60), "the test never let the bot finish"
        return original(self, state)

    # The bot cannot finish until the test lets it: an answer in between proves the
    # server kept serving, whatever the machine's speed.
    monkeypatch.setattr(MCTSBot, "choose", held_choose)
    # bot_workers=0: the bot thinks in a thread of this process, where the patch is
    with TestClient(create_app(db_url(tmp_path), bot_workers=0),
                    headers=bearer(KEY)) as client:
        match = new_match(client, "connect-four", [{"type": "bot", "bot": "mcts",
                                                    "iterations": 50}, HUMAN])
        answers: list = []
        thinker = threading.Thread(target=lambda: answers.append(
            client.post(f"/api/matches/{match['id']}/bot", json={"revision": 0})))
        thinker.start()
        try:
            assert thinking.wait(60), "the bot never started"
            listed = client.get("/api/games")
            assert listed.status_code == 200 and thinker.is_alive() and not answers
            assert client.get(f"/api/matches/{match['id']}").json()["moves"] == []
        finally:
            release.set()
            thinker.join(60)
        assert answers[0].status_code == 200 and len(answers[0].json()["moves"]) == 1


def test_bot_time_is_capped():
    assert BotPlayer(bot="mcts", time=60).time == MAX_BOT_SECONDS
    assert bot_options(BotPlayer(bot="alphabeta", depth=30))["time"] == MAX_BOT_SECONDS
    assert bot_options(BotPlayer(bot="mcts"))["time"] == 1.0
    assert bot_options(BotPlayer(bot="mcts", time=0.25))["time"] == 0.25


# --- pages ----------------------------------------------------------------------------------
def test_the_lobby_and_static_files_need_no_network(client):
    lobby = client.get("/")
    assert lobby.status_code == 200 and "text/html" in lobby.headers["content-type"]
    assert "/api/games" in lobby.text
    assert "http://" not in lobby.text and "https://" not in lobby.text
    assert client.get("/static/index.html").text == lobby.text
    assert_error(client.get("/static/no-such-file.js"), 404)
    assert client.get("/openapi.json").status_code == 200
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
    assert icon.text.startswith("<svg")


# --- boardlab serve ---------------------------------------------------------------------------
def test_serve_help():
    text = serve_help()
    assert "--port" in text and "--db" in text and "--data" in text
    assert "--bot-workers" in text and "--bot-memory" in text


def test_serve_passes_the_bot_pool_settings_to_the_app(monkeypatch, tmp_path):
    import boardlab.web.app as web_app

    def refuse(host, port):
        raise web_app.ServeError("stop here")

    made = []
    monkeypatch.setattr(web_app, "bind", refuse)     # the app is made, never served
    original = web_app.create_app
    monkeypatch.setattr(web_app, "create_app",
                        lambda *a, **k: made.append(original(*a, **k)) or made[-1])
    result = CliRunner().invoke(cli_app, ["serve", "--data", str(tmp_path),
                                          "--bot-workers", "0", "--bot-memory", "512"])
    assert result.exit_code == 2 and "stop here" in result.output
    pool = made[0].state.live.pool
    assert (pool.workers, pool.memory_mb) == (0, 512)


def test_serve_with_an_unusable_database_is_one_error_line(tmp_path):
    result = CliRunner().invoke(cli_app, ["serve", "--db", "nosuchdriver://nowhere"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot open database")


def test_serve_on_a_busy_port_is_one_error_line(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        result = CliRunner().invoke(cli_app, ["serve", "--port", str(port), "--data",
                                              str(tmp_path)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "in use" in lines[0] and str(port) in lines[0]


# --- random players ------------------------------------------------------------------------
#: tests/zrf/conformance/players.zrf: (players ?Die White Black), the Die moving first.
PLAYERS_ZRF = Path(__file__).parents[1] / "zrf" / "conformance" / "players.zrf"
CHANCE = {"type": "chance"}


@pytest.fixture
def dice_app(tmp_path):
    """An app whose games folder holds players.zrf (``zrf:players``)."""
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "players.zrf").write_text(PLAYERS_ZRF.read_text())
    return lambda: create_app(db_url(tmp_path), games_dir=folder, bot_workers=1)


def test_a_random_players_seat_is_the_servers(dice_app):
    from boardlab.ai.bots import draw_move
    from boardlab.web.matches import chance_seed
    from boardlab.zrf.game import load_game

    with TestClient(dice_app(), headers=bearer(KEY)) as client:
        assert client.app.state.library.wait(60)
        listed = {g["name"]: g for g in client.get("/api/games").json()}
        assert listed["zrf:players"]["chance"] == [0]
        assert listed["zrf:players"]["imported"]["variants"][0]["chance"] == [0]
        assert client.get("/api/games/zrf:players").json()["chance"] == [0]
        assert listed["tic-tac-toe"]["chance"] == []
        # The real seats only, or every seat with the Die's as chance: the same match.
        match = new_match(client, "zrf:players", [HUMAN, HUMAN])
        assert match["players"] == [CHANCE, HUMAN, HUMAN] and match["chance"] == [0]
        assert match["you"] == [1, 2] and match["to_move"] == 0
        assert new_match(client, "zrf:players")["players"] == \
            [CHANCE, HUMAN, {"type": "bot", "bot": "mcts"}]
        # The server moves the Die by itself, a move like any other in the list.
        view = wait_for_bot(client, match)
        assert view["moves"][0] in ("b2-a2", "b2-c2", "b2-b1") and view["ply"] == 1
        # A seeded Die draws each move from the seed and the ply: the same in every match.
        seeded = [{"type": "chance", "seed": 5}, HUMAN, HUMAN]
        first = wait_for_bot(client, new_match(client, "zrf:players", seeded))
        again = wait_for_bot(client, new_match(client, "zrf:players", seeded))
        start = load_game(PLAYERS_ZRF).initial_state()
        drawn = draw_move(start, random.Random(chance_seed(5, 0))).notation
        assert first["moves"] == again["moves"] == [drawn]


@pytest.mark.parametrize(("players", "words"), [
    ([HUMAN, HUMAN, HUMAN], ("?Die is a random player",)),
    ([{"type": "bot", "bot": "mcts"}, HUMAN, HUMAN], ("?Die is a random player",)),
    ([{"type": "open"}, HUMAN, HUMAN], ("?Die is a random player",)),
    ([CHANCE, CHANCE, HUMAN], ("White is no random player",)),
    ([HUMAN], ("3 players", "2 without its random players")),
])
def test_a_random_players_seat_is_nobody_elses(dice_app, players, words):
    with TestClient(dice_app(), headers=bearer(KEY)) as client:
        assert_error(client.post("/api/matches", json={"game": "zrf:players",
                                                       "players": players}), 422, *words)
        # Nor does a chance seat fit a game without random players.
        assert_error(client.post("/api/matches", json={"game": "tic-tac-toe",
                                                       "players": [CHANCE, HUMAN]}), 422,
                     "X is no random player")


def test_nobody_moves_for_the_die_but_the_server(dice_app, tmp_path):
    from boardlab.web.errors import ApiError
    from boardlab.web.matches import Matches, chance_seed
    from boardlab.web.schemas import NewMatch

    with TestClient(dice_app(), headers=bearer(KEY)) as client:
        # Made beside the live service, so that nothing moves the Die meanwhile.
        quiet = Matches(client.app.state.store, client.app.state.library)
        made = quiet.create(NewMatch(game="zrf:players", players=[
            {"type": "chance", "seed": 2}, HUMAN, {"type": "open"}]), KEY)
        joined = client.post(f"/api/matches/{made['id']}/join",
                             headers=bearer("another-key-0123456789"))
        assert joined.json()["you"] == [2]   # the open seat, not the Die's
        with pytest.raises(ApiError) as refused:
            quiet.play(made["id"], "b2-a2", KEY)
        assert refused.value.status == 409 and refused.value.code == "playedByChance"
        with pytest.raises(ApiError) as refused:
            quiet.bot_seat(made["id"], BotPlayer(bot="exact"), KEY)
        assert refused.value.code == "playedByChance"
        _, _, player = quiet.bot_seat(made["id"], None)
        assert player.bot == "random" and player.seed == chance_seed(2, 0)
    # A server started on the same database resumes the match: the Die moves by itself.
    with TestClient(dice_app(), headers=bearer(KEY)) as client:
        view = wait_for_bot(client, client.get(f"/api/matches/{made['id']}").json())
        assert view["ply"] == 1


def test_the_die_scores_nothing_and_keeps_its_seat(dice_app):
    # Seed 3 rolls b2-a2 first (b2-b1 would end the game at once), in the rematch too.
    die = {"type": "chance", "seed": 3}
    with TestClient(dice_app(), headers=bearer(KEY)) as client:
        match = wait_for_bot(client, new_match(client, "zrf:players", [die, HUMAN, HUMAN]))
        assert match["moves"] == ["b2-a2"]
        url = f"/api/matches/{match['id']}"
        resigned = client.post(f"{url}/resign", json={"seat": 1}).json()
        assert resigned["outcome"] == ["0", "0", "1"]
        rematch = client.post(f"{url}/rematch").json()
        assert rematch["players"][0] == die and rematch["you"] == [1, 2]
        # Between people the draw offer goes round the real seats only.
        played = wait_for_bot(client, rematch)
        drawn = client.post(f"/api/matches/{played['id']}/draw",
                            json={"action": "offer"}).json()
        assert drawn["outcome"] == ["0", "1/2", "1/2"] and drawn["reason"] == "agreement"
