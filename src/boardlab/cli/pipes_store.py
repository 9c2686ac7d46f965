"""``boardlab pipes import|export|list|check``: pipe levels and their codes in the database.

The quest workflow of :doc:`/pipes`: the organiser imports a level file (every
solution is enumerated and its code stored), then ``check`` tells whether a code typed by
players is the code of some solution (exit status 0 if it is, 1 if not, 2 on errors).
Storage: :mod:`boardlab.store.pipes`; the database is ``--db URL`` (an SQLAlchemy URL or an
SQLite file path), else ``$BOARDLAB_DB``, else ``boardlab.db`` in the data folder (see
:mod:`boardlab.store.db`). Every error ends with one ``error:`` line and exit status 2.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from boardlab.cli.common import echo_json, edge, progress
from boardlab.cli.pipes import FormatOption, LevelFormat
from boardlab.errors import PuzzleError
from boardlab.files import read_text

DB_ENV = "BOARDLAB_DB"


class ExportFormat(StrEnum):
    """What ``export`` writes."""

    text = "text"
    csv = "csv"


DbOption = Annotated[str | None, typer.Option(
    "--db", metavar="URL", envvar=DB_ENV,
    help="Database: an SQLAlchemy URL (postgresql+psycopg://USER:PASSWORD@HOST/DB) or an "
         "SQLite file; default $BOARDLAB_DB, else boardlab.db in $BOARDLAB_DATA or "
         "~/.local/share/boardlab.")]
LevelRef = Annotated[str, typer.Argument(metavar="LEVEL_ID", help="A level's id or name.")]


#: The most solutions ``import`` stores by default: each is a database row.
DEFAULT_MAX_SOLUTIONS = 10_000_000
MAX_SOLUTIONS = 10**9


def import_level(level_file: Path, name: str | None, db: str | None, *,
                 max_solutions: int = DEFAULT_MAX_SOLUTIONS,
                 progress: Callable[[int, int], None] | None = None,
                 level_format: str = "auto") -> tuple[int, int, str]:
    """Parse ``level_file`` (the text form, or the CSV table ``y,x,type,lit``:
    ``level_format`` as in :func:`boardlab.puzzles.pipes.table.parse_level`), enumerate its
    solutions and store them; return the level's id, its number of solutions and the
    masked database URL. A table is stored in the text form, which the database keeps.

    The solutions are counted first (exactly, without enumerating them): a level with
    more than ``max_solutions`` is refused before anything is written.
    ``progress(stored, total)`` is called as solutions are enumerated.
    """
    from boardlab.puzzles.pipes.count import count_level
    from boardlab.puzzles.pipes.solve import solutions
    from boardlab.puzzles.pipes.table import detect_format, parse_level
    from boardlab.store import pipes as pipe_store
    from boardlab.store.db import open_store

    text = read_text(level_file)
    if level_format == "auto":
        level_format = detect_format(text, str(level_file))
    level = parse_level(text, str(level_file), level_format)
    if level_format == "csv":
        text = str(level)
    total = count_level(level)
    if total > max_solutions:
        raise PuzzleError(f"{level_file}: {total:,} solutions, more than the "
                          f"{max_solutions:,} an import stores (see --max-solutions)")

    def pairs() -> Iterator[tuple[str, str]]:
        for stored, solution in enumerate(solutions(level), start=1):
            if progress is not None and (stored % 1024 == 0 or stored == total):
                progress(stored, total)
            yield solution.notation, solution.code

    with open_store(db) as store:
        level_id = pipe_store.add_level(store, name or level_file.stem, text, pairs(),
                                        rows=level.rows, cols=level.cols)
        return level_id, pipe_store.get_level(store, level_id).solution_count, store.url


def register(app: typer.Typer) -> None:
    """Add the commands ``import``, ``export``, ``list`` and ``check`` to ``app``."""

    @app.command("import")
    def import_command(
        level: Annotated[Path, typer.Argument(metavar="LEVEL", help="A level file.")],
        name: Annotated[str | None, typer.Option(
            help="The level's name in the database (default: the file name's stem; "
                 "not a number, which would read as an id).")] = None,
        db: DbOption = None,
        max_solutions: Annotated[int, typer.Option(
            "--max-solutions", min=1, max=MAX_SOLUTIONS,
            help="Refuse a level with more solutions than this (each is stored).")]
        = DEFAULT_MAX_SOLUTIONS,
        level_format: FormatOption = LevelFormat.auto,
    ) -> None:
        """Store a level and the code of every one of its solutions.

        LEVEL is the text form or the seed's CSV table y,x,type,lit (a table is stored
        in the text form). A terminal shows the solutions stored so far.
        """
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        with edge(), progress(TextColumn("storing solutions"), BarColumn(),
                              MofNCompleteColumn(), TimeElapsedColumn()) as bar:
            task = bar.add_task("import", total=None)
            level_id, count, url = import_level(
                level, name, db, max_solutions=max_solutions,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
                level_format=level_format.value)
            typer.echo(f"level {level_id} ({name or level.stem}): {_solutions(count)} "
                       f"stored in {url}")

    @app.command("export")
    def export_command(
        level: LevelRef,
        db: DbOption = None,
        out: Annotated[Path | None, typer.Option(
            "--out", metavar="FILE", help="Write the level text here instead of stdout.")]
        = None,
        level_format: Annotated[ExportFormat, typer.Option(
            "--format", help="text: the level's text as stored; csv: the seed's table "
                             "y,x,type,lit.")] = ExportFormat.text,
    ) -> None:
        """Print (or write) a stored level's text exactly as it was imported, or its CSV
        table."""
        from boardlab.files import check_output, write_atomic
        from boardlab.puzzles.pipes.level import PipeLevel
        from boardlab.puzzles.pipes.table import table_text
        from boardlab.store import pipes as pipe_store
        from boardlab.store.db import open_store

        with edge():
            if out is not None:
                check_output(out)
            with open_store(db) as store:
                text = pipe_store.export_level(store, level)
            if level_format == ExportFormat.csv:
                text = table_text(PipeLevel.parse(text, f"stored level {level}"))
            if out is None:
                typer.echo(text, nl=False)
                return
            write_atomic(out, text)

    @app.command("list")
    def list_command(
        db: DbOption = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
        = False,
    ) -> None:
        """Every stored level: id, name, size, number of solutions, import time."""
        from boardlab.store import pipes as pipe_store
        from boardlab.store.db import open_store

        with edge():
            with open_store(db) as store:
                levels = pipe_store.list_levels(store)
                url = store.url
            if as_json:
                echo_json([level.to_json() for level in levels])
                return
            if not levels:
                typer.echo(f"no pipe levels stored in {url}; add one with "
                           "'boardlab pipes import LEVEL'")
                return
            for level in levels:
                typer.echo(f"{level.id:>4}  {level.name}  {level.rows}x{level.cols}  "
                           f"{_solutions(level.solution_count)}  "
                           f"{level.created_at:%Y-%m-%d %H:%M} UTC")

    @app.command("check")
    def check_command(
        level: LevelRef,
        code: Annotated[str, typer.Argument(
            help="The code typed by players; spaces are ignored, and so is the case of "
                 "letters unless the level has two letters differing only by case.")],
        db: DbOption = None,
    ) -> None:
        """Whether CODE is the code of a solution: exit status 0 if it is, 1 if not."""
        from boardlab.puzzles.pipes.level import PipeLevel
        from boardlab.puzzles.pipes.quest import read_answer
        from boardlab.store import pipes as pipe_store
        from boardlab.store.db import open_store

        with edge(), open_store(db) as store:
            stored = pipe_store.get_level(store, level)
            grid = PipeLevel.parse(stored.text, f"stored level {stored.name!r}")
            valid = pipe_store.check_code(store, stored.id, read_answer(grid, code))
        typer.echo("valid" if valid else "not valid")
        raise typer.Exit(0 if valid else 1)


def _solutions(count: int) -> str:
    """``1 solution``, ``2 solutions``."""
    return f"{count} solution{'' if count == 1 else 's'}"
