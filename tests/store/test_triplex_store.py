"""The Triplex tables of revision 0004 on SQLite and PostgreSQL: a start token records one
solve, the tables' figures, the medians ``reorder`` reads, players with scrypt-hashed
secrets and their progress, and the server's keys made once.

Figures are checked against :mod:`statistics` over the rows the test inserted, and the
hash against :func:`hashlib.scrypt` called here with the stored salt and parameters.
"""

from __future__ import annotations

import hashlib
import statistics
import threading

import pytest
from sqlalchemy import select

from boardlab.store.db import open_store
from boardlab.store.leaderboard import (
    SolveRow,
    TokenUsedError,
    add_solve,
    level_board,
    level_table,
    median_times,
    players_table,
)
from boardlab.store.players import (
    NoPlayerError,
    PlayerError,
    PlayerRow,
    WrongSecretError,
    claim_player,
    find_player,
    progress_of,
    save_progress,
)
from boardlab.store.secrets import server_secret


def test_a_token_records_one_solve(empty_url):
    with open_store(empty_url) as store:
        add_solve(store, "ab", 1, "Ada", 30, token="a" * 32, client="k1", client_seconds=2)
        for name in ("Ada", "Bob"):
            with pytest.raises(TokenUsedError):
                add_solve(store, "ab", 1, name, 31, token="a" * 32)
        add_solve(store, "ab", 1, "Bob", 40, token="b" * 32)
        add_solve(store, "ab", 1, "Old", 9, timed=False)  # no token: never a collision
        add_solve(store, "ab", 1, "Old", 9, timed=False)
        with store.session() as session:
            found = [(r.name, r.token, r.client, r.client_seconds, r.timed)
                     for r in session.scalars(select(SolveRow).order_by(SolveRow.id))]
    assert found == [("Ada", "a" * 32, "k1", 2.0, True), ("Bob", "b" * 32, None, None, True),
                     ("Old", None, None, None, False), ("Old", None, None, None, False)]


def test_the_tables_and_the_medians(empty_url):
    rows = [("ab", 1, "Ada", 40.0, False, True, "k1"), ("ab", 1, "Bot", 0.3, True, True, "k9"),
            ("ab", 1, "Bob", 70.0, False, True, "k2"), ("ab", 1, "Cy", 41.0, False, True, "k2"),
            ("ab", 2, "Bot", 0.5, True, True, "k9"), ("ab", 2, "Old", 5.0, False, False, None),
            ("ab", 2, "Bob", 90.0, False, True, "k2"), ("zz", 1, "Zed", 1.0, False, True, "k3")]
    with open_store(empty_url) as store:
        for pack, level, name, seconds, suspect, timed, client in rows:
            add_solve(store, pack, level, name, seconds, suspect=suspect, timed=timed,
                      client=client)
        table = level_table(store, "ab", 3)
        players = players_table(store, "ab")
        medians = median_times(store, "ab")
        single = level_board(store, "ab", 2)
    assert [board.level for board in table] == [1, 2, 3]
    for board in table:
        mine = [r for r in rows if r[0] == "ab" and r[1] == board.level]
        counted = [r[3] for r in mine if r[5] and not r[4]]
        assert board.solves == len(mine) and board.suspect == sum(r[4] for r in mine)
        assert board.median_seconds == (statistics.median(counted) if counted else None)
        assert board.best_seconds == (min(counted) if counted else None)
        assert board.timed == len(counted)
        assert board.clients == len({r[6] for r in mine if r[6] is not None})
        first = next((r[2] for r in mine if not r[4]), None)
        assert (board.first.name if board.first else None) == first
    assert single == table[1]
    assert medians == {1: (3, statistics.median([40.0, 70.0, 41.0])), 2: (1, 90.0)}
    assert {p.name: (p.levels, p.first_solves, p.solves) for p in players} == {
        "Ada": (1, 1, 1), "Bot": (2, 0, 2), "Bob": (2, 0, 2), "Cy": (1, 0, 1),
        "Old": (1, 1, 1)}
    # Most levels, then most first solves, then by name.
    assert [p.name for p in players] == ["Bob", "Bot", "Ada", "Old", "Cy"]


def test_players_and_their_progress(empty_url):
    with open_store(empty_url) as store:
        ada = claim_player(store, "Ada", "correct horse")
        assert claim_player(store, "ADA", "correct horse") == ada
        assert find_player(store, "ada", "correct horse") == ada
        with pytest.raises(WrongSecretError, match="wrong secret for player 'Ada'"):
            claim_player(store, "Ada", "wrong horse!")
        with pytest.raises(NoPlayerError):
            find_player(store, "Bob", "correct horse")
        with pytest.raises(PlayerError, match="at least 8"):
            claim_player(store, "Bob", "short")
        bob = claim_player(store, "Bob", "another secret")
        assert bob.id != ada.id
        assert save_progress(store, ada, "ab", 5, "CODE-0005").level == 5
        assert save_progress(store, ada, "ab", 4, "CODE-0004").code == "CODE-0005"
        assert save_progress(store, ada, "ab", 7, "CODE-0007").code == "CODE-0007"
        save_progress(store, ada, "cd", 2, "CODE-0002")
        save_progress(store, bob, "ab", 1, "CODE-0001")
        assert [(p.pack, p.level, p.code) for p in progress_of(store, ada)] == [
            ("ab", 7, "CODE-0007"), ("cd", 2, "CODE-0002")]
        assert [p.level for p in progress_of(store, bob, "ab")] == [1]
        assert progress_of(store, bob, "cd") == []
        with store.session() as session:
            row = session.scalars(select(PlayerRow).where(PlayerRow.name == "Ada")).one()
            other = session.scalars(select(PlayerRow).where(PlayerRow.name == "Bob")).one()
    _, n, r, p = row.kdf.split(":")
    assert bytes(row.digest) == hashlib.scrypt(b"correct horse", salt=bytes(row.salt),
                                               n=int(n), r=int(r), p=int(p),
                                               maxmem=64 * 2**20, dklen=32)
    assert bytes(row.salt) != bytes(other.salt) and len(bytes(row.salt)) == 16


def test_the_servers_keys_are_made_once(empty_url):
    with open_store(empty_url) as store:
        found: list[bytes] = []
        threads = [threading.Thread(target=lambda: found.append(server_secret(store, "t")))
                   for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(set(found)) == 1 and len(found[0]) == 32
        assert server_secret(store, "other") != found[0]
    with open_store(empty_url) as store:
        assert server_secret(store, "t") == found[0]
