"""Pipe puzzle levels and every one of their solution codes, in the database.

The quest workflow of :doc:`/pipes`: an organiser imports a level together
with all its solutions; players type the letters along their pipe; :func:`check_code` says
whether that code is the code of some solution.

This module knows nothing of the pipe model: callers pass the level's text (stored as is,
so :func:`export_level` gives back exactly what was imported) and an iterable of
``(path, code)`` pairs, where ``path`` is the path in the notation of :doc:`/pipes`
(``|0-1|1-1|...|9-9|``) and ``code`` the letters.

Levels are found by id or by name (``id_or_name``): an ``int`` is an id; a string is
first looked up as a name and, when no level has that name and it is all digits, as an id.

Codes are compared exactly, **case-sensitively**, after removing every space (and other
whitespace) from the typed code: a level may use ``a`` and ``A`` as different letters, so
folding case could accept a wrong answer. Codes are stored as the caller gives them.

>>> from boardlab.store.db import open_store
>>> store = open_store("sqlite://")
>>> text = "LA LB\\nLC LD\\n"
>>> level_id = add_level(store, "square", text, [("|0-1|1-1|1-2|2-2|3-2|", "ABD")])
>>> check_code(store, "square", "A B D"), check_code(store, level_id, "abd")
(True, False)
>>> export_level(store, "square") == text
True
>>> [(c.ordinal, c.code) for c in codes(store, "square")]
[(1, 'ABD')]
>>> store.close()
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import islice

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    exists,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from boardlab.errors import StoreError
from boardlab.store.db import Base, Store

#: Codes are inserted this many at a time, so the solutions are never all in memory.
BATCH_SIZE = 10_000
NAME_LENGTH = 200


class PipeLevel(Base):
    """A row of ``pipe_levels``: one imported level."""

    __tablename__ = "pipe_levels"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH), unique=True)
    rows: Mapped[int]
    cols: Mapped[int]
    text: Mapped[str] = mapped_column(Text)
    solution_count: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PipeCode(Base):
    """A row of ``pipe_codes``: solution number ``ordinal`` (1-based, in the order the
    solutions were given) of a level, its path and its code."""

    __tablename__ = "pipe_codes"
    __table_args__ = (Index("ix_pipe_codes_level_code", "level_id", "code"),)

    level_id: Mapped[int] = mapped_column(
        ForeignKey("pipe_levels.id", ondelete="CASCADE"), primary_key=True)
    ordinal: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    code: Mapped[str] = mapped_column(Text)
    path: Mapped[str] = mapped_column(Text)


@dataclass(frozen=True)
class StoredLevel:
    """A level as stored: its id, name, size, text, number of solutions and creation
    time (UTC)."""

    id: int
    name: str
    rows: int
    cols: int
    text: str
    solution_count: int
    created_at: datetime

    def to_json(self) -> dict[str, object]:
        """The level's summary as JSON (without the text)."""
        return {"id": self.id, "name": self.name, "rows": self.rows, "cols": self.cols,
                "solution_count": self.solution_count,
                "created_at": self.created_at.isoformat()}


@dataclass(frozen=True)
class StoredCode:
    """One solution of a level: its 1-based number, path and code."""

    ordinal: int
    path: str
    code: str


def grid_size(text: str) -> tuple[int, int]:
    """Rows and columns of a level text in the format of :doc:`/pipes`: grid lines are the lines
    that are not blank, not comments (``#``) and not headers (``tap:``, ``drain:``);
    the columns are the cells of the widest line.

    >>> grid_size("# demo\\ntap: 1 1 top\\nLA IB\\nLC .\\nIE LF\\n")
    (3, 2)
    """
    lines = [line.split() for line in text.splitlines()]
    grid = [cells for cells in lines
            if cells and not cells[0].startswith("#") and not cells[0].endswith(":")]
    return len(grid), max((len(cells) for cells in grid), default=0)


def normalise_code(code: str) -> str:
    """A typed code without its spaces (case is kept: codes are case-sensitive).

    >>> normalise_code(" AKEZ fdmi\\t")
    'AKEZfdmi'
    """
    return "".join(code.split())


def _is_id(text: str) -> bool:
    """Whether ``text`` reads as a level id (ASCII digits, spaces around allowed)."""
    text = text.strip()
    return text.isascii() and text.isdigit()


def _level_row(session: Session, store: Store, id_or_name: int | str) -> PipeLevel:
    # A number is always an id: names cannot be numbers (see add_level), so neither can
    # shadow the other.
    if isinstance(id_or_name, str) and not _is_id(id_or_name):
        row = session.scalars(select(PipeLevel).where(PipeLevel.name == id_or_name)).first()
        if row is None:
            raise store.error(f"no pipe level named {id_or_name!r}")
        return row
    level_id = int(id_or_name)
    row = session.get(PipeLevel, level_id)
    if row is None:
        raise store.error(f"no pipe level {id_or_name!r}")
    return row


