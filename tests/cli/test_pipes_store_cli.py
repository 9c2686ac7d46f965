"""``import``, ``export``, ``list`` and ``check`` of :mod:`boardlab.cli.pipes_store` on an
app of their own, with a fake pipe model (the commands take the model's parser and solver
by import, so the store's CLI is tested whatever the state of the model); one test uses
the real model when it is there."""

from __future__ import annotations

import importlib.util
import json
import sys
import types
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from boardlab.cli.pipes_store import register
from boardlab.errors import PuzzleError

runner = CliRunner()
app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
register(app)

LEVEL_TEXT = "# demo\nIA LB\nLC LD\n"
FAKE_SOLUTIONS = [("|0-1|1-1|2-1|2-2|3-2|", "ACD"), ("|0-1|1-1|1-2|2-2|3-2|", "ABD")]


class FakeLevel:
    rows, cols = 2, 2

    @classmethod
    def parse(cls, text: str, where: str | None = None) -> FakeLevel:
        if "bad" in text:
            raise PuzzleError(f"{where}: line 1: not a cell")
        return cls()


class FakeSolution:
    def __init__(self, path: str, code: str):
        self.path, self.code = path, code


@pytest.fixture
def fake_model(monkeypatch):
    package = types.ModuleType("boardlab.puzzles.pipes")
    package.__path__ = []
    level = types.ModuleType("boardlab.puzzles.pipes.level")
    level.PipeLevel = FakeLevel
    solve = types.ModuleType("boardlab.puzzles.pipes.solve")
    solve.solutions = lambda level: (FakeSolution(p, c) for p, c in FAKE_SOLUTIONS)
    monkeypatch.setitem(sys.modules, "boardlab.puzzles.pipes", package)
    monkeypatch.setitem(sys.modules, "boardlab.puzzles.pipes.level", level)
    monkeypatch.setitem(sys.modules, "boardlab.puzzles.pipes.solve", solve)


@pytest.fixture
def db(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'quest.db'}"


@pytest.fixture
def level_file(tmp_path) -> Path:
    path = tmp_path / "first.txt"
    path.write_text(LEVEL_TEXT, encoding="utf-8")
    return path


def run(*args: str):
    return runner.invoke(app, list(args))


def test_import_list_export_check(fake_model, db, level_file, tmp_path):
    result = run("import", str(level_file), "--db", db)
    assert result.exit_code == 0, result.output
    assert "level 1 (first): 2 solutions" in result.output

    result = run("list", "--db", db, "--json")
    assert result.exit_code == 0, result.output
    [level] = json.loads(result.output)
    assert (level["id"], level["name"], level["rows"], level["cols"],
            level["solution_count"]) == (1, "first", 2, 2, 2)
    text_list = run("list", "--db", db)
    assert "first" in text_list.output and "2 solutions" in text_list.output

    assert run("export", "first", "--db", db).output == LEVEL_TEXT
    out = tmp_path / "out.txt"
    assert run("export", "1", "--db", db, "--out", str(out)).exit_code == 0
    assert out.read_text(encoding="utf-8") == LEVEL_TEXT

    valid = run("check", "1", "A C D", "--db", db)
    assert (valid.exit_code, valid.output.strip()) == (0, "valid")
    invalid = run("check", "first", "ACB", "--db", db)
    assert (invalid.exit_code, invalid.output.strip()) == (1, "not valid")


def test_database_from_environment(fake_model, db, level_file, monkeypatch):
    monkeypatch.setenv("BOARDLAB_DB", db)
    assert run("import", str(level_file), "--name", "env").exit_code == 0
    assert run("check", "env", "ABD").exit_code == 0


def test_errors_exit_2_with_one_line(fake_model, db, level_file, tmp_path):
    assert run("import", str(level_file), "--db", db).exit_code == 0
    duplicate = run("import", str(level_file), "--db", db)
    assert duplicate.exit_code == 2
    assert "already exists" in duplicate.output

    unknown = run("check", "nosuch", "ACD", "--db", db)
    assert unknown.exit_code == 2
    assert "no pipe level named 'nosuch'" in unknown.output

    bad_db = run("list", "--db", "postgresql+psycopg://quest:hunter2@127.0.0.1:1/quest")
    assert bad_db.exit_code == 2
    assert bad_db.output.count("\n") == 1
    assert bad_db.output.startswith("error: cannot open database postgresql+psycopg://quest:***@")
    assert "hunter2" not in bad_db.output

    bad_level = tmp_path / "bad.txt"
    bad_level.write_text("bad\n")
    parsed = run("import", str(bad_level), "--db", db)
    assert parsed.exit_code == 2
    assert "not a cell" in parsed.output

    missing = run("import", str(tmp_path / "missing.txt"), "--db", db)
    assert missing.exit_code == 2
    assert "cannot read the level" in missing.output


def test_failing_solver_stores_nothing(monkeypatch, fake_model, db, level_file):
    def crashing(level):
        yield FAKE_SOLUTIONS[0]
        raise PuzzleError("solver gave up")

    monkeypatch.setattr(sys.modules["boardlab.puzzles.pipes.solve"], "solutions", crashing)
    result = run("import", str(level_file), "--db", db)
    assert result.exit_code == 2
    assert "solver gave up" in result.output
    assert json.loads(run("list", "--db", db, "--json").output) == []


def _real_model_exists() -> bool:
    try:
        return (importlib.util.find_spec("boardlab.puzzles.pipes.level") is not None
                and importlib.util.find_spec("boardlab.puzzles.pipes.solve") is not None)
    except ModuleNotFoundError:
        return False


@pytest.mark.skipif(not _real_model_exists(), reason="the pipe model is not written yet")
def test_import_with_the_real_model(db, tmp_path):
    # Straight down from the tap, then two elbows to the drain: the only solution.
    path = tmp_path / "tiny.txt"
    path.write_text("IA LB\nLC LD\n", encoding="utf-8")
    result = run("import", str(path), "--db", db)
    assert result.exit_code == 0, result.output
    assert "1 solution stored" in result.output
    assert run("check", "tiny", "ACD", "--db", db).exit_code == 0
    assert run("check", "tiny", "ABD", "--db", db).exit_code == 1
