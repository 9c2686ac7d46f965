"""Quantum tic-tac-toe against ../shared/specs/quantum.md: the test vectors V1-V12 of
§7, the rules and flags of §5, the documented decisions on the spec's open points,
notation, rendering, and a reference model written here from the spec (positions as
lists of moves; a collapse is whatever the measurement forces, found by brute force
over every way to put the unresolved marks in their squares) compared with the game
on seeded random games and on perft counts."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations

import pytest

import boardlab
from boardlab.core.game import perft
from boardlab.errors import IllegalMoveError, NotationError, OptionError

GAME = "quantum-tic-tac-toe"
X, O = 0, 1  # noqa: E741 (the players' names)
HALF = Fraction(1, 2)
X_WINS = (Fraction(1), Fraction(0))
O_WINS = (Fraction(0), Fraction(1))
DRAW = (HALF, HALF)


def load(**options):
    return boardlab.load(GAME, **options)


# A spec line such as "X1:4-9, O4:4-9 (X: →4), X5:2-3": placements, and collapses
# with the player §7 says chooses them.
SPEC_TOKEN = re.compile(r"([XO])\d:(\d-\d)|\(([XO]): (→\d)\)")


def play_spec(text: str, labels: bool = True, **options):
    """The state after the moves of a §7 vector, checking who moves and who chooses.

    With ``labels=False`` the placements are played without their labels (``4-9``),
    so the line also reads under per-player numbering."""
    state = load(**options).initial_state()
    for m in SPEC_TOKEN.finditer(text):
        player, squares, chooser, collapse = m.groups()
        if squares:
            assert state.to_move == "XO".index(player), f"{m.group(0)}: wrong side to move"
            state = state.play(m.group(0) if labels else squares)
        else:
            assert state.to_move == "XO".index(chooser), f"{chooser} should choose {collapse}"
            state = state.play(collapse)
    return state


def notations(state) -> set[str]:
    return {m.notation for m in state.legal_moves()}


def goff_mark(number: int) -> str:
    """Goff's name of move ``number``: X odd, O even."""
    return f"{'XO'[(number - 1) % 2]}{number}"


def board(state) -> dict[int, str]:
    """The classical marks of a goff-numbered state: square (1-9) -> move, e.g. 'X3'."""
    return {s + 1: goff_mark(n) for s, n in enumerate(state.classical) if n}


def squares_of(state, player: int) -> set[int]:
    return {s + 1 for s, n in enumerate(state.classical) if n and (n - 1) % 2 == player}


def after(state, collapse: str):
    """The state after the collapse ``collapse`` (``→s``)."""
    return state.play(collapse)


# --- §7 test vectors ------------------------------------------------------------------

def test_v1_empty_board_has_36_moves():
    state = load().initial_state()
    assert state.to_move == X
    assert notations(state) == {f"X1:{a}-{b}" for a, b in combinations(range(1, 10), 2)}
    assert len(state.legal_moves()) == 36


def test_v2_two_cycle_of_both_players():
    state = play_spec("X1:1-2, O2:1-2")
    assert state.pending and state.outcome() is None
    assert state.to_move == X
    assert notations(state) == {"→1", "→2"}
    assert board(after(state, "→1")) == {1: "O2", 2: "X1"}
    assert board(after(state, "→2")) == {1: "X1", 2: "O2"}


def test_v3_goff_figure_4():
    state = play_spec("X1:1-2, O2:2-5, X3:1-5")
    assert state.to_move == O and notations(state) == {"→1", "→5"}
    assert board(after(state, "→1")) == {1: "X3", 2: "X1", 5: "O2"}
    assert board(after(state, "→5")) == {1: "X1", 2: "O2", 5: "X3"}


def test_v4_stem_collapses_with_the_cycle():
    state = play_spec("X1:1-2, O2:2-5, X3:5-9, O4:1-5")
    assert state.to_move == X and notations(state) == {"→1", "→5"}
    five, one = after(state, "→5"), after(state, "→1")
    assert board(five) == {1: "X1", 2: "O2", 5: "O4", 9: "X3"}
    assert board(one) == {1: "O4", 2: "X1", 5: "O2", 9: "X3"}
    assert five.pairs == {} and one.pairs == {}


