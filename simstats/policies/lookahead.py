"""`lookahead`: a bounded search over lines of non-foundation moves, each followed by every
foundation play, scored by tactics.evaluate, from the position as the player remembers it.

Memory (docs/rules.md 8: only what was seen earlier in this deal): the policy replays its own moves
on the position it last saw and adds what each observation shows (engine/observe.py: recall). It
so knows Napoleon's Flank's buried cards that it saw before a deal covered them, and after a
redeal the new stock, the gathered columns in a fixed order: then a deal or a redeal is a step
like any other, since every card it brings is known.

A step of a line is a cell fill, a build, a foundation transfer, a deal or redeal of known cards,
or a dig: a column's top cards to free cells one by one, each followed by the foundation plays it
allows, until a card goes home after the second or a later one. Priorities: (1) a foundation
move; when the card fits both the ace pile and the king pile of its suit, the pile whose best
line scores higher; (2) the first move of the best line of up to `depth` steps (`late` once every
card left is known) if it scores higher than the position now and than the line being followed;
a dig is then made to its end unless play turns out otherwise; (3) when no line is better and
every card is known, the same with lines of up to `deep` steps before a deal or redeal (and, with
`deepstop`, before stopping) if at most `deepwidth` steps start from here; (4) deal; (5) redeal;
(6) stop.

Score: cards home, free cells (`free`, about 1.3 cards home), empty columns (`empty`), cards one
card from home (`near`), minus cards above each foundation's next card (`dig`) and cell cards
waiting for their foundation (`wait` per missing card), plus each redeal left (`redeal`: a line
that spends one must gain that much) and each column top a move uncovered but not yet seen
(`peek`, so Napoleon's Flank's columns are dug blind), minus `step` per move of the line.
Defaults tuned by measurement, benchmarks/tune_lookahead.md; e.g. lookahead[depth=1,free=1.8].
"""

from __future__ import annotations

from collections import namedtuple

import numba
import numpy as np

from ..engine import rules as R
from ..engine.cards import HIDDEN
from ..engine.moves import (
    apply_move,
    can_place,
    can_redeal,
    copy_position,
    fits_foundation,
    foundation_top,
    pile_card,
    pile_size,
    pile_top,
    redeals_made,
)
from ..engine.observe import recall, remember_move
from ..engine.state import (
    DEAL,
    FOUNDATION_PLACE,
    MAX_LEGAL_MOVES,
    N_PLACES,
    NO_MOVE,
    REDEAL,
    STOCK,
    TABLEAU,
)
from ..jit import jit, jit_always, jit_inline, plain_array, record_as
from . import api
from .tactics import (
    SEEN_SLOTS,
    deal_or_redeal,
    evaluate,
    first_foundation_move,
    play_home,
    position_key,
    positions_field,
    remember,
    seen_field,
    unseen_in_play,
    was_seen,
)

MAX_DEPTH = 4
PARAMETERS = {
    "free": api.number(1.3, doc="a free cell's worth, in cards home"),
    "empty": api.number(2.0, doc="an empty column's worth, in cards home"),
    "near": api.number(0.3, doc="the worth of a card one card from home"),
    "dig": api.number(0.3, doc="the cost of each card above a foundation's next card"),
    "wait": api.number(0.2, doc="the cost of a cell card, per card its foundation still lacks"),
    "depth": api.integer(2, 1, MAX_DEPTH, doc="steps of a line while cards are unknown"),
    "step": api.number(0.01, doc="the cost of each move of a line"),
    "redeal": api.number(8.0, doc="the worth of each redeal left"),
    "late": api.integer(2, 0, MAX_DEPTH, doc="steps of a line once every card is known (0: depth)"),
    "deep": api.integer(3, 0, MAX_DEPTH,
                        doc="steps of the deeper look before a deal or redeal, every card known"),
    "deepearly": api.integer(0, 0, MAX_DEPTH, doc="steps of that look while cards are unknown"),
    "deepstop": api.flag(True, doc="1: the deeper look before stopping too"),
    "peek": api.number(1.7, doc="the worth of a column top uncovered and not seen yet"),
    "deepwidth": api.integer(30, 0, doc="the deeper look only where at most this many steps start"),
}
# A record that begins with these parameters (solver's, planner's) read as lookahead's own, so
# that lookahead's code is compiled once for every policy that plays it (jit.record_as).
as_lookahead_params = record_as(numba.from_dtype(api.params_dtype(PARAMETERS)))
DIG = 1 << 20  # a dig step is DIG + column

