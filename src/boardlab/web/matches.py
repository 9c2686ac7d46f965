"""Matches of the web app: seats, moves, clocks, offers, undo, rematch, group selection.

A match lives in the database (:mod:`boardlab.store.web`) as its game, options, players
and move notations; every request rebuilds the position by replaying the moves from the
initial state (states are never pickled). A game is a registered game's name or an
imported game's id (``zrf:...``, :mod:`boardlab.web.library`), stored with its variant.
A small in-memory cache keeps the latest position of recently used matches, so a request
replays only the moves it has not seen; it holds private copies, and every caller gets
its own clone.

**Seats.** Every seat is a human, a bot or open (waiting for someone to join). A human
seat is held by a secret *seat token*: whoever creates a match holds its human seats,
whoever joins an open seat holds that one, and only the holder moves, resigns, offers a
draw or asks for a take-back for it. The database keeps only the token's SHA-256. A
browser may bring its own token (one per browser, at least :data:`MIN_TOKEN` characters)
so that one secret serves all its matches; otherwise the server makes one and answers it
once. Undo is free when the caller holds every human seat (against bots, or hot-seat);
between people it takes the opponent's consent (a take-back request and its
acceptance). A finished match never changes again.

A random player's seat (a die: :attr:`Game.chance_players
<boardlab.core.game.Game.chance_players>`) is a *chance* seat: nobody holds, joins or
chooses a bot for it; the server moves it as it moves a random bot (the same bot pool
and live driver, so a restart loses nothing), each move drawn uniformly, from the seat's
seed and the ply when it has one. It scores 0 whatever ends the game (resigning leaves
it 0 too), takes no part in draw offers, keeps its seat in a rematch, and its clock is
never charged.

**Clocks.** A match with a time control keeps, per seat, the milliseconds left and whose
time runs since when; a move costs its mover the time since the previous one and adds
the increment. Time that has run out is noticed on every read of the match (and by the
live service's timer), and ends the game as a loss on time.

Writes are optimistic: a change is saved only if the match's revision is still the one
the change was computed from, so a bot that thought while someone undid a move, or two
tabs playing at once, get 409 instead of a corrupted history. A move may carry the
revision it was chosen on; if the match has changed since, it is refused (409).
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from boardlab.ai.bots import bot_kind, make_bot
from boardlab.catalog import resolve
from boardlab.core.game import Game, State, draw
from boardlab.core.registry import game_class
from boardlab.core.selection import moved_pieces, moves_using
from boardlab.errors import IllegalMoveError, NotationError
from boardlab.store import web as match_store
from boardlab.store.db import Store
from boardlab.store.web import StoredMatch
from boardlab.web.errors import ApiError
from boardlab.web.library import Library, is_imported
from boardlab.web.schemas import (
    MAX_BOT_SECONDS,
    BotPlayer,
    ChanceSeat,
    HumanPlayer,
    NewMatch,
    OpenSeat,
    player_json,
)
from boardlab.web.views import moves_json, points, state_json

#: A bot given no time and no budget of its own (depth, iterations) thinks this long.
DEFAULT_BOT_SECONDS = 1.0
CACHED_MATCHES = 128
#: How many recently changed matches the lobby looks through for the caller's own.
RECENT_OWN = 1000
#: The shortest seat token a browser may bring of its own.
MIN_TOKEN = 16
#: The longest seat token accepted (a longer one is refused before it is hashed).
MAX_TOKEN = 200


def digest(token: str) -> str:
    """What the database keeps of a seat token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A fresh secret seat token (192 random bits, URL-safe)."""
    return secrets.token_urlsafe(24)


def now_ms() -> int:
    """The wall clock in milliseconds since the epoch (what clocks are kept in)."""
    return int(time.time() * 1000)


def loss(seats: int, loser: int, chance: frozenset[int] = frozenset()) -> list[str]:
    """The result of a game that ``loser`` lost by resigning or on time: 0 for it and
    for the ``chance`` seats, 1 for every other seat."""
    return ["0" if seat == loser or seat in chance else "1" for seat in range(seats)]


def chance_seats(match: StoredMatch) -> frozenset[int]:
    """The seats of ``match`` the server draws moves for (random players)."""
    return frozenset(seat for seat, p in enumerate(match.players) if p.get("type") == "chance")


def chance_seed(seed: int | None, ply: int) -> int | None:
    """The seed of a chance seat's move at ``ply``: one per move, so a seeded die does
    not roll the same face every time (``None``, fresh randomness, stays ``None``)."""
    if seed is None:
        return None
    return int.from_bytes(hashlib.sha256(f"chance:{seed}:{ply}".encode()).digest()[:8], "big")


def status(match: StoredMatch) -> str:
    """``"over"``, ``"waiting"`` (a seat is still open) or ``"playing"``."""
    if match.result is not None:
        return "over"
    if any(p.get("type") == "open" for p in match.players):
        return "waiting"
    return "playing"


def clock_left(clock: Mapping[str, Any], at: int) -> list[int]:
    """Milliseconds left per seat at time ``at`` (the running seat's time counted down,
    never below 0)."""
    left = list(clock["remaining"])
    turn = clock.get("turn")
    if turn is not None and clock.get("since") is not None:
        left[turn] = max(0, left[turn] - (at - clock["since"]))
    return left


def new_clock(base: float, increment: float, players: Sequence[Mapping[str, Any]],
              first: int) -> dict[str, Any]:
    """A full clock for every seat; it runs for ``first`` from now, or not yet while a
    seat is open (it starts when the last one is taken)."""
    waiting = any(p.get("type") == "open" for p in players)
    return {"base": base, "increment": increment,
            "remaining": [round(base * 1000)] * len(players),
            "turn": None if waiting else first, "since": None if waiting else now_ms()}


def stopped(clock: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The clock of a game that has just ended: the time left now, nobody's running."""
    if clock is None:
        return None
    return {**clock, "remaining": clock_left(clock, now_ms()), "turn": None, "since": None}


