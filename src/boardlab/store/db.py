"""Opening boardlab's database: SQLite by default, PostgreSQL (or any SQLAlchemy URL) on
request.

Where the database is, in order of precedence:

1. the ``url`` passed to :func:`open_store` (the CLI's ``--db``): an SQLAlchemy URL such as
   ``postgresql+psycopg://user:password@host:5432/quest`` or ``sqlite:///quest.db``, or a
   plain file path, which means an SQLite file there;
2. otherwise the SQLite file ``boardlab.db`` in the data folder: ``$BOARDLAB_DATA`` when that
   environment variable is set, else ``~/.local/share/boardlab/`` (created if missing).

Opening a database upgrades its schema to the newest Alembic revision
(:func:`upgrade`; the revisions ship in :mod:`boardlab.store.migrations`), which also adopts
a database made before migrations existed. Every statement goes through the ORM or
SQLAlchemy Core, so values are always bound parameters, never pasted into SQL. A database
that cannot be opened or used raises :class:`~boardlab.errors.StoreError`, one line naming
the URL with its password masked.

>>> store = open_store("sqlite://")      # an in-memory database
>>> store.url
'sqlite://'
>>> mask_url("postgresql+psycopg://quest:s3cret@db.example:5432/quest")
'postgresql+psycopg://quest:***@db.example:5432/quest'
>>> store.close()
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

from sqlalchemy import Engine, MetaData, create_engine, event, make_url, text
from sqlalchemy.engine import URL
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

from boardlab.errors import StoreError

DATA_ENV = "BOARDLAB_DATA"
DEFAULT_DATA_DIR = Path("~/.local/share/boardlab")
DEFAULT_FILE = "boardlab.db"
# An unreachable server should fail in seconds, not after the system's TCP timeout.
CONNECT_TIMEOUT_SECONDS = 10
MIGRATIONS = Path(__file__).with_name("migrations")
# Two processes opening one PostgreSQL database at once migrate one after the other.
MIGRATION_LOCK_KEY = 0x626F6172646C6162  # "boardlab"
#: How long an SQLite connection waits for another's write lock before giving up.
SQLITE_BUSY_TIMEOUT_MS = 30_000
#: The execution option by which :meth:`Store.session` marks a writing transaction.
WRITE_OPTION = "boardlab_write"


class Base(DeclarativeBase):
    """The declarative base of every boardlab table."""


def data_dir() -> Path:
    """The folder of boardlab's default database: ``$BOARDLAB_DATA`` or
    ``~/.local/share/boardlab``."""
    folder = os.environ.get(DATA_ENV)
    return Path(folder).expanduser() if folder else DEFAULT_DATA_DIR.expanduser()


def default_url(folder: Path | None = None) -> str:
    """The SQLite URL of ``boardlab.db`` in ``folder``, by default :func:`data_dir` (the
    folder is created)."""
    folder = data_dir() if folder is None else Path(folder).expanduser()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise StoreError(f"cannot create the data folder {folder}: {e.strerror or e}",
                         url=str(folder)) from None
    return URL.create("sqlite", database=str(folder / DEFAULT_FILE)).render_as_string()


def mask_url(url: str) -> str:
    """``url`` with its password replaced by ``***`` (also when the URL does not parse)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


def _normalise(url: str) -> str:
    """A plain file path becomes the URL of an SQLite file."""
    if "://" in url:
        return url
    return URL.create("sqlite", database=str(Path(url).expanduser())).render_as_string()


def _reason(error: BaseException, password: str | None) -> str:
    """The first line of what the database driver said, without the password."""
    cause = getattr(error, "orig", None) or error
    lines = [line.strip() for line in str(cause).splitlines() if line.strip()]
    text = lines[0] if lines else type(cause).__name__
    if password:
        # Only where the password stands on its own: a password "p" must not turn the
        # word "port" into "***ort".
        text = re.sub(rf"(?<![\w]){re.escape(password)}(?![\w])", "***", text)
    return text


