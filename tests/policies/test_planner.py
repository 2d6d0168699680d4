"""The `planner` policy (simstats/policies/planner.py): its samples fill exactly what the player
cannot see with exactly the cards it has not seen, the lines it follows stop at the first card
they would show, its vote, its play once everything is seen, and its refusals. (That changing
hidden cards changes none of its moves is tests/policies/test_hidden_information.py's, as for
every built-in; that compiled and move-by-move play agree, tests/policies/test_conformance.py's.)"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from simstats.engine.cards import DECK_SIZE, HIDDEN
from simstats.engine.deals import deal_deck
from simstats.engine.games import GAMES, get_game
from simstats.engine.moves import apply_move, is_down_foundation, lay_out, legal_moves, status
from simstats.engine.notation import parse_move
from simstats.engine.observe import (
    Observation,
    blank_observation,
    observe,
    recall,
    remember_move,
)
from simstats.engine.state import (
    CAPACITY,
    FOUNDATION_CARDS_AT,
    FOUNDATIONS,
    LENGTHS,
    MAX_LEGAL_MOVES,
    ONGOING,
    SIZE,
    STOCK,
    WON_AT,
    new_state,
)
from simstats.policies import PolicyError, resolve_policy
from simstats.policies.lookahead import LineWork
from simstats.policies.planner import (
    FOUND,
    MAX_PREFIX,
    PLAN_MOVES,
    PLAN_ROW,
    PlanWork,
    fair_finish,
    fair_prefix,
    keep_most_found,
    same_plan,
    shows_unseen,
)
from simstats.policies.solver import PARAMETERS as SOLVER_DEFAULTS
from simstats.policies.tactics import UNSEEN_SIZE, sample_position
from simstats.run.compiled_play import run_compiled
from simstats.run.move_by_move import start_policy
from simstats.search import search_buffers

# planner's search once every card is seen set to solver's defaults (planner's own is bigger),
# but for memo: with memo=1 a deal's searches keep marks in a table that planner's searches on
# samples also use (and size otherwise), so the two play alike only with memo=0
SOLVERS_SEARCH = ",".join(f"{name}={SOLVER_DEFAULTS[name].default_value:g}"
                          for name in ("budget", "restarts", "luby", "exact")) + ",memo=0"
SOLVER_ALONE = "solver[memo=0]"


def position_after(game, deal, steps, seed):
    """The state after `steps` random legal moves of deal `deal`, and what a player who saw
    them knows of it (engine/observe.py: recall; Napoleon's Flank's buried cards seen, a
    redeal's stock)."""
    rng = np.random.default_rng(seed)
    state = new_state()
    deck, _ = deal_deck(game.array, 0, deal)
    lay_out(state, game.array, deck)
    memory = np.zeros((2, SIZE), dtype=np.int16)
    moves = np.empty(MAX_LEGAL_MOVES, dtype=np.int64)
    for step in range(steps + 1):
        seen = blank_observation()
        observe(state, game.array, seen)
        recall(seen, game.array, memory)
        n = legal_moves(state, game.array, moves)
        if step == steps or n == 0 or status(state, game.array) != ONGOING:
            break
        move = moves[rng.integers(n)]
        remember_move(memory, seen, move)
        apply_move(state, game.array, move)
    return state, memory[0].copy()


def cards_of(position, rules):
    """How many of each card the position holds, foundations included."""
    counts = np.zeros(DECK_SIZE // 2, dtype=int)
    for p in range(STOCK + 1):
        for card in position[p * CAPACITY: p * CAPACITY + position[LENGTHS + p]]:
            if card != HIDDEN:
                counts[card] += 1
    for f in range(8):  # up from the ace, or down from the king
        for i in range(position[FOUNDATIONS + f]):
            counts[(f % 4) * 13 + (12 - i if is_down_foundation(rules, f) else i)] += 1
    return counts


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_id=st.sampled_from(sorted(GAMES)), deal=st.integers(0, 10_000),
       steps=st.integers(0, 120), seed=st.integers(0, 2**32 - 1))
@example(game_id="cicely", deal=0, steps=52, seed=0)  # the move count is HIDDEN's code
def test_a_sample_fills_exactly_the_hidden_places_with_the_cards_not_seen(game_id, deal, steps,
                                                                          seed):
    game = get_game(game_id)
    state, seen = position_after(game, deal, steps, seed)
    sample = np.zeros(SIZE, dtype=np.int16)
    unseen = np.zeros(UNSEEN_SIZE, dtype=np.int16)
    stream = np.array([seed], dtype=np.uint64)
    filled = sample_position(seen, game.array, stream, unseen, sample)
    holds_card = np.zeros(SIZE, dtype=bool)  # the places holding a card
    for p in range(STOCK + 1):
        holds_card[p * CAPACITY: p * CAPACITY + seen[LENGTHS + p]] = True
    hidden = holds_card & (seen == HIDDEN)
    # ... and the counts, one of which may equal HIDDEN's code (52 moves made) without hiding
    seen_here = holds_card & ~hidden
    seen_here[LENGTHS:] = True
    assert filled == hidden.sum()
    assert (sample[seen_here] == seen[seen_here]).all()  # every card seen stays where it is
    assert not (sample[:LENGTHS][hidden[:LENGTHS]] == HIDDEN).any()
    assert (cards_of(sample, game.array) == 2).all()  # 104 cards, each twice
    # the hidden places hold the same cards as the real state's, in another order
    assert sorted(sample[hidden]) == sorted(state[hidden])


def test_samples_differ_and_follow_the_stream():
    game = get_game("tournament")
    _, seen = position_after(game, 3, 0, 0)
    samples = []
    for seed in (1, 2, 1):
        sample = np.zeros(SIZE, dtype=np.int16)
        sample_position(seen, game.array, np.array([seed], dtype=np.uint64),
                        np.zeros(UNSEEN_SIZE, dtype=np.int16), sample)
        samples.append(sample)
    assert (samples[0] == samples[2]).all()
    assert (samples[0] != samples[1]).any()


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_fair_prefix_ends_at_the_first_move_that_shows_a_new_card(game_id):
    game = get_game(game_id)
    for deal in range(5):
        state, seen = position_after(game, deal, 0, deal)
        line, moves = [], np.empty(MAX_LEGAL_MOVES, dtype=np.int64)
        rng = np.random.default_rng(deal)
        real = state.copy()
        while len(line) < 300 and status(real, game.array) == ONGOING:
            n = legal_moves(real, game.array, moves)
            line.append(int(moves[rng.integers(n)]))
            apply_move(real, game.array, line[-1])
        out = np.zeros(MAX_PREFIX + 1, dtype=np.int64)
        walk = np.zeros(SIZE, dtype=np.int16)
        n = fair_prefix(seen, game.array, walk, np.array(line, dtype=np.int64), len(line), out)
        assert list(out[:n]) == line[:n]
        known = seen.copy()
        for move in line[: n - 1]:
            apply_move(known, game.array, move)
            assert not shows_unseen(known, game.array)
        apply_move(known, game.array, line[n - 1])
        if n < len(line):  # it stopped because a card came into view
            assert shows_unseen(known, game.array)


def test_candidate_plans_are_ranked_by_how_many_samples_found_them():
    plans = np.zeros((5, PLAN_ROW), dtype=np.int64)
    for row, (moves, found) in enumerate((([1, 2], 0), ([3], 1), ([4, 5], 3), ([6], 1),
                                          ([7], 2))):
        plans[row, : len(moves)] = moves
        plans[row, PLAN_MOVES] = len(moves)
        plans[row, FOUND] = found
    assert keep_most_found(plans, 5, 2) == 3
    # lookahead's plan stays first; then the most found, the first found on a tie
    assert [list(row[: row[PLAN_MOVES]]) for row in plans] == [[1, 2], [4, 5], [7], [3], [6]]
    assert same_plan(plans, 3, 3) and not same_plan(plans, 3, 4) and not same_plan(plans, 0, 1)


def play_from(spec, game, state, deal, moves_limit=400):
    """A fresh player of `spec` takes over `state` and plays on; its moves."""
    state = state.copy()
    player = spec.make()
    start_policy(player, spec, game, 0, deal)
    made = []
    while status(state, game.array) == ONGOING and len(made) < moves_limit:
        seen = blank_observation()
        observe(state, game.array, seen)
        move = player.choose(Observation(game.id, game.array, seen))
        if move is None:
            break
        made.append(move)
        apply_move(state, game.array, parse_move(move))
    return made


@pytest.mark.parametrize("game_id", ["tournament", "cicely"])
def test_once_every_card_is_seen_it_plays_exactly_as_solver(game_id):
    """After the stock is out (no redeal made, so nothing to remember) every card is in view."""
    game = get_game(game_id)
    dig = resolve_policy("dig")
    compared = 0
    for deal in range(6):
        state = new_state()
        deck, _ = deal_deck(game.array, 0, deal)
        lay_out(state, game.array, deck)
        for move in play_from(dig, game, state, deal):
            if state[LENGTHS + STOCK] == 0:
                break
            apply_move(state, game.array, parse_move(move))
        if state[LENGTHS + STOCK] != 0 or status(state, game.array) != ONGOING:
            continue
        planner = play_from(resolve_policy(f"planner[{SOLVERS_SEARCH}]"), game, state, deal)
        assert planner == play_from(resolve_policy(SOLVER_ALONE), game, state, deal)
        compared += len(planner)
    assert compared > 50


@pytest.mark.parametrize("name", ["planner[samples=0]", "planner[samples=-3]",
                                  "planner[effort=0]", "planner[budget=0.5]",
                                  "planner[margin=0]", "planner[playout=2]",
                                  "planner[playouts=-1]", "planner[playouts=5000]",
                                  "planner[replan=2]",
                                  "solver[budget=0]", "solver[memo=2]", "solver[memo=-1]",
                                  "planner[depth_of_thought=2]"])
def test_out_of_range_parameters_are_refused_in_one_line(cli, tmp_path, name):
    with pytest.raises(PolicyError):
        resolve_policy(name)
    result = cli("run", "--games", "10", "--game", "cicely", "--policy", name, "--out",
                 tmp_path / "run")
    assert result.code != 0
    message = result.stderr.strip()
    assert len(message.splitlines()) == 1
    assert name.partition("[")[0] in message
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("never_departs", ["candidates=0,proposals=1,playouts=0",
                                           "samples=2,proposals=2,margin=3,playouts=0"])
def test_with_no_candidate_but_lookahead_it_plays_exactly_as_solver(game_id, never_departs):
    """Its simulation of lookahead's plan runs on copies: the real lookahead memory is as
    solver's, move for move (moves made, cards home and end of every deal); so is a planner
    whose margin no plan can reach (it samples and judges, then keeps lookahead's plan); in
    Napoleon's Flank with playouts=0, where it then plans as in the other games."""
    game = get_game(game_id)
    deals = 6 if game_id == "napoleons-flank" else 12
    alone = run_compiled(
        game, resolve_policy(f"planner[{never_departs},effort=500,{SOLVERS_SEARCH}]"),
        0, 0, deals)
    assert (alone == run_compiled(game, resolve_policy(SOLVER_ALONE), 0, 0, deals)).all()


@pytest.mark.parametrize("game_id", ["tournament", "kingsdown-eights"])
def test_a_fair_playout_wins_only_what_the_fair_player_wins(game_id):
    """fair_finish from a deal's start sees what the player would see: lookahead, then one
    search once every card is seen. So a deal it wins is won by solver with that one search
    (the same moves, the same search); one that search leaves undecided it counts as lost, and
    solver may still win it later."""
    game = get_game(game_id)
    spec = resolve_policy("planner[playout=1,effort=3000]")
    record = spec.new_memory()[0].view(np.recarray)
    m = record[0]
    fair = run_compiled(game, resolve_policy("solver[budget=3000,restarts=0]"), 0, 0, 30)
    wins = 0
    for deal in range(30):
        walk = new_state()
        deck, _ = deal_deck(game.array, 0, deal)
        lay_out(walk, game.array, deck)
        shown = blank_observation()
        observe(walk, game.array, shown)
        m.plans_pretend[0] = shown
        m.plans_imagined[:] = m.seen
        line = LineWork(m.line_positions, m.line_moves, m.line_cursors, m.line_tallies)
        plans = PlanWork(m.plans_sample, m.plans_walk, m.plans_unseen, m.plans_plans,
                         m.plans_imagined, m.plans_shown, m.plans_pretend)
        won = fair_finish(walk, game.array, spec.params()[0], line, plans, search_buffers())
        assert not won or fair[deal, WON_AT], f"deal {deal}: won by the playout, not by solver"
        wins += won
    assert wins >= 5  # the playouts reach the search and win, not only lose


# Cicely deals that planner lost when cards home broke ties between plans that won as many
# samples: it chose plans that deal the stock out early (a sample's known stock makes them
# look safe) and was left with no move; solver wins every one of them.
DEALT_OUT_EARLY = (141, 2065, 2212, 3198, 3455, 4092, 4136, 4217)


def test_on_a_tie_it_keeps_lookaheads_plan_and_does_not_deal_cicelys_stock_out_early():
    game, planner = get_game("cicely"), resolve_policy("planner")
    for deal in DEALT_OUT_EARLY:
        row = run_compiled(game, planner, 0, deal, 1)[0]
        assert row[WON_AT], f"Cicely deal {deal}: {row[FOUNDATION_CARDS_AT]} cards home"


def test_in_napoleons_flank_its_playouts_lift_it_above_the_player_of_its_playouts():
    """There each candidate move is played out by blind-digger from what the player remembers
    (rollout[base=3]): on deals 0-199, 64 playouts won 16 deals (52.6 cards home on average)
    and 16 playouts 6 (43.6), where blind-digger alone won 5 (40.8); here 16 playouts on 20
    deals (fixed deals: a check, not a proof), every candidate on every playout (batch=0),
    racing 64 at most (flank.py; 16 raced follow noise: 43.8 cards home against 44.9), and the
    tree search (the default) with 200 samples."""
    game = get_game("napoleons-flank")
    alone = run_compiled(game, resolve_policy("blind-digger"), 0, 0, 20)
    for name in ("planner[tree=0,playouts=16,batch=0]", "planner[tree=0,playouts=64,batch=8]",
                 "planner[tree=200]"):
        planned = run_compiled(game, resolve_policy(name), 0, 0, 20)
        assert planned[:, 2].astype(float).mean() > alone[:, 2].astype(float).mean() + 2, name


@pytest.mark.parametrize("setting", ["tree=0,playouts=8", "tree=8"])
def test_in_napoleons_flank_its_first_estimate_is_the_share_of_won_playouts(setting):
    """The estimate benchmarks/planner.py reads: at its first choice among candidates, the
    playouts each candidate had and how many of the chosen one's were won (the tree search:
    the samples, of 8, that went through the chosen move)."""
    from simstats.policies.planner import DECISIONS, FIRST_SAMPLES, FIRST_WON

    game, spec = get_game("napoleons-flank"), resolve_policy(f"planner[{setting}]")
    state = new_state()
    deck, _ = deal_deck(game.array, 0, 3)
    lay_out(state, game.array, deck)
    player = spec.make()
    start_policy(player, spec, game, 0, 3)
    for _ in range(60):
        seen = blank_observation()
        observe(state, game.array, seen)
        move = player.choose(Observation(game.id, game.array, seen))
        sampling = player._memory["sampling"].reshape(-1)
        if move is None or sampling[DECISIONS] > 0:
            break
        apply_move(state, game.array, parse_move(move))
    assert sampling[DECISIONS] == 1
    if setting.startswith("tree=0"):
        assert sampling[FIRST_SAMPLES] == 8
    else:
        assert 1 <= sampling[FIRST_SAMPLES] <= 8
    assert 0 <= sampling[FIRST_WON] <= sampling[FIRST_SAMPLES]


@pytest.mark.parametrize("replan", [0, 1])
def test_in_napoleons_flank_with_replan_0_it_samples_only_after_an_unseen_card_shows(replan):
    """Between two such cards every playout of the chosen move went on with blind-digger's
    moves, which depend on the cards seen alone: with replan=0 it plays them without sampling
    again; with replan=1 (the default) it samples at such choices too."""
    from simstats.policies.planner import DECISIONS

    game = get_game("napoleons-flank")
    spec = resolve_policy(f"planner[tree=0,playouts=4,replan={replan}]")
    again = total = 0
    for deal in range(3):
        state = new_state()
        deck, _ = deal_deck(game.array, 0, deal)
        lay_out(state, game.array, deck)
        player = spec.make()
        start_policy(player, spec, game, 0, deal)
        memory = np.zeros((2, SIZE), dtype=np.int16)
        unseen_counts, decisions, judged = set(), 0, 0
        while status(state, game.array) == ONGOING:
            seen = blank_observation()
            observe(state, game.array, seen)
            recall(seen, game.array, memory)
            known = memory[0]
            unseen = sum(int((known[p * CAPACITY: p * CAPACITY + known[LENGTHS + p]]
                              == HIDDEN).sum()) for p in range(STOCK + 1))
            move = player.choose(Observation(game.id, game.array, seen))
            now = int(player._memory["sampling"].reshape(-1)[DECISIONS])
            if now > decisions:  # it sampled here
                again += unseen in unseen_counts
                unseen_counts.add(unseen)
                judged += 1
            decisions = now
            if move is None:
                break
            remember_move(memory, seen, parse_move(move))
            apply_move(state, game.array, parse_move(move))
        total += judged
    assert total > 6
    assert (again == 0) if replan == 0 else (again > 0)
