"""The rules of docs/rules.md as compiled functions over a position array: layout, legal moves,
applying a move, and the end of a game. The one rules implementation, used by the compiled loop
and the move-by-move path alike. No I/O, no randomness: the deck arrives shuffled.

Legality reads only what a player sees (pile tops, lengths, stock size, redeals), so the same
functions answer for a state and for an observation.
"""

from __future__ import annotations

import numpy as np

from ..jit import jit, jit_inline
from . import rules as R
from .cards import DECK_SIZE, card_rank, card_suit, is_red
from .state import (
    CAPACITY,
    DEAL,
    DEALS,
    FOUNDATION_PLACE,
    FOUNDATIONS,
    LENGTHS,
    MOVE_LIMIT,
    MOVE_LIMIT_REACHED,
    MOVES,
    N_PLACES,
    NO_MOVES,
    ONGOING,
    REDEAL,
    REDEALS,
    RESERVE,
    STOCK,
    TABLEAU,
    WON,
)

# Reading a position by what it holds, for the built-in policies and the API's view accessors:
# only the engine and the search compute offsets into the layout (tests/package/test_layers.py).

@jit_inline
def pile_size(s, pile):
    """Cards in a pile: a reserve place, a column or the stock."""
    return s[LENGTHS + pile]


@jit_inline
def pile_card(s, pile, k):
    """Card k (0 = bottom) of a pile."""
    return s[pile * CAPACITY + k]


@jit_inline
def set_pile_card(s, pile, k, card):
    """Put `card` at place k of a pile (a sample filling in a hidden card)."""
    s[pile * CAPACITY + k] = card


@jit_inline
def foundation_size(s, f):
    """Cards on foundation f."""
    return s[FOUNDATIONS + f]


@jit_inline
def moves_made(s):
    return s[MOVES]


@jit_inline
def redeals_made(s):
    return s[REDEALS]


@jit_inline
def pile_top(s, pile):
    """The top card of a pile, or -1 when it is empty."""
    n = s[LENGTHS + pile]
    if n == 0:
        return -1
    return np.int64(s[pile * CAPACITY + n - 1])


@jit_inline
def push(s, pile, card):
    n = s[LENGTHS + pile]
    s[pile * CAPACITY + n] = card
    s[LENGTHS + pile] = n + 1


@jit_inline
def pop(s, pile):
    n = s[LENGTHS + pile] - 1
    s[LENGTHS + pile] = n
    return np.int64(s[pile * CAPACITY + n])


@jit_inline
def foundation_cards(s):
    total = 0
    for f in range(8):
        total += s[FOUNDATIONS + f]
    return total


@jit_inline
def is_down_foundation(rules, f):
    return f >= 4 and rules[R.DOWN_FOUNDATIONS] != 0


@jit_inline
def foundation_top(s, rules, f):
    """The top card of foundation f, or -1 when it is empty."""
    n = s[FOUNDATIONS + f]
    if n == 0:
        return -1
    suit = f % 4
    if is_down_foundation(rules, f):
        return suit * 13 + 13 - n
    return suit * 13 + n - 1


@jit_inline
def fits_foundation(s, rules, card, f):
    """In suit; an up foundation takes the next rank from the ace, a down one from the king."""
    if card_suit(card) != f % 4:
        return False
    n = s[FOUNDATIONS + f]
    if is_down_foundation(rules, f):
        return card_rank(card) == 12 - n
    return card_rank(card) == n


@jit_inline
def fits_column(rules, card, under):
    """Whether `card` may be built on `under` in the tableau."""
    build = rules[R.BUILD]
    if build == R.BUILD_SUIT_UP_OR_DOWN:
        return card_suit(card) == card_suit(under) and abs(card_rank(card) - card_rank(under)) == 1
    if build == R.BUILD_DOWN_ALTERNATE_COLOUR:
        return is_red(card) != is_red(under) and card_rank(card) == card_rank(under) - 1
    return False


@jit_inline
def is_source(rules, place):
    if place < TABLEAU:
        return True
    if place < FOUNDATION_PLACE:
        return place - TABLEAU < rules[R.N_COLUMNS]
    return rules[R.TRANSFERS] != 0


