"""The notebook API (re-exported by ``simstats``): a thin layer over the functions the command
line calls (runner, report, simulate, render), so a notebook repeats none of their logic. Every
function imports what it needs when called, so importing this module is cheap."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

    from .engine.games import Game
    from .policies import PolicySpec
    from .run.move_by_move import DealInPlay
    from .run.playthrough import Playthrough


@dataclass
class Run:
    """A run folder as tables.

    Attributes:
        path: the run folder.
        manifest: manifest.json as a dict (command, options, seed, status, chunks, ...).
        summary: one row per game and policy (report.SUMMARY_COLUMNS): win rate with its Wilson
            95% interval, cards home, moves, deals, redeals, ends, reshuffles.
        comparisons: the paired comparisons of the report (one row per pair), or None.
        deals: one row per (game, policy, deal), or None when the folder holds no deals/
            (a committed example keeps only its summary and plots).
    """

    path: Path
    manifest: dict
    summary: pd.DataFrame
    comparisons: pd.DataFrame | None
    deals: pd.DataFrame | None

    @property
    def games(self) -> list[str]:
        """The game ids of the run, in the run's order."""
        return list(self.manifest.get("identity", {}).get("game", []))

    @property
    def policies(self) -> list[str]:
        """The policy names of the run, in the run's order."""
        return list(self.manifest.get("identity", {}).get("policy", []))

    @property
    def seed(self) -> int:
        """The seed of the run's deals."""
        return int(self.manifest.get("identity", {}).get("seed", self.manifest.get("seed", 0)))

    @property
    def parameters(self) -> dict[str, dict | None]:
        """Every parameter value each policy played with, its defaults included (None for a
        Python policy, which has none); empty for a run from before runs recorded them."""
        return dict(self.manifest.get("identity", {}).get("parameters", {}))

    @property
    def deals_per_game(self) -> int:
        """Deals per game and policy that the run was asked to play."""
        return int(self.manifest.get("identity", {}).get("games", 0))

    @property
    def deals_by_policy(self) -> dict[str, int]:
        """Deals per game that each policy was asked to play: its own count (`NAME@N`), else
        deals_per_game."""
        from .run.records import deals_by_policy

        return deals_by_policy(self.manifest.get("identity", {}))

    def __repr__(self) -> str:
        from .run.options import counted

        rows = "no deals/" if self.deals is None else counted(len(self.deals), "deal row")
        return (f"<Run {self.path}: {counted(len(self.games), 'game')} x "
                f"{counted(len(self.policies), 'policy', 'policies')} x "
                f"{counted(self.deals_per_game, 'deal')}, seed {self.seed}, "
                f"status {self.manifest.get('status')}, {rows}>")


def _has_deals(path: Path) -> bool:
    from .run.records import DEALS_DIR

    folder = path / DEALS_DIR
    return folder.is_dir() and any(folder.glob("*.parquet"))


def load_run(path: str | os.PathLike) -> Run:
    """Load a run folder written by `simstats run` (or play_run).

    The per-deal table is ``pandas.read_parquet(path/"deals")``, sorted by game, policy and
    deal; the summary and comparisons are tallied from it by the report code. A folder without
    deals/ (such as the committed example run, whose deals are too large to commit) loads with
    ``deals=None`` and the summary.csv and comparisons.csv written when it was played.
    Raises report.NotARun when the folder holds no manifest.json.
    """
    import pandas as pd

    from .report.summary import NotARun, collect
    from .run.records import DEALS_DIR, read_manifest

    path = Path(path)
    manifest = read_manifest(path)
    if manifest is None:
        raise NotARun(f"{path} is not a simstats run (no readable manifest.json)")
    if _has_deals(path):
        data = collect(path)
        deals = pd.read_parquet(path / DEALS_DIR)
        return Run(path, manifest, data.summary, getattr(data, "comparisons", None), deals)
    if not (path / "summary.csv").is_file():
        raise NotARun(f"{path} has neither deals/ nor summary.csv")
    comparisons = path / "comparisons.csv"
    return Run(path, manifest, pd.read_csv(path / "summary.csv").rename(
                   columns={"games": "n_deals"}),  # its name in runs made before
               pd.read_csv(comparisons) if comparisons.is_file() else None, None)


