"""The only window a policy gets on a game: an observation (docs/rules.md section 8), and what a
player may remember of the observations of a deal (``recall``).

``observe`` copies from the state what the player may see into an observation array of the same
layout, leaving the stock's cards out and masking buried column cards where the game squares its
piles. ``Observation`` wraps that array for Python policies. Neither ever hands out the state.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from ..jit import jit, jit_inline
from . import rules as R
from .cards import HIDDEN, card_text
from .moves import apply_move, copy_position, foundation_top, legal_moves
from .notation import move_text
from .state import (
    CAPACITY,
    FOUNDATIONS,
    LENGTHS,
    MAX_LEGAL_MOVES,
    MOVES,
    NO_MOVE,
    REDEALS,
    RESHUFFLES,
    STOCK,
    TABLEAU,
)


@jit_inline
def observe(s, rules, obs):
    """Write into `obs` what the player sees of state `s`; the stock's cards are never copied."""
    hide_buried = rules[R.HIDE_BURIED] != 0
    for p in range(STOCK):
        n = s[LENGTHS + p]
        obs[LENGTHS + p] = n
        base = p * CAPACITY
        for k in range(n):
            obs[base + k] = s[base + k]
        if hide_buried and p >= TABLEAU:
            for k in range(n - 1):
                obs[base + k] = HIDDEN
    obs[LENGTHS + STOCK] = s[LENGTHS + STOCK]
    for i in range(FOUNDATIONS, RESHUFFLES + 1):
        obs[i] = s[i]


# The memory of a deal (a (2, SIZE) array): row 0 the position as far as the player has seen it
# (cards never seen are HIDDEN), row 1 the policy's last move and the move count it was made at.
LAST_MOVE = 0
LAST_MOVE_AT = 1


@jit
def recall(obs, rules, memory):
    """Bring the memory of the deal up to date with `obs`: its row 0 becomes `obs` plus
    the cards seen earlier in this deal (Napoleon's Flank's buried column cards; after a redeal
    the stock, docs/rules.md 8). Built only from past observations and the policy's own moves: the
    last move is replayed on the remembered position, then every card `obs` shows is copied."""
    pos = memory[0]
    book = memory[1]
    moves = obs[MOVES]
    if moves == book[LAST_MOVE_AT] + 1 and book[LAST_MOVE] != NO_MOVE:
        apply_move(pos, rules, book[LAST_MOVE])
        book[LAST_MOVE] = NO_MOVE
    elif moves == 0 or moves != book[LAST_MOVE_AT]:
        copy_position(obs, pos)  # a new deal, or a history the memory did not follow
        return
    for p in range(STOCK + 1):
        n = obs[LENGTHS + p]
        base = p * CAPACITY
        if pos[LENGTHS + p] != n:  # cannot happen while the memory follows the game
            copy_position(obs, pos)
            return
        for k in range(n):
            if obs[base + k] != HIDDEN:
                pos[base + k] = obs[base + k]
    for i in range(FOUNDATIONS, obs.shape[0]):
        pos[i] = obs[i]


@jit_inline
def remember_move(memory, obs, move):
    """Note the move the policy makes at `obs`, for recall at the next observation."""
    memory[1, LAST_MOVE] = move
    memory[1, LAST_MOVE_AT] = obs[MOVES]


@jit_inline
def mark_caught_up(memory, moves_made):
    """Row 0 of `memory` has been set to what a player knows after `moves_made` moves, its own
    moves included (a playout's player that starts from another player's memory): the next
    recall adds what it then sees, with no move to replay."""
    memory[1, LAST_MOVE] = NO_MOVE
    memory[1, LAST_MOVE_AT] = moves_made


def blank_observation() -> np.ndarray:
    """An observation buffer whose stock slot holds only hidden cards."""
    from .state import new_state, pile_span

    obs = new_state()
    obs[pile_span(STOCK)] = HIDDEN
    return obs


class Observation:
    """What a player sees of a position. Cards are text such as '7H'; hidden cards are None.

    Attributes:
        game: the game id, e.g. 'tournament'.
        foundations: the top card of F0..F7 (None when empty).
        foundation_sizes: the number of cards on F0..F7.
        reserve: R0..R7, each a tuple of cards bottom first (a cell holds at most one).
        tableau: T0..T(n-1), each a tuple of cards bottom first; in Napoleon's Flank every card
            but the top is None (the column's size stays known).
        stock_size: cards left in the stock (their order is never shown).
        redeals_left: redeals still allowed.
        moves_made: moves made so far in this game.
        legal_moves: the legal moves as text ('T3>F2', 'deal', 'redeal'), never empty when a
            policy is asked to choose.
    """

    def __init__(self, game: str, rules: np.ndarray, array: np.ndarray):
        self.game = game
        self._rules = rules
        self._array = array  # an observation array, never the state

    def _pile(self, pile: int) -> tuple:
        n = int(self._array[LENGTHS + pile])
        cards = self._array[pile * CAPACITY : pile * CAPACITY + n]
        return tuple(None if c == HIDDEN else card_text(int(c)) for c in cards)

    @cached_property
    def foundations(self) -> tuple:
        tops = (int(foundation_top(self._array, self._rules, f)) for f in range(8))
        return tuple(card_text(c) if c >= 0 else None for c in tops)

    @cached_property
    def foundation_sizes(self) -> tuple:
        return tuple(int(n) for n in self._array[FOUNDATIONS : FOUNDATIONS + 8])

    @cached_property
    def reserve(self) -> tuple:
        return tuple(self._pile(p) for p in range(8))

    @cached_property
    def tableau(self) -> tuple:
        return tuple(self._pile(TABLEAU + c) for c in range(int(self._rules[R.N_COLUMNS])))

    @property
    def stock_size(self) -> int:
        return int(self._array[LENGTHS + STOCK])

    @property
    def redeals_left(self) -> int:
        return int(self._rules[R.MAX_REDEALS] - self._array[REDEALS])

    @property
    def moves_made(self) -> int:
        return int(self._array[MOVES])

    @cached_property
    def legal_move_codes(self) -> tuple:
        buffer = np.empty(MAX_LEGAL_MOVES, dtype=np.int64)
        n = legal_moves(self._array, self._rules, buffer)
        return tuple(int(m) for m in buffer[:n])

    @cached_property
    def legal_moves(self) -> tuple:
        return tuple(move_text(m) for m in self.legal_move_codes)

    def __repr__(self) -> str:
        return f"<Observation {self.game} moves_made={self.moves_made} legal={self.legal_moves}>"
