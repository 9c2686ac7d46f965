"""Rules as formatted text in the web app (issue 15): ``GET /api/games/{name}`` carries the
rules as HTML (``rules_html``) beside the text as written, a registered game's from its
reStructuredText, an imported game's description escaped as plain text; each game has a
rules page, ``/games/{name}/rules``, with its title, players, rules, options (name, type,
default, range or choices, help) and sources, a JSON 404 for a game the server does not
have. In headless Chromium the lobby's rules dialog shows the formatted rules (no
backquotes, no ``::``), links to the rules page, which lists the options, fits a 360 px
phone, speaks the reader's language and sets up a match from its "play" link; the game
page links to it beside its title. Screenshots go to $BOARDLAB_ARTIFACTS/rules (or the
test's tmp folder).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from boardlab.web.app import STATIC, create_app
from tests.web.conftest import (
    CHROMIUM,
    KEY,
    assert_error,
    bearer,
    screenshots,
    serving,
    sideways_scroll,
    watched_page,
)
from tests.web.test_library import CORPUS

NODE = shutil.which("node") or "/usr/bin/node"
needs_node = pytest.mark.skipif(not Path(NODE).exists(), reason="no node to run i18n.js")
browser_only = pytest.mark.skipif(not CHROMIUM.exists(),
                                  reason="no Chromium at /usr/bin/chromium to drive headless")

#: A rule file whose title and description are full of what HTML and reStructuredText
#: would read as markup.
TINY = """(define step ($1 (verify empty?) add))
(game (title "Tiny <b>bold</b>")
 (description "Move a P to the far row. <script>alert('zrf')</script> ``not code`` :: end")
 (players A B)
 (board (grid (dimensions ("a/b/c" (1 0)) ("3/2/1" (0 1)))
              (directions (n 0 -1) (s 0 1)))
        (zone (name goal) (players A) (positions a3 b3 c3))
        (zone (name goal) (players B) (positions a1 b1 c1)))
 (piece (name P) (moves (step n) (step s)))
 (board-setup (A (P a1)) (B (P c3)))
 (win-condition (A B) (absolute-config P (goal))))
"""


def games_folder(root: Path) -> Path:
    """A games folder with chess (five variants) in a sub-folder and the tiny game."""
    folder = root / "games"
    (folder / "chess").mkdir(parents=True)
    shutil.copy(CORPUS / "chess" / "chess.zrf", folder / "chess" / "chess.zrf")
    (folder / "tiny.zrf").write_text(TINY, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def client(tmp_path_factory) -> Iterator[TestClient]:
    root = tmp_path_factory.mktemp("rules-api")
    app = create_app(f"sqlite:///{root / 'web.db'}", games_dir=games_folder(root),
                     bot_workers=0)
    with TestClient(app, headers=bearer(KEY)) as opened:
        assert app.state.library.wait(120)
        yield opened


class Page(HTMLParser):
    """A page's elements (tag, attributes) and the text inside each element of an id."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.texts: dict[str, list[str]] = {}
        self._open: list[str | None] = []
        self.html = html
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.elements.append((tag, attributes))
        if tag not in ("br", "meta", "link", "input", "img", "hr"):
            self._open.append(attributes.get("id"))

    def handle_endtag(self, tag):
        if self._open:
            self._open.pop()

    def handle_data(self, data):
        for opened in self._open:
            if opened:
                self.texts.setdefault(opened, []).append(data)

    def text(self, element_id: str) -> str:
        """The text inside an element, one space between the texts of its elements."""
        return " ".join(" ".join(self.texts.get(element_id, [])).split()).replace(" ,", ",")

    def options(self) -> list[str]:
        return [a["data-option"] for _, a in self.elements if "data-option" in a]

    def keys(self) -> set[str]:
        return {a["data-i18n"] for _, a in self.elements if a.get("data-i18n")}


def rules_page(client, name: str) -> Page:
    response = client.get(f"/games/{name}/rules")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/html")
    policy = response.headers["content-security-policy"]
    # the page has no inline code: nothing a game says could be allowed to run
    assert "script-src 'self';" in policy and "'sha256-" not in policy
    assert "unsafe-inline" not in policy
    return Page(response.text)


