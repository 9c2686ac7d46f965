"""Tests of Othello against the published perft counts (OEIS A124004) and a slow
reference implementation (a dict of cells walked direction by direction) written
independently here."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab import perft
from boardlab.core import kernel
from boardlab.core.engine import Engine
from boardlab.core.game import DRAW, win_for
from boardlab.core.move import Change, Place
from boardlab.errors import IllegalMoveError, NotationError

PUBLISHED_PERFT = (4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288)
FILES = "abcdefgh"
NAMES = [f + r for r in "12345678" for f in FILES]
STEPS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


# --- slow reference: {"d4": "o", ...} walked one step at a time ------------------------
def ref_start() -> dict[str, str]:
    return {"d4": "o", "e5": "o", "d5": "x", "e4": "x"}


def ref_flips(discs: dict[str, str], name: str, colour: str) -> set[str]:
    if name in discs:
        return set()
    other = "o" if colour == "x" else "x"
    x, y = FILES.index(name[0]), int(name[1])
    out: set[str] = set()
    for dx, dy in STEPS:
        run = []
        cx, cy = x + dx, y + dy
        while 0 <= cx < 8 and 1 <= cy <= 8 and discs.get(f"{FILES[cx]}{cy}") == other:
            run.append(f"{FILES[cx]}{cy}")
            cx, cy = cx + dx, cy + dy
        if run and 0 <= cx < 8 and 1 <= cy <= 8 and discs.get(f"{FILES[cx]}{cy}") == colour:
            out.update(run)
    return out


def ref_placements(discs: dict[str, str], colour: str) -> list[str]:
    return [n for n in NAMES if ref_flips(discs, n, colour)]


def ref_text(discs: dict[str, str], colour: str) -> str:
    rows = ["".join(discs.get(f"{f}{r}", ".") for f in FILES) for r in "12345678"]
    return "/".join(rows) + " " + colour


def parse_ref(text: str) -> tuple[dict[str, str], str]:
    board, side = text.split()
    discs = {}
    for r, row in enumerate(board.split("/"), start=1):
        for f, ch in zip(FILES, row, strict=True):
            if ch != ".":
                discs[f"{f}{r}"] = ch
    return discs, side


# --- perft -------------------------------------------------------------------------------
def test_known_perft_is_the_published_one():
    assert boardlab.load("othello").known_perft == PUBLISHED_PERFT


def test_perft_to_depth_7():
    state = boardlab.load("othello").initial_state()
    assert perft(state, 7) == list(PUBLISHED_PERFT[:7])


def test_written_in_the_move_language_and_played_by_its_kernel():
    game = boardlab.load("othello")
    assert kernel.why_not(game) is None
    assert kernel.plan_for(game) is not None
    assert isinstance(game.initial_state(), kernel.KernelPosition)
    plain = game.using(Engine.INTERPRETER).initial_state()
    assert not isinstance(plain, kernel.KernelPosition)
    assert perft(plain, 5) == list(PUBLISHED_PERFT[:5])


def test_start():
    state = boardlab.load("othello").initial_state()
    assert str(state) == ref_text(ref_start(), "x")
    assert [m.notation for m in state.legal_moves()] == ["d3", "c4", "f5", "e6"]
    assert state.to_move == 0
    assert sorted(m.notation for m in state.legal_moves()) == sorted(
        ref_placements(ref_start(), "x"))


# --- random games against the reference -----------------------------------------------------
def test_random_games_match_reference():
    game = boardlab.load("othello")
    rng = random.Random(2024)
    passes = 0
    for _ in range(12):
        state = game.initial_state()
        discs, colour = ref_start(), "x"
        keys = [state.key()]
        while True:
            other = "o" if colour == "x" else "x"
            mine = ref_placements(discs, colour)
            theirs = ref_placements(discs, other)
            moves = state.legal_moves()
            assert str(state) == ref_text(discs, colour)
            assert game.parse_state(str(state)) == state
            assert game.parse_state(str(state)).key() == state.key()
            if not mine and not theirs:
                assert moves == []
                break
            if not mine:
                assert [m.notation for m in moves] == ["pass"]
                assert moves[0].actions == ()
                passes += 1
                state.apply(moves[0])
                colour = other
                keys.append(state.key())
                continue
            assert [m.notation for m in moves] == mine
            move = rng.choice(moves)
            flipped = ref_flips(discs, move.notation, colour)
            player = "xo".index(colour)
            assert move.actions[0] == Place(NAMES.index(move.notation), move.actions[0].piece)
            assert move.actions[0].piece.owner == player
            assert all(isinstance(a, Change) and a.piece.owner == player
                       for a in move.actions[1:])
            assert {NAMES[a.cell] for a in move.actions[1:]} == flipped
            assert len(move.actions) == len(flipped) + 1
            state.apply(move)
            discs[move.notation] = colour
            for name in flipped:
                discs[name] = colour
            colour = other
            keys.append(state.key())
        black = sum(1 for v in discs.values() if v == "x")
        white = len(discs) - black
        expected = DRAW if black == white else win_for(0 if black > white else 1)
        assert state.outcome() == expected
        assert state.disc_counts() == (black, white)
        for expected_key in reversed(keys[:-1]):
            state.undo()
            assert state.key() == expected_key
        assert state == game.initial_state()
    assert passes > 0  # the seed is chosen so that the games include passes


# --- flips, passes, the end --------------------------------------------------------------------
def test_flips_in_all_eight_directions():
    text = "/".join([
        "...x....",  # row 1: d1 closes the run d3 d2
        ".x.o.x..",  # row 2
        "..ooo...",  # row 3
        "xoo.ooox",  # row 4: d4 is empty
        "..ooo...",  # row 5
        ".x.x.x..",  # row 6
        "........",
        "..o....o",  # row 8: white discs no move of d4 reaches
    ]) + " x"
    game = boardlab.load("othello")
    state = game.parse_state(text)
    move = state.parse_move("d4")
    flipped = {NAMES[a.cell] for a in move.actions[1:]}
    expected = {"d3", "d2", "d5", "c4", "b4", "e4", "f4", "g4", "c3", "e3", "c5", "e5"}
    assert flipped == expected
    assert flipped == ref_flips(parse_ref(text)[0], "d4", "x")
    # The new disc, then the flips line by line (n, ne, e, se, s, sw, w, nw; n towards
    # row 8), each from the new disc outwards.
    assert move.actions[0] == Place(NAMES.index("d4"), move.actions[0].piece)
    assert [NAMES[a.cell] for a in move.actions[1:]] == [
        "d5", "e5", "e4", "f4", "g4", "e3", "d3", "d2", "c3", "c4", "b4", "c5"]
    after = state.play(move)
    assert after.disc_counts() == (8 + 1 + 12, 14 - 12)
    assert str(after) == "/".join([
        "...x....", ".x.x.x..", "..xxx...", "xxxxxxxx", "..xxx...", ".x.x.x..",
        "........", "..o....o"]) + " o"


def test_pass_in_a_real_game():
    game = boardlab.load("othello")
    opening = ["f5", "f6", "c4", "g5", "h5", "h4", "g7", "h6"]
    state = game.initial_state().play_all(opening)
    discs = ref_start()
    for i, name in enumerate(opening):
        colour = "xo"[i % 2]
        assert name in ref_placements(discs, colour)
        for flipped in ref_flips(discs, name, colour):
            discs[flipped] = colour
        discs[name] = colour
    # black is to move, has no placement, but white has
    assert ref_placements(discs, "x") == []
    assert ref_placements(discs, "o") != []
    assert state.to_move == 0
    assert not state.is_terminal()
    assert [m.notation for m in state.legal_moves()] == ["pass"]
    after = state.play("pass")
    assert after.to_move == 1
    assert [m.notation for m in after.legal_moves()] == ref_placements(discs, "o")
    assert str(after) == ref_text(discs, "o")
    # and passing is illegal when one can place a disc
    with pytest.raises(IllegalMoveError):
        after.parse_move("pass")
    with pytest.raises(IllegalMoveError):
        state.parse_move("d3")


def test_shortest_game_wipeout():
    # A nine-move game in which white is wiped off the board.
    game = boardlab.load("othello")
    state = game.initial_state().play_all(["d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4"])
    assert state.outcome() == win_for(0)
    assert state.disc_counts() == (13, 0)
    assert state.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        state.parse_move("pass")


@pytest.mark.parametrize(("board", "expected"), [
    ("x" * 33 + "o" * 31, win_for(0)),
    ("x" * 32 + "o" * 32, DRAW),
    ("o" * 40 + "x" * 24, win_for(1)),
    ("x" * 10 + "." * 54, win_for(0)),
    ("x......o" + "." * 56, DRAW),
])
def test_game_ends_when_neither_side_can_move(board, expected):
    text = "/".join(board[i:i + 8] for i in range(0, 64, 8)) + " o"
    state = boardlab.load("othello").parse_state(text)
    assert state.outcome() == expected
    assert state.legal_moves() == []


def test_evaluate():
    game = boardlab.load("othello")
    state = game.initial_state()
    assert game.evaluate(state, 0) == 0
    rows = ["........"] * 3 + ["...ox...", "...xo...", "........", "........", "........"]
    plain = game.parse_state("/".join(rows) + " o")
    corner = game.parse_state("/".join(["x......."] + rows[1:]) + " o")
    assert game.evaluate(corner, 0) > game.evaluate(plain, 0) + 0.1
    rng = random.Random(3)
    for _ in range(30):
        if state.is_terminal():
            break
        state = state.play(rng.choice(state.legal_moves()))
        assert -1 <= game.evaluate(state, 0) <= 1
        assert game.evaluate(state, 0) == pytest.approx(-game.evaluate(state, 1))


# --- notation ----------------------------------------------------------------------------------
def test_parse_move_errors():
    state = boardlab.load("othello").initial_state()
    assert state.parse_move("D3").notation == "d3"
    for text in ("a1", "d4", "pass", "PASS"):
        with pytest.raises(IllegalMoveError):
            state.parse_move(text)
    for text in ("i1", "a9", "a0", "d33", "3d", "xx", "d3 d4", "", "pas"):
        with pytest.raises(NotationError):
            state.parse_move(text)


@pytest.mark.parametrize("text", [
    "......../......../......../...ox.../...xo.../......../......../........ b",
    "......../......../......../...ox.../...xo.../......../........ x",
    "......../......../......../...ox.../...xo.../......../......../......... x",
    "......../......../......../...oz.../...xo.../......../......../........ x",
    "......../......../......../...ox.../...xo.../......../......../........",
])
def test_malformed_positions(text):
    with pytest.raises(NotationError):
        boardlab.load("othello").parse_state(text)


def test_text_form_round_trips():
    game = boardlab.load("othello")
    state = game.initial_state().play_all(["f5", "d6", "c3"])
    text = str(state)
    assert text == "......../......../..x...../...xx.../...oxx../...o..../......../........ o"
    assert game.parse_state(text) == state
    assert game.parse_state(text.upper()) == state
    assert game.state_from_json(state.to_json()) == state
    assert game.parse_state(text).legal_moves() == state.legal_moves()
    assert "a b c d e f g h" in state.render()
