"""The Plumber city quest through its HTTP API and WebSocket, on SQLite and PostgreSQL
(the ``empty_url`` fixture): upload, the sheet of location codes, teams joining,
segments revealed, wrong, reused and foreign codes, throttling, answers and the
organiser's live view.

Truth: the article's grid (a completion of the seed's 55 known cells with its 39
solutions, tests/puzzles/pipes/test_solve.py) whose 5 printed codes and count of 39 come
from the article; the exact counter (:func:`count_level`, a second algorithm) agrees.
Limits run on a stopped clock, so a count of refusals never depends on timing.
"""

from __future__ import annotations

import string
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from boardlab.puzzles.pipes.count import count_level
from boardlab.puzzles.pipes.level import PipeLevel
from boardlab.puzzles.pipes.quest import LOCATION_ALPHABET, LOCATION_LENGTH
from boardlab.puzzles.pipes.solve import solutions
from boardlab.puzzles.pipes.table import table_text
from boardlab.web.api_quest import Limits
from boardlab.web.api_triplex import RateLimit
from boardlab.web.app import create_app
from tests.puzzles.pipes.test_solve import SEED_COMPLETION, SEED_SOLUTIONS
from tests.web.conftest import assert_error, bearer

SEED_CODES = [line.split("  ")[1] for line in SEED_SOLUTIONS]
# A 3x4 level with exactly two solutions (tests/web/test_pipes_web.py).
SQUARE = "IO LP LI LN\nLJ LI LO LC\nID LK LO IJ\n"
# A random 14x14 level with 1,015,671 solutions (count_level), too many for a quest.
MANY = "\n".join(" ".join(kind + "A" for kind in row) for row in [
    "LLLLILLLLLILIL", "LLLILIIILLLILI", "LLILLLLIILILLI", "LLILLILIIILILL", "LILILLILLLILLL",
    "LILLLILILILILI", "IILLLILLILLLLL", "LIILLLLILLLLII", "ILIILILLIILILL", "LIIILLLILLIILL",
    "LLILLILLLLLLLL", "ILLIIIIILLLILI", "ILLLLLLILLLILL", "LILILILILLLLLI"])


def stopped(entries_team=30, entries_client=120, answers_team=10, answers_client=60,
            joins=20, uploads=10) -> Limits:
    """The quest's limits on a clock that never moves: no bucket refills in a test."""
    def limit(capacity: int) -> RateLimit:
        return RateLimit(capacity, 60.0, clock=lambda: 0.0)

    return Limits(limit(entries_team), limit(entries_client), limit(answers_team),
                  limit(answers_client), limit(joins), limit(uploads))


@pytest.fixture
def client(empty_url) -> Iterator[TestClient]:
    with TestClient(create_app(empty_url, bot_workers=0)) as opened:
        opened.app.state.quest.limits = stopped()
        yield opened


def upload(client, name: str, level: str, **extra) -> dict:
    answer = client.post("/api/quests", json={"name": name, "level": level, **extra})
    assert answer.status_code == 201, answer.text
    return answer.json()


def join(client, quest: dict, name: str) -> dict[str, str]:
    answer = client.post(f"/api/quests/{quest['quest']['id']}/teams", json={"name": name})
    assert answer.status_code == 201, answer.text
    assert answer.json()["team"]["found"] == []
    return bearer(answer.json()["token"])


def reveal(client, quest: dict, team: dict[str, str], code: str):
    return client.post(f"/api/quests/{quest['quest']['id']}/locations", json={"code": code},
                       headers=team)


def answer(client, quest: dict, team: dict[str, str], code: str):
    return client.post(f"/api/quests/{quest['quest']['id']}/answer", json={"code": code},
                       headers=team)


def test_the_seed_grid_makes_a_quest_with_a_code_per_segment_and_its_39_codes(client):
    level = PipeLevel.parse(SEED_COMPLETION)
    assert count_level(level) == 39
    made = upload(client, "Водопровод", SEED_COMPLETION)
    quest = made["quest"]
    assert (quest["rows"], quest["cols"], quest["segments"], quest["codes"]) == (8, 9, 72, 39)
    assert made["solutions"] == 39
    sheet = made["locations"]
    assert [(s["row"], s["col"]) for s in sheet] == [(r, c) for r in range(1, 9)
                                                     for c in range(1, 10)]
    assert all(level.cell(s["row"], s["col"]).letter == s["letter"] for s in sheet)
    codes = [s["code"] for s in sheet]
    assert len(set(codes)) == 72
    assert all(len(code) == LOCATION_LENGTH and set(code) <= set(LOCATION_ALPHABET)
               for code in codes)
    # The sheet again, only for the organiser.
    url = f"/api/quests/{quest['id']}/sheet"
    assert client.get(url, headers=bearer(made["key"])).json()["locations"] == sheet
    for headers in ({}, bearer("wrong-key"), bearer(made["key"] + "x")):
        refused = client.get(url, headers=headers)
        assert_error(refused, 403, "organiser")
        assert refused.json()["code"] == "notOrganiser"
    public = client.get(f"/api/quests/{quest['id']}").json()
    assert public == {**quest, "teams": 0}
    # Teams see the grid's size, never its segments, letters or location codes.
    assert not any(code in str(public) for code in codes)


