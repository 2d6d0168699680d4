"""The four games as registry entries: each one is its rules record (how it differs) and names.

Napoleon's Flank is Tournament with buried cards hidden: one field apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from .rules import (
    BUILD_DOWN_ALTERNATE_COLOUR,
    BUILD_NONE,
    BUILD_SUIT_UP_OR_DOWN,
    NO_PROOF,
    PROOF_CELLS_NO_BUILDING,
    PROOF_NOTHING_BUILDS_ON,
    Rules,
)


@dataclass(frozen=True)
class Game:
    """A game: its id (the command line's name), other names, one line, a title for tables,
    its rules; the proof of safe plays its exact search may use (engine/rules.py: PROOF_*,
    declared here and never inherited with the rules); and, for a game that deals the very
    decks of another (`same_decks_as`), what comparing the two on the same deals measures
    (reports pair them deal by deal)."""

    id: str
    aliases: tuple[str, ...]
    description: str
    rules: Rules
    title: str = ""
    same_decks_as: str | None = None
    same_decks_comparison: str = ""
    solver_proof: int = NO_PROOF
    array: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "array", self.rules.array(self.solver_proof))


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
            title="Tournament",
            solver_proof=PROOF_CELLS_NO_BUILDING,
        ),
        Game(
            "napoleons-flank",
            ("la-nivernaise", "nivernaise"),
            "Tournament with squared piles: only column tops are visible",
            replace(TOURNAMENT_RULES, hide_buried=True),
            title="Napoleon's Flank",
            solver_proof=PROOF_CELLS_NO_BUILDING,
            same_decks_as="tournament",
            same_decks_comparison="seeing buried cards",
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
            title="Cicely",
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
            title="Kingsdown Eights",
            solver_proof=PROOF_NOTHING_BUILDS_ON,
        ),
    )
}

_NAMES = {name: game for game in GAMES.values() for name in (game.id, *game.aliases)}


def register(game: Game) -> Game:
    """Add a game to the registry (docs/adding-a-game.md); its id and aliases must be new."""
    taken = [name for name in (game.id, *game.aliases) if name in _NAMES]
    if taken:
        raise ValueError(f"game names already taken: {', '.join(taken)}")
    if game.same_decks_as is not None and game.same_decks_as not in GAMES:
        raise ValueError(f"{game.id}: same_decks_as names no game: {game.same_decks_as!r}")
    GAMES[game.id] = game
    _NAMES.update({name: game for name in (game.id, *game.aliases)})
    return game


class UnknownGame(ValueError):
    pass


def get_game(name: str) -> Game:
    """The game called `name` (an id or an alias)."""
    try:
        return _NAMES[name.strip().lower()]
    except KeyError:
        known = ", ".join(_NAMES)
        raise UnknownGame(f"unknown game {name!r} (known: {known})") from None
