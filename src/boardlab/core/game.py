"""The game protocol every boardlab game implements: :class:`Game` and :class:`State`.

Modelled on OpenSpiel's small protocol and python-chess's value semantics:

* a :class:`Game` is an immutable rule set, parameterised by named options
  (``boardlab.load("connect-four", rows=6)``), with metadata (players,
  description, rules text and source, option schema with defaults);
* a :class:`State` is a position: whose turn it is, the legal moves in a
  deterministic order, :meth:`State.play` returning a new state, a fast in-place
  :meth:`State.apply`/:meth:`State.undo` pair for search, :meth:`State.outcome`
  (``None`` while the game goes on, else one number per player), a Zobrist-style
  :meth:`State.key`, and a text form and JSON that round-trip.

Returns are points: a win is 1 and a loss 0, a draw 1/2 each; games with scoring
(Goff's quantum tic-tac-toe) may give other fractions, held exactly as ``Fraction`` values.

A game may have *chance players* (:attr:`Game.chance_players`; Zillions' random players,
whose names start with ``?``, such as a die): at a chance player's turn the move is drawn
uniformly among the legal moves, each with the same chance; it is not a decision, and
nobody is asked for it (bots, the arena, the command line and the web app draw it).
A chance player is not a contestant: its slot in the returns is always 0, a draw splits
the point among the other players (:func:`draw`), and an ending of a chance player's own
(a rule file's goal may name one) leaves it 0 all the same.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any, ClassVar

from boardlab.core.board import Board
from boardlab.core.move import Capture, Move, Piece
from boardlab.errors import IllegalMoveError, NotationError, OptionError

Returns = tuple[Fraction, ...]
WIN: Returns = (Fraction(1), Fraction(0))
LOSS: Returns = (Fraction(0), Fraction(1))
DRAW: Returns = (Fraction(1, 2), Fraction(1, 2))


def win_for(player: int, players: int = 2) -> Returns:
    """Returns where ``player`` scores 1 and everybody else 0."""
    return tuple(Fraction(1 if p == player else 0) for p in range(players))


def draw(players: int = 2, chance: frozenset[int] = frozenset()) -> Returns:
    """Returns of a draw: 1/n each, or with ``chance`` players 0 for them and the point
    split among the others.

    >>> draw(3, frozenset({0}))
    (Fraction(0, 1), Fraction(1, 2), Fraction(1, 2))
    """
    share = Fraction(1, max(1, players - len(chance)))
    return tuple(Fraction(0) if p in chance else share for p in range(players))


@dataclass(frozen=True)
class Option:
    """One named option of a game, with its type, default and allowed values."""

    name: str
    default: Any
    help: str = ""
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    @property
    def type(self) -> type:
        """The Python type of the option's values (that of the default)."""
        return type(self.default)

    def validate(self, value: Any) -> Any:
        """``value`` converted to the option's type, or :class:`OptionError`."""
        if isinstance(value, str) and self.type is not str:
            value = self.parse(value)
        if self.type is bool:
            if not isinstance(value, bool):
                raise OptionError(f"option {self.name!r} must be true or false, got {value!r}")
        elif self.type is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"option {self.name!r} must be an integer, got {value!r}")
        elif not isinstance(value, self.type):
            raise OptionError(f"option {self.name!r} must be {self.type.__name__}, "
                              f"got {value!r}")
        if self.choices is not None and value not in self.choices:
            raise OptionError(f"option {self.name!r} must be one of "
                              f"{', '.join(map(str, self.choices))}; got {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"option {self.name!r} must be >= {self.minimum}, got {value}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"option {self.name!r} must be <= {self.maximum}, got {value}")
        return value

    def parse(self, text: str) -> Any:
        """Read a value of this option from command-line text."""
        t = self.type
        if t is bool:
            low = text.strip().lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            raise OptionError(f"option {self.name!r} must be true or false, got {text!r}")
        if t is int:
            try:
                return int(text)
            except ValueError:
                raise OptionError(f"option {self.name!r} must be an integer, "
                                  f"got {text!r}") from None
        if t is float:
            try:
                return float(text)
            except ValueError:
                raise OptionError(f"option {self.name!r} must be a number, "
                                  f"got {text!r}") from None
        return text

    def describe(self) -> dict[str, Any]:
        """The option as JSON-ready data."""
        out: dict[str, Any] = {"name": self.name, "type": self.type.__name__,
                               "default": self.default, "help": self.help}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


