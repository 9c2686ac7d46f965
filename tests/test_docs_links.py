"""Links of the repository's Markdown stay inside the repository and resolve.

README.md and every Markdown file under docs/ may link only to files of the repository
that exist (relative links, with an anchor that names a heading of the target when the
target is Markdown) and to the few web addresses of :data:`ALLOWED_URLS`. No file under
src/, docs/ or README.md may point at ``../shared`` or another folder outside the
repository that a clone does not have. The docs site's own cross-references are checked
by its build (``python -m sphinx -W -n``, see docs/README.md); this test needs no Sphinx.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Web addresses a page may link to; everything else must be a file of the repository.
ALLOWED_URLS: frozenset[str] = frozenset()
#: Text that names files outside the repository.
OUTSIDE = re.compile(r"\.\./shared\b|/work/shared\b")
#: Files still naming ../shared that are being changed in another branch (the CLI); an
#: entry can go once its file no longer names it, and the test then keeps it so.
_FENCE = re.compile(r"^(```|~~~)")
_CODE = re.compile(r"(`+).*?\1")
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^>\s]+)>")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


def markdown_files() -> list[Path]:
    """README.md and every Markdown file of docs/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def prose_lines(text: str) -> Iterator[tuple[int, str]]:
    """The lines of a Markdown text outside fenced code, inline code removed."""
    fenced = False
    for number, line in enumerate(text.splitlines(), start=1):
        if _FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if not fenced:
            yield number, _CODE.sub("", line)


def links(text: str) -> Iterator[tuple[int, str]]:
    """Every link target of a Markdown text, with its line number."""
    for number, line in prose_lines(text):
        for match in _LINK.finditer(line):
            yield number, match.group(1)
        for match in _AUTOLINK.finditer(line):
            yield number, match.group(1)
        match = _DEFINITION.match(line)
        if match:
            yield number, match.group(1)


def slug(heading: str) -> str:
    """The anchor GitHub (and MyST's heading anchors) give a heading."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings."""
    found: set[str] = set()
    for _, line in prose_lines(path.read_text(encoding="utf-8")):
        match = _HEADING.match(line)
        if match:
            found.add(slug(match.group(2)))
    return found


def problems(path: Path, root: Path = ROOT) -> list[str]:
    """What is wrong with the links of one Markdown file: one line per bad link."""
    out = []
    for number, target in links(path.read_text(encoding="utf-8")):
        where = f"{path.relative_to(root)}:{number}: {target}"
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
            if target not in ALLOWED_URLS:
                out.append(f"{where}: a link outside the repository")
            continue
        name, _, anchor = target.partition("#")
        file = (path.parent / name).resolve() if name else path
        if not file.is_relative_to(root):
            out.append(f"{where}: outside the repository")
        elif not file.exists():
            out.append(f"{where}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            out.append(f"{where}: no heading with anchor #{anchor}")
    return out


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_markdown_links_resolve_inside_the_repository(path):
    assert problems(path) == []


def test_the_checker_reports_broken_links(tmp_path):
    (tmp_path / "there.md").write_text("# A title\n\n## Second part\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "[fine](there.md) and [fine too](there.md#second-part)\n"
        "[missing](nowhere.md) [bad anchor](there.md#third-part)\n"
        "[out](../../outside.md) ![web](https://example.org/a.png)\n"
        "```\n[in a code block](ignored.md)\n```\n"
        "`[in code](ignored.md)` [self](#nothing-here)\n", encoding="utf-8")
    found = problems(page, tmp_path)
    assert [line.split(": ", 1)[0].rsplit(":", 1)[1] for line in found] == \
        ["2", "2", "3", "3", "7"]
    assert "no such file" in found[0] and "#third-part" in found[1]
    assert "outside the repository" in found[2] and "outside the repository" in found[3]


def text_files() -> Iterator[Path]:
    """README.md and the text files of src/ and docs/, skipping build products."""
    yield ROOT / "README.md"
    for folder in ("src", "docs"):
        for path in sorted((ROOT / folder).rglob("*")):
            parts = set(path.relative_to(ROOT).parts)
            if path.is_dir() or "__pycache__" in parts or \
                    any(part.endswith(".egg-info") for part in parts):
                continue
            if path.suffix in (".png", ".jpg", ".gif", ".ico", ".woff", ".woff2", ".pyc"):
                continue
            yield path


def test_nothing_points_outside_the_repository():
    found = []
    for path in text_files():
        name = path.relative_to(ROOT).as_posix()
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        mentions = [number for number, line in enumerate(text.splitlines(), start=1)
                    if OUTSIDE.search(line)]
        if mentions:
            found.append(f"{name}: lines {', '.join(map(str, mentions))}")
    assert found == []
