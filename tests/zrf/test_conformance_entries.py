"""The ZRF Language Reference, entry by entry (issue 27).

Every rule file of ``tests/zrf/conformance`` is a tiny game written for one entry of the
reference (or a family, ``empty?`` with ``not-empty?``). Its header of ``;;`` lines says
which entries it serves, what the reference means by them, and what must happen, worked
out by hand on the board from the reference's meaning, never copied from boardlab:

* ``;; entry: NAME ...``: the entries (an option name in double quotes);
* ``;; reference: TEXT``: the meaning and where it comes from (continued on lines that
  start ``;;`` and two more spaces);
* ``;; expect moves[ after M ...]: M ...``: the legal moves, as a set (a move with spaces
  in double quotes), at the start or after the moves given;
* ``;; expect perft[ after M ...]: N ...``: the move counts at depths 1, 2, ...;
* ``;; expect outcome[ after M ...]: WINNER`` (a player's name), ``draw`` or ``none``;
* ``;; expect position[ after M ...]: TEXT``: the position (its text form, see
  :class:`~boardlab.zrf.game.ZrfState`; cells in any order);
* ``;; expect error at LINE:COLUMN: TEXT``: boardlab refuses the file, naming the place;
* ``;; expect same without: NAME ...``: the file with every ``(NAME ...)`` form removed
  plays the same (display-only entries: sounds, images, help);
* ``;; expect text: TEXT``: the game's description as the player reads it, ``\\n`` a line
  break (``\\`` and ``` ` ``` in ZRF strings);
* ``;; variant: N``: every expectation is of the file's game or variant N, not of the one
  it plays by default.

``docs/zrf-conformance.md`` has a row for every entry of the reference, with its status and
a link to its file; :func:`test_the_table_covers_the_reference` holds the table to the
reference's own index. Files boardlab gets wrong are in :data:`KNOWN_WRONG`, with the
reason; they are left out of the main run, and :func:`test_known_wrong_files_still_fail`
keeps the list honest.

Every file runs with the interpreter that is the move language's reference meaning
(:mod:`boardlab.core.interpret`). Kernels (numba move generators) are turned off: each
tiny game would compile its own, and the games here are about the language, not about
that faster implementation of it.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest

from boardlab.core import kernel
from boardlab.core.engine import Engine
from boardlab.core.game import perft
from boardlab.errors import ZrfError
from boardlab.zrf.game import ZrfGame, load_game
from boardlab.zrf.reader import Atom, Node, SList, load
from boardlab.zrf.text import display_text

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = Path(__file__).resolve().parent / "conformance"
TABLE = ROOT / "docs" / "zrf-conformance.md"

#: The index of keywords of the ZRF Language Reference (Jeff Mallett, ZRF Language
#: Reference, last revision May 2, 2003, Zillions Development Corp.), verbatim: the outside
#: truth the table is held to. (The index itself, as its transcripts show it, also lists
#: ``friend?`` and ``forced``, a value of the option "pass turn", which this list leaves
#: out; the table gives both a row all the same.)
REFERENCE_INDEX = (
    "absolute-config add add-copy add-copy-partial add-partial adjacent-to-enemy? and "
    "any-owner attacked? attribute back board board-setup capture capture-sound captured "
    "cascade change-owner change-sound change-type checkmated click-sound count-condition "
    "create default defended? description directions draw-condition draw-sound dimensions "
    "drop-sound drops dummy else engine empty? enemy? false flag? flip from game go "
    "goal-position? grid help history if image in-zone? kill-positions last-from last-from? "
    "last-to last-to? links loss-condition loss-sound mark marked? moves move-priorities "
    "move-sound move-type music name neutral? not notation not-adjacent-to-enemy? "
    "not-attacked? not-defended? not-empty? not-enemy? not-flag? not-friend? "
    "not-goal-position? not-in-zone? not-last-from? not-last-to? not-marked? not-neutral? "
    "not-on-board? not-piece? not-position? not-position-flag? off on-board? open "
    "opening-sound opponent opposite option or piece piece? pieces-remaining players "
    "position? position-flag? positions relative-config release-sound repeat repetition "
    "set-attribute set-flag set-position-flag solution stalemated start-rectangle strategy "
    "symmetry title to total-piece-count translate true turn-order unlink variant verify "
    "while win-condition win-sound zone define include version \\ ` ;"
)
REFERENCE_KEYWORDS = tuple(REFERENCE_INDEX.split())
#: The index's entries the list above leaves out; they need rows too.
ALSO_INDEXED = ("friend?", "forced")

#: The option names the reference's ``option`` entry defines.
REFERENCE_OPTIONS = (
    "animate captures", "animate drops", "discard cascades", "highlight goals",
    "include off-pieces", "maximal captures", "pass partial", "pass turn",
    "prevent flipping", "progressive levels", "recycle captures", "recycle promotions",
    "show moves list", "silent ? moves", "smart moves",
)

#: Entries without a row yet, being changed: they must not have one until they leave
#: this set.
PENDING: frozenset[str] = frozenset()

#: Files whose expectations boardlab does not meet yet: stem -> why.
KNOWN_WRONG: dict[str, str] = {}

STATUSES = ("supported", "approximated", "ignored", "refused")


# --- reading a file's header --------------------------------------------------------------
@dataclass(frozen=True)
class Expectation:
    """One ``;; expect`` line: what (``moves``, ``perft``, ``outcome``, ``position``,
    ``error``, ``same``), after which moves, the expected value, and its line."""

    kind: str
    after: tuple[str, ...]
    value: str
    line: int

    def __str__(self) -> str:
        after = f" after {' '.join(self.after)}" if self.after else ""
        return f"line {self.line}: expect {self.kind}{after}: {self.value}"


@dataclass(frozen=True)
class Header:
    """A rule file's entries, reference text and expectations."""

    entries: tuple[str, ...]
    reference: str
    expectations: tuple[Expectation, ...]
    variant: int | None = None


