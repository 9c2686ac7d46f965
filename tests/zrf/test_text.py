"""A rule file's text as the rules show it: Zillions' display strings (``\\`` a line
break, ``\\\\`` a paragraph break, a backquote a double quote) in the rules of
``boardlab rules --json`` with every word and break and nothing read as markup; files in
UTF-8, cp1252 and cp1251 read with the right letters. The truth is Zillions' conventions
as its documentation states them and Python's own codecs writing the files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from boardlab.cli.main import app
from boardlab.markup import rst_to_html, rst_to_markdown
from boardlab.zrf.game import load_game
from boardlab.zrf.text import code_page, decode, display_line, display_rst, display_text
from tests.test_markup import MARKUP, PRINTABLE, html_text, markdown_text, read_back

runner = CliRunner()


def rule_file(title: str, description: str) -> str:
    """A small game (a piece stepping to the far row) with this title and description."""
    return f"""; {title}
(game (title "{title}")
 (description "{description}")
 (players A B)
 (board (grid (dimensions ("a/b/c" (1 0)) ("3/2/1" (0 1)))
              (directions (n 0 -1) (s 0 1)))
        (zone (name goal) (players A) (positions a3 b3 c3))
        (zone (name goal) (players B) (positions a1 b1 c1)))
 (piece (name P) (help "P: steps `forward`\\one cell")
        (moves (n (verify empty?) add) (s (verify empty?) add)))
 (board-setup (A (P a1)) (B (P c3)))
 (win-condition (A B) (absolute-config P (goal))))
