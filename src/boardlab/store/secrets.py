"""The server's own signing keys, kept in the database and made on first use.

A key signs what the server hands out and must recognise later (the Triplex start
tokens, the anonymised client keys). It lives with the data, never in the code or the
repository, so every installation has its own; every process of one installation reads
the same key from the shared database. Deleting the row makes a new key at the next use
(the server reads its keys once, so: at its next start); outstanding tokens then stop
verifying, which is the way to revoke them all.

>>> from boardlab.store.db import open_store
>>> store = open_store("sqlite://")
>>> key = server_secret(store, "doctest")
>>> len(key), server_secret(store, "doctest") == key
(32, True)
>>> store.close()
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from sqlalchemy import DateTime, LargeBinary, String, select
from sqlalchemy.orm import Mapped, mapped_column

from boardlab.errors import StoreError
from boardlab.store.db import Base, Store

#: Bytes of a new key (HMAC-SHA256 gains nothing from more).
KEY_BYTES = 32


class SecretRow(Base):
    """A row of ``server_secrets``: a named key."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    secret: Mapped[bytes] = mapped_column(LargeBinary(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def server_secret(store: Store, name: str) -> bytes:
    """The key called ``name``, made (random, :data:`KEY_BYTES` bytes) the first time it
    is asked for. Two processes asking at once get the same key: the loser of the race
    to insert reads the winner's."""
    with store.session() as session:
        found = session.get(SecretRow, name)
        if found is not None:
            return bytes(found.secret)
    try:
        with store.session(write=True) as session:
            found = session.get(SecretRow, name)
            if found is not None:
                return bytes(found.secret)
            key = secrets.token_bytes(KEY_BYTES)
            session.add(SecretRow(name=name, secret=key, created_at=datetime.now(UTC)))
            return key
    except StoreError:
        # Another process inserted the key between our read and our write: use its key;
        # any other failure leaves no row and is raised again.
        with store.session() as session:
            won = session.scalars(select(SecretRow.secret)
                                  .where(SecretRow.name == name)).first()
        if won is None:
            raise
        return bytes(won)


__all__ = ["KEY_BYTES", "SecretRow", "server_secret"]