def test_v5_star():
    before = play_spec("X1:1-2, O2:1-3, X3:1-4, O4:1-5, X5:1-6, O6:1-7, X7:1-8, O8:1-9")
    assert not before.pending and before.outcome() is None and len(before.pairs) == 8
    state = before.play("X9:4-6")
    assert state.pending and state.to_move == O and notations(state) == {"→4", "→6"}
    for option in ("→4", "→6"):
        collapsed = after(state, option)
        assert squares_of(collapsed, X) == {1, 2, 4, 6, 8}
        # The spec lists O's line; O8 lands on 9 as well.
        assert squares_of(collapsed, O) == {3, 5, 7, 9}
        assert collapsed.outcome() == O_WINS


V6 = "X1:1-9, O2:1-4, X3:3-5, O4:5-6, X5:2-4, O6:4-6, X7:1-9"


def test_v6_the_choice_decides_and_a_same_player_cycle_waits():
    state = play_spec(V6)
    assert state.pending and state.to_move == O  # X's own 2-cycle: O chooses
    assert notations(state) == {"→1", "→9"}
    assert all(n == 0 for n in state.classical)
    one, nine = after(state, "→1"), after(state, "→9")
    for collapsed in (one, nine):
        assert squares_of(collapsed, X) == {1, 2, 3, 9}
        assert squares_of(collapsed, O) == {4, 5, 6}
    assert board(one)[1] == "X7" and board(nine)[9] == "X7"
    assert one.outcome() == (HALF, Fraction(1))  # X's row has X7, O's 4-5-6 only O6
    assert nine.outcome() == (Fraction(1), HALF)  # X's row tops at X5
    assert one.outcome()[O] > nine.outcome()[O]  # O must pick →1


@pytest.mark.parametrize("options, points", [
    ({}, (Fraction(1), HALF)),
    ({"scoring": "goff-points"}, (Fraction(1), HALF)),
    ({"scoring": "narrow"}, X_WINS),
    ({"scoring": "axiom"}, DRAW),
    ({"scoring": "complete"}, DRAW),
])
def test_v7_scorings_of_v6_with_x7_on_9(options, points):
    state = play_spec(V6, **options)
    assert after(state, "→9").outcome() == points


@pytest.mark.parametrize("options, points", [
    ({"numbering": "per-player", "scoring": "axiom"}, DRAW),  # X's 3rd move vs O's 3rd
    ({"preset": "axiom-qttt-2"}, DRAW),
    ({"preset": "dagaz"}, DRAW),  # Dagaz JS: simultaneous lines draw
    ({"preset": "axiom-losing-2"}, DRAW),
])
def test_v7_under_per_player_presets(options, points):
    state = play_spec(V6, labels=False, **options)
    assert state.to_move == O and notations(state) == {"→1", "→9"}
    assert after(state, "→9").outcome() == points


def test_v8_two_lines_sharing_the_latest_mark_score_two():
    state = play_spec("X1:6-8, O2:1-5, X3:2-8, O4:3-7, X5:2-3, O6:3-4, X7:4-9, "
                      "O8:4-9 (X: →9), X9:1-5")
    assert state.to_move == O and notations(state) == {"→1", "→5"}
    five, one = after(state, "→5"), after(state, "→1")
    assert {4, 5, 6, 2, 8} <= squares_of(five, X) and board(five)[5] == "X9"
    assert five.outcome() == (Fraction(2), Fraction(0))  # goff-points, the open point
    assert {3, 5, 7} <= squares_of(one, O)
    assert one.outcome() == O_WINS  # O picks this


def test_v9_one_and_a_half_points():
    state = play_spec("X1:4-9, O2:1-8, X3:6-7, O4:4-9 (X: →4), X5:2-3, O6:1-5, "
                      "X7:2-3 (O: →3), O8:1-7, X9:1-6")
    assert state.to_move == O and notations(state) == {"→1", "→6"}
    one, six = after(state, "→1"), after(state, "→6")
    assert {1, 2, 3, 6, 9} <= squares_of(one, X) and board(one)[1] == "X9"
    assert one.outcome() == (Fraction(3, 2), Fraction(0))
    assert {3, 6, 9} <= squares_of(six, X) and not {1, 2} <= squares_of(six, X)
    assert six.outcome() == X_WINS


