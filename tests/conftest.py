"""Shared test helpers: a sandbox game for exercising the move language, and an empty
database of every supported kind."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from sqlalchemy import create_engine, text

from boardlab.core.board import Board
from boardlab.core.game import Returns
from boardlab.core.move import Piece
from boardlab.core.position import PieceGame, PieceState
from boardlab.core.rules import Rules, Template
from boardlab.core.ruleset import RuleSet

# Hypothesis's own clocks (a 200 ms deadline per example, the "input generation is
# slow" health check) are wall-clock assertions: on a busy two-core machine they failed
# tests whose inputs and answers were right. The examples and their checks stay as each
# test sets them; only the clocks are off, suite-wide.
settings.register_profile("boardlab", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("boardlab")

FRIEND_MAN = Piece(0, "man")
ENEMY_MAN = Piece(1, "man")


def sandbox(board: Board, templates: Sequence[Template], placement: Mapping[str, str],
            *, pieces: Mapping[str, Piece] | None = None, invariants=(),
            reserves: Mapping[Piece, int] | None = None, to_move: int = 0,
            recycle_promotions: bool = False, **rules: Any) -> PieceState:
    """A position of an unregistered game with the given board, rules and pieces.

    ``placement`` maps cell names to symbols (``X`` = player 0's man, ``O`` = player 1's
    unless ``pieces`` says otherwise); ``rules``: more fields of its
    :class:`~boardlab.core.turn.Rules`; ``recycle_promotions`` the rule set's switch.
    The game never ends by itself.
    """
    symbols = dict(pieces or {"X": FRIEND_MAN, "O": ENEMY_MAN})

    class Sandbox(PieceGame):
        name = "sandbox"
        description = "test game"
        player_names = ("x", "o")

        def make_ruleset(self) -> RuleSet:
            return self.named_ruleset(
                board=board, placement={cell: symbols[s] for cell, s in placement.items()},
                reserves=dict(reserves or {}), recycle_promotions=recycle_promotions,
                rules=Rules(list(templates), invariants=list(invariants), **rules))

        def result(self, state: PieceState) -> Returns | None:
            return None

    Sandbox.pieces = symbols
    state = Sandbox().initial_state()
    if to_move:
        state._to_move = to_move  # a test-only shortcut; keys are not compared here
    return state


@pytest.fixture
def make_sandbox():
    """The :func:`sandbox` factory as a fixture."""
    return sandbox


#: The PostgreSQL database the store's and the web app's tests may use (.ci/run sets it).
POSTGRES_ENV = "BOARDLAB_TEST_POSTGRES_URL"


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_url(request, tmp_path) -> Iterator[str]:
    """The URL of an empty database: an SQLite file, or a fresh schema in the PostgreSQL
    database of ``BOARDLAB_TEST_POSTGRES_URL`` (dropped afterwards)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'migrate.db'}"
        return
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set")
    schema = f"test_{uuid.uuid4().hex}"
    admin = create_engine(base)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    separator = "&" if "?" in base else "?"
    try:
        yield f"{base}{separator}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
