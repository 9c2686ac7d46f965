"""Sphinx directives that write parts of boardlab's documentation from the code itself.

* ``boardlab-games``: one section per registered game (:func:`boardlab.core.registry.names`)
  with its description, players, options, start position and rules (the game module's
  docstring through autodoc);
* ``boardlab-move-examples``: a few legal moves of every game, in its own notation;
* ``boardlab-openapi``: the web app's JSON API, read from the OpenAPI schema FastAPI
  builds for :func:`boardlab.web.app.create_app` on a throw-away SQLite database.

Both produce reStructuredText and parse it in place, so the cross-references they write
are checked like any other.
"""

from __future__ import annotations

import json
import logging
import tempfile
import textwrap
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective


def _parse(directive: SphinxDirective, lines: Iterable[str]) -> list[nodes.Node]:
    """Parse reStructuredText written by a directive, titles allowed."""
    from sphinx.util.nodes import nested_parse_with_titles

    container = nodes.section()
    container.document = directive.state.document
    source = directive.get_source_info()[0]
    content = StringList()
    for i, line in enumerate(lines):
        content.append(line, source, i)
    nested_parse_with_titles(directive.state, content, container)
    return container.children


def _literal(text: str) -> str:
    """Inline literal text, safe for any characters."""
    if not text:
        return "*(empty)*"
    return f":code:`{text}`" if "`" not in text else repr(text)


def _label_sections(directive: SphinxDirective, found: list[nodes.Node], prefix: str
                    ) -> None:
    """Make every top section of ``found`` the target of ``:ref:`PREFIX-TITLE```.

    Labels written as reStructuredText targets inside a directive on a MyST page are not
    registered, so the standard domain is told directly."""
    std = directive.env.domains.standard_domain
    for node in found:
        if isinstance(node, nodes.section) and node["ids"]:
            title = node[0].astext()
            label = f"{prefix}-{title}"
            std.anonlabels[label] = (directive.env.docname, node["ids"][0])
            std.labels[label] = (directive.env.docname, node["ids"][0], title)


def _option_rows(schema: Iterable[Any]) -> list[str]:
    rows = [".. list-table::", "   :header-rows: 1", "   :widths: 20 15 15 50", "",
            "   * - option", "     - default", "     - values", "     - meaning"]
    for option in schema:
        if option.choices is not None:
            values = ", ".join(_literal(str(c)) for c in option.choices)
        elif option.minimum is not None or option.maximum is not None:
            low = "" if option.minimum is None else str(option.minimum)
            high = "" if option.maximum is None else str(option.maximum)
            values = f"{option.type.__name__} {low}..{high}"
        else:
            values = option.type.__name__
        rows += [f"   * - ``{option.name}``", f"     - {_literal(repr(option.default))}",
                 f"     - {values}", f"     - {option.help or ''}"]
    return rows


