"""Which backend plays a game's positions: the engine a game of the move language is
made with.

A :class:`~boardlab.core.position.PieceGame` is made with an :class:`Engine`
(``load("breakthrough", engine="interpreter")``, or ``game.using(Engine.INTERPRETER)``
for the same game on another engine). The choice goes with the game: its positions,
the games another process builds from its :meth:`~boardlab.core.game.Game.recipe`
(a bot's workers, the web server's bot pool) and every copy made with
:meth:`~boardlab.core.position.PieceGame.using` keep it; nothing else switches it.

- :attr:`Engine.KERNEL` (the default): positions are played by the game's compiled
  kernel (:mod:`boardlab.core.kernel`), compiled when the game's first position is
  made (numba's cache keeps it for later processes); a game the kernel does not run
  (:func:`boardlab.core.kernel.plan.why_not` says why) plays on the interpreter.
- :attr:`Engine.BACKGROUND`: the same kernel, but a game whose kernel this process has
  not compiled yet plays on the interpreter while a thread compiles it (numba takes
  seconds to minutes): a server's first game of a rule set does not wait for it; the
  positions of that rule set made after it is compiled play on the kernel.
- :attr:`Engine.INTERPRETER`: positions are played by the interpreter
  (:mod:`boardlab.core.interpret`), the reference every kernel is compared with move for
  move; it needs no compiler and starts at once.

``BOARDLAB_KERNELS=0`` in the environment makes :attr:`Engine.INTERPRETER` the default
(for a machine without a working numba, or to compare figures).
"""

from __future__ import annotations

import os
from enum import Enum

from boardlab.errors import OptionError


class Engine(Enum):
    """The backend that plays a game's positions (see the module docstring)."""

    KERNEL = "kernel"
    BACKGROUND = "background"
    INTERPRETER = "interpreter"

    @property
    def compiled(self) -> bool:
        """Whether positions are played by a compiled kernel where the game has one."""
        return self is not Engine.INTERPRETER

    @classmethod
    def default(cls, *, background: bool = False) -> Engine:
        """The engine of a game made without one: :attr:`KERNEL` (:attr:`BACKGROUND`
        with ``background``, as the web server makes its games), or
        :attr:`INTERPRETER` when ``BOARDLAB_KERNELS`` is ``0`` or empty.

        >>> Engine.default() in (Engine.KERNEL, Engine.INTERPRETER)
        True
        """
        if os.environ.get("BOARDLAB_KERNELS", "1") in ("0", ""):
            return cls.INTERPRETER
        return cls.BACKGROUND if background else cls.KERNEL

    @classmethod
    def named(cls, value: Engine | str | None) -> Engine:
        """The engine ``value`` names (an :class:`Engine`, its value such as
        ``"interpreter"``, or None for :meth:`default`).

        >>> Engine.named("interpreter")
        <Engine.INTERPRETER: 'interpreter'>
        """
        if value is None:
            return cls.default()
        if isinstance(value, Engine):
            return value
        try:
            return cls(value)
        except ValueError:
            known = ", ".join(e.value for e in cls)
            raise OptionError(f"unknown engine {value!r} (engines: {known})") from None
