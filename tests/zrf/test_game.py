"""ZRF games played: perft of imported files against published counts and against
boardlab's hand-written twins, and a sample of the corpus playing random games."""

from __future__ import annotations

import random
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

import boardlab
from boardlab.core.conformance import check_random_game
from boardlab.core.engine import Engine
from boardlab.core.game import perft
from boardlab.errors import ZrfError
from boardlab.zrf.game import load_game

CORPUS = Path(__file__).resolve().parents[1] / "data" / "zrf"


def game(path: str, **options):
    return load_game(CORPUS / path, name=path, **options)


def test_breakthrough_equals_the_hand_written_game():
    imported = game("breakthrough/breakthrough.zrf")
    assert perft(imported.initial_state(), 3) == \
        perft(boardlab.load("breakthrough").initial_state(), 3) == [22, 484, 11132]


def test_international_and_brazilian_draughts_perft_is_published():
    # Rein Halbersma's and Aart Bik's perft (majority capture, flying kings, captured
    # pieces removed when the capture ends): 10x10 9, 81, 658, 4265, 27117, 167140, ...;
    # 8x8 Brazilian 7, 49, 302, 1469, 7473, 37628, 187302. Depth 7 of both agrees too
    # (benchmarks, 15 s and 71 s).
    path = "checkers/international-checkers.zrf"
    assert perft(game(path, variant=0).initial_state(), 5) == [9, 81, 658, 4265, 27117]
    assert perft(game(path, variant=1).initial_state(), 6) == \
        [7, 49, 302, 1469, 7473, 37628]


def test_a_flying_king_cannot_pass_a_piece_it_took_twice():
    # The Turkish strike rule: pieces taken during a capture leave the board only at its
    # end, so b8, taken first, still blocks the king's way back along a9-g3.
    g = game("checkers/international-checkers.zrf", variant=0)
    state = g.parse_state(
        "a7=White.King,e3=Black.Man,f4=Black.Man,h4=Black.Man,f8=Black.Man,b8=Black.Man "
        "White")
    assert sorted(m.notation for m in state.legal_moves()) == [
        "a7-d10-i5-f2-a7 xb8 xf8 xh4 xe3", "a7-d10-i5-f2-b6 xb8 xf8 xh4 xe3",
        "a7-d10-i5-f2-c5 xb8 xf8 xh4 xe3", "a7-d10-i5-f2-d4 xb8 xf8 xh4 xe3",
        "a7-d10-i5-g3-c7 xb8 xf8 xh4 xf4", "a7-d10-i5-g3-d6 xb8 xf8 xh4 xf4",
        "a7-d10-i5-g3-e5 xb8 xf8 xh4 xf4"]
    # Each captured piece counts once: every one of these moves takes four, and the
    # majority rule keeps them all.
    after = state.play("a7-d10-i5-f2-a7 xb8 xf8 xh4 xe3")
    assert str(after).startswith("a7=White.King,f4=Black.Man ")


@pytest.mark.slow  # stavropol-checkers.zrf's kernel, used by no other test: 35 s to compile
def test_a_piece_taken_in_a_chain_is_not_taken_again():
    # stavropol-checkers.zrf recognises a man to jump by its type ((piece? BlackMan)),
    # which a piece already taken (deferred captures) keeps: the chain must still not
    # jump it again. Before, c3 went back and forth over d4 (c3-e5-c3-e5 xd4 xd4 xd4),
    # and a full board grew chains without end.
    g = game("checkers/stavropol-checkers.zrf")
    state = g.parse_state("c3=White.WhiteMan,d4=Black.BlackMan,f6=Black.BlackMan,"
                          "h8=Black.BlackMan White")
    # Shared pieces: White may also move Black's man, which takes c3.
    assert sorted(m.notation for m in state.legal_moves()) == ["c3-e5-g7 xd4 xf6",
                                                                "d4-b2 xc3"]


def test_chains_past_the_bound_are_an_error_not_a_hang():
    import dataclasses

    from boardlab.errors import RulesError

    text = ("a7=White.King,e3=Black.Man,f4=Black.Man,h4=Black.Man,f8=Black.Man,"
            "b8=Black.Man White")
    # The position above explores 25 partial steps for its 7 moves: a bound of 24 stops
    # it with a clear error, 25 lets it through (the bound is the game's when its first
    # position is made, a kernel's as the interpreter's).
    for bound, error in ((24, True), (25, False)):
        g = game("checkers/international-checkers.zrf", variant=0)
        g.move_rules = dataclasses.replace(g.move_rules, max_chains=bound)
        state = g.parse_state(text)
        if error:
            with pytest.raises(RulesError, match="more than 24 steps"):
                state.legal_moves()
        else:
            assert len(state.legal_moves()) == 7


