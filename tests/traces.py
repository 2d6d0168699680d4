"""A played deal as the lines of a trace file (the format of `simstats play --trace`), for the
independent reference implementation to replay move by move (reference_rules.check_trace)."""

from __future__ import annotations

import json

from simstats.engine.cards import deck_text


def trace_lines(play) -> list[str]:
    lines = [json.dumps({"game": play.game, "deck": deck_text(play.deck), "policy": play.policy})]
    for move, card in play.moves:
        lines.append(json.dumps({"move": move, "card": card} if card else {"move": move}))
    lines.append(json.dumps({"result": play.outcome.result()}))
    return lines
