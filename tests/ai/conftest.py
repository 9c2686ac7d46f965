"""Toy games for the bot tests, small enough to solve by brute force.

* :class:`BonusNim`: a pile of ``n`` stones; a move takes one or two; taking two
  from a pile that does not run out gives the same player another move; whoever
  takes the last stone wins. It exercises moves that keep the player to move.
* :class:`Choice`: the first player picks one of a few outcomes given as points,
  some of them fractions, in one move.
* :class:`DiceDuel` and :class:`Doubles`: games with a die (a chance player), each a
  fixed script of turns, whose values are expectations (tests/ai/test_chance.py).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from boardlab.core.game import Game, Returns, State, draw, win_for
from boardlab.core.move import Move


class BonusNim(Game):
    """Take one or two stones; taking two (without emptying the pile) moves again."""

    name = "bonus-nim"
    description = "test game"
    player_names = ("first", "second")

    def __init__(self, stones: int = 7):
        super().__init__()
        self.stones = stones

    def initial_state(self) -> BonusNimState:
        return BonusNimState(self, self.stones, 0)

    def parse_state(self, text: str) -> BonusNimState:
        pile, to_move = text.split()
        return BonusNimState(self, int(pile), int(to_move))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BonusNim) and other.stones == self.stones

    def __hash__(self) -> int:
        return hash(("bonus-nim", self.stones))


class BonusNimState(State):
    def __init__(self, game: BonusNim, pile: int, to_move: int):
        self.game = game
        self.pile = pile
        self._to_move = to_move
        self._history: list[tuple[int, int]] = []

    @property
    def to_move(self) -> int:
        return self._to_move

    def legal_moves(self) -> list[Move]:
        return [Move(str(k)) for k in (1, 2) if k <= self.pile]

    def apply(self, move: Move) -> None:
        taken = int(move.notation)
        self._history.append((taken, self._to_move))
        self.pile -= taken
        if not (taken == 2 and self.pile > 0):
            self._to_move = 1 - self._to_move

    def undo(self) -> None:
        taken, self._to_move = self._history.pop()
        self.pile += taken

    def clone(self) -> BonusNimState:
        return BonusNimState(self.game, self.pile, self._to_move)

    def outcome(self) -> Returns | None:
        if self.pile:
            return None
        return win_for(self._history[-1][1]) if self._history else win_for(1 - self._to_move)

    def key(self) -> int:
        return self.pile * 2 + self._to_move

    def __str__(self) -> str:
        return f"{self.pile} {self._to_move}"


def bonus_nim_wins(pile: int) -> bool:
    """Brute force: whether the player to move wins BonusNim from ``pile`` stones."""
    for taken in (1, 2):
        if taken > pile:
            continue
        left = pile - taken
        if left == 0:
            return True
        if taken == 2 and bonus_nim_wins(left):
            return True
        if taken == 1 and not bonus_nim_wins(left):
            return True
    return False


CHOICES: dict[str, Returns] = {
    "even": (Fraction(1, 2), Fraction(1, 2)),
    "most": (Fraction(3, 4), Fraction(1, 4)),
    "some": (Fraction(2, 3), Fraction(1, 3)),
    "lose": (Fraction(1, 4), Fraction(3, 4)),
}


class Choice(Game):
    """The first player picks an outcome."""

    name = "choice"
    description = "test game"

    def initial_state(self) -> ChoiceState:
        return ChoiceState(self)

    def parse_state(self, text: str) -> ChoiceState:
        state = ChoiceState(self)
        if text != "-":
            state.apply(Move(text))
        return state


class ChoiceState(State):
    def __init__(self, game: Choice):
        self.game = game
        self.picked: list[str] = []

    @property
    def to_move(self) -> int:
        return len(self.picked)

    def legal_moves(self) -> list[Move]:
        return [] if self.picked else [Move(name) for name in CHOICES]

    def apply(self, move: Move) -> None:
        self.picked.append(move.notation)

    def undo(self) -> None:
        self.picked.pop()

    def clone(self) -> ChoiceState:
        new = ChoiceState(self.game)
        new.picked = self.picked[:]
        return new

    def outcome(self) -> Returns | None:
        return CHOICES[self.picked[0]] if self.picked else None

    def key(self) -> int:
        return hash(tuple(self.picked)) & (2**64 - 1)

    def __str__(self) -> str:
        return self.picked[0] if self.picked else "-"


class Script(Game):
    """A game of a fixed script: ``seats[i]`` moves at ply ``i``, choosing among
    ``choices[i]``; ``margin(moves)`` is ``first``'s points minus ``second``'s at the end
    (1 a win, 0 a draw, -1 a loss). Seat 0 is a die, a chance player."""

    description = "test game"
    player_names = ("?die", "first", "second")
    chance_players = frozenset({0})
    seats: tuple[int, ...]
    choices: tuple[tuple[str, ...], ...]

    def margin(self, moves: tuple[str, ...]) -> int:  # pragma: no cover
        raise NotImplementedError

    def initial_state(self) -> ScriptState:
        return ScriptState(self, [])

    def parse_state(self, text: str) -> ScriptState:
        return ScriptState(self, [] if text == "-" else text.split())


class ScriptState(State):
    def __init__(self, game: Script, moves: list[str]):
        self.game = game
        self.moves = moves

    @property
    def to_move(self) -> int:
        seats = self.game.seats
        return seats[len(self.moves)] if len(self.moves) < len(seats) else 0

    def legal_moves(self) -> list[Move]:
        choices = self.game.choices
        return [Move(c) for c in choices[len(self.moves)]] if len(self.moves) < len(choices) \
            else []

    def apply(self, move: Move) -> None:
        self.moves.append(move.notation)

    def undo(self) -> None:
        self.moves.pop()

    def clone(self) -> ScriptState:
        return ScriptState(self.game, self.moves[:])

    def outcome(self) -> Returns | None:
        if len(self.moves) < len(self.game.seats):
            return None
        margin = self.game.margin(tuple(self.moves))
        return draw(3, frozenset({0})) if margin == 0 else win_for(1 if margin > 0 else 2, 3)

    def key(self) -> int:
        return hash(tuple(self.moves)) & (2**64 - 1)

    def __str__(self) -> str:
        return " ".join(self.moves) or "-"


#: DiceDuel's margins, by bet and roll: (after ``stay``, after ``double``).
DUEL = {
    "safe": {"1": (0, 1), "2": (0, 1), "3": (1, 0)},      # second holds every roll to 0
    "risky": {"1": (-1, 1), "2": (1, 1), "3": (1, 1)},    # -1, 1, 1: 1/3 on average
    "wild": {"1": (1, 1), "2": (-1, 0), "3": (0, -1)},    # 1, -1, -1: -1/3 on average
}


class DiceDuel(Script):
    """``first`` bets (safe, risky or wild), the die rolls 1, 2 or 3, ``second`` stays
    or doubles; :data:`DUEL` scores it. By hand: after the roll ``second`` takes the
    smaller margin, so safe is worth 0 whatever the die, risky (-1 + 1 + 1) / 3 = 1/3 and
    wild (1 - 1 - 1) / 3 = -1/3: risky is best, worth 1/3, though its worst roll is worse
    than anything safe can bring (a search taking the die for an opponent plays safe)."""

    name = "dice-duel"
    seats = (1, 0, 2)
    choices = (("safe", "risky", "wild"), ("1", "2", "3"), ("stay", "double"))

    def margin(self, moves: tuple[str, ...]) -> int:
        bet, roll, reply = moves
        return DUEL[bet][roll][reply == "double"]


class Doubles(Script):
    """The die rolls twice (1, 2 or 3), then ``first`` claims doubles (a win if the
    two are equal, else a loss) or passes (a draw). By hand: ``first`` claims exactly on
    doubles, 3 of the 9 rolls, so the game is worth 3/9 = 1/3."""

    name = "doubles"
    seats = (0, 0, 1)
    choices = (("1", "2", "3"), ("1", "2", "3"), ("claim", "pass"))

    def margin(self, moves: tuple[str, ...]) -> int:
        one, two, call = moves
        return 0 if call == "pass" else 1 if one == two else -1


@pytest.fixture
def bonus_nim():
    """``bonus_nim(stones)``: the initial state of BonusNim with that many stones."""
    return lambda stones: BonusNim(stones).initial_state()


@pytest.fixture
def choice():
    """The initial state of :class:`Choice`."""
    return Choice().initial_state()


@pytest.fixture
def nim_wins():
    """The brute-force BonusNim solver :func:`bonus_nim_wins`."""
    return bonus_nim_wins
