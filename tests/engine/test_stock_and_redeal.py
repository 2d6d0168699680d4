"""Dealing from the stock (docs/rules.md sections 3, 4, 6 and 7): when a deal is legal,
Tournament's refills, deals and redeals and the counters, and each pile's share of a deal."""

from __future__ import annotations

import pytest
from positions import BUILDING, TOURNAMENT_LIKE, can, legal, make_state, observation, pile, play
from rule_helpers import GAMES, STOCK_24, STOCK_32, laid_out, seeded_deck

from simstats.engine.deals import deal_deck
from simstats.engine.games import get_game
from simstats.engine.moves import apply_move, deal_piles, deal_share, lay_out
from simstats.engine.state import (
    DEAL,
    DEALS,
    FOUNDATIONS,
    LENGTHS,
    MOVES,
    REDEALS,
    STOCK,
    new_state,
)

# == Section 3: a deal is legal while the stock has cards ==================================


@pytest.mark.parametrize("game", GAMES)
def test_deal_is_legal_whenever_the_stock_has_cards(game):
    # a foundation move is possible too: dealing need not wait
    state = make_state(game, reserve=["AC"], tableau=["AD"], stock="5H")
    assert can(game, state, "deal")
    assert "deal" in legal(game, state)
    state = make_state(game, reserve=["AC"], tableau=["AD"])
    assert not can(game, state, "deal")
    assert "deal" not in legal(game, state)


# == Section 4: refills, deals and redeals in Tournament (and Napoleon's Flank) ===========


@pytest.mark.parametrize("game", TOURNAMENT_LIKE)
def test_emptied_column_refilled_after_a_move_to_a_foundation(game):
    state = make_state(
        game, reserve=["9H"] * 8, tableau=["AC", "5H 6H"], stock="2D 3D 4D 5D 6D 7D"
    )
    assert play(game, state, "T0>F0") == "AC"
    assert pile(state, "T0") == ["2D", "3D", "4D", "5D"]  # the 4th stock card on top
    assert pile(state, "stock") == ["6D", "7D"]
    assert [int(state[i]) for i in (MOVES, DEALS)] == [1, 0]  # a refill is not a deal


@pytest.mark.parametrize("game", TOURNAMENT_LIKE)
def test_emptied_column_refilled_after_a_move_to_a_reserve_cell(game):
    state = make_state(game, reserve=["", "9H"], tableau=["5H 6H", "9S"], stock=STOCK_24)
    assert play(game, state, "T1>R0") == "9S"
    assert pile(state, "R0") == ["9S"]
    assert pile(state, "T1") == STOCK_24.split()[:4]
    assert pile(state, "stock") == STOCK_24.split()[4:]
    assert int(state[DEALS]) == 0


@pytest.mark.parametrize("game", TOURNAMENT_LIKE)
def test_emptied_column_refill_is_short_when_the_stock_is(game):
    state = make_state(game, reserve=["9H"] * 8, tableau=["5H", "AC"], stock="2D 3D")
    play(game, state, "T1>F0")
    assert pile(state, "T1") == ["2D", "3D"] and pile(state, "stock") == []


@pytest.mark.parametrize("game", TOURNAMENT_LIKE)
def test_emptied_column_stays_empty_with_no_stock_until_the_next_deal(game):
    state = make_state(game, reserve=["9H"] * 8, tableau=["5H 6H", "AC"])
    play(game, state, "T1>F0")
    assert pile(state, "T1") == []
    assert not any(m.endswith(">T1") for m in legal(game, state))
    play(game, state, "redeal")  # the next deal
    assert pile(state, "T0") == ["5H", "6H"] and pile(state, "T1") == []
    state = make_state(game, reserve=["9H"] * 8, tableau=["5H 6H 7H 8H 9D", "AC"])
    play(game, state, "T1>F0")
    play(game, state, "redeal")
    assert pile(state, "T0") == ["5H", "6H", "7H", "8H"] and pile(state, "T1") == ["9D"]


@pytest.mark.parametrize("game", TOURNAMENT_LIKE)
def test_a_move_that_does_not_empty_a_column_takes_no_stock_card(game):
    state = make_state(game, reserve=["9H"] * 8, tableau=["5H AD"], stock="2D 3D")
    play(game, state, "T0>F1")
    assert pile(state, "T0") == ["5H"] and pile(state, "stock") == ["2D", "3D"]


@pytest.mark.parametrize("game", TOURNAMENT_LIKE)
def test_tournament_deal_column_by_column(game):
    before = ["AC", "2C", "", "3C", "4C 9S", "5C"]
    state = make_state(game, tableau=before, stock=STOCK_24)
    play(game, state, "deal")
    cards = STOCK_24.split()
    for c in range(6):
        assert pile(state, f"T{c}") == before[c].split() + cards[4 * c : 4 * c + 4]
    assert pile(state, "stock") == []
    assert pile(state, "T6") == pile(state, "T7") == []
    assert [int(state[i]) for i in (MOVES, DEALS, REDEALS)] == [1, 1, 0]


@pytest.mark.parametrize("game", TOURNAMENT_LIKE)
def test_tournament_deal_stops_when_the_stock_runs_out(game):
    before = ["AC", "2C", "", "3C", "4C", "5C"]
    stock = STOCK_24.split()[:10]
    state = make_state(game, tableau=before, stock=" ".join(stock))
    play(game, state, "deal")
    assert pile(state, "T0") == ["AC", *stock[:4]]
    assert pile(state, "T1") == ["2C", *stock[4:8]]
    assert pile(state, "T2") == stock[8:]
    assert [pile(state, f"T{c}") for c in (3, 4, 5)] == [["3C"], ["4C"], ["5C"]]
    assert not can(game, state, "deal")


