"""``boardlab pipes solve`` end to end: text, codes, JSON, limits, stdin, streaming and
bad input."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardlab.cli.main import app

runner = CliRunner()

# The seed article's grid (seeds/001) with '.' where no printed path shows the cell.
SEED_LEVEL = """\
LA IK LE .  .  .  LH II LG
LD IF LZ .  .  LO LN .  IU
IM LH LY .  LS LR LH IA LL
LI LM IE LP LK LO IG LJ IP
LO IQ LN LB .  LZ LC LT LQ
IU .  .  .  .  LJ LS .  IY
LW II LX .  .  IA LD LV LL
.  .  LB IZ II LU LO LY LW
"""



def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, ["pipes", *args], input=stdin)


@pytest.fixture
def level_file(tmp_path: Path) -> Path:
    path = tmp_path / "level.txt"
    path.write_text("LA IB LC\nLD IE LF\nLG IH LI\n", encoding="utf-8")
    return path


def test_solve_text(level_file: Path):
    result = run("solve", str(level_file))
    assert result.exit_code == 0, result.output
    assert result.output == "|0-1|1-1|1-2|1-3|2-3|2-2|2-1|3-1|3-2|3-3|4-3|  ABCFEDGHI\n"


def test_solve_codes_json_and_limit(tmp_path: Path):
    path = tmp_path / "seed.txt"
    path.write_text(SEED_LEVEL, encoding="utf-8")
    full = run("solve", str(path))
    assert full.exit_code == 0, full.output
    lines = full.output.splitlines()
    assert len(lines) == 6
    assert lines[0].endswith("  AKEZFDMIMHYENQOUWIXBZIUAJSCZOGJTQYLVYW")
    for line in lines:
        notation, code = line.split("  ")
        assert notation.startswith("|0-1|1-1|") and notation.endswith("|8-9|9-9|")
        assert len(code) == notation.count("|") - 3
    codes = run("solve", str(path), "--codes-only")
    assert codes.output.splitlines() == [line.split("  ")[1] for line in lines]
    limited = run("solve", str(path), "--limit", "2")
    assert limited.output.splitlines() == lines[:2]
    data = json.loads(run("solve", str(path), "--json").output)
    assert (data["rows"], data["cols"], data["count"], data["complete"]) == (8, 9, 6, True)
    assert [f"{s['notation']}  {s['code']}" for s in data["solutions"]] == lines
    assert data["solutions"][0]["path"][0] == [1, 1]
    part = json.loads(run("solve", str(path), "--json", "--limit", "2").output)
    assert (part["count"], part["complete"]) == (2, False)
    exact = json.loads(run("solve", str(path), "--json", "--limit", str(len(lines))).output)
    assert (exact["count"], exact["complete"]) == (len(lines), True)


def test_solve_stdin_and_headers():
    result = run("solve", "-", stdin="tap: 2 1 left\ndrain: 1 2 right\nIA LB\nIC LD\n")
    assert result.exit_code == 0, result.output
    assert result.output == "|2-0|2-1|2-2|1-2|1-3|  CDB\n"
    none = run("solve", "-", stdin="LA LB\nLC LD\n")
    assert none.exit_code == 0
    assert none.stdout == "no solution: no path leads from the tap to the drain\n"


def test_errors(tmp_path: Path):
    missing = run("solve", str(tmp_path / "nope.txt"))
    assert missing.exit_code == 2
    assert missing.output.strip() == f"error: {tmp_path / 'nope.txt'}: no such file"
    bad = tmp_path / "bad.txt"
    bad.write_text("LA LB\nLC QD\n", encoding="utf-8")
    result = run("solve", str(bad))
    assert result.exit_code == 2
    assert result.output.strip() == (f"error: {bad} line 2, column 4: unknown cell kind "
                                     "'Q' (use I, L or .)")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"LA \xff\xfe\x00")
    not_text = run("solve", str(binary))
    assert not_text.exit_code == 2
    assert not_text.output == f"error: {binary}: not UTF-8 text (byte 0xff at offset 3)\n"
    directory = run("solve", str(tmp_path))
    assert directory.exit_code == 2
    assert directory.output == f"error: {tmp_path}: is a directory, not a file\n"
    header = run("solve", "-", stdin="tap: 1 2 top\nLA LB\nLC LD\n")
    assert header.exit_code == 0
    inside = run("solve", "-", stdin="tap: 2 2 top\nLA LB\nLC LD\n")
    assert inside.exit_code == 2 and "stdin line 1, column 6" in inside.output
    assert len(inside.output.strip().splitlines()) == 1
    assert run("solve", "-", "--limit", "0", stdin="IA\n").exit_code == 2


def test_help_lists_solve():
    result = run("--help")
    assert result.exit_code == 0
    assert "Pipe puzzles (Plumber)" in result.output and "solve" in result.output


def test_text_output_streams(tmp_path: Path):
    rng = random.Random(1)
    path = tmp_path / "big.txt"
    path.write_text("\n".join(" ".join(rng.choice("IL") + rng.choice("ABC") for _ in range(18))
                              for _ in range(18)) + "\n")
    process = subprocess.Popen([sys.executable, "-m", "boardlab.cli.main", "pipes", "solve",
                                str(path)], stdout=subprocess.PIPE, text=True)
    try:
        first = [process.stdout.readline() for _ in range(3)]
    finally:
        process.kill()
        process.wait()
    assert all(line.startswith("|0-1|1-1|") for line in first)


def test_count_agrees_with_solve(tmp_path):
    main_app = app
    rng = random.Random(7)
    for _ in range(20):
        rows = [" ".join(rng.choice(["LA", "IB", "LC", "LD"]) for _ in range(4))
                for _ in range(4)]
        path = tmp_path / "grid.txt"
        path.write_text("\n".join(rows) + "\n")
        solved = CliRunner().invoke(main_app, ["pipes", "solve", str(path), "--codes-only"])
        counted = CliRunner().invoke(main_app, ["pipes", "count", str(path), "--json"])
        assert counted.exit_code == 0, counted.output
        assert json.loads(counted.output)["count"] == len(solved.stdout.split())
    bad = tmp_path / "bad.txt"
    bad.write_text("LA QB\n")
    result = CliRunner().invoke(main_app, ["pipes", "count", str(bad)])
    assert result.exit_code == 2 and "column" in result.output


def test_generate_command(tmp_path):
    out = tmp_path / "gen.txt"
    result = CliRunner().invoke(app, ["pipes", "generate", "--rows", "5", "--cols", "5",
                                      "--solutions", "2", "--seed", "3", "--out", str(out)])
    assert result.exit_code == 0, result.output
    codes = CliRunner().invoke(app, ["pipes", "solve", str(out), "--codes-only"])
    assert len(codes.output.split()) == 2
    printed = CliRunner().invoke(app, ["pipes", "generate", "--rows", "5", "--cols", "5",
                                       "--solutions", "2", "--seed", "3"])
    assert printed.output == out.read_text()
    bad = CliRunner().invoke(app, ["pipes", "generate", "--rows", "1", "--cols", "1"])
    assert bad.exit_code == 2 and "at least 2 cells" in bad.output
