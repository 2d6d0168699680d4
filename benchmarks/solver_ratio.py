"""`solver`'s time a deal against `foundation-only`'s in the same run, several runs (issue 16's
measure: "the machine is noisy, so take the best of several"). Writes benchmarks/solver_ratio.md.

    taskset -c 1 python benchmarks/solver_ratio.py [--games 20000] [--runs 3]
                                                   [--policy solver --policy "solver[restarts=22]"]

Each run is `simstats run --game tournament --games N --policy foundation-only --policy ...
--workers 1 --chunk-size 2000` in a scratch folder; times are the chunks' own (the deals alone,
report.us_per_deal). `foundation-only` plays 20,000 deals in about a tenth of a second, so its
time, and every ratio with it, moves more from run to run than the searching policies' own.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from datetime import datetime
from pathlib import Path

import pandas as pd

from simstats.report.summary import us_per_deal

OUT = Path(__file__).with_suffix(".md")
FLOOR = "foundation-only"


def one_run(games: int, policies: list[str]) -> tuple[dict[str, float], dict[str, int]]:
    """(policy -> us a deal, policy -> deals won) of one run in a scratch folder."""
    with tempfile.TemporaryDirectory(prefix="simstats-ratio-") as scratch:
        out = Path(scratch) / "run"
        command = [sys.executable, "-m", "simstats", "run", "--game", "tournament",
                   "--games", str(games), "--workers", "1", "--chunk-size", "2000",
                   "--out", str(out), "-q"]
        for policy in [FLOOR, *policies]:
            command += ["--policy", policy]
        subprocess.run(command, check=True)
        manifest = json.loads((out / "manifest.json").read_text())
        times = {policy: us for (_, policy), us in us_per_deal(manifest).items()}
        summary = pd.read_csv(out / "summary.csv")
        return times, dict(zip(summary["policy"], summary["wins"].astype(int), strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--policy", action="append", dest="policies",
                        help="a policy timed against foundation-only (repeatable; default "
                             "solver)")
    args = parser.parse_args()
    policies = args.policies or ["solver"]
    runs = [one_run(args.games, policies) for _ in range(args.runs)]
    lines = [
        "# `solver` against `foundation-only` in one run (benchmarks/solver_ratio.py)",
        "",
        f"    python benchmarks/solver_ratio.py --games {args.games} --runs {args.runs} "
        + " ".join(f"--policy '{p}'" for p in policies),
        "",
        f"{datetime.now():%Y-%m-%d %H:%M}: Tournament deals 0-{args.games - 1:,}, seed 0, one "
        "worker, the chunks' own times; each run its own `simstats run`.",
        "",
        "| policy | deals won | " + " | ".join(f"run {i + 1}: ms a deal (x {FLOOR})"
                                            for i in range(args.runs))
        + " | best ratio | median ratio |",
        "|---|---|" + "---|" * args.runs + "---|---|",
        f"| `{FLOOR}` | - | " + " | ".join(f"{times[FLOOR]:.2f} us" for times, _ in runs)
        + " | - | - |",
    ]
    for policy in policies:
        ratios = [times[policy] / times[FLOOR] for times, _ in runs]
        wins = {won[policy] for _, won in runs}
        lines.append(
            f"| `{policy}` | {', '.join(f'{w:,}' for w in sorted(wins))} | "
            + " | ".join(f"{times[policy] / 1000:.2f} ({ratio:,.0f}x)"
                         for (times, _), ratio in zip(runs, ratios, strict=True))
            + f" | {min(ratios):,.0f}x | {statistics.median(ratios):,.0f}x |")
    OUT.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
