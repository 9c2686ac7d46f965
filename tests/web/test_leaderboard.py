"""Triplex on the server: packs from the data folder, the game page, and a leaderboard that
checks the submitted solution against the level itself (issue 7, parts 3 and 5) and times
it by the server's own clock from the level's start token (issue 16; the token's own
tests are in test_leaderboard_trust.py). The server's clock is the test's
(:class:`Clock`), so the times asserted are exact.

Truth comes from outside the code under test: the master pack's own solutions (written by
the generator), forgeries made by hand from them, and a real browser solving level 1 by
dragging and reading the leaderboard back. The migration from revision 0001 is checked
against the models. Screenshots go to $BOARDLAB_ARTIFACTS/leaderboard (or the test's tmp
folder).
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect

from boardlab.puzzles.polyomino.generator import generate_levels
from boardlab.puzzles.polyomino.pack import Pack
from boardlab.puzzles.polyomino.shapes import Shape
from boardlab.store.db import current_revision, head_revision, metadata, open_store, upgrade
from boardlab.store.leaderboard import add_solve, level_board
from boardlab.web.api_triplex import RateLimit
from boardlab.web.app import create_app
from tests.web.conftest import CHROMIUM, assert_error, drag, screenshots, serving


@pytest.fixture(scope="module")
def pack() -> Pack:
    """A three-level master pack. Level 1 (5x2) has two identical dominoes and a rotatable
    straight tromino shown in another orientation than the solution uses."""
    levels = generate_levels([(4, 2), (5, 2)], "triplex", seed=0, backend="serial")
    first = next(lv for lv in levels if (lv.width, lv.height) == (5, 2))
    assert first.rotatable and first.shown_orientation[0]
    assert len(set(first.pieces)) < len(first.pieces)
    return Pack.build([first, *(lv for lv in levels if lv is not first)], b"leaderboard test",
                      "triplex", name="Board <test>")


def data_folder(root: Path, pack: Pack, *, master: bool = True) -> Path:
    packs = root / "packs"
    packs.mkdir(parents=True)
    pack.public().save(packs / "pack.json")
    if master:
        pack.save(packs / "pack.master.json", with_solutions=True)
    return root


@pytest.fixture
def client(tmp_path, pack) -> Iterator[TestClient]:
    with TestClient(create_app(data_dir=data_folder(tmp_path / "data", pack))) as opened:
        yield opened


def rows(pack: Pack, n: int) -> list[str]:
    return pack.level(n).solution_checksum().decode().split("/")


def placements(text_rows: list[str]) -> list[list[list[int]]]:
    regions: dict[str, list[list[int]]] = {}
    for y, row in enumerate(text_rows):
        for x, letter in enumerate(row):
            regions.setdefault(letter, []).append([x, y])
    return list(regions.values())


def shape_of(cells) -> Shape:
    return Shape.of(tuple(cell) for cell in cells)


class Clock:
    """The server's clock in a test: it only moves when told to."""

    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def clock_of(client: TestClient) -> Clock:
    """The test clock of the app's Triplex routes and their rate limits (installed on first
    use)."""
    triplex = client.app.state.triplex
    if not isinstance(triplex.clock, Clock):
        triplex.clock = Clock()
        # The rate limits get a still clock of their own (the tokens' clock moves by the
        # minute as players solve), so a slow machine cannot refill a bucket while a test
        # counts requests against it.
        for limit in (triplex.by_client, triplex.opens, triplex.attempts):
            limit.clock = Clock()
    return triplex.clock


def start(client: TestClient, pack: Pack, n: int, unlock: str | None = None) -> str:
    """Open level n as the page does and return the server's start token."""
    body = {"unlock": unlock if unlock is not None else pack.solve_chain()[n - 1]}
    response = client.post(f"/api/triplex/packs/{pack.salt.hex()}/levels/{n}/start",
                           json=body)
    assert response.status_code == 200, response.text
    return response.json()["token"]


def submit(client: TestClient, pack: Pack, n: int, solution, *, name: str = "Ada",
           seconds: float = 30, unlock: str | None = None, token: str | None = None):
    """Open level n, let ``seconds`` pass on the server's clock and submit ``solution``
    (or submit with ``token`` at once)."""
    if token is None:
        clock = clock_of(client)
        token = start(client, pack, n)
        clock.advance(seconds)
    body = {"name": name, "token": token, "solution": solution,
            "unlock": unlock if unlock is not None else pack.solve_chain()[n - 1]}
    return client.post(f"/api/leaderboard/{pack.salt.hex()}/{n}", json=body)


