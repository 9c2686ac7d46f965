"""``boardlab pipes``: pipe puzzles (Plumber), every path from the tap to the drain.

Rules and level format: ../shared/specs/plumber.md and
:mod:`boardlab.puzzles.pipes.level`. Every bad input (unreadable file, malformed level)
ends with one ``error:`` line naming the file (and the line and column) and exit
status 2. Text output is streamed: a level with billions of solutions prints its first
lines at once, and ``--limit`` or Ctrl-C stops it.
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from boardlab.cli.common import echo_json, edge
from boardlab.errors import PuzzleError
from boardlab.puzzles.pipes.level import PipeLevel
from boardlab.puzzles.pipes.solve import solutions

app = typer.Typer(help="Pipe puzzles (Plumber): solve, count, generate, store.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)

JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
LevelArgument = Annotated[str, typer.Argument(
    metavar="LEVEL", help="A level text file ('-' for stdin).")]


def read_level(source: str) -> PipeLevel:
    """The level in file ``source`` (``-``: stdin); errors name the file."""
    if source == "-":
        return PipeLevel.parse(sys.stdin.read(), where="stdin")
    try:
        text = Path(source).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PuzzleError(f"{source}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise PuzzleError(f"{source}: cannot read: {e}") from None
    return PipeLevel.parse(text, where=source)


@app.command("solve")
def solve_command(
    level_file: LevelArgument,
    limit: Annotated[int | None, typer.Option(min=1, help="Stop after N solutions.")] = None,
    codes_only: Annotated[bool, typer.Option(
        "--codes-only", help="Print only the codes, one per line.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Every solution of a level, in search order.

    One line per solution: the path in the article's row-col notation (tap and drain
    included), two spaces, the code.
    """
    with edge():
        level = read_level(level_file)
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
        for s in itertools.islice(solutions(level), limit):
            typer.echo(s.code if codes_only else str(s))


@app.command("count")
def count_command(
    level: Annotated[str, typer.Argument(help="A level file ('-' for stdin).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The exact number of solutions, by a frontier dynamic program (no enumeration)."""
    from boardlab.puzzles.pipes.count import count_level

    with edge():
        grid = read_level(level)
        started = time.perf_counter()
        count = count_level(grid)
        seconds = time.perf_counter() - started
        if as_json:
            echo_json({"rows": grid.rows, "cols": grid.cols, "count": count,
                       "seconds": round(seconds, 6)})
        else:
            typer.echo(count)


@app.command("generate")
def generate_command(
    rows: Annotated[int, typer.Option("--rows", help="Grid rows.")],
    cols: Annotated[int, typer.Option("--cols", help="Grid columns.")],
    solutions_: Annotated[int, typer.Option(
        "--solutions", help="Exact number of solutions (1: a classic puzzle).")] = 1,
    seed: Annotated[int | None, typer.Option(help="Seed, for a reproducible level.")] = None,
    out: Annotated[Path | None, typer.Option(help="Write the level here.")] = None,
) -> None:
    """A random level with exactly K solutions, letters and a difficulty rating."""
    from boardlab.puzzles.pipes.generate import generate

    with edge():
        made = generate(rows, cols, solutions_, seed=seed)
        text = (f"# {rows}x{cols}, {made.solutions} solution"
                f"{'' if made.solutions == 1 else 's'}, difficulty {made.difficulty}"
                + (f", seed {seed}" if seed is not None else "") + "\n" + str(made.level))
        if not text.endswith("\n"):
            text += "\n"
        if out is None:
            typer.echo(text, nl=False)
            return
        tmp = out.with_name(out.name + ".tmp")
        try:
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(out)
        except OSError as e:
            tmp.unlink(missing_ok=True)
            raise PuzzleError(f"{out}: cannot write: {e.strerror}") from None
        typer.echo(f"wrote {out}: {made.solutions} solutions, difficulty {made.difficulty}")
