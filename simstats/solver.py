"""Exact play: a depth-first search for a winning line from a position whose every card is known.

It runs the engine's own rules (fits_foundation, fits_column, apply_move, and undo_move,
apply_move's exact inverse) on one position, making and unmaking moves in place. Used by the
fair `solver` policy once nothing that matters is hidden (its observation, with a redeal's new
stock rebuilt by the rules from the columns it sees), and by the `oracle`, which reads the
state, stock order included, and is a perfect-information bound rather than a player.

- A transposition table of position fingerprints: a position is expanded once per search, so an
  exhausted search proves that no line wins. Reserve cells are one place, so their order is left
  out of the fingerprint. The table never fills: when a fingerprint finds no free slot, it takes
  the slot of a deeper position (first_visit), which is then searched again if met again (time,
  never a wrong proof). Its size follows the budget up to 2**MAX_TABLE_BITS entries. The
  fingerprint is a sum of the piles' parts, kept per level: a move recomputes only the parts of
  the piles it touched (the stock's hash from hashes of its bottom cards, which deals never
  change). Moves are looked up before they are made where their position can be read without
  them: a quiet move or play home (expand), and a move with the safe plays that follow it
  (chain_key), most of which reach a position met already.
- Move order: plays home; digs that reach a card that can go home, shallowest first; deal or
  redeal; builds; other fills. In Kingsdown Eights a deal buries every reserve pile, so it
  comes last (measured: it turned most of the deals the oracle left undecided into wins).
- Restarts: a depth-first search that goes wrong early rarely recovers within its budget, so
  the oracle (solve_position) and the `solver` policy search again with the move order shaken
  (ranks jittered by a hash of the attempt, ORDER_SEED), which often wins at once; their budgets
  follow the Luby sequence (luby): many small searches, now and then a long one.
- Provably safe moves are made at once without branching, by the proof each game declares
  (games.py: solver_proof; a game that declares none gets none). In Tournament and Napoleon's
  Flank (PROOF_CELLS_NO_BUILDING):
  - a card goes home from a column, once the stock is out and no redeal is left, when its suit
    already has 14 or more cards home. Then the other copy of that card is home, no other card
    can ever take its place and no transfer is possible in that suit, so any winning line
    stays a winning line with this card home earlier;
  - a card goes home from a reserve cell when its suit has any number home but 13. With 14 or
    more, as above. With 12 or fewer, no copy of the card is home, and a winning line that
    plays it later is matched by one that plays it now: the line's plays of this suit still
    fit (the card only fills the gap they were closing), and when the line plays the other
    copy home first, from a column, the matching line puts that copy in the cell this card
    left (a move more: the deep search's proofs, of any length, are unaffected; a shorter
    search proves only what no line cut at the guard could change, as before). At 13 the card
    would fix the boundary that transfers leave free, and a column's card below 14 would leave
    its twin in another column with no cell to go to: both lose deals that can be won
    (tests/search/test_search_positions.py holds one of each).
  In Kingsdown Eights a card goes home at once when no card can ever be built on it (see
  nothing_builds_on).
- No separate dominance rule in Tournament and Napoleon's Flank: two positions with the same
  columns and stock, one reserve holding cards the other lacks, differ by those cards being
  home (all 104 are always somewhere), so the fuller reserve holds a card that fits home. The
  proof above has already played it there, except with 13 of its suit home, where playing it
  is not as good (tests/search/test_search_positions.py: FIXED_BOUNDARY, a won position that
  this loses).
  Measured: in the exact searches of 294 settled Tournament positions, every expanded position
  with a reserve card that fits home had 13 of that suit home (7.0% of 1.12 million).
- Transfers only as part of a play home: when 13 cards of a suit are home (one of each rank),
  transfers can shift the two piles' boundary to accept any rank of the suit and back again, so
  all such boundaries are one position for the search (one fingerprint), and a card of that suit
  goes home by a "transfer play": the transfers it needs, then the card.
- Fewer branches, same positions: a fill goes only to the first empty cell, a move to an empty
  column only to the first one; a card that fits both foundations of its suit goes to the first
  (the two results are one transfer apart).
- Dead positions shared by searches (info[MEMO], the `solver` policy's memo=1: a deal's searches): a
  position every line from which was searched to its end without a win is marked dead in the table,
  with a stamp that outlives the search, and the next searches under that stamp (same rules, same
  `eager`, from any position) skip it. Sound in any order: a mark needs every candidate searched (or
  marked) below it, none cut at the move guard or the depth limit and none met already in this
  search unmarked (searched to its end and not dead, or on the line being searched: a cycle), so a
  mark says no line from there wins. A mark's slot may be given away (only time lost).
- A node budget. The result is SEARCH_WON (the line), SEARCH_LOST (every line tried; the line
  reaching the most cards home is kept) or SEARCH_UNDECIDED (budget spent, or a line cut short).
  These are the search's own codes, apart from a game's `end` codes (engine/state.py).
- Deep searches for proofs: a line cut at the move guard proves nothing (the position it reached
  may have been met first by a longer line), and Kingsdown Eights' depth-first lines wander past
  the guard; the oracle's last search goes on past it (solve: info[DEEP]), so that exhausting it
  proves that no line of any length wins.
"""

from __future__ import annotations

import numpy as np

from .cards import DECK_SIZE, card_rank, card_suit
from .engine import rules as R
from .engine.moves import (
    apply_move,
    can_redeal,
    copy_position,
    deal_piles,
    deal_share,
    fits_foundation,
    foundation_cards,
    is_down_foundation,
    pile_top,
    undo_move,
    undo_token,
)
from .engine.state import (
    CAPACITY,
    DEAL,
    FOUNDATION_PLACE,
    FOUNDATIONS,
    LENGTHS,
    MAX_LEGAL_MOVES,
    MOVE_LIMIT,
    MOVES,
    N_PILES,
    N_PLACES,
    REDEAL,
    REDEALS,
    SIZE,
    STOCK,
    TABLEAU,
)
from .jit import jit, jit_inline, plain_array, prefetch_row, trailing_zeros, unliteral

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

