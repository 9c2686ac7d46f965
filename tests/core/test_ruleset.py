"""A game of the move language as a value (boardlab.core.ruleset): built-in games build
one, ZRF files lower to one, ``PieceGame(ruleset)`` plays any, on every engine."""

from __future__ import annotations

import pickle
from dataclasses import replace
from pathlib import Path

import pytest

import boardlab
from boardlab.core.board import Board
from boardlab.core.engine import Engine
from boardlab.core.game import perft
from boardlab.core.goals import Condition, Goals, PiecesRemaining
from boardlab.core.move import Piece
from boardlab.core.position import PieceGame
from boardlab.core.rules import EMPTY, Add, Rules, Step, Template, Verify
from boardlab.core.ruleset import RuleSet
from boardlab.errors import RulesError
from boardlab.zrf.game import ZrfGame, load_game, read

ZRF = Path(__file__).resolve().parents[2].parent / "shared" / "zrf"
WHITE, BLACK = Piece(0, "pawn"), Piece(1, "pawn")


def _race(**changes) -> RuleSet:
    parts = dict(name="race", players=("white", "black"),
                 board=Board.square(3, 3).rotated_for(1), pieces={"w": WHITE, "b": BLACK},
                 placement={"a1": WHITE, "c3": BLACK},
                 rules=Rules([Template((Step("n"), Verify(EMPTY), Add()))]),
                 goals=Goals((Condition("loss", (0, 1), PiecesRemaining(0)),), 2))
    parts.update(changes)
    return RuleSet(**parts)


@pytest.mark.parametrize("engine", list(Engine))
def test_a_built_in_game_s_rule_set_played_as_a_value_keeps_its_published_perft(engine):
    # Breakthrough's published counts (Wikipedia / OpenSpiel), from its rule set alone:
    # no class of the game, its notation or its text form involved.
    ruleset = boardlab.load("breakthrough").ruleset
    game = PieceGame(ruleset, engine=engine)
    assert (game.name, game.player_names) == ("breakthrough", ("white", "black"))
    state = game.initial_state()
    assert perft(state, 3) == [22, 484, 11132]
    # The rule set, read by another process, plays the same game.
    again = PieceGame(pickle.loads(pickle.dumps(ruleset)), engine=engine)
    assert perft(again.initial_state(), 2) == [22, 484]


def test_every_built_in_game_of_the_language_builds_its_rule_set_once_from_its_options():
    for name in ("breakthrough", "taacoca", "abalone", "epaminondas", "gess", "ordo",
                 "ordo-x", "othello", "connect-four", "tic-tac-toe", "tic-tac-toe-3d",
                 "misere-tic-tac-toe", "nine-mens-morris", "three-mens-morris"):
        game = boardlab.load(name)
        assert isinstance(game, PieceGame), name
        ruleset = game.ruleset
        assert ruleset is game.ruleset and game.board is ruleset.board, name
        assert game.move_rules is ruleset.rules and ruleset.goals is not None, name
        assert ruleset.players == game.player_names and ruleset.name == game.name
    small = boardlab.load("breakthrough", rows=5, columns=4).ruleset
    assert small.board.size == 20 and len(small.placement) == 16
    assert boardlab.load("abalone", max_moves=50).ruleset.ply_limit == 50
    assert boardlab.load("taacoca").ruleset.ply_limit is None
    assert boardlab.load("taacoca", directions="all").ruleset.ply_limit == 300


def test_a_rule_set_given_as_a_value_plays_and_is_its_own_game():
    race = _race()
    game = PieceGame(race, engine="interpreter")
    state = game.initial_state()
    assert str(state) == "..b/.../w.. white"
    assert [m.notation for m in state.legal_moves()] == ["a1-a2"]
    state = state.play("a1-a2").play("c3-c2").play("a2-a3")
    # Black's pawn is blocked by nothing; white's is on the last row and cannot move.
    assert [m.notation for m in state.legal_moves()] == ["c2-c1"]
    assert state.play("c2-c1").outcome() == (0, 1)  # white without a move loses
    # The same value and options: the same game; another value: another game.
    assert game == PieceGame(race, engine="kernel") and hash(game) == hash(
        PieceGame(race))
    assert game != PieceGame(_race())
    assert game.using("kernel").ruleset is race
    # Another process rebuilds it from its recipe, on the same engine.
    build, args, kwargs = game.recipe()
    rebuilt = pickle.loads(pickle.dumps(build))(*pickle.loads(pickle.dumps(args)), **kwargs)
    assert rebuilt.engine is Engine.INTERPRETER
    assert perft(rebuilt.initial_state(), 3) == perft(game.initial_state(), 3) == [1, 1, 1]


