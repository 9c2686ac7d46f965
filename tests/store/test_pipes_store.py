"""The pipe level store against SQLite always and PostgreSQL when
``BOARDLAB_TEST_POSTGRES_URL`` is set (.ci/run sets it): round trips, codes, transactions,
duplicate names, lookups, bad URLs and a big import."""

from __future__ import annotations

import os
import tracemalloc

import pytest
from sqlalchemy import func, select

from boardlab.errors import BoardlabError, StoreError
from boardlab.store.db import DATA_ENV, DEFAULT_FILE, mask_url, open_store
from boardlab.store.pipes import (
    BATCH_SIZE,
    PipeCode,
    add_level,
    check_code,
    code_count,
    codes,
    export_level,
    get_level,
    grid_size,
    list_levels,
    remove_level,
)
from tests.conftest import POSTGRES_ENV

LEVEL_TEXT = "# a level with a comment  \ntap: 1 1 top\nIA LB\nLC LD\nIE LF"  # no final newline
SOLUTIONS = [("|0-1|1-1|2-1|2-2|3-2|", "ACD"), ("|0-1|1-1|2-1|3-1|", "AC"),
             ("|0-1|1-1|1-2|2-2|3-2|", "ABD")]


@pytest.fixture
def store(empty_url):
    with open_store(empty_url) as opened:
        yield opened


def _stored_code_rows(store) -> int:
    with store.session() as session:
        return session.scalar(select(func.count()).select_from(PipeCode))


def test_add_get_export_round_trip(store):
    level_id = add_level(store, "demo", LEVEL_TEXT, SOLUTIONS)
    level = get_level(store, level_id)
    assert (level.id, level.name, level.rows, level.cols) == (level_id, "demo", 3, 2)
    assert level.solution_count == 3
    assert level.created_at.tzinfo is not None
    assert export_level(store, "demo") == LEVEL_TEXT
    assert export_level(store, level_id) == LEVEL_TEXT
    assert get_level(store, str(level_id)) == level


def test_text_is_stored_byte_for_byte(store):
    odd = "# ünïcode and tabs\t\r\nLA\tLB  \n\n\nLC LD\n\n"
    add_level(store, "odd", odd, [])
    assert export_level(store, "odd") == odd
    assert get_level(store, "odd").solution_count == 0


def test_data_survives_reopening(empty_url):
    with open_store(empty_url) as first:
        add_level(first, "kept", LEVEL_TEXT, SOLUTIONS)
    with open_store(empty_url) as second:
        assert [level.name for level in list_levels(second)] == ["kept"]
        assert check_code(second, "kept", "ABD")


def test_check_code(store):
    add_level(store, "demo", LEVEL_TEXT, SOLUTIONS)
    other = add_level(store, "other", "LX LY\n", [("|0-1|1-1|1-2|2-2|", "XY")])
    assert check_code(store, "demo", "ACD")
    assert check_code(store, "demo", "AC")
    assert check_code(store, "demo", "  A B\tD ")        # spaces are ignored
    assert not check_code(store, "demo", "acd")          # case-sensitive
    assert not check_code(store, "demo", "ACDX")
    assert not check_code(store, "demo", "")
    assert not check_code(store, "demo", "XY")            # a code of another level
    assert check_code(store, other, "XY")
    assert not check_code(store, "demo", "A%")            # no LIKE semantics
    assert not check_code(store, "demo", "' OR '1'='1")


def test_codes_in_order(store):
    add_level(store, "demo", LEVEL_TEXT, SOLUTIONS)
    stored = list(codes(store, "demo"))
    assert [(c.ordinal, c.path, c.code) for c in stored] == [
        (i, path, code) for i, (path, code) in enumerate(SOLUTIONS, start=1)]
    assert code_count(store, "demo") == 3


def test_list_levels(store):
    assert list_levels(store) == []
    first = add_level(store, "b-level", LEVEL_TEXT, SOLUTIONS)
    second = add_level(store, "a-level", "LA\n", [])
    levels = list_levels(store)
    assert [(level.id, level.name, level.solution_count) for level in levels] == [
        (first, "b-level", 3), (second, "a-level", 0)]
    assert levels[0].to_json()["solution_count"] == 3
    assert "text" not in levels[0].to_json()


