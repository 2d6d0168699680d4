"""`planner`: plans over samples of what the player cannot see (hindsight optimisation).

Where a card that matters is hidden (the stock's order; in Napoleon's Flank the buried column
cards the player has not seen), it draws deals consistent with everything the player has seen
and remembers: the hidden places, and only those, are filled at random with the cards the
player has not seen (engine/observe.py: sample_position), from the policy's own random stream.

It decides only where a card has just come into view (and at the start): until the next card
shows, every move is the same whatever the hidden cards are, so it chooses a whole plan, the
moves up to and including the next one that shows a card (a deal, a dig onto an unseen
card), and follows it without sampling again. The candidate plans:
- `lookahead`'s own play up to that point (simulated on what it knows);
- the plans of the winning lines found by the exact search (simstats/search, eager, at most
  `effort` positions) on `proposals` samples, the `candidates` most often found.
Each candidate is then played on the same `samples` fresh samples and the rest judged: solved
with the same search (a sample it cannot decide counts as lost), or with `playout=1` played by
the fair player (`lookahead` on what the sample would show, then the search once every card is
seen), which removes the optimism of solving a sample that knows its hidden cards (strategy
fusion). Another plan is played only if it wins at least `margin` more samples than lookahead's
(the first of the best on a tie). Measured on the same deals as `solver[budget=4e6,restarts=2]`
(this policy without sampling; made when solver's searches had a fixed size, today's `luby=0`):
with margin 1 the departures cost 1.06 points in Tournament (deals 0-4,999) and 4.48 in
Kingsdown Eights; judged by fair playouts (margin 1) they still cost in Kingsdown Eights (of
deals 0-199, won by that solver only 6, by this only 1); with margin 2 (depart only when a plan
wins both samples and lookahead's loses both) they are rare: in Tournament they cost nothing
(deals 0-4,999: won by that solver only 9, by this only 10), in Kingsdown Eights 0.44 points
(won by that solver only 39, by this only 17), against 4.48 with margin 1: hence the default;
the sampling has yet to earn its keep in these games (issue 15).
Cards home do not break ties:
tried, the cards home on the searches' best lines preferred plans that deal the stock out
early, which a sample's known stock makes look safe, and lost 9 of 5,000 Cicely deals that
`solver` wins.
Where every card that matters is seen (the stock is out, or rebuilt from memory after a
redeal) it plays exactly as `solver` does, with a far bigger search by default (budget 4e6
positions, 2 restarts of the same size, luby=0, against solver's 1,000 x luby(i), 63 searches;
benchmarks/planner.py measures what the search and the sampling each add).
In Napoleon's Flank it plans otherwise (flank.py). There the buried cards stay hidden until dug
out, so a sample solved with every card known assumes what the player never learns (strategy
fusion at its worst: the solved samples dig as if they could see). Instead, at every choice
between more than one candidate (a card that fits both foundations of its suit; once no
foundation play is left, the playouts' digger's own move, each dig into the first empty cell,
deal, redeal) it searches a tree of its own moves over `tree` = 1,400 samples of what it has not
seen (information-set Monte Carlo tree search, UCB1 with `explore` = 15 cards home): each sample
follows the moves that did best so far, adds one move to the tree, and is played out by a fair
player that remembers (`blind-digger`, whose knobs keep, hold, roomy and short
are off by default), starting from what this player remembers; the candidate sampled most is
played. With tree=0 each candidate is played out on samples instead, raced (`batch` = 8 at a
time; a candidate more than `cut` = 2 standard errors of the paired difference behind the
leader is dropped) up to `playouts` = 384 per candidate, or with batch=0 given all `playouts`.
Foundation plays with one pile to go to and forced moves are made without sampling. It samples
at every other choice, also where the move before showed no card (`replan=1`); with `replan=0`
it samples only at its first such choice and wherever a card it had never seen has come into
view since its last one, and in between plays the digger's moves, which every playout of the
move it chose went on with (they depend on the cards seen alone). Judging every choice again
won more, though not conclusively: deals 0-999 of seed 0, 65 won with replan=1 and 49 with
replan=0 (64 playouts each, McNemar p = 0.08), hence the default. Deals 0-999 of seed 0, one
core (benchmarks/planner_napoleon.md, which lists every method tried): 64 playouts to every
candidate won 65 (0.21 s a deal), raced up to 384 98 (0.55 s; 10.00% of deals 0-4,999), the
tree search with 1,500 samples 148 (McNemar p = 0.0006 against 98); blind-digger alone won 10.
Parameters: solver's (used where everything is seen, and lookahead's), samples, proposals,
candidates, effort (positions searched per sample), margin and playout; in Napoleon's Flank
tree and explore (the tree search; tree=0: racing), playouts (racing's samples per candidate at
most; 0: plan there as in the other games), replan, batch, cut, the playouts' score (bonus,
horizon, cellworth) and their digger's knobs (keep, hold, roomy, short).
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import replace

import numba
import numpy as np

from ..engine import rules as R
from ..engine.cards import HIDDEN
from ..engine.moves import apply_move, copy_position, moves_made, pile_card, pile_size, status
from ..engine.observe import mark_caught_up, observe, recall, remember_move
from ..engine.state import (
    MOVE_LIMIT,
    NO_MOVE,
    ONGOING,
    SIZE,
    STOCK,
    TABLEAU,
    WON,
)
from ..jit import jit, jit_always, jit_inline, plain_array, record_as
from ..search import (
    SEARCH_WON,
    played_line,
    search_work,
    solve,
    table_bits_for,
)
from . import api, flank, lookahead, solver
from .lookahead import line_work
from .solver import follow, next_in_plan
from .tactics import UNSEEN_SIZE, sample_position, unseen_in_play

# Once every card is seen, a far bigger search than solver's default: measured on Kingsdown
# Eights deals 0-99, solver wins 72 with its default and 92 with budget 4e6 and 2 restarts
# (1.2 s a deal), Tournament deals 0-199 185 and 191 (0.18 s), one process each (solver's
# default then was 25,000 positions and 4 restarts; searches of a fixed size: luby 0). memo and
# exact stay 0, as measured, when solver's default became 1 (not measured here with 1).
MAX_SAMPLES = 4096
PARAMETERS = {
    **solver.PARAMETERS,
    **{name: replace(solver.PARAMETERS[name], default=value) for name, value in (
        ("budget", 4_000_000), ("restarts", 2), ("luby", False), ("memo", False),
        ("exact", False))},
    "samples": api.integer(2, 1, MAX_SAMPLES, doc="samples each plan is judged on"),
    "proposals": api.integer(2, 1, MAX_SAMPLES, doc="samples solved for plans to propose"),
    "candidates": api.integer(3, 0, doc="proposed plans judged against lookahead's"),
    "effort": api.integer(20_000, 1, doc="positions searched to solve a sample"),
    "margin": api.integer(2, 1, doc="samples more than lookahead's plan another plan must win"),
    "playout": api.flag(False, doc="1: a sample judged by the fair player's play, not solved"),
    "playouts": api.integer(384, 0, flank.MAX_PLAYOUTS,
                            doc="Napoleon's Flank: samples each candidate is played out on"
                            " at most"),
    "replan": api.flag(True, doc="Napoleon's Flank: 1: sample again at every choice"),
    # Napoleon's Flank: the playouts' digger (blind-digger's knobs) and how samples are spent
    # (flank.py)
    "keep": api.integer(0, 0, 8, doc="Napoleon's Flank: playouts' cells kept from blind digs"),
    "hold": api.integer(99, 0, 99, doc="Napoleon's Flank: playouts dig a top waiting for more"
                        " cards than this ..."),
    "roomy": api.integer(0, 0, 8, doc="... only while more cells than this are free"),
    "short": api.integer(0, 0, 100, doc="Napoleon's Flank: playouts' weight of column size"),
    "bonus": api.integer(0, 0, 10_000, doc="Napoleon's Flank: a won playout's extra score"),
    "batch": api.integer(8, 0, flank.MAX_PLAYOUTS,
                         doc="Napoleon's Flank: samples a round, candidates behind dropped"
                         " after each (0: all `playouts` to every candidate)"),
    "cut": api.number(2.0, doc="Napoleon's Flank: standard errors behind that drop a candidate"),
    "horizon": api.integer(0, 0, doc="Napoleon's Flank: digger moves a playout makes at most"
                           " (0: to the end)"),
    "tree": api.integer(1400, 0, flank.MAX_NODES - 1,
                        doc="Napoleon's Flank: samples of the tree search (0: race playouts)"),
    "explore": api.number(15.0, doc="Napoleon's Flank: the tree search's exploration, in cards"
                          " home"),
    "cellworth": api.number(0.0, doc="Napoleon's Flank: a playout's score of a free cell at its"
                            " end, in cards home"),
}
# Its parameters as solver's record (their first fields), for solver's code.
as_solver_params = record_as(numba.from_dtype(api.params_dtype(solver.PARAMETERS)))
MAX_PREFIX = 400  # moves of a plan at most (a longer line is cut: sampled again after it)

# The sampling record (memory): when it last sampled and what it found.
SAMPLED_HIDDEN = 0  # hidden cards in play when it last sampled (0: not yet in this deal)
FIRST_SAMPLES = 1  # samples its first choice of the deal was judged on
FIRST_WON = 2  # of those, samples the chosen plan won: the policy's own estimate of its chance
DECISIONS = 3  # choices made on samples in this deal
N_SAMPLING = 4
# Per candidate plan (a row of PlanWork's `plans`): its moves, then:
PLAN_MOVES = MAX_PREFIX  # how many
FOUND = MAX_PREFIX + 1  # how many proposal samples found it
WINS = MAX_PREFIX + 2  # how many evaluation samples it won
PLAN_ROW = MAX_PREFIX + 3

# Its room to sample and judge plans in (plan_work): fields plans_<name> of its workspace.
PlanWork = namedtuple("PlanWork", (
    "sample",  # a sample of the hidden cards
    "walk",  # where a plan is played on a sample
    "unseen",  # the unseen cards (tactics.sample_position's room)
    "plans",  # the candidate plans, a row each: plans[0] lookahead's
    "imagined",  # lookahead's memory (seen) as it would be along a plan: the real one untouched
    "shown",  # what a fair player of a sample would see (fair_finish)
    "pretend",  # that player's memory of the deal
))
# What planner.decide reads and writes besides its memory.
PlannerWork = namedtuple("PlannerWork", ("line", "search", "plans", "flank"))


def workspace(values: dict) -> dict:
    plans = 1 + max(int(values["proposals"]), 0)
    budget = max(solver.largest_search(values), int(values["effort"]))
    return {**solver.workspace(table_bits_for(budget)),
            "plans_sample": api.array(np.int16, SIZE),
            "plans_walk": api.array(np.int16, SIZE),
            "plans_unseen": api.array(np.int16, UNSEEN_SIZE),
            "plans_plans": api.array(np.int64, (plans, PLAN_ROW)),
            "plans_imagined": lookahead.MEMORY["seen"],
            "plans_shown": api.array(np.int16, SIZE, fill=HIDDEN),
            "plans_pretend": api.array(np.int16, (2, SIZE)),
            **flank.workspace()}


@jit_always
def planner_work(record):
    """The PlannerWork of a record holding workspace()'s fields, as plain arrays: decide
    compiles once for every size of plans (proposals) and table."""
    r, a = record, plain_array
    plans = PlanWork(a(r.plans_sample), a(r.plans_walk), a(r.plans_unseen), a(r.plans_plans),
                     a(r.plans_imagined), a(r.plans_shown), a(r.plans_pretend))
    return PlannerWork(line_work(r), search_work(r), plans, flank.flank_work(r))


class Planner(api.CompiledPolicy):
    """chooses, at each card it sees, among lookahead's plan and plans solved on samples of the
    hidden cards the one that wins most samples; solver once every card is seen"""

    parameters = PARAMETERS
    memory = {**solver.Solver.memory,
              "sampling": api.array(np.int64, N_SAMPLING)}

    @staticmethod
    def workspace(values: dict) -> dict:
        return workspace(values)

    @staticmethod
    def choose(view, params, memory, rng):
        # plain arrays: what it shares with solver, lookahead and rollout is the code they
        # compiled
        m, a = memory, plain_array
        obs = api.observation_array(view)
        rules = api.rules_array(view)
        recollection = a(m.recalled)
        recall(obs, rules, recollection)
        move = decide(obs, recollection[0], rules, params, a(m.seen), a(m.plan), a(m.sampling),
                      planner_work(m), rng)
        remember_move(recollection, obs, move)
        return move


@jit_inline
def shows_unseen(known, rules):
    """Whether the player would now be shown a card it has not seen: a visible place holds a
    card that is HIDDEN in what it knows (docs/rules.md 8)."""
    squared = rules[R.HIDE_BURIED] != 0
    for p in range(STOCK):
        n = pile_size(known, p)
        if squared and p >= TABLEAU:
            if n > 0 and pile_card(known, p, n - 1) == HIDDEN:
                return True
        else:
            for k in range(n):
                if pile_card(known, p, k) == HIDDEN:
                    return True
    return False


@jit
def fair_prefix(known, rules, walk, line, length, out):
    """Copy into `out` the moves of `line` up to and including the first that shows a card
    unseen in `known` (walked on `walk`); returns how many."""
    copy_position(known, walk)
    n = min(length, MAX_PREFIX)
    for i in range(n):
        out[i] = line[i]
        apply_move(walk, rules, line[i])
        if shows_unseen(walk, rules):
            return i + 1
    return n


@jit_inline
def imagine(seen, imagined):
    """lookahead's memory `seen` copied, to play lookahead on without touching it."""
    for i in range(seen.shape[0]):
        imagined[i] = seen[i]


