"""Levels and puzzles: canonical values, validation naming the problem, text and JSON
round trips, the canonical solution encoding."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.errors import BoardlabError, PuzzleError
from boardlab.puzzles.polyomino.level import (
    LETTERS,
    Level,
    Puzzle,
    canonical_solution,
    read_puzzle,
)
from boardlab.puzzles.polyomino.shapes import Shape
from tests.puzzles.polyomino.level_strategies import levels, tilings

# The seed article's two 4x2 levels.
SEED_A = "level 4x2\nabbc\naacc\n"
SEED_B = "level 4x2\nabbb\naacc\n"

DOMINO = Shape.parse("##")
VDOMINO = Shape.parse("#\n#")
L_DOWN = Shape.parse("#.\n##")  # cells (0,0) (0,1) (1,1)
L_UP = Shape.parse(".#\n##")
I3 = Shape.parse("###")


def test_puzzle_error_is_a_boardlab_value_error():
    assert issubclass(PuzzleError, BoardlabError)
    assert issubclass(PuzzleError, ValueError)


# -- the seed's levels, read by hand ------------------------------------------------------

def test_seed_level_a_pieces_and_solution():
    level = Level.parse(SEED_A)
    assert (level.width, level.height) == (4, 2)
    assert level.pieces == (DOMINO, L_DOWN, L_UP)
    assert level.solution == (((1, 0), (2, 0)), ((0, 0), (0, 1), (1, 1)),
                              ((3, 0), (2, 1), (3, 1)))
    assert level.grid() == ((1, 0, 0, 2), (1, 1, 2, 2))
    assert level.rows() == ("abbc", "aacc")
    assert level.letters() == ("b", "a", "c")
    assert level.rotatable == () and level.difficulty is None
    assert level.solution_checksum() == b"abbc/aacc"


def test_seed_level_b_pieces():
    level = Level.parse(SEED_B)
    assert level.pieces == (DOMINO, I3, L_DOWN)
    assert level.solution_checksum() == b"abbb/aacc"


def test_constructor_with_pieces_in_any_order_is_canonical():
    a = Level(4, 2, (L_UP, DOMINO, L_DOWN),
              (((3, 0), (2, 1), (3, 1)), ((2, 0), (1, 0)), ((1, 1), (0, 0), (0, 1))))
    assert a == Level.parse(SEED_A)
    assert hash(a) == hash(Level.parse(SEED_A))


def test_rotatable_index_follows_its_piece_when_sorted():
    level = Level(4, 2, (L_UP, DOMINO, L_DOWN),
                  (((3, 0), (2, 1), (3, 1)), ((1, 0), (2, 0)), ((0, 0), (0, 1), (1, 1))),
                  rotatable=0, shown_orientation=2)
    assert [level.pieces[i] for i in level.rotatable] == [L_UP]
    assert level.shown_pieces == (L_UP.orientations()[2],)


# -- identical pieces are interchangeable --------------------------------------------------

TWIN = "level 3x3\naab\ncdb\ncdd\n"  # b and c are both vertical dominoes


def test_swapping_identical_pieces_gives_the_same_level():
    level = Level.parse(TWIN)
    assert level.pieces.count(VDOMINO) == 2
    b, c = ((2, 0), (2, 1)), ((0, 1), (0, 2))
    hh = ((0, 0), (1, 0))
    ell = ((1, 1), (1, 2), (2, 2))
    one = Level(3, 3, (DOMINO, VDOMINO, VDOMINO, L_DOWN), (hh, b, c, ell))
    two = Level(3, 3, (DOMINO, VDOMINO, VDOMINO, L_DOWN), (hh, c, b, ell))
    assert one == two == level
    assert one.solution_checksum() == two.solution_checksum() == b"aab/cdb/cdd"


def test_rotatable_among_identical_pieces_names_the_first():
    one = Level.parse(TWIN + "rotatable b shown 1\n")
    two = Level.parse(TWIN + "rotatable c shown 1\n")
    assert one == two
    assert one.rotatable == (one.pieces.index(VDOMINO),)


def test_checksum_ignores_labels():
    assert canonical_solution(["xyyz", "xxzz"]) == b"abbc/aacc"
    assert canonical_solution([[9, 4, 4, 0], [9, 9, 0, 0]]) == b"abbc/aacc"
    assert Level.from_grid(["QRRS", "QQSS"]).solution_checksum() == b"abbc/aacc"


@given(tilings(), st.randoms(use_true_random=False))
def test_checksum_is_invariant_under_relabelling_and_piece_order(grid, rnd):
    labels = sorted({v for row in grid for v in row})
    relabel = dict(zip(labels, rnd.sample(range(1000), len(labels)), strict=True))
    assert canonical_solution([[relabel[v] for v in row] for row in grid]) == \
        canonical_solution(grid)
    level = Level.from_grid(grid)
    order = list(range(len(level.pieces)))
    rnd.shuffle(order)
    shuffled = Level(level.width, level.height, tuple(level.pieces[i] for i in order),
                     tuple(level.solution[i][::-1] for i in order))
    assert shuffled == level
    assert shuffled.solution_checksum() == level.solution_checksum() == \
        canonical_solution(grid)


# -- validation names the problem ------------------------------------------------------

def test_side_below_two():
    with pytest.raises(PuzzleError, match=r"at least 2, got 3x1"):
        Level(3, 1, (I3,), (((0, 0), (1, 0), (2, 0)),))
    with pytest.raises(PuzzleError, match=r"at least 2, got 1x2"):
        Puzzle(1, 2, (VDOMINO,))


def test_area_mismatch_names_both_numbers_and_an_uncovered_cell():
    with pytest.raises(PuzzleError, match=r"have 5 cells in all but the 4x2 rectangle has 8: "
                                          r"cell \(3, 0\) is left uncovered"):
        Level(4, 2, (DOMINO, L_DOWN), (((1, 0), (2, 0)), ((0, 0), (0, 1), (1, 1))))
    with pytest.raises(PuzzleError, match=r"have 10 cells in all but the 4x2 rectangle has 8"):
        Puzzle(4, 2, (DOMINO, L_DOWN, L_UP, DOMINO))


def test_placement_not_the_piece_shape():
    with pytest.raises(PuzzleError, match=r"piece 0 \(##\) is placed on \(1, 0\), \(1, 1\), "
                                          r"which is not its shape"):
        Level(4, 2, (DOMINO, L_DOWN, L_UP),
              (((1, 0), (1, 1)), ((0, 0), (0, 1), (1, 1)), ((3, 0), (2, 1), (3, 1))))


def test_overlap_names_the_cell():
    with pytest.raises(PuzzleError, match=r"cell \(1, 0\) is covered by pieces 0 and 2"):
        Level(4, 2, (DOMINO, L_DOWN, L_DOWN),
              (((1, 0), (2, 0)), ((0, 0), (0, 1), (1, 1)), ((1, 0), (1, 1), (2, 1))))


def test_outside_names_the_cell():
    with pytest.raises(PuzzleError, match=r"piece 0 covers cell \(4, 0\), outside the 4x2"):
        Level(4, 2, (DOMINO, L_DOWN, L_UP),
              (((3, 0), (4, 0)), ((0, 0), (0, 1), (1, 1)), ((3, 0), (2, 1), (3, 1))))


def test_solution_count_and_pieces():
    with pytest.raises(PuzzleError, match=r"places 2 pieces but there are 3"):
        Level(4, 2, (DOMINO, L_DOWN, L_UP), (((1, 0), (2, 0)), ((0, 0), (0, 1), (1, 1))))
    with pytest.raises(PuzzleError, match=r"piece 0 .* is not connected"):
        Level(2, 2, (Shape(((0, 0), (1, 1))), Shape(((0, 0), (1, 1)))),
              (((0, 0), (1, 1)), ((1, 0), (0, 1))))
    with pytest.raises(PuzzleError, match="no pieces"):
        Puzzle(2, 2, ())


def test_rotatable_and_shown_orientation():
    grid = ["abbc", "aacc"]
    with pytest.raises(PuzzleError, match="must be given together"):
        Level.from_grid(grid, rotatable="a")
    with pytest.raises(PuzzleError, match=r"shown orientation 4 is out of range: .* has 4"):
        Level.from_grid(grid, rotatable="a", shown_orientation=4)
    with pytest.raises(PuzzleError, match="no piece 'z'"):
        Level.from_grid(grid, rotatable="z", shown_orientation=0)
    with pytest.raises(PuzzleError, match=r"rotatable piece 3 is out of range"):
        Puzzle(4, 2, (DOMINO, L_DOWN, L_UP), rotatable=3)
    with pytest.raises(PuzzleError, match="difficulty must be"):
        Level.from_grid(grid, difficulty=-1)


def test_split_piece_in_grid():
    with pytest.raises(PuzzleError, match=r"piece 'a' is split: cell \(3, 1\)"):
        Level.from_grid(["abbc", "bbca"])


# -- level text form -------------------------------------------------------------------

def test_level_text_with_annotations_round_trips():
    text = SEED_B + "rotatable c shown 1\ndifficulty 3\n"
    level = Level.parse(text)
    assert str(level) == text
    assert level.shown_pieces == (VDOMINO,)
    assert level.difficulty == 3


def test_level_text_accepts_comments_and_any_letters():
    level = Level.parse("; a comment\n\nlevel 4x2\nQRRS\nQQSS\n\n; end\ndifficulty 0\n")
    assert level == Level.parse(SEED_A + "difficulty 0\n")


@pytest.mark.parametrize(("text", "message"), [
    ("", r"level text: empty"),
    ("lvl 4x2\nabbc\naacc\n", r"line 1: expected a header like 'level 5x3'"),
    ("level 4x1\nabbc\n", r"line 1: .*at least 2, got 4x1"),
    ("level 4x2\nabbc\n", r"line 1: expected 2 grid rows after the header, found 1"),
    ("level 4x2\nabbc\naa#c\n", r"line 3, column 3: unexpected '#'"),
    ("level 4x2\nabbc\naaccc\n", r"line 3: the row has 5 cells, expected 4"),
    ("level 4x2\nabba\naacc\n", r"line 2, column 4: piece 'a' is split"),
    ("level 4x2\nabbc\naacc\nrotate a\n", r"line 4: expected 'rotatable <letter> shown <n>'"),
    ("level 4x2\nabbc\naacc\nrotatable z shown 0\n", r"line 4: no piece 'z'"),
    ("level 4x2\nabbc\naacc\nrotatable b shown 2\n",
     r"line 4: shown orientation 2 is out of range: piece 'b' has 2 orientations"),
    ("level 4x2\nabbc\naacc\ndifficulty 1\ndifficulty 2\n", r"line 5: a second difficulty"),
])
def test_level_text_errors_name_line_and_column(text, message):
    with pytest.raises(PuzzleError, match=message):
        Level.parse(text)


def test_level_text_error_names_the_source():
    with pytest.raises(PuzzleError, match=r"^levels/7\.txt, line 2, column 1: unexpected '\.'"):
        Level.parse("level 2x2\n.a\naa\n", where="levels/7.txt")


# -- puzzle text form ------------------------------------------------------------------

def test_puzzle_text():
    puzzle = Puzzle.parse("puzzle 3x3\n\n##\n\n2x\n#\n#\n\nrotatable\n##\n.#\n")
    assert puzzle.pieces == (DOMINO, VDOMINO, VDOMINO, Shape.parse("##\n.#"))
    assert puzzle.rotatable == (3,)
    assert str(puzzle) == "puzzle 3x3\n\n##\n\n2x\n#\n#\n\nrotatable\n##\n.#\n"
    assert Puzzle.parse(str(puzzle)) == puzzle


def test_puzzle_text_rotatable_copy_of_a_repeated_piece():
    puzzle = Puzzle(3, 3, (VDOMINO, DOMINO, VDOMINO, L_DOWN), rotatable=2, difficulty=9)
    assert puzzle.rotatable == (1,)
    text = str(puzzle)
    assert "rotatable\n#\n#\n\n#\n#\n" in text
    assert Puzzle.parse(text) == puzzle


def test_level_puzzle_shows_the_rotatable_piece_turned():
    level = Level.parse(SEED_B + "rotatable c shown 1\ndifficulty 3\n")
    puzzle = level.puzzle()
    assert puzzle.pieces == (VDOMINO, I3, L_DOWN)
    assert puzzle.rotatable == (0,) and puzzle.difficulty == 3
    assert str(puzzle) == "puzzle 4x2\ndifficulty 3\n\nrotatable\n#\n#\n\n###\n\n#.\n##\n"
    assert Level.from_puzzle(puzzle, ["abbb", "aacc"]) == level
    assert Level.from_puzzle(puzzle, ["xyyy", "xxzz"]) == level


def test_from_puzzle_rejects_a_grid_with_other_pieces():
    puzzle = Level.parse(SEED_B).puzzle()
    with pytest.raises(PuzzleError, match=r"does not use the puzzle's pieces \(extra "):
        Level.from_puzzle(puzzle, ["abbc", "aacc"])
    with pytest.raises(PuzzleError, match="is 4x2 but the puzzle is 2x4"):
        Level.from_puzzle(Puzzle(2, 4, puzzle.pieces), ["abbb", "aacc"])
    turned = Level.parse(SEED_B + "rotatable b shown 1\n").puzzle()  # the straight, upright
    with pytest.raises(PuzzleError, match=r"uses .#/## where .* rotatable piece #/#/#"):
        Level.from_puzzle(turned, ["abbc", "aacc"])  # the straight replaced by an L


def test_read_puzzle_takes_either_form():
    level = Level.parse(SEED_A)
    assert read_puzzle(str(level)) == level.puzzle()
    assert read_puzzle(str(level.puzzle())) == level.puzzle()


@pytest.mark.parametrize(("text", "message"), [
    ("", r"puzzle text: empty"),
    ("level 4x2\n", r"line 1: expected a header like 'puzzle 5x3'"),
    ("puzzle 4x2\n\n##\n#x\n", r"line 4, column 2: unexpected 'x'"),
    ("puzzle 4x2\n\n#.#\n###\n\n##\n", r"puzzle text: the pieces have 7 cells in all but the 4x2 "
                                  r"rectangle has 8"),
    ("puzzle 4x2\n\n#.\n.#\n\n###\n###\n", r"line 4, column 2: this cell is not connected"),
    ("puzzle 4x2\n\n##\n2x\n", r"line 4: '2x' must start a piece"),
    ("puzzle 4x2\n\nrotatable\n\n##\n", r"line 3: a piece drawing must follow 'rotatable'"),
    ("puzzle 4x2\n\n0x\n##\n", r"line 3: a count must be at least 1"),
    ("puzzle 4x2\n\n...\n", r"line 3: a piece needs at least one #"),
    ("puzzle 4x2\n", r"no pieces found"),
    ("puzzle 4x2\n\n##\n\n###\n", r"the pieces have 5 cells in all but the 4x2 rectangle has 8"),
])
def test_puzzle_text_errors_name_line_and_column(text, message):
    with pytest.raises(PuzzleError, match=message):
        Puzzle.parse(text)


# -- JSON -----------------------------------------------------------------------------

def test_level_json():
    level = Level.parse(SEED_B + "rotatable c shown 1\ndifficulty 3\n")
    obj = level.to_json()
    assert obj == {"width": 4, "height": 2, "solution": ["abbb", "aacc"], "rotatable": "c",
                   "shown_orientation": 1, "difficulty": 3}
    assert Level.from_json(json.loads(json.dumps(obj))) == level


def test_puzzle_json():
    puzzle = Level.parse(SEED_B + "rotatable c shown 1\ndifficulty 3\n").puzzle()
    assert puzzle.to_json() == {"width": 4, "height": 2, "rotatable": 0, "difficulty": 3,
                                "pieces": [[[0, 0], [0, 1]], [[0, 0], [1, 0], [2, 0]],
                                           [[0, 0], [0, 1], [1, 1]]]}
    assert Puzzle.from_json(puzzle.to_json()) == puzzle


@pytest.mark.parametrize(("obj", "message"), [
    ([], r"expected a JSON object"),
    ({"height": 2, "solution": ["ab", "ab"]}, r"missing field 'width'"),
    ({"width": "4", "height": 2}, r"field 'width': expected an integer"),
    ({"width": 2, "height": 2, "solution": "abab"}, r"field 'solution': expected a list"),
    ({"width": 3, "height": 2, "solution": ["ab", "ab"]}, r"expected 2 rows of 3 letters"),
    ({"width": 2, "height": 2, "solution": ["ab", "ab"], "rotatable": 1},
     r"field 'rotatable': expected a letter, a list of letters or null"),
    ({"width": 2, "height": 2, "solution": ["ab", "ab"], "rotatable": "a",
      "shown_orientation": True}, r"field 'shown_orientation': expected an integer"),
    ({"width": 2, "height": 2, "solution": ["ab", "ba"]}, r"piece 'a' is split"),
])
def test_level_json_errors_name_the_field(obj, message):
    with pytest.raises(PuzzleError, match=message):
        Level.from_json(obj)


@pytest.mark.parametrize(("obj", "message"), [
    ({"width": 2, "height": 2, "pieces": []}, r"field 'pieces': expected a non-empty list"),
    ({"width": 2, "height": 2, "pieces": [[[0, 0], [0]]]}, r"field 'pieces\[0\]\[1\]'"),
    ({"width": 2, "height": 2, "pieces": [[[0, 0], [0, 0]]]}, r"a cell appears twice"),
    ({"width": 2, "height": 2, "pieces": [[[0, 0], [1, 0]]]}, r"have 2 cells .* has 4"),
])
def test_puzzle_json_errors_name_the_field(obj, message):
    with pytest.raises(PuzzleError, match=message):
        Puzzle.from_json(obj)


# -- properties ----------------------------------------------------------------------------

@settings(max_examples=200)
@given(levels())
def test_level_forms_round_trip(level):
    assert Level.parse(str(level)) == level
    assert Level.from_json(json.loads(json.dumps(level.to_json()))) == level
    puzzle = level.puzzle()
    assert Puzzle.parse(str(puzzle)) == puzzle
    assert Puzzle.from_json(json.loads(json.dumps(puzzle.to_json()))) == puzzle
    assert Level.from_puzzle(puzzle, level.rows()) == level
    assert canonical_solution(level.grid()) == level.solution_checksum()


@given(levels())
def test_grid_and_solution_agree(level):
    grid = level.grid()
    for i, placement in enumerate(level.solution):
        assert Shape.of(placement) == level.pieces[i]
        assert all(grid[y][x] == i for x, y in placement)
    assert sum(len(p) for p in level.solution) == level.width * level.height
    letters = level.letters()
    assert sorted(letters) == sorted(LETTERS[:len(level.pieces)])
    # letters by first appearance: the first new letter of each row-major scan is next
    seen = []
    for row in level.rows():
        for ch in row:
            if ch not in seen:
                seen.append(ch)
    assert "".join(seen) == LETTERS[:len(seen)]


def test_too_many_pieces_for_the_letters():
    # 63 vertical dominoes: 63x2
    grid = [list(range(63)), list(range(63))]
    with pytest.raises(PuzzleError, match="at most 62 pieces"):
        Level.from_grid(grid)
    assert len(Level.from_grid([row[:62] for row in grid]).rows()[0]) == 62


def test_random_swaps_of_identical_pieces_in_a_larger_level():
    rnd = random.Random(7)
    level = Level.from_grid(["aabbcc", "ddeeff", "gghhii"])  # nine identical dominoes
    for _ in range(20):
        order = list(range(9))
        rnd.shuffle(order)
        other = Level(6, 3, level.pieces, tuple(level.solution[i] for i in order))
        assert other == level
        assert other.solution_checksum() == b"aabbcc/ddeeff/gghhii"


def test_several_rotatable_pieces_round_trip():
    # Two pieces that may turn (the generator's --rotatable 2): text, JSON and the
    # puzzle view keep both, each with its own shown orientation.
    level = Level.parse(SEED_B + "rotatable c shown 1\nrotatable a shown 3\n")
    assert [level.letters()[i] for i in level.rotatable] == ["c", "a"]  # pieces' order
    assert level.shown_orientation == (1, 3)
    assert Level.parse(str(level)) == level
    assert Level.from_json(json.loads(json.dumps(level.to_json()))) == level
    assert level.to_json()["rotatable"] == ["c", "a"]
    puzzle = level.puzzle()
    assert len(puzzle.rotatable) == 2
    assert Puzzle.parse(str(puzzle)) == puzzle
    assert str(puzzle).count("rotatable") == 2
    assert Puzzle.from_json(json.loads(json.dumps(puzzle.to_json()))) == puzzle
    assert isinstance(puzzle.to_json()["rotatable"], list)
    # the solution checks out whichever way the two turned pieces were turned back
    assert Level.from_puzzle(puzzle, level.rows()) == level


def test_a_piece_rotatable_twice_is_refused():
    with pytest.raises(PuzzleError, match=r"line 5: a second rotatable line for piece 'c'"):
        Level.parse(SEED_B + "rotatable c shown 1\nrotatable c shown 0\n")
    with pytest.raises(PuzzleError, match=r"name a piece twice"):
        Puzzle(4, 2, (DOMINO, L_DOWN, L_UP), rotatable=(1, 1))
    with pytest.raises(PuzzleError, match=r"field 'rotatable': expected null, an index or a "
                                          r"list of indices"):
        Puzzle.from_json({"width": 4, "height": 2, "pieces": [[[0, 0], [1, 0]]] * 4,
                          "rotatable": [1, "x"]})
