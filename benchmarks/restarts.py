"""How `solver`'s search schedule trades deals won for time: for each budget x restarts (positions
per search, and how many more searches in a shaken move order follow one that runs out
undecided; a trailing L: search i gets budget x luby(i) positions, as solver's luby=1), the deals
won of deals 0..N-1 (seed 0), paired against the first schedule listed,
and seconds per deal (one process per schedule, compiled loop, `--workers` at a time: on a busy
machine the times are rough, their ratios less so). Writes benchmarks/restarts.md.

    python benchmarks/restarts.py --game tournament --deals 1000 --schedule 25000x4,1000x62L
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

OUT = Path(__file__).with_suffix(".md")


def policy_name(schedule: str) -> str:
    luby = int(schedule.endswith("L"))
    budget, restarts = schedule.removesuffix("L").split("x")
    return f"solver[budget={int(budget)},restarts={int(restarts)},luby={luby}]"


def play(task: tuple[str, str, int]) -> tuple[str, str, list[int], float]:
    """(game, schedule, won per deal, seconds per deal)."""
    from simstats.engine.state import WON_AT
    from simstats.games import get_game
    from simstats.policies import resolve_policy
    from simstats.simulate import run_compiled

    game_id, schedule, deals = task
    game, spec = get_game(game_id), resolve_policy(policy_name(schedule))
    run_compiled(game, spec, 0, 0, 1)  # load the compiled code first
    start = time.perf_counter()
    rows = run_compiled(game, spec, 0, 0, deals)
    return game_id, schedule, [int(w) for w in rows[:, WON_AT]], (
        (time.perf_counter() - start) / deals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", default=None)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--schedule", default="25000x4,1000x62L,1000x30L,500x62L,1000x126L,"
                                                 "1000x60,5000x20")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    from scipy.stats import binomtest

    from simstats.stats import wilson_interval

    games = args.game or ["tournament"]
    schedules = args.schedule.split(",")
    tasks = [(g, s, args.deals) for g in games for s in schedules]
    with ProcessPoolExecutor(args.workers) as pool:
        results = {(g, s): (won, seconds) for g, s, won, seconds in pool.map(play, tasks)}
    command = (f"python benchmarks/restarts.py --deals {args.deals} --schedule {args.schedule} "
               + " ".join(f"--game {g}" for g in games) + f" --workers {args.workers}")
    lines = ["# solver's search schedule: deals won against time", "",
             f"`{command}`: seed 0, deals 0..{args.deals - 1}, {time.strftime('%Y-%m-%d')}. "
             f"Paired against {policy_name(schedules[0])} on the same deals (exact McNemar p).",
             "",
             "| game | policy | won | win rate (95% CI) | only this | only the first | p "
             "| ms per deal |",
             "|---|---|---|---|---|---|---|---|"]
    for g in games:
        base = results[(g, schedules[0])][0]
        for s in schedules:
            won, seconds = results[(g, s)]
            low, high = wilson_interval(sum(won), len(won))
            only = sum(a and not b for a, b in zip(won, base, strict=True))
            other = sum(b and not a for a, b in zip(won, base, strict=True))
            p = binomtest(only, only + other).pvalue if only + other else 1.0
            lines.append(f"| {g} | `{policy_name(s)}` | {sum(won)} of {len(won)} | "
                         f"{sum(won) / len(won):.1%} ({low:.1%} to {high:.1%}) | {only} | "
                         f"{other} | {p:.2g} | {seconds * 1e3:.1f} |")
    OUT.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
