"""``boardlab pipes import|export|list|check``: pipe levels and their codes in the database.

The quest workflow of ../shared/specs/plumber.md: the organiser imports a level file (every
solution is enumerated and its code stored), then ``check`` tells whether a code typed by
players is the code of some solution (exit status 0 if it is, 1 if not, 2 on errors).
Storage: :mod:`boardlab.store.pipes`; the database is ``--db URL`` (an SQLAlchemy URL or an
SQLite file path), else ``$BOARDLAB_DB``, else ``boardlab.db`` in the data folder (see
:mod:`boardlab.store.db`). Every error ends with one ``error:`` line and exit status 2.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from boardlab.cli.common import echo_json, edge
from boardlab.errors import PuzzleError, StoreError
from boardlab.store import pipes as pipe_store
from boardlab.store.db import open_store

DB_ENV = "BOARDLAB_DB"

DbOption = Annotated[str | None, typer.Option(
    "--db", metavar="URL", envvar=DB_ENV,
    help="Database: an SQLAlchemy URL (postgresql+psycopg://USER:PASSWORD@HOST/DB) or an "
         "SQLite file; default $BOARDLAB_DB, else boardlab.db in $BOARDLAB_DATA or "
         "~/.local/share/boardlab.")]
LevelRef = Annotated[str, typer.Argument(metavar="LEVEL_ID", help="A level's id or name.")]


def _solution_pair(solution: Any) -> tuple[str, str]:
    """``(path, code)`` of one solution from the pipe solver: a pair already, or an object
    with ``code`` and a ``notation`` or ``path`` (its text form is the path notation)."""
    if isinstance(solution, tuple | list) and len(solution) == 2:
        path, code = solution
    else:
        path = getattr(solution, "notation", None) or solution.path
        code = solution.code
    if callable(path):
        path = path()
    if callable(code):
        code = code()
    return str(path), str(code)


def _pairs(solutions: Iterable[Any]) -> Iterator[tuple[str, str]]:
    for solution in solutions:
        yield _solution_pair(solution)


def import_level(level_file: Path, name: str | None, db: str | None) -> tuple[int, int, str]:
    """Parse ``level_file``, enumerate its solutions and store them; return the level's
    id, its number of solutions and the masked database URL."""
    try:
        from boardlab.puzzles.pipes.level import PipeLevel
        from boardlab.puzzles.pipes.solve import solutions
    except ImportError as e:
        raise PuzzleError(f"the pipe puzzle model is not available: {e}") from None
    try:
        text = level_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise PuzzleError(f"{level_file}: cannot read the level: {e}") from None
    level = PipeLevel.parse(text, where=str(level_file))
    rows, cols = getattr(level, "rows", None), getattr(level, "cols", None)
    with open_store(db) as store:
        level_id = pipe_store.add_level(
            store, name or level_file.stem, text, _pairs(solutions(level)),
            rows=rows if isinstance(rows, int) else None,
            cols=cols if isinstance(cols, int) else None)
        return level_id, pipe_store.get_level(store, level_id).solution_count, store.url


def register(app: typer.Typer) -> None:
    """Add the commands ``import``, ``export``, ``list`` and ``check`` to ``app``."""

    @app.command("import")
    def import_command(
        level: Annotated[Path, typer.Argument(metavar="LEVEL", help="A level file.")],
        name: Annotated[str | None, typer.Option(
            help="The level's name in the database (default: the file name's stem).")] = None,
        db: DbOption = None,
    ) -> None:
        """Store a level and the code of every one of its solutions."""
        with edge():
            level_id, count, url = import_level(level, name, db)
            typer.echo(f"level {level_id} ({name or level.stem}): {_solutions(count)} "
                       f"stored in {url}")

    @app.command("export")
    def export_command(
        level: LevelRef,
        db: DbOption = None,
        out: Annotated[Path | None, typer.Option(
            "--out", metavar="FILE", help="Write the level text here instead of stdout.")]
        = None,
    ) -> None:
        """Print (or write) a stored level's text exactly as it was imported."""
        with edge():
            with open_store(db) as store:
                text = pipe_store.export_level(store, level)
            if out is None:
                typer.echo(text, nl=False)
                return
            try:
                with out.open("w", encoding="utf-8", newline="") as f:
                    f.write(text)
            except OSError as e:
                raise StoreError(f"{out}: cannot write the level: {e.strerror or e}") from None

    @app.command("list")
    def list_command(
        db: DbOption = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
        = False,
    ) -> None:
        """Every stored level: id, name, size, number of solutions, import time."""
        with edge():
            with open_store(db) as store:
                levels = pipe_store.list_levels(store)
            if as_json:
                echo_json([level.to_json() for level in levels])
                return
            for level in levels:
                typer.echo(f"{level.id:>4}  {level.name}  {level.rows}x{level.cols}  "
                           f"{_solutions(level.solution_count)}  "
                           f"{level.created_at:%Y-%m-%d %H:%M} UTC")

    @app.command("check")
    def check_command(
        level: LevelRef,
        code: Annotated[str, typer.Argument(
            help="The code typed by players; spaces are ignored, case matters.")],
        db: DbOption = None,
    ) -> None:
        """Whether CODE is the code of a solution: exit status 0 if it is, 1 if not."""
        with edge(), open_store(db) as store:
            valid = pipe_store.check_code(store, level, code)
        typer.echo("valid" if valid else "not valid")
        raise typer.Exit(0 if valid else 1)


def _solutions(count: int) -> str:
    """``1 solution``, ``2 solutions``."""
    return f"{count} solution{'' if count == 1 else 's'}"
