"""`simstats run --precision P`: each game and policy plays its chunks, in deal order, until its
95% Wilson interval is at most P points either side, or its deal count is reached.

What a cell counts does not depend on how it was played: its deals are the shortest prefix of
whole chunks whose interval meets the target. The run plays in rounds: each round asks, for
every cell not settled yet, the chunks that its rate so far says it still needs; chunks played
beyond a cell's prefix (a round's estimate overshooting) are moved to `uncounted/`, kept but
out of the per-deal table. Workers, completion order and backend change only which rounds ran.
"""

from __future__ import annotations

import math

import pyarrow.parquet as pq

from ..stats import wilson_interval
from .records import DEALS_DIR, Chunk

UNCOUNTED_DIR = "uncounted"  # chunks played beyond a cell's counted prefix, kept
STOPPED = "stopped"  # in the manifest: cell -> {"deals": counted, "by": "precision" | "deals"}
SMALLEST_CHUNK = 100
CHUNKS_TO_TARGET = 32  # a target's default chunk: the worst case's deals in this many chunks
ROUND_MARGIN = 1.1  # a round asks for this much more than its estimate, to end in fewer rounds


def half_width(wins: int, unknown: int, n: int) -> float:
    """Half the width of a cell's 95% interval as the report gives it: Wilson's, or for the
    oracle the bracket from its wins' lower bound to its wins-or-unknown upper bound."""
    low, _ = wilson_interval(wins, n)
    _, high = wilson_interval(wins + unknown, n)
    return (high - low) / 2


def chunk_size_for_target(points: float) -> int:
    """Chunks small enough to stop near the target: the deals that the widest case (a rate of
    one half) needs, in CHUNKS_TO_TARGET chunks, rounded up to a hundred."""
    worst = 0.25 * (1.96 / (points / 100)) ** 2
    return max(SMALLEST_CHUNK, math.ceil(worst / CHUNKS_TO_TARGET / 100) * 100)


def deals_needed(wins: int, unknown: int, n: int, target: float) -> int:
    """The fewest deals at which a cell with this rate so far meets the target (a half width
    as a fraction), found by doubling then bisection; n itself if it already does."""
    if n == 0:
        return 0
    rate, open_rate = wins / n, unknown / n

    def meets(m: int) -> bool:
        return half_width(round(rate * m), round(open_rate * m), m) <= target

    low, high = n, n
    while not meets(high):
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if meets(middle) else (middle, high)
    return high


class Target:
    """The precision target of a run: which chunks each cell still needs, and which it counts."""

    def __init__(self, run, points: float):
        self.run = run
        self.target = points / 100
        self.tallies: dict[str, tuple[int, int, int]] = {}  # chunk -> (deals, wins, unknown)

    def _tally(self, chunk: Chunk) -> tuple[int, int, int]:
        if chunk.name not in self.tallies:
            table = pq.read_table(self.run.dir / DEALS_DIR / chunk.name, columns=["won", "end"])
            won = table.column("won").to_numpy(zero_copy_only=False)
            end = table.column("end").to_pylist()
            self.tallies[chunk.name] = (len(won), int(won.sum()), end.count("unknown"))
        return self.tallies[chunk.name]

    def next_round(self, chunks: list[Chunk], done: set[str]) -> list[Chunk]:
        """Settle every cell whose counted prefix is on disk, move aside what lies beyond it,
        and return the chunks the others need next."""
        cells: dict[tuple[str, str], list[Chunk]] = {}
        for chunk in chunks:
            cells.setdefault((chunk.game, chunk.policy), []).append(chunk)
        stopped = self.run.manifest.setdefault(STOPPED, {})
        wanted = []
        for (game, policy), cell in cells.items():
            n = wins = unknown = 0
            for i, chunk in enumerate(cell):
                if chunk.name not in done:
                    wanted += self._ask(cell[i:], done, n, wins, unknown)
                    break
                d, w, u = self._tally(chunk)
                n, wins, unknown = n + d, wins + w, unknown + u
                met = half_width(wins, unknown, n) <= self.target
                if met or i == len(cell) - 1:
                    by = "precision" if met else "deals"
                    stopped[f"{game}/{policy}"] = {"deals": n, "by": by}
                    for beyond in cell[i + 1:]:
                        if beyond.name in done:
                            self._move_aside(beyond, done)
                    break
        self.run.save()
        return wanted

    def _ask(self, rest: list[Chunk], done: set[str], n: int, wins: int,
             unknown: int) -> list[Chunk]:
        """The chunks of `rest` (from the first missing one on) that the estimate needs."""
        if n == 0:
            return [rest[0]]
        more = math.ceil((deals_needed(wins, unknown, n, self.target) - n) * ROUND_MARGIN)
        asked, covered = [], 0
        for chunk in rest:
            if covered >= more and asked:
                break
            covered += chunk.count
            if chunk.name not in done:
                asked.append(chunk)
        return asked

    def _move_aside(self, chunk: Chunk, done: set[str]) -> None:
        folder = self.run.dir / UNCOUNTED_DIR
        folder.mkdir(exist_ok=True)
        (self.run.dir / DEALS_DIR / chunk.name).replace(folder / chunk.name)
        done.discard(chunk.name)
        self.run.manifest["chunks"].pop(chunk.name, None)