@jit
def lookahead_plan(known, rules, params, line, seen, work, out):
    """Into `out`, the moves `lookahead` would make from `known` up to and including the first
    that shows an unseen card (on copies: its memory `seen` is not touched); returns how many."""
    walk, imagined = work.walk, work.imagined
    copy_position(known, walk)
    imagine(seen, imagined)
    for i in range(MAX_PREFIX):
        if status(walk, rules) != ONGOING:
            return i
        move = lookahead.decide(walk, rules, lookahead.as_lookahead_params(params), line,
                                imagined)
        if move == NO_MOVE:
            return i
        out[i] = move
        apply_move(walk, rules, move)
        if shows_unseen(walk, rules):
            return i + 1
    return MAX_PREFIX


@jit_inline
def same_plan(plans, a, b):
    n = plans[a, PLAN_MOVES]
    if plans[b, PLAN_MOVES] != n:
        return False
    for i in range(n):
        if plans[a, i] != plans[b, i]:
            return False
    return True


@jit
def propose(known, rules, params, moves_made, search, work, rng):
    """Solve `proposals` samples; the distinct plans of their winning lines go into plans[1:]
    (plans[0] is lookahead's), each with how many samples found it. Returns the plans' count."""
    count = 1
    plans = work.plans
    for _ in range(int(params.proposals)):
        sample_position(known, rules, rng, work.unseen, work.sample)
        if solve(work.sample, rules, int(params.effort), MOVE_LIMIT - moves_made, True,
                 search) != SEARCH_WON:
            continue
        row = plans[count]
        line, length = played_line(SEARCH_WON, search)
        row[PLAN_MOVES] = fair_prefix(known, rules, work.walk, line, length, row)
        row[FOUND] = 1
        for other in range(count):
            if same_plan(plans, other, count):
                plans[other, FOUND] += 1
                break
        else:
            count += 1
    return count


