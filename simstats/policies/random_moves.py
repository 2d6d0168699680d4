"""`random`: a move drawn uniformly from the legal moves (deal and redeal included).

Its numbers come from its own stream keyed by (seed, deal, 'random'), docs/rules.md section 11, so
it plays the same game on any machine and any number of workers.
"""

from __future__ import annotations

from ..engine.deals import below
from ..engine.moves import legal_moves
from ..jit import jit
from . import api


class Random(api.CompiledPolicy):
    """a uniformly random legal move, seeded per deal"""

    @staticmethod
    def choose(view, params, memory, rng):
        return api.legal_move(view, api.random_below(rng, api.legal_count(view)))


@jit
def choose_move(obs, rules, stream, buffer):
    """The same choice on a bare observation array (rollout's playouts)."""
    n = legal_moves(obs, rules, buffer)
    return buffer[below(stream, n)]
