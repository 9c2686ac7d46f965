"""The one registry of games: kebab-case name -> :class:`Game` subclass.

Game modules register themselves with :func:`register`; the registry imports every
module of :mod:`boardlab.games` on first use, so the CLI, the bots, the web app and
the tests discover games without lists kept by hand (the front ends make them with
:func:`boardlab.catalog.resolve`, rule files too).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import threading
from typing import Any

from boardlab.core.game import Game
from boardlab.errors import BoardlabError, UnknownGameError

_GAMES: dict[str, type[Game]] = {}
_DISCOVERED = False
_DISCOVERING = threading.RLock()
_NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def register(cls: type[Game]) -> type[Game]:
    """Class decorator registering a game under ``cls.name``."""
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not _NAME.match(name):
        raise BoardlabError(f"{cls.__qualname__}: game name {name!r} is not kebab-case")
    if not getattr(cls, "description", "").strip():
        raise BoardlabError(f"{name}: a registered game needs a one-line description")
    other = _GAMES.get(name)
    if other is not None and other.__qualname__ != cls.__qualname__:
        raise BoardlabError(f"game name {name!r} registered twice "
                            f"({other.__module__} and {cls.__module__})")
    _GAMES[name] = cls
    return cls


def _discover() -> None:
    # Done once under a lock, and marked done only when every module is in: threads
    # that ask at once (a server's first requests) all wait for the whole registry,
    # and a module that fails to import is tried again, not left out for good.
    global _DISCOVERED
    if _DISCOVERED:
        return
    with _DISCOVERING:
        if _DISCOVERED:
            return
        import boardlab.games as package

        for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            importlib.import_module(info.name)
        _DISCOVERED = True


def names() -> list[str]:
    """Every registered game name, sorted."""
    _discover()
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    """The class registered under ``name``; :class:`UnknownGameError` if none."""
    _discover()
    try:
        return _GAMES[name]
    except KeyError:
        raise UnknownGameError(name, sorted(_GAMES)) from None


def load(name: str, **options: Any) -> Game:
    """The game ``name`` with the given options (a game of the move language takes its
    ``engine`` here too; :func:`boardlab.catalog.resolve` reads options as the command
    line and JSON write them, and rule files).

    >>> load("connect-four", rows=6).options["rows"]
    6
    """
    return game_class(name)(**options)
