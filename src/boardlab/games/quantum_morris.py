"""Quantum Morris: three men's morris with quantum pieces, after Dagaz and Axiom.

Source: Valentin Chelnokov's Dagaz JavaScript ``quantum-morris`` (2019,
``GlukKazan/Dagaz:src/debug/games/arrange/quantum-morris.js`` and ``qmorris-*.js``)
and his Axiom/Zillions "TMM 1-6" variants (2016, ``GlukKazan/ZoG:Rules/QXO.zrf``,
``Axiom/QXO/*.4th``), as the rules below pin them down. The
entanglement graph and its collapse are those of Goff's quantum tic-tac-toe
(:mod:`boardlab.games.quantum`).

Rules (Dagaz's, the defaults)
-----------------------------
The board is the 3x3 grid of points 1-9, numbered row by row from the top left. A
piece may step between orthogonal neighbours; with the option ``diagonals`` also
along the two long diagonals, corner to centre (1-5, 3-5, 7-5, 9-5), never edge to
edge. X and O have three pieces each, X1-X3 and O1-O3; X moves first.

* **Placement.** The sides alternate, each placing its next-numbered piece as two
  *halves* in two different non-classical points: ``X1:1-2``. With the option
  ``deterministic_drop`` both halves may go into one point (``X1:5-5``): the piece
  is at once classical there and every half already in that point is pushed to its
  twin's point, which may push further halves in turn (a chain).
* **Movement** starts after the 3+3 placements. A move is one of:

  - a *step*: one of your halves goes to an adjacent non-classical point that does
    not hold its twin (``X1:2>5``, ASCII ``>`` or ``→``);
  - a *split*: one of your classical pieces keeps a half where it is and sends the
    other to an adjacent non-classical point (``X1:5+6``);
  - a *merge*, only with the option ``merge``: a half steps into its twin's
    adjacent point (``X1:2>5`` again); the piece becomes classical there and the
    point's other halves are pushed out, in a chain as above.

  Classical pieces never move whole, and nothing enters a classical point.
* **Cycles.** Points are the nodes and pieces in superposition the edges of a
  graph. A placement or step that closes a cycle in it (two pieces on the same two
  points count) makes the *other* player collapse it, as a move of its own:
  ``→5`` (ASCII ``>5``) says the cycle-closing piece becomes classical in point 5;
  the rest of its connected component follows (every piece with a half in a newly
  classical point goes to its twin's point). The chooser then moves normally. A
  collapse is never automatic. A split cannot close a cycle: the half it keeps is
  alone in a point that was classical.
* **Win.** Three classical pieces of one side on one of the 8 lines (rows, columns
  and both diagonals -- the diagonal lines count with or without the ``diagonals``
  option) win; lines are looked for after every move and every collapse.

Decisions
---------
* **Simultaneous lines** (a collapse may complete lines for both sides), option
  ``scoring``: ``complete`` (Dagaz JS ``qxo-goal.js``): a draw; ``axiom`` (Axiom):
  the side whose best line has the smaller largest piece number wins, equal numbers
  draw. Each side has only three pieces, so every line holds pieces 1, 2 and 3 and
  the two scorings always agree; both are kept to follow the sources.
* **No legal move** (every half and classical piece of the side to move hemmed in
  by classical points): a draw, Axiom's ``stalemate?`` rule.
* **Move limit** (boardlab's addition; Dagaz has none, so a game could go on for
  ever): after ``max_moves`` moves (placements, steps, splits and merges; collapses
  are not counted) the game is a draw, unless the last move closed a cycle: its
  collapse is still played and may still make a line. A game therefore has at most
  ``2 * max_moves`` moves in all. There is no repetition rule: it would make the
  outcome depend on history that the text form does not carry.

Options and presets
-------------------
``scoring`` (``complete`` or ``axiom``), ``merge``, ``diagonals``,
``deterministic_drop``, ``max_moves`` (default 200, at least 10). ``preset`` sets the
flags of a named rule set; explicit options override it:

=============  ==================  =====  =========  =======
preset         deterministic_drop  merge  diagonals  scoring
=============  ==================  =====  =========  =======
dagaz          no                  no     no         complete  (the defaults)
axiom-tmm-1    yes                 yes    no         axiom
axiom-tmm-2    no                  yes    no         axiom
axiom-tmm-3    no                  no     no         axiom
axiom-tmm-4    yes                 yes    yes        axiom
axiom-tmm-5    no                  yes    yes        axiom
axiom-tmm-6    no                  no     yes        axiom
=============  ==================  =====  =========  =======

Notation
--------
Pieces are labelled X1-X3 and O1-O3, points 1-9. Placement ``X1:1-2`` (also
``1-2``; ``X1:5-5`` for a deterministic drop); step or merge ``X1:2>5`` (also
``X1:2→5``, or ``2>5`` when only one of your halves is in 2); split ``X1:5+6`` (also
``5+6``); collapse ``→5`` (also ``>5``).

Text form: the placed pieces in placement order, each classical (``X1:5``) or in
superposition (``X1:2-5``), ``-`` when there are none; then, separated by ``|``, the
side to move, ``collapse X2`` when the side to move must first collapse the cycle
that X2 closed, and ``moves N``, the moves made so far without the collapses::

    X1:1-2 O1:5 X2:2-3 | O | collapse X2 | moves 3
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from boardlab.core.board import Board
from boardlab.core.game import DRAW, Game, Option, Returns, zobrist_table
from boardlab.core.move import Change, Move, Piece, Place, Shift
from boardlab.core.registry import register
from boardlab.errors import IllegalMoveError, NotationError
from boardlab.games.quantum import (
    BOARD,
    COLLAPSE_RE,
    LINES,
    PLAYER_LETTERS,
    SUBSCRIPTS,
    EntangledState,
    apply_preset,
    cell_of,
    collapse_from,
    connected,
    line_points,
)

POINTS = 9
PIECES = 3  # per side
PLACEMENTS = 2 * PIECES
SCORINGS = ("complete", "axiom")


# --- pieces: tokens 1-3 are X1-X3, 4-6 are O1-O3 -------------------------------------
def token_of(player: int, number: int) -> int:
    """The token of ``player``'s piece ``number`` (1-3)."""
    return player * PIECES + number


