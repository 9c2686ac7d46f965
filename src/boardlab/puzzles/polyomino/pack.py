"""Level packs: an ordered list of levels, each encrypted under the code of the one before.

The chain comes from :doc:`/triplex`, "Levels chained by solutions"; the
algorithm is in :mod:`boardlab.puzzles.polyomino.codes` and the file schema in
docs/polyomino-pack.md. What is encrypted for each level is its *puzzle* (the rectangle,
the pieces with the rotatable one in its shown orientation, the difficulty) and never its
solution: the solution of level N is what unlocks level N+1, so a pack that stored it
would let anyone read every level without solving one.

A pack knows its levels' solutions when it was built from :class:`Level` values or loaded
from a file saved ``with_solutions=True`` (the *master* copy, for the generator and the
leaderboard server). The file shipped to players is saved without them (the *public*
copy); it can still unlock levels with codes and check that a code proves level N solved
for every level but the last.

>>> from boardlab.puzzles.polyomino.level import Level
>>> levels = [Level.parse("level 4x2\\nabbc\\naacc\\n"), Level.parse("level 4x2\\nabbb\\naacc\\n")]
>>> pack = Pack.build(levels, b"doctest", "triplex")
>>> pack.unlock(1, pack.first_code) == levels[0].puzzle()
True
>>> code = pack.code_after(1, ["abbc", "aacc"])
>>> pack.unlock(2, code) == levels[1].puzzle()
True
"""

from __future__ import annotations

import base64
import binascii
import hmac
import json
import os
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from boardlab.errors import NotationError, PuzzleError
from boardlab.files import read_text, write_atomic
from boardlab.puzzles.polyomino.codes import (
    TAG_BYTES,
    WrongCodeError,
    level_code,
    normalize_code,
    seal,
    unseal,
)
from boardlab.puzzles.polyomino.level import Level, Puzzle, canonical_json, canonical_solution
from boardlab.puzzles.polyomino.shapes import CUSTOM, PIECE_SETS, piece_set

#: The value of the ``format`` field.
FORMAT = "boardlab-polyomino-pack"
#: The schema version this module writes and reads.
VERSION = 1

#: A solution as :meth:`Pack.code_after` takes it: a level, the canonical encoding
#: (bytes, or text like ``"abbc/aacc"``) or a grid of piece labels.
Solution = Level | bytes | str | Sequence[Sequence[Hashable]]


@dataclass(frozen=True)
class SealedLevel:
    """One encrypted level: its number (from 1), ciphertext and authentication tag."""

    number: int
    data: bytes
    tag: bytes


def _solution_bytes(solution: Solution) -> bytes:
    if isinstance(solution, Level):
        return solution.solution_checksum()
    if isinstance(solution, bytes | bytearray):
        return bytes(solution)
    if isinstance(solution, str):
        return canonical_solution(solution.split("/"))
    return canonical_solution(solution)


def _check_piece_set(levels: Sequence[Level], name: str) -> None:
    if name == CUSTOM:
        return  # pieces read from a file: any fixed shapes
    try:
        shapes, free = piece_set(name)
    except NotationError as e:
        raise PuzzleError(str(e)) from None
    allowed = {s.free_form() for s in shapes} if free else set(shapes)
    for number, level in enumerate(levels, start=1):
        for piece in (*level.pieces, *level.shown_pieces):
            if (piece.free_form() if free else piece) not in allowed:
                drawing = str(piece).replace("\n", "/")
                raise PuzzleError(f"level {number}: piece {drawing} is not in the piece set "
                                  f"{name!r}")


