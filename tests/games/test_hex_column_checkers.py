"""Tests of hex column checkers against an independent reference generator.

The reference below works on a plain dict board in *doubled* hex coordinates (``x`` in
half-cell steps, ``y`` the row), reads the shipped shapes from pictures drawn here by
row widths, and in the Turkish-strike mode removes captured men only when the move is
over (as the Russian draughts code states) instead of on the fly like the game.
"""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.core.game import DRAW, perft, win_for
from boardlab.core.move import Piece, Shift
from boardlab.errors import IllegalMoveError, NotationError, OptionError
from boardlab.games.hex_column_checkers import HexColumnState, cells_text, parse_cells

NAME = "hex-column-checkers"

# --- the reference generator ----------------------------------------------------------------
XY = tuple[int, int]
NEIGHBOURS: tuple[XY, ...] = ((2, 0), (-2, 0), (1, 1), (-1, 1), (1, -1), (-1, -1))
FORWARD = {0: ((1, 1), (-1, 1)), 1: ((1, -1), (-1, -1))}
WIDTHS = {
    "hexagon": [5, 6, 7, 8, 9, 8, 7, 6, 5],
    "hexagon-6": [6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6],
    "diamond": [1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1],
    "star": [1, 2, 3, 10, 9, 8, 7, 8, 9, 10, 3, 2, 1],
}


def picture(widths: list[int]) -> list[str]:
    """Rows of centred hexagons, top row first."""
    widest = max(widths)
    return [" " * (widest - w) + " ".join("o" * w) for w in widths]


