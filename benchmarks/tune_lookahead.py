"""Tune lookahead's evaluation weights by measurement: win rate over the same deals for a grid
of weights, per game. Writes benchmarks/tune_lookahead.md.

    python benchmarks/tune_lookahead.py --game tournament --deals 2000
"""

from __future__ import annotations

import argparse
import itertools
import time
from pathlib import Path

from simstats.engine.games import get_game
from simstats.policies import resolve_policy
from simstats.run.compiled_play import run_compiled
from simstats.stats import wilson_interval


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="tournament")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=12345)  # not the seed of published runs
    parser.add_argument("--grid", default="free=1.1,1.3,1.5;redeal=4,8,12;wait=0.1,0.2,0.3")
    args = parser.parse_args()
    axes = [(key, values.split(",")) for key, values in
            (part.split("=") for part in args.grid.split(";"))]
    game = get_game(args.game)
    rows = []
    for combo in itertools.product(*(values for _, values in axes)):
        name = "lookahead[" + ",".join(f"{k}={v}" for (k, _), v in zip(axes, combo,
                                                                       strict=True)) + "]"
        spec = resolve_policy(name)
        run_compiled(game, spec, 0, 0, 1)
        start = time.perf_counter()
        out = run_compiled(game, spec, args.seed, 0, args.deals)
        us = (time.perf_counter() - start) / args.deals * 1e6
        wins = int(out[:, 1].sum())
        low, high = wilson_interval(wins, args.deals)
        rows.append((wins / args.deals, f"| `{name}` | {wins / args.deals:.1%} "
                     f"({low:.1%}-{high:.1%}) | {out[:, 2].mean():.1f} | {us:.0f} |"))
        print(rows[-1][1], flush=True)
    rows.sort(key=lambda r: -r[0])
    out_file = Path(__file__).with_suffix(".md")
    out_file.write_text("\n".join([
        f"# lookahead weights, {args.game}, {args.deals} deals of seed {args.seed}",
        "", "| policy | win rate (95% CI) | mean cards home | us per deal |", "|---|---|---|---|",
        *(r[1] for r in rows), ""]))


if __name__ == "__main__":
    main()
