"""A policy as named on the command line, parsed once (`PolicySpec`): its name, where it comes
from, its class and typed parameter values, and the records its compiled code reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import api
from .compiled import CompiledPlayer, PolicyError, load_loop_module


def _declarations(declared: Any, values: dict) -> dict:
    return dict(declared(values) if callable(declared) else declared)


def _field_dtype(name: str, spec: api.Field) -> tuple:
    return (name, spec.dtype, spec.shape) if spec.shape else (name, spec.dtype)


@dataclass(eq=False)
class PolicySpec:
    """A policy as named on the command line, parsed once: the name as given, where it comes
    from, and what plays. A compiled policy (api.CompiledPolicy) carries its class and its typed
    parameter values, from which it builds its parameter and memory records and, on first use,
    its loop module; `oracle` policies read the state and ride their own loop (run/loops.py). A
    plain-Python policy carries the class or factory that makes its player."""

    name: str  # as given, parameters included: 'lookahead[depth=3]'
    description: str
    cls: Any  # the api.CompiledPolicy class, or what makes a plain-Python player
    source: str = "built-in"  # or the module or file it comes from, or an entry point's value
    values: dict = field(default_factory=dict)  # the parameters' typed values (compiled)
    reference: str = ""  # where the class is: 'simstats.policies.dig:Dig', 'path/file.py:Name'
    compiled: bool = False
    _module: Any = field(default=None, repr=False)

    @property
    def base(self) -> str:
        """The name without its parameters: 'lookahead'."""
        return self.name.partition("[")[0]

    @property
    def oracle(self) -> bool:
        """A perfect-information bound (it reads the state), not a player."""
        return self.compiled and hasattr(self.cls, "fair_player")

    def make(self) -> Any:
        """A player of this policy, to play move by move (choose(obs) -> move text | None)."""
        if not self.compiled:
            return self.cls()
        if self.oracle:
            raise PolicyError(f"{self.name} is a perfect-information oracle, not a player: use "
                              "`simstats solve`, or `simstats run --policy oracle`")
        return CompiledPlayer(self)

    @property
    def player_class(self) -> type:
        """The class whose choose plays (the oracle's fair player, else the policy itself)."""
        return getattr(self.cls, "fair_player", self.cls) if self.oracle else self.cls

    @property
    def player_values(self) -> dict:
        """The values the player plays with: the policy's own, or the oracle's fair player's
        defaults."""
        return self.values if self.player_class is self.cls else default_values(
            self.player_class.parameters)

    def workspace(self) -> dict:
        """The workspace fields declared for these values (the oracle's own, not its player's)."""
        return _declarations(self.cls.workspace if self.oracle else self.player_class.workspace,
                             self.values)

    @property
    def searches(self) -> bool:
        """Whether the policy runs the exact search (simstats/search): its workspace holds
        the search's table."""
        return "search_table" in self.workspace()

    def params(self) -> np.ndarray:
        """The parameter record (one element) of the player, read by name in compiled code."""
        player = self.player_class
        values = self.player_values
        record = np.zeros(1, dtype=api.params_dtype(player.parameters))
        for name in api.declared(player.parameters):
            record[0][name] = values[name]
        return record

    def oracle_budget(self) -> int:
        return int(self.values.get("budget", 0)) if self.oracle else 0

    def new_memory(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(record, its bytes, the bytes its memory part is reset to before each deal): memory
        fields first, cleared to their start values; then the workspace, set up once."""
        player = self.player_class
        memory = _declarations(player.memory, self.values)
        workspace = self.workspace()
        fields = {**memory, **workspace} or {"_": api.scalar(np.int8)}
        dtype = np.dtype([_field_dtype(n, f) for n, f in fields.items()], align=True)
        record = np.zeros(1, dtype=dtype)
        for name, spec in fields.items():
            if spec.init is not None:
                spec.init(record[0][name])
            elif spec.fill:
                record[0][name] = spec.fill
        cleared = min((dtype.fields[n][1] for n in workspace), default=dtype.itemsize)
        raw = record.view(np.uint8)
        return record, raw, raw[:cleared].copy()

    def module(self, on_compile=None):
        """The generated loop module, compiled or loaded from the cache on first use."""
        if self._module is None:
            self._module = load_loop_module(self, on_compile)
        return self._module


def default_values(parameters: dict) -> dict:
    """A policy's parameter values with nothing given: each default as the record holds it."""
    return {name: p.default_value for name, p in api.declared(parameters).items()}


def parse_values(policy: str, parameters: dict, given: dict[str, str]) -> dict:
    """The values of a policy's parameters with those `given` by text (`NAME[key=value]`), each
    parsed and checked by its type and range: ValueError in one line otherwise."""
    try:
        typed = api.declared(parameters)
    except TypeError as error:
        raise ValueError(f"policy {policy!r}: {error}") from None
    values = {name: p.default_value for name, p in typed.items()}
    for key, text in given.items():
        if key not in typed:
            known = ", ".join(typed) or "none"
            raise ValueError(f"policy {policy!r}: unknown parameter {key!r} (known: {known})")
        try:
            values[key] = typed[key].parse(key, text)
        except ValueError as error:
            raise ValueError(f"policy {policy!r}: {error}") from None
    return values
