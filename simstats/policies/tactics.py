"""Compiled building blocks shared by the built-in policies: copying an observation into a
scratch position, playing every foundation move, and scoring a position.

They work on observation arrays only: a card the player cannot see is HIDDEN and never moved.
"""

from __future__ import annotations

import numpy as np

from ..engine import rules as R
from ..engine.cards import DECK_SIZE, HIDDEN, card_rank, card_suit
from ..engine.deals import below
from ..engine.moves import (
    apply_move,
    can_place,
    can_redeal,
    copy_position,
    fits_foundation,
    foundation_size,
    is_down_foundation,
    is_source,
    pile_card,
    pile_size,
    pile_top,
    set_pile_card,
)
from ..engine.state import (
    DEAL,
    FOUNDATION_PLACE,
    N_PLACES,
    NO_MOVE,
    REDEAL,
    SIZE,
    STOCK,
    TABLEAU,
    pile_span,
)
from ..jit import jit, jit_inline
from ..search import pile_hash
from . import api

SEEN_SLOTS = 4096  # positions a policy can remember in one deal (the move guard is 2,000)


def _hide_stock(positions: np.ndarray) -> None:
    positions[..., pile_span(STOCK)] = HIDDEN


def positions_field(rows: int) -> api.Field:
    """Room for `rows` positions to compute on (their stock slots hidden, as an observation's)."""
    return api.array(np.int16, (rows, SIZE), init=_hide_stock)


def position_field() -> api.Field:
    """Room for one position to compute on (its stock slots hidden, as an observation's)."""
    return api.array(np.int16, SIZE, init=_hide_stock)


def seen_field(notes: int = 0, init=None) -> api.Field:
    """The positions met in this deal (remember, was_seen), then `notes` slots of the policy's
    own after SEEN_SLOTS (lookahead: the line it follows), set by `init`."""
    return api.array(np.int64, SEEN_SLOTS + notes, init=init)


@jit
def position_key(pos):
    """A 62-bit fingerprint of the visible position (piles, foundations), never 0; its piles
    hashed as the search hashes them (solver.pile_hash)."""
    h = 1469598103934665603
    for p in range(STOCK):
        h = (h ^ pile_hash(pos, p) ^ p) * 1099511628211
    for f in range(8):
        h = (h ^ foundation_size(pos, f)) * 1099511628211
    return (h & 0x3FFFFFFFFFFFFFFF) | 1


@jit_inline
def slot_of(seen, key):
    """Where `key` is in the open-addressing set `seen`, or the empty slot it would take
    (-1 if the set is full)."""
    slot = key % SEEN_SLOTS
    for _ in range(SEEN_SLOTS):
        if seen[slot] == key or seen[slot] == 0:
            return slot
        slot = (slot + 1) % SEEN_SLOTS
    return -1


@jit
def remember(seen, key):
    """Add a position key to the set `seen`."""
    slot = slot_of(seen, key)
    if slot >= 0:
        seen[slot] = key


@jit
def was_seen(seen, key):
    slot = slot_of(seen, key)
    return slot >= 0 and seen[slot] == key


@jit_inline
def unseen_in_play(known):
    """Cards in play, the stock's included, that the player has never seen (0: every card that
    matters is seen: the stock is out, or it is a redeal's, rebuilt from memory)."""
    n = 0
    for p in range(STOCK + 1):
        for k in range(pile_size(known, p)):
            n += pile_card(known, p, k) == HIDDEN
    return n


@jit_inline
def deal_or_redeal(pos, rules):
    """When nothing better is left: deal, else redeal, else stop (docs/rules.md 9.2-9.4)."""
    if pile_size(pos, STOCK) > 0:
        return DEAL
    if can_redeal(pos, rules):
        return REDEAL
    return NO_MOVE


@jit_inline
def visible_top(pos, rules, src):
    """The top card of reserve or column place `src` if the player sees one there, else -1."""
    if not is_source(rules, src):
        return -1
    card = pile_top(pos, src)
    return -1 if card == HIDDEN else card


@jit_inline
def first_foundation_move(pos, rules):
    """docs/rules.md 9.1: sources R0..R7 then T0..T7, for suit s F(s) before F(s+4)."""
    for src in range(FOUNDATION_PLACE):
        card = visible_top(pos, rules, src)
        if card < 0:
            continue
        for dst in (FOUNDATION_PLACE + card_suit(card), FOUNDATION_PLACE + card_suit(card) + 4):
            if can_place(pos, rules, card, src, dst):
                return src * N_PLACES + dst
    return NO_MOVE


