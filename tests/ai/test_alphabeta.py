"""Alpha-beta: proofs on tic-tac-toe checked against a plain minimax written here,
tactics, budgets, and moves that keep the player to move."""

from __future__ import annotations

import random
from functools import cache

import pytest

from boardlab import load, names
from boardlab.ai.alphabeta import HEURISTIC_LIMIT, AlphaBetaBot, Searcher, solve
from boardlab.ai.bots import BotError
from boardlab.errors import OptionError

TTT = load("tic-tac-toe")


@cache
def minimax(text: str) -> tuple[int, int]:
    """Brute force on tic-tac-toe, no pruning: (sign of the result for the side to
    move, plies to the end with the winner hurrying and the loser delaying)."""
    state = TTT.parse_state(text)
    results = []
    me = state.to_move
    for move in state.legal_moves():
        child = state.play(move)
        outcome = child.outcome()
        if outcome is not None:
            sign = (outcome[me] > outcome[1 - me]) - (outcome[me] < outcome[1 - me])
            results.append((sign, 1))
        else:
            sign, plies = minimax(str(child))
            results.append((-sign, plies + 1))
    best = max(sign for sign, _ in results)
    plies = [p for sign, p in results if sign == best]
    return best, (min(plies) if best > 0 else max(plies))


def random_positions(count: int, seed: int = 7):
    rng = random.Random(seed)
    seen = set()
    while len(seen) < count:
        state = TTT.initial_state()
        for _ in range(rng.randrange(2, 7)):
            moves = state.legal_moves()
            if not moves:
                break
            state = state.play(moves[rng.randrange(len(moves))])
        if not state.is_terminal():
            seen.add(str(state))
    return sorted(seen)


def test_tic_tac_toe_is_a_draw():
    result = solve(TTT.initial_state())
    assert result.complete
    assert result.value == 0
    assert result.proven == "draw"
    assert result.depth == 9
    assert result.nodes > 0
    assert result.move in TTT.initial_state().legal_moves()


def test_misere_tic_tac_toe_is_a_draw():
    result = solve(load("misere-tic-tac-toe").initial_state())
    assert result.complete and result.proven == "draw"


@pytest.mark.parametrize("text", random_positions(40))
def test_agrees_with_brute_force(text):
    state = TTT.parse_state(text)
    sign, plies = minimax(text)
    result = solve(state)
    # Iterative deepening stops at the first depth that proves a win or loss.
    assert result.complete or result.proven in ("win", "loss")
    assert result.proven == {1: "win", 0: "draw", -1: "loss"}[sign]
    if sign:
        assert result.plies_to_end == plies
    # The chosen move keeps the value: the opponent's value after it is the negation.
    after = state.play(result.move)
    if after.is_terminal():
        assert sign == 1 and plies == 1
    else:
        assert minimax(str(after))[0] == -sign


def test_win_in_one():
    result = solve(TTT.parse_state("xx./oo./... x"))
    assert result.move.notation == "c3"
    assert result.proven == "win"
    assert result.plies_to_end == 1
    assert result.principal_variation[0] == result.move


def test_win_in_two_by_a_fork():
    # X on a1 and c1, O on b1 and c3: a3 threatens a2 and b2 at once.
    result = solve(TTT.parse_state("..o/.../xox x"))
    assert result.move.notation == "a3"
    assert result.proven == "win"
    assert result.plies_to_end == 3


def test_blocks_a_threat():
    result = solve(TTT.parse_state("x.o/.x./... o"))
    assert result.move.notation == "c1"
    assert result.proven == "draw"


def test_lost_position_delays_the_loss():
    # O must block b1 at once, which only postpones the loss by two plies.
    result = solve(TTT.parse_state(".../o../x.x o"))
    assert result.proven == "loss"
    assert result.move.notation == "b1"
    assert result.plies_to_end == minimax(".../o../x.x o")[1] == 4


def test_depth_budget():
    result = Searcher().search(TTT.initial_state(), depth=2)
    assert result.depth == 2
    assert not result.complete
    assert result.proven is None
    assert -HEURISTIC_LIMIT <= result.value <= HEURISTIC_LIMIT


def test_time_budget_returns_a_legal_move():
    state = load("tic-tac-toe").initial_state()
    result = Searcher().search(state, seconds=1e-9)
    assert result.move in state.legal_moves()


def test_search_leaves_the_state_unchanged():
    state = TTT.parse_state("x.o/.x./... o")
    before, key = str(state), state.key()
    solve(state)
    assert str(state) == before and state.key() == key


def test_terminal_position_is_refused():
    with pytest.raises(BotError):
        solve(TTT.parse_state("xxx/oo./... o"))


def test_table_is_reused_between_searches():
    searcher = Searcher()
    first = searcher.search(TTT.initial_state())
    second = searcher.search(TTT.initial_state())
    assert second.value == first.value == 0
    assert second.nodes < first.nodes


@pytest.mark.parametrize("stones", range(1, 13))
def test_moves_keeping_the_player_to_move(bonus_nim, nim_wins, stones):
    result = solve(bonus_nim(stones))
    assert result.proven == ("win" if nim_wins(stones) else "loss")


