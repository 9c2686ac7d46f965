"""Rules in reStructuredText become Markdown that says the same words: checked against a
second parser (markdown-it, which Rich renders with) on every registered game. Plain text
made reStructuredText (text_to_rst) is read back by docutils as that text, and shows the
same words in Markdown and HTML."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from html.parser import HTMLParser

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

import boardlab
from boardlab.markup import _register_roles, rst_to_html, rst_to_markdown, text_to_rst

GAMES = boardlab.names()


def markdown_words(markdown: str) -> Counter:
    """The words a reader sees in ``markdown``, as markdown-it parses it."""
    return Counter(markdown_text(markdown).split())


def markdown_text(markdown: str) -> str:
    """The text a reader sees in ``markdown``, as markdown-it parses it the way Rich does
    (CommonMark with tables and strikethrough): markup characters that markdown-it
    reads as formatting are gone."""
    parts: list[str] = []
    for token in MarkdownIt("commonmark").enable(["table", "strikethrough"]).parse(markdown):
        if token.type in ("fence", "code_block"):
            parts.append(token.content)
        pieces = [child.content if child.type in ("text", "code_inline") else " "
                  for child in token.children or ()
                  if child.type in ("text", "code_inline", "softbreak", "hardbreak")]
        parts.append("".join(pieces))
    return " ".join(part for part in parts if part)


def rst_words(text: str) -> Counter:
    """The words of ``text`` as docutils reads it."""
    from docutils import nodes
    from docutils.core import publish_doctree

    _register_roles()
    tree = publish_doctree(text, settings_overrides={"report_level": 5,
                                                     "doctitle_xform": False})
    for message in list(tree.findall(nodes.system_message)):
        message.parent.remove(message)
    return Counter(tree.astext().split())


def markup_problems(text: str) -> list[str]:
    """What docutils reports about ``text`` (a short underline, a broken list...)."""
    from docutils import nodes
    from docutils.core import publish_doctree

    _register_roles()
    tree = publish_doctree(text, settings_overrides={"report_level": 5,
                                                     "doctitle_xform": False})
    return [message.astext() for message in tree.findall(nodes.system_message)
            if message["level"] >= 2]


@pytest.mark.parametrize("name", GAMES)
def test_rules_are_well_formed(name):
    assert markup_problems(boardlab.load(name).rules) == []


@pytest.mark.parametrize("name", GAMES)
def test_rules_keep_every_word_and_lose_the_markup(name):
    rules = boardlab.load(name).rules
    markdown = rst_to_markdown(rules)
    assert markdown_words(markdown) == rst_words(rules)
    assert "``" not in markdown.replace("```", "")
    assert not re.search(r":(class|func|meth|mod|attr):`", markdown)
    assert not re.search(r"^[=~\-^]{3,}$", markdown.replace("|---", ""), re.M)


def test_constructs():
    text = """Title
=====

Intro with ``code``, *emphasis*, **strong**, :class:`~a.b.Shown`, :meth:`Label <a.b>`
and a `link <https://example.org>`_ and 2 * 3 * 4.

* item one
* item two

  - nested

A block::

    x = 1

