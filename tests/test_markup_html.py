"""Rules as HTML (boardlab.markup.rst_to_html): reStructuredText becomes headings, lists,
code, tables and links the web pages can show, and nothing else. A rules text cannot
bring raw HTML, read a file, link to a script or leave a docutils system message in the
page, and plain text (an imported rule file's description, through text_to_rst) is
escaped, never read as markup. Every registered game's rules render without a warning."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

import boardlab
from boardlab.markup import (
    HTML_ID_PREFIX,
    rst_to_html,
    rst_to_html_report,
    text_to_rst,
)

SAMPLE = """Playing
=======

The pieces move as ``X1:1-2`` says, *spooky* and **strong**, with
:class:`~boardlab.core.game.Game`, `the default role`, and a
`link <https://example.org/rules>`_.

Moves
-----

* place a mark
* move a mark

#. first
#. second

Example::

    X1:1-2 O2:2-3

=====  ======
side   pieces
=====  ======
X      9
O      8
=====  ======
"""

#: Elements HTML writes without an end tag.
VOID = {"br", "hr", "img", "meta", "link", "input", "col", "wbr"}


class Tags(HTMLParser):
    """The tags of an HTML fragment, and whether each closes the one opened last."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.started: list[tuple[str, dict[str, str | None]]] = []
        self.open: list[str] = []
        self.unbalanced: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.started.append((tag, dict(attrs)))
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        if not self.open or self.open.pop() != tag:
            self.unbalanced.append(tag)

    def handle_data(self, data):
        self.text.append(data)


def parse(html: str) -> Tags:
    tags = Tags()
    tags.feed(html)
    tags.close()
    return tags


def test_headings_lists_code_tables_and_links():
    html = rst_to_html(SAMPLE)
    tags = parse(html)
    names = [tag for tag, _ in tags.started]
    assert tags.unbalanced == [] and tags.open == []
    # the first section is a section, not the document's title, and sits below an <h2>
    assert re.findall(r"<h(\d)>([^<]+)</h\1>", html) == [("3", "Playing"), ("4", "Moves")]
    assert "<code>X1:1-2</code>" in html
    assert "<code>Game</code>" in html and "<code>the default role</code>" in html
    assert "<em>spooky</em>" in html and "<strong>strong</strong>" in html
    assert '<a class="reference external" href="https://example.org/rules">link</a>' in html
    assert names.count("li") == 4 and "ul" in names and "ol" in names
    assert '<pre class="literal-block">X1:1-2 O2:2-3</pre>' in html
    assert "table" in names and names.count("tr") == 3
    # a fragment for a page: no document around it, no markup left over
    assert not {"html", "head", "body", "style", "script", "link"} & set(names)
    assert "``" not in html and "::" not in "".join(tags.text)
    # every id is the fragment's own, so none takes an id of the page (a section "Rules"
    # and the lobby's dialog#rules)
    ids = [attrs["id"] for _, attrs in tags.started if "id" in attrs]
    assert ids and all(i.startswith(HTML_ID_PREFIX) for i in ids)


def test_raw_html_is_refused():
    text = "Before.\n\n.. raw:: html\n\n   <script>alert('raw')</script><b>bold</b>\n\nAfter."
    html, problems = rst_to_html_report(text)
    assert html == "<p>Before.</p>\n<p>After.</p>"
    assert any('"raw" directive disabled' in p for p in problems)
    # nor as a role
    html = rst_to_html(".. role:: html(raw)\n   :format: html\n\nA :html:`<i>x</i>` role.")
    assert "<i>" not in html and "&lt;i&gt;" in html


def test_include_reads_no_file(tmp_path):
    secret = tmp_path / "secret.rst"
    secret.write_text("The password is swordfish-2718.\n", encoding="utf-8")
    for text in (f".. include:: {secret}\n", f".. include:: {secret}\n   :literal:\n",
                 f".. csv-table:: t\n   :file: {secret}\n",
                 ".. include:: /etc/passwd\n"):
        html, problems = rst_to_html_report("Rules.\n\n" + text)
        assert html == "<p>Rules.</p>", text
        assert "swordfish" not in html and "root:" not in html
        assert any("directive disabled" in p or "access deactivated" in p
                   for p in problems), problems


