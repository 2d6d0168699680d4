"""`simstats verify RUN`: a seeded sample of a run's chunks played again with today's code and
compared with every outcome the run recorded, who won each deal (a committed run's wins.npz) or
each chunk's count of wins (an older committed run); a difference names the deals and what can
cause it. The committed results are verified here, so that stale ones fail CI."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from committed import make_answers
from processes import run_into

from simstats.run.records import chunk_digest, read_wins
from simstats.run.verify import Check, sample_checks

ROOT = Path(__file__).parents[2]
RUN = ["run", "--games", "1200", "--game", "cicely", "--game", "tournament",
       "--policy", "dig", "--policy", "random", "--seed", "3", "--chunk-size", "300",
       "--workers", "2", "-q"]


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    """A finished run with its per-deal table and its report (copy it to change it)."""
    return run_into(tmp_path_factory.mktemp("verify") / "r", *RUN)


@pytest.fixture
def run(made, tmp_path) -> Path:
    copy = tmp_path / "r"
    shutil.copytree(made, copy)
    return copy


def chunk_file(run: Path, game: str, policy: str, start: int) -> Path:
    (path,) = (run / "deals").glob(f"*-{game}--*-{policy}--{start:012d}.parquet")
    return path


def rewrite_chunk(run: Path, path: Path, deal: int, column: str, value) -> None:
    """Change one outcome in a chunk file and record the new file's digest, as if the run had
    written it so: a chunk the run recorded, not a damaged one."""
    frame = pq.read_table(path).to_pandas()
    frame.loc[frame["deal"] == deal, column] = value
    frame.to_parquet(path, index=False)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["chunks"][path.name]["sha256"] = chunk_digest(path)
    (run / "manifest.json").write_text(json.dumps(manifest))


def test_a_run_as_made_is_identical_chunk_by_chunk(cli, run):
    done = cli("verify", run, "--sample", "1", "-q")
    assert done.code == 0, done.stderr
    assert done.stdout == (f"{run}: 16 of 16 chunks, 4,800 deals (every outcome compared): "
                           "identical\n")


def test_a_sample_takes_a_share_of_each_game_and_policy_and_is_the_same_every_time(cli, run):
    done = cli("verify", run, "--sample", "0.25", "--deals", "7", "-q")
    assert done.code == 0, done.stderr
    assert "4 of 16 chunks, 28 deals (every outcome compared): identical" in done.stdout
    chunks = [Check(c, None).chunk for c in _chunks(run)]
    first, again = (sample_checks(chunks, 0.25, 7, seed=0) for _ in range(2))
    assert first == again and len(first) == 4
    assert {(c.chunk.game, c.chunk.policy) for c in first} == {
        (g, p) for g in ("cicely", "tournament") for p in ("dig", "random")}
    assert all(len(c.deals) == 7 and c.chunk.start <= min(c.deals) and
               max(c.deals) < c.chunk.start + c.chunk.count for c in first)
    assert sample_checks(chunks, 0.25, 7, seed=1) != first


def _chunks(run: Path):
    from simstats.run.options import plan_chunks
    from simstats.run.verify import options_of

    return plan_chunks(options_of(json.loads((run / "manifest.json").read_text())))


def test_a_changed_outcome_names_the_deal_and_what_can_cause_it(cli, run):
    path = chunk_file(run, "tournament", "dig", 600)
    moves = int(pq.read_table(path).to_pandas().set_index("deal").loc[700, "moves"])
    rewrite_chunk(run, path, 700, "moves", moves + 1)
    done = cli("verify", run, "--sample", "1", "-q")
    assert done.code == 1
    lines = done.stdout.splitlines()
    assert lines[0].endswith("16 of 16 chunks, 4,800 deals (every outcome compared): "
                             "1 deals differ")
    assert lines[1].startswith("  tournament/dig deal 700: recorded reshuffles ")
    assert f"moves {moves + 1}," in lines[1] and "today reshuffles " in lines[1]
    assert f"moves {moves}," in lines[1].split("today")[1]
    assert "a policy's code changed since the run was made" in lines[2]


def test_a_difference_says_which_recorded_version_or_parameter_changed(cli, run):
    rewrite_chunk(run, chunk_file(run, "cicely", "random", 0), 5, "won", True)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["identity"]["rules_version"] = 0
    manifest["identity"]["parameters"]["dig"] = {"x": 1.0}
    (run / "manifest.json").write_text(json.dumps(manifest))
    done = cli("verify", run, "--sample", "1", "-q")
    assert done.code == 1
    assert "cicely/random deal 5: recorded reshuffles" in done.stdout
    assert "the rules version was 0, it is " in done.stdout
    assert "dig's parameters changed (" in done.stdout


def test_a_committed_run_keeping_who_won_compares_that(cli, run):
    shutil.rmtree(run / "deals")  # as committed: wins.npz and the manifest
    assert cli("verify", run, "--sample", "1", "--deals", "50", "-q").stdout.endswith(
        "16 of 16 chunks, 800 deals (who won compared): identical\n")
    wins = read_wins(run)
    won = wins["cicely", "dig"]
    deal = int(np.flatnonzero(won == 1)[0])
    won[deal] = 0
    arrays = {}
    for i, cell in enumerate(wins.values()):  # as records.write_wins keeps them
        arrays |= {f"played_{i}": np.packbits(cell >= 0), f"won_{i}": np.packbits(cell == 1),
                   f"length_{i}": np.array(len(cell))}
    arrays["cells"] = np.array(["\t".join(key) for key in wins])
    np.savez_compressed(run / "wins.npz", **arrays)
    done = cli("verify", run, "--sample", "1", "-q")
    assert done.code == 1
    assert f"  cicely/dig deal {deal}: recorded lost, today won" in done.stdout


def test_an_older_committed_run_compares_each_chunks_wins(cli, run):
    shutil.rmtree(run / "deals")
    (run / "wins.npz").unlink()
    done = cli("verify", run, "--sample", "0.5", "--deals", "3", "-q")
    assert done.stdout.endswith("8 of 16 chunks, 2,400 deals (wins per chunk compared): "
                                "identical\n")  # --deals cannot apply: whole chunks
    manifest = json.loads((run / "manifest.json").read_text())
    name = sorted(manifest["chunks"])[0]
    manifest["chunks"][name]["wins"] += 2
    (run / "manifest.json").write_text(json.dumps(manifest))
    done = cli("verify", run, "--sample", "1", "-q")
    assert done.code == 1 and ": 1 chunks differ" in done.stdout
    assert "wins recorded" in done.stdout


def test_bad_folders_are_refused_in_one_line(cli, run, tmp_path):
    for folder, message in ((tmp_path / "nothing", "is not a simstats run"),
                            (tmp_path, "is not a simstats run")):
        done = cli("verify", folder)
        assert done.code == 2 and done.stderr.count("\n") == 1 and message in done.stderr
    chunk_file(run, "cicely", "dig", 300).write_bytes(b"PAR1 not a chunk")
    done = cli("verify", run, "--sample", "1", "-q")
    assert done.code == 2 and done.stderr.count("\n") == 1 and "is damaged" in done.stderr
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["identity"]["policy"][0] = "no-such-policy"
    (run / "manifest.json").write_text(json.dumps(manifest))
    done = cli("verify", run, "-q")
    assert done.code == 2 and done.stderr.count("\n") == 1
    assert "cannot replay the run" in done.stderr


@pytest.mark.parametrize("committed", [p.name for p in make_answers().committed_runs()
                                       if (p / "wins.npz").is_file()])
def test_the_committed_results_are_what_todays_code_makes(cli, committed):
    """Every committed run that keeps who won each deal, a few deals of one chunk of each of
    its games and policies played again: a change that moves a policy's outcomes fails here
    until the committed results are made again."""
    done = cli("verify", ROOT / "results" / committed, "--sample", "0.01", "--deals", "2",
               "--workers", "1", "-q")
    assert done.code == 0, done.stdout + done.stderr
    # who won each deal, from wins.npz (a clone); every outcome where deals/ is there (made here)
    assert re.search(r"\((who won|every outcome) compared\): identical", done.stdout)