@jit
def keep_most_found(plans, count, keep):
    """Reorder plans[1:count] by how many samples found them (first found first on a tie) and
    return how many are kept: at most `keep` besides plans[0]."""
    for i in range(1, count):  # insertion sort of a few rows
        j = i
        while j > 1 and plans[j - 1, FOUND] < plans[j, FOUND]:
            for k in range(PLAN_ROW):
                plans[j - 1, k], plans[j, k] = plans[j, k], plans[j - 1, k]
            j -= 1
    return min(count, 1 + keep)


@jit
def fair_finish(walk, rules, params, line, work, search):
    """Whether the fair player wins sample `walk` from here: it sees only what the player would
    see of the sample (the observation, and its memory of the deal, from work.pretend[0], the
    position as remembered now; lookahead's memory work.imagined) and plays `lookahead` until
    every card that matters is seen, then the search (at most `effort` positions; undecided
    counts as lost)."""
    shown, pretend = work.shown, work.pretend
    mark_caught_up(pretend, moves_made(walk))
    for _ in range(MOVE_LIMIT):
        state = status(walk, rules)
        if state != ONGOING:
            return state == WON
        observe(walk, rules, shown)
        recall(shown, rules, pretend)
        known = pretend[0]
        if unseen_in_play(known) == 0:
            return solve(known, rules, int(params.effort), MOVE_LIMIT - moves_made(walk),
                         True, search) == SEARCH_WON
        move = lookahead.decide(known, rules, lookahead.as_lookahead_params(params), line,
                                work.imagined)
        if move == NO_MOVE:
            return False
        remember_move(pretend, shown, move)
        apply_move(walk, rules, move)
    return False


