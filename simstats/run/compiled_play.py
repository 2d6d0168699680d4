"""Playing chunks of deals in the compiled loop from Python: the policy's loop module compiled
(or loaded from the cache) and its memory made once, then `count` deals at a time, a policy's
failure named by the deal it failed on."""

from __future__ import annotations

import numpy as np

from ..engine.deals import policy_salt
from ..engine.games import Game
from ..engine.observe import blank_observation
from ..engine.state import END_AT, OUTCOME_COLUMNS
from ..policies import PolicyCompileError, PolicyError, PolicySpec
from ..policies.api import new_view
from ..policies.compiled import compile_reason, loop_module, new_play_work, no_outcomes
from .loops import ILLEGAL_CHOICE


def run_compiled(game: Game, spec: PolicySpec, seed: int, first_deal: int, count: int,
                 on_compile=None):
    """Outcomes of `count` deals from `first_deal` as an int32 array (columns OUTCOME_COLUMNS)."""
    return prepared_loop(game, spec, seed, on_compile)(first_deal, count)


def prepared_loop(game: Game, spec: PolicySpec, seed: int, on_compile=None):
    """`play(first_deal, count)`, which returns run_compiled's outcomes, with the policy's code
    compiled (or loaded from the cache) and its memory made first: what `play` then takes is
    the deals' time alone."""
    loop = loop_module(spec, on_compile)
    work = new_play_work(spec, new_view(blank_observation(), game.array))
    args = (game.array, spec.params(), spec.oracle_budget(), policy_salt(spec.name), seed)
    try:
        loop.play(False, *args, 0, 0, no_outcomes(), work)  # compiles, or loads; plays nothing
    except Exception as error:
        raise PolicyCompileError(f"policy {spec.name!r}: "
                                 + compile_reason(error, spec.player_class)) from None

    def play(first_deal: int, count: int) -> np.ndarray:
        out = np.empty((count, len(OUTCOME_COLUMNS)), dtype=np.int32)
        try:
            loop.play(False, *args, first_deal, count, out, work)
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
            loop.play(False, *args, deal, 1, row, work)
        except Exception:
            return deal
    return f"{first_deal}-{first_deal + count - 1}"
