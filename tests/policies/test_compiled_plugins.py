"""A user's compiled policy: a plugin plays the same moves in the compiled loop and move by move,
parameters and memory behave as declared, bad plugins fail in one line, and the compiled code
follows the plugin's file."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import reference_rules as ref
from plugins import plugin, policy_id
from traces import trace_lines

from simstats.engine.deals import deal_deck
from simstats.engine.games import GAMES, get_game
from simstats.engine.state import END_NAMES, OUTCOME_COLUMNS
from simstats.policies import PolicyCompileError, PolicyError, api, resolve_policy
from simstats.run.compiled_play import run_compiled
from simstats.run.move_by_move import play_deck

EXAMPLES = Path(__file__).parents[2] / "examples"
GREEDY = f"{EXAMPLES / 'greedy_cells.py'}:GreedyCells"
GREEDY_PYTHON = f"{EXAMPLES / 'greedy_cells_python.py'}:GreedyCells"
BLIND_DIGGER = f"{EXAMPLES / 'blind_digger.py'}:BlindDigger"


@pytest.mark.parametrize("policy", [GREEDY, BLIND_DIGGER], ids=policy_id)
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_compiled_plugin_plays_the_same_moves_in_the_loop_and_move_by_move(game_id, policy):
    """A compiled example in the compiled loop and the same class move by move (traces), and
    for GreedyCells its plain-Python twin written with Observation: deal by deal."""
    game, compiled = get_game(game_id), resolve_policy(policy)
    python = resolve_policy(GREEDY_PYTHON) if policy == GREEDY else None
    rows = run_compiled(game, compiled, 4, 0, 40)
    for deal in range(40):
        deck, reshuffles = deal_deck(game.array, 4, deal)
        play = play_deck(game, compiled, deck, 4, deal, reshuffles)
        if python is not None:
            assert play.moves == play_deck(game, python, deck, 4, deal, reshuffles).moves
        o = play.outcome
        assert dict(zip(OUTCOME_COLUMNS, rows[deal].tolist(), strict=True)) == {
            "reshuffles": o.reshuffles, "won": int(o.won), "foundation_cards": o.foundation_cards,
            "moves": o.moves, "deals": o.deals, "redeals": o.redeals,
            "end": END_NAMES.index(o.end)}
        assert ref.check_trace(trace_lines(play)) == o.result()


def test_parameters_are_declared_typed_and_checked(tmp_path):
    path = plugin(tmp_path, """
        class StopAfter(api.CompiledPolicy):
            '''Deals and plays home until it has made `limit` moves.'''
            parameters = {"limit": 5, "unused": 0.5}

            @staticmethod
            def check(values):
                if values["limit"] < 1:
                    raise ValueError(f"limit must be at least 1, not {values['limit']}")

            @staticmethod
            def choose(view, params, memory, rng):
                if api.moves_made(view) >= params.limit:
                    return api.NO_MOVE
                return api.legal_move(view, 0)
        """)
    game = get_game("cicely")
    short = run_compiled(game, resolve_policy(f"{path}:StopAfter"), 0, 0, 5)
    longer = run_compiled(game, resolve_policy(f"{path}:StopAfter[limit=9,unused=2]"), 0, 0, 5)
    assert (short[:, 3] <= 5).all() and (longer[:, 3] > 5).any()
    assert resolve_policy(f"{path}:StopAfter[limit=1e3]").values["limit"] == 1000
    for bad, says in [("limit=2.5", "limit is an int, not '2.5'"),
                      ("unused=x", "unused is a number, not 'x'"),
                      ("speed=3", "unknown parameter 'speed' (known: limit, unused)"),
                      ("limit", "is not name=value"),
                      ("limit=0", "StopAfter[limit=0]': limit must be at least 1, not 0")]:
        with pytest.raises(PolicyError, match=re.escape(says)):
            resolve_policy(f"{path}:StopAfter[{bad}]")


def test_memory_is_cleared_before_each_deal_and_the_workspace_kept(tmp_path):
    path = plugin(tmp_path, """
        class Counting(api.CompiledPolicy):
            '''Stops after as many moves as it has seen deals in its workspace, plus three.'''
            memory = {"made": api.scalar(np.int64), "marks": api.array(np.int16, 4, fill=7)}
            workspace = {"deals_seen": api.scalar(np.int64)}

            @staticmethod
            def choose(view, params, memory, rng):
                if memory.made == 0:
                    if memory.marks[3] != 7:
                        return 999999  # an illegal move: the memory was not reset
                    memory.deals_seen += 1
                memory.marks[3] = 1
                memory.made += 1
                if memory.made > 3:
                    return api.NO_MOVE
                return api.legal_move(view, 0)
        """)
    rows = run_compiled(get_game("tournament"), resolve_policy(f"{path}:Counting"), 0, 0, 6)
    assert (rows[:, 3] == 3).all()  # made is 0 again at every deal's start


def test_every_builtin_declares_itself_through_the_api():
    from simstats.policies import BUILTINS

    for name, spec in BUILTINS.items():
        assert issubclass(spec.cls, api.CompiledPolicy), name
        assert spec.description and spec.description != "(no description)"


@pytest.mark.parametrize(("source", "says"), [
    ("""
    class Broken(api.CompiledPolicy):
        '''Calls what numba cannot compile.'''
        @staticmethod
        def choose(view, params, memory, rng):
            return len({"a": view})
    """, r"numba cannot compile Broken\.choose in plugin\.py \(line \d+\): "),
    ("""
    class Allocates(api.CompiledPolicy):
        '''Allocates an array on every move.'''
        @staticmethod
        def choose(view, params, memory, rng):
            return np.zeros(3, dtype=np.int64)[0] + api.legal_move(view, 0)
    """, r"Allocates\.choose in plugin\.py \(line \d+\): No implementation of function zeros.*"
        r"declare them as memory or workspace"),
])
def test_code_numba_cannot_compile_is_refused_in_one_line(tmp_path, cli, source, says):
    path = plugin(tmp_path, source)
    name = source.split("class ")[1].split("(")[0]
    with pytest.raises(PolicyCompileError, match=says):
        run_compiled(get_game("cicely"), resolve_policy(f"{path}:{name}"), 0, 0, 1)
    out = tmp_path / "run"
    result = cli("run", "--games", "10", "--game", "cicely", "--policy", f"{path}:{name}",
                 "--workers", "1", "--out", out, "-q")
    assert result.code == 2
    assert result.stderr.count("\n") == 1 and "numba cannot compile" in result.stderr
    played = cli("play", "--game", "cicely", "--deal", "0", "--policy", f"{path}:{name}")
    assert played.code == 2 and played.stderr.count("\n") == 1


def test_a_plugin_that_misbehaves_is_named_with_its_game_and_deal(tmp_path, cli):
    path = plugin(tmp_path, """
        class Illegal(api.CompiledPolicy):
            '''Plays home, and at its fifth move something impossible.'''
            @staticmethod
            def choose(view, params, memory, rng):
                if api.moves_made(view) == 4:
                    return api.card_move(api.foundation_place(0), api.foundation_place(0))
                return api.legal_move(view, 0)

        class Raises(api.CompiledPolicy):
            '''Raises at its third move of one deal in four (its own stream decides).'''
            @staticmethod
            def choose(view, params, memory, rng):
                if api.moves_made(view) == 2 and api.random_below(rng, 4) == 0:
                    raise ValueError("no plan for this deal")
                return api.legal_move(view, 0)
        """)
    game = get_game("tournament")
    with pytest.raises(PolicyError, match=r"in tournament, deal 3 chose an illegal move"):
        run_compiled(game, resolve_policy(f"{path}:Illegal"), 0, 3, 2)
    raises = resolve_policy(f"{path}:Raises")
    with pytest.raises(PolicyError, match=r"in tournament, deal \d+ raised ValueError: no plan"
                       ) as raised:
        # Its stream is keyed by its name, which holds tmp_path, so which deal raises varies
        # between runs: of 60 deals, none raises once in 30 million runs (10 missed 1 in 18).
        run_compiled(game, raises, 0, 0, 60)
    deal = int(re.search(r"deal (\d+)", str(raised.value))[1])
    if deal:
        run_compiled(game, raises, 0, 0, deal)  # the deals before it play
    with pytest.raises(PolicyError, match=f"deal {deal} raised"):
        run_compiled(game, raises, 0, deal, 1)
    out = tmp_path / "run"
    good = cli("run", "--games", "20", "--game", "tournament", "--policy", "dig",
               "--chunk-size", "10", "--workers", "1", "--out", out, "-q")
    assert good.code == 0
    kept = sorted((out / "deals").iterdir())
    before = [p.read_bytes() for p in kept]
    for name in ("missing.py:X", f"{path}:NoSuchName", f"{path}:Illegal"):
        result = cli("run", "--games", "20", "--game", "tournament", "--policy", name,
                     "--chunk-size", "10", "--workers", "1", "--out", out, "-q")
        assert result.code != 0 and "Traceback" not in result.stderr
        assert result.stderr.strip().count("\n") == 0, result.stderr
    assert [p.read_bytes() for p in kept] == before  # finished chunks untouched


def test_a_badly_declared_plugin_is_refused(tmp_path):
    path = plugin(tmp_path, """
        class Words(api.CompiledPolicy):
            '''Parameters that are not numbers.'''
            parameters = {"style": "bold"}

            @staticmethod
            def choose(view, params, memory, rng):
                return api.NO_MOVE
        """)
    with pytest.raises(PolicyError, match="'style': declare it with api.integer, api.number"):
        resolve_policy(f"{path}:Words")


def _home_after_changing(path: Path, value: int) -> str:
    path.write_text(path.read_text().replace(f"LIMIT = {value - 1}", f"LIMIT = {value}"))
    run = [sys.executable, "-c", "import sys; from simstats.engine.games import get_game; "
           "from simstats.policies import resolve_policy; from simstats.run.compiled_play "
           "import run_compiled; print(run_compiled(get_game('cicely'), "
           "resolve_policy(sys.argv[1]), 0, 0, 3)[:, 3].tolist())", f"{path}:Limited"]
    return subprocess.run(run, capture_output=True, text=True, check=True).stdout.strip()


def test_changing_a_constant_in_the_plugin_file_takes_effect(tmp_path):
    """numba would load the loop compiled with the old constant if the cache were keyed on the
    generated loop alone: it is keyed on the plugin's file too."""
    path = plugin(tmp_path, """
        LIMIT = 2

        class Limited(api.CompiledPolicy):
            '''Stops after LIMIT moves.'''
            @staticmethod
            def choose(view, params, memory, rng):
                return api.NO_MOVE if api.moves_made(view) >= LIMIT else api.legal_move(view, 0)
        """)
    assert _home_after_changing(path, 2) == "[2, 2, 2]"
    assert _home_after_changing(path, 3) == "[3, 3, 3]"
    assert _home_after_changing(path, 3) == "[3, 3, 3]"