@jit_inline
def source_top(s, rules, place):
    if place >= FOUNDATION_PLACE:
        return foundation_top(s, rules, place - FOUNDATION_PLACE)
    return pile_top(s, place)


@jit_inline
def can_place(s, rules, card, src, dst):
    """Whether `card`, the top card of place `src`, may move to place `dst`."""
    if dst >= FOUNDATION_PLACE:
        # in suit, so a transfer can only go to the other foundation of the card's suit
        return src != dst and fits_foundation(s, rules, card, dst - FOUNDATION_PLACE)
    if src >= FOUNDATION_PLACE:
        return False  # cards never leave the foundations except by a transfer
    if dst >= TABLEAU:
        if dst == src or dst - TABLEAU >= rules[R.N_COLUMNS] or rules[R.BUILD] == R.BUILD_NONE:
            return False
        under = pile_top(s, dst)
        if under < 0:
            return True  # an empty column takes any available card
        return fits_column(rules, card, under)
    # dst is a reserve place: only an empty cell, only from a column
    return rules[R.RESERVE_CELLS] != 0 and src >= TABLEAU and s[LENGTHS + dst] == 0


@jit
def copy_position(src, dst):
    """Copy a position's piles in use (the stock's too: in an observation its cards are
    HIDDEN), lengths, foundations and counters: the cheap copy searches make at every step."""
    for p in range(STOCK + 1):
        n = src[LENGTHS + p]
        base = p * CAPACITY
        for k in range(n):
            dst[base + k] = src[base + k]
    for i in range(LENGTHS, src.shape[0]):
        dst[i] = src[i]


@jit_inline
def tableau_is_empty(s, rules):
    for c in range(rules[R.N_COLUMNS]):
        if s[LENGTHS + TABLEAU + c] > 0:
            return False
    return True


@jit_inline
def can_redeal(s, rules):
    return (
        s[LENGTHS + STOCK] == 0
        and s[REDEALS] < rules[R.MAX_REDEALS]
        and not tableau_is_empty(s, rules)
    )


@jit_inline
def is_legal(s, rules, move):
    if move == DEAL:
        return s[LENGTHS + STOCK] > 0
    if move == REDEAL:
        return can_redeal(s, rules)
    if move < 0 or move >= DEAL:
        return False
    src = move // N_PLACES
    dst = move % N_PLACES
    if not is_source(rules, src):
        return False
    card = source_top(s, rules, src)
    if card < 0:
        return False
    return can_place(s, rules, card, src, dst)


@jit
def legal_moves(s, rules, out):
    """Write every legal move into `out` (sources R, T, F; then deal, redeal); return the count."""
    n = 0
    for src in range(N_PLACES):
        if not is_source(rules, src):
            continue
        card = source_top(s, rules, src)
        if card < 0:
            continue
        for dst in range(FOUNDATION_PLACE, N_PLACES):
            if can_place(s, rules, card, src, dst):
                out[n] = src * N_PLACES + dst
                n += 1
        for dst in range(FOUNDATION_PLACE):
            if can_place(s, rules, card, src, dst):
                out[n] = src * N_PLACES + dst
                n += 1
    if s[LENGTHS + STOCK] > 0:
        out[n] = DEAL
        n += 1
    if can_redeal(s, rules):
        out[n] = REDEAL
        n += 1
    return n


@jit_inline
def has_legal_move(s, rules):
    if s[LENGTHS + STOCK] > 0 or can_redeal(s, rules):
        return True
    for src in range(N_PLACES):
        if not is_source(rules, src):
            continue
        card = source_top(s, rules, src)
        if card < 0:
            continue
        for dst in range(N_PLACES):
            if can_place(s, rules, card, src, dst):
                return True
    return False


@jit_inline
def deal_round(s, first_pile, n_piles, per_pile, by_row):
    """Deal from the stock onto piles first_pile.., per_pile cards each, until the stock is out:
    by rows (a card to each pile in turn, per_pile times) or a pile's cards at once. Cards are
    copied where round_card puts them, not popped and pushed one at a time (measured: a
    Tournament deal and its undo took 120 ns card by card)."""
    stock = s[LENGTHS + STOCK]
    dealt = min(stock, n_piles * per_pile)
    top = STOCK * CAPACITY + stock - 1
    for i in range(n_piles):
        pile = first_pile + i
        n = s[LENGTHS + pile]
        got = round_share(n_piles, per_pile, by_row, i, dealt)
        for j in range(got):
            s[pile * CAPACITY + n + j] = s[top - round_card(n_piles, per_pile, by_row, i, j)]
        s[LENGTHS + pile] = n + got
    s[LENGTHS + STOCK] = stock - dealt


