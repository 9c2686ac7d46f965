"""Tests of Epaminondas against a brute-force generator written here from Abbott's rules
(plain Python on a grid of rows, no move language), and of each special rule."""

from __future__ import annotations

import random

import pytest

from boardlab import load
from boardlab.core import kernel
from boardlab.core.engine import Engine
from boardlab.core.game import DRAW, perft, win_for
from boardlab.core.move import Capture, Shift
from boardlab.errors import IllegalMoveError, OptionError
from boardlab.games.epaminondas import is_mirror_symmetric
from tests.core.test_kernel import play_both
from tests.games.conftest import ends_as_reference

VECTORS = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]


# --- the reference: positions are {(x, y): owner}, moves are (shifts, captures) -----------

def reference_moves(pieces: dict, mover: int, width: int, height: int) -> dict:
    """notation -> (frozenset of ((x, y), (x, y)) shifts, frozenset of captured (x, y))."""
    if crossed(pieces, mover, height) > crossed(pieces, 1 - mover, height):
        return {}  # the mover has already won
    far = height - 1 if mover == 0 else 0

    def on(x, y):
        return 0 <= x < width and 0 <= y < height

    out = {}
    for (x, y), owner in pieces.items():
        if owner != mover:
            continue
        for dx, dy in VECTORS:
            line = [(x, y)]  # the rear piece and every own piece contiguous ahead
            while pieces.get((line[-1][0] + dx, line[-1][1] + dy)) == mover:
                line.append((line[-1][0] + dx, line[-1][1] + dy))
            hx, hy = line[-1]
            for k in range(1, len(line) + 1):
                path = [(hx + dx * i, hy + dy * i) for i in range(1, k + 1)]
                if not all(on(*c) for c in path) or any(c in pieces for c in path[:-1]):
                    break
                captured = []
                if path[-1] in pieces:
                    if pieces[path[-1]] == mover:
                        break
                    cx, cy = path[-1]
                    while pieces.get((cx, cy)) == 1 - mover:
                        captured.append((cx, cy))
                        cx, cy = cx + dx, cy + dy
                    if len(captured) >= len(line):
                        break
                shifts = frozenset(((px, py), (px + dx * k, py + dy * k)) for px, py in line)
                after = {c: o for c, o in pieces.items()
                         if c not in captured and c not in line}
                after.update({(px + dx * k, py + dy * k): mover for px, py in line})
                onto_far = any(t[1] == far and s[1] != far for s, t in shifts)
                if onto_far and mirrored(after, width, height):
                    continue  # the anti-copycat rule
                sep = "x" if captured else "-"
                name = f"{cell_name(x, y)}{sep}{cell_name(x + dx * k, y + dy * k)}"
                assert name not in out
                out[name] = (shifts, frozenset(captured))
    return out


def crossed(pieces: dict, player: int, height: int) -> int:
    far = height - 1 if player == 0 else 0
    return sum(1 for (_, y), o in pieces.items() if o == player and y == far)


def mirrored(pieces: dict, width: int, height: int) -> bool:
    return all(pieces.get((x, height - 1 - y)) == 1 - o for (x, y), o in pieces.items())


def cell_name(x: int, y: int) -> str:
    return f"{'abcdefghijklmn'[x]}{y + 1}"


def reference_play(pieces: dict, move: tuple) -> dict:
    shifts, captured = move
    mover = pieces[next(iter(shifts))[0]]
    after = {c: o for c, o in pieces.items()
             if c not in captured and c not in {s for s, _ in shifts}}
    after.update({t: mover for _, t in shifts})
    return after


def reference_perft(pieces: dict, mover: int, depth: int, width: int, height: int) -> list:
    counts = [0] * depth

    def walk(position, side, level):
        moves = reference_moves(position, side, width, height)
        counts[level] += len(moves)
        if level + 1 < depth:
            for move in moves.values():
                walk(reference_play(position, move), 1 - side, level + 1)

    walk(pieces, mover, 0)
    return counts


def start(width: int, height: int) -> dict:
    pieces = {}
    for x in range(width):
        for y in (0, 1):
            pieces[(x, y)] = 0
            pieces[(x, height - 1 - y)] = 1
    return pieces


def as_reference(state) -> dict:
    board = state.game.board
    return {board.coords[c]: p.owner for c, p in state.occupied()}


