"""Moves as immutable lists of atomic actions.

Every game, however its moves are generated, expresses a move as a tuple of
actions on board cells (integers indexing a :class:`~boardlab.core.board.Board`):

* :class:`Shift` moves a piece from one cell to another (``a1-b2``);
* :class:`Capture` removes the piece on a cell (``xb2``);
* :class:`Place` drops a piece, from its owner's reserve or created (``X@b2``);
* :class:`Change` replaces the piece on a cell, changing its type or owner (``b2=Q``),
  optionally with a piece from its owner's reserve.

Actions of one move happen *simultaneously*: all captures and lifts first, then
all drops, then all changes. That is what makes a push of a line of pieces (each
moving into the cell the next one leaves) a plain list of shifts.

A move also carries its notation, the string a player types. Games choose their
notation; :func:`format_actions` gives a generic one that :func:`parse_actions`
reads back, all but the ``from_reserve`` flags (where a placed or promoted piece comes
from is the position's business: a move typed is found among the legal moves).
"""

from __future__ import annotations

import re
from collections import namedtuple
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from boardlab.errors import NotationError

if TYPE_CHECKING:
    from boardlab.core.board import Board


class Piece(NamedTuple):
    """A piece: its owner (player index), its type name and the names of its attributes
    that are true (ZRF ``attribute``; they travel with the piece). A named tuple, for the
    speed of the comparisons and hashes move generation and goals make of pieces."""

    owner: int
    kind: str = "man"
    attributes: frozenset[str] = frozenset()

    def __str__(self) -> str:
        return f"{self.owner}:{self.kind}"

    def with_attributes(self, values: dict[str, bool]) -> Piece:
        """The piece with the attributes in ``values`` set or cleared."""
        on = {name for name, value in values.items() if value}
        off = {name for name, value in values.items() if not value}
        return Piece(self.owner, self.kind, (self.attributes - off) | on)


# The actions are named tuples, not dataclasses: move generation makes millions of them,
# and a tuple is built, hashed and compared in C (a frozen dataclass in Python code).
class Shift(NamedTuple):
    """Move the piece on ``source`` to ``target``."""

    source: int
    target: int


class Capture(NamedTuple):
    """Remove the piece on ``cell`` from the board."""

    cell: int


class Place(NamedTuple):
    """Put ``piece`` on the empty ``cell``; ``from_reserve`` takes it from its owner's hand."""

    cell: int
    piece: Piece
    from_reserve: bool = False


class Change(NamedTuple):
    """Replace the piece on ``cell`` (after shifts) by ``piece``: promotion or conversion.
    ``from_reserve`` takes the new piece from its owner's hand (ZRF ``recycle
    promotions``): one piece of its owner and type leaves the hand (see
    :func:`in_hand`), and the piece it replaces leaves the game."""

    cell: int
    piece: Piece
    from_reserve: bool = False


def _kind_eq(self: tuple, other: object) -> bool:
    # A Place and a Change of one cell and piece are equal tuples, and different
    # actions: one puts a piece on an empty cell, the other replaces one (two moves
    # that differ so are two moves; a set of moves kept one of them).
    return type(other) is type(self) and tuple.__eq__(self, other)  # type: ignore[arg-type]


def _kind_ne(self: tuple, other: object) -> bool:
    return not _kind_eq(self, other)


def _kind_hash(self: tuple) -> int:
    return hash((type(self).__name__, tuple.__hash__(self)))


for _action in (Place, Change):
    _action.__eq__ = _kind_eq  # type: ignore[method-assign,assignment]
    _action.__ne__ = _kind_ne  # type: ignore[method-assign,assignment]
    _action.__hash__ = _kind_hash  # type: ignore[method-assign,assignment]

#: Any of the four atomic actions a move is made of.
Action = Shift | Capture | Place | Change


def in_hand(reserves: Mapping[Piece, int], owner: int, kind: str) -> Piece | None:
    """The piece of ``owner`` and ``kind`` a move takes from the hand ``reserves``: the
    first such piece (they differ only by their attributes) of which the hand holds
    some, or None when it holds none.

    >>> in_hand({Piece(0, "queen"): 0, Piece(0, "queen", frozenset({"moved"})): 2}, 0, "queen")
    Piece(owner=0, kind='queen', attributes=frozenset({'moved'}))
    >>> in_hand({Piece(0, "queen"): 1}, 1, "queen") is None
    True
    """
    for piece, count in reserves.items():
        if count > 0 and piece.kind == kind and piece.owner == owner:
            return piece
    return None


_MoveFields = namedtuple("_MoveFields", ("text", "actions", "tag"), defaults=((), None))


class Move(_MoveFields):
    """An immutable move: a notation string and the actions it performs.

    Two moves are equal when both their notation and their actions are equal.
    ``tag`` is free for a game's own use (for example a move class name or a
    direction) and does not take part in equality. (A tuple, built in C: move
    generation makes millions; it compares and hashes as the class says, not as a
    tuple.)

    The notation may be *deferred*: ``Move(spell, actions)`` with ``spell`` a callable
    (a :class:`Spelling`) that writes it from the actions the first time it is read, so
    a search that never shows its moves never writes them.

    >>> Move("b2", (Place(4, Piece(0, "X")),))
    Move('b2')
    >>> Move("b2", (), tag="drop") == Move("b2", ())
    True
    """

    __slots__ = ()

    def __new__(cls, notation: str | Spelling, actions: tuple[Action, ...] = (),
                tag: object = None) -> Move:
        return tuple.__new__(cls, (notation, actions, tag))

    @property
    def notation(self) -> str:
        """The notation a player types."""
        text = self[0]
        return text if type(text) is str else text(self[1])

    def __eq__(self, other: object) -> bool:
        return type(other) is Move and self[1] == other[1] and self.notation == other.notation

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        # The actions alone: equal moves have equal actions, and a deferred notation
        # is not written to hash a move.
        return hash(self[1])

    def __lt__(self, other: object) -> bool:
        # Moves have no order (as before they were tuples); sort them by a key.
        return NotImplemented

    __le__ = __gt__ = __ge__ = __lt__

    def __getnewargs__(self) -> tuple[str, tuple[Action, ...], object]:
        # Pickled with its notation written (a deferred one refers to the game).
        return (self.notation, self[1], self[2])

    def __reduce__(self) -> tuple[type, tuple[str, tuple[Action, ...], object]]:
        return (Move, self.__getnewargs__())

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"Move({self.notation!r})"

    def moved_cells(self) -> list[tuple[int, int]]:
        """The (source, target) pairs of the move's shifts, in order."""
        return [(a.source, a.target) for a in self.actions if isinstance(a, Shift)]


