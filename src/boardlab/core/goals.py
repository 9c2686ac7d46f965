"""Declarative goals: how a game written in the move language ends (ZRF's conditions).

A :class:`Goal` says whether it holds for a player in a position; :class:`Goals` holds a
game's ``win``, ``loss``, ``draw`` and ``count`` conditions, each for some players, and
turns them into the game's result after every move:

* :class:`Stalemated` and :class:`Checkmated` concern the player to move and need the
  legal moves, so they are read when that player has none (:meth:`Goals.no_moves`);
  every other goal is read after each move (:meth:`Goals.result`), which is also the
  start of the next player's turn (:class:`ToMove` says whose);
* when several conditions hold at once, a win beats a loss, which beats a draw, which
  beats a count; among several winners the player who just moved comes first
  (Zillions does not say; this is boardlab's reading);
* a ``count`` condition ends the game in favour of the player with the most pieces on
  the board (equal counts draw);
* with no condition that applies, a player left without a move loses (Dagaz's rule,
  which most of the ZRF corpus relies on), unless :attr:`Goals.stalemate` says otherwise.

Returns for a loss in a game of more than two players: the loser scores 0 and the
others share the point.

Chance players (:attr:`Goals.chance`, ZRF's random players) are no contestants: they score
0 whatever ends the game, a draw splits the point among the others, and so does a loss,
shared by the players who are neither the loser nor chance. A condition may still name a
chance player and end the game: its loss is then a draw between the real players, its win
leaves every player 0 (the dice won; in a game for one player, that player lost), and a
count ranks the real players' pieces only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from boardlab.core.game import Returns, draw, win_for
from boardlab.core.move import Piece

if TYPE_CHECKING:
    from boardlab.core.position import PieceState


class Goal:
    """A condition on a position, read for one player."""

    def holds(self, state: PieceState, player: int) -> bool:  # pragma: no cover
        raise NotImplementedError

    #: Read only when the player to move has no legal move (it needs them).
    needs_moves = False


@dataclass(frozen=True)
class Stalemated(Goal):
    """The player is to move and has no legal move."""

    needs_moves = True

    def holds(self, state: PieceState, player: int) -> bool:
        return state.to_move == player


@dataclass(frozen=True)
class ToMove(Goal):
    """The player is the one to move: with :class:`AllOf`, a condition read at the start
    of that player's turn only (Epaminondas's crossing rule counts when the crosser is
    about to move, so the opponent had one move to answer)."""

    def holds(self, state: PieceState, player: int) -> bool:
        return state.to_move == player


@dataclass(frozen=True)
class Checkmated(Goal):
    """The player is to move, has no legal move, and a piece of one of ``kinds`` of
    theirs is attacked."""

    kinds: tuple[str, ...]
    needs_moves = True

    def holds(self, state: PieceState, player: int) -> bool:
        return state.to_move == player and in_check(state, player, self.kinds)


def in_check(state: PieceState, player: int, kinds: Sequence[str]) -> bool:
    """Whether a piece of ``player`` of one of ``kinds`` can be captured by another
    player's next move (a player without such a piece has none to lose: Horde chess's
    pawns)."""
    cells = [c for c, p in enumerate(state.cells)
             if p is not None and p.owner == player and p.kind in kinds]
    if not cells:
        return False
    rules = state.game.move_rules
    return any(rules.attacked(state, c, by=lambda p: p != player) for c in cells)


@dataclass(frozen=True)
class Captured(Goal):
    """The last move took a piece of one of ``kinds`` from the player."""

    kinds: tuple[str, ...]

    def holds(self, state: PieceState, player: int) -> bool:
        return any(p.owner == player and p.kind in self.kinds
                   for p in state.captured_by_last_move())


@dataclass(frozen=True)
class PiecesRemaining(Goal):
    """The player has exactly ``count`` pieces (of ``kind``) on the board (and in hand
    with ``in_hand``); with ``fewer``, fewer than ``count`` (nine men's morris: a player
    left with two men, on the board and in hand, loses)."""

    count: int
    kind: str | None = None
    in_hand: bool = False
    fewer: bool = False

    def holds(self, state: PieceState, player: int) -> bool:
        n = sum(1 for p in state.cells if p is not None and p.owner == player
                and (self.kind is None or p.kind == self.kind))
        if self.in_hand:
            n += sum(k for p, k in state.reserves.items() if p.owner == player
                     and (self.kind is None or p.kind == self.kind))
        return n < self.count if self.fewer else n == self.count


@dataclass(frozen=True)
class TurnsPlayed(Goal):
    """At least ``count`` turns have been played, whoever the player: a turn limit
    (OpenSpiel's nine men's morris draws after 200 turns). A turn is a move and the
    move that follows it in the same turn, if any (see
    :class:`~boardlab.core.turn.FollowUp`): the position's
    ``turns`` (:class:`~boardlab.core.position.PieceState`), its ply in a game
    without follow-ups."""

    count: int

    def holds(self, state: PieceState, player: int) -> bool:
        return state.turns >= self.count


@dataclass(frozen=True)
class TotalPieceCount(Goal):
    """All players together have exactly ``count`` pieces (of ``kind``) on the board."""

    count: int
    kind: str | None = None

    def holds(self, state: PieceState, player: int) -> bool:
        return sum(1 for p in state.cells if p is not None
                   and (self.kind is None or p.kind == self.kind)) == self.count


@dataclass(frozen=True)
class PiecesLost(Goal):
    """At least ``count`` of the player's pieces (of ``kind``) have left the board: the
    game's start placement gives the player that many more than stand on the board now
    (Abalone's six marbles pushed off; pieces captured, in general)."""

    count: int
    kind: str | None = None

    def holds(self, state: PieceState, player: int) -> bool:
        n = sum(1 for p in state.cells if p is not None and p.owner == player
                and (self.kind is None or p.kind == self.kind))
        return self.at_start(state.game, player) - n >= self.count

    def at_start(self, game: Any, player: int) -> int:
        """How many pieces (of ``kind``) ``player`` has in ``game``'s start placement
        (counted once per game and player)."""
        return game.derived(self, ("at start", player), self._count_at_start, game, player)

    def _count_at_start(self, game: Any, player: int) -> int:
        return sum(1 for p in game.ruleset.placement.values() if p.owner == player
                   and (self.kind is None or p.kind == self.kind))


@dataclass(frozen=True)
class MoreInZone(Goal):
    """The player has more pieces (of ``kind``) on their ``cells`` (per player) than
    every other player has on theirs (Epaminondas's crossing rule: more pieces on the
    opponent's home row than the opponent has on the player's)."""

    cells: Callable[[int], frozenset[int]]
    kind: str | None = None

    def holds(self, state: PieceState, player: int) -> bool:
        mine = self.count(state, player)
        return all(self.count(state, other) < mine
                   for other in range(state.game.num_players) if other != player)

    def count(self, state: PieceState, player: int) -> int:
        """How many pieces (of ``kind``) ``player`` has on their cells."""
        board = state.cells
        return sum(1 for c in self.cells(player) if (p := board[c]) is not None
                   and p.owner == player and (self.kind is None or p.kind == self.kind))


@dataclass(frozen=True)
class AbsoluteConfig(Goal):
    """Some cell of ``cells`` (per player) holds a piece matching one of ``pieces``:
    ``(owner, kind)`` where owner is ``"self"``, ``"opponent"`` or ``"any"``."""

    pieces: tuple[tuple[str, str], ...]
    cells: Callable[[int], frozenset[int]]

    def holds(self, state: PieceState, player: int) -> bool:
        board = state.cells
        for cell in self.cells(player):
            p = board[cell]
            if p is not None and any(_matches(p, owner, kind, player)
                                     for owner, kind in self.pieces):
                return True
        return False


def _matches(piece: Piece, owner: str, kind: str, player: int) -> bool:
    if kind != piece.kind:
        return False
    if owner == "self":
        return piece.owner == player
    if owner == "opponent":
        return piece.owner != player
    return True


@dataclass(frozen=True)
class RelativeConfig(Goal):
    """Some cell holds the first piece of ``pattern``, the cell one step in the first
    direction the second, and so on: ``pattern`` alternates ``(owner, kind)`` pieces
    (``kind`` ``"empty"`` for an empty cell) and direction names."""

    pattern: tuple[tuple[str, str] | str, ...]

    def holds(self, state: PieceState, player: int) -> bool:
        cells = state.cells
        walks, items = self._walks(state.game, player)
        for walk in walks:
            for i, owner, kind in items:
                piece = cells[walk[i]]
                if kind == "empty":
                    if piece is not None:
                        break
                elif piece is None or piece.kind != kind or (
                        piece.owner != player if owner == "self"
                        else owner == "opponent" and piece.owner == player):
                    break
            else:
                return True
        return False

    def _walks(self, game: Any, player: int
               ) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, str, str], ...]]:
        """The walks of the pattern that stay on ``game``'s board for ``player`` (the
        cells of its items, from each start), and its items as ``(place in the walk,
        owner, kind)``, those that want a piece first (found once per game and player)."""
        return game.derived(self, ("walks", player), self._find_walks, game.board, player)

    def _find_walks(self, board: Any, player: int
                    ) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, str, str], ...]]:
        links = board.player_links(player)
        rows = [links[d] for d in self.pattern[1::2]]  # type: ignore[index]
        walks = []
        for start in range(board.size):
            walk = [start]
            for row in rows:
                walk.append(row[walk[-1]])
                if walk[-1] < 0:
                    break
            else:
                walks.append(tuple(walk))
        # On most boards most cells are empty, so a cell that must hold a piece rules a
        # start out sooner than one that must be empty.
        items = sorted(((i, owner, kind) for i, (owner, kind)  # type: ignore[misc]
                        in enumerate(self.pattern[0::2])),
                       key=lambda item: item[2] == "empty")
        return tuple(walks), tuple(items)


