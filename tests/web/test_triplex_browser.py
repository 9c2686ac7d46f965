"""The Triplex offline page in headless Chromium: solve level 1 by dragging with the mouse,
turn the rotatable piece by clicking it, see the code, reload and find the progress, switch
to Russian, and make no network request. Screenshots go to $BOARDLAB_ARTIFACTS (or the test's
tmp folder) for a human to look at.

Where each piece goes comes from the master pack the test generates (its solutions), not from
the page.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardlab.puzzles.polyomino.generator import generate_levels
from boardlab.puzzles.polyomino.pack import Pack
from boardlab.puzzles.polyomino.shapes import Shape
from boardlab.web.triplex import export_html
from tests.web.conftest import CHROMIUM, drag, screenshots

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason="no Chromium at /usr/bin/chromium to drive headless")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


def shape_key(cells) -> str:
    """The page's data-shape: normalised cells, row-major, as "x,y x,y"."""
    return " ".join(f"{x},{y}" for x, y in Shape.of(cells).cells)


def moves_for(pack: Pack, n: int) -> list[tuple[int, tuple[int, int], str]]:
    """(piece index, top-left cell, shape key) for each piece of level n's solution."""
    puzzle = pack.unlock(n, pack.solve_chain()[n - 1])
    rows = pack.level(n).solution_checksum().decode().split("/")
    regions: dict[str, list[tuple[int, int]]] = {}
    for y, row in enumerate(rows):
        for x, letter in enumerate(row):
            regions.setdefault(letter, []).append((x, y))
    free = [i for i in range(len(puzzle.pieces)) if i not in puzzle.rotatable]
    moves, left = [], []
    for cells in regions.values():
        shape = Shape.of(cells)
        match = next((i for i in free if puzzle.pieces[i] == shape), None)
        if match is None:
            left.append(cells)
            continue
        free.remove(match)
        moves.append((match, (min(x for x, _ in cells), min(y for _, y in cells)),
                      shape_key(cells)))
    for cells in left:  # the rotatable piece, possibly in another orientation
        (turning,) = puzzle.rotatable
        assert Shape.of(cells) in puzzle.pieces[turning].orientations()
        moves.append((turning, (min(x for x, _ in cells), min(y for _, y in cells)),
                      shape_key(cells)))
    return moves


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("triplex")
    levels = generate_levels([(4, 2), (3, 3), (5, 2), (4, 3)], "triplex", seed=0,
                             backend="serial")
    # Level 1 first whose rotatable piece is shown in another orientation than it is
    # placed, so solving it needs a click on the piece.
    first = next(lv for lv in levels if lv.rotatable and lv.shown_orientation[0])
    pack = Pack.build([first, *(lv for lv in levels if lv is not first)], b"browser test",
                      "triplex", name="Browser test")
    pack.save(folder / "pack.master.json", with_solutions=True)
    pack.public().save(folder / "pack.json")
    page_file = export_html(folder / "pack.json", folder / "triplex.html")
    return pack, page_file


@pytest.fixture
def artifacts(tmp_path) -> Path:
    return screenshots(tmp_path, "triplex")


