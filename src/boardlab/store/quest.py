"""The city quest of the seed article (seeds/001, :doc:`/pipes`) in the database: quests,
their location codes and solution codes, the teams and what each team has found.

Tables (revision 0005):

* ``quests``: a quest (random id), its name, its level's text, size and number of
  solution codes, and the SHA-256 of the organiser's secret key (never the key);
* ``quest_locations``: one location code per segment (row, col); a code is unique among
  *all* quests, so a code of another quest is told apart from a wrong one;
* ``quest_codes``: every distinct solution code of the quest's level;
* ``quest_teams``: a team of a quest: its name (unique per quest, case-insensitively),
  the SHA-256 of its secret token, when it joined and finished, the answer it finished
  with, and its attempts: location codes tried, of them wrong, answers tried;
* ``quest_finds``: the segments a team revealed, each once (the primary key is the team
  and the cell), with the time.

Every entry of a code is one transaction that counts the attempt and records what it
found, so an attempt is never half-recorded, and two requests typing the same code at
once record it once: the second is told "already found".

This module knows nothing of the pipe model: callers give the level's text, its
segments, its codes already read (see :mod:`boardlab.puzzles.pipes.quest`) and a maker of
location codes.

>>> from boardlab.store.db import open_store
>>> import itertools
>>> store = open_store("sqlite://")
>>> made = itertools.count(1)
>>> quest, key = create_quest(store, "park", "LA IB\\n", 1, 2, [(1, 1), (1, 2)], ["AB"],
...                      lambda: f"CODE{next(made)}")
>>> [(loc.row, loc.col, loc.code) for loc in locations(store, quest.id)]
[(1, 1, 'CODE1'), (1, 2, 'CODE2')]
>>> team, token = join(store, quest.id, "Owls")
>>> enter_location(store, team.id, "CODE2").outcome, enter_location(store, team.id, "CODE2").outcome
('found', 'already')
>>> enter_location(store, team.id, "NOPE").outcome
'wrong'
>>> enter_answer(store, team.id, "BA").valid, enter_answer(store, team.id, "AB").valid
(False, True)
>>> row = team_by_token(store, quest.id, token)
>>> (row.name, row.location_tries, row.wrong_locations, row.answer_tries, row.finished)
('Owls', 3, 1, 2, True)
>>> store.close()
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import islice

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from boardlab.store.db import Base, Store

ID_LENGTH = 16
NAME_LENGTH = 200
TEAM_NAME_LENGTH = 40
LOCATION_CODE_LENGTH = 16
#: Codes are inserted this many at a time.
BATCH_SIZE = 10_000
#: Tries to draw a location code no quest uses yet before giving up (a clash of random
#: codes is already rare; many in a row means the maker is broken).
CODE_TRIES = 50


class QuestRow(Base):
    """A row of ``quests``."""

    __tablename__ = "quests"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    text: Mapped[str] = mapped_column(Text)
    rows: Mapped[int] = mapped_column(Integer)
    cols: Mapped[int] = mapped_column(Integer)
    code_count: Mapped[int] = mapped_column(Integer, default=0)
    organiser_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class QuestLocation(Base):
    """A row of ``quest_locations``: the code written at the location of one segment."""

    __tablename__ = "quest_locations"
    __table_args__ = (Index("ix_quest_locations_code", "code", unique=True),)

    quest_id: Mapped[str] = mapped_column(
        ForeignKey("quests.id", ondelete="CASCADE"), primary_key=True)
    row: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    col: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    code: Mapped[str] = mapped_column(String(LOCATION_CODE_LENGTH))


class QuestCode(Base):
    """A row of ``quest_codes``: one solution code of a quest's level."""

    __tablename__ = "quest_codes"

    quest_id: Mapped[str] = mapped_column(
        ForeignKey("quests.id", ondelete="CASCADE"), primary_key=True)
    code: Mapped[str] = mapped_column(Text, primary_key=True)


