"""`foundation-only`, the canonical baseline of RULES.md section 9.

Priorities: (1) the first card that can go to a foundation, sources R0..R7 then T0..T7, trying
F(s) before F(s+4) for a card of suit s; (2) deal; (3) redeal; (4) stop. It never fills a
reserve cell, builds on the tableau or transfers between foundations.
"""

from __future__ import annotations

from ..engine.moves import can_redeal
from ..engine.state import DEAL, LENGTHS, NO_MOVE, REDEAL, STOCK
from ..jit import jit_inline
from .tactics import first_foundation_move

DESCRIPTION = "RULES.md section 9 baseline: foundation moves in fixed order, else deal, redeal"


@jit_inline
def choose(obs, rules):
    move = first_foundation_move(obs, rules)
    if move != NO_MOVE:
        return move
    if obs[LENGTHS + STOCK] > 0:
        return DEAL
    if can_redeal(obs, rules):
        return REDEAL
    return NO_MOVE
