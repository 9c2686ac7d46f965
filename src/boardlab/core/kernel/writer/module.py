"""The writer of a game's kernel module (``_Writer``): its state and table, and the
module it assembles from the parts each mixin writes."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from boardlab.core import goals as g
from boardlab.core import ir
from boardlab.core import rules as r
from boardlab.core.kernel.checks import _tests, leaves
from boardlab.core.kernel.layout import (
    _ARENA,
    _BUCKETS,
    _CAPTURE,
    _CHANGE,
    _CHANGES,
    _HIST,
    _KINDS,
    _PLACE,
    _QUEUE,
    _RHEAD,
    _RWORDS,
    _SHIFT,
    _STEP_MARK,
    _TOUCH,
    BOARD,
    DEPTH,
    FOLLOW,
    KEY,
    LAST,
    MAX_MOVES,
    MOVER,
    NEAR,
    NMOVES,
    PLY,
    REPS,
    SINCE,
    STATUS,
    TAKEN,
    TO_MOVE,
    TURNS,
    UNKNOWN,
    Status,
    Unsupported,
    _signed,
    _taken_at,
    _taken_bits,
    pass_index,
)
from boardlab.core.kernel.writer.attacks import _Attacks
from boardlab.core.kernel.writer.bits import _Bits
from boardlab.core.kernel.writer.chains import _Chains
from boardlab.core.kernel.writer.facts import (
    _IN_PLACE,
    _QUEUING,
    _acyclic,
    _apart,
    _last_keys,
    _pieces,
    _repeated,
)
from boardlab.core.kernel.writer.generate import _Generate
from boardlab.core.kernel.writer.goals import _Goals
from boardlab.core.kernel.writer.instructions import _Instructions
from boardlab.core.kernel.writer.predicates import _Predicates
from boardlab.core.kernel.writer.search import _Search
from boardlab.core.kernel.writer.sizes import _ATTACKERS, _HAND_KEYS
from boardlab.core.kernel.writer.source import (
    _merge_shapes,
    _rename_calls,
    _unliteral,
    _unsigned_indexes,
)
from boardlab.core.kernel.writer.templates import _Shapes
from boardlab.core.kernel.writer.whole_moves import _WholeMoves
from boardlab.core.move import Piece
from boardlab.core.position import PieceGame

#: The most adds of plain templates whose moves generate writes out (see _Writer.inline).
_INLINE_ADDS = 32


#: The most lines of the templates that generate holds itself; more are written as
#: functions it calls (see _Writer.split): numba's compile time grows faster than a
#: function's length (Stratego's 100 templates, 2,300 lines in one function: 165 s),
#: and a call of each costs (English checkers' 366 lines: a first use of 17.6 s of CPU
#: in one function against 16.0 s split, its random playouts 1.25x as fast).
_SPLIT_LINES = 400


class _Writer(_Predicates, _Instructions, _Goals, _Shapes, _WholeMoves, _Generate,
              _Attacks, _Chains, _Search, _Bits):
    """Writes a game's kernel module and the table its functions read; each mixin
    writes one part of it."""

    def __init__(self, game: PieceGame, goals: g.Goals, templates: tuple[r.Template, ...]):
        self.game = game
        self.goals = goals
        self.templates = templates
        self.board = game.board
        self.size = self.board.size
        self.players = game.num_players
        self.pieces: tuple[Piece | None, ...] = (None, *_pieces(game, templates))
        self.codes = {p: i for i, p in enumerate(self.pieces) if p is not None}
        if self.size * len(self.pieces) > 4_000_000:
            raise Unsupported("too many pieces for a key of each on each cell")
        self.ncodes = len(self.pieces)
        #: The pieces in hand the positions count (a PieceState's reserves' keys), when
        #: the game has any or drops from them: each code's count is kept in the array
        #: after the board's counts, and a move that drops one touches it as a cell
        #: past the board's (``HAND`` + code).
        self.hand = tuple(game.ruleset.reserves)
        #: Whether a captured piece goes to its owner's hand (ZRF ``recycle captures``):
        #: the hand must count every piece a move can take.
        self.recycle = bool(game.ruleset.recycle_captures)
        if self.recycle:
            kept = set(self.hand)
            for piece in self.pieces[1:]:
                if piece.owner >= 0 and piece not in kept:
                    raise Unsupported(f"{piece} may be taken into a hand that does not "
                                      "count it")
        #: Whether a promotion takes its new piece from the hand (ZRF ``recycle
        #: promotions``): the hand's pieces in order, and each piece's owner and type
        #: as one number, to find the first of them the hand holds (rules.in_hand).
        self.recycle_promotions = bool(game.ruleset.recycle_promotions)
        self.reserved = bool(self.hand) or self.recycle or self.recycle_promotions or any(
            type(t) is r.Drop and set(range(self.players)) - t.unlimited_for
            for t in templates)
        self.table: list[int] = []
        self.offsets: dict[Any, int] = {}
        self.directions: dict[str, int] = {}
        #: By set of directions, whether no walk along them comes back (see ends).
        self.acyclic: dict[frozenset[str], bool] = {}
        #: Whether every player sees the directions alike (no symmetry turns them):
        #: the kernel then reads the first player's links for all.
        self.same_links = all(self.board.player_links(p) == self.board.player_links(0)
                              for p in range(1, self.players))
        self.lines: list[str] = []
        self.helpers: list[str] = []
        #: The function a playout's moves judge the position by: after, or its copy
        #: inlined in run (see resolve).
        self.after_run = "after"
        self.loops = 0
        #: The locals of the runs' flags and counters, by name.
        self.variables: dict[str, str] = {}
        #: Whether a run asks ``attacked?`` or ``defended?`` (rules.Attacked), and the
        #: codes of the move types they name.
        self.asks_attacks = any(isinstance(p, r.Attacked) for t in templates
                                for p in _tests(t.program))
        self.attack_types = {name: code for code, name in enumerate(dict.fromkeys(
            p.move_type for t in templates for p in _tests(t.program)
            if isinstance(p, r.Attacked) and p.move_type is not None))}
        #: The names of the cells' flags a run sets (ZRF position flags), numbered.
        self.position_flags: dict[str, int] = {}
        self.owner = self.put("owner", [-1] + [p.owner for p in self.pieces[1:]])
        # The keys are the position class's own (the kernel's keys equal a plain
        # position's): a piece's on each cell, and the side to move's at each turn of
        # the turn order, read from an empty position of that turn.
        empty: list[Piece | None] = [None] * self.size
        proto = game.state_class(game, empty, 0, {}, 0)
        try:
            self.zobrist = self.put("zobrist", [_signed(proto._piece_key(cell, piece))
                                                for cell in range(self.size)
                                                for piece in self.pieces[1:]])
        except ValueError as error:
            raise Unsupported(f"a piece without a key ({error})") from None
        order = game.ruleset.turn_order
        self.turns, self.repeat_from = order if order is not None else ((0,), 0)
        self.alternate = order is None
        # (With no turns played: a key that reads them has their part apart.)
        more = {} if game.turns_limit is None else {"turns": 0}
        self.sides = self.put("sides", [
            _signed(game.state_class(game, empty, player, {}, turn, **more).key())
            for turn in range(len(self.turns)) for player in range(self.players)])
        #: The keys of the turns played, up to the most a goal counts (turns_limit), when
        #: the key reads them.
        self.turns_keys = -1
        if game.turns_limit is not None:
            self.turns_keys = self.put("turns keys", [
                _signed(game.turns_key(t)) for t in range(game.turns_limit + 1)])
        self.turn_players = self.put("turn players", self.turns)
        #: What each turn allows (rules.TurnLimits): a table of the move type's code
        #: each turn allows (-1: any) and one of the player whose pieces it moves (-1:
        #: the side to move); None when every turn allows every move of its player.
        self.limits = game.move_rules.turns
        self.limit_types: dict[str, int] = {}
        if self.limits is not None:
            self.limit_types = {name: code for code, name in enumerate(dict.fromkeys(
                t for t in self.limits.move_types if t is not None))}
            self.put("turn types", [-1 if t is None else self.limit_types[t]
                                    for t in self.limits.move_types])
            self.put("turn movers", [-1 if m is None else m for m in self.limits.movers])
        #: The move that may follow a move in its turn (rules.FollowUp; never with turn
        #: limits, see _check): its move type is the one a turn with one due allows,
        #: code 0 of the follow-ups (S[FOLLOW]) and of the allowed types (T[XY]).
        self.follow_up = game.move_rules.follow_up
        self.follows: tuple[str, ...] = ()
        self.follow_keys = -1
        if self.follow_up is not None:
            self.follows = (self.follow_up.name,)
            if self.follow_up.move_type is not None:
                self.limit_types = {self.follow_up.move_type: 0}
            # By code + 1 (0: none due), the position class's own keys.
            self.follow_keys = self.put("follow keys", [0] + [
                _signed(game.follow_key(t)) for t in self.follows])
        self.limit = game.ruleset.ply_limit or 0
        # Read from the table, not written in the source: a game whose options change
        # its ply limit alone (a move limit) keeps its kernel, compiled once.
        self.put("ply limit", [self.limit])
        self.has_groups = False
        #: Where the keys of the last move's cells are, when the position's key reads
        #: them (a ZRF game whose rules read the last move): the source's part by
        #: source + 1 (0: none), then the target's by target.
        #: Whether the goals count repetitions (so make counts the position's).
        self.repeats = goals.reads(g.Repetition)
        #: Whether no move of the game ever adds a piece to the board (no drop, hand,
        #: creation or copy): a position after a move that took a piece then has fewer
        #: pieces than every one before, none of which can occur again, and make
        #: counts the repetitions of a position from the last such move on (SINCE).
        self.shrinking = self.repeats and not self.reserved and all(
            type(t) is r.Template and not any(
                isinstance(i, r.Create) or isinstance(i, r.Add) and i.copy
                for i in r.instructions(t.program)) for t in templates)
        #: The kinds of each Captured goal: what the last move took is kept as a bit
        #: for each of them and each player, set when it took a piece of theirs of
        #: those kinds (the table's ``taken`` row says which bits a piece sets).
        self.taken = tuple(dict.fromkeys(frozenset(goal.kinds) for goal in goals.leaves()
                                         if isinstance(goal, g.Captured)))
        if len(self.taken) * self.players > 62:
            raise Unsupported("too many captured goals")
        self.taken_bits = self.put("taken", [0] + [
            _taken_bits(self.taken, self.players, (piece,)) for piece in self.pieces[1:]])
        self.last_keys = -1
        if getattr(game, "tracks_last_move", False):
            self.last_keys = self.put("last keys", _last_keys(game))
        # The keys of each piece's count in hand, the position class's own (which
        # stop changing at some count: 63 for a PieceState, 255 for a ZRF position).
        self.hand_keys = self.put("hand keys", [
            _signed(proto._reserve_key(piece, count)) if piece in self.hand else 0
            for piece in self.pieces if self.reserved for count in range(_HAND_KEYS)])
        if self.recycle_promotions:
            sorts = {(p.owner, p.kind): k for k, p in enumerate(self.pieces[1:], 1)}
            self.sorts = self.put("piece sorts", [0] + [sorts[(p.owner, p.kind)]
                                                       for p in self.pieces[1:]])
            order = self.put("hand order", [self.codes[p] for p in self.hand])
            self.helpers.append(
                "@njit(cache=True)\n"
                "def inhand(S, T, piece):\n"
                "    # The first piece of the hand of ``piece``'s owner and type it holds\n"
                "    # one of (rules.in_hand), or -1.\n"
                f"    for i in range({len(self.hand)}):\n"
                f"        c = T[{order} + i]\n"
                f"        if T[{self.sorts} + c] == T[{self.sorts} + piece] and S[RES + c] > 0:\n"
                "            return c\n"
                "    return -1\n")
        #: The move types of the partial moves (ZRF ``add-partial``; "" for none), whose
        #: codes the steps of chains carry, and for each the templates that go on with
        #: it (see chains); none when the rules make no partial move.
        self.partial_types = list(dict.fromkeys(
            i.partial for t in templates for i in r.instructions(t.program)
            if isinstance(i, r.Add) and i.partial is not None))
        self.going_on: list[list[int]] = []
        for name in self.partial_types:
            # A partial move of no type goes on with any move of the piece (turn._chains).
            going = [k for k, t in enumerate(templates)
                     if (t.move_type == name if name else type(t) is r.Template)]
            if any(type(templates[k]) is not r.Template for k in going):
                raise Unsupported(f"a drop or a group goes on with partial moves of {name!r}")
            self.going_on.append(going)
        #: The templates whose moves are a piece's step alone (``shift``): from a cell
        #: of the board, nothing queued, nothing changed, nothing copied, no chain.
        self.plain = {index for index, t in enumerate(templates)
                      if type(t) is r.Template and not self.recycle_promotions and all(
                          not isinstance(i, _QUEUING) and not (
                              isinstance(i, r.Add) and (i.copy or i.partial is not None))
                          for i in r.instructions(t.program))}
        #: The drops whose moves are their piece placed and changes of type or owner
        #: (nothing else queued, nothing copied, no chain), written out where they add
        #: them (:meth:`drop_lines`) when they add few; those that change nothing.
        self.plain_drops = {
            index for index, t in enumerate(templates)
            if type(t) is r.Drop and not self.recycle_promotions and all(
                not isinstance(i, _QUEUING) or isinstance(i, r.ChangeType | r.ChangeOwner)
                for i in r.instructions(t.program)) and all(
                not (isinstance(i, r.Add) and (i.copy or i.partial is not None))
                for i in r.instructions(t.program))
            and sum(isinstance(i, r.Add) for i in r.instructions(t.program))
            <= _INLINE_ADDS}
        #: The templates whose runs may leave the board (see :attr:`leaving`): their
        #: adds compose their moves, none is written out.
        self.leaving_templates = {index for index, t in enumerate(templates)
                                  if leaves(t.program)}
        self.plain -= self.leaving_templates
        self.plain_drops -= self.leaving_templates
        #: Whether the template being written may leave the board: its cursor may then
        #: be -1, where its tests of a cell are false and its steps fail.
        self.leaving = False
        self.unchanging = {index for index in self.plain_drops if not any(
            isinstance(i, r.ChangeType | r.ChangeOwner)
            for i in r.instructions(templates[index].program))}
        #: Whether no two moves a position has can be equal, so none is looked for
        #: (see _apart); the priorities where none is, and whether that is every one.
        self.apart = _apart(templates, self.board, self.players,
                            {k for going in self.going_on for k in going})
        self.distinct = self.apart == {t.priority for t in templates}
        self.one_priority = len({t.priority for t in templates}) == 1 and \
            not self.partial_types
        #: Whether the templates are functions generate calls, one for each shape of
        #: template (see :meth:`functions`), not written out in generate.
        self.split = False
        #: The plain templates whose moves are written out where they add them, not made
        #: by calls of ``shift``: a few hundred written out make a function numba cannot
        #: compile (its SSA pass recurses through every branch).
        self.inline = self.inlined()
        #: Whether templates are being written as attacks (see :meth:`attacks`), or as
        #: steps that go on with a chain (see :meth:`chains`).
        self.attacking = False
        self.continuing = False
        #: Whether after() tests relative configurations only near the cells the last
        #: move changed, where none held before it (see :meth:`goal`): moves, make and
        #: undo then keep S[NEAR].
        self.near = False
        #: Whether runs may stop at a sure tail (see :meth:`tail_at`), and the lines in
        #: generate_lazy and finish of the templates that do, by index.
        rules = game.move_rules
        #: The rules of whole moves (see whole_moves): the invariants, what a capture
        #: cuts off, a follow-up along directions (whose second ply allows no move
        #: that goes along them).
        self.invariants = tuple(rules.invariants)
        self.cut_off = rules.cut_off
        up = rules.follow_up
        self.along = up if up is not None and up.along else None
        #: Whether a found move's words may go on past its actions (a chain's steps, or
        #: the note of the group a capture keeps: see _NOTE): T[XK] then holds the
        #: count of its actions, and of the words after them above bit 16.
        self.noted = bool(self.partial_types) or self.cut_off is not None or any(
            type(t) is r.Footprint for t in templates)
        #: The tests of the mover's group (rules.Connected) by their directions, each
        #: read once as generate starts (T[XCN + slot]).
        self.connections: dict[tuple[str, ...] | None, int] = {}
        #: The scratch of the searches of articulation points (see articulation).
        self.stays_regions = 0
        self.lazy_allowed = not self.partial_types and not rules.protect and \
            rules.select is None and not self.invariants and self.cut_off is None and \
            self.along is None
        self.lazy: dict[int, tuple[list[str], list[str]]] = {}
        #: The lines that set the piece in hand of the template being written (and the
        #: reserve it comes from), which its finish sets again (see :meth:`hold`).
        self.in_hand: list[str] = []
        #: The sets of kinds the templates of the mover's pieces move, each a list of
        #: the mover's cells holding them that generate writes (in cell order, as the
        #: mover's cells are), so that no template runs over the others' pieces.
        self.kind_lists: dict[frozenset[str], int] = {}
        #: The subtrees written as functions of their own (see :meth:`routine`), and
        #: the name and source of each function, by what its source depends on.
        self.repeated = _repeated(templates)
        self.routines: dict[tuple, tuple[str, str, str, frozenset[int], str]] = {}

    def inlined(self) -> set[int]:
        """The plain templates whose moves are written out (see :attr:`inline`): all
        when they have few adds in all, or, when the templates are functions, those
        with few adds of their own."""
        adds = {index: sum(1 for i in r.instructions(self.templates[index].program)
                           if isinstance(i, r.Add)) for index in self.plain}
        if self.split:
            return {index for index, k in adds.items() if k <= _INLINE_ADDS}
        return set(adds) if sum(adds.values()) <= _INLINE_ADDS else set()

    # --- the table ------------------------------------------------------------------
    def put(self, name: Any, values: Sequence[int]) -> int:
        if name in self.offsets:
            return self.offsets[name]
        offset = self.offsets[name] = len(self.table)
        self.table.extend(int(v) for v in values)
        return offset

    def links(self) -> int:
        return self.offsets.get("links", -1)

    def ends(self, loop: r.While) -> bool:
        """Whether ``loop`` surely ends before the interpreter's limit of turns: each
        turn steps (or fails), it only steps (and tests, changes, adds), and no cell can be
        reached again by its directions (for any player), on a board of no more cells
        than the limit."""
        def moves(program: Sequence[r.Instruction]) -> set[str] | None:
            found: set[str] = set()
            for i in program:
                if isinstance(i, r.Step):
                    found.add(i.direction)
                elif isinstance(i, r.If | r.While):
                    parts = [moves(i.then), moves(i.else_)] if isinstance(i, r.If) \
                        else [moves(i.body)]
                    if None in parts:
                        return None
                    found.update(*parts)  # type: ignore[arg-type]
                elif not isinstance(i, _IN_PLACE + (r.Add,)):
                    return None
            return found

        directions = moves(loop.body)
        if directions is None or not any(isinstance(i, r.Step) for i in loop.body) \
                or self.size > r.LOOP_LIMIT:
            return False
        key = frozenset(directions)
        if key not in self.acyclic:
            self.acyclic[key] = all(_acyclic(
                [[row[c] for row in (self.board.player_links(p)[d] for d in key)
                  if row[c] >= 0] for c in range(self.size)])
                for p in range(self.players))
        return self.acyclic[key]

    def direction(self, d: str) -> str:
        """The expression of the row of direction ``d`` for the mover, at ``{}``."""
        if d not in self.directions:
            self.directions[d] = len(self.directions)
        if self.same_links:
            return f"T[LK + {self.directions[d] * self.size} + {{}}]"
        return f"T[LK + (player * ND + {self.directions[d]}) * {self.size} + {{}}]"

    def mask_of_codes(self, name: Any, test: Any) -> int:
        return self.put(name, [0] + [1 if test(p) else 0 for p in self.pieces[1:]])

    def kinds_mask(self, kinds: Iterable[str]) -> int:
        """Where the table says, by piece code, whether the piece is of ``kinds``."""
        kinds = frozenset(kinds)
        return self.mask_of_codes(("kinds", kinds), lambda piece: piece.kind in kinds)

    # --- the module -----------------------------------------------------------------
    def turn_mover(self) -> str:
        """``turn_mover(S, T)``: whose pieces move now (rules.TurnLimits), which also
        puts the move type the turn allows in ``T[XY]`` (-1: any)."""
        limits = self.limits
        if limits is None:
            # The move type of a follow-up due, or any (-1; a follow-up of any move
            # drops those that would be followed, see whole_moves).
            up = self.follow_up
            allowed = f"S[{FOLLOW}]" if up is not None and up.move_type is not None \
                else "-1"
            return ("@njit(cache=True)\n"
                    "def turn_mover(S, T):\n"
                    f"    T[XY] = {allowed}\n"
                    f"    return S[{TO_MOVE}]\n")
        count = len(limits.move_types)
        start = limits.repeat_from
        # The turn order's own turn, unless the limits count turns otherwise.
        turn = "turn(ply)" if (count, start) == (len(self.turns), self.repeat_from) else \
            f"ply if ply < {count} else {start} + (ply - {start}) % {count - start}"
        return ("@njit(cache=True)\n"
                "def turn_mover(S, T):\n"
                f"    ply = S[{PLY}]\n"
                f"    t = {turn}\n"
                f"    T[XY] = T[{self.offsets['turn types']} + t]\n"
                f"    mover = T[{self.offsets['turn movers']} + t]\n"
                f"    return S[{TO_MOVE}] if mover < 0 else mover\n")

    def passes(self) -> str:
        """The pass a player may make (``pass_turn``), after the moves as the
        interpreter adds it: always, or when forced -- no move, and another player has
        one. Its template is no template's (:func:`pass_index`)."""
        rule = self.game.move_rules.pass_turn
        index = pass_index(self.templates)
        if rule == "always":
            return (f"        n = push(T, n, T[XS + 1], T[XS + 1], {index}, -(1 << 40))\n"
                    f"        if n < 0:\n            return n")
        if rule == "forced":
            # The others who can move: not a neutral player (turn._others_can_move).
            others = [q for q in range(self.players) if q not in self.game.ruleset.neutral_players]
            if not others:
                return ""
            # Every template that starts a move, whatever the turn allows.
            return (f"        if n == 0:\n"
                    f"            T[XY] = -1\n"
                    f"            for q in {tuple(others)!r}:\n"
                    f"                if q != mover:\n"
                    f"                    k = generate(S, T, q)\n"
                    f"                    if k == {Status.LOOPS:d}:\n"
                    f"                        return {Status.LOOPS:d}\n"
                    f"                    if k != 0:  # {Status.MOVES:d}: more moves than room\n"
                    f"                        T[XS] += 1\n"
                    f"                        T[XS + 1] = 0\n"
                    f"                        n = push(T, 0, 0, 0, {index}, 0)\n"
                    f"                        break")
        if rule is not None:  # pragma: no cover - Rules takes no other value
            raise Unsupported(f"pass rule {rule!r}")
        return ""

    def write(self) -> str:
        goals = self.goals
        n = self.players
        self.resolve("after", [c for c in goals.conditions if not c.goal.needs_moves])
        self.resolve("stuck_conditions", [c for c in goals.conditions if c.goal.needs_moves])
        stalemate = _KINDS.index(goals.stalemate)
        priorities = {t.priority for t in self.templates}
        runs = self.runs()
        if sum(map(len, runs)) > _SPLIT_LINES:
            # Too long for one function: the templates become functions, and the plain
            # ones each write their moves out again (see inline).
            self.split = True
            self.inline = self.inlined()
            self.lazy_allowed = False  # (see tail_at)
            runs = self.runs()
        parts = ""
        if self.split:
            body, parts = self.functions(runs)
        else:
            body = self.levels(runs)
        rules = self.game.move_rules
        up = self.follow_up
        if up is not None and up.test is not None:
            # Written before whole_moves, which writes the tests of the mover's group
            # every expression written so far reads (this one's too).
            follow_test = self.expr(up.test, "fc")
        whole, whole_head, whole_tail = self.whole_moves()
        checks = ""
        if rules.protect or self.asks_attacks or \
                any(isinstance(goal, g.Checkmated) for goal in goals.leaves()):
            checks = self.attacks()
        follow_up = follow_on = turns_key = ""
        if self.turns_keys >= 0:
            # The key reads the turns played, up to the most a goal counts.
            limit = self.game.turns_limit
            turns_key = "".join(f"    {line}\n" for line in (
                f"t1 = S[{TURNS}]",
                f"if t1 != H[h, {_HIST - 4}]:",
                f"    key ^= T[{self.turns_keys} + min(t1 - 1, {limit})] ^ "
                f"T[{self.turns_keys} + min(t1, {limit})]"))
        if up is not None and up.along:
            # rules.FollowUp along directions: a move made with none due that goes
            # along them (see whole_moves) is followed.
            follow_up = "".join(f"    {line}\n" for line in (
                "due = -1",
                f"if S[{FOLLOW}] < 0 and prepares(T, at, count, mover):",
                "    due = 0"))
        elif up is not None:
            # rules.FollowUp of a test: after a move made with none due that puts a
            # piece down, its test read at the piece's cell for the mover.
            # A test of the mover's group reads T[XCN], which generate sets as it
            # starts: here it is set again, for the mover on the board after the move.
            groups = [f"            T[XCN + {self.connections[p.directions]}] = 1 if "
                      f"one_group(S, T, mover, {self.group_links(p.directions)}) else 0"
                      for p in dict.fromkeys(ir.parts(up.test))
                      if isinstance(p, r.Connected)]
            follow_up = "".join(f"    {line}\n" for line in (
                "due = -1",
                f"if S[{FOLLOW}] < 0:",
                "    for i in range(count):",
                f"        if T[at + i] & 3 == {_SHIFT} or T[at + i] & 3 == {_PLACE}:",
                f"            fc = (S[{LAST}] >> 16) - 1",
                "            player = mover",
                *groups,
                f"            if {follow_test}:",
                "                due = 0",
                "            break"))
        if up is not None:
            # Where one is due, the mover goes on with it, in the same turn.
            follow_on = "".join(f"    {line}\n" for line in (
                "if due >= 0:",
                "    nxt = mover",
                f"    S[{TURNS}] -= 1",
                f"if due != S[{FOLLOW}]:",
                f"    key ^= T[{self.follow_keys} + 1 + S[{FOLLOW}]] ^ "
                f"T[{self.follow_keys} + 1 + due]",
                f"    S[{FOLLOW}] = due"))
        # The links of the directions the templates and tests name, for each player.
        rows = [self.board.player_links(p)[d] for p in range(n) for d in self.directions]
        links = self.put("links", [v for row in rows for v in row])
        chained = bool(self.partial_types)
        tail = [
            # The chains of partial moves, once every template has run.
            *(["    if T[XS + 2] > T[XS + 4]:",
               "        n = chains(S, T, player, n)",
               "        if n < 0: return n"] if chained else []),
            # A template that looped for ever in an attack asked by a run.
            *(["    if T[XE] != 0:",
               "        T[XE] = 0",
               f"        return {Status.LOOPS:d}"] if self.asks_attacks else []),
            # The rules of whole moves (see whole_moves).
            *whole_tail,
            # The moves that leave a protected piece attacked go (before the priorities:
            # the interpreter's classes hold the moves it keeps).
            *([f"    if T[{self.guards} + player] >= 0:",
               "        n = guard(S, T, player, n)",
               "        if n < 0: return n"] if rules.protect else []),
            f"    if {len(priorities) > 1}:",
            "        top = -(1 << 30)",
            "        for i in range(n):",
            "            if T[XP + i] > top: top = T[XP + i]",
            "        k = 0",
            "        for i in range(n):",
            "            if T[XP + i] == top:",
            "                T[XN + k] = T[XN + i]",
            "                T[XO + k] = T[XO + i]",
            "                T[XK + k] = T[XK + i]",
            "                T[XT + k] = T[XT + i]",
            "                k += 1",
            "        n = k",
            # The moves that take the most (rules.MaximalCaptures), after the
            # priorities as the interpreter filters them.
            *(["    n = maximal(S, T, n)"] if rules.select is not None else []),
            "    return n",
        ]
        size = self.size
        near_moves = near_make = near_undo = ""
        if self.near:
            near_moves = f"    if status == -1: S[{NEAR}] = -1\n"
            # The cells of the board the move changed (a count in hand it changed is
            # touched as a cell past the board's, HAND + code: no cell to look near).
            near_make = (
                f"    if S[{NEAR}] == -1:\n"
                "        m = 0\n"
                "        for j in range(k):\n"
                f"            if H[h, 5 + 2 * j] < {size}:\n"
                f"                S[{NEAR + 1} + m] = H[h, 5 + 2 * j]\n"
                "                m += 1\n"
                f"        S[{NEAR}] = m\n"
                "    else:\n"
                f"        S[{NEAR}] = 0\n")
            near_undo = f"    S[{NEAR}] = 0\n"
        group_move = self.group_move()
        chain_source = self.chains() + self.maximal()
        # The mover's cells, read by the templates that move a piece of the mover's
        # (drops, and templates of any piece, have starts of their own).
        mine = "    mine = 0\n"
        # The masks of the templates' filters (see bits), filled in the same pass.
        bits_before, bits_inside, bits_after = self.bit_scan()
        listed = self.mine_listed or any(isinstance(t, r.Group | r.Line)
                                         for t in self.templates)
        if listed or bits_inside:
            mine += "".join(line + "\n" for line in bits_before)
            mine += (
                "    # Without a branch: whether a cell holds a piece of the mover is a\n"
                "    # coin toss the processor cannot learn.\n"
                f"    for c in range({size}):\n")
            if listed:
                mine += ("        T[XC + mine] = c\n"
                         f"        mine += T[{self.owner} + S[{BOARD} + c]] == player\n")
            mine += "".join(line + "\n" for line in bits_inside + bits_after)
        for kinds, j in self.kind_lists.items():
            # Each list of the mover's pieces of some kinds, in the order of its cells.
            row = f"XKC + {j * (size + 1)}"
            mine += ("    k = 0\n"
                     "    for _s in range(mine):\n"
                     "        c = T[XC + _s]\n"
                     f"        T[{row} + 1 + k] = c\n"
                     f"        k += T[{self.kinds_mask(kinds)} + S[{BOARD} + c]]\n"
                     f"    T[{row}] = k\n")
        # A chain's move: its actions, then its steps' words (see _STEP_MARK).
        words = "(T[XK + i] & 65535) + (T[XK + i] >> 16)" if self.noted else "T[XK + i]"
        hash_words, hashed = "", "T[XN + i]"
        if self.apart:
            # Moves of some priorities were found with no hash (see push_lines).
            hash_words = ("        h = 0x51ED270B27\n"
                          f"        for j in range(T[XO + i], T[XO + i] + {words}):\n"
                          "            h = mix(h, T[XA + j])\n")
            hashed = "h"
        chain_count = "" if not self.noted else (
            "    for i in range(count):\n"
            f"        if T[at + i] & {_STEP_MARK}:\n"
            "            count = i\n"
            "            break\n")
        hand_touch = hand_take = hand_key = hand_undo = last_key = count_repeats = ""
        recycle_touch = recycle_take = change_take = keep_taken = replaced = ""
        promotion_change = f"                T[XA + w] = {_CHANGE} | (pos << 2) | (piece << 18)\n"
        if self.recycle_promotions:
            # rules.emit: a promotion takes its piece from the hand (none there: no
            # move); interpret._change: a later change of the cell keeps it taken.
            promotion_change = (
                "                tk = 0\n"
                "                if becomes != 0:\n"
                "                    if inhand(S, T, piece) < 0:\n"
                f"                        return {Status.NO_MOVE:d}\n"
                "                    tk = 1\n"
                f"                T[XA + w] = {_CHANGE} | (pos << 2) | (piece << 18) | "
                "(tk << 34)\n")
            replaced = (" (a promotion's from the hand stays unless the new piece is of its "
                        "owner and type, and then the new one is taken from the hand)")
            keep_taken = ("                if (a >> 34) & 1:\n"
                          f"                    if T[{self.sorts} + ((a >> 18) & 65535)] != "
                          f"T[{self.sorts} + changed]:\n"
                          "                        T[XA + k] = a\n"
                          "                        k += 1\n"
                          "                        continue\n"
                          "                    taken = 1\n")
            # A promotion's new piece leaves the hand: the first of its owner and type
            # the hand holds when the move is played (its count touched as a cell).
            change_take = (f"            if a & 3 == {_CHANGE} and (a >> 34) & 1:\n"
                           "                c = inhand(S, T, (a >> 18) & 65535)\n"
                           "                if c < 0:\n"
                           "                    c = (a >> 18) & 65535\n"
                           "                k = touch(S, H, h, k, HAND + c)\n"
                           "                if k < 0:\n"
                           f"                    return {Status.TOUCH:d}\n"
                           "                S[RES + c] -= 1\n")
        if self.recycle:
            # A captured piece goes to its owner's hand: its count is touched as a cell.
            recycle_touch = (f"        if a & 3 == {_CAPTURE} and "
                             f"S[{BOARD} + ((a >> 2) & 65535)] != 0:\n"
                             f"            k = touch(S, H, h, k, HAND + "
                             f"S[{BOARD} + ((a >> 2) & 65535)])\n"
                             "            if k < 0:\n"
                             f"                return {Status.TOUCH:d}\n")
            recycle_take = (f"            if S[{BOARD} + ((a >> 2) & 65535)] != 0:\n"
                            f"                S[RES + S[{BOARD} + ((a >> 2) & 65535)]] += 1\n")
        take = took = ""
        if self.taken:
            # What the move takes, read before it is made.
            take = ("    tk = 0\n"
                    "    for i in range(count):\n"
                    "        a = T[at + i]\n"
                    f"        if a & 3 == {_CAPTURE}:\n"
                    f"            tk |= T[{self.taken_bits} + S[{BOARD} + ((a >> 2) & 65535)]]\n")
            took = f"    S[{TAKEN}] = tk\n"
        since = since_save = since_undo = empties = count_gone = ""
        if self.shrinking:
            # The rows before the last move that took a piece hold none that may repeat.
            # A move took one when it left more cells empty: the count of code 0, which
            # make keeps as it keeps every code's (from 0 at the position's start: only
            # its changes count here).
            since = f"S[{SINCE}], "
            since_save = f"    H[h, {_HIST - 6}] = S[{SINCE}]\n"
            since_undo = f"    S[{SINCE}] = H[h, {_HIST - 6}]\n"
            empties = "    empty = S[CNT]\n"
            count_gone = f"    if S[CNT] > empty:\n        S[{SINCE}] = h + 1\n"
        if self.repeats:
            # Every earlier position is a row of the history (its key before the move).
            count_repeats = (f"    key = S[{KEY}]\n"
                             "    c = 1\n"
                             f"    for i in range({since}h + 1):\n"
                             "        if H[i, 1] == key:\n"
                             "            c += 1\n"
                             f"    S[{REPS}] = c\n")
        if self.last_keys >= 0:
            # The key reads the last move's cells (none before the first move).
            last_key = f"    l0 = H[h, {_HIST - 1}]\n" + self.last_key_lines()
        push = "".join(f"    {line}\n" for line in self.push_lines("index", "priority"))
        shift = "" if self.inline == self.plain else (
            "@njit(cache=True)\n"
            "def shift(S, T, n, pos, hand, hf, becomes, index, priority):\n"
            "    # The move of a plain template (_Writer.shift_lines), for rules with too\n"
            "    # many to write out.\n"
            + "".join(f"    {line}\n" for line in self.shift_lines("becomes", "index",
                                                                   "priority"))
            + "    return n\n\n\n")
        if self.reserved:
            # A drop from the reserve touches its piece's count as the cell HAND + code
            # (kept and restored as a cell's piece is), and takes one.
            hand_touch = (f"        if a & 3 == {_PLACE} and (a >> 34) & 1:\n"
                          "            k = touch(S, H, h, k, HAND + ((a >> 18) & 65535))\n"
                          "            if k < 0:\n"
                          f"                return {Status.TOUCH:d}\n")
            hand_take = ("    for i in range(count):\n"
                         "        a = T[at + i]\n"
                         f"        if a & 3 == {_PLACE} and (a >> 34) & 1:\n"
                         "            S[RES + ((a >> 18) & 65535)] -= 1\n")
            hand_key = self.hand_key_lines()
            hand_undo = ("        if cell >= HAND:\n"
                         f"            S[{BOARD} + cell] = H[h, 6 + 2 * j]\n"
                         "            continue\n")
        # The scratch area: the moves found (hash, priority, chain, words' start and
        # count, template), the buckets of the chains, the generation's stamp and the
        # words' top, the mover's cells, the group steps, a run's queue and changes,
        # a move's moving pieces, and the words of the moves.
        scratch = len(self.table)
        at = {}
        for name, width in (("XN", MAX_MOVES), ("XP", MAX_MOVES), ("XL", MAX_MOVES),
                            ("XO", MAX_MOVES), ("XK", MAX_MOVES), ("XT", MAX_MOVES),
                            ("XH", _BUCKETS), ("XS", 5 if chained else 2), ("XY", 1), ("XC", size),
                            ("XKC", len(self.kind_lists) * (size + 1)),
                            *((("XB", len(self.bit_atoms)),) if self.bit_atoms else ()),
                            # The cells' flags: the last run's stamp, then a row a name.
                            *((("XP0", 1), ("XF", len(self.position_flags) * size))
                              if self.position_flags else ()),
                            *((("XE", 1),) if self.asks_attacks else ()),
                            # The tests of the mover's group, and the searches of groups.
                            *((("XCN", len(self.connections)),) if self.connections else ()),
                            *((("XI", 1 + 5 * size),) if whole else ()),
                            *((("XJ", self.stays_regions),) if self.stays_regions else ()),
                            ("XG", 2 * size),
                            ("XQ", _QUEUE), ("XCH", 3 * _CHANGES), ("XM", _TOUCH),
                            ("XA", _ARENA), ("XU", _HIST), ("XV", 3 * size),
                            *((("XW", _ATTACKERS),) if checks else ()),
                            *self.chain_regions()):
            at[name] = scratch
            scratch += width
        self.registry = scratch
        self.scratch = scratch - len(self.table)
        layout = "\n".join(f"{name} = {offset}" for name, offset in at.items())
        def open_generate(name: str) -> str:
            return (f"@njit(cache=True)\ndef {name}(S, T, player):\n{mine}"
                    "    T[XS] += 1  # a new generation of duplicate chains\n"
                    "    T[XS + 1] = 0  # and of words\n"
                    + ("    T[XS + 2] = 0  # and of the steps of chains\n"
                       "    T[XS + 3] = 0  # the steps the chains' search took\n"
                       "    T[XS + 4] = 0  # the first steps whose chains were searched\n"
                       if chained else "")
                    + ("    T[XE] = 0  # no attack looped yet\n" if self.asks_attacks else "")
                    + "".join(line + "\n" for line in whole_head)
                    + "    n = 0\n")

        lazy = ""
        if self.lazy:
            # The runs that stop at their tails (see tail_at), and the tails.
            lines = self.levels([self.lazy[index][0] if index in self.lazy else lines
                                 for index, lines in enumerate(runs)])
            lazy = (open_generate("generate_lazy") + "\n".join(lines) + "\n"
                    + "\n".join(tail) + "\n\n\n"
                    "@njit(cache=True, inline='always')\n"
                    "def finish(S, T, n):\n"
                    "    # The n-th move generate_lazy found, finished: its words written.\n"
                    "    player = turn_mover(S, T)\n"
                    + "".join(line + "\n" for _, lines in self.lazy.values() for line in lines)
                    + f"    return {Status.NO_MOVE:d}\n\n\n")
        # numba's cache knows nothing of a change to what another module compiles.
        from boardlab.core import unmanaged as unmanaged_module

        unmanaged_digest = hashlib.sha256(
            Path(unmanaged_module.__file__).read_bytes()).hexdigest()[:16]
        bits_import = "from numba.cpython.unsafe.numbers import trailing_zeros\n" \
            if self.bit_atoms else ""
        back_helper = self.filter_functions()
        head = f'''"""The kernel of {self.game.name} (written by boardlab.core.kernel)."""
import numpy as np
from numba import njit

from boardlab.core.rng import next_below
from boardlab.core.unmanaged import unmanaged  # {unmanaged_digest}
{bits_import}
LK = {links}
ND = {max(1, len(self.directions))}
CNT = {BOARD + size}
RES = CNT + {self.ncodes}
HAND = {size + self.ncodes}
MOVES = {BOARD + size + self.ncodes * (2 if self.reserved else 1)}
{layout}
RB = {self.registry}
RK = RB + {_RHEAD}
{back_helper}

@njit(cache=True)
def mix(h, w):
    # A hash of words: in unsigned arithmetic, since numba marks a signed product or
    # sum as never overflowing, and LLVM may then fold one that does into anything.
    return np.int64(np.uint64(h ^ w) * np.uint64(0x100000001B3) + np.uint64(h >> 29))


@njit(cache=True)
def spread(key):
    # A hash slot's bits from a key (mix's unsigned arithmetic; its high bits, the
    # best mixed, shifted down: mask them to the table's size).
    return np.int64((np.uint64(key ^ (key >> 29)) * np.uint64(0x5851F42D4C957F2D))
                    >> np.uint64(20))


@njit(cache=True)
def same(T, o, top, count):
    # Whether the o-th move found has the ``count`` words at T[XA + top:].
    for i in range(count):
        if T[XA + T[XO + o] + i] != T[XA + top + i]:
            return False
    return True


@njit(cache=True)
def push(T, n, top, w, index, priority):
    # The move whose words are T[XA + top:XA + w], made by template ``index``: kept
    # unless a move of its priority with the same actions came before (as the
    # interpreter drops it: the same move made by a template of a higher priority
    # still shadows the lower ones). The moves so far are chained by a hash of their
    # words, so only the few in this move's chain are compared; a chain's head is
    # stamped with this generation's number, so no table is cleared. (No chains when
    # the rules make no two equal moves: _apart.) Plain templates have it written
    # out in generate (_Writer.shift).
{push}    return n


{shift}@njit(cache=True)
def kept(T, k, i):
    # The i-th move found kept as the k-th (k <= i), by a filter of the moves found.
    T[XN + k] = T[XN + i]
    T[XP + k] = T[XP + i]
    T[XO + k] = T[XO + i]
    T[XK + k] = T[XK + i]
    T[XT + k] = T[XT + i]


@njit(cache=True)
def queued(T, q, word):
    for i in range(q):
        if T[XQ + i] == word:
            return True
    return False


@njit(cache=True)
def arrives(T, q, cell):
    for i in range(q):
        a = T[XQ + i]
        if a & 3 == {_SHIFT} and (a >> 18) & 65535 == cell:
            return True
    return False


@njit(cache=True)
def piece_after(S, T, top, w, cell):
    # The piece on ``cell`` once the actions T[XA + top:XA + w] are made (all at once).
    piece = S[{BOARD} + cell]
    for i in range(top, w):
        a = T[XA + i]
        if a & 3 == {_CAPTURE} and (a >> 2) & 65535 == cell:
            piece = 0
    for i in range(top, w):
        a = T[XA + i]
        if a & 3 == {_SHIFT} and (a >> 2) & 65535 == cell:
            piece = 0
    for i in range(top, w):
        a = T[XA + i]
        k = a & 3
        if k == {_SHIFT} and (a >> 18) & 65535 == cell:
            piece = S[{BOARD} + ((a >> 2) & 65535)]
        elif k == {_PLACE} and (a >> 2) & 65535 == cell:
            piece = (a >> 18) & 65535
    for i in range(top, w):
        a = T[XA + i]
        if a & 3 == {_CHANGE} and (a >> 2) & 65535 == cell:
            piece = (a >> 18) & 65535
    return piece


@njit(cache=True)
def emit(S, T, n, pos, hand, hf, q, nc, becomes, copy, rsv, index, priority, player):
    w = compose(S, T, pos, hand, hf, q, nc, becomes, copy, rsv)
    if w == {Status.NO_MOVE:d}:  # a promotion the hand holds no piece for: no move
        return n
    if w < 0:
        return w
    return push(T, n, T[XS + 1], w, index, priority)


@njit(cache=True)
def compose(S, T, pos, hand, hf, q, nc, becomes, copy, rsv):
    # The words of the move an add makes (rules.emit), written at the words' top: the
    # queued actions, then the piece in hand going to ``pos``, then the changes of type
    # and owner. Their end, or -14.
    top = T[XS + 1]
    if top + q + 3 + nc > {_ARENA}:
        return {Status.QUEUE:d}
    w = top
    for i in range(q):
        T[XA + w] = T[XQ + i]
        w += 1
    if hand != 0 and pos < 0:
        # Off the board (a step that may leave it): the piece in hand is taken.
        if hf >= 0 and not copy:
            T[XA + w] = {_CAPTURE} | (hf << 2)
            w += 1
    elif hand != 0:
        vacated = False
        doomed = False
        for i in range(q):
            a = T[XQ + i]
            if (a >> 2) & 65535 == pos:
                if a & 3 == {_SHIFT}:
                    vacated = True
                elif a & 3 == {_CAPTURE}:
                    doomed = True
        if S[{BOARD} + pos] != 0 and not vacated and pos != hf and not doomed:
            T[XA + w] = {_CAPTURE} | (pos << 2)
            w += 1
        piece = hand if becomes == 0 else becomes
        if doomed and pos != hf:
            # The capture comes after the move: it takes the arriving piece.
            if hf >= 0 and not copy:
                T[XA + w] = {_CAPTURE} | (hf << 2)
                w += 1
        elif hf < 0 and rsv != 0 and piece != hand:
            # The reserve gives the piece in hand, then promoted on its cell (rules.emit).
            T[XA + w] = {_PLACE} | (pos << 2) | (hand << 18) | (1 << 34)
            w += 1
            if piece != hand:
{promotion_change}                w += 1
        elif hf < 0 or copy:
            # From the mover's reserve: a drop's piece, unless the supply is unlimited.
            T[XA + w] = {_PLACE} | (pos << 2) | (piece << 18) | \
                ((1 if hf < 0 and rsv != 0 else 0) << 34)
            w += 1
        else:
            if pos != hf:
                T[XA + w] = {_SHIFT} | (hf << 2) | (pos << 18)
                w += 1
            if piece != hand:
{promotion_change}                w += 1
    for c in range(2 * nc):
        # The changes of type and owner in order, then the attributes, a cell at a
        # time in the order each cell was first given one (rules.emit).
        if c < nc:
            if T[XCH + 3 * c + 2] != 0:
                continue
            cell = T[XCH + 3 * c]
        else:
            if T[XCH + 3 * (c - nc) + 2] != 1:
                continue
            cell = T[XCH + 3 * (c - nc)]
            first = True
            for b in range(c - nc):
                if T[XCH + 3 * b + 2] == 1 and T[XCH + 3 * b] == cell:
                    first = False
                    break
            if not first:
                continue
        piece = piece_after(S, T, top, w, cell)
        if piece == 0:
            continue
        if c < nc:
            changed = T[T[XCH + 3 * c + 1] + piece]
        else:
            changed = piece
            for b in range(c - nc, nc):
                if T[XCH + 3 * b + 2] == 1 and T[XCH + 3 * b] == cell:
                    changed = T[T[XCH + 3 * b + 1] + changed]
        if changed == piece:
            continue
        # A change replaces an earlier one of its cell{replaced}.
        taken = 0
        k = top
        for i in range(top, w):
            a = T[XA + i]
            if a & 3 == {_CHANGE} and (a >> 2) & 65535 == cell:
{keep_taken}                continue
            T[XA + k] = a
            k += 1
        w = k
        T[XA + w] = {_CHANGE} | (cell << 2) | (changed << 18) | (taken << 34)
        w += 1
    return w


{group_move}{parts}{whole}{checks}{chain_source}{open_generate("generate")}'''
        limit = self.offsets["ply limit"]

        def moves_source(name: str, generate: str, decorator: str, after: str = "after"
                         ) -> str:
            # moves, by the name given, finding the moves by ``generate`` and judging
            # the position by ``after``
            if goals.moves_first:
                # A player to move without a move is judged first (Goals.moves_first),
                # then the conditions and the ply limit where there are moves.
                passes = "".join(line[4:] + "\n" for line in self.passes().splitlines())
                return f'''{decorator}
def {name}(S, T):
    # The position's status and moves (in T[XN:XN + n], unregistered): n | (status + 2)
    # << 24, or -1 and -2 as generate says them.
    player = S[{TO_MOVE}]
    mover = turn_mover(S, T)
    n = {generate}(S, T, mover)
    if n < 0:
        return n
{passes}    if n == 0:
        status = stuck_conditions(S, T)
        if status < 0:
            status = {stalemate * n} + player
        return (status + 2) << 24
    status = {after}(S, T)
{near_moves}    if status < 0 and T[{limit}] > 0 and S[{PLY}] >= T[{limit}]:
        status = {2 * n}  # a draw when the game reaches its ply limit
    if status >= 0:
        n = 0
    return n | ((status + 2) << 24)


'''
            return f'''{decorator}
def {name}(S, T):
    # The position's status and moves (in T[XN:XN + n], unregistered): n | (status + 2)
    # << 24, or -1 and -2 as generate says them.
    status = {after}(S, T)
{near_moves}    if status < 0 and T[{limit}] > 0 and S[{PLY}] >= T[{limit}]:
        status = {2 * n}  # a draw when the game reaches its ply limit
    player = S[{TO_MOVE}]
    n = 0
    if status < 0:
        mover = turn_mover(S, T)
        n = {generate}(S, T, mover)
        if n < 0:
            return n
{self.passes()}
        if n == 0:
            status = stuck_conditions(S, T)
            if status < 0:
                status = {stalemate * n} + player
    return n | ((status + 2) << 24)


'''

        def plays(suffix: str, decorator: str) -> str:
            # mplay and make, named with the suffix (the playouts' inlined copies)
            return f'''{decorator}
def mplay{suffix}(S, H, T, h, at, count):
    # The actions of the ``count`` words at T[at:], all at once (as a PieceState plays
    # them): the shifts' pieces are read first, then the captures and the shifts'
    # sources empty, the shifts land, and the drops and changes follow in order.
    a = T[at + count - 1]
    if a & 3 == {_SHIFT} and (count == 1 or ({not self.recycle} and
            count == 2 and T[at] == {_CAPTURE} | (((a >> 18) & 65535) << 2))):
        # The common move, at once: a piece from a cell to another, taking what stood
        # there.
        src = (a >> 2) & 65535
        dst = (a >> 18) & 65535
        H[h, 5] = src
        H[h, 6] = S[{BOARD} + src]
        H[h, 7] = dst
        H[h, 8] = S[{BOARD} + dst]
        S[{BOARD} + dst] = S[{BOARD} + src]
        S[{BOARD} + src] = 0
        S[{LAST}] = (src + 1) | ((dst + 1) << 16)
        return 2
    if count == 1 and a & 3 == {_PLACE} and (a >> 34) & 1 == 0 and \
            S[{BOARD} + ((a >> 2) & 65535)] == 0:
        # A drop on an empty cell from no reserve, at once.
        dst = (a >> 2) & 65535
        H[h, 5] = dst
        H[h, 6] = 0
        S[{BOARD} + dst] = (a >> 18) & 65535
        S[{LAST}] = (dst + 1) << 16
        return 1
    k = 0
    shifts = 0
    for i in range(count):
        a = T[at + i]
        k = touch(S, H, h, k, (a >> 2) & 65535)
        if k < 0:
            return {Status.TOUCH:d}
{hand_touch}{recycle_touch}        if a & 3 == {_SHIFT}:
            k = touch(S, H, h, k, (a >> 18) & 65535)
            if k < 0:
                return {Status.TOUCH:d}
            if shifts >= {_TOUCH}:
                return {Status.TOUCH:d}
            T[XM + shifts] = S[{BOARD} + ((a >> 2) & 65535)]
            shifts += 1
    for i in range(count):
        a = T[at + i]
        if a & 3 == {_CAPTURE}:
{recycle_take}            S[{BOARD} + ((a >> 2) & 65535)] = 0
    for i in range(count):
        a = T[at + i]
        if a & 3 == {_SHIFT}:
            S[{BOARD} + ((a >> 2) & 65535)] = 0
    j = 0
    for i in range(count):
        a = T[at + i]
        if a & 3 == {_SHIFT}:
            S[{BOARD} + ((a >> 18) & 65535)] = T[XM + j]
            j += 1
            # The last move's cells change with a shift or a drop (as a PieceState's do).
            S[{LAST}] = (((a >> 2) & 65535) + 1) | ((((a >> 18) & 65535) + 1) << 16)
    for i in range(count):
        a = T[at + i]
        if a & 3 == {_PLACE} or a & 3 == {_CHANGE}:
            S[{BOARD} + ((a >> 2) & 65535)] = (a >> 18) & 65535
            if a & 3 == {_PLACE} and shifts == 0:
                S[{LAST}] = (((a >> 2) & 65535) + 1) << 16
{change_take}{hand_take}    return k


{decorator}
def make{suffix}(S, H, T, h, at, count, number):
    # The move of the ``count`` words at T[at:] (registry number ``number``, -1 for a
    # playout's) made on S, what it changes kept in row h of H; the new position not
    # scanned. 0, or -15 (nothing changed) when it changes more cells than a row holds.
    H[h, 0] = S[{TO_MOVE}]
    H[h, 1] = S[{KEY}]
    H[h, 2] = S[{STATUS}]
    H[h, 3] = S[{MOVER}]
    H[h, 4] = number
    H[h, {_HIST - 5}] = S[{FOLLOW}]
    H[h, {_HIST - 4}] = S[{TURNS}]
    H[h, {_HIST - 3}] = S[{TAKEN}]
    H[h, {_HIST - 2}] = S[{REPS}]
    H[h, {_HIST - 1}] = S[{LAST}]
{since_save}{take}    k = mplay{suffix}(S, H, T, h, at, count)
    if k < 0:
        # Nothing was changed: a move's cells are all touched before any changes.
        return k
{took}{near_make}
    if k < {_TOUCH}:
        H[h, 5 + 2 * k] = -1  # the touched cells end here
    key = S[{KEY}]
{empties}    for j in range(k):
        cell = H[h, 5 + 2 * j]
        old = H[h, 6 + 2 * j]
        new = S[{BOARD} + cell]
{hand_key}        if old != new:
            S[CNT + old] -= 1
            S[CNT + new] += 1
            if old != 0:
                key ^= T[{self.zobrist} + cell * {len(self.pieces) - 1} + old - 1]
            if new != 0:
                key ^= T[{self.zobrist} + cell * {len(self.pieces) - 1} + new - 1]
{count_gone}{last_key}    mover = S[{TO_MOVE}]
    ply = S[{PLY}]
{follow_up}    {"nxt = (mover + 1) % " + str(n) if self.alternate
     else "nxt = T[" + str(self.turn_players) + " + turn(ply + 1)]"}
    S[{TURNS}] += 1
{follow_on}{turns_key}    S[{KEY}] = key ^ T[{self.sides} + turn(ply) * {n} + mover] ^ \\
        T[{self.sides} + turn(ply + 1) * {n} + nxt]
    S[{TO_MOVE}] = nxt
    S[{MOVER}] = mover
    S[{PLY}] = ply + 1
    S[{DEPTH}] = h + 1
    S[{NMOVES}] = -1
{count_repeats}    return 0


'''

        mid = f'''

@njit(cache=True)
def intern(T, S, h, player, template, top, count, write):
    # The registry index of the move with these words (found at T[XA + top:]), made
    # by ``template`` for ``player``; registered now in write mode.
    key = mix(mix(h, template), player)
    cap = T[RB + 1]
    meta = RK + 2 * cap
    words = RK + 3 * cap
    slot = spread(key) & (cap - 1)
    while True:
        k = T[RK + slot]
        if k == -1:
            break
        if k == key:
            index = T[RK + cap + slot]
            m = T[meta + index]
            if m & 7 == player and (m >> 3) & 4095 == template and \\
                    (m >> 15) & 4095 == count:
                at = words + (m >> 27)
                same = True
                for i in range(count):
                    if T[at + i] != T[XA + top + i]:
                        same = False
                        break
                if same:
                    return index
        slot = (slot + 1) & (cap - 1)
    if not write:
        return {Status.UNREGISTERED:d}
    index = T[RB]
    used = T[RB + 3]
    if index >= cap // 2 or used + count > {_RWORDS} * cap:
        return -1
    T[RK + slot] = key
    T[RK + cap + slot] = index
    T[meta + index] = (used << 27) | (count << 15) | (template << 3) | player
    for i in range(count):
        T[words + used + i] = T[XA + top + i]
    T[RB + 3] = used + count
    T[RB] = index + 1
    return index


@njit(cache=True)
def rehash(T, old):
    # A grown registry: every move of the old one again, in order (each keeps its
    # index).
    ocap = old[1]
    for index in range(old[0]):
        m = old[{_RHEAD} + 2 * ocap + index]
        count = (m >> 15) & 4095
        at = {_RHEAD} + 3 * ocap + (m >> 27)
        h = 0x51ED270B27
        for i in range(count):
            T[XA + i] = old[at + i]
            h = mix(h, old[at + i])
        if intern(T, T, h, m & 7, (m >> 3) & 4095, 0, count, 1) != index:
            return -1
    return old[0]


{moves_source('moves', 'generate', '@njit(cache=True)')}@njit(cache=True)
def scan(S, T, write):
    S = unmanaged(S)  # no counting of references below (boardlab.core.unmanaged)
    T = unmanaged(T)
    found = moves(S, T)
    if found < 0:
        return found
    n = found & 16777215
    status = (found >> 24) - 2
    player = S[{TO_MOVE}]
    mover = turn_mover(S, T)
    if n > S.shape[0] - MOVES:
        return {Status.ROOM:d}
    top = -1
    for i in range(n):
{hash_words}        index = intern(T, S, {hashed}, mover, T[XT + i], T[XO + i], {words}, write)
        if index < 0:
            return {Status.REGISTRY:d} if index == -1 else index
        S[MOVES + i] = index
        if index > top:
            top = index
    S[{NMOVES}] = n
    S[{STATUS}] = status
    packed = n | ((status + 2) << 24) | (player << 31)
    if top >= T[RB + 2]:
        packed |= 1 << 34  # moves without a Move object yet
    if T[RB] * 4 > T[RB + 1] or T[RB + 3] * 2 > {_RWORDS} * T[RB + 1]:
        packed |= 1 << 35
    return packed


{self.turn_mover()}

@njit(cache=True)
def turn(ply):
    if ply < {len(self.turns)}:
        return ply
    return {self.repeat_from} + (ply - {self.repeat_from}) % {len(self.turns) - self.repeat_from}


@njit(cache=True)
def touch(S, H, h, k, cell):
    for j in range(k):
        if H[h, 5 + 2 * j] == cell:
            return k
    if k >= {_TOUCH}:
        return -1
    H[h, 5 + 2 * k] = cell
    H[h, 6 + 2 * k] = S[{BOARD} + cell]
    return k + 1


{plays('', '@njit(cache=True)')}@njit(cache=True)
def play(S, H, T, index):
    S = unmanaged(S)
    H = unmanaged(H)
    T = unmanaged(T)
    write = index >> 40
    index &= (1 << 40) - 1
    if index < 0 or index >= T[RB]:
        return {Status.ILLEGAL:d}
    if T[RK + 2 * T[RB + 1] + index] & 7 != turn_mover(S, T):
        return {Status.ILLEGAL:d}
    if S[{NMOVES}] < 0:
        packed = scan(S, T, write)
        if packed < 0:
            return packed
    legal = False
    for i in range(S[{NMOVES}]):
        if S[MOVES + i] == index:
            legal = True
            break
    if not legal:
        return {Status.ILLEGAL:d}
    h = S[{DEPTH}]
    if h >= H.shape[0]:
        return {Status.HISTORY:d}
    at = RK + 3 * T[RB + 1] + (T[RK + 2 * T[RB + 1] + index] >> 27)
    count = (T[RK + 2 * T[RB + 1] + index] >> 15) & 4095
{chain_count}    k = make(S, H, T, h, at, count, index)
    if k < 0:
        return k
    packed = scan(S, T, write)
    if packed == {Status.ROOM:d}:
        return {Status.ROOM_AFTER:d}
    if packed == {Status.REGISTRY:d}:
        return {Status.REGISTRY_AFTER:d}
    if packed == {Status.UNREGISTERED:d}:
        return {Status.UNREGISTERED_AFTER:d}
    if packed == {Status.LOOPS:d} or packed == {Status.MOVES:d}:
        # The move stands; only the new position's moves failed, which its
        # legal_moves will say, as the interpreter does.
        S[{STATUS}] = {UNKNOWN}
        return packed - {Status.LOOPS - Status.LOOPS_AFTER:d}
    if packed <= {Status.QUEUE:d}:
        S[{STATUS}] = {UNKNOWN}
        return {Status.ERROR_AFTER:d}
    return packed


@njit(cache=True)
def undo(S, H):
    S = unmanaged(S)
    H = unmanaged(H)
    h = S[{DEPTH}] - 1
    for j in range({_TOUCH}):
        cell = H[h, 5 + 2 * j]
        if cell < 0:
            break
{hand_undo}        S[CNT + S[{BOARD} + cell]] -= 1
        S[{BOARD} + cell] = H[h, 6 + 2 * j]
        S[CNT + S[{BOARD} + cell]] += 1
    S[{TO_MOVE}] = H[h, 0]
    S[{KEY}] = H[h, 1]
    S[{STATUS}] = H[h, 2]
    S[{MOVER}] = H[h, 3]
    S[{FOLLOW}] = H[h, {_HIST - 5}]
    S[{TURNS}] = H[h, {_HIST - 4}]
    S[{LAST}] = H[h, {_HIST - 1}]
    S[{REPS}] = H[h, {_HIST - 2}]
    S[{TAKEN}] = H[h, {_HIST - 3}]
{since_undo}    S[{NMOVES}] = -1
    S[{PLY}] -= 1
    S[{DEPTH}] = h
{near_undo}''' + self.playouts(
            plays('_run', "@njit(cache=True, inline='always')")
            + (moves_source('moves_lazy', 'generate_lazy', "@njit(cache=True, inline='always')",
                            self.after_run) if self.lazy else "")
            # Without lazy moves, the copy of moves in run's loop (see playouts) judges
            # by the inlined copy of after.
            + (moves_source('moves_run', 'generate', "@njit(cache=True, inline='always')",
                            self.after_run) if not self.lazy and self.after_run != "after"
               else "")) + self.perft() + self.uct()
        helpers, renames = _merge_shapes("\n\n".join(
            self.helpers + [text for *_, text in self.routines.values()]))
        return _unsigned_indexes(_unliteral(_rename_calls(
            head + "\n".join(body) + "\n" + "\n".join(tail) + "\n\n\n"
            + helpers + ("\n\n" + lazy if lazy else "") + mid, renames)))


    def perft(self) -> str:
        """The functions of a perft counted whole in the kernel: ``perft`` and what it
        calls (see :meth:`KernelPosition.perft`). Each position's moves are found by
        ``moves`` and made by ``make`` as a playout's are, and unmade by ``undo``."""
        count = self.actions_of("T[XK + k]")
        return f'''

# Perft, counted in the kernel.
@njit(cache=True)
def keep_moves(T, n, w, at, cnt, m):
    # The words of the n moves just found copied to T[w:], out of the scratch the next
    # position's moves are found in, each move's start and count to at[m + k] and
    # cnt[m + k]; the words' new top, or -1 when T or at has no room left.
    if m + n > at.shape[0]:
        return -1
    for k in range(n):
        c = {count}
        o = XA + T[XO + k]
        if w + c > T.shape[0]:
            return -1
        for i in range(c):
            T[w + i] = T[o + i]
        at[m + k] = w
        cnt[m + k] = c
        w += c
    return w


@njit(cache=True)
def perft(S, H, T, counts, room, at, cnt):
    # The moves at each depth 1..len(counts) below the position S (found as the
    # position's legal moves are), added to counts: each made on S, its history a row
    # of H, and unmade; the moves of the positions on the way kept in T[room:], their
    # starts in at and counts in cnt. 0, or what moves or make answered below zero, or
    # {Status.ROOM:d} out of room (S and H are then left where it stopped).
    S = unmanaged(S)
    H = unmanaged(H)
    T = unmanaged(T)
    counts = unmanaged(counts)
    depth = counts.shape[0]
    found = moves(S, T)
    if found < 0:
        return found
    n = found & 16777215
    counts[0] += n
    if depth < 2 or n == 0:
        return 0
    # By depth: the moves' range in at and cnt, the next one to make, the words' top
    # and what NEAR was once the moves were found (undo clears it).
    last = np.empty(depth, np.int64)
    nxt = np.empty(depth, np.int64)
    tops = np.empty(depth, np.int64)
    near = np.empty(depth, np.int64)
    w = keep_moves(T, n, room, at, cnt, 0)
    if w < 0:
        return {Status.ROOM:d}
    nxt[0] = 0
    last[0] = n
    tops[0] = w
    near[0] = S[{NEAR}]
    level = 0
    while True:
        if nxt[level] == last[level]:
            if level == 0:
                return 0
            level -= 1
            undo(S, H)
            S[{NEAR}] = near[level]
            continue
        k = nxt[level]
        nxt[level] += 1
        rc = make(S, H, T, S[{DEPTH}], at[k], cnt[k], -1)
        if rc < 0:
            return rc
        found = moves(S, T)
        if found < 0:
            return found
        n = found & 16777215
        counts[level + 1] += n
        if n == 0 or level + 2 == depth:
            undo(S, H)
            S[{NEAR}] = near[level]
            continue
        w = keep_moves(T, n, tops[level], at, cnt, last[level])
        if w < 0:
            return {Status.ROOM:d}
        level += 1
        nxt[level] = last[level - 1]
        last[level] = last[level - 1] + n
        tops[level] = w
        near[level] = S[{NEAR}]
'''

    def playouts(self, plays: str) -> str:
        """The functions of random playouts played whole in the kernel: ``run`` and
        what it calls (see :meth:`KernelPosition.playouts`), with ``plays``, the source
        of the copies of mplay and make it inlines."""
        n = self.players
        # The history row a move is made with: the next, where the goals read the
        # history, else the first again.
        row = f"S[{DEPTH}]" if self.repeats else "0"
        taken_at = _taken_at(n)
        record_taken = ""
        if self.taken:
            # The pieces the move takes, kept for the position where a playout stops
            # (what its last move took is part of it).
            record_taken = (
                "        nt = 0\n"
                f"        for i in range(T[XO + k], T[XO + k] + {self.actions_of('T[XK + k]')}):\n"
                "            a = T[XA + i]\n"
                f"            c = S[{BOARD} + ((a >> 2) & 65535)]\n"
                f"            if a & 3 == {_CAPTURE} and c != 0 and nt < {_TOUCH}:\n"
                f"                R[{taken_at + 1} + nt] = c\n"
                "                nt += 1\n"
                f"        R[{taken_at}] = nt\n")
        real = [p for p in range(n) if p not in self.goals.chance]
        if real:
            leader = (f"    best = -1\n"
                      f"    leader = -1\n"
                      f"    for p in {tuple(real)!r}:\n"
                      f"        c = 0\n"
                      f"        for code in range(1, {self.ncodes}):\n"
                      f"            if T[{self.owner} + code] == p:\n"
                      f"                c += S[CNT + code]\n"
                      f"        if c > best:\n"
                      f"            best = c\n"
                      f"            leader = p\n"
                      f"        elif c == best:\n"
                      f"            leader = -1\n"
                      f"    return leader if leader >= 0 else {2 * n}\n")
        else:
            leader = f"    return {2 * n}\n"
        # The generator's source is part of this module's (so of its name): numba's
        # cache knows nothing of a change to a function another module compiles.
        from boardlab.core import rng

        digest = hashlib.sha256(Path(rng.__file__).read_bytes()).hexdigest()[:16]
        count = self.actions_of("T[XK + k]")
        finish = ""
        if self.lazy:
            # Only the move played has its words (see tail_at); a weighted choice
            # reads every move's (moves_run).
            finish = ("        if T[XK + k] < 0:\n"
                      "            rc = finish(S, T, k)\n"
                      "            if rc < 0:\n"
                      "                R[0] = np.int64(state)\n"
                      "                R[1] = plies\n"
                      "                R[2] = done\n"
                      "                return rc\n")
        return f'''

# The random playouts (boardlab.core.rng {digest}).
@njit(cache=True)
def captures(T, k):
    # 1 when the k-th move found takes a piece.
    for i in range(T[XO + k], T[XO + k] + {self.actions_of("T[XK + k]")}):
        if T[XA + i] & 3 == {_CAPTURE}:
            return 1
    return 0


@njit(cache=True)
def final(S, T, status):
    # A status as its returns read it: an ending by count is a win of the real player
    # with the most pieces, or a draw when several have as many.
    if status < {3 * n}:
        return status
{leader}

# A playout's ply calls moves, make and choose inlined in run's loop (numba inlines
# them as it compiles run; a call passes each array as seven words and costs a fifth
# of a Connect Four ply); scan and play keep the shared compiled ones.
{"" if not self.lazy and self.after_run != "after" else
   "moves_run = njit(inline='always')(moves.py_func)"}
{plays}

@njit(cache=True)
def run(S0, S, H, T, R, games, cap, budget, weights):
    # Uniformly random games (or by weights, see choose) from the position S0, each
    # played on S, no move registered. R holds what one call leaves to the next: the
    # generator's state, the plies of the game under way (-1: none), the games done,
    # the last game's status (-1: stopped at the cap), then the numbers of games by
    # final status and, last, of games stopped at cap plies (cap < 0: none). At most
    # budget plies a call: 0 when the games are done, -21 to be called again, or
    # moves' -1 and -2.
    S0 = unmanaged(S0)
    S = unmanaged(S)
    H = unmanaged(H)
    T = unmanaged(T)
    R = unmanaged(R)
    weights = unmanaged(weights)
    state = np.uint64(R[0])
    plies = R[1]
    done = R[2]
    while True:
        if plies < 0:
            if done >= games:
                R[0] = np.int64(state)
                R[2] = done
                return 0
            for i in range(MOVES):
                S[i] = S0[i]
            plies = 0
            R[{taken_at}] = -1  # no move yet: the start's own
        found = {"moves_lazy(S, T) if weights.shape[0] == 0 else " if self.lazy else ""}\
moves_run(S, T)
        if found < 0:
            R[0] = np.int64(state)
            R[1] = plies
            R[2] = done
            return found
        status = (found >> 24) - 2
        if status >= 0 or 0 <= cap <= plies:
            if status >= 0:
                status = final(S, T, status)
                R[4 + status] += 1
            else:
                R[{taken_at - 1}] += 1
            R[3] = status
            done += 1
            plies = -1
            continue
        if budget <= 0 or ({self.repeats} and S[{DEPTH}] >= H.shape[0]):
            # Out of plies for this call, or of history rows, which the goals read.
            R[0] = np.int64(state)
            R[1] = plies
            R[2] = done
            return {Status.BUDGET:d} if budget <= 0 else {Status.HISTORY:d}
        budget -= 1
        k, state = choose(S, T, found & 16777215, weights, state)
{finish}{record_taken}        if make_run(S, H, T, {row}, XA + T[XO + k], {count}, -1) < 0:
            R[0] = np.int64(state)
            R[1] = plies
            R[2] = done
            return {Status.TOUCH:d}
        plies += 1


@njit(cache=True, inline='always')
def choose(S, T, n, weights, state):
    # One of the n moves in T[XN:XN + n]: uniformly without weights; with them, by
    # its weight (by player, template and whether it captures; uniformly when every
    # move weighs 0). The index and the generator's next state.
    if weights.shape[0] == 0:
        return next_below(state, n)
    base = S[{TO_MOVE}] * {2 * (len(self.templates) + 1)}
    total = 0
    for i in range(n):
        total += weights[base + 2 * T[XT + i] + captures(T, i)]
    if total == 0:
        return next_below(state, n)
    r, state = next_below(state, total)
    k = 0
    while True:
        r -= weights[base + 2 * T[XT + k] + captures(T, k)]
        if r < 0:
            return k, state
        k += 1
'''
