"""Tests of Abalone against the published rules and an independent brute-force move
generator written here on a plain dictionary board (a different code path from the
move language the game uses)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from boardlab import load
from boardlab.core import kernel
from boardlab.core.game import draw, perft, win_for
from boardlab.core.move import Capture, Shift
from boardlab.errors import IllegalMoveError, OptionError
from boardlab.games.abalone import STARTS, marbles_off
from tests.games.conftest import ends_as_reference

ROWS = "abcdefghi"


# --- the reference generator -------------------------------------------------------
# A cell is (row, diagonal), row 0..8 for a..i, diagonal 1..9; row k holds diagonals
# max(1, k - 3) .. min(k + 5, 9). Directions as (d_row, d_diagonal).
def row_range(k: int) -> range:
    return range(max(1, k - 3), min(k + 5, 9) + 1)


CELLS = [(k, n) for k in range(9) for n in row_range(k)]
ON = set(CELLS)
STEPS = {"e": (0, 1), "w": (0, -1), "ne": (1, 1), "sw": (-1, -1), "nw": (1, 0), "se": (-1, 0)}
AXES = [(0, 1), (1, 1), (1, 0)]


def name(cell) -> str:
    return f"{ROWS[cell[0]]}{cell[1]}"


def add(cell, d, times=1):
    return (cell[0] + d[0] * times, cell[1] + d[1] * times)


def reference_moves(board: dict, player: int) -> set[frozenset]:
    """Every legal move of ``player`` as a frozenset of (from, to) cell names, ``to``
    None for a marble pushed off the board. ``board`` maps cells to 0/1."""
    moves: set[frozenset] = set()
    own = [c for c, p in board.items() if p == player]
    for cell in own:
        for d in STEPS.values():
            # In-line: the line of own marbles starting at ``cell`` towards ``d``.
            length = 1
            while add(cell, d, length) in ON and board.get(add(cell, d, length)) == player:
                length += 1
            if length > 3:
                continue
            front = add(cell, d, length)
            if front not in ON:
                continue
            line = [add(cell, d, i) for i in range(length)]
            if board.get(front) is None:
                moves.add(frozenset((name(c), name(add(c, d))) for c in line))
                continue
            pushed = 0
            while add(front, d, pushed) in ON and board.get(add(front, d, pushed)) == 1 - player:
                pushed += 1
            if pushed >= length:
                continue
            beyond = add(front, d, pushed)
            if beyond in ON and board.get(beyond) is not None:
                continue
            shifted = line + [add(front, d, i) for i in range(pushed)]
            moves.add(frozenset((name(c), name(add(c, d)) if add(c, d) in ON else None)
                                for c in shifted))
        # Broadsides of 2 and 3 marbles on each axis, in the four other directions.
        for axis in AXES:
            for size in (2, 3):
                line = [add(cell, axis, i) for i in range(size)]
                if any(board.get(c) != player for c in line):
                    continue
                for d in STEPS.values():
                    if d in (axis, (-axis[0], -axis[1])):
                        continue
                    targets = [add(c, d) for c in line]
                    if all(t in ON and board.get(t) is None for t in targets):
                        moves.add(frozenset((name(c), name(t))
                                            for c, t in zip(line, targets, strict=True)))
    return moves


def reference_play(board: dict, move: frozenset) -> dict:
    new = dict(board)
    lifted = {source: board[parse(source)] for source, _ in move}
    for source, _ in move:
        del new[parse(source)]
    for source, target in move:
        if target is not None:
            new[parse(target)] = lifted[source]
    return new


def parse(cell_name: str):
    return (ROWS.index(cell_name[0]), int(cell_name[1:]))


def reference_perft(board: dict, player: int, depth: int) -> list[int]:
    counts = [0] * depth

    def walk(board, player, level):
        if sum(1 for p in board.values() if p == 1 - player) <= 8 or \
                sum(1 for p in board.values() if p == player) <= 8:
            return
        moves = reference_moves(board, player)
        counts[level] += len(moves)
        if level + 1 < depth:
            for m in moves:
                walk(reference_play(board, m), 1 - player, level + 1)

    walk(board, player, 0)
    return counts


def board_of(state) -> dict:
    game = state.game
    return {parse(game.board.cell_name(c)): p.owner for c, p in state.occupied()}


def as_reference(state, move) -> frozenset:
    cell_name = state.game.board.cell_name
    out = set()
    for a in move.actions:
        if isinstance(a, Shift):
            out.add((cell_name(a.source), cell_name(a.target)))
        elif isinstance(a, Capture):
            out.add((cell_name(a.cell), None))
    return frozenset(out)


def game_moves(state) -> set[frozenset]:
    return {as_reference(state, m) for m in state.legal_moves()}


def reference_notation(board: dict, player: int, move: frozenset) -> str:
    """Wikipedia's notation of a reference move: in-line, the trailing marble's step;
    broadside, the end marbles (lower first) and the first one's target."""
    own = sorted(((s, t) for s, t in move if board[parse(s)] == player),
                 key=lambda st: parse(st[0]))
    sources = {s for s, _ in own}
    targets = {t for _, t in own}
    if len(own) == 1 or sources & targets:
        tail = next((s, t) for s, t in own if s not in targets)
        return tail[0] + tail[1]
    return own[0][0] + own[-1][0] + own[0][1]


