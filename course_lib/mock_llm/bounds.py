"""A number the request says must fit the bounds its schema sets, or the mock says so instead of calling.

"Set the volume to 150" with ``level: {"type": "integer", "minimum": 0, "maximum": 100}``: a model does not send
150, which the tool's own schema rejects; it says the value is out of range and asks for one that fits. The mock
checks every number argument of a planned call against its property's ``minimum``/``maximum`` and
``exclusiveMinimum``/``exclusiveMaximum`` (JSON Schema 2020-12 numbers, and draft-4's booleans beside
``minimum``/``maximum``), with local ``$ref`` and nullable ``anyOf`` followed (:func:`~.arguments.slots_of`); an
array's numbers against its ``items`` bounds.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import language as lang
from .arguments import slots_of


@dataclass(frozen=True)
class OutOfRange:
    """One argument whose value its bounds exclude.

    Attributes:
        name: the property name.
        value: the number the call would send.
        low, high: the bounds (None where the schema sets none).
        low_open, high_open: True when the bound itself is excluded (``exclusiveMinimum``...).
    """

    name: str
    value: float
    low: float | None
    high: float | None
    low_open: bool = False
    high_open: bool = False

    def allowed(self, zh: bool = False) -> str:
        """The range in words: "between 0 and 100", "greater than 0", "at most 100" (zh: "0 到 100 之间"...)."""
        lo, hi = _num(self.low), _num(self.high)
        if zh:
            if self.low is not None and self.high is not None:
                return f"{lo} 到 {hi} 之间" + ("（不含端点）" if self.low_open or self.high_open else "")
            if self.low is not None:
                return f"大于 {lo}" if self.low_open else f"不小于 {lo}"
            return f"小于 {hi}" if self.high_open else f"不大于 {hi}"
        if self.low is not None and self.high is not None and not (self.low_open or self.high_open):
            return f"between {lo} and {hi}"
        parts = []
        if self.low is not None:
            parts.append(f"greater than {lo}" if self.low_open else f"at least {lo}")
        if self.high is not None:
            parts.append(f"less than {hi}" if self.high_open else f"at most {hi}")
        return " and ".join(parts)


def _num(x: float | None) -> str:
    return "" if x is None else (str(int(x)) if float(x).is_integer() else f"{x:g}")


def _bounds(spec: dict) -> tuple[float | None, float | None, bool, bool]:
    """``(low, high, low excluded, high excluded)`` of a number schema, in either draft's spelling."""
    def number(v: Any) -> float | None:
        return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None

    low, high = number(spec.get("minimum")), number(spec.get("maximum"))
    low_open = high_open = False
    ex_lo, ex_hi = spec.get("exclusiveMinimum"), spec.get("exclusiveMaximum")
    if ex_lo is True:  # draft 4: a flag on minimum
        low_open = low is not None
    elif number(ex_lo) is not None and (low is None or number(ex_lo) >= low):
        low, low_open = number(ex_lo), True
    if ex_hi is True:
        high_open = high is not None
    elif number(ex_hi) is not None and (high is None or number(ex_hi) <= high):
        high, high_open = number(ex_hi), True
    return low, high, low_open, high_open


def _outside(value: float, low: float | None, high: float | None, low_open: bool, high_open: bool) -> bool:
    return (low is not None and (value < low or (low_open and value == low))) or \
        (high is not None and (value > high or (high_open and value == high)))


def out_of_range(arguments: dict, parameters: dict) -> list[OutOfRange]:
    """The number arguments of one call that their property's bounds exclude, in the schema's order.

    Args:
        arguments: the call's arguments (name -> value).
        parameters: the tool's ``parameters`` JSON Schema.

    Returns:
        One :class:`OutOfRange` per such argument; ``[]`` when every number fits (or no bounds are set).

    Example:
        >>> schema = {"type": "object", "properties": {"level": {"type": "integer", "minimum": 0, "maximum": 100}}}
        >>> [(o.name, o.value, o.allowed()) for o in out_of_range({"level": 150}, schema)]
        [('level', 150, 'between 0 and 100')]
    """
    out = []
    for slot in slots_of(parameters):
        value = arguments.get(slot.name)
        spec = slot.spec
        if isinstance(value, list) and isinstance(spec.get("items"), dict):  # "ratings": [4, 7] of 1..5 each
            spec = spec["items"]
            values = value
        else:
            values = [value]
        low, high, low_open, high_open = _bounds(spec)
        for v in values:
            if isinstance(v, (int, float)) and not isinstance(v, bool) and _outside(v, low, high, low_open, high_open):
                out.append(OutOfRange(slot.name, v, low, high, low_open, high_open))
                break
    return out


def range_reply(tool_name: str, bad: list[OutOfRange], question: str) -> str:
    """The honest reply instead of the call: which value is out of which range, and a question for one that fits.

    >>> range_reply("set_volume", [OutOfRange("level", 150, 0, 100)], "Set the volume to 150")
    "set_volume's level must be between 0 and 100, and 150 is not. What level should I use?"
    """
    first = bad[0]
    if lang.is_chinese(question):
        said = "；".join(f"`{b.name}` 必须在{b.allowed(zh=True)}，{_num(b.value)} 不符合" if b.low is not None and
                        b.high is not None else f"`{b.name}` 必须{b.allowed(zh=True)}，{_num(b.value)} 不符合" for b in bad)
        return f"{tool_name} 的{said}。请给一个符合范围的值？"
    said = "; ".join(f"{b.name} must be {b.allowed()}, and {_num(b.value)} is not" for b in bad)
    return f"{tool_name}'s {said}. What {first.name.replace('_', ' ')} should I use?"