def test_fractional_points(choice):
    result = solve(choice)
    assert result.move.notation == "most"
    assert result.proven == "win"


def test_bot_is_seeded_and_never_loses_to_itself():
    a = AlphaBetaBot(depth=9, seed=5)
    b = AlphaBetaBot(depth=9, seed=5)
    state = TTT.initial_state()
    assert a.choose(state) == b.choose(state)
    while not state.is_terminal():
        state = state.play(a.choose(state))
    assert state.returns() == (0.5, 0.5)
    assert a.last is not None and a.last.complete


def test_bot_options_are_checked():
    with pytest.raises(OptionError):
        AlphaBetaBot(depth=0)
    with pytest.raises(OptionError):
        AlphaBetaBot(time=-1.0)
    assert AlphaBetaBot(depth=3).name == "alphabeta(depth=3)"


@pytest.mark.parametrize("name", names())
def test_plays_a_legal_move_in_every_game(name):
    state = load(name).initial_state()
    move = AlphaBetaBot(depth=2, time=2.0, seed=1).choose(state)
    assert move in state.legal_moves()


def test_the_first_iteration_always_finishes_so_the_move_is_never_a_guess():
    # Epaminondas positions are slow to expand: a tiny budget still gets depth 1, and
    # depth 1 finds the capture of both black pieces (the rear piece d1 steps to d2).
    from boardlab import load

    game = load("epaminondas", size="8x8")
    state = game.parse_state(
        "......../......../......../...B..../...B..../...W..../...W..../...W.... white")
    result = Searcher().search(state, seconds=1e-6)
    assert result.depth >= 1
    assert result.move is not None and result.move.notation == "d1xd2"


# --- move ordering and quiescence ---------------------------------------------------------
def _reference(state, me, depth, qleft):
    """Plain minimax with the same quiescence rule (stand on the heuristic or capture,
    ``qleft`` plies at most), every move searched: an independent second implementation
    of the values alpha-beta, its move ordering and its quiescence must find."""
    from boardlab.ai.alphabeta import _heuristic, _terminal_value

    def value(s, ply, left_depth):
        outcome = s.outcome()
        if outcome is not None:
            return _terminal_value(outcome, me, ply)
        if left_depth == 0:
            return quiet(s, ply, qleft)
        children = []
        for m in s.legal_moves():
            s.apply(m)
            children.append(value(s, ply + 1, left_depth - 1))
            s.undo()
        return max(children) if s.to_move == me else min(children)

    def quiet(s, ply, left):
        stand = _heuristic(s, me)
        if left == 0:
            return stand
        options = [stand]
        for m in s.legal_moves():
            if any(type(a).__name__ == "Capture" for a in m.actions):
                s.apply(m)
                outcome = s.outcome()
                options.append(_terminal_value(outcome, me, ply + 1) if outcome is not None
                               else quiet(s, ply + 1, left - 1))
                s.undo()
        return max(options) if s.to_move == me else min(options)

    return value(state, 0, depth)


@pytest.mark.parametrize("seed", range(6))
def test_ordered_search_with_quiescence_agrees_with_plain_minimax(seed):
    from boardlab.ai.alphabeta import QUIESCENCE_PLIES

    game = load("breakthrough", rows=5, columns=4)
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(rng.randrange(3, 9)):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_moves()))
    if state.is_terminal():
        pytest.skip("the random opening ended the game")
    searcher = Searcher()
    for depth in (1, 2, 3):
        got = searcher.search(state, depth=depth).value
        assert got == pytest.approx(_reference(state, state.to_move, depth, QUIESCENCE_PLIES))


def test_quiescence_sees_the_recapture():
    # White (to move) can take on b3, but c4 takes back; b2-b3 is quiet. At depth 1
    # without quiescence the capture looks like a free man; with it, an exchange.
    game = load("breakthrough", rows=5, columns=4)
    state = game.parse_state("...b/..b./.b../w.../w... white")
    plain = Searcher(quiescence=False).search(state, depth=1)
    quiet = Searcher().search(state, depth=1)
    assert plain.move.notation == "a2xb3"
    assert quiet.value < plain.value  # the exchange is priced in
    assert quiet.value == pytest.approx(_reference(state, 0, 1, 6))


def test_killers_and_history_are_kept_and_cut_the_tree():
    game = load("connect-four")
    state = game.initial_state()
    searcher = Searcher()
    searcher.search(state, depth=6)
    assert searcher.history and any(searcher.killers)
    ordered = searcher.nodes
    # The same search with the heuristics disabled by a fresh, unordered searcher.
    plain = Searcher()
    plain._ordered = lambda moves, tt_move, mover, ply: (  # type: ignore[method-assign]
        [tt_move] + [m for m in moves if m != tt_move] if tt_move in moves else list(moves))
    plain._credit = lambda *args: None  # type: ignore[method-assign]
    plain.search(state, depth=6)
    assert ordered < plain.nodes