# --- positions for rule tests ---------------------------------------------------------
# Nine marbles each far from the action in rows c-g, so that no side has lost six.
BLACK_FILL = ["a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4"]
WHITE_FILL = ["i5", "i6", "i7", "i8", "i9", "h6", "h7", "h8", "h9"]


def position(black: str, white: str, to_move: str = "black", fill: bool = True):
    blacks = black.split() + (BLACK_FILL if fill else [])
    whites = white.split() + (WHITE_FILL if fill else [])
    cells = sorted(blacks + whites, key=parse)
    layout = ",".join(f"{c}={'b' if c in blacks else 'w'}" for c in cells)
    return load("abalone").parse_state(f"{layout} {to_move}")


def notations(state) -> set[str]:
    return {m.notation for m in state.legal_moves()}


def occupant(state, cell_name: str) -> str:
    piece = state.piece_at(state.game.board.cell(cell_name))
    return "." if piece is None else "bw"[piece.owner]


def row(state, letter: str) -> str:
    return "".join(occupant(state, f"{letter}{n}") for n in row_range(ROWS.index(letter)))


# --- start, perft, reference ------------------------------------------------------------
def test_standard_start_has_44_moves_for_either_side():
    state = load("abalone").initial_state()
    assert len(state.legal_moves()) == 44 == len(reference_moves(board_of(state), 0))
    assert state.to_move == 0 and state.game.player_names[0] == "black"
    white_to_move = load("abalone").parse_state(str(state).replace(" black", " white"))
    assert len(white_to_move.legal_moves()) == 44


def test_perft_agrees_with_the_reference_generator():
    game = load("abalone")
    ours = perft(game.initial_state(), 3)
    reference = reference_perft(board_of(game.initial_state()), 0, 3)
    assert ours == reference == list(game.known_perft)


@pytest.mark.parametrize("start", sorted(STARTS))
def test_moves_agree_with_the_reference_on_random_games(start):
    game = load("abalone", start=start)
    rng = random.Random(f"abalone:{start}")
    checked = 0
    for _ in range(2):
        state = game.initial_state()
        for ply in range(160):
            if state.is_terminal():
                break
            if ply % 4 == 0:
                board = board_of(state)
                assert game_moves(state) == reference_moves(board, state.to_move)
                assert len(game_moves(state)) == len(state.legal_moves())
                for move in state.legal_moves():
                    assert move.notation == reference_notation(
                        board, state.to_move, as_reference(state, move))
                checked += 1
            state = state.play(rng.choice(state.legal_moves()))
    assert checked >= 20


