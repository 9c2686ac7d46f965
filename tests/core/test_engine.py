"""The engine a game of the move language is made with: which backend plays its
positions, chosen with the game and kept by everything made from it."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
from typer.testing import CliRunner

import boardlab
from boardlab.cli.main import app
from boardlab.core import kernel
from boardlab.core.engine import Engine
from boardlab.core.game import perft
from boardlab.errors import OptionError
from boardlab.web.matches import Matches
from boardlab.zrf.game import load_game

CHESS = Path(__file__).resolve().parents[1] / "data" / "zrf" / "chess" / "chess.zrf"


@pytest.fixture(autouse=True)
def _kernels_on(monkeypatch):
    monkeypatch.delenv("BOARDLAB_KERNELS", raising=False)


def test_a_game_s_positions_are_played_by_its_engine():
    fast = boardlab.load("breakthrough")
    plain = fast.using(Engine.INTERPRETER)
    assert fast.engine is Engine.KERNEL and plain.engine is Engine.INTERPRETER
    # The same game: same class, same options, equal; only the backend differs.
    assert plain == fast and type(plain) is type(fast) and plain.options == fast.options
    start = plain.initial_state()
    assert not isinstance(start, kernel.KernelPosition)
    assert isinstance(fast.initial_state(), kernel.KernelPosition)
    # Every position made from a plain one is plain: its moves, copies, text, turns.
    later = start.play_all(["a2-a3", "h7-h6"])
    for made in (later, later.clone(), plain.parse_state(str(later)), later.with_turn(0)):
        assert not isinstance(made, kernel.KernelPosition)
    assert perft(start, 3) == perft(fast.initial_state(), 3) == [22, 484, 11132]
    # The interpreter's game never looked for a kernel.
    assert plain.kernel_found is None and fast.kernel_found is not None


def test_the_engine_is_given_by_name_or_value_and_an_unknown_one_is_named():
    assert boardlab.load("tic-tac-toe", engine="interpreter").engine is Engine.INTERPRETER
    assert boardlab.load("tic-tac-toe", engine=Engine.BACKGROUND).engine is Engine.BACKGROUND
    with pytest.raises(OptionError, match="unknown engine 'fast' "
                                          r"\(engines: kernel, background, interpreter\)"):
        boardlab.load("tic-tac-toe", engine="fast")
    # A game written in Python has no engine to choose.
    with pytest.raises(OptionError, match="unknown option 'engine'"):
        boardlab.load("quantum-tic-tac-toe", engine="interpreter")


def test_the_default_engine_follows_the_environment(monkeypatch):
    assert boardlab.load("tic-tac-toe").engine is Engine.KERNEL
    assert Engine.default(background=True) is Engine.BACKGROUND
    monkeypatch.setenv("BOARDLAB_KERNELS", "0")
    assert boardlab.load("tic-tac-toe").engine is Engine.INTERPRETER
    assert Engine.default(background=True) is Engine.INTERPRETER
    assert not isinstance(boardlab.load("tic-tac-toe").initial_state(), kernel.KernelPosition)


@pytest.mark.parametrize("engine", list(Engine))
def test_a_game_built_again_from_its_recipe_keeps_its_engine(engine):
    for game in (boardlab.load("breakthrough", rows=6, engine=engine),
                 load_game(CHESS, engine=engine)):
        build, args, kwargs = pickle.loads(pickle.dumps(game.recipe()))
        again = build(*args, **kwargs)
        # (A rule file read again is a class of its own: not equal, the same game.)
        assert again.engine is engine and again.name == game.name
        assert dict(again.options) == dict(game.options)
        assert again.using(Engine.KERNEL).engine is Engine.KERNEL


def test_the_web_server_builds_its_games_in_the_background(monkeypatch):
    # Its first game of a rule set plays on the interpreter while the kernel compiles.
    matches = Matches(store=None)  # loading a game reads no store
    name, game = matches.load("breakthrough", {"rows": 6})
    assert name == "breakthrough"
    assert game.engine is Engine.BACKGROUND and game.options["rows"] == 6
    # Games written in Python are built as before.
    assert matches.load("quantum-tic-tac-toe", {})[1].name == "quantum-tic-tac-toe"
    monkeypatch.setenv("BOARDLAB_KERNELS", "0")
    assert matches.load("breakthrough", {})[1].engine is Engine.INTERPRETER


def test_the_cli_chooses_the_engine():
    runner = CliRunner()
    done = runner.invoke(app, ["perft", "breakthrough", "2", "--engine", "interpreter",
                               "--json"])
    assert done.exit_code == 0 and json.loads(done.output)["nodes"] == [22, 484]
    done = runner.invoke(app, ["perft", "quantum-tic-tac-toe", "1", "--engine",
                               "interpreter"])
    assert done.exit_code != 0
    assert "an engine applies to games of the move language; quantum-tic-tac-toe is " \
           "written in Python" in done.output
    done = runner.invoke(app, ["perft", "breakthrough", "1", "--engine", "fast"])
    assert done.exit_code != 0 and "'fast' is not one of" in done.output
