"""How quickly the command line answers: `simstats --version`, `games` and `policies`, a
`compare` of two committed results, and the whole 1e6-deal Tournament `foundation-only` run on
one worker against a plain C program playing the same deals (benchmarks/plain_c/, built here
with gcc), all in one sitting. Each is timed as a whole process, wall clock, pinned to one core:
best and median of K (the run and the C program min(K, 3) times), after one untimed call of
each (the run's warms its compile cache). Checks that the C program's wins and cards home equal
the run's. Writes benchmarks/cli_speed.md.

    python benchmarks/cli_speed.py [--repeat 5] [--core 1]

The targets are the issue's: --version, games and policies at most 0.5 s, compare at most 1.5 s,
the run at most 3.5 times the C program. Needs gcc and taskset, and the chosen core idle.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = Path(__file__).with_suffix(".md")
C_SOURCE = Path(__file__).resolve().parent / "plain_c" / "foundation_only.c"
DEALS = 1_000_000
# Two committed cells played on the same deals (paired on 2,000), with who won each deal kept in
# the run's wins.npz (results/planner-5k keeps none, so compare refuses its cells).
COMPARE = ("results/answers:tournament:planner", "results/answers:tournament:solver")
RUN = ("run", "--game", "tournament", "--policy", "foundation-only", "--games", "1e6",
       "--workers", "1", "-q")
RUN_RATIO = 3.5


def simstats() -> list[str]:
    """The console script beside this interpreter (what a user types), else `python -m`."""
    script = Path(sys.executable).with_name("simstats")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "simstats"]


def timed(command: list[str], core: int) -> tuple[float, str]:
    """Seconds a whole process took, pinned to `core`, and its standard output."""
    start = time.perf_counter()
    done = subprocess.run(["taskset", "-c", str(core), *command], cwd=ROOT, capture_output=True,
                          text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return seconds, done.stdout


def repeated(command: list[str], core: int, times: int) -> tuple[list[float], str]:
    """Seconds of `times` calls after one untimed call, and the last call's output."""
    timed(command, core)
    runs = [timed(command, core) for _ in range(times)]
    return [seconds for seconds, _ in runs], runs[-1][1]


def timed_run(core: int) -> tuple[float, dict]:
    """Seconds of the 1e6-deal run into a fresh folder (removed after), and its summary row."""
    folder = Path(tempfile.mkdtemp(prefix="simstats-cli-speed-"))
    try:
        seconds, _ = timed([*simstats(), *RUN, "--out", str(folder / "run")], core)
        with open(folder / "run" / "summary.csv", newline="") as file:
            row = next(r for r in csv.DictReader(file)
                       if (r["game"], r["policy"]) == ("tournament", "foundation-only"))
    finally:
        shutil.rmtree(folder)
    return seconds, row


def c_counts(output: str) -> tuple[int, int, int]:
    """(deals, wins, cards home) from the C program's last line."""
    words = output.split()
    return tuple(int(words[words.index(key) + 1]) for key in ("deals", "wins", "cards_home"))


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text()
                .splitlines() if line.startswith("model name")), platform.processor())
    return f"{platform.platform()}, {os.cpu_count()} cores ({cpu}), Python " \
           f"{platform.python_version()}"


def commit() -> str:
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "simstats", "benchmarks",
                            ":(exclude)benchmarks/cli_speed.md"],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    return head + (" (with uncommitted changes)" if dirty else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, metavar="K",
                        help="timed calls of each quick command (the run and C: min(K, 3))")
    parser.add_argument("--core", type=int, default=1, help="the core to pin every process to")
    args = parser.parse_args()
    k, long_k = args.repeat, min(args.repeat, 3)
    cli = simstats()
    shown = "simstats" if len(cli) == 1 else "python -m simstats"
    rows = []  # (command, seconds, target in seconds, the target as written)
    for words, target in ((["--version"], 0.5), (["games"], 0.5), (["policies"], 0.5),
                          (["compare", *COMPARE], 1.5)):
        seconds, _ = repeated([*cli, *words], args.core, k)
        rows.append((f"{shown} {' '.join(words)}", seconds, target, f"{target} s"))
        print(f"{rows[-1][0]}: best {min(seconds):.3f} s", flush=True)

    timed_run(args.core)  # untimed: warms the compile cache and the files
    runs = [timed_run(args.core) for _ in range(long_k)]
    run_seconds = [seconds for seconds, _ in runs]
    summary = runs[-1][1]
    print(f"run: best {min(run_seconds):.2f} s", flush=True)

    build = Path(tempfile.mkdtemp(prefix="simstats-plain-c-"))
    try:
        binary = build / "foundation_only"
        subprocess.run(["gcc", "-O2", "-march=native", "-o", str(binary), str(C_SOURCE)],
                       check=True)
        c_seconds, c_output = repeated([str(binary), str(DEALS), "0"], args.core, long_k)
    finally:
        shutil.rmtree(build)
    print(f"C: best {min(c_seconds):.2f} s", flush=True)

    n, wins, home = c_counts(c_output)
    same = (int(summary["n_deals"]) == n == DEALS and int(summary["wins"]) == wins
            and abs(float(summary["mean_foundation_cards"]) - home / n) < 1e-9)
    if not same:
        sys.exit(f"the C program's deals differ from the run's: C {n} deals, {wins} won, "
                 f"{home} cards home; the run's summary.csv {summary['n_deals']} deals, "
                 f"{summary['wins']} won, mean {summary['mean_foundation_cards']} cards home")
    c_best, c_median = min(c_seconds), statistics.median(c_seconds)
    ratio, median_ratio = min(run_seconds) / c_best, statistics.median(run_seconds) / c_median
    rows.append((f"{shown} {' '.join(RUN)} --out TMP", run_seconds, RUN_RATIO * c_best,
                 f"{RUN_RATIO} x C = {RUN_RATIO * c_best:.2f} s"))
    table = [f"| `{command}` | {min(seconds):.3f} | {statistics.median(seconds):.3f} | {text} | "
             f"{'yes' if min(seconds) <= target else '**no**'} |"
             for command, seconds, target, text in rows]
    table.append(f"| C: `foundation_only {DEALS} 0` (gcc -O2 -march=native) | {c_best:.3f} | "
                 f"{c_median:.3f} | the yardstick | - |")
    command = " ".join(["python benchmarks/cli_speed.py", *sys.argv[1:]])
    OUT.write_text(f"""# How quickly the command line answers

Measured by `{command}` on {datetime.date.today()}, commit {commit()}, on {machine()}.
Each command is a whole process, timed by wall clock and pinned to core {args.core}: best and
median of {k} calls ({long_k} for the run and the C program), after one untimed call of each
(the run's warms the compile cache). The run writes into a fresh temporary folder each time.
"met?" judges the best time.

| command | best s | median s | target | met? |
|---|---|---|---|---|
{chr(10).join(table)}

The run over the C program: **{ratio:.2f}x** best to best ({median_ratio:.2f}x median to
median); the issue asks for at most {RUN_RATIO}x. The C program
([plain_c/foundation_only.c](plain_c/foundation_only.c), one file of C99) plays deals 0 to
{DEALS - 1:,} of seed 0 as simstats does, {c_best / DEALS * 1e6:.2f} us a deal at best. Its
{wins:,} deals won and {home:,} cards home (a mean of {home / n}) equal the run's summary.csv
({summary['n_deals']} deals, {summary['wins']} won, mean {summary['mean_foundation_cards']}):
checked on every call of this script.
""")
    print(OUT.read_text())


if __name__ == "__main__":
    main()