# Its notes after the positions met in the deal (tactics.seen_field): the line it follows.
PLAN = SEEN_SLOTS  # the score, in millionths, of the line being followed,
DIGGING = SEEN_SLOTS + 1  # the column being dug + 1 (0: none),
DIG_KEY = SEEN_SLOTS + 2  # the position expected when its next card is due,
DIG_MADE = SEEN_SLOTS + 3  # and the cards it moved so far
N_NOTES = 4
NO_PLAN = -(1 << 62)
# The plan's score is kept cut to millionths (int(score * PLAN_UNIT)) in that int64 slot, as every
# committed run was made: an exact float would let a line that ties the plan to the millionth no
# longer replace it, and so move outcomes.
PLAN_UNIT = 1e6


def _nothing_followed(seen: np.ndarray) -> None:
    seen[:] = 0
    seen[PLAN] = NO_PLAN


MEMORY = {"seen": seen_field(N_NOTES, _nothing_followed), "recalled": api.recollection()}

# Its room to compute the lines in (line_work), fields line_<name> of a policy's workspace.
LineWork = namedtuple("LineWork", (
    "positions",  # the position at each step of a line (row 0: where it starts)
    "moves",  # each step's candidate steps
    "cursors",  # each step's: candidates, the next one, moves made along the line so far
    "tallies",  # tactics.evaluate's scratch
))
WORKSPACE = {"line_positions": positions_field(MAX_DEPTH + 1),
             "line_moves": api.array(np.int64, (MAX_DEPTH, MAX_LEGAL_MOVES)),
             "line_cursors": api.array(np.int64, (MAX_DEPTH, 3)),
             "line_tallies": api.array(np.int64, 16)}


@jit_always
def line_work(record):
    """The LineWork of a record holding WORKSPACE's fields, as plain arrays: lookahead's code
    compiles once for every policy that plays it."""
    r = record
    return LineWork(plain_array(r.line_positions), plain_array(r.line_moves),
                    plain_array(r.line_cursors), plain_array(r.line_tallies))


class Lookahead(api.CompiledPolicy):
    """best line of digs/cell fills/builds/known deals + foundation plays by position score,
    remembering the deal; deal"""

    parameters = PARAMETERS
    memory = MEMORY
    workspace = WORKSPACE

    @staticmethod
    def choose(view, params, memory, rng):
        m = memory  # plain arrays: solver's and planner's calls compile the same
        return choose_move(api.observation_array(view), api.rules_array(view), params,
                           line_work(m), plain_array(m.seen), plain_array(m.recalled))


@jit_inline
def all_known(pos, pile, first, last):
    for k in range(first, last):
        if pile_card(pos, pile, k) == HIDDEN:
            return False
    return True


@jit_inline
def deal_is_known(pos, rules):
    """Whether every card the next deal brings is known (a stock rebuilt after a redeal)."""
    n = pile_size(pos, STOCK)
    piles = 8 if rules[R.DEAL_TO_RESERVE] else rules[R.N_COLUMNS]
    return all_known(pos, STOCK, max(n - piles * rules[R.DEAL_PER_PILE], 0), n)


@jit_inline
def redeal_is_known(pos, rules):
    for c in range(rules[R.N_COLUMNS]):
        if not all_known(pos, TABLEAU + c, 0, pile_size(pos, TABLEAU + c)):
            return False
    return True


@jit_inline
def first_empty_cell(pos, rules):
    if rules[R.RESERVE_CELLS]:
        for r in range(8):
            if pile_size(pos, r) == 0:
                return r
    return -1


