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

from boardlab.core.kernel.layout import DEPTH, KEY, TO_MOVE, Status

if TYPE_CHECKING:
    from boardlab.core.kernel.writer.module import _Writer

#: The columns of a node's row in the tree (see :class:`boardlab.core.kernel.search.Tree`).
(FIRST, NEXT, MOVE, TRIED, MOVES, VISITS, MOVER, PROVEN, NODE_KEY, PARENT) = range(10)
#: How many columns a node has.
COLUMNS = 10


class _Search:
    """Writes ``uct`` and the functions it calls (mixed into :class:`_Writer`)."""

    def uct(self: _Writer) -> str:
        """The source of ``uct``, compiled on first use (most games are never searched
        by a bot)."""
        n = self.players
        row = f"S[{DEPTH}]" if self.repeats else "0"
        count = self.actions_of("T[XK + k]")
        lazy_moves = "moves_lazy(S, T) if weights.shape[0] == 0 else " if self.lazy else ""

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
def uct(S0, S, H, T, Q, V, P, R, iterations, budget, c, weights, seen):
    # At most iterations iterations of UCT from the position S0, the root Q row R[2],
    # each played on S (its history in H), the nodes made from row R[1] on; R[0] is the
    # generator's state, R[3] counts the iterations done. 0 when they are done or the
    # root is proved; -21 out of plies (budget), -3 out of history rows: the iteration
    # under way is dropped (a node it made stays unvisited) and the caller calls again;
    # below zero as moves and make answer otherwise.
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
            first = True
            while True:
                found = {lazy_moves}moves_run(S, T)
                if found < 0:
                    return found
                status = (found >> 24) - 2
                if status >= 0:
                    st = final(S, T, status)
                    if first:
                        Q[node, {PROVEN}] = st
                    break
                first = False
                k, state = choose(S, T, found & 16777215, weights, state)
{play(" " * 16)}        # Back up: each node's mover scores its points of the end.
        w = node
        while w >= 0:
            Q[w, {VISITS}] += 1
            if Q[w, {MOVER}] >= 0:
                V[w] += P[st, Q[w, {MOVER}]]
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
'''