V10 = ("X1:4-9, O2:6-8, X3:2-5, O4:2-9, X5:2-5 (O: →5), O6:6-8 (X: →8), X7:1-7, "
       "O8:1-7 (X: →1)")


def test_v10_last_square_takes_a_classical_ninth_move():
    state = play_spec(V10)
    assert [s + 1 for s in range(9) if not state.classical[s]] == [3]
    assert state.outcome() is None and state.to_move == X
    assert notations(state) == {"X9:3-3"}
    final = state.play("X9:3-3")
    assert board(final)[3] == "X9" and {3, 5, 7} <= squares_of(final, X)
    assert final.outcome() == X_WINS


@pytest.mark.parametrize("options", [
    {"last_square_classical": False},
    {"preset": "axiom-qttt-2"},
    {"preset": "axiom-losing-2"},
    {"preset": "dagaz"},
])
def test_v10_without_the_classical_ninth_move_it_is_a_draw(options):
    state = play_spec(V10, labels=False, **options)
    assert state.legal_moves() == []
    assert state.is_terminal() and state.outcome() == DRAW
    with pytest.raises(IllegalMoveError):
        state.play("3-3")


def test_v10_with_deterministic_moves_the_ninth_move_is_classical_anyway():
    state = play_spec(V10, labels=False, preset="axiom-qttt-1")
    assert notations(state) == {"X5:3-3"}  # per-player: X's fifth move
    assert state.play("3-3").outcome() == X_WINS


def test_v11_deterministic_move_pushes_the_spooky_marks_out():
    state = play_spec("X1:1-2", deterministic_moves=True)
    assert "O2:2-2" in notations(state)
    state = state.play("O2:2-2")
    assert board(state) == {1: "X1", 2: "O2"} and state.pairs == {}
    assert state.to_move == X and not state.pending


# Seven classical squares (X5 closes 4-9-2-5, X7 closes 1-6-8) and O8 joining the last
# two open squares; no move repeats a pair.
V12 = ("X1:4-9, O2:6-8, X3:2-5, O4:2-9, X5:4-5 (O: →5), O6:1-6, X7:1-8 (O: →1), "
       "O8:3-7")
V12_TEXT = "X1:4 O2:8 X3:2 O4:9 X5:5 O6:6 X7:1 O8:3-7"


def test_v12_no_duplicate_pair_leaves_x_without_a_move():
    state = play_spec(V12, duplicate_pair=False)
    assert sum(1 for n in state.classical if n) == 7
    assert state.pairs == {8: (2, 6)}
    assert str(state) == V12_TEXT
    assert state.to_move == X
    assert state.legal_moves() == [] and state.outcome() == DRAW
    parsed = load(duplicate_pair=False).parse_state(V12_TEXT)
    assert parsed == state and parsed.outcome() == DRAW
    with pytest.raises(IllegalMoveError):
        state.play("X9:3-7")


def test_v12_with_duplicate_pairs_the_ninth_move_closes_a_two_cycle():
    state = play_spec(V12)
    assert state.outcome() is None and notations(state) == {"X9:3-7"}
    state = state.play("X9:3-7")
    assert state.pending and state.to_move == O and notations(state) == {"→3", "→7"}


def test_v12_duplicate_ban_with_deterministic_moves_leaves_the_classical_moves():
    state = play_spec(V12, duplicate_pair=False, deterministic_moves=True)
    assert notations(state) == {"X9:3-3", "X9:7-7"}


# --- §5 rules -------------------------------------------------------------------------

def test_a_cycle_of_one_players_own_moves_is_never_collapsed_automatically():
    state = play_spec("X1:1-2, O2:5-6, X3:1-2")
    assert state.pending and state.to_move == O
    assert notations(state) == {"→1", "→2"}
    assert state.classical == [0] * 9 and set(state.pairs) == {1, 2, 3}
    with pytest.raises(IllegalMoveError, match="collapse"):
        state.play("O4:3-4")


