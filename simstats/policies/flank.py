"""`planner`'s play of Napoleon's Flank: candidate moves judged on samples of the cards the
player has not seen, played out by a fair digger that remembers (`blind-digger`, with its knobs
hold, roomy and short): by default a tree search over the player's own moves, else raced playouts.

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

from collections import namedtuple

import numpy as np

from ..engine.cards import DECK_SIZE
from ..engine.moves import (
    apply_move,
    copy_position,
    foundation_cards,
    moves_made,
    pile_size,
)
from ..engine.observe import mark_caught_up, observe, recall, remember_move
from ..engine.state import (
    MAX_LEGAL_MOVES,
    MOVE_LIMIT,
    NO_MOVE,
    SIZE,
)
from ..jit import jit, jit_always, jit_inline, plain_array
from . import api, blind_digger
from .rollout import foundation_candidates, other_candidates
from .tactics import (
    UNSEEN_SIZE,
    hidden_cards,
    position_field,
    position_key,
    remember,
    sample_position,
)

MAX_PLAYOUTS = 1000
MAX_CANDIDATES = 32  # more are never listed (six columns: at most 9)
MAX_NODES = 8192  # the tree search's nodes: one more than its samples at most

# The tree search's nodes (node 0 the root), one array of MAX_NODES per field.
Tree = namedtuple("Tree", (
    "move",  # the move into the node
    "child",  # its first child (-1: none)
    "sibling",  # its next sibling (-1: none)
    "visits",  # the samples that went through it
    "available",  # the samples in which its move was a candidate
    "total",  # their cards home, summed
    "won",  # the samples won
    "path",  # the nodes the current sample went through, by depth
))
# Its room to judge candidates in (flank_work): fields flank_<name> and tree_<name>.
FlankWork = namedtuple("FlankWork", (
    "sample",  # the player's memory with its unseen places filled in
    "position",  # a playout's position
    "shown",  # the observation of a playout's position its digger chooses from
    "probe",  # where a candidate move is tried
    "candidates",  # the candidates at the position judged
    "listed",  # the legal moves
    "root",  # the tree search's candidates at its root
    "wins",  # racing: the playouts each candidate won
    "judged",  # the last choice: samples the chosen move was played on (0: none), and won
    "cards",  # the unseen cards (their counts per card after tactics.COUNTS)
    "base_memory",  # a playout's digger's memory
    "legal",  # the legal moves of the digger's views (api.view_of)
    "scores",  # racing: each candidate's score on each sample, in tenths of cards home
    "alive",  # racing: 1 for each candidate still in the race
    "tree",  # the tree search's Tree
))


def workspace() -> dict:
    """FlankWork's fields, for a policy's workspace."""
    return {"flank_sample": position_field(),
            "flank_position": position_field(),
            "flank_shown": position_field(),
            "flank_probe": position_field(),
            "flank_candidates": api.array(np.int64, MAX_LEGAL_MOVES),
            "flank_listed": api.array(np.int64, MAX_LEGAL_MOVES),
            "flank_root": api.array(np.int64, MAX_LEGAL_MOVES),
            "flank_wins": api.array(np.int64, MAX_LEGAL_MOVES),
            "flank_judged": api.array(np.int64, 2),
            "flank_cards": api.array(np.int16, UNSEEN_SIZE),
            "flank_base_memory": api.array(np.int16, (2, SIZE)),
            "flank_legal": api.legal_room(),
            "flank_scores": api.array(np.int32, (MAX_CANDIDATES, MAX_PLAYOUTS)),
            "flank_alive": api.array(np.int64, MAX_CANDIDATES),
            **{f"tree_{name}": api.array(np.int64, MAX_NODES) for name in Tree._fields}}


def new_flank_work() -> FlankWork:
    """A FlankWork of its own arrays (tests, benchmarks)."""
    arrays = api.new_arrays(workspace())
    tree = Tree(*(arrays[f"tree_{name}"] for name in Tree._fields))
    return FlankWork(*(arrays[f"flank_{name}"] for name in FlankWork._fields[:-1]), tree)


@jit_always
def flank_work(record):
    """The FlankWork of a record holding workspace()'s fields, as plain arrays."""
    r, a = record, plain_array
    tree = Tree(a(r.tree_move), a(r.tree_child), a(r.tree_sibling), a(r.tree_visits),
                a(r.tree_available), a(r.tree_total), a(r.tree_won), a(r.tree_path))
    return FlankWork(a(r.flank_sample), a(r.flank_position), a(r.flank_shown), a(r.flank_probe),
                     a(r.flank_candidates), a(r.flank_listed), a(r.flank_root),
                     a(r.flank_wins), a(r.flank_judged), a(r.flank_cards),
                     a(r.flank_base_memory), a(r.flank_legal), a(r.flank_scores),
                     a(r.flank_alive), tree)


