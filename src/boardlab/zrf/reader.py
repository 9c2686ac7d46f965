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
argument's text.

Zillions expands macros as text, the calls inside a macro's body first, so a ``$n`` that
the inner call does not bind is bound by the enclosing macro's call: ``(define capture
(capture $2))`` called as ``(capture)`` inside a macro called with two arguments takes
that macro's second argument. Here the same binding is found by looking a ``$n`` the
call leaves unbound up the chain of enclosing calls; only a ``$n`` no call binds is an
error. Expansion is repeated on the result, up to a depth that catches a macro calling
itself. ``(include "FILE")`` inserts another file's forms (a macro library); :func:`load`
resolves it beside the including file.

Bounds, checked before the work can grow: a file of at most :data:`MAX_FILE_BYTES`,
lists nested at most :data:`MAX_DEPTH` deep (in the file and after expansion), at most
:data:`MAX_NODES` nodes in the expanded file and :data:`MAX_BUILT` nodes built to hold it.
A call made again with the same arguments shares the nodes of the first expansion (the
expanded file is a graph, not a copy per call), so a file whose expansion is large but
repetitive (a mancala that unrolls its sowing for fifty seed counts) stays small in
memory, and an exponential macro is refused as soon as its size passes the bound.

Every node carries its :class:`Where` (file, line, column), and a node made by a macro
also the place of the call, so an error names both.

>>> forms = expand(parse('(define step ($1 (verify empty?) add))\\n(moves (step n))', "t.zrf"))
>>> print(forms[0])
(moves (n (verify empty?) add))
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import NamedTuple

from boardlab.errors import ZrfError
from boardlab.zrf.text import decode

#: Deepest nesting of macro calls: far beyond any real file, and a stop for a macro that
#: calls itself.
MAX_EXPANSION_DEPTH = 64
#: The most nodes the expanded file may have, counting a shared expansion once per use (a
#: bound on the work of everything that reads the file; the largest real files have
#: under 3 million).
MAX_NODES = 5_000_000
#: The most nodes expansion may build (a bound on memory: shared expansions are built
#: once; the largest real files build under 70,000, and refusing at the bound takes
#: about 1.5 s of CPU on a 2-core machine).
MAX_BUILT = 150_000
#: The deepest nesting of lists, in the file and after expansion (real files stay under
#: 40; the bound keeps every recursive reader of the tree far from Python's stack limit).
MAX_DEPTH = 200
#: The largest rule file (the largest real files are about 120 KB).
MAX_FILE_BYTES = 1_000_000
#: The most bytes a file and its includes may hold together.
MAX_TOTAL_BYTES = 4 * MAX_FILE_BYTES
#: Deepest chain of includes.
MAX_INCLUDE_DEPTH = 8

_PASTED = re.compile(r"\$(\d+)")
#: A token: a comment (skipped), a parenthesis, a string, an unterminated quote or a
#: symbol; the whitespace between tokens is never matched.
_TOKEN = re.compile(r''';[^\n]*|[()]|"[^"]*"|"|[^ \t\r\n\f\v()";]+''')


class Where(NamedTuple):
    """A place in a file: 1-based line and column; ``via`` is the macro call that made
    the node, when a macro did. (A named tuple: a file has one per token, and building
    a tuple is several times cheaper than building a frozen dataclass.)"""

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


class Atom(NamedTuple):
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


class SList:
    """A parenthesised list (immutable); ``size`` counts its nodes (itself included) and
    ``depth`` its levels of nesting, as a reader that walks the whole tree meets them."""

    __slots__ = ("items", "where", "size", "depth")

    def __init__(self, items: tuple[Node, ...], where: Where):
        self.items = items
        self.where = where
        size, depth = 1, 1
        for item in items:
            if type(item) is SList:
                size += item.size
                if item.depth >= depth:
                    depth = item.depth + 1
            else:
                size += 1
        self.size = size
        self.depth = depth

    def __eq__(self, other: object) -> bool:
        return type(other) is SList and self.items == other.items \
            and self.where == other.where

    def __hash__(self) -> int:
        return hash((self.items, self.where))

    def __repr__(self) -> str:
        return f"SList({self.items!r}, {self.where!r})"

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
        if self.items and type(self.items[0]) is Atom:
            return self.items[0].symbol
        return None

    @property
    def rest(self) -> tuple[Node, ...]:
        """The items after the head."""
        return self.items[1:]


