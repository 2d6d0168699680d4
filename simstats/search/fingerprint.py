"""Position fingerprints: a sum of the piles' parts (pile_part), kept per level so that a move
recomputes only the piles it touched; the stock's hash from hashes of its bottom cards; columns
that are interchangeable hashed alike; the foundations' part (home_key).
"""

from __future__ import annotations

import numpy as np

from ..engine import rules as R
from ..engine.state import (
    CAPACITY,
    DEAL,
    FOUNDATIONS,
    LENGTHS,
    N_PILES,
    N_PLACES,
    REDEALS,
    STOCK,
    TABLEAU,
)
from ..jit import jit_inline


@jit_inline
def mix(z):
    z = (z ^ (z >> 30)) * -4658895280553007687
    z = (z ^ (z >> 27)) * -7723592293110705685
    return z ^ (z >> 31)


@jit_inline
def columns_interchangeable(pos, rules):
    """Whether the columns' order can no longer matter: no deal, refill or redeal will treat
    them by their place (Kingsdown Eights deals to its reserve; Cicely's stock is out;
    Tournament's stock is out and no redeal is left)."""
    stock_out = pos[LENGTHS + STOCK] == 0
    return ((rules[R.DEAL_TO_RESERVE] != 0 or stock_out)
            and (rules[R.REFILL] == 0 or stock_out)
            and pos[REDEALS] >= rules[R.MAX_REDEALS])


FNV_OFFSET = 1469598103934665603
STOCK_EPOCHS = 8  # redeals the stock's hash is kept incrementally for; more: hashed in full
FNV_PRIME = 1099511628211


@jit_inline
def pile_hash(pos, p):
    h = FNV_OFFSET
    n = pos[LENGTHS + p]
    base = p * CAPACITY
    for k in range(n):
        h = (h ^ pos[base + k]) * FNV_PRIME
    return (h ^ n) * FNV_PRIME


@jit_inline
def hash_stock_cards(pos, prefix):
    """Fill the row of `prefix` for the redeals made with the stock as it is now, just laid out
    or redealt: the hash state after each card, bottom first. Until the next redeal the stock
    only loses cards from its top (deals, refills) or gets them back (undone), so its pile_hash
    is stock_hash at any length; a row is rewritten only by a redeal made again after the one
    that wrote it was undone."""
    redeals = pos[REDEALS]
    if redeals >= STOCK_EPOCHS:
        return
    h = FNV_OFFSET
    for k in range(pos[LENGTHS + STOCK]):
        h = (h ^ pos[STOCK * CAPACITY + k]) * FNV_PRIME
        prefix[STOCK + redeals, k] = h


@jit_inline
def hash_pile_from(pos, prefix, p, first):
    """Bring pile p's row of `prefix` (p below the stock) up to date from card `first` up: the
    hash state after each card, bottom first. A move changes a pile only at its top, so
    make and unmake rehash one card (a deal, redeal or refill: the piles it dealt to)."""
    h = prefix[p, first - 1] if first > 0 else FNV_OFFSET
    base = p * CAPACITY
    for k in range(first, pos[LENGTHS + p]):
        h = (h ^ pos[base + k]) * FNV_PRIME
        prefix[p, k] = h


@jit_inline
def kept_pile_hash(pos, prefix, p):
    """pile_hash of pile p from `prefix` (hash_pile_from, hash_stock_cards)."""
    redeals = pos[REDEALS]
    if p == STOCK and redeals >= STOCK_EPOCHS:
        return pile_hash(pos, STOCK)
    row = STOCK + redeals if p == STOCK else p
    n = pos[LENGTHS + p]
    h = prefix[row, n - 1] if n > 0 else FNV_OFFSET
    return (h ^ n) * FNV_PRIME


@jit_inline
def pile_part(pos, rules, p, prefix, symmetric_columns):
    """Pile p's part of the fingerprint (a sum of parts). What the rules treat alike counts
    once: a reserve cell's part is its card's, whatever the cell; columns whose order can no
    longer matter (columns_interchangeable) have parts that do not depend on which they are."""
    if p < TABLEAU and rules[R.RESERVE_CELLS]:
        return mix(pos[p * CAPACITY] + 7919) if pos[LENGTHS + p] > 0 else 0
    return part_of_hash(p, kept_pile_hash(pos, prefix, p), symmetric_columns)


