"""An exact alpha-beta solver of quantum tic-tac-toe, compiled by numba.

The rules are those of :mod:`boardlab.games.quantum` with every option: a position
is a row of an int64 array ``st`` (see the ``CLS``, ``PA``, ``PB``, ``MADE`` and
``PENDING`` offsets): ``st[CLS + s]`` is the move number classical in square ``s``
(0 open), ``st[PA + n]``/``st[PB + n]`` the squares of unresolved move ``n`` (-1
when move ``n`` is not unresolved), ``st[MADE]`` the moves made and
``st[PENDING]`` 1 when the latest move closed a cycle.

Values are X's points minus O's, in half points (``goff-points`` gives -4..4), so
the search is plain minimax with X maximising; the collapse and the chooser's next
move are two plies by one player, which minimax handles without sign tricks.

The transposition table is keyed exactly (two 64-bit words: classical squares,
then unresolved pairs) on the position's canonical form under the board's eight
symmetries, and stores fail-soft lower and upper bounds. Move ordering: the
table's best move, then a history heuristic.
"""

from __future__ import annotations

import numpy as np
from numba import njit

CLS, PA, PB, MADE, PENDING, WIDTH = 0, 9, 19, 29, 30, 32
#: ``opt`` array fields.
O_GOFF, O_SCORING, O_DETERMINISTIC, O_DUPLICATE, O_LAST, O_MISERE = range(6)
SCORING_CODES = {"goff-points": 0, "narrow": 1, "complete": 2, "axiom": 3}
NOT_OVER = 99
INF = 100
MAX_PLY = 24
MAX_MOVES = 48
#: Move codes: ``a * 9 + b`` places marks in ``a <= b``; ``COLLAPSE + s`` lands the
#: cycle-closing move in ``s``.
COLLAPSE = 100

LINES = np.array([(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8),
                  (0, 4, 8), (2, 4, 6)], dtype=np.int64)


def _symmetries() -> np.ndarray:
    out = []
    for k in range(8):
        perm = []
        for s in range(9):
            y, x = divmod(s, 3)
            for _ in range(k % 4):  # rotate a quarter turn
                y, x = x, 2 - y
            if k >= 4:  # then mirror
                x = 2 - x
            perm.append(y * 3 + x)
        out.append(perm)
    return np.array(out, dtype=np.int64)


#: ``PERMS[k][s]``: where symmetry ``k`` sends square ``s``; ``INVERSE[k]`` undoes it.
PERMS = _symmetries()
INVERSE = np.argsort(PERMS, axis=1).astype(np.int64)


def _pair_codes() -> np.ndarray:
    codes = np.zeros((9, 9), dtype=np.int64)
    c = 1
    for a in range(9):
        for b in range(a + 1, 9):
            codes[a, b] = codes[b, a] = c
            c += 1
    return codes


#: A 6-bit code (1..36) per unordered pair of distinct squares.
PAIR_CODES = _pair_codes()


@njit(cache=True)
def terminal_value(row: np.ndarray, opt: np.ndarray) -> int:
    """X's margin in half points if the lines end the game, 0 for a full board,
    else ``NOT_OVER`` (a position without legal moves is found by the search)."""
    xp = 0
    op = 0
    found = 0
    first = 100
    best_x = 100
    best_o = 100
    tops = np.empty(8, dtype=np.int64)
    owners = np.empty(8, dtype=np.int64)
    for i in range(8):
        a = row[CLS + LINES[i, 0]]
        b = row[CLS + LINES[i, 1]]
        c = row[CLS + LINES[i, 2]]
        if a == 0 or b == 0 or c == 0:
            continue
        p = (a - 1) % 2
        if (b - 1) % 2 != p or (c - 1) % 2 != p:
            continue
        top = max(a, max(b, c))
        shown = top if (opt[O_GOFF] == 1 and opt[O_SCORING] != 3) else (top + 1) // 2
        tops[found] = shown
        owners[found] = p
        found += 1
        if shown < first:
            first = shown
        if p == 0 and shown < best_x:
            best_x = shown
        if p == 1 and shown < best_o:
            best_o = shown
    if found == 0:
        for s in range(9):
            if row[CLS + s] == 0:
                return NOT_OVER
        return 0
    scoring = opt[O_SCORING]
    if scoring == 0:
        for i in range(found):
            pts = 2 if tops[i] == first else 1
            if owners[i] == 0:
                xp += pts
            else:
                op += pts
    elif scoring == 2:
        if best_x < 100 and best_o < 100:
            return 0
        if best_x < 100:
            xp = 2
        else:
            op = 2
    else:
        if best_x < best_o:
            xp = 2
        elif best_o < best_x:
            op = 2
        else:
            return 0
    margin = xp - op
    return -margin if opt[O_MISERE] == 1 else margin