def test_pushes_off_the_board_match_the_reference():
    """Random games until a marble goes off, comparing every position."""
    game = load("abalone", start="belgian-daisy")
    rng = random.Random(7)
    state = game.initial_state()
    captures = 0
    while not state.is_terminal() and captures < 3:
        assert game_moves(state) == reference_moves(board_of(state), state.to_move)
        move = rng.choice([m for m in state.legal_moves()
                           if any(isinstance(a, Capture) for a in m.actions)]
                          or state.legal_moves())
        captures += any(isinstance(a, Capture) for a in move.actions)
        state = state.play(move)
    assert captures == 3 and sum(marbles_off(state).values()) == 3


# --- sumito -----------------------------------------------------------------------------
def test_three_push_two():
    state = position("e3 e4 e5", "e6 e7")
    after = state.play("e3e4")
    assert row(after, "e") == "...bbbww."
    assert marbles_off(after) == {"black": 2, "white": 3}  # nothing went off


def test_three_push_one_and_two_push_one():
    assert row(position("e3 e4 e5", "e6").play("e3e4"), "e") == "...bbbw.."
    assert row(position("e4 e5", "e6").play("e4e5"), "e") == "....bbw.."
    # Pushing backwards (west) works the same way.
    assert row(position("e6 e7", "e5").play("e7e6"), "e") == "...wbb..."


def test_push_off_the_board_counts_a_marble():
    state = position("e6 e7 e8", "e9")
    move = state.parse_move("e6e7")
    assert any(isinstance(a, Capture) for a in move.actions)
    after = state.play(move)
    assert row(after, "e") == "......bbb"
    assert marbles_off(state)["white"] == 4 and marbles_off(after)["white"] == 5
    # 3 v 2 with the last one going off; 2 v 1 off the board.
    after = position("e5 e6 e7", "e8 e9").play("e5e6")
    assert row(after, "e") == ".....bbbw" and marbles_off(after)["white"] == 4
    after = position("e7 e8", "e9").play("e7e8")
    assert row(after, "e") == ".......bb" and marbles_off(after)["white"] == 5


@pytest.mark.parametrize("black, white, move", [
    ("e5", "e6", "e5e6"),                  # 1 v 1
    ("e4 e5", "e6 e7", "e4e5"),            # 2 v 2
    ("e3 e4 e5", "e6 e7 e8", "e3e4"),      # 3 v 3 (a 3 v 2 with a third behind)
    ("e4 e5", "e6 e7", "e4e5"),            # 1 v 2 from the front marble neither
])
def test_forbidden_sumito(black, white, move):
    state = position(black, white)
    assert move not in notations(state)
    with pytest.raises(IllegalMoveError):
        state.parse_move(move)
    pushed = {state.game.board.cell(c) for c in white.split()}
    assert not any(a.source in pushed for m in state.legal_moves() for a in m.actions
                   if isinstance(a, Shift))


def test_three_of_a_longer_line_may_push():
    state = position("e2 e3 e4 e5", "e6")
    assert "e2e3" not in notations(state)  # four own marbles never move together
    assert row(state.play("e3e4"), "e") == ".b.bbbw.."


def test_pushes_into_own_marbles_are_blocked():
    # an own marble right behind the opponents
    assert "e3e4" not in notations(position("e3 e4 e5 e7", "e6"))
    assert "e3e4" not in notations(position("e3 e4 e5 e8", "e6 e7"))
    assert "e4e5" not in notations(position("e4 e5 e7", "e6"))
    # the same with the cell free
    assert "e3e4" in notations(position("e3 e4 e5 e8", "e6"))


