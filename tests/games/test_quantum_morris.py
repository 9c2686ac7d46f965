"""Tests of quantum Morris (specs/quantum.md sections 6 and 7, item 13).

Truth comes from outside the module under test: hand-worked positions, an exhaustive
search showing a player can never be left without a move, and a second, deliberately
naive implementation written here from the rules (it reads the text form with its own
parser, enumerates every (piece, from, to) triple and filters it by the rules, and
resolves collapses by repeating "a piece with a half in a classical point goes to its
other point" until nothing changes); random games compare the two move by move.
"""

from __future__ import annotations

import itertools
import random
import re
from fractions import Fraction

import pytest

from boardlab import load
from boardlab.core.game import DRAW, win_for
from boardlab.errors import IllegalMoveError, NotationError, OptionError
from boardlab.games.quantum_morris import QuantumMorrisState

X_WINS, O_WINS = win_for(0), win_for(1)


def morris(**options):
    return load("quantum-morris", **options)


def position(text: str, **options):
    return morris(**options).parse_state(text)


def notations(state) -> list[str]:
    return [m.notation for m in state.legal_moves()]


def illegal(state, move: str) -> str:
    with pytest.raises(IllegalMoveError) as caught:
        state.parse_move(move)
    return caught.value.reason


# --- a reference implementation, written from the rules --------------------------------

SIDES = "XO"
LABELS = [f"{side}{n}" for n in (1, 2, 3) for side in SIDES]  # X1 O1 X2 O2 X3 O3
WIN_LINES = [(1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 5, 9),
             (3, 5, 7)]


def ref_read(text: str) -> dict:
    """The text form as plain data; points 1-9 as written."""
    pieces, side, *rest = [part.strip() for part in text.split("|")]
    ref = {"classical": {}, "halves": {}, "side": side, "pending": None,
           "moves": int(rest[-1].split()[1])}
    if len(rest) == 2:
        ref["pending"] = rest[0].split()[1]
    for token in pieces.split():
        if token == "-":
            continue
        name, where = token.split(":")
        points = [int(p) for p in where.split("-")]
        if len(points) == 1:
            ref["classical"][points[0]] = name
        else:
            ref["halves"][name] = tuple(sorted(points))
    return ref


def ref_adjacent(a: int, b: int, diagonals: bool) -> bool:
    (ra, ca), (rb, cb) = divmod(a - 1, 3), divmod(b - 1, 3)
    if abs(ra - rb) + abs(ca - cb) == 1:
        return True
    return diagonals and abs(ra - rb) == 1 and abs(ca - cb) == 1 and 5 in (a, b)


def ref_has_cycle(halves: dict) -> bool:
    """A graph has a cycle iff it has more edges than points minus components."""
    points = {p for pair in halves.values() for p in pair}
    components = 0
    unseen = set(points)
    while unseen:
        components += 1
        stack = [unseen.pop()]
        while stack:
            here = stack.pop()
            for pair in halves.values():
                if here in pair:
                    for there in pair:
                        if there in unseen:
                            unseen.remove(there)
                            stack.append(there)
    return len(halves) > len(points) - components


def ref_collapse(ref: dict, name: str, point: int) -> None:
    """``name`` becomes classical in ``point``; the rest follows until nothing changes."""
    ref["halves"].pop(name, None)
    ref["classical"][point] = name
    changed = True
    while changed:
        changed = False
        for other, (a, b) in list(ref["halves"].items()):
            if a in ref["classical"] or b in ref["classical"]:
                assert not (a in ref["classical"] and b in ref["classical"])
                del ref["halves"][other]
                ref["classical"][b if a in ref["classical"] else a] = other
                changed = True


def ref_lines(ref: dict) -> list[str]:
    found = []
    for line in WIN_LINES:
        names = [ref["classical"].get(p) for p in line]
        if None not in names and len({n[0] for n in names}) == 1:
            found.append(names[0][0])
    return found