# --- the game JSON -----------------------------------------------------------------------------
def test_a_registered_game_has_its_rules_as_html_beside_the_text(client):
    data = client.get("/api/games/quantum-tic-tac-toe").json()
    assert "``X1:1-2``" in data["rules"]
    html = data["rules_html"]
    assert "<code>X1:1-2</code>" in html and "``" not in html
    assert re.search(r"<h3>Rules \(Goff's, the defaults\)</h3>", html)
    assert html.count("<li>") >= 8


def test_an_imported_game_has_its_description_escaped_as_plain_text(client):
    data = client.get("/api/games/zrf:tiny").json()
    html = data["rules_html"]
    assert html.startswith("<p>Tiny &lt;b&gt;bold&lt;/b&gt;</p>")
    assert "&lt;script&gt;alert('zrf')&lt;/script&gt;" in html
    # not read as reStructuredText either: a backquote is Zillions' double quote
    assert "&quot;&quot;not code&quot;&quot; :: end" in html
    assert "<script" not in html and "<b>" not in html and "<code>" not in html
    chess = client.get("/api/games/zrf:chess/chess@2").json()
    assert re.match(r'<p>Charge of the Light Brigade</p>\n<p><a [^>]*href="https://',
                    chess["rules_html"])


# --- the rules page ---------------------------------------------------------------------------
def test_the_rules_page_of_a_registered_game_lists_its_options(client):
    page = rules_page(client, "connect-four")
    assert page.text("title") == "connect-four"
    assert page.text("subtitle").startswith("Connect Four: drop discs")
    assert page.text("game-players") == "Players X O"
    assert "Four of one's discs in a row" in page.text("game-rules")
    assert page.options() == ["rows", "columns"]
    options = page.text("game-options")
    assert "rows whole number default 6 range 4 – 26 number of rows" in options
    assert "columns whole number default 7 range 4 – 26" in options
    assert page.text("game-source") == \
        "Source Milton Bradley (1974); Wikipedia, 'Connect Four'"
    links = {a["id"]: a["href"] for tag, a in page.elements if tag == "a" and a.get("id")}
    assert links == {"play": "/?play=connect-four", "back": "/"}


def test_choices_yes_no_and_no_options_are_said_so(client):
    quantum = rules_page(client, "quantum-tic-tac-toe")
    assert "preset" in quantum.options()
    assert ("scoring text default goff-points choices goff-points, narrow, complete, axiom"
            in quantum.text("game-options"))
    # an empty preset is shown as such, not as nothing
    assert "preset text default (empty) choices (empty), goff," in quantum.text("game-options")
    morris = rules_page(client, "three-mens-morris")
    assert "diagonals yes or no default yes" in morris.text("game-options")
    assert rules_page(client, "tic-tac-toe").text("game-options") == \
        "Options This game has no options."


def test_the_rules_page_of_an_imported_game_escapes_the_file(client):
    page = rules_page(client, "zrf:tiny")
    assert page.text("title") == "Tiny <b>bold</b>"
    # the page's own three scripts, and nothing of the file's
    assert [tag for tag, _ in page.elements if tag in ("b", "script")] == ["script"] * 3
    assert "<b>" not in page.html and "<script>" not in page.html
    assert "<script>alert('zrf')</script> \"\"not code\"\"" in page.text("game-rules")
    assert page.options() == ["max_moves"]
    assert "Zillions of Games rule file (ZRF) rule file tiny.zrf" in page.text("game-source")
    variant = rules_page(client, "zrf:chess/chess@2")
    assert variant.text("title") == "Chess: Charge of the Light Brigade"
    assert "rule file chess/chess.zrf variant 2: Charge of the Light Brigade" in \
        variant.text("game-source")
    assert ("a", {"id": "play", "class": "button", "href": "/?play=zrf%3Achess%2Fchess%402",
                  "data-i18n": "rulesPagePlay"}) in variant.elements


