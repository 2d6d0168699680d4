"""Where the compiled search spends its time, by function and by source line (Linux `perf`).

    python benchmarks/profile_search.py [--workload solver|exact] [--game tournament]
                                        [--seconds 15] [--lines 40] [--out FILE]

`perf` alone shows numba's compiled code as bare addresses: this numba/llvmlite build writes no
perf map. So the script runs the workload under `perf record` in a child process that compiles
with line tables (NUMBA_DEBUGINFO, in caches of their own under simstats' cache folder, so the
usual compiled code is untouched and a second profile does not compile again),
keeps the object code of every function it compiles or loads, and writes the perf map itself
(perf-PID.map in the temporary folder where perf looks for it: each function's address and
size). Samples are then attributed to functions, and through the object code's line tables
(addr2line) to source lines.

Workloads: `solver`, the `solver` policy playing Tournament deals (the issue's measure of what
the search costs a player: lookahead until the stock is out, then its searches); `exact`, one
exact search of 300,000 positions from each of the opening positions of deals 0-11 (every card
known), as benchmarks/search_speed.py measures.

Read the lines with care: code that numba inlines from another module keeps its line numbers
but is filed under the caller's file, so a search module's line inside a docstring is a line of
engine/moves.py or cards.py; and a line's samples include the memory waits of the
instructions compiled from it.
"""

from __future__ import annotations

import argparse
import bisect
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simstats.jit import cache_dir  # noqa: E402

CHILD = r'''
import json, os, subprocess, sys, time
from numba.core import codegen
from numba.core.registry import cpu_target

objects = {}  # object code of every library compiled or loaded from the cache, by module name


def keep_compiled(cls, module, buf, _original=codegen.JITCodeLibrary._object_compiled_hook):
    objects[module.name] = buf
    return _original.__func__(cls, module, buf)


def keep_loaded(cls, module, _original=codegen.JITCodeLibrary._object_getbuffer_hook):
    buf = _original.__func__(cls, module)
    if buf:
        objects[module.name] = buf
    return buf


codegen.JITCodeLibrary._object_compiled_hook = classmethod(keep_compiled)
codegen.JITCodeLibrary._object_getbuffer_hook = classmethod(keep_loaded)

import numpy as np
from simstats import search as S
from simstats.engine.deals import deal_deck
from simstats.engine.moves import lay_out
from simstats.engine.state import MOVE_LIMIT, new_state
from simstats.engine.games import get_game
from simstats.policies import resolve_policy
from simstats.run.compiled_play import run_compiled

workload, game_id, seconds, scratch = json.loads(sys.argv[1])
game = get_game(game_id)
if workload == "exact":
    budget = 300_000
    work = S.search_buffers(table_bits=S.table_bits_for(budget))
    starts = []
    for deal in range(12):
        deck, _ = deal_deck(game.array, 0, deal)
        state = new_state()
        lay_out(state, game.array, deck)
        starts.append(state)

    def step():
        for start in starts:
            S.solve(start, game.array, budget, MOVE_LIMIT, False, work)
else:
    spec = resolve_policy("solver")
    next_deal = [0]

    def step():
        run_compiled(game, spec, 0, next_deal[0], 20)
        next_deal[0] += 20

    run_compiled(game, spec, 0, 10**6, 1)  # compile (or load) before the map is written
if workload == "exact":
    S.solve(starts[0], game.array, 1000, MOVE_LIMIT, False, work)
engine = cpu_target.target_context.codegen()._engine  # the one JIT engine of all
rows = []
for i, buf in enumerate(objects.values()):
    path = os.path.join(scratch, f"object{i}.o")
    with open(path, "wb") as file:
        file.write(buf)
    table = subprocess.run(["readelf", "-sW", path], capture_output=True, text=True).stdout
    for line in table.splitlines():
        field = line.split()
        if len(field) >= 8 and field[3] == "FUNC" and field[6] != "UND":
            address = engine.get_function_address(field[7])
            if address:
                rows.append((address, int(field[2], 0), field[7], path, int(field[1], 16)))
with open(os.path.join("/", "tmp", f"perf-{os.getpid()}.map"), "w") as file:
    file.writelines(f"{a:x} {size:x} {name}\n" for a, size, name, _, _ in rows)
with open(os.path.join(scratch, "symbols.json"), "w") as file:
    json.dump(rows, file)
began = time.perf_counter()
while time.perf_counter() - began < seconds:
    step()
'''


