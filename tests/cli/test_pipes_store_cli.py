"""``import``, ``export``, ``list`` and ``check`` of :mod:`boardlab.cli.pipes_store` on an
app of their own, with the real pipe model: the codes stored are the solver's, checked
against the level's solutions worked out by hand."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from boardlab.cli.pipes_store import register
from boardlab.errors import PuzzleError

runner = CliRunner()
app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
register(app)

# Water enters at the top of the top-left cell and leaves at the bottom of the
# bottom-right one. Two paths do it: down the left side, and a loop through the
# top-right corner (traced by hand; `boardlab pipes solve` agrees).
LEVEL_TEXT = """# 4x4, 2 solutions
LZ LB LQ LX
LG LW LQ IW
LT LU IR LC
IH LM IY LO
"""
SOLUTIONS = [("|0-1|1-1|1-2|2-2|2-1|3-1|3-2|4-2|4-3|4-4|5-4|", "ZBWGTUMYO"),
             ("|0-1|1-1|1-2|2-2|2-3|1-3|1-4|2-4|3-4|3-3|3-2|4-2|4-3|4-4|5-4|",
              "ZBWQQXWCRUMYO")]


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


def test_import_list_export_check(db, level_file, tmp_path):
    result = run("import", str(level_file), "--db", db)
    assert result.exit_code == 0, result.output
    assert "level 1 (first): 2 solutions" in result.output

    result = run("list", "--db", db, "--json")
    assert result.exit_code == 0, result.output
    [level] = json.loads(result.output)
    assert (level["id"], level["name"], level["rows"], level["cols"],
            level["solution_count"]) == (1, "first", 4, 4, 2)
    text_list = run("list", "--db", db)
    assert "first" in text_list.output and "2 solutions" in text_list.output

    assert run("export", "first", "--db", db).output == LEVEL_TEXT
    out = tmp_path / "out.txt"
    assert run("export", "1", "--db", db, "--out", str(out)).exit_code == 0
    assert out.read_text(encoding="utf-8") == LEVEL_TEXT

    for _, code in SOLUTIONS:
        spaced = " ".join(code[i:i + 3] for i in range(0, len(code), 3))
        valid = run("check", "1", spaced, "--db", db)
        assert (valid.exit_code, valid.output.strip()) == (0, "valid")
    invalid = run("check", "first", "ZBWGTUMYX", "--db", db)
    assert (invalid.exit_code, invalid.output.strip()) == (1, "not valid")


def test_stored_paths_are_the_solvers(db, level_file):
    from boardlab.store import pipes as pipe_store
    from boardlab.store.db import open_store

    assert run("import", str(level_file), "--db", db).exit_code == 0
    with open_store(db) as store:
        stored = [(c.path, c.code) for c in pipe_store.codes(store, "first")]
    assert stored == SOLUTIONS


def test_empty_store_says_so(db):
    result = run("list", "--db", db)
    assert result.exit_code == 0
    assert result.stdout.startswith("no pipe levels stored in sqlite:")


def test_numeric_names_are_refused_and_ids_win(db, level_file):
    refused = run("import", str(level_file), "--name", "2", "--db", db)
    assert refused.exit_code == 2
    assert "cannot be a number" in refused.stderr
    assert run("import", str(level_file), "--name", "two", "--db", db).exit_code == 0
    assert run("import", str(level_file), "--name", "²", "--db", db).exit_code == 0
    assert run("export", "1", "--db", db).stdout == LEVEL_TEXT
    missing = run("export", "3", "--db", db)
    assert missing.exit_code == 2 and "no pipe level '3'" in missing.stderr
    assert run("export", "²", "--db", db).exit_code == 0


def test_too_many_solutions_are_refused_before_anything_is_stored(db, level_file):
    result = run("import", str(level_file), "--max-solutions", "1", "--db", db)
    assert result.exit_code == 2
    assert "2 solutions, more than the 1 an import stores" in result.stderr
    assert json.loads(run("list", "--db", db, "--json").stdout) == []


def test_database_from_environment(db, level_file, monkeypatch):
    monkeypatch.setenv("BOARDLAB_DB", db)
    assert run("import", str(level_file), "--name", "env").exit_code == 0
    assert run("check", "env", SOLUTIONS[0][1]).exit_code == 0


def test_errors_exit_2_with_one_line(db, level_file, tmp_path):
    assert run("import", str(level_file), "--db", db).exit_code == 0
    duplicate = run("import", str(level_file), "--db", db)
    assert duplicate.exit_code == 2
    assert "already exists" in duplicate.output

    unknown = run("check", "nosuch", "ZBW", "--db", db)
    assert unknown.exit_code == 2
    assert "no pipe level named 'nosuch'" in unknown.output

    bad_db = run("list", "--db", "postgresql+psycopg://quest:hunter2@127.0.0.1:1/quest")
    assert bad_db.exit_code == 2
    assert bad_db.output.count("\n") == 1
    assert bad_db.output.startswith("error: cannot open database postgresql+psycopg://quest:***@")
    assert "hunter2" not in bad_db.output

    bad_level = tmp_path / "bad.txt"
    bad_level.write_text("LA QB\n")
    parsed = run("import", str(bad_level), "--db", db)
    assert parsed.exit_code == 2
    assert "bad.txt line 1, column 4" in parsed.output

    missing = run("import", str(tmp_path / "missing.txt"), "--db", db)
    assert missing.exit_code == 2
    assert missing.output == f"error: {tmp_path / 'missing.txt'}: no such file\n"


def test_failing_solver_stores_nothing(monkeypatch, db, level_file):
    import boardlab.puzzles.pipes.solve as solve

    def crashing(level):
        real = solve.solutions(level)
        yield next(real)
        raise PuzzleError("solver gave up")

    monkeypatch.setitem(sys.modules, "boardlab.puzzles.pipes.solve",
                        type(sys)("boardlab.puzzles.pipes.solve"))
    sys.modules["boardlab.puzzles.pipes.solve"].solutions = crashing
    result = run("import", str(level_file), "--db", db)
    assert result.exit_code == 2
    assert "solver gave up" in result.output
    assert json.loads(run("list", "--db", db, "--json").output) == []


def test_import_tiny_level(db, tmp_path):
    # Straight down from the tap, then two elbows to the drain: the only solution.
    path = tmp_path / "tiny.txt"
    path.write_text("IA LB\nLC LD\n", encoding="utf-8")
    result = run("import", str(path), "--db", db)
    assert result.exit_code == 0, result.output
    assert "1 solution stored" in result.output
    assert run("check", "tiny", "ACD", "--db", db).exit_code == 0
    assert run("check", "tiny", "ABD", "--db", db).exit_code == 1


def _table(text: str) -> str:
    """The level's table y,x,type,lit, written here by hand from the text form."""
    rows = [line.split() for line in text.splitlines() if line and not line.startswith("#")]
    return "".join(f"{r},{c},{1 if cell[0] == 'L' else 0},{cell[1]}\n"
                   for r, row in enumerate(rows, 1) for c, cell in enumerate(row, 1))


