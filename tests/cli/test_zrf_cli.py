"""Every game command takes a .zrf path: perft, solve, rules, replay, play and arena on
imported games, and ``zrf check`` on a folder, against independent truth (a ZRF
tic-tac-toe against the hand-written one, chess's published perft, tic-tac-toe's known
value)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardlab.cli.main import app

CORPUS = Path(__file__).resolve().parents[1] / "data" / "zrf"
runner = CliRunner()

TIC_TAC_TOE = (Path(__file__).resolve().parents[2] / "examples" / "zrf" / "tic-tac-toe.zrf"
               ).read_text()


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, [str(a) for a in args], input=stdin)


def as_json(*args: str):
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture()
def ttt(tmp_path: Path) -> Path:
    path = tmp_path / "ttt.zrf"
    path.write_text(TIC_TAC_TOE)
    return path


def test_perft_of_a_rule_file_equals_the_hand_written_game(ttt):
    # Depth 6 counts the games X won on its third move (depth 9 agrees too: 127872).
    assert as_json("perft", ttt, "6")["nodes"] == \
        as_json("perft", "tic-tac-toe", "6")["nodes"] == [9, 72, 504, 3024, 15120, 54720]


def test_solve_a_rule_file(ttt):
    assert as_json("solve", ttt)["verdict"] == "draw"
    # Centre, corner, opposite corner: only the two free corners hold the draw.
    data = as_json("solve", ttt, "--moves", "man@b2 man@a1 man@c3", "--all-moves")
    values = {m["move"]: m["value"] for m in data["moves"]}
    assert {m for m, v in values.items() if v == "0"} == {"man@a3", "man@c1"}
    assert all(v == "1" for m, v in values.items() if m not in ("man@a3", "man@c1"))


def test_perft_of_a_variant_by_number_and_by_title():
    path = CORPUS / "checkers" / "international-checkers.zrf"
    assert as_json("perft", path, "3", "--variant", "0")["nodes"] == [9, 81, 658]
    assert as_json("perft", path, "3", "--variant", "Brazilian Checkers")["nodes"] == \
        [7, 49, 302]


def test_rules_of_a_rule_file():
    result = run("rules", CORPUS / "chess" / "chess.zrf")
    assert result.exit_code == 0, result.output
    assert "Pieces: Pawn, Rook, Knight, Bishop, Queen, King" in " ".join(result.stdout.split())
    assert "max_moves" in result.stdout


def test_replay_a_rule_file():
    data = as_json("replay", CORPUS / "chess" / "chess.zrf", "--moves", "e2-e4 d7-d5")
    assert "e4xd5" in data["legal_moves"] and data["to_move"] == 0
    # chess.zrf draws on repetition, so the position carries its two earlier positions.
    assert re.search(r" White ply:2 last:d7-d5 seen:[0-9a-f]{16},[0-9a-f]{16}$",
                     data["position"])


def test_an_illegal_move_in_a_rule_file_is_one_line():
    result = run("replay", CORPUS / "chess" / "chess.zrf", "--moves", "e2-e4 e2-e4")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "error: illegal move 'e2-e4' (move 2): not legal in this position"]


def test_play_a_rule_file_against_a_bot(ttt):
    cells = [f"man@{c}{r}" for r in "123" for c in "abc"]
    result = run("play", ttt, "--player1", "human", "--player2", "alphabeta", "--depth", "9",
                 "--seed", "1", stdin="\n".join(cells) + "\n")
    assert result.exit_code == 0, result.output
    assert "O (alphabeta(depth=9)) plays" in result.stdout
    # The bot searches the whole game: it never loses.
    assert result.stdout.strip().splitlines()[-1].startswith(("O wins", "draw"))


def test_arena_on_a_rule_file():
    data = as_json("arena", CORPUS / "breakthrough" / "breakthrough.zrf", "alphabeta",
                   "random", "-n", "2", "--seed", "3", "--depth", "2")
    assert data["games"] == 2 and data["wins"] == 2


def test_an_unknown_variant_is_one_line():
    result = run("perft", CORPUS / "chess" / "chess.zrf", "1", "--variant", "Nonesuch")
    assert result.exit_code == 2 and "Nonesuch" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_zrf_check_reports_every_file(tmp_path, ttt):
    (tmp_path / "broken.zrf").write_text("(game (title \"Broken\")\n  (players A B")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "chess.zrf").write_text((CORPUS / "chess" / "chess.zrf").read_text())
    data = as_json("zrf", "check", tmp_path, "--games", "2", "--plies", "40", "--verify")
    by_path = {f["path"]: f for f in data["files"]}
    assert set(by_path) == {"broken.zrf", "sub/chess.zrf", "ttt.zrf"}
    assert (data["played"], data["loaded"], data["failed"]) == (2, 2, 1)
    assert by_path["broken.zrf"]["status"] == "failed"
    assert by_path["broken.zrf"]["reason"] == \
        "broken.zrf:2:3: unbalanced parenthesis: this '(' is never closed"
    assert by_path["ttt.zrf"]["games"] == 2 and by_path["ttt.zrf"]["incomplete"] == []
    assert by_path["sub/chess.zrf"]["plies"] == 80
    # Dagaz's chess file leaves an invariant to JavaScript, and says so.
    assert by_path["sub/chess.zrf"]["incomplete"] == ["chess invariant"]


def test_zrf_check_table_and_time_bound(tmp_path, ttt):
    result = run("zrf", "check", tmp_path, "--games", "3")
    assert result.exit_code == 0, result.output
    assert "1 played, 1 loaded (played included), 0 failed of 1 files" in result.stdout
    data = as_json("zrf", "check", CORPUS / "chess", "--games", "5", "--plies", "400",
                   "--seconds", "0.1")
    slow = {f["path"]: f for f in data["files"]}["chess.zrf"]
    assert slow["status"] == "loaded" and slow["reason"].startswith("not played:")


def test_zrf_check_fails_a_file_that_breaks_an_invariant_or_crashes(ttt, monkeypatch):
    import boardlab.core.conformance as conformance
    from boardlab.cli.zrf import check_file

    def broken(state, rng, moves_checked=12):
        raise conformance.ConformanceError("undo of man@a1 changed the position")

    monkeypatch.setattr(conformance, "check_position", broken)
    record = check_file(ttt, "ttt.zrf", 1, 10, 10.0, 0, verify=True)
    assert (record["status"], record["reason"]) == (
        "failed", "invariant broken: undo of man@a1 changed the position")
    assert check_file(ttt, "ttt.zrf", 1, 10, 10.0, 0)["status"] == "played"

    def crash(state, rng, moves_checked=12):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(conformance, "check_position", crash)
    record = check_file(ttt, "ttt.zrf", 1, 10, 10.0, 0, verify=True)
    assert record["reason"] == "boardlab bug while playing: ZeroDivisionError: division by zero"
