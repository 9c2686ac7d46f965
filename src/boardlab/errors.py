"""Specific exceptions of boardlab, each carrying where the problem is.

The CLI turns every :class:`BoardlabError` into one clear line and exit status 2;
anything else escaping is a bug.
"""

from __future__ import annotations


class BoardlabError(Exception):
    """Base class of every error boardlab reports to a user."""


class UnknownGameError(BoardlabError, KeyError):
    """No game is registered under the requested name."""

    def __init__(self, name: str, known: list[str]):
        self.name = name
        self.known = known
        super().__init__(f"unknown game {name!r}; known games: {', '.join(known)}")

    def __str__(self) -> str:  # KeyError would quote the whole message
        return self.args[0]


class OptionError(BoardlabError, ValueError):
    """A game option is unknown or its value is invalid."""


class NotationError(BoardlabError, ValueError):
    """A move or position text cannot be parsed.

    ``where`` names the offending text (a move, a line, a cell).
    """

    def __init__(self, message: str, where: str | None = None):
        self.where = where
        super().__init__(message if where is None else f"{where}: {message}")


class IllegalMoveError(BoardlabError, ValueError):
    """A well-formed move that is not legal in the position.

    ``index`` is the 1-based position of the move in a sequence, when known.
    """

    def __init__(self, move: str, reason: str = "not legal in this position",
                 index: int | None = None):
        self.move = move
        self.reason = reason
        self.index = index
        at = f" (move {index})" if index is not None else ""
        super().__init__(f"illegal move {move!r}{at}: {reason}")


class BoardError(BoardlabError, ValueError):
    """A board definition is inconsistent (unknown cell, duplicate name, bad link)."""


class RulesError(BoardlabError, RuntimeError):
    """A game's rules cannot produce a position's moves within the engine's bounds (a
    rule file whose partial moves grow into more chains than any game needs)."""


class BotError(BoardlabError, ValueError):
    """No bot kind is registered under a name, or a bot cannot move."""


class PuzzleError(BoardlabError, ValueError):
    """A puzzle, level or piece file is malformed or inconsistent."""


class RunnerError(BoardlabError, RuntimeError):
    """A batch of tasks cannot run: a task failed, or a checkpoint does not fit the run.

    ``task_id`` names the failed task and ``path`` the checkpoint file, when known.
    """

    def __init__(self, message: str, *, task_id: str | None = None,
                 path: str | None = None):
        self.task_id = task_id
        self.path = path
        super().__init__(message)


class StoreError(BoardlabError, RuntimeError):
    """A database cannot be opened or used, or refuses a change (a duplicate level name,
    an unknown level).

    ``url`` is the database URL with any password masked, when known.
    """

    def __init__(self, message: str, *, url: str | None = None):
        self.url = url
        super().__init__(message)


class WorkerError(BoardlabError, RuntimeError):
    """A child process that works on untrusted input (:mod:`boardlab.worker`) cannot be
    started or used; the message names its module and what went wrong."""


class FileError(BoardlabError):
    """A file named by the user cannot be read or written: missing, a directory, not
    UTF-8, too large, or not writable. ``path`` names it."""

    def __init__(self, message: str, *, path: str | None = None):
        self.path = path
        super().__init__(message)


class ZrfError(BoardlabError, ValueError):
    """A rule file (ZRF) cannot be read or uses a construct boardlab does not support.

    ``file``, ``line`` and ``column`` (1-based) say where; the message starts with them.
    """

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 column: int | None = None):
        self.file, self.line, self.column = file, line, column
        where = ":".join(str(part) for part in (file, line, column) if part is not None)
        super().__init__(f"{where}: {message}" if where else message)
