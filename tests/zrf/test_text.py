"""A rule file's text: files in UTF-8, cp1252 and cp1251 read with the right letters.
The truth is Python's own codecs writing the files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from boardlab.cli.main import app
from boardlab.zrf.game import load_game
from boardlab.zrf.text import code_page, decode

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
