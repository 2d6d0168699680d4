"""What a run leaves on disk: the per-deal outcome schema, one Parquet file per chunk written
atomically, and the run manifest. No simulation here and no statistics.

A chunk file is named so that sorting names sorts rows by (game, policy, deal): the dataset
reads back as the same table whatever the chunk size, worker count or order of completion.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..engine.state import END_AT, END_NAMES, OUTCOME_FIELDS

DEALS_DIR = "deals"
MANIFEST = "manifest.json"
LOG = "run.log"
INFLIGHT = ".inflight-"  # a marker in the deals folder: this chunk is being played
WINS_FILE = "wins.npz"  # who won each deal, a bit a deal per cell (write_wins)


def deals_by_policy(identity: dict) -> dict[str, int]:
    """Deals 0..n-1 of each game that each policy of a run was asked to play: its own count
    (`--policy NAME@N`), else the run's --games."""
    own = identity.get("policy_deals") or {}
    return {p: int(own.get(p, identity.get("games", 0))) for p in identity.get("policy", [])}


class RunError(Exception):
    """A run that cannot start or go on; the message is one line for the user."""


class RunRefused(RunError):
    """The output folder holds something this command must not touch."""
COLUMNS = ("game", "policy", "deal", *(name for name, _ in OUTCOME_FIELDS))


def policy_slug(policy: str) -> str:
    """A policy's name as it appears in its chunk files' names."""
    return re.sub(r"[^A-Za-z0-9]+", "_", policy).strip("_") or "policy"


@dataclass(frozen=True)
class Chunk:
    """Deals [start, start + count) of one game and one policy in a run."""

    game_index: int
    game: str
    policy_index: int
    policy: str
    start: int
    count: int

    @property
    def name(self) -> str:
        return (f"{self.game_index:02d}-{self.game}--{self.policy_index:02d}-"
                f"{policy_slug(self.policy)}"
                f"--{self.start:012d}.parquet")

    @staticmethod
    def game_and_policy_index(name: str) -> tuple[str, int] | None:
        """The game and the policy's index in the run's options of a chunk file's name."""
        parts = name.split("--")
        if len(parts) < 3 or "-" not in parts[0] or "-" not in parts[1]:
            return None
        return parts[0].split("-", 1)[1], int(parts[1].split("-", 1)[0])

    @property
    def label(self) -> str:
        return f"{self.game}/{self.policy} deals {self.start}-{self.start + self.count - 1}"


def outcome_table(chunk: Chunk, rows: np.ndarray) -> pa.Table:
    """The Parquet table of a chunk from outcome rows (engine/state.py: OUTCOME_FIELDS)."""
    import pyarrow.compute as pc

    n = len(rows)
    # Strings taken by index in Arrow's own code: a Python string a row was a tenth of a
    # 50,000-deal chunk's time in the run of a fast policy.
    every_row = pa.array(np.zeros(n, dtype=np.int32))  # row 0 of a one-string array, n times
    table = {
        "game": pc.take(pa.array([chunk.game], pa.string()), every_row),
        "policy": pc.take(pa.array([chunk.policy], pa.string()), every_row),
        "deal": pa.array(np.arange(chunk.start, chunk.start + n, dtype=np.int64)),
    }
    for i, (name, kind) in enumerate(OUTCOME_FIELDS):
        if i == END_AT:
            table[name] = pc.take(pa.array(list(END_NAMES), pa.string()), pa.array(rows[:, i]))
        else:
            table[name] = pa.array(rows[:, i].astype(kind))
    return pa.table(table)


def load_chunk_writer() -> None:
    """Make a chunk's table and write it to memory once: the parent then holds Arrow's compute
    and Parquet code ready before it forks its workers, which start with it instead of each
    loading it for its first chunk (a quarter of a second)."""
    chunk = Chunk(0, "", 0, "", 0, 1)
    rows = np.zeros((1, len(OUTCOME_FIELDS)), dtype=np.int32)
    pq.write_table(outcome_table(chunk, rows), pa.BufferOutputStream(), compression="zstd")


def write_chunk(run_dir: Path, chunk: Chunk, table: pa.Table) -> Path:
    """Write a chunk file under a dot-name and rename it: it appears whole or not at all."""
    folder = run_dir / DEALS_DIR
    target = folder / chunk.name
    temporary = folder / f".{chunk.name}.{os.getpid()}.partial"
    try:
        pq.write_table(table, temporary, compression="zstd")
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)  # a full disk leaves no half file behind
        raise
    return target


DAMAGED_DIR = "damaged"  # chunk files found damaged, moved aside (not deleted) and replayed


class DamagedChunk(ValueError):
    """A chunk file that is not what was written; the message is one line for the user."""


