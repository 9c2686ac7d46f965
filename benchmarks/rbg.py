"""Random playouts per CPU-second: boardlab against Regular Boardgames (RBG), side by side.

RBG (Kowalski, Maksymilian, Sironi, Szykuła; https://github.com/marekesz/rbg) compiles a
game description into a C++ reasoner with ``rbg2cpp`` (https://github.com/uicus/rbg2cpp);
its flat Monte-Carlo benchmark (``test/benchmark.cpp`` there) plays uniformly random games
from the initial position for a given time and prints how many it played. This script
builds that benchmark and RBG's perft for each game from checkouts you fetched (the
games from https://github.com/marekesz/rbgGames), with the flags of rbg2cpp's Makefile
(``-Ofast -march=native -flto``), in a cached folder (``~/.cache/boardlab/rbg``). Then,
per game, ``--rounds`` rounds of: RBG's benchmark for about ``--seconds`` (of the wall
clock, where it stops), and about as many CPU-seconds of boardlab's public API -- a
fresh ``initial_state()``, then ``legal_moves()``, a move drawn by a seeded
``random.Random``, ``apply()``, until ``is_terminal()`` (the loop of
``benchmarks/playouts.py``) -- and as many CPU-seconds of boardlab's batch,
:meth:`~boardlab.core.game.State.playouts` (``N`` games in one call: compiled whole in
the kernel for a kernel game, the same loop in Python for another; its plies per playout
are taken as the loop's, both being uniformly random games of one game). Both sides are
counted per CPU-second, since the machine may
be shared: RBG's child process by its rusage, boardlab by ``time.process_time``. The
table shows each side's median over the rounds, the ratio boardlab/RBG, each side's
plies per playout, which are about equal when the two play the same game, and the ratio
of plies per CPU-second, the fairer one where they are not.

Before the timing, perft at depths 1..N from the initial position on both sides (RBG's
``test/perft.cpp``, boardlab's :func:`boardlab.perft`); any count that differs is
printed and makes the exit status 1.

The games and what differs between the two sides:

* Breakthrough 8x8: RBG ``breakthrough.rbg``, boardlab's built-in ``breakthrough``.
* Connect Four 6x7: ``connect4.rbg``, built-in ``connect-four`` (written in the move
  language, on its game kernel, as ``connect-four-zrf`` below).
* Reversi: ``reversi.rbg``, built-in ``othello`` (a pass is a ply on both sides; written
  in the move language, on its game kernel, its discs' colours their types).
* The same two written in the move language, on their game kernels:
  ``connect-four-zrf`` (``examples/zrf/connect-four.zrf``: a drop falls by a while loop,
  four in a row by relative-config goals) and ``reversi-zrf`` (``examples/zrf/reversi.zrf``:
  a drop flips what it flanks; a forced pass).
* Chess: ``chess_200.rbg`` -- RBG's ``chess.rbg`` with the fifty-move rule replaced by a
  cap of 200 plies -- with the cap set to boardlab's ply cap for ``chess.zrf``
  (``max_moves``, 1000), against ``chess/chess.zrf``. The ZRF file also makes a
  threefold repetition lose for the player who repeats; RBG's chess has no such rule.
* English checkers: ``englishDraughts.rbg``, unchanged (a draw after 20 plies without a
  capture or a man's move), against ``checkers/english-checkers.zrf`` (no such rule; a
  threefold repetition loses for the repeater, a draw at 1000 plies).

Usage: ``python benchmarks/rbg.py --rbg2cpp PATH --rbg-games PATH [--seconds 3]
[--rounds 3] [--games breakthrough,chess] [--json]``. ``PATH`` of rbg2cpp is a checkout
with its ``rbgParser`` submodule; ``bin/rbg2cpp`` is built with ``make`` when missing. The
reasoners need g++ (C++17) and Boost's headers (``libboost-dev``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # benchmarks.playouts, when run as a script

from benchmarks.playouts import random_game  # noqa: E402

import boardlab  # noqa: E402
from boardlab.core.game import Game  # noqa: E402
from boardlab.zrf.game import load_game  # noqa: E402

ZRF_FOLDER = ROOT / "tests" / "data" / "zrf"
CACHE = Path.home() / ".cache" / "boardlab" / "rbg"

#: The release flags of rbg2cpp's Makefile (RELEASE_FLAGS, random generator 0: the
#: Mersenne Twister with Lemire's unbiased choice).
CXX_FLAGS = ("-Wall", "-Wextra", "-Wpedantic", "-std=c++17", "-Ofast", "-march=native",
             "-flto", "-s", "-DNDEBUG", "-DRBG_RANDOM_GENERATOR=0")


@dataclass(frozen=True)
class Comparison:
    """One game on both sides: RBG's file (and the edit made to a copy of it), boardlab's
    registered game or ZRF file, the perft depth, and what differs."""

    name: str
    rbg_file: str
    boardlab: str
    perft_depth: int
    note: str = ""
    cap_to_ply_limit: bool = False

    def load(self) -> Game:
        """boardlab's game: a registered name, or a ``.zrf`` path under tests/data/zrf
        (or under the repository when it starts with ``examples/``)."""
        if self.boardlab.startswith("examples/"):
            return load_game(ROOT / self.boardlab)
        if self.boardlab.endswith(".zrf"):
            return load_game(ZRF_FOLDER / self.boardlab)
        return boardlab.load(self.boardlab)


COMPARISONS = (
    Comparison("breakthrough", "breakthrough.rbg", "breakthrough", 4),
    Comparison("connect-four", "connect4.rbg", "connect-four", 8,
               "boardlab's built-in connect-four, written in the move language, on its "
               "kernel"),
    Comparison("reversi", "reversi.rbg", "othello", 8,
               "boardlab's built-in othello, written in the move language, on its kernel"),
    Comparison("connect-four-zrf", "connect4.rbg", "examples/zrf/connect-four.zrf", 8,
               "boardlab: connect four written in the move language, on its kernel"),
    Comparison("reversi-zrf", "reversi.rbg", "examples/zrf/reversi.zrf", 8,
               "boardlab: reversi written in the move language, on its kernel"),
    Comparison("chess", "chess_200.rbg", "chess/chess.zrf", 4,
               "RBG: no fifty-move rule, capped at boardlab's ply cap; boardlab: a "
               "threefold repetition loses for the repeater", cap_to_ply_limit=True),
    Comparison("english-checkers", "englishDraughts.rbg", "checkers/english-checkers.zrf",
               7, "RBG: a draw after 20 plies without a capture or a man's move; boardlab: "
               "a threefold repetition loses for the repeater, a draw at 1000 plies"),
)


# --- RBG's text: the cap edit and the programs' output --------------------------------------

_TURN_CAP = re.compile(r"\bturnCount\((\d+)\)")


def set_turn_cap(text: str, plies: int) -> str:
    """RBG's capped chess (``chess_200.rbg``) with its cap set to ``plies``.

    The file counts turns (one per ply) in the variable ``turnCount``, whose declared
    bound, ``turnCount < N`` test and ``turnCount == N`` test are the cap; all three
    change, each exactly once, or :class:`ValueError` says the file is not the one
    expected. A comment line at the top records the edit.

    >>> print(set_turn_cap("turnCount(200) {$ turnCount < 200} {$ turnCount == 200}", 9))
    // boardlab: cap set from 200 to 9 plies
    turnCount(9) {$ turnCount < 9} {$ turnCount == 9}
    """
    found = _TURN_CAP.search(text)
    if found is None:
        raise ValueError("no turnCount(N) variable: not RBG's capped chess")
    old = found.group(1)
    for form in (f"turnCount({old})", f"turnCount < {old}", f"turnCount == {old}"):
        if text.count(form) != 1:
            raise ValueError(f"expected {form!r} exactly once, found it "
                             f"{text.count(form)} times")
        text = text.replace(form, form.replace(old, str(plies)))
    return f"// boardlab: cap set from {old} to {plies} plies\n{text}"


@dataclass(frozen=True)
class RbgBenchmarkOutput:
    """What RBG's flat MC benchmark prints: playouts, plies (its 'states') and the
    wall-clock milliseconds it ran."""

    playouts: int
    plies: int
    milliseconds: int


def _field(pattern: str, text: str, program: str) -> int:
    found = re.search(pattern, text, re.MULTILINE)
    if found is None:
        raise ValueError(f"{program}'s output has no {pattern!r}:\n{text}")
    return int(found.group(1))


def parse_benchmark(text: str) -> RbgBenchmarkOutput:
    """The counts of RBG's ``test/benchmark.cpp`` output; :class:`ValueError` if absent."""
    return RbgBenchmarkOutput(
        playouts=_field(r"^number of playouts: (\d+) ", text, "benchmark"),
        plies=_field(r"^number of states: (\d+) ", text, "benchmark"),
        milliseconds=_field(r"^time: (\d+) ms$", text, "benchmark"))