# Where the search's results are in its working memory (search_buffers).
LINE_BUFFER = 5
BEST_BUFFER = 7
INFO_BUFFER = 10


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


def search_arrays(small: bool = False, table_bits: int = TABLE_BITS,
                  deep: bool = False) -> list[tuple]:
    """(name, dtype, shape) of each array of a searcher's working memory (about 5 MB, `deep`
    about 33 MB, + 16 bytes per table entry), in the order of the `work` tuple the search takes.
    `small`: arrays of the same types holding nothing, for callers that never search. The table
    holds 2**table_bits fingerprints. `deep`: room for deep searches (DEEP_LEVELS, DEEP_LINE),
    which solve_position's last search is."""
    levels, line = (DEEP_LEVELS + 1, DEEP_LINE + 1) if deep else (MAX_LEVELS + 1, MAX_LINE + 1)
    levels, line, table = (1, 1, 1) if small else (levels, line, 1 << table_bits)
    return [
        ("search_position", np.int16, (SIZE,)),  # the position searched, moves made in place
        ("search_moves", np.int64, (levels, MAX_CANDIDATES)),  # candidate moves per level
        # per candidate: the fingerprint it leads to if it is a quiet_move or a quiet play
        # home (expand), else 0
        ("search_keys", np.int64, (levels, MAX_CANDIDATES)),
        # candidates, next candidate, 1 while every line below was searched to its end (MEMO)
        ("search_cursors", np.int64, (levels, 3)),
        ("search_line_at", np.int64, (levels + 1,)),  # where each level's moves start in `line`
        ("search_line", np.int64, (line,)),  # the line being searched
        ("search_undo", np.int64, (line,)),  # undo_token of each move of the line
        ("search_best", np.int64, (line,)),  # the line with the most cards home
        # the table: per entry a fingerprint, and the search (STAMP) that met it << 16 | the level
        ("search_table", np.int64, (table, 2)),
        ("search_scratch", np.int64, (2 * MAX_LEGAL_MOVES,)),  # legal moves, candidates' ranks
        ("search_info", np.int64, (N_INFO,)),
        # each level's pile_part of each pile, then their sum and home_key (fingerprint)
        ("search_pile_parts", np.int64, (levels, N_PILES + 2)),
        # hash states after each card of a pile, bottom first (hash_pile_from); the stock's
        # after r redeals in row STOCK + r (hash_stock_cards)
        ("search_prefix", np.int64, (STOCK + STOCK_EPOCHS, CAPACITY)),
    ]


def search_buffers(small: bool = False, table_bits: int = TABLE_BITS,
                   deep: bool = False) -> tuple:
    """A searcher's working memory as the `work` tuple (search_arrays); never allocated by
    compiled code."""
    return tuple(np.zeros(shape, dtype=dtype) for _, dtype, shape in
                 search_arrays(small, table_bits, deep))


@jit_inline
def search_work(record):
    """The `work` tuple of a searcher whose arrays are fields of a record (search_arrays), as
    plain arrays: the search compiles once for records of every size and for search_buffers."""
    r = record
    return (plain_array(r.search_position), plain_array(r.search_moves),
            plain_array(r.search_keys), plain_array(r.search_cursors),
            plain_array(r.search_line_at), plain_array(r.search_line), plain_array(r.search_undo),
            plain_array(r.search_best), plain_array(r.search_table),
            plain_array(r.search_scratch), plain_array(r.search_info),
            plain_array(r.search_pile_parts), plain_array(r.search_prefix))


@jit_inline
def mix(z):
    z = (z ^ (z >> 30)) * -4658895280553007687
    z = (z ^ (z >> 27)) * -7723592293110705685
    return z ^ (z >> 31)


@jit_inline
def columns_interchangeable(pos, rules):
    """Whether the columns' order can no longer matter: no deal, refill or redeal will treat
    them by their place (Kingsdown Eights deals to its reserve; Cicely's stock is out;
    Tournament's stock is out and no redeal is left)."""
    stock_out = pos[LENGTHS + STOCK] == 0
    return ((rules[R.DEAL_TO_RESERVE] != 0 or stock_out)
            and (rules[R.REFILL] == 0 or stock_out)
            and pos[REDEALS] >= rules[R.MAX_REDEALS])


FNV_OFFSET = 1469598103934665603
STOCK_EPOCHS = 8  # redeals the stock's hash is kept incrementally for; more: hashed in full
FNV_PRIME = 1099511628211


@jit_inline
def pile_hash(pos, p):
    h = FNV_OFFSET
    n = pos[LENGTHS + p]
    base = p * CAPACITY
    for k in range(n):
        h = (h ^ pos[base + k]) * FNV_PRIME
    return (h ^ n) * FNV_PRIME


@jit_inline
def hash_stock_cards(pos, prefix):
    """Fill the row of `prefix` for the redeals made with the stock as it is now, just laid out
    or redealt: the hash state after each card, bottom first. Until the next redeal the stock
    only loses cards from its top (deals, refills) or gets them back (undone), so its pile_hash
    is stock_hash at any length; a row is rewritten only by a redeal made again after the one
    that wrote it was undone."""
    redeals = pos[REDEALS]
    if redeals >= STOCK_EPOCHS:
        return
    h = FNV_OFFSET
    for k in range(pos[LENGTHS + STOCK]):
        h = (h ^ pos[STOCK * CAPACITY + k]) * FNV_PRIME
        prefix[STOCK + redeals, k] = h


