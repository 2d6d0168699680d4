"""`planner`'s play of Napoleon's Flank: candidate moves judged on samples of the cards the
player has not seen, played out by a fair digger that remembers (flank_digger.py, `blind-digger`
with knobs): by default a tree search over the player's own moves, else raced playouts.

The candidates (as rollout.py's with base blind-digger): a card that fits both foundations of
its suit goes to either; else, once no foundation play is left, the digger's own move, each
column top to the first empty cell, deal and redeal; a move back to a position met earlier in
the deal is none, and a single candidate is made without sampling. A sample fills only the places
the player has not seen (what it remembers stays, engine/observe.py: recall) with the unseen
cards at random from the policy's own stream; each playout's digger starts from the player's
memory and sees only what a player of the sample would see. A playout scores the cards home at
its end, plus `bonus` if it is won.

The tree search (`tree` samples, the default 1,400; information-set Monte Carlo tree search,
one observer): each sample walks a tree whose nodes are sequences of the player's own moves,
whatever cards they show, from the candidates above. At a node the candidates are listed as here
from what a player of that sample would see and remember, a forced move is made without a node,
and among the candidates with a child UCB1 picks the one with the highest mean cards home plus
`explore` x sqrt(ln availability / samples), a child's availability being the samples in which
its move was a candidate at all (a move may be legal in one sample and not in another). The
first candidate without a child gets one, the digger plays the sample out from there, and its
cards home are added along the path. The root's candidate sampled most is played. So the moves
after the first are searched too where samples pile up, not left to the digger's rule.

Racing (`tree`=0, `batch` > 0): every candidate plays the same samples, `batch` at a time; after
each batch a candidate whose score is behind the leader's by more than `cut` standard errors of
their paired difference is dropped, so the samples go to the candidates still in doubt, up to
`playouts` per candidate; with one left it is played. batch=0: every candidate gets `playouts`
samples (rollout.py's way). Ties go to the earlier candidate. A playout may also stop after
`horizon` digger moves and score `cellworth` cards home per free cell at its end (both off by
default).

Measured on deals 0-999 of seed 0, one core (benchmarks/planner_napoleon.md, every method
tried): 64 playouts to every candidate won 65 (0.21 s a deal); racing made that cheaper and so
bought more playouts (384 at most: 98, 0.55 s, the default until the tree search); the tree
search with 800 samples won as many (103, 0.54 s), with 1,500 148 (1.09 s on a busy machine;
McNemar p = 0.0006 against racing's 98); explore 5 lost (28 of 500 against 53) and 40 gained
nothing at 800 (92). A won playout's bonus, playouts cut short and the digger's knobs lost or
changed nothing measurable.
"""

from __future__ import annotations

import numpy as np

from ..engine.cards import DECK_SIZE
from ..engine.moves import (
    apply_move,
    copy_position,
    foundation_cards,
    moves_made,
    pile_size,
)
from ..engine.observe import LAST_MOVE, LAST_MOVE_AT, observe, recall, remember_move
from ..engine.state import (
    MAX_LEGAL_MOVES,
    MOVE_LIMIT,
    NO_MOVE,
)
from ..jit import jit, jit_inline
from . import api, flank_digger
from .rollout import (
    CANDIDATES,
    JUDGED,
    PLAYOUT,
    SAMPLE,
    TOTALS,
    VIEW,
    WINS,
    foundation_candidates,
    other_candidates,
)
from .tactics import (
    hidden_cards,
    position_key,
    remember,
    sample_position,
)

MAX_PLAYOUTS = 1000
MAX_CANDIDATES = 32  # more are never listed (six columns: at most 9)
# knobs: the digger's, then the search's (a plain int64 array, so the code compiles once)
(KEEP, HOLD, ROOMY, SHORT, BONUS, BATCH, CUT_TENTHS, HORIZON, FREE_TENTHS, TREE,
 EXPLORE_TENTHS) = range(11)