class GamesDirective(SphinxDirective):
    """Every registered game, one section each, in the registry's (alphabetical) order."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from boardlab.core.registry import game_class, names

        # A module's rules go with its plainest game (the shortest name: tic-tac-toe
        # rather than misere-tic-tac-toe); its other games point there.
        primary: dict[str, str] = {}
        for name in sorted(names(), key=lambda n: (len(n), n)):
            primary.setdefault(game_class(name).__module__, name)
        lines: list[str] = []
        for name in names():
            cls = game_class(name)
            game = cls()
            module = cls.__module__
            lines += [name, "=" * len(name), "",
                      f"{cls.description}.", ""]
            lines += [f"* Python: :class:`{module}.{cls.__name__}`, "
                      f"``boardlab.load({name!r})``",
                      f"* Players: {', '.join(cls.player_names)}"]
            if cls.source:
                lines.append(f"* Source: {cls.source}")
            if cls.known_perft:
                counts = ", ".join(f"{n:,}" for n in cls.known_perft)
                lines.append(f"* Perft from the start: {counts}")
            lines.append("")
            if cls.option_schema:
                lines += ["Options (``--option key=value`` on the command line, query "
                          "parameters in the web API):", ""]
                lines += _option_rows(cls.option_schema) + [""]
            else:
                lines += ["No options.", ""]
            lines += ["Start position, as its text form (``str(state)``):", "",
                      ".. code-block:: text", "",
                      *textwrap.indent(str(game.initial_state()), "   ").splitlines(), ""]
            lines += ["Rules", "-" * 5, ""]
            if primary[module] != name:
                lines += [f"As for :ref:`{primary[module]} <game-{primary[module]}>` "
                          f"(:mod:`{module}`); this variant:", ""]
            else:
                lines += [f".. automodule:: {module}", "   :no-members:", ""]
            lines += [f".. autoclass:: {module}.{cls.__name__}", "   :no-members:",
                      "   :no-show-inheritance:", ""]
        found = _parse(self, lines)
        _label_sections(self, found, "game")
        return found


class MoveExamplesDirective(SphinxDirective):
    """A table of every registered game with a few of its first legal moves, as the
    game writes them, and the position after the first of them."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from boardlab.core.registry import load, names

        lines = [".. list-table::", "   :header-rows: 1", "   :widths: 20 35 45", "",
                 "   * - game", "     - first legal moves", "     - after the first move"]
        for name in names():
            state = load(name).initial_state()
            moves = state.legal_moves()
            shown = ", ".join(_literal(m.notation) for m in moves[:3])
            after = _literal(str(state.play(moves[0]))) if moves else ""
            lines += [f"   * - :ref:`{name} <game-{name}>`", f"     - {shown}",
                      f"     - {after}"]
        return _parse(self, lines)


_SCHEMA: dict[str, Any] = {}


def openapi_schema() -> dict[str, Any]:
    """The OpenAPI schema of the web app, built on an empty database in a temporary
    folder (the app needs one to start; nothing of it reaches the schema)."""
    from boardlab.web.app import create_app

    if _SCHEMA:
        return _SCHEMA

    # The migrations that create the throw-away database would log every step.
    logging.getLogger("alembic").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="boardlab-docs-") as folder:
        app = create_app(f"sqlite:///{Path(folder) / 'docs.db'}", data_dir=folder)
        try:
            _SCHEMA.update(app.openapi())
        finally:
            app.state.store.close()
    return _SCHEMA


def build_schema_first(app: Sphinx) -> None:
    """Build the schema before autodoc runs: documenting a route function gives it a
    signature of its own, which FastAPI would then read instead of the real one."""
    openapi_schema()


def _schema_text(schema: dict[str, Any]) -> str:
    """A short type description of a JSON schema."""
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " or ".join(_schema_text(s) for s in schema[key])
    kind = schema.get("type", "any")
    if kind == "array":
        return f"array of {_schema_text(schema.get('items', {}))}"
    return str(kind)


def _one_line(text: str) -> str:
    return " ".join(text.split())


