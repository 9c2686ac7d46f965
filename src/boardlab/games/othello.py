"""Othello (modern Reversi) on the standard 8x8 board.

Rules (World Othello Federation rules; see e.g. Wikipedia, "Reversi"): the game
starts with white discs on d4 and e5 and black discs on d5 and e4; black moves
first. A move puts a disc of one's colour on an empty cell so that one or more
straight lines (horizontal, vertical or diagonal) of the opponent's discs lie
between it and another disc of one's colour; all those opponent discs are flipped.
A player without such a placement passes, but only if the opponent can move; when
neither player can move the game ends and the player with more discs wins (equal
counts draw).

Moves are written as the cell's name, ``a1`` to ``h8``, or ``pass``. Cells use
Othello's usual names: files a..h from left to right, rows 1..8 from the *top*, so
the first moves are d3, c4, f5 and e6. The text form is FEN-like: the rows 1 to 8
(top to bottom), ``/``-separated, ``.`` for an empty cell, ``x`` for black and ``o``
for white, then the side to move:
``......../......../......../...ox.../...xo.../......../......../........ x``.

A move's actions are the :class:`~boardlab.core.move.Place` of the new disc and one
:class:`~boardlab.core.move.Change` per flipped disc; ``pass`` has no actions.

Perft from the start (passes count as moves, terminal positions are not expanded):
4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571056 (OEIS A124004,
"number of possible Reversi games at the end of the n-th ply").

Internally each colour is a 64-bit bitboard (a Python int); moves are generated
for all cells at once by shifting the mover's discs across runs of the opponent's.
"""

from __future__ import annotations

from boardlab.core.board import Board
from boardlab.core.game import DRAW, Game, IncrementalState, Returns, State, win_for, zobrist_table
from boardlab.core.move import Change, Move, Piece, Place
from boardlab.core.registry import register
from boardlab.errors import NotationError

SIZE = 8
# Board.square names cell y * 8 + x as file x, row y + 1; Othello draws row 1 on top,
# so only drawing and text order differ from the board's own bottom-up picture.
BOARD = Board.square(SIZE, SIZE)
FULL = (1 << 64) - 1
FILE_A = sum(1 << (y * 8) for y in range(8))
FILE_H = FILE_A << 7
NOT_EDGE_FILES = FULL & ~FILE_A & ~FILE_H
#: (shift, mask of opponent discs a run may contain) per direction: a run going
#: east or west can never contain a disc on the a- or h-file, which stops wrapping.
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, NOT_EDGE_FILES), (-1, NOT_EDGE_FILES), (8, FULL), (-8, FULL),
    (9, NOT_EDGE_FILES), (7, NOT_EDGE_FILES), (-7, NOT_EDGE_FILES), (-9, NOT_EDGE_FILES),
)
SYMBOLS = ".xo"
PIECES = (Piece(0, "black"), Piece(1, "white"))
PLACES = tuple(tuple(Place(c, PIECES[p]) for c in range(64)) for p in range(2))
CHANGES = tuple(tuple(Change(c, PIECES[p]) for c in range(64)) for p in range(2))
PASS = Move("pass")
ZOBRIST = zobrist_table(2 * 64 + 1, "othello")
#: XOR of both colours' numbers: the key change when a disc is flipped.
ZOBRIST_FLIP = tuple(ZOBRIST[c] ^ ZOBRIST[64 + c] for c in range(64))
START_BLACK = (1 << BOARD.cell("d5")) | (1 << BOARD.cell("e4"))
START_WHITE = (1 << BOARD.cell("d4")) | (1 << BOARD.cell("e5"))
CORNERS = sum(1 << BOARD.cell(n) for n in ("a1", "h1", "a8", "h8"))


def placements(own: int, other: int) -> int:
    """The bitboard of cells where the owner of ``own`` may place a disc."""
    empty = FULL & ~(own | other)
    found = 0
    for shift, mask in DIRECTIONS:
        run = other & mask
        if shift > 0:
            x = (own << shift) & run
            x |= (x << shift) & run
            x |= (x << shift) & run
            x |= (x << shift) & run
            x |= (x << shift) & run
            x |= (x << shift) & run
            found |= (x << shift) & empty
        else:
            s = -shift
            x = (own >> s) & run
            x |= (x >> s) & run
            x |= (x >> s) & run
            x |= (x >> s) & run
            x |= (x >> s) & run
            x |= (x >> s) & run
            found |= (x >> s) & empty
    return found


