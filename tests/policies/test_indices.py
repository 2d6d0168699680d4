"""The package's compiled code is compiled without numba's wraparound of negative indices
(simstats/jit.py: LoweringWithoutWraparound), which is sound only if it never indexes an array
below 0. Under numba's bounds checking such an index raises IndexError (unwrapped, -1 is out of
bounds), so every built-in plays its first recorded deals of every game bounds-checked, in a
process of its own with an empty cache, and must play them exactly as recorded; and a plugin's
loop, which keeps Python's indexing, reads an index from the end as Python does."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
from plugins import plugin

from simstats.games import get_game
from simstats.policies import resolve_policy
from simstats.simulate import run_compiled

CHECKED = textwrap.dedent("""
    import sys
    import numpy as np
    from simstats.games import get_game
    from simstats.policies import resolve_policy
    from simstats.simulate import run_compiled

    recorded = np.load(sys.argv[1])
    deals = {"solver": 6, "rollout": 2, "oracle": 3}
    for key in sorted(recorded.files):
        game, policy = key.split("/")
        n = deals.get(policy, 40)
        rows = run_compiled(get_game(game), resolve_policy(policy), 0, 0, n)
        if not (rows == recorded[key][:n]).all():
            sys.exit(f"{key}: differs from the recorded outcomes")
    for game in ("tournament", "napoleons-flank", "cicely", "kingsdown-eights"):
        run_compiled(get_game(game), resolve_policy("planner"), 0, 0, 1)
    print("checked", len(recorded.files))
""")


def test_builtins_never_index_below_zero(tmp_path):
    recorded = Path(__file__).parents[1] / "data" / "builtin_outcomes.npz"
    env = {**os.environ, "NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
           "SIMSTATS_CACHE_DIR": str(tmp_path / "simstats")}
    done = subprocess.run([sys.executable, "-c", CHECKED, str(recorded)], env=env,
                          capture_output=True, text=True, timeout=1500)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"checked {len(np.load(recorded).files)}" in done.stdout


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
