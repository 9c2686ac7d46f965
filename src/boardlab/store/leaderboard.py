"""The Triplex leaderboard in the database: every accepted solve of a level.

The seed article's server kept, for every level, who solved it first and how long players
took; the median solve time is the human difficulty that re-orders a pack
(``boardlab triplex reorder``, :doc:`/triplex`, "Difficulty and order"). One row per
accepted solve is enough for both: the first solver is the earliest row of a
(pack, level) that is not *suspect*, the statistics are over its rows. A submission is
verified and timed before it gets here (:mod:`boardlab.web.api_triplex`); this module
only records and summarises.

Since revision 0004 a row also keeps how it was timed: ``timed`` rows hold the server's
own measure (from the start token to the submission), ``client_seconds`` what the client
claimed (a trace, never used), ``client`` an anonymised key of the sender and ``token``
the start token's nonce, unique, so one token records one solve. A *suspect* row (solved
faster than the level's floor, see :func:`boardlab.web.api_triplex.floor_seconds`) is
listed and counted but never first and never in the times; rows from before 0004
(``timed`` false, their seconds the client's) may be first but are in no time either.

Names are stored exactly as given (already trimmed and length-checked by the web layer);
whoever puts them into HTML must escape them.

>>> from boardlab.store.db import open_store
>>> store = open_store("sqlite://")
>>> add_solve(store, "ab12", 1, "Ada", 30.0).name
'Ada'
>>> _ = add_solve(store, "ab12", 1, "Bob", 50.0)
>>> _ = add_solve(store, "ab12", 1, "Bot", 0.2, suspect=True)
>>> board = level_board(store, "ab12", 1)
>>> board.first.name, board.solves, board.suspect, board.median_seconds, board.best_seconds
('Ada', 3, 1, 40.0, 30.0)
>>> level_board(store, "ab12", 2).first is None
True
>>> [(p.name, p.levels, p.first_solves) for p in players_table(store, "ab12")]
[('Ada', 1, 1), ('Bob', 1, 0), ('Bot', 1, 0)]
>>> store.close()
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Boolean, DateTime, Float, Index, Integer, String, false, func, select
from sqlalchemy.orm import Mapped, mapped_column

from boardlab.errors import BoardlabError, StoreError
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


class TokenUsedError(BoardlabError, ValueError):
    """The start token already recorded a solve (a replay)."""


@dataclass(frozen=True)
class Solve:
    """One accepted solve: who, how many seconds it took and when (UTC); ``id`` orders
    solves (the first solver is the smallest id that is not suspect)."""

    name: str
    seconds: float
    solved_at: datetime
    id: int = 0
    suspect: bool = False


@dataclass(frozen=True)
class LevelBoard:
    """A level's leaderboard: its first solver (or None), how many solves were accepted
    (``suspect`` of them too fast to count), the median and best server-measured times in
    seconds (None without such solves) and how many different clients sent them."""

    first: Solve | None
    solves: int
    median_seconds: float | None
    level: int = 0
    suspect: int = 0
    best_seconds: float | None = None
    timed: int = 0
    clients: int = 0


@dataclass(frozen=True)
class PlayerLine:
    """A player's line in a pack's table: levels solved, first solves, all solves."""

    name: str
    levels: int
    first_solves: int
    solves: int


def _utc(moment: datetime) -> datetime:
    # SQLite keeps no time zone; we always store UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _solve(row: SolveRow) -> Solve:
    return Solve(row.name, row.seconds, _utc(row.solved_at), row.id, bool(row.suspect))


def add_solve(store: Store, pack: str, level: int, name: str, seconds: float,
              solved_at: datetime | None = None, *, timed: bool = True,
              token: str | None = None, client: str | None = None,
              client_seconds: float | None = None, suspect: bool = False) -> Solve:
    """Record an accepted solve (now, unless ``solved_at`` is given) and return it.

    ``seconds`` is the measured time (``timed``: by the server); ``token`` the start
    token's nonce, which records one solve only (:class:`TokenUsedError` on a second),
    ``client`` the sender's anonymised key, ``client_seconds`` the client's own claim and
    ``suspect`` whether the solve was faster than the level's floor."""
    row = SolveRow(pack=pack, level=level, name=name, seconds=float(seconds),
                   solved_at=solved_at or datetime.now(UTC), timed=timed, token=token,
                   client=client, client_seconds=client_seconds, suspect=suspect)
    if token is not None and _token_used(store, token):
        raise TokenUsedError("this start token has already recorded a solve")
    try:
        with store.session(write=True) as session:
            if token is not None and session.scalar(
                    select(SolveRow.id).where(SolveRow.token == token)) is not None:
                raise TokenUsedError("this start token has already recorded a solve")
            session.add(row)
            session.flush()
            return _solve(row)
    except StoreError:
        # Two submissions of one token at once: the unique index let one in.
        if token is not None and _token_used(store, token):
            raise TokenUsedError("this start token has already recorded a solve") from None
        raise


