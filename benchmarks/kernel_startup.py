"""CPU time and peak memory of the numba-backed commands, from process start to their
first answer, with a warm numba cache, against named baselines (issue 28).

Each row is a fresh process: its CPU time (user + system) and its peak resident memory
(``ru_maxrss``) come from the kernel's accounting of that one child (``os.wait4``), so
the machine's other work does not count, though a busy machine still slows a process
down. Each is run once to warm up (that run compiles whatever the cache lacks), then
``--runs`` times, the rows interleaved; the table gives the medians.

The baselines, which no command can beat:

* ``python -c pass``: the interpreter starting and stopping;
* ``import numpy`` and ``import numba``: numba imports NumPy, LLVM (llvmlite) and its
  own compiler, whatever it is then asked to do;
* ``njit, numba's load``: the first call of a cached one-line ``@njit(cache=True)``
  function, loaded the way numba loads it;
* ``njit, boardlab's load``: the same function in a module named inside boardlab, so
  that it loads the way boardlab's kernels load (:mod:`boardlab.compiled`);
* ``AOT extension``: the same function compiled ahead of time into a Python extension
  module by ``numba.pycc`` (deprecated by numba; needs a C compiler, the row is left out
  without one), which imports NumPy but not numba: what a kernel would cost if it
  shipped as machine code rather than as numba's cache.

The commands: perft of Breakthrough on its game kernel and without it
(``BOARDLAB_KERNELS=0``), perft of a Breakthrough rule file (ZRF) on its kernel, the
first move of an MCTS bot at Breakthrough and at Connect Four (whose playouts are a
numba kernel), counting the solutions of a 12x12 pipe level (a numba kernel) and
solving it (plain Python). The target of issue 28 is the first call of a cached kernel
under 0.2 s of CPU and 100 MB; the last column says which rows meet it.

``--against SRC`` also runs boardlab's rows with the package in another source folder
(the ``src`` of another checkout, e.g. ``git worktree add /tmp/base main``), interleaved
with this one's, and gives its medians beside them: a before and after on one machine at
one time.

    python benchmarks/kernel_startup.py            # 7 runs each
    python benchmarks/kernel_startup.py --runs 21 --against /tmp/base/src
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_SECONDS = 0.2
TARGET_MB = 100.0
BREAKTHROUGH_ZRF = ROOT / "tests" / "data" / "zrf" / "breakthrough" / "breakthrough.zrf"
#: `boardlab pipes generate --rows 12 --cols 12 --seed 1`: one solution.
PIPES_12X12 = """\
LS LU IC IF IO LZ LD LR LF LJ IB IM
LW LT IQ LI IP LR LR IO IA . IX II
LP LR LQ LG LJ LS LT IE ID IT IJ LT
LL IN ID LL IJ IM LS LC LR IT IY IV
IH LL ID LJ IZ IX LS IF LY IE IH LV
IU IH IL LE IN LG IL LR IQ LO LL LY
IF IM IO LN IB IP IU LS IG IA IY IR
IA LC IH LX ID . IM LB LU IG IV LU
IT LB LG IW IR IS IE IC IS IK IB IA
IK IH IV LG IS IE LE LN . IR ID IV
IK ID IG IX IQ IS IU LO LX LA LD LF
IP II IB LJ LW IL IW LT LZ LS IQ LG
"""
BARE_KERNEL = """\
from numba import njit


@njit(cache=True)
def twice(x):
    return 2 * x
"""
# Loads the module of BARE_KERNEL under a name (argv[2]) and calls its function once.
BARE_CALL = """\
import importlib.util, sys
if sys.argv[2].startswith("boardlab."):
    from boardlab import compiled
    compiled.watch()
spec = importlib.util.spec_from_file_location(sys.argv[2], sys.argv[1])
module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
assert module.twice(21) == 42
"""
# Compiles BARE_KERNEL's function ahead of time into the extension module bare_aot.
AOT_BUILD = """\
import sys, warnings
warnings.simplefilter("ignore")
from numba.pycc import CC
cc = CC("bare_aot")
cc.output_dir = sys.argv[1]
@cc.export("twice", "i8(i8)")
def twice(x):
    return 2 * x
