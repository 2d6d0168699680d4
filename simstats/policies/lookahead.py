"""`lookahead`: a bounded search over lines of non-foundation moves, each followed by every
foundation play, scored by tactics.evaluate.

A step of a line is one move (a cell fill, a build, a move to an empty column, a foundation
transfer) or a dig: the top k cards of one column to free cells one by one, each followed by
the foundation plays it allows. Priorities: (1) a foundation move; when the card fits both the
ace pile and the king pile of its suit, the pile whose best line scores higher; (2) the first
move of the best line of up to `depth` steps, if it scores higher than the position now;
(3) deal; (4) redeal; (5) stop. A free cell weighs more than a card home (tuned by measurement,
benchmarks/tune_lookahead.md). Parameters, e.g. lookahead[depth=3,free=1.8]: free, empty,
near, dig, wait (see tactics.evaluate) and depth.
"""

from __future__ import annotations

from ..cards import HIDDEN
from ..engine import rules as R
from ..engine.moves import apply_move, can_place, legal_moves, pile_top
from ..engine.state import (
    DEAL,
    FOUNDATION_PLACE,
    LENGTHS,
    N_PLACES,
    NO_MOVE,
    REDEAL,
    TABLEAU,
)
from ..jit import jit, jit_inline
from .tactics import (
    N_WEIGHTS,
    NO_PLAN,
    PLAN,
    copy_position,
    deal_or_redeal,
    evaluate,
    first_foundation_move,
    play_home,
    position_key,
    remember,
    was_seen,
)

DESCRIPTION = "best line of digs/cell fills/builds + foundation plays by position score; deal"
# Parameters in the order of the compiled parameter array: the evaluation weights, then depth.
PARAMETERS = {"free": 1.5, "empty": 2.0, "near": 0.3, "dig": 0.0, "wait": 0.15, "depth": 2.0,
              "step": 0.01}
DEPTH = N_WEIGHTS
STEP_COST = N_WEIGHTS + 1  # per move of a line: the shorter of two equal lines wins
MAX_DEPTH = 4
DIG = 1 << 20  # a dig step is DIG + column * 16 + cards


@jit_inline
def worth_trying(pos, rules, move):
    """Skip moves that cannot matter: deal/redeal, hidden cards, foundation plays (every step
    ends with them), a cell fill other than to the first empty cell, a lone card moved to an
    empty column."""
    if move == DEAL or move == REDEAL:
        return False
    src, dst = move // N_PLACES, move % N_PLACES
    if src < FOUNDATION_PLACE:
        if pile_top(pos, src) == HIDDEN or dst >= FOUNDATION_PLACE:
            return False
    if dst < TABLEAU:
        for r in range(dst):
            if pos[LENGTHS + r] == 0:
                return False
    elif dst < FOUNDATION_PLACE and pos[LENGTHS + dst] == 0:
        if TABLEAU <= src < FOUNDATION_PLACE and pos[LENGTHS + src] == 1:
            return False
    return True


@jit_inline
def first_empty_cell(pos, rules):
    if rules[R.RESERVE_CELLS]:
        for r in range(8):
            if pos[LENGTHS + r] == 0:
                return r
    return -1


@jit
def candidates(pos, rules, out):
    """The steps worth trying from `pos`: single moves, then digs of 2 or more cards."""
    n = legal_moves(pos, rules, out)
    kept = 0
    for i in range(n):
        if worth_trying(pos, rules, out[i]):
            out[kept] = out[i]
            kept += 1
    free = 0
    if rules[R.RESERVE_CELLS]:
        for r in range(8):
            if pos[LENGTHS + r] == 0:
                free += 1
    for c in range(rules[R.N_COLUMNS]):
        length = pos[LENGTHS + TABLEAU + c]
        for k in range(2, min(free, length) + 1):
            out[kept] = DIG + c * 16 + k
            kept += 1
    return kept


