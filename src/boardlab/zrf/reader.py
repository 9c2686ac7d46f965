"""Reading ZRF text: tokens, s-expressions and macros, every node knowing where it came from.

A Zillions rule file is a sequence of s-expressions: parenthesised lists of symbols,
numbers and double-quoted strings, with ``;`` comments to the end of a line. Strings may
span lines and hold backslashes literally (``"Audio\\Pickup.wav"``). Files written on
Windows may be in their code page (cp1252, cp1251) rather than UTF-8: see
:func:`boardlab.zrf.text.decode`.

Macros: ``(define NAME body...)`` anywhere at the top of the file (or of an included
one) defines NAME for the whole file; when a name is defined twice the later definition
wins, as Zillions allows. ``(NAME arg...)`` is replaced by the body forms with ``$1``,
``$2``, ... replaced by the arguments, spliced into the enclosing list; a macro name that
is not at the head of a list is plain data (Dagaz's rule, which the corpus relies on:
``other-games/filler.zrf`` passes such a name as an argument). ``$n`` pasted into
a longer symbol or a string (``$1$2``, ``"images/$1.bmp"``) is replaced by the
argument's text. Expansion is repeated on the result, up to a depth that catches a macro
calling itself. ``(include "FILE")`` inserts another file's forms (a macro library);
:func:`load` resolves it beside the including file.

Every node carries its :class:`Where` (file, line, column), and a node made by a macro
also the place of the call, so an error names both.

>>> forms = expand(parse('(define step ($1 (verify empty?) add))\\n(moves (step n))', "t.zrf"))
>>> print(forms[0])
(moves (n (verify empty?) add))
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from boardlab.errors import ZrfError
from boardlab.zrf.text import decode

#: Deepest nesting of macro calls: far beyond any real file, and a stop for a macro that
#: calls itself.
MAX_EXPANSION_DEPTH = 64
#: The most nodes an expanded file may have (a bound on memory for hostile input).
MAX_NODES = 5_000_000
#: Deepest chain of includes.
MAX_INCLUDE_DEPTH = 8

_PASTED = re.compile(r"\$(\d+)")


@dataclass(frozen=True, slots=True)
class Where:
    """A place in a file: 1-based line and column; ``via`` is the macro call that made
    the node, when a macro did."""

    file: str
    line: int
    column: int
    via: Where | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    def error(self, message: str) -> ZrfError:
        """A :class:`ZrfError` at this place (naming the macro call, if any)."""
        if self.via is not None:
            message = f"{message} (in a macro used at line {self.via.line}, column " \
                      f"{self.via.column})"
        return ZrfError(message, file=self.file, line=self.line, column=self.column)


@dataclass(frozen=True, slots=True)
class Atom:
    """A symbol, number or string (``quoted``); symbols keep their case."""

    text: str
    where: Where
    quoted: bool = False

    def __str__(self) -> str:
        return f'"{self.text}"' if self.quoted else self.text

    @property
    def symbol(self) -> str | None:
        """The text of a symbol (``None`` for a string)."""
        return None if self.quoted else self.text


@dataclass(frozen=True, slots=True)
class SList:
    """A parenthesised list."""

    items: tuple[Node, ...]
    where: Where

    def __str__(self) -> str:
        return "(" + " ".join(str(i) for i in self.items) + ")"

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index: int) -> Node:
        return self.items[index]

    def __iter__(self) -> Iterator[Node]:
        return iter(self.items)

    @property
    def head(self) -> str | None:
        """The symbol the list starts with, or ``None``."""
        if self.items and isinstance(self.items[0], Atom):
            return self.items[0].symbol
        return None

    @property
    def rest(self) -> tuple[Node, ...]:
        """The items after the head."""
        return self.items[1:]


Node = Atom | SList


def _tokens(text: str, file: str) -> Iterator[tuple[str, str, int, int]]:
    """``(kind, text, line, column)`` with kind ``(``, ``)``, ``sym`` or ``str``."""
    i, n = 0, len(text)
    line, line_start = 1, 0
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            line_start = i + 1
            i += 1
        elif ch in " \t\r\f\v":
            i += 1
        elif ch == ";":
            while i < n and text[i] != "\n":
                i += 1
        elif ch in "()":
            yield ch, ch, line, i - line_start + 1
            i += 1
        elif ch == '"':
            start_line, start_column = line, i - line_start + 1
            j = i + 1
            while j < n and text[j] != '"':
                if text[j] == "\n":
                    line += 1
                    line_start = j + 1
                j += 1
            if j >= n:
                raise ZrfError("unterminated string: this '\"' is never closed",
                               file=file, line=start_line, column=start_column)
            yield "str", text[i + 1:j], start_line, start_column
            i = j + 1
        else:
            j = i
            while j < n and text[j] not in ' \t\r\n\f\v()";':
                j += 1
            yield "sym", text[i:j], line, i - line_start + 1
            i = j


def parse(text: str, file: str = "<zrf>") -> list[Node]:
    """The top-level forms of ``text``; :class:`ZrfError` names the place of an unbalanced
    parenthesis or an unterminated string."""
    stack: list[tuple[list[Node], Where]] = []
    top: list[Node] = []
    for count, (kind, token, line, column) in enumerate(_tokens(text, file), start=1):
        if count > MAX_NODES:
            raise ZrfError(f"more than {MAX_NODES:,} tokens", file=file, line=line,
                           column=column)
        where = Where(file, line, column)
        if kind == "(":
            stack.append(([], where))
        elif kind == ")":
            if not stack:
                raise ZrfError("unbalanced parenthesis: this ')' closes nothing", file=file,
                               line=line, column=column)
            items, opened = stack.pop()
            node = SList(tuple(items), opened)
            (stack[-1][0] if stack else top).append(node)
        else:
            atom = Atom(token, where, quoted=kind == "str")
            (stack[-1][0] if stack else top).append(atom)
    if stack:
        opened = stack[-1][1]
        raise opened.error("unbalanced parenthesis: this '(' is never closed")
    return top


@dataclass(frozen=True, slots=True)
class Macro:
    """A ``define``: its name, body forms and where it was defined."""

    name: str
    body: tuple[Node, ...]
    where: Where


def _is_define(node: Node) -> bool:
    return isinstance(node, SList) and node.head == "define"


def _macro_of(node: SList) -> Macro:
    if len(node) < 2 or not isinstance(node[1], Atom) or node[1].quoted:
        raise node.where.error("define needs a name: (define NAME body...)")
    return Macro(node[1].text, node.items[2:], node.where)


class _Expander:
    def __init__(self, macros: dict[str, Macro]) -> None:
        self.macros = macros
        self.nodes = 0

    def count(self, where: Where) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise where.error(f"the expanded file has more than {MAX_NODES:,} nodes")

    def forms(self, nodes: Sequence[Node], depth: int) -> list[Node]:
        """Expand a sequence of sibling forms."""
        out: list[Node] = []
        for node in nodes:
            out.extend(self.node(node, depth))
        return out

    def node(self, node: Node, depth: int) -> list[Node]:
        """The forms ``node`` becomes (a macro call may become several, or none)."""
        self.count(node.where)
        if isinstance(node, Atom):
            return [node]
        head = node.head
        macro = self.macros.get(head) if head is not None else None
        if macro is not None:
            return self.call(macro, node.rest, node.where, depth)
        return [SList(tuple(self.forms(node.items, depth)), node.where)]

    def call(self, macro: Macro, args: Sequence[Node], where: Where,
             depth: int) -> list[Node]:
        if depth >= MAX_EXPANSION_DEPTH:
            raise where.error(f"macro {macro.name!r} expands more than "
                              f"{MAX_EXPANSION_DEPTH} levels deep (does it call itself?)")
        body = [_substitute(form, args, where, macro) for form in macro.body]
        return self.forms(body, depth + 1)


def _substitute(node: Node, args: Sequence[Node], call: Where, macro: Macro) -> Node:
    """``node`` of a macro body with ``$n`` replaced by the n-th argument."""
    if isinstance(node, Atom):
        text = node.text
        if not node.quoted and text.startswith("$") and text[1:].isdigit():
            return _argument(node, int(text[1:]), args, call, macro)
        if "$" in text:
            def pasted(match: re.Match[str]) -> str:
                arg = _argument(node, int(match[1]), args, call, macro)
                if not isinstance(arg, Atom):
                    raise node.where.error(f"macro {macro.name!r} pastes ${match[1]} into "
                                           f"{text!r}, but the argument is a list")
                return arg.text
            text = _PASTED.sub(pasted, text)
        return Atom(text, _via(node.where, call), node.quoted)
    return SList(tuple(_substitute(i, args, call, macro) for i in node.items),
                 _via(node.where, call))


def _argument(node: Atom, index: int, args: Sequence[Node], call: Where,
              macro: Macro) -> Node:
    if not 1 <= index <= len(args):
        raise node.where.error(
            f"macro {macro.name!r} uses ${index} but was given {len(args)} "
            f"argument{'s' if len(args) != 1 else ''} at line {call.line}, "
            f"column {call.column}")
    return args[index - 1]


def _via(where: Where, call: Where) -> Where:
    return where if where.via is not None else replace(where, via=call)


def expand(forms: Sequence[Node]) -> list[Node]:
    """The forms with every ``define`` applied and removed and every macro call expanded."""
    macros: dict[str, Macro] = {}
    rest: list[Node] = []
    for form in forms:
        if _is_define(form):
            macro = _macro_of(form)  # type: ignore[arg-type]
            macros[macro.name] = macro
        else:
            rest.append(form)
    return _Expander(macros).forms(rest, 0)


def read(text: str, file: str = "<zrf>") -> list[Node]:
    """Parse and expand a rule file's text (an ``include`` is an error: use :func:`load`)."""
    return expand(_includes(parse(text, file), None, 0))


