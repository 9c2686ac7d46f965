"""Human difficulty: a pack re-ordered by how long people take to solve its levels.

The generator orders a pack by the solver's work (:doc:`/triplex`, "Difficulty and
order"); the seed's author collected every solve time hoping to re-order the levels by how
hard *people* find them. :func:`human_order` does that from the leaderboard's medians
(``boardlab triplex reorder``): the levels with enough solves are sorted by their median
time, fastest first, *within the places they already hold*; a level with too few solves
keeps its place, since a median of one or two players says little. Ties keep the old
order, so the result is exact and repeatable.

Re-ordering changes which solution unlocks which level, so the re-ordered pack is a new
pack, sealed under a new salt (:func:`reorder_salt`, derived from the old salt and the new
order: the same input always gives the same pack, and no salt is ever reused with a
different sequence of levels). Its codes are all new and its leaderboard starts empty; the
old pack's rows stay under the old pack's id.

>>> human_order(5, {1: (9, 50.0), 2: (9, 20.0), 4: (9, 10.0), 5: (1, 1.0)}, min_solves=5)
(4, 2, 3, 1, 5)
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

from boardlab.errors import PuzzleError
from boardlab.puzzles.polyomino.pack import Pack


def human_order(levels: int, medians: Mapping[int, tuple[int, float]],
                min_solves: int) -> tuple[int, ...]:
    """The new order of a pack of ``levels`` levels, as old level numbers: position i
    (from 0) of the result holds the old level to play at i+1. ``medians`` maps an old
    level number to (timed solves, median seconds); levels with fewer than
    ``min_solves`` solves, or none, keep their place."""
    if min_solves < 1:
        raise PuzzleError(f"--min-solves must be at least 1, not {min_solves}")
    ranked = [n for n in range(1, levels + 1)
              if n in medians and medians[n][0] >= min_solves]
    order = list(range(1, levels + 1))
    by_time = sorted(ranked, key=lambda n: (medians[n][1], n))
    for place, n in zip(ranked, by_time, strict=True):
        order[place - 1] = n
    return tuple(order)


def reorder_salt(salt: bytes, order: Sequence[int]) -> bytes:
    """The salt of the re-ordered pack: 16 bytes of SHA-256 over the old salt and the new
    order."""
    text = f"boardlab-polyomino-reorder:{salt.hex()}:{','.join(map(str, order))}"
    return hashlib.sha256(text.encode("ascii")).digest()[:16]


def reorder_pack(master: Pack, order: Sequence[int], *, name: str | None = None) -> Pack:
    """``master``'s levels in ``order`` (old level numbers, each exactly once), sealed
    again as a new pack (:func:`reorder_salt`); the name stays unless ``name`` is given."""
    if master.levels is None:
        raise PuzzleError("re-ordering needs the master copy (with solutions): a public "
                          "pack cannot be sealed again")
    if sorted(order) != list(range(1, len(master) + 1)):
        raise PuzzleError(f"the order must name levels 1..{len(master)} once each")
    levels = [master.levels[n - 1] for n in order]
    return Pack.build(levels, reorder_salt(master.salt, order), master.piece_set,
                      name=master.name if name is None else name)


__all__ = ["human_order", "reorder_pack", "reorder_salt"]
