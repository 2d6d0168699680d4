"""Every game x built-in policy: the compiled loop and the move-by-move loop agree, and every
trace replays move by move against the independent reference implementation."""

from __future__ import annotations

import pytest
import reference_rules as ref
from traces import trace_lines

from simstats.engine.cards import card_text
from simstats.engine.deals import deal_deck
from simstats.engine.games import GAMES, get_game
from simstats.engine.state import END_NAMES, OUTCOME_COLUMNS
from simstats.policies import BUILTINS, resolve_policy
from simstats.run.compiled_play import run_compiled
from simstats.run.move_by_move import play_deck

DEALS = 40
# Policies too slow for the full count (rollout plays hundreds of base games per deal) check
# fewer deals, still in every game.
DEALS_FOR = {"rollout": 20, "planner": 4}
# ... and the planner with fewer, cheaper samples (the same code: its parameters are data),
# leaving lookahead's plan on a one-sample lead, so that plans on samples are played (and in
# Napoleon's Flank a tree search of 100 samples).
NAME_FOR = {"planner": "planner[samples=4,proposals=4,effort=3000,budget=25000,margin=1,"
                       "tree=100]"}


@pytest.mark.parametrize("policy", sorted(BUILTINS))
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_compiled_and_move_by_move_agree_and_replay(game_id, policy):
    game, spec = get_game(game_id), resolve_policy(NAME_FOR.get(policy, policy))
    deals = DEALS_FOR.get(policy, DEALS)
    rows = run_compiled(game, spec, 11, 100, deals)
    for i in range(deals):
        deck, reshuffles = deal_deck(game.array, 11, 100 + i)
        play = play_deck(game, spec, deck, 11, 100 + i, reshuffles)
        o = play.outcome
        expected = dict(zip(OUTCOME_COLUMNS, (int(v) for v in rows[i]), strict=True))
        assert expected == {
            "reshuffles": o.reshuffles, "won": int(o.won), "foundation_cards": o.foundation_cards,
            "moves": o.moves, "deals": o.deals, "redeals": o.redeals,
            "end": END_NAMES.index(o.end),
        }
        assert ref.check_trace(trace_lines(play)) == o.result()


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_foundation_only_makes_exactly_the_moves_of_rules_section_9(game_id):
    game, spec = get_game(game_id), resolve_policy("foundation-only")
    for deal in range(25):
        deck, reshuffles = deal_deck(game.array, 3, deal)
        play = play_deck(game, spec, deck, 3, deal, reshuffles)
        moves, result = ref.foundation_only_moves(game_id, [card_text(int(c)) for c in deck])
        assert [m for m, _ in play.moves] == moves
        assert play.outcome.result() == result


def test_random_policy_is_deterministic_given_its_seed():
    game, spec = get_game("cicely"), resolve_policy("random")
    first = run_compiled(game, spec, 5, 0, 50)
    again = run_compiled(game, spec, 5, 0, 50)
    other_seed = run_compiled(game, spec, 6, 0, 50)
    assert (first == again).all()
    assert (first != other_seed).any()


def test_deals_do_not_depend_on_chunking():
    game, spec = get_game("tournament"), resolve_policy("random")
    whole = run_compiled(game, spec, 9, 0, 60)
    pieces = [run_compiled(game, spec, 9, start, 20) for start in (40, 0, 20)]
    assert (whole[0:20] == pieces[1]).all()
    assert (whole[20:40] == pieces[2]).all()
    assert (whole[40:60] == pieces[0]).all()


def test_tournament_and_napoleons_flank_play_the_same_deck():
    for deal in range(30):
        t, rt = deal_deck(get_game("tournament").array, 0, deal)
        n, rn = deal_deck(get_game("la-nivernaise").array, 0, deal)
        assert (t == n).all() and rt == rn


@pytest.mark.parametrize("policy", ["foundation-only", "solver"])
def test_move_by_move_play_calls_the_very_code_the_batch_loop_compiled(policy, monkeypatch):
    """One compiled entry a policy (policies/compiled.py: play): choosing move by move passes
    it the same types as playing a batch, so it compiles nothing more (other types would be
    the policy's whole code compiled again)."""
    import numba

    from simstats.policies.compiled import loop_module

    game, spec = get_game("tournament"), resolve_policy(policy)
    loop, calls = loop_module(spec), []
    entry = loop.play

    class Recording:
        signatures = entry.signatures

        def compile(self, signature):
            return entry.compile(signature)

        def __call__(self, *args):
            calls.append((bool(args[0]), tuple(numba.typeof(a) for a in args)))
            return entry(*args)

    monkeypatch.setattr(loop, "play", Recording())
    run_compiled(game, spec, 0, 0, 1)
    deck, reshuffles = deal_deck(game.array, 0, 0)
    assert play_deck(game, spec, deck, 0, 0, reshuffles).outcome.moves > 0
    batch = {types for choosing, types in calls if not choosing}
    chosen = {types for choosing, types in calls if choosing}
    assert batch and chosen and batch == chosen, (batch, chosen)