def clock_json(clock: Mapping[str, Any] | None, at: int) -> dict[str, Any] | None:
    """A clock as the browser sees it: the time control, milliseconds ``left`` per seat
    at ``at`` (the server's time, also given), and the seat whose time runs."""
    if clock is None:
        return None
    return {"base": clock["base"], "increment": clock["increment"],
            "left": clock_left(clock, at), "running": clock.get("turn"), "at": at}


def bot_options(player: BotPlayer) -> dict[str, Any]:
    """The options :func:`make_bot` gets for a bot seat: the requested budget, with time
    capped at :data:`MAX_BOT_SECONDS` (also when only a depth or an iteration count is
    given, which could otherwise run for minutes)."""
    accepted = bot_kind(player.bot).options
    own_budget = (player.depth is not None and "depth" in accepted) or \
        (player.iterations is not None and "iterations" in accepted)
    seconds = player.time
    if seconds is None:
        seconds = MAX_BOT_SECONDS if own_budget else DEFAULT_BOT_SECONDS
    return {"seed": player.seed, "depth": player.depth, "iterations": player.iterations,
            "time": min(seconds, MAX_BOT_SECONDS)}


def _player(data: Mapping[str, Any]) -> HumanPlayer | OpenSeat | BotPlayer | ChanceSeat:
    kind = data.get("type")
    if kind == "human":
        return HumanPlayer(type="human")
    if kind == "open":
        return OpenSeat(type="open")
    if kind == "chance":
        return ChanceSeat.model_validate(dict(data))
    return BotPlayer.model_validate(dict(data))