def test_the_chooser_then_places_and_separate_entanglements_stay():
    state = play_spec("X1:1-2, O2:5-6, X3:1-2 (O: →1)")
    assert board(state) == {1: "X3", 2: "X1"}
    assert state.pairs == {2: (4, 5)}  # O2 is not entangled with the cycle
    assert state.to_move == O and not state.pending
    assert all(m.startswith("O4:") for m in notations(state))
    assert len(notations(state)) == 21  # pairs of the 7 open squares


def test_deterministic_move_collapses_a_tree_but_not_other_trees():
    state = play_spec("X1:1-2, O2:2-3, X3:4-5, O4:3-3", deterministic_moves=True)
    assert board(state) == {1: "X1", 2: "O2", 3: "O4"}
    assert state.pairs == {3: (3, 4)} and state.to_move == X


def test_deterministic_move_is_off_by_default():
    state = play_spec("X1:1-2")
    assert "O2:2-2" not in notations(state)
    with pytest.raises(IllegalMoveError, match="deterministic_moves"):
        state.play("2-2")


def test_misere_swaps_the_points():
    state = play_spec(V6, misere=True)
    assert after(state, "→1").outcome() == (Fraction(1), HALF)
    assert after(state, "→9").outcome() == (HALF, Fraction(1))
    star = play_spec("X1:1-2, O2:1-3, X3:1-4, O4:1-5, X5:1-6, O6:1-7, X7:1-8, O8:1-9, "
                     "X9:4-6 (O: →4)", misere=True)
    assert star.outcome() == X_WINS


def test_per_player_numbering_labels():
    game = load(numbering="per-player")
    state = game.initial_state()
    assert all(m.startswith("X1:") for m in notations(state))
    state = state.play("1-2")
    assert all(m.startswith("O1:") for m in notations(state))
    state = state.play("O1:3-4")
    assert all(m.startswith("X2:") for m in notations(state))
    state = state.play("X2:3-4")  # closes a cycle: O collapses as a move of its own
    assert state.to_move == O and notations(state) == {"→3", "→4"}
    state = state.play("→3")
    assert state.to_move == O and all(m.startswith("O2:") for m in notations(state))
    assert str(state) == "X1:1-2 O1:4 X2:3"
    assert game.parse_state("X1:1-2 O1:3-4") == game.initial_state().play_all(["1-2", "3-4"])


def test_goff_numbering_rejects_per_player_labels():
    state = load().initial_state().play("1-2")
    with pytest.raises(NotationError):
        state.play("O1:3-4")
    with pytest.raises(NotationError):
        load().parse_state("X1:1-2 O1:3-4")
    with pytest.raises(NotationError):
        load(numbering="per-player").parse_state("X1:1-2 O2:3-4")


PRESET_FLAGS = {
    "goff": dict(numbering="goff", scoring="goff-points", deterministic_moves=False,
                 duplicate_pair=True, last_square_classical=True, misere=False),
    "axiom-qttt-1": dict(numbering="per-player", scoring="axiom", deterministic_moves=True,
                         last_square_classical=False, misere=False),
    "axiom-qttt-2": dict(numbering="per-player", scoring="axiom", deterministic_moves=False,
                         last_square_classical=False, misere=False),
    "axiom-losing-1": dict(numbering="per-player", scoring="axiom", deterministic_moves=True,
                           last_square_classical=False, misere=True),
    "axiom-losing-2": dict(numbering="per-player", scoring="axiom", deterministic_moves=False,
                           last_square_classical=False, misere=True),
    "dagaz": dict(numbering="per-player", scoring="complete", deterministic_moves=False,
                  last_square_classical=False, misere=False),
}


@pytest.mark.parametrize("preset", sorted(PRESET_FLAGS))
def test_presets_set_the_flags(preset):
    options = load(preset=preset).options
    for key, value in PRESET_FLAGS[preset].items():
        assert options[key] == value, key


def test_defaults_are_goffs_rules():
    options = load().options
    for key, value in PRESET_FLAGS["goff"].items():
        assert options[key] == value, key


def test_explicit_options_override_a_preset():
    options = load(preset="axiom-qttt-2", deterministic_moves=True, scoring="narrow").options
    assert options["deterministic_moves"] is True and options["scoring"] == "narrow"
    assert options["numbering"] == "per-player"  # the rest still from the preset
    assert load(preset="dagaz", misere=True).options["misere"] is True


