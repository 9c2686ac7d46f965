"""Commands that use no numba kernel never import numba: its import alone costs half a
second of CPU and 75 MB before anything runs (issue 28; benchmarks/kernel_startup.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import boardlab

ROOT = Path(__file__).parents[2]
#: A game of the move language played on the interpreter.
PLAIN = ["--engine", "interpreter"]
# Runs each command of argv[1] (a JSON list; "import": a module) in one process and
# says, after each, whether it failed and whether numba is loaded.
SCRIPT = """
import importlib, json, sys
from typer.testing import CliRunner
from boardlab.cli.main import app
runner = CliRunner()
for args in json.loads(sys.argv[1]):
    if args[0] == "import":
        importlib.import_module(args[1])
        status = 0
    else:
        status = runner.invoke(app, args).exit_code
    print(json.dumps([args, status, "numba" in sys.modules]), flush=True)
"""


def test_commands_without_a_kernel_do_not_import_numba(tmp_path):
    level = tmp_path / "level.txt"
    level.write_text("LA IB LC\nLD IE LF\nLG IH LI\n", encoding="utf-8")
    commands = [
        ["--version"], ["games"], ["rules", "breakthrough"],
        ["rules", str(ROOT / "examples" / "zrf" / "chess.zrf")],
        # Games beyond a kernel (hand-written in Python).
        ["perft", "hex-column-checkers", "2"], ["perft", "quantum-tic-tac-toe", "1"],
        ["arena", "hex-column-checkers", "random", "random", "-n", "1", "--seed", "1"],
        ["pipes", "solve", str(level)],
        # Breakthrough's, tic-tac-toe's, Connect Four's and Othello's positions on the
        # interpreter are plain positions (all are written in the move language).
        ["perft", "breakthrough", "2", *PLAIN],
        ["perft", "connect-four", "2", *PLAIN],
        ["arena", "connect-four", "random", "random", "-n", "1", "--seed", "1", *PLAIN],
        ["perft", "othello", "2", *PLAIN],
        ["arena", "othello", "random", "random", "-n", "1", "--seed", "1", *PLAIN],
        ["perft", "tic-tac-toe", "3", *PLAIN],
        ["replay", "tic-tac-toe", "--moves", "a1 b2 a2 b1 a3", *PLAIN],
        ["arena", "tic-tac-toe", "alphabeta", "random", "-n", "1", "--seed", "1", *PLAIN],
        # So is a ZRF game's (tic-tac-toe.zrf has a kernel: drops from an unlimited supply).
        ["perft", str(ROOT / "examples" / "zrf" / "tic-tac-toe.zrf"), "2", *PLAIN],
        # `boardlab serve`: the web app loads numba when a request needs a kernel.
        ["import", "boardlab.web.app"],
    ]
    source = str(Path(boardlab.__file__).parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [source, *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(commands)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    reports = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(reports) == len(commands)
    for args, status, numba_loaded in reports:
        assert status == 0, args
        # numba stays loaded: the first command that shows it is the one that loaded it.
        assert not numba_loaded, f"{' '.join(args)} imports numba"
