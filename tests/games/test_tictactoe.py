"""Tic-tac-toe and its misère form against the published counts: 255,168 games and
5,478 distinct positions (including the empty board), 958 terminal positions."""

from __future__ import annotations

from fractions import Fraction

import pytest

import boardlab
from boardlab.core.game import perft
from boardlab.errors import NotationError


def walk(state, seen, games):
    seen.add(state.signature())
    if state.is_terminal():
        games[state.outcome()] = games.get(state.outcome(), 0) + 1
        return
    for move in state.legal_moves():
        state.apply(move)
        walk(state, seen, games)
        state.undo()


def test_games_and_distinct_positions():
    seen: set = set()
    games: dict = {}
    walk(boardlab.load("tic-tac-toe").initial_state(), seen, games)
    assert sum(games.values()) == 255_168
    assert len(seen) == 5_478
    # Published split of the 255,168 games: X wins 131,184, O wins 77,904, draws 46,080.
    assert games[(Fraction(1), Fraction(0))] == 131_184
    assert games[(Fraction(0), Fraction(1))] == 77_904
    assert games[(Fraction(1, 2), Fraction(1, 2))] == 46_080


def test_misere_swaps_the_winner_but_not_the_tree():
    seen: set = set()
    games: dict = {}
    walk(boardlab.load("misere-tic-tac-toe").initial_state(), seen, games)
    assert sum(games.values()) == 255_168 and len(seen) == 5_478
    assert games[(Fraction(0), Fraction(1))] == 131_184  # X completed the line: X loses
    assert perft(boardlab.load("misere-tic-tac-toe").initial_state(), 9)[-1] == 127_872


@pytest.mark.parametrize("text", ["", "x.o/.x. o", "x.o/.x./..q o", "x.o/.x./... z"])
def test_bad_positions_are_reported(text):
    with pytest.raises(NotationError):
        boardlab.load("tic-tac-toe").parse_state(text)


def test_text_form_and_render():
    state = boardlab.load("tic-tac-toe").initial_state().play_all(["a1", "b2", "c3"])
    assert str(state) == "..x/.o./x.. o"
    assert state.ply == 3 and boardlab.load("tic-tac-toe").parse_state(str(state)).ply == 3
    assert state.render().splitlines()[0] == " 3  . . x"
