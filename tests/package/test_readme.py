"""README is a user's guide read in five minutes: the two commands first, at most 200 lines, no
dates, no line over 100 characters outside tables, and its answers exactly what results/answers
says (docs/make_answers.py writes them; so is results/README.md, the committed runs)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).parents[2]
README = (ROOT / "README.md").read_text()


def make_answers():
    spec = importlib.util.spec_from_file_location("make_answers", ROOT / "docs" / "make_answers.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_starts_with_the_two_commands_and_ci_runs_the_second():
    first_block = README.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line for line in first_block.splitlines() if not line.startswith("#")]
    assert len(commands) == 2
    assert commands[0].startswith("python -m pip install -e . && simstats run")
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()[-1]
    assert ci == commands[1]
    assert README.index("```sh") < README.index("\n## ")  # before any section


def test_readme_is_short_undated_and_narrow():
    lines = README.splitlines()
    assert len(lines) <= 200
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b|\b(?:January|February|March|April|May|June|July"
                         r"|August|September|October|November|December) 20\d\d\b", README)
    wide = [line for line in lines if len(line) > 100 and not line.startswith("|")]
    assert wide == []


def test_readmes_answers_are_those_of_results_answers():
    module = make_answers()
    block = module.answers_block()
    assert "| Tournament |" in block and "Seeing the buried cards is worth" in block
    assert module.readme_with_answers(README, block) == README


def test_results_readme_lists_every_committed_run_with_its_command():
    module = make_answers()
    index = (ROOT / "results" / "README.md").read_text()
    assert index == module.results_index()
    runs = [p.name for p in (ROOT / "results").iterdir() if (p / "manifest.json").is_file()]
    assert all(f"## {name}\n" in index for name in runs)
    assert "undescribed" not in index
