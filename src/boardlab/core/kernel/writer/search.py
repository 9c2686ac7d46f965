"""The part of a kernel that searches: Monte Carlo tree search whole in the kernel.

``uct`` runs iterations of UCT (Kocsis and Szepesvári, 2006) with MCTS-Solver (Winands,
Björnsson and Saito, 2008) on a tree held in two arrays the caller owns
(:class:`boardlab.core.kernel.search.Tree`): each iteration copies the root's position,
walks down the tree making the chosen moves as a playout makes them (the moves of a
node are found again at every pass, in the order ``moves`` gives them, so a child is
the index of its move), adds one node, finishes the game with random moves (or by a
policy's weights) and backs the returns up. It does what :func:`boardlab.ai.mcts.search`
does with :class:`~boardlab.ai.mcts.Node` objects, so a bot searches either way alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.core.heuristics import (
    Blend,
    CellsHeld,
    MaterialMobility,
    MobilityBalance,
    PieceBalance,
    PieceSquare,
)
from boardlab.core.kernel.layout import (
    BASE,
    BOARD,
    DEPTH,
    FOLLOW,
    KEY,
    NMOVES,
    PLY,
    REPS,
    SINCE,
    STATUS,
    TAKEN,
    TO_MOVE,
    UNKNOWN,
    Status,
)

if TYPE_CHECKING:
    from boardlab.core.kernel.writer.module import _Writer

#: The columns of a node's row in the tree (see :class:`boardlab.core.kernel.search.Tree`).
(FIRST, NEXT, MOVE, TRIED, MOVES, VISITS, MOVER, PROVEN, NODE_KEY, PARENT) = range(10)
#: How many columns a node has.
COLUMNS = 10


class _Search:
    """Writes ``uct`` and the functions it calls (mixed into :class:`_Writer`)."""

    def heuristic_of(self: _Writer) -> MaterialMobility | PieceSquare | Blend | None:
        """The game's heuristic when the kernel can compute it as ``evaluate`` does:
        what :meth:`~boardlab.core.position.PieceGame.kernel_heuristic` names, where
        the class that defines it defines the ``evaluate`` the game has (not one a
        subclass wrote over it), and a piece-square table has every piece's values."""
        cls = type(self.game)
        for owner in cls.__mro__:
            if "kernel_heuristic" in vars(owner):
                if vars(owner).get("evaluate") is not cls.evaluate:
                    return None
                found = self.game.kernel_heuristic()
                if isinstance(found, PieceSquare):
                    table = dict(found.values)
                    if any(p not in table or len(table[p]) != self.size
                           for p in self.pieces[1:]):
                        return None
                if isinstance(found, PieceSquare) and found.lead and (
                        self.players != 2 or any(p not in dict(found.lead)
                                                 for p in self.pieces[1:])):
                    return None
                if isinstance(found, Blend) and (self.players != 2 or self.lazy):
                    return None  # two players' terms; every found move's words counted
                return found
        return None

    def heuristic(self: _Writer) -> str:
        """The source of ``heuristic``: the points of a playout cut at its cap, as
        :func:`boardlab.ai.mcts._heuristic_points` makes them of the game's
        ``evaluate`` for player 0, with the same operations in the same order, so the
        same floats (:mod:`boardlab.core.heuristics`); none without such a heuristic."""
        found = self.heuristic_of()
        if isinstance(found, PieceSquare):
            return self.piece_square(found)
        if isinstance(found, Blend):
            return self.blend(found)
        if not isinstance(found, MaterialMobility):
            return ""
        n = self.players
        hand = "".join(f"    material[{(self.pieces[self.codes[p]].owner) % n}] += "
                       f"S[RES + {self.codes[p]}]\n" for p in self.hand)
        return self.with_turn() + f'''

@njit(cache=True)
def heuristic(S, S2, T, mine, X):
    # X: each player's points of the position S (mine: its side to move's moves), by
    # material (pieces on the board and in hand) and mobility (the moves each side
    # would have with the turn, as PieceState.with_turn gives it).
    material = np.zeros({n})
    mobility = np.zeros({n})
    for code in range(1, {self.ncodes}):
        owner = T[{self.owner} + code]
        if owner >= 0:
            material[owner] += S[CNT + code]
{hand}    for q in range({n}):
        if q == S[{TO_MOVE}]:
            mobility[q] = mine
            continue
        found = with_turn(S, S2, T, q)
        if found < 0:
            return found
        mobility[q] = found & 16777215
    value = 0.7 * balance(material) + 0.3 * balance(mobility)
    value = max(-1.0, min(1.0, value))
    for q in range({n}):
        X[q] = (1 - value) / 2
    X[0] = (1 + value) / 2
    return 0


@njit(cache=True, inline='always')
def balance(values):
    # Player 0's value against the others' mean, in [-1, 1] (0 when all are 0).
    total = 0.0
    for q in range({n}):
        total += values[q]
    mine = values[0]
    others = (total - mine) / max(1, {n} - 1)
    return 0.0 if mine + others == 0 else (mine - others) / (mine + others)
'''

    def with_turn(self: _Writer) -> str:
        """The source of ``with_turn``: the moves of a copy of a position with another
        player to move, at the start of a turn, without history, as
        :meth:`KernelPosition.with_turn
        <boardlab.core.kernel.position.KernelPosition.with_turn>` makes it."""
        return f'''

@njit(cache=True)
def with_turn(S, S2, T, q):
    # The moves of S with q to move (in T's scratch, as moves finds them), on S2.
    for i in range(MOVES):
        S2[i] = S[i]
    row = {self.sides} + turn(S2[{PLY}]) * {self.players}
    S2[{KEY}] ^= T[row + S2[{TO_MOVE}]] ^ T[row + q]
    S2[{TO_MOVE}] = q
    S2[{FOLLOW}] = -1
    S2[{DEPTH}] = 0
    S2[{BASE}] = 0
    S2[{SINCE}] = 0
    S2[{TAKEN}] = 0
    S2[{REPS}] = 1
    S2[{NMOVES}] = -1
    S2[{STATUS}] = {UNKNOWN}
    return moves(S2, T)
'''

    def blend(self: _Writer, heuristic: Blend) -> str:
        """``heuristic`` for a weighted sum of two players' terms (:class:`Blend`), each
        written as its ``value`` computes it for player 0."""
        lines = ["    total = 0.0"]
        for index, (weight, term) in enumerate(heuristic.terms):
            v = f"v{index}"
            if isinstance(term, CellsHeld):
                lines += ["    held = 0",
                          f"    for cell in {tuple(term.cells)!r}:",
                          f"        code = S[{BOARD} + cell]",
                          "        if code != 0:",
                          f"            held += 1 if T[{self.owner} + code] == 0 else -1",
                          f"    {v} = held / {len(term.cells)}"]
            elif isinstance(term, MobilityBalance):
                # The side to move's moves are the ones found at the cap (mine of them);
                # the other's with the turn. Moves that do something: words written.
                count = self.actions_of("T[XK + k]")
                # The side to move's first: with_turn finds the other's in their place.
                lines += ["    placed = np.zeros(2, dtype=np.int64)",
                          f"    q = S[{TO_MOVE}]",
                          "    for k in range(mine):",
                          f"        if {count} != 0:",
                          "            placed[q] += 1",
                          "    found = with_turn(S, S2, T, 1 - q)",
                          "    if found < 0:",
                          "        return found",
                          "    for k in range(found & 16777215):",
                          f"        if {count} != 0:",
                          "            placed[1 - q] += 1",
                          f"    {v} = (placed[0] - placed[1]) / (placed[0] + placed[1] + 1)"]
            elif isinstance(term, PieceBalance):
                lines += ["    own = 0",
                          "    other = 0",
                          f"    for code in range(1, {self.ncodes}):",
                          f"        if T[{self.owner} + code] == 0:",
                          "            own += S[CNT + code]",
                          "        else:",
                          "            other += S[CNT + code]",
                          f"    {v} = (own - other) / (own + other if own + other else 1)"]
            else:  # pragma: no cover - the terms are a closed set
                raise AssertionError(term)
            lines.append(f"    total += {float(weight)!r} * {v}")
        body = "\n".join(lines)
        return self.with_turn() + f'''

@njit(cache=True)
def heuristic(S, S2, T, mine, X):
    # X: each player's points of the position S by a weighted sum of terms for player 0
    # (mine: the side to move's moves, found in T's scratch).
{body}
    value = max(-1.0, min(1.0, total))
    for q in range(2):
        X[q] = (1 - value) / 2
    X[0] = (1 + value) / 2
    return 0
'''

    def piece_square(self: _Writer, heuristic: PieceSquare) -> str:
        """``heuristic`` for a piece-square table (:class:`PieceSquare`), its values in
        a constant array by piece code and cell."""
        table = dict(heuristic.values)
        values = [0.0] * self.size + [v for p in self.pieces[1:] for v in table[p]]
        ranks = dict(heuristic.lead)
        lead = rank = ""
        if ranks:
            # The highest rank of each player's pieces, compared after the sum.
            rank = (f"            r = LEAD[code * {self.size} + cell]\n"
                    "            if r > best[owner]:\n"
                    "                best[owner] = r\n")
            lead = f"    score += {float(heuristic.lead_weight)!r} * (best[0] - best[1])\n"
        table_of_ranks = [0] * self.size + [r for p in self.pieces[1:]
                                            for r in ranks.get(p, (0,) * self.size)]
        return f'''

PIECE_SQUARE = np.array([{", ".join(repr(float(v)) for v in values)}], dtype=np.float64)
LEAD = np.array([{", ".join(str(int(r)) for r in table_of_ranks)}], dtype=np.int64)


@njit(cache=True)
def heuristic(S, S2, T, mine, X):
    # X: each player's points of the position S by a piece-square table: its pieces'
    # values for player 0, the others' against, over {heuristic.divisor!r}.
    score = 0.0
    best = np.zeros(2, dtype=np.int64)
    for cell in range({self.size}):
        code = S[{BOARD} + cell]
        if code != 0:
            owner = T[{self.owner} + code]
{rank}            value = PIECE_SQUARE[code * {self.size} + cell]
            if owner == 0:
                score += value
            else:
                score += -value
{lead}    value = max(-1.0, min(1.0, score / {float(heuristic.divisor)!r}))
    value = max(-1.0, min(1.0, value))
    for q in range({self.players}):
        X[q] = (1 - value) / 2
    X[0] = (1 + value) / 2
    return 0
'''

    def uct(self: _Writer) -> str:
        """The source of ``uct``, compiled on first use (most games are never searched
        by a bot)."""
        n = self.players
        row = f"S[{DEPTH}]" if self.repeats else "0"
        count = self.actions_of("T[XK + k]")
        lazy_moves = "moves_lazy(S, T) if weights.shape[0] == 0 else " if self.lazy else ""
        cut = ""
        if self.heuristic_of() is not None:
            # At the cap, the heuristic's points (the moves just found are the mover's).
            cut = ("                if 0 <= cap <= plies:\n"
                   "                    rc = heuristic(S, S2, T, found & 16777215, X)\n"
                   "                    if rc < 0:\n"
                   "                        return rc\n"
                   "                    break\n")

        def play(indent: str) -> str:
            # Make move k on S, where there are plies and history rows left.
            text = (f"if budget <= 0 or ({self.repeats} and S[{DEPTH}] >= H.shape[0]):\n"
                    f"    R[0] = np.int64(state)\n"
                    f"    R[1] = used\n"
                    f"    return {Status.BUDGET:d} if budget <= 0 else {Status.HISTORY:d}\n"
                    f"budget -= 1\n")
            if self.lazy:
                # Only the move played has its words (see tail_at).
                text += ("if T[XK + k] < 0:\n"
                         "    rc = finish(S, T, k)\n"
                         "    if rc < 0:\n"
                         "        return rc\n")
            text += (f"if make_run(S, H, T, {row}, XA + T[XO + k], {count}, -1) < 0:\n"
                     f"    return {Status.TOUCH:d}\n")
            return "".join(indent + line + "\n" for line in text.splitlines())

        return f'''

# Monte Carlo tree search (UCT with MCTS-Solver), whole in the kernel. A node is a row
# of Q: its first child, next sibling, its move's index among its parent's moves, the
# children made, the moves (-1: not yet found), visits, mover, proven status (-1: none),
# key and parent; V holds the points its mover scored; P the points of each player
# by final status.
@njit(cache=True, inline='always')
def uct_wins(P, st, p):
    # Whether the status st is a win for p: more points than every other player.
    for q in range({n}):
        if q != p and P[st, q] >= P[st, p]:
            return False
    return True


@njit(cache=True, inline='always')
def uct_loses(P, st, p):
    # Whether the status st is a loss for p: another player scores more.
    for q in range({n}):
        if q != p and P[st, q] > P[st, p]:
            return True
    return False


@njit(cache=True)
def uct_prove(Q, P, node):
    # Prove node from its children where they allow it: a child proved a win for its
    # mover (the player choosing here) proves it; so do children all proved, worth
    # the best of them for that player. Whether it is proved now.
    c = Q[node, {FIRST}]
    if c < 0:
        return False
    chooser = Q[c, {MOVER}]
    open_ = Q[node, {TRIED}] < Q[node, {MOVES}]
    best = -1
    while c >= 0:
        st = Q[c, {PROVEN}]
        if st >= 0:
            if uct_wins(P, st, chooser):
                Q[node, {PROVEN}] = st
                return True
            if best < 0 or P[st, chooser] > P[best, chooser]:
                best = st
        else:
            open_ = True
        c = Q[c, {NEXT}]
    if open_:
        return False
    Q[node, {PROVEN}] = best
    return True


@njit(cache=True)
def uct(S0, S, H, T, Q, V, P, R, iterations, budget, c, weights, seen, cap, S2, X, room):
    # At most iterations iterations of UCT from the position S0, the root Q row R[2],
    # each played on S (its history in H), the nodes made from row R[1] on; R[0] is the
    # generator's state, R[3] counts the iterations done. 0 when they are done or the
    # root is proved; -21 out of plies (budget), -3 out of history rows: the iteration
    # under way is dropped (a node it made stays unvisited) and the caller calls again;
    # below zero as moves and make answer otherwise. With cap >= 0 (where the kernel
    # has the game's heuristic), a playout stops after cap plies and scores the
    # heuristic's points (X, scratch, as S2). Nodes are made in rows below room only:
    # past it, an iteration plays out from the node it stopped at.
    S0 = unmanaged(S0)
    S = unmanaged(S)
    H = unmanaged(H)
    T = unmanaged(T)
    R = unmanaged(R)
    state = np.uint64(R[0])
    used = R[1]
    root = R[2]
    done = 0
    while done < iterations and Q[root, {PROVEN}] < 0:
        for i in range(MOVES):
            S[i] = S0[i]
        node = root
        st = -1
        while True:
            if node != root and Q[node, {PROVEN}] >= 0:
                st = Q[node, {PROVEN}]  # a solved subtree scores its proven points
                break
            found = moves_run(S, T)
            if found < 0:
                return found
            status = (found >> 24) - 2
            if status >= 0:
                st = final(S, T, status)
                Q[node, {PROVEN}] = st
                break
            n = found & 16777215
            Q[node, {MOVES}] = n
            fresh = Q[node, {TRIED}] < n
            if fresh and used >= room:
                break  # the tree is full: a playout from here
            if fresh:
                # Expansion: a random move not tried yet.
                for j in range(n):
                    seen[j] = 0
                child = Q[node, {FIRST}]
                while child >= 0:
                    seen[Q[child, {MOVE}]] = 1
                    child = Q[child, {NEXT}]
                r, state = next_below(state, n - Q[node, {TRIED}])
                k = 0
                while seen[k] != 0 or r > 0:
                    if seen[k] == 0:
                        r -= 1
                    k += 1
                child = used
                used += 1
                Q[child, {FIRST}] = -1
                Q[child, {NEXT}] = Q[node, {FIRST}]
                Q[child, {MOVE}] = k
                Q[child, {TRIED}] = 0
                Q[child, {MOVES}] = -1
                Q[child, {VISITS}] = 0
                Q[child, {MOVER}] = S[{TO_MOVE}]
                Q[child, {PROVEN}] = -1
                Q[child, {PARENT}] = node
                V[child] = 0.0
                Q[node, {FIRST}] = child
                Q[node, {TRIED}] += 1
            else:
                # Selection by UCB1: a proved win at once, never a proved loss while
                # another move is open.
                scale = c * np.sqrt(np.log(Q[node, {VISITS}]))
                child = Q[node, {FIRST}]
                best = child
                best_score = -np.inf
                while child >= 0:
                    pr = Q[child, {PROVEN}]
                    if pr >= 0 and uct_wins(P, pr, Q[child, {MOVER}]):
                        best = child
                        break
                    if pr < 0 or not uct_loses(P, pr, Q[child, {MOVER}]):
                        v = Q[child, {VISITS}]
                        score = np.inf if v == 0 else V[child] / v + scale / np.sqrt(v)
                        if score > best_score:
                            best = child
                            best_score = score
                    child = Q[child, {NEXT}]
                child = best
                k = Q[child, {MOVE}]
{play(" " * 12)}            Q[child, {NODE_KEY}] = S[{KEY}]
            node = child
            if fresh:
                break
        if st < 0:
            # A random playout from the new node; an end there proves it.
            plies = 0
            while True:
                found = {lazy_moves}moves_run(S, T)
                if found < 0:
                    return found
                status = (found >> 24) - 2
                if status >= 0:
                    st = final(S, T, status)
                    if plies == 0:
                        Q[node, {PROVEN}] = st
                    break
{cut}                plies += 1
                k, state = choose(S, T, found & 16777215, weights, state)
{play(" " * 16)}        if st >= 0:
            for q in range({n}):
                X[q] = P[st, q]
        # Back up: each node's mover scores its points of the end.
        w = node
        while w >= 0:
            Q[w, {VISITS}] += 1
            if Q[w, {MOVER}] >= 0:
                V[w] += X[Q[w, {MOVER}]]
            w = -1 if w == root else Q[w, {PARENT}]
        if Q[node, {PROVEN}] >= 0 and node != root:
            up = Q[node, {PARENT}]
            while Q[up, {PROVEN}] < 0 and uct_prove(Q, P, up) and up != root:
                up = Q[up, {PARENT}]
        done += 1
        R[0] = np.int64(state)
        R[1] = used
        R[3] += 1
    return 0
''' + self.heuristic()
