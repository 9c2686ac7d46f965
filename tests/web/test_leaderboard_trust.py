"""A Triplex leaderboard that can be trusted (issue 16, item 5): the server times every
solve from a start token it signed, a token records one solve, a solve faster than a
person can place the pieces takes no first place, the limits never count a name, the
tables' figures, and progress kept on the server behind a name and a secret.

Truth comes from outside the code under test: the master pack's own solutions, a clock the
test moves itself, rows inserted with known times whose statistics the test computes with
:mod:`statistics`, and the scrypt hash computed again here from the stored salt.
"""

from __future__ import annotations

import base64
import hashlib
import re
import statistics
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from boardlab.puzzles.polyomino.pack import Pack
from boardlab.store.leaderboard import SolveRow, add_solve
from boardlab.store.players import PlayerRow, ProgressRow
from boardlab.web.api_triplex import TOKEN_SECONDS, RateLimit
from boardlab.web.app import create_app
from tests.web.conftest import CHROMIUM, assert_error, screenshots, serving
from tests.web.test_leaderboard import (
    clock_of,
    data_folder,
    pack,  # noqa: F401 - the module's pack fixture
    rows,
    start,
    submit,
)


@pytest.fixture
def client(tmp_path, pack) -> Iterator[TestClient]:  # noqa: F811
    with TestClient(create_app(data_dir=data_folder(tmp_path / "data", pack))) as opened:
        clock_of(opened)
        yield opened


def solves(client: TestClient) -> list[SolveRow]:
    with client.app.state.store.session() as session:
        return list(session.scalars(select(SolveRow).order_by(SolveRow.id)))


def url(pack: Pack, n: int) -> str:  # noqa: F811
    return f"/api/leaderboard/{pack.salt.hex()}/{n}"


def post_solve(client: TestClient, pack: Pack, n: int, token: str, *,  # noqa: F811
               name: str = "Ada", seconds: float | None = None):
    body = {"name": name, "token": token, "unlock": pack.solve_chain()[n - 1],
            "solution": rows(pack, n)}
    if seconds is not None:
        body["seconds"] = seconds
    return client.post(url(pack, n), json=body)


# -- opening a level ---------------------------------------------------------------------------

def test_opening_a_level_needs_its_code(client, pack):  # noqa: F811
    base = f"/api/triplex/packs/{pack.salt.hex()}/levels"
    first = client.post(f"{base}/1/start", json={})
    assert first.status_code == 200, first.text
    data = first.json()
    assert data["level"] == 1 and data["issued_at"] == clock_of(client).now
    assert data["expires_at"] == data["issued_at"] + TOKEN_SECONDS
    assert data["floor_seconds"] == 3.0 and len(data["token"]) < 200
    assert client.post(f"{base}/1/start").status_code == 200  # no body at all
    codes = pack.solve_chain()
    assert_error(client.post(f"{base}/2/start", json={}), 400, "needs its code")
    wrong = assert_error(client.post(f"{base}/2/start", json={"unlock": codes[0]}), 400,
                         "does not open level 2")
    assert wrong["code"] == "wrongUnlock" and wrong["params"] == {"n": 2}
    assert client.post(f"{base}/2/start", json={"unlock": codes[1]}).status_code == 200
    assert_error(client.post(f"{base}/9/start", json={}), 404)
    assert_error(client.post(f"{base}/1/start", json={"unlock": "x" * 101}), 422)
    assert_error(client.post(f"{base}/1/start", json={"unlock": "!!"}), 400)


def test_openings_are_limited_per_address_and_pack(client, pack):  # noqa: F811
    base = f"/api/triplex/packs/{pack.salt.hex()}/levels/1/start"
    for _ in range(60):
        assert client.post(base, json={}).status_code == 200
    limited = assert_error(client.post(base, json={}), 429)
    assert 1 <= int(client.post(base, json={}).headers["Retry-After"]) <= 60
    assert limited["code"] == "tooMany"
    # The bucket refills at 60 a minute: one second later one more opening is allowed.
    client.app.state.triplex.opens.clock.advance(1.0)
    assert client.post(base, json={}).status_code == 200
    assert_error(client.post(base, json={}), 429)


