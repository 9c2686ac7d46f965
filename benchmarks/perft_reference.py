"""Deep perft of the group-move games, engine against the independent references.

The tests compare each game with the brute-force generator of its test file to the
depth that fits the suite's time (usually 2); this script goes deeper (default 3)
from the start position: the engine's counts (boardlab.core.game.perft over the
game's move language), the reference's counts, the game's ``known_perft``, whether
all agree, and both times.

Usage (from the repository root): ``python benchmarks/perft_reference.py [--depth 3]
[games ...]``. GESS at depth 3 takes tens of minutes in each generator.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

import boardlab
from boardlab.core.game import perft

# The reference generators live in the test files, importable from the repository root.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _test(name: str):
    return importlib.import_module(f"tests.games.test_{name}")


def _abalone(state, depth):
    t = _test("abalone")
    return t.reference_perft(t.board_of(state), state.to_move, depth)


def _epaminondas(state, depth):
    t = _test("epaminondas")
    game = state.game
    return t.reference_perft(t.as_reference(state), state.to_move, depth, game.width,
                             game.height)


def _ordo(state, depth):
    t = _test("ordo")
    return t.reference_perft(*t.as_reference(state), state.game.name == "ordo-x", depth)


def _taacoca(state, depth):
    t = _test("taacoca")
    return t.ref_perft(t.as_ref(state), state.to_move, depth)


def _gess(state, depth):
    t = _test("gess")
    return t.ref_perft(t.as_ref(state), state.to_move, depth)


def _hex_column_checkers(state, depth):
    t = _test("hex_column_checkers")
    board = t.RefBoard(t.picture(t.WIDTHS["hexagon"]))
    return t.ref_perft(board, t.ref_position(board, state), state.to_move, depth)


REFERENCE = {"abalone": _abalone, "epaminondas": _epaminondas, "ordo": _ordo, "ordo-x": _ordo,
             "taacoca": _taacoca, "hex-column-checkers": _hex_column_checkers, "gess": _gess}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--depth", type=int, default=3)
    args = parser.parse_args()
    print(f"{'game':22} {'depth':>5} {'engine':>12} {'reference':>12} {'known':>12} {'ok':>3} "
          f"{'engine s':>9} {'ref s':>9}", flush=True)
    for name in args.games or list(REFERENCE):
        game = boardlab.load(name)
        start = game.initial_state()
        t = time.perf_counter()
        engine = perft(start, args.depth)
        engine_seconds = time.perf_counter() - t
        t = time.perf_counter()
        reference = REFERENCE[name](start, args.depth)
        reference_seconds = time.perf_counter() - t
        known = list(game.known_perft[: args.depth])
        for d in range(args.depth):
            k = known[d] if d < len(known) else None
            ok = engine[d] == reference[d] and (k is None or k == engine[d])
            print(f"{name:22} {d + 1:>5} {engine[d]:>12,} {reference[d]:>12,} "
                  f"{'-' if k is None else f'{k:,}':>12} {'yes' if ok else 'NO':>3} "
                  f"{engine_seconds if d == args.depth - 1 else 0:>9.1f} "
                  f"{reference_seconds if d == args.depth - 1 else 0:>9.1f}", flush=True)


if __name__ == "__main__":
    main()
