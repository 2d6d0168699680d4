"""Quick tests of the reference implementation of docs/rules.md (tests/reference_rules.py)."""

from __future__ import annotations

import json
import random

import pytest

try:
    import reference_rules as rr
except ImportError:  # tests/ imported as a package
    from tests import reference_rules as rr

SORTED_DECK = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"] * 2


def shuffled_deck(rng: random.Random, game: str) -> list[str]:
    """A random deck; for tournament-like games one with an ace or king in the reserve."""
    while True:
        deck = list(SORTED_DECK)
        rng.shuffle(deck)
        if game not in ("tournament", "napoleons-flank"):
            return deck
        if any(card[0] in "AK" for card in deck[:8]):
            return deck


def make_trace(game: str, deck: list[str], moves: list[str], result: dict) -> list[str]:
    """Build trace lines by replaying ``moves`` on a fresh game."""
    state = rr.RefGame(game, deck)
    lines = [json.dumps({"game": game, "deck": " ".join(deck), "policy": "foundation-only"})]
    for move in moves:
        card = state.apply(move)
        record = {"move": move} if card is None else {"move": move, "card": card}
        lines.append(json.dumps(record))
    lines.append(json.dumps({"result": result}))
    return lines


# -- decks -------------------------------------------------------------------


def test_parse_deck_accepts_ten_and_rejects_bad_decks():
    text = " ".join(SORTED_DECK).replace("TH", "10H")
    assert rr.parse_deck(text) == SORTED_DECK
    with pytest.raises(ValueError, match="104"):
        rr.parse_deck(" ".join(SORTED_DECK[:-1]))
    with pytest.raises(ValueError, match="XX"):
        rr.parse_deck(" ".join(SORTED_DECK[:-1] + ["XX"]))
    with pytest.raises(ValueError, match="3 times"):
        rr.parse_deck(" ".join(SORTED_DECK[:-1] + ["AC"]))


def test_tournament_deck_needing_reshuffle_is_an_error():
    deck = [c for c in SORTED_DECK if c[0] not in "AK"] + [c for c in SORTED_DECK if c[0] in "AK"]
    with pytest.raises(ValueError):
        rr.RefGame("tournament", deck)
    with pytest.raises(ValueError):
        rr.RefGame("nivernaise", deck)
    rr.RefGame("cicely", deck)
    rr.RefGame("kingsdown-eights", deck)


# -- layouts -----------------------------------------------------------------


@pytest.mark.parametrize("game", ["tournament", "marechal-saxe", "napoleons-flank"])
def test_tournament_layout(game):
    d = SORTED_DECK
    g = rr.RefGame(game, d)
    assert g.reserve == [[card] for card in d[:8]]
    assert len(g.tableau) == 6
    assert g.tableau[0] == d[8:12]  # card 12 (index 11) on top
    assert g.tableau[0][-1] == d[11]
    assert g.tableau[5] == d[28:32]
    assert g.stock == d[32:]
    assert g.foundations == [[] for _ in range(8)]


def test_cicely_layout_row_by_row():
    d = SORTED_DECK
    g = rr.RefGame("cicely", d)
    assert g.reserve == [[card] for card in d[:8]]
    assert g.tableau[0] == [d[8], d[16], d[24], d[32]]
    assert g.tableau[7] == [d[15], d[23], d[31], d[39]]
    assert g.stock == d[40:]


def test_kingsdown_layout_pile_by_pile():
    d = SORTED_DECK
    g = rr.RefGame("kingsdown-eights", d)
    assert g.tableau == [[card] for card in d[:8]]
    assert g.reserve[0] == d[8:12]
    assert g.reserve[7] == d[36:40]
    assert g.stock == d[40:]


# -- dealing -----------------------------------------------------------------


def test_deals_of_each_game():
    g = rr.RefGame("tournament", SORTED_DECK)
    old = [list(col) for col in g.tableau]
    g.apply("deal")
    assert g.tableau[0] == old[0] + SORTED_DECK[32:36]
    assert g.tableau[5] == old[5] + SORTED_DECK[52:56]
    g = rr.RefGame("cicely", SORTED_DECK)
    g.apply("deal")
    assert g.tableau[0][4:] == [SORTED_DECK[40], SORTED_DECK[48], SORTED_DECK[56], SORTED_DECK[64]]
    g = rr.RefGame("kingsdown-eights", SORTED_DECK)
    g.apply("deal")
    assert g.reserve[0][4:] == SORTED_DECK[40:44]
    assert g.reserve[1][4:] == SORTED_DECK[44:48]
    assert (g.deals, g.moves) == (1, 1)