@jit_inline
def round_card(n_piles, per_pile, by_row, i, j):
    """Which card from the stock's top (0: the top card) a round deals as the j-th card of
    its i-th pile."""
    return j * n_piles + i if by_row else i * per_pile + j


@jit_inline
def round_share(n_piles, per_pile, by_row, i, dealt):
    """How many of a round's `dealt` cards its i-th pile gets."""
    if by_row:
        return dealt // n_piles + (1 if i < dealt % n_piles else 0)
    return min(per_pile, max(0, dealt - i * per_pile))


@jit_inline
def deal_piles(rules):
    """The piles a deal goes to: (the first, how many)."""
    if rules[R.DEAL_TO_RESERVE]:
        return RESERVE, 8
    return TABLEAU, rules[R.N_COLUMNS]


@jit_inline
def deal_share(rules, i, stock_before):
    """How many cards the i-th of deal_piles gets from a deal of a stock of `stock_before`."""
    n, per = deal_piles(rules)[1], rules[R.DEAL_PER_PILE]
    return round_share(n, per, rules[R.DEAL_BY_ROW] != 0, i, min(stock_before, n * per))


@jit
def deal(s, rules):
    """docs/rules.md 4.6, 6.6, 7.5: the stock onto the columns (or the reserve piles)."""
    first, n = deal_piles(rules)
    deal_round(s, first, n, rules[R.DEAL_PER_PILE], rules[R.DEAL_BY_ROW] != 0)


@jit
def reset(s):
    """Empty every pile and clear the counters, keeping the reshuffle count."""
    for p in range(STOCK + 1):
        s[LENGTHS + p] = 0
    for f in range(8):
        s[FOUNDATIONS + f] = 0
    s[MOVES] = 0
    s[DEALS] = 0
    s[REDEALS] = 0


@jit
def lay_out(s, rules, deck):
    """The opening layout of a deck (DECK_SIZE cards), deck[0] dealt first."""
    reset(s)
    for i in range(DECK_SIZE):
        s[STOCK * CAPACITY + i] = deck[103 - i]  # the stock's top is its last card
    s[LENGTHS + STOCK] = DECK_SIZE
    first_row = TABLEAU if rules[R.FIRST_ROW_TO_TABLEAU] else RESERVE
    deal_round(s, first_row, 8, 1, False)
    deal(s, rules)


@jit
def needs_reshuffle(rules, deck):
    """docs/rules.md 4.1: none of the first 8 cards is an ace or a king."""
    if not rules[R.NEEDS_ACE_OR_KING]:
        return False
    for i in range(8):
        rank = card_rank(deck[i])
        if rank == 0 or rank == 12:
            return False
    return True


@jit
def redeal(s, rules):
    """docs/rules.md 4.7: the new stock deals T0's cards bottom first, then T1's, ...; deal at
    once."""
    total = 0
    for c in range(rules[R.N_COLUMNS]):
        total += s[LENGTHS + TABLEAU + c]
    k = total  # fill the stock from its top (index total-1) downwards
    for c in range(rules[R.N_COLUMNS]):
        pile = TABLEAU + c
        for j in range(s[LENGTHS + pile]):
            k -= 1
            s[STOCK * CAPACITY + k] = s[pile * CAPACITY + j]
        s[LENGTHS + pile] = 0
    s[LENGTHS + STOCK] = total
    deal(s, rules)


@jit_inline
def take_card(s, rules, place):
    """Take the top card of a place (a foundation's is known by its count)."""
    if place >= FOUNDATION_PLACE:
        card = foundation_top(s, rules, place - FOUNDATION_PLACE)
        s[FOUNDATIONS + place - FOUNDATION_PLACE] -= 1
        return card
    return pop(s, place)