_EXPECT = re.compile(r"expect (moves|perft|outcome|position|text)(?: after (.*?))?: ?(.*)$")
_ERROR = re.compile(r"expect error at (\d+):(\d+): (.+)$")
_SAME = re.compile(r"expect same without: (.+)$")


def header(path: Path) -> Header:
    """The header of the rule file at ``path`` (:class:`ValueError` on a malformed one)."""
    entries: list[str] = []
    reference: list[str] = []
    expectations: list[Expectation] = []
    variant: int | None = None
    last = ""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.startswith(";;"):
            last = ""
            continue
        text = line[2:]
        if text.startswith("   ") and last == "reference":
            reference.append(text.strip())
            continue
        text = text.strip()
        last = ""
        if text.startswith("entry:"):
            entries += shlex.split(text[len("entry:"):], posix=False)
        elif text.startswith("reference:"):
            reference.append(text[len("reference:"):].strip())
            last = "reference"
        elif text.startswith("expect "):
            expectations.append(_expectation(text, number, path))
        elif text.startswith("variant:"):
            variant = int(text[len("variant:"):])
    return Header(tuple(entries), " ".join(reference), tuple(expectations), variant)


def _expectation(text: str, number: int, path: Path) -> Expectation:
    if match := _ERROR.match(text):
        return Expectation("error", (), f"{match[1]}:{match[2]}: {match[3]}", number)
    if match := _SAME.match(text):
        return Expectation("same", (), match[1], number)
    match = _EXPECT.match(text)
    if match is None:
        raise ValueError(f"{path.name}:{number}: cannot read {text!r}")
    after = tuple(shlex.split(match[2])) if match[2] else ()
    return Expectation(match[1], after, match[3].strip(), number)


def rule_files() -> list[Path]:
    """Every rule file of the conformance folder (files it includes live below it)."""
    return sorted(CONFORMANCE.glob("*.zrf"))


# --- checking expectations ----------------------------------------------------------------
def outcome_text(game: ZrfGame, returns: tuple[Fraction, ...] | None) -> str:
    """``none``, ``draw`` or the winner's name (else the returns, for a message)."""
    if returns is None:
        return "none"
    # A random player scores 0 and is no contestant: a draw is between the others.
    real = [r for i, r in enumerate(returns) if i not in game.chance_players]
    if len(set(real)) == 1 and sum(real) > 0:
        return "draw"
    winners = [game.player_names[i] for i, r in enumerate(returns) if r == 1]
    if len(winners) == 1 and sum(returns) == 1:
        return winners[0]
    return " ".join(f"{name}={r}" for name, r in zip(game.player_names, returns, strict=True))