@jit_inline
def digger_move(view, known, rules, params, legal):
    """The digger's move from observation `view`, `known` being what its player remembers;
    `params`: planner's, whose keep, hold, roomy and short are the digger's knobs."""
    return blind_digger.move_at(view, known, rules, legal, params.keep, params.hold, params.roomy,
                                params.short)


@jit
def playout(pos, rules, params, work):
    """The digger plays sample `pos` from what its player would see and remember (its memory
    work.base_memory: recall's), to its end or for `horizon` moves; the cards home then."""
    view, memory = work.shown, work.base_memory
    made = 0
    while foundation_cards(pos) != DECK_SIZE and moves_made(pos) < MOVE_LIMIT:
        if params.horizon > 0 and made >= params.horizon:
            break
        made += 1
        observe(pos, rules, view)
        recall(view, rules, memory)
        move = digger_move(view, memory[0], rules, params, work.legal)
        if move == NO_MOVE:
            break
        remember_move(memory, view, move)
        apply_move(pos, rules, move)
    return foundation_cards(pos)


@jit
def find_candidates(obs, known, rules, params, seen, work):
    """The candidates of the module docstring into work.candidates (rollout.py's, the
    digger's move first); returns their count."""
    n = foundation_candidates(obs, rules, work.candidates)
    if n > 0:
        return n
    first = digger_move(obs, known, rules, params, work.legal)
    return min(other_candidates(obs, rules, first, work.candidates, work.listed, work.probe,
                                seen), MAX_CANDIDATES)


@jit
def play_sample(obs, known, rules, params, stream, work, k, n):
    """Draw sample k and play each of the n candidates still alive out on it into
    work.scores[c, k]."""
    sample, pos, base_memory, scores = work.sample, work.position, work.base_memory, work.scores
    cell_tenths = int(round(params.cellworth * 10))
    sample_position(known, rules, stream, work.cards, sample)
    for c in range(n):
        if work.alive[c] == 0:
            continue
        move = work.candidates[c]
        if move == NO_MOVE:
            scores[c, k] = 10 * foundation_cards(obs)
            continue
        copy_position(sample, pos)
        apply_move(pos, rules, move)
        copy_position(known, base_memory[0])  # the playout's player starts with our memory
        apply_move(base_memory[0], rules, move)
        mark_caught_up(base_memory, moves_made(pos))
        home = playout(pos, rules, params, work)
        work.wins[c] += home == DECK_SIZE
        scores[c, k] = 10 * (home + (params.bonus if home == DECK_SIZE else 0))
        if cell_tenths != 0:
            for r in range(8):
                scores[c, k] += cell_tenths * (pile_size(pos, r) == 0)


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
def choose_move(obs, known, rules, params, stream, seen, work):
    """The move of the module docstring, `params` planner's; work.judged: samples played for
    the chosen move (0 when none) and how many it won."""
    playouts = min(max(int(params.playouts), 1), MAX_PLAYOUTS)
    work.judged[0] = work.judged[1] = 0
    remember(seen, position_key(obs))
    n = find_candidates(obs, known, rules, params, seen, work)
    candidates, alive, wins = work.candidates, work.alive, work.wins
    if n <= 1:
        return candidates[0] if n == 1 else NO_MOVE
    for c in range(alive.shape[0]):
        alive[c] = c < n
        wins[c] = 0
    if hidden_cards(known, rules, work.cards) == 0:
        playouts = 1  # nothing to sample: every playout is the same
    elif params.tree > 0:
        for c in range(n):
            work.root[c] = candidates[c]
        best = tree_search(known, rules, params, stream, seen, work, n)
        chosen = child_for(work.tree, 0, work.root[best])
        work.judged[0] = work.tree.visits[chosen]
        work.judged[1] = work.tree.won[chosen]
        return work.root[best]
    batch = params.batch if params.batch > 0 else playouts
    cut = params.cut
    played = 0
    left = n
    while played < playouts and left > 1:
        for _ in range(min(batch, playouts - played)):
            play_sample(obs, known, rules, params, stream, work, played, n)
            played += 1
        if params.batch > 0 and played < playouts:
            left = drop_the_beaten(alive, work.scores, played, n, cut)
    best = leader(alive, work.scores, played, n)
    work.judged[0] = played
    work.judged[1] = wins[best]
    return candidates[best]