def test_unknown_preset_is_an_option_error():
    with pytest.raises(OptionError):
        load(preset="yonge-mallo-9")
    with pytest.raises(OptionError):
        load(scoring="sometimes")


# --- the open points, as the module decides them ------------------------------------

def test_rules_text_records_the_open_point_decisions():
    rules = " ".join(load().rules.split())
    assert "sharing the latest mark" in rules and "score 1 each" in rules
    assert "no legal move" in rules and "it is a draw" in rules
    assert "stalemate" in rules


def test_lines_sharing_the_smallest_subscript_score_one_each():
    state = play_spec("X1:6-8, O2:1-5, X3:2-8, O4:3-7, X5:2-3, O6:3-4, X7:4-9, "
                      "O8:4-9 (X: →9), X9:1-5 (O: →5)")
    assert state.outcome() == (Fraction(2), Fraction(0))
    # Other scorings: one player has lines, so X wins outright.
    for scoring in ("narrow", "complete", "axiom"):
        again = play_spec("X1:6-8, O2:1-5, X3:2-8, O4:3-7, X5:2-3, O6:3-4, X7:4-9, "
                          "O8:4-9 (X: →9), X9:1-5 (O: →5)", scoring=scoring)
        assert again.outcome() == X_WINS, scoring


# --- notation ---------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["1-2", "2-1", "X1:1-2", "X1:2-1", "x1:1-2", " X1 : 1 - 2 "])
def test_placement_notation(text):
    assert load().initial_state().parse_move(text).notation == "X1:1-2"


@pytest.mark.parametrize("text", ["→1", ">1", "->1", "-> 1", " > 1"])
def test_collapse_notation(text):
    state = play_spec("X1:1-2, O2:1-2")
    assert state.parse_move(text).notation == "→1"
    assert board(state.play(text)) == {1: "O2", 2: "X1"}


@pytest.mark.parametrize("text", ["", "1", "1-", "0-1", "1-10", "a-b", "X1:", "Z1:1-2",
                                  "X10:1-2", "=>1", "→0", "→", "1-2-3", "pass"])
def test_bad_notation(text):
    with pytest.raises(NotationError):
        load().initial_state().parse_move(text)


def test_bad_notation_during_a_collapse():
    state = play_spec("X1:1-2, O2:1-2")
    for text in ("→", "→10", "x", ""):
        with pytest.raises(NotationError):
            state.parse_move(text)


def test_illegal_moves_say_why():
    start = load().initial_state()
    with pytest.raises(IllegalMoveError, match="X1"):
        start.play("X3:1-2")  # wrong move number
    with pytest.raises(IllegalMoveError, match="cycle"):
        start.play("→1")  # nothing to collapse
    with pytest.raises(IllegalMoveError, match="deterministic_moves"):
        start.play("1-1")
    cycle = play_spec("X1:1-2, O2:1-2")
    with pytest.raises(IllegalMoveError, match="collapse"):
        cycle.play("3-4")  # pending collapse
    with pytest.raises(IllegalMoveError, match="collapse"):
        cycle.play("X3:3-4")
    with pytest.raises(IllegalMoveError) as wrong_square:
        cycle.play("→3")
    assert "1" in wrong_square.value.reason and "2" in wrong_square.value.reason
    collapsed = cycle.play("→1")
    with pytest.raises(IllegalMoveError, match="classical") as classical:
        collapsed.play("X3:1-3")
    assert "1" in classical.value.reason
    no_duplicates = play_spec("X1:1-2", duplicate_pair=False)
    for text in ("O2:1-2", "2-1"):
        with pytest.raises(IllegalMoveError, match="duplicate_pair"):
            no_duplicates.play(text)
    over = play_spec(V10).play("X9:3-3")
    with pytest.raises(IllegalMoveError, match="over"):
        over.play("1-2")


def test_play_all_reports_the_index_of_the_illegal_move():
    with pytest.raises(IllegalMoveError) as error:
        load().initial_state().play_all(["1-2", "1-2", "3-4"])
    assert error.value.index == 3