@jit_inline
def hash_pile_from(pos, prefix, p, first):
    """Bring pile p's row of `prefix` (p below the stock) up to date from card `first` up: the
    hash state after each card, bottom first. A move changes a pile only at its top, so
    make and unmake rehash one card (a deal, redeal or refill: the piles it dealt to)."""
    h = prefix[p, first - 1] if first > 0 else FNV_OFFSET
    base = p * CAPACITY
    for k in range(first, pos[LENGTHS + p]):
        h = (h ^ pos[base + k]) * FNV_PRIME
        prefix[p, k] = h


@jit_inline
def kept_pile_hash(pos, prefix, p):
    """pile_hash of pile p from `prefix` (hash_pile_from, hash_stock_cards)."""
    redeals = pos[REDEALS]
    if p == STOCK and redeals >= STOCK_EPOCHS:
        return pile_hash(pos, STOCK)
    row = STOCK + redeals if p == STOCK else p
    n = pos[LENGTHS + p]
    h = prefix[row, n - 1] if n > 0 else FNV_OFFSET
    return (h ^ n) * FNV_PRIME


@jit_inline
def pile_part(pos, rules, p, prefix, symmetric_columns):
    """Pile p's part of the fingerprint (a sum of parts). What the rules treat alike counts
    once: a reserve cell's part is its card's, whatever the cell; columns whose order can no
    longer matter (columns_interchangeable) have parts that do not depend on which they are."""
    if p < TABLEAU and rules[R.RESERVE_CELLS]:
        return mix(pos[p * CAPACITY] + 7919) if pos[LENGTHS + p] > 0 else 0
    return part_of_hash(p, kept_pile_hash(pos, prefix, p), symmetric_columns)


@jit_inline
def part_of_hash(p, h, symmetric_columns):
    if TABLEAU <= p < STOCK and symmetric_columns:
        return mix(h)
    return mix(h + (p + 1) * -7046029254386353131)


@jit_inline
def part_without_top(pos, rules, prefix, p, symmetric_columns):
    """pile_part of pile p (below the stock) once its top card is gone."""
    if p < TABLEAU and rules[R.RESERVE_CELLS]:
        return 0
    n = pos[LENGTHS + p] - 1
    h = prefix[p, n - 1] if n > 0 else FNV_OFFSET
    return part_of_hash(p, (h ^ n) * FNV_PRIME, symmetric_columns)


@jit_inline
def part_with_card(pos, rules, prefix, p, card, symmetric_columns):
    """pile_part of pile p (below the stock) once `card` is put on it."""
    if p < TABLEAU and rules[R.RESERVE_CELLS]:
        return mix(card + 7919)
    n = pos[LENGTHS + p]
    h = prefix[p, n - 1] if n > 0 else FNV_OFFSET
    h = (h ^ card) * FNV_PRIME
    return part_of_hash(p, (h ^ (n + 1)) * FNV_PRIME, symmetric_columns)


@jit_inline
def update_pile_parts(pos, rules, parts, touched, prefix):
    """Bring `parts` (pile_part of every pile, then their sum) up to date for the piles in bit
    mask `touched`, which must be every pile when the stock or the redeals changed
    (columns_interchangeable may have changed with them)."""
    symmetric_columns = columns_interchangeable(pos, rules)
    total = parts[N_PILES]
    for p in range(N_PILES):
        if (touched >> p) & 1:
            part = pile_part(pos, rules, p, prefix, symmetric_columns)
            total += part - parts[p]
            parts[p] = part
    parts[N_PILES] = total


@jit_inline
def fingerprint(pos, rules, parts):
    """A 62-bit fingerprint of everything that decides the future: piles (stock included),
    foundations, redeals made, from the piles' parts and their sum kept up to date
    (update_pile_parts), so that piles no move touched are not hashed again. Also keeps the
    home_key in `parts` past the sum (a move that changes neither foundations nor stock then
    finds its position's fingerprint from its two piles' new parts: solve)."""
    home = home_key(pos, rules)
    parts[N_PILES + 1] = home
    return fingerprint_of(parts[N_PILES], home)


@jit_inline
def fingerprint_of(total, home):
    return (mix(total ^ mix(home + 0x5BD1E995)) & 0x3FFFFFFFFFFFFFFF) | 1


def suit_home_keys_table():
    """[2 * transfers + down, first, second]: home_key's byte for a suit whose two foundations
    hold `first` and `second` cards."""
    keys = np.zeros((4, 14, 14), dtype=np.int64)
    for kind in range(4):
        transfers, down = kind >= 2, kind % 2 == 1
        for first in range(14):
            for second in range(14):
                a, b = first, second
                if transfers and a + b == 13:
                    a, b = 13, 0  # every boundary of a suit with 13 home is one position
                elif not down and b > a:
                    a, b = b, a  # two piles built up from the ace
                keys[kind, first, second] = (a << 4) | b
    return keys


SUIT_HOME_KEYS = suit_home_keys_table()


@jit_inline
def home_key(pos, rules):
    """The foundations and redeals as one number: two foundations of a suit built the same way
    are sorted; every boundary of a suit with 13 cards home is one (transfers). Each suit's
    part is looked up (SUIT_HOME_KEYS): every fingerprint asks for it."""
    kind = (2 if rules[R.TRANSFERS] else 0) + (1 if rules[R.DOWN_FOUNDATIONS] else 0)
    home = 0
    for suit in range(4):
        home = (home << 8) | SUIT_HOME_KEYS[kind, pos[FOUNDATIONS + suit],
                                            pos[FOUNDATIONS + suit + 4]]
    return home | (np.int64(pos[REDEALS]) << 32)


