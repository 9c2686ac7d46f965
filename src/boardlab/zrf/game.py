"""A ZRF game as a boardlab game: a :class:`~boardlab.core.position.PieceGame` whose rules
are the rule file's, compiled onto the move language.

:func:`load_game` reads a file and returns a :class:`ZrfGame` for one of its variants;
every command and the web app take it wherever they take a registered game. Moves are
written with the file's position names: ``e2-e4``, ``e4xd5`` (a capture on arrival),
``e5-d6 xd5`` (a capture elsewhere), ``e7-e8=Queen`` (promotion), ``Stone@d4`` (a drop),
a chain of partial steps as one path, ``a3-c5-e7 xb4 xd6``; ``pass`` where passing is
allowed. Positions are written ``cell=Player.Piece`` pairs, then the side to move, then
``ply:``, ``reserve:`` and ``last:`` fields where they matter, and round-trip. Where the
goals read the past, the text carries it too: ``taken:`` the pieces the last move took
(a ``captured`` goal), ``seen:`` the key of every earlier position (a ``repetition``
goal: keys drawn from the cells and pieces alone, the same in every process), so that a
position read back ends, and goes on, as the game it came from.

A game whose rules never end it (most Dagaz files leave the end to JavaScript) is drawn
after ``max_moves`` moves (an option, default 1000), a labelled boardlab addition.

A player whose name starts with ``?`` (``(players ?Dice White Black)``) is random: the
game's :attr:`~boardlab.core.game.Game.chance_players`, whose moves are drawn uniformly
among its legal moves, and who scores 0 whatever ends the game (see
:mod:`boardlab.core.goals`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

from boardlab.core import goals as g
from boardlab.core import rules as r
from boardlab.core.engine import Engine
from boardlab.core.game import Game, Option
from boardlab.core.heuristics import MaterialMobility
from boardlab.core.move import Capture, Change, Move, Piece, Place, Shift
from boardlab.core.position import PieceGame, PieceState
from boardlab.core.ruleset import RuleSet
from boardlab.errors import NotationError
from boardlab.markup import text_to_rst
from boardlab.zrf import compile as zc
from boardlab.zrf.model import GameSpec, game_spec
from boardlab.zrf.reader import SList, load
from boardlab.zrf.text import display_line, display_rst

_DIGEST = re.compile(r"[0-9a-f]{16}")

#: Moves after which a game the file never ends is a draw (boardlab's addition).
DEFAULT_MAX_MOVES = 1000


class ZrfState(PieceState):
    """A position of a :class:`ZrfGame`: the generic piece position, with keys for any
    piece (attributes included), the turn of the turn order and, where the rules read
    it, the last move; and what the goals read of the past, which a copy or a position
    read from text keeps without the moves that made it."""

    __slots__ = ("_past", "_taken")
    # A kernel position of a ZRF game keeps its past in the kernel's history (see
    # _past_keys), and what the last move took in its array (see _set_taken).
    kernel_fields: ClassVar[dict[str, Callable[[], Any]]] = {"_past": list, "_taken": tuple}

    def __init__(self, game: PieceGame, cells: list[Piece | None], to_move: int,
                 reserves: dict[Piece, int], ply: int):
        super().__init__(game, cells, to_move, reserves, ply)
        #: The keys of the positions before each move, where a repetition goal counts.
        self._past: list[int] = []
        #: The pieces the last move took, when no history of moves says it.
        self._taken: tuple[Piece, ...] = ()

    def clone(self) -> ZrfState:
        new = super().clone()
        assert isinstance(new, ZrfState)
        new._past = list(self._past)
        new._taken = tuple(self.captured_by_last_move())
        return new

    def with_turn(self, player: int) -> PieceState:
        new = super().with_turn(player)
        assert isinstance(new, ZrfState)
        new._past, new._taken = [], ()
        return new

    @property
    def last_mover(self) -> int | None:
        """The player who made the last move: from the moves played, else from the turn
        order (a copy or a position read from text)."""
        if self._history:
            return self._history[-1][2]
        if self.ply == 0:
            return None
        game = self.game
        return game.spec.turns[game.turn(self.ply - 1)].player  # type: ignore[attr-defined]

    def captured_by_last_move(self) -> list[Piece]:
        return super().captured_by_last_move() if self._history else list(self._taken)

    def occurrences(self) -> int:
        if not self.game.reads_repetition:  # type: ignore[attr-defined]
            return super().occurrences()
        key = self._key
        return 1 + sum(1 for k in self._past_keys() if k == key)

    def _past_keys(self) -> list[int]:
        """The keys of the earlier positions a repetition goal counts."""
        return self._past

    def _set_past(self, keys: list[int]) -> None:
        """Start from ``keys`` as the earlier positions (read from text)."""
        self._past = list(keys)

    def _set_taken(self, pieces: Sequence[Piece]) -> None:
        """What the last move took, when no move was played here (read from text)."""
        self._taken = tuple(pieces)

    def digest(self) -> str:
        """The position as a repetition compares it (pieces, reserves, side to move,
        turn of the turn order, last move where read): its key in hex, the same in
        every process and for every name the file is loaded under."""
        return f"{self._key:016x}"

    def _piece_key(self, cell: int, piece: Piece) -> int:
        return self.game.piece_key(cell, piece)  # type: ignore[attr-defined]

    def _reserve_key(self, piece: Piece, count: int) -> int:
        return self.game.piece_key(-1 - min(count, 255), piece)  # type: ignore[attr-defined]

    def _full_key(self) -> int:
        game = self.game
        key = game.turn_key(self.ply, self._to_move)  # type: ignore[attr-defined]
        for cell, piece in enumerate(self.cells):
            if piece is not None:
                key ^= self._piece_key(cell, piece)
        for piece, count in self.reserves.items():
            key ^= self._reserve_key(piece, count)
        if game.tracks_last_move:  # type: ignore[attr-defined]
            key ^= game.last_key(self.last_from, self.last_to)  # type: ignore[attr-defined]
        return key

    def apply(self, move: Move) -> None:
        """Play ``move``: the board, the turn of the turn order and the key change."""
        game = self.game
        if game.reads_repetition:  # type: ignore[attr-defined]
            self._past.append(self._key)
        turn = game.turn_key(self.ply, self._to_move)  # type: ignore[attr-defined]
        last = (self.last_from, self.last_to)
        key = self._play(move.actions) ^ turn
        if game.tracks_last_move:  # type: ignore[attr-defined]
            key ^= game.last_key(*last) ^ game.last_key(  # type: ignore[attr-defined]
                self.last_from, self.last_to)
        self.ply += 1
        self.turns += 1  # each move passes the turn: ZRF has no follow-up moves
        self._to_move = game.next_player(self, move)
        self._key = key ^ game.turn_key(self.ply, self._to_move)  # type: ignore[attr-defined]

    def undo(self) -> None:
        if self._history[-1][6] and self.game.reads_repetition:  # type: ignore[attr-defined]
            self._past.pop()
        super().undo()

    def apply_step(self, actions: tuple) -> None:
        """Play a partial step's actions; the side to move stays."""
        game = self.game
        last = (self.last_from, self.last_to)
        key = self._play(actions, whole=False)
        if game.tracks_last_move:  # type: ignore[attr-defined]
            key ^= game.last_key(*last) ^ game.last_key(  # type: ignore[attr-defined]
                self.last_from, self.last_to)
        self._key = key

    def signature(self) -> tuple[Any, ...]:
        base = (tuple(self.cells), self._to_move, tuple(sorted(self.reserves.items())),
                self.ply)
        if self.game.tracks_last_move:  # type: ignore[attr-defined]
            return (*base, self.last_from, self.last_to)
        return base

    def __str__(self) -> str:
        game = self.game
        out = self._text(True)
        taken = self.captured_by_last_move() if game.reads_captures else ()  # type: ignore[attr-defined]
        if taken:
            out += " taken:" + ",".join(game.symbol(p) for p in taken)  # type: ignore[attr-defined]
        past = self._past_keys() if game.reads_repetition else ()  # type: ignore[attr-defined]
        if past:
            out += " seen:" + ",".join(f"{k:016x}" for k in past)
        return out

    def _text(self, with_ply: bool) -> str:
        game = self.game
        board = game.board
        layout = ",".join(f"{board.cell_name(c)}={game.symbol(p)}"  # type: ignore[attr-defined]
                          for c, p in self.occupied()) or "-"
        out = f"{layout} {game.player_names[self._to_move]}"
        if self.ply and with_ply:
            out += f" ply:{self.ply}"
        if self.reserves:
            out += " reserve:" + ",".join(
                f"{game.symbol(p)}={n}"  # type: ignore[attr-defined]
                for p, n in sorted(self.reserves.items()))
        if game.tracks_last_move and self.last_to is not None:  # type: ignore[attr-defined]
            start = board.cell_name(self.last_from) if self.last_from is not None else ""
            out += f" last:{start}-{board.cell_name(self.last_to)}"
        return out

    def render(self) -> str:
        game = self.game
        rows = [f"{game.board.cell_name(c)}: {game.symbol(p)}"  # type: ignore[attr-defined]
                for c, p in self.occupied()]
        return "\n".join([*rows, f"{game.player_names[self._to_move]} to move"])


