"""The bot protocol and the registry of bot kinds.

A bot looks at a :class:`~boardlab.core.game.State` and picks one of its legal
moves; it never changes the state it is given. Every bot is generic over the game
protocol, so it plays every registered game. Bots are seedable: the same kind,
options and seed choose the same moves.

At a chance player's turn (:attr:`Game.chance_players
<boardlab.core.game.Game.chance_players>`, a die) there is nothing to decide: every bot
draws the move uniformly among the legal moves with its own seeded generator
(:func:`draw_move`), as drivers that move the chance seats themselves do.

Bot kinds register themselves under a name (``random``, ``alphabeta``, ``mcts``)
so that the CLI, the arena and the web app build them from text with
:func:`make_bot`:

>>> from boardlab import load
>>> state = load("tic-tac-toe").initial_state()
>>> make_bot("random", seed=1).choose(state) in state.legal_moves()
True
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from boardlab.core.game import State
from boardlab.core.move import Move
from boardlab.errors import BotError, OptionError

__all__ = ["Bot", "BotError", "chance_turn", "draw_move"]


@runtime_checkable
class Bot(Protocol):
    """What every bot offers: a name and a move choice."""

    name: str

    def choose(self, state: State) -> Move:
        """A legal move of the non-terminal ``state``; ``state`` is left unchanged."""
        ...


def prepare(bot: Bot, state: State) -> None:
    """Compile what ``bot`` will run to choose a move in ``state`` (a bot's optional
    ``prepare``: the MCTS bot's kernel search), so that a clock started after this
    counts thinking only (the web's bot pool: :mod:`boardlab.web.botpool`)."""
    method = getattr(bot, "prepare", None)
    if method is not None:
        method(state)


@dataclass(frozen=True)
class BotKind:
    """A registered kind of bot: its name, a one-line description and its factory."""

    name: str
    description: str
    factory: Callable[..., Bot]

    @property
    def options(self) -> tuple[str, ...]:
        """The keyword options the factory accepts."""
        parameters = inspect.signature(self.factory).parameters.values()
        return tuple(p.name for p in parameters if p.kind is p.KEYWORD_ONLY)


_KINDS: dict[str, BotKind] = {}


def register_bot(name: str, description: str) -> Callable[[Callable[..., Bot]], Callable[..., Bot]]:
    """Decorator registering a bot factory (usually the class) under ``name``.

    The factory takes keyword-only options among ``seed``, ``depth``, ``time``,
    ``iterations``, ``exploration`` and ``playout_depth``.
    """

    def decorate(factory: Callable[..., Bot]) -> Callable[..., Bot]:
        _KINDS[name] = BotKind(name, description, factory)
        return factory

    return decorate


def _discover() -> None:
    # The bot modules register their kinds on import; importing them here keeps
    # one list of kinds without a list kept by hand in every caller.
    import boardlab.ai.alphabeta  # noqa: F401
    import boardlab.ai.exact  # noqa: F401
    import boardlab.ai.mcts  # noqa: F401


def bot_names() -> list[str]:
    """Every registered bot kind, sorted."""
    _discover()
    return sorted(_KINDS)


def bot_kind(name: str) -> BotKind:
    """The bot kind registered under ``name``; :class:`BotError` if none."""
    _discover()
    try:
        return _KINDS[name]
    except KeyError:
        raise BotError(f"unknown bot {name!r}; known bots: {', '.join(sorted(_KINDS))}") from None


def make_bot(kind: str, **options: Any) -> Bot:
    """A new bot of ``kind``.

    Options the kind does not use (``depth`` for ``random``, say) and options set
    to ``None`` are ignored, so a caller can pass one set of options to every bot.

    >>> make_bot("alphabeta", depth=3, iterations=500).name
    'alphabeta(depth=3)'
    """
    entry = bot_kind(kind)
    accepted = entry.options
    return entry.factory(**{k: v for k, v in options.items()
                            if v is not None and k in accepted})


def check_positive(name: str, value: float | None) -> None:
    """Raise :class:`OptionError` unless ``value`` is ``None`` or positive."""
    if value is not None and not value > 0:
        raise OptionError(f"bot option {name!r} must be positive, got {value!r}")


def chance_turn(state: State) -> bool:
    """Whether a chance player is to move in the non-terminal ``state``."""
    return state.to_move in state.game.chance_players


def draw_move(state: State, rng: random.Random) -> Move:
    """A legal move of ``state`` drawn uniformly with ``rng`` (a chance player's move);
    :class:`BotError` if the game is over."""
    moves = state.legal_moves()
    if not moves:
        raise BotError("no legal move: the game is over")
    return moves[rng.randrange(len(moves))]


@register_bot("random", "uniformly random legal moves")
class RandomBot:
    """Plays a uniformly random legal move (a chance player's move too)."""

    def __init__(self, *, seed: int | None = None):
        self.seed = seed
        self.rng = random.Random(seed)
        self.name = "random"

    def choose(self, state: State) -> Move:
        """A uniformly random legal move."""
        return draw_move(state, self.rng)
