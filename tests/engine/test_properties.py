"""Property tests: random legal play on seeded decks, checked move by move against the independent
reference implementation of docs/rules.md (tests/reference_rules.py), and the compiled batch loop
checked against the move-by-move loop."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from conservation import check_conservation, foundation_cards_implied, pile_cards
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from positions import ALL_GAMES, BUILDING
from reference_rules import RefGame, foundation_only_moves

from simstats.engine.cards import card_text
from simstats.engine.deals import deal_deck
from simstats.engine.games import get_game
from simstats.engine.moves import (
    apply_move,
    lay_out,
    legal_moves,
    status,
    undo_move,
    undo_token,
)
from simstats.engine.notation import move_text, parse_move
from simstats.engine.state import (
    DEALS,
    END_NAMES,
    LENGTHS,
    MAX_LEGAL_MOVES,
    MOVE_LIMIT,
    MOVES,
    ONGOING,
    OUTCOME_COLUMNS,
    REDEALS,
    RESERVE,
    STOCK,
    TABLEAU,
    new_state,
)
from simstats.policies import resolve_policy
from simstats.run.compiled_play import run_compiled
from simstats.run.move_by_move import play_deck

GAMES = ALL_GAMES

seeds = st.integers(min_value=0, max_value=2**63 - 1)
deals = st.integers(min_value=0, max_value=10**9)
walks = st.integers(min_value=0, max_value=2**32 - 1)
# how strongly the walk prefers card moves to deal/redeal: long games reach refills,
# transfers, redeals and the move limit
patiences = st.sampled_from([0.0, 0.5, 0.9, 1.0])
# how strongly it prefers a move to a foundation: progress empties columns (refills) and wins
greeds = st.sampled_from([0.0, 0.5, 0.9])


# -- reading the engine's state ------------------------------------------------------------


def check_same_position(game: str, state: np.ndarray, ref: RefGame) -> None:
    for r in range(8):
        assert pile_cards(state, RESERVE + r) == ref.reserve[r], f"R{r}"
    for c in range(len(ref.tableau)):
        assert pile_cards(state, TABLEAU + c) == ref.tableau[c], f"T{c}"
    assert pile_cards(state, STOCK) == ref.stock
    assert foundation_cards_implied(game, state) == ref.foundations
    assert [int(state[i]) for i in (MOVES, DEALS, REDEALS)] == [ref.moves, ref.deals, ref.redeals]


def engine_legal(state: np.ndarray, rules: np.ndarray, buffer: np.ndarray) -> list[str]:
    n = legal_moves(state, rules, buffer)
    return [move_text(int(m)) for m in buffer[:n]]


# -- random legal play against the reference ---------------------------------------------------


def random_play(game: str, seed: int, deal: int, walk: int, patience: float, greed: float):
    """Play a seeded deck with random legal moves, checking the engine against the reference
    before and after every move."""
    rules = get_game(game).array
    deck, _ = deal_deck(rules, seed, deal)
    state = new_state()
    lay_out(state, rules, deck)
    ref = RefGame(game, [card_text(int(c)) for c in deck])
    rng = random.Random(walk)
    buffer = np.empty(MAX_LEGAL_MOVES, dtype=np.int64)
    check_same_position(game, state, ref)
    check_conservation(game, state)
    while True:
        end = int(status(state, rules))
        ref_end = ref.end_reason()
        assert (END_NAMES[end] if end != ONGOING else None) == ref_end
        if end != ONGOING:
            break
        assert int(state[MOVES]) < MOVE_LIMIT
        moves = engine_legal(state, rules, buffer)
        assert len(moves) == len(set(moves))
        assert set(moves) == set(ref.legal_moves())
        moves.sort()
        card_moves = [m for m in moves if ">" in m]
        home = [m for m in card_moves if m[0] != "F" and ">F" in m]
        if home and rng.random() < greed:
            move = rng.choice(home)
        elif card_moves and rng.random() < patience:
            move = rng.choice(card_moves)
        else:
            move = rng.choice(moves)
        card = int(apply_move(state, rules, parse_move(move)))
        ref_card = ref.apply(move)
        assert (card_text(card) if card >= 0 else None) == ref_card, move
        check_conservation(game, state)
        check_same_position(game, state, ref)
    assert int(state[MOVES]) <= MOVE_LIMIT


# Games without building are short; with building they often run to the move limit.
@pytest.mark.parametrize("game", [g for g in ALL_GAMES if g not in BUILDING])
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, deal=deals, walk=walks, patience=patiences, greed=greeds)
def test_random_play_agrees_with_the_reference(game, seed, deal, walk, patience, greed):
    random_play(game, seed, deal, walk, patience, greed)


@pytest.mark.parametrize("game", BUILDING)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, deal=deals, walk=walks, patience=patiences, greed=greeds)
def test_random_play_with_building_agrees_with_the_reference(
    game, seed, deal, walk, patience, greed
):
    random_play(game, seed, deal, walk, patience, greed)


# -- undoing moves ---------------------------------------------------------------------------


def position_as_played(state: np.ndarray) -> tuple:
    """Everything a position holds: the piles up to their lengths, foundations, counters."""
    piles = tuple(tuple(pile_cards(state, p)) for p in range(STOCK + 1))
    return piles, tuple(int(v) for v in state[LENGTHS:])


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, deal=deals, walk=walks, greed=greeds)
def test_every_legal_move_is_undone_exactly(game, seed, deal, walk, greed):
    """undo_move takes back each legal move of every position of a random game (deals,
    refills, redeals and transfers included), as the search's make/unmake relies on."""
    rules = get_game(game).array
    deck, _ = deal_deck(rules, seed, deal)
    state = new_state()
    lay_out(state, rules, deck)
    rng = random.Random(walk)
    buffer = np.empty(MAX_LEGAL_MOVES, dtype=np.int64)
    kinds = Counter()
    while status(state, rules) == ONGOING:
        before = position_as_played(state)
        n = legal_moves(state, rules, buffer)
        for move in (int(m) for m in buffer[:n]):
            token = undo_token(state, rules, move)
            apply_move(state, rules, move)
            kinds[move_text(move)[0]] += 1
            assert position_as_played(state) != before
            undo_move(state, rules, move, token)
            assert position_as_played(state) == before, move_text(move)
        home = [int(m) for m in buffer[:n] if ">F" in move_text(int(m))]
        apply_move(state, rules, rng.choice(home) if home and rng.random() < greed
                   else int(buffer[rng.randrange(n)]))
    assert kinds


