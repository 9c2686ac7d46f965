"""What every ``boardlab`` sub-command shares: the error edge, one-line usage errors,
progress on a terminal and JSON output.

Only light modules are imported here: every command starts by importing this one, and
``boardlab --help`` must answer at once.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import typer
from typer import Abort
from typer._click.exceptions import ClickException
from typer.core import TyperGroup

from boardlab import compiled
from boardlab.errors import BoardlabError

if TYPE_CHECKING:
    from rich.progress import Progress, ProgressColumn


#: Seeds of every command: 32 bits, as most generators take them.
MAX_SEED = 2**32 - 1


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


@contextmanager
def edge() -> Iterator[None]:
    """Turn a :class:`BoardlabError` into one line on stderr and exit status 2; an
    interrupted long run (Ctrl-C) exits with status 130 without a traceback."""
    try:
        yield
    except BoardlabError as e:
        typer.echo(f"error: {_one_line(str(e))}", err=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        raise typer.Exit(130) from None


class CommandGroup(TyperGroup):
    """The root command: a usage error (a missing argument, a number out of its bounds,
    an unknown option) is one ``error:`` line on stderr naming the parameter, with exit
    status 2, as every other error of boardlab; never a panel or a traceback."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        """Run the command line; the exit status is 0, 1 (a negative answer), 2 (an
        error) or 130 (interrupted)."""
        previous = compiled.set_announcer(announce)
        try:
            # One name in every message, however the command was started (the script,
            # python -m, a test runner).
            code = super().main(args, "boardlab", complete_var, standalone_mode=False,
                                **extra)
        except ClickException as e:
            ctx = getattr(e, "ctx", None)
            if type(e).__name__ == "NoArgsIsHelpError" and ctx is not None:
                typer.echo(ctx.get_help())
                code = 0
            else:
                message = e.format_message()
                option = getattr(e, "option_name", "") or ""
                if re.fullmatch(r"-\d+(\.\d*)?", option):
                    # The parser takes a negative argument for an option it does not know.
                    message = f"{option}: a negative number is not allowed here"
                hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
                typer.echo(f"error: {_one_line(message)}{hint}", err=True)
                code = e.exit_code
        except Abort:
            typer.echo("interrupted", err=True)
            code = 130
        finally:
            compiled.set_announcer(previous)
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


def announce(text: str) -> None:
    """Tell a person at a terminal about slow one-time work (numba compiling); said on
    stderr, so piped output stays clean, and only to a terminal."""
    if sys.stderr.isatty():
        typer.echo(text, err=True)


def new_app(help_text: str) -> typer.Typer:
    """A Typer application (or sub-command group) with boardlab's settings."""
    # Markdown: a docstring's wrapped lines flow into one paragraph in --help.
    return typer.Typer(help=help_text, no_args_is_help=True, add_completion=False,
                       pretty_exceptions_enable=False, cls=CommandGroup,
                       rich_markup_mode="markdown")


@contextmanager
def progress(*columns: str | ProgressColumn) -> Iterator[Progress]:
    """A Rich progress display on stderr, shown only when stderr is a terminal (a piped
    or redirected run stays quiet) and removed when the work is done."""
    from rich.console import Console
    from rich.progress import Progress

    console = Console(stderr=True)
    with Progress(*columns, console=console, transient=True,
                  disable=not console.is_terminal) as bar:
        yield bar


@contextmanager
def working(description: str) -> Iterator[None]:
    """A spinner with the elapsed time while work without steps to count runs (a bot
    thinking, one compiled search), as :func:`progress` shows it."""
    from rich.progress import SpinnerColumn, TextColumn, TimeElapsedColumn

    with progress(SpinnerColumn(), TextColumn("{task.description}", markup=False),
                  TimeElapsedColumn()) as bar:
        bar.add_task(description, total=None)
        yield


def echo_json(data: Any) -> None:
    """Print ``data`` as indented JSON."""
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
