"""The only module that imports matplotlib (lazily, with the Agg backend): the figures of a run.

Each figure is built by a function of the run's data that returns it (``FIGURES``), so that a
test can render every one and check that no text is cut off or overlaps; plot_run saves them
as PNG and SVG.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..registry import is_oracle, policy_label
from ..stats import percent_text, wilson_interval

GAME_COLOURS = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown")
POLICY_MARKERS = "osD^v<>Ph*X"


def _subplots(*grid, figsize, **options):
    """A figure and its axes, as pyplot's subplots makes them, but drawn by Agg without
    pyplot: a run's figures are files, never windows (pyplot's import and its figure manager
    were a third of a run's figure time)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize)
    FigureCanvasAgg(fig)
    return fig, fig.subplots(*grid, **options)


def _line(**options):
    from matplotlib.lines import Line2D

    return Line2D([], [], **options)


def _games(summary) -> list[str]:
    return list(dict.fromkeys(summary.game))


def strength_figure(data):
    """One panel per game: every fair policy's win rate with its 95% interval, strongest on
    top, and the perfect-information oracle's bracket as a band: how far each player is from
    what the deals allow."""
    s = data.summary
    games = _games(s)
    rows = [len(s[(s.game == g) & ~s.policy.map(is_oracle)]) for g in games]
    fig, axes = _subplots(len(games), 1, figsize=(8, 1.1 + sum(0.42 * max(r, 1) + 0.5
                                                                for r in rows)),
                          gridspec_kw={"height_ratios": [max(r, 1) for r in rows]},
                          squeeze=False)
    for ax, game in zip(axes[:, 0], games, strict=True):
        rows_of_game = s[s.game == game]
        fair = rows_of_game[~rows_of_game.policy.map(is_oracle)].sort_values("win_rate")
        y = np.arange(len(fair))
        rate = fair.win_rate.to_numpy() * 100
        low, high = fair.ci_low.to_numpy() * 100, fair.ci_high.to_numpy() * 100
        ax.errorbar(rate, y, xerr=[rate - low, high - rate], fmt="o", capsize=3,
                    color="tab:blue", zorder=3)
        for yi, lo, h, value in zip(y, low, high, fair.win_rate, strict=True):
            right = h < 80  # the label beside the interval, inside the panel
            ax.annotate(percent_text(value), (h if right else lo, yi),
                        xytext=(6 if right else -6, 0), textcoords="offset points",
                        ha="left" if right else "right", va="center", fontsize="small")
        for oracle in rows_of_game[rows_of_game.policy.map(is_oracle)].itertuples():
            ax.axvspan(oracle.ci_low * 100, oracle.ci_high * 100, color="tab:green",
                       alpha=0.25, zorder=1,
                       label=f"oracle (sees every card): {percent_text(oracle.win_rate)}")
            ax.legend(loc="lower right", fontsize="small", framealpha=0.9)
        ax.set_yticks(y, list(fair.policy))
        ax.set_ylim(-0.7, len(fair) - 0.3)
        ax.set_xlim(0, 100)
        ax.set_title(game, loc="left", fontsize="medium")
        ax.grid(axis="x", alpha=0.3)
    axes[-1, 0].set_xlabel("deals won (%), 95% interval")
    fig.suptitle("Strength: how often each way of playing wins")
    return fig


def cost_figure(data):
    """Win rate against time per deal (log scale), every policy of every game, from the run's
    own timings: what each extra millisecond of thinking buys. None without timings."""
    timings = data.us_per_deal
    s = data.summary
    points = [(r.game, r.policy, timings[r.game, r.policy], r.win_rate * 100)
              for r in s.itertuples() if (r.game, r.policy) in timings]
    if not points:
        return None
    games = _games(s)
    policies = list(dict.fromkeys(p for _, p, _, _ in points))
    fig, ax = _subplots(figsize=(9, 5.5))
    for game, policy, us, rate in points:
        ax.scatter(us, rate, color=GAME_COLOURS[games.index(game) % len(GAME_COLOURS)],
                   marker=POLICY_MARKERS[policies.index(policy) % len(POLICY_MARKERS)], s=55,
                   zorder=3)
    ax.set_xscale("log")
    ax.set_xlabel("time per deal on one core (microseconds, log scale)")
    ax.set_ylabel("deals won (%)")
    ax.set_title("Strength against cost")
    ax.grid(alpha=0.3)
    game_handles = [_line(color=GAME_COLOURS[i % len(GAME_COLOURS)], marker="o",
                          linestyle="", label=g) for i, g in enumerate(games)]
    policy_handles = [_line(color="grey", linestyle="",
                            marker=POLICY_MARKERS[i % len(POLICY_MARKERS)],
                            label=policy_label(p)) for i, p in enumerate(policies)]
    first = ax.legend(handles=game_handles, title="game", loc="upper left",
                      bbox_to_anchor=(1.02, 1), fontsize="small")
    ax.add_artist(first)
    ax.legend(handles=policy_handles, title="policy", loc="lower left",
              bbox_to_anchor=(1.02, 0), fontsize="small")
    return fig


