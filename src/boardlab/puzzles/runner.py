"""Run many independent tasks in parallel, resumably, with a progress bar and a timeline.

Infrastructure for long generator runs (issue 3, section 4 "Scale", of the Triplex level
generator): the work is split into independent :class:`Task` values, each a JSON payload for a
top-level ``worker`` function, and :func:`run_tasks` runs them on local processes (the
default), in-process, or on a Ray cluster. It knows nothing about any puzzle.

A long run keeps a checkpoint: one JSON line per finished task, written and fsynced as soon as
the task's result comes back, under a header line holding a fingerprint of the task list. A
run killed at any moment (SIGKILL included) loses only the tasks in flight; started again with
the same tasks and checkpoint, it skips the finished tasks and returns the same results as a
run that was never interrupted, with no task recorded twice.

The timeline (time, fraction of work done, items found) continues across resumes and
:func:`plot_timeline` draws it like the chart of the original Triplex generator: LEVELS FOUND
and WORK DONE (%) against time.

>>> import math
>>> tasks = [Task(f"{n}!", n) for n in range(1, 5)]
>>> run_tasks(tasks, math.factorial, backend="serial", progress=False)
{'1!': 1, '2!': 2, '3!': 6, '4!': 24}
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NamedTuple

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    TaskProgressColumn,
    TextColumn,
)
from rich.text import Text

from boardlab.errors import RunnerError

__all__ = [
    "Backend",
    "Task",
    "TimelinePoint",
    "fingerprint",
    "plot_timeline",
    "run_tasks",
    "timeline_from_checkpoint",
]

Backend = Literal["process", "ray", "serial"]

#: Tasks kept submitted per worker: enough to keep every worker busy while results are
#: recorded, few enough that memory stays flat however many tasks there are.
IN_FLIGHT_PER_WORKER = 2

_FORMAT = "boardlab-runner-checkpoint"
_VERSION = 1
_HEADER_START = json.dumps({"format": _FORMAT}, separators=(",", ":"))[:-1].encode()


@dataclass(frozen=True)
class Task:
    """One independent piece of work.

    ``id`` names it stably across runs (the checkpoint and the result dict are keyed by it),
    ``payload`` is the JSON value handed to the worker, and ``weight`` estimates its work in
    any unit, for the "work done" fraction and the ETA.
    """

    id: str
    payload: Any
    weight: float = 1.0

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id:
            raise ValueError(f"a task id must be a non-empty string, not {self.id!r}")
        if not (isinstance(self.weight, int | float) and math.isfinite(self.weight)
                and self.weight >= 0):
            raise ValueError(f"task {self.id!r}: weight must be finite and >= 0, "
                             f"not {self.weight!r}")


class TimelinePoint(NamedTuple):
    """The state of a run when a task finished: ``seconds`` of work since the run first
    started (summed over resumes), ``work_done`` as a fraction of the total weight, and the
    number of items ``found`` so far."""

    seconds: float
    work_done: float
    found: int


def fingerprint(tasks: Iterable[Task]) -> str:
    """A hash of the task ids and payloads, independent of their order and weights.

    Two task lists with the same fingerprint ask for the same results, so a checkpoint of
    one can resume the other; weights are estimates and may change between runs.
    """
    pairs = []
    for task in tasks:
        try:
            payload = json.dumps(task.payload, sort_keys=True, separators=(",", ":"))
        except (TypeError, ValueError) as exc:
            raise RunnerError(f"task {task.id!r}: payload is not JSON-serialisable: {exc}",
                              task_id=task.id) from exc
        pairs.append((task.id, payload))
    pairs.sort()
    digest = hashlib.sha256()
    for task_id, payload in pairs:
        digest.update(json.dumps([task_id, payload]).encode())
        digest.update(b"\n")
    return digest.hexdigest()


def run_tasks(
    tasks: Sequence[Task],
    worker: Callable[[Any], Any],
    *,
    backend: Backend = "process",
    workers: int | None = None,
    ray_address: str | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    progress: bool = True,
    console: Console | None = None,
    description: str = "tasks",
    found: Callable[[Any], int] | None = None,
    found_label: str = "found",
    on_result: Callable[[Task, Any], None] | None = None,
    timeline: list[TimelinePoint] | None = None,
) -> dict[str, Any]:
    """Run ``worker(task.payload)`` for every task and return ``{task.id: result}``.

    ``worker`` must be a top-level (picklable) function whose result is JSON-serialisable;
    results are normalised through JSON, so a resumed run returns exactly what an
    uninterrupted one does. The dict follows the order of ``tasks``.

    ``backend`` is ``"process"`` (a pool of ``workers`` local processes, default
    ``os.cpu_count()``), ``"serial"`` (in this process, for debugging and tiny runs) or
    ``"ray"`` (the cluster at ``ray_address``, else a local instance with ``workers`` CPUs;
    Ray already initialised by the caller is used as it is). Pool processes are spawned, not
    forked, so a script calling this must guard its top level with
    ``if __name__ == "__main__":``.

    With ``checkpoint``, every finished task is appended to that file at once and a run
    started again with the same tasks resumes from it; a checkpoint of a different task
    list is refused with :class:`~boardlab.errors.RunnerError`.

    ``found(result)`` counts the items a result contributes (levels found, say), shown as
    ``found_label`` on the progress bar. The bar goes to stderr when ``progress`` is true and
    stderr is a terminal, or to ``console`` when one is given. ``on_result(task, result)`` is
    called, in this process, for each task finished by this run (not for those read back from
    the checkpoint), after its result is in the checkpoint. ``timeline``, when given, receives
    a :class:`TimelinePoint` at the start and after every finished task, including the ones
    of earlier runs read from the checkpoint.

    A failing worker stops the run with a :class:`~boardlab.errors.RunnerError` naming the
    task; the tasks finished before it stay in the checkpoint.
    """
    tasks = list(tasks)
    by_id: dict[str, Task] = {}
    for task in tasks:
        if task.id in by_id:
            raise RunnerError(f"task id {task.id!r} appears twice in the task list",
                              task_id=task.id)
        by_id[task.id] = task
    digest = fingerprint(tasks)
    if workers is not None and workers < 1:
        raise RunnerError(f"workers must be at least 1, not {workers}")
    if backend not in ("process", "ray", "serial"):
        raise RunnerError(f"unknown backend {backend!r}; known: process, ray, serial")
    count = found or (lambda result: 0)
    tally = _Tally(total_weight=sum(task.weight for task in tasks), tasks=len(tasks))

    with contextlib.ExitStack() as stack:
        store = None
        records: list[dict[str, Any]] = []
        if checkpoint is not None:
            store = stack.enter_context(_Checkpoint(Path(checkpoint), digest, tally))
            records = store.records
        results: dict[str, Any] = {}
        if timeline is not None:
            timeline.append(TimelinePoint(0.0, 0.0, 0))
        for record in records:
            task = by_id.get(record["id"])
            if task is None:  # only a hand-edited checkpoint gets here
                raise RunnerError(f"{checkpoint}: unknown task id {record['id']!r}",
                                  task_id=record["id"], path=str(checkpoint))
            results[task.id] = record["result"]
            # counted again, not read back: ``found`` may have changed since that run
            tally.add(task.weight, int(count(record["result"])), resumed=True)
            if timeline is not None:
                timeline.append(tally.point(record["t"]))
        tally.offset = max((record["t"] for record in records), default=0.0)
        pending = [task for task in tasks if task.id not in results]

        bar = _progress_bar(progress, console, description, found_label if found else None,
                            tally)
        if bar is not None:
            stack.enter_context(bar)
            if records:
                bar.console.print(f"resuming {checkpoint}: {len(records)} of {len(tasks)} "
                                  f"{description} already done")
            bar_task = bar.add_task(description, total=tally.total_weight or 1,
                                    completed=tally.done_weight)

        tally.start = time.monotonic()
        # a finished run, resumed, starts no pool and no cluster
        if backend == "serial" or not pending:
            outcomes = _run_serial(worker, pending)
        elif backend == "process":
            outcomes = _run_processes(worker, pending, workers or os.cpu_count() or 1)
        else:
            outcomes = _run_ray(worker, pending, workers, ray_address)
        with contextlib.closing(outcomes):
            for task, result, error in outcomes:
                if error is not None:
                    raise RunnerError(f"task {task.id!r} failed: {type(error).__name__}: "
                                      f"{error}", task_id=task.id) from error
                result = _json_normal(task, result)
                n = int(count(result))
                seconds = tally.elapsed()
                if store is not None:
                    store.append({"id": task.id, "result": result, "t": round(seconds, 3),
                                  "weight": task.weight, "found": n})
                results[task.id] = result
                tally.add(task.weight, n)
                if timeline is not None:
                    timeline.append(tally.point(seconds))
                if bar is not None:
                    bar.update(bar_task, completed=tally.done_weight)
                if on_result is not None:
                    on_result(task, result)
    return {task.id: results[task.id] for task in tasks}


# --- bookkeeping --------------------------------------------------------------------------


@dataclass
class _Tally:
    """Running totals of one run, read by the progress bar."""

    total_weight: float
    tasks: int
    done_weight: float = 0.0
    done_tasks: int = 0
    found: int = 0
    resumed_weight: float = 0.0
    resumed_found: int = 0
    offset: float = 0.0  # seconds worked by earlier runs
    start: float | None = None  # time.monotonic() when this run started working

    def add(self, weight: float, found: int, *, resumed: bool = False) -> None:
        self.done_weight += weight
        self.done_tasks += 1
        self.found += found
        if resumed:
            self.resumed_weight += weight
            self.resumed_found += found

    def elapsed(self) -> float:
        """Seconds of work since the first run started, summed over resumes."""
        return self.offset + self.since_start()

    def since_start(self) -> float:
        return 0.0 if self.start is None else time.monotonic() - self.start

    def point(self, seconds: float) -> TimelinePoint:
        fraction = self.done_weight / self.total_weight if self.total_weight else 1.0
        return TimelinePoint(seconds, min(fraction, 1.0), self.found)

    def eta(self) -> float | None:
        """Seconds left at the rate of this run, or None before it has finished anything."""
        seconds, weight = self.since_start(), self.done_weight - self.resumed_weight
        if seconds <= 0 or weight <= 0:
            return None
        return max(self.total_weight - self.done_weight, 0.0) * seconds / weight


class _Checkpoint:
    """The checkpoint file: a header line, then one JSON line per finished task.

    Opening it reads the finished tasks back, drops a last line torn by a kill, refuses a
    header of another task list, and locks the file against a second run using it at once.
    """

    def __init__(self, path: Path, digest: str, tally: _Tally):
        self.path = path
        self.header = {"format": _FORMAT, "version": _VERSION, "fingerprint": digest,
                       "tasks": tally.tasks, "weight": tally.total_weight}
        self.records: list[dict[str, Any]] = []
        self.file = None

    def __enter__(self) -> _Checkpoint:
        try:
            self.file = open(self.path, "ab+")  # noqa: SIM115 - closed by __exit__
        except OSError as exc:
            raise RunnerError(f"{self.path}: cannot open checkpoint: {exc.strerror}",
                              path=str(self.path)) from exc
        try:
            _lock(self.file, self.path)
            self.file.seek(0)
            data = self.file.read()
            header, self.records, good = _parse_checkpoint(data, self.path)
            if header is None:
                self._rewrite(b"")
                self._write_line(self.header)
                _fsync_directory(self.path)
            else:
                if header.get("fingerprint") != self.header["fingerprint"]:
                    raise RunnerError(
                        f"{self.path}: checkpoint of a different task list (fingerprint "
                        f"{str(header.get('fingerprint'))[:12]}, this run "
                        f"{self.header['fingerprint'][:12]}); delete it or choose another "
                        f"checkpoint file", path=str(self.path))
                if good < len(data):
                    self._rewrite(data[:good])
        except BaseException:
            self.file.close()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.file.close()

    def append(self, record: dict[str, Any]) -> None:
        self._write_line(record)

    def _write_line(self, value: dict[str, Any]) -> None:
        self.file.write(json.dumps(value, separators=(",", ":")).encode() + b"\n")
        self.file.flush()
        os.fsync(self.file.fileno())

    def _rewrite(self, data: bytes) -> None:
        self.file.truncate(len(data))
        self.file.flush()
        os.fsync(self.file.fileno())


def _parse_checkpoint(data: bytes, path: Path
                      ) -> tuple[dict[str, Any] | None, list[dict[str, Any]], int]:
    """The header, the task records and the length of the well-formed prefix of a checkpoint.

    Only newline-terminated lines count: a line is written in one go ending with its newline,
    so a kill can only cut the last line short, and that line's task simply runs again.
    """
    *lines, tail = data.split(b"\n")
    good = len(data) - len(tail)
    if not lines:
        # empty, or a header cut short: but never take someone's one-line file for that
        if not (tail.startswith(_HEADER_START) or _HEADER_START.startswith(tail)):
            raise RunnerError(f"{path}: not a boardlab runner checkpoint", path=str(path))
        return None, [], 0
    try:
        header = json.loads(lines[0])
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("format") != _FORMAT:
        raise RunnerError(f"{path}: not a boardlab runner checkpoint", path=str(path))
    if header.get("version") != _VERSION:
        raise RunnerError(f"{path}: checkpoint version {header.get('version')!r}, expected "
                          f"{_VERSION}", path=str(path))
    records, seen = [], set()
    for number, line in enumerate(lines[1:], start=2):
        try:
            record = json.loads(line)
            task_id = record["id"]
            record["result"], record["t"], record["found"]  # noqa: B018 - checks the keys
        except (ValueError, TypeError, KeyError) as exc:
            raise RunnerError(f"{path}:{number}: corrupt checkpoint line: {exc}",
                              path=str(path)) from exc
        if task_id not in seen:
            seen.add(task_id)
            records.append(record)
    return header, records, good


def _lock(file: Any, path: Path) -> None:
    """Lock the checkpoint for this process; the lock dies with the process, even by kill."""
    try:
        import fcntl
    except ImportError:  # not POSIX: run without the lock
        return
    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        raise RunnerError(f"{path}: checkpoint in use by another run", path=str(path)) from exc


def _fsync_directory(path: Path) -> None:
    """Make a new file's directory entry durable too (POSIX; elsewhere a no-op)."""
    try:
        fd = os.open(path.parent if str(path.parent) else ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _json_normal(task: Task, result: Any) -> Any:
    try:
        return json.loads(json.dumps(result))
    except (TypeError, ValueError) as exc:
        raise RunnerError(f"task {task.id!r}: result is not JSON-serialisable: {exc}",
                          task_id=task.id) from exc


def timeline_from_checkpoint(path: str | os.PathLike[str]) -> list[TimelinePoint]:
    """The timeline of the run recorded in a checkpoint file, e.g. to plot a killed run."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RunnerError(f"{path}: cannot read checkpoint: {exc.strerror}",
                          path=str(path)) from exc
    header, records, _ = _parse_checkpoint(data, path)
    if header is None:
        return []
    tally = _Tally(total_weight=float(header.get("weight", 0)), tasks=header.get("tasks", 0))
    points = [TimelinePoint(0.0, 0.0, 0)]
    for record in records:
        tally.add(float(record.get("weight", 1.0)), int(record["found"]))
        points.append(tally.point(float(record["t"])))
    return points


# --- backends: each yields (task, result, error) as tasks finish --------------------------

Outcome = tuple[Task, Any, BaseException | None]


def _run_serial(worker: Callable[[Any], Any], tasks: list[Task]) -> Iterator[Outcome]:
    for task in tasks:
        try:
            result = worker(task.payload)
        except Exception as exc:
            yield task, None, exc
            return
        yield task, result, None


def _run_processes(worker: Callable[[Any], Any], tasks: list[Task], workers: int
                   ) -> Iterator[Outcome]:
    # spawn, not fork: the parent has threads (the progress bar's, numba's) that fork
    # would copy in an unknown state.
    pool = ProcessPoolExecutor(max_workers=workers,
                               mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_worker_process, initargs=(os.getpid(),))
    in_flight: dict[Future[Any], Task] = {}
    queue = iter(tasks)
    finished = False
    try:
        while True:
            while len(in_flight) < IN_FLIGHT_PER_WORKER * workers:
                task = next(queue, None)
                if task is None:
                    break
                in_flight[pool.submit(worker, task.payload)] = task
            if not in_flight:
                break
            done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            # successes first, so a failure does not cost the results that came with it
            for future in sorted(done, key=lambda f: f.exception() is not None):
                task = in_flight.pop(future)
                error = future.exception()
                yield task, None if error is not None else future.result(), error
        finished = True
    finally:
        if not finished:
            # stopped early (a failure, Ctrl-C): do not wait for the tasks still running
            for process in dict(getattr(pool, "_processes", None) or {}).values():
                with contextlib.suppress(Exception):
                    process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)


def _start_worker_process(parent_pid: int) -> None:
    """Set up a pool process: Ctrl-C is the parent's business, and the process dies with the
    parent, so a killed run leaves no orphans still working (Linux)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            pr_set_pdeathsig = 1
            ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(1)


def _run_ray(worker: Callable[[Any], Any], tasks: list[Task], workers: int | None,
             address: str | None) -> Iterator[Outcome]:
    try:
        import ray
    except ImportError as exc:
        raise RunnerError("the ray backend needs Ray: pip install 'boardlab[ray]'") from exc
    started = not ray.is_initialized()
    if started:
        if address is not None:
            ray.init(address=address, logging_level=logging.WARNING)
        else:
            ray.init(num_cpus=workers or os.cpu_count() or 1, include_dashboard=False,
                     logging_level=logging.ERROR)
    in_flight: dict[Any, Task] = {}
    try:
        if workers is None:  # as many tasks running as the cluster has CPUs
            workers = max(int(ray.cluster_resources().get("CPU", 1)), 1)
        remote = ray.remote(num_cpus=1)(worker)
        queue = iter(tasks)
        while True:
            while len(in_flight) < IN_FLIGHT_PER_WORKER * workers:
                task = next(queue, None)
                if task is None:
                    break
                in_flight[remote.remote(task.payload)] = task
            if not in_flight:
                break
            ready, _ = ray.wait(list(in_flight), num_returns=1)
            for ref in ready:
                task = in_flight.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    # report the worker's own exception, chained to Ray's remote traceback
                    cause = getattr(exc, "cause", None)
                    if not isinstance(cause, Exception):
                        cause = exc
                    elif cause.__cause__ is None:
                        cause.__cause__ = exc
                    yield task, None, cause
                    return
                except ray.exceptions.RayError as exc:
                    yield task, None, exc
                    return
                yield task, result, None
    finally:
        for ref in in_flight:
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


# --- progress bar --------------------------------------------------------------------------


def _progress_bar(progress: bool, console: Console | None, description: str,
                  found_label: str | None, tally: _Tally) -> Progress | None:
    if not progress:
        return None
    if console is None:
        console = Console(stderr=True)
        if not console.is_terminal:
            return None
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        _TallyColumn(tally, description, found_label),
        console=console,
        refresh_per_second=2,
    )


