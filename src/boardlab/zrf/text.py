"""A rule file's text: the encoding of its bytes, and its display strings as the rules show them.

Encoding. Zillions of Games ran on Windows and read a rule file in the system's ANSI code
page, so a file is UTF-8 only when its author saved it so; otherwise it is in the code
page of the author's Windows: cp1252 for Western European text, cp1251 for Russian (the
public collections hold both; ``01.Wolfs.zrf``'s title is Russian in cp1251). The two
code pages put their letters on the same bytes: 0xC0-0xFF are Cyrillic А-я in cp1251 and
accented Latin À-ÿ in cp1252 (cp1251 adds Ё, ё at 0xA8, 0xB8). What tells them apart is
how those bytes sit in words. Russian words are made of them alone (``\\xc2\\xee\\xeb\\xea\\xe8``
is "Волки"); in Western text an accented letter sits among ASCII letters ("Fuhyô",
"Müller") and a word of two or more accented letters with no ASCII letter is rare
(French "où" and "à" have one or none). :func:`decode` counts both kinds of word and
takes cp1251 when the Russian-looking ones are more, else cp1252; every byte decodes.

Display strings. A ZRF string has no escapes; the text Zillions shows from a title, a
description or a piece's help reads three characters its own way: a backslash ``\\`` is a
line break, two ``\\\\`` a paragraph break, and a backquote (`````) a double quote (a
string cannot hold ``"``). A line break in the string's source is a space: Zillions
reflows the text. :func:`display_text` turns a display string into plain text (lines
and blank-line paragraphs) and :func:`display_rst` into reStructuredText that shows
exactly those words (:func:`boardlab.markup.text_to_rst`), for the rules a game's
docstring holds.

>>> print(display_text("Pawn\\\\A Pawn moves\\n   one `step`.\\\\\\\\Kings: none."))
Pawn
A Pawn moves one "step".
<BLANKLINE>
Kings: none.
>>> print(display_rst("Object: *capture*\\\\\\\\1. Start"))
Object: \\*capture\\*
<BLANKLINE>
1\\. Start
"""

from __future__ import annotations

import re

from boardlab.markup import text_to_rst

#: A word of a Windows file: ASCII letters and the letters of 0xC0-0xFF with 0xA8, 0xB8
#: (Ё, ё in cp1251).
_WORD = re.compile(rb"[A-Za-z\xa8\xb8\xc0-\xff]+")
_ASCII_LETTER = re.compile(rb"[A-Za-z]")


def code_page(data: bytes) -> str:
    """The Windows code page ``data`` (not UTF-8) is most likely written in: ``cp1251``
    when more of its words are made only of letters above 0x7F (two or more of them, no
    ASCII letter: Russian) than mix such letters with ASCII ones (Western), else
    ``cp1252`` (see the module docstring).

    >>> code_page("; Волки и Козлёнок".encode("cp1251")), code_page("Fuhyô à où".encode("cp1252"))
    ('cp1251', 'cp1252')
    """
    russian = western = 0
    for word in _WORD.findall(data):
        if _ASCII_LETTER.search(word) is None:
            russian += len(word) >= 2
        elif len(_ASCII_LETTER.findall(word)) < len(word):
            western += 1
    return "cp1251" if russian > western else "cp1252"


def decode(data: bytes) -> str:
    """The text of a rule file: UTF-8 (a byte order mark dropped), else its Windows code
    page, cp1251 or cp1252 (:func:`code_page`). Never fails: a byte the code page leaves
    undefined becomes U+FFFD."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode(code_page(data), errors="replace")


def display_text(raw: str) -> str:
    """A ZRF display string as plain text: ``\\\\`` a blank line between paragraphs, ``\\``
    a line break, a backquote ``"``, every other run of spaces and source line breaks one
    space; no empty line or paragraph is kept."""
    paragraphs: list[list[str]] = [[]]
    for block in raw.replace("`", '"').split("\\\\"):
        for line in block.split("\\"):
            line = " ".join(line.split())
            if line:
                paragraphs[-1].append(line)
            elif paragraphs[-1]:
                # An empty line is a blank line on screen: a paragraph break.
                paragraphs.append([])
        if paragraphs[-1]:
            paragraphs.append([])
    return "\n\n".join("\n".join(lines) for lines in paragraphs if lines)


def display_line(raw: str) -> str:
    """A ZRF display string on one line (a title in a list or a heading): its breaks are
    spaces."""
    return " ".join(display_text(raw).split())


def display_rst(raw: str) -> str:
    """A ZRF display string as reStructuredText that shows exactly its words, paragraphs
    and line breaks (:func:`display_text`, then :func:`boardlab.markup.text_to_rst`):
    nothing in it is read as markup, http(s) addresses are links."""
    return text_to_rst(display_text(raw))
