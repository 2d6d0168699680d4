"""docs/rules.md section 7, Kingsdown Eights: foundations all built up from the ace,
building down in alternating colour, and dealing pile by pile onto the reserve."""

from __future__ import annotations

import numpy as np
import pytest
from positions import can, legal, make_state, observation, pile, play
from rule_helpers import STOCK_32, from_source

from simstats.engine.state import DEALS, MOVES

# == Section 7: Kingsdown Eights =============================================================


def test_kingsdown_any_ace_may_start_either_foundation_of_its_suit():
    game = "kingsdown-eights"
    state = make_state(game, tableau=["AS", "KS"])
    assert can(game, state, "T0>F3") and can(game, state, "T0>F7")
    assert not can(game, state, "T1>F7") and not can(game, state, "T1>F3")
    state = make_state(game, tableau=["AS", "2S"], foundations=[0, 0, 0, 1])
    assert can(game, state, "T0>F7") and not can(game, state, "T0>F3")
    assert can(game, state, "T1>F3") and not can(game, state, "T1>F7")
    state = make_state(game, tableau=["5S"], foundations=[0, 0, 0, 1, 0, 0, 0, 4])
    assert can(game, state, "T0>F7") and not can(game, state, "T0>F3")
    assert observation(game, state).foundations[3::4] == ("AS", "4S")
    assert observation("tournament", state).foundations[7] == "TS"  # down from the king there


def kingsdown_build_position() -> np.ndarray:
    return make_state(
        "kingsdown-eights",
        reserve=["AC 7D", "AC", ""],
        tableau=["8S", "7H", "7D", "7C", "7S", "9H", "6H", ""],
    )


@pytest.mark.parametrize(
    "move, ok",
    [
        ("T1>T0", True),  # 7H on 8S: red on black
        ("T2>T0", True),  # 7D on 8S
        ("T3>T0", False),  # 7C on 8S: same colour
        ("T4>T0", False),  # 7S on 8S
        ("T5>T0", False),  # 9H on 8S: building up
        ("T6>T0", False),  # 6H on 8S: two ranks
        ("T0>T5", True),  # 8S on 9H: black on red
        ("T6>T3", True),  # 6H on 7C
        ("T6>T4", True),  # 6H on 7S
        ("T6>T1", False),  # 6H on 7H
        ("R0>T0", True),  # a reserve top builds too
        ("R0>T3", False),
    ],
)
def test_kingsdown_builds_down_in_alternating_colour(move, ok):
    assert can("kingsdown-eights", kingsdown_build_position(), move) == ok


def test_kingsdown_no_wrap_between_ace_and_king():
    state = make_state("kingsdown-eights", tableau=["AS", "KH", "2S", "AH"])
    assert not can("kingsdown-eights", state, "T1>T0")  # K on A
    assert not can("kingsdown-eights", state, "T0>T1")
    assert can("kingsdown-eights", state, "T3>T2")  # AH on 2S


def test_kingsdown_empty_column_takes_any_available_card():
    state = kingsdown_build_position()
    into_t7 = {m for m in legal("kingsdown-eights", state) if m.endswith(">T7")}
    assert into_t7 == {"R0>T7", "R1>T7"} | {f"T{c}>T7" for c in range(7)}
    assert play("kingsdown-eights", state, "R0>T7") == "7D"
    assert pile(state, "T7") == ["7D"] and pile(state, "R0") == ["AC"]


def test_kingsdown_reserve_tops_go_to_foundations_or_the_tableau():
    state = kingsdown_build_position()
    assert from_source(legal("kingsdown-eights", state), "R0") == {"R0>T0", "R0>T7"}
    assert from_source(legal("kingsdown-eights", state), "R1") == {"R1>F0", "R1>F4", "R1>T7"}
    state = make_state("kingsdown-eights", reserve=["AC 9D"], tableau=["5S"] * 8)
    assert not can("kingsdown-eights", state, "R0>F0")  # buried under 9D


def test_kingsdown_nothing_is_placed_on_a_reserve_pile():
    state = kingsdown_build_position()  # R2 is empty, R0 and R1 are not
    assert not any(m.split(">")[-1].startswith("R") for m in legal("kingsdown-eights", state))
    for move in ("T0>R2", "T0>R0", "R0>R2", "R1>R0", "T7>R2"):
        assert not can("kingsdown-eights", state, move)


def test_kingsdown_deal_pile_by_pile_onto_the_reserve():
    before = ["AC", "2C", "3C", "", "5C", "6C 9S", "7C", "8C"]
    columns = ["KH", "QS"]
    cards = STOCK_32.split()
    state = make_state("kingsdown-eights", reserve=before, tableau=columns, stock=STOCK_32)
    play("kingsdown-eights", state, "deal")
    for r in range(8):
        assert pile(state, f"R{r}") == before[r].split() + cards[4 * r : 4 * r + 4]
    assert [pile(state, f"T{c}") for c in range(3)] == [["KH"], ["QS"], []]
    assert pile(state, "stock") == []
    assert [int(state[i]) for i in (MOVES, DEALS)] == [1, 1]


def test_kingsdown_deal_stops_when_the_stock_runs_out():
    cards = STOCK_32.split()[:6]
    state = make_state("kingsdown-eights", reserve=["KC"] * 8, stock=" ".join(cards))
    play("kingsdown-eights", state, "deal")
    assert pile(state, "R0") == ["KC", *cards[:4]]
    assert pile(state, "R1") == ["KC", *cards[4:]]
    assert all(pile(state, f"R{r}") == ["KC"] for r in range(2, 8))
    assert not can("kingsdown-eights", state, "deal")
