"""A game's kernel: its :class:`Plan` (the compiled module, the tables its functions
read and the registry of moves), found once per game by :func:`plan_for`; the source
written for a game (:func:`source`) and why a game has none (:func:`why_not`)."""

from __future__ import annotations

import contextlib
import threading
import types
import weakref
from dataclasses import dataclass
from functools import cached_property, partial
from typing import TYPE_CHECKING, Any

import numpy as np

from boardlab.core import rules as r
from boardlab.core.engine import Engine
from boardlab.core.game import PlayoutPolicy, Returns
from boardlab.core.goals import Goals
from boardlab.core.move import (
    Move,
    Mover,
    Noted,
    Piece,
    Spelling,
)
from boardlab.core.position import PieceGame, PieceState
from boardlab.core.rules import Template
from boardlab.errors import BoardError, RulesError

if TYPE_CHECKING:
    pass

from boardlab.core.kernel.checks import _check
from boardlab.core.kernel.compiler import (
    _cached_mark,
    _compile_apart,
    _compiling,
    _load,
    _module_file,
)
from boardlab.core.kernel.layout import (
    _ENTRIES,
    _FOOT_MARK,
    _HIST,
    _KINDS,
    _NO_WEIGHTS,
    _NOTE_MARK,
    _RHEAD,
    BOARD,
    REGISTRY,
    Unsupported,
    _digest,
    _entry,
    _registry,
    decode,
    decode_steps,
    pass_index,
)
from boardlab.core.kernel.position import kernel_class
from boardlab.core.kernel.writer import _Writer


