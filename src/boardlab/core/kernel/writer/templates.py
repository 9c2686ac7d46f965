"""The kernel's writer: the templates that are not programs of instructions: groups,
lines and footprints."""

from __future__ import annotations

from boardlab.core import rules as r
from boardlab.core.kernel.layout import (
    _ARENA,
    _CAPTURE,
    _FOOT,
    _SHIFT,
    BOARD,
    MAX_MOVES,
    Status,
)


class _Shapes:
    """The part of ``_Writer`` that writes
    the templates that are not programs of instructions: groups, lines and footprints."""

    # --- group templates ------------------------------------------------------------
    def group(self, index: int, t: r.Group) -> None:
        """The moves of a group template, in the interpreter's order: for each
        direction, the single steps of the mover's pieces (in cell order), then every
        combination of them of each size (lexicographic) that :func:`gmove` keeps."""
        size, e = self.size, self.emit
        e(1, f"# template {index}: group {t.name or '(unnamed)'}")
        kinds_mask = None
        if t.kinds:
            kinds_mask = self.kinds_mask(t.kinds)
        sizes = self.put(("sizes", t.sizes), t.sizes)
        e(1, "few = 0")
        if t.all_if_fewer:
            e(1, "left = 0")
            e(1, "for _s in range(mine):")
            if kinds_mask is None:
                e(2, "left += 1")
            else:
                e(2, f"left += T[{kinds_mask} + S[{BOARD} + T[XC + _s]]]")
            e(1, f"if 0 < left < {min(t.sizes)}: few = left")
        for program in (tuple(t.single(d)) for d in t.directions):
            e(1, "ns = 0")
            e(1, "for _s in range(mine):")
            e(2, "start = T[XC + _s]")
            e(2, f"hand = S[{BOARD} + start]")
            if kinds_mask is not None:
                e(2, f"if T[{kinds_mask} + hand] == 0: continue")
            e(2, "pos = start")
            self.block(program[:-1], 2, "continue", index, t.priority)
            e(2, "if pos != start:")
            e(3, "T[XG + ns] = start")
            e(3, f"T[XG + {size} + ns] = pos")
            e(3, "ns += 1")
            e(1, f"for _k in range(1 if few else {len(t.sizes)}):")
            e(2, f"k = few if few else T[{sizes} + _k]")
            call = (f"n = gmove(S, T, n, player, {{}}, {int(t.capture)}, {index}, "
                    f"{t.priority})")
            e(2, "if k == 1:")
            e(3, "for a in range(ns):")
            e(4, call.format("a, -1, -1"))
            e(4, "if n < 0: return n")
            e(2, "elif k == 2:")
            e(3, "for a in range(ns):")
            e(4, "for b in range(a + 1, ns):")
            e(5, call.format("a, b, -1"))
            e(5, "if n < 0: return n")
            e(2, "else:")
            e(3, "for a in range(ns):")
            e(4, "for b in range(a + 1, ns):")
            e(5, "for c in range(b + 1, ns):")
            e(6, call.format("a, b, c"))
            e(6, "if n < 0: return n")
        self.has_groups = True

    def group_move(self) -> str:
        """The function that keeps or drops a group move (none without groups)."""
        if not self.has_groups:
            return ""
        return f"""@njit(cache=True)
def gmove(S, T, n, player, a, b, c, capture, index, priority):
    # Steps a < b < c of the step list (b, c: -1 for a smaller group), kept unless two
    # share a source or a target, or one lands on a piece that stays (an own piece,
    # or any piece without capture): the interpreter's product of single moves, whose
    # actions are the captures on the targets, then the shifts.
    k = 1 if b < 0 else (2 if c < 0 else 3)
    for i in range(k):
        si = T[XG + (a if i == 0 else (b if i == 1 else c))]
        ti = T[XG + {self.size} + (a if i == 0 else (b if i == 1 else c))]
        for j in range(i):
            sj = T[XG + (a if j == 0 else (b if j == 1 else c))]
            tj = T[XG + {self.size} + (a if j == 0 else (b if j == 1 else c))]
            if si == sj or ti == tj:
                return n
    top = T[XS + 1]
    w = top
    for i in range(k):
        t = T[XG + {self.size} + (a if i == 0 else (b if i == 1 else c))]
        v = S[{BOARD} + t]
        if v != 0:
            leaves = False
            for j in range(k):
                if T[XG + (a if j == 0 else (b if j == 1 else c))] == t:
                    leaves = True
            if not leaves:
                if T[{self.owner} + v] == player or capture == 0:
                    return n
                T[XA + w] = {_CAPTURE} | (t << 2)
                w += 1
    for i in range(k):
        x = a if i == 0 else (b if i == 1 else c)
        T[XA + w] = {_SHIFT} | (T[XG + x] << 2) | (T[XG + {self.size} + x] << 18)
        w += 1
    return push(T, n, top, w, index, priority)


"""

    # --- line templates ---------------------------------------------------------------
    def line(self, index: int, t: r.Line) -> None:
        """The moves of a line template, in the interpreter's order: from each piece of
        the mover's (in cell order) that passes the template's tests, each line of
        enough pieces along ``t.line`` (XG[0:ln]), moved ``t.direction`` one cell
        further at a time (the targets in XG[size:size + ln]) while every target is
        empty or a cell of the line; ``lpush`` writes each move."""
        size, e = self.size, self.emit
        e(1, f"# template {index}: line {t.name or '(unnamed)'}")
        along, ahead = self.direction(t.line), self.direction(t.direction)  # type: ignore[arg-type]
        mask = self.kinds_mask(t.kinds) if t.kinds else None
        e(1, "for _s in range(mine):")
        e(2, "start = T[XC + _s]")
        e(2, f"hand = S[{BOARD} + start]")
        if mask is not None:
            e(2, f"if T[{mask} + hand] == 0: continue")
        for line in ("hf = start", "pos = start", "q = 0", "nc = 0", "mark = -1", "to = -1"):
            e(2, line)
        reset = len(self.lines)
        self.block(t.program, 2, "continue", index, t.priority)
        self.lines[reset:reset] = self.run_resets("        ")
        friend = f"v != 0 and T[{self.owner} + v] == player"
        if mask is not None:
            friend += f" and T[{mask} + v] != 0"
        for depth, line in (
                (2, "ln = 1"),
                (2, "T[XG] = start"),
                (2, "while True:"),
                (3, f"if ln >= {t.min_size}:"),
                (4, "for _j in range(ln):"),
                (5, f"T[XG + {size} + _j] = T[XG + _j]"),
                (4, f"for _d in range({size}):"),  # a lap ends a walk that goes round
                (5, "ok = True"),
                (5, "for _j in range(ln):"),
                (6, f"tg = {ahead.format(f'T[XG + {size} + _j]')}"),
                (6, "if tg < 0:"),
                (7, "ok = False"),
                (7, "break"),
                (6, f"if S[{BOARD} + tg] != 0:"),
                (7, "inside = False"),
                (7, "for _x in range(ln):"),
                (8, "if T[XG + _x] == tg:"),
                (9, "inside = True"),
                (9, "break"),
                (7, "if not inside:"),
                (8, "ok = False"),
                (8, "break"),
                (6, f"T[XG + {size} + _j] = tg"),
                (5, "if not ok: break"),
                (5, f"n = lpush(T, n, ln, {index}, {t.priority})"),
                (5, "if n < 0: return n"),
                (3, f"nx = {along.format('T[XG + ln - 1]')}"),
                (3, "if nx < 0: break"),
                (3, f"v = S[{BOARD} + nx]"),
                (3, f"if not ({friend}): break"),
                (3, "inside = False"),
                (3, "for _x in range(ln):"),
                (4, "if T[XG + _x] == nx:"),
                (5, "inside = True"),
                (5, "break"),
                (3, "if inside: break"),
                (3, "T[XG + ln] = nx"),
                (3, "ln += 1")):
            e(depth, line)
        if "lpush" not in self.offsets:
            self.offsets["lpush"] = -1  # written once
            self.helpers.append(
                "@njit(cache=True)\n"
                "def lpush(T, n, ln, index, priority):\n"
                "    # The move of the line XG[0:ln] to XG[size:size + ln], its shifts in\n"
                "    # the line's order.\n"
                "    top = T[XS + 1]\n"
                f"    if top + ln > {_ARENA}: return {Status.QUEUE:d}\n"
                "    w = top\n"
                "    for j in range(ln):\n"
                f"        T[XA + w] = {_SHIFT} | (T[XG + j] << 2) | (T[XG + {size} + j] << 18)\n"
                "        w += 1\n"
                "    return push(T, n, top, w, index, priority)\n")

    def noted_push(self) -> str:
        """The function that adds a found move whose words go on past its ``na``
        actions (see ``noted``): written once, where the first such move is."""
        if "npush" in self.offsets:
            return ""
        self.offsets["npush"] = -1
        return """@njit(cache=True)
def npush(T, n, top, na, w, index, priority):
    # The n-th move found: the words T[XA + top:XA + w], na of them its actions, by
    # template ``index``, in no chain of duplicates (none can equal it).
    h = 0x51ED270B27
    for i in range(top, w):
        h = mix(h, T[XA + i])
    T[XN + n] = h
    T[XP + n] = priority
    T[XO + n] = top
    T[XK + n] = na | ((w - top - na) << 16)
    T[XT + n] = index
    T[XL + n] = 0
    T[XS + 1] = w
    return n + 1


"""

    # --- footprint templates ----------------------------------------------------------
    def footprint(self, index: int, t: r.Footprint) -> None:
        """The moves of a footprint template, in the interpreter's order: from each
        centre of the mover's zone (in cell order) whose footprint holds pieces of the
        mover's (of its kinds) and no other, in each direction whose cell holds one,
        the footprint one cell further at a time while the centre stays in the zone,
        up to the first that covers another piece. XG[k] holds the cell of shape
        ``k`` that moves (-1: none), XG[K + k] where it lands, and XG[2K:] the pieces
        covered; ``fpush`` writes each move."""
        size, e, k_all = self.size, self.emit, len(t.shape)
        zone = self.board.zones[t.zone]
        listed = self.put(("zone list", t.zone), [
            v for pl in range(self.players)
            for v in (len(zone.get(pl, ())), *sorted(zone.get(pl, ())),
                      *([0] * (size - len(zone.get(pl, ())))))])
        inside = self.put(("zone", t.zone), [1 if c in zone.get(pl, ()) else 0
                                             for pl in range(self.players)
                                             for c in range(size)])
        mask = self.kinds_mask(t.kinds) if t.kinds else None

        def at(centre: str, k: int) -> str:
            return centre if t.shape[k] == "" else self.direction(t.shape[k]).format(centre)

        e(1, f"# template {index}: footprint {t.name or '(unnamed)'}")
        e(1, f"for _z in range(T[{listed} + player * {size + 1}]):")
        e(2, f"origin = T[{listed} + player * {size + 1} + 1 + _z]")
        e(2, "held = 0")
        for k in range(k_all):
            e(2, f"c = {at('origin', k)}")
            e(2, f"T[XG + {k}] = -1")
            e(2, f"if c >= 0 and S[{BOARD} + c] != 0:")
            mine = f"T[{self.owner} + S[{BOARD} + c]] == player"
            if mask is not None:
                mine += f" and T[{mask} + S[{BOARD} + c]] != 0"
            e(3, f"if not ({mine}): continue")
            e(3, f"held |= {1 << k}")
            e(3, f"T[XG + {k}] = c")
        e(2, "if held == 0: continue")
        far = t.shape.index("") if "" in t.shape else None
        for d in t.directions:
            if d not in t.shape:
                continue  # no cell of the footprint's there to hold a piece
            e(2, f"if held & {1 << t.shape.index(d)}:")
            e(3, "cen = origin")
            reach = str(t.reach) if far is None else f"{size} if held & {1 << far} else {t.reach}"
            e(3, f"for _r in range({reach}):")
            e(4, f"cen = {self.direction(d).format('cen')}")
            e(4, f"if cen < 0 or T[{inside} + player * {size} + cen] == 0: break")
            e(4, "nh = 0")
            for k in range(k_all):
                e(4, f"c = {at('cen', k)}")
                e(4, f"T[XG + {k_all + k}] = c")
                e(4, f"if c >= 0 and S[{BOARD} + c] != 0:")
                e(5, "own = False")
                e(5, f"for _j in range({k_all}):")
                e(6, "if T[XG + _j] == c: own = True")
                e(5, "if not own:")
                e(6, f"T[XG + {2 * k_all} + nh] = c")
                e(6, "nh += 1")
            e(4, f"n = fpush(T, n, player, origin, cen, nh, {k_all}, {inside}, {index}, "
                 f"{t.priority})")
            e(4, "if n < 0: return n")
            e(4, "if nh > 0: break")
        if "fpush" not in self.offsets:
            self.offsets["fpush"] = -1  # written once
            self.helpers.append(f"""@njit(cache=True)
def fpush(T, n, player, origin, cen, nh, kk, inside, index, priority):
    # The move of the footprint at origin to cen: the nh pieces covered (XG[2kk:])
    # taken in cell order, then the piece of each of its kk cells (XG[k] >= 0)
    # shifted to XG[kk + k] or, out of the zone (the table's row at inside), taken
    # off; then its note, the two centres (see _FOOT).
    if n >= {MAX_MOVES}: return {Status.MOVES:d}
    top = T[XS + 1]
    if top + nh + kk + 1 > {_ARENA}: return {Status.QUEUE:d}
    for i in range(1, nh):
        x = T[XG + 2 * kk + i]
        j = i
        while j > 0 and T[XG + 2 * kk + j - 1] > x:
            T[XG + 2 * kk + j] = T[XG + 2 * kk + j - 1]
            j -= 1
        T[XG + 2 * kk + j] = x
    w = top
    for i in range(nh):
        T[XA + w] = {_CAPTURE} | (T[XG + 2 * kk + i] << 2)
        w += 1
    for k in range(kk):
        src = T[XG + k]
        if src >= 0:
            tg = T[XG + kk + k]
            if tg >= 0 and T[inside + player * {size} + tg] != 0:
                T[XA + w] = {_SHIFT} | (src << 2) | (tg << 18)
            else:
                T[XA + w] = {_CAPTURE} | (src << 2)
            w += 1
    na = w - top
    T[XA + w] = {_FOOT} | origin | (cen << 16)
    return npush(T, n, top, na, w + 1, index, priority)
""")
            self.helpers.append(self.noted_push())
