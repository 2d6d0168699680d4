"""Searches in series: restarts with the move order shaken, budgets after the Luby sequence
(luby), and dead positions shared by a schedule's searches (new_memo, start_schedule); the
oracle's full verdict on a position (solve_position).
"""

from __future__ import annotations

from ..engine.state import MOVE_LIMIT, MOVES
from ..jit import jit, jit_always, jit_inline
from .dfs import solve
from .memory import (
    BEST_CARDS,
    BEST_LENGTH,
    DEEP,
    LINE_LENGTH,
    MEMO,
    NODES,
    ORDER_SEED,
    SEARCH_LOST,
    SEARCH_UNDECIDED,
    SEARCH_WON,
    STAMP,
)


@jit_inline
def new_memo(info):
    """A stamp of its own for the positions a series of schedules will prove dead (MEMO)."""
    info[STAMP] += 1
    return info[STAMP]


@jit_inline
def start_schedule(info, memo):
    """Before the searches of a schedule from one position: they skip the positions marked
    under stamp `memo` (0: none, each search starts afresh), mark those they prove dead, and
    keep the best line over all of them. Marks may be kept from one schedule to the next, as
    long as the rules and `eager` stay the same: a mark says that no line of any length from
    that position wins, wherever a search starts."""
    info[MEMO] = memo
    info[BEST_CARDS] = -1
    info[BEST_LENGTH] = 0


@jit_inline
def memo_is_kept(info, memo):
    """Whether the table still holds the marks made under stamp `memo` (a search that wiped the
    table numbers its stamps afresh)."""
    return 0 < memo <= info[STAMP]


@jit_inline
def use_memo(info, memo):
    """The next searches skip and mark the positions under stamp `memo` (0: none)."""
    info[MEMO] = memo


@jit_inline
def shake_order(info, attempt):
    """The next search's move order: 0 the plain one, then shaken ones (order.py)."""
    info[ORDER_SEED] = attempt


@jit_inline
def end_schedule(info):
    """After a schedule: the plain move order, and no marks, for the next search."""
    info[ORDER_SEED] = 0
    info[MEMO] = 0


@jit_inline
def luby(i):
    """The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ... (i from 1). Restarting searches
    with budgets unit * luby(i) is within a log factor of the best fixed budget for any
    distribution of search lengths (Luby, Sinclair and Zuckerman, 1993): many small searches
    in shaken orders (what wins Tournament) and now and then a long one (what wins Kingsdown
    Eights)."""
    while True:
        k = 1
        while (1 << k) - 1 < i:
            k += 1
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


@jit
def solve_position(start, rules, budget, work):
    """The oracle's verdict on a position whose every card is known, within `budget` positions
    in all: searches in shaken move orders (restarts), their budgets budget / 2000 * luby(i),
    eager ones first (every card that can go home goes at once: wins come sooner) and, once an
    eager search has tried every eager line, exact ones (a deal can need a card kept back: in
    Tournament deals 3363, 3835 and 8190 no eager line wins, and shaken exact searches win each
    within 0.6 s where the fixed order had not in 3.8 million positions), up to three quarters
    of the budget; then an exact search in the fixed order that can also prove the position
    lost (the rest), a deep one (solve: info[DEEP]) where `work` has room for it
    (search_arrays: deep): in Kingsdown Eights deals 6,429, 9,149 and 9,309 of seed 0 no search
    stopped at the move guard could decide, and a deep one proves each lost within 12 million
    positions. The line to play is work's `line` if SEARCH_WON, else `best` (of the last
    search). info[NODES] is the positions searched in all."""
    info = work.info
    moves_left = MOVE_LIMIT - start[MOVES]
    unit = max(1, budget // 2000)
    searched = 0
    eager = True
    verdict = SEARCH_UNDECIDED
    attempt = 0
    while True:
        size = unit * luby(attempt + 1)
        if searched + size > budget * 3 // 4:
            break
        shake_order(info, attempt)
        verdict = solve(start, rules, size, moves_left, eager, work)
        searched += info[NODES]
        attempt += 1
        if verdict == SEARCH_WON or (verdict == SEARCH_LOST and not eager):
            break
        if verdict == SEARCH_LOST:
            eager = False  # every eager line tried: a win needs a card kept back, if any
            verdict = SEARCH_UNDECIDED
    shake_order(info, 0)
    if verdict == SEARCH_UNDECIDED:
        info[DEEP] = 1
        verdict = solve(start, rules, max(1, budget - searched), moves_left, False,
                        work)
        info[DEEP] = 0
        searched += info[NODES]
    info[NODES] = searched
    return verdict


@jit_always
def played_line(verdict, work):
    """The line the oracle plays after solve_position's verdict: the winning line, else the one
    with the most cards home, as (moves, length)."""
    info = work.info
    if verdict == SEARCH_WON:
        return work.line, info[LINE_LENGTH]
    return work.best, info[BEST_LENGTH]