# -- the server's time ---------------------------------------------------------------------------

def test_the_recorded_time_is_the_servers_and_the_clients_is_a_trace(client, pack):  # noqa: F811
    clock = clock_of(client)
    token = start(client, pack, 1)
    clock.advance(100)
    # The client claims one second; the server saw 100.
    answer = post_solve(client, pack, 1, token, seconds=1)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["seconds"] == 100 and data["median_seconds"] == 100
    assert data["best_seconds"] == 100 and data["became_first"] is True
    # Without a figure of its own the client is timed all the same.
    token = start(client, pack, 1)
    clock.advance(12.5)
    assert post_solve(client, pack, 1, token, name="Bob").json()["seconds"] == 12.5
    (ada, bob) = solves(client)
    assert (ada.seconds, ada.client_seconds, ada.timed) == (100, 1, True)
    assert (bob.seconds, bob.client_seconds) == (12.5, None)
    assert client.get(url(pack, 1)).json()["median_seconds"] == statistics.median([100, 12.5])


def test_a_token_records_one_solve(client, pack):  # noqa: F811
    token = start(client, pack, 1)
    clock_of(client).advance(30)
    assert post_solve(client, pack, 1, token).status_code == 200
    for name in ("Ada", "Mallory"):
        replay = assert_error(post_solve(client, pack, 1, token, name=name), 409,
                              "already recorded")
        assert replay["code"] == "tokenUsed" and replay["where"] == "token"
    assert len(solves(client)) == 1
    # A refused solve does not use the token up: the player may send it again.
    token = start(client, pack, 1)
    clock_of(client).advance(30)
    bad = {"name": "Ada", "token": token, "unlock": pack.first_code,
           "solution": ["aabbb", "ccddd"]}
    assert_error(client.post(url(pack, 1), json=bad), 400, "solution")
    assert post_solve(client, pack, 1, token).status_code == 200


def test_a_solve_before_the_name_stops_the_clock(client, pack):  # noqa: F811
    clock = clock_of(client)
    token = start(client, pack, 1)
    clock.advance(25)
    body = {"token": token, "unlock": pack.first_code, "solution": rows(pack, 1)}
    stopped = client.post(url(pack, 1), json=body)
    assert stopped.status_code == 200, stopped.text
    data = stopped.json()
    assert data["recorded"] is False and data["seconds"] == 25
    assert data["next_code"] == pack.solve_chain()[1] and data["token"] != token
    assert solves(client) == []
    # The name comes two minutes later: the time is the one measured at the solve.
    clock.advance(120)
    named = post_solve(client, pack, 1, data["token"], name="Ada").json()
    assert named["recorded"] is True and named["seconds"] == 25
    assert named["median_seconds"] == 25 and named["became_first"] is True
    # The stopped token and the start token share one nonce: one solve in all.
    assert_error(post_solve(client, pack, 1, token, name="Ada"), 409)
    assert_error(post_solve(client, pack, 1, data["token"], name="Bob"), 409)
    # A stopped time cannot be edited: the signature covers it.
    head, mac = data["token"].rsplit(".", 1)
    faster = head.rsplit(".s", 1)[0] + ".s1." + mac
    slower = head.rsplit(".s", 1)[0] + ".s99999." + mac
    again = start(client, pack, 1)
    added = again.rsplit(".", 1)[0] + ".s1." + again.rsplit(".", 1)[1]
    for forged in (faster, slower, added):
        assert assert_error(post_solve(client, pack, 1, forged), 400)["code"] == "badToken"
    assert [r.seconds for r in solves(client)] == [25]


def test_a_token_expires(client, pack):  # noqa: F811
    clock = clock_of(client)
    token = start(client, pack, 1)
    clock.advance(TOKEN_SECONDS)
    kept = start(client, pack, 1)
    assert post_solve(client, pack, 1, token).status_code == 200  # on the bound: still in
    late = start(client, pack, 1)
    clock.advance(TOKEN_SECONDS + 0.001)
    expired = assert_error(post_solve(client, pack, 1, late), 400, "expired")
    assert expired["code"] == "tokenExpired"
    assert_error(post_solve(client, pack, 1, kept), 400, "expired")
    assert len(solves(client)) == 1


