"""README's answers, written from the run that makes them, results/answers: each game's best fair
player and the oracle's bracket (summary.csv), the games against each other best against best
(comparisons.csv). The block between README's answers markers is replaced; nothing in it is
typed by hand. Also results/README.md, the committed runs with their commands.

    python docs/make_answers.py          # rewrite README's block
    python docs/make_answers.py --check  # exit 1 if README's block is not what the run says

tests/package/test_readme.py runs the check.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd

from simstats.engine.games import GAMES
from simstats.registry import is_oracle

ROOT = Path(__file__).resolve().parents[1]
RUN = ROOT / "results" / "answers"
README = ROOT / "README.md"
BEGIN = "<!-- answers: written by python docs/make_answers.py from results/answers -->"
END = "<!-- end of answers -->"


def percent(x: float) -> str:
    return f"{x:.1%}"


def points(x: float) -> str:
    return f"{x * 100:+.1f}"


def wrapped(command: list[str], width: int = 96) -> list[str]:
    """A command as shell lines of at most `width` characters, continued with backslashes."""
    units: list[str] = []  # an option with its value stays on one line
    for word in map(shlex.quote, command):
        if units and units[-1].startswith("--") and " " not in units[-1] and (
                not word.startswith("-")):
            units[-1] += " " + word
        else:
            units.append(word)
    lines, line = [], ""
    for word in units:
        if line and len(line) + 1 + len(word) > width - 2:
            lines.append(line + " \\")
            line = "    " + word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line]


def cell(game: str, policy: str) -> str:
    return f"{GAMES[game].title} `{policy}`"


def answers_block(run: Path = RUN) -> str:
    """The markdown between the markers, from the run's summary and comparisons."""
    summary = pd.read_csv(run / "summary.csv")
    comparisons = pd.read_csv(run / "comparisons.csv")
    manifest = json.loads((run / "manifest.json").read_text())
    core_minutes = sum(c.get("seconds", 0) for c in manifest["chunks"].values()) / 60
    lines = ["```sh", *wrapped(manifest["command"]), "```", "",
             f"(its deals took {core_minutes:,.0f} core-minutes) gives, for every game:", "",
             "| game | best fair player | won (95% CI) | deals | oracle: winnable (95% CI) |",
             "|---|---|---|---|---|"]
    for game, rows in summary.groupby("game", sort=False):
        fair = rows[~rows.policy.map(is_oracle)]
        best = fair.loc[fair.win_rate.idxmax()]
        oracle = rows[rows.policy.map(is_oracle)]
        bracket = "" if oracle.empty else (
            f"{percent(oracle.ci_low.iloc[0])} to {percent(oracle.ci_high.iloc[0])}")
        lines.append(f"| {GAMES[game].title} | `{best.policy}` | {percent(best.win_rate)} "
                     f"({percent(best.ci_low)} to {percent(best.ci_high)}) | "
                     f"{best.n_deals:,} | {bracket} |")
    games = comparisons[comparisons.comparison.str.endswith("best against best")]
    lines += ["", "| A | B | A - B, points (95% CI) | compared |", "|---|---|---|---|"]
    for r in games.itertuples():
        how = (f"paired on {r.deals:,.0f} deals" if r.pairing == "paired"
               else "unpaired: other decks")
        lines.append(f"| {cell(r.game_a, r.policy_a)} | {cell(r.game_b, r.policy_b)} | "
                     f"{points(r.difference)} ({points(r.ci_low)} to {points(r.ci_high)}) | "
                     f"{how} |")
    seeing = games[games.pairing == "paired"]
    for r in seeing.itertuples():
        lines += ["", *textwrap.wrap(
            f"Seeing the buried cards is worth {points(r.difference)} points "
            f"({points(r.ci_low)} to {points(r.ci_high)}) to the best fair players: "
            f"{cell(r.game_a, r.policy_a)} against {cell(r.game_b, r.policy_b)} "
            f"on the same {r.deals:,.0f} deals.", width=96)]
    return "\n".join(lines)


