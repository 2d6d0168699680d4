"""`dig`: digging for the next foundation card with the fewest free places.

Priorities: (1) a foundation move (docs/rules.md 9.1 order); (2) the cheapest plan that exposes a
card playable to a foundation: the cards above it are moved off one by one, onto a tableau
build when the game allows one (free), else to an empty column or an empty reserve cell (each
costs one place); the first move of the cheapest plan is made, the shallower plan on ties;
(3) while a cell is free, a column top over a card the player has not seen (Napoleon's Flank)
to a cell, the one waiting least for its foundation; (4) deal;
(5) redeal; (6) stop.
"""

from __future__ import annotations

from ..engine import rules as R
from ..engine.cards import HIDDEN
from ..engine.moves import apply_move, can_place, copy_position, pile_card, pile_size, pile_top
from ..engine.state import N_PLACES, NO_MOVE, TABLEAU
from ..jit import jit, plain_array
from .api import CompiledPolicy, observation_array, rules_array
from .tactics import (
    cards_before,
    deal_or_redeal,
    first_foundation_move,
    fits_any_foundation,
    positions_field,
)

# Cells that blind digging leaves free; measured in Napoleon's Flank (2,000 deals): 0 leaves
# none, 34 cards home on average; 1: 31; 4: 24; before blind digging 22.
BLIND_DIG_KEEPS = 0


class Dig(CompiledPolicy):
    """foundation moves; else the cheapest digging that exposes a foundation card; deal"""

    workspace = {"positions": positions_field(1)}

    @staticmethod
    def choose(view, params, memory, rng):
        # a plain array, as rollout passes it: choose_move is compiled once for both
        return choose_move(observation_array(view), rules_array(view),
                           plain_array(memory.positions))


@jit
def relocation(pos, rules, src):
    """Where the top card of `src` can go while digging: a build first, else an empty column,
    else the first empty reserve cell. Returns (move, places used)."""
    card = pile_top(pos, src)
    n_columns = rules[R.N_COLUMNS]
    empty_column = NO_MOVE
    for c in range(n_columns):
        dst = TABLEAU + c
        if dst == src or not can_place(pos, rules, card, src, dst):
            continue
        if pile_size(pos, dst) > 0:
            return src * N_PLACES + dst, 0
        if empty_column == NO_MOVE:
            empty_column = src * N_PLACES + dst
    if empty_column != NO_MOVE:
        return empty_column, 1
    for r in range(8):
        if can_place(pos, rules, card, src, r):
            return src * N_PLACES + r, 1
    return NO_MOVE, 0


@jit
def choose_move(obs, rules, scratch):
    move = first_foundation_move(obs, rules)
    if move != NO_MOVE:
        return move
    best_cost, best_depth, best_move = 1 << 30, 1 << 30, NO_MOVE
    first_pile = 0 if rules[R.DEAL_TO_RESERVE] else TABLEAU  # Kingsdown digs its reserve too
    for src in range(first_pile, TABLEAU + rules[R.N_COLUMNS]):
        if src < TABLEAU and not rules[R.DEAL_TO_RESERVE]:
            continue
        length = pile_size(obs, src)
        if length < 2:
            continue
        pos = scratch[0]
        copy_position(obs, pos)
        cost, first = 0, NO_MOVE
        for depth in range(length):
            card = pile_top(pos, src)
            if card < 0 or card == HIDDEN:
                break
            if fits_any_foundation(pos, rules, card):
                if first != NO_MOVE and (cost, depth) < (best_cost, best_depth):
                    best_cost, best_depth, best_move = cost, depth, first
                break
            step, places = relocation(pos, rules, src)
            if step == NO_MOVE:
                break
            cost += places
            if first == NO_MOVE:
                first = step
            apply_move(pos, rules, step)
    if best_move != NO_MOVE:
        return best_move
    return blind_dig(obs, rules)


@jit
def blind_dig(obs, rules):
    """Before dealing, while more than BLIND_DIG_KEEPS cells are free: the column top that
    waits least for its foundation, of a column whose next card the player has not seen, to a
    cell (Napoleon's Flank: what lies under it may go home). Else deal, redeal or stop."""
    cell, free = -1, 0
    if rules[R.RESERVE_CELLS]:
        for r in range(7, -1, -1):
            if pile_size(obs, r) == 0:
                cell, free = r, free + 1
    best, best_wait = NO_MOVE, 99
    if free > BLIND_DIG_KEEPS:
        for c in range(rules[R.N_COLUMNS]):
            src = TABLEAU + c
            n = pile_size(obs, src)
            if n < 2 or pile_card(obs, src, n - 2) != HIDDEN:
                continue
            wait = cards_before(obs, rules, pile_top(obs, src))
            if wait < best_wait:
                best, best_wait = src * N_PLACES + cell, wait
    if best != NO_MOVE:
        return best
    return deal_or_redeal(obs, rules)
