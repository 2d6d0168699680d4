"""Typed policy parameters: an int, a number, a flag or a choice among names, each with its
default, range and meaning; `simstats policies NAME` lists them, one line each; a value of the
wrong type or out of range is refused in one line (exit 2); values keep the record's numbers,
so runs made before resume."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simstats.policies import BUILTIN_CLASSES, PolicyError, resolve_policy
from simstats.policies.parameters import choice, declared, flag, integer, number
from simstats.run.options import policy_parameters

ROOT = Path(__file__).parents[2]


def listed(cli, name: str) -> dict[str, list[str]]:
    done = cli("policies", name)
    assert done.code == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()[2:] if line.startswith("  ")]
    return {row[0]: row[1:4] for row in rows}


def test_policies_name_lists_each_parameter_with_type_default_and_range(cli):
    solver = listed(cli, "solver")
    assert solver["restarts"] == ["int", "62", "at"]  # "at least 0"
    assert solver["memo"] == ["bool", "1", "0"]
    assert solver["free"] == ["float", "1.3", "any"]
    assert solver["depth"] == ["int", "2", "1"]
    assert listed(cli, "rollout")["base"] == ["choice", "dig",
                                              "foundation-only|random|dig|blind-digger"]
    assert listed(cli, "oracle")["budget"] == ["int", "64000000", "at"]
    assert cli("policies", "dig").stdout.endswith("no parameters\n")
    lines = cli("policies", "lookahead").stdout.splitlines()
    assert all(len(line.split()) >= 5 for line in lines[2:])  # every one has its meaning


@pytest.mark.parametrize(("given", "says"), [
    ("solver[restarts=2.5]", "restarts is an int, not '2.5'"),
    ("lookahead[depth=1.5]", "depth is an int, not '1.5'"),
    ("lookahead[depth=5]", "depth must be 1 to 4, not 5"),
    ("solver[memo=2]", "memo is a flag (0 or 1), not '2'"),
    ("rollout[base=digger]", "base is one of foundation-only, random, dig, blind-digger"),
    ("planner[samples=0]", "samples must be 1 to 4096, not 0"),
    ("oracle[budget=0]", "budget must be at least 1, not 0"),
    ("lookahead[free=many]", "free is a number, not 'many'"),
])
def test_a_value_of_the_wrong_type_or_out_of_range_is_refused_in_one_line(cli, tmp_path, given,
                                                                         says):
    for args in (("policies", given), ("run", "--games", "5", "--policy", given, "--out",
                                       tmp_path / "r")):
        done = cli(*args)
        assert done.code == 2 and done.stderr.count("\n") == 1, done.stderr
        assert says in done.stderr
    assert not (tmp_path / "r").exists()


def test_ints_take_64e6_flags_take_0_1_true_false_and_a_choice_its_name_or_number():
    assert resolve_policy("oracle[budget=64e6]").values["budget"] == 64_000_000
    assert isinstance(resolve_policy("solver[restarts=22]").values["restarts"], int)
    for text, value in (("0", 0), ("1", 1), ("true", 1), ("false", 0)):
        assert resolve_policy(f"solver[memo={text}]").values["memo"] == value
    by_name = resolve_policy("rollout[base=blind-digger]")
    by_number = resolve_policy("rollout[base=3]")  # as runs made before wrote it
    assert by_name.values == by_number.values and by_name.values["base"] == 3
    assert by_name.params()["base"][0] == 3


def test_the_record_holds_ints_for_ints_flags_and_choices_and_floats_for_numbers():
    record = resolve_policy("planner").params()
    assert record.dtype["restarts"].kind == "i" and record.dtype["memo"].kind == "i"
    assert record.dtype["free"].kind == "f" and record.dtype["budget"].kind == "i"
    assert record["budget"][0] == 4_000_000


def test_a_plugins_plain_numbers_are_typed_by_their_default():
    typed = declared({"limit": 5, "weight": 0.5, "on": True})
    assert [p.kind for p in typed.values()] == ["int", "float", "bool"]
    with pytest.raises(ValueError, match="limit is an int"):
        typed["limit"].parse("limit", "2.5")
    assert typed["limit"].parse("limit", "1e3") == 1000
    assert integer(3, 1, 4).parse("n", "4") == 4 and number(0.5).parse("w", "-2") == -2.0
    assert flag(False).default_value == 0 and choice("b", ("a", "b")).default_value == 1
    with pytest.raises(ValueError):
        choice("c", ("a", "b"))


def test_the_values_runs_recorded_before_are_todays_so_they_resume():
    """Every committed run made with today's defaults recorded the values that typed parameters
    give today (as floats): a run made before parameters were typed resumes."""
    manifest = json.loads((ROOT / "results" / "answers" / "manifest.json").read_text())
    recorded = manifest["identity"]["parameters"]
    assert set(recorded) >= {"lookahead", "solver", "planner", "rollout", "oracle"}
    for name, values in recorded.items():
        assert policy_parameters(name) == values, name
    assert policy_parameters("rollout[base=blind-digger]")["base"] == 3.0


def test_every_builtin_parameter_is_declared_with_its_meaning():
    for name in BUILTIN_CLASSES:
        for key, parameter in declared(resolve_policy(name).cls.parameters).items():
            assert parameter.doc, f"{name}: {key}"


def test_a_check_beyond_ranges_still_refuses(tmp_path):
    with pytest.raises(PolicyError):
        resolve_policy("rollout[samples=1001]")


def test_a_plugin_files_parameters_are_listed_typed_by_their_default(cli, tmp_path):
    path = tmp_path / "stop_after.py"
    path.write_text('''from simstats.policies import api


class StopAfter(api.CompiledPolicy):
    """Stops after `limit` moves."""

    parameters = {"limit": 5, "weight": 0.5, "greedy": api.flag(True, doc="plays home first")}

    @staticmethod
    def choose(view, params, memory, rng):
        return api.NO_MOVE if api.moves_made(view) >= params.limit else api.legal_move(view, 0)
''')
    listing = listed(cli, f"{path}:StopAfter")
    assert listing == {"limit": ["int", "5", "any"], "weight": ["float", "0.5", "any"],
                       "greedy": ["bool", "1", "0"]}
    done = cli("policies", f"{path}:StopAfter[limit=2.5]")
    assert done.code == 2 and "limit is an int, not '2.5'" in done.stderr