@dataclass(frozen=True, eq=False)
class ZrfRules:
    """One variant of a rule file lowered to the move language (:func:`read`): its
    :class:`~boardlab.core.ruleset.RuleSet`, with what a :class:`ZrfGame` adds to it:
    the file's model (its names, pictures and turn order), its rules in words and
    where it was read. The same for every option; the web app keeps one per file."""

    #: The rule set (its ply limit is the game's ``max_moves`` option).
    ruleset: RuleSet
    #: The file's model, as :func:`~boardlab.zrf.model.game_spec` read it.
    spec: GameSpec
    #: The rules as the file describes them, in reStructuredText.
    text: str
    #: The file, variant and shown name it was read from; None for a model given as
    #: a value.
    read_from: tuple[str, int, str] | None = None


class ZrfGame(PieceGame):
    """The game of a rule file's variant (see the module docstring): one class for every
    file, made with the variant lowered (:class:`ZrfRules`) and the options.

    Built by :func:`load_game`; two games are the same game when they come from the
    same lowering, with the same options.
    """

    state_class = ZrfState
    source = "Zillions of Games rule file (ZRF)"
    description = "a game read from a Zillions of Games rule file"
    option_schema = (
        Option("max_moves", DEFAULT_MAX_MOVES, "moves after which a game the rules never "
               "end is a draw (boardlab's addition)", minimum=1, maximum=100_000),
    )
    pieces: ClassVar[Mapping[str, Piece]] = {}

    def __init__(self, lowered: ZrfRules, *, engine: Engine | str | None = None,
                 **options: Any):
        """The game of ``lowered`` with ``options`` (``max_moves``), on ``engine``."""
        #: The variant lowered: its rule set, model and text.
        self.lowered = lowered
        #: The file's model.
        self.spec = lowered.spec
        #: The file, variant and shown name it was read from.
        self.read_from = lowered.read_from
        super().__init__(lowered.ruleset, engine=engine, **options)

    def _made_with(self) -> tuple[Any, ...]:
        return (self.lowered,)

    @cached_property
    def ruleset(self) -> RuleSet:
        """The file's rule set, drawn at ``max_moves`` moves."""
        return replace(self.lowered.ruleset, ply_limit=self.options["max_moves"])

    @property
    def rules(self) -> str:
        """The rules as the file describes them (title, description, pieces)."""
        return self.lowered.text

    # --- what the file says --------------------------------------------------------------
    @cached_property
    def tracks_last_move(self) -> bool:
        """Whether move generation reads the last move (its cells then belong to the
        position: its key, equality and text)."""
        return self.ruleset.tracks_last_move

    @cached_property
    def reads_repetition(self) -> bool:
        """Whether a goal counts repetitions (a position then keeps its past)."""
        return self.goals.reads(g.Repetition)

    @cached_property
    def reads_captures(self) -> bool:
        """Whether a goal reads what the last move took."""
        return self.goals.reads(g.Captured)

    def recipe(self) -> tuple[Callable[..., Game], tuple[Any, ...], dict[str, Any]] | None:
        """The file read again, on the same engine (see
        :meth:`~boardlab.core.game.Game.recipe`)."""
        if self.read_from is None:
            return None
        path, variant, shown = self.read_from
        return load_game, (path, variant), {"name": shown, **dict(self.options),
                                            "engine": self.engine}

    @property
    def goals(self) -> g.Goals:
        """The file's conditions, compiled."""
        goals = self.ruleset.goals
        assert goals is not None
        return goals

    # --- turns and results ---------------------------------------------------------------
    def turn(self, ply: int) -> int:
        """The index in the turn order of the turn at ``ply``."""
        return r.turn_index(ply, len(self.spec.turns), self.spec.repeat_from)

    def max_length(self) -> int:
        return self.options["max_moves"]

    def kernel_heuristic(self) -> MaterialMobility:
        """:meth:`evaluate`, which the game's kernel computes too."""
        return MaterialMobility()

    def evaluate(self, state: PieceState, player: int) -> float | None:
        """Material and mobility, each in [-1, 1] as ``(mine - others) / (mine +
        others)`` against the other players' mean: the pieces on the board and in hand,
        and the moves each side would have if it were to move (a generic heuristic for
        bots: files say nothing about piece values)."""
        material = [0.0] * self.num_players
        for p in state.cells:
            if p is not None and p.owner >= 0:
                material[p.owner] += 1
        for p, n in state.reserves.items():
            material[p.owner] += n
        # Random players are nobody's opponents: their pieces (a die) and moves do not count.
        real = [q for q in range(self.num_players) if q not in self.chance_players]
        if player not in real:
            return 0.0
        # The moves of the position with the other side to move, on the position's own
        # engine (a kernel position plays no partial step the interpreter's check test
        # would make).
        mobility = [float(len(state.legal_moves() if q == state.to_move else
                              state.with_turn(q).legal_moves())) for q in real]
        at = real.index(player)
        return 0.7 * _balance([material[q] for q in real], at) + 0.3 * _balance(mobility, at)

    # --- keys and text -------------------------------------------------------------------
    @cached_property
    def _keys(self) -> dict[tuple[int, Piece], int]:
        return {}

    def piece_key(self, cell: int, piece: Piece) -> int:
        """A Zobrist key of ``piece`` on ``cell`` (negative cells: reserve counts), a
        hash of the two: the same in every process, so that a position's key written
        in its text (``seen:``) means the same position when read back."""
        keys = self._keys
        key = keys.get((cell, piece))
        if key is None:
            name = f"{cell}:{piece.owner}:{piece.kind}:{','.join(sorted(piece.attributes))}"
            key = keys[(cell, piece)] = int.from_bytes(
                hashlib.blake2b(name.encode(), digest_size=8, person=b"boardlab-zrf").digest(),
                "big")
        return key

    def turn_key(self, ply: int, to_move: int) -> int:
        """The key part of the side to move and its turn in the turn order."""
        return self.piece_key(-1000 - self.turn(ply) * 64 - to_move, _TURN)

    def last_key(self, last_from: int | None, last_to: int | None) -> int:
        """The key part of the last move's cells."""
        if last_to is None:
            return 0
        return self.piece_key(-100_000 - (last_from if last_from is not None else -1) - 1,
                              _LAST) ^ self.piece_key(-200_000 - last_to, _LAST)

    def symbol(self, piece: Piece) -> str:
        """``Player.Piece`` (``+attribute`` for each true attribute)."""
        return (f"{self.player_names[piece.owner]}.{piece.kind}"
                + "".join(f"+{a}" for a in sorted(piece.attributes)))

    def _piece_of(self, symbol: str, where: str) -> Piece | None:
        if symbol == ".":
            return None
        head, *attributes = symbol.split("+")
        owner, sep, kind = head.partition(".")
        if not sep or owner not in self.player_names or kind not in self.spec.pieces:
            raise NotationError(f"unknown piece {symbol!r} (expected Player.Piece)",
                                where=where)
        return Piece(self.player_names.index(owner), kind, frozenset(attributes))

    def parse_state(self, text: str) -> PieceState:
        parts = text.split()
        if len(parts) < 2:
            raise NotationError("expected 'cell=Player.Piece,... side [ply:N] [reserve:...] "
                                "[last:a-b] [taken:...] [seen:...]'", where=repr(text))
        board = self.board
        cells: list[Piece | None] = [None] * board.size
        if parts[0] != "-":
            for item in parts[0].split(","):
                name, sep, sym = item.partition("=")
                if not sep or not board.has_cell(name):
                    raise NotationError("expected cell=Player.Piece", where=repr(item))
                cells[board.cell(name)] = self._piece_of(sym, name)
        if parts[1] not in self.player_names:
            raise NotationError(f"side to move must be one of {', '.join(self.player_names)}",
                                where=repr(parts[1]))
        reserves = dict.fromkeys(self.ruleset.reserves, 0)
        ply = 0
        last: tuple[int | None, int | None] = (None, None)
        taken: list[Piece] = []
        seen: list[str] = []
        for extra in parts[2:]:
            field, _, value = extra.partition(":")
            if field == "ply" and value.isdigit():
                ply = int(value)
            elif field == "reserve":
                for item in filter(None, value.split(",")):
                    sym, sep, count = item.partition("=")
                    piece = self._piece_of(sym, "reserve")
                    if not sep or not count.isdigit() or piece is None:
                        raise NotationError("expected Player.Piece=count", where=repr(item))
                    reserves[piece] = int(count)
            elif field == "last":
                start, sep, end = value.partition("-")
                if not sep or not board.has_cell(end) or (start and not board.has_cell(start)):
                    raise NotationError("expected last:FROM-TO", where=repr(extra))
                last = (board.cell(start) if start else None, board.cell(end))
            elif field == "taken" and self.reads_captures:
                for sym in value.split(","):
                    piece = self._piece_of(sym, "taken")
                    if piece is None:
                        raise NotationError("expected Player.Piece", where=repr(sym))
                    taken.append(piece)
            elif field == "seen" and self.reads_repetition:
                seen = value.split(",")
                if len(seen) > self.options["max_moves"] or not all(
                        _DIGEST.fullmatch(d) for d in seen):
                    raise NotationError("expected at most max_moves digests of 16 hex "
                                        "digits", where=repr(extra[:60]))
            else:
                raise NotationError("unknown field", where=repr(extra))
        state = self.new_state(cells, self.player_names.index(parts[1]), reserves, ply)
        if self.tracks_last_move:
            state.last_from, state.last_to = last
            state._key = state._full_key()
        assert isinstance(state, ZrfState)
        state._set_taken(taken)
        state._set_past([int(d, 16) for d in seen])
        return state

    # --- notation ------------------------------------------------------------------------
    #: The notation reads the move's actions (and the side to move), not the position.
    notation_reads_position = False

    def notation(self, state: PieceState, actions: tuple) -> str:
        # The common moves first: a step, and a capture on arrival.
        names = self.board.names
        if len(actions) == 1 and type(actions[0]) is Shift:
            return f"{names[actions[0].source]}-{names[actions[0].target]}"
        if len(actions) == 2 and type(actions[0]) is Capture and type(actions[1]) is Shift \
                and actions[0].cell == actions[1].target:
            return f"{names[actions[1].source]}x{names[actions[1].target]}"
        path, extras = self._tokens(state.to_move, actions, [], [])
        return " ".join([*path, *extras]) or "pass"

    def chain_notation(self, state: PieceState, steps: tuple[tuple, ...]) -> str:
        path: list[str] = []
        extras: list[str] = []
        for step in steps:
            path, extras = self._tokens(state.to_move, step, path, extras)
        return " ".join([*path, *extras])

    def _tokens(self, mover: int, actions: tuple, path: list[str], extras: list[str]
                ) -> tuple[list[str], list[str]]:
        """The notation's tokens of one step: the path so far, then captures and
        changes off the path."""
        name = self.board.cell_name
        path, extras = list(path), list(extras)
        captured = {a.cell for a in actions if isinstance(a, Capture)}
        changed = {a.cell: a.piece for a in actions if isinstance(a, Change)}
        shown: set[int] = set()
        for a in actions:
            if not isinstance(a, Shift):
                continue
            sep = "x" if a.target in captured else "-"
            shown.add(a.target)
            end = name(a.target)
            if a.target in changed:
                end += "=" + self._kind_text(changed[a.target], mover)
            if path and path[-1].endswith(name(a.source)) and not any(
                    ch in path[-1] for ch in "@="):
                path[-1] += sep + end
            else:
                path.append(name(a.source) + sep + end)
        for a in actions:
            if isinstance(a, Place):
                path.append(f"{self._kind_text(a.piece, mover)}@{name(a.cell)}")
            elif isinstance(a, Capture) and a.cell not in shown:
                extras.append("x" + name(a.cell))
            elif isinstance(a, Change) and a.cell not in shown:
                extras.append(f"{name(a.cell)}={self._kind_text(a.piece, mover)}")
        return path, extras

    def _kind_text(self, piece: Piece, mover: int) -> str:
        if piece.owner == mover:
            return piece.kind
        return f"{self.player_names[piece.owner]}.{piece.kind}"