def as_moves(state) -> dict:
    board = state.game.board
    out = {}
    for m in state.legal_moves():
        shifts = frozenset((board.coords[a.source], board.coords[a.target])
                           for a in m.actions if isinstance(a, Shift))
        captured = frozenset(board.coords[a.cell] for a in m.actions if isinstance(a, Capture))
        out[m.notation] = (shifts, captured)
    return out


# --- helpers ----------------------------------------------------------------------------

def position(cells: dict[str, str], side: str = "white", size: str = "8x8", **options):
    """A position on an otherwise empty board: cell name -> ``W`` or ``B``."""
    game = load("epaminondas", size=size, **options)
    width, height = game.width, game.height
    rows = [["."] * width for _ in range(height)]
    for name, symbol in cells.items():
        c = game.board.cell(name)
        x, y = game.board.coords[c]
        rows[height - 1 - y][x] = symbol
    return game.parse_state("/".join("".join(r) for r in rows) + " " + side)


def notations(state) -> set[str]:
    return {m.notation for m in state.legal_moves()}


# --- perft and move sets against the reference ---------------------------------------------

@pytest.mark.parametrize("size,width,height,depth", [("14x12", 14, 12, 2), ("8x8", 8, 8, 2)])
def test_perft_matches_reference(size, width, height, depth):
    game = load("epaminondas", size=size)
    expected = reference_perft(start(width, height), 0, depth, width, height)
    assert perft(game.initial_state(), depth) == expected


def test_known_perft_is_the_reference_count():
    # Depth 3 (1787292 on 14x12, 269278 on 8x8) takes the reference about a minute:
    # it was checked once against the game, outside the suite.
    assert list(load("epaminondas").known_perft[:2]) == reference_perft(start(14, 12), 0, 2,
                                                                        14, 12)
    assert load("epaminondas").known_perft[2] == 1787292


def test_first_moves_by_hand():
    # 8x8: 3 northward moves per file; per diagonal direction 5 * 2 + 1 from row 1 and
    # 7 from row 2; sideways lines are stuck between the board's edges.
    state = load("epaminondas", size="8x8").initial_state()
    assert len(state.legal_moves()) == 24 + 2 * 18
    assert {"a1-a2", "a1-a3", "a2-a3", "a1-c3", "f1-g2", "h1-f3"} <= notations(state)
    assert "g1-h2" not in notations(state)  # h2 cannot move north-east off the board


@pytest.mark.parametrize("size,plies", [("8x8", 120), ("14x12", 60)])
def test_move_sets_match_reference_on_random_games(size, plies):
    game = load("epaminondas", size=size)
    width, height = game.width, game.height
    rng = random.Random(f"epaminondas:{size}")
    checked = 0
    for _ in range(3):
        state = game.initial_state()
        for ply in range(plies):
            if state.is_terminal():
                break
            if ply % 4 == 0 or ply > plies - 6:
                assert as_moves(state) == reference_moves(as_reference(state), state.to_move,
                                                          width, height)
                checked += 1
            state = state.play(rng.choice(state.legal_moves()))
    assert checked > 30


# --- phalanx moves -----------------------------------------------------------------------

def test_phalanx_moves_at_most_its_length():
    state = position({"c3": "W", "c4": "W", "h8": "B"})
    got = notations(state)
    assert {"c3-c4", "c3-c5"} <= got and "c3-c6" not in got  # two pieces: 1 or 2 cells
    assert {"c4-c5"} <= got and "c4-c6" not in got  # the front piece alone: 1 cell
    assert {"c4-c3", "c4-c2"} <= got  # backwards along the line, from the other end
    assert "c4-c1" not in got
    long = position({"a1": "W", "b2": "W", "c3": "W", "h8": "B"})
    assert {"a1-b2", "a1-c3", "a1-d4"} <= notations(long)
    assert "a1-e5" not in notations(long)


def test_whole_phalanx_shifts_and_front_part_splits():
    state = position({"c2": "W", "c3": "W", "c4": "W", "h8": "B"})
    c = state.game.board.cell
    move = state.parse_move("c2-c5")
    assert set(move.actions) == {Shift(c("c2"), c("c5")), Shift(c("c3"), c("c6")),
                                 Shift(c("c4"), c("c7"))}
    split = state.parse_move("c3-c5")  # the front two move, c2 stays
    assert set(split.actions) == {Shift(c("c3"), c("c5")), Shift(c("c4"), c("c6"))}
    assert "c3-c6" not in notations(state)