def test_chess_perft_is_published():
    # The file's king safety comes from its checkmated goal; castling and promotion do
    # not differ from chess this shallow.
    assert perft(game("chess/chess.zrf").initial_state(), 3) == [20, 400, 8902]


EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "zrf"


def test_reversi_written_in_zrf_has_the_published_perft():
    # The corpus's reversi.zrf leaves flanking and flipping to Dagaz's JavaScript;
    # examples/zrf/reversi.zrf states every rule, and its perft is Othello's.
    reversi = load_game(EXAMPLES / "reversi.zrf", name="reversi.zrf")
    assert perft(reversi.initial_state(), 6) == \
        list(boardlab.load("othello").known_perft[:6]) == [4, 12, 56, 244, 1396, 8200]


def test_reversi_passes_only_while_the_opponent_can_move():
    reversi = load_game(EXAMPLES / "reversi.zrf", name="reversi.zrf")
    # Black has no drop (no White disc to flank next to an empty cell Black can use)...
    only_white = reversi.parse_state("a1=White.Disc,b1=Black.Disc White")
    assert [m.notation for m in only_white.legal_moves()] == ["Disc@c1 b1=Disc"]
    stuck = reversi.parse_state("a1=Black.Disc,b1=Black.Disc White")
    # ... and neither side can move: no pass, the game is over, the most discs win.
    assert stuck.legal_moves() == [] and stuck.outcome() == (1, 0)
    must_pass = reversi.parse_state("a1=White.Disc,b1=Black.Disc,c1=Black.Disc Black")
    assert [m.notation for m in must_pass.legal_moves()] == ["pass"]


def test_moves_read_like_the_file():
    registered = boardlab.names()
    state = game("chess/chess.zrf").initial_state()
    notations = [m.notation for m in state.legal_moves()]
    assert "e2-e4" in notations and "g1-f3" in notations
    state = state.play_all(["e2-e4", "d7-d5"])
    assert "e4xd5" in [m.notation for m in state.legal_moves()]
    # An imported game is not registered: the registry's names are as they were.
    assert boardlab.names() == registered and "chess" not in registered


def test_text_form_round_trips():
    g = game("checkers/english-checkers.zrf")
    state = g.initial_state()
    rng = random.Random(3)
    for _ in range(30):
        assert g.parse_state(str(state)) == state
        moves = state.legal_moves()
        if not moves:
            break
        state = state.play(moves[rng.randrange(len(moves))])


#: The corpus's files boardlab refuses, each with the place and reason (their own
#: mistakes: a typo, a position or direction never defined, a macro given too few
#: arguments, a library with no game): any other refusal fails.
REFUSED = {
    "breakthrough/terrace.zrf": "197:38: no position 'cd' on the board",
    "chess/cubic-chess.zrf": "1258:138: no direction 'sn' on the board",
    "chess/evoluchess.zrf": "67:3: unsupported ZRF instruction 'varify'",
    "chess/sovereign-chess.zrf": "152:21: unsupported ZRF instruction 's-zone'",
    "mancala/kalah.zrf": "85:36: board-setup puts Seed on 'g1', which is not a position",
    "mancala/ohojichi.zrf": "2:21: macro 'step' uses $2 but was given 1 argument at line "
                           "69, column 9",
    "races/traverse.zrf": "78:48: no direction 'nx' on the board",
    "shogi-family/ikusa-shogi.zrf": "263:20: board-setup puts Lance on 'y1', which is not "
                                    "a position",
    "sliding-puzzles/common.zrf": "1:1: no (game ...) in this file",
}


def test_the_corpus_loads_but_its_faulty_files():
    refused = {}
    for path in sorted(CORPUS.rglob("*.zrf")):
        name = str(path.relative_to(CORPUS))
        try:
            load_game(path, name=name)
        except ZrfError as e:
            refused[name] = str(e)
    assert sorted(refused) == sorted(REFUSED)
    for name, reason in refused.items():
        assert reason.startswith(f"{name}:{REFUSED[name]}"), reason


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(
    str(p.relative_to(CORPUS)) for p in CORPUS.glob("*/*.zrf"))[::23])
