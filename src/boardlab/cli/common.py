"""What every ``boardlab`` sub-command shares: the error edge and JSON output."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer

from boardlab.errors import BoardlabError


@contextmanager
def edge() -> Iterator[None]:
    """Turn a :class:`BoardlabError` into one line on stderr and exit status 2; an
    interrupted long run (Ctrl-C) exits with status 130 without a traceback."""
    try:
        yield
    except BoardlabError as e:
        message = " ".join(str(e).splitlines())
        typer.echo(f"error: {message}", err=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        raise typer.Exit(130) from None


def echo_json(data: Any) -> None:
    """Print ``data`` as indented JSON."""
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
