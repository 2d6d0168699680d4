"""Shared test helpers (running the command line in-process), and the run's set-up: every
built-in compiled once for this machine before any test, the slowest tests started first."""

from __future__ import annotations

import faulthandler
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from simstats.cli import main

# The helper modules in tests/ that assert (test files import them as top-level modules, with
# tests/ on the path: pyproject.toml's pythonpath): their failures explained as in a test file.
pytest.register_assert_rewrite("conservation", "hidden_cards", "search_helpers")


@dataclass
class CliResult:
    code: int
    stdout: str
    stderr: str


@pytest.fixture
def cli(capsys, monkeypatch):
    """Run `simstats ARGS...` in-process; return exit code and captured output."""

    def run(*args: str, stdin: str | None = None) -> CliResult:
        if stdin is not None:
            import io
            import sys

            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
        capsys.readouterr()
        try:
            main([str(a) for a in args])
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        out = capsys.readouterr()
        return CliResult(code, out.out, out.err)

    return run


def pytest_unconfigure(config):
    # A test process that hangs at exit (a lock held by a killed child, a thread nobody
    # joins) would stall CI without a word: after two minutes, print every stack and fail.
    # Only the controlling process: a pytest-xdist worker unconfigures when it runs out of
    # tests and then rightly waits for the others, which can take longer than that.
    if hasattr(config, "workerinput"):
        return
    faulthandler.dump_traceback_later(120, exit=True)


# Each test's seconds (setup, call and teardown) on a fresh machine, as recorded by
# `--record-durations`: every test is there, so that every test lands in its tier measured. The
# slowest files start first, so that pytest-xdist's workers finish together; tests of
# SLOW_SECONDS or more are marked `slow`, as are the tests marked so in their file. A test the
# file does not know fails, naming itself, until it is recorded.
DURATIONS = Path(__file__).parent / "durations.json"
SLOW_SECONDS = 2.0
_seconds: dict[str, float] = {}


def pytest_addoption(parser):
    parser.addoption("--record-durations", action="store_true",
                     help="write the seconds of each test run to tests/durations.json (the "
                          "others keep theirs), which sets the tiers and the order")


def pytest_configure(config):
    # Compiled once per machine before any test, and before pytest-xdist's workers start (each
    # would compile what it meets for itself): a no-op once everything is in the cache.
    if hasattr(config, "workerinput") or config.option.collectonly:
        return
    from simstats.run.compiling import all_compiled_policies, uncached

    missing = uncached(all_compiled_policies())
    if missing:
        print(f"\nconftest: compiling {', '.join(missing)} first, once for this machine",
              flush=True)
        subprocess.run([sys.executable, "-m", "simstats", "compile", *missing], check=True)


def recorded_durations() -> dict[str, float]:
    try:
        return json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        return {}


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(config, items):
    """Mark `slow` the tests recorded at SLOW_SECONDS or more, but the quickest of each file
    (a broken import or fixture then shows in the fast tier too); mark unmeasured the tests
    durations.json does not know; start the slowest files first."""
    recorded = recorded_durations()
    recording = config.getoption("record_durations")
    quickest = {}
    for item in items:
        best = quickest.get(item.path)
        if best is None or recorded.get(item.nodeid, 0.0) < recorded.get(best.nodeid, 0.0):
            quickest[item.path] = item
    for item in items:
        if item.nodeid not in recorded and not recording:
            item.add_marker(pytest.mark.unmeasured)
        elif recorded.get(item.nodeid, 0.0) >= SLOW_SECONDS and quickest[item.path] is not item:
            item.add_marker(pytest.mark.slow)
    # Whole files, the slowest first, each in its own order: a file's module-scoped fixtures
    # (a run played for its tests) are then made once per worker, not once per test.
    seconds = {}
    for item in items:
        seconds[item.path] = seconds.get(item.path, 0.0) + recorded.get(item.nodeid, 0.0)
    items.sort(key=lambda item: -seconds[item.path])  # stable: a file keeps its order


def pytest_runtest_setup(item):
    if item.get_closest_marker("unmeasured"):
        pytest.fail(f"{item.nodeid} is not in tests/durations.json, so no tier knows its cost: "
                    "run it with --record-durations", pytrace=False)


def pytest_runtest_logreport(report):
    _seconds[report.nodeid] = _seconds.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session):
    """With --record-durations: the seconds of the tests run replace theirs, the others keep
    theirs, and those of files that no longer exist are dropped."""
    config = session.config
    if config.getoption("record_durations") and not hasattr(config, "workerinput"):
        root = Path(config.rootpath)
        kept = {node: s for node, s in recorded_durations().items()
                if (root / node.split("::")[0]).is_file()}
        kept.update({node: round(s, 1) for node, s in _seconds.items()})
        DURATIONS.write_text(json.dumps(dict(sorted(kept.items())), indent=1) + "\n")
