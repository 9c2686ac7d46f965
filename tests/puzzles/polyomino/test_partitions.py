"""The seed's partition method against a literal plain-Python run of its loop (every
filter evaluated from scratch on the full state, by its definition) and against the
vector method's levels."""

from __future__ import annotations

import itertools

import pytest

from boardlab.errors import PuzzleError
from boardlab.puzzles.polyomino import partitions
from boardlab.puzzles.polyomino.generator import generate_levels, levels_of_size, sizes_up_to
from boardlab.puzzles.polyomino.partitions import FILTERS, enumerate_partitions
from boardlab.puzzles.polyomino.shapes import PIECE_SETS, Shape

TRIPLEX = PIECE_SETS["triplex"][0]
TETRA = PIECE_SETS["tetra"][0]


class Literal:
    """The seed's loop over the numbers 0 .. 2**E - 1, written from its text alone."""

    def __init__(self, width, height, largest):
        self.w, self.h, self.largest = width, height, largest
        self.cells = width * height
        self.edges = []  # (older cell, younger cell), the seed's order
        for c in range(self.cells):
            if c // width < height - 1:
                self.edges.append((c, c + width))
            if c % width < width - 1:
                self.edges.append((c, c + 1))
        self.e = len(self.edges)

    def bits(self, number):
        # edge 0 is the most significant bit
        return [number >> (self.e - 1 - j) & 1 for j in range(self.e)]

    def pieces(self, state, upto=None):
        """Pieces (sets of cells) made by the open edges owned by cells <= upto."""
        colour = [0] * self.cells
        adjacent = {c: [] for c in range(self.cells)}
        for (u, v), bit in zip(self.edges, state, strict=True):
            if bit and (upto is None or u <= upto):
                adjacent[u].append(v)
                adjacent[v].append(u)
        out, n = [], 0
        for c in range(self.cells):  # the seed's one-pass flood fill
            if not colour[c]:
                n += 1
                queue, colour[c] = [c], n
                for cell in queue:
                    for other in adjacent[cell]:
                        if not colour[other]:
                            colour[other] = n
                            queue.append(other)
                out.append(frozenset(queue))
        return out

    def earliest(self, state, fails):
        """The least cell k such that the edges of cells 0..k, the rest closed, fail."""
        for k in range(self.cells):
            if fails(self.pieces(state, k), k):
                return k
        return None

    def filters(self, state):
        """The first filter rejecting ``state`` and the cell it names (None: no cell), or
        (None, None) when the state passes the first six."""
        w, h = self.w, self.h
        piece_of = {}
        for piece in self.pieces(state):
            for c in piece:
                piece_of[c] = piece
        edge = dict(zip(self.edges, state, strict=True))
        blocks = [(y * w + x, y * w + x + 1, (y + 1) * w + x, (y + 1) * w + x + 1)
                  for y in range(h - 1) for x in range(w - 1)]

        def block_edges(a, b, c, d):
            return [(a, b), (a, c), (b, d), (c, d)]

        if any(len({piece_of[i] for i in block}) == 1
               and not all(edge[e] for e in block_edges(*block)) for block in blocks):
            def dup(pieces, k):
                where = {c: p for p in pieces for c in p}
                return any(len({where[i] for i in block}) == 1
                           and any(not edge[e] and e[0] <= k for e in block_edges(*block))
                           for block in blocks)
            return 0, self.earliest(state, dup)
        lonely = [c for c in range(self.cells) if len(piece_of[c]) == 1]
        if lonely:
            # the youngest owner of the lonely cell's edges
            return 1, min(max(u for u, v in self.edges if c in (u, v)) for c in lonely)
        cuts = []
        for x in range(1, w):
            line = [(y * w + x - 1, y * w + x) for y in range(h)]
            if not any(edge[e] for e in line):
                cuts.append(max(u for u, _ in line))
        for y in range(1, h):
            line = [((y - 1) * w + x, y * w + x) for x in range(w)]
            if not any(edge[e] for e in line):
                cuts.append(max(u for u, _ in line))
        if cuts:
            return 2, min(cuts)
        if len(set(piece_of.values())) < 3:
            return 3, self.earliest(state, lambda pieces, k: len(pieces) < 3)
        if any(len(p) > self.largest for p in piece_of.values()):
            return 4, self.earliest(state, lambda pieces, k: max(map(len, pieces))
                                    > self.largest)
        if any(self.image(state, t) < state for t in self.symmetries()):
            return 5, None
        return None, None

    def symmetries(self):
        w, h = self.w, self.h
        maps = [lambda x, y: (w - 1 - x, y), lambda x, y: (x, h - 1 - y),
                lambda x, y: (w - 1 - x, h - 1 - y)]
        if w == h:
            maps += [lambda x, y: (y, x), lambda x, y: (h - 1 - y, x),
                     lambda x, y: (y, w - 1 - x), lambda x, y: (h - 1 - y, w - 1 - x)]
        return maps

    def image(self, state, t):
        index = {e: j for j, e in enumerate(self.edges)}
        out = [0] * self.e
        for (u, v), bit in zip(self.edges, state, strict=True):
            a = t(u % self.w, u // self.w)
            b = t(v % self.w, v // self.w)
            pair = tuple(sorted((a[1] * self.w + a[0], b[1] * self.w + b[0])))
            out[index[pair]] = bit
        return out

    def last_edge(self, k):
        return max(j for j, (u, _) in enumerate(self.edges) if u <= k)

    def run(self, jumps=True):
        """checked and rejected per filter, and the states reaching the Solver."""
        checked, rejected, solver = [0] * 6, [0] * 6, []
        number = 0
        while number < 1 << self.e:
            state = self.bits(number)
            failed, cell = self.filters(state)
            for f in range(6 if failed is None else failed + 1):
                checked[f] += 1
            if failed is None:
                solver.append(tuple(state))
            else:
                rejected[failed] += 1
            position = self.e - 1 if cell is None or not jumps else self.last_edge(cell)
            step = 1 << (self.e - 1 - position)
            number = (number // step + 1) * step
        return checked, rejected, solver


def _state_bits(layout_edges, words):
    return tuple(int(words[j >> 6]) >> (j & 63) & 1 for j in range(layout_edges))


@pytest.mark.parametrize(("width", "height", "shapes"), [
    (2, 2, TRIPLEX), (3, 2, TRIPLEX), (4, 2, TRIPLEX), (3, 3, TRIPLEX), (5, 2, TRIPLEX),
    (4, 3, TRIPLEX), (3, 3, TETRA), (4, 2, TETRA)])
def test_counts_equal_the_literal_loop(width, height, shapes):
    n = max(s.size for s in shapes)
    literal = Literal(width, height, n)
    checked, rejected, solver = literal.run()
    found = enumerate_partitions(width, height, shapes)
    assert found.checked == tuple(checked)
    assert found.rejected == tuple(rejected)
    assert sorted(_state_bits(literal.e, w) for w in found.states.tolist()) == sorted(solver)
    # the jumps skip nothing that passes: the loop without them reaches the same states
    if literal.e <= 12:
        _, _, every = literal.run(jumps=False)
        assert sorted(every) == sorted(solver)
        assert checked[0] < 1 << literal.e or literal.e < 3


def test_vectors_are_the_pieces_counted():
    found = enumerate_partitions(4, 3, TRIPLEX)
    index = {s: i for i, s in enumerate(TRIPLEX)}
    assert len(found.states)
    for vector, words in zip(found.vectors.tolist(), found.states.tolist(), strict=True):
        expected = [0] * len(TRIPLEX)
        for cells in partitions.partition_cells(4, 3, words):
            expected[index[Shape.of(cells)]] += 1
        assert vector == expected


def test_first_jump_skips_a_quarter():
    # the seed: WORK DONE starts at 25 %, the top-left cell alone
    literal = Literal(4, 4, 3)
    assert literal.filters([0] * literal.e) == (1, 0)


def test_other_sets_are_refused():
    with pytest.raises(PuzzleError, match="every fixed polyomino"):
        enumerate_partitions(4, 3, TRIPLEX[:4])


@pytest.mark.parametrize("size", [s for s in sizes_up_to(20)])
def test_same_levels_as_the_vector_method(size):
    w, h = size
    assert levels_of_size(w, h, method="partitions", seed=3) == levels_of_size(w, h, seed=3)


@pytest.mark.parametrize("size", [s for s in sizes_up_to(25) if s[0] * s[1] > 20])
def test_same_levels_as_the_vector_method_up_to_25(size):
    # Areas 26 to 28 (minutes): benchmarks/triplex.py compares every rectangle up to
    # its --partitions-area, 28 by default.
    w, h = size
    assert levels_of_size(w, h, method="partitions") == levels_of_size(w, h)


@pytest.mark.parametrize("size", [(4, 2), (3, 3), (6, 2), (4, 3), (5, 3)])
def test_same_levels_as_the_vector_method_with_tetrominoes(size):
    # 27 shapes: the vector method and the Solver filter take the solver's batch path
    w, h = size
    levels = levels_of_size(w, h, "tetra", method="partitions")
    assert levels == levels_of_size(w, h, "tetra") and levels


def test_report_counts_through_generate_levels():
    reports = []
    levels = generate_levels([(4, 3), (4, 4)], method="partitions", backend="serial",
                             progress=False, on_size=reports.append)
    assert [(r.width, r.height) for r in reports] == [(4, 3), (4, 4)]
    for report in reports:
        filters = report.filters
        assert [f.name for f in filters] == list(FILTERS)
        # each filter checks what the one before accepted; the last accepts the levels
        for before, after in itertools.pairwise(filters):
            assert after.checked == before.checked - before.rejected
        assert filters[-1].checked - filters[-1].rejected == report.levels
    assert sum(r.levels for r in reports) == len(levels) == 4 + 5
