"""`oracle`: not a player but a bound. It first plays the deal as the fair `solver` would;
if that does not win, it reads the state, the stock's order included, solves the deal
(simstats/solver.py: eager searches for a win, then an exact one that can prove a loss) and
plays the winning line, or the line with the most cards home. Its deals end `won`,
proven lost (`no_moves` or `resigned`) or `unknown` (budget spent); tables report its win rate
as a perfect-information winnable fraction, bracketing the unknown deals. Parameter: budget
(positions searched in all for one deal).
"""

from __future__ import annotations

from ..solver import table_bits_for
from . import api
from .solver import Solver, workspace


class Oracle(api.CompiledPolicy):
    """perfect-information oracle (reads the stock's order): not a player; run/solve only"""

    parameters = {"budget": 4_000_000.0}
    fair_player = Solver  # plays first, with its own parameters; the loop then reads the state

    @staticmethod
    def workspace(values: dict) -> dict:
        return workspace(table_bits_for(int(values["budget"])))
