"""Deals per second of `simstats run -q` with `--backend local` and `--backend dask`, 2 workers
each, run as a subprocess: the whole command, and the play alone (run.log, start to complete).
Writes benchmarks/dask_throughput.md.

    python benchmarks/dask_throughput.py [--tournament-deals 2e6] [--lookahead-deals 4000]
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

OUT = Path(__file__).with_suffix(".md")


def run_once(game: str, policy: str, deals: int, chunk: int, backend: str) -> tuple[float, float]:
    """(seconds of the whole command, seconds from 'run started' to 'run complete' in run.log)"""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "run"
        command = [sys.executable, "-m", "simstats", "run", "--games", str(deals), "--game", game,
                   "--policy", policy, "--chunk-size", str(chunk), "--workers", "2",
                   "--backend", backend, "--out", str(out), "-q"]
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        whole = time.perf_counter() - start
        stamps = [line[:23] for line in (out / "run.log").read_text().splitlines()
                  if "MainProcess" in line and ("run started" in line or "run complete" in line)]
    first, last = (datetime.strptime(s, "%Y-%m-%d %H:%M:%S,%f") for s in (stamps[0], stamps[-1]))
    return whole, (last - first).total_seconds()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tournament-deals", type=float, default=2e6)
    parser.add_argument("--lookahead-deals", type=float, default=4000)
    parser.add_argument("--repeats", type=int, default=2, help="keep the best of this many runs")
    args = parser.parse_args()
    cases = [("tournament", "foundation-only", int(args.tournament_deals), 50_000),
             ("tournament", "lookahead", int(args.lookahead_deals), 250),
             ("cicely", "foundation-only", 20, 10)]  # next to no play: the fixed cost
    load = os.getloadavg()[0]
    run_once("cicely", "foundation-only", 10, 10, "local")  # load or compile the compiled code
    rows = []
    for game, policy, deals, chunk in cases:
        for backend in ("local", "dask"):
            whole, play = map(min, zip(*(run_once(game, policy, deals, chunk, backend)
                                         for _ in range(args.repeats)), strict=True))
            rows.append(f"| {game} | {policy} | {deals:,} | {chunk:,} | {backend} | "
                        f"{deals / whole:,.0f} | {deals / play:,.0f} | {whole:.1f} |")
            print(rows[-1], flush=True)
    text = "\n".join([
        f"# `simstats run` throughput, local vs Dask ({time.strftime('%Y-%m-%d')}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, 2 workers, "
        f"best of {args.repeats} runs, load average {load:.1f} at the start)",
        "",
        "Whole command: interpreter start, cluster start and stop, report and plots included. "
        "Play: from `run started` to `run complete` in run.log (the Dask cluster's start "
        "and stop included, the report not). The 20-deal run shows the fixed cost of each.",
        "",
        "| game | policy | deals | chunk size | backend | deals/s, whole command | "
        "deals/s, play | seconds, whole command |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
        "",
    ])
    OUT.write_text(text)
    print(f"written to {OUT}")


if __name__ == "__main__":
    main()
