"""Tests of 3-D tic-tac-toe against brute force written independently here: the
winning lines found among all triples of cells, perft counts from closed forms and
from a naive game-tree walk over tuples."""

from __future__ import annotations

import itertools
import math
import random

import pytest

import boardlab
from boardlab import perft
from boardlab.core.game import win_for
from boardlab.core.move import Piece, Place
from boardlab.errors import IllegalMoveError, NotationError
from boardlab.games.tictactoe3d import LINES

POINTS = list(itertools.product(range(3), repeat=3))  # (x, y, z)


def name(point: tuple[int, int, int]) -> str:
    x, y, z = point
    return f"{'abc'[x]}{y + 1}{'ABC'[z]}"


def collinear(a, b, c) -> bool:
    """Three distinct cells in a line: along each axis the coordinate is constant or
    runs 0, 1, 2 (in either order) with the middle one in the middle."""
    return all(p + r == 2 * q and len({p, q, r}) in (1, 3) for p, q, r in zip(a, b, c, strict=True))


TRUE_LINES = [frozenset(name(p) for p in triple)
              for triple in itertools.combinations(POINTS, 3)
              if any(collinear(*perm) for perm in itertools.permutations(triple))]
NAMES = [name(p) for p in POINTS]


def naive_winner(marks: dict[str, str]) -> str | None:
    for line in TRUE_LINES:
        owners = {marks.get(n) for n in line}
        if len(owners) == 1 and None not in owners:
            return owners.pop()
    return None


def naive_perft(marks: dict[str, str], to_move: str, depth: int) -> list[int]:
    counts = [0] * depth

    def walk(level: int, mover: str) -> None:
        if naive_winner(marks) is not None:
            return
        empty = [n for n in NAMES if n not in marks]
        counts[level] += len(empty)
        if level + 1 < depth:
            for n in empty:
                marks[n] = mover
                walk(level + 1, "o" if mover == "x" else "x")
                del marks[n]

    walk(0, to_move)
    return counts


def test_the_49_lines():
    assert len(TRUE_LINES) == 49
    board = boardlab.load("tic-tac-toe-3d").board
    assert {frozenset(board.cell_name(c) for c in line) for line in LINES} == set(TRUE_LINES)


def test_perft_from_the_empty_cube():
    # No line is complete before X's third mark (ply 5), so the first five levels
    # count every sequence of distinct cells.
    expected = [math.perm(27, k) for k in range(1, 6)]
    assert expected[:4] == [27, 702, 17550, 421200]
    assert perft(boardlab.load("tic-tac-toe-3d").initial_state(), 5) == expected
    assert boardlab.load("tic-tac-toe-3d").known_perft == ()


def test_ply_five_wins_after_an_opening():
    # After X b2B, O a1A, X wins on ply 5 when its next two marks complete one of the
    # 12 lines through b2B that miss a1A (13 lines pass through the centre), in either
    # order, while O's mark in between is on any of the 23 other empty cells.
    game = boardlab.load("tic-tac-toe-3d")
    state = game.initial_state().play_all(["b2B", "a1A"])
    wins = 0
    for m3 in state.legal_moves():
        state.apply(m3)
        for m4 in state.legal_moves():
            state.apply(m4)
            for m5 in state.legal_moves():
                state.apply(m5)
                wins += state.outcome() == win_for(0)
                state.undo()
            state.undo()
        state.undo()
    through_centre = [line for line in TRUE_LINES if "b2B" in line]
    assert len(through_centre) == 13
    assert wins == sum(1 for line in through_centre if "a1A" not in line) * 2 * 23 == 552


@pytest.mark.parametrize(("moves", "depth"), [
    ("b2B a1A a2A c3C", 3),
    ("b1C c3A b3C a2B c3C c2C", 3),
    ("c1C b1A c2C a1B c2A a2B c1A c3A c3B b1C a1A b3B b3C b2A a2A c2B", 5),
    ("a3B c3B b3B a3A a1C b1B b2A c1C c1B c2C c1A a2B c3C b3A b1A b2C a1B a2A a2C c2B", 7),
    ("a2A b2C c1A c3C b3A a3B b2B c3A a2B b1A c3B c2C c1B b1C b3C b3B c2A b2A a1A c2B b1B", 6),
])
def test_perft_matches_naive_walk(moves, depth):
    game = boardlab.load("tic-tac-toe-3d")
    state = game.initial_state().play_all(moves.split())
    marks = {n: "xo"[i % 2] for i, n in enumerate(moves.split())}
    to_move = "xo"[len(marks) % 2]
    counts = naive_perft(marks, to_move, depth)
    assert perft(state, depth) == counts


def test_no_full_cube_is_drawn():
    # Backtracking over every filling with 14 X and 13 O finds none without a line.
    lines_closed_at = {i: [] for i in range(27)}
    for line in TRUE_LINES:
        idx = sorted(NAMES.index(n) for n in line)
        lines_closed_at[idx[-1]].append(idx)
    colour = [0] * 27
    found = []

    def fill(i: int, xs: int, os: int) -> None:
        if found:
            return
        if i == 27:
            found.append(list(colour))
            return
        for c, nx, no in ((1, xs + 1, os), (2, xs, os + 1)):
            if nx > 14 or no > 13:
                continue
            colour[i] = c
            if all(len({colour[a], colour[b], colour[d]}) > 1
                   for a, b, d in lines_closed_at[i]):
                fill(i + 1, nx, no)
        colour[i] = 0

    fill(0, 0, 0)
    assert found == []