"""


def rules_json(path: Path) -> dict:
    result = runner.invoke(app, ["rules", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# --- display strings ----------------------------------------------------------------------------
def test_breaks_quotes_and_reflowing():
    assert display_text("Pawn\\A Pawn can move\n      one step.") == \
        "Pawn\nA Pawn can move one step."
    assert display_text("One.\\\\Two,\\ three.\\\\\\\\\\\\Four") == \
        "One.\n\nTwo,\nthree.\n\nFour"
    assert display_text("Say `check`.") == 'Say "check".'
    # three backslashes: a paragraph break, then a line break (of nothing)
    assert display_text("a\\\\\\b") == "a\n\nb"
    # an empty line between two breaks shows as a blank line: a paragraph break
    assert display_text("a\\ \\b") == "a\n\nb"
    assert display_text("\\\\  \\ ") == ""
    assert display_line("Title\\ with `a` break") == 'Title with "a" break'


#: Display strings: markup of either language, Zillions' breaks, printable text.
DISPLAY = st.lists(MARKUP | PRINTABLE | st.sampled_from(["\\", "\\\\", "\\\\\\", "`"]),
                   max_size=40).map("".join)


@settings(deadline=None)  # docutils takes its time on a shared machine
@given(DISPLAY)
@example("This variant:\\\\\n    - Royal piece moves.\\\\\n    - A pawn may drop \\\n"
         "      on any square.")
@example("1. Object:\\ *Checkmate* the `King`\\\\ |x| _y_ :role:`z` [1]_ a@b.org")
def test_a_display_string_shows_exactly_its_words(raw):
    rst = display_rst(raw)
    # docutils reads back the paragraphs and lines of the string and nothing else
    assert read_back(rst) == [p.split("\n") for p in display_text(raw).split("\n\n") if p]
    words = raw.replace("\\", " ").replace("`", '"').split()
    markdown, html = rst_to_markdown(rst), rst_to_html(rst)
    assert "\x00" not in markdown and "\x00" not in html
    assert markdown_text(markdown).split() == words
    assert html_text(html).split() == words


# --- the rules of a file ------------------------------------------------------------------------
def test_rules_keep_the_files_breaks_and_quotes(tmp_path):
    path = tmp_path / "breaks.zrf"
    path.write_text(rule_file(
        "Breaks `n` quotes",
        "This variant has the following differences:\\\\\n"
        "      - Royal piece is moved by the same rules as the pawns.\\\\\n"
        "      * A pawn may be dropped on any free \\\n"
        "        square of the board.\\\\\n"
        "Object: 1. reach the far row\\2. say `done`"), encoding="utf-8")
    data = rules_json(path)
    rules, source = data["rules"], data["rules_source"]
    assert "\x00" not in rules and "\x00" not in source
    shown = markdown_text(rules)
    assert "\\" not in shown and "`" not in shown
    # each \\ a paragraph, each \ a line break (a hard break in Markdown)
    assert rules.split("\n\n")[:5] == [
        'Breaks "n" quotes',
        "This variant has the following differences:",
        "\\- Royal piece is moved by the same rules as the pawns.",
        "\\* A pawn may be dropped on any free  \nsquare of the board.",
        'Object: 1. reach the far row  \n2\\. say "done"']
    # nothing became a list, a definition list or a block quote
    assert read_back(source)[:5] == [
        ['Breaks "n" quotes'], ["This variant has the following differences:"],
        ["- Royal piece is moved by the same rules as the pawns."],
        ["* A pawn may be dropped on any free", "square of the board."],
        ["Object: 1. reach the far row", '2. say "done"']]
    assert "Players: A, B. Pieces: P." in rules
    html = rst_to_html(source)
    assert "<li>" not in html and "<dl" not in html and "<blockquote" not in html
    assert html.count('<div class="line">') == 4


def test_names_from_the_file_are_escaped_too(tmp_path):
    path = tmp_path / "a_b.zrf"
    path.write_text(rule_file("*Stars*", "|sub| and name_").replace("(players A B)",
                                                                     "(players A_ B*)")
                    .replace("(A B)", "(A_ B*)").replace("(A (P", "(A_ (P")
                    .replace("(B (P", "(B* (P").replace("(players A)", "(players A_)")
                    .replace("(players B)", "(players B*)"), encoding="utf-8")
    shown = markdown_text(rules_json(path)["rules"])
    assert shown.startswith("*Stars* |sub| and name_ Read from the rule file a_b.zrf. "
                            "Players: A_, B*. Pieces: P.")


# --- encodings ----------------------------------------------------------------------------------
RUSSIAN = "Волки и Козлёнок"


@pytest.mark.parametrize(("title", "description", "encoding"), [
    (RUSSIAN, "Провести белую фишку на последнюю горизонталь", "cp1251"),
    ("Café Müller", "Déplacez le pion où vous voulez; Übung macht den Meister", "cp1252"),
    (f"{RUSSIAN}, Café Müller", "Ёлка, ёж; señor, naïve", "utf-8"),
    (f"{RUSSIAN}, Café Müller", "Ёлка, ёж; señor, naïve", "utf-8-sig"),
], ids=["cp1251", "cp1252", "utf-8", "utf-8 with a byte order mark"])
def test_a_file_loads_with_its_letters(tmp_path, title, description, encoding):
    path = tmp_path / "letters.zrf"
    path.write_bytes(rule_file(title, description).encode(encoding))
    game = load_game(path)
    assert game.spec.title == title and game.description == title
    assert game.spec.description == description
    assert rules_json(path)["rules"].startswith(f"{title}\n\n{description}\n\n")


def test_code_pages_are_told_apart_by_their_words():
    assert code_page(RUSSIAN.encode("cp1251")) == "cp1251"
    # a Russian comment in a file of ASCII code is enough
    russian_comment = "(define step ($1 add)) ; шаг вперёд\n(game (title \"Wolves\"))"
    assert code_page(russian_comment.encode("cp1251")) == "cp1251"
    # words with accents among ASCII letters are Western, as are one-letter words
    for text in ("Fuhyô (Fuhei, Soldier or Pawn)", "à où ça", "Müller Öl ÉTÉ",
                 "3×3 ÷ 2", "plain ASCII"):
        assert code_page(text.encode("cp1252")) == "cp1252", text
    # where both kinds are present the more frequent wins (ф is ô's byte in cp1251)
    assert code_page("шаг вперёд Fuhyф".encode("cp1251")) == "cp1251"
    assert code_page("Fuhyô Kinshô ÔshÔ éè".encode("cp1252")) == "cp1252"


@given(st.binary())
def test_any_bytes_decode(data):
    text = decode(data)
    assert isinstance(text, str)
    if not re.search(rb"[\x80-\xff]", data):
        assert text == data.decode("ascii").removeprefix("\ufeff")