class QuestTeam(Base):
    """A row of ``quest_teams``."""

    __tablename__ = "quest_teams"
    __table_args__ = (Index("ix_quest_teams_quest_name", "quest_id", "name_key", unique=True),
                      Index("ix_quest_teams_token", "token_hash", unique=True))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    quest_id: Mapped[str] = mapped_column(ForeignKey("quests.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(TEAM_NAME_LENGTH))
    name_key: Mapped[str] = mapped_column(String(TEAM_NAME_LENGTH * 3))
    token_hash: Mapped[str] = mapped_column(String(64))
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True),
                                                         nullable=True)
    answer: Mapped[str | None] = mapped_column(Text, nullable=True)
    location_tries: Mapped[int] = mapped_column(Integer, default=0)
    wrong_locations: Mapped[int] = mapped_column(Integer, default=0)
    answer_tries: Mapped[int] = mapped_column(Integer, default=0)


class QuestFind(Base):
    """A row of ``quest_finds``: a segment a team revealed."""

    __tablename__ = "quest_finds"

    team_id: Mapped[int] = mapped_column(
        ForeignKey("quest_teams.id", ondelete="CASCADE"), primary_key=True)
    row: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    col: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    found_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# -- values ------------------------------------------------------------------------------

def _utc(moment: datetime | None) -> datetime | None:
    if moment is not None and moment.tzinfo is None:   # SQLite keeps no time zone
        moment = moment.replace(tzinfo=UTC)
    return moment


@dataclass(frozen=True)
class Quest:
    """A stored quest (without its codes)."""

    id: str
    name: str
    text: str
    rows: int
    cols: int
    code_count: int
    created_at: datetime


@dataclass(frozen=True)
class Location:
    """The location code of the segment at ``row``, ``col``."""

    row: int
    col: int
    code: str


@dataclass(frozen=True)
class Team:
    """A team and its attempts; ``found`` its revealed cells with the time of each."""

    id: int
    quest_id: str
    name: str
    joined_at: datetime
    finished_at: datetime | None
    answer: str | None
    location_tries: int
    wrong_locations: int
    answer_tries: int
    found: tuple[tuple[int, int, datetime], ...] = field(default=())

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    @property
    def seconds(self) -> float | None:
        """From joining to finishing, or ``None`` while the team plays."""
        if self.finished_at is None:
            return None
        return (self.finished_at - self.joined_at).total_seconds()


@dataclass(frozen=True)
class Entry:
    """What a location code did: ``outcome`` is ``found`` (a new segment), ``already``
    (this team found it before), ``other`` (the code of another quest) or ``wrong``;
    ``row`` and ``col`` name the segment for the first two."""

    outcome: str
    row: int | None = None
    col: int | None = None


@dataclass(frozen=True)
class Answer:
    """What an answer did: ``valid``, and the team's finish (the first valid answer's)."""

    valid: bool
    finished_at: datetime | None
    first: bool = False


def _quest(row: QuestRow) -> Quest:
    return Quest(row.id, row.name, row.text, row.rows, row.cols, row.code_count,
                 _utc(row.created_at))  # type: ignore[arg-type]


def _team(row: QuestTeam, found: Sequence[tuple[int, int, datetime]] = ()) -> Team:
    return Team(row.id, row.quest_id, row.name, _utc(row.joined_at),  # type: ignore[arg-type]
                _utc(row.finished_at), row.answer, row.location_tries, row.wrong_locations,
                row.answer_tries, tuple(found))


