"""The search's pruning (safe moves, transfer plays, first empty cell, fingerprints) and the
positions it marks dead, checked against a plain breadth-first search over every legal move
on small endgames, won and lost."""

from __future__ import annotations

import random
from collections import deque

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from search_helpers import line_of, memo_schedule, replay

from simstats.engine.games import get_game
from simstats.engine.moves import apply_move, foundation_cards, legal_moves
from simstats.engine.state import (
    CAPACITY,
    FOUNDATIONS,
    LENGTHS,
    MAX_LEGAL_MOVES,
    MOVES,
    REDEALS,
    SIZE,
    STOCK,
    TABLEAU,
)
from simstats.search import SEARCH_LOST, SEARCH_WON, new_memo, search_buffers, solve

# --- the pruning (safe moves, transfer plays, first empty cell, fingerprints) against a plain
# breadth-first search over every legal move, on small Tournament endgames


def _key(state: np.ndarray, cells: bool) -> bytes:
    """Everything but the move counter. Tournament's reserve cells as a sorted list (any card
    may fill any empty cell and a cell card can only go home, so which cell holds it does not
    matter); Kingsdown Eights' columns sorted (its deals go to the reserve piles, and a card
    may go to any empty column, so no rule tells its columns apart)."""
    def pile(p):
        return state[p * CAPACITY : p * CAPACITY + state[LENGTHS + p]].tobytes()

    if cells:
        reserve = [bytes(sorted(int(state[r * CAPACITY]) for r in range(8) if state[LENGTHS + r]))]
        columns = [pile(p) for p in range(TABLEAU, STOCK)]
    else:
        reserve = [pile(p) for p in range(TABLEAU)]
        columns = sorted(pile(p) for p in range(TABLEAU, STOCK))
    return (b"|".join([*reserve, *columns, pile(STOCK)]) + state[FOUNDATIONS:MOVES].tobytes()
            + bytes([state[REDEALS]]))


def winnable_by_brute_force(start: np.ndarray, rules, cells: bool = True) -> bool:
    seen, queue = {_key(start, cells)}, deque([start])
    buffer = np.empty(MAX_LEGAL_MOVES, dtype=np.int64)
    while queue:
        state = queue.popleft()
        if foundation_cards(state) == 104:
            return True
        for move in buffer[: legal_moves(state, rules, buffer)]:
            child = state.copy()
            apply_move(child, rules, int(move))
            key = _key(child, cells)
            if key not in seen:
                seen.add(key)
                queue.append(child)
        assert len(seen) < 300_000, "position too big for the brute-force check"
    return False


def suit_home(state, suit, first, home, kingsdown=False) -> list[int]:
    """Put `home` cards of `suit` on its foundations, `first` on the first (up from the ace)
    and the rest on the second (down from the king; in Kingsdown Eights up from the ace too);
    the suit's cards not home."""
    state[FOUNDATIONS + suit], state[FOUNDATIONS + suit + 4] = first, home - first
    out = []
    for rank in range(13):
        second_holds = rank < home - first if kingsdown else rank >= 13 - (home - first)
        out += [suit * 13 + rank] * (2 - (rank < first) - second_holds)
    return out


@st.composite
def small_endgames(draw, game_id):
    """Foundation counts near full, and the 5-10 cards not home dealt to the reserve and the
    columns: in Tournament some cells taken from the start, so that cells are scarce as in a
    real game; in Kingsdown Eights onto its reserve piles and columns."""
    kingsdown = game_id == "kingsdown-eights"
    state = np.zeros(SIZE, dtype=np.int16)
    outside = []
    for suit in range(4):
        home = draw(st.integers(20, 26))
        outside += suit_home(state, suit, draw(st.integers(home - 13, 13)), home, kingsdown)
    assume(5 <= len(outside) <= 10)
    outside = draw(st.permutations(outside))
    for i, card in enumerate(outside):
        if kingsdown:
            pile = draw(st.integers(0, 5))  # reserve piles R0-R2, columns T0-T2
            pile = pile if pile < 3 else TABLEAU + pile - 3
        elif i < draw(st.integers(0, min(len(outside) - 2, 7))):
            pile = i  # a cell
        else:
            pile = TABLEAU + draw(st.integers(0, 2))
        state[pile * CAPACITY + state[LENGTHS + pile]] = card
        state[LENGTHS + pile] += 1
    state[REDEALS] = draw(st.integers(1, 2))
    return state