def test_duplicate_name_is_rejected_and_changes_nothing(store):
    add_level(store, "demo", LEVEL_TEXT, SOLUTIONS)
    with pytest.raises(StoreError, match="'demo' already exists"):
        add_level(store, "demo", "LA\n", [("|0-1|1-1|2-1|", "A")])
    assert len(list_levels(store)) == 1
    assert export_level(store, "demo") == LEVEL_TEXT
    assert _stored_code_rows(store) == 3


def test_failing_solutions_leave_nothing_written(store):
    add_level(store, "before", LEVEL_TEXT, SOLUTIONS)

    def solutions():
        # More than one batch is inserted before the failure.
        for i in range(2 * BATCH_SIZE + 5):
            yield f"|path {i}|", f"C{i}"
        raise RuntimeError("solver crashed")

    with pytest.raises(RuntimeError, match="solver crashed"):
        add_level(store, "broken", LEVEL_TEXT, solutions())
    assert [level.name for level in list_levels(store)] == ["before"]
    assert _stored_code_rows(store) == 3
    with pytest.raises(StoreError, match="no pipe level named 'broken'"):
        get_level(store, "broken")
    # The name is free again.
    add_level(store, "broken", LEVEL_TEXT, SOLUTIONS[:1])
    assert get_level(store, "broken").solution_count == 1


def test_bad_solution_items_roll_back(store):
    with pytest.raises(ValueError):
        add_level(store, "bad", LEVEL_TEXT, [("|0-1|", "A"), ("only one",)])
    assert list_levels(store) == []
    assert _stored_code_rows(store) == 0


def test_lookup_by_id_and_name(store):
    first = add_level(store, "demo", LEVEL_TEXT, SOLUTIONS)
    second = add_level(store, "²", "LA\n", [("|0-1|1-1|2-1|", "Q")])
    assert get_level(store, first).name == "demo"
    assert get_level(store, str(first)).name == "demo"
    assert get_level(store, f" {second} ").name == "²"
    assert get_level(store, "²").id == second      # a digit, but not an ASCII one
    # Names cannot be numbers, so no name can shadow the id it spells.
    with pytest.raises(StoreError, match="cannot be a number"):
        add_level(store, str(first), "LA\n", [("|0-1|1-1|2-1|", "Q")])
    with pytest.raises(StoreError, match="no pipe level 'nine'|no pipe level named 'nine'"):
        get_level(store, "nine")
    with pytest.raises(StoreError, match="no pipe level '9999'"):
        check_code(store, "9999", "A")
    with pytest.raises(StoreError, match="no pipe level 9999"):
        list(codes(store, 9999))


def test_remove_level(store):
    add_level(store, "demo", LEVEL_TEXT, SOLUTIONS)
    add_level(store, "other", "LX\n", [("|0-1|1-1|2-1|", "X")])
    remove_level(store, "demo")
    assert [level.name for level in list_levels(store)] == ["other"]
    assert _stored_code_rows(store) == 1


def test_empty_name_is_rejected(store):
    with pytest.raises(StoreError, match="non-empty name"):
        add_level(store, " ", LEVEL_TEXT, SOLUTIONS)


def _query_plan(store, statement: str, parameters) -> str:
    """What the database says it will do for ``statement``, as one line of text."""
    from sqlalchemy import text as sql

    with store.engine.connect() as connection:
        if store.engine.dialect.name == "sqlite":
            rows = connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters)
            return " ".join(str(row[-1]) for row in rows)
        # A small table may be scanned whatever the indexes: ask whether the index can
        # answer the query at all.
        connection.execute(sql("SET enable_seqscan = off"))
        rows = connection.exec_driver_sql(f"EXPLAIN {statement}", parameters)
        return " ".join(str(row[0]) for row in rows)


