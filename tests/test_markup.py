"""Rules in reStructuredText become Markdown that says the same words: checked against a
second parser (markdown-it, which Rich renders with) on every registered game."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from markdown_it import MarkdownIt

import boardlab
from boardlab.markup import _register_roles, rst_to_markdown

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