def key_comparisons(data):
    """The pairs that matter, per game: each fair policy against the next weaker one, the best
    fair policy against the oracle, and a game against the one whose decks it deals (with
    each policy, and best against best); unpaired comparisons are left to the tables."""
    c = data.comparisons
    if c is None or c.empty:
        return c
    s = data.summary
    rate = dict(zip(zip(s.game, s.policy, strict=True), s.win_rate, strict=True))
    keep = []
    for row in c.itertuples():
        if row.comparison == "policies":
            fair = sorted((p for g, p in rate if g == row.game_a and not is_oracle(p)),
                          key=lambda p: rate[row.game_a, p])
            a, b = fair.index(row.policy_a), fair.index(row.policy_b)
            keep.append(abs(a - b) == 1)
        else:
            keep.append(row.pairing == "paired")  # the figure shows paired intervals only
    return c[keep]


def comparisons_figure(data):
    """The key paired comparisons (key_comparisons), grouped by game; the full list stays in
    the tables. None when the run has no pair."""
    c = key_comparisons(data)
    if c is None or c.empty:
        return None
    groups = list(dict.fromkeys(c.game_b))
    sizes = [int((c.game_b == g).sum()) for g in groups]
    fig, axes = _subplots(len(groups), 1, figsize=(9, 1.2 + sum(0.42 * n + 0.55
                                                               for n in sizes)),
                          gridspec_kw={"height_ratios": sizes}, squeeze=False)
    for ax, game in zip(axes[:, 0], groups, strict=True):
        rows = c[c.game_b == game]
        labels, d, low, high = [], [], [], []
        for r in rows.itertuples():
            first, second, sign = r.policy_a, r.policy_b, 1
            if r.comparison == "policies" and r.difference < 0:  # the stronger one first
                first, second, sign = r.policy_b, r.policy_a, -1
            labels.append(f"{first} vs {second}" if r.game_a == r.game_b
                          else f"{r.policy_a}: {r.game_a} vs {r.game_b}"
                          if r.policy_a == r.policy_b
                          else f"{r.game_a} {r.policy_a} vs {r.game_b} {r.policy_b}")
            ends = sorted((sign * r.ci_low * 100, sign * r.ci_high * 100))
            d.append(sign * r.difference * 100)
            low.append(ends[0])
            high.append(ends[1])
        y = np.arange(len(rows))[::-1]
        d, low, high = np.array(d), np.array(low), np.array(high)
        ax.errorbar(d, y, xerr=np.maximum([d - low, high - d], 0), fmt="o", capsize=3,
                    color="tab:purple", zorder=3)
        ax.axvline(0, color="grey", linewidth=1)
        ax.set_yticks(y, labels, fontsize="small")
        ax.set_ylim(-0.7, len(rows) - 0.3)
        ax.set_title(game, loc="left", fontsize="medium")
        ax.grid(axis="x", alpha=0.3)
    axes[-1, 0].set_xlabel("first minus second: win rate difference (points), paired 95% CI")
    for ax in axes[:, 0]:
        ax.set_xlim(min(ax.get_xlim()[0], -1), max(ax.get_xlim()[1], 1))
    fig.suptitle("Paired comparisons on the same deals")
    return fig


