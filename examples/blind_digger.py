"""`BlindDigger` from a file (`--policy examples/blind_digger.py:BlindDigger`): the Napoleon's
Flank player this example began as now ships as the built-in `blind-digger`
(simstats/policies/blind_digger.py, still written only against the public API, the fullest
example of it), so that `rollout` can play its playouts with it. This file keeps the name
under which results/blind-digger-100k was played; it plays the same moves.
"""

from simstats.policies.blind_digger import BlindDigger

__all__ = ["BlindDigger"]