def test_blocked_by_own_pieces():
    state = position({"c3": "W", "c4": "W", "c6": "W", "h8": "B"})
    got = notations(state)
    assert "c3-c4" in got  # c3 c4 -> c4 c5
    assert "c3-c5" not in got  # c4 would land on the own piece c6
    assert "c6-c5" in got and "c6-c4" not in got  # c6 alone moves one cell
    square = position({"a1": "W", "a2": "W", "b1": "W", "b2": "W", "h8": "B"})
    assert {"a1-a3", "a1-c1", "a1-c3"} <= notations(square)
    # a2-b2 moves the line a2 b2, never a2 alone onto b2: no move lands on an own piece
    # that stays.
    for move in square.legal_moves():
        sources = {a.source for a in move.actions if isinstance(a, Shift)}
        for a in move.actions:
            if isinstance(a, Shift) and square.piece_at(a.target) is not None:
                assert a.target in sources
    assert len(square.parse_move("a2-b2").actions) == 2


def test_cannot_pass_through_enemy_pieces():
    state = position({"c2": "W", "c3": "W", "c4": "W", "c5": "B", "h8": "B"})
    got = notations(state)
    assert "c2xc3" in got  # lands on c5, the first enemy
    assert "c2-c4" not in got and "c2xc4" not in got  # would pass across c5


# --- captures ------------------------------------------------------------------------------

def test_capture_of_a_strictly_shorter_line_in_line():
    two_v_one = position({"c2": "W", "c3": "W", "c4": "B", "h8": "B"})
    move = two_v_one.parse_move("c2xc3")
    c = two_v_one.game.board.cell
    assert Capture(c("c4")) in move.actions
    after = two_v_one.play(move)
    assert after.piece_at(c("c4")).owner == 0 and after.piece_at(c("c3")).owner == 0
    assert after.piece_at(c("c2")) is None
    # Two against two (the enemy line going on behind the hit piece): no capture.
    two_v_two = position({"c2": "W", "c3": "W", "c4": "B", "c5": "B", "h8": "B"})
    assert not any("x" in n for n in notations(two_v_two))
    # Three against two: both enemies are captured.
    three_v_two = position({"c1": "W", "c2": "W", "c3": "W", "c4": "B", "c5": "B",
                            "h8": "B"})
    move = three_v_two.parse_move("c1xc2")
    assert {a.cell for a in move.actions if isinstance(a, Capture)} == {c("c4"), c("c5")}
    # Longer enemy line: no capture.
    two_v_three = position({"c2": "W", "c3": "W", "c4": "B", "c5": "B", "c6": "B"})
    assert not any("x" in n for n in notations(two_v_three))


def test_capture_at_a_distance_within_range():
    state = position({"c1": "W", "c2": "W", "c3": "W", "c5": "B", "h8": "B"})
    got = notations(state)
    assert "c1xc3" in got  # three move two cells, the head lands on c5
    far = position({"c1": "W", "c2": "W", "c6": "B", "h8": "B"})
    assert not any("x" in n for n in notations(far))  # c6 is three cells ahead of c2


def test_only_the_enemy_line_in_the_direction_of_the_move_counts():
    # The enemy d4 heads a horizontal line d4 e4 f4 of three, but in the direction of the
    # vertical phalanx d2 d3 it is alone: captured, and e4, f4 stay.
    state = position({"d2": "W", "d3": "W", "d4": "B", "e4": "B", "f4": "B"})
    c = state.game.board.cell
    move = state.parse_move("d2xd3")
    assert [a.cell for a in move.actions if isinstance(a, Capture)] == [c("d4")]
    after = state.play(move)
    assert after.piece_at(c("e4")).owner == 1 and after.piece_at(c("f4")).owner == 1


def test_not_in_line_no_capture_and_single_pieces_never_capture():
    # The enemy is diagonal to a vertical phalanx's head: the phalanx cannot take it.
    state = position({"c2": "W", "c3": "W", "d4": "B", "h8": "B"})
    assert not any("x" in n for n in notations(state))
    assert "c3xd4" not in notations(state)
    lone = position({"c3": "W", "c4": "B", "h8": "B"})
    assert not any("x" in n for n in notations(lone))


# --- the crossing rule and the anti-copycat rule ---------------------------------------------

