"""Random playouts per second: boardlab's three paths against OpenSpiel's C++ games.

Last, tic-tac-toe, Connect Four and Breakthrough (8x8, written in the move language)
through the same Python loop on both sides: ``legal_moves``/``apply``/``is_terminal``
on boardlab's protocol against ``legal_actions``/``apply_action``/``is_terminal`` on
OpenSpiel's C++ game; games per second and their ratio. Breakthrough plays on its game
kernel (:mod:`boardlab.core.kernel`) and again without it (plain positions, compiled
templates), so the kernel's gain shows too.

For tic-tac-toe and Connect Four (6x7), from the initial position, each figure is the
number of complete uniformly random games played per second of wall-clock time:

* boardlab generic: :meth:`State.rollout` of the protocol itself, a Python loop over
  ``legal_moves()``/``apply()``/``undo()`` -- what every game gets for free;
* boardlab ``rollout()``: one compiled (numba) playout per Python call -- Connect
  Four's bitboard kernel, tic-tac-toe's game kernel (it is written in the move
  language);
* boardlab fast batch: :meth:`State.playouts`, the same kernel playing N games in one
  call;
* OpenSpiel per game: ``pyspiel.evaluate_bots`` with two C++ uniform random bots, one
  Python call per game (the C++ loop over ``LegalActions``/``ApplyAction``);
* OpenSpiel batch: ``RandomRolloutEvaluator(N)`` run once at the root by a one-simulation
  ``MCTSBot.mcts_search``: N C++ random playouts in one Python call.

Then the games with a game kernel (:mod:`boardlab.core.kernel`): Breakthrough, Taacoca
and a ZRF file, in games per CPU-second (``time.process_time``: the machine may be
shared), each three ways -- the generic loop of :meth:`State.rollout` over the kernel
position (one kernel call a ply: what every kernel game had before its playouts were
compiled), its :meth:`~boardlab.core.game.State.rollout` (one kernel call a game) and
:meth:`~boardlab.core.game.State.playouts` (N games in one call) -- beside OpenSpiel's
C++ game where it has one (Breakthrough), per game and batch as above.

The ratios compare like with like: one game per Python call against OpenSpiel per
game, the batch against OpenSpiel's batch. OpenSpiel (``pip install open_spiel``, in
the ``bench`` extra) is optional; without it only boardlab's figures are printed.

Usage: ``python benchmarks/playouts.py [--seconds 1.0] [--part all|kernels]`` (seconds
per figure; ``kernels``: the games with a kernel only).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import boardlab
from boardlab.core import kernel
from boardlab.core.engine import Engine
from boardlab.core.game import Game, State
from boardlab.zrf.game import load_game


@dataclass(frozen=True)
class Subject:
    """One game as boardlab and OpenSpiel name it."""

    name: str
    openspiel_name: str


SUBJECTS = (Subject("tic-tac-toe", "tic_tac_toe"), Subject("connect-four", "connect_four"))


def per_call_rate(play_one: Callable[[], object], seconds: float,
                  clock: Callable[[], float] = time.perf_counter) -> float:
    """Calls of ``play_one`` per second of ``clock`` (wall time, or
    ``time.process_time``: per CPU-second of this process), over about ``seconds``."""
    play_one()  # compiles or loads the kernels before the clock starts
    n, chunk = 0, 10
    start = clock()
    while (elapsed := clock() - start) < seconds:
        for _ in range(chunk):
            play_one()
        n += chunk
    return n / elapsed


def batch_rate(play_many: Callable[[int], object], seconds: float, trial: int,
               clock: Callable[[], float] = time.perf_counter) -> float:
    """Games per second of ``clock`` of ``play_many(n)``, with ``n`` sized from a
    ``trial`` run so that the measured call lasts about ``seconds``."""
    play_many(trial)
    start = clock()
    play_many(trial)
    n = max(trial, int(trial * seconds / max(clock() - start, 1e-3)))
    start = clock()
    play_many(n)
    return n / (clock() - start)


def boardlab_rates(subject: Subject, seconds: float) -> dict[str, float]:
    state = boardlab.load(subject.name).initial_state()
    rng = random.Random(1)
    seeds = iter(range(1, 1 << 62))
    return {
        "generic": per_call_rate(lambda: State.rollout(state, rng), seconds),
        "rollout": per_call_rate(lambda: state.rollout(rng), seconds),
        "batch": batch_rate(lambda n: state.playouts(n, next(seeds)), seconds, 10_000),
    }


def openspiel_rates(pyspiel: ModuleType, subject: Subject, seconds: float) -> dict[str, float]:
    game = pyspiel.load_game(subject.openspiel_name)
    bots = [pyspiel.make_uniform_random_bot(p, 1 + p) for p in range(2)]
    seeds = iter(range(1, 1 << 62))

    def one_game() -> object:
        # evaluate_bots plays on the state it is given, so each game gets a fresh one
        return pyspiel.evaluate_bots(game.new_initial_state(), bots,
                                     next(seeds))

    def many_games(n: int) -> object:
        evaluator = pyspiel.RandomRolloutEvaluator(n, next(seeds))
        # one simulation: the root is evaluated, i.e. n playouts from it, and nothing else
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, 1, 1000, False,
                              next(seeds), False)
        root = bot.mcts_search(game.new_initial_state())
        assert root.explore_count == 1 and not root.children
        return root

    return {"game": per_call_rate(one_game, seconds),
            "batch": batch_rate(many_games, seconds, 2_000)}


#: Games compared through the same Python loop: boardlab name, OpenSpiel name.
LOOP_GAMES = (("tic-tac-toe", "tic_tac_toe"), ("connect-four", "connect_four"),
              ("breakthrough", "breakthrough"))


def boardlab_loop(name: str, rng: random.Random, kernels: bool = True
                  ) -> Callable[[], object]:
    """One uniformly random game through the protocol: ``legal_moves``, ``apply``,
    ``is_terminal`` from Python (no rollout override, no batch kernel). Without
    ``kernels``, a game that has one (:mod:`boardlab.core.kernel`) plays on plain
    positions, played by the interpreter, instead."""
    game = boardlab.load(name, engine=Engine.KERNEL if kernels else Engine.INTERPRETER)

    def play() -> int:
        return random_game(game.initial_state(), rng)
    return play


def random_game(state: State, rng: random.Random) -> int:
    """Play uniformly random moves through the protocol until the end; the plies."""
    plies = 0
    while not state.is_terminal():
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
        plies += 1
    return plies


def openspiel_loop(pyspiel: ModuleType, name: str, rng: random.Random) -> Callable[[], object]:
    """The same loop over OpenSpiel's C++ game: ``legal_actions``, ``apply_action``,
    ``is_terminal`` from Python."""
    game = pyspiel.load_game(name)

    def play() -> int:
        state = game.new_initial_state()
        plies = 0
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            plies += 1
        return plies
    return play


def ply_rate(play_one: Callable[[], int], seconds: float) -> float:
    """Plies per second of ``play_one`` (which returns the plies it played)."""
    play_one()
    plies = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        plies += play_one()
    return plies / elapsed


def floor_loop(branching: int, plies: int) -> Callable[[], int]:
    """The least a position backed by a numba kernel can do per ply through this loop:
    one kernel call that does nothing, a list of ``branching`` move objects made from
    the kernel's integer array, a random choice, the side's status read -- ``plies``
    plies a game. What a real kernel adds to it is the game's own work."""
    import numpy as np
    from numba import njit

    @njit
    def play(s, h, t, i):  # pragma: no cover - compiled
        s[0] += i
        return branching

    s = np.concatenate([np.zeros(8, dtype=np.int64), np.arange(branching, dtype=np.int64)])
    h, t = np.zeros((16, 14), dtype=np.int64), np.zeros(16, dtype=np.int64)
    objects = np.array([(i,) for i in range(branching)] + [None], dtype=object)[:-1]
    play(s, h, t, 1)
    call = play.overloads[play.signatures[0]].entry_point  # as kernel positions call it
    rng = random.Random(1)

    class Floor:
        __slots__ = ("n", "status", "left")

        def __init__(self) -> None:
            self.n, self.status, self.left = branching, -1, plies

        def is_terminal(self) -> bool:
            return self.status >= 0

        def legal_moves(self) -> list:
            return objects[s[8:8 + self.n]].tolist()

        def apply(self, move: object) -> None:
            self.n = call(s, h, t, 1) & 8191
            self.left -= 1
            if not self.left:
                self.status = 0

    def one_game() -> int:  # the loop boardlab's positions are played by
        return random_game(Floor(), rng)  # type: ignore[arg-type]
    return one_game


