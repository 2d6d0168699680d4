"""`solver`: the strongest fair player. It plays like `lookahead` while cards are hidden and
solves the rest exactly as soon as it sees every card that matters.

Once the stock is out in Tournament, Cicely and Kingsdown Eights, every card left is face up and
a redeal's new stock is the visible columns in a fixed order (docs/rules.md 4.7), which the player
remembers (engine/observe.py: recall): the game is then a perfect-information puzzle.
Priorities: (1) follow the line found by the last search; (2) when no card in play is unknown to
the player, search (simstats/solver.py, at most `budget` positions, once per redeal): a winning
line is followed to the end; when no line wins, the line that gets the most cards home; (3)
otherwise, or when the budget runs out, `lookahead`'s move. In Napoleon's Flank buried cards are
known only once seen, so it mostly plays like `lookahead` there. Parameters: lookahead's, budget
(positions of the first search), eager (1: every card that can go home goes at once, which finds
wins sooner; 0: only provably safe plays, so that "no line wins" is a proof), restarts (searches
again, each in a shaken move order, when one runs out of budget undecided) and luby (1: search i
gets budget x luby(i) positions, 1, 1, 2, 1, 1, 2, 4, ...: mostly small searches in many orders,
which is what wins Tournament, now and then a long one, which is what wins Kingsdown Eights;
0: every search gets budget) and memo (1: the searches of a deal share the positions they
proved dead, simstats/solver.py: MEMO, so that a later search, from the same position or after a
redeal, spends its budget elsewhere, the default; 0: each search starts afresh) and exact
(1: once an eager search has tried every eager line without a win, the schedule's next searches
are exact ones, as the oracle's are: a win may need a card kept back, which eager=1 never
does; measured in benchmarks/lost_deals_tournament.md: of the 68 deals 0-999 `solver` loses in
Tournament, 53 have no eager win from where it first searched, and the oracle wins 22 of them
from there; the default; 0: no eager win ends the schedule). memo=1 and exact=1 are the defaults
since 2026-12-05, and every committed run is made with them: on Tournament deals 0-19,999 they
won 19,126 against 18,804 with both 0, in 3% more time; 19,138 (results/solver-20k) since the
exact searches send reserve cards home at once below 14 cards of their suit home
(simstats/solver.py: safe_cards).
"""

from __future__ import annotations

import numpy as np

from ..engine.moves import is_legal, moves_made, redeals_made
from ..engine.observe import recall, remember_move
from ..engine.state import MOVE_LIMIT, NO_MOVE
from ..jit import jit, jit_inline, plain_array
from ..search import (
    MAX_LINE,
    SEARCH_LOST,
    SEARCH_UNDECIDED,
    TABLE_BITS,
    end_schedule,
    luby,
    memo_is_kept,
    new_memo,
    played_line,
    search_arrays,
    search_work,
    shake_order,
    solve,
    start_schedule,
    table_bits_for,
    use_memo,
)
from . import api, lookahead
from .lookahead import line_work
from .tactics import unseen_in_play

# Searches of 1,000 x luby(i) positions, 63 in all (192,000 positions): against 25,000 x 5, on
# deals 0-999, Tournament 932 won against 914 (in less time) and Kingsdown Eights 687 against
# 673 (benchmarks/restarts.md); memo and exact: benchmarks/restarts_exact.md
PARAMETERS = {
    **lookahead.PARAMETERS,
    "budget": api.integer(1_000, 1, doc="positions of the first search (search i: x luby(i))"),
    "eager": api.flag(True, doc="1: the first searches send every card home at once"),
    "restarts": api.integer(62, 0, doc="searches after the first, each in a shaken move order"),
    "luby": api.flag(True, doc="1: search i gets budget x luby(i) positions; 0: budget each"),
    "memo": api.flag(True, doc="1: a deal's searches skip the positions earlier ones proved dead"),
    "exact": api.flag(True, doc="1: exact searches once every eager line has failed"),
}

# The plan buffer: a header, then the moves of the line being followed.
PLAN_LENGTH = 0
PLAN_START = 1  # moves made when the line starts
PLAN_SEARCHED = 2  # 1 + the redeals made when the last search ran (0: none this deal)
PLAN_MEMO = 3  # memo=1: the stamp of the positions this deal's searches proved dead (0: none)
PLAN_LINE = 4
PLAN_SIZE = PLAN_LINE + MAX_LINE


def workspace(table_bits: int = TABLE_BITS, deep: bool = False) -> dict:
    """lookahead's room to compute and the exact search's, its table 2**table_bits entries
    (`deep`: with room for deep searches, solve_position's last)."""
    return {**lookahead.WORKSPACE, **{name: api.array(dtype, shape) for name, dtype, shape
                                      in search_arrays(False, table_bits, deep)}}


