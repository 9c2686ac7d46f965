"""numba compiles are announced, once per module, and never for a cache hit; cached
kernels load without numba's compiler set-up."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numba

import boardlab
from boardlab import compiled
from boardlab.puzzles.polyomino import solver


def test_a_compiling_kernel_is_announced_once_per_module():
    messages: list[str] = []
    previous = compiled.set_announcer(messages.append)
    try:
        compiled.watch()

        def twice(x):
            return 2 * x

        # Only boardlab's own kernels are announced, not numba's helpers.
        twice.__module__ = "boardlab.tests_fake_kernels"
        kernel = numba.njit(twice)
        assert kernel(3) == 6 and kernel(4.5) == 9.0  # two compiles, one message

        def helper(x):
            return x + 1

        assert numba.njit(helper)(1) == 2  # a module outside boardlab: no message
    finally:
        compiled.set_announcer(previous)
    assert messages == [compiled.message("boardlab.tests_fake_kernels")]


def test_warm_up_compiles_every_solver_kernel():
    solver.warm_up()
    for kernel in (solver._search_word, solver._search_words, solver._batch_word,
                   solver._count_fields, solver._pack_counts):
        assert kernel.signatures, kernel.py_func.__name__


# A process that loads one cached kernel of a module named inside boardlab and says its
# value and whether numba's lowering registries (NumPy's among them) were imported.
LOADER = """
import importlib.util, sys
from boardlab import compiled
compiled.watch()
spec = importlib.util.spec_from_file_location("boardlab.tests_light_kernel", sys.argv[1])
module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print(module.twice(21), "numba.np.arraymath" in sys.modules)
"""


def test_a_cached_kernel_loads_without_numba_s_compiler_set_up(tmp_path):
    path = tmp_path / "light_kernel.py"
    path.write_text("from numba import njit\n\n\n@njit(cache=True)\ndef twice(x):\n"
                    "    return 2 * x\n")
    source = str(Path(boardlab.__file__).parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [source, *filter(None, [os.environ.get("PYTHONPATH")])])}
    env.pop("NUMBA_CACHE_DIR", None)  # the cache beside the module, in tmp_path

    def run() -> str:
        done = subprocess.run([sys.executable, "-c", LOADER, str(path)], env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert run() == "42 True"  # compiled: the compiler sets everything up
    assert run() == "42 False"  # loaded from the cache, the light way
