"""Matches of the web app: create, replay, play, let a bot move, undo, select groups.

A match lives in the database (:mod:`boardlab.store.web`) as its game, options, players
and move notations; every request rebuilds the position by replaying the moves from the
initial state (states are never pickled). A game is a registered game's name or an
imported game's id (``zrf:...``, :mod:`boardlab.web.library`), stored with its variant.
A small in-memory cache keeps the latest position of recently used matches, so a request
replays only the moves it has not seen; it holds private copies, and every caller gets
its own clone.

Writes are optimistic: a change is saved only if the match's revision is still the one
the change was computed from, so a bot that thought while someone undid a move, or two
tabs playing at once, get 409 instead of a corrupted history.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from boardlab.ai.bots import Bot, bot_kind, make_bot
from boardlab.core.game import Game, State
from boardlab.core.registry import game_class
from boardlab.core.selection import moved_pieces, moves_using
from boardlab.errors import BoardlabError, IllegalMoveError, NotationError, OptionError
from boardlab.store import web as match_store
from boardlab.store.db import Store
from boardlab.store.web import StoredMatch
from boardlab.web.errors import ApiError
from boardlab.web.library import Library, is_imported
from boardlab.web.schemas import (
    MAX_BOT_SECONDS,
    BotPlayer,
    HumanPlayer,
    NewMatch,
    player_json,
)
from boardlab.web.views import move_json, points, state_json

#: A bot given no time and no budget of its own (depth, iterations) thinks this long.
DEFAULT_BOT_SECONDS = 1.0
CACHED_MATCHES = 128


def build_game(cls: type[Game], options: Mapping[str, Any], name: str) -> Game:
    """The game of class ``cls`` with JSON ``options``: integers are accepted for float
    options and text is parsed by each option; a constructor that trips over a value it
    did not expect still answers :class:`OptionError` (naming ``name``), never a crash."""
    schema = {o.name: o for o in cls.option_schema}
    values: dict[str, Any] = {}
    for key, value in options.items():
        option = schema.get(key)
        if option is not None and option.type is float and isinstance(value, int) \
                and not isinstance(value, bool):
            value = float(value)
        values[key] = value
    try:
        return cls(**values)
    except BoardlabError:
        raise
    except (ValueError, TypeError, KeyError, IndexError) as e:
        raise OptionError(f"{name}: bad options: {e}") from None


def load_game(name: str, options: Mapping[str, Any]) -> Game:
    """The registered game ``name`` with JSON ``options`` (see :func:`build_game`)."""
    return build_game(game_class(name), options, name)


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


def _player(data: Mapping[str, Any]) -> HumanPlayer | BotPlayer:
    return HumanPlayer(type="human") if data.get("type") == "human" else \
        BotPlayer.model_validate(dict(data))


class Matches:
    """The matches of one database, with a cache of their latest positions."""

    def __init__(self, store: Store, library: Library | None = None):
        self.store = store
        self.library = library
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
        game = load_game(name, options)
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
        """The stored match; 404 if there is none."""
        match = match_store.get_match(self.store, match_id)
        if match is None:
            raise ApiError(404, f"no match {match_id!r}", match_id)
        return match

    def replay(self, match: StoredMatch) -> State:
        """The match's current position (a fresh copy the caller owns)."""
        game = self.rebuild(match)
        with self._lock:
            cached = self._positions.get(match.id)
        done: tuple[str, ...] = ()
        state = game.initial_state()
        if cached is not None and cached[0] == match.moves[:len(cached[0])] \
                and cached[1].game == game:
            done, state = cached[0], cached[1].clone()
        try:
            state = state.play_all(match.moves[len(done):])
        except (IllegalMoveError, NotationError) as e:
            raise ApiError(409, f"the stored moves of match {match.id} no longer replay: {e}",
                           match.id) from None
        self._remember(match.id, match.moves, state)
        return state.clone()

    def _remember(self, match_id: str, moves: tuple[str, ...], state: State) -> None:
        with self._lock:
            self._positions[match_id] = (moves, state.clone())
            self._positions.move_to_end(match_id)
            while len(self._positions) > CACHED_MATCHES:
                self._positions.popitem(last=False)

    def view(self, match: StoredMatch, state: State | None = None) -> dict[str, Any]:
        """The match as the browser sees it: the stored facts and the position."""
        if state is None:
            state = self.replay(match)
        game = state.game
        return {"id": match.id, "game": match.game, "options": dict(game.options),
                "players": [dict(p) for p in match.players],
                "player_names": list(game.player_names), "moves": list(match.moves),
                "ply": match.ply, "revision": match.revision,
                "created": match.created_at.isoformat(),
                "updated": match.updated_at.isoformat(), **state_json(state)}

    def record(self, match: StoredMatch) -> dict[str, Any]:
        """The match as a downloadable record: game, options, players, moves, result."""
        state = self.replay(match)
        outcome = state.outcome()
        return {"game": match.game, "options": dict(state.game.options),
                "players": [dict(p) for p in match.players], "moves": list(match.moves),
                "result": None if outcome is None else points(outcome),
                "position": str(state), "created": match.created_at.isoformat(),
                "updated": match.updated_at.isoformat()}

    def summaries(self, limit: int) -> list[dict[str, Any]]:
        """The most recently updated matches, newest first."""
        return [m.summary() for m in match_store.list_matches(self.store, limit)]

    # --- changing ---------------------------------------------------------------------
    def create(self, request: NewMatch) -> dict[str, Any]:
        """Store a new match and return its view."""
        name, game = self.load(request.game, request.options)
        players = request.players
        if players is None:
            players = [HumanPlayer(type="human")] + [BotPlayer() for _ in
                                                     range(game.num_players - 1)]
        if len(players) != game.num_players:
            raise ApiError(422, f"{request.game} has {game.num_players} players "
                                f"({', '.join(game.player_names)}), got {len(players)}",
                           "body.players")
        for player in players:
            if isinstance(player, BotPlayer):
                make_bot(player.bot, **bot_options(player))  # refuses bad budgets now
        match = match_store.create_match(self.store, name, dict(game.options),
                                         [player_json(p) for p in players])
        return self.view(match, game.initial_state())

    def _save(self, match: StoredMatch, moves: Sequence[str], state: State) -> dict[str, Any]:
        outcome = state.outcome()
        saved = match_store.save_moves(self.store, match.id, moves,
                                       None if outcome is None else points(outcome),
                                       expected_revision=match.revision)
        if saved is None:
            raise ApiError(409, f"match {match.id} changed meanwhile; reload it", match.id)
        self._remember(saved.id, saved.moves, state)
        return self.view(saved, state)

    def play(self, match_id: str, notation: str) -> dict[str, Any]:
        """Play a move given in the game's notation (any seat may move: the browser
        decides whose clicks count); 400 naming the move if it is not legal."""
        match = self.get(match_id)
        state = self.replay(match)
        move = state.parse_move(notation)
        state = state.play(move)
        return self._save(match, [*match.moves, move.notation], state)

    def bot_seat(self, match_id: str, override: BotPlayer | None) -> tuple[StoredMatch,
                                                                          State, Bot]:
        """The match, its position and the bot to move in it: ``override``, else the
        bot of the seat to move (409 if the game is over or a human is to move)."""
        match = self.get(match_id)
        state = self.replay(match)
        if state.is_terminal():
            raise ApiError(409, "the game is over", match.id)
        player = override or _player(match.players[state.to_move])
        if not isinstance(player, BotPlayer):
            name = state.game.player_names[state.to_move]
            raise ApiError(409, f"{name} is played by a human; name a bot to ask for a "
                                "bot move", match.id)
        return match, state, make_bot(player.bot, **bot_options(player))

    def bot_move(self, match_id: str, override: BotPlayer | None = None) -> dict[str, Any]:
        """Let the bot of the side to move choose and play (blocking: call it in a
        worker thread)."""
        match, state, bot = self.bot_seat(match_id, override)
        move = bot.choose(state)
        state = state.play(move)
        return self._save(match, [*match.moves, move.notation], state)

    def undo(self, match_id: str, to_human: bool) -> dict[str, Any]:
        """Take back the last move, or with ``to_human`` every move back to the latest
        earlier position where a human is to move (a human move and the bot replies)."""
        match = self.get(match_id)
        if not match.moves:
            raise ApiError(409, "no move to undo", match.id)
        game = self.rebuild(match)
        state = game.initial_state()
        movers = []
        for notation in match.moves:
            movers.append(state.to_move)
            state = state.play(notation)
        keep = len(match.moves) - 1
        if to_human:
            while keep > 0 and match.players[movers[keep]].get("type") != "human":
                keep -= 1
        moves = match.moves[:keep]
        return self._save(match, moves, game.initial_state().play_all(moves))

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
        board = game.board
        return {"group": list(names),
                "moves": [move_json(board, m) for m in game.group_moves(state, group)],
                "moves_using": [move_json(board, m) for m in moves_using(state, group)]}