@dataclass(eq=False)
class Plan:
    """A game's kernel: the compiled module, the array its functions read (the game's
    tables, a scratch area and the registry of the moves met so far, which numbers
    them densely) and the interned Move objects, one per registered move."""

    game: PieceGame
    module: types.ModuleType
    table: np.ndarray
    registry: int
    #: Where the table holds the Zobrist keys of the side to move.
    sides: int
    pieces: tuple[Piece | None, ...]
    codes: dict[Piece, int]
    templates: tuple[Template, ...]
    goals: Goals
    size: int
    players: int
    source: str
    #: The pieces in hand a position counts (see _Writer.hand), and whether the array
    #: holds counts in hand at all.
    hand: tuple[Piece, ...] = ()
    reserved: bool = False
    #: Whether the goals count repetitions (a playout then keeps its history's rows).
    repeats: bool = False
    #: The kinds of the Captured goals (see _Writer.taken).
    taken: tuple[frozenset[str], ...] = ()
    #: The names of the moves a follow-up may be due of (rules.FollowUp), by their code.
    follows: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        game = self.game
        # The kernel's entry points, bound here: they are called at every ply, and a
        # compiled overload called directly skips the dispatcher's typing of the
        # arguments (a tenth of a ply's cost on Breakthrough).
        # rehash is compiled now too: a registry first grows in the middle of play,
        # which must not stop for a compilation then.
        entries = {name: _entry(getattr(self.module, name), *kinds)
                   for name, kinds in _ENTRIES.items()}
        self.scan, self.play = entries["scan"], entries["play"]
        self.undo, self.rehash = entries["undo"], entries["rehash"]
        #: Held by every change to the registry of moves: positions of one game may be
        #: played from several threads (the web server's), and a registry that grows
        #: must not lose a move another thread registers meanwhile. Kernel calls hold
        #: the GIL from start to end (they are not ``nogil``), so one call is atomic for
        #: other threads: a call in read mode (the common one: every move it meets is
        #: registered and has its Move object) needs no lock. A call that would
        #: register a move says so instead (-10, or -11 after its move) and the
        #: position calls again in write mode, under this lock, which also covers
        #: making the new moves' objects and growing the registry.
        self.lock = threading.RLock()
        #: Rows a new position's history starts with: the longest game seen so far (up
        #: to :data:`_ROWS`), so that playing one rarely grows its history.
        self.rows = 16
        self.counts_at = BOARD + self.size
        self.hand_at = self.counts_at + len(self.pieces)
        self.moves_at = self.hand_at + (len(self.pieces) if self.reserved else 0)
        #: The interned moves by registry index, and index by id (interned moves live
        #: as long as the plan, so an id cannot be reused). A list, not an array of
        #: objects: the cyclic collector does not look into those, and the moves' notation
        #: holds the game, which holds its plan, so no game would ever be freed.
        self.objects: list[Move] = []
        self.known = 0
        self.ids: dict[int, int] = {}
        self._spellings = tuple(Spelling(partial(game.notation, Mover(game, p)))
                                for p in range(self.players))
        self._returns: dict[int, Returns] = {}
        self._weights: dict[PlayoutPolicy, np.ndarray] = {}
        #: The history row a playout's moves are made with: used within one ply, so
        #: within one kernel call, it is shared by every playout of the game.
        self.row = np.empty((1, _HIST), dtype=np.int64)
        self._start: Any = None
        self._pass = pass_index(self.templates)
        #: The class of the game's kernel positions.
        self.state_class: Any = kernel_class(game.state_class)
        self._names = [t.name for t in self.templates]
        #: The actions of each registered move, by index (decoded once, shared by the
        #: moves' objects).
        self._actions: list[tuple] = []

    @cached_property
    def perft(self) -> Any:
        """The kernel's perft (``perft``), compiled on first use."""
        return _entry(self.module.perft, "vector", "matrix", "vector", "vector", "int",
                      "vector", "vector")

    @cached_property
    def run(self) -> Any:
        """The kernel's random playouts (``run``), compiled on first use: most games
        are never played out."""
        return _entry(self.module.run, "vector", "vector", "matrix", "vector", "vector",
                      "int", "int", "int", "vector")

    @cached_property
    def uct(self) -> Any:
        """The kernel's tree search (``uct``, see :mod:`boardlab.core.kernel.search`),
        compiled on first use: only bots search."""
        return _entry(self.module.uct, "vector", "vector", "matrix", "vector", "matrix",
                      "floats", "float matrix", "vector", "int", "int", "float", "vector",
                      "vector", "int", "vector", "floats", "int")

    def weights(self, policy: PlayoutPolicy | None) -> np.ndarray:
        """A policy's weights as ``run`` reads them, by player, template (the pass
        after the templates) and whether the move captures; none without a policy."""
        if policy is None:
            return _NO_WEIGHTS
        found = self._weights.get(policy)
        if found is None:
            chance = self.goals.chance
            names = [*self._names, None]
            found = np.array([
                1 if player in chance else
                (policy.tags.get(name, 1) if isinstance(name, str) else 1)
                * (policy.capture if captures else 1)
                for player in range(self.players) for name in names
                for captures in (0, 1)], dtype=np.int64)
            self._weights[policy] = found
        return found

    def initial_state(self) -> PieceState:
        """A copy of the game's start position (built and scanned once)."""
        start = self._start
        if start is None:
            with self.lock:
                start = self._start
                if start is None:
                    game = self.game
                    cells: list[Piece | None] = [None] * self.size
                    for name, piece in game.ruleset.placement.items():
                        cells[game.board.cell(name)] = piece
                    start = self.state_class(game, cells, 0, dict(game.ruleset.reserves),
                                             0, self)
                    # Scanned once, for every copy; rules that fail here fail when a
                    # copy is asked, as a plain position's do.
                    with contextlib.suppress(BoardError, RulesError):
                        start.is_terminal()
                    # Shown to other threads only now, complete: a scan may replace
                    # its array, and a copy made meanwhile would mix two arrays.
                    self._start = start
        return start.clone()

    def after(self, packed: int) -> None:
        """Act on the flags of a kernel's answer: make the Move objects of newly
        registered moves, grow the registry when it fills."""
        if packed & (1 << 34):
            self.refresh()
        if packed & (1 << 35):
            self._grow()

    def refresh(self) -> None:
        """Make the Move objects of the moves registered since the last call."""
        t, base = self.table, self.registry
        count = int(t[base])
        if count <= self.known:
            return
        cap = int(t[base + 1])
        meta_at, words_at = base + _RHEAD + 2 * cap, base + _RHEAD + 3 * cap
        known = self.known
        # Games with many moves (groups) meet new ones at most plies: one loop of
        # plain Python over the new moves, read in one go.
        objects, ids = self.objects, self.ids
        spellings, names, pieces = self._spellings, self._names, self.pieces
        game = self.game
        cell_name = game.board.cell_name
        new = tuple.__new__  # what Move() does, without a Python call
        metas = t[meta_at + known:meta_at + count].tolist()
        first = metas[0] >> 27
        last = (metas[-1] >> 27) + ((metas[-1] >> 15) & 4095)
        words = t[words_at + first:words_at + last].tolist()
        for index, meta in enumerate(metas, known):
            player, template = meta & 7, (meta >> 3) & 4095
            at = (meta >> 27) - first
            mine = words[at:at + ((meta >> 15) & 4095)]
            actions = decode(mine, pieces)
            self._actions.append(actions)
            if template == self._pass:
                move = Move("pass", ())  # as the interpreter writes it
            elif len(actions) < len(mine) and mine[len(actions)] & _FOOT_MARK:
                # A footprint's move: its centre before and after (see _FOOT).
                note = mine[len(actions)]
                origin, centre = note & 0xFFFF, (note >> 16) & 0xFFFF
                move = new(Move, (f"{cell_name(origin)}-{cell_name(centre)}", actions,
                                  (origin, centre)))
            elif len(actions) < len(mine) and mine[len(actions)] & _NOTE_MARK:
                # The group a capture keeps, where the mover chose it (see _NOTE).
                note = r.KeepLargestGroup.note(game.board, mine[len(actions)] & 0xFFFF)
                move = new(Move, (Noted(spellings[player], note), actions, names[template]))
            elif len(actions) < len(mine):  # a chain: its steps spell it
                move = new(Move, (game.chain_notation(
                    Mover(game, player), decode_steps(mine[len(actions):], pieces)),
                    actions, names[template]))
            else:
                move = new(Move, (spellings[player], actions, names[template]))
            objects.append(move)  # the index-th (each registered move once, in order)
            ids[id(move)] = index
        self.known = count
        t[base + 2] = count

    def _grow(self) -> None:
        """Double the registry: its hash slots and the room for the moves' words (the
        moves keep their indices)."""
        old, base = self.table, self.registry
        count, cap = int(old[base]), int(old[base + 1])
        table = np.concatenate([old[:base], _registry(2 * cap)])
        table[base + 2] = old[base + 2]
        if self.rehash(table, old[base:].copy()) != count:
            raise RuntimeError(f"{self.game.name}: the kernel's registry lost a move as it grew")
        self.table = table

    def actions(self, index: int) -> tuple:
        """The actions of the registered move ``index``, in the order the interpreter
        writes them."""
        if index >= self.known:
            self.refresh()
        return self._actions[index]

    def returns(self, status: int, state: Any) -> Returns:
        """The game's returns for a kernel status (an ending)."""
        kind, player = _KINDS[status // self.players], status % self.players
        if kind == "count":
            return self.goals.ending(kind, player, state)
        out = self._returns.get(status)
        if out is None:
            out = self._returns[status] = self.goals.ending(kind, player, state)
        return out


def plan_for(game: PieceGame) -> Plan | None:
    """The game's kernel (built once per game instance and kept on it, so that it goes
    with the game), or None when it has none (as a game not of the move language)."""
    if not isinstance(game, PieceGame):
        return None
    known = game.kernel_found
    if known is not None:
        return known[0]
    # One plan per game even when several threads ask at once: positions of one game
    # must share its registry of moves.
    with _BUILDING:
        known = game.kernel_found
        if known is not None:
            return known[0]
        if _WAITING.get(game) in _COMPILING:
            return None  # its kernel still compiles: the interpreter plays meanwhile
        try:
            written = _write(game)
            if game.engine is Engine.BACKGROUND and not _compiled_here(game, written):
                return None  # a thread compiles it; the interpreter plays meanwhile
            game.kernel_found = (_build(game, written), None)
        except Unsupported as e:
            game.kernel_found = (None, str(e))
    return game.kernel_found[0]


_BUILDING = threading.RLock()


#: a thread compiles now.
_COMPILED: set[str] = set()


_COMPILING: set[str] = set()


#: compiled, the game's new positions play on the interpreter without its source
#: written again (0.1 s of CPU for chess.zrf each time).
_WAITING: weakref.WeakKeyDictionary[PieceGame, str] = weakref.WeakKeyDictionary()


def _compiled_here(game: PieceGame, written: tuple[_Writer, str]) -> bool:
    """Whether ``game``'s kernel module (``written``) is compiled in this process; if
    not, a thread (one per module) compiles it now."""
    digest = _digest(written[1])
    if digest in _COMPILED:
        return True
    _WAITING[game] = digest
    if digest not in _COMPILING:
        _COMPILING.add(digest)

        def compile_now() -> None:
            try:
                _build(game, written)
            except Exception:  # noqa: BLE001 - its positions meet the error themselves
                pass
            finally:
                with _BUILDING:
                    _COMPILING.discard(digest)
                    _COMPILED.add(digest)  # compiled, or failing: built in the open

        threading.Thread(target=compile_now, name=f"kernel {digest}", daemon=True).start()
    return False


def why_not(game: PieceGame) -> str | None:
    """Why ``game`` gets no kernel (None when it gets one): what its rules have that a
    kernel does not run, or what writing its kernel met (its source is written, not
    compiled)."""
    known = game.kernel_found if isinstance(game, PieceGame) else None
    if known is not None:
        return known[1]
    try:
        _write(game)
    except Unsupported as e:
        return str(e)
    return None


def _write(game: PieceGame) -> tuple[_Writer, str]:
    """The writer of ``game``'s kernel, and the module's source it wrote (Unsupported
    for a game with none)."""
    goals, templates = _check(game)
    writer = _Writer(game, goals, templates)
    return writer, writer.write()


def _build(game: PieceGame, written: tuple[_Writer, str]) -> Plan:
    writer, source = written
    path = _module_file(source)
    # Compiled apart unless this process has it or a child put it in numba's cache (a
    # cache since removed compiles again here: slower, still right).
    if _digest(source) not in _COMPILED and not _cached_mark(path).exists():
        with _compiling(path):
            if not _cached_mark(path).exists():  # another process may have compiled it
                _compile_apart(path)
    module = _load(source, path)
    table = np.concatenate([np.array(writer.table, dtype=np.int64),
                            np.zeros(writer.scratch, dtype=np.int64), _registry(REGISTRY)])
    plan = Plan(game, module, table, writer.registry, writer.sides, writer.pieces,
                writer.codes, writer.templates, writer.goals, writer.size, writer.players,
                source,
                writer.hand, writer.reserved, writer.repeats, writer.taken, writer.follows)
    _COMPILED.add(_digest(source))  # its functions are compiled (Plan's entries)
    return plan


def source(game: PieceGame) -> str:
    """The kernel module's source for ``game`` (to read or debug)."""
    return _write(game)[1]
