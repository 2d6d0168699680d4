"""docs/rules.md section 3 on how a game ends, for every game: won, no moves, the
move limit and resigned, and which end takes precedence."""

from __future__ import annotations

import numpy as np
import pytest
from positions import TOURNAMENT_LIKE, WITH_TRANSFERS, legal, make_state, observation, play
from rule_helpers import GAMES, TWO_DECKS, end, rules, spec

from simstats.engine.cards import parse_card
from simstats.engine.deals import deal_deck
from simstats.engine.games import get_game
from simstats.engine.moves import apply_move
from simstats.engine.notation import parse_move
from simstats.engine.state import MOVE_LIMIT, MOVE_LIMIT_REACHED, MOVES, NO_MOVES, ONGOING, WON
from simstats.run.move_by_move import play_deck


class Quitter:
    """Stops at once."""

    def choose(self, obs):
        return None


class DealTwiceThenQuit:
    """Deals twice, then stops."""

    def choose(self, obs):
        return "deal" if obs.moves_made < 2 and "deal" in obs.legal_moves else None


class TransfersFirst:
    """A foundation transfer if any, else any move to a foundation, else stop."""

    def choose(self, obs):
        for move in obs.legal_moves:
            if move.startswith("F"):
                return move
        for move in obs.legal_moves:
            if ">F" in move:
                return move
        return None


def build_deck(placed: dict[int, str]) -> list[str]:
    """A 104-card deck with the given cards at the given indices, the rest in a fixed order."""
    rest = list(TWO_DECKS)
    for card in placed.values():
        rest.remove(card)
    return [placed[i] if i in placed else rest.pop(0) for i in range(104)]


# == Section 3: what all games share: how a game ends ======================================


@pytest.mark.parametrize("game", GAMES)
def test_won_when_all_104_cards_are_on_the_foundations(game):
    assert end(game, make_state(game, foundations=[13] * 8)) == WON
    last = "KS" if game == "kingsdown-eights" else "AS"  # F7 built up there, down elsewhere
    state = make_state(game, tableau=[last], foundations=[13] * 7 + [12])
    assert end(game, state) == ONGOING
    assert play(game, state, "T0>F7") == last
    assert end(game, state) == WON


@pytest.mark.parametrize("game", GAMES)
def test_won_takes_precedence_over_the_move_limit(game):
    state = make_state(game, foundations=[13] * 8)
    state[MOVES] = MOVE_LIMIT
    assert end(game, state) == WON


def no_moves_position(game: str, redeals: int = 2) -> np.ndarray:
    if game in TOURNAMENT_LIKE:
        return make_state(
            game, reserve="5H 6H 7H 8H 5D 6D 7D 8D".split(), tableau=["9S 2C"], redeals=redeals
        )
    if game == "cicely":
        return make_state(
            game,
            reserve="6H 8H TH QH 6S 8S TS QS".split(),
            tableau="2C 4C 6C 8C TC QC 2D 4D".split(),
        )
    # kingsdown: all black columns, no ace on top anywhere, an ace buried in a reserve pile
    return make_state(game, reserve=["AH 3S"], tableau="2C 4C 6C 8C TC QC 5S 9S".split())


@pytest.mark.parametrize("game", GAMES)
def test_no_moves_when_nothing_is_legal(game):
    state = no_moves_position(game)
    assert legal(game, state) == set()
    assert end(game, state) == NO_MOVES


@pytest.mark.parametrize("game", TOURNAMENT_LIKE)
def test_a_redeal_left_is_a_move(game):
    state = no_moves_position(game, redeals=1)
    assert legal(game, state) == {"redeal"}
    assert end(game, state) == ONGOING


@pytest.mark.parametrize("game", GAMES)
def test_no_moves_takes_precedence_over_the_move_limit(game):
    """docs/rules.md does not say which end a stuck game at 2,000 moves has; the engine and the
    reference (tests/reference_rules.py, convention 1) both say no_moves."""
    state = no_moves_position(game)
    state[MOVES] = MOVE_LIMIT
    assert end(game, state) == NO_MOVES


def move_limit_position(game: str) -> np.ndarray:
    if game == "kingsdown-eights":  # one card wandering between empty columns
        return make_state(game, tableau=["5H"])
    # F0 holds A..5C, F4 K..6C: the transfers can go on for ever
    return make_state(game, reserve=["9H"], tableau=["QD"], foundations=[5, 0, 0, 0, 8])


@pytest.mark.parametrize("game", GAMES)
def test_move_limit_after_2000_moves(game):
    state = move_limit_position(game)
    prefix = "T" if game == "kingsdown-eights" else "F"
    while end(game, state) == ONGOING:
        assert int(state[MOVES]) < MOVE_LIMIT
        move = next(m for m in observation(game, state).legal_moves if m.startswith(prefix))
        apply_move(state, rules(game), parse_move(move))
        if int(state[MOVES]) == MOVE_LIMIT - 1:
            assert end(game, state) == ONGOING
    assert end(game, state) == MOVE_LIMIT_REACHED
    assert int(state[MOVES]) == MOVE_LIMIT == 2000


def transfer_loop_deck(game: str) -> list[str]:
    """All 13 clubs within reach from the layout: AC..5C and KC QC JC in R0..R7, and TC 9C 8C
    7C 6C on top of T0..T4."""
    placed = dict(enumerate("AC 2C 3C 4C 5C KC QC JC".split()))
    tops = [32 + c for c in range(5)] if game == "cicely" else [11 + 4 * c for c in range(5)]
    placed.update(zip(tops, "TC 9C 8C 7C 6C".split(), strict=True))
    return build_deck(placed)


@pytest.mark.parametrize("game", WITH_TRANSFERS)
def test_move_limit_through_play_deal(game):
    deck = [parse_card(c) for c in transfer_loop_deck(game)]
    played = play_deck(get_game(game), spec("transfers-first", TransfersFirst), deck)
    outcome = played.outcome
    assert (outcome.end, outcome.won, outcome.moves) == ("move_limit", False, 2000)
    assert outcome.foundation_cards == 13
    assert len(played.moves) == 2000
    assert all(move.startswith("F") for move, _ in played.moves[13:])


@pytest.mark.parametrize("game", GAMES)
def test_resigned_when_the_policy_stops(game):
    deck, reshuffles = deal_deck(rules(game), 5, 2)
    played = play_deck(get_game(game), spec("quitter", Quitter), deck, 5, 2, reshuffles)
    outcome = played.outcome
    assert (outcome.end, outcome.won, outcome.moves, outcome.deals) == ("resigned", False, 0, 0)
    played = play_deck(get_game(game), spec("deal-twice", DealTwiceThenQuit), deck, 5, 2)
    outcome = played.outcome
    assert (outcome.end, outcome.moves, outcome.deals) == ("resigned", 2, 2)
    assert played.moves == [("deal", None), ("deal", None)]
