"""Playing deals: the compiled batch loop for built-in policies, and the move-by-move loop for
traces and Python policies. Both run the same compiled rules functions in the same order:
status, observe, choose, check, apply.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .cards import DECK_SIZE, card_text, deck_text
from .deals import policy_salt
from .engine import RULES_VERSION
from .engine import rules as R
from .engine.moves import apply_move, foundation_cards, lay_out, status
from .engine.notation import move_text, parse_move
from .engine.observe import Observation, blank_observation, observe
from .engine.state import (
    DEALS,
    END_AT,
    END_NAMES,
    MOVES,
    ONGOING,
    OUTCOME_COLUMNS,
    REDEALS,
    RESHUFFLES,
    RESIGNED,
    WON,
    new_state,
)
from .games import Game
from .loops import ILLEGAL_CHOICE, PlayWork
from .policies import CompiledPlayer, PolicyCompileError, PolicyError, PolicySpec
from .policies.api import new_view
from .policies.compiled import compile_reason, loop_module
from .search import (
    played_line,
    solve_position,
    table_bits_for,
)
from .version import __version__


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
        """The `result` object of a trace (docs/rules.md section 10)."""
        return {name: getattr(self, name) for name in OUTCOME_COLUMNS if name != "reshuffles"}

    def row(self) -> list[int]:
        """The outcome row the compiled loop writes for this game (OUTCOME_COLUMNS), by name."""
        return [END_NAMES.index(self.end) if name == "end" else int(getattr(self, name))
                for name in OUTCOME_COLUMNS]


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


def trace(playthrough: Playthrough) -> str:
    """The JSON Lines trace of a playthrough (docs/rules.md section 10), as `simstats play --trace`
    writes it: a header, one line per move, and the result."""
    p = playthrough
    header: dict[str, Any] = {"game": p.game, "deck": deck_text(p.deck), "policy": p.policy,
                              "seed": p.seed}
    if p.deal is not None:
        header.update(deal=p.deal, reshuffles=p.outcome.reshuffles if p.outcome else 0)
    header.update(simstats=__version__, rules_version=RULES_VERSION)
    lines = [json.dumps(header)]
    for move, card in p.moves:
        lines.append(json.dumps({"move": move, "card": card} if card else {"move": move}))
    if p.outcome is not None:
        lines.append(json.dumps({"result": p.outcome.result()}))
    return "\n".join(lines) + "\n"


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
    if isinstance(policy, CompiledPlayer):
        policy.seed_stream(seed, deal)
    elif hasattr(policy, "reset"):
        rng = np.random.default_rng([seed, deal, int(policy_salt(spec.name))])
        policy.reset(game.id, rng)


class DealInPlay:
    """A deal being played move by move: the one way Python code steps through a deal
    (play_deck, the notebook's positions, `simstats play --show`). It keeps the state to itself
    and hands out only what the player sees."""

    def __init__(self, game: Game, deck, reshuffles: int = 0):
        self.game = game
        self._state = new_state()
        lay_out(self._state, game.array, np.asarray(deck, dtype=np.int16))
        self._state[RESHUFFLES] = reshuffles
        self._obs = blank_observation()

    def end(self) -> int:
        """The game's `end` code (engine/state.py), or ONGOING while it goes on."""
        return int(status(self._state, self.game.array))

    def observation(self, everything: bool = False) -> Observation:
        """What the player sees now, legal moves included; `everything`: buried cards too (what
        the oracle sees of the table; the stock's cards are never in an observation)."""
        rules = self.game.array
        if everything and rules[R.HIDE_BURIED]:
            rules = rules.copy()
            rules[R.HIDE_BURIED] = 0
        observe(self._state, rules, self._obs)
        return Observation(self.game.id, self.game.array, self._obs.copy())

    def play(self, move: str) -> str | None:
        """Make a legal move (text); the card it moved, or None for deal and redeal."""
        card = apply_move(self._state, self.game.array, parse_move(move))
        return card_text(int(card)) if card >= 0 else None

    def outcome(self, end: int) -> Outcome:
        return _outcome(self._state, end)


def play_deck(
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
    table = DealInPlay(game, deck, reshuffles)
    policy = spec.make() if policy is None else policy
    start_policy(policy, spec, game, seed, 0 if deal is None else deal)
    play = Playthrough(game.id, spec.name, [int(c) for c in deck], seed, deal)
    where = f"policy {spec.name!r} in {game.id}" + ("" if deal is None else f", deal {deal}")
    while True:
        end = table.end()
        if end != ONGOING:
            break
        obs = table.observation()
        try:
            choice = policy.choose(obs)
        except PolicyError:
            raise
        except Exception as error:
            raise PolicyError(f"{where} raised {type(error).__name__}: {error}") from error
        if choice is None:
            end = RESIGNED
            break
        if not isinstance(choice, str) or choice not in obs.legal_moves:
            raise PolicyError(f"{where} chose {choice!r}, which is not a legal move")
        play.moves.append((choice, table.play(choice)))
        if on_move is not None:
            on_move(choice, play.moves[-1][1], table.observation())
    play.outcome = table.outcome(end)
    return play


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
    if that does not win, a search that reads every card (simstats/search)."""
    from .policies import BUILTINS, resolve_policy
    from .search import NODES, RESULT_NAMES, search_buffers

    fair = play_deck(game, BUILTINS["solver"], deck, seed, deal, reshuffles)
    name = "oracle" if budget == resolve_policy("oracle").compiled.values["budget"] else (
        f"oracle[budget={budget}]")
    if fair.outcome.won:
        fair.policy = name
        return Solution("won", fair, 0)
    rules = game.array
    state = new_state()
    lay_out(state, rules, np.asarray(deck, dtype=np.int16))
    state[RESHUFFLES] = reshuffles
    work = search_buffers(table_bits=table_bits_for(budget), deep=True)
    verdict = int(solve_position(state, rules, budget, work))
    line, length = played_line.py_func(verdict, work)  # the oracle's own choice, in Python
    play = Playthrough(game.id, name, [int(c) for c in deck], seed, deal)
    for move in line[:length]:
        card = apply_move(state, rules, int(move))
        play.moves.append((move_text(int(move)), card_text(int(card)) if card >= 0 else None))
    end = status(state, rules)
    play.outcome = _outcome(state, RESIGNED if end == ONGOING else end)
    return Solution(RESULT_NAMES[verdict], play, int(work.info[NODES]))


def run_compiled(game: Game, spec: PolicySpec, seed: int, first_deal: int, count: int,
                 on_compile=None):
    """Outcomes of `count` deals from `first_deal` as an int32 array (columns OUTCOME_COLUMNS)."""
    return compiled_player(game, spec, seed, on_compile)(first_deal, count)


def compiled_player(game: Game, spec: PolicySpec, seed: int, on_compile=None):
    """`play(first_deal, count)`, which returns run_compiled's outcomes, with the policy's code
    compiled (or loaded from the cache) and its memory made first: what `play` then takes is
    the deals' time alone."""
    code = spec.compiled
    loop = compiled_loop(spec, on_compile)
    memory, memory_bytes, reset = code.new_memory()
    obs = blank_observation()
    work = PlayWork(state=new_state(), player_view=new_view(obs, game.array),
                    deck=np.empty(DECK_SIZE, dtype=np.int16),
                    deck_stream=np.zeros(1, dtype=np.uint64), stream=np.zeros(1, dtype=np.uint64),
                    memory=memory, memory_bytes=memory_bytes, reset=reset)
    args = (game.array, code.params(), code.oracle_budget(), policy_salt(spec.name), seed)
    try:
        loop.play_deals(*args, 0, 0, np.empty((0, len(OUTCOME_COLUMNS)), dtype=np.int32),
                        work)  # compiles, or loads, and plays nothing
    except Exception as error:
        raise PolicyCompileError(f"policy {spec.name!r}: "
                                 + compile_reason(error, code.player_class)) from None

    def play(first_deal: int, count: int) -> np.ndarray:
        out = np.empty((count, len(OUTCOME_COLUMNS)), dtype=np.int32)
        try:
            loop.play_deals(*args, first_deal, count, out, work)
        except Exception as error:
            raise PolicyError(f"policy {spec.name!r} in {game.id}, deal "
                              f"{_failing_deal(loop, args, first_deal, count, work)} raised "
                              f"{type(error).__name__}: {error}") from None
        if count and out[:, END_AT].min() == ILLEGAL_CHOICE:
            bad = first_deal + int(np.argmax(out[:, END_AT] == ILLEGAL_CHOICE))
            raise PolicyError(f"policy {spec.name!r} in {game.id}, deal {bad} chose an illegal "
                              "move")
        return out

    return play


def _failing_deal(loop, args, first_deal: int, count: int, work) -> int | str:
    """The first deal of a chunk on which the policy raises (played again one by one)."""
    row = np.empty((1, len(OUTCOME_COLUMNS)), dtype=np.int32)
    for deal in range(first_deal, first_deal + count):
        try:
            loop.play_deals(*args, deal, 1, row, work)
        except Exception:
            return deal
    return f"{first_deal}-{first_deal + count - 1}"


def compiled_loop(spec: PolicySpec, on_compile=None):
    """The policy's generated loop module (compiled, or loaded from the cache)."""
    return loop_module(spec.name, spec.compiled, on_compile)
