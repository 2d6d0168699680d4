"""Each game's rules as data: a small int64 array of the ways the four games differ.

The compiled engine reads these fields; nothing here moves cards. games.py builds one array per
game from a ``Rules`` record, so a game is described by its differences, not by code.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

# Field positions in the rules array: a Rules field's slot is the constant named as the field in
# capitals (n_columns -> N_COLUMNS), which Rules.array follows by name.
N_COLUMNS = 0  # tableau columns T0..T(n-1)
FIRST_ROW_TO_TABLEAU = 1  # the first 8 cards go one each to the tableau (else to the reserve)
DEAL_TO_RESERVE = 2  # a deal (and the rest of the layout) falls on the reserve piles
DEAL_PER_PILE = 3  # cards per pile in a deal
DEAL_BY_ROW = 4  # a deal goes round the piles one card at a time (else pile by pile)
NEEDS_ACE_OR_KING = 5  # the first 8 cards must hold an ace or a king, or the deck is reshuffled
REFILL = 6  # an emptied column is refilled at once with this many stock cards (0: never)
BUILD = 7  # tableau building, one of BUILD_* below
RESERVE_CELLS = 8  # reserve places are one-card cells that a column top may fill
DOWN_FOUNDATIONS = 9  # F4..F7 are built down from the king (else up from the ace)
TRANSFERS = 10  # a foundation's top card may move to the other foundation of its suit
MAX_REDEALS = 11
HIDE_BURIED = 12  # only the top card of each column is visible
# Not a rule but what is provable about the game: which proof of safe foundation plays the exact
# search (simstats/search) may use, one of the PROOF_* below. A game's registry entry declares it
# (games.Game.solver_proof, default none), so a new game never inherits an unsound proof.
SOLVER_PROOF = 13
N_FIELDS = 14

NO_PROOF = 0
# one-card cells, no building, transfers: a cell's card goes home unless its suit has 13 home, a
# column's once the columns are settled and its suit has 14 (search/safe_moves.py: safe_cards)
PROOF_CELLS_NO_BUILDING = 1
PROOF_NOTHING_BUILDS_ON = 2  # a card that no card can ever be built on goes home

BUILD_NONE = 0
BUILD_SUIT_UP_OR_DOWN = 1
BUILD_DOWN_ALTERNATE_COLOUR = 2


@dataclass(frozen=True)
class Rules:
    """The ways the games differ, each field written to the slot of its name (N_COLUMNS, ...)."""

    n_columns: int
    first_row_to_tableau: bool
    deal_to_reserve: bool
    deal_per_pile: int
    deal_by_row: bool
    needs_ace_or_king: bool
    refill: int
    build: int
    reserve_cells: bool
    down_foundations: bool
    transfers: bool
    max_redeals: int
    hide_buried: bool

    def array(self, solver_proof: int = NO_PROOF) -> np.ndarray:
        """The rules array the compiled engine reads, each field at its slot, and the proof the
        exact search may use (SOLVER_PROOF)."""
        out = np.zeros(N_FIELDS, dtype=np.int64)
        for rule in fields(self):
            out[SLOTS[rule.name]] = int(getattr(self, rule.name))
        out[SOLVER_PROOF] = solver_proof
        return out


SLOTS = {rule.name: globals()[rule.name.upper()] for rule in fields(Rules)}
