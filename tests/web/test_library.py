"""The imported games of the web app (boardlab.web.library) and their API.

Rule files of the corpus (tests/data/zrf) are copied into a temporary games folder. The
library lists them with stable ids, reads them again when the folder changes, lists the
files that fail with their reason (one line naming file, line and column), and bounds
reading: a file too large is not read, a file too slow has its reader killed and the
next file is read all the same. Through the API an imported game is listed beside the
registered ones, described with its ZRF geometry, and played (by notation, by each
bot), resumed by a second server on the same database; a match whose file has gone or
no longer loads answers a JSON 409, never a 500.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from boardlab.cli.main import app as cli_app
from boardlab.core.registry import names
from boardlab.errors import FileError
from boardlab.web.app import create_app
from boardlab.web.errors import ApiError
from boardlab.web.library import Library, parse_id
from tests.web.conftest import KEY, assert_error, bearer, new_match, play, serve_help, wait_for_bot

CORPUS = Path(__file__).parents[1] / "data" / "zrf"
HUMAN = {"type": "human"}
#: A file that is well-formed s-expressions but that boardlab refuses (line 5, column 3).
MALFORMED = """(game (title "Broken")
  (players A B)
  (turn-order A B)
  (board (grid (dimensions "a/b" "1/2")))
  (wibble))
"""
#: A macro expanding to a million nodes: about 1.5 s to read on this machine.
# Slow to read, within every bound of the reader: a board of 10,000 cells and two pieces
# of 4,096 move blocks each, all different (a pasted flag name), 123,000 nodes built (the
# bound is 150,000); about 1 s to load on a 2-core CI machine.
SLOW = """(define b0 ((verify (flag? f$1)) n add))
(define b1 (b0 $1a) (b0 $1b) (b0 $1c) (b0 $1d))
(define b2 (b1 $1a) (b1 $1b) (b1 $1c) (b1 $1d))
(define b3 (b2 $1a) (b2 $1b) (b2 $1c) (b2 $1d))
(define b4 (b3 $1a) (b3 $1b) (b3 $1c) (b3 $1d))
(define b5 (b4 $1a) (b4 $1b) (b4 $1c) (b4 $1d))
(define b6 (b5 $1a) (b5 $1b) (b5 $1c) (b5 $1d))
(define p (piece (name P$1) (moves (b6 $1))))
(game (title "slow") (players A B) (turn-order A B)
 (board (grid (dimensions ("{columns}" (1 0)) ("{rows}" (0 1)))
              (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0))))
 (p 1) (p 2)
 (board-setup (A (P1 c0r0)) (B (P2 c9r9))))
""".format(columns="/".join(f"c{i}" for i in range(100)),
           rows="/".join(f"r{i}" for i in range(100)))


def games_folder(root: Path) -> Path:
    """A games folder: chess in a sub-folder, breakthrough and connect four at the top."""
    folder = root / "games"
    (folder / "chess").mkdir(parents=True)
    shutil.copy(CORPUS / "chess" / "chess.zrf", folder / "chess" / "chess.zrf")
    shutil.copy(CORPUS / "breakthrough" / "breakthrough.zrf", folder / "breakthrough.zrf")
    shutil.copy(CORPUS / "arrange" / "connect-four.zrf", folder / "connect-four.zrf")
    return folder


def touch(path: Path, text: str) -> None:
    """Write ``text`` and move the modification time on, so a change is always seen."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before + 10**9, before + 10**9))


@pytest.fixture
def library(tmp_path) -> Iterator[Library]:
    opened = Library(games_folder(tmp_path))
    yield opened
    opened.close()


def ready(library: Library) -> dict:
    library.refresh()
    assert library.wait(120)
    return library.status()


# --- the library ---------------------------------------------------------------------------
def test_ids_name_the_file_and_the_variant():
    assert parse_id("zrf:chess/chess") == ("chess/chess.zrf", None)
    assert parse_id("zrf:chess/chess@12") == ("chess/chess.zrf", 12)
    for bad in ("chess", "zrf:chess@x", "zrf:@2", "zrf:a@12345"):
        with pytest.raises(ApiError) as caught:
            parse_id(bad)
        assert caught.value.status == 404
    # registered names never have a ':', so an imported id cannot be one of them
    assert not any(":" in name for name in names())


