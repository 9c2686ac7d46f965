"""Tests of nine men's morris (against OpenSpiel) and three men's morris (against a
brute force written here from the rules), and of both on their game kernels against
the interpreter of the move language."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from boardlab import load
from boardlab.core import kernel
from boardlab.core.engine import Engine
from boardlab.core.game import DRAW, PlayoutPolicy, perft, win_for
from boardlab.errors import IllegalMoveError, NotationError, OptionError
from boardlab.games.morris import NINE, NineMensMorrisState, values
from tests.core.test_playouts import agree

NineState = NineMensMorrisState

EMPTY = ".../.../.../....../.../.../..."


def nine(text: str):
    return load("nine-mens-morris").parse_state(text)


def notations(state) -> list[str]:
    return [m.notation for m in state.legal_moves()]


def random_playout(state, rng: random.Random, plies: int):
    """The states met on a uniformly random playout of at most ``plies`` moves."""
    seen = [state]
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        state = state.play(rng.choice(moves))
        seen.append(state)
    return seen


# --- nine men's morris --------------------------------------------------------------

def test_nine_perft_shallow():
    game = load("nine-mens-morris")
    # 24 * 23 * 22 * 21: no mill before White's third man.
    assert perft(game.initial_state(), 4) == [24, 552, 12144, 255024]
    assert list(game.known_perft[:4]) == [24, 552, 12144, 255024]


def test_nine_board_and_notation():
    state = load("nine-mens-morris").initial_state()
    assert str(state) == f"{EMPTY} w - 9/9 0"
    assert notations(state)[:6] == ["a1", "d1", "g1", "b2", "d2", "f2"]
    assert state.to_move == 0 and not state.is_terminal()
    assert load("nine-mens-morris").max_length() == 214


def test_mill_then_removal_is_a_second_move_of_the_same_player():
    state = load("nine-mens-morris").initial_state().play_all(["a1", "a7", "d1", "d7"])
    state = state.play("g1")  # a1 d1 g1 is a mill
    assert state.to_move == 0
    assert str(state) == "bb./.../.../....../.../.../www w x 6/7 4"
    assert state.turns == 4
    assert notations(state) == ["xa7", "xd7"]
    assert state.legal_moves()[0].tag == "remove"
    state = state.play("xd7")
    assert state.to_move == 1
    assert str(state) == "b../.../.../....../.../.../www b - 6/7 5"
    # OpenSpiel counts the mill and its removal as one turn
    assert state.turns == 5


def test_men_in_a_mill_are_protected_unless_all_are():
    # White has just closed g1 g4 g7; Black has the mill a1 a4 a7 and a loose man on b6.
    state = nine("b.w/b../.../b....w/.../.../b.w w x 0/0 40")
    assert notations(state) == ["xb6"]
    # Black's mill a1 a4 a7 and a loose man on d1: only d1 may go.
    state = nine("b.w/w../.../b....w/.../.../bb. w x 5/5 10")
    assert notations(state) == ["xd1"]
    # All of Black's men stand in mills: any of them may go.
    state = nine("b.w/.../.../b....w/.../.../b.w w x 5/5 10")
    assert notations(state) == ["xa1", "xa4", "xa7"]


def test_flying_with_three_men():
    # White has three men and flies; Black has four and steps.
    state = nine("w.w/.../.../b....w/.../.../bbb w - 0/0 50")
    assert state.flying(0) and not state.flying(1)
    assert len(state.legal_moves()) == 3 * (24 - 7)
    state = state.play("a7-d2")
    assert state.to_move == 1
    assert notations(state) == ["a4-b4", "a4-a7"]


def test_loss_with_two_men():
    # White closes d1 d2 d3 and removes one of Black's three men.
    state = nine("b.b/.../b../....../..w/.w./.w. w - 0/0 80")
    state = state.play("e3-d3")
    assert not state.is_terminal() and state.to_move == 0
    assert notations(state) == ["xc5", "xa7", "xg7"]
    state = state.play("xc5")
    assert state.outcome() == win_for(0)
    assert state.legal_moves() == []


def test_loss_with_two_men_during_placement():
    # OpenSpiel counts the men in hand too: two men left in all lose, even in hand.
    state = nine("b../.../.../....../.../.../ww. w - 1/2 30")
    state = state.play("g1")
    assert notations(state) == ["xa7"]
    state = state.play("xa7")
    assert state.hand == [0, 2]
    assert state.outcome() == win_for(0)


def test_loss_without_a_move():
    # Black's a1 d1 g1 d2 are walled in by a4 g4 b2 f2 and the arriving d3.
    state = nine(".../.../.../w....w/..w/wbw/bbb w - 0/0 60")
    assert state.outcome() is None
    state = state.play("e3-d3")
    assert state.to_move == 1
    assert state.outcome() == win_for(0)
    assert state.legal_moves() == []


def test_draw_after_200_turns():
    state = nine("w../.../.../w....w/.w./.../bbb w - 0/0 199")
    state = state.play("a7-d7")
    assert state.turns == 200
    assert state.outcome() == DRAW
    # ...but a removal in the last turn that leaves two men still wins.
    state = nine("b.b/.../b../....../..w/.w./.w. w - 0/0 199")
    state = state.play("e3-d3")
    assert state.outcome() is None and state.turns == 199
    state = state.play("xc5")
    assert state.turns == 200
    assert state.outcome() == win_for(0)


def test_nine_text_round_trip_key_and_undo():
    game = load("nine-mens-morris")
    rng = random.Random(7)
    for _ in range(3):
        state = game.initial_state()
        texts, keys = [], []
        while not state.is_terminal() and len(texts) < 260:
            text = str(state)
            back = game.parse_state(text)
            assert back == state and str(back) == text and back.key() == state.key()
            assert state.key() == state.full_key()
            texts.append(text)
            keys.append(state.key())
            value = game.evaluate(state, state.to_move)
            assert -1 <= value <= 1
            state.apply(rng.choice(state.legal_moves()))
        while texts:
            state.undo()
            assert str(state) == texts.pop() and state.key() == keys.pop()
    assert game.parse_state(f"{EMPTY} w - 9/9 0") == game.initial_state()


@pytest.mark.parametrize("text", [
    "", f"{EMPTY} w - 9/9", f"{EMPTY} w - 9/9 0 extra", f"{EMPTY} q - 9/9 0",
    f"{EMPTY} w ? 9/9 0", f"{EMPTY} w - 9 0", f"{EMPTY} w - 10/9 0", f"{EMPTY} w - 9/9 201",
    ".../.../.../...../.../.../... w - 9/9 0", "..z/.../.../....../.../.../... w - 9/9 0",
    "www/www/www/....../.../.../... w - 1/0 0",
])
def test_nine_malformed_positions(text):
    with pytest.raises(NotationError):
        load("nine-mens-morris").parse_state(text)


def test_nine_malformed_and_illegal_moves():
    state = load("nine-mens-morris").initial_state()
    for text in ["z9", "a2", "d4", "a1-", "-a1", "a1-d1-g1", "x", "xx1", "a1d1", "@d2"]:
        with pytest.raises(NotationError):
            state.parse_move(text)
    for text in ["a1-d1", "xd2", "a1-a1"]:
        with pytest.raises(IllegalMoveError):
            state.parse_move(text)
    assert state.parse_move("D2").notation == "d2"
    state = state.play("d2")
    with pytest.raises(IllegalMoveError):
        state.parse_move("d2")


def test_nine_evaluate_and_render():
    game = load("nine-mens-morris")
    state = nine("b.b/.../b../w....w/..w/.w./.w. w - 0/0 80")
    assert game.evaluate(state, 0) > 0 > game.evaluate(state, 1)
    picture = state.render().splitlines()
    assert picture[0] == "7  B-----------.-----------B"
    assert picture[6] == "4  W---.---.       .---.---W"
    assert picture[-2] == "   a   b   c   d   e   f   g"
    assert picture[-1].startswith("White to move")
    assert "White to fly" in nine("w.w/.../.../b....w/.../.../bbb w - 0/0 50").render()


# OpenSpiel numbers the points row by row from the top of its drawing
# (nine_mens_morris.cc, kPointStrCoords); these are their grid names.
SPIEL_POINTS = (
    "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4",
    "e4", "f4", "g4", "c3", "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1",
)


def spiel_notation(spiel_state, action: int) -> str:
    if action < 24:
        capture = "Capture time!" in str(spiel_state)
        return ("x" if capture else "") + SPIEL_POINTS[action]
    source, target = divmod(action - 24, 24)
    return f"{SPIEL_POINTS[source]}-{SPIEL_POINTS[target]}"


def spiel_returns(values) -> tuple[Fraction, ...]:
    return tuple(Fraction(int(v) + 1, 2) for v in values)


def closes_mill(state, move) -> bool:
    after = state.clone()
    after.apply(move)
    return after.removing


def replies(state, move) -> int:
    after = state.clone()
    after.apply(move)
    return len(after.legal_moves())


def choose(state, rng: random.Random, policy: str) -> str:
    """A move by one of three random policies: uniform; ``mills``, which mostly closes
    mills (removals, flying, wins by men); ``block``, which avoids mills and leaves the
    opponent as few moves as it can (wins by blocking)."""
    moves = state.legal_moves()
    if policy == "mills":
        closing = [m for m in moves if closes_mill(state, m)]
        if closing and rng.random() < 0.7:
            moves = closing
    elif policy == "block":
        moves = [m for m in moves if not closes_mill(state, m)] or moves
        counts = [replies(state, m) for m in moves]
        moves = [m for m, n in zip(moves, counts, strict=True) if n == min(counts)]
    return rng.choice(moves).notation


def spiel_cells(spiel_state) -> list[int]:
    """Our cell values read off OpenSpiel's drawing (kPointStrCoords)."""
    text = str(spiel_state)
    rows = {0: (0, 7, 14), 2: (2, 7, 12), 4: (4, 7, 10), 6: (0, 2, 4, 10, 12, 14),
            8: (4, 7, 10), 10: (2, 7, 12), 12: (0, 7, 14)}
    chars = [text[row * 16 + col] for row in sorted(rows) for col in rows[row]]
    by_name = dict(zip(SPIEL_POINTS, chars, strict=True))
    return [".WB".index(by_name[name]) for name in NINE.board.names]


