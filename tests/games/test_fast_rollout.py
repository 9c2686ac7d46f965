"""The compiled random playouts of the game kernels (games written in the move
language: tic-tac-toe, Connect Four, Othello, 3-D tic-tac-toe) against the truth.

Truth is the readable protocol: exact random-play probabilities by brute force over
every continuation (memoised on the position) where the tree is small -- all of
tic-tac-toe, the last plies of Connect Four, of Othello and of 3-D tic-tac-toe -- and the
generic Python :meth:`State.rollout` where it is not. Frequencies must agree within five
standard errors per outcome; every random source is seeded, so the tests are deterministic.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction

import pytest

import boardlab
from boardlab.core import kernel
from boardlab.core.game import DRAW, Returns, State, win_for
from boardlab.core.position import PieceState
from boardlab.games.fast import NOBODY

#: Index of each outcome in the probability and count triples: X wins, O wins, draw
#: (the kernels' own result codes).
OUTCOME = {win_for(0): 0, win_for(1): 1, DRAW: NOBODY}
SIGMAS = 5
KERNEL_PLAYOUTS = 200_000
GENERIC_PLAYOUTS = 20_000


def exact(state: State) -> tuple[Fraction, Fraction, Fraction]:
    """The probabilities of an X win, an O win and a draw when both sides play
    uniformly at random from ``state``, by walking every continuation."""
    memo: dict[object, tuple[Fraction, ...]] = {}

    def walk() -> tuple[Fraction, ...]:
        signature = state.signature()
        if signature in memo:
            return memo[signature]
        out = state.outcome()
        probabilities = [Fraction(0)] * 3
        if out is not None:
            probabilities[OUTCOME[out]] = Fraction(1)
        else:
            moves = state.legal_moves()
            for move in moves:
                state.apply(move)
                for i, p in enumerate(walk()):
                    probabilities[i] += p / len(moves)
                state.undo()
        memo[signature] = tuple(probabilities)
        return memo[signature]

    return walk()  # type: ignore[return-value]


def tally(results: Sequence[Returns]) -> list[int]:
    """Counts of X wins, O wins and draws among rollout results."""
    counts = [0, 0, 0]
    for returns in results:
        counts[OUTCOME[returns]] += 1
    return counts


def assert_matches(counts: Sequence[int], probabilities: Sequence[Fraction]) -> None:
    """Observed ``counts`` agree with exact ``probabilities`` (a zero must be exact)."""
    n = sum(counts)
    for count, p in zip(counts, probabilities, strict=True):
        error = math.sqrt(float(p * (1 - p)) / n)
        assert abs(count / n - float(p)) <= SIGMAS * error, (counts, [float(q) for q in
                                                                      probabilities])


def assert_same_distribution(a: Sequence[int], b: Sequence[int]) -> None:
    """Two samples of outcome counts agree (pooled two-proportion test per outcome)."""
    na, nb = sum(a), sum(b)
    for ca, cb in zip(a, b, strict=True):
        p = (ca + cb) / (na + nb)
        error = math.sqrt(p * (1 - p) * (1 / na + 1 / nb))
        assert abs(ca / na - cb / nb) <= SIGMAS * error, (a, b)


def ttt(text: str, misere: bool = False) -> PieceState:
    # Tic-tac-toe is written in the move language: its positions are kernel positions.
    game = boardlab.load("misere-tic-tac-toe" if misere else "tic-tac-toe")
    state = game.parse_state(text)
    assert isinstance(state, kernel.KernelPosition)
    return state


def connect_four(text: str | None = None, **options: int) -> PieceState:
    # Connect Four is written in the move language too.
    game = boardlab.load("connect-four", **options)
    state = game.initial_state() if text is None else game.parse_state(text)
    assert isinstance(state, kernel.KernelPosition)
    return state


def cube(text: str | None = None) -> PieceState:
    # 3-D tic-tac-toe is written in the move language too.
    game = boardlab.load("tic-tac-toe-3d")
    state = game.initial_state() if text is None else game.parse_state(text)
    assert isinstance(state, kernel.KernelPosition)
    return state


def batch(state: PieceState, n: int, seed: int) -> list[int]:
    """X wins, O wins and draws of ``n`` playouts in one call of the game's kernel."""
    done = state.playouts(n, seed)
    return [done.wins[0], done.wins[1], done.draws]


# --- tic-tac-toe: everything against brute force --------------------------------------

