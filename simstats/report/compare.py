"""`simstats compare A B`: two results, each a cell RUN:GAME:POLICY of a run folder, and the
difference of their win rates A - B with its 95% interval.

Where both played the same decks (the same seed, and the same game or a game that deals the
other's decks: Tournament and Napoleon's Flank), the comparison is paired deal by deal on the
deals both played, as `simstats report` pairs the cells of one run. Otherwise the two rates are
independent proportions: Newcombe's hybrid score interval, labelled unpaired.

A cell's wins are read from the run's per-deal table (deals/) or, where that is not kept (the
committed runs), from its compact record of who won each deal (wins.npz, written with every
report).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from ..engine.games import GAMES
from ..run.records import (
    DEALS_DIR,
    WINS_FILE,
    Chunk,
    WinsDamaged,
    read_manifest,
    read_wins,
    wins_by_deal,
)
from .summary import COMPARISON_COLUMNS, paired_row, unpaired_row

# Columns of `simstats compare`: the cells as given, then those of the report's comparisons.
COMPARE_COLUMNS = ("a", "b", *COMPARISON_COLUMNS[1:])


class CompareError(ValueError):
    """A cell that cannot be compared, said in one line."""


@dataclass(frozen=True)
class Cell:
    """One game and policy of a run folder, as `RUN:GAME:POLICY` names it."""

    text: str
    run: Path
    game: str
    policy: str
    manifest: dict

    @property
    def seed(self) -> int:
        return int(self.manifest.get("identity", {}).get("seed", self.manifest.get("seed", 0)))

    def version(self, part: str) -> int | None:
        return self.manifest.get("identity", {}).get(part, self.manifest.get(part))


def parse_cell(text: str) -> Cell:
    """RUN:GAME:POLICY, split from the left: a policy given by file holds a colon itself."""
    parts = text.split(":", 2)
    if len(parts) != 3 or not all(parts):
        raise CompareError(f"{text!r} is not RUN:GAME:POLICY")
    run, game, policy = Path(parts[0]), parts[1], parts[2]
    manifest = read_manifest(run) if run.is_dir() else None
    if manifest is None:
        raise CompareError(f"{run} is not a simstats run (no readable manifest.json)")
    identity = manifest.get("identity", {})
    if game not in identity.get("game", []):
        raise CompareError(f"{run} has no game {game!r} (it has "
                           f"{', '.join(identity.get('game', [])) or 'none'})")
    if policy not in identity.get("policy", []):
        raise CompareError(f"{run} has no policy {policy!r} (it has "
                           f"{', '.join(identity.get('policy', [])) or 'none'})")
    return Cell(text, run, game, policy, manifest)


def cell_wins(cell: Cell) -> np.ndarray:
    """Won (1), lost (0) or not played (-1) for deals 0.. of the cell."""
    index = cell.manifest["identity"]["policy"].index(cell.policy)
    files = sorted(path for path in (cell.run / DEALS_DIR).glob("*.parquet")
                   if Chunk.game_and_policy_index(path.name) == (cell.game, index))
    if files:
        try:
            return wins_by_deal(files)
        except (OSError, ValueError, pa.ArrowException) as error:
            raise CompareError(f"a chunk of {cell.game} with {cell.policy} in {cell.run} is "
                               f"damaged ({str(error).splitlines()[0]}); `simstats report "
                               f"{cell.run}` names it") from None
    try:
        kept = read_wins(cell.run)
    except WinsDamaged as error:
        raise CompareError(str(error)) from None
    if (cell.game, cell.policy) in kept:
        return kept[cell.game, cell.policy]
    raise CompareError(f"{cell.run} holds no deals of {cell.game} with {cell.policy} "
                       f"(no per-deal table in {DEALS_DIR}/ and none in {WINS_FILE})")


def same_decks(a: Cell, b: Cell) -> bool:
    """Whether deal i of A was dealt the same deck as deal i of B."""
    if a.seed != b.seed:
        return False
    if a.game == b.game:
        return True
    decks = {g: GAMES[g].same_decks_as or g for g in (a.game, b.game) if g in GAMES}
    return len(decks) == 2 and decks[a.game] == decks[b.game]


def compare(a: Cell, b: Cell) -> dict:
    """The comparison of A with B (COMPARE_COLUMNS)."""
    for part in ("rules_version", "deal_stream_version"):
        if a.version(part) != b.version(part):
            raise CompareError(f"the runs were made under different {part.replace('_', ' ')}s "
                               f"({a.version(part)} and {b.version(part)})")
    won_a, won_b = cell_wins(a), cell_wins(b)
    cells = (a.game, a.policy), (b.game, b.policy)
    if same_decks(a, b):
        row = paired_row("", *cells, won_a, won_b)
        if row["deals"] == 0:
            raise CompareError("the two cells have no deal in common")
    else:
        row = unpaired_row("", *cells, won_a, won_b)
        if row["deals_a"] == 0 or row["deals_b"] == 0:
            raise CompareError(f"{(a if row['deals_a'] == 0 else b).text} has no deal played")
    return {"a": a.text, "b": b.text, **{k: row[k] for k in COMPARE_COLUMNS[2:]}}


def comparison_table(row: dict) -> pd.DataFrame:
    return pd.DataFrame([row], columns=list(COMPARE_COLUMNS))


def comparison_text(row: dict) -> str:
    """The comparison as a reader wants it, a few lines."""
    def points(x: float) -> str:
        return f"{x * 100:+.2f}"

    lines = [f"A  {row['a']}: {row['win_rate_a']:.2%} ({row['wins_a']:,} of "
             f"{row['deals_a']:,} deals)",
             f"B  {row['b']}: {row['win_rate_b']:.2%} ({row['wins_b']:,} of "
             f"{row['deals_b']:,} deals)"]
    if row["pairing"] == "paired":
        lines.append(f"A - B: {points(row['difference'])} points, 95% interval "
                     f"{points(row['ci_low'])} to {points(row['ci_high'])}, paired on the "
                     f"{row['deals']:,} deals both played (Bonett-Price)")
        lines.append(f"won by both {row['both']:,}, by A only {row['only_a']:,}, by B only "
                     f"{row['only_b']:,}, by neither {row['neither']:,}; exact McNemar "
                     f"p = {row['mcnemar_p']:.2g}")
    else:
        lines.append(f"A - B: {points(row['difference'])} points, 95% interval "
                     f"{points(row['ci_low'])} to {points(row['ci_high'])}, unpaired: "
                     f"different decks (Newcombe's hybrid score interval)")
    return "\n".join(lines)