Node = Atom | SList


def parse(text: str, file: str = "<zrf>") -> list[Node]:
    """The top-level forms of ``text``; :class:`ZrfError` names the place of an unbalanced
    parenthesis, an unterminated string or a list nested too deep."""
    if len(text) > MAX_FILE_BYTES:
        raise ZrfError(f"the file has more than {MAX_FILE_BYTES:,} characters (the bound "
                       "on a rule file)", file=file, line=1, column=1)
    stack: list[tuple[list[Node], Where]] = []
    top: list[Node] = []
    items = top
    line, line_start, last = 1, 0, 0
    count = text.count
    for match in _TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        if first == ";":
            continue
        start = match.start()
        # Lines are counted from the previous token (a string may span lines).
        newlines = count("\n", last, start)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", last, start) + 1
        last = start
        where = Where(file, line, start - line_start + 1)
        if first == "(":
            if len(stack) >= MAX_DEPTH:
                raise where.error(f"lists nested more than {MAX_DEPTH} deep (the bound on "
                                  "nesting)")
            stack.append((items, where))
            items = []
        elif first == ")":
            if not stack:
                raise where.error("unbalanced parenthesis: this ')' closes nothing")
            outer, opened = stack.pop()
            outer.append(SList(tuple(items), opened))
            items = outer
        elif first == '"':
            if len(token) == 1:
                raise where.error("unterminated string: this '\"' is never closed")
            items.append(Atom(token[1:-1], where, True))
        else:
            items.append(Atom(token, where))
    if stack:
        raise stack[-1][1].error("unbalanced parenthesis: this '(' is never closed")
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


class _Call:
    """A macro call being expanded: its arguments, where it is, and the call whose body
    it sits in (which binds the ``$n`` this one leaves unbound)."""

    __slots__ = ("macro", "args", "where", "outer", "reached_outer")

    def __init__(self, macro: Macro, args: Sequence[Node], where: Where,
                 outer: _Call | None):
        self.macro, self.args, self.where, self.outer = macro, args, where, outer
        #: Whether the expansion read a binding of an enclosing call: its result then
        #: depends on more than the arguments, and is not shared with other calls.
        self.reached_outer = False

    def argument(self, index: int, node: Atom) -> Node:
        """The node ``$index`` stands for here."""
        call: _Call | None = self
        while call is not None:
            if index <= len(call.args):
                return call.args[index - 1]
            call.reached_outer = True
            call = call.outer
        count = len(self.args)
        raise node.where.error(
            f"macro {self.macro.name!r} uses ${index} but was given {count} "
            f"argument{'s' if count != 1 else ''} at line {self.where.line}, "
            f"column {self.where.column}")


