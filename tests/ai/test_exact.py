"""The exact solvers: the compiled quantum tic-tac-toe solver against the generic
alpha-beta (which searches the game's Python rules, themselves checked against an
independent model in tests/games), and against the published values of the game."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from typer.testing import CliRunner

import boardlab
from boardlab.ai.exact import QuantumSolver, SolveReport, solve_generic, solve_position
from boardlab.cli.main import app
from boardlab.errors import BotError, OptionError

OPTION_SETS = [
    {},
    {"scoring": "narrow"},
    {"scoring": "complete"},
    {"preset": "axiom-qttt-1"},
    {"preset": "axiom-losing-2"},
    {"deterministic_moves": True, "misere": True, "duplicate_pair": False},
    {"numbering": "per-player", "scoring": "goff-points"},
]


def random_position(game, rng: random.Random, made: int):
    """A position after ``made`` random moves (and any collapse due), or ``None``."""
    state = game.initial_state()
    while not state.is_terminal() and (state.made < made or state.pending):
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    return None if state.is_terminal() else state


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(
    f"{k}={v}" for k, v in o.items()) or "goff")
def test_compiled_solver_matches_generic_alpha_beta(options):
    game = boardlab.load("quantum-tic-tac-toe", **options)
    solver = QuantumSolver(game, table_bits=14)
    rng = random.Random(f"exact:{options}")
    checked = 0
    values = set()
    while checked < 12:
        state = random_position(game, rng, rng.choice((6, 7, 7, 8)))
        if state is None:
            continue
        generic = solve_generic(state, all_moves=True)
        compiled = Fraction(solver.value(state), 2)
        assert compiled == generic.value, str(state)
        # The compiled solver's move values as well, through its own root loop.
        exact = solve_position(state, all_moves=True, table_bits=14)
        assert dict((m.notation, v) for m, v in exact.moves) == \
            dict((m.notation, v) for m, v in generic.moves), str(state)
        values.add(compiled)
        checked += 1
    assert len(values) >= 2, "the sample should contain different outcomes"


# Published: Ishizeki and Matsuura (narrow win: the first player wins; complete win:
# a draw) and Kumar, Ang and Chai (1 and 1/2 points: X wins by half a point).
@pytest.mark.slow
@pytest.mark.parametrize("scoring, value", [("narrow", Fraction(1)), ("complete", Fraction(0)),
                                            ("goff-points", Fraction(1, 2))])
def test_empty_board_values_match_the_literature(scoring, value):
    report = solve_position(boardlab.load("quantum-tic-tac-toe", scoring=scoring)
                            .initial_state(), table_bits=22)
    assert report.value == value
    assert report.nodes > 100_000
    # The best move really achieves the value: solve the position after it.
    after = solve_position(report.best and boardlab.load(
        "quantum-tic-tac-toe", scoring=scoring).initial_state().play(report.best),
        table_bits=20)
    assert after.value == value


def test_opposite_corners_win_the_narrow_game():
    game = boardlab.load("quantum-tic-tac-toe", scoring="narrow")
    report = solve_position(game.initial_state().play("X1:1-9"), table_bits=20)
    assert report.value == 1


def test_report_wording():
    names = ("X", "O")
    assert SolveReport(Fraction(1, 2), None, 0, 0.0, (), names).verdict == \
        "X wins by 1/2 point"
    assert SolveReport(Fraction(-3, 2), None, 0, 0.0, (), names).verdict == \
        "O wins by 1 1/2 points"
    assert SolveReport(Fraction(1), None, 0, 0.0, (), names).verdict == "X wins"
    assert SolveReport(Fraction(0), None, 0, 0.0, (), names).verdict == "draw"


def test_solving_a_finished_game_is_an_error():
    state = boardlab.load("tic-tac-toe").initial_state().play_all(
        ["a1", "b1", "a2", "b2", "a3"])
    with pytest.raises(BotError, match="over"):
        solve_position(state)


def plain_minimax(state) -> Fraction:
    """X's margin under perfect play by exhaustive minimax: no pruning, no table."""
    outcome = state.outcome()
    if outcome is not None:
        return outcome[0] - outcome[1]
    values = [plain_minimax(state.play(m)) for m in state.legal_moves()]
    return max(values) if state.to_move == 0 else min(values)


