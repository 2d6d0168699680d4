"""`simstats run`: plans a run as chunks of deals, plays them on worker processes (or a Dask
cluster), writes each chunk's Parquet file as it completes, and resumes from what is on disk.

The only owner of engine state in a run. A chunk's content depends on (game, policy, seed,
deals) alone, so results are the same for any number of workers, chunk order or backend.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

import numpy as np

from .deals import DEAL_STREAM_VERSION, deal_deck
from .engine import RULES_VERSION
from .engine.state import OUTCOME_COLUMNS, WON_AT
from .games import get_game
from .policies import PolicyError, resolve_policy
from .records import (
    DAMAGED_DIR,
    DEALS_DIR,
    INFLIGHT,
    LOG,
    MANIFEST,
    Chunk,
    RunError,
    RunRefused,
    check_chunk,
    chunk_digest,
    finished_chunks,
    outcome_table,
    read_manifest,
    remove_partial_files,
    write_chunk,
    write_json_atomically,
)
from .simulate import compiled_player, play_deck
from .solver import SEARCH_VERSION
from .version import __version__

log = logging.getLogger("simstats")

DEFAULT_CHUNK_SIZE = 50_000  # the most deals of a chunk that chunk_size_for chooses
LEAST_DEFAULT_CHUNK = 1_000  # and the fewest, unless the run has fewer deals
CHUNKS_PER_PAIR = 8  # chunks per game and policy that chunk_size_for aims at
LOCK = ".lock"  # in the run folder: held by the run that writes it (RunFolder._lock)
PARENT_WATCH_SECONDS = 0.5  # how often a worker checks that the run still lives
_HELD_LOCK: int | None = None  # this process's descriptor of its run's lock, if it holds one
# parts of a run's identity that older manifests lack: checked only where recorded
RECORDED_LATER = ("parameters", "search_version")


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
    code = resolve_policy(name).compiled
    if code is None:
        return None
    values = {key: float(value) for key, value in code.values.items()}
    if code.oracle:
        values.update({f"player.{key}": float(value) for key, value in code.player_values.items()})
    return values


def policy_searches(name: str) -> bool:
    code = resolve_policy(name).compiled
    return code is not None and code.searches


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


def play_chunk(chunk: Chunk, seed: int,
               deals: tuple[int, ...] | None = None) -> tuple[np.ndarray, float]:
    """The outcome rows (simulate.OUTCOME_COLUMNS) of a chunk's deals, or of only `deals` of it
    (simstats verify's sample), and the seconds their play took: once the policy is ready
    (compiled or loaded, its memory made), so that a chunk's time per deal is the policy's, not
    the worker's start (measured: Tournament `foundation-only`, 2,000-deal chunks, 8 us a deal,
    and 160-190 us in a worker's first)."""
    game = get_game(chunk.game)
    spec = resolve_policy(chunk.policy)
    if deals is None:
        deals = tuple(range(chunk.start, chunk.start + chunk.count))
    if spec.compiled is not None:
        play = compiled_player(game, spec, seed)
        started = time.perf_counter()
        if len(deals) == chunk.count:  # the whole chunk: one call
            return play(chunk.start, chunk.count), time.perf_counter() - started
        rows = np.concatenate([play(deal, 1) for deal in deals])
        return rows, time.perf_counter() - started
    rows = np.empty((len(deals), len(OUTCOME_COLUMNS)), dtype=np.int32)
    policy = spec.make()
    from .engine.state import END_NAMES

    started = time.perf_counter()
    for i, deal in enumerate(deals):
        deck, reshuffles = deal_deck(game.array, seed, deal)
        o = play_deck(game, spec, deck, seed, deal, reshuffles, policy=policy).outcome
        rows[i] = (o.reshuffles, o.won, o.foundation_cards, o.moves, o.deals, o.redeals,
                   END_NAMES.index(o.end))
    return rows, time.perf_counter() - started


def run_chunk(run_dir: str, chunk: Chunk, seed: int) -> dict:
    """Worker task: play a chunk and write its file. Returns a small summary for the parent."""
    started = time.perf_counter()
    folder = Path(run_dir) / DEALS_DIR
    marker = folder / f"{INFLIGHT}{chunk.name}.{os.getpid()}"
    marker.touch()
    where = f"chunk {chunk.name} ({chunk.label})"
    log.info("%s: started", where)
    try:
        rows, play_seconds = play_chunk(chunk, seed)
        digest = chunk_digest(write_chunk(Path(run_dir), chunk, outcome_table(chunk, rows)))
    except PolicyError as error:
        log.error("%s: %s", where, error)
        raise RunError(str(error)) from None
    finally:
        marker.unlink(missing_ok=True)
    seconds = time.perf_counter() - started
    wins = int(rows[:, WON_AT].sum())
    log.info("%s: done in %.2f s, %d wins of %d", where, seconds, wins, chunk.count)
    return {"name": chunk.name, "deals": chunk.count, "wins": wins, "seconds": seconds,
            "play_seconds": play_seconds, "sha256": digest}


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


def _now() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


class RunFolder:
    """One run folder: its manifest, its log, and the chunks still to play."""

    def __init__(self, options: RunOptions):
        self.options = options
        self.dir = Path(options.out)
        self.manifest: dict = {}
        self.log_file: logging.Handler | None = None
        self._lock_fd: int | None = None

    # -- the folder -------------------------------------------------------------------------
    def open(self) -> None:
        """Create the folder, or check that it holds this very run; refuse anything else."""
        try:
            self._open()
        except OSError as error:
            self.unlock()
            raise RunRefused(f"cannot write the run folder {self.dir}: "
                             f"{error.strerror or error}; choose another --out") from None
        except BaseException:
            self.unlock()
            raise

    def _open(self) -> None:
        existing = read_manifest(self.dir)
        if existing is None and self.dir.exists() and any(p.name != LOCK
                                                          for p in self.dir.iterdir()):
            raise RunRefused(f"{self.dir} exists and is not a simstats run; choose another --out")
        self.dir.mkdir(parents=True, exist_ok=True)
        self._lock()
        existing = read_manifest(self.dir)  # again, now that no other run can write it
        if existing is not None:
            identity, theirs = self.options.identity(), existing.get("identity")
            if theirs is None:  # read_manifest leaves only an object or nothing
                raise RunRefused(f"{self.dir} holds a manifest.json without a run's identity; "
                                 "choose another --out")
            for key in RECORDED_LATER:
                if key not in theirs:  # written before runs recorded it: not checked
                    identity.pop(key)
            if theirs != identity:
                raise RunRefused(_refusal(self.dir, theirs, identity))
            self.manifest = existing
            self.manifest["resumed"] = [*existing.get("resumed", []), _now()]
        else:
            self.dir.mkdir(parents=True, exist_ok=True)
            self.manifest = {
                "simstats_version": __version__,
                "rules_version": RULES_VERSION,
                "deal_stream_version": DEAL_STREAM_VERSION,
                "command": list(self.options.command),
                "options": _jsonable(asdict(self.options)),
                "identity": self.options.identity(),
                "seed": self.options.seed,
                "started": _now(),
                "chunks": {},
            }
        (self.dir / DEALS_DIR).mkdir(exist_ok=True)
        remove_partial_files(self.dir)
        for marker in (self.dir / DEALS_DIR).glob(f"{INFLIGHT}*"):
            marker.unlink(missing_ok=True)
        self.manifest.update(status="running", ended=None, last_command=list(self.options.command))
        self.save()

    def _lock(self) -> None:
        """One writer per run folder: an exclusive lock on RUN/.lock for the whole run, held by
        an open file, so that a run killed in any way leaves no stale lock. The file says who
        holds it. Forked workers close their copy (_start_worker)."""
        import fcntl

        global _HELD_LOCK
        fd = os.open(self.dir / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode(errors="replace").strip()
            os.close(fd)
            raise RunRefused(f"{self.dir} is being written by another simstats run "
                             f"({holder or 'its process is starting'}); wait for it to end, "
                             "or stop it, then run this command again") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()}, started {_now()}".encode(), 0)
        self._lock_fd = _HELD_LOCK = fd

    def unlock(self) -> None:
        global _HELD_LOCK
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = _HELD_LOCK = None

    def save(self) -> None:
        write_json_atomically(self.dir / MANIFEST, self.manifest)

    def pending(self, echo: Callable[[str], None] = print) -> list[Chunk]:
        """The chunks still to play. Files are the truth: a chunk on disk is a chunk done, once
        checked against its recorded digest (or read whole, where none was recorded); a damaged
        one is moved aside to damaged/ and played again."""
        done = finished_chunks(self.dir)
        chunks = plan_chunks(self.options)
        self.manifest["chunks_total"] = len(chunks)
        for chunk in chunks:
            if chunk.name not in done:
                continue
            path = self.dir / DEALS_DIR / chunk.name
            recorded = self.manifest["chunks"].get(chunk.name)
            if not check_chunk(path, recorded, chunk.count):
                aside = _move_aside(self.dir, path)
                done.discard(chunk.name)
                self.manifest["chunks"].pop(chunk.name, None)
                message = (f"chunk {chunk.name} ({chunk.label}) was damaged: moved to "
                           f"{aside.relative_to(self.dir)}, played again")
                log.warning(message)
                echo(f"simstats run: {message}")
            elif not recorded or not recorded.get("sha256"):
                self.manifest["chunks"][chunk.name] = {
                    **(recorded or {"deals": chunk.count, "done": _now()}),
                    "sha256": chunk_digest(path)}
        return [c for c in chunks if c.name not in done]

    def finish(self, status: str) -> None:
        self.manifest.update(status=status, ended=_now())
        self.save()

    def record(self, result: dict) -> None:
        self.manifest["chunks"][result["name"]] = {
            "deals": result["deals"],
            "wins": result["wins"],
            "seconds": round(result["seconds"], 3),
            "play_seconds": round(result["play_seconds"], 6),  # report.us_per_deal
            "sha256": result["sha256"],  # checked when the run resumes and when it is read
            "done": _now(),
        }
        self.save()


def _move_aside(run_dir: Path, path: Path) -> Path:
    """Move a damaged chunk file into RUN/damaged/ under a name not yet taken there."""
    folder = run_dir / DAMAGED_DIR
    folder.mkdir(exist_ok=True)
    aside, n = folder / path.name, 1
    while aside.exists():
        n += 1
        aside = folder / f"{path.name}.{n}"
    os.replace(path, aside)
    return aside


def _jsonable(data: dict) -> dict:
    return {k: (str(v) if isinstance(v, Path) else v) for k, v in data.items()}


def _refusal(run_dir: Path, theirs: dict, ours: dict) -> str:
    """Why a folder's run cannot be resumed by this command, in one line."""
    unchecked = dict.fromkeys(RECORDED_LATER)
    if {**theirs, **unchecked} != {**ours, **unchecked}:
        return (f"{run_dir} holds a run of another command ({_describe(theirs)}); "
                "give the same options to resume it or choose another --out")
    if theirs.get("search_version") != ours.get("search_version"):
        return (f"{run_dir} holds a run whose policies searched with another version of the "
                f"search ({theirs.get('search_version')} then, {ours.get('search_version')} "
                "now), which wins other deals; choose another --out")
    changed = []
    for name in ours["parameters"]:
        then, now = theirs["parameters"].get(name) or {}, ours["parameters"][name] or {}
        changed += [f"{name} {key} {_value(then.get(key))} then, {_value(now.get(key))} now"
                    for key in {**then, **now} if then.get(key) != now.get(key)]
    return (f"{run_dir} holds a run whose policies played with other parameter values "
            f"({'; '.join(changed)}): their defaults changed since it started; "
            "choose another --out")


def _value(value: float | None) -> str:
    return "unset" if value is None else f"{value:g}"


def _describe(identity: dict) -> str:
    shown = ("games", "game", "policy", "policy_deals", "seed", "chunk_size", "precision")
    return ", ".join(f"{k} {v}" for k, v in identity.items() if k in shown)


class _QuietFileHandler(logging.FileHandler):
    """run.log's handler: a line that cannot be written (a full disk) is dropped, not printed
    to stderr with a traceback; the run says what failed in one line."""

    def handleError(self, record: logging.LogRecord) -> None:
        pass


def setup_logging(run_dir: Path) -> logging.Handler:
    """The parent writes run.log itself; forked workers send theirs through a pool's queue."""
    handler = _QuietFileHandler(run_dir / LOG, encoding="utf-8")
    handler.setFormatter(logging.Formatter(
        "%(asctime)s %(processName)s[%(process)d] %(levelname)s %(message)s"))
    log.setLevel(logging.INFO)
    log.addHandler(handler)
    log.propagate = False
    return handler


def close_logging() -> None:
    for handler in list(log.handlers):
        log.removeHandler(handler)
        handler.close()


class _Forward(logging.Handler):
    """Hands a worker's record to the parent's handler, under that handler's lock."""

    def __init__(self, target: logging.Handler):
        super().__init__()
        self.target = target

    def emit(self, record: logging.LogRecord) -> None:
        self.target.handle(record)


def _worker_log_handler(run_log: logging.Handler):
    """A multiprocessing-logging handler with a fresh queue, for one pool of forked workers.

    A worker killed while writing a record keeps the queue's write lock for ever: any later
    writer (and the exit of any process that wrote) would wait on it. So the parent never
    writes to the queue, and each pool gets its own.
    """
    from multiprocessing_logging import MultiProcessingHandler

    return MultiProcessingHandler("simstats-workers", sub_handler=_Forward(run_log))


def _start_worker(worker_log: logging.Handler, parent: int) -> None:
    # The parent owns Ctrl-C: it stops the workers itself, so they print no traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if _HELD_LOCK is not None:
        os.close(_HELD_LOCK)  # the run's lock is the parent's: it must end with the parent
    _end_with_parent(parent)
    for handler in list(log.handlers):
        log.removeHandler(handler)
    log.addHandler(worker_log)


def _end_with_parent(parent: int) -> None:
    """End this worker within a second of its parent's death (killed, say, by kill -9 or an
    out-of-memory killer), so that nothing writes into the run once its lock is gone. The
    compiled loops release the GIL, so the watch runs while a chunk plays."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def warm_up(options: RunOptions, echo: Callable[[str], None] = print) -> None:
    """Load (or compile) each compiled policy's loop once in the parent, so forked workers
    share it; say so while it compiles. Only the policies of this run are compiled."""

    for policy in options.policies:
        spec = resolve_policy(policy)
        if spec.compiled is not None:
            def compiling(_code, name=policy) -> None:
                echo(f"compiling {name} for this machine (once: later runs load it from the "
                     "cache)...")

            try:
                compiled_player(get_game(options.game_ids[0]), spec, 0, on_compile=compiling)
            except PolicyError as error:
                raise RunRefused(str(error)) from None


ProgressFn = Callable[[dict], None]


def _execute_local(run: RunFolder, chunks: list[Chunk], on_done: ProgressFn) -> None:
    """Play chunks on forked worker processes; a chunk whose worker died is retried once."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    todo = list(chunks)
    while todo:
        lost = _run_pool(run, todo, run.options.workers, context, on_done)
        if lost is None:
            return
        # A worker died. The chunks it may have held are retried one at a time, so that a
        # chunk that kills its worker again is named for sure.
        for chunk in lost:
            log.warning("a worker died while playing %s; retrying it once", chunk.name)
            if _run_pool(run, [chunk], 1, context, on_done) is not None:
                raise RunError(f"a worker died twice playing chunk {chunk.name} "
                               f"({chunk.label}); the run stops here")
        done = finished_chunks(run.dir)
        todo = [c for c in todo if c.name not in done]


def _run_pool(run: RunFolder, chunks: Iterable[Chunk], workers: int, context,
              on_done: ProgressFn) -> list[Chunk] | None:
    """Run chunks on a pool; if a worker died, return the chunks that were in flight."""
    worker_log = _worker_log_handler(run.log_file)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*fork.*", category=DeprecationWarning)
        executor = ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                                       initargs=(worker_log, os.getpid()))
    futures: dict[Future, Chunk] = {}
    try:
        for chunk in chunks:
            futures[executor.submit(run_chunk, str(run.dir), chunk, run.options.seed)] = chunk
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                try:
                    result = future.result()
                except BrokenProcessPool:
                    _stop(executor, worker_log)
                    return _chunks_in_flight(run, futures)
                run.record(result)
                on_done(result)
        executor.shutdown(wait=True)
        worker_log.close()  # every worker has exited: this waits only for their last lines
        return None
    except BaseException:
        _stop(executor, worker_log)
        raise