@jit
def evaluate(known, rules, params, count, seen, work, rng):
    """Each plan's WINS on the same `samples` fresh samples: the plan's moves, then the
    search, or with `playout` the fair player (fair_finish). Returns the index of the plan to
    play: the best other plan if it wins at least `margin` more samples than lookahead's
    (the first on a tie), else 0. `work`: a PlannerWork."""
    room = work.plans
    plans, walk = room.plans, room.walk
    for c in range(count):
        plans[c, WINS] = 0
    for _ in range(int(params.samples)):
        sample_position(known, rules, rng, room.unseen, room.sample)
        for c in range(count):
            copy_position(room.sample, walk)
            for i in range(plans[c, PLAN_MOVES]):
                apply_move(walk, rules, plans[c, i])
            if params.playout != 0:
                copy_position(known, room.pretend[0])
                for i in range(plans[c, PLAN_MOVES]):
                    apply_move(room.pretend[0], rules, plans[c, i])
                imagine(seen, room.imagined)
                won = fair_finish(walk, rules, params, work.line, room, work.search)
            else:
                won = solve(walk, rules, int(params.effort), MOVE_LIMIT - moves_made(walk),
                            True, work.search) == SEARCH_WON
            plans[c, WINS] += won
    best = 1
    for c in range(2, count):
        if plans[c, WINS] > plans[best, WINS]:
            best = c
    if plans[best, WINS] >= plans[0, WINS] + params.margin:
        return best
    return 0


