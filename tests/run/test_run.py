"""`simstats run`: reproducible whatever the workers and chunking, resumable, refusing a
mismatching command, with worker lines in its log."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from processes import default_ctrl_c, run_into

from simstats.cli import DealCount
from simstats.report.summary import us_per_deal
from simstats.run.options import RunOptions, chunk_size_for, policy_parameters
from simstats.search import SEARCH_VERSION

GAMES = ("--game", "cicely", "--game", "tournament")
POLICIES = ("--policy", "foundation-only", "--policy", "random")


def run_table(cli, out, *extra) -> pd.DataFrame:
    result = cli("run", "--games", "3000", *GAMES, *POLICIES, "--seed", "5", "--out", out, "-q",
                 *extra)
    assert result.code == 0, result.stderr
    return pd.read_parquet(out / "deals")


def test_same_table_whatever_workers_and_chunk_size(cli, tmp_path):
    one = run_table(cli, tmp_path / "a", "--workers", "1", "--chunk-size", "3000")
    two = run_table(cli, tmp_path / "b", "--workers", "2", "--chunk-size", "700")
    assert len(one) == 2 * 2 * 3000
    pd.testing.assert_frame_equal(one, two)
    assert list(one.columns[:10]) == ["game", "policy", "deal", "reshuffles", "won",
                                      "foundation_cards", "moves", "deals", "redeals", "end"]
    assert one.groupby(["game", "policy"]).deal.apply(lambda d: list(d) == list(range(3000))).all()
    assert set(one.end) <= {"won", "no_moves", "resigned", "move_limit"}


@pytest.mark.parametrize("games, size", [(10**6, 50_000), (10**5, 12_500), (20_000, 2_500),
                                         (5_000, 1_000), (1_001, 1_000), (300, 300)])
def test_default_chunks_split_each_game_and_policy_eight_ways_within_bounds(games, size):
    assert chunk_size_for(games, None) == size
    assert chunk_size_for(games, None, 700) == 700


def test_without_chunk_size_a_run_gives_both_workers_work_and_resumes_with_its_own(cli, tmp_path):
    """One costly policy's deals are not one chunk on one core; and the same command resumes a
    run begun with another chunk size (as a run begun under an older default was)."""
    out = tmp_path / "r"
    result = cli("run", "--games", "2000", "--game", "cicely", "--policy", "random",
                 "--out", out, "-q", "--workers", "2")
    assert result.code == 0, result.stderr
    assert "1 game x 1 policy x 2,000 deals, seed 0, 2 workers" in result.stdout
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["identity"]["chunk_size"] == 1000
    assert sorted(c["deals"] for c in manifest["chunks"].values()) == [1000, 1000]
    begun = tmp_path / "begun"
    first = cli("run", "--games", "3000", "--game", "cicely", "--policy", "random",
                "--out", begun, "-q", "--chunk-size", "700")
    assert first.code == 0, first.stderr
    again = cli("run", "--games", "3000", "--game", "cicely", "--policy", "random",
                "--out", begun, "-q")
    assert again.code == 0, again.stderr
    assert "resuming" in again.stdout
    assert chunk_size_for(3000, begun) == 700
    other = cli("run", "--games", "3000", "--game", "cicely", "--policy", "random",
                "--out", begun, "-q", "--chunk-size", "1000")
    assert other.code != 0 and "another command" in other.stderr


def test_log_holds_worker_lines_naming_chunk_game_and_policy(cli, tmp_path):
    run_table(cli, tmp_path / "r", "--workers", "2", "--chunk-size", "1000")
    log = (tmp_path / "r" / "run.log").read_text().splitlines()
    worker_lines = [line for line in log if "ForkProcess" in line]
    assert worker_lines
    assert any("cicely/random" in line and "chunk" in line for line in worker_lines)
    assert any("MainProcess" in line for line in log)


def test_chunks_record_the_time_their_deals_took_and_the_report_uses_it(cli, tmp_path):
    """A chunk's play_seconds leave out the worker's start (loading the policy's code), which
    its seconds hold; time per deal comes from play_seconds, or from seconds in a manifest
    written before chunks had them."""
    run_table(cli, tmp_path / "r", "--workers", "1", "--chunk-size", "1000")
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    chunks = manifest["chunks"]
    assert len(chunks) == 2 * 2 * 3
    assert all(0 < c["play_seconds"] <= c["seconds"] for c in chunks.values())
    for i, chunk in enumerate(chunks.values()):  # known times, to check the arithmetic
        chunk["play_seconds"], chunk["seconds"] = 0.001 * (i + 1), 1.0
    timed = us_per_deal(manifest)
    assert len(timed) == 4
    first = ("cicely", "foundation-only")
    its = [c for name, c in chunks.items() if name.startswith("00-cicely--00-foundation_only--")]
    assert len(its) == 3
    assert timed[first] == pytest.approx(sum(c["play_seconds"] for c in its) / 3000 * 1e6)
    for chunk in chunks.values():
        del chunk["play_seconds"]
    assert us_per_deal(manifest)[first] == pytest.approx(3.0 / 3000 * 1e6)


def test_a_different_command_on_the_same_folder_is_refused(cli, tmp_path):
    out = tmp_path / "r"
    first = run_table(cli, out, "--workers", "1")
    before = {p.name: p.stat().st_mtime_ns for p in (out / "deals").iterdir()}
    result = cli("run", "--games", "3000", *GAMES, *POLICIES, "--seed", "6", "--out", out, "-q")
    assert result.code == 2 and "another command" in result.stderr
    assert result.stderr.count("\n") == 1
    assert {p.name: p.stat().st_mtime_ns for p in (out / "deals").iterdir()} == before
    pd.testing.assert_frame_equal(first, pd.read_parquet(out / "deals"))


def test_a_run_whose_policy_values_changed_is_refused_not_mixed(cli, tmp_path):
    """A policy's name does not fix what it plays: a run started before one of its defaults
    changed (here written into the manifest as if it had) is refused, in one line naming the
    value, and its results stay as they were."""
    out = tmp_path / "r"
    command = ("run", "--games", "300", "--game", "tournament", "--policy", "blind-digger",
               "--out", out, "-q")
    assert cli(*command).code == 0
    path = out / "manifest.json"
    manifest = json.loads(path.read_text())
    recorded = manifest["identity"]["parameters"]["blind-digger"]
    assert recorded == policy_parameters("blind-digger") and recorded["slide"] == 1
    recorded["slide"] = 0.0
    path.write_text(json.dumps(manifest))
    before = {p.name: p.stat().st_mtime_ns for p in (out / "deals").iterdir()}
    result = cli(*command)
    assert result.code == 2 and result.stderr.count("\n") == 1
    assert "other parameter values (blind-digger slide 0 then, 1 now)" in result.stderr
    assert {p.name: p.stat().st_mtime_ns for p in (out / "deals").iterdir()} == before
    del manifest["identity"]["parameters"]  # a run from before values were recorded
    path.write_text(json.dumps(manifest))
    assert cli(*command).code == 0


def test_a_run_made_with_another_search_is_refused_not_mixed(cli, tmp_path):
    """A new proof moves which deals `solver` wins without changing a parameter value: a run
    started with another version of the search is refused, in one line, and kept as it was;
    policies that never search record none."""
    out = tmp_path / "r"
    command = ("run", "--games", "4", "--game", "cicely", "--policy", "solver[budget=2e4]",
               "--policy", "foundation-only", "--out", out, "-q")
    assert cli(*command).code == 0
    path = out / "manifest.json"
    manifest = json.loads(path.read_text())
    assert manifest["identity"]["search_version"] == SEARCH_VERSION
    manifest["identity"]["search_version"] = SEARCH_VERSION - 1
    path.write_text(json.dumps(manifest))
    before = {p.name: p.stat().st_mtime_ns for p in (out / "deals").iterdir()}
    result = cli(*command)
    assert result.code == 2 and result.stderr.count("\n") == 1
    assert (f"another version of the search ({SEARCH_VERSION - 1} then, {SEARCH_VERSION} now)"
            in result.stderr)
    assert {p.name: p.stat().st_mtime_ns for p in (out / "deals").iterdir()} == before
    del manifest["identity"]["search_version"]  # a run from before the version was recorded
    path.write_text(json.dumps(manifest))
    assert cli(*command).code == 0
    assert RunOptions(1, ("cicely",), ("solver",)).identity()["search_version"] == SEARCH_VERSION
    assert RunOptions(1, ("cicely",), ("oracle",)).identity()["search_version"] == SEARCH_VERSION
    assert RunOptions(1, ("cicely",), ("lookahead", "dig")).identity()["search_version"] is None


def test_the_oracle_records_its_fair_players_values_too():
    """The oracle plays as `solver` until it searches: `solver`'s defaults fix its results too."""
    values = policy_parameters("oracle[budget=2e6]")
    assert values["budget"] == 2e6
    assert values["player.restarts"] == policy_parameters("solver")["restarts"]
    python_policy = Path(__file__).parents[2] / "examples" / "greedy_cells_python.py"
    assert policy_parameters(f"{python_policy}:GreedyCells") is None


def test_a_folder_that_is_not_a_run_is_refused(cli, tmp_path):
    (tmp_path / "precious.txt").write_text("keep me")
    result = cli("run", "--games", "10", "--out", tmp_path, "-q")
    assert result.code == 2 and "not a simstats run" in result.stderr
    assert (tmp_path / "precious.txt").read_text() == "keep me"


@pytest.mark.parametrize("text", ['[1, 2]', '{"identity": 5}', '{"chunks": 3}',
                                  '{"status": "complete"}'])
def test_a_manifest_simstats_did_not_write_is_refused_in_one_line_and_kept(cli, tmp_path, text):
    (tmp_path / "deals").mkdir()
    (tmp_path / "manifest.json").write_text(text)
    run = cli("run", "--games", "10", "--game", "cicely", "--policy", "random", "--out",
              tmp_path, "-q")
    assert run.code == 2 and run.stderr.count("\n") == 1, run.stderr
    assert "not a simstats run" in run.stderr or "without a run's identity" in run.stderr
    report = cli("report", tmp_path)  # refused, or a report of no deals: never a traceback
    assert report.code == 0 or (report.code == 2 and report.stderr.count("\n") == 1), report.stderr
    assert (tmp_path / "manifest.json").read_text() == text


def test_a_folder_that_cannot_be_created_is_refused_in_one_line(cli, tmp_path):
    (tmp_path / "file").write_text("a file, not a folder")
    for out in (tmp_path / "file" / "run", Path("/proc/simstats-cannot-write-here")):
        result = cli("run", "--games", "10", "--out", out, "-q")
        assert result.code == 2 and "cannot write the run folder" in result.stderr
        assert result.stderr.count("\n") == 1
    assert (tmp_path / "file").read_text() == "a file, not a folder"


# The run that the kill-and-resume tests interrupt: 20 chunks of a quick policy, so that a kill
# lands mid-run; and the table it gives uninterrupted, made once for all of them.
INTERRUPTED = ["run", "--games", "3000", "--game", "kingsdown-eights", "--policy", "random",
               "--seed", "2", "--workers", "2", "--chunk-size", "150", "-q"]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> pd.DataFrame:
    return pd.read_parquet(run_into(tmp_path_factory.mktemp("uninterrupted") / "r",
                                    *INTERRUPTED) / "deals")


def test_resume_after_kill_gives_the_identical_table(cli, tmp_path, uninterrupted):
    args = INTERRUPTED
    killed = tmp_path / "killed"
    process = subprocess.Popen([sys.executable, "-m", "simstats", *args, "--out", str(killed)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True)
    deals = killed / "deals"
    deadline = time.time() + 120
    while time.time() < deadline and len(list(deals.glob("*.parquet"))) < 3:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)  # the parent and its workers, at once
    process.wait()
    done_before = len(list(deals.glob("*.parquet")))
    assert 3 <= done_before < 20, "the kill should land mid-run"
    resumed = cli(*args, "--out", killed)
    assert resumed.code == 0, resumed.stderr
    pd.testing.assert_frame_equal(pd.read_parquet(deals), uninterrupted)
    assert not list(deals.glob(".*"))  # no temporary files left


@pytest.mark.parametrize("text, value", [("1e6", 10**6), ("250000", 250000),
                                         ("1_000_000", 10**6), ("2.5e5", 250000)])
def test_games_accepts_whole_numbers(text, value):
    assert DealCount().convert(text, None, None) == value


@pytest.mark.parametrize("text", ["0", "-5", "1.5", "1e-3", "abc", "", "nan", "inf"])
def test_games_rejects_anything_else_in_one_line(cli, tmp_path, text):
    result = cli("run", "--games", text, "--out", tmp_path / "r")
    assert result.code == 2
    assert result.stderr.count("\n") == 1 and "--games" in result.stderr
    assert not (tmp_path / "r").exists()


def test_ctrl_c_stops_cleanly_and_the_run_resumes_identically(cli, tmp_path, uninterrupted):
    args = INTERRUPTED
    out = tmp_path / "interrupted"
    process = subprocess.Popen([sys.executable, "-m", "simstats", *args, "--out", str(out)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, preexec_fn=default_ctrl_c)
    deadline = time.time() + 120
    while time.time() < deadline and len(list((out / "deals").glob("*.parquet"))) < 3:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C does: the whole group
    sent = time.time()
    _, stderr = process.communicate(timeout=60)
    assert time.time() - sent < 10
    assert process.returncode == 130
    assert "Traceback" not in stderr and "interrupted" in stderr
    assert json.loads((out / "manifest.json").read_text())["status"] == "interrupted"
    assert cli(*args, "--out", out).code == 0
    pd.testing.assert_frame_equal(pd.read_parquet(out / "deals"), uninterrupted)


def test_a_worker_killed_once_loses_nothing(tmp_path, uninterrupted):
    args = INTERRUPTED
    out = tmp_path / "r"
    process = subprocess.Popen([sys.executable, "-m", "simstats", *args, "--out", str(out)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while time.time() < deadline and len(list((out / "deals").glob("*.parquet"))) < 2:
        time.sleep(0.05)
    children = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True,
                              text=True).stdout.split()
    assert children
    os.kill(int(children[0]), signal.SIGKILL)
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 0, stderr
    assert "retrying" in (out / "run.log").read_text()
    pd.testing.assert_frame_equal(pd.read_parquet(out / "deals"), uninterrupted)


def test_a_chunk_that_kills_its_worker_twice_stops_the_run_naming_it(cli, tmp_path):
    plugin = tmp_path / "killer.py"
    plugin.write_text(
        "import os, signal\n"
        "class KillsOnDeal:\n"
        "    def reset(self, game, rng):\n"
        "        self.first = True\n"
        "    def choose(self, obs):\n"
        "        if self.first and obs.stock_size == 64 and obs.tableau[0] == ('2S',):\n"
        "            os.kill(os.getpid(), signal.SIGKILL)\n"
        "        self.first = False\n"
        "        return None\n"
    )
    from simstats.engine.deals import deal_deck
    from simstats.engine.games import get_game

    # find a deal of seed 0 whose kingsdown T0 card is 2S: that deal's chunk always dies
    deal = next(i for i in range(10_000)
                if deal_deck(get_game("kingsdown-eights").array, 0, i)[0][0] == 3 * 13 + 1)
    chunk_start = deal // 50 * 50
    out = tmp_path / "r"
    result = cli("run", "--games", str(chunk_start + 100), "--game", "kingsdown-eights",
                 "--policy", f"{plugin}:KillsOnDeal", "--chunk-size", "50", "--workers", "2",
                 "--out", out, "-q")
    assert result.code == 1
    assert "died twice" in result.stderr
    assert f"deals {chunk_start}-{chunk_start + 49}" in result.stderr
    assert result.stderr.count("\n") == 1
    finished = pd.read_parquet(out / "deals")
    assert len(finished) >= chunk_start  # the chunks before it stay on disk


def test_a_worker_killed_holding_the_log_queue_neither_hangs_the_run_nor_silences_it(tmp_path):
    # The worst moment to die: holding the lock of multiprocessing-logging's queue. Whoever
    # writes to that queue next waits for ever, and so does a process that wrote to it, at
    # exit (this once hung CI after every test had passed). The parent must still log, the
    # retry must log through a new queue, and the command must exit.
    plugin = tmp_path / "dies_holding_the_log.py"
    plugin.write_text(
        "import logging, os, signal\n"
        "class DiesHoldingTheLog:\n"
        "    def reset(self, game, rng):\n"
        "        pass\n"
        "    def choose(self, obs):\n"
        "        logging.getLogger('simstats').handlers[0].queue._wlock.acquire()\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    out = tmp_path / "r"
    process = subprocess.run(
        [sys.executable, "-m", "simstats", "run", "--games", "10", "--game", "cicely",
         "--policy", f"{plugin}:DiesHoldingTheLog", "--workers", "1", "--out", str(out), "-q"],
        capture_output=True, text=True, timeout=120)
    assert process.returncode == 1 and "died twice" in process.stderr
    log = (out / "run.log").read_text()
    assert "retrying it once" in log and "run failed" in log
    assert log.count(": started") == 2  # the first try and the retry, each on its own queue
