"""A complete plugin policy in a file: `--policy examples/greedy_cells.py:GreedyCells`."""


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
