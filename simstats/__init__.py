"""simstats: plays two-deck patience games by the million under pluggable policies.

The notebook-facing API (simstats/notebook.py, re-exported here): a thin layer over the
functions the command line calls (runner, report, simulate, render), so a notebook repeats none
of their logic. Importing ``simstats`` is cheap: pandas, numpy and the compiled engine are
imported by the functions that need them, so nothing is compiled before a deal is played.

Runs and their tables:
    load_run(path) -> Run           the per-deal table, the summary and the manifest of a run
    play_run(games, game, policy)   play a (small) run into a folder and load it
    summarize(source, by=...)       win rate with its 95% interval, cards home, ... per group
    paired(deals, game, a, b)       the outcomes of two policies side by side, deal by deal
    compare(deals, game, a, b)      both won / only A / only B / neither, A - B, McNemar p
    plot_run(path)                  the report's plots of a run, as PNG files

Single deals:
    play_deal(game, policy, seed, deal) -> Playthrough   one deal played move by move
    deal_in_play(game, seed, deal)  a deal to step through by hand: observation(), play(move)
    positions(playthrough)          the position after every move, as the player sees it
    first_difference(a, b)          the first move where two playthroughs part ways
    trace(playthrough)              the JSON Lines trace of docs/rules.md section 10

    list_games(), list_policies()
"""

from __future__ import annotations

from .notebook import (
    Run,
    compare,
    deal_in_play,
    first_difference,
    list_games,
    list_policies,
    load_run,
    paired,
    play_deal,
    play_run,
    plot_run,
    positions,
    summarize,
    trace,
)
from .version import __version__

__all__ = [
    "Run", "__version__", "compare", "first_difference", "list_games", "list_policies",
    "deal_in_play", "load_run", "paired", "play_deal", "play_run", "plot_run", "positions",
    "summarize", "trace",
]
