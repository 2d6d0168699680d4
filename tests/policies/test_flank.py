"""`planner`'s play of Napoleon's Flank (simstats/policies/flank.py) and the digger of its
playouts (blind-digger and its knobs): with neutral knobs it plays as rollout[base=blind-digger];
racing drops a candidate only when it is clearly behind, and then plays fewer samples; the tree
search keeps its counts consistent and plays the candidate it sampled most.
(Fairness is test_hidden_information.py's, as for every built-in.)"""

from __future__ import annotations

import itertools

import numpy as np

from simstats.engine.deals import deal_deck, policy_salt, start_stream
from simstats.engine.games import get_game
from simstats.engine.moves import apply_move, foundation_cards, lay_out, moves_made, status
from simstats.engine.notation import parse_move
from simstats.engine.observe import (
    Observation,
    blank_observation,
    observe,
    recall,
    remember_move,
)
from simstats.engine.state import (
    FOUNDATION_CARDS_AT,
    MAX_LEGAL_MOVES,
    MOVES_AT,
    ONGOING,
    SIZE,
    new_state,
)
from simstats.policies import flank, resolve_policy, rollout
from simstats.policies.tactics import SEEN_SLOTS
from simstats.run.compiled_play import run_compiled

GAME = get_game("napoleons-flank")


def digger_games(deals, **knobs_set):
    """Moves made and cards home at the end of each of `deals`, played move by move by the
    playouts' digger (blind-digger's code with planner's knobs)."""
    params, legal = knobs(**knobs_set), np.empty(MAX_LEGAL_MOVES + 1, dtype=np.int64)
    games = []
    for deal in deals:
        state = new_state()
        deck, _ = deal_deck(GAME.array, 0, deal)
        lay_out(state, GAME.array, deck)
        memory = np.zeros((2, SIZE), dtype=np.int16)
        obs = blank_observation()
        while status(state, GAME.array) == ONGOING:
            observe(state, GAME.array, obs)
            recall(obs, GAME.array, memory)
            move = flank.digger_move(obs, memory[0], GAME.array, params, legal)
            if move < 0:
                break
            remember_move(memory, obs, move)
            apply_move(state, GAME.array, move)
        games.append((int(moves_made(state)), int(foundation_cards(state))))
    return games


def test_the_knobs_off_play_as_blind_digger_and_each_knob_changes_its_play():
    deals = range(40)
    off = digger_games(deals)
    played = run_compiled(GAME, resolve_policy("blind-digger"), 0, 0, 40)
    assert off == [(int(r[MOVES_AT]), int(r[FOUNDATION_CARDS_AT])) for r in played]
    assert digger_games(deals, hold=2, roomy=1) != off
    assert digger_games(deals, short=4) != off


def knobs(**values):
    """planner's parameters, which flank.py reads by name; the racing's batch 0 unless given."""
    given = {"batch": 0, "tree": 0, **values}
    return resolve_policy("planner[" + ",".join(f"{k}={v:g}" for k, v in given.items())
                          + "]").params()[0]


def choices_along_a_game(deal: int):
    """(observation, memory) at each move of a blind-digger game."""
    state = new_state()
    deck, _ = deal_deck(GAME.array, 0, deal)
    lay_out(state, GAME.array, deck)
    player = resolve_policy("blind-digger").make()
    memory = np.zeros((2, SIZE), dtype=np.int16)
    while status(state, GAME.array) == ONGOING:
        obs = blank_observation()
        observe(state, GAME.array, obs)
        recall(obs, GAME.array, memory)
        yield obs, memory
        move = player.choose(Observation(GAME.id, GAME.array, obs.copy()))
        if move is None:
            return
        remember_move(memory, obs, parse_move(move))
        apply_move(state, GAME.array, parse_move(move))


def new_seen():
    seen = np.zeros(SEEN_SLOTS, dtype=np.int64)
    return seen


def stream_for(deal: int) -> np.ndarray:
    stream = np.zeros(1, dtype=np.uint64)
    start_stream(stream, 0, deal, policy_salt("planner"))
    return stream


def flank_choice(obs, known, params, deal, tree=None):
    """flank.py's choice at `obs` (`known`: the player's memory), its tree search in `tree`
    when given; the move, the samples it was judged on and how many it won."""
    work = flank.new_flank_work()
    work = work if tree is None else work._replace(tree=tree)
    move = flank.choose_move(obs, known, GAME.array, params, stream_for(deal), new_seen(), work)
    return move, int(work.judged[0]), int(work.judged[1])