_TURN = Piece(-1, "turn")
_LAST = Piece(-1, "last")


# --- compiling --------------------------------------------------------------------------
def _move_types(spec: GameSpec) -> set[str]:
    types = {b.move_type for p in spec.pieces.values() for b in (*p.moves, *p.drops)
             if b.move_type is not None}
    types.update(spec.move_priorities)
    types.update(t.move_type for t in spec.turns if t.move_type is not None)
    return types


def lower(spec: GameSpec, name: str, description: str) -> RuleSet:
    """The rule set of a file's variant, read as ``spec``: its board, setup, pieces in
    hand, moves and goals on the move language (and no ply limit: a game adds its
    ``max_moves``). ``name`` and ``description`` name the game."""
    def defaults(kind: str) -> frozenset[str]:
        return frozenset(a for a, v in spec.pieces[kind].attributes.items() if v == "true")

    recycle = spec.option("recycle captures", "false") == "true"
    placement: dict[str, Piece] = {}
    for (player, kind), cells in spec.setup.items():
        for cell in cells:
            placement[spec.board.cell_name(cell)] = Piece(player, kind, defaults(kind))
    # When captures are recycled, every player holds every type of piece from the
    # start, none yet, so that a captured piece goes back to a hand the position
    # already counts.
    reserves = {Piece(player, kind, defaults(kind)): count
                for (player, kind), count in spec.reserves.items()}
    if recycle:
        for player in range(len(spec.players)):
            for kind in spec.pieces:
                reserves.setdefault(Piece(player, kind, defaults(kind)), 0)
    # A player who never moves, nor has its pieces moved by another's turn.
    turns = {t.player for t in spec.turns} | {t.mover for t in spec.turns}
    rules, goals = _compile(spec, defaults)
    return RuleSet(
        name=name, players=spec.players, description=description, board=spec.board,
        rules=rules, goals=goals, placement=placement, reserves=reserves,
        turn_order=(tuple(t.player for t in spec.turns), spec.repeat_from),
        chance_players=spec.random_players,
        neutral_players=frozenset(p for p in range(len(spec.players)) if p not in turns),
        attributes={kind: defaults(kind) for kind in spec.pieces},
        recycle_captures=recycle,
        recycle_promotions=spec.option("recycle promotions", "false") == "true")


