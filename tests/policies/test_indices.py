"""The package's compiled code is compiled without numba's wraparound of negative indices
(simstats/jit.py: LoweringWithoutWraparound), which is sound only if it never indexes an array
below 0. Under numba's bounds checking such an index raises IndexError (unwrapped, -1 is out of
bounds), so every built-in plays its first recorded deals of every game bounds-checked, and
must play them exactly as recorded; and a plugin's loop, which keeps Python's indexing, reads an
index from the end as Python does.

The bounds-checked build is numba's cache of its own (numba's cache does not tell the two builds
apart), made once per machine by the first test of each policy, `solver` first, on one worker."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from filelock import FileLock
from plugins import plugin

from simstats.engine.games import GAMES, get_game
from simstats.jit import cache_dir
from simstats.policies import resolve_policy
from simstats.run.compiled_play import run_compiled
from simstats.run.compiling import all_compiled_policies

RECORDED = Path(__file__).parents[1] / "data" / "builtin_outcomes.npz"
# Deals played per game: the first recorded ones (planner has none recorded: it plays one).
DEALS = {"solver": 6, "rollout": 2, "oracle": 3, "planner": 1}

CHECKED = textwrap.dedent("""
    import sys
    import numpy as np
    from simstats.engine.games import get_game
    from simstats.policies import resolve_policy
    from simstats.run.compiled_play import run_compiled

    policy, deals, games = sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    recorded = np.load(sys.argv[1])
    for game in games:
        rows = run_compiled(get_game(game), resolve_policy(policy), 0, 0, deals)
        key = f"{game}/{policy}"
        if key in recorded.files and not (rows == recorded[key][:deals]).all():
            sys.exit(f"{key}: differs from the recorded outcomes")
        print("checked", key, "recorded" if key in recorded.files else "")
""")


@pytest.fixture(scope="session")
def bounds_checked() -> dict:
    """The environment of the bounds-checked build: numba's bounds checks on, LLVM's
    optimisation low and nothing inlined at numba's level (simstats/jit.py), which change
    nothing the checks prove and compile in a fraction of the time; its own cache folder."""
    folder = cache_dir() / "bounds-checked"
    folder.mkdir(parents=True, exist_ok=True)
    return {**os.environ, "NUMBA_BOUNDSCHECK": "1", "NUMBA_OPT": "1",
            "NUMBA_CACHE_DIR": str(folder / "numba"), "SIMSTATS_CACHE_DIR": str(folder)}


@pytest.mark.slow
@pytest.mark.xdist_group("bounds-checked")  # one worker plays them in turn: `solver` compiles
@pytest.mark.parametrize("policy", all_compiled_policies())  # the search the others load
def test_builtins_never_index_below_zero(bounds_checked, policy):
    games = sorted(GAMES)
    if policy == "oracle":
        games.remove("napoleons-flank")  # the oracle sees every card: Tournament's deals again
    # One policy at a time on this machine (two test sessions would compile the same code).
    with FileLock(Path(bounds_checked["SIMSTATS_CACHE_DIR"]) / "compiling.lock"):
        done = subprocess.run([sys.executable, "-c", CHECKED, str(RECORDED), policy,
                               str(DEALS.get(policy, 40)), *games], env=bounds_checked,
                              capture_output=True, text=True, timeout=1500)
    assert done.returncode == 0, done.stderr[-3000:]
    recorded = [key for key in np.load(RECORDED).files if key.endswith(f"/{policy}")]
    assert done.stdout.count("recorded") == len(recorded), done.stdout
    assert done.stdout.count("checked") == len(games)


def test_a_plugin_indexes_from_the_end_as_python_does(tmp_path):
    path = plugin(tmp_path, """
        class FromTheEnd(api.CompiledPolicy):
            '''Marks its memory's last entry through index -1, then plays on only if it is there.'''
            memory = {"marks": api.array(np.int16, 4, fill=7), "made": api.scalar(np.int64)}

            @staticmethod
            def choose(view, params, memory, rng):
                if memory.made == 0:
                    memory.marks[-1] = 3
                elif memory.marks[3] != 3 or memory.marks[0] != 7:
                    return 999999  # an illegal move: -1 did not mean the last entry
                memory.made += 1
                if memory.made > 4:
                    return api.NO_MOVE
                return api.legal_move(view, 0)
        """)
    rows = run_compiled(get_game("cicely"), resolve_policy(f"{path}:FromTheEnd"), 0, 0, 3)
    assert (rows[:, 3] == 4).all()
