"""Toy workloads for the task runner's tests, importable by pool processes, Ray workers and
the subprocess that ``test_runner`` kills (``python -m tests.puzzles.runner_jobs``)."""

from __future__ import annotations

import os
import sys
import time
import uuid
from pathlib import Path

from boardlab.puzzles.runner import Task, run_tasks


def count_primes(payload: dict) -> dict:
    """The primes in ``[lo, hi)`` by trial division, their count and sum.

    With ``markers``, first leaves a file named after the task there, one per call (its
    text is the pid), so a test can count how often each task really ran; with ``sleep``,
    takes that long; with ``finished``, leaves a file named after the task in that folder
    once the sleep is over, so a test can tell a task cut short from one waited for.
    """
    if "markers" in payload:
        marker = Path(payload["markers"]) / f"{payload['lo']}.{uuid.uuid4().hex}"
        marker.write_text(str(os.getpid()))
    time.sleep(payload.get("sleep", 0))
    if "finished" in payload:
        (Path(payload["finished"]) / str(payload["lo"])).write_text(str(os.getpid()))
    if payload.get("fail"):
        raise ValueError(f"no primes wanted from {payload['lo']}")
    primes = [n for n in range(max(payload["lo"], 2), payload["hi"])
              if all(n % d for d in range(2, int(n**0.5) + 1))]
    return {"count": len(primes), "sum": sum(primes)}


def prime_tasks(n: int, width: int = 1000, **extra) -> list[Task]:
    return [Task(f"primes-{lo}", {"lo": lo, "hi": lo + width, **extra}, weight=width)
            for lo in range(0, n * width, width)]


def slow_tasks(markers: Path) -> list[Task]:
    """The workload of the killed run: 24 tasks of 0.15 s each."""
    return prime_tasks(24, sleep=0.15, markers=str(markers))


if __name__ == "__main__":
    checkpoint, markers = Path(sys.argv[1]), Path(sys.argv[2])
    run_tasks(slow_tasks(markers), count_primes, backend="process", workers=2,
              checkpoint=checkpoint, progress=False)
