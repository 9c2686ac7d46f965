"""A child Python process that does work on untrusted input, one job at a time, each job
within a bound on time and the whole child within a bound on memory.

Reading a rule file may take unbounded time or memory (a macro that expands
exponentially) or recurse until the interpreter gives up, and a Python thread cannot be
stopped; so the web app's library of imported games (:mod:`boardlab.web.zrf_worker`) and
``boardlab zrf check`` (:mod:`boardlab.zrf.check`) read rule files in a child that can be
killed. One child serves job after job, since starting Python and importing the engine
costs more than most jobs; a new one starts when a child was killed, died, or retired
itself after a job that left it unfit (out of memory, too deep a recursion, or holding
more than half its memory).

A plain child process (``python -m MODULE``) rather than ``multiprocessing``, whose
children import the parent's main script again: a script that starts a server without a
``__main__`` guard would start it twice. The child ignores Ctrl-C: the terminal sends it
to the whole process group, and the parent, which stops the child, says what happened.

Parent and child talk in JSON lines. A job is one line on the child's standard input;
the child answers on its standard output ``["ready"]`` once, then per job the messages
the job sends and ``["done"]``, or ``["done", "retire"]`` when it stops after that job.
What the child's own code prints goes to its standard error, so it cannot garble the
answers; the parent keeps the last lines of that, to say why a child died.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from boardlab.errors import WorkerError

#: The address space a child may use (far above what the corpus's largest rule files
#: need; Python with the engine imported takes about 0.3 GB of it).
MEMORY_BYTES = 2 * 1024 ** 3
#: How long a new child may take to start (Python and the imports of its module).
START_SECONDS = 60.0
#: How long a child may take to exit once its input is closed.
STOP_SECONDS = 2.0
#: The lines of the child's standard error kept to explain its death, and their length.
STDERR_LINES = 20
STDERR_LINE_CHARS = 400


def one_line(error: BaseException) -> str:
    """An error as one line, the way the CLI shows it."""
    return " ".join(str(error).split()) or type(error).__name__


def limit_memory(bound: int) -> None:
    """Bound this process's address space to ``bound`` bytes (below a lower bound already
    set), where the platform has ``RLIMIT_AS``: past it, allocations raise
    ``MemoryError`` instead of taking the machine's memory."""
    try:
        import resource
    except ImportError:  # not on this platform
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    bound = bound if hard == resource.RLIM_INFINITY else min(hard, bound)
    if soft == resource.RLIM_INFINITY or soft > bound:
        resource.setrlimit(resource.RLIMIT_AS, (bound, hard))


