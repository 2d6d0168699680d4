"""Paired comparisons across runs: two (run, game, policy) cells on the deals both played.

A run compares its own policies deal by deal (simstats report); this compares cells of two
runs of the same seed, e.g. `planner` against the oracle of another run, or the best fair
Tournament player against the best fair Napoleon's Flank player (the same decks):

    python benchmarks/paired.py results/planner-5k:tournament:planner \\
        results/run-oracle-t10k:tournament:oracle

Prints the win rates on the common deals and the difference A - B with its 95% interval and
exact McNemar p-value, computed as `simstats report` computes its own (report.paired_row).
Needs both runs' per-deal tables (not committed: the run's command regenerates them exactly).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from simstats.records import policy_slug
from simstats.report import paired_row, wins_by_deal


def cell(text: str) -> tuple[tuple[str, str], list[Path], int]:
    """(game, policy), the per-deal files of that cell and the run's seed."""
    run, game, policy = text.split(":", 2)
    folder = Path(run)
    seed = json.loads((folder / "manifest.json").read_text()).get("seed", 0)
    files = sorted((folder / "deals").glob(f"*-{game}--*-{policy_slug(policy)}--*.parquet"))
    if not files:
        raise SystemExit(f"paired.py: no deals of {game} with {policy} in {run}")
    return (game, policy), files, seed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("a", help="RUN:GAME:POLICY")
    parser.add_argument("b", help="RUN:GAME:POLICY")
    args = parser.parse_args()
    (a, files_a, seed_a), (b, files_b, seed_b) = cell(args.a), cell(args.b)
    if seed_a != seed_b:
        raise SystemExit(f"paired.py: the runs have different seeds ({seed_a}, {seed_b})")
    row = paired_row(f"{args.a} - {args.b}", a, b, wins_by_deal(files_a), wins_by_deal(files_b))
    print(f"{row['deals']:,} deals both played, seed {seed_a}")
    print(f"A {args.a}: {row['win_rate_a']:.2%} ({row['both'] + row['only_a']:,} won)")
    print(f"B {args.b}: {row['win_rate_b']:.2%} ({row['both'] + row['only_b']:,} won)")
    print(f"A - B: {row['difference'] * 100:+.2f} points ({row['ci_low'] * 100:+.2f} to "
          f"{row['ci_high'] * 100:+.2f}); won by A only {row['only_a']:,}, by B only "
          f"{row['only_b']:,}; exact McNemar p = {row['mcnemar_p']:.2g}")


if __name__ == "__main__":
    main()
