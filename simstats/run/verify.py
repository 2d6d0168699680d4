"""`simstats verify RUN`: plays a seeded sample of a run's chunks again with today's code and
compares every outcome with what the run recorded, so that a result kept for months (or
committed) says whether it still is what today's simstats makes.

What is compared depends on what the folder keeps: every outcome of every deal (deals/, a run
as `simstats run` leaves it), who won each deal (wins.npz, a committed run), or, for older
committed runs, only each chunk's count of wins (its manifest). A chunk is replayed exactly as
the run played it: a chunk's outcomes depend on (game, policy, seed, deals) alone.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..engine import RULES_VERSION
from ..engine.deals import DEAL_STREAM_VERSION
from ..engine.state import END_AT, END_NAMES, OUTCOME_COLUMNS, WON_AT
from ..policies import PolicyError
from ..search import SEARCH_VERSION
from .options import RunOptions, plan_chunks, policy_parameters
from .records import (
    DEALS_DIR,
    MANIFEST,
    Chunk,
    DamagedChunk,
    WinsDamaged,
    read_chunk,
    read_manifest,
    read_wins,
)
from .runner import play_chunk

SHOWN_DIFFERENCES = 3  # deals named when outcomes differ


class VerifyError(ValueError):
    """A folder that cannot be verified, said in one line."""


@dataclass(frozen=True)
class Check:
    """One chunk to replay, and the deals of it to compare (all, or a sample)."""

    chunk: Chunk
    deals: tuple[int, ...] | None  # None: the whole chunk


@dataclass
class Verdict:
    checked_chunks: int
    chunks: int
    deals: int
    record: str  # what was compared: "every outcome", "who won", "wins per chunk"
    differences: list[str]  # one line a differing deal or chunk, the first SHOWN_DIFFERENCES
    differing: int  # how many deals (or chunks) differ
    causes: list[str]  # what changed since the run was made, where the manifest says

    @property
    def identical(self) -> bool:
        return self.differing == 0

    def text(self, run_dir) -> str:
        """What `simstats verify` prints: one line, then, where outcomes differ, the first
        deals that do and what can have caused it."""
        what = (f"{run_dir}: {self.checked_chunks:,} of {self.chunks:,} chunks, "
                f"{self.deals:,} deals ({self.record} compared)")
        if self.identical:
            return f"{what}: identical"
        unit = "chunks" if self.record == "wins per chunk" else "deals"
        why = "; ".join(self.causes) if self.causes else (
            "the rules, deal stream and search versions and the parameters recorded are "
            "today's: a policy's code changed since the run was made")
        return "\n".join([f"{what}: {self.differing:,} {unit} differ",
                          *(f"  {line}" for line in self.differences), f"  {why}"])


def options_of(manifest: dict) -> RunOptions:
    """The options that plan a recorded run's chunks, from its manifest's identity."""
    identity = manifest["identity"]
    own = identity.get("policy_deals") or {}
    sizes = identity.get("policy_chunk_size") or {}
    return RunOptions(games=int(identity["games"]), game_ids=tuple(identity["game"]),
                      policies=tuple(identity["policy"]), seed=int(identity.get("seed", 0)),
                      chunk_size=int(identity["chunk_size"]),
                      own_counts=tuple((name, int(n), int(sizes.get(name, identity["chunk_size"])))
                                       for name, n in own.items()))


def sample_checks(chunks: list[Chunk], fraction: float, deals: int | None,
                  seed: int) -> list[Check]:
    """In each game and policy, `fraction` of its chunks (at least one) drawn at random; of
    each, `deals` deals drawn at random, or all of them. Seeded: the same sample every time."""
    rng = np.random.default_rng(seed)
    cells: dict[tuple[str, str], list[Chunk]] = {}
    for chunk in chunks:
        cells.setdefault((chunk.game, chunk.policy), []).append(chunk)
    checks = []
    for cell in cells.values():
        take = min(len(cell), max(1, math.ceil(fraction * len(cell) - 1e-9)))
        for i in sorted(rng.choice(len(cell), size=take, replace=False)):
            chunk = cell[i]
            if deals is None or deals >= chunk.count:
                checks.append(Check(chunk, None))
            else:
                picked = rng.choice(chunk.count, size=deals, replace=False)
                checks.append(Check(chunk, tuple(chunk.start + int(d) for d in sorted(picked))))
    return checks


def replay(check: Check, seed: int) -> np.ndarray:
    """The outcome rows of the check's deals, played today."""
    rows, _ = play_chunk(check.chunk, seed, check.deals)
    return rows


def _recorded_rows(run_dir: Path, manifest: dict, chunk: Chunk) -> np.ndarray:
    """A chunk's outcome rows as the run wrote them, its file checked against its digest."""
    path = run_dir / DEALS_DIR / chunk.name
    try:
        table = read_chunk(path, manifest, list(OUTCOME_COLUMNS))
    except DamagedChunk as error:
        raise VerifyError(str(error)) from None
    if table.num_rows != chunk.count:
        raise VerifyError(f"{path} holds {table.num_rows:,} deals, not {chunk.count:,}")
    rows = np.empty((chunk.count, len(OUTCOME_COLUMNS)), dtype=np.int32)
    for i, name in enumerate(OUTCOME_COLUMNS):
        column = table.column(name).to_numpy(zero_copy_only=False)
        rows[:, i] = [END_NAMES.index(v) for v in column] if i == END_AT else column
    return rows


