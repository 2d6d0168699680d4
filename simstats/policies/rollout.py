"""`rollout`: each candidate move is played out by a fast base policy on several samples of the
hidden cards, drawn consistently with what the player has seen; the best mean wins. Opt-in: it
costs hundreds of base-policy games per deal.

Priorities: (1) a foundation move (docs/rules.md 9.1 order), without rollout; when the card fits
both foundations of its suit, the one whose playouts score higher; (2) otherwise the candidate
with the best mean playout score, ties to the earlier candidate. Candidates, in order: the base
policy's own move (so a move is changed only when playouts find a better one; the base's stop
scores the cards home now), then every other legal move of a visible card except foundation
transfers and moves that cannot matter (a cell fill other than to the first empty cell, a lone
card moved to an empty column), then deal, then redeal. A move back to a position met earlier
in the deal is no candidate, so play cannot go round in circles; a single candidate is made
without rollout.

A sample: the hidden cards are the 104 cards less every visible card (reserve, tableau,
foundations: a foundation holds the in-suit run its count gives); they are shuffled with the
policy's own stream (docs/rules.md 11) and put into the observation's HIDDEN slots (the stock, and
Napoleon's Flank's buried column cards). A playout makes the candidate move on the sample, then
lets the base policy play, choosing from an observation of the sampled position as in a real
game, until the game ends, the base stops, or `horizon` base moves are made; its score is the
cards home then (a win is 104). Every candidate is played out on the same samples. The policy
reads only the observation and its own stream, so it is fair by construction.

With base `blind-digger`, a player that remembers what it saw (Napoleon's Flank's buried
cards, a redeal's stock), the rollout remembers too: its samples fill only the places the player
has not seen (the cards it remembers stay where they are, engine/observe.py: recall), and each
playout's `blind-digger` starts from the player's memory, as if it had played the deal so far
itself. The other bases forget, and their samples redraw every hidden place, as before
(their recorded results stand). In Napoleon's Flank, deals 0-199 of seed 0: `blind-digger`
won 5 (40.8 cards home on average), rollout[base=blind-digger] with 4 samples 2 (37.4), 16
samples 7 (45.7), 64 samples 17 (51.4): few samples make it follow noise, many make it strong (deals
0-999: 64 samples 61 won, 0.21 s a deal on one core; 128 samples 65; blind-digger 10).
`planner` plays Napoleon's Flank this way.

Parameters, e.g. rollout[samples=8,base=foundation-only]: samples per candidate; base, the
policy whose compiled code plays the samples out (foundation-only, random, dig or
blind-digger); horizon, base moves per playout (0: to the end of the game).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..engine.cards import DECK_SIZE, HIDDEN
from ..engine.moves import (
    apply_move,
    can_place,
    copy_position,
    foundation_cards,
    legal_moves,
    moves_made,
    pile_size,
    pile_top,
    status,
)
from ..engine.observe import mark_caught_up, observe, recall, remember_move
from ..engine.state import (
    DEAL,
    FOUNDATION_PLACE,
    MAX_LEGAL_MOVES,
    MOVE_LIMIT,
    N_PLACES,
    NO_MOVE,
    ONGOING,
    REDEAL,
    SIZE,
    TABLEAU,
)
from ..jit import jit, jit_always, jit_inline, plain_array
from . import api, blind_digger, dig, foundation_only, random_moves
from .tactics import (
    UNSEEN_SIZE,
    first_foundation_move,
    hidden_cards,
    position_field,
    position_key,
    positions_field,
    remember,
    sample_position,
    seen_field,
    was_seen,
)

MAX_SAMPLES = 1000
BASES = ("foundation-only", "random", "dig", "blind-digger")  # the `base` parameter's choices
BASE_FOUNDATION_ONLY, BASE_RANDOM, BASE_DIG, BASE_BLIND_DIGGER = range(len(BASES))
PARAMETERS = {
    "samples": api.integer(4, 1, MAX_SAMPLES, doc="samples each candidate is played out on"),
    "base": api.choice("dig", BASES, doc="the policy that plays each sample out"),
    "horizon": api.integer(0, 0, doc="base moves a playout makes at most (0: to the end)"),
}

# Its room to play samples out in (playout_work), fields playout_<name> of its workspace.
PlayoutWork = namedtuple("PlayoutWork", (
    "boards",  # dig's own working position (dig.choose_move's scratch)
    "sample",  # the observation with its hidden cards filled in
    "position",  # a playout's position
    "shown",  # the observation of a playout's position the base policy chooses from
    "probe",  # where a candidate move is tried on the observation
    "candidates",  # the candidate moves
    "listed",  # the legal moves; also the random base policy's list
    "totals",  # the summed playout scores of each candidate
    "wins",  # the playouts each candidate won
    "judged",  # the last choice: samples each candidate was played on (0: none), the chosen's wins
    "cards",  # the hidden cards (their counts per card after tactics.COUNTS)
    "base_memory",  # a playout's blind-digger memory
    "legal",  # the legal moves of blind-digger's views (api.view_of)
))
WORKSPACE = {"playout_boards": positions_field(1),
             "playout_sample": position_field(),
             "playout_position": position_field(),
             "playout_shown": position_field(),
             "playout_probe": position_field(),
             "playout_candidates": api.array(np.int64, MAX_LEGAL_MOVES),
             "playout_listed": api.array(np.int64, MAX_LEGAL_MOVES),
             "playout_totals": api.array(np.int64, MAX_LEGAL_MOVES),
             "playout_wins": api.array(np.int64, MAX_LEGAL_MOVES),
             "playout_judged": api.array(np.int64, 2),
             "playout_cards": api.array(np.int16, UNSEEN_SIZE),
             "playout_base_memory": api.array(np.int16, (2, SIZE)),
             "playout_legal": api.legal_room()}


@jit_always
def playout_work(record):
    """The PlayoutWork of a record holding WORKSPACE's fields, as plain arrays."""
    r, a = record, plain_array
    return PlayoutWork(a(r.playout_boards), a(r.playout_sample), a(r.playout_position),
                       a(r.playout_shown), a(r.playout_probe), a(r.playout_candidates),
                       a(r.playout_listed), a(r.playout_totals), a(r.playout_wins),
                       a(r.playout_judged), a(r.playout_cards), a(r.playout_base_memory),
                       a(r.playout_legal))


