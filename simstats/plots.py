"""The only module that imports matplotlib (lazily, with the Agg backend): plots of a run."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .registry import policy_label
from .stats import wilson_interval


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, folder: Path, name: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    for suffix in ("png", "svg"):
        fig.savefig(folder / f"{name}.{suffix}", dpi=120)


def plot_win_rates(data, folder: Path) -> None:
    plt = _pyplot()
    s = data.summary
    fig, ax = plt.subplots(figsize=(8, 0.5 + 0.45 * len(s)))
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
    _save(fig, folder, "win_rates")
    plt.close(fig)


def plot_cards_home(data, folder: Path) -> None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 5))
    for (game, policy), histogram in data.histograms.items():
        ecdf = np.cumsum(histogram) / max(histogram.sum(), 1)
        ax.step(np.arange(105), ecdf, where="post", label=f"{game} / {policy_label(policy)}")
    ax.set_xlabel("cards on the foundations at the end of a deal")
    ax.set_ylabel("share of deals with at most this many cards home")
    ax.set_title("Distribution of cards home (ECDF)")
    ax.set_xlim(0, 104)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    _save(fig, folder, "cards_home")
    plt.close(fig)


def plot_convergence(data, folder: Path) -> None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 5))
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
    ax.legend(fontsize="small")
    _save(fig, folder, "convergence")
    plt.close(fig)


def plot_heatmap(data, folder: Path) -> None:
    plt = _pyplot()
    table = data.summary.pivot(index="game", columns="policy", values="win_rate")
    games = list(dict.fromkeys(data.summary.game))
    policies = list(dict.fromkeys(data.summary.policy))
    table = table.reindex(index=games, columns=policies) * 100
    fig, ax = plt.subplots(figsize=(1.8 + 1.6 * len(policies), 1.2 + 0.6 * len(games)))
    image = ax.imshow(table.to_numpy(), cmap="viridis", aspect="auto", vmin=0)
    ax.set_xticks(range(len(policies)), [policy_label(p) for p in policies], rotation=20,
                  ha="right")
    ax.set_yticks(range(len(games)), games)
    for i in range(len(games)):
        for j in range(len(policies)):
            value = table.iat[i, j]
            ax.text(j, i, "-" if np.isnan(value) else f"{value:.2f}%", ha="center",
                    va="center", color="white" if value < table.max().max() / 2 else "black")
    fig.colorbar(image, ax=ax, label="win rate (%)")
    ax.set_title("Win rate: game x policy")
    _save(fig, folder, "heatmap")
    plt.close(fig)


def plot_comparisons(data, folder: Path) -> None:
    c = data.comparisons
    if c is None or c.empty:
        return
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 1.6 + 0.45 * len(c)))
    labels = [f"{r.game_a}/{policy_label(r.policy_a)} - {r.game_b}/{r.policy_b}"
              for r in c.itertuples()]
    y = np.arange(len(c))[::-1]
    d = c.difference.to_numpy() * 100
    errors = [d - c.ci_low.to_numpy() * 100, c.ci_high.to_numpy() * 100 - d]
    ax.errorbar(d, y, xerr=np.maximum(errors, 0), fmt="o", capsize=4, color="tab:purple")
    ax.axvline(0, color="grey", linewidth=1)
    ax.set_yticks(y, labels, fontsize="small")
    ax.set_xlabel("difference in win rate, A - B (percentage points), paired 95% interval")
    ax.set_title("Paired comparisons on the same deals")
    ax.grid(axis="x", alpha=0.3)
    _save(fig, folder, "comparisons")
    plt.close(fig)


def plot_run(data, folder: Path) -> None:
    """Every plot of a run, as PNG and SVG."""
    for plot in (plot_win_rates, plot_cards_home, plot_convergence, plot_heatmap,
                 plot_comparisons):
        plot(data, folder)
