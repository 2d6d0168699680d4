"""Where compiling goes: each policy built as `simstats compile` builds it, one after the other
in one process from an empty cache, with numba's compile events recorded; prints the seconds
each policy took, the time spent holding LLVM's lock (optimising and emitting machine code), and
the functions that took longest on their own (their callees' compiles subtracted), with how
many times each was compiled (more than once: for other argument types).

    NUMBA_CACHE_DIR=$(mktemp -d) SIMSTATS_CACHE_DIR=$(mktemp -d) \\
        taskset -c 1 python benchmarks/compile_profile.py solver planner [--top 40]

Empty caches are the caller's to give (as above): with a warm cache nothing is compiled. With
NUMBA_BOUNDSCHECK=1 NUMBA_OPT=1 it profiles the bounds-checked build of
tests/policies/test_indices.py. Figures: benchmarks/compile_time.md.
"""

from __future__ import annotations

import argparse
import collections
import time

from numba.core import event


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("policies", nargs="+", help="policies to build, in this order")
    parser.add_argument("--top", type=int, default=40, help="functions to list")
    args = parser.parse_args()
    with event.install_recorder("numba:compile") as compiles, \
            event.install_recorder("numba:llvm_lock") as llvm:
        from simstats.run.compiling import build

        for name in args.policies:
            start = time.perf_counter()
            build(name)
            print(f"{name}: {time.perf_counter() - start:.1f} s", flush=True)
    own, count, stack = collections.Counter(), collections.Counter(), []
    for stamp, happened in compiles.buffer:
        if happened.is_start:
            stack.append([stamp, happened, 0.0])
            continue
        start, started, callees = stack.pop()
        function = started.data["dispatcher"].py_func
        key = f"{function.__module__}.{function.__qualname__}"
        own[key] += stamp - start - callees
        count[key] += 1
        if stack:
            stack[-1][2] += stamp - start
    starts = [stamp for stamp, happened in llvm.buffer if happened.is_start]
    ends = [stamp for stamp, happened in llvm.buffer if not happened.is_start]
    print(f"compiling: {sum(own.values()):.1f} s, of which holding LLVM's lock "
          f"{sum(ends) - sum(starts):.1f} s; {len(own)} functions compiled "
          f"{sum(count.values())} times")
    print("seconds of its own, times compiled, function:")
    for key, seconds in own.most_common(args.top):
        print(f"{seconds:8.1f}  x{count[key]}  {key}")


if __name__ == "__main__":
    main()
