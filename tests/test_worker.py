"""The child process of :mod:`boardlab.worker`: its bound on memory is the operating
system's (a block larger than the bound is refused, a smaller one is not), a job that
runs past its time or kills its child is reported and the next job gets a new child,
and what the child prints or a Ctrl-C sent to it does not disturb the answers.

The child runs a small module of the test's own (``eater``), put on the path the worker
hands its children."""

from __future__ import annotations

import os
import signal
import sys

import pytest

from boardlab.errors import WorkerError
from boardlab.worker import Worker

EATER = '''
import os
import sys
import time

from boardlab.worker import serve


def handle(job, send):
    kind, n = job
    if kind == "eat":
        try:
            block = bytearray(n)
        except MemoryError:
            send("refused", n)
        else:
            send("ate", len(block))
    elif kind == "sleep":
        send("sleeping")
        time.sleep(n)
    elif kind == "phase":
        send("slow phase")
        time.sleep(n)
        send("fast phase")
    elif kind == "exit":
        sys.stderr.write("giving up\\n" + "x" * 5000 + "\\n" + "the last words\\n")
        sys.stderr.flush()
        os._exit(n)
    elif kind == "signal":
        os.kill(os.getpid(), n)
    elif kind == "print":
        print("noise on the standard output", n)
        send("printed", os.getpid())
    return kind == "retire"


if __name__ == "__main__":
    serve(handle)
'''

MB = 1024 ** 2


@pytest.fixture()
def worker(tmp_path, monkeypatch):
    (tmp_path / "eater.py").write_text(EATER)
    monkeypatch.syspath_prepend(str(tmp_path))
    with Worker("eater", memory_bytes=512 * MB) as w:
        yield w


@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="RLIMIT_AS bounds the address space only on Linux")
def test_the_memory_bound_is_the_childs(worker):
    assert worker.run(["eat", 64 * MB], 30).messages == [["ate", 64 * MB]]
    assert worker.run(["eat", 600 * MB], 30).messages == [["refused", 600 * MB]]
    # The parent is not bound: it can hold what the child could not.
    assert len(bytearray(600 * MB)) == 600 * MB
    assert worker.starts == 1


def test_a_job_past_its_time_is_stopped_and_the_next_gets_a_new_child(worker):
    run = worker.run(["sleep", 60], 1.0)
    assert run.timed_out and not run.done and run.messages == [["sleeping"]]
    assert worker.run(["eat", 10], 30).messages == [["ate", 10]]
    assert worker.starts == 2


def test_a_phase_may_have_a_time_of_its_own(worker):
    assert worker.run(["phase", 1.5], 0.5).timed_out

    def pace(message):
        return {"slow phase": 10.0, "fast phase": 0.5}.get(message[0])

    run = worker.run(["phase", 1.5], 0.5, pace)
    assert run.done and run.messages == [["slow phase"], ["fast phase"]]


def test_a_child_that_dies_says_how(worker):
    run = worker.run(["exit", 3], 30)
    assert run.death == "exited with status 3: the last words"
    run = worker.run(["signal", int(signal.SIGSEGV)], 30)
    assert run.death is not None and run.death.startswith("killed by SIGSEGV")
    assert worker.run(["eat", 10], 30).done
    assert worker.starts == 3


def test_printing_ctrl_c_and_retiring(worker):
    run = worker.run(["print", 1], 30)
    assert run.done and run.messages[0][0] == "printed"
    pid = run.messages[0][1]
    if hasattr(signal, "SIGINT"):
        os.kill(pid, signal.SIGINT)  # what a terminal sends the whole process group
    assert worker.run(["print", 2], 30).messages == [["printed", pid]]
    assert worker.run(["retire", 0], 30).done
    assert worker.run(["print", 3], 30).messages[0][1] != pid
    assert worker.starts == 2


def test_a_closed_worker_refuses_jobs(worker):
    worker.close()
    with pytest.raises(WorkerError, match="closed"):
        worker.run(["eat", 10], 30)


def test_a_module_that_does_not_start_is_one_error(tmp_path, monkeypatch):
    (tmp_path / "broken.py").write_text("raise SystemExit('no such luck')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with Worker("broken") as w, pytest.raises(WorkerError) as e:
        w.run(["eat", 10], 30)
    assert str(e.value) == "broken did not start (exited with status 1: no such luck)"
