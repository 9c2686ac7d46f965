"""``boardlab pipes``: pipe puzzles (Plumber), every path from the tap to the drain.

Rules and level format: :doc:`/pipes` and
:mod:`boardlab.puzzles.pipes.level`. Every bad input (unreadable file, malformed level)
ends with one ``error:`` line naming the file (and the line and column) and exit
status 2. Text output is streamed: a level with billions of solutions prints its first
lines at once, and ``--limit`` or Ctrl-C stops it.

The solver and the generator are imported by the commands that use them.
"""

from __future__ import annotations

import itertools
import sys
import time
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from boardlab.cli.common import MAX_SEED, echo_json, edge, new_app, progress, working
from boardlab.files import check_output, decode, read_text, write_atomic

if TYPE_CHECKING:
    from boardlab.puzzles.pipes.level import PipeLevel

app = new_app("Pipe puzzles (Plumber): solve, count, generate, store.")

#: Bounds of the numeric inputs. Generating a level recounts its solutions thousands of
#: times: 14x14 takes 5 s to a minute here (seeds 1-3), 16x16 more than five minutes.
MAX_GENERATE_SIDE = 14
MAX_SOLUTIONS = 1_000_000
MAX_LIMIT = 10**12

JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
LevelArgument = Annotated[str, typer.Argument(
    metavar="LEVEL", help="A level file: the text form, or the seed's CSV table "
                          "y,x,type,lit ('-' for stdin).")]


class LevelFormat(StrEnum):
    """The forms a level file takes (see :mod:`boardlab.puzzles.pipes.table`)."""

    auto = "auto"
    text = "text"
    csv = "csv"


FormatOption = Annotated[LevelFormat, typer.Option(
    "--format",
    help="The level file's form: text, csv (the table y,x,type,lit) or auto (csv for "
         "a *.csv file or a first line of numbers or a y,x,type,lit header).")]


def read_level(source: str, format: str | LevelFormat = "auto") -> PipeLevel:
    """The level in file ``source`` (``-``: stdin), in the text form or the CSV table
    (``format``: see :func:`boardlab.puzzles.pipes.table.parse_level`); errors name the
    file, the line and the column."""
    from boardlab.puzzles.pipes.table import parse_level

    format = LevelFormat(format).value
    if source == "-":
        stream = getattr(sys.stdin, "buffer", None)
        text = (decode(stream.read(), "stdin") if stream is not None
                else sys.stdin.read())
        return parse_level(text, "stdin", format)
    return parse_level(read_text(source), source, format)


@app.command("solve")
def solve_command(
    level_file: LevelArgument,
    level_format: FormatOption = LevelFormat.auto,
    limit: Annotated[int | None, typer.Option(min=1, max=MAX_LIMIT,
                                              help="Stop after N solutions.")] = None,
    codes_only: Annotated[bool, typer.Option(
        "--codes-only", help="Print only the codes, one per line.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Every solution of a level, in search order.

    One line per solution: the path in the article's row-col notation (tap and drain
    included), two spaces, the code. A level without a solution says so (on stderr
    with --codes-only, whose output is only codes).
    """
    from boardlab.puzzles.pipes.solve import solutions

    with edge():
        level = read_level(level_file, level_format)
        if as_json:
            # One solution past the limit tells whether the list is complete.
            found = list(solutions(level, None if limit is None else limit + 1))
            complete = limit is None or len(found) <= limit
            found = found[:limit]
            echo_json({"rows": level.rows, "cols": level.cols, "count": len(found),
                       "complete": complete,
                       "solutions": [{"path": [list(cell) for cell in s.cells],
                                      "notation": s.notation, "code": s.code}
                                     for s in found]})
            return
        printed = 0
        for s in itertools.islice(solutions(level), limit):
            typer.echo(s.code if codes_only else str(s))
            printed += 1
        if not printed:
            typer.echo("no solution: no path leads from the tap to the drain",
                       err=codes_only)


@app.command("count")
def count_command(
    level: LevelArgument,
    level_format: FormatOption = LevelFormat.auto,
    as_json: JsonFlag = False,
) -> None:
    """The exact number of solutions, by a frontier dynamic program (no enumeration)."""
    from boardlab.puzzles.pipes.count import count_level

    with edge():
        grid = read_level(level, level_format)
        started = time.perf_counter()
        with working(f"counting the solutions of the {grid.rows}x{grid.cols} level"):
            count = count_level(grid)
        seconds = time.perf_counter() - started
        if as_json:
            echo_json({"rows": grid.rows, "cols": grid.cols, "count": count,
                       "seconds": round(seconds, 6)})
        else:
            typer.echo(count)


@app.command("generate")
def generate_command(
    rows: Annotated[int, typer.Option("--rows", min=1, max=MAX_GENERATE_SIDE,
                                      help="Grid rows.")],
    cols: Annotated[int, typer.Option("--cols", min=1, max=MAX_GENERATE_SIDE,
                                      help="Grid columns.")],
    solutions_: Annotated[int, typer.Option(
        "--solutions", min=1, max=MAX_SOLUTIONS,
        help="Exact number of solutions (1: a classic puzzle).")] = 1,
    seed: Annotated[int | None, typer.Option(
        min=0, max=MAX_SEED, help="Seed, for a reproducible level.")] = None,
    out: Annotated[Path | None, typer.Option(help="Write the level here.")] = None,
) -> None:
    """A random level with exactly K solutions, letters and a difficulty rating.

    A terminal shows the attempts and the solution count as the grid is reworked.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from boardlab.puzzles.pipes.generate import generate

    with edge():
        if out is not None:
            check_output(out)

        def step(bar: Any, task: Any, attempt: int, attempts: int, count: int) -> None:
            bar.update(task, completed=attempt, total=attempts,
                       count=f"{count:,} solution{'' if count == 1 else 's'}")

        with progress(TextColumn(f"{rows}x{cols}, want {solutions_:,}:"), BarColumn(),
                      MofNCompleteColumn(), TextColumn("attempts, now {task.fields[count]}"),
                      TimeElapsedColumn()) as bar:
            task = bar.add_task("generate", total=None, count="...")
            made = generate(rows, cols, solutions_, seed=seed,
                            progress=lambda attempt, attempts, count:
                            step(bar, task, attempt, attempts, count))
        text = (f"# {rows}x{cols}, {made.solutions} solution"
                f"{'' if made.solutions == 1 else 's'}, difficulty {made.difficulty}"
                + (f", seed {seed}" if seed is not None else "") + "\n" + str(made.level))
        if not text.endswith("\n"):
            text += "\n"
        if out is None:
            typer.echo(text, nl=False)
            return
        write_atomic(out, text)
        typer.echo(f"wrote {out}: {made.solutions} solutions, difficulty {made.difficulty}")