@pytest.mark.parametrize("text", ["X1:1-2 O2:1-2 X3:3-4",  # an old cycle left open
                                  "X1:1 O2:1",  # two marks in one square
                                  "X1:1-1", "O2:1-2", "X1:1-2 O2:1", "X1:1-2 X3:3-4",
                                  "X1:1-2 O2:2-3 X3:1-3 O4:4-5 X5:4-5", "X1:0-1", "junk"])
def test_bad_positions(text):
    with pytest.raises(NotationError):
        load().parse_state(text)


def test_text_form_of_the_empty_board_and_a_pending_cycle():
    game = load()
    assert str(game.initial_state()) == "-" and game.parse_state("-") == game.initial_state()
    state = play_spec("X1:1-2, O2:2-5, X3:1-5")
    assert str(state) == "X1:1-2 O2:2-5 X3:1-5"
    parsed = game.parse_state(str(state))
    assert parsed == state and parsed.pending and parsed.to_move == O
    assert str(after(state, "→5")) == "X1:1 O2:2 X3:5"


# --- render -----------------------------------------------------------------------------

def test_render_shows_spooky_marks_and_the_pending_choice():
    state = play_spec("X1:1-2, O2:2-5, X3:1-5")
    text = state.render()
    for spooky in ("x₁", "o₂", "x₃"):
        assert spooky in text
    assert "→1 or →5" in text
    collapsed = after(state, "→1").render()
    for classical in ("[X3]", "[X1]", "[O2]"):
        assert classical in collapsed
    assert "→1 or →5" not in collapsed and "x₁" not in collapsed


def test_render_uses_per_player_subscripts():
    state = load(numbering="per-player").initial_state().play_all(["1-2", "2-3"])
    assert "x₁" in state.render() and "o₁" in state.render()


# --- a reference model from the spec ----------------------------------------------------
# Squares are 1-9 here, as in the spec; the game counts from 0.

SPEC_LINES = ((1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 5, 9),
              (3, 5, 7))


@dataclass(frozen=True)
class Rules:
    numbering: str = "goff"
    scoring: str = "goff-points"
    deterministic_moves: bool = False
    duplicate_pair: bool = True
    last_square_classical: bool = True
    misere: bool = False


@dataclass(frozen=True)
class Position:
    """Every move made (move n = ``moves[n - 1]``, its two squares; a == b for a
    classical move), where each resolved move's mark is, and whether the latest move
    closed a cycle that waits for its collapse."""

    rules: Rules
    moves: tuple[tuple[int, int], ...] = ()
    landed: tuple[tuple[int, int], ...] = ()
    pending: bool = False

    def where(self) -> dict[int, int]:
        return dict(self.landed)

    def unresolved(self) -> dict[int, tuple[int, int]]:
        where = self.where()
        return {n: pair for n, pair in enumerate(self.moves, start=1) if n not in where}

    def open_squares(self) -> list[int]:
        taken = set(self.where().values())
        return [s for s in range(1, 10) if s not in taken]


def side(number: int) -> int:
    return (number - 1) % 2


def ref_label(rules: Rules, number: int) -> str:
    shown = number if rules.numbering == "goff" else (number + 1) // 2
    return f"{'XO'[side(number)]}{shown}"


def fits(pos: Position, fixed: dict[int, int]) -> list[dict[int, int]]:
    """Every way to put each unresolved mark in one of its squares, no two in one square
    and none on a classical mark, agreeing with ``fixed``."""
    taken = set(pos.where().values())
    todo = sorted(pos.unresolved().items())
    found: list[dict[int, int]] = []
    chosen: dict[int, int] = {}

    def go(i: int) -> None:
        if i == len(todo):
            found.append(dict(chosen))
            return
        n, pair = todo[i]
        for s in sorted({fixed[n]} if n in fixed else set(pair)):
            if s not in taken and s not in chosen.values():
                chosen[n] = s
                go(i + 1)
                del chosen[n]

    go(0)
    return found


