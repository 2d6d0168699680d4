"""What `rollout` wins and costs against its base policy `dig`, paired on the same deals: win
rate (95% Wilson interval), mean cards home and microseconds per deal, one process, one core.
Writes benchmarks/rollout.md.

    python benchmarks/rollout_speed.py [--tournament-deals 1000] [--cicely-deals 500]
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

import numpy as np

from simstats.engine.games import get_game
from simstats.policies import resolve_policy
from simstats.run.compiled_play import run_compiled
from simstats.stats import wilson_interval

OUT = Path(__file__).with_name("rollout.md")


def measure(game_id: str, name: str, deals: int, seed: int) -> tuple[np.ndarray, float]:
    game, spec = get_game(game_id), resolve_policy(name)
    run_compiled(game, spec, seed, 0, 1)  # compile or load the cached code first
    start = time.perf_counter()
    rows = run_compiled(game, spec, seed, 0, deals)
    return rows, (time.perf_counter() - start) / deals * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tournament-deals", type=int, default=1000)
    parser.add_argument("--cicely-deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--policies", default="dig,rollout",
                        help="comma-separated; the first is the baseline of the paired column")
    args = parser.parse_args()
    names = args.policies.split(",")
    rows = []
    for game_id, deals in (("tournament", args.tournament_deals),
                           ("cicely", args.cicely_deals)):
        baseline = None
        for name in names:
            out, us = measure(game_id, name, deals, args.seed)
            wins, home = int(out[:, 1].sum()), out[:, 2].astype(float)
            low, high = wilson_interval(wins, deals)
            if baseline is None:
                baseline, paired = home, "(baseline)"
            else:
                d = home - baseline
                half = 1.96 * d.std(ddof=1) / np.sqrt(deals)
                paired = f"{d.mean():+.1f} ± {half:.1f}"
            rows.append(f"| {game_id} | {name} | {deals:,} | {wins / deals:.1%} "
                        f"[{low:.1%}, {high:.1%}] | {home.mean():.1f} | {paired} | {us:,.0f} |")
            print(rows[-1], flush=True)
    text = "\n".join([
        f"# rollout against its base policy ({time.strftime('%Y-%m-%d')}, "
        f"{platform.processor() or platform.machine()}, Python {platform.python_version()}, "
        f"one process, seed {args.seed}, deals 0..N-1)",
        "",
        "    python benchmarks/" + Path(__file__).name + " " + " ".join(sys.argv[1:]),
        "",
        "| game | policy | deals | win rate [95% interval] | mean cards home "
        "| cards home vs first policy (paired, 95%) | microseconds per deal |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
    ])
    OUT.write_text(text)
    print(f"written to {OUT}")


if __name__ == "__main__":
    main()
