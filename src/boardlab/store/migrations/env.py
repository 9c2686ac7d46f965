"""Alembic's environment for boardlab: migrate the connection that
:func:`boardlab.store.db.upgrade` passes in ``config.attributes["connection"]``, or (when
Alembic is run by hand) a new engine on the ``sqlalchemy.url`` option."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from boardlab.store.db import metadata


def _run(connection) -> None:
    # SQLite alters tables by copying them: batch mode lets later revisions do that.
    context.configure(connection=connection, target_metadata=metadata(),
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    """Run the migrations Alembic was asked for."""
    config = context.config
    if context.is_offline_mode():
        context.configure(url=config.get_main_option("sqlalchemy.url"),
                          target_metadata=metadata(), literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
    elif (given := config.attributes.get("connection")) is not None:
        _run(given)
    else:
        engine = create_engine(config.get_main_option("sqlalchemy.url"))
        try:
            with engine.connect() as opened:
                _run(opened)
        finally:
            engine.dispose()


# Alembic runs this file with its context set up; anything else importing it (pytest
# collecting doctests from every module) finds no context and must not migrate.
if hasattr(context, "config"):
    main()
