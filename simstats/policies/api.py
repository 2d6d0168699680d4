"""The compiled policy API: how every policy that plays inside the compiled loop is written,
built-ins and plugins alike.

A policy is a class deriving from ``CompiledPolicy``: a docstring (its first line is what
`simstats policies` shows), ``parameters`` (name -> ``integer``, ``number``, ``flag`` or
``choice``, each with its default, range and meaning; or name -> a plain default number, typed
by it: policies/parameters.py), ``memory`` (fields cleared before each deal: what the policy
remembers of the deal it is playing), ``workspace`` (fields allocated once and never cleared:
room to compute in, since compiled policies never allocate) and a static
``choose(view, params, memory, rng)`` that returns a move of ``legal_move(view, i)``, or
``NO_MOVE`` to stop. ``params`` and ``memory`` are records read by name (``params.depth``,
``memory.seen[i]``); ``rng`` is the policy's own random stream (``random_below``). An
optional static ``check(values)`` refuses combinations of values (ValueError; ``require`` says
so in one line); each parameter's own range is checked before it. The view is
what the player sees, read through the functions below; the state is never handed out.
A policy that remembers the deal declares a ``recollection()`` in its memory and reads
``recall(view, ...)``; one that tries moves declares ``boards(n)`` in its workspace and plays
on ``board(...)`` copies. Helper functions a policy calls are decorated with ``api.jit``.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numba
import numpy as np

from ..engine import moves as engine
from ..engine import rules as R
from ..engine import state as S
from ..engine.cards import HIDDEN, card_rank, card_suit, is_red
from ..engine.deals import below, next_u64
from ..engine.observe import recall as _recall
from ..engine.observe import remember_move as _remember_move
from ..jit import jit_always, jit_inline
from .parameters import Parameter, choice, declared, flag, integer, number  # noqa: F401 (the API)

# A plugin's helper functions: compiled with the same settings as the loop that calls them,
# but never cached on their own (the loop that inlines them is, keyed on the plugin's file).
jit = numba.njit(cache=False, nogil=True, _nrt=False)

NO_MOVE = S.NO_MOVE
DEAL = S.DEAL
REDEAL = S.REDEAL
NO_CARD = -1
HIDDEN_CARD = HIDDEN

# Move kinds (move_kind).
HOME = 0  # a card from the reserve or a column to a foundation
TO_RESERVE = 1
TO_COLUMN = 2
TRANSFER = 3  # a foundation's top card to the other foundation of its suit
DEAL_MOVE = 4
REDEAL_MOVE = 5

# Place kinds (place_kind); places are numbered as in move notation: R0..R7, T0..T7, F0..F7.
RESERVE = 0
COLUMN = 1
FOUNDATION = 2

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
BLACK, RED = 0, 1

# Where a view keeps the legal moves' count once computed (before: unknown).
_LEGAL_COUNT = S.MAX_LEGAL_MOVES
_UNKNOWN = -1


# What a policy is handed: the observation array, the game's rules and room for the legal
# moves, read only through the functions below (a policy never indexes it).
View = namedtuple("View", ("obs", "rules", "legal"))


def new_view(obs: np.ndarray, rules: np.ndarray) -> View:
    """A view of observation array `obs`, its legal moves not listed yet."""
    legal = np.empty(S.MAX_LEGAL_MOVES + 1, dtype=np.int64)
    legal[_LEGAL_COUNT] = _UNKNOWN
    return View(obs, rules, legal)


@jit_always
def view_of(obs, rules, legal):
    """A view of observation array `obs` in compiled code, `legal` (MAX_LEGAL_MOVES + 1 int64)
    its room for legal moves, not listed yet."""
    legal[_LEGAL_COUNT] = _UNKNOWN
    return View(obs, rules, legal)


@jit_inline
def forget_legal_moves(view):
    """The observation changed: the legal moves are computed again when asked for."""
    view.legal[_LEGAL_COUNT] = _UNKNOWN


# --- engine-level access, for policies that simulate positions (the built-ins) -----------

@jit_always
def observation_array(view):
    """The observation as the engine's flat array (layout: simstats/engine/state.py)."""
    return view.obs


