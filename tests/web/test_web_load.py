"""A small sample of ``benchmarks/web_load.py`` (the real run is 200 matches and 300 live
watchers for two minutes): a few matches against thinking bots and a few watchers for a
few seconds on a real ``boardlab serve``, with the benchmark's own checks (no error, every
acknowledged move stored, p99 of non-bot requests under 1 s)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCHMARK = Path(__file__).parents[2] / "benchmarks" / "web_load.py"


def test_a_small_load_meets_the_benchmarks_targets():
    run = subprocess.run([sys.executable, str(BENCHMARK), "--matches", "6", "--watchers",
                          "8", "--seconds", "6", "--bot-time", "0.1"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "met: 0 errors" in run.stdout and "NOT MET" not in run.stdout
    moves = int(run.stdout.split("acknowledged moves: ")[1].split()[0])
    assert moves >= 6, run.stdout
