"""A tunable `blind-digger` for Napoleon's Flank playouts (`planner`'s, flank.py).

It plays exactly as `blind-digger` (blind_digger.py: home, slides, remembered digs, blind digs,
deal, redeal) with its defaults, and adds two knobs on the blind dig, the move that spends the
scarce free cells on a card that may wait long:
- `hold`, `roomy`: a column top that waits for more than `hold` cards of its suit goes to a
  cell only while more than `roomy` cells are free (hold=99: never held back);
- `short`: among the columns to dig, the cost of a column is 4 x the wait of its top card plus
  `short` x its size, so with short > 0 a short column, which is soon dug out (and then
  refilled from the stock), is preferred.
Written against the public API alone, like blind-digger; `FlankDigger` plays it as a policy
(`--policy simstats.policies.flank_digger:FlankDigger[hold=3]`), for measuring a knob alone.
"""

from . import api
from .blind_digger import (
    NEVER,
    cards_before,
    deal_or_redeal,
    direct_home,
    first_free_cell,
    free_cells,
    remembered_dig,
    sliding_home,
)


@api.jit
def blind_dig(view, known, keep, hold, roomy, short):
    """blind_digger.blind_dig with the `hold`, `roomy` and `short` knobs."""
    free = free_cells(view)
    if free <= keep:
        return api.NO_MOVE
    cell = first_free_cell(view)
    best, best_cost = api.NO_MOVE, 1 << 30
    for c in range(api.column_count(view)):
        n = api.column_size(known, c)
        if n < 2 or api.column_card(known, c, n - 2) != api.HIDDEN_CARD:
            continue
        wait = cards_before(view, api.column_top(view, c))
        if wait > hold and free <= roomy:
            continue
        cost = 4 * min(wait, NEVER) + short * n
        if cost < best_cost:
            best, best_cost = api.card_move(api.column_place(c), api.reserve_place(cell)), cost
    return best


@api.jit
def decide(view, known, keep, hold, roomy, short):
    move = direct_home(view)
    if move == api.NO_MOVE:
        move = sliding_home(view)
    if move == api.NO_MOVE and api.reserve_is_cells(view):
        move = remembered_dig(known, free_cells(view))
    if move == api.NO_MOVE and api.reserve_is_cells(view):
        move = blind_dig(view, known, keep, hold, roomy, short)
    if move == api.NO_MOVE:
        move = deal_or_redeal(view)
    return move


PARAMETERS = {
    "keep": api.integer(0, 0, 8, doc="cells kept free from blind digging"),
    "hold": api.integer(99, 0, 99, doc="a top waiting for more cards than this is held back"),
    "roomy": api.integer(0, 0, 8, doc="... unless more than this many cells are free"),
    "short": api.integer(0, 0, 100, doc="weight of a column's size when choosing one to dig"),
}


class FlankDigger(api.CompiledPolicy):
    """blind-digger with knobs on blind digging (hold, roomy, short); for Napoleon's Flank"""

    parameters = PARAMETERS
    memory = {"recollection": api.recollection()}

    @staticmethod
    def choose(view, params, memory, rng):
        known = api.recall(view, memory.recollection)
        move = decide(view, known, params.keep, params.hold, params.roomy, params.short)
        return api.remember(memory.recollection, view, move)