def short_name(symbol: str) -> str:
    """simstats.search.lookup.expand from a numba symbol (_ZN8simstats6search6lookup6expand...)."""
    parts, rest = [], re.sub(r"^(cfunc\.)?_ZN(7cpython)?", "", symbol)
    while (match := re.match(r"(\d+)", rest)):
        n = int(match.group(1))
        start = len(match.group(1))
        parts.append(rest[start:start + n])
        rest = rest[start + n:]
        if rest.startswith("B"):
            break
    return ".".join(parts) or symbol


def attribute(scratch: Path, samples: collections.Counter):
    """(per function, per source line): samples in the compiled code, by function and line."""
    rows = sorted(tuple(r) for r in json.loads((scratch / "symbols.json").read_text()))
    starts = [r[0] for r in rows]
    functions, per_object, total = collections.Counter(), collections.defaultdict(list), 0
    for ip, count in samples.items():
        total += count
        i = bisect.bisect_right(starts, ip) - 1
        if i >= 0 and rows[i][0] <= ip < rows[i][0] + rows[i][1]:
            address, _, name, path, offset = rows[i]
            functions[short_name(name)] += count
            per_object[path].append((offset + ip - address, count))
    lines = collections.Counter()
    for path, hits in per_object.items():
        found = subprocess.run(["addr2line", "-e", path], input="\n".join(
            hex(offset) for offset, _ in hits), capture_output=True, text=True).stdout.splitlines()
        for (_, count), where in zip(hits, found, strict=True):
            lines[where] += count
    return total, functions, lines


def source_text(where: str) -> str:
    path, _, number = where.rpartition(":")
    try:
        text = Path(path).read_text().splitlines()[int(number) - 1].strip()
    except (OSError, ValueError, IndexError):
        return ""
    return text[:90]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workload", choices=("solver", "exact"), default="solver")
    parser.add_argument("--game", default="tournament")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--lines", type=int, default=40)
    parser.add_argument("--out", help="also write the tables to this Markdown file")
    args = parser.parse_args()
    for tool in ("perf", "readelf", "addr2line"):
        if shutil.which(tool) is None:
            sys.exit(f"error: {tool} is not installed (Debian: linux-perf, binutils)")
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        caches = cache_dir() / "profile"  # compiled with line tables: kept apart
        env = {**os.environ, "NUMBA_DEBUGINFO": "1", "NUMBA_CACHE_DIR": str(caches / "numba"),
               "SIMSTATS_CACHE_DIR": str(caches / "loops"), "PYTHONPATH": str(ROOT)}
        data = scratch / "perf.data"
        child = json.dumps([args.workload, args.game, args.seconds, str(scratch)])
        subprocess.run(["perf", "record", "-q", "-F", "1999", "-o", str(data), sys.executable,
                        "-c", CHILD, child], env=env, check=True)
        script = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip"],
                                capture_output=True, text=True, check=True).stdout
        samples = collections.Counter(int(ip, 16) for ip in script.split())
        total, functions, lines = attribute(scratch, samples)
    compiled = sum(functions.values())
    out = [f"# Profile of the compiled search: {args.workload} workload, {args.game}",
           "", f"    python benchmarks/profile_search.py --workload {args.workload} "
           f"--game {args.game} --seconds {args.seconds:g}", "",
           f"{compiled:,} of {total:,} samples in compiled code (the rest: compiling, Python).",
           "", "| share of compiled time | function |", "|---|---|"]
    out += [f"| {100 * n / compiled:.1f}% | `{name}` |" for name, n in functions.most_common(12)]
    out += ["", "| share | line | source |", "|---|---|---|"]
    for where, n in lines.most_common(args.lines):
        shown = where.replace(str(ROOT) + "/", "")
        out.append(f"| {100 * n / compiled:.1f}% | {shown} | `{source_text(where)}` |")
    text = "\n".join(out) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