ALL_PILES = (1 << N_PILES) - 1


@jit_inline
def piles_touched(move):
    """The piles a move may change, as a bit mask: its source and target, or every pile for a
    deal or a redeal (a refill from the stock shows in the stock's length)."""
    if move >= DEAL:
        return ALL_PILES
    src, dst = move // N_PLACES, move % N_PLACES
    touched = 0
    if src < STOCK:  # places below the foundations are piles of the same number
        touched |= 1 << src
    if dst < STOCK:
        touched |= 1 << dst
    return touched


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


@jit_inline
def suit_home(pos, suit):
    return pos[FOUNDATIONS + suit] + pos[FOUNDATIONS + suit + 4]


@jit_inline
def nothing_builds_on(pos, rules):
    """Kingsdown Eights: the cards that may go home at once because no card can ever be built
    on them, as bits of suit * 13 + rank: an ace or a two (an ace can always go home), or a
    card both copies of each card one rank lower and of the other colour of which are home.
    Then the card can serve only by moving, and home is the move that frees the most."""
    # a card of rank r has nothing to build on it when r < 2 or r <= the fewest cards home
    # on any foundation of the other colour
    fewest_black = min(min(pos[FOUNDATIONS + 0], pos[FOUNDATIONS + 4]),
                       min(pos[FOUNDATIONS + 3], pos[FOUNDATIONS + 7]))
    fewest_red = min(min(pos[FOUNDATIONS + 1], pos[FOUNDATIONS + 5]),
                     min(pos[FOUNDATIONS + 2], pos[FOUNDATIONS + 6]))
    safe = 0
    for f in range(8):
        suit = f % 4
        rank = 12 - pos[FOUNDATIONS + f] if is_down_foundation(rules, f) else pos[
            FOUNDATIONS + f]
        if 0 <= rank <= 12 and (rank < 2 or rank <= (
                fewest_black if suit == 1 or suit == 2 else fewest_red)):
            safe |= 1 << (13 * suit + rank)
    return safe


def suit_fits_table():
    """[down, up, second]: the ranks (bits 0-12) that fit a suit's two foundations holding `up`
    and `second` cards, the second built down from the king if `down`, else up from the ace
    (the rule of fits_foundation, which a test holds it to for every count: asking that
    compiled function here cost every import 60 ms)."""
    fits = np.zeros((2, 14, 14), dtype=np.int64)
    for down in range(2):
        for up in range(14):
            for second in range(14):
                if up < 13:
                    fits[down, up, second] |= 1 << up
                if second < 13:
                    fits[down, up, second] |= 1 << (12 - second if down else second)
    return fits


SUIT_FITS = suit_fits_table()


@jit_inline
def fitting_cards(pos, rules, least_home):
    """The cards that fit a foundation of a suit with at least `least_home` cards home, as bits
    of suit * 13 + rank (SUIT_FITS: looked up, not worked out; the search asks it at every
    step)."""
    down = 1 if rules[R.DOWN_FOUNDATIONS] else 0
    fitting = 0
    for suit in range(4):
        up, second = pos[FOUNDATIONS + suit], pos[FOUNDATIONS + suit + 4]
        if up + second >= least_home:
            fitting |= SUIT_FITS[down, up, second] << (13 * suit)
    return fitting


@jit_inline
def fitting_cards_off_13_and_past_half(pos, rules):
    """(fitting_cards of the suits with any number home but 13, of those with 14 or more), in
    one pass: PROOF_CELLS_NO_BUILDING's safe cards on the reserve and on settled columns."""
    down = 1 if rules[R.DOWN_FOUNDATIONS] else 0
    off_13, past_half = 0, 0
    for suit in range(4):
        up, second = pos[FOUNDATIONS + suit], pos[FOUNDATIONS + suit + 4]
        if up + second != 13:
            fitting = SUIT_FITS[down, up, second] << (13 * suit)
            off_13 |= fitting
            if up + second > 13:
                past_half |= fitting
    return off_13, past_half


@jit_inline
def safe_cards(pos, rules, eager):
    """(reserve_cards, column_cards): the cards whose play home is safe (see the module
    docstring) when on top of a reserve pile (a cell), and when on top of a column, as bits of
    suit * 13 + rank; by the proof the game declares (games.py: solver_proof); none in Cicely,
    whose builds in suit both ways make a proof longer than it is worth. `eager`: any play home
    from a reserve cell or a column top (fast, but proves nothing)."""
    if eager:
        fitting = fitting_cards(pos, rules, 0)
        return fitting, fitting
    if rules[R.SOLVER_PROOF] == R.PROOF_NOTHING_BUILDS_ON:
        safe = nothing_builds_on(pos, rules)
        return safe, safe
    if rules[R.SOLVER_PROOF] != R.PROOF_CELLS_NO_BUILDING:
        return 0, 0
    columns_settled = pos[LENGTHS + STOCK] == 0 and pos[REDEALS] >= rules[R.MAX_REDEALS]
    off_13, past_half = fitting_cards_off_13_and_past_half(pos, rules)
    return off_13, past_half if columns_settled else 0


@jit_inline
def safe_move(pos, rules, eager):
    """A foundation play that no winning line can need to delay (safe_cards), or -1."""
    reserve_cards, column_cards = safe_cards(pos, rules, eager)
    return first_top_in(pos, rules, reserve_cards, column_cards)


