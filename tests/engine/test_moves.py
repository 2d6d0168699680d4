"""docs/rules.md section 2, places and move notation: the places each game has, moves
written and read back, and a move taking exactly the top card of its pile."""

from __future__ import annotations

import pytest
from positions import (
    TOURNAMENT_LIKE,
    WITH_TRANSFERS,
    can,
    legal,
    make_state,
    observation,
    pile,
    play,
)
from rule_helpers import GAMES

from simstats.engine.notation import move_text, parse_move
from simstats.engine.state import FOUNDATIONS

# == Section 2: places and move notation ====================================================


@pytest.mark.parametrize("game", GAMES)
def test_tableau_places_per_game(game):
    """T0..T7, 6 in Tournament and Napoleon's Flank."""
    state = make_state(game, tableau=["5H"] * 6 + ["AC", "AD"])
    columns = 6 if game in TOURNAMENT_LIKE else 8
    assert can(game, state, "T6>F0") == (columns == 8)
    assert can(game, state, "T7>F1") == (columns == 8)
    assert len(observation(game, state).tableau) == columns


@pytest.mark.parametrize("game", WITH_TRANSFERS)
def test_foundation_places_up_and_down_by_suit(game):
    """F0..F3 up from the ace, F4..F7 down from the king, suits C D H S."""
    state = make_state(game, reserve="AC AD AH AS KC KD KH KS".split())
    expected = {f"R{i}>F{i}" for i in range(8)}
    assert {m for m in legal(game, state) if ">F" in m} == expected


def test_kingsdown_foundation_places_all_up_by_suit():
    """Kingsdown Eights: F4..F7 are a second set C D H S built up from the ace."""
    state = make_state("kingsdown-eights", reserve="AC AD AH AS KC KD KH KS".split())
    expected = {f"R{s}>F{s}" for s in range(4)} | {f"R{s}>F{s + 4}" for s in range(4)}
    assert {m for m in legal("kingsdown-eights", state) if ">F" in m} == expected


@pytest.mark.parametrize(
    "text", ["T3>F2", "R5>F6", "T0>R4", "F0>F4", "R2>T5", "T1>T6", "deal", "redeal"]
)
def test_move_notation_round_trips(text):
    assert move_text(parse_move(text)) == text


@pytest.mark.parametrize("game", GAMES)
def test_a_move_moves_exactly_the_top_card(game):
    state = make_state(game, reserve=["9S"] * 8, tableau=["5H AD AC", "KD"], stock="2S")
    assert not can(game, state, "T0>F1")  # AD is not the top card
    assert play(game, state, "T0>F0") == "AC"
    assert pile(state, "T0") == ["5H", "AD"]
    assert int(state[FOUNDATIONS]) == 1
    assert pile(state, "stock") == ["2S"]


def test_kingsdown_a_move_takes_the_top_of_a_reserve_pile():
    state = make_state("kingsdown-eights", reserve=["AC 5H AD"])
    assert not can("kingsdown-eights", state, "R0>F0")
    assert play("kingsdown-eights", state, "R0>F1") == "AD"
    assert pile(state, "R0") == ["AC", "5H"]
