"""Compiled plugin policies against the built-ins, side by side in one run (issue 14). Writes
benchmarks/plugin_speed.md.

    python benchmarks/plugin_speed.py [--before COMMIT]

1. Microseconds per deal, one core, best of 3: the built-in `dig` and the same logic loaded
   from a file (benchmarks/dig_plugin.py); examples/greedy_cells.py compiled and its
   plain-Python twin (examples/greedy_cells_python.py).
2. Built-ins before and after they became compiled policies of the public API: the code at
   COMMIT (default: the parent of the commit that made the change) in a git worktree, timed
   in the same run, alternating.
3. Compile times on an empty cache (NUMBA_CACHE_DIR and SIMSTATS_CACHE_DIR in a fresh folder):
   a new plugin's first and second run; the README main command's compile.
4. `simstats run --games 1e6 --policy examples/greedy_cells.py:GreedyCells`, all four games,
   its compiled code cached.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = Path(__file__).with_suffix(".md")
GAMES = ("tournament", "napoleons-flank", "cicely", "kingsdown-eights")
TIMER = """
import sys, time
from simstats.engine.games import get_game
from simstats.policies import resolve_policy
from simstats.run.compiled_play import run_compiled
from simstats.run.move_by_move import play_deck
from simstats.engine.deals import deal_deck
game, spec, deals = get_game(sys.argv[1]), resolve_policy(sys.argv[2]), int(sys.argv[3])
if getattr(spec, "compiled", None) is not None or getattr(spec, "code", None) is not None:
    run_compiled(game, spec, 0, 0, 50)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        run_compiled(game, spec, 0, 0, deals)
        best = min(best, time.perf_counter() - start)
else:
    player = spec.make()
    deck, reshuffles = deal_deck(game.array, 0, 0)
    play_deck(game, spec, deck, 0, 0, reshuffles, policy=player)  # compile the engine first
    start = time.perf_counter()
    for deal in range(deals):
        deck, reshuffles = deal_deck(game.array, 0, deal)
        play_deck(game, spec, deck, 0, deal, reshuffles, policy=player)
    best = time.perf_counter() - start
