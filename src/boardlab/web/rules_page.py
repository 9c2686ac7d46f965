"""A game's rules page, ``GET /games/{name}/rules``: its title, players, rules (as HTML),
options and sources, with a link back to the lobby and one that sets up a match of it.

``name`` is a registered game's name or an imported game's id (``zrf:chess/chess``,
``zrf:chess/chess@2``; see :mod:`boardlab.web.library`); an unknown game is the API's
JSON 404, as for an unknown Triplex pack. The page is written by the server from the
template ``static/rules.html``: every value from the game is escaped, the rules are the
HTML of :func:`boardlab.markup.rst_to_html` (raw HTML and file insertion disabled; an
imported game's rules hold its file's words escaped, never read as markup). Its
labels carry ``data-i18n`` keys, so ``static/js/rules.js`` shows them in the reader's
language. The policy of the page is computed from the template with its slots empty,
so nothing a game says can ever be allowed to run.
"""

from __future__ import annotations

import re
from functools import cache
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from boardlab.web.library import is_imported
from boardlab.web.security import page_policy
from boardlab.web.views import game_json

TEMPLATE = Path(__file__).with_name("static") / "rules.html"
#: The slots of the template; each is filled with escaped text or HTML the server made.
SLOTS = ("TITLE", "HEADING", "SUBTITLE", "NAME", "PLAY", "PLAYERS", "RULES", "OPTIONS", "SOURCE")
_SLOT = re.compile(r"\{\{(" + "|".join(SLOTS) + r")\}\}")

#: How each option type is named to a reader (phrase key, English).
TYPE_NAMES = {"int": ("rulesPageTypeInt", "whole number"),
              "float": ("rulesPageTypeFloat", "number"),
              "str": ("rulesPageTypeStr", "text"),
              "bool": ("rulesPageTypeBool", "yes or no")}

router = APIRouter(include_in_schema=False)


def _phrase(key: str, english: str, tag: str = "span", attributes: str = "") -> str:
    """An element whose text is the phrase ``key`` (English here; i18n.js translates)."""
    return f'<{tag}{attributes} data-i18n="{key}">{escape(english)}</{tag}>'


def _named(text: str, key: str | None, tag: str = "span", attributes: str = "") -> str:
    """``text`` as the server names it, marked with the phrase ``key`` that translates it
    (``game.NAME``, ``option.GAME.OPTION``...; see static/js/i18n.js): rules.js shows the
    phrase where the table has one and leaves the text where it has none. No key (an
    imported game) leaves the text as it is."""
    marked = f' data-phrase="{escape(key)}"' if key else ""
    return f"<{tag}{attributes}{marked}>{escape(text)}</{tag}>"


def _value(value: Any) -> str:
    """An option value as the page shows it: yes/no, an empty text said so, else code."""
    if isinstance(value, bool):
        return _phrase("rulesPageYes", "yes") if value else _phrase("rulesPageNo", "no")
    if value == "" or value is None:
        return _phrase("rulesPageEmpty", "(empty)", attributes=' class="muted"')
    return f"<code>{escape(str(value))}</code>"


def _range(option: dict[str, Any]) -> str | None:
    low, high = option.get("minimum"), option.get("maximum")
    if low is not None and high is not None:
        return f"{_value(low)} – {_value(high)}"
    if low is not None:
        return f"≥ {_value(low)}"
    if high is not None:
        return f"≤ {_value(high)}"
    return None


def options_html(options: list[dict[str, Any]], game: str | None = None) -> str:
    """The options of a game (as :meth:`Option.describe <boardlab.core.game.Option>`
    gives them) as a list: name, type, default, range or choices, and help; with the
    registered ``game``'s name, its names and help are marked for translation.

    >>> print(options_html([]))
    <p class="muted" data-i18n="rulesPageNoOptions">This game has no options.</p>
    >>> html = options_html([{"name": "rows", "type": "int", "default": 6,
    ...                       "help": "rows <top>", "minimum": 4, "maximum": 26}])
    >>> "<code>4</code> – <code>26</code>" in html, "rows &lt;top&gt;" in html
    (True, True)
    """
    if not options:
        return _phrase("rulesPageNoOptions", "This game has no options.", "p",
                       ' class="muted"')
    items = []
    for option in options:
        name = str(option["name"])
        kind = str(option.get("type", ""))
        type_key = TYPE_NAMES.get(kind)
        shown_type = _phrase(*type_key) if type_key else escape(kind)
        rows = [(_phrase("rulesPageDefault", "default", "dt"),
                 _value(option.get("default")))]
        if option.get("choices") is not None:
            rows.append((_phrase("rulesPageChoices", "choices", "dt"),
                         ", ".join(_choice(c, game and f"choice.{game}.{name}.{c}")
                                   for c in option["choices"])))
        bounds = _range(option)
        if bounds is not None:
            rows.append((_phrase("rulesPageRange", "range", "dt"), bounds))
        facts = "".join(f"{term}<dd>{value}</dd>" for term, value in rows)
        help_text = option.get("help") or ""
        helped = _named(help_text, game and f"help.{game}.{name}", "p",
                        ' class="option-help"') if help_text else ""
        label = _named(name, game and f"option.{game}.{name}", attributes=' class="option-label"')
        items.append(f'<li data-option="{escape(name)}"><span class="option-name">'
                     f'{label}</span><span class="option-type">{shown_type}</span>'
                     f"<dl>{facts}</dl>{helped}</li>")
    return '<ul class="option-list">\n' + "\n".join(items) + "\n</ul>"


