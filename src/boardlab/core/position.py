"""A generic position of pieces on a board, for games written in the move language.

:class:`PieceGame` is a :class:`~boardlab.core.game.Game` whose state is a
:class:`PieceState`: one piece or nothing per cell, per-player reserves for drops,
the side to move and the ply count. Its moves come from a
:class:`~boardlab.core.turn.Rules` object; a game only declares its board,
pieces, initial placement, rules and end conditions.

Applying a move performs its actions simultaneously (captures and lifts, then
drops, then changes; see :mod:`boardlab.core.move`), and :meth:`PieceState.undo`
restores every touched cell, reserve and counter exactly.

Text form: on a square board the rows from the top, ``/``-separated, one symbol per
cell (``.`` empty), e.g. ``pp/../PP``; on any other board the occupied cells as
``cell=symbol`` pairs separated by commas (``-`` when the board is empty). Then the
side to move, then ``reserve:`` counts when the game has reserves; ``ply:``, ``turns:``
and ``follow:`` where the ply, the turns played and a move due in the same turn (see
:class:`~boardlab.core.turn.FollowUp`, by its name) are not what the rest implies.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from boardlab.core.board import Board
from boardlab.core.engine import Engine
from boardlab.core.game import Game, Returns, State, draw, win_for, zobrist_table
from boardlab.core.goals import TurnsPlayed
from boardlab.core.heuristics import MaterialMobility, PieceSquare
from boardlab.core.move import Capture, Change, Move, Piece, Place, Shift, format_actions, in_hand
from boardlab.core.ruleset import RuleSet
from boardlab.core.turn import turn_index
from boardlab.errors import NotationError

if TYPE_CHECKING:
    from boardlab.core.rules import Rules


class PieceGame(Game):
    """A game of pieces on one board whose moves come from the move language: the game
    of a :class:`~boardlab.core.ruleset.RuleSet`.

    ``PieceGame(ruleset, engine=...)`` plays a rule set as it is. A built-in game
    subclasses it and builds its rule set from its options (:meth:`make_ruleset`),
    besides its notation, text form and heuristics. Whoever plays the game reads the
    rules from :attr:`ruleset` alone; a game whose end no goal states overrides
    :meth:`result` and :meth:`no_moves` (it then has no compiled kernel).
    """

    #: One-character symbol -> piece; upper/lower case conventionally by owner.
    pieces: ClassVar[Mapping[str, Piece]] = {}
    #: The class of the game's positions: a game may subclass :class:`PieceState`
    #: (to read extra notations or draw its board), and clones keep the subclass.
    state_class: ClassVar[type[PieceState]]
    takes_engine = True
    name = "rules"
    description = "a game of the move language"

    def __init__(self, ruleset: RuleSet | None = None, *,
                 engine: Engine | str | None = None, **options: Any):
        """The game of ``ruleset`` (by default the one :meth:`make_ruleset` builds from
        ``options``), played by ``engine`` (see :mod:`boardlab.core.engine`; by default
        :meth:`Engine.default`)."""
        if ruleset is not None:
            # The game's names are the rule set's (a class lists its own without one).
            self.name = ruleset.name
            self.description = ruleset.description or self.description
            self.player_names = ruleset.players
            self.chance_players = ruleset.chance_players
            if ruleset.pieces:
                self.pieces = ruleset.pieces
        super().__init__(**options)
        self._given = ruleset
        #: The backend that plays the game's positions.
        self.engine: Engine = Engine.named(engine)
        #: Once :func:`boardlab.core.kernel.plan.plan_for` looked: the game's kernel (None
        #: when it has none) and why it has none. Kept with the game so that all its
        #: positions share one kernel and one registry of moves.
        self.kernel_found: tuple[Any, str | None] | None = None

    def _made_with(self) -> tuple[Any, ...]:
        """The positional arguments the game was made with (besides its options)."""
        return () if self._given is None else (self._given,)

    def using(self, engine: Engine | str) -> PieceGame:
        """The same game (same class, rule set and options) played by ``engine``.

        >>> from boardlab import load
        >>> game = load("breakthrough", rows=6).using("interpreter")
        >>> game.engine.value, game.options["rows"], game == load("breakthrough", rows=6)
        ('interpreter', 6, True)
        """
        return type(self)(*self._made_with(), engine=engine, **self.options)

    def __eq__(self, other: object) -> bool:
        return super().__eq__(other) and \
            other._made_with() == self._made_with()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((super().__hash__(), *map(id, self._made_with())))

    def recipe(self) -> tuple[Callable[..., Game], tuple[Any, ...], dict[str, Any]] | None:
        """How another process builds this game again, on the same engine (see
        :meth:`~boardlab.core.game.Game.recipe`): a game made with a rule set sends the
        rule set itself (it pickles), when its class is one another process can import."""
        if self._given is not None:
            cls = type(self)
            module = sys.modules.get(cls.__module__)
            if getattr(module, cls.__qualname__, None) is not cls:
                return None
            return cls, self._made_with(), {**dict(self.options), "engine": self.engine}
        made = super().recipe()
        if made is None:
            return None
        build, args, kwargs = made
        return build, args, {**kwargs, "engine": self.engine}

    def make_ruleset(self) -> RuleSet:
        """The rule set for the current options: a built-in game builds it here (called
        once per game; a game made with a rule set never calls it)."""
        raise NotImplementedError(f"{type(self).__name__} is made with a rule set "
                                  "(PieceGame(ruleset)) or defines make_ruleset()")

    def named_ruleset(self, **parts: Any) -> RuleSet:
        """A rule set of ``parts`` (board, rules, placement...) under this game's names:
        its name, players, chance players, piece symbols and description (what a
        :meth:`make_ruleset` returns)."""
        return RuleSet(name=self.name, players=self.player_names,
                       chance_players=self.chance_players, pieces=self.pieces,
                       description=self.description, **parts)

    @cached_property
    def ruleset(self) -> RuleSet:
        """The game's rule set (built once per game)."""
        return self._given if self._given is not None else self.make_ruleset()

    def result(self, state: PieceState) -> Returns | None:
        """The outcome if the game ended with the last move, else ``None`` (the case of
        no legal moves is :meth:`no_moves`): what the rule set's goals say, else a draw
        at its ply limit. A game without goals overrides it."""
        rules = self.ruleset
        goals = rules.goals
        if goals is None:
            raise NotImplementedError(f"{type(self).__name__} gives neither goals "
                                      "nor result()")
        out = goals.result(state)
        if out is None and rules.ply_limit is not None and state.ply >= rules.ply_limit:
            return draw(self.num_players, goals.chance)
        return out

    def no_moves(self, state: PieceState) -> Returns:
        """Outcome when the side to move has no legal move: what the goals say (by
        default that player loses)."""
        goals = self.ruleset.goals
        if goals is not None:
            return goals.no_moves(state)
        return win_for(1 - state.to_move, self.num_players)

    def new_state(self, cells: list[Piece | None], to_move: int,
                  reserves: dict[Piece, int], ply: int, *, follow: str | None = None,
                  turns: int | None = None) -> PieceState:
        """A position of this game: a kernel position when its engine compiles and it
        has a kernel, else one of :attr:`state_class`. ``follow``: the name of the move
        due in this turn (see :class:`~boardlab.core.turn.FollowUp`); ``turns``: the
        turns played (by default ``ply``)."""
        more: dict[str, Any] = {}
        if follow is not None:
            more["follow"] = follow
        if turns is not None:
            more["turns"] = turns
        plan = self._compiled_plan()
        if plan is not None:
            from boardlab.core.kernel import Unsupported

            try:
                return plan.state_class(self, cells, to_move, reserves, ply, plan, **more)
            except Unsupported:
                pass  # a piece or a reserve the kernel does not hold
        return self.state_class(self, cells, to_move, reserves, ply, **more)

    def _compiled_plan(self) -> Any:
        """The game's kernel when its engine compiles and it has one, else None."""
        if not self.engine.compiled:
            return None
        # The kernel's module, and numba with it, loads only for a game played on it.
        from boardlab.core import kernel

        return kernel.plan_for(self)

    def next_player(self, state: PieceState, move: Move) -> int:
        """Who moves after ``move`` (``state`` is already updated): the player of turn
        ``ply`` in the rule set's turn order, else the next player."""
        order = self.ruleset.turn_order
        if order is None:
            return (state.to_move + 1) % self.num_players
        return order[0][turn_index(state.ply, len(order[0]), order[1])]

    def notation(self, state: PieceState, actions: tuple) -> str:
        """Notation of a generated move: the generic action notation by default."""
        return format_actions(actions, self.board, self.piece_names)

    #: Whether :meth:`notation` reads more of the position than the side to move. When
    #: it does not (the generic notation does not), generated moves write their notation
    #: only when it is read: a search that never shows its moves never writes them. The
    #: deferred call gets a :class:`~boardlab.core.move.Mover` in place of the position.
    notation_reads_position: ClassVar[bool] = True


    @cached_property
    def judges_moves_first(self) -> bool:
        """Whether a player to move without a move is judged before the end goals are
        read (:attr:`~boardlab.core.goals.Goals.moves_first`)."""
        goals = self.ruleset.goals
        return goals is not None and goals.moves_first

    @cached_property
    def turns_limit(self) -> int | None:
        """The most turns a goal of the rule set counts
        (:class:`~boardlab.core.goals.TurnsPlayed`), or None when none does: the
        position's key then reads its turns played, up to that count (past it every
        such goal holds alike)."""
        goals = self.ruleset.goals
        counts = [goal.count for goal in goals.leaves() if isinstance(goal, TurnsPlayed)] \
            if goals is not None else []
        return max(counts) if counts else None

    def turns_key(self, turns: int) -> int:
        """The Zobrist key of ``turns`` turns played (0 where no goal counts turns; see
        :attr:`turns_limit`), drawn from the game and the count alone."""
        limit = self.turns_limit
        if limit is None:
            return 0
        turns = min(turns, limit)
        return self._named_key((-2, turns), f"{self.name}:turns:{turns}")

    @cached_property
    def defers_notation(self) -> bool:
        """Whether generated moves write their notation when it is first read."""
        return type(self).notation is PieceGame.notation or not self.notation_reads_position

    def chain_notation(self, state: PieceState, steps: tuple[tuple, ...]) -> str:
        """Notation of a move made of partial steps (ZRF ``add-partial``): by default each
        step's generic notation, separated by ``;``."""
        return "; ".join(format_actions(step, self.board, self.piece_names) for step in steps)

    # --- derived, cached per game instance -------------------------------------------
    @cached_property
    def board(self) -> Board:
        """The rule set's board (kept with the game: move generation reads it often)."""
        return self.ruleset.board

    @cached_property
    def move_rules(self) -> Rules:
        """The rule set's rules (kept with the game, as :attr:`board`)."""
        return self.ruleset.rules

    @cached_property
    def _tables(self) -> dict[tuple[int, Any], tuple[object, Any]]:
        return {}

    def kernel_heuristic(self) -> MaterialMobility | PieceSquare | None:
        """The heuristic the game's kernel computes as this class's ``evaluate`` does
        (:mod:`boardlab.core.heuristics`), so that a bot's playouts cut at a cap are
        scored in the kernel too (:mod:`boardlab.core.kernel.search`); None: only in
        Python. The kernel reads it only with the ``evaluate`` of the class that defines
        this method, never one a subclass writes over it."""
        return None

    def derived(self, owner: object, key: Any, build: Callable[..., Any], *args: Any) -> Any:
        """What ``build(*args)`` makes for ``owner`` and ``key`` in this game, made the
        first time it is asked for and kept with the game.

        The rule set's nodes are frozen values that several games may share (a rule set
        played on another board, by another engine), so what a node derives from a
        game's board or placement (the cells a piece could attack from, the walks of a
        pattern, the move lists of recent positions) is kept here, per game, and never
        on the node. ``owner`` counts by identity and is kept alive with its table.

        >>> from boardlab import load
        >>> game = load("breakthrough")
        >>> rows = game.derived(game.board, "rows", lambda n: list(range(n)), 3)
        >>> rows is game.derived(game.board, "rows", list)
        True
        """
        slot = (id(owner), key)
        found = self._tables.get(slot)
        if found is None:
            found = self._tables[slot] = (owner, build(*args))
        return found[1]

    @cached_property
    def piece_list(self) -> tuple[Piece, ...]:
        """The pieces in symbol order; Zobrist keys index this."""
        return tuple(self.pieces.values())

    @cached_property
    def piece_names(self) -> dict[Piece, str]:
        """Piece -> symbol."""
        return {p: s for s, p in self.pieces.items()}

    @cached_property
    def _piece_index(self) -> dict[Piece, int]:
        """Piece -> its place in :attr:`piece_list`."""
        return {piece: i for i, piece in enumerate(self.piece_list)}

    @cached_property
    def _other_keys(self) -> dict[Any, int]:
        """The keys :meth:`_named_key` drew so far, by their slot."""
        return {}

    def _named_key(self, slot: Any, text: str) -> int:
        """The Zobrist key named ``text`` (drawn from it alone, so every process
        agrees on it), kept under ``slot``."""
        key = self._other_keys.get(slot)
        if key is None:
            key = self._other_keys[slot] = zobrist_table(1, text)[0]
        return key

    def _other_key(self, cell: int, piece: Piece) -> int:
        """The Zobrist key of ``piece`` on ``cell`` for a piece outside
        :attr:`piece_list` that the rules can make (a disc given to the other player
        before its type changes, a piece with attributes): drawn from the game, cell
        and piece alone, so every process agrees on it."""
        key = self._other_keys.get((cell, piece))
        if key is None:
            attributes = ",".join(sorted(piece.attributes))
            key = self._named_key((cell, piece), f"{self.name}:{cell}:{piece.owner}:"
                                                 f"{piece.kind}:{attributes}")
        return key

    def follow_key(self, name: str | None) -> int:
        """The Zobrist key of the move of ``name`` due in the same turn (0 for none;
        see :class:`~boardlab.core.turn.FollowUp`), drawn from the game and the name
        alone."""
        if name is None:
            return 0
        return self._named_key((-1, name), f"{self.name}:follow:{name}")

    @cached_property
    def _zobrist(self) -> list[int]:
        n = self.board.size * len(self.piece_list)
        return zobrist_table(n + self.num_players + 64 * len(self.piece_list), self.name)

    def initial_state(self) -> PieceState:
        """The start position."""
        plan = self._compiled_plan()
        if plan is not None:
            return plan.initial_state()
        cells: list[Piece | None] = [None] * self.board.size
        rules = self.ruleset
        for name, piece in rules.placement.items():
            cells[self.board.cell(name)] = piece
        return self.new_state(cells, 0, dict(rules.reserves), 0)

    def parse_state(self, text: str) -> PieceState:
        """Read the text form (see the module docstring)."""
        parts = text.split()
        if len(parts) < 2:
            raise NotationError("expected 'cells side [ply] [reserve:...]'", where=repr(text))
        board = self.board
        cells: list[Piece | None] = [None] * board.size
        layout = parts[0]
        if _grid_shape(board) is not None:
            width, height = _grid_shape(board)  # type: ignore[misc]
            rows = layout.split("/")
            if len(rows) != height or any(len(r) != width for r in rows):
                raise NotationError(f"expected {height} rows of {width} cells", where=layout)
            for i, row in enumerate(rows):
                for x, ch in enumerate(row):
                    cells[(height - 1 - i) * width + x] = self._piece_of(ch, f"row {i + 1}")
        elif layout != "-":
            for item in layout.split(","):
                name, sep, sym = item.partition("=")
                if not sep:
                    raise NotationError("expected cell=symbol", where=repr(item))
                cells[board.cell(name)] = self._piece_of(sym, name)
        names = [n.lower() for n in self.player_names]
        if parts[1].lower() not in names:
            raise NotationError(f"side to move must be one of {', '.join(names)}",
                                where=repr(parts[1]))
        reserves: dict[Piece, int] = dict.fromkeys(self.ruleset.reserves, 0)
        ply = self.implied_ply(cells) or 0
        turns: int | None = None
        follow: str | None = None
        for extra in parts[2:]:
            if extra.startswith("reserve:"):
                for item in filter(None, extra[len("reserve:"):].split(",")):
                    sym, sep, count = item.partition("=")
                    if not sep or not count.isdigit():
                        raise NotationError("expected symbol=count", where=repr(item))
                    piece = self._piece_of(sym, "reserve")
                    assert piece is not None
                    reserves[piece] = int(count)
            elif extra.startswith("ply:") and extra[4:].isdigit():
                ply = int(extra[4:])
            elif extra.startswith("turns:") and extra[6:].isdigit():
                turns = int(extra[6:])
            elif extra.startswith("follow:") and extra[7:]:
                follow = extra[7:]
                up = self.move_rules.follow_up
                if up is None or follow != up.name:
                    raise NotationError(
                        "no such move due in this game" + (
                            "" if up is None else f" (its follow-up: {up.name!r})"),
                        where=repr(extra))
            else:
                raise NotationError("unknown field", where=repr(extra))
        return self.new_state(cells, names.index(parts[1].lower()), reserves, ply,
                              follow=follow, turns=turns)

    def check_notation(self, text: str) -> None:
        """Raise :class:`NotationError` where ``text`` is no move of this game at all
        (a position's ``check_notation`` asks its game); everything passes by
        default, and unknown text is reported as an illegal move."""
        return None

    def implied_ply(self, cells: Sequence[Piece | None]) -> int | None:
        """The ply a position with these ``cells`` is at, where the rules fix it (a
        game of drops alone: one piece a ply): its text form then leaves the ply out.
        None (the default): the text says it."""
        return None

    def _piece_of(self, symbol: str, where: str) -> Piece | None:
        if symbol == ".":
            return None
        try:
            return self.pieces[symbol]
        except KeyError:
            raise NotationError(f"unknown piece symbol {symbol!r}", where=where) from None


