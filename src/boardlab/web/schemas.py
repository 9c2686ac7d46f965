"""The request bodies of the web app's JSON API, validated by pydantic.

Unknown fields are refused, strings and lists have bounds, numbers must be finite, so a
request either validates here or is answered 422 before any game code runs.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, field_validator

from boardlab.ai.bots import bot_names

#: A bot never thinks longer than this per move, whatever a request asks.
MAX_BOT_SECONDS = 5.0
MAX_TEXT = 200
MAX_GROUP = 1000
MAX_OPTIONS = 50
#: The longest display name of a seat.
MAX_NAME = 40
#: The longest clock a match may have (base time), in seconds: three hours.
MAX_BASE_SECONDS = 3 * 3600.0
#: The largest increment a clock may add per move, in seconds.
MAX_INCREMENT_SECONDS = 600.0

OptionValue = StrictBool | StrictInt | Annotated[float, Field(allow_inf_nan=False)] | \
    Annotated[str, Field(max_length=10_000)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _display_name(value: str | None) -> str | None:
    # Control characters would break the pages and logs that show the name.
    if value is None:
        return None
    kept = "".join(" " if ch.isspace() else ch for ch in value if ch.isprintable()
                   or ch.isspace())
    cleaned = " ".join(kept.split())
    return cleaned or None


DisplayName = Annotated[str, Field(max_length=MAX_NAME)]


class HumanPlayer(_Strict):
    """A seat played by a person: the match's creator takes it (and holds its seat
    token); ``name`` is shown to everyone (by default the creator's ``name``)."""

    type: Literal["human"]
    name: DisplayName | None = None

    _clean = field_validator("name")(classmethod(lambda cls, v: _display_name(v)))


class OpenSeat(_Strict):
    """A seat left for someone else: whoever joins the match (from the lobby or an
    invitation link) takes it."""

    type: Literal["open"]


class BotPlayer(_Strict):
    """A seat played by a bot: its kind and budget (``time`` in seconds, capped at
    :data:`MAX_BOT_SECONDS`; ``depth`` for alphabeta, ``iterations`` for mcts) and an
    optional seed."""

    type: Literal["bot"] = "bot"
    bot: str = "mcts"
    time: Annotated[float, Field(gt=0, allow_inf_nan=False)] | None = None
    depth: Annotated[int, Field(ge=1, le=100)] | None = None
    iterations: Annotated[int, Field(ge=1, le=100_000_000)] | None = None
    seed: StrictInt | None = None

    @field_validator("bot")
    @classmethod
    def _known_bot(cls, value: str) -> str:
        known = bot_names()
        if value not in known:
            raise ValueError(f"unknown bot {value!r}; bots: {', '.join(known)}")
        return value

    @field_validator("time")
    @classmethod
    def _capped(cls, value: float | None) -> float | None:
        return None if value is None else min(value, MAX_BOT_SECONDS)


class ChanceSeat(_Strict):
    """The seat of a random player (a die: :attr:`Game.chance_players
    <boardlab.core.game.Game.chance_players>`), which no person and no chosen bot takes:
    the server draws its moves uniformly among the legal moves, as it moves a random bot.
    With ``seed`` the draws repeat (each move's own seed is made from it and the ply)."""

    type: Literal["chance"]
    seed: StrictInt | None = None


Player = Annotated[HumanPlayer | OpenSeat | BotPlayer | ChanceSeat,
                   Field(discriminator="type")]


class TimeControl(_Strict):
    """A clock kept by the server: ``base`` seconds for each side, plus ``increment``
    seconds after each of its moves; a side whose time runs out loses."""

    base: Annotated[float, Field(gt=0, le=MAX_BASE_SECONDS, allow_inf_nan=False)]
    increment: Annotated[float, Field(ge=0, le=MAX_INCREMENT_SECONDS,
                                      allow_inf_nan=False)] = 0.0


class NewMatch(_Strict):
    """``POST /api/matches``: a game, its options and one player per seat (by default a
    human first and MCTS bots in the other seats); a random player's seat is
    ``{"type": "chance"}`` and may be left out (then ``players`` lists the other seats,
    in order); ``public`` lists it in the lobby
    (otherwise only its link leads to it), ``time_control`` gives it clocks and ``name``
    is the creator's display name."""

    game: Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]
    options: Annotated[dict[str, OptionValue], Field(max_length=MAX_OPTIONS)] = {}
    players: Annotated[list[Player], Field(min_length=1, max_length=16)] | None = None
    public: StrictBool = False
    time_control: TimeControl | None = None
    name: DisplayName | None = None

    _clean = field_validator("name")(classmethod(lambda cls, v: _display_name(v)))


class MoveRequest(_Strict):
    """``POST /api/matches/{id}/moves``: a move in the game's notation, and the
    ``revision`` of the match it was chosen on (a move chosen on an older position is
    refused with 409 rather than applied to a position its player has not seen)."""

    move: Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]
    revision: Annotated[int, Field(ge=0, le=2**31)] | None = None


class JoinRequest(_Strict):
    """``POST /api/matches/{id}/join``: take an open seat (``seat``, by default the first
    open one) under a display ``name``."""

    name: DisplayName | None = None
    seat: Annotated[int, Field(ge=0, le=15)] | None = None

    _clean = field_validator("name")(classmethod(lambda cls, v: _display_name(v)))


class SeatRequest(_Strict):
    """A request acting for one seat (``seat``; by default the holder's seat to move, or
    its only seat)."""

    seat: Annotated[int, Field(ge=0, le=15)] | None = None


class OfferRequest(SeatRequest):
    """``POST /api/matches/{id}/draw`` (``offer``, ``accept``, ``decline``) and
    ``/takeback`` (``request``, ``accept``, ``decline``)."""

    action: Literal["offer", "request", "accept", "decline"]


class BotRequest(_Strict):
    """``POST /api/matches/{id}/bot``: by default waits for the bot of the seat to move
    to play; ``player`` names a bot to play for the caller's own seat. With ``revision``
    the answer is the match as soon as it has moved past that revision."""

    player: BotPlayer | None = None
    revision: Annotated[int, Field(ge=0, le=2**31)] | None = None


class UndoRequest(_Strict):
    """``POST /api/matches/{id}/undo``: ``to_human`` undoes back to the last position
    where a human was to move (a human move and the bot replies after it)."""

    to_human: StrictBool = False


class GroupRequest(_Strict):
    """``POST /api/matches/{id}/group-moves``: selected cells, by name."""

    group: Annotated[list[Annotated[str, Field(max_length=MAX_TEXT)]],
                     Field(max_length=MAX_GROUP)]


class ClosureRequest(GroupRequest):
    """``POST /api/matches/{id}/closure``: selected cells and a candidate move."""

    move: Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]


def player_json(player: HumanPlayer | BotPlayer | OpenSeat | ChanceSeat) -> dict[str, Any]:
    """A player as stored: its fields without the unset ones."""
    return player.model_dump(exclude_none=True)
