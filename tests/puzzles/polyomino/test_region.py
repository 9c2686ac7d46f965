"""Regions: text form, rectangles, symmetries of the bounding box."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardlab.errors import NotationError
from boardlab.puzzles.polyomino.region import Region, box_symmetries, transform_cell
from boardlab.puzzles.polyomino.shapes import Shape

cell_sets = st.sets(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=1, max_size=30)


@given(cell_sets)
def test_text_form_round_trips(cells):
    region = Region.of(cells)
    assert Region.parse(str(region)) == region
    assert hash(Region.parse(str(region))) == hash(region)


@given(cell_sets)
def test_normalised_and_measured(cells):
    region = Region.of(cells)
    assert min(x for x, _ in region.cells) == 0 and min(y for _, y in region.cells) == 0
    assert region.size == len(cells)
    assert region.is_rectangle == (region.size == region.width * region.height)
    assert region.cells[0] in region


def test_rectangle():
    r = Region.rectangle(5, 3)
    assert (r.width, r.height, r.size, r.is_rectangle) == (5, 3, 15, True)
    assert str(r) == "#####\n#####\n#####"
    assert Region.parse(str(r)) == r


def test_parse_ignores_surrounding_blank_lines_and_offsets():
    assert Region.parse("\n..#\n.##\n") == Region.parse(".#\n##")


@pytest.mark.parametrize("text, where", [
    ("##\n#x", "region, line 2, column 2"),
    ("o", "region, line 1, column 1"),
])
def test_parse_errors_name_line_and_column(text, where):
    with pytest.raises(NotationError) as info:
        Region.parse(text)
    assert info.value.where == where
    assert where in str(info.value)


@pytest.mark.parametrize("make", [
    lambda: Region.parse("...\n..."),
    lambda: Region.parse(""),
    lambda: Region.of([]),
    lambda: Region(()),
    lambda: Region.rectangle(0, 3),
    lambda: Region.rectangle(3, -1),
])
def test_empty_regions_are_errors(make):
    with pytest.raises(NotationError):
        make()


def test_box_symmetries_agree_with_shape_transformations():
    # the same numbering as Shape.transformed, followed by a translation
    shape = Shape.parse("###\n#..")
    for k in range(8):
        image = [transform_cell(c, k, shape.width, shape.height) for c in shape.cells]
        assert Shape.of(image) == shape.transformed(k)
        assert min(x for x, _ in image) == 0 and min(y for _, y in image) == 0


@pytest.mark.parametrize("width, height", [(3, 2), (2, 5), (4, 4), (1, 1)])
def test_box_symmetries_keep_the_box(width, height):
    box = Region.rectangle(width, height)
    ks = box_symmetries(width, height)
    assert len(ks) == (8 if width == height else 4)
    assert box.symmetries() == ks
    for k in ks:
        cells = {transform_cell(c, k, width, height) for c in box.cells}
        assert cells == set(box.cells)  # a permutation of the box's cells
    for k in set(range(8)) - set(ks):  # the others turn the box on its side
        assert {transform_cell(c, k, width, height) for c in box.cells} != set(box.cells)


@pytest.mark.parametrize("text, expected", [
    ("###\n#.#", (0, 4)),              # U: the left-right mirror only
    ("##.\n.##", (0, 2)),              # Z: the half turn only
    ("#..\n###", (0,)),                # L: none
    ("##\n#.", (0, 5)),                # a square box: the mirror (x, y) -> (y, x)
    ("#.\n##", (0, 7)),                # ... and (x, y) -> (1 - y, 1 - x)
    (".#.\n###\n.#.", tuple(range(8))),  # X: all eight
    ("##\n..\n##", (0, 2, 4, 6)),      # a rectangle with a missing row in the middle
    ("##\n##\n..\n##", (0, 4)),
])
def test_symmetries_of_regions(text, expected):
    region = Region.parse(text)
    assert region.symmetries() == expected
    for k in expected:
        assert region.transformed(k) == region


def test_transform_cell_rejects_unknown_symmetry():
    with pytest.raises(ValueError):
        transform_cell((0, 0), 8, 2, 2)
