"""The `solver` policy's schedule of searches sharing the positions they prove dead, and the
oracle: its budget and table, its lines replayed by the independent reference
implementation, the `solve` command, and the oracle in runs and reports."""

from __future__ import annotations

import json

import numpy as np
import pytest
import reference_rules as ref
from positions import make_state
from search_helpers import TOURNAMENT, laid_out, memo_schedule

from simstats import trace
from simstats.engine.deals import deal_deck
from simstats.engine.games import get_game
from simstats.engine.state import WON_AT
from simstats.policies import resolve_policy
from simstats.run.compiled_play import run_compiled
from simstats.run.solve import solve_deal
from simstats.search import (
    NODES,
    ORDER_SEED,
    SEARCH_LOST,
    SEARCH_UNDECIDED,
    search_buffers,
    solve,
)


def test_the_oracle_counts_every_search_against_its_budget():
    # seed 0, deal 400 of Tournament: no search of 40,000 positions in all decides it
    from simstats.search import ORDER_SEED, solve_position

    game = get_game("tournament")
    state = laid_out(game, deal_deck(game.array, 0, 400)[0])
    work = search_buffers()
    assert solve_position(state, game.array, 40_000, work) == SEARCH_UNDECIDED
    info = work.info
    # restarts of 20 x luby(i) positions up to 30,000, then exact with the rest, each stopped
    # at its share
    assert info[NODES] == 40_000
    assert info[ORDER_SEED] == 0  # the next search is in the plain order again


def test_the_oracles_table_grows_with_its_budget_up_to_a_bound():
    from simstats.search import MAX_TABLE_BITS, MIN_TABLE_BITS, search_arrays, table_bits_for

    assert table_bits_for(1_000) == MIN_TABLE_BITS
    for budget in (25_000, 4_000_000, 8_000_000):
        bits = table_bits_for(budget)
        assert (1 << bits) * 0.55 >= budget > (1 << (bits - 1)) * 0.55
    assert table_bits_for(100_000_000) == MAX_TABLE_BITS
    biggest = sum(np.dtype(dtype).itemsize * np.prod(shape)
                  for _, dtype, shape in search_arrays(False, MAX_TABLE_BITS))
    assert biggest < 300 * 2**20  # a searcher's memory, whatever its budget


def test_marks_decide_a_lost_position_that_no_single_search_of_the_schedule_can():
    # 17 cards out, 5 of 8 cells taken, no redeal left: lost, which an exact search sees
    # after 34 positions; searches of 8 positions each, in 63 shaken orders, never do alone
    start = make_state("tournament", reserve=["2S", "TH", "3C", "4D", "5S"],
                       tableau=["4S 3D 6D AC JH 3S KH 2D", "8H 7S 5D 2C AH AS QH", "6S 9H AD"],
                       foundations=[13, 13, 7, 13, 10, 7, 12, 6], redeals=2)
    rules = TOURNAMENT.array
    fresh = search_buffers()
    assert solve(start, rules, 1_000_000, 2000, False, fresh) == SEARCH_LOST
    alone = set()
    for attempt in range(63):
        fresh.info[ORDER_SEED] = attempt
        alone.add(solve(start, rules, 8, 2000, False, fresh))
    fresh.info[ORDER_SEED] = 0
    assert alone == {SEARCH_UNDECIDED}
    # sharing what they proved dead, a few such searches prove it lost (luby=0: 8 each)
    result, searches = memo_schedule(start, rules, search_buffers(), 8, False, 63,
                                     luby_budgets=False)
    assert result == SEARCH_LOST and searches < 63


def test_the_solver_policys_default_shares_dead_positions_and_searches_exactly():
    game = get_game("tournament")
    default = run_compiled(game, resolve_policy("solver"), 0, 0, 20)
    same = run_compiled(game, resolve_policy("solver[memo=1,exact=1]"), 0, 0, 20)
    assert (default == same).all()
    afresh = run_compiled(game, resolve_policy("solver[memo=0]"), 0, 0, 20)  # legal, or it raises
    assert afresh[:, 1].sum() <= default[:, 1].sum() + 2


@pytest.mark.parametrize("memo", [0, 1])
def test_exact_searches_after_no_eager_line_wins_deals_eager_searches_lose(memo):
    # Tournament deals 597 and 924 (seed 0): where `solver` first searches, no eager line wins
    # (14 and 792 positions), and an exact search does (benchmarks/lost_deals_tournament.md)
    game = get_game("tournament")
    for deal in (597, 924):
        eager_only = resolve_policy(f"solver[exact=0,memo={memo}]")
        assert run_compiled(game, eager_only, 0, deal, 1)[0, WON_AT] == 0
        spec = resolve_policy(f"solver[exact=1,memo={memo}]")
        assert run_compiled(game, spec, 0, deal, 1)[0, WON_AT] == 1
        assert run_compiled(game, resolve_policy("solver"), 0, deal, 1)[0, WON_AT] == 1


