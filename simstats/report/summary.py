"""`simstats report DIR`: the summary tables and plots of a run, read chunk file by chunk file
so that memory stays flat however many deals the run holds. Also run at the end of a run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..engine.games import GAMES, Game
from ..engine.state import END_NAMES, OUTCOME_COLUMNS
from ..registry import is_oracle, policy_label
from ..run.records import (
    DEALS_DIR,
    Chunk,
    deals_by_policy,
    read_chunk,
    read_manifest,
    wins_by_deal,
    write_text_atomically,
    write_wins,
)
from ..stats import (
    mcnemar_exact_p,
    paired_difference_interval,
    percent_text,
    quantile_from_histogram,
    unpaired_difference_interval,
    wilson_interval,
)
from .page import report_page

SUMMARY_COLUMNS = (
    "game", "policy", "n_deals", "wins", "win_rate", "ci_low", "ci_high",
    "mean_foundation_cards", "q1_foundation_cards", "median_foundation_cards",
    "q3_foundation_cards", "share_52_home", "mean_moves", "mean_deals", "mean_redeals",
    *(f"end_{name}" for name in END_NAMES), "mean_reshuffles",
)
READ_COLUMNS = ["game", "policy", *OUTCOME_COLUMNS]
# A comparison of two (game, policy) cells: paired on the deals both played where the decks
# are the same (deals, both / only A / only B / neither, McNemar), else unpaired (those blank).
COMPARISON_COLUMNS = (
    "comparison", "pairing", "game_a", "policy_a", "game_b", "policy_b", "deals", "deals_a",
    "wins_a", "deals_b", "wins_b", "both", "only_a", "only_b", "neither", "win_rate_a",
    "win_rate_b", "difference", "ci_low", "ci_high", "mcnemar_p",
)


class NotARun(ValueError):
    pass


@dataclass
class Tally:
    """Running sums of one (game, policy): enough for every column of the summary."""

    games: int = 0
    wins: int = 0
    foundation_histogram: np.ndarray = field(default_factory=lambda: np.zeros(105, np.int64))
    moves: int = 0
    deals: int = 0
    redeals: int = 0
    reshuffles: int = 0
    ends: dict = field(default_factory=lambda: dict.fromkeys(END_NAMES, 0))
    # cumulative wins after the first k deals, at checkpoints, for the convergence plot
    checkpoints: list = field(default_factory=list)

    def add(self, frame: pd.DataFrame) -> None:
        won = frame["won"].to_numpy()
        cumulative = self.wins + np.cumsum(won)
        for k in _checkpoints_between(self.games, self.games + len(frame)):
            self.checkpoints.append((k, int(cumulative[k - self.games - 1])))
        self.games += len(frame)
        self.wins += int(won.sum())
        self.foundation_histogram += np.bincount(frame["foundation_cards"].to_numpy(),
                                                 minlength=105)[:105]
        self.moves += int(frame["moves"].sum())
        self.deals += int(frame["deals"].sum())
        self.redeals += int(frame["redeals"].sum())
        self.reshuffles += int(frame["reshuffles"].sum())
        for end, count in frame["end"].value_counts().items():
            self.ends[end] += int(count)

    def row(self, game: str, policy: str) -> dict:
        # The oracle's unknown deals (budget spent) are bracketed, as the Solvitaire study does:
        # all lost for the lower bound, all won for the upper. Players have none.
        low, _ = wilson_interval(self.wins, self.games)
        _, high = wilson_interval(self.wins + self.ends["unknown"], self.games)
        h = self.foundation_histogram
        n = max(self.games, 1)
        return {
            "game": game, "policy": policy, "n_deals": self.games, "wins": self.wins,
            "win_rate": self.wins / n, "ci_low": low, "ci_high": high,
            "mean_foundation_cards": float((h * np.arange(105)).sum() / n),
            "q1_foundation_cards": quantile_from_histogram(h, 0.25),
            "median_foundation_cards": quantile_from_histogram(h, 0.5),
            "q3_foundation_cards": quantile_from_histogram(h, 0.75),
            "share_52_home": float(h[52:].sum() / n),
            "mean_moves": self.moves / n, "mean_deals": self.deals / n,
            "mean_redeals": self.redeals / n,
            **{f"end_{name}": self.ends[name] for name in END_NAMES},
            "mean_reshuffles": self.reshuffles / n,
        }


def _checkpoints_between(done: int, upto: int) -> list[int]:
    """Deal counts in (done, upto] at which the convergence curve is sampled (log-spaced)."""
    points = []
    k = 10
    while k <= upto:
        for step in (1, 1.25, 1.6, 2, 2.5, 3.2, 4, 5, 6.3, 8):
            point = int(k * step)
            if done < point <= upto:
                points.append(point)
        k *= 10
    if done < upto:
        points.append(upto)
    return sorted(set(points))


@dataclass
class RunData:
    """What a report is made of: the summary table and the convergence curves."""

    run_dir: Path
    manifest: dict
    summary: pd.DataFrame
    histograms: dict
    convergence: dict
    status: str
    files: dict = field(default_factory=dict)  # (game, policy) -> its chunk files, in order
    comparisons: pd.DataFrame | None = None
    us_per_deal: dict = field(default_factory=dict)  # (game, policy) -> us a deal (us_per_deal)


def us_per_deal(manifest: dict) -> dict[tuple[str, str], float]:
    """(game, policy) -> microseconds a deal on one worker, from the run's own chunk timings
    (manifest.json: each chunk's play_seconds, the deals alone; in runs made before chunks
    had it, its seconds, the worker's start and the file's writing included; chunks finished
    without timing are left out)."""
    policies = manifest.get("options", {}).get("policies", [])
    seconds: dict[tuple[str, str], float] = {}
    deals: dict[tuple[str, str], int] = {}
    for name, chunk in manifest.get("chunks", {}).items():
        where = Chunk.game_and_policy_index(name)
        if "seconds" not in chunk or where is None or where[1] >= len(policies):
            continue
        game, index = where
        key = (game, policies[index])
        seconds[key] = seconds.get(key, 0.0) + chunk.get("play_seconds", chunk["seconds"])
        deals[key] = deals.get(key, 0) + chunk["deals"]
    return {key: seconds[key] / deals[key] * 1e6 for key in seconds if deals[key]}


def collect(run_dir: Path) -> RunData:
    """Tally a run's chunk files one at a time."""
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    if manifest is None or not (run_dir / DEALS_DIR).is_dir():
        raise NotARun(f"{run_dir} is not a simstats run (no readable manifest.json and deals/)")
    tallies: dict[tuple[str, str], Tally] = {}
    files: dict[tuple[str, str], list[Path]] = {}
    for path in sorted((run_dir / DEALS_DIR).glob("*.parquet")):
        frame = read_chunk(path, manifest, READ_COLUMNS).to_pandas()
        if frame.empty:
            continue
        key = (str(frame["game"].iloc[0]), str(frame["policy"].iloc[0]))
        tallies.setdefault(key, Tally()).add(frame)
        files.setdefault(key, []).append(path)
    rows = [tally.row(*key) for key, tally in tallies.items()]
    summary = pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS))
    identity = manifest.get("identity", {})
    order = {g: i for i, g in enumerate(identity.get("game", []))}
    porder = {p: i for i, p in enumerate(identity.get("policy", []))}
    summary = summary.sort_values(
        ["game", "policy"], key=lambda s: s.map(order if s.name == "game" else porder)
    ).reset_index(drop=True)
    status = manifest.get("status", "unknown")
    expected = summary["policy"].map(deals_by_policy(identity))
    if identity.get("precision") is not None:
        # Each cell counts the prefix that met the target (precision.py); why it stopped.
        stopped = [manifest.get("stopped", {}).get(f"{g}/{p}", {})
                   for g, p in zip(summary["game"], summary["policy"], strict=True)]
        summary["stopped"] = [entry.get("by", "") for entry in stopped]
        expected = pd.Series([entry.get("deals", np.inf) for entry in stopped], dtype=float)
    if status == "complete" and (summary["n_deals"] < expected).any():
        status = "incomplete"
    data = RunData(
        run_dir, manifest, summary,
        {key: t.foundation_histogram for key, t in tallies.items()},
        {key: t.checkpoints for key, t in tallies.items()},
        status, files,
    )
    data.comparisons = compare_all(data)
    data.us_per_deal = us_per_deal(manifest)
    return data


