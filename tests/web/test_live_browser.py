"""Two people play a whole match live in two browsers (Playwright, Debian's chromium): one
creates a public match with an open seat in the lobby, the other joins it with one click
from the lobby of another browser, and each sees the other's moves without reloading; a
third browser watches and cannot act; a stranger's move and undo are refused; a dropped
live connection comes back with the moves made meanwhile; a clock runs out on its own."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from boardlab.web.app import create_app
from tests.web.conftest import CHROMIUM, KEY, bearer, hold_seats, screenshots, serving

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason="no Chromium at /usr/bin/chromium to drive headless")
ANN, BOB, EVE = KEY, "bob-browser-key-0123456789", "eve-browser-key-0123456789"


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("live-server")
    with serving(create_app(f"sqlite:///{folder / 'web.db'}", bot_workers=1)) as url:
        yield url


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    return screenshots(tmp_path_factory.mktemp("shots"), "live")


@pytest.fixture
def person(browser, server):
    """A factory of browsers, each with its own seat token. A page error fails the test,
    and so does any answer of 400 or more other than the refusals (403, 409) the test
    provokes."""
    contexts, errors = [], []

    def open_browser(token: str, width: int = 1100):
        context = browser.new_context(viewport={"width": width, "height": 900})
        hold_seats(context, token)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error"
                and not m.text.startswith("Failed to load resource") else None)
        page.on("response", lambda r: errors.append(f"{r.status} {r.url}")
                if r.status >= 400 and r.status not in (403, 409) else None)
        contexts.append(context)
        return page

    yield open_browser
    for context in contexts:
        context.close()
    assert errors == []


def moves_shown(page) -> list[str]:
    return page.locator("#moves li").all_inner_texts()


def wait_moves(page, n: int) -> None:
    page.locator("#moves li").nth(n - 1).wait_for(timeout=15000)


def click(page, name: str) -> None:
    page.locator(f"svg.board [data-cell='{name}']").click()


def test_two_browsers_play_a_whole_match_live_and_a_third_watches(person, server, shots):
    ann = person(ANN)
    ann.goto(server + "/")
    ann.locator("#games tr[data-game='tic-tac-toe'] button.new-game").click()
    ann.select_option("#player-1", "open")
    ann.fill("#setup-name", "Ann")
    ann.check("#setup-public")
    ann.locator("#start").click()
    ann.wait_for_url("**/game?match=*")
    ann.wait_for_selector("body[data-live='1']")
    match_id = ann.url.split("match=")[1]
    assert ann.locator("#waiting").is_visible() and ann.locator("#invite").is_visible()
    assert ann.locator("#invite-link").input_value().endswith(f"/game?match={match_id}")
    ann.screenshot(path=str(shots / "waiting.png"))

    # Bob finds the game in his lobby and joins it with one click
    bob = person(BOB)
    bob.goto(server + "/")
    row = bob.locator(f"#open-games tr[data-match='{match_id}']")
    assert "Ann" in row.inner_text()
    row.get_by_role("button", name="join").click()
    bob.wait_for_url(f"**/game?match={match_id}")
    bob.wait_for_selector("body[data-live='1']")
    # Ann's page learns of it without reloading
    ann.locator("#waiting").wait_for(state="hidden")
    assert ann.locator("#resign").is_visible() and bob.locator("#resign").is_visible()

    eve = person(EVE)
    eve.goto(f"{server}/game?match={match_id}")
    eve.wait_for_selector("body[data-live='1']")
    assert eve.locator("#spectating").is_visible() and eve.locator("#resign").is_hidden()

    for n, (page, cell) in enumerate([(ann, "a1"), (bob, "b1"), (ann, "a2"), (bob, "b2")],
                                     start=1):
        click(page, cell)
        for everyone in (ann, bob, eve):
            wait_moves(everyone, n)
        if n == 2:
            # not their seat: a click on Bob's board on Ann's turn does nothing, and a
            # stranger's requests are refused
            click(bob, "c3")
            click(eve, "c3")
            refused = eve.evaluate("""async (id) => {
                const headers = {"Content-Type": "application/json",
                                 Authorization: "Bearer " + BoardlabSeat.token()};
                const move = await fetch(`/api/matches/${id}/moves`, {method: "POST",
                    headers, body: JSON.stringify({move: "c3"})});
                const undo = await fetch(`/api/matches/${id}/undo`, {method: "POST",
                    headers, body: "{}"});
                return [move.status, undo.status];
            }""", match_id)
            assert refused == [403, 403]
    assert moves_shown(eve) == ["a1", "b1", "a2", "b2"]
    eve.screenshot(path=str(shots / "spectator.png"))
    click(ann, "a3")
    for everyone in (ann, bob, eve):
        everyone.locator("#outcome:not([hidden])").wait_for(timeout=15000)
        assert moves_shown(everyone) == ["a1", "b1", "a2", "b2", "a3"]
    assert ann.locator("#rematch").is_visible() and ann.locator("#undo").is_hidden()
    assert eve.locator("#rematch").is_hidden()
    bob.screenshot(path=str(shots / "over.png"))

    # the replay steps through the finished match
    eve.locator("#replay-first").click()
    eve.locator("#replay-at").wait_for()
    assert eve.locator("svg.board .piece").count() == 0
    eve.locator("#replay-forward").click()
    eve.locator("svg.board .piece").first.wait_for()
    assert eve.locator("svg.board .piece").count() == 1
    eve.locator("#moves li[data-ply='4'] button").click()
    eve.locator("#moves li.shown[data-ply='4']").wait_for()
    assert eve.locator("svg.board .piece").count() == 4

    # Bob asks for a rematch; Ann follows the link to it, now playing O
    bob.locator("#rematch").click()
    bob.wait_for_url(lambda url: match_id not in url)
    rematch_id = bob.url.split("match=")[1]
    with httpx.Client(base_url=server, headers=bearer(ANN)) as client:
        assert client.get(f"/api/matches/{match_id}").json()["rematch"] == rematch_id
        assert client.get(f"/api/matches/{rematch_id}").json()["you"] == [1]


def test_a_dropped_connection_comes_back_with_the_moves_made_meanwhile(person, server):
    with httpx.Client(base_url=server, headers=bearer(ANN)) as client:
        made = client.post("/api/matches", json={"game": "tic-tac-toe", "players": [
            {"type": "human"}, {"type": "open"}]}).json()
        client.post(f"/api/matches/{made['id']}/join", headers=bearer(BOB))
    sockets = []
    bob = person(BOB)

    def relay(socket):
        sockets.append(socket)
        socket.connect_to_server()

    bob.route_web_socket("**/live", relay)
    bob.goto(f"{server}/game?match={made['id']}")
    bob.wait_for_selector("body[data-live='1']")
    sockets[-1].close()                      # the network drops
    bob.wait_for_selector("body:not([data-live])")
    with httpx.Client(base_url=server, headers=bearer(ANN)) as client:
        view = client.get(f"/api/matches/{made['id']}").json()
        played = client.post(f"/api/matches/{made['id']}/moves",
                             json={"move": "b2", "revision": view["revision"]})
        assert played.status_code == 200
    wait_moves(bob, 1)                       # reconnected, with Ann's move
    assert len(sockets) >= 2 and moves_shown(bob) == ["b2"]
    click(bob, "a1")
    wait_moves(bob, 2)


def test_a_clock_runs_out_with_nobody_acting(person, server):
    with httpx.Client(base_url=server, headers=bearer(ANN)) as client:
        made = client.post("/api/matches", json={
            "game": "tic-tac-toe", "players": [{"type": "human"}, {"type": "open"}],
            "time_control": {"base": 3, "increment": 0}}).json()
        client.post(f"/api/matches/{made['id']}/join", headers=bearer(BOB))
    ann = person(ANN)
    ann.goto(f"{server}/game?match={made['id']}")
    ann.wait_for_selector("body[data-live='1']")
    assert ann.locator("#players .clock.running").count() == 1
    ann.locator("#outcome:not([hidden])").wait_for(timeout=15000)
    assert "ran out of time" in ann.locator("#outcome").inner_text()
    assert ann.locator("#players .clock").first.inner_text() == "0.0"