def parse_perft(text: str) -> int:
    """The leaf count of RBG's ``test/perft.cpp`` output; :class:`ValueError` if absent."""
    return _field(r"^perft: (\d+)$", text, "perft")


# --- building RBG's programs ------------------------------------------------------------------

def _run(command: list[str | Path], cwd: Path | None = None) -> None:
    done = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(map(str, command))}\n"
                         f"{done.stdout}{done.stderr}")


def git_commit(path: Path) -> str | None:
    """The commit checked out at ``path``, or None when it is not a git work tree."""
    done = subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"],
                          capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else None


def compiler(rbg2cpp: Path) -> Path:
    """rbg2cpp's compiler, built with its Makefile when missing."""
    binary = rbg2cpp / "bin" / "rbg2cpp"
    if binary.exists():
        return binary
    if not (rbg2cpp / "rbgParser" / "src").is_dir():
        raise SystemExit(f"{rbg2cpp}/rbgParser is empty: run `git submodule update --init` "
                         "there (or clone uicus/rbgParser into it)")
    print(f"building rbg2cpp in {rbg2cpp} ...", file=sys.stderr)
    _run(["make", "rbg2cpp"], cwd=rbg2cpp)
    return binary


@dataclass(frozen=True)
class Reasoner:
    """RBG's two programs for one game, and the description they were built from."""

    folder: Path
    description: str

    @property
    def benchmark(self) -> Path:
        """The flat MC benchmark: argument the milliseconds to play."""
        return self.folder / "benchmark"

    @property
    def perft(self) -> Path:
        """The perft program: argument the depth."""
        return self.folder / "perft"