def _grid_shape(board: Board) -> tuple[int, int] | None:
    if board.kind != "square" or board.layer_names:
        return None
    width = max(c[0] for c in board.coords) + 1
    height = max(c[1] for c in board.coords) + 1
    if width * height != board.size:
        return None  # cells were removed: fall back to the list form
    return width, height


class PieceState(State):
    """Pieces on the cells of a :class:`PieceGame`'s board, reserves, side to move, ply."""

    __slots__ = ("game", "cells", "_to_move", "reserves", "ply", "_history", "_key", "_cache",
                 "last_from", "last_to", "follow", "turns")
    #: What a kernel position of this class makes fresh besides PieceState's fields
    #: (name -> factory); a subclass that can be played by a kernel defines it (see
    #: :mod:`boardlab.core.kernel`).
    kernel_fields: ClassVar[dict[str, Callable[[], Any]]] = {}

    def __init__(self, game: PieceGame, cells: list[Piece | None], to_move: int,
                 reserves: dict[Piece, int], ply: int, *, follow: str | None = None,
                 turns: int | None = None):
        self.game: PieceGame = game
        self.cells = cells
        self._to_move = to_move
        self.reserves = reserves
        self.ply = ply
        self._history: list[tuple[Any, ...]] = []
        self._cache: dict[str, Any] = {}
        #: Where the last move (or partial step) started and ended (ZRF ``last-from?``,
        #: ``last-to?``): its last shift, or its last drop; None before any.
        self.last_from: int | None = None
        self.last_to: int | None = None
        #: The name of the move due next in this turn (see
        #: :class:`~boardlab.core.turn.FollowUp`), or None: the next move starts a turn.
        self.follow: str | None = follow
        #: The turns played: the moves that passed the turn (the ply, in a game whose
        #: moves all do).
        self.turns: int = ply if turns is None else turns
        self._key = self._full_key()

    # --- hashing ----------------------------------------------------------------------
    def _piece_key(self, cell: int, piece: Piece) -> int:
        game = self.game
        index = game._piece_index.get(piece)
        if index is None:
            return game._other_key(cell, piece)
        return game._zobrist[cell * len(game.piece_list) + index]

    def _reserve_key(self, piece: Piece, count: int) -> int:
        game = self.game
        base = game.board.size * len(game.piece_list) + game.num_players
        return game._zobrist[base + game.piece_list.index(piece) * 64 + min(count, 63)]

    def _full_key(self) -> int:
        key = self.game._zobrist[self.game.board.size * len(self.game.piece_list)
                                 + self._to_move]
        for cell, piece in enumerate(self.cells):
            if piece is not None:
                key ^= self._piece_key(cell, piece)
        for piece, count in self.reserves.items():
            key ^= self._reserve_key(piece, count)
        return key ^ self.game.follow_key(self.follow) ^ self.game.turns_key(self.turns)

    # --- protocol ---------------------------------------------------------------------
    @property
    def to_move(self) -> int:
        return self._to_move

    def legal_moves(self) -> list[Move]:
        moves = self._cache.get("moves")
        if moves is None:
            game = self.game
            if game.judges_moves_first:
                self._judge()
                moves = self._cache["moves"]
            elif game.result(self) is not None:
                moves = []
            else:
                moves = game.move_rules.generate(self)
            self._cache["moves"] = moves
        return list(moves)  # the caller owns the list it gets

    def outcome(self) -> Returns | None:
        if "outcome" not in self._cache:
            game = self.game
            if game.judges_moves_first:
                self._judge()
            else:
                out = game.result(self)
                if out is None and not self.legal_moves():
                    out = game.no_moves(self)
                self._cache["outcome"] = out
        return self._cache["outcome"]

    def _judge(self) -> None:
        """The moves and the outcome where a player without a move is judged first
        (:attr:`~boardlab.core.goals.Goals.moves_first`): the moves are found, then the
        result read where there are some."""
        game = self.game
        moves = game.move_rules.generate(self)
        if not moves:
            out = game.no_moves(self)
        else:
            out = game.result(self)
            if out is not None:
                moves = []
        self._cache["moves"] = moves
        self._cache["outcome"] = out

    def apply(self, move: Move) -> None:
        game = self.game
        mover, follow = self._to_move, self.follow
        key = self._play(move.actions)
        self.ply += 1
        up = game.move_rules.follow_up
        due = None
        if up is not None and follow is None and up.due(self, mover, move.actions):
            due = up.name
        if due is None:
            nxt = game.next_player(self, move)
            self.turns += 1
            if game.turns_limit is not None:
                key ^= game.turns_key(self.turns - 1) ^ game.turns_key(self.turns)
        else:
            nxt = mover  # the same player goes on with the move due
        if due != follow:
            key ^= game.follow_key(follow) ^ game.follow_key(due)
            self.follow = due
        base = game.board.size * len(game.piece_list)
        self._key = key ^ game._zobrist[base + self._to_move] ^ game._zobrist[base + nxt]
        self._to_move = nxt

    def apply_step(self, actions: tuple) -> None:
        """Play the actions of a partial step: the board changes, the side to move and
        the ply stay (:meth:`undo` takes it back)."""
        self._key = self._play(actions, whole=False)

    def _play(self, actions: tuple, whole: bool = True) -> int:
        """Perform ``actions`` on the board, record how to undo them, and return the new
        key before the side to move changes."""
        cells = self.cells
        touched: dict[int, Piece | None] = {}
        key = self._key

        def put(cell: int, piece: Piece | None) -> None:
            nonlocal key
            if cell not in touched:
                touched[cell] = cells[cell]
            old = cells[cell]
            if old is not None:
                key ^= self._piece_key(cell, old)
            if piece is not None:
                key ^= self._piece_key(cell, piece)
            cells[cell] = piece

        shifts = [(a.target, cells[a.source], a.source) for a in actions if isinstance(a, Shift)]
        reserve_changes: list[tuple[Piece, int]] = []
        recycle = self.game.ruleset.recycle_captures
        for a in actions:
            if isinstance(a, Capture):
                taken = cells[a.cell]
                if recycle and taken is not None:
                    # ZRF "recycle captures": the piece goes back to its owner's hand.
                    count = self.reserves.get(taken, 0)
                    reserve_changes.append((taken, count))
                    key ^= self._reserve_key(taken, count) ^ self._reserve_key(taken,
                                                                               count + 1)
                    self.reserves[taken] = count + 1
                put(a.cell, None)
        for _, _, source in shifts:
            put(source, None)
        for target, piece, _ in shifts:
            put(target, piece)
        last = (self.last_from, self.last_to)
        if shifts:
            self.last_from, self.last_to = shifts[-1][2], shifts[-1][0]
        for a in actions:
            if isinstance(a, Place):
                put(a.cell, a.piece)
                if a.from_reserve:
                    count = self.reserves.get(a.piece, 0)
                    reserve_changes.append((a.piece, count))
                    key ^= self._reserve_key(a.piece, count) ^ self._reserve_key(a.piece,
                                                                                 count - 1)
                    self.reserves[a.piece] = count - 1
                if not shifts:
                    self.last_from, self.last_to = None, a.cell
            elif isinstance(a, Change):
                put(a.cell, a.piece)
                if a.from_reserve:
                    # ZRF "recycle promotions": the new piece comes from the hand.
                    taken = in_hand(self.reserves, a.piece.owner, a.piece.kind) or a.piece
                    count = self.reserves.get(taken, 0)
                    reserve_changes.append((taken, count))
                    key ^= self._reserve_key(taken, count) ^ self._reserve_key(taken,
                                                                               count - 1)
                    self.reserves[taken] = count - 1
        self._history.append((touched, reserve_changes, self._to_move, self._key, self._cache,
                              last, whole, actions, self.follow, self.turns))
        self._cache = {}
        return key

    def undo(self) -> None:
        touched, reserve_changes, to_move, key, cache, last, whole, _, follow, turns = \
            self._history.pop()
        for cell, piece in touched.items():
            self.cells[cell] = piece
        for piece, count in reversed(reserve_changes):
            self.reserves[piece] = count
        self._to_move = to_move
        self._key = key
        self._cache = cache
        self.last_from, self.last_to = last
        self.follow, self.turns = follow, turns
        if whole:
            self.ply -= 1

    def clone(self) -> PieceState:
        new = type(self).__new__(type(self))
        new.game = self.game
        new.cells = self.cells[:]
        new._to_move = self._to_move
        new.reserves = dict(self.reserves)
        new.ply = self.ply
        new._history = []
        new._key = self._key
        new._cache = dict(self._cache)
        new.last_from, new.last_to = self.last_from, self.last_to
        new.follow, new.turns = self.follow, self.turns
        return new

    def with_turn(self, player: int) -> PieceState:
        """The same position with ``player`` to move, at the start of a turn (no move due
        in the turn), without history (for heuristics that count what each side could
        do, such as mobility)."""
        new = self.clone()
        new._to_move = player
        new.follow = None
        new._cache = {}
        new._key = new._full_key()
        return new

    def key(self) -> int:
        return self._key

    # --- history (ZRF's captured and repetition goals) ----------------------------------------
    @property
    def last_mover(self) -> int | None:
        """The player who made the last move, if this state was reached by moves."""
        return self._history[-1][2] if self._history else None

    @property
    def last_actions(self) -> tuple | None:
        """The actions of the last move (or partial step), if known."""
        return self._history[-1][7] if self._history else None

    def captured_by_last_move(self) -> list[Piece]:
        """The pieces the last move removed from the board (captured, not moved)."""
        if not self._history:
            return []
        touched, actions = self._history[-1][0], self._history[-1][7]
        return [touched[a.cell] for a in actions
                if isinstance(a, Capture) and touched.get(a.cell) is not None]

    def occurrences(self) -> int:
        """How often this position (board, reserves, side to move) has occurred in the
        moves that led here, this time included."""
        return 1 + sum(1 for entry in self._history if entry[6] and entry[3] == self._key)

    def signature(self) -> tuple[Any, ...]:
        return (tuple(self.cells), self._to_move, tuple(sorted(self.reserves.items())),
                self.ply, self.follow, self.turns)

    # --- helpers for rules and results ---------------------------------------------------
    def piece_at(self, cell: int) -> Piece | None:
        """The piece on ``cell``, or ``None``."""
        return self.cells[cell]

    def pieces_of(self, player: int) -> list[int]:
        """Cells holding ``player``'s pieces, in cell order."""
        return [c for c, p in enumerate(self.cells) if p is not None and p.owner == player]

    def occupied(self) -> Iterable[tuple[int, Piece]]:
        """(cell, piece) for every occupied cell."""
        return ((c, p) for c, p in enumerate(self.cells) if p is not None)

    # --- text -----------------------------------------------------------------------------
    def __str__(self) -> str:
        game = self.game
        names = game.piece_names
        shape = _grid_shape(game.board)
        if shape is not None:
            width, height = shape
            rows = ["".join(names[p] if (p := self.cells[y * width + x]) is not None else "."
                            for x in range(width)) for y in reversed(range(height))]
            layout = "/".join(rows)
        else:
            layout = ",".join(f"{game.board.cell_name(c)}={names[p]}"
                              for c, p in self.occupied()) or "-"
        out = f"{layout} {game.player_names[self._to_move].lower()}"
        if self.ply and self.ply != game.implied_ply(self.cells):
            out += f" ply:{self.ply}"
        if self.reserves:
            out += " reserve:" + ",".join(f"{names[p]}={n}" for p, n in self.reserves.items())
        if self.turns != self.ply:
            out += f" turns:{self.turns}"
        if self.follow is not None:
            out += f" follow:{self.follow}"
        return out

    def check_notation(self, text: str) -> None:
        """The game's :meth:`PieceGame.check_notation`."""
        self.game.check_notation(text)

    def render(self) -> str:
        game = self.game
        names = game.piece_names
        shape = _grid_shape(game.board)
        turn = f"{game.player_names[self._to_move]} to move"
        if shape is None:
            return str(self) + "\n" + turn
        width, height = shape
        files = [game.board.cell_name(x)[:-1] for x in range(width)]
        lines = []
        for y in reversed(range(height)):
            row = " ".join(names[p] if (p := self.cells[y * width + x]) is not None else "."
                           for x in range(width))
            lines.append(f"{y + 1:>2}  {row}")
        lines.append("    " + " ".join(files))
        lines.append(turn)
        return "\n".join(lines)


PieceGame.state_class = PieceState