# -- packs and the page --------------------------------------------------------------------

def test_packs_are_listed_and_served_public_only(client, pack):
    listed = client.get("/api/triplex/packs")
    assert listed.status_code == 200
    assert listed.json() == [{"id": pack.salt.hex(), "name": "Board <test>",
                              "pieces": "triplex", "levels": len(pack)}]
    served = client.get(f"/api/triplex/packs/{pack.salt.hex()}").json()
    assert served == pack.public().to_json() and "solutions" not in served
    page = client.get(f"/triplex/{pack.salt.hex()}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    # The page's phrase table speaks of pipe "solutions"; the pack it embeds has no
    # solutions key, and no level's solution is written anywhere in the page.
    assert '"solutions":' not in page.text and "Board &lt;test&gt;" in page.text
    assert not [s for s in pack.to_json(with_solutions=True)["solutions"] if s in page.text]
    # The leaderboard is the page's own origin (the script falls back to it): the
    # request's Host is written nowhere (tests/web/test_security.py forges one).
    assert '"server":null' in page.text and "testserver" not in page.text
    assert "connect-src 'self';" in page.text
    assert "connect-src 'self';" in page.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert_error(client.get("/api/triplex/packs/00ff"), 404, "no Triplex pack")
    assert_error(client.get("/triplex/00ff"), 404)


def test_files_that_are_not_packs_are_skipped(tmp_path, pack):
    folder = data_folder(tmp_path / "data", pack)
    (folder / "packs" / "binary.json").write_bytes(b"{\xff\xfe")
    (folder / "packs" / "folder.json").mkdir()
    hostile = pack.public().to_json()
    hostile.update(pieces="file:/etc/passwd", salt="00ff")
    (folder / "packs" / "hostile.json").write_text(json.dumps(hostile), encoding="utf-8")
    with TestClient(create_app(data_dir=folder)) as opened:
        listed = opened.get("/api/triplex/packs")
        assert listed.status_code == 200
        assert [p["id"] for p in listed.json()] == [pack.salt.hex()]
        problems = opened.app.state.triplex.shelf.problems
    assert "not UTF-8 text" in problems["binary.json"]
    assert "is a directory" in problems["folder.json"]
    assert "unknown piece set 'file:/etc/passwd'" in problems["hostile.json"]


def test_an_empty_or_missing_packs_folder_serves_nothing(tmp_path):
    with TestClient(create_app(data_dir=tmp_path)) as opened:
        assert opened.get("/api/triplex/packs").json() == []


# -- accepted submissions --------------------------------------------------------------------

def test_a_correct_solve_is_first_and_the_next_is_counted(client, pack):
    pack_id, codes = pack.salt.hex(), pack.solve_chain()
    empty = client.get(f"/api/leaderboard/{pack_id}/1").json()
    assert empty == {"level": 1, "first": None, "solves": 0, "median_seconds": None,
                     "best_seconds": None, "timed": 0, "suspect_solves": 0, "clients": 0}
    before = time.time()
    first = submit(client, pack, 1, "/".join(rows(pack, 1)), name="  Ada  ", seconds=30)
    assert first.status_code == 200, first.text
    data = first.json()
    assert data["accepted"] is True and data["became_first"] is True
    assert data["next_code"] == codes[1]
    assert data["first"]["name"] == "Ada" and data["solves"] == 1
    assert data["median_seconds"] == 30 and data["seconds"] == 30
    assert data["suspect"] is False and data["floor_seconds"] == 3.0  # 4 pieces
    assert before - 1 <= data["first"]["solved_at"] <= time.time() + 1
    second = submit(client, pack, 1, rows(pack, 1), name="Bob", seconds=50).json()
    assert second["became_first"] is False and second["first"]["name"] == "Ada"
    submit(client, pack, 1, rows(pack, 1), name="Cy", seconds=100)
    board = client.get(f"/api/leaderboard/{pack_id}/1").json()
    assert board["first"]["name"] == "Ada" and board["solves"] == 3
    assert board["median_seconds"] == 50 and board["best_seconds"] == 30
    assert board["timed"] == 3 and board["clients"] == 1
    assert 0 <= board["first"]["ago_seconds"] < 60
    # Level 2 needs level 1's code; the last level gives the completion code.
    last = len(pack)
    done = submit(client, pack, last, rows(pack, last)).json()
    assert done["next_code"] == codes[last] and done["level"] == last
    assert client.get(f"/api/leaderboard/{pack_id}/2").json()["solves"] == 0


def test_swapped_identical_pieces_and_the_turned_piece_are_accepted(client, pack):
    level, codes = pack.level(1), pack.solve_chain()
    puzzle = pack.unlock(1, codes[0])
    text = rows(pack, 1)
    # The rotatable piece is shown in another orientation than the solution places it.
    assert puzzle.pieces[puzzle.rotatable[0]] != level.pieces[level.rotatable[0]]
    by_shape: dict[Shape, list[str]] = {}
    for cells in placements(text):
        by_shape.setdefault(shape_of(cells), []).append(text[cells[0][1]][cells[0][0]])
    a, b = next(letters for letters in by_shape.values() if len(letters) > 1)[:2]
    swapped = ["".join({a: b, b: a}.get(ch, ch) for ch in row) for row in text]
    assert swapped != text
    for solution in (swapped, "\n".join(swapped), placements(swapped)[::-1],
                     ["".join(chr(ord(ch) - 32) for ch in row) for row in text]):
        response = submit(client, pack, 1, solution)
        assert response.status_code == 200, response.text
        assert response.json()["next_code"] == codes[1]


def test_an_accepted_solve_needs_no_master_copy(tmp_path, pack):
    data = data_folder(tmp_path, pack, master=False)
    with TestClient(create_app(data_dir=data)) as opened:
        response = submit(opened, pack, len(pack), rows(pack, len(pack)))
        assert response.status_code == 200, response.text
        assert response.json()["next_code"] == pack.solve_chain()[-1]
        assert_error(submit(opened, pack, 1, rows(pack, 2)), 400, "solution")


# -- forgeries ---------------------------------------------------------------------------------

def test_forged_submissions_are_rejected_with_the_problem(client, pack):
    codes, text = pack.solve_chain(), rows(pack, 1)
    pack_id = pack.salt.hex()
    triplex = client.app.state.triplex
    triplex.by_client = RateLimit(capacity=1000)
    assert_error(submit(client, pack, 2, rows(pack, 2), unlock=codes[0]), 400,
                 "does not open level 2")
    assert_error(submit(client, pack, 1, text, unlock="0000-0000"), 400,
                 "does not open level 1")
    assert_error(submit(client, pack, 1, text, unlock="not a code"), 400, "unlock")
    # Another level's solution, with this level's code.
    other = next(n for n in range(2, len(pack) + 1)
                 if len(rows(pack, n)[0]) != len(text[0]))
    assert_error(submit(client, pack, 1, rows(pack, other)), 400, "the level is 5x2")
    # A wrong piece: two straight trominoes where the level has one and an L.
    assert sorted(shape_of(c).size for c in placements(text)) == [2, 2, 3, 3]
    wrong = ["aabbb", "ccddd"]
    assert_error(submit(client, pack, 1, wrong), 400, "does not use the puzzle's pieces")
    # A gap in the grid, as text and as placements.
    gapped = [text[0][:-1] + ".", text[1]]
    assert_error(submit(client, pack, 1, gapped), 400, "cell (4, 0) is not covered")
    assert_error(submit(client, pack, 1, placements(text)[1:]), 400, "is not covered")
    # Overlapping placements: one piece moved onto another.
    overlapping = placements(text)
    overlapping[0] = overlapping[1]
    assert_error(submit(client, pack, 1, overlapping), 400, "is covered by placements")
    assert_error(submit(client, pack, 1, [[[9, 9], [9, 10]]]), 400, "outside")
    # A piece split in two, a bad letter, a grid of the wrong size.
    split = ["".join("a" if ch == text[0][0] or ch == text[1][-1] else ch for ch in row)
             for row in text]
    assert_error(submit(client, pack, 1, split), 400, "solution")
    assert_error(submit(client, pack, 1, [text[0][:-1] + "!", text[1]]), 400, "'!'")
    assert_error(submit(client, pack, 1, text[:1]), 400, "1 rows")
    # Wrong level numbers and packs are 404; nothing above was recorded.
    assert_error(submit(client, pack, len(pack) + 1, text, token=start(client, pack, 1)),
                 404)
    assert_error(client.get(f"/api/leaderboard/{pack_id}/0"), 404)
    assert_error(client.post("/api/leaderboard/00ff/1", json={
        "name": "x", "token": start(client, pack, 1), "unlock": codes[0],
        "solution": text}), 404)
    assert client.get(f"/api/leaderboard/{pack_id}/1").json()["solves"] == 0


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, "tab\there", "new\nline"])
def test_bad_names_are_422(client, pack, name):
    data = assert_error(submit(client, pack, 1, rows(pack, 1), name=name), 422)
    assert data["where"] == "body.name"


