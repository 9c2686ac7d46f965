"""Tests of Connect Four against its published perft counts and a slow reference
implementation (a plain grid scanned for fours) written independently here."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab import perft
from boardlab.core.game import DRAW, win_for
from boardlab.core.move import Piece, Place
from boardlab.errors import IllegalMoveError, NotationError, OptionError

PERFT_6X7 = (7, 49, 343, 2401, 16807, 117649, 823536, 5673234)


# --- slow reference: a list of columns, each a list of discs from the bottom -------
def ref_winner(columns: list[list[int]], rows: int) -> int | None:
    """The player (0 or 1) with four in a row, scanning every cell and direction."""
    width = len(columns)

    def at(x: int, y: int) -> int | None:
        if 0 <= x < width and 0 <= y < len(columns[x]):
            return columns[x][y]
        return None

    for x in range(width):
        for y in range(rows):
            p = at(x, y)
            if p is None:
                continue
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if all(at(x + k * dx, y + k * dy) == p for k in range(1, 4)):
                    return p
    return None


def ref_moves(columns: list[list[int]], rows: int) -> list[int]:
    """Columns a disc can go in, or none once somebody has won."""
    if ref_winner(columns, rows) is not None:
        return []
    return [x for x, col in enumerate(columns) if len(col) < rows]


def ref_perft(columns: list[list[int]], rows: int, player: int, depth: int) -> list[int]:
    counts = [0] * depth

    def walk(level: int, player: int) -> None:
        moves = ref_moves(columns, rows)
        counts[level] += len(moves)
        if level + 1 < depth:
            for x in moves:
                columns[x].append(player)
                walk(level + 1, 1 - player)
                columns[x].pop()

    walk(0, player)
    return counts


def ref_text(columns: list[list[int]], rows: int, player: int) -> str:
    lines = []
    for y in reversed(range(rows)):
        lines.append("".join("xo"[col[y]] if y < len(col) else "." for col in columns))
    return "/".join(lines) + " " + "xo"[player]


# --- perft -------------------------------------------------------------------------
def test_known_perft_is_the_published_one():
    assert boardlab.load("connect-four").known_perft == PERFT_6X7


def test_perft_to_depth_7():
    state = boardlab.load("connect-four").initial_state()
    assert perft(state, 7) == list(PERFT_6X7[:7])
    assert str(state) == "/".join(["......."] * 6) + " x"


@pytest.mark.parametrize(("rows", "columns", "depth"), [(4, 4, 7), (5, 4, 6), (4, 5, 6)])
def test_perft_on_small_boards_matches_reference(rows, columns, depth):
    state = boardlab.load("connect-four", rows=rows, columns=columns).initial_state()
    expected = ref_perft([[] for _ in range(columns)], rows, 0, depth)
    assert perft(state, depth) == expected


# --- random games against the reference ----------------------------------------------
@pytest.mark.parametrize(("rows", "columns"), [(6, 7), (4, 4), (5, 9)])
def test_random_games_match_reference(rows, columns):
    game = boardlab.load("connect-four", rows=rows, columns=columns)
    rng = random.Random(rows * 100 + columns)
    letters = "abcdefghijklmnopqrstuvwxyz"
    for _ in range(40):
        state = game.initial_state()
        cols: list[list[int]] = [[] for _ in range(columns)]
        player = 0
        keys = [state.key()]
        while True:
            ref = ref_moves(cols, rows)
            assert [m.notation for m in state.legal_moves()] == [letters[x] for x in ref]
            assert str(state) == ref_text(cols, rows, player)
            assert game.parse_state(str(state)) == state
            assert game.parse_state(str(state)).key() == state.key()
            if not ref:
                break
            x = rng.choice(ref)
            move = state.parse_move(letters[x])
            assert move.actions == (Place(len(cols[x]) * columns + x, Piece(player, "XO"[player])),)
            state.apply(move)
            cols[x].append(player)
            player = 1 - player
            keys.append(state.key())
        winner = ref_winner(cols, rows)
        assert state.outcome() == (DRAW if winner is None else win_for(winner))
        if winner is None:
            assert sum(map(len, cols)) == rows * columns
        for expected_key in reversed(keys[:-1]):
            state.undo()
            assert state.key() == expected_key
        assert state == game.initial_state()


# --- tactics -----------------------------------------------------------------------------
def test_vertical_win():
    state = boardlab.load("connect-four").initial_state().play_all(["d", "e", "d", "e", "d", "e"])
    assert not state.is_terminal()
    won = state.play("d")
    assert won.outcome() == win_for(0)
    assert won.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        won.parse_move("a")


def test_horizontal_win_for_second_player():
    state = boardlab.load("connect-four").initial_state()
    state = state.play_all(["a", "b", "a", "c", "a", "d", "g", "e"])
    # O's b1 c1 d1 e1 complete a row: X played g instead of a4.
    assert state.outcome() == win_for(1)


@pytest.mark.parametrize("text,move", [
    # a1 b2 c3 and X to drop on d, which lands on d4
    ("......./......./......./..xo.../.xoo.../xoox.x. x", "d"),
    # the other diagonal: g1 f2 e3 and X to drop on d (lands on d4)
    ("......./......./......./...ox../...oox./.x.xoox x", "d"),
])
def test_diagonal_wins(text, move):
    game = boardlab.load("connect-four")
    state = game.parse_state(text)
    assert state.outcome() is None
    cols = [[] for _ in range(7)]
    rows = text.split()[0].split("/")
    for line in reversed(rows):
        for x, ch in enumerate(line):
            if ch != ".":
                cols[x].append("xo".index(ch))
    cols[3].append(0)
    assert ref_winner(cols, 6) == 0
    assert state.play(move).outcome() == win_for(0)


def test_full_board_without_four_is_a_draw():
    # Pairs of rows repeating a column pattern that never lines up four.
    rows = ["ooxooxo", "xxoxxox", "ooxooxo", "xxoxxox", "ooxooxo", "xxoxxox"]
    cols = [[("xo".index(rows[5 - y][x])) for y in range(6)] for x in range(7)]
    assert ref_winner(cols, 6) is None
    game = boardlab.load("connect-four")
    state = game.parse_state("/".join(rows) + " x")
    assert state.outcome() == DRAW
    assert state.legal_moves() == []
    # ...and the last disc dropped into a nearly full board gives the same draw.
    almost = game.parse_state("/".join(["ooxoox.", *rows[1:]]) + " o")
    assert almost.outcome() is None
    assert almost.play("g").outcome() == DRAW


def test_evaluate_is_antisymmetric_and_bounded():
    game = boardlab.load("connect-four")
    rng = random.Random(7)
    state = game.initial_state()
    assert game.evaluate(state, 0) == 0
    for _ in range(20):
        if state.is_terminal():
            break
        state = state.play(rng.choice(state.legal_moves()))
        for player in (0, 1):
            value = game.evaluate(state, player)
            assert -1 <= value <= 1
        assert game.evaluate(state, 0) == pytest.approx(-game.evaluate(state, 1))
    # an open three is worth more to its owner than to the opponent
    three = game.initial_state().play_all(["c", "c", "d", "d", "e"])
    assert game.evaluate(three, 0) > 0.1


def test_evaluate_a_finished_game_favours_its_winner():
    game = boardlab.load("connect-four")
    for seed in range(20):
        state, rng = game.initial_state(), random.Random(seed)
        while not state.is_terminal():
            state = state.play(rng.choice(state.legal_moves()))
        winner = [p for p in (0, 1) if state.outcome()[p] == 1]
        for p in winner:
            assert game.evaluate(state, p) > 0.9 and game.evaluate(state, 1 - p) < -0.9


# --- notation and options ------------------------------------------------------------
def test_parse_move_errors():
    state = boardlab.load("connect-four").initial_state()
    assert state.parse_move("D").notation == "d"
    for text in ("h", "a1", "aa", "pass", "1", "d d"):
        with pytest.raises(NotationError):
            state.parse_move(text)
    with pytest.raises(NotationError):
        state.parse_move("  ")
    full = state.play_all(["a", "a", "a", "a", "a", "a"])
    assert [m.notation for m in full.legal_moves()] == list("bcdefg")
    with pytest.raises(IllegalMoveError):
        full.parse_move("a")


@pytest.mark.parametrize("text", [
    "......./......./......./......./......./....... z",
    "......./......./......./......./....... x",
    "......../......./......./......./......./....... x",
    "......./......./......./......./......./...q... x",
    "......./......./......./......./...x.../....... o",
    "......./......./......./......./......./.......",
    "x....../x....../x....../x....../oooo.../xxxx... x",
])
def test_malformed_positions(text):
    with pytest.raises(NotationError):
        boardlab.load("connect-four").parse_state(text)


def test_text_form_round_trips_and_is_case_insensitive():
    game = boardlab.load("connect-four")
    state = game.initial_state().play_all(["d", "d", "c", "e"])
    text = str(state)
    assert text == "......./......./......./......./...o.../..xxo.. x"
    assert game.parse_state(text) == state
    assert game.parse_state(text.upper()) == state
    assert game.state_from_json(state.to_json()) == state
    assert "a b c d e f g" in state.render()


def test_options():
    game = boardlab.load("connect-four", rows=5, columns=9)
    state = game.initial_state()
    assert [m.notation for m in state.legal_moves()] == list("abcdefghi")
    assert game.max_length() == 45
    assert game != boardlab.load("connect-four")
    assert boardlab.load("connect-four", rows="6") == boardlab.load("connect-four")
    for bad in ({"rows": 3}, {"columns": 3}, {"rows": 0}, {"size": 7}):
        with pytest.raises(OptionError):
            boardlab.load("connect-four", **bad)