@jit_inline
def child_for(tree, node, move):
    """The child of `node` that `move` leads to, or -1 if it has none yet."""
    c = tree.child[node]
    while c >= 0:
        if tree.move[c] == move:
            return c
        c = tree.sibling[c]
    return -1


@jit_inline
def add_child(tree, node, move, count):
    """Node `count` becomes the child of `node` that `move` leads to; returns it."""
    tree.move[count] = move
    tree.child[count] = -1
    tree.sibling[count] = tree.child[node]
    tree.child[node] = count
    tree.visits[count] = 0
    tree.available[count] = 0
    tree.total[count] = 0
    tree.won[count] = 0
    return count


@jit_inline
def mark_available(tree, node, candidates, n):
    """Count one more availability for every child of `node` among the n candidates (those
    legal in this sample); returns the index of the first candidate without a child, or -1."""
    fresh = -1
    for i in range(n):
        c = child_for(tree, node, candidates[i])
        if c >= 0:
            tree.available[c] += 1
        elif fresh < 0:
            fresh = i
    return fresh


@jit_inline
def upper_bound_child(tree, node, candidates, n, explore):
    """The child among the candidates' with the highest UCB1 score (mean cards home plus
    `explore` x sqrt(ln availability / visits)); the first on a tie; -1 if none was played."""
    chosen, best_value = -1, -1e300
    for i in range(n):
        c = child_for(tree, node, candidates[i])
        if c < 0 or tree.visits[c] == 0:
            continue
        value = tree.total[c] / tree.visits[c] + explore * np.sqrt(
            np.log(max(tree.available[c], 1)) / tree.visits[c])
        if value > best_value:
            best_value, chosen = value, c
    return chosen


@jit
def tree_search(known, rules, params, stream, seen, work, n_root):
    """The tree search of the module docstring, `tree` samples from the root whose candidates
    are work.root[0:n_root]; returns the index of the one played most."""
    tree, root_moves = work.tree, work.root
    explore = params.explore
    path = tree.path
    tree.child[0] = -1
    count = 1
    candidates = work.candidates
    sample, pos, view, base_memory = work.sample, work.position, work.shown, work.base_memory
    for _ in range(params.tree):
        sample_position(known, rules, stream, work.cards, sample)
        copy_position(sample, pos)
        copy_position(known, base_memory[0])  # the player's memory, kept as in a playout
        mark_caught_up(base_memory, moves_made(pos))
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
                n = find_candidates(view, base_memory[0], rules, params, seen, work)
                if n == 0:
                    break
            if n == 1:
                move = candidates[0]  # forced: made without a node
            else:
                fresh = mark_available(tree, node, candidates, n)
                if fresh >= 0 and count < MAX_NODES:
                    move = candidates[fresh]
                    node = add_child(tree, node, move, count)
                    count += 1
                    added = True
                else:
                    node = upper_bound_child(tree, node, candidates, n, explore)
                    if node < 0:
                        break
                    move = tree.move[node]
                depth += 1
                path[depth] = node
            if move == NO_MOVE:  # the digger would stop here: the game ends
                stopped = True
                break
            apply_move(pos, rules, move)
            apply_move(base_memory[0], rules, move)
            mark_caught_up(base_memory, moves_made(pos))
        home = foundation_cards(pos) if stopped else playout(pos, rules, params, work)
        for d in range(1, depth + 1):
            tree.visits[path[d]] += 1
            tree.total[path[d]] += home
            tree.won[path[d]] += home == DECK_SIZE
    best, best_visits = 0, -1
    for i in range(n_root):
        c = child_for(tree, 0, root_moves[i])
        if c >= 0 and tree.visits[c] > best_visits:
            best, best_visits = i, tree.visits[c]
    return best
