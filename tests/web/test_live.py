"""Playing together through the API: seats and their tokens, joining, stale moves,
undo and take-backs, draws, resignation, clocks that fall, rematches, the lobby,
replays, and the live WebSocket that every seat and spectator watches."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from boardlab.web.app import create_app
from tests.web.conftest import KEY, assert_error, bearer, new_match, play, wait_for_bot

HUMAN = {"type": "human"}
OPEN = {"type": "open"}
OTHER = "other-key-abcdef0123456789"
STRANGER = "stranger-key-0123456789abc"


@pytest.fixture
def app(empty_url):
    """The app on an empty SQLite file, and on PostgreSQL when the tests have one."""
    return create_app(empty_url, bot_workers=1)


@pytest.fixture
def ann(app) -> Iterator[TestClient]:
    """The first player's browser."""
    with TestClient(app, headers=bearer(KEY)) as client:
        yield client


@pytest.fixture
def bob(app, ann) -> TestClient:
    """A second browser on the same server (another token)."""
    return TestClient(app, headers=bearer(OTHER))


@pytest.fixture
def eve(app, ann) -> TestClient:
    """A stranger: a third browser that holds no seat."""
    return TestClient(app, headers=bearer(STRANGER))


def open_match(ann, bob, game="tic-tac-toe", **body) -> dict:
    """A match between Ann (seat 0) and Bob, who joined the open seat."""
    response = ann.post("/api/matches", json={"game": game, "players": [HUMAN, OPEN],
                                              "name": "Ann", **body})
    assert response.status_code == 201, response.text
    match = response.json()
    assert match["status"] == "waiting" and match["legal_moves"] == []
    joined = bob.post(f"/api/matches/{match['id']}/join", json={"name": "Bob"})
    assert joined.status_code == 200, joined.text
    view = joined.json()
    assert view["token"] == OTHER and view["you"] == [1] and view["status"] == "playing"
    assert [p.get("name") for p in view["players"]] == ["Ann", "Bob"]
    return view


# --- seats -----------------------------------------------------------------------------------
def test_only_a_seats_holder_moves_for_it(ann, bob, eve):
    match = open_match(ann, bob)
    url = f"/api/matches/{match['id']}"
    assert_error(eve.post(f"{url}/moves", json={"move": "b2"}), 403, "no seat")
    assert_error(bob.post(f"{url}/moves", json={"move": "b2"}), 403, "turn")
    nobody = TestClient(ann.app)
    assert_error(nobody.post(f"{url}/moves", json={"move": "b2"}), 403)
    view = play(ann, match, "b2")
    assert_error(ann.post(f"{url}/moves", json={"move": "a1"}), 403, "turn")
    view = play(bob, view, "a1")
    assert view["moves"] == ["b2", "a1"]
    # strangers read, but never act
    assert eve.get(url).json()["you"] == [] and ann.get(url).json()["you"] == [0]
    for action, body in (("undo", None), ("resign", None), ("draw", {"action": "offer"}),
                         ("takeback", {"action": "request"})):
        assert_error(eve.post(f"{url}/{action}", json=body), 403)
    assert eve.get(url).json()["moves"] == ["b2", "a1"]


def test_a_server_made_token_is_answered_once_and_then_required(app):
    with TestClient(app) as anonymous:
        match = anonymous.post("/api/matches", json={"game": "tic-tac-toe",
                                                     "players": [HUMAN, HUMAN]}).json()
        token = match["token"]
        assert len(token) >= 32 and match["you"] == [0, 1]
        url = f"/api/matches/{match['id']}"
        assert "token" not in anonymous.get(url).json()
        assert_error(anonymous.post(f"{url}/moves", json={"move": "b2"}), 403)
        moved = anonymous.post(f"{url}/moves", json={"move": "b2"}, headers=bearer(token))
        assert moved.status_code == 200 and moved.json()["you"] == [0, 1]
        assert_error(anonymous.post("/api/matches", json={"game": "tic-tac-toe"},
                                    headers=bearer("short")), 422, "token")