def _choice(value: Any, key: str | None) -> str:
    """A choice of an option: its value as code, and a place for its label, which
    rules.js fills where the phrase ``key`` says more than the value (a Russian label,
    "Belgian daisy" for ``belgian-daisy``)."""
    if value == "" or value is None or not key:
        return _value(value)
    return (f'<code>{escape(str(value))}</code><span class="choice-label" '
            f'data-choice="{escape(key)}" hidden></span>')


def source_html(data: dict[str, Any]) -> str:
    """Where a game comes from: its ``source``, and for an imported game its rule file
    and variant."""
    source = data.get("source") or ""
    out = [f"<p>{escape(source)}</p>" if source else
           _phrase("rulesPageNoSource", "No source is given.", "p", ' class="muted"')]
    imported = data.get("imported")
    if imported:
        facts = [(_phrase("rulesPageFile", "rule file", "dt"),
                  f"<code>{escape(str(imported['file']))}</code>")]
        variants = imported.get("variants") or []
        if len(variants) > 1:
            number = imported.get("variant")
            title = next((v["title"] for v in variants if v["variant"] == number), "")
            facts.append((_phrase("variant", "variant", "dt"),
                          f"{escape(str(number))}: {escape(str(title))}"))
        out.append("<dl>" + "".join(f"{t}<dd>{v}</dd>" for t, v in facts) + "</dl>")
    return "\n".join(out)


def play_url(name: str) -> str:
    """The lobby with the new-game dialog of ``name`` open.

    >>> play_url("zrf:chess/chess@2")
    '/?play=zrf%3Achess%2Fchess%402'
    """
    return "/?play=" + quote(name, safe="")


def page_html(data: dict[str, Any]) -> str:
    """The rules page of a game, from its JSON (:func:`boardlab.web.views.game_json`,
    or an imported game's, which has ``imported``)."""
    name = str(data["name"])
    imported = data.get("imported")
    # An imported game's id names its file; its title (the description) says more.
    title = str(data["description"]) if imported else name
    subtitle = f"<code>{escape(name)}</code>" if imported else escape(str(data["description"]))
    game = None if imported else name
    if game is not None:
        subtitle = _named(str(data["description"]), f"about.{game}")
    values = {
        "TITLE": escape(title),
        "HEADING": _named(title, game and f"game.{game}"),
        "SUBTITLE": subtitle,
        "NAME": escape(name),
        "PLAY": escape(play_url(name)),
        "PLAYERS": "".join(_named(str(p), game and f"player.{str(p).lower()}", "li")
                           for p in data["players"]),
        "RULES": data["rules_html"],
        "OPTIONS": options_html(data["options"], game),
        "SOURCE": source_html(data),
    }
    # One pass: a slot's value (a game's text) is never searched for slots itself.
    return _SLOT.sub(lambda m: values[m.group(1)], _template())


@cache
def _template() -> str:
    return TEMPLATE.read_text(encoding="utf-8")


@cache
def page_security_policy() -> str:
    """The page's Content-Security-Policy, from the template with every slot empty."""
    return page_policy(_SLOT.sub("", _template()))


@router.get("/games/{name:path}/rules", response_class=HTMLResponse)
def rules_page(name: str, request: Request) -> HTMLResponse:
    """The rules page of a registered game or an imported one (default options); a JSON
    404 for a game this server does not have."""
    if is_imported(name):
        data = request.app.state.library.game_json(name, {})
    else:
        data = game_json(request.app.state.matches.load(name, {})[1])
    return HTMLResponse(page_html(data),
                        headers={"Content-Security-Policy": page_security_policy()})