=====  =====
head   other
=====  =====
a|b    c
=====  =====
"""
    markdown = rst_to_markdown(text)
    assert markdown.splitlines()[0] == "## Title"
    assert ("Intro with `code`, *emphasis*, **strong**, `Shown`, `Label` and a "
            "[link](https://example.org) and 2 \\* 3 \\* 4.") in markdown
    assert "* item one\n\n* item two\n\n  * nested" in markdown
    assert "A block:\n\n```\nx = 1\n```" in markdown
    assert "| head | other |\n|---|---|\n| a\\|b | c |" in markdown


def test_escapes_reach_markdown_as_the_characters_they_escape():
    # docutils keeps an escape as a NUL before the character; the text is what shows
    markdown = rst_to_markdown(r"a \*b\* c\\d \:x\: \|y\|")
    assert "\x00" not in markdown
    assert markdown_text(markdown) == r"a *b* c\d :x: |y|"


@pytest.mark.parametrize("line", ["# not a heading", "- not an item", "+ not an item",
                                  "1. not an item", "12) not an item", "=====",
                                  "~~~ not a fence", "~~not struck~~", "&amp; &lt;"])
def test_a_paragraph_that_looks_like_markdown_stays_text(line):
    rst = "\\" + line  # one reStructuredText paragraph of exactly this text
    assert markdown_text(rst_to_markdown(rst)) == line
    block = rst_to_markdown(f"| first\n| {rst}")  # as a line of a line block
    assert markdown_text(block).split() == ["first", *line.split()]


def test_a_link_target_with_brackets_stays_one_link():
    markdown = rst_to_markdown("`x <https://a.org/x(y>`__ `z <https://a.org/(z)>`__")
    hrefs = [token.attrGet("href") for block in MarkdownIt("commonmark").parse(markdown)
             for token in block.children or () if token.type == "link_open"]
    assert hrefs == ["https://a.org/x(y", "https://a.org/(z)"]


# --- plain text as reStructuredText -------------------------------------------------------------
def read_back(rst: str) -> list[list[str]]:
    """The paragraphs of ``rst`` as docutils reads it, each as its lines; anything but
    paragraphs, line blocks, text and links that show their own http(s) address fails."""
    from docutils import nodes
    from docutils.core import publish_doctree

    tree = publish_doctree(rst, settings_overrides={"report_level": 5, "halt_level": 5,
                                                    "doctitle_xform": False})
    blocks = []
    for block in tree.children:
        if isinstance(block, nodes.paragraph):
            lines = [block]
        else:
            assert isinstance(block, nodes.line_block), f"{block.tagname} from {rst!r}"
            lines = block.children
        for line in lines:
            assert isinstance(line, nodes.paragraph | nodes.line), line.tagname
            for child in line.children:
                if isinstance(child, nodes.reference):
                    assert child["refuri"] == child.astext()
                    assert child.astext().startswith(("http://", "https://"))
                else:
                    assert isinstance(child, nodes.Text), f"{child.tagname} from {rst!r}"
        blocks.append([line.astext() for line in lines])
    return blocks


def paragraphs(text: str) -> list[list[str]]:
    """``text``'s paragraphs (at blank lines), each as its lines with spaces collapsed:
    what text_to_rst promises to keep."""
    out: list[list[str]] = [[]]
    for line in text.splitlines():
        line = " ".join("".join(ch for ch in line
                                if unicodedata.category(ch) != "Cc" or ch.isspace()).split())
        if line:
            out[-1].append(line)
        elif out[-1]:
            out.append([])
    return [p for p in out if p]


class _Text(HTMLParser):
    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.feed(html)

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def html_text(html: str) -> str:
    """The text a browser shows of ``html`` (tags dropped, entities read)."""
    return "".join(_Text(html).parts)


#: Pieces of text that docutils or Markdown could take for markup, and whitespace.
MARKUP = st.sampled_from([
    "*", "**", "_", "__", "`", "``", "|", ":", "::", "-", "--", "+", "#", ".", "..", "1.",
    "3)", "a)", "(i)", "IV.", "A.", ">", ">>>", "=", "===", "~", "~~", "&", "&amp;", "@",
    "x@y.org", "[1]_", "[#]_", ":role:", ":x: ", "`t`_", "_`t`", "|s|", ".. ", "__ ",
    "https://a.org/x_", "http://b.example/(c)", "(https://c.org/d).", "about:blank",
    "mailto:a@b.c", "<", ">", "\\", "<b>", "•", "+--+", "\t", " ", "   ", "\n", "\n\n",
    "\n  ", "\n- ", "\n1. ", "\n:", "\u2028", "\xa0"])
PRINTABLE = st.text(st.characters(exclude_categories=("Cc", "Cs")), max_size=6)
TEXT = st.lists(MARKUP | PRINTABLE, max_size=40).map("".join)


@settings(deadline=None)  # docutils takes its time on a shared machine
@given(TEXT)
@example("A. Einstein said so")
@example("term\n  definition, indented\n\n    a block quote")
@example("Note::\n\n  literal?")
@example(":Field: value\n-a  option\n\n.. comment")
def test_plain_text_reads_back_as_itself(text):
    rst = text_to_rst(text)
    assert read_back(rst) == paragraphs(text)


@settings(deadline=None)  # docutils takes its time on a shared machine
@given(TEXT)
@example("- a\n1. b\n# c\n=\n*d* _e_ ~~f~~ `g` &amp;")
def test_plain_text_shows_its_words_in_markdown_and_html(text):
    words = [word for p in paragraphs(text) for line in p for word in line.split()]
    rst = text_to_rst(text)
    markdown = rst_to_markdown(rst)
    html = rst_to_html(rst)
    assert "\x00" not in markdown and "\x00" not in html
    assert markdown_text(markdown).split() == words
    assert html_text(html).split() == words


def test_line_breaks_and_paragraphs_are_kept_in_markdown_and_html():
    rst = text_to_rst("One\nTwo\n\nThree")
    assert rst == "| One\n| Two\n\nThree"
    assert rst_to_markdown(rst) == "One  \nTwo\n\nThree"
    html = rst_to_html(rst)
    assert html.count('<div class="line">') == 2 and html.endswith("<p>Three</p>")


def test_addresses_are_links_showing_themselves():
    rst = text_to_rst("See https://en.wikipedia.org/wiki/Go_(game), or "
                      "(https://a.org/x_). Not xhttps://b.org or mailto:c@d.org.")
    html = rst_to_html(rst)
    assert re.findall(r'href="([^"]*)"', html) == ["https://en.wikipedia.org/wiki/Go_(game)",
                                                   "https://a.org/x_"]
    assert html_text(html) == ("See https://en.wikipedia.org/wiki/Go_(game), or "
                               "(https://a.org/x_). Not xhttps://b.org or mailto:c@d.org.")
