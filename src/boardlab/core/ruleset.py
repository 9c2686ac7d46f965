"""A game of the move language as one value: its :class:`RuleSet`.

A rule set holds everything that decides how a game of pieces plays: the board, the
pieces and where they start, the move templates (:class:`~boardlab.core.turn.Rules`),
the end (:class:`~boardlab.core.goals.Goals`), the turn order and a few switches read
from rule files. Every front end lowers to it: a built-in game builds one from its
options (:meth:`~boardlab.core.position.PieceGame.make_ruleset`), a ZRF rule file is
lowered to one (:func:`boardlab.zrf.game.lower`), and a program may write one and
play it directly::

    >>> from boardlab.core.board import Board
    >>> from boardlab.core.goals import Condition, Goals, PiecesRemaining
    >>> from boardlab.core.move import Piece
    >>> from boardlab.core.position import PieceGame
    >>> from boardlab.core.rules import EMPTY, Add, Rules, Step, Template, Verify
    >>> white, black = Piece(0, "pawn"), Piece(1, "pawn")
    >>> race = RuleSet(
    ...     name="race", players=("white", "black"),
    ...     board=Board.square(3, 3).rotated_for(1),
    ...     pieces={"w": white, "b": black},
    ...     placement={"a1": white, "c3": black},
    ...     rules=Rules([Template((Step("n"), Verify(EMPTY), Add()))]),
    ...     goals=Goals((Condition("loss", (0, 1), PiecesRemaining(0)),), 2))
    >>> game = PieceGame(race, engine="interpreter")
    >>> game.name, [m.notation for m in game.initial_state().legal_moves()]
    ('race', ['a1-a2'])

Whoever plays the game (:class:`~boardlab.core.position.PieceGame`, the interpreter,
the compiled kernel) reads it from here, and only from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from boardlab.core.move import Piece
from boardlab.errors import RulesError

if TYPE_CHECKING:
    from boardlab.core.board import Board
    from boardlab.core.goals import Goals
    from boardlab.core.rules import Rules

_MAPPINGS = ("pieces", "placement", "reserves", "attributes")


@dataclass(frozen=True, eq=False)
class RuleSet:
    """Everything that decides how a game of the move language plays.

    Two rule sets are the same rule set only when they are the same object: rules
    hold predicates and boards whose equality would say little.
    """

    #: The game's name (commands and the web app show it).
    name: str
    #: The players' names, in turn order.
    players: tuple[str, ...]
    #: The board the game is played on.
    board: Board
    #: The move templates, priorities and invariants.
    rules: Rules
    #: Cell name -> the piece that starts there.
    placement: Mapping[str, Piece]
    #: The end of the game as declarative goals; None when the game's Python code says
    #: it (:meth:`~boardlab.core.position.PieceGame.result`; no compiled kernel then).
    goals: Goals | None = None
    #: One-character symbol -> piece, for the generic text form of positions (a game
    #: with its own text form leaves it empty).
    pieces: Mapping[str, Piece] = field(default_factory=dict)
    #: Pieces in hand at the start, for drops.
    reserves: Mapping[Piece, int] = field(default_factory=dict)
    #: The player of each turn and the turn the order repeats from (ZRF ``turn-order``);
    #: None: the players alternate.
    turn_order: tuple[tuple[int, ...], int] | None = None
    #: The ply at which a game nothing else ended is a draw; None: no limit.
    ply_limit: int | None = None
    #: The chance players, whose moves are drawn uniformly and who score nothing.
    chance_players: frozenset[int] = frozenset()
    #: Players who own pieces but never move (listed among the players, absent from
    #: the turn order).
    neutral_players: frozenset[int] = frozenset()
    #: Piece type -> the attributes a new piece of that type starts with.
    attributes: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: A captured piece goes back to its owner's reserve (ZRF ``recycle captures``).
    recycle_captures: bool = False
    #: A promotion takes the new piece from its owner's reserve, and is no move when the
    #: reserve has none (ZRF ``recycle promotions``).
    recycle_promotions: bool = False
    #: A line on the game for lists of games.
    description: str = ""

    def __post_init__(self) -> None:
        for name in _MAPPINGS:
            object.__setattr__(self, name, MappingProxyType(dict(getattr(self, name))))
        object.__setattr__(self, "players", tuple(self.players))
        where = f"rule set {self.name!r}"
        if not self.players:
            raise RulesError(f"{where}: no players")
        for cell, piece in self.placement.items():
            if not self.board.has_cell(cell):
                raise RulesError(f"{where}: the placement names cell {cell!r}, which the "
                                 "board does not have")
            self._check_owner(piece, f"the piece on {cell}")
        for piece, count in self.reserves.items():
            self._check_owner(piece, "a reserve")
            if count < 0:
                raise RulesError(f"{where}: a negative reserve of {piece}")
        if self.turn_order is not None:
            order, repeat = self.turn_order
            if not order or not 0 <= repeat < len(order) or any(
                    not 0 <= p < len(self.players) for p in order):
                raise RulesError(f"{where}: turn order {self.turn_order!r} is not a list of "
                                 f"players 0..{len(self.players) - 1} and a turn in it")
        if self.ply_limit is not None and self.ply_limit < 1:
            raise RulesError(f"{where}: ply limit {self.ply_limit} is not positive")
        for players, what in ((self.chance_players, "chance"),
                              (self.neutral_players, "neutral")):
            if any(not 0 <= p < len(self.players) for p in players):
                raise RulesError(f"{where}: {what} players {sorted(players)} are not all "
                                 "players")

    def _check_owner(self, piece: Piece, what: str) -> None:
        if not -1 <= piece.owner < len(self.players):
            raise RulesError(f"rule set {self.name!r}: {what} belongs to player "
                             f"{piece.owner}, who is not one of {len(self.players)}")

    def __reduce__(self) -> tuple[Any, ...]:
        # Read-only mappings do not pickle; the dicts they are made from do.
        values = {name: getattr(self, name) for name in self.__dataclass_fields__}
        for name in _MAPPINGS:
            values[name] = dict(values[name])
        return _rebuild, (values,)

    def attribute_defaults(self, kind: str) -> frozenset[str]:
        """The attributes a new piece of ``kind`` starts with."""
        return self.attributes.get(kind, frozenset())

    @property
    def tracks_last_move(self) -> bool:
        """Whether move generation reads the last move (its cells then belong to a
        position: its key, equality and text)."""
        return any(t.reads_history for t in self.rules.templates)


def _rebuild(values: dict[str, Any]) -> RuleSet:
    return RuleSet(**values)