@jit_always
def rules_array(view):
    """The game's rules as the engine's array (simstats/engine/rules.py)."""
    return view.rules


# --- cards ---------------------------------------------------------------------------------

@jit_inline
def rank(card):
    """1 (ace) to 13 (king)."""
    return card_rank(card) + 1


@jit_inline
def suit(card):
    """CLUBS, DIAMONDS, HEARTS or SPADES."""
    return card_suit(card)


@jit_inline
def colour(card):
    """RED or BLACK."""
    return RED if is_red(card) else BLACK


@jit_inline
def card_of(rank, suit):
    """The card of rank 1..13 and suit CLUBS..SPADES."""
    return suit * 13 + rank - 1


# --- what the player sees ------------------------------------------------------------------

@jit_inline
def foundation_size(view, f):
    """Cards on foundation F0..F7 (F0..F3 up from the ace; F4..F7 down from the king in the
    games that have them, else up from the ace too)."""
    return engine.foundation_size(view.obs, f)


@jit_inline
def foundation_top(view, f):
    """The top card of foundation f, or NO_CARD when it is empty."""
    return engine.foundation_top(view.obs, view.rules, f)


@jit_inline
def fits_foundation(view, card, f):
    """Whether `card` is the next card foundation f takes."""
    return engine.fits_foundation(view.obs, view.rules, card, f)


@jit_inline
def reserve_size(view, r):
    """Cards on reserve place R0..R7 (a cell holds at most one)."""
    return engine.pile_size(view.obs, r)


@jit_inline
def reserve_card(view, r, k):
    """Card k (0 = bottom) of reserve place r."""
    return engine.pile_card(view.obs, r, k)


@jit_inline
def reserve_top(view, r):
    """The top card of reserve place r, or NO_CARD when it is empty."""
    n = engine.pile_size(view.obs, r)
    return engine.pile_card(view.obs, r, n - 1) if n > 0 else NO_CARD


@jit_inline
def reserve_is_cells(view):
    """Whether the reserve places are one-card cells that a column top may fill."""
    return view.rules[R.RESERVE_CELLS] != 0


@jit_inline
def column_count(view):
    """Tableau columns T0..T(n-1) of this game."""
    return view.rules[R.N_COLUMNS]


@jit_inline
def column_size(view, c):
    """Cards in column c, hidden ones included."""
    return engine.pile_size(view.obs, S.TABLEAU + c)


@jit_inline
def column_card(view, c, k):
    """Card k (0 = bottom) of column c: a card, or HIDDEN_CARD where the player cannot see it."""
    return engine.pile_card(view.obs, S.TABLEAU + c, k)


@jit_inline
def column_top(view, c):
    """The top card of column c (always visible), or NO_CARD when it is empty."""
    n = engine.pile_size(view.obs, S.TABLEAU + c)
    return engine.pile_card(view.obs, S.TABLEAU + c, n - 1) if n > 0 else NO_CARD


@jit_inline
def stock_size(view):
    """Cards left in the stock (their order is never shown)."""
    return engine.pile_size(view.obs, S.STOCK)


@jit_inline
def redeals_left(view):
    return view.rules[R.MAX_REDEALS] - engine.redeals_made(view.obs)


@jit_inline
def moves_made(view):
    """Moves made so far in this game."""
    return engine.moves_made(view.obs)


# --- moves ---------------------------------------------------------------------------------

@jit_inline
def legal_count(view):
    """How many legal moves there are (computed on first use at each position)."""
    legal = view.legal
    if legal[_LEGAL_COUNT] == _UNKNOWN:
        legal[_LEGAL_COUNT] = engine.legal_moves(view.obs, view.rules, legal)
    return legal[_LEGAL_COUNT]


@jit_inline
def legal_move(view, i):
    """Legal move i, 0 <= i < legal_count(view), in the order of the rules' move list."""
    legal_count(view)
    return view.legal[i]


@jit_inline
def is_legal(view, move):
    return engine.is_legal(view.obs, view.rules, move)


@jit_inline
def place_kind(place):
    """RESERVE, COLUMN or FOUNDATION."""
    if place < S.TABLEAU:
        return RESERVE
    return COLUMN if place < S.FOUNDATION_PLACE else FOUNDATION