def floor_rows(pyspiel: ModuleType | None, seconds: float) -> None:
    """Breakthrough's microseconds a ply: boardlab's kernel, the floor of any numba
    position through the Python loop, and OpenSpiel's C++."""
    game = boardlab.load("breakthrough")
    if kernel.plan_for(game) is None:
        return
    rng = random.Random(1)
    plies = branching = games = 0
    for _ in range(200):
        state = game.initial_state()
        while not state.is_terminal():
            moves = state.legal_moves()
            branching += len(moves)
            plies += 1
            state.apply(moves[rng.randrange(len(moves))])
        games += 1
    mean_branching, mean_plies = round(branching / plies), round(plies / games)
    print(f"\nBreakthrough, microseconds a ply (best of two; {mean_plies} plies a game, "
          f"{mean_branching} moves a position on average)")
    rows = [("boardlab kernel", lambda: boardlab_loop("breakthrough", random.Random(1))),
            ("floor: a numba call doing nothing",
             lambda: floor_loop(mean_branching, mean_plies))]
    if pyspiel:
        rows.append(("OpenSpiel C++", lambda: openspiel_loop(pyspiel, "breakthrough",
                                                             random.Random(1))))
    figures = {label: 0.0 for label, _ in rows}
    for _ in range(2):
        for label, make in rows:
            figures[label] = max(figures[label], ply_rate(make(), seconds))
    theirs = figures.get("OpenSpiel C++")
    for label, rate in figures.items():
        line = f"  {label:<36}{1e6 / rate:8.3f} us"
        if theirs:
            line += f"   speed ratio to OpenSpiel {rate / theirs:6.3f}"
        print(line)


