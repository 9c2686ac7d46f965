"""The lobby and the game pages in headless Chromium against the real server (uvicorn in a
thread, a temporary SQLite database): every registered game is listed, tic-tac-toe is
played to the end against the random bot by clicking cells, a reload resumes the match,
a Breakthrough piece moves by select-and-click, Abalone draws 61 hexagons and grows a
shift-clicked trailing marble to the pushed line through the server's closure, and a
quantum tic-tac-toe placement is played through the notation input. Screenshots go to
$BOARDLAB_ARTIFACTS/games (or the test's tmp folder) for a human to look at.

What counts as legal comes from the API (the match's legal moves), never from the page.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from boardlab.core.registry import names
from boardlab.web.app import create_app
from tests.web.conftest import (
    CHROMIUM,
    KEY,
    bearer,
    screenshots,
    serving,
    watched_page,
)

browser_only = pytest.mark.skipif(not CHROMIUM.exists(),
                                  reason="no Chromium at /usr/bin/chromium to drive headless")
HUMAN = {"type": "human"}
RANDOM_BOT = {"type": "bot", "bot": "random", "seed": 7}


# --- the pages as the server sends them ------------------------------------------------------
def test_the_game_page_and_its_scripts_are_served_without_network(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}")) as client:
        page = client.get("/game", params={"match": "x"})
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert client.get("/static/game.html").text == page.text
        for path in ("/static/js/board.js", "/static/js/game.js", "/static/css/app.css",
                     "/"):
            response = client.get(path)
            assert response.status_code == 200, path
            # the SVG namespace is a name, not a fetch
            text = response.text.replace("http://www.w3.org/2000/svg", "")
            assert "http://" not in text and "https://" not in text, path
        assert "javascript" in client.get("/static/js/game.js").headers["content-type"]


# --- the browser -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("games-server")
    with serving(create_app(f"sqlite:///{folder / 'web.db'}")) as url:
        yield url


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    return screenshots(tmp_path_factory.mktemp("shots"), "games")


@pytest.fixture
def page(browser, server):
    with watched_page(browser, server) as opened:
        yield opened


def api(server: str):
    import httpx
    return httpx.Client(base_url=server, timeout=20, headers=bearer(KEY))


def new_match(server: str, game: str, players: list) -> str:
    with api(server) as client:
        response = client.post("/api/matches", json={"game": game, "players": players})
        assert response.status_code == 201, response.text
        return response.json()["id"]


def match_view(server: str, match_id: str) -> dict:
    with api(server) as client:
        return client.get(f"/api/matches/{match_id}").json()


def open_game(page, match_id: str) -> None:
    page.goto(f"{page.base}/game?match={match_id}")
    page.wait_for_selector("body[data-ready='1']")


def cell(page, name: str):
    return page.locator(f"svg.board [data-cell='{name}']")


@browser_only
def test_the_lobby_lists_every_game_and_starts_tic_tac_toe_against_a_bot(page, shots):
    page.goto(page.base + "/")
    page.wait_for_selector("#games tr[data-game]")
    listed = page.locator("#games tr[data-game]").evaluate_all(
        "rows => rows.map(r => r.dataset.game)")
    assert listed == names()
    page.screenshot(path=str(shots / "lobby.png"), full_page=True)
    row = page.locator("#games tr[data-game='tic-tac-toe']")
    row.get_by_role("button", name="rules").click()
    page.wait_for_selector("#rules[open]")  # the rules arrive from the server after the click
    assert "Tic-tac-toe" in page.locator("#rules-text").inner_text()
    page.screenshot(path=str(shots / "lobby-rules.png"))
    page.locator("#rules button").click()
    row.locator("button.new-game").click()
    page.select_option("#player-1", "random")
    page.screenshot(path=str(shots / "lobby-new-game.png"))
    page.locator("#start").click()
    page.wait_for_url("**/game?match=*")
    page.wait_for_selector("body[data-ready='1']")
    match_id = page.url.split("match=")[1]
    assert match_view(page.base, match_id)["players"] == [HUMAN, {"type": "bot",
                                                                  "bot": "random"}]

    resumed = False
    for _ in range(9):
        view = wait_for_human_or_end(page, match_id)
        if view["outcome"] is not None:
            break
        if view["moves"] and not resumed:
            # reload mid-game: the same position comes back, from the URL
            page.reload()
            page.wait_for_selector("body[data-ready='1']")
            pieces = page.locator("svg.board .piece").evaluate_all(
                "ps => ps.map(p => p.dataset.piece + p.dataset.kind).sort()")
            assert pieces == sorted(f"{n}{c['kind']}" for n, c in view["view"]["cells"].items())
            assert page.locator("#moves li").count() == len(view["moves"])
            assert page.evaluate("localStorage.getItem('boardlab.lastMatch')") == match_id
            page.screenshot(path=str(shots / "tic-tac-toe-resumed.png"))
            resumed = True
        target = view["legal_moves"][0]["notation"]
        cell(page, target).click()
        page.wait_for_function(
            "n => document.querySelectorAll('#moves li').length > n", arg=len(view["moves"]))
    view = wait_for_human_or_end(page, match_id)
    assert view["outcome"] is not None and resumed
    page.wait_for_selector("#outcome:not([hidden])")
    assert "Game over" in page.locator("#outcome").inner_text()
    page.screenshot(path=str(shots / "tic-tac-toe-over.png"), full_page=True)
    with page.expect_download() as download:
        page.locator("#record").click()
    assert download.value.suggested_filename.startswith("tic-tac-toe-")


def wait_for_human_or_end(page, match_id: str) -> dict:
    """The match once the bot has answered: X to move again or the game over, with the
    page showing every move."""
    deadline = time.monotonic() + 60
    while True:
        view = match_view(page.base, match_id)
        if view["outcome"] is not None or view["to_move"] == 0:
            page.wait_for_function("n => document.querySelectorAll('#moves li').length === n",
                                   arg=len(view["moves"]))
            page.wait_for_function("() => !document.querySelector('#status.thinking')")
            return view
        assert time.monotonic() < deadline, "the bot did not answer"
        time.sleep(0.05)


@browser_only
def test_breakthrough_moves_a_selected_piece_to_a_highlighted_target(page, shots):
    match_id = new_match(page.base, "breakthrough", [HUMAN, HUMAN])
    open_game(page, match_id)
    assert page.locator("svg.board [data-cell]").count() == 64
    assert page.locator("svg.board rect.cell-shape").count() == 64
    assert page.locator("svg.board .piece").count() == 32
    cell(page, "b2").click()
    targets = page.locator("svg.board .cell.target").evaluate_all(
        "cs => cs.map(c => c.dataset.cell).sort()")
    legal = {m["to"][0] for m in match_view(page.base, match_id)["legal_moves"]
             if m["from"] == ["b2"]}
    assert targets == sorted(legal) and "b3" in targets
    page.screenshot(path=str(shots / "breakthrough-selected.png"))
    cell(page, "b3").click()
    page.wait_for_selector("#moves li")
    view = match_view(page.base, match_id)
    assert view["moves"] == ["b2-b3"]
    assert page.locator("svg.board [data-piece='b3'][data-owner='0']").count() == 1
    assert page.locator("svg.board [data-piece='b2']").count() == 0
    page.screenshot(path=str(shots / "breakthrough.png"))
    # undo takes it back
    page.locator("#undo").click()
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 0")
    assert match_view(page.base, match_id)["moves"] == []


@browser_only
def test_abalone_draws_61_hexagons_and_grows_a_trailing_marble_by_closure(page, shots):
    match_id = new_match(page.base, "abalone", [HUMAN, HUMAN])
    open_game(page, match_id)
    assert page.locator("svg.board polygon.cell-shape.hex").count() == 61
    assert page.locator("svg.board[data-kind='hex']").count() == 1
    # a1 at the bottom left, i9 at the top right
    a1 = cell(page, "a1").bounding_box()
    i9 = cell(page, "i9").bounding_box()
    assert a1["y"] > i9["y"] and a1["x"] < i9["x"]
    cell(page, "c3").click(modifiers=["Shift"])
    page.wait_for_selector("svg.board .cell.selected[data-cell='c3']")
    assert cell(page, "c4").get_attribute("class").split().count("target") == 1
    page.screenshot(path=str(shots / "abalone-trailing.png"))
    # pushing the line c3-c4-c5 forward: the server's closure grows the selection
    cell(page, "c4").click()
    page.wait_for_function("() => document.querySelectorAll("
                           "'svg.board .cell.selected').length === 3")
    selected = page.locator("svg.board .cell.selected").evaluate_all(
        "cs => cs.map(c => c.dataset.cell).sort()")
    assert selected == ["c3", "c4", "c5"]
    assert page.locator("#chooser button[data-notation='c3c4']").count() == 1
    page.screenshot(path=str(shots / "abalone-closure.png"))
    cell(page, "c4").click()
    page.wait_for_selector("#moves li")
    assert match_view(page.base, match_id)["moves"] == ["c3c4"]
    assert page.locator("svg.board [data-piece='c6'][data-owner='0']").count() == 1
    page.screenshot(path=str(shots / "abalone.png"))


@browser_only
def test_quantum_tic_tac_toe_placement_by_notation_and_spooky_marks(page, shots):
    match_id = new_match(page.base, "quantum-tic-tac-toe", [HUMAN, HUMAN])
    open_game(page, match_id)
    page.fill("#notation", "1-2")
    page.locator("#notation-form button").click()
    page.wait_for_selector("#moves li")
    assert match_view(page.base, match_id)["moves"] == ["X1:1-2"]
    marks = page.locator("svg.board .spooky-mark").evaluate_all(
        "ms => ms.map(m => m.closest('[data-cell]').dataset.cell + m.dataset.label).sort()")
    assert marks == ["1X1", "2X1"]
    # a placement by clicking its two squares, then the collapse from the chooser
    cell(page, "1").click()
    assert page.locator("#chooser button.move").count() == 8
    cell(page, "2").click()
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 2")
    assert page.locator("svg.board .spooky-mark.pending").count() == 2
    page.screenshot(path=str(shots / "quantum-tic-tac-toe-pending.png"))
    page.fill("#notation", "→1")
    page.locator("#notation-form button").click()
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 3")
    kinds = page.locator("svg.board .piece").evaluate_all(
        "ps => ps.map(p => p.dataset.piece + p.dataset.kind).sort()")
    assert kinds == ["1O2", "2X1"]
    page.screenshot(path=str(shots / "quantum-tic-tac-toe.png"))
    # undo the collapse, then collapse the other way by clicking the square
    page.locator("#undo").click()
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 2")
    cell(page, "2").click()
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 3")
    assert match_view(page.base, match_id)["moves"][-1] == "→2"
    assert page.locator("svg.board [data-piece='2'][data-kind='O2']").count() == 1


@browser_only
@pytest.mark.parametrize("game", ["tic-tac-toe-3d", "nine-mens-morris",
                                  "hex-column-checkers", "connect-four"])
def test_other_board_kinds_draw_from_the_model(page, shots, game):
    players = [HUMAN] * len(match_view_players(page.base, game))
    match_id = new_match(page.base, game, players)
    open_game(page, match_id)
    view = match_view(page.base, match_id)
    with api(page.base) as client:
        board = client.get(f"/api/games/{game}").json()["board"]
    assert page.locator("svg.board [data-cell]").count() == len(board["cells"])
    assert page.locator("svg.board .piece").count() == len(view["view"]["cells"])
    if board["kind"] == "grid3d":
        assert page.locator("svg.board .panel-name").count() == 3
    if board["kind"] == "graph":
        assert page.locator("svg.board line.edge").count() > 0
    # every game can be played from the page: the first legal move through the list
    first = view["legal_moves"][0]["notation"]
    page.locator("#all-moves summary").click()
    page.locator(f"#legal-list button[data-notation='{first}']").click()
    page.wait_for_selector("#moves li")
    assert match_view(page.base, match_id)["moves"] == [first]
    page.screenshot(path=str(shots / f"{game}.png"))


def match_view_players(server: str, game: str) -> list[str]:
    with api(server) as client:
        return client.get(f"/api/games/{game}").json()["players"]


@browser_only
def test_a_thinking_bot_leaves_the_page_responsive(page, shots):
    # The bot thinks for 3 s on the server; the page must handle input meanwhile: the
    # click and the script below complete while the bot's move is still pending.
    match_id = new_match(page.base, "connect-four",
                         [{"type": "bot", "bot": "mcts", "time": 3.0, "seed": 1}, HUMAN])
    open_game(page, match_id)
    page.wait_for_selector("#status.thinking")
    assert "thinking…" in page.locator("#status").inner_text()
    assert page.locator("#undo").is_disabled()
    page.locator("#all-moves summary").click()
    assert page.evaluate("1 + 1") == 2
    assert page.locator("#status.thinking").count() == 1, "the page waited for the bot"
    assert len(match_view(page.base, match_id)["moves"]) == 0
    page.screenshot(path=str(shots / "connect-four-thinking.png"))
    page.wait_for_selector("#moves li", timeout=10_000)
    page.wait_for_function("() => !document.querySelector('#status.thinking')")
    assert len(match_view(page.base, match_id)["moves"]) == 1
    assert "to move" in page.locator("#status").inner_text()


@browser_only
def test_hex_column_checkers_draws_the_height_of_a_column(page, shots):
    match_id = new_match(page.base, "hex-column-checkers", [HUMAN, HUMAN])
    with api(page.base) as client:
        url = f"/api/matches/{match_id}"
        view = client.get(url).json()
        for _ in range(60):
            captures = [m for m in view["legal_moves"] if "x" in m["notation"]]
            move = (captures or view["legal_moves"])[0]
            view = client.post(f"{url}/moves", json={"move": move["notation"]}).json()
            if captures:
                break
        else:
            pytest.fail("no capture in 60 plies")
    columns = {name: len(c["column"]) for name, c in view["view"]["cells"].items()
               if len(c["column"]) > 1}
    open_game(page, match_id)
    drawn = page.locator("svg.board .column").evaluate_all(
        "cs => cs.map(c => [c.closest('[data-cell]').dataset.cell, +c.dataset.height])")
    assert dict(drawn) == columns and columns
    page.screenshot(path=str(shots / "hex-column-checkers-column.png"))


@browser_only
def test_every_registered_game_draws_its_board_and_pieces(page, shots):
    for game in names():
        with api(page.base) as client:
            info = client.get(f"/api/games/{game}").json()
        match_id = new_match(page.base, game, [HUMAN] * len(info["players"]))
        open_game(page, match_id)
        view = match_view(page.base, match_id)
        cells = len(info["board"]["cells"]) if info["board"] else 0
        assert page.locator("svg.board [data-cell]").count() == cells, game
        assert page.locator("svg.board .piece").count() == len(view["view"]["cells"]), game
        assert page.locator("#legal-count").inner_text() == str(len(view["legal_moves"]))
        page.screenshot(path=str(shots / f"start-{game}.png"))


@browser_only
def test_overlaid_layers_are_drawn_as_panels_for_square_and_hex_boards(page):
    # No registered game has a layered board yet; the layout is the page's own module,
    # run on the geometry the API would send for Board.layered boards.
    from boardlab.core.board import Board
    from boardlab.web.views import board_json

    page.goto(page.base + "/static/game.html")
    for board in (Board.square(3, 2).layered(["lo", "hi"]),
                  Board.hexagon(2).layered(["lo", "mid", "hi"])):
        geometry = board_json(board)
        laid = page.evaluate(
            "async (b) => (await import('/static/js/board.js')).layout(b)", geometry)
        assert [p["name"] for p in laid["panels"]] == list(board.layer_names)
        per_layer = board.size // len(board.layer_names)
        for k, layer in enumerate(board.layer_names):
            cells = laid["cells"][k * per_layer:(k + 1) * per_layer]
            assert {c["panel"] for c in cells} == {layer}
            panel = laid["panels"][k]
            assert all(panel["x"] <= c["x"] <= panel["x"] + panel["width"] for c in cells)
        # the same cell of two layers lies side by side, one panel apart
        assert laid["cells"][per_layer]["x"] > laid["cells"][0]["x"]
        assert laid["cells"][per_layer]["y"] == laid["cells"][0]["y"]


@browser_only
def test_an_unknown_match_says_so_and_offers_no_controls(page):
    page.goto(f"{page.base}/game?match={'0' * 32}")
    page.wait_for_selector("body[data-failed='1']")
    assert page.locator("#title").inner_text() == "no match"
    assert "no match" in page.locator("#error").inner_text()
    assert page.locator("#undo").is_disabled() and page.locator("#notation").is_disabled()
    # the page's request for the match answered 404: the one console error it should cause
    assert [p for p in page.problems if "404" in p] != []
    page.problems[:] = [p for p in page.problems if "404" not in p]


# --- boards as their games are known, and where a player naturally clicks ----------------
HUMANS = [HUMAN, HUMAN]


def moves_shown(page) -> list[str]:
    return page.locator("#moves li").evaluate_all("items => items.map(i => i.innerText)")


def wait_for_moves(page, n: int) -> None:
    page.locator(f"#moves li:nth-child({n})").wait_for()


@browser_only
def test_a_connect_four_disc_drops_into_the_column_clicked_anywhere(page, shots):
    match_id = new_match(page.base, "connect-four", HUMANS)
    open_game(page, match_id)
    board = page.locator("svg.board")
    assert board.get_attribute("data-style") == "columns"
    assert page.locator("svg.board .backdrop.columns").count() == 1
    assert page.locator("svg.board circle.cell-shape.hole").count() == 42
    # the top of column d, where a player reaches for it; the disc falls to d1
    cell(page, "d6").click()
    wait_for_moves(page, 1)
    cell(page, "d4").click()
    wait_for_moves(page, 2)
    assert moves_shown(page) == ["d", "d"]
    assert page.locator("svg.board [data-piece='d1'][data-owner='0']").count() == 1
    assert page.locator("svg.board [data-piece='d2'][data-owner='1']").count() == 1
    # X and O name no colour: red and yellow discs, the seat swatches alike
    fills = [page.locator(f"svg.board [data-piece='{c}'] circle").first.get_attribute("fill")
             for c in ("d1", "d2")]
    assert fills == ["#c0392b", "#f2c230"]
    swatches = page.locator("#players .swatch").evaluate_all(
        "s => s.map(e => getComputedStyle(e).backgroundColor)")
    assert swatches == ["rgb(192, 57, 43)", "rgb(242, 194, 48)"]
    # the last move is ringed (its hole hides any tint)
    assert page.locator("svg.board [data-cell='d2'] .last-mark").count() == 1
    page.screenshot(path=str(shots / "connect-four.png"))


@browser_only
def test_a_move_shown_by_the_live_push_before_its_answer_frees_the_board(page):
    # A loaded server: the answer to the POST of a move comes after the live push that
    # shows it. The board then shows the other side to move, and its click must count.
    page.add_init_script("""
        const real = window.fetch;
        window.fetch = async (url, options) => {
          const answer = await real(url, options);
          if (options && options.method === "POST" && String(url).endsWith("/moves")) {
            await new Promise((done) => setTimeout(done, 3000));
          }
          return answer;
        };
    """)
    match_id = new_match(page.base, "connect-four", HUMANS)
    open_game(page, match_id)
    cell(page, "d6").click()
    wait_for_moves(page, 1)
    cell(page, "e6").click()
    page.locator("#moves li:nth-child(2)").wait_for(timeout=2500)
    assert moves_shown(page) == ["d", "e"]


@browser_only
def test_a_gess_piece_moves_by_its_centre_as_the_notation_names_it(page, shots):
    match_id = new_match(page.base, "gess", HUMANS)
    open_game(page, match_id)
    assert page.locator("svg.board").get_attribute("data-style") == "intersections"
    assert page.locator("svg.board line.grid-line").count() == 2 * 20 * 19
    # b2 holds no stone; it is the centre of the footprint that b2-b3 moves
    assert page.locator("svg.board [data-piece='b2']").count() == 0
    cell(page, "b2").click()
    targets = page.locator("svg.board .cell.target").evaluate_all(
        "cells => cells.map(c => c.dataset.cell).sort()")
    legal = sorted(m["arrow"][1] for m in match_view(page.base, match_id)["legal_moves"]
                   if m["arrow"][0] == "b2")
    assert targets == legal and "b3" in targets
    cell(page, "b3").click()
    wait_for_moves(page, 1)
    assert moves_shown(page) == ["b2-b3"]
    # black is dark and moves first; the stones the footprint carried are on b4 and c4
    stone = page.locator("svg.board [data-piece='c4'] circle.stone")
    assert stone.get_attribute("fill") == "#262626"
    page.screenshot(path=str(shots / "gess.png"))


@browser_only
@pytest.mark.parametrize("game", ["othello", "abalone"])
def test_the_player_called_black_gets_dark_pieces(page, game):
    match_id = new_match(page.base, game, HUMANS)
    view = match_view(page.base, match_id)
    open_game(page, match_id)
    black = view["player_names"].index("black")
    cells = [c for c, p in view["view"]["cells"].items() if p["owner"] == black]
    fill = page.locator(f"svg.board [data-piece='{cells[0]}'] circle").first.get_attribute("fill")
    assert fill == "#262626"
    # Othello's discs are not lettered "B" and "W": the colour says it
    assert page.locator("svg.board .piece-label").count() == 0


@browser_only
def test_dragging_across_marbles_selects_them_and_the_moves_show_as_arrows(page, shots):
    match_id = new_match(page.base, "abalone", HUMANS)
    open_game(page, match_id)
    assert page.locator("#group-help").is_visible()

    def centre(name):
        box = cell(page, name).bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    page.mouse.move(*centre("c3"))
    page.mouse.down()
    page.mouse.move(*centre("c4"), steps=6)
    page.mouse.up()
    page.wait_for_selector("svg.board .arrow")
    selected = page.locator("svg.board .cell.selected").evaluate_all(
        "cells => cells.map(c => c.dataset.cell).sort()")
    assert selected == ["c3", "c4"]
    with api(page.base) as client:
        exact = client.post(f"/api/matches/{match_id}/group-moves",
                            json={"group": ["c3", "c4"]}).json()["moves"]
    arrows = page.locator("svg.board .arrow")
    assert arrows.count() == len(exact) > 1
    # the list beside the board says where pieces go, not the raw notation
    labels = page.locator("#chooser-moves button").evaluate_all(
        "bs => bs.map(b => b.innerText)")
    assert all("\u2192" in label for label in labels), labels
    page.screenshot(path=str(shots / "abalone-arrows.png"))
    chosen = arrows.nth(0)
    notation = exact[0]["notation"]
    chosen.click()
    wait_for_moves(page, 1)
    assert moves_shown(page) == [notation]


@browser_only
def test_tic_tac_toe_is_played_with_the_keyboard_and_the_last_move_survives_a_reload(page):
    match_id = new_match(page.base, "tic-tac-toe", HUMANS)
    open_game(page, match_id)
    assert page.locator("svg.board [data-cell][tabindex='0']").count() == 1
    page.locator("svg.board [data-cell][tabindex='0']").focus()
    first = page.evaluate("document.activeElement.dataset.cell")
    assert first == "a1"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.dataset.cell") == "b2"
    page.keyboard.press("Enter")
    wait_for_moves(page, 1)
    assert moves_shown(page) == ["b2"]
    # X is written as a cross, not a lettered disc
    assert page.locator("svg.board [data-piece='b2'] path.mark.x").count() == 1
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("svg.board .cell.last[data-cell='b2']")
    assert cell(page, "b2").get_attribute("aria-label").startswith("b2")
