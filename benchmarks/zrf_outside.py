"""Node rates of the rule files written in Zillions' idiom (examples/zrf) against the
second implementations they are proven against (tests/zrf/test_outside_perft.py): the
same perft, counted by both, timed in CPU seconds of this process (one core).

The second implementation is driven through its Python API as the tests drive it:
python-chess is pure Python; OpenSpiel's games are C++ behind one Python call a node;
Fairy-Stockfish (pyffish) takes one call per inner node that parses the position anew,
so its rate here is far below the engine's own.

    python benchmarks/zrf_outside.py            # the depths of the fast tests
    python benchmarks/zrf_outside.py --deep     # the depths of the slow ones (minutes)
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess
import pyffish
import pyspiel

from boardlab.core.game import perft
from boardlab.zrf.game import load_game
from tests.zrf.test_outside_perft import (
    chess_perft,
    minishogi_perft,
    pyffish_perft,
    spiel_perft,
    spiel_turn_perft,
)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "zrf"


def _timed(count: Callable[..., list[int]], *args: Any) -> tuple[list[int], float]:
    started = time.process_time()
    counts = count(*args)
    return counts, time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deep", action="store_true", help="the slow tests' depths")
    deep = parser.parse_args().deep
    cases: list[tuple[str, str, int, Callable[[int], list[int]]]] = [
        ("chess.zrf", "python-chess", 4 if deep else 3,
         lambda d: chess_perft(chess.Board(), d)),
        ("xiangqi.zrf", "pyffish", 3 if deep else 2,
         lambda d: pyffish_perft(pyffish, "xiangqi", pyffish.start_fen("xiangqi"), d)),
        ("connect-four.zrf", "OpenSpiel", 8 if deep else 6,
         lambda d: spiel_perft(pyspiel.load_game("connect_four").new_initial_state(), d)),
        ("checkers.zrf", "OpenSpiel", 7 if deep else 6,
         lambda d: spiel_turn_perft(pyspiel.load_game("checkers").new_initial_state(), d)),
        ("reversi.zrf", "OpenSpiel", 8 if deep else 7,
         lambda d: spiel_perft(pyspiel.load_game("othello").new_initial_state(), d)),
        ("minishogi.zrf", "pyffish", 4 if deep else 3,
         lambda d: minishogi_perft(pyffish, pyffish.start_fen("minishogi"), d)),
    ]
    print(f"{'file':<18}{'depth':>6}{'nodes':>11}{'boardlab/s':>12}{'other/s':>12}"
          f"{'x':>8}  second implementation (x: its rate over boardlab's)")
    for name, other, depth, reference in cases:
        game = load_game(EXAMPLES / name, name=name)
        game.initial_state().legal_moves()  # compile the templates before timing
        mine, mine_seconds = _timed(perft, game.initial_state(), depth)
        theirs, their_seconds = _timed(reference, depth)
        assert mine == theirs[:depth], (name, mine, theirs)
        nodes = sum(mine)
        ours, others = nodes / mine_seconds, nodes / their_seconds
        print(f"{name:<18}{depth:>6}{nodes:>11,}{ours:>12,.0f}{others:>12,.0f}"
              f"{others / ours:>7.1f}x  {other}", flush=True)


if __name__ == "__main__":
    main()
