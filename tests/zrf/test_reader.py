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


def test_a_parameter_the_call_leaves_unbound_takes_the_enclosing_calls_argument():
    # Zillions expands a macro body's own calls first, as text: a $2 that (capture-it)
    # leaves unbound is the $2 of the macro whose body holds the call (Makyek's
    # common-capture, called with no arguments from slide macros of five).
    text = """(define capture-it (capture $2) (set-flag done $3))
    (define jump ($1 (capture-it) $1 add))
    (moves (jump n e true) (jump s w false))"""
    (moves,) = read(text, "j.zrf")
    assert str(moves) == ("(moves (n (capture e) (set-flag done true) n add) "
                          "(s (capture w) (set-flag done false) s add))")
    # An argument given to the inner call wins over the enclosing call's.
    (moves,) = read("(define m (k $1))\n(define o (m z) $1)\n(moves (o a))", "j.zrf")
    assert str(moves) == "(moves (k z) a)"


def test_a_macro_called_again_with_the_same_arguments_shares_its_expansion():
    (moves,) = read("(define step ($1 (verify empty?) add))\n(moves (step n) (step n) "
                    "(step s))")
    first, second, third = moves.rest
    assert first is second and first is not third and str(third) == "(s (verify empty?) add)"
    # The size counts every use: what a reader walking the tree meets.
    assert moves.size == 1 + 1 + 3 * 6


def _nested(depth: int) -> str:
    return "(game " + "(a " * depth + ")" * (depth + 1)


@pytest.mark.parametrize(("text", "message"), [
    # The 201st parenthesis: "(game " then "(a " each, at column 7 + 3 * 199.
    (_nested(500), "g.zrf:1:604: lists nested more than 200 deep (the bound on nesting)"),
    # 2**40 atoms spliced from 41 small definitions: refused long before they are
    # spliced into one list.
    ("".join(f"(define a{i} (a{i - 1}) (a{i - 1}))\n" for i in range(1, 41))
     + "(define a0 x)\n(game (moves (a40)))",
     "the expanded file needs more than 150,000 nodes (the bound on expansion)"),
    # 3**40 nodes in lists nested 40 deep, each shared: refused as the size passes the
    # bound, though few nodes were built.
    ("".join(f"(define a{i} (x (a{i - 1}) (a{i - 1}) (a{i - 1})))\n" for i in range(1, 41))
     + "(define a0 x)\n(game (moves (a40)))",
     "the expanded file has more than 5,000,000 nodes (the bound on expansion)"),
    # Macros that nest a list each, 60 deep, used 150 lists deep: 211 after expansion.
    ("".join(f"(define d{i} (x (d{i - 1})))\n" for i in range(1, 61)) + "(define d0 y)\n"
     + "(game " + "(w " * 150 + "(d60)" + ")" * 151,
     "lists nested more than 200 deep after macro expansion (the bound on nesting)"),
    # Many calls, each with arguments of its own: no expansion can be shared.
    ("(define m (a (b $1) (c $1) (d $1) (e $1)))\n(game "
     + " ".join(f"(m x{i})" for i in range(60_000)) + ")",
     "the expanded file needs more than 150,000 nodes (the bound on expansion)"),
])
def test_hostile_input_is_refused_at_a_bound_naming_the_place(text, message):
    with pytest.raises(ZrfError) as error:
        read(text, "g.zrf")
    assert message in str(error.value)
    assert str(error.value).startswith("g.zrf:")


def test_a_file_beyond_the_size_bound_is_refused_before_it_is_read(tmp_path):
    from boardlab.zrf.reader import MAX_FILE_BYTES

    path = tmp_path / "huge.zrf"
    path.write_text("(define unused (a b c))\n" * (MAX_FILE_BYTES // 20))
    with pytest.raises(ZrfError, match=r"huge.zrf:1:1: the file has [\d,]+ bytes, more than "
                                       r"1,000,000 \(the bound on a rule file\)"):
        load(path, "huge.zrf")


def test_an_empty_file_names_its_first_line(tmp_path):
    from boardlab.zrf.model import game_spec

    with pytest.raises(ZrfError, match=r"^e.zrf:1:1: no \(game \.\.\.\) in this file"):
        game_spec(read("", "e.zrf"), "e.zrf")
