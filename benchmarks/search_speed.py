"""The exact search's speed, old and new side by side on the same positions.

    python benchmarks/search_speed.py --before <commit> [--deals 12] [--budget 300000]
                                      [--solvers solver,solver[memo=1]]

For each game with a perfect-information search, the opening positions of deals 0.. of seed 0
(every card known, as the oracle sees them) are searched with a fixed budget, once by the
search of `--before` (checked out into a temporary git worktree and run in a subprocess, so
both use their own package) and once by this checkout's. Both run the exact search (no eager
plays, no restarts) and then the oracle's full verdict (solve_position). Reported: positions a
second, seconds, verdicts, whether both searches agree move for move on every line (the
same fixed move order must give the same results), and the seconds each took to reach its
verdicts on the positions both decide (a sound proof that prunes makes positions fewer and
dearer: the time to a verdict is what a user waits for). Then, in the same processes, the `solver`
policy's time per Tournament deal against `foundation-only`'s (best of the repeats; the issue's
measure of what the search costs a player), and in this checkout that of any other policy given
in --solvers. Figures go to benchmarks/search_speed.md (the file is written anew: keep its
dated sections by hand).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UNDECIDED = 2  # the verdict code of a search that ran out of budget, in both checkouts

# Runs in either checkout: only names both searches share.
MEASURE = r'''
import json, sys, time
import numpy as np
from simstats.engine.deals import deal_deck
from simstats.engine.moves import lay_out
from simstats.engine.state import MOVES, MOVE_LIMIT, new_state
from simstats.engine.games import get_game
try:  # the search's public names: a package since issue 46, a module named solver before
    from simstats import search as S
except ImportError:
    from simstats import solver as S

games, deals, budget, exact_repeats, policy_deals, solvers = json.loads(sys.argv[1])
WON = getattr(S, "SEARCH_WON", getattr(S, "WON", 1))
out = []
for game_id in games:
    game = get_game(game_id)
    bits = S.table_bits_for(budget)
    work = S.search_buffers(table_bits=bits)
    starts = []
    for deal in range(deals):
        deck, _ = deal_deck(game.array, 0, deal)
        state = new_state()
        lay_out(state, game.array, deck)
        starts.append(state)
    S.solve(starts[0], game.array, 1000, MOVE_LIMIT, False, work)  # compile first
    S.solve_position(starts[0], game.array, 1000, work)
    for kind in ("exact", "oracle"):
        best = None
        for _ in range(exact_repeats):
            rows, nodes, began = [], 0, time.perf_counter()
            for start in starts:
                row_began = time.perf_counter()
                if kind == "exact":
                    verdict = S.solve(start, game.array, budget, MOVE_LIMIT, False, work)
                else:
                    verdict = S.solve_position(start, game.array, budget, work)
                row_seconds = time.perf_counter() - row_began
                named = hasattr(work, "info")  # SearchWork since issue 46; a tuple before
                info = work.info if named else work[S.INFO_BUFFER]
                searched = int(info[S.NODES])
                nodes += searched
                line = ((work.line if named else work[S.LINE_BUFFER])[: info[S.LINE_LENGTH]]
                        if verdict == WON else
                        (work.best if named else work[S.BEST_BUFFER])[: info[S.BEST_LENGTH]])
                rows.append([int(verdict), searched, [int(m) for m in line], row_seconds])
            seconds = time.perf_counter() - began
            if best is None or seconds < best[0]:
                best = (seconds, nodes, rows)
        out.append({"game": game_id, "kind": kind, "seconds": best[0], "nodes": best[1],
                    "rows": best[2]})

from simstats.policies import resolve_policy
from simstats.run.compiled_play import run_compiled
tournament = get_game("tournament")
costs = {}
for policy, count in [("foundation-only", 20000)] + [(name, policy_deals) for name in solvers]:
    spec = resolve_policy(policy)
    run_compiled(tournament, spec, 0, 0, 1)  # compile first
    seconds = []
    for _ in range(exact_repeats):
        began = time.perf_counter()
        rows = run_compiled(tournament, spec, 0, 0, count)
        seconds.append(time.perf_counter() - began)
    costs[policy] = {"us": min(seconds) / count * 1e6, "deals": count,
                     "wins": int(rows[:, 1].sum())}
print(json.dumps({"searches": out, "costs": costs}))
'''


def measure(package_root: Path, games, deals, budget, repeats, policy_deals,
            solvers=("solver",)) -> dict:
    env = {**os.environ, "PYTHONPATH": str(package_root)}
    task = json.dumps([games, deals, budget, repeats, policy_deals, list(solvers)])
    done = subprocess.run([sys.executable, "-c", MEASURE, task],
                          cwd=package_root, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="commit of the old search")
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--budget", type=float, default=300_000)
    parser.add_argument("--repeats", type=int, default=2, help="best of this many timings")
    parser.add_argument("--games", default="tournament,cicely,kingsdown-eights")
    parser.add_argument("--policy-deals", type=int, default=150,
                        help="Tournament deals timed for the solver policy")
    parser.add_argument("--solvers", default="solver",
                        help="policies timed in this checkout against foundation-only, comma "
                             "separated (the one before times `solver` only)")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "search_speed.md"))
    args = parser.parse_args()
    games = args.games.split(",")
    with tempfile.TemporaryDirectory() as scratch:
        old_root = Path(scratch) / "before"
        subprocess.run(["git", "worktree", "add", "--detach", str(old_root), args.before],
                       cwd=ROOT, check=True, capture_output=True)
        try:
            before = measure(old_root, games, args.deals, int(args.budget), args.repeats,
                             args.policy_deals)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old_root)], cwd=ROOT,
                           check=False, capture_output=True)
    solvers = args.solvers.split(",")
    after = measure(ROOT, games, args.deals, int(args.budget), args.repeats, args.policy_deals,
                    solvers)
    lines = [
        "# The exact search, before and after (benchmarks/search_speed.py)",
        "",
        f"    python benchmarks/search_speed.py --before {args.before} --deals {args.deals} "
        f"--budget {int(args.budget)} --repeats {args.repeats} --policy-deals "
        f"{args.policy_deals}" + (f" --solvers '{args.solvers}'"
                                  if args.solvers != "solver" else ""),
        "",
        f"Opening positions of deals 0-{args.deals - 1} (seed 0), every card known; budget "
        f"{int(args.budget):,} positions a deal; one core, best of {args.repeats}. *exact*: "
        "one search in the fixed move order that can prove a loss; *oracle*: the oracle's "
        "whole verdict (eager searches, restarts, then the exact one).",
        "",
        "| game | search | positions a second before | after | speed-up | verdicts before "
        "(won/lost/undecided) | after | same lines | decided by both: seconds before | after "
        "| speed-up |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for old, new in zip(before["searches"], after["searches"], strict=True):
        rate_old = old["nodes"] / old["seconds"]
        rate_new = new["nodes"] / new["seconds"]

        def verdicts(result):
            counts = [sum(1 for r in result["rows"] if r[0] == v) for v in (1, 0, 2)]
            return "/".join(str(c) for c in counts)

        pairs = list(zip(old["rows"], new["rows"], strict=True))
        same = sum(1 for a, b in pairs if a[:3] == b[:3])
        # what a user waits for: the time to a verdict, on the positions both searches decide
        both = [(a[3], b[3]) for a, b in pairs if a[0] != UNDECIDED and b[0] != UNDECIDED]
        waited_old, waited_new = sum(a for a, _ in both), sum(b for _, b in both)
        lines.append(f"| {old['game']} | {old['kind']} | {rate_old:,.0f} | {rate_new:,.0f} | "
                     f"{rate_new / rate_old:.2f}x | {verdicts(old)} | {verdicts(new)} | "
                     f"{same} of {len(old['rows'])} | {waited_old:.3f} ({len(both)}) | "
                     f"{waited_new:.3f} | {waited_old / waited_new:.2f}x |")
    lines += [
        "",
        f"The `solver` policy on Tournament deals 0-{args.policy_deals - 1} against "
        "`foundation-only` on deals 0-19,999 (seed 0, the compiled loop, one core, best of "
        f"{args.repeats}, each checkout in its own process):",
        "",
        "| | policy | ms a deal | wins | foundation-only: us a deal | policy / foundation-only |",
        "|---|---|---|---|---|---|",
    ]
    for name, result in (("before", before), ("after", after)):
        floor = result["costs"]["foundation-only"]
        for policy, cost in result["costs"].items():
            if policy != "foundation-only":
                lines.append(f"| {name} | `{policy}` | {cost['us'] / 1000:,.1f} | "
                             f"{cost['wins']} of {cost['deals']} | {floor['us']:.1f} | "
                             f"{cost['us'] / floor['us']:,.0f}x |")
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
