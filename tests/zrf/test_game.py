"""ZRF games played: perft of imported files against published counts and against
boardlab's hand-written twins, and a sample of the corpus playing random games."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import boardlab
from boardlab.core.game import perft
from boardlab.errors import ZrfError
from boardlab.zrf.game import load_game

CORPUS = Path(__file__).resolve().parents[1] / "data" / "zrf"


def game(path: str, **options):
    return load_game(CORPUS / path, name=path, **options)


def test_breakthrough_equals_the_hand_written_game():
    imported = game("breakthrough/breakthrough.zrf")
    assert perft(imported.initial_state(), 3) == \
        perft(boardlab.load("breakthrough").initial_state(), 3) == [22, 484, 11132]


def test_english_checkers_perft_is_published():
    # Aart Bik's perft of English checkers (a multi-jump is one move): 7, 49, 302, 1469,
    # 7361, 36768, 179740, ...
    assert perft(game("checkers/english-checkers.zrf").initial_state(), 6) == \
        [7, 49, 302, 1469, 7361, 36768]


def test_chess_perft_is_published():
    # The file's king safety comes from its checkmated goal; castling and promotion do
    # not differ from chess this shallow.
    assert perft(game("chess/chess.zrf").initial_state(), 3) == [20, 400, 8902]


def test_moves_read_like_the_file():
    state = game("chess/chess.zrf").initial_state()
    notations = [m.notation for m in state.legal_moves()]
    assert "e2-e4" in notations and "g1-f3" in notations
    state = state.play_all(["e2-e4", "d7-d5"])
    assert "e4xd5" in [m.notation for m in state.legal_moves()]
    assert boardlab.load  # the registry is untouched by imported games


def test_text_form_round_trips():
    g = game("checkers/english-checkers.zrf")
    state = g.initial_state()
    rng = random.Random(3)
    for _ in range(30):
        assert g.parse_state(str(state)) == state
        moves = state.legal_moves()
        if not moves:
            break
        state = state.play(moves[rng.randrange(len(moves))])


@pytest.mark.parametrize("path", sorted(
    str(p.relative_to(CORPUS)) for p in CORPUS.glob("*/*.zrf"))[::23])
def test_a_sample_of_the_corpus_plays(path):
    try:
        g = game(path, max_moves=60)
    except ZrfError as e:
        pytest.skip(f"refused at load: {e}")
    rng = random.Random(path)
    for _ in range(2):
        state = g.initial_state()
        while not state.is_terminal():
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        assert state.outcome() is not None


def test_bad_files_name_file_line_and_column(tmp_path):
    bad = tmp_path / "bad.zrf"
    bad.write_text("(game (title \"x\")\n (players A B)\n (board (grid (dimensions (\"a/b\" (1 0)) "
                   "(\"1/2\" (0 1))) (directions (n 0 1))))\n (piece (name P) (moves (n (varify "
                   "empty?) add)))\n (board-setup (A (P a1))))\n")
    with pytest.raises(ZrfError, match=r"bad.zrf:4:28: unsupported ZRF instruction 'varify'"):
        load_game(bad, name="bad.zrf")
    bad.write_text("(game (players A B) (board (grid (dimensions (\"a/b\" (1 0))))) "
                   "(piece (name P)) (board-setup (A (P c9))))")
    with pytest.raises(ZrfError, match="board-setup puts P on 'c9', which is not a position"):
        load_game(bad, name="bad.zrf")
