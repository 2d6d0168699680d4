"""The built-in policies that run inside the compiled loop, selected by an integer code.

Each receives only an observation array (observe.py), the rules, its parameters, its own random
stream and scratch buffers. Selecting by code keeps numba's on-disk cache usable (FIELD-NOTES).
"""

from __future__ import annotations

import numpy as np

from ..cards import HIDDEN
from ..engine.state import CAPACITY, MAX_LEGAL_MOVES, SIZE, STOCK
from ..jit import jit_inline
from . import dig, foundation_only, lookahead, random_moves
from .tactics import NO_PLAN, PLAN, SEEN_SIZE

FOUNDATION_ONLY = 0
RANDOM = 1
DIG = 2
LOOKAHEAD = 3

CODES = {"foundation-only": FOUNDATION_ONLY, "random": RANDOM, "dig": DIG,
         "lookahead": LOOKAHEAD}
SCRATCH_LEVELS = lookahead.MAX_DEPTH + 2


def scratch_buffers() -> tuple[np.ndarray, ...]:
    """The compiled choosers' working memory (they never allocate): search positions (their
    stock slots hidden), move lists, search cursors, a memory of positions seen, and the memory
    of the deal as far as seen (tactics.recall). Unpacked by index: new buffers go at the end."""
    positions = np.zeros((SCRATCH_LEVELS, SIZE), dtype=np.int16)
    positions[:, STOCK * CAPACITY : (STOCK + 1) * CAPACITY] = HIDDEN
    moves = np.empty((SCRATCH_LEVELS, MAX_LEGAL_MOVES), dtype=np.int64)
    cursors = np.zeros((SCRATCH_LEVELS, 3), dtype=np.int64)
    seen = np.zeros(SEEN_SIZE, dtype=np.int64)
    seen[PLAN] = NO_PLAN
    memory = np.zeros((2, SIZE), dtype=np.int16)
    memory[0, STOCK * CAPACITY : (STOCK + 1) * CAPACITY] = HIDDEN
    return positions, moves, cursors, seen, memory


@jit_inline
def uses_memory(code):
    return code == LOOKAHEAD


@jit_inline
def choose_builtin(code, params, obs, rules, stream, scratch):
    """The move the built-in policy `code` makes, or NO_MOVE to stop."""
    positions, moves, cursors, seen = scratch[0], scratch[1], scratch[2], scratch[3]
    memory = scratch[4]
    if code == FOUNDATION_ONLY:
        return foundation_only.choose(obs, rules)
    if code == RANDOM:
        return random_moves.choose(obs, rules, stream, moves[0])
    if code == DIG:
        return dig.choose(obs, rules, positions)
    return lookahead.choose(obs, rules, params, positions, moves, cursors, seen, memory)