class _Expander:
    def __init__(self, macros: dict[str, Macro]) -> None:
        self.macros = macros
        self.built = 0
        #: (macro name, the arguments' shapes) -> the forms of the first such call.
        self.shared: dict[tuple[object, ...], list[Node]] = {}
        #: A list's shape (its items' shapes) -> a small number standing for it.
        self.shapes: dict[tuple[object, ...], int] = {}
        self.shape_of: dict[int, tuple[SList, int]] = {}

    def count(self, where: Where, nodes: int = 1) -> None:
        """Count ``nodes`` more nodes built."""
        self.built += nodes
        if self.built > MAX_BUILT:
            raise where.error(f"the expanded file needs more than {MAX_BUILT:,} nodes "
                              "(the bound on expansion)")

    def build(self, items: tuple[Node, ...], where: Where) -> SList:
        """A new list of ``items``, counted against the bounds."""
        self.count(where)
        node = SList(items, where)
        if node.size > MAX_NODES:
            raise where.error(f"the expanded file has more than {MAX_NODES:,} nodes (the "
                              "bound on expansion)")
        if node.depth > MAX_DEPTH:
            raise where.error(f"lists nested more than {MAX_DEPTH} deep after macro "
                              "expansion (the bound on nesting)")
        return node

    def shape(self, node: Node) -> object:
        """A key equal for nodes of the same text, wherever they are."""
        if type(node) is Atom:
            return (node.text, node.quoted)
        known = self.shape_of.get(id(node))
        if known is not None and known[0] is node:
            return known[1]
        key = tuple(self.shape(i) for i in node.items)
        number = self.shapes.setdefault(key, len(self.shapes))
        self.shape_of[id(node)] = (node, number)  # type: ignore[assignment]
        return number

    def forms(self, nodes: Sequence[Node], depth: int, call: _Call | None, level: int,
              body: bool = False) -> list[Node]:
        """Expand a sequence of sibling forms, ``level`` lists deep in the output; with
        ``body``, forms of the body of ``call``'s macro, whose ``$n`` are replaced as
        they are met (one walk, without building the substituted body first)."""
        out: list[Node] = []
        size = 0
        for node in nodes:
            if type(node) is Atom:
                if body:
                    node = self.atom(node, call)  # type: ignore[arg-type]
                    if type(node) is SList:
                        # An argument that is a list, expanded where it lands.
                        expanded = self.node(node, depth, None, level)
                        out.extend(expanded)
                        size += sum(f.size if type(f) is SList else 1 for f in expanded)
                        continue
                out.append(node)
                size += 1
                continue
            expanded = self.node(node, depth, call, level, body)  # type: ignore[arg-type]
            if len(expanded) == 1:
                out.append(expanded[0])
                size += expanded[0].size if type(expanded[0]) is SList else 1
            else:
                size += sum(f.size if type(f) is SList else 1 for f in expanded)
                if size > MAX_NODES:
                    # Spliced macro bodies can grow a list without building a node.
                    raise node.where.error(f"the expanded file has more than "
                                           f"{MAX_NODES:,} nodes (the bound on expansion)")
                out.extend(expanded)
        if size > MAX_NODES:
            raise nodes[0].where.error(f"the expanded file has more than {MAX_NODES:,} "
                                       "nodes (the bound on expansion)")
        if len(out) > len(nodes):
            # The places spliced bodies take are memory too.
            self.count(nodes[0].where, len(out) - len(nodes))
        return out

    def node(self, node: SList, depth: int, call: _Call | None, level: int,
             body: bool = False) -> list[Node]:
        """The forms the list ``node`` becomes (a macro call may become several, or
        none); ``body`` as for :meth:`forms`."""
        items = node.items
        head = items[0] if items else None
        if type(head) is Atom and not head.quoted:
            name = head.text
            if body and "$" in name:
                substituted = self.atom(head, call)  # type: ignore[arg-type]
                name = substituted.text if type(substituted) is Atom else ""
            macro = self.macros.get(name)
            if macro is not None:
                args = [self.substitute(a, call) for a in items[1:]] if body \
                    else items[1:]
                return self.call(macro, args, _via(node.where, call.where) if body
                                 else node.where, depth, call, level)
        if level >= MAX_DEPTH:
            # Checked on the way down: a reader of the tree recurses as deep as it nests.
            raise node.where.error(f"lists nested more than {MAX_DEPTH} deep after macro "
                                   "expansion (the bound on nesting)")
        expanded = self.forms(items, depth, call, level + 1, body)
        if not body and len(expanded) == len(items) and all(
                a is b for a, b in zip(expanded, items, strict=True)):
            return [node]
        return [self.build(tuple(expanded),
                           _via(node.where, call.where) if body else node.where)]

    def call(self, macro: Macro, args: Sequence[Node], where: Where, depth: int,
             outer: _Call | None, level: int) -> list[Node]:
        if depth >= MAX_EXPANSION_DEPTH:
            raise where.error(f"macro {macro.name!r} expands more than "
                              f"{MAX_EXPANSION_DEPTH} levels deep (does it call itself?)")
        key = (macro.name, *(self.shape(a) for a in args))
        done = self.shared.get(key)
        if done is not None:
            return done
        here = _Call(macro, args, where, outer)
        out = self.forms(macro.body, depth + 1, here, level, body=True)
        if not here.reached_outer:
            self.shared[key] = out
        return out

    def atom(self, node: Atom, call: _Call) -> Node:
        """An atom of a macro body with ``$n`` replaced (a whole ``$n`` by the n-th
        argument itself, which may be a list)."""
        text = node.text
        if not node.quoted and text[:1] == "$" and text[1:].isdigit():
            return call.argument(int(text[1:]), node)
        if "$" in text:
            def pasted(match: re.Match[str]) -> str:
                arg = call.argument(int(match[1]), node)
                if type(arg) is not Atom:
                    raise node.where.error(f"macro {call.macro.name!r} pastes "
                                           f"${match[1]} into {text!r}, but the "
                                           "argument is a list")
                return arg.text  # type: ignore[union-attr]
            text = _PASTED.sub(pasted, text)
        self.count(node.where)
        return Atom(text, _via(node.where, call.where), node.quoted)

    def substitute(self, node: Node, call: _Call) -> Node:
        """``node`` of a macro body with ``$n`` replaced by the n-th argument (an
        argument of a call in the body: expanded later, where it lands)."""
        if type(node) is Atom:
            return self.atom(node, call)  # type: ignore[arg-type]
        return self.build(tuple([self.substitute(i, call) for i in node.items]),  # type: ignore[union-attr]
                          _via(node.where, call.where))


