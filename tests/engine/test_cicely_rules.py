"""docs/rules.md section 6, Cicely: building up or down in suit, empty columns and cells,
and dealing row by row."""

from __future__ import annotations

import numpy as np
import pytest
from positions import can, legal, make_state, pile, play
from rule_helpers import STOCK_32, from_source

from simstats.engine.state import DEALS, MOVES

# == Section 6: Cicely =======================================================================


def cicely_build_position() -> np.ndarray:
    return make_state(
        "cicely",
        reserve=["7H", "", "QS"],
        tableau=["8H", "6H", "5C 7H", "8D", "KH", "AH", "9H", ""],
    )


@pytest.mark.parametrize(
    "move, ok",
    [
        ("T2>T0", True),  # 7H on 8H
        ("T2>T1", True),  # 7H on 6H
        ("T2>T3", False),  # 7H on 8D: not in suit
        ("T2>T6", False),  # 7H on 9H: two ranks apart
        ("T4>T5", False),  # KH on AH: no wrap
        ("T5>T4", False),  # AH on KH: no wrap
        ("T0>T6", True),  # 8H on 9H
        ("T6>T0", True),  # 9H on 8H
        ("R0>T0", True),  # a reserve card builds too
        ("R0>T1", True),
        ("R0>T3", False),
        ("R2>T0", False),
    ],
)
def test_cicely_builds_up_or_down_in_suit(move, ok):
    assert can("cicely", cicely_build_position(), move) == ok


def test_cicely_moves_one_card_at_a_time():
    state = cicely_build_position()
    assert play("cicely", state, "T2>T1") == "7H"
    assert pile(state, "T2") == ["5C"] and pile(state, "T1") == ["6H", "7H"]
    assert play("cicely", state, "R0>T0") == "7H"
    assert pile(state, "R0") == [] and pile(state, "T0") == ["8H", "7H"]


def test_cicely_empty_column_takes_any_available_card():
    state = cicely_build_position()
    into_t7 = {m for m in legal("cicely", state) if m.endswith(">T7")}
    assert into_t7 == {"R0>T7", "R2>T7"} | {f"T{c}>T7" for c in range(7)}
    assert play("cicely", state, "R2>T7") == "QS"
    assert pile(state, "T7") == ["QS"]


def test_cicely_emptied_column_is_not_refilled():
    state = make_state("cicely", reserve=["9S"], tableau=["AC", "5H"], stock="2D 3D 4D 5D")
    assert play("cicely", state, "T0>F0") == "AC"
    assert pile(state, "T0") == [] and pile(state, "stock") == ["2D", "3D", "4D", "5D"]
    assert play("cicely", state, "T1>T0") == "5H"  # the column moved into, not refilled
    assert pile(state, "T1") == [] and len(pile(state, "stock")) == 4


def test_cicely_reserve_cards_go_to_foundations_or_the_tableau():
    state = make_state("cicely", reserve=["AC", "", "5H"], tableau=["6H", "KD"] + ["9S"] * 6)
    assert from_source(legal("cicely", state), "R0") == {"R0>F0"}
    assert from_source(legal("cicely", state), "R2") == {"R2>T0"}


def test_cicely_empty_cell_takes_a_column_top_never_a_reserve_card():
    state = make_state("cicely", reserve=["7H", "", "5D"], tableau=["9C 2S", "KD"])
    assert can("cicely", state, "T0>R1") and can("cicely", state, "T1>R1")
    assert not can("cicely", state, "R0>R1") and not can("cicely", state, "R2>R1")
    assert not can("cicely", state, "T0>R0")  # an occupied cell
    assert not any(m.startswith("R") and m[-2] == "R" for m in legal("cicely", state))
    assert play("cicely", state, "T0>R1") == "2S"
    assert pile(state, "R1") == ["2S"] and pile(state, "T0") == ["9C"]


def test_cicely_deal_row_by_row():
    before = ["AC", "2C", "3C", "", "5C", "6C", "7C", "8C 9C"]
    cards = STOCK_32.split()
    state = make_state("cicely", tableau=before, stock=STOCK_32)
    play("cicely", state, "deal")
    for c in range(8):
        assert pile(state, f"T{c}") == before[c].split() + cards[c::8]
    assert pile(state, "stock") == []
    assert [int(state[i]) for i in (MOVES, DEALS)] == [1, 1]


def test_cicely_deal_stops_when_the_stock_runs_out():
    cards = STOCK_32.split()[:11]
    state = make_state("cicely", tableau=["KC"] * 8, stock=" ".join(cards))
    play("cicely", state, "deal")
    for c in range(8):
        assert pile(state, f"T{c}") == ["KC", *cards[c::8]]
    assert not can("cicely", state, "deal")