def _describe(row: np.ndarray) -> str:
    return ", ".join(f"{name} {END_NAMES[v] if i == END_AT else int(v)}"
                     for i, (name, v) in enumerate(zip(OUTCOME_COLUMNS, row, strict=True)))


def causes_of_difference(manifest: dict) -> list[str]:
    """What the manifest says changed since the run was made: the rules, the deal stream, the
    search, a policy's parameters. Empty where nothing recorded changed."""
    identity = manifest.get("identity", {})
    causes = []
    for what, key, today in (("rules", "rules_version", RULES_VERSION),
                             ("deal stream", "deal_stream_version", DEAL_STREAM_VERSION),
                             ("search", "search_version", SEARCH_VERSION)):
        then = identity.get(key, manifest.get(key))
        if then is not None and then != today:
            causes.append(f"the {what} version was {then}, it is {today} today")
    for name, values in (identity.get("parameters") or {}).items():
        try:
            now = policy_parameters(name)
        except PolicyError:
            continue
        if values is not None and now is not None and values != now:
            changed = sorted(k for k in set(values) | set(now) if values.get(k) != now.get(k))
            causes.append(f"{name}'s parameters changed ({', '.join(changed)})")
    return causes


def verify(run_dir: Path, fraction: float = 1.0, deals: int | None = None, seed: int = 0,
           workers: int = 1, progress: Callable[[int], None] | None = None) -> Verdict:
    """Replay a sample of the run's finished chunks and compare them with its records."""
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    if manifest is None or "identity" not in manifest:
        raise VerifyError(f"{run_dir} is not a simstats run (no readable {MANIFEST})")
    try:
        options = options_of(manifest)
    except (KeyError, TypeError, ValueError) as error:
        raise VerifyError(f"{run_dir}/{MANIFEST} lacks part of a run's identity "
                          f"({error})") from None
    seed_of_run = options.seed
    done = manifest.get("chunks", {})
    chunks = [c for c in plan_chunks_checked(options) if c.name in done]
    if not chunks:
        raise VerifyError(f"{run_dir} has no finished chunk to verify")
    has_deals = all((run_dir / DEALS_DIR / c.name).is_file() for c in chunks)
    try:
        kept_wins = {} if has_deals else read_wins(run_dir)
    except WinsDamaged as error:
        raise VerifyError(str(error)) from None
    if has_deals:
        record = "every outcome"
    elif kept_wins and all((c.game, c.policy) in kept_wins for c in chunks):
        record = "who won"
    else:
        record = "wins per chunk"
        deals = None  # a chunk's count of wins needs all its deals
    checks = sample_checks(chunks, fraction, deals, seed)
    differences: list[str] = []
    differing = compared = 0
    with contextlib.ExitStack() as stack:
        play = map  # one worker: in this process
        if workers > 1:
            play = stack.enter_context(ProcessPoolExecutor(
                workers, mp_context=multiprocessing.get_context("fork"))).map
        played = play(replay, checks, [seed_of_run] * len(checks))
        for check, today in zip(checks, played, strict=True):
            chunk = check.chunk
            wanted = (np.arange(chunk.start, chunk.start + chunk.count)
                      if check.deals is None else np.array(check.deals))
            compared += len(wanted)
            if record == "wins per chunk":
                then, now = int(done[chunk.name]["wins"]), int(today[:, WON_AT].sum())
                if then != now:
                    differing += 1
                    differences.append(f"{chunk.label}: {then:,} wins recorded, {now:,} today")
            else:
                if record == "every outcome":
                    then_rows = _recorded_rows(run_dir, manifest, chunk)[wanted - chunk.start]
                    same = (then_rows == today).all(axis=1)
                else:
                    then_won = kept_wins[chunk.game, chunk.policy][wanted]
                    same = then_won == today[:, WON_AT]
                for i in np.flatnonzero(~same):
                    differing += 1
                    if len(differences) < SHOWN_DIFFERENCES:
                        deal = f"{chunk.game}/{chunk.policy} deal {int(wanted[i])}"
                        differences.append(
                            f"{deal}: recorded {_describe(then_rows[i])}; today "
                            f"{_describe(today[i])}" if record == "every outcome" else
                            f"{deal}: recorded {'won' if then_won[i] == 1 else 'lost'}, today "
                            f"{'won' if today[i, WON_AT] else 'lost'}")
            if progress is not None:
                progress(1)
    return Verdict(checked_chunks=len(checks), chunks=len(chunks), deals=compared, record=record,
                   differences=differences[:SHOWN_DIFFERENCES], differing=differing,
                   causes=causes_of_difference(manifest) if differing else [])


def plan_chunks_checked(options: RunOptions) -> list[Chunk]:
    """The run's chunks, refused in one line where a policy no longer exists."""
    try:
        for name in options.policies:
            policy_parameters(name)
    except PolicyError as error:
        raise VerifyError(f"cannot replay the run: {error}") from None
    return plan_chunks(options)