@jit_inline
def is_foundation_move(move):
    return 0 <= move < N_PLACES * N_PLACES and move % N_PLACES >= FOUNDATION_PLACE and (
        move // N_PLACES < FOUNDATION_PLACE)


@jit_inline
def moves_visible_card(pos, rules, move):
    """A move of a card the player sees (never a HIDDEN card, never deal or redeal)."""
    if move < 0 or move >= N_PLACES * N_PLACES:
        return False
    src = move // N_PLACES
    if src >= FOUNDATION_PLACE:
        return True
    return pile_top(pos, src) != HIDDEN


@jit_inline
def needed_rank(pos, rules, f):
    """The rank foundation f takes next, or -1 when it is full."""
    n = foundation_size(pos, f)
    if n >= 13:
        return -1
    if f >= 4 and rules[R.DOWN_FOUNDATIONS]:
        return 12 - n
    return n


@jit_inline
def cards_before(pos, rules, card):
    """How many cards must go home before `card` fits a foundation of its suit (13: never)."""
    fewest = 13
    for f in (card_suit(card), card_suit(card) + 4):
        need = needed_rank(pos, rules, f)
        if need < 0:
            continue
        if f >= 4 and rules[R.DOWN_FOUNDATIONS]:
            gap = need - card_rank(card)
        else:
            gap = card_rank(card) - need
        if 0 <= gap < fewest:
            fewest = gap
    return fewest


@jit
def evaluate(pos, rules, weights, work):
    """Cards home, plus weighted free cells, empty columns and cards near home, minus the
    cards that cover the next card each foundation needs (digging still to do). `weights`: a
    parameter record with fields free, empty, near, dig and wait. `work`: 16 int64 of
    scratch."""
    score = 0.0
    for f in range(8):
        score += foundation_size(pos, f)
    if rules[R.RESERVE_CELLS]:
        for r in range(8):
            if pile_size(pos, r) == 0:
                score += weights.free
            elif weights.wait != 0.0:
                # a cell card waiting long for its foundation blocks the cell long
                score -= weights.wait * cards_before(pos, rules, pile_top(pos, r))
    n_columns = rules[R.N_COLUMNS]
    if rules[R.BUILD] != R.BUILD_NONE:
        for c in range(n_columns):
            if pile_size(pos, TABLEAU + c) == 0:
                score += weights.empty
    # cards one step from home: available, and would fit once one more card is home
    for src in range(FOUNDATION_PLACE):
        card = visible_top(pos, rules, src)
        if card < 0:
            continue
        for f in (card_suit(card), card_suit(card) + 4):
            need = needed_rank(pos, rules, f)
            if need < 0:
                continue
            step = 1 if f < 4 or not rules[R.DOWN_FOUNDATIONS] else -1
            if card_rank(card) == need + step:
                score += weights.near
                break
    # digging: for each foundation, the cards above the shallowest visible card it needs
    # (work[f]: the rank F(f) needs, work[8 + f]: the fewest cards above one), in one pass
    if weights.dig != 0.0:
        for f in range(8):
            work[f] = needed_rank(pos, rules, f)
            work[8 + f] = 99
        first = 0 if rules[R.DEAL_TO_RESERVE] else TABLEAU  # Kingsdown Eights' reserve piles
        for p in range(first, TABLEAU + n_columns):
            n = pile_size(pos, p)
            for k in range(n):
                card = pile_card(pos, p, k)
                if card == HIDDEN:
                    continue
                suit, rank, above = card_suit(card), card_rank(card), n - 1 - k
                if work[suit] == rank and above < work[8 + suit]:
                    work[8 + suit] = above
                if work[suit + 4] == rank and above < work[12 + suit]:
                    work[12 + suit] = above
        for f in range(8):
            if work[8 + f] < 99:
                score -= weights.dig * work[8 + f]
    return score


@jit
def play_home(pos, rules):
    """Play foundation moves (first fit, docs/rules.md 9.1 order) until none is left; count them."""
    played = 0
    while True:
        move = first_foundation_move(pos, rules)
        if move == NO_MOVE:
            return played
        apply_move(pos, rules, move)
        played += 1


@jit_inline
def fits_any_foundation(pos, rules, card):
    for f in (card_suit(card), card_suit(card) + 4):
        if fits_foundation(pos, rules, card, f):
            return True
    return False


# A sample's room (hidden_cards): the cards not seen, then from COUNTS how many of each.
COUNTS = DECK_SIZE  # room for every card of the deck
UNSEEN_SIZE = COUNTS + DECK_SIZE // 2


@jit
def hidden_cards(obs, rules, cards):
    """Write the cards the player has not seen into cards[0:n], in card order; return n. `obs`
    is an observation or what the player remembers (recall: a redeal's stock may be known)."""
    for c in range(DECK_SIZE // 2):
        cards[COUNTS + c] = 2
    for p in range(STOCK + 1):
        for k in range(pile_size(obs, p)):
            card = pile_card(obs, p, k)
            if card != HIDDEN:
                cards[COUNTS + card] -= 1
    for f in range(8):
        suit = f % 4
        for k in range(foundation_size(obs, f)):
            rank = 12 - k if is_down_foundation(rules, f) else k
            cards[COUNTS + suit * 13 + rank] -= 1
    n = 0
    for c in range(DECK_SIZE // 2):
        for _ in range(cards[COUNTS + c]):
            cards[n] = c
            n += 1
    return n


@jit
def sample_position(obs, rules, stream, cards, pos):
    """Copy `obs` into `pos` with its HIDDEN cards replaced by a random draw of the unseen
    cards (shuffled with `stream`); return how many slots were filled."""
    n = hidden_cards(obs, rules, cards)
    for i in range(n - 1, 0, -1):
        j = below(stream, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    copy_position(obs, pos)
    filled = 0
    for p in range(STOCK + 1):
        for k in range(pile_size(pos, p)):
            if pile_card(pos, p, k) == HIDDEN and filled < n:
                set_pile_card(pos, p, k, cards[filled])
                filled += 1
    return filled