def _compile(spec: GameSpec, defaults: Callable[[str], frozenset[str]]
             ) -> tuple[r.Rules, g.Goals]:
    ctx = zc.Context(spec, _move_types(spec))
    include_off = spec.option("include off-pieces", "false") == "true"
    conditions = tuple(g.Condition(goal.kind, goal.players,
                                   zc.goal(goal.form, ctx, include_off))
                       for goal in spec.goals)
    priorities = spec.move_priorities
    shared = spec.option("shared pieces", "false") == "true"
    templates: list[r.Template] = []
    for kind, piece in spec.pieces.items():
        for blocks, drop in ((piece.moves, False), (piece.drops, True)):
            for block in blocks:
                zone = _leading_zone(block.program, spec) if drop else None
                body = block.program if zone is None else \
                    SList(block.program.items[1:], block.program.where)
                program = list(zc.block(body, ctx))
                history = _reads_last(block.program)
                if block.move_type is None or not priorities:
                    priority, top = 0, True
                elif block.move_type in priorities:
                    priority, top = len(priorities) - priorities.index(block.move_type), True
                else:
                    # Dagaz's reading, which the corpus relies on: a type missing from the
                    # priorities only continues partial moves.
                    priority, top = 0, False
                if not drop:
                    templates.append(r.Template(tuple(program), (kind,), priority,
                                                block.move_type or "", move_type=block.move_type,
                                                top_level=top, reads_history=history,
                                                shared=shared))
                    continue
                cells = None
                if zone is None and program and isinstance(program[0], r.GoTo):
                    cells = (program.pop(0).cell,)  # type: ignore[union-attr]
                limited = frozenset(p for (p, k) in spec.reserves if k == kind)
                templates.append(r.Drop(
                    tuple(program), (kind,), priority, block.move_type or "",
                    move_type=block.move_type, top_level=top, reads_history=history,
                    cells=cells, zone=zone,
                    unlimited_for=frozenset(range(len(spec.players))) - limited,
                    attributes=defaults(kind)))
    # Zillions reads a checkmated goal as a rule too: no move may leave the piece attacked.
    protect = tuple(r.Protect(c.goal.kinds, frozenset(c.players)) for c in conditions
                    if isinstance(c.goal, g.Checkmated))
    pass_turn = spec.option("pass turn")
    rules = r.Rules(
        templates, (), protect=protect,
        pass_partial=spec.option("pass partial", "false") == "true",
        turns=r.TurnLimits(tuple(t.move_type for t in spec.turns),
                           tuple(t.owner for t in spec.turns), spec.repeat_from)
        if any(t.move_type or t.owner is not None for t in spec.turns) else None,
        select=_maximal(spec.option("maximal captures"), spec),
        deferred_captures=spec.option("deferred captures", "false") == "true",
        pass_turn={"true": "always", "forced": "forced"}.get(pass_turn or ""))
    stalemate = "loss"
    goals = g.Goals(conditions, len(spec.players), stalemate, chance=spec.random_players)
    return rules, goals


