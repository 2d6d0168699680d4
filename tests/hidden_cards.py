"""Fairness checks shared by the policy tests and the guides' tests: the deck positions a player
never sees, and two decks that differ only there played in step, with the same choices asserted
while the player's views agree (docs/rules.md section 8)."""

from __future__ import annotations

import numpy as np

from simstats.engine.deals import deal_deck
from simstats.engine.games import get_game
from simstats.engine.moves import apply_move, lay_out, status
from simstats.engine.notation import parse_move
from simstats.engine.observe import Observation, blank_observation, observe
from simstats.engine.state import ONGOING, new_state
from simstats.policies import resolve_policy
from simstats.run.move_by_move import start_policy


def hidden_positions(game_id: str) -> list[int]:
    """Deck positions a player never sees at the start, from the game's rules: the stock (after
    the 8 first cards and the piles of the layout) and, where piles are squared, every column
    card but the top one."""
    rules = get_game(game_id).rules
    layout = rules.n_columns * rules.deal_per_pile  # cards on the columns (or reserve piles)
    hidden = list(range(8 + layout, 104))
    if rules.hide_buried:
        tops = ({8 + (rules.deal_per_pile - 1) * rules.n_columns + c
                 for c in range(rules.n_columns)} if rules.deal_by_row else
                {8 + rules.deal_per_pile * c + rules.deal_per_pile - 1
                 for c in range(rules.n_columns)})
        hidden += [p for p in range(8, 8 + layout) if p not in tops]
    return hidden


def view(obs: Observation) -> tuple:
    return (obs.reserve, obs.tableau, obs.foundation_sizes, obs.stock_size, obs.redeals_left,
            obs.moves_made, obs.legal_moves)


def moves_while_views_agree(game_id, policy_name, deck_a, deck_b, seed, deal) -> int:
    """Play both decks in step; assert equal choices while the views are equal."""
    game = get_game(game_id)
    spec = resolve_policy(policy_name)
    states = [new_state(), new_state()]
    policies = [spec.make(), spec.make()]
    for state, deck, policy in zip(states, (deck_a, deck_b), policies, strict=True):
        lay_out(state, game.array, deck)
        start_policy(policy, spec, game, seed, deal)
    steps = 0
    while all(status(s, game.array) == ONGOING for s in states):
        views = []
        for state in states:
            buffer = blank_observation()
            observe(state, game.array, buffer)
            views.append(Observation(game.id, game.array, buffer))
        if view(views[0]) != view(views[1]):
            break  # the change became visible
        choices = [p.choose(o) for p, o in zip(policies, views, strict=True)]
        assert choices[0] == choices[1], f"{policy_name} in {game_id} saw a hidden card"
        if choices[0] is None:
            break
        for state in states:
            apply_move(state, game.array, parse_move(choices[0]))
        steps += 1
    return steps


# The planner samples and solves at every card it sees: fewer, smaller searches keep this
# test short (parameters are data; the code is the same); margin 1 makes it leave lookahead's
# plan more often, and its samples are judged by fair playouts, which observe the samples; in
# Napoleon's Flank its tree search has 100 samples.
CHEAPER = {"planner": "planner[samples=4,proposals=4,effort=3000,budget=25000,margin=1,"
                      "playout=1,tree=100]"}


def check_hidden_cards_change_no_move(game_id: str, policy: str) -> None:
    """30 deals of `policy` in `game_id`, each played in step with the same deck, its hidden
    cards shuffled: no move changes until the change becomes visible."""
    rng = np.random.default_rng(1)
    game = get_game(game_id)
    total_steps = 0
    for deal in range(30):
        deck, _ = deal_deck(game.array, 21, deal)
        other = deck.copy()
        positions = hidden_positions(game_id)
        other[positions] = deck[rng.permutation(positions)]
        assert sorted(other) == sorted(deck)
        total_steps += moves_while_views_agree(game_id, CHEAPER.get(policy, policy), deck, other,
                                               21, deal)
    assert total_steps > 30  # the comparison ran over real play, not just the first move
