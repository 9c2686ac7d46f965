"""numba kernels: compiled on first use, cached on disk, and never compiled silently.

The hot loops of boardlab (the polyomino solver, the pipe counter, the games' fast
playouts and the quantum solver) are numba functions compiled with ``cache=True``: the
first run on a machine compiles them (seconds to a minute on a busy machine), later runs
load the machine code from ``__pycache__`` (or ``$NUMBA_CACHE_DIR``). Every kernel module
calls :func:`watch`, which listens to numba's compile events; the first time a module's
kernels really compile (not when they load from the cache), the announcer set with
:func:`set_announcer` is told, once per module. The command line prints it on a terminal;
without an announcer the message goes to the ``boardlab`` logger.

Loading a cached kernel is cheap, but numba prepares for it as for a compilation: its
first cache load imports every lowering registry numba has (NumPy's linear algebra
through SciPy, typed containers, random generators...) and compiles its runtime's
helpers with LLVM, 0.7 s of CPU and 50 MB here, where reading and linking the machine
code of a kernel takes milliseconds (``benchmarks/kernel_startup.py``). :func:`watch`
therefore also makes boardlab's kernels load from the cache without that set-up; a
kernel that really compiles still gets numba's whole set-up, from the compiler itself.

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


def announce(module: str) -> None:
    """Say (once per module) that the kernels of ``module`` start compiling, here or in
    a child process this one waits for."""
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
    """Listen to numba's compile events and load boardlab's kernels from the cache
    without numba's compiler set-up (idempotent); kernel modules call it at import."""
    global _listening
    with _lock:
        if _listening:
            return
        _listening = True
    _load_lightly()
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, compile_event: Any) -> None:
            dispatcher = (compile_event.data or {}).get("dispatcher")
            module = getattr(getattr(dispatcher, "py_func", None), "__module__", None) or ""
            # numba compiles its own helpers inside ours: only boardlab's are news.
            if module.startswith("boardlab."):
                announce(module)

        def on_end(self, compile_event: Any) -> None:
            return None

    event.register("numba:compile", Listener())


def _load_lightly() -> None:
    """Make numba load the cached machine code of boardlab's kernels without first
    setting up its compiler (see the module's docstring).

    numba's ``Cache.load_overload`` refreshes the target context before it reads the
    cache: that loads every lowering registry and initialises the runtime (NRT), whose
    LLVM helpers it compiles. A cached kernel needs neither: its object code already
    holds the runtime helpers it calls (numba links them into every library it
    compiles), only the runtime's C functions must be known to the linker (under the
    names ``rtsys.initialize`` gives them), and what else it needs at run time (the
    modules of its constants, the set-up to re-run, such as the string hash's secret)
    is recorded in the cache entry, which numba imports and runs as it reads it. Other
    modules' functions keep numba's path, and so does a kernel the cache does not have:
    the compiler refreshes the contexts itself. numba is pinned (pyproject.toml); should
    these names move, kernels load numba's way.
    """
    try:
        import llvmlite.binding as ll
        from numba.core import caching
        from numba.core.runtime import _nrt_python as nrt
        from numba.core.runtime.nrt import rtsys

        cache_class = caching.Cache
        original = cache_class.load_overload
        read = cache_class._load_overload
        guard = cache_class._guard_against_spurious_io_errors
        helpers = dict(nrt.c_helpers)
    except (ImportError, AttributeError):  # pragma: no cover - another numba
        return
    symbols_known = False

    def load_overload(self: Any, sig: Any, target_context: Any) -> Any:
        nonlocal symbols_known
        module = getattr(self._py_func, "__module__", None) or ""
        if not module.startswith("boardlab."):
            return original(self, sig, target_context)
        # Under numba's compiler lock (dispatchers load under it): one thread at a time.
        if not symbols_known and not getattr(rtsys, "_init", False):
            for name, address in helpers.items():
                ll.add_symbol(name if name.startswith("_") else f"NRT_{name}", address)
        symbols_known = True
        with guard(self):
            return read(self, sig, target_context)

    cache_class.load_overload = load_overload