def test_without_racing_it_chooses_as_rollout_with_blind_digger():
    judged = 0
    rollout_params = resolve_policy("rollout[samples=6,base=blind-digger]").params()[0]
    for deal, (obs, memory) in ((d, c) for d in range(4) for c in choices_along_a_game(d)):
        ours = flank_choice(obs, memory[0], knobs(playouts=6), deal)
        work = rollout.new_playout_work()
        move = rollout.choose_move(obs, GAME.array, rollout_params, stream_for(deal),
                                   new_seen(), memory[0], work)
        assert ours == (move, int(work.judged[0]), int(work.judged[1]))
        judged += ours[1] > 0
    assert judged > 3  # choices among candidates were compared, not only forced moves


def test_racing_plays_fewer_samples_and_never_more():
    fewer = 0
    for k, (obs, memory) in enumerate(choices_along_a_game(2)):
        if k % 3:
            continue
        _, all_of_them, _ = flank_choice(obs, memory[0], knobs(playouts=32), 2)
        _, raced, _ = flank_choice(obs, memory[0], knobs(playouts=32, batch=4, cut=1.0), 2)
        assert raced <= all_of_them
        assert all_of_them in (0, 1, 32)  # 1: nothing left to sample
        fewer += raced < all_of_them
    assert fewer > 0


def test_racing_drops_only_who_is_clearly_behind():
    scores = np.zeros((flank.MAX_CANDIDATES, flank.MAX_PLAYOUTS), dtype=np.int32)
    noise = np.random.default_rng(0).integers(20, 80, 16)
    swing = np.resize([1, -1], 16)
    scores[0, :16] = noise + 10  # the leader
    scores[1, :16] = noise + 5 * swing  # behind by 10 on average, give or take 5
    scores[2, :16] = noise  # behind by exactly 10 on every sample
    scores[3, :16] = noise + 10  # the leader's very scores: the later one goes
    scores[4, :16] = noise + 8 + 15 * swing  # behind by 2 on average, give or take 15
    alive = np.zeros(flank.MAX_CANDIDATES, dtype=np.int64)
    alive[:5] = 1
    left = flank.drop_the_beaten(alive, scores, 16, 5, 2.0)
    assert list(alive[:5]) == [1, 0, 0, 0, 1] and left == 2


def children(tree, node):
    c = tree.child[node]
    while c >= 0:
        yield c
        c = tree.sibling[c]


def test_the_tree_search_keeps_its_counts_and_plays_the_move_it_sampled_most():
    """Every sample goes through one of the root's candidates, and through a node only after
    its parent; a node is chosen again only where its move is legal (its availability); its
    cards home are at most 104 a sample."""
    searched = 0
    for k, (obs, memory) in enumerate(choices_along_a_game(1)):
        if k % 4:
            continue
        tree = flank.new_flank_work().tree
        tree.child[0] = -1
        move, visits, won = flank_choice(obs, memory[0], knobs(tree=120), 1, tree)
        if tree.child[0] < 0:
            continue  # forced, or nothing hidden: no search
        searched += 1
        root = list(children(tree, 0))
        assert sum(tree.visits[c] for c in root) == 120
        most = max(root, key=lambda c: tree.visits[c])
        assert visits == tree.visits[most] >= 120 / len(root)
        assert move in {tree.move[c] for c in root if tree.visits[c] == visits}
        assert 0 <= won <= visits
        stack = root
        while stack:
            node = stack.pop()
            below = list(children(tree, node))
            assert sum(tree.visits[c] for c in below) <= tree.visits[node]
            assert tree.available[node] >= tree.visits[node] - 1
            assert tree.won[node] <= tree.visits[node]
            assert tree.total[node] <= 104 * tree.visits[node]
            stack += below
    assert searched > 3


def test_the_tree_search_starts_afresh_at_every_choice():
    """The same stream gives the same choice whatever searches filled its nodes before."""
    shared = flank.new_flank_work().tree
    choices = [(obs, memory.copy()) for k, (obs, memory) in enumerate(choices_along_a_game(3))
               if k % 5 == 0]
    for (obs, memory), (other, other_memory) in itertools.pairwise(choices):
        first = flank_choice(obs, memory[0], knobs(tree=80), 3, shared)
        flank_choice(other, other_memory[0], knobs(tree=80), 3, shared)
        assert flank_choice(obs, memory[0], knobs(tree=80), 3, shared) == first