N_KNOBS = 11
MAX_NODES = 8192  # the tree search's nodes: one more than its samples at most
# Rows of the tree search's `nodes` (node 0 the root): the move into it, its first child and
# next sibling (-1: none), its samples, the samples it was available in, their cards home
# summed and the samples won; PATH: the nodes the current sample went through
MOVE_OF, CHILD, SIBLING, VISITS, AVAIL, TOTAL, WON, PATH = range(8)
N_NODE_ROWS = 8


def workspace() -> dict:
    return {"scores": api.array(np.int32, (MAX_CANDIDATES, MAX_PLAYOUTS)),
            "alive": api.array(np.int64, MAX_CANDIDATES),
            "flank_legal": api.array(np.int64, MAX_LEGAL_MOVES + 1),
            "nodes": api.array(np.int64, (N_NODE_ROWS, MAX_NODES))}


@jit_inline
def digger_move(view, known, rules, knobs, legal):
    """The digger's move from observation `view`, `known` being what its player remembers."""
    legal[MAX_LEGAL_MOVES] = -1  # not yet listed for this view
    return flank_digger.decide(api.View(view, rules, legal), api.View(known, rules, legal),
                               knobs[KEEP], knobs[HOLD], knobs[ROOMY], knobs[SHORT])


@jit
def playout(pos, rules, knobs, view, memory, legal):
    """The digger plays sample `pos` from what its player would see and remember (`memory`:
    recall's), to its end or for `horizon` moves; returns the cards home then."""
    made = 0
    while foundation_cards(pos) != DECK_SIZE and moves_made(pos) < MOVE_LIMIT:
        if knobs[HORIZON] > 0 and made >= knobs[HORIZON]:
            break
        made += 1
        observe(pos, rules, view)
        recall(view, rules, memory)
        move = digger_move(view, memory[0], rules, knobs, legal)
        if move == NO_MOVE:
            break
        remember_move(memory, view, move)
        apply_move(pos, rules, move)
    return foundation_cards(pos)


@jit
def find_candidates(obs, known, rules, knobs, positions, moves, seen, legal):
    """The candidates of the module docstring into moves[CANDIDATES] (rollout.py's, the
    digger's move first); returns their count."""
    n = foundation_candidates(obs, rules, moves[CANDIDATES])
    if n > 0:
        return n
    first = digger_move(obs, known, rules, knobs, legal)
    return min(other_candidates(obs, rules, first, positions, moves, seen), MAX_CANDIDATES)


@jit
def play_sample(obs, known, rules, knobs, stream, positions, candidates, alive, scores, k,
                cards, base_memory, legal, wins):
    """Draw sample k and play every candidate still alive out on it into scores[c, k]."""
    sample, pos = positions[SAMPLE], positions[PLAYOUT]
    sample_position(known, rules, stream, cards, sample)
    for c in range(alive.shape[0]):
        if alive[c] == 0:
            continue
        move = candidates[c]
        if move == NO_MOVE:
            scores[c, k] = 10 * foundation_cards(obs)
            continue
        copy_position(sample, pos)
        apply_move(pos, rules, move)
        copy_position(known, base_memory[0])  # the playout's player starts with our memory
        apply_move(base_memory[0], rules, move)
        base_memory[1, LAST_MOVE] = NO_MOVE
        base_memory[1, LAST_MOVE_AT] = moves_made(pos)
        home = playout(pos, rules, knobs, positions[VIEW], base_memory, legal)
        wins[c] += home == DECK_SIZE
        scores[c, k] = 10 * (home + (knobs[BONUS] if home == DECK_SIZE else 0))
        if knobs[FREE_TENTHS] != 0:
            for r in range(8):
                scores[c, k] += knobs[FREE_TENTHS] * (pile_size(pos, r) == 0)


@jit
def leader(alive, scores, played, n):
    best, best_total = -1, -1
    for c in range(n):
        if alive[c] == 0:
            continue
        total = 0
        for k in range(played):
            total += scores[c, k]
        if total > best_total:
            best, best_total = c, total
    return best


