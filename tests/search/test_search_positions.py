"""The exact search (simstats/solver.py) on hand-built positions: wins found, a lost one
proven lost, its budget and the move guard kept; and its pieces (the cards that fit home,
the foundations' keys, the moves it tries, the fingerprints it reads ahead) against the rules."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import make_state
from search_helpers import TOURNAMENT, laid_out, line_of, replay

from simstats.engine import rules as R
from simstats.engine.cards import card_suit
from simstats.engine.deals import deal_deck
from simstats.engine.games import get_game
from simstats.engine.moves import (
    apply_move,
    fits_foundation,
    foundation_cards,
    is_legal,
    legal_moves,
)
from simstats.engine.notation import move_text, parse_move
from simstats.engine.state import (
    CAPACITY,
    FOUNDATIONS,
    LENGTHS,
    MAX_LEGAL_MOVES,
    MOVES,
    STOCK,
    TABLEAU,
    new_state,
)
from simstats.run.solve import solve_deal
from simstats.search import (
    BEST_LENGTH,
    DEEP,
    NODES,
    SEARCH_LOST,
    SEARCH_UNDECIDED,
    SEARCH_WON,
    search_buffers,
    solve,
)
from simstats.search.fingerprint import home_key
from simstats.search.safe_moves import fitting_cards

ALL_HOME_BUT_CLUBS = [0, 13, 13, 13, 13, 13, 13, 13]


def clubs_position(up: int, down: int, columns: list[str], cells=(), redeals=2):
    foundations = list(ALL_HOME_BUT_CLUBS)
    foundations[0], foundations[4] = up, down
    return make_state("tournament", reserve=list(cells), tableau=columns,
                      foundations=foundations, redeals=redeals)


@pytest.mark.parametrize("eager", [False, True])
def test_a_dig_through_a_cell_is_found(work, eager):
    # QC under KC: the king must wait in a cell while the queen goes home
    start = clubs_position(11, 13, ["QC KC"])
    result = solve(start, TOURNAMENT.array, 1000, 2000, eager, work)
    assert result == SEARCH_WON
    line = line_of(work, result)
    assert [move_text(m) for m in line] == ["T0>R0", "T0>F0", "R0>F0"]
    assert foundation_cards(replay(start, line)) == 104


def test_a_win_that_needs_the_redeal_is_found(work):
    # 4C lies under nine clubs, one more than there are cells: only the redeal, which deals the
    # column again from its bottom card, brings it up
    column = "4C KC QC JC TC 9C 8C 7C 6C 5C"
    start = clubs_position(3, 13, [column], redeals=1)
    result = solve(start, TOURNAMENT.array, 100_000, 2000, False, work)
    assert result == SEARCH_WON
    line = line_of(work, result)
    assert "redeal" in [move_text(m) for m in line]
    assert foundation_cards(replay(start, line)) == 104


def test_the_same_position_without_a_redeal_is_proven_lost(work):
    start = clubs_position(3, 13, ["4C KC QC JC TC 9C 8C 7C 6C 5C"], redeals=2)
    assert solve(start, TOURNAMENT.array, 100_000, 2000, False, work) == SEARCH_LOST
    # the line kept for a lost position is the one with the most cards home: none can go
    assert foundation_cards(replay(start, line_of(work, SEARCH_LOST))) == 94


# Two positions lookahead reached in Tournament (seed 0), the stock out and both redeals made,
# that a search playing more cards home at once than the proof allows proves lost
FIXED_BOUNDARY = make_state(
    "tournament", reserve=["9H", "8H", "3D", "TD", "", "5C"],
    tableau=["9D QC 3H 9C 6D 2C 6H 5D 4H 2C 6S JC JH 6H 8S 4D", "8C KC 4C QS AD JD 2H AH 5C 2S 3C",
             "JD QH AC TS 3C TH 9D JH 5H QD", "3S JS KH 8D QH 8H TH 7C 2D", "TC 5S KD AS 9H 7D 7H",
             "6C 4S KS 4C 9S TD 6C 7H"],
    foundations=[1, 8, 5, 7, 7, 2, 1, 7], redeals=2)
TWIN_IN_A_COLUMN = make_state(
    "tournament", reserve=["7S", "", "QH", "3C", "2C"],
    tableau=["JC AC JH 8S 3D 7D 9H AD TC 7S", "TH KC QD TS 5S TD 9D 6S", "4D 2D 8H 8S 5D 5H JS",
             "2S 3S 4C KD KH 4S 3H", "8D 6D QC JD 4H QS", "9S 9S 2H 6S KS AS AH"],
    foundations=[9, 9, 7, 5, 9, 4, 8, 4], redeals=2)


@pytest.mark.parametrize("start", [FIXED_BOUNDARY, TWIN_IN_A_COLUMN],
                         ids=["a reserve card at 13 home", "a column card below 14 home"])
def test_a_card_the_proof_leaves_out_is_not_sent_home_at_once(work, start):
    # FIXED_BOUNDARY: sending a reserve card home when its suit has 13 home fixes the boundary
    # that transfers leave free; TWIN_IN_A_COLUMN: sending 6S home from T1 (spades: 9 home)
    # leaves the other 6S on T5 with no cell to go to, and only the line that plays T5's first
    # wins. The exact search wins both; with either play made safe, it proves them lost.
    result = solve(start, TOURNAMENT.array, 1_000_000, 2000, False, work)
    assert result == SEARCH_WON
    assert foundation_cards(replay(start, line_of(work, result))) == 104


def test_a_spent_budget_is_unknown_not_lost(work):
    start = clubs_position(3, 13, ["4C KC QC JC TC 9C 8C 7C 6C 5C"], redeals=1)
    assert solve(start, TOURNAMENT.array, 3, 2000, False, work) == SEARCH_UNDECIDED


@settings(max_examples=60, deadline=None)
@given(game_id=st.sampled_from(["tournament", "cicely", "kingsdown-eights"]),
       counts=st.lists(st.integers(0, 13), min_size=8, max_size=8))
def test_the_searchs_fitting_cards_are_the_cards_the_rules_let_go_home(game_id, counts):
    # candidates asks the engine's fits_foundation only of cards in fitting_cards' mask: the
    # two must agree on every card, or the search would miss plays home
    rules = get_game(game_id).array
    state = new_state()
    state[FOUNDATIONS:FOUNDATIONS + 8] = counts
    mask = fitting_cards(state, rules, 0)
    for card in range(52):
        suit = card_suit(card)
        fits = any(fits_foundation(state, rules, card, f) for f in (suit, suit + 4))
        assert bool((mask >> card) & 1) == fits


@pytest.mark.parametrize("game_id", ["tournament", "cicely", "kingsdown-eights"])
def test_the_looked_up_fitting_cards_agree_with_the_rules_for_every_count(game_id):
    # fitting_cards reads SUIT_FITS, a table made when the module loads: every pair of counts
    # a suit's two foundations can hold, each suit, both ways of building the second pile
    rules = get_game(game_id).array
    state = new_state()
    for up in range(14):
        for second in range(14):
            state[FOUNDATIONS:FOUNDATIONS + 4] = up
            state[FOUNDATIONS + 4:FOUNDATIONS + 8] = second
            mask = fitting_cards(state, rules, 0)
            for card in range(52):
                suit = card_suit(card)
                fits = any(fits_foundation(state, rules, card, f) for f in (suit, suit + 4))
                assert bool((mask >> card) & 1) == fits, (up, second, card)
            # a suit with fewer than `least_home` cards home offers none
            assert fitting_cards(state, rules, up + second + 1) == 0


@pytest.mark.parametrize("game_id", ["tournament", "cicely", "kingsdown-eights"])
def test_home_key_merges_exactly_the_foundations_the_rules_treat_alike(game_id):
    # home_key reads SUIT_HOME_KEYS: two counts of a suit's foundations share a key only when
    # transfers can turn one into the other (13 home, any boundary) or both piles are built up
    # from the ace (the same two piles in the other order); every other pair has its own
    rules = get_game(game_id).array
    transfers, down = bool(rules[R.TRANSFERS]), bool(rules[R.DOWN_FOUNDATIONS])

    def alike(a, b):
        return (a == b or (transfers and sum(a) == sum(b) == 13)
                or (not down and a == b[::-1]))

    for suit in range(4):
        keys = {}
        for pair in ((x, y) for x in range(14) for y in range(14)):
            state = new_state()
            state[FOUNDATIONS + suit], state[FOUNDATIONS + suit + 4] = pair
            keys[pair] = int(home_key(state, rules))
        for a in keys:
            for b in keys:
                assert (keys[a] == keys[b]) == alike(a, b), (suit, a, b)


def test_transfers_let_a_suit_with_13_home_take_any_rank(work):
    # A..6 up, 7..K down (13 home); the other copies of 9C, then the rest, come out of order
    start = clubs_position(6, 7, ["AC 2C 3C 4C 5C 6C 7C 8C KC QC JC TC 9C"])
    result = solve(start, TOURNAMENT.array, 100_000, 2000, False, work)
    assert result == SEARCH_WON
    assert foundation_cards(replay(start, line_of(work, result))) == 104


def test_the_move_guard_is_respected(work, deep_work):
    start = clubs_position(11, 13, ["QC KC"])
    start[MOVES] = 1998  # three moves are needed, two are left
    assert solve(start, TOURNAMENT.array, 1000, 2000 - 1998, False, work) != SEARCH_WON
    # a deep search finds the win past the guard: neither a win nor a proof of loss
    assert solve(start, TOURNAMENT.array, 1000, 2, False, deep_work) == SEARCH_UNDECIDED
    assert deep_work.info[BEST_LENGTH] <= 2  # the line kept fits the moves left


def test_a_deep_search_proves_what_a_search_stopped_at_the_guard_cannot():
    # Kingsdown Eights, seed 0, deal 9,309: its depth-first lines wander past 1,200 levels, so
    # a search that stops there proves nothing; a deep one exhausts every line
    from simstats.engine.state import MOVE_LIMIT

    game = get_game("kingsdown-eights")
    start = laid_out(game, deal_deck(game.array, 0, 9309)[0])
    shallow, deep = search_buffers(table_bits=21), search_buffers(table_bits=21, deep=True)
    assert solve(start, game.array, 2_000_000, MOVE_LIMIT, False, shallow) == SEARCH_UNDECIDED
    assert shallow.info[NODES] < 2_000_000  # stopped by the depth limit, not the budget
    deep.info[DEEP] = 1
    assert solve(start, game.array, 2_000_000, MOVE_LIMIT, False, deep) == SEARCH_LOST


def expected_candidates(state, rules) -> list[int]:
    """The legal moves (the engine's legal_moves) less the ones the search leaves out."""
    buffer = np.empty(MAX_LEGAL_MOVES, dtype=np.int64)
    n_columns = int(rules[0])
    cells = [r for r in range(8) if state[LENGTHS + r] == 0]
    empty = [TABLEAU + c for c in range(n_columns) if state[LENGTHS + TABLEAU + c] == 0]
    kept = []
    for move in (int(m) for m in buffer[: legal_moves(state, rules, buffer)]):
        if move < 24 * 24:
            src, dst = divmod(move, 24)
            if src >= 16:
                continue  # transfers
            if dst < TABLEAU and dst != cells[0]:
                continue
            if TABLEAU <= dst < 16 and state[LENGTHS + dst] == 0 and (
                    dst != empty[0] or (src >= TABLEAU and state[LENGTHS + src] == 1)):
                continue
            card = int(state[src * CAPACITY + state[LENGTHS + src] - 1])
            if dst >= 20 and is_legal(state, rules, src * 24 + 16 + card // 13):
                continue
        kept.append(move)
    return sorted(kept)


@pytest.mark.parametrize("game_id", ["tournament", "cicely", "kingsdown-eights"])
def test_the_search_tries_the_legal_moves_less_the_redundant_ones(work, game_id):
    from simstats.search import N_INFO, ORDER_SEED
    from simstats.search.memory import TRANSFER_PLAY
    from simstats.search.order import candidates

    game = get_game(game_id)
    out = np.empty(256, dtype=np.int64)
    scratch = np.empty(2 * MAX_LEGAL_MOVES, dtype=np.int64)
    checked = 0
    for deal in range(6):
        deck, _ = deal_deck(game.array, 8, deal)
        solution = solve_deal(game, deck, 2000)
        state = laid_out(game, deck)
        for move in [None, *(m for m, _ in solution.play.moves)]:
            if move is not None:
                apply_move(state, game.array, parse_move(move))
            info = np.zeros(N_INFO, dtype=np.int64)
            n = candidates(state, game.array, scratch, out, info)
            in_order = [int(m) for m in out[:n]]
            tried = sorted(m for m in in_order if m < TRANSFER_PLAY)
            assert tried == expected_candidates(state, game.array)
            info[ORDER_SEED] = 1 + checked  # a restart's shaken order: the same moves
            shaken = candidates(state, game.array, scratch, out, info)
            assert sorted(int(m) for m in out[:shaken]) == sorted(in_order)
            checked += 1
    assert checked > 200


@pytest.mark.parametrize("game_id", ["cicely", "kingsdown-eights"])
def test_a_deal_comes_last_only_where_it_buries_the_reserve(game_id):
    # Kingsdown Eights deals onto its reserve piles, so every other move is tried first there;
    # elsewhere a deal (new column tops) comes before builds and fills
    from simstats.engine.state import DEAL, FOUNDATION_PLACE, N_PLACES
    from simstats.search import N_INFO
    from simstats.search.order import candidates

    game = get_game(game_id)
    out = np.empty(256, dtype=np.int64)
    scratch = np.empty(2 * MAX_LEGAL_MOVES, dtype=np.int64)
    info = np.zeros(N_INFO, dtype=np.int64)
    moved_after_deal = 0
    for deal in range(20):
        state = laid_out(game, deal_deck(game.array, 3, deal)[0])
        n = candidates(state, game.array, scratch, out, info)
        moves = [int(m) for m in out[:n]]
        after = moves[moves.index(DEAL) + 1:]
        if game_id == "kingsdown-eights":
            assert after == []
        else:  # builds and fills, never a play home
            assert all(m % N_PLACES < FOUNDATION_PLACE for m in after)
        moved_after_deal += len(moves) > 1 and (after != [] or game_id == "kingsdown-eights")
    assert moved_after_deal >= 10


def test_each_game_declares_its_proof_of_safe_plays_and_a_new_game_inherits_none():
    from simstats.engine.games import GAMES, TOURNAMENT_RULES, Game
    from simstats.search.safe_moves import safe_move

    assert {g.id: int(g.array[R.SOLVER_PROOF]) for g in GAMES.values()} == {
        "tournament": R.PROOF_CELLS_NO_BUILDING, "napoleons-flank": R.PROOF_CELLS_NO_BUILDING,
        "cicely": R.NO_PROOF, "kingsdown-eights": R.PROOF_NOTHING_BUILDS_ON}
    # 7C in a cell, clubs with 14 home (A-6 up, K-6 down): provably safe in Tournament...
    state = make_state("tournament", reserve=["7C"], foundations=[6, 0, 0, 0, 8])
    assert move_text(int(safe_move(state, get_game("tournament").array, False))) == "R0>F0"
    # ...but a game made from Tournament's rules has no proof until its entry declares one
    fresh = Game("tournament-copy", (), "Tournament under another name", TOURNAMENT_RULES)
    assert fresh.array[R.SOLVER_PROOF] == R.NO_PROOF
    assert safe_move(state, fresh.array, False) == -1


@pytest.mark.parametrize("game_id", ["tournament", "cicely", "kingsdown-eights"])
def test_every_fingerprint_read_ahead_is_the_one_its_step_reaches(game_id):
    """expand reads some moves' positions without making them (quiet moves, quiet plays home,
    quiet transfer plays) and others' with the safe plays that follow them (chain_key, as minus
    the key): each such key must be the fingerprint the move and its safe plays reach, or
    the search would skip positions it never met; reading one leaves the position as it was,
    and a chain that would not fit in the moves left is not read."""
    from simstats.engine.moves import copy_position
    from simstats.engine.state import FOUNDATION_PLACE, N_PLACES
    from simstats.search.fingerprint import (
        ALL_PILES,
        columns_interchangeable,
        fingerprint,
        hash_pile_from,
        hash_stock_cards,
        update_pile_parts,
    )
    from simstats.search.lookup import chain_key, expand
    from simstats.search.make import advance, unmake
    from simstats.search.memory import MAX_LINE, TRANSFER_PLAY, search_buffers
    from simstats.search.safe_moves import safe_move

    game = get_game(game_id)
    rules = game.array
    work = search_buffers(table_bits=12)
    pos, moves, keys, line, undo = work.position, work.moves, work.keys, work.line, work.undo
    table, scratch, info, parts, prefix = (work.table, work.scratch, work.info, work.pile_parts,
                                           work.prefix)
    kinds = set()
    for deal in range(4):
        deck, _ = deal_deck(rules, 8, deal)
        solution = solve_deal(game, deck, 2000)
        state = laid_out(game, deck)
        for move in [None, *(m for m, _ in solution.play.moves)]:
            if move is not None:
                apply_move(state, rules, parse_move(move))
            for eager in (False, True):
                if safe_move(state, rules, eager) >= 0:
                    continue  # the search expands only positions its safe plays have settled
                copy_position(state, pos)
                for p in range(STOCK):
                    hash_pile_from(pos, prefix, p, 0)
                hash_stock_cards(pos, prefix)
                parts[0, :] = 0
                update_pile_parts(pos, rules, parts[0], ALL_PILES, prefix)
                fingerprint(pos, rules, parts[0])
                n = expand(pos, rules, eager, scratch, moves[0], keys[0], parts[0], prefix,
                             table, info, MAX_LINE)
                for i in range(n):
                    step = int(moves[0, i])
                    before = pos.copy()
                    symmetric = columns_interchangeable(pos, rules)
                    chained = int(chain_key(pos, rules, eager, prefix, parts[0], step,
                                              MAX_LINE, symmetric, scratch))
                    assert (pos == before).all(), move_text(step)
                    read = int(keys[0, i])  # minus a chain key
                    if read > 0 and chained != 0:
                        assert chained == read, move_text(step)
                    if read <= 0:
                        assert read == -chained, move_text(step)
                    key = abs(read)
                    if key == 0:
                        continue
                    length = advance(pos, rules, eager, step, line, undo, 0, prefix, True,
                                       MAX_LINE)
                    parts[1, :] = parts[0]
                    update_pile_parts(pos, rules, parts[1], ALL_PILES, prefix)
                    assert fingerprint(pos, rules, parts[1]) == key, move_text(step)
                    unmake(pos, rules, line, undo, 0, length, prefix)
                    if read < 0:
                        kinds.add("chain")
                        assert chain_key(pos, rules, eager, prefix, parts[0], step,
                                           length - 1, symmetric, scratch) == 0
                        continue
                    kinds.add("transfer" if step >= TRANSFER_PLAY else
                              "home" if step % N_PLACES >= FOUNDATION_PLACE else "move")
                    assert length == 1 or step >= TRANSFER_PLAY  # no safe play followed
    assert {"home", "move", "chain"} <= kinds
    if game_id == "tournament":
        assert "transfer" in kinds
