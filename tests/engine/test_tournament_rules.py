"""docs/rules.md sections 4 and 5: where cards may go in Tournament and Napoleon's Flank,
and Napoleon's Flank playing exactly like Tournament but for the buried cards it hides."""

from __future__ import annotations

import random

import numpy as np
import pytest
from positions import TOURNAMENT_LIKE, can, legal, make_state, observation, pile, play
from rule_helpers import end, from_source, laid_out, rules, seeded_deck

from simstats.engine.cards import HIDDEN, parse_card
from simstats.engine.observe import blank_observation, observe
from simstats.engine.state import CAPACITY, ONGOING, TABLEAU

# == Section 4: Tournament (and Napoleon's Flank, section 5): where cards may go =============


@pytest.mark.parametrize("game", TOURNAMENT_LIKE)
def test_available_cards_are_reserve_cards_and_column_tops(game):
    state = make_state(
        game,
        reserve="AC AD AH AS KC KD KH KS".split(),
        tableau=["AC 5H", "KD 9S", "2C", "QD", "AS JD", "QH"],
        redeals=2,
    )
    assert legal(game, state) == {f"R{i}>F{i}" for i in range(8)}
    play(game, state, "R0>F0")
    assert can(game, state, "T2>F0")  # 2C, a column top
    assert not can(game, state, "T0>F0")  # the buried AC is not available


@pytest.mark.parametrize("game", TOURNAMENT_LIKE)
def test_reserve_card_goes_only_to_a_foundation(game):
    state = make_state(game, reserve=["AC", "", "5H"], tableau=["", "6H", "4H"])
    assert from_source(legal(game, state), "R0") == {"R0>F0"}
    assert from_source(legal(game, state), "R2") == set()  # 5H: not on 6H, 4H, T0 or R1
    for move in ("R2>T0", "R2>T1", "R2>T2", "R2>R1", "R0>R1", "R0>T0"):
        assert not can(game, state, move)


@pytest.mark.parametrize("game", TOURNAMENT_LIKE)
def test_a_column_top_may_fill_an_empty_reserve_cell(game):
    state = make_state(game, reserve=["9C", "", "9D", ""], tableau=["5H 6H", "KS"])
    assert from_source(legal(game, state), "T0") == {"T0>R1", "T0>R3"} | {
        f"T0>R{r}" for r in range(4, 8)
    }
    assert not can(game, state, "T0>R0")  # an occupied cell
    assert play(game, state, "T0>R1") == "6H"
    assert pile(state, "R1") == ["6H"] and pile(state, "T0") == ["5H"]


@pytest.mark.parametrize("game", TOURNAMENT_LIKE)
def test_no_building_on_the_tableau(game):
    state = make_state(game, reserve=["9C"] * 8, tableau=["7H", "6H", "8H", "6S", "8C", "7D"])
    assert not any(m.startswith("T") for m in legal(game, state))
    for move in ("T1>T0", "T2>T0", "T3>T0", "T0>T4", "T5>T4"):
        assert not can(game, state, move)


@pytest.mark.parametrize("game", TOURNAMENT_LIKE)
def test_no_card_to_an_empty_column(game):
    state = make_state(game, reserve=["9C", "5D"], tableau=["7H", "", "8H"], redeals=2)
    assert not any(m.endswith(">T1") for m in legal(game, state))
    assert not can(game, state, "T0>T1") and not can(game, state, "R0>T1")


# == Section 5: Napoleon's Flank =============================================================


def test_napoleons_flank_plays_exactly_like_tournament():
    rng = random.Random(5)
    for seed, deal in [(0, 0), (3, 9), (17, 4)]:
        deck, _ = seeded_deck("tournament", seed, deal)
        assert seeded_deck("napoleons-flank", seed, deal)[0] == deck
        a, b = laid_out("tournament", deck), laid_out("napoleons-flank", deck)
        while end("tournament", a) == ONGOING:
            moves = legal("tournament", a)
            assert moves == legal("napoleons-flank", b)
            assert end("napoleons-flank", b) == ONGOING
            non_deals = sorted(m for m in moves if ">" in m)
            move = rng.choice(non_deals or sorted(moves))
            assert play("tournament", a, move) == play("napoleons-flank", b, move)
            assert np.array_equal(a, b)
        assert end("napoleons-flank", b) == end("tournament", a)


def test_napoleons_flank_observation_hides_buried_column_cards():
    args = {"reserve": ["AC", "", "5H"], "tableau": ["5H 6H 7H", "9S", "", "2D 3D"]}
    seen = observation("napoleons-flank", make_state("napoleons-flank", **args))
    assert seen.tableau == ((None, None, "7H"), ("9S",), (), (None, "3D"), (), ())
    assert [len(column) for column in seen.tableau] == [3, 1, 0, 2, 0, 0]
    assert seen.reserve[:3] == (("AC",), (), ("5H",))
    shown = observation("tournament", make_state("tournament", **args))
    assert shown.tableau[0] == ("5H", "6H", "7H") and shown.tableau[3] == ("2D", "3D")
    assert seen.legal_moves == shown.legal_moves
    # in the observation array itself, buried cards are hidden
    obs = blank_observation()
    observe(make_state("napoleons-flank", **args), rules("napoleons-flank"), obs)
    assert obs[TABLEAU * CAPACITY : TABLEAU * CAPACITY + 3].tolist() == [
        HIDDEN,
        HIDDEN,
        parse_card("7H"),
    ]