def test_push_blocked_by_a_further_opponent_without_gap():
    # 3 v 2 + 1: no gap beyond the two, so it is 3 v 3.
    assert "e3e4" not in notations(position("e3 e4 e5", "e6 e7 e8"))
    # with a gap the 3 v 2 goes through.
    state = position("e3 e4 e5", "e6 e7 e9")
    assert row(state.play("e3e4"), "e") == "...bbbwww"


def test_broadsides_only_into_empty_cells():
    free = position("e4 e5", "")
    assert {"e4e5f5", "e4e5f4", "e4e5d4", "e4e5d3"} <= notations(free)
    after = free.play("e4e5f5")
    assert occupant(after, "f5") == occupant(after, "f6") == "b"
    assert occupant(after, "e4") == occupant(after, "e5") == "."
    # an opponent or an own marble on one target cell blocks the broadside
    assert "e4e5f5" not in notations(position("e4 e5", "f6"))
    assert "e4e5f5" not in notations(position("e4 e5 f6", ""))
    # three marbles: all three targets must be free
    assert "e3e5f4" in notations(position("e3 e4 e5", ""))
    assert "e3e5f4" not in notations(position("e3 e4 e5", "f5"))
    assert "e3e4f4" in notations(position("e3 e4 e5", "f6"))


def test_win_at_the_sixth_marble():
    # White has nine marbles (eight fillers and e9): one more off is the sixth.
    blacks = " ".join(BLACK_FILL + ["e7", "e8"])
    whites = " ".join(WHITE_FILL[:8] + ["e9"])
    state = position(blacks, whites, fill=False)
    assert marbles_off(state) == {"black": 3, "white": 5}
    assert not state.is_terminal()
    after = state.play("e7e8")
    assert marbles_off(after)["white"] == 6
    assert after.outcome() == (Fraction(1), Fraction(0))
    assert after.legal_moves() == []


def test_move_limit_draw():
    game = load("abalone", max_moves=3)
    state = game.initial_state().play_all(["a1b2", "i5h5", "b2c3"])
    assert state.outcome() == (Fraction(1, 2), Fraction(1, 2))
    assert game.max_length() == 3
    assert load("abalone").max_length() == 200
    with pytest.raises(OptionError):
        load("abalone", max_moves=0)


# --- notation and text -------------------------------------------------------------------
def test_notation_of_inline_and_broadside_moves():
    state = load("abalone").initial_state()
    # in-line: the trailing marble's step; broadside: end marbles then first target
    assert {"a1b2", "c3d4", "c5c6", "c3c2", "c3c4d4", "c3c5d4", "b1b2c1"} <= notations(state)
    three = state.parse_move("c3c5d4")
    assert {(state.game.board.cell_name(a.source), state.game.board.cell_name(a.target))
            for a in three.actions} == {("c3", "d4"), ("c4", "d5"), ("c5", "d6")}
    inline3 = state.parse_move("a1b2")  # a1 b2 c3 step towards d4
    assert len(inline3.actions) == 3
    assert len(notations(state)) == len(state.legal_moves())


def test_text_form_round_trips_with_ply():
    game = load("abalone", start="german-daisy")
    state = game.initial_state().play_all(["b1b2", "b5b4"])
    text = str(state)
    assert text.endswith(" black ply:2")
    assert game.parse_state(text) == state and str(game.parse_state(text)) == text


# --- starts ------------------------------------------------------------------------------
def rotate(cell):
    """60 degrees about e5 in axial coordinates (q, r) = (diagonal - 5, row - 4)."""
    q, r = cell[1] - 5, cell[0] - 4
    q, r = q - r, q
    return (r + 4, q + 5)


def mirror(cell):
    q, r = cell[1] - 5, cell[0] - 4
    return (q + 4, r + 5)


def symmetries():
    out = []
    for flip in (False, True):
        for turns in range(6):
            def g(cell, flip=flip, turns=turns):
                if flip:
                    cell = mirror(cell)
                for _ in range(turns):
                    cell = rotate(cell)
                return cell
            out.append((flip, turns, g))
    return out


