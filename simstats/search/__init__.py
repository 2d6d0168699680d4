"""The exact search: a depth-first search for a winning line from a position whose every card
is known.

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

Its modules, bottom to top: memory (sizes, slots, the working memory), fingerprint, table,
safe_moves (the proofs), make (make and unmake), order (move order), lookup (look-ups before a
move), dfs (the search) and schedule (restarts, memo, the oracle's verdict). The names below are
what the rest of simstats uses; tests of one step import it from its module.
"""

from .dfs import solve
from .fingerprint import pile_hash
from .memory import (
    BEST_CARDS,
    BEST_LENGTH,
    DEEP,
    LINE_LENGTH,
    MAX_LINE,
    MAX_TABLE_BITS,
    MEMO,
    MIN_TABLE_BITS,
    N_INFO,
    NODES,
    ORDER_SEED,
    RESULT_NAMES,
    SEARCH_LOST,
    SEARCH_UNDECIDED,
    SEARCH_VERSION,
    SEARCH_WON,
    STAMP,
    TABLE_BITS,
    SearchWork,
    search_arrays,
    search_buffers,
    search_work,
    table_bits_for,
)
from .schedule import (
    end_schedule,
    luby,
    memo_is_kept,
    new_memo,
    played_line,
    shake_order,
    solve_position,
    start_schedule,
    use_memo,
)

__all__ = [
    "BEST_CARDS", "BEST_LENGTH", "DEEP", "LINE_LENGTH", "MAX_LINE", "MAX_TABLE_BITS", "MEMO",
    "MIN_TABLE_BITS", "NODES", "N_INFO", "ORDER_SEED", "RESULT_NAMES", "SEARCH_LOST",
    "SEARCH_UNDECIDED", "SEARCH_VERSION", "SEARCH_WON", "STAMP", "TABLE_BITS", "end_schedule",
    "luby", "memo_is_kept", "new_memo", "pile_hash", "played_line", "search_arrays",
    "search_buffers", "search_work", "shake_order", "solve", "solve_position", "start_schedule",
    "table_bits_for", "use_memo", "SearchWork",
]