def _token_used(store: Store, token: str) -> bool:
    with store.session() as session:
        return session.scalar(select(SolveRow.id).where(SolveRow.token == token)) is not None


def _boards(store: Store, pack: str, levels: list[int] | None) -> dict[int, LevelBoard]:
    where = [SolveRow.pack == pack]
    if levels is not None:
        where.append(SolveRow.level.in_(levels))
    with store.session() as session:
        # The earliest row that is not suspect wins; ids break ties between timestamps.
        firsts = (select(func.min(SolveRow.id)).where(*where, SolveRow.suspect.is_(False))
                  .group_by(SolveRow.level))
        first_rows = {row.level: row for row in session.scalars(
            select(SolveRow).where(SolveRow.id.in_(firsts)))}
        counts = session.execute(
            select(SolveRow.level, func.count(), func.count(SolveRow.client.distinct()))
            .where(*where).group_by(SolveRow.level)).all()
        suspects = dict(session.execute(
            select(SolveRow.level, func.count()).where(*where, SolveRow.suspect.is_(True))
            .group_by(SolveRow.level)).all())
        times: dict[int, list[float]] = {}
        for level, seconds in session.execute(
                select(SolveRow.level, SolveRow.seconds)
                .where(*where, SolveRow.timed.is_(True), SolveRow.suspect.is_(False))):
            times.setdefault(level, []).append(seconds)
    out = {}
    for level, count, clients in counts:
        first = first_rows.get(level)
        spans = times.get(level, [])
        out[level] = LevelBoard(
            None if first is None else _solve(first), int(count),
            float(statistics.median(spans)) if spans else None, level,
            int(suspects.get(level, 0)), min(spans) if spans else None, len(spans),
            int(clients))
    return out


def level_board(store: Store, pack: str, level: int) -> LevelBoard:
    """The first solver, the number of solves and the times of one level."""
    return _boards(store, pack, [level]).get(level, LevelBoard(None, 0, None, level))


def level_table(store: Store, pack: str, levels: int) -> list[LevelBoard]:
    """:func:`level_board` of every level ``1..levels`` of a pack, in a few queries."""
    boards = _boards(store, pack, None)
    return [boards.get(n, LevelBoard(None, 0, None, n)) for n in range(1, levels + 1)]


def players_table(store: Store, pack: str, limit: int = 100) -> list[PlayerLine]:
    """The players of a pack, most levels solved first, then most first solves, then by
    name; at most ``limit`` lines. A suspect solve counts as a solve of its level (it was
    verified) but never as a first solve."""
    where = SolveRow.pack == pack
    with store.session() as session:
        firsts = (select(func.min(SolveRow.id)).where(where, SolveRow.suspect.is_(False))
                  .group_by(SolveRow.level))
        first_by_name = dict(session.execute(
            select(SolveRow.name, func.count()).where(SolveRow.id.in_(firsts))
            .group_by(SolveRow.name)).all())
        lines = session.execute(
            select(SolveRow.name, func.count(SolveRow.level.distinct()), func.count())
            .where(where).group_by(SolveRow.name)).all()
    table = [PlayerLine(name, int(levels), int(first_by_name.get(name, 0)), int(solves))
             for name, levels, solves in lines]
    table.sort(key=lambda p: (-p.levels, -p.first_solves, p.name))
    return table[:limit]


def median_times(store: Store, pack: str) -> dict[int, tuple[int, float]]:
    """Per level of a pack with server-timed solves that are not suspect: how many there
    are and their median in seconds; the human difficulty ``reorder`` sorts by."""
    return {n: (board.timed, board.median_seconds)
            for n, board in _boards(store, pack, None).items()
            if board.timed and board.median_seconds is not None}


__all__ = ["LevelBoard", "PlayerLine", "Solve", "SolveRow", "TokenUsedError", "add_solve",
           "level_board", "level_table", "median_times", "players_table"]