def test_the_folder_is_scanned_with_stable_ids_and_variants(library):
    status = ready(library)
    assert status == {"files": 3, "loaded": 3, "failed": [], "pending": [], "skipped": 0}
    games = {g["name"]: g for g in library.games()}
    assert list(games) == ["zrf:breakthrough", "zrf:chess/chess", "zrf:connect-four"]
    chess = games["zrf:chess/chess"]
    assert chess["description"] == "Chess" and chess["players"] == ["White", "Black"]
    assert chess["options"][0]["name"] == "max_moves"
    imported = chess["imported"]
    assert imported["file"] == "chess/chess.zrf" and imported["variant"] == 0
    variants = {v["variant"]: v for v in imported["variants"]}
    assert variants[0]["id"] == "zrf:chess/chess"
    assert variants[2] == {"id": "zrf:chess/chess@2", "variant": 2,
                           "title": "Charge of the Light Brigade",
                           "description": "Chess: Charge of the Light Brigade",
                           "players": ["White", "Black"], "chance": [], "error": None}
    # the same folder read again gives the same ids
    again = Library(library.folder)
    try:
        ready(again)
        assert [g["name"] for g in again.games()] == list(games)
    finally:
        again.close()


def test_changes_in_the_folder_are_read_again(library):
    ready(library)
    folder = library.folder
    touch(folder / "breakthrough.zrf", MALFORMED)
    status = ready(library)
    assert status["failed"] == [{"file": "breakthrough.zrf", "error":
                                 "breakthrough.zrf:5:3: unsupported game statement 'wibble'"}]
    assert [g["name"] for g in library.games()] == ["zrf:chess/chess", "zrf:connect-four"]
    (folder / "connect-four.zrf").unlink()
    shutil.copy(CORPUS / "checkers" / "english-checkers.zrf", folder / "chess" / "draughts.zrf")
    status = ready(library)
    assert status["files"] == 3 and status["loaded"] == 2
    assert [g["name"] for g in library.games()] == ["zrf:chess/chess", "zrf:chess/draughts"]
    touch(folder / "breakthrough.zrf", (CORPUS / "breakthrough" / "breakthrough.zrf")
          .read_text(encoding="utf-8"))
    assert ready(library)["failed"] == []
    assert "zrf:breakthrough" in [g["name"] for g in library.games()]


def test_reading_is_bounded_and_bad_names_are_listed(tmp_path):
    folder = tmp_path / "bounded"
    folder.mkdir()
    (folder / "big.zrf").write_text(";" * 3000 + "\n", encoding="utf-8")
    (folder / "slow.zrf").write_text(SLOW, encoding="utf-8")
    # read after slow.zrf (files are read in path order), by a new reader
    shutil.copy(CORPUS / "arrange" / "connect-four.zrf", folder / "zz-four.zrf")
    (folder / "a@b.zrf").write_text(MALFORMED, encoding="utf-8")
    (folder / ".hidden.zrf").write_text(MALFORMED, encoding="utf-8")
    (folder / ".git").mkdir()
    (folder / ".git" / "x.zrf").write_text(MALFORMED, encoding="utf-8")
    (folder / "notes.txt").write_text("not a rule file", encoding="utf-8")
    library = Library(folder, seconds=0.3, max_bytes=2000)
    try:
        status = ready(library)
        games = [g["name"] for g in library.games()]
    finally:
        library.close()
    failed = {f["file"]: f["error"] for f in status["failed"]}
    assert set(failed) == {"a@b.zrf", "big.zrf", "slow.zrf"}
    assert "'@'" in failed["a@b.zrf"]
    assert failed["big.zrf"] == ("the file has 3,001 bytes, more than the 2,000 a rule file "
                                 "may have here")
    assert failed["slow.zrf"] == "reading it took more than 0.3 s"
    assert status["loaded"] == 1 and games == ["zrf:zz-four"]


def test_too_many_files_are_skipped_and_counted(tmp_path):
    folder = games_folder(tmp_path)
    library = Library(folder, max_files=2)
    try:
        status = ready(library)
    finally:
        library.close()
    assert status["files"] == 2 and status["skipped"] == 1