# small_endgames keeps only deals with 5-10 cards out, so most draws are thrown away (by
# design: the counts home are drawn per suit); Hypothesis' check of that failed one CI run in
# many, on a seed that generated 9 endgames and threw away 50
ENDGAME_HEALTH = [HealthCheck.too_slow, HealthCheck.filter_too_much]


@settings(max_examples=40, deadline=None, suppress_health_check=ENDGAME_HEALTH)
@given(data=st.data())
@pytest.mark.parametrize("game_id", ["tournament", "kingsdown-eights"])
def test_the_search_agrees_with_brute_force(work, deep_work, game_id, data):
    check_against_brute_force(data.draw(small_endgames(game_id)), work, deep_work, game_id)


@settings(max_examples=40, deadline=None, suppress_health_check=ENDGAME_HEALTH)
@given(data=st.data())
@pytest.mark.parametrize("game_id", ["tournament", "kingsdown-eights"])
def test_positions_proven_dead_across_searches_agree_with_brute_force(work, game_id, data):
    # searches far too small to decide alone, then (where none decided) one that can, all
    # skipping what earlier ones marked dead: a mark on a position that can still win would
    # turn a win into a wrong proof of loss
    start = data.draw(small_endgames(game_id))
    rules = get_game(game_id).array
    expected = winnable_by_brute_force(start, rules, cells=game_id == "tournament")
    result, searches = memo_schedule(start, rules, work, 3, False, 63, last=1_000_000)
    assert result == (SEARCH_WON if expected else SEARCH_LOST)
    if result == SEARCH_WON:
        assert foundation_cards(replay(start, line_of(work, result), rules)) == 104
    # the same with a table of 16 entries: marks given away cost time, never the verdict
    tiny = search_buffers(table_bits=4)
    assert memo_schedule(start, rules, tiny, 3, False, 63, last=1_000_000)[0] == result


@settings(max_examples=25, deadline=None, suppress_health_check=ENDGAME_HEALTH)
@given(data=st.data())
@pytest.mark.parametrize("game_id", ["tournament", "kingsdown-eights"])
def test_marks_kept_for_the_next_position_agree_with_brute_force(work, game_id, data):
    # the `solver` policy keeps a deal's marks from one schedule to the next (after a redeal,
    # from another position): a mark must hold wherever the next search starts
    start = data.draw(small_endgames(game_id))
    rules = get_game(game_id).array
    buffer = np.empty(MAX_LEGAL_MOVES, dtype=np.int64)
    legal = [int(m) for m in buffer[: legal_moves(start, rules, buffer)]]
    assume(legal)
    after = start.copy()
    apply_move(after, rules, data.draw(st.sampled_from(legal)))
    expected = winnable_by_brute_force(after, rules, cells=game_id == "tournament")
    memo = new_memo(work.info)
    memo_schedule(start, rules, work, 3, False, 63, memo=memo)  # marks from `start`
    result, _ = memo_schedule(after, rules, work, 3, False, 63, last=1_000_000, memo=memo)
    assert result == (SEARCH_WON if expected else SEARCH_LOST)


@st.composite
def low_suit_endgames(draw):
    """Tournament endgames with one suit 11-13 home (so that no copy of a card it takes is home
    yet) and the others 25-26, most cells taken from the start: where reserve cards go home at
    once although their suit has fewer than 14 home (safe_cards). At most 16 cards out, which
    the brute-force search takes in seconds."""
    state = np.zeros(SIZE, dtype=np.int16)
    low = draw(st.integers(0, 3))
    outside = []
    for suit in range(4):
        home = draw(st.integers(11, 13)) if suit == low else draw(st.integers(25, 26))
        outside += suit_home(state, suit, draw(st.integers(max(0, home - 13), min(13, home))),
                             home)
    assume(len(outside) <= 16)
    outside = draw(st.permutations(outside))
    cells = draw(st.integers(3, 8))
    for i, card in enumerate(outside):
        pile = i if i < cells else TABLEAU + draw(st.integers(0, 2))
        state[pile * CAPACITY + state[LENGTHS + pile]] = card
        state[LENGTHS + pile] += 1
    state[REDEALS] = draw(st.integers(1, 2))
    return state