# --- whole deals: the oracle's lines and the fair solver


def trace_lines(solution) -> list[str]:
    return trace(solution.play).splitlines()


@pytest.mark.parametrize("game_id", ["tournament", "cicely"])
def test_oracle_lines_replay_in_the_reference_implementation(game_id):
    game = get_game(game_id)
    verdicts = []
    for deal in range(3):
        deck, reshuffles = deal_deck(game.array, 0, deal)
        solution = solve_deal(game, deck, 200_000, 0, deal, reshuffles)
        result = ref.check_trace(trace_lines(solution))
        assert result == solution.play.outcome.result()
        assert result["won"] == (solution.verdict == "won")
        if solution.verdict == "won":
            assert result["foundation_cards"] == 104
        verdicts.append(solution.verdict)
    assert "won" in verdicts


def test_the_solver_policy_is_deterministic_and_beats_lookahead():
    game = get_game("tournament")
    solver = resolve_policy("solver[budget=20000]")
    first = run_compiled(game, solver, 4, 0, 30)
    assert (first == run_compiled(game, solver, 4, 0, 30)).all()
    lookahead = run_compiled(game, resolve_policy("lookahead"), 4, 0, 30)
    assert first[:, 1].sum() > lookahead[:, 1].sum() + 5
    assert (first[:, 1] >= lookahead[:, 1]).mean() > 0.9


def test_the_oracle_wins_every_deal_the_solver_wins():
    game = get_game("tournament")
    oracle = run_compiled(game, resolve_policy("oracle[budget=50000]"), 2, 0, 20)
    solver = run_compiled(game, resolve_policy("solver"), 2, 0, 20)
    assert (oracle[:, 1] >= solver[:, 1]).all()


def test_solve_command_reports_and_writes_a_checkable_trace(cli, tmp_path):
    path = tmp_path / "line.jsonl"
    result = cli("solve", "--game", "tournament", "--seed", "0", "--deal", "1", "--trace", path)
    assert result.code == 0, result.stderr
    assert ": won (a winning line of" in result.stdout
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["policy"] == "oracle"
    assert ref.check_trace(lines)["won"] is True


@pytest.mark.parametrize("args, message", [
    (["--game", "tournament"], "give either --deck FILE or --deal I"),
    (["--game", "tournament", "--deal", "1", "--budget", "lots"], "not a number of positions"),
    (["--game", "chess", "--deal", "1"], "unknown game"),
])
def test_solve_command_refuses_bad_input_in_one_line(cli, args, message):
    result = cli("solve", *args)
    assert result.code == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_the_oracle_is_not_a_player(cli):
    result = cli("play", "--game", "tournament", "--deal", "0", "--policy", "oracle")
    assert result.code != 0
    assert "not a player" in result.stderr and "Traceback" not in result.stderr


def test_a_run_labels_the_oracle_and_compares_it_with_the_best_policy(cli, tmp_path):
    out = tmp_path / "run"
    result = cli("run", "--games", "12", "--game", "tournament", "--policy", "lookahead",
                 "--policy", "oracle[budget=20000]", "--workers", "1", "--out", out, "-q")
    assert result.code == 0, result.stderr
    summary = (out / "summary.md").read_text()
    assert "oracle[budget=20000] (perfect-information oracle)" in summary
    assert "is not a player" in summary
    import pandas as pd

    comparisons = pd.read_csv(out / "comparisons.csv")
    row = comparisons[comparisons.comparison == "oracle minus best policy"].iloc[0]
    assert (row.policy_a, row.policy_b) == ("oracle[budget=20000]", "lookahead")
    assert row.deals == 12 and row.only_b == 0  # the oracle wins whatever lookahead wins


def test_the_oracle_interval_brackets_its_unknown_deals():
    import pandas as pd

    from simstats.report.summary import Tally
    from simstats.stats import wilson_interval

    tally = Tally()
    tally.add(pd.DataFrame({
        "won": [1] * 60 + [0] * 40, "foundation_cards": [104] * 60 + [90] * 40,
        "moves": 0, "deals": 0, "redeals": 0, "reshuffles": 0,
        "end": ["won"] * 60 + ["unknown"] * 10 + ["no_moves"] * 30,
    }))
    row = tally.row("tournament", "oracle")
    assert row["win_rate"] == 0.6
    assert row["ci_low"] == wilson_interval(60, 100)[0]
    assert row["ci_high"] == wilson_interval(70, 100)[1]
