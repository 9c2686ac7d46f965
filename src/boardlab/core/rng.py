"""The random numbers of the compiled playouts (the game kernels' and the hand-written
fast games'): SplitMix64 (Steele, Lea and Flood,
"Fast splittable pseudorandom number generators", OOPSLA 2014; the public-domain C
by Vigna at prng.di.unimi.it).

The generator's whole state is one 64-bit integer that the kernels thread through
their loops, so a playout is a pure function of its seed and needs no global state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
# numba types ``uint64 >> int`` as float, so every shift count is a uint64 too
S27, S30, S31, S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)


@njit(cache=True)
def next_below(state: np.uint64, n: int) -> tuple[int, np.uint64]:
    """A uniform integer in ``[0, n)`` (``1 <= n < 2**32``) and the next state.

    The high 32 bits of the output are scaled by multiplication (Lemire's method
    without the rejection step); the bias is below ``n / 2**32``, far under what
    any test of ours could see.
    """
    state = state + GOLDEN
    z = state
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    z = z ^ (z >> S31)
    return np.int64(((z >> S32) * np.uint64(n)) >> S32), state
