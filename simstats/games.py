"""The four games as registry entries: each one is its rules record (how it differs) and names.

Napoleon's Flank is Tournament with buried cards hidden: one field apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from .engine.rules import (
    BUILD_DOWN_ALTERNATE_COLOUR,
    BUILD_NONE,
    BUILD_SUIT_UP_OR_DOWN,
    Rules,
)


@dataclass(frozen=True)
class Game:
    id: str
    aliases: tuple[str, ...]
    description: str
    rules: Rules
    array: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "array", self.rules.array())


TOURNAMENT_RULES = Rules(
    n_columns=6,
    first_row_to_tableau=False,
    deal_to_reserve=False,
    deal_per_pile=4,
    deal_by_row=False,
    needs_ace_or_king=True,
    refill=4,
    build=BUILD_NONE,
    reserve_cells=True,
    down_foundations=True,
    transfers=True,
    max_redeals=2,
    hide_buried=False,
)

GAMES = {
    game.id: game
    for game in (
        Game(
            "tournament",
            ("marechal-saxe",),
            "8 reserve cells, 6 fanned columns, no building, 2 redeals",
            TOURNAMENT_RULES,
        ),
        Game(
            "napoleons-flank",
            ("la-nivernaise", "nivernaise"),
            "Tournament with squared piles: only column tops are visible",
            replace(TOURNAMENT_RULES, hide_buried=True),
        ),
        Game(
            "cicely",
            (),
            "8 cells, 8 columns built up or down in suit, no redeal",
            replace(
                TOURNAMENT_RULES,
                n_columns=8,
                deal_by_row=True,
                needs_ace_or_king=False,
                refill=0,
                build=BUILD_SUIT_UP_OR_DOWN,
                max_redeals=0,
            ),
        ),
        Game(
            "kingsdown-eights",
            (),
            "8 columns built down in alternate colours, 8 reserve piles, ace foundations only",
            replace(
                TOURNAMENT_RULES,
                n_columns=8,
                first_row_to_tableau=True,
                deal_to_reserve=True,
                needs_ace_or_king=False,
                refill=0,
                build=BUILD_DOWN_ALTERNATE_COLOUR,
                reserve_cells=False,
                down_foundations=False,
                transfers=False,
                max_redeals=0,
            ),
        ),
    )
}

_NAMES = {name: game for game in GAMES.values() for name in (game.id, *game.aliases)}


class UnknownGame(ValueError):
    pass


def get_game(name: str) -> Game:
    """The game called `name` (an id or an alias)."""
    try:
        return _NAMES[name.strip().lower()]
    except KeyError:
        known = ", ".join(_NAMES)
        raise UnknownGame(f"unknown game {name!r} (known: {known})") from None
