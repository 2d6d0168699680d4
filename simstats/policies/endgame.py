"""`solver`: the strongest fair player. It plays like `lookahead` while cards are hidden and
solves the rest exactly as soon as it sees every card that matters.

Once the stock is out in Tournament, Cicely and Kingsdown Eights, every card left is face up and
a redeal's new stock is the visible columns in a fixed order (RULES.md 4.7): the game is then a
perfect-information puzzle. Priorities: (1) follow the line found by the last search; (2) when
the stock is out and no card is hidden, search (simstats/solver.py, at most `budget` positions,
once per redeal): a winning line is followed to the end; in a position proven lost, the line
that gets the most cards home; (3) otherwise, or when the budget runs out, `lookahead`'s move.
In Napoleon's Flank buried cards stay hidden, so it plays exactly like `lookahead` there.
Parameters: lookahead's, and budget (positions per search).
"""

from __future__ import annotations

from ..cards import HIDDEN
from ..engine.moves import is_legal
from ..engine.state import CAPACITY, LENGTHS, MOVE_LIMIT, MOVES, REDEALS, STOCK
from ..jit import jit, jit_inline
from ..solver import (
    BEST_BUFFER,
    BEST_LENGTH,
    INFO_BUFFER,
    LINE_BUFFER,
    LINE_LENGTH,
    LOST,
    MAX_LINE,
    WON,
    solve,
)
from . import lookahead

DESCRIPTION = "lookahead until every card is seen, then an exact search for a win (fair)"
PARAMETERS = {**lookahead.PARAMETERS, "budget": 100_000.0, "eager": 1.0}
BUDGET = len(lookahead.PARAMETERS)
EAGER = BUDGET + 1

# The plan buffer: a header, then the moves of the line being followed.
PLAN_LENGTH = 0
PLAN_START = 1  # moves made when the line starts
PLAN_SEARCHED = 2  # 1 + the redeals made when the last search ran (0: none this deal)
PLAN_LINE = 4
PLAN_SIZE = PLAN_LINE + MAX_LINE


@jit_inline
def sees_everything(obs):
    """The stock is out and no card in play is hidden."""
    if obs[LENGTHS + STOCK] != 0:
        return False
    for p in range(STOCK):
        base = p * CAPACITY
        for k in range(obs[LENGTHS + p]):
            if obs[base + k] == HIDDEN:
                return False
    return True


@jit
def forget_plan(plan):
    plan[PLAN_LENGTH] = 0
    plan[PLAN_SEARCHED] = 0


@jit
def follow(plan, moves_made, line, length):
    plan[PLAN_LENGTH] = length
    plan[PLAN_START] = moves_made
    for i in range(length):
        plan[PLAN_LINE + i] = line[i]


@jit
def choose(obs, rules, params, positions, moves, cursors, seen, work, plan):
    if plan[PLAN_LENGTH] > 0:
        i = obs[MOVES] - plan[PLAN_START]
        if 0 <= i < plan[PLAN_LENGTH] and is_legal(obs, rules, plan[PLAN_LINE + i]):
            return plan[PLAN_LINE + i]
        plan[PLAN_LENGTH] = 0
    if sees_everything(obs) and plan[PLAN_SEARCHED] != obs[REDEALS] + 1:
        plan[PLAN_SEARCHED] = obs[REDEALS] + 1
        budget = int(params[BUDGET])
        result = solve(obs, rules, budget, MOVE_LIMIT - obs[MOVES], params[EAGER] != 0, work)
        info = work[INFO_BUFFER]
        if result == WON:
            follow(plan, obs[MOVES], work[LINE_BUFFER], info[LINE_LENGTH])
        elif result == LOST:  # play on for the most cards home
            follow(plan, obs[MOVES], work[BEST_BUFFER], info[BEST_LENGTH])
        if plan[PLAN_LENGTH] > 0:
            return plan[PLAN_LINE]
    return lookahead.choose(obs, rules, params, positions, moves, cursors, seen)
