"""Positions as text for people (`simstats play --show`): drawn from an observation only, so a
hidden card is shown as hidden, exactly as the player sees it."""

from __future__ import annotations

from ..engine.cards import SUITS
from ..engine.observe import Observation

HIDDEN_MARK = "##"
SUIT_SYMBOLS = dict(zip(SUITS, "♣♦♥♠", strict=True))


def card_label(card: str | None) -> str:
    if card is None:
        return HIDDEN_MARK
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUIT_SYMBOLS[card[1]]


def _foundation_label(obs: Observation, f: int) -> str:
    top = obs.foundations[f]
    if top is None:
        return "--"
    return card_label(top)


def render(obs: Observation) -> str:
    """A few lines: foundations, reserve, the columns side by side, stock and redeals."""
    width = 4
    lines = [
        f"stock {obs.stock_size}  redeals left {obs.redeals_left}  moves {obs.moves_made}",
        "F0-3  " + " ".join(_foundation_label(obs, f).rjust(width) for f in range(4)),
        "F4-7  " + " ".join(_foundation_label(obs, f).rjust(width) for f in range(4, 8)),
    ]
    tall_reserve = any(len(pile) > 1 for pile in obs.reserve)
    if tall_reserve:  # Kingsdown Eights' reserve piles: show each pile bottom to top
        for r, pile in enumerate(obs.reserve):
            lines.append(f"R{r}    " + " ".join(card_label(c).rjust(width) for c in pile))
    else:
        cells = [card_label(p[-1]) if p else "." for p in obs.reserve]
        lines.append("R     " + " ".join(c.rjust(width) for c in cells))
    columns = obs.tableau
    lines.append("      " + " ".join(f"T{c}".rjust(width) for c in range(len(columns))))
    for row in range(max((len(col) for col in columns), default=0)):
        cells = [card_label(col[row]) if row < len(col) else "" for col in columns]
        lines.append("      " + " ".join(c.rjust(width) for c in cells))
    return "\n".join(lines)

