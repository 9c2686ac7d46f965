"""Random-simulation conformance for every registered game (the invariants of
:mod:`boardlab.core.conformance`, after OpenSpiel's random_sim_test): new games get
these checks by registering."""

from __future__ import annotations

import json
import random

import pytest

import boardlab
from boardlab.core.conformance import check_random_game
from boardlab.core.game import perft

GAMES = boardlab.names()
# Random games per registered game: at least MIN_GAMES, and more until POSITIONS positions
# have been checked (at most MAX_GAMES). A count of work, not of seconds, so every machine
# checks the same positions.
MIN_GAMES, MAX_GAMES = 3, 30
POSITIONS = 3000
# Games whose positions are slow to expand (seconds for 3000 positions).
SLOW_GAMES = {"abalone", "epaminondas", "ordo", "ordo-x"}


def by_speed(names: list[str]) -> list:
    """``names`` as test parameters, the slow games marked ``slow``."""
    return [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_GAMES else n for n in names]


@pytest.mark.parametrize("name", by_speed(GAMES))
def test_random_games(name: str) -> None:
    game = boardlab.load(name)
    rng = random.Random(f"conformance:{name}")
    played = checked = 0
    pieces_seen = 0
    while played < MIN_GAMES or (played < MAX_GAMES and checked < POSITIONS):
        positions, pieces = check_random_game(game, rng)
        checked += positions
        pieces_seen += pieces
        played += 1
    assert pieces_seen, "piece_at must show the pieces on the board (UIs and selection use it)"


@pytest.mark.parametrize("name", GAMES)
def test_metadata(name: str) -> None:
    cls = boardlab.core.registry.game_class(name)
    game = boardlab.load(name)
    assert game.name == name and cls.description.strip() and "\n" not in cls.description
    assert game.rules.strip(), "rules text (docstring) is required"
    assert game == boardlab.load(name) and hash(game) == hash(boardlab.load(name))
    info = game.info()
    assert json.loads(json.dumps(info))["name"] == name
    board = game.board
    assert board is not None, "every classic game exposes its board for renderers"
    assert board.size > 0 and all(board.cell(n) == i for i, n in enumerate(board.names))
    for option in game.option_schema:
        assert game.options[option.name] == option.default


PERFT_NODE_BUDGET = 300_000


@pytest.mark.parametrize("name", by_speed([n for n in GAMES if boardlab.core.registry
                                           .game_class(n).known_perft]))
def test_known_perft_shallow(name: str) -> None:
    """Published perft counts, as deep as fits a small node budget (all levels run in
    benchmarks/perft.py)."""
    game = boardlab.load(name)
    known = game.known_perft
    depth = 0
    while depth < len(known) and sum(known[: depth + 1]) <= PERFT_NODE_BUDGET:
        depth += 1
    assert depth >= 2
    assert perft(game.initial_state(), depth) == list(known[:depth])