def build(rbg2cpp: Path, description: str, stem: str, cache: Path) -> Reasoner:
    """RBG's benchmark and perft for the game ``description`` (RBG text), in a folder of
    ``cache`` named by a digest of everything that goes into them, so a build is reused
    until the file, the compiler, the test programs or the flags change."""
    binary = compiler(rbg2cpp)
    tests = rbg2cpp / "test"
    digest = hashlib.sha256(description.encode())
    for part in (binary, tests / "benchmark.cpp", tests / "perft.cpp",
                 tests / "rbg_random_generator.hpp"):
        digest.update(part.read_bytes())
    digest.update(" ".join(CXX_FLAGS).encode())
    folder = cache / f"{stem}-{digest.hexdigest()[:12]}"
    reasoner = Reasoner(folder, description)
    if reasoner.benchmark.exists() and reasoner.perft.exists():
        return reasoner
    print(f"building RBG's {stem} in {folder} ...", file=sys.stderr)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    (folder / f"{stem}.rbg").write_text(description)
    _run([binary, "-o", "reasoner", f"{stem}.rbg"], cwd=folder)
    _run(["g++", *CXX_FLAGS, "-c", "-o", "reasoner.o", "reasoner.cpp"], cwd=folder)
    # Each test program finds reasoner.hpp through -I and its own headers beside it.
    for program in ("perft", "benchmark"):
        _run(["g++", *CXX_FLAGS, "-I", folder, "-o", f"{program}.tmp", "reasoner.o",
              tests / f"{program}.cpp"], cwd=folder)
        (folder / f"{program}.tmp").rename(folder / program)
    return reasoner


# --- measuring ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Sample:
    """Playouts and plies played in ``cpu_seconds`` of CPU time."""

    playouts: int
    plies: int
    cpu_seconds: float

    @property
    def rate(self) -> float:
        """Playouts per CPU-second."""
        return self.playouts / self.cpu_seconds

    @property
    def plies_rate(self) -> float:
        """Plies per CPU-second."""
        return self.plies / self.cpu_seconds


def run_rbg(command: list[str | Path]) -> tuple[str, float]:
    """The output of RBG's program and the CPU seconds (user and system) it used."""
    # Nothing else is reaped in between, so the children's usage grows by this child's.
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{command[0]} failed ({done.returncode}):\n{done.stdout}"
                         f"{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return done.stdout, cpu


def rbg_sample(reasoner: Reasoner, seconds: float) -> Sample:
    """RBG's flat MC for about ``seconds`` (it stops on the wall clock)."""
    text, cpu = run_rbg([reasoner.benchmark, str(round(seconds * 1000))])
    counts = parse_benchmark(text)
    return Sample(counts.playouts, counts.plies, cpu)


