"""Taacoca: the group product checked against an independent brute force (subsets of
stones times directions on a plain coordinate dictionary), and every special rule on
hand-made positions."""

from __future__ import annotations

import itertools
import random

import pytest

import boardlab
from boardlab.core.game import perft
from boardlab.core.move import Capture, Shift
from boardlab.core.selection import moves_for_group

# --- the independent reference: axial (q, r) coordinates, stones in a dict ----------
CELLS = frozenset((q, r) for r in range(-4, 5) for q in range(-4, 5) if abs(q - r) <= 4)
ALL = ((1, 0), (-1, 0), (1, 1), (-1, -1), (0, 1), (0, -1))
FORWARD = {0: ((0, 1), (1, 1)), 1: ((0, -1), (-1, -1))}
GOAL_ROW = {0: 4, 1: -4}  # r of the opponent's home row
START = {**{c: 0 for c in CELLS if c[1] == -4},
         **{(q, -3): 0 for q in (-3, -2, -1, 0)}, **{(q, -2): 0 for q in (-2, -1, 0)}}
START.update({(-q, -r): 1 for (q, r) in list(START)})


def ref_winner(stones, to_move):
    for (_, r), owner in stones.items():
        if r == GOAL_ROW[owner]:
            return owner
    owners = set(stones.values())
    if len(owners) < 2:
        return owners.pop() if owners else 1 - to_move
    return None


def ref_moves(stones, to_move, directions="forward", group="three"):
    """Moves as (frozenset of sources, direction vector); [] when the game is over."""
    if ref_winner(stones, to_move) is not None:
        return []
    mine = sorted(c for c, o in stones.items() if o == to_move)
    sizes = [min(3, len(mine))] if group == "three" else [1, 2, 3]
    dirs = FORWARD[to_move] if directions == "forward" else ALL
    out = []
    for d in dirs:
        for k in sizes:
            for chosen in itertools.combinations(mine, k):
                targets = [(q + d[0], r + d[1]) for q, r in chosen]
                if any(t not in CELLS for t in targets):
                    continue
                if any(stones.get(t) == to_move and t not in chosen for t in targets):
                    continue
                out.append((frozenset(chosen), d))
    return out


def ref_play(stones, move):
    chosen, d = move
    owner = stones[next(iter(chosen))]
    new = {c: o for c, o in stones.items() if c not in chosen}
    for q, r in chosen:
        new[(q + d[0], r + d[1])] = owner
    return new


def ref_perft(stones, to_move, depth):
    counts = [0] * depth

    def walk(position, side, level):
        moves = ref_moves(position, side)
        counts[level] += len(moves)
        if level + 1 < depth:
            for m in moves:
                walk(ref_play(position, m), 1 - side, level + 1)

    walk(stones, to_move, 0)
    return counts


# --- bridging the two ---------------------------------------------------------------
def as_ref(state):
    coords = state.game.board.coords
    return {coords[c]: p.owner for c, p in state.occupied()}


def move_key(state, move):
    coords = state.game.board.coords
    shifts = move.moved_cells()
    s, t = shifts[0]
    d = (coords[t][0] - coords[s][0], coords[t][1] - coords[s][1])
    return frozenset(coords[s] for s, _ in shifts), d


def position(text, **options):
    return boardlab.load("taacoca", **options).parse_state(text)


def cells(state, names):
    return {state.game.board.cell(n) for n in names}


# --- perft and random positions ------------------------------------------------------
def test_start_matches_the_zrf_setup():
    state = boardlab.load("taacoca").initial_state()
    assert as_ref(state) == START
    assert len(START) == 24 and len(CELLS) == 61


def test_perft_matches_brute_force():
    # Depth 3 (352408) agrees too but takes ~20 s for both generators together.
    game = boardlab.load("taacoca")
    reference = ref_perft(START, 0, 2)
    assert reference == list(game.known_perft[:2])
    assert perft(game.initial_state(), 2) == reference


@pytest.mark.parametrize("options", [{}, {"directions": "all"}, {"group": "any"},
                                     {"directions": "all", "group": "any"}])
def test_random_positions_match_brute_force(options):
    forward = options.get("directions", "forward") == "forward"
    game = boardlab.load("taacoca", **options, **({} if forward else {"move_limit": 40}))
    rng = random.Random(f"taacoca {options}")
    for _ in range(10 if forward else 3):
        state = game.initial_state()
        while True:
            moves = state.legal_moves()
            if not forward and state.ply >= 40:
                assert moves == [] and state.outcome() == (0.5, 0.5)  # the move limit
                break
            keys = [move_key(state, m) for m in moves]
            assert len(set(keys)) == len(keys)
            assert set(keys) == set(ref_moves(as_ref(state), state.to_move, **options))
            if not moves:
                break
            move = rng.choice(moves)
            after = ref_play(as_ref(state), move_key(state, move))
            state = state.play(move)
            assert as_ref(state) == after


