"""Compiled (numba) fast paths behind the games' public API.

Each kernel works on a position encoded as bitboards and is called by its game's
state (the quantum tic-tac-toe solver), so callers never see it. The
modules here import numba, which takes a while; game modules import them lazily,
the first time a fast path is used, so ``import boardlab`` stays quick.

The functions are compiled with ``cache=True``: the machine code lands in
``__pycache__`` beside these files and later processes load it instead of
compiling again. Numba keys that cache on the calling module's own source only,
so after editing :mod:`boardlab.core.rng` also touch the kernel modules (or delete their cache).
"""

import importlib
from functools import cache
from types import ModuleType

from boardlab import compiled
from boardlab.core.game import DRAW, Returns, win_for

#: The kernels' result for a game that nobody wins; otherwise it is the winner's index.
NOBODY = 2
#: The returns of each kernel result, indexed by it.
RETURNS: tuple[Returns, ...] = (win_for(0), win_for(1), DRAW)


@cache
def kernel(name: str) -> ModuleType:
    """The kernel module ``boardlab.games.fast.<name>``, imported on first use."""
    module = importlib.import_module(f"{__name__}.{name}")
    compiled.watch()
    return module
