"""docs/adding-a-policy.md stays true: its module and registry line, as written, make a
built-in policy that is listed, takes its parameter, plays in the compiled loop and move by
move alike, and sees no hidden card."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hidden_cards import check_hidden_cards_change_no_move

from simstats import registry
from simstats.engine.deals import deal_deck
from simstats.engine.games import GAMES, get_game
from simstats.engine.state import OUTCOME_COLUMNS
from simstats.policies import (
    BUILTINS,
    PolicyError,
    describe_policy,
    list_policies,
    resolve_policy,
)
from simstats.run.compiled_play import run_compiled
from simstats.run.move_by_move import play_deck

GUIDE = Path(__file__).parents[2] / "docs" / "adding-a-policy.md"


@pytest.fixture
def home_first(tmp_path, monkeypatch):
    """The guide's module written where Python finds it, and its registry line added (the
    module under a path of the test's own, since the package's folder is not the test's)."""
    module, line = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), re.S)
    (tmp_path / "home_first.py").write_text(module)
    monkeypatch.syspath_prepend(str(tmp_path))
    name, reference = (part.strip().strip('",') for part in line.split(": "))
    assert reference == "simstats.policies.home_first:HomeFirst"
    monkeypatch.setitem(registry.BUILTIN_CLASSES, name, "home_first:HomeFirst")
    BUILTINS.pop(name, None)
    yield name
    BUILTINS.pop(name, None)
    sys.modules.pop("home_first", None)


def test_it_is_listed_as_a_built_in_and_takes_its_parameter(home_first):
    listed = {name: (line, source) for name, line, source in list_policies()}
    assert listed[home_first] == ("foundation moves; else deal, else redeal; resigns after "
                                  "`patience` deals and redeals", "built-in")
    assert resolve_policy(f"{home_first}[patience=1]").values == {"patience": 1}
    lines = [line.split() for line in describe_policy(home_first)]
    assert ["patience", "int", "100", "at", "least", "0", "deals"] in [row[:7] for row in lines]
    with pytest.raises(PolicyError, match="patience is an int, not '1.5'"):
        resolve_policy(f"{home_first}[patience=1.5]")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_it_plays_in_the_loop_and_move_by_move_alike(home_first, game_id):
    game, spec = get_game(game_id), resolve_policy(home_first)
    rows = run_compiled(game, spec, 2, 0, 10)
    impatient = run_compiled(game, resolve_policy(f"{home_first}[patience=0]"), 2, 0, 10)
    deals = OUTCOME_COLUMNS.index("deals")
    assert (impatient[:, deals] == 0).all() and rows[:, deals].max() > 0
    for deal in range(10):
        deck, reshuffles = deal_deck(game.array, 2, deal)
        played = play_deck(game, spec, deck, 2, deal, reshuffles)
        assert played.outcome.moves == rows[deal, OUTCOME_COLUMNS.index("moves")]


def test_it_sees_no_hidden_card(home_first):
    check_hidden_cards_change_no_move("napoleons-flank", home_first)