def owner(token: int) -> int:
    """The player (0 = X, 1 = O) owning ``token``."""
    return (token - 1) // PIECES


def number(token: int) -> int:
    """The piece number (1-3) of ``token``."""
    return (token - 1) % PIECES + 1


def label(token: int) -> str:
    """The piece's name: ``X1`` .. ``O3``.

    >>> [label(t) for t in (1, 3, 4, 6)]
    ['X1', 'X3', 'O1', 'O3']
    """
    return f"{PLAYER_LETTERS[owner(token)]}{number(token)}"


def read_label(text: str) -> int:
    """The token of a piece label such as ``X2`` (either case); :class:`NotationError`
    if it is not one."""
    m = re.fullmatch(r"([XOxo])(\d+)", text)
    if not m:
        raise NotationError("a piece is X or O and a number 1-3, e.g. X1", where=text)
    if not 1 <= int(m.group(2)) <= PIECES:
        raise NotationError("pieces are numbered 1-3 (X1-X3, O1-O3)", where=text)
    return token_of(PLAYER_LETTERS.index(m.group(1).upper()), int(m.group(2)))


PLACEMENT_ORDER = tuple(token_of(i % 2, i // 2 + 1) for i in range(PLACEMENTS))


# --- the points -----------------------------------------------------------------------
def _orthogonal(point: int) -> list[int]:
    row, column = divmod(point, 3)
    out = []
    for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        if 0 <= row + dr < 3 and 0 <= column + dc < 3:
            out.append((row + dr) * 3 + column + dc)
    return out


CENTRE = 4
CORNERS = (0, 2, 6, 8)


def adjacency(diagonals: bool) -> tuple[tuple[int, ...], ...]:
    """Each point's neighbours (0-based, in order): orthogonal, plus corner-centre
    with ``diagonals``.

    >>> [p + 1 for p in adjacency(True)[0]], [p + 1 for p in adjacency(False)[4]]
    ([2, 4, 5], [2, 4, 6, 8])
    """
    out = []
    for point in range(POINTS):
        near = set(_orthogonal(point))
        if diagonals and point in CORNERS:
            near.add(CENTRE)
        if diagonals and point == CENTRE:
            near.update(CORNERS)
        out.append(tuple(sorted(near)))
    return tuple(out)


PRESETS: dict[str, dict[str, Any]] = {
    "dagaz": dict(scoring="complete", deterministic_drop=False, merge=False,
                  diagonals=False),
    "axiom-tmm-1": dict(scoring="axiom", deterministic_drop=True, merge=True,
                        diagonals=False),
    "axiom-tmm-2": dict(scoring="axiom", deterministic_drop=False, merge=True,
                        diagonals=False),
    "axiom-tmm-3": dict(scoring="axiom", deterministic_drop=False, merge=False,
                        diagonals=False),
    "axiom-tmm-4": dict(scoring="axiom", deterministic_drop=True, merge=True,
                        diagonals=True),
    "axiom-tmm-5": dict(scoring="axiom", deterministic_drop=False, merge=True,
                        diagonals=True),
    "axiom-tmm-6": dict(scoring="axiom", deterministic_drop=False, merge=False,
                        diagonals=True),
}


@dataclass(frozen=True)
class Motion:
    """What a move of quantum Morris does; the :class:`Move`'s ``tag``.

    ``kind`` is ``"place"`` (halves of ``token`` in ``source`` and ``target``; equal
    for a deterministic drop), ``"step"`` or ``"merge"`` (the half in ``source`` goes
    to ``target``), ``"split"`` (the classical ``token`` in ``source`` sends a half to
    ``target``) or ``"collapse"`` (the cycle-closing ``token`` lands in ``source`` =
    ``target``).
    """

    kind: str
    token: int
    source: int
    target: int


@register
class QuantumMorris(Game):
    """Quantum three men's morris (Dagaz JS rules by default; Axiom's TMM 1-6 as presets)."""

    name = "quantum-morris"
    description = ("Quantum three men's morris: pieces in two places at once, cycles, "
                   "collapse (Dagaz, Axiom)")
    source = ("V. Chelnokov, Dagaz quantum-morris (2019) and Axiom/Zillions QXO TMM 1-6 "
              "(2016); collapse after A. Goff, Am. J. Phys. 74(11) 962 (2006)")
    player_names = ("X", "O")
    board_style = "intersections"
    option_schema = (
        Option("preset", "", "a named rule set that sets the flags below; explicit "
               "options override it", choices=("",) + tuple(PRESETS)),
        Option("scoring", "complete", "simultaneous lines: complete (a draw) or axiom "
               "(smaller largest piece number wins)", choices=SCORINGS),
        Option("merge", False, "a half may step into its twin's point (the piece "
               "becomes classical)"),
        Option("diagonals", False, "steps also along the long diagonals, corner to centre"),
        Option("deterministic_drop", False, "a placement may put both halves in one "
               "point (classical at once)"),
        Option("max_moves", 200, "moves (collapses not counted) after which the game is "
               "a draw; boardlab's addition", minimum=10, maximum=100_000),
    )

    def __init__(self, **options: Any):
        super().__init__(**apply_preset(type(self), PRESETS, options))
        self.adjacency = adjacency(self.options["diagonals"])

    @property
    def board(self) -> Board:
        """The 3x3 board, points named 1-9 from the top left."""
        return BOARD

    def max_length(self) -> int:
        """The move limit, each move possibly followed by a collapse."""
        return 2 * self.options["max_moves"]

    def initial_state(self) -> QuantumMorrisState:
        """The empty board, X to place X1."""
        return QuantumMorrisState(self, [0] * POINTS, {}, 0, 0)

    def parse_state(self, text: str) -> QuantumMorrisState:
        """Read the text form, e.g. ``X1:1-2 O1:5 | X | moves 2``."""
        parts = [p.strip() for p in text.split("|")]
        if len(parts) not in (3, 4):
            raise NotationError("a position is 'pieces | side | [collapse X2 |] moves N', "
                                "e.g. 'X1:1-2 O1:5 | X | moves 2'", where=repr(text))
        pieces_text, side_text, *pending_text, moves_text = parts
        m = re.fullmatch(r"moves\s+(\d+)", moves_text)
        if not m:
            raise NotationError("the last part is 'moves N'", where=repr(moves_text))
        moves = int(m.group(1))
        if moves > self.options["max_moves"]:
            raise NotationError(f"more moves than max_moves={self.options['max_moves']}",
                                where=repr(moves_text))
        if side_text.upper() not in ("X", "O"):
            raise NotationError("the side to move is X or O", where=repr(side_text))
        if PLAYER_LETTERS.index(side_text.upper()) != moves % 2:
            raise NotationError(f"after {moves} moves {PLAYER_LETTERS[moves % 2]} is to "
                                f"move", where=repr(side_text))
        classical = [0] * POINTS
        pairs: dict[int, tuple[int, int]] = {}
        seen: set[int] = set()
        tokens = pieces_text.split()
        for token_text in [] if tokens == ["-"] else tokens:
            t = re.fullmatch(r"([^:]+):([1-9])(?:-([1-9]))?", token_text)
            if not t:
                raise NotationError("expected a classical piece like X1:5 or one in "
                                    "superposition like X1:2-5", where=repr(token_text))
            token = read_label(t.group(1))
            if token in seen:
                raise NotationError(f"{label(token)} is listed twice", where=token_text)
            seen.add(token)
            a = int(t.group(2)) - 1
            if t.group(3) is None:
                if classical[a]:
                    raise NotationError(f"point {a + 1} already holds {label(classical[a])}",
                                        where=token_text)
                classical[a] = token
            else:
                b = int(t.group(3)) - 1
                if a == b:
                    raise NotationError("a piece in superposition needs two different "
                                        "points", where=token_text)
                pairs[token] = (min(a, b), max(a, b))
        for token, (a, b) in pairs.items():
            for p in (a, b):
                if classical[p]:
                    raise NotationError(f"point {p + 1} holds the classical "
                                        f"{label(classical[p])}; no half can be there",
                                        where=label(token))
        placed = set(PLACEMENT_ORDER[:min(moves, PLACEMENTS)])
        if seen != placed:
            expected = " ".join(label(t) for t in PLACEMENT_ORDER if t in placed) or "none"
            raise NotationError(f"after {moves} moves the pieces placed are {expected}",
                                where=repr(pieces_text))
        pending = 0
        if pending_text:
            c = re.fullmatch(r"collapse\s+(\S+)", pending_text[0])
            if not c:
                raise NotationError("expected 'collapse X2' (the cycle-closing piece)",
                                    where=repr(pending_text[0]))
            pending = read_label(c.group(1))
            if owner(pending) == moves % 2:
                raise NotationError(f"the side to move collapses the other side's cycle, "
                                    f"not its own {label(pending)}", where=pending_text[0])
            if pending not in pairs or not connected(pairs, *pairs[pending], skip=pending):
                raise NotationError(f"{label(pending)} closes no cycle",
                                    where=pending_text[0])
        if _closes_cycles(pairs, skip=pending):
            raise NotationError("the pieces in superposition form a cycle that no "
                                "'collapse' part names", where=repr(pieces_text))
        state = QuantumMorrisState(self, classical, pairs, moves, pending)
        if pending and state.lines():
            raise NotationError("a finished game has no collapse to play", where=text)
        return state

    def evaluate(self, state: Any, player: int) -> float | None:
        """Lines open to ``player`` weighted by their classical pieces (and, a little,
        by halves), minus the opponent's, in [-1, 1]."""
        assert isinstance(state, QuantumMorrisState)
        halves = [[0, 0] for _ in range(POINTS)]
        for token, (a, b) in state.pairs.items():
            halves[a][owner(token)] += 1
            halves[b][owner(token)] += 1
        score = 0.0
        for line in LINES:
            owners = {owner(state.classical[p]) for p in line if state.classical[p]}
            if len(owners) == 2:
                continue
            for side in (0, 1):
                if owners and side not in owners:
                    continue
                count = sum(1 for p in line if state.classical[p])
                spooky = sum(min(1, halves[p][side]) for p in line if not state.classical[p])
                value = (0.0, 1.0, 3.0, 9.0)[count] + 0.25 * spooky
                score += value if side == player else -value
        return max(-1.0, min(1.0, score / 12))


def _closes_cycles(pairs: dict[int, tuple[int, int]], skip: int = 0) -> bool:
    """Whether the pairs other than ``skip`` contain a cycle (union-find)."""
    parent = list(range(POINTS))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for token, (a, b) in pairs.items():
        if token == skip:
            continue
        ra, rb = find(a), find(b)
        if ra == rb:
            return True
        parent[ra] = rb
    return False


ZOBRIST = zobrist_table(POINTS * 7 + 7 * POINTS * POINTS + 7 + 1, "quantum-morris")
PAIR_BASE = POINTS * 7
PENDING_BASE = PAIR_BASE + 7 * POINTS * POINTS
MASK = (1 << 64) - 1
ARROW = r"(?:→|->|>)"
PLACE_RE = re.compile(r"(?:(\w+)\s*:\s*)?([1-9])\s*-\s*([1-9])")
STEP_RE = re.compile(rf"(?:(\w+)\s*:\s*)?([1-9])\s*{ARROW}\s*([1-9])")
SPLIT_RE = re.compile(r"(?:(\w+)\s*:\s*)?([1-9])\s*\+\s*([1-9])")


def _moves_key(moves: int) -> int:
    """A 64-bit mix of the move counter (splitmix64)."""
    z = (moves * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


class QuantumMorrisState(EntangledState):
    """A quantum Morris position.

    ``classical[p]`` is the token of the classical piece in point ``p`` (0 = none);
    ``pairs`` maps each piece in superposition to its two points (smaller first);
    ``moves`` counts the moves made, collapses not included, so the side to move is
    ``moves % 2``; ``pending`` is the token of the piece that closed a cycle the side
    to move must collapse first (0 = none).
    """

    __slots__ = ("game", "classical", "pairs", "moves", "pending", "_to_move", "_result",
                 "_key", "_history")
    COUNTER = "moves"

    def __init__(self, game: QuantumMorris, classical: list[int],
                 pairs: dict[int, tuple[int, int]], moves: int, pending: int):
        self.game = game
        self.classical = classical
        self.pairs = pairs
        self.moves = moves
        self.pending = pending
        self._history: list[tuple[list[int], dict[int, tuple[int, int]], int, int,
                                  Returns | None, int]] = []
        self._refresh()

    # --- derived facts --------------------------------------------------------------
    def _refresh(self) -> None:
        self._to_move = self.moves % 2
        key = _moves_key(self.moves) ^ ZOBRIST[PENDING_BASE + self.pending]
        for p, token in enumerate(self.classical):
            if token:
                key ^= ZOBRIST[p * 7 + token]
        for token, (a, b) in self.pairs.items():
            key ^= ZOBRIST[PAIR_BASE + token * 81 + a * 9 + b]
        self._key = key
        self._result = self._compute_result()

    @property
    def placing(self) -> bool:
        """Whether the placement phase is on (fewer than 3+3 pieces placed)."""
        return self.moves < PLACEMENTS

    def lines(self) -> list[tuple[int, int, int]]:
        """The completed lines: ``(player, top, top)``, ``top`` the line's largest piece
        number (the shape :func:`~boardlab.games.quantum.line_points` reads)."""
        found = []
        for line in LINES:
            tokens = [self.classical[p] for p in line]
            if 0 in tokens:
                continue
            owners = {owner(t) for t in tokens}
            if len(owners) == 1:
                top = max(number(t) for t in tokens)
                found.append((owners.pop(), top, top))
        return found

    def _compute_result(self) -> Returns | None:
        points = line_points(self.lines(), self.game.options["scoring"])
        if points is not None:
            return points
        if self.pending:
            return None
        if self.moves >= self.game.options["max_moves"] or not self._motions():
            return DRAW
        return None

    def point_of(self, token: int) -> int:
        """The point of the classical ``token`` (-1 if it is not classical)."""
        try:
            return self.classical.index(token)
        except ValueError:
            return -1

    def _motions(self) -> list[Motion]:
        """The legal motions of the side to move, collapses aside, in the legal order."""
        classical = self.classical
        if self.placing:
            token = token_of(self._to_move, self.moves // 2 + 1)
            free = [p for p in range(POINTS) if not classical[p]]
            drop = self.game.options["deterministic_drop"]
            out = []
            for i, a in enumerate(free):
                if drop:
                    out.append(Motion("place", token, a, a))
                out.extend(Motion("place", token, a, b) for b in free[i + 1:])
            return out
        near = self.game.adjacency
        merge = self.game.options["merge"]
        out = []
        for n in range(1, PIECES + 1):
            token = token_of(self._to_move, n)
            pair = self.pairs.get(token)
            if pair is None:
                here = classical.index(token)
                out.extend(Motion("split", token, here, there) for there in near[here]
                           if not classical[there])
                continue
            for here, twin in (pair, pair[::-1]):
                for there in near[here]:
                    if classical[there]:
                        continue
                    if there != twin:
                        out.append(Motion("step", token, here, there))
                    elif merge:
                        out.append(Motion("merge", token, here, there))
        return out

    # --- moves ------------------------------------------------------------------------
    def _changes(self, token: int, point: int) -> tuple[Change, ...]:
        return tuple(Change(cell_of(p), Piece(owner(t), label(t)))
                     for t, p in collapse_from(self.pairs, token, point))

    def _move(self, motion: Motion) -> Move:
        kind, token, a, b = motion.kind, motion.token, motion.source, motion.target
        name = label(token)
        piece = Piece(owner(token), name)
        if kind == "collapse":
            return Move(f"→{a + 1}", self._changes(token, a), motion)
        if kind == "place":
            if a == b:
                actions: tuple = (Place(cell_of(a), piece), *self._changes(token, a)[1:])
            else:
                actions = (Place(cell_of(a), piece), Place(cell_of(b), piece))
            return Move(f"{name}:{a + 1}-{b + 1}", actions, motion)
        if kind == "split":
            return Move(f"{name}:{a + 1}+{b + 1}", (Place(cell_of(b), piece),), motion)
        actions = (Shift(cell_of(a), cell_of(b)),)
        if kind == "merge":
            actions += self._changes(token, b)
        return Move(f"{name}:{a + 1}>{b + 1}", actions, motion)

    def _owner(self, token: int) -> int:
        return owner(token)

    def _label(self, token: int) -> str:
        return label(token)

    def _pending_token(self) -> int | None:
        return self.pending or None

    def legal_moves(self) -> list[Move]:
        if self._result is not None:
            return []
        if self.pending:
            a, b = self.pairs[self.pending]
            return [self._move(Motion("collapse", self.pending, p, p)) for p in (a, b)]
        return [self._move(m) for m in self._motions()]

    def apply(self, move: Move) -> None:
        motion: Motion = move.tag  # type: ignore[assignment]
        self._save()
        kind, token, a, b = motion.kind, motion.token, motion.source, motion.target
        self.pending = 0
        if kind == "collapse":
            self._resolve(token, a)
        else:
            self.moves += 1
            if kind == "merge" or (kind == "place" and a == b):
                self._resolve(token, b)
            else:
                if kind == "step":
                    x, y = self.pairs[token]
                    a = y if x == a else x  # the half that stays
                elif kind == "split":
                    self.classical[a] = 0
                self.pairs[token] = (min(a, b), max(a, b))
                if connected(self.pairs, a, b, skip=token):
                    self.pending = token
        self._refresh()

    def signature(self) -> tuple[tuple[int, ...], tuple[tuple[int, int, int], ...], int, int]:
        return (tuple(self.classical),
                tuple(sorted((t, a, b) for t, (a, b) in self.pairs.items())),
                self.moves, self.pending)

    # --- notation -------------------------------------------------------------------
    def tokens(self) -> Iterator[str]:
        """The pieces of the text form in placement order: ``X1:5`` or ``X1:2-5``."""
        for token in PLACEMENT_ORDER:
            if token in self.pairs:
                a, b = self.pairs[token]
                yield f"{label(token)}:{a + 1}-{b + 1}"
            elif token in self.classical:
                yield f"{label(token)}:{self.classical.index(token) + 1}"

    def __str__(self) -> str:
        parts = [" ".join(self.tokens()) or "-", PLAYER_LETTERS[self._to_move]]
        if self.pending:
            parts.append(f"collapse {label(self.pending)}")
        parts.append(f"moves {self.moves}")
        return " | ".join(parts)

    def check_notation(self, text: str) -> None:
        if not (COLLAPSE_RE.fullmatch(text) or PLACE_RE.fullmatch(text)
                or STEP_RE.fullmatch(text) or SPLIT_RE.fullmatch(text)):
            raise NotationError("a move is a placement (X1:1-2), a step (X1:2>5), a split "
                                "(X1:5+6) or a collapse (→5 or >5), on points 1-9",
                                where=repr(text))

    def parse_move(self, text: str) -> Move:
        """The legal move written ``text`` (see the module docstring for the notation);
        :class:`NotationError` for text that is no move, :class:`IllegalMoveError`
        with the reason for a move that is not legal here."""
        wanted = " ".join(text.split())
        if not wanted:
            raise NotationError("empty move", where=repr(text))
        self.check_notation(wanted)
        if self._result is not None:
            raise IllegalMoveError(wanted, "the game is over")
        motion = self._read(wanted)
        for move in self.legal_moves():
            if move.tag == motion:
                return move
        raise IllegalMoveError(wanted)

    def _read(self, wanted: str) -> Motion:
        """The motion ``wanted`` names, or :class:`IllegalMoveError` saying why it is
        not legal."""
        collapse = COLLAPSE_RE.fullmatch(wanted)
        if collapse:
            point = int(collapse.group(1)) - 1
            if not self.pending:
                raise IllegalMoveError(wanted, "no cycle to collapse")
            a, b = self.pairs[self.pending]
            if point not in (a, b):
                raise IllegalMoveError(wanted, f"{label(self.pending)} can only land on "
                                               f"{a + 1} or {b + 1}")
            return Motion("collapse", self.pending, point, point)
        if self.pending:
            a, b = self.pairs[self.pending]
            raise IllegalMoveError(wanted, f"first collapse the cycle {label(self.pending)} "
                                           f"closed: →{a + 1} or →{b + 1}")
        side = PLAYER_LETTERS[self._to_move]
        kind, m = next((kind, match) for kind, match in (
            ("place", PLACE_RE.fullmatch(wanted)), ("step", STEP_RE.fullmatch(wanted)),
            ("split", SPLIT_RE.fullmatch(wanted))) if match)
        token = read_label(m.group(1)) if m.group(1) else 0
        a, b = int(m.group(2)) - 1, int(m.group(3)) - 1
        if token and owner(token) != self._to_move:
            raise IllegalMoveError(wanted, f"{label(token)} is not yours: {side} is to move")
        if kind == "place":
            return self._read_placement(wanted, token, a, b)
        if self.placing:
            nxt = label(token_of(self._to_move, self.moves // 2 + 1))
            raise IllegalMoveError(wanted, f"no step or split before all 3+3 pieces are "
                                           f"placed; place {nxt}, e.g. {nxt}:1-2")
        if kind == "split":
            token = self._splitting(wanted, token, a)
            self._check_target(wanted, a, b)
            return Motion("split", token, a, b)
        token = self._stepping(wanted, token, a)
        x, y = self.pairs[token]
        twin = y if x == a else x
        self._check_target(wanted, a, b)
        if b == twin:
            if not self.game.options["merge"]:
                raise IllegalMoveError(wanted, f"point {b + 1} holds {label(token)}'s twin "
                                               f"half; stepping into it needs merge")
            return Motion("merge", token, a, b)
        return Motion("step", token, a, b)

    def _read_placement(self, wanted: str, token: int, a: int, b: int) -> Motion:
        if not self.placing:
            side = PLAYER_LETTERS[self._to_move]
            raise IllegalMoveError(wanted, f"all pieces are placed: step a half ({side}1:2>5)"
                                           f" or split a classical piece ({side}1:5+6)")
        expected = token_of(self._to_move, self.moves // 2 + 1)
        if token and token != expected:
            raise IllegalMoveError(wanted, f"the next piece to place is {label(expected)}")
        for p in (a, b):
            if self.classical[p]:
                raise IllegalMoveError(wanted, f"point {p + 1} holds the classical "
                                               f"{label(self.classical[p])}")
        if a == b and not self.game.options["deterministic_drop"]:
            raise IllegalMoveError(wanted, "both halves in one point needs "
                                           "deterministic_drop")
        return Motion("place", expected, min(a, b), max(a, b))

    def _splitting(self, wanted: str, token: int, a: int) -> int:
        side = PLAYER_LETTERS[self._to_move]
        held = self.classical[a]
        if not token:
            if not held:
                raise IllegalMoveError(wanted, f"point {a + 1} holds no classical piece")
            if owner(held) != self._to_move:
                raise IllegalMoveError(wanted, f"point {a + 1} holds {label(held)}, not "
                                               f"a piece of {side}")
            return held
        if token in self.pairs:
            x, y = self.pairs[token]
            raise IllegalMoveError(wanted, f"{label(token)} is not classical (halves in "
                                           f"{x + 1} and {y + 1}); step one of its halves")
        if held != token:
            raise IllegalMoveError(wanted, f"{label(token)} is classical in "
                                           f"{self.point_of(token) + 1}, not {a + 1}")
        return token

    def _stepping(self, wanted: str, token: int, a: int) -> int:
        side = PLAYER_LETTERS[self._to_move]
        if not token:
            mine = [t for t, pair in sorted(self.pairs.items())
                    if owner(t) == self._to_move and a in pair]
            if not mine:
                held = self.classical[a]
                hint = (f" (the classical {label(held)} there can split: "
                        f"{label(held)}:{a + 1}+...)" if held and owner(held) ==
                        self._to_move else "")
                raise IllegalMoveError(wanted, f"{side} has no half in point {a + 1}{hint}")
            if len(mine) > 1:
                names = " or ".join(label(t) for t in mine)
                raise IllegalMoveError(wanted, f"ambiguous: {names} have a half in point "
                                               f"{a + 1}; write e.g. {label(mine[0])}:"
                                               f"{wanted}")
            return mine[0]
        if token not in self.pairs:
            raise IllegalMoveError(wanted, f"{label(token)} is classical (in "
                                           f"{self.point_of(token) + 1}): it cannot step; "
                                           f"split it with +")
        if a not in self.pairs[token]:
            x, y = self.pairs[token]
            raise IllegalMoveError(wanted, f"{label(token)}'s halves are in {x + 1} and "
                                           f"{y + 1}, not {a + 1}")
        return token

    def _check_target(self, wanted: str, a: int, b: int) -> None:
        if b not in self.game.adjacency[a]:
            if a == b:
                reason = "a half must go to another point"
            elif {a, b} & {CENTRE} and {a, b} & set(CORNERS):
                reason = (f"{a + 1} and {b + 1} are joined by a diagonal: diagonal steps "
                          f"need the diagonals option")
            else:
                reason = f"points {a + 1} and {b + 1} are not adjacent"
            raise IllegalMoveError(wanted, reason)
        if self.classical[b]:
            raise IllegalMoveError(wanted, f"point {b + 1} holds the classical "
                                           f"{label(self.classical[b])}: no entry")

    # --- drawing --------------------------------------------------------------------
    def render(self) -> str:
        """The board with classical pieces (``[X1]``), halves with subscripts (``x₁``;
        ``*`` marks a cycle-closing piece) and, below, what happens next."""
        marks: list[list[str]] = [[] for _ in range(POINTS)]
        for token, (a, b) in sorted(self.pairs.items()):
            name = label(token)
            half = name[0].lower() + name[1:].translate(SUBSCRIPTS)
            if token == self.pending:
                half += "*"
            marks[a].append(half)
            marks[b].append(half)
        width = 13
        rule = "+" + "+".join("-" * width for _ in range(3)) + "+"
        out = [rule]
        for row in range(3):
            rows: list[list[str]] = [[], [], []]
            for p in range(row * 3, row * 3 + 3):
                token = self.classical[p]
                head = f"[{label(token)}]" if token else ""
                rows[0].append(f" {p + 1:<2}{head:^{width - 6}}   ")
                for i in (1, 2):
                    chunk = " ".join(marks[p][3 * i - 3:3 * i])
                    rows[i].append(f" {chunk:<{width - 1}}")
            out.extend("|" + "|".join(cells) + "|" for cells in rows)
            out.append(rule)
        out.append(self._status())
        return "\n".join(out)

    def _status(self) -> str:
        side = PLAYER_LETTERS[self._to_move]
        limit = self.game.options["max_moves"]
        if self._result is not None:
            lines = self.lines()
            shown = ", ".join(f"{PLAYER_LETTERS[p]} line" for p, _, _ in lines)
            if not shown:
                shown = ("move limit reached" if self.moves >= limit
                         else f"{side} has no legal move")
            points = ", ".join(f"{PLAYER_LETTERS[p]} {r}" for p, r in enumerate(self._result))
            return f"game over: {shown}; points {points}"
        if self.pending:
            a, b = self.pairs[self.pending]
            return (f"cycle closed by {label(self.pending)}*: {side} collapses it, "
                    f"→{a + 1} or →{b + 1} (type >{a + 1} or >{b + 1})")
        if self.placing:
            nxt = label(token_of(self._to_move, self.moves // 2 + 1))
            return f"move {self.moves + 1}/{limit}: {side} places {nxt} as two halves, e.g. 1-2"
        return (f"move {self.moves + 1}/{limit}: {side} steps a half ({side}1:2>5) or "
                f"splits a classical piece ({side}1:5+6)")
