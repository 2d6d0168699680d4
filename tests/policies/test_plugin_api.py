"""The public API a user's compiled policy is written with (simstats/policies/api.py): it reads
exactly what Observation shows, its recollection remembers only cards that were seen, and a
board plays a move without touching the view."""

from __future__ import annotations

import numpy as np
import pytest

from simstats.engine.cards import HIDDEN, card_text
from simstats.engine.deals import deal_deck
from simstats.engine.games import GAMES, get_game
from simstats.engine.moves import apply_move, lay_out, status
from simstats.engine.notation import move_text, parse_move
from simstats.engine.observe import Observation, blank_observation, observe
from simstats.engine.state import CAPACITY, LENGTHS, ONGOING, new_state
from simstats.policies import api, resolve_policy


def observations(game_id: str, deals: int = 3, every: int = 2):
    """Observations every few moves of `random` games."""
    game = get_game(game_id)
    spec = resolve_policy("random")
    for deal in range(deals):
        state = new_state()
        deck, _ = deal_deck(game.array, 8, deal)
        lay_out(state, game.array, deck)
        player = spec.make()
        player.seed_stream(8, deal)
        made = 0
        while status(state, game.array) == ONGOING:
            buffer = blank_observation()
            observe(state, game.array, buffer)
            obs = Observation(game_id, game.array, buffer)
            if made % every == 0:
                yield obs
            move = player.choose(obs)
            if move is None:
                break
            apply_move(state, game.array, parse_move(move))
            made += 1


def text(card: int) -> str | None:
    return None if card == HIDDEN else card_text(int(card))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_api_reads_exactly_what_the_observation_shows(game_id):
    checked = 0
    for obs in observations(game_id):
        view = api.new_view(obs._array, obs._rules)
        tops = [api.foundation_top(view, f) for f in range(8)]
        assert [None if c == api.NO_CARD else card_text(c) for c in tops] == list(
            obs.foundations)
        assert [api.foundation_size(view, f) for f in range(8)] == list(obs.foundation_sizes)
        assert tuple(tuple(text(api.reserve_card(view, r, k))
                           for k in range(api.reserve_size(view, r))) for r in range(8)
                     ) == obs.reserve
        assert api.column_count(view) == len(obs.tableau)
        for c, column in enumerate(obs.tableau):
            assert tuple(text(api.column_card(view, c, k))
                         for k in range(api.column_size(view, c))) == column
            assert (api.column_top(view, c) == api.NO_CARD) == (not column)
        assert api.stock_size(view) == obs.stock_size
        assert api.redeals_left(view) == obs.redeals_left
        assert api.moves_made(view) == obs.moves_made
        moves = [api.legal_move(view, i) for i in range(api.legal_count(view))]
        assert [move_text(m) for m in moves] == list(obs.legal_moves)
        for move, written in zip(moves, obs.legal_moves, strict=True):
            kind = api.move_kind(move)
            if written in ("deal", "redeal"):
                assert kind == (api.DEAL_MOVE if written == "deal" else api.REDEAL_MOVE)
                assert api.move_card(view, move) == api.NO_CARD
                continue
            source, target = written.split(">")
            kinds = {"R": api.RESERVE, "T": api.COLUMN, "F": api.FOUNDATION}
            assert api.place_kind(api.move_source(move)) == kinds[source[0]]
            assert api.place_index(api.move_source(move)) == int(source[1:])
            assert api.place_kind(api.move_target(move)) == kinds[target[0]]
            assert api.place_index(api.move_target(move)) == int(target[1:])
            expected = {("F", "F"): api.TRANSFER, ("R", "F"): api.HOME, ("T", "F"): api.HOME,
                        ("T", "R"): api.TO_RESERVE, ("R", "T"): api.TO_COLUMN,
                        ("T", "T"): api.TO_COLUMN, ("R", "R"): api.TO_RESERVE}
            assert kind == expected[source[0], target[0]]
            pile = {"R": obs.reserve, "T": obs.tableau}.get(source[0])
            card = card_text(api.move_card(view, move))
            if pile is not None:
                assert card == pile[int(source[1:])][-1]
            else:
                assert card == obs.foundations[int(source[1:])]
            assert api.is_legal(view, move)
        checked += 1
    assert checked > 20


def test_card_helpers():
    for card in range(52):
        assert api.card_of(api.rank(card), api.suit(card)) == card
        assert card_text(card)[0] == "A23456789TJQK"[api.rank(card) - 1]
        assert card_text(card)[1] == "CDHS"[api.suit(card)]
        assert (api.colour(card) == api.RED) == (card_text(card)[1] in "DH")


def test_recall_remembers_buried_cards_truly_and_only_what_was_seen():
    """Napoleon's Flank: every card the recollection shows is the state's card at that place,
    and it shows buried cards the observation hides (seen before a deal covered them)."""
    game = get_game("napoleons-flank")
    spec = resolve_policy("random")
    field = api.recollection()
    remembered_buried = 0
    for deal in range(6):
        recollection = np.full(field.shape, field.fill, dtype=field.dtype)
        field.init(recollection)
        state, obs = new_state(), blank_observation()
        deck, _ = deal_deck(game.array, 3, deal)
        lay_out(state, game.array, deck)
        player = spec.make()
        player.seed_stream(3, deal)
        while status(state, game.array) == ONGOING:
            observe(state, game.array, obs)
            view = api.new_view(obs, game.array)
            api.recall(view, recollection)  # its row 0 is the position recalled
            for pile in range(17):
                for k in range(state[LENGTHS + pile]):
                    card = recollection[0, pile * CAPACITY + k]
                    if card != HIDDEN:
                        assert card == state[pile * CAPACITY + k]
                        remembered_buried += int(obs[pile * CAPACITY + k] == HIDDEN)
            move = player.choose(Observation(game.id, game.array, obs.copy()))
            if move is None:
                break
            api.remember(recollection, view, parse_move(move))
            apply_move(state, game.array, parse_move(move))
    assert remembered_buried > 100


@api.jit
def play_on_board(view, boards, move, legal):
    """Try `move` on board 0; its legal moves into `legal`, their count returned (compiled
    views into boards cannot be handed to Python, so the test reads them here)."""
    board = api.board(view, boards, 0)
    api.play(board, move)
    for j in range(api.legal_count(board)):
        legal[j] = api.legal_move(board, j)
    return api.legal_count(board)


def in_use(position: np.ndarray) -> tuple:
    """A position's piles as far as they reach, and its counts: what a stale slot cannot hide."""
    piles = tuple(tuple(position[p * CAPACITY : p * CAPACITY + position[LENGTHS + p]].tolist())
                  for p in range(17))
    return piles, tuple(position[LENGTHS:].tolist())


def test_a_board_plays_a_move_without_touching_the_view():
    game = get_game("tournament")
    field = api.boards(2)
    boards = np.full(field.shape, field.fill, dtype=field.dtype)
    field.init(boards)
    legal = np.empty(600, dtype=np.int64)
    tried = 0
    for obs in observations("tournament", deals=2):
        view = api.new_view(obs._array.copy(), obs._rules)
        before = view[0].copy()
        for i in range(api.legal_count(view)):
            move = api.legal_move(view, i)
            count = play_on_board(view, boards, move, legal)
            expected = before.copy()
            apply_move(expected, game.array, move)
            assert in_use(boards[0, : len(expected)]) == in_use(expected)
            assert legal[:count].tolist() == [parse_move(m) for m in Observation(
                game.id, game.array, expected).legal_moves]
            tried += 1
        assert (view[0] == before).all()
    assert tried > 100
