"""The bot registry and the random bot."""

from __future__ import annotations

from collections import Counter

import pytest

from boardlab import load
from boardlab.ai.bots import Bot, BotError, RandomBot, bot_names, make_bot
from boardlab.errors import BoardlabError

TTT = load("tic-tac-toe")


def test_registry_knows_the_four_kinds():
    assert bot_names() == ["alphabeta", "exact", "mcts", "random"]
    for name in bot_names():
        bot = make_bot(name, seed=1, depth=2, time=1.0, iterations=50)
        assert isinstance(bot, Bot)
        assert bot.name.startswith(name)
        assert bot.choose(TTT.initial_state()) in TTT.initial_state().legal_moves()


def test_unknown_kind_is_a_boardlab_error():
    with pytest.raises(BoardlabError, match="unknown bot 'robot'"):
        make_bot("robot")


def test_make_bot_ignores_unused_and_unset_options():
    bot = make_bot("mcts", depth=3, iterations=None, time=None)
    assert bot.name == "mcts(iterations=1000)"


def test_random_bot_is_seeded_and_uniform():
    state = TTT.initial_state()
    assert [RandomBot(seed=9).choose(state) for _ in range(3)] == \
        [RandomBot(seed=9).choose(state) for _ in range(3)]
    bot = RandomBot(seed=1)
    counts = Counter(bot.choose(state) for _ in range(9000))
    assert set(counts) == set(state.legal_moves())
    assert all(800 < n < 1200 for n in counts.values())


def test_random_bot_refuses_a_finished_game():
    with pytest.raises(BotError):
        RandomBot().choose(TTT.parse_state("xxx/oo./... o"))