def play_run(games: int, game: list[str] | tuple[str, ...] | None = None,
             policy: list[str] | tuple[str, ...] | None = None, seed: int = 0,
             out: str | os.PathLike | None = None, workers: int | None = None,
             chunk_size: int | None = None, report: bool = True) -> Run:
    """Play deals 0..games-1 of `seed` for every game and policy, as `simstats run` does, and
    load the run.

    game: game ids or aliases (default: all four); policy: policy names, built-in or plugin,
    each with a deal count of its own if wanted (`"planner@5e3"`: deals 0..4999 instead of
    0..games-1; default: the command line's, foundation-only and dig). out: the run folder
    (default: a new temporary folder); an existing run of the same options resumes. workers:
    processes
    (default: all cores). report: also write summary.csv, summary.md and comparisons.csv
    (plots are left to plot_run). The deals are those of any run with the same seed, so a small
    run replays the first deals of a large one exactly.
    """
    import tempfile

    from .engine.games import GAMES, get_game
    from .policies import resolve_policy
    from .registry import DEFAULT_POLICIES
    from .report.summary import write_report
    from .run.options import RunOptions, chunk_size_for, default_workers, policies_and_counts
    from .run.runner import execute

    if isinstance(game, str) or isinstance(policy, str):
        raise TypeError("give game and policy as lists of names")
    game_ids = tuple(dict.fromkeys(get_game(name).id for name in game or GAMES))
    texts = list(dict.fromkeys(policy or DEFAULT_POLICIES))
    policies, own = policies_and_counts(texts)
    for name in policies:
        resolve_policy(name)  # an unknown or broken policy fails here, before any work
    out = Path(out) if out is not None else Path(tempfile.mkdtemp(prefix="simstats-run-"))
    command = ["simstats", "run", "--games", str(games)]
    for name in game_ids:
        command += ["--game", name]
    for text in texts:
        command += ["--policy", text]
    command += ["--seed", str(seed), "--out", str(out)]
    options = RunOptions(
        games=int(games), game_ids=game_ids, policies=policies, seed=int(seed),
        chunk_size=chunk_size_for(int(games), out, chunk_size),
        workers=int(workers or default_workers()), out=out, quiet=True, command=tuple(command),
        own_counts=tuple((name, n, chunk_size_for(n, out, chunk_size, name))
                         for name, n in own.items()),
    )
    execute(options, echo=print)
    if report:
        write_report(out, plots=False)
    return load_run(out)


def summarize(source: str | os.PathLike | pd.DataFrame, by: str | list[str] | None = None
              ) -> pd.DataFrame:
    """The summary table (one row per game and policy) with Wilson 95% intervals.

    source: a run folder (the report's summary, as in summary.csv) or a per-deal table, such as
    ``run.deals`` or any slice of it. by: columns of the per-deal table to group by as well as
    game and policy, e.g. ``"reshuffles"`` or ``["redeals", "end"]``: one row per group, with
    the same columns as the run's summary (``n_deals`` is the number of deals in the group).
    """
    import pandas as pd

    from .report.summary import SUMMARY_COLUMNS, Tally, collect

    by = [by] if isinstance(by, str) else list(by or [])
    if not isinstance(source, pd.DataFrame):
        path = Path(source)
        if not by:
            if _has_deals(path):
                return collect(path).summary
            return load_run(path).summary
        source = load_run(path).deals
        if source is None:
            raise ValueError(f"{path} holds no deals/ to group by {by}")
    keys = ["game", "policy", *by]
    order = {k: {v: i for i, v in enumerate(pd.unique(source[k]))} for k in ("game", "policy")}
    rows = []
    for key, frame in source.groupby(keys, sort=False, observed=True, dropna=False):
        tally = Tally()
        tally.add(frame.sort_values("deal") if "deal" in frame else frame)
        row = tally.row(key[0], key[1])
        row.update(zip(by, key[2:], strict=True))
        rows.append(row)
    columns = ["game", "policy", *by, *(c for c in SUMMARY_COLUMNS if c not in ("game", "policy"))]
    table = pd.DataFrame(rows, columns=columns)
    if table.empty:
        return table
    table["_g"] = table["game"].map(order["game"])
    table["_p"] = table["policy"].map(order["policy"])
    return (table.sort_values(["_g", "_p", *by], kind="stable")
            .drop(columns=["_g", "_p"]).reset_index(drop=True))


