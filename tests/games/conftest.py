"""Shared helpers of the games' tests: a game's declarative end held to a reference."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from boardlab.core.game import Returns, win_for
from boardlab.core.move import Capture
from boardlab.core.position import PieceGame, PieceState

#: A game's old Python ``result``, kept by its test as the reference: (game, position)
#: -> the outcome, or None while the game goes on.
Reference = Callable[[PieceGame, PieceState], "Returns | None"]


def reference_outcome(game: PieceGame, state: PieceState, reference: Reference) -> Returns | None:
    """The outcome the old code gave: its ``result``, else, without a legal move, the
    player to move lost (the default ``no_moves`` these games kept)."""
    out = reference(game, state)
    if out is None and not state.legal_moves():
        return win_for(1 - state.to_move, game.num_players)
    return out


def ends_as_reference(game: PieceGame, reference: Reference, seeds: range, *,
                      tried: int = 6, ending: float = 0.05) -> Counter:
    """Play a random game of ``game`` from each seed and check, at every position on the
    way, that the game's result and outcome are the reference's, and after each of up
    to ``tried`` moves tried from it (played and taken back) that its result is (and
    its outcome, when the game ended). Returns how often each outcome was met (None:
    the game goes on), so that a test can see the ends were reached.

    Random play ends most games at the move limit, or (GESS) at once; so half the
    moves tried capture, those are played first, and a move that ends the game is
    played only with probability ``ending`` when another is at hand: the games run
    long, and the moves that end them are met, and checked, at many positions.
    """
    met: Counter = Counter()

    def check(state: PieceState) -> Returns | None:
        result = game.result(state)
        assert result == reference(game, state), str(state)
        if result is not None:
            assert state.outcome() == result, str(state)
        met[result] += 1
        return result

    for seed in seeds:
        rng = random.Random(seed)
        state = game.initial_state()
        while True:
            check(state)
            outcome = state.outcome()
            assert outcome == reference_outcome(game, state, reference), str(state)
            if outcome is not None:
                met[outcome] += outcome != game.result(state)
                break
            moves = state.legal_moves()
            rng.shuffle(moves)
            takes = [m for m in moves if any(type(a) is Capture for a in m.actions)]
            others = [m for m in moves if m not in takes]
            # Half the moves tried capture (where some do), and those come first.
            first = takes[:max(tried // 2, tried - len(others))]
            moves = first + others[:tried - len(first)] + takes[len(first):] + others[
                tried - len(first):]
            goes_on, ends = [], []
            for move in moves[:tried]:
                state.apply(move)
                (goes_on if check(state) is None else ends).append(move)
                state.undo()
            if ends and (rng.random() < ending or not goes_on):
                move = ends[0]
            else:
                move = goes_on[0] if rng.random() < 0.7 else rng.choice(goes_on)
            state.apply(move)
    return met