def test_random_games_match_naive_rules():
    game = boardlab.load("tic-tac-toe-3d")
    rng = random.Random(11)
    for _ in range(60):
        state = game.initial_state()
        marks: dict[str, str] = {}
        keys = [state.key()]
        while naive_winner(marks) is None and len(marks) < 27:
            assert [m.notation for m in state.legal_moves()] == [
                n for n in sorted(NAMES, key=lambda n: (n[2], n[1], n[0])) if n not in marks]
            assert game.parse_state(str(state)) == state
            assert game.parse_state(str(state)).key() == state.key()
            mover = "xo"[len(marks) % 2]
            choice = rng.choice([n for n in NAMES if n not in marks])
            move = state.parse_move(choice)
            assert move.actions == (Place(game.board.cell(choice), Piece("xo".index(mover),
                                                                         mover.upper())),)
            state.apply(move)
            marks[choice] = mover
            keys.append(state.key())
        winner = naive_winner(marks)
        assert winner is not None
        assert state.outcome() == win_for("xo".index(winner))
        assert state.legal_moves() == []
        for expected_key in reversed(keys[:-1]):
            state.undo()
            assert state.key() == expected_key
        assert state == game.initial_state()


@pytest.mark.parametrize("moves", [
    "a1A a2A b1A b2A c1A",          # a row on level A
    "a1A c3C a1B c3B a1C",          # a vertical column
    "a1A c1A b2A c2A c3A",          # a diagonal of level A
    "a1A c1A a2B c2A a3C",          # a diagonal of the a-file plane
    "a1A b1A b2B c1A c3C",          # a space diagonal
    "a3A c1A b2B a1A c1C",          # the other space diagonal
])
def test_three_in_a_row_wins(moves):
    game = boardlab.load("tic-tac-toe-3d")
    state = game.initial_state().play_all(moves.split()[:-1])
    assert state.outcome() is None
    assert state.play(moves.split()[-1]).outcome() == win_for(0)


def test_second_player_wins():
    state = boardlab.load("tic-tac-toe-3d").initial_state()
    state = state.play_all(["a1A", "b1B", "c1A", "b2B", "a3A", "b3B"])
    assert state.outcome() == win_for(1)
    with pytest.raises(IllegalMoveError):
        state.parse_move("c3C")


def test_parse_move_errors():
    state = boardlab.load("tic-tac-toe-3d").initial_state().play("b2B")
    assert state.parse_move("a1a").notation == "a1A"
    assert state.parse_move("A1A").notation == "a1A"
    with pytest.raises(IllegalMoveError):
        state.parse_move("b2B")
    with pytest.raises(IllegalMoveError):
        state.parse_move("b2b")
    for text in ("d1A", "a4A", "a1D", "a1", "b2", "a1AA", "", "pass", "a1A b1A"):
        with pytest.raises(NotationError):
            state.parse_move(text)


@pytest.mark.parametrize("text", [
    ".../.../...|.../.../... x",
    ".../.../...|.../.../...|.../.../...|.../.../... x",
    ".../.../...|.../..../...|.../.../... x",
    ".../.../...|.../.../...|.../.../.. x",
    ".../.../...|.../.z./...|.../.../... x",
    ".../.../...|.../.../...|.../.../... y",
    ".../.../...|.../.../...|.../.../...",
    "xxx/ooo/...|.../.../...|.../.../... x",
])
def test_malformed_positions(text):
    with pytest.raises(NotationError):
        boardlab.load("tic-tac-toe-3d").parse_state(text)


def test_text_form_round_trips():
    game = boardlab.load("tic-tac-toe-3d")
    state = game.initial_state().play_all(["b2B", "a1A", "c3C"])
    text = str(state)
    assert text == ".../.../o..|.../.x./...|..x/.../... o"
    assert game.parse_state(text) == state
    assert game.parse_state(text.upper()) == state
    assert game.state_from_json(state.to_json()) == state
    assert "a b c" in state.render()
    assert game.max_length() == 27


def test_evaluate():
    game = boardlab.load("tic-tac-toe-3d")
    state = game.initial_state()
    assert game.evaluate(state, 0) == 0
    centre = state.play("b2B")
    corner = state.play("a1A")
    assert game.evaluate(centre, 0) > game.evaluate(corner, 0) > 0
    threat = centre.play_all(["a1A", "a2A"])
    assert -1 <= game.evaluate(threat, 1) < 0 < game.evaluate(threat, 0) <= 1



def test_evaluate_a_finished_game_favours_its_winner():
    game = boardlab.load("tic-tac-toe-3d")
    for seed in range(20):
        state, rng = game.initial_state(), random.Random(seed)
        while not state.is_terminal():
            state = state.play(rng.choice(state.legal_moves()))
        winner = next(p for p in (0, 1) if state.outcome()[p] == 1)  # no draw is possible
        assert game.evaluate(state, winner) > 0.9 > -0.9 > game.evaluate(state, 1 - winner)
