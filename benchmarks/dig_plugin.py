"""`dig` as a plugin loaded from a file, for benchmarks/plugin_speed.py: the built-in's own
logic behind a class declared outside the package, so that the two differ only in the way they
are loaded (the plugin path: a file, its own cache key and generated loop)."""

from simstats.policies import api
from simstats.policies.dig import choose_move
from simstats.policies.tactics import positions_field


class DigPlugin(api.CompiledPolicy):
    """dig, loaded from a file"""

    workspace = {"positions": positions_field(1)}

    @staticmethod
    def choose(view, params, memory, rng):
        return choose_move(api.observation_array(view), api.rules_array(view), memory.positions)
