"""Morris games: nine men's morris (with OpenSpiel's rules) and three men's morris.

Nine men's morris (``nine-mens-morris``), rules exactly as OpenSpiel's
``nine_mens_morris`` (open_spiel/games/nine_mens_morris/nine_mens_morris.cc), which
follow Wikipedia, "Nine men's morris":

* The board has 24 points on three nested squares joined at their midpoints, named
  by the 7x7 grid they sit on: a1, d1, g1, b2, d2, f2, c3, d3, e3, a4, b4, c4, e4,
  f4, g4, c5, d5, e5, b6, d6, f6, a7, d7, g7. White (first player) and Black have
  nine men each.
* Placement: the players take turns putting a man from their hand on an empty
  point, until both hands are empty.
* Movement: a man moves along a line to an adjacent empty point. A player down to
  three men (on the board and in hand together) *flies*: moves a man to any empty
  point.
* A man placed or moved so that it completes a mill (three of one's men on one of
  the 16 lines of three points) lets its owner remove an opposing man. The removal
  is a separate move of the same player (``to_move`` does not change), written
  ``xd2``. A man that stands in a mill can be removed only when every opposing man
  on the board stands in a mill.
* A player with fewer than three men (board and hand together) loses; so does a
  player with no legal move, on their turn.
* OpenSpiel counts *turns*: a turn passes after a placement or a move that makes
  no mill, and after a removal, so a mill and its removal are one turn. After 200
  turns the game is a draw, unless the player to move has no legal move or the
  last removal left a player with two men: those still lose. A game therefore has
  at most 200 turns plus 13 removals, 213 moves.

Moves are written ``d2`` (placement), ``a1-d1`` (a step or a flight) and ``xd2``
(a removal). The text form lists the ranks from the top, ``/``-separated, each
with its points left to right (``w`` White, ``b`` Black, ``.`` empty), then the
side to move, ``x`` if it must remove a man (``-`` otherwise), the men in White's
and Black's hands and the number of turns played::

    .../.../.../....../.../.../... w - 9/9 0

Perft from the empty board: 24, 552, 12144, 255024 (placements only: no mill is
possible before White's third man), then 5100480 and 96223680, both counted with
OpenSpiel's implementation and checked against this one.

Three men's morris (``three-mens-morris``), from Wikipedia, "Three men's morris"
(after R. C. Bell and H. J. R. Murray): a 3x3 grid of points joined by the three
rows, the three columns and, on the traditional board, both diagonals. Each player
has three men. The players take turns placing their men on empty points, then
take turns moving one man along a line to an adjacent empty point (Murray's
"smaller merels"; Wikipedia's other form, where a man may go to any empty point,
is not implemented). Three of one's men on a line -- a row, a column or, with the
option ``diagonals`` (default on), a diagonal -- wins at once. A player who cannot
move loses. The option ``diagonals`` off removes the diagonal lines: no diagonal
moves and no diagonal wins. To bound the game, after ``max_moves`` plies (default
200, placements included) without a winner the game is a draw. Moves are written
``b2`` (placement) and ``a1-b2`` (a step); the text form is the rows from the top,
the side to move and the number of plies played: ``w.b/.w./... b 3``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from boardlab.core.board import Board
from boardlab.core.game import (
    DRAW,
    Game,
    IncrementalState,
    Option,
    Returns,
    State,
    win_for,
    zobrist_table,
)
from boardlab.core.move import Capture, Move, Piece, Place, Shift, format_action
from boardlab.core.registry import register
from boardlab.errors import NotationError

SYMBOLS = ".wb"
SIDES = "wb"
PIECES = (Piece(0, "man"), Piece(1, "man"))
_OPPOSITE = {"n": "s", "s": "n", "e": "w", "w": "e", "ne": "sw", "sw": "ne", "nw": "se",
             "se": "nw"}


def _coords(name: str) -> tuple[int, int]:
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def _direction(a: str, b: str) -> str:
    (xa, ya), (xb, yb) = _coords(a), _coords(b)
    dy = (yb > ya) - (yb < ya)
    dx = (xb > xa) - (xb < xa)
    return {1: "n", -1: "s", 0: ""}[dy] + {1: "e", -1: "w", 0: ""}[dx]


def morris_board(points: Sequence[str], lines: Sequence[Sequence[str]]) -> Board:
    """The board of ``points`` (grid names like ``d2``) where consecutive points of each
    line are linked, in both directions, with compass direction names."""
    links = [(a, _direction(a, b), b)
             for line in lines for a, b in zip(line, line[1:], strict=False)]
    return Board.graph(points, links, opposite=_OPPOSITE,
                       coords=[_coords(p) for p in points])


@dataclass(frozen=True)
class Layout:
    """A morris board with its lines and precomputed moves, shared by all states."""

    board: Board
    lines: tuple[tuple[int, ...], ...]
    lines_through: tuple[tuple[tuple[int, ...], ...], ...]
    neighbours: tuple[tuple[int, ...], ...]
    ranks: tuple[tuple[int, ...], ...]  # the cells of each rank, top rank first
    placements: tuple[tuple[Move, ...], ...]  # [player][cell]
    steps: tuple[tuple[Move | None, ...], ...]  # [source][target], any two distinct cells
    removals: tuple[Move, ...]  # [cell]

    @classmethod
    def build(cls, points: Sequence[str], lines: Sequence[str]) -> Layout:
        """The layout of ``points`` and ``lines`` (each a space-separated list of points)."""
        split = [line.split() for line in lines]
        board = morris_board(points, split)
        n = board.size
        line_cells = tuple(tuple(board.cell(p) for p in line) for line in split)
        heights = sorted({y for _, y in board.coords}, reverse=True)
        ranks = tuple(tuple(sorted((c for c in range(n) if board.coords[c][1] == y),
                                   key=lambda c: board.coords[c][0])) for y in heights)
        return cls(
            board=board,
            lines=line_cells,
            lines_through=tuple(tuple(line for line in line_cells if c in line)
                                for c in range(n)),
            neighbours=tuple(tuple(sorted(board.neighbours(c))) for c in range(n)),
            ranks=ranks,
            placements=tuple(tuple(Move(board.cell_name(c),
                                        (Place(c, PIECES[p], from_reserve=True),),
                                        tag="place")
                                   for c in range(n)) for p in range(2)),
            steps=tuple(tuple(None if s == t else
                              Move(format_action(Shift(s, t), board), (Shift(s, t),),
                                   tag="move")
                              for t in range(n)) for s in range(n)),
            removals=tuple(Move(format_action(Capture(c), board), (Capture(c),),
                                tag="remove") for c in range(n)),
        )

    def in_line(self, cells: Sequence[int], cell: int) -> bool:
        """Whether the man on ``cell`` completes a line of its owner."""
        v = cells[cell]
        return v != 0 and any(cells[a] == v and cells[b] == v and cells[c] == v
                              for a, b, c in self.lines_through[cell])

    def lines_of(self, cells: Sequence[int], player: int) -> int:
        """How many lines are full of ``player``'s men."""
        v = player + 1
        return sum(all(cells[c] == v for c in line) for line in self.lines)

    def mobility(self, cells: Sequence[int], player: int) -> int:
        """How many steps to an adjacent empty point ``player``'s men have."""
        v = player + 1
        return sum(1 for c in range(len(cells)) if cells[c] == v
                   for d in self.neighbours[c] if not cells[d])

    def can_step(self, cells: Sequence[int], player: int) -> bool:
        """Whether some man of ``player`` has an adjacent empty point."""
        v = player + 1
        return any(cells[c] == v and any(not cells[d] for d in self.neighbours[c])
                   for c in range(len(cells)))

    def rows_text(self, cells: Sequence[int]) -> str:
        """The ranks from the top, ``/``-separated."""
        return "/".join("".join(SYMBOLS[cells[c]] for c in rank) for rank in self.ranks)

    def parse_rows(self, text: str) -> list[int]:
        """The cells written by :meth:`rows_text`; :class:`NotationError` if malformed."""
        rows = text.split("/")
        shape = "/".join("." * len(rank) for rank in self.ranks)
        if len(rows) != len(self.ranks) or any(
                len(r) != len(rank) for r, rank in zip(rows, self.ranks, strict=True)):
            raise NotationError(f"expected ranks shaped like {shape}", where=repr(text))
        cells = [0] * self.board.size
        for row, rank in zip(rows, self.ranks, strict=True):
            for ch, c in zip(row, rank, strict=True):
                if ch.lower() not in SYMBOLS:
                    raise NotationError(f"unknown man {ch!r} (use w, b or .)",
                                        where=self.board.cell_name(c))
                cells[c] = SYMBOLS.index(ch.lower())
        return cells

    def check_notation(self, text: str, removals: bool) -> None:
        """:class:`NotationError` unless ``text`` is ``d2``, ``a1-d1`` or (with
        ``removals``) ``xd2`` on points of this board."""
        low = text.lower()
        names = [low[1:]] if removals and low.startswith("x") else low.split("-")
        forms = "d2, a1-d1 or xd2" if removals else "b2 or a1-b2"
        if len(names) > 2 or not all(self.board.has_cell(name) for name in names):
            raise NotationError(f"a move is written {forms}, with points of the board "
                                f"({', '.join(self.board.names)})", where=repr(text))

    def render(self, cells: Sequence[int]) -> list[str]:
        """The board drawn with its lines, ranks numbered at the left, files below."""
        coords = self.board.coords
        width = 4 * max(x for x, _ in coords) + 1
        top = max(y for _, y in coords)
        grid = [[" "] * width for _ in range(2 * top + 1)]
        for a in range(self.board.size):
            for b in self.neighbours[a]:
                (xa, ya), (xb, yb) = coords[a], coords[b]
                if b < a:
                    continue
                ra, rb, ca, cb = 2 * (top - ya), 2 * (top - yb), 4 * xa, 4 * xb
                if ra == rb:
                    for col in range(min(ca, cb) + 1, max(ca, cb)):
                        grid[ra][col] = "-"
                elif ca == cb:
                    for row in range(min(ra, rb) + 1, max(ra, rb)):
                        grid[row][ca] = "|"
                else:
                    grid[(ra + rb) // 2][(ca + cb) // 2] = "/" if (rb - ra) * (cb - ca) < 0 \
                        else "\\"
        for c in range(self.board.size):
            x, y = coords[c]
            grid[2 * (top - y)][4 * x] = SYMBOLS[cells[c]].upper() if cells[c] else "."
        lines = []
        for i, row in enumerate(grid):
            label = str(top - i // 2 + 1) if i % 2 == 0 else " "
            lines.append(f"{label}  {''.join(row).rstrip()}")
        files = "   ".join(chr(ord("a") + x) for x in range(max(x for x, _ in coords) + 1))
        lines.append(f"   {files}")
        return lines


def _side(text: str) -> int:
    if text.lower() not in SIDES:
        raise NotationError("side to move must be w or b", where=repr(text))
    return SIDES.index(text.lower())


def _number(text: str, what: str, low: int, high: int) -> int:
    if not text.isdigit() or not low <= int(text) <= high:
        raise NotationError(f"{what} must be a number from {low} to {high}", where=repr(text))
    return int(text)


def _clamp(value: float) -> float:
    return max(-1.0, min(1.0, value))


def _terminal_value(result: Returns, player: int) -> float:
    return float(2 * result[player] - 1)


# --- nine men's morris --------------------------------------------------------------

NINE_POINTS = (
    "a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3", "e3", "a4", "b4", "c4",
    "e4", "f4", "g4", "c5", "d5", "e5", "b6", "d6", "f6", "a7", "d7", "g7",
)
NINE_MILLS = (
    "a1 d1 g1", "b2 d2 f2", "c3 d3 e3", "a4 b4 c4", "e4 f4 g4", "c5 d5 e5", "b6 d6 f6",
    "a7 d7 g7",
    "a1 a4 a7", "b2 b4 b6", "c3 c4 c5", "d1 d2 d3", "d5 d6 d7", "e3 e4 e5", "f2 f4 f6",
    "g1 g4 g7",
)
NINE = Layout.build(NINE_POINTS, NINE_MILLS)
MEN = 9
#: OpenSpiel's kMaxNumTurns: after this many turns the game is drawn.
MAX_TURNS = 200
_N = 24
_Z_SIDE, _Z_REMOVING, _Z_HAND, _Z_TURNS = 2 * _N, 2 * _N + 1, 2 * _N + 2, 2 * _N + 2 + 2 * 10
NINE_ZOBRIST = zobrist_table(_Z_TURNS + MAX_TURNS + 1, "nine-mens-morris")


@register
class NineMensMorris(Game):
    """Nine men's morris with OpenSpiel's rules: mills remove men, fly at three,
    draw after 200 turns."""

    name = "nine-mens-morris"
    description = "Nine men's morris: place, move and fly; mills remove enemy men"
    source = ("OpenSpiel nine_mens_morris (open_spiel/games/nine_mens_morris); "
              "Wikipedia, 'Nine men's morris'")
    player_names = ("White", "Black")
    # Depths 5 and 6 were computed with OpenSpiel (pyspiel 2.0.2) and agree with this
    # implementation; depth 6 takes about half a minute of plain perft here.
    known_perft = (24, 552, 12144, 255024, 5100480, 96223680)

    def initial_state(self) -> NineMensMorrisState:
        """The empty board, nine men in each hand, White to move."""
        return NineMensMorrisState(self, [0] * _N, 0, False, [MEN, MEN], 0)

    def max_length(self) -> int:
        """OpenSpiel's MaxGameLength: 200 turns plus removals."""
        return MAX_TURNS + 2 * MEN - 4

    @property
    def board(self) -> Board:
        """The 24 points and their links."""
        return NINE.board

    def parse_state(self, text: str) -> NineMensMorrisState:
        """Read ``ranks side removal hands turns``, e.g.
        ``.../.../.../....../.../.../... w - 9/9 0``."""
        parts = text.split()
        if len(parts) != 5:
            raise NotationError("expected 'ranks side removal hands turns', e.g. "
                                "'.../.../.../....../.../.../... w - 9/9 0'", where=repr(text))
        cells = NINE.parse_rows(parts[0])
        to_move = _side(parts[1])
        if parts[2] not in ("-", "x"):
            raise NotationError("removal flag must be x or -", where=repr(parts[2]))
        hands = parts[3].split("/")
        if len(hands) != 2:
            raise NotationError("hands must be written white/black, e.g. 9/9",
                                where=repr(parts[3]))
        hand = [_number(h, "men in hand", 0, MEN) for h in hands]
        for p in range(2):
            if cells.count(p + 1) + hand[p] > MEN:
                raise NotationError(f"{self.player_names[p]} has more than {MEN} men",
                                    where=repr(text))
        turns = _number(parts[4], "turns", 0, MAX_TURNS)
        return NineMensMorrisState(self, cells, to_move, parts[2] == "x", hand, turns)

    def evaluate(self, state: State, player: int) -> float | None:
        """Men (board and hand) difference, mills and mobility, scaled into [-1, 1]."""
        assert isinstance(state, NineMensMorrisState)
        result = state.outcome()
        if result is not None:
            return _terminal_value(result, player)
        other = 1 - player
        men = state.men(player) - state.men(other)
        if state.removing:
            men += 1 if state.to_move == player else -1
        mills = NINE.lines_of(state.cells, player) - NINE.lines_of(state.cells, other)
        mine, theirs = NINE.mobility(state.cells, player), NINE.mobility(state.cells, other)
        mobility = (mine - theirs) / max(1, mine + theirs)
        return _clamp(0.6 * men / 6 + 0.2 * mills / 4 + 0.2 * mobility)


class NineMensMorrisState(IncrementalState):
    """A nine men's morris position: 24 points (0 empty, 1 White, 2 Black), the side
    to move, whether it must remove a man, the men in hand and the turns played."""

    __slots__ = ("game", "cells", "_to_move", "removing", "hand", "on_board", "turns",
                 "_result", "_history", "_key")

    def __init__(self, game: NineMensMorris, cells: list[int], to_move: int, removing: bool,
                 hand: list[int], turns: int):
        self.game = game
        self.cells = cells
        self._to_move = to_move
        self.removing = removing
        self.hand = hand
        self.on_board = [cells.count(1), cells.count(2)]
        self.turns = turns
        self._history: list[tuple[Any, ...]] = []
        self._key = self.full_key()
        self._result = self._compute_result()

    def full_key(self) -> int:
        """The Zobrist key computed from scratch (:meth:`key` is kept incrementally)."""
        z = NINE_ZOBRIST
        key = z[_Z_SIDE] * self._to_move ^ z[_Z_REMOVING] * self.removing
        key ^= z[_Z_HAND + self.hand[0]] ^ z[_Z_HAND + 10 + self.hand[1]]
        key ^= z[_Z_TURNS + self.turns]
        for c, v in enumerate(self.cells):
            if v:
                key ^= z[(v - 1) * _N + c]
        return key

    def men(self, player: int) -> int:
        """``player``'s men on the board and in hand (OpenSpiel's num_men)."""
        return self.on_board[player] + self.hand[player]

    def flying(self, player: int) -> bool:
        """Whether ``player``, with all men placed, is down to three and flies."""
        return self.hand[player] == 0 and self.on_board[player] <= 3

    def _has_move(self) -> bool:
        p = self._to_move
        if self.removing:
            return self.on_board[1 - p] > 0
        if self.hand[p] or self.flying(p):
            return self.on_board[p] + self.hand[p] > 0 and 0 in self.cells
        return NINE.can_step(self.cells, p)

    def _compute_result(self) -> Returns | None:
        # The order is OpenSpiel's Returns(): no move, then too few men, then the turn limit.
        if not self._has_move():
            return win_for(1 - self._to_move)
        for p in range(2):
            if self.men(p) <= 2:
                return win_for(1 - p)
        if self.turns >= MAX_TURNS:
            return DRAW
        return None

    def piece_at(self, cell: int) -> Piece | None:
        """The man on point ``cell``, or ``None``."""
        v = self.cells[cell]
        return PIECES[v - 1] if v else None

    def legal_moves(self) -> list[Move]:
        if self._result is not None:
            return []
        p, cells = self._to_move, self.cells
        if self.removing:
            theirs = 2 - p
            mine_only = [c for c in range(_N) if cells[c] == theirs]
            free = [c for c in mine_only if not NINE.in_line(cells, c)]
            return [NINE.removals[c] for c in (free or mine_only)]
        if self.hand[p]:
            row = NINE.placements[p]
            return [row[c] for c in range(_N) if not cells[c]]
        v = p + 1
        steps = NINE.steps
        if self.flying(p):
            empty = [c for c in range(_N) if not cells[c]]
            return [steps[s][t] for s in range(_N) if cells[s] == v  # type: ignore[misc]
                    for t in empty]
        return [steps[s][t] for s in range(_N) if cells[s] == v  # type: ignore[misc]
                for t in NINE.neighbours[s] if not cells[t]]

    def apply(self, move: Move) -> None:
        p = self._to_move
        self._history.append((move, p, self.removing, self.turns, self._result, self._key))
        action = move.actions[0]
        z = NINE_ZOBRIST
        cells = self.cells
        if type(action) is Capture:
            cells[action.cell] = 0
            self.on_board[1 - p] -= 1
            self._key ^= z[(1 - p) * _N + action.cell] ^ z[_Z_REMOVING]
            self.removing = False
            self._pass_turn()
        else:
            if type(action) is Place:
                target = action.cell
                h = self.hand[p]
                self.hand[p] = h - 1
                self.on_board[p] += 1
                self._key ^= z[_Z_HAND + 10 * p + h] ^ z[_Z_HAND + 10 * p + h - 1]
            else:
                target = action.target  # type: ignore[union-attr]
                cells[action.source] = 0  # type: ignore[union-attr]
                self._key ^= z[p * _N + action.source]  # type: ignore[union-attr]
            cells[target] = p + 1
            self._key ^= z[p * _N + target]
            if NINE.in_line(cells, target):
                self.removing = True
                self._key ^= z[_Z_REMOVING]
            else:
                self._pass_turn()
        self._result = self._compute_result()

    def _pass_turn(self) -> None:
        z = NINE_ZOBRIST
        self._key ^= z[_Z_SIDE] ^ z[_Z_TURNS + self.turns] ^ z[_Z_TURNS + self.turns + 1]
        self._to_move = 1 - self._to_move
        self.turns += 1

    def undo(self) -> None:
        move, p, self.removing, self.turns, self._result, self._key = self._history.pop()
        self._to_move = p
        action = move.actions[0]
        if type(action) is Capture:
            self.cells[action.cell] = 2 - p
            self.on_board[1 - p] += 1
        elif type(action) is Place:
            self.cells[action.cell] = 0
            self.hand[p] += 1
            self.on_board[p] -= 1
        else:
            self.cells[action.target] = 0  # type: ignore[union-attr]
            self.cells[action.source] = p + 1  # type: ignore[union-attr]

    def clone(self) -> NineMensMorrisState:
        new = NineMensMorrisState.__new__(NineMensMorrisState)
        new.game = self.game
        new.cells = self.cells[:]
        new._to_move = self._to_move
        new.removing = self.removing
        new.hand = self.hand[:]
        new.on_board = self.on_board[:]
        new.turns = self.turns
        new._result = self._result
        new._history = []
        new._key = self._key
        return new

    def signature(self) -> tuple[Any, ...]:
        return (tuple(self.cells), self._to_move, self.removing, tuple(self.hand),
                self.turns)

    def __str__(self) -> str:
        return (f"{NINE.rows_text(self.cells)} {SIDES[self._to_move]} "
                f"{'x' if self.removing else '-'} {self.hand[0]}/{self.hand[1]} {self.turns}")

    def check_notation(self, text: str) -> None:
        NINE.check_notation(text, removals=True)

    def render(self) -> str:
        names = self.game.player_names
        p = self._to_move
        if self._result is not None:
            status = ("draw" if self._result == DRAW
                      else f"{names[self._result.index(1)]} wins")
        elif self.removing:
            status = f"{names[p]} to remove a {names[1 - p]} man"
        elif self.hand[p]:
            status = f"{names[p]} to place"
        else:
            status = f"{names[p]} to {'fly' if self.flying(p) else 'move'}"
        info = (f"{status}; in hand: {self.hand[0]} White, {self.hand[1]} Black; "
                f"turn {self.turns} of {MAX_TURNS}")
        return "\n".join([*NINE.render(self.cells), info])


# --- three men's morris -------------------------------------------------------------

THREE_POINTS = ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
THREE_LINES = ("a1 b1 c1", "a2 b2 c2", "a3 b3 c3", "a1 a2 a3", "b1 b2 b3", "c1 c2 c3")
THREE_DIAGONALS = ("a1 b2 c3", "c1 b2 a3")
THREE = {True: Layout.build(THREE_POINTS, THREE_LINES + THREE_DIAGONALS),
         False: Layout.build(THREE_POINTS, THREE_LINES)}
THREE_MEN = 3
MAX_MOVES_LIMIT = 10_000
THREE_ZOBRIST = zobrist_table(2 * 9 + 1 + MAX_MOVES_LIMIT + 1, "three-mens-morris")


@register
class ThreeMensMorris(Game):
    """Three men's morris: place three men, then step along the lines; three in a row
    wins; a draw after ``max_moves`` plies."""

    name = "three-mens-morris"
    description = "Three men's morris: place and move three men to make three in a row"
    source = "Traditional; Wikipedia, 'Three men's morris' (Bell 1979; Murray 1913, p. 614)"
    player_names = ("White", "Black")
    option_schema = (
        Option("diagonals", True, "the two diagonals are lines: moves and wins along them"),
        Option("max_moves", 200, "plies after which the game is a draw", minimum=1,
               maximum=MAX_MOVES_LIMIT),
    )
    # Not published: counted by this implementation and by the independent brute force
    # of tests/games/test_morris.py, which agree.
    known_perft = (9, 72, 504, 3024, 15120, 54720, 199296, 705312)

    @property
    def board(self) -> Board:
        """The nine points and their links (diagonals included when on)."""
        return self.layout.board

    @property
    def layout(self) -> Layout:
        """The board, lines and moves of this game's options."""
        return THREE[self.options["diagonals"]]

    def initial_state(self) -> ThreeMensMorrisState:
        """The empty board, White to move."""
        return ThreeMensMorrisState(self, [0] * 9, 0, 0)

    def max_length(self) -> int:
        """The ``max_moves`` option."""
        return int(self.options["max_moves"])

    def parse_state(self, text: str) -> ThreeMensMorrisState:
        """Read ``rows side plies``, e.g. ``w.b/.w./... b 3``."""
        parts = text.split()
        if len(parts) != 3:
            raise NotationError("expected 'rows side plies', e.g. 'w.b/.w./... b 3'",
                                where=repr(text))
        cells = self.layout.parse_rows(parts[0])
        to_move = _side(parts[1])
        plies = _number(parts[2], "plies", 0, self.options["max_moves"])
        white, black = cells.count(1), cells.count(2)
        placing = white < THREE_MEN or black < THREE_MEN
        if (white > THREE_MEN or black > THREE_MEN
                or placing and white - black != to_move or plies < white + black
                or plies % 2 != to_move):
            raise NotationError("men, side to move and plies do not fit together "
                                "(White moves first, three men each)", where=repr(text))
        if all(self.layout.lines_of(cells, p) for p in range(2)):
            raise NotationError("both players have three in a row", where=repr(text))
        return ThreeMensMorrisState(self, cells, to_move, plies)

    def evaluate(self, state: State, player: int) -> float | None:
        """Lines held two to none (threats) and mobility, scaled into [-1, 1]."""
        assert isinstance(state, ThreeMensMorrisState)
        result = state.outcome()
        if result is not None:
            return _terminal_value(result, player)
        layout, cells = self.layout, state.cells
        threats = 0
        for line in layout.lines:
            marks = [cells[c] for c in line]
            if marks.count(0) == 1:
                if marks.count(player + 1) == 2:
                    threats += 1
                elif marks.count(2 - player) == 2:
                    threats -= 1
        mine, theirs = layout.mobility(cells, player), layout.mobility(cells, 1 - player)
        mobility = (mine - theirs) / max(1, mine + theirs)
        return _clamp(0.7 * threats / 3 + 0.3 * mobility)


class ThreeMensMorrisState(IncrementalState):
    """A three men's morris position: nine points (0 empty, 1 White, 2 Black), the side
    to move and the plies played."""

    __slots__ = ("game", "cells", "_to_move", "plies", "_layout", "_result", "_history",
                 "_key")

    def __init__(self, game: ThreeMensMorris, cells: list[int], to_move: int, plies: int):
        self.game = game
        self._layout = game.layout
        self.cells = cells
        self._to_move = to_move
        self.plies = plies
        self._history: list[tuple[Move, Returns | None, int]] = []
        self._key = self.full_key()
        self._result = self._compute_result()

    def full_key(self) -> int:
        """The Zobrist key computed from scratch (:meth:`key` is kept incrementally)."""
        z = THREE_ZOBRIST
        key = z[18] * self._to_move ^ z[19 + self.plies]
        for c, v in enumerate(self.cells):
            if v:
                key ^= z[(v - 1) * 9 + c]
        return key

    def _has_move(self) -> bool:
        p = self._to_move
        return self.cells.count(p + 1) < THREE_MEN or self._layout.can_step(self.cells, p)

    def _compute_result(self) -> Returns | None:
        for p in range(2):
            if self._layout.lines_of(self.cells, p):
                return win_for(p)
        return self._after_move(1 - self._to_move)

    def _after_move(self, mover: int) -> Returns | None:
        if not self._has_move():
            return win_for(mover)
        if self.plies >= self.game.options["max_moves"]:
            return DRAW
        return None

    def piece_at(self, cell: int) -> Piece | None:
        """The man on point ``cell``, or ``None``."""
        v = self.cells[cell]
        return PIECES[v - 1] if v else None

    def legal_moves(self) -> list[Move]:
        if self._result is not None:
            return []
        p, cells, layout = self._to_move, self.cells, self._layout
        if cells.count(p + 1) < THREE_MEN:
            row = layout.placements[p]
            return [row[c] for c in range(9) if not cells[c]]
        v = p + 1
        return [layout.steps[s][t] for s in range(9) if cells[s] == v  # type: ignore[misc]
                for t in layout.neighbours[s] if not cells[t]]

    def apply(self, move: Move) -> None:
        p = self._to_move
        self._history.append((move, self._result, self._key))
        action = move.actions[0]
        z = THREE_ZOBRIST
        if type(action) is Place:
            target = action.cell
        else:
            target = action.target  # type: ignore[union-attr]
            self.cells[action.source] = 0  # type: ignore[union-attr]
            self._key ^= z[p * 9 + action.source]  # type: ignore[union-attr]
        self.cells[target] = p + 1
        self._key ^= (z[p * 9 + target] ^ z[18] ^ z[19 + self.plies]
                      ^ z[19 + self.plies + 1])
        self._to_move = 1 - p
        self.plies += 1
        if self._layout.in_line(self.cells, target):
            self._result = win_for(p)
        else:
            self._result = self._after_move(p)

    def undo(self) -> None:
        move, self._result, self._key = self._history.pop()
        self._to_move = p = 1 - self._to_move
        self.plies -= 1
        action = move.actions[0]
        if type(action) is Place:
            self.cells[action.cell] = 0
        else:
            self.cells[action.target] = 0  # type: ignore[union-attr]
            self.cells[action.source] = p + 1  # type: ignore[union-attr]

    def clone(self) -> ThreeMensMorrisState:
        new = ThreeMensMorrisState.__new__(ThreeMensMorrisState)
        new.game = self.game
        new._layout = self._layout
        new.cells = self.cells[:]
        new._to_move = self._to_move
        new.plies = self.plies
        new._result = self._result
        new._history = []
        new._key = self._key
        return new

    def signature(self) -> tuple[tuple[int, ...], int, int]:
        return tuple(self.cells), self._to_move, self.plies

    def __str__(self) -> str:
        return f"{self._layout.rows_text(self.cells)} {SIDES[self._to_move]} {self.plies}"

    def check_notation(self, text: str) -> None:
        self._layout.check_notation(text, removals=False)

    def render(self) -> str:
        names = self.game.player_names
        p = self._to_move
        if self._result is not None:
            status = ("draw" if self._result == DRAW
                      else f"{names[self._result.index(1)]} wins")
        else:
            status = (f"{names[p]} to "
                      f"{'place' if self.cells.count(p + 1) < THREE_MEN else 'move'}")
        info = f"{status}; ply {self.plies} of {self.game.options['max_moves']}"
        return "\n".join([*self._layout.render(self.cells), info])
