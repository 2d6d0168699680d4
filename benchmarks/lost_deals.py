"""The deals `solver` (or --policy, a fair player that searches once the stock is out) loses:
were they lost before it could search, or did its searches miss a win? For each deal of 0..N-1
(seed 0) that it loses, the position where it first searched
(the stock out: every card known), and from there, with every card known, one eager search in
the fixed order (does it exhaust the eager lines, as `solver`'s searches cannot within their
budgets?) and the oracle's search (solve_position: eager, then exact, then deep), each within
--budget positions. One core. Writes benchmarks/lost_deals_<game>.md (or --out).

    python benchmarks/lost_deals.py --game tournament --deals 1000 --budget 5e6
    python benchmarks/lost_deals.py --game kingsdown-eights --policy 'solver[budget=200000]' \
        --deals 300 --budget 64e6 --out benchmarks/lost_deals_kingsdown_eights_200k.md
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from simstats.engine.deals import deal_deck
from simstats.engine.games import get_game
from simstats.engine.moves import apply_move, lay_out
from simstats.engine.notation import parse_move
from simstats.engine.state import LENGTHS, MOVE_LIMIT, MOVES, REDEALS, STOCK, WON_AT, new_state
from simstats.notebook import play_deal
from simstats.policies import resolve_policy
from simstats.run.compiled_play import run_compiled
from simstats.search import (
    NODES,
    RESULT_NAMES,
    search_buffers,
    solve,
    solve_position,
    table_bits_for,
)


def first_search_position(game, policy: str, deal: int):
    """The position of deal `deal` (seed 0) when `policy` first searches: its own play, made
    again on the state up to the move where the stock is out; None if it never is."""
    play = play_deal(game, policy, 0, deal)
    deck, _ = deal_deck(game.array, 0, deal)
    state = new_state()
    lay_out(state, game.array, np.asarray(deck, dtype=np.int16))
    for move, _card in play.moves:
        if state[LENGTHS + STOCK] == 0:
            return state, play
        apply_move(state, game.array, parse_move(move))
    return (state, play) if state[LENGTHS + STOCK] == 0 else (None, play)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="tournament")
    parser.add_argument("--policy", default="solver")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--budget", type=float, default=5e6, help="positions a search")
    parser.add_argument("--out", type=Path, help="default: benchmarks/lost_deals_<game>.md")
    args = parser.parse_args()
    game, budget = get_game(args.game), int(args.budget)
    out = args.out or Path(__file__).with_name(f"lost_deals_{game.id.replace('-', '_')}.md")
    started = time.perf_counter()
    rows = run_compiled(game, resolve_policy(args.policy), 0, 0, args.deals)
    play_seconds = time.perf_counter() - started
    lost = [deal for deal in range(args.deals) if not rows[deal, WON_AT]]
    work = search_buffers(table_bits=table_bits_for(budget), deep=True)
    info = work.info
    table, counts = [], {}
    for deal in lost:
        position, play = first_search_position(game, args.policy, deal)
        if position is None:
            counts["never"] = counts.get("never", 0) + 1
            table.append(f"| {deal} | {play.outcome.foundation_cards} | never (stock never out) "
                         "| | |")
            continue
        moves_left = MOVE_LIMIT - int(position[MOVES])
        eager = RESULT_NAMES[solve(position, game.array, budget, moves_left, True, work)]
        eager_nodes = int(info[NODES])
        oracle = RESULT_NAMES[solve_position(position, game.array, budget, work)]
        oracle_nodes = int(info[NODES])
        counts[(eager, oracle)] = counts.get((eager, oracle), 0) + 1
        table.append(f"| {deal} | {play.outcome.foundation_cards} | move {int(position[MOVES])}, "
                     f"{int(position[REDEALS])} redeals made | {eager} in {eager_nodes:,} | "
                     f"{oracle} in {oracle_nodes:,} |")
        print(table[-1], flush=True)
    summary = [f"| never searched (the stock never ran out) | {counts.pop('never', 0)} |"]
    for (eager, oracle), n in sorted(counts.items()):
        summary.append(f"| eager search: {eager}; oracle's search: {oracle} | {n} |")
    text = (
        f"# The deals `{args.policy}` loses ({game.id})\n\n"
        f"    python benchmarks/lost_deals.py --game {game.id} --policy '{args.policy}' "
        f"--deals {args.deals} --budget {budget}\n\n"
        f"`{args.policy}` wins {args.deals - len(lost)} of deals 0-{args.deals - 1} (seed 0; "
        f"{play_seconds / args.deals * 1e3:.1f} ms a deal in this run) and loses "
        f"{len(lost)}. For each lost deal, from the position where it first searched (the "
        "stock out, every card known), within "
        f"{budget:,} positions a search: one eager search in the fixed order (every card that "
        "can go home goes at once: `lost` says no eager line wins) and the oracle's search "
        "(solve_position: eager searches, then exact ones, then a deep one; `lost` is a proof "
        "that no line wins).\n\n"
        "| what the searches found | deals |\n|---|---|\n" + "\n".join(summary) + "\n\n"
        "| deal | cards home | first search | eager search | oracle's search |\n"
        "|---|---|---|---|---|\n" + "\n".join(table) + "\n")
    out.write_text(text)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
