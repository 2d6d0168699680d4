"""Helpers shared by the rule tests in tests/engine/ (one small hand-built position per rule
sentence of docs/rules.md sections 2-8): decks as card text, positions laid out from them, and
test policies. Piles are written bottom first; the stock first-to-deal first."""

from __future__ import annotations

import numpy as np
from positions import ALL_GAMES

from simstats.engine.cards import RANKS, SUITS, card_text, parse_card
from simstats.engine.deals import deal_deck
from simstats.engine.games import get_game
from simstats.engine.moves import lay_out, status
from simstats.engine.state import new_state
from simstats.policies import PolicySpec

GAMES = ALL_GAMES
TWO_DECKS = [rank + suit for suit in SUITS for rank in RANKS] * 2

# 24 and 32 distinct stock cards for deal tests
STOCK_24 = "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
STOCK_32 = STOCK_24 + " 2S 3S 4S 5S 6S 7S 8S 9S"


def rules(game: str) -> np.ndarray:
    return get_game(game).array


def end(game: str, state: np.ndarray) -> int:
    return int(status(state, rules(game)))


def seeded_deck(game: str, seed: int, deal: int) -> tuple[list[str], int]:
    deck, reshuffles = deal_deck(rules(game), seed, deal)
    return [card_text(int(c)) for c in deck], reshuffles


def laid_out(game: str, deck: list[str]) -> np.ndarray:
    state = new_state()
    lay_out(state, rules(game), np.asarray([parse_card(c) for c in deck], dtype=np.int16))
    return state


def from_source(moves: set[str], source: str) -> set[str]:
    return {m for m in moves if m.startswith(source + ">")}


def spec(name: str, factory) -> PolicySpec:
    return PolicySpec(name, f"test policy {name}", factory)