@dataclass(frozen=True)
class Pack:
    """An ordered level pack; levels are numbered from 1.

    ``levels`` holds the levels with their solutions when known (a master pack), None
    for a public pack read from a file saved without them.
    """

    salt: bytes
    piece_set: str
    sealed: tuple[SealedLevel, ...]
    levels: tuple[Level, ...] | None = None
    name: str = ""

    def __post_init__(self) -> None:
        if not self.sealed:
            raise PuzzleError("a pack needs at least one level")
        for i, entry in enumerate(self.sealed, start=1):
            if entry.number != i:
                raise PuzzleError(f"sealed level {i} is numbered {entry.number}")
        if self.levels is not None and len(self.levels) != len(self.sealed):
            raise PuzzleError(f"{len(self.levels)} levels for {len(self.sealed)} sealed ones")

    @staticmethod
    def build(levels: Sequence[Level], salt: bytes | str, piece_set: str = "triplex", *,
              name: str = "") -> Pack:
        """Seal ``levels`` (already in play order) into a pack.

        ``salt`` identifies the pack in every code (text is taken as its UTF-8 bytes);
        use a fresh random one (``os.urandom(16)``) for every pack, since a salt reused
        with different levels gives the same code, and keystream, to both.
        """
        levels = tuple(levels)
        if not levels:
            raise PuzzleError("a pack needs at least one level")
        for number, level in enumerate(levels, start=1):
            if not isinstance(level, Level):
                raise PuzzleError(f"level {number} is not a Level: {level!r}")
        salt = salt.encode("utf-8") if isinstance(salt, str) else bytes(salt)
        if not salt:
            raise PuzzleError("the pack salt must not be empty")
        _check_piece_set(levels, piece_set)
        sealed = []
        previous = b""
        for number, level in enumerate(levels, start=1):
            code = level_code(salt, number, previous)
            data, tag = seal(salt, number, code, canonical_json(level.puzzle().to_json()))
            sealed.append(SealedLevel(number, data, tag))
            previous = level.solution_checksum()
        return Pack(salt, piece_set, tuple(sealed), levels, name)

    def __len__(self) -> int:
        return len(self.sealed)

    def _check_number(self, number: int, what: str = "level") -> None:
        if isinstance(number, bool) or not isinstance(number, int) \
                or not 1 <= number <= len(self):
            raise PuzzleError(f"{what} {number!r} is out of range: this pack has levels "
                              f"1..{len(self)}")

    @property
    def first_code(self) -> str:
        """The code of level 1, derived from the salt alone (anyone can compute it)."""
        return level_code(self.salt, 1, b"")

    def unlock(self, number: int, code: str | None = None) -> Puzzle:
        """The puzzle of level ``number``, decrypted with ``code`` (``None``: the first
        code, for level 1 only). :class:`~boardlab.puzzles.polyomino.codes.WrongCodeError`
        (a :class:`PuzzleError`) if the code does not unlock this level."""
        self._check_number(number)
        if code is None:
            if number != 1:
                raise PuzzleError(f"level {number} needs a code (the one after level "
                                  f"{number - 1})")
            code = self.first_code
        entry = self.sealed[number - 1]
        plaintext = unseal(self.salt, number, code, entry.data, entry.tag)
        try:
            return Puzzle.from_json(json.loads(plaintext.decode("utf-8")),
                                    where=f"level {number}")
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise PuzzleError(f"level {number} decrypts to something that is not a level "
                              f"(the pack was written by a different program)") from None

    def level(self, number: int) -> Level:
        """Level ``number`` with its solution (master packs only)."""
        self._check_number(number)
        if self.levels is None:
            raise PuzzleError("this pack has no solutions (it is a public pack)")
        return self.levels[number - 1]

    def code(self, number: int) -> str:
        """The code that unlocks level ``number`` (master packs only, except level 1)."""
        self._check_number(number)
        if number == 1:
            return self.first_code
        return self.code_after(number - 1, self.level(number - 1))

    def code_after(self, number: int, solution: Solution) -> str:
        """The code unlocking level ``number + 1``, given level ``number``'s solution as
        a :class:`Level`, its canonical encoding or a grid of piece labels. After the
        last level it is the completion code: proof for the leaderboard only."""
        self._check_number(number)
        return level_code(self.salt, number + 1, _solution_bytes(solution))

    def proves_solved(self, number: int, code: str) -> bool:
        """Whether ``code`` is the code after level ``number``, i.e. proof that the player
        solved it. A public pack can only check levels that have a next level."""
        self._check_number(number)
        try:
            code = normalize_code(code)
        except PuzzleError:
            return False
        if self.levels is not None:
            return hmac.compare_digest(code, self.code_after(number, self.levels[number - 1]))
        if number == len(self):
            raise PuzzleError("a public pack cannot check the last level's code (it needs "
                              "the solutions)")
        try:
            self.unlock(number + 1, code)
        except WrongCodeError:
            return False
        return True

    def solve_chain(self) -> tuple[str, ...]:
        """Walk the whole chain with the known solutions (master packs): unlock every
        level with the code derived from the previous solution, check it is the stored
        level, and return the codes; ``codes[n - 1]`` unlocks level ``n`` and the last
        one is the completion code."""
        codes = [self.first_code]
        for number in range(1, len(self) + 1):
            level = self.level(number)
            if self.unlock(number, codes[-1]) != level.puzzle():
                raise PuzzleError(f"level {number} decrypts to a different puzzle than the "
                                  f"stored level")
            codes.append(self.code_after(number, level))
        return tuple(codes)

    def public(self) -> Pack:
        """The same pack without the solutions."""
        return replace(self, levels=None)

    # -- JSON and files ------------------------------------------------------------------

    def to_json(self, *, with_solutions: bool = False) -> dict[str, Any]:
        """The pack file's JSON object (docs/polyomino-pack.md)."""
        obj: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "name": self.name,
            "pieces": self.piece_set,
            "salt": self.salt.hex(),
            "levels": [{"number": e.number, "data": base64.b64encode(e.data).decode("ascii"),
                        "tag": e.tag.hex()} for e in self.sealed],
        }
        if with_solutions:
            if self.levels is None:
                raise PuzzleError("this pack has no solutions to save (it is a public pack)")
            obj["solutions"] = [level.solution_checksum().decode("ascii")
                                for level in self.levels]
        return obj

    @staticmethod
    def from_json(obj: Any, where: str = "pack") -> Pack:
        """Read :meth:`to_json`'s object; errors name ``where`` and the field. With
        solutions, every level is decrypted and checked against its solution."""
        if not isinstance(obj, dict):
            raise PuzzleError(f"{where}: not a level pack (expected a JSON object)")
        if obj.get("format") != FORMAT:
            raise PuzzleError(f"{where}: field 'format': expected {FORMAT!r}, got "
                              f"{obj.get('format')!r} (not a level pack)")
        if obj.get("version") != VERSION:
            raise PuzzleError(f"{where}: field 'version': this boardlab reads version "
                              f"{VERSION}, got {obj.get('version')!r}")
        name = obj.get("name", "")
        if not isinstance(name, str):
            raise PuzzleError(f"{where}: field 'name': expected text, got {name!r}")
        pieces = obj.get("pieces")
        if not isinstance(pieces, str):
            raise PuzzleError(f"{where}: field 'pieces': expected the name of a piece set, "
                              f"got {pieces!r}")
        # A pack names a built-in set or 'custom', never a file: a pack is data from
        # elsewhere and must not make its reader open files.
        if pieces != CUSTOM and pieces not in PIECE_SETS:
            raise PuzzleError(f"{where}: field 'pieces': unknown piece set {pieces!r}; "
                              f"known: {', '.join(PIECE_SETS)}, or {CUSTOM!r}")
        salt = _hex_field(obj, "salt", where)
        if not salt:
            raise PuzzleError(f"{where}: field 'salt': must not be empty")
        entries = obj.get("levels")
        if not isinstance(entries, list) or not entries:
            raise PuzzleError(f"{where}: field 'levels': expected a non-empty list")
        sealed = []
        for i, entry in enumerate(entries):
            field = f"levels[{i}]"
            if not isinstance(entry, dict):
                raise PuzzleError(f"{where}: field '{field}': expected an object")
            if entry.get("number") != i + 1 or isinstance(entry.get("number"), bool):
                raise PuzzleError(f"{where}: field '{field}.number': expected {i + 1}, got "
                                  f"{entry.get('number')!r}")
            data = entry.get("data")
            try:
                if not isinstance(data, str):
                    raise ValueError
                data = base64.b64decode(data, validate=True)
            except (ValueError, binascii.Error):
                raise PuzzleError(f"{where}: field '{field}.data': expected base64 text"
                                  ) from None
            tag = _hex_field(entry, "tag", f"{where}", field=f"{field}.tag")
            if len(tag) != TAG_BYTES:
                raise PuzzleError(f"{where}: field '{field}.tag': expected {TAG_BYTES} bytes "
                                  f"({2 * TAG_BYTES} hex digits), got {len(tag)}")
            sealed.append(SealedLevel(i + 1, data, tag))
        pack = Pack(salt, pieces, tuple(sealed), None, name)
        if "solutions" not in obj:
            return pack
        solutions = obj["solutions"]
        if not (isinstance(solutions, list) and len(solutions) == len(sealed)
                and all(isinstance(s, str) for s in solutions)):
            raise PuzzleError(f"{where}: field 'solutions': expected {len(sealed)} texts like "
                              f"'abbc/aacc', one per level")
        levels = []
        code = pack.first_code
        for number, text in enumerate(solutions, start=1):
            field = f"solutions[{number - 1}]"
            try:
                puzzle = pack.unlock(number, code)
            except WrongCodeError:
                source = "the first code" if number == 1 else \
                    f"the code from level {number - 1}'s solution"
                raise PuzzleError(f"{where}: field 'levels[{number - 1}]': level {number} "
                                  f"does not decrypt with {source} (the file is corrupted)"
                                  ) from None
            except PuzzleError as e:
                raise PuzzleError(f"{where}: field 'levels[{number - 1}]': {e}") from None
            try:
                level = Level.from_puzzle(puzzle, text.split("/"))
            except PuzzleError as e:
                raise PuzzleError(f"{where}: field '{field}': {e}") from None
            levels.append(level)
            code = level_code(salt, number + 1, level.solution_checksum())
        try:
            _check_piece_set(levels, pieces)
        except PuzzleError as e:
            raise PuzzleError(f"{where}: field 'pieces': {e}") from None
        return replace(pack, levels=tuple(levels))

    def save(self, path: str | os.PathLike, *, with_solutions: bool = False) -> None:
        """Write the pack file atomically (a temporary file renamed over ``path``), so a
        crash never leaves half a file. Solutions are written only when asked: a file
        with them must not be given to players."""
        text = json.dumps(self.to_json(with_solutions=with_solutions), indent=1) + "\n"
        write_atomic(path, text, sync=True)

    @staticmethod
    def from_text(text: str, where: str = "pack") -> Pack:
        """The pack whose file holds ``text``; :class:`PuzzleError` names ``where`` and
        the field."""
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            raise PuzzleError(f"{where}: not valid JSON at line {e.lineno}, column {e.colno} "
                              f"({e.msg}); is the file truncated?") from None
        return Pack.from_json(obj, where=where)

    @staticmethod
    def load(path: str | os.PathLike) -> Pack:
        """Read a pack file; :class:`~boardlab.errors.FileError` when it cannot be read,
        :class:`PuzzleError` naming the file and the field when it is not a pack."""
        return Pack.from_text(read_text(path), where=str(path))


def _hex_field(obj: dict, key: str, where: str, field: str | None = None) -> bytes:
    field = field or key
    value = obj.get(key)
    try:
        if not isinstance(value, str):
            raise ValueError
        return bytes.fromhex(value)
    except ValueError:
        raise PuzzleError(f"{where}: field '{field}': expected hex digits, got {value!r}"
                          ) from None
