"""docs/architecture.md's Python examples run as written and print what the page shows (the
```text block that follows each ```python block)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

PAGE = Path(__file__).parents[2] / "docs" / "architecture.md"
EXAMPLES = re.findall(r"```python\n(.*?)```\n\n```text\n(.*?)```", PAGE.read_text(), re.S)


def test_the_page_has_examples():
    assert EXAMPLES


@pytest.mark.parametrize(("code", "shown"), EXAMPLES)
def test_an_example_prints_what_the_page_shows(code, shown):
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout == shown
