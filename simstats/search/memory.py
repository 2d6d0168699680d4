"""The search's working memory: its sizes, the slots of its `info` array, and the arrays of a
searcher (search_arrays, search_buffers, search_work), in the order of the `work` tuple the
search takes. Also the search's result codes and SEARCH_VERSION.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..engine.state import CAPACITY, MAX_LEGAL_MOVES, MOVE_LIMIT, N_PILES, SIZE, STOCK
from ..jit import jit_always, jit_inline, plain_array
from .fingerprint import STOCK_EPOCHS

# Bump when a change moves the search's verdicts or lines (a new proof, another order), not
# for a speed-up that keeps them: runs of policies that search record it, and refuse to resume
# with another (runner.RunOptions.identity).
SEARCH_VERSION = 1

SEARCH_LOST = 0
SEARCH_WON = 1
SEARCH_UNDECIDED = 2
RESULT_NAMES = ("lost", "won", "unknown")

MAX_LEVELS = 1200  # search depth in moves that branch (each followed by its safe moves)
MAX_LINE = MOVE_LIMIT
# A deep search (info[DEEP]) goes on past the move guard, as far as these buffers reach, so that
# an exhausted search proves that no line of any length wins (see solve).
DEEP_LEVELS = 8000
DEEP_LINE = 8 * MOVE_LIMIT
MAX_CANDIDATES = 256
TRANSFER_PLAY = 1 << 20  # + source place: the transfers a card needs to go home, then the card
JITTER = 600  # a restart's rank noise: enough to swap neighbouring kinds of move (measured)
TABLE_BITS = 21  # the default table: 2 million entries
MIN_TABLE_BITS = 12
MAX_TABLE_BITS = 24  # 16.8 million entries of 16 bytes: the table stays within 256 MB
TABLE_PROBES = 64

# Slots of the search's int64 `info` array.
STAMP = 0  # which search the table entries belong to
NODES = 1  # positions expanded by the last search
BEST_CARDS = 2  # most cards home on any line of the last search
BEST_LENGTH = 3  # that line's length (in `best`)
LINE_LENGTH = 4  # the winning line's length (in `line`)
FILLED = 5  # table entries used by the last search
ORDER_SEED = 6  # 0: moves in rank order; else ranks jittered by a hash of this seed (restarts)
DEEP = 7  # 1: search past the move guard, as deep as the buffers go (solve)
# 0, or the stamp of the positions proven dead by a series of searches (start_schedule: solve
# keeps them in the table across its searches; see mark_dead)
MEMO = 8
N_INFO = 9



@jit_inline
def table_bits_for(budget):
    """The smallest table for a search of `budget` positions (solve_position's exact search
    may get almost all of it) that stays at most 55% full, so that no entry is ever replaced;
    never more than 2**MAX_TABLE_BITS entries (past that, entries are replaced: first_visit).
    A table no bigger than needed stays in the processor's caches: a small search runs faster
    in a small table (solve uses only this much of a bigger one)."""
    bits = MIN_TABLE_BITS
    while (1 << bits) * 0.55 < budget and bits < MAX_TABLE_BITS:
        bits += 1
    return bits


# A searcher's working memory, the `work` the search takes: its arrays by name (search_arrays
# gives each one's type and size; a policy holds them in its workspace as search_<name>).
SearchWork = namedtuple("SearchWork", (
    "position",  # the position searched, moves made in place
    "moves",  # candidate moves per level
    "keys",  # per candidate: the fingerprint it leads to if a quiet move or play home, else 0
    "cursors",  # candidates, next candidate, 1 while every line below was searched (MEMO)
    "line_at",  # where each level's moves start in `line`
    "line",  # the line being searched; the winning line once won (info[LINE_LENGTH] moves)
    "undo",  # undo_token of each move of the line
    "best",  # the line with the most cards home (info[BEST_LENGTH] moves)
    "table",  # per entry a fingerprint, and the search (STAMP) that met it << 16 | the level
    "scratch",  # legal moves, candidates' ranks
    "info",  # the slots above: NODES, LINE_LENGTH, ...
    "pile_parts",  # each level's pile_part of each pile, then their sum and home_key
    "prefix",  # hash states after each card of a pile; the stock's after r redeals: STOCK + r
))


def search_arrays(small: bool = False, table_bits: int = TABLE_BITS,
                  deep: bool = False) -> list[tuple]:
    """(name, dtype, shape) of each array of a searcher's working memory (about 5 MB, `deep`
    about 33 MB, + 16 bytes per table entry), named search_<field of SearchWork>.
    `small`: arrays of the same types holding nothing, for callers that never search. The table
    holds 2**table_bits fingerprints. `deep`: room for deep searches (DEEP_LEVELS, DEEP_LINE),
    which solve_position's last search is."""
    levels, line = (DEEP_LEVELS + 1, DEEP_LINE + 1) if deep else (MAX_LEVELS + 1, MAX_LINE + 1)
    levels, line, table = (1, 1, 1) if small else (levels, line, 1 << table_bits)
    sizes = {
        "position": (np.int16, (SIZE,)),
        "moves": (np.int64, (levels, MAX_CANDIDATES)),
        "keys": (np.int64, (levels, MAX_CANDIDATES)),
        "cursors": (np.int64, (levels, 3)),
        "line_at": (np.int64, (levels + 1,)),
        "line": (np.int64, (line,)),
        "undo": (np.int64, (line,)),
        "best": (np.int64, (line,)),
        "table": (np.int64, (table, 2)),
        "scratch": (np.int64, (2 * MAX_LEGAL_MOVES,)),
        "info": (np.int64, (N_INFO,)),
        "pile_parts": (np.int64, (levels, N_PILES + 2)),
        "prefix": (np.int64, (STOCK + STOCK_EPOCHS, CAPACITY)),
    }
    return [(f"search_{name}", *sizes[name]) for name in SearchWork._fields]


def search_buffers(small: bool = False, table_bits: int = TABLE_BITS,
                   deep: bool = False) -> SearchWork:
    """A searcher's working memory (search_arrays); never allocated by compiled code."""
    return SearchWork(*(np.zeros(shape, dtype=dtype) for _, dtype, shape in
                        search_arrays(small, table_bits, deep)))


@jit_always
def search_work(record):
    """The SearchWork of a searcher whose arrays are fields of a record (search_arrays), as
    plain arrays: the search compiles once for records of every size and for search_buffers."""
    r = record
    return SearchWork(plain_array(r.search_position), plain_array(r.search_moves),
                      plain_array(r.search_keys), plain_array(r.search_cursors),
                      plain_array(r.search_line_at), plain_array(r.search_line),
                      plain_array(r.search_undo), plain_array(r.search_best),
                      plain_array(r.search_table), plain_array(r.search_scratch),
                      plain_array(r.search_info), plain_array(r.search_pile_parts),
                      plain_array(r.search_prefix))
