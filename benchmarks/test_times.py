"""How long the tests take, measured as a newcomer meets them: a fresh clone of a commit (HEAD
by default), a new virtual environment, an empty compile cache, then README's test command
(install, lint, compile, the whole suite) as `.ci/run` runs it (the browser tests required:
Debian's chromium and chromium-driver must be installed); then the fast tier (`-m "not slow"`)
twice with the cache now warm.

    python benchmarks/test_times.py [--commit REV] [--keep DIR]

Needs nothing else running (the figures are wall-clock times on a shared machine). Adds a dated
section at the top of benchmarks/test_times.md's history (below "Where it stands", which is
kept by hand) and prints it.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = Path(__file__).with_suffix(".md")
FAST = 'python -m pytest -q -n auto -m "not slow"'


def readme_test_command(tree: Path = ROOT) -> str:
    """README's second command: the one that installs and runs the tests."""
    block = re.search(r"```sh\n(.*?)```", (tree / "README.md").read_text(), re.S).group(1)
    commands = [line for line in block.splitlines() if line and not line.startswith("#")]
    return commands[1]


def timed(command: str, cwd: Path, env: dict) -> tuple[float, str]:
    """Seconds a shell command took in the clone's virtual environment, and its output's tail."""
    start = time.perf_counter()
    done = subprocess.run(["bash", "-c", f". .venv/bin/activate && {command}"], cwd=cwd, env=env,
                          capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{command!r} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return seconds, done.stdout


def summary_line(output: str) -> str:
    """pytest's last line: '706 passed in 301.2s (0:05:01)'."""
    lines = [line for line in output.splitlines() if " passed" in line]
    return lines[-1].strip("= ") if lines else "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commit", default="HEAD", help="the commit to clone (default: HEAD)")
    parser.add_argument("--keep", help="clone into this folder and keep it (default: temporary)")
    args = parser.parse_args()
    folder = Path(args.keep or tempfile.mkdtemp(prefix="simstats-test-times-"))
    clone = folder / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    subprocess.run(["git", "checkout", "-q", args.commit], cwd=clone, check=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=clone,
                            capture_output=True, text=True, check=True).stdout.strip()
    env = {**os.environ, "XDG_CACHE_HOME": str(folder / "cache"), "MPLBACKEND": "Agg",
           "SIMSTATS_REQUIRE_BROWSER": "1"}
    env.pop("SIMSTATS_CACHE_DIR", None)
    env.pop("NUMBA_CACHE_DIR", None)
    subprocess.run([sys.executable, "-m", "venv", str(clone / ".venv")], check=True)
    command = readme_test_command(clone)
    whole, output = timed(command, clone, env)
    whole_line = summary_line(output)
    fast = [timed(FAST, clone, env) for _ in range(2)]
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text()
                .splitlines() if line.startswith("model name")), platform.processor())
    section = f"""## {datetime.date.today()}: {whole / 60:.1f} minutes from nothing ({commit})

Measured by `python benchmarks/test_times.py --commit {args.commit}` on {os.cpu_count()} cores
({cpu}), Python {platform.python_version()}: a fresh clone, a new virtual environment and an
empty compile cache (`XDG_CACHE_HOME` a new folder), the browser tests required
(`SIMSTATS_REQUIRE_BROWSER=1`, as `.ci/run`).

| what | command | wall time | pytest says |
|---|---|---|---|
| README's test command, from nothing | `{command}` | {whole / 60:.1f} min | {whole_line} |
| the fast tier, cache warm (first) | `{FAST}` | {fast[0][0]:.0f} s | {summary_line(fast[0][1])} |
| the fast tier, cache warm (again) | `{FAST}` | {fast[1][0]:.0f} s | {summary_line(fast[1][1])} |

"""
    text = OUT.read_text()
    history = text.index("\n## 20") + 1  # the first dated section
    OUT.write_text(text[:history] + section + text[history:])
    print(section)


if __name__ == "__main__":
    main()