def measure(pos: Position, number: int, square: int) -> Position:
    """Move ``number``'s mark is seen in ``square``: every mark whose square that forces
    becomes classical."""
    ways = fits(pos, {number: square})
    assert ways, "a measurement must be consistent"
    forced = {n: s for n, s in ways[0].items() if all(w[n] == s for w in ways)}
    return replace(pos, landed=tuple(sorted(pos.landed + tuple(forced.items()))),
                   pending=False)


def closes_cycle(pos: Position, a: int, b: int) -> bool:
    """A new move on a and b closes a cycle iff the marks already there leave a or b
    occupied however they are put down (a and b lie in one entangled tree)."""
    return not any(a not in w.values() and b not in w.values() for w in fits(pos, {}))


def placements(pos: Position) -> list[tuple[int, int]]:
    rules = pos.rules
    if len(pos.moves) >= 9:
        return []
    free = pos.open_squares()
    if len(free) == 1:
        lone = rules.last_square_classical or rules.deterministic_moves
        return [(free[0], free[0])] if lone else []
    taken = set(pos.unresolved().values())
    out = [(a, b) for a, b in combinations(free, 2)
           if rules.duplicate_pair or (a, b) not in taken]
    if rules.deterministic_moves:
        out += [(s, s) for s in free]
    return out


def ref_lines(pos: Position) -> list[tuple[int, int, int]]:
    """Completed lines: (player, written subscript, per-player subscript)."""
    in_square = {s: n for n, s in pos.where().items()}
    found = []
    for line in SPEC_LINES:
        numbers = [in_square.get(s) for s in line]
        if None in numbers or len({side(n) for n in numbers}) != 1:
            continue
        top = max(numbers)
        per_player = (top + 1) // 2
        found.append((side(top), top if pos.rules.numbering == "goff" else per_player,
                      per_player))
    return found


def score(lines: list[tuple[int, int, int]], scoring: str) -> tuple[Fraction, Fraction]:
    if scoring == "goff-points":
        earliest = min(sub for _, sub, _ in lines)
        points = [Fraction(0), Fraction(0)]
        for p, sub, _ in lines:
            points[p] += Fraction(1) if sub == earliest else HALF
        return (points[0], points[1])
    players = {p for p, _, _ in lines}
    if players == {X}:
        return X_WINS
    if players == {O}:
        return O_WINS
    if scoring == "complete":
        return DRAW
    which = 2 if scoring == "axiom" else 1
    x_best = min(line[which] for line in lines if line[0] == X)
    o_best = min(line[which] for line in lines if line[0] == O)
    return X_WINS if x_best < o_best else O_WINS if o_best < x_best else DRAW


def ref_outcome(pos: Position):
    lines = ref_lines(pos)
    if lines:
        points = score(lines, pos.rules.scoring)
    elif pos.pending or placements(pos):
        return None
    else:
        points = DRAW
    return (points[1], points[0]) if pos.rules.misere else points


def ref_to_move(pos: Position) -> int:
    made = len(pos.moves)
    return 1 - side(made) if pos.pending else side(made + 1)


def ref_legal(pos: Position) -> set[str]:
    if ref_outcome(pos) is not None:
        return set()
    if pos.pending:
        a, b = pos.moves[-1]
        return {f"→{a}", f"→{b}"}
    label = ref_label(pos.rules, len(pos.moves) + 1)
    return {f"{label}:{a}-{b}" for a, b in placements(pos)}


def ref_play(pos: Position, notation: str) -> Position:
    if notation.startswith("→"):
        return measure(pos, len(pos.moves), int(notation[1:]))
    a, b = (int(s) for s in notation.split(":")[1].split("-"))
    grown = replace(pos, moves=pos.moves + ((a, b),))
    if a == b:
        return measure(grown, len(grown.moves), a)
    return replace(grown, pending=closes_cycle(pos, a, b))


def ref_text(pos: Position) -> str:
    where = pos.where()
    tokens = [f"{ref_label(pos.rules, n)}:{where[n]}" if n in where
              else f"{ref_label(pos.rules, n)}:{a}-{b}"
              for n, (a, b) in enumerate(pos.moves, start=1)]
    return " ".join(tokens) or "-"


