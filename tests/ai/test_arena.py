"""The arena: seats alternate, results add up, the Wilson interval matches
published values, and alpha-beta never loses to a random player."""

from __future__ import annotations

from fractions import Fraction

import pytest

from boardlab import load
from boardlab.ai.alphabeta import AlphaBetaBot
from boardlab.ai.arena import GameRecord, arena, play_game, wilson_interval
from boardlab.ai.bots import BotError, RandomBot
from boardlab.core.game import DRAW, LOSS, WIN
from boardlab.core.move import Move

TTT = load("tic-tac-toe")


@pytest.mark.parametrize(("successes", "trials", "low", "high"), [
    # Newcombe, "Two-sided confidence intervals for the single proportion" (1998), table I.
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_interval_matches_published_values(successes, trials, low, high):
    got = wilson_interval(successes, trials)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_wilson_interval_is_symmetric_and_inside_unit_interval():
    low, high = wilson_interval(10, 20)
    assert low == pytest.approx(1 - high)
    assert wilson_interval(20, 20)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_game_record_results():
    assert GameRecord(0, WIN, ()).result == "win"
    assert GameRecord(1, WIN, ()).result == "loss"
    assert GameRecord(1, LOSS, ()).points == 1
    assert GameRecord(0, DRAW, ()).result == "draw"


def test_seats_alternate_and_results_add_up():
    seen = []
    result = arena(TTT, RandomBot(seed=1), RandomBot(seed=2), 7,
                   on_game=lambda i, record: seen.append(i))
    assert seen == list(range(7))
    assert [g.seat for g in result.games] == [0, 1, 0, 1, 0, 1, 0]
    assert result.wins + result.draws + result.losses == 7
    assert result.score == result.wins + Fraction(result.draws, 2)
    assert result.score_rate == pytest.approx(float(result.score) / 7)
    low, high = result.interval
    assert low <= result.score_rate <= high
    for record in result.games:
        replayed = TTT.initial_state().play_all(record.moves)
        assert replayed.returns() == record.returns


def test_same_seeds_same_match():
    first = arena(TTT, RandomBot(seed=3), RandomBot(seed=4), 6)
    second = arena(TTT, RandomBot(seed=3), RandomBot(seed=4), 6)
    assert first == second


def test_alphabeta_never_loses_to_random():
    result = arena(TTT, AlphaBetaBot(depth=9, seed=1), RandomBot(seed=2), 20)
    assert result.losses == 0
    assert result.wins >= 10
    assert result.interval[0] > 0.5


def test_play_game_rejects_an_illegal_bot_move():
    class Cheater:
        name = "cheater"

        def choose(self, state):
            return Move("b2-b3")

    with pytest.raises(BotError, match="cheater"):
        play_game(TTT.initial_state(), [Cheater(), Cheater()])


def test_no_games():
    result = arena(TTT, RandomBot(), RandomBot(), 0)
    assert (result.wins, result.draws, result.losses, result.score_rate) == (0, 0, 0, 0.0)


def test_games_scoring_more_than_one_point_keep_the_interval_in_range():
    # Goff's quantum tic-tac-toe gives 1 1/2 or 2 points for simultaneous lines: the
    # match score (win 1, draw 1/2) stays a proportion, the points are reported apart.
    game = load("quantum-tic-tac-toe")
    result = arena(game, RandomBot(seed=3), RandomBot(seed=4), 40)
    big = [g for g in result.games if max(g.returns) > 1]
    assert big, "the seeds should produce a game worth more than one point"
    assert result.score == result.wins + Fraction(result.draws, 2)
    assert result.points == sum(g.points for g in result.games)
    low, high = result.interval
    assert 0 <= low <= result.score_rate <= high <= 1


def test_the_arena_draws_the_dice_and_seats_only_the_real_players():
    from collections import Counter

    from tests.ai.conftest import DiceDuel

    game = DiceDuel()
    result = arena(game, AlphaBetaBot(depth=3, seed=1), RandomBot(seed=2), 300, seed=9)
    # Bot 1 takes the real seats in turn, first (1) then second (2); the die is nobody's.
    assert [g.seat for g in result.games[:4]] == [1, 2, 1, 2]
    assert result == arena(game, AlphaBetaBot(depth=3, seed=1), RandomBot(seed=2), 300,
                           seed=9)
    rolls = Counter(g.moves[1] for g in result.games)
    assert set(rolls) == {"1", "2", "3"} and all(abs(n - 100) < 40 for n in rolls.values())
    # As first, alpha-beta bets risky every time; the die's slot scores nothing.
    assert {g.moves[0] for g in result.games if g.seat == 1} == {"risky"}
    assert all(g.returns[0] == 0 for g in result.games)
    for record in result.games:
        assert game.initial_state().play_all(record.moves).returns() == record.returns


def test_play_game_needs_no_bot_for_a_chance_player():
    import random

    from tests.ai.conftest import Doubles

    returns, moves = play_game(Doubles().initial_state(), [None, RandomBot(seed=1), None],
                               random.Random(4))
    assert len(moves) == 3 and returns[0] == 0
    with pytest.raises(BotError, match="nobody plays first"):
        play_game(Doubles().initial_state(), [None, None, None])
