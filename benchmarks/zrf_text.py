"""How a folder of rule files' own words show in ``boardlab rules`` (issue 27).

For every ``*.zrf`` under the folder (its default variant) that loads, the rules text
(the game's docstring) is rendered as ``boardlab rules --json`` and the web's rules
page render it (:func:`boardlab.markup.rst_to_markdown`, :func:`~boardlab.markup.rst_to_html`)
and counted:

* NUL: a NUL character in the Markdown or the HTML;
* definition list: docutils read a definition list (a ``: ...`` line in the Markdown);
* stray markup: anything docutils read but paragraphs, line blocks, text and links that
  show their own http(s) address (definition lists, block quotes, lists, emphasis,
  references, system messages...);
* words lost: the description's words (a backslash a space, a backquote ``"``) are not
  all shown, in order, in the Markdown as markdown-it reads it;
* mojibake: a title with three letters of À-ÿ in a row (cp1251 read as cp1252).

    python benchmarks/zrf_text.py FOLDER
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

from markdown_it import MarkdownIt

from boardlab.errors import BoardlabError
from boardlab.markup import rst_to_html, rst_to_markdown
from boardlab.zrf.game import load_game

EXPECTED = {"document", "paragraph", "line_block", "line", "#text", "reference"}


def shown_words(markdown: str) -> list[str]:
    """The words markdown-it (Rich's parser) shows of ``markdown``."""
    parts = []
    for token in MarkdownIt("commonmark").enable(["table", "strikethrough"]).parse(markdown):
        parts.extend(child.content if child.type in ("text", "code_inline") else " "
                     for child in token.children or ()
                     if child.type in ("text", "code_inline", "softbreak", "hardbreak"))
        parts.append(" ")
    return "".join(parts).split()


def tags(rst: str) -> Counter:
    from docutils.core import publish_doctree

    tree = publish_doctree(rst, settings_overrides={
        "report_level": 5, "halt_level": 5, "warning_stream": False,
        "file_insertion_enabled": False, "raw_enabled": False, "doctitle_xform": False})
    found = Counter(node.tagname for node in tree.findall())
    found.update("reference showing other text" for node in tree.findall()
                 if node.tagname == "reference" and node.astext() != node.get("refuri"))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    folder = parser.parse_args().folder
    files = sorted(folder.rglob("*.zrf"))
    found: dict[str, list[str]] = {k: [] for k in (
        "NUL", "definition list", "stray markup", "words lost", "mojibake")}
    kinds: Counter = Counter()
    loaded = 0
    for path in files:
        name = str(path.relative_to(folder))
        try:
            game = load_game(path, name=name)
        except BoardlabError:
            continue
        loaded += 1
        rules = game.rules
        markdown, html = rst_to_markdown(rules), rst_to_html(rules)
        seen = tags(rules)
        stray = {tag for tag in seen if tag not in EXPECTED}
        kinds.update(stray)
        words = game.spec.description.replace("\\", " ").replace("`", '"').split()
        shown = shown_words(markdown)
        if "\x00" in markdown or "\x00" in html:
            found["NUL"].append(name)
        if seen["definition_list"] or re.search(r"(?m)^: ", markdown):
            found["definition list"].append(name)
        if stray:
            found["stray markup"].append(name)
        if words and not any(shown[i:i + len(words)] == words
                             for i in range(len(shown) - len(words) + 1)):
            found["words lost"].append(name)
        if re.search(r"[À-ÿ]{3}", game.spec.title):
            found["mojibake"].append(name)
    print(f"{len(files)} files, {loaded} load")
    for what, names in found.items():
        print(f"{what}: {len(names)}" + (f"  ({', '.join(names)})" if names else ""))
    if kinds:
        print("stray markup, files per kind:", dict(kinds))


if __name__ == "__main__":
    main()