def test_a_sample_of_the_corpus_plays(path):
    assert path not in REFUSED, "the sample is of files that load"
    g = game(path, max_moves=60)
    # The conformance suite's invariants at every position, as for built-in games.
    rng = random.Random(path)
    for _ in range(2):
        check_random_game(g, rng)


GOOD = """(define step ($1 (verify empty?) add))
(game (title "Tiny")
 (players A B)
 (board (grid (dimensions ("a/b/c" (1 0)) ("3/2/1" (0 1)))
              (directions (n 0 -1) (s 0 1)))
        (zone (name goal) (players A) (positions a3 b3 c3))
        (zone (name goal) (players B) (positions a1 b1 c1)))
 (piece (name P) (moves (step n) (step s)))
 (board-setup (A (P a1)) (B (P c3)))
 (win-condition (A B) (absolute-config P (goal))))
"""


@pytest.mark.parametrize(("change", "message"), [
    (lambda t: t.replace("(step s)))", "(step s))"), "unbalanced parenthesis"),
    (lambda t: t.replace("(step n)", "(step n q)").replace("$1 (verify", "$1 $3 (verify"),
     "tiny.zrf:1:18: macro 'step' uses $3 but was given 2 arguments at line 8, column 25"),
    (lambda t: t.replace("(verify empty?)", "(verify (piece? Q))"),
     "tiny.zrf:1:34: no piece 'Q' (pieces: P) (in a macro used at line 8, column 25)"),
    (lambda t: t.replace("(step s)", "(step sw)"), "tiny.zrf:8:40: unsupported ZRF instruction "
     "'sw' (not a command, direction or position)"),
    (lambda t: t.replace("(verify empty?)", "(verify (in-zone? nowhere))"),
     "tiny.zrf:1:36: no zone 'nowhere' (zones: goal) (in a macro used at line 8, column 25)"),
    (lambda t: t.replace("(A (P a1))", "(A (P d9))"),
     "tiny.zrf:9:21: board-setup puts P on 'd9', which is not a position of the board"),
    (lambda t: t.replace("(players A B)", "(players A B)\n (wobble 3)"),
     "tiny.zrf:4:2: unsupported game statement 'wobble'"),
])
def test_bad_files_name_file_line_and_column(tmp_path, change, message):
    path = tmp_path / "tiny.zrf"
    path.write_text(GOOD)
    # A a1-a2, B c3-c2, then A a2-a3 (a win: no move follows) or a2-a1, and B's two.
    assert perft(load_game(path, name="tiny.zrf").initial_state(), 4) == [1, 1, 2, 2]
    path.write_text(change(GOOD))
    with pytest.raises(ZrfError) as error:
        load_game(path, name="tiny.zrf")
    assert message in str(error.value)


def test_a_bad_file_is_one_line_at_the_command_line(tmp_path):
    from typer.testing import CliRunner

    from boardlab.cli.main import app

    path = tmp_path / "tiny.zrf"
    path.write_text(GOOD.replace("(verify empty?)", "(verify (piece? Q))"))
    result = CliRunner().invoke(app, ["perft", str(path), "2"])
    assert result.exit_code == 2
    assert result.stderr == (f"error: {path}:1:34: no piece 'Q' (pieces: P) (in a macro used "
                             "at line 8, column 25)\n")


def test_the_generic_evaluation_counts_material_and_mobility():
    g = game("chess/chess.zrf")
    start = g.initial_state()
    assert g.evaluate(start, 0) == g.evaluate(start, 1) == 0.0
    # Equal material; e4 frees the queen and a bishop: White's 30 moves against 19.
    opened = start.play_all(["e2-e4", "a7-a6"])
    assert g.evaluate(opened, 0) == pytest.approx(0.3 * (30 - 19) / (30 + 19))
    assert g.evaluate(opened, 1) == -g.evaluate(opened, 0)
    # A pawn up: material 16 against 15 counts 0.7 of the value.
    up = opened.play_all(["d2-d4", "b7-b5", "f1xb5"])
    assert g.evaluate(up, 0) > 0.7 * (16 - 15) / 31


