"""``boardlab triplex``: generate, solve and unlock polyomino packing levels.

Rules and level format: :doc:`/triplex`, :doc:`/polyomino-pack` and
:mod:`boardlab.puzzles.polyomino`. Every bad input (unknown piece set, malformed level,
wrong code, area mismatch, a level number outside the pack) ends with one ``error:``
line and exit status 2; output paths are checked before any work and files are written
atomically, so nothing is left half-written.

The puzzle modules (numba, numpy) are imported by the commands that use them, so
``boardlab --help`` does not pay for them.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from boardlab.cli.common import MAX_SEED, echo_json, edge, new_app, working
from boardlab.errors import NotationError, PuzzleError
from boardlab.files import check_output, read_text, write_atomic
from boardlab.puzzles.polyomino.shapes import CUSTOM, PIECE_SETS, piece_set

if TYPE_CHECKING:
    from boardlab.puzzles.polyomino.level import Level, Puzzle

app = new_app("Triplex and other polyomino packing puzzles.")

#: Bounds of the numeric inputs. A level has at most 64 cells (the generator's compiled
#: search), so no side exceeds 32; 256 workers is far beyond any one machine.
MAX_SIDE = 32
MAX_WORKERS = 256
MAX_LEVEL = 1_000_000
MAX_LIMIT = 1_000_000

PiecesOption = Annotated[str, typer.Option(
    "--pieces", help=f"Piece set: {', '.join(PIECE_SETS)}, or a file of shapes drawn "
                     "with # and . separated by blank lines.")]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
BackendOption = Annotated[str, typer.Option(
    help="Where the work runs: process (all cores), serial, or ray.")]
WorkersOption = Annotated[int | None, typer.Option(
    min=1, max=MAX_WORKERS, help="Parallel workers (default: all cores).")]
SeedOption = Annotated[int, typer.Option(
    min=0, max=MAX_SEED,
    help="Seed of the rotatable pieces' shown orientations and of the pack's codes.")]
RotatableOption = Annotated[int, typer.Option(
    "--rotatable", min=0, max=4,
    help="Most pieces a level lets the player turn (the seed's game: 1): the set that keeps "
         "the solution unique and makes the solver work hardest.")]
LevelNumber = Annotated[int, typer.Option("--level", min=1, max=MAX_LEVEL,
                                          help="Level number (1-based).")]
BACKENDS = ("process", "serial", "ray")


def _backend(name: str) -> str:
    if name not in BACKENDS:
        raise PuzzleError(f"unknown backend {name!r}; use {', '.join(BACKENDS)}")
    return name


def _pieces(name: str) -> str:
    """A piece set name, or ``file:PATH`` for a piece file (read and checked here, so a
    missing or malformed file is one clear error before any work)."""
    if name not in PIECE_SETS and (Path(name).exists() or "/" in name or "." in name):
        read_text(name)  # the file problems, in the words every command uses
        name = f"file:{Path(name).resolve()}"
    try:
        piece_set(name)
    except NotationError as e:
        raise PuzzleError(str(e)) from None
    return name


def level_json(level: Level) -> dict[str, Any]:
    """A level as JSON: its pieces (drawn with # and .), solution rows, rotatable piece
    (its letter in the solution, or null), shown orientation and difficulty."""
    return {**level.to_json(), "pieces": [str(p) for p in level.pieces]}


def pack_salt(pieces: str, seed: int) -> bytes:
    """The pack salt derived from the seed: the same seed gives the same pack and codes."""
    return hashlib.sha256(f"boardlab-polyomino-pack:{pieces}:{seed}".encode()).digest()[:16]


@app.command()
def levels(
    width: Annotated[int, typer.Argument(min=2, max=MAX_SIDE, help="Width of the rectangle.")],
    height: Annotated[int, typer.Argument(min=2, max=MAX_SIDE,
                                          help="Height of the rectangle.")],
    pieces: PiecesOption = "triplex",
    seed: SeedOption = 0,
    rotatable: RotatableOption = 1,
    backend: BackendOption = "process",
    workers: WorkersOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Every level of a WxH rectangle: unique solution, >= 3 pieces, no straight cut,
    one per symmetry class, with rotatable piece and difficulty."""
    with edge():
        from boardlab.puzzles.polyomino.generator import check_size, generate_levels

        pieces = _pieces(pieces)
        check_size(width, height)
        found = generate_levels([(width, height)], pieces, seed=seed,
                                backend=_backend(backend), workers=workers,
                                progress=sys.stderr.isatty(), rotatable=rotatable)
        w, h = max(width, height), min(width, height)
        if as_json:
            echo_json({"width": w, "height": h, "count": len(found),
                       "levels": [level_json(level) for level in found]})
            return
        typer.echo(f"{w}x{h}: {len(found)} levels")
        for level in found:
            typer.echo("")
            typer.echo(str(level).rstrip("\n"))


@app.command()
def generate(
    max_area: Annotated[int, typer.Option("--max-area", min=4, max=64,
                                          help="Largest rectangle area (at most 64).")],
    out: Annotated[Path, typer.Option("--out", help="The public pack (no solutions).")],
    pieces: PiecesOption = "triplex",
    master: Annotated[Path | None, typer.Option(
        help="The master copy with solutions (default: OUT with .master.json).")] = None,
    seed: SeedOption = 0,
    rotatable: RotatableOption = 1,
    name: Annotated[str, typer.Option(help="A name for the pack.")] = "",
    backend: BackendOption = "process",
    address: Annotated[str | None, typer.Option(help="Ray cluster address.")] = None,
    workers: WorkersOption = None,
    checkpoint: Annotated[Path | None, typer.Option(
        help="Checkpoint file (default: OUT with .checkpoint.jsonl); a killed run resumes "
             "from it.")] = None,
    plot: Annotated[Path | None, typer.Option(
        help="Draw levels found and work done against time to this PNG.")] = None,
    report: Annotated[Path | None, typer.Option(
        help="Write the generator's report (per rectangle, per stage and, for "
             "--method partitions, per filter) to this JSON file.")] = None,
    method: Annotated[str, typer.Option(
        help="vectors (piece-count vectors, fast) or partitions (the seed's enumeration "
             "of edge states with its seven filters: the same levels, exponentially "
             "slower; seconds up to area 25, a minute at area 30).")] = "vectors",
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
) -> None:
    """Every level of every rectangle up to an area, ordered by difficulty, as a level
    pack whose levels are chained by codes; the generator's report as tables at the end."""
    with edge():
        from boardlab.puzzles.polyomino.generator import METHODS, generate_levels, sizes_up_to
        from boardlab.puzzles.polyomino.pack import Pack
        from boardlab.puzzles.polyomino.report import GeneratorReport, SizeReport
        from boardlab.puzzles.runner import TimelinePoint, plot_timeline

        if method not in METHODS:
            raise PuzzleError(f"unknown method {method!r}; use {', '.join(METHODS)}")

        pieces = _pieces(pieces)
        backend = _backend(backend)
        master = master or out.with_name(out.name.removesuffix(".json") + ".master.json")
        checkpoint = checkpoint or out.with_name(out.name + ".checkpoint.jsonl")
        # Every output is checked before hours of work, not after.
        outputs = [out, master, checkpoint, *([plot] if plot is not None else []),
                   *([report] if report is not None else [])]
        for path in outputs:
            check_output(path)
        if len({path.resolve() for path in outputs}) < len(outputs):
            raise PuzzleError("--out, --master, --checkpoint, --plot and --report must be "
                              "different files")
        timeline: list[TimelinePoint] = []
        sizes_done: list[SizeReport] = []
        started = time.perf_counter()
        found = generate_levels(sizes_up_to(max_area), pieces, seed=seed, backend=backend,
                                workers=workers, ray_address=address, checkpoint=checkpoint,
                                progress=progress and sys.stderr.isatty(), timeline=timeline,
                                rotatable=rotatable, method=method,
                                on_size=sizes_done.append)
        if not found:
            raise PuzzleError(f"no levels of these pieces up to area {max_area}: "
                              "nothing written")
        recorded = CUSTOM if pieces.startswith("file:") else pieces
        pack = Pack.build(found, pack_salt(recorded, seed), recorded, name=name)
        pack.save(master, with_solutions=True)
        pack.public().save(out)
        if plot is not None:
            plot_timeline(timeline, plot, title=f"{recorded} levels up to area {max_area}")
        run_report = GeneratorReport(recorded, method, tuple(sizes_done),
                                     time.perf_counter() - started)
        if report is not None:
            write_atomic(report, json.dumps(run_report.to_json(), indent=2) + "\n")
        checkpoint.unlink(missing_ok=True)
        sizes = Counter(f"{level.width}x{level.height}" for level in found)
        typer.echo(f"{len(found)} levels in {time.perf_counter() - started:.1f} s: "
                   + ", ".join(f"{s} {n}" for s, n in sorted(
                       sizes.items(), key=lambda kv: tuple(map(int, kv[0].split("x"))))))
        typer.echo(f"wrote {out} (public) and {master} (with solutions); "
                   f"level 1 code {pack.first_code}"
                   + (f"; report {report}" if report is not None else ""))
        print_report(run_report)


def print_report(report: Any) -> None:
    """The generator's report as Rich tables on stdout: the seed's table of sizes (with
    running totals), the stage counts per rectangle and, for the partition method, the
    seed's filter table summed over the rectangles. Plain text when piped (no colour, 100
    columns)."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    from boardlab.puzzles.polyomino.report import (
        METHODS,
        human_seconds,
        percent,
        total_filter_row,
    )

    console = Console(file=sys.stdout, width=None if sys.stdout.isatty() else 100)
    sizes = Table(title="Levels per rectangle", box=box.SIMPLE_HEAD)
    for heading in ("area", "size", "levels", "time", "total levels", "total time"):
        sizes.add_column(heading, justify="left" if heading == "size" else "right")
    for row in report.size_rows():
        sizes.add_row(str(row.area), row.size, str(row.levels), human_seconds(row.seconds),
                      str(row.total_levels), human_seconds(row.total_seconds))
    console.print(sizes)
    columns = METHODS[report.method]
    stages = Table(title=f"Stages of the {report.method} method", box=box.SIMPLE_HEAD)
    stages.add_column("size")
    for _, heading in columns:
        stages.add_column(heading, justify="right")
    for size in report.sizes:
        stages.add_row(f"{size.width}x{size.height}",
                       *(f"{size.stages.get(key, 0):,}" for key, _ in columns))
    totals = report.stage_totals()
    stages.add_row("total", *(f"{totals.get(key, 0):,}" for key, _ in columns),
                   style="bold", end_section=True)
    console.print(stages)
    filters = report.filter_totals()
    if filters:
        table = Table(title="Filters, all rectangles (the seed's report)",
                      box=box.SIMPLE_HEAD)
        for heading in ("checked", "accepted", "rejected", "rejected %",
                        "rejected % of total", "filter"):
            table.add_column(heading, justify="left" if heading == "filter" else "right")
        whole = filters[0].checked
        for row in (*filters, total_filter_row(filters)):
            table.add_row(f"{row.checked:,}", f"{row.accepted:,}", f"{row.rejected:,}",
                          f"{percent(row.rejected, row.checked):.2f}",
                          f"{percent(row.rejected, whole):.2f}", row.name,
                          style="bold" if row.name == "Total" else None)
        console.print(table)


@app.command()
def unlock(
    pack_file: Annotated[Path, typer.Argument(metavar="PACK", help="A level pack.")],
    level: LevelNumber,
    code: Annotated[str, typer.Option(help="The code written down after the previous level.")],
    as_json: JsonFlag = False,
) -> None:
    """Decode a level of a pack with its code; a wrong code is rejected."""
    with edge():
        from boardlab.puzzles.polyomino.pack import Pack

        puzzle = Pack.load(pack_file).unlock(level, code)
        if as_json:
            echo_json(puzzle.to_json())
        else:
            typer.echo(str(puzzle))


@app.command()
def code(
    pack_file: Annotated[Path, typer.Argument(metavar="MASTER", help="A master pack.")],
    level: LevelNumber,
) -> None:
    """The code that unlocks a level (needs the master copy with solutions)."""
    with edge():
        from boardlab.puzzles.polyomino.pack import Pack

        typer.echo(Pack.load(pack_file).code(level))


@app.command("solve")
def solve_command(
    source: Annotated[str, typer.Argument(
        help="A level or puzzle text file ('-' for stdin), or a pack with --level.")],
    level: Annotated[int | None, typer.Option(min=1, max=MAX_LEVEL,
                                              help="Level number in a pack.")] = None,
    code: Annotated[str | None, typer.Option(help="Code of that level (public packs).")] = None,
    limit: Annotated[int | None, typer.Option(min=1, max=MAX_LIMIT,
                                              help="Stop after N solutions.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Solve a level: the number of solutions, each as a grid, and the search steps."""
    with edge():
        from boardlab.puzzles.polyomino.generator import piece_kinds
        from boardlab.puzzles.polyomino.region import Region
        from boardlab.puzzles.polyomino.solver import solve as solve_tiling

        puzzle = _read_source(source, level, code)
        region = Region.rectangle(puzzle.width, puzzle.height)
        with working(f"solving the {puzzle.width}x{puzzle.height} level"):
            # each orientation of the rotatable piece searched in turn: the steps are the
            # generator's difficulty of the level
            result = solve_tiling(region, piece_kinds(puzzle.pieces, puzzle.rotatable),
                                  limit=limit, each_orientation=True)
        grids = [_letters(t.grid()) for t in result.solutions]
        if as_json:
            echo_json({"width": puzzle.width, "height": puzzle.height, "count": result.count,
                       "complete": result.complete, "steps": result.steps,
                       "solutions": grids})
            return
        exact = "" if result.complete else " (stopped at the limit)"
        typer.echo(f"{result.count} solution{'s' if result.count != 1 else ''}{exact}, "
                   f"{result.steps} steps")
        for grid in grids:
            typer.echo("")
            typer.echo("\n".join(grid))


def _letters(grid: tuple[tuple[int, ...], ...]) -> list[str]:
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    labels: dict[int, str] = {}
    rows = []
    for row in grid:
        out = []
        for v in row:
            if v < 0:
                out.append(".")
                continue
            if v not in labels:
                labels[v] = alphabet[len(labels) % len(alphabet)]
            out.append(labels[v])
        rows.append("".join(out))
    return rows


def _read_source(source: str, level: int | None, code: str | None) -> Puzzle:
    from boardlab.files import decode
    from boardlab.puzzles.polyomino.level import read_puzzle
    from boardlab.puzzles.polyomino.pack import Pack

    if source == "-":
        text = decode(sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer")
                      else sys.stdin.read().encode(), "stdin")
        return read_puzzle(text, "stdin")
    text = read_text(source)
    if text.lstrip().startswith("{"):
        if level is None:
            raise PuzzleError(f"{source} is a pack: give --level N (and --code for a public "
                              "pack)")
        pack = Pack.from_text(text, where=source)
        if code is not None:
            return pack.unlock(level, code)
        if pack.levels is None:
            raise PuzzleError(f"{source} is a public pack, without solutions: give --code "
                              f"for level {level}")
        return pack.level(level).puzzle()
    if level is not None or code is not None:
        raise PuzzleError("--level and --code apply to packs only")
    return read_puzzle(text, source)


@app.command("export-html")
def export_html_command(
    pack_file: Annotated[Path, typer.Argument(metavar="PACK", help="A level pack (public or "
                                                                   "master; solutions are "
                                                                   "never exported).")],
    out: Annotated[Path, typer.Argument(metavar="OUT", help="The HTML file to write.")],
    server: Annotated[str | None, typer.Option(
        help="Leaderboard server base URL (the page calls SERVER/api/leaderboard/...).")
    ] = None,
) -> None:
    """The browser game as one self-contained HTML file that plays offline from disk."""
    from boardlab.puzzles.polyomino.pack import Pack
    from boardlab.web.triplex.export import export_html

    with edge():
        check_output(out)
        written = export_html(pack_file, out, server)
        typer.echo(f"wrote {written} ({len(Pack.load(pack_file))} levels"
                   + (f", leaderboard {server}" if server else ", offline") + ")")


#: The default of ``reorder --min-solves``: a median of fewer players says little.
MIN_SOLVES = 5


def _existing_database(db: str) -> str:
    """``db`` unless it names an SQLite file that does not exist (opening would make an
    empty database and re-order nothing)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    if "://" not in db:
        path: str | None = db
    else:
        try:
            url = make_url(db)
        except (ArgumentError, ValueError):
            return db  # open_store names the problem
        path = url.database if url.get_backend_name() == "sqlite" else None
    if path and path != ":memory:" and not Path(path).expanduser().is_file():
        raise PuzzleError(f"--db {db}: no such database file")
    return db


@app.command()
def reorder(
    master_file: Annotated[Path, typer.Argument(metavar="MASTER_PACK", help=(
        "The master pack (with solutions) whose leaderboard is read."))],
    db: Annotated[str, typer.Option("--db", help=(
        "The leaderboard's database: an SQLAlchemy URL or an SQLite file."))],
    out: Annotated[Path, typer.Option("--out", help="The new public pack (no solutions).")],
    master: Annotated[Path | None, typer.Option(
        help="The new master copy (default: OUT with .master.json).")] = None,
    min_solves: Annotated[int, typer.Option(
        "--min-solves", min=1, max=MAX_LIMIT,
        help="Server-timed solves a level needs to move; levels with fewer keep their "
             "place.")] = MIN_SOLVES,
    name: Annotated[str | None, typer.Option(
        help="A name for the new pack (default: the old pack's).")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Re-order a pack by how long people take: the median server-timed solve of each
    level on the leaderboard, fastest first; the codes are chained anew (a new pack)."""
    with edge():
        from boardlab.puzzles.polyomino.order import human_order, reorder_pack
        from boardlab.puzzles.polyomino.pack import Pack
        from boardlab.store.db import open_store
        from boardlab.store.leaderboard import median_times

        master = master or out.with_name(out.name.removesuffix(".json") + ".master.json")
        for path in (out, master):
            check_output(path)
        if out.resolve() == master.resolve():
            raise PuzzleError("--out and --master must be different files")
        old = Pack.load(master_file)
        if old.levels is None:
            raise PuzzleError(f"{master_file}: a public pack; re-ordering needs the master "
                              "copy (with solutions)")
        with open_store(_existing_database(db)) as store:
            medians = median_times(store, old.salt.hex())
        medians = {n: m for n, m in medians.items() if 1 <= n <= len(old)}
        order = human_order(len(old), medians, min_solves)
        pack = reorder_pack(old, order, name=name)
        pack.solve_chain()  # every level unlocks with the code of the one before
        pack.save(master, with_solutions=True)
        pack.public().save(out)
        moved = sum(1 for i, n in enumerate(order, start=1) if i != n)
        if as_json:
            echo_json({"pack": pack.salt.hex(), "old_pack": old.salt.hex(),
                       "order": list(order), "moved": moved, "first_code": pack.first_code,
                       "timed": {str(n): {"solves": c, "median_seconds": m}
                                 for n, (c, m) in sorted(medians.items())}})
            return
        ranked = sum(1 for c, _ in medians.values() if c >= min_solves)
        typer.echo(f"{len(old)} levels, {ranked} with at least {min_solves} timed solves; "
                   f"{moved} moved")
        typer.echo(f"wrote {out} (public) and {master} (with solutions), pack "
                   f"{pack.salt.hex()}; level 1 code {pack.first_code}")