def paired_row(label: str, a: tuple[str, str], b: tuple[str, str], won_a: np.ndarray,
               won_b: np.ndarray) -> dict:
    """Both won / only A / only B / neither on the deals both played, the difference in win
    rate with its paired 95% interval, and the exact McNemar p-value."""
    n = min(len(won_a), len(won_b))
    won_a, won_b = won_a[:n], won_b[:n]
    played = (won_a >= 0) & (won_b >= 0)
    x, y = won_a[played] == 1, won_b[played] == 1
    both, only_a = int((x & y).sum()), int((x & ~y).sum())
    only_b, neither = int((~x & y).sum()), int((~x & ~y).sum())
    deals = both + only_a + only_b + neither
    difference, low, high = paired_difference_interval(both, only_a, only_b, neither)
    return {
        "comparison": label, "pairing": "paired", "game_a": a[0], "policy_a": a[1],
        "game_b": b[0], "policy_b": b[1], "deals": deals, "deals_a": deals,
        "wins_a": both + only_a, "deals_b": deals, "wins_b": both + only_b, "both": both,
        "only_a": only_a, "only_b": only_b, "neither": neither,
        "win_rate_a": (both + only_a) / max(deals, 1),
        "win_rate_b": (both + only_b) / max(deals, 1), "difference": difference,
        "ci_low": low, "ci_high": high, "mcnemar_p": mcnemar_exact_p(only_a, only_b),
    }


