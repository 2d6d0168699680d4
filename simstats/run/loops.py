"""The compiled play loops: a compiled policy's deals played in one call, and one choice made
move by move; the generated module of each policy (policies/compiled.py) wraps these. Only what
compiled code reads lives here (jit.fingerprint keys each policy's cached loop on this module
and what it imports), never Python-side playing, traces or reports (move_by_move.py,
compiled_play.py).
"""

from __future__ import annotations

from ..engine.deals import shuffled_deck, start_stream
from ..engine.moves import apply_move, foundation_cards, is_legal, lay_out, status
from ..engine.observe import observe
from ..engine.state import (
    DEALS,
    DEALS_AT,
    END_AT,
    FOUNDATION_CARDS_AT,
    MOVES,
    MOVES_AT,
    NO_MOVE,
    ONGOING,
    REDEALS,
    REDEALS_AT,
    RESHUFFLES_AT,
    RESIGNED,
    UNKNOWN,
    WON,
    WON_AT,
)
from ..jit import jit, jit_always
from ..policies.api import forget_legal_moves
from ..search import (
    SEARCH_LOST,
    SEARCH_WON,
    played_line,
    search_work,
    solve_position,
)

# The end code of a deal whose policy chose an illegal move (the caller names the deal).
ILLEGAL_CHOICE = -2

@jit_always
def choose_once(choose, view, params, memory, stream):
    """One choice of a compiled policy (records as one-element arrays), for move-by-move play."""
    forget_legal_moves(view)
    return choose(view, params[0], memory[0], stream)


@jit
def observe_or_end(state, rules, view):
    """The end code if the game is over; else ONGOING, with the view showing the position."""
    end = status(state, rules)
    if end == ONGOING:
        observe(state, rules, view.obs)
        forget_legal_moves(view)
    return end


@jit
def make_move(state, rules, move):
    """Make the policy's move: ONGOING, or RESIGNED for NO_MOVE, ILLEGAL_CHOICE if illegal."""
    if move == NO_MOVE:
        return RESIGNED
    if not is_legal(state, rules, move):
        return ILLEGAL_CHOICE
    apply_move(state, rules, move)
    return ONGOING


@jit_always
def play_with(choose, state, view, rules, params, memory, stream):
    """The compiled twin of play_deck's loop for a compiled policy; returns the end code.
    Only the policy's choose is compiled into each policy's loop: the rules' steps are
    compiled once, for every policy (a loop then compiles in seconds)."""
    while True:
        end = observe_or_end(state, rules, view)
        if end != ONGOING:
            return end
        end = make_move(state, rules, choose(view, params, memory, stream))
        if end != ONGOING:
            return end


@jit
def start_deal(rules, seed, deal, salt, state, deck, deck_stream, stream, memory_bytes, reset):
    """Lay out deal `deal`, key the policy's stream to it and reset the policy's memory (a
    policy remembers only the deal it is playing); returns the deck's reshuffles."""
    reshuffles = shuffled_deck(rules, seed, deal, deck_stream, deck)
    lay_out(state, rules, deck)
    start_stream(stream, seed, deal, salt)
    for k in range(reset.shape[0]):
        memory_bytes[k] = reset[k]
    return reshuffles


@jit
def record_outcome(state, reshuffles, end, row):
    row[RESHUFFLES_AT] = reshuffles
    row[WON_AT] = end == WON
    row[FOUNDATION_CARDS_AT] = foundation_cards(state)
    row[MOVES_AT] = state[MOVES]
    row[DEALS_AT] = state[DEALS]
    row[REDEALS_AT] = state[REDEALS]
    row[END_AT] = end


@jit_always
def play_deals_with(choose, rules, params, oracle_budget, salt, seed, first_deal, count, out,
                    work):
    """Play deals first_deal.. with a compiled policy; one row of OUTCOME_COLUMNS each."""
    w = work
    state, view, deck = w.state, w.player_view, w.deck
    deck_stream, stream = w.deck_stream, w.stream
    memory, memory_bytes, reset = w.memory, w.memory_bytes, w.reset
    p, m = params[0], memory[0]
    for i in range(count):
        reshuffles = start_deal(rules, seed, first_deal + i, salt, state, deck, deck_stream,
                                stream, memory_bytes, reset)
        end = play_with(choose, state, view, rules, p, m, stream)
        record_outcome(state, reshuffles, end, out[i])


@jit_always
def play_oracle_deals_with(choose, rules, params, oracle_budget, salt, seed, first_deal, count,
                           out, work):
    """The oracle's deals: the fair solver's play first (`choose`); if it does not win, a search
    that reads the state (play_oracle) with the solver's own search memory."""
    w = work
    state, view, deck = w.state, w.player_view, w.deck
    deck_stream, stream = w.deck_stream, w.stream
    memory, memory_bytes, reset = w.memory, w.memory_bytes, w.reset
    p, m = params[0], memory[0]
    for i in range(count):
        reshuffles = start_deal(rules, seed, first_deal + i, salt, state, deck, deck_stream,
                                stream, memory_bytes, reset)
        end = play_with(choose, state, view, rules, p, m, stream)
        if end != WON:
            lay_out(state, rules, deck)
            end = play_oracle(state, rules, oracle_budget, search_work(m))
        record_outcome(state, reshuffles, end, out[i])


@jit
def play_oracle(state, rules, budget, work):
    """The perfect-information oracle, which reads the state (stock order included): solve the
    deal, then play the winning line, or the line with most cards home. Returns the end code,
    UNKNOWN when the budget ran out before a win or a proof of loss."""
    verdict = solve_position(state, rules, budget, work)
    line, length = played_line(verdict, work)
    for i in range(length):
        apply_move(state, rules, line[i])
    end = status(state, rules)
    if verdict != SEARCH_WON and verdict != SEARCH_LOST:
        return UNKNOWN
    return RESIGNED if end == ONGOING else end


