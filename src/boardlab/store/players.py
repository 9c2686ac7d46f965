"""Triplex players who keep their progress on the server: a name, a secret, and per pack
the highest level reached with the code that opens it.

The seed's later version saved progress on the server so that one game could be played on
a phone and a PC (:doc:`/triplex`, "Progress on the server"); before that, progress was the
level number and its code written on paper. A player here is only a name and a secret: no
e-mail, nothing to recover a forgotten secret with. The secret is never stored: the row
keeps its scrypt hash (:func:`hashlib.scrypt`, memory-hard, from the standard library)
with a random per-player salt and the parameters used, so the cost can be raised later
without invalidating old rows. Names are unique without regard to case (``Ada`` and
``ADA`` are one player).

>>> from boardlab.store.db import open_store
>>> store = open_store("sqlite://")
>>> player = claim_player(store, "Ada", "correct horse")
>>> save_progress(store, player, "ab12", 3, "CODE3").level
3
>>> save_progress(store, player, "ab12", 2, "CODE2").level   # never goes back
3
>>> claim_player(store, "ada", "wrong guess")
Traceback (most recent call last):
...
boardlab.store.players.WrongSecretError: wrong secret for player 'Ada'
>>> again = claim_player(store, "ADA", "correct horse")
>>> [(p.pack, p.level, p.code) for p in progress_of(store, again)]
[('ab12', 3, 'CODE3')]
>>> store.close()
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import DateTime, ForeignKey, Index, Integer, LargeBinary, String, select
from sqlalchemy.orm import Mapped, mapped_column

from boardlab.errors import BoardlabError, StoreError
from boardlab.store.db import Base, Store
from boardlab.store.leaderboard import NAME_LENGTH, PACK_ID_LENGTH

#: scrypt's cost: N=2**14, r=8 takes 16 MiB and some 50 ms per check, which makes a
#: guessing attack slow while a player waits for no more than a blink.
SCRYPT_N = 2 ** 14
SCRYPT_R = 8
SCRYPT_P = 1
SALT_BYTES = 16
#: scrypt hashes computed at once in this process: each takes 16 MiB, and a server's
#: threads (40 by default) all checking secrets at once would take 640 MiB.
KDF_AT_ONCE = 2
DIGEST_BYTES = 32
#: A secret's length bounds, in characters.
SECRET_MIN = 8
SECRET_MAX = 200
CODE_LENGTH = 100


class PlayerError(BoardlabError, ValueError):
    """A player cannot be claimed or used (a secret too short or too long)."""


class WrongSecretError(PlayerError):
    """The secret given for an existing player is not its secret."""


class NoPlayerError(PlayerError):
    """No player has this name."""


class PlayerRow(Base):
    """A row of ``triplex_players``: a name and the scrypt hash of its secret."""

    __tablename__ = "triplex_players"
    __table_args__ = (Index("ix_triplex_players_name_key", "name_key", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    name_key: Mapped[str] = mapped_column(String(4 * NAME_LENGTH))
    kdf: Mapped[str] = mapped_column(String(60))
    salt: Mapped[bytes] = mapped_column(LargeBinary(32))
    digest: Mapped[bytes] = mapped_column(LargeBinary(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ProgressRow(Base):
    """A row of ``triplex_progress``: a player's highest level of a pack and its code."""

    __tablename__ = "triplex_progress"

    player_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("triplex_players.id", ondelete="CASCADE"), primary_key=True)
    pack: Mapped[str] = mapped_column(String(PACK_ID_LENGTH), primary_key=True)
    level: Mapped[int] = mapped_column(Integer)
    code: Mapped[str] = mapped_column(String(CODE_LENGTH))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class Player:
    """A player whose secret was checked: its id and name as first given."""

    id: int
    name: str


@dataclass(frozen=True)
class Progress:
    """A player's progress in one pack: the highest level reached and the code opening it."""

    pack: str
    level: int
    code: str
    updated_at: datetime


def name_key(name: str) -> str:
    """The form under which two names are the same player (NFKC, case folded)."""
    return unicodedata.normalize("NFKC", name).casefold()


def _kdf_name() -> str:
    return f"scrypt:{SCRYPT_N}:{SCRYPT_R}:{SCRYPT_P}"


