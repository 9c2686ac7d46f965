"""The kernel's writer: the game's end conditions: ``after``, its goals near the last
move, and what a stuck player's end is."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boardlab.core import goals as g
from boardlab.core.kernel.layout import (
    BOARD,
    MOVER,
    NEAR,
    REPS,
    TAKEN,
    TO_MOVE,
    TURNS,
    Unsupported,
)

#: The most lines of after (a line of it may be a call of an inlined test) that a
#: playout inlines in its loop (see _Writer.resolve).
_INLINED_AFTER = 40


class _Goals:
    """The part of ``_Writer`` that writes
    the game's end conditions: ``after``, its goals near the last move, and what a stuck
    player's end is."""

    # --- goals ----------------------------------------------------------------------
    def goal(self, goal: g.Goal, player: str, near: bool = False) -> str:
        """The test of ``goal`` for ``player``; ``near``: a goal whose being false makes
        its condition's false (so false at a position that goes on), which a relative
        configuration then tests only around the cells the last move changed when it
        was false before it (see :attr:`near`)."""
        if isinstance(goal, g.AllOf | g.AnyOf):
            joint = " and " if isinstance(goal, g.AllOf) else " or "
            inner = near and isinstance(goal, g.AnyOf)
            children = list(goal.goals)
            lines = self.lines_near(children, player) if inner else None
            if lines is not None:
                children = [c for c in children if not any(c is x for x in lines[1])]
            # A part that never decides (always false in an or, true in an and) goes.
            parts = [part for part in ([lines[0]] if lines is not None else []) + [
                self.goal(child, player, inner) for child in children]
                     if part != ("True" if isinstance(goal, g.AllOf) else "False")]
            return "(" + (joint.join(parts) or ("True" if isinstance(goal, g.AllOf)
                                                else "False")) + ")"
        if isinstance(goal, g.NotGoal):
            return f"(not {self.goal(goal.goal, player)})"
        if isinstance(goal, g.Stalemated | g.ToMove):
            return f"(S[{TO_MOVE}] == {player})"
        if isinstance(goal, g.Repetition):
            return f"(S[{MOVER}] == {player} and S[{REPS}] >= {goal.times})"
        if isinstance(goal, g.TurnsPlayed):
            return f"(S[{TURNS}] >= {goal.count})"
        if isinstance(goal, g.Checkmated):
            mask = self.kinds_mask(goal.kinds)
            return f"(S[{TO_MOVE}] == {player} and in_check(S, T, {player}, {mask}) != 0)"
        if isinstance(goal, g.Captured):
            bit = self.taken.index(frozenset(goal.kinds)) * self.players
            return f"(((S[{TAKEN}] >> ({bit} + {player})) & 1) != 0)"
        if self.never(goal, player):
            return "False"
        name = f"goal{len(self.helpers)}"
        if isinstance(goal, g.AbsoluteConfig):
            rows = []
            for pl in range(self.players):
                cells = sorted(goal.cells(pl))
                rows.append([len(cells), *cells, *([0] * (self.size - len(cells)))])
            where = self.put(("config-cells", name), [v for row in rows for v in row])
            match = self.put(("config-match", name),
                             [0 if piece is None else
                              int(any(g._matches(piece, o, k, pl) for o, k in goal.pieces))
                              for pl in range(self.players) for piece in self.pieces])
            self.helpers.append(
                f"@njit(cache=True, inline='always')\n"
                f"def {name}(S, T, p):\n"
                f"    base = {where} + p * {self.size + 1}\n"
                f"    for i in range(T[base]):\n"
                f"        if T[{match} + p * {self.ncodes} + S[{BOARD} + T[base + 1 + i]]]:\n"
                f"            return True\n"
                f"    return False\n")
        elif isinstance(goal, g.PiecesRemaining | g.TotalPieceCount):
            kind = goal.kind
            mine = isinstance(goal, g.PiecesRemaining)
            # The counts of the piece codes the goal counts, kept up to date by play.
            self.helpers.append(
                f"@njit(cache=True, inline='always')\n"
                f"def {name}(S, T, p):\n"
                f"    n = 0\n"
                + "".join(
                    f"    if {'True' if not mine else f'{piece.owner} == p'}:\n"
                    f"        n += S[CNT + {code}]\n"
                    for code, piece in enumerate(self.pieces)
                    if piece is not None and (kind is None or piece.kind == kind))
                + "".join(
                    # ... and in hand when it counts them (PiecesRemaining.in_hand)
                    f"    if {piece.owner} == p:\n"
                    f"        n += S[RES + {self.codes[piece]}]\n"
                    for piece in self.hand
                    if mine and goal.in_hand and (kind is None or piece.kind == kind))
                + f"    return n {'<' if mine and goal.fewer else '=='} {goal.count}\n")
        elif isinstance(goal, g.PiecesLost):
            start = self.put(("lost-start", name),
                             [goal.at_start(self.game, pl) for pl in range(self.players)])
            self.helpers.append(
                f"@njit(cache=True, inline='always')\n"
                f"def {name}(S, T, p):\n"
                f"    n = 0\n"
                + "".join(
                    f"    if {piece.owner} == p:\n"
                    f"        n += S[CNT + {code}]\n"
                    for code, piece in enumerate(self.pieces)
                    if piece is not None and (goal.kind is None or piece.kind == goal.kind))
                + f"    return T[{start} + p] - n >= {goal.count}\n")
        elif isinstance(goal, g.MoreInZone):
            self.more_in_zone(name, goal)
        elif isinstance(goal, g.RelativeConfig):
            self.relative_config(name, goal, near)
            if near:
                self.near = True
                return f"({name}_near(S, T, {player}) if near else {name}(S, T, {player}))"
        else:  # pragma: no cover - _check refused it
            raise Unsupported(type(goal).__name__)
        return f"{name}(S, T, {player})"

    def more_in_zone(self, name: str, goal: g.MoreInZone) -> None:
        """The helper of a :class:`~boardlab.core.goals.MoreInZone` goal: each player's
        count of own pieces on their cells, the player's above every other's."""
        rows = []
        for pl in range(self.players):
            cells = sorted(goal.cells(pl))
            rows.append([len(cells), *cells, *([0] * (self.size - len(cells)))])
        where = self.put(("zone-cells", name), [v for row in rows for v in row])
        kind = goal.kind
        counted = self.mask_of_codes(("counted", kind),
                                     lambda piece: kind is None or piece.kind == kind)
        self.helpers.append(
            f"@njit(cache=True, inline='always')\n"
            f"def {name}_count(S, T, q):\n"
            f"    base = {where} + q * {self.size + 1}\n"
            f"    n = 0\n"
            f"    for i in range(T[base]):\n"
            f"        v = S[{BOARD} + T[base + 1 + i]]\n"
            f"        if v != 0 and T[{self.owner} + v] == q and T[{counted} + v] != 0:\n"
            f"            n += 1\n"
            f"    return n\n\n\n"
            f"@njit(cache=True, inline='always')\n"
            f"def {name}(S, T, p):\n"
            f"    mine = {name}_count(S, T, p)\n"
            f"    for q in range({self.players}):\n"
            f"        if q != p and {name}_count(S, T, q) >= mine:\n"
            f"            return False\n"
            f"    return True\n")

    def never(self, goal: g.Goal, player: str) -> bool:
        """Whether ``goal`` is a relative configuration with an item that no piece the
        kernel knows (nor an empty cell) fits for ``player`` (a number): never true
        (Connect Four's lines of the other's discs for each player), so not looked for
        at every position."""
        return isinstance(goal, g.RelativeConfig) and player.isdigit() and not all(
            any(g._fits(piece, item, int(player))  # type: ignore[arg-type]
                for piece in self.pieces) for item in goal.pattern[0::2])

    def lines_near(self, goals: Sequence[g.Goal], player: str
                   ) -> tuple[str, list[g.Goal]] | None:
        """Where two or more of ``goals`` (the parts of an or tested near the last
        move) are lines of one piece alike, n long, in various directions (Connect
        Four's four, a tic-tac-toe's): the test of them all and those goals. Near the
        last move it is one loop over their directions (a table), not a walk written
        out for each: small enough to inline in a playout's loop (see resolve). None
        where fewer are."""
        links = [self.board.player_links(pl) for pl in range(self.players)]
        found: dict[tuple[Any, int], list[g.RelativeConfig]] = {}
        for goal in goals:
            if not isinstance(goal, g.RelativeConfig):
                continue
            items, steps = goal.pattern[0::2], goal.pattern[1::2]
            if len(items) < 2 or len(set(items)) != 1 or len(set(steps)) != 1:
                continue
            codes = tuple(tuple(code for code, piece in enumerate(self.pieces)
                                if g._fits(piece, items[0], pl))  # type: ignore[arg-type]
                          for pl in range(self.players))
            if not all(len(row) <= 1 and 0 not in row for row in codes) or \
                    self.never(goal, player):
                continue
            found.setdefault((codes, len(items)), []).append(goal)
        best = max(found.items(), key=lambda kv: len(kv[1]), default=None)
        if best is None or len(best[1]) < 2:
            return None
        (codes, length), members = best
        name = f"goal{len(self.helpers)}"
        rows, whole = [], []
        for goal in members:
            part = f"goal{len(self.helpers)}"
            self.relative_config(part, goal, near=True, twin=False)
            whole.append(f"{part}(S, T, {player})")
            line = self.line_lengths(part, goal.pattern[0::2], goal.pattern[1::2], links)
            assert line is not None  # one item, one direction
            rows.extend(line)
        single = self.put(("relative-code", name), [row[0] if row else -1 for row in codes])
        ways = self.put(("line-ways", name), rows)
        size = self.size
        self.helpers.append("\n".join([
            f"@njit(cache=True, inline='always')\ndef {name}_near(S, T, p):",
            "    # The lines through each cell the last move changed, along each",
            "    # direction (its row of steps ahead and back in the table).",
            f"    code = T[{single} + p]",
            f"    for j in range(S[{NEAR}]):",
            f"        cell = S[{NEAR + 1} + j]",
            f"        if S[{BOARD} + cell] != code:",
            "            continue",
            f"        for k in range({len(members)}):",
            f"            ahead = T[{ways} + 2 * k] + p * {size}",
            f"            behind = T[{ways} + 2 * k + 1] + p * {size}",
            *("            " + line for line in self.run_through(
                length, "ahead", "behind", f"S[{BOARD} + c] == code")),
            "    return False"]) + "\n")
        self.near = True
        return (f"({name}_near(S, T, {player}) if near else ({' or '.join(whole)}))",
                members)

    def relative_config(self, name: str, goal: g.RelativeConfig, near: bool,
                        twin: bool = True) -> None:
        """The helper of a :class:`~boardlab.core.goals.RelativeConfig` goal: from each
        cell whose walk stays on the board (per player), the items in turn, unrolled;
        and where ``near`` (and ``twin``), its ``_near`` twin (see :meth:`goal`)."""
        items = goal.pattern[0::2]
        steps = goal.pattern[1::2]
        links = [self.board.player_links(pl) for pl in range(self.players)]
        starts = []
        for pl in range(self.players):
            found = []
            for cell in range(self.size):
                pos = cell
                for d in steps:
                    pos = links[pl][d][pos]  # type: ignore[index]
                    if pos < 0:
                        break
                else:
                    found.append(cell)
            starts.append([len(found), *found, *([0] * (self.size - len(found)))])
        where = self.put(("relative-starts", name), [v for row in starts for v in row])
        walk_lines = []
        for k, item in enumerate(items):
            if k:
                row = self.put(("relative-step", name, k),
                               [v for pl in range(self.players)
                                for v in links[pl][steps[k - 1]]])  # type: ignore[index]
                walk_lines.append(f"c = T[{row} + p * {self.size} + c]")
            fits = self.put(("relative-item", name, k),
                            [int(g._fits(piece, item, pl))  # type: ignore[arg-type]
                             for pl in range(self.players) for piece in self.pieces])
            walk_lines.append(f"if T[{fits} + p * {self.ncodes} + S[{BOARD} + c]] == 0:"
                              " continue")
        walk_lines.append("return True")
        # With a twin near the last move, this one is read at a game's start alone: a
        # function of its own, which may share its shape (see _merge_shapes).
        decorator = "@njit(cache=True)" if near else "@njit(cache=True, inline='always')"
        lines = [f"{decorator}\ndef {name}(S, T, p):",
                 f"    base = {where} + p * {self.size + 1}",
                 "    for i in range(T[base]):",
                 "        c = T[base + 1 + i]",
                 *("        " + line for line in walk_lines),
                 "    return False"]
        if near and twin:
            lines += ["", "", *self.relative_near(name, items, steps, links, starts,
                                                  walk_lines)]
        self.helpers.append("\n".join(lines) + "\n")

    def relative_near(self, name: str, items: Sequence[Any], steps: Sequence[str],
                      links: Sequence[Any], starts: Sequence[Sequence[int]],
                      walk_lines: Sequence[str]) -> list[str]:
        """The lines of ``{name}_near``: the relative configuration looked for only
        across the cells the last move changed (S[NEAR]), by the starts whose walk
        crosses each (from ``starts``, by player), or by the run through it of a row of
        one item alike (:meth:`line_lengths`)."""
        line = self.line_lengths(name, items, steps, links)
        codes = [[code for code, piece in enumerate(self.pieces)
                  if any(g._fits(piece, item, pl) for item in items)]  # type: ignore[arg-type]
                 for pl in range(self.players)]
        if line is not None and all(len(row) <= 1 and 0 not in row for row in codes):
            # A line of one item that at most one piece fits for each player (a line of
            # one's own discs): the cells are compared with its code (-1: none fits),
            # one load fewer a cell on the walk's chain of loads.
            single = self.put(("relative-code", name), [row[0] if row else -1 for row in codes])
            head = [f"    code = T[{single} + p]"]
            fits = f"S[{BOARD} + c] == code"
            fits_cell = f"S[{BOARD} + cell] != code"
        else:
            fits_any = self.put(("relative-any", name), [
                int(code in row) for row in codes for code in range(len(self.pieces))])
            head = []
            fits = f"T[{fits_any} + p * {self.ncodes} + S[{BOARD} + c]] != 0"
            fits_cell = f"T[{fits_any} + p * {self.ncodes} + S[{BOARD} + cell]] == 0"
        lines = [f"@njit(cache=True, inline='always')\ndef {name}_near(S, T, p):",
                 "    # Only the starts whose walk crosses a cell the last move changed",
                 "    # to a piece (or none) that some item of the pattern fits.",
                 *head,
                 f"    for j in range(S[{NEAR}]):",
                 f"        cell = S[{NEAR + 1} + j]",
                 f"        if {fits_cell}:",
                 "            continue"]
        if line is not None:
            # n alike in a row: the run of fitting cells through the cell, both ways.
            ahead, behind = (f"{row} + p * {self.size}" for row in line)
            lines += ["        " + line
                      for line in self.run_through(len(items), ahead, behind, fits)]
        else:
            # For each player and cell, the starts whose walk crosses the cell: where
            # the pattern can newly match once the cell changes.
            flat: list[int] = []
            heads: list[int] = []
            for pl in range(self.players):
                by_cell: list[list[int]] = [[] for _ in range(self.size)]
                for cell in starts[pl][1:1 + starts[pl][0]]:
                    pos = cell
                    walk = [pos]
                    for d in steps:
                        pos = links[pl][d][pos]  # type: ignore[index]
                        walk.append(pos)
                    for c in dict.fromkeys(walk):
                        by_cell[c].append(cell)
                for found in by_cell:
                    heads += [len(found), len(flat)]
                    flat += found
            near_heads = self.put(("relative-near", name), heads)
            near_starts = self.put(("relative-near-starts", name), flat)
            lines += [f"        x = {near_heads} + 2 * (p * {self.size} + cell)",
                      "        for i in range(T[x]):",
                      f"            c = T[{near_starts} + T[x + 1] + i]",
                      *("            " + line for line in walk_lines)]
        lines.append("    return False")
        return lines

    @staticmethod
    def run_through(length: int, ahead: str, behind: str, fits: str) -> list[str]:
        """The lines that count the run of cells ``fits`` (a test of cell ``c``)
        through ``cell`` along a direction, by the table rows ``ahead`` and ``behind``
        (of its steps and its steps back), and return True where it is ``length``
        long."""
        lines = ["run = 1"]
        for row in (ahead, behind):
            lines += [f"c = T[{row} + cell]",
                      f"while run < {length} and c >= 0 and {fits}:",
                      "    run += 1",
                      f"    c = T[{row} + c]"]
        return [*lines, f"if run >= {length}: return True"]

    def line_lengths(self, name: str, items: Sequence[Any], steps: Sequence[str],
                     links: Sequence[Any]) -> tuple[int, int] | None:
        """For a pattern of one item again and again, a step in one direction apart,
        where no two cells step to one cell (for any player): the table rows of that
        direction and of its way back, by player; else None. Such a pattern holds
        through a cell exactly when the run of cells the item fits through it, along
        the direction, is as long as the pattern."""
        if len(items) < 2 or len(set(items)) != 1 or len(set(steps)) != 1:
            return None
        d = steps[0]
        back = []
        for pl in range(self.players):
            row = [-1] * self.size
            for cell, nxt in enumerate(links[pl][d]):
                if nxt >= 0:
                    if row[nxt] >= 0:
                        return None
                    row[nxt] = cell
            back.extend(row)
        ahead = self.put(("relative-step", name, 1),
                         [v for pl in range(self.players) for v in links[pl][d]])
        return ahead, self.put(("relative-back", name), back)

    def resolve(self, name: str, conditions: Sequence[g.Condition]) -> None:
        """A function giving the status of the first condition to fire (by
        :meth:`Goals._resolve`'s order), or -1."""
        n = self.players
        lines = [f"@njit(cache=True)\ndef {name}(S, T):",
                 f"    mover = S[{MOVER}]",
                 "    best = 1 << 30"]
        for c in conditions:
            order = g._ORDER[c.kind]
            for p in c.players:
                # after()'s -1 says every condition false at a position that goes on
                # (moves keeps it in NEAR); stuck_conditions' says nothing of it.
                test = self.goal(c.goal, str(p), near=name == "after")
                lines.append(f"    if {test}:")
                lines.append(f"        rank = ({order * 2} + (0 if mover == {p} else 1)) * {n}"
                             f" + {p}")
                lines.append("        if rank < best: best = rank")
        if name == "after" and self.near:  # only after() asks for goals near
            lines.insert(2, f"    near = S[{NEAR}] > 0")
        lines.append("    if best == 1 << 30: return -1")
        lines.append(f"    return (best // {2 * n}) * {n} + best % {n}")
        self.helpers.append("\n".join(lines) + "\n")
        if name == "after" and len(lines) <= _INLINED_AFTER:
            # A playout's copy, inlined in run's loop: a call of after (which inlines
            # the tests near the last move) was half of a Connect Four playout's time.
            self.helpers.append("\n".join([
                "@njit(cache=True, inline='always')\ndef after_run(S, T):", *lines[1:]])
                + "\n")
            self.after_run = "after_run"
