"""What a game's end scores when some players are chance players (boardlab.core.goals and
boardlab.core.game.draw): the returns worked out by hand from the rule the module states,
a chance player 0 whatever ends the game."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import pytest

from boardlab.core import goals as g
from boardlab.core.game import draw
from boardlab.core.move import Piece

F = Fraction
#: Three seats, the first a die: ``(players ?Die White Black)``.
GOALS = g.Goals((), 3, chance=frozenset({0}))


def board(*owners: int) -> SimpleNamespace:
    """A stand-in position whose cells hold one man of each owner given."""
    return SimpleNamespace(cells=[Piece(owner, "man") for owner in owners])


def test_a_draw_splits_the_point_among_the_real_players():
    assert draw(3, frozenset({0})) == (F(0), F(1, 2), F(1, 2))
    assert draw(4, frozenset({1})) == (F(1, 3), F(0), F(1, 3), F(1, 3))
    assert draw(2) == (F(1, 2), F(1, 2))


@pytest.mark.parametrize(("kind", "player", "returns"), [
    ("win", 1, (0, 1, 0)),
    ("win", 0, (0, 0, 0)),                  # the die won: nobody at the table scores
    ("loss", 2, (0, 1, 0)),                 # the die does not share White's win
    ("loss", 0, (0, F(1, 2), F(1, 2))),     # the die lost: a draw between the others
    ("draw", 0, (0, F(1, 2), F(1, 2))),
    ("draw", 2, (0, F(1, 2), F(1, 2))),
])
def test_endings_leave_the_chance_player_nothing(kind, player, returns):
    assert GOALS.ending(kind, player, board()) == tuple(F(r) for r in returns)


def test_a_count_ranks_the_real_players_pieces_only():
    # The die's three pieces do not make it the leader; White's two beat Black's one.
    assert GOALS.ending("count", 1, board(0, 0, 0, 1, 1, 2)) == (0, 1, 0)
    assert GOALS.ending("count", 1, board(0, 0, 0, 1, 2)) == (0, F(1, 2), F(1, 2))


def test_a_game_for_one_player_against_the_dice():
    alone = g.Goals((), 2, chance=frozenset({0}))
    assert alone.ending("win", 0, board()) == (0, 0)       # the dice beat the player
    assert alone.ending("loss", 0, board()) == (0, 1)      # the dice lost
    assert alone.ending("loss", 1, board()) == (0, 0)
    assert alone.ending("draw", 1, board()) == (0, 1)


def test_without_chance_players_nothing_changes():
    plain = g.Goals((), 3)
    assert plain.ending("loss", 0, board()) == (0, F(1, 2), F(1, 2))
    assert plain.ending("draw", 0, board()) == (F(1, 3),) * 3
    assert g.Goals((), 1).ending("loss", 0, board()) == (0,)