def test_solve_level_1_by_dragging_reload_and_russian(game, artifacts):
    pack, page_file = game
    codes = pack.solve_chain()
    puzzle = pack.unlock(1, codes[0])
    requests: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            context = browser.new_context(locale="en-US", viewport={"width": 1100,
                                                                    "height": 800})
            page = context.new_page()
            errors: list[str] = []
            page.on("request", lambda r: requests.append(r.url))
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(page_file.as_uri())
            page.wait_for_selector("#tray .piece")
            assert page.inner_text("#level-title") == f"Level 1 of {len(pack)}"
            assert page.inner_text("#this-code") == codes[0]
            assert page.inner_text("#status") == "offline"
            page.screenshot(path=str(artifacts / "1-start.png"), full_page=True)

            moves = moves_for(pack, 1)
            # Dropped off the board, a piece goes back to the tray.
            piece, _, _ = moves[0]
            # (right of the board by a few cells: a cell index past the row's end would
            # wrap onto the board's next row, where the piece may fit)
            square = page.locator(f'.piece[data-piece="{piece}"] .square').first.bounding_box()
            board = page.locator("#board").bounding_box()
            page.mouse.move(square["x"] + square["width"] / 2, square["y"] + square["height"] / 2)
            page.mouse.down()
            page.mouse.move(board["x"] + board["width"] + 3 * square["width"],
                            board["y"] + square["height"] / 2, steps=8)
            page.mouse.up()
            assert page.locator(f'#tray .piece[data-piece="{piece}"]').count() == 1
            for piece, target, key in moves:
                element = page.locator(f'.piece[data-piece="{piece}"]')
                for _ in range(8):
                    if element.get_attribute("data-shape") == key:
                        break
                    element.click()  # a tap turns the rotatable piece
                assert element.get_attribute("data-shape") == key
                assert page.locator("#solved-panel").is_hidden()
                drag(page, piece, target, puzzle.width)
                assert page.locator(f'#board .piece[data-piece="{piece}"]').count() == 1
            # Solved at once, without any further click.
            assert page.locator("#solved-panel").is_visible()
            assert page.inner_text("#next-code") == codes[1]
            assert "Code of level 2" in page.inner_text("#next-code-label")
            assert page.inner_text("#solved-count") == "1 level solved"
            page.screenshot(path=str(artifacts / "2-solved.png"), full_page=True)

            page.reload()
            page.wait_for_selector("#board .piece")
            assert page.locator("#board .piece").count() == len(puzzle.pieces)
            assert page.inner_text("#next-code") == codes[1]
            level_2 = page.locator('.level-button[data-level="2"]')
            assert level_2.is_enabled() and "not solved yet" in level_2.inner_text()
            saved = page.evaluate("JSON.stringify(window.triplexGame.state())")
            assert json.loads(saved)["levels"]["2"]["code"] == codes[1]
            page.screenshot(path=str(artifacts / "3-reloaded.png"), full_page=True)

            level_2.click()
            assert page.inner_text("#level-title") == f"Level 2 of {len(pack)}"
            assert page.locator("#tray .piece").count() == len(pack.level(2).pieces)
            page.select_option("#language", "ru")
            assert page.inner_text("#level-title") == f"Уровень 2 из {len(pack)}"
            assert page.inner_text("#solved-count") == "1 уровень решён"
            assert page.inner_text("#status") == "не в сети"
            assert page.evaluate("document.documentElement.lang") == "ru"
            page.screenshot(path=str(artifacts / "4-russian.png"), full_page=True)

            # Restoring on "another device": a wrong code is refused with a clear message.
            fresh = browser.new_context(locale="de-DE").new_page()
            fresh.on("request", lambda r: requests.append(r.url))
            fresh.goto(page_file.as_uri())
            assert fresh.inner_text("#level-title") == f"Level 1 von {len(pack)}"
            fresh.fill("#restore-level", "2")
            fresh.fill("#restore-code", "0000-0000")
            fresh.click("#restore-form button")
            assert fresh.inner_text("#message") == "Dieser Code schaltet Level 2 nicht frei."
            fresh.fill("#restore-code", codes[1].lower().replace("-", " "))
            fresh.click("#restore-form button")
            assert fresh.inner_text("#level-title") == f"Level 2 von {len(pack)}"
            assert fresh.inner_text("#solved-count") == "1 Level gelöst"
            fresh.screenshot(path=str(artifacts / "5-restored-de.png"), full_page=True)

            page.reload()
            assert page.inner_text("#level-title") == f"Уровень 2 из {len(pack)}"
            assert errors == []
        finally:
            browser.close()
    assert requests and all(url.startswith(("file:", "data:")) for url in requests), requests


def test_touch_tap_turns_and_touch_drag_places(game, artifacts):
    pack, page_file = game
    puzzle = pack.unlock(1, pack.first_code)
    piece, target, key = next(m for m in moves_for(pack, 1) if m[0] in puzzle.rotatable)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            context = browser.new_context(has_touch=True, is_mobile=True, locale="fr-FR",
                                          viewport={"width": 420, "height": 800})
            page = context.new_page()
            page.goto(page_file.as_uri())
            element = page.locator(f'.piece[data-piece="{piece}"]')
            before = element.get_attribute("data-shape")
            element.locator(".square").first.tap()
            assert element.get_attribute("data-shape") != before
            for _ in range(8):
                if element.get_attribute("data-shape") == key:
                    break
                element.locator(".square").first.tap()
            square = element.locator(".square").first
            dx, dy = int(square.get_attribute("data-dx")), int(square.get_attribute("data-dy"))
            start = square.bounding_box()
            end = page.locator("#board .cell").nth(
                (target[1] + dy) * puzzle.width + target[0] + dx).bounding_box()
            cdp = context.new_cdp_session(page)
            x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
            x1, y1 = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
            cdp.send("Input.dispatchTouchEvent",
                     {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
            for k in range(1, 9):
                cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
                    {"x": x0 + (x1 - x0) * k / 8, "y": y0 + (y1 - y0) * k / 8}]})
            cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
            page.wait_for_selector(f'#board .piece[data-piece="{piece}"]')
            assert page.inner_text("#level-title") == f"Niveau 1 sur {len(pack)}"
            page.screenshot(path=str(artifacts / "6-touch-fr.png"), full_page=True)
        finally:
            browser.close()
