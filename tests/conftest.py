"""Shared test helpers: running the command line in-process."""

from __future__ import annotations

import faulthandler
from dataclasses import dataclass

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
