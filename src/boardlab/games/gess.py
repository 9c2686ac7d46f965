"""GESS: chess-like pieces made of Go stones in 3x3 footprints.

Rules (the Puzzles and Games Ring of the Archimedeans; Paul Bolchover, "Gess the
Game", Eureka 53, 1994, archim.org.uk/eureka/53/gess.html; Wikipedia, "Gess";
chessvariants.com, "GESS -- a new chess/go variant"; Dagaz's
``gess.zrf`` for the setup):

* The board is a 20x20 grid of squares, ``a1`` (bottom left) to ``t20``. Play uses
  the inner 18x18 (``b2``-``s19``); the outer ring only completes footprints near
  the edge: no stone ever stays there.
* Black and White have 43 stones each, Black (who moves first) on rows 2-4 and 7,
  White on the mirror image, rows 19-17 and 14 (the Eureka / ZRF setup).
* A *piece* is any 3x3 footprint whose centre is on the inner board and which holds
  at least one stone of the mover and none of the opponent. It can move in the
  direction of each of its eight outer squares that holds a stone; with a stone in
  the centre it may go any distance, otherwise at most three squares.
* The footprint moves as a unit, all its stones (and empty squares) together, one
  square at a time. As soon as it overlaps other stones (either colour), those are
  removed and the move ends there; it cannot jump. The centre must stay on the
  inner board; stones carried onto the outer ring are removed.
* A *ring* is an empty square surrounded by eight stones of one colour. A player
  with no ring after any move -- the mover included, so breaking one's own last
  ring loses even if it breaks the opponent's too -- loses; otherwise a player
  who leaves the opponent without a ring wins. There is no passing. As goals: a ring
  is a :class:`~boardlab.core.goals.RelativeConfig` (an empty square, then its eight
  neighbours); the player :class:`~boardlab.core.goals.ToMove` wins when the opponent
  (the mover) has none, else a player without one loses.

Decisions, where sources differ: the original article also allows footprints
centred on the outer ring; Wikipedia's earlier text, chessvariants.com and the
Zillions/Dagaz implementation keep the centre on the inner board, as here. The
published rules have no draw; to make every game finite, option ``move_limit``
(default 400 plies) draws a game that reaches it.

Moves are written with the footprint's centre before and after, ``l3-l6``; the
move's ``tag`` is the pair of centre cells. The rules are the move language's: one
:class:`~boardlab.core.templates.Footprint` template (GESS moves patterns, not pieces), and
the end is goals, so the game plays on its kernel (:mod:`boardlab.core.kernel`); the
state is the generic :class:`~boardlab.core.position.PieceState`, so the text form is
the 20 rows from the top (``b`` Black, ``w`` White, ``.`` empty), the side to move and
the ply count.
Selecting stones in a UI selects the whole piece: the closure of a selection under a
move adds every own stone of that move's footprint.

Perft from the start: 416, 132704 (checked against the independent brute
force in tests/games/test_gess.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from boardlab.core.board import Board
from boardlab.core.game import Option, State
from boardlab.core.goals import AllOf, Condition, Goals, NotGoal, RelativeConfig, ToMove
from boardlab.core.move import Move, Piece
from boardlab.core.position import PieceGame, PieceState
from boardlab.core.registry import register
from boardlab.core.rules import Footprint, Rules
from boardlab.core.ruleset import RuleSet
from boardlab.errors import NotationError

SIZE = 20  # the grid, outer ring included
BLACK, WHITE = Piece(0, "stone"), Piece(1, "stone")
OFFSETS = tuple((dx, dy) for dy in (1, 0, -1) for dx in (-1, 0, 1))
SHORT_RANGE = 3

# Black's stones in the start position, rows 2, 3, 4 and 7 of columns b..s.
_HOME = (".X.X.XXXXXXXX.X.X.", "XXX.X.XXXX.X.X.XXX", ".X.X.XXXXXXXX.X.X.")
_PAWNS = ".X..X..X..X..X..X."


def inner(x: int, y: int) -> bool:
    """Whether ``(x, y)`` is on the 18x18 playing area."""
    return 1 <= x <= SIZE - 2 and 1 <= y <= SIZE - 2


def footprint(centre: int) -> list[int]:
    """The nine cells of the footprint centred on ``centre`` (an inner cell)."""
    return [centre + dy * SIZE + dx for dx, dy in OFFSETS]


def ring(owner: str) -> RelativeConfig:
    """A ring of ``owner``'s stones (``"self"`` or ``"opponent"``) as a goal: an empty
    square, then its eight neighbours, walked round from the north."""
    stone = (owner, "stone")
    walk = ("n", "e", "s", "s", "w", "w", "n", "n")
    return RelativeConfig((("any", "empty"), *(i for d in walk for i in (d, stone))))


#: Each square a ring can surround (its eight neighbours on the playing area), with them.
_RING_SPOTS = tuple((y * SIZE + x, tuple(y * SIZE + x + dy * SIZE + dx
                                          for dx, dy in OFFSETS if dx or dy))
                    for y in range(2, SIZE - 2) for x in range(2, SIZE - 2))


def ring_counts(cells: Sequence[Piece | None]) -> tuple[int, int]:
    """How many rings Black and White have, in one pass over the empty squares (a
    bot's evaluation reads it at every leaf)."""
    counts = [0, 0]
    for c, around in _RING_SPOTS:
        if cells[c] is not None:
            continue
        first = cells[around[0]]
        if first is None:
            continue
        owner = first.owner
        for a in around:
            p = cells[a]
            if p is None or p.owner != owner:
                break
        else:
            counts[owner] += 1
    return counts[0], counts[1]


@register
class Gess(PieceGame):
    """GESS: move 3x3 patterns of stones; keep a ring, destroy the opponent's."""

    name = "gess"
    description = "GESS (Archimedeans 1994): 3x3 footprints of stones move like chess pieces"
    source = ("Paul Bolchover, 'Gess the Game', Eureka 53 (1994); Wikipedia, 'Gess'; "
              "chessvariants.com, 'GESS'; Dagaz gess.zrf")
    player_names = ("black", "white")
    board_style = "intersections"
    pieces = {"b": BLACK, "w": WHITE}
    option_schema = (
        Option("move_limit", 400, "plies after which the game is drawn",
               minimum=10, maximum=100_000),
    )
    #: Computed by this module and by the independent brute force of tests/games/test_gess.py
    #: (depth 3: 445 s and 1,102 s in Python, about 2 s on the kernel, which the tests
    #: check; the brute force checks depths 1-2 there, benchmarks/perft_reference.py all).
    known_perft = (416, 132704, 41429344)

    def make_ruleset(self) -> RuleSet:
        """The 20x20 grid, outer ring included (footprints overlap it), zone ``inner``
        the 18x18 playing area for both players; Black on rows 2-4 and 7, White on the
        mirror image (rows 19-17 and 14); one :class:`~boardlab.core.templates.Footprint`
        template: the 3x3 footprints centred on the inner board, three cells at most
        without a centre stone. The player to move wins when the opponent, who just
        moved, has no ring (the mover's own last ring broken loses even if the move
        broke the other's too); otherwise a player without a ring loses. A player
        without a move loses; ``move_limit`` plies draw."""
        board = Board.square(SIZE, SIZE)
        inside = [board.cell_name(y * SIZE + x) for y in range(SIZE) for x in range(SIZE)
                  if inner(x, y)]
        board = board.with_zone("inner", 0, inside).with_zone("inner", 1, inside)
        placement: dict[str, Piece] = {}
        rows = {1: _HOME[0], 2: _HOME[1], 3: _HOME[2], 6: _PAWNS}
        for y, pattern in rows.items():
            for i, mark in enumerate(pattern):
                if mark == "X":
                    placement[board.cell_name(y * SIZE + i + 1)] = BLACK
                    placement[board.cell_name((SIZE - 1 - y) * SIZE + i + 1)] = WHITE
        goals = Goals((
            Condition("win", (0, 1), AllOf((ToMove(), NotGoal(ring("opponent"))))),
            Condition("loss", (0, 1), NotGoal(ring("self"))),
        ), 2)
        return self.named_ruleset(
            board=board, placement=placement,
            rules=Rules((Footprint((), name="footprint", zone="inner", reach=SHORT_RANGE),)),
            goals=goals, ply_limit=self.options["move_limit"])

    def parse_state(self, text: str) -> PieceState:
        """The text form; stones on the outer ring are refused."""
        state = super().parse_state(text)
        for cell, _ in state.occupied():
            x, y = divmod(cell, SIZE)[::-1]
            if not inner(x, y):
                raise NotationError("no stone may stand on the outer ring",
                                    where=self.board.cell_name(cell))
        return state

    def max_length(self) -> int:
        """The move limit."""
        return self.options["move_limit"]

    def move_arrow(self, move: Move) -> tuple[int, int] | None:
        """The footprint's centre before and after ``move`` (its tag), the cells the
        notation names."""
        return move.tag if isinstance(move.tag, tuple) else None

    def closure(self, state: State, group: Sequence[int], move: Move) -> list[int]:
        """The selection plus every own stone of ``move``'s footprint: clicking any
        stone of a piece selects the piece."""
        assert isinstance(state, PieceState)
        origin = move.tag[0] if isinstance(move.tag, tuple) else None
        selected = list(group)
        if origin is None:
            return selected
        for c in footprint(origin):
            p = state.cells[c]
            if p is not None and p.owner == state.to_move and c not in selected:
                selected.append(c)
        return selected

    def group_moves(self, state: State, group: Iterable[int]) -> list[Move]:
        """The legal moves of pieces whose own stones are exactly ``group``."""
        assert isinstance(state, PieceState)
        wanted = frozenset(group)
        return [m for m in state.legal_moves()
                if frozenset(c for c in footprint(m.tag[0])
                             if state.cells[c] is not None) == wanted]

    def evaluate(self, state: State, player: int) -> float | None:
        """Rings first, then stones."""
        assert isinstance(state, PieceState)
        cells = state.cells
        counts = ring_counts(cells)
        rings = counts[player] - counts[1 - player]
        stones = 0
        for _, p in state.occupied():
            stones += 1 if p.owner == player else -1
        return max(-1.0, min(1.0, 0.3 * rings + stones / 60))
