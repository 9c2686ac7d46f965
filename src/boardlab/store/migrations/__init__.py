"""The Alembic migrations of boardlab's database: ``env.py`` and ``versions/``.

They ship inside the package and run without an ``alembic.ini``:
:func:`boardlab.store.db.upgrade` configures Alembic in code and hands it an open
connection. A new revision is a new file in ``versions/`` whose ``down_revision`` is the
newest one's ``revision`` (``script.py.mako`` is the template Alembic's ``revision``
command uses when ``script_location`` points here).
"""
