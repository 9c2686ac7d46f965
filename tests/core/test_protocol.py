"""The protocol's values: options, the registry, moves and their generic notation."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import boardlab
from boardlab.core.board import Board
from boardlab.core.game import Option
from boardlab.core.move import (
    Capture,
    Change,
    Move,
    Piece,
    Place,
    Shift,
    format_actions,
    parse_actions,
)
from boardlab.errors import IllegalMoveError, NotationError, OptionError, UnknownGameError

BOARD = Board.square(12, 12)
PIECES = {Piece(0, "man"): "P", Piece(1, "king"): "k"}

cells = st.integers(min_value=0, max_value=BOARD.size - 1)
pieces = st.sampled_from([Piece(0, "man"), Piece(1, "king"), Piece(2, "queen")])
actions = st.one_of(
    st.builds(Shift, cells, cells),
    st.builds(Capture, cells),
    st.builds(Place, cells, pieces),
    st.builds(Change, cells, pieces),
)


@given(st.lists(actions, min_size=1, max_size=6))
def test_generic_notation_round_trips(acts):
    text = format_actions(acts, BOARD, PIECES)
    # Where a piece comes from (from_reserve) is not part of the notation.
    assert parse_actions(text, BOARD, PIECES) == tuple(
        a._replace(from_reserve=False) if isinstance(a, Place | Change) else a for a in acts)


@pytest.mark.parametrize("text, message", [
    ("", "empty move"),
    ("a1b2", "not an action"),
    ("a1-z99", "'z99': no such cell"),
    ("Q@a1", "unknown piece"),
])
def test_generic_notation_errors_name_the_token(text, message):
    with pytest.raises(NotationError, match=message):
        parse_actions(text, BOARD, PIECES)


def test_moves_are_immutable_values():
    m = Move("a1-b2", (Shift(0, 13),), tag="x")
    assert m == Move("a1-b2", (Shift(0, 13),)) and hash(m) == hash(Move("a1-b2", (Shift(0, 13),)))
    with pytest.raises(AttributeError):
        m.notation = "b2"  # type: ignore[misc]
    assert m.moved_cells() == [(0, 13)]


def test_options_validate_and_parse():
    opt = Option("rows", 6, minimum=4, maximum=20)
    assert opt.parse("7") == 7 and opt.validate("8") == 8
    with pytest.raises(OptionError, match="integer"):
        opt.validate("seven")
    with pytest.raises(OptionError, match=">= 4"):
        opt.validate(3)
    flag = Option("misere", False)
    assert flag.parse("on") is True and flag.parse("no") is False
    with pytest.raises(OptionError):
        flag.parse("maybe")
    choice = Option("scoring", "narrow", choices=("narrow", "complete"))
    with pytest.raises(OptionError, match="one of narrow, complete"):
        choice.validate("wide")


def test_registry_and_load():
    names = boardlab.names()
    assert "tic-tac-toe" in names and names == sorted(names)
    with pytest.raises(UnknownGameError, match="unknown game 'chess-9000'"):
        boardlab.load("chess-9000")
    with pytest.raises(OptionError, match="unknown option 'size'"):
        boardlab.load("tic-tac-toe", size=4)
    g = boardlab.load("breakthrough", rows=6, columns=5)
    assert g.options == {"rows": 6, "columns": 5} and g != boardlab.load("breakthrough")
    assert g.initial_state().legal_moves()[0].notation == "a2-a3"


def test_one_resolve_makes_every_game_the_front_ends_name():
    from pathlib import Path

    from boardlab.catalog import resolve
    from boardlab.core.engine import Engine
    from boardlab.zrf.game import ZrfGame, read

    # Options as the command line gives them (text, "-" for "_") and as JSON does (an
    # integer for a float option): the same game as the keyword arguments make.
    assert resolve("abalone", {"max-moves": "50"}) == boardlab.load("abalone", max_moves=50)
    assert resolve("connect-four", {"rows": 5}, engine="interpreter") == \
        boardlab.load("connect-four", rows=5, engine="interpreter")
    assert resolve(type(boardlab.load("breakthrough")), {"rows": "6"}).options["rows"] == 6
    # A rule file by its path and variant, or already read: one class, chess's perft.
    chess = Path(__file__).resolve().parents[1] / "data" / "zrf" / "chess" / "chess.zrf"
    for game in (resolve(str(chess), engine="interpreter"),
                 resolve(chess, engine="interpreter"),
                 resolve(read(chess), {"max-moves": "80"}, engine="interpreter")):
        assert isinstance(game, ZrfGame) and game.engine is Engine.INTERPRETER
        assert boardlab.perft(game.initial_state(), 2) == [20, 400]
    assert resolve(read(chess), {"max_moves": 80}).ruleset.ply_limit == 80
    # The web server's games start in the background; a game written in Python has no
    # engine to start.
    assert resolve("breakthrough", background=True).engine is Engine.default(background=True)
    assert resolve("quantum-tic-tac-toe", background=True).name == "quantum-tic-tac-toe"
    for ref, options, more, message in [
            ("quantum-tic-tac-toe", {}, {"engine": "kernel"},
             "an engine applies to games of the move language; quantum-tic-tac-toe is"),
            ("breakthrough", {}, {"variant": 2}, "a variant applies to ZRF rule files only"),
            ("breakthrough", {"engine": "interpreter"}, {}, "breakthrough: the engine is "
             "chosen apart from the options (options: rows, columns)"),
            ("breakthrough", {"rows": "many"}, {}, "option 'rows' must be an integer"),
            (3, {}, {}, "3 names no game"),
            (read(chess), {}, {"variant": 1}, "a rule file already read is one variant")]:
        with pytest.raises(OptionError, match=message.replace("(", r"\(").replace(")", r"\)")):
            resolve(ref, options, **more)
    with pytest.raises(UnknownGameError, match="unknown game 'chess-9000'"):
        resolve("chess-9000")


def test_threads_that_ask_a_fresh_registry_at_once_all_see_every_game():
    # A fresh process (this one's registry is filled): before, the first thread marked
    # the registry found before importing the games, and the others saw it empty (a
    # server's first requests answered "unknown game").
    script = """
import json, threading
from boardlab.core import registry
barrier = threading.Barrier(8)
seen = []
def ask():
    barrier.wait()
    seen.append(len(registry.names()))
threads = [threading.Thread(target=ask) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
print(json.dumps([seen, len(registry.names())]))
"""
    for _ in range(3):
        seen, total = json.loads(subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout)
        assert total >= 17 and seen == [total] * 8


def test_play_parse_and_errors():
    game = boardlab.load("tic-tac-toe")
    state = game.initial_state()
    after = state.play("b2")
    assert str(state) == ".../.../... x" and str(after) == ".../.x./... o"
    with pytest.raises(IllegalMoveError, match="'b2'"):
        after.play("b2")
    with pytest.raises(NotationError, match="cell name"):
        after.parse_move("z9")
    with pytest.raises(IllegalMoveError, match=r"move 3\)"):
        state.play_all(["a1", "b1", "a1"])
    end = state.play_all(["a1", "b1", "a2", "b2", "a3"])
    assert end.outcome() == (Fraction(1), Fraction(0))
    with pytest.raises(IllegalMoveError, match="game is over"):
        end.parse_move("c3")
    with pytest.raises(NotationError, match="side to move"):
        game.parse_state(".../.../... z")


def test_rollout_leaves_state_unchanged():
    import random

    state = boardlab.load("breakthrough", rows=5, columns=3).initial_state()
    before = str(state)
    returns = state.rollout(random.Random(1))
    assert str(state) == before and sorted(returns) == [0, 1]
