"""Playing strength: boardlab's bots against OpenSpiel's MCTS, and against today's bots.

Two matches, each of ``--games`` games with the seats alternating, scored 1 for a win
and 1/2 for a draw, with the 95% Wilson interval of the score rate
(:mod:`boardlab.ai.arena`) and whether it lies above or below the target:

* **against OpenSpiel** (Connect Four, Breakthrough 8x8): boardlab's MCTS bot with its
  defaults, ``--seconds`` a move and ``--workers`` cores (one bot for the match, its
  worker processes started before it), against OpenSpiel's C++ ``MCTSBot`` (UCT, c = 2,
  one random rollout per simulation) given as many simulations as it runs in the same
  time (calibrated on the opening position, then after each of its moves so that
  its time a move stays at the budget; both sides' mean time a move is printed).
  Target: 55 %. Both games are played on both engines at once, each move
  translated, and the two positions must end with the same result.
* **against today's bots** (Abalone, Epaminondas, Ordo, GESS): the MCTS bot against
  the same search with uniformly random playouts and no tree kept between moves (the
  bot before MAST and tree reuse), and the alpha-beta bot against the searcher without
  quiescence, killers and history (ordering by the table's move only). Each pair of
  games starts from its own random opening (:data:`OPENING_PLIES` plies), the seats
  swapped, so deterministic bots do not replay one game. Target: 70 %.

Usage: ``python benchmarks/strength.py [--games 100] [--seconds 1.0]
[--part openspiel|today|all] [games ...]``. Full runs take hours (Abalone at 1 s a
move plays up to 200 moves a game); every game's result is printed as it ends.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import time
from collections.abc import Callable

import boardlab
from boardlab.ai.alphabeta import AlphaBetaBot, Searcher
from boardlab.ai.arena import play_game, wilson_interval
from boardlab.ai.bots import Bot
from boardlab.ai.mcts import MCTSBot
from boardlab.core.game import Game
from boardlab.core.move import Move


def verdict(score: float, games: int, target: float) -> str:
    low, high = wilson_interval(score, games)
    where = "above" if low > target else "below" if high < target else "undecided at"
    return (f"score {score:g}/{games} = {score / games:.3f}, 95% interval "
            f"[{low:.3f}, {high:.3f}]: {where} the target {target:.2f}")


# --- against OpenSpiel -------------------------------------------------------------------
def _connect_four_key(notation: str) -> str:
    return str("abcdefg".index(notation))


def _connect_four_openspiel_key(text: str) -> str:
    return text[1:]  # "x3" -> "3"


def _breakthrough_key(notation: str) -> str:
    # boardlab's White moves up from rows 1-2; OpenSpiel's first player (black) moves
    # down from rows 7-8: the same game with the ranks mirrored.
    cells = re.findall(r"([a-h])(\d)", notation)
    return "".join(f"{f}{9 - int(r)}" for f, r in cells)


def _breakthrough_openspiel_key(text: str) -> str:
    return text[:4]  # "a7b6" (a capture adds "*")


#: boardlab name, OpenSpiel name, boardlab move -> key, OpenSpiel action text -> key.
OPENSPIEL_GAMES: dict[str, tuple[str, Callable[[str], str], Callable[[str], str]]] = {
    "connect-four": ("connect_four", _connect_four_key, _connect_four_openspiel_key),
    "breakthrough": ("breakthrough", _breakthrough_key, _breakthrough_openspiel_key),
}


def openspiel_match(name: str, games: int, seconds: float, workers: int = 1) -> None:
    import pyspiel

    spiel_name, ours_key, theirs_key = OPENSPIEL_GAMES[name]
    game = boardlab.load(name)
    spiel = pyspiel.load_game(spiel_name)

    def spiel_bot(simulations: int, seed: int):  # noqa: ANN202 - a pyspiel bot
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        return pyspiel.MCTSBot(spiel, evaluator, 2.0, simulations, 1000, False, seed, False)

    # Calibration: OpenSpiel's simulations per second on the opening position.
    trial = 2000
    started = time.perf_counter()
    spiel_bot(trial, 1).step(spiel.new_initial_state())
    rate = trial / (time.perf_counter() - started)
    opening = simulations = max(1, int(rate * seconds))
    print(f"{name}: boardlab MCTS ({seconds:g} s a move, {workers} core(s)) against "
          f"OpenSpiel MCTSBot (one core, "
          f"{simulations} simulations a move, {rate:,.0f}/s calibrated)")
    ours = MCTSBot(time=seconds, seed=1, workers=workers)
    ours.choose(game.initial_state())  # start the workers, load compiled kernels
    score = 0.0
    ours_times: list[float] = []
    theirs_times: list[float] = []
    for i in range(games):
        seat = i % 2  # boardlab's seat
        state, spiel_state = game.initial_state(), spiel.new_initial_state()
        simulations = opening  # each game starts from the opening's calibration
        while not state.is_terminal():
            if state.to_move == seat:
                started = time.perf_counter()
                move = ours.choose(state)
                ours_times.append(time.perf_counter() - started)
                key = ours_key(move.notation)
                action = next(a for a in spiel_state.legal_actions()
                              if theirs_key(spiel_state.action_to_string(
                                  spiel_state.current_player(), a)) == key)
            else:
                started = time.perf_counter()
                action = spiel_bot(simulations, 1000 * i + len(theirs_times)).step(spiel_state)
                took = time.perf_counter() - started
                theirs_times.append(took)
                # Keep OpenSpiel's time a move at the budget as positions change.
                simulations = max(1, round(simulations * min(2.0, seconds / max(took, 1e-4))))
                key = theirs_key(spiel_state.action_to_string(spiel_state.current_player(),
                                                              action))
                move = _by_key(state.legal_moves(), ours_key, key)
            state.apply(move)
            spiel_state.apply_action(action)
        assert spiel_state.is_terminal(), "the two engines disagree on the end"
        returns = state.outcome()
        assert returns is not None
        assert [float(r) for r in returns] == [(1 + v) / 2 for v in spiel_state.returns()], \
            "the two engines disagree on the result"
        mine = float(returns[seat])
        score += 1.0 if mine > 0.5 else 0.5 if mine == 0.5 else 0.0
        print(f"  game {i + 1}: boardlab as player {seat}: {mine:g}", flush=True)
    ours.close()
    print(f"  mean seconds a move: boardlab {statistics.mean(ours_times):.3f}, OpenSpiel "
          f"{statistics.mean(theirs_times):.3f}")
    print("  " + verdict(score, games, 0.55))


def _by_key(moves: list[Move], key: Callable[[str], str], wanted: str) -> Move:
    return next(m for m in moves if key(m.notation) == wanted)


# --- against today's bots ---------------------------------------------------------------
class TodaysSearcher(Searcher):
    """The alpha-beta search as it was: no quiescence, the table's move first and the
    rest in the game's order (no killers, no history)."""

    def __init__(self) -> None:
        super().__init__(quiescence=False)

    def _ordered(self, moves: list[Move], tt_move: Move | None, mover: int, ply: int
                 ) -> list[Move]:
        if tt_move is not None and tt_move in moves:
            return [tt_move] + [m for m in moves if m != tt_move]
        return list(moves)

    def _credit(self, move: Move, mover: int, ply: int, depth: int) -> None:
        return None


