"""Playing deals: the compiled batch loop for built-in policies, and the move-by-move loop for
traces and Python policies. Both run the same compiled rules functions in the same order:
status, observe, choose, check, apply.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .cards import card_text
from .deals import policy_salt, shuffled_deck, start_stream
from .engine.moves import apply_move, foundation_cards, is_legal, lay_out, status
from .engine.notation import move_text, parse_move
from .engine.observe import Observation, blank_observation, observe
from .engine.state import (
    DEALS,
    END_NAMES,
    MOVES,
    NO_MOVE,
    ONGOING,
    REDEALS,
    RESHUFFLES,
    RESIGNED,
    UNKNOWN,
    WON,
    new_state,
)
from .games import Game
from .jit import jit, jit_inline
from .policies import CompiledPolicy, PolicyError, PolicySpec
from .policies.compiled import ORACLE, SOLVER, choose_builtin, scratch_buffers, start_deal
from .policies.oracle import BUDGET as ORACLE_BUDGET
from .solver import (
    BEST_BUFFER,
    BEST_LENGTH,
    INFO_BUFFER,
    LINE_BUFFER,
    LINE_LENGTH,
    TABLE_BITS,
    solve_position,
    table_bits_for,
)
from .solver import LOST as PROVEN_LOST
from .solver import WON as SOLVED

OUTCOME_COLUMNS = ("reshuffles", "won", "foundation_cards", "moves", "deals", "redeals", "end")
ILLEGAL_CHOICE = -2


@dataclass(frozen=True)
class Outcome:
    won: bool
    foundation_cards: int
    moves: int
    deals: int
    redeals: int
    end: str
    reshuffles: int = 0

    def result(self) -> dict:
        """The `result` object of a trace (RULES.md section 10)."""
        return {
            "won": self.won,
            "foundation_cards": self.foundation_cards,
            "moves": self.moves,
            "deals": self.deals,
            "redeals": self.redeals,
            "end": self.end,
        }


@dataclass
class Playthrough:
    """One game played move by move: the moves (text, card moved or None) and the outcome."""

    game: str
    policy: str
    deck: list[int]
    seed: int
    deal: int | None
    moves: list[tuple[str, str | None]] = field(default_factory=list)
    outcome: Outcome | None = None


def _outcome(state: np.ndarray, end: int) -> Outcome:
    return Outcome(
        won=end == WON,
        foundation_cards=int(foundation_cards(state)),
        moves=int(state[MOVES]),
        deals=int(state[DEALS]),
        redeals=int(state[REDEALS]),
        end=END_NAMES[end],
        reshuffles=int(state[RESHUFFLES]),
    )


def start_policy(policy, spec: PolicySpec, game: Game, seed: int, deal: int) -> None:
    """Give a policy its own stream for this deal, keyed by (seed, deal, name)."""
    if isinstance(policy, CompiledPolicy):
        policy.seed_stream(seed, deal)
    elif hasattr(policy, "reset"):
        rng = np.random.default_rng([seed, deal, int(policy_salt(spec.name))])
        policy.reset(game.id, rng)


def play_deal(
    game: Game,
    spec: PolicySpec,
    deck,
    seed: int = 0,
    deal: int | None = None,
    reshuffles: int = 0,
    policy=None,
    on_move: Callable[[str, str | None, Observation], None] | None = None,
) -> Playthrough:
    """Play one deck move by move with any policy; `on_move` sees each move and the view after."""
    rules = game.array
    state = new_state()
    lay_out(state, rules, np.asarray(deck, dtype=np.int16))
    state[RESHUFFLES] = reshuffles
    policy = spec.make() if policy is None else policy
    start_policy(policy, spec, game, seed, 0 if deal is None else deal)
    play = Playthrough(game.id, spec.name, [int(c) for c in deck], seed, deal)
    obs_array = blank_observation()
    where = f"policy {spec.name!r} in {game.id}" + ("" if deal is None else f", deal {deal}")
    while True:
        end = status(state, rules)
        if end != ONGOING:
            break
        observe(state, rules, obs_array)
        obs = Observation(game.id, rules, obs_array.copy())
        try:
            choice = policy.choose(obs)
        except Exception as error:
            raise PolicyError(f"{where} raised {type(error).__name__}: {error}") from error
        if choice is None:
            end = RESIGNED
            break
        if not isinstance(choice, str) or choice not in obs.legal_moves:
            raise PolicyError(f"{where} chose {choice!r}, which is not a legal move")
        card = apply_move(state, rules, parse_move(choice))
        play.moves.append((choice, card_text(int(card)) if card >= 0 else None))
        if on_move is not None:
            observe(state, rules, obs_array)
            on_move(choice, play.moves[-1][1], Observation(game.id, rules, obs_array.copy()))
    play.outcome = _outcome(state, end)
    return play


@jit_inline
def play_compiled(state, obs, rules, code, params, stream, scratch):
    """The compiled twin of play_deal's loop for a built-in policy; returns the end code."""
    while True:
        end = status(state, rules)
        if end != ONGOING:
            return end
        observe(state, rules, obs)
        move = choose_builtin(code, params, obs, rules, stream, scratch)
        if move == NO_MOVE:
            return RESIGNED
        if not is_legal(state, rules, move):
            return ILLEGAL_CHOICE
        apply_move(state, rules, move)