TTT_POSITIONS = [
    (".../.../... x", False),
    (".../.x./... o", False),
    ("o../.x./x.. o", False),  # X threatens a1-b2-c3
    ("xo./.x./o.. x", False),
    (".../.../... x", True),
    ("o../.x./x.. o", True),
]


def test_exact_probabilities_from_the_empty_board() -> None:
    # 255,168 games weighted by their probability; published approximately as
    # 0.585 / 0.288 / 0.127 (e.g. Wikipedia's talk of random tic-tac-toe)
    assert exact(ttt(".../.../... x")) == (Fraction(737, 1260), Fraction(121, 420),
                                         Fraction(8, 63))
    assert exact(ttt(".../.../... x", misere=True)) == (Fraction(121, 420),
                                                      Fraction(737, 1260), Fraction(8, 63))


@pytest.mark.parametrize(("text", "misere"), TTT_POSITIONS)
def test_tictactoe_kernel_matches_exact(text: str, misere: bool) -> None:
    state = ttt(text, misere)
    assert_matches(batch(state, KERNEL_PLAYOUTS, seed=1), exact(state))


@pytest.mark.parametrize(("text", "misere"), TTT_POSITIONS)
def test_tictactoe_rollout_matches_exact(text: str, misere: bool) -> None:
    state = ttt(text, misere)
    rng = random.Random(2)
    assert_matches(tally([state.rollout(rng) for _ in range(GENERIC_PLAYOUTS)]),
                   exact(state))


@pytest.mark.parametrize(("text", "misere"), TTT_POSITIONS[:2])
def test_tictactoe_rollout_agrees_with_generic_rollout(text: str, misere: bool) -> None:
    state = ttt(text, misere)
    rng = random.Random(3)
    generic = [State.rollout(state, rng) for _ in range(GENERIC_PLAYOUTS)]
    fast = [state.rollout(rng) for _ in range(GENERIC_PLAYOUTS)]
    assert_same_distribution(tally(fast), tally(generic))


@pytest.mark.parametrize(("text", "misere", "expected"), [
    ("xoo/oox/xx. x", False, win_for(0)),  # c1 completes X's first row
    ("xoo/oox/xx. x", True, win_for(1)),  # ... which loses the misère game
    ("xox/xoo/o.x x", False, DRAW),  # b1 completes nothing
    ("xx./xoo/.ox o", False, win_for(0)),  # O can block only one of X's two lines
    ("xxx/oo./... o", False, win_for(0)),  # over already
    ("xxx/oo./... o", True, win_for(1)),
])
def test_tictactoe_forced_results(text: str, misere: bool, expected: Returns) -> None:
    state = ttt(text, misere)
    before = str(state)
    rng = random.Random(4)
    assert {state.rollout(rng) for _ in range(200)} == {expected}
    assert str(state) == before
    if state.outcome() is None:
        assert batch(state, 1000, seed=5)[OUTCOME[expected]] == 1000


def test_rollout_is_reproducible_and_returns_fractions() -> None:
    state = ttt(".../.x./... o")
    first = [state.rollout(random.Random(seed)) for seed in range(50)]
    again = [state.rollout(random.Random(seed)) for seed in range(50)]
    assert first == again
    assert len(set(first)) == 3
    assert all(isinstance(v, Fraction) for returns in first for v in returns)


# --- Connect Four: brute force near the end, the generic rollout elsewhere ------------

def near_end(seed: int, empty_cells: int, **options: int) -> PieceState:
    """The first random game (from ``seed``) still going with ``empty_cells`` left."""
    rng = random.Random(seed)
    game = connect_four(**options).game  # one game: each new one writes its kernel again
    cells = game.options["rows"] * game.options["columns"]
    while True:
        state = game.initial_state()
        for _ in range(cells - empty_cells):
            moves = state.legal_moves()
            if not moves:
                break
            state.apply(moves[rng.randrange(len(moves))])
        if state.outcome() is None:
            return state.clone()


def assert_batch_and_rollout_match_exact(state: PieceState, seed: int) -> None:
    """The kernel's batch from ``state`` (seeded ``seed``) and 2,000 single rollouts
    (seeded ``seed + 1``) both match the exact random-play probabilities."""
    probabilities = exact(state)
    assert_matches(batch(state, KERNEL_PLAYOUTS, seed=seed), probabilities)
    rng = random.Random(seed + 1)
    assert_matches(tally([state.rollout(rng) for _ in range(2000)]), probabilities)