def _mac_of(token: str) -> bytes:
    return base64.urlsafe_b64decode(token.rsplit(".", 1)[1] + "=")


def _with_mac(body: str, mac: bytes) -> str:
    return f"{body}.{base64.urlsafe_b64encode(mac).decode().rstrip('=')}"


def test_forged_tokens_are_refused(client, pack, tmp_path):  # noqa: F811
    client.app.state.triplex.by_client = RateLimit(capacity=1000)
    clock_of(client).advance(1000)
    token = start(client, pack, 1)
    body, _ = token.rsplit(".", 1)
    version, pack_id, level, issued, nonce = body.split(".")
    assert (version, pack_id, level) == ("v1", pack.salt.hex(), "1")
    assert re.fullmatch(r"[0-9a-f]{32}", nonce)
    # An earlier start (a longer time) under the same signature.
    earlier = f"v1.{pack_id}.1.{int(issued) - 900_000}.{nonce}"
    forgeries = [
        _with_mac(earlier, _mac_of(token)),
        _with_mac(body, bytes(32)),
        _with_mac(body, bytes([_mac_of(token)[0] ^ 1]) + _mac_of(token)[1:]),
        # Signed with a key the test made up (a key of another server is as good).
        _with_mac(earlier, hashlib.sha256(b"made up").digest()),
        token + "x", token.replace("v1.", "v2."), "v1." + "." * 5, "garbage", "é" * 100,
    ]
    for forged in forgeries:
        refused = assert_error(post_solve(client, pack, 1, forged), 400, "token")
        assert refused["code"] == "badToken", forged
    # Another server's genuine token: signed with its own key, made on its first use.
    with TestClient(create_app(data_dir=data_folder(tmp_path / "other", pack))) as other:
        foreign = start(other, pack, 1)
    assert_error(post_solve(client, pack, 1, foreign), 400, "signature")
    # A genuine token of level 1 for level 2.
    other_level = {"name": "Ada", "token": token, "unlock": pack.solve_chain()[1],
                   "solution": rows(pack, 2)}
    assert_error(client.post(url(pack, 2), json=other_level), 400, "not level 2")
    assert solves(client) == []
    assert post_solve(client, pack, 1, token).status_code == 200


def test_a_token_from_the_future_is_refused(client, pack):  # noqa: F811
    clock = clock_of(client)
    token = start(client, pack, 1)
    clock.advance(-60)  # another process whose clock is a minute behind
    assert_error(post_solve(client, pack, 1, token), 400, "future")


# -- too fast to be a person -------------------------------------------------------------------

def test_a_solve_faster_than_the_floor_is_listed_but_never_first(client, pack):  # noqa: F811
    clock = clock_of(client)
    # boardlab's own solver, scripted: opened and solved in 0.2 s (floor: 4 pieces x 0.75).
    token = start(client, pack, 1)
    clock.advance(0.2)
    bot = post_solve(client, pack, 1, token, name="Bot").json()
    assert bot["accepted"] is True and bot["suspect"] is True
    assert bot["became_first"] is False and bot["first"] is None
    assert bot["solves"] == 1 and bot["suspect_solves"] == 1
    assert bot["median_seconds"] is None and bot["timed"] == 0
    token = start(client, pack, 1)
    clock.advance(3.0)  # exactly the floor: a person may be that fast
    ada = post_solve(client, pack, 1, token, name="Ada").json()
    assert ada["suspect"] is False and ada["became_first"] is True
    assert ada["first"]["name"] == "Ada" and ada["solves"] == 2
    assert ada["median_seconds"] == 3.0 and ada["best_seconds"] == 3.0
    tables = client.get(f"/api/leaderboard/{pack.salt.hex()}").json()
    assert tables["players"] == [
        {"name": "Ada", "levels": 1, "first_solves": 1, "solves": 1},
        {"name": "Bot", "levels": 1, "first_solves": 0, "solves": 1}]
    # The trace: both rows keep the server's time and the sender's anonymised key.
    bot_row, ada_row = solves(client)
    assert (bot_row.seconds, bot_row.suspect) == (0.2, True)
    assert bot_row.client == ada_row.client and re.fullmatch(r"[0-9a-f]{16}", bot_row.client)
    assert "testclient" not in bot_row.client


