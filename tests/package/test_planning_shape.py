"""The planning code's shape (docs/architecture.md): no function of simstats/policies takes more
than ten parameters, and no module there indexes a buffer by another module's row constants;
working memory travels as named records (lookahead.LineWork, rollout.PlayoutWork,
flank.FlankWork and its Tree, planner.PlanWork), each declared by the module that owns it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

POLICIES = Path(__file__).parents[2] / "simstats" / "policies"
MOST_PARAMETERS = 10
# The game's rules record, which every layer reads by field (engine/rules.py: games as data);
# api.py is the one module that maps the engine's layout for policies.
RULES_MODULE = "..engine.rules"
LAYOUT_MODULE = "api.py"


def parameter_counts(source: str) -> dict[str, int]:
    counts = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            a = node.args
            counts[node.name] = (len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs)
                                 + (a.vararg is not None) + (a.kwarg is not None))
    return counts


def borrowed_rows(source: str) -> set[tuple[str, str]]:
    """(module, NAME) of each capitalised constant imported from another module that indexes an
    array here (a name passed to a call inside the index, as in pile_span(STOCK), is an
    argument, not a row)."""
    tree = ast.parse(source)
    names, modules = {}, {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source_module = "." * node.level + (node.module or "")
            for alias in node.names:
                if alias.name[:1].isupper():
                    names[alias.asname or alias.name] = source_module
                else:
                    modules[alias.asname or alias.name] = f"{source_module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                modules[alias.asname or alias.name.split(".")[0]] = alias.name
    arguments = {id(arg) for node in ast.walk(tree) if isinstance(node, ast.Call)
                 for arg in node.args}
    found = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Subscript):
            continue
        for part in ast.walk(node.slice):
            if id(part) in arguments:
                continue
            if isinstance(part, ast.Name) and part.id.isupper() and part.id in names:
                found.add((names[part.id], part.id))
            elif (isinstance(part, ast.Attribute) and isinstance(part.value, ast.Name)
                  and part.value.id in modules and part.attr.isupper()):
                found.add((modules[part.value.id], part.attr))
    return {(module, name) for module, name in found if module != RULES_MODULE}


def test_no_function_of_the_policies_takes_more_than_ten_parameters():
    over = {f"{path.name}:{name}": n for path in sorted(POLICIES.glob("*.py"))
            for name, n in parameter_counts(path.read_text()).items() if n > MOST_PARAMETERS}
    assert over == {}


def test_no_policy_module_indexes_by_another_modules_row_constants():
    borrowed = {path.name: sorted(borrowed_rows(path.read_text()))
                for path in sorted(POLICIES.glob("*.py")) if path.name != LAYOUT_MODULE}
    assert {name: rows for name, rows in borrowed.items() if rows} == {}


@pytest.mark.parametrize("source", [
    "from .rollout import JUDGED\nx = moves[JUDGED, 0]\n",
    "from . import rollout\nx = moves[rollout.JUDGED]\n",
    "from ..engine.observe import LAST_MOVE\nmemory[1, LAST_MOVE] = 0\n",
], ids=["a name imported", "a module's attribute", "the engine's memory rows"])
def test_the_row_rule_sees_a_borrowed_row(source):
    assert borrowed_rows(source)


def test_the_parameter_rule_counts_every_kind_of_parameter():
    assert parameter_counts("def f(a, /, b, *c, d, **e): pass\n") == {"f": 5}
