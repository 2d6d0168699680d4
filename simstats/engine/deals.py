"""Deals and seeds (docs/rules.md section 11): a deck and a policy stream fixed by (seed, deal)
alone.

A counter-based splitmix64 generator of our own, compiled once for both paths, gives the same
decks on every machine, numpy version and worker count. Bump DEAL_STREAM_VERSION whenever the
decks it gives change.
"""

from __future__ import annotations

import numpy as np

from ..jit import jit, jit_inline
from .cards import DECK_SIZE, DeckError, read_deck_bytes
from .moves import needs_reshuffle

DEAL_STREAM_VERSION = 1

GAMMA = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
DECK_SALT = np.uint64(0)
LOW32 = np.uint64(0xFFFFFFFF)
TWO32 = np.uint64(1 << 32)


@jit_inline
def mix64(z):
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@jit_inline
def start_stream(stream, seed, deal, salt):
    """Key `stream` (a uint64 array of one) to (seed, deal, salt)."""
    key = mix64(np.uint64(seed) + GAMMA)
    key = mix64(key ^ (np.uint64(deal) * GAMMA))
    stream[0] = mix64(key ^ salt)


@jit_inline
def next_u64(stream):
    stream[0] += GAMMA
    return mix64(stream[0])


@jit_inline
def below(stream, n):
    """A uniform integer in [0, n), n < 2**32, without bias (Lemire's method)."""
    bound = np.uint64(n)
    product = (next_u64(stream) >> np.uint64(32)) * bound
    low = product & LOW32
    if low < bound:
        threshold = (TWO32 - bound) % bound
        while low < threshold:
            product = (next_u64(stream) >> np.uint64(32)) * bound
            low = product & LOW32
    return np.int64(product >> np.uint64(32))


@jit
def shuffle(stream, deck):
    for i in range(deck.shape[0] - 1, 0, -1):
        j = below(stream, i + 1)
        deck[i], deck[j] = deck[j], deck[i]


@jit
def shuffled_deck(rules, seed, deal, stream, deck):
    """Fill `deck` with deal `deal` of `seed` for a game's rules; return the reshuffle count.

    Every game shuffles the same first deck; a game that needs an ace or a king among the first
    8 cards reshuffles that deck from the same stream until it has one.
    """
    start_stream(stream, seed, deal, DECK_SALT)
    for k in range(DECK_SIZE):
        deck[k] = k % 52
    shuffle(stream, deck)
    reshuffles = 0
    while needs_reshuffle(rules, deck):
        shuffle(stream, deck)
        reshuffles += 1
    return reshuffles


def policy_salt(name: str) -> np.uint64:
    """A policy's stream salt from its name (FNV-1a 64), so each policy has its own stream."""
    h = 0xCBF29CE484222325
    for byte in name.encode():
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return np.uint64(h | 1)  # never the deck's salt


def deal_deck(rules: np.ndarray, seed: int, deal: int) -> tuple[np.ndarray, int]:
    """The deck (card ints, first dealt first) of deal `deal` of `seed`, and its reshuffles."""
    if seed < 0 or deal < 0:
        raise ValueError("seed and deal must not be negative")
    deck = np.empty(DECK_SIZE, dtype=np.int16)
    reshuffles = shuffled_deck(rules, seed, deal, np.zeros(1, dtype=np.uint64), deck)
    return deck, int(reshuffles)


def read_deck_file(path: str, rules, game_id: str) -> list[int]:
    """The deck of a deck file (`-`: standard input) for a game: DeckError, in one line for
    the user, if it cannot be read, is not a deck, or would be reshuffled (docs/rules.md 4.1)."""
    import sys
    from pathlib import Path

    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except FileNotFoundError:
        raise DeckError(f"deck file {path!r} does not exist") from None
    except IsADirectoryError:
        raise DeckError(f"deck file {path!r} is a directory") from None
    except OSError as error:
        raise DeckError(f"cannot read deck file {path!r}: {error.strerror}") from None
    try:
        cards = read_deck_bytes(data)
    except DeckError as error:
        raise DeckError(f"bad deck in {path!r}: {error}") from None
    if needs_reshuffle(rules, np.asarray(cards, dtype=np.int16)):
        raise DeckError(f"bad deck in {path!r}: none of its first 8 cards is an ace or a king, "
                        f"so {game_id} would reshuffle it (docs/rules.md 4.1)")
    return cards