def _leading_zone(program: SList, spec: GameSpec) -> str | None:
    """The zone a drop block starts with (Zillions: the block then runs from the zone's
    cells only), or None."""
    first = program.items[0] if program.items else None
    if isinstance(first, zc.Atom) and first.text in spec.board.zones \
            and first.text not in spec.cells and first.text not in spec.board.directions:
        return first.text
    return None


def _reads_last(node: zc.Node) -> bool:
    if isinstance(node, zc.Atom):
        return node.text.removeprefix("not-") in ("last-from?", "last-to?") or \
            node.text in ("last-from", "last-to")
    return any(_reads_last(item) for item in node.items)


def _balance(values: list[float], player: int) -> float:
    """``player``'s value against the others' mean, in [-1, 1] (0 when all are 0)."""
    mine = values[player]
    others = (sum(values) - mine) / max(1, len(values) - 1)
    return 0.0 if mine + others == 0 else (mine - others) / (mine + others)


def _maximal(value: str | None, spec: GameSpec) -> r.MaximalCaptures | None:
    """ZRF's ``maximal captures``: true, or 2 (kings first: a piece of another type
    than the first the file declares counts before the others)."""
    if value in (None, "false"):
        return None
    if value == "2":
        return r.MaximalCaptures(kings_first=True, men=next(iter(spec.pieces), None))
    return r.MaximalCaptures()