@jit_inline
def first_move_of(pos, rules, step):
    """The move that starts a step (for a dig: its first cell fill)."""
    if step < DIG:
        return step
    column = (step - DIG) // 16
    return (TABLEAU + column) * N_PLACES + first_empty_cell(pos, rules)


@jit
def take_step(pos, rules, step):
    """Make a step and every foundation play after it; False if a dig runs into a hidden card."""
    if step < DIG:
        apply_move(pos, rules, step)
        play_home(pos, rules)
        return True
    column = TABLEAU + (step - DIG) // 16
    for _ in range((step - DIG) % 16):
        cell = first_empty_cell(pos, rules)
        top = pile_top(pos, column)
        if cell < 0 or top < 0 or top == HIDDEN:
            return False
        apply_move(pos, rules, column * N_PLACES + cell)
        play_home(pos, rules)
    return True


@jit
def best_line(positions, moves, cursors, depth, rules, weights, baseline, seen):
    """Depth-first over lines of up to `depth` steps from positions[0]: the best score seen
    and the first step of its line (NO_MOVE if no line beats `baseline`). A first step back
    to a position met earlier in the deal is not taken: replanning cannot go round in circles.

    Iterative, with per-level step lists and cursors: numba cannot cache recursion."""
    best = baseline
    best_first = NO_MOVE
    first = NO_MOVE
    level = 0
    cursors[0, 0] = candidates(positions[0], rules, moves[0])
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
        if not take_step(child, rules, step):
            continue
        if level == 0 and was_seen(seen, position_key(child)):
            continue
        made = cursors[level, 2] + (1 if step < DIG else (step - DIG) % 16)
        score = evaluate(child, rules, weights) - weights[STEP_COST] * made
        if score > best + 1e-9:
            best, best_first = score, first
        if level + 1 < depth:
            level += 1
            cursors[level, 0] = candidates(child, rules, moves[level])
            cursors[level, 1] = 0
            cursors[level, 2] = made
    return best, best_first


@jit
def score_after(obs, rules, move, positions, moves, cursors, depth, weights, seen):
    """The best score reachable by `move`, its foundation plays, then `depth` more steps."""
    pos = positions[0]
    copy_position(obs, pos)
    apply_move(pos, rules, move)
    play_home(pos, rules)
    score = evaluate(pos, rules, weights)
    if depth == 0:
        return score
    best, _ = best_line(positions, moves, cursors, depth, rules, weights, score, seen)
    return best


@jit
def choose(obs, rules, params, positions, moves, cursors, seen):
    depth = min(max(int(params[DEPTH]), 1), MAX_DEPTH)
    remember(seen, position_key(obs))
    move = first_foundation_move(obs, rules)
    if move != NO_MOVE:
        # the card may also fit the other pile of its suit: take the pile whose line is better
        src, dst = move // N_PLACES, move % N_PLACES
        other = dst + 4
        if src < FOUNDATION_PLACE and other < FOUNDATION_PLACE + 8:
            if can_place(obs, rules, pile_top(obs, src), src, other):
                alternative = src * N_PLACES + other
                if score_after(obs, rules, alternative, positions, moves, cursors, depth - 1,
                               params, seen) > score_after(obs, rules, move, positions, moves,
                                                           cursors, depth - 1, params,
                                                           seen) + 1e-9:
                    return alternative
        return move
    copy_position(obs, positions[0])
    # A line must beat the position now and the line being followed (whose rest scores higher
    # than it did, having fewer moves to go): so play never wanders among equal positions.
    baseline = max(evaluate(positions[0], rules, params), seen[PLAN] / 1e6)
    score, best_step = best_line(positions, moves, cursors, depth, rules, params, baseline,
                                 seen)
    if best_step != NO_MOVE:
        seen[PLAN] = int(score * 1e6)
        return first_move_of(obs, rules, best_step)
    seen[PLAN] = NO_PLAN
    return deal_or_redeal(obs, rules)
