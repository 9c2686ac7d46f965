"""Every command of ``boardlab`` against hostile arguments: huge, negative, empty, of the
wrong type, missing, a directory, not UTF-8, unwritable. Each answer is one ``error:``
line on stderr and exit status 2: no traceback, no panel, nothing on stdout and nothing
left behind in the working folder. A command without cases here fails the test, so a new
command cannot skip it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from boardlab.cli.main import app
from boardlab.puzzles.polyomino.pack import Pack

HUGE = "1" + "0" * 30
UNWRITABLE = "/proc/boardlab-test.out"      # no file can be made in /proc, even by root
NO_FOLDER = "/proc/boardlab-no-such-folder/out.json"
MISSING = "missing.txt"
DIRECTORY = "a-folder"
NOT_UTF8 = "binary.txt"
LEVEL = "level.txt"
PACK = "pack.json"
MASTER = "pack.master.json"
DB = "quest.db"
PIPE_LEVEL = "pipes.txt"
BAD_ZRF = "bad.zrf"
DB_URL = f"sqlite:///{DB}"
REFUSED_DB = "postgresql+psycopg://quest:secret@127.0.0.1:1/quest"

# (case id, arguments, a fragment the error line must contain)
CASES: dict[str, list[tuple[list[str], str]]] = {
    "games": [(["games", "extra"], "unexpected extra argument"),
              (["games", "--json=yes"], "--json")],
    "rules": [(["rules"], "Missing argument 'game'"),
              (["rules", ""], "unknown game ''"),
              (["rules", "tic-tac-toe", "-o", "x"], "KEY=VALUE"),
              (["rules", "connect-four", "-o", f"rows={HUGE}"], "rows")],
    "perft": [(["perft", "tic-tac-toe", HUGE], "'depth'"),
              (["perft", BAD_ZRF, "1"], "bad.zrf:1:1: unbalanced parenthesis"),
              (["perft", "missing.zrf", "1"], "missing.zrf: no such file"),
              (["perft", "tic-tac-toe", "1", "--variant", "2"], "ZRF rule files only"),
              (["perft", "tic-tac-toe", "-1"], "-1: a negative number"),
              (["perft", "tic-tac-toe", "deep"], "'depth'"),
              (["perft", "", "1"], "unknown game ''"),
              (["perft", "connect-four", "2", "-o", "rows=-4"], "rows")],
    "play": [(["play", "tic-tac-toe", "--seed", "-1"], "'--seed'"),
             (["play", "tic-tac-toe", "--seed", HUGE], "'--seed'"),
             (["play", "tic-tac-toe", "--depth", HUGE], "'--depth'"),
             (["play", "tic-tac-toe", "--time", "0"], "'--time'"),
             (["play", "tic-tac-toe", "--iterations", "x"], "'--iterations'"),
             (["play", "tic-tac-toe", "--player1", ""], "unknown player ''"),
             (["play", "tic-tac-toe", "--player1", "human", "--player2", "human",
               "--depth", "2"], "--depth applies to alphabeta")],
    "replay": [(["replay", "tic-tac-toe", "--moves", "zz"], "zz"),
               (["replay", "tic-tac-toe", "--moves", "a1 a1"], "move 2"),
               (["replay", "tic-tac-toe", "--position", ""], "expected 'rows side'")],
    "arena": [(["arena", "tic-tac-toe", "random", "random", "-n", HUGE], "'--games'"),
              (["arena", "tic-tac-toe", "random", "random", "-n", "-5"], "'--games'"),
              (["arena", "tic-tac-toe", "random", "random", "-n", "many"], "'--games'"),
              (["arena", "tic-tac-toe", "random", "nobody"], "unknown bot 'nobody'"),
              (["arena", "tic-tac-toe", "random", "random", "--depth", "3"],
               "--depth applies to alphabeta, not to random"),
              (["arena", "connect-four", "exact", "random", "-n", "1"],
               "not solved within 20,000 nodes")],
    "solve": [(["solve", "tic-tac-toe", "--table-bits", "40"], "'--table-bits'"),
              (["solve", "tic-tac-toe", "--table-bits", "12"], "applies to quantum"),
              (["solve", "quantum-tic-tac-toe", "--max-nodes", "5"], "always finishes"),
              (["solve", "tic-tac-toe", "--time", "-1"], "'--time'"),
              (["solve", "tic-tac-toe", "--max-nodes", HUGE], "'--max-nodes'"),
              (["solve", "connect-four", "--max-nodes", "1000"],
               "not solved within 1,000 nodes"),
              (["solve", "tic-tac-toe", "--moves", "a1 b1 a2 b2 a3"], "game is over")],
    "serve": [(["serve", "--port", HUGE], "'--port'"),
              (["serve", "--port", "-1"], "'--port'"),
              (["serve", "--db", NO_FOLDER], "cannot open database"),
              (["serve", "--data", "/proc/boardlab-data"], "cannot create the data folder")],
    "triplex levels": [
        (["triplex", "levels", HUGE, "4"], "'width'"),
        (["triplex", "levels", "-3", "4"], "-3: a negative number"),
        (["triplex", "levels", "x", "4"], "'width'"),
        (["triplex", "levels", "9", "8"], "areas up to 64 cells"),
        (["triplex", "levels", "4", "3", "--pieces", MISSING], f"{MISSING}: no such file"),
        (["triplex", "levels", "4", "3", "--pieces", NOT_UTF8], "not UTF-8 text"),
        (["triplex", "levels", "4", "3", "--pieces", "hexa"], "unknown piece set 'hexa'"),
        (["triplex", "levels", "4", "3", "--workers", "0"], "'--workers'"),
        (["triplex", "levels", "4", "3", "--backend", "gpu"], "unknown backend 'gpu'"),
        (["triplex", "levels", "4", "3", "--seed", "-1"], "'--seed'")],
    "triplex generate": [
        (["triplex", "generate", "--max-area", HUGE, "--out", "p.json"], "'--max-area'"),
        (["triplex", "generate", "--max-area", "12", "--out", DIRECTORY],
         "is a directory"),
        (["triplex", "generate", "--max-area", "12", "--out", NO_FOLDER], "does not exist"),
        (["triplex", "generate", "--max-area", "12", "--out", "p.json", "--plot",
          UNWRITABLE], f"{UNWRITABLE}: cannot write"),
        (["triplex", "generate", "--max-area", "12", "--out", "p.json", "--master",
          "p.json"], "must be different files"),
        (["triplex", "generate", "--max-area", "12", "--out", "p.json", "--workers",
          HUGE], "'--workers'")],
    "triplex unlock": [
        (["triplex", "unlock", MISSING, "--level", "1", "--code", "X"], "no such file"),
        (["triplex", "unlock", DIRECTORY, "--level", "1", "--code", "X"], "is a directory"),
        (["triplex", "unlock", NOT_UTF8, "--level", "1", "--code", "X"], "not UTF-8 text"),
        (["triplex", "unlock", PACK, "--level", "0", "--code", "X"], "'--level'"),
        (["triplex", "unlock", PACK, "--level", HUGE, "--code", "X"], "'--level'"),
        (["triplex", "unlock", PACK, "--level", "999", "--code", "X"], "out of range"),
        (["triplex", "unlock", PACK, "--level", "2", "--code", ""], "code")],
    "triplex code": [
        (["triplex", "code", MASTER, "--level", "0"], "'--level'"),
        (["triplex", "code", MASTER, "--level", "999"], "level 999 is out of range"),
        (["triplex", "code", PACK, "--level", "2"], "no solutions"),
        (["triplex", "code", LEVEL, "--level", "1"], "not valid JSON")],
    "triplex solve": [
        (["triplex", "solve", MISSING], "no such file"),
        (["triplex", "solve", DIRECTORY], "is a directory"),
        (["triplex", "solve", NOT_UTF8], "not UTF-8 text (byte 0xff at offset 6)"),
        (["triplex", "solve", MASTER, "--level", "999"], "level 999 is out of range"),
        (["triplex", "solve", PACK, "--level", "2"], "public pack"),
        (["triplex", "solve", LEVEL, "--level", "1"], "apply to packs only"),
        (["triplex", "solve", LEVEL, "--limit", "0"], "'--limit'")],
    "triplex export-html": [
        (["triplex", "export-html", MISSING, "out.html"], "no such file"),
        (["triplex", "export-html", PACK, DIRECTORY], "is a directory"),
        (["triplex", "export-html", PACK, UNWRITABLE], "cannot write")],
    "triplex reorder": [
        (["triplex", "reorder", MISSING, "--db", DB, "--out", "n.json"], "no such file"),
        (["triplex", "reorder", NOT_UTF8, "--db", DB, "--out", "n.json"], "not UTF-8 text"),
        (["triplex", "reorder", PACK, "--db", DB, "--out", "n.json"], "a public pack"),
        (["triplex", "reorder", MASTER, "--db", "missing.db", "--out", "n.json"],
         "no such database file"),
        (["triplex", "reorder", MASTER, "--db", DB, "--out", DIRECTORY], "is a directory"),
        (["triplex", "reorder", MASTER, "--db", DB, "--out", NO_FOLDER], "does not exist"),
        (["triplex", "reorder", MASTER, "--db", DB, "--out", "n.json", "--master", "n.json"],
         "different files"),
        (["triplex", "reorder", MASTER, "--db", DB, "--out", "n.json", "--min-solves", "0"],
         "'--min-solves'"),
        (["triplex", "reorder", MASTER, "--db", DB, "--out", "n.json", "--min-solves", HUGE],
         "'--min-solves'")],
    "pipes solve": [
        (["pipes", "solve", MISSING], "no such file"),
        (["pipes", "solve", DIRECTORY], "is a directory"),
        (["pipes", "solve", NOT_UTF8], "not UTF-8 text"),
        (["pipes", "solve", PIPE_LEVEL, "--limit", "0"], "'--limit'"),
        (["pipes", "solve", PIPE_LEVEL, "--limit", HUGE], "'--limit'")],
    "pipes count": [
        (["pipes", "count", MISSING], "no such file"),
        (["pipes", "count", LEVEL], "line 1"),
        (["pipes", "count", "--json"], "Missing argument")],
    "pipes generate": [
        (["pipes", "generate", "--rows", HUGE, "--cols", "4"], "'--rows'"),
        (["pipes", "generate", "--rows", "300", "--cols", "300"], "'--rows'"),
        (["pipes", "generate", "--rows", "-1", "--cols", "4"], "'--rows'"),
        (["pipes", "generate", "--rows", "4", "--cols", "4", "--solutions", "0"],
         "'--solutions'"),
        (["pipes", "generate", "--rows", "4", "--cols", "4", "--out", DIRECTORY],
         "is a directory"),
        (["pipes", "generate", "--rows", "4", "--cols", "4", "--out", UNWRITABLE],
         "cannot write"),
        (["pipes", "generate", "--rows", "4", "--cols", "4", "--seed", "-1"], "'--seed'")],
    "pipes import": [
        (["pipes", "import", MISSING, "--db", DB_URL], "no such file"),
        (["pipes", "import", DIRECTORY, "--db", DB_URL], "is a directory"),
        (["pipes", "import", NOT_UTF8, "--db", DB_URL], "not UTF-8 text"),
        (["pipes", "import", PIPE_LEVEL, "--name", "2", "--db", DB_URL],
         "cannot be a number"),
        (["pipes", "import", PIPE_LEVEL, "--name", "first", "--db", DB_URL],
         "already exists"),
        (["pipes", "import", PIPE_LEVEL, "--max-solutions", "0", "--db", DB_URL],
         "'--max-solutions'"),
        (["pipes", "import", PIPE_LEVEL, "--db", REFUSED_DB], "cannot open database")],
    "pipes export": [
        (["pipes", "export", "nosuch", "--db", DB_URL], "no pipe level named 'nosuch'"),
        (["pipes", "export", "99", "--db", DB_URL], "no pipe level '99'"),
        (["pipes", "export", "1", "--db", DB_URL, "--out", UNWRITABLE], "cannot write"),
        (["pipes", "export", "1", "--db", DB_URL, "--out", DIRECTORY], "is a directory")],
    "pipes list": [
        (["pipes", "list", "--db", REFUSED_DB], "cannot open database"),
        (["pipes", "list", "--db", NO_FOLDER], "cannot open database")],
    "zrf check": [
        (["zrf", "check", MISSING], f"{MISSING}: no such folder or file"),
        (["zrf", "check", LEVEL], "neither a folder nor a .zrf file"),
        (["zrf", "check", DIRECTORY, "--games", "-1"], "'--games'"),
        (["zrf", "check", DIRECTORY, "--plies", "0"], "'--plies'"),
        (["zrf", "check", DIRECTORY, "--seconds", HUGE], "'--seconds'"),
        (["zrf", "check", DIRECTORY, "--variants", "some"], "'--variants'"),
        (["zrf", "check", DIRECTORY, "--memory", "1"], "'--memory'")],
    "pipes check": [
        (["pipes", "check", "nosuch", "ABC", "--db", DB_URL], "no pipe level named"),
        (["pipes", "check", "1", "--db", DB_URL], "Missing argument 'code'")],
}


def command_paths() -> list[str]:
    """Every leaf command of the app, as 'group command'."""
    from typer._click.core import Context
    from typer.core import TyperGroup

    root = typer.main.get_command(app)
    found: list[str] = []

    def walk(command, path: list[str]) -> None:
        if isinstance(command, TyperGroup):
            context = Context(command)
            for name in command.list_commands(context):
                walk(command.get_command(context, name), [*path, name])
        else:
            found.append(" ".join(path))

    walk(root, [])
    return found


def test_every_command_has_hostile_cases():
    assert sorted(command_paths()) == sorted(CASES)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    """A folder with a valid pack and master, a level, a pipe level stored in a database,
    a folder and a file that is not UTF-8."""
    from boardlab.puzzles.polyomino.generator import generate_levels, sizes_up_to
    from boardlab.store import pipes as pipe_store
    from boardlab.store.db import open_store

    folder = tmp_path_factory.mktemp("hostile")
    levels = generate_levels(sizes_up_to(12), "triplex", backend="serial", progress=False)
    pack = Pack.build(levels, b"hostile", "triplex")
    pack.save(folder / MASTER, with_solutions=True)
    pack.public().save(folder / PACK)
    (folder / LEVEL).write_text(str(levels[0]), encoding="utf-8")
    (folder / DIRECTORY).mkdir()
    (folder / NOT_UTF8).write_bytes(b"level \xff\xfe")
    pipe_text = "IA LB\nLC LD\n"
    (folder / PIPE_LEVEL).write_text(pipe_text, encoding="utf-8")
    (folder / BAD_ZRF).write_text("(game (title \"x\")\n", encoding="utf-8")
    with open_store(f"sqlite:///{folder / DB}") as store:
        pipe_store.add_level(store, "first", pipe_text, [("|0-1|1-1|2-1|2-2|3-2|", "ACD")])
    return folder


def listing(folder: Path) -> dict[str, int]:
    """Every file under ``folder`` with its size."""
    return {str(p.relative_to(folder)): p.stat().st_size
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(("args", "fragment"), [
    pytest.param(args, fragment, id=" ".join(args)[:80])
    for cases in CASES.values() for args, fragment in cases])
def test_hostile_arguments_get_one_line_and_exit_2(workspace, monkeypatch, args, fragment):
    monkeypatch.chdir(workspace)
    monkeypatch.setenv("BOARDLAB_DATA", str(workspace / "data"))
    monkeypatch.delenv("BOARDLAB_DB", raising=False)
    # The exact bot's budget, small enough to run out quickly in connect-four.
    monkeypatch.setattr("boardlab.ai.exact.BOT_MAX_NODES", 20_000)
    before = listing(workspace)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert result.stdout == "", result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert fragment in lines[0], lines[0]
    assert "Traceback" not in result.stderr and "secret" not in result.stderr
    assert listing(workspace) == before
    assert not (workspace / "data").exists() or not os.listdir(workspace / "data")
