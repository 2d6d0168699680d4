"""The policy x game table of benchmarks/answers.md: win rate with its 95% interval and
mean cards home from each run's summary, and microseconds per deal measured here on one core
(the compiled loop over enough deals of seed 0 to take about `--seconds`; the committed runs'
chunk times include loading and writing: they were made before chunks timed their deals alone).
Writes benchmarks/policy_table.md.

    python benchmarks/policy_table.py results/policies-100k results/solver-20k ...

A (game, policy) that several runs hold gets its row from the first run listed.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from simstats.engine.games import get_game
from simstats.policies import is_oracle, policy_label, resolve_policy
from simstats.run.compiled_play import run_compiled

OUT = Path(__file__).with_suffix(".md")


def per_deal_us(game_id: str, policy: str, seconds: float) -> float:
    """One core, the compiled loop, deals 0.. of seed 0 until `seconds` have passed."""
    game, spec = get_game(game_id), resolve_policy(policy)
    run_compiled(game, spec, 0, 0, 1)  # load the compiled code first
    deals, spent = 0, 0.0
    while spent < seconds:
        batch = max(1, deals)  # doubling batches
        start = time.perf_counter()
        run_compiled(game, spec, 0, deals, batch)
        spent += time.perf_counter() - start
        deals += batch
    return spent / deals * 1e6


def percent(x: float) -> str:
    return f"{x:.2%}" if x == 0 or x >= 0.001 else f"{x:.3%}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("runs", nargs="+", help="run folders")
    parser.add_argument("--seconds", type=float, default=3.0, help="timing per game and policy")
    parser.add_argument("--slow-seconds", type=float, default=60.0,
                        help="timing of `solver`, `planner` and the oracle, whose time varies "
                        "most by deal")
    args = parser.parse_args()
    rows, done = [], set()
    for run in map(Path, args.runs):
        summary = pd.read_csv(run / "summary.csv")
        for r in summary.itertuples():
            if (r.game, r.policy) in done:
                continue  # the first run listed gives a (game, policy) its row
            done.add((r.game, r.policy))
            slow = is_oracle(r.policy) or r.policy.startswith(("solver", "planner"))
            us = per_deal_us(r.game, r.policy, args.slow_seconds if slow else args.seconds)
            bracket = (f"; {r.end_unknown:,} unknown, bracketed" if is_oracle(r.policy)
                       else "")
            rows.append(
                f"| {r.game} | {policy_label(r.policy)} | {r.n_deals:,} | "
                f"{percent(r.win_rate)} ({percent(r.ci_low)} to {percent(r.ci_high)}{bracket}) | "
                f"{r.mean_foundation_cards:.1f} | {us:,.1f} | `{run}` |")
            print(rows[-1], flush=True)
    OUT.write_text("\n".join([
        "# Every policy in every game",
        "",
        f"Made with `python benchmarks/policy_table.py {' '.join(args.runs)} --seconds "
        f"{args.seconds:g} --slow-seconds {args.slow_seconds:g}` "
        f"({time.strftime('%Y-%m-%d')}): win rates and cards home from the runs' tables (seed 0, "
        "95% Wilson intervals); microseconds per deal timed here, one core, compiled loop, on "
        "a shared 2-core machine.",
        "",
        "| game | policy | deals | win rate (95% CI) | mean cards home | us per deal | run |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
    ]))
    print(f"written to {OUT}")


if __name__ == "__main__":
    main()
