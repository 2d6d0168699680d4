"""Move order: the candidates of a position, ranked (plays home; digs towards a card that can
go home, shallowest first; deal or redeal; builds; other fills), jittered by ORDER_SEED on a
restart (candidates), and the line with the most cards home kept (keep_best).
"""

from __future__ import annotations

from ..engine import rules as R
from ..engine.cards import card_rank, card_suit
from ..engine.moves import can_redeal, fits_foundation, foundation_cards, pile_top
from ..engine.state import (
    CAPACITY,
    DEAL,
    FOUNDATION_PLACE,
    LENGTHS,
    MAX_LEGAL_MOVES,
    N_PILES,
    N_PLACES,
    REDEAL,
    STOCK,
    TABLEAU,
)
from ..jit import jit_inline, trailing_zeros
from .fingerprint import mix
from .memory import (
    BEST_CARDS,
    BEST_LENGTH,
    JITTER,
    MAX_CANDIDATES,
    NODES,
    ORDER_SEED,
    TRANSFER_PLAY,
)
from .safe_moves import fitting_cards, suit_home


@jit_inline
def cards_going_home(pos, rules, fitting):
    """The cards (suit * 13 + rank) that could go home now, directly (`fitting`: fitting_cards)
    or by a transfer play, as bits of one integer: one look at the foundations answers for
    every card."""
    going = fitting
    if rules[R.TRANSFERS]:
        for suit in range(4):
            if suit_home(pos, suit) == 13:
                going |= 0x1FFF << (13 * suit)
    return going


@jit_inline
def move_rank(pos, rules, move, free_cells, going):
    """Lower is tried first: plays home; digs that reach a card that can go home (`going`:
    cards_going_home), shallowest first (in Kingsdown Eights, with no cells, only the card
    under the one moved counts); deal or redeal (Kingsdown Eights: last); builds; other moves."""
    if move == DEAL or move == REDEAL:
        return 6 * 128 if rules[R.DEAL_TO_RESERVE] else 3 * 128
    if move >= TRANSFER_PLAY:
        return 0
    src, dst = move // N_PLACES, move % N_PLACES
    if dst >= FOUNDATION_PLACE:
        return 0 if src < FOUNDATION_PLACE else 128
    if TABLEAU <= src < FOUNDATION_PLACE or not rules[R.RESERVE_CELLS]:
        n = pos[LENGTHS + src]
        for depth in range(1, min(n, free_cells + 1)):
            if (going >> pos[src * CAPACITY + n - 1 - depth]) & 1:
                return 2 * 128 + depth
    if dst >= TABLEAU:
        return 4 * 128  # a build or a move to an empty column
    return 5 * 128


# Rooms of the search's scratch array that candidates uses.
TOPS = 0  # each pile's top card, or -1
COLUMNS_UNDER = 32  # per card: the columns that card tops, as bits
RANKS_AT = MAX_LEGAL_MOVES  # the candidates' ranks


