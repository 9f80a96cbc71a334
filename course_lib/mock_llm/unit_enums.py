"""Enums whose values are units ("C", "F", "km", "mi"...), and the from/to roles of a conversion.

A learner's ``convert_units(value, from_unit, to_unit)`` lists unit symbols as enum values;
a user writes the units out ("100 F to Celsius", "how many miles is 42 km?", "把100公里换算成英里").
A model reads three things a plain enum match cannot:

* a symbol's other spellings (Celsius ~ C, miles ~ mi, pounds ~ lb, 公里 ~ km);
* which unit is the source and which the target: the unit written after the number is what the
  value is in; "from X", "X to/into/in/as Y", "把X换算成Y" give the order; "how many Y is X" turns it;
* that a number with a unit the tool converts ("42 km") is the value to convert, whatever unit
  dimension the value's name ("value", "amount") suggests elsewhere.

Seed idea: a model fills arguments from meaning, not spelling (seed 001, argument filling).
Lesson: 02 (how the model reads a tool definition).
"""
from __future__ import annotations

import re
from functools import lru_cache

from . import gazetteer as gz

# Single letters a unit enum means as temperatures ("C" is Celsius here, not coulomb).
_TEMPERATURE = {"c": "°C", "°c": "°C", "celsius": "°C", "f": "°F", "°f": "°F", "fahrenheit": "°F",
                "k": "K", "kelvin": "K"}
# Spellings the gazetteer gives another meaning (pounds as money) or leaves out.
_EXTRA_FORMS = {"lb": ("pound", "pounds", "磅"), "°C": ("centigrade", "degrees c", "摄氏度", "摄氏"),
                "°F": ("degrees f", "华氏度", "华氏"), "ft": ("英尺",), "m": ("米",), "in": ("英寸",),
                "oz": ("盎司",)}
_CURRENCY_CODES = frozenset(gz.CURRENCIES.values())
# Forms too short or common to find without a number before them or the enum's own spelling.
_AMBIGUOUS = frozenset({"won", "rub", "eth", "try", "in", "a", "t", "l", "h", "g", "s", "m", "c", "f", "k", "度", "米", "年", "天", "元", "块", "克", "升"})
#: Slot-name words of the unit converted from / to.
SOURCE_WORDS = frozenset({"from", "source", "src", "input", "original", "orig", "base", "in"})
TARGET_WORDS = frozenset({"to", "target", "dest", "destination", "output", "out", "into", "desired", "result"})
_TARGET_LEAD = re.compile(r"(?:\b(?:to|into|in|as|how many|how much)\s+(?:the\s+)?|(?:成|为|到|多少|几))\s*$", re.I)
_SOURCE_LEAD = re.compile(r"(?:\bfrom\s+|从\s*|把\s*)$", re.I)
_ZH_TARGET_LEAD = re.compile(r"(?:换成|换算成|转成|转换成|折合|等于多少|是多少|多少)\s*$")
_NUMBER_BEFORE = re.compile(r"(?:\d|[零一二两三四五六七八九十百千万])\s*$")


def canonical(value: str) -> str | None:
    """The gazetteer's symbol for an enum value that names a unit ("Celsius" -> "°C", "mi" -> "mi"), else None.

    A currency is a unit of money: its ISO 4217 code ("USD", "usd", "US dollar" -> "USD"), so an enum of
    currency codes reads "in yuan", 人民币, "50 quid" with the same from/to roles as a unit enum.
    """
    low = value.lower()
    if low in _TEMPERATURE:
        return _TEMPERATURE[low]
    code = gz.CURRENCIES.get(low)
    if code is not None and (value.upper() == code or len(low) > 3):
        return code
    hit = gz.UNITS.get(value) or gz.UNITS.get(low)
    if hit is None or hit[1] in ("money", "percent"):
        return None
    return hit[0]


@lru_cache(maxsize=1024)
def forms(value: str) -> tuple[str, ...]:
    """Every spelling of the unit an enum value names, longest first; () when it names no unit."""
    canon = canonical(value)
    if canon is None:
        return ()
    out = {value, canon, *_EXTRA_FORMS.get(canon, ())}
    if canon in _CURRENCY_CODES:  # names, signs and Chinese names of a currency ("yuan", "¥", 人民币)
        return tuple(sorted(out | {f for f, c in gz.CURRENCIES.items() if c == canon} | {
            f for f, (c, dim) in gz.UNITS.items() if c == canon and dim == "money"}, key=lambda f: (-len(f), f)))
    out |= {f for f, (c, dim) in gz.UNITS.items() if c == canon and dim not in ("money", "percent")}
    if canon in ("°C", "°F", "K"):
        out |= {k for k, v in _TEMPERATURE.items() if v == canon}
    return tuple(sorted(out, key=lambda f: (-len(f), f)))


