"""README's headline figures, drawn from the committed runs' tables (no deals needed).

    python docs/make_figures.py

For every game and policy, the committed run that played it on the most deals gives its row
(summary.csv) and its time per deal (the run's own chunk timings, manifest.json); the figures
are simstats.plots' strength and strength-against-cost figures, written to docs/.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pandas as pd

from simstats.plots import FIGURES, save_figure
from simstats.report import us_per_deal

ROOT = Path(__file__).resolve().parents[1]
# results/main-1e6 is left out: it was played with the `dig` of its time (README)
RUNS = ["policies-100k", "solver-20k", "oracle-10k", "oracle-kingsdown-10k-16e6", "rollout-1k"]


def combined() -> SimpleNamespace:
    rows, timings = [], {}
    for name in RUNS:
        folder = ROOT / "results" / name
        summary = pd.read_csv(folder / "summary.csv").assign(run=name)
        rows.append(summary)
        for key, us in us_per_deal(json.loads((folder / "manifest.json").read_text())).items():
            timings[key + (name,)] = us
    table = pd.concat(rows, ignore_index=True)
    games = list(dict.fromkeys(table.game))
    best = (table.sort_values("games", ascending=False, kind="stable")
            .drop_duplicates(["game", "policy"]))
    best = best.assign(order=best.game.map(games.index)).sort_values(
        ["order"], kind="stable").drop(columns="order").reset_index(drop=True)
    chosen = {(r.game, r.policy): timings.get((r.game, r.policy, r.run))
              for r in best.itertuples()}
    return SimpleNamespace(summary=best, us_per_deal={k: v for k, v in chosen.items() if v})


def main() -> None:
    data = combined()
    for name in ("strength", "strength_cost"):
        save_figure(FIGURES[name](data), ROOT / "docs", name)
        print(f"wrote docs/{name}.png and .svg")


if __name__ == "__main__":
    main()