def _stored(row: PipeLevel) -> StoredLevel:
    created = row.created_at
    if created.tzinfo is None:      # SQLite keeps no time zone; we always store UTC
        created = created.replace(tzinfo=UTC)
    return StoredLevel(row.id, row.name, row.rows, row.cols, row.text, row.solution_count,
                       created)


def add_level(store: Store, name: str, text: str,
              solutions: Iterable[tuple[str, str]], *,
              rows: int | None = None, cols: int | None = None) -> int:
    """Store a level and all its solutions ``(path, code)``; return the level's id.

    Everything happens in one transaction: if the name is taken, the database fails or
    ``solutions`` raises, nothing is written (the iterator's own exception propagates).
    Solutions are consumed lazily and inserted :data:`BATCH_SIZE` at a time, so millions of
    them never need to be in memory. ``rows`` and ``cols`` default to :func:`grid_size`.
    """
    if not name or not name.strip():
        raise store.error("a pipe level needs a non-empty name")
    if len(name) > NAME_LENGTH:
        raise store.error(f"pipe level name longer than {NAME_LENGTH} characters")
    if _is_id(name):
        raise store.error(f"a pipe level name cannot be a number ({name!r} would read as a "
                          "level id)")
    if rows is None or cols is None:
        measured = grid_size(text)
        rows = measured[0] if rows is None else rows
        cols = measured[1] if cols is None else cols
    with store.session(write=True) as session:
        if session.scalar(select(exists().where(PipeLevel.name == name))):
            raise store.error(f"a pipe level named {name!r} already exists")
        level = PipeLevel(name=name, rows=rows, cols=cols, text=text,
                          created_at=datetime.now(UTC))
        session.add(level)
        try:
            session.flush()
        except IntegrityError:  # a concurrent import took the name in between
            raise store.error(f"a pipe level named {name!r} already exists") from None
        count = 0
        rows_iter = iter(solutions)
        table = PipeCode.__table__
        while batch := list(islice(rows_iter, BATCH_SIZE)):
            session.execute(insert(table), [
                {"level_id": level.id, "ordinal": count + i, "path": str(path),
                 "code": str(code)}
                for i, (path, code) in enumerate(batch, start=1)])
            count += len(batch)
        session.execute(update(PipeLevel).where(PipeLevel.id == level.id)
                        .values(solution_count=count))
        return level.id


def get_level(store: Store, id_or_name: int | str) -> StoredLevel:
    """The level with this id or name; :class:`StoreError` if there is none."""
    with store.session() as session:
        return _stored(_level_row(session, store, id_or_name))


def list_levels(store: Store) -> list[StoredLevel]:
    """Every stored level, by id."""
    with store.session() as session:
        return [_stored(row) for row in session.scalars(select(PipeLevel)
                                                        .order_by(PipeLevel.id))]


def export_level(store: Store, id_or_name: int | str) -> str:
    """The level's text exactly as it was imported."""
    return get_level(store, id_or_name).text


def check_code(store: Store, id_or_name: int | str, code: str) -> bool:
    """Whether ``code`` (spaces removed, case-sensitive) is the code of a solution of the
    level; :class:`StoreError` if the level does not exist."""
    typed = normalise_code(code)
    with store.session() as session:
        level = _level_row(session, store, id_or_name)
        return bool(session.scalar(select(exists().where(
            PipeCode.level_id == level.id, PipeCode.code == typed))))


def code_count(store: Store, id_or_name: int | str) -> int:
    """How many codes are stored for the level (its solution count, counted)."""
    with store.session() as session:
        level = _level_row(session, store, id_or_name)
        return session.scalar(select(func.count()).where(PipeCode.level_id == level.id)) or 0


def codes(store: Store, id_or_name: int | str) -> Iterator[StoredCode]:
    """The level's solutions in order, streamed from the database :data:`BATCH_SIZE` rows
    at a time. The level is looked up at once; the rows when iteration starts."""
    level_id = get_level(store, id_or_name).id
    return _codes(store, level_id)


def _codes(store: Store, level_id: int) -> Iterator[StoredCode]:
    with store.session() as session:
        result = session.execute(
            select(PipeCode.ordinal, PipeCode.path, PipeCode.code)
            .where(PipeCode.level_id == level_id).order_by(PipeCode.ordinal)
            .execution_options(yield_per=BATCH_SIZE))
        for ordinal, path, code in result:
            yield StoredCode(ordinal, path, code)


def remove_level(store: Store, id_or_name: int | str) -> None:
    """Delete a level and all its codes."""
    with store.session(write=True) as session:
        level = _level_row(session, store, id_or_name)
        session.execute(PipeCode.__table__.delete().where(PipeCode.level_id == level.id))
        session.delete(level)


__all__ = ["StoreError", "StoredCode", "StoredLevel", "add_level", "check_code", "code_count",
           "codes", "export_level", "get_level", "grid_size", "list_levels",
           "normalise_code", "remove_level"]