@jit
def decide(obs, known, rules, params, seen, plan, sampling, work, rng):
    """The choice at `obs`, `known` the position as remembered: `seen` and `plan` are solver's
    memory, `sampling` this policy's record of its sampling, `work` a PlannerWork."""
    hidden = unseen_in_play(known)
    if hidden == 0:  # every card that matters is seen
        return solver.decide(obs, known, rules, as_solver_params(params), work.line, seen,
                             work.search, plan)
    if rules[R.HIDE_BURIED] and params.playouts != 0:
        # Napoleon's Flank: each candidate move played out by the digger (flank.py)
        if params.replan == 0 and hidden == sampling[SAMPLED_HIDDEN]:
            # no unseen card came into view since the last judged choice: every playout of the
            # move chosen went on with these very moves of blind-digger (they depend on the
            # cards seen alone), so the plan judged goes on, without sampling again
            return flank.digger_move(obs, known, rules, params, work.flank.legal)
        move = flank.choose_move(obs, known, rules, params, rng, seen, work.flank)
        judged = work.flank.judged
        if judged[0] > 0:
            sampling[SAMPLED_HIDDEN] = hidden
            sampling[DECISIONS] += 1
            if sampling[DECISIONS] == 1:
                sampling[FIRST_SAMPLES] = judged[0]
                sampling[FIRST_WON] = judged[1]
        return move
    move = next_in_plan(obs, rules, plan)
    if move != NO_MOVE:
        return move
    plans = work.plans.plans
    if hidden != sampling[SAMPLED_HIDDEN]:  # a card came into view since the last choice
        sampling[SAMPLED_HIDDEN] = hidden
        plans[0, PLAN_MOVES] = lookahead_plan(known, rules, params, work.line, seen, work.plans,
                                              plans[0])
        plans[0, FOUND] = 0
        count = propose(known, rules, params, moves_made(obs), work.search, work.plans, rng)
        count = keep_most_found(plans, count, int(params.candidates))
        best = 0
        if count > 1:
            best = evaluate(known, rules, params, count, seen, work, rng)
        sampling[DECISIONS] += 1
        if sampling[DECISIONS] == 1:
            sampling[FIRST_SAMPLES] = int(params.samples) if count > 1 else 0
            sampling[FIRST_WON] = plans[best, WINS] if count > 1 else 0
        if best > 0:
            return follow(plan, moves_made(obs), plans[best], plans[best, PLAN_MOVES])
    return lookahead.decide(known, rules, lookahead.as_lookahead_params(params), work.line,
                            seen)