# What each committed run answers (its command and size are read from its manifest).
RUN_PURPOSES = {
    "answers": "every game with every built-in and the oracle: README's answers",
    "main-1e6": "the main job, `foundation-only` and `dig`: what the notebooks explore",
    "policies-100k": "the cheap built-ins on 100,000 deals of every game",
    "blind-digger-100k": "`blind-digger`, built in and as the example plugin, in Napoleon's Flank",
    "rollout-1k": "`rollout` on 1,000 deals of every game",
    "solver-20k": "`lookahead` and `solver` on 20,000 deals of every game",
    "solver-speed-20k": "`solver`'s restarts against its speed, Tournament",
    "solver-4e6-tournament-5k": "`solver` with the search planner makes once every card is seen",
    "solver-4e6-kingsdown-5k": "the same, Kingsdown Eights",
    "planner-5k": "`planner` against `solver`, Tournament and Cicely",
    "planner-kingsdown-5k": "`planner` against `solver`, Kingsdown Eights",
    "planner-napoleon-5k": "`planner` against `blind-digger`, Napoleon's Flank",
    "oracle-tournament-10k-32e6": "the oracle's bracket, Tournament, budget 32e6",
    "oracle-tournament-10k-64e6": "the oracle's bracket, Tournament, budget 64e6",
    "oracle-cicely-10k-32e6": "the oracle's bracket, Cicely, budget 32e6",
    "oracle-cicely-10k-64e6": "the oracle's bracket, Cicely, budget 64e6",
    "oracle-kingsdown-10k-32e6": "the oracle's bracket, Kingsdown Eights, budget 32e6",
    "oracle-kingsdown-10k-64e6": "the oracle's bracket, Kingsdown Eights, budget 64e6",
}


def committed_runs(results: Path = ROOT / "results") -> list[Path]:
    """The run folders under `results` that the repository keeps, in name order: not those git
    ignores, such as the results/run-<date>-<time>/ that README's first command writes."""
    folders = sorted(p for p in results.iterdir() if (p / "manifest.json").is_file())
    try:
        checked = subprocess.run(["git", "check-ignore", "--stdin"], cwd=results, text=True,
                                 input="".join(f"{folder}\n" for folder in folders),
                                 capture_output=True)
    except OSError:
        checked = None
    if checked is not None and checked.returncode in (0, 1):  # 128: not a git checkout
        ignored = {Path(line) for line in checked.stdout.splitlines()}
        return [folder for folder in folders if folder not in ignored]
    # No git (an unpacked archive): .gitignore's patterns of folders under results/.
    patterns = [line.rstrip("/") for line in (ROOT / ".gitignore").read_text().splitlines()
                if line.startswith("results/") and line.count("/") == 2]
    return [folder for folder in folders if not any(
        fnmatch.fnmatch(f"results/{folder.name}", pattern) for pattern in patterns)]


def results_index(results: Path = ROOT / "results") -> str:
    """results/README.md: each committed run, what it answers and the command that made it."""
    lines = ["# Committed runs", "",
             "Each folder is a run: its tables, figures, report page and manifest, and who won "
             "each deal", "(`wins.npz`, where it was made since runs keep it; the per-deal "
             "table `deals/` is not", "committed: the command makes it again, identically). "
             "Written by `python docs/make_answers.py`.", ""]
    for folder in committed_runs(results):
        manifest = json.loads((folder / "manifest.json").read_text())
        purpose = RUN_PURPOSES.get(folder.name, "undescribed")
        lines += [f"## {folder.name}", "", purpose[0].upper() + purpose[1:] + ".",
                  "", "```sh", *wrapped(manifest["command"]), "```", ""]
    return "\n".join(lines)


def readme_with_answers(readme: str, block: str) -> str:
    start, end = readme.index(BEGIN) + len(BEGIN), readme.index(END)
    return readme[:start] + "\n" + block + "\n" + readme[end:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check README")
    args = parser.parse_args()
    readme = README.read_text()
    wanted = readme_with_answers(readme, answers_block())
    index_file = ROOT / "results" / "README.md"
    index = results_index()
    if args.check:
        if wanted != readme or not index_file.is_file() or index_file.read_text() != index:
            sys.exit("README's answers or results/README.md differ from the runs: "
                     "run python docs/make_answers.py")
        return
    README.write_text(wanted)
    index_file.write_text(index)


if __name__ == "__main__":
    main()
