"""The generator's report: what a run did per rectangle, per stage and per filter.

Source: the Triplex article's "Отчёт генератора" (a table per filter: checked, accepted,
rejected, rejected %, rejected % of the total, filter) and "Таблица размерностей задач"
(per rectangle: area, size, levels, time, running totals of levels and time); see
:doc:`/triplex`. The counts are gathered by the workers
(:func:`~boardlab.puzzles.polyomino.generator.solve_chunk`,
:func:`~boardlab.puzzles.polyomino.partitions.solve_partitions`) and summed here; this
module only holds and adds up values (the command line draws them as tables).

Stages of the vector method (``METHODS["vectors"]``):

* ``vectors``: the piece-count vectors of the rectangle's area (at least 3 pieces, shapes
  that fit), before the symmetry reduction (the sizes of the orbits kept, summed);
* ``orbits``: the vectors kept, one per symmetry orbit;
* ``solved``: the vectors whose tilings the solver counted (one search each);
* ``unique``: those with exactly one tiling;
* ``cut``: of those, rejected because the tiling has a straight cut;
* ``levels``: the levels found;
* ``rotatable``: levels with a rotatable piece.

Stages of the partition method (``METHODS["partitions"]``): ``states`` (edge states the
loop examined), ``orbits`` (states that passed RotatedAndReflected: one per symmetry
class), ``solved`` (their distinct count vectors, each solved once), ``unique`` (states
the Solver accepted), ``cut`` (states StraightCut rejected), ``levels`` and
``rotatable``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["METHODS", "FilterRow", "GeneratorReport", "SizeReport", "SizeRow",
           "human_seconds", "orbit_total", "percent", "size_report", "total_filter_row"]

#: The stages each method counts, in order, with a column heading.
METHODS: dict[str, tuple[tuple[str, str], ...]] = {
    "vectors": (("vectors", "vectors"), ("orbits", "orbits kept"),
                ("solved", "solver calls"), ("unique", "unique"),
                ("cut", "straight cut"), ("levels", "levels"),
                ("rotatable", "rotatable")),
    "partitions": (("states", "states checked"), ("orbits", "orbits kept"),
                   ("solved", "solver calls"), ("unique", "unique"),
                   ("cut", "straight cut"), ("levels", "levels"),
                   ("rotatable", "rotatable")),
}


@dataclass(frozen=True)
class FilterRow:
    """One filter's line of the seed's report: ``checked`` partitions reached it and it
    rejected ``rejected`` of them."""

    name: str
    checked: int
    rejected: int

    @property
    def accepted(self) -> int:
        """The partitions passed on to the next filter."""
        return self.checked - self.rejected


def total_filter_row(filters: Sequence[FilterRow]) -> FilterRow:
    """The seed's ``Total`` line: everything the first filter checked, everything but
    what the last one accepted rejected."""
    if not filters:
        return FilterRow("Total", 0, 0)
    return FilterRow("Total", filters[0].checked, filters[0].checked - filters[-1].accepted)


def percent(part: int, whole: int) -> float:
    """``100 * part / whole`` (0 when ``whole`` is 0).

    >>> percent(1, 8), percent(3, 0)
    (12.5, 0.0)
    """
    return 100.0 * part / whole if whole else 0.0


@dataclass(frozen=True)
class SizeReport:
    """What the generator did for one rectangle: its levels, the seconds the workers spent
    on it (summed over its tasks), the stage counts of its method and, for the partition
    method, the seed's filter lines."""

    width: int
    height: int
    method: str
    levels: int
    seconds: float
    stages: Mapping[str, int]
    filters: tuple[FilterRow, ...] = ()

    @property
    def area(self) -> int:
        """``width * height``."""
        return self.width * self.height

    @property
    def vectors(self) -> int:
        """The count vectors (vector method) or edge states (partition method) looked at."""
        return self.stages.get("vectors", self.stages.get("states", 0))

    def to_json(self) -> dict[str, Any]:
        """The report of this rectangle as JSON."""
        out: dict[str, Any] = {"width": self.width, "height": self.height, "area": self.area,
                               "method": self.method, "levels": self.levels,
                               "seconds": round(self.seconds, 6), "stages": dict(self.stages)}
        if self.filters:
            out["filters"] = [_filter_json(row, self.filters[0].checked)
                              for row in (*self.filters, total_filter_row(self.filters))]
        return out


def _filter_json(row: FilterRow, total: int) -> dict[str, Any]:
    return {"filter": row.name, "checked": row.checked, "accepted": row.accepted,
            "rejected": row.rejected, "rejected_percent": round(percent(row.rejected,
                                                                        row.checked), 2),
            "rejected_percent_of_total": round(percent(row.rejected, total), 2)}