def test_teams_reveal_their_own_segments_once_and_wrong_codes_are_refused(client):
    made = upload(client, "park", SEED_COMPLETION)
    other = upload(client, "square", "y,x,type,lit\n" + table_text(PipeLevel.parse(SQUARE))
                   .split("\n", 1)[1], format="csv")
    owls, foxes = join(client, made, "Owls"), join(client, made, "Foxes")
    first, second = made["locations"][0], made["locations"][40]
    found = reveal(client, made, owls, " " + first["code"].lower()[:3] + "-"
                   + first["code"][3:] + " ")
    assert found.status_code == 200, found.text
    assert found.json()["segment"] == {k: first[k] for k in ("row", "col", "kind", "letter")}
    assert [(f["row"], f["col"]) for f in found.json()["team"]["found"]] == [(1, 1)]
    again = reveal(client, made, owls, first["code"])
    body = assert_error(again, 409, "already found")
    assert body["code"] == "alreadyFound" and body["params"]["row"] == 1
    foreign = reveal(client, made, owls, other["locations"][0]["code"])
    assert_error(foreign, 400, "another quest")
    assert foreign.json()["code"] == "otherQuestCode"
    used = {s["code"] for s in made["locations"] + other["locations"]}
    unused = next(a * 6 for a in LOCATION_ALPHABET if a * 6 not in used)
    wrong = reveal(client, made, owls, unused)
    assert_error(wrong, 400, "not a location code of this quest")
    assert wrong.json()["code"] == "wrongLocationCode"
    # Typed on a Russian keyboard: Cyrillic letters that look like the Latin ones.
    cyrillic = second["code"].translate(str.maketrans("ACEHKMPTXY", "асенкмртху"))
    assert reveal(client, made, foxes, cyrillic).status_code == 200
    assert_error(reveal(client, made, owls, ""), 400, "empty")
    assert_error(reveal(client, made, owls, "X" * 65), 400, "longer than 64")
    mine = client.get(f"/api/quests/{made['quest']['id']}/team", headers=owls).json()["team"]
    assert [(f["row"], f["col"]) for f in mine["found"]] == [(1, 1)]
    assert (mine["location_tries"], mine["wrong_locations"]) == (4, 2)
    board = client.get(f"/api/quests/{made['quest']['id']}/progress",
                       headers=bearer(made["key"])).json()
    by_name = {t["name"]: t for t in board["teams"]}
    assert [(f["row"], f["col"]) for f in by_name["Foxes"]["found"]] == [(5, 5)]
    assert by_name["Foxes"]["location_tries"] == 1
    # No team token, a token of another quest, or a made-up one: not in the quest.
    outsider = join(client, other, "Owls")
    for headers in ({}, outsider, bearer("x" * 32)):
        refused = reveal(client, made, headers, first["code"])
        assert_error(refused, 403, "join the quest first")
        assert refused.json()["code"] == "notInQuest"


def test_any_of_the_39_codes_finishes_a_team_and_nothing_else_does(client):
    client.app.state.quest.limits = stopped(answers_team=1000, answers_client=1000, joins=100)
    made = upload(client, "seed", SEED_COMPLETION)
    every = {s.code for s in solutions(PipeLevel.parse(SEED_COMPLETION))}
    assert len(every) == 39 and set(SEED_CODES) <= every
    team = join(client, made, "Owls")
    wrong = {code[:-1] for code in every} | {code + "W" for code in every} | {
        code[::-1] for code in every} | {"AKEZ", "?"}
    for code in sorted(wrong - every):
        result = answer(client, made, team, code)
        assert result.status_code == 200 and result.json()["valid"] is False, code
    assert answer(client, made, team, "   ").status_code == 400
    first = answer(client, made, team, SEED_CODES[2].lower())
    assert first.json()["valid"] is True and first.json()["first"] is True
    finished = first.json()["finished_at"]
    assert finished is not None and first.json()["seconds"] >= 0
    for code in sorted(every):
        again = answer(client, made, team, code)
        assert again.json()["valid"] is True and again.json()["first"] is False
        assert again.json()["finished_at"] == finished
    for i, code in enumerate(sorted(every)):
        other = join(client, made, f"team {i}")
        assert answer(client, made, other, code).json()["first"] is True
    board = client.get(f"/api/quests/{made['quest']['id']}/progress",
                       headers=bearer(made["key"])).json()
    owls = board["teams"][0]
    assert owls["answer"] == SEED_CODES[2] and owls["finished_at"] == finished
    assert owls["answer_tries"] == len(wrong - every) + 1 + 39
    assert sum(t["finished_at"] is not None for t in board["teams"]) == 40


