"""Cards as small integers, their text form, and deck text parsing (docs/rules.md section 1).

A card is ``suit * 13 + rank`` with suits C D H S = 0..3 and ranks A..K = 0..12; both copies of
a card share one integer. Pure Python, no engine knowledge.
"""

from __future__ import annotations

from collections import Counter

from ..jit import jit_inline

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
DECK_SIZE = 104  # two packs: each of the 52 cards twice
RANKS_PER_SUIT = 13
HIDDEN = 52  # a card the player cannot see


class DeckError(ValueError):
    """A deck text that docs/rules.md section 1 rejects; the message names the problem."""


# Card arithmetic, compiled (inlined where compiled code calls it) and callable from Python:
# every module reads a card's suit, rank and colour through these.
@jit_inline
def card_suit(card):
    """0..3: clubs, diamonds, hearts, spades."""
    return card // RANKS_PER_SUIT


@jit_inline
def card_rank(card):
    """0 (ace) .. 12 (king)."""
    return card % RANKS_PER_SUIT


@jit_inline
def is_red(card):
    suit = card // RANKS_PER_SUIT
    return suit == 1 or suit == 2


def card_text(card: int) -> str:
    """'TH' for the ten of hearts; '??' for a hidden card."""
    if card == HIDDEN:
        return "??"
    return RANKS[card % 13] + SUITS[card // 13]


def card_symbol(card: int) -> str:
    """'10♥' style, for people."""
    if card == HIDDEN:
        return "??"
    rank = "10" if card % 13 == 9 else RANKS[card % 13]
    return rank + SUIT_SYMBOLS[card // 13]


def parse_card(token: str) -> int:
    """The integer of one card token such as 'AS', 'TH' or '10H' (case-insensitive)."""
    text = token.strip().upper()
    if text.startswith("10") and len(text) == 3:
        text = "T" + text[2]
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise DeckError(f"unknown card {token!r}")
    return SUITS.index(text[1]) * 13 + RANKS.index(text[0])


def parse_deck(text: str) -> list[int]:
    """The 104 cards of a deck text, first dealt first; DeckError names any problem."""
    cards: list[int] = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        for token in line.split():
            try:
                cards.append(parse_card(token))
            except DeckError:
                raise DeckError(
                    f"unknown card {token!r} at line {line_number}, card {len(cards) + 1}"
                ) from None
    if not cards:
        raise DeckError("the deck is empty")
    if len(cards) != DECK_SIZE:
        raise DeckError(f"the deck has {len(cards)} cards, not {DECK_SIZE}")
    counts = Counter(cards)
    extra = sorted(card for card, n in counts.items() if n > 2)
    if extra:
        named = ", ".join(f"{card_text(c)} ({counts[c]} times)" for c in extra)
        raise DeckError(f"cards appear more than twice: {named}")
    return cards


def read_deck_bytes(data: bytes) -> list[int]:
    """Parse a deck file's bytes, rejecting binary data with a clear message."""
    if b"\x00" in data:
        raise DeckError("the deck file is binary, not deck text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise DeckError("the deck file is not UTF-8 text") from None
    return parse_deck(text)


def deck_text(cards) -> str:
    """The deck text of a card sequence: 104 tokens on one line."""
    return " ".join(card_text(int(c)) for c in cards)
