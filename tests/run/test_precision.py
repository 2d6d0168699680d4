"""`simstats run --precision P`: each game and policy counts the shortest prefix of whole chunks
whose 95% interval is at most P points either side (or all its deals), whatever the workers,
backend or interruptions; the per-deal table holds only counted deals; the summary says why
each cell stopped; the target is part of the run's identity."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest
from processes import run_into

from simstats.run.precision import chunk_size_for_target, deals_needed, half_width
from simstats.stats import wilson_interval

# Cells that stop after one chunk, after a few, and one (Cicely dig) that needs 10 of 100 deals.
RUN = ["run", "--games", "5000", "--game", "cicely", "--game", "tournament", "--policy", "dig",
       "--policy", "random", "--precision", "2", "-q"]


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    return run_into(tmp_path_factory.mktemp("precision") / "r", *RUN, "--workers", "2")


@pytest.fixture(scope="module")
def table(made) -> pd.DataFrame:
    return pd.read_parquet(made / "deals")


def test_each_cell_counts_the_shortest_prefix_of_chunks_that_meets_the_target(made, table):
    size = chunk_size_for_target(2)
    assert size == 100 and json.loads((made / "manifest.json").read_text())[
        "identity"]["precision"] == 2
    counted = {}
    for (game, policy), cell in table.groupby(["game", "policy"], sort=False):
        won = cell.sort_values("deal")["won"].to_numpy()
        n = len(won)
        assert list(cell.deal) == list(range(n)) and n % size == 0  # a prefix of whole chunks
        widths = [half_width(int(won[:k].sum()), 0, k) for k in range(size, n + 1, size)]
        assert widths[-1] <= 0.02 and all(w > 0.02 for w in widths[:-1])
        counted[game, policy] = n
    assert counted["cicely", "dig"] >= 5 * size  # some cells needed several rounds
    assert min(counted.values()) == size


def test_the_summary_says_why_each_cell_stopped_and_chunks_beyond_stay_out(made, table):
    summary = pd.read_csv(made / "summary.csv")
    assert list(summary.stopped) == ["precision"] * 4
    assert summary.set_index(["game", "policy"]).n_deals.to_dict() == dict(
        table.groupby(["game", "policy"]).size())
    assert "| the target |" in (made / "summary.md").read_text()
    played = {p.name for p in (made / "uncounted").glob("*.parquet")} if (
        made / "uncounted").exists() else set()
    assert not played & {p.name for p in (made / "deals").glob("*.parquet")}


def test_one_worker_and_dask_count_the_same_deals(cli, tmp_path, table):
    one = cli(*RUN, "--workers", "1", "--out", tmp_path / "one")
    assert one.code == 0, one.stderr
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "one" / "deals"), table)
    pytest.importorskip("distributed")
    dask = cli(*RUN, "--workers", "2", "--backend", "dask", "--out", tmp_path / "dask")
    assert dask.code == 0, dask.stderr
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "dask" / "deals"), table)


def test_a_run_killed_mid_way_resumes_to_the_same_counted_deals(cli, tmp_path, table):
    out = tmp_path / "r"
    process = subprocess.Popen([sys.executable, "-m", "simstats", *RUN, "--workers", "2",
                                "--out", str(out)], stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while time.time() < deadline and len(list((out / "deals").glob("*.parquet"))) < 5:
        time.sleep(0.01)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert json.loads((out / "manifest.json").read_text())["status"] == "running"
    resumed = cli(*RUN, "--workers", "2", "--out", out)
    assert resumed.code == 0, resumed.stderr
    pd.testing.assert_frame_equal(pd.read_parquet(out / "deals"), table)


def test_another_target_or_none_is_another_run(cli, made, tmp_path):
    import shutil

    out = tmp_path / "r"
    shutil.copytree(made, out)
    for args in ([*RUN[:-3], "--precision", "1", "-q"], RUN[:-3] + ["-q"]):
        refused = cli(*args, "--chunk-size", "100", "--out", out)
        assert refused.code == 2 and refused.stderr.count("\n") == 1
        assert "precision" in refused.stderr


@pytest.mark.parametrize("value", ["0", "-1", "51", "half"])
def test_a_bad_target_is_refused_in_one_line(cli, tmp_path, value):
    done = cli(*RUN[:-3], "--precision", value, "--out", tmp_path / "r")
    assert done.code == 2 and done.stderr.count("\n") == 1 and "--precision" in done.stderr
    assert not (tmp_path / "r").exists()


def test_half_width_is_the_reports_interval_and_the_oracles_bracket():
    low, high = wilson_interval(37, 400)
    assert half_width(37, 0, 400) == pytest.approx((high - low) / 2)
    _, open_high = wilson_interval(37 + 5, 400)  # 5 deals the oracle left undecided
    assert half_width(37, 5, 400) == pytest.approx((open_high - low) / 2)


@pytest.mark.parametrize(("wins", "n", "target"), [(11, 100, 0.02), (50, 100, 0.005),
                                                   (0, 100, 0.01), (99, 100, 0.001)])
def test_deals_needed_is_the_fewest_that_meet_the_target_at_that_rate(wins, n, target):
    m = deals_needed(wins, 0, n, target)
    rate = wins / n
    assert half_width(round(rate * m), 0, m) <= target
    assert m == n or half_width(round(rate * (m - 1)), 0, m - 1) > target
    assert np.isfinite(m)