def win_rates_figure(data):
    """Every game and policy's win rate with its 95% Wilson interval, one row each."""
    s = data.summary
    fig, ax = _subplots(figsize=(8, 0.9 + 0.45 * len(s)))
    labels = [f"{g} / {policy_label(p)}" for g, p in zip(s.game, s.policy, strict=True)]
    y = np.arange(len(s))[::-1]
    rate = s.win_rate.to_numpy() * 100
    errors = [rate - s.ci_low.to_numpy() * 100, s.ci_high.to_numpy() * 100 - rate]
    ax.errorbar(rate, y, xerr=errors, fmt="o", capsize=4, color="tab:blue")
    ax.set_yticks(y, labels)
    ax.set_xlabel("win rate (%), with 95% Wilson interval")
    ax.set_title("Win rate per game and policy")
    ax.set_xlim(left=0)
    ax.grid(axis="x", alpha=0.3)
    return fig


def cards_home_figure(data):
    """How many cards each policy got home, as the share of deals with at most so many (ECDF)."""
    fig, ax = _subplots(figsize=(9, 5.5))
    for (game, policy), histogram in data.histograms.items():
        ecdf = np.cumsum(histogram) / max(histogram.sum(), 1)
        ax.step(np.arange(105), ecdf, where="post", label=f"{game} / {policy_label(policy)}")
    ax.set_xlabel("cards on the foundations at the end of a deal")
    ax.set_ylabel("share of deals, at most this many home")
    ax.set_title("Distribution of cards home (ECDF)")
    ax.set_xlim(0, 104)  # every card of the two decks home
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1))
    return fig


def convergence_figure(data):
    """How the win-rate estimate and its 95% band settled as deals were played."""
    fig, ax = _subplots(figsize=(9, 5.5))
    for (game, policy), points in data.convergence.items():
        if not points:
            continue
        n = np.array([k for k, _ in points])
        wins = np.array([w for _, w in points])
        bands = np.array([wilson_interval(w, k) for k, w in points]) * 100
        line, = ax.plot(n, wins / n * 100, label=f"{game} / {policy_label(policy)}")
        ax.fill_between(n, bands[:, 0], bands[:, 1], color=line.get_color(), alpha=0.15)
    ax.set_xscale("log")
    ax.set_xlabel("deals played (log scale)")
    ax.set_ylabel("win rate estimate (%), 95% band")
    ax.set_title("How the win-rate estimate converges")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1))
    return fig


def heatmap_figure(data):
    """Win rate for every game and policy, as a grid."""
    table = data.summary.pivot(index="game", columns="policy", values="win_rate")
    games = _games(data.summary)
    policies = list(dict.fromkeys(data.summary.policy))
    table = table.reindex(index=games, columns=policies) * 100
    fig, ax = _subplots(figsize=(2.8 + 2.0 * len(policies), 2.2 + 0.6 * len(games)))
    image = ax.imshow(table.to_numpy(), cmap="viridis", aspect="auto", vmin=0)
    ax.set_xticks(range(len(policies)), [policy_label(p).replace(" (", "\n(") for p in policies],
                  rotation=30, ha="right", fontsize="small")
    ax.set_yticks(range(len(games)), games)
    for i in range(len(games)):
        for j in range(len(policies)):
            value = table.iat[i, j]
            ax.text(j, i, "-" if np.isnan(value) else f"{value:.2f}%", ha="center",
                    va="center", color="white" if value < table.max().max() / 2 else "black")
    fig.colorbar(image, ax=ax, label="win rate (%)")
    ax.set_title("Win rate: game x policy")
    return fig


# file name -> the function that draws it (None: nothing to draw for this run)
FIGURES = {
    "strength": strength_figure,
    "strength_cost": cost_figure,
    "comparisons": comparisons_figure,
    "win_rates": win_rates_figure,
    "cards_home": cards_home_figure,
    "convergence": convergence_figure,
    "heatmap": heatmap_figure,
}


def save_figure(fig, folder: Path, name: str) -> None:
    """PNG and SVG, the same bytes for the same figure (no date, fixed SVG ids)."""
    import matplotlib

    folder.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    with matplotlib.rc_context({"svg.hashsalt": "simstats"}):
        fig.savefig(folder / f"{name}.png", dpi=120, metadata={"Software": None})
        fig.savefig(folder / f"{name}.svg", dpi=120, metadata={"Date": None})


def plot_run(data, folder: Path) -> None:
    """Every figure of a run, as PNG and SVG."""
    for name, draw in FIGURES.items():
        fig = draw(data)
        if fig is not None:
            save_figure(fig, folder, name)