def test_joining(ann, bob, eve):
    created = ann.post("/api/matches", json={"game": "tic-tac-toe",
                                             "players": [OPEN, HUMAN]}).json()
    url = f"/api/matches/{created['id']}"
    assert_error(ann.post(f"{url}/moves", json={"move": "b2"}), 409, "waiting")
    assert_error(bob.post(f"{url}/join", json={"seat": 1}), 409, "not open")
    assert bob.post(f"{url}/join", json={"name": "Bob\u0000  the\nbuilder"}).json()[
        "players"][0] == {"type": "human", "name": "Bob the builder"}
    assert_error(eve.post(f"{url}/join"), 409, "no seat")
    view = play(bob, ann.get(url).json(), "b2")        # Bob joined as X, who starts
    assert view["moves"] == ["b2"]


def test_a_move_made_on_an_old_position_is_refused(ann, bob):
    match = open_match(ann, bob)
    url = f"/api/matches/{match['id']}/moves"
    view = play(ann, match, "b2")
    # Bob's page still shows the empty board: his click there must not land
    assert_error(bob.post(url, json={"move": "a1", "revision": match["revision"]}), 409,
                 "changed")
    assert play(bob, view, "a1")["moves"] == ["b2", "a1"]


def test_a_finished_match_never_changes(ann):
    match = new_match(ann, "tic-tac-toe", [HUMAN, HUMAN])
    view = match
    for move in ("a1", "b1", "a2", "b2", "a3"):
        view = play(ann, view, move)
    assert view["outcome"] == ["1", "0"] and view["status"] == "over"
    url = f"/api/matches/{match['id']}"
    for action, body in (("undo", None), ("resign", None), ("moves", {"move": "c3"}),
                         ("draw", {"action": "offer"})):
        assert_error(ann.post(f"{url}/{action}", json=body), 409, "over")
    assert ann.get(url).json()["moves"] == view["moves"]


# --- undo, take-backs, draws, resignation ------------------------------------------------------
def test_undo_between_people_needs_the_opponents_consent(ann, bob):
    match = open_match(ann, bob)
    url = f"/api/matches/{match['id']}"
    view = play(bob, play(ann, match, "b2"), "a1")
    assert_error(bob.post(f"{url}/undo"), 409, "take-back")
    assert_error(ann.post(f"{url}/takeback", json={"action": "accept"}), 409, "no take-back")
    asked = bob.post(f"{url}/takeback", json={"action": "request"}).json()
    assert asked["offers"]["takeback"] == 1
    assert_error(bob.post(f"{url}/takeback", json={"action": "accept"}), 409, "opponent")
    declined = ann.post(f"{url}/takeback", json={"action": "decline"}).json()
    assert declined["offers"]["takeback"] is None and declined["moves"] == ["b2", "a1"]
    bob.post(f"{url}/takeback", json={"action": "request"})
    taken = ann.post(f"{url}/takeback", json={"action": "accept"}).json()
    assert taken["moves"] == ["b2"] and taken["to_move"] == 1
    # Ann asks to take back her move; Bob's reply (none here) would go with it
    view = play(bob, taken, "c3")
    ann.post(f"{url}/takeback", json={"action": "request"})
    assert bob.post(f"{url}/takeback", json={"action": "accept"}).json()["moves"] == []
    assert view["revision"] < ann.get(url).json()["revision"]


def test_a_pending_offer_lapses_with_the_next_move(ann, bob):
    match = open_match(ann, bob)
    url = f"/api/matches/{match['id']}"
    offered = ann.post(f"{url}/draw", json={"action": "offer"}).json()
    assert offered["offers"]["draw"] == [0] and offered["outcome"] is None
    view = play(ann, offered, "b2")
    assert view["offers"] == {}
    assert_error(bob.post(f"{url}/draw", json={"action": "accept"}), 409, "no draw")