def test_a_thousand_codes_a_minute_are_throttled_and_nothing_is_recorded_twice(client):
    made = upload(client, "rush", SEED_COMPLETION)
    team = join(client, made, "Scripted")
    codes = [s["code"] for s in made["locations"]]
    statuses = []
    for i in range(1000):
        # The same few codes again and again, a wrong one in between.
        typed = codes[i % 7] if i % 3 else "W" * 6
        statuses.append(reveal(client, made, team, typed))
    kinds = [r.status_code for r in statuses]
    assert kinds[30:] == [429] * 970
    assert sorted(set(kinds[:30])) == [200, 400, 409]
    refused = statuses[-1]
    body = assert_error(refused, 429, "too many attempts")
    assert body["code"] == "tooManyAttempts" and int(refused.headers["Retry-After"]) >= 1
    me = client.get(f"/api/quests/{made['quest']['id']}/team", headers=team).json()["team"]
    # Every attempt admitted is counted once; refused ones are not recorded at all.
    assert me["location_tries"] == 30
    assert me["wrong_locations"] == sum(1 for i in range(30) if i % 3 == 0)
    found = [(f["row"], f["col"]) for f in me["found"]]
    assert sorted(found) == sorted({(1, 1 + i % 7) for i in range(30) if i % 3})
    assert len(found) == len(set(found))
    # Teams behind the same address share the address's 120 a minute: three more get
    # their 30, a fourth none (and nothing of it is recorded).
    for n in range(4):
        other = join(client, made, f"Neighbour {n}")
        kinds = [reveal(client, made, other, codes[10]).status_code for _ in range(31)]
        admitted = [200] + [409] * 29 if n < 3 else []
        assert kinds == admitted + [429] * (31 - len(admitted)), n
    board = client.get(f"/api/quests/{made['quest']['id']}/progress",
                       headers=bearer(made["key"])).json()
    assert [t["location_tries"] for t in board["teams"]] == [30, 30, 30, 30, 0]
    assert [len(t["found"]) for t in board["teams"][1:]] == [1, 1, 1, 0]
    # Answers have their own limit: 10 a minute per team.
    tries = [answer(client, made, team, "AKEZ").status_code for _ in range(12)]
    assert tries == [200] * 10 + [429] * 2


@pytest.mark.parametrize(("body", "status", "code", "words"), [
    ({"name": "x", "level": "1,1,1,A\n1,2,0,B\n2,1,1,C\n2,2,1,DD\n"}, 400, "badLevel",
     ["level line 4, column 7", "lit must be one letter"]),
    ({"name": "x", "level": "LA XB"}, 400, "badLevel",
     ["level line 1, column 4", "unknown cell kind 'X'"]),
    ({"name": "x", "level": "LA IB", "format": "csv"}, 400, "badLevel",
     ["level line 1, column 6", "1 field, want 4 (y,x,type,lit)"]),
    ({"name": "x", "level": "LA IB", "format": "xml"}, 400, "badQuestRequest", ["format"]),
    ({"name": "x", "level": "LA LB\nLC LD"}, 422, "questNoSolution", ["no solution"]),
    ({"name": "x", "level": "\n".join(["IA " * 21] * 20)}, 400, "questTooLarge", ["420"]),
    ({"name": "x", "level": MANY}, 422, "questTooManySolutions",
     ["1,015,671 solutions, more than the 20,000"]),
    ({"name": "x", "level": "LA" * 40_000}, 400, "questFieldTooLong", ["65,536"]),
    ({"name": "   ", "level": "IA"}, 400, "emptyName", ["empty"]),
    ({"name": "a\u0007b", "level": "IA"}, 400, "badName", ["control character"]),
    ({"name": "x" * 201, "level": "IA"}, 400, "questFieldTooLong", ["200"]),
    ({"level": "IA"}, 400, "badQuestRequest", ["name must be a string"]),
    ([], 400, "badQuestRequest", ["JSON object"]),
])
def test_a_bad_upload_is_refused_naming_what_is_wrong(client, body, status, code, words):
    refused = client.post("/api/quests", json=body)
    data = assert_error(refused, status, *words)
    assert data["code"] == code


