"""Make and unmake moves in place on the searched position, the fingerprint's parts kept up to
date (make, unmake), and a move followed by the safe plays it allows (advance).
"""

from __future__ import annotations

from ..engine import rules as R
from ..engine.cards import card_rank, card_suit
from ..engine.moves import apply_move, deal_piles, deal_share, pile_top, undo_move, undo_token
from ..engine.state import (
    DEAL,
    FOUNDATION_PLACE,
    FOUNDATIONS,
    LENGTHS,
    N_PLACES,
    REDEAL,
    STOCK,
    TABLEAU,
)
from ..jit import jit, jit_inline
from .fingerprint import hash_pile_from, hash_stock_cards
from .memory import TRANSFER_PLAY
from .safe_moves import safe_move


@jit_inline
def rehash_after(pos, rules, prefix, move, stock_before, undone):
    """Bring `prefix` up to date after `move` was made or, if `undone`, taken back (stock_before:
    the stock's length before that): the one pile that gained a card, or every pile a deal,
    redeal or refill changed. Taking back a deal only shortens piles: nothing to do."""
    if move == DEAL:
        if not undone:  # the piles dealt to got cards on top: rehash those
            first, n = deal_piles(rules)
            for i in range(n):
                got = deal_share(rules, i, stock_before)
                if got > 0:
                    hash_pile_from(pos, prefix, first + i, pos[LENGTHS + first + i] - got)
        return
    if move == REDEAL:
        first = TABLEAU if rules[R.RESERVE_CELLS] else 0  # a cell's part is its card's
        for p in range(first, STOCK):
            hash_pile_from(pos, prefix, p, 0)
        if not undone:
            hash_stock_cards(pos, prefix)  # a new stock
        return
    # a pile that lost its top card keeps its row: the cards under it have not changed
    src, dst = move // N_PLACES, move % N_PLACES
    gained = src if undone else dst  # the pile the card went onto
    if gained < STOCK:
        hash_pile_from(pos, prefix, gained, pos[LENGTHS + gained] - 1)
    if not undone and src < STOCK and pos[LENGTHS + STOCK] != stock_before:
        hash_pile_from(pos, prefix, src, 0)  # emptied, and refilled from the stock


@jit_inline
def make(pos, rules, move, line, undo, length, prefix):
    """Make `move`, appending it to `line` and what takes it back to `undo`; the new length."""
    stock = pos[LENGTHS + STOCK]
    undo[length] = undo_token(pos, rules, move)
    apply_move(pos, rules, move)
    rehash_after(pos, rules, prefix, move, stock, False)
    line[length] = move
    return length + 1


@jit
def unmake(pos, rules, line, undo, start, length, prefix):
    """Take back the moves line[start:length], last first."""
    for i in range(length - 1, start - 1, -1):
        stock = pos[LENGTHS + STOCK]
        undo_move(pos, rules, line[i], undo[i])
        rehash_after(pos, rules, prefix, line[i], stock, True)


@jit
def advance(pos, rules, eager, move, line, undo, length, prefix, safe_plays, cap):
    """Make a candidate `move` (a transfer play as its transfers, then its play; -1: none) and
    then, if `safe_plays`, every safe move, appending the moves made to `line`, at most `cap`
    moves in all; the new line length. The search makes moves here only, so that their code is
    compiled into it once and a position costs one call, not one per move (measured: calls were
    a third of its time)."""
    while length < cap:
        if move >= TRANSFER_PLAY:
            step = transfer_step(pos, move)
            if step // N_PLACES == move - TRANSFER_PLAY:
                move = -1  # the card's own play: the transfer play is done
        elif move >= 0:
            step, move = move, -1
        elif safe_plays:
            step = safe_move(pos, rules, eager)
            if step < 0:
                break
        else:
            break
        length = make(pos, rules, step, line, undo, length, prefix)
    return length


@jit_inline
def transfer_step(pos, move):
    """The next move of transfer play `move`: a transfer that brings its suit's boundary to the
    card's rank (the up pile holds the ranks below its count, the down pile the rest), then the
    card's play onto the up pile."""
    src = move - TRANSFER_PLAY
    card = pile_top(pos, src)
    suit, rank = card_suit(card), card_rank(card)
    up, down = FOUNDATION_PLACE + suit, FOUNDATION_PLACE + suit + 4
    if pos[FOUNDATIONS + suit] > rank:
        return up * N_PLACES + down
    if pos[FOUNDATIONS + suit] < rank:
        return down * N_PLACES + up
    return src * N_PLACES + up