def unpaired_row(label: str, a: tuple[str, str], b: tuple[str, str], won_a: np.ndarray,
                 won_b: np.ndarray) -> dict:
    """The two win rates on the deals each played (different decks: nothing to pair) and the
    difference with Newcombe's hybrid score 95% interval."""
    n_a, n_b = int((won_a >= 0).sum()), int((won_b >= 0).sum())
    w_a, w_b = int((won_a == 1).sum()), int((won_b == 1).sum())
    difference, low, high = unpaired_difference_interval(w_a, n_a, w_b, n_b)
    return {
        "comparison": label, "pairing": "unpaired", "game_a": a[0], "policy_a": a[1],
        "game_b": b[0], "policy_b": b[1], "deals": None, "deals_a": n_a, "wins_a": w_a,
        "deals_b": n_b, "wins_b": w_b, "both": None, "only_a": None, "only_b": None,
        "neither": None, "win_rate_a": w_a / max(n_a, 1), "win_rate_b": w_b / max(n_b, 1),
        "difference": difference, "ci_low": low, "ci_high": high, "mcnemar_p": None,
    }


def same_deck_pairs(game_ids) -> list[tuple[Game, Game]]:
    """(game, the game whose decks it deals) for the games of a run that declare one."""
    games = [GAMES[g] for g in game_ids if g in GAMES]
    return [(g, GAMES[g.same_decks_as]) for g in games
            if g.same_decks_as is not None and g.same_decks_as in game_ids]


def compare_all(data: RunData) -> pd.DataFrame:
    """Every pair of policies within a game; the oracle against the best policy of each game
    (what perfect information is worth; its unknown deals count as lost); for each policy, a
    game against the game whose decks it deals (games.py: same_decks_as; Tournament against
    Napoleon's Flank: what seeing the buried cards is worth). All paired deal by deal."""
    rows = []
    keys = list(zip(data.summary.game, data.summary.policy, strict=True))
    games = list(dict.fromkeys(g for g, _ in keys))
    rate = dict(zip(keys, data.summary.win_rate, strict=True))
    for game in games:
        policies = [p for g, p in keys if g == game and not is_oracle(p)]
        for oracle in (p for g, p in keys if g == game and is_oracle(p)):
            if policies:
                best = max(policies, key=lambda p: rate[game, p])
                rows.append(paired_row("oracle minus best policy", (game, oracle), (game, best),
                                       wins_by_deal(data.files[game, oracle]),
                                       wins_by_deal(data.files[game, best])))
        for i, a in enumerate(policies):
            for b in policies[i + 1:]:
                rows.append(paired_row("policies", (game, a), (game, b),
                                       wins_by_deal(data.files[game, a]),
                                       wins_by_deal(data.files[game, b])))
    for game, base in same_deck_pairs(games):
        for policy in dict.fromkeys(p for _, p in keys if not is_oracle(p)):
            a, b = (base.id, policy), (game.id, policy)
            if a in data.files and b in data.files:
                rows.append(paired_row(game.same_decks_comparison, a, b,
                                       wins_by_deal(data.files[a]),
                                       wins_by_deal(data.files[b])))
    rows += games_against_each_other(data, games, keys, rate)
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


