"""A policy's own deal count, `--policy NAME@N`: it plays deals 0..N-1 of each game instead of
--games; the same table whatever the workers, chunks and backend, and after kill -9 and resume;
comparisons on the deals both played; bad counts refused in one line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest
from processes import run_into

from simstats.notebook import load_run, play_run
from simstats.run.options import RunOptions, policies_and_counts, split_policy_count

# dig plays --games (1,200), random its own 300 and foundation-only its own 2,000 (more)
COUNTS = {"dig": 1200, "random": 300, "foundation-only": 2000}
RUN = ["run", "--games", "1200", "--game", "cicely", "--game", "napoleons-flank",
       "--policy", "dig", "--policy", "random@300", "--policy", "foundation-only@2e3",
       "--seed", "3", "-q"]


def make_run(out, *extra) -> pd.DataFrame:
    return pd.read_parquet(run_into(out, *RUN, *extra) / "deals")


@pytest.fixture(scope="module")
def one_worker(tmp_path_factory):
    out = tmp_path_factory.mktemp("counts") / "one"
    return out, make_run(out, "--workers", "1")


@pytest.mark.parametrize("text, split", [
    ("planner@5e3", ("planner", 5000)),
    ("solver[restarts=22]@2e4", ("solver[restarts=22]", 20000)),
    ("dig@1_000", ("dig", 1000)),
    ("dig", ("dig", None)),
    ("examples/greedy_cells.py:GreedyCells", ("examples/greedy_cells.py:GreedyCells", None)),
    ("my@plugins/greedy.py:Greedy", ("my@plugins/greedy.py:Greedy", None)),
    ("my@plugins/greedy.py:Greedy@50", ("my@plugins/greedy.py:Greedy", 50)),
])
def test_a_count_is_the_suffix_after_the_parameters(text, split):
    assert split_policy_count(text) == split


def test_each_policy_plays_its_own_deals_and_the_table_says_how_many(one_worker):
    out, table = one_worker
    for (game, policy), deals in table.groupby(["game", "policy"]).deal:
        assert list(deals) == list(range(COUNTS[policy])), (game, policy)
    summary = pd.read_csv(out / "summary.csv")
    assert dict(zip(summary.policy, summary.n_deals, strict=True)) == COUNTS
    assert set(summary.policy) == set(COUNTS)  # the count is not part of the name
    report = (out / "report.html").read_text()
    assert "1,200 (random 300, foundation-only 2,000)" in report
    assert "status-complete" in report


def test_comparisons_use_the_deals_both_played(one_worker):
    out, table = one_worker
    comparisons = pd.read_csv(out / "comparisons.csv").set_index(["game_a", "policy_a",
                                                                  "policy_b"])
    for (a, b), deals in {("dig", "random"): 300, ("dig", "foundation-only"): 1200,
                          ("random", "foundation-only"): 300}.items():
        row = comparisons.loc[("cicely", a, b)]
        assert row.deals == deals
        won = table[(table.game == "cicely") & (table.deal < deals)].groupby("policy").won.sum()
        assert row.win_rate_a == pytest.approx(won[a] / deals)
        assert row.win_rate_b == pytest.approx(won[b] / deals)


def test_the_same_table_on_two_workers_with_other_chunks_and_after_kill_and_resume(
        one_worker, tmp_path):
    args = [*RUN, "--workers", "2", "--chunk-size", "100"]
    out = tmp_path / "killed"
    process = subprocess.Popen([sys.executable, "-m", "simstats", *args, "--out", str(out)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True)
    deadline = time.time() + 120
    while time.time() < deadline and len(list((out / "deals").glob("*.parquet"))) < 5:
        time.sleep(0.02)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    done_before = len(list((out / "deals").glob("*.parquet")))
    assert 5 <= done_before < 2 * (12 + 3 + 20), "the kill should land mid-run"
    resumed = make_run(out, "--workers", "2", "--chunk-size", "100")
    pd.testing.assert_frame_equal(resumed, one_worker[1])


def test_the_same_table_on_dask(one_worker, tmp_path):
    pytest.importorskip("distributed")
    table = make_run(tmp_path / "dask", "--workers", "2", "--backend", "dask",
                     "--chunk-size", "250")
    pd.testing.assert_frame_equal(table, one_worker[1])


def test_a_resumed_run_must_give_the_same_counts(one_worker, cli, tmp_path):
    out = tmp_path / "r"
    assert cli("run", "--games", "200", "--game", "cicely", "--policy", "dig@100",
               "--out", out, "-q").code == 0
    other = cli("run", "--games", "200", "--game", "cicely", "--policy", "dig@150",
                "--out", out, "-q")
    assert other.code == 2 and "another command" in other.stderr
    assert other.stderr.count("\n") == 1
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["identity"]["policy_deals"] == {"dig": 100}


def test_a_run_without_counts_has_the_identity_it_had_before():
    options = RunOptions(games=10, game_ids=("cicely",), policies=("dig",))
    assert "policy_deals" not in options.identity()


@pytest.mark.parametrize("policy, says", [
    ("dig@1.5", "is not a whole number of deals"),
    ("dig@0", "must be at least 1"),
    ("dig@many", "is not a number of deals"),
    ("dig@", "is not a number of deals"),
])
def test_bad_counts_are_refused_in_one_line(cli, tmp_path, policy, says):
    result = cli("run", "--games", "10", "--policy", policy, "--out", tmp_path / "r")
    assert result.code == 2
    assert says in result.stderr and policy in result.stderr
    assert result.stderr.count("\n") == 1
    assert not (tmp_path / "r").exists()


def test_a_policy_twice_with_two_counts_is_refused_once_with_one_is_kept(cli, tmp_path):
    result = cli("run", "--games", "10", "--policy", "dig@5", "--policy", "dig",
                 "--out", tmp_path / "r")
    assert result.code == 2 and "given twice with different deal counts" in result.stderr
    assert not (tmp_path / "r").exists()
    assert policies_and_counts(["dig@5", "random", "dig@5"]) == (("dig", "random"),
                                                                 {"dig": 5})


def test_the_notebook_plays_and_loads_own_counts(tmp_path):
    run = play_run(300, game=["cicely"], policy=["dig", "random@50"], out=tmp_path / "nb",
                   workers=1)
    assert run.deals_by_policy == {"dig": 300, "random": 50}
    assert run.deals.groupby("policy").deal.max().to_dict() == {"dig": 299, "random": 49}
    assert load_run(tmp_path / "nb").deals_by_policy == run.deals_by_policy