class Store:
    """An open database: an SQLAlchemy engine and its sessions.

    Use :meth:`session` for a unit of work; :meth:`close` (or ``with``) releases the
    connections.
    """

    def __init__(self, url: str, engine: Engine):
        self.url = url                      # masked: safe to print
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._serial_writes = engine.dialect.name == "sqlite"
        self._write_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Store({self.url!r})"

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release every pooled connection."""
        self.engine.dispose()

    def error(self, message: str) -> StoreError:
        """A :class:`StoreError` about this database."""
        return StoreError(f"{message} (database {self.url})", url=self.url)

    @contextmanager
    def session(self, *, write: bool = False) -> Iterator[Session]:
        """A session in one transaction: committed at the end of the ``with`` block, rolled
        back entirely if anything raises. Database failures become :class:`StoreError`.

        ``write`` says the transaction will write: on SQLite it then takes the write lock
        at its start (``BEGIN IMMEDIATE``), waiting its turn behind other writers, instead
        of failing with "database is locked" when it reads first and writes later."""
        # SQLite lets one writer in at a time and makes the others poll, sleeping up to
        # 100 ms between tries, so under load an unlucky writer waits for seconds. The
        # writers of this process queue on a lock instead, and are woken at once.
        serial = self._write_lock if write and self._serial_writes else nullcontext()
        try:
            with serial, self._sessions() as session, session.begin():
                if write:
                    session.connection(execution_options={WRITE_OPTION: True})
                yield session
        except SQLAlchemyError as e:
            raise self.error(f"database error: {_reason(e, self._password)}") from None

    @property
    def _password(self) -> str | None:
        return self.engine.url.password if isinstance(self.engine.url.password, str) else None


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    # The driver would begin transactions itself, lazily and never IMMEDIATE; boardlab
    # begins them (see _sqlite_begin), so the driver is put in autocommit mode.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    # SQLite ignores foreign keys unless asked, per connection.
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    if cursor.execute("PRAGMA database_list").fetchone()[2]:
        # A file: readers and one writer at a time without blocking each other, and a
        # commit that survives the process being killed (WAL with synchronous=NORMAL
        # loses nothing to a crashed process, only possibly to a lost power supply).
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _sqlite_begin(connection) -> None:
    immediate = connection.get_execution_options().get(WRITE_OPTION, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def metadata() -> MetaData:
    """The metadata of every boardlab table (the table modules are imported here)."""
    from boardlab.store import leaderboard, pipes, players, quest, secrets, web  # noqa: F401

    return Base.metadata


def _alembic_config(connection: object):
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest revision of the packaged migrations."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(_alembic_config(None)).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    """The revision the database is stamped with, or ``None`` (new, or made before
    migrations)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database's schema to ``revision`` with the packaged Alembic migrations,
    in one transaction. A database with boardlab's tables but no ``alembic_version``
    (made by ``create_all`` before migrations existed) is adopted: the baseline creates
    only the missing tables and the database ends stamped.

    Raises :class:`StoreError` when the database is stamped with a revision these
    migrations do not know (a newer boardlab made it), and SQLAlchemy's errors otherwise.
    """
    from alembic import command
    from alembic.util import CommandError

    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                               {"key": MIGRATION_LOCK_KEY})
        try:
            command.upgrade(_alembic_config(connection), revision)
        except CommandError as e:
            raise StoreError(f"cannot migrate the database: {e}") from None


def open_store(url: str | None = None) -> Store:
    """Open the database at ``url`` and upgrade its schema to the newest revision; see the
    module docstring for the default and the accepted forms.

    Raises :class:`StoreError` naming the masked URL when the URL is malformed, its driver
    is unknown, the server is unreachable or refuses the login, or the file cannot be
    created.
    """
    raw = default_url() if url is None else _normalise(url)
    shown = mask_url(raw)
    password = None
    try:
        parsed = make_url(raw)
        password = parsed.password if isinstance(parsed.password, str) else None
        connect_args = {}
        if parsed.get_backend_name() == "postgresql":
            connect_args["connect_timeout"] = CONNECT_TIMEOUT_SECONDS
        engine = create_engine(parsed, connect_args=connect_args)
    except (ArgumentError, NoSuchModuleError, ValueError, ImportError) as e:
        raise StoreError(f"cannot open database {shown}: {_reason(e, password)}",
                         url=shown) from None
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
    metadata()
    try:
        upgrade(engine)
    except SQLAlchemyError as e:
        engine.dispose()
        raise StoreError(f"cannot open database {shown}: {_reason(e, password)}",
                         url=shown) from None
    except StoreError as e:
        engine.dispose()
        raise StoreError(f"{e} (database {shown})", url=shown) from None
    return Store(shown, engine)
