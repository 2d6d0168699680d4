"""Look-ups before a move: the fingerprint a quiet move, a play home or a move with its safe
plays leads to, read without making it (expand, chain_key), so that positions met already are
skipped before they are made.
"""

from __future__ import annotations

import numpy as np

from ..engine import rules as R
from ..engine.cards import DECK_SIZE, card_rank, card_suit
from ..engine.moves import foundation_cards
from ..engine.state import (
    CAPACITY,
    DEAL,
    FOUNDATION_PLACE,
    FOUNDATIONS,
    LENGTHS,
    N_PILES,
    N_PLACES,
    STOCK,
    TABLEAU,
)
from ..jit import jit, jit_inline, prefetch_row, trailing_zeros
from .fingerprint import (
    columns_interchangeable,
    fingerprint_of,
    home_key,
    part_with_card,
    part_without_top,
    pile_part,
)
from .memory import TRANSFER_PLAY
from .order import RANKS_AT, candidates
from .safe_moves import safe_cards, safe_move


@jit_inline
def quiet_move(pos, rules, reserve_cards, column_cards, move):
    """Whether `move` is one card from a pile to a pile (not home) that neither empties a column
    the stock refills nor lets a safe play follow (the position before it has none, so only
    the two new top cards could; `reserve_cards`, `column_cards`: the position's safe_cards)."""
    if move >= DEAL:
        return False
    src, dst = move // N_PLACES, move % N_PLACES
    if dst >= STOCK or src >= STOCK:
        return False
    n = pos[LENGTHS + src]
    if (n == 1 and src >= TABLEAU and rules[R.REFILL] > 0
            and pos[LENGTHS + STOCK] > 0):
        return False
    if ((reserve_cards if dst < TABLEAU else column_cards) >> pos[src * CAPACITY + n - 1]) & 1:
        return False
    return not (n >= 2 and ((reserve_cards if src < TABLEAU else column_cards)
                            >> pos[src * CAPACITY + n - 2]) & 1)


@jit_inline
def quiet_parts(pos, rules, prefix, move, symmetric_columns):
    """The new parts of the two piles a quiet_move changes: (source's, target's)."""
    src, dst = move // N_PLACES, move % N_PLACES
    card = np.int64(pos[src * CAPACITY + pos[LENGTHS + src] - 1])
    return (part_without_top(pos, rules, prefix, src, symmetric_columns),
            part_with_card(pos, rules, prefix, dst, card, symmetric_columns))


@jit
def expand(pos, rules, eager, scratch, moves, keys, parts, prefix, table, info, room):
    """The candidates of the position at a level, in `moves`, their count returned; for each
    quiet_move, and each play home that is the whole step (quiet_play_home_key), the
    fingerprint it leads to in `keys`; for a move that safe plays follow, minus the fingerprint
    it and they reach (chain_key, within `room` moves); 0 for the others (deals). Each table
    slot is fetched ahead: most are looked up in a row, when they reach positions met already
    (measured: 69% of quiet moves in Tournament; plays home read ahead: Tournament's exact
    search 11% faster; chains read here rather than when tried: `solver` 4-6% faster)."""
    n = candidates(pos, rules, scratch, moves, info)
    mask = table.shape[0] - 1
    reserve_cards, column_cards = safe_cards(pos, rules, eager)  # the same for every candidate
    symmetric_columns = columns_interchangeable(pos, rules)
    for i in range(n):
        move = moves[i]
        key = 0  # no read-ahead (a fingerprint is never 0)
        if quiet_move(pos, rules, reserve_cards, column_cards, move):
            src_part, dst_part = quiet_parts(pos, rules, prefix, move, symmetric_columns)
            src, dst = move // N_PLACES, move % N_PLACES
            key = fingerprint_of(parts[N_PILES] - parts[src] - parts[dst] + src_part + dst_part,
                                 parts[N_PILES + 1])
        elif move < DEAL and move % N_PLACES >= FOUNDATION_PLACE:
            key = quiet_play_home_key(pos, rules, eager, prefix, parts, move,
                                      symmetric_columns)
        elif move >= TRANSFER_PLAY and not eager:  # eager: a safe play nearly always follows
            key = quiet_transfer_play_key(pos, rules, eager, prefix, parts, move,
                                          symmetric_columns)
        if key == 0:
            key = -chain_key(pos, rules, eager, prefix, parts, move, room, symmetric_columns,
                             scratch)
        keys[i] = key
        if key != 0:
            prefetch_row(table, abs(key) & mask)
    return n


@jit_inline
def quiet_transfer_play_key(pos, rules, eager, prefix, parts, move, symmetric_columns):
    """quiet_play_home_key for a transfer play (its transfers and the card's play home): with
    13 cards of the suit home, the up pile ends holding the card's rank and those below it, the
    down pile the rest (transfer_step); measured: Tournament's exact search makes 0.32 of them
    a position, 6.2 moves each, and 91% reach a position met already."""
    src = move - TRANSFER_PLAY
    card = pos[src * CAPACITY + pos[LENGTHS + src] - 1]
    rank = card_rank(card)
    return key_with_top_home(pos, rules, eager, prefix, parts, src, card_suit(card), rank + 1,
                             13 - rank, symmetric_columns)


@jit_inline
def quiet_play_home_key(pos, rules, eager, prefix, parts, move, symmetric_columns):
    """The fingerprint a play home from a pile leads to, read without making it, when it is
    the whole step (key_with_top_home), else 0."""
    src, f = move // N_PLACES, move % N_PLACES - FOUNDATION_PLACE
    if src >= STOCK:
        return 0
    suit = f % 4
    up, down = pos[FOUNDATIONS + suit], pos[FOUNDATIONS + suit + 4]
    if f < 4:
        up += 1
    else:
        down += 1
    return key_with_top_home(pos, rules, eager, prefix, parts, src, suit, up, down,
                             symmetric_columns)


