"""Groups of pieces: the cells a player holds as a bit mask, a move's effect on it
without playing it, and the groups those cells form along a board's links.

Shared by the rules that read groups (Ordo's connection rule and its test, Ordo X's
cut-off groups) and by the reference interpreter; the kernel writes the same searches
over its arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from boardlab.core.move import Action, Capture, Change, Piece, Place, Shift

if TYPE_CHECKING:
    from boardlab.core.position import PieceState

__all__ = ["cells_after", "game_masks", "groups_of", "is_one_group", "mask_after",
           "neighbour_masks", "owned", "owned_mask"]


def cells_after(cells: Sequence[Piece | None], actions: Sequence[Action]) -> list[Piece | None]:
    """The pieces on the cells once ``actions`` are played, as a position plays them
    (captures and lifts, then the shifts land, then drops and changes), without playing
    them.

    >>> cells_after([Piece(0), Piece(1), None], (Capture(1), Shift(0, 1)))
    [None, Piece(owner=0, kind='man', attributes=frozenset()), None]
    """
    out = list(cells)
    moving = [(a.target, cells[a.source]) for a in actions if type(a) is Shift]
    for a in actions:
        if type(a) is Capture:
            out[a.cell] = None
        elif type(a) is Shift:
            out[a.source] = None
    for target, piece in moving:
        out[target] = piece
    for a in actions:
        if type(a) is Place or type(a) is Change:
            out[a.cell] = a.piece
    return out


def neighbour_masks(board: Any, directions: tuple[str, ...] | None = None) -> tuple[int, ...]:
    """Each cell's neighbours along ``directions`` (the board's own, not a player's: a
    group is the same group for both sides; every direction when None), as a mask of
    cells (a game keeps them: :func:`game_masks`)."""
    rows = board.links if directions is None else \
        [board.links[board.direction_index(d)] for d in directions]
    return tuple(sum({1 << row[cell] for row in rows if row[cell] >= 0})
                 for cell in range(board.size))


def game_masks(game: Any, directions: tuple[str, ...] | None = None) -> tuple[int, ...]:
    """:func:`neighbour_masks` of ``game``'s board, made once per game and directions."""
    return game.derived(neighbour_masks, directions, neighbour_masks, game.board, directions)


def owned_mask(cells: Sequence[Piece | None], player: int) -> int:
    """The cells holding a piece of ``player``, as a mask."""
    mask = 0
    for cell, piece in enumerate(cells):
        if piece is not None and piece.owner == player:
            mask |= 1 << cell
    return mask


def mask_after(cells: Sequence[Piece | None], actions: Sequence[Action], player: int,
               mask: int) -> int:
    """``player``'s cells (``mask`` now) once ``actions`` are played (as
    :func:`cells_after` plays them), without playing them."""
    for a in actions:
        if type(a) is Capture:
            mask &= ~(1 << a.cell)
        elif type(a) is Shift:
            mask &= ~(1 << a.source)
    for a in actions:
        if type(a) is Shift:
            mover = cells[a.source]
            if mover is not None and mover.owner == player:
                mask |= 1 << a.target
            else:
                mask &= ~(1 << a.target)
    for a in actions:
        if type(a) is Place or type(a) is Change:
            if a.piece.owner == player:
                mask |= 1 << a.cell
            else:
                mask &= ~(1 << a.cell)
    return mask


def _grown(seed: int, mask: int, neighbours: Sequence[int]) -> int:
    """The group of the cells of ``mask`` that ``seed`` (a part of it) reaches."""
    group = frontier = seed
    while frontier:
        grown = 0
        while frontier:
            low = frontier & -frontier
            grown |= neighbours[low.bit_length() - 1]
            frontier ^= low
        frontier = grown & mask & ~group
        group |= frontier
    return group


def groups_of(mask: int, neighbours: Sequence[int]) -> list[int]:
    """The groups of the cells of ``mask`` (each cell linked to its ``neighbours``), as
    masks, in the order of their first cells.

    >>> from boardlab.core.board import Board
    >>> groups_of(0b10000011, neighbour_masks(Board.square(4, 2)))  # a1 b1 / d2
    [3, 128]
    """
    out = []
    while mask:
        group = _grown(mask & -mask, mask, neighbours)
        out.append(group)
        mask ^= group
    return out


def is_one_group(mask: int, neighbours: Sequence[int]) -> bool:
    """Whether the cells of ``mask`` form one group (or none)."""
    return not mask or _grown(mask & -mask, mask, neighbours) == mask


def owned(state: PieceState, player: int) -> int:
    """:func:`owned_mask` of ``state``'s cells, kept with the position (its cache goes
    with each move)."""
    key = ("owned", player)
    cache = state._cache
    mask = cache.get(key)
    if mask is None:
        mask = cache[key] = owned_mask(state.cells, player)
    return mask