# The setups as abalone.zrf writes them (its own file/rank grid).
ZRF = {
    "standard": ("e1 f1 g1 h1 i1 d2 e2 f2 g2 h2 i2 e3 f3 g3",
                 "a9 b9 c9 d9 e9 a8 b8 c8 d8 e8 f8 c7 d7 e7"),
    "marguerite": ("d9 e9 d8 e8 f8 e7 f7 d3 e3 d2 e2 f2 e1 f1",
                   "a9 b9 a8 b8 c8 b7 c7 g3 h3 g2 h2 i2 h1 i1"),
    "dutch-daisy": ("d9 e9 d8 b8 f8 e7 f7 d3 e3 d2 h2 f2 e1 f1",
                    "a9 b9 a8 e8 c8 b7 c7 g3 h3 g2 e2 i2 h1 i1"),
    "swiss-daisy": ("e8 f8 e7 b7 g7 f6 g6 c4 d4 c3 h3 e3 d2 e2",
                    "a8 b8 a7 f7 c7 b6 c6 g4 h4 g3 d3 i3 h2 i2"),
    "fujiyama": ("f2 g2 f3 a9 b9 c9 d9 e9 b8 e8 c7 e7 d6 e6",
                 "c8 d8 d7 e4 f4 e3 g3 e2 h2 e1 f1 g1 h1 i1"),
    "alien-attack": ("f2 g2 e3 g3 a9 c9 e9 b8 e8 b7 d7 f7 d6 e6",
                     "c8 d8 c7 e7 e4 f4 d3 f3 h3 e2 h2 e1 g1 i1"),
    "the-wall": ("a6 b6 c6 d6 e6 f6 g6 h6 b7 c7 d7 e7 f7 c9",
                 "b4 c4 d4 e4 f4 g4 h4 i4 d3 e3 f3 g3 h3 g1"),
    "snakes": ("e6 d6 d5 d4 c4 b5 a6 a7 a8 a9 b9 c9 d9 e9",
               "e4 f4 f5 f6 g6 h5 i4 i3 i2 i1 h1 g1 f1 e1"),
}


def from_zrf(cells: str) -> set[str]:
    out = set()
    for c in cells.split():
        file, rank = ord(c[0]) - ord("a"), int(c[1:])
        out.add(f"{ROWS[rank - 1]}{file + rank - 4}")
    return out


@pytest.mark.parametrize("start", sorted(ZRF))
def test_starts_follow_the_zrf(start):
    black, white = STARTS[start]
    zrf_black, zrf_white = ZRF[start]
    assert set(black) == from_zrf(zrf_black) and set(white) == from_zrf(zrf_white)


@pytest.mark.parametrize("start", sorted(STARTS))
def test_every_start_has_14_marbles_each_and_is_symmetric(start):
    state = load("abalone", start=start).initial_state()
    board = board_of(state)
    black = {c for c, p in board.items() if p == 0}
    white = {c for c, p in board.items() if p == 1}
    assert len(black) == len(white) == 14 and black <= ON and white <= ON
    assert marbles_off(state) == {"black": 0, "white": 0}
    fair = [(flip, turns) for flip, turns, g in symmetries() if {g(c) for c in black} == white]
    half_turn = (False, 3)
    if start in ("standard", "fujiyama", "alien-attack", "the-wall", "snakes"):
        assert half_turn in fair
    else:  # the daisies: a mirror swaps the colours, a half turn keeps them
        assert any(flip for flip, _ in fair)
        g = symmetries()[3][2]
        assert {g(c) for c in black} == black


