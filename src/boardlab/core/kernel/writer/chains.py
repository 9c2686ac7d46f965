"""The kernel's writer: move filters (the majority rule) and the search of chains of
partial moves."""

from __future__ import annotations

from boardlab.core import rules as r
from boardlab.core.kernel.layout import (
    _ARENA,
    _CAPTURE,
    _CHANGE,
    _CHANGES,
    _EDGES,
    _HIST,
    _NODES,
    _PLACE,
    _QUEUE,
    _SHIFT,
    _STEP_MARK,
    _STEPS,
    BOARD,
    KEY,
    LAST,
    MAX_MOVES,
    Status,
)
from boardlab.core.kernel.writer.sizes import _HAND_KEYS
from boardlab.core.move import Piece


class _Chains:
    """The part of ``_Writer`` that writes
    move filters (the majority rule) and the search of chains of partial moves."""

    # --- move filters and chains of partial moves ---------------------------------
    def maximal(self) -> str:
        """The move filter of draughts' majority rule (rules.MaximalCaptures: ZRF's
        ``maximal captures``): the moves whose captures weigh the most, in order."""
        select = self.game.move_rules.select
        if select is None:
            return ""
        assert isinstance(select, r.MaximalCaptures)
        if select.kings_first:
            kings = self.mask_of_codes(("not men", select.men),
                                       lambda p: p.kind != select.men)
            weigh = "(kings << 20) | c"
            count = (f"            if p != 0 and T[{kings} + p] != 0:\n"
                     "                kings += 1\n")
        else:
            weigh, count = "c", ""
        return f'''@njit(cache=True)
def weight(S, T, i):
    c = 0
    kings = 0
    for j in range(T[XO + i], T[XO + i] + {self.actions_of("T[XK + i]")}):
        a = T[XA + j]
        if a & 3 == {_CAPTURE}:
            c += 1
            p = S[{BOARD} + ((a >> 2) & 65535)]
{count}    return {weigh}


@njit(cache=True)
def maximal(S, T, n):
    best = -1
    for i in range(n):
        w = weight(S, T, i)
        if w > best:
            best = w
    k = 0
    for i in range(n):
        if weight(S, T, i) == best:
            kept(T, k, i)
            k += 1
    return k


'''

    def hand_key_lines(self) -> str:
        """The lines of a loop over the touched cells (``cell``, ``old``, ``new``) that
        turn ``key`` for a count in hand (a cell from ``HAND`` on), when any is kept."""
        if not self.reserved:
            return ""
        return ("        if cell >= HAND:\n"
                f"            row = {self.hand_keys} + (cell - HAND) * {_HAND_KEYS}\n"
                f"            key ^= T[row + min(old, {_HAND_KEYS - 1})] ^ "
                f"T[row + min(new, {_HAND_KEYS - 1})]\n"
                "            continue\n")

    def last_key_lines(self) -> str:
        """The lines that turn ``key`` from the last move's cells ``l0`` (before) to
        those in S now (none when the key does not read them)."""
        if self.last_keys < 0:
            return ""
        size = self.size
        return "".join(f"    {line}\n" for line in (
            f"l1 = S[{LAST}]",
            "if l0 != l1:",
            "    if l0 >> 16:",
            f"        key ^= T[{self.last_keys} + (l0 & 65535)] ^ "
            f"T[{self.last_keys + size + 1} + (l0 >> 16)]",
            "    if l1 >> 16:",
            f"        key ^= T[{self.last_keys} + (l1 & 65535)] ^ "
            f"T[{self.last_keys + size + 1} + (l1 >> 16)]"))

    def actions_of(self, count: str) -> str:
        """The count of a found move's actions, from its count of words ``count``
        (a chain's has its steps' above, see cpush)."""
        return f"({count} & 65535)" if self.noted else count

    def chain_regions(self) -> list[tuple[str, int]]:
        """The scratch the search of chains uses (none without partial moves): the
        steps found (start and count of words, template, type, cell, next last step of
        the same position), the positions reached and the steps between them, the
        search's frames and history rows, and what composing a chain needs."""
        if not self.partial_types:
            return []
        rows = self.game.move_rules.max_chain + 2
        return [("XW", 6 * _STEPS), ("NC", 1), ("NK", _NODES), ("NL", _NODES), ("NO", _NODES),
                ("NEH", _NODES), ("NET", _NODES), ("NLH", _NODES), ("NLT", _NODES),
                ("NPL", _NODES), ("NPA", _NODES), ("NPS", _NODES), ("NCO", _NODES),
                ("NSL", _NODES), ("TS", _NODES), ("EN", 2 * _NODES), ("BQ", _NODES),
                ("SOK", _NODES), ("SOI", _NODES),
                ("HS", 2 * _NODES), ("ETO", _EDGES), ("ERC", _EDGES), ("ENX", _EDGES),
                ("FR", 8 * rows), ("HC", _HIST * rows), ("PB", rows),
                ("CST", self.size), ("COG", self.size), ("CPC", self.size),
                ("CRS", self.size), ("CTL", self.size), ("LT", 3 * _QUEUE),
                ("DB", _QUEUE + 3 + _CHANGES)]

    def chains(self) -> str:
        """The functions that play chains of partial moves out (rules.Rules._chains,
        the interpreter's search, step for step): ``record`` keeps a step a template
        makes; each template that goes on with a chain is written once more to run
        from the cell the chain's piece stands on (``cont``); ``chains`` searches, for
        each priority, the positions the first steps lead to (each once, Tarjan's way:
        where the steps go round in a cycle, a chain may end in it), then adds a move
        for each way a chain ends, by a shortest chain, as ``ccompose`` composes its
        steps (rules.compose), its steps' words after its actions for its notation."""
        if not self.partial_types:
            return ""
        rules = self.game.move_rules
        templates = self.templates
        bodies: list[list[str] | None] = []
        going = {k for row in self.going_on for k in row}
        self.continuing = True
        for index in range(len(templates)):
            if index not in going:
                bodies.append(None)
                continue
            bodies.append(self.from_start(index, owned=True))
        self.continuing = False
        parts, table, width, calls = self.shaped(bodies, "cont", "S, T, player, start", "0")
        dispatch = "".join(f"    {'if' if k == 0 else 'elif'} T[row] == {k}:\n"
                           f"        return {call}\n" for k, call in enumerate(calls))
        starts, flat = [], []
        for row in self.going_on:
            starts.append(len(flat))
            flat.extend(row)
        starts.append(len(flat))
        goes = self.put("going on starts", starts)
        going_list = self.put("going on", flat)
        prio = self.put("priorities", [t.priority for t in templates])
        # The rules' bound on the steps a position's chains take to explore (a table
        # value, not the source's: rules that differ in it alone share a kernel).
        bound = self.put("most steps", [rules.max_chains])
        maxc = rules.max_chain
        n_stops = "True" if rules.pass_partial else "False"
        z = self.zobrist
        npieces = len(self.pieces) - 1
        last_key = self.last_key_lines()
        if rules.deferred_captures:
            # A piece a step takes stays, owned by nobody, until the chain ends: a step
            # that would take it again is not played (rules.Rules._chains).
            taken = self.put("taken pieces", [0] + [
                self.codes[Piece(-1, p.kind, p.attributes)] for p in self.pieces[1:]])
            deferred = "".join(f"    {line}\n" for line in (
                "at = DB",
                "for i in range(T[r + 1]):",
                "    a = T[XA + T[r] + i]",
                f"    c = S[{BOARD} + ((a >> 2) & 65535)]",
                f"    if a & 3 == {_CAPTURE} and c != 0:",
                f"        if T[{self.owner} + c] == -1:",
                "            return -100, key",
                f"        a = {_CHANGE} | (a & {(1 << 18) - 1}) | (T[{taken} + c] << 18)",
                "    T[DB + i] = a"))
        else:
            deferred = "    at = XA + T[r]\n"
        return f'''{self.noted_push()}{parts}@njit(cache=True)
def cont(S, T, index, player, start):
    row = {table} + index * {width}
{dispatch}    return 0


@njit(cache=True)
def record(S, T, pos, hand, hf, q, nc, becomes, copy, rsv, index, kind):
    # A step a template makes (its words at the words' top): of a partial move of
    # type ``kind``, or (-1) a step that ends a chain.
    top = T[XS + 1]
    w = compose(S, T, pos, hand, hf, q, nc, becomes, copy, rsv)
    if w == {Status.NO_MOVE:d}:  # a promotion the hand holds no piece for: no step
        return 0
    if w < 0:
        return w
    k = T[XS + 2]
    if k >= {_STEPS}:
        return {Status.CHAINS:d}
    r = XW + 6 * k
    T[r] = top
    T[r + 1] = w - top
    T[r + 2] = index
    T[r + 3] = kind
    T[r + 4] = pos
    T[r + 5] = -1
    T[XS + 1] = w
    T[XS + 2] = k + 1
    return 0


@njit(cache=True)
def cstep(S, T, H, h, r, key):
    # The step r made on S (its changes kept in row h of H): the cells it touched
    # and the position's new key (-100: a step not played).
    l0 = S[{LAST}]
{deferred}    k = mplay(S, H, T, h, at, T[r + 1])
    if k < 0:
        return k, key
    for j in range(k):
        cell = H[h, 5 + 2 * j]
        old = H[h, 6 + 2 * j]
        new = S[{BOARD} + cell]
{self.hand_key_lines()}        if old != new:
            if old != 0:
                key ^= T[{z} + cell * {npieces} + old - 1]
            if new != 0:
                key ^= T[{z} + cell * {npieces} + new - 1]
{last_key}    return k, key


@njit(cache=True)
def cundo(S, H, h, k, last):
    for j in range(k - 1, -1, -1):
        S[{BOARD} + H[h, 5 + 2 * j]] = H[h, 6 + 2 * j]
    S[{LAST}] = last


@njit(cache=True)
def follow(T, p, a, ri, edges):
    # The step ri from position p to a (the first step to a kept), Tarjan's low.
    e = T[NEH + p]
    while e >= 0:
        if T[ETO + e] == a:
            break
        e = T[ENX + e]
    if e < 0:
        if edges >= {_EDGES}:
            return {Status.CHAINS:d}
        T[ETO + edges] = a
        T[ERC + edges] = ri
        T[ENX + edges] = -1
        if T[NET + p] < 0:
            T[NEH + p] = edges
        else:
            T[ENX + T[NET + p]] = edges
        T[NET + p] = edges
        edges += 1
    if T[NO + a] != 0 and T[NL + a] < T[NL + p]:
        T[NL + p] = T[NL + a]
    return edges


@njit(cache=True)
def node(T, key, nodes, top):
    # The position of ``key``: found (its number), or made (number nodes + 1 << 32;
    # -16 when there is no room).
    slot = spread(key) & {2 * _NODES - 1}
    while True:
        v = T[HS + slot] - 1  # 0: a free slot
        if v < 0:
            break
        if T[NK + v] == key:
            return v
        slot = (slot + 1) & {2 * _NODES - 1}
    if nodes >= {_NODES}:
        return {Status.CHAINS:d}
    v = nodes
    T[HS + slot] = v + 1
    T[NSL + v] = slot
    T[NK + v] = key
    T[NL + v] = v
    T[NO + v] = 1
    T[NEH + v] = -1
    T[NET + v] = -1
    T[NLH + v] = -1
    T[NLT + v] = -1
    T[NCO + v] = -1
    T[TS + top] = v
    return v | (1 << 32)


@njit(cache=True)
def ends(T, x, top, count):
    # Position x closes a strongly connected component of the positions: its members
    # (off Tarjan's stack) become ends, each with whether a chain may stop there.
    start = top - 1
    while T[TS + start] != x:
        start -= 1
    for i in range(start, top):
        T[NCO + T[TS + i]] = x
        T[NO + T[TS + i]] = 0
    closed = True
    loop = top - start > 1
    for i in range(start, top):
        m = T[TS + i]
        e = T[NEH + m]
        while e >= 0:
            if T[NCO + T[ETO + e]] != x:
                closed = False
            if m == x and T[ETO + e] == x:
                loop = True
            e = T[ENX + e]
    for i in range(top - 1, start - 1, -1):
        m = T[TS + i]
        T[EN + 2 * count] = m
        T[EN + 2 * count + 1] = 1 if {n_stops} or (T[NLH + m] < 0 and (
            T[NEH + m] < 0 or (closed and loop))) else 0
        count += 1
    return start, count


@njit(cache=True)
def ctouch(T, c, nt):
    if T[CST + c] == 0:
        T[CTL + nt] = c
        return nt + 1
    return nt


@njit(cache=True)
def ccompose(S, T, count):
    # The actions of the chain of steps T[PB:PB + count] as one move (rules.compose),
    # written at the words' top: their end (-14: no room).
    if count == 1:
        # One step that takes pieces (in the order of their cells, each there) and
        # moves one piece elsewhere, maybe changing it there: its words are the move's
        # as they stand (a checkers jump), as the composition below would write them.
        r = XW + 6 * T[PB]
        at = XA + T[r]
        m = T[r + 1]
        j = 0
        c = -1
        while j < m and T[at + j] & 3 == {_CAPTURE}:
            d = (T[at + j] >> 2) & 65535
            if d <= c or S[{BOARD} + d] == 0:
                break
            c = d
            j += 1
        a = T[at + j] if j < m else 0
        f = (a >> 2) & 65535
        t = (a >> 18) & 65535
        plain = j < m and a & 3 == {_SHIFT} and f != t and S[{BOARD} + f] != 0 and (
            j + 1 == m or (j + 2 == m and T[at + j + 1] & 3 == {_CHANGE} and
                           (T[at + j + 1] >> 2) & 65535 == t))
        # Nor does it take the moving piece, or land on a piece it does not take.
        free = S[{BOARD} + t] == 0
        for i in range(j):
            d = (T[at + i] >> 2) & 65535
            if d == f:
                plain = False
            elif d == t:
                free = True
        if plain and free:
            top = T[XS + 1]
            if top + m > {_ARENA}:
                return {Status.QUEUE:d}
            for i in range(m):
                T[XA + top + i] = T[at + i]
            return top + m
    nt = 0
    for s in range(count):
        r = XW + 6 * T[PB + s]
        at = XA + T[r]
        m = T[r + 1]
        nl = 0
        for i in range(m):
            a = T[at + i]
            if a & 3 == {_SHIFT}:
                c = (a >> 2) & 65535
                if T[CST + c] == 2:
                    T[LT + 3 * nl] = T[COG + c]
                    T[LT + 3 * nl + 1] = T[CPC + c]
                    T[LT + 3 * nl + 2] = T[CRS + c]
                elif T[CST + c] == 1 or S[{BOARD} + c] == 0:
                    T[LT + 3 * nl] = -2
                else:
                    T[LT + 3 * nl] = c
                    T[LT + 3 * nl + 1] = S[{BOARD} + c]
                    T[LT + 3 * nl + 2] = 0
                nl += 1
        # The captured cells and the shifts' sources empty (the cells touched are a
        # set, put in order below).
        for i in range(m):
            a = T[at + i]
            if a & 3 == {_CAPTURE} or a & 3 == {_SHIFT}:
                c = (a >> 2) & 65535
                nt = ctouch(T, c, nt)
                T[CST + c] = 1
        j = 0
        for i in range(m):
            a = T[at + i]
            if a & 3 == {_SHIFT}:
                c = (a >> 18) & 65535
                nt = ctouch(T, c, nt)
                if T[LT + 3 * j] == -2:
                    T[CST + c] = 1
                else:
                    T[CST + c] = 2
                    T[COG + c] = T[LT + 3 * j]
                    T[CPC + c] = T[LT + 3 * j + 1]
                    T[CRS + c] = T[LT + 3 * j + 2]
                j += 1
        for i in range(m):
            a = T[at + i]
            k = a & 3
            if k == {_PLACE} or k == {_CHANGE}:
                c = (a >> 2) & 65535
                fr = (a >> 34) & 1
                if k == {_CHANGE} and T[CST + c] == 2:
                    T[CRS + c] = T[CRS + c] | fr
                elif k == {_CHANGE} and T[CST + c] == 0 and S[{BOARD} + c] != 0:
                    T[COG + c] = c
                    T[CRS + c] = fr
                else:
                    T[COG + c] = -1
                    T[CRS + c] = fr
                nt = ctouch(T, c, nt)
                T[CST + c] = 2
                T[CPC + c] = (a >> 18) & 65535
    # The cells in order.
    for i in range(1, nt):
        c = T[CTL + i]
        j = i - 1
        while j >= 0 and T[CTL + j] > c:
            T[CTL + j + 1] = T[CTL + j]
            j -= 1
        T[CTL + j + 1] = c
    top = T[XS + 1]
    if top + 3 * nt > {_ARENA}:
        return {Status.QUEUE:d}
    w = top
    for i in range(nt):
        c = T[CTL + i]
        if S[{BOARD} + c] == 0:
            continue
        alive = False
        for j in range(nt):
            d = T[CTL + j]
            if T[CST + d] == 2 and T[COG + d] == c:
                alive = True
                break
        if not alive:
            T[XA + w] = {_CAPTURE} | (c << 2)
            w += 1
    for i in range(nt):
        c = T[CTL + i]
        if T[CST + c] == 2 and T[COG + c] >= 0 and T[COG + c] != c:
            T[XA + w] = {_SHIFT} | (T[COG + c] << 2) | (c << 18)
            w += 1
    for i in range(nt):
        c = T[CTL + i]
        if T[CST + c] != 2:
            continue
        o = T[COG + c]
        if o < 0:
            T[XA + w] = {_PLACE} | (c << 2) | (T[CPC + c] << 18) | (T[CRS + c] << 34)
            w += 1
        elif T[CPC + c] != S[{BOARD} + o] or T[CRS + c] != 0:
            T[XA + w] = {_CHANGE} | (c << 2) | (T[CPC + c] << 18) | (T[CRS + c] << 34)
            w += 1
    for i in range(nt):
        T[CST + T[CTL + i]] = 0
    return w


@njit(cache=True)
def cpush(S, T, n, count, priority, firsts):
    # The move of the chain T[PB:PB + count], unless it does nothing or an equal one
    # of its priority came before (rules.Rules.generate's keep); its template is the
    # first's of the first steps whose words are its first step's.
    top = T[XS + 1]
    w = ccompose(S, T, count)
    if w < 0:
        return w
    na = w - top
    if na == 0:
        return n
    for o in range(n):
        if T[XP + o] != priority or T[XK + o] & 65535 != na:
            continue
        same = True
        for i in range(na):
            if T[XA + T[XO + o] + i] != T[XA + top + i]:
                same = False
                break
        if same:
            return n
    for s in range(count):
        r = XW + 6 * T[PB + s]
        if w + 1 + T[r + 1] > {_ARENA}:
            return {Status.QUEUE:d}
        T[XA + w] = {_STEP_MARK} | T[r + 1]
        w += 1
        for i in range(T[r + 1]):
            T[XA + w] = T[XA + T[r] + i]
            w += 1
    f = XW + 6 * T[PB]
    template = T[f + 2]
    for g in range(firsts):
        r = XW + 6 * g
        if T[{prio} + T[r + 2]] != priority or T[r + 1] != T[f + 1]:
            continue
        same = True
        for i in range(T[r + 1]):
            if T[XA + T[r] + i] != T[XA + T[f] + i]:
                same = False
                break
        if same:
            template = T[r + 2]
            break
    if n >= {MAX_MOVES}:
        return {Status.MOVES:d}
    return npush(T, n, top, na, w, template, priority)


@njit(cache=True)
def single(S, T, H, player, n, priority, firsts, budget):
    # The chains of the first steps of ``priority`` where none goes on (a jump that
    # cannot jump again): each step played, the templates that go on run from its
    # cell, the step taken back. Where none finds a step, each position the steps
    # reach (but the start) is an end of a chain of one step, in the order first
    # reached, by the first step to reach it: what search finds, without its graph.
    # Whether it was so, the moves added to the n found and the budget left; else
    # nothing changed (search then explores the chains).
    root = S[{KEY}]
    ends = 0
    spent = 0
    for ri in range(firsts):
        r = XW + 6 * ri
        if T[{prio} + T[r + 2]] != priority:
            continue
        if T[r + 3] < 0 or spent >= budget:
            # A step that ends a chain at the start, or the bound met: search says it.
            return False, n, budget
        spent += 1
        last = S[{LAST}]
        k, after = cstep(S, T, H, 1, r, root)
        if k == -100:
            continue
        if k < 0:
            return True, k, budget
        kind = T[r + 3]
        at = T[{goes} + kind]
        on = False
        for t in range(T[{goes} + kind + 1] - at if {maxc} > 1 else 0):
            rc = cont(S, T, T[{going_list} + at + t], player, T[r + 4])
            if rc < 0:
                cundo(S, H, 1, k, last)
                T[XS + 2] = firsts
                return True, rc, budget
            if T[XS + 2] > firsts:
                on = True
                break
        T[XS + 2] = firsts
        cundo(S, H, 1, k, last)
        if on:
            return False, n, budget
        if after == root:
            continue
        known = False
        for e in range(ends):
            if T[NK + e] == after:
                known = True
                break
        if not known:
            if ends >= {_NODES - 1}:
                # As many positions as search has room for (its start counts).
                return True, {Status.CHAINS:d}, budget
            T[NK + ends] = after
            T[NL + ends] = ri
            ends += 1
    for e in range(ends):
        T[PB] = T[NL + e]
        n = cpush(S, T, n, 1, priority, firsts)
        if n < 0:
            break
    return True, n, budget - spent


@njit(cache=True)
def search(S, T, player, n, priority, firsts, budget):
    # The chains of the first steps of ``priority`` (rules.Rules._chains): their moves
    # added to the n found, and the budget of steps left. The positions met are
    # counted at T[NC] (chains frees their slots, whatever the search ends with).
    H = T[HC:HC + {_HIST * (maxc + 2)}].reshape(({maxc + 2}, {_HIST}))
    done, n, left = single(S, T, H, player, n, priority, firsts, budget)
    if done or n < 0:
        return n, left
    key = S[{KEY}]
    v = node(T, key, 0, 0)
    if v < 0:
        return v, budget
    nodes = 1
    T[NC] = 1
    top = 1
    edges = 0
    count = 0
    T[FR] = 0
    T[FR + 1] = 1 << 30
    T[FR + 2] = 0
    T[FR + 3] = firsts
    d = 0
    err = 0
    while True:
        f = FR + 8 * d
        ri = T[f + 2]
        if ri < T[f + 3]:
            T[f + 2] = ri + 1
            r = XW + 6 * ri
            if d == 0 and T[{prio} + T[r + 2]] != priority:
                continue
            x = T[f]
            if T[r + 3] < 0:
                # A step that ends a chain here.
                if T[NLT + x] < 0:
                    T[NLH + x] = ri
                else:
                    T[XW + 6 * T[NLT + x] + 5] = ri
                T[NLT + x] = ri
                continue
            budget -= 1
            if budget < 0:
                err = {Status.CHAIN_BOUND:d}
                break
            last = S[{LAST}]
            k, after = cstep(S, T, H, d + 1, r, key)
            if k == -100:
                continue
            if k < 0:
                err = k
                break
            v = node(T, after, nodes, top)
            if v < 0 or v >> 32 == 0:
                cundo(S, H, d + 1, k, last)
                if v < 0:
                    err = v
                    break
                edges = follow(T, x, v, ri, edges)
                if edges < 0:
                    err = edges
                    break
                continue
            nodes += 1
            T[NC] = nodes
            top += 1
            d += 1
            g = FR + 8 * d
            T[g] = v & 0xFFFFFFFF
            T[g + 1] = 0 if d < {maxc} else 1 << 30
            T[g + 2] = 0
            T[g + 3] = 0
            T[g + 4] = key
            T[g + 5] = last
            T[g + 6] = k
            T[g + 7] = ri
            key = after
            continue
        if d > 0:
            # The next template that goes on from this position's cell.
            t = T[f + 1]
            r = XW + 6 * T[f + 7]
            kind = T[r + 3]
            at = T[{goes} + kind]
            if t < T[{goes} + kind + 1] - at:
                T[f + 1] = t + 1
                a = T[XS + 2]
                rc = cont(S, T, T[{going_list} + at + t], player, T[r + 4])
                if rc < 0:
                    err = rc
                    break
                T[f + 2] = a
                T[f + 3] = T[XS + 2]
                continue
        x = T[f]
        if T[NL + x] == x:
            top, count = ends(T, x, top, count)
        if d == 0:
            break
        cundo(S, H, d, T[f + 6], T[f + 5])
        key = T[f + 4]
        d -= 1
        edges = follow(T, T[FR + 8 * d], x, T[f + 7], edges)
        if edges < 0:
            err = edges
            break
    if err < 0:
        # The steps made so far taken back: the position is as it was.
        while d > 0:
            f = FR + 8 * d
            cundo(S, H, d, T[f + 6], T[f + 5])
            d -= 1
        return err, budget
    # A shortest chain to each position, breadth first.
    for v in range(nodes):
        T[NPL + v] = -1
    T[NPL] = 0
    T[BQ] = 0
    head = 0
    tail = 1
    while head < tail:
        v = T[BQ + head]
        head += 1
        e = T[NEH + v]
        while e >= 0:
            a = T[ETO + e]
            if T[NPL + a] < 0:
                T[NPL + a] = T[NPL + v] + 1
                T[NPA + a] = v
                T[NPS + a] = T[ERC + e]
                T[BQ + tail] = a
                tail += 1
            e = T[ENX + e]
    # The ends by the length of their chain, then their node: an insertion sort of
    # their indices (a few ends; numba's own sort costs seconds of compilation), in
    # the table's scratch (arrays of their own cost an allocation at every search).
    for i in range(count):
        key = T[NPL + T[EN + 2 * i]] * {_NODES} + T[EN + 2 * i]
        j = i
        while j > 0 and T[SOK + j - 1] > key:
            T[SOK + j] = T[SOK + j - 1]
            T[SOI + j] = T[SOI + j - 1]
            j -= 1
        T[SOK + j] = key
        T[SOI + j] = i
    for o in range(count):
        i = T[SOI + o]
        x = T[EN + 2 * i]
        length = T[NPL + x]
        v = x
        for j in range(length - 1, -1, -1):
            T[PB + j] = T[NPS + v]
            v = T[NPA + v]
        e = T[NLH + x]
        while e >= 0:
            T[PB + length] = e
            n = cpush(S, T, n, length + 1, priority, firsts)
            if n < 0:
                return n, budget
            e = T[XW + 6 * e + 5]
        if T[EN + 2 * i + 1] != 0 and x != 0:
            n = cpush(S, T, n, length, priority, firsts)
            if n < 0:
                return n, budget
    return n, budget


@njit(cache=True)
def chains(S, T, player, n):
    # The moves of the chains the first steps found since the last call begin, a
    # priority at a time in the order they were first found (the interpreter's). The
    # steps the search may take are the position's (T[XS + 3]: those taken so far).
    done = T[XS + 4]
    firsts = T[XS + 2]
    budget = T[{bound}] - T[XS + 3]
    for i in range(done, firsts):
        p = T[{prio} + T[XW + 6 * i + 2]]
        known = False
        for j in range(i):
            if T[{prio} + T[XW + 6 * j + 2]] == p:
                known = True
                break
        if known:
            continue
        n, budget = search(S, T, player, n, p, firsts, budget)
        for v in range(T[NC]):
            T[HS + T[NSL + v]] = 0
        T[NC] = 0
        T[XS + 2] = firsts
        if n < 0:
            return n
    T[XS + 3] = T[{bound}] - budget
    T[XS + 4] = firsts
    return n


'''
