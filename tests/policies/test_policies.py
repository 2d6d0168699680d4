"""Naming policies: built-ins, parameters, 'module:Name', 'file.py:Name'; the example plugin."""

from __future__ import annotations

from pathlib import Path

import pytest
import reference_rules as ref

from simstats.policies import BUILTINS, PolicyError, resolve_policy

EXAMPLE = Path(__file__).parents[2] / "examples" / "greedy_cells.py"


def test_the_example_file_policy_plays_a_checkable_game(cli, tmp_path):
    trace = tmp_path / "t.jsonl"
    result = cli("play", "--game", "tournament", "--deal", "3", "--policy",
                 f"{EXAMPLE}:GreedyCells", "--trace", trace)
    assert result.code == 0, result.stderr
    moves = trace.read_text().splitlines()
    assert any(">R" in line for line in moves)  # it really used its own logic
    ref.check_trace(moves)


def test_a_module_policy_runs(cli, tmp_path, monkeypatch):
    (tmp_path / "my_policies.py").write_text(
        "class FirstMove:\n"
        "    '''Always the first legal move.'''\n"
        "    def choose(self, obs):\n"
        "        return obs.legal_moves[0] if obs.moves_made < 50 else None\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    out = tmp_path / "run"
    result = cli("run", "--games", "20", "--game", "cicely", "--policy", "my_policies:FirstMove",
                 "--workers", "1", "--out", out, "-q")
    assert result.code == 0, result.stderr
    import pandas as pd

    table = pd.read_parquet(out / "deals")
    assert set(table.policy) == {"my_policies:FirstMove"} and len(table) == 20


def test_builtin_policies_are_listed(cli):
    names = [line.split()[0] for line in cli("policies").stdout.splitlines()]
    assert names[: len(BUILTINS)] == list(BUILTINS)
    assert {"foundation-only", "random", "dig", "lookahead"} <= set(names)


def test_parameters_in_brackets():
    spec = resolve_policy("lookahead[depth=1,free=2]")
    assert spec.cls is BUILTINS["lookahead"].cls
    assert spec.values == {**BUILTINS["lookahead"].values, "depth": 1, "free": 2}
    assert (spec.name, spec.base, spec.source) == ("lookahead[depth=1,free=2]", "lookahead",
                                                   "built-in")
    assert type(spec.values["depth"]) is int and spec.compiled and not spec.oracle
    for bad in ("lookahead[speed=3]", "lookahead[depth=x]", "dig[depth=1]", "lookahead[depth=1",
                "lookahead[depth]"):
        with pytest.raises(PolicyError):
            resolve_policy(bad)


def test_an_installed_plugin_package_is_discovered_and_plays(tmp_path):
    """Installs examples/simstats-example-plugin into this environment, then uses it by name."""
    import subprocess
    import sys

    package = Path(__file__).parents[2] / "examples" / "simstats-example-plugin"
    pip = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", str(package)]
    installed = subprocess.run(pip, capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    try:
        listed = subprocess.run([sys.executable, "-m", "simstats", "policies"],
                                capture_output=True, text=True, check=True).stdout
        assert any(line.split()[0] == "lowest-first" and "[compiled plugin: "
                   "simstats_example_plugin:LowestFirst]" in line for line in listed.splitlines())
        trace = tmp_path / "t.jsonl"
        played = subprocess.run([sys.executable, "-m", "simstats", "play", "--game", "cicely",
                                 "--deal", "2", "--policy", "lowest-first[limit=40]", "--trace",
                                 str(trace)], capture_output=True, text=True)
        assert played.returncode == 0, played.stderr
        lines = trace.read_text().splitlines()
        ref.check_trace(lines)
        assert len(lines) - 2 <= 40  # header and result around the moves: its limit held
        out = tmp_path / "run"
        ran = subprocess.run([sys.executable, "-m", "simstats", "run", "--games", "30",
                              "--game", "tournament", "--policy", "lowest-first", "--workers",
                              "2", "--chunk-size", "10", "--out", str(out), "-q"],
                             capture_output=True, text=True)
        assert ran.returncode == 0, ran.stderr
    finally:
        subprocess.run([sys.executable, "-m", "pip", "uninstall", "-y", "-q",
                        "simstats-example-plugin"], capture_output=True)


def test_a_name_is_parsed_once_into_one_spec(monkeypatch):
    import simstats.policies as loader

    parsed = []
    split = loader._split_parameters
    monkeypatch.setattr(loader, "_split_parameters",
                        lambda name: parsed.append(name) or split(name))
    name = "rollout[base=blind-digger,samples=3]"
    first = resolve_policy(name)
    assert resolve_policy(name) is first and parsed == [name]
    assert first.values["base"] == 3 and first.values["samples"] == 3
    assert resolve_policy("oracle").oracle and not resolve_policy("solver").oracle


def test_a_name_the_registry_no_longer_holds_is_not_served_from_memory(monkeypatch):
    from simstats import registry

    monkeypatch.setitem(registry.BUILTIN_CLASSES, "digger", registry.BUILTIN_CLASSES["dig"])
    assert resolve_policy("digger[]").cls is BUILTINS["dig"].cls
    monkeypatch.delitem(registry.BUILTIN_CLASSES, "digger")
    with pytest.raises(PolicyError, match="unknown policy"):
        resolve_policy("digger[]")