def test_crossing_wins_only_at_the_start_of_the_crossers_next_turn():
    state = position({"c7": "W", "a3": "B", "h3": "B"})
    crossed_ = state.play("c7-c8")
    assert not crossed_.is_terminal()  # Black gets a turn to answer
    assert crossed_.to_move == 1
    after = crossed_.play("a3-a4")  # Black does not answer
    assert after.outcome() == win_for(0) and after.legal_moves() == []


def test_crossing_answered_by_capture_or_equal_crossing():
    state = position({"c6": "W", "c7": "W", "b8": "B", "a8": "B", "h2": "B"})
    crossed_ = state.play("c6-c7")  # c6 c7 -> c7 c8 (c8 on the far row)
    captured = crossed_.play("a8xb8")  # the row a8 b8 (two) captures the lone c8
    assert captured.piece_at(captured.game.board.cell("c8")).owner == 1
    assert not captured.play("c7-c6").is_terminal()
    equal = crossed_.play("h2-h1")  # one Black piece crosses too: 1 against 1
    assert not equal.is_terminal() and not equal.play("c7-d6").is_terminal()
    more = position({"c7": "W", "d7": "W", "a3": "B", "h2": "B"}).play("c7-c8")
    more = more.play("h2-h1").play("d7-d8")  # 2 against 1 at Black's turn: not yet
    assert not more.is_terminal()
    assert more.play("a3-a4").outcome() == win_for(0)


def test_black_wins_by_crossing_too():
    state = position({"c2": "B", "h7": "W"}, side="black")
    after = state.play("c2-c1").play("h7-h6")
    assert after.to_move == 1 and after.outcome() == win_for(1)


@pytest.mark.parametrize("engine", [Engine.INTERPRETER, Engine.KERNEL],
                         ids=["interpreter", "kernel"])
def test_copycat_crossing_is_illegal(engine):
    # White crossed on c8; Black's mirror answer c2-c1 would make the position
    # symmetric between the home rows with colours swapped, so it is not allowed;
    # b1 and d1 are.
    mirror = position({"c8": "W", "d7": "W", "c2": "B", "d2": "B"}, side="black",
                      engine=engine)
    # Without the mirror image (e5 has no Black twin on e4) the same crossing is legal.
    free = position({"c8": "W", "e5": "W", "c2": "B"}, side="black", engine=engine)
    # Moves that do not enter the far row may leave a symmetric position.
    quiet = position({"c7": "W", "c3": "B"}, side="black", engine=engine)
    # A phalanx whose head alone enters the far row, making the mirror image: refused;
    # its head alone may go.
    line = position({"c8": "W", "c7": "W", "f5": "W", "c3": "B", "c2": "B", "f4": "B"},
                    side="black", engine=engine)
    assert isinstance(mirror, kernel.KernelPosition) == (engine is Engine.KERNEL)
    assert "c2-c1" not in notations(mirror)
    assert {"c2-b1", "c2-d1"} <= notations(mirror)
    assert not mirror.play("c2-d1").is_terminal()  # 1 against 1
    assert "c2-c1" in notations(free)
    assert "c3-c2" in notations(quiet)
    assert "c3-c2" not in notations(line) and "c2-c1" in notations(line)


@pytest.mark.parametrize(("size", "seeds", "plies"), [("8x8", range(4), 300),
                                                      ("14x12", range(2), 200)])
def test_plays_on_its_kernel_as_the_interpreter_plays_it(size, seeds, plies):
    # Random games on both, move for move (notation, actions, template), with the same
    # outcome, key, text and history at every ply and on the way back.
    game = load("epaminondas", size=size)
    assert sum(play_both(game, seed, plies) for seed in seeds) > 100


def test_mirror_symmetry_helper():
    state = position({"c8": "W", "c1": "B"})
    assert is_mirror_symmetric(state.cells, 8, 8)
    assert is_mirror_symmetric(load("epaminondas").initial_state().cells, 14, 12)
    assert not is_mirror_symmetric(position({"c8": "W", "d1": "B"}).cells, 8, 8)


# --- other endings and options ---------------------------------------------------------------