def test_bots_beat_random_play_on_imported_games():
    from boardlab.ai.arena import arena
    from boardlab.ai.bots import make_bot

    g = game("breakthrough/breakthrough.zrf", max_moves=200)
    result = arena(g, make_bot("alphabeta", depth=2), make_bot("random", seed=2), 2)
    assert (result.wins, result.draws, result.losses) == (2, 0, 0)
    g = load_game(EXAMPLES / "tic-tac-toe.zrf", name="tic-tac-toe.zrf")
    result = arena(g, make_bot("mcts", iterations=300, seed=1), make_bot("random", seed=2), 6)
    assert result.losses == 0 and result.wins >= 4


GUARDS = """(define step ($1 (verify not-friend?) add))
(game (title "Guards")
 (players A B)
 (board (grid (dimensions ("a/b/c" (1 0)) ("3/2/1" (0 1)))
              (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))
 (piece (name Guard) (moves (step n) (step s) (step e) (step w)))
 (piece (name Probe) (moves ((verify defended?) n (verify empty?) add)
                            (n (verify enemy?) (verify attacked?) add)))
 (board-setup (A (Probe a1))))
"""


@pytest.mark.parametrize(("position", "moves"), [
    # defended? on the mover's own piece: could another of its pieces take back there?
    ("a1=A.Probe,b1=A.Guard", {"a1-a2"}),
    ("a1=A.Probe,c1=A.Guard", set()),
    # attacked? on another player's piece: could its side take back there?
    ("a1=A.Probe,a2=B.Guard,b2=B.Guard", {"a1xa2"}),
    ("a1=A.Probe,a2=B.Guard,c3=B.Guard", set()),
])
def test_defended_and_attacked_on_a_piece_mean_taking_back(tmp_path, position, moves):
    # No move takes its own side's piece, so on an occupied cell the tests ask whether
    # that piece's side could take back (shogi.zrf needs it: a King may not take a
    # protected piece, so a cell holding one is no escape).
    assert _moves_from_a1(tmp_path, GUARDS, position) == moves


def _moves_from_a1(tmp_path, rules: str, position: str) -> set[str]:
    """The notations of A's moves from a1 in ``position`` of the game ``rules``."""
    path = tmp_path / "game.zrf"
    path.write_text(rules)
    state = load_game(path, name="game.zrf").parse_state(f"{position} A")
    return {m.notation for m in state.legal_moves() if m.notation.startswith("a1")}


PAWNS = """(game (title "Pawns")
 (players A B)
 (board (grid (dimensions ("a/b/c" (1 0)) ("3/2/1" (0 1)))
              (directions (n 0 -1) (s 0 1) (se 1 1) (sw -1 1))))
 (piece (name Pawn) (moves (s (verify empty?) add) (se (verify enemy?) add)
                           (sw (verify enemy?) add)))
 (piece (name Probe) (moves (n (verify not-attacked?) add)))
 (piece (name Scout) (moves (n (verify defended?) add)))
 (board-setup (A (Probe a1))))
"""


@pytest.mark.parametrize(("position", "moves"), [
    # attacked? on an empty cell: a piece of the mover's standing there could be taken.
    ("a1=A.Probe,b3=B.Pawn", set()),
    ("a1=A.Probe,a3=B.Pawn", {"a1-a2"}),
    # defended? on an empty cell: the mover's side could take a piece standing there.
    ("a1=A.Scout,b3=A.Pawn", {"a1-a2"}),
    ("a1=A.Scout,a3=A.Pawn", set()),
])
def test_attacked_and_defended_on_an_empty_cell_mean_taking_there(tmp_path, position, moves):
    # Zillions' attacked? marks a cell where a King moving there would stand in check, so
    # a Pawn attacks the cells it takes on, not the one it steps to (chess castling may
    # not cross a cell a Pawn attacks).
    assert _moves_from_a1(tmp_path, PAWNS, position) == moves


FALLING = """(game (title "Falling")
 (players A B)
 (board (grid (dimensions ("a/b/c" (1 0)) ("3/2/1" (0 1))) (directions (s 0 1)))
        (zone (name top) (players A B) (positions a3 b3 c3)))
 (piece (name Disc) (drops (top (verify empty?) (while (empty? s) s) add)))
 (piece (name Cap) (drops (b3 (verify empty?) add))))
"""


