"""The task runner: backends agree, a killed run resumes with nothing lost or repeated, bad
checkpoints and failing workers are reported, and the chart is a readable PNG."""

from __future__ import annotations

import doctest
import io
import json
import os
import signal
import struct
import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path

import pytest
from rich.console import Console

from boardlab.errors import RunnerError
from boardlab.puzzles import runner
from boardlab.puzzles.runner import (
    Task,
    TimelinePoint,
    fingerprint,
    plot_timeline,
    run_tasks,
    time_unit,
    timeline_from_checkpoint,
)
from tests.puzzles.runner_jobs import count_primes, prime_tasks, slow_tasks

REPO = Path(__file__).resolve().parents[2]

# Primes below 10 000, counted and summed independently of the runner (OEIS A000720, A046731).
PRIMES_BELOW_10000 = (1229, 5736396)


def serial(tasks, **options):
    options.setdefault("progress", False)
    return run_tasks(tasks, count_primes, backend="serial", **options)


def checkpoint_ids(path: Path) -> list[str]:
    """The task ids recorded in a checkpoint, from its complete lines only."""
    lines = path.read_bytes().split(b"\n")[1:-1] if path.exists() else []
    return [json.loads(line)["id"] for line in lines]


def calls(markers: Path) -> dict[str, int]:
    """How often each task's worker ran, from the files it leaves in ``markers``."""
    counts: dict[str, int] = {}
    for marker in markers.iterdir():
        task_id = f"primes-{marker.name.split('.')[0]}"
        counts[task_id] = counts.get(task_id, 0) + 1
    return counts


def test_serial_run_matches_published_prime_counts():
    results = serial(prime_tasks(10))
    assert list(results) == [f"primes-{lo}" for lo in range(0, 10_000, 1000)]
    assert (sum(r["count"] for r in results.values()),
            sum(r["sum"] for r in results.values())) == PRIMES_BELOW_10000


def test_process_backend_matches_serial():
    tasks = prime_tasks(12)
    assert run_tasks(tasks, count_primes, backend="process", workers=2,
                     progress=False) == serial(tasks)


@pytest.mark.slow
def test_ray_backend_matches_serial():
    ray = pytest.importorskip("ray")
    tasks = prime_tasks(8)
    seen = []
    results = run_tasks(tasks, count_primes, backend="ray", workers=2, progress=False,
                        on_result=lambda task, result: seen.append(task.id))
    assert results == serial(tasks)
    assert sorted(seen) == sorted(results)
    assert not ray.is_initialized()  # it started Ray, so it shut it down


