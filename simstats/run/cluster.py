"""The Dask backend of `simstats run`: chunks play on a local cluster or at `--scheduler`.
Worker log records reach run.log through `Client.forward_logging`: this process re-emits them on
its "simstats" logger, with the worker's process name and pid (tests/run/test_cluster.py checks it).
"""

from __future__ import annotations

import contextlib
import logging
import signal

import distributed
from distributed.diagnostics.plugin import WorkerPlugin

from .records import DEALS_DIR, INFLIGHT, RunError, remove_partial_files

log = logging.getLogger("simstats")

CONNECT_SECONDS = 10
# Loggers through which Dask and tornado print to stderr, each with its own handler.
DASK_LOGGERS = ("distributed", "distributed.client", "tornado")


class _WorkerSetup(WorkerPlugin):
    """Run on every worker, also on one that Dask restarts after a loss."""

    def __init__(self, local: bool):
        self.local = local

    def setup(self, worker) -> None:
        # Records below the logger's level (WARNING by default) would never reach forwarding.
        logging.getLogger("simstats").setLevel(logging.INFO)
        logging.getLogger("simstats").addHandler(logging.NullHandler())  # no stray stderr lines
        if self.local:
            # Ctrl-C reaches our workers too; we stop them ourselves, without their tracebacks.
            signal.signal(signal.SIGINT, signal.SIG_IGN)


def execute_dask(run, chunks, on_done, play_chunk) -> None:
    """Play `chunks` of `run` on Dask workers with `play_chunk(run_dir, chunk, seed)` (the
    runner's, passed in so that this module never imports the runner), each result recorded in
    the run and passed to `on_done`."""
    with contextlib.ExitStack() as stack:
        # Closing the client and our cluster, above all on Ctrl-C, can make the scheduler log a
        # CRITICAL "Closed comm ... while trying to write" traceback (a message for the client
        # just closed). Nothing is lost by then: Dask is silent while it closes (LIFO: silenced
        # first, restored last).
        loggers = [logging.getLogger(name) for name in DASK_LOGGERS]
        for logger in loggers:
            stack.callback(logger.setLevel, logger.level)
        if run.options.scheduler:
            client = _connect(run.options.scheduler)
        else:
            cluster = distributed.LocalCluster(
                n_workers=run.options.workers, threads_per_worker=1, processes=True,
                host="127.0.0.1", dashboard_address=None, silence_logs=logging.CRITICAL)
            stack.callback(cluster.close, timeout=5)
            client = distributed.Client(cluster)
        stack.callback(client.close, timeout=5)
        for logger in loggers:
            stack.callback(logger.setLevel, logging.CRITICAL + 1)
        client.register_plugin(_WorkerSetup(local=not run.options.scheduler), name="simstats")
        client.forward_logging("simstats", level=logging.INFO)
        log.info("dask scheduler %s, %d workers", client.scheduler.address,
                 len(client.scheduler_info()["workers"]))
        _play(client, run, chunks, on_done, play_chunk)


def check_scheduler(address: str) -> None:
    """Fail at once, in one line, when the scheduler cannot be reached: before any compiling."""
    _connect(address).close(timeout=5)


def _connect(address: str) -> distributed.Client:
    try:
        return distributed.Client(address, timeout=CONNECT_SECONDS)
    except Exception as error:  # refused, timed out, a bad address, or not a Dask scheduler
        raise RunError(f"cannot reach the Dask scheduler at {address}: {error}") from None


def _play(client, run, chunks, on_done, play_chunk) -> None:
    # Workers may not share our working directory, only (on a real cluster) the file system.
    run_dir = str(run.dir.resolve())
    futures = {client.submit(play_chunk, run_dir, chunk, run.options.seed, pure=False): chunk
               for chunk in chunks}
    names = {future.key: chunk.name for future, chunk in futures.items()}

    def on_event(event) -> None:
        message = event[1]
        if isinstance(message, dict) and message.get("action") == "remove-worker" \
                and not message.get("expected"):
            held = [names[k] for k in message.get("processing-tasks", ()) if k in names]
            log.warning("lost Dask worker %s; the chunks it held are played again: %s",
                        message.get("worker"), ", ".join(sorted(held)) or "none")

    client.subscribe_topic("all", on_event)
    try:
        _collect(run, futures, on_done)
    finally:
        # Else the scheduler may send us the event of our own leaving on a closed connection.
        client.unsubscribe_topic("all")
    # A worker killed mid-chunk leaves its marker and maybe a partial file; its chunk was redone.
    remove_partial_files(run.dir)
    for marker in (run.dir / DEALS_DIR).glob(f"{INFLIGHT}*"):
        marker.unlink(missing_ok=True)


def _collect(run, futures, on_done) -> None:
    for future in distributed.as_completed(futures):
        chunk = futures.pop(future)  # released at once, so Dask never recomputes a lost result
        try:
            result = future.result()
        except RunError:
            raise
        except distributed.KilledWorker:
            raise RunError(f"workers kept dying playing chunk {chunk.name} ({chunk.label}); "
                           "the run stops here") from None
        except Exception as error:
            raise RunError(f"chunk {chunk.name} ({chunk.label}) failed on a worker: "
                           f"{type(error).__name__}: {error}") from None
        del future
        run.record(result)
        on_done(result)
