"""Filling the compile cache: each compiled policy's code (its batch loop, its move-by-move
choice, and for the oracle the search it runs from Python) built once per machine, several
policies at a time in processes of their own, so that runs, tests and a cluster's workers then
load it in a fraction of a second. Plays no more than one move of one deal per policy.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass

from ..engine.deals import deal_deck
from ..engine.games import get_game
from ..policies import PolicyError, resolve_policy
from ..policies.compiled import is_cached
from ..registry import BUILTIN_CLASSES, ORACLE_CLASSES
from .compiled_play import prepared_loop
from .move_by_move import DealInPlay, start_policy
from .solve import solve_deal

# The oracle's search as `simstats solve` runs it, stopped at once: enough to compile it.
ORACLE_WARM_UP_BUDGET = 1


@dataclass(frozen=True)
class Built:
    """What compiling one policy did: its name, how long it took, and whether anything had to
    be compiled (False: everything was in the cache already)."""

    policy: str
    seconds: float
    compiled: bool


def all_compiled_policies() -> list[str]:
    """Every built-in policy and the oracle: what `simstats compile` builds by default; `solver`
    first, whose search `planner` and the oracle then load instead of compiling it again."""
    return sorted([*BUILTIN_CLASSES, *ORACLE_CLASSES], key=lambda name: name != "solver")


def uncached(names: Iterable[str]) -> list[str]:
    """Those of policies `names` whose compiled loop is not in this machine's cache (checked
    without compiling or loading anything)."""
    return [name for name in names if not is_cached(resolve_policy(name))]


def build(name: str) -> Built:
    """Compile (or load) policy `name`'s code as every way of playing it uses it."""
    start = time.perf_counter()
    spec = resolve_policy(name)
    compiled: list[bool] = []
    game = get_game("tournament")
    prepared_loop(game, spec, 0, on_compile=lambda _spec: compiled.append(True))
    deck, reshuffles = deal_deck(game.array, 0, 0)
    if spec.oracle:
        solve_deal(game, deck, ORACLE_WARM_UP_BUDGET, 0, 0, reshuffles)
    else:
        player = spec.make()
        start_policy(player, spec, game, 0, 0)
        player.choose(DealInPlay(game, deck, reshuffles).observation())
    return Built(name, time.perf_counter() - start, bool(compiled))


def build_all(names: Iterable[str], workers: int,
              on_built: Callable[[Built], None] = lambda built: None) -> list[Built]:
    """Compile policies `names` in up to `workers` processes at a time, the first named first;
    `on_built` hears of each as it ends. Each policy's name is checked before any compiling."""
    names = list(dict.fromkeys(names))
    for name in names:
        if not resolve_policy(name).compiled:
            raise PolicyError(f"policy {name!r} is plain Python: it has nothing to compile")
    done: list[Built] = []
    # Forked: a worker starts with the package imported, and a policy given by file is found.
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max(1, min(workers, len(names))), mp_context=context) as pool:
        for future in as_completed([pool.submit(build, name) for name in names]):
            done.append(future.result())
            on_built(done[-1])
    return done
