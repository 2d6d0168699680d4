"""Reading the engine's state as card text, and the check that every card stays somewhere: used
by the property tests and by the test of docs/adding-a-game.md's example game."""

from __future__ import annotations

from collections import Counter

import numpy as np

from simstats.engine.cards import RANKS, SUITS, card_text
from simstats.engine.games import get_game
from simstats.engine.state import CAPACITY, FOUNDATIONS, LENGTHS, RESERVE, STOCK, TABLEAU

ALL_CARDS = [rank + suit for suit in SUITS for rank in RANKS]


def pile_cards(state: np.ndarray, pile: int) -> list[str]:
    """A pile bottom first; the stock first-to-deal first."""
    n = int(state[LENGTHS + pile])
    out = [card_text(int(c)) for c in state[pile * CAPACITY : pile * CAPACITY + n]]
    return out[::-1] if pile == STOCK else out


def foundation_cards_implied(game: str, state: np.ndarray) -> list[list[str]]:
    """The cards on F0..F7 as their counts imply: up from the ace, or down from the king."""
    out = []
    for f in range(8):
        n = int(state[FOUNDATIONS + f])
        assert 0 <= n <= 13
        suit = SUITS[f % 4]
        down = f >= 4 and get_game(game).rules.down_foundations
        ranks = RANKS[::-1][:n] if down else RANKS[:n]
        out.append([rank + suit for rank in ranks])
    return out


def check_conservation(game: str, state: np.ndarray) -> None:
    """All 104 cards are somewhere, each of the 52 cards exactly twice."""
    cards = [c for pile in range(STOCK + 1) for c in pile_cards(state, pile)]
    cards += [c for f in foundation_cards_implied(game, state) for c in f]
    assert len(cards) == 104
    counts = Counter(cards)
    assert set(counts) == set(ALL_CARDS)
    assert set(counts.values()) == {2}
    n_columns = int(get_game(game).array[0])
    for c in range(n_columns, 8):  # the unused columns of Tournament stay empty
        assert state[LENGTHS + TABLEAU + c] == 0
    if get_game(game).rules.reserve_cells:  # reserve cells hold at most one card
        assert all(state[LENGTHS + RESERVE + r] <= 1 for r in range(8))
