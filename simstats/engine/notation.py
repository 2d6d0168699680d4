"""Move notation of docs/rules.md section 2: move integers to and from text such as 'T3>F2'."""

from __future__ import annotations

from .state import DEAL, FOUNDATION_PLACE, N_PLACES, REDEAL, TABLEAU


def place_text(place: int) -> str:
    if place < TABLEAU:
        return f"R{place}"
    if place < FOUNDATION_PLACE:
        return f"T{place - TABLEAU}"
    return f"F{place - FOUNDATION_PLACE}"


def move_text(move: int) -> str:
    if move == DEAL:
        return "deal"
    if move == REDEAL:
        return "redeal"
    return f"{place_text(move // N_PLACES)}>{place_text(move % N_PLACES)}"


def parse_place(text: str) -> int:
    offsets = {"R": 0, "T": TABLEAU, "F": FOUNDATION_PLACE}
    if len(text) != 2 or text[0] not in offsets or not text[1].isdigit() or text[1] > "7":
        raise ValueError(f"unknown place {text!r}")
    return offsets[text[0]] + int(text[1])


def parse_move(text: str) -> int:
    """The integer of a move written 'SRC>DST', 'deal' or 'redeal'."""
    if text == "deal":
        return DEAL
    if text == "redeal":
        return REDEAL
    src, sep, dst = text.partition(">")
    if not sep:
        raise ValueError(f"unknown move {text!r}")
    return parse_place(src) * N_PLACES + parse_place(dst)
