"""The web app's imported games: the Zillions rule files (``.zrf``) of a folder.

``boardlab serve --games DIR`` (by default ``DATA/games`` in the data folder) lists every
``*.zrf`` file under DIR (hidden files and folders skipped, at most :data:`MAX_FILES`) in
the lobby beside the registered games. Files are read again when one is added, changed
(its modification time or size) or removed: every request that lists or plays imported
games looks at the folder first, as the Triplex packs shelf does for ``DATA/packs``.

Ids: a file's game is ``zrf:`` and its path below the folder without ``.zrf``, with ``/``
between folders: ``zrf:chess/chess`` is ``DIR/chess/chess.zrf`` in the variant the file
marks default (else the game itself); ``zrf:chess/chess@2`` is its variant 2 (0 is the
game without a variant). No registered game has a ``:`` in its name, so the two kinds
never collide. A match stores the id with its variant number always written
(``zrf:chess/chess@0``) and its options (``max_moves``), so it is rebuilt in the same
variant even if the file's default changes later. A file whose name has an ``@`` or
whose id would be longer than :data:`MAX_ID` characters is listed as failed.

Reading is bounded: a file larger than :data:`MAX_FILE_BYTES` is not read, and the others
are read in a child process (:mod:`boardlab.web.zrf_worker`) that is killed when one file
(its default variant and its other variants) takes longer than :data:`LOAD_SECONDS`.
Files are read in a background thread, so the server answers meanwhile; the lobby lists
them as pending until they are read. The server loads a game itself only once its file
has been read in the child, and keeps the loaded game classes of the files it plays.

A file that does not load is listed with its reason (:meth:`Library.status`): the error's
one line, which names the file, line and column. Asking for its game, or for a file
that has gone, is a 404 with that reason (a stored match of it answers 409).
"""

from __future__ import annotations

import logging
import os
import stat
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardlab.catalog import resolve
from boardlab.core.game import Game
from boardlab.errors import BoardlabError, FileError
from boardlab.store.web import GAME_NAME_LENGTH
from boardlab.web.errors import ApiError
from boardlab.web.views import game_json
from boardlab.web.zrf_worker import Reader
from boardlab.worker import one_line

if TYPE_CHECKING:
    from boardlab.zrf.game import ZrfRules

log = logging.getLogger("boardlab.web")

#: The start of every imported game's id.
PREFIX = "zrf:"
#: Rule files larger than this are listed as failed without being read (the corpus's
#: largest is 80 KB).
MAX_FILE_BYTES = 1024 * 1024
#: The time one file may take to read, all its variants included.
LOAD_SECONDS = 10.0
#: The most rule files a folder may offer; later ones (in path order) are skipped.
MAX_FILES = 2000
#: The longest id of a file, leaving room for ``@`` and a variant number in a stored match.
MAX_ID = GAME_NAME_LENGTH - 5
#: Rule files' variants kept in memory, lowered to the move language.
CACHED_RULES = 64

Stamp = tuple[int, int]


def is_imported(name: str) -> bool:
    """Whether a game name is an imported game's id (``zrf:...``)."""
    return name.startswith(PREFIX)


def file_id(path: str) -> str:
    """The id of the rule file at ``path`` (relative to the folder, with ``/``).

    >>> file_id("chess/chess.zrf")
    'zrf:chess/chess'
    """
    return PREFIX + path.removesuffix(".zrf")


def parse_id(game_id: str) -> tuple[str, int | None]:
    """The rule file (relative path) and variant number (``None``: the file's default)
    an id names; 404 when it is not an imported game's id.

    >>> parse_id("zrf:chess/chess"), parse_id("zrf:chess/chess@2")
    (('chess/chess.zrf', None), ('chess/chess.zrf', 2))
    """
    if not is_imported(game_id) or len(game_id) > GAME_NAME_LENGTH:
        raise ApiError(404, f"no imported game {game_id!r}", game_id)
    body = game_id.removeprefix(PREFIX)
    stem, at, number = body.rpartition("@")
    if not at:
        return body + ".zrf", None
    if not (number.isascii() and number.isdigit()) or len(number) > 4 or not stem:
        raise ApiError(404, f"no imported game {game_id!r} (a variant is @ and its number)",
                       game_id)
    return stem + ".zrf", int(number)


