"""Policies: the plugin API, the built-in registry, and loading policies named on the command line.

A policy is any object with ``choose(obs) -> move text | None`` and optionally
``reset(game, rng)``; it receives an ``Observation``, never the state. A name is a built-in
('foundation-only'), 'package.module:Name', 'path/to/file.py:Name', or an installed plugin in
the entry-point group 'simstats.policies'.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ..deals import policy_salt, start_stream
from ..engine.notation import move_text
from ..engine.observe import Observation
from ..engine.state import NO_MOVE
from . import dig, endgame, foundation_only, lookahead, oracle, random_moves, rollout
from .compiled import CODES, ORACLE, choose_builtin, scratch_buffers, start_deal

ENTRY_POINT_GROUP = "simstats.policies"


class Policy(Protocol):
    def choose(self, obs: Observation) -> str | None: ...


class PolicyError(ValueError):
    """A policy that cannot be found or loaded, or that misbehaved; the message says which."""


class CompiledPolicy:
    """A built-in policy whose choices are made by the compiled chooser.

    Usable from Python like any policy; the compiled loop calls the same chooser directly.
    """

    def __init__(self, name: str, code: int, params: np.ndarray):
        self.name = name
        self.code = code
        self.params = params
        self._stream = np.zeros(1, dtype=np.uint64)
        self._scratch = scratch_buffers(code)

    def seed_stream(self, seed: int, deal: int) -> None:
        """Key this policy's random stream to (seed, deal, name), RULES.md section 11."""
        start_stream(self._stream, seed, deal, policy_salt(self.name))
        start_deal(self.code, self._scratch)  # a policy remembers only the deal it is playing

    def choose(self, obs: Observation) -> str | None:
        move = choose_builtin(self.code, self.params, obs._array, obs._rules, self._stream,
                              self._scratch)
        return None if move == NO_MOVE else move_text(int(move))


@dataclass(frozen=True)
class PolicySpec:
    """A policy as named on the command line: how to make it and what it is."""

    name: str
    description: str
    factory: Callable[[], Any]
    code: int | None = None  # the compiled chooser's code, for built-ins
    source: str = "built-in"
    params: tuple[float, ...] = ()

    def make(self) -> Any:
        return self.factory()


def _builtin(base: str, module, name: str | None = None, params: dict | None = None):
    name = name or base
    code = CODES[base]
    values = tuple((params or getattr(module, "PARAMETERS", {})).values())
    array = np.array(values or (0.0,), dtype=np.float64)
    return PolicySpec(name, module.DESCRIPTION, lambda: CompiledPolicy(name, code, array), code,
                      params=values)


BUILTIN_MODULES = {
    "foundation-only": foundation_only,
    "random": random_moves,
    "dig": dig,
    "lookahead": lookahead,
    "rollout": rollout,
    "solver": endgame,
}
BUILTINS = {name: _builtin(name, module) for name, module in BUILTIN_MODULES.items()}


def _not_a_player():
    raise PolicyError("oracle is a perfect-information oracle, not a player: use "
                      "`simstats solve`, or `simstats run --policy oracle`")


def _oracle(name: str = "oracle", params: dict | None = None) -> PolicySpec:
    """The oracle rides the compiled loop under its own code; it never gets an observation."""
    # the fair `solver` it tries first keeps its own parameters; the oracle's budget comes last
    values = (*endgame.PARAMETERS.values(), *(params or oracle.PARAMETERS).values())
    return PolicySpec(name, oracle.DESCRIPTION, _not_a_player, ORACLE, params=values)


ORACLES = {"oracle": _oracle()}


def _with_parameters(name: str) -> PolicySpec:
    """'lookahead[depth=3,free=2]': a built-in with some parameters changed."""
    base, _, rest = name.partition("[")
    module = BUILTIN_MODULES.get(base) or (oracle if base in ORACLES else None)
    defaults = getattr(module, "PARAMETERS", None)
    if not defaults or not rest.endswith("]"):
        raise PolicyError(f"policy {name!r}: only {', '.join(_parametrised())} take parameters")
    params = dict(defaults)
    for item in filter(None, rest[:-1].split(",")):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or key not in params:
            raise PolicyError(f"policy {name!r}: unknown parameter {key!r} "
                              f"(known: {', '.join(params)})")
        try:
            params[key] = float(value)
        except ValueError:
            raise PolicyError(f"policy {name!r}: {key} must be a number, not {value!r}") from None
    if base in ORACLES:
        return _oracle(name, params)
    return _builtin(base, module, name, params)


def _parametrised() -> list[str]:
    return [n for n, m in BUILTIN_MODULES.items() if getattr(m, "PARAMETERS", None)] + [*ORACLES]


def _first_line(obj: Any) -> str:
    doc = (getattr(obj, "__doc__", None) or "").strip()
    return doc.splitlines()[0] if doc else "(no description)"


def _load_module_from_file(path: Path):
    if not path.is_file():
        raise PolicyError(f"policy file {str(path)!r} does not exist")
    module_name = "simstats_policy_file_" + path.stem.replace("-", "_")
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        raise PolicyError(f"policy file {str(path)!r} failed to import: {error}") from None
    return module


def _from_reference(name: str) -> PolicySpec:
    where, _, attribute = name.rpartition(":")
    if where.endswith(".py"):
        module = _load_module_from_file(Path(where))
    else:
        try:
            module = importlib.import_module(where)
        except Exception as error:
            raise PolicyError(f"cannot import policy module {where!r}: {error}") from None
    factory = getattr(module, attribute, None)
    if factory is None or not callable(factory):
        raise PolicyError(f"{where!r} has no policy class or factory named {attribute!r}")
    return PolicySpec(name, _first_line(factory), factory, source=where)


def plugin_entry_points() -> dict:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def _from_entry_point(ep) -> PolicySpec:
    try:
        factory = ep.load()
    except Exception as error:
        raise PolicyError(f"plugin policy {ep.name!r} failed to load: {error}") from None
    return PolicySpec(ep.name, _first_line(factory), factory, source=ep.value)


def resolve_policy(name: str) -> PolicySpec:
    """The policy named `name`: built-in, 'module:Name', 'file.py:Name', or a plugin."""
    if name in BUILTINS:
        return BUILTINS[name]
    if name in ORACLES:
        return ORACLES[name]
    if "[" in name and ":" not in name:
        return _with_parameters(name)
    if ":" in name:
        return _from_reference(name)
    plugins = plugin_entry_points()
    if name in plugins:
        return _from_entry_point(plugins[name])
    known = ", ".join([*BUILTINS, *ORACLES, *plugins])
    raise PolicyError(
        f"unknown policy {name!r} (known: {known}; or give 'module:Name' or 'file.py:Name')"
    )


def list_policies() -> list[tuple[str, str]]:
    """(name, one-line description) of every built-in and installed plugin policy."""
    rows = [(spec.name, spec.description) for spec in [*BUILTINS.values(), *ORACLES.values()]]
    for name, ep in sorted(plugin_entry_points().items()):
        try:
            rows.append((name, _from_entry_point(ep).description + f" (plugin: {ep.value})"))
        except PolicyError as error:
            rows.append((name, f"(plugin that fails to load: {error})"))
    return rows


def is_oracle(name: str) -> bool:
    """Whether a policy name denotes the perfect-information oracle (tables label it so)."""
    return name.partition("[")[0] in ORACLES


def policy_label(name: str) -> str:
    """A policy's name as tables and plots show it: the oracle is marked as not a player."""
    return f"{name} (perfect-information oracle)" if is_oracle(name) else name
