"""The plain-Python policy protocol, for quick experiments:
`--policy examples/greedy_cells_python.py:GreedyCells`.

The same policy as examples/greedy_cells.py, played move by move from Python: simpler to write
(moves are text, cards are 'TH'), and some 100x slower per deal than the compiled one.
"""


class GreedyCells:
    """Foundation moves first; else fill a free cell from the first column; else deal."""

    def reset(self, game, rng):
        self.rng = rng  # a numpy Generator of this policy's own stream (seed, deal, name)

    def choose(self, obs):
        moves = obs.legal_moves
        home = [m for m in moves if m[0] in "RT" and ">F" in m]
        cells = [m for m in moves if m.startswith("T") and ">R" in m]
        for choice in (home, cells, [m for m in moves if m in ("deal", "redeal")]):
            if choice:
                return choice[0]
        return None  # resign
