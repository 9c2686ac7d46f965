"""UCT whole in a game's kernel (boardlab.core.kernel.search): the same search as the
Python one, checked against alpha-beta's exact values, its tree's counts, the tree kept
from move to move, and the games whose kernels take chains, history and lazy moves."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from boardlab import catalog, load
from boardlab.ai.alphabeta import solve
from boardlab.ai.mcts import MCTSBot, Node, _heuristic_points, search
from boardlab.core.game import PlayoutPolicy
from boardlab.core.heuristics import PieceSquare
from boardlab.core.kernel import plan_for, source
from boardlab.core.kernel.search import Tree
from boardlab.core.kernel.writer.search import FIRST, MOVE, NEXT, PARENT, VISITS

ZRF = Path(__file__).resolve().parents[1] / "data" / "zrf"


def _kids(tree: Tree, node: int) -> list[int]:
    out, child = [], int(tree.q[node, FIRST])
    while child >= 0:
        out.append(child)
        child = int(tree.q[child, NEXT])
    return out


def test_a_kernel_game_is_searched_in_its_kernel_and_a_plain_one_in_python():
    state = load("connect-four").initial_state()
    result = search(state, random.Random(1), iterations=3000)
    assert isinstance(result.tree, Tree)
    # Every iteration passes through the root and one of its children.
    assert result.tree.visits == 3000 == sum(c.visits for c in result.root.children)
    assert sorted(c.move.notation for c in result.root.children) == \
        sorted(m.notation for m in state.legal_moves())
    plain = load("connect-four", engine="interpreter").initial_state()
    assert search(plain, random.Random(1), iterations=50).tree is None
    # MAST and capped playouts need Python on the way: the Python search runs them.
    assert search(state, random.Random(1), iterations=50, playout_depth=5).tree is None


@pytest.mark.parametrize("seed", range(6))
def test_the_kernels_search_plays_an_optimal_move_as_alpha_beta_values_them(seed):
    # Positions part-way through random tic-tac-toe games: the move the search plays
    # keeps the position's exact value (alpha-beta, an independent solver), and every
    # value the solver proved is alpha-beta's.
    rng = random.Random(seed)
    state = load("tic-tac-toe").initial_state()
    for _ in range(rng.randrange(1, 5)):
        state.apply(rng.choice(state.legal_moves()))
    if state.is_terminal():
        pytest.skip("the opening ended the game")
    result = search(state, random.Random(seed), iterations=20000)
    assert result.tree is not None
    exact = solve(state).proven
    after = state.clone()
    after.apply(result.move)
    flipped = {"win": "loss", "loss": "win", "draw": "draw"}
    assert after.is_terminal() or flipped[solve(after).proven] == exact
    for child in result.root.children:
        if child.proven is None:
            continue
        after = state.clone()
        after.apply(child.move)
        mine = child.proven[child.mover]
        expected = ({"win": 1.0, "loss": 0.0, "draw": 0.5}[flipped[solve(after).proven]]
                    if not after.is_terminal() else
                    float(after.outcome()[child.mover]))  # type: ignore[index]
        assert mine == expected, (str(state), child.move)


def test_the_kernels_search_and_the_python_search_agree_on_connect_four():
    # One position, the two implementations of one algorithm (the Python one on the
    # interpreter's positions): O threatens a four on the bottom row, so both block on
    # d, with values within what 3,000 random playouts tell apart.
    results = []
    for engine in ("kernel", "interpreter"):
        state = load("connect-four", engine=engine).initial_state()
        for move in ("g", "a", "g", "b", "f", "c"):
            state.apply(next(m for m in state.legal_moves() if m.notation == move))
        results.append(search(state, random.Random(3), iterations=3000))
    compiled, python = results
    assert compiled.tree is not None and python.tree is None
    assert compiled.move.notation == python.move.notation == "d"
    assert abs(compiled.value - python.value) < 0.08


def test_same_seed_same_search_in_the_kernel():
    state = load("connect-four").initial_state()
    first = search(state, random.Random(5), iterations=2000)
    second = search(state, random.Random(5), iterations=2000)
    assert [(c.move, c.visits, c.points) for c in first.root.children] == \
        [(c.move, c.visits, c.points) for c in second.root.children]
    other = search(state, random.Random(6), iterations=2000)
    assert [c.visits for c in other.root.children] != [c.visits for c in first.root.children]


def test_the_kernels_tree_is_kept_from_move_to_move():
    game = load("connect-four")
    bot = MCTSBot(iterations=2000, seed=7)
    state = game.initial_state()
    state.apply(bot.choose(state))
    tree = bot._tree
    assert isinstance(tree, Tree) and bot.last.reused == 0
    # The replies searched below the bot's move, and their subtrees' visits.
    replies = {int(tree.q[c, MOVE]): c for c in _kids(tree, tree.root)}
    legal = state.legal_moves()
    index, node = max(replies.items(), key=lambda item: tree.q[item[1], VISITS])
    kept = int(tree.q[node, VISITS])
    grandchildren = sorted((int(tree.q[c, MOVE]), int(tree.q[c, VISITS]))
                           for c in _kids(tree, node))
    state.apply(legal[index])
    bot.choose(state)
    assert bot.last.reused == kept > 0
    again = bot.last.tree
    assert again.visits == kept + 2000
    # The kept subtree moved to rows of its own, links renumbered: its root first,
    # every child after its parent.
    assert again.root == 0 and again.q[0, PARENT] == -1
    assert all(again.q[i, PARENT] < i for i in range(1, again.used))
    before = dict(grandchildren)
    after = {int(again.q[c, MOVE]): int(again.q[c, VISITS]) for c in _kids(again, 0)}
    assert all(after[m] >= v for m, v in before.items())


def test_a_kept_tree_of_another_position_is_not_reused():
    bot = MCTSBot(iterations=500, seed=1)
    ttt = load("tic-tac-toe")
    bot.choose(ttt.initial_state())
    bot.choose(ttt.parse_state("xo./.x./o.. x"))  # not two plies below
    assert bot.last.reused == 0 and bot.last.tree is not None


def test_a_policy_weighs_the_kernels_playouts(monkeypatch):
    seen = []
    search_tree = Tree.search

    def recorded(self, position, seed, iterations, deadline, exploration, policy, cap):
        seen.append(policy)
        return search_tree(self, position, seed, iterations, deadline, exploration, policy,
                           cap)

    monkeypatch.setattr(Tree, "search", recorded)
    game = catalog.resolve(str(ZRF / "checkers" / "english-checkers.zrf"))
    state = game.initial_state()
    result = search(state, random.Random(2), iterations=300, policy=PlayoutPolicy(capture=4))
    assert seen == [PlayoutPolicy(capture=4)] and result.tree is not None
    assert result.move in state.legal_moves()


@pytest.mark.parametrize("path", [
    "checkers/english-checkers.zrf",  # chains of partial moves (jumps)
    "chess/chess.zrf",  # king safety
    "elimination/kono.zrf",  # a third repetition loses: each playout's history grows
])
def test_the_kernels_search_plays_rule_files(path):
    game = catalog.resolve(str(ZRF / path))
    state = game.initial_state()
    rng = random.Random(4)
    for _ in range(6):
        state.apply(rng.choice(state.legal_moves()))
    result = search(state, random.Random(4), iterations=400)
    assert result.tree is not None and result.move in state.legal_moves()
    assert sum(c.visits for c in result.root.children) == result.iterations == 400
    assert np.isfinite(result.value)


# --- playouts cut at a cap, scored by the heuristic the kernel computes ----------------------
@pytest.mark.parametrize("path", [
    "checkers/english-checkers.zrf",
    "chess/chess.zrf",
    "elimination/kono.zrf",
    "shogi-family/mini-shogi.zrf",  # pieces in hand count as material
])
def test_the_kernels_heuristic_is_the_rule_files_evaluate(path):
    # Along random games: the kernel's points of a position, as the search backs them
    # up at a cap, are exactly the points of ZrfGame.evaluate (the same floats).
    game = catalog.resolve(str(ZRF / path))
    plan = plan_for(game)
    assert plan is not None and hasattr(plan.module, "heuristic")
    rng = random.Random(7)
    checked = 0
    for _ in range(2):
        state = game.initial_state()
        while not state.is_terminal() and state.ply < 60:
            points = np.zeros(plan.players)
            code = plan.module.heuristic(state._s, np.empty_like(state._s), plan.table,
                                         len(state.legal_moves()), points)
            assert code == 0 and points.tolist() == _heuristic_points(state), \
                (str(state), points.tolist())
            checked += 1
            state.apply(rng.choice(state.legal_moves()))
    assert checked > 40


@pytest.mark.parametrize("options", [{}, {"rows": 6, "columns": 5}])
def test_breakthroughs_piece_square_table_is_its_evaluate_in_the_kernel(options):
    # Material and advancement, written as a piece-square table: the kernel's points
    # are those of Breakthrough.evaluate, exactly, along random games to their end.
    game = load("breakthrough", **options)
    plan = plan_for(game)
    assert isinstance(game.kernel_heuristic(), PieceSquare)
    rng = random.Random(5)
    checked = 0
    for _ in range(3):
        state = game.initial_state()
        while not state.is_terminal():
            points = np.zeros(2)
            assert plan.module.heuristic(state._s, np.empty_like(state._s), plan.table,
                                         len(state.legal_moves()), points) == 0
            assert points.tolist() == _heuristic_points(state), str(state)
            checked += 1
            state.apply(rng.choice(state.legal_moves()))
    assert checked > 60
    # The bot's default (playouts cut at 40 plies) searches in the kernel.
    bot = MCTSBot(iterations=200, seed=1)
    bot.choose(game.initial_state())
    assert bot.last.tree is not None


def _othello_as_written(state, player):
    # Othello's evaluate as the game wrote it before its terms became a Blend.
    from boardlab.games.othello import CORNERS

    held = 0
    for cell in CORNERS:
        if (piece := state.piece_at(cell)) is not None:
            held += 1 if piece.owner == player else -1
    corners = held / 4

    def placements(position, p):
        if position.to_move != p:
            position = position.with_turn(p)
        return sum(1 for move in position.legal_moves() if move.actions)

    mine, theirs = placements(state, player), placements(state, 1 - player)
    mobility = (mine - theirs) / (mine + theirs + 1)
    counts = state.disc_counts()
    own, other = counts[player], counts[1 - player]
    discs = (own - other) / (own + other or 1)
    return 0.5 * corners + 0.35 * mobility + 0.15 * discs


def test_othellos_blend_of_terms_is_its_evaluate_in_the_kernel():
    # Corners, mobility and discs as a Blend: the same floats as the formula the game
    # wrote before, and the kernel's points those of the Blend, along random games.
    game = load("othello")
    plan = plan_for(game)
    rng = random.Random(3)
    checked = 0
    for _ in range(3):
        state = game.initial_state()
        while not state.is_terminal():
            assert [game.evaluate(state, p) for p in (0, 1)] == \
                [_othello_as_written(state, p) for p in (0, 1)]
            # As at a playout's cap: the position's moves just found, in the scratch.
            found = plan.module.moves(state._s.copy(), plan.table) & 16777215
            points = np.zeros(2)
            assert plan.module.heuristic(state._s, np.empty_like(state._s), plan.table,
                                         found, points) == 0
            assert points.tolist() == _heuristic_points(state), str(state)
            checked += 1
            state.apply(rng.choice(state.legal_moves()))
    assert checked > 150


def _taacoca_as_written(game, state, player):
    # Taacoca's evaluate as the game wrote it before it became a piece-square table.
    from boardlab.games.taacoca import SIDE

    rows = 2 * SIDE - 1
    score = 0.0
    best = [0, 0]
    for cell, piece in state.occupied():
        r = game.board.coords[cell][1] + SIDE - 1
        advance = r if piece.owner == 0 else rows - 1 - r
        best[piece.owner] = max(best[piece.owner], advance)
        value = 1.0 + 0.08 * advance * advance / rows
        score += value if piece.owner == player else -value
    score += 0.3 * (best[player] - best[1 - player])
    return max(-1.0, min(1.0, score / 12))


def _ordo_as_written(game, state, player):
    # Ordo's evaluate as the game wrote it before it became a piece-square table.
    from boardlab.games.ordo import HEIGHT, WIDTH

    score = 0.0
    best = [0, 0]
    for cell, piece in state.occupied():
        y = cell // WIDTH
        advance = y if piece.owner == 0 else HEIGHT - 1 - y
        best[piece.owner] = max(best[piece.owner], advance)
        value = 1.0 + 0.05 * advance
        score += value if piece.owner == player else -value
    score += 0.3 * (best[player] - best[1 - player])
    return max(-1.0, min(1.0, score / 20))


def _breakthrough_as_written(game, state, player):
    # Breakthrough's evaluate as the game wrote it before it became a piece-square table.
    cols, rows = game.options["columns"], game.options["rows"]
    score = 0.0
    for cell, piece in state.occupied():
        y = cell // cols
        advance = y if piece.owner == 0 else rows - 1 - y
        value = 1.0 + 0.1 * advance * advance / rows
        score += value if piece.owner == player else -value
    return max(-1.0, min(1.0, score / (2 * cols)))


def _epaminondas_as_written(game, state, player):
    # Epaminondas's evaluate as the game wrote it before it became a piece-square table.
    width, height = game.width, game.height
    total = 2 * width * 2
    score = 0.0
    for cell, piece in state.occupied():
        y = cell // width
        advance = y if piece.owner == 0 else height - 1 - y
        value = 1.0 + 0.5 * advance / (height - 1)
        if advance == height - 1:
            value += 2.0
        score += value if piece.owner == player else -value
    return max(-1.0, min(1.0, score / total))


@pytest.mark.parametrize(("name", "as_written"), [
    ("taacoca", _taacoca_as_written),
    ("ordo", _ordo_as_written),
    ("ordo-x", _ordo_as_written),
    ("epaminondas", _epaminondas_as_written),
    ("breakthrough", _breakthrough_as_written),
])
def test_a_piece_square_table_is_the_games_evaluate(name, as_written):
    # Material and advancement (the most advanced piece counting extra, or a piece on
    # the far row): the same floats as the formula the game wrote, and the kernel's
    # points those of the table.
    game = load(name)
    plan = plan_for(game)
    rng = random.Random(3)
    checked = 0
    for _ in range(3):
        state = game.initial_state()
        while not state.is_terminal() and state.ply < 100:
            assert [game.evaluate(state, p) for p in (0, 1)] == \
                [as_written(game, state, p) for p in (0, 1)]
            points = np.zeros(2)
            assert plan.module.heuristic(state._s, np.empty_like(state._s), plan.table,
                                         0, points) == 0
            assert points.tolist() == _heuristic_points(state), str(state)
            checked += 1
            state.apply(rng.choice(state.legal_moves()))
    assert checked > 40


def test_a_game_whose_class_writes_its_own_evaluate_gets_no_kernel_heuristic():
    from boardlab.zrf.game import ZrfGame

    class Cautious(ZrfGame):
        def evaluate(self, state, player):
            return 0.0

    game = catalog.resolve(str(ZRF / "checkers" / "english-checkers.zrf"))
    assert "def heuristic(" in source(game)
    other = Cautious(game.lowered)
    assert "def heuristic(" not in source(other)
    assert other.initial_state().search_tree(None, 40) is None
    # Abalone's heuristic is Python only: capped playouts stay with the Python tree.
    assert load("abalone").initial_state().search_tree(None, 40) is None
    assert isinstance(load("abalone").initial_state().search_tree(), Tree)


def test_a_rule_files_bot_searches_in_its_kernel_and_agrees_with_the_python_search():
    # The bot's default on a rule file: playouts cut at 40 plies and scored by the
    # heuristic, now whole in the kernel; the Python tree on the same position (its
    # playouts in the kernel, scored in Python) finds the same move and value.
    game = catalog.resolve(str(ZRF / "checkers" / "english-checkers.zrf"))
    state = game.initial_state()
    for seed in range(4):
        state.apply(random.Random(seed).choice(state.legal_moves()))
    bot = MCTSBot(iterations=3000, seed=1)
    bot.choose(state)
    compiled = bot.last
    assert compiled.tree is not None and compiled.iterations == 3000
    python = search(state, random.Random(1), iterations=3000, playout_depth=40,
                    root=Node(None, None, -1, state.key()))
    assert python.tree is None
    assert compiled.move == python.move
    assert abs(compiled.value - python.value) < 0.03


def test_a_bot_compiles_its_search_when_prepared():
    from boardlab.ai.bots import prepare

    game = load("tic-tac-toe-3d")
    state = game.initial_state()
    bot = MCTSBot(time=0.1, seed=4)
    prepare(bot, state)
    assert "uct" in vars(plan_for(game))  # compiled, before any move is asked for
    assert bot.last is None and bot._tree is None  # nothing of the bot's own touched
    assert bot.choose(state) in state.legal_moves()


def test_a_full_tree_goes_on_with_playouts_and_adds_no_node(monkeypatch):
    import boardlab.core.kernel.search as kernel_search

    monkeypatch.setattr(kernel_search, "MAX_NODES", 64)
    state = load("connect-four").initial_state()
    result = search(state, random.Random(2), iterations=5000)
    assert result.tree.used == 64 and result.iterations == 5000
    assert result.tree.visits == 5000 == sum(c.visits for c in result.root.children)
    assert result.move in state.legal_moves()
