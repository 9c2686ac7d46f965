"""Move generation speed per game: legal moves per second from random positions.

For each game, seeded random games give a sample of positions (every position of
each game until the sample is full); the timed loop calls ``legal_moves()`` on
fresh copies of them (parsed from their text form, so no cached move list helps).
Printed per game: positions, mean legal moves per position, positions per second
and moves per second.

The named baseline is each game's independent reference generator from its test
file (plain Python on a plain array board, written apart from the move language to
check it; ``REFERENCE`` below names it): the same positions, its moves per second,
and the engine/reference ratio (above 1: the engine is faster).

Usage: ``python benchmarks/movegen.py [--positions 300] [games ...]`` from the
repository root (the references are imported from ``tests/``).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import random
import sys
import time
from pathlib import Path

import boardlab
from boardlab.core.engine import Engine
from boardlab.core.position import PieceGame

# The reference generators live in the test files, importable from the repository root.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

GROUP_GAMES = ("abalone", "epaminondas", "ordo", "ordo-x", "taacoca", "gess",
               "hex-column-checkers", "breakthrough")


def _abalone(state) -> int:
    t = importlib.import_module("tests.games.test_abalone")
    return len(t.reference_moves(t.board_of(state), state.to_move))


def _epaminondas(state) -> int:
    t = importlib.import_module("tests.games.test_epaminondas")
    game = state.game
    return len(t.reference_moves(t.as_reference(state), state.to_move, game.width,
                                 game.height))


def _ordo(state) -> int:
    t = importlib.import_module("tests.games.test_ordo")
    return len(t.reference_moves(*t.as_reference(state), state.game.name == "ordo-x"))


def _taacoca(state) -> int:
    t = importlib.import_module("tests.games.test_taacoca")
    return len(t.ref_moves(t.as_ref(state), state.to_move))


def _gess(state) -> int:
    t = importlib.import_module("tests.games.test_gess")
    return len(t.ref_moves(t.as_ref(state), state.to_move))


def _hex_column_checkers(state) -> int:
    t = importlib.import_module("tests.games.test_hex_column_checkers")
    board = t.RefBoard(t.picture(t.WIDTHS["hexagon"]))
    return len(t.ref_moves(board, t.ref_position(board, state), state.to_move))


def _breakthrough(state) -> int:
    t = importlib.import_module("tests.games.test_breakthrough")
    options = state.game.options
    return len(t.reference_moves(t.as_reference(state), state.to_move, options["columns"],
                                 options["rows"]))


#: game -> its test file's reference generator, as a legal-move counter of a state.
REFERENCE = {"abalone": _abalone, "epaminondas": _epaminondas, "ordo": _ordo, "ordo-x": _ordo,
             "taacoca": _taacoca, "gess": _gess, "hex-column-checkers": _hex_column_checkers,
             "breakthrough": _breakthrough}


def sample_positions(name: str, count: int) -> list[str]:
    game = boardlab.load(name)
    rng = random.Random(f"movegen:{name}")
    texts: list[str] = []
    while len(texts) < count:
        state = game.initial_state()
        while not state.is_terminal() and len(texts) < count:
            texts.append(str(state))
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
    return texts


def _timed(game, texts: list[str]) -> tuple[int, float]:
    """Legal moves of the positions, each parsed afresh, and the seconds they took."""
    states = [game.parse_state(t) for t in texts]
    if hasattr(game, "move_rules"):
        game.move_rules._cache.clear()  # games that keep recent move lists start cold
    # Every timing starts from a collected heap: otherwise whichever comes first in the
    # process pays for the collector's first full passes over numba's many objects.
    gc.collect()
    started = time.perf_counter()
    moves = sum(len(s.legal_moves()) for s in states)
    return moves, time.perf_counter() - started


def measure(name: str, count: int) -> None:
    game = boardlab.load(name)
    texts = sample_positions(name, count)
    # Plain positions: the interpreter (hex column checkers has no other engine).
    plain = game.using(Engine.INTERPRETER) if isinstance(game, PieceGame) else game
    _timed(plain, texts[:5])
    interpreted_moves, interpreted_seconds = _timed(plain, texts)
    _timed(game, texts[:5])  # load the kernel outside the timing
    moves, seconds = _timed(game, texts)
    assert moves == interpreted_moves, f"{name}: kernel {moves}, interpreted {interpreted_moves}"
    line = (f"{name:22} {len(texts):6} {moves / len(texts):8.1f} "
            f"{len(texts) / seconds:12,.0f} {interpreted_moves / interpreted_seconds:12,.0f} "
            f"{moves / seconds:12,.0f} {interpreted_seconds / seconds:8.2f}")
    if name in REFERENCE:
        reference = REFERENCE[name]
        fresh = [game.parse_state(t) for t in texts]
        reference(fresh[0])  # import outside the timing
        gc.collect()
        started = time.perf_counter()
        ref_moves = sum(reference(s) for s in fresh)
        ref_seconds = time.perf_counter() - started
        assert ref_moves == moves, f"{name}: reference counts {ref_moves}, engine {moves}"
        line += f" {ref_moves / ref_seconds:12,.0f} {ref_seconds / seconds:8.2f}"
    print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--positions", type=int, default=300)
    args = parser.parse_args()
    names = args.games or [n for n in GROUP_GAMES if n in boardlab.names()]
    print(f"{'game':22} {'pos.':>6} {'moves':>8} {'positions/s':>12} {'interp. m/s':>12} "
          f"{'moves/s':>12} {'x interp.':>8} {'ref moves/s':>12} {'x ref':>8}")
    for name in names:
        measure(name, args.positions)


if __name__ == "__main__":
    main()
