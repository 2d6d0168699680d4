"""How the `planner` policy's strength grows with its thinking: win rate (95% Wilson interval)
and seconds per deal against samples per choice, per game, beside `solver` on the same deals
(as it ships, and with planner's bigger search once every card is seen, which separates what
the sampling adds from what the search adds);
and the policy's own estimate of its chance at its first choice (the share of samples its plan
won) against how often it then wins. Writes benchmarks/planner.md and benchmarks/planner.png.

    python benchmarks/planner.py --deals 200 --samples 2,8 --game kingsdown-eights

In Napoleon's Flank the planner thinks by playing each candidate move out (`playouts` samples
per candidate, rollout.py's base 3): there --samples sets `playouts`, and its reference is
`blind-digger`, the player of those playouts (`solver` plays as `lookahead` there).

Each deal is played move by move (simstats' CompiledPlayer: the compiled policy, its memory
readable between moves), `--workers` processes at a time; the time per deal is each deal's own
time in its process, seed 0, deals 0..N-1.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

OUT = Path(__file__).with_suffix(".md")
GAMES = ("tournament", "napoleons-flank", "cicely", "kingsdown-eights")


SOLVER_DEFAULT = -1  # the levels that are not planner: solver as it ships,
SOLVER_SEARCHING_AS_PLANNER = 0  # and solver with planner's search once every card is seen
PLAYS_OUT = "napoleons-flank"  # where planner plays candidates out: `playouts` is its knob


def policy_name(samples: int, extra: str, game: str = "") -> str:
    if game == PLAYS_OUT:
        if samples == SOLVER_DEFAULT:
            return "blind-digger"
        return f"planner[playouts={samples}{',' + extra if extra else ''}]"
    if samples == SOLVER_DEFAULT:
        return "solver"
    if samples == SOLVER_SEARCHING_AS_PLANNER:
        from simstats.policies.planner import PARAMETERS

        given = dict(item.split("=") for item in extra.split(",") if item)
        search = [f"{name}={given.get(name, PARAMETERS[name].default_value)}"
                  for name in ("budget", "restarts", "luby")]
        return f"solver[{','.join(search)}]"
    return f"planner[samples={samples},proposals={samples}{',' + extra if extra else ''}]"


def play(task: tuple) -> list[tuple]:
    """(won, seconds, first estimate or nan) of each deal of a chunk."""
    from simstats.engine.deals import deal_deck
    from simstats.engine.games import get_game
    from simstats.engine.moves import apply_move, lay_out, status
    from simstats.engine.notation import parse_move
    from simstats.engine.observe import Observation, blank_observation, observe
    from simstats.engine.state import FOUNDATIONS, ONGOING, new_state
    from simstats.policies import resolve_policy
    from simstats.policies.planner import FIRST_SAMPLES, FIRST_WON
    from simstats.run.move_by_move import start_policy

    game_id, name, deals = task
    game, spec = get_game(game_id), resolve_policy(name)
    warm_up = new_state()  # load (or compile) the policy's code before any deal is timed
    lay_out(warm_up, game.array, deal_deck(game.array, 0, deals[0])[0])
    seen = blank_observation()
    observe(warm_up, game.array, seen)
    spec.make().choose(Observation(game.id, game.array, seen))
    rows = []
    for deal in deals:
        deck, _ = deal_deck(game.array, 0, deal)
        state = new_state()
        lay_out(state, game.array, deck)
        player = spec.make()
        start_policy(player, spec, game, 0, deal)
        estimate = np.nan
        start = time.perf_counter()
        while status(state, game.array) == ONGOING:
            seen = blank_observation()
            observe(state, game.array, seen)
            move = player.choose(Observation(game.id, game.array, seen))
            if move is None:
                break
            memory = player._memory
            if np.isnan(estimate) and "sampling" in memory.dtype.names:
                sampling = memory["sampling"].reshape(-1)
                if sampling[FIRST_SAMPLES] > 0:
                    estimate = sampling[FIRST_WON] / sampling[FIRST_SAMPLES]
            apply_move(state, game.array, parse_move(move))
        rows.append((int(state[FOUNDATIONS:FOUNDATIONS + 8].sum()) == 104,
                     time.perf_counter() - start, estimate))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--samples", default="2,8", help="samples per choice, comma-separated")
    parser.add_argument("--game", action="append", choices=GAMES, help="default: every game")
    parser.add_argument("--extra", default="", help="more planner parameters, e.g. effort=5e4")
    parser.add_argument("--chunk", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=OUT, help="the table (the plot beside it)")
    args = parser.parse_args()
    from simstats.stats import wilson_interval

    games = args.game or list(GAMES)
    thinking = [int(s) for s in args.samples.split(",")]

    def levels_of(game: str) -> list[int]:
        if game == PLAYS_OUT:
            return [SOLVER_DEFAULT, *thinking]
        return [SOLVER_DEFAULT, SOLVER_SEARCHING_AS_PLANNER, *thinking]

    tasks = [(g, policy_name(k, args.extra, g), range(a, min(a + args.chunk, args.deals)))
             for g in games for k in levels_of(g) for a in range(0, args.deals, args.chunk)]
    figure_file = args.out.with_suffix(".png")
    results: dict = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for task, rows in zip(tasks, pool.map(play, tasks), strict=True):
            results.setdefault((task[0], task[1]), []).extend(rows)
    lines = ["# The planner: strength against thinking", "",
             f"`python benchmarks/planner.py --deals {args.deals} --samples {args.samples}"
             + (f" --extra {args.extra}" if args.extra else "")
             + "".join(f" --game {g}" for g in games)
             + (f" --out {args.out}" if args.out != OUT else "")
             + "`: seed 0, deals 0.."
             f"{args.deals - 1}, played move by move, {args.workers} process(es) at a time.", "",
             "| game | policy | won | win rate (95% CI) | s per deal | first estimate | "
             "won when estimate >= 50% |", "|---|---|---|---|---|---|---|"]
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, len(games), figsize=(4.5 * len(games), 4), squeeze=False)
    for axis, game in zip(axes[0], games, strict=True):
        xs, ys, los, his, solver_rates = [], [], [], [], []
        for k in levels_of(game):
            name = policy_name(k, args.extra, game)
            rows = np.array(results[(game, name)], dtype=float)
            won, seconds, estimate = rows[:, 0], rows[:, 1], rows[:, 2]
            low, high = wilson_interval(int(won.sum()), len(won))
            judged = ~np.isnan(estimate)
            confident = judged & (estimate >= 0.5)
            est = f"{np.nanmean(estimate):.1%} (on {judged.sum()})" if judged.any() else "-"
            conf = (f"{won[confident].mean():.1%} of {confident.sum()}" if confident.any()
                    else "-")
            lines.append(f"| {game} | `{name}` | {int(won.sum())} of {len(won)} | "
                         f"{won.mean():.1%} ({low:.1%} to {high:.1%}) | {seconds.mean():.3f} | "
                         f"{est} | {conf} |")
            if k > 0:
                xs.append(k)
                ys.append(won.mean())
                los.append(won.mean() - low)
                his.append(high - won.mean())
            else:
                solver_rates.append(won.mean())
                axis.axhline(won.mean(), color="grey" if k == SOLVER_DEFAULT else "black",
                             linestyle="--" if k == SOLVER_DEFAULT else ":",
                             label=name.partition("[")[0] if k == SOLVER_DEFAULT else
                             "solver with planner's search")
        axis.errorbar(xs, ys, yerr=[los, his], marker="o", capsize=3, label="planner")
        low = min([y - lo for y, lo in zip(ys, los, strict=True)] + solver_rates)
        high = max([y + hi for y, hi in zip(ys, his, strict=True)] + solver_rates)
        axis.set_ylim(max(0.0, low - 0.05), 1.0 if high > 0.5 else min(1.0, high * 1.3))
        axis.set_xscale("log", base=2)
        axis.set_xticks(xs, [str(x) for x in xs])
        axis.set_title(game)
        axis.set_xlabel("playouts per candidate" if game == PLAYS_OUT else "samples per choice")
        axis.set_ylabel("share of deals won")
    handles, labels = axes[0][0].get_legend_handles_labels()
    wide = len(games) > 1
    figure.legend(handles, labels, loc="lower center", ncol=len(labels) if wide else 1,
                  frameon=False)
    figure.tight_layout(rect=(0, 0.08 if wide else 0.22, 1, 1))
    figure.savefig(figure_file, dpi=100)
    lines += ["", "First estimate: the share of the evaluation samples the chosen plan won at "
              "its first choice of the deal (the mean over the deals where it chose among "
              "plans); compare it with the win rate to see how optimistic planning over "
              "samples is.", f"![planner]({figure_file.name})", ""]
    args.out.write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