_KDF_SLOTS = threading.BoundedSemaphore(KDF_AT_ONCE)


def _digest(secret: str, salt: bytes, kdf: str) -> bytes:
    kind, n, r, p = kdf.split(":")
    if kind != "scrypt":
        raise StoreError(f"unknown key derivation {kind!r} in triplex_players")
    n, r, p = int(n), int(r), int(p)
    with _KDF_SLOTS:
        return hashlib.scrypt(secret.encode("utf-8"), salt=salt, n=n, r=r, p=p,
                              maxmem=128 * r * n * 2 + 1024 * 1024, dklen=DIGEST_BYTES)


def check_secret(secret: str) -> str:
    """``secret`` unchanged; :class:`PlayerError` unless it has ``SECRET_MIN`` (8) to
    ``SECRET_MAX`` (200) characters."""
    if len(secret) < SECRET_MIN:
        raise PlayerError(f"the secret has {len(secret)} characters, at least {SECRET_MIN} "
                          "needed")
    if len(secret) > SECRET_MAX:
        raise PlayerError(f"the secret has {len(secret)} characters, at most {SECRET_MAX} "
                          "allowed")
    return secret


def find_player(store: Store, name: str, secret: str) -> Player:
    """The player called ``name`` (any case) if ``secret`` is its secret;
    :class:`NoPlayerError` or :class:`WrongSecretError` otherwise."""
    check_secret(secret)
    with store.session() as session:
        row = session.scalars(select(PlayerRow)
                              .where(PlayerRow.name_key == name_key(name))).first()
    if row is None:
        raise NoPlayerError(f"no player is called {name!r}")
    if not hmac.compare_digest(_digest(secret, bytes(row.salt), row.kdf), bytes(row.digest)):
        raise WrongSecretError(f"wrong secret for player {row.name!r}")
    return Player(row.id, row.name)


def claim_player(store: Store, name: str, secret: str) -> Player:
    """The player called ``name`` with ``secret``: made with it when nobody has the name
    yet, else checked against it (:class:`WrongSecretError`)."""
    check_secret(secret)
    try:
        return find_player(store, name, secret)
    except NoPlayerError:
        pass
    salt = secrets.token_bytes(SALT_BYTES)
    kdf = _kdf_name()
    row = PlayerRow(name=name, name_key=name_key(name), kdf=kdf, salt=salt,
                    digest=_digest(secret, salt, kdf), created_at=datetime.now(UTC))
    try:
        with store.session(write=True) as session:
            session.add(row)
            session.flush()
            return Player(row.id, row.name)
    except StoreError:
        # Someone claimed the name between the two steps: theirs it is, and the secret
        # is checked against theirs.
        return find_player(store, name, secret)


def save_progress(store: Store, player: Player, pack: str, level: int, code: str
                  ) -> Progress:
    """Keep ``level`` and its ``code`` as the player's progress in ``pack`` unless a
    higher level is kept already; return what is kept. The caller has checked that the
    code opens the level."""
    now = datetime.now(UTC)
    with store.session(write=True) as session:
        row = session.get(ProgressRow, (player.id, pack))
        if row is None:
            row = ProgressRow(player_id=player.id, pack=pack, level=level, code=code,
                              updated_at=now)
            session.add(row)
        elif level >= row.level:
            row.level, row.code, row.updated_at = level, code, now
        return Progress(row.pack, row.level, row.code, _utc(row.updated_at))


def progress_of(store: Store, player: Player, pack: str | None = None) -> list[Progress]:
    """The player's progress in every pack (or in ``pack`` only), by pack id."""
    query = select(ProgressRow).where(ProgressRow.player_id == player.id)
    if pack is not None:
        query = query.where(ProgressRow.pack == pack)
    with store.session() as session:
        return [Progress(r.pack, r.level, r.code, _utc(r.updated_at))
                for r in session.scalars(query.order_by(ProgressRow.pack))]


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


__all__ = ["NoPlayerError", "Player", "PlayerError", "PlayerRow", "Progress",
           "ProgressRow", "WrongSecretError", "check_secret", "claim_player", "find_player",
           "name_key", "progress_of", "save_progress"]