# -- the compiled loop against the move-by-move loop ---------------------------------------------


def play_deal_rows(game: str, policy: str, seed: int, first: int, count: int) -> list[list[int]]:
    g, spec = get_game(game), resolve_policy(policy)
    rows = []
    for deal in range(first, first + count):
        deck, reshuffles = deal_deck(g.array, seed, deal)
        outcome = play_deck(g, spec, deck, seed, deal, reshuffles).outcome
        rows.append(
            [
                outcome.reshuffles,
                int(outcome.won),
                outcome.foundation_cards,
                outcome.moves,
                outcome.deals,
                outcome.redeals,
                END_NAMES.index(outcome.end),
            ]
        )
    return rows


@pytest.mark.parametrize("policy", ["random", "foundation-only"])
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, first=deals, count=st.integers(min_value=1, max_value=4))
def test_compiled_loop_agrees_with_play_deal(game, policy, seed, first, count):
    rows = run_compiled(get_game(game), resolve_policy(policy), seed, first, count)
    assert rows.shape == (count, len(OUTCOME_COLUMNS))
    assert rows.tolist() == play_deal_rows(game, policy, seed, first, count)
    assert (rows[:, 3] <= MOVE_LIMIT).all()


# -- the canonical foundation-only policy against the reference's -------------------------------


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, deal=deals)
def test_foundation_only_agrees_with_the_reference(game, seed, deal):
    g = get_game(game)
    deck, reshuffles = deal_deck(g.array, seed, deal)
    played = play_deck(g, resolve_policy("foundation-only"), deck, seed, deal, reshuffles)
    moves, result = foundation_only_moves(game, [card_text(int(c)) for c in deck])
    assert [move for move, _ in played.moves] == moves
    assert played.outcome.result() == result