def new_playout_work() -> PlayoutWork:
    """A PlayoutWork of its own arrays (tests, benchmarks)."""
    arrays = api.new_arrays(WORKSPACE)
    return PlayoutWork(*(arrays[f"playout_{name}"] for name in PlayoutWork._fields))


class Rollout(api.CompiledPolicy):
    """each candidate played out by a base policy on sampled hidden cards; best mean (slow)"""

    parameters = PARAMETERS
    memory = {"seen": seen_field(), "recollection": api.recollection()}
    workspace = WORKSPACE

    @staticmethod
    def choose(view, params, memory, rng):
        m = memory
        obs, rules = api.observation_array(view), api.rules_array(view)
        recollection = plain_array(m.recollection)
        recall(obs, rules, recollection)
        move = choose_move(obs, rules, params, rng, plain_array(m.seen), recollection[0],
                           playout_work(m))
        remember_move(recollection, obs, move)
        return move


@jit_inline
def worth_trying(pos, rules, move):
    """Skip moves that cannot matter: deal/redeal, hidden cards, foundation plays, a cell fill
    other than to the first empty cell, a lone card moved to an empty column."""
    if move == DEAL or move == REDEAL:
        return False
    src, dst = move // N_PLACES, move % N_PLACES
    if src < FOUNDATION_PLACE:
        if pile_top(pos, src) == HIDDEN or dst >= FOUNDATION_PLACE:
            return False
    if dst < TABLEAU:
        for r in range(dst):
            if pile_size(pos, r) == 0:
                return False
    elif dst < FOUNDATION_PLACE and pile_size(pos, dst) == 0:
        if TABLEAU <= src < FOUNDATION_PLACE and pile_size(pos, src) == 1:
            return False
    return True


# blind-digger's default keep, as a number the compiled code reads
DIGGER_KEEP = blind_digger.DEFAULTS["keep"].default_value


@jit_inline
def blind_digger_move(view, known, rules, legal):
    """blind-digger's move from observation `view`, `known` being what the player remembers;
    `legal` is room for the legal moves of api's views."""
    return blind_digger.move_at(view, known, rules, legal, DIGGER_KEEP, blind_digger.NEVER_HELD,
                                blind_digger.NEVER_ROOMY, blind_digger.NO_SHORT)


@jit_inline
def base_choice(base, view, rules, stream, boards, listed, base_memory, legal):
    """The base policy's move from observation `view` (blind-digger: and its memory, which
    recall brings up to date); the rest is room for each base (PlayoutWork's)."""
    if base == BASE_FOUNDATION_ONLY:
        return foundation_only.choose_move(view, rules)
    if base == BASE_RANDOM:
        return random_moves.choose_move(view, rules, stream, listed)
    if base == BASE_BLIND_DIGGER:
        recall(view, rules, base_memory)
        move = blind_digger_move(view, base_memory[0], rules, legal)
        remember_move(base_memory, view, move)
        return move
    return dig.choose_move(view, rules, boards)


@jit
def playout(pos, rules, base, horizon, stream, view, boards, listed, base_memory, legal):
    """Let the base policy play position `pos` (a full position) from an observation of it,
    `view`, as in a real game; return the cards home at the end or after `horizon` moves."""
    made = 0
    while horizon <= 0 or made < horizon:
        if base == BASE_RANDOM:
            if status(pos, rules) != ONGOING:
                break
        elif foundation_cards(pos) == DECK_SIZE or moves_made(pos) >= MOVE_LIMIT:
            break  # the deterministic bases stop by themselves when no move is left
        observe(pos, rules, view)
        move = base_choice(base, view, rules, stream, boards, listed, base_memory, legal)
        if move == NO_MOVE:
            break
        apply_move(pos, rules, move)
        made += 1
    return foundation_cards(pos)