class RefBoard:
    """Cells of a picture in doubled coordinates, with their names and setup."""

    def __init__(self, rows: list[str], setup: int | None = None):
        height = len(rows)
        self.cells: set[XY] = {(x, height - 1 - t) for t, row in enumerate(rows)
                               for x, ch in enumerate(row) if ch == "o"}
        self.height = height
        parity = {(x + y) % 2 for x, y in self.cells}
        assert len(parity) == 1
        low_q = min((x + y) // 2 for x, y in self.cells)
        self.name = {(x, y): f"{chr(ord('a') + y)}{(x + y) // 2 - low_q + 1}"
                     for x, y in self.cells}
        self.cell = {n: c for c, n in self.name.items()}
        self.setup = setup if setup is not None else (height - 2) // 2

    def start(self) -> dict[XY, str]:
        top = self.height - 1
        out = {}
        for x, y in self.cells:
            if y < self.setup:
                out[(x, y)] = "w"
            elif top - y < self.setup:
                out[(x, y)] = "b"
        return out


def ref_moves(board: RefBoard, pos: dict[XY, str], player: int, *, rejump: bool = False,
              majority: bool = False) -> dict[str, dict[XY, str]]:
    """Notation -> position after the move."""
    me = "wb"[player]
    captures: dict[str, tuple[dict[XY, str], int]] = {}

    def walk(now: dict[XY, str], at: XY, column: str, path: list[XY], jumped: list[XY]
             ) -> None:
        extended = False
        for dx, dy in NEIGHBOURS:
            mid, land = (at[0] + dx, at[1] + dy), (at[0] + 2 * dx, at[1] + 2 * dy)
            if mid not in board.cells or land not in board.cells or now.get(land):
                continue
            over = now.get(mid, "")
            if not over or over[0] == me or (not rejump and mid in jumped):
                continue
            extended = True
            if rejump:  # men are taken on the fly
                after = dict(now)
                if over[1:]:
                    after[mid] = over[1:]
                else:
                    del after[mid]
                walk(after, land, column + over[0], path + [land], jumped + [mid])
            else:  # Turkish strike: jumped columns stay whole until the move ends
                walk(now, land, column + over[0], path + [land], jumped + [mid])
        if not extended and path:
            final = dict(now)
            if not rejump:
                for mid in jumped:
                    rest = final[mid][1:]
                    if rest:
                        final[mid] = rest
                    else:
                        del final[mid]
            final[path[-1]] = column
            text = "x".join(board.name[c] for c in [start, *path])
            assert text not in captures
            captures[text] = (final, len(jumped))

    for start, column in sorted(pos.items()):
        if column[0] == me:
            lifted = dict(pos)
            del lifted[start]
            walk(lifted, start, column, [], [])
    if captures:
        most = max(n for _, n in captures.values())
        return {t: p for t, (p, n) in captures.items() if not majority or n == most}
    steps = {}
    for (x, y), column in pos.items():
        if column[0] != me:
            continue
        for dx, dy in FORWARD[player]:
            to = (x + dx, y + dy)
            if to in board.cells and to not in pos:
                after = dict(pos)
                after[to] = after.pop((x, y))
                steps[f"{board.name[(x, y)]}-{board.name[to]}"] = after
    return steps


def ref_perft(board: RefBoard, pos: dict[XY, str], player: int, depth: int) -> list[int]:
    counts = [0] * depth

    def walk(p: dict[XY, str], who: int, level: int) -> None:
        moves = ref_moves(board, p, who)
        counts[level] += len(moves)
        if level + 1 < depth:
            for child in moves.values():
                walk(child, 1 - who, level + 1)

    walk(pos, player, 0)
    return counts


def ref_position(board: RefBoard, state: HexColumnState) -> dict[XY, str]:
    layout = str(state).split()[0]
    if layout == "-":
        return {}
    return {board.cell[name]: column for name, _, column in
            (item.partition("=") for item in layout.split(","))}


def game_position(state: HexColumnState) -> dict[str, str]:
    name = state.game.board.cell_name
    return {name(c): s for c, s in enumerate(state.stacks) if s}


def named(board: RefBoard, pos: dict[XY, str]) -> dict[str, str]:
    return {board.name[c]: s for c, s in pos.items()}


# --- perft ---------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", sorted(WIDTHS))
def test_perft_matches_reference(shape: str) -> None:
    game = boardlab.load(NAME, shape=shape)
    board = RefBoard(picture(WIDTHS[shape]))
    start = game.initial_state()
    assert game_position(start) == named(board, board.start())
    assert set(game.board.names) == set(board.name.values())
    expected = ref_perft(board, board.start(), 0, 3)
    assert perft(start, 3) == expected


def test_known_perft_depth_4_with_captures() -> None:
    game = boardlab.load(NAME)
    board = RefBoard(picture(WIDTHS["hexagon"]))
    expected = ref_perft(board, board.start(), 0, 4)
    assert list(game.known_perft) == expected
    assert perft(game.initial_state(), 4) == expected


@pytest.mark.parametrize("options", [
    {}, {"rejump": True}, {"majority": True}, {"shape": "star"}, {"shape": "diamond"},
    {"shape": "hexagon-6", "rejump": True, "majority": True},
])
def test_random_positions_match_reference(options: dict) -> None:
    game = boardlab.load(NAME, **options)
    board = RefBoard(picture(WIDTHS[options.get("shape", "hexagon")]))
    rng = random.Random(f"hcc:{sorted(options.items())}")
    captures = multi = 0
    for _ in range(6):
        state = game.initial_state()
        while not state.is_terminal():
            pos = ref_position(board, state)
            expected = ref_moves(board, pos, state.to_move, rejump=game.options["rejump"],
                                 majority=game.options["majority"])
            moves = state.legal_moves()
            assert {m.notation for m in moves} == set(expected), str(state)
            for move in moves:
                assert game_position(state.play(move)) == named(board, expected[move.notation])
                captures += "x" in move.notation
                multi += move.notation.count("x") > 1
            state.apply(rng.choice(moves))
    assert captures > 50 and multi > 5  # the comparison covered real captures


# --- capture rules ----------------------------------------------------------------------------
def load_position(text: str, **options) -> HexColumnState:
    return boardlab.load(NAME, **options).parse_state(text)


def test_capture_takes_top_man_under_the_capturer_and_frees_the_column() -> None:
    state = load_position("e5=w,f6=bww,a1=w,i9=b white")
    assert [m.notation for m in state.legal_moves()] == ["e5xg7"]
    after = state.play("e5xg7")
    assert after.column_at(after.game.board.cell("g7")) == "wb"
    freed = after.game.board.cell("f6")
    assert after.column_at(freed) == "ww"  # the rest of the column stays where it was
    assert after.piece_at(freed) == Piece(0, "man")  # and now belongs to White
    assert after.column_at(after.game.board.cell("e5")) == ""


def test_jumping_a_tall_column_takes_only_its_top() -> None:
    state = load_position("e5=wb,f6=bwww black")
    after = state.play("f6xd4")
    cells = after.game.board.cell
    assert after.column_at(cells("d4")) == "bwwww"
    assert after.column_at(cells("e5")) == "b"


def test_piece_at_is_the_top_man() -> None:
    state = load_position("e5=bww,a1=w white")
    cell = state.game.board.cell("e5")
    assert state.piece_at(cell) == Piece(1, "man")
    assert state.piece_at(state.game.board.cell("e6")) is None


def test_capture_is_compulsory() -> None:
    quiet = load_position("c3=w,i9=b white")
    assert len(quiet.legal_moves()) == 2
    state = load_position("c3=w,e5=w,f6=b,i9=b white")
    assert [m.notation for m in state.legal_moves()] == ["e5xg7"]
    with pytest.raises(IllegalMoveError):
        state.play("c3-d4")


def test_multi_jump_must_be_completed() -> None:
    state = load_position("e5=w,f6=b,g8=b,a1=b white")
    assert [m.notation for m in state.legal_moves()] == ["e5xg7xg9"]
    after = state.play("e5xg7xg9")
    cells = after.game.board.cell
    assert after.column_at(cells("g9")) == "wbb"
    assert after.column_at(cells("f6")) == after.column_at(cells("g8")) == ""


def test_captures_go_in_all_six_directions() -> None:
    board = boardlab.load(NAME).board
    around = ["e6", "e4", "f6", "d4", "f5", "d5"]  # e, w, ne, sw, nw, se of e5
    for name in around:
        state = load_position(f"e5=w,{name}=b white")
        moves = state.legal_moves()
        assert len(moves) == 1 and moves[0].notation.startswith("e5x"), name
        assert board.cell_name(moves[0].actions[0].target) != "e5"


def test_turkish_strike_forbids_jumping_a_column_twice() -> None:
    text = "e5=w,f6=bb,a1=b white"
    assert [m.notation for m in load_position(text).legal_moves()] == ["e5xg7"]
    after = load_position(text).play("e5xg7")
    assert after.column_at(after.game.board.cell("f6")) == "b"
    rejump = load_position(text, rejump=True)
    assert [m.notation for m in rejump.legal_moves()] == ["e5xg7xe5"]
    back = rejump.play("e5xg7xe5")
    cells = back.game.board.cell
    assert back.column_at(cells("e5")) == "wbb" and back.column_at(cells("f6")) == ""
    move = rejump.legal_moves()[0]
    assert move.actions[0] == Shift(cells("e5"), cells("e5"))


def test_a_capture_may_end_where_it_started() -> None:
    # jump landings are two steps apart, so a column never lands on a cell it jumped,
    # but it may come back round a triangle to the cell it started from
    state = load_position("e5=w,f6=b,g6=b,f5=b,a1=b white")
    assert {m.notation for m in state.legal_moves()} == {"e5xg7xg5xe5", "e5xg5xg7xe5"}
    after = state.play("e5xg7xg5xe5")
    cells = after.game.board.cell
    assert after.column_at(cells("e5")) == "wbbb"
    assert all(after.column_at(cells(n)) == "" for n in ("f6", "g6", "f5", "g7", "g5"))


def test_any_capture_sequence_or_the_majority() -> None:
    text = "e5=w,f6=b,g8=b,e4=b,a1=b white"
    free = {m.notation for m in load_position(text).legal_moves()}
    assert free == {"e5xg7xg9", "e5xe3"}
    most = {m.notation for m in load_position(text, majority=True).legal_moves()}
    assert most == {"e5xg7xg9"}


# --- no kings, endings ---------------------------------------------------------------------
def test_no_kings_a_man_on_the_far_row_stays_a_man() -> None:
    state = load_position("h6=w,e5=b white")
    after = state.play("h6-i7")
    cell = after.game.board.cell("i7")
    assert after.piece_at(cell) == Piece(0, "man") and after.column_at(cell) == "w"
    after = after.play("e5-d4")
    assert after.to_move == 0 and after.legal_moves() == []  # a man cannot step further
    assert after.outcome() == win_for(1)


def test_a_man_on_the_far_row_still_captures_backward() -> None:
    state = load_position("i7=w,h6=b,a1=b white")
    assert [m.notation for m in state.legal_moves()] == ["i7xg5"]
    after = state.play("i7xg5")
    cell = after.game.board.cell("g5")
    assert after.column_at(cell) == "wb" and after.piece_at(cell).kind == "man"


def test_men_step_only_forward() -> None:
    white = load_position("e5=w,a1=b white")
    assert {m.notation for m in white.legal_moves()} == {"e5-f5", "e5-f6"}
    black = load_position("e5=b,i9=w black")
    assert {m.notation for m in black.legal_moves()} == {"e5-d4", "e5-d5"}


def test_no_columns_loses_and_move_limit_draws() -> None:
    state = load_position("e5=b black")
    assert state.outcome() is None
    state = load_position("e5=b white")
    assert state.legal_moves() == [] and state.outcome() == win_for(1)
    game = boardlab.load(NAME, move_limit=12)
    assert game.max_length() == 12
    state = game.parse_state("c3=w,g7=b white ply:12")
    assert state.legal_moves() == [] and state.outcome() == DRAW
    assert boardlab.load(NAME).max_length() == 5 * 61


# --- shapes ------------------------------------------------------------------------------
def test_shipped_shapes() -> None:
    sizes = {s: boardlab.load(NAME, shape=s).board.size for s in WIDTHS}
    assert sizes == {"hexagon": 61, "hexagon-6": 91, "diamond": 49, "star": 73}
    men = {s: len(boardlab.load(NAME, shape=s).initial_state().legal_moves()) for s in WIDTHS}
    assert men == {"hexagon": 14, "hexagon-6": 18, "diamond": 10, "star": 16}


def test_custom_shape_pairs_and_picture_agree_and_set_up_by_rows() -> None:
    rows = [" o o o", "o o o o", " o o o", "o o o o", " o o o"]
    text = "/".join(rows)
    cells = parse_cells(text)
    pairs = boardlab.load(NAME, shape="custom", cells=cells_text(cells))
    drawn = boardlab.load(NAME, shape="custom", cells="\n".join(rows))
    assert pairs.board.coords == drawn.board.coords and pairs.board.size == 17
    state = drawn.initial_state()
    ref = RefBoard(rows)
    assert ref.setup == 1
    assert game_position(state) == named(ref, ref.start())
    assert perft(state, 3) == ref_perft(ref, ref.start(), 0, 3)
    two = boardlab.load(NAME, shape="custom", cells=text, rows=2).initial_state()
    assert sorted(game_position(two).values()).count("w") == 7


def test_custom_shape_with_holes_plays_by_its_links() -> None:
    rows = ["o o o o o", " o . o o", "o o o o o", " o o . o", "o o o o o"]
    game = boardlab.load(NAME, shape="custom", cells="/".join(rows))
    ref = RefBoard([r.replace(".", " ") for r in rows])
    assert game.board.size == len(ref.cells) == 21
    state = game.initial_state()
    assert perft(state, 3) == ref_perft(ref, ref.start(), 0, 3)


@pytest.mark.parametrize(("options", "problem"), [
    ({"shape": "custom"}, "cells' is empty"),
    ({"cells": "0,0 1,0"}, "needs shape=custom"),
    ({"shape": "custom", "cells": "0,0 1,0 0,1 0,2 0,3 5,5"}, "not connected"),
    ({"shape": "custom", "cells": "0,0 1,0 0,1 1,1 2,2"}, "at least 4"),
    ({"shape": "custom", "cells": "0,0 0,1 0,2 0,3 0,0"}, "listed twice"),
    ({"shape": "custom", "cells": "0,0 0;1 x"}, "not an axial pair"),
    ({"shape": "custom", "cells": "o o/o o/o o/o o"}, "between two hex positions"),
    ({"shape": "custom", "cells": " o o/o # o/ o o/o o o"}, "'#'"),
    ({"shape": "custom", "cells": "0,0 0,1 0,2 0,3", "rows": 2}, "do not fit"),
    ({"shape": "custom", "cells": "0,0 0,1 0,2 0,3 0,99"}, "too far"),
    ({"shape": "square"}, "must be one of"),
])
def test_invalid_custom_shapes_name_the_problem(options: dict, problem: str) -> None:
    with pytest.raises(OptionError, match=problem.replace("(", r"\(")):
        boardlab.load(NAME, **options)


def test_minimal_custom_shape_plays() -> None:
    game = boardlab.load(NAME, shape="custom", cells="0,0 0,1 0,2 0,3")
    state = game.initial_state()
    assert game_position(state) == {"a1": "w", "d1": "b"}
    assert [m.notation for m in state.legal_moves()] == ["a1-b1"]


# --- notation, text, selection, evaluation -------------------------------------------------
def test_text_round_trips_with_stacks() -> None:
    state = load_position("e5=wbw,f6=b,a1=bbw black ply:9")
    assert str(state) == "a1=bbw,e5=wbw,f6=b black ply:9"
    again = state.game.parse_state(str(state))
    assert again == state and again.key() == state.key()
    other = load_position("e5=wbb,f6=b,a1=bbw black ply:9")
    assert other.key() != state.key()
    with pytest.raises(NotationError):
        state.game.parse_state("e5=wx black")
    with pytest.raises(NotationError):
        state.game.parse_state("z9=w black")


def test_notation_errors() -> None:
    state = boardlab.load(NAME).initial_state()
    with pytest.raises(NotationError):
        state.parse_move("c3+d4")
    with pytest.raises(NotationError):
        state.parse_move("c3-z9")
    with pytest.raises(IllegalMoveError):
        state.parse_move("c3-c4")
    assert state.parse_move("c3-d4").notation == "c3-d4"


def test_closure_and_group_moves() -> None:
    game = boardlab.load(NAME)
    state = game.initial_state()
    cell = game.board.cell("c3")
    moves = game.group_moves(state, [cell])
    assert {m.notation for m in moves} == {"c3-d3", "c3-d4"}
    for move in moves:
        assert game.closure(state, [cell], move) == [cell]
    assert game.group_moves(state, [cell, game.board.cell("c4")]) == []
    capture = load_position("e5=w,f6=bw,a1=b white")
    e5 = capture.game.board.cell("e5")
    (move,) = capture.legal_moves()
    assert game.closure(capture, [e5], move) == [e5]
    assert game.group_moves(capture, [e5]) == [move]


def test_evaluation() -> None:
    game = boardlab.load(NAME)
    start = game.initial_state()
    assert game.evaluate(start, 0) == pytest.approx(0.0)
    ahead = game.parse_state("e5=wb,a1=w,i9=b black")
    assert 0 < game.evaluate(ahead, 0) <= 1 and game.evaluate(ahead, 1) < 0
    rng = random.Random(3)
    state = start.clone()
    for _ in range(80):
        if state.is_terminal():
            break
        assert -1 <= game.evaluate(state, state.to_move) <= 1
        state.apply(rng.choice(state.legal_moves()))


def test_info_and_registration() -> None:
    game = boardlab.load(NAME)
    info = game.info()
    assert {o["name"] for o in info["options"]} == {"shape", "cells", "rows", "majority",
                                                   "rejump", "move_limit"}
    assert "Bashni" in game.source and "Hexdame" in game.rules
