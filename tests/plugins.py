"""A user's compiled policy written to a file for the tests that need one: the imports every
plugin starts with (numpy and simstats.policies.api), then its source."""

from __future__ import annotations

import textwrap
from pathlib import Path


def plugin(tmp_path: Path, source: str, name: str = "plugin.py") -> Path:
    path = tmp_path / name
    path.write_text("import numpy as np\nfrom simstats.policies import api\n\n"
                    + textwrap.dedent(source))
    return path


ROOT = Path(__file__).resolve().parents[1]


def policy_id(name: str) -> str:
    """A policy name as a test id, a file's path relative to the checkout (ids of the same test
    are then the same on every machine: tests/durations.json is keyed by them)."""
    return name.replace(f"{ROOT}/", "")