def piece_labels(pieces: list[str]) -> dict[str, str]:
    """What the board writes on each piece: the shortest start of its name that no other
    piece's name starts with (all of it when it starts another name), at most four
    letters, the first one capitalised.

    >>> piece_labels(["Pawn", "Knight", "King", "Queen"])
    {'Pawn': 'P', 'Knight': 'Kn', 'King': 'Ki', 'Queen': 'Q'}
    >>> piece_labels(["Man", "Mandarin", "stone"])
    {'Man': 'Man', 'Mandarin': 'Mand', 'stone': 'S'}
    """
    out: dict[str, str] = {}
    for name in pieces:
        others = [p.lower() for p in pieces if p != name]
        label = next((name[:n] for n in range(1, len(name) + 1)
                      if not any(p.startswith(name[:n].lower()) for p in others)), name)
        out[name] = (label[:1].upper() + label[1:])[:4]
    return out


def _shown(path: str) -> str:
    # A file name that is not UTF-8 reaches Python with surrogates, which JSON refuses.
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _name_problem(path: str) -> str | None:
    if _shown(path) != path:
        return "the file name is not UTF-8"
    if "@" in path:
        return "a file name with '@' cannot be served ('@' names a variant in an id)"
    if not path.isprintable() or "\\" in path:
        return "the file name has a control character or a backslash"
    if len(file_id(path)) > MAX_ID:
        return f"the path is too long for an id (at most {MAX_ID} characters)"
    return None


@dataclass(frozen=True)
class Variant:
    """One playable variant of a rule file: its number (0: the game itself), its own
    title, the game's description, players, why it does not load (or ``None``), and its
    random players (their indices)."""

    number: int
    title: str
    description: str
    players: tuple[str, ...]
    error: str | None = None
    chance: tuple[int, ...] = ()


@dataclass(frozen=True)
class RuleFile:
    """A rule file as read: its path below the folder, the stamp (modification time,
    size) it was read at, and either its variants (the default first) or its error."""

    path: str
    stamp: Stamp
    variants: tuple[Variant, ...] = ()
    error: str | None = None
    #: Why some variants were not read (the time ran out), when that happened.
    note: str | None = None

    @property
    def id(self) -> str:
        return file_id(self.path)

    @property
    def default(self) -> Variant:
        return self.variants[0]

    def variant(self, number: int | None) -> Variant | None:
        """The variant of this number (``None``: the default)."""
        if number is None:
            return self.default if self.variants else None
        return next((v for v in self.variants if v.number == number), None)

    def variant_id(self, number: int) -> str:
        """The id of a variant: the file's id for the default one, else with ``@n``."""
        return self.id if number == self.default.number else f"{self.id}@{number}"

    def imported_json(self, number: int) -> dict[str, Any]:
        """The ``imported`` field of a game of this file in variant ``number``."""
        return {"file": self.path, "variant": number, "default_variant": self.default.number,
                "variants": [{"id": self.variant_id(v.number), "variant": v.number,
                              "title": v.title, "description": v.description,
                              "players": list(v.players), "chance": list(v.chance),
                              "error": v.error}
                             for v in self.variants],
                "note": self.note}

    def summary(self) -> dict[str, Any]:
        """The file's default game as ``GET /api/games`` lists it."""
        from boardlab.zrf.game import ZrfGame

        variant = self.default
        return {"name": self.id, "description": variant.description,
                "players": list(variant.players), "chance": list(variant.chance),
                "options": [o.describe() for o in ZrfGame.option_schema],
                "source": ZrfGame.source, "imported": self.imported_json(variant.number)}


