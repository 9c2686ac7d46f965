"""Matches of the web app (``boardlab serve``), in the database.

A match is stored as what is needed to rebuild it, never as a pickled state: the game's
name and option values, the players (``{"type": "human"}`` or a bot's settings) and the
notations of the moves played, in order. The web app replays the moves from the initial
state. ``result`` (the points as strings such as ``"1/2"``, or ``None`` while the game goes
on), ``reason`` (how it ended) and ``ply`` are kept alongside so a list of matches needs no
replay. ``tokens`` holds, per seat, the SHA-256 digest of its secret seat token (never the
token itself); ``clock``, ``offers`` and ``rematch`` are the live play's state (see
:mod:`boardlab.web.matches`).

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

from sqlalchemy import JSON, Boolean, DateTime, Index, Integer, String, false, select, update
from sqlalchemy.orm import Mapped, mapped_column

from boardlab.store.db import Base, Store

GAME_NAME_LENGTH = 100
ID_LENGTH = 32


class MatchRow(Base):
    """A row of ``web_matches``: one match of the web app."""

    __tablename__ = "web_matches"
    __table_args__ = (Index("ix_web_matches_updated_at", "updated_at"),
                      Index("ix_web_matches_public_updated_at", "public", "updated_at"))

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
    tokens: Mapped[list[str | None] | None] = mapped_column(JSON, nullable=True)
    public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    offers: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    reason: Mapped[str | None] = mapped_column(String(20), nullable=True)
    rematch: Mapped[str | None] = mapped_column(String(ID_LENGTH), nullable=True)


#: The columns :func:`update_match` may change (``ply`` follows ``moves``).
CHANGEABLE = frozenset({"moves", "result", "players", "tokens", "public", "clock", "offers",
                        "reason", "rematch"})


@dataclass(frozen=True)
class StoredMatch:
    """A match as stored: id (uuid4 hex), game name, option values, players, the moves'
    notations, the result (points as strings) or ``None``, revision and times (UTC); the
    seat token digests (``None`` for a match made before seats existed), whether the
    lobby lists it, its clock, pending offers, how it ended and its rematch."""

    id: str
    game: str
    options: Mapping[str, Any]
    players: tuple[Mapping[str, Any], ...]
    moves: tuple[str, ...]
    result: tuple[str, ...] | None
    revision: int
    created_at: datetime
    updated_at: datetime
    tokens: tuple[str | None, ...] | None = None
    public: bool = False
    clock: Mapping[str, Any] | None = None
    offers: Mapping[str, Any] | None = None
    reason: str | None = None
    rematch: str | None = None

    @property
    def ply(self) -> int:
        """How many moves have been played."""
        return len(self.moves)

    def summary(self) -> dict[str, Any]:
        """JSON-ready facts for a list of matches (no replay needed; never a token)."""
        return {"id": self.id, "game": self.game, "options": dict(self.options),
                "players": [dict(p) for p in self.players], "ply": self.ply,
                "result": None if self.result is None else list(self.result),
                "reason": self.reason, "public": self.public,
                "time_control": None if self.clock is None else
                {"base": self.clock["base"], "increment": self.clock["increment"]},
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
        created_at=_utc(row.created_at), updated_at=_utc(row.updated_at),
        tokens=None if row.tokens is None else tuple(row.tokens), public=bool(row.public),
        clock=None if row.clock is None else dict(row.clock),
        offers=None if row.offers is None else dict(row.offers), reason=row.reason,
        rematch=row.rematch)


def create_match(store: Store, game: str, options: Mapping[str, Any],
                 players: Sequence[Mapping[str, Any]], *,
                 tokens: Sequence[str | None] | None = None, public: bool = False,
                 clock: Mapping[str, Any] | None = None) -> StoredMatch:
    """Store a new match with no moves yet and return it (with its new id): its seats'
    token digests, whether the lobby lists it and its clock."""
    now = datetime.now(UTC)
    row = MatchRow(id=uuid.uuid4().hex, game=game, options=dict(options),
                   players=[dict(p) for p in players], moves=[], ply=0, result=None,
                   revision=0, created_at=now, updated_at=now,
                   tokens=None if tokens is None else list(tokens), public=public,
                   clock=None if clock is None else dict(clock), offers=None, reason=None,
                   rematch=None)
    with store.session(write=True) as session:
        session.add(row)
        session.flush()
        return _stored(row)


def delete_match(store: Store, match_id: str) -> bool:
    """Remove the match; whether there was one."""
    with store.session(write=True) as session:
        row = session.get(MatchRow, match_id)
        if row is None:
            return False
        session.delete(row)
        return True


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
    return update_match(store, match_id, expected_revision=expected_revision,
                        moves=moves, result=result)


def _json_ready(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_json_ready(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _json_ready(v) for k, v in value.items()}
    return value


def update_match(store: Store, match_id: str, *, expected_revision: int,
                 **changes: Any) -> StoredMatch | None:
    """Change the columns named in ``changes`` (see :data:`CHANGEABLE`) if the match's
    revision is still ``expected_revision``, bumping it; return the updated match, or
    ``None`` when the match is gone or was changed meanwhile (one short transaction)."""
    unknown = set(changes) - CHANGEABLE
    if unknown:
        raise ValueError(f"not a changeable column of a match: {', '.join(sorted(unknown))}")
    values = {key: _json_ready(value) for key, value in changes.items()}
    if "moves" in values:
        values["ply"] = len(values["moves"])
    values.update(revision=expected_revision + 1, updated_at=datetime.now(UTC))
    with store.session(write=True) as session:
        # One statement that changes and answers the row: the write lock is held for as
        # short a time as possible.
        row = session.execute(
            update(MatchRow)
            .where(MatchRow.id == match_id, MatchRow.revision == expected_revision)
            .values(**values)
            .returning(MatchRow)
            .execution_options(synchronize_session=False)).scalar_one_or_none()
        return None if row is None else _stored(row)


def list_matches(store: Store, limit: int = 50, *, public_only: bool = False
                 ) -> list[StoredMatch]:
    """The most recently updated matches (only those the lobby lists with
    ``public_only``), newest first."""
    query = select(MatchRow)
    if public_only:
        query = query.where(MatchRow.public.is_(True))
    with store.session() as session:
        rows = session.scalars(query.order_by(MatchRow.updated_at.desc(), MatchRow.id)
                               .limit(limit))
        return [_stored(row) for row in rows]


__all__ = ["CHANGEABLE", "MatchRow", "StoredMatch", "create_match", "delete_match", "get_match",
           "list_matches", "save_moves", "update_match"]
