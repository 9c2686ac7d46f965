"""The kernel's writer: whether a piece is attacked or defended (``checkmated``,
``attacked?``), over the attack tables."""

from __future__ import annotations

from typing import Any

from boardlab.core import rules as r
from boardlab.core.kernel.layout import (
    _CAPTURE,
    _HIST,
    _MASK64,
    _SHIFT,
    BOARD,
    LAST,
    Unsupported,
    _signed,
)
from boardlab.core.kernel.writer.sizes import _ATTACKERS

#: A de Bruijn sequence: the top six bits of a power of two times it differ for each
#: power (the index of a mask's lowest bit, see _Writer.attacks); the kernel multiplies
#: unsigned (a signed product that overflows is undefined in numba's code).
_DE_BRUIJN = 0x03F79D71B4CB0A89


class _Attacks:
    """The part of ``_Writer`` that writes
    whether a piece is attacked or defended (``checkmated``, ``attacked?``), over the
    attack tables."""

    def attacks(self) -> str:
        """The functions that say whether a piece is attacked (rules.attacked, for
        ``checkmated``): each template written to say whether, run for ``player``
        from ``start``, it takes a piece on ``target`` or lands there (1; -1: it loops
        for ever); ``in_check``, which runs the templates whose reach from a piece of
        another player includes a protected piece's cell (rules._attackers: the same
        analysis as the interpreter's); ``guard``, which keeps the moves found that
        leave no protected piece of the mover attacked (turn._Safety)."""
        game, size, n = self.game, self.size, self.players
        rules = game.move_rules
        bodies: list[list[str] | None] = []
        self.attacking = True
        for index, t in enumerate(self.templates):
            if type(t) is not r.Template:
                bodies.append(None)  # drops and groups attack nothing (the interpreter's)
                continue
            bodies.append(self.from_start(index, owned=False))
        self.attacking = False
        parts, table, width, calls = self.shaped(bodies, "attack", "S, T, player, start, target",
                                                 "0")
        dispatch = "".join(f"    {'if' if k == 0 else 'elif'} T[row] == {k}:\n"
                           f"        return {call}\n" for k, call in enumerate(calls))
        # Which templates may attack each cell from which cells, for each player.
        index_of = {id(t): i for i, t in enumerate(self.templates)}
        entries: list[list[set[tuple[int, int]]]] = [[set() for _ in range(size)]
                                                     for _ in range(n)]
        # The cells each (player, source, template) run reads, as a mask of the board's
        # cells (and its source's): a move that changes none leaves its attack as it was.
        looks: dict[tuple[int, int, int], int] = {}

        def reads(q: int, source: int, index: int, looked: Any) -> None:
            # A run that reads the last move, which every move changes: any cell.
            everywhere = looked is r.EVERYWHERE or self.templates[index].reads_history
            bits = -1 if everywhere else sum(1 << c for c in looked)
            looks[q, source, index] = looks.get((q, source, index), 0) | bits | (1 << source)

        for q in range(n):
            for kind in sorted({p.kind for p in self.pieces[1:] if p.owner == q}):
                found = rules._attackers(self.game, q, kind, None)
                for target in range(size):
                    for source, t, looked in found.by_target[target]:
                        entries[q][target].add((source, index_of[id(t)]))
                        reads(q, source, index_of[id(t)], looked)
                for t, (sources, looked) in found.wide.items():
                    for source in (range(size) if sources is None else sources):
                        reads(q, source, index_of[id(t)], looked)
                        for target in range(size):
                            entries[q][target].add((source, index_of[id(t)]))
        starts, flat, masks = [], [], []
        for q in range(n):
            for target in range(size):
                starts.append(len(flat) // 2)
                for pair in sorted(entries[q][target]):
                    flat.extend(pair)
                    masks.append(_signed(looks[(q, *pair)] & _MASK64))
                if len(flat) > 1 << 23:
                    raise Unsupported("too many attacks to tabulate")
        starts.append(len(flat) // 2)
        at = self.put("attack starts", starts)
        pairs = self.put("attack pairs", flat)
        # A move is looked at in full where the cells do not fit a mask of 64 bits.
        masked = size <= 64
        reach = self.put("attack reads", masks) if masked else -1
        sources = by_source = lowest = -1
        if masked:
            # By player and target: the cells its attackers may stand on (a mask), and
            # where each source cell's pairs start (the pairs are in order of source),
            # so that only the cells holding a piece are looked at; the index of a
            # mask's lowest bit by a de Bruijn product.
            source_bits, firsts = [], []
            for q in range(n):
                for target in range(size):
                    lo, hi = starts[q * size + target], starts[q * size + target + 1]
                    cells = [flat[2 * e] for e in range(lo, hi)]
                    source_bits.append(_signed(sum(1 << c for c in set(cells))))
                    e = lo
                    for c in range(size + 1):
                        while e < hi and flat[2 * e] < c:
                            e += 1
                        firsts.append(e)
            sources = self.put("attack sources", source_bits)
            by_source = self.put("attack pairs by source", firsts)
            bit_of = [0] * 64
            for bit in range(64):
                bit_of[(((1 << bit) * _DE_BRUIJN) & _MASK64) >> 58] = bit
            lowest = self.put("lowest bit", bit_of)
        # The mover's protected pieces (ZRF checkmated), a mask row by player (-1: none).
        guards = []
        for player in range(n):
            kinds = {k for guard in rules.protect if player in guard.players
                     for k in guard.kinds}
            guards.append(self.kinds_mask(kinds) if kinds else -1)
        self.guards = self.put("guards", guards)
        return f"""{parts}{self.could_take(at, pairs)}@njit(cache=True)
def attack(S, T, index, player, start, target):
    row = {table} + index * {width}
{dispatch}    return 0


@njit(cache=True)
def strikes(S, T, pos, hand, hf, q, nc, becomes, copy, rsv, target):
    # Whether the move an add makes takes the piece on ``target`` or lands there (a
    # move with more actions than room: no).
    top = T[XS + 1]
    w = compose(S, T, pos, hand, hf, q, nc, becomes, copy, rsv)
    occupied = S[{BOARD} + target] != 0
    for i in range(top, w):
        a = T[XA + i]
        if a & 3 == {_CAPTURE} and (a >> 2) & 65535 == target and occupied:
            return True
        if a & 3 == {_SHIFT} and (a >> 18) & 65535 == target:
            return True
    return False


@njit(cache=True)
def in_check(S, T, player, mask):
    # 1 when another player could take a piece of ``player``'s that ``mask`` (a row of
    # piece codes) names with one move now, -1 when a template loops for ever, else 0.
    for c in range({size}):
        hit = checked_at(S, T, player, mask, c)
        if hit != 0:
            return hit
    return 0


@njit(cache=True, inline='always')
def checked_at(S, T, player, mask, c):
    # in_check for the piece on cell c alone (0 where it is none that mask names).
    v = S[{BOARD} + c]
    if v == 0 or T[{self.owner} + v] != player or T[mask + v] == 0:
        return 0
    for q in range({n}):
        if q == player:
            continue
        for e in range(T[{at} + q * {size} + c], T[{at} + q * {size} + c + 1]):
            s = T[{pairs} + 2 * e]
            u = S[{BOARD} + s]
            if u == 0 or T[{self.owner} + u] != q:
                continue
            hit = attack(S, T, T[{pairs} + 2 * e + 1], q, s, c)
            if hit != 0:
                return hit
    return 0


@njit(cache=True, inline='always')
def attackers(S, T, player, c, others, w):
    # Each run (its pair * 8 + its player) that may reach cell c from a cell of
    # ``others`` (a mask of the other players' pieces' cells) holding a piece of its
    # player, appended to T[XW + w:]: the list's new end, or -1 where it is full
    # (masked kernels alone).
    for q in range({n}):
        if q == player:
            continue
        base = {by_source} + (q * {size} + c) * {size + 1}
        bits = others & T[{sources} + q * {size} + c]
        while bits != 0:
            low = bits & -bits
            bits ^= low
            s = T[{lowest} + np.int64((np.uint64(low) * np.uint64({_DE_BRUIJN})) >> np.uint64(58))]
            u = S[{BOARD} + s]
            if u == 0 or T[{self.owner} + u] != q:
                continue
            for e in range(T[base + s], T[base + s + 1]):
                if w >= {_ATTACKERS}:
                    return -1
                T[XW + w] = e * 8 + q
                w += 1
    return w


@njit(cache=True, inline='always')
def hits(S, T, c, start, end):
    # Whether a run of T[XW + start:XW + end] takes the piece on c (-1: it loops).
    for x in range(start, end):
        e = T[XW + x] >> 3
        hit = attack(S, T, T[{pairs} + 2 * e + 1], T[XW + x] & 7, T[{pairs} + 2 * e], c)
        if hit != 0:
            return hit
    return 0


@njit(cache=True, inline='always')
def checked_bits(S, T, player, mask, c, others, w):
    # checked_at, trying only the attackers standing on a cell of ``others`` (listed
    # from T[XW + w], see attackers).
    v = S[{BOARD} + c]
    if v == 0 or T[{self.owner} + v] != player or T[mask + v] == 0:
        return 0
    end = attackers(S, T, player, c, others, w)
    if end < 0:
        return checked_at(S, T, player, mask, c)
    return hits(S, T, c, w, end)


@njit(cache=True)
def guard(S, T, player, n):
    # The n moves found less those after which a protected piece of the mover is
    # attacked, in order (each made on S and unmade, its changes kept in a row of
    # the table's scratch); or below zero, as generate says.
    mask = T[{self.guards} + player]
    H = T[XU:XU + {_HIST}].reshape((1, {_HIST}))
    last = S[{LAST}]
    # The protected pieces' cells now: after a move they are on these or on the cells
    # the move touched, so no move needs the whole board looked over.
    nv = 0
    for c in range({size}):
        v = S[{BOARD} + c]
        if v != 0 and T[{self.owner} + v] == player and T[mask + v] != 0:
            T[XV + nv] = c
            nv += 1
    # Each piece's attackers now: the runs that may reach it from another player's
    # piece, listed in T[XW + T[XV + {size} + j]:XW + T[XV + {2 * size} + j]] (pair and
    # player). A move that changes none of the cells a run reads (T[{reach} + pair])
    # leaves its answer as it is now, none (turn._Safety); every move is looked at
    # in full where one is attacked now, the list is too long, or the cells do not
    # fit the masks (masked: {masked}).
    full = not {masked}
    w = 0
    # The cells of the other players' pieces (masked kernels).
    others = 0
    for c in range({size} if {masked} else 0):
        v = S[{BOARD} + c]
        others |= np.int64(v != 0 and T[{self.owner} + v] != player) << c
    for j in range(nv if {masked} else 0):
        c = T[XV + j]
        end = attackers(S, T, player, c, others, w)
        if end < 0:
            full = True
            break
        hit = hits(S, T, c, w, end)
        if hit < 0:
            return hit
        if hit != 0:
            full = True
        T[XV + {size} + j] = w
        T[XV + {2 * size} + j] = end
        w = end
    k = 0
    for i in range(n):
        touched = mplay(S, H, T, 0, XA + T[XO + i], {self.actions_of("T[XK + i]")})
        if touched < 0:
            return touched
        hit = 0
        changed = 0
        whole = full
        after = others
        for j in range(touched):
            cell = H[0, 5 + 2 * j]
            if cell < {size}:
                changed |= 1 << cell
                after &= ~(1 << cell)
                u = S[{BOARD} + cell]
                if u != 0 and T[{self.owner} + u] != player:
                    whole = True  # another player's piece arrives (or stays)
                    after |= 1 << cell
        for j in range(nv + touched):
            if j < nv:
                c = T[XV + j]
                if not whole and (changed >> c) & 1 == 0:
                    for x in range(T[XV + {size} + j], T[XV + {2 * size} + j]):
                        e = T[XW + x] >> 3
                        if T[{reach} + e] & changed == 0:
                            continue
                        q = T[XW + x] & 7
                        s = T[{pairs} + 2 * e]
                        u = S[{BOARD} + s]
                        if u != 0 and T[{self.owner} + u] == q:
                            hit = attack(S, T, T[{pairs} + 2 * e + 1], q, s, c)
                            if hit != 0:
                                break
                    if hit != 0:
                        break
                    continue
            else:
                c = H[0, 5 + 2 * (j - nv)]
            if c < {size}:
                if {masked}:
                    hit = checked_bits(S, T, player, mask, c, after, w)
                else:
                    hit = checked_at(S, T, player, mask, c)
                if hit != 0:
                    break
        for j in range(touched - 1, -1, -1):
            S[{BOARD} + H[0, 5 + 2 * j]] = H[0, 6 + 2 * j]
        S[{LAST}] = last
        if hit < 0:
            return hit
        if hit == 0:
            kept(T, k, i)
            k += 1
    return k


"""

    def could_take(self, at: int, pairs: int) -> str:
        """``could_take``, the kernel's interpret._could_take (``attacked?`` and
        ``defended?`` in a run: ``defended`` 0 or 1, ``kind`` the code of the move type
        asked about, -1 for any), and ``attacked_at``, its rules.attacked over the
        attack tables (``at``, ``pairs``; see attacks). A template that loops for ever
        leaves -1 in ``T[XE]`` for generate to return."""
        if not self.asks_attacks:
            return ""
        n, size = self.players, self.size
        owned_by_other = self.owned_by("other")
        types = self.put("attack types", [self.attack_types.get(t.move_type, -2)
                                          if t.move_type is not None else -2
                                          for t in self.templates])
        return f"""@njit(cache=True)
def attacked_at(S, T, cell, player, defended, kind, exclude):
    # Whether a player the question asks about (the mover's opponents, or with
    # ``defended`` the mover) could capture on ``cell`` or move onto it with one move
    # of a template (of move type ``kind``) now; -1: a template loops for ever.
    for q in range({n}):
        if (q == player) != defended:
            continue
        for e in range(T[{at} + q * {size} + cell], T[{at} + q * {size} + cell + 1]):
            s = T[{pairs} + 2 * e]
            if s == exclude:
                continue
            u = S[{BOARD} + s]
            if u == 0 or T[{self.owner} + u] != q:
                continue
            t = T[{pairs} + 2 * e + 1]
            if kind >= 0 and T[{types} + t] != kind:
                continue
            hit = attack(S, T, t, q, s, cell)
            if hit != 0:
                return hit
    return 0


@njit(cache=True)
def could_take(S, T, player, pos, start, hand, defended, kind):
    v = S[{BOARD} + pos]
    exclude = start if defended else -1
    hit = 0
    if v != 0 and (T[{self.owner} + v] == player) != defended:
        hit = attacked_at(S, T, pos, player, defended, kind, exclude)
    else:
        # The question asked of a piece of a player it does not ask about on the cell:
        # the one there, else the moving piece.
        piece = v
        if piece == 0:
            piece = S[{BOARD} + start] if start >= 0 else 0
            if piece == 0:
                piece = hand
            if piece == 0:
                return False
        other = player
        if defended:
            other = 1 if player == 0 else 0
        S[{BOARD} + pos] = T[{owned_by_other} + piece]
        hit = attacked_at(S, T, pos, player, defended, kind, exclude)
        S[{BOARD} + pos] = v
    if hit < 0:
        T[XE] = -1
        return False
    return hit != 0


"""
