"""`simstats compare RUN:GAME:POLICY RUN:GAME:POLICY`: paired where the decks are the same, with
the figures `simstats report` gives for a pair within a run; Newcombe's interval where not, equal
to statsmodels'; from the per-deal table or from the compact wins.npz; bad input in one line."""

from __future__ import annotations

import io
import json
import shutil

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from processes import run_into

from simstats.run.records import read_wins
from simstats.stats import unpaired_difference_interval

PLUGIN = "examples/greedy_cells.py:GreedyCells"


def make_run(folder, *args) -> None:
    run_into(folder, "run", *args, "--workers", "1", "-q")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Run a: Tournament and Napoleon's Flank (the same decks), dig and a file plugin, 2,000
    deals of seed 0; b: Cicely and Tournament, dig, 1,000 deals of seed 0; c: as b, seed 1."""
    root = tmp_path_factory.mktemp("compare")
    make_run(root / "a", "--games", "2000", "--game", "tournament", "--game", "napoleons-flank",
             "--policy", "dig", "--policy", PLUGIN)
    make_run(root / "b", "--games", "1000", "--game", "cicely", "--game", "tournament",
             "--policy", "dig")
    make_run(root / "c", "--games", "1000", "--game", "cicely", "--game", "tournament",
             "--policy", "dig", "--seed", "1")
    return root


def compare_csv(cli, a, b) -> pd.Series:
    result = cli("compare", a, b, "--format", "csv")
    assert result.code == 0, result.stderr
    return pd.read_csv(io.StringIO(result.stdout)).iloc[0]


def test_a_pair_within_a_run_has_the_figures_of_its_report(cli, runs):
    report = pd.read_csv(runs / "a" / "comparisons.csv")
    assert len(report) >= 3
    for row in report.itertuples():
        got = compare_csv(cli, f"{runs / 'a'}:{row.game_a}:{row.policy_a}",
                          f"{runs / 'a'}:{row.game_b}:{row.policy_b}")
        assert got.pairing == "paired"
        for column in ("deals", "both", "only_a", "only_b", "neither", "win_rate_a",
                       "win_rate_b", "difference", "ci_low", "ci_high", "mcnemar_p"):
            assert got[column] == pytest.approx(getattr(row, column), rel=1e-9), column


def test_the_same_decks_in_two_runs_are_paired_on_the_deals_both_played(cli, runs):
    got = compare_csv(cli, f"{runs / 'a'}:tournament:dig", f"{runs / 'b'}:tournament:dig")
    assert got.pairing == "paired" and got.deals == 1000  # b played deals 0-999 only
    assert got.only_a == got.only_b == 0 and got.difference == 0  # the same deals, same play
    summary = pd.read_csv(runs / "b" / "summary.csv").set_index(["game", "policy"])
    assert got.wins_a == summary.loc[("tournament", "dig"), "wins"]


def test_different_decks_are_compared_unpaired_with_newcombes_interval(cli, runs):
    statsmodels = pytest.importorskip("statsmodels.stats.proportion")
    for a, b in [(f"{runs / 'b'}:cicely:dig", f"{runs / 'a'}:tournament:dig"),
                 (f"{runs / 'b'}:tournament:dig", f"{runs / 'c'}:tournament:dig")]:
        got = compare_csv(cli, a, b)
        assert got.pairing == "unpaired" and pd.isna(got.both)
        low, high = statsmodels.confint_proportions_2indep(
            got.wins_a, got.deals_a, got.wins_b, got.deals_b, method="newcomb", compare="diff")
        assert (got.ci_low, got.ci_high) == pytest.approx((low, high), abs=1e-12)
        assert got.difference == pytest.approx(got.wins_a / got.deals_a
                                               - got.wins_b / got.deals_b)


@settings(max_examples=200, deadline=None)
@given(n_a=st.integers(1, 10**6), n_b=st.integers(1, 10**6), data=st.data())
def test_newcombes_interval_is_statsmodels(n_a, n_b, data):
    statsmodels = pytest.importorskip("statsmodels.stats.proportion")
    wins_a, wins_b = data.draw(st.integers(0, n_a)), data.draw(st.integers(0, n_b))
    _, low, high = unpaired_difference_interval(wins_a, n_a, wins_b, n_b)
    expected = statsmodels.confint_proportions_2indep(wins_a, n_a, wins_b, n_b,
                                                      method="newcomb", compare="diff")
    assert (low, high) == pytest.approx(expected, abs=1e-12)


def test_without_its_per_deal_table_a_run_is_compared_from_wins_npz(cli, runs, tmp_path):
    kept = tmp_path / "kept"
    shutil.copytree(runs / "a", kept)
    shutil.rmtree(kept / "deals")
    # at most two bits a deal (played, won) of 8,000 deals, and the file's framing of 4 cells
    assert (kept / "wins.npz").stat().st_size < 8000 * 2 / 8 + 4 * 300
    for a, b in [("tournament:dig", "napoleons-flank:dig"), (f"tournament:{PLUGIN}",
                                                             "tournament:dig")]:
        full = cli("compare", f"{runs / 'a'}:{a}", f"{runs / 'a'}:{b}", "--format", "json")
        compact = cli("compare", f"{kept}:{a}", f"{kept}:{b}", "--format", "json")
        assert compact.code == 0, compact.stderr
        assert json.loads(compact.stdout) == {**json.loads(full.stdout),
                                              "a": f"{kept}:{a}", "b": f"{kept}:{b}"}
    assert set(read_wins(kept)) == {(g, p) for g in ("tournament", "napoleons-flank")
                                    for p in ("dig", PLUGIN)}


def test_the_text_says_how_it_paired_and_the_formats_hold_the_columns(cli, runs):
    paired = cli("compare", f"{runs / 'a'}:tournament:dig", f"{runs / 'a'}:napoleons-flank:dig")
    assert "paired on the 2,000 deals both played" in paired.stdout and "McNemar" in paired.stdout
    unpaired = cli("compare", f"{runs / 'b'}:cicely:dig", f"{runs / 'b'}:tournament:dig")
    assert "unpaired" in unpaired.stdout and "Newcombe" in unpaired.stdout
    md = cli("compare", f"{runs / 'b'}:cicely:dig", f"{runs / 'b'}:tournament:dig",
             "--format", "md")
    assert md.stdout.startswith("| a | b | pairing |") and "None" not in md.stdout


@pytest.mark.parametrize("a, says", [
    ("{a}:tournament", "is not RUN:GAME:POLICY"),
    ("{a}/nowhere:tournament:dig", "is not a simstats run"),
    ("{a}:cicely:dig", "has no game 'cicely'"),
    ("{a}:tournament:solver", "has no policy 'solver'"),
])
def test_bad_cells_are_refused_in_one_line(cli, runs, a, says):
    result = cli("compare", a.format(a=runs / "a"), f"{runs / 'b'}:tournament:dig")
    assert result.code == 2
    assert says in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.parametrize("version", ["rules_version", "deal_stream_version"])
def test_runs_of_other_rules_or_deal_streams_are_refused(cli, runs, tmp_path, version):
    other = tmp_path / "other"
    shutil.copytree(runs / "b", other)
    manifest = json.loads((other / "manifest.json").read_text())
    manifest["identity"][version] += 1
    (other / "manifest.json").write_text(json.dumps(manifest))
    result = cli("compare", f"{runs / 'a'}:tournament:dig", f"{other}:cicely:dig")
    assert result.code == 2
    assert version.replace("_", " ").removesuffix(" version").split()[0] in result.stderr
    assert result.stderr.count("\n") == 1
