"""Random-simulation conformance for every registered game (after OpenSpiel's
random_sim_test): new games get these checks by registering.

At every step of many seeded random games: clone and undo restore equality, text and
JSON forms round-trip, every legal move applies and undoes, each move's notation
parses back to it, the order of legal moves is deterministic, outcomes appear only at
the end, and the game ends within ``max_length()`` moves.
"""

from __future__ import annotations

import json
import random

import pytest

import boardlab
from boardlab.core.game import State, perft
from boardlab.core.move import Change, Place, Shift

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
MOVES_CHECKED = 12  # legal moves applied/undone per position (a random sample)


def check_position(state: State, rng: random.Random) -> None:
    game = state.game
    moves = state.legal_moves()
    assert moves == state.legal_moves(), "legal move order must be deterministic"
    clone = state.clone()
    assert clone == state and clone.key() == state.key()
    assert clone.legal_moves() == moves
    text = str(state)
    parsed = game.parse_state(text)
    assert parsed == state and str(parsed) == text and parsed.key() == state.key()
    assert parsed.legal_moves() == moves
    data = json.loads(json.dumps(state.to_json()))
    assert game.state_from_json(data) == state
    outcome = state.outcome()
    assert (outcome is None) == bool(moves), "outcome iff no legal move"
    assert len({m.notation for m in moves}) == len(moves), "notations must be unique"
    key = state.key()
    sample = moves if len(moves) <= MOVES_CHECKED else rng.sample(moves, MOVES_CHECKED)
    for move in sample:
        assert state.parse_move(move.notation) == move
        before = {a.source: state.piece_at(a.source) for a in move.actions
                  if isinstance(a, Shift)}
        state.apply(move)
        check_pieces_moved(state, move, before)
        state.undo()
        assert state.key() == key and state == clone, f"undo of {move} changed the state"
        child = state.play(move)
        assert state == clone, "play() must not change the state"
        assert child.key() != key or child != state
    if outcome is not None:
        assert len(outcome) == game.num_players
        assert all(r >= 0 for r in outcome)


def check_pieces_moved(state: State, move, before: dict) -> None:
    """``piece_at`` agrees with the move's actions: a shifted piece stands on its target
    and a placed piece on its cell (unless the same move changes that cell)."""
    changed = {a.cell for a in move.actions if isinstance(a, Change)}
    for a in move.actions:
        if isinstance(a, Shift) and before.get(a.source) is not None \
                and a.target not in changed:
            assert state.piece_at(a.target) == before[a.source], f"{move}: shift to {a.target}"
        if isinstance(a, Place) and a.cell not in changed:
            found = state.piece_at(a.cell)
            assert found is None or found == a.piece, f"{move}: placed on {a.cell}"


@pytest.mark.parametrize("name", by_speed(GAMES))
def test_random_games(name: str) -> None:
    game = boardlab.load(name)
    rng = random.Random(f"conformance:{name}")
    played = checked = 0
    pieces_seen = 0
    while played < MIN_GAMES or (played < MAX_GAMES and checked < POSITIONS):
        state = game.initial_state()
        start = state.clone()
        length = 0
        while True:
            check_position(state, rng)
            checked += 1
            if state.is_terminal():
                break
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
            length += 1
            assert length <= game.max_length(), f"game longer than max_length {length}"
        board = game.board
        assert board is not None
        pieces_seen += sum(1 for c in range(board.size) if state.piece_at(c) is not None)
        for _ in range(length):
            state.undo()
        assert state == start and state.key() == start.key(), "undo all must restore start"
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
