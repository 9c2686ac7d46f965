"""The city quest of the seed article (seeds/001, :doc:`/pipes`): location codes and how
a typed answer is read.

In the article's game the grid starts empty; the organisers write a code with a marker
at a city location for every segment, and a team that types a location's code sees that
segment appear. Once the team has built the pipe it types the letters along it, and the
engine must accept the code of *every* path (39 on the article's grid).

Location codes are :data:`LOCATION_LENGTH` characters drawn by :mod:`secrets` from
:data:`LOCATION_ALPHABET`: capitals and digits that cannot be taken for one another
when written by hand (no ``0``/``O``, ``1``/``I``/``L``, ``2``/``Z``, ``5``/``S``, ``8``/``B``).
With 25 symbols, six characters make 244,140,625 codes, so a guess hits one of a
72-segment grid about once in 3.4 million tries. A typed location code is read in
capitals, without spaces and dashes, and Cyrillic look-alikes (``К``, ``М``, ``Р``...)
as the Latin letters they look like (:func:`read_location_code`).

A typed answer (the letters of the pipe) loses its spaces; its letters are then read
as the level's own letters whatever their case, *unless* the level has two letters that
differ only by case (``a`` and ``A``), in which case the case must match
(:func:`read_answer`). So ``akez fdmi`` is ``AKEZFDMI`` on the article's grid, where
every letter is a capital, and no wrong path is ever accepted: the answer read is
compared with the level's codes exactly.

>>> from boardlab.puzzles.pipes.level import PipeLevel
>>> level = PipeLevel.parse("LA IK\\nLd LZ")
>>> read_answer(level, " a k z "), read_answer(level, "aKD")
('AKZ', 'AKd')
>>> read_answer(PipeLevel.parse("La LA"), "aA"), read_answer(PipeLevel.parse("La LA"), "AA")
('aA', 'AA')
>>> read_location_code(" k7-m 3xq ")
'K7M3XQ'
>>> len(new_location_code()) == LOCATION_LENGTH
True
"""

from __future__ import annotations

import secrets

from boardlab.puzzles.pipes.level import PipeLevel

#: Symbols of location codes: none that a marker's hand-writing confuses with another.
LOCATION_ALPHABET = "34679ACDEFGHJKMNPQRTUVWXY"
#: Characters in a location code.
LOCATION_LENGTH = 6


def new_location_code(length: int = LOCATION_LENGTH) -> str:
    """A fresh random location code (from the operating system's secure source)."""
    return "".join(secrets.choice(LOCATION_ALPHABET) for _ in range(length))


#: Cyrillic capitals that look like a symbol of :data:`LOCATION_ALPHABET`: a team on a
#: Russian keyboard types what it sees written on the wall.
_LOOKALIKES = str.maketrans("АСЕНКМРТХУ", "ACEHKMPTXY")


def read_location_code(typed: str) -> str:
    """A typed location code as stored: capitals, without spaces or dashes, Cyrillic
    look-alikes read as the Latin letters they look like.

    >>> read_location_code("кМ3-ХР9")   # Cyrillic к, М, Х, Р
    'KM3XP9'
    """
    return "".join(ch for ch in typed.upper().translate(_LOOKALIKES)
                   if not ch.isspace() and ch not in "-‐–—")


def letter_map(level: PipeLevel) -> dict[str, str]:
    """For each letter of the level, and for its other case when no other letter of the
    level has it, the letter it reads as (see the module docstring)."""
    letters = {cell.letter for row in level.cells for cell in row if cell.letter}
    by_fold: dict[str, set[str]] = {}
    for letter in letters:
        by_fold.setdefault(letter.casefold(), set()).add(letter)
    mapping = {letter: letter for letter in letters}
    for group in by_fold.values():
        if len(group) != 1:
            continue        # a and A are both letters: the case must match
        (letter,) = group
        for variant in (letter.upper(), letter.lower()):
            if len(variant) == 1:
                mapping.setdefault(variant, letter)
    return mapping


def read_answer(level: PipeLevel, typed: str, mapping: dict[str, str] | None = None) -> str:
    """The typed answer as the level spells its codes: without whitespace, each character
    in the case the level writes it (``mapping``: :func:`letter_map` of the level)."""
    mapping = letter_map(level) if mapping is None else mapping
    return "".join(mapping.get(ch, ch) for ch in typed if not ch.isspace())


def segments(level: PipeLevel) -> list[tuple[int, int]]:
    """The cells that hold a segment (each gets a location code), row by row, 1-based."""
    return [(r, c) for r, row in enumerate(level.cells, start=1)
            for c, cell in enumerate(row, start=1) if not cell.is_empty]


__all__ = ["LOCATION_ALPHABET", "LOCATION_LENGTH", "letter_map", "new_location_code",
           "read_answer", "read_location_code", "segments"]