@pytest.mark.parametrize("body", [{"seconds": -1}, {"seconds": 1e12}, {"solution": []},
                                  {"extra": 1}, {"solution": 5}, {"token": ""},
                                  {"token": "x" * 401}, {"token": None}])
def test_bad_bodies_are_422(client, pack, body):
    full = {"name": "Ada", "seconds": 3, "unlock": pack.first_code,
            "token": start(client, pack, 1), "solution": rows(pack, 1)} | body
    response = client.post(f"/api/leaderboard/{pack.salt.hex()}/1", json=full)
    assert_error(response, 422)


def test_a_name_of_40_characters_and_html_are_kept_verbatim(client, pack):
    names = ["é" * 40, "<script>alert('x')</script>"]
    for name in names:
        assert submit(client, pack, 1, rows(pack, 1), name=name).status_code == 200
    board = client.get(f"/api/leaderboard/{pack.salt.hex()}/1")
    assert board.json()["first"]["name"] == names[0]
    answer = submit(client, pack, 2, rows(pack, 2), name=names[1]).json()
    assert answer["first"]["name"] == names[1]
    assert client.get(f"/api/leaderboard/{pack.salt.hex()}/2").json()["first"]["name"] \
        == names[1]
    page = client.get(f"/triplex/{pack.salt.hex()}").text
    assert "<script>alert" not in page and "alert('x')" not in page
    # The page inserts names as text, never as HTML.
    game_js = (Path(__file__).parents[2] / "src" / "boardlab" / "web" / "static" / "triplex"
               / "game.js").read_text()
    assert "innerHTML" not in game_js and "insertAdjacentHTML" not in game_js


