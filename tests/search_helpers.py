"""Helpers shared by the search tests in tests/search/ (simstats/solver.py): positions laid out
from a deck, the line a search kept and its replay, and a schedule of small searches sharing
the positions they prove dead, as the `solver` policy makes them."""

from __future__ import annotations

import numpy as np

from simstats.engine.games import get_game
from simstats.engine.moves import apply_move, is_legal, lay_out
from simstats.engine.notation import move_text
from simstats.engine.state import new_state
from simstats.search import (
    BEST_LENGTH,
    LINE_LENGTH,
    MEMO,
    ORDER_SEED,
    SEARCH_UNDECIDED,
    SEARCH_WON,
    luby,
    new_memo,
    solve,
    start_schedule,
)

TOURNAMENT = get_game("tournament")


def laid_out(game, deck) -> np.ndarray:
    """The position of `deck` just laid out."""
    state = new_state()
    lay_out(state, game.array, np.asarray(deck, dtype=np.int16))
    return state


def line_of(work, result) -> list[int]:
    info = work.info
    if result == SEARCH_WON:
        return [int(m) for m in work.line[: info[LINE_LENGTH]]]
    return [int(m) for m in work.best[: info[BEST_LENGTH]]]


def replay(state, line, rules=TOURNAMENT.array) -> np.ndarray:
    """Make every move of a line on a copy, each checked legal first."""
    state = state.copy()
    for move in line:
        assert is_legal(state, rules, move), move_text(move)
        apply_move(state, rules, move)
    return state


def memo_schedule(start, rules, work, unit, eager, searches=255, luby_budgets=True,
                  last=0, memo=0):
    """Searches of unit x luby(i) positions in shaken orders that share the positions they
    prove dead (info[MEMO]: `memo`, or a stamp of their own), as the `solver` policy's schedule
    with memo=1, then, if `last` and none decided, one of `last` positions that still skips
    what they marked: the verdict of the first search that decides, and the searches made."""
    info = work.info
    start_schedule(info, memo or new_memo(info))
    try:
        for attempt in range(searches):
            info[ORDER_SEED] = attempt
            size = unit * luby(attempt + 1) if luby_budgets else unit
            result = solve(start, rules, size, 2000, eager, work)
            if result != SEARCH_UNDECIDED:
                return result, attempt + 1
        if last:
            info[ORDER_SEED] = 0
            return solve(start, rules, last, 2000, eager, work), searches + 1
        return result, searches
    finally:
        info[MEMO] = 0
        info[ORDER_SEED] = 0