def ref_perft(pos: Position, depth: int) -> list[int]:
    counts = [0] * depth

    def walk(here: Position, level: int) -> None:
        moves = ref_legal(here)
        counts[level] += len(moves)
        if level + 1 < depth:
            for move in moves:
                walk(ref_play(here, move), level + 1)

    walk(pos, 0)
    return counts


def test_reference_model_agrees_with_the_spec_vectors():
    pos = Position(Rules())
    for move in ["X1:1-2", "O2:2-5", "X3:1-5"]:
        pos = ref_play(pos, move)
    assert pos.pending and ref_to_move(pos) == O and ref_legal(pos) == {"→1", "→5"}
    assert measure(pos, 3, 1).where() == {3: 1, 1: 2, 2: 5}
    pos = Position(Rules())
    for move in ["X1:1-9", "O2:1-4", "X3:3-5", "O4:5-6", "X5:2-4", "O6:4-6", "X7:1-9"]:
        pos = ref_play(pos, move)
    assert ref_outcome(ref_play(pos, "→1")) == (HALF, Fraction(1))
    assert ref_outcome(ref_play(pos, "→9")) == (Fraction(1), HALF)


def test_perft_against_the_reference_model():
    counts = perft(load().initial_state(), 3)
    assert counts == ref_perft(Position(Rules()), 3)
    # By hand: 36 pairs; O may repeat X1's pair (a 2-cycle: 2 collapses) or not.
    assert counts == [36, 36 * 36, 36 * (35 * 36 + 2)]


RANDOM_SETS = {
    "goff": ({}, Rules()),
    "axiom-qttt-1": ({"preset": "axiom-qttt-1"},
                     Rules("per-player", "axiom", deterministic_moves=True,
                           last_square_classical=False)),
    "dagaz": ({"preset": "dagaz"}, Rules("per-player", "complete",
                                         last_square_classical=False)),
    "misere": ({"misere": True}, Rules(misere=True)),
    "narrow-no-duplicates": ({"scoring": "narrow", "duplicate_pair": False,
                              "deterministic_moves": True},
                             Rules(scoring="narrow", duplicate_pair=False,
                                   deterministic_moves=True)),
}
GAMES = 300


def game_pairs(state) -> dict[int, tuple[int, int]]:
    return {n: (a + 1, b + 1) for n, (a, b) in state.pairs.items()}


def ref_pairs(pos: Position) -> dict[int, tuple[int, int]]:
    return {n: (min(p), max(p)) for n, p in pos.unresolved().items()}


def game_where(state) -> dict[int, int]:
    return {n: s + 1 for s, n in enumerate(state.classical) if n}


@pytest.mark.parametrize("name", sorted(RANDOM_SETS))
def test_random_games_against_the_reference_model(name):
    options, rules = RANDOM_SETS[name]
    game = load(**options)
    rng = random.Random(f"quantum-tic-tac-toe {name}")
    seen = {"collapse": 0, "outcomes": set(), "classical move": 0}
    for _ in range(GAMES):
        state, pos = game.initial_state(), Position(rules)
        history = []
        while True:
            where = f"{name}: {state}"
            assert notations(state) == ref_legal(pos), where
            assert state.outcome() == ref_outcome(pos), where
            assert state.pending == pos.pending, where
            assert game_where(state) == pos.where(), where
            assert game_pairs(state) == ref_pairs(pos), where
            assert str(state) == ref_text(pos), where
            parsed = game.parse_state(str(state))
            assert parsed == state and parsed.key() == state.key(), where
            assert notations(parsed) == notations(state), where
            if state.is_terminal():
                seen["outcomes"].add(state.outcome())
                break
            assert state.to_move == ref_to_move(pos), where
            move = rng.choice(state.legal_moves())
            if move.notation.startswith("→"):
                seen["collapse"] += 1
            elif len(set(move.notation.split(":")[1].split("-"))) == 1:
                seen["classical move"] += 1
            history.append(str(state))
            state.apply(move)
            pos = ref_play(pos, move.notation)
        for text in reversed(history):
            state.undo()
            assert str(state) == text
    assert seen["collapse"] > GAMES // 2
    assert len(seen["outcomes"]) >= 3, seen["outcomes"]
    if rules.deterministic_moves or rules.last_square_classical:
        assert seen["classical move"] > 0
