"""Hand-built positions for rule tests: piles written bottom first as card text."""

from __future__ import annotations

import numpy as np

from simstats.engine.cards import parse_card
from simstats.engine.games import GAMES, TOURNAMENT_RULES, get_game
from simstats.engine.moves import apply_move, is_legal, legal_moves
from simstats.engine.notation import move_text, parse_move
from simstats.engine.observe import Observation, blank_observation, observe
from simstats.engine.rules import BUILD_NONE
from simstats.engine.state import (
    CAPACITY,
    FOUNDATIONS,
    LENGTHS,
    MAX_LEGAL_MOVES,
    REDEALS,
    STOCK,
    TABLEAU,
    new_state,
)


def games_where(**fields) -> tuple[str, ...]:
    """The registered games whose rules have these field values (games.py, engine/rules.py):
    tests take their games from the registry, so a new game is covered by its entry."""
    return tuple(g.id for g in GAMES.values()
                 if all(getattr(g.rules, name) == value for name, value in fields.items()))


ALL_GAMES = tuple(GAMES)
# Tournament's layout, dealing, refills and redeals, whatever the player sees.
TOURNAMENT_LIKE = games_where(**{name: value for name, value in vars(TOURNAMENT_RULES).items()
                                 if name != "hide_buried"})
WITH_TRANSFERS = games_where(transfers=True)
BUILDING = tuple(g for g in ALL_GAMES if get_game(g).rules.build != BUILD_NONE)


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def make_state(
    game: str,
    reserve: list[str] | None = None,
    tableau: list[str] | None = None,
    stock: str = "",
    foundations: list[int] | None = None,
    redeals: int = 0,
) -> np.ndarray:
    """A position: reserve piles and columns bottom first, the stock first-to-deal first,
    foundation card counts F0..F7. Cards need not add up to 104."""
    state = new_state()

    def put(pile: int, pile_cards: list[int]) -> None:
        state[pile * CAPACITY : pile * CAPACITY + len(pile_cards)] = pile_cards
        state[LENGTHS + pile] = len(pile_cards)

    for r, text in enumerate(reserve or []):
        put(r, cards(text))
    for c, text in enumerate(tableau or []):
        put(TABLEAU + c, cards(text))
    put(STOCK, cards(stock)[::-1])  # the stock's top is its last card
    for f, n in enumerate(foundations or []):
        state[FOUNDATIONS + f] = n
    state[REDEALS] = redeals
    return state


def pile(state: np.ndarray, place: str) -> list[str]:
    """A pile's cards bottom first ('T0', 'R3'), or the stock first-to-deal first ('stock')."""
    from simstats.engine.cards import card_text

    index = STOCK if place == "stock" else (TABLEAU if place[0] == "T" else 0) + int(place[1])
    n = int(state[LENGTHS + index])
    out = [card_text(int(c)) for c in state[index * CAPACITY : index * CAPACITY + n]]
    return out[::-1] if place == "stock" else out


def legal(game: str, state: np.ndarray) -> set[str]:
    buffer = np.empty(MAX_LEGAL_MOVES, dtype=np.int64)
    n = legal_moves(state, get_game(game).array, buffer)
    return {move_text(int(m)) for m in buffer[:n]}


def can(game: str, state: np.ndarray, move: str) -> bool:
    return bool(is_legal(state, get_game(game).array, parse_move(move)))


def play(game: str, state: np.ndarray, move: str) -> str | None:
    """Apply a move after checking it is legal; return the card moved (text) or None."""
    from simstats.engine.cards import card_text

    assert can(game, state, move), f"{move} should be legal"
    card = apply_move(state, get_game(game).array, parse_move(move))
    return card_text(int(card)) if card >= 0 else None


def observation(game: str, state: np.ndarray) -> Observation:
    g = get_game(game)
    obs = blank_observation()
    observe(state, g.array, obs)
    return Observation(g.id, g.array, obs)