@pytest.mark.parametrize("game", TOURNAMENT_LIKE)
def test_redeal_conditions(game):
    columns = ["5H 6H", "9S"]
    assert can(game, make_state(game, tableau=columns), "redeal")
    assert can(game, make_state(game, tableau=columns, redeals=1), "redeal")
    assert not can(game, make_state(game, tableau=columns, redeals=2), "redeal")
    assert not can(game, make_state(game, tableau=columns, stock="2D"), "redeal")
    assert not can(game, make_state(game, reserve=["5H"], tableau=[""] * 6), "redeal")
    state = make_state(game, tableau=columns, stock="2D")
    assert "redeal" not in legal(game, state)


@pytest.mark.parametrize("game", TOURNAMENT_LIKE)
def test_redeal_order_and_what_it_leaves_alone(game):
    columns = ["2C 3C", "4D 5D 6D 7D 8D", "", "9H", "TS JS", "QC KD AH 2H 3H 4H 5H"]
    gathered = " ".join(columns).split()
    reserve = ["9C", "", "KS", "", "4S", "", "", "7C"]
    foundations = [2, 0, 0, 0, 0, 1]
    state = make_state(game, reserve=reserve, tableau=columns, foundations=foundations)
    state[MOVES], state[DEALS] = 40, 7
    play(game, state, "redeal")
    for c in range(6):
        assert pile(state, f"T{c}") == gathered[4 * c : 4 * c + 4]
    assert pile(state, "stock") == []
    for r in range(8):
        assert pile(state, f"R{r}") == reserve[r].split()
    assert state[FOUNDATIONS : FOUNDATIONS + 8].tolist() == foundations + [0, 0]
    # the deal inside a redeal is not counted in deals
    assert [int(state[i]) for i in (MOVES, DEALS, REDEALS)] == [41, 7, 1]


@pytest.mark.parametrize("game", TOURNAMENT_LIKE)
def test_redeal_new_stock_keeps_the_rest_in_order(game):
    cards = STOCK_32.split()
    columns = [" ".join(cards[:10]), " ".join(cards[10:13]), "", " ".join(cards[13:30])]
    state = make_state(game, tableau=columns, redeals=1)
    play(game, state, "redeal")
    assert [pile(state, f"T{c}") for c in range(6)] == [cards[4 * c : 4 * c + 4] for c in range(6)]
    assert pile(state, "stock") == cards[24:30]
    assert int(state[REDEALS]) == 2
    while can(game, state, "deal"):
        play(game, state, "deal")
    assert pile(state, "T0") == cards[0:4] + cards[24:28]
    assert pile(state, "T1") == cards[4:8] + cards[28:30]
    assert not can(game, state, "redeal")  # two redeals made


@pytest.mark.parametrize("game", TOURNAMENT_LIKE)
def test_counters_through_a_game(game):
    """moves count every move; deals only `deal` moves; redeals `redeal` moves."""
    deck, _ = seeded_deck(game, 1, 1)
    state = laid_out(game, deck)
    deals = 0
    while can(game, state, "deal"):
        play(game, state, "deal")
        deals += 1
    assert deals == 3  # 72 cards, 24 a deal
    play(game, state, "redeal")
    assert [int(state[i]) for i in (MOVES, DEALS, REDEALS)] == [4, 3, 1]
    assert observation(game, state).redeals_left == 1
    while can(game, state, "deal"):
        play(game, state, "deal")
        deals += 1
    play(game, state, "redeal")
    assert [int(state[i]) for i in (MOVES, DEALS, REDEALS)] == [deals + 2, deals, 2]
    assert observation(game, state).redeals_left == 0


@pytest.mark.parametrize("game", BUILDING)
def test_no_redeal_in_cicely_and_kingsdown(game):
    state = make_state(game, tableau=["5H 6H", "9S"])
    assert not can(game, state, "redeal")
    assert observation(game, state).redeals_left == 0


# == Sections 4, 6, 7: the cards each pile gets from a deal ================================


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("stock_size", [0, 1, 5, 10, 24, 30, 72])
def test_deal_share_counts_the_cards_each_pile_gets(game, stock_size):
    # the search rehashes only what a deal added (solver.rehash_after: deal_share), so the
    # count must be the deal's own, row by row or pile by pile, full or cut short
    rules = get_game(game).array
    state = new_state()
    lay_out(state, rules, deal_deck(rules, 0, 3)[0])
    state[LENGTHS + STOCK] = min(stock_size, int(state[LENGTHS + STOCK]))
    before = state.copy()
    first, n = deal_piles(rules)
    if before[LENGTHS + STOCK]:
        apply_move(state, rules, DEAL)
    for i in range(n):
        got = int(state[LENGTHS + first + i]) - int(before[LENGTHS + first + i])
        assert got == deal_share(rules, i, int(before[LENGTHS + STOCK]))
    assert sum(deal_share(rules, i, int(before[LENGTHS + STOCK])) for i in range(n)) == (
        int(before[LENGTHS + STOCK]) - int(state[LENGTHS + STOCK]))