@jit_inline
def first_top_in(pos, rules, reserve_cards, column_cards):
    """The play home of the first top card, reserve first, that is among `reserve_cards` on the
    reserve or among `column_cards` on a column (bits of suit * 13 + rank, each a card that
    fits a foundation), or -1."""
    if reserve_cards == 0 and column_cards == 0:
        return -1  # the common case, answered without looking at the piles
    for src in range(TABLEAU + rules[R.N_COLUMNS]):
        n = pos[LENGTHS + src]
        if n == 0:
            continue
        card = np.int64(pos[src * CAPACITY + n - 1])
        if ((reserve_cards if src < TABLEAU else column_cards) >> card) & 1:
            suit = card_suit(card)
            f = suit if fits_foundation(pos, rules, card, suit) else suit + 4
            return src * N_PLACES + FOUNDATION_PLACE + f
    return -1


@jit_inline
def rehash_after(pos, rules, prefix, move, stock_before, undone):
    """Bring `prefix` up to date after `move` was made or, if `undone`, taken back (stock_before:
    the stock's length before that): the one pile that gained a card, or every pile a deal,
    redeal or refill changed. Taking back a deal only shortens piles: nothing to do."""
    if move == DEAL:
        if not undone:  # the piles dealt to got cards on top: rehash those
            first, n = deal_piles(rules)
            for i in range(n):
                got = deal_share(rules, i, stock_before)
                if got > 0:
                    hash_pile_from(pos, prefix, first + i, pos[LENGTHS + first + i] - got)
        return
    if move == REDEAL:
        first = TABLEAU if rules[R.RESERVE_CELLS] else 0  # a cell's part is its card's
        for p in range(first, STOCK):
            hash_pile_from(pos, prefix, p, 0)
        if not undone:
            hash_stock_cards(pos, prefix)  # a new stock
        return
    # a pile that lost its top card keeps its row: the cards under it have not changed
    src, dst = move // N_PLACES, move % N_PLACES
    gained = src if undone else dst  # the pile the card went onto
    if gained < STOCK:
        hash_pile_from(pos, prefix, gained, pos[LENGTHS + gained] - 1)
    if not undone and src < STOCK and pos[LENGTHS + STOCK] != stock_before:
        hash_pile_from(pos, prefix, src, 0)  # emptied, and refilled from the stock


@jit_inline
def make(pos, rules, move, line, undo, length, prefix):
    """Make `move`, appending it to `line` and what takes it back to `undo`; the new length."""
    stock = pos[LENGTHS + STOCK]
    undo[length] = undo_token(pos, rules, move)
    apply_move(pos, rules, move)
    rehash_after(pos, rules, prefix, move, stock, False)
    line[length] = move
    return length + 1


@jit
def unmake(pos, rules, line, undo, start, length, prefix):
    """Take back the moves line[start:length], last first."""
    for i in range(length - 1, start - 1, -1):
        stock = pos[LENGTHS + STOCK]
        undo_move(pos, rules, line[i], undo[i])
        rehash_after(pos, rules, prefix, line[i], stock, True)


@jit
def advance(pos, rules, eager, move, line, undo, length, prefix, safe_plays, cap):
    """Make a candidate `move` (a transfer play as its transfers, then its play; -1: none) and
    then, if `safe_plays`, every safe move, appending the moves made to `line`, at most `cap`
    moves in all; the new line length. The search makes moves here only, so that their code is
    compiled into it once and a position costs one call, not one per move (measured: calls were
    a third of its time)."""
    while length < cap:
        if move >= TRANSFER_PLAY:
            step = transfer_step(pos, move)
            if step // N_PLACES == move - TRANSFER_PLAY:
                move = -1  # the card's own play: the transfer play is done
        elif move >= 0:
            step, move = move, -1
        elif safe_plays:
            step = safe_move(pos, rules, eager)
            if step < 0:
                break
        else:
            break
        length = make(pos, rules, step, line, undo, length, prefix)
    return length


@jit_inline
def transfer_step(pos, move):
    """The next move of transfer play `move`: a transfer that brings its suit's boundary to the
    card's rank (the up pile holds the ranks below its count, the down pile the rest), then the
    card's play onto the up pile."""
    src = move - TRANSFER_PLAY
    card = pile_top(pos, src)
    suit, rank = card_suit(card), card_rank(card)
    up, down = FOUNDATION_PLACE + suit, FOUNDATION_PLACE + suit + 4
    if pos[FOUNDATIONS + suit] > rank:
        return up * N_PLACES + down
    if pos[FOUNDATIONS + suit] < rank:
        return down * N_PLACES + up
    return src * N_PLACES + up


@jit_inline
def cards_going_home(pos, rules, fitting):
    """The cards (suit * 13 + rank) that could go home now, directly (`fitting`: fitting_cards)
    or by a transfer play, as bits of one integer: one look at the foundations answers for
    every card."""
    going = fitting
    if rules[R.TRANSFERS]:
        for suit in range(4):
            if suit_home(pos, suit) == 13:
                going |= 0x1FFF << (13 * suit)
    return going


@jit_inline
def move_rank(pos, rules, move, free_cells, going):
    """Lower is tried first: plays home; digs that reach a card that can go home (`going`:
    cards_going_home), shallowest first (in Kingsdown Eights, with no cells, only the card
    under the one moved counts); deal or redeal (Kingsdown Eights: last); builds; other moves."""
    if move == DEAL or move == REDEAL:
        return 6 * 128 if rules[R.DEAL_TO_RESERVE] else 3 * 128
    if move >= TRANSFER_PLAY:
        return 0
    src, dst = move // N_PLACES, move % N_PLACES
    if dst >= FOUNDATION_PLACE:
        return 0 if src < FOUNDATION_PLACE else 128
    if TABLEAU <= src < FOUNDATION_PLACE or not rules[R.RESERVE_CELLS]:
        n = pos[LENGTHS + src]
        for depth in range(1, min(n, free_cells + 1)):
            if (going >> pos[src * CAPACITY + n - 1 - depth]) & 1:
                return 2 * 128 + depth
    if dst >= TABLEAU:
        return 4 * 128  # a build or a move to an empty column
    return 5 * 128


