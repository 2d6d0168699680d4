"""docs/rules.md section 8, what a policy may see: the observation holds what the section
lists, shows the cards it may and hides the stock, and is all a policy is given."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from positions import TOURNAMENT_LIKE, legal, make_state, observation, pile, play
from rule_helpers import GAMES, STOCK_32, laid_out, rules, seeded_deck, spec

from simstats.engine.cards import HIDDEN
from simstats.engine.deals import deal_deck
from simstats.engine.games import get_game
from simstats.engine.observe import blank_observation, observe
from simstats.engine.state import CAPACITY, STOCK
from simstats.run.move_by_move import play_deck


def stock_slot(game: str, state: np.ndarray) -> np.ndarray:
    obs = blank_observation()
    observe(state, rules(game), obs)
    return obs[STOCK * CAPACITY : (STOCK + 1) * CAPACITY]


# == Section 8: what a policy may see ========================================================

OBSERVATION_ATTRIBUTES = {
    "game",
    "foundations",
    "foundation_sizes",
    "reserve",
    "tableau",
    "stock_size",
    "redeals_left",
    "moves_made",
    "legal_moves",
    "legal_move_codes",
}


@pytest.mark.parametrize("game", GAMES)
def test_observation_holds_what_section_8_lists(game):
    tournament_like = game in TOURNAMENT_LIKE
    reserve = ["AC 9D 5H"] if game == "kingsdown-eights" else ["AC", "", "5H"]
    state = make_state(
        game,
        reserve=reserve,
        tableau=["2D 3D", "KS"],
        stock="4C 5C 6C",
        foundations=[2, 0, 0, 0, 1],
        redeals=1 if tournament_like else 0,
    )
    seen = observation(game, state)
    assert seen.game == game
    f4 = "AC" if game == "kingsdown-eights" else "KC"
    assert seen.foundations == ("2C", None, None, None, f4, None, None, None)
    assert seen.foundation_sizes == (2, 0, 0, 0, 1, 0, 0, 0)
    if game == "kingsdown-eights":
        assert seen.reserve[0] == ("AC", "9D", "5H")  # full reserve piles
    else:
        assert seen.reserve[:3] == (("AC",), (), ("5H",))
    tableau = (None, "3D") if game == "napoleons-flank" else ("2D", "3D")
    assert seen.tableau[:2] == (tableau, ("KS",))
    assert seen.stock_size == 3
    assert seen.redeals_left == (1 if tournament_like else 0)
    assert seen.moves_made == 0
    assert set(seen.legal_moves) == legal(game, state)
    play(game, state, "deal")
    assert observation(game, state).moves_made == 1
    assert observation(game, state).stock_size == 0


@pytest.mark.parametrize("game", GAMES)
def test_observation_hides_the_stock(game):
    deck, _ = seeded_deck(game, 8, 8)
    state = laid_out(game, deck)
    seen = observation(game, state)
    assert {name for name in dir(seen) if not name.startswith("_")} == OBSERVATION_ATTRIBUTES
    assert seen.stock_size == len(pile(state, "stock")) > 0
    assert (stock_slot(game, state) == HIDDEN).all()
    # every card the observation shows is a card outside the stock
    shown = [c for group in (seen.reserve, seen.tableau) for p in group for c in p if c]
    outside = [c for p in range(8) for c in pile(state, f"R{p}")]
    outside += [c for p in range(8) for c in pile(state, f"T{p}")]
    assert not Counter(shown) - Counter(outside)
    assert len(shown) + seen.stock_size + sum(seen.foundation_sizes) <= 104


@pytest.mark.parametrize("game", TOURNAMENT_LIKE)
def test_observation_hides_the_stock_after_a_redeal(game):
    state = make_state(game, tableau=[" ".join(STOCK_32.split())])
    play(game, state, "redeal")
    assert pile(state, "stock") == STOCK_32.split()[24:]
    assert observation(game, state).stock_size == 8
    assert (stock_slot(game, state) == HIDDEN).all()


@pytest.mark.parametrize("game", ("tournament", "cicely"))
def test_observation_shows_full_columns(game):
    deck, _ = seeded_deck(game, 2, 6)
    state = laid_out(game, deck)
    columns = 6 if game == "tournament" else 8
    assert observation(game, state).tableau == tuple(
        tuple(pile(state, f"T{c}")) for c in range(columns)
    )
    assert observation(game, state).reserve == tuple(
        tuple(pile(state, f"R{r}")) for r in range(8)
    )


def test_kingsdown_observation_shows_full_columns_and_reserve_piles():
    deck, _ = seeded_deck("kingsdown-eights", 2, 6)
    state = laid_out("kingsdown-eights", deck)
    seen = observation("kingsdown-eights", state)
    assert seen.tableau == tuple(tuple(pile(state, f"T{c}")) for c in range(8))
    assert seen.reserve == tuple(tuple(pile(state, f"R{r}")) for r in range(8))
    assert all(len(p) == 4 for p in seen.reserve)


def test_napoleons_flank_layout_observation_shows_tops_and_sizes():
    deck, _ = seeded_deck("napoleons-flank", 2, 6)
    state = laid_out("napoleons-flank", deck)
    seen = observation("napoleons-flank", state)
    assert seen.tableau == tuple((None, None, None, deck[11 + 4 * c]) for c in range(6))
    assert seen.reserve == tuple((card,) for card in deck[:8])


@pytest.mark.parametrize("game", GAMES)
def test_policies_see_observations_without_the_stock(game):
    seen_slots = []

    class Peeker:
        def choose(self, obs):
            seen_slots.append(obs._array[STOCK * CAPACITY : (STOCK + 1) * CAPACITY].copy())
            assert obs.stock_size >= 0
            return "deal" if "deal" in obs.legal_moves else None

    deck, reshuffles = deal_deck(rules(game), 4, 4)
    played = play_deck(get_game(game), spec("peeker", Peeker), deck, 4, 4, reshuffles)
    assert played.outcome.deals == played.outcome.moves > 0
    assert seen_slots and all((slot == HIDDEN).all() for slot in seen_slots)
