"""The ZRF reader: tokens, s-expressions, macros and the places errors name."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardlab.errors import ZrfError
from boardlab.zrf.reader import MAX_EXPANSION_DEPTH, Atom, SList, decode, load, parse, read

#: The 339 Dagaz rule files (MIT licence, see its LICENSE.txt), kept as test data.
CORPUS = Path(__file__).resolve().parents[1] / "data" / "zrf"


def test_tokens_strings_comments_and_places():
    forms = parse('; a comment\n(game (title "Two\nlines") ; trailing\n  (players White Black))',
                  "g.zrf")
    (game,) = forms
    assert isinstance(game, SList) and game.head == "game"
    title = game[1]
    assert isinstance(title, SList) and title[1] == Atom("Two\nlines", title[1].where, True)
    assert (title.where.line, title.where.column) == (2, 7)
    players = game[2]
    assert str(players) == "(players White Black)"
    assert (players[2].where.line, players[2].where.column) == (4, 18)


def test_backslashes_stay_in_strings():
    (form,) = parse(r'(move-sound "Audio\Pickup.wav")')
    assert form[1].text == r"Audio\Pickup.wav"


@pytest.mark.parametrize(("text", "message"), [
    ("(game\n  (title \"x\")", "g.zrf:1:1: unbalanced parenthesis: this '(' is never closed"),
    ("(game))", "g.zrf:1:7: unbalanced parenthesis: this ')' closes nothing"),
    ('(title "x)', "g.zrf:1:8: unterminated string"),
])
def test_unbalanced_input_names_the_place(text, message):
    with pytest.raises(ZrfError) as error:
        parse(text, "g.zrf")
    assert str(error.value).startswith(message)


def test_macros_substitute_splice_and_redefine():
    text = """
    (define step ($1 (verify empty?) add))
    (define two-steps (step $1) (step $2))
    (define dirs n s)
    (moves (two-steps n e) (leap (dirs)) (p dirs))
    (define step ($1 add))
    (moves (step w))
    """
    first, second = read(text)
    # The later definition of step wins for the whole file; a bare macro name is data.
    assert str(first) == "(moves (n add) (e add) (leap n s) (p dirs))"
    assert str(second) == "(moves (w add))"


def test_pasted_arguments_in_symbols_and_strings():
    (piece,) = read('(define T (piece (name $1$2) (image You "images/$1.bmp")))\n(T Tile 7)')
    assert str(piece) == '(piece (name Tile7) (image You "images/Tile.bmp"))'
    with pytest.raises(ZrfError, match=r"pastes \$1 into 'x\$1', but the argument is a list"):
        read("(define T (name x$1))\n(T (a b))")


def test_includes_are_resolved_beside_the_file(tmp_path):
    (tmp_path / "lib.zrf").write_text("(define step ($1 add))\n")
    main = tmp_path / "game.zrf"
    main.write_text('(include "lib.zrf")\n(moves (step n))\n')
    assert [str(f) for f in load(main, "game.zrf")] == ["(moves (n add))"]
    main.write_text('(include "../elsewhere.zrf")\n')
    with pytest.raises(ZrfError, match="game.zrf:1:1: include '../elsewhere.zrf' points "
                                       "outside the rule file's folder"):
        load(main, "game.zrf")
    main.write_text('(include "missing.zrf")\n')
    with pytest.raises(ZrfError, match="include 'missing.zrf': .*missing.zrf: no such file"):
        load(main, "game.zrf")
    with pytest.raises(ZrfError, match="include needs the rule file's folder"):
        read('(include "lib.zrf")')


def test_macro_nodes_remember_the_call():
    text = "(define step\n ($1 (verify empty?) add))\n(moves\n (step n))"
    (moves,) = read(text, "m.zrf")
    body = moves[1]
    verify = body[1]
    assert (verify.where.line, verify.where.column) == (2, 6)
    assert (verify.where.via.line, verify.where.via.column) == (4, 2)
    # The argument keeps its own place, the call site.
    assert (body[0].where.line, body[0].where.column) == (4, 8)
    assert body[0].where.via is None


def test_macro_errors():
    with pytest.raises(ZrfError, match=r"m.zrf:1:18: macro 'step' uses \$2 but was given 1 "
                                       r"argument at line 2, column 1"):
        read("(define step ($1 $2))\n(step n)", "m.zrf")
    with pytest.raises(ZrfError, match=f"more than {MAX_EXPANSION_DEPTH} levels deep"):
        read("(define loop (loop))\n(loop)", "m.zrf")
    with pytest.raises(ZrfError, match="define needs a name"):
        read("(define)", "m.zrf")


def test_cp1252_files_are_read():
    assert decode("(title \"Caf\u00e9\")".encode("cp1252")) == "(title \"Caf\u00e9\")"
    assert decode("\ufeff(x)".encode()) == "(x)"


def test_the_corpus_reads():
    failed = {}
    files = sorted(CORPUS.rglob("*.zrf"))
    for path in files:
        try:
            load(path, str(path.relative_to(CORPUS)))
        except ZrfError as e:
            failed[str(path.relative_to(CORPUS))] = str(e)
    assert len(files) == 339
    # Ohojichi calls a two-argument macro with one argument: Zillions refuses it too.
    assert failed == {"mancala/ohojichi.zrf": "mancala/ohojichi.zrf:2:21: macro 'step' uses "
                      "$2 but was given 1 argument at line 69, column 9"}