# Rooms of the search's scratch array that candidates uses.
TOPS = 0  # each pile's top card, or -1
COLUMNS_UNDER = 32  # per card: the columns that card tops, as bits
RANKS_AT = MAX_LEGAL_MOVES  # the candidates' ranks


@jit_inline
def candidates(pos, rules, scratch, out, info):
    """The moves worth trying from `pos`, in the order they are tried; their count.

    The legal moves (in legal_moves' order) less those that reach a position another one
    reaches: each card's first foundation that takes it, the first empty cell, the columns
    (an empty one only the first). The rules' fits_foundation and fits_column decide, asked
    per card and per column top rather than per pair of places. Transfers come only within
    transfer plays."""
    tops = scratch[TOPS:TOPS + N_PILES]
    under = scratch[COLUMNS_UNDER:COLUMNS_UNDER + 52]
    ranks = scratch[RANKS_AT:]
    n_columns = rules[R.N_COLUMNS]
    sources = TABLEAU + n_columns
    first_cell, first_column = -1, -1
    free_cells = 0
    for p in range(sources):
        tops[p] = pile_top(pos, p)
        if p < TABLEAU:
            if tops[p] < 0:
                free_cells += 1
                if first_cell < 0:
                    first_cell = p
        elif tops[p] < 0 and first_column < 0:
            first_column = p
    if not rules[R.RESERVE_CELLS]:
        first_cell = -1
        free_cells = 1  # without cells, a dig is the move itself: look one card down
    build = rules[R.BUILD]
    if build != R.BUILD_NONE:
        under[:] = 0
        for p in range(TABLEAU, sources):
            if tops[p] >= 0:
                under[tops[p]] |= 1 << p
    kept = 0
    fitting = fitting_cards(pos, rules, 0)  # those that fits_foundation takes: asked only of them
    for src in range(sources):
        card = tops[src]
        if card < 0 or kept + 12 > MAX_CANDIDATES:
            continue
        suit, rank = card_suit(card), card_rank(card)
        # a card that fits both piles of its suit: the first will do
        if (fitting >> card) & 1:
            f = suit if fits_foundation(pos, rules, card, suit) else suit + 4
            out[kept] = src * N_PLACES + FOUNDATION_PLACE + f
            kept += 1
        if first_cell >= 0 and src >= TABLEAU:
            out[kept] = src * N_PLACES + first_cell
            kept += 1
        if build == R.BUILD_NONE:
            continue
        # the columns this card may go on: those topped by a card it fits on, in order
        targets = 0
        if build == R.BUILD_SUIT_UP_OR_DOWN:
            if rank > 0:
                targets |= under[card - 1]
            if rank < 12:
                targets |= under[card + 1]
        elif rank < 12:  # BUILD_DOWN_ALTERNATE_COLOUR: on the next rank up, other colour
            red = suit == 1 or suit == 2
            for other in range(4):
                if (other == 1 or other == 2) != red:
                    targets |= under[other * 13 + rank + 1]
        if first_column >= 0 and not (src >= TABLEAU and pos[LENGTHS + src] == 1):
            targets |= 1 << first_column  # one empty column stands for all; a lone card gains
        targets &= ~(1 << src)  # nothing there
        while targets != 0:  # its columns (bits TABLEAU..sources-1), the lowest first
            out[kept] = src * N_PLACES + trailing_zeros(targets)
            kept += 1
            targets &= targets - 1
    if pos[LENGTHS + STOCK] > 0:
        out[kept] = DEAL
        kept += 1
    if can_redeal(pos, rules):
        out[kept] = REDEAL
        kept += 1
    going = cards_going_home(pos, rules, fitting)
    if going != fitting:  # a suit with 13 cards home, whose cards go home by transfer plays
        for src in range(sources):
            card = tops[src]
            if card < 0 or suit_home(pos, card_suit(card)) != 13 or kept >= MAX_CANDIDATES:
                continue
            if not (fits_foundation(pos, rules, card, card_suit(card))
                    or fits_foundation(pos, rules, card, card_suit(card) + 4)):
                out[kept] = TRANSFER_PLAY + src
                kept += 1
    # insertion sort by rank, stable: few moves, and the order decides the search's speed
    seed = info[ORDER_SEED]
    for i in range(kept):
        ranks[i] = move_rank(pos, rules, out[i], free_cells, going)
        if seed != 0:
            ranks[i] += (mix(seed * 1000003 + info[NODES] * 257 + i) & 0x7FFFFFFF) % JITTER
    for i in range(1, kept):
        move, rank = out[i], ranks[i]
        j = i - 1
        while j >= 0 and ranks[j] > rank:
            out[j + 1] = out[j]
            ranks[j + 1] = ranks[j]
            j -= 1
        out[j + 1] = move
        ranks[j + 1] = rank
    return kept


@jit_inline
def keep_best(pos, line, length, best, info):
    cards = foundation_cards(pos)
    if cards > info[BEST_CARDS] or (cards == info[BEST_CARDS] and length < info[BEST_LENGTH]):
        info[BEST_CARDS] = cards
        info[BEST_LENGTH] = length
        for i in range(length):
            best[i] = line[i]