class Solver(api.CompiledPolicy):
    """lookahead until every card is seen, then an exact search for a win (fair)"""

    parameters = PARAMETERS
    memory = {**lookahead.MEMORY, "plan": api.array(np.int64, PLAN_SIZE)}

    @staticmethod
    def workspace(values: dict) -> dict:
        return workspace(table_bits_for(schedule_size(values) if values.get("memo")
                                        else largest_search(values)))

    @staticmethod
    def choose(view, params, memory, rng):
        m, a = memory, plain_array  # plain arrays: planner's calls compile the same code
        return choose_move(api.observation_array(view), api.rules_array(view), params,
                           line_work(m), a(m.seen), a(m.recalled), search_work(m), a(m.plan))


def schedule_size(values: dict) -> int:
    """The most positions one schedule of searches may expand."""
    searches = 1 + int(values["restarts"])
    return int(values["budget"]) * (sum(luby(i) for i in range(1, searches + 1))
                                    if values.get("luby") else searches)


def largest_search(values: dict) -> int:
    """The most positions one search of the schedule may expand."""
    searches = 1 + int(values["restarts"])
    return int(values["budget"]) * (max(luby(i) for i in range(1, searches + 1))
                                    if values.get("luby") else 1)


@jit
def forget_plan(plan):
    plan[PLAN_LENGTH] = 0
    plan[PLAN_SEARCHED] = 0
    plan[PLAN_MEMO] = 0


@jit
def follow(plan, moves_made, line, length):
    """Follow the `length` moves of `line` from move `moves_made` on; the first of them (NO_MOVE
    when there is none)."""
    plan[PLAN_LENGTH] = length
    plan[PLAN_START] = moves_made
    for i in range(length):
        plan[PLAN_LINE + i] = line[i]
    return plan[PLAN_LINE] if length > 0 else NO_MOVE


@jit
def choose_move(obs, rules, params, line, seen, memory, work, plan):
    recall(obs, rules, memory)  # the position as far as seen in this deal
    move = decide(obs, memory[0], rules, params, line, seen, work, plan)
    remember_move(memory, obs, move)
    return move


@jit_inline
def next_in_plan(obs, rules, plan):
    """The plan's move for now, or NO_MOVE (the plan is then forgotten: done, or no longer
    legal)."""
    if plan[PLAN_LENGTH] > 0:
        i = moves_made(obs) - plan[PLAN_START]
        if 0 <= i < plan[PLAN_LENGTH] and is_legal(obs, rules, plan[PLAN_LINE + i]):
            return plan[PLAN_LINE + i]
        plan[PLAN_LENGTH] = 0
    return NO_MOVE


@jit
def decide(obs, known, rules, params, line, seen, work, plan):
    """The choice at `obs`, `known` the position as remembered (see the module docstring);
    `line`: lookahead's room, `seen`: its memory, `work`: the search's, `plan`: the line
    followed."""
    move = next_in_plan(obs, rules, plan)
    if move != NO_MOVE:
        return move
    if unseen_in_play(known) == 0 and plan[PLAN_SEARCHED] != redeals_made(obs) + 1:
        plan[PLAN_SEARCHED] = redeals_made(obs) + 1
        info = work.info
        if params.memo != 0 and not memo_is_kept(info, plan[PLAN_MEMO]):
            plan[PLAN_MEMO] = new_memo(info)  # this deal's (a table wiped by solve: anew)
        start_schedule(info, plan[PLAN_MEMO] if params.memo != 0 else 0)
        eager, eager_lost = params.eager != 0, False
        for attempt in range(1 + int(params.restarts)):
            shake_order(info, attempt)  # 0: the plain order; then shaken ones (solver.py)
            size = int(params.budget) * (luby(attempt + 1) if params.luby != 0 else 1)
            result = solve(known, rules, size, MOVE_LIMIT - moves_made(obs), eager, work)
            if result == SEARCH_LOST and eager and params.exact != 0:
                eager, eager_lost = False, True  # exact searches from now on (exact=1)
                if params.memo != 0:  # what is dead to eager searches may not be to exact ones
                    use_memo(info, new_memo(info))
                result = SEARCH_UNDECIDED
            elif result != SEARCH_UNDECIDED:
                break
        if result == SEARCH_UNDECIDED and eager_lost:
            result = SEARCH_LOST  # no eager line wins, and no exact search found a win
        end_schedule(info)
        if result != SEARCH_UNDECIDED:  # won, or lost: play on for the most cards home
            line_found, length = played_line(result, work)
            move = follow(plan, moves_made(obs), line_found, length)
            if move != NO_MOVE:
                return move
    return lookahead.decide(known, rules, lookahead.as_lookahead_params(params), line, seen)
