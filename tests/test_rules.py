"""One small hand-built position per rule sentence of docs/rules.md sections 2-8, for every game the
sentence concerns. Piles are written bottom first; the stock first-to-deal first."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from click.testing import CliRunner
from positions import (
    ALL_GAMES,
    BUILDING,
    TOURNAMENT_LIKE,
    WITH_TRANSFERS,
    can,
    legal,
    make_state,
    observation,
    pile,
    play,
)

from simstats.cards import HIDDEN, RANKS, SUITS, card_text, parse_card
from simstats.cli import cli as cli_group
from simstats.deals import deal_deck
from simstats.engine.moves import apply_move, deal_piles, deal_share, lay_out, status
from simstats.engine.notation import move_text, parse_move
from simstats.engine.observe import blank_observation, observe
from simstats.engine.state import (
    CAPACITY,
    DEAL,
    DEALS,
    FOUNDATIONS,
    LENGTHS,
    MOVE_LIMIT,
    MOVE_LIMIT_REACHED,
    MOVES,
    NO_MOVES,
    ONGOING,
    REDEALS,
    STOCK,
    TABLEAU,
    WON,
    new_state,
)
from simstats.games import get_game
from simstats.policies import PolicySpec, resolve_policy
from simstats.simulate import play_deck, run_compiled

GAMES = ALL_GAMES
TWO_DECKS = [rank + suit for suit in SUITS for rank in RANKS] * 2


# -- helpers -----------------------------------------------------------------------------


def rules(game: str) -> np.ndarray:
    return get_game(game).array


def end(game: str, state: np.ndarray) -> int:
    return int(status(state, rules(game)))


def seeded_deck(game: str, seed: int, deal: int) -> tuple[list[str], int]:
    deck, reshuffles = deal_deck(rules(game), seed, deal)
    return [card_text(int(c)) for c in deck], reshuffles


def laid_out(game: str, deck: list[str]) -> np.ndarray:
    state = new_state()
    lay_out(state, rules(game), np.asarray([parse_card(c) for c in deck], dtype=np.int16))
    return state


def build_deck(placed: dict[int, str]) -> list[str]:
    """A 104-card deck with the given cards at the given indices, the rest in a fixed order."""
    rest = list(TWO_DECKS)
    for card in placed.values():
        rest.remove(card)
    return [placed[i] if i in placed else rest.pop(0) for i in range(104)]


def from_source(moves: set[str], source: str) -> set[str]:
    return {m for m in moves if m.startswith(source + ">")}


def has_ace_or_king(cards: list[str]) -> bool:
    return any(card[0] in "AK" for card in cards)


def stock_slot(game: str, state: np.ndarray) -> np.ndarray:
    obs = blank_observation()
    observe(state, rules(game), obs)
    return obs[STOCK * CAPACITY : (STOCK + 1) * CAPACITY]


def spec(name: str, factory) -> PolicySpec:
    return PolicySpec(name, f"test policy {name}", factory)


class Quitter:
    """Stops at once."""

    def choose(self, obs):
        return None


class DealTwiceThenQuit:
    """Deals twice, then stops."""

    def choose(self, obs):
        return "deal" if obs.moves_made < 2 and "deal" in obs.legal_moves else None


class TransfersFirst:
    """A foundation transfer if any, else any move to a foundation, else stop."""

    def choose(self, obs):
        for move in obs.legal_moves:
            if move.startswith("F"):
                return move
        for move in obs.legal_moves:
            if ">F" in move:
                return move
        return None


# 24 and 32 distinct stock cards for deal tests
STOCK_24 = "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
STOCK_32 = STOCK_24 + " 2S 3S 4S 5S 6S 7S 8S 9S"


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


# == Section 3: what all games share =======================================================


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


@pytest.mark.parametrize("game", GAMES)
def test_won_when_all_104_cards_are_on_the_foundations(game):
    assert end(game, make_state(game, foundations=[13] * 8)) == WON
    last = "KS" if game == "kingsdown-eights" else "AS"  # F7 built up there, down elsewhere
    state = make_state(game, tableau=[last], foundations=[13] * 7 + [12])
    assert end(game, state) == ONGOING
    assert play(game, state, "T0>F7") == last
    assert end(game, state) == WON


@pytest.mark.parametrize("game", GAMES)
def test_won_takes_precedence_over_the_move_limit(game):
    state = make_state(game, foundations=[13] * 8)
    state[MOVES] = MOVE_LIMIT
    assert end(game, state) == WON


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


@pytest.mark.parametrize("game", GAMES)
def test_deal_is_legal_whenever_the_stock_has_cards(game):
    # a foundation move is possible too: dealing need not wait
    state = make_state(game, reserve=["AC"], tableau=["AD"], stock="5H")
    assert can(game, state, "deal")
    assert "deal" in legal(game, state)
    state = make_state(game, reserve=["AC"], tableau=["AD"])
    assert not can(game, state, "deal")
    assert "deal" not in legal(game, state)


def no_moves_position(game: str, redeals: int = 2) -> np.ndarray:
    if game in TOURNAMENT_LIKE:
        return make_state(
            game, reserve="5H 6H 7H 8H 5D 6D 7D 8D".split(), tableau=["9S 2C"], redeals=redeals
        )
    if game == "cicely":
        return make_state(
            game,
            reserve="6H 8H TH QH 6S 8S TS QS".split(),
            tableau="2C 4C 6C 8C TC QC 2D 4D".split(),
        )
    # kingsdown: all black columns, no ace on top anywhere, an ace buried in a reserve pile
    return make_state(game, reserve=["AH 3S"], tableau="2C 4C 6C 8C TC QC 5S 9S".split())


@pytest.mark.parametrize("game", GAMES)
def test_no_moves_when_nothing_is_legal(game):
    state = no_moves_position(game)
    assert legal(game, state) == set()
    assert end(game, state) == NO_MOVES


@pytest.mark.parametrize("game", TOURNAMENT_LIKE)
def test_a_redeal_left_is_a_move(game):
    state = no_moves_position(game, redeals=1)
    assert legal(game, state) == {"redeal"}
    assert end(game, state) == ONGOING


@pytest.mark.parametrize("game", GAMES)
def test_no_moves_takes_precedence_over_the_move_limit(game):
    """docs/rules.md does not say which end a stuck game at 2,000 moves has; the engine and the
    reference (tests/reference_rules.py, convention 1) both say no_moves."""
    state = no_moves_position(game)
    state[MOVES] = MOVE_LIMIT
    assert end(game, state) == NO_MOVES


def move_limit_position(game: str) -> np.ndarray:
    if game == "kingsdown-eights":  # one card wandering between empty columns
        return make_state(game, tableau=["5H"])
    # F0 holds A..5C, F4 K..6C: the transfers can go on for ever
    return make_state(game, reserve=["9H"], tableau=["QD"], foundations=[5, 0, 0, 0, 8])


@pytest.mark.parametrize("game", GAMES)
def test_move_limit_after_2000_moves(game):
    state = move_limit_position(game)
    prefix = "T" if game == "kingsdown-eights" else "F"
    while end(game, state) == ONGOING:
        assert int(state[MOVES]) < MOVE_LIMIT
        move = next(m for m in observation(game, state).legal_moves if m.startswith(prefix))
        apply_move(state, rules(game), parse_move(move))
        if int(state[MOVES]) == MOVE_LIMIT - 1:
            assert end(game, state) == ONGOING
    assert end(game, state) == MOVE_LIMIT_REACHED
    assert int(state[MOVES]) == MOVE_LIMIT == 2000


def transfer_loop_deck(game: str) -> list[str]:
    """All 13 clubs within reach from the layout: AC..5C and KC QC JC in R0..R7, and TC 9C 8C
    7C 6C on top of T0..T4."""
    placed = dict(enumerate("AC 2C 3C 4C 5C KC QC JC".split()))
    tops = [32 + c for c in range(5)] if game == "cicely" else [11 + 4 * c for c in range(5)]
    placed.update(zip(tops, "TC 9C 8C 7C 6C".split(), strict=True))
    return build_deck(placed)


@pytest.mark.parametrize("game", WITH_TRANSFERS)
def test_move_limit_through_play_deal(game):
    deck = [parse_card(c) for c in transfer_loop_deck(game)]
    played = play_deck(get_game(game), spec("transfers-first", TransfersFirst), deck)
    outcome = played.outcome
    assert (outcome.end, outcome.won, outcome.moves) == ("move_limit", False, 2000)
    assert outcome.foundation_cards == 13
    assert len(played.moves) == 2000
    assert all(move.startswith("F") for move, _ in played.moves[13:])


@pytest.mark.parametrize("game", GAMES)
def test_resigned_when_the_policy_stops(game):
    deck, reshuffles = deal_deck(rules(game), 5, 2)
    played = play_deck(get_game(game), spec("quitter", Quitter), deck, 5, 2, reshuffles)
    outcome = played.outcome
    assert (outcome.end, outcome.won, outcome.moves, outcome.deals) == ("resigned", False, 0, 0)
    played = play_deck(get_game(game), spec("deal-twice", DealTwiceThenQuit), deck, 5, 2)
    outcome = played.outcome
    assert (outcome.end, outcome.moves, outcome.deals) == ("resigned", 2, 2)
    assert played.moves == [("deal", None), ("deal", None)]


# == Layouts (4.1-4.2, 6.1-6.2, 7.1) ========================================================


@pytest.mark.parametrize("game", TOURNAMENT_LIKE)
@pytest.mark.parametrize("seed, deal", [(0, 0), (7, 3), (2024, 11)])
def test_tournament_layout(game, seed, deal):
    deck, _ = seeded_deck(game, seed, deal)
    state = laid_out(game, deck)
    for r in range(8):
        assert pile(state, f"R{r}") == [deck[r]]
    for c in range(6):
        assert pile(state, f"T{c}") == deck[8 + 4 * c : 12 + 4 * c]  # card 12 + 4c on top
    assert pile(state, "T0")[-1] == deck[11]
    assert pile(state, "T6") == pile(state, "T7") == []
    assert pile(state, "stock") == deck[32:] and len(deck[32:]) == 72
    assert [int(state[i]) for i in (MOVES, DEALS, REDEALS)] == [0, 0, 0]
    assert not state[FOUNDATIONS : FOUNDATIONS + 8].any()


@pytest.mark.parametrize("seed, deal", [(0, 0), (7, 3), (2024, 11)])
def test_cicely_layout_row_by_row(seed, deal):
    deck, _ = seeded_deck("cicely", seed, deal)
    state = laid_out("cicely", deck)
    for r in range(8):
        assert pile(state, f"R{r}") == [deck[r]]
    for c in range(8):
        assert pile(state, f"T{c}") == [deck[8 + c], deck[16 + c], deck[24 + c], deck[32 + c]]
    assert pile(state, "stock") == deck[40:] and len(deck[40:]) == 64
    assert [int(state[i]) for i in (MOVES, DEALS, REDEALS)] == [0, 0, 0]


@pytest.mark.parametrize("seed, deal", [(0, 0), (7, 3), (2024, 11)])
def test_kingsdown_layout_pile_by_pile(seed, deal):
    deck, _ = seeded_deck("kingsdown-eights", seed, deal)
    state = laid_out("kingsdown-eights", deck)
    for c in range(8):
        assert pile(state, f"T{c}") == [deck[c]]
    for r in range(8):
        assert pile(state, f"R{r}") == deck[8 + 4 * r : 12 + 4 * r]  # card 12 + 4r on top
    assert pile(state, "stock") == deck[40:] and len(deck[40:]) == 64
    assert [int(state[i]) for i in (MOVES, DEALS, REDEALS)] == [0, 0, 0]


def test_layouts_of_a_hand_made_deck():
    deck = TWO_DECKS  # AC..KC, AD..KD, ... twice
    state = laid_out("tournament", deck)
    assert pile(state, "R0") == ["AC"] and pile(state, "T0") == ["9C", "TC", "JC", "QC"]
    assert pile(state, "T5") == ["3H", "4H", "5H", "6H"] and pile(state, "stock")[0] == "7H"
    state = laid_out("cicely", deck)
    assert pile(state, "T0") == ["9C", "4D", "QD", "7H"] and pile(state, "stock")[0] == "2S"
    state = laid_out("kingsdown-eights", deck)
    assert pile(state, "T7") == ["8C"] and pile(state, "R0") == ["9C", "TC", "JC", "QC"]
    assert pile(state, "R7") == ["JH", "QH", "KH", "AS"] and pile(state, "stock")[0] == "2S"


# == Reshuffles (4.1, 6.1, 7.1, 11) ==========================================================


def test_ace_or_king_reshuffle_and_common_first_shuffle():
    reshuffled = plain = 0
    for seed in (0, 1, 99991):
        for deal in range(40):
            tournament, t_reshuffles = seeded_deck("tournament", seed, deal)
            flank, f_reshuffles = seeded_deck("napoleons-flank", seed, deal)
            cicely, c_reshuffles = seeded_deck("cicely", seed, deal)
            kingsdown, k_reshuffles = seeded_deck("kingsdown-eights", seed, deal)
            assert sorted(tournament) == sorted(cicely) == sorted(TWO_DECKS)
            assert has_ace_or_king(tournament[:8])
            assert (flank, f_reshuffles) == (tournament, t_reshuffles)
            assert c_reshuffles == k_reshuffles == 0
            assert cicely == kingsdown  # the unreshuffled first shuffle
            if t_reshuffles == 0:
                plain += 1
                assert tournament == cicely  # the first shuffle is common to all games
            else:
                reshuffled += 1
                assert not has_ace_or_king(cicely[:8])  # the first shuffle needed one
                assert tournament != cicely
    assert reshuffled > 0 and plain > 0


@pytest.mark.parametrize("game", GAMES)
def test_reshuffle_counts_are_recorded(game):
    rows = run_compiled(get_game(game), resolve_policy("foundation-only"), 3, 0, 30)
    expected = [seeded_deck(game, 3, deal)[1] for deal in range(30)]
    assert rows[:, 0].tolist() == expected
    if game in TOURNAMENT_LIKE:
        assert max(expected) > 0
    else:
        assert max(expected) == 0


def test_cicely_and_kingsdown_need_no_ace_or_king():
    deal = next(d for d in range(100) if seeded_deck("tournament", 0, d)[1] > 0)
    deck, reshuffles = seeded_deck("cicely", 0, deal)
    assert reshuffles == 0 and not has_ace_or_king(deck[:8])
    for game in BUILDING:
        state = laid_out(game, deck)
        assert int(state[MOVES]) == 0 and pile(state, "stock") == deck[40:]


@pytest.mark.parametrize("game", GAMES)
def test_explicit_deck_needing_a_reshuffle(game, tmp_path):
    deck = [c for c in TWO_DECKS if c[0] not in "AK"] + [c for c in TWO_DECKS if c[0] in "AK"]
    path = tmp_path / "deck.txt"
    path.write_text(" ".join(deck) + "\n")
    result = CliRunner().invoke(
        cli_group, ["play", "--game", game, "--deck", str(path), "--policy", "foundation-only"]
    )
    if game in TOURNAMENT_LIKE:
        assert result.exit_code == 2
        assert "ace or a king" in result.output
    else:
        assert result.exit_code == 0, result.output


# == Section 4: Tournament (and Napoleon's Flank, section 5) =================================


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
