"""Compiling kernel modules: the cache folder they are written to (named after the hash
of their source), numba's cache, and the child process that compiles them so that
the memory numba takes goes back when it leaves."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import select
import subprocess
import sys
import tempfile
import threading
import types
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass

from boardlab.core.kernel.layout import _ENTRIES, Unsupported, _digest, _entry


def _folder() -> Path:
    """Where kernel modules are written (and numba caches them)."""
    configured = os.environ.get("BOARDLAB_KERNEL_DIR")
    candidates = [Path(configured)] if configured else []
    candidates.append(Path.home() / ".cache" / "boardlab" / "kernels")
    candidates.append(Path(tempfile.gettempdir()) / f"boardlab-kernels-{os.getuid()}")
    for folder in candidates:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=folder):  # a probe of its own: writers race
                return folder
        except OSError:
            continue
    raise Unsupported("no writable folder for kernels")


#: The longest a child process may take to compile a kernel.
_APART_SECONDS = 3_600


def _module_file(source: str) -> Path:
    """The file of the kernel module ``source``, written where it is not yet."""
    path = _folder() / f"k{_digest(source)}.py"
    if not path.exists() or path.read_text() != source:
        # A file of its own for every writer (processes and threads), moved into place
        # atomically: nobody ever reads half a file.
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f"{path.stem}.", suffix=".tmp")
        with os.fdopen(fd, "w") as out:
            out.write(source)
        os.replace(tmp, path)
    return path


def _compile_apart(path: Path) -> None:
    """Compile the kernel module at ``path`` into numba's cache in a child process: this
    process then loads the compiled code from the cache.

    Compiling a kernel takes memory that numba and LLVM never give back, in proportion
    to its size (shogi's kernel: 5.9 GB for 190 s; loaded from the cache, its whole
    process peaks at 257 MB). A server or a test run that meets many games would keep
    all of it. The child (:class:`_Compiler`) serves one kernel after another, which
    spares each kernel a new process's start-up and numba's set-up (1.7 s of CPU, a
    quarter of a small kernel's compile), and is replaced once its memory has grown
    past :data:`_COMPILER_BYTES`."""
    from boardlab import compiled as announcer

    announcer.announce(f"boardlab.kernels.{path.stem}")  # not silently: it takes a while
    _COMPILER.compile(path)


#: A compiling child whose peak memory passed this many bytes exits after its kernel.
_COMPILER_BYTES = 1 << 30


#: meets its games' kernels at its start, then seldom a new one, and an idle child
#: would hold its memory (up to the bound above) for the server's life.
_COMPILER_IDLE = 300.0


def _compiler_command() -> list[str]:
    """The command of a compiling child (:func:`_serve_compiles`)."""
    return [sys.executable, "-c",
            "from boardlab.core.kernel.compiler import _serve_compiles; _serve_compiles()",
            str(_COMPILER_BYTES)]


class _Compiler:
    """A child process that compiles the kernel modules it is sent into numba's cache,
    one at a time, and answers a line for each (see :func:`_serve_compiles`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._errors: Any = None
        self._timer: threading.Timer | None = None

    def compile(self, path: Path) -> None:
        """Compile the kernel module at ``path`` (Unsupported when the child fails,
        dies or takes longer than :data:`_APART_SECONDS`). The child is stopped once
        it has waited :data:`_COMPILER_IDLE` seconds for the next."""
        with self._lock:
            self._cancel_idle()
            try:
                self._compile(path)
            finally:
                if self._process is not None:
                    self._timer = threading.Timer(_COMPILER_IDLE, self._idle)
                    self._timer.daemon = True
                    self._timer.start()

    def close(self) -> None:
        """Stop the child now, if one runs (the next compile starts another)."""
        with self._lock:
            self._cancel_idle()
            self._stop()

    def _cancel_idle(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _idle(self) -> None:
        with self._lock:
            # Only the latest timer stops the child (an earlier one may have fired
            # while a compile held the lock).
            if self._timer is threading.current_thread():
                self._timer = None
                self._stop()

    def _compile(self, path: Path) -> None:
        """One compile in the child (see :meth:`compile`), under the lock."""
        process = self._started()
        try:
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(f"{path}\n")
            process.stdin.flush()
            ready, _, _ = select.select([process.stdout], [], [], _APART_SECONDS)
            reply = process.stdout.readline() if ready else None
        except OSError as error:
            self._stop()
            raise Unsupported(f"compiling the kernel apart failed: {error}") from None
        if reply is None:
            self._stop()
            raise Unsupported("compiling the kernel apart failed: no answer in "
                              f"{_APART_SECONDS} s")
        if not reply:  # the child died (its memory, a signal)
            last = self._last_error()
            self._stop()
            raise Unsupported(f"compiling the kernel apart failed: {last}")
        status, _, message = reply.rstrip("\n").partition(" ")
        if status == "exit":  # compiled; the child left, its memory too
            self._stop()
        elif status != "ok":
            raise Unsupported(f"compiling the kernel apart failed: {message}")

    @property
    def pid(self) -> int | None:
        """The process id of the child, or None when none is running."""
        running = self._process is not None and self._process.poll() is None
        return self._process.pid if running else None  # type: ignore[union-attr]

    def _started(self) -> subprocess.Popen[str]:
        if self._process is not None and self._process.poll() is None:
            return self._process
        self._stop()
        # The child imports what this process imported, wherever it was found.
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self._errors = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115 - the child's life
        try:
            self._process = subprocess.Popen(
                _compiler_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self._errors, text=True, env=env)
        except OSError as error:
            raise Unsupported(f"compiling the kernel apart failed: {error}") from None
        return self._process

    def _last_error(self) -> str:
        """The last line the child wrote to its standard error."""
        if self._process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._process.wait(timeout=5)
        self._errors.seek(0)
        return (self._errors.read().strip().splitlines() or ["no message"])[-1]

    def _stop(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            with contextlib.suppress(OSError):
                process.kill()
            process.wait()
            for stream in (process.stdin, process.stdout):
                with contextlib.suppress(OSError):
                    stream.close()  # type: ignore[union-attr]
        if self._errors is not None:
            self._errors.close()
            self._errors = None


_COMPILER = _Compiler()


def _serve_compiles() -> None:
    """The compiling child's loop: a kernel module's path per line of the standard
    input, compiled (:func:`_compile_file`); a line back for each: ``ok``, ``error``
    and the message, or ``exit`` once its peak memory passed the bytes its command
    gives (it then exits). Anything else the compile prints goes to standard error."""
    limit = int(sys.argv[1])
    replies = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    for line in sys.stdin:
        try:
            _compile_file(line.rstrip("\n"))
            reply = "ok"
        except Exception as error:  # noqa: BLE001 - every failure is told to the parent
            text = (f"{type(error).__name__}: {error}".strip().splitlines() or ["?"])[-1]
            reply = f"error {text}"
        done = _peak_bytes() > limit
        replies.write(("exit" if done and reply == "ok" else reply) + "\n")
        replies.flush()
        if done:
            return


def _peak_bytes() -> int:
    """The peak resident memory of this process's own program, in bytes.

    Not ``ru_maxrss``: Linux carries it over ``fork`` and ``exec``, so a child of a
    large process (a test worker, a server holding many kernels) would report its
    parent's peak and leave after every kernel. ``VmHWM`` starts again at ``exec``."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    import resource  # not Linux: the best there is (kibibytes, bytes on macOS)

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


@contextlib.contextmanager
def _compiling(path: Path) -> Iterator[None]:
    """Hold the lock of the kernel module at ``path`` while it compiles.

    Processes that meet the same game at once (a test run's workers, a server's) would
    each compile it, minutes of CPU for a large kernel: the first compiles, the others
    wait and then load it from numba's cache. Without ``fcntl`` (Windows) each compiles."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    with open(path.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _compile_file(path: str) -> None:
    """Compile the kernel module at ``path`` (in a child process: see
    :func:`_compile_apart`) into numba's cache, as a plan compiles it, then say so
    beside it (:func:`_cached_mark`)."""
    module = _load(Path(path).read_text(), Path(path))
    for name, kinds in _ENTRIES.items():
        _entry(getattr(module, name), *kinds)
    _cached_mark(Path(path)).touch()


def _cached_mark(path: Path) -> Path:
    """The file that says the kernel module at ``path`` is in numba's cache for this
    Python."""
    return path.with_suffix(f".compiled-py{sys.version_info[0]}{sys.version_info[1]}")


def _load(source: str, path: Path | None = None) -> types.ModuleType:
    """The kernel module ``source`` (imported once per process), from its file
    (``path`` when it is written already)."""
    digest = _digest(source)
    name = f"boardlab.kernels.k{digest}"
    module = sys.modules.get(name)
    if module is not None:
        return module
    path = path or _module_file(source)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    from boardlab import compiled as announce

    announce.watch()
    spec.loader.exec_module(module)
    sys.modules[name] = module
    return module
