"""The kernel's writer: the expression of each test of the language (the visitor of its
predicates)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from boardlab.core import rules as r
from boardlab.core.kernel.checks import _combination
from boardlab.core.kernel.layout import (
    BOARD,
    LAST,
)


class _Predicates:
    """The part of ``_Writer`` that writes
    the expression of each test of the language (the visitor of its predicates)."""

    #: The method that writes each test type as an expression (filled in below the class).
    TEST: ClassVar[dict[type, Callable[..., str]]] = {}

    # --- predicates -----------------------------------------------------------------
    def expr(self, p: Any, w: str) -> str:
        """The expression of predicate ``p`` read at cell ``w``: off the board (a
        cursor of -1, :attr:`leaving`), every test of the cell is false and
        ``on-board?`` is."""
        if self.leaving and w == "pos":
            combined = _combination(p, lambda q: self.expr(q, w))
            if combined is not None:
                return combined
            if isinstance(p, r.OnBoard):
                return "(pos >= 0)"
            if isinstance(p, r.Always | r.Never | r.Flag | r.Var | r.Less | r.AtCell
                          | r.Connected | r.PieceCount):
                return self.cell_expr(p, w)  # reads no cell under the cursor
            return f"(pos >= 0 and {self.cell_expr(p, w)})"
        return self.cell_expr(p, w)

    def cell_expr(self, p: Any, w: str) -> str:
        """:meth:`expr` where ``w`` is a cell of the board."""
        return self.TEST[type(p)](self, p, w, f"S[{BOARD} + {w}]")

    def t_empty(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Empty`` at ``w`` (``cell``: what stands there)."""
        return f"({cell} == 0)"

    def t_friend(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Friend`` at ``w`` (``cell``: what stands there)."""
        return f"(T[{self.owner} + {cell}] == player)"

    def t_enemy(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Enemy`` at ``w`` (``cell``: what stands there)."""
        return f"({cell} != 0 and T[{self.owner} + {cell}] != player)"

    def t_neutral(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Neutral`` at ``w`` (``cell``: what stands there)."""
        neutral = self.game.ruleset.neutral_players
        off = self.mask_of_codes(("neutral",), lambda piece: piece.owner in neutral)
        return f"(T[{off} + {cell}] != 0)"

    def t_on_board(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``OnBoard`` or ``Always`` at ``w`` (``cell``: what stands there)."""
        return "True"

    def t_last_from(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``LastFrom`` at ``w`` (``cell``: what stands there)."""
        # S[LAST]: the last move's source + 1 | its target + 1 << 16
        return f"({w} == (S[{LAST}] & 65535) - 1)"

    def t_last_to(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``LastTo`` at ``w`` (``cell``: what stands there)."""
        return f"({w} == (S[{LAST}] >> 16) - 1)"

    def t_never(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Never`` at ``w`` (``cell``: what stands there)."""
        return "False"

    def t_marked(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Marked`` at ``w`` (``cell``: what stands there)."""
        return f"({w} == (start if mark {self.unmarked()} else mark))"

    def t_flag(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Flag`` at ``w`` (``cell``: what stands there)."""
        return f"({self.variable(p.name)} != 0)"

    def t_position_flag(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``PositionFlag`` at ``w`` (``cell``: what stands there)."""
        return f"(T[{self.position_flag(p.name)} + {w}] == ps)"

    def t_attacked(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Attacked`` at ``w`` (``cell``: what stands there)."""
        if self.attacking:
            return "False"  # not asked inside an attack (the interpreter's)
        code = -1 if p.move_type is None else self.attack_types[p.move_type]
        return f"could_take(S, T, player, {w}, start, hand, {p.defended}, {code})"

    def t_var(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Var`` at ``w`` (``cell``: what stands there)."""
        return self.variable(p.name)

    def t_less(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Less`` at ``w`` (``cell``: what stands there)."""
        left, right = (str(v) if isinstance(v, int) else self.expr(v, w)
                       for v in (p.left, p.right))
        return f"({left} < {right})"

    def t_piece_count(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``PieceCount`` (a value, the same at every cell)."""
        return self.piece_count(p)

    def t_connected(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Connected`` (read once a position, the same at every
        cell: see :meth:`whole_moves`)."""
        slot = self.connections.setdefault(p.directions, len(self.connections))
        return f"(T[XCN + {slot}] != 0)"

    def t_at_cell(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``AtCell`` at ``w`` (``cell``: what stands there)."""
        return self.expr(p.test, str(p.cell))

    def t_at_step(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``AtStep`` at ``w`` (``cell``: what stands there)."""
        row = self.direction(p.direction).format(w)
        return f"({row} >= 0 and {self.expr(p.test, row)})"

    def t_on_board_step(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``OnBoardStep`` at ``w`` (``cell``: what stands there)."""
        return f"({self.direction(p.direction).format(w)} >= 0)"

    def t_position_is(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``PositionIs`` at ``w`` (``cell``: what stands there)."""
        return f"({w} == {p.cell})"

    def t_in_cells(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``InCells`` at ``w`` (``cell``: what stands there)."""
        cells = frozenset(p.cells)
        off = self.put(("cells", cells), [1 if c in cells else 0 for c in range(self.size)])
        return f"(T[{off} + {w}] != 0)"

    def t_piece_is(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``PieceIs`` at ``w`` (``cell``: what stands there)."""
        return f"(T[{self.kinds_mask(p.kinds)} + {cell}] != 0)"

    def t_attribute(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Attribute`` at ``w`` (``cell``: what stands there)."""
        name = p.name
        off = self.mask_of_codes(("attribute", name), lambda piece: name in piece.attributes)
        return f"(T[{off} + {cell}] != 0)"

    def t_adjacent_to_enemy(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``AdjacentToEnemy`` at ``w`` (``cell``: what stands there)."""
        if "neighbours" not in self.offsets:
            # Each cell's neighbours in every direction (interpret._enemy_next_to), a
            # run of the table from each cell's start.
            rows = [[row[c] for row in self.board.links if row[c] >= 0]
                    for c in range(self.size)]
            starts = [0]
            for cells in rows:
                starts.append(starts[-1] + len(cells))
            first = self.put("neighbours", [v + self.size + 1 for v in starts])
            self.put("neighbour cells", [c for cells in rows for c in cells])
            self.helpers.append(
                "@njit(cache=True)\n"
                "def near_enemy(S, T, cell, player):\n"
                f"    for i in range(T[{first} + cell], T[{first} + cell + 1]):\n"
                f"        v = S[{BOARD} + T[{first} + i]]\n"
                f"        if v != 0 and T[{self.owner} + v] != player:\n"
                "            return True\n"
                "    return False\n")
        return f"near_enemy(S, T, {w}, player)"

    def t_in_zone(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``InZone`` at ``w`` (``cell``: what stands there)."""
        zone = self.board.zones[p.zone]
        off = self.put(("zone", p.zone), [1 if c in zone.get(pl, ()) else 0
                                          for pl in range(self.players)
                                          for c in range(self.size)])
        return f"(T[{off} + player * {self.size} + {w}] != 0)"

    def t_combined(self, p: Any, w: str, cell: str) -> str:
        """The expression of ``Not``, ``AllOf`` or ``AnyOf`` at ``w``."""
        combined = _combination(p, lambda q: self.expr(q, w))
        assert combined is not None
        return combined

    def unmarked(self) -> str:
        """The test that a run has no mark, of ``mark``: below zero, but in a run that
        may leave the board, where a mark may be set off it (-1), -2."""
        return "== -2" if self.leaving else "< 0"

    def position_flag(self, name: str) -> str:
        """Where the flags ``name`` of the cells are (ZRF ``set-position-flag``): a
        cell's flag is set in this run when it holds the run's stamp ``ps`` (a number
        new at each run's start: nothing is cleared between runs)."""
        if name not in self.position_flags:
            self.position_flags[name] = len(self.position_flags)
        return f"XF + {self.position_flags[name] * self.size}"

    def run_resets(self, indent: str) -> list[str]:
        """The lines that start a run: every flag and counter at 0 (written once the
        program has named them; numba wants a local set on every path), and a new
        stamp for the cells' flags."""
        lines = [f"{indent}{v} = 0" for v in self.variables.values()]
        if self.position_flags:
            lines += [f"{indent}T[XF - 1] += 1", f"{indent}ps = T[XF - 1]"]
        return lines

    def variable(self, name: str) -> str:
        """The local of a run's flag or counter ``name`` (flags and counters share one
        namespace, as :class:`~boardlab.core.interpret.Cursor` keeps them in one dict: a
        flag is 1 or 0)."""
        if name not in self.variables:
            self.variables[name] = f"_v{len(self.variables)}"
        return self.variables[name]


#: The writer's expression for each test type (checked first by :data:`_CHECK_TEST`).
_Predicates.TEST.update({
    r.Empty: _Predicates.t_empty,
    r.Friend: _Predicates.t_friend,
    r.Enemy: _Predicates.t_enemy,
    r.Neutral: _Predicates.t_neutral,
    r.OnBoard: _Predicates.t_on_board,
    r.Always: _Predicates.t_on_board,
    r.LastFrom: _Predicates.t_last_from,
    r.LastTo: _Predicates.t_last_to,
    r.Never: _Predicates.t_never,
    r.Marked: _Predicates.t_marked,
    r.Flag: _Predicates.t_flag,
    r.PositionFlag: _Predicates.t_position_flag,
    r.Attacked: _Predicates.t_attacked,
    r.Var: _Predicates.t_var,
    r.Less: _Predicates.t_less,
    r.PieceCount: _Predicates.t_piece_count,
    r.Connected: _Predicates.t_connected,
    r.AtCell: _Predicates.t_at_cell,
    r.AtStep: _Predicates.t_at_step,
    r.OnBoardStep: _Predicates.t_on_board_step,
    r.PositionIs: _Predicates.t_position_is,
    r.InCells: _Predicates.t_in_cells,
    r.PieceIs: _Predicates.t_piece_is,
    r.Attribute: _Predicates.t_attribute,
    r.AdjacentToEnemy: _Predicates.t_adjacent_to_enemy,
    r.InZone: _Predicates.t_in_zone,
    r.Not: _Predicates.t_combined,
    r.AllOf: _Predicates.t_combined,
    r.AnyOf: _Predicates.t_combined,
})