def test_the_client_key_is_per_address_and_hides_it(tmp_path, pack):  # noqa: F811
    app = create_app(data_dir=data_folder(tmp_path / "data", pack))
    keys: dict[str, set[str]] = {}
    with TestClient(app, client=("203.0.113.5", 5000)) as five, \
            TestClient(app, client=("203.0.113.6", 5000)) as six:
        for address, opened in (("203.0.113.5", five), ("203.0.113.6", six),
                                ("203.0.113.5", five)):
            assert submit(opened, pack, 1, rows(pack, 1)).status_code == 200
            keys.setdefault(address, set()).add(solves(opened)[-1].client)
        assert five.get(url(pack, 1)).json()["clients"] == 2
    assert all(len(found) == 1 for found in keys.values())
    assert keys["203.0.113.5"] != keys["203.0.113.6"]
    assert not any(address in next(iter(found)) for address, found in keys.items())


# -- the tables ------------------------------------------------------------------------------------

def test_the_tables_figures_are_those_of_the_rows(client, pack):  # noqa: F811
    store, pack_id = client.app.state.store, pack.salt.hex()
    rows_in = [  # (level, name, seconds, suspect, timed)
        (1, "Ada", 40.0, False, True), (1, "Bob", 0.5, True, True),
        (1, "Cy", 70.0, False, True), (1, "Bob", 55.0, False, True),
        (2, "Bob", 1.0, True, True), (2, "Cy", 300.0, False, True),
        (2, "Old", 9.0, False, False),  # before revision 0004: the client's figure
        (3, "Bob", 0.1, True, True)]
    for level, name, seconds, suspect, timed in rows_in:
        add_solve(store, pack_id, level, name, seconds, suspect=suspect, timed=timed,
                  client=f"client-{name}")
    add_solve(store, "another-pack", 1, "Zed", 1.0)
    tables = client.get(f"/api/leaderboard/{pack_id}").json()
    assert tables["pack"] == pack_id and tables["name"] == "Board <test>"
    assert [line["level"] for line in tables["levels"]] == [1, 2, 3]
    for line in tables["levels"]:
        mine = [r for r in rows_in if r[0] == line["level"]]
        counted = [r[2] for r in mine if r[4] and not r[3]]
        first = next((r[1] for r in mine if not r[3]), None)
        assert line["solves"] == len(mine)
        assert line["suspect_solves"] == sum(r[3] for r in mine)
        assert line["median_seconds"] == (statistics.median(counted) if counted else None)
        assert line["best_seconds"] == (min(counted) if counted else None)
        assert line["timed"] == len(counted)
        assert line["clients"] == len({r[1] for r in mine})
        assert (line["first"] or {}).get("name") == first
        alone = client.get(url(pack, line["level"])).json()
        for board in (line, alone):
            if board["first"] is not None:
                del board["first"]["ago_seconds"]  # computed at each request
        assert line == alone
    players = {p["name"]: p for p in tables["players"]}
    for name in {r[1] for r in rows_in}:
        mine = [r for r in rows_in if r[1] == name]
        assert players[name]["levels"] == len({r[0] for r in mine})
        assert players[name]["solves"] == len(mine)
    assert {n: p["first_solves"] for n, p in players.items()} == {
        "Ada": 1, "Bob": 0, "Cy": 1, "Old": 0}
    # Most levels first, then most first solves, then by name.
    assert [p["name"] for p in tables["players"]] == ["Bob", "Cy", "Ada", "Old"]
    assert_error(client.get("/api/leaderboard/00ff"), 404)


