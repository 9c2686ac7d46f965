"""Start-up time of the ``boardlab`` command, against ``python -c pass``.

The baseline is the interpreter itself starting and stopping (``python -c pass``, same
interpreter, same environment): no command can start faster. Each command is run
``--runs`` times, interleaved with the baseline so both see the same machine load, after
one run each to warm up; the script prints the median wall and CPU time of each and the
excess over the baseline. The target of issue 11 is under 0.3 s wall for ``--help``,
``--version`` and ``games``.

Bytecode caching is on for the runs, as on a user's machine (pip compiles an installed
package; an editable one is compiled on its first run), even where the environment
turns it off with ``PYTHONDONTWRITEBYTECODE``; ``--no-bytecode`` measures that case.

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


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one run of ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                   env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--no-bytecode", action="store_true",
                        help="Keep PYTHONDONTWRITEBYTECODE as the environment has it.")
    args = parser.parse_args()
    script = shutil.which("boardlab")
    if script is None:
        sys.exit("boardlab is not installed (pip install -e .)")
    env = {**os.environ, "COLUMNS": "100"}
    if not args.no_bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    baseline = [sys.executable, "-c", "pass"]
    for command in COMMANDS:
        timed([script, *command], env)  # warm-up: bytecode written, disk cache filled
    samples: dict[str, list[tuple[float, float]]] = {"python -c pass": []}
    for _ in range(args.runs):
        samples["python -c pass"].append(timed(baseline, env))
        for command in COMMANDS:
            samples.setdefault(" ".join(command), []).append(timed([script, *command], env))
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
    cache = "off" if args.no_bytecode and env.get("PYTHONDONTWRITEBYTECODE") else "on"
    print(f"(median of {args.runs} runs each, interleaved; Python {sys.version.split()[0]}; "
          f"bytecode cache {cache})")


if __name__ == "__main__":
    main()