def cpu_rate(play_one: Callable[[], object], seconds: float) -> float:
    """Calls of ``play_one`` per CPU-second of this process, over about ``seconds``."""
    return per_call_rate(play_one, seconds, time.process_time)


def cpu_batch_rate(play_many: Callable[[int], object], seconds: float, trial: int) -> float:
    """Games per CPU-second of ``play_many(n)`` (see :func:`batch_rate`)."""
    return batch_rate(play_many, seconds, trial, time.process_time)


ZRF = Path(__file__).resolve().parents[1] / "tests" / "data" / "zrf"
#: Games with a kernel whose compiled playouts are measured: label, how to load the
#: game, OpenSpiel's name (None: OpenSpiel has no such game).
KERNEL_GAMES: tuple[tuple[str, Callable[[], Game], str | None], ...] = (
    ("breakthrough", lambda: boardlab.load("breakthrough"), "breakthrough"),
    ("taacoca", lambda: boardlab.load("taacoca"), None),
    ("ZRF breakthrough.zrf", lambda: load_game(ZRF / "breakthrough" / "breakthrough.zrf"),
     None),
)


def kernel_rows(pyspiel: ModuleType | None, seconds: float) -> None:
    """The compiled playouts of games with a kernel, per CPU-second, against the loop
    they replace and OpenSpiel's C++ game."""
    print("\nGames with a game kernel: random games per CPU-second from the start")
    label_width = 52
    for label, make, openspiel_name in KERNEL_GAMES:
        game = make()
        if kernel.plan_for(game) is None:
            print(f"{label}: no kernel ({kernel.why_not(game)})")
            continue
        rows = kernel_game_rates(game.initial_state(), seconds)
        theirs = None
        if pyspiel and openspiel_name:
            theirs = openspiel_cpu_rates(pyspiel, openspiel_name, seconds)
        print(label)
        for text, rate, kind in rows:
            ratio = (f"{rate / theirs[kind]:8.2f}  vs OpenSpiel {kind}" if theirs
                     else "       -")
            print(f"  {text:<{label_width - 2}}{rate_text(rate)}  {ratio}")
        print(f"  {'rollout() / loop':<{label_width - 2}}{rows[1][1] / rows[0][1]:>13.2f}")
        if theirs:
            print(f"  {'OpenSpiel game (C++ evaluate_bots, per call)':<{label_width - 2}}"
                  f"{rate_text(theirs['game'])}")
            print(f"  {'OpenSpiel batch (C++ RandomRolloutEvaluator)':<{label_width - 2}}"
                  f"{rate_text(theirs['batch'])}")


