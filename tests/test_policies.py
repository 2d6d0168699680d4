"""Naming policies: built-ins, parameters, 'module:Name', 'file.py:Name'; the example plugin."""

from __future__ import annotations

from pathlib import Path

import pytest
import reference_rules as ref

from simstats.policies import BUILTINS, PolicyError, resolve_policy

EXAMPLE = Path(__file__).parents[1] / "examples" / "greedy_cells.py"


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
    assert spec.code == BUILTINS["lookahead"].code
    assert spec.params != BUILTINS["lookahead"].params
    for bad in ("lookahead[speed=3]", "lookahead[depth=x]", "dig[depth=1]", "lookahead[depth=1"):
        with pytest.raises(PolicyError):
            resolve_policy(bad)