class Library:
    """The rule files of ``folder`` (``None``: no imported games), read in the background
    (see the module docstring). Thread-safe."""

    def __init__(self, folder: str | Path | None, *, seconds: float = LOAD_SECONDS,
                 max_bytes: int = MAX_FILE_BYTES, max_files: int = MAX_FILES):
        self.folder = None if folder is None else Path(folder).expanduser()
        self.max_bytes = max_bytes
        self.max_files = max_files
        self._reader = Reader(seconds)
        self._lock = threading.Condition()
        self._found: dict[str, Stamp] = {}       # path -> stamp, as last seen in the folder
        self._refused: dict[str, str] = {}       # path -> why it is not read
        self._files: dict[str, RuleFile] = {}    # path -> the file as read
        self._pending: dict[str, Stamp] = {}     # path -> stamp still to read
        self._skipped = 0
        self._scanning = False
        self._closed = False
        self._lowered_rules: OrderedDict[tuple[str, int], tuple[Stamp, ZrfRules]] = \
            OrderedDict()

    # --- the folder -------------------------------------------------------------------
    def _walk(self) -> tuple[dict[str, Stamp], dict[str, str], int]:
        found: dict[str, Stamp] = {}
        refused: dict[str, str] = {}
        skipped = 0
        folder = self.folder
        if folder is None or not folder.is_dir():
            return found, refused, skipped
        for root, dirs, files in os.walk(folder, onerror=None):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                if not name.endswith(".zrf") or name.startswith("."):
                    continue
                full = Path(root) / name
                path = full.relative_to(folder).as_posix()
                try:
                    info = full.stat()
                except OSError:
                    continue
                if not stat.S_ISREG(info.st_mode):
                    continue
                if len(found) + len(refused) >= self.max_files:
                    skipped += 1
                    continue
                problem = _name_problem(path)
                if problem is None and info.st_size > self.max_bytes:
                    problem = (f"the file has {info.st_size:,} bytes, more than the "
                               f"{self.max_bytes:,} a rule file may have here")
                if problem is not None:
                    refused[_shown(path)] = problem
                else:
                    found[path] = (info.st_mtime_ns, info.st_size)
        return found, refused, skipped

    def refresh(self) -> None:
        """Look at the folder; files added or changed are read in the background."""
        found, refused, skipped = self._walk()
        with self._lock:
            self._found, self._refused, self._skipped = found, refused, skipped
            self._files = {p: f for p, f in self._files.items() if found.get(p) == f.stamp}
            self._pending = {p: s for p, s in found.items() if p not in self._files}
            if self._pending and not self._scanning and not self._closed:
                self._scanning = True
                threading.Thread(target=self._scan, name="boardlab-zrf-library",
                                 daemon=True).start()

    def _scan(self) -> None:
        while True:
            with self._lock:
                if self._closed or not self._pending:
                    self._scanning = False
                    self._lock.notify_all()
                    return
                path = min(self._pending)
                stamp = self._pending[path]
            self._read(path, stamp)

    def _read(self, path: str, stamp: Stamp) -> RuleFile:
        assert self.folder is not None
        try:
            reading = self._reader.read(str(self.folder / path), path)
        except Exception as e:  # noqa: BLE001 - the scan must go on whatever happens
            log.exception("boardlab web: reading %s", path)
            entry = RuleFile(path, stamp, error=f"cannot read it: {one_line(e)}")
        else:
            if reading.game is None:
                entry = RuleFile(path, stamp, error=reading.error)
            else:
                variants = [reading.game, *reading.variants]
                entry = RuleFile(path, stamp, tuple(
                    Variant(v["variant"], v["title"], v["description"], tuple(v["players"]),
                            v["error"], tuple(v.get("chance", ()))) for v in variants),
                    note=None if reading.cut is None else
                    f"only {len(variants)} variants were read: {reading.cut}")
        with self._lock:
            if self._pending.get(path) == stamp:
                del self._pending[path]
            if self._found.get(path) == stamp:
                self._files[path] = entry
            self._lock.notify_all()
        return entry

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until every file seen is read; ``False`` if ``timeout`` ran out first."""
        with self._lock:
            return self._lock.wait_for(lambda: not self._pending or self._closed, timeout)

    def close(self) -> None:
        """Stop reading (the server is stopping)."""
        with self._lock:
            self._closed = True
            self._lock.notify_all()
        self._reader.close()

    # --- what the lobby shows -------------------------------------------------------------
    def games(self) -> list[dict[str, Any]]:
        """The games of the files read so far (each file's default variant), by path."""
        self.refresh()
        with self._lock:
            files = sorted(self._files.values(), key=lambda f: f.path)
        return [f.summary() for f in files if f.error is None]

    def status(self) -> dict[str, Any]:
        """``{"files", "loaded", "failed": [{"file", "error"}], "pending", "skipped"}``:
        the rule files seen, how many loaded, those that failed with their reason, those
        still being read, and how many were skipped beyond :data:`MAX_FILES`."""
        self.refresh()
        with self._lock:
            failed = [{"file": f.path, "error": f.error} for f in self._files.values()
                      if f.error is not None]
            failed += [{"file": p, "error": e} for p, e in self._refused.items()]
            loaded = sum(1 for f in self._files.values() if f.error is None)
            return {"files": len(self._found) + len(self._refused), "loaded": loaded,
                    "failed": sorted(failed, key=lambda f: f["file"]),
                    "pending": sorted(self._pending), "skipped": self._skipped}

    # --- playing ------------------------------------------------------------------------
    def resolve(self, game_id: str) -> tuple[RuleFile, Variant]:
        """The rule file and variant of an id, the file read now if it is new or changed;
        404 naming the reason when there is none or it does not load."""
        path, number = parse_id(game_id)
        self.refresh()
        with self._lock:
            stamp = self._found.get(path)
            refused = self._refused.get(path)
            entry = self._files.get(path)
        if refused is not None:
            raise ApiError(404, f"imported game {game_id!r} is not served: {path}: {refused}",
                           game_id)
        if stamp is None:
            raise ApiError(404, f"no imported game {game_id!r}: there is no rule file "
                                f"{_shown(path)} in the games folder", game_id)
        if entry is None or entry.stamp != stamp:
            entry = self._read(path, stamp)
        if entry.error is not None:
            raise ApiError(404, f"imported game {game_id!r} does not load: {entry.error}",
                           game_id)
        variant = entry.variant(number)
        if variant is None:
            known = ", ".join(str(v.number) for v in entry.variants)
            raise ApiError(404, f"no imported game {game_id!r}: {path} has no variant "
                                f"{number} (variants: {known})", game_id)
        if variant.error is not None:
            raise ApiError(404, f"imported game {game_id!r} does not load: {variant.error}",
                           game_id)
        return entry, variant

    def _lowered(self, entry: RuleFile, variant: Variant) -> ZrfRules:
        """The variant's rules lowered to the move language, read once per stamp of its
        file."""
        from boardlab.zrf.game import read

        key = (entry.path, variant.number)
        with self._lock:
            cached = self._lowered_rules.get(key)
            if cached is not None and cached[0] == entry.stamp:
                self._lowered_rules.move_to_end(key)
                return cached[1]
        assert self.folder is not None
        try:
            # The child read this very stamp within the time allowed, so this is bounded.
            lowered = read(self.folder / entry.path, variant.number, name=entry.path)
        except (BoardlabError, RecursionError) as e:
            raise ApiError(404, f"imported game {entry.variant_id(variant.number)!r} does "
                                f"not load: {one_line(e)}", entry.id) from None
        with self._lock:
            self._lowered_rules[key] = (entry.stamp, lowered)
            while len(self._lowered_rules) > CACHED_RULES:
                self._lowered_rules.popitem(last=False)
        return lowered

    def load(self, game_id: str, options: Mapping[str, Any]) -> tuple[str, Game]:
        """The game of an id with JSON ``options``, and the id a match stores for it (the
        variant number always written)."""
        entry, variant = self.resolve(game_id)
        return f"{entry.id}@{variant.number}", self._build(entry, variant, options)

    def _build(self, entry: RuleFile, variant: Variant, options: Mapping[str, Any]) -> Game:
        return resolve(self._lowered(entry, variant), options, background=True)

    def game_json(self, game_id: str, options: Mapping[str, Any]) -> dict[str, Any]:
        """``GET /api/games/{id}`` of an imported game: the registered games' fields
        (``name`` is the id), the board with each cell's rectangle on the file's screen
        (``rects``: ``[left, top, right, bottom]``, ``None`` when the file gives none),
        the cells not drawn (``hidden``: dummy positions), the label of each piece
        (``labels``), and ``imported``."""
        entry, variant = self.resolve(game_id)
        game = self._build(entry, variant, options)
        spec = game.spec  # type: ignore[attr-defined]
        data = game_json(game)
        board = data["board"]
        rects = [list(spec.pixels.get(cell, (0, 0, 0, 0)))
                 for cell in range(len(board["cells"]))]
        board["rects"] = rects if any(any(r) for r in rects) else None
        # Dummy positions: they exist (pieces may stand there) but are not drawn.
        board["hidden"] = sorted(spec.dummies)
        board["labels"] = piece_labels(list(spec.pieces))
        return {**data, "name": game_id, "imported": entry.imported_json(variant.number)}


def games_folder(games_dir: str | Path | None, data_dir: str | Path | None) -> Path:
    """The folder of imported games: ``games_dir`` (which must be a folder), else
    ``games`` in the data folder (which need not exist)."""
    if games_dir is not None:
        folder = Path(games_dir).expanduser()
        if not folder.is_dir():
            what = "is not a folder" if folder.exists() else "no such folder"
            raise FileError(f"{folder}: {what} (--games names a folder of .zrf files)",
                            path=str(folder))
        return folder
    from boardlab.store.db import data_dir as default_data_dir

    base = Path(data_dir).expanduser() if data_dir is not None else default_data_dir()
    return base / "games"