# --- the rules -------------------------------------------------------------------------
def test_groups_need_not_be_adjacent():
    state = boardlab.load("taacoca").initial_state()
    move = state.parse_move("a1,b2,c5:nw")
    cell = state.game.board.cell
    assert set(move.actions) == {Shift(cell("a1"), cell("b1")), Shift(cell("b2"), cell("c2")),
                                 Shift(cell("c5"), cell("d5"))}


def test_a_stone_may_enter_a_cell_vacated_in_the_same_move():
    # c4 -> d4 -> e4 -> f4 is a line going north-west.
    state = position("c4=w,d4=w,e4=w,i9=b white")
    move = state.parse_move("c4,d4,e4:nw")
    after = state.play(move)
    assert {after.game.board.cell_name(c) for c in after.pieces_of(0)} == {"d4", "e4", "f4"}


def test_own_stones_that_stay_block():
    state = position("c4=w,d4=w,a1=w,a5=w,i9=b white")
    notations = {m.notation for m in state.legal_moves()}
    assert "a1,a5,c4:nw" not in notations  # d4 stays and blocks c4
    assert "a1,a5,d4:nw" in notations
    assert "a1,c4,d4:nw" in notations  # with d4 in the group, c4 may follow it


def test_enemy_stones_on_targets_are_captured():
    state = position("c4=w,c5=w,a1=w,d4=b,d5=b,i9=b white")
    move = state.parse_move("a1,c4,c5:nw xd4,d5")
    assert {a for a in move.actions if isinstance(a, Capture)} == {
        Capture(c) for c in cells(state, ["d4", "d5"])}
    after = state.play(move)
    assert [after.game.board.cell_name(c) for c in after.pieces_of(1)] == ["i9"]


def test_exactly_three_stones_move():
    state = boardlab.load("taacoca").initial_state()
    assert all(len(m.moved_cells()) == 3 for m in state.legal_moves())
    assert {len(m.moved_cells()) for m in
            boardlab.load("taacoca", group="any").initial_state().legal_moves()} == {1, 2, 3}


def test_fewer_than_three_stones_all_move():
    state = position("c4=w,e5=w,i9=b white")
    assert {m.notation for m in state.legal_moves()} == {"c4,e5:nw", "c4,e5:ne"}


def test_only_forward_moves_by_default():
    state = position("e5=w,i9=b,g6=b black")
    assert {m.notation for m in state.legal_moves()} == {"g6,i9:se", "g6,i9:sw"}
    every = position("e5=w,i9=b,g6=b black", directions="all")
    assert len(every.legal_moves()) > 2


def test_a_side_that_cannot_move_loses():
    # e1 cannot go north-west, e9 cannot go north-east: two stones, no move.
    state = position("e1=w,e9=w,i9=b white")
    assert state.legal_moves() == []
    assert state.outcome() == (0, 1)


def test_reaching_the_far_row_wins():
    state = position("h5=w,c3=w,c4=w,e1=b,e2=b,f2=b white")
    after = state.play("c3,c4,h5:nw")
    assert after.outcome() == (1, 0)
    black = position("b2=b,g5=b,g6=b,e5=w,e6=w black").play("b2,g5,g6:se")
    assert black.outcome() == (0, 1)


def test_capturing_every_stone_wins():
    state = position("c4=w,c5=w,a1=w,d5=b white")
    assert state.play("a1,c4,c5:ne xd5").outcome() == (1, 0)


def test_random_games_end_within_max_length():
    game = boardlab.load("taacoca")
    rng = random.Random(7)
    for _ in range(10):
        state = game.initial_state()
        plies = 0
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_moves()))
            plies += 1
        assert plies <= game.max_length()
    drawn = boardlab.load("taacoca", directions="all", move_limit=10)
    state = drawn.initial_state()
    for _ in range(10):
        state.apply(state.legal_moves()[0])
    assert state.outcome() == (0.5, 0.5)


# --- selection -------------------------------------------------------------------------
def test_closure_never_grows_the_selection():
    game = boardlab.load("taacoca")
    state = position("c4=w,d4=w,e4=w,i9=b white")
    move = state.parse_move("c4,d4,e4:nw")
    selected = [state.game.board.cell("c4")]
    assert game.closure(state, selected, move) == selected


def test_group_moves_of_a_selected_triple():
    game = boardlab.load("taacoca")
    state = game.initial_state()
    triple = cells(state, ["c3", "c4", "c5"])
    moves = game.group_moves(state, triple)
    assert {m.notation for m in moves} == {"c3,c4,c5:nw", "c3,c4,c5:ne"}
    assert moves == moves_for_group(state, triple)
    assert game.group_moves(state, cells(state, ["a1", "b3"])) == []


def test_evaluation_is_bounded_and_favours_advance():
    game = boardlab.load("taacoca")
    ahead = position("f5=w,a1=w,a2=w,i9=b,i8=b,i7=b white")
    assert 0 < game.evaluate(ahead, 0) <= 1
    assert game.evaluate(ahead, 1) == -game.evaluate(ahead, 0)
    assert game.evaluate(game.initial_state(), 0) == 0
