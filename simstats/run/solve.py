"""`simstats solve`: what `run --policy oracle` does for one deal, played move by move."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine.cards import card_text
from ..engine.games import Game
from ..engine.moves import apply_move, lay_out, status
from ..engine.notation import move_text
from ..engine.state import ONGOING, RESHUFFLES, RESIGNED, new_state
from ..search import played_line, solve_position, table_bits_for
from .move_by_move import final_outcome, play_deck
from .playthrough import Playthrough


@dataclass
class Solution:
    """The oracle's verdict on one deal: won, lost (proven) or unknown, and the line it played
    (the winning line, else the one with the most cards home)."""

    verdict: str
    play: Playthrough
    positions: int  # positions the deciding search expanded (0 if the fair solver won)


def solve_deal(game: Game, deck, budget: int, seed: int = 0, deal: int | None = None,
               reshuffles: int = 0) -> Solution:
    """What `run --policy oracle` does for one deal, move by move: the fair `solver`'s play;
    if that does not win, a search that reads every card (simstats/search)."""
    from ..policies import BUILTINS, resolve_policy
    from ..search import NODES, RESULT_NAMES, search_buffers

    fair = play_deck(game, BUILTINS["solver"], deck, seed, deal, reshuffles)
    name = "oracle" if budget == resolve_policy("oracle").values["budget"] else (
        f"oracle[budget={budget}]")
    if fair.outcome.won:
        fair.policy = name
        return Solution("won", fair, 0)
    rules = game.array
    state = new_state()
    lay_out(state, rules, np.asarray(deck, dtype=np.int16))
    state[RESHUFFLES] = reshuffles
    work = search_buffers(table_bits=table_bits_for(budget), deep=True)
    verdict = int(solve_position(state, rules, budget, work))
    line, length = played_line.py_func(verdict, work)  # the oracle's own choice, in Python
    play = Playthrough(game.id, name, [int(c) for c in deck], seed, deal)
    for move in line[:length]:
        card = apply_move(state, rules, int(move))
        play.moves.append((move_text(int(move)), card_text(int(card)) if card >= 0 else None))
    end = status(state, rules)
    play.outcome = final_outcome(state, RESIGNED if end == ONGOING else end)
    return Solution(RESULT_NAMES[verdict], play, int(work.info[NODES]))
