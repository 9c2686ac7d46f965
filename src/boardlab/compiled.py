"""numba kernels: compiled on first use, cached on disk, and never compiled silently.

The hot loops of boardlab (the polyomino solver, the pipe counter, the games' fast
playouts and the quantum solver) are numba functions compiled with ``cache=True``: the
first run on a machine compiles them (seconds to a minute on a busy machine), later runs
load the machine code from ``__pycache__`` (or ``$NUMBA_CACHE_DIR``). Every kernel module
calls :func:`watch`, which listens to numba's compile events; the first time a module's
kernels really compile (not when they load from the cache), the announcer set with
:func:`set_announcer` is told, once per module. The command line prints it on a terminal;
without an announcer the message goes to the ``boardlab`` logger.

This module imports numba only inside :func:`watch`, which kernel modules call after
importing numba themselves, so importing it costs nothing.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

Announcer = Callable[[str], None]

_log = logging.getLogger("boardlab")
_lock = threading.Lock()
_announcer: Announcer | None = None
_listening = False
_announced: set[str] = set()


def set_announcer(announcer: Announcer | None) -> Announcer | None:
    """Send compile messages to ``announcer`` (``None``: to the ``boardlab`` logger);
    returns the previous one."""
    global _announcer
    previous, _announcer = _announcer, announcer
    return previous


def message(module: str) -> str:
    """What is said when the kernels of ``module`` start compiling."""
    return (f"compiling the numba kernels of {module} (first run on this machine; "
            "later runs load them from the cache)...")


def _compiling(module: str) -> None:
    with _lock:
        if module in _announced:
            return
        _announced.add(module)
    text = message(module)
    if _announcer is None:
        _log.info(text)
    else:
        _announcer(text)


def watch() -> None:
    """Listen to numba's compile events (idempotent); kernel modules call it at import."""
    global _listening
    with _lock:
        if _listening:
            return
        _listening = True
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, compile_event: Any) -> None:
            dispatcher = (compile_event.data or {}).get("dispatcher")
            module = getattr(getattr(dispatcher, "py_func", None), "__module__", None) or ""
            # numba compiles its own helpers inside ours: only boardlab's are news.
            if module.startswith("boardlab."):
                _compiling(module)

        def on_end(self, compile_event: Any) -> None:
            return None

    event.register("numba:compile", Listener())