@njit(cache=True)
def _connected(row: np.ndarray, a: int, b: int) -> bool:
    reach = 1 << a
    changed = True
    while changed:
        changed = False
        for n in range(1, 10):
            x = row[PA + n]
            if x < 0:
                continue
            y = row[PB + n]
            in_x = (reach >> x) & 1
            in_y = (reach >> y) & 1
            if in_x != in_y:
                reach |= (1 << x) | (1 << y)
                changed = True
    return (reach >> b) & 1 == 1


@njit(cache=True)
def _resolve(row: np.ndarray, number: int, square: int) -> None:
    queue = np.empty(10, dtype=np.int64)
    row[CLS + square] = number
    row[PA + number] = -1
    row[PB + number] = -1
    queue[0] = square
    head = 0
    tail = 1
    while head < tail:
        here = queue[head]
        head += 1
        for n in range(1, 10):
            x = row[PA + n]
            if x < 0:
                continue
            y = row[PB + n]
            if x == here or y == here:
                there = y if x == here else x
                row[PA + n] = -1
                row[PB + n] = -1
                row[CLS + there] = n
                queue[tail] = there
                tail += 1


@njit(cache=True)
def apply_code(row: np.ndarray, code: int) -> None:
    """Play move ``code`` (see ``COLLAPSE``) on ``row`` in place."""
    if code >= COLLAPSE:
        _resolve(row, row[MADE], code - COLLAPSE)
        row[PENDING] = 0
        return
    a = code // 9
    b = code % 9
    n = row[MADE] + 1
    row[MADE] = n
    if a == b:
        _resolve(row, n, a)
        row[PENDING] = 0
        return
    row[PENDING] = 1 if _connected(row, a, b) else 0
    row[PA + n] = a
    row[PB + n] = b


@njit(cache=True)
def generate(row: np.ndarray, opt: np.ndarray, out: np.ndarray) -> int:
    """Write the legal move codes of a position that is not over into ``out``."""
    if row[PENDING] == 1:
        n = row[MADE]
        out[0] = COLLAPSE + row[PA + n]
        out[1] = COLLAPSE + row[PB + n]
        return 2
    if row[MADE] >= 9:
        return 0
    free = np.empty(9, dtype=np.int64)
    k = 0
    for s in range(9):
        if row[CLS + s] == 0:
            free[k] = s
            k += 1
    count = 0
    if k == 1:
        if opt[O_LAST] == 1 or opt[O_DETERMINISTIC] == 1:
            out[0] = free[0] * 10
            return 1
        return 0
    for i in range(k):
        a = free[i]
        if opt[O_DETERMINISTIC] == 1:
            out[count] = a * 10
            count += 1
        for j in range(i + 1, k):
            b = free[j]
            if opt[O_DUPLICATE] == 0:
                taken = False
                # Pairs are stored smaller square first.
                for n in range(1, 10):
                    if row[PA + n] == a and row[PB + n] == b:
                        taken = True
                if taken:
                    continue
            out[count] = a * 9 + b
            count += 1
    return count


@njit(cache=True)
def canonical(row: np.ndarray) -> tuple[np.int64, np.int64, np.int64]:
    """The smallest ``(hi, lo)`` key of the position over the eight symmetries, and
    the symmetry giving it."""
    best_hi = np.int64(-1)
    best_lo = np.int64(-1)
    best_k = 0
    extra = (row[PENDING] << 36) | (row[MADE] << 37)
    for k in range(8):
        hi = extra
        for s in range(9):
            hi |= row[CLS + s] << (4 * PERMS[k, s])
        if best_hi >= 0 and hi > best_hi:
            continue
        lo = np.int64(0)
        for n in range(1, 10):
            a = row[PA + n]
            if a >= 0:
                lo |= PAIR_CODES[PERMS[k, a], PERMS[k, row[PB + n]]] << (6 * (n - 1))
        if best_hi < 0 or hi < best_hi or lo < best_lo:
            best_hi = hi
            best_lo = lo
            best_k = k
    return best_hi, best_lo, best_k