# --- loading ----------------------------------------------------------------------------
def load_game(path: str | Path, variant: int | str | None = None, *,
              name: str | None = None, **options: Any) -> ZrfGame:
    """The game of the rule file at ``path`` (its ``variant``: number or title; by
    default the one the file marks default, else the game itself), with ``options``
    (``max_moves``). Errors are :class:`~boardlab.errors.ZrfError` naming file, line and
    column, or :class:`~boardlab.errors.FileError`."""
    game = ZrfGame(read(path, variant, name=name), **options)
    game.move_rules  # noqa: B018 - compile now, so a bad file fails at load
    return game


def read(path: str | Path, variant: int | str | None = None, *,
         name: str | None = None) -> ZrfRules:
    """The rule file at ``path``, its ``variant`` (as :func:`load_game`), lowered to the
    move language; ``name`` is the file's name in messages (by default ``path``)."""
    path = Path(path)
    shown = name or str(path)
    forms = load(path, shown)
    spec = game_spec(forms, shown, variant)
    title = display_line(spec.title) or path.stem
    game_title = display_line(spec.game_title)
    if game_title and game_title != title:
        title = f"{game_title}: {title}"
    return ZrfRules(lower(spec, _game_name(path, spec.variant), title), spec,
                    _rules_text(spec, path), (str(path.resolve()), spec.variant, shown))


