"""One writer per run folder: a second run on a running folder is refused in one line naming the
process; workers end with their parent, so that after a kill -9 of the parent alone nothing
writes and the same command resumes at once; a report of a running folder disturbs nothing."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest
from processes import run_into

psutil = pytest.importorskip("psutil")

RUN = ["run", "--games", "4000", "--game", "kingsdown-eights", "--policy", "random",
       "--seed", "6", "--workers", "2", "--chunk-size", "200", "-q"]


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """The run never interrupted: its folder (copy it to change it)."""
    return run_into(tmp_path_factory.mktemp("uninterrupted") / "r", *RUN)


@pytest.fixture(scope="module")
def uninterrupted(finished) -> pd.DataFrame:
    return pd.read_parquet(finished / "deals")


def start(out) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "simstats", *RUN, "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def wait_for_chunks(out, count: int) -> None:
    deadline = time.time() + 120
    while time.time() < deadline and len(list((out / "deals").glob("*.parquet"))) < count:
        time.sleep(0.02)


def test_a_second_run_on_a_running_folder_is_refused_naming_the_process(cli, tmp_path,
                                                                        uninterrupted):
    out = tmp_path / "r"
    first = start(out)
    wait_for_chunks(out, 2)
    second = cli(*RUN, "--out", out)
    report = cli("report", out)  # a report of the chunks so far, beside the run
    _, stderr = first.communicate(timeout=300)
    assert first.returncode == 0, stderr
    assert second.code == 2 and second.stderr.count("\n") == 1
    assert f"being written by another simstats run (pid {first.pid}," in second.stderr
    assert report.code == 0, report.stderr
    starts = (out / "run.log").read_text().count(": started")
    assert starts == 20  # each chunk played once: the second run played none
    pd.testing.assert_frame_equal(pd.read_parquet(out / "deals"), uninterrupted)
    assert cli(*RUN, "--out", out).code == 0  # the lock ended with the run


def test_workers_end_with_their_parent_and_the_same_command_resumes_at_once(cli, tmp_path,
                                                                         uninterrupted):
    out = tmp_path / "r"
    parent = start(out)
    wait_for_chunks(out, 3)
    workers = psutil.Process(parent.pid).children()
    assert workers
    os.kill(parent.pid, signal.SIGKILL)  # the parent alone, as an out-of-memory killer does
    parent.wait()
    gone, alive = psutil.wait_procs(workers, timeout=5)
    assert alive == []
    files = sorted(p.name for p in (out / "deals").iterdir())
    time.sleep(1)
    assert sorted(p.name for p in (out / "deals").iterdir()) == files  # nothing writes
    assert len([f for f in files if f.endswith(".parquet")]) < 20, "the kill should land mid-run"
    resumed = cli(*RUN, "--out", out)
    assert resumed.code == 0, resumed.stderr
    pd.testing.assert_frame_equal(pd.read_parquet(out / "deals"), uninterrupted)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_full_disk_ends_in_one_line_and_the_same_command_resumes(cli, tmp_path, monkeypatch,
                                                                   uninterrupted, workers):
    """A chunk writer that meets a full disk (injected: the fourth chunk's write raises
    ENOSPC, in the worker that plays it): one line naming the file and what to do, exit 1, the
    finished chunks kept and no half file left; the same command then resumes to the table of a
    run never interrupted."""
    import errno

    from simstats.run import records, runner

    write = records.write_chunk

    def full_disk(run_dir, chunk, table):
        if chunk.start == 600:
            path = run_dir / "deals" / chunk.name
            path.with_name(f".{chunk.name}.{os.getpid()}.partial").write_bytes(b"half")
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return write(run_dir, chunk, table)

    monkeypatch.setattr(records, "write_chunk", full_disk)
    monkeypatch.setattr(runner, "write_chunk", full_disk)
    args = [a if a != "2" else workers for a in RUN]  # --workers
    out = tmp_path / "r"
    failed = cli(*args, "--out", out)
    assert failed.code == 1 and failed.stderr.count("\n") == 1, failed.stderr
    assert "No space left on device" in failed.stderr and "000000000600" in failed.stderr
    assert "run the same command to resume" in failed.stderr
    assert "Traceback" not in failed.stderr
    kept = list((out / "deals").glob("*.parquet"))
    # chunk 600 starts once as many chunks as workers have finished: they are kept
    assert 4 - int(workers) <= len(kept) < 20
    monkeypatch.setattr(records, "write_chunk", write)
    monkeypatch.setattr(runner, "write_chunk", write)
    resumed = cli(*args, "--out", out)
    assert resumed.code == 0, resumed.stderr
    pd.testing.assert_frame_equal(pd.read_parquet(out / "deals"), uninterrupted)
    assert not [p for p in (out / "deals").iterdir() if p.name.startswith(".")]


def chunk_files(out) -> list:
    return sorted((out / "deals").glob("*.parquet"))


def test_a_truncated_chunk_is_refused_by_the_report_then_moved_aside_and_replayed(
        cli, tmp_path, finished, uninterrupted):
    out = tmp_path / "r"
    shutil.copytree(finished, out)
    damaged = chunk_files(out)[7]
    damaged.write_bytes(damaged.read_bytes()[:100])  # as a crash or a bad copy leaves it
    report = cli("report", out)
    assert report.code == 1 and report.stderr.count("\n") == 1
    assert damaged.name in report.stderr and "simstats run" in report.stderr
    assert "Traceback" not in report.stderr
    resumed = cli(*RUN, "--out", out)
    assert resumed.code == 0, resumed.stderr
    assert f"chunk {damaged.name}" in resumed.stdout and "damaged" in resumed.stdout
    assert "damaged" in (out / "run.log").read_text()
    assert (out / "damaged" / damaged.name).stat().st_size == 100  # kept, not deleted
    pd.testing.assert_frame_equal(pd.read_parquet(out / "deals"), uninterrupted)
    assert cli("report", out).code == 0


def test_a_chunk_that_reads_but_is_not_the_one_written_is_replayed(cli, tmp_path, finished,
                                                                   uninterrupted):
    out = tmp_path / "r"
    shutil.copytree(finished, out)
    files = chunk_files(out)
    shutil.copyfile(files[3], files[4])  # a whole Parquet file, of other deals
    assert cli("report", out).code == 1
    assert cli(*RUN, "--out", out).code == 0
    assert [p.name for p in (out / "damaged").iterdir()] == [files[4].name]
    pd.testing.assert_frame_equal(pd.read_parquet(out / "deals"), uninterrupted)


def test_a_chunk_without_a_recorded_digest_is_read_whole_and_adopted(cli, tmp_path, finished):
    """A run stopped between a chunk's write and the manifest's: the file is whole, so it is
    kept and its digest recorded, not played again."""
    out = tmp_path / "r"
    shutil.copytree(finished, out)
    manifest = json.loads((out / "manifest.json").read_text())
    name = chunk_files(out)[5].name
    del manifest["chunks"][name]
    (out / "manifest.json").write_text(json.dumps(manifest))
    resumed = cli(*RUN, "--out", out)
    assert resumed.code == 0 and "damaged" not in resumed.stdout
    assert ": started" not in (out / "run.log").read_text().split("run started")[-1]
    kept = json.loads((out / "manifest.json").read_text())["chunks"][name]
    assert len(kept["sha256"]) == 64


KILLS, KILL_SEED = 8, 7


@pytest.mark.slow
def test_a_run_killed_8_times_at_random_moments_seed_7_resumes_to_the_same_table(
        cli, tmp_path, uninterrupted):
    """SIGKILL of the whole run (parent and workers) at moments drawn over its life, its start,
    chunk writes, manifest writes and the report at its end included; resumed each time by the
    same command. Its table is the uninterrupted run's, with no chunk twice or missing."""
    import random

    draw = random.Random(KILL_SEED)
    out = tmp_path / "r"
    for _ in range(KILLS):
        process = subprocess.Popen([sys.executable, "-m", "simstats", *RUN, "--out", str(out)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   start_new_session=True)
        try:
            process.wait(timeout=draw.uniform(1.0, 6.0))
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    resumed = cli(*RUN, "--out", out)
    assert resumed.code == 0, resumed.stderr
    pd.testing.assert_frame_equal(pd.read_parquet(out / "deals"), uninterrupted)
    assert cli("report", out).code == 0
    assert not [p for p in (out / "deals").iterdir() if p.name.startswith(".")]
