"""The look each registered game asks renderers for, and the arrows of GESS moves."""

from __future__ import annotations

from boardlab.core.registry import load, names
from boardlab.web.views import game_json, state_json

STYLES = {"", "chequered", "lines", "intersections", "columns"}


def test_every_game_names_a_known_style_and_the_api_passes_it_on():
    seen = {}
    for name in names():
        game = load(name)
        assert game.board_style in STYLES, name
        seen[name] = game_json(game)["board"]["style"]
        assert seen[name] == game.board_style
    # the games as they are known: a frame for Connect Four, a Go-like grid for GESS,
    # a chessboard for Breakthrough, ruled squares for noughts and crosses
    assert seen["connect-four"] == "columns"
    assert seen["gess"] == "intersections"
    assert seen["breakthrough"] == "chequered"
    assert seen["tic-tac-toe"] == "lines"


def test_a_gess_move_points_from_its_centre_to_its_new_centre_as_the_notation_says():
    state = load("gess").initial_state()
    moves = state_json(state)["legal_moves"]
    assert len(moves) == 416
    for move in moves:
        assert move["arrow"] == move["notation"].split("-"), move
    # the centre of b2-b3 holds no stone: only the arrow names it
    first = moves[0]
    assert "b2" not in first["from"] and first["arrow"][0] == "b2"


def test_games_whose_pieces_say_where_they_go_have_no_arrow():
    for name in ("breakthrough", "connect-four", "abalone"):
        state = load(name).initial_state()
        assert all("arrow" not in m for m in state_json(state)["legal_moves"]), name
