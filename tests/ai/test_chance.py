"""Bots in games with a chance player (a die): at the die's turn every bot draws the move
uniformly with its own seeded generator; in search alpha-beta and the exact solver value a
chance node as the mean of its children, MCTS samples it uniformly.

The truth is the games' values worked out by hand (tests/ai/conftest.py: DiceDuel is worth
1/3 with the bet ``risky``, Doubles 1/3) and a brute-force expectiminimax over every
position, written here apart from the code under test.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from boardlab.ai.alphabeta import WIN_SCALE, Searcher
from boardlab.ai.bots import bot_names, draw_move, make_bot
from boardlab.ai.exact import solve_position
from boardlab.ai.mcts import MCTSBot
from boardlab.core.game import State
from boardlab.errors import BotError
from tests.ai.conftest import DiceDuel, Doubles

GAMES = (DiceDuel(), Doubles())


def brute(state: State) -> Fraction:
    """The value of ``state`` as ``first``'s points minus ``second``'s: ``first`` takes the
    most, ``second`` the least, the die (seat 0) the mean."""
    out = state.outcome()
    if out is not None:
        return out[1] - out[2]
    values = [brute(state.play(move)) for move in state.legal_moves()]
    if state.to_move == 0:
        return sum(values, Fraction(0)) / len(values)
    return max(values) if state.to_move == 1 else min(values)


def positions(state: State):
    """Every position of the game from ``state`` on that is not over."""
    if state.is_terminal():
        return
    yield state
    for move in state.legal_moves():
        yield from positions(state.play(move))


def test_the_brute_force_agrees_with_the_hand_count():
    assert brute(DiceDuel().initial_state()) == Fraction(1, 3)
    assert brute(Doubles().initial_state()) == Fraction(1, 3)
    by_bet = {m.notation: brute(DiceDuel().initial_state().play(m))
              for m in DiceDuel().initial_state().legal_moves()}
    assert by_bet == {"safe": 0, "risky": Fraction(1, 3), "wild": Fraction(-1, 3)}


# --- the exact solver ------------------------------------------------------------------------
def test_exact_values_are_the_expectations():
    report = solve_position(DiceDuel().initial_state(), all_moves=True)
    assert report.value == Fraction(1, 3) and report.best.notation == "risky"
    assert {m.notation: v for m, v in report.moves} == \
        {"safe": 0, "risky": Fraction(1, 3), "wild": Fraction(-1, 3)}
    assert report.expected and report.player_names == ("first", "second")
    assert report.verdict == "first ahead by 1/3 point on average"
    # At the die's turn there is no best move: the value is the mean of the rolls'.
    rolled = solve_position(Doubles().initial_state())
    assert rolled.value == Fraction(1, 3) and rolled.best is None
    assert [v for _, v in rolled.moves] == [Fraction(1, 3)] * 3


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_exact_values_of_every_position_equal_the_brute_force(game):
    for state in positions(game.initial_state()):
        assert solve_position(state).value == brute(state), str(state)


def test_the_exact_solver_refuses_what_it_cannot_value():
    with pytest.raises(BotError, match="within 2 positions"):
        solve_position(Doubles().initial_state(), max_nodes=2)


# --- alpha-beta: expectimax ------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_alphabeta_values_of_every_decision_equal_the_brute_force(game):
    for state in positions(game.initial_state()):
        if state.to_move == 0:
            continue
        result = Searcher().search(state)
        # Seen from the player to move; every game ends after three plies, so the plies'
        # share of a decided value is the same on every line, far below 1e-6.
        mine = brute(state) if state.to_move == 1 else -brute(state)
        assert result.value / WIN_SCALE == pytest.approx(float(mine), abs=1e-6), str(state)
        assert result.complete and result.proven is None and result.chance


def test_alphabeta_bets_on_the_expectation():
    # Safe would be the choice of a search taking the die for an opponent (its worst
    # roll), wild or risky of one taking it for a friend; only the mean makes it risky.
    for seed in range(5):
        assert make_bot("alphabeta", depth=3, seed=seed).choose(
            DiceDuel().initial_state()).notation == "risky"
    with pytest.raises(BotError, match="chance player"):
        Searcher().search(Doubles().initial_state())


# --- MCTS --------------------------------------------------------------------------------
def test_mcts_bets_on_the_expectation_and_repeats_with_its_seed():
    state = DiceDuel().initial_state()
    for seed in range(3):
        bot = MCTSBot(iterations=3000, seed=seed)
        assert bot.choose(state).notation == "risky"
        again = MCTSBot(iterations=3000, seed=seed)
        again.choose(state)
        visits = [(c.move.notation, c.visits) for c in bot.last.root.children]
        assert visits == [(c.move.notation, c.visits) for c in again.last.root.children]
    # The die's node is sampled uniformly: each roll about a third of the risky visits.
    risky = next(c for c in bot.last.root.children if c.move.notation == "risky")
    rolls = [roll.visits for roll in risky.children]
    assert len(rolls) == 3 and all(abs(n - risky.visits / 3) < 0.1 * risky.visits
                                   for n in rolls), rolls
    assert risky.proven is None  # a mean of proofs proves nothing


# --- the die's turn ----------------------------------------------------------------------
@pytest.mark.parametrize("kind", bot_names())
def test_every_bot_draws_the_die_uniformly_with_its_own_seed(kind):
    import random

    state = Doubles().initial_state()
    bot, twin = make_bot(kind, seed=11), make_bot(kind, seed=11)
    drawn = [bot.choose(state).notation for _ in range(600)]
    assert drawn == [twin.choose(state).notation for _ in range(600)]
    rng = random.Random(11)
    assert drawn == [draw_move(state, rng).notation for _ in range(600)]
    # 600 draws of three faces: 200 each, a standard deviation of 11.5.
    assert all(abs(n - 200) < 60 for n in Counter(drawn).values()), Counter(drawn)
