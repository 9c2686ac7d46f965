"""numba compiles are announced, once per module, and never for a cache hit."""

from __future__ import annotations

import numba

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
