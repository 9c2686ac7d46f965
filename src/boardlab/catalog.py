"""Every game boardlab can make, by what names it: :func:`resolve`, the one way the CLI
and the web app make a game -- a registered game (:mod:`boardlab.core.registry`) or a ZRF
rule file (:mod:`boardlab.zrf`), with options as the command line or JSON write them.

It stands above the game sources (the registry's games and the rule files' reader) and
below the front ends that name games (the CLI, the web app).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from boardlab.core.engine import Engine
from boardlab.core.game import Game
from boardlab.core.registry import game_class
from boardlab.errors import BoardlabError, OptionError

__all__ = ["is_rule_file", "resolve"]


def is_rule_file(ref: str | os.PathLike[str]) -> bool:
    """Whether ``ref`` names a rule file (a ``.zrf`` name or a path) rather than a
    registered game.

    >>> is_rule_file("chess"), is_rule_file("games/chess.zrf"), is_rule_file("CHESS.ZRF")
    (False, True, True)
    """
    text = os.fspath(ref)
    return not isinstance(ref, str) or text.lower().endswith(".zrf") or "/" in text \
        or "\\" in text


def resolve(ref: Any, options: Mapping[str, Any] | None = None, *,
            variant: int | str | None = None, engine: Engine | str | None = None,
            background: bool = False) -> Game:
    """The game ``ref`` names, made with ``options``: the one way the CLI and the web app
    make a game.

    ``ref`` is a registered name (or a game's class), a ZRF rule file (a path, and its
    ``variant``: number or title) or a rule file already read
    (:class:`~boardlab.zrf.game.ZrfRules`, as the web app keeps them; a server never
    reads a path its clients name). ``options`` are taken as the command line or JSON give them: a
    text is read by its option, an integer is taken for a float option, ``-`` may stand
    for ``_`` in a key; a key the game does not have goes through, for the game to name
    with the options it has. ``engine`` plays a game of the move language (see
    :mod:`boardlab.core.engine`; for a game written in Python it is an error); without
    one, such a game is made on :meth:`Engine.default`, with ``background`` as the web
    server makes its games (a rule set's first game does not wait for its kernel).

    A value the game trips over is an :class:`~boardlab.errors.OptionError` naming the
    game, never a crash.

    >>> resolve("abalone", {"max-moves": "50"}).options["max_moves"]
    50
    >>> resolve("quantum-tic-tac-toe", engine="kernel")
    Traceback (most recent call last):
    ...
    boardlab.errors.OptionError: an engine applies to games of the move language; \
quantum-tic-tac-toe is written in Python
    """
    cls, made_with, shown = _made_from(ref, variant)
    schema = {o.name: o for o in cls.option_schema}
    values: dict[str, Any] = {}
    for key, value in (options or {}).items():
        if key not in schema and isinstance(key, str) and key.replace("-", "_") in schema:
            key = key.replace("-", "_")
        option = schema.get(key)
        if option is not None and option.type is float and type(value) is int:
            value = float(value)
        values[key] = value
    if "engine" in values and "engine" not in schema:
        raise OptionError(f"{shown}: the engine is chosen apart from the options "
                          f"(options: {', '.join(schema) or 'none'})")
    if cls.takes_engine:
        if engine is not None or background:
            values["engine"] = Engine.named(engine) if engine is not None \
                else Engine.default(background=True)
    elif engine is not None:
        raise OptionError(f"an engine applies to games of the move language; {shown} is "
                          "written in Python")
    try:
        return cls(*made_with, **values)
    except BoardlabError:
        raise
    except (ValueError, TypeError, KeyError, IndexError) as e:
        raise OptionError(f"{shown}: bad options: {e}") from None


def _made_from(ref: Any, variant: int | str | None
               ) -> tuple[type[Game], tuple[Any, ...], str]:
    """The class of the game ``ref`` names, what it is made with before its options, and
    the name to show in messages."""
    if isinstance(ref, type) and issubclass(ref, Game) or \
            isinstance(ref, str) and not is_rule_file(ref):
        if variant is not None:
            raise OptionError("a variant applies to ZRF rule files only")
        cls = game_class(ref) if isinstance(ref, str) else ref
        return cls, (), cls.name
    # The reader of rule files loads for one only (the CLI's commands on a registered
    # game start without it).
    from boardlab.zrf.game import ZrfGame, ZrfRules, read

    if isinstance(ref, ZrfRules):
        if variant is not None:
            raise OptionError("a rule file already read is one variant; give no other")
        lowered = ref
    elif isinstance(ref, str | os.PathLike):
        lowered = read(ref, variant)
    else:
        raise OptionError(f"{ref!r} names no game: give a game's name or a rule file")
    shown = lowered.read_from[2] if lowered.read_from else lowered.ruleset.name
    return ZrfGame, (lowered,), shown
