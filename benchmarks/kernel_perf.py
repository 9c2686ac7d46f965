"""Where a game kernel's random playouts spend their time, by perf.

numba loads a cached kernel's machine code into memory without symbols, so ``perf
report`` shows its samples as bare addresses. This script loads a game's kernel, then
writes ``/tmp/perf-PID.map`` (perf's map of code made at run time: a start, a size and a
name a line) from numba's own cache: each cached function's object code is an ELF
file, whose symbol table (``nm``, from binutils) gives every function's offset and
size, placed in memory by the address numba's engine gives for one exported symbol of
it. The kernel's functions a playout calls (generate, the chain search, make...) then
appear by name. Then it plays random playouts (``State.playouts``) for ``--seconds`` of
CPU and prints their rate.

Usage::

    perf record -F 2000 -o /tmp/perf.data python benchmarks/kernel_perf.py GAME [--seconds 6]
    perf report -i /tmp/perf.data --no-children --sort symbol

``GAME`` is a registered game or a ``.zrf`` file. The report's other entries are the
interpreter's start-up (imports, the kernel's load). Functions numba inlined are
counted in their callers.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import subprocess
import tempfile
import time
from typing import Any

#: A kernel function's name in its mangled symbol (the module's hash, then the name).
_NAME = re.compile(r"k[0-9a-f]{20}\d+([A-Za-z_][A-Za-z_0-9]*?)B\d")


def _objects(value: Any, out: list[bytes]) -> None:
    """The ELF object files anywhere in a cache entry's data."""
    if isinstance(value, bytes | bytearray) and value[:4] == b"\x7fELF":
        out.append(bytes(value))
    elif isinstance(value, tuple | list):
        for item in value:
            _objects(item, out)
    elif isinstance(value, dict):
        for item in value.values():
            _objects(item, out)


def _symbols(obj: bytes) -> list[tuple[int, int, str]]:
    """The functions of an object file: offset, size and symbol."""
    with tempfile.NamedTemporaryFile(suffix=".o", delete=False) as f:
        f.write(obj)
    try:
        listing = subprocess.run(["nm", "-S", "--defined-only", f.name], capture_output=True,
                                 text=True, check=True).stdout
    finally:
        os.unlink(f.name)
    found = []
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW":
            found.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
    return found


def write_map() -> int:
    """Write this process's perf map of every cached numba function loaded; the
    number of functions mapped."""
    from numba.core.registry import CPUDispatcher

    rows = set()
    for dispatcher in [o for o in gc.get_objects() if isinstance(o, CPUDispatcher)]:
        cache = getattr(dispatcher._cache, "_cache_file", None)
        if not dispatcher.overloads or cache is None:
            continue
        engine = next(iter(dispatcher.overloads.values())).library._codegen._engine
        for data_name in cache._load_index().values():
            objects: list[bytes] = []
            _objects(cache._load_data(data_name), objects)
            for obj in objects:
                symbols = _symbols(obj)
                # One symbol the engine exports places the whole object (weak runtime
                # helpers are shared by every object, so they place none).
                base = next((address - offset for offset, _, name in symbols
                             if not name.startswith("NRT_")
                             and (address := engine.get_function_address(name))), None)
                if base is None:
                    continue
                for offset, size, name in symbols:
                    found = _NAME.search(name)
                    rows.add((base + offset, size, found[1] if found else name[:60]))
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for address, size, name in sorted(rows):
            out.write(f"{address:x} {size:x} {name}\n")
    return len(rows)


def main() -> None:
    """Load the game, map its kernel, play random playouts for the time asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a registered game or a .zrf file")
    parser.add_argument("--seconds", type=float, default=6.0,
                        help="CPU seconds of random playouts")
    args = parser.parse_args()
    from boardlab.catalog import resolve

    state = resolve(args.game).initial_state()
    state.playouts(10, seed=0)  # loads (or compiles) the kernel and its playouts
    print(f"{write_map()} functions mapped in /tmp/perf-{os.getpid()}.map")
    started, played = time.process_time(), 0
    while time.process_time() - started < args.seconds:
        state.playouts(1000, seed=played)
        played += 1000
    print(f"{played / (time.process_time() - started):,.0f} random playouts a CPU-second")


if __name__ == "__main__":
    main()
