"""JSON views of games, boards, moves and positions for the browser.

Pure functions over the public game protocol: the board geometry is complete enough to
draw any board as SVG (cells with coordinates, links per direction, layers), moves list
the cells they start from, land on and touch, and a position carries
:meth:`State.view <boardlab.core.game.State.view>` for the pieces.

>>> from boardlab import load
>>> game = load("tic-tac-toe")
>>> geometry = board_json(game.board)
>>> geometry["kind"], geometry["cells"][4], geometry["links"]["n"][4]
('square', {'name': 'b2', 'coords': [1, 1]}, 7)
>>> move_json(game.board, game.initial_state().legal_moves()[0])
{'notation': 'a1', 'from': [], 'to': [], 'cells': ['a1']}
>>> points([Fraction(1, 2), Fraction(1, 2)])
['1/2', '1/2']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from boardlab.core.board import Board
from boardlab.core.game import Game, State
from boardlab.core.move import Capture, Change, Move, Place, Shift
from boardlab.core.registry import game_class, names
from boardlab.markup import rst_to_html


def points(returns: Sequence[Fraction]) -> list[str]:
    """Points as exact strings: ``"1"``, ``"0"``, ``"1/2"``, ``"3/2"``."""
    return [str(Fraction(r)) for r in returns]


def game_summary(name: str) -> dict[str, Any]:
    """A registered game's name, description, players (``chance``: the random ones'
    indices), options and source (no board: listing every game instantiates none)."""
    cls = game_class(name)
    return {"name": name, "description": cls.description, "players": list(cls.player_names),
            "chance": sorted(cls.chance_players),
            "options": [o.describe() for o in cls.option_schema], "source": cls.source}


def games_json() -> list[dict[str, Any]]:
    """Every registered game's summary, by name."""
    return [game_summary(name) for name in names()]


def board_json(board: Board | None) -> dict[str, Any] | None:
    """A board's geometry: ``kind``, ``cells`` (``name``, ``coords``) in index order,
    ``directions``, ``links`` (direction -> the target cell index of every cell, or -1)
    and ``layers``; ``None`` for a game without a board."""
    if board is None:
        return None
    return {"kind": board.kind,
            "cells": [{"name": name, "coords": list(coords)}
                      for name, coords in zip(board.names, board.coords, strict=True)],
            "directions": list(board.directions),
            "links": {d: list(row) for d, row in zip(board.directions, board.links,
                                                     strict=True)},
            "layers": list(board.layer_names)}


def game_json(game: Game) -> dict[str, Any]:
    """A game with its option values: its info, rules text as written (``rules``) and as
    HTML (``rules_html``: reStructuredText rendered by :func:`~boardlab.markup.rst_to_html`;
    an imported game's rules are reStructuredText too, its file's words escaped), and
    board geometry (with the look the game is known by, ``style``:
    :attr:`Game.board_style`)."""
    board = board_json(game.board)
    if board is not None:
        board["style"] = game.board_style
    rules = game.rules
    return {**game.info(), "rules": rules, "rules_html": rst_to_html(rules), "board": board}


def _cell_names(board: Board | None, cells: Iterable[int]) -> list[str]:
    out: list[str] = []
    for cell in cells:
        name = board.cell_name(cell) if board is not None and 0 <= cell < board.size \
            else str(cell)
        if name not in out:
            out.append(name)
    return out


def touched_cells(move: Move) -> list[int]:
    """Every cell a move's actions name, in order, without repeats."""
    out: list[int] = []
    for action in move.actions:
        cells = (action.source, action.target) if isinstance(action, Shift) else \
            (action.cell,) if isinstance(action, Capture | Place | Change) else ()
        out.extend(c for c in cells if c not in out)
    return out


def move_json(board: Board | None, move: Move,
              arrow: tuple[int, int] | None = None) -> dict[str, Any]:
    """A move: its ``notation``, the cells its shifts start ``from`` and go ``to``, and
    every cell it touches (``cells``), by name; with the game's ``arrow``
    (:meth:`Game.move_arrow`) also the two cells a player points at to make it."""
    shifts = move.moved_cells()
    out = {"notation": move.notation,
           "from": _cell_names(board, (s for s, _ in shifts)),
           "to": _cell_names(board, (t for _, t in shifts)),
           "cells": _cell_names(board, touched_cells(move))}
    if arrow is not None:
        out["arrow"] = [_cell_names(board, (cell,))[0] for cell in arrow]
    return out


def moves_json(game: Game, moves: Iterable[Move]) -> list[dict[str, Any]]:
    """:func:`move_json` of each of ``moves`` of ``game``, arrows included."""
    board = game.board
    return [move_json(board, m, game.move_arrow(m)) for m in moves]


def state_json(state: State) -> dict[str, Any]:
    """A position: its text form, drawing, side to move (``None`` when over), outcome
    (points as strings, or ``None``), legal moves and :meth:`State.view`."""
    outcome = state.outcome()
    return {"position": str(state), "text": state.render(),
            "to_move": None if outcome is not None else state.to_move,
            "outcome": None if outcome is None else points(outcome),
            "legal_moves": moves_json(state.game, state.legal_moves()),
            "view": state.view()}