def test_nine_against_openspiel():
    pyspiel = pytest.importorskip("pyspiel")
    game = load("nine-mens-morris")
    spiel_game = pyspiel.load_game("nine_mens_morris")
    assert game.max_length() == spiel_game.max_game_length()
    rng = random.Random(2024)
    plies = 0
    endings = set()
    flew = False
    for n in range(45):
        policy = ("uniform", "mills", "block")[n % 3]
        ours, theirs = game.initial_state(), spiel_game.new_initial_state()
        while True:
            assert ours.is_terminal() == theirs.is_terminal(), str(ours)
            if ours.is_terminal():
                result = ours.outcome()
                assert result == spiel_returns(theirs.returns()), str(ours)
                if result == DRAW:
                    endings.add("draw")
                else:
                    loser = result.index(0)
                    endings.add("men" if ours.men(loser) <= 2 else "no move")
                break
            assert ours.to_move == theirs.current_player()
            assert values(ours) == spiel_cells(theirs)
            actions = {spiel_notation(theirs, a): a for a in theirs.legal_actions()}
            assert sorted(notations(ours)) == sorted(actions), str(ours)
            flew |= ours.flying(ours.to_move) and not ours.removing
            move = choose(ours, rng, policy)
            ours = ours.play(move)
            theirs.apply_action(actions[move])
            plies += 1
    assert plies > 5000
    assert flew and endings == {"draw", "men", "no move"}