@jit_inline
def place_index(place):
    """The number of a place within its kind: 3 for R3, T3 and F3."""
    if place < S.TABLEAU:
        return place
    return place - S.TABLEAU if place < S.FOUNDATION_PLACE else place - S.FOUNDATION_PLACE


@jit_inline
def reserve_place(r):
    return r


@jit_inline
def column_place(c):
    return S.TABLEAU + c


@jit_inline
def foundation_place(f):
    return S.FOUNDATION_PLACE + f


@jit_inline
def card_move(source, target):
    """The move of the top card of place `source` to place `target`."""
    return source * S.N_PLACES + target


@jit_inline
def move_source(move):
    """The place a card move takes its card from (-1 for deal and redeal)."""
    return move // S.N_PLACES if move < S.DEAL else -1


@jit_inline
def move_target(move):
    """The place a card move puts its card on (-1 for deal and redeal)."""
    return move % S.N_PLACES if move < S.DEAL else -1


@jit_inline
def move_kind(move):
    """HOME, TO_RESERVE, TO_COLUMN, TRANSFER, DEAL_MOVE or REDEAL_MOVE."""
    if move == S.DEAL:
        return DEAL_MOVE
    if move == S.REDEAL:
        return REDEAL_MOVE
    src, dst = move // S.N_PLACES, move % S.N_PLACES
    if dst >= S.FOUNDATION_PLACE:
        return TRANSFER if src >= S.FOUNDATION_PLACE else HOME
    return TO_RESERVE if dst < S.TABLEAU else TO_COLUMN


@jit_inline
def move_card(view, move):
    """The card a card move moves, or NO_CARD for deal and redeal."""
    if move >= S.DEAL:
        return NO_CARD
    src = move // S.N_PLACES
    if src >= S.FOUNDATION_PLACE:
        return engine.foundation_top(view.obs, view.rules, src - S.FOUNDATION_PLACE)
    return engine.pile_card(view.obs, src, engine.pile_size(view.obs, src) - 1)


# --- remembering and imagining ------------------------------------------------------------

@jit_inline
def recall(view, recollection):
    """The deal as far as the player has seen it: a view of the observation plus every card
    seen earlier in this deal and not moved since, at its place (Napoleon's Flank's buried
    cards seen before a deal covered them; after a redeal the new stock, which is the gathered
    columns in a fixed order). `recollection` is a ``recollection()`` field of ``memory``.
    Call it first in ``choose`` and end ``choose`` with ``return remember(recollection, view,
    move)``: the memory follows the deal by replaying the policy's own moves. Its legal moves
    are the view's."""
    _recall(view.obs, view.rules, recollection)
    return View(recollection[0], view.rules, view.legal)


@jit_always
def remembered(view, known):
    """A view of `known`, a position as ``recall`` keeps it (row 0 of a recollection), with the
    view's legal moves: for a policy that keeps its recollection itself."""
    return View(known, view.rules, view.legal)


@jit_inline
def remember(recollection, view, move):
    """Note the move about to be made from `view`, for the next ``recall``; returns `move`."""
    _remember_move(recollection, view.obs, move)
    return move


@jit_always
def board(view, boards, k):
    """Board k of a ``boards(n)`` workspace field set to the position of `view` (the view, a
    recollection or another board): a view to try moves on with ``play``."""
    row = boards[k]
    engine.copy_position(view.obs, row[: S.SIZE])
    legal = row[S.SIZE :]
    legal[_LEGAL_COUNT] = _UNKNOWN
    return View(row[: S.SIZE], view.rules, legal)


@jit_inline
def play(board, move):
    """Make legal move `move` on a board (never on the view itself, which only the game
    changes). Cards a move brings from the stock are HIDDEN_CARD unless remembered."""
    engine.apply_move(board.obs, board.rules, move)
    board.legal[_LEGAL_COUNT] = _UNKNOWN


@jit_inline
def cards_home(view):
    """Cards on the foundations."""
    return engine.foundation_cards(view.obs)


# --- randomness: the policy's own stream, keyed by (seed, deal, policy name) --------------

@jit_inline
def random_below(rng, n):
    """A uniform integer in 0..n-1 from the policy's stream."""
    return below(rng, n)


