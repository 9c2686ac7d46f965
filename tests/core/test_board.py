"""Board topologies checked against hand counts and known shapes."""

from __future__ import annotations

import itertools

import pytest

from boardlab.core.board import Board, file_letters
from boardlab.errors import BoardError


def count_links(board: Board) -> int:
    return sum(1 for row in board.links for x in row if x >= 0)


def test_square_links_and_names():
    b = Board.square(8, 8)
    assert b.size == 64 and b.cell_name(0) == "a1" and b.cell_name(63) == "h8"
    # Queen-move neighbours on 8x8: 4*(2*7*8) orthogonal+... counted by brute force.
    expected = sum(1 for x, y in itertools.product(range(8), repeat=2)
                   for dx, dy in itertools.product((-1, 0, 1), repeat=2)
                   if (dx, dy) != (0, 0) and 0 <= x + dx < 8 and 0 <= y + dy < 8)
    assert count_links(b) == expected == 420
    assert count_links(Board.square(8, 8, diagonals=False)) == 2 * 2 * 7 * 8
    assert b.ray(b.cell("a1"), "ne") == [b.cell(n) for n in
                                         ("b2", "c3", "d4", "e5", "f6", "g7", "h8")]


def test_file_letters_beyond_z():
    assert file_letters(28)[-3:] == ["z", "aa", "ab"]


def test_symmetry_turns_directions_for_a_player():
    b = Board.square(3, 3).rotated_for(1)
    assert b.step(b.cell("b2"), "n", 0) == b.cell("b3")
    assert b.step(b.cell("b2"), "n", 1) == b.cell("b1")
    assert b.step(b.cell("b2"), "ne", 1) == b.cell("a1")


def test_hexagon_is_abalone_board():
    b = Board.hexagon(5)
    assert b.size == 61
    row_lengths = [sum(1 for n in b.names if n[0] == r) for r in "abcdefghi"]
    assert row_lengths == [5, 6, 7, 8, 9, 8, 7, 6, 5]
    assert {n for n in b.names if n[0] == "a"} == {"a1", "a2", "a3", "a4", "a5"}
    assert {n for n in b.names if n[0] == "i"} == {"i5", "i6", "i7", "i8", "i9"}
    centre = b.cell("e5")
    assert sorted(b.cell_name(x) for x in b.neighbours(centre)) == \
        ["d4", "d5", "e4", "e6", "f5", "f6"]
    # A hexagon of side n has 9n^2 - 15n + 6 edges, each linked both ways.
    assert count_links(b) == 2 * (9 * 25 - 15 * 5 + 6)


def test_hex_cells_any_shape():
    b = Board.hex_cells([(0, 0), (1, 0), (1, 1)])  # three mutually adjacent hexagons
    assert b.size == 3 and all(len(b.neighbours(c)) == 2 for c in range(3))


def test_grid3d_has_49_lines_of_three():
    b = Board.grid3d(3, 3, 3)
    assert b.size == 27 and len(b.directions) == 26
    lines = set()
    for c in range(27):
        for d in b.directions:
            ray = b.ray(c, d)
            if len(ray) >= 2:
                lines.add(frozenset([c, *ray[:2]]))
    assert len(lines) == 49


def test_graph_kill_link_zone_layers():
    b = Board.graph(["a", "b", "c"], [("a", "e", "b"), ("b", "e", "c")], opposite={"e": "w"})
    assert b.step(b.cell("c"), "w") == b.cell("b")
    b2 = b.without(["b"])
    assert b2.names == ("a", "c") and b2.step(b2.cell("a"), "e") == -1
    b3 = b2.link("a", "jump", "c").with_zone("goal", 0, ["c"])
    assert b3.step(b3.cell("a"), "jump") == b3.cell("c")
    assert b3.in_zone("goal", 0, b3.cell("c")) and not b3.in_zone("goal", 1, b3.cell("c"))
    layers = Board.square(3, 3).layered(["classical", "spooky"])
    assert layers.size == 18 and layers.cell_name(9) == "spooky.a1"
    assert layers.step(layers.cell("classical.b2"), "up") == layers.cell("spooky.b2")
    assert layers.step(layers.cell("spooky.b2"), "e") == layers.cell("spooky.c2")
    assert layers.step(layers.cell("spooky.c2"), "e") == -1


def test_bad_boards_are_reported():
    with pytest.raises(BoardError, match="duplicate"):
        Board.graph(["a", "a"], [])
    with pytest.raises(BoardError, match="no cell 'z9'"):
        Board.square(3, 3).cell("z9")
    with pytest.raises(BoardError, match="unknown cell"):
        Board.graph(["a"], [("a", "e", "b")])
    with pytest.raises(BoardError, match="no direction"):
        Board.square(2, 2).step(0, "up")