def flips(cell: int, own: int, other: int) -> int:
    """The bitboard of ``other``'s discs flipped by ``own``'s disc placed on ``cell``."""
    start = 1 << cell
    flipped = 0
    for shift, mask in DIRECTIONS:
        run = other & mask
        line = 0
        if shift > 0:
            x = (start << shift) & FULL
            while x & run:
                line |= x
                x <<= shift
        else:
            s = -shift
            x = start >> s
            while x & run:
                line |= x
                x >>= s
        if x & own:
            flipped |= line
    return flipped


def cells_of(bits: int) -> list[int]:
    """The cells of a bitboard, in increasing order."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


@register
class Othello(Game):
    """Othello: outflank and flip the opponent's discs; most discs wins."""

    name = "othello"
    description = "Othello (Reversi) on 8x8: flip the opponent's discs, most discs wins"
    source = "World Othello Federation rules; Wikipedia, 'Reversi'; perft: OEIS A124004"
    player_names = ("black", "white")
    board_style = "lines"
    known_perft = (4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288)

    @property
    def board(self) -> Board:
        """The 8x8 board (cell ``y * 8 + x`` is file ``x``, row ``y + 1``)."""
        return BOARD

    def initial_state(self) -> OthelloState:
        """White on d4 and e5, black on d5 and e4; black to move."""
        return OthelloState(self, START_BLACK, START_WHITE, 0)

    def max_length(self) -> int:
        """At most 60 placements, and a pass is always followed by a placement."""
        return 120

    def parse_state(self, text: str) -> OthelloState:
        """Read ``rows/.../rows side`` (row 1 first), e.g. ``...ox...`` for row 4."""
        parts = text.split()
        if len(parts) != 2:
            raise NotationError("expected 'rows side', e.g. '......../.../...ox.../... x'",
                                where=repr(text))
        rows = parts[0].split("/")
        if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
            raise NotationError("expected eight rows of eight cells", where=repr(parts[0]))
        discs = [0, 0]
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                v = SYMBOLS.find(ch.lower())
                if v < 0:
                    raise NotationError(f"unknown disc {ch!r} (use x, o or .)",
                                        where=BOARD.cell_name(y * SIZE + x))
                if v:
                    discs[v - 1] |= 1 << (y * SIZE + x)
        if parts[1].lower() not in ("x", "o"):
            raise NotationError("side to move must be x (black) or o (white)",
                                where=repr(parts[1]))
        return OthelloState(self, discs[0], discs[1], "xo".index(parts[1].lower()))

    def evaluate(self, state: State, player: int) -> float | None:
        """Corners held, then mobility, then discs: each a difference scaled into
        [-1, 1], weighted 0.5, 0.35 and 0.15."""
        assert isinstance(state, OthelloState)
        own = state.discs[player]
        other = state.discs[1 - player]
        corners = ((own & CORNERS).bit_count() - (other & CORNERS).bit_count()) / 4
        mine = placements(own, other).bit_count()
        theirs = placements(other, own).bit_count()
        mobility = (mine - theirs) / (mine + theirs + 1)
        n_own, n_other = own.bit_count(), other.bit_count()
        discs = (n_own - n_other) / (n_own + n_other or 1)
        return 0.5 * corners + 0.35 * mobility + 0.15 * discs