def _address_space() -> int:
    """The address space this process holds now, which is what :func:`limit_memory`
    bounds (0 where that is not known)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            pages = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):  # not Linux
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


def serve(handle: Callable[[Any, Callable[..., None]], bool | None]) -> None:
    """The child's main loop: run ``handle(job, send)`` for each job line until the input
    ends (``send("kind", value, ...)`` answers one JSON line); a job whose ``handle``
    returns true, or after which the child still holds more than half its bound of
    memory, is the child's last. The memory bound is the first command-line argument
    (bytes), as :class:`Worker` passes it."""
    import gc

    bound = int(sys.argv[1]) if len(sys.argv) > 1 else MEMORY_BYTES
    if hasattr(signal, "SIGINT"):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Answers go to the real standard output; anything else printed goes to stderr.
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    limit_memory(bound)

    def send(*message: Any) -> None:
        answers.write(json.dumps(message) + "\n")
        answers.flush()

    send("ready")
    for line in sys.stdin:
        retire = bool(handle(json.loads(line), send))
        gc.collect()
        # A child that keeps most of its bound (memory the last job left fragmented,
        # or caches) may fail the next job for want of it: a fresh child costs less
        # than a false failure.
        retire = retire or _address_space() > bound // 2
        if retire:
            send("done", "retire")
            return
        send("done")


@dataclass
class Run:
    """What a child said during one job: its messages (the final ``done`` left out), and
    why the job did not end, if it did not."""

    messages: list[list[Any]] = field(default_factory=list)
    #: The job ran past its time and the child was killed.
    timed_out: bool = False
    #: How the child died during the job (its exit status or signal, and the last line it
    #: wrote on standard error), when it did.
    death: str | None = None

    @property
    def done(self) -> bool:
        """Whether the job ran to its end."""
        return not self.timed_out and self.death is None


class Worker:
    """A child process running ``python -m module`` (whose main calls :func:`serve`),
    started on first use and again after it is killed or dies (see the module
    docstring). Thread-safe: one job runs at a time; :meth:`close` from another thread
    ends a job under way at once."""

    def __init__(self, module: str, *, memory_bytes: int = MEMORY_BYTES,
                 start_seconds: float = START_SECONDS, name: str = "boardlab-worker"):
        self.module = module
        self.memory_bytes = memory_bytes
        self.start_seconds = start_seconds
        self.name = name
        #: How many children were started (the first one included).
        self.starts = 0
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._answers: queue.Queue[list[Any] | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._stderr_thread: threading.Thread | None = None
        self._closed = False

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self) -> subprocess.Popen[str]:
        if self._process is not None and self._process.poll() is None:
            return self._process
        self._stop()
        # The child finds boardlab where this process found it.
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        try:
            process = subprocess.Popen(
                [sys.executable, "-m", self.module, str(self.memory_bytes)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                env=env, text=True, encoding="utf-8", errors="replace")
        except OSError as e:
            raise WorkerError(f"cannot start {self.module}: {one_line(e)}") from None
        self.starts += 1
        answers: queue.Queue[list[Any] | None] = queue.Queue()
        stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        threading.Thread(target=_listen, args=(process.stdout, answers), daemon=True,
                         name=f"{self.name}-answers").start()
        self._stderr_thread = threading.Thread(target=_keep_tail, args=(process.stderr, stderr),
                                               daemon=True, name=f"{self.name}-stderr")
        self._stderr_thread.start()
        self._process, self._answers, self._stderr = process, answers, stderr
        try:
            first = answers.get(timeout=self.start_seconds)
        except queue.Empty:
            self._stop()
            raise WorkerError(f"{self.module} did not start within "
                              f"{self.start_seconds:g} s") from None
        if first != ["ready"]:
            death = self._death(process) if first is None else f"it said {first!r}"
            self._stop()
            raise WorkerError(f"{self.module} did not start ({death})")
        return process

    def _stop(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        process.kill()
        process.wait()
        _close_pipes(process)

    def _death(self, process: subprocess.Popen[str]) -> str:
        """How ``process``, whose output has ended, died: one line."""
        try:
            code = process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            code = process.wait()
        if self._stderr_thread is not None:
            self._stderr_thread.join(timeout=STOP_SECONDS)
        if code < 0:
            try:
                how = f"killed by {signal.Signals(-code).name}"
            except ValueError:
                how = f"killed by signal {-code}"
        else:
            how = f"exited with status {code}"
        said = next((line for line in reversed(self._stderr) if line.strip()), None)
        return f"{how}: {' '.join(said.split())}" if said else how

    def run(self, job: Any, seconds: float,
            on_message: Callable[[list[Any]], float | None] | None = None) -> Run:
        """Send ``job`` (any JSON value) to the child and collect its messages until it
        says ``done``, at most ``seconds`` (then the child is killed), calling
        ``on_message`` on each as it comes; a number it returns is the job's time from
        then on (a phase with a bound of its own). :class:`~boardlab.errors.WorkerError`
        when no child starts."""
        out = Run()
        with self._lock:
            if self._closed:
                raise WorkerError(f"{self.module}: the worker is closed")
            process = self._start()
            try:
                assert process.stdin is not None
                process.stdin.write(json.dumps(job) + "\n")
                process.stdin.flush()
            except (OSError, ValueError):
                out.death = self._death(process)
                self._stop()
                return out
            deadline = time.monotonic() + seconds
            while True:
                try:
                    message = self._answers.get(timeout=max(deadline - time.monotonic(), 0))
                except queue.Empty:
                    self._stop()
                    out.timed_out = True
                    return out
                if message is None:  # the child's output ended: it died
                    out.death = "stopped" if self._closed else self._death(process)
                    self._stop()
                    return out
                if message[:1] == ["done"]:
                    if message[1:] == ["retire"]:
                        self._retire(process)
                    return out
                out.messages.append(message)
                if on_message is not None:
                    more = on_message(message)
                    if more is not None:
                        deadline = time.monotonic() + more

    def _retire(self, process: subprocess.Popen[str]) -> None:
        """Let a child that said it is done with its last job exit (or kill it)."""
        self._process = None
        try:
            process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        _close_pipes(process)

    def close(self) -> None:
        """Stop the child (a job under way ends at once, as a death); later jobs raise
        :class:`~boardlab.errors.WorkerError`."""
        self._closed = True
        process = self._process
        if process is not None:
            process.kill()
        with self._lock:
            self._stop()


def _close_pipes(process: subprocess.Popen[str]) -> None:
    for pipe in (process.stdin, process.stdout, process.stderr):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()


def _listen(stream: IO[str] | None, answers: queue.Queue[list[Any] | None]) -> None:
    """Pass the child's answers on, then ``None`` when its output ends."""
    try:
        for line in stream or ():
            try:
                message = json.loads(line)
            except ValueError:
                continue  # not an answer
            if isinstance(message, list) and message and isinstance(message[0], str):
                answers.put(message)
    except (OSError, ValueError):
        pass
    answers.put(None)


def _keep_tail(stream: IO[str] | None, tail: collections.deque[str]) -> None:
    """Keep the last lines of the child's standard error (each cut short) in ``tail``."""
    if stream is None:
        return
    try:
        while True:
            line = stream.readline(STDERR_LINE_CHARS)
            if not line:
                return
            if not line.endswith("\n"):
                # The rest of a long line is dropped, a piece at a time.
                while (rest := stream.readline(STDERR_LINE_CHARS)) and \
                        not rest.endswith("\n"):
                    pass
            tail.append(line.rstrip("\n"))
    except (OSError, ValueError):
        pass
