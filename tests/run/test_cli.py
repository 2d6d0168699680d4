"""The commands of the engine issue: play, deck, games, policies, and every bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import reference_rules as ref

from simstats.engine.cards import card_text
from simstats.engine.deals import deal_deck
from simstats.engine.games import get_game


@pytest.fixture
def tournament_deck(cli) -> str:
    return cli("deck", "--game", "tournament", "--seed", "4", "--deal", "2").stdout


def one_line_error(result, *fragments: str, code: int = 2) -> None:
    assert result.code == code
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0]


def test_games_lists_ids_aliases_and_a_line_each(cli):
    result = cli("games")
    assert result.code == 0
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == [
        "tournament", "napoleons-flank", "cicely", "kingsdown-eights"]
    for alias in ("marechal-saxe", "la-nivernaise", "nivernaise"):
        assert alias in result.stdout


def test_policies_lists_names_first(cli):
    result = cli("policies")
    names = [line.split()[0] for line in result.stdout.splitlines()]
    assert {"foundation-only", "random"} <= set(names)
    assert all(len(line.split()) > 1 for line in result.stdout.splitlines())


@pytest.mark.parametrize("args", [["--version"], ["games"], ["policies"]])
def test_the_listing_commands_load_no_compiled_code(args):
    """`--version`, `games` and `policies` answer at once: they import neither numba nor
    pandas, which take most of a second (benchmarks/cli_speed.md times them)."""
    script = ("import sys; from simstats.cli import main\n"
              f"try: main({args!r})\nexcept SystemExit: pass\n"
              "print(sorted({'numba', 'pandas', 'simstats.jit'} & set(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


def test_the_policies_listing_is_each_class_docstring_read_without_importing_it():
    from simstats.policies import resolve_policy
    from simstats.registry import BUILTIN_CLASSES, ORACLE_CLASSES, builtin_descriptions

    names = [*BUILTIN_CLASSES, *ORACLE_CLASSES]
    assert builtin_descriptions() == {name: resolve_policy(name).description for name in names}


def test_deck_prints_the_deck_of_a_deal(cli):
    result = cli("deck", "--game", "marechal-saxe", "--seed", "4", "--deal", "2")
    deck, _ = deal_deck(get_game("tournament").array, 4, 2)
    tokens = result.stdout.split()
    assert len(tokens) == 104
    assert tokens == [card_text(int(c)) for c in deck]
    flank = cli("deck", "--game", "nivernaise", "--seed", "4", "--deal", "2").stdout
    assert flank == result.stdout  # Tournament and Napoleon's Flank play the same deck


def test_play_a_deal_prints_the_outcome_and_writes_a_checkable_trace(cli, tmp_path):
    trace = tmp_path / "t.jsonl"
    result = cli("play", "--game", "cicely", "--seed", "3", "--deal", "8", "--policy", "random",
                 "--trace", trace)
    assert result.code == 0
    last = result.stdout.strip().splitlines()[-1]
    fields = dict(item.split("=") for item in last.split())
    lines = trace.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["game"] == "cicely" and header["policy"] == "random"
    assert header["seed"] == 3 and header["deal"] == 8
    checked = ref.check_trace(lines)
    assert fields == {k: str(v).lower() for k, v in checked.items()}


def test_play_from_stdin_with_ten_written_as_10(cli, tournament_deck):
    deck = tournament_deck.replace("T", "10").replace("10D", "10D")
    result = cli("play", "--game", "tournament", "--deck", "-", "--policy", "foundation-only",
                 stdin=deck)
    assert result.code == 0
    assert "end=" in result.stdout


def test_play_show_hides_buried_cards_of_napoleons_flank(cli):
    shown = cli("play", "--game", "napoleons-flank", "--seed", "0", "--deal", "1",
                "--policy", "foundation-only", "--show").stdout
    fanned = cli("play", "--game", "tournament", "--seed", "0", "--deal", "1",
                 "--policy", "foundation-only", "--show").stdout
    assert "##" in shown and "##" not in fanned
    assert "♠" in shown or "♣" in shown
    assert shown.count("\n\n") >= 3  # a position after every move


def test_the_seed_seeds_a_policy_playing_a_deck(cli, tmp_path, tournament_deck):
    deck_file = tmp_path / "deck.txt"
    deck_file.write_text(tournament_deck)
    traces = []
    for seed in (1, 1, 2):
        trace = tmp_path / f"t{len(traces)}.jsonl"
        cli("play", "--game", "tournament", "--deck", deck_file, "--seed", seed,
            "--policy", "random", "--trace", trace)
        traces.append(trace.read_text().splitlines()[1:])
    assert traces[0] == traces[1] and traces[0] != traces[2]


@pytest.mark.parametrize("content, fragments", [
    ("", ("empty",)),
    ("AS " * 103, ("103 cards",)),
    (None, ("105 cards",)),
    (None, ("AS (3 times)",)),
    (None, ("'ZZ'", "line 1", "card 5")),
    (b"\x00\x01\x02binary", ("binary",)),
])
def test_bad_deck_files(cli, tmp_path, tournament_deck, content, fragments):
    tokens = tournament_deck.split()
    if content is None and fragments[0] == "105 cards":
        content = " ".join(tokens + ["AS"])
    elif content is None and fragments[0].startswith("AS"):
        spare = tokens.index("AS")
        tokens[(spare + 1) % 104 if tokens[(spare + 1) % 104] != "AS" else spare + 2] = "AS"
        content = " ".join(tokens)
    elif content is None:
        tokens[4] = "ZZ"
        content = " ".join(tokens)
    deck_file = tmp_path / "deck.txt"
    deck_file.write_bytes(content if isinstance(content, bytes) else content.encode())
    result = cli("play", "--game", "tournament", "--deck", deck_file, "--policy", "random")
    one_line_error(result, *fragments)


def test_missing_deck_file(cli, tmp_path):
    result = cli("play", "--game", "tournament", "--deck", tmp_path / "nope.txt",
                 "--policy", "random")
    one_line_error(result, "does not exist")


@pytest.mark.parametrize("game", ["tournament", "napoleons-flank"])
def test_a_deck_that_needs_a_reshuffle_is_refused(cli, tmp_path, game):
    no_ace_or_king = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"]
    rest = [r + s for s in "CDHS" for r in "A23456789TJQK"] * 2
    for card in no_ace_or_king:
        rest.remove(card)
    deck_file = tmp_path / "deck.txt"
    deck_file.write_text(" ".join(no_ace_or_king + rest))
    one_line_error(cli("play", "--game", game, "--deck", deck_file, "--policy", "random"),
                   "reshuffle")
    # the same deck is fine for a game without the ace-or-king rule
    assert cli("play", "--game", "cicely", "--deck", deck_file, "--policy", "random").code == 0


@pytest.mark.parametrize("args, fragment", [
    (("play", "--game", "klondike", "--deal", "0", "--policy", "random"), "unknown game"),
    (("play", "--game", "cicely", "--deal", "0", "--policy", "best"), "unknown policy"),
    (("play", "--game", "cicely", "--deal", "-1", "--policy", "random"), "-1"),
    (("deck", "--game", "cicely", "--deal", "-3"), "-3"),
    (("deck", "--game", "spider", "--deal", "0"), "unknown game"),
    (("play", "--game", "cicely", "--policy", "random"), "--deck"),
    (("play", "--deal", "0", "--policy", "random"), "--game"),
    (("play", "--game", "cicely", "--deal", "0", "--policy", "nowhere.py:X"), "does not exist"),
    (("play", "--game", "cicely", "--deal", "0", "--policy", "no_such_module:X"), "import"),
])
def test_usage_errors_are_one_line(cli, args, fragment):
    one_line_error(cli(*args), fragment)


@pytest.mark.parametrize("command", [
    ("play", "--game", "cicely", "--deal", "0", "--policy", "dig"),
    ("solve", "--game", "cicely", "--deal", "0"),
])
def test_a_trace_that_cannot_be_written_is_refused_before_playing(cli, tmp_path, command):
    (tmp_path / "file").write_text("keep")
    for where, fragment in ((tmp_path / "file" / "t.jsonl", "no folder"),
                            (tmp_path, "is a folder"),
                            ("/proc/simstats-no/t.jsonl", "no folder")):
        one_line_error(cli(*command, "--trace", where), fragment)  # stdout empty: not played
    assert (tmp_path / "file").read_text() == "keep"


def test_a_misbehaving_policy_is_named_with_game_and_deal(cli, tmp_path):
    plugin = tmp_path / "bad.py"
    plugin.write_text(
        "class Raises:\n"
        "    def choose(self, obs):\n"
        "        raise RuntimeError('boom')\n"
        "class Cheats:\n"
        "    def choose(self, obs):\n"
        "        return 'T0>T1'\n"
    )
    raised = cli("play", "--game", "cicely", "--deal", "7", "--policy", f"{plugin}:Raises")
    one_line_error(raised, "Raises", "cicely", "deal 7", "boom", code=1)
    cheated = cli("play", "--game", "tournament", "--deal", "7", "--policy", f"{plugin}:Cheats")
    one_line_error(cheated, "Cheats", "tournament", "deal 7", "not a legal move", code=1)


def test_the_installed_command_prints_no_traceback():
    done = subprocess.run([sys.executable, "-m", "simstats", "play", "--game", "x", "--deal",
                           "0", "--policy", "random"], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_defaults_match_readme_and_the_oracle():
    # `simstats run` plays a million deals by default (README); `solve` searches with the
    # budget of `run --policy oracle`, so that both give one deal the same verdict
    from simstats.cli import cli as command
    from simstats.policies import resolve_policy

    def default(name: str, option: str):
        return next(p.default for p in command.commands[name].params if p.name == option)

    assert float(default("run", "games")) == 1e6
    assert float(default("solve", "budget")) == resolve_policy("oracle").values["budget"]
