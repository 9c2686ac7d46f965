"""Matches of the web app (``boardlab serve``), in the database.

A match is stored as what is needed to rebuild it, never as a pickled state: the game's
name and option values, the players (``{"type": "human"}`` or a bot's settings) and the
notations of the moves played, in order. The web app replays the moves from the initial
state. ``result`` (the points as strings such as ``"1/2"``, or ``None`` while the game goes
on) and ``ply`` are kept alongside so a list of matches needs no replay.

Every change bumps ``revision``; :func:`save_moves` writes only when the stored revision
is the one the caller read, so a bot that thought while a player undid a move cannot
overwrite the newer history (optimistic locking, which also holds across processes).

>>> from boardlab.store.db import open_store
>>> store = open_store("sqlite://")
>>> match = create_match(store, "tic-tac-toe", {}, [{"type": "human"}, {"type": "human"}])
>>> len(match.id), match.moves, match.revision
(32, (), 0)
>>> saved = save_moves(store, match.id, ["b2", "a1"], None, expected_revision=0)
>>> saved.moves, saved.revision, saved.ply
(('b2', 'a1'), 1, 2)
>>> save_moves(store, match.id, ["c3"], None, expected_revision=0) is None   # stale
True
>>> get_match(store, "no-such-id") is None
True
>>> store.close()
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Index, Integer, String, select, update
from sqlalchemy.orm import Mapped, mapped_column

from boardlab.store.db import Base, Store

GAME_NAME_LENGTH = 100
ID_LENGTH = 32


class MatchRow(Base):
    """A row of ``web_matches``: one match of the web app."""

    __tablename__ = "web_matches"
    __table_args__ = (Index("ix_web_matches_updated_at", "updated_at"),)

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    game: Mapped[str] = mapped_column(String(GAME_NAME_LENGTH))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    moves: Mapped[list[str]] = mapped_column(JSON)
    ply: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    revision: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class StoredMatch:
    """A match as stored: id (uuid4 hex), game name, option values, players, the moves'
    notations, the result (points as strings) or ``None``, revision and times (UTC)."""

    id: str
    game: str
    options: Mapping[str, Any]
    players: tuple[Mapping[str, Any], ...]
    moves: tuple[str, ...]
    result: tuple[str, ...] | None
    revision: int
    created_at: datetime
    updated_at: datetime

    @property
    def ply(self) -> int:
        """How many moves have been played."""
        return len(self.moves)

    def summary(self) -> dict[str, Any]:
        """JSON-ready facts for a list of matches (no replay needed)."""
        return {"id": self.id, "game": self.game, "options": dict(self.options),
                "players": [dict(p) for p in self.players], "ply": self.ply,
                "result": None if self.result is None else list(self.result),
                "created": self.created_at.isoformat(),
                "updated": self.updated_at.isoformat()}


def _utc(moment: datetime) -> datetime:
    # SQLite keeps no time zone; we always store UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _stored(row: MatchRow) -> StoredMatch:
    return StoredMatch(
        id=row.id, game=row.game, options=dict(row.options),
        players=tuple(dict(p) for p in row.players), moves=tuple(row.moves),
        result=None if row.result is None else tuple(row.result), revision=row.revision,
        created_at=_utc(row.created_at), updated_at=_utc(row.updated_at))


def create_match(store: Store, game: str, options: Mapping[str, Any],
                 players: Sequence[Mapping[str, Any]]) -> StoredMatch:
    """Store a new match with no moves yet and return it (with its new id)."""
    now = datetime.now(UTC)
    row = MatchRow(id=uuid.uuid4().hex, game=game, options=dict(options),
                   players=[dict(p) for p in players], moves=[], ply=0, result=None,
                   revision=0, created_at=now, updated_at=now)
    with store.session() as session:
        session.add(row)
        session.flush()
        return _stored(row)


def get_match(store: Store, match_id: str) -> StoredMatch | None:
    """The match with this id, or ``None``."""
    if len(match_id) > ID_LENGTH:
        return None
    with store.session() as session:
        row = session.get(MatchRow, match_id)
        return None if row is None else _stored(row)


def save_moves(store: Store, match_id: str, moves: Sequence[str],
               result: Sequence[str] | None, *, expected_revision: int) -> StoredMatch | None:
    """Replace the match's moves (and result) if its revision is still
    ``expected_revision``; return the updated match, or ``None`` when the match is gone or
    was changed meanwhile."""
    values = {"moves": list(moves), "ply": len(moves),
              "result": None if result is None else list(result),
              "revision": expected_revision + 1, "updated_at": datetime.now(UTC)}
    with store.session() as session:
        done = session.execute(
            update(MatchRow)
            .where(MatchRow.id == match_id, MatchRow.revision == expected_revision)
            .values(**values)
            .execution_options(synchronize_session=False))
        if done.rowcount != 1:
            return None
        row = session.get(MatchRow, match_id, populate_existing=True)
        return None if row is None else _stored(row)


def list_matches(store: Store, limit: int = 50) -> list[StoredMatch]:
    """The most recently updated matches, newest first."""
    with store.session() as session:
        rows = session.scalars(select(MatchRow).order_by(MatchRow.updated_at.desc(),
                                                         MatchRow.id).limit(limit))
        return [_stored(row) for row in rows]


__all__ = ["MatchRow", "StoredMatch", "create_match", "get_match", "list_matches",
           "save_moves"]