@njit(cache=True)
def _map_code(code: int, perm: np.ndarray) -> int:
    if code >= COLLAPSE:
        return COLLAPSE + perm[code - COLLAPSE]
    a = perm[code // 9]
    b = perm[code % 9]
    if a > b:
        a, b = b, a
    return a * 9 + b


@njit(cache=True)
def _slot(keys: np.ndarray, hi: np.int64, lo: np.int64) -> int:
    mask = keys.shape[0] - 1
    h = (hi * np.int64(-7046029254386353131)) ^ (lo * np.int64(-4658895280553007687))
    h ^= h >> 29
    return int(h & mask) & ~1


@njit(cache=True)
def search(st: np.ndarray, ply: int, alpha: int, beta: int, opt: np.ndarray,
           keys: np.ndarray, vals: np.ndarray, moves: np.ndarray, history: np.ndarray,
           counters: np.ndarray) -> int:
    """The minimax value (X's margin in half points) of the position ``st[ply]``,
    which is not over, searched in the window ``(alpha, beta)``; fail-soft."""
    counters[0] += 1
    row = st[ply]
    hi, lo, k = canonical(row)
    base = _slot(keys, hi, lo)
    hit = -1
    for i in range(2):
        if keys[base + i, 0] == hi and keys[base + i, 1] == lo:
            hit = base + i
    tt_code = -1
    if hit >= 0:
        lower = vals[hit, 0]
        upper = vals[hit, 1]
        if lower >= beta:
            return lower
        if upper <= alpha:
            return upper
        if lower == upper:
            return lower
        if lower > alpha:
            alpha = lower
        if upper < beta:
            beta = upper
        if vals[hit, 2] >= 0:
            tt_code = _map_code(vals[hit, 2], INVERSE[k])
    mover = row[MADE] % 2
    buf = moves[ply]
    count = generate(row, opt, buf)
    if count == 0:
        return 0  # no legal move: the game ends without a line
    # Order: the table's move first, then by history score (insertion sort).
    scores = np.empty(count, dtype=np.int64)
    for i in range(count):
        c = buf[i]
        scores[i] = (1 << 62) if c == tt_code else history[mover, c]
    for i in range(1, count):
        c = buf[i]
        sc = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < sc:
            buf[j + 1] = buf[j]
            scores[j + 1] = scores[j]
            j -= 1
        buf[j + 1] = c
        scores[j + 1] = sc
    a0 = alpha
    b0 = beta
    best = -INF if mover == 0 else INF
    best_code = buf[0]
    child = st[ply + 1]
    for i in range(count):
        code = buf[i]
        for f in range(WIDTH):
            child[f] = row[f]
        apply_code(child, code)
        v = terminal_value(child, opt)
        if v == NOT_OVER:
            v = search(st, ply + 1, alpha, beta, opt, keys, vals, moves, history, counters)
        if mover == 0:
            if v > best:
                best = v
                best_code = code
                if v > alpha:
                    alpha = v
        else:
            if v < best:
                best = v
                best_code = code
                if v < beta:
                    beta = v
        if alpha >= beta:
            history[mover, code] += 1 << (12 - min(12, row[MADE]))
            break
    # Store the bound the result proves (fail-soft) in the slot of the pair.
    lower = -INF
    upper = INF
    if best <= a0:
        upper = best
    elif best >= b0:
        lower = best
    else:
        lower = best
        upper = best
    slot = hit
    if slot < 0:
        slot = base
        if keys[base, 0] != -1 and (keys[base + 1, 0] == -1
                                    or vals[base + 1, 3] >= vals[base, 3]):
            slot = base + 1
        keys[slot, 0] = hi
        keys[slot, 1] = lo
        vals[slot, 0] = lower
        vals[slot, 1] = upper
    else:
        if lower > vals[slot, 0]:
            vals[slot, 0] = lower
        if upper < vals[slot, 1]:
            vals[slot, 1] = upper
    vals[slot, 2] = _map_code(best_code, PERMS[k])
    vals[slot, 3] = row[MADE] * 2 + row[PENDING]
    counters[1] += 1
    return best
