"""The kernel's writer: the rules of whole moves: line templates, group tests and
invariants, cut-off groups, mirror images."""

from __future__ import annotations

from boardlab.core import rules as r
from boardlab.core.kernel.layout import (
    _ARENA,
    _CAPTURE,
    _HIST,
    _NOTE,
    _PLACE,
    _SHIFT,
    BOARD,
    FOLLOW,
    LAST,
    MAX_MOVES,
    Status,
)
from boardlab.core.move import Piece


class _WholeMoves:
    """The part of ``_Writer`` that writes
    the rules of whole moves: line templates, group tests and invariants, cut-off
    groups, mirror images."""

    # --- rules of whole moves -------------------------------------------------------
    def group_links(self, directions: tuple[str, ...] | None) -> int:
        """Where the table lists each cell's neighbours along ``directions`` (board
        directions, all when None; groups.neighbour_masks): from ``nb`` it returns,
        cell c's run from T[nb + c] to T[nb + c + 1], each an index from nb."""
        name = ("group links", directions)
        if name not in self.offsets:
            board = self.board
            rows = board.links if directions is None else \
                [board.links[board.direction_index(d)] for d in directions]
            cells = [sorted({row[c] for row in rows if row[c] >= 0})
                     for c in range(self.size)]
            starts = [0]
            for found in cells:
                starts.append(starts[-1] + len(found))
            self.put(name, [v + self.size + 1 for v in starts])
            self.put(("group link cells", directions), [c for found in cells for c in found])
        return self.offsets[name]

    def whole_moves(self) -> tuple[str, list[str], list[str]]:
        """The functions of the rules of whole moves (written before the links' table,
        as they name directions): the tests of the mover's group that generate reads
        as it starts, the lines of its tail that run the rules on the moves found
        (turns of two plies, what a capture cuts off, the invariants), and their
        source (see rules.FollowUp, rules.KeepLargestGroup, rules.StaysConnected,
        rules.NotMirrored)."""
        size, owner = self.size, self.owner
        parts: list[str] = []
        head = [f"    T[XCN + {slot}] = 1 if one_group(S, T, player, "
                f"{self.group_links(directions)}) else 0"
                for directions, slot in self.connections.items()]
        tail: list[str] = []
        groups = bool(self.connections) or any(isinstance(inv, r.StaysConnected)
                                               for inv in self.invariants)
        if groups:
            parts.append(f"""@njit(cache=True)
def one_group(S, T, player, nb):
    # Whether ``player``'s pieces form one group (groups.is_one_group): a search from
    # the first through the cells stamped as theirs (T[XI]: the stamp; a stamp and
    # the next a call: nothing is cleared).
    T[XI] += 2
    stamp = T[XI]
    count = 0
    first = -1
    for c in range({size}):
        v = S[{BOARD} + c]
        if v != 0 and T[{owner} + v] == player:
            T[XI + 1 + c] = stamp
            count += 1
            if first < 0:
                first = c
    if count < 2:
        return True
    T[XI + 1 + first] = stamp + 1
    T[XI + {1 + size}] = first
    top = 1
    seen = 1
    while top > 0:
        top -= 1
        c = T[XI + {1 + size} + top]
        for e in range(T[nb + c], T[nb + c + 1]):
            d = T[nb + e]
            if T[XI + 1 + d] == stamp:
                T[XI + 1 + d] = stamp + 1
                seen += 1
                T[XI + {1 + size} + top] = d
                top += 1
    return seen == count
""")
        rule = self.along
        if rule is not None:
            walks = []
            for d in rule.along:
                row = self.direction(d)
                walks += ["        if not along:",
                          f"            c = {row.format('src')}",
                          f"            for _ in range({size}):",
                          "                if c < 0: break",
                          "                if c == dst:",
                          "                    along = True",
                          "                    break",
                          f"                c = {row.format('c')}"]
            walk = "\n".join(walks)
            parts.append(f"""@njit(cache=True)
def prepares(T, at, count, player):
    # Whether the move of the ``count`` words at T[at:] is one that gives its player
    # a second ply (rules.FollowUp.follows): of a piece at least, each going along
    # one of the rule's directions (a walk of a lap at most).
    found = False
    for i in range(count):
        a = T[at + i]
        if a & 3 != {_SHIFT}:
            continue
        src = (a >> 2) & 65535
        dst = (a >> 18) & 65535
        along = False
{walk}
        if not along:
            return False
        found = True
    return found
""")
            parts.append(f"""@njit(cache=True)
def second_filter(S, T, player, n):
    # The moves found less those that give a second ply (none in the second ply).
    k = 0
    for i in range(n):
        if not prepares(T, XA + T[XO + i], {self.actions_of("T[XK + i]")}, player):
            kept(T, k, i)
            k += 1
    return k
""")
            tail += [f"    if S[{FOLLOW}] >= 0:",
                     "        n = second_filter(S, T, player, n)"]
        cut = self.cut_off
        if cut is not None:
            nb = self.group_links(cut.directions)
            labels, sizes, firsts = (f"XI + {1 + k * size}" for k in (2, 3, 4))
            parts.append(f"""@njit(cache=True)
def groups(S, T, player, nb):
    # The groups of ``player``'s pieces (groups.groups_of), in the order of their first
    # cells: their count; each cell's group in T[{labels} + c] (-1: none), each
    # group's size and first cell in T[{sizes} + g] and T[{firsts} + g].
    for c in range({size}):
        v = S[{BOARD} + c]
        T[{labels} + c] = -2 if v != 0 and T[{owner} + v] == player else -1
    ng = 0
    for c in range({size}):
        if T[{labels} + c] != -2:
            continue
        T[{labels} + c] = ng
        T[XI + {1 + size}] = c
        top = 1
        count = 1
        while top > 0:
            top -= 1
            x = T[XI + {1 + size} + top]
            for e in range(T[nb + x], T[nb + x + 1]):
                d = T[nb + e]
                if T[{labels} + d] == -2:
                    T[{labels} + d] = ng
                    count += 1
                    T[XI + {1 + size} + top] = d
                    top += 1
        T[{sizes} + ng] = count
        T[{firsts} + ng] = c
        ng += 1
    return ng


@njit(cache=True)
def cutoff(S, T, player, n):
    # The moves found as rules.KeepLargestGroup makes them: a move that captures, after
    # which the other player's pieces form several groups, becomes one move for each
    # largest group, which stays while the others are captured too (each cell of them
    # in order); where there are several, the move's words end with a note of the
    # kept group's first cell (_NOTE). The new list is written past the n moves, then
    # moved down.
    H = T[XU:XU + {_HIST}].reshape((1, {_HIST}))
    last = S[{LAST}]
    other = 1 - player
    m = n
    for i in range(n):
        at = XA + T[XO + i]
        count = T[XK + i]
        takes = False
        for j in range(count):
            if T[at + j] & 3 == {_CAPTURE}:
                takes = True
                break
        ng = 0
        if takes:
            touched = mplay(S, H, T, 0, at, count)
            if touched < 0:
                return touched
            ng = groups(S, T, other, {nb})
            for j in range(touched - 1, -1, -1):
                S[{BOARD} + H[0, 5 + 2 * j]] = H[0, 6 + 2 * j]
            S[{LAST}] = last
        if ng < 2:
            if m >= {MAX_MOVES}:
                return {Status.MOVES:d}
            kept(T, m, i)
            m += 1
            continue
        biggest = 0
        ties = 0
        for x in range(ng):
            if T[{sizes} + x] > biggest:
                biggest = T[{sizes} + x]
                ties = 1
            elif T[{sizes} + x] == biggest:
                ties += 1
        for x in range(ng):
            if T[{sizes} + x] != biggest:
                continue
            if m >= {MAX_MOVES}:
                return {Status.MOVES:d}
            top = T[XS + 1]
            if top + count + {size + 1} > {_ARENA}:
                return {Status.QUEUE:d}
            w = top
            for j in range(count):
                T[XA + w] = T[at + j]
                w += 1
            for c in range({size}):
                if T[{labels} + c] >= 0 and T[{labels} + c] != x:
                    T[XA + w] = {_CAPTURE} | (c << 2)
                    w += 1
            words = w - top
            if ties > 1:
                T[XA + w] = {_NOTE} | T[{firsts} + x]
                w += 1
            h = 0x51ED270B27
            for j in range(top, w):
                h = mix(h, T[XA + j])
            T[XN + m] = h
            T[XP + m] = T[XP + i]
            T[XO + m] = top
            T[XK + m] = words | ((w - top - words) << 16)
            T[XT + m] = T[XT + i]
            T[XS + 1] = w
            m += 1
    for j in range(m - n):
        kept(T, j, n + j)
    return m - n
""")
            tail += ["    n = cutoff(S, T, player, n)",
                     "    if n < 0: return n"]
        if self.invariants:
            # Each invariant: whether a move is held to it, a verdict found without
            # making the move (1 kept, 0 refused, -1 to be made), and its test once
            # made; and what invariants() works out first, once a position.
            tests: list[tuple[str, str | None, str]] = []
            first: list[str] = []
            for k, inv in enumerate(self.invariants):
                if isinstance(inv, r.StaysConnected):
                    nb = self.group_links(inv.directions)
                    base = f"XJ + {k * 6 * size}"
                    first.append(f"    g{k} = articulate(S, T, player, {nb}, {base})")
                    tests.append(("True", f"stays(S, T, player, at, count, {nb}, {base}, g{k})",
                                  f"one_group(S, T, player, {nb})"))
                    continue
                image = self.put(("mirror image", inv.image), inv.image)
                swap = self.put("owners swapped", [0] + [
                    self.codes.get(Piece(1 - p.owner, p.kind, p.attributes), -1)
                    for p in self.pieces[1:]])
                held = "True"
                if inv.onto is not None:
                    onto = self.put(("onto", inv.onto), [int(c in inv.onto[pl])
                                                        for pl in range(self.players)
                                                        for c in range(size)])
                    held = f"brings(T, at, count, player, {onto})"
                tests.append((held, None, f"(not mirrored(S, T, {image}, {swap}))"))
            if any(isinstance(inv, r.StaysConnected) for inv in self.invariants):
                self.stays_regions = 6 * size * len(self.invariants)
                parts.append(self.articulation())
            if any(isinstance(inv, r.NotMirrored) for inv in self.invariants):
                parts.append(f"""@njit(cache=True)
def mirrored(S, T, image, swap):
    # Whether the position is its own mirror image by the cells' ``image`` with the
    # owners swapped (rules.NotMirrored.mirrored).
    for c in range({size}):
        if S[{BOARD} + T[image + c]] != T[swap + S[{BOARD} + c]]:
            return False
    return True


@njit(cache=True)
def brings(T, at, count, player, onto):
    # Whether the move of the ``count`` words at T[at:] brings a piece of ``player``
    # onto its cells of ``onto`` (a row of flags by player) from off them, or drops
    # one there (rules.NotMirrored.applies).
    row = onto + player * {size}
    for i in range(count):
        a = T[at + i]
        if a & 3 == {_SHIFT}:
            if T[row + ((a >> 18) & 65535)] != 0 and T[row + ((a >> 2) & 65535)] == 0:
                return True
        elif a & 3 == {_PLACE}:
            if T[row + ((a >> 2) & 65535)] != 0 and T[{owner} + ((a >> 18) & 65535)] == player:
                return True
    return False
""")
            lines = []
            for k, (held, quick, _) in enumerate(tests):
                lines.append(f"        h{k} = {held}")
                lines.append(f"        q{k} = {quick if quick else '-1'} if h{k} else 1")
                lines.append(f"        if q{k} == 0: ok = False")
            verdicts = "\n".join(lines)
            play = " or ".join(f"q{k} < 0" for k in range(len(tests)))
            checks = "\n".join(f"            if ok and q{k} < 0 and not {test}:\n"
                               "                ok = False"
                               for k, (_, _, test) in enumerate(tests))
            parts.append(f"""@njit(cache=True)
def invariants(S, T, player, n):
    # The moves found less those whose position after breaks an invariant
    # (rules.Rules.invariants), in order: each held to one whose verdict is not known
    # before is made on S and unmade.
    H = T[XU:XU + {_HIST}].reshape((1, {_HIST}))
    last = S[{LAST}]
{chr(10).join(first)}
    k = 0
    for i in range(n):
        at = XA + T[XO + i]
        count = {self.actions_of("T[XK + i]")}
        ok = True
{verdicts}
        if ok and ({play}):
            touched = mplay(S, H, T, 0, at, count)
            if touched < 0:
                return touched
{checks}
            for j in range(touched - 1, -1, -1):
                S[{BOARD} + H[0, 5 + 2 * j]] = H[0, 6 + 2 * j]
            S[{LAST}] = last
        if ok:
            kept(T, k, i)
            k += 1
    return k
""")
            tail += ["    n = invariants(S, T, player, n)",
                     "    if n < 0: return n"]
        return "\n\n".join(parts) + ("\n\n" if parts else ""), head, tail

    def articulation(self) -> str:
        """``articulate`` and ``stays``: rules.StaysConnected answered without making
        most moves. Once a position, the mover's group and the pieces whose leaving
        would split it (its articulation points: Tarjan's search, without recursion);
        then a move of one of the mover's pieces, taking nothing of theirs, from a cell
        whose leaving splits nothing, keeps one group exactly when the piece lands next
        to another of them (or is alone). Other moves are made and their group searched
        (``one_group``)."""
        size, owner = self.size, self.owner
        return f"""@njit(cache=True)
def articulate(S, T, player, nb, base):
    # The count of ``player``'s pieces when they form one group (-1: not, or none),
    # each cell's flag of an articulation point at T[base + {5 * size} + c].
    disc = base
    low = base + {size}
    par = base + {2 * size}
    it = base + {3 * size}
    stk = base + {4 * size}
    cut = base + {5 * size}
    root = -1
    count = 0
    for c in range({size}):
        T[disc + c] = 0
        T[cut + c] = 0
        v = S[{BOARD} + c]
        if v != 0 and T[{owner} + v] == player:
            count += 1
            if root < 0:
                root = c
    if count == 0:
        return -1
    time = 1
    T[disc + root] = 1
    T[low + root] = 1
    T[par + root] = -1
    T[it + root] = T[nb + root]
    T[stk] = root
    sp = 1
    kids = 0
    while sp > 0:
        u = T[stk + sp - 1]
        e = T[it + u]
        if e < T[nb + u + 1]:
            T[it + u] = e + 1
            w = T[nb + e]
            x = S[{BOARD} + w]
            if x == 0 or T[{owner} + x] != player:
                continue
            if T[disc + w] == 0:
                time += 1
                T[disc + w] = time
                T[low + w] = time
                T[par + w] = u
                T[it + w] = T[nb + w]
                T[stk + sp] = w
                sp += 1
                if u == root:
                    kids += 1
            elif w != T[par + u] and T[disc + w] < T[low + u]:
                T[low + u] = T[disc + w]
        else:
            sp -= 1
            p = T[par + u]
            if p >= 0:
                if T[low + u] < T[low + p]:
                    T[low + p] = T[low + u]
                if p != root and T[low + u] >= T[disc + p]:
                    T[cut + p] = 1
    if kids > 1:
        T[cut + root] = 1
    return count if time == count else -1


@njit(cache=True)
def stays(S, T, player, at, count, nb, base, before):
    # Whether the move of the ``count`` words at T[at:] leaves ``player``'s pieces one
    # group (1) or not (0), where a single shift of theirs that takes none of theirs
    # answers it from ``articulate``'s findings (``before``: its count); else -1.
    if before < 0:
        return -1
    src = -1
    dst = -1
    for i in range(count):
        a = T[at + i]
        k = a & 3
        if k == {_SHIFT}:
            if src >= 0:
                return -1
            src = (a >> 2) & 65535
            dst = (a >> 18) & 65535
        elif k == {_CAPTURE}:
            v = S[{BOARD} + ((a >> 2) & 65535)]
            if v != 0 and T[{owner} + v] == player:
                return -1
        else:
            return -1
    if src < 0:
        return -1
    v = S[{BOARD} + src]
    if v == 0 or T[{owner} + v] != player or T[base + {5 * size} + src] != 0:
        return -1
    v = S[{BOARD} + dst]
    if v != 0 and T[{owner} + v] == player:
        return -1
    if before == 1:
        return 1
    for e in range(T[nb + dst], T[nb + dst + 1]):
        d = T[nb + e]
        if d != src:
            v = S[{BOARD} + d]
            if v != 0 and T[{owner} + v] == player:
                return 1
    return 0
"""