# --- three men's morris -------------------------------------------------------------

def brute_three(depth: int, diagonals: bool = True) -> list[int]:
    """Perft of three men's morris straight from the rules, on (x, y) points."""
    points = [(x, y) for y in range(3) for x in range(3)]

    def is_line(a, b, c):
        (x1, y1), (x2, y2), (x3, y3) = a, b, c
        if (x2 - x1) * (y3 - y1) != (x3 - x1) * (y2 - y1):
            return False
        if x1 == x2 == x3 or y1 == y2 == y3:
            return True
        return diagonals and (1, 1) in (a, b, c)

    def adjacent(a, b):
        dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
        if dx + dy == 1:
            return True
        return diagonals and dx == dy == 1 and (1, 1) in (a, b)

    counts = [0] * depth

    def walk(board: dict, player: int, level: int) -> None:
        mine = [p for p in points if board.get(p) == player]
        empty = [p for p in points if p not in board]
        if len(mine) < 3:
            moves = [(None, p) for p in empty]
        else:
            moves = [(a, b) for a in mine for b in empty if adjacent(a, b)]
        counts[level] += len(moves)
        if level + 1 == depth:
            return
        for source, target in moves:
            after = dict(board)
            after.pop(source, None)
            after[target] = player
            men = [p for p in points if after.get(p) == player]
            won = len(men) == 3 and is_line(*men)
            other = [p for p in points if after.get(p) == 1 - player]
            free = [p for p in points if p not in after]
            stuck = len(other) == 3 and not any(adjacent(a, b) for a in other for b in free)
            if not won and not stuck:
                walk(after, 1 - player, level + 1)

    walk({}, 0, 0)
    return counts


