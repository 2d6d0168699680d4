"""The depth-first search for a winning line (solve).
"""

from __future__ import annotations

from ..engine.cards import DECK_SIZE
from ..engine.moves import copy_position, foundation_cards
from ..engine.state import FOUNDATION_PLACE, LENGTHS, N_PILES, N_PLACES, REDEALS, STOCK
from ..jit import jit
from .fingerprint import (
    ALL_PILES,
    columns_interchangeable,
    fingerprint,
    fingerprint_of,
    hash_pile_from,
    hash_stock_cards,
    home_key,
    part_without_top,
    piles_touched,
    update_pile_parts,
)
from .lookup import expand, quiet_parts
from .make import advance, unmake
from .memory import (
    BEST_CARDS,
    BEST_LENGTH,
    DEEP,
    FILLED,
    LINE_LENGTH,
    MAX_LEVELS,
    MAX_LINE,
    MEMO,
    NODES,
    SEARCH_LOST,
    SEARCH_UNDECIDED,
    SEARCH_WON,
    STAMP,
    TRANSFER_PLAY,
    table_bits_for,
)
from .order import keep_best
from .table import DEAD, first_visit, mark_dead


@jit
def solve(start, rules, budget, moves_left, eager, work):
    """Search for a line from `start` that puts all 104 cards home in at most `moves_left`
    moves, expanding at most `budget` positions. Returns SEARCH_WON, SEARCH_LOST or
    SEARCH_UNDECIDED; the winning line is work's `line` (info[LINE_LENGTH] moves), the line with
    most cards home is `best`.
    `eager` plays every card home at once: wins come sooner, but SEARCH_LOST then means only that no
    such line wins.
    With info[DEEP] the search does not stop lines at the move guard: it goes on as deep as its
    buffers reach (search_arrays: deep), counting as wins only lines within `moves_left` and
    keeping only those as best lines. The table then prunes by position alone, whatever the
    moves made, so an exhausted search proves that no line of any length wins, let alone one
    within the guard (a line cut at the move guard proves nothing: the position it reached may
    have been met first by a longer line). Measured: Kingsdown Eights' depth-first lines wander
    past 1,200 levels, where a search stopped at the guard can prove nothing."""
    w = work
    pos, moves, keys, cursors, line_at = w.position, w.moves, w.keys, w.cursors, w.line_at
    line, undo, best, table, scratch = w.line, w.undo, w.best, w.table, w.scratch
    info, parts, prefix = w.info, w.pile_parts, w.prefix
    deep = info[DEEP] != 0
    info[STAMP] += 1
    if info[STAMP] >= 2**31 - 1:  # stamps fill 31 bits: start again with a clean table
        for slot in range(table.shape[0]):
            table[slot, 1] = 0
        info[STAMP] = 1
        info[MEMO] = 0  # the schedule's marks went with the table
    stamp = info[STAMP]
    memo = info[MEMO]
    # only as much of the table as this search can fill: the restarts' small searches then
    # probe a table that stays in the processor's caches (all of it for a schedule's searches,
    # which share their marks)
    table = table[:table.shape[0] if memo != 0 else
                  min(table.shape[0], 1 << table_bits_for(budget))]
    info[NODES] = 0
    info[FILLED] = 0
    if memo == 0:  # a schedule keeps its best line across its searches (start_schedule)
        info[BEST_CARDS] = -1
        info[BEST_LENGTH] = 0
    info[LINE_LENGTH] = 0
    limit = min(moves_left, MAX_LINE)  # a winning line's most moves
    cut = line.shape[0] - 1 if deep else limit  # lines stop here (no proof either way)
    levels = moves.shape[0] - 1 if deep else MAX_LEVELS
    cap = line.shape[0] - 1 if deep else MAX_LINE  # moves one advance may add up to
    copy_position(start, pos)
    for p in range(STOCK):
        hash_pile_from(pos, prefix, p, 0)
    hash_stock_cards(pos, prefix)
    length = advance(pos, rules, eager, -1, line, undo, 0, prefix, True, cap)
    if not deep or length <= limit:
        keep_best(pos, line, length, best, info)
    if foundation_cards(pos) == DECK_SIZE:
        info[LINE_LENGTH] = length
        return SEARCH_WON if length <= limit else SEARCH_UNDECIDED
    parts[0, :] = 0
    update_pile_parts(pos, rules, parts[0], ALL_PILES, prefix)
    first_visit(table, stamp, fingerprint(pos, rules, parts[0]), 0, memo)
    exact = True
    line_at[0] = length
    cursors[0, 0] = expand(pos, rules, eager, scratch, moves[0], keys[0], parts[0], prefix, table,
                           info, cap - length)
    cursors[0, 1] = 0
    cursors[0, 2] = 1
    level = 0
    while level >= 0:
        if cursors[level, 1] >= cursors[level, 0]:
            if memo != 0 and cursors[level, 2]:
                mark_dead(table, stamp, memo,
                          fingerprint_of(parts[level, N_PILES], parts[level, N_PILES + 1]))
            if level > 0:  # back to the parent
                if not cursors[level, 2]:
                    cursors[level - 1, 2] = 0
                unmake(pos, rules, line, undo, line_at[level - 1], line_at[level], prefix)
            level -= 1
            continue
        key = keys[level, cursors[level, 1]]
        move = moves[level, cursors[level, 1]]
        cursors[level, 1] += 1
        made = line_at[level]
        if made >= cut:
            exact = False  # the move guard (deep: the buffers' end) cuts this line: no proof
            cursors[level, 2] = 0
            continue
        row, child_parts = parts[level], parts[level + 1]
        src, dst = move // N_PLACES, move % N_PLACES
        if move >= TRANSFER_PLAY:  # its source, and home
            src, dst = move - TRANSFER_PLAY, FOUNDATION_PLACE
        if key > 0:
            # a quiet_move (neither foundations nor stock change and no safe play follows) or
            # a quiet play home (quiet_play_home_key): the position's fingerprint came from the
            # new parts (expand), and is looked up before the move is made
            seen = first_visit(table, stamp, key, level + 1, memo)
            if seen == 0 or seen == DEAD:
                if seen == 0:  # searched to its end and not dead, or on the line being
                    cursors[level, 2] = 0  # searched (a cycle): no proof below either way
                continue
            if dst >= FOUNDATION_PLACE:  # a quiet play home (or transfer play): source, home
                src_part = part_without_top(pos, rules, prefix, src,
                                            columns_interchangeable(pos, rules))
                length = advance(pos, rules, eager, move, line, undo, made, prefix, False, cap)
                for p in range(N_PILES + 1):
                    child_parts[p] = row[p]
                child_parts[N_PILES] += src_part - row[src]
                child_parts[src] = src_part
                child_parts[N_PILES + 1] = home_key(pos, rules)
            else:
                src_part, dst_part = quiet_parts(pos, rules, prefix, move,
                                                 columns_interchangeable(pos, rules))
                length = advance(pos, rules, eager, move, line, undo, made, prefix, False, cap)
                for p in range(N_PILES + 2):
                    child_parts[p] = row[p]
                child_parts[N_PILES] += src_part + dst_part - row[src] - row[dst]
                child_parts[src] = src_part
                child_parts[dst] = dst_part
        else:
            if key < 0:  # a move and its safe plays (chain_key): looked up before they are made
                seen = first_visit(table, stamp, -key, level + 1, memo)
                if seen == 0 or seen == DEAD:
                    if seen == 0:
                        cursors[level, 2] = 0
                    continue
            stock, redeals = pos[LENGTHS + STOCK], pos[REDEALS]
            length = advance(pos, rules, eager, move, line, undo, made, prefix, True, cap)
            if foundation_cards(pos) == DECK_SIZE:
                if length <= limit:
                    info[LINE_LENGTH] = length
                    return SEARCH_WON
                exact = False
                cursors[level, 2] = 0
                unmake(pos, rules, line, undo, made, length, prefix)
                continue
            touched = 0
            for i in range(made, length):
                touched |= piles_touched(line[i])
            if pos[LENGTHS + STOCK] != stock or pos[REDEALS] != redeals:
                touched = ALL_PILES
            for p in range(N_PILES + 1):
                child_parts[p] = row[p]
            update_pile_parts(pos, rules, child_parts, touched, prefix)
            reached = fingerprint(pos, rules, child_parts)  # also keeps the child's home_key
            if key == 0:
                seen = first_visit(table, stamp, reached, level + 1, memo)
            if seen == 0 or seen == DEAD:
                if seen == 0:
                    cursors[level, 2] = 0
                unmake(pos, rules, line, undo, made, length, prefix)
                continue
        info[FILLED] += seen == 1
        # a quiet_move's position has its parent's cards home, one move later: never a best
        if (key <= 0 or dst >= FOUNDATION_PLACE) and (not deep or length <= limit):
            keep_best(pos, line, length, best, info)
        info[NODES] += 1
        if info[NODES] >= budget:
            return SEARCH_UNDECIDED
        if level + 1 >= levels:
            exact = False
            cursors[level, 2] = 0
            unmake(pos, rules, line, undo, made, length, prefix)
            continue
        level += 1
        line_at[level] = length
        cursors[level, 0] = expand(pos, rules, eager, scratch, moves[level], keys[level],
                                   parts[level], prefix, table, info, cap - length)
        cursors[level, 1] = 0
        cursors[level, 2] = 1
    return SEARCH_LOST if exact else SEARCH_UNDECIDED
