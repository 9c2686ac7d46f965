"""Passes over the written source text of a kernel module: functions of one shape
merged, literals kept from numba's typing by value, indexes made unsigned."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

#: A number of the generated source (not one inside a name).
_NUMBER = re.compile(r"(?<![\w.])(0x[0-9A-Fa-f]+|\d+)(?![\w.])")


#: The locals a template's loops name (and every-cell's saved locals), numbered across
#: the whole module.
_LOOP_LOCAL = re.compile(r"\b_([fie])\d+\b")


#: A local set to a bare integer, and an argument that is one (or a bool).
_CONSTANT_SET = re.compile(r"^(\s*)(\w+) = (-?(?:0x[0-9A-Fa-f]+|\d+))$", re.MULTILINE)


_CONSTANT = re.compile(r"\s*(-?(?:0x[0-9A-Fa-f]+|\d+)|True|False)\s*")


#: A function of a kernel's source: its decorator, name and arguments.
_FUNCTION = re.compile(r"^(@njit\([^\n]*\))\ndef (\w+)\(([^)]*)\):\n", re.MULTILINE)


def _shapes(texts: Iterable[tuple[Any, Any, str]]
            ) -> list[tuple[str, list[tuple[Any, list[str]]], list[int]]]:
    """Source ``texts`` (each a tag, a group and a text) put together where they are of
    one group and differ in numbers alone (their loops' locals numbered afresh in each:
    see _LOOP_LOCAL): for each such shape its text with the numbers that differ among
    its members as parameters ``c0``, ``c1``..., its members (each one's tag and
    numbers) and where the numbers that differ are among them.

    >>> _shapes([(0, "", "x = T[5] + _i7"), (1, "", "x = T[9] + _i8"), (2, "", "y = 1")])
    [('x = T[c0] + _i0', [(0, ['5']), (1, ['9'])], [0]), ('y = 1', [(2, ['1'])], [])]
    """
    groups: dict[tuple[Any, str], list[tuple[Any, list[str]]]] = {}
    for tag, group, text in texts:
        loops: dict[str, str] = {}
        text = _LOOP_LOCAL.sub(lambda m, loops=loops: loops.setdefault(
            m.group(0), f"_{m.group(1)}{len(loops)}"), text)
        shape = _NUMBER.sub("{}", text.replace("{", "{{").replace("}", "}}"))
        groups.setdefault((group, shape), []).append((tag, _NUMBER.findall(text)))
    out = []
    for (_, shape), members in groups.items():
        first = members[0][1]
        varying = [k for k in range(len(first))
                   if len({numbers[k] for _, numbers in members}) > 1]
        params = {k: f"c{j}" for j, k in enumerate(varying)}
        out.append((shape.format(*(params.get(k, v) for k, v in enumerate(first))),
                    members, varying))
    return out


def _merge_shapes(source: str) -> tuple[str, dict[str, tuple[str, list[str]]]]:
    r"""The functions of ``source`` (helpers: goals, counts...) with those whose text
    differs in numbers alone written once, the numbers that differ among them taken
    as arguments; and, by the name of each function merged, the name of the one that
    replaces it and the numbers its calls add (see :func:`_rename_calls`).

    numba's cost is per function compiled: tic-tac-toe's 16 lines, each a function
    that looks for it on the whole board at the start and one near the last move, took
    11 s. Functions inlined in numba's IR (``inline='always'``: the hot paths, each
    call site compiled again) are kept as they are; the others merge.

    >>> text, renames = _merge_shapes("@njit(cache=True)\n"
    ...     "def g0(S, T, p):\n    return T[5 + p] + 1\n\n\n"
    ...     "@njit(cache=True)\ndef g1(S, T, p):\n    return T[9 + p] + 1\n\n\n")
    >>> print(text)
    @njit(cache=True)
    def g0_shape(S, T, p, c0):
        return T[c0 + p] + 1
    <BLANKLINE>
    <BLANKLINE>
    <BLANKLINE>
    >>> renames
    {'g0': ('g0_shape', ['5']), 'g1': ('g0_shape', ['9'])}
    """
    starts = [m.start() for m in _FUNCTION.finditer(source)]
    if not starts:
        return source, {}
    chunks = [source[a:b] for a, b in zip(starts, [*starts[1:], len(source)], strict=True)]
    texts = []
    for at, chunk in enumerate(chunks):
        m = _FUNCTION.match(chunk)
        assert m is not None
        decorator, name, args = m.groups()
        body = chunk[m.end():]
        if decorator == "@njit(cache=True)" and not re.search(rf"\b{name}\(", body):
            texts.append(((at, name), args, body))  # not inlined, nor recursive
    merged: dict[int, str] = {}  # the function written where each chunk was, if another
    renames: dict[str, tuple[str, list[str]]] = {}
    for text, members, varying in _shapes(texts):
        if len(members) < 2:
            continue
        (first, name), _ = members[0]
        args = next(args for (at, _), args, _ in texts if at == first)
        merged[first] = (f"@njit(cache=True)\ndef {name}_shape({args}"
                         f"{''.join(f', c{j}' for j in range(len(varying)))}):\n" + text)
        for (at, member), numbers in members:
            merged.setdefault(at, "")
            renames[member] = (f"{name}_shape", [numbers[k] for k in varying])
    return source[:starts[0]] + "".join(merged.get(at, chunk)
                                        for at, chunk in enumerate(chunks)), renames


def _rename_calls(source: str, renames: dict[str, tuple[str, list[str]]]) -> str:
    """``source`` with each call of a function ``renames`` names made to the function
    that replaces it, with the numbers it adds (see :func:`_merge_shapes`).

    >>> _rename_calls("x = g1(S, f(T), 2) + g10(S)", {"g1": ("g", ["9"])})
    'x = g(S, f(T), 2, 9) + g10(S)'
    """
    if not renames:
        return source
    call = re.compile(r"\b(" + "|".join(sorted(map(re.escape, renames), key=len,
                                               reverse=True)) + r")\(")
    out: list[str] = []
    at = 0
    for m in call.finditer(source):
        if m.start() < at:
            continue
        depth, end = 1, m.end()
        while depth:  # the call's closing parenthesis
            depth += {"(": 1, ")": -1}.get(source[end], 0)
            end += 1
        merged, numbers = renames[m[1]]
        out.append(f"{source[at:m.start()]}{merged}({source[m.end():end - 1]}"
                   f"{''.join(', ' + n for n in numbers)})")
        at = end
    out.append(source[at:])
    return "".join(out)


def _unliteral(source: str) -> str:
    """``source`` with every integer a local is set to, and every integer or bool passed
    to a function of the module, written ``np.int64(...)``.

    numba compiles a function called from compiled code once for each combination of
    *literal* arguments it meets (a constant, or a local last set to one, even for a
    moment while the caller's types are inferred): a template written out with a
    constant cell, index or flag compiled once per value. An ``np.int64`` is typed as a
    plain integer, so each function compiles once (Minishogi's kernel: a function of
    1,000 lines compiled twice, ``attacked?`` 18 times).

    >>> print(_unliteral("def f(a, b):\\n    return a\\n\\n\\ndef g(S):\\n    x = 0\\n"
    ...                  "    return f(x, 3) + f(f(S[0], -1), True)\\n"))
    def f(a, b):
        return a
    <BLANKLINE>
    <BLANKLINE>
    def g(S):
        x = np.int64(0)
        return f(x, np.int64(3)) + f(f(S[0], np.int64(-1)), np.int64(1))
    <BLANKLINE>
    """
    source = _CONSTANT_SET.sub(lambda m: f"{m[1]}{m[2]} = np.int64({m[3]})", source)
    names = set(re.findall(r"^def (\w+)\(", source, re.MULTILINE))
    if not names:
        return source
    calls = re.compile(r"(?<![\w.])(" + "|".join(sorted(names)) + r")\(")
    return _calls_unliteral(source, calls)


#: The kernel's arrays (the position, the tables, the history, a playout's start and
#: results), indexed by :func:`_unsigned_indexes`.
_ARRAYS = frozenset({"S", "S0", "T", "H", "R"})


@lru_cache(maxsize=32)  # the same games are loaded again and again (a server's matches)
def _unsigned_indexes(source: str) -> str:
    """``source`` with every index into the kernel's arrays that is not a constant
    written ``np.uint64(...)``.

    numba turns a negative signed index into one from the end (``S[-1]``: the last
    word), two more instructions on the address of every load and store; in generate
    they lengthen each chain of loads that depend on each other (a cell's link, the
    piece there, its owner). No index the writer makes is negative: a link of -1 is
    tested before it is followed (and the tests play every kernel against the
    interpreter). Connect Four's playouts: 568k -> 749k a CPU-second; English checkers
    35k -> 41k. Positions come from the syntax tree, so comments stay.

    >>> print(_unsigned_indexes("x = S[36 + T[c]] + H[h, 5] + S[-1] + T[a:b][0]\\n"), end="")
    x = S[np.uint64(36 + T[np.uint64(c)])] + H[np.uint64(h), 5] + S[-1] + T[a:b][0]
    """
    edits: dict[int, list[tuple[int, str]]] = {}
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
                and node.value.id in _ARRAYS):
            continue
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        for part in parts:
            if isinstance(part, (ast.Slice, ast.Constant)) or (
                    isinstance(part, ast.UnaryOp) and isinstance(part.operand, ast.Constant)):
                continue
            assert part.end_lineno is not None and part.end_col_offset is not None
            edits.setdefault(part.lineno, []).append((part.col_offset, "np.uint64("))
            edits.setdefault(part.end_lineno, []).append((part.end_col_offset, ")"))
    lines = source.splitlines(keepends=True)
    for number, inserts in edits.items():
        # Columns count UTF-8 bytes; from the right, so earlier columns keep their place.
        line = lines[number - 1].encode()
        for column, text in sorted(inserts, reverse=True):
            line = line[:column] + text.encode() + line[column:]
        lines[number - 1] = line.decode()
    return "".join(lines)


def _calls_unliteral(text: str, calls: re.Pattern[str]) -> str:
    """``text`` with the constant arguments of its calls of ``calls`` (nested ones too)
    written ``np.int64(...)``; a function's own ``def`` line is left as it is."""
    out: list[str] = []
    at = 0
    for found in calls.finditer(text):
        start = found.end()
        if start <= at or text.startswith("def ", max(0, found.start() - 4)):
            continue  # inside a call rewritten already, or a def
        depth, i, args, begin = 1, start, [], start
        while depth:
            c = text[i]
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            if (c == "," and depth == 1) or depth == 0:
                args.append(text[begin:i])
                begin = i + 1
            i += 1
        pieces = []
        for arg in args:
            constant = _CONSTANT.fullmatch(arg)
            if constant is None:
                pieces.append(_calls_unliteral(arg, calls))
            else:
                value = {"True": "1", "False": "0"}.get(constant[1], constant[1])
                pieces.append(f"{arg[:len(arg) - len(arg.lstrip())]}np.int64({value})")
        out.append(text[at:start] + ",".join(pieces) + ")")
        at = i
    out.append(text[at:])
    return "".join(out)