@jit
def drop_the_beaten(alive, scores, played, n, cut):
    """Drop each candidate behind the leader by more than `cut` standard errors of their paired
    differences (an exact tie on every sample drops the later one); returns how many remain."""
    best = leader(alive, scores, played, n)
    left = 0
    for c in range(n):
        if alive[c] == 0 or c == best:
            continue
        total, squares = 0.0, 0.0
        for k in range(played):
            d = float(scores[best, k] - scores[c, k])
            total += d
            squares += d * d
        mean = total / played
        spread = max(squares / played - mean * mean, 0.0) * played / max(played - 1, 1)
        if mean > 0 and mean * mean * played > cut * cut * spread:
            alive[c] = 0
        elif squares == 0.0:
            alive[c] = 0  # the same score on every sample: the earlier one stands for both
    for c in range(n):
        left += alive[c] != 0
    return left


@jit
def choose_move(obs, known, rules, knobs, playouts, stream, seen, positions, moves, cards,
                base_memory, legal, scores, alive, nodes):
    """The move of the module docstring; moves[JUDGED]: samples played for the chosen move (0
    when none) and how many it won."""
    playouts = min(max(playouts, 1), MAX_PLAYOUTS)
    moves[JUDGED, 0] = 0
    remember(seen, position_key(obs))
    n = find_candidates(obs, known, rules, knobs, positions, moves, seen, legal)
    candidates = moves[CANDIDATES]
    if n <= 1:
        return candidates[0] if n == 1 else NO_MOVE
    wins = moves[WINS]
    for c in range(alive.shape[0]):
        alive[c] = c < n
        wins[c] = 0
    if hidden_cards(known, rules, cards) == 0:
        playouts = 1  # nothing to sample: every playout is the same
    elif knobs[TREE] > 0:
        root = moves[TOTALS]  # a row racing does not use: the search lists moves in CANDIDATES
        for c in range(n):
            root[c] = candidates[c]
        best = tree_search(known, rules, knobs, knobs[TREE], stream, seen, positions, moves,
                           cards, base_memory, legal, nodes, root, n)
        chosen = child_for(nodes, 0, root[best])
        moves[JUDGED, 0] = nodes[VISITS, chosen]
        moves[JUDGED, 1] = nodes[WON, chosen]
        return root[best]
    batch = knobs[BATCH] if knobs[BATCH] > 0 else playouts
    cut = knobs[CUT_TENTHS] / 10.0
    played = 0
    left = n
    while played < playouts and left > 1:
        for _ in range(min(batch, playouts - played)):
            play_sample(obs, known, rules, knobs, stream, positions, candidates, alive[:n],
                        scores, played, cards, base_memory, legal, wins)
            played += 1
        if knobs[BATCH] > 0 and played < playouts:
            left = drop_the_beaten(alive, scores, played, n, cut)
    best = leader(alive, scores, played, n)
    moves[JUDGED, 0] = played
    moves[JUDGED, 1] = wins[best]
    return candidates[best]



@jit_inline
def child_for(nodes, node, move):
    """The child of `node` that `move` leads to, or -1 if it has none yet."""
    c = nodes[CHILD, node]
    while c >= 0:
        if nodes[MOVE_OF, c] == move:
            return c
        c = nodes[SIBLING, c]
    return -1


@jit_inline
def add_child(nodes, node, move, count):
    """Node `count` becomes the child of `node` that `move` leads to; returns it."""
    nodes[MOVE_OF, count] = move
    nodes[CHILD, count] = -1
    nodes[SIBLING, count] = nodes[CHILD, node]
    nodes[CHILD, node] = count
    nodes[VISITS, count] = 0
    nodes[AVAIL, count] = 0
    nodes[TOTAL, count] = 0
    nodes[WON, count] = 0
    return count


