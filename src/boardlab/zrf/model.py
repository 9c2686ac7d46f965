"""A rule file's game, read: players, turn order, board, pieces, setup, goals, options.

:func:`game_spec` takes the expanded forms of a file (:mod:`boardlab.zrf.reader`) and
one of its variants and returns a :class:`GameSpec`: everything the compiler needs, in
plain values, with every name checked against what the file declares. The rules of
reading follow ``docs/zrf-notes/semantics.md``:

* a file holds one or more games, each followed by its variants; a variant is the game
  before it with the sections the variant names replaced: pieces by name, options by
  name, goals all together (a variant with any condition replaces all the game's),
  anything else whole; a variant titled ``-`` is a menu separator, not a game; games and
  variants are numbered in file order from 0;
* a board's statements may come in any order: its positions are read first (grids,
  ``positions``, ``dummy`` positions, which exist off the board and are not drawn), then
  its links, then its symmetries and zones; a grid's positions are named by joining one
  label of each dimension, in dimension order; a direction is one step of label index
  per dimension (missing steps are 0); several grids add up, ``links`` adds one-way
  links, ``unlink`` removes links both ways, ``kill-positions`` removes cells,
  ``symmetry`` renames directions per player, ``zone`` is per player; a direction's
  opposite negates its grid steps, or else undoes its links;
* a turn of the turn order is ``PLAYER``, ``(PLAYER MOVE-TYPE)``, ``(PLAYER OWNER)`` or
  ``(PLAYER OWNER MOVE-TYPE)`` (PLAYER moves OWNER's pieces, seen from OWNER's side);
  a player whose name starts with ``?`` moves at random;
* a move block's ``(move-type T)`` statement types every following block of the piece.

Sounds, images, help and descriptions are kept or ignored; they never stop a file from
loading. A rule-bearing form boardlab does not know is refused with its place.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from boardlab.core.board import Board
from boardlab.errors import ZrfError
from boardlab.zrf.reader import Atom, Node, SList, Where

#: Game-level forms that never change play.
UI_FORMS = frozenset({
    "title", "description", "history", "strategy", "notes", "music", "opening-sound",
    "move-sound", "release-sound", "capture-sound", "drop-sound", "change-sound",
    "click-sound", "draw-sound", "win-sound", "loss-sound", "version", "default",
    "animate-captures", "animate-drops", "smart-moves", "highlight-goals",
    # Display only: board flipping, the list of moves.
    "allow-flipping", "prevent-flipping", "show-moves-list",
})
#: Statements of text for the player whose reference entries could not be read:
#: ``(solution "Problem 2.zsg")`` names a saved game showing a puzzle's solution (Chase's
#: variants), and all three take strings only. A statement of strings cannot carry a
#: rule, so they are read as display; one with anything else is refused.
TEXT_FORMS = frozenset({"solution", "open", "translate"})
#: Piece-level forms that never change play.
PIECE_UI_FORMS = frozenset({"image", "help", "description", "notation", "glyph", "dummy"})
GOAL_FORMS = ("win-condition", "loss-condition", "draw-condition", "count-condition")
#: Game-level forms of the first Zillions version that mean an option.
OPTION_FORMS = {"pass-turn": "pass turn", "pass-partial": "pass partial",
                "recycle-captures": "recycle captures", "recycle-promotions":
                "recycle promotions", "maximal-captures": "maximal captures",
                "discard-cascades": "discard cascades", "include-off-pieces":
                "include off-pieces"}
#: The most positions a board may have (the corpus's largest has 3,214).
MAX_POSITIONS = 20_000


@dataclass(frozen=True)
class Block:
    """A move or drop block: its program (the block's list) and move type."""

    program: SList
    move_type: str | None


@dataclass(frozen=True)
class PieceSpec:
    """A piece type: its moves and drops, attribute defaults and images."""

    name: str
    moves: tuple[Block, ...]
    drops: tuple[Block, ...]
    attributes: dict[str, str]
    images: dict[str, str]
    help: str
    where: Where


@dataclass(frozen=True)
class TurnEntry:
    """One turn of the turn order: who moves, whose pieces (``owner``, when the turn
    moves another player's pieces: ZRF ``(PLAYER OWNER)``) and, if restricted, which
    move type."""

    player: int
    move_type: str | None = None
    owner: int | None = None

    @property
    def mover(self) -> int:
        """The player whose pieces move, and from whose side the moves are read."""
        return self.player if self.owner is None else self.owner


@dataclass(frozen=True)
class Goal:
    """A ``win-``, ``loss-``, ``draw-`` or ``count-condition``: its kind, players and form."""

    kind: str
    players: tuple[int, ...]
    form: Node


@dataclass
class GameSpec:
    """A playable game (the file's game with one variant applied)."""

    file: str
    title: str
    variant: int
    #: The title of every game and variant of the file, by number (``-``: a separator).
    variant_titles: tuple[str, ...]
    #: The title of the game the chosen variant changes (its own, for a game).
    game_title: str
    players: tuple[str, ...]
    turns: tuple[TurnEntry, ...]
    repeat_from: int
    board: Board
    pixels: dict[int, tuple[int, int, int, int]]
    board_image: str
    pieces: dict[str, PieceSpec]
    setup: dict[tuple[int, str], list[int]]
    reserves: dict[tuple[int, str], int]
    move_priorities: tuple[str, ...]
    goals: tuple[Goal, ...]
    options: dict[str, str]
    description: str = ""
    #: Position name as the file writes it -> cell (board names replace ``-`` by ``_``).
    cells: dict[str, int] = field(default_factory=dict)
    #: Cells of dummy positions: positions off the board, not drawn.
    dummies: frozenset[int] = frozenset()
    #: The names of the positions ``kill-positions`` removed (``on-board?`` is false there).
    killed: frozenset[str] = frozenset()

    def player(self, name: str, where: Where) -> int:
        """The index of player ``name``; an error at ``where`` if the file has none."""
        try:
            return self.players.index(name)
        except ValueError:
            raise where.error(f"no player {name!r} (players: {', '.join(self.players)})"
                              ) from None

    def option(self, name: str, default: str | None = None) -> str | None:
        """An option's value (names compare with spaces and dashes alike)."""
        return self.options.get(_option_key(name), default)

    @property
    def random_players(self) -> frozenset[int]:
        """The players whose moves are chosen at random (ZRF: a name starting with
        ``?``)."""
        return frozenset(i for i, name in enumerate(self.players) if name.startswith("?"))


def _option_key(name: str) -> str:
    return " ".join(name.replace("-", " ").split()).lower()


# --- small readers ----------------------------------------------------------------------
def _symbol(node: Node, what: str) -> str:
    if not isinstance(node, Atom):
        raise node.where.error(f"expected {what}, found a list")
    return node.text


def _integer(node: Node, what: str) -> int:
    text = _symbol(node, what)
    try:
        return int(text)
    except ValueError:
        raise node.where.error(f"expected {what} (a whole number), found {text!r}") from None


def _text(node: SList) -> str:
    return " ".join(i.text for i in node.rest if isinstance(i, Atom))


def _sections(form: SList) -> list[SList]:
    out: list[SList] = []
    for item in form.rest:
        if not isinstance(item, SList) or item.head is None:
            raise item.where.error(f"expected a (keyword ...) form in {form.head}")
        out.append(item)
    return out


# --- game and variants ------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """A playable entry of a file's menu: a ``(game ...)`` or a ``(variant ...)`` of the
    game before it; ``number`` counts the file's games and variants in order (0 is the
    first game), ``title`` ``-`` marks a menu separator."""

    number: int
    title: str
    game: SList
    variant: SList | None


def entries(forms: list[Node], file: str) -> list[Entry]:
    """The games and variants of a file. A file may hold several games (each a game of
    its own, as Zillions' menu lists them); a variant changes the last game before it,
    or the first game when it comes before every game. The first game is number 0, the
    other games and variants follow in file order."""
    first: SList | None = None
    for f in forms:
        if isinstance(f, SList) and f.head == "version":
            continue
        if not (isinstance(f, SList) and f.head in ("game", "variant")):
            raise f.where.error("expected (game ...), (variant ...) or (version ...) at the "
                                "top of the file")
        if f.head == "game" and first is None:
            first = f
    if first is None:
        raise ZrfError("no (game ...) in this file", file=file, line=1, column=1)
    out = [Entry(0, _title(first), first, None)]
    game = first
    for f in forms:
        if f is first or not isinstance(f, SList) or f.head == "version":
            continue
        if f.head == "game":
            game = f
            out.append(Entry(len(out), _title(f), f, None))
        else:
            out.append(Entry(len(out), _title(f), game, f))
    return out


def variant_titles(forms: list[Node], file: str) -> list[tuple[int, str]]:
    """``(number, title)`` of each playable game and variant of the file (menu
    separators titled ``-`` are skipped but keep their number)."""
    return [(e.number, e.title) for e in entries(forms, file) if e.title != "-"]


def _title(form: SList) -> str:
    for item in form.rest:
        if isinstance(item, SList) and item.head == "title":
            return _text(item)
    return ""


def merged_sections(game: SList, variant: SList | None) -> list[SList]:
    """The game's sections with a variant's applied (see the module docstring)."""
    base = _sections(game)
    if variant is None:
        return base
    changes = _sections(variant)
    names = {s.head for s in changes}
    pieces = {_piece_name(s) for s in changes if s.head == "piece"}
    options = {_option_key(_symbol(s[1], "an option name")) for s in changes
               if s.head == "option" and len(s) > 1}
    replaced_goals = any(s.head in GOAL_FORMS for s in changes)
    kept: list[SList] = []
    for s in base:
        if s.head == "piece":
            if _piece_name(s) in pieces:
                continue
        elif s.head == "option":
            if len(s) > 1 and _option_key(_symbol(s[1], "an option name")) in options:
                continue
        elif s.head in GOAL_FORMS:
            if replaced_goals:
                continue
        elif s.head in names:
            continue
        kept.append(s)
    return kept + changes


def _piece_name(piece: SList) -> str:
    for item in piece.rest:
        if isinstance(item, SList) and item.head == "name" and len(item) > 1:
            return _symbol(item[1], "a piece name")
    raise piece.where.error("a piece needs (name NAME)")


def game_spec(forms: list[Node], file: str, variant: int | str | None = None) -> GameSpec:
    """The game of ``forms`` (expanded) with ``variant`` applied: its number (0 is the
    file's first game, then its games and variants in order) or its title; ``None``
    picks the variant the file marks ``(default)``, else the first game."""
    menu = entries(forms, file)
    chosen = _choose_variant(menu, variant, file)
    sections = merged_sections(chosen.game, chosen.variant)
    titles = tuple(e.title for e in menu)
    return _Builder(file, sections, chosen.number, titles, _title(chosen.game)).build()


def _choose_variant(menu: list[Entry], variant: int | str | None, file: str) -> Entry:
    playable = [e for e in menu if e.title != "-"]
    listed = ", ".join(f"{e.number} ({e.title})" for e in playable)
    if variant is None:
        defaults = [e for e in menu if e.variant is not None and any(
            isinstance(s, SList) and s.head == "default" for s in e.variant.rest)]
        return defaults[-1] if defaults else menu[0]
    if isinstance(variant, int) or str(variant).isdigit():
        number = int(variant)
        for e in playable:
            if e.number == number:
                return e
        raise ZrfError(f"no variant {number}; variants: {listed}", file=file)
    for e in playable:
        if e.title.lower() == str(variant).lower():
            return e
    raise ZrfError(f"no variant titled {variant!r}; variants: {listed}", file=file)


# --- the builder ------------------------------------------------------------------------
class _Builder:
    def __init__(self, file: str, sections: list[SList], variant: int,
                 titles: tuple[str, ...], game_title: str):
        self.file = file
        self.sections = sections
        self.variant = variant
        self.titles = titles
        self.game_title = game_title

    def one(self, head: str) -> SList | None:
        found = [s for s in self.sections if s.head == head]
        if len(found) > 1 and head == "board":
            raise found[1].where.error("a second (board ...): a game has one board")
        return found[-1] if found else None

    def all(self, head: str) -> list[SList]:
        return [s for s in self.sections if s.head == head]

    def build(self) -> GameSpec:
        known = {"players", "turn-order", "board", "piece", "board-setup", "move-priorities",
                 "option", *GOAL_FORMS, *OPTION_FORMS}
        for s in self.sections:
            if s.head == "engine":
                engine = _text(s) or "an engine"
                raise s.where.error(
                    f"the rules of this game live in an Axiom engine ({engine}, written in "
                    "ForthScript), which boardlab does not run; only the file's ZRF part "
                    "could be read")
            if s.head in TEXT_FORMS:
                for item in s.rest:
                    if not (isinstance(item, Atom) and item.quoted):
                        raise item.where.error(
                            f"({s.head} ...) is read as text for the player: boardlab "
                            f"takes only strings there, not {str(item)[:40]!r}")
                continue
            if s.head not in known and s.head not in UI_FORMS:
                raise s.where.error(f"unsupported game statement {s.head!r}")
        players_form = self.one("players")
        if players_form is None or len(players_form) < 2:
            raise ZrfError("the game needs (players NAME ...)", file=self.file)
        players = tuple(_symbol(p, "a player name") for p in players_form.rest)
        if len(set(players)) != len(players):
            raise players_form.where.error("a player is named twice")
        options = self.options()
        board_form = self.one("board")
        if board_form is None:
            raise ZrfError("the game needs a (board ...)", file=self.file)
        builder = _BoardBuilder(board_form, players)
        board, pixels, image = builder.build()
        spec = GameSpec(
            file=self.file, title=_text(self.one("title")) if self.one("title") else "",
            variant=self.variant, variant_titles=self.titles, game_title=self.game_title,
            players=players,
            turns=(), repeat_from=0, board=board, pixels=pixels, board_image=image,
            pieces={}, setup={}, reserves={}, move_priorities=(), goals=(),
            options=options, cells=builder.cells_by_name,
            dummies=frozenset(builder.hidden), killed=builder.killed_names)
        description = self.one("description")
        spec.description = _text(description) if description else ""
        spec.turns, spec.repeat_from = self.turn_order(spec)
        spec.pieces = self.pieces()
        spec.setup, spec.reserves = self.board_setup(spec)
        priorities = self.one("move-priorities")
        spec.move_priorities = tuple(_symbol(t, "a move type") for t in priorities.rest) \
            if priorities else ()
        spec.goals = tuple(self.goals(spec))
        return spec

    def options(self) -> dict[str, str]:
        options: dict[str, str] = {}
        for s in self.sections:
            if s.head == "option":
                if len(s) < 2 or not isinstance(s[1], Atom):
                    raise s.where.error('an option needs a name: (option "NAME" VALUE)')
                value = _symbol(s[2], "an option value") if len(s) > 2 else "true"
                options[_option_key(s[1].text)] = value
            elif s.head in OPTION_FORMS:
                value = _symbol(s[1], "true or false") if len(s) > 1 else "true"
                options[_option_key(OPTION_FORMS[s.head])] = value
        return options

    def turn_order(self, spec: GameSpec) -> tuple[tuple[TurnEntry, ...], int]:
        form = self.one("turn-order")
        if form is None:
            return tuple(TurnEntry(i) for i in range(len(spec.players))), 0
        turns: list[TurnEntry] = []
        repeat_from = 0
        for item in form.rest:
            if isinstance(item, Atom):
                if item.text == "repeat":
                    repeat_from = len(turns)
                    continue
                turns.append(TurnEntry(spec.player(item.text, item.where)))
                continue
            if len(item) not in (2, 3) or not all(isinstance(i, Atom) for i in item):
                raise item.where.error("a turn is PLAYER, (PLAYER MOVE-TYPE), (PLAYER "
                                       "OWNER) or (PLAYER OWNER MOVE-TYPE)")
            player = spec.player(item[0].text, item[0].where)
            if len(item) == 3:
                turns.append(TurnEntry(player, item[2].text,
                                       spec.player(item[1].text, item[1].where)))
            elif item[1].text in spec.players:
                # A player's name: this turn moves that player's pieces.
                turns.append(TurnEntry(player, None, spec.players.index(item[1].text)))
            else:
                turns.append(TurnEntry(player, item[1].text))
        if not turns or repeat_from >= len(turns):
            raise form.where.error("the turn order has no turns to repeat")
        return tuple(turns), repeat_from

    def pieces(self) -> dict[str, PieceSpec]:
        pieces: dict[str, PieceSpec] = {}
        for form in self.all("piece"):
            piece = _piece(form)
            pieces[piece.name] = piece
        if not pieces:
            raise ZrfError("the game has no (piece ...)", file=self.file)
        return pieces

    def board_setup(self, spec: GameSpec
                    ) -> tuple[dict[tuple[int, str], list[int]], dict[tuple[int, str], int]]:
        setup: dict[tuple[int, str], list[int]] = {}
        reserves: dict[tuple[int, str], int] = {}
        form = self.one("board-setup")
        if form is None:
            return setup, reserves
        cells = spec.cells
        placed: dict[int, tuple[int, str]] = {}
        for side in form.rest:
            if not isinstance(side, SList) or side.head is None:
                raise side.where.error("expected (PLAYER (PIECE POSITION ...) ...)")
            player = spec.player(side.head, side.where)
            for entry in side.rest:
                if not isinstance(entry, SList) or entry.head is None:
                    raise entry.where.error("expected (PIECE POSITION ... [off N])")
                name = entry.head
                if name not in spec.pieces:
                    raise entry.where.error(f"no piece {name!r} (pieces: "
                                            f"{', '.join(spec.pieces)})")
                items = list(entry.rest)
                i = 0
                while i < len(items):
                    item = items[i]
                    text = _symbol(item, "a position or off N")
                    if text == "off":
                        if i + 1 >= len(items):
                            raise item.where.error("off needs a count: off N")
                        count = _integer(items[i + 1], "a count")
                        if count < 0:
                            raise items[i + 1].where.error("a count cannot be negative")
                        key = (player, name)
                        reserves[key] = reserves.get(key, 0) + count
                        i += 2
                        continue
                    if text not in cells:
                        raise item.where.error(f"board-setup puts {name} on {text!r}, which "
                                               "is not a position of the board")
                    cell = cells[text]
                    if cell in placed:
                        # Set up twice: the later piece stands there, as in Zillions.
                        setup[placed[cell]].remove(cell)
                    placed[cell] = (player, name)
                    setup.setdefault((player, name), []).append(cell)
                    i += 1
        return setup, reserves

    def goals(self, spec: GameSpec) -> list[Goal]:
        goals = []
        for s in self.sections:
            if s.head not in GOAL_FORMS:
                continue
            if len(s) != 3 or not isinstance(s[1], SList):
                raise s.where.error(f"expected ({s.head} (PLAYER ...) GOAL)")
            players = tuple(spec.player(_symbol(p, "a player"), p.where) for p in s[1])
            goals.append(Goal(s.head.removesuffix("-condition"), players, s[2]))
        return goals


def _piece(form: SList) -> PieceSpec:
    name = _piece_name(form)
    moves: list[Block] = []
    drops: list[Block] = []
    attributes: dict[str, str] = {}
    images: dict[str, str] = {}
    help_text = ""
    for item in form.rest:
        if not isinstance(item, SList) or item.head is None:
            raise item.where.error(f"expected a (keyword ...) form in piece {name}")
        head = item.head
        if head == "name":
            continue
        if head in ("moves", "drops"):
            (moves if head == "moves" else drops).extend(_blocks(item))
        elif head == "attribute":
            if len(item) != 3:
                raise item.where.error("expected (attribute NAME DEFAULT)")
            attributes[_symbol(item[1], "an attribute name")] = _symbol(item[2], "a value")
        elif head == "image":
            values = [i for i in item.rest if isinstance(i, Atom)]
            images.update({values[k].text: values[k + 1].text
                           for k in range(0, len(values) - 1, 2)})
        elif head == "help":
            help_text = _text(item)
        elif head not in PIECE_UI_FORMS:
            raise item.where.error(f"unsupported piece statement {head!r} in piece {name}")
    return PieceSpec(name, tuple(moves), tuple(drops), attributes, images, help_text,
                     form.where)


def _blocks(form: SList) -> list[Block]:
    blocks: list[Block] = []
    move_type: str | None = None
    for item in form.rest:
        if isinstance(item, SList) and item.head == "move-type":
            if len(item) != 2:
                raise item.where.error("expected (move-type NAME)")
            move_type = _symbol(item[1], "a move type")
            continue
        if not isinstance(item, SList):
            raise item.where.error(f"expected a move block (...) in {form.head}")
        blocks.append(Block(item, move_type))
    return blocks


# --- boards -----------------------------------------------------------------------------
@dataclass
class _Cell:
    name: str
    coords: tuple[int, ...]
    rect: tuple[int, int, int, int]


class _BoardBuilder:
    """Cells, links, symmetries and zones of a ``(board ...)``, then one :class:`Board`."""

    def __init__(self, form: SList, players: tuple[str, ...]):
        self.form = form
        self.players = players
        self.cells: list[_Cell] = []
        self.index: dict[str, int] = {}
        self.directions: list[str] = []
        self.links: dict[str, dict[int, int]] = {}
        self.image = ""
        #: Position name as written -> final cell index (after kill-positions).
        self.cells_by_name: dict[str, int] = {}
        #: Cells of dummy positions (not drawn).
        self.hidden: set[int] = set()
        #: Direction -> the index steps it makes in the grids that define it.
        self.deltas: dict[str, set[tuple[int, ...]]] = {}
        #: The names of the killed positions.
        self.killed_names: frozenset[str] = frozenset()

    def add_cell(self, name: str, coords: tuple[int, ...], rect: tuple[int, int, int, int],
                 where: Where) -> int:
        if name in self.index:
            raise where.error(f"position {name!r} is defined twice")
        if len(self.cells) >= MAX_POSITIONS:
            raise where.error(f"more than {MAX_POSITIONS:,} positions")
        self.index[name] = len(self.cells)
        self.cells.append(_Cell(name, coords, rect))
        return self.index[name]

    def direction(self, name: str) -> dict[int, int]:
        if name not in self.links:
            self.directions.append(name)
            self.links[name] = {}
        return self.links[name]

    def cell(self, node: Node) -> int:
        name = _symbol(node, "a position")
        try:
            return self.index[name]
        except KeyError:
            raise node.where.error(f"no position {name!r} on the board") from None

    def build(self) -> tuple[Board, dict[int, tuple[int, int, int, int]], str]:
        statements = _sections(self.form)
        # Zillions reads a board's statements in any order: first every position (grids,
        # positions, dummies), then the links in the order written, then what names
        # directions and positions (symmetries, zones).
        for s in statements:
            if s.head == "grid":
                self.grid(s)
            elif s.head == "positions":
                self.positions(s)
            elif s.head == "dummy":
                self.dummy(s)
            elif s.head == "image":
                self.image = " ".join(i.text for i in s.rest if isinstance(i, Atom))
            elif s.head not in ("links", "unlink", "kill-positions", "symmetry", "zone"):
                raise s.where.error(f"unsupported board statement {s.head!r}")
        if not self.cells:
            raise self.form.where.error("the board has no positions (a grid or positions)")
        killed: set[int] = set()
        for s in statements:
            if s.head == "links":
                self.add_links(s)
            elif s.head == "unlink":
                self.unlink(s)
            elif s.head == "kill-positions":
                killed.update(self.cell(n) for n in s.rest)
        symmetry: dict[int, dict[str, str]] = {}
        zones: dict[str, dict[int, set[int]]] = {}
        for s in statements:
            if s.head == "symmetry":
                self.symmetry(s, symmetry)
            elif s.head == "zone":
                self.zone(s, zones)
        return self.board(killed, symmetry, zones)

    def dummy(self, form: SList) -> None:
        """Positions off the board: pieces may stand there and links may join them,
        but they are not drawn (ZRF ``dummy``)."""
        for item in form.rest:
            name = _symbol(item, "a position name")
            self.hidden.add(self.add_cell(name, (len(self.cells),), (0, 0, 0, 0),
                                          item.where))

    def grid(self, form: SList) -> None:
        parts = {s.head: s for s in _sections(form)}
        for key in parts:
            if key not in ("start-rectangle", "dimensions", "directions"):
                raise parts[key].where.error(f"unsupported grid statement {key!r}")
        if "dimensions" not in parts:
            raise form.where.error("a grid needs (dimensions ...)")
        rect = (0, 0, 0, 0)
        if "start-rectangle" in parts:
            numbers = [_integer(n, "a pixel coordinate") for n in parts["start-rectangle"].rest]
            if len(numbers) != 4:
                raise parts["start-rectangle"].where.error(
                    "expected (start-rectangle LEFT TOP RIGHT BOTTOM)")
            rect = (numbers[0], numbers[1], numbers[2], numbers[3])
        labels: list[list[str]] = []
        steps: list[tuple[int, int]] = []
        for dim in parts["dimensions"].rest:
            if not isinstance(dim, SList) or len(dim) < 1 or not isinstance(dim[0], Atom):
                raise dim.where.error('expected ("a/b/c" (DX DY)) in dimensions')
            labels.append(_labels(dim[0]))
            offset = (0, 0)
            if len(dim) > 1:
                if not isinstance(dim[1], SList) or len(dim[1]) != 2:
                    raise dim.where.error("a dimension's step is (DX DY)")
                offset = (_integer(dim[1][0], "a pixel step"),
                          _integer(dim[1][1], "a pixel step"))
            steps.append(offset)
        if not labels:
            raise parts["dimensions"].where.error("a grid needs at least one dimension")
        cells: dict[tuple[int, ...], int] = {}
        where = parts["dimensions"].where
        # The last dimension outermost, as Dagaz lists positions (a8 b8 ... h8 a7 ...).
        for outer in itertools.product(*(range(len(ls)) for ls in reversed(labels))):
            coords = tuple(reversed(outer))
            name = "".join(labels[k][i] for k, i in enumerate(coords))
            dx = sum(steps[k][0] * i for k, i in enumerate(coords))
            dy = sum(steps[k][1] * i for k, i in enumerate(coords))
            cell_rect = (rect[0] + dx, rect[1] + dy, rect[2] + dx, rect[3] + dy)
            cells[coords] = self.add_cell(name, coords, cell_rect, where)
        for d in (parts["directions"].rest if "directions" in parts else ()):
            if not isinstance(d, SList) or len(d) < 2:
                raise d.where.error("expected (NAME DELTA ...) in directions")
            name = _symbol(d[0], "a direction name")
            delta = [_integer(n, "a step") for n in d.rest]
            delta += [0] * (len(labels) - len(delta))
            if len(delta) > len(labels):
                raise d.where.error(f"direction {name} has more steps than the grid has "
                                    "dimensions")
            row = self.direction(name)
            self.deltas.setdefault(name, set()).add(tuple(delta))
            for coords, cell in cells.items():
                target = tuple(c + s for c, s in zip(coords, delta, strict=True))
                if target in cells:
                    row[cell] = cells[target]

    def positions(self, form: SList) -> None:
        for item in form.rest:
            if not isinstance(item, SList) or len(item) < 1:
                raise item.where.error("expected (NAME LEFT TOP RIGHT BOTTOM) in positions")
            name = _symbol(item[0], "a position name")
            numbers = [_integer(n, "a pixel coordinate") for n in item.rest]
            rect = tuple(numbers[:4]) + (0,) * (4 - len(numbers[:4]))
            self.add_cell(name, (len(self.cells),), rect, item.where)  # type: ignore[arg-type]

    def add_links(self, form: SList) -> None:
        if len(form) < 2:
            raise form.where.error("expected (links DIRECTION (FROM TO) ...)")
        row = self.direction(_symbol(form[1], "a direction name"))
        for pair in form.items[2:]:
            if not isinstance(pair, SList) or len(pair) != 2:
                raise pair.where.error("expected (FROM TO) in links")
            row[self.cell(pair[0])] = self.cell(pair[1])

    def unlink(self, form: SList) -> None:
        """Remove links (ZRF ``unlink``): ``POSITION`` loses every link from and to it,
        ``(A B)`` the links between A and B both ways, ``(A DIRECTION)`` A's link in
        that direction."""
        for item in form.rest:
            if isinstance(item, Atom):
                cell = self.cell(item)
                for row in self.links.values():
                    row.pop(cell, None)
                    for source in [c for c, t in row.items() if t == cell]:
                        del row[source]
                continue
            if len(item) != 2:
                raise item.where.error("expected POSITION, (FROM TO) or (FROM DIRECTION)")
            source = self.cell(item[0])
            second = _symbol(item[1], "a position or direction")
            if second in self.links and second not in self.index:
                self.links[second].pop(source, None)
                continue
            target = self.cell(item[1])
            for row in self.links.values():
                if row.get(source) == target:
                    del row[source]
                if row.get(target) == source:
                    del row[target]

    def symmetry(self, form: SList, symmetry: dict[int, dict[str, str]]) -> None:
        if len(form) < 2:
            raise form.where.error("expected (symmetry PLAYER (FROM TO) ...)")
        player = _player(form[1], self.players)
        mapping: dict[str, str] = {}
        for pair in form.items[2:]:
            if not isinstance(pair, SList) or len(pair) != 2:
                raise pair.where.error("expected (FROM TO) in symmetry")
            a, b = _symbol(pair[0], "a direction"), _symbol(pair[1], "a direction")
            for d, node in ((a, pair[0]), (b, pair[1])):
                if d not in self.links:
                    raise node.where.error(f"no direction {d!r} on the board")
            mapping[a] = b
        symmetry[player] = mapping

    def zone(self, form: SList, zones: dict[str, dict[int, set[int]]]) -> None:
        parts = {s.head: s for s in _sections(form)}
        if "name" not in parts or "positions" not in parts:
            raise form.where.error("a zone needs (name NAME) and (positions ...)")
        name = _symbol(parts["name"][1], "a zone name")
        cells = {self.cell(n) for n in parts["positions"].rest}
        players = (range(len(self.players)) if "players" not in parts else
                   [_player(p, self.players) for p in parts["players"].rest])
        for player in players:
            zones.setdefault(name, {}).setdefault(player, set()).update(cells)

    def board(self, killed: set[int], symmetry: dict[int, dict[str, str]],
              zones: dict[str, dict[int, set[int]]]
              ) -> tuple[Board, dict[int, tuple[int, int, int, int]], str]:
        keep = [i for i in range(len(self.cells)) if i not in killed]
        new = {old: k for k, old in enumerate(keep)}
        names = tuple(self.cells[i].name for i in keep)
        links = tuple(tuple(new.get(self.links[d].get(i, -1), -1) for i in keep)
                      for d in self.directions)
        opposite = _opposites(self.directions, links, self.deltas)
        board = Board(names=_board_names(names, self.form.where),
                      coords=tuple(_centre(self.cells[i].rect) for i in keep),
                      directions=tuple(self.directions), links=links, opposite=opposite,
                      symmetry={p: dict(m) for p, m in symmetry.items()},
                      zones={z: {p: frozenset(new[c] for c in cs if c in new)
                                 for p, cs in per.items()} for z, per in zones.items()},
                      kind="zrf")
        pixels = {new[i]: self.cells[i].rect for i in keep if i not in self.hidden}
        self.cells_by_name = {self.cells[i].name: new[i] for i in keep}
        self.hidden = {new[i] for i in self.hidden if i in new}
        self.killed_names = frozenset(self.cells[i].name for i in killed)
        return board, pixels, self.image


def _board_names(names: tuple[str, ...], where: Where) -> tuple[str, ...]:
    """The board's cell names: ZRF's, with ``-`` (which separates cells in move
    notation) written ``_``."""
    out = tuple(name.replace("-", "_") for name in names)
    for name, shown in zip(names, out, strict=True):
        if any(ch in name for ch in "@=") or (shown != name and shown in names):
            raise where.error(f"position name {name!r} cannot be written in move notation")
    return out


def _labels(node: Atom) -> list[str]:
    labels = node.text.split("/")
    if any(not label for label in labels):
        raise node.where.error(f"empty label in dimension {node.text!r}")
    return labels


def _centre(rect: tuple[int, int, int, int]) -> tuple[int, int]:
    return ((rect[0] + rect[2]) // 2, (rect[1] + rect[3]) // 2)


def _player(node: Node, players: tuple[str, ...]) -> int:
    name = _symbol(node, "a player name")
    try:
        return players.index(name)
    except ValueError:
        raise node.where.error(f"no player {name!r} (players: {', '.join(players)})"
                               ) from None


def _opposites(directions: list[str], links: tuple[tuple[int, ...], ...],
               deltas: dict[str, set[tuple[int, ...]]]) -> dict[str, str]:
    """Direction -> its opposite (ZRF ``opposite``): for a grid's direction, the direction
    whose steps are its steps negated; otherwise the direction that undoes its links
    (every link it has back, and at least one), so that an ``unlink`` or a killed cell
    that breaks some links of a pair keeps the pair."""
    out: dict[str, str] = {}
    for a, row_a in zip(directions, links, strict=True):
        steps = deltas.get(a)
        if steps:
            negated = {tuple(-x for x in step) for step in steps}
            match = [b for b in directions if deltas.get(b) == negated]
            if match:
                out[a] = match[0]
                continue
        pairs = [(c, t) for c, t in enumerate(row_a) if t >= 0]
        if not pairs:
            continue
        best, best_count = None, 0
        for b, row_b in zip(directions, links, strict=True):
            back = sum(1 for c, t in pairs if row_b[t] == c)
            wrong = any(row_b[t] >= 0 and row_b[t] != c for c, t in pairs) or any(
                row_a[t] >= 0 and row_a[t] != c for c, t in enumerate(row_b) if t >= 0)
            if back > best_count and not wrong:
                best, best_count = b, back
        if best is not None:
            out[a] = best
    return out


def describe(spec: GameSpec) -> dict[str, Any]:
    """A short JSON-ready summary of a spec (for listings)."""
    return {"file": spec.file, "title": spec.title, "variant": spec.variant,
            "players": list(spec.players), "positions": spec.board.size,
            "pieces": list(spec.pieces)}