@dataclass(frozen=True)
class Playouts:
    """The totals of a batch of random playouts (:meth:`State.playouts`).

    ``points`` adds up the returns of the games that ended; ``wins`` counts, for each
    player, the games where that player scored more than every other; ``draws`` the
    other games that ended; ``unfinished`` the games stopped at the ply cap.
    """

    games: int
    points: Returns
    wins: tuple[int, ...]
    draws: int
    unfinished: int

    @classmethod
    def of(cls, ends: Iterable[tuple[Returns | None, int]], players: int) -> Playouts:
        """The totals of games that ended with these returns (None: stopped at the
        cap), each with its number of games.

        >>> totals = Playouts.of([(WIN, 3), (DRAW, 1), (None, 2)], 2)
        >>> totals.points, totals.wins, totals.draws, totals.unfinished
        ((Fraction(7, 2), Fraction(1, 2)), (3, 0), 1, 2)
        """
        points = [Fraction(0)] * players
        wins = [0] * players
        games = draws = unfinished = 0
        for returns, count in ends:
            games += count
            if returns is None:
                unfinished += count
                continue
            for p, r in enumerate(returns):
                points[p] += r * count
            best = max(returns)
            leaders = [p for p, r in enumerate(returns) if r == best]
            if len(leaders) == 1:
                wins[leaders[0]] += count
            else:
                draws += count
        return cls(games, tuple(points), tuple(wins), draws, unfinished)


#: The largest weight a :class:`PlayoutPolicy` gives.
MAX_WEIGHT = 100


@dataclass(frozen=True)
class PlayoutPolicy:
    """Weights that bias a random playout (:meth:`State.playout`): each legal move is
    drawn with a chance proportional to its weight, the weight of its tag (for the
    move language, the name of the template that made it: ``tags``, 1 for a tag not
    named) times ``capture`` when it takes a piece. Weights are whole numbers from 0 to
    :data:`MAX_WEIGHT`; when every move weighs 0, one is drawn uniformly.

    >>> from boardlab.core.move import Capture, Move, Shift
    >>> policy = PlayoutPolicy(capture=4, tags={"retreat": 0})
    >>> policy.weight(Move("a1xb2", (Capture(1), Shift(0, 1)), "diagonal"))
    4
    >>> policy.weight(Move("b2-a1", (Shift(1, 0),), "retreat"))
    0
    """

    capture: int = 1
    tags: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tags", MappingProxyType(dict(self.tags)))
        for name, value in (("capture", self.capture), *self.tags.items()):
            if isinstance(value, bool) or not isinstance(value, int) \
                    or not 0 <= value <= MAX_WEIGHT:
                raise OptionError(f"playout weight {name!r} must be a whole number from 0 "
                                 f"to {MAX_WEIGHT}, got {value!r}")

    def __hash__(self) -> int:
        return hash((self.capture, frozenset(self.tags.items())))

    def __reduce__(self) -> tuple[type[PlayoutPolicy], tuple[int, dict[str, int]]]:
        # A bot sends its policy to its worker processes; a read-only mapping does not
        # pickle, the dict it is made from does.
        return type(self), (self.capture, dict(self.tags))

    def weight(self, move: Move) -> int:
        """The weight of ``move``."""
        weight = self.tags.get(move[2], 1) if isinstance(move[2], str) else 1
        if any(isinstance(a, Capture) for a in move[1]):
            weight *= self.capture
        return weight

    def choose(self, moves: Sequence[Move], rng: random.Random) -> Move:
        """One of ``moves`` drawn by weight with ``rng``."""
        weights = [self.weight(m) for m in moves]
        total = sum(weights)
        if not total:
            return moves[rng.randrange(len(moves))]
        r = rng.randrange(total)
        for move, w in zip(moves, weights, strict=True):
            r -= w
            if r < 0:
                return move
        raise AssertionError("unreachable")  # pragma: no cover


