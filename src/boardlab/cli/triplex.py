"""``boardlab triplex``: generate, solve and unlock polyomino packing levels.

Rules and level format: ../shared/specs/triplex.md and
:mod:`boardlab.puzzles.polyomino`. Every bad input (unknown piece set, malformed level,
wrong code, area mismatch) ends with one ``error:`` line and exit status 2; output
files are written atomically, so nothing is left half-written.
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer

from boardlab.cli.common import echo_json, edge
from boardlab.errors import NotationError, PuzzleError
from boardlab.puzzles.polyomino.generator import generate_levels, sizes_up_to
from boardlab.puzzles.polyomino.level import Level, Puzzle, read_puzzle
from boardlab.puzzles.polyomino.pack import Pack
from boardlab.puzzles.polyomino.region import Region
from boardlab.puzzles.polyomino.shapes import CUSTOM, PIECE_SETS, piece_set
from boardlab.puzzles.polyomino.solver import PieceKind
from boardlab.puzzles.polyomino.solver import solve as solve_tiling
from boardlab.puzzles.runner import TimelinePoint, plot_timeline

app = typer.Typer(help="Triplex and other polyomino packing puzzles.", no_args_is_help=True,
                  add_completion=False, pretty_exceptions_enable=False)

PiecesOption = Annotated[str, typer.Option(
    "--pieces", help=f"Piece set: {', '.join(PIECE_SETS)}, or a file of shapes drawn "
                     "with # and . separated by blank lines.")]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
BackendOption = Annotated[str, typer.Option(
    help="Where the work runs: process (all cores), serial, or ray.")]
WorkersOption = Annotated[int | None, typer.Option(
    min=1, help="Parallel workers (default: all cores).")]
SeedOption = Annotated[int, typer.Option(
    help="Seed of the rotatable pieces' shown orientations and of the pack's codes.")]


def _pieces(name: str) -> str:
    """A piece set name, or ``file:PATH`` for an existing file; checked."""
    if name not in PIECE_SETS and Path(name).is_file():
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
    width: Annotated[int, typer.Argument(help="Width of the rectangle.")],
    height: Annotated[int, typer.Argument(help="Height of the rectangle.")],
    pieces: PiecesOption = "triplex",
    seed: SeedOption = 0,
    backend: BackendOption = "process",
    workers: WorkersOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Every level of a WxH rectangle: unique solution, >= 3 pieces, no straight cut,
    one per symmetry class, with rotatable piece and difficulty."""
    with edge():
        pieces = _pieces(pieces)
        found = generate_levels([(width, height)], pieces, seed=seed, backend=backend,
                                workers=workers, progress=sys.stderr.isatty())
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
    name: Annotated[str, typer.Option(help="A name for the pack.")] = "",
    backend: BackendOption = "process",
    address: Annotated[str | None, typer.Option(help="Ray cluster address.")] = None,
    workers: WorkersOption = None,
    checkpoint: Annotated[Path | None, typer.Option(
        help="Checkpoint file (default: OUT with .checkpoint.jsonl); a killed run resumes "
             "from it.")] = None,
    plot: Annotated[Path | None, typer.Option(
        help="Draw levels found and work done against time to this PNG.")] = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
) -> None:
    """Every level of every rectangle up to an area, ordered by difficulty, as a level
    pack whose levels are chained by codes."""
    with edge():
        pieces = _pieces(pieces)
        master = master or out.with_name(out.name.removesuffix(".json") + ".master.json")
        checkpoint = checkpoint or out.with_name(out.name + ".checkpoint.jsonl")
        timeline: list[TimelinePoint] = []
        started = time.perf_counter()
        found = generate_levels(sizes_up_to(max_area), pieces, seed=seed, backend=backend,
                                workers=workers, ray_address=address, checkpoint=checkpoint,
                                progress=progress and sys.stderr.isatty(), timeline=timeline)
        if not found:
            raise PuzzleError(f"no levels of these pieces up to area {max_area}: "
                              "nothing written")
        recorded = CUSTOM if pieces.startswith("file:") else pieces
        pack = Pack.build(found, pack_salt(recorded, seed), recorded, name=name)
        pack.save(master, with_solutions=True)
        pack.public().save(out)
        if plot is not None:
            plot_timeline(timeline, plot, title=f"{recorded} levels up to area {max_area}")
        checkpoint.unlink(missing_ok=True)
        sizes = Counter(f"{level.width}x{level.height}" for level in found)
        typer.echo(f"{len(found)} levels in {time.perf_counter() - started:.1f} s: "
                   + ", ".join(f"{s} {n}" for s, n in sorted(
                       sizes.items(), key=lambda kv: tuple(map(int, kv[0].split("x"))))))
        typer.echo(f"wrote {out} (public) and {master} (with solutions); "
                   f"level 1 code {pack.first_code}")


