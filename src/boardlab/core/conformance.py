"""The invariants every game must keep, checked on random games (after OpenSpiel's
random_sim_test).

At every position: legal moves come in a deterministic order, a clone and the text and
JSON forms give back the same position, every move sampled applies and undoes, its
notation parses back to it, the pieces it moves stand where it says, an outcome appears
exactly when there is no legal move; a game ends within ``max_length()`` moves and
undoing it all restores the start. The test suite runs these on every registered game
and on a sample of imported rule files; ``boardlab zrf check --verify`` on a folder.
"""

from __future__ import annotations

import json
import random

from boardlab.core.game import Game, State
from boardlab.core.move import Change, Move, Place, Shift

MOVES_CHECKED = 12  # legal moves applied and undone per position (a random sample)


class ConformanceError(AssertionError):
    """A game broke one of the protocol's invariants (a bug in the game or its rules)."""


def _require(ok: bool, message: str) -> None:
    if not ok:
        raise ConformanceError(message)


def check_position(state: State, rng: random.Random, moves_checked: int = MOVES_CHECKED
                   ) -> None:
    """Check the invariants at ``state``, applying and undoing up to ``moves_checked``
    of its legal moves chosen with ``rng``; raise :class:`ConformanceError`."""
    game = state.game
    moves = state.legal_moves()
    _require(moves == state.legal_moves(), "legal move order must be deterministic")
    clone = state.clone()
    _require(clone == state and clone.key() == state.key(), "a clone differs")
    _require(clone.legal_moves() == moves, "a clone has other moves")
    text = str(state)
    parsed = game.parse_state(text)
    _require(parsed == state and str(parsed) == text and parsed.key() == state.key(),
             f"the text form does not round-trip: {text!r}")
    _require(parsed.legal_moves() == moves, f"the position read back has other moves: {text!r}")
    data = json.loads(json.dumps(state.to_json()))
    _require(game.state_from_json(data) == state, "the JSON form does not round-trip")
    outcome = state.outcome()
    _require((outcome is None) == bool(moves), "an outcome must appear iff no move is legal")
    _require(len({m.notation for m in moves}) == len(moves),
             f"two legal moves share a notation at {text!r}")
    key = state.key()
    sample = moves if len(moves) <= moves_checked else rng.sample(moves, moves_checked)
    for move in sample:
        _require(state.parse_move(move.notation) == move,
                 f"{move.notation!r} does not parse back to its move at {text!r}")
        before = {a.source: state.piece_at(a.source) for a in move.actions
                  if isinstance(a, Shift)}
        state.apply(move)
        check_pieces_moved(state, move, before)
        state.undo()
        _require(state.key() == key and state == clone, f"undo of {move} changed {text!r}")
        child = state.play(move)
        _require(state == clone, "play() must not change the state")
        _require(child.key() != key or child != state, f"{move} changes nothing")
    if outcome is not None:
        _require(len(outcome) == game.num_players, "an outcome needs one value per player")
        _require(all(r >= 0 for r in outcome), "outcome values are never negative")


def check_pieces_moved(state: State, move: Move, before: dict) -> None:
    """``piece_at`` agrees with the move's actions: a shifted piece stands on its target
    and a placed piece on its cell (unless the same move changes that cell)."""
    changed = {a.cell for a in move.actions if isinstance(a, Change)}
    for a in move.actions:
        if isinstance(a, Shift) and before.get(a.source) is not None \
                and a.target not in changed:
            _require(state.piece_at(a.target) == before[a.source],
                     f"{move}: the piece shifted to {a.target} is not there")
        if isinstance(a, Place) and a.cell not in changed:
            found = state.piece_at(a.cell)
            _require(found is None or found == a.piece, f"{move}: the piece placed on "
                     f"{a.cell} is not there")


def check_random_game(game: Game, rng: random.Random, moves_checked: int = MOVES_CHECKED
                      ) -> tuple[int, int]:
    """Play one random game of ``game`` with ``rng``, checking every position, then undo
    it all; return (positions checked, pieces on the board at the end)."""
    state = game.initial_state()
    start = state.clone()
    length = 0
    while True:
        check_position(state, rng, moves_checked)
        if state.is_terminal():
            break
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
        length += 1
        _require(length <= game.max_length(), f"a game longer than max_length {length}")
    board = game.board
    pieces = 0 if board is None else sum(
        1 for c in range(board.size) if state.piece_at(c) is not None)
    for _ in range(length):
        state.undo()
    _require(state == start and state.key() == start.key(), "undo all must restore start")
    return length + 1, pieces