def games_against_each_other(data: RunData, games: list[str], keys: list[tuple[str, str]],
                             rate: dict) -> list[dict]:
    """Each game's best fair player against each other game's: how much easier one game is
    than another, played as well as the run plays it. Paired where one game deals the other's
    decks (Tournament against Napoleon's Flank: what seeing the buried cards is worth), else
    unpaired (different decks)."""
    best = {}
    for game in games:
        fair = [p for g, p in keys if g == game and not is_oracle(p)]
        if fair:
            best[game] = max(fair, key=lambda p: rate[game, p])
    rows = []
    shared = {(base.id, game.id): game for game, base in same_deck_pairs(games)}
    for i, first in enumerate(games):
        for second in games[i + 1:]:
            if first not in best or second not in best:
                continue
            pair = (first, second) if (first, second) in shared or (
                second, first) not in shared else (second, first)
            a, b = (pair[0], best[pair[0]]), (pair[1], best[pair[1]])
            won_a, won_b = wins_by_deal(data.files[a]), wins_by_deal(data.files[b])
            if pair in shared:
                rows.append(paired_row(f"{shared[pair].same_decks_comparison}, best against "
                                       "best", a, b, won_a, won_b))
            else:
                rows.append(unpaired_row("games, best against best", a, b, won_a, won_b))
    return rows


