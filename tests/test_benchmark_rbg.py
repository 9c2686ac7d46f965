"""The parts of ``benchmarks/rbg.py`` that need no RBG checkout: reading the output of
RBG's benchmark and perft programs (as they printed it, rbg2cpp fd93c43) and the edit
that sets the cap of RBG's chess (on lines of rbgGames' ``chess_200.rbg`` and
``chess.rbg``, commit 3ae4fb7)."""

from __future__ import annotations

import pytest
from benchmarks.rbg import COMPARISONS, parse_benchmark, parse_perft, set_turn_cap

BENCHMARK_OUTPUT = """\
Random generator: 0
Monotonic classes: 0
time: 2000 ms
number of playouts: 37206 (18603.000000 playouts/sec)
number of states: 2386698 (1193349.000000 states/sec)
depth: avg 64.148202
goal of player 1: avg 51.083159
goal of player 2: avg 48.916841
"""

PERFT_OUTPUT = """\
time: 0 ms
perft: 11132
number of states: 11639 (inf states/sec)
"""

CAPPED_CHESS = """\
// Chess
// -- No rules about repeating states or tie after given number of turns without pawn moves.
// -- The play is limited to 200 turns.

#variables = pawnDoubleMove(1), whiteKingMoved(1), blackKingMoved(1), turnCount(200)

#turn(forward; backward; color; oppColor) = (
    ->color move(forward; backward; color; oppColor)
    ->>
    [$ turnCount = turnCount+1]
    (
        {$ turnCount < 200} ->> (
            {! checked(oppColor; color; backward; forward)} [$ color=50,oppColor=50] // Draw if stalemate (no further legal move)
          + {? checked(oppColor; color; backward; forward)} [$ color=100,oppColor=0] // Win if checkmate (no further legal move)
        )
      + {$ turnCount == 200} [$ color=50,oppColor=50] ->> (
            {! checked(oppColor; color; backward; forward)} ->> {} // Draw if not checked
          + {? checked(oppColor; color; backward; forward)}
            {! move(forward; backward; color; oppColor)}
            [$ color=100,oppColor=0] ->> {} // Win if checkmate
        )
    )
  )
"""  # noqa: E501 - RBG's own lines

FIFTY_MOVE_CHESS = """\
#variables = pawnDoubleMove(1), whiteKingMoved(1), blackKingMoved(1), stagnation(100)
        {$ stagnation < 100} ->> (
      + {$ stagnation == 100} [$ color=50,oppColor=50] ->> (
"""


def test_the_benchmark_output_gives_playouts_plies_and_time():
    counts = parse_benchmark(BENCHMARK_OUTPUT)
    assert (counts.playouts, counts.plies, counts.milliseconds) == (37206, 2386698, 2000)


def test_the_perft_output_gives_the_leaf_count_not_the_states():
    assert parse_perft(PERFT_OUTPUT) == 11132


def test_an_output_without_the_counts_is_an_error():
    with pytest.raises(ValueError, match="number of playouts"):
        parse_benchmark(PERFT_OUTPUT)
    with pytest.raises(ValueError, match="perft"):
        parse_perft(BENCHMARK_OUTPUT)


def test_the_cap_edit_changes_the_bound_and_both_tests_and_nothing_else():
    edited = set_turn_cap(CAPPED_CHESS, 1000)
    first, rest = edited.split("\n", 1)
    assert first == "// boardlab: cap set from 200 to 1000 plies"
    assert rest == (CAPPED_CHESS.replace("turnCount(200)", "turnCount(1000)")
                    .replace("turnCount < 200", "turnCount < 1000")
                    .replace("turnCount == 200", "turnCount == 1000"))
    assert "turnCount(1000)" in rest and "{$ turnCount < 1000}" in rest
    assert "{$ turnCount == 1000}" in rest
    # RBG's own comment keeps its words; only the rules change.
    assert "limited to 200 turns" in rest


def test_the_cap_edit_refuses_a_file_it_does_not_expect():
    with pytest.raises(ValueError, match="no turnCount"):
        set_turn_cap(FIFTY_MOVE_CHESS, 1000)
    with pytest.raises(ValueError, match="exactly once"):
        set_turn_cap(CAPPED_CHESS + "{$ turnCount < 200}\n", 1000)


def test_every_boardlab_side_loads_and_chess_is_capped_at_1000_plies():
    games = {c.name: c.load() for c in COMPARISONS}
    assert [c.name for c in COMPARISONS if c.cap_to_ply_limit] == ["chess"]
    # benchmarks/README.md's figures were measured with this cap on both sides.
    assert games["chess"].ruleset.ply_limit == 1000
