"""Start-up time of the ``boardlab`` command, against ``python -c pass``.

The baseline is the interpreter itself starting and stopping (``python -c pass``, same
interpreter, same environment): no command can start faster. Each command is run
``--runs`` times, interleaved with the baseline so both see the same machine load; the
script prints the median wall and CPU time of each and the excess over the baseline.
The target of issue 11 is under 0.3 s wall for ``--help``, ``--version`` and ``games``.

    python benchmarks/cli_startup.py            # 21 runs each
    python benchmarks/cli_startup.py --runs 51
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

COMMANDS = (["--version"], ["--help"], ["games"], ["games", "--json"],
            ["rules", "tic-tac-toe"], ["perft", "tic-tac-toe", "1"])
TARGET_SECONDS = 0.3
TARGETED = {"--version", "--help", "games"}


def timed(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one run of ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                   env={**os.environ, "COLUMNS": "100"})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    script = shutil.which("boardlab")
    if script is None:
        sys.exit("boardlab is not installed (pip install -e .)")
    baseline = [sys.executable, "-c", "pass"]
    samples: dict[str, list[tuple[float, float]]] = {"python -c pass": []}
    for _ in range(args.runs):
        samples["python -c pass"].append(timed(baseline))
        for command in COMMANDS:
            samples.setdefault(" ".join(command), []).append(timed([script, *command]))
    base_wall = statistics.median(w for w, _ in samples["python -c pass"])
    print(f"{'command':<28} {'wall s':>8} {'cpu s':>8} {'- baseline':>11} {'x baseline':>11}")
    for name, runs in samples.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        mark = ""
        if name in TARGETED:
            mark = "  ok" if wall < TARGET_SECONDS else f"  OVER {TARGET_SECONDS} s"
        label = name if name == "python -c pass" else f"boardlab {name}"
        print(f"{label:<28} {wall:8.3f} {cpu:8.3f} {wall - base_wall:11.3f} "
              f"{wall / base_wall:11.2f}{mark}")
    print(f"(median of {args.runs} runs each, interleaved; Python {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