def _fits(piece: Piece | None, item: tuple[str, str], player: int) -> bool:
    """Whether a cell holding ``piece`` matches one item of a relative configuration."""
    owner, kind = item
    if kind == "empty":
        return piece is None
    return piece is not None and _matches(piece, owner, kind, player)


@dataclass(frozen=True)
class Repetition(Goal):
    """The position (board and side to move) has now occurred ``times`` times in the
    game, and the player is the one whose move repeated it."""

    times: int = 3

    def holds(self, state: PieceState, player: int) -> bool:
        if state.last_mover != player:
            return False
        return state.occurrences() >= self.times


@dataclass(frozen=True)
class AllOf(Goal):
    """Every goal holds."""

    goals: tuple[Goal, ...]

    def holds(self, state: PieceState, player: int) -> bool:
        return all(g.holds(state, player) for g in self.goals)


@dataclass(frozen=True)
class AnyOf(Goal):
    """Some goal holds."""

    goals: tuple[Goal, ...]

    def holds(self, state: PieceState, player: int) -> bool:
        return any(g.holds(state, player) for g in self.goals)


@dataclass(frozen=True)
class NotGoal(Goal):
    """The goal does not hold."""

    goal: Goal

    def holds(self, state: PieceState, player: int) -> bool:
        return not self.goal.holds(state, player)


