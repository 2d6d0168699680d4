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
from pathlib import Path

import numpy as np

from ..engine.deals import deal_deck
from ..engine.games import get_game
from ..engine.state import OUTCOME_COLUMNS, WON_AT
from ..policies import PolicyError, resolve_policy
from .compiled_play import prepared_loop
from .folder import RunFolder, held_lock
from .move_by_move import play_deck
from .options import RunOptions, counted, plan_chunks
from .records import (
    DEALS_DIR,
    INFLIGHT,
    LOG,
    Chunk,
    RunError,
    RunRefused,
    chunk_digest,
    finished_chunks,
    load_chunk_writer,
    outcome_table,
    write_chunk,
)

log = logging.getLogger("simstats")
PARENT_WATCH_SECONDS = 0.5  # how often a worker checks that the run still lives


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
    if spec.compiled:
        play = prepared_loop(game, spec, seed)
        started = time.perf_counter()
        if len(deals) == chunk.count:  # the whole chunk: one call
            return play(chunk.start, chunk.count), time.perf_counter() - started
        rows = np.concatenate([play(deal, 1) for deal in deals])
        return rows, time.perf_counter() - started
    rows = np.empty((len(deals), len(OUTCOME_COLUMNS)), dtype=np.int32)
    policy = spec.make()

    started = time.perf_counter()
    for i, deal in enumerate(deals):
        deck, reshuffles = deal_deck(game.array, seed, deal)
        rows[i] = play_deck(game, spec, deck, seed, deal, reshuffles, policy=policy).outcome.row()
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
    if held_lock() is not None:
        os.close(held_lock())  # the run's lock is the parent's: it must end with the parent
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
        if spec.compiled:
            def compiling(_code, name=policy) -> None:
                echo(f"compiling {name} for this machine (once: later runs load it from the "
                     "cache)...")

            try:
                prepared_loop(get_game(options.game_ids[0]), spec, 0, on_compile=compiling)
            except PolicyError as error:
                raise RunRefused(str(error)) from None


ProgressFn = Callable[[dict], None]


def _execute_local(run: RunFolder, chunks: list[Chunk], on_done: ProgressFn) -> None:
    """Play chunks on forked worker processes; a chunk whose worker died is retried once."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    load_chunk_writer()
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