class Game(ABC):
    """An immutable rule set. Subclasses set the class attributes and implement
    :meth:`initial_state` and :meth:`parse_state`.

    Games are equal when they are the same class with the same options.
    """

    name: ClassVar[str]
    description: ClassVar[str]
    source: ClassVar[str] = ""
    player_names: ClassVar[tuple[str, ...]] = ("first", "second")
    option_schema: ClassVar[tuple[Option, ...]] = ()
    #: Reference perft counts from the initial state with default options (depth 1, 2, ...):
    #: published figures, or an independent implementation's (the module says which),
    #: checked by the tests (shallow levels) and ``benchmarks/perft.py`` (all levels).
    known_perft: ClassVar[tuple[int, ...]] = ()
    #: How the game's board is known to look, for renderers: ``"chequered"`` (alternating
    #: squares: chess, checkers, Breakthrough), ``"lines"`` (squares ruled by lines, as
    #: noughts and crosses or Othello), ``"intersections"`` (stones on the points of a
    #: grid of lines, as Go), ``"columns"`` (an upright frame with holes that discs drop
    #: into, as Connect Four); ``""`` leaves the look to the board's kind (hex cells, a
    #: graph's points and lines, a rule file's rectangles).
    board_style: ClassVar[str] = ""
    #: The chance players (see the module docstring): at their turn the move is drawn
    #: uniformly among the legal moves. A class attribute like :attr:`player_names`, so
    #: that lists of games read it without building one.
    chance_players: ClassVar[frozenset[int]] = frozenset()
    #: Whether the game is made with an engine (``engine=``, see
    #: :mod:`boardlab.core.engine`): the games of the move language are; a game written
    #: in Python plays its own code.
    takes_engine: ClassVar[bool] = False

    def __init__(self, **options: Any):
        schema = {o.name: o for o in self.option_schema}
        for key in options:
            if key not in schema:
                known = ", ".join(schema) or "none"
                raise OptionError(f"{self.name}: unknown option {key!r} (options: {known})")
        values = {o.name: o.validate(options.get(o.name, o.default)) for o in self.option_schema}
        self._options = MappingProxyType(values)
        self._check_options()

    def _check_options(self) -> None:
        """Hook for cross-option validation; raise :class:`OptionError`."""
        return None

    @property
    def options(self) -> Mapping[str, Any]:
        """The game's option values (defaults filled in), read-only."""
        return self._options

    @property
    def num_players(self) -> int:
        """Number of players."""
        return len(self.player_names)

    @property
    def rules(self) -> str:
        """The rules as text: the game module's docstring (rules and source), followed by
        the class docstring when it adds something (a variant's own rule)."""
        import inspect
        import sys

        module = inspect.cleandoc(sys.modules[type(self).__module__].__doc__ or "")
        own = inspect.cleandoc(type(self).__doc__ or "")
        return "\n\n".join(part for part in (module, own) if part)

    @property
    def board(self) -> Board | None:
        """The board the game is played on, when it has one (renderers draw it)."""
        return None

    def max_length(self) -> int:
        """An upper bound on the number of moves of any game (conformance tests use it)."""
        return 10_000

    @abstractmethod
    def initial_state(self) -> State:
        """The position a game starts from."""

    @abstractmethod
    def parse_state(self, text: str) -> State:
        """The state whose text form (``str(state)``) is ``text``."""

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """The state written by :meth:`State.to_json`."""
        if not isinstance(data, Mapping) or "position" not in data:
            raise NotationError("JSON state needs a 'position' field")
        if data.get("game", self.name) != self.name:
            raise NotationError(f"JSON state is of game {data.get('game')!r}, not {self.name!r}")
        return self.parse_state(data["position"])

    def recipe(self) -> tuple[Callable[..., Game], tuple[Any, ...], dict[str, Any]] | None:
        """How another process builds this game again: a function that pickles by
        name, its positional and its keyword arguments (a bot searching on several
        cores sends it with the position's text); None when the game cannot say.

        >>> from boardlab import load
        >>> build, args, kwargs = load("connect-four", rows=5).recipe()
        >>> build(*args, **kwargs).options["rows"]
        5
        """
        from boardlab.core.registry import game_class, load

        try:
            registered = game_class(self.name)
        except Exception:  # noqa: BLE001 - any game outside the registry
            return None
        if registered is not type(self):
            return None
        return load, (self.name,), dict(self.options)

    def evaluate(self, state: State, player: int) -> float | None:
        """A heuristic value of a non-terminal ``state`` for ``player`` in [-1, 1];
        ``None`` means no heuristic (bots then use 0 or playouts)."""
        return None

    def closure(self, state: State, group: Sequence[int], move: Move) -> list[int]:
        """The selected ``group`` of cells extended as ``move`` demands, for
        selecting group moves in a UI (Dagaz's ``closure``; see
        :mod:`boardlab.core.selection`). The default brings in the own pieces a
        push moves; games with long pushes or explicit groups override it."""
        from boardlab.core.selection import push_closure

        return push_closure(state, group, move)

    def group_moves(self, state: State, group: Iterable[int]) -> list[Move]:
        """The legal moves of ``state`` that move exactly the pieces on ``group``."""
        from boardlab.core.selection import moves_for_group

        return moves_for_group(state, group)

    def move_arrow(self, move: Move) -> tuple[int, int] | None:
        """The cells a player points at to start ``move`` and to end it, when they are
        not the cells its pieces leave and reach (GESS names a move by its footprint's
        centre, which may hold no stone); ``None`` when the pieces' shifts say it."""
        return None

    def info(self) -> dict[str, Any]:
        """Metadata as JSON-ready data."""
        return {"name": self.name, "description": self.description, "source": self.source,
                "players": list(self.player_names), "chance": sorted(self.chance_players),
                "board_style": self.board_style,
                "options": [o.describe() for o in self.option_schema],
                "values": dict(self.options)}

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.options == self.options  # type: ignore

    def __hash__(self) -> int:
        return hash((type(self), tuple(sorted(self.options.items()))))

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"load({self.name!r}{', ' if opts else ''}{opts})"