class Spelling:
    """The deferred notation of the moves of one position: ``write(actions)`` gives a
    move's notation; each is written once, when first read."""

    __slots__ = ("write", "known")

    def __init__(self, write: Callable[[tuple[Action, ...]], str]):
        self.write = write
        self.known: dict[tuple, str] = {}

    def __call__(self, actions: tuple[Action, ...]) -> str:
        # Keyed by the actions alone: a Place and a Change of one cell and piece
        # compare and hash apart (a game kernel spells the moves of every position
        # with one Spelling, where both meet).
        text = self.known.get(actions)
        if text is None:
            text = self.known[actions] = self.write(actions)
        return text


class Noted:
    """The deferred notation of a move whose notation is another's followed by ``note``
    (a choice the actions alone do not show: see
    :class:`~boardlab.core.templates.KeepLargestGroup`)."""

    __slots__ = ("spelling", "note")

    def __init__(self, spelling: Callable[[tuple[Action, ...]], str], note: str):
        self.spelling = spelling
        self.note = note

    def __call__(self, actions: tuple[Action, ...]) -> str:
        return self.spelling(actions) + self.note


class Mover:
    """What a deferred notation may read of the position: the game and the side to
    move (see :attr:`~boardlab.core.position.PieceGame.notation_reads_position`)."""

    __slots__ = ("game", "to_move")

    def __init__(self, game: object, to_move: int):
        self.game = game
        self.to_move = to_move


def format_action(action: Action, board: Board, piece_names: dict[Piece, str] | None = None
                  ) -> str:
    """The generic notation of one action on ``board``."""
    name = board.cell_name
    if isinstance(action, Shift):
        return f"{name(action.source)}-{name(action.target)}"
    if isinstance(action, Capture):
        return f"x{name(action.cell)}"
    if isinstance(action, Place):
        return f"{_piece_text(action.piece, piece_names)}@{name(action.cell)}"
    return f"{name(action.cell)}={_piece_text(action.piece, piece_names)}"


def format_actions(actions: Sequence[Action], board: Board,
                   piece_names: dict[Piece, str] | None = None) -> str:
    """The generic notation of a move: its actions separated by spaces.

    >>> from boardlab.core.board import Board
    >>> b = Board.square(3, 3)
    >>> format_actions([Shift(0, 4), Capture(8)], b)
    'a1-b2 xc3'
    """
    return " ".join(format_action(a, board, piece_names) for a in actions)


_ACTION = re.compile(
    r"^(?:(?P<src>[^\s@=x-][^\s@=-]*)-(?P<dst>[^\s@=-]+)"
    r"|x(?P<cap>[^\s@=-]+)"
    r"|(?P<drop>[^\s@=-]+)@(?P<at>[^\s@=-]+)"
    r"|(?P<cell>[^\s@=-]+)=(?P<to>[^\s@=-]+))$"
)


def parse_actions(text: str, board: Board, piece_names: dict[Piece, str] | None = None
                  ) -> tuple[Action, ...]:
    """Read the generic notation written by :func:`format_actions`.

    Raises :class:`NotationError` naming the token that is malformed or the cell
    that does not exist.

    >>> from boardlab.core.board import Board
    >>> parse_actions("a1-b2 xc3", Board.square(3, 3))
    (Shift(source=0, target=4), Capture(cell=8))
    """
    if not text.strip():
        raise NotationError("empty move", where=repr(text))
    by_name = {v: k for k, v in (piece_names or {}).items()}

    def cell(name: str) -> int:
        if not board.has_cell(name):
            raise NotationError("no such cell on this board", where=repr(name))
        return board.cell(name)

    actions: list[Action] = []
    for token in text.split():
        m = _ACTION.match(token)
        if m is None:
            raise NotationError("not an action (expected a1-b2, xb2, P@b2 or b2=P)",
                                where=repr(token))
        if m["src"] is not None:
            actions.append(Shift(cell(m["src"]), cell(m["dst"])))
        elif m["cap"] is not None:
            actions.append(Capture(cell(m["cap"])))
        elif m["drop"] is not None:
            actions.append(Place(cell(m["at"]), _piece_from_text(m["drop"], by_name)))
        else:
            actions.append(Change(cell(m["cell"]), _piece_from_text(m["to"], by_name)))
    return tuple(actions)


def _piece_text(piece: Piece, names: dict[Piece, str] | None) -> str:
    if names and piece in names:
        return names[piece]
    return f"{piece.owner}:{piece.kind}"


def _piece_from_text(text: str, by_name: dict[str, Piece]) -> Piece:
    if text in by_name:
        return by_name[text]
    owner, sep, kind = text.partition(":")
    if not sep or not owner.isdigit() or not kind:
        raise NotationError("unknown piece", where=repr(text))
    return Piece(int(owner), kind)