def test_redeal_stock_deals_t0_bottom_first():
    g = rr.RefGame("tournament", SORTED_DECK)
    while g.stock:
        g.apply("deal")
    assert "redeal" in g.legal_moves() and "deal" not in g.legal_moves()
    old = [list(col) for col in g.tableau]
    gathered = [card for col in old for card in col]
    reserve = [list(cell) for cell in g.reserve]
    g.apply("redeal")
    assert g.tableau[0] == old[0][:4]
    assert g.tableau[1] == old[0][4:8]
    assert g.stock == gathered[24:]
    assert g.reserve == reserve
    assert (g.redeals, g.deals) == (1, 3)
    while g.stock:
        g.apply("deal")
    g.apply("redeal")
    while g.stock:
        g.apply("deal")
    assert "redeal" not in g.legal_moves()  # only 2 redeals


def test_emptied_tournament_column_takes_four_stock_cards():
    g = rr.RefGame("tournament", SORTED_DECK)
    g.tableau[2] = ["5D"]
    g.foundations[1] = ["AD", "2D", "3D", "4D"]
    next_cards = g.stock[:4]
    assert g.apply("T2>F1") == "5D"
    assert g.tableau[2] == next_cards  # the 4th stock card on top
    assert len(g.stock) == 68
    assert g.deals == 0
    # emptying a column into a reserve cell refills it too
    g.reserve[3] = []
    g.tableau[4] = ["9S"]
    next_cards = g.stock[:4]
    g.apply("T4>R3")
    assert g.tableau[4] == next_cards


def test_tournament_no_building_reserve_only_to_foundation():
    g = rr.RefGame("tournament", SORTED_DECK)
    g.tableau[0] = ["5H"]
    g.tableau[1] = ["4H"]
    g.reserve[0] = ["6H"]
    legal = g.legal_moves()
    assert not [m for m in legal if m.endswith(("T0", "T1", "T2", "T3", "T4", "T5"))]
    assert not any(m.startswith("R0>") for m in legal)
    assert "T6>F0" not in legal and all("T6" not in m and "T7" not in m for m in legal)


# -- building ----------------------------------------------------------------


def test_cicely_builds_up_and_down_in_suit():
    g = rr.RefGame("cicely", SORTED_DECK)
    g.tableau = [["7H"], ["6H"], ["8H"], ["7D"], ["KH"], ["AH"], [], ["9C"]]
    g.reserve[0] = ["8H"]
    legal = g.legal_moves()
    assert "T1>T0" in legal and "T2>T0" in legal and "R0>T0" in legal
    assert "T0>T1" in legal and "T0>T2" in legal
    assert "T3>T0" not in legal  # wrong suit
    assert "T4>T5" not in legal and "T5>T4" not in legal  # no wrap between A and K
    assert "T0>T6" in legal and "R0>T6" in legal  # any card to an empty column
    assert not any(m.startswith("R") and m[3] == "R" for m in legal)
    assert g.apply("T1>T0") == "6H"
    assert g.tableau[0] == ["7H", "6H"]


def test_kingsdown_builds_down_in_alternating_colour():
    g = rr.RefGame("kingsdown-eights", SORTED_DECK)
    g.tableau = [["8S"], ["7H"], ["7C"], ["9H"], ["9D"], [], ["2C"], ["3D"]]
    g.reserve[0] = ["7D"]
    legal = g.legal_moves()
    assert "T1>T0" in legal and "R0>T0" in legal
    assert "T2>T0" not in legal  # same colour
    assert "T0>T3" in legal and "T0>T4" in legal
    assert "T3>T0" not in legal  # building up is not allowed
    assert "T6>T7" in legal
    assert "R0>T5" in legal and "T0>T5" in legal
    assert not any(m[-2] == "R" for m in legal if ">" in m)  # nothing onto a reserve pile
    assert g.apply("R0>T0") == "7D"


def test_kingsdown_foundations_all_up_no_transfer():
    g = rr.RefGame("kingsdown-eights", SORTED_DECK)
    g.tableau[0] = ["AS"]
    g.tableau[1] = ["KS"]
    legal = g.legal_moves()
    assert "T0>F3" in legal and "T0>F7" in legal
    assert "T1>F7" not in legal
    g.apply("T0>F7")
    g.foundations[3] = ["AS"]
    assert not any(m.startswith("F") for m in g.legal_moves())


# -- foundations -------------------------------------------------------------


def test_foundation_transfer():
    g = rr.RefGame("tournament", SORTED_DECK)
    g.foundations[0] = ["AC", "2C", "3C", "4C", "5C"]
    g.foundations[4] = ["KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C"]
    legal = g.legal_moves()
    assert "F0>F4" in legal and "F4>F0" in legal
    assert g.apply("F0>F4") == "5C"
    assert g.foundations[4][-1] == "5C" and g.foundations[0][-1] == "4C"
    # a card may leave a full foundation when it fits on the other one
    g.foundations[2] = [r + "H" for r in "A23456789TJQK"]
    assert "F2>F6" in g.legal_moves()
    assert g.apply("F2>F6") == "KH"
    assert "F6>F2" in g.legal_moves()