@jit_inline
def put_card(s, place, card):
    if place >= FOUNDATION_PLACE:
        s[FOUNDATIONS + place - FOUNDATION_PLACE] += 1
    else:
        push(s, place, card)


@jit_inline
def apply_move(s, rules, move):
    """Make a legal move; return the card moved, or -1 for deal and redeal."""
    s[MOVES] += 1
    if move == DEAL:
        s[DEALS] += 1
        deal(s, rules)
        return -1
    if move == REDEAL:
        s[REDEALS] += 1
        redeal(s, rules)
        return -1
    src = move // N_PLACES
    dst = move % N_PLACES
    card = take_card(s, rules, src)
    put_card(s, dst, card)
    # docs/rules.md 4.5: an emptied column is refilled at once from the stock
    if TABLEAU <= src < FOUNDATION_PLACE and s[LENGTHS + src] == 0 and rules[R.REFILL] > 0:
        deal_round(s, src, 1, rules[R.REFILL], False)
    return card


@jit_inline
def undo_token(s, rules, move):
    """What undo_move needs to take back `move`, read before it is made: the stock's length
    (a deal, or a refill of an emptied column, takes cards from it), or for a redeal the
    columns' lengths, 7 bits each (a pile never holds more than 104 cards)."""
    if move != REDEAL:
        return np.int64(s[LENGTHS + STOCK])
    token = np.int64(0)
    for c in range(rules[R.N_COLUMNS]):
        token |= np.int64(s[LENGTHS + TABLEAU + c]) << (7 * c)
    return token


@jit_inline
def undo_deal_round(s, first_pile, n_piles, per_pile, by_row, stock_before):
    """Take back deal_round: the cards it dealt go back to the stock where they were."""
    dealt = min(stock_before, n_piles * per_pile)
    top = STOCK * CAPACITY + stock_before - 1
    for i in range(n_piles):
        pile = first_pile + i
        got = round_share(n_piles, per_pile, by_row, i, dealt)
        n = s[LENGTHS + pile] - got
        for j in range(got):
            s[top - round_card(n_piles, per_pile, by_row, i, j)] = s[pile * CAPACITY + n + j]
        s[LENGTHS + pile] = n
    s[LENGTHS + STOCK] = stock_before


@jit_inline
def undo_deal(s, rules, stock_before):
    first, n = deal_piles(rules)
    undo_deal_round(s, first, n, rules[R.DEAL_PER_PILE], rules[R.DEAL_BY_ROW] != 0,
                    stock_before)


@jit_inline
def undo_move(s, rules, move, token):
    """Take back `move`, the last move made on `s`, given undo_token(s, rules, move) as read
    before it: apply_move's exact inverse, so that a search can make and unmake moves in place
    instead of copying positions (tests/engine/test_properties.py checks every game both
    ways)."""
    s[MOVES] -= 1
    if move == DEAL:
        s[DEALS] -= 1
        undo_deal(s, rules, token)
        return
    if move == REDEAL:
        s[REDEALS] -= 1
        total = 0
        for c in range(rules[R.N_COLUMNS]):
            total += (token >> (7 * c)) & 127
        undo_deal(s, rules, total)
        k = total  # redeal filled the stock from its top down with T0's cards bottom first, ...
        for c in range(rules[R.N_COLUMNS]):
            pile = TABLEAU + c
            n = (token >> (7 * c)) & 127
            for j in range(n):
                k -= 1
                s[pile * CAPACITY + j] = s[STOCK * CAPACITY + k]
            s[LENGTHS + pile] = n
        s[LENGTHS + STOCK] = 0
        return
    src = move // N_PLACES
    dst = move % N_PLACES
    # an emptied column refilled from the stock gives those cards back first
    for _ in range(token - s[LENGTHS + STOCK]):
        push(s, STOCK, pop(s, src))
    put_card(s, src, take_card(s, rules, dst))


@jit_inline
def status(s, rules):
    """The `end` code if the game is over (won, no_moves, move_limit), else ONGOING."""
    if foundation_cards(s) == DECK_SIZE:
        return WON
    if not has_legal_move(s, rules):
        return NO_MOVES
    if s[MOVES] >= MOVE_LIMIT:
        return MOVE_LIMIT_REACHED
    return ONGOING
