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

Usage: ``python benchmarks/movegen.py [--positions 300] [games ...]``.
"""

from __future__ import annotations

import argparse
import importlib
import random
import time

import boardlab

GROUP_GAMES = ("abalone", "epaminondas", "ordo", "ordo-x", "taacoca", "gess",
               "hex-column-checkers")
#: game -> (test module, function taking a state and returning its legal move count).
REFERENCE: dict[str, tuple[str, str]] = {}


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


def measure(name: str, count: int) -> None:
    game = boardlab.load(name)
    texts = sample_positions(name, count)
    states = [game.parse_state(t) for t in texts]
    started = time.perf_counter()
    moves = sum(len(s.legal_moves()) for s in states)
    seconds = time.perf_counter() - started
    line = (f"{name:22} {len(states):6} {moves / len(states):8.1f} "
            f"{len(states) / seconds:12,.0f} {moves / seconds:12,.0f}")
    if name in REFERENCE:
        module, function = REFERENCE[name]
        reference = getattr(importlib.import_module(module), function)
        fresh = [game.parse_state(t) for t in texts]
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
    print(f"{'game':22} {'pos.':>6} {'moves':>8} {'positions/s':>12} {'moves/s':>12} "
          f"{'ref moves/s':>12} {'ratio':>8}")
    for name in names:
        measure(name, args.positions)


if __name__ == "__main__":
    main()
