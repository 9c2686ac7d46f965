"""Heuristics a game kernel can compute as the game's ``evaluate`` does, so that a bot's
playouts cut at a cap are scored in the kernel (:mod:`boardlab.core.kernel.search`).

A game names its heuristic with :meth:`PieceGame.kernel_heuristic
<boardlab.core.position.PieceGame.kernel_heuristic>`; its ``evaluate`` must compute the
same value (for a :class:`PieceSquare`, by calling :meth:`PieceSquare.evaluate`), and
the kernel writes it with the same operations in the same order, so that both give the
same floats (the tests compare them along random games).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boardlab.core.move import Piece
    from boardlab.core.position import PieceState


@dataclass(frozen=True)
class MaterialMobility:
    """A rule file's generic heuristic (:meth:`boardlab.zrf.game.ZrfGame.evaluate`):
    0.7 of the material balance (pieces on the board and in hand) and 0.3 of the
    mobility balance (the moves each side would have with the turn)."""


@dataclass(frozen=True)
class PieceSquare:
    """A value for each piece on each cell (``values``: pairs of a piece and its values
    by cell), added for the player and taken away for the others, divided by
    ``divisor`` and kept in [-1, 1]: material and advancement, or any piece-square
    table."""

    values: tuple[tuple[Piece, tuple[float, ...]], ...]
    divisor: float
    #: Of two players: a rank of each piece on each cell (its advance), the highest
    #: rank of each player's pieces (0 without any) compared, the difference weighed
    #: ``lead_weight`` and added before the division (the most advanced piece counts
    #: extra, as in Taacoca and Ordo); none: no such term.
    lead: tuple[tuple[Piece, tuple[int, ...]], ...] = ()
    lead_weight: float = 0.0

    def __post_init__(self) -> None:
        # The values by piece, looked up at every piece of every evaluation.
        object.__setattr__(self, "_table", dict(self.values))
        object.__setattr__(self, "_ranks", dict(self.lead))

    def evaluate(self, state: PieceState, player: int) -> float:
        """The value of ``state`` for ``player``."""
        table = self._table  # type: ignore[attr-defined]
        ranks = self._ranks  # type: ignore[attr-defined]
        score = 0.0
        best = [0, 0]
        for cell, piece in state.occupied():
            if ranks:
                best[piece.owner] = max(best[piece.owner], ranks[piece][cell])
            value = table[piece][cell]
            score += value if piece.owner == player else -value
        if ranks:
            score += self.lead_weight * (best[player] - best[1 - player])
        return max(-1.0, min(1.0, score / self.divisor))


def _placements(state: PieceState, player: int) -> int:
    """The moves ``player`` would have that do something (a pass does nothing), with the
    turn (:meth:`~boardlab.core.position.PieceState.with_turn`) if not to move."""
    if state.to_move != player:
        state = state.with_turn(player)
    return sum(1 for move in state.legal_moves() if move.actions)


@dataclass(frozen=True)
class CellsHeld:
    """Of two players: the given cells the player holds less those the other holds, over
    how many cells (Othello's corners)."""

    cells: tuple[int, ...]

    def value(self, state: PieceState, player: int) -> float:
        """The term's value for ``player``."""
        held = 0
        for cell in self.cells:
            if (piece := state.piece_at(cell)) is not None:
                held += 1 if piece.owner == player else -1
        return held / len(self.cells)


@dataclass(frozen=True)
class MobilityBalance:
    """Of two players: the difference of the moves that do something each would have
    with the turn, over their sum plus one."""

    def value(self, state: PieceState, player: int) -> float:
        """The term's value for ``player``."""
        mine = _placements(state, player)
        theirs = _placements(state, 1 - player)
        return (mine - theirs) / (mine + theirs + 1)


@dataclass(frozen=True)
class PieceBalance:
    """Of two players: the difference of their pieces on the board over their sum (0
    on an empty board)."""

    def value(self, state: PieceState, player: int) -> float:
        """The term's value for ``player``."""
        counts = [0, 0]
        for piece in state.cells:
            if piece is not None:
                counts[1 if piece.owner else 0] += 1
        own, other = counts[player], counts[1 - player]
        return (own - other) / (own + other or 1)


@dataclass(frozen=True)
class Blend:
    """A weighted sum of terms, added in order (Othello's corners, mobility and
    discs)."""

    terms: tuple[tuple[float, CellsHeld | MobilityBalance | PieceBalance], ...]

    def evaluate(self, state: PieceState, player: int) -> float:
        """The value of ``state`` for ``player``."""
        total = 0.0
        for weight, term in self.terms:
            total += weight * term.value(state, player)
        return total
