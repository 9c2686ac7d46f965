"""board.js's pure parts run by node: the seats' colours follow the players' names,
and the figures a set of piece kinds is drawn with."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from boardlab.web.app import STATIC

NODE = shutil.which("node") or "/usr/bin/node"
pytestmark = pytest.mark.skipif(not Path(NODE).exists(), reason="no node to run board.js")


def run_board(tmp_path: Path, script: str) -> object:
    """The JSON printed by ``script`` with board.js's exports bound to ``board``."""
    # node reads a .js file as CommonJS; the same text as .mjs is an ES module
    module = tmp_path / "board.mjs"
    module.write_text((STATIC / "js" / "board.js").read_text(encoding="utf-8"),
                      encoding="utf-8")
    source = f"import * as board from {json.dumps(module.as_uri())};\n{script}"
    done = subprocess.run([NODE, "--input-type=module", "-e", source], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_seat_colours_follow_the_players_names(tmp_path):
    out = run_board(tmp_path, """console.log(JSON.stringify({
      othello: board.seatColours(["black", "white"], "lines").map((c) => c[0]),
      breakthrough: board.seatColours(["white", "black"], "chequered").map((c) => c[0]),
      morris: board.seatColours(["White", "Black"], "").map((c) => c[0]),
      connect: board.seatColours(["X", "O"], "columns").map((c) => c[0]),
      noughts: board.seatColours(["X", "O"], "lines").map((c) => c[0]),
      mixed: board.seatColours(["red", "north", "south"], "").map((c) => c[0]),
    }));""")
    dark, light = "#262626", "#f7f3e8"
    assert out["othello"] == [dark, light]
    assert out["breakthrough"] == [light, dark]
    assert out["morris"] == [light, dark]
    assert out["connect"] == ["#c0392b", "#f2c230"]          # red and yellow discs
    assert out["noughts"] == ["#1f4fa0", "#b3261e"]          # blue and red ink
    # a named red seat keeps red; the unnamed seats take colours nobody else has
    assert out["mixed"][0] == "#c0392b" and len(set(out["mixed"])) == 3


def test_figures_are_chosen_by_the_whole_set_of_kinds(tmp_path):
    out = run_board(tmp_path, """console.log(JSON.stringify([
      ["King", "Queen", "Rook", "Bishop", "Knight", "Pawn"],
      ["pawn"],
      ["King", "Rook", "Bishop", "Gold", "Silver", "Knight", "Lance", "Pawn", "Tokin"],
      ["Man", "King"],
      ["stone"],
      [],
    ].map((kinds) => board.glyphSet(kinds))));""")
    # checkers' King is no chess king: its set is not all chess pieces
    assert out == ["chess", "chess", "shogi", "", "", ""]


def test_a_move_is_described_by_where_it_goes(tmp_path):
    out = run_board(tmp_path, """console.log(JSON.stringify([
      board.describeMove({notation: "b2-b3", from: ["b3", "c3"], to: ["b4", "c4"],
                          cells: [], arrow: ["b2", "b3"]}),
      board.describeMove({notation: "a2-a3", from: ["a2"], to: ["a3"], cells: []}),
      board.describeMove({notation: "c3c4", from: ["c3", "c4"], to: ["c4", "c5"], cells: []}),
      board.describeMove({notation: "d", from: [], to: [], cells: ["d1"]}),
      board.arrowOf({from: ["c3", "c4"], to: ["c4", "c5"]}, "c4"),
    ]));""")
    assert out == ["b2 \u2192 b3", "a2 \u2192 a3", "c3 c4 \u2192 c4 c5", "d", ["c4", "c5"]]