@jit_inline
def part_of_hash(p, h, symmetric_columns):
    if TABLEAU <= p < STOCK and symmetric_columns:
        return mix(h)
    return mix(h + (p + 1) * -7046029254386353131)


@jit_inline
def part_without_top(pos, rules, prefix, p, symmetric_columns):
    """pile_part of pile p (below the stock) once its top card is gone."""
    if p < TABLEAU and rules[R.RESERVE_CELLS]:
        return 0
    n = pos[LENGTHS + p] - 1
    h = prefix[p, n - 1] if n > 0 else FNV_OFFSET
    return part_of_hash(p, (h ^ n) * FNV_PRIME, symmetric_columns)


@jit_inline
def part_with_card(pos, rules, prefix, p, card, symmetric_columns):
    """pile_part of pile p (below the stock) once `card` is put on it."""
    if p < TABLEAU and rules[R.RESERVE_CELLS]:
        return mix(card + 7919)
    n = pos[LENGTHS + p]
    h = prefix[p, n - 1] if n > 0 else FNV_OFFSET
    h = (h ^ card) * FNV_PRIME
    return part_of_hash(p, (h ^ (n + 1)) * FNV_PRIME, symmetric_columns)


@jit_inline
def update_pile_parts(pos, rules, parts, touched, prefix):
    """Bring `parts` (pile_part of every pile, then their sum) up to date for the piles in bit
    mask `touched`, which must be every pile when the stock or the redeals changed
    (columns_interchangeable may have changed with them)."""
    symmetric_columns = columns_interchangeable(pos, rules)
    total = parts[N_PILES]
    for p in range(N_PILES):
        if (touched >> p) & 1:
            part = pile_part(pos, rules, p, prefix, symmetric_columns)
            total += part - parts[p]
            parts[p] = part
    parts[N_PILES] = total


@jit_inline
def fingerprint(pos, rules, parts):
    """A 62-bit fingerprint of everything that decides the future: piles (stock included),
    foundations, redeals made, from the piles' parts and their sum kept up to date
    (update_pile_parts), so that piles no move touched are not hashed again. Also keeps the
    home_key in `parts` past the sum (a move that changes neither foundations nor stock then
    finds its position's fingerprint from its two piles' new parts: solve)."""
    home = home_key(pos, rules)
    parts[N_PILES + 1] = home
    return fingerprint_of(parts[N_PILES], home)


@jit_inline
def fingerprint_of(total, home):
    return (mix(total ^ mix(home + 0x5BD1E995)) & 0x3FFFFFFFFFFFFFFF) | 1


def suit_home_keys_table():
    """[2 * transfers + down, first, second]: home_key's byte for a suit whose two foundations
    hold `first` and `second` cards."""
    keys = np.zeros((4, 14, 14), dtype=np.int64)
    for kind in range(4):
        transfers, down = kind >= 2, kind % 2 == 1
        for first in range(14):
            for second in range(14):
                a, b = first, second
                if transfers and a + b == 13:
                    a, b = 13, 0  # every boundary of a suit with 13 home is one position
                elif not down and b > a:
                    a, b = b, a  # two piles built up from the ace
                keys[kind, first, second] = (a << 4) | b
    return keys


SUIT_HOME_KEYS = suit_home_keys_table()


@jit_inline
def home_key(pos, rules):
    """The foundations and redeals as one number: two foundations of a suit built the same way
    are sorted; every boundary of a suit with 13 cards home is one (transfers). Each suit's
    part is looked up (SUIT_HOME_KEYS): every fingerprint asks for it."""
    kind = (2 if rules[R.TRANSFERS] else 0) + (1 if rules[R.DOWN_FOUNDATIONS] else 0)
    home = 0
    for suit in range(4):
        home = (home << 8) | SUIT_HOME_KEYS[kind, pos[FOUNDATIONS + suit],
                                            pos[FOUNDATIONS + suit + 4]]
    return home | (np.int64(pos[REDEALS]) << 32)


ALL_PILES = (1 << N_PILES) - 1


@jit_inline
def piles_touched(move):
    """The piles a move may change, as a bit mask: its source and target, or every pile for a
    deal or a redeal (a refill from the stock shows in the stock's length)."""
    if move >= DEAL:
        return ALL_PILES
    src, dst = move // N_PLACES, move % N_PLACES
    touched = 0
    if src < STOCK:  # places below the foundations are piles of the same number
        touched |= 1 << src
    if dst < STOCK:
        touched |= 1 << dst
    return touched