class _TallyColumn(ProgressColumn):
    """Tasks done, items found and their rate in this run, the time left, and the time
    worked (summed over resumes)."""

    def __init__(self, tally: _Tally, description: str, found_label: str | None):
        super().__init__()
        self.tally = tally
        self.description = description
        self.found_label = found_label

    def render(self, task: Any) -> Text:
        tally = self.tally
        parts = [f"{tally.done_tasks}/{tally.tasks} {self.description}"]
        if self.found_label is not None:
            rate = _rate(tally.found - tally.resumed_found, tally.since_start())
            parts.append(f"{tally.found} {self.found_label} ({rate})")
        eta = tally.eta()
        if tally.done_tasks == tally.tasks:
            parts.append("done")
        else:
            parts.append("ETA " + ("-:--:--" if eta is None else _clock(eta)))
        parts.append(f"elapsed {_clock(tally.elapsed())}")
        return Text(" · ".join(parts), style="progress.remaining")


def _rate(count: int, seconds: float) -> str:
    if seconds <= 0:
        return "-/min"
    for unit, length in (("s", 1), ("min", 60), ("h", 3600)):
        per = count * length / seconds
        if per >= 1 or unit == "h":
            return f"{per:.3g}/{unit}"
    raise AssertionError("unreachable")


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    days, seconds = divmod(seconds, 86400)
    hours, seconds = divmod(seconds, 3600)
    minutes, seconds = divmod(seconds, 60)
    clock = f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{days}d {clock}" if days else clock


