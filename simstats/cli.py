"""The command line: a thin click layer that parses, calls the package and prints.

Every bad input ends in one line on stderr and a non-zero exit (2 for usage errors).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .registry import DEFAULT_POLICIES
from .version import __version__

if TYPE_CHECKING:
    from .engine.games import Game

# Each command imports what it uses: numba, numpy and pandas take most of a second to import,
# and `--version`, `games` and `policies` need none of them.

EXIT_USAGE = 2
_invoked: list[str] = []  # the arguments main() was given: what a run records as its command


class BadInput(click.UsageError):
    """A usage error reported as one line."""


def _game(name: str) -> Game:
    from .engine.games import UnknownGame, get_game

    try:
        return get_game(name)
    except UnknownGame as error:
        raise BadInput(str(error)) from None


def _policy(name: str):
    from .policies import PolicyError, resolve_policy

    try:
        return resolve_policy(name)
    except PolicyError as error:
        raise BadInput(str(error)) from None


def _read_deck(path: str, game: Game) -> list[int]:
    from .engine.cards import DeckError
    from .engine.deals import read_deck_file

    try:
        return read_deck_file(path, game.array, game.id)
    except DeckError as error:
        raise BadInput(str(error)) from None


def _deck_to_play(game: Game, deck_path, seed: int, deal) -> tuple[list[int], int]:
    """The deck of --deck FILE, or of --deal I under --seed S (exactly one of them)."""
    from .engine.deals import deal_deck

    if (deck_path is None) == (deal is None):
        raise BadInput("give either --deck FILE or --deal I (with --seed S)")
    if deck_path is not None:
        return _read_deck(deck_path, game), 0
    deck_array, reshuffles = deal_deck(game.array, seed, deal)
    return [int(c) for c in deck_array], reshuffles


def _check_writable(path: str | None, what: str) -> None:
    """Refuse, before anything is played, a file that cannot be written: one line, exit 2."""
    if path is None or path == "-":
        return
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise BadInput(f"cannot write {what} {path}: it is a folder")
    if not folder.is_dir():
        raise BadInput(f"cannot write {what} {path}: there is no folder {folder}")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise BadInput(f"cannot write {what} {path}: permission denied or read-only")


def _write(path: str, text: str, what: str) -> None:
    """Write a page or a trace (docs/rules.md section 10) whole; a trace to '-' is printed."""
    if path == "-" and what == "trace":
        click.echo(text, nl=False)
        return
    from .run.records import write_text_atomically

    try:
        write_text_atomically(Path(path), text)
    except OSError as error:
        raise BadInput(f"cannot write {what} {path!r}: {error.strerror or error}") from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="simstats")
def cli() -> None:
    """Play two-deck patience games by the million and tell how often they are won."""


@cli.command()
@click.option("--game", "game_name", required=True, help="Game id or alias (see `simstats games`).")
@click.option("--deck", "deck_path", help="Deck text file to play, '-' for stdin.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the deal; with --deck, seeds the policy only.")
@click.option("--deal", type=click.IntRange(min=0), help="Deal number under --seed (from 0).")
@click.option("--policy", "policy_name", required=True,
              help="Policy name (see `simstats policies`).")
@click.option("--trace", "trace_path", help="Write the JSON Lines trace here ('-' for stdout).")
@click.option("--show", is_flag=True, help="Print the position after every move.")
@click.option("--html", "html_path", help="Write a page that replays the deal move by move.")
def play(game_name, deck_path, seed, deal, policy_name, trace_path, show, html_path) -> None:
    """Play one deal, from a deck file or from (seed, deal), and print its outcome."""
    from .policies import PolicyCompileError, PolicyError
    from .report.render import render
    from .report.replay_page import playthrough_page
    from .run.move_by_move import play_deck
    from .run.playthrough import trace

    _check_writable(trace_path, "trace")
    _check_writable(html_path, "page")
    game = _game(game_name)
    spec = _policy(policy_name)
    deck, reshuffles = _deck_to_play(game, deck_path, seed, deal)
    echo = click.echo if trace_path != "-" else (lambda text: click.echo(text, err=True))

    def show_move(move, card, obs):
        echo(f"\n{obs.moves_made}. {move}" + (f" ({card})" if card else ""))
        echo(render(obs))

    on_move = show_move if show else None
    if show:
        from .run.move_by_move import DealInPlay

        echo("0. layout\n" + render(DealInPlay(game, deck, reshuffles).observation()))
    try:
        played = play_deck(game, spec, deck, seed, deal, reshuffles, on_move=on_move)
    except PolicyCompileError as error:
        raise BadInput(str(error)) from None
    except PolicyError as error:
        raise click.ClickException(str(error)) from None
    outcome = played.outcome
    if trace_path is not None:
        _write(trace_path, trace(played), "trace")
    if html_path is not None:
        _write(html_path, playthrough_page(game, played, False), "page")
    where = f"deal {deal} of seed {seed}" if deal is not None else f"deck {deck_path}"
    echo(f"{game.id}, {spec.name}, {where}: " + ("won" if outcome.won else "not won"))
    echo(
        f"won={str(outcome.won).lower()} foundation_cards={outcome.foundation_cards} "
        f"moves={outcome.moves} deals={outcome.deals} redeals={outcome.redeals} end={outcome.end}"
    )


@cli.command()
@click.option("--game", "game_name", required=True, help="Game id or alias.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--deal", type=click.IntRange(min=0), required=True, help="Deal number (from 0).")
def deck(game_name, seed, deal) -> None:
    """Print the deck text that deal I of seed S plays for game G."""
    from .engine.cards import deck_text
    from .engine.deals import deal_deck

    game = _game(game_name)
    cards, _ = deal_deck(game.array, seed, deal)
    click.echo(deck_text(cards))


@cli.command()
@click.argument("name", required=False)
def policies(name) -> None:
    """List the available policies: name, one line, and where each comes from; with NAME, that
    policy and its parameters (type, default, range, meaning)."""
    from .registry import builtin_descriptions, plugin_entry_points

    if name is not None:
        from .policies import PolicyError, describe_policy

        try:
            click.echo("\n".join(describe_policy(name)))
        except PolicyError as error:
            raise BadInput(str(error)) from None
        return
    rows = [(name, line, "built-in") for name, line in builtin_descriptions().items()]
    if plugin_entry_points():
        from .policies import plugin_policies

        rows += plugin_policies()
    width = max(len(name) for name, _, _ in rows)
    for name, description, source in rows:
        click.echo(f"{name.ljust(width)}  {description} [{source}]")


@cli.command()
def games() -> None:
    """List the games, their aliases and one line each."""
    from .engine.games import GAMES

    width = max(len(g) for g in GAMES)
    for game in GAMES.values():
        aliases = f" (also: {', '.join(game.aliases)})" if game.aliases else ""
        click.echo(f"{game.id.ljust(width)}  {game.description}{aliases}")


class DealCount(click.ParamType):
    """A whole positive number of deals (or other things): 1e6, 250000, 1_000_000."""

    name = "N"

    def __init__(self, what: str = "deals"):
        self.what = what

    def convert(self, value, param, ctx):
        from .run.options import parse_count

        try:
            return parse_count(value, self.what)
        except ValueError as error:
            self.fail(str(error))


@cli.command()
@click.option("--game", "game_name", required=True, help="Game id or alias.")
@click.option("--deck", "deck_path", help="Deck text file to solve, '-' for stdin.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of --deal.")
@click.option("--deal", type=click.IntRange(min=0), help="Deal number under --seed (from 0).")
@click.option("--budget", type=DealCount("positions"), default="64e6", show_default=True,
              help="Positions the searches may expand in all (as the oracle's default).")
@click.option("--trace", "trace_path",
              help="Write the line played as a JSON Lines trace ('-' for stdout): the winning "
                   "line, else the one with the most cards home.")
@click.option("--html", "html_path", help="Write a page that replays the line played.")
def solve(game_name, deck_path, seed, deal, budget, trace_path, html_path) -> None:
    """Solve one deal knowing every card, the stock's order included (a perfect-information
    oracle, not a player): won, lost (proven) or unknown (budget spent)."""
    import time

    from .report.replay_page import playthrough_page
    from .run.playthrough import trace
    from .run.solve import solve_deal
    from .search import table_bits_for

    _check_writable(trace_path, "trace")
    _check_writable(html_path, "page")
    game = _game(game_name)
    deck, reshuffles = _deck_to_play(game, deck_path, seed, deal)
    started = time.perf_counter()
    solution = solve_deal(game, deck, budget, seed, deal, reshuffles)
    seconds = time.perf_counter() - started
    echo = click.echo if trace_path != "-" else (lambda text: click.echo(text, err=True))
    if trace_path is not None:
        _write(trace_path, trace(solution.play), "trace")
    if html_path is not None:
        _write(html_path, playthrough_page(game, solution.play, True), "page")
    outcome = solution.play.outcome
    where = f"deal {deal} of seed {seed}" if deal is not None else f"deck {deck_path}"
    detail = {
        "won": f"a winning line of {outcome.moves} moves",
        "lost": f"proven: no line wins; the best line gets {outcome.foundation_cards} cards home",
        "unknown": f"no win and no proof after {solution.positions:,} positions (budget "
                   f"{budget:,}; the search's table holds {1 << table_bits_for(budget):,}); the "
                   f"best line found "
                   f"gets {outcome.foundation_cards} cards home",
    }[solution.verdict]
    echo(f"{game.id}, {where}: {solution.verdict} ({detail}; {seconds:.2f} s)")




@cli.command()
@click.argument("trace_path", metavar="TRACE")
@click.option("--html", "html_path", required=True, help="The page to write.")
def replay(trace_path, html_path) -> None:
    """Write a page that replays a trace (docs/rules.md section 10) move by move, checking
    every move against the rules."""
    from .report.replay_page import TraceError, replay_trace

    _check_writable(html_path, "page")
    try:
        page = replay_trace(Path(trace_path))
    except TraceError as error:
        raise BadInput(str(error)) from None
    _write(html_path, page, "page")
    click.echo(f"wrote {html_path}")


@cli.command()
@click.option("--games", "games", type=DealCount(), default="1e6", show_default=True,
              help="Deals per game and policy (1e6, 250000, 1_000_000).")
@click.option("--game", "game_names", multiple=True,
              help="Game to play (repeat for several). Default: all four.")
@click.option("--policy", "policy_names", multiple=True,
              help="Policy to play (repeat); `NAME@N` plays N deals of each game instead of "
              "--games (`planner@5e3`). Default: " + ", ".join(DEFAULT_POLICIES)
              + " (the built-ins fast enough for a million deals of every game).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), help="Worker processes. Default: all cores.")
@click.option("--chunk-size", type=DealCount(), default=None,
              help="Deals per chunk (the unit of work, of files and of resuming). Default: "
              "a game and policy's deals in 8 chunks of 1000 to 50000 (or the resumed run's).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False),
              help="Run folder. Default: results/run-<date>-<time>.")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local",
              show_default=True)
@click.option("--scheduler", help="Dask scheduler address (tcp://HOST:PORT) for --backend dask.")
@click.option("--precision", type=click.FloatRange(min=0, min_open=True, max=50),
              help="Play each game and policy, in deal order, until its 95% interval is at most "
              "this many points either side (or its deals are played): 0.5 for 50.3% +- 0.5.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar: a start and an end line only.")
def run(games, game_names, policy_names, seed, workers, chunk_size, out_dir, backend, scheduler,
        precision, quiet) -> None:
    """Play every game with every policy on the same deals, in parallel; resumable."""
    from .engine.games import GAMES
    from .run.options import (
        RunOptions,
        chunk_size_for,
        default_out_dir,
        default_workers,
        policies_and_counts,
    )
    from .run.records import RunError, RunRefused
    from .run.runner import execute

    game_ids = tuple(dict.fromkeys(_game(name).id for name in game_names or GAMES))
    try:
        policies, own = policies_and_counts(policy_names or DEFAULT_POLICIES)
    except ValueError as error:
        raise BadInput(str(error)) from None
    for name in policies:
        _policy(name)
    if scheduler and backend != "dask":
        raise BadInput("--scheduler needs --backend dask")
    out = Path(out_dir) if out_dir else default_out_dir()
    options = RunOptions(
        own_counts=tuple((name, n, chunk_size_for(n, out, chunk_size, name, precision))
                         for name, n in own.items()),
        precision=precision,
        games=games,
        game_ids=game_ids,
        policies=policies,
        seed=seed,
        chunk_size=chunk_size_for(games, out, chunk_size, precision=precision),
        workers=workers or default_workers(),
        out=out,
        backend=backend,
        scheduler=scheduler,
        quiet=quiet,
        command=("simstats", *_invoked),
    )
    started = __import__("time").perf_counter()
    try:
        finished = execute(options, echo=click.echo)
    except RunRefused as error:
        raise BadInput(str(error)) from None
    except RunError as error:
        raise click.ClickException(f"{error} (finished chunks are kept in {options.out})") from None
    except KeyboardInterrupt:
        click.echo(f"simstats: interrupted; run the same command again to resume {options.out}",
                   err=True)
        sys.exit(130)
    from .report.summary import write_report
    from .run.records import DamagedChunk

    try:
        write_report(finished.dir)
    except DamagedChunk as error:
        raise click.ClickException(str(error)) from None
    seconds = __import__("time").perf_counter() - started
    click.echo(f"simstats run: complete in {seconds:.1f} s -> {finished.dir}")


@cli.command(name="compile")
@click.argument("policy_names", metavar="[POLICY]...", nargs=-1)
@click.option("--workers", type=click.IntRange(min=1),
              help="Policies compiled at once, each in a process. Default: all cores.")
def compile_policies(policy_names, workers) -> None:
    """Compile policies into this machine's cache (default: every built-in and the oracle), so
    that runs, tests and a cluster's workers load them instead of compiling."""
    from .policies import PolicyError
    from .run.compiling import all_compiled_policies, build_all
    from .run.options import default_workers

    names = list(dict.fromkeys(policy_names or all_compiled_policies()))
    for name in names:
        _policy(name)
    workers = min(workers or default_workers(), len(names))
    click.echo(f"simstats compile: {len(names)} "
               f"{'policy' if len(names) == 1 else 'policies'} on {workers} "
               f"{'process' if workers == 1 else 'processes'}: {', '.join(names)}")
    started = __import__("time").perf_counter()

    def built(done) -> None:
        how = "compiled" if done.compiled else "already in the cache, loaded"
        click.echo(f"  {done.policy}: {how} in {done.seconds:.1f} s")

    try:
        build_all(names, workers, built)
    except PolicyError as error:
        raise BadInput(str(error)) from None
    seconds = __import__("time").perf_counter() - started
    click.echo(f"simstats compile: done in {seconds:.1f} s")


