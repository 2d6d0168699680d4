"""Helpers for tests that run `simstats` commands, in real processes or in this one."""

from __future__ import annotations

import signal
from pathlib import Path


def default_ctrl_c() -> None:
    """Undo an inherited 'ignore SIGINT' (a shell's background job), as a terminal would have it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_into(out, *args) -> Path:
    """`simstats ARGS... --out OUT` run in this process to its end; the test fails, naming the
    exit status, if the command exits with one. Returns OUT."""
    import pytest

    from simstats.cli import main

    try:
        main([*map(str, args), "--out", str(out)])
    except SystemExit as done:
        pytest.fail(f"simstats {' '.join(map(str, args))} exited with status {done.code}")
    return Path(out)