def chunk_digest(path: Path) -> str:
    """The SHA-256 of a chunk file, recorded in the manifest when it is written."""
    import hashlib

    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def chunk_rows(path: Path) -> int | None:
    """The rows of a chunk file read whole, or None if it cannot be read."""
    try:
        return pq.read_table(path).num_rows
    except (OSError, pa.ArrowException):
        return None


def read_chunk(path: Path, manifest: dict, columns: list[str]) -> pa.Table:
    """A chunk file's `columns`, refused in one line (DamagedChunk) if the file is not the one
    written (its digest in the manifest) or cannot be read."""
    recorded = manifest.get("chunks", {}).get(path.name) or {}
    try:
        if recorded.get("sha256") and chunk_digest(path) != recorded["sha256"]:
            raise ValueError("it is not the file the run wrote")
        return pq.read_table(path, columns=columns)
    except (OSError, ValueError, pa.ArrowException) as error:
        command = " ".join(manifest.get("command", [])) or "the run's command"
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise DamagedChunk(f"{path} is damaged ({reason}); `{command}` moves it aside and "
                           "plays it again") from None


def check_chunk(path: Path, recorded: dict | None, count: int) -> bool:
    """Whether a chunk file is the one written: its digest as recorded or, where none was
    (a run stopped between the file's write and the manifest's), all `count` rows readable."""
    if recorded and recorded.get("sha256"):
        return chunk_digest(path) == recorded["sha256"]
    return chunk_rows(path) == count


def finished_chunks(run_dir: Path) -> set[str]:
    folder = run_dir / DEALS_DIR
    if not folder.is_dir():
        return set()
    return {p.name for p in folder.glob("*.parquet")}


def remove_partial_files(run_dir: Path) -> None:
    for leftover in (run_dir / DEALS_DIR).glob(".*.partial"):
        leftover.unlink(missing_ok=True)


def write_text_atomically(path: Path, text: str) -> None:
    """Write a file under a dot-name and rename it: it appears whole or not at all."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, 0o644)  # readable like any file the run writes (mkstemp: 0o600)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_json_atomically(path: Path, data: dict) -> None:
    write_text_atomically(path, json.dumps(data, indent=2) + "\n")


MANIFEST_TABLES = ("identity", "options", "chunks")  # a manifest's parts that are objects


def read_manifest(run_dir: Path) -> dict | None:
    path = run_dir / MANIFEST
    if not path.is_file():
        return None
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict) or any(
            not isinstance(manifest.get(part, {}), dict) for part in MANIFEST_TABLES):
        return None  # not written by simstats: read as no manifest
    return manifest


class WinsDamaged(ValueError):
    """A wins.npz that cannot be read; the message is one line."""


def wins_by_deal(paths: list[Path]) -> np.ndarray:
    """Won (1), lost (0) or not played yet (-1) for deals 0.. of one game and policy."""
    parts = [pq.read_table(p, columns=["deal", "won"]) for p in paths]
    deals = np.concatenate([t.column("deal").to_numpy() for t in parts])
    won = np.full(int(deals.max()) + 1 if len(deals) else 0, -1, dtype=np.int8)
    won[deals] = np.concatenate([t.column("won").to_numpy(zero_copy_only=False) for t in parts])
    return won


def write_wins(run_dir: Path, files: dict[tuple[str, str], list[Path]]) -> None:
    """The compact record of who won each deal, a bit a deal: for each (game, policy) cell, the
    deals played and the deals won as packed bitmaps."""
    arrays: dict[str, np.ndarray] = {}
    names = []
    for i, (key, paths) in enumerate(files.items()):
        won = wins_by_deal(paths)
        names.append("\t".join(key))
        arrays[f"played_{i}"] = np.packbits(won >= 0)
        arrays[f"won_{i}"] = np.packbits(won == 1)
        arrays[f"length_{i}"] = np.array(len(won), dtype=np.int64)
    arrays["cells"] = np.array(names, dtype=str)
    temporary = run_dir / f".{WINS_FILE}.writing.npz"
    np.savez_compressed(temporary, **arrays)
    temporary.replace(run_dir / WINS_FILE)


def read_wins(run_dir: Path) -> dict[tuple[str, str], np.ndarray]:
    """What write_wins kept: (game, policy) -> won (1), lost (0) or not played (-1) by deal."""
    path = run_dir / WINS_FILE
    if not path.is_file():
        return {}
    try:
        with np.load(path, allow_pickle=False) as kept:
            cells = {}
            for i, name in enumerate(kept["cells"]):
                length = int(kept[f"length_{i}"])
                played = np.unpackbits(kept[f"played_{i}"], count=length).astype(bool)
                won = np.unpackbits(kept[f"won_{i}"], count=length).astype(np.int8)
                won[~played] = -1
                game, policy = str(name).split("\t", 1)
                cells[game, policy] = won
            return cells
    except (OSError, ValueError, KeyError) as error:
        raise WinsDamaged(f"{path} is damaged ({error})") from None
