"""`random`: a move drawn uniformly from the legal moves (deal and redeal included).

Its numbers come from its own stream keyed by (seed, deal, 'random'), RULES.md section 11, so
it plays the same game on any machine and any number of workers.
"""

from __future__ import annotations

from ..deals import below
from ..engine.moves import legal_moves
from ..jit import jit

DESCRIPTION = "a uniformly random legal move, seeded per deal"


@jit
def choose(obs, rules, stream, buffer):
    n = legal_moves(obs, rules, buffer)
    return buffer[below(stream, n)]