def _game(game: str | Game) -> Game:
    from .engine.games import Game, get_game

    return game if isinstance(game, Game) else get_game(game)


def paired(deals: pd.DataFrame, game: str, policy_a: str, policy_b: str,
           game_b: str | None = None) -> pd.DataFrame:
    """The outcomes of policy_a and policy_b on the deals both played, one row per deal.

    Columns: deal, reshuffles (of game), then won, foundation_cards, moves, deals, redeals and
    end with the suffixes _a and _b. game_b compares across games instead (e.g. Tournament
    against Napoleon's Flank: the same decks with the buried cards hidden).
    """
    from .engine.state import OUTCOME_COLUMNS

    game_a, game_b = _game(game).id, _game(game_b or game).id
    outcome = [name for name in OUTCOME_COLUMNS if name != "reshuffles"]

    def rows(g: str, p: str):
        chosen = deals[(deals["game"] == g) & (deals["policy"] == p)]
        if chosen.empty:
            present = sorted(set(zip(deals["game"], deals["policy"], strict=True)))
            raise ValueError(f"no deals of {g} / {p} in this table (it holds {present})")
        return chosen

    a = rows(game_a, policy_a)[["deal", "reshuffles", *outcome]]
    b = rows(game_b, policy_b)[["deal", *outcome]]
    merged = a.merge(b, on="deal", suffixes=("_a", "_b"), validate="one_to_one")
    return merged.sort_values("deal").reset_index(drop=True)


def compare(deals: pd.DataFrame, game: str, policy_a: str, policy_b: str,
            game_b: str | None = None) -> pd.Series:
    """Compare two policies on the same deals of a game (paired, deal by deal).

    Returns a Series with the columns of the report's comparisons.csv: deals (both played),
    both (won by both), only_a, only_b, neither, win_rate_a, win_rate_b, difference (A - B),
    ci_low and ci_high (its paired 95% interval, stats.paired_difference_interval) and
    mcnemar_p (exact McNemar test on the deals only one of them won). game_b compares across
    games (e.g. tournament against napoleons-flank for one policy).
    """
    import numpy as np
    import pandas as pd

    from .report.summary import COMPARISON_COLUMNS, paired_row

    table = paired(deals, game, policy_a, policy_b, game_b)
    deal = table["deal"].to_numpy()
    size = int(deal.max()) + 1 if len(deal) else 0
    won = []
    for column in ("won_a", "won_b"):
        array = np.full(size, -1, dtype=np.int8)  # -1: a deal not played by both
        array[deal] = table[column].to_numpy(dtype=np.int8)
        won.append(array)
    game_a, game_b = _game(game).id, _game(game_b or game).id
    label = "policies" if game_a == game_b else "games"
    row = paired_row(label, (game_a, policy_a), (game_b, policy_b), *won)
    name = (f"{game_a}: {policy_a} vs {policy_b}" if game_a == game_b
            else f"{game_a}/{policy_a} vs {game_b}/{policy_b}")
    return pd.Series(row, name=name)[list(COMPARISON_COLUMNS)]


def plot_run(path: str | os.PathLike, folder: str | os.PathLike | None = None,
             redraw: bool = False) -> list[Path]:
    """The PNG files of the report's figures of a run, in the order of plots.FIGURES (strength,
    strength against cost, the key comparisons, win rates, cards home, the convergence of the
    estimate, the game x policy heat map; PNG and SVG side by side), named by what they show
    (``png.stem``).

    The plots already in the run's plots/ are returned as they are; they are drawn from the
    per-deal table when some are missing, when `redraw` is true (say, for a run that has played
    on since) or into another `folder`. A run without deals/ can only return what it has. The
    current matplotlib backend (a notebook's inline one) is restored after drawing. Show them in
    a notebook with ``IPython.display.Image(filename=...)``.
    """
    path = Path(path)
    target = Path(folder) if folder is not None else path / "plots"
    if (redraw or not any(target.glob("*.png"))) and _has_deals(path):
        import matplotlib

        from .report.plots import plot_run as draw
        from .report.summary import collect

        backend = matplotlib.get_backend()
        try:
            draw(collect(path), target)  # switches matplotlib to Agg
        finally:
            if matplotlib.get_backend() != backend:
                _restore_backend(backend)
    from .report.plots import FIGURES

    order = list(FIGURES)
    return sorted(target.glob("*.png"),
                  key=lambda png: (order.index(png.stem) if png.stem in order else len(order),
                                   png.stem))


