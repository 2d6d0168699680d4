"""README's headline figures, and the committed runs' own figures and report pages, drawn from
their tables (the per-deal tables are not committed, so no deals are needed).

    python docs/make_figures.py

For every game and policy, the committed run that played it on the most deals gives its row
(summary.csv) and its time per deal (the run's own chunk timings, manifest.json), except that a
game's oracle comes from the first run of RUNS that has one (the bracket of the largest budget
played); the figures are simstats.report.plots' strength and strength-against-cost
figures, written to docs/. Each committed run then gets again every figure that needs only its
tables (strength, strength against cost, comparisons, win rates, heat map; cards home and
convergence need the deals and stay as drawn) and its report.html.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
from make_answers import committed_runs  # docs/, this script's folder

from simstats.registry import is_oracle
from simstats.report.page import report_page
from simstats.report.plots import FIGURES, save_figure
from simstats.report.summary import (
    COMPARISON_COLUMNS,
    SUMMARY_NOTE,
    comparisons_note,
    comparisons_view,
    oracle_note,
    summary_view,
    us_per_deal,
)

ROOT = Path(__file__).resolve().parents[1]
# results/main-1e6 is left out: these are the runs benchmarks/answers.md cites
RUNS = ["policies-100k", "solver-20k", "oracle-tournament-10k-64e6", "oracle-cicely-10k-64e6",
        "oracle-kingsdown-10k-64e6", "oracle-tournament-10k-32e6", "oracle-cicely-10k-32e6",
        "oracle-kingsdown-10k-32e6", "rollout-1k",
        "planner-5k", "planner-kingsdown-5k", "planner-napoleon-5k"]


def combined() -> SimpleNamespace:
    rows, timings = [], {}
    for name in RUNS:
        folder = ROOT / "results" / name
        summary = pd.read_csv(folder / "summary.csv").assign(run=name)
        rows.append(summary)
        for key, us in us_per_deal(json.loads((folder / "manifest.json").read_text())).items():
            timings[key + (name,)] = us
    table = pd.concat(rows, ignore_index=True)
    oracle = table.policy.map(is_oracle)
    oracle_run = table[oracle].drop_duplicates("game").set_index("game").run
    table = table[~oracle | (table.run == table.game.map(oracle_run))]  # one bracket a game
    games = list(dict.fromkeys(table.game))
    best = (table.sort_values("n_deals", ascending=False, kind="stable")
            .drop_duplicates(["game", "policy"]))
    best = best.assign(order=best.game.map(games.index)).sort_values(
        ["order"], kind="stable").drop(columns="order").reset_index(drop=True)
    chosen = {(r.game, r.policy): timings.get((r.game, r.policy, r.run))
              for r in best.itertuples()}
    return SimpleNamespace(summary=best, us_per_deal={k: v for k, v in chosen.items() if v})


TABLE_FIGURES = ("strength", "strength_cost", "comparisons", "win_rates", "heatmap")


def comparisons_table(path: Path) -> pd.DataFrame | None:
    """A run's comparisons.csv. One written before unpaired comparisons existed lacks the
    columns they brought: its comparisons are all paired, so each side played `deals`."""
    if not path.is_file():
        return None
    table = pd.read_csv(path)
    if "pairing" not in table:
        table["pairing"] = "paired"
        for side in ("a", "b"):
            table[f"deals_{side}"] = table["deals"]
            table[f"wins_{side}"] = table["both"] + table[f"only_{side}"]
    return table[list(COMPARISON_COLUMNS)]


def run_tables(folder: Path) -> SimpleNamespace:
    """A committed run as the report's data, from its tables and manifest alone."""
    manifest = json.loads((folder / "manifest.json").read_text())
    return SimpleNamespace(
        run_dir=folder.relative_to(ROOT), manifest=manifest, status=manifest.get("status"),
        summary=pd.read_csv(folder / "summary.csv"),
        comparisons=comparisons_table(folder / "comparisons.csv"),
        us_per_deal=us_per_deal(manifest))


def main() -> None:
    data = combined()
    for name in ("strength", "strength_cost"):
        save_figure(FIGURES[name](data), ROOT / "docs", name)
        print(f"wrote docs/{name}.png and .svg")
    for folder in committed_runs():
        if not (folder / "summary.csv").is_file():  # a run stopped before its tables
            print(f"skipped {folder.relative_to(ROOT)}: no summary.csv")
            continue
        run = run_tables(folder)
        for name in TABLE_FIGURES:
            fig = FIGURES[name](run)
            if fig is not None:
                save_figure(fig, folder / "plots", name)
        notes = {"summary": SUMMARY_NOTE, "oracle": oracle_note(run),
                 "comparisons": comparisons_note(run)}
        page = report_page(run, folder / "plots", summary_view(run), comparisons_view(run), notes)
        (folder / "report.html").write_text(page)
        print(f"wrote {run.run_dir}/plots and report.html")


if __name__ == "__main__":
    main()