def test_a_draw_by_agreement(ann, bob):
    match = open_match(ann, bob)
    url = f"/api/matches/{match['id']}"
    ann.post(f"{url}/draw", json={"action": "offer"})
    assert bob.post(f"{url}/draw", json={"action": "decline"}).json()["offers"]["draw"] is None
    ann.post(f"{url}/draw", json={"action": "offer"})
    drawn = bob.post(f"{url}/draw", json={"action": "accept"}).json()
    assert drawn["outcome"] == ["1/2", "1/2"] and drawn["reason"] == "agreement"
    assert drawn["to_move"] is None and drawn["legal_moves"] == []


def test_bots_take_no_draw_offers_and_resigning_loses(ann):
    match = new_match(ann, "connect-four", [HUMAN, {"type": "bot", "bot": "random"}])
    url = f"/api/matches/{match['id']}"
    assert_error(ann.post(f"{url}/draw", json={"action": "offer"}), 409, "bots")
    resigned = ann.post(f"{url}/resign").json()
    assert resigned["outcome"] == ["0", "1"] and resigned["reason"] == "resignation"
    assert ann.get(f"{url}/record").json()["result"] == ["0", "1"]


def test_hot_seat_resigns_the_seat_to_move_or_the_named_one(ann):
    match = new_match(ann, "tic-tac-toe", [HUMAN, HUMAN])
    url = f"/api/matches/{match['id']}"
    view = play(ann, match, "b2")
    assert ann.post(f"{url}/resign").json()["outcome"] == ["1", "0"]   # O was to move
    other = new_match(ann, "tic-tac-toe", [HUMAN, HUMAN])
    named = ann.post(f"/api/matches/{other['id']}/resign", json={"seat": 1}).json()
    assert named["outcome"] == ["1", "0"] and view["ply"] == 1


# --- clocks -----------------------------------------------------------------------------------
def test_a_move_costs_its_time_and_earns_the_increment(ann, bob):
    match = open_match(ann, bob, time_control={"base": 60, "increment": 2})
    clock = match["clock"]
    assert clock["base"] == 60 and clock["running"] == 0
    assert 59_000 < clock["left"][0] <= 60_000 and clock["left"][1] == 60_000
    time.sleep(0.3)
    view = play(ann, match, "b2")
    left = view["clock"]["left"]
    assert 61_000 < left[0] < 61_750 and view["clock"]["running"] == 1
    assert 59_500 < left[1] <= 60_000


def test_the_flag_falls_without_anyone_asking(ann, bob):
    match = open_match(ann, bob, time_control={"base": 2.0, "increment": 0})
    url = f"/api/matches/{match['id']}"
    view = play(ann, match, "b2")
    with bob.websocket_connect(f"{url}/live") as watching:
        watching.send_json({"type": "hello", "token": OTHER})
        first = watching.receive_json()
        assert first["moves"] == ["b2"] and first["outcome"] is None
        fallen = watching.receive_json()     # pushed by the server's own timer
    assert fallen["outcome"] == ["1", "0"] and fallen["reason"] == "time"
    assert fallen["clock"]["left"][1] == 0 and fallen["clock"]["running"] is None
    assert_error(bob.post(f"{url}/moves", json={"move": "a1",
                                                "revision": view["revision"]}), 409)


def test_a_move_after_the_flag_fell_is_refused(ann, bob):
    match = open_match(ann, bob, time_control={"base": 0.3, "increment": 0})
    time.sleep(0.5)
    response = ann.post(f"/api/matches/{match['id']}/moves", json={"move": "b2"})
    assert response.status_code == 409
    view = ann.get(f"/api/matches/{match['id']}").json()
    assert view["moves"] == [] and view["outcome"] == ["0", "1"] and view["reason"] == "time"


