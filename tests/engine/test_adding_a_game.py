"""docs/adding-a-game.md stays true: its worked example, run as written, registers a game that
the engine, the compiled loop, move-by-move play, the fairness test and the reports handle."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from conservation import check_conservation
from hidden_cards import hidden_positions, moves_while_views_agree

from simstats.engine import games
from simstats.engine.cards import HIDDEN
from simstats.engine.deals import deal_deck
from simstats.engine.moves import apply_move, lay_out, status
from simstats.engine.notation import parse_move
from simstats.engine.observe import Observation, blank_observation, observe
from simstats.engine.state import CAPACITY, LENGTHS, ONGOING, OUTCOME_COLUMNS, TABLEAU, new_state
from simstats.policies import resolve_policy
from simstats.report.summary import same_deck_pairs
from simstats.run.compiled_play import run_compiled
from simstats.run.move_by_move import play_deck

GUIDE = Path(__file__).parents[2] / "docs" / "adding-a-game.md"


@pytest.fixture
def squared_cicely():
    """The guide's first Python block, run as written; the registry restored afterwards."""
    saved = dict(games.GAMES), dict(games._NAMES)
    block = re.search(r"```python\n(.*?)```", GUIDE.read_text(), re.S).group(1)
    namespace: dict = {}
    exec(compile(block, str(GUIDE), "exec"), namespace)
    yield namespace["SQUARED_CICELY"]
    games.GAMES.clear()
    games.GAMES.update(saved[0])
    games._NAMES.clear()
    games._NAMES.update(saved[1])


def test_the_example_game_is_registered_under_its_names(squared_cicely):
    assert games.get_game("Squared-Cicely") is squared_cicely
    assert games.get_game("blind-cicely") is squared_cicely
    cicely = games.GAMES["cicely"]
    assert same_deck_pairs(["cicely", "squared-cicely"]) == [(squared_cicely, cicely)]
    with pytest.raises(ValueError, match="already taken"):
        games.register(squared_cicely)


def test_it_deals_cicelys_decks_and_hides_all_but_the_column_tops(squared_cicely):
    cicely = games.get_game("cicely")
    for deal in range(5):
        deck, _ = deal_deck(squared_cicely.array, 3, deal)
        assert (deck == deal_deck(cicely.array, 3, deal)[0]).all()
        state, obs = new_state(), blank_observation()
        lay_out(state, squared_cicely.array, deck)
        observe(state, squared_cicely.array, obs)
        for c in range(8):
            n = obs[LENGTHS + TABLEAU + c]
            column = obs[(TABLEAU + c) * CAPACITY : (TABLEAU + c) * CAPACITY + n]
            assert (column[:-1] == HIDDEN).all() and column[-1] != HIDDEN


@pytest.mark.parametrize("policy", ["foundation-only", "dig"])
def test_policies_play_it_in_the_loop_and_move_by_move_alike(squared_cicely, policy):
    spec = resolve_policy(policy)
    rows = run_compiled(squared_cicely, spec, 5, 0, 20)
    assert rows[:, OUTCOME_COLUMNS.index("foundation_cards")].max() > 8
    for deal in range(20):
        deck, reshuffles = deal_deck(squared_cicely.array, 5, deal)
        played = play_deck(squared_cicely, spec, deck, 5, deal, reshuffles)
        assert played.outcome.foundation_cards == rows[deal, OUTCOME_COLUMNS.index(
            "foundation_cards")]
        assert played.outcome.moves == rows[deal, OUTCOME_COLUMNS.index("moves")]


def test_every_card_stays_somewhere_and_hidden_cards_change_no_move(squared_cicely):
    rng = np.random.default_rng(4)
    steps = 0
    for deal in range(10):
        deck, _ = deal_deck(squared_cicely.array, 6, deal)
        other = deck.copy()
        positions = hidden_positions("squared-cicely")
        assert len(positions) == 64 + 24  # the stock, and three cards of each column
        other[positions] = deck[rng.permutation(positions)]
        steps += moves_while_views_agree("squared-cicely", "lookahead", deck, other, 6, deal)
        state = new_state()
        lay_out(state, squared_cicely.array, deck)
        player = resolve_policy("random").make()
        player.seed_stream(6, deal)
        while status(state, squared_cicely.array) == ONGOING:
            check_conservation("squared-cicely", state)
            obs = blank_observation()
            observe(state, squared_cicely.array, obs)
            move = player.choose(Observation("squared-cicely", squared_cicely.array, obs))
            if move is None:
                break
            apply_move(state, squared_cicely.array, parse_move(move))
    assert steps > 10


def test_each_rule_lands_in_the_slot_of_its_name_whatever_the_field_order():
    from dataclasses import fields

    from simstats.engine import rules as R

    names = [rule.name for rule in fields(R.Rules)]
    assert sorted([*R.SLOTS.values(), R.SOLVER_PROOF]) == list(range(R.N_FIELDS))
    distinct = R.Rules(**{name: number + 2 for number, name in enumerate(names)})
    array = distinct.array(solver_proof=R.PROOF_NOTHING_BUILDS_ON)
    for number, name in enumerate(names):
        assert array[getattr(R, name.upper())] == number + 2, name
    assert array[R.SOLVER_PROOF] == R.PROOF_NOTHING_BUILDS_ON
    assert (games.get_game("cicely").array[: R.SOLVER_PROOF]
            == games.get_game("cicely").rules.array()[: R.SOLVER_PROOF]).all()
