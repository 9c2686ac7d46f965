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

    def __post_init__(self) -> None:
        # The values by piece, looked up at every piece of every evaluation.
        object.__setattr__(self, "_table", dict(self.values))

    def evaluate(self, state: PieceState, player: int) -> float:
        """The value of ``state`` for ``player``."""
        table = self._table  # type: ignore[attr-defined]
        score = 0.0
        for cell, piece in state.occupied():
            value = table[piece][cell]
            score += value if piece.owner == player else -value
        return max(-1.0, min(1.0, score / self.divisor))
