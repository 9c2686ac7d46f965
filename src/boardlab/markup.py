"""Rules and other docstrings, written in reStructuredText, as Markdown and as HTML.

A game's rules are its module docstring (:attr:`boardlab.core.game.Game.rules`), written
in the reStructuredText of Python docstrings, with Sphinx's cross-reference roles
(``:class:`~boardlab.core.turn.Rules```). The terminal (Rich) shows Markdown, so the
text is parsed by docutils, the reference parser of reStructuredText, and its document
tree is written out as CommonMark: sections become headings, inline literals code spans,
literal blocks and doctests fenced code, simple and grid tables pipe tables, Sphinx roles
code spans showing the name as Sphinx would.

>>> print(rst_to_markdown("Rules\\n-----\\nSee :class:`~boardlab.core.game.Game`, ``x``."))
## Rules
<BLANKLINE>
See `Game`, `x`.

The web pages show HTML: :func:`rst_to_html` writes the same document tree with docutils'
HTML5 writer as a fragment to put inside a page, made safe for text that is not trusted
(see :func:`rst_to_html_report`).

Plain text that is to be part of a reStructuredText document (an imported rule file's
own words) goes through :func:`text_to_rst`, which escapes whatever docutils would read
as markup, so that both renderings show exactly its words, paragraphs and line breaks.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache
from typing import Any

#: Sphinx's Python-domain roles (and a few standard ones) that docstrings use; each shows
#: its text as code, the way Sphinx prints a cross-reference.
SPHINX_ROLES = ("mod", "func", "data", "const", "class", "meth", "attr", "exc", "obj",
                "ref", "doc", "term", "envvar", "option", "file", "program", "samp",
                "py:mod", "py:func", "py:data", "py:const", "py:class", "py:meth",
                "py:attr", "py:exc", "py:obj")

# Strikethrough (~~) is on in Rich's parser, and & starts an entity (&amp;).
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&])")
#: What makes a line of text something else in Markdown at its start: a heading (#), a
#: list item (-, +, 1. or 1)), a setext underline (=, -), a fence (~~~).
#: (The match ends where a backslash goes.)
_MARKDOWN_LINE_START = re.compile(r"^(?=[#+\-=~])|^\d{1,9}(?=[.)])")


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


def _line(text: str) -> str:
    """A line of Markdown (already escaped) that stays text where a line starts: a
    paragraph or a line of a line block that begins with ``#``, ``-`` or ``1.`` would
    otherwise be a heading or a list item."""
    found = _MARKDOWN_LINE_START.match(text)
    if found is None:
        return text
    return text[:found.end()] + "\\" + text[found.end():]


def _destination(uri: str) -> str:
    """A link's target as a Markdown link destination: a bracket, space or backslash
    in it would end or change it."""
    return re.sub(r"([\\()<>])", r"\\\1", uri).replace(" ", "%20")


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
            # astext(): docutils keeps a backslash escape as a NUL before the character.
            return _escape(" ".join(node.astext().split("\n")))
        if isinstance(node, nodes.literal | nodes.title_reference):
            return _code_span(node.astext())
        if isinstance(node, nodes.emphasis):
            return f"*{self.inlines(node)}*"
        if isinstance(node, nodes.strong):
            return f"**{self.inlines(node)}**"
        if isinstance(node, nodes.reference):
            text = self.inlines(node)
            uri = node.get("refuri")
            return f"[{text}]({_destination(uri)})" if uri else text
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
            return [_line(self.inlines(node))]
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
            return ["  \n".join(_line(self.inlines(line)) for line in node.children)]
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
        text = self.inlines(node) if isinstance(node, nodes.Element) else _escape(node.astext())
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


# --- HTML -----------------------------------------------------------------------------

#: The heading level of a rules text's top sections in HTML (``<h3>``): below the
#: ``<h2>`` of the dialog or page section that holds the rules.
HTML_HEADING_LEVEL = 3
#: The start of every id docutils writes (sections, footnotes), so that none collides
#: with an id of the page the fragment is put in (a section "Rules" and the lobby's
#: ``<dialog id="rules">``).
HTML_ID_PREFIX = "rst-"
#: The schemes a link may have in HTML; a link with any other (``javascript:``,
#: ``data:``) shows its text only. Links without a scheme (relative, ``#...``) stay.
LINK_SCHEMES = ("http", "https", "mailto")

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
#: An http(s) address in plain text (up to a space, a quote, an angle bracket, a
#: backquote or a backslash).
_URL = re.compile(r"https?://[^\s<>\"'`\\]+")


def _safe_link(uri: str) -> bool:
    """Whether a link target may be written into a page: no whitespace or control
    characters (browsers drop them, so ``java\\tscript:`` would still run), and a
    scheme of :data:`LINK_SCHEMES` or none.

    >>> [_safe_link(u) for u in ("https://a.org/x", "#rules", "javascript:alert(1)",
    ...                          "java\\tscript:x", "x.html")]
    [True, True, False, False, True]
    """
    if any(ch <= " " or ch == "\x7f" for ch in uri):
        return False
    scheme = _SCHEME.match(uri)
    return scheme is None or scheme.group(1).lower() in LINK_SCHEMES


@cache
def _html_parts() -> tuple[Any, dict[str, Any]]:
    """The reader class and settings of :func:`rst_to_html_report` (docutils is imported
    only when HTML is first asked for)."""
    from docutils import nodes
    from docutils.readers.standalone import Reader
    from docutils.transforms import Transform

    class Sanitize(Transform):
        """After every other transform (docutils' own message filter included): keep
        only what a page may show. Markup docutils could not read (``problematic``)
        becomes its plain text, images go (they would load from anywhere), links to a
        scheme outside :data:`LINK_SCHEMES` lose their target, and inline literals are
        written as ``<code>``, as are title references (```text```, which docstrings
        mean as code)."""

        default_priority = 990

        def apply(self) -> None:
            document = self.document
            for node in list(document.findall(nodes.system_message)):
                node.parent.remove(node)
            for node in list(document.findall(nodes.problematic)):
                node.replace_self(nodes.Text(node.astext()))
            for node in list(document.findall(nodes.image)):
                alt = node.get("alt", "")
                if alt:
                    node.replace_self(nodes.Text(alt))
                else:
                    node.parent.remove(node)
            for node in list(document.findall(nodes.reference)):
                uri = node.get("refuri")
                if uri is not None and not _safe_link(uri):
                    node.replace_self(node.children or [nodes.Text(node.astext())])
            for node in list(document.findall(nodes.title_reference)):
                # `text` in a docstring means code (Sphinx's default role), not a title.
                node.replace_self(nodes.literal(node.rawsource, node.astext()))
            for node in document.findall(nodes.literal):
                # The HTML5 writer writes a literal of class "code" as <code>, other
                # literals as <span class="docutils literal">.
                if "code" not in node["classes"]:
                    node["classes"].append("code")

    class RulesReader(Reader):
        """The standalone reader, which records every message of level warning and
        above in ``problems`` and sanitizes the tree last."""

        def __init__(self) -> None:
            super().__init__()
            self.problems: list[str] = []

        def new_document(self) -> Any:
            document = super().new_document()
            document.reporter.attach_observer(self._record)
            return document

        def _record(self, message: Any) -> None:
            if message["level"] >= 2:
                # The first paragraph says it: "rules:12: (WARNING/2) ...".
                self.problems.append(" ".join(message.astext().split("\n\n")[0].split()))

        def get_transforms(self) -> list[Any]:
            return [*super().get_transforms(), Sanitize]

    settings = {
        # Nothing reaches the output or a stream: messages are recorded by the reader,
        # and docutils' filter drops every system message from the tree.
        "report_level": 5, "halt_level": 5, "warning_stream": False,
        # A failure inside docutils raises (by default docutils would exit the process).
        "traceback": True,
        # Text is data: no raw HTML, no file read or inserted (include, csv-table's
        # :file: and :url:), no docutils.conf of the working folder.
        "raw_enabled": False, "file_insertion_enabled": False, "_disable_config": True,
        # Sections stay sections (not a document title), field lists stay field lists.
        "doctitle_xform": False, "sectsubtitle_xform": False, "docinfo_xform": False,
        "initial_header_level": HTML_HEADING_LEVEL, "id_prefix": HTML_ID_PREFIX,
        # Only the fragment is used: no stylesheet to read from docutils' folder.
        "embed_stylesheet": False, "math_output": "HTML",
    }
    return RulesReader, settings


@lru_cache(maxsize=128)
def rst_to_html_report(text: str) -> tuple[str, tuple[str, ...]]:
    """``text``, reStructuredText, as an HTML fragment to put inside a page, and the
    warnings and errors docutils reported reading it (``"rules:LINE: (LEVEL) ..."``).

    Safe for text that is not trusted: the ``raw`` directive is off, nothing is read from
    a file or the network (``include``, ``csv-table :file:``), no docutils system message
    is written into the HTML, images are dropped and links keep only the schemes of
    :data:`LINK_SCHEMES`. Only the body is written (no ``<html>``, no stylesheet), top
    sections as ``<h3>`` (:data:`HTML_HEADING_LEVEL`), every id starting with
    :data:`HTML_ID_PREFIX`. Sphinx's roles show as code, as in :func:`rst_to_markdown`.

    >>> html, problems = rst_to_html_report(".. raw:: html\\n\\n   <b>bold</b>\\n\\nText.")
    >>> html
    '<p>Text.</p>'
    >>> problems
    ('rules:1: (WARNING/2) "raw" directive disabled.',)
    """
    from docutils.core import publish_parts

    _register_roles()
    reader_class, settings = _html_parts()
    reader = reader_class()
    parts = publish_parts(text, source_path="rules", reader=reader, writer="html5",
                          settings_overrides=settings)
    return parts["fragment"].strip(), tuple(reader.problems)


def rst_to_html(text: str) -> str:
    """``text``, reStructuredText, as a safe HTML fragment (see
    :func:`rst_to_html_report`, whose warnings it leaves out). Malformed markup never
    fails: what docutils cannot read is shown as the text it is.

    >>> print(rst_to_html("Moves\\n-----\\n\\n* ``X1:1-2``: a *spooky* pair"))
    <section id="rst-moves">
    <h3>Moves</h3>
    <ul class="simple">
    <li><p><code>X1:1-2</code>: a <em>spooky</em> pair</p></li>
    </ul>
    </section>
    """
    return rst_to_html_report(text)[0]


#: A character reStructuredText may read as markup anywhere in a line: a backslash, the
#: inline markup of emphasis (*), references (_), interpreted text (`), substitutions
#: (|), an e-mail address (@), and a colon that ends a role, opens a field or a URI
#: (followed by a character) or makes a literal block marker (::).
_RST_INLINE = re.compile(r"[\\*_`|@]|:(?=\S)|(?<=:):")
#: A line whose first word ends ``.`` or ``)`` could be a list item (``1.``, ``a)``,
#: ``IV.``); the match ends before that character.
_RST_ENUMERATOR = re.compile(r"\w+(?=[.)](?: |$))")
#: Where an http(s) address may start a reference: where docutils starts inline markup.
_URL_BEFORE = frozenset(" (\"'[{<")
#: What may follow a reference (docutils' rule for the end of inline markup).
_URL_AFTER = frozenset(" .,;:!?)]}\"'>")
_BRACKETS = {")": "(", "]": "[", "}": "{"}


def _url_end(url: str) -> str:
    """``url`` without the sentence's punctuation after it: a full stop, a comma, a
    closing bracket that has no opening one in the address."""
    while url and url[-1] in ".,;:!?)]}":
        last = url[-1]
        if last in _BRACKETS and url.count(last) <= url.count(_BRACKETS[last]):
            break
        url = url[:-1]
    return url


def _rst_text(text: str) -> str:
    return _RST_INLINE.sub(lambda found: "\\" + found.group(0), text)


def _rst_line(line: str) -> str:
    """One line of plain text (no line break, spaces collapsed) as reStructuredText."""
    out: list[str] = []
    at = 0
    for found in _URL.finditer(line):
        url = _url_end(found.group(0))
        end = found.start() + len(url)
        if (url.endswith("//") or (found.start() and line[found.start() - 1] not in _URL_BEFORE)
                or (end < len(line) and line[end] not in _URL_AFTER)):
            continue
        out.append(_rst_text(line[at:found.start()]))
        # An anonymous reference showing the address; a target ending in _ would name
        # another reference.
        target = url[:-1] + "\\_" if url.endswith("_") else url
        out.append(f"`{url} <{target}>`__")
        at = end
    out.append(_rst_text(line[at:]))
    text = "".join(out)
    # What a line starts with may make it a list, a table, a comment, a field, a
    # transition, a doctest or a line block: a first character that is not a letter or
    # a digit is escaped (a reference is markup meant), and so is an enumerator's end.
    if text[:1] not in ("\\", "`") and not text[:1].isalnum():
        return "\\" + text
    found = _RST_ENUMERATOR.match(text)
    if found:
        return text[:found.end()] + "\\" + text[found.end():]
    return text


def text_to_rst(text: str) -> str:
    """Plain text as reStructuredText that docutils reads back as that text and nothing
    else: paragraphs at blank lines, each line break kept (a paragraph of several lines
    becomes a line block), spaces within a line collapsed, control characters dropped,
    every character that could be markup escaped, and http(s) addresses made links that
    show the address. What the text says never becomes emphasis, a list, a definition
    list, a role, a substitution, a table or a link by accident.

    >>> print(text_to_rst("1. *Not* a list: a_b | c\\nsee https://a.org/x_.\\n\\nNext"))
    | 1\\. \\*Not\\* a list: a\\_b \\| c
    | see `https://a.org/x_ <https://a.org/x\\_>`__.
    <BLANKLINE>
    Next
    >>> print(rst_to_html(text_to_rst("- not *em*\\n\\n:field: x::")))
    <p>- not *em*</p>
    <p>:field: x::</p>
    """
    blocks: list[str] = []
    paragraph: list[str] = []
    for raw in [*text.splitlines(), ""]:
        line = " ".join("".join(ch for ch in raw if ch.isspace()
                                or unicodedata.category(ch) != "Cc").split())
        if line:
            paragraph.append(_rst_line(line))
        elif paragraph:
            # A paragraph of backslashes alone (escaped, four or more) would be a
            # transition; as a line block it is text.
            alone = len(paragraph) == 1 and paragraph[0].strip("\\")
            blocks.append(paragraph[0] if alone
                          else "\n".join("| " + one for one in paragraph))
            paragraph = []
    return "\n\n".join(blocks)
