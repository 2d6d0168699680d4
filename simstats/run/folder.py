"""One run folder: created or checked against the run it holds (its identity), locked for one
writer, its manifest kept, and the chunks still to play found from the files on disk, each
checked against its recorded digest (`RunFolder`)."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import asdict
from datetime import datetime
from pathlib import Path

from ..engine import RULES_VERSION
from ..engine.deals import DEAL_STREAM_VERSION
from ..version import __version__
from .options import RunOptions, plan_chunks
from .records import (
    DAMAGED_DIR,
    DEALS_DIR,
    INFLIGHT,
    MANIFEST,
    Chunk,
    RunRefused,
    check_chunk,
    chunk_digest,
    finished_chunks,
    read_manifest,
    remove_partial_files,
    write_json_atomically,
)

log = logging.getLogger("simstats")
LOCK = ".lock"  # in the run folder: held by the run that writes it (RunFolder._lock)
_HELD_LOCK: int | None = None  # this process's descriptor of its run's lock, if it holds one
# parts of a run's identity that older manifests lack: checked only where recorded
RECORDED_LATER = ("parameters", "search_version")


def now() -> str:
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
            self.manifest["resumed"] = [*existing.get("resumed", []), now()]
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
                "started": now(),
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
        os.pwrite(fd, f"pid {os.getpid()}, started {now()}".encode(), 0)
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
                    **(recorded or {"deals": chunk.count, "done": now()}),
                    "sha256": chunk_digest(path)}
        return [c for c in chunks if c.name not in done]

    def finish(self, status: str) -> None:
        self.manifest.update(status=status, ended=now())
        self.save()

    def record(self, result: dict) -> None:
        self.manifest["chunks"][result["name"]] = {
            "deals": result["deals"],
            "wins": result["wins"],
            "seconds": round(result["seconds"], 3),
            "play_seconds": round(result["play_seconds"], 6),  # report.us_per_deal
            "sha256": result["sha256"],  # checked when the run resumes and when it is read
            "done": now(),
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


def held_lock() -> int | None:
    """This process's descriptor of its run's lock, if it holds one: a forked worker closes
    it, so that the lock ends with the run's own process."""
    return _HELD_LOCK
