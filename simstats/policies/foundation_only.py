"""`foundation-only`, the canonical baseline of RULES.md section 9.

Priorities: (1) the first card that can go to a foundation, sources R0..R7 then T0..T7, trying
F(s) before F(s+4) for a card of suit s; (2) deal; (3) redeal; (4) stop. It never fills a
reserve cell, builds on the tableau or transfers between foundations.
"""

from __future__ import annotations

from ..engine.moves import can_place, can_redeal, is_source, pile_top
from ..engine.state import DEAL, FOUNDATION_PLACE, LENGTHS, N_PLACES, NO_MOVE, REDEAL, STOCK
from ..jit import jit

DESCRIPTION = "RULES.md section 9 baseline: foundation moves in fixed order, else deal, redeal"


@jit
def choose(obs, rules):
    for src in range(FOUNDATION_PLACE):
        if not is_source(rules, src):
            continue
        card = pile_top(obs, src)
        if card < 0:
            continue
        for dst in (FOUNDATION_PLACE + card // 13, FOUNDATION_PLACE + card // 13 + 4):
            if can_place(obs, rules, card, src, dst):
                return src * N_PLACES + dst
    if obs[LENGTHS + STOCK] > 0:
        return DEAL
    if can_redeal(obs, rules):
        return REDEAL
    return NO_MOVE
