"""An example third-party policy package for simstats, found through the `simstats.policies`
entry point.

After `pip install examples/simstats-example-plugin`, `simstats policies` lists `lowest-first`
(compiled: it plays inside simstats' compiled loop) and `simstats run --policy lowest-first`,
`--policy "lowest-first[limit=300]"` or `simstats play --policy lowest-first ...` play it.
"""

import numpy as np

from simstats.policies import api


class LowestFirst(api.CompiledPolicy):
    """Home moves first, lowest rank first; else deal, redeal; else stop."""

    parameters = {"limit": 500}  # moves it allows itself (simstats stops a game at 2,000)
    memory = {"moves": api.scalar(np.int64)}  # cleared before each deal

    @staticmethod
    def choose(view, params, memory, rng):
        memory.moves += 1
        if memory.moves > params.limit:
            return api.NO_MOVE
        best, best_rank = api.NO_MOVE, 99
        for i in range(api.legal_count(view)):
            move = api.legal_move(view, i)
            if api.move_kind(move) == api.HOME:
                rank = api.rank(api.move_card(view, move))
                if rank < best_rank:
                    best, best_rank = move, rank
        if best != api.NO_MOVE:
            return best
        for kind in (api.DEAL_MOVE, api.REDEAL_MOVE):
            for i in range(api.legal_count(view)):
                if api.move_kind(api.legal_move(view, i)) == kind:
                    return api.legal_move(view, i)
        return api.NO_MOVE