def strip(node: Node, names: frozenset[str]) -> Node | None:
    """``node`` without the forms whose head is one of ``names`` (None if it is one)."""
    if isinstance(node, Atom):
        return node
    if node.head in names:
        return None
    kept = tuple(n for n in (strip(i, names) for i in node.items) if n is not None)
    return SList(kept, node.where)


def check(path: Path, expectation: Expectation, tmp_path: Path,
          variant: int | None = None, engine: Engine = Engine.INTERPRETER) -> None:
    """Assert one expectation of the file at ``path`` (of its ``variant``), played on
    ``engine``."""
    if expectation.kind == "error":
        place, message = expectation.value.split(": ", 1)
        with pytest.raises(ZrfError) as error:
            load_game(path, variant, name=path.name, engine=engine).initial_state().legal_moves()
        found = error.value
        assert f"{found.line}:{found.column}" == place and found.file == path.name, \
            f"{expectation}: the error is at {found.file}:{found.line}:{found.column}: {found}"
        assert message in str(found), f"{expectation}: got {found}"
        return
    game = load_game(path, variant, name=path.name, engine=engine)
    if expectation.kind == "text":
        found = display_text(game.spec.description)
        assert found == expectation.value.replace("\\n", "\n"), \
            f"{expectation}; found {found!r}"
        return
    if expectation.kind == "same":
        names = frozenset(shlex.split(expectation.value))
        forms = load(path, path.name)
        stripped = [n for n in (strip(f, names) for f in forms) if n is not None]
        assert stripped != forms, f"{expectation}: the file has no such form"
        plain = tmp_path / path.name
        plain.write_text("\n".join(str(f) for f in stripped), encoding="utf-8")
        other = load_game(plain, variant, name=path.name, engine=engine)
        assert _play_tree(game, 3) == _play_tree(other, 3), expectation
        return
    state = game.initial_state()
    try:
        state = state.play_all(expectation.after)
    except Exception as e:  # noqa: BLE001 - named in the message
        raise AssertionError(f"{expectation}: {e}") from None
    if expectation.kind == "moves":
        found = sorted(m.notation for m in state.legal_moves())
        assert found == sorted(shlex.split(expectation.value)), f"{expectation}; found {found}"
    elif expectation.kind == "perft":
        wanted = [int(n) for n in expectation.value.split()]
        assert perft(state, len(wanted)) == wanted, expectation
    elif expectation.kind == "outcome":
        found = outcome_text(game, state.outcome())
        assert found == expectation.value, f"{expectation}; found {found}"
    else:
        wanted = game.parse_state(expectation.value)
        assert state == wanted, f"{expectation}; found {state}"


def _play_tree(game: ZrfGame, depth: int) -> list[tuple[str, tuple[str, ...], str]]:
    """Every position to ``depth`` plies: its text, its moves and its outcome."""
    out: list[tuple[str, tuple[str, ...], str]] = []

    def walk(state, level: int) -> None:  # noqa: ANN001
        moves = state.legal_moves()
        out.append((str(state), tuple(sorted(m.notation for m in moves)),
                    outcome_text(game, state.outcome())))
        if level < depth:
            for move in moves:
                walk(state.play(move), level + 1)

    walk(game.initial_state(), 0)
    return out


def failures(path: Path, tmp_path: Path, on_kernel: bool = False) -> Iterator[str]:
    """What goes wrong with the file's expectations (one message each), in each mode;
    ``on_kernel``: played on the game's kernel instead."""
    found = header(path)
    engine = Engine.KERNEL if on_kernel else Engine.INTERPRETER
    for expectation in found.expectations:
        try:
            check(path, expectation, tmp_path, found.variant, engine)
        except AssertionError as e:
            yield f"{path.name} ({engine.value}): {e}"
        except Exception as e:  # noqa: BLE001 - a crash is a failure to report
            yield f"{path.name} ({engine.value}): {expectation}: {type(e).__name__}: {e}"


@pytest.mark.parametrize("path", [p for p in rule_files() if p.stem not in KNOWN_WRONG],
                         ids=lambda p: p.stem)
def test_rule_file_meets_its_expectations(path, tmp_path):
    found = header(path)
    assert found.entries and found.reference and found.expectations, \
        f"{path.name}: a header needs entry, reference and expect lines"
    assert list(failures(path, tmp_path)) == []


