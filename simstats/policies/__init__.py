"""Policies: the registry of built-ins, and loading the policies named on the command line.

Two kinds of policy. A compiled policy (api.CompiledPolicy) declares its parameters and memory
and plays inside the compiled loop; every built-in is one. A plain-Python policy is any object
with ``choose(obs) -> move text | None`` and optionally ``reset(game, rng)``; it receives an
``Observation``, never the state, and plays move by move (simple, and some 100x slower). A name
is a built-in ('dig', 'lookahead[depth=3]'), 'package.module:Name', 'path/to/file.py:Name'
(either with parameters in brackets), or an installed plugin in the entry-point group
'simstats.policies'.

`resolve_policy` parses a name once into a `PolicySpec` (spec.py: its name, class and typed
parameter values); `spec.make()` gives a player to play move by move, for a compiled policy a
`CompiledPlayer` (compiled.py).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Any, Protocol

from ..engine.observe import Observation
from ..registry import BUILTIN_CLASSES, ORACLE_CLASSES, builtin_descriptions, first_line
from ..registry import is_oracle as is_oracle
from ..registry import plugin_entry_points as plugin_entry_points
from ..registry import policy_label as policy_label
from .api import is_compiled_policy
from .compiled import CompiledPlayer as CompiledPlayer
from .compiled import PolicyCompileError as PolicyCompileError
from .compiled import PolicyError
from .spec import PolicySpec, parse_values


class PythonPolicy(Protocol):
    """A plain-Python policy: `choose` gets what the player sees and returns a legal move's text,
    or None to resign; `reset`, if it has one, starts each deal with the policy's own stream."""

    def choose(self, obs: Observation) -> str | None: ...


def _split_parameters(name: str) -> tuple[str, dict[str, str]]:
    """'lookahead[depth=3,free=2]' -> ('lookahead', {'depth': '3', 'free': '2'})."""
    base, bracket, rest = name.partition("[")
    if not bracket:
        return name, {}
    if not rest.endswith("]"):
        raise PolicyError(f"policy {name!r}: parameters go in brackets, e.g. {base}[depth=3]")
    given = {}
    for item in filter(None, (i.strip() for i in rest[:-1].split(","))):
        key, sep, value = item.partition("=")
        if not sep:
            raise PolicyError(f"policy {name!r}: {item!r} is not name=value")
        given[key.strip()] = value.strip()
    return base, given


def _compiled_spec(name: str, cls: type, reference: str, given: dict[str, str],
                   source: str) -> PolicySpec:
    """The spec of compiled policy class `cls` with the parameters `given` by text."""
    parameters = getattr(cls, "parameters", {})
    if not isinstance(parameters, dict):
        raise PolicyError(f"policy {name!r}: its parameters must be a dict of name -> "
                          "api.integer, api.number, api.flag, api.choice or a number")
    try:
        values = parse_values(name, parameters, given)
    except ValueError as error:
        raise PolicyError(str(error)) from None
    try:  # a policy may refuse values out of its range (api.CompiledPolicy.check)
        getattr(cls, "check", lambda values: None)(values)
    except ValueError as error:
        raise PolicyError(f"policy {name!r}: {error}") from None
    return PolicySpec(name, _first_line(cls), cls, source, values, reference, compiled=True)


def _class_at(reference: str) -> type:
    module, _, attribute = reference.partition(":")
    return getattr(importlib.import_module(module), attribute)


def _builtin(name: str, base: str, given: dict[str, str]) -> PolicySpec | None:
    reference = _registered(base)
    if reference is None:
        return None
    return _compiled_spec(name, _class_at(reference), reference, given, "built-in")


class _Builtins(dict):
    """BUILTINS[name]: the spec of a built-in with its default parameters, made on first use."""

    def __missing__(self, name: str) -> PolicySpec:
        if name not in BUILTIN_CLASSES:
            raise KeyError(name)
        self[name] = _builtin(name, name, {})
        return self[name]

    def __iter__(self):
        return iter(BUILTIN_CLASSES)

    def __len__(self) -> int:
        return len(BUILTIN_CLASSES)

    def __contains__(self, name) -> bool:
        return name in BUILTIN_CLASSES

    def keys(self):
        return BUILTIN_CLASSES.keys()

    def values(self):
        return [self[name] for name in BUILTIN_CLASSES]

    def items(self):
        return [(name, self[name]) for name in BUILTIN_CLASSES]


BUILTINS = _Builtins()


def _first_line(obj: Any) -> str:
    return first_line(getattr(obj, "__doc__", None))


def _load_module_from_file(path: Path):
    if not path.is_file():
        raise PolicyError(f"policy file {str(path)!r} does not exist")
    # A stable name per file: compiled code finds a function's globals by its module's name.
    tag = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:8]
    module_name = f"simstats_policy_file_{path.stem.replace('-', '_')}_{tag}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[module_name]
        raise PolicyError(f"policy file {str(path)!r} failed to import: "
                          f"{type(error).__name__}: {error}") from None
    return module


