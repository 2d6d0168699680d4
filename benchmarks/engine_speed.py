"""Microseconds per deal of the compiled loop, one core, for every game and built-in policy
(shuffle, reshuffles, layout and play included). Writes benchmarks/engine_speed.md.

    python benchmarks/engine_speed.py [--deals 1000000]
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

from simstats.engine.games import GAMES
from simstats.policies import resolve_policy
from simstats.run.compiled_play import run_compiled

OUT = Path(__file__).with_suffix(".md")


def per_deal_us(game, spec, deals: int, repeats: int = 3) -> float:
    run_compiled(game, spec, 0, 0, 100)  # compile or load the cached code first
    best = float("inf")
    for _ in range(repeats):  # the best of a few runs: these machines are shared and noisy
        start = time.perf_counter()
        run_compiled(game, spec, 0, 0, deals)
        best = min(best, time.perf_counter() - start)
    return best / deals * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=1_000_000, help="deals for foundation-only")
    parser.add_argument("--random-deals", type=int, default=20_000, help="deals for random")
    parser.add_argument("--dig-deals", type=int, default=100_000, help="deals for dig")
    parser.add_argument("--lookahead-deals", type=int, default=2_000, help="deals for lookahead")
    args = parser.parse_args()
    rows = []
    for game in GAMES.values():
        for name in ("foundation-only", "random", "dig", "lookahead"):
            deals = {"foundation-only": args.deals, "random": args.random_deals,
                     "dig": args.dig_deals, "lookahead": args.lookahead_deals}[name]
            us = per_deal_us(game, resolve_policy(name), deals)
            rows.append(f"| {game.id} | {name} | {us:.2f} | {deals:,} |")
            print(rows[-1], flush=True)
    text = "\n".join([
        f"# Engine speed ({time.strftime('%Y-%m-%d')}, "
        f"{platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}, best of 3 runs, one core)",
        "",
        "| game | policy | microseconds per deal | deals per run |",
        "|---|---|---|---|",
        *rows,
        "",
    ])
    OUT.write_text(text)
    print(f"written to {OUT}")


if __name__ == "__main__":
    main()