C4_NEAR_END = [
    near_end(6, 8),
    near_end(7, 9),
    near_end(8, 10, rows=4, columns=4),
    near_end(9, 10, rows=5, columns=6),
]


@pytest.mark.parametrize("state", C4_NEAR_END, ids=str)
def test_connect_four_kernel_matches_exact(state: PieceState) -> None:
    assert_batch_and_rollout_match_exact(state, seed=10)


C4_MIDGAME = [
    (None, {}),
    ("......./......./......./...o.../..xx.o./..ox.x. o", {}),
    (None, {"rows": 4, "columns": 5}),
    ("..x.../..o.../..x.../.xo.o. x", {"rows": 4, "columns": 6}),
]


@pytest.mark.parametrize(("text", "options"), C4_MIDGAME)
def test_connect_four_kernel_agrees_with_generic_rollout(text: str | None,
                                                         options: dict[str, int]) -> None:
    state = connect_four(text, **options)
    rng = random.Random(12)
    generic = tally([State.rollout(state, rng) for _ in range(GENERIC_PLAYOUTS)])
    assert_same_distribution(batch(state, KERNEL_PLAYOUTS, seed=13), generic)
    assert_same_distribution(tally([state.rollout(rng) for _ in range(GENERIC_PLAYOUTS)]),
                             generic)


def test_connect_four_forced_results() -> None:
    forced = 0
    for seed in range(40):
        state = near_end(seed, 3)
        probabilities = exact(state)
        if 1 not in probabilities:
            continue
        forced += 1
        expected = next(r for r, i in OUTCOME.items() if probabilities[i] == 1)
        before = str(state)
        rng = random.Random(seed)
        assert {state.rollout(rng) for _ in range(100)} == {expected}, before
        assert str(state) == before
    assert forced >= 5
    over = connect_four("......./......./......./x....../xo...../xo.o... x").play("a")
    assert over.rollout(random.Random(0)) == win_for(0)


def test_connect_four_boards_of_any_size_play_out_on_their_kernel() -> None:
    # 8x8, more cells than the hand-written bitboard kernel's 63 bits held.
    state = connect_four(rows=8, columns=8)
    rng = random.Random(14)
    generic = tally([State.rollout(state, rng) for _ in range(GENERIC_PLAYOUTS)])
    assert_same_distribution(batch(state, KERNEL_PLAYOUTS, seed=15), generic)


# --- Othello: brute force near the end, passes and counts of discs included ----------

def othello_near_end(seed: int, empty_cells: int) -> PieceState:
    """The first random game of Othello (from ``seed``) still going with
    ``empty_cells`` empty cells left."""
    rng = random.Random(seed)
    while True:
        state = boardlab.load("othello").initial_state()
        assert isinstance(state, kernel.KernelPosition)
        while not state.is_terminal() and state.cells.count(None) > empty_cells:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        if state.outcome() is None:
            return state.clone()


OTHELLO_NEAR_END = [othello_near_end(seed, 8) for seed in (16, 17, 18)]


@pytest.mark.parametrize("state", OTHELLO_NEAR_END, ids=str)
def test_othello_kernel_matches_exact(state: PieceState) -> None:
    assert_batch_and_rollout_match_exact(state, seed=19)


# --- 3-D tic-tac-toe: brute force near the end, the generic rollout elsewhere ---------

def cube_near_end(seed: int, empty_cells: int) -> PieceState:
    """The first random game of 3-D tic-tac-toe (from ``seed``) still going with
    ``empty_cells`` left."""
    rng = random.Random(seed)
    while True:
        state = cube()
        for _ in range(27 - empty_cells):
            if state.is_terminal():
                break
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        if state.outcome() is None:
            return state.clone()


CUBE_NEAR_END = [cube_near_end(1, 9), cube_near_end(2, 10), cube_near_end(3, 11)]


@pytest.mark.parametrize("state", CUBE_NEAR_END, ids=str)
def test_tictactoe3d_kernel_matches_exact(state: PieceState) -> None:
    probabilities = exact(state)
    assert_matches(batch(state, KERNEL_PLAYOUTS, seed=16), probabilities)


@pytest.mark.parametrize("text", [None, ".../.../...|.../.x./...|o../.../... x"])
def test_tictactoe3d_kernel_agrees_with_generic_rollout(text: str | None) -> None:
    state = cube(text)
    rng = random.Random(17)
    generic = tally([State.rollout(state, rng) for _ in range(GENERIC_PLAYOUTS)])
    assert_same_distribution(batch(state, KERNEL_PLAYOUTS, seed=18), generic)
