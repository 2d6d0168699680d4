"""The layout of a game position as one flat int16 array, shared by the state and the observation.

Piles 0..7 are the reserve (R0..R7), 8..15 the tableau (T0..T7), 16 the stock; each pile keeps
its cards bottom first in a slot of 104. Foundations are counts, since an in-suit run is known by
its length. The observation uses the same layout with hidden cards masked (see observe.py).
"""

from __future__ import annotations

import numpy as np

CAPACITY = 104  # a pile can hold every card of the deck (cards.DECK_SIZE; kept literal so
# that reading the layout loads no compiled code)
RESERVE = 0  # piles 0..7
TABLEAU = 8  # piles 8..15
STOCK = 16
N_PILES = 17

LENGTHS = N_PILES * CAPACITY  # lengths of the 17 piles
FOUNDATIONS = LENGTHS + N_PILES  # cards on F0..F7
MOVES = FOUNDATIONS + 8
DEALS = MOVES + 1
REDEALS = MOVES + 2
RESHUFFLES = MOVES + 3
SIZE = MOVES + 4

# Places in move notation: R0..R7 = 0..7, T0..T7 = 8..15 (the pile numbers), F0..F7 = 16..23.
FOUNDATION_PLACE = 16
N_PLACES = 24
DEAL = N_PLACES * N_PLACES
REDEAL = DEAL + 1
NO_MOVE = -1
MAX_LEGAL_MOVES = 512

MOVE_LIMIT = 2000

# `end` codes, docs/rules.md section 3; ONGOING while the game goes on.
ONGOING = -1
WON = 0
NO_MOVES = 1
RESIGNED = 2
MOVE_LIMIT_REACHED = 3
UNKNOWN = 4  # only the oracle's: its search ran out of budget before a win or a proof of loss
END_NAMES = ("won", "no_moves", "resigned", "move_limit", "unknown")

# A finished deal's outcome row: its columns in order, each with the narrowest type that holds
# it (`end` is stored as its name). The compiled loop fills int32 rows of these; records.py
# writes them with the game, policy and deal in front; every reader takes the names from here.
OUTCOME_FIELDS = (("reshuffles", "int16"), ("won", "bool"), ("foundation_cards", "int16"),
                  ("moves", "int16"), ("deals", "int16"), ("redeals", "int8"), ("end", "str"))
OUTCOME_COLUMNS = tuple(name for name, _ in OUTCOME_FIELDS)
(RESHUFFLES_AT, WON_AT, FOUNDATION_CARDS_AT, MOVES_AT, DEALS_AT, REDEALS_AT,
 END_AT) = (OUTCOME_COLUMNS.index(name) for name in (
     "reshuffles", "won", "foundation_cards", "moves", "deals", "redeals", "end"))


def pile_span(pile: int) -> slice:
    """Where a pile's cards lie in a position array (for filling whole piles, e.g. a stock
    nobody has seen with HIDDEN)."""
    return slice(pile * CAPACITY, (pile + 1) * CAPACITY)


def new_state() -> np.ndarray:
    """An empty position array (also used as an observation buffer)."""
    return np.zeros(SIZE, dtype=np.int16)