def load(path: str | Path, name: str | None = None) -> list[Node]:
    """Read, include and expand the rule file at ``path``; nodes name it ``name`` (by
    default the path as given). Included files must lie in the including file's folder
    or below it."""
    from boardlab.files import read_bytes

    path = Path(path)
    text = decode(read_bytes(path))
    return expand(_includes(parse(text, name or str(path)), path, 0))


def _includes(forms: list[Node], path: Path | None, depth: int) -> list[Node]:
    """``forms`` with every top-level ``(include "FILE")`` replaced by that file's forms."""
    from boardlab.errors import FileError
    from boardlab.files import read_bytes

    out: list[Node] = []
    for form in forms:
        if not (isinstance(form, SList) and form.head == "include"):
            out.append(form)
            continue
        if len(form) != 2 or not isinstance(form[1], Atom):
            raise form.where.error('include needs one file name: (include "FILE")')
        if path is None:
            raise form.where.error("include needs the rule file's folder (load the file)")
        if depth >= MAX_INCLUDE_DEPTH:
            raise form.where.error(f"includes nested more than {MAX_INCLUDE_DEPTH} deep")
        folder = path.resolve().parent
        target = (folder / form[1].text).resolve()
        if not target.is_relative_to(folder):
            raise form.where.error(f"include {form[1].text!r} points outside the rule "
                                   "file's folder")
        try:
            text = decode(read_bytes(target))
        except FileError as e:
            raise form.where.error(f"include {form[1].text!r}: {e}") from None
        shown = str(PurePosixPath(form.where.file).parent / form[1].text)
        out.extend(_includes(parse(text, shown), target, depth + 1))
    return out
