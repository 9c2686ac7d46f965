"""Positions played by a game's kernel: :class:`KernelPosition` keeps a position's
array and history and calls the kernel to list, make and undo moves, count perft and
play whole random games; :func:`kernel_class` mixes it into a game's position class."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from boardlab.core.game import PlayoutPolicy, Playouts, Returns, State
from boardlab.core.kernel.search import Tree
from boardlab.core.move import (
    Capture,
    Move,
    Piece,
)
from boardlab.core.position import PieceGame, PieceState
from boardlab.errors import BoardError, IllegalMoveError, OptionError, RulesError

if TYPE_CHECKING:
    import random

    from boardlab.core.kernel.plan import Plan

from boardlab.core.kernel.layout import (
    _AFTER,
    _AFTER_ERRORS,
    _AFTER_SHORTAGES,
    _ARENA,
    _ERRORS,
    _HIST,
    _MASK64,
    _PERFT_ROOM,
    _ROOM,
    _TOUCH,
    BASE,
    BOARD,
    DEPTH,
    FOLLOW,
    KEY,
    LAST,
    MAX_MOVES,
    MOVER,
    NMOVES,
    PLY,
    REPS,
    SINCE,
    STATUS,
    TAKEN,
    TO_MOVE,
    TURNS,
    UNKNOWN,
    Status,
    Unsupported,
    _signed,
    _taken_at,
    _taken_bits,
)

# The position.



_ROWS = 256


_WRITE = 1 << 40


#: (a game that never ends can then be interrupted).
_BUDGET = 1 << 20


class KernelPosition:
    """What makes a position of a game with a kernel: mixed into the game's position
    class (a :class:`PieceState`, or a subclass that takes kernels; see
    :func:`kernel_class`), it keeps the board, side to move, ply, key, result and legal
    moves in one array the kernel updates, and reads the rest from it."""

    __slots__ = ()
    #: The position class it is mixed into.
    _plain: type[PieceState] = PieceState

    def __init__(self, game: PieceGame, cells: list[Piece | None], to_move: int,
                 reserves: dict[Piece, int], ply: int, plan: Plan | None = None, *,
                 follow: str | None = None, turns: int | None = None):
        """A position as :class:`PieceState` takes it (``plan``: the game's kernel)."""
        if plan is None:
            # A plan makes its positions; this module learns of plans only here.
            from boardlab.core.kernel.plan import plan_for, why_not

            plan = plan_for(game)
        if plan is None:
            raise RulesError(f"{game.name} has no kernel: {why_not(game)}")
        self.game = game
        self._plan = plan
        s = np.zeros(plan.moves_at + _ROOM, dtype=np.int64)
        codes = plan.codes
        for cell, piece in enumerate(cells):
            if piece is not None:
                code = codes.get(piece)
                if code is None:
                    raise Unsupported(f"{game.board.cell_name(cell)}: {piece} is a piece "
                                      "the kernel does not know")
                s[BOARD + cell] = code
                s[plan.counts_at + code] += 1
        for piece, count in reserves.items():
            # The kernel counts the pieces a position of the game starts with in hand
            # (its key reads every one of them), no others.
            if piece not in plan.hand or not 0 <= count < 1 << 40:
                raise Unsupported(f"{piece} in hand is a reserve the kernel does not hold")
            s[plan.hand_at + codes[piece]] = count
        s[TO_MOVE], s[PLY], s[MOVER], s[NMOVES], s[STATUS] = to_move, ply, -1, -1, UNKNOWN
        s[REPS] = 1
        if follow is not None and follow not in plan.follows:
            raise Unsupported(f"a move of type {follow!r} due is no follow-up of the rules")
        s[FOLLOW] = -1 if follow is None else plan.follows.index(follow)
        s[TURNS] = ply if turns is None else turns
        self._s = s
        self._h = np.empty((plan.rows, _HIST), dtype=np.int64)
        self._n = -1
        self._status = UNKNOWN
        self._to_move = to_move
        self._history = []
        self._cache = {}
        for name, make in type(self).kernel_fields.items():
            setattr(self, name, make())
        s[KEY] = _signed(self._full_key())
        s[MOVER] = self._mover_without_history()

    # --- the fields PieceState keeps in Python, read from the array -----------------
    @property  # type: ignore[override]
    def cells(self) -> list[Piece | None]:
        """The pieces on the cells (a new list: the array is the position)."""
        pieces = self._plan.pieces
        return [pieces[c] for c in self._s[BOARD:BOARD + self._plan.size].tolist()]

    @cells.setter
    def cells(self, value: list[Piece | None]) -> None:
        raise AttributeError("a kernel position's cells change only by moves")

    @property  # type: ignore[override]
    def reserves(self) -> dict[Piece, int]:
        """The pieces in hand (a new dict: the array is the position), by piece."""
        plan = self._plan
        s, at, codes = self._s, plan.hand_at, plan.codes
        return {piece: int(s[at + codes[piece]]) for piece in plan.hand}

    @reserves.setter
    def reserves(self, value: dict[Piece, int]) -> None:
        raise AttributeError("a kernel position's pieces in hand change only by moves")

    @property  # type: ignore[override]
    def ply(self) -> int:
        return int(self._s[PLY])

    @ply.setter
    def ply(self, value: int) -> None:
        self._s[PLY] = value

    @property  # type: ignore[override]
    def turns(self) -> int:
        return int(self._s[TURNS])

    @turns.setter
    def turns(self, value: int) -> None:
        self._s[TURNS] = value

    @property  # type: ignore[override]
    def follow(self) -> str | None:
        code = int(self._s[FOLLOW])
        return None if code < 0 else self._plan.follows[code]

    @follow.setter
    def follow(self, value: str | None) -> None:
        raise AttributeError("a kernel position's move due changes only by moves")

    @property  # type: ignore[override]
    def last_from(self) -> int | None:
        # A drop's last move has a target and no source.
        return (int(self._s[LAST]) & 0xFFFF) - 1 if int(self._s[LAST]) & 0xFFFF else None

    @last_from.setter
    def last_from(self, value: int | None) -> None:
        # Set when a position is read from text, before its first move.
        self._set_last(0xFFFF, 0 if value is None else value + 1)

    @property  # type: ignore[override]
    def last_to(self) -> int | None:
        return (int(self._s[LAST]) >> 16) - 1 if self._s[LAST] else None

    @last_to.setter
    def last_to(self, value: int | None) -> None:
        self._set_last(0xFFFF << 16, 0 if value is None else (value + 1) << 16)

    def _set_last(self, field: int, value: int) -> None:
        """A new last move's source or target: the key (when the class keys it), the
        moves and the result follow."""
        s = self._s
        s[LAST] = (int(s[LAST]) & ~field) | value
        s[KEY] = _signed(self._full_key())
        self._recount()

    def _mover_without_history(self) -> int:
        """Who made the last move as the position class says when it has no moves
        behind it (-1: nobody knows)."""
        mover = self._plain.last_mover.fget(self)  # type: ignore[attr-defined]
        return -1 if mover is None else mover

    def _last_number(self) -> int | None:
        depth = int(self._s[DEPTH])
        return int(self._h[depth - 1, 4]) if depth > self._s[BASE] else None

    # --- the past -------------------------------------------------------------------
    def _past_keys(self) -> list[int]:
        """The keys of the positions before this one (a ZRF position's past): the
        history's rows."""
        return [k & _MASK64 for k in self._h[:int(self._s[DEPTH]), 1].tolist()]

    def _set_past(self, keys: Sequence[int]) -> None:
        """Start from ``keys`` as the positions before this one (a ZRF position
        read from text or copied), no move played here."""
        s = self._s
        n = len(keys)
        if n > len(self._h):
            self._h = np.empty((n + self._plan.rows, _HIST), dtype=np.int64)
        self._h[:n, 1] = [_signed(k) for k in keys]
        s[BASE] = s[DEPTH] = n
        s[SINCE] = 0
        self._recount()

    def _set_taken(self, pieces: Sequence[Piece]) -> None:
        """What the last move took, for a position with no move played here (a ZRF
        position read from text or copied; see ``ZrfState._set_taken``)."""
        self._plain._set_taken(self, pieces)  # type: ignore[attr-defined]
        s = self._s
        bits = _taken_bits(self._plan.taken, self._plan.players, pieces)
        if s[TAKEN] != bits:
            s[TAKEN] = bits
            s[NMOVES], s[STATUS] = -1, UNKNOWN
            self._n, self._status = -1, UNKNOWN

    def _recount(self) -> None:
        """How often the position has occurred, again (after its key changed)."""
        s = self._s
        depth = int(s[DEPTH])
        s[REPS] = 1 + int(np.count_nonzero(self._h[:depth, 1] == s[KEY]))
        s[NMOVES], s[STATUS] = -1, UNKNOWN
        self._n, self._status = -1, UNKNOWN

    # --- protocol -------------------------------------------------------------------
    def _failed(self, code: int) -> None:
        """Make room after a kernel's call that ran out of it (or raise its error)."""
        if code == Status.LOOPS:  # as the interpreter says it
            raise BoardError("move template loops forever (While never ends)")
        if code == Status.CHAIN_BOUND:  # as the interpreter says it
            bound = self.game.move_rules.max_chains
            raise RulesError(f"the partial moves of this position take more than {bound} "
                             "steps to explore (the engine's bound): the rules' chains do "
                             "not come to an end")
        if code in _ERRORS:
            raise RulesError(f"{self.game.name}: {_ERRORS[code]} ({self})")
        if code in (Status.REGISTRY, Status.REGISTRY_AFTER):
            self._plan._grow()
        elif code in (Status.ROOM, Status.ROOM_AFTER):
            # Room for the most moves a position may have.
            s = self._s
            self._s = np.concatenate([s, np.zeros(MAX_MOVES + self._plan.moves_at - len(s),
                                                  dtype=np.int64)])
        elif code == Status.HISTORY:
            h = self._h
            self._h = np.concatenate([h, np.empty_like(h)])
            plan = self._plan
            plan.rows = max(plan.rows, min(len(self._h), _ROWS))
        elif code not in (Status.UNREGISTERED, Status.UNREGISTERED_AFTER):  # pragma: no cover
            raise RulesError(f"{self.game.name}: the kernel failed ({code})")

    def _scan(self) -> None:
        plan = self._plan
        packed = plan.scan(self._s, plan.table, 0)
        if packed < 0 or packed >> 34:
            packed = self._settle(packed, -1)
        self._n = packed & 16777215
        self._status = ((packed >> 24) & 127) - 2
        self._to_move = (packed >> 31) & 7

    def _settle(self, packed: int, index: int) -> int:
        """Finish a kernel's call (a scan, or the play of move ``index``) that asked
        for more than read mode gives: room, new moves to register, Move objects to
        make. Under the plan's lock, calling again in write mode."""
        plan = self._plan
        if packed == Status.ILLEGAL:
            raise IllegalMoveError(str(plan.objects[index]), f"not legal in {self}")
        with plan.lock:
            for _ in range(64):  # each shortage doubles what ran short
                if packed >= 0:
                    plan.after(packed)
                    return packed
                if packed in _AFTER_ERRORS:
                    return packed
                self._failed(packed)
                if index < 0 or packed in _AFTER_SHORTAGES:
                    # Only a scan (the move, if any, is played): a further shortage
                    # keeps its after-move code.
                    after = packed in _AFTER_SHORTAGES
                    packed = plan.scan(self._s, plan.table, 1)
                    if after:
                        packed = _AFTER.get(packed, Status.ERROR_AFTER
                                            if packed <= Status.QUEUE else packed)
                else:
                    packed = plan.play(self._s, self._h, plan.table, index | _WRITE)
        raise RulesError(f"{self.game.name}: the kernel failed ({packed})")  # pragma: no cover

    def legal_moves(self) -> list[Move]:
        n = self._n
        if n < 0:
            self._scan()
            n = self._n
        plan = self._plan
        at = plan.moves_at
        objects = plan.objects
        return [objects[i] for i in self._s[at:at + n].tolist()]

    def outcome(self) -> Returns | None:
        if self._status == UNKNOWN:
            self._scan()
        if self._status < 0:
            return None
        return self._plan.returns(self._status, self)

    def is_terminal(self) -> bool:
        status = self._status
        if status == -2:  # UNKNOWN, read as a constant: this runs every ply
            self._scan()
            status = self._status
        return status >= 0

    def _index(self, move: Move) -> int:
        """The registry index of a move that is not one of the interned objects (equal
        to one of this position's legal moves, or refused)."""
        for legal in self.legal_moves():
            if legal == move:
                return self._plan.ids[id(legal)]
        raise IllegalMoveError(str(move), f"not legal in {self}")

    def apply(self, move: Move) -> None:
        plan = self._plan
        index = plan.ids.get(id(move))
        if index is None:
            index = self._index(move)
        packed = plan.play(self._s, self._h, plan.table, index)
        if packed < 0 or packed >> 34:
            packed = self._settle(packed, index)
            if packed in _AFTER_ERRORS:
                self._n, self._status = -1, UNKNOWN
                self._to_move = int(self._s[TO_MOVE])
                return
        self._n = packed & 16777215
        self._status = ((packed >> 24) & 127) - 2
        self._to_move = (packed >> 31) & 7

    def apply_step(self, actions: tuple) -> None:
        raise RulesError("a kernel position has no partial steps")

    # --- random playouts, whole in the kernel -----------------------------------------
    def _run(self, games: int, seed: int, plies: int | None, policy: PlayoutPolicy | None
             ) -> tuple[np.ndarray, np.ndarray, int, np.ndarray, list[Piece] | None]:
        """Play ``games`` random games from here in the kernel (none of their moves
        registered): the numbers of their final statuses (the last: stopped at
        ``plies``), and the array, status (-1: stopped), history and what the last move
        took (None: no move made; known where the goals read it) of the last one's
        end."""
        plan = self._plan
        # Its moves are written before they are read (by a scan, where it stopped).
        end = np.empty(plan.moves_at + _ROOM, dtype=np.int64)
        taken_at = _taken_at(plan.players)
        carry = np.zeros(taken_at + 1 + _TOUCH, dtype=np.int64)
        carry[:2] = _signed(seed & _MASK64), -1
        weights = plan.weights(policy)
        cap = -1 if plies is None else plies
        run = plan.run
        # A playout's history: one row used within each ply, or, where the goals count
        # repetitions, this position's rows and room for the game's.
        rows = self._h.copy() if plan.repeats else plan.row
        while True:
            # The table is read again at every call: another thread's position may
            # have grown the registry meanwhile.
            code = run(self._s, end, rows, plan.table, carry, games, cap, _BUDGET,
                       weights)
            if code == 0:
                taken = None if carry[taken_at] < 0 else \
                    [plan.pieces[c] for c in carry[taken_at + 1:taken_at + 1
                                                   + int(carry[taken_at])].tolist()]
                return carry[4:taken_at], end, int(carry[3]), rows, taken
            if code == Status.HISTORY:
                rows = np.concatenate([rows, np.empty_like(rows)])
                continue
            if code == Status.LOOPS:
                raise BoardError("move template loops forever (While never ends)")
            if code != Status.BUDGET:
                raise RulesError(f"{self.game.name}: {_ERRORS.get(code, code)} "
                                 f"(in a random playout from {self})")

    def rollout(self, rng: random.Random) -> Returns:
        """Returns of a uniformly random playout from here, played whole in the kernel
        with a seed drawn from ``rng`` (:mod:`boardlab.core.rng`); the position is left
        unchanged."""
        _, _, status, _, _ = self._run(1, rng.getrandbits(63), None, None)
        return self._plan.returns(status, self)

    def playout(self, rng: random.Random, plies: int | None = None,
                policy: PlayoutPolicy | None = None) -> Returns | State:
        """:meth:`State.playout <boardlab.core.game.State.playout>` played whole in the
        kernel with a seed drawn from ``rng``."""
        _, end, status, rows, taken = self._run(1, rng.getrandbits(63), plies, policy)
        if status >= 0:
            return self._plan.returns(status, self)
        return self._reached(end, rows, taken)

    def playouts(self, n: int, seed: int, plies: int | None = None,
                 policy: PlayoutPolicy | None = None) -> Playouts:
        """:meth:`State.playouts <boardlab.core.game.State.playouts>` in one call of
        the kernel: the n games' draws follow one another from ``seed``, so the first
        of them is the game :meth:`playout` plays from that seed."""
        if n < 0:
            raise OptionError(f"a negative number of playouts ({n})")
        totals, _, _, _, _ = self._run(n, seed, plies, policy)
        plan = self._plan
        ends: list[tuple[Returns | None, int]] = [
            (plan.returns(status, self), int(count))
            for status, count in enumerate(totals[:-1].tolist()) if count]
        ends.append((None, int(totals[-1])))
        return Playouts.of(ends, plan.players)

    def search_tree(self, kept: Any = None, cap: int | None = None) -> Tree | None:
        """:meth:`State.search_tree <boardlab.core.game.State.search_tree>`: a tree
        the kernel's ``uct`` grows (:mod:`boardlab.core.kernel.search`); None for
        playouts cut at ``cap`` when the kernel cannot score them as the game's
        heuristic does (:meth:`PieceGame.kernel_heuristic
        <boardlab.core.position.PieceGame.kernel_heuristic>`)."""
        if cap is not None and not hasattr(self._plan.module, "heuristic"):
            return None
        if isinstance(kept, Tree):
            tree = kept.reused(self)
            if tree is not None:
                return tree
        return Tree(self)

    def perft(self, depth: int) -> list[int]:
        """:meth:`State.perft <boardlab.core.game.State.perft>` counted whole in the
        kernel, on copies of this position's arrays (a table with room for the moves of
        the positions on the way, doubled while it runs short, up to the most a path
        of ``depth`` positions may hold); the walk of :class:`State` where the kernel
        stops short (its errors are raised there as a move's are)."""
        if depth <= 0 or self.is_terminal():
            return [0] * max(depth, 0)
        plan = self._plan
        done = int(self._s[DEPTH])
        rows = np.empty((done + depth + 1, _HIST), dtype=np.int64)
        rows[:done] = self._h[:done]
        words, moves = _PERFT_ROOM, max(1, _PERFT_ROOM // 4)
        while True:
            s = self._s.copy()
            # The table is copied: another thread's position may grow the registry.
            room = len(plan.table)
            table = np.concatenate([plan.table, np.empty(words, dtype=np.int64)])
            counts = np.zeros(depth, dtype=np.int64)
            code = plan.perft(s, rows, table, counts, room, np.empty(moves, dtype=np.int64),
                              np.empty(moves, dtype=np.int64))
            if code >= 0:
                return counts.tolist()
            if code != Status.ROOM or (words >= (depth - 1) * _ARENA
                                       and moves >= (depth - 1) * MAX_MOVES):
                return State.perft(self, depth)
            words, moves = 2 * words, 2 * moves

    def _reached(self, s: np.ndarray, rows: np.ndarray, taken: list[Piece] | None
                 ) -> PieceState:
        """The position of array ``s``, where a playout stopped: its own last mover,
        no history; the past of the ``rows`` of its history and what its last move
        took (``taken``, None: this position's) where the class keeps them and the
        goals read them (a ZRF position's)."""
        depth = int(s[DEPTH])
        new = type(self).__new__(type(self))
        new.game = self.game
        new._plan = self._plan
        new._s = s
        s[DEPTH], s[BASE], s[SINCE], s[REPS], s[NMOVES], s[STATUS] = 0, 0, 0, 1, -1, UNKNOWN
        new._h = np.empty((self._plan.rows, _HIST), dtype=np.int64)
        new._n, new._status = -1, UNKNOWN
        new._to_move = int(s[TO_MOVE])
        new._history, new._cache = [], {}
        for name, make in type(self).kernel_fields.items():
            setattr(new, name, make())
        if self._plan.repeats and hasattr(self._plain, "_set_past"):
            new._set_past([k & _MASK64 for k in rows[:depth, 1].tolist()])
        if self._plan.taken and hasattr(self._plain, "_set_taken"):
            new._set_taken(self.captured_by_last_move() if taken is None else taken)
        return new

    def undo(self) -> None:
        s = self._s
        if s[DEPTH] <= s[BASE]:
            raise IndexError("no move to undo")
        self._plan.undo(s, self._h)
        self._n = -1
        self._status = int(s[STATUS])
        self._to_move = int(s[TO_MOVE])

    def clone(self) -> PieceState:
        new = type(self).__new__(type(self))
        new.game = self.game
        new._plan = self._plan
        new._s = s = self._s.copy()
        # Like a PieceState's copy: no history (the last mover is not known); the
        # past where the class keeps it and the goals read it (a ZRF position's).
        s[DEPTH] = s[BASE] = s[SINCE] = 0
        s[MOVER] = -1
        new._h = np.empty((self._plan.rows, _HIST), dtype=np.int64)
        new._n, new._status = self._n, self._status
        new._to_move = self._to_move
        new._history, new._cache = [], {}
        for name, make in type(self).kernel_fields.items():
            setattr(new, name, make())
        s[MOVER] = new._mover_without_history()
        if self._plan.repeats and hasattr(self._plain, "_set_past"):
            new._set_past(self._past_keys())
        elif s[REPS] != 1:
            new._recount()
        if self._plan.taken and hasattr(self._plain, "_set_taken"):
            new._set_taken(self.captured_by_last_move())
        elif s[TAKEN]:  # no history: nothing taken
            s[TAKEN] = 0
            new._recount()
        return new

    def with_turn(self, player: int) -> PieceState:
        new = self.clone()
        s = new._s
        plan = self._plan
        # The side to move's key at this turn of the turn order, swapped.
        row = plan.sides + plan.module.turn(int(s[PLY])) * plan.players
        s[KEY] ^= plan.table[row + self._to_move] ^ plan.table[row + player]
        s[TO_MOVE] = player
        new._to_move = player
        if s[FOLLOW] >= 0:  # a turn starts: no move is due in it
            s[KEY] = _signed((int(s[KEY]) & _MASK64)
                             ^ self.game.follow_key(plan.follows[int(s[FOLLOW])]))
            s[FOLLOW] = -1
        s[DEPTH] = s[BASE] = s[SINCE] = 0  # no past (nor a ZRF position's)
        s[TAKEN] = 0  # nor what the last move took (clone kept it only where read)
        if self._plan.taken and hasattr(self._plain, "_set_taken"):
            new._set_taken(())
        new._recount()
        return new

    def key(self) -> int:
        return int(self._s[KEY]) & _MASK64

    @property
    def _key(self) -> int:
        # A plain position's field, which its class's methods read.
        return int(self._s[KEY]) & _MASK64

    @_key.setter
    def _key(self, value: int) -> None:
        self._s[KEY] = _signed(value)
        self._recount()

    # --- history --------------------------------------------------------------------
    @property
    def last_mover(self) -> int | None:
        mover = int(self._s[MOVER])
        return None if mover < 0 else mover

    @property
    def last_actions(self) -> tuple | None:
        number = self._last_number()
        return None if number is None else self._plan.actions(number)

    def captured_by_last_move(self) -> list[Piece]:
        depth = int(self._s[DEPTH])
        if depth <= self._s[BASE]:
            # No move played here: as the class says (a ZRF position keeps what the
            # last move took across a copy and its text).
            return self._plain.captured_by_last_move(self)  # type: ignore[arg-type]
        row = self._h[depth - 1].tolist()
        before = {}
        for j in range(_TOUCH):  # the touched cells, up to the first -1
            if row[5 + 2 * j] < 0:
                break
            before[row[5 + 2 * j]] = row[6 + 2 * j]
        pieces = self._plan.pieces
        return [pieces[before[a.cell]] for a in self._plan.actions(row[4])  # type: ignore
                if isinstance(a, Capture) and before.get(a.cell)]

    def occurrences(self) -> int:
        # Row i holds the key before move i was played (or of a position of the past).
        s = self._s
        return 1 + int(np.count_nonzero(self._h[:int(s[DEPTH]), 1] == s[KEY]))

    def piece_at(self, cell: int) -> Piece | None:
        return self._plan.pieces[int(self._s[BOARD + cell])]


_SLOTS = ("_plan", "_s", "_h", "_n", "_status")


class KernelState(KernelPosition, PieceState):
    """A :class:`PieceState` played by its game's kernel."""

    __slots__ = _SLOTS


_classes: dict[type, type] = {PieceState: KernelState}


def kernel_class(state_class: type[PieceState]) -> type[PieceState]:
    """The class of kernel positions of games whose positions are ``state_class``."""
    found = _classes.get(state_class)
    if found is None:
        found = _classes[state_class] = type(
            f"Kernel{state_class.__name__}", (KernelPosition, state_class),
            {"__slots__": _SLOTS, "_plain": state_class, "__module__": __name__,
             "__doc__": f"A {state_class.__name__} played by its game's kernel."})
    return found