def size_report(width: int, height: int, method: str, results: Iterable[Mapping[str, Any]]
                ) -> SizeReport:
    """The report of one rectangle from its tasks' worker results (each holds
    ``levels``, ``seconds``, ``stages`` and, for the partition method, ``filters`` as
    ``[name, checked, rejected]`` lines)."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}")
    stages = {key: 0 for key, _ in METHODS[method]}
    filters: dict[str, list[int]] = {}
    seconds = 0.0
    levels = 0
    for result in results:
        levels += len(result["levels"])
        seconds += float(result["seconds"])
        for key, value in result["stages"].items():
            stages[key] = stages.get(key, 0) + int(value)
        for name, checked, rejected in result.get("filters", ()):
            row = filters.setdefault(name, [0, 0])
            row[0] += int(checked)
            row[1] += int(rejected)
    return SizeReport(width, height, method, levels, seconds, stages,
                      tuple(FilterRow(name, c, r) for name, (c, r) in filters.items()))


@dataclass(frozen=True)
class SizeRow:
    """A line of the seed's table of sizes: a rectangle and the running totals up to it."""

    area: int
    size: str
    levels: int
    seconds: float
    total_levels: int
    total_seconds: float


@dataclass(frozen=True)
class GeneratorReport:
    """A whole run: piece set, method, the rectangles in the order run and the wall
    seconds of the run (or of its last resume)."""

    pieces: str
    method: str
    sizes: tuple[SizeReport, ...]
    wall_seconds: float = 0.0

    def size_rows(self) -> list[SizeRow]:
        """The seed's "table of sizes", with running totals of levels and time."""
        rows, levels, seconds = [], 0, 0.0
        for size in self.sizes:
            levels += size.levels
            seconds += size.seconds
            rows.append(SizeRow(size.area, f"{size.width}x{size.height}", size.levels,
                                size.seconds, levels, seconds))
        return rows

    def stage_totals(self) -> dict[str, int]:
        """Each stage count summed over the rectangles."""
        out = {key: 0 for key, _ in METHODS[self.method]}
        for size in self.sizes:
            for key, value in size.stages.items():
                out[key] = out.get(key, 0) + value
        return out

    def filter_totals(self) -> tuple[FilterRow, ...]:
        """Each filter line summed over the rectangles (partition method; empty else)."""
        rows: dict[str, list[int]] = {}
        for size in self.sizes:
            for row in size.filters:
                total = rows.setdefault(row.name, [0, 0])
                total[0] += row.checked
                total[1] += row.rejected
        return tuple(FilterRow(name, c, r) for name, (c, r) in rows.items())

    @property
    def levels(self) -> int:
        """Levels found in all."""
        return sum(size.levels for size in self.sizes)

    def to_json(self) -> dict[str, Any]:
        """The report as JSON: every rectangle with its running totals, the stage totals
        and, for the partition method, the filter totals."""
        sizes = []
        for size, row in zip(self.sizes, self.size_rows(), strict=True):
            sizes.append({**size.to_json(), "total_levels": row.total_levels,
                          "total_seconds": round(row.total_seconds, 6)})
        out: dict[str, Any] = {
            "format": "boardlab-generator-report", "version": 1, "pieces": self.pieces,
            "method": self.method, "levels": self.levels,
            "seconds": round(sum(s.seconds for s in self.sizes), 6),
            "wall_seconds": round(self.wall_seconds, 6), "sizes": sizes,
            "stages": self.stage_totals()}
        filters = self.filter_totals()
        if filters:
            out["filters"] = [_filter_json(row, filters[0].checked)
                              for row in (*filters, total_filter_row(filters))]
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> GeneratorReport:
        """The report :meth:`to_json` wrote."""
        sizes = tuple(
            SizeReport(s["width"], s["height"], s["method"], s["levels"], s["seconds"],
                       dict(s["stages"]),
                       tuple(FilterRow(f["filter"], f["checked"], f["rejected"])
                             for f in s.get("filters", ()) if f["filter"] != "Total"))
            for s in data["sizes"])
        return GeneratorReport(data["pieces"], data["method"], sizes, data["wall_seconds"])


def human_seconds(seconds: float) -> str:
    """A duration the way the seed's table writes it: seconds, minutes, hours or days.

    >>> human_seconds(0.25), human_seconds(150), human_seconds(3 * 3600), human_seconds(2e6)
    ('0.25 s', '2.5 min', '3.0 h', '23.1 days')
    """
    for unit, length in (("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= length:
            return f"{seconds / length:.1f} {unit}"
    return f"{seconds:.2f} s"


def orbit_total(vectors: Iterable[Sequence[int]], permutations: Sequence[Sequence[int]]
                ) -> int:
    """How many count vectors the orbits of ``vectors`` hold under the shape
    ``permutations`` of a rectangle's symmetries (the vectors before one per orbit was
    kept).

    >>> orbit_total([(2, 0), (1, 1)], [(0, 1), (1, 0)])
    3
    """
    total = 0
    for vector in vectors:
        images = set()
        for perm in permutations:
            image = [0] * len(vector)
            for i, a in enumerate(vector):
                image[perm[i]] += int(a)
            images.add(tuple(image))
        total += max(len(images), 1)
    return total
