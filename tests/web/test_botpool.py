"""Bots in worker processes: a move within the limits is the bot's own; a bot that
overruns its time or memory, or whose worker dies, is stopped and replaced, and the
seat gets a random legal move; the pool goes on serving after each of these."""

from __future__ import annotations

import asyncio
import time

import pytest

from boardlab import load
from boardlab.web.botpool import BotPool, random_move

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def choose(pool: BotPool, game, moves, bot: str, **options):
    state = game.initial_state().play_all(moves)
    return asyncio.run(pool.choose(game, moves, state, bot, options)), state


def _one_worker(grace: float):
    opened = BotPool(workers=1, memory_mb=1024, grace=grace, prepare_seconds=60)
    yield opened
    opened.close()


@pytest.fixture
def pool():
    yield from _one_worker(grace=0.5)


def test_a_bot_within_its_limits_plays_its_own_move(pool):
    game = load("tic-tac-toe")
    # alphabeta to the end finds the only move that stops X's row
    choice, state = choose(pool, game, ["a1", "b2", "a2"], "alphabeta", depth=9, seed=1,
                           time=2.0)
    assert choice.how == "bot" and choice.notation == "a3"
    # the same worker serves the next match, of another game
    again, _ = choose(pool, load("connect-four"), ["d"], "random", seed=2, time=0.1)
    assert again.how == "bot" and again.notation in {m.notation for m in
                                                     load("connect-four").initial_state()
                                                     .play("d").legal_moves()}


def test_a_bot_that_overruns_its_time_is_stopped_and_the_seat_moves_at_random(pool):
    game = load("quantum-tic-tac-toe")
    # the exact solver ignores time: it would search quantum tic-tac-toe for half a minute
    started = time.monotonic()
    choice, state = choose(pool, game, [], "exact", seed=5, time=0.2)
    elapsed = time.monotonic() - started
    assert choice.how == "overran" and "longer than 0.7 s" in choice.detail
    assert choice.notation == random_move(state, 5)
    assert elapsed < 30, elapsed
    # a new worker takes its place
    after, _ = choose(pool, load("tic-tac-toe"), [], "random", seed=1, time=0.1)
    assert after.how == "bot"


class Hungry:
    """A game whose rebuilding in the worker asks for more memory than the cap allows."""

    def __init__(self, game):
        self.game = game

    def recipe(self):
        return bytearray, (4 * 2**30,), {}


def test_a_job_over_the_memory_cap_is_stopped(pool):
    game = load("tic-tac-toe")
    state = game.initial_state()
    choice = asyncio.run(pool.choose(Hungry(game), [], state, "random", {"seed": 4}))
    assert choice.how == "overran" and "memory" in choice.detail
    assert choice.notation == random_move(state, 4)
    after, _ = choose(pool, game, [], "random", seed=1, time=0.1)
    assert after.how == "bot"


@pytest.fixture
def patient_pool():
    """A pool whose bots may overrun their time by 30 s: a worker started again on a busy
    machine is slow to answer, and this test is about its replacement, not its pace."""
    yield from _one_worker(grace=30.0)


def test_a_worker_that_dies_is_replaced(patient_pool):
    pool = patient_pool
    game = load("tic-tac-toe")
    first, _ = choose(pool, game, [], "random", seed=1, time=0.1)
    assert first.how == "bot" and len(pool._idle) == 1
    pool._idle[0].process.kill()
    pool._idle[0].process.join(5)
    choice, state = choose(pool, game, [], "random", seed=3, time=0.1)
    assert choice.how == "failed" and choice.notation == random_move(state, 3)
    after, _ = choose(pool, game, [], "random", seed=1, time=0.1)
    assert after.how == "bot"


def test_in_threads_without_workers():
    pool = BotPool(workers=0)
    choice, _ = choose(pool, load("tic-tac-toe"), ["a1", "b2", "a2"], "alphabeta", depth=9,
                       seed=1, time=2.0)
    assert choice.how == "bot" and choice.notation == "a3"
    with pytest.raises(ValueError, match="0 or more"):
        BotPool(workers=-1)


def test_what_a_bot_compiles_counts_as_preparing_not_as_its_time(pool):
    # MCTS on Connect Four searches in the kernel (its uct compiled on first use, some
    # seconds on a machine that never compiled it): the worker compiles it before the
    # move's clock starts, so a 0.3 s budget with 0.5 s of grace is the bot's own move.
    game = load("connect-four")
    choice, state = choose(pool, game, ["d", "c"], "mcts", seed=3, time=0.3)
    assert choice.how == "bot"
    assert choice.notation in {m.notation for m in state.legal_moves()}