def markdown_table(frame: pd.DataFrame) -> str:
    header = "| " + " | ".join(frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = ["| " + " | ".join(str(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([header, rule, *body])


def summary_view(data: RunData) -> pd.DataFrame:
    """The summary as the report shows it: one row per game and policy, as text."""
    s = data.summary
    return pd.DataFrame({
        "game": s["game"], "policy": s["policy"].map(policy_label),
        "deals": s["n_deals"].map("{:,}".format),
        "wins": s["wins"].map("{:,}".format),
        "win rate (95% CI)": [f"{percent_text(r)} ({percent_text(lo)} to {percent_text(hi)})"
                              for r, lo, hi in zip(s.win_rate, s.ci_low, s.ci_high, strict=True)],
        "cards home: mean": s["mean_foundation_cards"].map("{:.1f}".format),
        "median (IQR)": [f"{m:g} ({a:g}-{b:g})" for m, a, b in
                         zip(s.median_foundation_cards, s.q1_foundation_cards,
                             s.q3_foundation_cards, strict=True)],
        ">= 52 home": s["share_52_home"].map("{:.2%}".format),
        "moves": s["mean_moves"].map("{:.1f}".format),
        **({"stopped by": s["stopped"].map(STOPPED_BY)} if "stopped" in s else {}),
    })


# Why a cell of a run with a precision target stopped (summary.csv's column `stopped`).
STOPPED_BY = {"precision": "the target", "deals": "its deal count", "": "not yet"}


def comparisons_view(data: RunData) -> pd.DataFrame | None:
    """The comparisons as the report shows them, as text; None when there are none. An
    unpaired one gives each side's deals, and no pairs nor McNemar test."""
    c = data.comparisons
    if c is None or c.empty:
        return None
    paired = c["pairing"] == "paired"
    return pd.DataFrame({
        "comparison": c["comparison"],
        "A": c["game_a"] + " / " + c["policy_a"].map(policy_label),
        "B": c["game_b"] + " / " + c["policy_b"].map(policy_label),
        "deals": [f"{r.deals:,.0f}" if p else f"{r.deals_a:,.0f} and {r.deals_b:,.0f}"
                  for p, r in zip(paired, c.itertuples(), strict=True)],
        "both / only A / only B / neither": [
            f"{r.both:,.0f} / {r.only_a:,.0f} / {r.only_b:,.0f} / {r.neither:,.0f}" if p
            else "unpaired" for p, r in zip(paired, c.itertuples(), strict=True)],
        "A - B (95% CI)": [f"{_pp(r.difference)} ({_pp(r.ci_low)} to {_pp(r.ci_high)})"
                           for r in c.itertuples()],
        "McNemar p": [("< 1e-300" if r.mcnemar_p == 0 else f"{r.mcnemar_p:.3g}") if p else ""
                      for p, r in zip(paired, c.itertuples(), strict=True)],
    })


def comparisons_note(data: RunData) -> str:
    return ("A paired comparison is made on the very same deals: the difference in win rate "
            "is in percentage points with the Bonett-Price paired 95% interval, and the p-value "
            "is the exact McNemar test on the deals only one of the two won. Games dealt from "
            "different decks are compared unpaired, with Newcombe's hybrid score interval. "
            "*Best against best* compares each game's best fair player with each other game's."
            + "".join(f" *{game.same_decks_comparison.capitalize()}* compares {base.title} "
                      f"with {game.title} (the same decks)."
                      for game, base in same_deck_pairs(list(dict.fromkeys(data.summary.game)))))


def oracle_note(data: RunData) -> str | None:
    s = data.summary
    oracles = s[s.policy.map(is_oracle)]
    if oracles.empty:
        return None
    unknown = ", ".join(f"{r.game} {r.end_unknown:,}" for r in oracles.itertuples())
    return ("The *perfect-information oracle* is not a player: it reads the stock's order. Its "
            "win rate is the share of deals known to be winnable; deals its search could not "
            f"decide within the budget (unknown: {unknown}) are bracketed: its interval runs "
            "from the Wilson lower bound with them all lost to the upper bound with them all "
            "won.")


SUMMARY_NOTE = ("Intervals are Wilson 95% score intervals. Every policy played the same deals "
                "of each game, deals 0 to n-1 of its count (docs/rules.md section 11); a "
                "comparison uses the deals both played.")


def summary_markdown(data: RunData) -> str:
    view = summary_view(data)
    m = data.manifest
    lines = [
        "# Run summary",
        "",
        f"Run `{data.run_dir}`: status **{data.status}**; seed {m.get('seed')}; "
        f"command `{' '.join(m.get('command', []))}`.",
        "",
        markdown_table(view),
        "",
        SUMMARY_NOTE,
        "",
    ]
    if "precision" in m.get("identity", {}):
        lines += [f"Precision target: each game and policy played, in chunks of deals in order, "
                  f"until its 95% interval was at most {m['identity']['precision']:g} points "
                  "either side, or its deals were all played; it counts the fewest chunks that "
                  "met the target.", ""]
    if oracle_note(data):
        lines += [oracle_note(data), ""]
    comparisons = comparisons_view(data)
    if comparisons is not None:
        lines += ["## Comparisons", "", comparisons_note(data), "",
                  markdown_table(comparisons), ""]
    return "\n".join(lines)


def _pp(fraction: float) -> str:
    return f"{fraction * 100:+.2f} pp"


def write_report(run_dir: Path, plots: bool = True) -> RunData:
    """Write summary.csv, comparisons.csv, wins.npz, summary.md, plots/ and report.html into
    the run folder."""
    data = collect(run_dir)
    data.summary.to_csv(Path(run_dir) / "summary.csv", index=False)
    data.comparisons.to_csv(Path(run_dir) / "comparisons.csv", index=False)
    write_wins(Path(run_dir), data.files)
    (Path(run_dir) / "summary.md").write_text(summary_markdown(data))
    if plots and not data.summary.empty:
        from .plots import plot_run

        plot_run(data, Path(run_dir) / "plots")
    notes = {"summary": SUMMARY_NOTE, "oracle": oracle_note(data),
             "comparisons": comparisons_note(data)}
    page = report_page(data, Path(run_dir) / "plots", summary_view(data), comparisons_view(data),
                       notes)
    write_text_atomically(Path(run_dir) / "report.html", page)
    return data