def test_published_daisies():
    # Belgian daisy: the MSO 1999 petition diagram, row by row from i to a.
    state = load("abalone", start="belgian-daisy").initial_state()
    assert [row(state, r) for r in reversed(ROWS)] == [
        "ww.bb", "wwwbbb", ".ww.bb.", "........", ".........", "........",
        ".bb.ww.", "bbbwww", "bb.ww"]
    assert str(state) == str(load("abalone", start="marguerite").initial_state())
    state = load("abalone", start="german-daisy").initial_state()
    assert [row(state, r) for r in reversed(ROWS)] == [
        ".....", "ww..bb", "www.bbb", ".ww..bb.", ".........", ".bb..ww.",
        "bbb.www", "bb..ww", "....."]


# --- closure and group moves ------------------------------------------------------------
def test_closure_of_a_trailing_marble_grows_to_the_pushing_line():
    state = position("e3 e4 e5", "e6 e7")
    game = state.game
    cell = game.board.cell
    push = state.parse_move("e3e4")
    assert game.closure(state, [cell("e3")], push) == [cell("e3"), cell("e4"), cell("e5")]
    # a broadside never pulls in more marbles than selected
    side = state.parse_move("e3e5f4")
    assert game.closure(state, [cell("e3")], side) == [cell("e3")]


def test_group_moves_of_a_broadside_pair():
    state = position("e4 e5", "")
    cell = state.game.board.cell
    moves = state.game.group_moves(state, [cell("e4"), cell("e5")])
    assert {m.notation for m in moves} == {"e4e5", "e5e4", "e4e5f5", "e4e5f4", "e4e5d4",
                                          "e4e5d3"}
    # with a third marble behind e5 the pair no longer moves east in line (the three
    # do), but still west, leaving e6 behind
    state = position("e4 e5 e6", "")
    moves = state.game.group_moves(state, [cell("e4"), cell("e5")])
    assert {m.notation for m in moves} == {"e5e4", "e4e5f5", "e4e5f4", "e4e5d4", "e4e5d3"}
    assert {m.notation for m in state.game.group_moves(
        state, [cell("e4"), cell("e5"), cell("e6")])} >= {"e4e5", "e6e5", "e4e6f5"}


# --- evaluation --------------------------------------------------------------------------
def test_evaluation_counts_material_and_centre():
    game = load("abalone")
    start = game.initial_state()
    assert game.evaluate(start, 0) == pytest.approx(0.0)
    ahead = position("e7 e8", "e9").play("e7e8")  # white lost one more marble
    assert game.evaluate(ahead, 0) > 0 > game.evaluate(ahead, 1)
    central = position("e4 e5 e6", "", fill=True)
    edge = position("c5 c6 c7", "", fill=True)
    assert game.evaluate(central, 0) > game.evaluate(edge, 0)
    rng = random.Random(3)
    state = start
    for _ in range(60):
        value = game.evaluate(state, state.to_move)
        assert -1 <= value <= 1
        state = state.play(rng.choice(state.legal_moves()))


# --- the end as goals against the old Python code ------------------------------------
def old_result(game, state):
    """Abalone's ``result`` as it was written in Python before its end became goals,
    kept here as the reference: six marbles of a side off, the other side wins; the
    move limit, a draw."""
    for player in (0, 1):
        if 14 - sum(1 for p in state.cells if p is not None and p.owner == player) >= 6:
            return win_for(1 - player)
    if state.ply >= game.options["max_moves"]:
        return draw()
    return None


#: The starts, once each (``marguerite`` is the Belgian daisy).
DISTINCT_STARTS = [start for start in STARTS if start != "marguerite"]


@pytest.mark.parametrize("start", DISTINCT_STARTS)
def test_the_goals_end_games_as_the_old_python_code(start):
    # 200 random games in all, shared among the starts.
    seeds = range(DISTINCT_STARTS.index(start), 200, len(DISTINCT_STARTS))
    game = load("abalone", start=start, max_moves=150)
    # On its kernel: pushes off the board included.
    assert kernel.why_not(game) is None
    met = ends_as_reference(game, old_result, seeds)
    assert met[draw()] and met[win_for(0)] + met[win_for(1)]
