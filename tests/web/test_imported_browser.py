"""An imported game in headless Chromium against the real server: the lobby lists the
rule files of the games folder in their own section, with the file that failed and its
reason; an imported chess game is started from the lobby, its board drawn from the rule
file's rectangles, a move played by clicking a piece and a highlighted target, the bot's
reply shown, and a reload resumes it. At a phone's width (390 px) neither page scrolls
sideways. Screenshots go to $BOARDLAB_ARTIFACTS/imported (or the test's tmp folder).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardlab.web.app import create_app
from tests.web.conftest import CHROMIUM, screenshots, serving, sideways_scroll
from tests.web.test_library import CORPUS, MALFORMED

browser_only = pytest.mark.skipif(not CHROMIUM.exists(),
                                  reason="no Chromium at /usr/bin/chromium to drive headless")


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("imported-server")
    folder = root / "games"
    (folder / "chess").mkdir(parents=True)
    shutil.copy(CORPUS / "chess" / "chess.zrf", folder / "chess" / "chess.zrf")
    (folder / "broken.zrf").write_text(MALFORMED, encoding="utf-8")
    app = create_app(f"sqlite:///{root / 'web.db'}", games_dir=folder)
    with serving(app) as url:
        assert app.state.library.wait(120)
        yield url


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    return screenshots(tmp_path_factory.mktemp("shots"), "imported")


def open_page(browser, server: str, width: int):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("request", lambda r: None if r.url.startswith(server) or r.url.startswith("data:")
            else page.errors.append(f"outside request {r.url}"))
    return context, page


@browser_only
def test_an_imported_chess_game_is_drawn_from_its_file_and_played_by_clicking(
        browser, server, shots):
    context, page = open_page(browser, server, 1200)
    page.goto(server + "/")
    row = page.locator('#imported-games tr[data-game="zrf:chess/chess"]')
    row.wait_for()
    assert row.locator("td").nth(0).inner_text() == "Chess"
    assert row.locator("td").nth(2).inner_text() == "chess/chess.zrf"
    # the registered games keep their own table; the failed file is listed with its reason
    assert page.locator('#games tr[data-game="zrf:chess/chess"]').count() == 0
    failed = page.locator('#failed-files li[data-file="broken.zrf"]')
    assert "broken.zrf:5:3: unsupported game statement 'wibble'" in failed.inner_text()
    page.screenshot(path=str(shots / "lobby.png"), full_page=True)

    row.locator("button.new-game").click()
    assert page.locator("#setup-variant option").count() == 5
    page.select_option("#player-1", "random")
    page.click("#start")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#title").inner_text() == "Chess"
    board = page.locator("#board svg.board")
    assert board.get_attribute("data-kind") == "zrf"
    assert page.locator("#board .cell").count() == 64
    assert page.locator("#board .piece").count() == 32
    # chess's own figures, the file's players' colours: White light, Black dark
    figures = {cell: page.locator(f'#board .piece[data-piece="{cell}"] text').text_content()
               for cell in ("e1", "d1", "a1", "b1", "c1", "e2", "e8")}
    assert figures == {"e1": "\u265a", "d1": "\u265b", "a1": "\u265c", "b1": "\u265e",
                       "c1": "\u265d", "e2": "\u265f", "e8": "\u265a"}
    fills = [page.locator(f'#board .piece[data-piece="{cell}"] text').get_attribute("fill")
             for cell in ("e1", "e8")]
    assert fills == ["#f7f3e8", "#262626"]
    # a8 is the file's top left rectangle, h1 its bottom right one
    a8 = page.locator('#board .cell[data-cell="a8"] rect').bounding_box()
    h1 = page.locator('#board .cell[data-cell="h1"] rect').bounding_box()
    assert a8["x"] < h1["x"] and a8["y"] < h1["y"]

    page.locator('#board .cell[data-cell="e2"]').click()
    targets = page.locator("#board .cell.target")
    assert sorted(targets.evaluate_all("cells => cells.map(c => c.dataset.cell)")) == \
        ["e3", "e4"]
    page.screenshot(path=str(shots / "selected.png"))
    page.locator('#board .cell[data-cell="e4"]').click()
    # A function, not an expression: the page's policy forbids eval.
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 2")
    assert page.locator("#moves li").first.inner_text() == "e2-e4"
    assert page.locator('#board .piece[data-piece="e4"]').get_attribute("data-owner") == "0"
    page.screenshot(path=str(shots / "played.png"))

    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#moves li").count() == 2
    assert page.locator('#board .piece[data-piece="e4"]').count() == 1
    assert page.errors == []
    context.close()


@browser_only
def test_the_lobby_and_an_imported_game_fit_a_phone(browser, server, shots):
    context, page = open_page(browser, server, 390)
    page.goto(server + "/")
    page.locator('#imported-games tr[data-game="zrf:chess/chess"]').wait_for()
    page.locator('#failed-files li[data-file="broken.zrf"]').wait_for()
    assert sideways_scroll(page) == 0
    page.screenshot(path=str(shots / "lobby-phone.png"), full_page=True)
    page.locator('#imported-games tr[data-game="zrf:chess/chess"] button.new-game').click()
    page.select_option("#setup-variant", "zrf:chess/chess@2")
    page.select_option("#player-1", "human")
    page.click("#start")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#title").inner_text() == "Chess: Charge of the Light Brigade"
    assert page.locator("#board .cell").count() == 64
    assert sideways_scroll(page) == 0
    page.screenshot(path=str(shots / "game-phone.png"), full_page=True)
    assert page.errors == []
    context.close()
