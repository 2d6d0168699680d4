"""Record the per-deal outcomes of every built-in policy (seed 0) into tests/data, so that a
refactor can be checked to leave them identical (tests/policies/test_outcomes_unchanged.py).

Run it only from code whose results are the reference: `python tests/record_builtin_outcomes.py`
(every policy), or `... 2 planner` to record (or record again) only the policies named, keeping
the others' recorded outcomes.
"""

from __future__ import annotations

import sys
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from simstats.engine.games import GAMES, get_game
from simstats.policies import resolve_policy
from simstats.run.compiled_play import run_compiled

FILE = Path(__file__).parent / "data" / "builtin_outcomes.npz"
SEED = 0
# Deals recorded per policy: a few thousand, fewer for those that cost a tenth of a second.
DEALS = {"foundation-only": 3000, "random": 3000, "dig": 3000, "blind-digger": 3000,
         "lookahead": 3000, "solver": 2000, "rollout": 1000, "oracle": 100, "planner": 40}


def cases(policies=DEALS) -> list[tuple[str, str]]:
    return [(game, policy) for policy in policies for game in sorted(GAMES)
            if not (policy == "oracle" and game == "napoleons-flank")]


def record(case: tuple[str, str]) -> tuple[str, np.ndarray]:
    game, policy = case
    rows = run_compiled(get_game(game), resolve_policy(policy), SEED, 0, DEALS[policy])
    print(f"{game}/{policy}: {len(rows)} deals, {int(rows[:, 1].sum())} won", flush=True)
    return f"{game}/{policy}", rows


if __name__ == "__main__":
    only = sys.argv[2:]
    with Pool(int(sys.argv[1]) if len(sys.argv) > 1 else 2) as pool:
        recorded = dict(pool.map(record, cases(only or DEALS), chunksize=1))
    if only:
        with np.load(FILE) as kept:
            recorded = {**{key: kept[key] for key in kept.files}, **recorded}
    np.savez_compressed(FILE, **recorded)