def todays_alphabeta(seconds: float, seed: int) -> AlphaBetaBot:
    bot = AlphaBetaBot(time=seconds, seed=seed)
    bot.searcher = TodaysSearcher()
    bot.name = f"today's {bot.name}"
    return bot


def todays_mcts(seconds: float, seed: int) -> MCTSBot:
    bot = MCTSBot(time=seconds, seed=seed, playout="random", reuse=False)
    bot.name = f"today's {bot.name}"
    return bot


#: Random plies played before each pair of games against today's bots: deterministic
#: bots would otherwise play the same two games over and over.
OPENING_PLIES = 4


def random_opening(game: Game, rng: random.Random):  # noqa: ANN201 - a State
    """A position :data:`OPENING_PLIES` random plies in that the game has not ended
    in (a random move can lose at once: GESS's rings), drawn again until so."""
    for _ in range(1000):
        opening = game.initial_state()
        for _ in range(OPENING_PLIES):
            if opening.is_terminal():
                break
            opening.apply(rng.choice(opening.legal_moves()))
        if not opening.is_terminal():
            return opening
    return game.initial_state()


def today_match(game: Game, games: int, seconds: float, new: Callable[[int], Bot],
                old: Callable[[int], Bot]) -> None:
    """``games`` games (pairs from one random opening each, the seats swapped) between
    a new bot and today's."""
    first, second = new(1), old(2)
    print(f"{game.name}: {first.name} against {second.name} "
          f"({OPENING_PLIES} random plies open each pair of games)")
    rng = random.Random(f"strength:{game.name}")
    score = 0.0
    for i in range(games):
        if i % 2 == 0:
            opening = random_opening(game, rng)
        seat = i % 2  # the new bot's seat
        bots = [first if p == seat else second for p in range(game.num_players)]
        returns, moves = play_game(opening, bots)
        mine, best_other = returns[seat], max(r for p, r in enumerate(returns) if p != seat)
        result = "win" if mine > best_other else "loss" if mine < best_other else "draw"
        score += {"win": 1.0, "draw": 0.5, "loss": 0.0}[result]
        print(f"  game {i + 1}: {result} in {len(moves)} moves", flush=True)
    print("  " + verdict(score, games, 0.70))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games to play (default: the part's)")
    parser.add_argument("--games", dest="count", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=1.0, help="per move")
    parser.add_argument("--part", choices=("openspiel", "today", "all"), default="all")
    parser.add_argument("--workers", type=int, default=1,
                        help="cores boardlab's MCTS searches on against OpenSpiel")
    args = parser.parse_args()
    if args.part in ("openspiel", "all"):
        for name in args.games or list(OPENSPIEL_GAMES):
            if name in OPENSPIEL_GAMES:
                openspiel_match(name, args.count, args.seconds, args.workers)
    if args.part in ("today", "all"):
        for name in args.games or ["abalone", "epaminondas", "ordo", "gess"]:
            if name in OPENSPIEL_GAMES and not args.games:
                continue
            game = boardlab.load(name)
            seconds = args.seconds
            today_match(game, args.count, seconds,
                        lambda s, t=seconds: MCTSBot(time=t, seed=s),
                        lambda s, t=seconds: todays_mcts(t, s))
            today_match(game, args.count, seconds,
                        lambda s, t=seconds: AlphaBetaBot(time=t, seed=s),
                        lambda s, t=seconds: todays_alphabeta(t, s))


if __name__ == "__main__":
    main()