def _chunks_in_flight(run: RunFolder, futures: dict[Future, Chunk]) -> list[Chunk]:
    by_name = {chunk.name: chunk for chunk in futures.values()}
    names = set()
    for marker in (run.dir / DEALS_DIR).glob(f"{INFLIGHT}*"):
        names.add(marker.name[len(INFLIGHT):].rsplit(".", 1)[0])
        marker.unlink(missing_ok=True)
    return [by_name[n] for n in sorted(names) if n in by_name]


def _stop(executor: ProcessPoolExecutor, worker_log: logging.Handler) -> None:
    """Stop workers now: a chunk cut short leaves only a temporary file, removed on resume."""
    processes = list(getattr(executor, "_processes", {}).values())
    manager = getattr(executor, "_executor_manager_thread", None)
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.kill()
    for process in processes:
        process.join(timeout=5)
    # Let the pool's manager thread finish closing its wake-up pipe now: at exit, Python 3.11
    # writes to that pipe without its lock, and a close at the same moment printed a
    # "Bad file descriptor" traceback after a Ctrl-C (seen once in CI).
    if manager is not None:
        manager.join(timeout=5)
    # A worker killed mid-record leaves one counted that never arrives, and close() waits
    # 5 s for it (again at exit): close aside; what did arrive is still written.
    threading.Thread(target=worker_log.close, daemon=True).start()