# -- rate limits -------------------------------------------------------------------------------

def test_progress_written_on_paper_is_checked_by_the_server(client, pack):
    url = f"/api/triplex/packs/{pack.salt.hex()}/progress"
    level2 = pack.code_after(1, pack.level(1))
    ok = client.post(url, json={"level": 2, "code": level2.lower()})
    assert ok.status_code == 200 and ok.json() == {"level": 2, "valid": True,
                                                    "levels": len(pack)}
    wrong = client.post(url, json={"level": 3, "code": level2})
    assert wrong.status_code == 200 and wrong.json()["valid"] is False
    assert client.post(url, json={"level": 2, "code": "!!"}).status_code == 400
    assert client.post(url, json={"level": 99, "code": level2}).status_code == 404
    assert client.post(url, json={"level": 2}).status_code in (400, 422)


def test_submissions_are_rate_limited_per_client(client, pack):
    for i in range(10):
        assert submit(client, pack, 1, ["aabbb", "ccddd"], name=f"p{i}").status_code == 400
    limited = assert_error(submit(client, pack, 1, rows(pack, 1), name="late"), 429,
                           "too many submissions")
    assert limited["where"] is None
    response = submit(client, pack, 1, rows(pack, 1), name="late")
    assert 1 <= int(response.headers["Retry-After"]) <= 60


