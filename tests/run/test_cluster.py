"""`simstats run --backend dask`: the same table as the local backend, worker lines in run.log,
nothing lost when a worker is killed, a quick clean stop on Ctrl-C, one-line errors."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest
from processes import default_ctrl_c, run_into

pytest.importorskip("distributed")
psutil = pytest.importorskip("psutil")

GAMES = ("--game", "cicely", "--game", "tournament")
# a built-in and a compiled plugin from a file: Dask workers load both
PLUGIN = "examples/greedy_cells.py:GreedyCells"
POLICIES = ("--policy", "foundation-only", "--policy", PLUGIN)
SMALL = ("run", "--games", "3000", *GAMES, *POLICIES, "--seed", "5", "--chunk-size", "1000",
         "--workers", "2", "-q")
WORKER_LINE = re.compile(r"Dask Worker[^\[]*\[(\d+)\] INFO chunk (\S+) \((\S+) deals [^)]*\): "
                         r"(started|done)")


@pytest.fixture(scope="module")
def dask_run(tmp_path_factory):
    return run_into(tmp_path_factory.mktemp("dask") / "r", *SMALL, "--backend", "dask")


def test_dask_gives_the_same_table_as_local(cli, tmp_path, dask_run):
    local = cli(*SMALL, "--backend", "local", "--out", tmp_path / "local")
    assert local.code == 0, local.stderr
    expected = pd.read_parquet(tmp_path / "local" / "deals")
    assert len(expected) == 2 * 2 * 3000
    pd.testing.assert_frame_equal(pd.read_parquet(dask_run / "deals"), expected)


def test_log_holds_worker_lines_naming_chunk_game_and_policy(dask_run):
    lines = [WORKER_LINE.search(line) for line in (dask_run / "run.log").read_text().splitlines()]
    done = {m[2]: m[3] for m in lines if m and m[4] == "done"}
    assert len(done) == 12  # every chunk, forwarded before the run ended
    assert done["00-cicely--01-examples_greedy_cells_py_GreedyCells--000000001000.parquet"] == (
        f"cicely/{PLUGIN}")
    assert len({m[1] for m in lines if m}) == 2  # from both workers


# The run that the tests below interrupt (20 chunks), and the table it gives uninterrupted on
# the local backend, made once for them.
INTERRUPTED = ["run", "--games", "4000", "--game", "kingsdown-eights", "--policy", "random",
               "--seed", "4", "--workers", "2", "--chunk-size", "200", "-q"]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> pd.DataFrame:
    return pd.read_parquet(run_into(tmp_path_factory.mktemp("uninterrupted") / "r",
                                    *INTERRUPTED) / "deals")


def test_a_worker_killed_mid_run_loses_and_doubles_nothing(tmp_path, uninterrupted):
    args = INTERRUPTED
    out = tmp_path / "dask"
    process = subprocess.Popen([sys.executable, "-m", "simstats", *args, "--backend", "dask",
                                "--out", str(out)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    victim = None
    deadline = time.time() + 120
    while victim is None and time.time() < deadline and process.poll() is None:
        time.sleep(0.05)
        if len(list((out / "deals").glob("*.parquet"))) >= 3:
            victim = _stop_busy_worker(process.pid, out)
    assert victim, "no worker was found playing a chunk"
    pid, chunk = victim
    psutil.Process(pid).kill()
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 0, stderr
    assert "Traceback" not in stderr
    log = (out / "run.log").read_text()
    redone = [m for m in map(WORKER_LINE.search, log.splitlines())
              if m and m[2] == chunk and m[4] == "done"]
    assert redone and all(int(m[1]) != pid for m in redone)
    assert any("lost Dask worker" in line and chunk in line for line in log.splitlines())
    assert not list((out / "deals").glob(".*"))  # no marker or partial file left behind
    pd.testing.assert_frame_equal(pd.read_parquet(out / "deals"), uninterrupted)


def _stop_busy_worker(parent: int, out) -> tuple[int, str] | None:
    """Suspend a Dask worker of the run that is playing a chunk; return its pid and chunk."""
    workers = {p.pid: p for p in psutil.Process(parent).children(recursive=True)
               if "spawn_main" in " ".join(p.cmdline())}
    last = {}
    for m in map(WORKER_LINE.search, (out / "run.log").read_text().splitlines()):
        if m and int(m[1]) in workers:
            last[int(m[1])] = (m[2], m[4])
    for pid, (chunk, what) in last.items():
        if what == "started":
            workers[pid].suspend()
            if not (out / "deals" / chunk).exists():  # not finished before it was suspended
                return pid, chunk
            workers[pid].resume()
    return None


def test_a_dask_run_holds_its_folder_and_ctrl_c_stops_it_quickly_to_resume_identically(
        cli, tmp_path, uninterrupted):
    out = tmp_path / "r"
    args = INTERRUPTED
    process = subprocess.Popen([sys.executable, "-m", "simstats", *args, "--backend", "dask",
                                "--out", str(out)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, preexec_fn=default_ctrl_c)
    deadline = time.time() + 120
    while time.time() < deadline and len(list((out / "deals").glob("*.parquet"))) < 2:
        time.sleep(0.05)
    second = cli(*args, "--out", out)  # the lock is the client's, whatever the backend
    assert second.code == 2 and second.stderr.count("\n") == 1
    assert f"being written by another simstats run (pid {process.pid}," in second.stderr
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C does: the whole group
    sent = time.time()
    _, stderr = process.communicate(timeout=60)
    assert time.time() - sent < 10
    assert process.returncode == 130
    assert "Traceback" not in stderr and "interrupted" in stderr
    assert json.loads((out / "manifest.json").read_text())["status"] == "interrupted"
    assert cli(*args, "--backend", "dask", "--out", out).code == 0
    pd.testing.assert_frame_equal(pd.read_parquet(out / "deals"), uninterrupted)


def test_an_unreachable_scheduler_fails_in_one_line(cli, tmp_path, monkeypatch):
    from simstats.run import cluster

    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 2)  # what is tested is the message
    started = time.time()
    result = cli("run", "--games", "100", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9",
                 "--out", tmp_path / "r", "-q")
    assert time.time() - started < 20
    assert result.code in (1, 2)
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "tcp://127.0.0.1:9" in result.stderr


def test_a_misbehaving_policy_stops_the_run_with_its_message(cli, tmp_path):
    plugin = tmp_path / "cheat.py"
    plugin.write_text("class Cheat:\n    def choose(self, obs):\n        return 'nonsense'\n")
    result = cli("run", "--games", "40", "--game", "cicely", "--policy", f"{plugin}:Cheat",
                 "--chunk-size", "10", "--workers", "2", "--backend", "dask",
                 "--out", tmp_path / "r", "-q")
    assert result.code == 1
    assert "not a legal move" in result.stderr and result.stderr.count("\n") == 1
