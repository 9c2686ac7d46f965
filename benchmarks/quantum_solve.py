"""Quantum tic-tac-toe solved: the exact value of the empty board for every scoring and
preset, with node counts and times, and the compiled solver against the named
baseline, boardlab's generic alpha-beta over the game's Python rules.

Published values to compare with: Ishizeki and Matsuura, "Solving Quantum Tic-Tac-Toe"
(narrow win: the first player wins; complete win: a draw); Kumar, Ang and Chai,
"Generalized Quantum Tic-Tac-Toe" (1 and 1/2 points: X wins by half a point).

Usage: ``python benchmarks/quantum_solve.py [--positions 8] [--made 6] [--table-bits 24]``.
The first run also compiles the kernel (cached afterwards in ``__pycache__``).
"""

from __future__ import annotations

import argparse
import random
import time
from fractions import Fraction

import boardlab
from boardlab.ai.exact import QuantumSolver, solve_generic, solve_position

PUBLISHED = {"narrow": "X wins (Ishizeki & Matsuura)", "complete": "draw (Ishizeki & Matsuura)",
             "goff-points": "X wins by 1/2 (Kumar, Ang & Chai)"}
RULE_SETS = [("scoring=goff-points (Goff)", {}), ("scoring=narrow", {"scoring": "narrow"}),
             ("scoring=complete", {"scoring": "complete"}),
             ("scoring=axiom", {"scoring": "axiom"}),
             *((f"preset={p}", {"preset": p}) for p in
               ("axiom-qttt-1", "axiom-qttt-2", "axiom-losing-1", "axiom-losing-2", "dagaz"))]


def empty_board(table_bits: int) -> None:
    print("Empty board, exact value (X's points minus O's)")
    print(f"{'rules':32} {'value':>6} {'best':>9} {'nodes':>12} {'seconds':>8} "
          f"{'nodes/s':>10}  published")
    for label, options in RULE_SETS:
        game = boardlab.load("quantum-tic-tac-toe", **options)
        report = solve_position(game.initial_state(), table_bits=table_bits)
        published = PUBLISHED.get(options.get("scoring", "goff-points") if "preset" not in
                                  options else "", "")
        print(f"{label:32} {str(report.value):>6} {report.best.notation:>9} "
              f"{report.nodes:>12,} {report.seconds:>8.2f} "
              f"{report.nodes / report.seconds:>10,.0f}  {published}")


#: One first move per symmetry class of square pairs.
FIRST_MOVES = ("X1:1-9", "X1:1-3", "X1:1-2", "X1:1-6", "X1:1-5", "X1:2-8", "X1:2-4", "X1:2-5")


def first_moves(table_bits: int) -> None:
    """The value of every first move (one per symmetry class) under narrow and complete
    scoring; published (boardgames.stackexchange q. 7085, after Ishizeki and Matsuura):
    under narrow scoring X wins by playing in opposite corners."""
    print()
    print("Value of each first move (X's points minus O's), one per symmetry class")
    print(f"{'scoring':12} " + " ".join(f"{m:>7}" for m in FIRST_MOVES) + "  seconds")
    for scoring in ("narrow", "complete", "goff-points"):
        game = boardlab.load("quantum-tic-tac-toe", scoring=scoring)
        solver = QuantumSolver(game, table_bits=table_bits)
        t = time.perf_counter()
        values = [Fraction(solver.value(game.initial_state().play(m)), 2) for m in FIRST_MOVES]
        print(f"{scoring:12} " + " ".join(f"{str(v):>7}" for v in values)
              + f"  {time.perf_counter() - t:7.1f}")


def baseline(positions: int, made: int) -> None:
    game = boardlab.load("quantum-tic-tac-toe")
    rng = random.Random("quantum-benchmark")
    states = []
    while len(states) < positions:
        state = game.initial_state()
        while not state.is_terminal() and (state.made < made or state.pending):
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        if not state.is_terminal():
            states.append(state)
    solver = QuantumSolver(game, table_bits=16)
    solver.value(states[0])  # compile outside the timing
    compiled_seconds = generic_seconds = 0.0
    for state in states:
        fresh = QuantumSolver(game, table_bits=20)
        t = time.perf_counter()
        fast = Fraction(fresh.value(state), 2)
        compiled_seconds += time.perf_counter() - t
        t = time.perf_counter()
        slow = solve_generic(state).value
        generic_seconds += time.perf_counter() - t
        assert fast == slow, (str(state), fast, slow)
    print()
    print(f"{positions} random positions after {made} moves (Goff's rules), same values:")
    print(f"  baseline generic alpha-beta (Python rules): {generic_seconds:8.2f} s")
    print(f"  compiled solver:                            {compiled_seconds:8.2f} s  "
          f"({generic_seconds / compiled_seconds:,.0f}x faster)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--made", type=int, default=6)
    parser.add_argument("--table-bits", type=int, default=24)
    args = parser.parse_args()
    empty_board(args.table_bits)
    first_moves(args.table_bits)
    baseline(args.positions, args.made)


if __name__ == "__main__":
    main()
