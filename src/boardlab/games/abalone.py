"""Abalone, written in boardlab's move language.

Rules (Michel Lalet & Laurent Lévi, 1987; the official rules leaflet of Abalone S.A.,
summarised by Wikipedia, "Abalone (board game)", and by the World of Abstract Games
page, jpneto.github.io/world_abstract_games/abalone.htm): a hexagonal board of 61
cells, five on a side, named a1..i9 (rows a-i from Black's side, diagonals 1-9).
Each player has 14 marbles; Black moves first. A move shifts one, two or three of
the mover's marbles standing in a straight line one cell in one direction:

* **in-line** (along the line): the leading marble steps into an empty cell, or
  pushes opposing marbles in line with it (*sumito*) when the pushing line
  outnumbers them - 3 against 2, 3 against 1, 2 against 1 (never 1 v 1, 2 v 2,
  3 v 3, and never more than three own marbles) - and the cell beyond the pushed
  marbles is empty or off the board. An own marble behind the opponents blocks the
  push, as does a further opponent marble (a 3 v 2 followed by a third is 3 v 3);
* **broadside** (sideways): two or three marbles in a line each step one cell in
  the same direction off their line, every target empty; no pushing.

A marble pushed off the board is out of play. The first player to push six
opposing marbles off wins: the game ends by the goal
:class:`~boardlab.core.goals.PiecesLost` (six of a side's marbles gone from the board).

The game runs on its kernel (:mod:`boardlab.core.kernel`): an in-line move's last step
may leave the board, where the kernel's cursor is off the board and the pushed marble is
taken.

Endings beyond that: the official rules have no move limit or repetition rule
(tournament games are drawn by agreement or adjudicated; the MSO 1999 arbiter's
report scores drawn games 3-3). So random games end, boardlab adds the option ``max_moves``
(default 200 moves in all, 100 each): when it is reached the game is a draw. This is
boardlab's addition, not a published rule. A player without a legal move (a
position no real game reaches) loses, boardlab's choice too.

Starts (option ``start``): ``standard`` (the rules leaflet), ``belgian-daisy`` (the
position the Mind Sports Olympiad's top players petitioned for in 1999 as the
tournament start; the ZRF calls it ``marguerite``, kept as an alias),
``german-daisy`` (the other common tournament start, as on Board Game Arena), and
the variants of the Zillions/Dagaz rule file ``abalone.zrf``: ``dutch-daisy`` and
``swiss-daisy`` (the Belgian and German daisies with the two daisy centres
exchanged between the colours), ``fujiyama``, ``alien-attack``, ``the-wall`` and
``snakes``. The ZRF names cells by file and rank on its own grid; ZRF ``fR`` is
Abalone cell row ``R``, diagonal ``f + R - 4`` (files a=0..i=8), so ZRF ``e1`` is
a1 and ``a9`` is i5. Every start has 14 marbles each and is fair: a symmetry of
the hexagon maps Black's marbles onto White's (a half turn for the standard start,
Fujiyama, Alien Attack, The Wall and Snakes; a mirror for the daisies).

Notation (Wikipedia's "popular notation"): an in-line move is the movement of its
trailing marble, ``a1b2`` (the line from a1 moves one step, a1 to b2); a broadside
move is the two end marbles of the line and the target of the first one,
``a1a3b2`` (a1, a2, a3 move to b2, b3, b4). To make broadside notation unique the
end marble with the lower name (row, then diagonal) is written first.

Text form: the marbles as ``cell=symbol`` (``b`` black, ``w`` white), then the side
to move and the number of moves played (``ply:N``), as in
``a1=b,a2=b,...,i9=w black``. Marbles off the board are 14 minus those on it.

Selecting a group in a UI uses Dagaz's Abalone closure (:func:`push_closure`): a
selected marble brings in the own marbles its in-line move pushes along.
Perft from the standard start (an independent generator in the tests): 44, 1936,
98912.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from boardlab.core.board import Board
from boardlab.core.game import Option, State
from boardlab.core.goals import Condition, Goals, PiecesLost
from boardlab.core.move import Move, Piece, Shift
from boardlab.core.position import PieceGame, PieceState
from boardlab.core.registry import register
from boardlab.core.rules import (
    EMPTY,
    ENEMY,
    FRIEND,
    ON_BOARD,
    Add,
    Back,
    Cascade,
    If,
    Inc,
    Instruction,
    Less,
    Mark,
    Rules,
    SetVar,
    Step,
    Template,
    To,
    Var,
    Verify,
    While,
    not_,
)
from boardlab.core.ruleset import RuleSet
from boardlab.core.selection import push_closure

BLACK, WHITE = Piece(0, "marble"), Piece(1, "marble")
MARBLES = 14
TO_WIN = 6
MAX_LINE = 3

#: The three axes of the board and the four sideways directions of each.
AXES = ("e", "ne", "nw")
DIRECTIONS = ("e", "w", "ne", "sw", "nw", "se")
OPPOSITE = {"e": "w", "w": "e", "ne": "sw", "sw": "ne", "nw": "se", "se": "nw"}


def _cells(text: str) -> tuple[str, ...]:
    return tuple(text.split())


#: Start name -> (Black's cells, White's cells), in Abalone's names.
STARTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "standard": (_cells("a1 a2 a3 a4 a5 b1 b2 b3 b4 b5 b6 c3 c4 c5"),
                 _cells("i5 i6 i7 i8 i9 h4 h5 h6 h7 h8 h9 g5 g6 g7")),
    "belgian-daisy": (_cells("a1 a2 b1 b2 b3 c2 c3 g7 g8 h7 h8 h9 i8 i9"),
                      _cells("a4 a5 b4 b5 b6 c5 c6 g4 g5 h4 h5 h6 i5 i6")),
    "german-daisy": (_cells("b1 b2 c1 c2 c3 d2 d3 f7 f8 g7 g8 g9 h8 h9"),
                     _cells("b5 b6 c5 c6 c7 d6 d7 f3 f4 g3 g4 g5 h4 h5")),
    "dutch-daisy": (_cells("a1 a2 b1 b5 b3 c2 c3 g7 g8 h7 h5 h9 i8 i9"),
                    _cells("a4 a5 b4 b2 b6 c5 c6 g4 g5 h4 h8 h6 i5 i6")),
    "swiss-daisy": (_cells("b1 b2 c1 c6 c3 d2 d3 f7 f8 g7 g4 g9 h8 h9"),
                    _cells("b5 b6 c5 c2 c7 d6 d7 f3 f4 g3 g8 g5 h4 h5")),
    "fujiyama": (_cells("b3 b4 c4 i5 i6 i7 i8 i9 h5 h8 g5 g7 f5 f6"),
                 _cells("h6 h7 g6 a1 a2 a3 a4 a5 b2 b5 c3 c5 d4 d5")),
    "alien-attack": (_cells("b3 b4 c3 c5 i5 i7 i9 h5 h8 g4 g6 g8 f5 f6"),
                     _cells("h6 h7 g5 g7 a1 a3 a5 b2 b5 c2 c4 c6 d4 d5")),
    "the-wall": (_cells("f2 f3 f4 f5 f6 f7 f8 f9 g4 g5 g6 g7 g8 i7"),
                 _cells("d1 d2 d3 d4 d5 d6 d7 d8 c2 c3 c4 c5 c6 a3")),
    "snakes": (_cells("f6 f5 e4 d3 d2 e2 f2 g3 h4 i5 i6 i7 i8 i9"),
               _cells("d4 d5 e6 f7 f8 e8 d8 c7 b6 a5 a4 a3 a2 a1")),
}
STARTS["marguerite"] = STARTS["belgian-daisy"]


def inline(d: str) -> tuple[Instruction, ...]:
    """An in-line move of 1-3 own marbles in direction ``d``, run from the trailing
    marble: the line cascades forward; into an empty cell it stops, into opponents
    it pushes them (sumito) while they are fewer, off the board or into an empty
    cell."""
    return (
        SetVar("own", 1),
        Step(d),
        While(FRIEND, (Inc("own"), Verify(Less(Var("own"), MAX_LINE + 1)),
                       Cascade(), Step(d))),
        If(EMPTY, (Add(),)),
        Verify(ENEMY),
        SetVar("pushed", 0),
        While(ENEMY, (Inc("pushed"), Verify(Less(Var("pushed"), Var("own"))),
                      Cascade(), Step(d, may_leave=True))),
        If(not_(ON_BOARD), (Add(),)),
        Verify(EMPTY),
        Add(),
    )


def broadside(axis: str, d: str) -> tuple[Instruction, ...]:
    """A sideways move of 2 or 3 own marbles on ``axis``, each one step to ``d``, run
    from the first marble: mark, step aside, put down now (``To``), back, step along
    the line to the next marble, pick it up (``Cascade``), ... (ZRF's side-2/side-3)."""
    return (
        Mark(), Step(axis), Verify(FRIEND), Back(),  # fail fast: no partner, no move
        Step(d), Verify(EMPTY), To(), Back(),
        Step(axis), Verify(FRIEND), Mark(), Cascade(), Step(d), Verify(EMPTY), Add(),
        To(), Back(),
        Step(axis), Verify(FRIEND), Cascade(), Step(d), Verify(EMPTY), Add(),
    )


def sideways(axis: str) -> tuple[str, ...]:
    """The four directions off ``axis``."""
    return tuple(d for d in DIRECTIONS if d not in (axis, OPPOSITE[axis]))


@register
class Abalone(PieceGame):
    """Abalone: push six opposing marbles off the hexagon."""

    name = "abalone"
    description = "Abalone (Lalet & Lévi 1987): push six opposing marbles off the hexagon"
    source = ("Michel Lalet & Laurent Lévi, 1987, official rules (Abalone S.A.); "
              "Wikipedia, 'Abalone (board game)' (rules, notation, daisy starts); "
              "MSO 1999 players' petition (Belgian daisy); Dagaz abalone.zrf (variants)")
    player_names = ("black", "white")
    pieces = {"b": BLACK, "w": WHITE}
    option_schema = (
        Option("start", "standard", "starting position",
               choices=tuple(STARTS)),
        Option("max_moves", 200, "moves in all after which the game is drawn "
               "(boardlab's addition: the official rules have no limit)",
               minimum=1, maximum=100_000),
    )
    known_perft = (44, 1936, 98912)

    def make_ruleset(self) -> RuleSet:
        """Abalone's 61-cell hexagon (cells a1..i9) with the chosen start; in-line
        moves and pushes in the six directions, broadsides of 2-3 marbles on each of
        the three axes in the four sideways directions. A side with six marbles pushed
        off loses, a side without a move loses, ``max_moves`` draw."""
        black, white = STARTS[self.options["start"]]
        templates = [Template(inline(d), name="inline", direction=d) for d in DIRECTIONS]
        templates += [Template(broadside(axis, d), name="broadside", direction=d)
                      for axis in AXES for d in sideways(axis)]
        return self.named_ruleset(
            board=Board.hexagon(5),
            placement={**dict.fromkeys(black, BLACK), **dict.fromkeys(white, WHITE)},
            rules=Rules(templates),
            goals=Goals((Condition("loss", (0, 1), PiecesLost(TO_WIN)),), 2),
            ply_limit=self.options["max_moves"])

    def off_board(self, state: PieceState, player: int) -> int:
        """How many of ``player``'s marbles have been pushed off."""
        return MARBLES - sum(1 for p in state.cells if p is not None and p.owner == player)

    def max_length(self) -> int:
        """The move limit."""
        return self.options["max_moves"]

    #: The notation reads the move's actions (and the side to move), not the position.
    notation_reads_position = False

    def notation(self, state: PieceState, actions: tuple) -> str:
        """``a1b2`` for an in-line move (the trailing marble's step), ``a1a3b2`` for a
        broadside (the end marbles, lower first, and the first one's target)."""
        # The templates emit the trailing (in-line) or first (broadside) marble's shift
        # first; broadsides run along e, ne or nw, so their first marble has the
        # lowest name. An in-line move's first shift ends where the second starts.
        name = self.board.cell_name
        first = actions[0]
        second = actions[1] if len(actions) > 1 else None
        if not isinstance(second, Shift) or first.target == second.source:
            return f"{name(first.source)}{name(first.target)}"
        last = actions[-1]
        return f"{name(first.source)}{name(last.source)}{name(first.target)}"

    def closure(self, state: State, group: Sequence[int], move: Move) -> list[int]:
        """Dagaz's Abalone closure: the own marbles an in-line move pushes join."""
        return push_closure(state, group, move)

    def evaluate(self, state: State, player: int) -> float | None:
        """Material (marbles pushed off) first, then marbles near the centre and
        marbles touching each other (cohesion), each side's minus the other's."""
        assert isinstance(state, PieceState)
        board = self.board
        cells = state.cells
        opponent = 1 - player
        material = (self.off_board(state, opponent) - self.off_board(state, player)) / TO_WIN
        distance = [0, 0]
        touching = [0, 0]
        count = [0, 0]
        for cell, piece in state.occupied():
            q, r = board.coords[cell]
            owner = piece.owner
            count[owner] += 1
            distance[owner] += max(abs(q), abs(r), abs(q - r))
            for row in board.links[:6]:
                nxt = row[cell]
                if nxt >= 0 and (other := cells[nxt]) is not None and other.owner == owner:
                    touching[owner] += 1
        if not count[0] or not count[1]:
            return max(-1.0, min(1.0, material))

        def centre(p: int) -> float:
            return 1 - distance[p] / (4 * count[p])

        def cohesion(p: int) -> float:
            return touching[p] / (6 * count[p])

        score = (0.7 * material + 0.2 * (centre(player) - centre(opponent))
                 + 0.1 * (cohesion(player) - cohesion(opponent)))
        return max(-1.0, min(1.0, score))


def marbles_off(state: PieceState) -> Mapping[str, int]:
    """Marbles pushed off so far, by player name."""
    game = state.game
    assert isinstance(game, Abalone)
    return {name: game.off_board(state, p) for p, name in enumerate(game.player_names)}

