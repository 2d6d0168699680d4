"""Proofs of safe moves: the cards a game's proof (games.py: solver_proof) sends home at once,
without branching (safe_cards, safe_move), and the cards that fit a foundation.
"""

from __future__ import annotations

import numpy as np

from ..engine import rules as R
from ..engine.cards import card_suit
from ..engine.moves import fits_foundation, is_down_foundation
from ..engine.state import (
    CAPACITY,
    FOUNDATION_PLACE,
    FOUNDATIONS,
    LENGTHS,
    N_PLACES,
    REDEALS,
    STOCK,
    TABLEAU,
)
from ..jit import jit_inline


@jit_inline
def suit_home(pos, suit):
    return pos[FOUNDATIONS + suit] + pos[FOUNDATIONS + suit + 4]


@jit_inline
def nothing_builds_on(pos, rules):
    """Kingsdown Eights: the cards that may go home at once because no card can ever be built
    on them, as bits of suit * 13 + rank: an ace or a two (an ace can always go home), or a
    card both copies of each card one rank lower and of the other colour of which are home.
    Then the card can serve only by moving, and home is the move that frees the most."""
    # a card of rank r has nothing to build on it when r < 2 or r <= the fewest cards home
    # on any foundation of the other colour
    fewest_black = min(min(pos[FOUNDATIONS + 0], pos[FOUNDATIONS + 4]),
                       min(pos[FOUNDATIONS + 3], pos[FOUNDATIONS + 7]))
    fewest_red = min(min(pos[FOUNDATIONS + 1], pos[FOUNDATIONS + 5]),
                     min(pos[FOUNDATIONS + 2], pos[FOUNDATIONS + 6]))
    safe = 0
    for f in range(8):
        suit = f % 4
        rank = 12 - pos[FOUNDATIONS + f] if is_down_foundation(rules, f) else pos[
            FOUNDATIONS + f]
        if 0 <= rank <= 12 and (rank < 2 or rank <= (
                fewest_black if suit == 1 or suit == 2 else fewest_red)):
            safe |= 1 << (13 * suit + rank)
    return safe


def suit_fits_table():
    """[down, up, second]: the ranks (bits 0-12) that fit a suit's two foundations holding `up`
    and `second` cards, the second built down from the king if `down`, else up from the ace
    (the rule of fits_foundation, which a test holds it to for every count: asking that
    compiled function here cost every import 60 ms)."""
    fits = np.zeros((2, 14, 14), dtype=np.int64)
    for down in range(2):
        for up in range(14):
            for second in range(14):
                if up < 13:
                    fits[down, up, second] |= 1 << up
                if second < 13:
                    fits[down, up, second] |= 1 << (12 - second if down else second)
    return fits


SUIT_FITS = suit_fits_table()


@jit_inline
def fitting_cards(pos, rules, least_home):
    """The cards that fit a foundation of a suit with at least `least_home` cards home, as bits
    of suit * 13 + rank (SUIT_FITS: looked up, not worked out; the search asks it at every
    step)."""
    down = 1 if rules[R.DOWN_FOUNDATIONS] else 0
    fitting = 0
    for suit in range(4):
        up, second = pos[FOUNDATIONS + suit], pos[FOUNDATIONS + suit + 4]
        if up + second >= least_home:
            fitting |= SUIT_FITS[down, up, second] << (13 * suit)
    return fitting


@jit_inline
def fitting_cards_off_13_and_past_half(pos, rules):
    """(fitting_cards of the suits with any number home but 13, of those with 14 or more), in
    one pass: PROOF_CELLS_NO_BUILDING's safe cards on the reserve and on settled columns."""
    down = 1 if rules[R.DOWN_FOUNDATIONS] else 0
    off_13, past_half = 0, 0
    for suit in range(4):
        up, second = pos[FOUNDATIONS + suit], pos[FOUNDATIONS + suit + 4]
        if up + second != 13:
            fitting = SUIT_FITS[down, up, second] << (13 * suit)
            off_13 |= fitting
            if up + second > 13:
                past_half |= fitting
    return off_13, past_half


@jit_inline
def safe_cards(pos, rules, eager):
    """(reserve_cards, column_cards): the cards whose play home is safe (see the module
    docstring) when on top of a reserve pile (a cell), and when on top of a column, as bits of
    suit * 13 + rank; by the proof the game declares (games.py: solver_proof); none in Cicely,
    whose builds in suit both ways make a proof longer than it is worth. `eager`: any play home
    from a reserve cell or a column top (fast, but proves nothing)."""
    if eager:
        fitting = fitting_cards(pos, rules, 0)
        return fitting, fitting
    if rules[R.SOLVER_PROOF] == R.PROOF_NOTHING_BUILDS_ON:
        safe = nothing_builds_on(pos, rules)
        return safe, safe
    if rules[R.SOLVER_PROOF] != R.PROOF_CELLS_NO_BUILDING:
        return 0, 0
    columns_settled = pos[LENGTHS + STOCK] == 0 and pos[REDEALS] >= rules[R.MAX_REDEALS]
    off_13, past_half = fitting_cards_off_13_and_past_half(pos, rules)
    return off_13, past_half if columns_settled else 0


@jit_inline
def safe_move(pos, rules, eager):
    """A foundation play that no winning line can need to delay (safe_cards), or -1."""
    reserve_cards, column_cards = safe_cards(pos, rules, eager)
    return first_top_in(pos, rules, reserve_cards, column_cards)


@jit_inline
def first_top_in(pos, rules, reserve_cards, column_cards):
    """The play home of the first top card, reserve first, that is among `reserve_cards` on the
    reserve or among `column_cards` on a column (bits of suit * 13 + rank, each a card that
    fits a foundation), or -1."""
    if reserve_cards == 0 and column_cards == 0:
        return -1  # the common case, answered without looking at the piles
    for src in range(TABLEAU + rules[R.N_COLUMNS]):
        n = pos[LENGTHS + src]
        if n == 0:
            continue
        card = np.int64(pos[src * CAPACITY + n - 1])
        if ((reserve_cards if src < TABLEAU else column_cards) >> card) & 1:
            suit = card_suit(card)
            f = suit if fits_foundation(pos, rules, card, suit) else suit + 4
            return src * N_PLACES + FOUNDATION_PLACE + f
    return -1
