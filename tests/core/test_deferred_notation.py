"""Deferred notation: generated moves write their notation when it is first read, and it
is the notation the game writes for the position the move was generated in, however the
position has changed since."""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest

import boardlab
from boardlab.core.board import Board
from boardlab.core.move import Change, Move, Piece, Place, Shift, Spelling, format_actions
from boardlab.core.rules import EMPTY, Add, Step, Template, Verify
from tests.conftest import sandbox

CORPUS = Path(__file__).resolve().parents[1] / "data" / "zrf"


def _games():
    from boardlab.zrf.game import load_game

    out = [boardlab.load(n) for n in ("breakthrough", "abalone", "taacoca", "epaminondas",
                                      "ordo")]
    out += [load_game(CORPUS / p) for p in ("chess/chess.zrf", "shogi-family/mini-shogi.zrf",
                                            "other-games/gess.zrf")]
    return out


@pytest.mark.parametrize("game", _games(), ids=lambda g: g.name)
def test_a_deferred_notation_is_the_one_written_when_the_move_was_made(game):
    assert game.defers_notation
    rng = random.Random(game.name)
    state = game.initial_state()
    for _ in range(12):
        if state.is_terminal():
            break
        moves = state.legal_moves()
        assert all(not isinstance(m[0], str) for m in moves)  # nothing written yet
        eager = [game.notation(state, m.actions) for m in moves]
        pending = list(moves)
        state.apply(rng.choice(moves))
        # Read one ply later, on a position that has changed.
        assert [m.notation for m in pending] == eager
        assert [str(m) for m in pending] == eager


def test_a_game_whose_notation_reads_the_position_writes_it_at_once():
    board = Board.square(3, 3)
    sandboxed = type(sandbox(board, [Template((Step("n"), Verify(EMPTY), Add()))],
                             {"a1": "X", "c3": "O"}).game)

    class Counting(sandboxed):  # type: ignore[valid-type, misc]
        def notation(self, state, actions):
            # The mover's pieces, read from the position, then the move.
            return f"{len(state.pieces_of(state.to_move))}:{format_actions(actions, board)}"

    game = Counting()
    assert not game.defers_notation
    moves = game.initial_state().legal_moves()
    assert [m[0] for m in moves] == ["1:a1-a2"]


def test_deferred_moves_compare_hash_and_pickle_as_written_ones():
    writes = []

    def write(actions):
        writes.append(actions)
        return f"m{actions[0].source}"

    spelling = Spelling(write)
    move = Move(spelling, (Shift(1, 2),), "tag")
    assert hash(move) == hash(Move("m1", (Shift(1, 2),)))
    assert writes == []  # hashing writes nothing
    assert move == Move("m1", (Shift(1, 2),))
    assert move != Move("m2", (Shift(1, 2),))
    again = pickle.loads(pickle.dumps(move))
    assert again == move and again[0] == "m1" and again.tag == "tag"
    assert writes == [(Shift(1, 2),)]  # written once, then remembered
    with pytest.raises(TypeError):
        sorted([move, again])


def test_a_drop_and_a_change_of_one_cell_and_piece_are_spelt_apart():
    # Equal fields, different actions (a kernel spells the moves of every position with
    # one Spelling, and a set of moves keeps both).
    board = Board.square(3, 3)
    spell = Spelling(lambda actions: format_actions(actions, board))
    king = Piece(0, "king")
    assert Place(2, king) != Change(2, king)
    assert len({(Place(2, king),), (Change(2, king),)}) == 2
    assert Place(2, king) == Place(2, king) and hash(Place(2, king)) == hash(Place(2, king))
    assert spell((Place(2, king),)) == "0:king@c1"
    assert spell((Change(2, king),)) == "c1=0:king"
