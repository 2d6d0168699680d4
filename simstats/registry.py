"""The names of the built-in policies and where their classes are: plain data, so that tables,
plots and the command line's help can name policies without loading any compiled code.

Adding a built-in policy is one module in simstats/policies and one line of BUILTIN_CLASSES.
"""

from __future__ import annotations

import ast
import importlib.util
from importlib.metadata import entry_points
from pathlib import Path

# The entry-point group in which installed packages register policies (policies/__init__.py).
ENTRY_POINT_GROUP = "simstats.policies"
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


def first_line(docstring: str | None) -> str:
    """A policy's one line: the first paragraph of its class's docstring, on one line."""
    doc = (docstring or "").strip()
    return " ".join(doc.split("\n\n")[0].split()) if doc else "(no description)"


def builtin_descriptions() -> dict[str, str]:
    """Each built-in policy's and the oracle's one line, read from its class's source without
    importing it (that would load numba: `simstats policies` answers at once)."""
    lines = {}
    for name, reference in {**BUILTIN_CLASSES, **ORACLE_CLASSES}.items():
        module, _, class_name = reference.partition(":")
        package, _, inside = module.partition(".")
        if package == "simstats":  # found without importing simstats.policies (numba with it)
            source = Path(__file__).parent.joinpath(*inside.split(".")).with_suffix(".py")
        else:
            source = Path(importlib.util.find_spec(module).origin)
        found = next(node for node in ast.parse(source.read_bytes()).body
                     if isinstance(node, ast.ClassDef) and node.name == class_name)
        lines[name] = first_line(ast.get_docstring(found))
    return lines


def plugin_entry_points() -> dict:
    """The installed plugin policies' entry points by name (none loaded)."""
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}