def test_big_import_streams_and_lookups_use_the_index(store):
    from sqlalchemy import event

    total = 200_000
    produced = 0

    def solutions():
        nonlocal produced
        for i in range(total):
            produced += 1
            yield f"|0-1|{i}|9-9|", f"CODE{i:07d}"

    level_id = add_level(store, "big", LEVEL_TEXT, solutions())
    assert produced == total
    assert get_level(store, level_id).solution_count == total
    assert code_count(store, "big") == total
    lookups: list[tuple[str, object]] = []

    def record(_connection, _cursor, statement, parameters, _context, _many):
        if "pipe_codes" in statement:
            lookups.append((statement, parameters))

    event.listen(store.engine, "before_cursor_execute", record)
    try:
        assert check_code(store, "big", "CODE0123456")
        assert not check_code(store, "big", "CODE0200000")
    finally:
        event.remove(store.engine, "before_cursor_execute", record)
    # A code is found through the (level_id, code) index, not by reading 200,000 rows.
    assert lookups
    for statement, parameters in lookups:
        assert "ix_pipe_codes_level_code" in _query_plan(store, statement, parameters)
    ordinals = 0
    for stored in codes(store, "big"):
        ordinals += 1
        assert stored.ordinal == ordinals
    assert (ordinals, stored.code) == (total, f"CODE{total - 1:07d}")


def test_import_memory_does_not_grow_with_the_codes(store, monkeypatch):
    batch = 1000
    monkeypatch.setattr("boardlab.store.pipes.BATCH_SIZE", batch)

    def solutions(n):
        for i in range(n):
            yield f"|0-1|{i}|9-9|", f"CODE{i:07d}"

    def peak(name, n):
        tracemalloc.start()
        try:
            add_level(store, name, LEVEL_TEXT, solutions(n))
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    small, large = peak("small", 2 * batch), peak("large", 10 * batch)
    # Batches are bounded: five times the codes must not take anything like five times
    # the memory.
    assert large < 2 * small, (small, large)


def test_grid_size():
    assert grid_size(LEVEL_TEXT) == (3, 2)
    assert grid_size("") == (0, 0)


# --- opening databases (independent of the backend) ------------------------------------
def test_default_url_is_in_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "data"))
    with open_store(None) as store:
        add_level(store, "demo", LEVEL_TEXT, SOLUTIONS)
        assert str(tmp_path / "data" / DEFAULT_FILE) in store.url
    assert (tmp_path / "data" / DEFAULT_FILE).is_file()


def test_plain_path_means_an_sqlite_file(tmp_path):
    path = tmp_path / "quest.db"
    with open_store(str(path)) as store:
        add_level(store, "demo", LEVEL_TEXT, SOLUTIONS)
    assert path.is_file()


@pytest.mark.parametrize("url, expected", [
    ("postgresql+psycopg://quest:hunter2@127.0.0.1:1/quest",
     "postgresql+psycopg://quest:***@127.0.0.1:1/quest"),
    ("nosuchdriver://quest:hunter2@localhost/quest", "nosuchdriver://quest:***@localhost/quest"),
    ("postgresql+psycopg://quest:hunter2@localhost:notaport/quest",
     "postgresql+psycopg://quest:***@localhost:notaport/quest"),
])
def test_bad_url_names_the_masked_url(url, expected):
    with pytest.raises(StoreError) as caught:
        open_store(url)
    message = str(caught.value)
    assert isinstance(caught.value, BoardlabError)
    assert message.startswith(f"cannot open database {expected}: ")
    assert "hunter2" not in message
    assert "\n" not in message
    assert caught.value.url == expected


def test_wrong_password_is_masked():
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set")
    from sqlalchemy import make_url

    url = make_url(base).set(password="wrong-hunter2").render_as_string(hide_password=False)
    with pytest.raises(StoreError) as caught:
        open_store(url)
    assert "wrong-hunter2" not in str(caught.value)
    assert "***" in str(caught.value)


def test_unwritable_sqlite_path(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match="cannot open database sqlite:///.*a-file/x.db: "):
        open_store(f"sqlite:///{blocker}/x.db")


def test_mask_url():
    assert mask_url("sqlite:///x.db") == "sqlite:///x.db"
    assert mask_url("postgresql://u:p@h/d") == "postgresql://u:***@h/d"
    assert mask_url("postgresql://u@h/d") == "postgresql://u@h/d"


def test_the_password_is_masked_only_where_it_stands_alone():
    from boardlab.store.db import _reason

    said = Exception("could not connect to port 5432: password p rejected for p")
    assert _reason(said, "p") == "could not connect to port 5432: password *** rejected for ***"
    assert _reason(Exception("login s3cr$t failed"), "s3cr$t") == "login *** failed"