def test_import_a_csv_table_stores_the_text_form_and_exports_both(tmp_path, db):
    table = tmp_path / "first.csv"
    table.write_text("y,x,type,lit\n" + _table(LEVEL_TEXT), encoding="utf-8")
    imported = runner.invoke(app, ["import", str(table), "--db", db])
    assert imported.exit_code == 0, imported.output
    assert "2 solutions stored" in imported.output
    text = runner.invoke(app, ["export", "first", "--db", db])
    assert text.output == "".join(line + "\n" for line in LEVEL_TEXT.splitlines()[1:])
    csv = runner.invoke(app, ["export", "first", "--db", db, "--format", "csv"])
    assert csv.output == "y,x,type,lit\n" + _table(LEVEL_TEXT)
    for _path, code in SOLUTIONS:
        assert runner.invoke(app, ["check", "first", code.lower(), "--db", db]).exit_code == 0
    assert runner.invoke(app, ["check", "first", "ZBWGTUMY", "--db", db]).exit_code == 1
    # A table without the .csv name is read as one by its first line, or by --format.
    plain = tmp_path / "second.level"
    plain.write_text(_table(LEVEL_TEXT), encoding="utf-8")
    assert runner.invoke(app, ["import", str(plain), "--db", db]).exit_code == 0
    forced = runner.invoke(app, ["import", str(plain), "--name", "third", "--db", db,
                                 "--format", "text"])
    assert forced.exit_code == 2
    assert forced.output.startswith(f"error: {plain} line 1, column 1: unknown cell kind '1'")


def test_a_malformed_table_names_its_line_and_column(tmp_path, db):
    table = tmp_path / "bad.csv"
    table.write_text("y,x,type,lit\n1,1,1,A\n1,2,1,BC\n", encoding="utf-8")
    result = runner.invoke(app, ["import", str(table), "--db", db])
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1] == (
        f"error: {table} line 3, column 7: lit must be one letter (a character that is "
        "not a space), not 'BC'")