def kernel_game_rates(state: State, seconds: float) -> list[tuple[str, float, str]]:
    """A kernel position's random games per CPU-second, three ways: label, rate, and
    the kind of OpenSpiel figure it compares with."""
    rng = random.Random(1)
    seeds = iter(range(1, 1 << 62))
    return [
        ("boardlab loop (State.rollout, a kernel call a ply)",
         cpu_rate(lambda: State.rollout(state, rng), seconds), "game"),
        ("boardlab rollout() (the kernel plays the game)",
         cpu_rate(lambda: state.rollout(rng), seconds), "game"),
        ("boardlab playouts(N) (N games a kernel call)",
         cpu_batch_rate(lambda n: state.playouts(n, next(seeds)), seconds, 2_000), "batch"),
    ]


def openspiel_cpu_rates(pyspiel: ModuleType, name: str, seconds: float) -> dict[str, float]:
    """OpenSpiel's random games per CPU-second, per game and batch (as
    :func:`openspiel_rates` plays them)."""
    game = pyspiel.load_game(name)
    bots = [pyspiel.make_uniform_random_bot(p, 1 + p) for p in range(2)]
    seeds = iter(range(1, 1 << 62))

    def many_games(n: int) -> object:
        evaluator = pyspiel.RandomRolloutEvaluator(n, next(seeds))
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, 1, 1000, False, next(seeds), False)
        return bot.mcts_search(game.new_initial_state())

    return {"game": cpu_rate(lambda: pyspiel.evaluate_bots(game.new_initial_state(), bots,
                                                           next(seeds)), seconds),
            "batch": cpu_batch_rate(many_games, seconds, 2_000)}


def rate_text(rate: float) -> str:
    return f"{rate:>13,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="seconds of play per figure (default 1.0)")
    parser.add_argument("--part", choices=("all", "kernels"), default="all",
                        help="what to measure (default all)")
    args = parser.parse_args()

    try:
        import pyspiel
    except ImportError as e:
        pyspiel = None
        print(f"OpenSpiel is not importable ({e}); showing boardlab's figures only.\n"
              "Install it with `pip install open_spiel` (or the 'bench' extra).\n")

    if args.part == "kernels":
        kernel_rows(pyspiel, args.seconds)
        return
    print(f"Random playouts per second from the initial position "
          f"({args.seconds:g} s per figure)\n")
    label_width = 52
    print(f"{'':<{label_width}}{'playouts/s':>13}  boardlab/OpenSpiel")
    for subject in SUBJECTS:
        ours = boardlab_rates(subject, args.seconds)
        theirs = openspiel_rates(pyspiel, subject, args.seconds) if pyspiel else None
        rows = [
            ("boardlab generic (legal_moves/apply loop)", ours["generic"], "game"),
            ("boardlab rollout() (numba kernel, per call)", ours["rollout"], "game"),
            ("boardlab fast batch (numba kernel, N per call)", ours["batch"], "batch"),
        ]
        print(subject.name)
        for label, rate, kind in rows:
            ratio = (f"{rate / theirs[kind]:8.2f}  vs OpenSpiel {kind}" if theirs
                     else "       -")
            print(f"  {label:<{label_width - 2}}{rate_text(rate)}  {ratio}")
        if theirs:
            print(f"  {'OpenSpiel game (C++ evaluate_bots, per call)':<{label_width - 2}}"
                  f"{rate_text(theirs['game'])}")
            print(f"  {'OpenSpiel batch (C++ RandomRolloutEvaluator)':<{label_width - 2}}"
                  f"{rate_text(theirs['batch'])}")

    print("\nThe same Python loop (legal moves, a random one applied, until the end): "
          "games/s, best of two runs each, alternating")
    for name, openspiel_name in LOOP_GAMES:
        variants = [(name, True)]
        if kernel.plan_for(boardlab.load(name)) is not None:
            variants.append((f"{name} (no kernel)", False))
        theirs = None
        if pyspiel:
            theirs = 0.0
        for label, kernels in variants:
            ours = 0.0
            for _ in range(2):
                ours = max(ours, per_call_rate(boardlab_loop(name, random.Random(1), kernels),
                                               args.seconds))
                if pyspiel and kernels:
                    theirs = max(theirs, per_call_rate(  # type: ignore[type-var]
                        openspiel_loop(pyspiel, openspiel_name, random.Random(1)),
                        args.seconds))
            line = f"  {label:<26} boardlab {rate_text(ours)}"
            if theirs:
                line += f"   OpenSpiel C++ {rate_text(theirs)}   ratio {ours / theirs:6.3f}"
            print(line)
    floor_rows(pyspiel, args.seconds)
    kernel_rows(pyspiel, args.seconds)


if __name__ == "__main__":
    main()
