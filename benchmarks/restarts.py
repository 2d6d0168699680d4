"""How `solver`'s search schedule trades deals won for time: for each budget x restarts (positions
per search, and how many more searches in a shaken move order follow one that runs out
undecided; a trailing L: search i gets budget x luby(i) positions, as solver's luby=1), the deals
won of deals 0..N-1 (seed 0), paired against the first schedule listed, the share of the time
spent on deals it loses, and seconds per deal (each deal timed alone; one process per schedule,
compiled loop, `--workers` at a time: on a busy machine the times are rough, their ratios less
so). Writes benchmarks/restarts.md.

    python benchmarks/restarts.py --game tournament --deals 1000 --schedule 25000x4,1000x62L

A schedule may also be a whole policy spec, e.g. `solver[memo=1,restarts=46]`; --out writes
another file.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

OUT = Path(__file__).with_suffix(".md")


def policy_name(schedule: str) -> str:
    """`solver` with a schedule written budget x restarts (L: luby=1), or a policy spec as is
    (for other parameters, such as `solver[memo=1,restarts=46]`)."""
    if "[" in schedule or not schedule[:1].isdigit():
        return schedule
    luby = int(schedule.endswith("L"))
    budget, restarts = schedule.removesuffix("L").split("x")
    return f"solver[budget={int(budget)},restarts={int(restarts)},luby={luby}]"


def play(task: tuple[str, str, int]) -> tuple[str, str, list[int], list[float]]:
    """(game, schedule, won per deal, seconds of each deal, each played alone)."""
    from simstats.engine.games import get_game
    from simstats.engine.state import WON_AT
    from simstats.policies import resolve_policy
    from simstats.run.compiled_play import run_compiled

    game_id, schedule, deals = task
    game, spec = get_game(game_id), resolve_policy(policy_name(schedule))
    run_compiled(game, spec, 0, 0, 1)  # load the compiled code first
    won, seconds = [], []
    for deal in range(deals):
        start = time.perf_counter()
        rows = run_compiled(game, spec, 0, deal, 1)
        seconds.append(time.perf_counter() - start)
        won.append(int(rows[0, WON_AT]))
    return game_id, schedule, won, seconds


def split_schedules(text: str) -> list[str]:
    """The comma-separated schedules of --schedule; commas inside a spec's brackets stay."""
    parts, depth, current = [], 0, ""
    for char in text:
        depth += (char == "[") - (char == "]")
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [*parts, current] if current else parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", default=None)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--schedule", default="25000x4,1000x62L,1000x30L,500x62L,1000x126L,"
                                                 "1000x60,5000x20")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    from scipy.stats import binomtest

    from simstats.stats import wilson_interval

    games = args.game or ["tournament"]
    schedules = [s.strip() for s in split_schedules(args.schedule)]
    tasks = [(g, s, args.deals) for g in games for s in schedules]
    with ProcessPoolExecutor(args.workers) as pool:
        results = {(g, s): (won, seconds) for g, s, won, seconds in pool.map(play, tasks)}
    command = (f"python benchmarks/restarts.py --deals {args.deals} --schedule '{args.schedule}' "
               + " ".join(f"--game {g}" for g in games) + f" --workers {args.workers}"
               + (f" --out benchmarks/{args.out.name}" if args.out != OUT else ""))
    lines = ["# solver's search schedule: deals won against time", "",
             f"`{command}`: seed 0, deals 0..{args.deals - 1}, {time.strftime('%Y-%m-%d')}. "
             f"Paired against {policy_name(schedules[0])} on the same deals (exact McNemar p).",
             "",
             "| game | policy | won | win rate (95% CI) | only this | only the first | p "
             "| ms per deal | share of the time in lost deals | won deals: median, 90th "
             "percentile ms |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for g in games:
        base = results[(g, schedules[0])][0]
        for s in schedules:
            won, seconds = results[(g, s)]
            low, high = wilson_interval(sum(won), len(won))
            only = sum(a and not b for a, b in zip(won, base, strict=True))
            other = sum(b and not a for a, b in zip(won, base, strict=True))
            p = binomtest(only, only + other).pvalue if only + other else 1.0
            lost_share = sum(t for t, w in zip(seconds, won, strict=True) if not w) / sum(seconds)
            won_ms = np.array([t for t, w in zip(seconds, won, strict=True) if w]) * 1e3
            median, p90 = np.percentile(won_ms, [50, 90]) if len(won_ms) else (0.0, 0.0)
            lines.append(f"| {g} | `{policy_name(s)}` | {sum(won)} of {len(won)} | "
                         f"{sum(won) / len(won):.1%} ({low:.1%} to {high:.1%}) | {only} | "
                         f"{other} | {p:.2g} | {sum(seconds) / len(seconds) * 1e3:.1f} | "
                         f"{lost_share:.0%} | {median:.1f}, {p90:.1f} |")
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