print(best / deals * 1e6)
"""


def per_deal_us(game: str, policy: str, deals: int, pythonpath: Path = ROOT, env=None) -> float:
    environment = {**os.environ, **(env or {}), "PYTHONPATH": str(pythonpath)}
    done = subprocess.run([sys.executable, "-c", TIMER, game, policy, str(deals)], check=True,
                          capture_output=True, text=True, env=environment, cwd=pythonpath)
    return float(done.stdout.strip().splitlines()[-1])


def timed(command: list[str], env: dict) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, **env},
                          cwd=ROOT)
    if done.returncode:
        raise SystemExit(f"{' '.join(command)} failed: {done.stderr}")
    return time.perf_counter() - start, done.stdout


def simstats(*args: str) -> list[str]:
    return [sys.executable, "-m", "simstats", *args]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", help="the commit to compare the built-ins with")
    parser.add_argument("--dig-deals", type=int, default=50_000)
    parser.add_argument("--greedy-deals", type=int, default=200_000)
    parser.add_argument("--python-deals", type=int, default=300)
    parser.add_argument("--before-tree", type=Path, help="a checkout of --before to reuse")
    args = parser.parse_args()
    lines = [f"# Compiled plugin policies ({time.strftime('%Y-%m-%d')}, "
             f"{platform.machine()}, Python {platform.python_version()}, one core)", ""]

    # 1. plugins against built-ins
    dig_plugin = f"{ROOT / 'benchmarks' / 'dig_plugin.py'}:DigPlugin"
    greedy = f"{ROOT / 'examples' / 'greedy_cells.py'}:GreedyCells"
    greedy_python = f"{ROOT / 'examples' / 'greedy_cells_python.py'}:GreedyCells"
    lines += ["## A plugin from a file against a built-in of the same logic",
              "", "Microseconds per deal, best of 3 runs of each.", "",
              "| game | built-in dig | dig from a file | ratio | GreedyCells compiled | "
              "GreedyCells in Python | ratio |", "|---|---|---|---|---|---|---|"]
    for game in GAMES:
        builtin = per_deal_us(game, "dig", args.dig_deals)
        plugin = per_deal_us(game, dig_plugin, args.dig_deals)
        compiled = per_deal_us(game, greedy, args.greedy_deals)
        python = per_deal_us(game, greedy_python, args.python_deals)
        lines.append(f"| {game} | {builtin:.2f} | {plugin:.2f} | {plugin / builtin:.2f} | "
                     f"{compiled:.2f} | {python:,.0f} | {python / compiled:,.0f}x |")
        print(lines[-1], flush=True)

    # 2. built-ins before and after
    before = args.before or subprocess.run(
        ["git", "log", "--format=%H", "-1", "--grep", "compiled policy API", "--", "simstats"],
        capture_output=True, text=True, cwd=ROOT).stdout.strip() + "~1"
    with tempfile.TemporaryDirectory(prefix="simstats-before-") as folder:
        tree = args.before_tree or Path(folder) / "tree"
        if args.before_tree is None:
            subprocess.run(["git", "worktree", "add", "--detach", str(tree), before], check=True,
                           capture_output=True, cwd=ROOT)
        try:
            lines += ["", f"## Built-ins before ({before}) and after, same run", "",
                      "Microseconds per deal, best of 3 runs of each; before and after "
                      "alternate.", "", "| game | policy | deals | before | after | after / "
                      "before |", "|---|---|---|---|---|---|"]
            deals = {"foundation-only": 200_000, "random": 10_000, "dig": 50_000,
                     "lookahead": 500}
            for game in GAMES:
                for policy, count in deals.items():
                    old = per_deal_us(game, policy, count, tree)
                    new = per_deal_us(game, policy, count)
                    lines.append(f"| {game} | {policy} | {count:,} | {old:.2f} | {new:.2f} | "
                                 f"{new / old:.2f} |")
                    print(lines[-1], flush=True)
        finally:
            if args.before_tree is None:
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT)

    # 3. compile times on an empty cache
    with tempfile.TemporaryDirectory(prefix="simstats-cache-") as folder:
        env = {"NUMBA_CACHE_DIR": f"{folder}/numba", "SIMSTATS_CACHE_DIR": f"{folder}/loops"}
        run = ["run", "--game", "tournament", "--games", "1000", "--workers", "1", "-q",
               "--policy", greedy]
        first, out = timed(simstats(*run, "--out", f"{folder}/a"), env)
        second, _ = timed(simstats(*run, "--out", f"{folder}/b"), env)
        fresh = {"NUMBA_CACHE_DIR": f"{folder}/numba2", "SIMSTATS_CACHE_DIR": f"{folder}/loops2"}
        main_first, main_out = timed(simstats("run", "--games", "1000", "--out", f"{folder}/c"),
                                     fresh)
        said = [line for line in main_out.splitlines() if "compiling" in line]
    lines += ["", "## Compile times on an empty cache", "",
              "| what | seconds |", "|---|---|",
              f"| a new plugin (GreedyCells): first `run` of 1,000 Tournament deals, package "
              f"and plugin compiled | {first:.1f} |",
              f"| the same command again: loaded from the cache | {second:.1f} |",
              f"| README main command's policies (`simstats run --games 1000`: foundation-only"
              f" and dig, four games), compiled from nothing | {main_first:.1f} |",
              "", "What the main command printed while compiling:", "", "```",
              *said, "```"]
    print("\n".join(lines[-12:]), flush=True)

    # 4. a million deals of every game with the compiled example plugin, cache warm
    with tempfile.TemporaryDirectory(prefix="simstats-million-") as folder:
        command = simstats("run", "--games", "1e6", "--policy", "examples/greedy_cells.py:"
                           "GreedyCells", "--out", f"{folder}/run", "-q")
        timed(simstats("run", "--games", "100", "--policy", "examples/greedy_cells.py:"
                       "GreedyCells", "--out", f"{folder}/warm", "-q"), {})
        seconds, out = timed(command, {})
    complete = re.search(r"complete in ([\d.]+) s", out)
    lines += ["", "## A million deals of every game with the example plugin", "",
              "`simstats run --games 1e6 --policy examples/greedy_cells.py:GreedyCells` "
              f"(2 workers, 4 x 1,000,000 deals), compiled code cached: {seconds:.1f} s in all"
              f" ({complete[1] if complete else '?'} s by its own count).", ""]
    OUT.write_text("\n".join(lines))
    print(f"written to {OUT}")


if __name__ == "__main__":
    main()