def test_the_tables_page_is_served_for_a_known_pack(client, pack):  # noqa: F811
    page = client.get(f"/triplex/{pack.salt.hex()}/table")
    assert page.status_code == 200 and 'id="levels"' in page.text
    assert "script-src" in page.headers["content-security-policy"]
    assert_error(client.get("/triplex/00ff/table"), 404)
    game = client.get(f"/triplex/{pack.salt.hex()}").text
    assert 'id="table-link"' in game and 'id="account"' in game


# -- progress on the server ------------------------------------------------------------------------

PROGRESS = "/api/triplex/progress"


def progress_body(of: Pack, n: int, **extra) -> dict:
    return {"name": "Ada", "secret": "correct horse", "pack": of.salt.hex(), "level": n,
            "code": of.solve_chain()[n - 1]} | extra


def test_progress_is_saved_and_restored_with_the_right_secret(client, pack):  # noqa: F811
    codes = pack.solve_chain()
    saved = client.post(f"{PROGRESS}/save", json=progress_body(pack, 3))
    assert saved.status_code == 200, saved.text
    assert saved.json() | {"updated_at": None} == {
        "name": "Ada", "pack": pack.salt.hex(), "levels": len(pack), "level": 3,
        "code": codes[2], "updated_at": None}
    # A lower level never takes the place of a higher one.
    lower = client.post(f"{PROGRESS}/save", json=progress_body(pack, 2)).json()
    assert (lower["level"], lower["code"]) == (3, codes[2])
    # Another device: the name in any case, the same secret.
    loaded = client.post(f"{PROGRESS}/load", json={"name": "ADA", "secret": "correct horse",
                                                   "pack": pack.salt.hex()})
    assert loaded.status_code == 200, loaded.text
    assert (loaded.json()["name"], loaded.json()["level"], loaded.json()["code"]) == \
        ("Ada", 3, codes[2])
    # The secret is kept as its scrypt hash with a salt of its own, never in clear.
    with client.app.state.store.session() as session:
        player = session.scalars(select(PlayerRow)).one()
        kept = session.scalars(select(ProgressRow)).one()
    kind, n, r, p = player.kdf.split(":")
    assert kind == "scrypt" and len(player.salt) == 16
    assert player.digest == hashlib.scrypt(b"correct horse", salt=player.salt, n=int(n),
                                           r=int(r), p=int(p), maxmem=64 * 2**20, dklen=32)
    assert b"correct horse" not in player.digest + player.salt
    assert (kept.level, kept.code) == (3, codes[2])


def test_a_wrong_secret_or_name_is_a_clear_refusal(client, pack):  # noqa: F811
    assert client.post(f"{PROGRESS}/save", json=progress_body(pack, 2)).status_code == 200
    wrong = assert_error(client.post(f"{PROGRESS}/load", json={
        "name": "Ada", "secret": "wrong horse", "pack": pack.salt.hex()}), 403,
        "wrong secret")
    assert wrong["code"] == "wrongPlayerSecret" and wrong["where"] == "secret"
    stolen = assert_error(client.post(f"{PROGRESS}/save", json=progress_body(
        pack, 3, secret="wrong horse")), 403)
    assert stolen["code"] == "wrongPlayerSecret"
    nobody = assert_error(client.post(f"{PROGRESS}/load", json={
        "name": "Nobody", "secret": "whatever1", "pack": pack.salt.hex()}), 404)
    assert nobody["code"] == "noSuchPlayer"
    short = assert_error(client.post(f"{PROGRESS}/save", json=progress_body(
        pack, 2, name="Bob", secret="short")), 422, "at least 8")
    assert short["code"] == "badPlayerSecret"
    assert_error(client.post(f"{PROGRESS}/save", json=progress_body(
        pack, 2, secret="x" * 201)), 422)
    # A code that does not open the level is refused before anything is kept.
    assert_error(client.post(f"{PROGRESS}/save", json=progress_body(
        pack, 3, name="Cy", code=pack.first_code)), 400, "does not open level 3")
    assert_error(client.post(f"{PROGRESS}/save", json=progress_body(
        pack, 1, level=99)), 404)
    assert_error(client.post(f"{PROGRESS}/save", json=progress_body(pack, 2, pack="00ff")),
                 404)
    empty = client.post(f"{PROGRESS}/load", json={"name": "Ada", "secret": "correct horse",
                                                  "pack": pack.salt.hex()}).json()
    assert empty["level"] == 2
    with client.app.state.store.session() as session:
        assert [p.name for p in session.scalars(select(PlayerRow))] == ["Ada"]