def is_unit_enum(options: tuple) -> bool:
    """True when at least two of an enum's values name units."""
    return sum(1 for o in options if isinstance(o, str) and canonical(o)) >= 2


def _alternatives(values: tuple[str, ...]) -> list[tuple[str, str]]:
    """``(form, enum value)`` of every way ``values`` may be written, longest form first."""
    return sorted({(f, v) for v in values for f in forms(v)}, key=lambda x: -len(x[0]))


@lru_cache(maxsize=256)
def _pattern(values: tuple[str, ...]) -> tuple[re.Pattern[str], list[tuple[str, str]]]:
    """The pattern of every form of ``values`` (group ``k`` is alternative ``k - 1``), and the alternatives.

    Compiled once per enum. The leading lookahead on the forms' first characters changes no match
    (every form starts with one of them); it only lets the scan skip, in one test, the positions no
    form can start at, instead of trying each form's lookbehind there.
    """
    alts = _alternatives(values)
    parts = []
    for f, _ in alts:
        esc = re.escape(f)
        parts.append(esc if re.match(r"[^\x00-\x7f]|[$]", f) else rf"(?<![\w'’]){esc}(?![\w'’])")
    if not parts:
        return re.compile(r"(?!)"), alts
    first = "".join(sorted({re.escape(f[0]) for f, _ in alts}))
    return re.compile(f"(?=[{first}])(?:" + "|".join(f"({p})" for p in parts) + ")", re.I), alts


#: A Chinese scale named before its number: "华氏100", "摄氏 30".
_ZH_SCALE_FIRST = re.compile(r"(?:华氏|摄氏)\s*\d+(?:\.\d+)?\s*$")


def mentions(text: str, values: tuple[str, ...]) -> list[tuple[str, int, int, bool]]:
    """The units of ``values`` the text names: ``(enum value, start, end, after a number)`` in order.

    A short or common form ("m", "in", "C", 米) counts only after a number or in the enum's own
    spelling and case ("to mi").
    """
    pat, alts = _pattern(values)
    out = []
    for m in pat.finditer(text):
        form, value = alts[m.lastindex - 1]
        after_number = bool(_NUMBER_BEFORE.search(text[: m.start()]))
        word = m.group(0)
        if word.lower() in _AMBIGUOUS and not after_number and (word not in values or word == "in") and not (
                _ZH_TARGET_LEAD.search(text[: m.start()]) and not word.isascii()):  # 换成米: 米 is the target
            continue  # "to C", "in m": the enum's own spelling is meant; "in" alone is a preposition
        if word == "度" and _ZH_SCALE_FIRST.search(text[: m.start()]):
            continue  # 华氏100度: the scale was named before the number, 度 is only its degrees
        if out and re.fullmatch(r"\s*\d+(?:\.\d+)?\s*", text[out[-1][2]:m.start()]) and not word.isascii() \
                and not out[-1][3]:
            out[-1] = (out[-1][0], out[-1][1], out[-1][2], True)  # 华氏 before the number is the number's unit
        out.append((value, m.start(), m.end(), after_number))
    return out


def roles(text: str, hits: list[tuple[str, int, int, bool]]) -> tuple[str | None, str | None]:
    """``(source unit, target unit)`` from the units a request names (either may be None)."""
    distinct: list[tuple[str, int, int, bool]] = []
    for h in hits:
        if all(h[0] != d[0] for d in distinct):
            distinct.append(h)
    if not distinct:
        return None, None

    def mark(h: tuple[str, int, int, bool]) -> str:
        before = text[: h[1]]
        if h[3] or _SOURCE_LEAD.search(before):
            return "source"
        if _TARGET_LEAD.search(before):
            return "target"
        return ""

    marks = [mark(h) for h in distinct[:2]]
    if len(distinct) == 1:
        return (distinct[0][0], None) if marks[0] != "target" else (None, distinct[0][0])
    a, b = distinct[0][0], distinct[1][0]
    if marks[1] == "source" and marks[0] != "source" or marks[0] == "target" and marks[1] != "target":
        return b, a  # "how many miles is 42 km?"
    return a, b


def slot_roles(names: list[str]) -> tuple[int | None, int | None]:
    """Which of two unit slots is the source and which the target, by their names (indexes, or None)."""
    from .language import split_identifier

    src = [i for i, n in enumerate(names) if set(split_identifier(n)) & SOURCE_WORDS]
    dst = [i for i, n in enumerate(names) if set(split_identifier(n)) & TARGET_WORDS]
    if len(src) == 1 and len(dst) == 1 and src != dst:
        return src[0], dst[0]
    if len(names) == 2 and (len(src) == 1) != (len(dst) == 1):
        known = src[0] if src else dst[0]
        other = 1 - known
        return (known, other) if src else (other, known)
    return None, None
