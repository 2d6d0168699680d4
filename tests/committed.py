"""The repository's own scripts as tests load them: docs/make_answers.py (README's answers,
results/README.md, and which run folders under results/ the repository keeps)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).parents[1]


def make_answers():
    """docs/make_answers.py, imported."""
    spec = importlib.util.spec_from_file_location("make_answers", ROOT / "docs" / "make_answers.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
