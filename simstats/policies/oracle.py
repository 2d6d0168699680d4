"""`oracle`: not a player but a bound. It first plays the deal as the fair `solver` would;
if that does not win, it reads the state, the stock's order included, solves the deal
(simstats/solver.py: eager searches for a win, then an exact one that can prove a loss) and
plays the winning line, or the line with the most cards home. Its deals end `won`,
proven lost (`no_moves` or `resigned`) or `unknown` (budget spent); tables report its win rate
as a perfect-information winnable fraction, bracketing the unknown deals. Parameter: budget
(positions searched in all for one deal).

The default budget, 32e6, decides every one of 10,000 Tournament deals (4e6 left 3 undecided)
and leaves 19 of 10,000 Kingsdown Eights deals undecided (4e6: 119), in about 1.5x the time of
4e6 (same deals, one core: 45 ms against 29 ms a Tournament deal, 0.24 s against 0.16 s in
Kingsdown Eights): most deals are decided within the first searches, whatever the budget. Its
table is 2**24 entries (256 MB).
"""

from __future__ import annotations

from ..solver import table_bits_for
from . import api
from .solver import Solver, workspace


class Oracle(api.CompiledPolicy):
    """perfect-information oracle (reads the stock's order): not a player; run/solve only"""

    parameters = {"budget": 32_000_000.0}
    fair_player = Solver  # plays first, with its own parameters; the loop then reads the state

    @staticmethod
    def workspace(values: dict) -> dict:
        return workspace(table_bits_for(int(values["budget"])))
