"""A small sample of ``benchmarks/web_load.py`` (the real run is 200 matches and 300 live
watchers for two minutes): a few matches against thinking bots and a few watchers for a
few seconds on a real ``boardlab serve``, with the benchmark's checks of correctness (no
error, live messages in order, every acknowledged move stored).

The benchmark's latency target (p99 of non-bot requests under 1 s) is a figure of the
benchmark's own run, not of this test: here the suite's other worker compiles kernels
and searches on the same two cores, and the server's p99 reached 1,078 and 1,190 ms
with that load alone. The test checks that the figure is measured and reported."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCHMARK = Path(__file__).parents[2] / "benchmarks" / "web_load.py"


def test_a_small_load_meets_the_benchmarks_correctness_targets():
    run = subprocess.run([sys.executable, str(BENCHMARK), "--matches", "6", "--watchers",
                          "8", "--seconds", "6", "--bot-time", "0.1"],
                         capture_output=True, text=True, timeout=300)
    out = run.stdout + run.stderr
    assert "met: 0 errors" in run.stdout, out
    assert "met: every acknowledged move present" in run.stdout, out
    assert "error:" not in run.stdout, out
    p99 = re.search(r"p99 of non-bot requests under 1 s \((\d+) ms\)", run.stdout)
    assert p99 is not None, out
    # Only the latency target may be unmet (the exit status says whether all were).
    assert run.returncode == (0 if "NOT MET" not in run.stdout else 1), out
    assert [line for line in run.stdout.splitlines() if line.startswith("NOT MET")] in (
        [], [f"NOT MET: p99 of non-bot requests under 1 s ({p99.group(1)} ms)"]), out
    moves = int(run.stdout.split("acknowledged moves: ")[1].split()[0])
    assert moves >= 6, out
    received = int(run.stdout.split("live messages received: ")[1].split(";")[0])
    assert received > 0, out
