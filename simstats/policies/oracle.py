"""`oracle`: not a player but a bound. It first plays the deal as the fair `solver` would;
if that does not win, it reads the state, the stock's order included, solves the deal
(simstats/search: eager searches for a win, then an exact one that can prove a loss) and
plays the winning line, or the line with the most cards home. Its deals end `won`,
proven lost (`no_moves` or `resigned`) or `unknown` (budget spent); tables report its win rate
as a perfect-information winnable fraction, bracketing the unknown deals. Parameter: budget
(positions searched in all for one deal).

The default budget, 64e6, with the deep last search (simstats/search: solve_position),
leaves 7 of 10,000 Kingsdown Eights deals undecided and proves 13 lost, at 0.26 s a deal over
its run's chunks (32e6 before the deep search: 19 undecided and 10 proven lost, 0.27 s; 4e6:
119 undecided); 32e6 already decided every one of 10,000 Tournament deals (4e6 left 3
undecided). Most deals are decided within the first searches, whatever the budget. Its table
is 2**24 entries (256 MB).
"""

from __future__ import annotations

from ..search import table_bits_for
from . import api
from .solver import Solver, workspace


class Oracle(api.CompiledPolicy):
    """perfect-information oracle (reads the stock's order): not a player; run/solve only"""

    parameters = {"budget": api.integer(64_000_000, 1, doc="positions searched in all, restarts "
                                        "and the last exact search included")}
    fair_player = Solver  # plays first, with its own parameters; the loop then reads the state

    @staticmethod
    def workspace(values: dict) -> dict:
        return workspace(table_bits_for(int(values["budget"])), deep=True)
