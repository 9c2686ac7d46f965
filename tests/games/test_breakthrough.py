"""Breakthrough: its move-language rules against an independent plain-Python generator
on (x, y) coordinates, at every position of seeded random games, and its published
perft counts."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.core.game import perft


def as_reference(state) -> dict[tuple[int, int], int]:
    """The position as {(x, y): owner}, y counted from White's side."""
    columns = state.game.options["columns"]
    return {(cell % columns, cell // columns): piece.owner
            for cell, piece in enumerate(state.cells) if piece is not None}


def reference_moves(pieces: dict[tuple[int, int], int], player: int, columns: int,
                    rows: int) -> set[tuple[tuple[int, int], tuple[int, int], bool]]:
    """(source, target, captures) of every move: one row forward (White up, Black
    down) straight onto an empty cell or diagonally onto a cell without a friend."""
    dy = 1 if player == 0 else -1
    out = set()
    for (x, y), owner in pieces.items():
        if owner != player:
            continue
        for dx in (-1, 0, 1):
            tx, ty = x + dx, y + dy
            if not (0 <= tx < columns and 0 <= ty < rows):
                continue
            there = pieces.get((tx, ty))
            if there == player or (dx == 0 and there is not None):
                continue
            out.add(((x, y), (tx, ty), there is not None))
    return out


def engine_moves(state) -> set[tuple[tuple[int, int], tuple[int, int], bool]]:
    columns = state.game.options["columns"]
    out = set()
    for move in state.legal_moves():
        (source, target), = move.moved_cells()
        out.add(((source % columns, source // columns), (target % columns, target // columns),
                 "x" in move.notation))
    return out


@pytest.mark.parametrize("size", [(8, 8), (5, 6), (3, 4)])
def test_moves_match_the_reference_along_random_games(size):
    columns, rows = size
    game = boardlab.load("breakthrough", columns=columns, rows=rows)
    rng = random.Random(f"breakthrough {size}")
    positions = 0
    for _ in range(5):
        state = game.initial_state()
        while not state.is_terminal():
            want = reference_moves(as_reference(state), state.to_move, columns, rows)
            assert engine_moves(state) == want, str(state)
            positions += 1
            state.apply(rng.choice(state.legal_moves()))
    assert positions > 20


def test_perft_matches_the_published_counts():
    # 22, 484, 11132: the published perft of 8x8 Breakthrough (also game.known_perft).
    game = boardlab.load("breakthrough")
    assert perft(game.initial_state(), 3) == [22, 484, 11132]
