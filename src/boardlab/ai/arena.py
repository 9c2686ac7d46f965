"""Matches between two bots: play N games, alternating seats, and score them.

Bot 1 takes seat ``i % players`` in game ``i`` (so in a two-player game it moves
first in games 0, 2, 4, ...) and bot 2 every other seat. Chance players (a die:
:attr:`Game.chance_players <boardlab.core.game.Game.chance_players>`) are nobody's seat:
the arena draws their moves uniformly, from a generator of its own (seeded by the
match's seed), and the bots take turns among the real seats only. A game counts as a win
for bot 1 when it scores more points than every other seat, a loss when some
seat scores more, a draw otherwise. Bot 1's *score* counts a win 1 and a draw 1/2;
its *points* add up the game's own returns, which differ where a game scores more
than 1 for a win (Goff's quantum tic-tac-toe gives 1 1/2 for two lines).

The 95% confidence interval of the score rate (score / games) is the Wilson
score interval (Wilson, "Probable inference, the law of succession, and
statistical inference", 1927), treating the score rate as a binomial proportion
with a draw counting as half a win. Draws have a smaller variance than a coin
flip between a win and a loss, so with draws the interval is conservative
(slightly too wide), never too narrow; unlike the normal approximation it stays
inside [0, 1] and is sensible at rates of 0 or 1.

Pure logic: nothing is printed; ``on_game`` lets a caller show progress.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from boardlab.ai.bots import Bot, BotError, draw_move
from boardlab.core.game import Game, Returns, State

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class GameRecord:
    """One finished game: bot 1's seat, the returns and the moves played."""

    seat: int
    returns: Returns
    moves: tuple[str, ...]

    @property
    def points(self) -> Fraction:
        """Bot 1's points."""
        return self.returns[self.seat]

    @property
    def result(self) -> str:
        """``'win'``, ``'draw'`` or ``'loss'`` for bot 1."""
        best_other = max(r for i, r in enumerate(self.returns) if i != self.seat)
        if self.points > best_other:
            return "win"
        if self.points < best_other:
            return "loss"
        return "draw"


@dataclass(frozen=True)
class ArenaResult:
    """The games of a match between ``bot1`` and ``bot2`` and their summary."""

    game: str
    bot1: str
    bot2: str
    games: tuple[GameRecord, ...]

    def _count(self, result: str) -> int:
        return sum(1 for g in self.games if g.result == result)

    @property
    def wins(self) -> int:
        """Games bot 1 won."""
        return self._count("win")

    @property
    def draws(self) -> int:
        """Games drawn."""
        return self._count("draw")

    @property
    def losses(self) -> int:
        """Games bot 1 lost."""
        return self._count("loss")

    @property
    def score(self) -> Fraction:
        """Bot 1's match score: 1 per win, 1/2 per draw."""
        return self.wins + Fraction(self.draws, 2)

    @property
    def points(self) -> Fraction:
        """Bot 1's total points as the game scores them."""
        return sum((g.points for g in self.games), Fraction(0))

    @property
    def score_rate(self) -> float:
        """Bot 1's mean score per game, in [0, 1] (0 with no games)."""
        return float(self.score / len(self.games)) if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson score interval of :attr:`score_rate`."""
        return wilson_interval(float(self.score), len(self.games))


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / trials``.

    >>> low, high = wilson_interval(10, 20)
    >>> round(low, 3), round(high, 3)
    (0.299, 0.701)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def play_game(state: State, bots: Sequence[Bot | None],
              rng: random.Random | None = None) -> tuple[Returns, tuple[str, ...]]:
    """Play from ``state`` (left unchanged) to the end, ``bots[p]`` moving for player
    ``p``; the returns and the moves' notations. A chance player's moves are drawn
    uniformly with ``rng`` (a fresh generator when ``None``); its entry of ``bots`` is
    not asked (``None`` will do)."""
    state = state.clone()
    limit = state.game.max_length()
    chance = state.game.chance_players
    if chance and rng is None:
        rng = random.Random()
    moves: list[str] = []
    while True:
        outcome = state.outcome()
        if outcome is not None:
            return outcome, tuple(moves)
        if len(moves) >= limit:
            raise BotError(f"{state.game.name}: game longer than its maximum of {limit} moves")
        if chance and state.to_move in chance:
            move = draw_move(state, rng)  # type: ignore[arg-type]
            state.apply(move)
            moves.append(move.notation)
            continue
        bot = bots[state.to_move]
        if bot is None:
            raise BotError(f"nobody plays {state.game.player_names[state.to_move]}")
        move = bot.choose(state)
        if move not in state.legal_moves():
            raise BotError(f"bot {bot.name} chose the illegal move {move.notation!r} "
                           f"in {str(state)!r}")
        state.apply(move)
        moves.append(move.notation)


def arena(game: Game, bot1: Bot, bot2: Bot, games: int,
          on_game: Callable[[int, GameRecord], None] | None = None, *,
          seed: int | None = None) -> ArenaResult:
    """Play ``games`` games of ``game`` between ``bot1`` and ``bot2``, alternating
    seats; ``on_game(i, record)`` is called after game ``i`` (0-based). ``seed`` seeds
    the draws of the chance players' moves (fresh randomness when ``None``)."""
    if games < 0:
        raise BotError(f"the number of games must be >= 0, got {games}")
    chance = game.chance_players
    seats = [p for p in range(game.num_players) if p not in chance]
    # A string seed: the draws do not follow the sequence of a bot seeded alike.
    rng = random.Random(None if seed is None else f"chance:{seed}") if chance else None
    records: list[GameRecord] = []
    for i in range(games):
        seat = seats[i % len(seats)]
        bots = [None if p in chance else bot1 if p == seat else bot2
                for p in range(game.num_players)]
        returns, moves = play_game(game.initial_state(), bots, rng)
        record = GameRecord(seat, returns, moves)
        records.append(record)
        if on_game is not None:
            on_game(i, record)
    return ArenaResult(game.name, bot1.name, bot2.name, tuple(records))
