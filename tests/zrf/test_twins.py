"""Rule files with a hand-written twin in boardlab, compared move set by move set.

Breakthrough, reversi and tic-tac-toe state their whole rules in ZRF (the corpus's
breakthrough.zrf; examples/zrf/reversi.zrf, since the corpus's reversi.zrf leaves
flanking to Dagaz's JavaScript; examples/zrf/tic-tac-toe.zrf): on random positions of
the hand-written game, the imported game has exactly the same moves. The corpus's other
twins are Dagaz skeletons; the table below records how far each agrees with boardlab's
game and why it stops (the rule Dagaz keeps in JavaScript), checked by perft of both.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import boardlab
from boardlab.core.game import State, perft
from boardlab.core.move import Capture, Change, Move, Place, Shift
from boardlab.core.position import PieceState
from boardlab.zrf.game import ZrfGame, load_game

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "zrf"
EXAMPLES = ROOT / "examples" / "zrf"


def effects(state: State, move: Move) -> frozenset:
    """A move as the cells it changes, by name, with owners relative to the mover."""
    board = state.game.board
    mover = state.to_move

    def who(owner: int) -> str:
        return "mover" if owner == mover else "other"

    out = set()
    for a in move.actions:
        if isinstance(a, Shift):
            out.add(("shift", board.cell_name(a.source), board.cell_name(a.target)))
        elif isinstance(a, Capture):
            out.add(("capture", board.cell_name(a.cell)))
        elif isinstance(a, Place):
            out.add(("place", board.cell_name(a.cell), who(a.piece.owner)))
        elif isinstance(a, Change):
            out.add(("owner", board.cell_name(a.cell), who(a.piece.owner)))
    return frozenset(out)


def imported_position(state: State, game: ZrfGame, kinds: dict[str, str]) -> PieceState:
    """``state`` of a hand-written game as a position of ``game`` (same cell names;
    ``kinds`` maps piece types)."""
    board = state.game.board
    pieces = [(c, p) for c in range(board.size) if (p := state.piece_at(c)) is not None]
    pairs = ",".join(f"{board.cell_name(c)}={game.player_names[p.owner]}.{kinds[p.kind]}"
                     for c, p in pieces)
    return game.parse_state(f"{pairs or '-'} {game.player_names[state.to_move]}")


@pytest.mark.parametrize(("path", "name", "kinds", "depth"), [
    (CORPUS / "breakthrough" / "breakthrough.zrf", "breakthrough", {"pawn": "Pawn"}, 3),
    (EXAMPLES / "reversi.zrf", "othello", {"black": "Disc", "white": "Disc"}, 5),
    (EXAMPLES / "tic-tac-toe.zrf", "tic-tac-toe", {"X": "man", "O": "man"}, 5),
])
def test_complete_files_have_the_same_moves_as_their_twin(path, name, kinds, depth):
    imported = load_game(path, name=path.name)
    twin = boardlab.load(name)
    assert perft(imported.initial_state(), depth) == perft(twin.initial_state(), depth)
    rng = random.Random(name)
    positions = games = 0
    while games < 12 or positions < 250:
        games += 1
        state = twin.initial_state()
        while not state.is_terminal():
            mirror = imported_position(state, imported, kinds)
            ours = {effects(state, m) for m in state.legal_moves()}
            theirs = {effects(mirror, m) for m in mirror.legal_moves()}
            if ours == {frozenset()}:  # a pass: the imported game passes too
                theirs = {e for e in theirs if e}
                ours = set()
            assert ours == theirs, str(state)
            positions += 1
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])


# Perft of the corpus file's default variant and of boardlab's game (with the options
# that match the file's board), and why they part.
SKELETONS = [
    ("morris/morris.zrf", "nine-mens-morris", {}, [24, 552, 24288], [24, 552, 12144],
     "equal through the first placements; from the third ply the file lets stones step and "
     "fly while pieces are still being placed (Dagaz's JavaScript keeps the phases)"),
    ("breakthrough/taacoca.zrf", "taacoca", {}, [60, 3600], [58, 3364],
     "the file moves single stones (Dagaz's JavaScript builds the three-stone groups), "
     "and its hex board is named from the top row"),
    ("breakthrough/epaminondas.zrf", "epaminondas", {"size": "8x8"}, [90, 7836],
     [60, 3600], "phalanx moves and the crossing rule are in Dagaz's JavaScript; the file "
     "moves single pieces and lines of its own"),
    ("other-games/reversi.zrf", "othello", {}, [60, 3540], [4, 12],
     "every empty square is a drop: flanking and flipping are in Dagaz's JavaScript "
     "(examples/zrf/reversi.zrf states them and agrees)"),
    ("arrange/connect-four.zrf", "connect-four", {}, [42, 1722], [7, 49],
     "a drop on any empty cell: gravity and the four-in-a-row goal are in Dagaz's "
     "JavaScript"),
    ("elimination/abalone.zrf", "abalone", {}, [78, 6084], [44, 1936],
     "single-marble steps on a board with a ring of off-board cells; pushes and the "
     "push-off count are in Dagaz's JavaScript"),
    ("other-games/gess.zrf", "gess", {}, [1296], [416],
     "a second grid of handles, one per 3x3 footprint, each stepping one cell and leaving "
     "a handle behind; the footprint's stones, their reach and the ring rule are in "
     "Dagaz's JavaScript"),
    ("breakthrough/ordo.zrf", "ordo", {}, [149, 21412], [56, 3136],
     "eight-way slides and pushes with no connection rule (Dagaz's looser Ordo; the "
     "connection invariant is JavaScript)"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("path", "name", "options", "theirs", "ours", "why"), SKELETONS,
                         ids=[s[0] for s in SKELETONS])
def test_skeleton_twins_part_where_dagaz_keeps_rules_in_javascript(path, name, options,
                                                                   theirs, ours, why):
    imported = load_game(CORPUS / path, name=path)
    twin = boardlab.load(name, **options)
    depth = len(ours)
    assert perft(imported.initial_state(), depth) == theirs, why
    assert perft(twin.initial_state(), depth) == ours
