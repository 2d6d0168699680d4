"""The names of the built-in policies and where their classes are: plain data, so that tables,
plots and the command line's help can name policies without loading any compiled code.

Adding a built-in policy is one module in simstats/policies and one line of BUILTIN_CLASSES.
"""

from __future__ import annotations

# name -> "module:Class" of the policy (a subclass of policies.api.CompiledPolicy).
BUILTIN_CLASSES = {
    "foundation-only": "simstats.policies.foundation_only:FoundationOnly",
    "random": "simstats.policies.random_moves:Random",
    "dig": "simstats.policies.dig:Dig",
    "blind-digger": "simstats.policies.blind_digger:BlindDigger",
    "lookahead": "simstats.policies.lookahead:Lookahead",
    "rollout": "simstats.policies.rollout:Rollout",
    "solver": "simstats.policies.solver:Solver",
    "planner": "simstats.policies.planner:Planner",
}
# Not players: bounds that read the state, kept apart and labelled in every table.
ORACLE_CLASSES = {"oracle": "simstats.policies.oracle:Oracle"}
# What `simstats run` plays when no --policy is given.
DEFAULT_POLICIES = ("foundation-only", "dig")


def is_oracle(name: str) -> bool:
    """Whether a policy name denotes the perfect-information oracle (tables label it so)."""
    return name.partition("[")[0] in ORACLE_CLASSES


def policy_label(name: str) -> str:
    """A policy's name as tables and plots show it: the oracle is marked as not a player."""
    return f"{name} (perfect-information oracle)" if is_oracle(name) else name