def ref_candidates(ref: dict, options: dict) -> set[str]:
    """Every move of the side to move by brute force over pieces and points (the game's
    end aside)."""
    if ref["pending"]:
        return {f"→{p}" for p in ref["halves"][ref["pending"]]}
    side, free = ref["side"], [p for p in range(1, 10) if p not in ref["classical"]]
    mine = [n for n in LABELS if n[0] == side]
    out = set()
    if ref["moves"] < 6:
        name = mine[ref["moves"] // 2]
        for a, b in itertools.product(free, free):
            if a < b or (a == b and options["deterministic_drop"]):
                out.add(f"{name}:{a}-{b}")
        return out
    where = {n: p for p, n in ref["classical"].items()}
    for name, a, b in itertools.product(mine, range(1, 10), range(1, 10)):
        if b not in free or not ref_adjacent(a, b, options["diagonals"]):
            continue
        if where.get(name) == a:
            out.add(f"{name}:{a}+{b}")
        elif a in ref["halves"].get(name, ()):
            twin = sum(ref["halves"][name]) - a
            if b != twin or options["merge"]:
                out.add(f"{name}:{a}>{b}")
    return out


def ref_outcome(ref: dict, options: dict):
    lines = ref_lines(ref)
    if lines:  # a line holds pieces 1, 2 and 3: axiom scoring ties like complete
        return DRAW if len(set(lines)) == 2 else win_for(SIDES.index(lines[0]))
    if ref["pending"]:
        return None
    if ref["moves"] >= options["max_moves"] or not ref_candidates(ref, options):
        return DRAW
    return None


def ref_moves(ref: dict, options: dict) -> set[str]:
    return set() if ref_outcome(ref, options) is not None else ref_candidates(ref, options)


def ref_play(ref: dict, move: str) -> dict:
    new = {"classical": dict(ref["classical"]), "halves": dict(ref["halves"]),
           "side": ref["side"], "pending": None, "moves": ref["moves"]}
    if move.startswith("→"):
        ref_collapse(new, ref["pending"], int(move[1:]))
        return new
    new["moves"] += 1
    new["side"] = "O" if ref["side"] == "X" else "X"
    name, a, sign, b = re.fullmatch(r"(\w\d):(\d)([-+>])(\d)", move).groups()
    a, b = int(a), int(b)
    if sign == "-":
        if a == b:
            ref_collapse(new, name, a)
            return new
        new["halves"][name] = (a, b)
    elif sign == "+":
        del new["classical"][a]
        new["halves"][name] = tuple(sorted((a, b)))
    else:
        twin = sum(ref["halves"][name]) - a
        if b == twin:
            ref_collapse(new, name, b)
            return new
        new["halves"][name] = tuple(sorted((twin, b)))
    if ref_has_cycle(new["halves"]):
        new["pending"] = name
    return new


def cross_check(preset: str, games: int, max_moves: int, seed: str) -> int:
    game = morris(preset=preset, max_moves=max_moves)
    options = dict(game.options)
    rng = random.Random(seed)
    checked = 0
    for _ in range(games):
        state = game.initial_state()
        ref = ref_read(str(state))
        while True:
            legal = notations(state)
            assert set(legal) == ref_moves(ref, options), str(state)
            assert state.outcome() == ref_outcome(ref, options), str(state)
            checked += 1
            if not legal:
                break
            for move in rng.sample(legal, min(3, len(legal))):
                assert ref_read(str(state.play(move))) == ref_play(ref, move), (str(state), move)
            move = rng.choice(legal)
            state.apply(state.parse_move(move))
            ref = ref_play(ref, move)
            if "+" in move:
                assert not state.pending, "a split cannot close a cycle"
    return checked


@pytest.mark.parametrize("preset, games", [("dagaz", 200), ("axiom-tmm-4", 200),
                                           ("axiom-tmm-2", 60)])
def test_moves_match_the_reference_on_random_games(preset, games):
    assert cross_check(preset, games=games, max_moves=40, seed=f"qm:{preset}") > 20 * games


def test_reference_on_long_games():
    assert cross_check("", games=10, max_moves=200, seed="qm:long") > 200


# --- placement --------------------------------------------------------------------------

def test_empty_board_and_placement_phase():
    state = morris().initial_state()
    assert str(state) == "- | X | moves 0"
    assert len(state.legal_moves()) == 36
    assert notations(state)[:3] == ["X1:1-2", "X1:1-3", "X1:1-4"]
    assert len(morris(deterministic_drop=True).initial_state().legal_moves()) == 45
    state = state.play_all(["1-2", "O1:3-4"])
    assert str(state) == "X1:1-2 O1:3-4 | X | moves 2"
    assert notations(state)[0] == "X2:1-2"
    assert "next piece to place is X2" in illegal(state, "X3:5-6")
    assert "not yours" in illegal(state, "O2:5-6")


@pytest.mark.parametrize("preset", ["", "axiom-tmm-4", "axiom-tmm-1"])
def test_no_step_or_split_before_all_pieces_are_placed(preset):
    # A drop makes X1 classical at once, so a split is conceivable from move 2.
    state = morris(preset=preset).initial_state().play_all(["X1:1-2", "O1:4-5"])
    if state.game.options["deterministic_drop"]:
        state = morris(preset=preset).initial_state().play_all(["X1:1-1", "O1:4-5"])
        assert str(state) == "X1:1 O1:4-5 | X | moves 2"
        assert "before all 3+3" in illegal(state, "X1:1+2")
    state = state.play_all(["X2:7-8", "O2:8-9", "X3:3-6"])
    assert all("-" in m for m in notations(state))
    assert "before all 3+3" in illegal(state, "O1:4>7")
    assert "place O3" in illegal(state, "O1:5>6")
    state = state.play("O3:2-3")
    assert state.moves == 6 and not state.pending and all("-" not in m for m in notations(state))
    assert "all pieces are placed" in illegal(state, "X1:6-9")


def test_deterministic_drop_collapses_the_point_in_a_chain():
    start = ["X1:1-2", "O1:1-4", "X2:4-7"]
    assert "deterministic_drop" in illegal(morris().initial_state().play_all(start), "O2:2-2")
    state = morris(deterministic_drop=True).initial_state().play_all(start)
    state = state.play("O2:2-2")  # X1 leaves 2 for 1, O1 leaves 1 for 4, X2 leaves 4 for 7
    assert str(state) == "X1:1 O1:4 X2:7 O2:2 | X | moves 4"
    assert not state.pending and state.to_move == 0
    assert "classical O2" in illegal(state, "X3:2-3")


def test_placement_closing_a_cycle_is_collapsed_by_the_other_side():
    state = morris().initial_state().play_all(["X1:1-2", "O1:1-2"])  # a 2-cycle of O1's making
    assert str(state) == "X1:1-2 O1:1-2 | X | collapse O1 | moves 2"
    assert state.to_move == 0 and notations(state) == ["→1", "→2"]
    assert "first collapse" in illegal(state, "X2:3-4")
    assert "only land on 1 or 2" in illegal(state, "→3")
    after = state.play(">1")
    assert str(after) == "X1:2 O1:1 | X | moves 2"
    assert notations(after)[0] == "X2:3-4"  # the chooser then places its own piece
    assert str(state.play("→2")) == "X1:1 O1:2 | X | moves 2"


# --- movement ---------------------------------------------------------------------------

# Movement phase, X to move: X1 in superposition on 2 and 5, X2 and X3 classical on 1
# and 3 (top row open in 2), O's pieces out of the way.
MERGE_TO_WIN = "X1:2-5 O1:7 X2:1 O2:8-9 X3:3 O3:4-6 | X | moves 6"


@pytest.mark.parametrize("preset", ["dagaz", "axiom-tmm-3", "axiom-tmm-6"])
def test_stepping_into_the_twin_is_illegal_without_merge(preset):
    state = position(MERGE_TO_WIN, preset=preset)
    assert "needs merge" in illegal(state, "X1:5>2")
    assert "needs merge" in illegal(state, "X1:2>5")
    assert "X1:5>6" in notations(state)


@pytest.mark.parametrize("preset", ["axiom-tmm-1", "axiom-tmm-2", "axiom-tmm-5"])
def test_a_merge_makes_the_piece_classical_and_a_line_wins_at_once(preset):
    state = position(MERGE_TO_WIN, preset=preset)
    won = state.play("X1:5>2")
    assert str(won) == "X1:2 O1:7 X2:1 O2:8-9 X3:3 O3:4-6 | O | moves 7"
    assert won.outcome() == X_WINS and won.legal_moves() == []
    assert "X line" in won.render()
    other = state.play("X1:2>5")  # classical in 5: no line
    assert str(other) == "X1:5 O1:7 X2:1 O2:8-9 X3:3 O3:4-6 | O | moves 7"
    assert other.outcome() is None


def test_a_merge_pushes_the_halves_out_of_its_point():
    # X1 on 4-5; O3 on 5-6 and O2 on 6-9: X1 merging into 5 sends O3 to 6, O2 to 9.
    state = position("X1:4-5 O1:7 X2:1 O2:6-9 X3:3 O3:5-6 | X | moves 6", merge=True)
    after = state.play("X1:4>5")
    assert str(after) == "X1:5 O1:7 X2:1 O2:9 X3:3 O3:6 | O | moves 7"
    assert after.outcome() is None


# Movement phase: X1 on 1-2, O1 on 2-5, O2 on 4-5 (a path 1-2-5-4); X1 stepping from 1
# to 4 closes the cycle 2-5-4.
CYCLE = "X1:1-2 O1:2-5 X2:7 O2:4-5 X3:9 O3:3 | X | moves 6"


@pytest.mark.parametrize("preset", ["", "axiom-tmm-4"])
def test_a_step_closing_a_cycle_makes_the_opponent_collapse_then_move(preset):
    state = position(CYCLE, preset=preset)
    closed = state.play("X1:1>4")
    assert str(closed) == "X1:2-4 O1:2-5 X2:7 O2:4-5 X3:9 O3:3 | O | collapse X1 | moves 7"
    assert closed.to_move == 1 and notations(closed) == ["→2", "→4"]
    assert "first collapse" in illegal(closed, "O3:3+6")
    assert "x₁*" in closed.render() and "O collapses it" in closed.render()
    to4 = closed.play("→4")  # X1 in 4, O2 pushed to 5, O1 to 2
    assert str(to4) == "X1:4 O1:2 X2:7 O2:5 X3:9 O3:3 | O | moves 7"
    to2 = closed.play(">2")  # X1 in 2, O1 pushed to 5, O2 to 4
    assert str(to2) == "X1:2 O1:5 X2:7 O2:4 X3:9 O3:3 | O | moves 7"
    for after in (to4, to2):
        assert after.to_move == 1 and after.outcome() is None
        moves = notations(after)
        assert moves and all(m.startswith("O") for m in moves)  # the chooser moves on
        assert after.play(moves[0]).to_move == 0


def test_a_split_keeps_a_half_and_never_closes_a_cycle():
    state = position(CYCLE)
    assert "O3:3+6" in notations(position(CYCLE.replace("| X | moves 6", "| O | moves 7")))
    split = position(CYCLE.replace("| X | moves 6", "| O | moves 7")).play("O3:3+6")
    assert str(split) == "X1:1-2 O1:2-5 X2:7 O2:4-5 X3:9 O3:3-6 | X | moves 8"
    assert not split.pending
    assert "X2:7+8" in notations(state) and "X2:7+4" in notations(state)
    assert "not adjacent" in illegal(state, "X2:7+9")
    assert "diagonals option" in illegal(state, "X2:7+5")
    assert "not classical" in illegal(state, "X1:1+4")
    assert "classical in 7, not 8" in illegal(state, "X2:8+5")


@pytest.mark.parametrize("diagonals", [False, True])
def test_diagonal_steps_run_corner_to_centre_only(diagonals):
    # X1 on 1-6 and X2 on 5-8: 1-5 and 5-9 are long-diagonal steps, 6-8 is not.
    state = position("X1:1-6 O1:2 X2:5-8 O2:4 X3:3 O3:7 | X | moves 6", diagonals=diagonals)
    moves = set(notations(state))
    assert ("X1:1>5" in moves) == diagonals
    assert ("X2:5>9" in moves) == diagonals
    assert ("X2:5>1" in moves) == diagonals
    assert "X2:5>6" in moves and "X2:8>9" in moves
    assert "not adjacent" in illegal(state, "X2:8>6")  # an edge-to-edge diagonal
    assert "not adjacent" in illegal(state, "X1:6>8")
    assert "not adjacent" in illegal(state, "X1:1>9")
    if not diagonals:
        assert "diagonals option" in illegal(state, "X1:1>5")
    split = position("X1:1 O1:2 X2:5-8 O2:4 X3:3 O3:7 | X | moves 6", diagonals=diagonals)
    assert ("X1:1+5" in notations(split)) == diagonals
    assert position("X1:1 O1:2 X2:5-8 O2:4 X3:3 O3:7 | X | moves 6",
                    preset="axiom-tmm-6").play("X1:1+5").outcome() is None


def test_no_entry_to_classical_points():
    state = position(CYCLE)
    assert "no entry" in illegal(state, "X1:2>3")  # O3 is classical in 3
    assert "X3:9+8" in notations(state) and "X3:9+6" in notations(state)
    blocked = position("X1:1-2 O1:2-5 X2:7 O2:4-5 X3:9 O3:8 | X | moves 6")
    assert "no entry" in illegal(blocked, "X3:9+8")
    assert "no entry" in illegal(blocked, "X2:7+8")
    assert all(not m.endswith(">8") and not m.endswith("+8") for m in notations(blocked))


def test_short_move_forms():
    state = position(CYCLE)
    assert state.parse_move("1>4").notation == "X1:1>4"
    assert state.parse_move("X1 : 1 → 4").notation == "X1:1>4"
    assert state.parse_move("x1:1->4").notation == "X1:1>4"
    assert state.parse_move("9+6").notation == "X3:9+6"
    assert "no half in point 3" in illegal(state, "3>6")
    assert "can split" in illegal(state, "9>6")
    two = position("X1:1-2 O1:7 X2:2-3 O2:8 X3:9 O3:4 | X | moves 6")
    assert "ambiguous" in illegal(two, "2>5")
    assert two.parse_move("X2:2>5").notation == "X2:2>5"
    assert "halves are in 2 and 3, not 1" in illegal(two, "X2:1>4")
    assert "cannot step" in illegal(two, "X3:9>6")
    assert "holds no classical piece" in illegal(two, "5+6")
    assert "O2, not a piece of X" in illegal(two, "8+5")


# --- the end ----------------------------------------------------------------------------

# O to move; O3 stepping from 6 to 3 closes a 2-cycle with X3 (3-9). X then chooses.
BOTH_LINES = "X1:1 O1:7 X2:2 O2:8 X3:3-9 O3:6-9 | O | moves 7"


@pytest.mark.parametrize("scoring", ["axiom", "complete"])
def test_simultaneous_lines(scoring):
    closed = position(BOTH_LINES, scoring=scoring).play("O3:6>3")
    assert notations(closed) == ["→3", "→9"]
    both = closed.play("→9")  # O3 in 9 (row 7-8-9), X3 pushed to 3 (row 1-2-3)
    assert str(both) == "X1:1 O1:7 X2:2 O2:8 X3:3 O3:9 | X | moves 8"
    # Every line holds pieces 1-3, so axiom compares 3 with 3: a draw, as under complete.
    assert both.lines() == [(0, 3, 3), (1, 3, 3)]
    assert both.outcome() == DRAW
    neither = closed.play("→3")
    assert neither.lines() == [] and neither.outcome() is None


@pytest.mark.parametrize("scoring", ["axiom", "complete"])
def test_one_line_wins_under_either_scoring(scoring):
    closed = position(BOTH_LINES.replace("O1:7", "O1:5"), scoring=scoring).play("O3:6>3")
    assert closed.play("→9").outcome() == X_WINS  # only X's row: O has 5, 8, 9
    assert closed.play("→3").outcome() is None


def test_a_line_on_a_diagonal_counts_without_diagonal_steps():
    # O3 stepping from 8 to 9 makes a 2-cycle with X3 (6-9); X chooses.
    closed = position("X1:1 O1:2 X2:5 O2:3 X3:6-9 O3:6-8 | O | moves 7").play("O3:8>9")
    assert closed.game.options["diagonals"] is False
    assert closed.play("→6").outcome() == X_WINS  # X3 pushed to 9: diagonal 1-5-9
    assert closed.play("→9").outcome() is None


def test_no_player_is_ever_without_a_move():
    """Exhaustive: with three pieces a side, the side to move (say X) always has a move
    in the movement phase. X hemmed in needs every neighbour of its classical pieces and
    of its halves (bar a twin) classical; those points not held by X must be O's, at most
    three, and must not hold X halves, and neither side may have a line."""
    neighbours = {p: {q for q in range(1, 10) if ref_adjacent(p, q, False)}
                  for p in range(1, 10)}
    choices = [(p,) for p in range(1, 10)] + list(itertools.combinations(range(1, 10), 2))
    for pieces in itertools.product(choices, repeat=3):
        classical = [c[0] for c in pieces if len(c) == 1]
        pairs = {f"X{i}": c for i, c in enumerate(pieces) if len(c) == 2}
        halves = {p for c in pairs.values() for p in c}
        if len(set(classical)) < len(classical) or halves & set(classical):
            continue
        if ref_has_cycle(pairs):
            continue
        needed = set()
        for c in pieces:
            for p in c:
                needed |= neighbours[p] - set(c)
        theirs = needed - set(classical)
        if len(theirs) > 3 or theirs & halves:
            continue
        lines = [set(line) for line in WIN_LINES]
        assert any(line <= set(classical) for line in lines) or any(
            line <= theirs for line in lines), f"X stuck with {pieces}, O on {theirs}"


def test_a_player_without_a_move_draws(monkeypatch):
    # Unreachable (see above), so the rule is exercised by taking every motion away.
    monkeypatch.setattr(QuantumMorrisState, "_motions", lambda self: [])
    state = position(CYCLE)
    assert state.outcome() == DRAW and state.legal_moves() == []
    assert "X has no legal move" in state.render()


@pytest.mark.parametrize("preset", ["", "axiom-tmm-4"])
def test_the_move_limit_ends_in_a_draw(preset):
    game = morris(preset=preset, max_moves=10)
    assert game.max_length() == 20
    placed = game.initial_state().play_all(
        ["X1:1-2", "O1:3-6", "X2:4-7", "O2:8-9", "X3:4-5", "O3:5-8"])
    # Four steps there and back again: the position of move 6 at move 10.
    state = placed.play_all(["X1:2>3", "O2:9>6", "X1:3>2"])
    assert str(state) == "X1:1-2 O1:3-6 X2:4-7 O2:6-8 X3:4-5 O3:5-8 | O | moves 9"
    assert state.outcome() is None
    state = state.play("O2:6>9")
    assert str(state) == str(placed).replace("moves 6", "moves 10")
    assert state.outcome() == DRAW and state.legal_moves() == []
    assert placed.outcome() is None
    assert "move limit reached" in state.render()
    with pytest.raises(NotationError, match="max_moves"):
        game.parse_state("X1:1 O1:2 X2:3-4 O2:5-6 X3:7-8 O3:9 | O | moves 11")
    with pytest.raises(OptionError):
        morris(max_moves=9)
    assert morris().max_length() == 400


def test_the_collapse_of_the_last_move_still_counts():
    state = position(BOTH_LINES.replace("O1:7", "O1:5").replace("moves 7", "moves 9"),
                     max_moves=10)
    closed = state.play("O3:6>3")
    assert closed.moves == 10 and closed.outcome() is None and closed.pending
    assert closed.play("→9").outcome() == X_WINS
    assert closed.play("→3").outcome() == DRAW


# --- options, presets, text and drawing -----------------------------------------------

PRESET_FLAGS = {  # deterministic_drop, merge, diagonals (spec section 2)
    "axiom-tmm-1": (True, True, False), "axiom-tmm-2": (False, True, False),
    "axiom-tmm-3": (False, False, False), "axiom-tmm-4": (True, True, True),
    "axiom-tmm-5": (False, True, True), "axiom-tmm-6": (False, False, True),
}


@pytest.mark.parametrize("preset", PRESET_FLAGS)
def test_presets_set_the_flags(preset):
    options = morris(preset=preset).options
    assert (options["deterministic_drop"], options["merge"], options["diagonals"]) == \
        PRESET_FLAGS[preset]
    assert options["scoring"] == "axiom"
    overridden = morris(preset=preset, diagonals=not PRESET_FLAGS[preset][2],
                        scoring="complete").options
    assert overridden["diagonals"] is not PRESET_FLAGS[preset][2]
    assert overridden["scoring"] == "complete" and overridden["merge"] == options["merge"]


def test_defaults_are_dagaz():
    defaults = dict(morris().options)
    dagaz = dict(morris(preset="dagaz").options)
    assert defaults.pop("preset") == "" and dagaz.pop("preset") == "dagaz"
    assert defaults == dagaz == {"scoring": "complete", "merge": False, "diagonals": False,
                                 "deterministic_drop": False, "max_moves": 200}
    with pytest.raises(OptionError, match="unknown preset"):
        morris(preset="axiom-tmm-7")
    assert "axiom-tmm-4" in morris().rules and "Move limit" in morris().rules


@pytest.mark.parametrize("text", [
    "- | X | moves 0",
    "X1:1-2 O1:1-2 | X | collapse O1 | moves 2",
    "X1:5 O1:4-6 X2:1-9 | O | moves 3",
    CYCLE, MERGE_TO_WIN, BOTH_LINES,
    "X1:2-4 O1:2-5 X2:7 O2:4-5 X3:9 O3:3 | O | collapse X1 | moves 7",
    "X1:1 O1:7 X2:2 O2:8 X3:3 O3:9 | X | moves 8",
])
def test_text_form_round_trips(text):
    game = morris(deterministic_drop=True)
    state = game.parse_state(text)
    assert str(state) == text and game.parse_state(str(state)) == state
    assert game.state_from_json(state.to_json()) == state


@pytest.mark.parametrize("text, problem", [
    ("X1:1-2 | X | moves 1", "after 1 moves O is to move"),
    ("X1:1-2 | O", "a position is"),
    ("X1:1-2 | O | moves x", "moves N"),
    ("X1:1-2 O1:3 | O | moves 1", "pieces placed are X1"),
    ("X1:1-2 X1:3 | O | moves 1", "listed twice"),
    ("X4:1-2 | O | moves 1", "numbered 1-3"),
    ("X1:1-1 | O | moves 1", "two different points"),
    ("X1:1-2 O1:2 | X | moves 2", "no half can be there"),
    ("X1:1 O1:1 | X | moves 2", "already holds X1"),
    ("X1:1-2 O1:1-2 | X | moves 2", "cycle"),
    ("X1:1-2 O1:1-3 | X | collapse O1 | moves 2", "closes no cycle"),
    ("X1:1-2 O1:1-2 | X | collapse X1 | moves 2", "not its own X1"),
    ("X1:1-2 O1:1-2 | X | collapse | moves 2", "collapse X2"),
    ("X1:1+2 | O | moves 1", "expected a classical piece"),
    ("X1:1-2 | Z | moves 1", "X or O"),
    ("X1:1-2", "a position is"),
])
def test_bad_positions_name_the_problem(text, problem):
    with pytest.raises(NotationError, match=re.escape(problem)):
        morris().parse_state(text)


@pytest.mark.parametrize("text", ["", "X1", "X1:0-2", "5", "X1:2*5", "→0", "1-2-3"])
def test_malformed_moves_are_notation_errors(text):
    with pytest.raises(NotationError):
        morris().initial_state().parse_move(text)


def test_illegal_moves_say_why():
    start = morris().initial_state()
    assert "no cycle to collapse" in illegal(start, "→5")
    assert "deterministic_drop" in illegal(start, "X1:5-5")
    over = position("X1:1 O1:7 X2:2 O2:8 X3:3 O3:5 | X | moves 6")
    assert over.outcome() == X_WINS and "game is over" in illegal(over, "O3:5+6")
    with pytest.raises(NotationError):
        over.parse_move("garbage")


def test_render_shows_pieces_halves_and_the_pending_collapse():
    closed = position(CYCLE).play("X1:1>4")
    text = closed.render()
    assert "[X2]" in text and "[O3]" in text
    assert "x₁*" in text and "o₁" in text and "o₂" in text
    assert "cycle closed by X1*: O collapses it, →2 or →4" in text
    assert "places X1" in morris().initial_state().render()
    assert "steps a half" in position(CYCLE).render()


def test_evaluate_is_bounded_and_sees_two_in_a_row():
    game = morris()
    good = position("X1:1 O1:7 X2:2 O2:8-9 X3:5-6 O3:4-9 | X | moves 6")
    assert game.evaluate(good, 0) > 0 > game.evaluate(good, 1)
    rng = random.Random(5)
    state = game.initial_state()
    while not state.is_terminal():
        for player in (0, 1):
            assert -1.0 <= game.evaluate(state, player) <= 1.0
        state = state.play(rng.choice(state.legal_moves()))
    assert Fraction(sum(state.outcome())) == 1