def test_generic_solver_matches_plain_minimax_on_every_margin():
    # Goff's points give margins of 1/2, 1, 3/2 and 2. A search that stopped at the first
    # proven win (this position, after an earlier root move filled the table) reported
    # O8:5-8 as a win by 1 for X; it is a win by 1 1/2.
    game = boardlab.load("quantum-tic-tac-toe")
    positions = [game.parse_state("X1:3-4 O2:1-4 X3:2-7 O4:1-9 X5:4-6 O6:2-8 X7:5-7")]
    rng = random.Random("plain-minimax")
    while len(positions) < 8:
        state = random_position(game, rng, 7)
        if state is not None:
            positions.append(state)
    margins = set()
    for state in positions:
        report = solve_generic(state, all_moves=True)
        truth = {m.notation: plain_minimax(state.play(m)) for m in state.legal_moves()}
        assert dict((m.notation, v) for m, v in report.moves) == truth, str(state)
        assert report.value == plain_minimax(state)
        margins.update(abs(v) for v in truth.values())
    assert {Fraction(1, 2), Fraction(3, 2)} <= margins


def test_budgets_belong_to_their_solver():
    with pytest.raises(BotError, match="not solved within 5,000 nodes"):
        solve_generic(boardlab.load("connect-four").initial_state(), max_nodes=5_000)
    with pytest.raises(OptionError, match="table size applies to quantum-tic-tac-toe"):
        solve_position(boardlab.load("tic-tac-toe").initial_state(), table_bits=12)
    with pytest.raises(OptionError, match="always finishes"):
        solve_position(boardlab.load("quantum-tic-tac-toe").initial_state(),
                       max_nodes=10)


def test_cli_solve():
    runner = CliRunner()
    result = runner.invoke(app, ["solve", "quantum-tic-tac-toe", "-o", "scoring=narrow",
                                 "--moves", "X1:1-9 O2:2-3", "--table-bits", "18", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["value"] == "1" and data["verdict"] == "X wins"
    assert data["nodes"] > 0 and data["best_move"].startswith("X3:")
    text = runner.invoke(app, ["solve", "tic-tac-toe", "--all-moves"])
    assert text.exit_code == 0 and "value: draw" in text.stdout and "b2" in text.stdout
    slow = runner.invoke(app, ["solve", "connect-four", "--time", "0.2"])
    assert slow.exit_code == 2 and "not solved within" in slow.stderr



def test_the_exact_bot_keeps_the_value_of_the_position():
    # Every move the bot chooses leads to a position worth exactly what the position
    # before it was worth (from the compiled solver), against any reply: perfect play.
    from boardlab.ai.arena import play_game
    from boardlab.ai.bots import make_bot

    game = boardlab.load("quantum-tic-tac-toe", scoring="narrow")
    start = game.initial_state().play("X1:1-2")  # a draw with best play (not corners)
    exact = make_bot("exact", seed=1)
    judge = QuantumSolver(game, table_bits=20)
    assert judge.value(start) == 0
    for seed in range(2):
        state = start.clone()
        value = 0
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.to_move == 1:  # the bot plays O
                move = exact.choose(state)
                state = state.play(move)
                assert judge.value(state) <= value  # O never lets X gain
                value = judge.value(state) if not state.is_terminal() else value
            else:
                moves = state.legal_moves()
                state = state.play(moves[rng.randrange(len(moves))])
                value = min(value, judge.value(state)) if not state.is_terminal() else value
        assert state.returns()[1] >= state.returns()[0], str(state)  # O does not lose
    # In small games the bot searches to the end: perfect tic-tac-toe draws itself.
    returns, _ = play_game(boardlab.load("tic-tac-toe").initial_state(),
                           [make_bot("exact", seed=2), make_bot("exact", seed=3)])
    assert returns[0] == returns[1]
    assert make_bot("exact").choose(boardlab.load("tic-tac-toe").parse_state(
        "xx./oo./... x")).notation == "c3"
