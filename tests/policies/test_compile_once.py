"""Compiled code is built once per machine (`simstats compile`) and an edit recompiles only
what reads the edited module: each policy's loop and each module's cached code are keyed on
the modules their compiled code reads, and never loaded stale."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simstats.jit import PACKAGE_DIR, modules_read
from simstats.policies import resolve_policy
from simstats.policies.compiled import modules_read_by_loop


def names(files) -> set[str]:
    return {Path(f).relative_to(PACKAGE_DIR).as_posix() for f in files}


def loop_reads(policy: str) -> set[str]:
    return names(set().union(*(modules_read(f) for f in
                               modules_read_by_loop(resolve_policy(policy)))))


def test_what_compiled_code_reads_covers_the_modules_of_its_constants():
    read = names(modules_read(PACKAGE_DIR / "run" / "loops.py"))
    # state.py and rules.py hold no compiled function, only constants (MOVE_LIMIT, HIDDEN's
    # neighbours, the rules' field numbers) that numba freezes into the loops
    assert {"engine/state.py", "engine/rules.py", "engine/cards.py", "policies/api.py",
            "jit.py", "run/loops.py",
            *(f"search/{m}.py" for m in ("__init__", "memory", "fingerprint", "table",
                                         "safe_moves", "make", "order", "lookup", "dfs",
                                         "schedule"))} <= read
    assert not read & {"cli.py", "report/summary.py", "run/move_by_move.py", "run/compiled_play.py",
                     "run/runner.py", "policies/__init__.py"}


def test_an_edit_to_one_policy_recompiles_it_and_what_imports_it_only():
    assert {"policies/dig.py", "policies/tactics.py", "engine/moves.py"} <= loop_reads("dig")
    assert "policies/dig.py" not in loop_reads("foundation-only")
    assert "policies/lookahead.py" not in loop_reads("dig")
    assert {"policies/lookahead.py", "policies/solver.py", "policies/rollout.py",
            "policies/dig.py"} <= loop_reads("planner")  # planner plays them in its playouts
    assert {"policies/oracle.py", "policies/solver.py"} <= loop_reads("oracle")


def test_only_the_cached_code_of_modules_whose_fingerprint_changed_is_dropped(tmp_path,
                                                                           monkeypatch):
    from simstats import jit

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    jit._drop_stale_cache()  # stamps today's modules
    for module in ("policies/dig.py", "policies/lookahead.py", "engine/moves.py"):
        source = PACKAGE_DIR / module
        folder = jit.numba_cache_folder(source)
        folder.mkdir(parents=True, exist_ok=True)
        for end in ("nbi", "1.nbc"):
            (folder / f"{source.stem}.f-1.py311.{end}").write_text("")
    stamps = json.loads(jit._stamp_file().read_text())
    stamps["policies/dig.py"] = "dig as it was before an edit"
    jit._stamp_file().write_text(json.dumps(stamps))
    jit._drop_stale_cache()  # no file changed since the last check: nothing fingerprinted
    assert len(list(tmp_path.rglob("*.nb[ic]"))) == 6
    stamps[jit.SOURCES_KEY] = "the package's files before the edit"
    jit._stamp_file().write_text(json.dumps(stamps))
    jit._drop_stale_cache()
    assert sorted(p.name for p in tmp_path.rglob("*.nb[ic]")) == [
        "lookahead.f-1.py311.1.nbc", "lookahead.f-1.py311.nbi",
        "moves.f-1.py311.1.nbc", "moves.f-1.py311.nbi"]
    assert json.loads(jit._stamp_file().read_text())["policies/dig.py"] == jit.fingerprint(
        [PACKAGE_DIR / "policies/dig.py"])


def test_the_cache_is_checked_by_one_stat_a_file_until_a_file_changes(tmp_path, monkeypatch):
    """Every process checks the compiled cache on import: while no file of the package changed
    since the last check, no module is parsed or hashed; once one did, all are fingerprinted."""
    from simstats import jit

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    jit._drop_stale_cache()
    fingerprinted = []
    monkeypatch.setattr(jit, "fingerprint", lambda paths: fingerprinted.append(paths) or "x")
    jit._drop_stale_cache()
    assert fingerprinted == []
    monkeypatch.setattr(jit, "_sources_stamp", lambda: "after an edit")
    jit._drop_stale_cache()
    assert len(fingerprinted) == len(jit._modules_with_compiled_code()) > 10
    assert json.loads(jit._stamp_file().read_text())[jit.SOURCES_KEY] == "after an edit"


@pytest.mark.slow
def test_compile_says_what_it_compiles_and_then_loads_it(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
           "SIMSTATS_CACHE_DIR": str(tmp_path / "simstats")}
    command = [sys.executable, "-m", "simstats", "compile", "dig", "random"]
    first = subprocess.run(command, env=env, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    assert "2 policies on 2 processes: dig, random" in first.stdout
    assert "dig: compiled in" in first.stdout and "random: compiled in" in first.stdout
    again = subprocess.run([*command, "--workers", "1"], env=env, capture_output=True,
                           text=True)
    assert "dig: already in the cache, loaded" in again.stdout
    assert "random: already in the cache, loaded" in again.stdout
    check = ("from simstats.run.compiling import uncached; "
             "print(uncached(['dig', 'random', 'foundation-only']))")
    left = subprocess.run([sys.executable, "-c", check], env=env, capture_output=True, text=True)
    assert left.stdout.strip() == "['foundation-only']"


@pytest.mark.parametrize(("args", "says"), [
    (["no-such-policy"], "unknown policy 'no-such-policy'"),
    (["examples/greedy_cells_python.py:GreedyCells"], "plain Python: it has nothing to compile"),
])
def test_compile_refuses_what_it_cannot_compile_in_one_line(cli, args, says):
    os.chdir(Path(__file__).parents[2])
    done = cli("compile", *args)
    assert done.code == 2
    assert says in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_record_read_as_its_first_fields_shares_the_code_compiled_for_them():
    """planner passes its parameters to solver's and lookahead's code as solver's record, so
    that the search they call is compiled once for both (jit.record_as)."""
    import numba
    import numpy as np

    from simstats.jit import record_as
    from simstats.policies.api import params_dtype

    small = np.zeros(1, params_dtype({"a": 1.0, "b": 2.0}))
    big = np.zeros(1, params_dtype({"a": 1.0, "b": 2.0, "c": 3.0}))
    swapped = np.zeros(1, params_dtype({"b": 2.0, "a": 1.0, "c": 3.0}))
    for record in (small, big, swapped):
        record[0]["a"], record[0]["b"] = 1.5, 2.0
    as_small = record_as(numba.from_dtype(small.dtype))

    @numba.njit
    def total(params):
        return params.a + 10 * params.b

    @numba.njit
    def through(params):
        return total(as_small(params))

    assert total(small[0]) == through(big[0]) == 21.5
    assert len(total.signatures) == 1
    with pytest.raises(numba.core.errors.TypingError):
        through(swapped[0])  # the same names at other offsets: refused, never misread