def test_player_without_pieces_loses_and_move_limit_draws():
    state = position({"c2": "W", "c3": "W", "c4": "B"})
    after = state.play("c2xc3")
    assert after.legal_moves() == [] and after.outcome() == win_for(0)
    limited = position({"a1": "W", "h8": "B"}, max_moves=2)
    after = limited.play("a1-a2").play("h8-h7")
    assert after.outcome() == DRAW
    assert load("epaminondas", max_moves=50).max_length() == 50


def test_options_and_board():
    game = load("epaminondas")
    assert (game.width, game.height, game.board.size) == (14, 12, 168)
    assert len(game.initial_state().pieces_of(0)) == 28 == len(game.initial_state().pieces_of(1))
    small = load("epaminondas", size="8x8")
    assert len(small.initial_state().pieces_of(1)) == 16
    with pytest.raises(OptionError):
        load("epaminondas", size="10x10")
    text = str(small.initial_state())
    assert text == "BBBBBBBB/BBBBBBBB/......../......../......../......../WWWWWWWW/WWWWWWWW white"
    assert small.parse_state(text) == small.initial_state()


def test_notation_is_unique_and_parses():
    state = load("epaminondas").initial_state()
    moves = state.legal_moves()
    assert len({m.notation for m in moves}) == len(moves)
    assert state.parse_move("a1-c3").notation == "a1-c3"
    with pytest.raises(IllegalMoveError):
        state.parse_move("a1-a4")


def test_evaluate():
    game = load("epaminondas", size="8x8")
    assert game.evaluate(game.initial_state(), 0) == 0
    ahead = position({"c2": "W", "c3": "W", "c7": "W", "h8": "B"})
    assert game.evaluate(ahead, 0) > 0 > game.evaluate(ahead, 1)
    far = position({"c8": "W", "h8": "B"})
    near = position({"c6": "W", "h8": "B"})
    assert game.evaluate(far, 0) > game.evaluate(near, 0)
    assert -1 <= game.evaluate(far, 1) <= 1


# --- selection: closure and group moves ----------------------------------------------------

def test_closure_grows_along_the_line():
    state = position({"c2": "W", "c3": "W", "c4": "W", "h8": "B"})
    game = state.game
    c = game.board.cell
    long_push = state.parse_move("c2-c5")
    assert sorted(game.closure(state, [c("c2")], long_push)) == [c("c2"), c("c3"), c("c4")]
    short = state.parse_move("c3-c5")  # the front two, two cells
    assert sorted(game.closure(state, [c("c3")], short)) == [c("c3"), c("c4")]
    assert game.closure(state, [c("c4")], state.parse_move("c4-c5")) == [c("c4")]


def test_group_moves():
    state = position({"c2": "W", "c3": "W", "h8": "B"})
    game = state.game
    c = game.board.cell
    both = {m.notation for m in game.group_moves(state, [c("c2"), c("c3")])}
    assert both == {"c2-c3", "c2-c4", "c3-c2"}  # c3-c1 would push c2 off the board
    alone = {m.notation for m in game.group_moves(state, [c("c3")])}
    assert alone == {"c3-b4", "c3-d4", "c3-b3", "c3-d3", "c3-b2", "c3-d2", "c3-c4"}
    assert game.group_moves(state, [c("c2"), c("h8")]) == []


# --- the end as goals against the old Python code ------------------------------------
def old_result(game, state):
    """Epaminondas's ``result`` as it was written in Python before its end became goals,
    kept here as the reference: the crossing rule at the start of a turn, then the move
    limit."""
    def crossings(player):
        cells = state.cells
        return sum(1 for c in game.board.zones["home"][1 - player]
                   if (p := cells[c]) is not None and p.owner == player)

    mover = state.to_move
    if crossings(mover) > crossings(1 - mover):
        return win_for(mover)
    if state.ply >= game.options["max_moves"]:
        return DRAW
    return None


@pytest.mark.parametrize(("size", "max_moves", "seeds"), [
    ("8x8", 200, range(0, 90)), ("8x8", 60, range(90, 180)), ("14x12", 300, range(180, 200))])
def test_the_goals_end_games_as_the_old_python_code(size, max_moves, seeds):
    # 200 random games in all; the short limit reaches draws on the small board.
    game = load("epaminondas", size=size, max_moves=max_moves)
    assert kernel.why_not(game) is None
    assert isinstance(game.initial_state(), kernel.KernelPosition)
    met = ends_as_reference(game, old_result, seeds)
    assert met[win_for(0)] and met[win_for(1)] and (max_moves > 60 or met[DRAW])