@jit_inline
def key_with_top_home(pos, rules, eager, prefix, parts, src, suit, up, down,
                      symmetric_columns):
    """The fingerprint reached when pile `src`'s top card goes home and `suit`'s up and down
    foundations then hold `up` and `down` cards, when that is the whole step: it does not win,
    empties no column the stock refills, and no safe play follows it (else 0). Tried with the
    card lifted and the foundations set in place, then put back."""
    n = pos[LENGTHS + src]
    if (foundation_cards(pos) + 1 == DECK_SIZE
            or (n == 1 and src >= TABLEAU and rules[R.REFILL] > 0
                and pos[LENGTHS + STOCK] > 0)):
        return 0
    total = parts[N_PILES] - parts[src] + part_without_top(pos, rules, prefix, src,
                                                           symmetric_columns)
    up_before, down_before = pos[FOUNDATIONS + suit], pos[FOUNDATIONS + suit + 4]
    pos[LENGTHS + src] = n - 1
    pos[FOUNDATIONS + suit] = up
    pos[FOUNDATIONS + suit + 4] = down
    key = 0
    if safe_move(pos, rules, eager) < 0:
        key = fingerprint_of(total, home_key(pos, rules))
    pos[FOUNDATIONS + suit + 4] = down_before
    pos[FOUNDATIONS + suit] = up_before
    pos[LENGTHS + src] = n
    return key


@jit_inline
def chain_key(pos, rules, eager, prefix, parts, move, room, symmetric_columns, scratch):
    """The fingerprint of the position that advance reaches by `move` (one card from a pile to
    a pile or home, or a transfer play) and the safe plays that follow it, read without making
    them: the cards are lifted and the foundations set in place (logged in `scratch`), then put
    back. 0 when the moves could change more than piles' tops and the foundations (a column
    emptied that the stock refills), win, or not fit in `room` moves (advance's cap).
    Measured: in Tournament's eager searches, most moves followed by safe plays reach a
    position met already, and were made and taken back only to find that out."""
    if move >= TRANSFER_PLAY:
        src = move - TRANSFER_PLAY
        dst = FOUNDATION_PLACE
    elif move >= DEAL:
        return 0
    else:
        src, dst = move // N_PLACES, move % N_PLACES
    if src >= STOCK:
        return 0
    refills = rules[R.REFILL] > 0 and pos[LENGTHS + STOCK] > 0
    n = pos[LENGTHS + src]
    if n == 1 and src >= TABLEAU and refills:
        return 0
    home = foundation_cards(pos)
    card = np.int64(pos[src * CAPACITY + n - 1])
    suit = card_suit(card)
    up_before, down_before = pos[FOUNDATIONS + suit], pos[FOUNDATIONS + suit + 4]
    dst_length, dst_slot, dst_part = 0, 0, 0
    if move >= TRANSFER_PLAY:  # its transfers, then the card onto the up pile (transfer_step)
        rank = card_rank(card)
        steps = abs(up_before - rank) + 1
        pos[FOUNDATIONS + suit] = rank + 1
        pos[FOUNDATIONS + suit + 4] = 13 - rank
        home += 1
    elif dst >= FOUNDATION_PLACE:
        steps = 1
        pos[FOUNDATIONS + dst - FOUNDATION_PLACE] += 1
        home += 1
    else:
        steps = 1
        dst_part = part_with_card(pos, rules, prefix, dst, card, symmetric_columns)  # if kept
        dst_length = pos[LENGTHS + dst]
        dst_slot = pos[dst * CAPACITY + dst_length]
        pos[dst * CAPACITY + dst_length] = card
        pos[LENGTHS + dst] = dst_length + 1
    pos[LENGTHS + src] = n - 1
    touched = 1 << src
    plays = 0
    fits = steps <= room and home < DECK_SIZE
    while fits:
        step = safe_move(pos, rules, eager)
        if step < 0:
            break
        p, f = step // N_PLACES, step % N_PLACES - FOUNDATION_PLACE
        m = pos[LENGTHS + p]
        if steps + plays + 1 > room or home + 1 == DECK_SIZE or (
                m == 1 and p >= TABLEAU and refills):
            fits = False
            break
        pos[LENGTHS + p] = m - 1
        pos[FOUNDATIONS + f] += 1
        home += 1
        scratch[RANKS_AT + plays] = step
        plays += 1
        touched |= 1 << p
    key = 0
    if fits:
        total = parts[N_PILES]
        if dst < FOUNDATION_PLACE:
            total -= parts[dst]
            if pos[LENGTHS + dst] > dst_length:  # the card stayed there
                total += dst_part
            else:  # it went home too: the pile's cards are its own, whose hashes are kept
                total += pile_part(pos, rules, dst, prefix, symmetric_columns)
            touched &= ~(1 << dst)
        while touched != 0:
            p = trailing_zeros(touched)
            total += pile_part(pos, rules, p, prefix, symmetric_columns) - parts[p]
            touched &= touched - 1
        key = fingerprint_of(total, home_key(pos, rules))
    for i in range(plays - 1, -1, -1):
        step = scratch[RANKS_AT + i]
        p, f = step // N_PLACES, step % N_PLACES - FOUNDATION_PLACE
        pos[LENGTHS + p] += 1
        pos[FOUNDATIONS + f] -= 1
    pos[LENGTHS + src] = n
    if dst < FOUNDATION_PLACE:
        pos[LENGTHS + dst] = dst_length
        pos[dst * CAPACITY + dst_length] = dst_slot
    pos[FOUNDATIONS + suit] = up_before
    pos[FOUNDATIONS + suit + 4] = down_before
    return key