@pytest.mark.parametrize("diagonals,depth", [(True, 8), (False, 7)])
def test_three_perft_against_brute_force(diagonals, depth):
    game = load("three-mens-morris", diagonals=diagonals)
    expected = brute_three(depth, diagonals)
    assert perft(game.initial_state(), depth) == expected
    if diagonals:
        assert list(game.known_perft[:depth]) == expected


def test_three_options():
    assert load("three-mens-morris").options == {"diagonals": True, "max_moves": 200}
    assert load("three-mens-morris", diagonals="off").options["diagonals"] is False
    assert load("three-mens-morris", max_moves=12).max_length() == 12
    with pytest.raises(OptionError):
        load("three-mens-morris", max_moves=0)


def test_three_diagonal_win_and_moves():
    with_diagonals = load("three-mens-morris").initial_state()
    state = with_diagonals.play_all(["a1", "a2", "b2", "a3", "c3"])
    assert state.outcome() == win_for(0)
    plain = load("three-mens-morris", diagonals=False).initial_state()
    state = plain.play_all(["a1", "a2", "b2", "a3", "c3"])
    assert state.outcome() is None
    assert state.to_move == 1
    assert sorted(notations(state)) == ["b1", "b3", "c1", "c2"]
    state = state.play("c1")
    assert notations(state) == ["a1-b1", "b2-b1", "b2-c2", "b2-b3", "c3-c2", "c3-b3"]
    text = "bb./ww./w.b w 6"
    diagonal = notations(load("three-mens-morris").parse_state(text))
    assert diagonal == ["a1-b1", "b2-b1", "b2-c2", "b2-c3"]
    straight = notations(load("three-mens-morris", diagonals=False).parse_state(text))
    assert straight == ["a1-b1", "b2-b1", "b2-c2"]


def test_three_loss_without_a_move():
    game = load("three-mens-morris", diagonals=False)
    state = game.parse_state("bbw/bw./.w. w 10")
    assert sorted(notations(state)) == ["b1-a1", "b1-c1", "b2-c2", "c3-c2"]
    # a1 b2 c3 is no line without the diagonals, but it walls Black's corner in.
    state = state.play("b1-a1")
    assert state.outcome() == win_for(0) and state.legal_moves() == []
    # With the diagonals it is three in a row.
    state = load("three-mens-morris").parse_state("bbw/bw./.w. w 10").play("b1-a1")
    assert state.outcome() == win_for(0)


