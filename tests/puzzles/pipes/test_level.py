"""Pipe levels: the text form of ../shared/specs/plumber.md, its errors (with line and
column) and its round trip."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.errors import NotationError, PuzzleError
from boardlab.puzzles.pipes.level import SIDES, Cell, PipeLevel


def test_parse_defaults_and_cells():
    level = PipeLevel.parse("# a comment\n\nLA IK LE\n\nLD .  LZ\n")
    assert (level.rows, level.cols) == (2, 3)
    assert level.tap == (1, 1, "top") and level.drain == (2, 3, "bottom")
    assert level.cell(1, 2) == Cell("I", "K")
    assert level.cell(2, 2) == Cell(None) and level.cell(2, 2).is_empty
    assert level == PipeLevel(level.cells, tap=(1, 1, "top"), drain=(2, 3, "bottom"))
    assert hash(level) == hash(PipeLevel.parse(str(level)))
    assert str(level) == "LA IK LE\nLD . LZ\n"


def test_headers_written_only_when_not_default():
    level = PipeLevel.parse("tap: 2 1 left\nDRAIN: 1 3 Right\nLA IK LE\nLD IF LZ")
    assert level.tap == (2, 1, "left") and level.drain == (1, 3, "right")
    assert str(level) == "tap: 2 1 left\ndrain: 1 3 right\nLA IK LE\nLD IF LZ\n"
    only_drain = PipeLevel.parse("drain: 2 3 right\nLA IK LE\nLD IF LZ")
    assert str(only_drain).splitlines()[0] == "drain: 2 3 right"
    explicit_defaults = PipeLevel.parse("tap: 1 1 top\ndrain: 2 3 bottom\nLA IK LE\nLD IF LZ")
    assert str(explicit_defaults) == "LA IK LE\nLD IF LZ\n"


def test_any_letters():
    level = PipeLevel.parse("IЖ L#\nL: Ié\nL字 I.")
    assert [c.letter for row in level.cells for c in row] == ["Ж", "#", ":", "é", "字", "."]
    assert PipeLevel.parse(str(level)) == level


@pytest.mark.parametrize(("text", "line", "column", "fragment"), [
    ("LA XB", 1, 4, "unknown cell kind 'X'"),
    ("LA IB\n\nLC", 3, 3, "row 2 has 1 cells, row 1 has 2"),
    ("LA IB\nLC LD LE", 2, 7, "more cells than row 1"),
    ("LA I", 1, 5, "no letter"),
    ("LA IBC", 1, 6, "more than one letter"),
    ("LA ..", 1, 5, "'.' takes no letter"),
    ("tap: 1 x top\nLA", 1, 8, "not a row or column number"),
    ("tap: 1 1\nLA", 1, 6, "needs ROW COL SIDE"),
    ("tap: 1 1 up\nLA", 1, 10, "unknown side 'up'"),
    ("# c\nsize: 3\nLA", 2, 1, "unknown header 'size'"),
    ("tap: 1 1 top\ntap: 1 1 left\nLA", 2, 1, "a second tap"),
    ("LA\ntap: 1 1 top", 2, 1, "before the grid"),
    ("tap: 2 2 top\nLA LB\nLC LD", 1, 6, "does not face outside"),
    ("drain: 1 1 right\nLA LB\nLC LD", 1, 8, "does not face outside"),
    ("drain: 3 1 bottom\nLA LB\nLC LD", 1, 8, "outside the 2x2 grid"),
    ("tap: 1 2 top\nLA .\nLC LD", 1, 6, "cell 1-2 has no segment"),
    (". LB\nLC LD", 1, 1, "tap: cell 1-1 has no segment"),
    ("LA LB\nLC  .", 2, 5, "drain: cell 2-2 has no segment"),
    ("# only comments\n\n", 3, 1, "no grid"),
    ("", 1, 1, "no grid"),
])
def test_parse_errors_name_line_and_column(text, line, column, fragment):
    with pytest.raises(NotationError) as caught:
        PipeLevel.parse(text, where="puzzle.txt")
    message = str(caught.value)
    assert fragment in message
    if line is not None:
        assert message.startswith(f"puzzle.txt line {line}, column {column}: "), message


def test_default_drain_on_an_empty_cell():
    with pytest.raises(NotationError, match="drain: cell 2-2 has no segment"):
        PipeLevel.parse("LA LB\nLC .")


def test_constructor_checks():
    with pytest.raises(PuzzleError):
        PipeLevel(())
    with pytest.raises(PuzzleError):
        PipeLevel(((Cell("I", "A"),), (Cell("I", "A"), Cell("L", "B"))))
    with pytest.raises(PuzzleError):
        PipeLevel(((Cell("I", "A"),),), tap=(1, 1, "north"))
    with pytest.raises(PuzzleError):
        Cell("X", "A")
    with pytest.raises(PuzzleError):
        Cell("I", "AB")
    with pytest.raises(PuzzleError):
        Cell("I", " ")


_LETTERS = st.characters(categories=("L", "N", "P", "S"))


@st.composite
def levels(draw) -> PipeLevel:
    rows = draw(st.integers(1, 6))
    cols = draw(st.integers(1, 6))
    cells = [[Cell(kind, letter) if kind else Cell(None)
              for kind, letter in draw(st.lists(
                  st.tuples(st.sampled_from(["I", "L", "I", "L", None]), _LETTERS),
                  min_size=cols, max_size=cols))]
             for _ in range(rows)]
    ports = [(r, c, side) for r in range(1, rows + 1) for c in range(1, cols + 1)
             for side, (dr, dc) in SIDES.items()
             if not (1 <= r + dr <= rows and 1 <= c + dc <= cols)]
    tap = draw(st.sampled_from(ports))
    drain = draw(st.sampled_from(ports))
    for r, c, _ in (tap, drain):
        if cells[r - 1][c - 1].is_empty:
            cells[r - 1][c - 1] = Cell("L", "x")
    return PipeLevel(tuple(map(tuple, cells)), tap=tap, drain=drain)


@settings(max_examples=200, deadline=None)
@given(levels())
def test_text_round_trip(level):
    text = str(level)
    assert PipeLevel.parse(text) == level
    assert str(PipeLevel.parse(text)) == text
