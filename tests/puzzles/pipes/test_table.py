"""The seed's per-cell table (y, x, type, lit) as CSV: the article's grid read from it, the
round trip with the text form, and every malformed table named by line and column."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.errors import NotationError, PuzzleError
from boardlab.puzzles.pipes.level import Cell, PipeLevel
from boardlab.puzzles.pipes.solve import solutions
from boardlab.puzzles.pipes.table import detect_format, parse_level, parse_table, table_text
from tests.puzzles.pipes.test_solve import SEED_COMPLETION, SEED_SOLUTIONS, _seed_cells


def _row(r: int, c: int, cell: Cell) -> str:
    """One line of the seed's table, written here independently of table_text."""
    return f"{r},{c},{1 if cell.kind == 'L' else 0},{cell.letter}"


def test_the_seeds_55_known_cells_read_from_a_shuffled_table():
    known = _seed_cells()
    assert len(known) == 55
    completion = PipeLevel.parse(SEED_COMPLETION)
    lines = [_row(r, c, cell) for (r, c), cell in known.items()]
    lines += [_row(r, c, completion.cell(r, c)) for r in range(1, 9) for c in range(1, 10)
              if (r, c) not in known]
    random.Random(16).shuffle(lines)
    level = parse_table("\n".join(["y,x,type,lit", *lines]))
    assert (level.rows, level.cols) == (8, 9)
    for (r, c), cell in known.items():
        assert level.cell(r, c) == cell
    assert level == completion
    found = list(solutions(level))
    assert len(found) == 39
    codes = {s.code for s in found}
    assert {line.split("  ")[1] for line in SEED_SOLUTIONS} <= codes


def test_only_the_known_cells_is_a_table_with_a_missing_cell():
    lines = [_row(r, c, cell) for (r, c), cell in sorted(_seed_cells().items())]
    with pytest.raises(NotationError) as caught:
        parse_table("\n".join(lines) + "\n", "seed.csv")
    # The first cell of the article's grid that no printed path shows is 1-4.
    assert str(caught.value).startswith(f"seed.csv line {len(lines) + 1}, column 1: "
                                        "cell 1-4 is missing")


def test_the_completion_round_trips_between_the_table_and_the_text():
    level = PipeLevel.parse(SEED_COMPLETION)
    table = table_text(level)
    assert table.splitlines()[0] == "y,x,type,lit" and len(table.splitlines()) == 73
    assert parse_table(table) == level
    assert str(parse_table(table)) == SEED_COMPLETION
    assert parse_level(table, "grid.csv") == parse_level(SEED_COMPLETION, "grid.txt") == level


def test_header_order_separators_quotes_comments_and_empty_cells():
    text = ('\ufeff# exported from MySQL\nlit;type;x;y\n"A";1;1;1\n";";0;2;1\n\n'
            '"""";1;1;2\n;.;2;2\n')
    with pytest.raises(NotationError, match="drain: cell 2-2 has no segment"):
        parse_table(text)
    level = parse_table(text.replace(";.;2;2", "Z;1;2;2"))
    assert level.cells == ((Cell("L", "A"), Cell("I", ";")), (Cell("L", '"'), Cell("L", "Z")))
    assert parse_table(table_text(level)) == level
    holed = PipeLevel.parse("LA .\nLB LC")
    assert parse_table(table_text(holed)) == holed


@pytest.mark.parametrize(("text", "where", "message"), [
    ("1,1,1,A\n1,1,0,B", "line 2, column 1", "cell 1-1 is given twice (first on line 1)"),
    ("1,1,2,A", "line 1, column 5", "type must be 1 (elbow), 0 (straight) or . "),
    ("1,1,1,AB", "line 1, column 7", "lit must be one letter"),
    ("1,1,1,", "line 1, column 7", "lit must be one letter (a character that is not a "
                                   "space), not none"),
    ("1,1,1,A\n1,  x,1,B", "line 2, column 5", "x (the column) must be a whole number"),
    ("1,1,1,A\n101,1,1,B", "line 2, column 1", "y (the row) 101 is out of bounds: 1 to 100"),
    ("1,0,1,A", "line 1, column 3", "x (the column) 0 is out of bounds"),
    ("1,1,1,A,extra", "line 1, column 9", "5 fields, want 4 (y,x,type,lit)"),
    ("1,1,1", "line 1, column 6", "3 fields, want 4"),
    ('1,1,1,"A', "line 1, column 7", "a quoted field is not closed"),
    ('1,1,1,"A"B', "line 1, column 10", "text after a quoted field"),
    ("y,x,kind,lit\n", "line 1, column 5", "unknown column 'kind' in the header"),
    ("y,x,type\n", "line 1, column 9", "the header lacks the column lit"),
    ("y,x,y,lit\n", "line 1, column 1", "the header names column 'y' twice"),
    ("# nothing\n\n", "line 3, column 1", "no cells"),
    ("1,1,1,A\n1,2,1,B\n2,1,1,C\n", "line 4, column 1",
     "cell 2-2 is missing: row 2 has 1 of the grid's 2 cells; the grid is 2x2"),
    ("1,1,1,A\n3,1,1,C\n", "line 3, column 1", "cell 2-1 is missing: row 2 has no cell"),
    ("1,1,.,\n", "line 1, column 1", "tap: cell 1-1 has no segment"),
])
def test_every_problem_names_its_line_and_column(text, where, message):
    with pytest.raises(NotationError) as caught:
        parse_table(text, "quest.csv")
    assert str(caught.value).startswith(f"quest.csv {where}: {message}"), str(caught.value)


def test_a_table_cannot_say_where_another_tap_is():
    with pytest.raises(PuzzleError, match="no tap or drain"):
        table_text(PipeLevel.parse("tap: 1 1 left\nIA LB"))


def test_the_format_is_told_by_the_name_or_the_first_line():
    assert detect_format("LA") == "text"
    assert detect_format("# seed\ny,x,type,lit\n") == "csv"
    assert detect_format(" 1,1,1,A") == "csv"
    assert detect_format("1,1,1,A", "level.txt") == "text"
    assert detect_format("LA", "LEVEL.CSV") == "csv"
    with pytest.raises(PuzzleError, match="unknown level format"):
        parse_level("LA", format="xml")


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.randoms(use_true_random=False))
def test_random_levels_round_trip(rows, cols, rng):
    letters = "AbЖ7,;\"'.#"
    cells = [[Cell(rng.choice("IL"), rng.choice(letters)) if rng.random() > 0.15
              else Cell(None) for _ in range(cols)] for _ in range(rows)]
    cells[0][0] = Cell("L", "A")
    cells[-1][-1] = Cell("I", "Z")
    level = PipeLevel(tuple(tuple(row) for row in cells))
    lines = table_text(level).splitlines()
    shuffled = [lines[0], *rng.sample(lines[1:], len(lines) - 1)]
    assert parse_table("\n".join(shuffled)) == level