def _restore_backend(backend: str) -> None:
    """Switch matplotlib back to `backend`; a notebook's inline backend is switched back through
    IPython, which alone registers the formatters that show figures in the notebook."""
    import matplotlib

    shell = None
    if "inline" in backend:
        try:
            from IPython import get_ipython

            shell = get_ipython()
        except ImportError:
            pass
    if shell is not None:
        shell.enable_matplotlib("inline")
    else:
        matplotlib.use(backend)


def play_deal(game: str | Game, policy: str | PolicySpec, seed: int = 0, deal: int = 0
              ) -> Playthrough:
    """Play deal `deal` of `seed` move by move, as `simstats play --deal` does.

    game: a game id or alias; policy: a policy name (built-in, 'module:Name', 'file.py:Name'
    or plugin) or a PolicySpec. Returns a simulate.Playthrough: .deck, .moves (a list of
    (move text, card moved or None)) and .outcome (won, foundation_cards, moves, deals,
    redeals, end, reshuffles), the same outcome as the deal's row in a run.
    """
    from .engine.deals import deal_deck
    from .policies import PolicySpec, resolve_policy
    from .run.move_by_move import play_deck as play

    game = _game(game)
    spec = policy if isinstance(policy, PolicySpec) else resolve_policy(policy)
    deck, reshuffles = deal_deck(game.array, seed, deal)
    return play(game, spec, [int(c) for c in deck], seed, deal, reshuffles)


def deal_in_play(game: str | Game, seed: int = 0, deal: int = 0) -> DealInPlay:
    """Deal `deal` of `seed`, laid out, to step through by hand: ``.observation()`` (what the
    player sees, its ``legal_moves`` included), ``.play(move)`` (a legal move as text; the card
    moved), ``.end()`` (ONGOING, or the end code once the game is over). play_deal and
    positions step through deals the same way."""
    from .engine.deals import deal_deck
    from .run.move_by_move import DealInPlay

    game = _game(game)
    deck, reshuffles = deal_deck(game.array, seed, deal)
    return DealInPlay(game, deck, reshuffles)


def positions(playthrough: Playthrough) -> list[str]:
    """The position before the first move and after every move of a playthrough, as text
    drawn from what the player sees (``##`` for a hidden card), as `simstats play --show`
    prints them: ``positions(p)[k]`` is the position after k moves.
    """
    from .report.render import render
    from .run.move_by_move import DealInPlay

    table = DealInPlay(_game(playthrough.game), playthrough.deck,
                       playthrough.outcome.reshuffles if playthrough.outcome else 0)
    texts = [render(table.observation())]
    for move, _ in playthrough.moves:
        table.play(move)
        texts.append(render(table.observation()))
    return texts


def first_difference(a: Playthrough, b: Playthrough) -> int | None:
    """The number of moves two playthroughs share before they part ways (so both stand in
    ``positions(a)[k]`` and then make different moves), or None if they made the same moves.
    """
    for k, (move_a, move_b) in enumerate(zip(a.moves, b.moves, strict=False)):
        if move_a[0] != move_b[0]:
            return k
    if len(a.moves) == len(b.moves):
        return None
    return min(len(a.moves), len(b.moves))


def trace(playthrough: Playthrough) -> str:
    """The JSON Lines trace of a playthrough (docs/rules.md section 10), as `simstats play --trace`
    writes it: a header, one line per move, and the result."""
    from .run.playthrough import trace as trace_text

    return trace_text(playthrough)


def list_games() -> list[tuple[str, str, tuple[str, ...]]]:
    """(game id, one line, aliases) of every game, as `simstats games` lists them."""
    from .engine.games import GAMES

    return [(g.id, g.description, g.aliases) for g in GAMES.values()]


def list_policies() -> list[tuple[str, str, str]]:
    """(name, one line, where from) of every built-in and installed plugin policy, as
    `simstats policies` lists them."""
    from .policies import list_policies as listed

    return listed()