def test_a_docutils_conf_in_the_working_folder_changes_nothing(tmp_path, monkeypatch):
    (tmp_path / "docutils.conf").write_text("[general]\nraw_enabled: yes\n"
                                            "file_insertion_enabled: yes\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    html = rst_to_html(".. raw:: html\n\n   <b>from the working folder</b>\n")
    assert "<b>" not in html and "working folder" not in html


def test_no_system_message_reaches_the_html():
    text = ("Broken :nosuchrole:`x`, |nosub|, a footnote [#]_ and `an unfinished link\n\n"
            ".. nosuchdirective:: y\n\nTitle\n===\n\nEnd.")
    html, problems = rst_to_html_report(text)
    assert len(problems) >= 3
    assert all(re.match(r"rules:\d+: \((WARNING|ERROR|SEVERE)/[234]\) ", p) for p in problems)
    for leftover in ("system-message", "System Message", "problematic", "Docutils",
                     "nosuchdirective"):
        assert leftover not in html
    # what docutils could not read is shown as its text
    assert ":nosuchrole:`x`" in html and "|nosub|" in html and "End." in html
    assert parse(html).unbalanced == []


def test_links_keep_only_web_and_mail_schemes_and_images_go():
    text = ("`a <javascript:alert(1)>`_ `b <JavaScript:alert(2)>`_ `c <data:text/html,x>`_ "
            "`d <https://example.org>`_ `e <mailto:someone@example.org>`_ `f <#top>`_\n\n"
            ".. image:: https://tracker.example/pixel.png\n\n"
            "|pic| inline\n\n.. |pic| image:: https://tracker.example/inline.png\n   :alt: a pic")
    html = rst_to_html(text)
    hrefs = [attrs["href"] for tag, attrs in parse(html).started if tag == "a"]
    assert hrefs == ["https://example.org", "mailto:someone@example.org", "#top"]
    assert "javascript" not in html.lower() and "data:text" not in html
    assert "<img" not in html and "tracker.example" not in html
    assert "a pic inline" in html


def test_plain_text_is_escaped_never_read_as_markup():
    text = ("Chess <script>alert('zrf')</script>\n``not code`` & *not emphasis*\n\n"
            ".. raw:: html\n\n   <b>x</b>\n\nSee https://en.wikipedia.org/wiki/Banqi.")
    html = rst_to_html(text_to_rst(text))
    assert "<script" not in html
    assert "&lt;script&gt;alert('zrf')&lt;/script&gt;" in html
    assert "``not code`` &amp; *not emphasis*" in html and "<code>" not in html
    assert "<b>" not in html and ".. raw:: html" in html
    tags = parse(html)
    # the first paragraph's two lines, then three paragraphs, the last with its link
    assert [tag for tag, _ in tags.started] == ["div", "div", "div", "p", "p", "p", "a"]
    assert tags.started[-1][1]["href"] == "https://en.wikipedia.org/wiki/Banqi"
    assert "".join(tags.text).count("<script>") == 1  # shown to the reader as text


def test_a_link_in_plain_text_cannot_break_out_of_its_attribute():
    html = rst_to_html(text_to_rst('http://a.example/"onmouseover="alert(1) and '
                                   "http://b.example/<x>"))
    # an address followed by < is no link in reStructuredText: it stays text
    assert [attrs["href"] for tag, attrs in parse(html).started if tag == "a"] == [
        "http://a.example/"]
    assert "&quot;onmouseover=&quot;alert(1)" in html and "&lt;x&gt;" in html


@pytest.mark.parametrize("name", boardlab.names())
def test_every_registered_game_renders_without_a_warning(name):
    html, problems = rst_to_html_report(boardlab.load(name).rules)
    assert problems == ()
    tags = parse(html)
    assert tags.unbalanced == [] and tags.open == []
    assert "``" not in "".join(tags.text)
    assert not re.search(r":(class|func|meth|mod|attr):`", html)
    assert "<p>" in html