@jit
def candidates(pos, rules, out, first_column):
    """The steps worth trying from `pos`, in legal_moves' order: a visible column top to the
    first empty cell, a build (a lone card moved to an empty column is skipped), a foundation
    transfer, deal and redeal when every card they bring is known; then digs of 2 or more cards.
    Foundation plays are no steps: every step ends with them. Cell fills and digs of columns
    before `first_column` are left out: after one of column c, those of columns up to c give
    the lines already tried the other way round (or a longer dig of c)."""
    kept = 0
    cell = first_empty_cell(pos, rules)
    build = rules[R.BUILD] != R.BUILD_NONE
    n_columns = rules[R.N_COLUMNS]
    for src in range(TABLEAU + n_columns):
        if src < TABLEAU and not build:
            continue
        card = pile_top(pos, src)
        if card < 0 or card == HIDDEN:
            continue
        if src >= TABLEAU + first_column and 0 <= cell:
            out[kept] = src * N_PLACES + cell
            kept += 1
        if build:
            for dst in range(TABLEAU, TABLEAU + n_columns):
                if not can_place(pos, rules, card, src, dst):
                    continue
                if pile_size(pos, dst) == 0 and src >= TABLEAU and pile_size(pos, src) == 1:
                    continue
                out[kept] = src * N_PLACES + dst
                kept += 1
    if rules[R.TRANSFERS]:
        for f in range(8):
            card = foundation_top(pos, rules, f)
            other = (f + 4) % 8
            if card >= 0 and fits_foundation(pos, rules, card, other):
                out[kept] = (FOUNDATION_PLACE + f) * N_PLACES + FOUNDATION_PLACE + other
                kept += 1
    if pile_size(pos, STOCK) > 0:
        if deal_is_known(pos, rules):
            out[kept] = DEAL
            kept += 1
    elif can_redeal(pos, rules) and redeal_is_known(pos, rules):
        out[kept] = REDEAL
        kept += 1
    if cell >= 0:
        for c in range(first_column, n_columns):
            if pile_size(pos, TABLEAU + c) >= 2:
                out[kept] = DIG + c
                kept += 1
    return kept


@jit_inline
def column_after(step):
    """The first column whose cell fills and digs may follow `step` in a line."""
    if step >= DIG:
        return step - DIG
    src, dst = step // N_PLACES, step % N_PLACES
    if TABLEAU <= src < FOUNDATION_PLACE and dst < TABLEAU:
        return src - TABLEAU
    return 0