@jit_inline
def quiet_move(pos, rules, reserve_cards, column_cards, move):
    """Whether `move` is one card from a pile to a pile (not home) that neither empties a column
    the stock refills nor lets a safe play follow (the position before it has none, so only
    the two new top cards could; `reserve_cards`, `column_cards`: the position's safe_cards)."""
    if move >= DEAL:
        return False
    src, dst = move // N_PLACES, move % N_PLACES
    if dst >= STOCK or src >= STOCK:
        return False
    n = pos[LENGTHS + src]
    if (n == 1 and src >= TABLEAU and rules[R.REFILL] > 0
            and pos[LENGTHS + STOCK] > 0):
        return False
    if ((reserve_cards if dst < TABLEAU else column_cards) >> pos[src * CAPACITY + n - 1]) & 1:
        return False
    return not (n >= 2 and ((reserve_cards if src < TABLEAU else column_cards)
                            >> pos[src * CAPACITY + n - 2]) & 1)


@jit_inline
def quiet_parts(pos, rules, prefix, move, symmetric_columns):
    """The new parts of the two piles a quiet_move changes: (source's, target's)."""
    src, dst = move // N_PLACES, move % N_PLACES
    card = np.int64(pos[src * CAPACITY + pos[LENGTHS + src] - 1])
    return (part_without_top(pos, rules, prefix, src, symmetric_columns),
            part_with_card(pos, rules, prefix, dst, card, symmetric_columns))


@jit
def expand(pos, rules, eager, scratch, moves, keys, parts, prefix, table, info, room):
    """The candidates of the position at a level, in `moves`, their count returned; for each
    quiet_move, and each play home that is the whole step (quiet_play_home_key), the
    fingerprint it leads to in `keys`; for a move that safe plays follow, minus the fingerprint
    it and they reach (chain_key, within `room` moves); 0 for the others (deals). Each table
    slot is fetched ahead: most are looked up in a row, when they reach positions met already
    (measured: 69% of quiet moves in Tournament; plays home read ahead: Tournament's exact
    search 11% faster; chains read here rather than when tried: `solver` 4-6% faster)."""
    n = candidates(pos, rules, scratch, moves, info)
    mask = table.shape[0] - 1
    reserve_cards, column_cards = safe_cards(pos, rules, eager)  # the same for every candidate
    symmetric_columns = columns_interchangeable(pos, rules)
    for i in range(n):
        move = moves[i]
        key = 0  # no read-ahead (a fingerprint is never 0)
        if quiet_move(pos, rules, reserve_cards, column_cards, move):
            src_part, dst_part = quiet_parts(pos, rules, prefix, move, symmetric_columns)
            src, dst = move // N_PLACES, move % N_PLACES
            key = fingerprint_of(parts[N_PILES] - parts[src] - parts[dst] + src_part + dst_part,
                                 parts[N_PILES + 1])
        elif move < DEAL and move % N_PLACES >= FOUNDATION_PLACE:
            key = quiet_play_home_key(pos, rules, eager, prefix, parts, move,
                                      symmetric_columns)
        elif move >= TRANSFER_PLAY and not eager:  # eager: a safe play nearly always follows
            key = quiet_transfer_play_key(pos, rules, eager, prefix, parts, move,
                                          symmetric_columns)
        if key == 0:
            key = -chain_key(pos, rules, eager, prefix, parts, move, room, symmetric_columns,
                             scratch)
        keys[i] = key
        if key != 0:
            prefetch_row(table, abs(key) & mask)
    return n


@jit_inline
def quiet_transfer_play_key(pos, rules, eager, prefix, parts, move, symmetric_columns):
    """quiet_play_home_key for a transfer play (its transfers and the card's play home): with
    13 cards of the suit home, the up pile ends holding the card's rank and those below it, the
    down pile the rest (transfer_step); measured: Tournament's exact search makes 0.32 of them
    a position, 6.2 moves each, and 91% reach a position met already."""
    src = move - TRANSFER_PLAY
    card = pos[src * CAPACITY + pos[LENGTHS + src] - 1]
    rank = card_rank(card)
    return key_with_top_home(pos, rules, eager, prefix, parts, src, card_suit(card), rank + 1,
                             13 - rank, symmetric_columns)


@jit_inline
def quiet_play_home_key(pos, rules, eager, prefix, parts, move, symmetric_columns):
    """The fingerprint a play home from a pile leads to, read without making it, when it is
    the whole step (key_with_top_home), else 0."""
    src, f = move // N_PLACES, move % N_PLACES - FOUNDATION_PLACE
    if src >= STOCK:
        return 0
    suit = f % 4
    up, down = pos[FOUNDATIONS + suit], pos[FOUNDATIONS + suit + 4]
    if f < 4:
        up += 1
    else:
        down += 1
    return key_with_top_home(pos, rules, eager, prefix, parts, src, suit, up, down,
                             symmetric_columns)


@jit_inline
def key_with_top_home(pos, rules, eager, prefix, parts, src, suit, up, down,
                      symmetric_columns):
    """The fingerprint reached when pile `src`'s top card goes home and `suit`'s up and down
    foundations then hold `up` and `down` cards, when that is the whole step: it does not win,
    empties no column the stock refills, and no safe play follows it (else 0). Tried with the
    card lifted and the foundations set in place, then put back."""
    n = pos[LENGTHS + src]
    if (foundation_cards(pos) + 1 == DECK_SIZE
            or (n == 1 and src >= TABLEAU and rules[R.REFILL] > 0
                and pos[LENGTHS + STOCK] > 0)):
        return 0
    total = parts[N_PILES] - parts[src] + part_without_top(pos, rules, prefix, src,
                                                           symmetric_columns)
    up_before, down_before = pos[FOUNDATIONS + suit], pos[FOUNDATIONS + suit + 4]
    pos[LENGTHS + src] = n - 1
    pos[FOUNDATIONS + suit] = up
    pos[FOUNDATIONS + suit + 4] = down
    key = 0
    if safe_move(pos, rules, eager) < 0:
        key = fingerprint_of(total, home_key(pos, rules))
    pos[FOUNDATIONS + suit + 4] = down_before
    pos[FOUNDATIONS + suit] = up_before
    pos[LENGTHS + src] = n
    return key


