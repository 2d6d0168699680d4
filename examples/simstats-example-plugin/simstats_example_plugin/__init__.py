"""An example third-party policy for simstats, found through the `simstats.policies` entry point.

After `pip install examples/simstats-example-plugin`, `simstats policies` lists `lowest-first`
and `simstats play --policy lowest-first ...` plays it.
"""

RANKS = "A23456789TJQK"


class LowestFirst:
    """Home moves first, lowest rank first; else deal, redeal; else the first legal move."""

    def reset(self, game, rng):
        self.moves_left = 500  # a plugin may set itself limits; simstats stops at 2,000 moves

    def choose(self, obs):
        self.moves_left -= 1
        if self.moves_left < 0:
            return None
        home = [m for m in obs.legal_moves if m[0] in "RT" and ">F" in m]
        if home:
            return min(home, key=lambda m: RANKS.index(self.card(obs, m)[0]))
        for move in ("deal", "redeal"):
            if move in obs.legal_moves:
                return move
        return None

    @staticmethod
    def card(obs, move):
        pile = obs.reserve if move[0] == "R" else obs.tableau
        return pile[int(move[1])][-1]