# --- rematch, lobby, replay -------------------------------------------------------------------
def test_a_rematch_swaps_the_seats_and_keeps_their_holders(ann, bob):
    match = open_match(ann, bob, public=True, time_control={"base": 30, "increment": 1})
    url = f"/api/matches/{match['id']}"
    assert_error(ann.post(f"{url}/rematch"), 409, "not over")
    ann.post(f"{url}/resign")
    again = bob.post(f"{url}/rematch").json()
    assert again["id"] != match["id"] and again["you"] == [0]
    assert [p.get("name") for p in again["players"]] == ["Bob", "Ann"]
    assert again["public"] and again["clock"]["base"] == 30
    assert ann.post(f"{url}/rematch").json()["id"] == again["id"]
    assert ann.get(url).json()["rematch"] == again["id"]
    assert play(bob, again, "b2")["moves"] == ["b2"]     # Bob is X now


def test_the_lobby_lists_public_matches_by_state(ann, bob, eve):
    waiting = ann.post("/api/matches", json={"game": "connect-four", "public": True,
                                             "players": [HUMAN, OPEN], "name": "Ann",
                                             "time_control": {"base": 300}}).json()
    private = ann.post("/api/matches", json={"game": "connect-four",
                                             "players": [HUMAN, OPEN]}).json()
    lobby = eve.get("/api/lobby").json()
    assert [m["id"] for m in lobby["open"]] == [waiting["id"]]
    entry = lobby["open"][0]
    assert entry["time_control"] == {"base": 300.0, "increment": 0.0}
    assert entry["players"][0]["name"] == "Ann" and "tokens" not in entry
    bob.post(f"/api/matches/{waiting['id']}/join")
    lobby = eve.get("/api/lobby").json()
    assert lobby["open"] == [] and [m["id"] for m in lobby["playing"]] == [waiting["id"]]
    ann.post(f"/api/matches/{waiting['id']}/resign")
    lobby = eve.get("/api/lobby").json()
    assert [m["id"] for m in lobby["finished"]] == [waiting["id"]]
    assert private["id"] not in str(lobby) and private["id"] not in str(
        eve.get("/api/matches").json())
    mine = ann.get("/api/lobby").json()["mine"]
    assert [(m["id"], m["you"]) for m in mine] == [(waiting["id"], [0]), (private["id"], [0])]
    assert [m["id"] for m in bob.get("/api/lobby").json()["mine"]] == [waiting["id"]]


def test_every_position_of_a_match_can_be_replayed(ann):
    match = new_match(ann, "tic-tac-toe", [HUMAN, HUMAN])
    view = match
    for move in ("b2", "a1", "c3"):
        view = play(ann, view, move)
    url = f"/api/matches/{match['id']}/positions"
    start = ann.get(f"{url}/0").json()
    assert start["move"] is None and start["to_move"] == 0 and start["of"] == 3
    second = ann.get(f"{url}/2").json()
    assert second["move"]["notation"] == "a1" and second["view"]["cells"] == {
        "b2": {"owner": 0, "kind": "X"}, "a1": {"owner": 1, "kind": "O"}}
    assert ann.get(f"{url}/3").json()["position"] == view["position"]
    assert_error(ann.get(f"{url}/4"), 404, "3")
    assert_error(ann.get(f"{url}/-1"), 404)
    assert_error(ann.get(f"{url}/{10**40}"), 404)
    assert_error(ann.get(f"{url}/two"), 422)