@jit_inline
def chain_key(pos, rules, eager, prefix, parts, move, room, symmetric_columns, scratch):
    """The fingerprint of the position that advance reaches by `move` (one card from a pile to
    a pile or home, or a transfer play) and the safe plays that follow it, read without making
    them: the cards are lifted and the foundations set in place (logged in `scratch`), then put
    back. 0 when the moves could change more than piles' tops and the foundations (a column
    emptied that the stock refills), win, or not fit in `room` moves (advance's cap).
    Measured: in Tournament's eager searches, most moves followed by safe plays reach a
    position met already, and were made and taken back only to find that out."""
    if move >= TRANSFER_PLAY:
        src = move - TRANSFER_PLAY
        dst = FOUNDATION_PLACE
    elif move >= DEAL:
        return 0
    else:
        src, dst = move // N_PLACES, move % N_PLACES
    if src >= STOCK:
        return 0
    refills = rules[R.REFILL] > 0 and pos[LENGTHS + STOCK] > 0
    n = pos[LENGTHS + src]
    if n == 1 and src >= TABLEAU and refills:
        return 0
    home = foundation_cards(pos)
    card = np.int64(pos[src * CAPACITY + n - 1])
    suit = card_suit(card)
    up_before, down_before = pos[FOUNDATIONS + suit], pos[FOUNDATIONS + suit + 4]
    dst_length, dst_slot, dst_part = 0, 0, 0
    if move >= TRANSFER_PLAY:  # its transfers, then the card onto the up pile (transfer_step)
        rank = card_rank(card)
        steps = abs(up_before - rank) + 1
        pos[FOUNDATIONS + suit] = rank + 1
        pos[FOUNDATIONS + suit + 4] = 13 - rank
        home += 1
    elif dst >= FOUNDATION_PLACE:
        steps = 1
        pos[FOUNDATIONS + dst - FOUNDATION_PLACE] += 1
        home += 1
    else:
        steps = 1
        dst_part = part_with_card(pos, rules, prefix, dst, card, symmetric_columns)  # if kept
        dst_length = pos[LENGTHS + dst]
        dst_slot = pos[dst * CAPACITY + dst_length]
        pos[dst * CAPACITY + dst_length] = card
        pos[LENGTHS + dst] = dst_length + 1
    pos[LENGTHS + src] = n - 1
    touched = 1 << src
    plays = 0
    fits = steps <= room and home < DECK_SIZE
    while fits:
        step = safe_move(pos, rules, eager)
        if step < 0:
            break
        p, f = step // N_PLACES, step % N_PLACES - FOUNDATION_PLACE
        m = pos[LENGTHS + p]
        if steps + plays + 1 > room or home + 1 == DECK_SIZE or (
                m == 1 and p >= TABLEAU and refills):
            fits = False
            break
        pos[LENGTHS + p] = m - 1
        pos[FOUNDATIONS + f] += 1
        home += 1
        scratch[RANKS_AT + plays] = step
        plays += 1
        touched |= 1 << p
    key = 0
    if fits:
        total = parts[N_PILES]
        if dst < FOUNDATION_PLACE:
            total -= parts[dst]
            if pos[LENGTHS + dst] > dst_length:  # the card stayed there
                total += dst_part
            else:  # it went home too: the pile's cards are its own, whose hashes are kept
                total += pile_part(pos, rules, dst, prefix, symmetric_columns)
            touched &= ~(1 << dst)
        while touched != 0:
            p = trailing_zeros(touched)
            total += pile_part(pos, rules, p, prefix, symmetric_columns) - parts[p]
            touched &= touched - 1
        key = fingerprint_of(total, home_key(pos, rules))
    for i in range(plays - 1, -1, -1):
        step = scratch[RANKS_AT + i]
        p, f = step // N_PLACES, step % N_PLACES - FOUNDATION_PLACE
        pos[LENGTHS + p] += 1
        pos[FOUNDATIONS + f] -= 1
    pos[LENGTHS + src] = n
    if dst < FOUNDATION_PLACE:
        pos[LENGTHS + dst] = dst_length
        pos[dst * CAPACITY + dst_length] = dst_slot
    pos[FOUNDATIONS + suit] = up_before
    pos[FOUNDATIONS + suit + 4] = down_before
    return key


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
    pos, moves, keys, cursors, line_at, line, undo, best, table, scratch, info, parts, prefix = work
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
    info = work[INFO_BUFFER]
    moves_left = MOVE_LIMIT - start[MOVES]
    unit = max(1, budget // 2000)
    searched = 0
    eager = unliteral(True)
    verdict = SEARCH_UNDECIDED
    attempt = 0
    while True:
        size = unit * luby(attempt + 1)
        if searched + size > budget * 3 // 4:
            break
        info[ORDER_SEED] = attempt
        verdict = solve(start, rules, size, moves_left, eager, work)
        searched += info[NODES]
        attempt += 1
        if verdict == SEARCH_WON or (verdict == SEARCH_LOST and not eager):
            break
        if verdict == SEARCH_LOST:
            eager = False  # every eager line tried: a win needs a card kept back, if any
            verdict = SEARCH_UNDECIDED
    info[ORDER_SEED] = 0
    if verdict == SEARCH_UNDECIDED:
        info[DEEP] = 1
        verdict = solve(start, rules, max(1, budget - searched), moves_left, unliteral(False),
                        work)
        info[DEEP] = 0
        searched += info[NODES]
    info[NODES] = searched
    return verdict