def _via(where: Where, call: Where) -> Where:
    return where if where.via is not None else Where(where.file, where.line, where.column,
                                                       call)


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
    expander = _Expander(macros)
    out = expander.forms(rest, 0, None, 0)
    total = sum(f.size if type(f) is SList else 1 for f in out)
    if total > MAX_NODES:
        raise out[-1].where.error(f"the expanded file has more than {MAX_NODES:,} nodes "
                                  "(the bound on expansion)")
    return out


def read(text: str, file: str = "<zrf>") -> list[Node]:
    """Parse and expand a rule file's text (an ``include`` is an error: use :func:`load`)."""
    return expand(_includes(parse(text, file), None, 0, [len(text)]))


def load(path: str | Path, name: str | None = None) -> list[Node]:
    """Read, include and expand the rule file at ``path``; nodes name it ``name`` (by
    default the path as given). Included files must lie in the including file's folder
    or below it."""
    path = Path(path)
    shown = name or str(path)
    text = decode(_read(path, shown))
    return expand(_includes(parse(text, shown), path, 0, [len(text)]))


def _read(path: Path, shown: str) -> bytes:
    from boardlab.files import read_bytes

    try:
        size = path.stat().st_size
    except OSError:
        size = 0  # read_bytes says what is wrong with the path
    if size > MAX_FILE_BYTES:
        raise ZrfError(f"the file has {size:,} bytes, more than {MAX_FILE_BYTES:,} (the bound "
                       "on a rule file)", file=shown, line=1, column=1)
    return read_bytes(path, limit=MAX_FILE_BYTES)


def _includes(forms: list[Node], path: Path | None, depth: int,
              total: list[int]) -> list[Node]:
    """``forms`` with every top-level ``(include "FILE")`` replaced by that file's forms;
    ``total`` counts the characters read so far."""
    from boardlab.errors import FileError

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
        shown = str(PurePosixPath(form.where.file).parent / form[1].text)
        try:
            text = decode(_read(target, shown))
        except FileError as e:
            raise form.where.error(f"include {form[1].text!r}: {e}") from None
        total[0] += len(text)
        if total[0] > MAX_TOTAL_BYTES:
            raise form.where.error(f"the file and its includes hold more than "
                                   f"{MAX_TOTAL_BYTES:,} characters (the bound on a rule "
                                   "file)")
        out.extend(_includes(parse(text, shown), target, depth + 1, total))
    return out