def _from_object(name: str, obj: Any, where: str, given: dict[str, str]) -> PolicySpec:
    """The spec of a plugin's class or factory `obj`, found at `where`."""
    if is_compiled_policy(obj):
        path = getattr(sys.modules.get(obj.__module__), "__file__", None)
        reference = (f"{Path(path).resolve()}:{obj.__qualname__}" if path and where.endswith(
            ".py") else f"{obj.__module__}:{obj.__qualname__}")
        return _compiled_spec(name, obj, reference, given, where)
    if obj is None or not callable(obj):
        raise PolicyError(f"policy {name!r}: {where!r} has no policy class or factory there")
    if given:
        raise PolicyError(f"policy {name!r}: only compiled policies take parameters")
    return PolicySpec(name, _first_line(obj), obj, where)


def _from_reference(name: str, reference: str, given: dict[str, str]) -> PolicySpec:
    where, _, attribute = reference.rpartition(":")
    if where.endswith(".py"):
        module = _load_module_from_file(Path(where))
    else:
        try:
            module = importlib.import_module(where)
        except Exception as error:
            raise PolicyError(f"cannot import policy module {where!r}: {error}") from None
    obj = getattr(module, attribute, None)
    if obj is None:
        raise PolicyError(f"{where!r} has no policy class or factory named {attribute!r}")
    return _from_object(name, obj, where, given)


def _from_entry_point(ep, name: str | None = None, given: dict | None = None) -> PolicySpec:
    try:
        obj = ep.load()
    except Exception as error:
        raise PolicyError(f"plugin policy {ep.name!r} failed to load: {error}") from None
    return _from_object(name or ep.name, obj, ep.value, given or {})


_RESOLVED: dict[str, PolicySpec] = {}


def resolve_policy(name: str) -> PolicySpec:
    """The policy named `name`: built-in, 'module:Name', 'file.py:Name', or a plugin; any of
    them compiled may carry parameters in brackets. The name is parsed once a process: the same
    name gives the same PolicySpec."""
    if name in BUILTINS:
        return BUILTINS[name]
    spec = _RESOLVED.get(name)
    if spec is None or (spec.source == "built-in" and spec.reference != _registered(spec.base)):
        spec = _RESOLVED[name] = _parsed(name)  # parsed anew only if the registry has changed
    return spec


def _registered(base: str) -> str | None:
    return BUILTIN_CLASSES.get(base) or ORACLE_CLASSES.get(base)


def _parsed(name: str) -> PolicySpec:
    base, given = _split_parameters(name)
    if ":" in base:
        return _from_reference(name, base, given)
    spec = _builtin(name, base, given)
    if spec is not None:
        return spec
    plugins = plugin_entry_points()
    if base in plugins:
        return _from_entry_point(plugins[base], name, given)
    known = ", ".join([*BUILTIN_CLASSES, *ORACLE_CLASSES, *plugins])
    raise PolicyError(
        f"unknown policy {name!r} (known: {known}; or give 'module:Name' or 'file.py:Name')"
    )


def describe_policy(name: str) -> list[str]:
    """What `simstats policies NAME` prints: the policy's line, then one line a parameter (name,
    type, default, range, meaning). PolicyError for an unknown policy."""
    from .parameters import listing

    spec = resolve_policy(name)
    lines = [f"{spec.name}: {spec.description} [{spec.source}]"]
    if not spec.compiled:
        return [*lines, "no parameters (a Python policy)"]
    parameters = spec.cls.parameters
    if not parameters:
        return [*lines, "no parameters"]
    lines.append(f"parameters (in brackets: {spec.base}[name=value,...]): name, type, default, "
                 "range, meaning")
    lines += [f"  {line}".rstrip() for line in listing(parameters)]
    if spec.oracle:
        player = next((n for n, ref in BUILTIN_CLASSES.items()
                       if _class_at(ref) is spec.player_class), "its fair player")
        lines.append(f"it plays first as {player}, with {player}'s defaults "
                     f"(simstats policies {player})")
    return lines


def list_policies() -> list[tuple[str, str, str]]:
    """(name, one-line description, where it comes from) of every built-in, the oracle and
    every installed plugin policy."""
    rows = [(name, line, "built-in") for name, line in builtin_descriptions().items()]
    return rows + plugin_policies()


def plugin_policies() -> list[tuple[str, str, str]]:
    """(name, one-line description, where it comes from) of every installed plugin policy."""
    rows = []
    for name, ep in sorted(plugin_entry_points().items()):
        try:
            spec = _from_entry_point(ep)
            kind = "compiled plugin" if spec.compiled else "Python plugin"
            rows.append((name, spec.description, f"{kind}: {ep.value}"))
        except PolicyError as error:
            rows.append((name, f"(fails to load: {error})", f"plugin: {ep.value}"))
    return rows
