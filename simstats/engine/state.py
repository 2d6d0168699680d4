"""The layout of a game position as one flat int16 array, shared by the state and the observation.

Piles 0..7 are the reserve (R0..R7), 8..15 the tableau (T0..T7), 16 the stock; each pile keeps
its cards bottom first in a slot of 104. Foundations are counts, since an in-suit run is known by
its length. The observation uses the same layout with hidden cards masked (see observe.py).
"""

from __future__ import annotations

import numpy as np

CAPACITY = 104
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

# `end` codes, RULES.md section 3; ONGOING while the game goes on.
ONGOING = -1
WON = 0
NO_MOVES = 1
RESIGNED = 2
MOVE_LIMIT_REACHED = 3
UNKNOWN = 4  # only the oracle's: its search ran out of budget before a win or a proof of loss
END_NAMES = ("won", "no_moves", "resigned", "move_limit", "unknown")


def new_state() -> np.ndarray:
    """An empty position array (also used as an observation buffer)."""
    return np.zeros(SIZE, dtype=np.int16)