@cli.command()
@click.argument("run_dir", type=click.Path(file_okay=False))
def report(run_dir) -> None:
    """Write summary.csv, summary.md and plots/ for a run folder (finished or not)."""
    from .report.summary import NotARun, write_report
    from .run.records import DamagedChunk

    try:
        data = write_report(Path(run_dir))
    except NotARun as error:
        raise BadInput(str(error)) from None
    except DamagedChunk as error:
        raise click.ClickException(str(error)) from None
    except OSError as error:
        raise BadInput(f"cannot write the report in {run_dir}: "
                       f"{error.strerror or error}") from None
    if data.status != "complete":
        click.echo(f"note: this run is {data.status}; the tables cover the deals finished so far")
    click.echo(f"wrote summary.csv, comparisons.csv, summary.md, plots/ and report.html "
               f"in {run_dir}")


@cli.command()
@click.argument("run_dir", type=click.Path(file_okay=False), metavar="RUN")
@click.option("--sample", "fraction", type=click.FloatRange(min=0, min_open=True, max=1),
              default=0.05, show_default=True,
              help="Share of each game and policy's chunks replayed (at least one; 1: all).")
@click.option("--deals", "deals", type=DealCount(),
              help="Replay only this many deals of each chunk drawn, at random. Default: all.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the sample (not of the deals: those are the run's).")
