"""Playing a deal move by move, the one way Python code steps through a deal (`play`, traces,
Python policies, the notebook's positions). It runs the same compiled rules functions as the
compiled loop (run/loops.py), in the same order: status, observe, choose, check, apply.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..engine import rules as R
from ..engine.cards import card_text
from ..engine.deals import policy_salt
from ..engine.games import Game
from ..engine.moves import apply_move, foundation_cards, lay_out, status
from ..engine.notation import parse_move
from ..engine.observe import Observation, blank_observation, observe
from ..engine.state import (
    DEALS,
    END_NAMES,
    MOVES,
    ONGOING,
    REDEALS,
    RESHUFFLES,
    RESIGNED,
    WON,
    new_state,
)
from ..policies import CompiledPlayer, PolicyError, PolicySpec
from .playthrough import Outcome, Playthrough


def final_outcome(state: np.ndarray, end: int) -> Outcome:
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
        return final_outcome(self._state, end)


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
