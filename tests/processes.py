"""Helpers for tests that start real `simstats` processes."""

from __future__ import annotations

import signal


def default_ctrl_c() -> None:
    """Undo an inherited 'ignore SIGINT' (a shell's background job), as a terminal would have it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
