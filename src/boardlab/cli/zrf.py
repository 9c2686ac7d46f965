"""``boardlab zrf``: Zillions rule files, checked in bulk.

``boardlab zrf check DIR`` loads every ``.zrf`` file under DIR (each variant, with
``--variants all``) and plays random games of each, within a bound on plies, on time per
file and on memory, in a child process (:mod:`boardlab.zrf.check`), so that no file can
stop the run: one that recurses, exhausts its memory or time, or crashes the child is
reported as failed and the next file is checked. It reports per file whether it was
played (loaded, and every game ran without an error), only loaded (out of time),
suspect (the game is over, or its side to move has no move, in the initial position) or
failed (with the reason: the first line of the error, naming file, line and column for a
file boardlab refuses). Every other command takes a ``.zrf`` path where it takes a game
name.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from boardlab.cli.common import echo_json, edge, new_app, progress
from boardlab.errors import FileError
from boardlab.zrf.check import GRACE_SECONDS, KERNEL_SECONDS

app = new_app("Zillions rule files (ZRF): check a folder of them.")

MAX_GAMES = 10_000
MAX_PLIES = 100_000
MAX_SECONDS = 86_400.0
#: The checking process's memory, in MB: Python with the engine takes about 150 of it.
DEFAULT_MEMORY_MB = 2048
MIN_MEMORY_MB = 256
MAX_MEMORY_MB = 1024 * 1024


class Variants(StrEnum):
    """Which variants of each file ``zrf check`` plays."""

    default = "default"
    all = "all"


@app.command("check")
def check_command(
    folder: Annotated[Path, typer.Argument(
        metavar="PATH", help="A folder of .zrf files (searched below), or one file.")],
    games: Annotated[int, typer.Option("--games", min=0, max=MAX_GAMES,
                                       help="Random games to play of each file.")] = 3,
    plies: Annotated[int, typer.Option("--plies", min=1, max=MAX_PLIES,
                                       help="Moves after which a game is stopped (a draw).")
                     ] = 200,
    seconds: Annotated[float, typer.Option(
        "--seconds", min=0.1, max=MAX_SECONDS,
        help="Time allowed to load and play one file (one variant with --variants all); "
             f"a file still loading, or stuck in one move, {GRACE_SECONDS:g} s later is "
             "stopped and failed. The first compilation of a file's numba kernel on this "
             f"machine has {KERNEL_SECONDS:g} s of its own.")] = 60.0,
    variants: Annotated[Variants, typer.Option(
        "--variants", help="Play each file's default variant, or all its variants "
        "(menu separators titled '-' left out).")] = Variants.default,
    memory: Annotated[int, typer.Option(
        "--memory", min=MIN_MEMORY_MB, max=MAX_MEMORY_MB,
        help="Memory (MB of address space) the checking process may use; a file that "
             "needs more fails.")] = DEFAULT_MEMORY_MB,
    seed: Annotated[int, typer.Option(min=0, max=2**32 - 1,
                                      help="Seed of the random games.")] = 0,
    verify: Annotated[bool, typer.Option(
        "--verify", help="Check the engine's invariants at every position (slower): "
        "clone, text and JSON round trips, apply and undo, notation.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")
                       ] = False,
) -> None:
    """Load every rule file of a folder (or one file) and play random games of each.

    Each file is loaded and played in a child process, within --seconds and --memory, so
    a file that recurses, exhausts either bound or crashes fails alone and the run goes
    on. A file (or variant) is *played* when it loads and every game runs to its end (or
    to the ply bound) without an error, *loaded* when it loads but its games do not
    finish in time (or the first compilation of its numba kernel on this machine, which
    has a bound of its own outside --seconds, takes too long),
    *suspect* when it loads but the game is over or the side to move has no legal move
    in the initial position (a misread turn order, setup or move, more often than a
    game), *failed* when boardlab refuses it (the reason names file, line and column),
    the child runs out of memory or stack, dies, or runs out of time loading it or in
    one move, or a game raises an error or, with --verify, breaks an invariant of the
    engine. With --variants all, each playable variant is a record of its own, with its
    own time. A terminal shows the files checked so far.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from boardlab.zrf.check import STATUSES, Checker

    with edge():
        if not folder.exists():
            raise FileError(f"{folder}: no such folder or file", path=str(folder))
        if folder.is_dir():
            paths = sorted(folder.rglob("*.zrf"))
        elif folder.suffix.lower() == ".zrf":
            paths, folder = [folder], folder.parent
        else:
            raise FileError(f"{folder}: neither a folder nor a .zrf file", path=str(folder))
        records: list[dict[str, Any]] = []
        tally = dict.fromkeys(STATUSES, 0)
        with progress(TextColumn("checking"), BarColumn(), MofNCompleteColumn(),
                      TextColumn("files, {task.fields[tally]}"), TimeElapsedColumn()) as bar, \
                Checker(games=games, plies=plies, seconds=seconds, seed=seed, verify=verify,
                        variants=variants.value, memory_bytes=memory * 1024 ** 2) as checker:
            task = bar.add_task("check", total=len(paths), tally="")

            def counted(record: dict[str, Any]) -> None:
                tally[record["status"]] += 1
                bar.update(task, tally=", ".join(f"{n} {s}" for s, n in tally.items()))

            for path in paths:
                records += checker.check(path, path.relative_to(folder).as_posix(), counted)
                bar.update(task, advance=1)
        summary = _summary(records, len(paths))
        if as_json:
            echo_json({"files": records, **summary, "games": games, "plies": plies,
                       "variants": variants.value})
            return
        _print_table(records, summary, folder)


