"""The generator's report: its stage counts against counts made another way (every
count vector listed in plain Python, the solver's own tiling counts), its running totals,
and its JSON form."""

from __future__ import annotations

import json

import numpy as np

from boardlab.puzzles.polyomino.generator import generate_levels, sizes_up_to
from boardlab.puzzles.polyomino.report import (
    FilterRow,
    GeneratorReport,
    SizeReport,
    size_report,
    total_filter_row,
)
from boardlab.puzzles.polyomino.shapes import PIECE_SETS
from boardlab.puzzles.polyomino.solver import RectangleSolver
from boardlab.puzzles.polyomino.vectors import canonical_vectors, count_vectors, fits

TRIPLEX = PIECE_SETS["triplex"][0]


def test_vector_stages_are_true_counts():
    sizes = sizes_up_to(16)
    reports: list[SizeReport] = []
    levels = generate_levels(sizes, backend="serial", progress=False,
                             on_size=reports.append)
    assert [(r.width, r.height) for r in reports] == sizes  # once per rectangle, in order
    for report in reports:
        w, h = report.width, report.height
        usable = [fits(s, w, h) for s in TRIPLEX]
        every = list(count_vectors(TRIPLEX, w * h, usable=usable, min_pieces=3))
        kept = canonical_vectors(TRIPLEX, w, h)
        stages = report.stages
        assert stages["vectors"] == len(every)
        assert stages["orbits"] == stages["solved"] == len(kept)
        if len(kept):
            counts, _, _ = RectangleSolver(w, h, TRIPLEX).solve_counts(kept, limit=2)
            assert stages["unique"] == int(np.count_nonzero(counts == 1))
        mine = [lv for lv in levels if (lv.width, lv.height) == (w, h)]
        assert stages["unique"] - stages["cut"] == stages["levels"] == report.levels == len(mine)
        turning = [lv for lv in mine if lv.rotatable not in (None, ())]
        assert stages["rotatable"] == len(turning)
        assert report.seconds >= 0


def test_running_totals_and_json_round_trip():
    sizes = (SizeReport(4, 2, "vectors", 2, 0.5, {"vectors": 35}),
             SizeReport(3, 3, "vectors", 1, 1.25, {"vectors": 80}))
    report = GeneratorReport("triplex", "vectors", sizes, 2.0)
    rows = report.size_rows()
    assert [(r.size, r.total_levels, r.total_seconds) for r in rows] == [
        ("4x2", 2, 0.5), ("3x3", 3, 1.75)]
    data = json.loads(json.dumps(report.to_json()))
    assert data["sizes"][1]["total_levels"] == 3 and data["levels"] == 3
    assert data["stages"]["vectors"] == 115
    again = GeneratorReport.from_json(data)
    assert again.size_rows() == rows and again.stage_totals() == report.stage_totals()


def test_filter_lines_add_up_like_the_seeds_table():
    # the seed's 6x6 report, first and last lines: Total = first checked, last accepted
    rows = (FilterRow("2x2Duplicates", 596745944245, 301428537686),
            FilterRow("Solver", 5887701, 5887655))
    total = total_filter_row(rows)
    assert (total.checked, total.accepted, total.rejected) == (596745944245, 46,
                                                               596745944199)
    merged = size_report(6, 6, "partitions", [
        {"levels": [[0]], "seconds": 1.0, "stages": {"states": 10},
         "filters": [["2x2Duplicates", 10, 4], ["Solver", 6, 5]]},
        {"levels": [], "seconds": 2.0, "stages": {"states": 5},
         "filters": [["2x2Duplicates", 5, 5], ["Solver", 0, 0]]}])
    assert merged.filters == (FilterRow("2x2Duplicates", 15, 9), FilterRow("Solver", 6, 5))
    assert merged.levels == 1 and merged.seconds == 3.0 and merged.stages["states"] == 15
    lines = merged.to_json()["filters"]
    assert lines[-1] == {"filter": "Total", "checked": 15, "accepted": 1, "rejected": 14,
                         "rejected_percent": 93.33, "rejected_percent_of_total": 93.33}


def test_a_resumed_run_reports_the_whole_run(tmp_path):
    """The counts travel in the task results, so a run read back from its checkpoint
    reports what the run that did the work reported (times included)."""
    checkpoint = tmp_path / "run.checkpoint.jsonl"
    for method in ("vectors", "partitions"):
        first: list[SizeReport] = []
        again: list[SizeReport] = []
        generate_levels([(4, 3), (5, 3)], backend="serial", progress=False, method=method,
                        checkpoint=checkpoint, on_size=first.append)
        generate_levels([(4, 3), (5, 3)], backend="serial", progress=False, method=method,
                        checkpoint=checkpoint, on_size=again.append)
        assert again == first and [r.levels for r in first] == [4, 6]
        checkpoint.unlink()