def test_claims_under_a_name_never_block_its_genuine_solve(tmp_path, pack):
    """Issue 16: ten bogus claims under someone's name made their genuine solve get 429.
    Limits count the sender's address and the pack, never the name typed."""
    app = create_app(data_dir=data_folder(tmp_path / "data", pack))
    with TestClient(app, client=("198.51.100.7", 5000)) as mallory, \
            TestClient(app, client=("203.0.113.5", 5000)) as ada:
        clock_of(mallory)
        forged = start(mallory, pack, 1)
        for _ in range(10):
            assert_error(submit(mallory, pack, 1, ["aabbb", "ccddd"], name="Ada",
                                token=forged), 400, "solution")
        assert_error(submit(mallory, pack, 1, rows(pack, 1), name="ADA", token=forged), 429)
        genuine = submit(ada, pack, 1, rows(pack, 1), name="Ada", seconds=42)
        assert genuine.status_code == 200, genuine.text
        assert genuine.json()["became_first"] is True and genuine.json()["seconds"] == 42
        # Ada's address has a budget of its own; Mallory's stays spent.
        for _ in range(9):
            assert submit(ada, pack, 2, rows(pack, 2), name="Ada").status_code == 200
        assert_error(submit(mallory, pack, 2, rows(pack, 2), name="Ada"), 429)
    pack_id = pack.salt.hex()
    assert set(app.state.triplex.by_client._buckets) == {("198.51.100.7", pack_id),
                                                         ("203.0.113.5", pack_id)}


def test_a_token_bucket_refills():
    now = [0.0]
    limit = RateLimit(capacity=2, per_seconds=10, clock=lambda: now[0])
    for _ in range(2):
        assert limit.wait("k") == 0
        limit.take("k")
    assert limit.wait("k") == pytest.approx(5)
    now[0] = 5
    assert limit.wait("k") == 0 and limit.wait("other") == 0
    # A clock that steps back refills nothing and takes nothing away.
    limit.take("k")
    now[0] = -100
    assert limit.wait("k") == pytest.approx(5)


# -- the database ------------------------------------------------------------------------------

def test_the_migrations_upgrade_a_0001_database(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    upgrade(engine, "0001")
    assert current_revision(engine) == "0001"
    assert "triplex_solves" not in inspect(engine).get_table_names()
    engine.dispose()
    with open_store(url) as store:
        assert current_revision(store.engine) == head_revision()
        assert "triplex_solves" in inspect(store.engine).get_table_names()
        with store.engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), metadata()) == []
        add_solve(store, "ab", 1, "Ada", 12)
    with open_store(url) as store:
        assert level_board(store, "ab", 1).first.name == "Ada"


# -- in the browser ----------------------------------------------------------------------------

def moves_for(pack: Pack, n: int) -> list[tuple[int, tuple[int, int], str]]:
    """(piece index, top-left cell, shape key) for each piece of level n's solution, from
    the master pack (as in test_triplex_browser.py)."""
    puzzle = pack.unlock(n, pack.solve_chain()[n - 1])
    free = [i for i in range(len(puzzle.pieces)) if i not in puzzle.rotatable]
    moves, left = [], []
    for cells in placements(rows(pack, n)):
        shape = shape_of(cells)
        corner = (min(x for x, _ in cells), min(y for _, y in cells))
        key = " ".join(f"{x},{y}" for x, y in shape.cells)
        match = next((i for i in free if puzzle.pieces[i] == shape), None)
        if match is None:
            left.append((puzzle.rotatable[0], corner, key))
        else:
            free.remove(match)
            moves.append((match, corner, key))
    return moves + left


def wait_for_token(page, n: int, *, stopped: bool = False) -> None:
    """Wait until the page holds the server's start token of level n (it asks for it
    when the level opens), or a token the server stopped (a solve without a name)."""
    held = f"((window.triplexGame.state().levels[{n}] || {{}}).token || {{}}).token || ''"
    for _ in range(100):
        token = page.evaluate(held)
        if token and (not stopped or ".s" in token):
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the page never got a {'stopped' if stopped else 'start'} token "
                         f"for level {n}")


@pytest.fixture
def live_server(tmp_path, pack) -> Iterator[tuple[str, object]]:
    """The real app under uvicorn in a thread, on a free port, with a tmp data folder."""
    app = create_app(data_dir=data_folder(tmp_path / "data", pack))
    with serving(app) as url:
        yield url, app


@pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium at /usr/bin/chromium")
def test_solve_in_the_browser_and_become_first(live_server, pack, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    expect = sync_api.expect
    base, app = live_server
    artifacts = screenshots(tmp_path, "leaderboard")
    pack_id, puzzle = pack.salt.hex(), pack.unlock(1, pack.first_code)
    # Level 2 was solved by someone else three hours ago.
    add_solve(app.state.store, pack_id, 2, "Grace", 70,
              solved_at=datetime.now(UTC) - timedelta(hours=3, minutes=1))
    # The server's clock only moves when the test says: the player takes 40 s.
    clock = app.state.triplex.clock = Clock()
    name = "Ada <b>Lovelace</b>"
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            page = browser.new_context(locale="en-US", viewport={"width": 1100,
                                                                 "height": 900}).new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{base}/triplex/{pack_id}")
            page.wait_for_selector("#tray .piece")
            # The page's CSP forbids eval, so waits go through locators.
            expect(page.locator("#status")).to_have_text("online")
            assert "Nobody has solved this level yet." in page.inner_text("#leaderboard-text")
            page.fill("#player-name", name)
            page.dispatch_event("#player-name", "change")
            # Opening the level asked the server for its start token (kept with the level).
            wait_for_token(page, 1)
            clock.advance(40)
            for piece, target, key in moves_for(pack, 1):
                element = page.locator(f'.piece[data-piece="{piece}"]')
                for _ in range(8):
                    if element.get_attribute("data-shape") == key:
                        break
                    element.click()  # a tap turns the rotatable piece
                assert element.get_attribute("data-shape") == key
                drag(page, piece, target, puzzle.width)
            assert page.locator("#solved-panel").is_visible()
            expect(page.locator("#leaderboard-text")).to_contain_text("First solved by")
            text = page.inner_text("#leaderboard-text")
            assert f"First solved by {name}, just now." in text, text
            assert "median time 40 seconds" in text and "Best time 40 seconds." in text
            expect(page.locator("#message")).to_have_text(
                "The leaderboard recorded your solve: 40 seconds by the server's clock.")
            assert page.locator("#leaderboard-text b").count() == 0
            page.screenshot(path=str(artifacts / "1-first-solver.png"), full_page=True)

            with urllib.request.urlopen(f"{base}/api/leaderboard/{pack_id}/1") as answer:
                board = json.loads(answer.read())
            assert board["first"]["name"] == name and board["solves"] == 1
            assert board["median_seconds"] == 40 and board["timed"] == 1

            page.click("#next")
            # Opening level 2 shows level 2's board at once, and again after a reload.
            expect(page.locator("#leaderboard-text")).to_contain_text("Grace")
            page.reload()
            expect(page.locator("#leaderboard-text")).to_contain_text("Grace")
            assert "First solved by Grace, 3 hours ago." in page.inner_text(
                "#leaderboard-text")
            page.screenshot(path=str(artifacts / "2-level-2-ago.png"), full_page=True)
            assert errors == []

            # Another player solves level 1 before typing a name: the solve is sent when
            # the name is given.
            late = browser.new_context(locale="en-US", viewport={"width": 1100,
                                                                 "height": 900}).new_page()
            late.goto(f"{base}/triplex/{pack_id}")
            late.wait_for_selector("#tray .piece")
            for piece, target, key in moves_for(pack, 1):
                element = late.locator(f'.piece[data-piece="{piece}"]')
                for _ in range(8):
                    if element.get_attribute("data-shape") == key:
                        break
                    element.click()
                drag(late, piece, target, puzzle.width)
            assert late.locator("#solved-panel").is_visible()
            # The server verified the nameless solve and stopped its clock: the two
            # minutes Bob takes to type his name do not count.
            wait_for_token(late, 1, stopped=True)
            clock.advance(120)
            late.fill("#player-name", "Bob")
            late.dispatch_event("#player-name", "change")
            expect(late.locator("#leaderboard-text")).to_contain_text("Solved 2 times")
            # Bob's solve took no time on the server's clock: recorded, but too fast to
            # count for the times, and the page says so.
            expect(late.locator("#message")).to_contain_text("faster than a person")
            with urllib.request.urlopen(f"{base}/api/leaderboard/{pack_id}/1") as answer:
                board = json.loads(answer.read())
            assert board["solves"] == 2 and board["first"]["name"] == name
            assert board["suspect_solves"] == 1 and board["median_seconds"] == 40
        finally:
            browser.close()
