"""The built-in policies that run inside the compiled loop, selected by an integer code.

Each receives only an observation array (observe.py), the rules, its parameters, its own random
stream and scratch buffers. Selecting by code keeps numba's on-disk cache usable (FIELD-NOTES).
"""

from __future__ import annotations

import numpy as np

from ..cards import HIDDEN
from ..engine.state import CAPACITY, MAX_LEGAL_MOVES, SIZE, STOCK
from ..jit import jit, jit_inline
from ..solver import TABLE_BITS, search_buffers
from . import dig, endgame, foundation_only, lookahead, random_moves, rollout
from .tactics import NO_PLAN, PLAN, SEEN_SIZE, forget

FOUNDATION_ONLY = 0
RANDOM = 1
DIG = 2
LOOKAHEAD = 3
ROLLOUT = 4
SOLVER = 5
ORACLE = 6  # not a policy: simulate.play_oracle reads the state (see policies.ORACLES)

CODES = {"foundation-only": FOUNDATION_ONLY, "random": RANDOM, "dig": DIG,
         "lookahead": LOOKAHEAD, "rollout": ROLLOUT, "solver": SOLVER}
SCRATCH_LEVELS = lookahead.MAX_DEPTH + 2


def scratch_buffers(code: int | None = None, table_bits: int = TABLE_BITS) -> tuple:
    """The compiled choosers' working memory (they never allocate): search positions (their
    stock slots hidden), move lists, search cursors, a memory of positions seen; for the
    policies that solve (`code` SOLVER, ORACLE) the search's memory and the line being
    followed (its table holding 2**table_bits positions); the rollout's buffers (one tuple);
    the memory of the deal as far as seen (tactics.recall). Choosers take elements by index:
    new buffers go at the end."""
    positions = np.zeros((SCRATCH_LEVELS, SIZE), dtype=np.int16)
    positions[:, STOCK * CAPACITY : (STOCK + 1) * CAPACITY] = HIDDEN
    moves = np.empty((SCRATCH_LEVELS, MAX_LEGAL_MOVES), dtype=np.int64)
    cursors = np.zeros((SCRATCH_LEVELS, 3), dtype=np.int64)
    seen = np.zeros(SEEN_SIZE, dtype=np.int64)
    seen[PLAN] = NO_PLAN
    if code == SOLVER or code == ORACLE:
        work = search_buffers(table_bits=table_bits)
        plan = np.zeros(endgame.PLAN_SIZE, dtype=np.int64)
    else:  # same types, nothing to hold: the other choosers never touch them
        work = search_buffers(small=True)
        plan = np.zeros(1, dtype=np.int64)
    memory = np.zeros((2, SIZE), dtype=np.int16)
    memory[0, STOCK * CAPACITY : (STOCK + 1) * CAPACITY] = HIDDEN
    return positions, moves, cursors, seen, work, plan, rollout.buffers(), memory


@jit
def start_deal(code, scratch):
    """A policy remembers only the deal it is playing."""
    if code == LOOKAHEAD or code == ROLLOUT or code == SOLVER or code == ORACLE:
        forget(scratch[3])
    if code == SOLVER or code == ORACLE:
        endgame.forget_plan(scratch[5])


@jit_inline
def choose_builtin(code, params, obs, rules, stream, scratch):
    """The move the built-in policy `code` makes, or NO_MOVE to stop."""
    positions, moves, cursors, seen = scratch[0], scratch[1], scratch[2], scratch[3]
    memory = scratch[7]
    if code == FOUNDATION_ONLY:
        return foundation_only.choose(obs, rules)
    if code == RANDOM:
        return random_moves.choose(obs, rules, stream, moves[0])
    if code == DIG:
        return dig.choose(obs, rules, positions)
    if code == ROLLOUT:
        return rollout.choose(obs, rules, params, stream, seen, scratch[6])
    if code == SOLVER:
        return endgame.choose(obs, rules, params, positions, moves, cursors, seen, memory,
                              scratch[4], scratch[5])
    return lookahead.choose(obs, rules, params, positions, moves, cursors, seen, memory)