@jit_inline
def random_float(rng):
    """A uniform float in [0, 1) from the policy's stream."""
    return (next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


# --- declarations --------------------------------------------------------------------------

@dataclass(frozen=True)
class Field:
    """A field of a policy's memory or workspace: an array (or a scalar, shape ()) of `dtype`,
    filled with `fill`, or shaped by `init(array)` when given."""

    dtype: Any
    shape: tuple = ()
    fill: float = 0
    init: Callable[[np.ndarray], None] | None = None


def array(dtype, shape=(), fill=0, init=None) -> Field:
    """Declare a memory or workspace field: `api.array(np.int64, 4096)`."""
    return Field(np.dtype(dtype), (shape,) if isinstance(shape, int) else tuple(shape), fill,
                 init)


def scalar(dtype, fill=0) -> Field:
    """Declare a memory field holding one number: `memory.count`."""
    return Field(np.dtype(dtype), (), fill)


def params_dtype(parameters: dict) -> np.dtype:
    """The record of a policy's parameters, read by name in compiled code: an int64 field for an
    integer, a flag or a choice (a plain int or bool default), a float64 one for a number."""
    typed = declared(parameters)
    if not typed:
        return np.dtype([("_", np.int64)], align=True)
    return np.dtype([(n, np.dtype(np.int64) if p.is_integral else np.dtype(np.float64))
                     for n, p in typed.items()], align=True)


def _nothing_recalled(recollection: np.ndarray) -> None:
    recollection[0, S.pile_span(S.STOCK)] = HIDDEN


def recollection() -> Field:
    """Declare, in ``memory``, the player's memory of the deal that ``recall`` keeps."""
    return Field(np.dtype(np.int16), (2, S.SIZE), 0, _nothing_recalled)


def legal_room() -> Field:
    """Declare, in ``workspace``, room for the legal moves of a view made by ``view_of``."""
    return Field(np.dtype(np.int64), (S.MAX_LEGAL_MOVES + 1,), _UNKNOWN)


def _blank_boards(boards: np.ndarray) -> None:
    boards[:, S.pile_span(S.STOCK)] = HIDDEN
    boards[:, S.SIZE + _LEGAL_COUNT] = _UNKNOWN


def boards(count: int) -> Field:
    """Declare, in ``workspace``, `count` boards to try moves on (``board``, ``play``)."""
    return Field(np.dtype(np.int16), (count, S.SIZE + S.MAX_LEGAL_MOVES + 1), 0, _blank_boards)


def new_arrays(fields: dict) -> dict:
    """Arrays of the declared fields (name -> Field), filled as a policy's are: for code that
    calls compiled helpers directly (tests, benchmarks)."""
    arrays = {}
    for name, field in fields.items():
        arrays[name] = np.full(field.shape, field.fill, dtype=field.dtype)
        if field.init is not None:
            field.init(arrays[name])
    return arrays


def require(values: dict, name: str, low: float, high: float | None = None) -> None:
    """For a ``check``: refuse parameter `name` below `low` (or above `high`) in one line."""
    value = values[name]
    if value < low or (high is not None and value > high):
        limits = f"at least {low:g}" if high is None else f"{low:g} to {high:g}"
        raise ValueError(f"{name} must be {limits}, not {value:g}")


class CompiledPolicy:
    """Base class of compiled policies; see the module docstring for what a subclass declares.

    ``memory`` and ``workspace`` may also be static functions of the parameter values (a dict)
    that return the declarations, for sizes that depend on a parameter.
    """

    parameters: ClassVar[dict[str, Parameter | int | float]] = {}
    memory: ClassVar[Any] = {}
    workspace: ClassVar[Any] = {}

    @staticmethod
    def check(values: dict) -> None:
        """Raise ValueError, in one line, for parameter values (name -> value) out of range;
        called before any deal is played."""

    @staticmethod
    def choose(view, params, memory, rng):  # pragma: no cover - overridden
        raise NotImplementedError


def is_compiled_policy(obj: Any) -> bool:
    return isinstance(obj, type) and issubclass(obj, CompiledPolicy) and obj is not CompiledPolicy
