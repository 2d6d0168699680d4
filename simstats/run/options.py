"""A run's options and identity, and its plan: the chunks of deals each game and policy plays
(`plan_chunks`), their default size (`chunk_size_for`), and the parsing of deal counts
(`--games 1e6`, `--policy planner@5e3`)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..engine import RULES_VERSION
from ..engine.deals import DEAL_STREAM_VERSION
from ..policies import resolve_policy
from ..search import SEARCH_VERSION
from .records import (
    Chunk,
    read_manifest,
)

DEFAULT_CHUNK_SIZE = 50_000  # the most deals of a chunk that chunk_size_for chooses
LEAST_DEFAULT_CHUNK = 1_000  # and the fewest, unless the run has fewer deals
CHUNKS_PER_PAIR = 8  # chunks per game and policy that chunk_size_for aims at


@dataclass(frozen=True)
class RunOptions:
    games: int
    game_ids: tuple[str, ...]
    policies: tuple[str, ...]
    seed: int = 0
    chunk_size: int = DEFAULT_CHUNK_SIZE
    workers: int = 1
    out: Path = Path("results/run")
    backend: str = "local"
    scheduler: str | None = None
    quiet: bool = False
    command: tuple[str, ...] = field(default=(), compare=False)
    # Policies given a deal count of their own (`planner@5e3`): (name, deals, chunk size).
    own_counts: tuple[tuple[str, int, int], ...] = ()
    # --precision: play each game and policy until its interval is at most this many points
    # either side (precision.py), its deal count at most.
    precision: float | None = None

    def deals_of(self, policy: str) -> int:
        """Deals 0..n-1 of each game that `policy` plays: its own count, else --games."""
        return next((n for name, n, _ in self.own_counts if name == policy), self.games)

    def chunk_size_of(self, policy: str) -> int:
        return next((size for name, _, size in self.own_counts if name == policy),
                    self.chunk_size)

    def total_deals(self) -> int:
        return len(self.game_ids) * sum(self.deals_of(p) for p in self.policies)

    def identity(self) -> dict:
        """What fixes a run's results; a resumed run must match it exactly. A policy's name
        does not fix its parameter values (a default may change between versions), so they
        are part of it too; nor, for a policy that searches, the search's proofs and order
        (SEARCH_VERSION)."""
        identity = {
            "games": self.games,
            "game": list(self.game_ids),
            "policy": list(self.policies),
            "parameters": {name: policy_parameters(name) for name in self.policies},
            "search_version": (SEARCH_VERSION if any(policy_searches(name)
                                                     for name in self.policies) else None),
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "rules_version": RULES_VERSION,
            "deal_stream_version": DEAL_STREAM_VERSION,
        }
        if self.own_counts:  # absent otherwise: runs made before still resume
            identity["policy_deals"] = {name: n for name, n, _ in self.own_counts}
            identity["policy_chunk_size"] = {name: size for name, _, size in self.own_counts}
        if self.precision is not None:
            identity["precision"] = self.precision
        return identity


def chunk_size_for(games: int, out: Path | None, given: int | None = None,
                   policy: str | None = None, precision: float | None = None) -> int:
    """The chunk size of a run: `given` (--chunk-size); else the one of the run in `out`, so
    that the same command resumes a run whatever the default was when it began; else a game
    and policy's deals in CHUNKS_PER_PAIR chunks of LEAST_DEFAULT_CHUNK to DEFAULT_CHUNK_SIZE.
    A run of one costly policy then keeps every core busy and its progress bar moving, and an
    interruption loses little; a million deals are still chunks of 50,000, not files of a few.
    It does not depend on the workers, so that a run resumes on any machine. With `policy`,
    the chunk size of that policy's own deal count (`games`). With a precision target, chunks
    are at most those of the target (precision.chunk_size_for_target), to stop near it."""
    if given:
        return int(given)
    existing = (read_manifest(Path(out)) if out is not None else None) or {}
    identity = existing.get("identity", {})  # read_manifest: an object
    recorded = (identity.get("chunk_size") if policy is None else
                (identity.get("policy_chunk_size") or {}).get(policy))
    if isinstance(recorded, int) and recorded > 0:
        return recorded
    share = -(-games // CHUNKS_PER_PAIR)
    size = min(games, max(LEAST_DEFAULT_CHUNK, min(DEFAULT_CHUNK_SIZE, share)))
    if precision is not None:
        from .precision import chunk_size_for_target

        size = min(size, chunk_size_for_target(precision))
    return size


def parse_count(value, what: str = "deals") -> int:
    """A whole positive number of deals (or other things) as a user writes it: 1e6, 250000,
    1_000_000. ValueError, in words for the user, otherwise."""
    from decimal import Decimal, InvalidOperation

    if isinstance(value, int) and not isinstance(value, bool):
        number = Decimal(value)
    else:
        try:
            number = Decimal(str(value).strip().replace("_", ""))
        except InvalidOperation:
            raise ValueError(f"{value!r} is not a number of {what} "
                             "(e.g. 1e6, 250000, 1_000_000)") from None
    if not number.is_finite() or number != number.to_integral_value():
        raise ValueError(f"{value!r} is not a whole number of {what}")
    if number < 1:
        raise ValueError(f"{value!r} must be at least 1")
    if number >= 2**63:
        raise ValueError(f"{value!r} is too large")
    return int(number)


def split_policy_count(text: str) -> tuple[str, int | None]:
    """A policy as --policy gives it: its name and its own deal count, a suffix `@N` after
    its parameters (`planner@5e3`, `solver[restarts=22]@2e4`; N as --games takes it)."""
    name, at, count = text.rpartition("@")
    if not at or any(c in count for c in "[]:/\\"):  # an @ within a plugin's path
        return text, None
    try:
        return name, parse_count(count)
    except ValueError as error:
        raise ValueError(f"--policy {text!r}: {error}") from None


def policies_and_counts(texts: Iterable[str]) -> tuple[tuple[str, ...], dict[str, int]]:
    """The policies of --policy values, each once, and the deal counts given to some; a
    policy given twice with two counts is refused (ValueError)."""
    policies: dict[str, int | None] = {}
    for text in texts:
        name, count = split_policy_count(text)
        if name in policies and policies[name] != count:
            raise ValueError(f"policy {name!r} is given twice with different deal counts; "
                             "give it once")
        policies[name] = count
    return tuple(policies), {n: c for n, c in policies.items() if c is not None}


def policy_parameters(name: str) -> dict | None:
    """Every parameter value a policy plays with, its defaults included; None for a Python
    policy, which has none. The oracle first plays as its fair player, whose values are the
    `player.` ones."""
    spec = resolve_policy(name)
    if not spec.compiled:
        return None
    values = {key: float(value) for key, value in spec.values.items()}
    if spec.oracle:
        values.update({f"player.{key}": float(value) for key, value in spec.player_values.items()})
    return values


def policy_searches(name: str) -> bool:
    spec = resolve_policy(name)
    return spec.compiled and spec.searches


def plan_chunks(options: RunOptions) -> list[Chunk]:
    """Every chunk of the run, in (game, policy, deal) order."""
    chunks = []
    for gi, game in enumerate(options.game_ids):
        for pi, policy in enumerate(options.policies):
            deals, size = options.deals_of(policy), options.chunk_size_of(policy)
            for start in range(0, deals, size):
                count = min(size, deals - start)
                chunks.append(Chunk(gi, game, pi, policy, start, count))
    return chunks


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """'1 game', '2 games', '20,000 deals'."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def default_workers() -> int:
    counter = getattr(os, "process_cpu_count", None)
    if counter is not None:
        return counter() or 1
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def default_out_dir() -> Path:
    return Path("results") / datetime.now().strftime("run-%Y%m%d-%H%M%S")
