"""The unit a number slot is in, and a length, mass or temperature converted into it.

A slot named ``distance_km`` or described "Distance in kilometres" takes "3 miles" as 4.828032, ``temp_celsius``
takes "70 °F" as 21.111111 and ``weight_kg`` takes "2 pounds" (2磅) as 0.907185: a model converts a quantity
stated in another unit than the one the slot asks for. A slot whose unit nobody names takes the figure as
written. Times are converted in :mod:`course_lib.mock_llm.arguments` (``_convert_time``).

The words, factors and temperature scales are data (``course_lib/data/slot_units.json``): exact factors of the
SI definitions, no package (a unit library such as pint costs more to import than the whole mock needs here).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ..package_data import load_json
from . import language as lang

_DATA = load_json("slot_units.json")
#: One of each length or mass unit in metres or kilograms.
FACTORS: dict[str, dict[str, float]] = _DATA["factors"]
#: A temperature scale as ``(offset, scale)``: kelvin = (value + offset) * scale.
SCALES: dict[str, tuple[float, float]] = {k: (v[0], v[1]) for k, v in _DATA["temperature"].items()}
#: A word of a slot's name or description -> the canonical unit it names.
WORDS: dict[str, str] = _DATA["words"]
#: The dimension of each unit that can be converted.
DIMS: dict[str, str] = {u: d for d, f in FACTORS.items() for u in f} | {u: "temperature" for u in SCALES}

#: Where a description names its unit: "in kilometres", "in degrees Fahrenheit", "as pounds", "(kg)", "(°C)",
#: "单位：公里", "以公斤为单位", "（摄氏度）".
_DESC_UNIT = re.compile(r"\b(?:in|as|units? of)\s+(?:degrees?\s+)?([a-z°]+)"
                        r"|[(（]\s*([a-z°]+|[\u4e00-\u9fff]{1,3})\s*[)）]"
                        r"|单位[为是：:]?\s*([\u4e00-\u9fff]{1,3}|[a-z°]+)|以([\u4e00-\u9fff]{1,3})为单位", re.I)



def _name_units(name: str) -> set[str]:
    """The units the words of a slot's name name ("distance_km" -> km, "temp_c" -> °C, "height_in" -> in)."""
    words = lang.split_identifier(name)
    out = set()
    for k, w in enumerate(words):
        if len(w) == 1 and len(words) == 1 or w == "in" and (k != len(words) - 1 or k == 0):
            continue  # a lone letter is a name ("c", "m"); "in" inside a name is the preposition (distance_in_m)
        if w in WORDS:
            out.add(WORDS[w])
    return out


def _description_units(description: str) -> set[str]:
    """The units a description names after "in"/"as", in brackets or after 单位 ("Distance in kilometres")."""
    out = set()
    for m in _DESC_UNIT.finditer(description):
        word = next(g for g in m.groups() if g).lower()
        if word in WORDS:
            out.add(WORDS[word])
    return out


@lru_cache(maxsize=4096)
def slot_unit(name: str, description: str, dim: str) -> str | None:
    """The one unit of dimension ``dim`` the slot's name or description names, else None (none or several).

    Example:
        >>> slot_unit("distance_km", "", "length"), slot_unit("temp", "Target in degrees Fahrenheit", "temperature")
        ('km', '°F')
        >>> slot_unit("distance", "How far to run", "length") is None
        True
    """
    units = {u for u in _name_units(name) | _description_units(description) if DIMS.get(u) == dim}
    return next(iter(units)) if len(units) == 1 else None


def convert(value: float, unit: str, want: str) -> float | None:
    """``value`` in ``unit`` written in ``want`` (both of one dimension), or None when either is unknown.

    Example:
        >>> convert(3, "mi", "km"), convert(70, "°F", "°C"), convert(90, "lb", "kg")
        (4.828032, 21.111111, 40.823313)
    """
    if unit in SCALES and want in SCALES:
        (off_a, sc_a), (off_b, sc_b) = SCALES[unit], SCALES[want]
        out = (value + off_a) * sc_a / sc_b - off_b
    elif DIMS.get(unit) and DIMS.get(unit) == DIMS.get(want) and DIMS[unit] in FACTORS:
        factors = FACTORS[DIMS[unit]]
        out = value * factors[unit] / factors[want]
    else:
        return None
    return int(round(out)) if abs(out - round(out)) < 1e-9 else round(out, 6)


def in_slot_unit(name: str, description: str, value: Any, unit: str) -> Any:
    """``value`` (in ``unit``) in the unit the slot names, or ``value`` as it is when the slot names none."""
    dim = DIMS.get(unit)
    want = slot_unit(name, description, dim) if dim and isinstance(value, (int, float)) else None
    if want is None or want == unit:
        return value
    out = convert(value, unit, want)
    return value if out is None else out


#: A price just before a figure: "costs 2 pounds", "a fee of 5 pounds" (money, whatever the slots want).
_MONEY_BEFORE = re.compile(r"\b(?:costs?|costing|price[ds]?|pay|paid|worth|spend|spent|fee|charge[ds]?|for)\s+(?:of\s+)?$",
                           re.I)


def is_mass_pounds(request: str, text: str, start: int, unit: str) -> bool:
    """Whether a figure read as pounds sterling was written "2 pounds" (no £, no price just before it: "costs 2
    pounds"), which a weight slot reads as lb."""
    return unit == "GBP" and "£" not in text and re.search(r"\bpounds?\b", text, re.I) is not None and \
        _MONEY_BEFORE.search(request[max(0, start - 20):start]) is None
