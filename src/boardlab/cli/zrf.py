"""``boardlab zrf``: Zillions rule files, checked in bulk.

``boardlab zrf check DIR`` loads every ``.zrf`` file under DIR and plays random games of
each, within a bound on plies and on time per file, and reports per file whether it was
played (loaded, and every game ran without an error), only loaded, or failed (with the
reason: the first line of the error, naming file, line and column for a file boardlab
refuses). Every other command takes a ``.zrf`` path where it takes a game name.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from boardlab.cli.common import echo_json, edge, new_app, progress
from boardlab.errors import BoardlabError, FileError

app = new_app("Zillions rule files (ZRF): check a folder of them.")

MAX_GAMES = 10_000
MAX_PLIES = 100_000
MAX_SECONDS = 86_400.0


def check_file(path: Path, name: str, games: int, plies: int, seconds: float,
               seed: int, verify: bool = False) -> dict[str, Any]:
    """Load one file and play ``games`` random games of at most ``plies`` plies each
    within ``seconds`` (with ``verify``, checking the conformance invariants of
    :mod:`boardlab.core.conformance` at every position):
    ``{"path", "status", "reason", "games", "plies", "seconds"}``."""
    from boardlab.core.conformance import ConformanceError, check_position
    from boardlab.zrf.game import incomplete, load_game

    started = time.perf_counter()
    record: dict[str, Any] = {"path": name, "status": "failed", "reason": None, "games": 0,
                              "plies": 0}
    try:
        game = load_game(path, name=name, max_moves=plies)
    except BoardlabError as e:
        record["reason"] = " ".join(str(e).split())
        return _timed(record, started)
    record["status"] = "loaded"
    record["title"] = game.description
    record["incomplete"] = incomplete(game.spec)
    rng = random.Random(f"{seed}:{name}")
    deadline = started + seconds
    try:
        for _ in range(games):
            state = game.initial_state()
            while True:
                if verify:
                    check_position(state, rng)
                if state.is_terminal():
                    break
                if time.perf_counter() > deadline:
                    record["reason"] = (f"not played: {record['games']} of {games} games "
                                        f"in the {seconds:g} s allowed")
                    return _timed(record, started)
                moves = state.legal_moves()
                state.apply(moves[rng.randrange(len(moves))])
                record["plies"] += 1
            record["games"] += 1
    except BoardlabError as e:
        record["status"] = "failed"
        record["reason"] = f"error while playing: {' '.join(str(e).split())}"
        return _timed(record, started)
    except ConformanceError as e:
        record["status"] = "failed"
        record["reason"] = f"invariant broken: {' '.join(str(e).split())}"
        return _timed(record, started)
    except RecursionError:
        record["status"] = "failed"
        record["reason"] = "error while playing: the rules recurse too deep"
        return _timed(record, started)
    except Exception as e:  # noqa: BLE001 - a bug in boardlab, reported as one
        record["status"] = "failed"
        record["reason"] = f"boardlab bug while playing: {type(e).__name__}: {e}"
        return _timed(record, started)
    record["status"] = "played"
    return _timed(record, started)


def _timed(record: dict[str, Any], started: float) -> dict[str, Any]:
    record["seconds"] = round(time.perf_counter() - started, 3)
    return record


@app.command("check")
def check_command(
    folder: Annotated[Path, typer.Argument(metavar="DIR",
                                           help="A folder of .zrf files (searched below).")],
    games: Annotated[int, typer.Option("--games", min=0, max=MAX_GAMES,
                                       help="Random games to play of each file.")] = 3,
    plies: Annotated[int, typer.Option("--plies", min=1, max=MAX_PLIES,
                                       help="Moves after which a game is stopped (a draw).")
                     ] = 200,
    seconds: Annotated[float, typer.Option(
        "--seconds", min=0.1, max=MAX_SECONDS,
        help="Time allowed to play one file's games.")] = 60.0,
    seed: Annotated[int, typer.Option(min=0, max=2**32 - 1,
                                      help="Seed of the random games.")] = 0,
    verify: Annotated[bool, typer.Option(
        "--verify", help="Check the engine's invariants at every position (slower): "
        "clone, text and JSON round trips, apply and undo, notation.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")
                       ] = False,
) -> None:
    """Load every rule file of a folder and play random games of each.

    A file is *played* when it loads and every game runs to its end (or to the ply
    bound) without an error, *loaded* when it loads but its games do not finish in time,
    *failed* when boardlab refuses it (the reason names file, line and column) or a game
    raises an error or, with ``--verify``, breaks an invariant of the engine. A terminal
    shows the files checked so far.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    with edge():
        if not folder.exists():
            raise FileError(f"{folder}: no such folder", path=str(folder))
        if not folder.is_dir():
            raise FileError(f"{folder}: is a file, not a folder", path=str(folder))
        paths = sorted(folder.rglob("*.zrf"))
        records: list[dict[str, Any]] = []
        with progress(TextColumn("checking"), BarColumn(), MofNCompleteColumn(),
                      TextColumn("files, {task.fields[tally]}"), TimeElapsedColumn()) as bar:
            task = bar.add_task("check", total=len(paths), tally="")
            for path in paths:
                records.append(check_file(path, str(path.relative_to(folder)), games, plies,
                                          seconds, seed, verify))
                tally = {s: sum(1 for r in records if r["status"] == s)
                         for s in ("played", "loaded", "failed")}
                bar.update(task, advance=1, tally=", ".join(f"{n} {s}"
                                                            for s, n in tally.items()))
        played = sum(1 for r in records if r["status"] == "played")
        loaded = sum(1 for r in records if r["status"] in ("played", "loaded"))
        failed = len(records) - loaded
        if as_json:
            echo_json({"files": records, "played": played, "loaded": loaded,
                       "failed": failed, "games": games, "plies": plies})
            return
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text

        table = Table(title=f"{len(records)} rule files in {folder}")
        for column in ("file", "status", "games", "seconds", "reason"):
            table.add_column(column, overflow="fold")
        for r in records:
            table.add_row(Text(r["path"]), Text(r["status"]), str(r["games"]),
                          f"{r['seconds']:.1f}", Text(r["reason"] or ""))
        console = Console()
        console.print(table)
        console.print(f"{played} played, {loaded} loaded (played included), {failed} failed "
                      f"of {len(records)} files", highlight=False)
