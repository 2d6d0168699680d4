"""A policy's parameters, typed: an integer, a number, a flag or a choice among names, each with
its default, its range and one line of meaning, as `simstats policies NAME` lists them and as
`NAME[key=value,...]` is parsed and checked.

Declared in a policy's ``parameters`` with ``api.integer``, ``api.number``, ``api.flag`` and
``api.choice``. A plain number there is a parameter of its default's type (an int or a bool an
integer, a float a number), with no range and no description: plugins written before keep
working. In the compiled record (``params.name``) an integer, a flag (0 or 1) and a choice (the
index of its name in the choices) are int64 fields, a number a float64 one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

INTEGER, NUMBER, FLAG, CHOICE = "int", "float", "bool", "choice"
FLAG_TEXT = {"0": 0, "1": 1, "false": 0, "true": 1, "no": 0, "yes": 1}


@dataclass(frozen=True)
class Parameter:
    """One parameter of a policy; see the module docstring."""

    kind: str
    default: float | int | bool | str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    doc: str = ""

    @property
    def is_integral(self) -> bool:
        return self.kind != NUMBER

    def value(self, given) -> int | float:
        """The record's value of a default or a value given in Python (a choice by name)."""
        if self.kind == CHOICE and isinstance(given, str):
            return self.choices.index(given)
        return int(given) if self.is_integral else float(given)

    @property
    def default_value(self) -> int | float:
        return self.value(self.default)

    def parse(self, name: str, text: str) -> int | float:
        """The value of `name=text` from the command line, or ValueError in words for the user
        naming the type or the range. An integer may be written 64e6, a flag 0, 1, true or
        false; a choice by its name (or its number, as runs made before wrote it)."""
        text = text.strip()
        if self.kind == CHOICE:
            if text in self.choices:
                return self.choices.index(text)
            number = _number(text)
            if number is None or not number.is_integer() or not 0 <= number < len(self.choices):
                raise ValueError(f"{name} is one of {', '.join(self.choices)}, not {text!r}")
            return int(number)
        if self.kind == FLAG:
            if text.lower() in FLAG_TEXT:
                return FLAG_TEXT[text.lower()]
            raise ValueError(f"{name} is a flag (0 or 1), not {text!r}")
        number = _number(text)
        if number is None:
            raise ValueError(f"{name} is {'an int' if self.is_integral else 'a number'}, "
                             f"not {text!r}")
        if self.is_integral and not number.is_integer():
            raise ValueError(f"{name} is an int, not {text!r}")
        value = int(number) if self.is_integral else number
        self.check(name, value)
        return value

    def check(self, name: str, value: float) -> None:
        """ValueError, in one line, for a value out of the parameter's range."""
        if (self.low is not None and value < self.low) or (
                self.high is not None and value > self.high):
            raise ValueError(f"{name} must be {self.range_text()}, not {value:g}")

    def range_text(self) -> str:
        if self.kind == CHOICE:
            return "|".join(self.choices)
        if self.kind == FLAG:
            return "0 or 1"
        if self.low is not None and self.high is not None:
            return f"{self.low:g} to {self.high:g}"
        if self.low is not None:
            return f"at least {self.low:g}"
        if self.high is not None:
            return f"at most {self.high:g}"
        return "any"

    def default_text(self) -> str:
        if self.kind == CHOICE:
            return str(self.choices[self.default_value])
        return str(self.default_value) if self.is_integral else f"{self.default_value:g}"


def _number(text: str) -> float | None:
    try:
        number = float(text)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def integer(default: int, low: float | None = None, high: float | None = None,
            doc: str = "") -> Parameter:
    """An integer parameter: `api.integer(62, 0, doc="searches after the first")`."""
    return Parameter(INTEGER, int(default), low, high, (), doc)


def number(default: float, low: float | None = None, high: float | None = None,
           doc: str = "") -> Parameter:
    """A real-valued parameter: `api.number(1.3, doc="a free cell's worth")`."""
    return Parameter(NUMBER, float(default), low, high, (), doc)


def flag(default: bool, doc: str = "") -> Parameter:
    """An on/off parameter, 0 or 1 in the record: `api.flag(True, doc="...")`."""
    return Parameter(FLAG, bool(default), 0, 1, (), doc)


def choice(default: str, choices, doc: str = "") -> Parameter:
    """One of a few names, its index in `choices` in the record:
    `api.choice("dig", ("foundation-only", "random", "dig"))`."""
    choices = tuple(choices)
    if default not in choices:
        raise ValueError(f"choice default {default!r} is not one of {choices}")
    return Parameter(CHOICE, default, 0, len(choices) - 1, choices, doc)


def declared(parameters: dict) -> dict[str, Parameter]:
    """Every parameter of a policy as a Parameter: plain numbers typed by their default."""
    typed = {}
    for name, declared_as in parameters.items():
        if isinstance(declared_as, Parameter):
            typed[name] = declared_as
        elif isinstance(declared_as, bool):
            typed[name] = Parameter(FLAG, declared_as, 0, 1)
        elif isinstance(declared_as, int):
            typed[name] = Parameter(INTEGER, declared_as)
        elif isinstance(declared_as, float):
            typed[name] = Parameter(NUMBER, declared_as)
        else:
            raise TypeError(f"parameter {name!r}: declare it with api.integer, api.number, "
                            "api.flag or api.choice, or give a number")
    return typed


def listing(parameters: dict) -> list[str]:
    """One line a parameter, as `simstats policies NAME` prints them: name, type, default,
    range and meaning, aligned."""
    typed = declared(parameters)
    rows = [(name, p.kind, p.default_text(), p.range_text(), p.doc)
            for name, p in typed.items()]
    if not rows:
        return []
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row[:4], widths, strict=True))
            + "  " + row[4] for row in rows]