def test_unknown_quests_bad_names_and_taken_names(client):
    made = upload(client, "names", SQUARE)
    quest_id = made["quest"]["id"]
    for path in ("", "/team", "/progress", "/sheet"):
        missing = client.get(f"/api/quests/nope{path}")
        assert_error(missing, 404, "no quest 'nope'")
        assert missing.json()["code"] == "noQuest"
    long_id = client.get("/api/quests/" + "x" * 300)
    assert_error(long_id, 404, "no quest")
    join(client, made, "Owls")
    for taken in ("owls", "  OWLS ", "Owls"):
        refused = client.post(f"/api/quests/{quest_id}/teams", json={"name": taken})
        assert_error(refused, 409, "a team named")
        assert refused.json()["code"] == "teamNameTaken"
    for bad in ("", "\t", "x" * 41):
        assert client.post(f"/api/quests/{quest_id}/teams",
                           json={"name": bad}).status_code == 400
    teams = client.get(f"/api/quests/{quest_id}/progress", headers=bearer(made["key"]))
    assert [t["name"] for t in teams.json()["teams"]] == ["Owls"]


def test_the_organiser_sees_every_change_live(client):
    made = upload(client, "live", SEED_COMPLETION)
    quest_id, key = made["quest"]["id"], made["key"]
    with client.websocket_connect(f"/api/quests/{quest_id}/live") as socket:
        socket.send_json({"type": "hello", "key": key})
        first = socket.receive_json()
        assert first["type"] == "progress" and first["teams"] == []
        assert first["quest"]["segments"] == 72
        owls = join(client, made, "Owls")
        assert [t["name"] for t in socket.receive_json()["teams"]] == ["Owls"]
        reveal(client, made, owls, made["locations"][3]["code"])
        seen = socket.receive_json()["teams"][0]
        assert [(f["row"], f["col"], f["letter"]) for f in seen["found"]] == [(1, 4, "?")]
        assert seen["location_tries"] == 1
        reveal(client, made, owls, "QQQQQQ")
        assert socket.receive_json()["teams"][0]["wrong_locations"] == 1
        answer(client, made, owls, SEED_CODES[0])
        done = socket.receive_json()["teams"][0]
        assert done["finished_at"] is not None and done["answer"] == SEED_CODES[0]
        socket.send_json({"type": "ping"})
        assert socket.receive_json() == {"type": "pong"}
    for hello in ({"type": "hello", "key": "wrong"}, {"type": "hello"}, "not json"):
        with client.websocket_connect(f"/api/quests/{quest_id}/live") as socket:
            if isinstance(hello, dict):
                socket.send_json(hello)
            else:
                socket.send_text(hello)
            refusal = socket.receive_json()
            assert refusal["type"] == "error" and refusal["code"] == "notOrganiser"


def test_the_pages_are_served(client):
    for path in ("/quest", "/quest?id=abc", "/quest/organiser"):
        page = client.get(path)
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert "'unsafe-inline'" not in page.headers["content-security-policy"]
    assert set(string.ascii_letters) & set(LOCATION_ALPHABET) <= set(string.ascii_uppercase)



def test_a_burst_of_changes_costs_two_views_and_the_last_view_is_current():
    import asyncio
    import threading

    from boardlab.web.live import Topics

    state = {"value": 0, "views": 0}
    gate = threading.Event()

    def view(topic: str) -> dict:
        state["views"] += 1
        if state["views"] == 2:
            gate.wait(5)        # the first view after the watch start is slow
        return {"topic": topic, "value": state["value"]}

    async def scenario() -> list:
        topics = Topics(view)
        watcher = await topics.watch("q")
        first = await watcher.queue.get()
        topics.changed("q")               # starts a view, which waits at the gate
        for value in range(1, 51):        # a burst meanwhile, from other threads too
            state["value"] = value
            await asyncio.to_thread(topics.changed, "q")
        gate.set()
        seen = [first, await asyncio.wait_for(watcher.queue.get(), 5)]
        seen.append(await asyncio.wait_for(watcher.queue.get(), 5))
        while "q" in topics._running:     # the topic's publisher has finished
            await asyncio.sleep(0.01)
        assert watcher.queue.empty()      # the burst was folded into one more view
        topics.changed("other")           # nobody watches it: no view
        topics.unwatch("q", watcher)
        return seen

    seen = asyncio.run(scenario())
    # The watch's own view, the slow one (made after the burst ended) and one more for
    # the changes told while it was being made: the last view sent is current.
    assert [message["value"] for message in seen] == [0, 50, 50]
    assert state["views"] == 3