class OthelloState(IncrementalState):
    """An Othello position: a bitboard per colour and the side to move, with the side
    to move's placements cached."""

    __slots__ = ("game", "discs", "_to_move", "_placements", "_result", "_history", "_key")

    def __init__(self, game: Othello, black: int, white: int, to_move: int):
        self.game = game
        self.discs = [black, white]
        self._to_move = to_move
        self._history: list[tuple[int, int, int, int, Returns | None]] = []
        self._key = ZOBRIST[128] * to_move
        for p in range(2):
            for cell in cells_of(self.discs[p]):
                self._key ^= ZOBRIST[p * 64 + cell]
        if black & white:
            raise NotationError("a cell holds two discs", where=BOARD.cell_name(
                cells_of(black & white)[0]))
        self._settle()

    def _settle(self) -> None:
        """Compute the side to move's placements and whether the game is over."""
        own = self.discs[self._to_move]
        other = self.discs[1 - self._to_move]
        self._placements = placements(own, other)
        self._result = None
        if not self._placements and not placements(other, own):
            black, white = self.discs[0].bit_count(), self.discs[1].bit_count()
            self._result = DRAW if black == white else win_for(0 if black > white else 1)

    def piece_at(self, cell: int) -> Piece | None:
        """The disc on ``cell``, or ``None``."""
        for p in range(2):
            if self.discs[p] >> cell & 1:
                return PIECES[p]
        return None

    def legal_moves(self) -> list[Move]:
        if self._result is not None:
            return []
        bits = self._placements
        if not bits:
            return [PASS]
        player = self._to_move
        own = self.discs[player]
        other = self.discs[1 - player]
        places = PLACES[player]
        changes = CHANGES[player]
        names = BOARD.names
        out = []
        while bits:
            low = bits & -bits
            bits ^= low
            cell = low.bit_length() - 1
            flipped = flips(cell, own, other)
            actions = [places[cell]]
            f = flipped
            while f:
                b = f & -f
                f ^= b
                actions.append(changes[b.bit_length() - 1])
            out.append(Move(names[cell], tuple(actions), tag=flipped))
        return out

    def apply(self, move: Move) -> None:
        player = self._to_move
        own = self.discs[player]
        other = self.discs[1 - player]
        self._history.append((own, other, self._key, self._placements, self._result))
        key = self._key ^ ZOBRIST[128]
        actions = move.actions
        if actions:
            cell = actions[0].cell  # type: ignore[union-attr]
            # Moves from legal_moves carry their flips as a bitboard in the tag.
            flipped = move.tag if isinstance(move.tag, int) else 0
            key ^= ZOBRIST[player * 64 + cell]
            for a in actions[1:]:
                key ^= ZOBRIST_FLIP[a.cell]  # type: ignore[union-attr]
                flipped |= 1 << a.cell  # type: ignore[union-attr]
            self.discs[player] = own | flipped | (1 << cell)
            self.discs[1 - player] = other & ~flipped
        self._key = key
        self._to_move = 1 - player
        self._settle()

    def undo(self) -> None:
        own, other, self._key, self._placements, self._result = self._history.pop()
        player = self._to_move = 1 - self._to_move
        self.discs[player] = own
        self.discs[1 - player] = other

    def clone(self) -> OthelloState:
        new = OthelloState.__new__(OthelloState)
        new.game = self.game
        new.discs = self.discs[:]
        new._to_move = self._to_move
        new._placements = self._placements
        new._result = self._result
        new._history = []
        new._key = self._key
        return new

    def signature(self) -> tuple[int, int, int]:
        return self.discs[0], self.discs[1], self._to_move

    def disc_counts(self) -> tuple[int, int]:
        """The number of black and white discs."""
        return self.discs[0].bit_count(), self.discs[1].bit_count()

    def _symbol(self, cell: int) -> str:
        b = 1 << cell
        return "x" if self.discs[0] & b else "o" if self.discs[1] & b else "."

    def __str__(self) -> str:
        rows = ["".join(self._symbol(y * SIZE + x) for x in range(SIZE)) for y in range(SIZE)]
        return "/".join(rows) + " " + "xo"[self._to_move]

    def check_notation(self, text: str) -> None:
        if text.lower() != "pass" and not BOARD.has_cell(text.lower()):
            raise NotationError("a move is a cell name, a1 to h8, or pass", where=repr(text))

    def render(self) -> str:
        lines = ["   a b c d e f g h"]
        for y in range(SIZE):
            row = " ".join(self._symbol(y * SIZE + x).upper() for x in range(SIZE))
            lines.append(f"{y + 1}  {row}")
        black, white = self.disc_counts()
        lines.append(f"black (X) {black}, white (O) {white}")
        return "\n".join(lines)