def test_killed_run_resumes_with_nothing_lost_or_repeated(tmp_path):
    checkpoint, markers = tmp_path / "run.jsonl", tmp_path / "markers"
    markers.mkdir()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]))
    log = tmp_path / "stderr.txt"
    with log.open("wb") as stderr:
        run = subprocess.Popen([sys.executable, "-m", "tests.puzzles.runner_jobs",
                                str(checkpoint), str(markers)],
                               cwd=REPO, env=env, stderr=stderr, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while len(checkpoint_ids(checkpoint)) < 6:
            assert run.poll() is None, f"the run ended before it was killed: {log.read_text()}"
            assert time.monotonic() < deadline, "the run recorded no tasks"
            time.sleep(0.01)
        run.send_signal(signal.SIGKILL)
        run.wait()
        # the pool processes die with the run instead of working on as orphans
        pids = {int(text) for m in markers.iterdir() if (text := m.read_text())}
        assert pids and run.pid not in pids
        deadline = time.monotonic() + 60   # a guard against hanging, not a timing
        while alive := [pid for pid in pids if _alive(pid)]:
            assert time.monotonic() < deadline, f"orphaned pool processes {alive}"
            time.sleep(0.05)
    finally:
        with suppress(ProcessLookupError):
            os.killpg(run.pid, signal.SIGKILL)

    done_before = checkpoint_ids(checkpoint)
    tasks = slow_tasks(markers)
    assert 6 <= len(done_before) < len(tasks)
    t_before = max(json.loads(line)["t"]
                   for line in checkpoint.read_bytes().split(b"\n")[1:-1])

    timeline: list[TimelinePoint] = []
    fresh: list[str] = []
    results = run_tasks(tasks, count_primes, backend="process", workers=2,
                        checkpoint=checkpoint, progress=False, timeline=timeline,
                        found=lambda result: result["count"],
                        on_result=lambda task, result: fresh.append(task.id))

    assert results == serial(prime_tasks(len(tasks)))
    recorded = checkpoint_ids(checkpoint)
    assert sorted(recorded) == sorted(results)  # every task once, none twice
    assert recorded[:len(done_before)] == done_before
    ran = calls(markers)
    assert all(ran[task_id] == 1 for task_id in done_before)  # finished tasks not redone
    assert set(ran) == set(results)
    assert sorted(fresh) == sorted(set(results) - set(done_before))
    # the time axis goes on from where the killed run stopped
    seconds = [point.seconds for point in timeline]
    assert seconds == sorted(seconds)
    assert timeline[len(done_before) + 1].seconds >= t_before
    assert timeline[-1].work_done == 1.0
    assert timeline[-1].found == sum(result["count"] for result in results.values())


def _alive(pid: int) -> bool:
    """Whether a process still runs (a zombie, dead but not yet reaped, does not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return "\nState:\tZ" not in status


def test_torn_last_line_is_dropped_and_its_task_rerun(tmp_path):
    checkpoint, markers = tmp_path / "run.jsonl", tmp_path / "markers"
    markers.mkdir()
    tasks = prime_tasks(6, markers=str(markers))
    expected = serial(tasks, checkpoint=checkpoint)
    lines = checkpoint.read_bytes().split(b"\n")
    # as killed while writing the fifth record: four records and half a line
    checkpoint.write_bytes(b"\n".join(lines[:5]) + b"\n" + lines[5][:20])
    for marker in markers.iterdir():
        marker.unlink()

    assert serial(tasks, checkpoint=checkpoint) == expected
    assert calls(markers) == {task.id: 1 for task in tasks[4:]}
    text = checkpoint.read_text()
    assert text.endswith("\n")
    assert checkpoint_ids(checkpoint) == list(expected)
    assert all(json.loads(line) for line in text.splitlines())


def test_torn_header_starts_afresh(tmp_path):
    checkpoint = tmp_path / "run.jsonl"
    checkpoint.write_bytes(b'{"format":"boardlab-run')
    tasks = prime_tasks(3)
    assert serial(tasks, checkpoint=checkpoint) == serial(tasks)
    assert checkpoint_ids(checkpoint) == [task.id for task in tasks]


def test_checkpoint_of_another_task_list_is_refused(tmp_path):
    checkpoint = tmp_path / "run.jsonl"
    serial(prime_tasks(3), checkpoint=checkpoint)
    before = checkpoint.read_bytes()
    with pytest.raises(RunnerError, match="different task list") as error:
        serial(prime_tasks(4), checkpoint=checkpoint)
    assert error.value.path == str(checkpoint)
    assert checkpoint.read_bytes() == before
    # order and weights are not part of the task list's identity
    reordered = [Task(t.id, t.payload, weight=2.5) for t in reversed(prime_tasks(3))]
    assert fingerprint(reordered) == fingerprint(prime_tasks(3))
    assert serial(reordered, checkpoint=checkpoint) == serial(prime_tasks(3))


@pytest.mark.parametrize("text", ["shopping list\n", "no newline", '{"a": 1}\n'])
def test_other_files_are_not_taken_for_checkpoints(tmp_path, text):
    checkpoint = tmp_path / "notes.txt"
    checkpoint.write_text(text)
    with pytest.raises(RunnerError, match="not a boardlab runner checkpoint"):
        serial(prime_tasks(2), checkpoint=checkpoint)
    assert checkpoint.read_text() == text


def test_unwritable_checkpoint_is_reported(tmp_path):
    with pytest.raises(RunnerError, match="cannot open checkpoint"):
        serial(prime_tasks(2), checkpoint=tmp_path / "missing" / "run.jsonl")


def test_a_checkpoint_serves_one_run_at_a_time(tmp_path):
    checkpoint = tmp_path / "run.jsonl"
    tasks = prime_tasks(2)

    def second_run(task, result):
        serial(tasks, checkpoint=checkpoint)

    with pytest.raises(RunnerError, match="in use by another run"):
        serial(tasks, checkpoint=checkpoint, on_result=second_run)


@pytest.mark.parametrize("backend", ["serial", "process", "ray"])
def test_worker_failure_names_the_task_and_keeps_finished_ones(tmp_path, backend):
    if backend == "ray":
        pytest.importorskip("ray")
    checkpoint, finished = tmp_path / "run.jsonl", tmp_path / "finished"
    finished.mkdir()
    tasks = [*prime_tasks(2), Task("doomed", {"lo": 0, "hi": 10, "fail": True}),
             *prime_tasks(3, sleep=3, finished=str(finished))[2:]]
    with pytest.raises(RunnerError, match=r"task 'doomed' failed: ValueError: no primes"
                       ) as error:
        run_tasks(tasks, count_primes, backend=backend, workers=2, progress=False,
                  checkpoint=checkpoint)
    assert error.value.task_id == "doomed"
    assert isinstance(error.value.__cause__, ValueError)
    if backend == "process":
        # The slow task in flight was stopped, not waited for: it never got to the end.
        assert list(finished.iterdir()) == []
    finished = checkpoint_ids(checkpoint)
    # a worker may fail the doomed task before its sibling's first result is back
    assert finished == ["primes-0", "primes-1000"] if backend == "serial" else (
        set(finished) <= {"primes-0", "primes-1000"})


def test_a_finished_run_resumes_without_starting_workers(tmp_path, monkeypatch):
    ray = pytest.importorskip("ray")
    checkpoint = tmp_path / "run.jsonl"
    tasks = prime_tasks(3)
    expected = serial(tasks, checkpoint=checkpoint)

    def no_cluster(*args, **kwargs):
        raise AssertionError("a finished run started Ray")

    def no_work(payload):
        raise AssertionError("a finished run ran a task")

    monkeypatch.setattr(ray, "init", no_cluster)
    assert run_tasks(tasks, no_work, backend="ray", checkpoint=checkpoint,
                     progress=False) == expected
    assert checkpoint_ids(checkpoint) == list(expected)


def test_docstring_examples():
    assert doctest.testmod(runner).failed == 0


def test_task_lists_are_checked():
    with pytest.raises(RunnerError, match="'a' appears twice"):
        serial([Task("a", 1), Task("a", 2)])
    with pytest.raises(RunnerError, match="not JSON-serialisable"):
        serial([Task("a", {1, 2})])
    with pytest.raises(ValueError, match="weight"):
        Task("a", 1, weight=-1)
    with pytest.raises(RunnerError, match="unknown backend"):
        run_tasks([], count_primes, backend="threads")


def test_progress_bar_shows_work_found_and_rate():
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, color_system=None, width=160)
    serial(prime_tasks(3), progress=True, console=console, description="chunks",
           found=lambda result: result["count"], found_label="primes")
    text = out.getvalue()
    assert "chunks" in text and "100%" in text
    assert "3/3 chunks" in text and "430 primes (" in text  # 430 primes below 3000


def test_progress_bar_stays_off_the_log_when_stderr_is_no_terminal(capfd):
    serial(prime_tasks(2), progress=True)
    assert capfd.readouterr().err == ""


def test_timeline_and_chart(tmp_path):
    checkpoint, chart = tmp_path / "run.jsonl", tmp_path / "chart.png"
    timeline: list[TimelinePoint] = []
    tasks = [Task(t.id, t.payload, weight=weight)
             for t, weight in zip(prime_tasks(4), [1, 1, 2, 4], strict=True)]
    serial(tasks, checkpoint=checkpoint, timeline=timeline,
           found=lambda result: result["count"])
    assert [(p.work_done, p.found) for p in timeline] == [
        (0.0, 0), (0.125, 168), (0.25, 303), (0.5, 430), (1.0, 550)]
    from_file = timeline_from_checkpoint(checkpoint)
    assert [(p.work_done, p.found) for p in from_file] == [
        (p.work_done, p.found) for p in timeline]
    assert all(abs(a.seconds - b.seconds) < 0.01 for a, b in zip(from_file, timeline, strict=True))

    assert plot_timeline(timeline, chart, title="primes") == chart
    data = chart.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    assert struct.unpack(">II", data[16:24]) == (900, 500)
    assert len(data) > 10_000


def test_time_axis_unit_suits_the_run_length():
    assert [time_unit(s)[0] for s in (0, 119, 120, 7199, 7200, 2 * 86400, 45 * 86400)] == [
        "seconds", "seconds", "minutes", "minutes", "hours", "days", "days"]