def batch_sample(game: Game, seconds: float, seed: int) -> Sample:
    """Uniformly random games through :meth:`State.playouts` for about ``seconds`` of
    CPU, in calls of growing batches (plies not counted: -1)."""
    state = game.initial_state()
    playouts, n = 0, 1
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        playouts += state.playouts(n, seed + playouts).games
        n = min(2 * n, 1 << 16)
    return Sample(playouts, -1, elapsed)


def boardlab_sample(game: Game, seconds: float, rng: random.Random) -> Sample:
    """Uniformly random games through boardlab's public API for about ``seconds`` of CPU."""
    playouts = plies = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        plies += random_game(game.initial_state(), rng)
        playouts += 1
    return Sample(playouts, plies, elapsed)


@dataclass
class Result:
    """One game's figures: the samples of each side and the perft counts."""

    comparison: Comparison
    rbg_edit: str
    rbg: list[Sample] = field(default_factory=list)
    ours: list[Sample] = field(default_factory=list)
    batch: list[Sample] = field(default_factory=list)
    perft_rbg: list[int] = field(default_factory=list)
    perft_ours: list[int] = field(default_factory=list)

    @property
    def perft_agrees(self) -> bool:
        return self.perft_rbg == self.perft_ours

    def median(self, samples: list[Sample]) -> float:
        """The median playouts per CPU-second of ``samples``."""
        return statistics.median(s.rate for s in samples)

    @property
    def ratio(self) -> float:
        """boardlab's median rate over RBG's."""
        return self.median(self.ours) / self.median(self.rbg)

    @property
    def batch_ratio(self) -> float:
        """boardlab's batch median rate over RBG's."""
        return self.median(self.batch) / self.median(self.rbg)

    @property
    def ply_ratio(self) -> float:
        """boardlab's median plies per CPU-second over RBG's: the fairer figure where
        the two sides' games differ in length."""
        return (statistics.median(s.plies_rate for s in self.ours)
                / statistics.median(s.plies_rate for s in self.rbg))

    def as_json(self) -> dict[str, object]:
        """The figures as plain data."""
        def side(samples: list[Sample]) -> dict[str, object]:
            return {"playouts_per_cpu_second": [round(s.rate, 3) for s in samples],
                    "median": round(self.median(samples), 3),
                    "plies_per_cpu_second": [round(s.plies_rate) for s in samples],
                    "plies_per_playout": round(plies_per_playout(samples), 2)}
        c = self.comparison
        return {"game": c.name, "rbg_file": c.rbg_file, "rbg_edit": self.rbg_edit,
                "boardlab_game": c.boardlab, "note": c.note, "rbg": side(self.rbg),
                "boardlab": side(self.ours), "ratio": round(self.ratio, 6),
                "boardlab_batch": {"playouts_per_cpu_second":
                                   [round(s.rate, 3) for s in self.batch],
                                   "median": round(self.median(self.batch), 3)},
                "batch_ratio": round(self.batch_ratio, 6),
                "ply_ratio": round(self.ply_ratio, 6),
                "perft": {"depth": c.perft_depth, "rbg": self.perft_rbg,
                          "boardlab": self.perft_ours, "agree": self.perft_agrees}}


def compare(comparison: Comparison, rbg2cpp: Path, rbg_games: Path, cache: Path,
            seconds: float, rounds: int, say: Callable[[str], None]) -> Result:
    """Build RBG's programs for ``comparison``, count perft on both sides, then time
    both sides alternately for ``rounds`` rounds."""
    game = comparison.load()
    description = (rbg_games / "games" / comparison.rbg_file).read_text()
    edit = "none"
    if comparison.cap_to_ply_limit:
        cap = game.ruleset.ply_limit  # type: ignore[attr-defined]
        description = set_turn_cap(description, cap)
        edit = f"turnCount cap set to {cap} plies"
    reasoner = build(rbg2cpp, description, Path(comparison.rbg_file).stem, cache)
    result = Result(comparison, edit)

    depth = comparison.perft_depth
    result.perft_rbg = [parse_perft(run_rbg([reasoner.perft, str(d)])[0])
                        for d in range(1, depth + 1)]
    result.perft_ours = boardlab.perft(game.initial_state(), depth)
    say(f"{comparison.name}: perft 1..{depth} "
        + ("agree" if result.perft_agrees else
           f"DIFFER: RBG {result.perft_rbg}, boardlab {result.perft_ours}"))

    rng = random.Random(1)
    random_game(game.initial_state(), rng)  # compiles templates or kernels off the clock
    game.initial_state().playouts(1, 0)  # and the kernel's playouts
    for i in range(rounds):
        # Who goes first swaps each round, so a drift of the machine's load evens out.
        steps = [("RBG", result.rbg, lambda: rbg_sample(reasoner, seconds)),
                 ("boardlab", result.ours, lambda: boardlab_sample(game, seconds, rng)),
                 ("boardlab batch", result.batch,
                  lambda i=i: batch_sample(game, seconds, 1000003 * (i + 1)))]
        for label, samples, measure in steps if i % 2 == 0 else steps[::-1]:
            sample = measure()
            samples.append(sample)
            say(f"{comparison.name}: round {i + 1} {label} {sample.rate:,.1f} playouts/CPU-s "
                f"({sample.playouts} in {sample.cpu_seconds:.2f} s)")
    return result


