"""The command line, driven through Typer's test runner, plus one run of the
installed ``boardlab`` script."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardlab.cli.main import app

runner = CliRunner()
#: A rule file with a random player: (players ?Die White Black).
PLAYERS_ZRF = str(Path(__file__).parents[1] / "zrf" / "conformance" / "players.zrf")


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, list(args), input=stdin)


def assert_one_line_error(result, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0]
    assert "Traceback" not in result.output


# --- games and rules ------------------------------------------------------------------
def test_games_json():
    result = run("games", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    by_name = {g["name"]: g for g in data}
    assert by_name["tic-tac-toe"]["description"]
    assert by_name["tic-tac-toe"]["players"] == ["X", "O"]
    assert all(g["name"] and g["description"] for g in data)


def test_games_table():
    result = run("games")
    assert result.exit_code == 0
    assert "tic-tac-toe" in result.stdout and "misere-tic-tac-toe" in result.stdout


def test_rules():
    result = run("rules", "tic-tac-toe")
    assert result.exit_code == 0
    assert "Tic-tac-toe on 3x3" in result.stdout
    assert "players: X, O" in result.stdout
    assert "Wikipedia" in result.stdout


def test_rules_are_formatted_not_raw_markup():
    result = run("rules", "quantum-morris")
    assert result.exit_code == 0
    text = result.stdout
    assert "``" not in text and ":mod:`" not in text and "-------" not in text
    assert "Rules (Dagaz's, the defaults)" in text      # a section heading
    assert "axiom-tmm-4" in text and "complete" in text  # the presets' table
    data = json.loads(run("rules", "quantum-morris", "--json").stdout)
    assert "### Rules (Dagaz's, the defaults)" not in data["rules"]
    assert "## Rules (Dagaz's, the defaults)" in data["rules"]
    assert "``" in data["rules_source"]


def test_rules_json():
    data = json.loads(run("rules", "tic-tac-toe", "--json").stdout)
    assert data["name"] == "tic-tac-toe" and data["rules"]


def test_unknown_game():
    assert_one_line_error(run("rules", "chess-960"), "unknown game 'chess-960'", "tic-tac-toe")


def test_unknown_option():
    assert_one_line_error(run("rules", "tic-tac-toe", "--option", "size=4"), "size")


def test_malformed_option():
    assert_one_line_error(run("perft", "tic-tac-toe", "2", "-o", "size"), "KEY=VALUE")


# --- perft ----------------------------------------------------------------------------
def test_perft_json():
    result = run("perft", "tic-tac-toe", "4", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["game"] == "tic-tac-toe" and data["depth"] == 4
    assert data["nodes"] == [9, 72, 504, 3024]


def test_perft_table():
    result = run("perft", "tic-tac-toe", "3")
    assert result.exit_code == 0
    assert "504" in result.stdout


def test_perft_unknown_game():
    assert_one_line_error(run("perft", "go", "2"), "unknown game")


# --- replay ---------------------------------------------------------------------------
def test_replay_to_a_win_json():
    result = run("replay", "tic-tac-toe", "--moves", "a1 b2 a2 b1 a3", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["position"] == "x../xo./xo. o"
    assert data["terminal"] is True
    assert data["legal_moves"] == []
    assert data["returns"] == [1, 0]


def test_replay_to_a_draw_with_other_separators():
    moves = "b2,a1;c1  a3,a2 c2;b1\tb3 c3"
    data = json.loads(run("replay", "tic-tac-toe", "--moves", moves, "--json").stdout)
    assert data["terminal"] is True
    assert data["returns"] == [0.5, 0.5]


def test_replay_in_progress():
    result = run("replay", "tic-tac-toe", "--moves", "b2", "--json")
    data = json.loads(result.stdout)
    assert data["position"] == ".../.x./... o"
    assert data["to_move"] == 1
    assert data["terminal"] is False
    assert "returns" not in data
    assert data["legal_moves"] == ["a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"]


def test_replay_text():
    result = run("replay", "tic-tac-toe", "--moves", "a1 b2 a2 b1 a3")
    assert result.exit_code == 0
    assert "x../xo./xo. o" in result.stdout
    assert " 1  x o ." in result.stdout
    assert "X wins" in result.stdout


def test_replay_from_a_position():
    data = json.loads(run("replay", "tic-tac-toe", "--position", "xx./oo./... x",
                          "--moves", "c3", "--json").stdout)
    assert data["returns"] == [1, 0]


def test_replay_illegal_move():
    assert_one_line_error(run("replay", "tic-tac-toe", "--moves", "a1 b2 a1"),
                          "'a1'", "move 3")


def test_replay_malformed_move():
    assert_one_line_error(run("replay", "tic-tac-toe", "--moves", "a1 zz"), "zz", "move 2")


def test_replay_move_after_the_end():
    assert_one_line_error(run("replay", "tic-tac-toe", "--moves", "a1 b2 a2 b1 a3 c3"),
                          "'c3'", "move 6", "over")


# --- play -----------------------------------------------------------------------------
def test_play_against_a_bot_with_scripted_input():
    # Every cell in order: the ones the bot or the human already took are refused and
    # the next line is tried, so the game reaches its end whatever the bot plays.
    script = "zz\n?\na1\na1\n" + "\n".join(["b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"])
    result = run("play", "tic-tac-toe", "--player1", "human", "--player2", "alphabeta",
                 "--depth", "9", "--seed", "1", stdin=script + "\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "'zz': a move is a cell name" in out
    assert "legal moves: a1 b1 c1 a2 b2 c2 a3 b3 c3" in out
    assert "illegal move 'a1': not legal in this position" in out
    assert "O (alphabeta(depth=9)) plays" in out
    assert " 1  x" in out
    last = out.strip().splitlines()[-1]
    # Perfect play never loses.
    assert last.startswith(("O wins", "draw")), last


def test_play_eof_exits_cleanly():
    result = run("play", "tic-tac-toe", "--player2", "random", "--seed", "2", stdin="b2\n")
    assert result.exit_code == 0
    assert "game abandoned" in result.stdout
    assert "X to move" in result.stdout


def test_play_quit():
    result = run("play", "tic-tac-toe", "--player1", "random", "--player2", "human",
                 "--seed", "3", stdin="quit\n")
    assert result.exit_code == 0
    assert "X (random) plays" in result.stdout
    assert "game abandoned" in result.stdout


def test_play_bots_only():
    result = run("play", "tic-tac-toe", "--player1", "mcts", "--player2", "random",
                 "--iterations", "200", "--seed", "4")
    assert result.exit_code == 0
    assert result.stdout.strip().splitlines()[-1].startswith(("X wins", "O wins", "draw"))


def test_play_unknown_player():
    assert_one_line_error(run("play", "tic-tac-toe", "--player1", "robot"), "robot", "human")


def test_a_random_player_is_played_at_random_not_by_a_seat():
    # players.zrf: (players ?Die White Black); --player1 is White, --player2 Black.
    args = ("play", PLAYERS_ZRF, "--player1", "random", "--player2", "alphabeta",
            "--depth", "2", "--seed", "1")
    result = run(*args)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("players -- ?Die: at random, White: random, "
                          "Black: alphabeta(depth=2)")
    assert "?Die (at random) plays b2-" in out and "White (random) plays" in out
    assert run(*args).stdout == out  # the seed draws the same dice
    assert "?Die" not in out.strip().splitlines()[-1]   # the outcome names real players


def test_rules_and_replay_say_which_players_are_random():
    assert "players: ?Die (random), White, Black" in run("rules", PLAYERS_ZRF).stdout
    data = json.loads(run("rules", PLAYERS_ZRF, "--json").stdout)
    assert data["chance"] == [0] and "Random players: ?Die" in data["rules"]
    text = run("replay", PLAYERS_ZRF, "--moves", "b2-a2 a1-b1 c1-c2").stdout
    assert "to move: ?Die (random: one of its legal moves is drawn)" in text
    assert "outcome: draw (White 1/2, Black 1/2)" in \
        run("replay", PLAYERS_ZRF, "--moves", "b2-b1").stdout
    data = json.loads(run("replay", PLAYERS_ZRF, "--moves", "b2-b1", "--json").stdout)
    assert data["chance"] == [0] and data["returns"] == [0, 0.5, 0.5]


def test_solve_gives_the_real_players_expected_margin():
    result = run("solve", PLAYERS_ZRF, "-o", "max_moves=12", "--moves", "b2-c2",
                 "--all-moves", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    # After b2-c2, White's a1-b1 shuts Black in: a win, 1 (players.zrf's header).
    assert data["best_move"] == "a1-b1" and data["value"] == "1"
    assert data["verdict"] == "White ahead by 1 point on average"
    assert_one_line_error(run("solve", PLAYERS_ZRF), "deeper than the exact solver")


# --- arena ----------------------------------------------------------------------------
def test_arena_text():
    result = run("arena", "tic-tac-toe", "alphabeta", "random", "-n", "6", "--seed", "1",
                 "--depth", "9")
    assert result.exit_code == 0, result.output
    assert re.search(r"alphabeta\(depth=9\): \d wins, \d draws, 0 losses", result.stdout)
    assert "95% interval" in result.stdout


def test_arena_json():
    result = run("arena", "tic-tac-toe", "random", "random", "-n", "4", "--seed", "5", "--json")
    data = json.loads(result.stdout)
    assert data["games"] == 4
    assert data["wins"] + data["draws"] + data["losses"] == 4
    low, high = data["interval"]
    assert 0 <= low <= data["score_rate"] <= high <= 1


def test_arena_with_an_mcts_bot_on_two_cores():
    result = run("arena", "tic-tac-toe", "mcts", "random", "-n", "2", "--seed", "1",
                 "--iterations", "40", "--workers", "2")
    assert result.exit_code == 0, result.output
    assert "mcts(iterations=40, workers=2): " in result.stdout
    assert_one_line_error(run("arena", "tic-tac-toe", "alphabeta", "random", "-n", "2",
                              "--workers", "2"), "--workers applies to mcts")


def test_arena_with_a_random_player_repeats_with_its_seed():
    args = ("arena", PLAYERS_ZRF, "random", "alphabeta", "--depth", "2", "-n", "6",
            "--seed", "3", "--json")
    first = run(*args)
    assert first.exit_code == 0, first.output
    assert json.loads(first.stdout)["games"] == 6 and run(*args).stdout == first.stdout


def test_arena_unknown_bot():
    assert_one_line_error(run("arena", "tic-tac-toe", "random", "robot", "-n", "2"), "robot")


def test_arena_bad_bot_option():
    assert_one_line_error(run("arena", "tic-tac-toe", "mcts", "random", "--time", "0"),
                          "time")


# --- the installed script -------------------------------------------------------------
def test_installed_script():
    script = shutil.which("boardlab")
    if script is None:
        pytest.skip("the boardlab script is not installed")
    # A guard against a hang only: on a fresh machine the command compiles the game's
    # kernel first, which took over 60 s at load average 6.
    done = subprocess.run([script, "perft", "tic-tac-toe", "2", "--json"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["nodes"] == [9, 72]
    failed = subprocess.run([script, "perft", "no-such-game", "2"],
                            capture_output=True, text=True, timeout=60)
    assert failed.returncode == 2
    assert failed.stderr.startswith("error: unknown game") and "Traceback" not in failed.stderr


def test_play_quantum_tic_tac_toe_shows_spooky_marks_and_the_pending_collapse():
    # Two humans: O2 on the same squares as X1 closes a 2-cycle that X must collapse.
    result = run("play", "quantum-tic-tac-toe", "--player2", "human",
                 stdin="1-2\n1-2\n>1\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "x₁" in out and "o₂*" in out
    assert "X collapses it, →1 or →2" in out
    assert "[O2]" in out and "[X1]" in out
    assert "game abandoned" in out