def test_the_notebook_api_plays_a_compiled_plugin(tmp_path):
    import simstats

    played = simstats.play_deal("cicely", GREEDY, seed=0, deal=3)
    assert played.moves and played.outcome.moves == len(played.moves)
    trial = simstats.play_run(40, game=["cicely"], policy=[GREEDY, "dig"], seed=0)
    assert set(trial.summary.policy) == {GREEDY, "dig"}
    mine = trial.deals[(trial.deals.policy == GREEDY) & (trial.deals.deal == 3)]
    assert int(mine.moves.iloc[0]) == played.outcome.moves


def test_a_cache_folder_that_cannot_be_written_falls_back_to_a_private_one(tmp_path):
    """`$SIMSTATS_CACHE_DIR` (or the home folder) read-only: the loop goes to the temporary
    folder instead of failing the run."""
    path = plugin(tmp_path, """
        class FirstMove(api.CompiledPolicy):
            '''The first legal move, for fifty moves.'''
            @staticmethod
            def choose(view, params, memory, rng):
                return api.NO_MOVE if api.moves_made(view) >= 50 else api.legal_move(view, 0)
        """, "fallback.py")
    run = [sys.executable, "-c", "import sys; from simstats.engine.games import get_game; "
           "from simstats.policies import resolve_policy; from simstats.run.compiled_play "
           "import run_compiled; print(run_compiled(get_game('cicely'), "
           "resolve_policy(sys.argv[1]), 0, 0, 2)[:, 3].tolist())", f"{path}:FirstMove"]
    done = subprocess.run(run, capture_output=True, text=True,
                          env={**__import__("os").environ,
                               "SIMSTATS_CACHE_DIR": "/proc/simstats-cannot-write-here"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[50, 50]"
