"""GESS: footprint moves checked against an independent brute force (whole 3x3
footprints on a coordinate dictionary, every square re-checked at every step), and
every special rule on hand-made positions."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.core import kernel
from boardlab.core.engine import Engine
from boardlab.core.game import DRAW, perft, win_for
from boardlab.core.move import Capture
from boardlab.games import gess
from boardlab.games.gess import OFFSETS, SIZE
from tests.games.conftest import ends_as_reference

N = 20
DIRS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
SQUARE = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]


def playable(x, y):
    return 1 <= x <= N - 2 and 1 <= y <= N - 2


def ref_has_ring(stones, player):
    return any((x, y) not in stones and all(stones.get((x + dx, y + dy)) == player
                                            for dx, dy in DIRS)
               for x in range(1, N - 1) for y in range(1, N - 1))


def ref_winner(stones, to_move):
    mover = 1 - to_move
    if not ref_has_ring(stones, mover):
        return to_move
    if not ref_has_ring(stones, to_move):
        return mover
    return None


def ref_moves(stones, player):
    """{(centre before, centre after): stones after}; {} once the game is over."""
    if ref_winner(stones, player) is not None:
        return {}
    out = {}
    for cx in range(1, N - 1):
        for cy in range(1, N - 1):
            area = [(cx + dx, cy + dy) for dx, dy in SQUARE]
            if any(stones.get(c, player) != player for c in area):
                continue
            mine = [c for c in area if c in stones]
            if not mine:
                continue
            far = (cx, cy) in stones
            for dx, dy in DIRS:
                if (cx + dx, cy + dy) not in stones:
                    continue
                k = 0
                while far or k < 3:
                    k += 1
                    nx, ny = cx + k * dx, cy + k * dy
                    if not playable(nx, ny):
                        break
                    landing = {(nx + ax, ny + ay) for ax, ay in SQUARE}
                    hit = {c for c in landing if c in stones and c not in area}
                    after = {c: o for c, o in stones.items() if c not in mine and c not in hit}
                    for x, y in mine:
                        if playable(x + k * dx, y + k * dy):
                            after[(x + k * dx, y + k * dy)] = player
                    out[((cx, cy), (nx, ny))] = after
                    if hit:
                        break
    return out


def ref_perft(stones, to_move, depth):
    counts = [0] * depth

    def walk(position, side, level):
        moves = ref_moves(position, side)
        counts[level] += len(moves)
        if level + 1 < depth:
            for after in moves.values():
                walk(after, 1 - side, level + 1)

    walk(stones, to_move, 0)
    return counts


# --- bridging ------------------------------------------------------------------------
def xy(name):
    cell = boardlab.load("gess").board.cell(name)
    return cell % N, cell // N


def as_ref(state):
    return {(c % N, c // N): p.owner for c, p in state.occupied()}


def game_moves(state):
    out = {}
    for m in state.legal_moves():
        origin, centre = m.tag
        out[((origin % N, origin // N), (centre % N, centre // N))] = as_ref(state.play(m))
    return out


def ring(centre):
    x, y = xy(centre)
    board = boardlab.load("gess").board
    return [board.cell_name((y + dy) * N + x + dx) for dx, dy in DIRS]


def position(black=(), white=(), to_move="black", **options):
    rows = [["."] * N for _ in range(N)]
    for names, symbol in ((black, "b"), (white, "w")):
        for name in names:
            x, y = xy(name)
            rows[N - 1 - y][x] = symbol
    text = "/".join("".join(r) for r in rows) + " " + to_move
    return boardlab.load("gess", **options).parse_state(text)


BLACK_RING, WHITE_RING = ring("c3"), ring("r18")


def names(state, player):
    return {state.game.board.cell_name(c) for c in state.pieces_of(player)}


def from_centre(state, centre):
    return {m.notation for m in state.legal_moves() if m.notation.split("-")[0] == centre}


# --- perft and random positions ------------------------------------------------------
def test_start_position():
    state = boardlab.load("gess").initial_state()
    assert len(state.pieces_of(0)) == len(state.pieces_of(1)) == 43
    assert ref_has_ring(as_ref(state), 0) and ref_has_ring(as_ref(state), 1)
    assert "l3" not in names(state, 0) and set(ring("l3")) <= names(state, 0)
    assert set(ring("l18")) <= names(state, 1)


def test_perft_matches_brute_force():
    game = boardlab.load("gess")
    start = as_ref(game.initial_state())
    reference = ref_perft(start, 0, 2)
    assert reference == list(game.known_perft[:2])
    assert perft(game.initial_state(), 2) == reference


def test_the_interpreter_s_perft_matches_brute_force_too():
    # The footprint template interpreted (the reference the kernel is compared with).
    game = boardlab.load("gess", engine="interpreter")
    state = game.initial_state()
    assert not isinstance(state, kernel.KernelPosition)
    assert perft(state, 2) == list(game.known_perft[:2])


def test_the_third_count_on_the_kernel():
    # 41,429,344: this module's count and the brute force's, once 445 s and 1,102 s of
    # Python; the kernel counts it in about 2 s.
    state = boardlab.load("gess").initial_state()
    assert isinstance(state, kernel.KernelPosition)
    assert perft(state, 3) == list(boardlab.load("gess").known_perft)


def test_the_kernel_plays_as_the_interpreter_along_random_games():
    # At every position of random games on the kernel (captures avoided nine times in
    # ten, so that rings last), the interpreted rules give the same moves, in order,
    # with their notation and tags, and the same outcome; then the game is taken back.
    game = boardlab.load("gess", move_limit=80)
    interpreted = game.using(Engine.INTERPRETER)
    rng = random.Random("kernel")
    positions = 0
    for _ in range(12):
        state = game.initial_state()
        assert isinstance(state, kernel.KernelPosition)
        played = 0
        while not state.is_terminal():
            plain = interpreted.parse_state(str(state))
            want = [(m.notation, m.actions, m.tag) for m in plain.legal_moves()]
            outcome = plain.outcome()
            assert [(m.notation, m.actions, m.tag) for m in state.legal_moves()] == want
            assert state.outcome() == outcome
            positions += 1
            moves = state.legal_moves()
            quiet = [m for m in moves if not any(type(a) is Capture for a in m.actions)]
            state.apply(rng.choice(quiet if quiet and rng.random() < 0.9 else moves))
            played += 1
        for _ in range(played):
            state.undo()
        assert str(state) == str(game.initial_state())
    assert positions > 50


def test_random_positions_match_brute_force():
    game = boardlab.load("gess")
    rng = random.Random("gess")
    positions = 0
    while positions < 40:
        state = game.initial_state()
        while True:
            moves = state.legal_moves()
            assert game_moves(state) == ref_moves(as_ref(state), state.to_move)
            positions += 1
            if not moves:
                break
            state = state.play(rng.choice(moves))


# --- the rules -------------------------------------------------------------------------
def test_directions_come_from_the_outer_stones():
    state = position(["j10", *BLACK_RING], WHITE_RING)
    assert from_centre(state, "j9") == {"j9-j10", "j9-j11", "j9-j12"}  # north only, <= 3
    assert from_centre(state, "k11") == {"k11-j10", "k11-i9", "k11-h8"}  # south-west
    assert from_centre(state, "j10") == set()  # a lone centre stone has no direction


def test_a_centre_stone_gives_unlimited_range():
    state = position(["j9", "j10", *BLACK_RING], WHITE_RING)
    assert from_centre(state, "j9") == {f"j9-j{n}" for n in range(10, 20)}


def test_the_footprint_stops_on_contact_and_captures():
    state = position(["j9", "j10", *BLACK_RING], ["k14", *WHITE_RING])
    assert from_centre(state, "j9") == {"j9-j10", "j9-j11", "j9-j12", "j9-j13"}
    after = state.play("j9-j13")
    assert "k14" not in names(after, 1)
    assert {"j13", "j14"} <= names(after, 0)


def test_own_stones_under_the_destination_are_removed_too():
    state = position(["j9", "j10", "i13", *BLACK_RING], WHITE_RING)
    assert "j9-j13" not in from_centre(state, "j9")
    after = state.play("j9-j12")
    assert names(after, 0) == {"j12", "j13", *BLACK_RING}


def test_stones_carried_off_the_playing_area_are_removed():
    state = position(["r10", "s10", *BLACK_RING], WHITE_RING)
    assert from_centre(state, "r10") == {"r10-s10"}  # the centre stays on the board
    after = state.play("r10-s10")
    assert names(after, 0) == {"s10", *BLACK_RING}
    assert after.cells[after.game.board.cell("t10")] is None


def test_the_outer_ring_never_holds_stones():
    from boardlab.errors import NotationError

    text = str(position(BLACK_RING, WHITE_RING))
    with pytest.raises(NotationError):
        boardlab.load("gess").parse_state("b" + text[1:])


def test_destroying_ones_own_last_ring_loses():
    state = position(["c6", *BLACK_RING], WHITE_RING)
    after = state.play("c7-c5")
    assert not ref_has_ring(as_ref(after), 0)
    assert after.outcome() == (0, 1)


def test_destroying_both_last_rings_loses_for_the_mover():
    state = position(["e7", *BLACK_RING], ring("f3"))
    after = state.play("e8-e5")
    assert names(after, 1) == set(ring("f3")) - {"e4", "f4"}
    assert after.outcome() == (0, 1)


def test_destroying_the_opponents_last_ring_wins():
    state = position(["e7", *ring("c16")], ring("f3"))
    after = state.play("e8-e5")
    assert after.outcome() == (1, 0)
    assert game_moves(state) == ref_moves(as_ref(state), 0)


def test_two_rings_survive_the_loss_of_one():
    state = position(["e7", *ring("c16")], [*ring("f3"), *WHITE_RING])
    assert state.play("e8-e5").outcome() is None


def test_a_ring_goal_is_an_empty_square_inside_eight_stones_of_one_colour():
    # "A ring is an empty square surrounded by eight stones of one colour" (Eureka 53).
    own, other = gess.ring("self"), gess.ring("opponent")
    state = position(BLACK_RING, WHITE_RING)
    assert own.holds(state, 0) and own.holds(state, 1) and other.holds(state, 0)
    filled = position(["c3", *BLACK_RING], WHITE_RING)  # a stone in the square
    assert not own.holds(filled, 0) and not other.holds(filled, 1) and own.holds(filled, 1)
    mixed = position(BLACK_RING[1:], [BLACK_RING[0], *WHITE_RING])
    assert not own.holds(mixed, 0) and own.holds(mixed, 1) and not other.holds(mixed, 1)


def test_without_rings_or_a_last_move_the_player_to_move_wins():
    # A position given by its text, no ring on either side: the mover is the player not
    # to move, whose ring is gone, so the player to move wins (the old Python rule), with
    # no last move to read.
    assert position(["e5"], ["p15"], to_move="black").outcome() == (1, 0)
    assert position(["e5"], ["p15"], to_move="white").outcome() == (0, 1)


def test_move_limit_draws():
    state = position(BLACK_RING, WHITE_RING, move_limit=10)
    drawn = state.game.parse_state(str(state) + " ply:10")
    assert drawn.outcome() == (0.5, 0.5) and drawn.legal_moves() == []


# --- selection -------------------------------------------------------------------------
def test_closure_selects_the_whole_footprint():
    game = boardlab.load("gess")
    state = game.initial_state()
    move = state.parse_move("l3-l6")
    stones = [state.game.board.cell(n) for n in ring("l3")]
    assert sorted(game.closure(state, stones[:1], move)) == sorted(stones)
    assert game.closure(state, stones[:1], move)[0] == stones[0]


def test_group_moves_are_the_moves_of_footprints_holding_exactly_the_group():
    game = boardlab.load("gess")
    state = position(["j9", "j10", *BLACK_RING], WHITE_RING)
    pair = [state.game.board.cell(n) for n in ("j9", "j10")]
    moves = {m.notation for m in game.group_moves(state, pair)}
    # Centres j9 and j10 hold both stones, and so do i9, i10, k9, k10.
    assert {f"j9-j{n}" for n in range(10, 20)} <= moves
    assert {m.split("-")[0] for m in moves} <= {"i9", "i10", "j9", "j10", "k9", "k10"}
    assert "j10-j11" not in moves  # j10's footprint moves south only (j9 is its s stone)
    assert all(game.closure(state, pair[:1], m) == pair for m in game.group_moves(state, pair))


def test_ring_counts_are_the_brute_force_s():
    # Random scatters of stones and of whole rings (touching and overlapping ones too):
    # the one-pass count of both colours' rings is the reference's, square by square.
    rng = random.Random("rings")
    inner = [(x, y) for x in range(1, N - 1) for y in range(1, N - 1)]
    game = boardlab.load("gess")
    several = 0
    for _ in range(60):
        stones = {c: rng.randrange(2) for c in rng.sample(inner, rng.randint(0, 120))}
        for _ in range(rng.randint(0, 6)):
            cx, cy = rng.randint(2, N - 3), rng.randint(2, N - 3)
            colour = rng.randrange(2)
            stones.pop((cx, cy), None)
            stones.update({(cx + dx, cy + dy): colour for dx, dy in DIRS})
        want = [sum(1 for x in range(1, N - 1) for y in range(1, N - 1)
                    if (x, y) not in stones and all(stones.get((x + dx, y + dy)) == player
                                                    for dx, dy in DIRS)) for player in (0, 1)]
        rows = [["."] * N for _ in range(N)]
        for (x, y), owner in stones.items():
            rows[N - 1 - y][x] = "bw"[owner]
        state = game.parse_state("/".join("".join(r) for r in rows) + " black")
        assert gess.ring_counts(state.cells) == tuple(want)
        several += max(want) > 1
    assert several > 5


def test_evaluation():
    game = boardlab.load("gess")
    assert game.evaluate(game.initial_state(), 0) == 0
    two = position([*BLACK_RING, *ring("c16"), "j9"], WHITE_RING)
    assert 0 < game.evaluate(two, 0) <= 1 and game.evaluate(two, 1) < 0


# --- the end as goals against the old Python code ------------------------------------
def old_result(game, state):
    """GESS's ``result`` as it was written in Python before its end became goals, kept
    here as the reference (with its ring search): the mover loses without a ring, else
    wins if the opponent has none; then the move limit."""
    def has_ring(cells, player):
        for y in range(2, SIZE - 2):
            row = y * SIZE
            for x in range(2, SIZE - 2):
                c = row + x
                if cells[c] is not None:
                    continue
                for dx, dy in OFFSETS:
                    if dx or dy:
                        p = cells[c + dy * SIZE + dx]
                        if p is None or p.owner != player:
                            break
                else:
                    return True
        return False

    mover = 1 - state.to_move
    if not has_ring(state.cells, mover):
        return win_for(state.to_move)
    if not has_ring(state.cells, state.to_move):
        return win_for(mover)
    if state.ply >= game.options["move_limit"]:
        return DRAW
    return None


@pytest.mark.parametrize(("move_limit", "seeds"), [(16, range(0, 40)), (40, range(40, 60))])
def test_the_goals_end_games_as_the_old_python_code(move_limit, seeds):
    # 60 random games, short ones: a position's 400-odd moves take some 20 ms.
    game = boardlab.load("gess", move_limit=move_limit)
    assert kernel.why_not(game) is None
    met = ends_as_reference(game, old_result, seeds)
    assert met[win_for(0)] and met[win_for(1)] and met[DRAW]