# --- chart --------------------------------------------------------------------------------

_TIME_UNITS = (("seconds", 1.0, 120.0), ("minutes", 60.0, 2 * 3600.0),
               ("hours", 3600.0, 2 * 86400.0), ("days", 86400.0, math.inf))


def time_unit(seconds: float) -> tuple[str, float]:
    """The unit to show a run of ``seconds`` in, and its length in seconds.

    >>> time_unit(90), time_unit(3600), time_unit(8 * 86400)
    (('seconds', 1.0), ('minutes', 60.0), ('days', 86400.0))
    """
    for name, length, below in _TIME_UNITS:
        if seconds < below:
            return name, length
    raise AssertionError("unreachable")


def plot_timeline(points: Sequence[TimelinePoint], path: str | os.PathLike[str], *,
                  title: str | None = None, found_label: str = "LEVELS FOUND",
                  work_label: str = "WORK DONE") -> Path:
    """Draw items found (left axis) and work done in % (right axis) against time, as a PNG.

    The time axis is in seconds, minutes, hours or days, whichever suits the run's length.
    Returns the path written.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    path = Path(path)
    unit, length = time_unit(max((p.seconds for p in points), default=0.0))
    times = [p.seconds / length for p in points]
    figure = Figure(figsize=(9, 5), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    found_axis = figure.add_subplot()
    work_axis = found_axis.twinx()
    found_colour, work_colour = "tab:blue", "tab:orange"
    found_line, = found_axis.step(times, [p.found for p in points], where="post",
                                  color=found_colour, linewidth=2, label=found_label)
    work_line, = work_axis.plot(times, [100 * p.work_done for p in points],
                                color=work_colour, linewidth=2, label=f"{work_label}, %")
    found_axis.set_xlabel(f"time, {unit}")
    found_axis.set_ylabel(found_label, color=found_colour)
    found_axis.tick_params(axis="y", colors=found_colour)
    found_axis.yaxis.set_major_locator(MaxNLocator(integer=True))
    found_axis.set_ylim(bottom=0, top=max(1, max((p.found for p in points), default=0)) * 1.05)
    found_axis.set_xlim(left=0, right=max(times, default=0) or 1)
    found_axis.grid(True, alpha=0.3)
    work_axis.set_ylabel(f"{work_label}, %", color=work_colour)
    work_axis.tick_params(axis="y", colors=work_colour)
    work_axis.set_ylim(0, 100)
    found_axis.legend(handles=[found_line, work_line], loc="lower right")
    if title:
        found_axis.set_title(title)
    try:
        figure.savefig(path, format="png")
    except OSError as exc:
        raise RunnerError(f"{path}: cannot write chart: {exc.strerror or exc}",
                          path=str(path)) from exc
    return path