def digest(secret: str) -> str:
    """The SHA-256 of a secret, as stored."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def name_key(name: str) -> str:
    """What makes two team names the same: case and surrounding spaces do not count."""
    return " ".join(name.split()).casefold()


# -- quests ------------------------------------------------------------------------------

def create_quest(store: Store, name: str, text: str, rows: int, cols: int,
                 segments: Sequence[tuple[int, int]], codes: Iterable[str],
                 make_code: Callable[[], str]) -> tuple[Quest, str]:
    """Store a quest: its level (``text``, ``rows`` x ``cols``), a location code from
    ``make_code`` for each of ``segments`` (drawn again when any quest uses it) and its
    solution ``codes`` (repeats kept once). Returns the quest and the organiser's secret
    key, which is stored only as its digest. One transaction."""
    key = secrets.token_urlsafe(18)
    now = datetime.now(UTC)
    with store.session(write=True) as session:
        quest_id = secrets.token_urlsafe(9)
        row = QuestRow(id=quest_id, name=name, text=text, rows=rows, cols=cols,
                       organiser_hash=digest(key), created_at=now)
        session.add(row)
        session.flush()
        taken: set[str] = set()
        for r, c in segments:
            for _ in range(CODE_TRIES):
                code = make_code()
                if code not in taken and session.scalar(
                        select(func.count()).where(QuestLocation.code == code)) == 0:
                    break
            else:
                raise store.error(f"no free location code after {CODE_TRIES} tries")
            taken.add(code)
            session.add(QuestLocation(quest_id=quest_id, row=r, col=c, code=code))
        session.flush()
        seen: set[str] = set()
        unique = (code for code in codes if not (code in seen or seen.add(code)))
        while batch := list(islice(unique, BATCH_SIZE)):
            session.execute(insert(QuestCode.__table__),
                            [{"quest_id": quest_id, "code": code} for code in batch])
        row.code_count = len(seen)
        return _quest(row), key


def get_quest(store: Store, quest_id: str) -> Quest | None:
    """The quest with this id, or ``None``."""
    if len(quest_id) > ID_LENGTH:
        return None
    with store.session() as session:
        row = session.get(QuestRow, quest_id)
        return None if row is None else _quest(row)


def is_organiser(store: Store, quest_id: str, key: str) -> bool:
    """Whether ``key`` is the quest's organiser key (compared in constant time)."""
    with store.session() as session:
        row = session.get(QuestRow, quest_id) if len(quest_id) <= ID_LENGTH else None
        return row is not None and hmac.compare_digest(row.organiser_hash, digest(key))


def locations(store: Store, quest_id: str) -> list[Location]:
    """The quest's location codes, row by row."""
    with store.session() as session:
        return [Location(r, c, code) for r, c, code in session.execute(
            select(QuestLocation.row, QuestLocation.col, QuestLocation.code)
            .where(QuestLocation.quest_id == quest_id)
            .order_by(QuestLocation.row, QuestLocation.col))]


def has_code(store: Store, quest_id: str, code: str) -> bool:
    """Whether ``code`` (as the level spells it) is one of the quest's solution codes."""
    with store.session() as session:
        return session.get(QuestCode, (quest_id, code)) is not None


# -- teams -------------------------------------------------------------------------------

def join(store: Store, quest_id: str, name: str) -> tuple[Team, str] | None:
    """A new team of the quest and its secret token (stored only as its digest);
    ``None`` if the quest has a team of that name already (see :func:`name_key`)."""
    token = secrets.token_urlsafe(24)
    with store.session(write=True) as session:
        key = name_key(name)
        if session.scalar(select(func.count()).where(
                QuestTeam.quest_id == quest_id, QuestTeam.name_key == key)):
            return None
        row = QuestTeam(quest_id=quest_id, name=name, name_key=key,
                        token_hash=digest(token), joined_at=datetime.now(UTC),
                        location_tries=0, wrong_locations=0, answer_tries=0)
        try:
            with session.begin_nested():
                session.add(row)
        except IntegrityError:      # a team of that name joined at the same moment
            return None
        return _team(row), token


def team_by_token(store: Store, quest_id: str, token: str) -> Team | None:
    """The team of the quest that holds ``token``, with its finds, or ``None``."""
    with store.session() as session:
        row = session.scalars(select(QuestTeam).where(
            QuestTeam.token_hash == digest(token), QuestTeam.quest_id == quest_id)).first()
        if row is None:
            return None
        found = session.execute(select(QuestFind.row, QuestFind.col, QuestFind.found_at)
                                .where(QuestFind.team_id == row.id)
                                .order_by(QuestFind.found_at, QuestFind.row, QuestFind.col))
        return _team(row, [(r, c, _utc(at)) for r, c, at in found])  # type: ignore[misc]