def _summary(records: list[dict[str, Any]], files: int) -> dict[str, Any]:
    """The counts of a run: of records (variants) by status, ``loaded`` including those
    played and suspect (they loaded too), and of files and variants checked."""
    count = {s: sum(1 for r in records if r["status"] == s)
             for s in ("played", "loaded", "suspect", "failed")}
    loaded = count["played"] + count["loaded"] + count["suspect"]
    # The loaded variants that play on a compiled kernel, and why the others do not.
    reasons = Counter(r["kernel_reason"] for r in records if r["status"] != "failed"
                      and not r.get("kernel"))
    on_kernel = sum(1 for r in records if r["status"] != "failed" and r.get("kernel"))
    return {"played": count["played"], "loaded": loaded,
            "suspect": count["suspect"], "failed": count["failed"],
            "kernel": {"count": on_kernel,
                       "percent": round(100 * on_kernel / loaded, 1) if loaded else 0.0,
                       "without": dict(reasons.most_common())},
            "checked": {"files": files, "variants": len(records)}}


def _print_table(records: list[dict[str, Any]], summary: dict[str, Any],
                 folder: Path) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"{summary['checked']['files']} rule files in {folder}")
    for column in ("file", "variant", "status", "games", "seconds", "reason"):
        table.add_column(column, overflow="fold")
    for r in records:
        variant = "" if r["variant"] is None else \
            f"{r['variant']} {r['variant_title'] or ''}".rstrip()
        table.add_row(Text(r["path"]), Text(variant), Text(r["status"]), str(r["games"]),
                      f"{r['seconds']:.1f}", Text(r["reason"] or ""))
    files, variants = summary["checked"]["files"], summary["checked"]["variants"]
    of = f"{files} files" if variants == files else f"{variants} variants in {files} files"
    console = Console()
    console.print(table)
    console.print(f"{summary['played']} played, {summary['loaded']} loaded (played and "
                  f"suspect included), {summary['suspect']} suspect, {summary['failed']} "
                  f"failed of {of}", highlight=False)
    kernel = summary["kernel"]
    console.print(f"{kernel['count']} of the {summary['loaded']} loaded play on a compiled "
                  f"kernel ({kernel['percent']:g} %)", highlight=False)
