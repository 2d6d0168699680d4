"""Statistics against statsmodels' documented values, and the report of a small real run."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportion_confint

from simstats.stats import mcnemar_exact_p, quantile_from_histogram, wilson_interval


@pytest.mark.parametrize("wins, n", [(0, 10), (10, 10), (3, 10), (0, 1), (1, 1), (123, 1000),
                                     (0, 1_000_000), (999_999, 1_000_000)])
def test_wilson_interval_matches_statsmodels(wins, n):
    expected = proportion_confint(wins, n, alpha=0.05, method="wilson")
    assert wilson_interval(wins, n) == pytest.approx(expected, abs=1e-12)


def test_wilson_interval_known_values():
    # 0 of 10 and 10 of 10: one bound is exactly 0 or 1, the other 1 - 10/(10 + z^2)
    low, high = wilson_interval(0, 10)
    assert low == 0 and high == pytest.approx(0.2775328, abs=1e-7)
    low, high = wilson_interval(10, 10)
    assert high == pytest.approx(1) and low == pytest.approx(0.7224672, abs=1e-7)


@pytest.mark.parametrize("table", [[[10, 7], [2, 30]], [[5, 0], [0, 5]], [[0, 12], [1, 0]],
                                   [[100, 40], [25, 835]]])
def test_exact_mcnemar_matches_statsmodels(table):
    expected = mcnemar(table, exact=True).pvalue
    assert mcnemar_exact_p(table[0][1], table[1][0]) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("values", [[5], [0, 0, 3], [1, 2, 3, 4], [7, 1, 9, 9, 2, 50, 50]])
def test_quantiles_from_histograms_match_numpy(values):
    histogram = np.bincount(values, minlength=105)
    for q in (0.25, 0.5, 0.75):
        assert quantile_from_histogram(histogram, q) == pytest.approx(np.quantile(values, q))


def test_report_of_a_small_real_run(cli, tmp_path):
    out = tmp_path / "run"
    result = cli("run", "--games", "2000", "--game", "cicely", "--game", "kingsdown-eights",
                 "--policy", "foundation-only", "--policy", "random", "--chunk-size", "600",
                 "--workers", "2", "--out", out, "-q")
    assert result.code == 0, result.stderr
    deals = pd.read_parquet(out / "deals")
    summary = pd.read_csv(out / "summary.csv")
    assert len(summary) == 4
    for row in summary.itertuples():
        d = deals[(deals.game == row.game) & (deals.policy == row.policy)]
        fc = d.foundation_cards
        assert row.n_deals == len(d) == 2000
        assert row.wins == d.won.sum()
        assert row.win_rate == pytest.approx(d.won.mean())
        assert (row.ci_low, row.ci_high) == pytest.approx(
            proportion_confint(d.won.sum(), len(d), method="wilson"))
        assert row.mean_foundation_cards == pytest.approx(fc.mean())
        assert row.median_foundation_cards == pytest.approx(fc.median())
        assert row.q1_foundation_cards == pytest.approx(fc.quantile(0.25))
        assert row.q3_foundation_cards == pytest.approx(fc.quantile(0.75))
        assert row.share_52_home == pytest.approx((fc >= 52).mean())
        assert row.mean_moves == pytest.approx(d.moves.mean())
        assert row.mean_deals == pytest.approx(d.deals.mean())
        assert row.mean_redeals == pytest.approx(d.redeals.mean())
        assert row.mean_reshuffles == pytest.approx(d.reshuffles.mean())
        for end in ("won", "no_moves", "resigned", "move_limit"):
            assert getattr(row, f"end_{end}") == (d.end == end).sum()
    assert "win rate (95% CI)" in (out / "summary.md").read_text()
    for name in ("strength", "strength_cost", "win_rates", "cards_home", "convergence", "heatmap"):
        for suffix in ("png", "svg"):
            assert (out / "plots" / f"{name}.{suffix}").stat().st_size > 5000


def test_report_refuses_a_folder_that_is_not_a_run(cli, tmp_path):
    result = cli("report", tmp_path)
    assert result.code == 2 and result.stderr.count("\n") == 1
    assert "not a simstats run" in result.stderr


def test_report_of_an_unfinished_run_says_so(cli, tmp_path):
    import json

    out = tmp_path / "run"
    assert cli("run", "--games", "500", "--game", "cicely", "--out", out, "-q").code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["status"] = "interrupted"
    (out / "manifest.json").write_text(json.dumps(manifest))
    result = cli("report", out)
    assert result.code == 0 and "interrupted" in result.stdout


def test_paired_difference_interval_bonett_price():
    from simstats.stats import paired_difference_interval

    # both, only A, only B, neither = 40, 25, 10, 25 (n = 100), by hand:
    # a = 26/102, b = 11/102, d = 15/102, se = sqrt((a + b - d^2) / 102)
    d, low, high = paired_difference_interval(40, 25, 10, 25)
    a, b = 26 / 102, 11 / 102
    half = 1.959963984540054 * np.sqrt((a + b - (a - b) ** 2) / 102)
    assert d == pytest.approx(0.15)
    assert (low, high) == pytest.approx((a - b - half, a - b + half))
    # with many deals it agrees with the textbook Wald interval for paired proportions
    n, only_a, only_b = 1_000_000, 30_000, 20_000
    d, low, high = paired_difference_interval(100_000, only_a, only_b, n - 150_000)
    se = np.sqrt((only_a + only_b) / n**2 - (only_a - only_b) ** 2 / n**3)
    assert (low, high) == pytest.approx((d - 1.96 * se, d + 1.96 * se), abs=2e-5)
    # no discordant deal: an interval around 0 that still has width; never outside [-1, 1]
    d, low, high = paired_difference_interval(5, 0, 0, 5)
    assert d == 0 and low < 0 < high
    assert paired_difference_interval(0, 10, 0, 0)[2] <= 1


def test_comparisons_of_a_small_real_run(cli, tmp_path):
    out = tmp_path / "run"
    result = cli("run", "--games", "1500", "--game", "tournament", "--game", "napoleons-flank",
                 "--policy", "dig", "--policy", "foundation-only", "--chunk-size", "400",
                 "--workers", "2", "--out", out, "-q")
    assert result.code == 0, result.stderr
    deals = pd.read_parquet(out / "deals")
    comparisons = pd.read_csv(out / "comparisons.csv")
    assert set(comparisons.comparison) == {"policies", "seeing buried cards",
                                           "seeing buried cards, best against best"}
    assert len(comparisons) == 2 + 2 + 1  # a pair per game; T vs N per policy, best vs best
    assert (comparisons.pairing == "paired").all()  # the same decks
    for row in comparisons.itertuples():
        a = deals[(deals.game == row.game_a) & (deals.policy == row.policy_a)].set_index("deal")
        b = deals[(deals.game == row.game_b) & (deals.policy == row.policy_b)].set_index("deal")
        table = pd.crosstab(a.won, b.won).reindex(index=[True, False], columns=[True, False],
                                                  fill_value=0)
        assert (row.both, row.only_a, row.only_b, row.neither) == (
            table.loc[True, True], table.loc[True, False], table.loc[False, True],
            table.loc[False, False])
        assert row.difference == pytest.approx(a.won.mean() - b.won.mean())
        assert row.ci_low <= row.difference <= row.ci_high
        assert row.mcnemar_p == pytest.approx(
            mcnemar([[row.both, row.only_a], [row.only_b, row.neither]], exact=True).pvalue)
    assert "## Comparisons" in (out / "summary.md").read_text()
    assert (out / "plots" / "comparisons.png").stat().st_size > 5000


def test_games_on_other_decks_are_compared_best_against_best_unpaired(cli, tmp_path):
    """How much easier Cicely is than Tournament, each played by its best fair player of the
    run: an unpaired comparison, the one `simstats compare` gives for those two cells."""
    out = tmp_path / "run"
    result = cli("run", "--games", "600", "--game", "tournament", "--game", "cicely",
                 "--policy", "dig", "--policy", "foundation-only", "--out", out, "-q")
    assert result.code == 0, result.stderr
    comparisons = pd.read_csv(out / "comparisons.csv")
    row = comparisons[comparisons.comparison == "games, best against best"].iloc[0]
    assert (row.pairing, row.policy_a, row.policy_b) == ("unpaired", "dig", "dig")
    assert pd.isna(row.deals) and pd.isna(row.mcnemar_p) and row.deals_a == row.deals_b == 600
    direct = cli("compare", f"{out}:{row.game_a}:dig", f"{out}:{row.game_b}:dig",
                 "--format", "json")
    got = pd.read_json(io.StringIO(direct.stdout), lines=True).iloc[0]
    for column in ("wins_a", "wins_b", "difference", "ci_low", "ci_high"):
        assert got[column] == pytest.approx(row[column]), column
    summary = (out / "summary.md").read_text()
    assert "games, best against best" in summary and "600 and 600" in summary