@click.option("--workers", type=click.IntRange(min=1), help="Worker processes. Default: all cores.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def verify(run_dir, fraction, deals, seed, workers, quiet) -> None:
    """Play a seeded sample of a run's chunks again with today's code and compare every
    outcome it recorded (or, for a committed run, who won each deal). Exit 1 if any differs."""
    from tqdm import tqdm

    from .policies import PolicyError
    from .run.options import default_workers
    from .run.verify import VerifyError
    from .run.verify import verify as verify_run

    bar = tqdm(desc="verify", unit="chunk", disable=quiet, leave=False)
    try:
        verdict = verify_run(Path(run_dir), fraction, deals, seed,
                             workers or default_workers(), progress=bar.update)
    except VerifyError as error:
        raise BadInput(str(error)) from None
    except PolicyError as error:
        raise click.ClickException(str(error)) from None
    finally:
        bar.close()
    click.echo(verdict.text(run_dir))
    if not verdict.identical:
        sys.exit(1)


@cli.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--format", "output", type=click.Choice(["text", "csv", "json", "md"]),
              default="text", show_default=True, help="How to print the comparison.")
def compare(a, b, output) -> None:
    """Compare two results, each RUN:GAME:POLICY (quote a policy with brackets): their win
    rates and the difference A - B with its 95% interval, paired deal by deal where both
    played the same decks, unpaired (Newcombe) where not."""
    from .report.compare import CompareError, comparison_table, comparison_text, parse_cell
    from .report.compare import compare as compare_cells

    try:
        row = compare_cells(parse_cell(a), parse_cell(b))
    except CompareError as error:
        raise BadInput(str(error)) from None
    table = comparison_table(row)
    if output == "text":
        click.echo(comparison_text(row))
    elif output == "csv":
        click.echo(table.to_csv(index=False), nl=False)
    elif output == "json":
        click.echo(table.to_json(orient="records", lines=True), nl=False)
    else:
        from .report.summary import markdown_table

        click.echo(markdown_table(table.astype(object).where(table.notna(), "")))


def console_main() -> None:
    """The `simstats` command: main(), then an exit that skips the interpreter's last garbage
    collections over every object the command made (gc.freeze): half a second after a run,
    for memory the process is giving back anyway. Tests call main(), which keeps collecting."""
    import gc

    try:
        main()
    finally:
        gc.freeze()


def main(argv: list[str] | None = None) -> None:
    """Entry point: click without its multi-line usage errors and tracebacks."""
    global _invoked
    _invoked = list(argv) if argv is not None else sys.argv[1:]
    try:
        cli.main(args=argv, prog_name="simstats", standalone_mode=False)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.ClickException as error:
        click.echo(f"simstats: error: {error.format_message()}", err=True)
        sys.exit(error.exit_code)
    except click.exceptions.Abort:
        click.echo("simstats: interrupted", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        click.echo("simstats: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(1)
