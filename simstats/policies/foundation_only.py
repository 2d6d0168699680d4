"""`foundation-only`, the canonical baseline of docs/rules.md section 9.

Priorities: (1) the first card that can go to a foundation, sources R0..R7 then T0..T7, trying
F(s) before F(s+4) for a card of suit s; (2) deal; (3) redeal; (4) stop. It never fills a
reserve cell, builds on the tableau or transfers between foundations.
"""

from __future__ import annotations

from ..engine.state import NO_MOVE
from ..jit import jit_inline
from .api import CompiledPolicy, observation_array, rules_array
from .tactics import deal_or_redeal, first_foundation_move


class FoundationOnly(CompiledPolicy):
    """docs/rules.md section 9 baseline: foundation moves in fixed order, else deal, redeal"""

    @staticmethod
    def choose(view, params, memory, rng):
        return choose_move(observation_array(view), rules_array(view))


@jit_inline
def choose_move(obs, rules):
    move = first_foundation_move(obs, rules)
    if move != NO_MOVE:
        return move
    return deal_or_redeal(obs, rules)
