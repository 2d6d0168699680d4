"""Whole-command figures of `simstats run` (issue 3): time of a million Tournament deals on one
worker, throughput of 2 workers against 1, the default main job, and peak memory at 1e5 and
1e7 deals. Writes benchmarks/run_speed.md.

    python benchmarks/run_speed.py
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

OUT = Path(__file__).with_suffix(".md")
PEAK = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def simstats(*args: str) -> list[str]:
    return [sys.executable, "-m", "simstats", *args]


def timed_run(*args: str) -> tuple[float, float, int]:
    """(whole command seconds, seconds playing from the log, peak RSS in KiB of any process)."""
    folder = Path(tempfile.mkdtemp(prefix="simstats-bench-")) / "run"
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK, *simstats("run", *args, "--out",
                                                                 str(folder), "-q")],
                          check=True, capture_output=True, text=True)
    whole = time.perf_counter() - start
    peak_kib = int(done.stdout.strip().splitlines()[-1])
    stamps = [datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S,%f")
              for m in re.finditer(r"^(\S+ \S+) MainProcess\S* INFO run (?:started|complete)",
                                   (folder / "run.log").read_text(), re.M)]
    playing = (stamps[-1] - stamps[0]).total_seconds()
    shutil.rmtree(folder.parent)
    return whole, playing, peak_kib


def best_of(n: int, *args: str) -> tuple[float, float, int]:
    runs = [timed_run(*args) for _ in range(n)]
    return min(runs, key=lambda r: r[0])


def main() -> None:
    tournament = ("--game", "tournament", "--policy", "foundation-only")
    rows = []
    whole, playing, _ = best_of(2, *tournament, "--games", "1e6", "--workers", "1")
    rows.append(f"| 1e6 Tournament deals, foundation-only, 1 worker, whole command | "
                f"{whole:.1f} s (playing {playing:.1f} s) |")
    print(rows[-1], flush=True)
    _, one, _ = best_of(2, *tournament, "--games", "4e6", "--workers", "1")
    _, two, _ = best_of(2, *tournament, "--games", "4e6", "--workers", "2")
    rows.append(f"| throughput, 4e6 deals: 1 worker / 2 workers | {4e6 / one:,.0f} / "
                f"{4e6 / two:,.0f} deals/s: {one / two:.2f}x |")
    print(rows[-1], flush=True)
    whole, playing, _ = best_of(1, "--games", "1e6")
    rows.append(f"| `simstats run --games 1e6` (defaults, 2 workers) | {whole:.1f} s "
                f"(playing {playing:.1f} s) |")
    print(rows[-1], flush=True)
    _, _, small = timed_run(*tournament, "--games", "1e5")
    _, _, large = timed_run(*tournament, "--games", "1e7")
    rows.append(f"| peak memory of any process, 1e5 / 1e7 deals | {small / 1024:.0f} / "
                f"{large / 1024:.0f} MiB: {large / small:.2f}x |")
    print(rows[-1], flush=True)
    OUT.write_text("\n".join([
        f"# simstats run ({time.strftime('%Y-%m-%d')}, 2-core machine, Python "
        f"{sys.version.split()[0]})", "", "| measure | figure |", "|---|---|", *rows, ""]))
    print(f"written to {OUT}")


if __name__ == "__main__":
    main()