def test_progress_attempts_are_limited_per_address(client, pack):  # noqa: F811
    guess = {"name": "Ada", "secret": "guess0000", "pack": pack.salt.hex()}
    assert client.post(f"{PROGRESS}/save", json=progress_body(pack, 1)).status_code == 200
    for i in range(6):
        assert client.post(f"{PROGRESS}/load", json=guess | {
            "secret": f"guess{i:04d}"}).status_code == 403
    for _ in range(3):  # a wrong code is an attempt too
        assert client.post(f"{PROGRESS}/save", json=progress_body(
            pack, 3, code=pack.first_code)).status_code == 400
    assert_error(client.post(f"{PROGRESS}/load", json=guess), 429)
    # The right secret from this address waits too; another address is not held up.
    assert_error(client.post(f"{PROGRESS}/load", json=guess | {"secret": "correct horse"}),
                 429)
    with TestClient(client.app, client=("203.0.113.9", 5000)) as elsewhere:
        assert elsewhere.post(f"{PROGRESS}/load", json=guess | {
            "secret": "correct horse"}).json()["level"] == 1



# -- in the browser ----------------------------------------------------------------------------

@pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium at /usr/bin/chromium")
def test_progress_moves_to_another_device_in_the_browser(tmp_path, pack):  # noqa: F811
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    expect = sync_api.expect
    artifacts = screenshots(tmp_path, "leaderboard")
    app = create_app(data_dir=data_folder(tmp_path / "data", pack))
    codes, pack_id = pack.solve_chain(), pack.salt.hex()
    with serving(app) as base, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            def device():
                page = browser.new_context(locale="en-US", viewport={
                    "width": 900, "height": 900}).new_page()
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(f"{base}/triplex/{pack_id}")
                page.wait_for_selector("#tray .piece")
                expect(page.locator("#status")).to_have_text("online")
                page.fill("#player-name", "Ada")
                page.dispatch_event("#player-name", "change")
                return page

            errors: list[str] = []
            phone = device()
            # Level 3 reached (its code written on paper), then kept on the server.
            phone.fill("#restore-level", "3")
            phone.fill("#restore-code", codes[2])
            phone.click("#restore-form button[type=submit]")
            expect(phone.locator("#level-title")).to_have_text(f"Level 3 of {len(pack)}")
            phone.fill("#player-secret", "correct horse")
            phone.click("#save-progress")
            expect(phone.locator("#account-message")).to_have_text(
                "The server keeps level 3 for you.")
            # Another device, its own storage: a wrong secret is refused, the right one
            # brings level 3 and its code.
            desk = device()
            expect(desk.locator("#level-title")).to_have_text(f"Level 1 of {len(pack)}")
            desk.fill("#player-secret", "wrong horse")
            desk.click("#load-progress")
            expect(desk.locator("#account-message")).to_have_text("wrong secret for this name")
            desk.fill("#player-secret", "correct horse")
            desk.click("#load-progress")
            expect(desk.locator("#account-message")).to_have_text(
                "Loaded from the server: level 3.")
            expect(desk.locator("#level-title")).to_have_text(f"Level 3 of {len(pack)}")
            assert desk.inner_text("#this-code") == codes[2]
            desk.screenshot(path=str(artifacts / "3-progress-loaded.png"), full_page=True)
            # The secret is never kept in the page's storage.
            saved = desk.evaluate("JSON.stringify(window.triplexGame.state())")
            assert "horse" not in saved and codes[2] in saved
            # The tables of the pack are a link away.
            desk.click("#table-link")
            desk.wait_for_selector("#levels tbody tr[data-level]")
            assert desk.locator("#levels tbody tr").count() == len(pack)
            assert errors == []
        finally:
            browser.close()
