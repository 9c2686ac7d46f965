"""Hypothesis strategies for levels: random tilings of small rectangles.

A tiling is grown cell by cell: the first uncovered cell (row-major) starts a piece that
grows into random uncovered neighbours up to a drawn size; with ``min_piece=2`` a piece
that could not grow to ``min_piece`` cells joins a neighbouring piece (which may then exceed
``max_piece``). The result is always a valid partition, so every drawn level must
construct without error.
"""

from __future__ import annotations

from hypothesis import strategies as st

from boardlab.puzzles.polyomino.level import Level


@st.composite
def tilings(draw, max_side: int = 6, max_piece: int = 4, min_piece: int = 1
            ) -> list[list[int]]:
    """A random partition of a random rectangle, as rows of piece numbers."""
    width = draw(st.integers(2, max_side))
    height = draw(st.integers(2, max_side))
    owner: dict[tuple[int, int], int] = {}
    pieces = 0
    for y in range(height):
        for x in range(width):
            if (x, y) in owner:
                continue
            size = draw(st.integers(min_piece, max_piece))
            cells = [(x, y)]
            owner[x, y] = pieces
            while len(cells) < size:
                frontier = sorted({(cx + dx, cy + dy) for cx, cy in cells
                                   for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                                   if 0 <= cx + dx < width and 0 <= cy + dy < height
                                   and (cx + dx, cy + dy) not in owner})
                if not frontier:
                    break
                cell = draw(st.sampled_from(frontier))
                cells.append(cell)
                owner[cell] = pieces
            if len(cells) < min_piece:
                neighbours = sorted(owner[cx + dx, cy + dy] for cx, cy in cells
                                    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                                    if owner.get((cx + dx, cy + dy), pieces) != pieces)
                if neighbours:
                    for cell in cells:
                        owner[cell] = neighbours[0]
                    continue
            pieces += 1
    return [[owner[x, y] for x in range(width)] for y in range(height)]


@st.composite
def levels(draw, max_side: int = 6, max_piece: int = 4, min_piece: int = 1) -> Level:
    """A random level: a random tiling, maybe a rotatable piece, maybe a difficulty."""
    grid = draw(tilings(max_side, max_piece, min_piece))
    plain = Level.from_grid(grid)
    rotatable = draw(st.none() | st.integers(0, len(plain.pieces) - 1))
    shown = None
    if rotatable is not None:
        shown = draw(st.integers(0, len(plain.pieces[rotatable].orientations()) - 1))
    difficulty = draw(st.none() | st.integers(0, 10 ** 9))
    return Level(plain.width, plain.height, plain.pieces, plain.solution, rotatable, shown,
                 difficulty)
