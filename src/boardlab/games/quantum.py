"""Quantum tic-tac-toe (Allan Goff) with the variants of Axiom/Zillions and Dagaz.

Source: A. Goff, "Quantum tic-tac-toe: A teaching metaphor for superposition in
quantum mechanics", Am. J. Phys. 74(11), 962 (2006); the variants are those of
Valentin Chelnokov's Axiom (2016) and Dagaz JavaScript (2019) implementations, as
described in his article, and pinned down below.

Rules (Goff's, the defaults)
----------------------------
Squares are numbered 1-9 row by row from the top left. X and O alternate; every
move is numbered (X1, O2, X3, ...) and puts two *spooky marks* with that number in
two different open squares: ``X1:1-2``. Marks may share squares; the moves then
form a graph (squares are nodes, unresolved moves are edges).

When a move closes a cycle in that graph (two moves on the same two squares count),
the *other* player collapses it, as a move of its own: ``→1`` (or ASCII ``>1``)
says the cycle-closing move's mark becomes classical in square 1. Every other move
of the whole entangled component then follows (a move with a mark in a newly
classical square is resolved in its other square), so the component becomes
classical. The chooser then makes a normal move. A collapse is never automatic,
not even for a cycle made of one player's own moves.

Three classical marks of one player in a row, column or diagonal make a line; the
game ends as soon as a collapse (or a classical move) makes at least one line. If
the board is fully collapsed after move 8 with one square left, X's ninth move puts
both marks in it, a classical move (``X9:3-3``). A game with no line is a draw.

Scoring of simultaneous lines (option ``scoring``); the *subscript* of a line is
the largest move number in it:

* ``goff-points`` (Goff): each line scores 1 if its subscript is the smallest of
  all lines, else 1/2; a player scores the sum (X may get 1 1/2). Two lines
  sharing the smallest subscript both score 1 (the spec's reading of an open
  point in Goff's paper).
* ``narrow`` (Ishizeki and Matsuura): the player whose best line has the smaller
  subscript wins; equal subscripts (possible only with per-player numbers) draw.
* ``complete`` (Dagaz JS): lines of both players at once are a draw.
* ``axiom`` (Axiom): like ``narrow`` but comparing per-player move numbers
  (X's third move equals O's third), equal = draw.

Options: ``numbering`` (``goff``: X1, O2, X3, ...; ``per-player``: X1, O1, X2, ...,
which is only notation unless the scoring compares subscripts), ``scoring``,
``deterministic_moves`` (both marks in one square: a classical mark that pushes
the square's spooky marks out, collapsing its whole tree), ``duplicate_pair``
(allow a move on the same two squares as an unresolved move), ``last_square_classical``
(Goff's ninth move), ``misere`` (the points are swapped: a line is bad news).

Decisions on the spec's open points
-----------------------------------
* Two lines sharing the latest mark (the same subscript) score 1 each under
  ``goff-points``: X can score 2 (vector V8).
* A player with no legal move (a single open square without
  ``last_square_classical`` or ``deterministic_moves``; the only open pair taken
  by an unresolved move when ``duplicate_pair`` is off) ends the game; as no line
  exists at that point, it is a draw -- Axiom's ``stalemate?`` rule.

Presets (option ``preset``, which sets the flags; explicit options override it)
-------------------------------------------------------------------------------
* ``goff``: Goff's rules (the default).
* ``axiom-qttt-1`` / ``axiom-qttt-2``: Axiom "QTTT 1/2": per-player numbers, axiom
  scoring, deterministic moves allowed / forbidden, no ninth classical move.
* ``axiom-losing-1`` / ``axiom-losing-2``: the same, misère.
* ``dagaz``: Dagaz JS ``qxo``: per-player numbers, complete scoring, no
  deterministic moves, no ninth classical move.
* The six Axiom "TMM 1-6" variants and Dagaz's ``quantum-morris`` are presets of
  ``quantum-morris``.

Text form: the moves in order, each either classical (``X3:5``, the move's mark is
in square 5) or unresolved (``O4:1-5``), in the game's numbering; ``-`` for the
empty board. The position after a cycle-closing move shows the cycle; the player
to move then collapses it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from boardlab.core.board import Board
from boardlab.core.game import DRAW, Game, IncrementalState, Option, Returns, zobrist_table
from boardlab.core.move import Change, Move, Piece, Place
from boardlab.core.registry import register
from boardlab.errors import IllegalMoveError, NotationError, OptionError

SQUARES = 9
#: The eight lines of the 3x3 board, squares 0-8 row by row from the top left.
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
PLAYER_LETTERS = "XO"
NUMBERINGS = ("goff", "per-player")
SCORINGS = ("goff-points", "narrow", "complete", "axiom")
HALF = Fraction(1, 2)


def goff_board() -> Board:
    """The 3x3 board with Goff's square names 1-9 (row by row from the top left).

    Board cell indices count from the bottom left like every square board, so
    square ``s`` (0-based, from the top) is cell :func:`cell_of` ``(s)``.
    """
    names = [str((2 - y) * 3 + x + 1) for y in range(3) for x in range(3)]
    return Board.square(3, 3, names=names)


def cell_of(square: int) -> int:
    """The board cell index of Goff square ``square`` (0-based): the rows flip."""
    return (2 - square // 3) * 3 + square % 3


BOARD = goff_board()


# --- the entanglement graph, shared with quantum Morris -----------------------------
def connected(pairs: dict[int, tuple[int, int]], a: int, b: int,
              skip: int | None = None) -> bool:
    """Whether squares ``a`` and ``b`` are joined by unresolved pairs (``token -> (a,
    b)``), leaving out the pair of token ``skip``."""
    if a == b:
        return True
    seen = {a}
    frontier = [a]
    while frontier:
        here = frontier.pop()
        for token, (x, y) in pairs.items():
            if token == skip or (x != here and y != here):
                continue
            there = y if x == here else x
            if there == b:
                return True
            if there not in seen:
                seen.add(there)
                frontier.append(there)
    return False


def collapse_from(pairs: dict[int, tuple[int, int]], token: int,
                  square: int) -> list[tuple[int, int]]:
    """Where every token of ``token``'s component lands when ``token`` becomes
    classical in ``square``: ``(token, square)`` pairs in the order they resolve.

    A pair with a mark in a newly classical square is pushed to its other square,
    breadth first; in a tree or a graph with one cycle (the only shapes the games
    allow) this never lands two tokens in one square. ``pairs`` is not changed.
    """
    left = dict(pairs)
    left.pop(token, None)
    landed = [(token, square)]
    queue = [square]
    while queue:
        here = queue.pop(0)
        for other, (x, y) in sorted(left.items()):
            if x == here or y == here:
                del left[other]
                there = y if x == here else x
                landed.append((other, there))
                queue.append(there)
    return landed


def line_points(lines: Sequence[tuple[int, int, int]], scoring: str) -> Returns | None:
    """The points of X and O for the completed ``lines``, each ``(player, subscript,
    per_player_subscript)``; ``None`` when there is no line.

    ``subscript`` is the number the scoring compares under the game's numbering
    (``goff-points`` and ``narrow``); ``axiom`` always compares the per-player one.

    >>> line_points([(0, 9, 5), (0, 7, 4)], "goff-points")
    (Fraction(3, 2), Fraction(0, 1))
    >>> line_points([(0, 5, 3), (1, 6, 3)], "axiom")
    (Fraction(1, 2), Fraction(1, 2))
    """
    if not lines:
        return None
    players = {p for p, _, _ in lines}
    if scoring == "complete":
        return DRAW if len(players) == 2 else _win(players.pop())
    if scoring == "goff-points":
        first = min(s for _, s, _ in lines)
        points = [Fraction(0), Fraction(0)]
        for p, s, _ in lines:
            points[p] += 1 if s == first else HALF
        return tuple(points)
    index = 2 if scoring == "axiom" else 1
    best = [min((line[index] for line in lines if line[0] == p), default=None)
            for p in (0, 1)]
    if best[0] is None or (best[1] is not None and best[1] < best[0]):
        return _win(1)
    if best[1] is None or best[0] < best[1]:
        return _win(0)
    return DRAW


def _win(player: int) -> Returns:
    return (Fraction(1), Fraction(0)) if player == 0 else (Fraction(0), Fraction(1))


def swap(returns: Returns) -> Returns:
    """Misère: each player gets the other's points."""
    return (returns[1], returns[0])


