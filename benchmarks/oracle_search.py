"""The oracle's search (simstats/search: solve_position) on the deals a run's oracle left
undecided, at other budgets: does a bigger budget decide them, and at what cost? One core.
Writes benchmarks/oracle_search.md.

    python benchmarks/oracle_search.py results/oracle-kingsdown-10k-32e6 --game kingsdown-eights \
        --budgets 64e6,128e6 --deals 20
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from simstats.engine.deals import deal_deck
from simstats.engine.games import get_game
from simstats.engine.moves import lay_out
from simstats.engine.state import new_state
from simstats.registry import is_oracle
from simstats.search import (
    NODES,
    RESULT_NAMES,
    search_buffers,
    solve_position,
    table_bits_for,
)

OUT = Path(__file__).with_suffix(".md")
TITLE = "# The oracle's search on deals it left undecided\n"


def write_section(game_id: str, section: str) -> None:
    """Replace this game's section of OUT, keeping the other games' (one run per game)."""
    sections = {}
    if OUT.exists():
        for part in OUT.read_text().split("\n## ")[1:]:
            sections[part.split()[0]] = "## " + part.rstrip("\n") + "\n"
    sections[game_id] = section
    OUT.write_text(TITLE + "".join("\n" + sections[g] for g in sorted(sections)))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("run", help="a run folder with the oracle's per-deal table (deals/)")
    parser.add_argument("--game", required=True)
    parser.add_argument("--budgets", default="4e6,16e6", help="positions in all, comma-separated")
    parser.add_argument("--deals", type=int, default=20, help="undecided deals to try (first N)")
    args = parser.parse_args()
    game = get_game(args.game)
    if not (Path(args.run) / "deals").is_dir():
        sys.exit(f"oracle_search.py: {args.run} holds no per-deal table (deals/): play the run "
                 "again with its command to make it")
    table = pd.read_parquet(Path(args.run) / "deals")
    undecided = table[(table.game == game.id) & table.policy.map(is_oracle)
                      & (table.end == "unknown")].deal.sort_values().tolist()
    deals = undecided[: args.deals]
    if not deals:
        sys.exit(f"oracle_search.py: no {game.id} deal of {args.run} ended unknown")
    seed = 0  # the committed runs are seed 0
    rows, lists = [], []
    for budget in (int(float(b)) for b in args.budgets.split(",")):
        work = search_buffers(table_bits=table_bits_for(budget), deep=True)
        decided = {"won": [], "lost": [], "unknown": []}  # the deals of each verdict
        nodes, started = 0, time.perf_counter()
        for deal in deals:
            deck, _ = deal_deck(game.array, seed, deal)
            state = new_state()
            lay_out(state, game.array, np.asarray(deck, dtype=np.int16))
            verdict = RESULT_NAMES[solve_position(state, game.array, budget, work)]
            decided[verdict].append(deal)
            nodes += int(work.info[NODES])
            print(f"{budget:,} deal {deal}: {verdict}, {int(work.info[NODES]):,} "
                  "positions", flush=True)
        seconds = time.perf_counter() - started
        rows.append(f"| {budget:,} | {len(deals)} | {len(decided['won'])} | "
                    f"{len(decided['lost'])} | {len(decided['unknown'])} | "
                    f"{nodes / len(deals):,.0f} | "
                    f"{seconds / len(deals):.1f} |")
        print(rows[-1], flush=True)
        lists.append(f"- {budget:,}: won {decided['won'] or 'none'}, lost "
                     f"{decided['lost'] or 'none'}, unknown {decided['unknown'] or 'none'}")
    section = "\n".join([
        f"## {game.id} ({time.strftime('%Y-%m-%d')})",
        "",
        f"    python benchmarks/oracle_search.py {args.run} --game {game.id} "
        f"--budgets {args.budgets} --deals {args.deals}",
        "",
        f"{len(undecided)} deals of `{args.run}` ({game.id}) ended `unknown`; the first "
        f"{len(deals)} searched again from the layout (one core, seed {seed}).",
        "",
        "| budget | deals | won | lost | unknown | positions per deal | seconds per deal |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
        "Deal by deal:",
        "",
        *lists,
        "",
    ])
    write_section(game.id, section)
    print(f"written to {OUT}")


if __name__ == "__main__":
    main()
