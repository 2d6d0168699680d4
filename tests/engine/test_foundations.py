"""docs/rules.md section 3 on foundations, for every game the sentence concerns: built in
suit, up from the ace or down from the king, transfers between a suit's two foundations,
and no card ever leaving them otherwise."""

from __future__ import annotations

import pytest
from positions import WITH_TRANSFERS, can, legal, make_state, observation, play
from rule_helpers import GAMES

from simstats.engine.state import FOUNDATIONS

# == Section 3: what all games share: the foundations ======================================


@pytest.mark.parametrize("game", GAMES)
def test_foundations_are_built_in_suit(game):
    state = make_state(game, tableau=["5D", "5C", "6C", "4C"], foundations=[4])
    assert can(game, state, "T1>F0")
    assert not can(game, state, "T0>F0")  # right rank, wrong suit
    assert not can(game, state, "T2>F0")  # right suit, rank too high
    assert not can(game, state, "T3>F0")  # already there
    assert play(game, state, "T1>F0") == "5C"
    assert int(state[FOUNDATIONS]) == 5


@pytest.mark.parametrize("game", GAMES)
def test_empty_up_foundation_takes_only_the_ace_of_its_suit(game):
    state = make_state(game, tableau=["2C", "AD", "AC", "KC"])
    assert can(game, state, "T2>F0")
    assert not can(game, state, "T1>F0")
    assert not can(game, state, "T0>F0")
    assert not can(game, state, "T3>F0")
    assert can(game, state, "T1>F1")


@pytest.mark.parametrize("game", WITH_TRANSFERS)
def test_empty_down_foundation_takes_only_the_king_of_its_suit(game):
    state = make_state(game, tableau=["QC", "KD", "KC", "AC"])
    assert can(game, state, "T2>F4")
    assert not can(game, state, "T1>F4")
    assert not can(game, state, "T0>F4")
    assert not can(game, state, "T3>F4")
    assert not can(game, state, "T2>F0")
    assert can(game, state, "T1>F5")


@pytest.mark.parametrize("game", WITH_TRANSFERS)
def test_down_foundation_builds_down_in_suit(game):
    state = make_state(game, tableau=["TC", "TD", "9C", "JC"], foundations=[0, 0, 0, 0, 3])
    assert can(game, state, "T0>F4")
    assert not can(game, state, "T1>F4")
    assert not can(game, state, "T2>F4")
    assert not can(game, state, "T3>F4")
    assert play(game, state, "T0>F4") == "TC"
    assert observation(game, state).foundations[4] == "TC"
    assert can(game, state, "T2>F4")


@pytest.mark.parametrize("game", GAMES)
def test_a_full_foundation_takes_nothing(game):
    state = make_state(game, tableau=["AC", "KC", "QC", "2C"], foundations=[13, 0, 0, 0, 13])
    assert not any(">F" in m for m in legal(game, state))
    assert observation(game, state).foundation_sizes[:5] == (13, 0, 0, 0, 13)


@pytest.mark.parametrize("game", WITH_TRANSFERS)
def test_foundation_transfer_both_ways_when_it_fits(game):
    state = make_state(game, foundations=[5, 0, 0, 0, 8])  # A..5C and K..6C
    assert {m for m in legal(game, state) if m.startswith("F")} == {"F0>F4", "F4>F0"}
    assert play(game, state, "F0>F4") == "5C"
    assert (int(state[FOUNDATIONS]), int(state[FOUNDATIONS + 4])) == (4, 9)
    assert play(game, state, "F4>F0") == "5C"
    assert (int(state[FOUNDATIONS]), int(state[FOUNDATIONS + 4])) == (5, 8)


@pytest.mark.parametrize("game", WITH_TRANSFERS)
def test_foundation_transfer_illegal_when_it_does_not_fit(game):
    state = make_state(game, foundations=[3, 0, 0, 0, 8])  # 3C on top of F0, 6C on top of F4
    assert not can(game, state, "F0>F4")
    assert not can(game, state, "F4>F0")
    state = make_state(game, foundations=[5])  # 5C cannot start a down foundation
    assert not can(game, state, "F0>F4")
    state = make_state(game, foundations=[0, 0, 0, 0, 1])  # KC cannot start an up foundation
    assert not can(game, state, "F4>F0")


@pytest.mark.parametrize("game", WITH_TRANSFERS)
def test_foundation_transfer_from_a_full_foundation_to_an_empty_one(game):
    state = make_state(game, foundations=[13])  # KC on top fits an empty down foundation
    assert play(game, state, "F0>F4") == "KC"
    assert (int(state[FOUNDATIONS]), int(state[FOUNDATIONS + 4])) == (12, 1)


@pytest.mark.parametrize("game", WITH_TRANSFERS)
def test_foundation_transfer_only_to_the_other_foundation_of_the_suit(game):
    # 5C on F0; F5 holds K..6D, F1 A..4D: 5C fits neither (wrong suit)
    state = make_state(game, foundations=[5, 4, 0, 0, 0, 8])
    assert not can(game, state, "F0>F5")
    assert not can(game, state, "F0>F1")
    assert {m for m in legal(game, state) if m.startswith("F")} == set()


def test_kingsdown_has_no_foundation_transfers():
    # F0 A..5C, F4 A..4C: 5C would fit on F4 if transfers existed
    state = make_state("kingsdown-eights", foundations=[5, 0, 0, 0, 4])
    assert not can("kingsdown-eights", state, "F0>F4")
    state = make_state("kingsdown-eights", foundations=[1])  # AC could start F4
    assert not can("kingsdown-eights", state, "F0>F4")
    assert not any(m.startswith("F") for m in legal("kingsdown-eights", state))


@pytest.mark.parametrize("game", GAMES)
def test_cards_never_leave_the_foundations_otherwise(game):
    # 5C on F0 would fit on 6D (kingsdown) / 6C (cicely) and on an empty column or cell
    under = "6D" if game == "kingsdown-eights" else "6C"
    reserve = [] if game == "kingsdown-eights" else ["", "9S"]
    state = make_state(game, reserve=reserve, tableau=["", under], foundations=[5, 3])
    moves = legal(game, state)
    assert not any(m.startswith("F") and ">F" not in m for m in moves)
    for move in ("F0>R0", "F0>T0", "F0>T1", "F1>R0", "F1>T0"):
        assert not can(game, state, move)