@jit_inline
def candidates(pos, rules, scratch, out, info):
    """The moves worth trying from `pos`, in the order they are tried; their count.

    The legal moves (in legal_moves' order) less those that reach a position another one
    reaches: each card's first foundation that takes it, the first empty cell, the columns
    (an empty one only the first). The rules' fits_foundation and fits_column decide, asked
    per card and per column top rather than per pair of places. Transfers come only within
    transfer plays."""
    tops = scratch[TOPS:TOPS + N_PILES]
    under = scratch[COLUMNS_UNDER:COLUMNS_UNDER + 52]
    ranks = scratch[RANKS_AT:]
    n_columns = rules[R.N_COLUMNS]
    sources = TABLEAU + n_columns
    first_cell, first_column = -1, -1
    free_cells = 0
    for p in range(sources):
        tops[p] = pile_top(pos, p)
        if p < TABLEAU:
            if tops[p] < 0:
                free_cells += 1
                if first_cell < 0:
                    first_cell = p
        elif tops[p] < 0 and first_column < 0:
            first_column = p
    if not rules[R.RESERVE_CELLS]:
        first_cell = -1
        free_cells = 1  # without cells, a dig is the move itself: look one card down
    build = rules[R.BUILD]
    if build != R.BUILD_NONE:
        under[:] = 0
        for p in range(TABLEAU, sources):
            if tops[p] >= 0:
                under[tops[p]] |= 1 << p
    kept = 0
    fitting = fitting_cards(pos, rules, 0)  # those that fits_foundation takes: asked only of them
    for src in range(sources):
        card = tops[src]
        if card < 0 or kept + 12 > MAX_CANDIDATES:
            continue
        suit, rank = card_suit(card), card_rank(card)
        # a card that fits both piles of its suit: the first will do
        if (fitting >> card) & 1:
            f = suit if fits_foundation(pos, rules, card, suit) else suit + 4
            out[kept] = src * N_PLACES + FOUNDATION_PLACE + f
            kept += 1
        if first_cell >= 0 and src >= TABLEAU:
            out[kept] = src * N_PLACES + first_cell
            kept += 1
        if build == R.BUILD_NONE:
            continue
        # the columns this card may go on: those topped by a card it fits on, in order
        targets = 0
        if build == R.BUILD_SUIT_UP_OR_DOWN:
            if rank > 0:
                targets |= under[card - 1]
            if rank < 12:
                targets |= under[card + 1]
        elif rank < 12:  # BUILD_DOWN_ALTERNATE_COLOUR: on the next rank up, other colour
            red = suit == 1 or suit == 2
            for other in range(4):
                if (other == 1 or other == 2) != red:
                    targets |= under[other * 13 + rank + 1]
        if first_column >= 0 and not (src >= TABLEAU and pos[LENGTHS + src] == 1):
            targets |= 1 << first_column  # one empty column stands for all; a lone card gains
        targets &= ~(1 << src)  # nothing there
        while targets != 0:  # its columns (bits TABLEAU..sources-1), the lowest first
            out[kept] = src * N_PLACES + trailing_zeros(targets)
            kept += 1
            targets &= targets - 1
    if pos[LENGTHS + STOCK] > 0:
        out[kept] = DEAL
        kept += 1
    if can_redeal(pos, rules):
        out[kept] = REDEAL
        kept += 1
    going = cards_going_home(pos, rules, fitting)
    if going != fitting:  # a suit with 13 cards home, whose cards go home by transfer plays
        for src in range(sources):
            card = tops[src]
            if card < 0 or suit_home(pos, card_suit(card)) != 13 or kept >= MAX_CANDIDATES:
                continue
            if not (fits_foundation(pos, rules, card, card_suit(card))
                    or fits_foundation(pos, rules, card, card_suit(card) + 4)):
                out[kept] = TRANSFER_PLAY + src
                kept += 1
    # insertion sort by rank, stable: few moves, and the order decides the search's speed
    seed = info[ORDER_SEED]
    for i in range(kept):
        ranks[i] = move_rank(pos, rules, out[i], free_cells, going)
        if seed != 0:
            ranks[i] += (mix(seed * 1000003 + info[NODES] * 257 + i) & 0x7FFFFFFF) % JITTER
    for i in range(1, kept):
        move, rank = out[i], ranks[i]
        j = i - 1
        while j >= 0 and ranks[j] > rank:
            out[j + 1] = out[j]
            ranks[j + 1] = ranks[j]
            j -= 1
        out[j + 1] = move
        ranks[j + 1] = rank
    return kept


@jit_inline
def keep_best(pos, line, length, best, info):
    cards = foundation_cards(pos)
    if cards > info[BEST_CARDS] or (cards == info[BEST_CARDS] and length < info[BEST_LENGTH]):
        info[BEST_CARDS] = cards
        info[BEST_LENGTH] = length
        for i in range(length):
            best[i] = line[i]
