"""Every page of the web app on a phone, a tablet and a desktop (360, 768 and 1280 px wide),
in headless Chromium against the real server: the lobby (and its new-game dialog), a fresh
match of every registered game, the pipes page, a Triplex pack's page and its tables, a
game's rules page, and the Plumber quest's pages (a new quest's form, a team's page with a
segment found, the organiser's page). On each:

* nothing is wider than the screen (no horizontal scrolling of the page);
* no error reaches the console (a script error, a refused request, a CSP refusal);
* axe-core finds no accessibility violation of impact "serious" or "critical";
* on the phone, every control a finger uses is at least 40 px high;
* the game and pipes pages put the board first: left of the panel on a desktop, above it
  on a phone, as wide as its column and no taller than the screen.

A full-page screenshot of each goes to $BOARDLAB_ARTIFACTS/pages (or the test's tmp folder)
for a human to look at.

axe-core comes from npm (.ci/run installs it into build/node and sets BOARDLAB_AXE to its
axe.min.js); without it only the accessibility check is skipped, and a BOARDLAB_AXE that
names no file fails, so CI cannot lose the check silently.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from boardlab.core.registry import names
from boardlab.puzzles.polyomino.level import Level
from boardlab.puzzles.polyomino.pack import Pack
from boardlab.store.leaderboard import add_solve
from boardlab.web.app import create_app
from tests.web.conftest import CHROMIUM, KEY, bearer, hold_seats, screenshots, serving
from tests.web.test_quest_browser import quest_pages

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason="no Chromium at /usr/bin/chromium to drive headless")

#: A phone (the narrowest in common use), a portrait tablet, a desktop.
WIDTHS = (360, 768, 1280)
HEIGHTS = {360: 780, 768: 1024, 1280: 900}
#: WCAG 2.5.8 asks 24 px; 40 px is what a finger hits without a second try.
TOUCH = 40
#: Where .ci/run's `npm install --prefix build/node axe-core` puts the script.
DEFAULT_AXE = Path(__file__).resolve().parents[2] / "build/node/node_modules/axe-core/axe.min.js"
GAMES = names()
PAGES = ["lobby", "lobby-new-game", "pipes", "triplex", "triplex-table", "rules",
         "quest-new", "quest-team", "quest-organiser", *GAMES]


def axe_source() -> str | None:
    """axe-core's script: from $BOARDLAB_AXE (which must exist when set), else from the
    default install folder, else None."""
    configured = os.environ.get("BOARDLAB_AXE")
    if configured:
        path = Path(configured)
        if not path.is_file():
            pytest.fail(f"BOARDLAB_AXE={configured} is not a file: install axe-core "
                        "(see .ci/run) or unset the variable")
        return path.read_text(encoding="utf-8")
    return DEFAULT_AXE.read_text(encoding="utf-8") if DEFAULT_AXE.is_file() else None


def triplex_pack() -> Pack:
    """A small Triplex pack written by hand (no solver, so no compile time)."""
    levels = [Level.parse("level 3x2\naab\nabb\n"), Level.parse("level 3x3\naab\ncab\nccb\n"),
              Level.parse("level 6x2\naabccc\nabbddd\n")]
    return Pack.build(levels, b"pages browser test", "triplex", name="Pages test")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[tuple[str, dict[str, str]]]:
    """The server's URL and the path of every page: the games' pages show a fresh match
    whose seats are all this browser's (so every control of a player is on the page and
    no bot moves in the background)."""
    folder = tmp_path_factory.mktemp("pages-server")
    pack = triplex_pack()
    (folder / "packs").mkdir()
    pack.public().save(folder / "packs" / "pack.json")
    app = create_app(f"sqlite:///{folder / 'web.db'}", data_dir=folder, bot_workers=0)
    # The tables page with lines in both of its tables (a long name must wrap).
    add_solve(app.state.store, pack.salt.hex(), 1, "Ada Lovelace-Byron of Ockham", 3725)
    add_solve(app.state.store, pack.salt.hex(), 2, "Bob", 0.4, suspect=True)
    with serving(app) as url:
        paths = {"lobby": "/", "lobby-new-game": "/", "pipes": "/pipes",
                 "triplex": f"/triplex/{pack.salt.hex()}",
                 "triplex-table": f"/triplex/{pack.salt.hex()}/table",
                 "rules": "/games/quantum-tic-tac-toe/rules"}
        with httpx.Client(base_url=url, timeout=20, headers=bearer(KEY)) as client:
            seats = {game["name"]: len(game["players"])
                     for game in client.get("/api/games").json()}
            for game in names():
                response = client.post("/api/matches", json={
                    "game": game, "players": [{"type": "human"}] * seats[game]})
                assert response.status_code == 201, response.text
                paths[game] = "/game?match=" + response.json()["id"]
            paths.update(quest_pages(client))
        yield url, paths


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    return screenshots(tmp_path_factory.mktemp("shots"), "pages")


@pytest.fixture(scope="module")
def axe() -> str | None:
    return axe_source()


def wait_until_drawn(page, name: str) -> None:
    """Wait for what the page's scripts draw after loading (what the checks look at)."""
    if name.startswith("lobby"):
        for selector in ("#games tbody tr[data-game]", "#open-games tbody tr",
                         "#matches tbody tr"):
            page.locator(selector).first.wait_for(state="attached")
        if name == "lobby-new-game":
            page.locator("#games tr[data-game='tic-tac-toe'] button.new-game").click()
            page.locator("#setup[open]").wait_for()
    elif name == "pipes":
        page.locator("#board svg.pipes").wait_for()
    elif name == "rules":
        page.locator("#game-options li").first.wait_for()
    elif name == "triplex":
        page.locator("#board .cell").first.wait_for()
        page.locator("#level-list li").first.wait_for()
    elif name == "triplex-table":
        page.locator("#levels tbody tr[data-level]").first.wait_for()
    elif name == "quest-new":
        page.locator("#new-form").wait_for()
    elif name == "quest-team":
        page.locator("#grid svg .cell:not(.hidden)").wait_for()
    elif name == "quest-organiser":
        page.locator(".team-card .quest-grid svg").wait_for()
        page.locator("#sheet-rows tr").first.wait_for()
    else:
        page.locator("body[data-ready='1']").wait_for(state="attached")
        page.locator("svg.board").wait_for()