# --- live -------------------------------------------------------------------------------------
def test_every_seat_and_spectator_sees_each_move_at_once(ann, bob, eve):
    match = open_match(ann, bob)
    url = f"/api/matches/{match['id']}"
    with ann.websocket_connect(f"{url}/live") as a, bob.websocket_connect(f"{url}/live") as b, \
            eve.websocket_connect(f"{url}/live") as e:
        for socket, token in ((a, KEY), (b, OTHER)):
            socket.send_json({"type": "hello", "token": token})
            first = socket.receive_json()
            assert first["revision"] == match["revision"]
            assert first["you"] == {KEY: [0], OTHER: [1]}[token]
        # a spectator that says nothing is sent the match after a moment, seatless
        assert e.receive_json()["you"] == []
        e.send_json({"type": "hello", "token": KEY[::-1]})
        assert e.receive_json()["you"] == []
        view = play(ann, match, "b2")
        for socket in (a, b, e):
            seen = socket.receive_json()
            assert seen["moves"] == ["b2"] and seen["revision"] == view["revision"]
        play(bob, view, "a1")
        assert [s.receive_json()["moves"] for s in (a, b, e)] == [["b2", "a1"]] * 3
        e.send_json({"type": "ping"})
        assert e.receive_json() == {"type": "pong"}


def test_a_dropped_connection_resumes_from_the_current_view(ann, bob):
    match = open_match(ann, bob)
    url = f"/api/matches/{match['id']}"
    with bob.websocket_connect(f"{url}/live") as first:
        first.send_json({"type": "hello", "token": OTHER})
        assert first.receive_json()["moves"] == []
    view = play(bob, play(ann, match, "b2"), "c3")    # made while Bob was away
    view = play(ann, view, "a1")
    with bob.websocket_connect(f"{url}/live") as again:
        again.send_json({"type": "hello", "token": OTHER})
        resumed = again.receive_json()
    assert resumed["moves"] == ["b2", "c3", "a1"] and resumed["revision"] == view["revision"]


def test_the_server_moves_its_bots_and_tells_the_watchers(ann):
    match = new_match(ann, "tic-tac-toe", [{"type": "bot", "bot": "random", "seed": 1},
                                           HUMAN])
    with ann.websocket_connect(f"/api/matches/{match['id']}/live") as socket:
        socket.send_json({"type": "hello", "token": KEY})
        seen = socket.receive_json()
        while not seen["moves"]:
            seen = socket.receive_json()
    assert len(seen["moves"]) == 1 and seen["to_move"] == 1
    after = wait_for_bot(ann, play(ann, seen, seen["legal_moves"][0]["notation"]))
    assert len(after["moves"]) == 3
    # the match's driver ends once a human is to move, and leaves nothing behind
    drivers = ann.app.state.live._drivers
    deadline = time.monotonic() + 10
    while match["id"] in drivers:
        assert time.monotonic() < deadline, "the bot's driver never ended"
        time.sleep(0.05)


def test_live_errors(ann):
    with ann.websocket_connect("/api/matches/" + "0" * 32 + "/live") as socket:
        socket.send_json({"type": "hello", "token": KEY})
        assert "no match" in socket.receive_json()["error"]
    match = new_match(ann, "tic-tac-toe", [HUMAN, HUMAN])
    with ann.websocket_connect(f"/api/matches/{match['id']}/live") as socket:
        socket.send_text("not json")        # not a hello: a spectator, after a moment
        assert socket.receive_json()["you"] == []
        socket.send_text("not json")
        assert "JSON" in socket.receive_json()["error"]
        socket.send_json({"type": "dance"})
        assert "dance" in socket.receive_json()["error"]
        socket.send_json({"type": "ping"})
        assert socket.receive_json()["type"] == "pong"


def test_live_connections_are_bounded(ann, monkeypatch):
    from boardlab.web import live

    monkeypatch.setattr(live, "MAX_WATCHERS", 1)
    match = new_match(ann, "tic-tac-toe", [HUMAN, HUMAN])
    url = f"/api/matches/{match['id']}/live"
    with ann.websocket_connect(url) as first:
        first.send_json({"type": "hello", "token": KEY})
        assert first.receive_json()["type"] == "match"
        with ann.websocket_connect(url) as second:
            second.send_json({"type": "hello", "token": KEY})
            assert "too many" in second.receive_json()["error"]
    with ann.websocket_connect(url) as again:     # the first one's place is free again
        again.send_json({"type": "hello", "token": KEY})
        assert again.receive_json()["type"] == "match"