def teams(store: Store, quest_id: str) -> list[Team]:
    """Every team of the quest with its finds, in the order they joined."""
    with store.session() as session:
        rows = session.scalars(select(QuestTeam).where(QuestTeam.quest_id == quest_id)
                               .order_by(QuestTeam.id)).all()
        found: dict[int, list[tuple[int, int, datetime]]] = {row.id: [] for row in rows}
        for team_id, r, c, at in session.execute(
                select(QuestFind.team_id, QuestFind.row, QuestFind.col, QuestFind.found_at)
                .join(QuestTeam, QuestTeam.id == QuestFind.team_id)
                .where(QuestTeam.quest_id == quest_id)
                .order_by(QuestFind.found_at, QuestFind.row, QuestFind.col)):
            found[team_id].append((r, c, _utc(at)))  # type: ignore[arg-type]
        return [_team(row, found[row.id]) for row in rows]


def enter_location(store: Store, team_id: int, code: str) -> Entry:
    """A location code typed by a team: counted, and its segment recorded once."""
    with store.session(write=True) as session:
        team = session.get(QuestTeam, team_id)
        if team is None:
            raise store.error(f"no quest team {team_id}")
        location = session.scalars(select(QuestLocation).where(
            QuestLocation.code == code)).first() if len(code) <= LOCATION_CODE_LENGTH else None
        wrong = location is None or location.quest_id != team.quest_id
        session.execute(update(QuestTeam).where(QuestTeam.id == team_id).values(
            location_tries=QuestTeam.location_tries + 1,
            wrong_locations=QuestTeam.wrong_locations + (1 if wrong else 0)))
        if location is None:
            return Entry("wrong")
        if location.quest_id != team.quest_id:
            return Entry("other")
        cell = (location.row, location.col)
        if session.get(QuestFind, (team_id, *cell)) is not None:
            return Entry("already", *cell)
        try:
            with session.begin_nested():
                session.add(QuestFind(team_id=team_id, row=cell[0], col=cell[1],
                                      found_at=datetime.now(UTC)))
        except IntegrityError:
            # Another request of the team recorded this find between the look above
            # and this insert (PostgreSQL; SQLite writes one at a time): found once.
            return Entry("already", *cell)
        return Entry("found", *cell)


def enter_answer(store: Store, team_id: int, code: str) -> Answer:
    """An answer typed by a team (already read as the level spells its codes): counted;
    the first valid one finishes the team, with the time."""
    with store.session(write=True) as session:
        team = session.get(QuestTeam, team_id)
        if team is None:
            raise store.error(f"no quest team {team_id}")
        session.execute(update(QuestTeam).where(QuestTeam.id == team_id).values(
            answer_tries=QuestTeam.answer_tries + 1))
        valid = session.get(QuestCode, (team.quest_id, code)) is not None
        if not valid:
            return Answer(False, _utc(team.finished_at))
        if team.finished_at is not None:
            return Answer(True, _utc(team.finished_at))
        now = datetime.now(UTC)
        finished = session.execute(
            update(QuestTeam).where(QuestTeam.id == team_id, QuestTeam.finished_at.is_(None))
            .values(finished_at=now, answer=code)).rowcount
        if not finished:        # a concurrent answer finished the team first
            session.refresh(team)
            return Answer(True, _utc(team.finished_at))
        return Answer(True, now, first=True)


__all__ = ["Answer", "Entry", "Location", "Quest", "Team", "create_quest", "digest",
           "enter_answer", "enter_location", "get_quest", "has_code", "is_organiser",
           "join", "locations", "name_key", "team_by_token", "teams"]