#: Controls a finger uses, visible on the page (a closed <details> hides its content from
#: layout, which checkVisibility knows). A checkbox counts by its label, which toggles it.
#: The board's cells are left out: their size is the board's geometry (the board already
#: takes the whole width of a phone, and a 20x20 GESS board cannot give a point 40 px of
#: 360), and the notation field and the move list play any move without them.
SMALL_CONTROLS = """(least) => {
  const controls = document.querySelectorAll(
    "button, select, input:not([type=checkbox]):not([type=radio]):not([type=hidden]), " +
    "textarea, summary, a.button, .buttons > a, [role=button], label:has(> input[type=checkbox])");
  return [...controls]
    .filter((e) => !e.closest("svg.board"))
    .filter((e) => e.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true}))
    .filter((e) => !e.closest("details:not([open])") || e.matches("details > summary"))
    .map((e) => [e.id ? "#" + e.id : e.outerHTML.slice(0, 80),
                 Math.round(e.getBoundingClientRect().height * 10) / 10])
    .filter(([, height]) => height < least);
}"""

#: axe-core's violations of impact serious or critical, one line each.
AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id} (${v.help}): ` +
         v.nodes.slice(0, 5).map((n) => n.target.join(" ")).join(", "));
}"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", PAGES)
def test_a_page_fits_the_screen_and_is_accessible(browser, site, shots, axe, name, width):
    url, paths = site
    context = browser.new_context(viewport={"width": width, "height": HEIGHTS[width]})
    hold_seats(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(url + paths[name])
        wait_until_drawn(page, name)
        # A modal dialog sits in the middle of the viewport, which a full-page screenshot
        # stretches to the whole (long) lobby: the screen as the player sees it instead.
        page.screenshot(path=str(shots / f"{name}-{width}.png"),
                        full_page=name != "lobby-new-game")

        scroll = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
        assert scroll[0] <= scroll[1], f"{name} is {scroll[0]} px wide on a {width} px screen"

        if name in GAMES or name == "pipes":
            board = page.locator("#board svg").bounding_box()
            column = page.locator("#board-area").bounding_box()
            panel = page.locator("main > aside").bounding_box()
            assert board["width"] >= column["width"] - 1, (board, column)
            assert board["height"] <= HEIGHTS[width], board
            if width == 1280:
                assert panel["x"] >= board["x"] + board["width"], (board, panel)
            if width == 360:
                assert panel["y"] >= board["y"] + board["height"], (board, panel)

        if width == 360:
            assert page.evaluate(SMALL_CONTROLS, TOUCH) == []

        if axe is not None:
            # Evaluated through the DevTools protocol, which the page's CSP does not
            # govern: an injected <script> (add_script_tag) would be refused by it, and
            # turning the CSP off (bypass_csp) would hide the CSP refusals this test
            # counts as console errors.
            page.evaluate(axe)
            assert page.evaluate(AXE_RUN) == []
        assert errors == []
    finally:
        context.close()
    if axe is None:
        pytest.skip(f"layout checked; no axe-core at {DEFAULT_AXE} (and BOARDLAB_AXE unset) "
                    "for the accessibility check")
