"""Ordo and Ordo X: perft and move sets against an independent brute-force generator
(plain Python on a list of 80 numbers, sharing no code with the move language), and
one test per special rule."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.core import kernel
from boardlab.core.engine import Engine
from boardlab.core.game import DRAW, perft, win_for
from boardlab.core.move import Capture
from boardlab.core.selection import moved_pieces
from boardlab.errors import IllegalMoveError
from boardlab.games.ordo import BLACK, WHITE
from tests.core.test_kernel import play_both
from tests.games.conftest import ends_as_reference

W, H = 10, 8
FILES = "abcdefghij"


# --- the reference generator ---------------------------------------------------------------
def name(i: int) -> str:
    return f"{FILES[i % W]}{i // W + 1}"


def neighbours(i: int) -> list[int]:
    x, y = i % W, i // W
    return [(y + dy) * W + x + dx for dx in (-1, 0, 1) for dy in (-1, 0, 1)
            if (dx or dy) and 0 <= x + dx < W and 0 <= y + dy < H]


def groups(cells: set[int]) -> list[set[int]]:
    left, out = set(cells), []
    while left:
        todo = [min(left)]
        seen = {todo[0]}
        while todo:
            for n in neighbours(todo.pop()):
                if n in left and n not in seen:
                    seen.add(n)
                    todo.append(n)
        out.append(seen)
        left -= seen
    return out


def connected(board: list[int], who: int) -> bool:
    return len(groups({i for i in range(W * H) if board[i] == who})) <= 1


def step(i: int, dx: int, dy: int) -> int:
    x, y = i % W + dx, i // W + dy
    return y * W + x if 0 <= x < W and 0 <= y < H else -1


def terminal(board: list[int]) -> bool:
    if 1 in board[W * (H - 1):] or 2 in board[:W]:
        return True
    return 1 not in board or 2 not in board


def reference_moves(board: list[int], player: int, pending: bool, x_rules: bool
                    ) -> dict[str, tuple[list[int], bool]]:
    """Notation -> (board after, whether the same player moves again)."""
    if terminal(board):
        return {}
    me, them = player + 1, 2 - player
    f = 1 if player == 0 else -1
    split = not connected(board, me)
    forward = [(0, f), (-1, f), (1, f)]
    sideways = [] if pending else [(-1, 0), (1, 0)]
    single_dirs = forward + sideways + ([(0, -f), (-1, -f), (1, -f)] if split else [])
    out: dict[str, tuple[list[int], bool]] = {}

    def keep(text: str, after: list[int], side: bool) -> None:
        if connected(after, me):
            out[text] = (after, x_rules and side and not pending)

    for i in range(W * H):
        if board[i] != me:
            continue
        for dx, dy in single_dirs:
            t = step(i, dx, dy)
            while t >= 0 and board[t] == 0:
                after = board[:]
                after[i], after[t] = 0, me
                keep(f"{name(i)}-{name(t)}", after, dy == 0)
                t = step(t, dx, dy)
            if t >= 0 and board[t] == them:
                after = board[:]
                after[i], after[t] = 0, me
                base = f"{name(i)}x{name(t)}"
                parts = groups({c for c in range(W * H) if after[c] == them})
                if not x_rules or len(parts) < 2:
                    keep(base, after, dy == 0)
                    continue
                big = max(len(g) for g in parts)
                best = [g for g in parts if len(g) == big]
                for kept in best:
                    cut = after[:]
                    for g in parts:
                        if g is not kept:
                            for c in g:
                                cut[c] = 0
                    keep(base + (f"/{name(min(kept))}" if len(best) > 1 else ""), cut,
                         dy == 0)
    # ordos: segments along +x (horizontal) or +y (vertical), of length 2 and more
    for i in range(W * H):
        if board[i] != me:
            continue
        for lx, ly in ((1, 0), (0, 1)):
            segment = [i]
            while (n := step(segment[-1], lx, ly)) >= 0 and board[n] == me:
                segment.append(n)
                if x_rules:
                    dirs = forward + sideways
                elif ly == 0:
                    dirs = [(0, f)] + ([(0, -f)] if split else [])
                else:
                    dirs = [(-1, 0), (1, 0)]
                for dx, dy in dirs:
                    k = 1
                    while True:
                        targets = [step(c, dx * k, dy * k) for c in segment]
                        if any(t < 0 or (board[t] != 0 and t not in segment) for t in targets):
                            break
                        # every cell swept on the way must be free too
                        if k > 1 and any(board[step(c, dx * j, dy * j)] not in (0, me)
                                         or (board[step(c, dx * j, dy * j)] == me
                                             and step(c, dx * j, dy * j) not in segment)
                                         for c in segment for j in range(1, k)):
                            break
                        after = board[:]
                        for c in segment:
                            after[c] = 0
                        for t in targets:
                            after[t] = me
                        keep(f"{name(segment[0])}:{name(segment[-1])}-{name(targets[0])}",
                             after, dy == 0)
                        k += 1
    return out


def reference_perft(board, player, pending, x_rules, depth) -> list[int]:
    counts = [0] * depth

    def walk(board, player, pending, level):
        moves = reference_moves(board, player, pending, x_rules)
        counts[level] += len(moves)
        if level + 1 < depth:
            for after, again in moves.values():
                walk(after, player if again else 1 - player, again, level + 1)

    walk(board, player, pending, 0)
    return counts


def as_reference(state) -> tuple[list[int], int, bool]:
    board = [0 if p is None else p.owner + 1 for p in state.cells]
    return board, state.to_move, bool(getattr(state, "pending", False))


# --- helpers -----------------------------------------------------------------------------------
def position(game, pieces: dict[str, str], side: str = "white", extra: str = ""):
    grid = [["."] * W for _ in range(H)]
    for cell, sym in pieces.items():
        grid[H - int(cell[1:])][FILES.index(cell[0])] = sym
    text = "/".join("".join(r) for r in grid) + f" {side}" + (f" {extra}" if extra else "")
    return game.parse_state(text)


def notations(state) -> set[str]:
    return {m.notation for m in state.legal_moves()}


ORDO, ORDO_X = boardlab.load("ordo"), boardlab.load("ordo-x")


# --- perft and move sets ---------------------------------------------------------------------
@pytest.mark.parametrize("game", [ORDO, ORDO_X], ids=["ordo", "ordo-x"])
def test_perft_agrees_with_reference(game):
    board, player, pending = as_reference(game.initial_state())
    expected = reference_perft(board, player, pending, game.name == "ordo-x", 2)
    assert perft(game.initial_state(), 2) == expected
    assert list(game.known_perft[:2]) == expected


@pytest.mark.parametrize("game", [ORDO, ORDO_X], ids=["ordo", "ordo-x"])
def test_move_sets_agree_on_random_games(game):
    rng = random.Random(f"ordo-reference:{game.name}")
    checked = 0
    for _ in range(6):
        state = game.initial_state()
        while not state.is_terminal() and state.ply < 150:
            board, player, pending = as_reference(state)
            expected = reference_moves(board, player, pending, game.name == "ordo-x")
            assert notations(state) == set(expected), str(state)
            checked += 1
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
    assert checked > 200


@pytest.mark.parametrize("game", [ORDO, ORDO_X], ids=["ordo", "ordo-x"])
def test_plays_on_its_kernel_as_the_interpreter_plays_it(game):
    # Random games on the kernel and on the interpreter, move for move (notation,
    # actions, template), with the same outcome, key, text and history at every ply and
    # on the way back; captures half the time, so that groups split and are cut off.
    assert kernel.why_not(game) is None
    assert isinstance(game.initial_state(), kernel.KernelPosition)
    met = {"captures": 0, "cut off": 0, "noted": 0}

    def pick(moves, rng):
        takes = [k for k, m in enumerate(moves) if any(isinstance(a, Capture)
                                                        for a in m.actions)]
        met["captures"] += bool(takes)
        met["cut off"] += any(sum(isinstance(a, Capture) for a in m.actions) > 1
                              for m in moves)
        met["noted"] += any("/" in m.notation for m in moves)
        return rng.choice(takes) if takes and rng.random() < 0.5 else \
            rng.randrange(len(moves))

    assert sum(play_both(game, seed, 200, pick) for seed in range(8)) > 400
    assert met["captures"] > 20
    if game is ORDO_X:  # groups cut off, and a choice between two largest
        assert met["cut off"] > 20 and met["noted"] > 0


# --- Ordo rules --------------------------------------------------------------------------------
def test_start_position_and_first_moves():
    state = ORDO.initial_state()
    assert str(state).startswith("..bb..bb../bbbbbbbbbb/bb..bb..bb/")
    got = notations(state)
    assert {"c2-c4", "b3-d3", "c2:d2-c4"} <= got
    assert "c2-c1" not in got  # no backward moves while connected


def test_a_move_that_disconnects_is_illegal():
    state = position(ORDO, {"a1": "w", "b1": "w", "c1": "w", "j8": "b"})
    got = notations(state)
    assert "b1-b2" in got and "c1-c2" in got
    assert "c1-c3" not in got and "a1-a3" not in got  # they would leave the group


def test_reconnection_only_reconnecting_moves_with_backward_moves():
    # White was split by a capture: a3 is cut off from c1/d1.
    state = position(ORDO, {"a3": "w", "c1": "w", "d1": "w", "j8": "b", "j7": "b"})
    got = notations(state)
    # a3-b2 (diagonally backward, allowed only now) is the one move that reconnects;
    # c1-b2 reaches a3 but leaves d1 behind, d1-d2 keeps c1/d1 but not a3.
    assert got == {"a3-b2"}
    joined = state.play("a3-b2")
    assert "b2-a1" not in notations(joined)  # backward moves end with the split


def test_backward_ordo_move_reconnects():
    state = position(ORDO, {"b1": "w", "c3": "w", "d3": "w", "j8": "b"})
    assert "c3:d3-c2" in notations(state)
    joined = position(ORDO, {"b2": "w", "c3": "w", "d3": "w", "j8": "b"})
    assert "c3:d3-c2" not in notations(joined)


def test_loss_when_reconnection_is_impossible():
    state = position(ORDO, {"a1": "w", "j3": "w", "j8": "b"})
    assert state.legal_moves() == []
    assert state.outcome() == (0, 1)


def test_win_on_the_home_row_and_by_capturing_everything():
    state = position(ORDO, {"c7": "w", "d7": "w", "j5": "b", "j4": "b"})
    after = state.play("c7-c8")
    assert after.outcome() == (1, 0)
    black = position(ORDO, {"a2": "b", "b2": "b", "h5": "w"}, side="black")
    assert black.outcome() is None
    assert black.play("a2-a1").outcome() == (0, 1)
    last = position(ORDO, {"c3": "w", "c4": "b"})
    assert last.play("c3xc4").outcome() == (1, 0)


def test_singletons_capture_ordos_do_not():
    state = position(ORDO, {"c3": "w", "d3": "w", "c5": "b", "d4": "b", "j8": "b"})
    got = notations(state)
    assert "c3-c4" in got and "c3xd4" in got
    assert not any(":" in n and "x" in n for n in got)
    assert "c3:d3-c4" not in got  # d4 blocks the ordo


def test_ordo_moves_perpendicular_only():
    state = position(ORDO, {"c3": "w", "d3": "w", "e3": "w", "f5": "w", "f4": "w",
                            "j8": "b"})
    got = {n for n in notations(state) if ":" in n}
    assert "c3:e3-c4" in got and "c3:e3-c5" in got  # horizontal ordos forward
    assert "f4:f5-e4" in got  # vertical ordos sideways
    assert not any(n.startswith("c3:e3-b3") or n.startswith("c3:d3-a3") for n in got)
    assert "f4:f5-f6" not in got  # no single file
    assert "c3:e3-d4" not in got  # no diagonal ordo moves
    assert "c3:d3-c2" not in got  # no backward moves while connected


def test_move_limit_draw():
    game = boardlab.load("ordo", move_limit=10)
    state = position(game, {"c3": "w", "d3": "w", "c6": "b", "d6": "b"}, extra="ply:10")
    assert state.outcome() == (0.5, 0.5) and state.legal_moves() == []


def test_closure_and_group_moves():
    state = position(ORDO, {"b2": "w", "c2": "w", "d2": "w", "e2": "w", "j8": "b"})
    move = state.parse_move("b2:e2-b4")
    b2 = ORDO.board.cell("b2")
    assert ORDO.closure(state, [b2], move) == [b2]  # a broadside move pushes nobody
    cells = [ORDO.board.cell(c) for c in ("b2", "c2", "d2", "e2")]
    assert moved_pieces(state, move) == frozenset(cells)
    assert sorted(m.notation for m in ORDO.group_moves(state, cells)) == \
        sorted(n for n in notations(state) if n.startswith("b2:e2-"))
    single = ORDO.group_moves(state, [ORDO.board.cell("e2")])
    assert {m.notation for m in single} >= {"e2-e3", "e2-d3"}


def test_line_closure_grows_along_an_in_line_push():
    state = position(ORDO_X, {"c2": "w", "c3": "w", "c4": "w", "j8": "b", "j7": "b"})
    move = state.parse_move("c2:c4-c4")
    board = ORDO_X.board
    grown = ORDO_X.closure(state, [board.cell("c2")], move)
    assert sorted(grown) == sorted(board.cell(c) for c in ("c2", "c3", "c4"))
    assert ORDO_X.group_moves(state, grown) == [m for m in state.legal_moves()
                                                if m.notation.startswith("c2:c4-")]


# --- Ordo X rules --------------------------------------------------------------------------------
def test_ordo_x_diagonal_and_in_line_ordo_moves():
    state = position(ORDO_X, {"c3": "w", "d3": "w", "f4": "w", "f5": "w", "e3": "w",
                              "j8": "b", "j7": "b"})
    got = notations(state)
    assert "c3:d3-d4" in got  # diagonal
    assert "c3:c4-c4" in notations(position(ORDO_X, {"c3": "w", "c4": "w", "j8": "b"}))
    assert "c3:e3-d3" in got  # sideways in line
    assert "c3:e3-c2" not in got  # never backward


def test_ordo_x_sideways_move_needs_a_forward_move():
    state = position(ORDO_X, {"c3": "w", "d3": "w", "c4": "w", "j8": "b", "j7": "b"})
    half = state.play("c3-b3")
    assert half.to_move == 0 and half.pending and str(half).endswith("sideways")
    assert ORDO_X.parse_state(str(half)) == half
    got = notations(half)
    assert got and all(a.target // W > a.source // W for m in half.legal_moves()
                       for a in m.actions if hasattr(a, "source"))  # forward only
    assert "b3-a3" not in got and "d3-e3" not in got
    done = half.play("b3-b4")
    assert done.to_move == 1 and not done.pending
    forward = state.play("d3-d4")
    assert forward.to_move == 1 and not forward.pending


def test_ordo_x_capture_removes_smaller_subgroups():
    # Black b7 c7 d6 e7: the capture on d6 leaves b7-c7 and e7; the larger part stays.
    state = position(ORDO_X, {"c5": "w", "d5": "w", "b7": "b", "c7": "b", "d6": "b",
                              "e7": "b"})
    move = state.parse_move("d5xd6")
    after = state.play(move)
    assert after.piece_at(ORDO_X.board.cell("e7")) is None
    assert after.piece_at(ORDO_X.board.cell("b7")) is not None


def test_ordo_x_capturer_chooses_between_equal_subgroups():
    state = position(ORDO_X, {"c5": "w", "d5": "w", "c7": "b", "d6": "b", "e7": "b"})
    got = {n for n in notations(state) if n.startswith("d5xd6")}
    assert got == {"d5xd6/c7", "d5xd6/e7"}
    kept = state.play("d5xd6/e7")
    assert kept.piece_at(ORDO_X.board.cell("c7")) is None
    assert kept.piece_at(ORDO_X.board.cell("e7")) is not None
    with pytest.raises(IllegalMoveError):
        state.parse_move("d5xd6")


def test_ordo_x_has_no_reconnection_moves():
    state = position(ORDO_X, {"a3": "w", "c1": "w", "d1": "w", "j8": "b", "j7": "b"})
    assert not any(n.startswith("a3-a2") or n.startswith("a3-b2") for n in notations(state))


@pytest.mark.parametrize("name", ["ordo", "ordo-x"])
def test_the_connection_rule_answers_the_same_before_and_after_the_move(name):
    # Every candidate move (the rules without the invariant), legal or not: the mask
    # form asked before the move against the rule read on the position after it.
    import dataclasses

    from boardlab.core.rules import StaysConnected

    stays_connected = StaysConnected()
    game = boardlab.load(name)
    loose = dataclasses.replace(game.move_rules, invariants=())
    rng = random.Random(name)
    asked = refused = 0
    for _ in range(4):
        # A plain position, which plays the moves the invariant refuses.
        state = game.using(Engine.INTERPRETER).initial_state()
        for _ in range(30):
            if state.is_terminal():
                break
            player = state.to_move
            for move in loose._generate(state):
                before = stays_connected.before(state, move.actions, player)
                state.apply(move)
                after = stays_connected(state, move, player)
                state.undo()
                assert before == after, (str(state), move)
                asked += 1
                refused += not after
            state.apply(rng.choice(state.legal_moves()))
    assert asked > 1000 and refused > 10


# --- the end as goals against the old Python code ------------------------------------
def old_result(game, state):
    """Ordo's (and Ordo X's) ``result`` as it was written in Python before the end
    became goals, kept here as the reference: the home row reached, a side without
    pieces, or the move limit."""
    cells = state.cells
    last = W * (H - 1)
    for x in range(W):
        if cells[last + x] == WHITE:
            return win_for(0)
        if cells[x] == BLACK:
            return win_for(1)
    owners = {p.owner for p in cells if p is not None}
    if len(owners) < 2:
        return win_for(owners.pop() if owners else 1 - state.to_move)
    if state.ply >= game.options["move_limit"]:
        return DRAW
    return None


@pytest.mark.parametrize(("name", "move_limit", "seeds"), [
    ("ordo", 300, range(0, 70)), ("ordo", 40, range(70, 100)),
    ("ordo-x", 400, range(100, 170)), ("ordo-x", 40, range(170, 200))])
def test_the_goals_end_games_as_the_old_python_code(name, move_limit, seeds):
    # 200 random games in all; the short limits reach draws.
    game = boardlab.load(name, move_limit=move_limit)
    assert kernel.why_not(game) is None
    assert isinstance(game.initial_state(), kernel.KernelPosition)
    met = ends_as_reference(game, old_result, seeds)
    assert met[win_for(0)] and met[win_for(1)] and (move_limit > 40 or met[DRAW])