@app.command()
def unlock(
    pack_file: Annotated[Path, typer.Argument(metavar="PACK", help="A level pack.")],
    level: Annotated[int, typer.Option("--level", help="Level number (1-based).")],
    code: Annotated[str, typer.Option(help="The code written down after the previous level.")],
    as_json: JsonFlag = False,
) -> None:
    """Decode a level of a pack with its code; a wrong code is rejected."""
    with edge():
        puzzle = Pack.load(pack_file).unlock(level, code)
        if as_json:
            echo_json(puzzle.to_json())
        else:
            typer.echo(str(puzzle))


@app.command()
def code(
    pack_file: Annotated[Path, typer.Argument(metavar="MASTER", help="A master pack.")],
    level: Annotated[int, typer.Option("--level", help="Level number (1-based).")],
) -> None:
    """The code that unlocks a level (needs the master copy with solutions)."""
    with edge():
        pack = Pack.load(pack_file)
        typer.echo(pack.first_code if level == 1 else pack.code_after(level - 1,
                                                                      pack.level(level - 1)))


def _puzzle_kinds(puzzle: Puzzle) -> list[PieceKind]:
    counts = Counter(p for i, p in enumerate(puzzle.pieces) if i != puzzle.rotatable)
    order = sorted(counts, key=lambda s: (s.size, s.height, s.width, s.cells))
    kinds = [PieceKind.fixed(s, counts[s]) for s in order]
    if puzzle.rotatable is not None:
        kinds.append(PieceKind.free(puzzle.pieces[puzzle.rotatable]))
    return kinds


@app.command("solve")
def solve_command(
    source: Annotated[str, typer.Argument(
        help="A level or puzzle text file ('-' for stdin), or a pack with --level.")],
    level: Annotated[int | None, typer.Option(help="Level number in a pack.")] = None,
    code: Annotated[str | None, typer.Option(help="Code of that level (public packs).")] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="Stop after N solutions.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Solve a level: the number of solutions, each as a grid, and the search steps."""
    with edge():
        puzzle = _read_source(source, level, code)
        region = Region.rectangle(puzzle.width, puzzle.height)
        result = solve_tiling(region, _puzzle_kinds(puzzle), limit=limit)
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
    if source == "-":
        return read_puzzle(sys.stdin.read(), "stdin")
    path = Path(source)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PuzzleError(f"{source}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise PuzzleError(f"{source}: cannot read: {e}") from None
    if text.lstrip().startswith("{"):
        if level is None:
            raise PuzzleError(f"{source} is a pack: give --level N (and --code for a public "
                              "pack)")
        pack = Pack.load(path)
        if code is None:
            try:
                return pack.level(level).puzzle()
            except PuzzleError:
                raise PuzzleError(f"{source} holds no solutions: give --code for level "
                                  f"{level}") from None
        return pack.unlock(level, code)
    if level is not None:
        raise PuzzleError("--level applies to packs only")
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
    from boardlab.web.triplex.export import export_html

    with edge():
        written = export_html(pack_file, out, server)
        typer.echo(f"wrote {written} ({len(Pack.load(pack_file))} levels"
                   + (f", leaderboard {server}" if server else ", offline") + ")")