def test_three_draw_after_max_moves():
    game = load("three-mens-morris", max_moves=8)
    state = game.initial_state().play_all(["b2", "a1", "c1", "a3", "b1", "b3", "b2-c2"])
    assert state.outcome() is None
    state = state.play("a1-a2")
    assert state.plies == 8 and state.outcome() == DRAW


def test_three_text_round_trip_and_errors():
    game = load("three-mens-morris")
    rng = random.Random(3)
    for _ in range(20):
        for state in random_playout(game.initial_state(), rng, 60):
            back = game.parse_state(str(state))
            assert back == state and back.key() == state.key() == state.full_key()
            if not state.is_terminal():
                assert -1 <= game.evaluate(state, 0) <= 1
    for text in ["", "... w 0", "w../.../... w", "x../.../... b 1", "w../.../... w 1",
                 "w../.../... b 2", "ww./.../... b 2", "www/bbb/... w 6",
                 "... /.../... w 20", "w../b../... w 202", "w../b../... w x"]:
        with pytest.raises(NotationError):
            game.parse_state(text)
    state = game.initial_state()
    for text in ["xb2", "d4", "a1-", "b2-c3-a1"]:
        with pytest.raises(NotationError):
            state.parse_move(text)
    with pytest.raises(IllegalMoveError):
        state.parse_move("a1-b2")
    assert "White to place" in state.render()


# --- on the game kernel -------------------------------------------------------------

def test_both_games_are_written_in_the_move_language_and_played_by_their_kernels():
    for game in (load("nine-mens-morris"), load("three-mens-morris"),
                 load("three-mens-morris", diagonals=False, max_moves=30)):
        assert kernel.why_not(game) is None
        state = game.initial_state()
        assert isinstance(state, kernel.KernelPosition)
        # Moves and playouts are the kernel's, not the generic Python loop's.
        assert type(state).legal_moves is kernel.KernelPosition.legal_moves
        assert type(state).playouts is kernel.KernelPosition.playouts
        assert isinstance(game.parse_state(str(state)), kernel.KernelPosition)
        assert not isinstance(game.using(Engine.INTERPRETER).initial_state(),
                              kernel.KernelPosition)


def snapshot(state) -> tuple:
    """What a kernel position and an interpreted one must agree on."""
    return ([(m.notation, m.actions, m.tag) for m in state.legal_moves()], state.outcome(),
            state.key(), str(state), state.to_move, state.ply, state.turns, state.follow,
            state.last_from, state.last_to, state.last_mover, state.signature())


def play_three_ways(game, seed: int, policy: str, plies: int = 260) -> Counter:
    """A random game (by one of :func:`choose`'s policies) on a kernel position and an
    interpreted one, compared at every ply forth and back by undo; returns what kinds of
    moves and ends were met."""
    fast = game.initial_state()
    assert isinstance(fast, kernel.KernelPosition)
    plain = game.using(Engine.INTERPRETER).initial_state()
    rng = random.Random(seed)
    seen, met = [], Counter()
    for _ in range(plies):
        got = snapshot(fast)
        assert snapshot(plain) == got, str(fast)
        seen.append(got)
        if fast.is_terminal():
            met["end"] += 1
            break
        met[fast.legal_moves()[0].tag] += 1
        met["fly"] += isinstance(fast, NineState) and fast.flying(fast.to_move)
        notation = choose(fast, rng, policy) if isinstance(fast, NineState) \
            else rng.choice(fast.legal_moves()).notation
        fast.apply(fast.parse_move(notation))
        plain.apply(plain.parse_move(notation))
    for before in reversed(seen[:-1]):
        for state in (fast, plain):
            state.undo()
        assert snapshot(fast) == before
    return met


