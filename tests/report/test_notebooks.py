"""The notebook API of `simstats` on a small real run, and every notebook in notebooks/ executed
headless against that run (with and without its deals/ folder)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pandas as pd
import pytest
import reference_rules as ref
from nbclient import NotebookClient

import simstats
from simstats.cli import main
from simstats.report.plots import FIGURES
from simstats.report.summary import NotARun, collect
from simstats.run.options import policy_parameters
from simstats.stats import mcnemar_exact_p

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
GAMES = ("tournament", "cicely")
POLICIES = ("foundation-only", "dig")
DEALS = 3000
SEED = 5


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    """A fresh small run made by the command line: 2 games x 2 policies x 3000 deals."""
    out = tmp_path_factory.mktemp("nb") / "run"
    args = ["run", "--games", str(DEALS), "--seed", str(SEED), "--chunk-size", "1000",
            "--workers", "2", "--out", str(out), "-q"]
    for game in GAMES:
        args += ["--game", game]
    for policy in POLICIES:
        args += ["--policy", policy]
    main(args)
    return out


@pytest.fixture(scope="module")
def summary_only(run_dir, tmp_path_factory) -> Path:
    """The same run as committed examples are: manifest, summary and plots, but no deals/."""
    out = tmp_path_factory.mktemp("nb") / "summary-only"
    shutil.copytree(run_dir, out, ignore=shutil.ignore_patterns("deals"))
    return out


@pytest.fixture(scope="module")
def run(run_dir) -> simstats.Run:
    return simstats.load_run(run_dir)


# -- the API ------------------------------------------------------------------------------------

def test_importing_simstats_compiles_and_imports_nothing_heavy():
    code = ("import sys, simstats; heavy = [m for m in ('numba', 'numpy', 'pandas', "
            "'simstats.engine') if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    assert simstats.__version__ == "0.1.0"
    for name in simstats.__all__:
        if name != "__version__":
            assert getattr(simstats, name).__doc__, name


def test_load_run_gives_the_table_the_summary_and_the_manifest(run, run_dir):
    assert run.path == run_dir
    assert run.games == list(GAMES) and run.policies == list(POLICIES) and run.seed == SEED
    assert run.deals_per_game == DEALS and run.manifest["status"] == "complete"
    assert len(run.deals) == len(GAMES) * len(POLICIES) * DEALS
    pd.testing.assert_frame_equal(run.deals, pd.read_parquet(run_dir / "deals"))
    pd.testing.assert_frame_equal(run.summary, collect(run_dir).summary)
    assert list(run.summary.game) == [g for g in GAMES for _ in POLICIES]
    assert run.comparisons is not None and len(run.comparisons) >= len(GAMES)
    assert "3,000 deals, seed 5" in repr(run)


def test_a_run_says_what_values_its_policies_played_with(run, tmp_path):
    assert run.parameters == {policy: policy_parameters(policy) for policy in POLICIES}
    out = tmp_path / "lookahead"
    main(["run", "--games", "20", "--game", "cicely", "--policy", "lookahead[depth=1]",
          "--out", str(out), "-q"])
    values = simstats.load_run(out).parameters["lookahead[depth=1]"]
    assert values["depth"] == 1 and values["free"] == policy_parameters("lookahead")["free"]
    old = ROOT / "results" / "policies-100k"  # made before runs recorded their values
    assert simstats.load_run(old).parameters == {}


def test_load_run_without_deals_reads_the_written_summary(summary_only, run):
    loaded = simstats.load_run(summary_only)
    assert loaded.deals is None
    pd.testing.assert_frame_equal(loaded.summary, run.summary, check_dtype=False)
    assert loaded.games == run.games and loaded.seed == SEED
    assert simstats.summarize(summary_only).wins.tolist() == run.summary.wins.tolist()
    pngs = simstats.plot_run(summary_only)  # nothing to redraw: the plots already there
    assert [p.stem for p in pngs] == [name for name in FIGURES
                                      if (summary_only / "plots" / f"{name}.png").is_file()]
    assert {"strength", "win_rates", "heatmap"} <= {p.stem for p in pngs}


def test_load_run_refuses_a_folder_that_is_not_a_run(tmp_path):
    with pytest.raises(NotARun):
        simstats.load_run(tmp_path)


def test_summarize_a_table_as_the_report_does(run, run_dir):
    pd.testing.assert_frame_equal(simstats.summarize(run_dir), run.summary)
    pd.testing.assert_frame_equal(simstats.summarize(run.deals), run.summary)
    by = simstats.summarize(run.deals, by="reshuffles")
    assert list(by.columns[:3]) == ["game", "policy", "reshuffles"]
    totals = by.groupby(["game", "policy"], sort=False)[["n_deals", "wins"]].sum().reset_index()
    pd.testing.assert_frame_equal(totals, run.summary[["game", "policy", "n_deals", "wins"]])
    cicely = by[by.game == "cicely"]
    assert set(cicely.reshuffles) == {0}  # Cicely never reshuffles
    assert ((by.ci_low <= by.win_rate) & (by.win_rate <= by.ci_high)).all()
    two = simstats.summarize(run.deals[run.deals.won], by=["redeals", "end"])
    assert (two.end == "won").all() and (two.win_rate == 1).all()


@pytest.mark.parametrize("game", GAMES)
def test_compare_counts_match_a_crosstab(run, game):
    a, b = "dig", "foundation-only"
    c = simstats.compare(run.deals, game, a, b)
    d = run.deals[run.deals.game == game]
    won_a = d[d.policy == a].set_index("deal").won
    won_b = d[d.policy == b].set_index("deal").won
    table = pd.crosstab(won_a, won_b).reindex(index=[True, False], columns=[True, False],
                                              fill_value=0)
    assert (c.both, c.only_a) == (table.loc[True, True], table.loc[True, False])
    assert (c.only_b, c.neither) == (table.loc[False, True], table.loc[False, False])
    assert c.both + c.only_a + c.only_b + c.neither == c.deals == DEALS
    assert c.win_rate_a == pytest.approx(won_a.mean())
    assert c.win_rate_b == pytest.approx(won_b.mean())
    assert c.difference == pytest.approx(won_a.mean() - won_b.mean())
    assert c.mcnemar_p == pytest.approx(mcnemar_exact_p(c.only_a, c.only_b))
    assert c.ci_low <= c.difference <= c.ci_high
    # the same numbers as the report's own comparison of the pair
    report = run.comparisons.set_index(["game_a", "policy_a", "policy_b"]).loc[(game, b, a)]
    assert (report.only_a, report.only_b) == (c.only_b, c.only_a)


def test_compare_across_games_and_refuse_a_missing_pair(run):
    c = simstats.compare(run.deals, "tournament", "dig", "dig", game_b="cicely")
    assert c.deals == DEALS and c.comparison == "games"
    side = simstats.paired(run.deals, "tournament", "dig", "foundation-only")
    assert list(side.deal) == list(range(DEALS))
    assert {"won_a", "won_b", "foundation_cards_a", "end_b", "reshuffles"} <= set(side.columns)
    with pytest.raises(ValueError, match="no deals of napoleons-flank / dig"):
        simstats.compare(run.deals, "napoleons-flank", "dig", "foundation-only")


@pytest.mark.parametrize("game", [*GAMES, "napoleons-flank", "kingsdown-eights"])
@pytest.mark.parametrize("policy", POLICIES)
def test_play_deal_gives_a_trace_that_replays_and_the_run_row(run, game, policy):
    for deal in (0, 7):
        played = simstats.play_deal(game, policy, seed=SEED, deal=deal)
        checked = ref.check_trace(simstats.trace(played).splitlines())
        assert checked == played.outcome.result()
        if game in GAMES:
            row = run.deals.query("game == @game and policy == @policy and deal == @deal")
            row = row.iloc[0]
            assert (played.outcome.won, played.outcome.foundation_cards, played.outcome.moves,
                    played.outcome.reshuffles) == (row.won, row.foundation_cards, row.moves,
                                                   row.reshuffles)


def test_positions_and_where_two_policies_part_ways():
    a = simstats.play_deal("cicely", "dig", seed=SEED, deal=3)
    b = simstats.play_deal("cicely", "foundation-only", seed=SEED, deal=3)
    seen = simstats.positions(a)
    assert len(seen) == len(a.moves) + 1
    assert seen[0].startswith("stock 64") and f"moves {len(a.moves)}" in seen[-1]
    k = simstats.first_difference(a, b)
    assert k is not None and a.moves[:k] == b.moves[:k] and a.moves[k] != b.moves[k]
    assert simstats.positions(b)[k] == seen[k]
    assert simstats.first_difference(a, a) is None
    hidden = simstats.positions(simstats.play_deal("napoleons-flank", "dig", deal=1))
    assert all("##" in text for text in hidden)


def test_a_deal_stepped_by_hand_is_the_deal_a_policy_plays():
    played = simstats.play_deal("tournament", "dig", seed=SEED, deal=5)
    table = simstats.deal_in_play("tournament", seed=SEED, deal=5)
    for move, card in played.moves:
        assert move in table.observation().legal_moves
        assert table.play(move) == card
    assert table.end() != -1  # over: won, no moves or the move limit, as the policy found
    assert table.outcome(table.end()) == played.outcome
    hidden = simstats.deal_in_play("napoleons-flank", seed=SEED, deal=5).observation()
    assert all(column[:-1] == (None,) * (len(column) - 1) for column in hidden.tableau)


def test_play_run_replays_the_first_deals_of_a_run(run, tmp_path):
    small = simstats.play_run(400, game=list(GAMES), policy=list(POLICIES), seed=SEED,
                              out=tmp_path / "small", workers=1)
    expected = run.deals[run.deals.deal < 400].reset_index(drop=True)
    pd.testing.assert_frame_equal(small.deals, expected)
    assert small.manifest["command"][:4] == ["simstats", "run", "--games", "400"]
    assert (tmp_path / "small" / "summary.csv").is_file()


def test_plot_run_draws_the_report_plots(run_dir, tmp_path):
    names = [f"{name}.png" for name in FIGURES if (run_dir / "plots" / f"{name}.png").is_file()]
    existing = simstats.plot_run(run_dir)  # the run's own plots, as the report drew them
    assert existing == [run_dir / "plots" / name for name in names]
    stamps = [p.stat().st_mtime_ns for p in existing]
    drawn = simstats.plot_run(run_dir, tmp_path / "plots")
    assert [p.name for p in drawn] == [p.name for p in existing]
    assert all(p.stat().st_size > 1000 for p in drawn)
    assert simstats.plot_run(run_dir) == existing
    assert [p.stat().st_mtime_ns for p in existing] == stamps  # not drawn again


def test_list_games_and_policies():
    games = simstats.list_games()
    assert [g for g, _, _ in games] == ["tournament", "napoleons-flank", "cicely",
                                        "kingsdown-eights"]
    assert ("marechal-saxe",) in [aliases for _, _, aliases in games]
    names = [name for name, _, _ in simstats.list_policies()]
    assert {"foundation-only", "dig", "random", "lookahead"} <= set(names)


# -- the notebooks ------------------------------------------------------------------------------

def test_there_are_notebooks_and_they_carry_their_outputs():
    assert [p.name for p in NOTEBOOKS] == ["01-explore-a-run.ipynb",
                                           "02-compare-policies.ipynb",
                                           "03-write-a-policy.ipynb"]
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        code = [cell for cell in nb.cells if cell.cell_type == "code"]
        assert all(cell.execution_count for cell in code), f"{path.name} was not run"
        errors = [o for cell in code for o in cell.outputs if o.output_type == "error"]
        assert not errors, f"{path.name} was saved with an error"
        assert any("image/png" in o.get("data", {}) for cell in code for o in cell.outputs)


@pytest.mark.parametrize("deals", ["with deals", "summary only"])
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_top_to_bottom(path, deals, run_dir, summary_only, tmp_path, monkeypatch):
    monkeypatch.setenv("SIMSTATS_RUN", str(run_dir if deals == "with deals" else summary_only))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    (tmp_path / "tmp").mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))  # the notebooks' scratch runs go here
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()  # raises CellExecutionError, naming the cell, on any error
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs)
    if not path.stem.startswith("03"):  # 01 and 02 replay a sample only when deals/ is missing
        assert ("replaying" in text) == (deals == "summary only")
    leftovers = {p.name for p in path.parent.iterdir()} - {p.name for p in NOTEBOOKS}
    assert leftovers <= {"README.md", ".ipynb_checkpoints"}, leftovers  # nothing written there