@jit_inline
def leads_back(obs, rules, move, probe, seen):
    """Whether a card move returns to a position met earlier in this deal."""
    if move == DEAL or move == REDEAL:
        return False
    copy_position(obs, probe)
    apply_move(probe, rules, move)
    return was_seen(seen, position_key(probe))


@jit
def add_candidate(obs, rules, move, candidates, n, probe, seen):
    """Append `move` to candidates[0:n] unless it is there already or leads back (tried on
    `probe`); return n."""
    for i in range(n):
        if candidates[i] == move:
            return n
    if move != NO_MOVE and leads_back(obs, rules, move, probe, seen):
        return n
    candidates[n] = move
    return n + 1


@jit
def find_candidates(obs, known, rules, base, stream, seen, work):
    """The candidates of the module docstring into work.candidates; return their count."""
    n = foundation_candidates(obs, rules, work.candidates)
    if n > 0:
        return n
    if base == BASE_BLIND_DIGGER:  # from the player's memory (base_choice: the playout's)
        first = blind_digger_move(obs, known, rules, work.legal)
    else:
        first = base_choice(base, obs, rules, stream, work.boards, work.listed,
                            work.base_memory, work.legal)
    return other_candidates(obs, rules, first, work.candidates, work.listed, work.probe, seen)


@jit
def foundation_candidates(obs, rules, candidates):
    """The first foundation move, and the same card to the other foundation of its suit where
    it fits there too, into candidates; their count (0: no foundation move)."""
    move = first_foundation_move(obs, rules)
    if move == NO_MOVE:
        return 0
    candidates[0] = move
    src, dst = move // N_PLACES, move % N_PLACES
    other = dst + 4
    if other < FOUNDATION_PLACE + 8 and can_place(obs, rules, pile_top(obs, src), src, other):
        candidates[1] = src * N_PLACES + other
        return 2
    return 1


@jit
def other_candidates(obs, rules, first, candidates, listed, probe, seen):
    """With no foundation move: `first` (the playout player's own move), then every card move
    worth trying from the reserve or a column, then deal and redeal, none that leads back, into
    `candidates` (`listed`: room for the legal moves, `probe`: for a position); their count."""
    n = add_candidate(obs, rules, first, candidates, 0, probe, seen)
    count = legal_moves(obs, rules, listed)
    for i in range(count):
        move = listed[i]
        if worth_trying(obs, rules, move) and move // N_PLACES < FOUNDATION_PLACE:
            n = add_candidate(obs, rules, move, candidates, n, probe, seen)
    for i in range(count):
        if listed[i] == DEAL or listed[i] == REDEAL:
            n = add_candidate(obs, rules, listed[i], candidates, n, probe, seen)
    return n


@jit
def choose_move(obs, rules, params, stream, seen, known, work):
    """The move of the module docstring; work.judged tells how it was judged."""
    samples = min(max(int(params.samples), 1), MAX_SAMPLES)
    base, horizon = int(params.base), int(params.horizon)
    work.judged[0] = work.judged[1] = 0
    remember(seen, position_key(obs))
    n = find_candidates(obs, known, rules, base, stream, seen, work)
    candidates, totals, wins = work.candidates, work.totals, work.wins
    if n == 0:
        return NO_MOVE
    if n == 1:
        return candidates[0]
    for c in range(n):
        totals[c] = 0
        wins[c] = 0
    home = foundation_cards(obs)
    sample, pos, base_memory = work.sample, work.position, work.base_memory
    remembers = base == BASE_BLIND_DIGGER
    drawn_from = known if remembers else obs  # the places to fill: those not seen (or all)
    if base != BASE_RANDOM and hidden_cards(drawn_from, rules, work.cards) == 0:
        samples = 1  # nothing to sample and a deterministic base: every playout is the same
    for _ in range(samples):
        sample_position(drawn_from, rules, stream, work.cards, sample)
        for c in range(n):
            move = candidates[c]
            if move == NO_MOVE:
                totals[c] += home
                continue
            copy_position(sample, pos)
            apply_move(pos, rules, move)
            if remembers:  # the playout's player starts with the player's memory
                copy_position(known, base_memory[0])
                apply_move(base_memory[0], rules, move)
                mark_caught_up(base_memory, moves_made(pos))
            home_then = playout(pos, rules, base, horizon, stream, work.shown, work.boards,
                                work.listed, base_memory, work.legal)
            totals[c] += home_then
            wins[c] += home_then == DECK_SIZE
    best = 0
    for c in range(1, n):
        if totals[c] > totals[best]:
            best = c
    work.judged[0] = samples
    work.judged[1] = wins[best]
    return candidates[best]