# --- the game -----------------------------------------------------------------------
PRESETS: dict[str, dict[str, Any]] = {
    "goff": dict(numbering="goff", scoring="goff-points", deterministic_moves=False,
                 duplicate_pair=True, last_square_classical=True, misere=False),
    "axiom-qttt-1": dict(numbering="per-player", scoring="axiom", deterministic_moves=True,
                         duplicate_pair=True, last_square_classical=False, misere=False),
    "axiom-qttt-2": dict(numbering="per-player", scoring="axiom", deterministic_moves=False,
                         duplicate_pair=True, last_square_classical=False, misere=False),
    "axiom-losing-1": dict(numbering="per-player", scoring="axiom", deterministic_moves=True,
                           duplicate_pair=True, last_square_classical=False, misere=True),
    "axiom-losing-2": dict(numbering="per-player", scoring="axiom",
                           deterministic_moves=False, duplicate_pair=True,
                           last_square_classical=False, misere=True),
    "dagaz": dict(numbering="per-player", scoring="complete", deterministic_moves=False,
                  duplicate_pair=True, last_square_classical=False, misere=False),
}


def apply_preset(cls: type[Game], presets: dict[str, dict[str, Any]],
                 options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with the flags of their ``preset`` filled in under the explicit ones."""
    name = options.get("preset", "") or ""
    if name == "":
        return options
    if name not in presets:
        raise OptionError(f"{cls.name}: unknown preset {name!r}; presets: "
                          f"{', '.join(presets)}")
    return {**presets[name], **options}


@dataclass(frozen=True)
class Spooky:
    """What a move of quantum tic-tac-toe does; the :class:`Move`'s ``tag``.

    ``kind`` is ``"place"`` (marks in ``a`` and ``b``; ``a == b`` is a classical
    move) or ``"collapse"`` (the cycle-closing move ``number`` lands in ``a``).
    """

    kind: str
    number: int
    a: int
    b: int


@register
class QuantumTicTacToe(Game):
    """Goff's quantum tic-tac-toe and its Axiom and Dagaz variants."""

    name = "quantum-tic-tac-toe"
    description = "Goff's quantum tic-tac-toe: spooky marks, cycles, collapse; every variant"
    source = ("A. Goff, Am. J. Phys. 74(11) 962 (2006); Axiom/Zillions and Dagaz "
              "variants (V. Chelnokov)")
    player_names = ("X", "O")
    board_style = "lines"
    option_schema = (
        Option("preset", "", "a named rule set that sets the flags below; explicit "
               "options override it", choices=("",) + tuple(PRESETS)),
        Option("numbering", "goff", "move numbers: goff (X1, O2, X3...) or per-player "
               "(X1, O1, X2...)", choices=NUMBERINGS),
        Option("scoring", "goff-points", "how simultaneous lines score", choices=SCORINGS),
        Option("deterministic_moves", False, "allow both marks in one square (a classical "
               "mark)"),
        Option("duplicate_pair", True, "allow a move on the two squares of an unresolved "
               "move"),
        Option("last_square_classical", True, "a lone open square takes a classical "
               "ninth move"),
        Option("misere", False, "swap the points: making lines is bad"),
    )

    def __init__(self, **options: Any):
        super().__init__(**apply_preset(type(self), PRESETS, options))

    @property
    def board(self) -> Board:
        """The 3x3 board, squares named 1-9 from the top left."""
        return BOARD

    def max_length(self) -> int:
        """Nine moves, each possibly followed by a collapse."""
        return 18

    def initial_state(self) -> QuantumState:
        """The empty board, X to make move 1."""
        return QuantumState(self, [0] * SQUARES, {}, 0)

    # --- numbering ----------------------------------------------------------------
    def label(self, number: int) -> str:
        """The name of move ``number`` (1-9) in the game's numbering: ``X1``, ``O2``/``O1``."""
        player = (number - 1) % 2
        shown = number if self.options["numbering"] == "goff" else (number + 1) // 2
        return f"{PLAYER_LETTERS[player]}{shown}"

    def number_of(self, label: str) -> int:
        """The move number (1-9) of a label such as ``X3``; :class:`NotationError` if none."""
        m = re.fullmatch(r"([XOxo])(\d)", label)
        if not m:
            raise NotationError("a move label is X or O and a number, e.g. X1", where=label)
        player = PLAYER_LETTERS.index(m.group(1).upper())
        shown = int(m.group(2))
        if self.options["numbering"] == "goff":
            number = shown
            if shown < 1 or shown > 9 or (shown - 1) % 2 != player:
                raise NotationError(f"with goff numbering {PLAYER_LETTERS[player]}'s moves "
                                    f"are {'odd' if player == 0 else 'even'} numbers 1-9",
                                    where=label)
        else:
            number = 2 * shown - 1 + player
            if shown < 1 or number > 9:
                raise NotationError("with per-player numbering X has moves 1-5 and O 1-4",
                                    where=label)
        return number

    # --- positions ----------------------------------------------------------------
    def parse_state(self, text: str) -> QuantumState:
        """Read the text form: move tokens in order (``X1:2-5 O2:5``), ``-`` if none."""
        tokens = text.split()
        if tokens == ["-"]:
            tokens = []
        classical = [0] * SQUARES
        pairs: dict[int, tuple[int, int]] = {}
        for i, token in enumerate(tokens, start=1):
            m = re.fullmatch(r"([XOxo]\d):([1-9])(?:-([1-9]))?", token)
            if not m:
                raise NotationError("expected a classical move like X1:5 or an unresolved "
                                    "one like X1:2-5", where=f"token {i} {token!r}")
            number = self.number_of(m.group(1))
            if number != i:
                raise NotationError(f"moves must be listed in order; expected "
                                    f"{self.label(i)}", where=f"token {i} {token!r}")
            a = int(m.group(2)) - 1
            if m.group(3) is None:
                if classical[a]:
                    raise NotationError(f"square {a + 1} already holds "
                                        f"{self.label(classical[a])}", where=token)
                classical[a] = number
            else:
                b = int(m.group(3)) - 1
                if a == b:
                    raise NotationError("an unresolved move needs two squares", where=token)
                pairs[number] = (min(a, b), max(a, b))
        for number, (a, b) in pairs.items():
            if classical[a] or classical[b]:
                raise NotationError("an unresolved move cannot touch a classical square",
                                    where=self.label(number))
        state = QuantumState(self, classical, pairs, len(tokens))
        cycles = _redundant_pairs(pairs)
        if cycles > 1 or (cycles == 1 and not state.pending):
            raise NotationError("only the latest move may close a cycle, and only one",
                                where=text)
        return state

    def evaluate(self, state: Any, player: int) -> float | None:
        """Open lines weighted by their classical marks, for ``player``, in [-1, 1]."""
        assert isinstance(state, QuantumState)
        score = 0.0
        owners = [0 if n == 0 else 1 + (n - 1) % 2 for n in state.classical]
        for line in LINES:
            marks = {owners[s] for s in line} - {0}
            if len(marks) == 1:
                count = sum(1 for s in line if owners[s])
                weight = 1.0 if count == 1 else 3.0
                score += weight if marks == {player + 1} else -weight
        if self.options["misere"]:
            score = -score
        return max(-1.0, min(1.0, score / 12))


def _redundant_pairs(pairs: dict[int, tuple[int, int]]) -> int:
    """How many unresolved pairs close a cycle when added in turn (union-find)."""
    parent = list(range(SQUARES))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    redundant = 0
    for a, b in pairs.values():
        ra, rb = find(a), find(b)
        if ra == rb:
            redundant += 1
        parent[ra] = rb
    return redundant


ZOBRIST = zobrist_table(SQUARES * 10 + 10 * SQUARES * SQUARES + 1, "quantum-tic-tac-toe")
PAIR_BASE = SQUARES * 10
PENDING_KEY = PAIR_BASE + 10 * SQUARES * SQUARES
COLLAPSE_RE = re.compile(r"(?:→|->|>)\s*([1-9])")
PLACE_RE = re.compile(r"(?:([XOxo]\d)\s*:\s*)?([1-9])\s*-\s*([1-9])")


class EntangledState(IncrementalState):
    """What the quantum games' positions share: ``classical[c]`` (the token classical
    on cell ``c``, 0 if none), ``pairs`` (token -> its two cells, smaller first), a
    pending collapse, and a move counter whose parity is the player to move.

    Subclasses name their counter in :attr:`COUNTER` and call :meth:`_save` at the
    start of ``apply``; undo and clone come from here.
    """

    __slots__ = ()
    COUNTER: str = "made"
    classical: list[int]
    pairs: dict[int, tuple[int, int]]
    pending: Any
    _history: list[tuple[Any, ...]]

    def _save(self) -> None:
        """Remember the position for :meth:`undo` and unshare the mutable parts."""
        self._history.append((self.classical, self.pairs, getattr(self, self.COUNTER),
                              self.pending, self._result, self._key))
        self.classical = self.classical[:]
        self.pairs = dict(self.pairs)

    def _resolve(self, token: int, cell: int) -> None:
        """Make ``token`` classical in ``cell`` and collapse its whole component."""
        for t, c in collapse_from(self.pairs, token, cell):
            self.pairs.pop(t, None)
            self.classical[c] = t

    def undo(self) -> None:
        (self.classical, self.pairs, counter, self.pending, self._result,
         self._key) = self._history.pop()
        setattr(self, self.COUNTER, counter)
        self._to_move = counter % 2

    # Hooks naming a token's owner and label, and the token waiting to collapse.
    def _owner(self, token: int) -> int:
        raise NotImplementedError

    def _label(self, token: int) -> str:
        raise NotImplementedError

    def _pending_token(self) -> int | None:
        raise NotImplementedError

    def piece_at(self, cell: int) -> Piece | None:
        """The classical mark on board cell ``cell`` (its token's label as the kind)."""
        token = self.classical[cell_of(cell)]
        return Piece(self._owner(token), self._label(token)) if token else None

    def view(self) -> dict[str, Any]:
        """The position for a board UI: ``cells`` holds the classical marks (``owner``,
        ``kind`` = the token's label such as ``X3``), ``spooky`` every square's spooky
        marks in token order (``owner``, ``label``, ``number``, ``pending`` for the mark
        of a cycle waiting to collapse) and ``pending`` the token to collapse with its
        two squares, or ``None``. Squares are named as on the board (1-9).

        >>> state = QuantumTicTacToe().initial_state().play("1-2").play("1-2")
        >>> view = state.view()
        >>> view["pending"], [m["label"] for m in view["spooky"]["1"]]
        ({'number': 2, 'label': 'O2', 'squares': ['1', '2']}, ['X1', 'O2'])
        >>> view = state.play(">1").view()
        >>> view["cells"]["1"], view["cells"]["2"], view["pending"]
        ({'owner': 1, 'kind': 'O2'}, {'owner': 0, 'kind': 'X1'}, None)
        """
        waiting = self._pending_token()
        cells = {str(s + 1): {"owner": self._owner(t), "kind": self._label(t)}
                 for s, t in enumerate(self.classical) if t}
        spooky: dict[str, list[dict[str, Any]]] = {str(s + 1): [] for s in range(SQUARES)}
        for t, (a, b) in sorted(self.pairs.items()):
            mark = {"owner": self._owner(t), "label": self._label(t), "number": t,
                    "pending": t == waiting}
            spooky[str(a + 1)].append(mark)
            spooky[str(b + 1)].append(dict(mark))
        pending = None
        if waiting is not None:
            a, b = self.pairs[waiting]
            pending = {"number": waiting, "label": self._label(waiting),
                       "squares": [str(a + 1), str(b + 1)]}
        return {"cells": cells, "spooky": spooky, "pending": pending}

    def clone(self) -> EntangledState:
        new = type(self).__new__(type(self))
        for cls in type(self).__mro__:
            for slot in getattr(cls, "__slots__", ()):
                if hasattr(self, slot):
                    setattr(new, slot, getattr(self, slot))
        new.classical = self.classical[:]
        new.pairs = dict(self.pairs)
        new._history = []
        return new


class QuantumState(EntangledState):
    """A quantum tic-tac-toe position.

    ``classical[s]`` is the number of the move whose mark is classical in square
    ``s`` (0 = open); ``pairs`` maps each unresolved move number to its two squares
    (smaller first); ``made`` counts the moves made. When the latest move closed a
    cycle, ``pending`` is true and the player to move must collapse it. The player
    to move is always ``made % 2``: after X's cycle-closing move, O both collapses
    and makes the next move.
    """

    __slots__ = ("game", "classical", "pairs", "made", "pending", "_to_move", "_result",
                 "_key", "_history")

    def __init__(self, game: QuantumTicTacToe, classical: list[int],
                 pairs: dict[int, tuple[int, int]], made: int):
        self.game = game
        self.classical = classical
        self.pairs = pairs
        self.made = made
        self._history: list[tuple[list[int], dict[int, tuple[int, int]], int, bool,
                                  Returns | None, int]] = []
        self._refresh()

    # --- derived facts --------------------------------------------------------------
    def _refresh(self) -> None:
        latest = self.pairs.get(self.made)
        self.pending = latest is not None and connected(self.pairs, *latest, skip=self.made)
        self._to_move = self.made % 2
        key = ZOBRIST[PENDING_KEY] if self.pending else 0
        for s, n in enumerate(self.classical):
            if n:
                key ^= ZOBRIST[s * 10 + n]
        for n, (a, b) in self.pairs.items():
            key ^= ZOBRIST[PAIR_BASE + n * 81 + a * 9 + b]
        self._key = key
        self._result = self._compute_result()

    def lines(self) -> list[tuple[int, int, int]]:
        """The completed lines: ``(player, subscript, per-player subscript)``, where the
        subscript is the line's largest move number in the game's numbering."""
        goff = self.game.options["numbering"] == "goff"
        found = []
        for line in LINES:
            numbers = [self.classical[s] for s in line]
            if 0 in numbers:
                continue
            owners = {(n - 1) % 2 for n in numbers}
            if len(owners) == 1:
                top = max(numbers)
                per_player = (top + 1) // 2
                found.append((owners.pop(), top if goff else per_player, per_player))
        return found

    def _compute_result(self) -> Returns | None:
        points = line_points(self.lines(), self.game.options["scoring"])
        if points is None:
            if self.pending or self._placements():
                return None
            # A full board, or a player with no legal move: no line, so a draw.
            points = DRAW
        return swap(points) if self.game.options["misere"] else points

    def open_squares(self) -> list[int]:
        """The squares without a classical mark, in order."""
        return [s for s in range(SQUARES) if not self.classical[s]]

    def _placements(self) -> list[tuple[int, int]]:
        """The legal ``(a, b)`` placements of the next move (no collapse pending)."""
        if self.made >= 9:
            return []
        options = self.game.options
        free = self.open_squares()
        if len(free) == 1:
            ok = options["last_square_classical"] or options["deterministic_moves"]
            return [(free[0], free[0])] if ok else []
        taken = set(self.pairs.values()) if not options["duplicate_pair"] else set()
        out = []
        for i, a in enumerate(free):
            if options["deterministic_moves"]:
                out.append((a, a))
            for b in free[i + 1:]:
                if (a, b) not in taken:
                    out.append((a, b))
        return out

    # --- moves ------------------------------------------------------------------------
    def _place_move(self, a: int, b: int) -> Move:
        number = self.made + 1
        label = self.game.label(number)
        piece = Piece(self._to_move, label)
        actions = (Place(cell_of(a), piece),) if a == b else (
            Place(cell_of(a), piece), Place(cell_of(b), piece))
        return Move(f"{label}:{a + 1}-{b + 1}", actions, Spooky("place", number, a, b))

    def _collapse_move(self, square: int) -> Move:
        number = self.made
        landing = collapse_from(self.pairs, number, square)
        actions = tuple(Change(cell_of(s), Piece((n - 1) % 2, self.game.label(n)))
                        for n, s in landing)
        return Move(f"→{square + 1}", actions, Spooky("collapse", number, square, square))

    def legal_moves(self) -> list[Move]:
        if self._result is not None:
            return []
        if self.pending:
            a, b = self.pairs[self.made]
            return [self._collapse_move(a), self._collapse_move(b)]
        return [self._place_move(a, b) for a, b in self._placements()]

    def apply(self, move: Move) -> None:
        spooky: Spooky = move.tag  # type: ignore[assignment]
        self._save()
        if spooky.kind == "collapse":
            self._resolve(spooky.number, spooky.a)
        elif spooky.a == spooky.b:
            self.made += 1
            self._resolve(self.made, spooky.a)
        else:
            self.made += 1
            self.pairs[self.made] = (spooky.a, spooky.b)
        self._refresh()

    def signature(self) -> tuple[tuple[int, ...], tuple[tuple[int, int, int], ...], int]:
        return (tuple(self.classical), tuple(sorted((n, a, b) for n, (a, b)
                                                    in self.pairs.items())), self.made)

    # --- notation -------------------------------------------------------------------
    def tokens(self) -> Iterator[str]:
        """The text form's tokens: every move made, classical or unresolved."""
        where = {n: str(s + 1) for s, n in enumerate(self.classical) if n}
        for n, (a, b) in self.pairs.items():
            where[n] = f"{a + 1}-{b + 1}"
        for n in range(1, self.made + 1):
            yield f"{self.game.label(n)}:{where[n]}"

    def __str__(self) -> str:
        return " ".join(self.tokens()) or "-"

    def parse_move(self, text: str) -> Move:
        """The legal move written ``text``: ``X1:1-2`` or ``1-2`` (either order),
        ``2-2`` for a classical move, ``→1``/``>1`` for a collapse."""
        wanted = " ".join(text.split())
        if self._result is not None:
            self.check_notation(wanted)
            raise IllegalMoveError(wanted, "the game is over")
        collapse = COLLAPSE_RE.fullmatch(wanted)
        if collapse:
            square = int(collapse.group(1)) - 1
            if not self.pending:
                raise IllegalMoveError(wanted, "no cycle to collapse; place two marks, "
                                               "e.g. 1-2")
            if square not in self.pairs[self.made]:
                a, b = self.pairs[self.made]
                raise IllegalMoveError(wanted, f"{self.game.label(self.made)} can only "
                                               f"land on {a + 1} or {b + 1}")
            return self._collapse_move(square)
        place = PLACE_RE.fullmatch(wanted)
        if not place:
            self.check_notation(wanted)
        assert place is not None
        if self.pending:
            a, b = self.pairs[self.made]
            raise IllegalMoveError(wanted, f"first collapse the cycle: {self.game.label(self.made)}"
                                           f" lands on {a + 1} or {b + 1} (→{a + 1} or →{b + 1})")
        if place.group(1):
            number = self.game.number_of(place.group(1).upper())
            if number != self.made + 1:
                raise IllegalMoveError(wanted, f"the next move is {self.game.label(self.made + 1)}")
        a, b = sorted((int(place.group(2)) - 1, int(place.group(3)) - 1))
        if (a, b) in self._placements():
            return self._place_move(a, b)
        raise IllegalMoveError(wanted, self._why_not(a, b))

    def _why_not(self, a: int, b: int) -> str:
        for s in (a, b):
            if self.classical[s]:
                return f"square {s + 1} holds the classical {self.game.label(self.classical[s])}"
        if a == b:
            if len(self.open_squares()) == 1:
                return "a classical last move is off (last_square_classical)"
            return "both marks in one square is off (deterministic_moves)"
        if len(self.open_squares()) == 1:
            return "only one square is open"
        return (f"an unresolved move already joins {a + 1} and {b + 1} "
                f"(duplicate_pair is off)")

    def check_notation(self, text: str) -> None:
        if not (COLLAPSE_RE.fullmatch(text) or PLACE_RE.fullmatch(text)):
            raise NotationError("a move is two squares 1-9 such as X1:1-5 or 1-5, or a "
                                "collapse such as →5 (or >5)", where=repr(text))

    def _owner(self, token: int) -> int:
        return (token - 1) % 2

    def _label(self, token: int) -> str:
        return self.game.label(token)

    def _pending_token(self) -> int | None:
        return self.made if self.pending else None

    def render(self) -> str:
        """The board with classical marks (``[X3]``), spooky marks with subscripts
        (``x₁ o₂``) and, below, a pending collapse or the next move."""
        text = render_board(self.game, self.classical, self.pairs, self.made, self.pending,
                            over=self._result is not None)
        if self._result is None:
            return text
        lines = self.lines()
        shown = ", ".join(f"{PLAYER_LETTERS[p]} line (subscript {n})" for p, n, _ in lines)
        points = ", ".join(f"{PLAYER_LETTERS[p]} {r}" for p, r in enumerate(self._result))
        return f"{text}\ngame over: {shown or 'no line'}; points {points}"


SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
CELL_WIDTH = 13


def render_board(game: QuantumTicTacToe, classical: Sequence[int],
                 pairs: dict[int, tuple[int, int]], made: int, pending: bool,
                 over: bool = False) -> str:
    """A three-line-per-square drawing of a quantum tic-tac-toe position."""
    marks: list[list[str]] = [[] for _ in range(SQUARES)]
    for n, (a, b) in sorted(pairs.items()):
        label = game.label(n)
        spooky = label[0].lower() + label[1:].translate(SUBSCRIPTS)
        if pending and n == made:
            spooky += "*"
        marks[a].append(spooky)
        marks[b].append(spooky)
    rule = "+" + "+".join("-" * CELL_WIDTH for _ in range(3)) + "+"
    out = [rule]
    for row in range(3):
        rows = [[], [], []]
        for s in range(row * 3, row * 3 + 3):
            if classical[s]:
                body = [f"[{game.label(classical[s])}]".center(CELL_WIDTH - 4), "", ""]
            else:
                chunks = [" ".join(marks[s][i:i + 4]) for i in range(0, 8, 4)]
                body = ["", *chunks]
            head = f"{s + 1}"
            rows[0].append(f" {head:<2}{body[0]:<{CELL_WIDTH - 3}}")
            rows[1].append(f" {body[1]:<{CELL_WIDTH - 1}}")
            rows[2].append(f" {body[2]:<{CELL_WIDTH - 1}}")
        out.extend("|" + "|".join(cells) + "|" for cells in rows)
        out.append(rule)
    if over:
        pass
    elif pending and made in pairs:
        a, b = pairs[made]
        chooser = PLAYER_LETTERS[made % 2]
        out.append(f"cycle closed by {game.label(made)}*: {chooser} collapses it, "
                   f"→{a + 1} or →{b + 1} (type >{a + 1} or >{b + 1})")
    elif made < 9 and sum(1 for n in classical if not n) == 1:
        lone = classical.index(0) + 1
        out.append(f"next: {game.label(made + 1)} puts both marks in square {lone} "
                   f"({lone}-{lone})")
    elif made < 9:
        out.append(f"next: {game.label(made + 1)} places two spooky marks, e.g. 1-5")
    return "\n".join(out)