@jit_inline
def mark_available(nodes, node, candidates, n):
    """Count one more availability for every child of `node` among the n candidates (those
    legal in this sample); returns the index of the first candidate without a child, or -1."""
    fresh = -1
    for i in range(n):
        c = child_for(nodes, node, candidates[i])
        if c >= 0:
            nodes[AVAIL, c] += 1
        elif fresh < 0:
            fresh = i
    return fresh


@jit_inline
def upper_bound_child(nodes, node, candidates, n, explore):
    """The child among the candidates' with the highest UCB1 score (mean cards home plus
    `explore` x sqrt(ln availability / visits)); the first on a tie; -1 if none was played."""
    chosen, best_value = -1, -1e300
    for i in range(n):
        c = child_for(nodes, node, candidates[i])
        if c < 0 or nodes[VISITS, c] == 0:
            continue
        value = nodes[TOTAL, c] / nodes[VISITS, c] + explore * np.sqrt(
            np.log(max(nodes[AVAIL, c], 1)) / nodes[VISITS, c])
        if value > best_value:
            best_value, chosen = value, c
    return chosen


@jit
def tree_search(known, rules, knobs, iterations, stream, seen, positions, moves, cards,
                base_memory, legal, nodes, root_moves, n_root):
    """The tree search of the module docstring, `iterations` samples from the root whose
    candidates are root_moves[0:n_root]; returns the index of the one played most."""
    explore = knobs[EXPLORE_TENTHS] / 10.0
    path = nodes[PATH]
    nodes[CHILD, 0] = -1
    count = 1
    candidates = moves[CANDIDATES]
    sample, pos, view = positions[SAMPLE], positions[PLAYOUT], positions[VIEW]
    for _ in range(iterations):
        sample_position(known, rules, stream, cards, sample)
        copy_position(sample, pos)
        copy_position(known, base_memory[0])  # the player's memory, kept as in a playout
        base_memory[1, LAST_MOVE] = NO_MOVE
        base_memory[1, LAST_MOVE_AT] = moves_made(pos)
        node, depth, added, stopped = 0, 0, False, False
        while not added:
            if depth == 0:
                n = n_root
                for i in range(n):
                    candidates[i] = root_moves[i]
            else:
                if foundation_cards(pos) == DECK_SIZE or moves_made(pos) >= MOVE_LIMIT:
                    break
                observe(pos, rules, view)
                recall(view, rules, base_memory)
                n = find_candidates(view, base_memory[0], rules, knobs, positions, moves, seen,
                                    legal)
                if n == 0:
                    break
            if n == 1:
                move = candidates[0]  # forced: made without a node
            else:
                fresh = mark_available(nodes, node, candidates, n)
                if fresh >= 0 and count < MAX_NODES:
                    move = candidates[fresh]
                    node = add_child(nodes, node, move, count)
                    count += 1
                    added = True
                else:
                    node = upper_bound_child(nodes, node, candidates, n, explore)
                    if node < 0:
                        break
                    move = nodes[MOVE_OF, node]
                depth += 1
                path[depth] = node
            if move == NO_MOVE:  # the digger would stop here: the game ends
                stopped = True
                break
            apply_move(pos, rules, move)
            apply_move(base_memory[0], rules, move)
            base_memory[1, LAST_MOVE] = NO_MOVE
            base_memory[1, LAST_MOVE_AT] = moves_made(pos)
        home = foundation_cards(pos) if stopped else playout(pos, rules, knobs, view,
                                                             base_memory, legal)
        for d in range(1, depth + 1):
            nodes[VISITS, path[d]] += 1
            nodes[TOTAL, path[d]] += home
            nodes[WON, path[d]] += home == DECK_SIZE
    best, best_visits = 0, -1
    for i in range(n_root):
        c = child_for(nodes, 0, root_moves[i])
        if c >= 0 and nodes[VISITS, c] > best_visits:
            best, best_visits = i, nodes[VISITS, c]
    return best
