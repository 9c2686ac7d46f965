"""The Triplex offline page: ``boardlab triplex export-html`` and the page's JavaScript logic.

Truth comes from outside the JavaScript under test: the test vector of
docs/polyomino-pack.md (section 8), the Python pack implementation
(:mod:`boardlab.puzzles.polyomino.pack`) walking a generated pack, and CLDR's Russian plural
forms written out by hand. The JavaScript runs under node (skipped when node is missing).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardlab.cli.main import app
from boardlab.puzzles.polyomino.generator import generate_levels
from boardlab.puzzles.polyomino.level import Level
from boardlab.puzzles.polyomino.pack import Pack
from boardlab.web.triplex import render_html

STATIC = Path(__file__).parents[2] / "src" / "boardlab" / "web" / "static" / "triplex"
#: The one phrase table of every page, the Triplex page's too.
I18N = STATIC.parent / "js" / "i18n.js"
SALT = b"boardlab test vector"
LEVEL_1 = Level.parse("level 4x2\nabbc\naacc\ndifficulty 2\n")
LEVEL_2 = Level.parse("level 4x2\nabbb\naacc\nrotatable c shown 1\ndifficulty 3\n")
runner = CliRunner()
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


@pytest.fixture(scope="module")
def packs(tmp_path_factory) -> tuple[Path, Path]:
    """A small generated pack (every level up to area 12): (public, master) files."""
    folder = tmp_path_factory.mktemp("pack")
    levels = generate_levels([(4, 2), (3, 3), (5, 2), (4, 3)], "triplex", seed=0,
                             backend="serial")
    pack = Pack.build(levels, b"export test", "triplex", name="Export <test> & co")
    pack.save(folder / "pack.master.json", with_solutions=True)
    pack.public().save(folder / "pack.json")
    return folder / "pack.json", folder / "pack.master.json"


def export(*args: str):
    return runner.invoke(app, ["triplex", "export-html", *args])


# -- the exported file -------------------------------------------------------------------------

def test_export_is_one_offline_file_with_every_level(packs, tmp_path: Path):
    public, master = packs
    out = tmp_path / "triplex.html"
    result = export(str(master), str(out))
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert "http://" not in page and "https://" not in page
    assert not re.search(r"<(script|link|img|iframe)[^>]*\s(src|href)=", page, re.I)
    assert not re.search(r"url\(|@import", page)
    assert "connect-src 'self'" in page and "default-src 'none'" in page
    embedded = json.loads(re.search(
        r'<script type="application/json" id="triplex-pack">(.*?)</script>', page, re.S
    ).group(1))
    # The public copy, levels encrypted exactly as in the pack file; no solutions.
    assert embedded == json.loads(public.read_text())
    assert "solutions" not in embedded
    for entry in json.loads(master.read_text())["levels"]:
        assert json.dumps(entry["data"]) in page and entry["tag"] in page
    assert "Export &lt;test&gt; &amp; co" in page
    config = re.search(r'id="triplex-config">(.*?)</script>', page).group(1)
    assert json.loads(config) == {"server": None}


def test_server_option_and_render(packs, tmp_path: Path):
    out = tmp_path / "online.html"
    result = export(str(packs[0]), str(out), "--server", "https://boards.example.org/")
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert '{"server":"https://boards.example.org"}' in page
    assert "connect-src 'self' https://boards.example.org" in page
    assert render_html(Pack.load(packs[0])).count("<script") == 5


@pytest.mark.parametrize(("content", "message"), [
    (None, "pack.json: no such file"),
    ("{\"format\": ", "not valid JSON"),
    ("[1, 2]", "not a level pack"),
    ("{\"format\": \"boardlab-polyomino-pack\", \"version\": 9}", "version"),
])
def test_bad_packs_are_one_line_exit_2_nothing_written(tmp_path: Path, content, message):
    pack = tmp_path / "pack.json"
    if content is not None:
        pack.write_text(content)
    out = tmp_path / "out.html"
    result = export(str(pack), str(out))
    assert result.exit_code == 2, result.output
    assert message in result.output and result.output.count("error:") == 1
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == ([pack] if content is not None else [])


def test_bad_server_and_missing_folder(packs, tmp_path: Path):
    result = export(str(packs[0]), str(tmp_path / "a.html"), "--server", "ftp://x")
    assert result.exit_code == 2 and "expected an http:// or https://" in result.output
    result = export(str(packs[0]), str(tmp_path / "no" / "a.html"))
    assert result.exit_code == 2 and "does not exist" in result.output
    assert list(tmp_path.iterdir()) == []


def test_every_page_string_is_translated():
    template = (STATIC / "index.html").read_text()
    keys = set(re.findall(r'data-i18n="(\w+)"', template))
    assert keys, "the template marks its strings with data-i18n"
    # the page's own script asks for its phrases with tr("key", ...)
    keys |= set(re.findall(r'\btr\("(\w+)"', (STATIC / "game.js").read_text()))
    assert len(keys) > 30
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    out = _node("""
      const I = require(I18N);
      const missing = [];
      for (const [key, entry] of Object.entries(I.MESSAGES))
        for (const l of I.LANGUAGES)
          if (entry[l.code] === undefined) missing.push(key + "/" + l.code);
      result = {keys: Object.keys(I.MESSAGES), missing};
    """)
    assert out["missing"] == []
    assert sorted(keys - set(out["keys"])) == []


def test_the_offline_page_inlines_the_shared_phrase_table(packs):
    # one table for every page: the export carries js/i18n.js itself, not a copy of its own
    page = render_html(Pack.load(packs[0]))
    assert I18N.read_text(encoding="utf-8") in page
    assert not (STATIC / "i18n.js").exists()


# -- the JavaScript logic under node ---------------------------------------------------------

def _node(body: str, data: object = None) -> dict:
    script = (f"const STATIC = {json.dumps(str(STATIC))};\n"
              f"const I18N = {json.dumps(str(I18N))};\n"
              "const DATA = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
              f"let result;\n{body}\nconsole.log(JSON.stringify(result));")
    run = subprocess.run(["node", "-e", script], input=json.dumps(data), capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@needs_node
def test_codes_and_decryption_match_the_docs_test_vector():
    pack = Pack.build([LEVEL_1, LEVEL_2], SALT, "triplex").to_json()
    out = _node("""
      const T = require(STATIC + "/triplex.js");
      const pack = T.readPack(DATA);
      const code1 = T.firstCode(pack);
      const level1 = T.unlockLevel(pack, 1, code1);
      const code2 = T.levelCode(pack.salt, 2, "abbc/aacc");
      const level2 = T.unlockLevel(pack, 2, code2.toLowerCase().replace("-", " "));
      const errors = ["ARYG-MASY", "QH4K-8XYN", "ARYG-MASU", "ARYG"].map(c => {
        try { T.unlockLevel(pack, 2, c); return "accepted"; }
        catch (e) { return [e.kind, e.position || null, e.length === undefined ? null : e.length]; }
      });
      const digest = T.toHex(T.hmac(T.utf8("boardlab test vector"), T.utf8("x")));
      result = {code1, code2, level1, level2, errors, digest,
                completion: T.levelCode(pack.salt, 3, "abbb/aacc"),
                sha: T.toHex(T.sha256(new Uint8Array(200).fill(97)))};
    """, pack)
    assert (out["code1"], out["code2"], out["completion"]) == \
        ("QH4K-8XYN", "ARYG-MASZ", "S6J9-BCXS")
    level1 = {k: v for k, v in out["level1"].items() if k != "number"}
    level2 = {k: v for k, v in out["level2"].items() if k != "number"}
    assert level1 == LEVEL_1.puzzle().to_json() and level2 == LEVEL_2.puzzle().to_json()
    assert out["errors"] == [["wrong", None, None], ["wrong", None, None],
                             ["malformed", 9, None], ["malformed", None, 4]]
    import hashlib
    import hmac
    assert out["digest"] == hmac.new(SALT, b"x", "sha256").hexdigest()
    assert out["sha"] == hashlib.sha256(b"a" * 200).hexdigest()


@needs_node
def test_the_javascript_walks_a_generated_pack(packs):
    public, master = packs
    data = json.loads(master.read_text())
    out = _node("""
      const T = require(STATIC + "/triplex.js");
      const pack = T.readPack(DATA);
      let code = T.firstCode(pack);
      const codes = [code], puzzles = [];
      DATA.solutions.forEach((solution, i) => {
        puzzles.push(T.unlockLevel(pack, i + 1, code));
        code = T.levelCode(pack.salt, i + 2, solution);
        codes.push(code);
      });
      result = {codes, puzzles};
    """, data)
    pack = Pack.load(master)
    assert tuple(out["codes"]) == pack.solve_chain()
    for n, puzzle in enumerate(out["puzzles"], start=1):
        assert puzzle.pop("number") == n
        assert puzzle == pack.level(n).puzzle().to_json()


@needs_node
def test_solved_is_decided_by_the_cover():
    level2 = LEVEL_2.puzzle().to_json()  # [V domino (rotatable, shown), I3, L]
    out = _node("""
      const T = require(STATIC + "/triplex.js");
      const level2 = DATA;
      const solved = p => T.solvedPlacements(level2, p);
      const horizontal = Object.assign({}, level2, {pieces: [[[0,0],[1,0]], level2.pieces[1],
                                                             level2.pieces[2]]});
      const four = {width: 4, height: 2, rotatable: null,
                    pieces: [[[0,0],[1,0]], [[0,0],[1,0]], [[0,0],[1,0]], [[0,0],[1,0]]]};
      const at = (x, y, turn) => ({x, y, turn: turn || 0});
      result = {
        turned: solved([at(2, 1, 1), at(1, 0), at(0, 0)]),
        turnedTwice: solved([at(2, 1, 3), at(1, 0), at(0, 0)]),
        unturnedShownAsPlaced: T.solvedPlacements(horizontal, [at(2, 1), at(1, 0), at(0, 0)]),
        wrongOrientation: solved([at(2, 1, 0), at(1, 0), at(0, 0)]),
        missing: solved([null, at(1, 0), at(0, 0)]),
        swapped: [T.solvedPlacements(four, [at(0,0), at(2,0), at(0,1), at(2,1)]),
                  T.solvedPlacements(four, [at(2,1), at(0,1), at(2,0), at(0,0)])],
        overlap: T.solvedCover(four, [[[0,0],[1,0]], [[1,0],[2,0]], [[0,1],[1,1]],
                                      [[2,1],[3,1]]]),
        gap: T.solvedCover(four, [[[0,0],[1,0]], [[0,1],[1,1]], [[2,1],[3,1]]]),
        outside: T.solvedCover(four, [[[0,0],[1,0]], [[2,0],[3,0]], [[0,1],[1,1]],
                                      [[3,1],[4,1]]]),
        wrongShapes: T.solvedCover(level2, [[[0,0],[1,0]], [[2,0],[3,0]], [[0,1],[1,1]],
                                           [[2,1],[3,1]]]),
        canPlace: [T.canPlace(level2, [null, at(1, 0), null], 0, at(0, 0)),
                   T.canPlace(level2, [null, at(1, 0), null], 0, at(1, 0)),
                   T.canPlace(level2, [null, null, null], 0, at(3, 1)),
                   T.canPlace(level2, [null, null, null], 0, at(3, 0, 0)),
                   T.canPlace(level2, [null, null, null], 0, at(3, 0, 1))],
        orientations: [T.orientations([[0,0],[0,1],[1,1]]).length,
                       T.orientations([[0,0],[1,0],[2,0]]).length],
      };
      result.code = result.turned && T.levelCode(T.utf8("boardlab test vector"), 3, result.turned);
    """, level2)
    assert out["turned"] == out["turnedTwice"] == "abbb/aacc"
    assert out["code"] == "S6J9-BCXS"
    assert out["unturnedShownAsPlaced"] == "abbb/aacc"
    assert out["wrongOrientation"] is None and out["missing"] is None
    assert out["swapped"] == ["aabb/ccdd", "aabb/ccdd"]
    assert out["overlap"] is None and out["gap"] is None and out["outside"] is None
    assert out["wrongShapes"] is None
    assert out["canPlace"] == [True, False, False, True, False]
    assert out["orientations"] == [4, 2]


@needs_node
def test_plurals_and_language_choice():
    out = _node("""
      const I = require(I18N);
      const ns = [1, 2, 5, 21, 0, 11, 22, 25, 101, 112];
      result = {
        seconds: ns.map(n => I.translate("ru", "secondsAgo", {n})),
        levels: [1, 2, 5, 21].map(n => I.translate("ru", "levelsSolved", {n})),
        ago: [I.agoIn("ru", 120), I.agoIn("ru", 3600 * 5), I.agoIn("ru", 86400 * 21),
              I.agoIn("ru", 2), I.agoIn("en", 60), I.agoIn("de", 7200), I.agoIn("fr", 1),
              I.agoIn("zh", 30)],
        en: [1, 2].map(n => I.translate("en", "levelsSolved", {n})),
        pick: [I.pickLanguage(["ru-RU", "en"]), I.pickLanguage(["es", "de-AT"]),
               I.pickLanguage(["zh-Hans-CN"]), I.pickLanguage(["es"]), I.pickLanguage([])],
        duration: [I.durationIn("ru", 42), I.durationIn("en", 83),
                   I.durationIn("en", 3725)],
      };
    """)
    assert out["seconds"] == [
        "1 секунду назад", "2 секунды назад", "5 секунд назад", "21 секунду назад",
        "0 секунд назад", "11 секунд назад", "22 секунды назад", "25 секунд назад",
        "101 секунду назад", "112 секунд назад"]
    assert out["levels"] == ["1 уровень решён", "2 уровня решено", "5 уровней решено",
                             "21 уровень решён"]
    assert out["ago"] == ["2 минуты назад", "5 часов назад", "21 день назад", "только что",
                          "1 minute ago", "vor 2 Stunden", "à l'instant", "30 秒前"]
    assert out["en"] == ["1 level solved", "2 levels solved"]
    assert out["pick"] == ["ru", "de", "zh", "en", "en"]
    assert out["duration"] == ["42 секунды", "1:23", "1:02:05"]


@needs_node
def test_solved_with_several_rotatable_pieces():
    # --rotatable 2: the game decides a cover with two turned pieces, each matched to a
    # rotatable piece by the orientations it may take, as Level.from_puzzle does.
    level = Level.parse("level 4x2\nabbb\naacc\nrotatable c shown 1\nrotatable a shown 3\n")
    puzzle = level.puzzle().to_json()
    assert isinstance(puzzle["rotatable"], list) and len(puzzle["rotatable"]) == 2
    out = _node("""
      const T = require(STATIC + "/triplex.js");
      const solution = [[[0,0],[0,1],[1,1]], [[1,0],[2,0],[3,0]], [[2,1],[3,1]]];
      const mirrored = [[[3,0],[3,1],[2,1]], [[0,0],[1,0],[2,0]], [[0,1],[1,1]]];
      result = {
        turning: T.turning(DATA),
        solved: T.solvedCover(DATA, solution),
        mirrored: T.solvedCover(DATA, mirrored),
        fixedOnly: T.solvedCover(Object.assign({}, DATA, {rotatable: null}), solution),
        shapes: DATA.rotatable.map(i => T.orientations(DATA.pieces[i]).length),
      };
    """, puzzle)
    assert out["turning"] == puzzle["rotatable"]
    assert out["solved"] == "abbb/aacc"
    assert out["mirrored"] == "aaab/ccbb"  # the turned pieces fit the mirror image too
    assert out["fixedOnly"] is None  # the shown orientations alone do not cover it
    assert sorted(out["shapes"]) == [2, 4]
    assert Level.from_puzzle(level.puzzle(), ["aaab", "ccbb"]).solution_checksum() \
        == b"aaab/ccbb"