def test_a_drop_block_starting_with_a_zone_runs_from_its_cells(tmp_path):
    # Zillions: a drop block that starts with a zone runs only from the zone's cells (one
    # that starts with a position, only from there); a Disc falls down its column.
    path = tmp_path / "falling.zrf"
    path.write_text(FALLING)
    state = load_game(path, name="falling.zrf").parse_state("b1=A.Disc A")
    assert sorted(m.notation for m in state.legal_moves()) == \
        ["Cap@b3", "Disc@a1", "Disc@b2", "Disc@c1"]


def test_a_position_read_back_keeps_the_repetitions_it_came_from(tmp_path):
    # gonu.zrf: a player who repeats a position for the third time loses. Its text form
    # carries a digest of every earlier position, so a copy, a position read back, and
    # one read by the same file loaded under another name all end, and go on, alike.
    moves = ["e5-e4", "b1-b2", "e4-e5", "b2-b1"]
    g = game("elimination/gonu.zrf")
    twice = g.initial_state().play_all(moves)
    assert twice.outcome() is None and " seen:" in str(twice)
    thrice = twice.play_all(moves)
    assert thrice.outcome() == (1, 0)          # White's b2-b1 made the third occurrence
    assert g.parse_state(str(thrice)).outcome() == thrice.outcome() == \
        thrice.clone().outcome()
    shutil.copy(CORPUS / "elimination" / "gonu.zrf", tmp_path / "renamed.zrf")
    other = load_game(tmp_path / "renamed.zrf", name="renamed.zrf")
    assert other.parse_state(str(twice)).play_all(moves).outcome() == (1, 0)
    assert g.parse_state(str(twice)).play_all(moves[:2]).outcome() is None
    with pytest.raises(boardlab.errors.NotationError, match="16 hex"):
        g.parse_state(str(twice).replace("seen:", "seen:xyz,"))


@pytest.mark.slow  # genesis-chess.zrf's kernel, used by no other test: 60 s to compile
def test_a_king_dropped_where_it_is_attacked_is_no_move():
    # genesis-chess.zrf: White starts with its pieces in hand and a checkmated goal, so
    # the King may not come down on the sixth rank, where Black's pawns take it.
    state = game("chess/genesis-chess.zrf").initial_state()
    plain = game("chess/genesis-chess.zrf").using(Engine.INTERPRETER).initial_state()
    for position in (state, plain):
        drops = {m.notation for m in position.legal_moves()}
        assert len(drops) == 40 and "King@e5" in drops and "King@e6" not in drops


TAKE = """(game (title "Take")
 (players A B)
 (turn-order A B)
 (board (grid (dimensions ("a/b/c/d" (1 0)) ("1" (0 1))) (directions (e 1 0) (w -1 0))))
 (piece (name King) (moves (e (verify not-friend?) add) (w (verify not-friend?) add)))
 (board-setup (A (King a1)) (B (King b1 d1)))
 (loss-condition (A B) (captured King)))
"""


def test_a_position_read_back_keeps_what_the_last_move_took(tmp_path):
    # A captured goal reads the last move: after a1xb1, B has lost although its King on
    # d1 could still move. The text says what was taken, so the position read back (and
    # a copy) has ended too.
    path = tmp_path / "take.zrf"
    path.write_text(TAKE)
    g = load_game(path, name="take.zrf")
    after = g.initial_state().play("a1xb1")
    assert after.outcome() == (1, 0) and str(after).endswith(" taken:B.King")
    assert g.parse_state(str(after)).outcome() == after.clone().outcome() == (1, 0)
    assert g.parse_state(str(after).replace(" taken:B.King", "")).outcome() is None


def test_a_player_named_with_a_question_mark_is_random():
    # tests/zrf/conformance/players.zrf: (players ?Die White Black); its expectations of
    # play are in the conformance run, these are what the game says of its players.
    g = load_game(Path(__file__).parent / "conformance" / "players.zrf")
    assert g.chance_players == frozenset({0}) and g.info()["chance"] == [0]
    assert "Random players: ?Die." in g.rules
    # With the compiled kernel too, the Die's draw splits the point between the others.
    assert g.initial_state().play("b2-b1").outcome() == (0, Fraction(1, 2), Fraction(1, 2))
    # The heuristic leaves the Die out: after b2-c2, one man each, White 2 moves against
    # Black's 1 (the Die's own moves do not count).
    after = g.initial_state().play("b2-c2")
    assert g.evaluate(after, 1) == pytest.approx(0.3 * (2 - 1) / (2 + 1))
    assert g.evaluate(after, 2) == pytest.approx(-g.evaluate(after, 1))