def _game_name(path: Path, variant: int) -> str:
    stem = "".join(ch if ch.isalnum() else "-" for ch in path.stem.lower()).strip("-")
    return f"{stem}-{variant}" if variant else stem


def incomplete(spec: GameSpec) -> list[str]:
    """The options by which the file says part of its rules live outside it, in Dagaz's
    JavaScript (move filters, goals, setups): the game loads and plays the ZRF as
    written, which is not the whole game."""
    hooks = []
    for name, value in spec.options.items():
        if value == "false":
            continue
        if name.endswith(("extension", "invariant", "goal", "restrictions", "setup",
                          "promotion")) or name in ("chess invariant", "ko",
                                                    "sliding puzzle"):
            hooks.append(name)
    return hooks


def _rules_text(spec: GameSpec, path: Path) -> str:
    """The rules a game's docstring holds, in reStructuredText: the file's title and
    description in its own words (:func:`~boardlab.zrf.text.display_rst`: Zillions' line
    and paragraph breaks kept, nothing read as markup), then what boardlab adds."""
    parts = [display_rst(spec.title) or text_to_rst(path.stem)]
    if spec.description:
        parts.append(display_rst(spec.description))
    # Names come from the file too: escaped like its text.
    parts.append(text_to_rst(
        f"Read from the rule file {path.name}"
        + (f", variant {spec.variant}" if spec.variant else "")
        + f". Players: {', '.join(spec.players)}. Pieces: {', '.join(spec.pieces)}."))
    chance = [spec.players[p] for p in sorted(spec.random_players)]
    if chance:
        parts.append(text_to_rst(
            f"Random players: {', '.join(chance)}. At a random player's turn its move is "
            "drawn at random among its legal moves, each as likely (dice); nobody chooses "
            "it, and a random player scores nothing."))
    hooks = incomplete(spec)
    if hooks:
        parts.append(text_to_rst(
            "Incomplete: the file leaves part of its rules to Dagaz's JavaScript "
            f"(options {', '.join(hooks)}); boardlab plays the ZRF as written."))
    if not spec.goals:
        parts.append(text_to_rst(
            "The file states no goal: a player with no move loses, and a game is drawn "
            f"after {DEFAULT_MAX_MOVES} moves unless max_moves says otherwise."))
    return "\n\n".join(part for part in parts if part)