@jit
def take_step(pos, rules, step):
    """Make a step and every foundation play after it; the moves it made other than foundation
    plays, -1 for a cell fill after which no card went home nor an unseen card came up, 0 if
    it cannot be made (a dig that
    runs into a hidden card or out of cells before its second or later cell fill lets a card go
    home)."""
    if step < DIG:
        apply_move(pos, rules, step)
        # a deal or redeal (step >= DEAL) that lets no card go home counts as quiet too, as it
        # always has: this test once read a pile past the last one for them (found by
        # tests/policies/test_indices.py), and that read always found no HIDDEN card
        if play_home(pos, rules) == 0 and step % N_PLACES < TABLEAU and (
                step >= DEAL or pile_top(pos, step // N_PLACES) != HIDDEN):
            return -1
        return 1
    column = TABLEAU + step - DIG
    made = 0
    while True:
        cell = first_empty_cell(pos, rules)
        top = pile_top(pos, column)
        if cell < 0 or top < 0 or top == HIDDEN:
            return 0
        apply_move(pos, rules, column * N_PLACES + cell)
        made += 1
        if play_home(pos, rules) > 0 and made >= 2:
            return made


@jit_inline
def score_of(pos, rules, weights, work):
    """tactics.evaluate, plus the redeals left and the columns whose top card a move uncovered
    but the player has not seen yet (what it may bring is worth a guess)."""
    score = evaluate(pos, rules, weights, work) + weights.redeal * (
        rules[R.MAX_REDEALS] - redeals_made(pos))
    if weights.peek != 0.0:
        for c in range(rules[R.N_COLUMNS]):
            if pile_top(pos, TABLEAU + c) == HIDDEN:
                score += weights.peek
    return score


@jit
def best_line(line, depth, rules, weights, baseline, seen):
    """Depth-first over lines of up to `depth` steps from positions[0]: the best score seen
    and the first step of its line (NO_MOVE if no line beats `baseline`). A first step back
    to a position met earlier in the deal is not taken: replanning cannot go round in circles.
    A cell fill that lets no card go home is searched past but not scored: it only gives up a
    cell (the weights make that a loss).

    Iterative, with per-level step lists and cursors: numba cannot cache recursion."""
    positions, moves, cursors = line.positions, line.moves, line.cursors
    best = baseline
    best_first = NO_MOVE
    first = NO_MOVE
    level = 0
    cursors[0, 0] = candidates(positions[0], rules, moves[0], 0)
    cursors[0, 1] = 0
    cursors[0, 2] = 0  # moves made along the line so far
    while level >= 0:
        if cursors[level, 1] >= cursors[level, 0]:
            level -= 1
            continue
        step = moves[level, cursors[level, 1]]
        cursors[level, 1] += 1
        if level == 0:
            first = step
        child = positions[level + 1]
        copy_position(positions[level], child)
        made = take_step(child, rules, step)
        if made == 0:
            continue
        if level == 0 and was_seen(seen, position_key(child)):
            continue
        quiet = made < 0
        made = cursors[level, 2] + abs(made)
        if not quiet:
            score = score_of(child, rules, weights, line.tallies) - weights.step * made
            if score > best + 1e-9:
                best, best_first = score, first
        if level + 1 < depth:
            level += 1
            cursors[level, 0] = candidates(child, rules, moves[level], column_after(step))
            cursors[level, 1] = 0
            cursors[level, 2] = made
    return best, best_first


@jit
def score_after(obs, rules, move, line, depth, weights, seen):
    """The best score reachable by `move`, its foundation plays, then `depth` more steps."""
    pos = line.positions[0]
    copy_position(obs, pos)
    apply_move(pos, rules, move)
    play_home(pos, rules)
    score = score_of(pos, rules, weights, line.tallies)
    if depth == 0:
        return score
    best, _ = best_line(line, depth, rules, weights, score, seen)
    return best


@jit
def choose_move(obs, rules, params, line, seen, memory):
    recall(obs, rules, memory)
    move = decide(memory[0], rules, params, line, seen)
    remember_move(memory, obs, move)
    return move


@jit
def decide(obs, rules, params, line, seen):
    """The choice at `obs`, the position as remembered (see the module docstring)."""
    depth = params.depth
    deep = params.deepearly
    if unseen_in_play(obs) == 0:  # every card left is known
        if params.late > 0:
            depth = params.late
        deep = params.deep
    depth = min(max(int(depth), 1), MAX_DEPTH)
    deep = min(int(deep), MAX_DEPTH)
    key = position_key(obs)
    remember(seen, key)
    move = first_foundation_move(obs, rules)
    if move != NO_MOVE:
        # the card may also fit the other pile of its suit: take the pile whose line is better
        src, dst = move // N_PLACES, move % N_PLACES
        other = dst + 4
        if src < FOUNDATION_PLACE and other < FOUNDATION_PLACE + 8:
            if can_place(obs, rules, pile_top(obs, src), src, other):
                alternative = src * N_PLACES + other
                if score_after(obs, rules, alternative, line, depth - 1, params,
                               seen) > score_after(obs, rules, move, line, depth - 1, params,
                                                   seen) + 1e-9:
                    return alternative
        return move
    if seen[DIGGING] > 0 and seen[DIG_KEY] == key:
        return dig_on(obs, rules, line.positions[1], seen)  # as the search foresaw: no new search
    seen[DIGGING] = 0
    copy_position(obs, line.positions[0])
    # A line must beat the position now and the line being followed (whose rest scores higher
    # than it did, having fewer moves to go): so play never wanders among equal positions.
    baseline = max(score_of(line.positions[0], rules, params, line.tallies),
                   seen[PLAN] / PLAN_UNIT)
    score, best_step = best_line(line, depth, rules, params, baseline, seen)
    if best_step == NO_MOVE and deep > depth and (deal_or_redeal(obs, rules) != NO_MOVE or (
            params.deepstop > 0)) and (  # before dealing, redealing (or stopping): look deeper
            candidates(obs, rules, line.moves[0], 0) <= params.deepwidth):  # unless it costs much
        score, best_step = best_line(line, deep, rules, params, baseline, seen)
    if best_step != NO_MOVE:
        seen[PLAN] = int(score * PLAN_UNIT)
        if best_step >= DIG:
            seen[DIGGING] = best_step - DIG + 1
            seen[DIG_MADE] = 0
            return dig_on(obs, rules, line.positions[1], seen)
        return best_step
    seen[PLAN] = NO_PLAN
    return deal_or_redeal(obs, rules)


@jit
def dig_on(obs, rules, pos, seen):
    """The next cell fill of the dig being made, noting the position it leads to (after its
    foundation plays) unless the dig ends there."""
    column = TABLEAU + seen[DIGGING] - 1
    move = column * N_PLACES + first_empty_cell(obs, rules)
    copy_position(obs, pos)
    apply_move(pos, rules, move)
    seen[DIG_MADE] += 1
    if play_home(pos, rules) > 0 and seen[DIG_MADE] >= 2:
        seen[DIGGING] = 0
    else:
        seen[DIG_KEY] = position_key(pos)
    return move