def test_a_rule_set_names_what_is_wrong_with_it():
    with pytest.raises(RulesError, match="cell 'd9'"):
        _race(placement={"d9": WHITE})
    with pytest.raises(RulesError, match="player 2"):
        _race(placement={"a1": Piece(2, "pawn")})
    with pytest.raises(RulesError, match="turn order"):
        _race(turn_order=((0, 2), 0))
    with pytest.raises(RulesError, match="turn order"):
        _race(turn_order=((0, 1), 2))
    with pytest.raises(RulesError, match="ply limit 0"):
        _race(ply_limit=0)
    with pytest.raises(RulesError, match="negative reserve"):
        _race(reserves={WHITE: -1})
    with pytest.raises(RulesError, match="chance players"):
        _race(chance_players=frozenset({3}))
    with pytest.raises(RulesError, match="no players"):
        _race(players=())
    # Its mappings are read-only: a rule set is a value.
    with pytest.raises(TypeError):
        _race().placement["b2"] = WHITE  # type: ignore[index]


def test_the_turn_order_of_a_rule_set_says_who_moves():
    # White, black, black, then black and black again from the second turn.
    game = PieceGame(_race(turn_order=((0, 1, 1), 1), placement={"a1": WHITE, "b1": BLACK},
                           board=Board.square(3, 3)), engine="interpreter")
    state = game.initial_state()
    movers = []
    for _ in range(3):
        movers.append(state.to_move)
        state = state.play(state.legal_moves()[0])
    assert movers == [0, 1, 1]


def test_a_ply_limit_draws():
    game = PieceGame(_race(ply_limit=2), engine="interpreter")
    state = game.initial_state().play("a1-a2").play("c3-c2")
    assert state.outcome() == (0.5, 0.5)


def test_one_rules_value_on_two_boards_derives_what_it_reads_per_game():
    # The rules' nodes are shared values; the cells a piece attacks from, read by check
    # tests (ZRF attacked?), belong to each game's board. Truth: the targets of the
    # moves black has (a step forward takes whatever is there).
    rules = Rules([Template((Step("n"), Add()))])
    for size in (3, 4, 3, 5):
        board = Board.square(size, size).rotated_for(1)
        race = _race(board=board, rules=rules, placement={
            "a1": WHITE, "b2": WHITE, "c3": BLACK, f"a{size}": BLACK})
        game = PieceGame(race, engine="interpreter")
        state = game.initial_state().with_turn(1)
        reached = {m.actions[0].target for m in state.legal_moves()}
        attacked = {cell for cell in range(board.size)
                    if rules.attacked(state, cell, by=lambda p: p == 1)}
        assert attacked == reached and len(reached) == 2, size


@pytest.mark.skipif(not ZRF.is_dir(), reason="the ZRF corpus is not beside the checkout")
def test_every_rule_file_is_one_class_made_with_its_lowered_rule_set():
    chess = ZRF / "chess" / "chess.zrf"
    checkers = next(ZRF.rglob("english-checkers.zrf"))
    a, b = load_game(chess, engine="interpreter"), load_game(checkers, engine="interpreter")
    assert type(a) is type(b) is ZrfGame
    assert (a.name, a.player_names) == ("chess", ("White", "Black"))
    # The lowering is the same for every option; max_moves is the rule set's ply limit.
    lowered = read(chess)
    short = ZrfGame(lowered, max_moves=7, engine="interpreter")
    assert short.ruleset.ply_limit == 7 and lowered.ruleset.ply_limit is None
    assert short.ruleset.rules is lowered.ruleset.rules
    assert ZrfGame(lowered, max_moves=7) == short != ZrfGame(read(chess), max_moves=7)
    assert short.using("kernel").lowered is lowered
    # Perft of the standard start (published: 20, 400, 8,902) from the lowered rules.
    assert perft(short.initial_state(), 2) == [20, 400]
    # The chess file's rule set played as a plain value gives the same counts.
    plain = PieceGame(replace(lowered.ruleset, ply_limit=1000), engine="interpreter")
    assert perft(plain.initial_state(), 2) == [20, 400]
