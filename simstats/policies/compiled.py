"""The built-in policies that run inside the compiled loop, selected by an integer code.

Each receives only an observation array (observe.py), the rules, its own random stream and a
scratch buffer. Selecting by code keeps numba's on-disk cache usable (FIELD-NOTES).
"""

from __future__ import annotations

from ..jit import jit
from . import foundation_only, random_moves

FOUNDATION_ONLY = 0
RANDOM = 1

CODES = {"foundation-only": FOUNDATION_ONLY, "random": RANDOM}


@jit
def choose_builtin(code, obs, rules, stream, buffer):
    """The move the built-in policy `code` makes, or NO_MOVE to stop."""
    if code == FOUNDATION_ONLY:
        return foundation_only.choose(obs, rules)
    return random_moves.choose(obs, rules, stream, buffer)