def test_random_legal_play_conserves_cards():
    rng = random.Random(20240)
    for game in rr.GAMES:
        for _ in range(5):
            g = rr.RefGame(game, shuffled_deck(rng, game))
            for _ in range(400):
                legal = g.legal_moves()
                if not legal:
                    break
                g.apply(rng.choice(legal))
                assert sorted(g.all_cards()) == sorted(SORTED_DECK)
                if game != "kingsdown-eights":  # reserve cells hold at most one card
                    assert all(len(cell) <= 1 for cell in g.reserve)


# -- the foundation-only policy and traces -------------------------------------


def test_foundation_only_round_trip_through_check_trace():
    rng = random.Random(7)
    for game in rr.GAMES:
        for _ in range(10):
            deck = shuffled_deck(rng, game)
            moves, result = rr.foundation_only_moves(game, deck)
            assert result["moves"] == len(moves)
            assert result["end"] in ("won", "no_moves", "resigned")
            assert result["deals"] == moves.count("deal")
            assert rr.check_trace(make_trace(game, deck, moves, result)) == result


def test_check_trace_accepts_alias():
    deck = shuffled_deck(random.Random(3), "tournament")
    moves, result = rr.foundation_only_moves("marechal-saxe", deck)
    assert rr.check_trace(make_trace("marechal-saxe", deck, moves, result)) == result


def test_check_trace_rejects_illegal_move_and_wrong_card():
    deck = SORTED_DECK
    moves, result = rr.foundation_only_moves("cicely", deck)
    lines = make_trace("cicely", deck, moves, result)
    bad = lines[:1] + [json.dumps({"move": "R0>R1", "card": deck[0]})] + lines[1:]
    with pytest.raises(AssertionError, match="line 2.*R0>R1"):
        rr.check_trace(bad)
    card_move = next(i for i, m in enumerate(moves, start=1) if m != "deal")
    bad = list(lines)
    bad[card_move] = json.dumps({"move": moves[card_move - 1], "card": "XX"})
    with pytest.raises(AssertionError, match=f"line {card_move + 1}"):
        rr.check_trace(bad)


def test_check_trace_rejects_wrong_result():
    deck = shuffled_deck(random.Random(11), "tournament")
    moves, result = rr.foundation_only_moves("tournament", deck)
    for key, value in [
        ("moves", result["moves"] + 1),
        ("deals", result["deals"] - 1),
        ("redeals", 0 if result["redeals"] else 1),
        ("foundation_cards", result["foundation_cards"] + 1),
        ("won", not result["won"]),
        ("end", "move_limit"),
    ]:
        wrong = dict(result, **{key: value})
        with pytest.raises(AssertionError, match=key if key != "end" else "end"):
            rr.check_trace(make_trace("tournament", deck, moves, wrong))
    # stopping early while moves remain is "resigned", not "no_moves"
    short = moves[:3]
    state = rr.RefGame("tournament", deck)
    for move in short:
        state.apply(move)
    assert rr.check_trace(make_trace("tournament", deck, short, state.result("resigned")))
    with pytest.raises(AssertionError, match="end"):
        rr.check_trace(make_trace("tournament", deck, short, state.result("no_moves")))


def test_check_trace_move_limit():
    # Cicely deck: R0 = AC, T0 = 5C 4C 3C 2C (bottom to top), so T0 can be emptied at once.
    placed = {0: "AC", 8: "5C", 16: "4C", 24: "3C", 32: "2C"}
    others = list(SORTED_DECK)
    for card in placed.values():
        others.remove(card)
    deck = [placed[i] if i in placed else others.pop(0) for i in range(104)]
    assert rr.parse_deck(" ".join(deck)) == deck
    moves = ["R0>F0"] + ["T0>F0"] * 4 + ["T1>R0"]
    while len(moves) < rr.MOVE_LIMIT:
        moves.append("R0>T0" if moves[-1] != "R0>T0" else "T0>R0")
    state = rr.RefGame("cicely", deck)
    for move in moves:
        state.apply(move)
    limit_result = state.result("move_limit")
    assert rr.check_trace(make_trace("cicely", deck, moves, limit_result)) == limit_result
    with pytest.raises(AssertionError, match="end"):
        rr.check_trace(make_trace("cicely", deck, moves, state.result("resigned")))
    one_less = moves[:-1]
    state = rr.RefGame("cicely", deck)
    for move in one_less:
        state.apply(move)
    with pytest.raises(AssertionError, match="end"):
        rr.check_trace(make_trace("cicely", deck, one_less, state.result("move_limit")))
    over = make_trace("cicely", deck, moves, limit_result)
    over.insert(-1, json.dumps({"move": "deal"}))
    with pytest.raises(AssertionError, match="beyond"):
        rr.check_trace(over)