def _play_to_target(run: RunFolder, play: Callable[[list[Chunk]], None], bar) -> None:
    """Play in rounds until every game and policy meets the precision target or has played
    all its deals (precision.py); the progress bar's total shrinks as cells settle."""
    from .precision import STOPPED, Target

    target = Target(run, run.options.precision)
    planned = plan_chunks(run.options)
    while True:
        todo = target.next_round(planned, finished_chunks(run.dir))
        settled = sum(entry["deals"] for entry in run.manifest[STOPPED].values())
        open_cells = {(c.game, c.policy) for c in planned} - {
            tuple(key.split("/", 1)) for key in run.manifest[STOPPED]}
        bar.total = settled + sum(run.options.deals_of(p) for _, p in open_cells)
        bar.n = settled + sum(run.manifest["chunks"].get(c.name, {}).get("deals", 0)
                              for c in planned if (c.game, c.policy) in open_cells)
        bar.refresh()
        if not todo:
            return
        log.info("precision round: %s", ", ".join(c.name for c in todo))
        play(todo)


def execute(options: RunOptions, echo: Callable[[str], None] = print) -> RunFolder:
    """Run (or resume) the whole run; returns the run when every chunk is on disk."""
    from tqdm import tqdm

    run = RunFolder(options)
    run.open()
    run.log_file = setup_logging(run.dir)
    try:
        chunks = run.pending(echo)
        total = options.total_deals()
        remaining = sum(c.count for c in chunks)
        resumed = " (resuming)" if total - remaining else ""
        own = ", ".join(f"{name} {n:,}" for name, n, _ in options.own_counts)
        echo(f"simstats run{resumed}: {counted(len(options.game_ids), 'game')} x "
             f"{counted(len(options.policies), 'policy', 'policies')} x "
             f"{counted(options.games, 'deal')}{f' ({own})' if own else ''}"
             f"{f' or +-{options.precision:g} points' if options.precision else ''}, "
             f"seed {options.seed}, "
             f"{counted(options.workers, 'worker')} -> {run.dir}")
        log.info("run started%s: %s", resumed, " ".join(options.command))
        if options.backend == "dask" and options.scheduler:
            from .cluster import check_scheduler

            check_scheduler(options.scheduler)
        warm_up(options, echo)
        bar = tqdm(total=total, initial=total - remaining, unit="deal", unit_scale=True,
                   disable=True if options.quiet else None, dynamic_ncols=True, smoothing=0.1)

        def on_done(result: dict) -> None:
            bar.update(result["deals"])

        def play(todo: list[Chunk]) -> None:
            if options.backend == "dask":
                from .cluster import execute_dask

                execute_dask(run, todo, on_done, run_chunk)
            else:
                _execute_local(run, todo, on_done)

        try:
            if options.precision is None:
                if chunks:
                    play(chunks)
            else:
                _play_to_target(run, play, bar)
        except KeyboardInterrupt:
            bar.close()
            run.finish("interrupted")
            log.warning("run interrupted")
            raise
        except OSError as error:  # a full disk, a folder made read-only, ...
            bar.close()
            with contextlib.suppress(OSError):  # the manifest may not be writable either
                run.finish("failed")
            log.error("run failed: %s", error)
            where = error.filename or run.dir
            raise RunError(f"cannot write {where}: {error.strerror or error}; make room (or "
                           "make the folder writable again) and run the same command to "
                           "resume") from None
        except BaseException as error:
            bar.close()
            run.finish("failed")
            log.error("run failed: %s", error)
            raise
        bar.close()
        run.finish("complete")
        log.info("run complete")
        return run
    finally:
        close_logging()
        run.unlock()
        sys.stdout.flush()
