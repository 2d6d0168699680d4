"""The transposition table: a position is expanded once per search (first_visit), and a position
proven dead by an earlier search of a schedule is marked so (mark_dead).
"""

from __future__ import annotations

from ..jit import jit_inline
from .memory import TABLE_PROBES


@jit_inline
def first_visit(table, stamp, key, level, memo):
    """Add `key`, met at search level `level`, to the table: 0 if this search met it already,
    DEAD if an earlier search of this schedule proved it dead (`memo`: mark_dead), else 1 (2 when
    it could not be kept). Probing finds the key or a free slot within
    TABLE_PROBES slots; when all are taken, the deepest entry at least as deep as `level` makes
    room (the cheapest subtree to search again). The table so never fills, and never forgets a
    position on the path being searched (all shallower), so that path cannot loop. An entry is
    16 bytes: one probe, one cache line."""
    mask = table.shape[0] - 1
    slot = key & mask
    victim, victim_level = -1, level - 1  # as deep as `level` or deeper: never an ancestor
    for _ in range(TABLE_PROBES):
        tag = table[slot, 1]
        owner = tag >> 16
        if owner != stamp and (memo == 0 or owner != memo):
            table[slot, 0] = key
            table[slot, 1] = (stamp << 16) | level
            return 1
        if table[slot, 0] == key:
            return 0 if owner == stamp else DEAD
        if tag & 0xFFFF > victim_level:
            victim, victim_level = slot, tag & 0xFFFF
        slot = (slot + 1) & mask
    if victim < 0:
        return 2
    table[victim, 0] = key
    table[victim, 1] = (stamp << 16) | level
    return 1


DEAD = 3  # first_visit: a position an earlier search of the schedule proved dead


@jit_inline
def mark_dead(table, stamp, memo, key):
    """Mark `key`, which this search met and searched to the end of every line from it without
    a win, as dead for the rest of the schedule (MEMO). Sound whatever the order: a search
    expands a position's moves whatever order it tries them in, and lines that stop at the move
    guard, or at a position met on the line being searched, leave it unmarked (solve). A mark
    that cannot be found (its slot given away) is only lost time."""
    mask = table.shape[0] - 1
    slot = key & mask
    for _ in range(TABLE_PROBES):
        tag = table[slot, 1]
        if tag >> 16 == stamp and table[slot, 0] == key:
            table[slot, 1] = (memo << 16) | (tag & 0xFFFF)
            return
        slot = (slot + 1) & mask
