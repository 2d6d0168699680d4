"""Every test lands in a tier measured: tests/durations.json knows its seconds (which mark it
`slow` or not, tests/conftest.py), or it fails, naming itself, in either tier until recorded."""

from __future__ import annotations

import os
import subprocess
import sys

from committed import ROOT


def test_a_test_durations_json_does_not_know_fails_naming_itself():
    name = f"test_unmeasured_{os.getpid()}.py"
    path = ROOT / "tests" / "package" / name
    path.write_text("def test_new():\n    assert True\n")
    try:
        # the fast tier: the whole suite holds it too
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               str(path), "-m", "not slow"], capture_output=True, text=True,
                              cwd=ROOT)
        assert done.returncode == 1, done.stdout
        assert f"tests/package/{name}::test_new is not in tests/durations.json" in done.stdout
    finally:
        path.unlink()
