"""The package's shape (docs/architecture.md): imports flow one way, tables and plots load no
compiled code, and committed files name no path of the machine that made them."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
PACKAGE = ROOT / "simstats"


def module_name(path: Path) -> str:
    name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return name.removesuffix(".__init__")


def imports_that_run(tree: ast.AST):
    """Every node of `tree` but those under `if TYPE_CHECKING:`, whose imports never run (they
    name types for annotations, docs/architecture.md's one exception to the import rule)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            todo.extend(node.orelse)
        else:
            todo.extend(ast.iter_child_nodes(node))


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports (at any level of the file, lazily or not)."""
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in imports_that_run(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                target = f"{base}.{node.module}" if node.module else base
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    graph[name].add(sub if sub in modules else target)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("simstats"):
                graph[name].add(node.module)
    return graph


def reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        for nxt in graph.get(todo.pop(), ()):
            if nxt == goal:
                return True
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


def test_no_module_imports_one_that_imports_it_back():
    graph = import_graph()
    assert len(graph) > 20
    cycles = sorted(
        (a, b) for a, targets in graph.items() for b in targets
        if b in graph and a != b and reaches(graph, b, a)
        # a package's __init__ gathering its own modules is not a cycle between layers
        and not b.startswith(a + ".") and not a.startswith(b + "."))
    assert cycles == []


# The layers of docs/architecture.md, bottom to top: a module may import from its own layer and
# those below it, never from one above. Each folder is a layer; the plain modules at the bottom and
# the two front doors at the top are the only modules directly in simstats/.
LAYERS = [
    ("simstats.version", "simstats.jit", "simstats.registry", "simstats.stats"),
    ("simstats.engine",),
    ("simstats.search",),
    ("simstats.policies",),
    ("simstats.run",),
    ("simstats.report",),
    ("simstats.cli", "simstats.notebook", "simstats.__main__", "simstats"),
]


def layer_of(module: str) -> int:
    for number, layer in enumerate(LAYERS):
        for name in layer:
            if module == name or (name != "simstats" and module.startswith(name + ".")):
                return number
    raise AssertionError(f"{module} is in no layer of LAYERS")


def test_every_import_goes_down_the_layers_or_stays_in_its_own():
    graph = import_graph()
    upward = sorted(f"{name} imports {target}" for name, targets in graph.items()
                    for target in targets if layer_of(target) > layer_of(name))
    assert upward == []


def test_the_layer_rule_sees_an_upward_import():
    assert layer_of("simstats.engine.deals") < layer_of("simstats.run.loops")
    assert layer_of("simstats.policies.api") < layer_of("simstats.run.records")
    assert layer_of("simstats.run.records") < layer_of("simstats.report.summary")


def test_at_most_eight_modules_stand_directly_in_the_package():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 8, top
    folders = sorted(p.name for p in PACKAGE.iterdir()
                     if p.is_dir() and (p / "__init__.py").is_file())
    assert folders == ["engine", "policies", "report", "run", "search"]


def test_tables_and_plots_load_no_compiled_code():
    code = ("import sys, simstats.report.summary, simstats.report.plots; print([m for m in "
            "('numba', 'simstats.policies', 'simstats.run.loops', 'simstats.search') "
            "if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# An absolute path of a machine: a Unix home, work or temporary folder, or a Windows drive.
MACHINE_PATH = re.compile(r"(?<![\w.~/])(?:/(?:home|root|work|tmp|Users|mnt|var/folders)/"
                          r"|[A-Z]:\\{1,2}Users\\)")


def committed_text_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    suffixes = {".md", ".ipynb", ".json", ".csv", ".log", ".py", ".toml", ".html"}
    return [ROOT / line for line in listed.stdout.splitlines()
            if Path(line).suffix in suffixes and (ROOT / line).is_file()]


def test_committed_files_name_no_path_of_the_machine_that_made_them():
    found = []
    for path in committed_text_files():
        if path.parts[-3:] == ("tests", "package", "test_layers.py"):
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if MACHINE_PATH.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:120]}")
    assert found == []


LAYOUT_OFFSETS = {"CAPACITY", "LENGTHS", "FOUNDATIONS", "MOVES", "DEALS", "REDEALS", "RESHUFFLES"}


def offsets_named(path: Path) -> set[str]:
    """The layout's offsets a module names: imported from engine/state or read as `S.NAME`."""
    named = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "state":
            named |= {alias.name for alias in node.names} & LAYOUT_OFFSETS
        elif isinstance(node, ast.Attribute) and node.attr in LAYOUT_OFFSETS:
            named.add(node.attr)
    return named


def test_policies_read_positions_through_the_engines_accessors():
    """Only the engine and the search compute offsets into a position's layout; a policy, built
    in or not, reads it by what it holds (pile_size, pile_card, ...: docs/architecture.md)."""
    named = {path.name: offsets_named(path) for path in (PACKAGE / "policies").glob("*.py")}
    assert {name: offsets for name, offsets in named.items() if offsets} == {}
    assert offsets_named(PACKAGE / "engine" / "moves.py") >= {"LENGTHS", "CAPACITY"}