# --- output ---------------------------------------------------------------------------------

def plies_per_playout(samples: list[Sample]) -> float:
    """The mean length of the playouts of ``samples``."""
    return sum(s.plies for s in samples) / sum(s.playouts for s in samples)


def table(results: list[Result]) -> str:
    """The figures as a plain text table, with the notes below it."""
    lines = [f"{'':<18}{'playouts per CPU-second (median)':^67}"
             f"{'plies/playout':^20}{'loop/RBG':>13}",
             f"{'game':<18}{'RBG':>13}{'loop':>13}{'loop/RBG':>14}{'batch':>13}"
             f"{'batch/RBG':>14}{'RBG':>10}{'boardlab':>10}{'per ply':>13}  perft"]
    for r in results:
        perft = (f"agree to depth {r.comparison.perft_depth}" if r.perft_agrees
                 else f"DIFFER: RBG {r.perft_rbg} boardlab {r.perft_ours}")
        lines.append(f"{r.comparison.name:<18}{r.median(r.rbg):>13,.0f}"
                     f"{r.median(r.ours):>13,.1f}{r.ratio:>14.4g}"
                     f"{r.median(r.batch):>13,.1f}{r.batch_ratio:>14.4g}"
                     f"{plies_per_playout(r.rbg):>10.1f}{plies_per_playout(r.ours):>10.1f}"
                     f"{r.ply_ratio:>13.4g}  {perft}")
    lines.append("")
    for r in results:
        c = r.comparison
        notes = [f"RBG {c.rbg_file} (edit: {r.rbg_edit}) vs boardlab {c.boardlab}"]
        if c.note:
            notes.append(c.note)
        lines.append(f"  {c.name}: " + "; ".join(notes))
    return "\n".join(lines)


def main() -> None:
    """Parse the arguments, run the comparisons, print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rbg2cpp", type=Path, required=True,
                        help="a checkout of uicus/rbg2cpp with its rbgParser submodule")
    parser.add_argument("--rbg-games", type=Path, required=True,
                        help="a checkout of marekesz/rbgGames")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="seconds of each side's playouts per round: RBG's on the wall "
                        "clock, boardlab's on the CPU clock (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per game (default 3)")
    names = [c.name for c in COMPARISONS]
    parser.add_argument("--games", default=",".join(names),
                        help=f"comma-separated, of {', '.join(names)} (default all)")
    parser.add_argument("--cache", type=Path, default=CACHE,
                        help=f"where RBG's programs are built (default {CACHE})")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()

    chosen = [n.strip() for n in args.games.split(",") if n.strip()]
    unknown = sorted(set(chosen) - set(names))
    if unknown:
        parser.error(f"unknown games {', '.join(unknown)}; known: {', '.join(names)}")
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds positive")

    def say(line: str) -> None:
        print(line, file=sys.stderr if args.json else sys.stdout, flush=True)

    results = [compare(c, args.rbg2cpp, args.rbg_games, args.cache, args.seconds,
                       args.rounds, say)
               for c in COMPARISONS if c.name in chosen]
    if args.json:
        print(json.dumps({
            "date": time.strftime("%Y-%m-%d"), "machine": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "python": platform.python_version(),
            "rbg2cpp_commit": git_commit(args.rbg2cpp),
            "rbgParser_commit": git_commit(args.rbg2cpp / "rbgParser"),
            "rbgGames_commit": git_commit(args.rbg_games),
            "seconds": args.seconds, "rounds": args.rounds,
            "games": [r.as_json() for r in results]}, indent=2))
    else:
        print(f"\nRandom playouts per CPU-second from the initial position, median of "
              f"{args.rounds} rounds of about {args.seconds:g} s a side, alternating\n")
        print(table(results))
    if not all(r.perft_agrees for r in results):
        sys.exit(1)


if __name__ == "__main__":
    main()
