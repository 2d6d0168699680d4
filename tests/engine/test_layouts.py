"""docs/rules.md 4.1-4.2, 6.1-6.2, 7.1 and 11: each game's layout from a seeded or
hand-made deck, and the ace-or-king reshuffle of Tournament and Napoleon's Flank."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from positions import BUILDING, TOURNAMENT_LIKE, pile
from rule_helpers import GAMES, TWO_DECKS, laid_out, seeded_deck

from simstats.cli import cli as cli_group
from simstats.engine.games import get_game
from simstats.engine.state import DEALS, FOUNDATIONS, MOVES, REDEALS
from simstats.policies import resolve_policy
from simstats.run.compiled_play import run_compiled


def has_ace_or_king(cards: list[str]) -> bool:
    return any(card[0] in "AK" for card in cards)


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
