"""README is a user's guide read in five minutes: the two commands first, at most 200 lines, no
dates, no line over 100 characters outside tables, and its answers exactly what results/answers
says (docs/make_answers.py writes them; so is results/README.md, the committed runs)."""

from __future__ import annotations

import json
import os
import re
import shutil

from committed import ROOT, make_answers

README = (ROOT / "README.md").read_text()


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


def test_readmes_test_times_are_the_newest_measured():
    """The development section's figures are those of benchmarks/test_times.md's newest
    measurement (benchmarks/test_times.py writes it), not typed from memory."""
    times = (ROOT / "benchmarks" / "test_times.md").read_text()
    newest = times[times.index("\n## 20") + 1:]
    newest = newest[:newest.find("\n## 20")]
    whole = re.search(r"README's test command, from nothing \| `[^`]*` \| ([\d.]+) min \| "
                      r"(\d+) passed", newest)
    fast = re.search(r"the fast tier, cache warm \(first\) \| `[^`]*` \| (\d+) s \| (\d+) passed",
                     newest)
    section = " ".join(README[README.index("## Development"):].split())
    assert f"{whole[1]} minutes from a fresh clone" in section
    assert f"{fast[2]} of the {whole[2]} tests" in section and f"in {fast[1]} s" in section


def test_readmes_answers_are_those_of_results_answers():
    module = make_answers()
    block = module.answers_block()
    assert "| Tournament |" in block and "Seeing the buried cards is worth" in block
    assert module.readme_with_answers(README, block) == README


def test_results_readme_lists_every_committed_run_with_its_command():
    module = make_answers()
    index = (ROOT / "results" / "README.md").read_text()
    assert index == module.results_index()
    runs = [p.name for p in module.committed_runs()]
    assert "answers" in runs and all(f"## {name}\n" in index for name in runs)
    assert "undescribed" not in index


def test_a_run_folder_git_ignores_is_not_a_committed_run(monkeypatch):
    """README's first command writes results/run-<date>-<time>/, which git ignores: neither
    results/README.md nor the tests that walk the committed runs may count it, with git or
    without (an unpacked archive)."""
    module = make_answers()
    committed, index = module.committed_runs(), module.results_index()
    scratch = ROOT / "results" / f"run-20000101-000000-{os.getpid()}"
    shutil.copytree(ROOT / "results" / "answers", scratch,
                    ignore=shutil.ignore_patterns("deals", "plots", "*.html", ".lock"))
    try:
        assert json.loads((scratch / "manifest.json").read_text())["command"]
        assert module.committed_runs() == committed and module.results_index() == index

        def no_git(*args, **kwargs):
            raise FileNotFoundError("git")

        monkeypatch.setattr(module.subprocess, "run", no_git)
        assert module.committed_runs() == committed and module.results_index() == index
    finally:
        shutil.rmtree(scratch)
