"""Napoleon's Flank: `planner`'s strength against its thinking time, one setting at a time, each
on the same deals, in one process (the compiled loop, 50 deals a call; seconds per deal are
those calls' wall time over their deals, so they include whatever else ran on the machine).

    python benchmarks/planner_napoleon_time.py play TAG "playouts=192,batch=8" --deals 1000
    python benchmarks/planner_napoleon_time.py table REF TAG ... [--plot FILE]

`play` keeps each deal's outcome in benchmarks/planner_napoleon_time/TAG.npz (won, cards home,
seconds; resumable from where it stopped); `table` prints one markdown row per TAG: wins of the
deals every TAG played, the 95% Wilson interval, exact McNemar p against REF on those deals,
and seconds per deal; with --plot, the figure of win rate against seconds per deal.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

STORE = Path(__file__).with_suffix("")  # benchmarks/planner_napoleon_time/


def play(tag: str, setting: str, deals: int, seed: int, first: int) -> None:
    from simstats.engine.games import get_game
    from simstats.engine.state import OUTCOME_COLUMNS
    from simstats.policies import resolve_policy
    from simstats.run.compiled_play import prepared_loop

    STORE.mkdir(exist_ok=True)
    path = STORE / f"{tag}.npz"
    name = f"planner[{setting}]" if setting else "planner"
    run = prepared_loop(get_game("napoleons-flank"), resolve_policy(name), seed)
    won_at, home_at = (OUTCOME_COLUMNS.index(c) for c in ("won", "foundation_cards"))
    won, home, seconds = [], [], []
    if path.exists():
        old = np.load(path)
        won, home, seconds = list(old["won"]), list(old["home"]), list(old["seconds"])
    while len(won) < deals:
        count = min(50, deals - len(won))
        start = time.perf_counter()
        out = run(first + len(won), count)
        spent = (time.perf_counter() - start) / count
        won += list(out[:, won_at].astype(bool))
        home += list(out[:, home_at])
        seconds += [spent] * count
        np.savez(path, won=won, home=home, seconds=seconds, setting=name, seed=seed,
                 first=first)
        print(f"{tag}: {len(won)} deals, {sum(won)} won, {np.mean(seconds):.3f} s a deal",
              flush=True)


def table(reference: str, tags: list[str], plot: Path | None) -> None:
    from scipy.stats import binomtest

    from simstats.stats import wilson_interval

    runs = {tag: np.load(STORE / f"{tag}.npz") for tag in [reference, *tags]}
    n = min(len(r["won"]) for r in runs.values())
    ref = runs[reference]["won"][:n]
    print(f"Deals {int(runs[reference]['first'])}..{int(runs[reference]['first']) + n - 1} of "
          f"seed {int(runs[reference]['seed'])}; McNemar against `{runs[reference]['setting']}`.")
    print("\n| policy | won | win rate (95% CI) | only it / only the reference | McNemar p "
          "| cards home | s per deal |\n|---|---|---|---|---|---|---|")
    points = []
    for r in runs.values():
        won = r["won"][:n]
        low, high = wilson_interval(int(won.sum()), n)
        only_it, only_ref = int((won & ~ref).sum()), int((ref & ~won).sum())
        p = binomtest(only_it, only_it + only_ref).pvalue if only_it + only_ref else 1.0
        seconds = float(np.mean(r["seconds"][:n]))
        print(f"| `{r['setting']}` | {int(won.sum())} of {n} | {won.mean():.1%} ({low:.1%} to "
              f"{high:.1%}) | {only_it} / {only_ref} | {p:.2g} | {np.mean(r['home'][:n]):.1f} "
              f"| {seconds:.3f} |")
        points.append((str(r["setting"]), seconds, won.mean(), low, high))
    if plot:
        import matplotlib.pyplot as plt

        figure, axis = plt.subplots(figsize=(7, 4.5))
        for name, seconds, rate, low, high in points:
            raced = "batch=0" not in name and "batch" in name
            axis.errorbar([seconds], [rate], yerr=[[rate - low], [high - rate]], capsize=3,
                          marker="o" if raced else "s", color="C1" if raced else "C0")
            axis.annotate(name.removeprefix("planner[").removesuffix("]"), (seconds, rate),
                          fontsize=7, xytext=(4, -10), textcoords="offset points")
        axis.set_xscale("log")
        axis.set_xlabel("seconds per deal (one core)")
        axis.set_ylabel("share of deals won")
        axis.set_title("Napoleon's Flank: planner, strength against thinking time\n"
                       "(squares: every candidate gets every playout; dots: racing)",
                       fontsize=9)
        figure.tight_layout()
        figure.savefig(plot, dpi=100)


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("tag")
    p.add_argument("setting", help="planner's parameters, e.g. playouts=192,batch=8")
    p.add_argument("--deals", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--first", type=int, default=0)
    t = sub.add_parser("table")
    t.add_argument("reference")
    t.add_argument("tags", nargs="+")
    t.add_argument("--plot", type=Path)
    args = parser.parse_args()
    if args.command == "play":
        play(args.tag, args.setting, args.deals, args.seed, args.first)
    else:
        table(args.reference, args.tags, args.plot)


if __name__ == "__main__":
    main()