class Matches:
    """The matches of one database, with a cache of their latest positions.

    ``on_change`` (set by the live service) is called with every match this object
    saves, from whatever thread saved it."""

    def __init__(self, store: Store, library: Library | None = None):
        self.store = store
        self.library = library
        self.on_change: Callable[[StoredMatch], None] | None = None
        self._positions: OrderedDict[str, tuple[tuple[str, ...], State]] = OrderedDict()
        self._lock = threading.Lock()

    # --- reading --------------------------------------------------------------------
    def load(self, name: str, options: Mapping[str, Any]) -> tuple[str, Game]:
        """The game ``name`` (registered, or an imported game's id) with ``options``, and
        the name a match stores for it."""
        if is_imported(name):
            if self.library is None:
                raise ApiError(404, f"no imported game {name!r}: this server has no games "
                                    "folder", name)
            return self.library.load(name, options)
        # A name, never a path: game_class refuses anything but a registered game.
        game = resolve(game_class(name), options, background=True)
        return game.name, game

    def rebuild(self, match: StoredMatch) -> Game:
        """The game of a stored match; 409 when it cannot be rebuilt (an imported game
        whose file has gone or no longer loads)."""
        try:
            return self.load(match.game, match.options)[1]
        except ApiError as e:
            raise ApiError(409, f"match {match.id} cannot go on: {e.message}",
                           match.game) from None

    def get(self, match_id: str) -> StoredMatch:
        """The stored match as it is now (a clock that ran out ends the game here);
        404 if there is none."""
        match = match_store.get_match(self.store, match_id)
        if match is None:
            raise ApiError(404, f"no match {match_id!r}", match_id, code="noMatch",
                           params={"id": match_id})
        return self.settle_clock(match)

    def replay(self, match: StoredMatch, ply: int | None = None) -> State:
        """The match's current position, or the one after its first ``ply`` moves (a
        fresh copy the caller owns)."""
        game = self.rebuild(match)
        moves = match.moves if ply is None else match.moves[:ply]
        with self._lock:
            cached = self._positions.get(match.id)
        done: tuple[str, ...] = ()
        state = game.initial_state()
        if cached is not None and cached[0] == moves[:len(cached[0])] \
                and cached[1].game == game:
            done, state = cached[0], cached[1].clone()
        try:
            state = state.play_all(moves[len(done):])
        except (IllegalMoveError, NotationError) as e:
            raise ApiError(409, f"the stored moves of match {match.id} no longer replay: {e}",
                           match.id) from None
        if ply is None:
            self._remember(match.id, moves, state)
        return state.clone()

    def _remember(self, match_id: str, moves: tuple[str, ...], state: State) -> None:
        with self._lock:
            self._positions[match_id] = (moves, state.clone())
            self._positions.move_to_end(match_id)
            while len(self._positions) > CACHED_MATCHES:
                self._positions.popitem(last=False)

    def seats_of(self, match: StoredMatch, token: str | None) -> list[int]:
        """The seats ``token`` holds in ``match`` (none without a token, or in a match
        made before seats existed)."""
        if not token or match.tokens is None or len(token) > MAX_TOKEN:
            return []
        mine = digest(token)
        return [seat for seat, held in enumerate(match.tokens)
                if held is not None and secrets.compare_digest(held, mine)]

    def view(self, match: StoredMatch, state: State | None = None,
             token: str | None = None) -> dict[str, Any]:
        """The match as the browser sees it: the stored facts, the position, the
        clocks, pending offers, and ``you``, the seats ``token`` holds. A game that
        ended by resignation, agreement or time shows that result; no legal moves are
        listed once it is over, nor while a seat is still open. ``chance``: the game's
        random players (their seats are the server's to move)."""
        if state is None:
            state = self.replay(match)
        game = state.game
        position = state_json(state)
        if match.result is not None:
            position.update(outcome=list(match.result), to_move=None, legal_moves=[])
        elif status(match) == "waiting":
            position["legal_moves"] = []
        return {"id": match.id, "game": match.game, "options": dict(game.options),
                "players": [dict(p) for p in match.players],
                "player_names": list(game.player_names),
                "chance": sorted(game.chance_players), "moves": list(match.moves),
                "ply": match.ply, "revision": match.revision, "status": status(match),
                "reason": match.reason, "public": match.public,
                "seated": match.tokens is not None,
                "clock": clock_json(match.clock, now_ms()),
                "offers": dict(match.offers or {}), "rematch": match.rematch,
                "you": self.seats_of(match, token),
                "created": match.created_at.isoformat(),
                "updated": match.updated_at.isoformat(), **position}

    def position(self, match: StoredMatch, ply: int) -> dict[str, Any]:
        """The position after the first ``ply`` moves (0 to the match's ply), for a
        replay: its drawing, text, side to move and the move that led to it."""
        if not 0 <= ply <= match.ply:
            raise ApiError(404, f"match {match.id} has no position after {ply} moves "
                                f"(it has {match.ply})", ply)
        move = None
        if ply == 0:
            state = self.replay(match, 0)
        else:
            before = self.replay(match, ply - 1)
            played = before.parse_move(match.moves[ply - 1])
            move = moves_json(before.game, [played])[0]
            state = before.play(played)
        data = state_json(state)
        del data["legal_moves"]
        if ply == match.ply and match.result is not None:
            data.update(outcome=list(match.result), to_move=None)
        return {"id": match.id, "ply": ply, "of": match.ply, "move": move, **data}

    def record(self, match: StoredMatch) -> dict[str, Any]:
        """The match as a downloadable record: game, options, players, moves, result."""
        state = self.replay(match)
        outcome = state.outcome()
        result = list(match.result) if match.result is not None else \
            None if outcome is None else points(outcome)
        return {"game": match.game, "options": dict(state.game.options),
                "players": [dict(p) for p in match.players], "moves": list(match.moves),
                "result": result, "reason": match.reason, "position": str(state),
                "created": match.created_at.isoformat(),
                "updated": match.updated_at.isoformat()}

    def summaries(self, limit: int) -> list[dict[str, Any]]:
        """The most recently updated public matches, newest first (a private match is
        reached only by its link)."""
        return [m.summary() for m in match_store.list_matches(self.store, limit,
                                                             public_only=True)]

    def lobby(self, limit: int, token: str | None = None) -> dict[str, list[dict[str, Any]]]:
        """The lobby: public games ``open`` for an opponent (oldest first), games
        ``playing`` to watch and ``finished`` ones to replay (newest first), and ``mine``,
        the recent matches where ``token`` holds a seat (private ones too, newest
        first), at most ``limit`` each."""
        groups: dict[str, list[dict[str, Any]]] = {"open": [], "playing": [], "finished": [],
                                                   "mine": []}
        names = {"waiting": "open", "playing": "playing", "over": "finished"}
        for match in match_store.list_matches(self.store, 3 * limit, public_only=True):
            match = self.settle_clock(match)
            group = groups[names[status(match)]]
            if len(group) < limit:
                group.append({**match.summary(), "status": status(match)})
        groups["open"].reverse()
        if token:
            for match in match_store.list_matches(self.store, RECENT_OWN):
                seats = self.seats_of(match, token)
                if seats and len(groups["mine"]) < limit:
                    groups["mine"].append({**match.summary(), "status": status(match),
                                           "you": seats})
        return groups

    # --- saving ---------------------------------------------------------------------------
    def _update(self, match: StoredMatch, **changes: Any) -> StoredMatch:
        saved = match_store.update_match(self.store, match.id,
                                         expected_revision=match.revision, **changes)
        if saved is None:
            raise ApiError(409, f"match {match.id} changed meanwhile; reload it", match.id,
                           code="changed")
        if self.on_change is not None:
            self.on_change(saved)
        return saved

    def settle_clock(self, match: StoredMatch) -> StoredMatch:
        """``match``, ended as a loss on time if the running clock has run out (saved;
        when someone else saved first, the match as they left it)."""
        for _ in range(5):
            clock = match.clock
            if match.result is not None or clock is None or clock.get("turn") is None:
                return match
            turn = clock["turn"]
            chance = chance_seats(match)
            if turn in chance or clock_left(clock, now_ms())[turn] > 0:
                return match    # a die never runs out of time
            saved = match_store.update_match(
                self.store, match.id, expected_revision=match.revision, clock=stopped(clock),
                result=loss(len(match.players), turn, chance), reason="time", offers=None)
            if saved is not None:
                if self.on_change is not None:
                    self.on_change(saved)
                return saved
            fresh = match_store.get_match(self.store, match.id)
            if fresh is None:
                raise ApiError(404, f"no match {match.id!r}", match.id, code="noMatch",
                               params={"id": match.id})
            match = fresh
        raise ApiError(409, f"match {match.id} keeps changing; reload it", match.id,
                       code="changed")

    def _running(self, match: StoredMatch) -> None:
        if match.result is not None:
            raise ApiError(409, f"the game is over ({match.reason or 'finished'}); a "
                                "finished match never changes", match.id, code="gameOver")
        if status(match) == "waiting":
            raise ApiError(409, "the match is waiting for an opponent to join", match.id,
                           code="waitingForOpponent")

    def _holder(self, match: StoredMatch, token: str | None, seat: int | None,
                state: State | None = None) -> int:
        """The seat the caller acts for: ``seat`` if they hold it, else their seat to
        move, else their only seat; 403 when they hold none of it."""
        mine = self.seats_of(match, token)
        if match.tokens is None:
            raise ApiError(403, "this match was made before seats existed: nobody can "
                                "play it any more; start a new one", match.id,
                           code="noSeats")
        if not mine:
            raise ApiError(403, "you hold no seat in this match (a seat's token goes in "
                                "the Authorization header)", match.id, code="notYourMatch")
        if seat is not None:
            if seat not in mine:
                raise ApiError(403, f"you do not hold seat {seat}", seat, code="notYourSeat")
            return seat
        if len(mine) == 1:
            return mine[0]
        if state is None:
            state = self.replay(match)
        return state.to_move if state.to_move in mine else mine[0]

    def _humans(self, match: StoredMatch) -> list[int]:
        return [seat for seat, p in enumerate(match.players) if p.get("type") == "human"]

    def _after_move(self, match: StoredMatch, moves: Sequence[str], state: State,
                    mover: int) -> StoredMatch:
        """Save ``moves`` leading to ``state``, played by ``mover``: its clock is
        charged (a move made after its time ran out is refused and the game lost on
        time), offers lapse and an ended game gets its result."""
        outcome = state.outcome()
        clock = match.clock
        if clock is not None and clock.get("turn") is not None:
            at = now_ms()
            left = clock_left(clock, at)
            if mover in chance_seats(match):
                left[mover] = clock["remaining"][mover]     # a die's clock is never charged
            elif left[mover] <= 0:
                self.settle_clock(match)
                raise ApiError(409, f"{state.game.player_names[mover]}'s time ran out "
                                    "before the move", match.id, code="timeRanOut",
                               params={"player": state.game.player_names[mover]})
            else:
                left[mover] += round(clock["increment"] * 1000)
            over = outcome is not None
            clock = {**clock, "remaining": left, "turn": None if over else state.to_move,
                     "since": None if over else at}
        return self._update(match, moves=list(moves), clock=clock, offers=None,
                            result=None if outcome is None else points(outcome),
                            reason=None if outcome is None else "rules")

    def _restart_clock(self, match: StoredMatch, state: State) -> dict[str, Any] | None:
        """The clock after the moves were taken back to ``state``: the side to move's
        time runs from now (time already spent stays spent)."""
        clock = match.clock
        if clock is None or clock.get("turn") is None:
            return clock
        at = now_ms()
        return {**clock, "remaining": clock_left(clock, at), "turn": state.to_move,
                "since": at}

    # --- creating and joining --------------------------------------------------------------
    def create(self, request: NewMatch, token: str | None = None) -> dict[str, Any]:
        """Store a new match and return its view, with ``token`` (the caller's, or a
        new one) holding every human seat; the answer names it once."""
        name, game = self.load(request.game, request.options)
        players = self._seats(request, game)
        for player in players:
            if isinstance(player, BotPlayer):
                make_bot(player.bot, **bot_options(player))  # refuses bad budgets now
        token = self._usable(token)
        stored = []
        for player in players:
            data = player_json(player)
            if isinstance(player, HumanPlayer) and player.name is None and request.name:
                data["name"] = request.name
            stored.append(data)
        tokens = [digest(token) if isinstance(p, HumanPlayer) else None for p in players]
        clock = None if request.time_control is None else \
            new_clock(request.time_control.base, request.time_control.increment, stored,
                      game.initial_state().to_move)
        match = match_store.create_match(self.store, name, dict(game.options), stored,
                                         tokens=tokens, public=request.public, clock=clock)
        if self.on_change is not None:
            self.on_change(match)
        return {**self.view(match, game.initial_state(), token), "token": token}

    @staticmethod
    def _seats(request: NewMatch, game: Game) -> list[Any]:
        """The players of a new match, one per seat: the request's, with the chance seats
        put in when it leaves them out, or by default a human in the first real seat and
        MCTS bots in the others; 422 unless every chance seat, and only those, is chance."""
        chance = game.chance_players
        real = [seat for seat in range(game.num_players) if seat not in chance]
        players: list[Any] | None = request.players
        if players is None:
            given = iter([HumanPlayer(type="human")] + [BotPlayer() for _ in real[1:]])
            players = [ChanceSeat(type="chance") if seat in chance else next(given)
                       for seat in range(game.num_players)]
        elif chance and len(players) == len(real):
            given = iter(players)
            players = [ChanceSeat(type="chance") if seat in chance else next(given)
                       for seat in range(game.num_players)]
        if len(players) != game.num_players:
            also = f" ({len(real)} without its random players)" if chance else ""
            raise ApiError(422, f"{request.game} has {game.num_players} players "
                                f"({', '.join(game.player_names)}){also}, got {len(players)}",
                           "body.players")
        for seat, player in enumerate(players):
            name = game.player_names[seat]
            if seat in chance and not isinstance(player, ChanceSeat):
                raise ApiError(422, f"{name} is a random player: nobody takes its seat, the "
                                    'server draws its moves (give it {"type": "chance"}, or '
                                    "leave it out)", f"body.players.{seat}")
            if seat not in chance and isinstance(player, ChanceSeat):
                raise ApiError(422, f"{name} is no random player: a chance seat is only for "
                                    "one", f"body.players.{seat}")
        return players

    @staticmethod
    def _usable(token: str | None) -> str:
        if token is None:
            return new_token()
        if not MIN_TOKEN <= len(token) <= MAX_TOKEN:
            raise ApiError(422, f"a seat token has {MIN_TOKEN} to {MAX_TOKEN} characters",
                           "authorization")
        return token

    def join(self, match_id: str, token: str | None, name: str | None,
             seat: int | None) -> dict[str, Any]:
        """Take an open seat (``seat``, or the first) under ``name`` with ``token`` (or a
        new one, answered once); the clock starts when the last seat is taken."""
        match = self.get(match_id)
        if match.result is not None:
            raise ApiError(409, "the game is over", match.id, code="gameOver")
        if match.tokens is None:
            raise ApiError(409, "this match was made before seats existed", match.id,
                           code="noSeats")
        open_seats = [i for i, p in enumerate(match.players) if p.get("type") == "open"]
        if not open_seats:
            raise ApiError(409, "no seat of this match is open", match.id, code="noOpenSeat")
        if seat is None:
            seat = open_seats[0]
        elif seat not in open_seats:
            raise ApiError(409, f"seat {seat} is not open", seat, code="noOpenSeat")
        token = self._usable(token)
        players = [dict(p) for p in match.players]
        players[seat] = {"type": "human", **({"name": name} if name else {})}
        tokens = list(match.tokens)
        tokens[seat] = digest(token)
        clock = match.clock
        state = self.replay(match)
        if clock is not None and len(open_seats) == 1:
            clock = {**clock, "turn": state.to_move, "since": now_ms()}
        saved = self._update(match, players=players, tokens=tokens, clock=clock)
        return {**self.view(saved, state, token), "token": token}

    # --- playing ----------------------------------------------------------------------------
    def play(self, match_id: str, notation: str, token: str | None = None,
             revision: int | None = None) -> dict[str, Any]:
        """Play a move given in the game's notation for the seat to move, which
        ``token`` must hold; 400 naming the move if it is not legal, 409 if the match
        is past ``revision``."""
        match = self.get(match_id)
        self._running(match)
        if revision is not None and revision != match.revision:
            raise ApiError(409, f"the match has changed since this move was chosen (now at "
                                f"revision {match.revision}, the move was made on "
                                f"{revision}); reload it", match.id, code="changed")
        state = self.replay(match)
        mover = state.to_move
        player = match.players[mover]
        if player.get("type") == "chance":
            raise ApiError(409, f"{state.game.player_names[mover]} is a random player: the "
                                "server draws its moves", match.id, code="playedByChance",
                           params={"player": state.game.player_names[mover]})
        if player.get("type") != "human":
            raise ApiError(409, f"{state.game.player_names[mover]} is played by a bot",
                           match.id, code="playedByBot",
                           params={"player": state.game.player_names[mover]})
        if mover not in self.seats_of(match, token):
            self._holder(match, token, None, state)   # 403 for a stranger
            raise ApiError(403, f"it is {state.game.player_names[mover]}'s turn, a seat "
                                "you do not hold", match.id, code="notYourTurn",
                           params={"player": state.game.player_names[mover]})
        move = state.parse_move(notation)
        state = state.play(move)
        saved = self._after_move(match, [*match.moves, move.notation], state, mover)
        return self.view(saved, state, token)

    def bot_seat(self, match_id: str, override: BotPlayer | None,
                 token: str | None = None) -> tuple[StoredMatch, State, BotPlayer]:
        """The match, its position and the bot to move in it: the bot of the seat to
        move, or ``override`` playing for the caller's own seat (409 if the game is over
        or a human is to move and no bot was named). A chance seat moves as a random bot
        seeded for the move (:func:`chance_seed`); no bot may be named for it (409)."""
        match = self.get(match_id)
        if match.result is not None:
            raise ApiError(409, "the game is over", match.id, code="gameOver")
        self._running(match)
        state = self.replay(match)
        player = _player(match.players[state.to_move])
        if isinstance(player, ChanceSeat):
            name = state.game.player_names[state.to_move]
            if override is not None:
                raise ApiError(409, f"{name} is a random player: the server draws its moves",
                               match.id, code="playedByChance", params={"player": name})
            return match, state, BotPlayer(bot="random",
                                           seed=chance_seed(player.seed, match.ply))
        if override is not None and isinstance(player, HumanPlayer):
            if state.to_move not in self.seats_of(match, token):
                self._holder(match, token, None, state)
                raise ApiError(403, "a bot may play only for your own seat", match.id,
                               code="notYourTurn",
                               params={"player": state.game.player_names[state.to_move]})
            return match, state, override
        if not isinstance(player, BotPlayer):
            name = state.game.player_names[state.to_move]
            raise ApiError(409, f"{name} is played by a human; name a bot to ask for a "
                                "bot move", match.id)
        return match, state, override or player

    def play_bot(self, match: StoredMatch, state: State, notation: str) -> StoredMatch:
        """Save the bot's move ``notation`` in ``state`` (the position of ``match`` it
        thought on); 409 if the match changed meanwhile."""
        mover = state.to_move
        move = state.parse_move(notation)
        after = state.play(move)
        return self._after_move(match, [*match.moves, move.notation], after, mover)

    # --- resigning, offers, undo, rematch -----------------------------------------------
    def resign(self, match_id: str, token: str | None, seat: int | None) -> dict[str, Any]:
        """The caller's seat resigns: it scores 0 and every other seat 1."""
        match = self.get(match_id)
        self._running(match)
        state = self.replay(match)
        seat = self._holder(match, token, seat, state)
        saved = self._update(match, result=loss(len(match.players), seat, chance_seats(match)),
                             reason="resignation", offers=None, clock=stopped(match.clock))
        return self.view(saved, state, token)

    def draw(self, match_id: str, token: str | None, action: str,
             seat: int | None) -> dict[str, Any]:
        """Offer a draw, accept the offer or decline it; the game is drawn once every
        seat has agreed (bots never do: a draw is for games between people)."""
        match = self.get(match_id)
        self._running(match)
        if action not in ("offer", "accept", "decline"):
            raise ApiError(422, f"a draw is offered, accepted or declined, not {action!r}",
                           "body.action")
        state = self.replay(match)
        seat = self._holder(match, token, seat, state)
        chance = chance_seats(match)
        if len(self._humans(match)) != len(match.players) - len(chance):
            raise ApiError(409, "bots do not take draw offers", match.id, code="botsNoDraw")
        agreed = list((match.offers or {}).get("draw") or [])
        if action == "decline":
            if not agreed:
                raise ApiError(409, "no draw is offered", match.id, code="noDrawOffer")
            saved = self._update(match, offers={**(match.offers or {}), "draw": None})
            return self.view(saved, state, token)
        if action == "accept" and not agreed:
            raise ApiError(409, "no draw is offered", match.id, code="noDrawOffer")
        agreed = sorted(set(agreed) | set(self.seats_of(match, token)) | {seat})
        if len(agreed) == len(match.players) - len(chance):
            saved = self._update(match, result=points(draw(len(match.players), chance)),
                                 reason="agreement", offers=None, clock=stopped(match.clock))
        else:
            saved = self._update(match, offers={**(match.offers or {}), "draw": agreed})
        return self.view(saved, state, token)

    def _back_to(self, match: StoredMatch, seats: Sequence[int], game: Game,
                 strict: bool = True) -> int:
        """How many moves stay when taking back to the latest earlier position where one
        of ``seats`` was to move (the move made there undone too); without such a
        position, 409 when ``strict``, else all of them go."""
        state = game.initial_state()
        movers = []
        for notation in match.moves:
            movers.append(state.to_move)
            state = state.play(notation)
        keep = len(match.moves) - 1
        while keep > 0 and movers[keep] not in seats:
            keep -= 1
        if strict and movers[keep] not in seats:
            raise ApiError(409, "you have no move to take back", match.id,
                           code="nothingToTakeBack")
        return keep

    def _take_back(self, match: StoredMatch, keep: int, game: Game,
                   token: str | None) -> dict[str, Any]:
        moves = match.moves[:keep]
        state = game.initial_state().play_all(moves)
        saved = self._update(match, moves=list(moves), offers=None,
                             clock=self._restart_clock(match, state))
        self._remember(saved.id, saved.moves, state)
        return self.view(saved, state, token)

    def undo(self, match_id: str, to_human: bool, token: str | None = None) -> dict[str, Any]:
        """Take back the last move, or with ``to_human`` every move back to the latest
        earlier position where a human is to move (a human move and the bot replies).
        Free when the caller holds every human seat (against bots, hot-seat); between
        people it needs a take-back request and its acceptance (409 says so)."""
        match = self.get(match_id)
        self._running(match)
        if not match.moves:
            raise ApiError(409, "no move to undo", match.id, code="nothingToTakeBack")
        self._holder(match, token, None)
        humans = self._humans(match)
        if not set(humans) <= set(self.seats_of(match, token)):
            raise ApiError(409, "your opponent must agree: ask for a take-back instead",
                           match.id, code="askForTakeback")
        game = self.rebuild(match)
        keep = len(match.moves) - 1
        if to_human:
            keep = self._back_to(match, humans, game, strict=False)
        return self._take_back(match, keep, game, token)

    def takeback(self, match_id: str, token: str | None, action: str,
                 seat: int | None) -> dict[str, Any]:
        """Between people: ``request`` taking back one's last move (with the moves
        after it), the opponent's ``accept`` (the moves are taken back) or either side's
        ``decline``."""
        match = self.get(match_id)
        self._running(match)
        if action not in ("request", "accept", "decline"):
            raise ApiError(422, "a take-back is requested, accepted or declined, not "
                                f"{action!r}", "body.action")
        state = self.replay(match)
        seat = self._holder(match, token, seat, state)
        mine = self.seats_of(match, token)
        pending = (match.offers or {}).get("takeback")
        if action == "request":
            if set(self._humans(match)) <= set(mine):
                raise ApiError(409, "nobody else plays here: undo needs no consent",
                               match.id, code="undoNeedsNoConsent")
            self._back_to(match, [seat], self.rebuild(match))   # 409 without a move
            saved = self._update(match, offers={**(match.offers or {}), "takeback": seat})
            return self.view(saved, state, token)
        if pending is None:
            raise ApiError(409, "no take-back is asked for", match.id, code="noTakeback")
        if action == "decline":
            saved = self._update(match, offers={**(match.offers or {}), "takeback": None})
            return self.view(saved, state, token)
        if pending in mine:
            raise ApiError(409, "your opponent must accept your take-back", match.id,
                           code="takebackIsYours")
        game = self.rebuild(match)
        return self._take_back(match, self._back_to(match, [pending], game), game, token)

    def rematch(self, match_id: str, token: str | None) -> dict[str, Any]:
        """A new match of a finished one with the seats turned round (in a two-player
        game, colours swapped); every seat keeps its holder, bot or token. Asked twice
        (by either player) it answers the same rematch."""
        match = self.get(match_id)
        if match.result is None:
            raise ApiError(409, "the game is not over yet", match.id, code="notOver")
        self._holder(match, token, None)
        if match.rematch is None:
            game = self.rebuild(match)
            # The real seats turn round; a chance seat (a die) stays where it is.
            real = [seat for seat in range(len(match.players))
                    if seat not in chance_seats(match)]
            turned = dict(zip(real, real[1:] + real[:1], strict=True))
            order = [turned.get(seat, seat) for seat in range(len(match.players))]
            players = [match.players[seat] for seat in order]
            tokens = None if match.tokens is None else [match.tokens[seat] for seat in order]
            clock = None if match.clock is None else \
                new_clock(match.clock["base"], match.clock["increment"], players,
                          game.initial_state().to_move)
            # Made first and linked after, so that whoever hears of the link finds the
            # match; if the other player linked one first, this one goes again.
            created = match_store.create_match(self.store, match.game, dict(match.options),
                                               players, tokens=tokens, public=match.public,
                                               clock=clock)
            linked = match_store.update_match(self.store, match.id,
                                              expected_revision=match.revision,
                                              rematch=created.id)
            if linked is not None:
                if self.on_change is not None:
                    self.on_change(created)
                    self.on_change(linked)
                return self.view(created, game.initial_state(), token)
            match_store.delete_match(self.store, created.id)
            match = self.get(match.id)
        if match.rematch is None:
            raise ApiError(409, f"match {match.id} changed meanwhile; reload it", match.id,
                           code="changed")
        return self.view(self.get(match.rematch), None, token)

    # --- group selection -------------------------------------------------------------
    def _group(self, state: State, names: Sequence[str]) -> list[int]:
        board = state.game.board
        if board is None:
            raise ApiError(400, f"{state.game.name} has no board to select cells on")
        cells: list[int] = []
        for name in names:
            if not board.has_cell(name):
                raise ApiError(400, f"no cell {name!r} on this board", name)
            cell = board.cell(name)
            if cell in cells:
                raise ApiError(400, f"cell {name!r} selected twice", name)
            cells.append(cell)
        return cells

    def closure(self, match_id: str, names: Sequence[str], notation: str) -> dict[str, Any]:
        """The selection grown as the candidate move demands (``Game.closure``); the
        selected cells must hold pieces of the side to move that the move moves."""
        state = self.replay(self.get(match_id))
        game = state.game
        group = self._group(state, names)
        move = state.parse_move(notation)
        board = game.board
        assert board is not None
        for cell in group:
            piece = state.piece_at(cell)
            if piece is None or piece.owner != state.to_move:
                name = board.cell_name(cell)
                raise ApiError(400, f"cell {name!r} holds no piece of "
                                    f"{game.player_names[state.to_move]}", name)
        if not set(group) <= moved_pieces(state, move):
            raise ApiError(400, f"move {move.notation!r} does not move every selected "
                                "piece", move.notation)
        grown = game.closure(state, group, move)
        return {"group": [board.cell_name(c) for c in grown], "move": move.notation}

    def group_moves(self, match_id: str, names: Sequence[str]) -> dict[str, Any]:
        """The legal moves moving exactly the selected pieces (``moves``) and those
        moving at least them (``moves_using``)."""
        state = self.replay(self.get(match_id))
        game = state.game
        group = self._group(state, names)
        return {"group": list(names),
                "moves": moves_json(game, game.group_moves(state, group)),
                "moves_using": moves_json(game, moves_using(state, group))}
