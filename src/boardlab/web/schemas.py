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

OptionValue = StrictBool | StrictInt | Annotated[float, Field(allow_inf_nan=False)] | \
    Annotated[str, Field(max_length=10_000)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class HumanPlayer(_Strict):
    """A seat played by a person in the browser."""

    type: Literal["human"]


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


Player = Annotated[HumanPlayer | BotPlayer, Field(discriminator="type")]


class NewMatch(_Strict):
    """``POST /api/matches``: a game, its options and one player per seat (by default a
    human first and MCTS bots in the other seats)."""

    game: Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]
    options: Annotated[dict[str, OptionValue], Field(max_length=MAX_OPTIONS)] = {}
    players: Annotated[list[Player], Field(min_length=1, max_length=16)] | None = None


class MoveRequest(_Strict):
    """``POST /api/matches/{id}/moves``: a move in the game's notation."""

    move: Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]


class BotRequest(_Strict):
    """``POST /api/matches/{id}/bot``: by default the bot of the seat to move plays;
    ``player`` names another bot (a hint for a human seat, a stronger reply)."""

    player: BotPlayer | None = None


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


def player_json(player: HumanPlayer | BotPlayer) -> dict[str, Any]:
    """A player as stored: its fields without the unset ones."""
    return player.model_dump(exclude_none=True)