@settings(max_examples=30, deadline=None, suppress_health_check=ENDGAME_HEALTH)
@given(data=st.data())
def test_reserve_cards_sent_home_below_14_agree_with_brute_force(work, deep_work, data):
    check_against_brute_force(data.draw(low_suit_endgames()), work, deep_work)


def blocked_endgame(draw_int, shuffled) -> np.ndarray:
    """A settled Tournament endgame that can be lost: three suits 18-26 home and one 9-26
    (below, at and past 13), 14-26 cards out, at most one cell free, and each of two or three
    columns stacked so that the card its suit needs last lies on top. Random endgames are
    nearly always won (of 10,000 small_endgames none was lost, of 2,000 low_suit_endgames 4),
    so without these the brute-force check would hardly ever meet a proof of loss.
    `draw_int(lo, hi)` and `shuffled(list)` are the source of chance: Hypothesis' or a seeded
    generator's. None when the draw has too few or too many cards out."""
    state = np.zeros(SIZE, dtype=np.int16)
    low = draw_int(0, 3)
    outside = []
    for suit in range(4):
        home = draw_int(9, 26) if suit == low else draw_int(18, 26)
        outside += suit_home(state, suit, draw_int(max(0, home - 13), min(13, home)), home)
    if not 14 <= len(outside) <= 26:
        return None

    def turns_to_go(card):  # how many cards of its suit must go home before it can
        suit, rank = divmod(card, 13)
        up, down = int(state[FOUNDATIONS + suit]), int(state[FOUNDATIONS + suit + 4])
        return min(d for d in (rank - up, 12 - down - rank) if d >= 0)

    outside = shuffled(outside)
    cells = min(draw_int(7, 8), len(outside) - 2)
    columns = [[] for _ in range(draw_int(2, 3))]
    for i, card in enumerate(outside):
        if i < cells:
            state[i * CAPACITY], state[LENGTHS + i] = card, 1
        else:
            columns[draw_int(0, len(columns) - 1)].append(card)
    for c, cards in enumerate(columns):
        pile = TABLEAU + c
        for k, card in enumerate(sorted(cards, key=turns_to_go)):  # the last needed on top
            state[pile * CAPACITY + k] = card
        state[LENGTHS + pile] = len(cards)
    state[REDEALS] = 2  # settled: with a redeal left the brute-force search takes minutes
    return state


@st.composite
def blocked_endgames(draw):
    state = blocked_endgame(lambda lo, hi: draw(st.integers(lo, hi)),
                            lambda cards: draw(st.permutations(cards)))
    assume(state is not None)
    return state


def check_against_brute_force(start, work, deep_work, game_id="tournament") -> bool:
    """The exact search's verdict, deep, with a table of 16 entries and as a schedule of small
    searches sharing their marks, each against the brute-force search; whether it is won."""
    rules = get_game(game_id).array
    expected = winnable_by_brute_force(start, rules, cells=game_id == "tournament")
    result = solve(start, rules, 1_000_000, 2000, False, work)
    assert result == (SEARCH_WON if expected else SEARCH_LOST)
    if result == SEARCH_WON:
        assert foundation_cards(replay(start, line_of(work, result), rules)) == 104
    # a deep search (past the move guard) agrees too
    assert solve(start, rules, 1_000_000, 2000, False, deep_work) == result
    # a table of 16 entries, full at once: replacing entries costs time, never the verdict
    assert solve(start, rules, 1_000_000, 2000, False, search_buffers(table_bits=4)) == result
    assert memo_schedule(start, rules, work, 3, False, 63, last=1_000_000)[0] == result
    return expected


@settings(max_examples=40, deadline=None, suppress_health_check=ENDGAME_HEALTH)
@given(data=st.data())
def test_proofs_of_loss_agree_with_brute_force(work, deep_work, data):
    check_against_brute_force(data.draw(blocked_endgames()), work, deep_work)


def test_the_brute_force_check_meets_lost_endgames(work, deep_work):
    # the same kind of endgame from a seeded generator: the check above is only as good as
    # the losses it meets, so both verdicts must be among these 30
    rng = random.Random(0)
    verdicts = []
    while len(verdicts) < 30:
        start = blocked_endgame(rng.randint, lambda cards: rng.sample(cards, len(cards)))
        if start is not None:
            verdicts.append(check_against_brute_force(start, work, deep_work))
    assert 5 <= verdicts.count(False) <= 25
