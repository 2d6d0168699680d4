"""A compiled plugin policy in one file: `--policy examples/greedy_cells.py:GreedyCells`.

simstats compiles `choose` with numba and calls it inside its compiled loop, so this plays as
fast as a built-in. It reads the game only through `api` (docs: README, "Write your own policy").
"""

from simstats.policies import api


@api.jit
def first_move(view, wanted):
    """The first legal move of kind `wanted` (deal and redeal count as one kind; a reserve
    fill only from a column), or NO_MOVE."""
    for i in range(api.legal_count(view)):
        move = api.legal_move(view, i)
        kind = api.move_kind(move)
        if kind == api.REDEAL_MOVE:
            kind = api.DEAL_MOVE
        if kind == api.TO_RESERVE and api.place_kind(api.move_source(move)) != api.COLUMN:
            continue
        if kind == wanted:
            return move
    return api.NO_MOVE


class GreedyCells(api.CompiledPolicy):
    """Foundation moves first; else fill a free cell from the first column; else deal."""

    @staticmethod
    def choose(view, params, memory, rng):
        for wanted in (api.HOME, api.TO_RESERVE, api.DEAL_MOVE):
            move = first_move(view, wanted)
            if move != api.NO_MOVE:
                return move
        return api.NO_MOVE  # resign
