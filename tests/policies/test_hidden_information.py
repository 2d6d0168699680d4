"""Fairness: changing cards the player cannot see (the stock's order; Napoleon's Flank's buried
column cards) changes no policy's moves until the change becomes visible (docs/rules.md
section 8)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hidden_cards import check_hidden_cards_change_no_move
from plugins import policy_id

from simstats.engine.deals import deal_deck
from simstats.engine.games import GAMES, get_game
from simstats.engine.observe import Observation
from simstats.policies import BUILTINS, CompiledPlayer

EXAMPLES = Path(__file__).parents[2] / "examples"
EXAMPLE_PLUGINS = [f"{EXAMPLES / 'greedy_cells.py'}:GreedyCells",
                   f"{EXAMPLES / 'blind_digger.py'}:BlindDigger"]
# rollout with blind-digger playouts draws its samples from what the player remembers
REMEMBERING_ROLLOUT = ["rollout[base=blind-digger,samples=2]"]


@pytest.mark.parametrize("policy", sorted(BUILTINS) + EXAMPLE_PLUGINS + REMEMBERING_ROLLOUT,
                         ids=policy_id)
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_changing_hidden_cards_changes_no_move_until_seen(game_id, policy):
    check_hidden_cards_change_no_move(game_id, policy)


def test_a_policy_receives_an_observation_not_the_state():
    seen = []

    class Spy:
        def choose(self, obs):
            seen.append(obs)
            return obs.legal_moves[0] if len(seen) < 30 else None

    from simstats.policies import PolicySpec
    from simstats.run.move_by_move import play_deck

    game = get_game("napoleons-flank")
    deck, reshuffles = deal_deck(game.array, 0, 0)
    play_deck(game, PolicySpec("spy", "", Spy), deck, 0, 0, reshuffles)
    for obs in seen:
        assert type(obs) is Observation
        assert all(card is None for column in obs.tableau for card in column[:-1])
        assert not hasattr(obs, "stock") and not hasattr(obs, "state")
        stock = obs._array[16 * 104 : 17 * 104]
        assert (stock == 52).all()  # the stock slot holds no real card


def test_every_builtin_is_a_compiled_policy():
    assert all(isinstance(spec.make(), CompiledPlayer) for spec in BUILTINS.values())
