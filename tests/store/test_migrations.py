"""The Alembic migrations against SQLite always and PostgreSQL when
``BOARDLAB_TEST_POSTGRES_URL`` is set: an empty database gets every table, the migrated
schema is exactly the models', and a database made by ``create_all`` before migrations
existed is adopted (stamped at the head) with its data intact."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, insert, inspect, text

from boardlab.errors import StoreError
from boardlab.store.db import current_revision, head_revision, metadata, open_store, upgrade
from boardlab.store.pipes import PipeCode, PipeLevel, add_level, check_code, get_level
from boardlab.store.web import MatchRow, create_match, get_match, list_matches


def test_upgrading_an_empty_database_creates_every_table(empty_url):
    with open_store(empty_url) as store:
        tables = set(inspect(store.engine).get_table_names())
        assert tables == set(metadata().tables) | {"alembic_version"}
        assert {"pipe_levels", "pipe_codes", "web_matches"} <= tables
        assert current_revision(store.engine) == head_revision()


def test_the_migrated_schema_is_exactly_the_models(empty_url):
    with open_store(empty_url) as store, store.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), metadata())
        assert differences == []


def test_opening_again_changes_nothing(empty_url):
    with open_store(empty_url) as store:
        level = add_level(store, "kept", "LA\n", [("|0-1|1-1|", "A")])
        match = create_match(store, "tic-tac-toe", {}, [{"type": "human"}] * 2)
    with open_store(empty_url) as store:
        assert get_level(store, level).name == "kept"
        assert get_match(store, match.id).game == "tic-tac-toe"
        assert current_revision(store.engine) == head_revision()


def _old_database(url: str, tables) -> None:
    """What ``open_store`` made before migrations: ``create_all`` of some tables, with
    a level and its code in it."""
    engine = create_engine(url)
    try:
        metadata().create_all(engine, tables=[t.__table__ for t in tables])
        with engine.begin() as connection:
            level_id = connection.execute(insert(PipeLevel.__table__).values(
                name="legacy", rows=1, cols=1, text="LA\n", solution_count=1,
                created_at=datetime.now(UTC))).inserted_primary_key[0]
            connection.execute(insert(PipeCode.__table__).values(
                level_id=level_id, ordinal=1, code="ABC", path="|0-1|1-1|"))
    finally:
        engine.dispose()


@pytest.mark.parametrize("tables", [(PipeLevel, PipeCode), (PipeLevel, PipeCode, MatchRow)],
                         ids=["pipes-only", "every-table"])
def test_a_database_made_by_create_all_is_stamped_and_still_works(empty_url, tables):
    _old_database(empty_url, tables)
    assert "alembic_version" not in inspect(create_engine(empty_url)).get_table_names()
    with open_store(empty_url) as store:
        assert current_revision(store.engine) == head_revision()
        assert check_code(store, "legacy", "ABC") and not check_code(store, "legacy", "abc")
        add_level(store, "new", "LB\n", [("|0-1|1-1|", "B")])
        match = create_match(store, "connect-four", {"rows": 6, "columns": 7},
                             [{"type": "human"}, {"type": "human"}])
        assert get_match(store, match.id).players[0] == {"type": "human"}
        with store.engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), metadata()) == []


def test_a_database_from_a_newer_boardlab_is_refused(tmp_path):
    url = f"sqlite:///{tmp_path / 'future.db'}"
    open_store(url).close()
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = :v"),
                           {"v": "9999"})
    engine.dispose()
    with pytest.raises(StoreError, match="cannot migrate") as caught:
        open_store(url)
    assert "future.db" in str(caught.value)


def test_matches_made_before_seats_keep_their_moves_and_have_no_seat_holders(empty_url):
    engine = create_engine(empty_url)
    try:
        upgrade(engine, "0002")
        now = datetime.now(UTC)
        with engine.begin() as connection:
            connection.execute(text(
                "INSERT INTO web_matches (id, game, options, players, moves, ply, result, "
                "revision, created_at, updated_at) VALUES ('old', 'tic-tac-toe', '{}', "
                "'[{\"type\": \"human\"}, {\"type\": \"bot\"}]', '[\"b2\"]', 1, NULL, 3, "
                ":now, :now)"), {"now": now})
    finally:
        engine.dispose()
    with open_store(empty_url) as store:
        old = get_match(store, "old")
        assert old.moves == ("b2",) and old.revision == 3
        assert old.tokens is None and old.public is False and old.clock is None
        assert old.reason is None and old.rematch is None and old.offers is None
        assert list_matches(store, public_only=True) == []
        assert [m.id for m in list_matches(store)] == ["old"]