def test_nine_plays_on_its_kernel_as_the_interpreter_plays_it():
    game = load("nine-mens-morris")
    met = Counter()
    for seed in range(9):
        met += play_three_ways(game, seed, ("uniform", "mills", "block")[seed % 3])
    # Placements, steps, flights, removals and ends were all compared.
    assert met["place"] and met["move"] and met["fly"] and met["remove"] >= 20
    assert met["end"] >= 8


@pytest.mark.parametrize("diagonals", [True, False])
def test_three_plays_on_its_kernel_as_the_interpreter_plays_it(diagonals):
    game = load("three-mens-morris", diagonals=diagonals, max_moves=40)
    met = Counter()
    for seed in range(12):
        met += play_three_ways(game, seed, "uniform")
    assert met["place"] and met["move"] and met["end"] == 12


def test_positions_read_from_text_play_on_the_kernel_as_on_the_interpreter():
    # A removal due, flights, the last turns before the limit: read from text on both.
    game = load("nine-mens-morris")
    for text in ["bb./.../.../....../.../.../www w x 6/7 4",
                 "w.w/.../.../b....w/.../.../bbb w - 0/0 50",
                 "b.b/.../b../....../..w/.w./.w. w - 0/0 199",
                 ".../.../.../w....w/..w/wbw/bbb w - 0/0 60",
                 "b../.../.../....../.../.../ww. w - 1/2 30"]:
        fast = game.parse_state(text)
        assert isinstance(fast, kernel.KernelPosition)
        slow = game.using(Engine.INTERPRETER).parse_state(text)
        assert snapshot(slow) == snapshot(fast), text
        for move in slow.legal_moves():
            after = slow.play(move)
            assert snapshot(after) == snapshot(fast.play(move.notation)), text


def test_perft_to_depth_4_on_the_kernel_and_the_interpreter():
    nine = load("nine-mens-morris")
    assert perft(nine.initial_state(), 4) == list(nine.known_perft[:4])
    plain_nine = nine.using(Engine.INTERPRETER)
    assert perft(plain_nine.initial_state(), 3) == list(nine.known_perft[:3])
    three = load("three-mens-morris", engine="interpreter")
    assert perft(three.initial_state(), 6) == list(three.known_perft[:6])
    # Past the placements, with removals and flights: a position's perft both ways.
    state = nine.parse_state("b.b/.../b../w....w/..w/.w./.w. w - 0/0 80")
    plain = plain_nine.parse_state(str(state))
    want = perft(plain, 3)
    assert perft(state, 3) == want and want[0] > 0


def test_batch_playouts_on_the_kernel():
    for game in (load("nine-mens-morris"), load("three-mens-morris")):
        state = game.initial_state()
        totals = state.playouts(500, seed=11)
        assert totals.games == 500 and totals.unfinished == 0
        assert sum(totals.wins) + totals.draws == 500
        assert state.playouts(500, seed=11) == totals  # the same seed, the same games
        assert str(state) == str(game.initial_state())  # left as it was
    # Each playout, and a batch of them, is the game the protocol plays with the
    # kernel's generator (tests/core/test_playouts.py): from the start, from a
    # position with a removal due, capped, and with a policy that favours captures.
    nine = load("nine-mens-morris")
    agree(nine.initial_state(), list(range(12)))
    agree(nine.parse_state("bb./.../.../....../.../.../www w x 6/7 4"), list(range(12, 20)))
    agree(nine.initial_state(), list(range(20, 26)), plies=30)
    agree(nine.initial_state(), list(range(26, 32)), policy=PlayoutPolicy(capture=8))
    agree(load("three-mens-morris").initial_state(), list(range(20)))


def test_random_games_on_the_kernel_end_as_in_openspiel_by_every_rule():
    # Random games played whole in the kernel end by men, by blocking and by the limit
    # of turns (uniform play draws about a third of its games).
    totals = load("nine-mens-morris").initial_state().playouts(600, seed=3)
    assert min(totals.wins) > 100 and totals.draws > 60
