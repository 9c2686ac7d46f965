"""``boardlab triplex`` end to end: levels, generate, unlock, code, solve, bad input, and
a generate run killed with SIGKILL that resumes to the same pack."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardlab.cli.main import app
from boardlab.puzzles.polyomino.level import canonical_solution
from boardlab.puzzles.polyomino.pack import Pack

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, ["triplex", *args])


def test_levels_json():
    result = run("levels", "4", "3", "--json", "--backend", "serial")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["width"], data["height"], data["count"]) == (4, 3, 4)
    level = data["levels"][0]
    assert set(level) >= {"pieces", "solution", "rotatable", "difficulty"}
    assert sum(p.count("#") for p in level["pieces"]) == 12
    assert [lv["difficulty"] for lv in data["levels"]] == sorted(
        lv["difficulty"] for lv in data["levels"])


def test_generate_unlock_code_and_solve(tmp_path: Path):
    out = tmp_path / "pack.json"
    plot = tmp_path / "chart.png"
    result = run("generate", "--max-area", "12", "--out", str(out), "--backend", "serial",
                 "--no-progress", "--plot", str(plot))
    assert result.exit_code == 0, result.output
    assert "8 levels" in result.output
    master = tmp_path / "pack.master.json"
    assert out.exists() and master.exists() and plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not (tmp_path / "pack.json.checkpoint.jsonl").exists()
    public = json.loads(out.read_text())
    assert "solutions" not in public and len(public["levels"]) == 8
    for n in range(1, 9):
        code = run("code", str(master), "--level", str(n))
        assert code.exit_code == 0, code.output
        puzzle = run("unlock", str(out), "--level", str(n), "--code", code.output.strip())
        assert puzzle.exit_code == 0 and puzzle.output.startswith("puzzle ")
        text = tmp_path / f"level{n}.txt"
        text.write_text(puzzle.output)
        solved = run("solve", str(text), "--json")
        assert solved.exit_code == 0, solved.output
        # exactly the level's one solution, in as many steps as its difficulty
        expected = Pack.load(master).level(n)
        answer = json.loads(solved.output)
        assert answer["count"] == 1 and answer["complete"]
        assert canonical_solution(answer["solutions"][0]) == expected.solution_checksum()
        assert answer["steps"] == expected.difficulty
    wrong = run("unlock", str(out), "--level", "2", "--code", "0000-0000")
    assert wrong.exit_code == 2 and "does not unlock level 2" in wrong.output
    from_pack = run("solve", str(master), "--level", "3")
    assert from_pack.exit_code == 0 and from_pack.output.startswith("1 solution")


def test_a_rotatable_piece_beside_its_fixed_twin_is_one_solution(tmp_path: Path):
    # Level 15 of the 724-level pack: the rotatable domino b may lie where the fixed
    # domino e lies and e where b lies, which is one solution (the CLI printed it twice).
    text = tmp_path / "level.txt"
    text.write_text("level 4x3\nabbc\nadcc\nddee\nrotatable b shown 0\n")
    solved = run("solve", str(text))
    assert solved.exit_code == 0, solved.output
    assert solved.output.startswith("1 solution,")
    assert solved.output.count("\n\n") == 1  # one grid


def test_solve_level_text_and_limits(tmp_path: Path):
    level = tmp_path / "l.txt"
    level.write_text("level 4x2\nabbc\naacc\n")
    result = run("solve", str(level))
    assert result.exit_code == 0 and result.output.startswith("1 solution")
    many = tmp_path / "dominoes.txt"
    many.write_text("puzzle 4x2\n\n4x\n##\n")
    result = run("solve", str(many), "--json")
    assert json.loads(result.output)["count"] == 1  # horizontal dominoes only: one way
    free = tmp_path / "free.txt"
    free.write_text("puzzle 4x2\n\n3x\n##\n\nrotatable\n##\n")
    result = run("solve", str(free), "--limit", "1")
    assert result.exit_code == 0 and "stopped at the limit" in result.output


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path):
    cases = [
        (("levels", "4", "3", "--pieces", "hexa"), "unknown piece set 'hexa'"),
        (("levels", "1", "5"), "Invalid value for 'width': 1 is not in the range 2<=x<=32"),
        (("levels", "9", "8"), "the generator handles areas up to 64 cells, not 9x8"),
        (("solve", str(tmp_path / "missing.txt")), "no such file"),
    ]
    bad = tmp_path / "bad.txt"
    bad.write_text("level 4x2\nabbc\naac\n")
    cases.append((("solve", str(bad)), "line 3: the row has 3 cells, expected 4"))
    split = tmp_path / "split.txt"
    split.write_text("level 4x2\nabba\nabba\n")
    cases.append((("solve", str(split)), "line 2, column 4: piece 'a' is split"))
    drawing = tmp_path / "drawing.txt"
    drawing.write_text("puzzle 4x2\n\n#?\n##\n")
    cases.append((("solve", str(drawing)), "line 3, column 2: unexpected '?'"))
    mismatch = tmp_path / "mismatch.txt"
    mismatch.write_text("puzzle 4x2\n\n##\n")
    cases.append((("solve", str(mismatch)), "cells"))
    for args, message in cases:
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output, (args, result.output)
        assert "Traceback" not in result.output
        assert result.output.count("error:") == 1
    out = tmp_path / "never.json"
    result = run("generate", "--max-area", "12", "--out", str(out), "--pieces", "nope")
    assert result.exit_code == 2 and not out.exists()


@pytest.mark.slow
def test_generate_killed_resumes_to_the_same_pack(tmp_path: Path):
    args = [sys.executable, "-m", "boardlab.cli.main", "triplex", "generate", "--max-area",
            "30", "--backend", "serial", "--no-progress"]
    whole = tmp_path / "whole.json"
    subprocess.run([*args, "--out", str(whole)], check=True, capture_output=True, timeout=300)
    killed = tmp_path / "killed.json"
    checkpoint = tmp_path / "killed.json.checkpoint.jsonl"
    proc = subprocess.Popen([*args, "--out", str(killed)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if checkpoint.exists() and checkpoint.read_text().count("\n") >= 4:
            break
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not killed.exists(), "the run was meant to be killed before it finished"
    done_before = checkpoint.read_text().count("\n")
    assert done_before >= 4
    subprocess.run([*args, "--out", str(killed)], check=True, capture_output=True, timeout=300)
    assert killed.read_bytes() == whole.read_bytes()
    assert (tmp_path / "killed.master.json").read_bytes() == \
        (tmp_path / "whole.master.json").read_bytes()


def test_custom_piece_file(tmp_path: Path):
    pieces = tmp_path / "pieces.txt"
    pieces.write_text("; dominoes and two trominoes\n##\n\n#\n#\n\n###\n\n#.\n##\n")
    result = run("levels", "4", "3", "--pieces", str(pieces), "--json", "--backend", "serial")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    allowed = {"##", "#\n#", "###", "#.\n##"}
    assert data["count"] >= 1
    assert all(set(level["pieces"]) <= allowed for level in data["levels"])
    out = tmp_path / "custom.json"
    result = run("generate", "--max-area", "12", "--pieces", str(pieces), "--out", str(out),
                 "--backend", "serial", "--no-progress")
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["pieces"] == "custom"


def test_bad_piece_files(tmp_path: Path):
    drawn = tmp_path / "drawn.txt"
    drawn.write_text("##\n\n#?\n")
    split = tmp_path / "split.txt"
    split.write_text("##\n\n#.\n.#\n")
    out = tmp_path / "never.json"
    for path, message in [(drawn, "drawn.txt, line 3, column 2: unexpected '?'"),
                          (split, "split.txt, line 3: the cells of a shape must be connected")]:
        result = run("generate", "--max-area", "12", "--pieces", str(path), "--out", str(out))
        assert result.exit_code == 2 and message in result.output, result.output
        assert not out.exists()


def test_generate_report_and_partitions_method(tmp_path: Path):
    """--report writes the run's report; --method partitions gives the same pack as the
    vector method and the seed's filter table, whose lines chain and end in the levels."""
    packs = {}
    for method in ("vectors", "partitions"):
        out = tmp_path / f"{method}.json"
        report = tmp_path / f"{method}.report.json"
        result = run("generate", "--max-area", "15", "--out", str(out), "--backend",
                     "serial", "--no-progress", "--method", method, "--report", str(report))
        assert result.exit_code == 0, result.output
        assert "Levels per rectangle" in result.output and f"report {report}" in result.output
        packs[method] = (tmp_path / f"{method}.master.json").read_bytes()
        data = json.loads(report.read_text())
        assert data["method"] == method and data["levels"] == 14
        sizes = {f"{s['width']}x{s['height']}": s for s in data["sizes"]}
        assert {k: s["levels"] for k, s in sizes.items() if s["levels"]} == {
            "4x2": 2, "3x3": 1, "5x2": 1, "4x3": 4, "5x3": 6}
        assert data["sizes"][-1]["total_levels"] == 14
        if method == "partitions":
            assert "2x2Duplicates" in result.output and "Total" in result.output
            lines = sizes["4x3"]["filters"]
            assert [line["filter"] for line in lines] == [
                "2x2Duplicates", "1x1Cell", "StraightCut", "Shapes3", "Shape23",
                "RotatedAndReflected", "Solver", "Total"]
            for before, after in zip(lines[:6], lines[1:7], strict=True):
                assert after["checked"] == before["accepted"]
            assert lines[6]["accepted"] == lines[7]["accepted"] == 4
            assert lines[7]["checked"] == lines[0]["checked"] == sizes["4x3"]["stages"]["states"]
        else:
            assert sizes["4x3"]["stages"]["orbits"] == 85
    assert packs["vectors"] == packs["partitions"]


def test_generate_method_errors(tmp_path: Path):
    out = tmp_path / "never.json"
    result = run("generate", "--max-area", "12", "--out", str(out), "--method", "guess")
    assert result.exit_code == 2 and "unknown method 'guess'" in result.output
    result = run("generate", "--max-area", "12", "--out", str(out), "--method", "partitions",
                 "--pieces", "penta")
    assert result.exit_code == 2 and "partitions method handles" in result.output
    result = run("generate", "--max-area", "12", "--out", str(out), "--report", str(out))
    assert result.exit_code == 2 and "different files" in result.output
    assert not out.exists()