@dataclass(frozen=True)
class Condition:
    """A ``win``, ``loss``, ``draw`` or ``count`` condition: when ``goal`` holds for one of
    ``players``, the game ends."""

    kind: str
    players: tuple[int, ...]
    goal: Goal


_ORDER = {"win": 0, "loss": 1, "draw": 2, "count": 3}


@dataclass(frozen=True)
class Goals:
    """A game's conditions and the rule for a player left without a move:
    ``stalemate`` is ``"loss"`` (default), ``"win"`` or ``"draw"``.

    By default the conditions read after a move come first, and a player to move is
    judged without a move only where none of them holds. With ``moves_first`` the
    player to move is judged without a move first (OpenSpiel's order, where a
    position's moves are found before its returns: nine men's morris's player who
    cannot move loses even on the turn that reaches the limit of turns, which draws
    otherwise); the conditions, then a game's ply limit, come after."""

    conditions: tuple[Condition, ...]
    players: int
    stalemate: str = "loss"
    #: The chance players, who score 0 (module docstring).
    chance: frozenset[int] = frozenset()
    moves_first: bool = False
    _after: tuple[Condition, ...] = field(init=False, repr=False)
    _stuck: tuple[Condition, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_after", tuple(c for c in self.conditions
                                                 if not c.goal.needs_moves))
        object.__setattr__(self, "_stuck", tuple(c for c in self.conditions
                                                 if c.goal.needs_moves))

    def reads(self, kind: type[Goal]) -> bool:
        """Whether a condition tests a goal of ``kind`` (inside ``and``/``or``/``not``
        too): a game whose goals read the past (repetition, captures) keeps it."""
        return any(isinstance(goal, kind) for goal in self.leaves())

    def leaves(self) -> Iterator[Goal]:
        """Every goal the conditions test, those inside ``and``/``or``/``not`` too."""
        stack: list[Goal] = [c.goal for c in self.conditions]
        while stack:
            goal = stack.pop()
            yield goal
            if isinstance(goal, AllOf | AnyOf):
                stack.extend(goal.goals)
            elif isinstance(goal, NotGoal):
                stack.append(goal.goal)

    def result(self, state: PieceState) -> Returns | None:
        """The outcome if a condition holds after the last move, else ``None``."""
        return self._resolve(state, self._after)

    def no_moves(self, state: PieceState) -> Returns:
        """The outcome when the player to move has no legal move."""
        out = self._resolve(state, self._stuck)
        if out is not None:
            return out
        return self.ending(self.stalemate, state.to_move, state)

    def _resolve(self, state: PieceState, conditions: Sequence[Condition]) -> Returns | None:
        fired: list[tuple[int, int, int, str]] = []
        mover = state.last_mover
        for c in conditions:
            for player in c.players:
                if c.goal.holds(state, player):
                    fired.append((_ORDER[c.kind], 0 if player == mover else 1, player, c.kind))
        if not fired:
            return None
        _, _, player, kind = min(fired)
        return self.ending(kind, player, state)

    def ending(self, kind: str, player: int, state: PieceState) -> Returns:
        """The returns when ``player``'s condition of ``kind`` ends the game."""
        n, chance = self.players, self.chance
        if kind == "win":
            return tuple(Fraction(0) for _ in range(n)) if player in chance else \
                win_for(player, n)
        if kind == "loss":
            winners = [p for p in range(n) if p != player and p not in chance]
            if not winners:
                return tuple(Fraction(0) for _ in range(n))
            share = Fraction(1, len(winners))
            return tuple(share if p in winners else Fraction(0) for p in range(n))
        if kind == "draw":
            return draw(n, chance)
        real = [p for p in range(n) if p not in chance]
        counts = {p: sum(1 for piece in state.cells if piece is not None and piece.owner == p)
                  for p in real}
        best = max(counts.values(), default=0)
        leaders = [p for p in real if counts[p] == best]
        return win_for(leaders[0], n) if len(leaders) == 1 else draw(n, chance)
