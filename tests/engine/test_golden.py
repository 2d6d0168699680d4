"""Golden `foundation-only` transcripts: fixed decks per game, replayed and compared line by line.

The files in tests/golden were written by `simstats play --trace` and checked against the
independent reference; a change to any of them is a change of rules and needs RULES_VERSION.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import reference_rules as ref

from simstats.engine.games import GAMES

GOLDEN = sorted((Path(__file__).parents[1] / "golden").glob("*.jsonl"))


def test_there_are_golden_transcripts_for_every_game():
    games = {path.name.rsplit("-", 1)[0] for path in GOLDEN}
    assert games == set(GAMES)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_transcript_replays_identically(path, tmp_path, cli):
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    deck_file = tmp_path / "deck.txt"
    deck_file.write_text(header["deck"])
    trace = tmp_path / "trace.jsonl"
    result = cli("play", "--game", header["game"], "--deck", deck_file,
                 "--policy", "foundation-only", "--trace", trace)
    assert result.code == 0, result.stderr
    new_lines = trace.read_text().splitlines()
    assert new_lines[1:] == lines[1:]
    assert json.loads(new_lines[0])["deck"] == header["deck"]
    ref.check_trace(lines)
    moves, result = ref.foundation_only_moves(header["game"], header["deck"].split())
    assert [json.loads(line)["move"] for line in lines[1:-1]] == moves
    assert json.loads(lines[-1])["result"] == result
