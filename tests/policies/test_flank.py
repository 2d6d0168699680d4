"""`planner`'s play of Napoleon's Flank (simstats/policies/flank.py) and the digger of its
playouts (flank_digger.py): with neutral knobs they play as rollout[base=blind-digger] and
blind-digger did; racing drops a candidate only when it is clearly behind, and then plays fewer
samples; the tree search keeps its counts consistent and plays the candidate it sampled most.
(Fairness is test_hidden_information.py's, as for every built-in.)"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from simstats.engine.deals import deal_deck, policy_salt, start_stream
from simstats.engine.games import get_game
from simstats.engine.moves import apply_move, lay_out, status
from simstats.engine.notation import parse_move
from simstats.engine.observe import (
    Observation,
    blank_observation,
    observe,
    recall,
    remember_move,
)
from simstats.engine.state import MAX_LEGAL_MOVES, ONGOING, SIZE, new_state
from simstats.policies import flank, resolve_policy, rollout
from simstats.policies.tactics import SEEN_SIZE, UNSEEN_SIZE, positions_field, seen_field
from simstats.run.compiled_play import run_compiled

GAME = get_game("napoleons-flank")


def test_with_its_defaults_the_digger_plays_as_blind_digger():
    digger = resolve_policy("simstats.policies.flank_digger:FlankDigger")
    ours = run_compiled(GAME, digger, 0, 0, 300)
    theirs = run_compiled(GAME, resolve_policy("blind-digger"), 0, 0, 300)
    assert (ours == theirs).all()


@pytest.mark.parametrize("knob", ["hold=2,roomy=1", "short=4", "keep=1"])
def test_each_knob_changes_the_diggers_play(knob):
    digger = resolve_policy(f"simstats.policies.flank_digger:FlankDigger[{knob}]")
    ours = run_compiled(GAME, digger, 0, 0, 300)
    theirs = run_compiled(GAME, resolve_policy("blind-digger"), 0, 0, 300)
    assert (ours != theirs).any()


def knobs(batch=0, cut=2.0, bonus=0, keep=0, hold=99, roomy=0, short=0, horizon=0, free=0.0,
          tree=0, explore=15.0):
    values = np.zeros(flank.N_KNOBS, dtype=np.int64)
    values[[flank.KEEP, flank.HOLD, flank.ROOMY, flank.SHORT, flank.BONUS, flank.BATCH,
            flank.CUT_TENTHS, flank.HORIZON, flank.FREE_TENTHS, flank.TREE,
            flank.EXPLORE_TENTHS]] = (
        keep, hold, roomy, short, bonus, batch, round(cut * 10), horizon, round(free * 10),
        tree, round(explore * 10))
    return values


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


def buffers():
    seen = np.zeros(SEEN_SIZE, dtype=np.int64)
    seen_field().init(seen)
    positions = np.zeros((rollout.N_ROWS, SIZE), dtype=np.int16)
    positions_field(rollout.N_ROWS).init(positions)
    return dict(seen=seen, positions=positions,
                moves=np.zeros((rollout.N_MOVE_ROWS, MAX_LEGAL_MOVES), dtype=np.int64),
                cards=np.zeros(UNSEEN_SIZE, dtype=np.int16),
                base_memory=np.zeros((2, SIZE), dtype=np.int16),
                legal=np.zeros(MAX_LEGAL_MOVES + 1, dtype=np.int64))


def stream_for(deal: int) -> np.ndarray:
    stream = np.zeros(1, dtype=np.uint64)
    start_stream(stream, 0, deal, policy_salt("planner"))
    return stream


def flank_choice(obs, known, values, playouts, deal, nodes=None):
    b = buffers()
    scores = np.zeros((flank.MAX_CANDIDATES, flank.MAX_PLAYOUTS), dtype=np.int32)
    alive = np.zeros(flank.MAX_CANDIDATES, dtype=np.int64)
    if nodes is None:
        nodes = np.zeros((flank.N_NODE_ROWS, flank.MAX_NODES), dtype=np.int64)
    move = flank.choose_move(obs, known, GAME.array, values, playouts, stream_for(deal),
                             b["seen"], b["positions"], b["moves"], b["cards"],
                             b["base_memory"], b["legal"], scores, alive, nodes)
    return move, int(b["moves"][rollout.JUDGED, 0]), int(b["moves"][rollout.JUDGED, 1])


def test_without_racing_it_chooses_as_rollout_with_blind_digger():
    judged = 0
    for deal, (obs, memory) in ((d, c) for d in range(4) for c in choices_along_a_game(d)):
        ours = flank_choice(obs, memory[0], knobs(), 6, deal)
        b = buffers()
        move = rollout.choose_move(obs, GAME.array, 6, rollout.BASE_BLIND_DIGGER, 0,
                                   stream_for(deal), b["seen"], memory[0], b["positions"],
                                   b["moves"], b["cards"], b["base_memory"], b["legal"])
        assert ours == (move, int(b["moves"][rollout.JUDGED, 0]),
                        int(b["moves"][rollout.JUDGED, 1]))
        judged += ours[1] > 0
    assert judged > 3  # choices among candidates were compared, not only forced moves


def test_racing_plays_fewer_samples_and_never_more():
    fewer = 0
    for k, (obs, memory) in enumerate(choices_along_a_game(2)):
        if k % 3:
            continue
        _, all_of_them, _ = flank_choice(obs, memory[0], knobs(), 32, 2)
        _, raced, _ = flank_choice(obs, memory[0], knobs(batch=4, cut=1.0), 32, 2)
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


def children(nodes, node):
    c = nodes[flank.CHILD, node]
    while c >= 0:
        yield c
        c = nodes[flank.SIBLING, c]


def test_the_tree_search_keeps_its_counts_and_plays_the_move_it_sampled_most():
    """Every sample goes through one of the root's candidates, and through a node only after
    its parent; a node is chosen again only where its move is legal (its availability); its
    cards home are at most 104 a sample."""
    searched = 0
    for k, (obs, memory) in enumerate(choices_along_a_game(1)):
        if k % 4:
            continue
        nodes = np.full((flank.N_NODE_ROWS, flank.MAX_NODES), -1, dtype=np.int64)
        move, visits, won = flank_choice(obs, memory[0], knobs(tree=120), 384, 1, nodes)
        if nodes[flank.CHILD, 0] < 0:
            continue  # forced, or nothing hidden: no search
        searched += 1
        root = list(children(nodes, 0))
        assert sum(nodes[flank.VISITS, c] for c in root) == 120
        most = max(root, key=lambda c: nodes[flank.VISITS, c])
        assert visits == nodes[flank.VISITS, most] >= 120 / len(root)
        assert move in {nodes[flank.MOVE_OF, c] for c in root if nodes[flank.VISITS, c] == visits}
        assert 0 <= won <= visits
        stack = root
        while stack:
            node = stack.pop()
            below = list(children(nodes, node))
            assert sum(nodes[flank.VISITS, c] for c in below) <= nodes[flank.VISITS, node]
            assert nodes[flank.AVAIL, node] >= nodes[flank.VISITS, node] - 1
            assert nodes[flank.WON, node] <= nodes[flank.VISITS, node]
            assert nodes[flank.TOTAL, node] <= 104 * nodes[flank.VISITS, node]
            stack += below
    assert searched > 3


def test_the_tree_search_starts_afresh_at_every_choice():
    """The same stream gives the same choice whatever searches filled its nodes before."""
    shared = np.zeros((flank.N_NODE_ROWS, flank.MAX_NODES), dtype=np.int64)
    choices = [(obs, memory.copy()) for k, (obs, memory) in enumerate(choices_along_a_game(3))
               if k % 5 == 0]
    for (obs, memory), (other, other_memory) in itertools.pairwise(choices):
        first = flank_choice(obs, memory[0], knobs(tree=80), 384, 3, shared)
        flank_choice(other, other_memory[0], knobs(tree=80), 384, 3, shared)
        assert flank_choice(obs, memory[0], knobs(tree=80), 384, 3, shared) == first
