"""Rules and other docstrings, written in reStructuredText, as Markdown for display.

A game's rules are its module docstring (:attr:`boardlab.core.game.Game.rules`), written
in the reStructuredText of Python docstrings, with Sphinx's cross-reference roles
(``:class:`~boardlab.core.rules.Rules```). The terminal (Rich) and the browser show
Markdown, so the text is parsed by docutils, the reference parser of reStructuredText,
and its document tree is written out as CommonMark: sections become headings, inline
literals code spans, literal blocks and doctests fenced code, simple and grid tables
pipe tables, Sphinx roles code spans showing the name as Sphinx would.

>>> print(rst_to_markdown("Rules\\n-----\\nSee :class:`~boardlab.core.game.Game`, ``x``."))
## Rules
<BLANKLINE>
See `Game`, `x`.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

#: Sphinx's Python-domain roles (and a few standard ones) that docstrings use; each shows
#: its text as code, the way Sphinx prints a cross-reference.
SPHINX_ROLES = ("mod", "func", "data", "const", "class", "meth", "attr", "exc", "obj",
                "ref", "doc", "term", "envvar", "option", "file", "program", "samp",
                "py:mod", "py:func", "py:data", "py:const", "py:class", "py:meth",
                "py:attr", "py:exc", "py:obj")

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|])")


def _shown(text: str) -> str:
    """What Sphinx shows for a cross-reference: ``Title <target>`` shows the title,
    ``~a.b.C`` shows ``C``, anything else as written."""
    titled = re.fullmatch(r"\s*(.+?)\s*<[^<>]+>\s*", text)
    if titled:
        return titled.group(1)
    if text.startswith("~"):
        return text[1:].rsplit(".", 1)[-1]
    return text.lstrip("!")


@cache
def _register_roles() -> None:
    from docutils import nodes
    from docutils.parsers.rst import roles

    def role(name: str, rawtext: str, text: str, lineno: int, inliner: Any,
             options: dict | None = None, content: list | None = None) -> tuple[list, list]:
        return [nodes.literal(rawtext, _shown(text))], []

    for name in SPHINX_ROLES:
        roles.register_local_role(name, role)


def _escape(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def _code_span(text: str) -> str:
    ticks = "`"
    while ticks in text:
        ticks += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


class _Writer:
    """Walks a docutils document tree and writes CommonMark blocks."""

    def __init__(self) -> None:
        from docutils import nodes

        self.nodes = nodes

    # --- inline -------------------------------------------------------------------
    def inline(self, node: Any) -> str:
        nodes = self.nodes
        if isinstance(node, nodes.Text):
            return _escape(" ".join(str(node).split("\n")))
        if isinstance(node, nodes.literal | nodes.title_reference):
            return _code_span(node.astext())
        if isinstance(node, nodes.emphasis):
            return f"*{self.inlines(node)}*"
        if isinstance(node, nodes.strong):
            return f"**{self.inlines(node)}**"
        if isinstance(node, nodes.reference):
            text = self.inlines(node)
            uri = node.get("refuri")
            return f"[{text}]({uri})" if uri else text
        if isinstance(node, nodes.target | nodes.system_message | nodes.comment):
            return ""
        return self.inlines(node)

    def inlines(self, node: Any) -> str:
        return "".join(self.inline(child) for child in node.children)

    # --- blocks -------------------------------------------------------------------
    def blocks(self, node: Any, level: int) -> list[str]:
        out: list[str] = []
        for child in node.children:
            out.extend(self.block(child, level))
        return out

    def block(self, node: Any, level: int) -> list[str]:
        nodes = self.nodes
        if isinstance(node, nodes.section):
            return self.blocks(node, level + 1)
        if isinstance(node, nodes.title):
            return [f"{'#' * min(level + 1, 6)} {self.inlines(node)}"]
        if isinstance(node, nodes.paragraph | nodes.line):
            return [self.inlines(node)]
        if isinstance(node, nodes.literal_block | nodes.doctest_block):
            language = "python" if isinstance(node, nodes.doctest_block) else ""
            fence = "```"
            while fence in node.astext():
                fence += "`"
            return [f"{fence}{language}\n{node.astext()}\n{fence}"]
        if isinstance(node, nodes.bullet_list | nodes.enumerated_list):
            return [self.list_block(node, level)]
        if isinstance(node, nodes.definition_list):
            return self.definitions(node, level)
        if isinstance(node, nodes.field_list):
            return [self.fields(node, level)]
        if isinstance(node, nodes.table):
            return [self.table(node)]
        if isinstance(node, nodes.block_quote):
            inner = self.blocks(node, level)
            return ["\n".join("> " + line if line else ">"
                              for line in "\n\n".join(inner).splitlines())]
        if isinstance(node, nodes.line_block):
            return ["  \n".join(self.inlines(line) for line in node.children)]
        if isinstance(node, nodes.transition):
            return ["---"]
        if isinstance(node, nodes.Admonition):
            name = node.tagname.capitalize()
            body = self.blocks(node, level)
            return [f"**{name}.** " + (body[0] if body else ""), *body[1:]]
        if isinstance(node, nodes.target | nodes.system_message | nodes.comment
                      | nodes.substitution_definition):
            return []
        if isinstance(node, nodes.Element) and any(
                isinstance(c, nodes.Body | nodes.Structural) for c in node.children):
            return self.blocks(node, level)
        text = self.inlines(node) if isinstance(node, nodes.Element) else _escape(str(node))
        return [text] if text.strip() else []

    def list_block(self, node: Any, level: int) -> str:
        ordered = isinstance(node, self.nodes.enumerated_list)
        start = int(node.get("start", 1))
        items = []
        for i, item in enumerate(node.children):
            marker = f"{start + i}. " if ordered else "* "
            body = "\n\n".join(self.blocks(item, level))
            pad = " " * len(marker)
            lines = body.splitlines() or [""]
            items.append("\n".join([marker + lines[0]]
                                   + [pad + line if line else "" for line in lines[1:]]))
        # A blank line between items keeps multi-paragraph items in one list.
        loose = any("\n\n" in item for item in items)
        return ("\n\n" if loose else "\n").join(items)

    def definitions(self, node: Any, level: int) -> list[str]:
        out = []
        for item in node.children:
            term = next(c for c in item.children if isinstance(c, self.nodes.term))
            definition = next(c for c in item.children
                              if isinstance(c, self.nodes.definition))
            body = self.blocks(definition, level)
            out.append(f"**{self.inlines(term)}**")
            out.extend("\n".join(": " + line if i == 0 else "  " + line
                                 for i, line in enumerate(block.splitlines()))
                       for block in body[:1])
            out.extend(body[1:])
        return out

    def fields(self, node: Any, level: int) -> str:
        lines = []
        for field in node.children:
            name, body = field.children
            text = " ".join(self.blocks(body, level))
            lines.append(f"* **{self.inlines(name)}**: {text}")
        return "\n".join(lines)

    def table(self, node: Any) -> str:
        nodes = self.nodes
        rows: list[list[str]] = []
        header_rows = 0
        for part in node.findall(nodes.row):
            # Text is escaped already; a code span's bar still has to be.
            cells = [re.sub(r"(?<!\\)\|", r"\\|", " ".join(" ".join(self.blocks(entry, 0))
                                                             .split()))
                     for entry in part.children]
            rows.append(cells)
            if isinstance(part.parent, nodes.thead):
                header_rows += 1
        if not rows:
            return ""
        width = max(len(r) for r in rows)
        rows = [r + [""] * (width - len(r)) for r in rows]
        # CommonMark tables need exactly one header row; a table without one gets an
        # empty header, so its first data row is not shown as a heading.
        head = rows[0] if header_rows else [""] * width
        body = rows[1:] if header_rows else rows
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * width]
        lines += ["| " + " | ".join(r) + " |" for r in body]
        return "\n".join(lines)


def rst_to_markdown(text: str) -> str:
    """``text``, reStructuredText as docstrings write it, as CommonMark.

    Malformed markup never fails: docutils recovers, and whatever it cannot place is
    kept as plain text.
    """
    from docutils.core import publish_doctree

    _register_roles()
    document = publish_doctree(text, settings_overrides={
        "report_level": 5, "halt_level": 5, "warning_stream": False,
        "file_insertion_enabled": False, "raw_enabled": False,
        "doctitle_xform": False, "sectsubtitle_xform": False,
    })
    writer = _Writer()
    return "\n\n".join(block for block in writer.blocks(document, 0) if block.strip())