class State(ABC):
    """A position of a game. Mutable only through :meth:`apply`/:meth:`undo`, the fast
    path for search; everything else treats states as values (:meth:`play` copies).

    Equality compares the game and :meth:`signature` (by default the text form).
    """

    __slots__ = ()
    game: Game

    # --- what subclasses implement ------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> int:
        """Index of the player to move (meaningless once terminal)."""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """The legal moves in a deterministic order; empty iff terminal. The caller
        owns the returned list (states never hand out their own cache)."""

    @abstractmethod
    def apply(self, move: Move) -> None:
        """Play ``move`` in place, without a legality check; :meth:`undo` reverts it."""

    @abstractmethod
    def undo(self) -> None:
        """Revert the last :meth:`apply` not yet undone."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy (its undo history may be empty)."""

    @abstractmethod
    def outcome(self) -> Returns | None:
        """``None`` while the game goes on, else the points of every player."""

    @abstractmethod
    def key(self) -> int:
        """A 64-bit hash of the position (Zobrist-style), equal for equal states.
        Keys are comparable only between states of one game with one set of options."""

    @abstractmethod
    def __str__(self) -> str:
        """The text form; ``game.parse_state(str(s)) == s``."""

    # --- provided -----------------------------------------------------------------
    def signature(self) -> Any:
        """What equality compares; override with something cheaper than the text."""
        return str(self)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, State) and other.game == self.game
                and other.signature() == self.signature())

    def __hash__(self) -> int:
        return self.key()

    def __repr__(self) -> str:
        return f"<{self.game.name} state {str(self)!r}>"

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.outcome() is not None

    def returns(self) -> Returns:
        """The points of every player; raises if the game is not over."""
        out = self.outcome()
        if out is None:
            raise ValueError("the game is not over")
        return out

    def play(self, move: Move | str) -> State:
        """A new state after the legal ``move`` (a :class:`Move` or its notation);
        :class:`IllegalMoveError` if it is not legal."""
        if isinstance(move, str):
            move = self.parse_move(move)
        elif move not in self.legal_moves():
            raise IllegalMoveError(move.notation)
        new = self.clone()
        new.apply(move)
        return new

    def parse_move(self, text: str) -> Move:
        """The legal move written ``text``.

        Raises :class:`NotationError` if ``text`` is not a move at all and
        :class:`IllegalMoveError` if it is one but not legal here.
        """
        wanted = " ".join(text.split())
        if not wanted:
            raise NotationError("empty move", where=repr(text))
        legal = self.legal_moves()
        if self.is_terminal():
            raise IllegalMoveError(wanted, "the game is over")
        for m in legal:
            if m.notation == wanted:
                return m
        folded = [m for m in legal if m.notation.lower() == wanted.lower()]
        if len(folded) == 1:
            return folded[0]
        self.check_notation(wanted)
        raise IllegalMoveError(wanted, "not legal in this position")

    def check_notation(self, text: str) -> None:
        """Raise :class:`NotationError` if ``text`` is not a move of this game at all.
        The default accepts everything, so unknown text is reported as illegal."""
        return None

    def render(self) -> str:
        """A human-friendly drawing for the terminal (defaults to the text form)."""
        return str(self)

    def piece_at(self, cell: int) -> Piece | None:
        """The piece on board cell ``cell`` (the top piece of a stack), or ``None``.
        Games with pieces on a board override this; group selection relies on it."""
        return None

    def view(self) -> dict[str, Any]:
        """What a board UI draws, as JSON-ready data: ``{"cells": {name: {"owner": int,
        "kind": str}}}`` for every occupied cell of the game's board, from
        :meth:`piece_at` (empty when the game has no board or does not expose pieces).

        Games whose cells hold more than one piece override it, keeping ``"cells"`` and
        adding their own keys: quantum tic-tac-toe adds the spooky marks of every square
        and a pending collapse, hex column checkers the whole column on each cell.

        >>> from boardlab import load
        >>> cells = load("breakthrough").initial_state().view()["cells"]
        >>> len(cells), cells["a1"]["owner"], cells["a8"]["owner"]
        (32, 0, 1)
        """
        board = self.game.board
        cells: dict[str, dict[str, Any]] = {}
        if board is not None:
            for cell, name in enumerate(board.names):
                piece = self.piece_at(cell)
                if piece is not None:
                    cells[name] = {"owner": piece.owner, "kind": piece.kind}
        return {"cells": cells}

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data that :meth:`Game.state_from_json` reads back."""
        return {"game": self.game.name, "options": dict(self.game.options),
                "position": str(self), "to_move": self.to_move}

    def rollout(self, rng: random.Random) -> Returns:
        """Returns of a uniformly random playout from here; the state is left unchanged.

        Games may override this with a compiled fast path (games of the move language
        with a kernel play it whole in the kernel: :mod:`boardlab.core.kernel`).
        """
        # The Python loop of State.playout, whatever a subclass compiles (uncapped, it
        # ends with the game's returns).
        out = State.playout(self, rng)
        assert not isinstance(out, State)
        return out

    def playout(self, rng: random.Random, plies: int | None = None,
                policy: PlayoutPolicy | None = None) -> Returns | State:
        """A random playout from here, stopped at the end or after ``plies`` plies: the
        returns when the game ended, else the position reached (a new state, which a
        bot may score with a heuristic). Moves are drawn uniformly, or by ``policy``'s
        weights (a chance player's always uniformly). The state is left unchanged.

        Without a policy it draws what :meth:`rollout` draws from ``rng``; games with a
        kernel play it in the kernel, drawing one seed from ``rng``.

        >>> import random
        >>> from boardlab import load
        >>> state = load("breakthrough").initial_state()
        >>> state.playout(random.Random(1), plies=4).ply
        4
        >>> state.playout(random.Random(1)) in ((1, 0), (0, 1))
        True
        """
        done = 0
        chance = self.game.chance_players
        try:
            out = self.outcome()
            while out is None and (plies is None or done < plies):
                moves = self.legal_moves()
                if policy is None or (chance and self.to_move in chance):
                    move = moves[rng.randrange(len(moves))]
                else:
                    move = policy.choose(moves, rng)
                self.apply(move)
                done += 1
                out = self.outcome()
            return out if out is not None else self.clone()
        finally:
            # Also when the rules fail on the way: the state is left as it was.
            for _ in range(done):
                self.undo()

    def search_tree(self, kept: Any = None, cap: int | None = None) -> Any:
        """A tree a Monte Carlo tree search grows from here in compiled code, its
        playouts cut after ``cap`` plies and scored by :meth:`Game.evaluate` when given,
        or None where the game has none (the search then runs in Python:
        :func:`boardlab.ai.mcts.search`). A game with a kernel gives a
        :class:`boardlab.core.kernel.search.Tree`: ``kept``'s subtree of this position
        when ``kept`` is a tree of an earlier search that holds it, else a new one."""
        return None

    def perft(self, depth: int) -> list[int]:
        """Leaf counts at depths 1..``depth`` below this position (terminal positions
        are not expanded); the position is left as it was, whatever is raised.

        This walks :meth:`legal_moves`, :meth:`apply` and :meth:`undo`; games may
        count it in compiled code (a kernel game counts it whole in its kernel).

        >>> from boardlab import load
        >>> load("tic-tac-toe").initial_state().perft(3)
        [9, 72, 504]
        """
        counts = [0] * max(depth, 0)

        def walk(level: int) -> None:
            moves = self.legal_moves()
            counts[level] += len(moves)
            if level + 1 == depth:
                return
            for m in moves:
                self.apply(m)
                try:
                    walk(level + 1)
                finally:  # an error below (rules that fail) leaves the position too
                    self.undo()

        if depth > 0 and not self.is_terminal():
            walk(0)
        return counts

    def playouts(self, n: int, seed: int, plies: int | None = None,
                 policy: PlayoutPolicy | None = None) -> Playouts:
        """The totals of ``n`` random playouts from here (each as :meth:`playout`
        plays it), the same for the same ``seed``. Games with a kernel play them all
        in one call of compiled code; others, here in Python.

        >>> from boardlab import load
        >>> totals = load("breakthrough").initial_state().playouts(100, seed=1)
        >>> totals.games, sum(totals.wins) + totals.draws + totals.unfinished
        (100, 100)
        """
        if n < 0:
            raise OptionError(f"a negative number of playouts ({n})")
        rng = random.Random(seed)
        ends: Counter[Returns | None] = Counter()
        for _ in range(n):
            end = self.playout(rng, plies, policy)
            ends[None if isinstance(end, State) else end] += 1
        return Playouts.of(ends.items(), self.game.num_players)

    def play_all(self, moves: Iterable[Move | str]) -> State:
        """The state after playing ``moves`` in order; an illegal one raises
        :class:`IllegalMoveError` carrying its 1-based index."""
        state: State = self
        for i, move in enumerate(moves, start=1):
            try:
                state = state.play(move)
            except IllegalMoveError as e:
                raise IllegalMoveError(e.move, e.reason, index=i) from None
            except NotationError as e:
                raise NotationError(f"{e} (move {i})") from None
        return state


class IncrementalState(State):
    """A state that keeps its side to move, cached outcome and Zobrist key in the
    attributes ``_to_move``, ``_result`` and ``_key``, updated by ``apply``/``undo``:
    the usual shape of a hand-written fast game. Subclasses declare those slots."""

    __slots__ = ()
    _to_move: int
    _result: Returns | None
    _key: int

    @property
    def to_move(self) -> int:
        return self._to_move

    def outcome(self) -> Returns | None:
        return self._result

    def key(self) -> int:
        return self._key


def zobrist_table(size: int, seed: str | int) -> list[int]:
    """``size`` deterministic pseudo-random 64-bit numbers for Zobrist hashing."""
    rng = random.Random(f"zobrist:{seed}")
    return [rng.getrandbits(64) for _ in range(size)]


def perft(state: State, depth: int) -> list[int]:
    """Leaf counts at depths 1..``depth`` (terminal positions are not expanded), as
    :meth:`State.perft` counts them (in one kernel call for a kernel game: for a count
    that shows its progress and can be interrupted, see :func:`perft_by_depth`).

    >>> from boardlab import load
    >>> perft(load("tic-tac-toe").initial_state(), 2)
    [9, 72]
    """
    return state.perft(depth)


def perft_by_depth(state: State, depth: int,
                   progress: Callable[[int, int], None] | None = None) -> Iterator[int]:
    """The leaf counts of :func:`perft`, yielded one depth at a time as each is known.

    Each depth is a walk of its own, so a long count shows its shallow results at once
    and an interrupted one keeps them; the shallower walks cost about a branching
    factor's fraction of the deepest. ``progress(done, total)`` is called after each
    root move of each walk. ``state`` is left as it was.

    >>> from boardlab import load
    >>> list(perft_by_depth(load("tic-tac-toe").initial_state(), 3))
    [9, 72, 504]
    """
    if state.is_terminal():
        yield from (0 for _ in range(depth))
        return
    root_moves = state.legal_moves()
    for target in range(1, depth + 1):
        count = 0
        for i, move in enumerate(root_moves):
            if target == 1:
                count += 1
            else:
                state.apply(move)
                try:
                    count += state.perft(target - 1)[-1]
                finally:
                    state.undo()
            if progress is not None:
                progress(i + 1, len(root_moves))
        yield count
        if count == 0:
            # Every line ended: deeper levels are empty too.
            yield from (0 for _ in range(depth - target))
            return


def player_names_text(names: Sequence[str]) -> str:
    """Player names joined for messages."""
    return ", ".join(names)
