"""The quest's tables (revision 0005) on SQLite and PostgreSQL: the revision goes down and
up again, a code typed by several requests at once is recorded once, and a team finishes
once however many valid answers race."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from alembic import command
from sqlalchemy import create_engine, inspect

from boardlab.store import quest as quest_store
from boardlab.store.db import _alembic_config, current_revision, head_revision, open_store

SQUARE = "IO LP LI LN\nLJ LI LO LC\nID LK LO IJ\n"
TABLES = {"quests", "quest_locations", "quest_codes", "quest_teams", "quest_finds"}


def test_revision_0005_goes_down_and_up_again(empty_url):
    open_store(empty_url).close()
    engine = create_engine(empty_url)
    try:
        assert set(inspect(engine).get_table_names()) >= TABLES
        with engine.begin() as connection:
            command.downgrade(_alembic_config(connection), "0004")
        assert not TABLES & set(inspect(engine).get_table_names())
        assert current_revision(engine) == "0004"
    finally:
        engine.dispose()
    with open_store(empty_url) as store:
        assert current_revision(store.engine) == head_revision()
        quest, key = quest_store.create_quest(store, "again", SQUARE, 3, 4, [(1, 1)],
                                              ["OJIPIOCJ", "OJIKOOCJ", "OJIPIOCJ"],
                                              lambda: "K3Y4AA")
        assert quest.code_count == 2
        assert quest_store.is_organiser(store, quest.id, key)
        assert not quest_store.is_organiser(store, quest.id, key[:-1])
        assert quest_store.has_code(store, quest.id, "OJIKOOCJ")
        assert not quest_store.has_code(store, quest.id, "ojikoocj")


def test_the_store_records_a_find_once_when_two_requests_race(empty_url):
    with open_store(empty_url) as store:
        codes = iter(f"R{i:05d}" for i in range(1000))
        quest, _key = quest_store.create_quest(store, "race", SQUARE, 3, 4,
                                               [(1, 1), (1, 2)], ["OJIPIOCJ"],
                                               lambda: next(codes))
        team, _token = quest_store.join(store, quest.id, "Racers")
        with ThreadPoolExecutor(8) as pool:
            outcomes = list(pool.map(lambda _: quest_store.enter_location(
                store, team.id, "R00000").outcome, range(16)))
        assert sorted(outcomes) == ["already"] * 15 + ["found"]
        (stored,) = quest_store.teams(store, quest.id)
        assert stored.location_tries == 16 and len(stored.found) == 1
        with ThreadPoolExecutor(8) as pool:
            firsts = list(pool.map(lambda _: quest_store.enter_answer(
                store, team.id, "OJIPIOCJ").first, range(8)))
        assert firsts.count(True) == 1
