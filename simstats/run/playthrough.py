"""A deal played move by move, as data: its moves and outcome (`Playthrough`, `Outcome`), and
the JSON Lines trace that `simstats play --trace` writes of it (docs/rules.md section 10)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..engine import RULES_VERSION
from ..engine.cards import deck_text
from ..engine.state import END_NAMES, OUTCOME_COLUMNS
from ..version import __version__


@dataclass(frozen=True)
class Outcome:
    won: bool
    foundation_cards: int
    moves: int
    deals: int
    redeals: int
    end: str
    reshuffles: int = 0

    def result(self) -> dict:
        """The `result` object of a trace (docs/rules.md section 10)."""
        return {name: getattr(self, name) for name in OUTCOME_COLUMNS if name != "reshuffles"}

    def row(self) -> list[int]:
        """The outcome row the compiled loop writes for this game (OUTCOME_COLUMNS), by name."""
        return [END_NAMES.index(self.end) if name == "end" else int(getattr(self, name))
                for name in OUTCOME_COLUMNS]


@dataclass
class Playthrough:
    """One game played move by move: the moves (text, card moved or None) and the outcome."""

    game: str
    policy: str
    deck: list[int]
    seed: int
    deal: int | None
    moves: list[tuple[str, str | None]] = field(default_factory=list)
    outcome: Outcome | None = None



def trace(playthrough: Playthrough) -> str:
    """The JSON Lines trace of a playthrough (docs/rules.md section 10), as `simstats play --trace`
    writes it: a header, one line per move, and the result."""
    p = playthrough
    header: dict[str, Any] = {"game": p.game, "deck": deck_text(p.deck), "policy": p.policy,
                              "seed": p.seed}
    if p.deal is not None:
        header.update(deal=p.deal, reshuffles=p.outcome.reshuffles if p.outcome else 0)
    header.update(simstats=__version__, rules_version=RULES_VERSION)
    lines = [json.dumps(header)]
    for move, card in p.moves:
        lines.append(json.dumps({"move": move, "card": card} if card else {"move": move}))
    if p.outcome is not None:
        lines.append(json.dumps({"result": p.outcome.result()}))
    return "\n".join(lines) + "\n"