class OpenApiDirective(SphinxDirective):
    """Every operation of the JSON API: method, path, summary, description, parameters,
    request body and responses; then the request and response models."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        spec = openapi_schema()
        lines: list[str] = []
        for path, operations in spec["paths"].items():
            for method, op in operations.items():
                title = f"{method.upper()} {path}"
                lines += [title, "-" * len(title), ""]
                if op.get("summary"):
                    lines += [f"**{op['summary']}.**", ""]
                if op.get("description"):
                    lines += [*textwrap.dedent(op["description"]).splitlines(), ""]
                params = op.get("parameters", [])
                if params:
                    lines += [".. list-table:: Parameters", "   :header-rows: 1",
                              "   :widths: 20 12 20 48", "",
                              "   * - name", "     - in", "     - type", "     - notes"]
                    for p in params:
                        schema = p.get("schema", {})
                        notes = []
                        if p.get("required"):
                            notes.append("required")
                        if "default" in schema:
                            notes.append(f"default {_literal(json.dumps(schema['default']))}")
                        for bound in ("minimum", "maximum"):
                            if bound in schema:
                                notes.append(f"{bound} {schema[bound]}")
                        if p.get("description"):
                            notes.append(_one_line(p["description"]))
                        lines += [f"   * - ``{p['name']}``", f"     - {p['in']}",
                                  f"     - {_schema_text(schema)}",
                                  f"     - {'; '.join(notes)}"]
                    lines.append("")
                body = op.get("requestBody")
                if body:
                    content = body.get("content", {}).get("application/json", {})
                    kind = _schema_text(content.get("schema", {}))
                    need = "required" if body.get("required") else "optional"
                    lines += [f"Request body ({need}, JSON): ``{kind}``.", ""]
                lines += ["Responses:", ""]
                for status, response in op.get("responses", {}).items():
                    content = response.get("content", {}).get("application/json", {})
                    kind = _schema_text(content["schema"]) if content.get("schema") else ""
                    shape = f" (``{kind}``)" if kind and kind != "any" else ""
                    lines.append(f"* **{status}** {_one_line(response.get('description', ''))}"
                                 f"{shape}")
                lines.append("")
        models = spec.get("components", {}).get("schemas", {})
        if models:
            lines += ["Models", "------", ""]
            for name, model in models.items():
                lines += [f"``{name}``", "~" * (len(name) + 4), ""]
                if model.get("description"):
                    lines += [*textwrap.dedent(model["description"]).splitlines(), ""]
                for field, schema in model.get("properties", {}).items():
                    need = " (required)" if field in model.get("required", []) else ""
                    lines.append(f"* ``{field}``: {_schema_text(schema)}{need}")
                lines.append("")
        return _parse(self, lines)


def resolve_short_name(app: Sphinx, env: Any, node: Any, contnode: nodes.Element
                       ) -> nodes.Element | None:
    """Resolve a Python reference by its last name(s) when exactly one documented
    boardlab object ends with them.

    Docstrings name boardlab's objects as the module using them does (``PuzzleError``,
    ``State.view``), which reads well in ``help()``; a short name that fits several
    objects, or none, stays unresolved and fails the build."""
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip(".~")
    if not target:
        return None
    domain = env.domains["py"]
    suffix = "." + target
    found = [name for name in domain.objects
             if name.startswith("boardlab.") and name.endswith(suffix)]
    if len(found) != 1:
        return None
    from sphinx.util.nodes import make_refnode

    entry = domain.objects[found[0]]
    return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode,
                        found[0])


def _is_model(obj: Any) -> bool:
    try:
        from pydantic import BaseModel
    except ImportError:  # pragma: no cover - pydantic comes with FastAPI
        return False
    return isinstance(obj, type) and issubclass(obj, BaseModel)


def drop_model_signature(app: Sphinx, what: str, name: str, obj: Any, options: Any,
                         signature: str | None, return_annotation: str | None
                         ) -> tuple[str, str] | None:
    """A pydantic model's constructor signature spells out validation internals
    (``FieldInfo``, ``MaxLen``); the model's fields say the same more clearly."""
    if what == "class" and _is_model(obj):
        return "", ""
    return None


def public_bases(app: Sphinx, name: str, obj: Any, options: Any, bases: list[type]) -> None:
    """Show a private base class (``_Strict``) as the public classes it derives from."""
    for i in range(len(bases) - 1, -1, -1):
        base = bases[i]
        if base.__name__.startswith("_") and base.__module__.startswith("boardlab."):
            bases[i:i + 1] = list(base.__bases__)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directives and the reference and autodoc hooks."""
    app.add_directive("boardlab-games", GamesDirective)
    app.add_directive("boardlab-openapi", OpenApiDirective)
    app.add_directive("boardlab-move-examples", MoveExamplesDirective)
    app.connect("builder-inited", build_schema_first)
    app.connect("missing-reference", resolve_short_name)
    app.connect("autodoc-process-signature", drop_model_signature)
    app.connect("autodoc-process-bases", public_bases)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
