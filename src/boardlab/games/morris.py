"""Morris games: nine men's morris (with OpenSpiel's rules) and three men's morris,
written in boardlab's move language.

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

In the language: a drop of a man from the hand onto an empty point; a man's step to
an adjacent empty point along each line, tried towards the lowest-named points first
(south, west, east, north), so a man's moves come in the order of their points; a
flight, for a player with three men or fewer (:class:`~boardlab.core.ir.PieceCount`),
to every empty point (:class:`~boardlab.core.ir.EveryCell`); drops shadow flights,
which shadow steps (priorities). A mill is a test read from a point along the board's
lines (two steps one way, two the other, or one each way, along either axis): after a
move that puts a man down where it holds, the same player moves again
(:class:`~boardlab.core.turn.FollowUp`) with a removal alone -- an enemy man outside
a mill, or, when there is none (a lower priority), any. The goals: fewer than three
men in all loses (:class:`~boardlab.core.goals.PiecesRemaining`), 200 turns draw
(:class:`~boardlab.core.goals.TurnsPlayed`), a player without a move loses, judged
first (:attr:`~boardlab.core.goals.Goals.moves_first`, OpenSpiel's order).

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
the side to move and the number of plies played: ``w.b/.w./... b 3``. In the
language: the drops and steps of nine men's morris, lines of three as relative
configurations (as tic-tac-toe's), a player without a move judged first.

Both games run on their kernels (:mod:`boardlab.core.kernel`): a position's moves and
a whole random playout are kernel calls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

from boardlab.core.board import Board
from boardlab.core.game import DRAW, Option, Returns, State
from boardlab.core.goals import (
    AnyOf,
    Condition,
    Goals,
    PiecesRemaining,
    RelativeConfig,
    TurnsPlayed,
)
from boardlab.core.move import Capture, Piece, Place, Shift
from boardlab.core.position import PieceGame, PieceState
from boardlab.core.registry import register
from boardlab.core.rules import (
    EMPTY,
    ENEMY,
    FRIEND,
    Add,
    AtStep,
    Back,
    CaptureHere,
    Drop,
    EveryCell,
    FollowUp,
    If,
    Less,
    PieceCount,
    Predicate,
    Rules,
    Step,
    Template,
    Verify,
    all_of,
    any_of,
    not_,
)
from boardlab.core.ruleset import RuleSet
from boardlab.errors import NotationError

SYMBOLS = ".wb"
SIDES = "wb"
WHITE, BLACK = Piece(0, "man"), Piece(1, "man")
PIECES = (WHITE, BLACK)
_OPPOSITE = {"n": "s", "s": "n", "e": "w", "w": "e", "ne": "sw", "sw": "ne", "nw": "se",
             "se": "nw"}
#: The directions of a man's steps in the order their points are numbered (rank by rank
#: from the bottom, left to right on a rank), so a man's moves come in that order.
STEP_ORDER = ("sw", "s", "se", "w", "e", "nw", "n", "ne")
#: The axes of the lines, a pair of opposite directions each.
AXES = (("e", "w"), ("n", "s"), ("ne", "sw"), ("nw", "se"))


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
    """A morris board with its lines, shared by all states: what the text form, the
    drawing and the evaluation read (a position's cells as 0 empty, 1 White, 2 Black)."""

    board: Board
    lines: tuple[tuple[int, ...], ...]
    neighbours: tuple[tuple[int, ...], ...]
    ranks: tuple[tuple[int, ...], ...]  # the cells of each rank, top rank first

    @classmethod
    def build(cls, points: Sequence[str], lines: Sequence[str]) -> Layout:
        """The layout of ``points`` and ``lines`` (each a space-separated list of points)."""
        split = [line.split() for line in lines]
        board = morris_board(points, split)
        n = board.size
        heights = sorted({y for _, y in board.coords}, reverse=True)
        ranks = tuple(tuple(sorted((c for c in range(n) if board.coords[c][1] == y),
                                   key=lambda c: board.coords[c][0])) for y in heights)
        return cls(
            board=board,
            lines=tuple(tuple(board.cell(p) for p in line) for line in split),
            neighbours=tuple(tuple(sorted(board.neighbours(c))) for c in range(n)),
            ranks=ranks,
        )

    @cached_property
    def axes(self) -> tuple[tuple[str, str], ...]:
        """The axes (pairs of opposite directions) the board's lines run along."""
        return tuple(axis for axis in AXES if axis[0] in self.board.directions)

    def mill(self, test: Predicate) -> Predicate:
        """A run's test that the cursor's point and the two other points of a line
        through it satisfy ``test``: along an axis, two steps one way, two the other,
        or one each way (a morris board's runs of linked points along one direction
        are its lines of three)."""
        ends = []
        for d, o in self.axes:
            ends += [all_of(AtStep(test, d), AtStep(AtStep(test, d), d)),
                     all_of(AtStep(test, o), AtStep(AtStep(test, o), o)),
                     all_of(AtStep(test, d), AtStep(test, o))]
        return all_of(test, any_of(*ends))

    def steps(self) -> tuple[If, ...]:
        """A man's steps to each adjacent empty point (forks of one run), in the order
        of the points (:data:`STEP_ORDER`)."""
        return tuple(If(AtStep(EMPTY, d), (Step(d), Add(), Back()))
                     for d in STEP_ORDER if d in self.board.directions)

    def lines_of(self, cells: Sequence[int], player: int) -> int:
        """How many lines are full of ``player``'s men."""
        v = player + 1
        return sum(all(cells[c] == v for c in line) for line in self.lines)

    def mobility(self, cells: Sequence[int], player: int) -> int:
        """How many steps to an adjacent empty point ``player``'s men have."""
        v = player + 1
        return sum(1 for c in range(len(cells)) if cells[c] == v
                   for d in self.neighbours[c] if not cells[d])

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

    def notation(self, actions: tuple) -> str:
        """``d2`` for a placement, ``a1-d1`` for a step or a flight, ``xd2`` for a
        removal."""
        name = self.board.cell_name
        action = actions[0]
        if type(action) is Shift:
            return f"{name(action.source)}-{name(action.target)}"
        if type(action) is Capture:
            return f"x{name(action.cell)}"
        assert type(action) is Place
        return name(action.cell)


def values(state: PieceState) -> list[int]:
    """A position's points as 0 (empty), 1 (White) and 2 (Black)."""
    return [0 if p is None else p.owner + 1 for p in state.cells]


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


def _to_pieces(cells: Sequence[int]) -> list[Piece | None]:
    return [None if v == 0 else PIECES[v - 1] for v in cells]


class MorrisGame(PieceGame):
    """What both morris games share: White and Black men, drops from the hand, the
    notation of their points, the position class's text form."""

    player_names = ("White", "Black")
    pieces: ClassVar[Mapping[str, Piece]] = {"w": WHITE, "b": BLACK}
    #: The notation reads the move's actions alone.
    notation_reads_position = False

    @property
    def layout(self) -> Layout:  # pragma: no cover - each game's own
        """The board, lines and drawing of this game's options."""
        raise NotImplementedError

    def make_ruleset(self) -> RuleSet:
        """The layout's points and links, empty: every man starts in hand
        (:meth:`hands`); the game's moves (:meth:`make_rules`) and :attr:`goals`, and
        its draw (:meth:`draw_after`)."""
        return self.named_ruleset(board=self.layout.board, placement={},
                                  reserves=self.hands(), rules=self.make_rules(),
                                  goals=self.goals, ply_limit=self.draw_after())

    def hands(self) -> dict[Piece, int]:  # pragma: no cover - each game's own
        """The men in each hand at the start."""
        raise NotImplementedError

    def make_rules(self) -> Rules:  # pragma: no cover - each game's own
        """The game's move templates."""
        raise NotImplementedError

    @cached_property
    def goals(self) -> Goals:  # pragma: no cover - each game's own
        """The game's end."""
        raise NotImplementedError

    def draw_after(self) -> int | None:
        """The ply that draws a game nothing else ended (none by default)."""
        return None

    def notation(self, state: Any, actions: tuple) -> str:
        """``d2``, ``a1-d1`` or ``xd2`` (:meth:`Layout.notation`)."""
        return self.layout.notation(actions)



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
#: The men a player flies with (and fewer).
FLYING = 3


class NineMensMorrisState(PieceState):
    """A nine men's morris position: the generic position of pieces (men on the
    points, men in hand, the side to move, a removal due, the turns played) with the
    game's text form and drawing."""

    __slots__ = ()
    # Takes kernels: its fields are PieceState's.
    kernel_fields: ClassVar[dict[str, Any]] = {}

    @property
    def removing(self) -> bool:
        """Whether the side to move must remove a man (its last move closed a mill)."""
        return self.follow is not None

    @property
    def hand(self) -> list[int]:
        """The men in White's and Black's hands."""
        reserves = self.reserves
        return [reserves.get(WHITE, 0), reserves.get(BLACK, 0)]

    @property
    def on_board(self) -> list[int]:
        """White's and Black's men on the board."""
        cells = values(self)
        return [cells.count(1), cells.count(2)]

    def men(self, player: int) -> int:
        """``player``'s men on the board and in hand (OpenSpiel's num_men)."""
        return self.on_board[player] + self.hand[player]

    def flying(self, player: int) -> bool:
        """Whether ``player``, with all men placed, is down to three and flies."""
        return self.hand[player] == 0 and self.on_board[player] <= FLYING

    def full_key(self) -> int:
        """The Zobrist key computed from scratch (:meth:`key` is kept incrementally)."""
        return self._full_key()

    def signature(self) -> tuple[Any, ...]:
        """The points, side to move, removal due, hands and turns: what the text says
        (the ply, turns and removals together, is not)."""
        return (tuple(self.cells), self._to_move, self.follow,
                tuple(sorted(self.reserves.items())), self.turns)

    def __str__(self) -> str:
        hand = self.hand
        return (f"{NINE.rows_text(values(self))} {SIDES[self._to_move]} "
                f"{'x' if self.removing else '-'} {hand[0]}/{hand[1]} {self.turns}")

    def render(self) -> str:
        """The board with its lines, then who is to do what and the turn."""
        names = self.game.player_names
        p = self._to_move
        result = self.outcome()
        hand = self.hand
        if result is not None:
            status = ("draw" if result == DRAW else f"{names[result.index(1)]} wins")
        elif self.removing:
            status = f"{names[p]} to remove a {names[1 - p]} man"
        elif hand[p]:
            status = f"{names[p]} to place"
        else:
            status = f"{names[p]} to {'fly' if self.flying(p) else 'move'}"
        info = (f"{status}; in hand: {hand[0]} White, {hand[1]} Black; "
                f"turn {self.turns} of {MAX_TURNS}")
        return "\n".join([*NINE.render(values(self)), info])


@register
class NineMensMorris(MorrisGame):
    """Nine men's morris with OpenSpiel's rules: mills remove men, fly at three,
    draw after 200 turns."""

    name = "nine-mens-morris"
    description = "Nine men's morris: place, move and fly; mills remove enemy men"
    source = ("OpenSpiel nine_mens_morris (open_spiel/games/nine_mens_morris); "
              "Wikipedia, 'Nine men's morris'")
    state_class = NineMensMorrisState
    # Depths 5 and 6 were computed with OpenSpiel (pyspiel 2.0.2) and agree with this
    # implementation; depth 6 takes about half a minute of plain perft here.
    known_perft = (24, 552, 12144, 255024, 5100480, 96223680)

    @property
    def layout(self) -> Layout:
        """The 24 points and 16 mills."""
        return NINE

    def hands(self) -> dict[Piece, int]:
        """Nine men in each hand."""
        return {WHITE: MEN, BLACK: MEN}

    def make_rules(self) -> Rules:
        """Placements, flights at three men, steps; after a move that closes a mill,
        a removal of a man outside a mill, else of any (see the module docstring)."""
        place = Drop((Verify(EMPTY), Add()), kinds=("man",), name="place", priority=2)
        fly = Template((Verify(Less(PieceCount(in_hand=True), FLYING + 1)),
                        EveryCell((Verify(EMPTY), Add()))), name="move", priority=1)
        step = Template(NINE.steps(), name="move")
        # Templates of any man (shared), run from the enemy's: the removal due after a
        # mill, never a move that starts a turn.
        take = (Verify(ENEMY), CaptureHere(), Add())
        loose = Template((Verify(not_(NINE.mill(ENEMY))), *take), name="remove",
                         move_type="remove", top_level=False, shared=True, priority=1)
        any_man = Template(take, name="remove", move_type="remove", top_level=False,
                           shared=True)
        return Rules([place, fly, step, loose, any_man],
                     follow_up=FollowUp(NINE.mill(FRIEND), "remove"))

    @cached_property
    def goals(self) -> Goals:
        """Fewer than three men, on the board and in hand, lose; 200 turns draw; a
        player without a move loses, judged first (OpenSpiel's order)."""
        return Goals((Condition("loss", (0, 1), PiecesRemaining(FLYING, in_hand=True,
                                                                fewer=True)),
                      Condition("draw", (0,), TurnsPlayed(MAX_TURNS))), 2,
                     moves_first=True)

    def max_length(self) -> int:
        """OpenSpiel's MaxGameLength: 200 turns plus removals."""
        return MAX_TURNS + 2 * MEN - 4

    def check_notation(self, text: str) -> None:
        """A move is ``d2``, ``a1-d1`` or ``xd2``."""
        NINE.check_notation(text, removals=True)

    def parse_state(self, text: str) -> PieceState:
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
        removing = parts[2] == "x"
        # The moves from the start: each turn, each removal, and a mill before its
        # removal.
        ply = turns + 2 * MEN - sum(hand) - len(cells) + cells.count(0) + removing
        return self.new_state(_to_pieces(cells), to_move, {WHITE: hand[0], BLACK: hand[1]},
                              ply, follow="remove" if removing else None, turns=turns)

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
        cells = values(state)
        mills = NINE.lines_of(cells, player) - NINE.lines_of(cells, other)
        mine, theirs = NINE.mobility(cells, player), NINE.mobility(cells, other)
        mobility = (mine - theirs) / max(1, mine + theirs)
        return _clamp(0.6 * men / 6 + 0.2 * mills / 4 + 0.2 * mobility)


# --- three men's morris -------------------------------------------------------------

THREE_POINTS = ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
THREE_LINES = ("a1 b1 c1", "a2 b2 c2", "a3 b3 c3", "a1 a2 a3", "b1 b2 b3", "c1 c2 c3")
THREE_DIAGONALS = ("a1 b2 c3", "c1 b2 a3")
THREE = {True: Layout.build(THREE_POINTS, THREE_LINES + THREE_DIAGONALS),
         False: Layout.build(THREE_POINTS, THREE_LINES)}
THREE_MEN = 3
MAX_MOVES_LIMIT = 10_000


class ThreeMensMorrisState(PieceState):
    """A three men's morris position: the generic position of pieces with the game's
    text form (rows, side, plies) and drawing; the men in hand are those not on the
    board."""

    __slots__ = ()
    # Takes kernels: its fields are PieceState's.
    kernel_fields: ClassVar[dict[str, Any]] = {}

    @property
    def plies(self) -> int:
        """The plies played (placements included)."""
        return self.ply

    def full_key(self) -> int:
        """The Zobrist key computed from scratch (:meth:`key` is kept incrementally)."""
        return self._full_key()

    def signature(self) -> tuple[Any, ...]:
        """The points, side to move and plies: what the text says (the hands follow
        from the points)."""
        return tuple(self.cells), self._to_move, self.ply

    def __str__(self) -> str:
        layout = self.game.layout  # type: ignore[attr-defined]
        return f"{layout.rows_text(values(self))} {SIDES[self._to_move]} {self.ply}"

    def render(self) -> str:
        """The board with its lines, then who is to do what and the ply."""
        names = self.game.player_names
        p = self._to_move
        result = self.outcome()
        cells = values(self)
        if result is not None:
            status = ("draw" if result == DRAW else f"{names[result.index(1)]} wins")
        else:
            status = (f"{names[p]} to "
                      f"{'place' if cells.count(p + 1) < THREE_MEN else 'move'}")
        info = f"{status}; ply {self.ply} of {self.game.options['max_moves']}"
        return "\n".join([*self.game.layout.render(cells), info])  # type: ignore[attr-defined]


@register
class ThreeMensMorris(MorrisGame):
    """Three men's morris: place three men, then step along the lines; three in a row
    wins; a draw after ``max_moves`` plies."""

    name = "three-mens-morris"
    description = "Three men's morris: place and move three men to make three in a row"
    source = "Traditional; Wikipedia, 'Three men's morris' (Bell 1979; Murray 1913, p. 614)"
    state_class = ThreeMensMorrisState
    option_schema = (
        Option("diagonals", True, "the two diagonals are lines: moves and wins along them"),
        Option("max_moves", 200, "plies after which the game is a draw", minimum=1,
               maximum=MAX_MOVES_LIMIT),
    )
    # Not published: counted by this implementation and by the independent brute force
    # of tests/games/test_morris.py, which agree.
    known_perft = (9, 72, 504, 3024, 15120, 54720, 199296, 705312)

    @property
    def layout(self) -> Layout:
        """The board, lines and moves of this game's options."""
        return THREE[self.options["diagonals"]]

    def hands(self) -> dict[Piece, int]:
        """Three men in each hand."""
        return {WHITE: THREE_MEN, BLACK: THREE_MEN}

    def make_rules(self) -> Rules:
        """A placement while men are in hand (shadowing the steps), then a man's step
        to an adjacent empty point."""
        place = Drop((Verify(EMPTY), Add()), kinds=("man",), name="place", priority=1)
        return Rules([place, Template(self.layout.steps(), name="move")])

    @cached_property
    def goals(self) -> Goals:
        """Three of one's men on a line win (relative configurations along the board's
        axes); a player without a move loses, judged first (then the ply limit draws)."""
        lines = []
        for d, _ in self.layout.axes:
            for piece in PIECES:
                man = ("self", piece.kind)
                lines.append(RelativeConfig((man, d, man, d, man)))
        return Goals((Condition("win", (0, 1), AnyOf(tuple(lines))),), 2, moves_first=True)

    def draw_after(self) -> int:
        """``max_moves``: the game is drawn when it is reached."""
        return int(self.options["max_moves"])

    def max_length(self) -> int:
        """The ``max_moves`` option."""
        return int(self.options["max_moves"])

    def check_notation(self, text: str) -> None:
        """A move is ``b2`` or ``a1-b2``."""
        self.layout.check_notation(text, removals=False)

    def parse_state(self, text: str) -> PieceState:
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
        return self.new_state(_to_pieces(cells), to_move,
                              {WHITE: THREE_MEN - white, BLACK: THREE_MEN - black}, plies)

    def evaluate(self, state: State, player: int) -> float | None:
        """Lines held two to none (threats) and mobility, scaled into [-1, 1]."""
        assert isinstance(state, ThreeMensMorrisState)
        result = state.outcome()
        if result is not None:
            return _terminal_value(result, player)
        layout, cells = self.layout, values(state)
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
