"""The Triplex leaderboard in the database: every accepted solve of a level.

The seed article's server kept, for every level, who solved it first and how long players
took; the median solve time is the human difficulty that may re-order a pack later
(:doc:`/triplex`, "Difficulty and order"). One row per accepted solve is enough
for both: the first solver is the earliest row of a (pack, level), the statistics are over
all of its rows. A submission is verified before it gets here
(:mod:`boardlab.web.api_triplex`); this module only records and summarises.

Names are stored exactly as given (already trimmed and length-checked by the web layer);
whoever puts them into HTML must escape them.

>>> from boardlab.store.db import open_store
>>> store = open_store("sqlite://")
>>> add_solve(store, "ab12", 1, "Ada", 30.0).name
'Ada'
>>> _ = add_solve(store, "ab12", 1, "Bob", 50.0)
>>> board = level_board(store, "ab12", 1)
>>> board.first.name, board.solves, board.median_seconds
('Ada', 2, 40.0)
>>> level_board(store, "ab12", 2).first is None
True
>>> store.close()
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Boolean, DateTime, Float, Index, Integer, String, false, func, select
from sqlalchemy.orm import Mapped, mapped_column

from boardlab.store.db import Base, Store

#: A pack is named by its salt in hex; generated salts are 16 bytes (32 digits).
PACK_ID_LENGTH = 128
NAME_LENGTH = 40
TOKEN_LENGTH = 32
CLIENT_LENGTH = 32


class SolveRow(Base):
    """A row of ``triplex_solves``: one accepted solve of one level of one pack."""

    __tablename__ = "triplex_solves"
    __table_args__ = (Index("ix_triplex_solves_pack_level", "pack", "level", "id"),
                      Index("ix_triplex_solves_name", "pack", "name"),
                      Index("ix_triplex_solves_token", "token", unique=True))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    pack: Mapped[str] = mapped_column(String(PACK_ID_LENGTH))
    level: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    seconds: Mapped[float] = mapped_column(Float)
    solved_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: The nonce of the start token that timed this solve (None before revision 0004).
    token: Mapped[str | None] = mapped_column(String(TOKEN_LENGTH), nullable=True)
    #: Whether ``seconds`` was measured by the server (False: the client's figure).
    timed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: What the client said it took, kept as a trace only.
    client_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: An anonymised key of the client's address (see :mod:`boardlab.web.api_triplex`).
    client: Mapped[str | None] = mapped_column(String(CLIENT_LENGTH), nullable=True)
    #: Faster than the level's floor: listed, never first, never in the times.
    suspect: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


@dataclass(frozen=True)
class Solve:
    """One accepted solve: who, how many seconds it took and when (UTC)."""

    name: str
    seconds: float
    solved_at: datetime


@dataclass(frozen=True)
class LevelBoard:
    """A level's leaderboard: its first solver (or None), how many solves were accepted
    and their median time in seconds (None without solves)."""

    first: Solve | None
    solves: int
    median_seconds: float | None


def _utc(moment: datetime) -> datetime:
    # SQLite keeps no time zone; we always store UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def add_solve(store: Store, pack: str, level: int, name: str, seconds: float,
              solved_at: datetime | None = None) -> Solve:
    """Record an accepted solve (now, unless ``solved_at`` is given) and return it."""
    row = SolveRow(pack=pack, level=level, name=name, seconds=float(seconds),
                   solved_at=solved_at or datetime.now(UTC))
    with store.session(write=True) as session:
        session.add(row)
        session.flush()
        return Solve(row.name, row.seconds, _utc(row.solved_at))


def level_board(store: Store, pack: str, level: int) -> LevelBoard:
    """The first solver, the number of solves and the median time of one level."""
    where = (SolveRow.pack == pack, SolveRow.level == level)
    with store.session() as session:
        # The earliest row wins; ids break ties between equal timestamps.
        first = session.scalars(select(SolveRow).where(*where)
                                .order_by(SolveRow.id).limit(1)).first()
        if first is None:
            return LevelBoard(None, 0, None)
        count = session.scalar(select(func.count()).select_from(SolveRow).where(*where))
        times = list(session.scalars(select(SolveRow.seconds).where(*where)))
        return LevelBoard(Solve(first.name, first.seconds, _utc(first.solved_at)),
                          int(count or 0), float(statistics.median(times)))


__all__ = ["LevelBoard", "Solve", "SolveRow", "add_solve", "level_board"]