@jit
def play_oracle(state, rules, budget, work):
    """The perfect-information oracle, which reads the state (stock order included): solve the
    deal, then play the winning line, or the line with most cards home. Returns the end code,
    UNKNOWN when the budget ran out before a win or a proof of loss."""
    verdict = solve_position(state, rules, budget, work)
    info = work[INFO_BUFFER]
    if verdict == SOLVED:
        line, length = work[LINE_BUFFER], info[LINE_LENGTH]
    else:
        line, length = work[BEST_BUFFER], info[BEST_LENGTH]
    for i in range(length):
        apply_move(state, rules, line[i])
    end = status(state, rules)
    if verdict != SOLVED and verdict != PROVEN_LOST:
        return UNKNOWN
    return RESIGNED if end == ONGOING else end


@jit
def play_deals(rules, code, params, salt, seed, first_deal, count, out, work):
    """Play deals first_deal.. with built-in policy `code`; one row of OUTCOME_COLUMNS each."""
    state, obs, deck, deck_stream, stream, scratch = work
    for i in range(count):
        deal = first_deal + i
        reshuffles = shuffled_deck(rules, seed, deal, deck_stream, deck)
        lay_out(state, rules, deck)
        start_stream(stream, seed, deal, salt)
        start_deal(code, scratch)
        if code == ORACLE:  # the fair solver's line first, then a search that reads the state
            end = play_compiled(state, obs, rules, SOLVER, params, stream, scratch)
            if end != WON:
                lay_out(state, rules, deck)
                end = play_oracle(state, rules, int(params[ORACLE_BUDGET]), scratch[4])
        else:
            end = play_compiled(state, obs, rules, code, params, stream, scratch)
        out[i, 0] = reshuffles
        out[i, 1] = end == WON
        out[i, 2] = foundation_cards(state)
        out[i, 3] = state[MOVES]
        out[i, 4] = state[DEALS]
        out[i, 5] = state[REDEALS]
        out[i, 6] = end


@dataclass
class Solution:
    """The oracle's verdict on one deal: won, lost (proven) or unknown, and the line it played
    (the winning line, else the one with the most cards home)."""

    verdict: str
    play: Playthrough
    positions: int  # positions the deciding search expanded (0 if the fair solver won)


def solve_deal(game: Game, deck, budget: int, seed: int = 0, deal: int | None = None,
               reshuffles: int = 0) -> Solution:
    """What `run --policy oracle` does for one deal, move by move: the fair `solver`'s play;
    if that does not win, a search that reads every card (simstats/solver.py)."""
    from .policies import BUILTINS, resolve_policy
    from .solver import INFO_BUFFER, NODES, RESULT_NAMES, search_buffers

    fair = play_deal(game, BUILTINS["solver"], deck, seed, deal, reshuffles)
    name = "oracle" if budget == resolve_policy("oracle").params[-1] else (
        f"oracle[budget={budget}]")
    if fair.outcome.won:
        fair.policy = name
        return Solution("won", fair, 0)
    rules = game.array
    state = new_state()
    lay_out(state, rules, np.asarray(deck, dtype=np.int16))
    state[RESHUFFLES] = reshuffles
    work = search_buffers(table_bits=table_bits_for(budget))
    verdict = int(solve_position(state, rules, budget, work))
    info = work[INFO_BUFFER]
    line, length = ((work[LINE_BUFFER], info[LINE_LENGTH]) if verdict == SOLVED
                    else (work[BEST_BUFFER], info[BEST_LENGTH]))
    play = Playthrough(game.id, name, [int(c) for c in deck], seed, deal)
    for move in line[:length]:
        card = apply_move(state, rules, int(move))
        play.moves.append((move_text(int(move)), card_text(int(card)) if card >= 0 else None))
    end = status(state, rules)
    play.outcome = _outcome(state, RESIGNED if end == ONGOING else end)
    return Solution(RESULT_NAMES[verdict], play, int(info[NODES]))


def _work_arrays(code: int, table_bits: int):
    """The compiled loop's scratch arrays, allocated here so that it never allocates."""
    return (
        new_state(),
        blank_observation(),
        np.empty(104, dtype=np.int16),
        np.zeros(1, dtype=np.uint64),
        np.zeros(1, dtype=np.uint64),
        scratch_buffers(code, table_bits),
    )


def run_compiled(game: Game, spec: PolicySpec, seed: int, first_deal: int, count: int):
    """Outcomes of `count` deals from `first_deal` as an int32 array (columns OUTCOME_COLUMNS)."""
    out = np.empty((count, len(OUTCOME_COLUMNS)), dtype=np.int32)
    salt = policy_salt(spec.name)
    params = np.array(spec.params or (0.0,), dtype=np.float64)
    bits = table_bits_for(int(params[ORACLE_BUDGET])) if spec.code == ORACLE else TABLE_BITS
    work = _work_arrays(spec.code, bits)
    play_deals(game.array, spec.code, params, salt, seed, first_deal, count, out, work)
    if count and out[:, 6].min() == ILLEGAL_CHOICE:
        bad = first_deal + int(np.argmax(out[:, 6] == ILLEGAL_CHOICE))
        raise PolicyError(f"policy {spec.name!r} in {game.id}, deal {bad} chose an illegal move")
    return out