cc.compile()
"""
AOT_CALL = """\
import sys
sys.path.insert(0, sys.argv[1])
import bare_aot
assert bare_aot.twice(21) == 42
"""
COMMAND = "import sys; sys.argv[0] = 'boardlab'; from boardlab.cli.main import main; main()"


@dataclass
class Row:
    """One process to measure."""

    name: str
    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    stdin: str = ""
    #: Whether the row is the first call of a cached kernel (held to the target).
    kernel: bool = True
    #: Whether the row runs boardlab's code (and is also run ``--against`` another).
    ours: bool = True
    samples: list[tuple[float, float]] = field(default_factory=list)
    against: list[tuple[float, float]] = field(default_factory=list)


def measure(row: Row, env: dict[str, str], scratch: Path) -> tuple[float, float]:
    """CPU seconds and peak megabytes of one run of ``row``."""
    stdin = scratch / "stdin.txt"
    stdin.write_text(row.stdin)
    errors = scratch / "stderr.txt"
    with stdin.open() as source, errors.open("w") as sink:
        child = subprocess.Popen(row.argv, stdin=source, stdout=subprocess.DEVNULL,
                                 stderr=sink, env={**env, **row.env}, cwd=ROOT)
        _, status, usage = os.wait4(child.pid, 0)
    if status != 0:
        sys.exit(f"{row.name} failed:\n{errors.read_text()[-2000:]}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def rows(scratch: Path) -> list[Row]:
    """The baselines and the commands."""
    python = sys.executable
    # One file each: numba's cache is named after the file, its entries after the module.
    bare, light = scratch / "bare_kernel.py", scratch / "light_kernel.py"
    bare.write_text(BARE_KERNEL)
    light.write_text(BARE_KERNEL)
    level = scratch / "pipes-12x12.txt"
    level.write_text(PIPES_12X12)

    def boardlab(*args: str) -> list[str]:
        return [python, "-c", COMMAND, *args]

    quit_ = "quit\n"
    aot: list[Row] = []
    built = subprocess.run([python, "-c", AOT_BUILD, str(scratch)], capture_output=True)
    if built.returncode == 0:
        aot.append(Row("AOT extension", [python, "-c", AOT_CALL, str(scratch)], ours=False))
    else:
        print("(no AOT extension: numba.pycc could not build one)", file=sys.stderr)
    return [
        Row("python -c pass", [python, "-c", "pass"], kernel=False, ours=False),
        Row("import numpy", [python, "-c", "import numpy"], kernel=False, ours=False),
        Row("import numba", [python, "-c", "import numba"], kernel=False, ours=False),
        Row("njit, numba's load", [python, "-c", BARE_CALL, str(bare), "bare_kernel"],
            ours=False),
        Row("njit, boardlab's load",
            [python, "-c", BARE_CALL, str(light), "boardlab.light_kernel"]),
        *aot,
        Row("perft breakthrough 1", boardlab("perft", "breakthrough", "1")),
        Row("  the same, no kernel", boardlab("perft", "breakthrough", "1"),
            env={"BOARDLAB_KERNELS": "0"}, kernel=False),
        Row("perft breakthrough.zrf 1", boardlab("perft", str(BREAKTHROUGH_ZRF), "1")),
        Row("play breakthrough, mcts", boardlab(
            "play", "breakthrough", "--player1", "mcts", "--player2", "human",
            "--iterations", "1", "--seed", "1"), stdin=quit_),
        Row("play connect-four, mcts", boardlab(
            "play", "connect-four", "--player1", "mcts", "--player2", "human",
            "--iterations", "1", "--seed", "1"), stdin=quit_),
        Row("pipes count 12x12", boardlab("pipes", "count", str(level))),
        Row("pipes solve 12x12", boardlab("pipes", "solve", str(level)), kernel=False),
    ]


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--against", metavar="SRC", type=Path,
                        help="Also run boardlab's rows with the package in this folder.")
    args = parser.parse_args()

    def environment(source: Path) -> dict[str, str]:
        env = dict(os.environ)
        # Bytecode cached as on a user's machine (see benchmarks/cli_startup.py).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(source), *filter(None, [env.get("PYTHONPATH")])])
        return env

    env = environment(ROOT / "src")
    other = environment(args.against.resolve()) if args.against else None
    with tempfile.TemporaryDirectory(prefix="kernel-startup-") as folder:
        scratch = Path(folder)
        table = rows(scratch)
        for row in table:  # warm-up: compiles what the cache lacks
            measure(row, env, scratch)
            if other is not None and row.ours:
                measure(row, other, scratch)
        for _ in range(args.runs):
            for row in table:
                row.samples.append(measure(row, env, scratch))
                if other is not None and row.ours:
                    row.against.append(measure(row, other, scratch))
    base_cpu = statistics.median(c for c, _ in table[0].samples)
    base_mb = statistics.median(m for _, m in table[0].samples)
    beside = f" {'against:':>9} {'cpu s':>6} {'MB':>6}" if other is not None else ""
    print(f"{'':26} {'cpu s':>7} {'peak MB':>8} {'cpu - py':>9} {'MB - py':>8}{beside}  "
          f"target (< {TARGET_SECONDS} s, < {TARGET_MB:.0f} MB)")
    for row in table:
        cpu = statistics.median(c for c, _ in row.samples)
        mb = statistics.median(m for _, m in row.samples)
        beside = ""
        if other is not None:
            beside = " " * 23
            if row.against:
                beside = (f" {'':>9} {statistics.median(c for c, _ in row.against):6.3f} "
                          f"{statistics.median(m for _, m in row.against):6.1f}")
        verdict = ""
        if row.kernel:
            over = []
            if cpu >= TARGET_SECONDS:
                over.append("cpu")
            if mb >= TARGET_MB:
                over.append("memory")
            verdict = "over: " + ", ".join(over) if over else "ok"
        print(f"{row.name:26} {cpu:7.3f} {mb:8.1f} {cpu - base_cpu:9.3f} "
              f"{mb - base_mb:8.1f}{beside}  {verdict}")
    import numba
    import numpy

    if other is not None:
        print(f"(against: the package in {args.against})")
    print(f"(median of {args.runs} runs each, interleaved; Python "
          f"{sys.version.split()[0]}, NumPy {numpy.__version__}, numba {numba.__version__}; "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