#: Files checked on their kernels too (each compiles one, seconds: a sample of what the
#: kernel came to hold last; ``python benchmarks/kernels.py --conformance`` checks all).
ON_KERNEL = ("attribute", "adjacent-to-enemy", "position-flag", "attacked", "defended",
             "recycle-captures", "recycle-promotions-used", "turn-order-types")


@pytest.mark.parametrize("stem", ON_KERNEL)
def test_rule_file_meets_its_expectations_on_its_kernel(stem, tmp_path):
    path = CONFORMANCE / f"{stem}.zrf"
    assert kernel.why_not(load_game(path)) is None
    assert isinstance(load_game(path).initial_state(), kernel.KernelPosition)
    assert list(failures(path, tmp_path, on_kernel=True)) == []


@pytest.mark.parametrize("stem", sorted(KNOWN_WRONG))
def test_known_wrong_files_still_fail(stem, tmp_path):
    # A file boardlab now gets right leaves KNOWN_WRONG (and joins the main run).
    assert list(failures(CONFORMANCE / f"{stem}.zrf", tmp_path)), \
        f"{stem}.zrf passes now: remove it from KNOWN_WRONG ({KNOWN_WRONG[stem]})"


# --- the table ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    """A row of the conformance table."""

    entry: str
    status: str
    files: tuple[str, ...]
    line: int


_CODE = re.compile(r"^(`+)\s?(.*?)\s?\1$")
_LINKS = re.compile(r"\]\(\.\./tests/zrf/conformance/([^)]+\.zrf)\)")


def table_rows(text: str) -> list[Row]:
    """The rows of every ``| entry | status | ... | test |`` table of the page."""
    rows: list[Row] = []
    in_table = False
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.startswith("|"):
            in_table = False
            continue
        if set(line.strip()) <= set("|-: "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if cells[0] == "entry":
            in_table = True
            continue
        if not in_table:
            continue
        match = _CODE.match(cells[0])
        assert match, f"line {number}: an entry is written as code: {cells[0]!r}"
        status = cells[1].split()[0].strip("*:,") if cells[1] else ""
        rows.append(Row(match[2], status, tuple(_LINKS.findall(cells[-1])), number))
    return rows


def test_the_table_covers_the_reference():
    rows = table_rows(TABLE.read_text(encoding="utf-8"))
    entries = [r.entry for r in rows]
    assert len(entries) == len(set(entries)), "an entry has two rows"
    wanted = {*REFERENCE_KEYWORDS, *ALSO_INDEXED, *(f'"{o}"' for o in REFERENCE_OPTIONS)}
    missing = wanted - set(entries)
    # Exactly the pending entries lack a row: any other gap, or a pending entry that got
    # a row while still pending, fails.
    assert not missing - PENDING, f"entries without a row: {sorted(missing - PENDING)}"
    assert not PENDING - missing, \
        f"pending entries with a row (take them out of PENDING): {sorted(PENDING - missing)}"
    for row in rows:
        assert row.status in STATUSES, f"line {row.line}: status {row.status!r}"
        assert row.files, f"line {row.line}: {row.entry} links no rule file"
        for name in row.files:
            path = CONFORMANCE / name
            assert path.exists(), f"line {row.line}: no file {name}"
            found = header(path)
            assert row.entry in found.entries, \
                f"line {row.line}: {name} does not say it tests {row.entry}"
            assert found.expectations, f"line {row.line}: {name} expects nothing"
            kinds = {e.kind for e in found.expectations}
            if row.status == "ignored":
                same = {n for e in found.expectations if e.kind == "same"
                        for n in shlex.split(e.value)}
                assert row.entry.strip('"') in same or "option" in same, \
                    f"line {row.line}: {name} must show {row.entry} changes nothing"
            elif row.status == "refused":
                assert "error" in kinds, f"line {row.line}: {name} must expect the refusal"
            else:
                assert kinds - {"error", "same"}, \
                    f"line {row.line}: {name} must expect play, not only errors"


def test_every_rule_file_has_rows():
    rows = table_rows(TABLE.read_text(encoding="utf-8"))
    entries = {r.entry for r in rows}
    linked = {name for r in rows for name in r.files}
    for path in rule_files():
        found = header(path)
        assert set(found.entries) <= entries, \
            f"{path.name}: no row for {sorted(set(found.entries) - entries)}"
        assert path.name in linked, f"{path.name}: no row links it"