def test_an_unknown_game_has_no_rules_page(client):
    assert_error(client.get("/games/no-such-game/rules"), 404, "unknown game 'no-such-game'")
    assert_error(client.get("/games/zrf:nowhere/rules"), 404, "no imported game 'zrf:nowhere'")
    assert_error(client.get("/games/zrf:chess/chess@9/rules"), 404, "has no variant 9")
    assert_error(client.get("/games/<script>/rules"), 404, "unknown game")


@needs_node
def test_every_phrase_of_the_rules_pages_is_in_the_table(client):
    used = set()
    for name in ("connect-four", "quantum-tic-tac-toe", "three-mens-morris", "tic-tac-toe",
                 "zrf:tiny", "zrf:chess/chess@2"):
        used |= rules_page(client, name).keys()
    i18n = STATIC / "js" / "i18n.js"
    source = (f"const i18n = require({json.dumps(str(i18n))});"
              "console.log(JSON.stringify(Object.keys(i18n.MESSAGES)))")
    done = subprocess.run([NODE, "-e", source], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert len(used) > 15
    assert used - set(json.loads(done.stdout)) == set()


# --- the browser --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("rules-server")
    app = create_app(f"sqlite:///{root / 'web.db'}", games_dir=games_folder(root))
    with serving(app) as url:
        assert app.state.library.wait(120)
        yield url


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    return screenshots(tmp_path_factory.mktemp("shots"), "rules")


@pytest.fixture
def page(browser, server):
    with watched_page(browser, server) as opened:
        yield opened


def expect(locator):
    """Playwright's waiting assertions (imported here: Playwright may be missing)."""
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


@browser_only
def test_the_lobby_shows_formatted_rules_and_links_to_the_rules_page(page, shots):
    page.goto(page.base + "/")
    row = page.locator("#games tr[data-game='quantum-tic-tac-toe']")
    row.get_by_role("button", name="rules").click()
    page.wait_for_selector("#rules[open]")
    text = page.locator("#rules-text").inner_text()
    assert "spooky marks" in text and "X1:1-2" in text
    assert "``" not in text and "::" not in text
    assert page.locator("#rules-text code").count() > 10
    assert page.locator("#rules-text li").count() >= 8
    assert page.locator("#rules-text h3").first.inner_text() == "Rules (Goff's, the defaults)"
    # code is set in a monospace font, the rules in the page's own
    fonts = page.locator("#rules-text code").first.evaluate(
        "code => [getComputedStyle(code).fontFamily, getComputedStyle(code.closest("
        "'.rules-text')).fontFamily]")
    assert "monospace" in fonts[0] and "monospace" not in fonts[1]
    page.screenshot(path=str(shots / "lobby-rules-dialog.png"))

    link = page.locator("#rules-page")
    assert link.get_attribute("href") == "/games/quantum-tic-tac-toe/rules"
    link.click()
    page.wait_for_url("**/games/quantum-tic-tac-toe/rules")
    # the game's title as the phrase table writes it, not its id
    assert page.locator("h1#title").inner_text() == "Quantum tic-tac-toe"
    options = page.locator("#game-options li[data-option]")
    assert options.count() == 7
    scoring = page.locator("#game-options li[data-option='scoring']")
    assert "goff-points" in scoring.inner_text() and scoring.is_visible()
    assert page.locator("#game-rules .rules-text code").count() > 10
    page.screenshot(path=str(shots / "rules-page.png"), full_page=True)

    # its "play" link opens the lobby's new game dialog for the game
    page.locator("#play").click()
    page.wait_for_selector("#setup[open]")
    assert page.locator("#setup-title").inner_text().startswith("new game: ")
    assert page.locator("#option-preset").count() == page.locator("#option-scoring").count() == 1
    assert "play=" not in page.url


@browser_only
def test_the_rules_page_fits_a_phone_and_speaks_the_readers_language(browser, server, shots):
    context = browser.new_context(viewport={"width": 360, "height": 780}, locale="ru-RU")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/games/quantum-tic-tac-toe/rules")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    assert page.locator("#game-options h2").inner_text() == "Параметры"
    assert page.locator("#play").inner_text() == "сыграть в эту игру"
    assert page.locator("#game-options li[data-option='scoring'] dt").first.inner_text() == \
        "по умолчанию"
    # the game's own names (title, option, its help and choices) as the table says them
    table = page.evaluate("""() => ["game.quantum-tic-tac-toe",
        "option.quantum-tic-tac-toe.scoring", "help.quantum-tic-tac-toe.scoring",
        "choice.quantum-tic-tac-toe.scoring.narrow"]
        .map((key) => BoardlabI18n.translate("ru", key))""")
    assert page.locator("h1#title").inner_text() == table[0] == "Квантовые крестики-нолики"
    assert page.title() == f"{table[0]} – boardlab"
    scoring = page.locator("#game-options li[data-option='scoring']")
    assert scoring.locator(".option-label").inner_text() == table[1] != "scoring"
    assert scoring.locator(".option-help").inner_text() == table[2]
    assert table[3] in scoring.inner_text()
    assert sideways_scroll(page) == 0
    # the rules are the page's own text, not a box to scroll in
    assert page.locator("#game-rules .rules-text").evaluate(
        "box => box.scrollHeight - box.clientHeight") == 0
    page.screenshot(path=str(shots / "rules-page-phone-ru.png"), full_page=True)
    page.select_option("#language", "zh")
    assert page.locator("#game-rules h2").inner_text() == "规则"
    page.goto(server + "/games/zrf:chess/chess@2/rules")
    assert page.locator("h1#title").inner_text() == "Chess: Charge of the Light Brigade"
    assert sideways_scroll(page) == 0
    page.screenshot(path=str(shots / "rules-page-imported-phone.png"), full_page=True)
    assert errors == []
    context.close()


@browser_only
def test_an_imported_games_rules_are_text_and_its_play_link_picks_the_variant(page, shots):
    page.goto(page.base + "/")
    row = page.locator("#imported-games tr[data-game='zrf:tiny']")
    row.get_by_role("button", name="rules").click()
    page.wait_for_selector("#rules[open]")
    text = page.locator("#rules-text").inner_text()
    assert "<script>alert('zrf')</script> \"\"not code\"\" :: end" in text
    assert page.locator("#rules-text script, #rules-text b, #rules-text code").count() == 0
    page.screenshot(path=str(shots / "lobby-imported-rules.png"))
    page.locator("#rules-page").click()
    page.wait_for_url("**/rules")
    assert page.locator("h1#title").inner_text() == "Tiny <b>bold</b>"

    page.goto(page.base + "/games/zrf:chess/chess@2/rules")
    page.locator("#play").click()
    page.wait_for_selector("#setup[open]")
    assert page.locator("#setup-variant").input_value() == "zrf:chess/chess@2"
    # a link to a game the server does not have says so
    page.goto(page.base + "/?play=no-such-game")
    expect(page.locator("#error")).to_have_text("there is no game no-such-game on this server")
    assert not page.locator("#setup").evaluate("d => d.open")


@browser_only
def test_the_game_page_links_to_the_rules_beside_its_title(page, shots):
    import httpx

    with httpx.Client(base_url=page.base, timeout=20, headers=bearer(KEY)) as api:
        created = api.post("/api/matches", json={
            "game": "zrf:chess/chess@2", "players": [{"type": "human"}, {"type": "human"}]})
        assert created.status_code == 201, created.text
    page.goto(f"{page.base}/game?match={created.json()['id']}")
    page.wait_for_selector("body[data-ready='1']")
    link = page.locator("#rules-link")
    assert link.is_visible() and link.inner_text() == "rules"
    page.screenshot(path=str(shots / "game-page-link.png"))
    link.click()
    page.wait_for_url("**/rules")
    assert page.locator("h1#title").inner_text() == "Chess: Charge of the Light Brigade"
    assert page.locator("#game-options li[data-option='max_moves']").count() == 1