def test_a_script_without_a_main_guard_can_serve_imported_games(tmp_path):
    # The reader is a plain child process: nothing runs the parent's script a second time.
    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(CORPUS / "arrange" / "connect-four.zrf", folder / "four.zrf")
    script = tmp_path / "script.py"
    script.write_text(f"""import json
from boardlab.web.library import Library
library = Library({str(folder)!r})
library.refresh()
library.wait(60)
print(json.dumps([g["name"] for g in library.games()]))
library.close()
""", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["zrf:four"]


# --- the API -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[tuple[TestClient, Path, Path]]:
    root = tmp_path_factory.mktemp("imported")
    folder = games_folder(root)
    (folder / "broken.zrf").write_text(MALFORMED, encoding="utf-8")
    url = f"sqlite:///{root / 'web.db'}"
    with TestClient(create_app(url, games_dir=folder), headers=bearer(KEY)) as client:
        assert client.app.state.library.wait(120)
        yield client, folder, root


def test_imported_games_are_listed_beside_the_registered_ones(served):
    client, _, _ = served
    games = client.get("/api/games").json()
    registered = [g for g in games if g["imported"] is None]
    imported = [g for g in games if g["imported"] is not None]
    assert [g["name"] for g in registered] == names()
    assert [g["name"] for g in imported] == ["zrf:breakthrough", "zrf:chess/chess",
                                             "zrf:connect-four"]
    assert [g["imported"]["file"] for g in imported] == ["breakthrough.zrf",
                                                        "chess/chess.zrf", "connect-four.zrf"]
    assert all(g["source"] == "Zillions of Games rule file (ZRF)" for g in imported)
    status = client.get("/api/imports").json()
    assert status["failed"] == [{"file": "broken.zrf", "error":
                                 "broken.zrf:5:3: unsupported game statement 'wibble'"}]
    assert status["loaded"] == 3 and status["pending"] == []


def test_an_imported_game_has_rules_and_its_zrf_geometry(served):
    client, _, _ = served
    data = client.get("/api/games/zrf:chess/chess").json()
    assert data["name"] == "zrf:chess/chess" and data["description"] == "Chess"
    assert "chess.zrf" in data["rules"]
    board = data["board"]
    assert board["kind"] == "zrf" and len(board["cells"]) == 64
    names_ = [c["name"] for c in board["cells"]]
    a8 = names_.index("a8")
    assert board["rects"][a8] == [2, 2, 70, 70] and board["cells"][a8]["coords"] == [36, 36]
    assert len(board["rects"]) == 64
    assert board["labels"] == {"Pawn": "P", "Rook": "R", "Knight": "Kn", "Bishop": "B",
                               "Queen": "Q", "King": "Ki"}
    assert data["imported"]["file"] == "chess/chess.zrf"
    variant = client.get("/api/games/zrf:chess/chess@2", params={"max_moves": "50"}).json()
    assert variant["name"] == "zrf:chess/chess@2" and variant["values"] == {"max_moves": 50}
    assert variant["description"] == "Chess: Charge of the Light Brigade"
    # the id also travels percent-encoded, as the pages send it
    assert client.get("/api/games/zrf%3Achess%2Fchess%402").json()["name"] == \
        "zrf:chess/chess@2"


def test_unknown_failed_and_bad_imported_games_are_404_or_422(served):
    client, _, _ = served
    assert_error(client.get("/api/games/zrf:nothing"), 404, "no rule file nothing.zrf")
    assert_error(client.get("/api/games/zrf:../chess/chess"), 404)
    assert_error(client.get("/api/games/zrf:chess/chess@9"), 404, "no variant 9")
    assert_error(client.get("/api/games/zrf:broken"), 404, "broken.zrf:5:3:")
    assert_error(client.get("/api/games/zrf:chess/chess", params={"max_moves": "0"}), 422)
    assert_error(client.post("/api/matches", json={"game": "zrf:broken"}), 404, "wibble")
    assert_error(client.post("/api/matches", json={"game": "zrf:chess/chess",
                                                   "players": [HUMAN]}), 422, "2 players")


def test_a_match_is_played_by_notation_and_by_every_bot_and_resumed(served):
    client, folder, root = served
    match = new_match(client, "zrf:chess/chess", [HUMAN, HUMAN], max_moves=300)
    assert match["game"] == "zrf:chess/chess@0" and match["options"] == {"max_moves": 300}
    assert len(match["legal_moves"]) == 20
    e2e4 = next(m for m in match["legal_moves"] if m["notation"] == "e2-e4")
    assert e2e4["from"] == ["e2"] and e2e4["to"] == ["e4"]
    match = play(client, match, "e2-e4")
    match = play(client, match, "e7-e5")
    assert_error(client.post(f"/api/matches/{match['id']}/moves", json={"move": "e4-e6"}),
                 400, "e4-e6")
    for bot in ("random", "alphabeta", "mcts"):
        answer = client.post(f"/api/matches/{match['id']}/bot",
                             json={"player": {"bot": bot, "time": 0.2, "seed": 1}})
        assert answer.status_code == 200, answer.text
        match = answer.json()
    assert len(match["moves"]) == 5 and match["to_move"] == 1
    position = match["position"]
    # a second server on the same database and folder resumes the match
    with TestClient(create_app(f"sqlite:///{root / 'web.db'}", games_dir=folder),
                    headers=bearer(KEY)) as again:
        resumed = again.get(f"/api/matches/{match['id']}").json()
        assert resumed["moves"] == match["moves"] and resumed["position"] == position
        undone = again.post(f"/api/matches/{match['id']}/undo", json={}).json()
        assert undone["moves"] == match["moves"][:-1]


def test_a_variant_and_a_bot_seat_are_stored_with_the_match(served):
    client, _, _ = served
    bot = {"type": "bot", "bot": "random", "seed": 3}
    match = new_match(client, "zrf:chess/chess@2", [HUMAN, bot])
    assert match["game"] == "zrf:chess/chess@2"
    first = match["legal_moves"][0]["notation"]
    match = play(client, match, first)
    replied = wait_for_bot(client, match)
    assert len(replied["moves"]) == 2 and replied["to_move"] == 0
    listed = client.get("/api/lobby").json()["mine"]
    assert any(m["id"] == match["id"] and m["game"] == "zrf:chess/chess@2" for m in listed)
    record = client.get(f"/api/matches/{match['id']}/record")
    assert record.status_code == 200 and record.json()["game"] == "zrf:chess/chess@2"


def test_a_match_whose_file_is_gone_or_broken_answers_409(served):
    client, folder, _ = served
    source = folder / "breakthrough.zrf"
    text = source.read_text(encoding="utf-8")
    match = new_match(client, "zrf:breakthrough", [HUMAN, HUMAN])
    match = play(client, match, match["legal_moves"][0]["notation"])
    try:
        source.unlink()
        for response in (client.get(f"/api/matches/{match['id']}"),
                         client.post(f"/api/matches/{match['id']}/moves", json={"move": "x"}),
                         client.post(f"/api/matches/{match['id']}/bot", json={}),
                         client.post(f"/api/matches/{match['id']}/undo", json={}),
                         client.get(f"/api/matches/{match['id']}/record")):
            assert_error(response, 409, "cannot go on", "no rule file breakthrough.zrf")
        assert_error(client.get("/api/games/zrf:breakthrough"), 404)
        assert "zrf:breakthrough" not in [g["name"] for g in client.get("/api/games").json()]
        touch(source, MALFORMED)
        assert_error(client.get(f"/api/matches/{match['id']}"), 409,
                     "breakthrough.zrf:5:3: unsupported game statement 'wibble'")
        assert client.get("/api/matches").status_code == 200
    finally:
        touch(source, text)
    assert client.get(f"/api/matches/{match['id']}").json()["ply"] == 1


# --- where the folder comes from --------------------------------------------------------------
def test_the_default_folder_is_games_in_the_data_folder(tmp_path):
    (tmp_path / "games").mkdir()
    shutil.copy(CORPUS / "arrange" / "connect-four.zrf", tmp_path / "games" / "four.zrf")
    with TestClient(create_app(data_dir=tmp_path)) as client:
        assert client.app.state.library.wait(120)
        assert [g["name"] for g in client.get("/api/games").json() if g["imported"]] == \
            ["zrf:four"]
    with TestClient(create_app(data_dir=tmp_path / "elsewhere")) as client:
        assert client.get("/api/imports").json()["files"] == 0


def test_a_games_folder_that_is_not_one_is_refused(tmp_path):
    with pytest.raises(FileError, match="no such folder"):
        create_app(data_dir=tmp_path, games_dir=tmp_path / "missing")
    result = CliRunner().invoke(cli_app, ["serve", "--data", str(tmp_path), "--games",
                                          str(tmp_path / "missing")])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and "no such folder" in lines[0]
    assert "--games" in serve_help()


def test_rules_that_cannot_end_their_chains_answer_422():
    # A rule file whose partial moves never come to an end raises RulesError from move
    # generation (see tests/zrf/test_game.py); the API answers it as a game that cannot
    # do what is asked, not as a malformed request or a crash.
    from boardlab.errors import RulesError
    from boardlab.web.errors import status_of

    assert status_of(RulesError("the partial moves ...")) == (422, None)
