"""Every string of every page in the phrase table (static/js/i18n.js), and no English left
on the pages in Russian or Chinese.

The table is read by node. What must be in it comes from outside the table: the registered
games (boardlab.core.registry: their titles, descriptions, players and options) and the
error codes the server's source names. Then headless Chromium opens the lobby, the game
page of several games, the pipes page and the Triplex page in Russian and in Chinese and
looks for any English phrase of the table in what the page shows (its text and its title,
aria-label and placeholder attributes). Text a page marks as another language on purpose
(lang="en": the games' source citations) is content, not interface, and is not read.
Screenshots go to $BOARDLAB_ARTIFACTS/i18n (or the test's tmp folder).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boardlab.core.registry import load, names
from boardlab.web.app import create_app
from tests.web.conftest import CHROMIUM, KEY, bearer, hold_seats, screenshots, serving
from tests.web.test_i18n_web import NODE, run_node
from tests.web.test_quest_browser import quest_pages

WEB = Path(__file__).parents[2] / "src" / "boardlab" / "web"
needs_node = pytest.mark.skipif(not Path(NODE).exists(), reason="no node to run i18n.js")
browser_only = pytest.mark.skipif(not CHROMIUM.exists(),
                                  reason="no Chromium at /usr/bin/chromium to drive headless")

#: Phrases whose Russian or Chinese is the English on purpose: symbols and names.
SAME_AS_ENGLISH = {"player.x", "player.o", "playerOf.x", "playerOf.o", "bot.mcts",
                   "playerOfAny"}
#: Choices that are names, not words, and are shown as the game gives them: board sizes,
#: and the named rule sets (Axiom's, Dagaz's, Goff's) of the presets and scorings.
NAMED_CHOICES = {("epaminondas", "size", "14x12"), ("epaminondas", "size", "8x8"),
                 ("quantum-morris", "scoring", "axiom"),
                 ("quantum-tic-tac-toe", "scoring", "axiom")}


@pytest.fixture(scope="module")
def table() -> dict:
    """The phrase table: key -> {language: text or plural forms}."""
    if not Path(NODE).exists():
        pytest.skip("no node to run i18n.js")
    return run_node("console.log(JSON.stringify(i18n.MESSAGES))")


def forms(text) -> list[str]:
    """The strings of one translation: itself, or each of its plural forms."""
    return list(text.values()) if isinstance(text, dict) else [text]


# --- what the server names has a phrase ---------------------------------------------------
def test_every_registered_game_its_options_and_players_have_phrases(table):
    missing = []
    players = set()
    for name in names():
        info = load(name).info()
        wanted = [f"game.{name}", f"about.{name}"]
        for option in info["options"]:
            wanted += [f"option.{name}.{option['name']}", f"help.{name}.{option['name']}"]
            for choice in option.get("choices") or []:
                named = (option["name"] == "preset" and choice != "") or \
                    (name, option["name"], choice) in NAMED_CHOICES
                if not named:
                    wanted.append(f"choice.{name}.{option['name']}.{choice}")
        players |= {p.lower() for p in info["players"]}
        missing += [key for key in wanted if key not in table]
        # English is the server's own text, so an English page reads as before
        if f"about.{name}" in table:
            assert table[f"about.{name}"]["en"] == info["description"], name
        for option in info["options"]:
            key = f"help.{name}.{option['name']}"
            if key in table:
                assert table[key]["en"] == option["help"], key
    missing += [f"{kind}.{p}" for p in sorted(players) for kind in ("player", "playerOf")
                if f"{kind}.{p}" not in table]
    assert len(names()) == 17
    assert missing == []


def test_every_error_code_the_server_names_has_a_phrase(table):
    codes = set()
    for path in WEB.glob("*.py"):
        codes |= set(re.findall(r'\bcode="(\w+)"', path.read_text(encoding="utf-8")))
        codes |= set(re.findall(r'return "(\w+)", (?:\{|None)', path.read_text(encoding="utf-8")))
    codes |= set(re.findall(r'"code": "(\w+)"', (WEB / "security.py").read_text()))
    assert {"noMatch", "notYourTurn", "illegalMove", "tooLarge", "internal"} <= codes
    assert sorted(c for c in codes if f"error.{c}" not in table) == []


def test_an_error_body_names_its_code_and_what_it_is_about(tmp_path):
    from fastapi.testclient import TestClient

    with TestClient(create_app(data_dir=tmp_path), headers=bearer(KEY)) as client:
        unknown = client.get("/api/matches/no-such-match").json()
        assert unknown["code"] == "noMatch" and unknown["params"] == {"id": "no-such-match"}
        made = client.post("/api/matches", json={
            "game": "tic-tac-toe", "players": [{"type": "human"}, {"type": "human"}]}).json()
        played = client.post(f"/api/matches/{made['id']}/moves", json={"move": "a1"})
        again = client.post(f"/api/matches/{made['id']}/moves",
                            json={"move": "a1", "revision": played.json()["revision"]}).json()
        assert again["code"] == "illegalMove" and again["params"] == {"move": "a1"}
        assert "a1" in again["error"]
        stranger = client.post(f"/api/matches/{made['id']}/moves", json={"move": "b2"},
                               headers=bearer("another-key-0123456789")).json()
        assert stranger["code"] == "notYourMatch"
        route = client.get("/api/nothing-here").json()
        assert route["code"] == "notFound" and route["error"]


@needs_node
def test_the_pages_say_errors_and_players_in_the_page_language():
    shown = run_node("""
      const out = {};
      i18n.setLanguage("ru");
      out.turn = i18n.errorText({error: "it is black's turn, a seat you do not hold",
        code: "notYourTurn", params: {player: "black"}});
      out.unknownCode = i18n.errorText({error: "something new", code: "neverHeardOf"});
      out.noCode = i18n.errorText({error: "an old server"});
      out.status = i18n.t("toMove", {name: i18n.playerName("Black"),
                                     of: i18n.playerOf("Black")});
      out.zrf = [i18n.playerName("Gote"), i18n.playerOf("Gote"), i18n.gameTitle("zrf:x")];
      out.title = i18n.gameTitle("connect-four");
      i18n.setLanguage("fr");
      out.fr = [i18n.t("toMove", {name: i18n.playerName("white"),
                                  of: i18n.playerOf("white")}),
                i18n.t("toMove", {name: i18n.playerName("X"), of: i18n.playerOf("X")}),
                i18n.t("toMove", {name: i18n.playerName("Sente"),
                                  of: i18n.playerOf("Sente")})];
      i18n.setLanguage("zh");
      out.zh = [i18n.gameTitle("connect-four"), i18n.playerName("white")];
      i18n.setLanguage("en");
      out.en = [i18n.playerName("White"), i18n.gameTitle("tic-tac-toe"),
                i18n.errorText({error: "no match 'x'", code: "noMatch", params: {id: "x"}})];
      console.log(JSON.stringify(out));
    """)
    assert shown["turn"] == "сейчас ход чёрных, а это не ваше место"
    assert shown["unknownCode"] == "something new" and shown["noCode"] == "an old server"
    assert shown["status"] == "ход чёрных"
    assert shown["zrf"] == ["Gote", "Gote", "zrf:x"]
    assert shown["title"] == "Четыре в ряд"
    assert shown["fr"] == ["au tour des Blancs", "au tour de X", "au tour de Sente"]
    assert shown["zh"] == ["四子棋", "白方"]
    assert shown["en"] == ["White", "Tic-tac-toe", "no match x"]


def test_russian_and_chinese_differ_from_english_but_for_names_and_symbols(table):
    same = set()
    for key, entry in table.items():
        for lang in ("ru", "zh"):
            english, other = entry["en"], entry[lang]
            if isinstance(english, dict) and isinstance(other, dict):
                if any(other.get(c) == text for c, text in english.items()):
                    same.add(key)
            elif forms(other) == forms(english) or english in forms(other):
                same.add(key)
    assert sorted(same - SAME_AS_ENGLISH) == []
    assert set(table) >= SAME_AS_ENGLISH


# --- no English on the Russian and Chinese pages ------------------------------------------
def english_phrases(table: dict, lang: str) -> list[str]:
    """The English of the table as it could show on a page: each piece of text between
    parameters, of four letters or more, that the `lang` translation of the same phrase
    does not contain too (a name such as Goff or Dagaz)."""
    found = set()
    for entry in table.values():
        translated = " ".join(forms(entry[lang])).lower()
        for text in forms(entry["en"]):
            for piece in re.split(r"\{\w+\}", text):
                piece = piece.strip(" ,.;:()–—-")
                if len(re.findall(r"[A-Za-z]", piece)) >= 4 and piece.lower() not in translated:
                    found.add(piece)
    return sorted(found)


def english_on(page, phrases: list[str]) -> list[str]:
    """The phrases of `phrases` that `page` shows as whole words: in its text, document
    title and title, aria-label and placeholder attributes, outside elements marked as
    another language."""
    shown = page.evaluate("""() => {
      const lang = document.documentElement.lang;
      const foreign = (el) => {
        const marked = el.closest("[lang]");
        return marked && marked !== document.documentElement && marked.lang !== lang;
      };
      let text = document.body.innerText;
      for (const el of document.body.querySelectorAll("[lang]")) {
        if (foreign(el) && el.innerText) text = text.split(el.innerText).join(" ");
      }
      const parts = [text, document.title];
      for (const el of document.querySelectorAll("[title], [aria-label], [placeholder]")) {
        if (foreign(el)) continue;
        for (const name of ["title", "aria-label", "placeholder"]) {
          if (el.hasAttribute(name)) parts.push(el.getAttribute(name));
        }
      }
      return parts.join("\\n");
    }""")
    return [p for p in phrases
            if re.search(r"(?<![A-Za-z])" + re.escape(p) + r"(?![A-Za-z])", shown, re.I)]


#: The games whose pages are opened, with a few moves so their boards, move lists and
#: statuses show.
GAMES = {"tic-tac-toe": ["b2", "a1"], "connect-four": ["d", "e"], "othello": [],
         "abalone": [], "nine-mens-morris": [], "quantum-tic-tac-toe": [],
         "hex-column-checkers": []}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The real server with a Triplex pack and matches: one page per game, a finished
    match, and an open public game with options; yields (url, {page name: path})."""
    import httpx

    from boardlab.puzzles.polyomino.generator import generate_levels
    from boardlab.puzzles.polyomino.pack import Pack

    folder = tmp_path_factory.mktemp("i18n-everywhere")
    levels = generate_levels([(4, 2), (3, 3)], "triplex", seed=0, backend="serial")
    pack = Pack.build(levels, b"i18n everywhere", "triplex", name="№1")
    (folder / "packs").mkdir()
    pack.public().save(folder / "packs" / "one.json")
    humans = [{"type": "human"}, {"type": "human"}]
    with serving(create_app(data_dir=folder)) as url:
        pages = {"lobby": "/", "pipes": "/pipes", "triplex": f"/triplex/{pack.salt.hex()}"}
        with httpx.Client(base_url=url, timeout=30, headers=bearer(KEY)) as client:
            for game, moves in GAMES.items():
                made = client.post("/api/matches", json={"game": game, "players": humans})
                assert made.status_code == 201, made.text
                for move in moves:
                    assert client.post(f"/api/matches/{made.json()['id']}/moves",
                                       json={"move": move}).status_code == 200
                pages[game] = f"/game?match={made.json()['id']}"
            over = client.post("/api/matches", json={"game": "three-mens-morris",
                                                     "players": humans}).json()
            assert client.post(f"/api/matches/{over['id']}/resign", json={}).status_code == 200
            pages["resigned"] = f"/game?match={over['id']}"
            waiting = client.post("/api/matches", json={
                "game": "taacoca", "options": {"group": "any"}, "public": True,
                "players": [{"type": "human"}, {"type": "open"}]})
            assert waiting.status_code == 201, waiting.text
            pages["waiting"] = f"/game?match={waiting.json()['id']}"
            pages.update(quest_pages(client))
        yield url, pages


