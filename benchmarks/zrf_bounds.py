"""The ZRF reader's bounds measured: how fast, and in how much memory, hostile rule files
are refused (issue 27 asks for a refusal within 2 s and 200 MB, naming file, line, column
and the bound), beside the largest real files read whole.

Each case runs in a child process of its own, so that its peak memory (the child's
maximum resident set) and its CPU time are its own:

* nested: lists 500 deep in a 1 KB file;
* spliced: a macro doubling 40 times by splicing its body (2**40 atoms);
* shared: a macro tripling 40 times in nested lists (3**40 nodes, each shared);
* deep: macros that nest a list each, 211 deep after expansion;
* distinct: 60,000 calls with arguments of their own (nothing to share);
* unused: 900 KB of unused definitions (read, not refused: the cost of a file near the
  size bound);
* huge: a 10 MB file (refused by its size before it is read);

and, when ``--folder`` names a folder of real rule files, the slowest of them to read.

    python benchmarks/zrf_bounds.py [--folder DIR]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CASES = {
    "nested": lambda: "(game " + "(a " * 500 + ")" * 501,
    "spliced": lambda: "".join(f"(define a{i} (a{i - 1}) (a{i - 1}))\n" for i in range(1, 41))
    + "(define a0 x)\n(game (moves (a40)))",
    "shared": lambda: "".join(f"(define a{i} (x (a{i - 1}) (a{i - 1}) (a{i - 1})))\n"
                              for i in range(1, 41)) + "(define a0 x)\n(game (moves (a40)))",
    "deep": lambda: "".join(f"(define d{i} (x (d{i - 1})))\n" for i in range(1, 61))
    + "(define d0 y)\n(game " + "(w " * 150 + "(d60)" + ")" * 151,
    "distinct": lambda: "(define m (a (b $1) (c $1) (d $1) (e $1)))\n(game "
    + " ".join(f"(m x{i})" for i in range(60_000)) + ")",
    "unused": lambda: "(define unused (a b c))\n" * 39_000 + "(game (x))",
    "huge": lambda: "(define unused (a b c))\n" * 450_000,
}


def child(path: str) -> None:
    """Read the file at ``path`` and print what happened as JSON."""
    from boardlab.errors import BoardlabError
    from boardlab.zrf.reader import load

    before = resource.getrusage(resource.RUSAGE_SELF)
    started = time.process_time()
    try:
        forms = load(path, Path(path).name)
        outcome = f"read: {sum(getattr(f, 'size', 1) for f in forms):,} nodes"
    except BoardlabError as e:
        outcome = str(e)
    seconds = time.process_time() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "peak_mb": peak,
                      "before_mb": before.ru_maxrss / 1024, "outcome": outcome}))


def run(path: Path) -> dict:
    """The child's record for the file at ``path``."""
    done = subprocess.run([sys.executable, __file__, "--child", str(path)],
                          capture_output=True, text=True, timeout=600, check=True)
    return json.loads(done.stdout)


def main() -> None:
    """Run every case (and the folder's files) and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help="a folder of real rule files")
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    print(f"{'case':<10} {'CPU s':>7} {'peak MB':>8}  outcome")
    with tempfile.TemporaryDirectory() as folder:
        for name, make in CASES.items():
            path = Path(folder) / f"{name}.zrf"
            path.write_text(make(), encoding="utf-8")
            record = run(path)
            print(f"{name:<10} {record['seconds']:>7.2f} {record['peak_mb']:>8.0f}  "
                  f"{record['outcome'][:110]}")
    if args.folder:
        records = sorted(((run(p), p.name) for p in sorted(args.folder.rglob("*.zrf"))),
                         key=lambda r: -r[0]["seconds"])
        print(f"\n{len(records)} files of {args.folder}: the slowest to read")
        for record, name in records[:5]:
            print(f"{name:<24} {record['seconds']:>7.2f} {record['peak_mb']:>8.0f}  "
                  f"{record['outcome'][:80]}")


if __name__ == "__main__":
    main()
