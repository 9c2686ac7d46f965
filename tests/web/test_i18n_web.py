"""The lobby and the game pages in five languages (static/js/i18n.js).

Node loads the phrase table and checks that every phrase has all five languages and that the
plural forms follow CLDR (Russian 1 ход, 2 хода, 5 ходов, 21 ход ...; the expected Russian is
written out here by hand, not computed). Every phrase key the pages use must be in the table.
Then headless Chromium drives the real server (a temporary data folder with a Triplex pack):
a Russian browser sees the lobby in Russian, the selector switches it to Chinese, the game
page keeps Chinese, and a reload still shows Chinese. Screenshots go to
$BOARDLAB_ARTIFACTS/i18n (or the test's tmp folder).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from boardlab.web.app import STATIC, create_app
from tests.web.conftest import CHROMIUM, KEY, bearer, hold_seats, screenshots, serving

NODE = shutil.which("node") or "/usr/bin/node"
I18N = STATIC / "js" / "i18n.js"
LANGUAGES = ["en", "ru", "fr", "de", "zh"]
needs_node = pytest.mark.skipif(not Path(NODE).exists(), reason="no node to run i18n.js")
browser_only = pytest.mark.skipif(not CHROMIUM.exists(),
                                  reason="no Chromium at /usr/bin/chromium to drive headless")


def run_node(script: str) -> object:
    """The JSON printed by `script`, run by node with `i18n` bound to the module."""
    source = f"const i18n = require({json.dumps(str(I18N))});\n{script}"
    done = subprocess.run([NODE, "-e", source], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# --- the phrase table ------------------------------------------------------------------------
@needs_node
def test_every_phrase_has_all_five_languages_and_the_plural_forms_they_need():
    table = run_node("""
      const out = {languages: i18n.LANGUAGES.map((l) => l.code), missing: [], forms: []};
      for (const [key, entry] of Object.entries(i18n.MESSAGES)) {
        for (const lang of out.languages) {
          const text = entry[lang];
          if (text === undefined || text === "") { out.missing.push(key + "/" + lang); continue; }
          if (typeof text !== "object") continue;
          if (!text.other) out.missing.push(key + "/" + lang + "/other");
          // each category the language distinguishes for whole numbers must have a form
          for (let n = 0; n <= 200; n++) {
            const category = new Intl.PluralRules(lang).select(n);
            if (!text[category] && !(lang === "fr" && category === "many")) {
              out.forms.push(key + "/" + lang + "/" + category);
            }
          }
        }
      }
      out.forms = [...new Set(out.forms)];
      console.log(JSON.stringify(out));
    """)
    assert table["languages"] == LANGUAGES
    assert table["missing"] == []
    assert table["forms"] == []


def test_no_phrase_is_defined_twice():
    # A key written twice in the table's object literal silently keeps its last text
    # (the pipes page once showed the lobby's blurb as its instructions). The one table
    # of every page (the Triplex page's too: there is no other) has plain keys and quoted
    # ones ("game.connect-four").
    assert sorted(p.name for p in STATIC.rglob("i18n.js")) == ["i18n.js"]
    source = (STATIC / "js" / "i18n.js").read_text(encoding="utf-8")
    keys = re.findall(r'^    (\w+|"[^"]+"): \{', source, flags=re.MULTILINE)
    assert len(keys) > 400
    assert sorted(k for k in set(keys) if keys.count(k) > 1) == []


RUSSIAN_MOVES = {1: "1 ход", 2: "2 хода", 5: "5 ходов", 21: "21 ход", 22: "22 хода",
                 25: "25 ходов", 111: "111 ходов"}
RUSSIAN_MINUTES = {1: "1 минуту назад", 2: "2 минуты назад", 5: "5 минут назад",
                   21: "21 минуту назад", 22: "22 минуты назад", 25: "25 минут назад",
                   111: "111 минут назад"}


@needs_node
def test_russian_plurals_of_moves_and_minutes_ago():
    numbers = list(RUSSIAN_MOVES)
    shown = run_node(f"""
      const numbers = {json.dumps(numbers)};
      console.log(JSON.stringify({{
        moves: numbers.map((n) => i18n.translate("ru", "moves", {{n}})),
        minutes: numbers.map((n) => i18n.translate("ru", "minutesAgo", {{n}})),
        ago: numbers.map((n) => i18n.agoIn("ru", n * 60 + 7)),
        english: [1, 2].map((n) => i18n.translate("en", "moves", {{n}})),
        games: [1, 3, 5].map((n) => i18n.translate("ru", "games", {{n}})),
      }}));
    """)
    assert dict(zip(numbers, shown["moves"], strict=True)) == RUSSIAN_MOVES
    assert dict(zip(numbers, shown["minutes"], strict=True)) == RUSSIAN_MINUTES
    # an age is shown in its largest whole unit: 111 minutes are an hour
    assert shown["ago"][:6] == [RUSSIAN_MINUTES[n] for n in numbers[:6]]
    assert shown["ago"][6] == "1 час назад"
    assert shown["english"] == ["1 move", "2 moves"]
    assert shown["games"] == ["1 игра", "3 игры", "5 игр"]


@needs_node
def test_the_language_comes_from_the_first_supported_browser_language():
    picked = run_node("""console.log(JSON.stringify([
      i18n.pickLanguage(["ru-RU"]), i18n.pickLanguage(["pt-BR", "de-AT", "en"]),
      i18n.pickLanguage(["zh-Hans-CN"]), i18n.pickLanguage(["pt"]), i18n.pickLanguage([]),
      i18n.agoIn("zh", 3 * 86400), i18n.agoIn("de", 1), i18n.agoIn("fr", 2 * 3600)]));""")
    assert picked == ["ru", "de", "zh", "en", "en", "3 天前", "gerade eben", "il y a 2 heures"]


@needs_node
def test_every_phrase_the_pages_use_is_in_the_table():
    keys = set(run_node("console.log(JSON.stringify(Object.keys(i18n.MESSAGES)))"))
    used: dict[str, set[str]] = {}
    patterns = [r'data-i18n(?:-title|-placeholder|-aria-label)?="([A-Za-z]+)"',
                r'\bt\("([A-Za-z]+)"', r'setText\([^,]+, "([A-Za-z]+)"',
                r'\["([A-Za-z]+)", \{', r'(?:button|i18nTitle = )\(?"([A-Za-z]+)"',
                r'"([A-Za-z]+)" : "([A-Za-z]+)", \{']
    for name in ("index.html", "game.html", "js/game.js", "js/board.js", "pipes.html",
                 "js/pipes.js", "rules.html"):
        text = (STATIC / name).read_text(encoding="utf-8")
        for pattern in patterns:
            for found in re.findall(pattern, text):
                for key in (found if isinstance(found, tuple) else (found,)):
                    used.setdefault(key, set()).add(name)
    assert len(used) > 60
    assert {key: sorted(where) for key, where in used.items() if key not in keys} == {}


def test_both_pages_load_the_phrases_from_the_server_without_network(tmp_path):
    from fastapi.testclient import TestClient

    with TestClient(create_app(data_dir=tmp_path)) as client:
        script = client.get("/static/js/i18n.js")
        assert script.status_code == 200 and "javascript" in script.headers["content-type"]
        assert "http://" not in script.text and "https://" not in script.text
        for path in ("/", "/game"):
            page = client.get(path).text
            assert '<script src="/static/js/i18n.js"></script>' in page, path
            assert 'id="language" class="language"' in page, path


# --- the pages in the browser ----------------------------------------------------------------
@contextmanager
def running(data_dir: Path) -> Iterator[str]:
    """The real server on `data_dir`; yields its URL."""
    with serving(create_app(data_dir=data_dir)) as url:
        yield url


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    from boardlab.puzzles.polyomino.generator import generate_levels
    from boardlab.puzzles.polyomino.pack import Pack

    folder = tmp_path_factory.mktemp("i18n-server")
    levels = generate_levels([(4, 2), (3, 3)], "triplex", seed=0, backend="serial")
    pack = Pack.build(levels, b"i18n test", "triplex", name="Starter")
    (folder / "packs").mkdir()
    pack.public().save(folder / "packs" / "starter.json")
    with running(folder) as url:
        yield url


@pytest.fixture
def shots(tmp_path) -> Path:
    return screenshots(tmp_path, "i18n")


def text_of(page, selector: str) -> str:
    return page.locator(selector).first.inner_text().strip()


@browser_only
def test_russian_browser_then_chinese_by_the_selector_kept_on_the_game_page(server, shots):
    import httpx

    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with httpx.Client(base_url=server, timeout=20, headers=bearer(KEY)) as client:
        made = client.post("/api/matches", json={
            "game": "tic-tac-toe", "players": [{"type": "human"}, {"type": "human"}]})
        assert made.status_code == 201, made.text
        match_id = made.json()["id"]
        for move in ("a1", "b2"):
            assert client.post(f"/api/matches/{match_id}/moves",
                               json={"move": move}).status_code == 200
        packs = client.get("/api/triplex/packs").json()
        updated = datetime.fromisoformat(client.get(f"/api/matches/{match_id}").json()["updated"])
    assert [p["name"] for p in packs] == ["Starter"]

    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        context = browser.new_context(locale="ru-RU", viewport={"width": 1200, "height": 900})
        hold_seats(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        outside: list[str] = []
        page.on("request", lambda r: None if r.url.startswith(server)
                else outside.append(r.url))
        # the page's clock 22 minutes after the last move, for "22 минуты назад"
        page.clock.install(time=updated + timedelta(minutes=22, seconds=10))
        try:
            # Russian from the browser's languages
            page.goto(server + "/")
            page.wait_for_selector("#games tr[data-game]")
            page.wait_for_selector(f"#matches a[href$='{match_id}']")
            assert page.evaluate("document.documentElement.lang") == "ru"
            assert page.locator("#language").input_value() == "ru"
            assert text_of(page, "h2 [data-i18n='gamesTitle']") == "Игры"
            assert text_of(page, "#puzzles h2") == "Головоломки"
            assert re.fullmatch(r"\d+ игр[аы]?", text_of(page, "#games-count"))
            row = page.locator("#games tr[data-game='tic-tac-toe']")
            assert row.locator("button").first.inner_text() == "правила"
            assert row.locator("button.new-game").inner_text() == "новая игра"
            recent = page.locator("#matches tbody tr").filter(
                has=page.locator(f"a[href$='{match_id}']"))
            assert recent.locator("td.ply").inner_text() == "2 хода"
            assert recent.locator("td.updated").inner_text() == "22 минуты назад"
            assert recent.locator("td.updated").get_attribute("title").startswith(
                "начата 22 минуты назад")
            assert "идёт" in recent.inner_text()
            # the puzzles: Pipes and the Triplex pack
            assert page.locator("#puzzles a[href='/pipes']").inner_text() == "Трубы"
            pack = page.locator(f"#triplex-packs li[data-pack='{packs[0]['id']}']")
            assert pack.locator("a").get_attribute("href") == f"/triplex/{packs[0]['id']}"
            assert pack.inner_text() == f"Триплекс: Starter {packs[0]['levels']} уровня"
            page.screenshot(path=str(shots / "lobby-ru.png"), full_page=True)
            # the setup dialog in Russian
            row.locator("button.new-game").click()
            assert text_of(page, "#setup-title") == "новая игра: Крестики-нолики"
            assert text_of(page, "#start") == "начать игру"
            assert page.locator("#player-1 option[value='mcts']").inner_text() == "бот mcts"
            page.screenshot(path=str(shots / "lobby-ru-setup.png"))
            page.locator("#cancel").click()

            # Chinese from the selector
            page.select_option("#language", "zh")
            assert page.evaluate("document.documentElement.lang") == "zh"
            assert text_of(page, "h2 [data-i18n='gamesTitle']") == "游戏"
            assert text_of(page, "#puzzles h2") == "谜题"
            assert row.locator("button.new-game").inner_text() == "新游戏"
            assert recent.locator("td.ply").inner_text() == "2 步"
            assert recent.locator("td.updated").inner_text() == "22 分钟前"
            assert pack.locator("a").inner_text() == "三联方块：Starter"
            assert page.evaluate("localStorage.getItem('boardlab.language')") == "zh"
            page.screenshot(path=str(shots / "lobby-zh.png"), full_page=True)

            # the game page keeps Chinese
            recent.locator("a").click()
            page.wait_for_selector("body[data-ready='1']")
            assert page.locator("#language").input_value() == "zh"
            assert page.evaluate("document.documentElement.lang") == "zh"
            assert text_of(page, "#undo") == "悔棋"
            assert text_of(page, "#move-count") == "2 步"
            assert text_of(page, "#status") == "轮到 X"
            assert "人类" in text_of(page, "#players")
            assert page.locator("svg.board").get_attribute("aria-label").endswith("共 9 格")
            page.screenshot(path=str(shots / "game-zh.png"), full_page=True)

            # a reload still shows Chinese
            page.reload()
            page.wait_for_selector("body[data-ready='1']")
            assert page.locator("#language").input_value() == "zh"
            assert text_of(page, "#undo") == "悔棋"
            assert text_of(page, "[data-i18n='legalMoves']") == "合法走法"
            assert page.locator("#notation").get_attribute("placeholder") == "记法，例如 a1"

            # and the selector on the game page switches it, too
            page.select_option("#language", "de")
            assert text_of(page, "#undo") == "zurücknehmen"
            assert text_of(page, "#move-count") == "2 Züge"
            assert "ist am Zug" in text_of(page, "#status")
            assert "Mensch" in text_of(page, "#players")
            page.screenshot(path=str(shots / "game-de.png"), full_page=True)
            page.goto(server + "/")
            page.wait_for_selector("#games tr[data-game]")
            assert text_of(page, "h2 [data-i18n='gamesTitle']") == "Spiele"
        finally:
            context.close()
            browser.close()
    assert not errors, errors
    assert not outside, outside


@browser_only
def test_the_puzzles_list_is_hidden_without_triplex_packs(tmp_path, shots):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with running(tmp_path) as url, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        context = browser.new_context(locale="fr-FR")
        page = context.new_page()
        try:
            page.goto(url + "/")
            page.wait_for_selector("#games tr[data-game]")
            page.wait_for_selector("#matches tbody td")
            assert page.locator("#triplex-packs").is_hidden()
            assert page.locator("#puzzles a[href='/pipes']").inner_text() == "Tuyaux"
            assert text_of(page, "#matches tbody") == "aucune partie pour l'instant"
            page.screenshot(path=str(shots / "lobby-fr-empty.png"), full_page=True)
        finally:
            context.close()
            browser.close()


@browser_only
def test_the_pipes_page_speaks_the_browser_language(tmp_path, shots):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with running(tmp_path) as url, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        context = browser.new_context(locale="ru-RU")
        page = context.new_page()
        try:
            page.goto(url + "/pipes")
            page.wait_for_selector("#board svg")
            assert text_of(page, "#title").startswith("Водопроводчик: ")
            assert "решени" in text_of(page, "#solution-count")  # 1 решение, 2 решения...
            assert "вода" in text_of(page, "#status")
            page.select_option("#language", "de")
            assert text_of(page, "#title").startswith("Klempner: ")
            assert "Wasser" in text_of(page, "#status")
            page.screenshot(path=str(shots / "pipes-de.png"), full_page=True)
        finally:
            context.close()
            browser.close()
