"""Game kernels over the ZRF corpus: which files get one, that they play exactly as the
interpreter does, and how much faster they play.

For every file of tests/data/zrf (its default variant):

* whether it gets a kernel (:func:`boardlab.core.kernel.why_not`), the reasons grouped;
* for those that do, ``--games`` seeded random games of at most ``--plies`` plies on a
  kernel position and on a plain one with every template interpreted, compared at every
  ply (legal moves in order, outcome, key, text, last move, captures) and again at
  every ply back by undo: the differences are listed (there should be none);
* side by side in the same run, random plies per second through the protocol loop
  (``legal_moves``/``apply``/``is_terminal``) on the kernel and on a plain position
  played by the interpreter (what every game had before kernels), and their ratio.

    python benchmarks/kernels.py [--games 3] [--plies 60] [--seconds 0.5] [files ...]

With ``--conformance`` it plays the rule files of tests/zrf/conformance instead, and
checks each file's own expectations (moves, perfts, positions, outcomes worked out from
the ZRF Language Reference) on its kernel too; the tests check a sample. With
``--examples``, the rule files of examples/zrf (chess, shogi, xiangqi... written for
boardlab; shogi's kernel takes minutes to compile).

The first run compiles each file's kernel (about two seconds a file; cached after).
"""

from __future__ import annotations

import argparse
import collections
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the tests' comparison of both positions

from boardlab.core import kernel  # noqa: E402
from boardlab.core.engine import Engine  # noqa: E402
from boardlab.errors import BoardlabError  # noqa: E402
from boardlab.zrf.game import load_game  # noqa: E402
from tests.core.test_kernel import play_both  # noqa: E402
from tests.zrf.test_conformance_entries import CONFORMANCE, failures  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "zrf"
EXAMPLES = ROOT / "examples" / "zrf"


def plies_per_second(game: object, kernels: bool, seconds: float) -> float:
    """Random plies a second through the protocol loop, new games as games end."""
    rng = random.Random(1)

    def start() -> object:
        engine = Engine.KERNEL if kernels else Engine.INTERPRETER
        return game.using(engine).initial_state()  # type: ignore[attr-defined]

    state, plies = start(), 0
    if state.is_terminal():  # type: ignore[attr-defined]
        return float("nan")  # a game over before it starts (a file's own choice)
    began = time.perf_counter()
    while (elapsed := time.perf_counter() - began) < seconds:
        for _ in range(50):
            if state.is_terminal() or state.ply >= 200:  # type: ignore[attr-defined]
                state = start()
            moves = state.legal_moves()  # type: ignore[attr-defined]
            state.apply(moves[rng.randrange(len(moves))])  # type: ignore[attr-defined]
            plies += 1
    return plies / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=0.5,
                        help="seconds of play per speed figure")
    parser.add_argument("--conformance", action="store_true",
                        help="the reference's rule files, their expectations checked too")
    parser.add_argument("--examples", action="store_true",
                        help="the rule files of examples/zrf")
    parser.add_argument("files", nargs="*", help="files under tests/data/zrf (default: all)")
    args = parser.parse_args()
    folder = CONFORMANCE if args.conformance else EXAMPLES if args.examples else CORPUS
    files = [folder / f for f in args.files] or sorted(
        folder.glob("*.zrf" if args.conformance or args.examples else "*/*.zrf"))

    reasons: collections.Counter[str] = collections.Counter()
    ratios: list[float] = []
    differing: list[str] = []
    print(f"{'file':<44}{'plies':>7}{'kernel plies/s':>16}{'plain plies/s':>15}{'ratio':>8}")
    for path in files:
        name = str(path.relative_to(folder))
        try:
            game = load_game(path)
            why = kernel.why_not(game)
        except BoardlabError as error:
            reasons[f"refused at load: {type(error).__name__}"] += 1
            continue
        if why is not None:
            reasons[why.split("'")[0].strip()] += 1
            continue
        try:
            plies = sum(play_both(game, seed, args.plies) for seed in range(args.games))
        except AssertionError:
            differing.append(name)
            print(f"{name:<44} DIFFERS from the interpreter")
            continue
        if args.conformance:
            with tempfile.TemporaryDirectory() as tmp:
                wrong = list(failures(path, Path(tmp), on_kernel=True))
            if wrong:
                differing.append(name)
                print(f"{name:<44} MISSES its expectations: " + "; ".join(wrong))
                continue
        fast = plies_per_second(game, True, args.seconds)
        plain = plies_per_second(game, False, args.seconds)
        if fast != fast:  # nan: nothing to play
            print(f"{name:<44}{plies:>7}   (the game is over at the start)")
            continue
        ratios.append(fast / plain)
        print(f"{name:<44}{plies:>7}{fast:>16,.0f}{plain:>15,.0f}{fast / plain:>8.1f}")
    played = len(files) - sum(reasons.values())
    print(f"\n{len(files)} files: {played} with a kernel, {len(differing)} of them differing "
          f"from the interpreter{' or their expectations' if args.conformance else ''}"
          f"{': ' + ', '.join(differing) if differing else ''}")
    if ratios:
        print(f"kernel / plain plies per second: median {statistics.median(ratios):.1f}x, "
              f"min {min(ratios):.1f}x, max {max(ratios):.1f}x")
    print("without a kernel:")
    for reason, count in reasons.most_common():
        print(f"  {count:>4}  {reason}")


if __name__ == "__main__":
    main()