READY = {"lobby": "#open-games tbody tr[data-match]", "pipes": "#board svg",
         "triplex": "#board .cell", "quest-new": "#new-form",
         "quest-team": "#grid svg .cell:not(.hidden)",
         "quest-organiser": ".team-card .quest-grid svg"}


@browser_only
@pytest.mark.parametrize("lang", ["ru", "zh"])
def test_no_english_phrase_on_any_page(site, table, lang, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    url, pages = site
    phrases = english_phrases(table, lang)
    assert len(phrases) > 300
    shots = screenshots(tmp_path, "i18n")
    english: dict[str, list[str]] = {}
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        context = browser.new_context(locale="en-US", viewport={"width": 1200, "height": 900})
        hold_seats(context)
        context.add_init_script(f"localStorage.setItem('boardlab.language', '{lang}')")
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        try:
            for name, path in pages.items():
                page.goto(url + path)
                page.wait_for_selector(READY.get(name, "body[data-ready='1']"))
                if name == "lobby":
                    page.wait_for_selector("#games tr[data-game] td.description")
                    page.wait_for_selector("#triplex-packs li")
                assert page.evaluate("document.documentElement.lang") == lang
                english[name] = english_on(page, phrases)
                page.screenshot(path=str(shots / f"{name}-{lang}.png"), full_page=True)
            # the new-game dialog, with a game's options, players and bots
            page.goto(url + "/")
            page.locator("#games tr[data-game='quantum-tic-tac-toe'] button.new-game").click()
            page.wait_for_selector("#setup[open]")
            english["new game dialog"] = english_on(page, phrases)
            page.screenshot(path=str(shots / f"lobby-setup-{lang}.png"))
        finally:
            context.close()
            browser.close()
    assert not errors, errors
    assert {name: found for name, found in english.items() if found} == {}
