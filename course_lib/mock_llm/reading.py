"""Reading a request: the typed *mentions* a tool's arguments can be filled from.

A model fills ``{"radius": 4, "unit": "inches"}`` from "a circle with a radius of 4
inches" because it sees a number, its unit and the word before it. The mock does the same
in two steps. This module is the first: it reads the text once and lists its mentions,

* numbers with their unit, currency, percent sign and multiplier ("$1.2M", "5 seconds",
  "1e-9", "five", "三十", "-3"), named numbers ("a = 3", "x=1"), ranges ("from 1 to 3");
* bracketed groups ("[1, 2, 3]", "(3, 4)", "{'a': 1}"), quoted text, math expressions
  ("3x^2 + 2x - 1"), dates ("March 3rd 2022", "2024年3月5日"), times ("7:30 pm");
* places (from :mod:`.gazetteer`, and capitalised names after "in", "near", "from"...),
  proper names ("LeBron James", "Battle of Stalingrad"), codes ("DNA123", "C:/data/x.csv");
* coordinations: mentions of one kind joined by commas and "and" ("5, 10 and 15").

The second step (:mod:`.arguments`) matches these mentions to a schema. Every mention
keeps its character span, so the explanation can show the exact words behind a value.
Everything is cached per text: the same request is read once.
"""
from __future__ import annotations

import ast
import datetime as _dt
import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from . import gazetteer as gz
from . import language as lang
from ..package_data import load_json

MONTHS = {m: i + 1 for i, m in enumerate(
    "january february march april may june july august september october november december".split())}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
MONTHS["sept"] = 9
_MONTH = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"

#: Words that start a sentence in capitals without being a name.
_NOT_NAMES = frozenset("""a an the i what what's whats how who whom whose which where when why is are was were do does did
    can could would should will shall may might must please find get calculate compute determine give show tell
    list fetch retrieve search look identify predict estimate generate create make book play provide check ask
    convert plot sort run perform train build analyze analyse assess evaluate solve let lets let's i'm i'd i'll
    hello hi hey also then and or but if in on at for from to of with by about after before during into
    my our your their his her its this that these those there here it they we you he she also now today
    tomorrow yesterday next last first second third one two three four five six seven eight nine ten
    update delete add remove send translate order set use using given help need want like know reserve cancel
    schedule remind turn switch
    monday tuesday wednesday thursday friday saturday sunday average mean total number""".split())
#: Labels written in capitals before the value they name ("project ID badae", "the UUID 3f2a"): no name alone.
_LABELS = frozenset({"id", "ids", "uuid", "guid", "url", "uri", "sku", "pin", "no", "nr", "ref"})
_HONORIFICS = frozenset({"mr.", "mrs.", "ms.", "dr.", "prof.", "st.", "sr.", "jr.", "mt.", "ft."})
_CONNECT = frozenset({"of", "the", "de", "del", "da", "van", "von", "v.", "vs", "vs.", "&", "la", "le", "du", "al"})
_GEO_NOUNS = ("river", "rainforest", "forest", "county", "state", "city", "park", "national park", "lake",
              "mountains", "mountain", "valley", "island", "islands", "ocean", "sea", "bay", "desert", "region",
              "district", "province", "coast", "reserve", "canyon", "falls", "beach", "peninsula", "basin")
_PLACE_PREP = re.compile(r"\b(in|at|near|around|from|to|within|towards|via)\s+(?:the\s+)?$", re.I)

_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_SPECIAL = {"dozen": 12, "a dozen": 12, "half a dozen": 6, "a couple of": 2, "a pair of": 2, "twice": 2,
            "once": 1, "thrice": 3, "single": 1, "a decade": 10, "decade": 10, "a century": 100, "century": 100,
            "a hundred": 100, "a thousand": 1000, "a million": 10**6, "a billion": 10**9, "half": 0.5}
_MULT = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "mm": 1e6, "million": 1e6, "b": 1e9, "bn": 1e9,
         "billion": 1e9, "t": 1e12, "trillion": 1e12, "万": 1e4, "亿": 1e8, "千": 1e3, "百万": 1e6}
_CURRENCY_SIGNS = {"$": "USD", "US$": "USD", "€": "EUR", "£": "GBP", "¥": "CNY", "￥": "CNY"}
_UNIT_KEYS = sorted(gz.UNITS, key=len, reverse=True)
_AMBIGUOUS_UNITS = frozenset({"in", "a", "t", "l", "h", "g", "s", "m", "A", "C", "F", "H", "T", "V", "W", "N", "K", "L",
                              "degree", "degrees", "度", "year", "day"} - {"m", "s", "year", "day", "g"})
#: A unit after a number; a figure may follow a Chinese unit ("5英尺10英寸"), not a Latin one ("5 in3").
_UNIT_RE = re.compile(r"\s?(" + "|".join(re.escape(u) for u in _UNIT_KEYS)
                      + r")(?:(?<=[\u3400-\u9fff])|(?![A-Za-z0-9]))")
_UNIT_RE_I = re.compile(_UNIT_RE.pattern, re.I)
_PER_RE = re.compile(r"\s?(?:per|/|a|an|each)\s+(second|minute|hour|day|week|month|year|annum|person|unit|item|"
                     r"night|mile|km|kilometer|share|hectare|acre|square foot|kg)\b", re.I)


@dataclass(frozen=True)
class Mention:
    """One thing the text says that could become an argument value.

    Attributes:
        kind: ``number``, ``range``, ``group``, ``quoted``, ``expr``, ``date``, ``time``,
            ``place``, ``name``, ``code``, ``unit`` or ``dict``.
        value: the parsed value (a number, a string, a list, a ``(low, high)`` pair...).
        text: the words as written; ``start``/``end``: their character span.
        unit: the canonical unit after a number (``"s"``, ``"kg"``, ``"%"``, ``"USD"``...),
            or the noun that follows it ("3 *bedrooms*"); ``dim``: its dimension.
        label: the name a number was given (``"a"`` in "a = 3"); ``extra``: details
            (a place's kind, a date's parts, a percent flag...).
    """

    kind: str
    value: Any
    text: str
    start: int
    end: int
    unit: str = ""
    dim: str = ""
    label: str = ""
    extra: tuple = ()

    def get(self, key: str, default: Any = None) -> Any:
        """The detail ``key`` of :attr:`extra` (the last one when it is given twice), else ``default``."""
        for k, v in reversed(self.extra):  # a few pairs: a scan, no dict built per call (called ~30 times a request)
            if k == key:
                return v
        return default

    def __repr__(self) -> str:
        bits = [self.kind, repr(self.value)]
        if self.unit:
            bits.append(self.unit)
        if self.label:
            bits.append(f"label={self.label}")
        return f"Mention({', '.join(bits)} @{self.start})"


@dataclass
class Reading:
    """Everything :func:`read` found in one text, in order of appearance."""

    text: str
    mentions: list[Mention] = field(default_factory=list)
    groups: list[list[int]] = field(default_factory=list)  # coordinations: indexes into mentions
    words: list[tuple[str, int, int]] = field(default_factory=list)  # (lower-case word, start, end)
    #: what the argument filler derives from this reading alone (the words around a position...), kept
    #: with it so every slot and clause of a request reuses it; not part of the reading's value
    cache: dict = field(default_factory=dict, repr=False, compare=False)

    def of_kind(self, *kinds: str) -> list[Mention]:
        return [m for m in self.mentions if m.kind in kinds]

    def group_of(self, index: int) -> list[int]:
        """The coordination that holds mention ``index`` (just ``[index]`` when none)."""
        for g in self.groups:
            if index in g:
                return g
        return [index]

    def __repr__(self) -> str:
        return f"Reading({len(self.mentions)} mentions: {', '.join(m.kind for m in self.mentions)})"


# ---------------------------------------------------------------------------- numbers
def parse_number_words(words: list[str]) -> tuple[float, int] | None:
    """Value of English number words at the start of ``words`` and how many words it used.

    ``["twenty", "five", "apples"]`` -> ``(25, 2)``; ``["three", "hundred"]`` -> ``(300, 2)``.
    """
    total, current, used, seen = 0, 0, 0, False
    for i, w in enumerate(words):
        if w in _WORDS:
            if seen and current % 10 == 0 and 0 < _WORDS[w] < 10 and current % 100 != 0:
                current += _WORDS[w]
            elif seen and current and _WORDS[w] >= 10 and current % 100 != 0:
                break  # "five ten" is two numbers
            else:
                current += _WORDS[w]
            seen, used = True, i + 1
        elif w in _SCALES and seen:
            scale = _SCALES[w]
            if scale == 100:
                current *= 100
            else:
                total += current * scale
                current = 0
            used = i + 1
        elif w == "and" and seen and i + 1 < len(words) and words[i + 1] in _WORDS and current >= 100:
            continue
        else:
            break
    return (total + current, used) if seen else None


_NUM_RX = re.compile(
    r"(?P<cur>US\$|[$€£¥￥])?\s?(?P<num>(?<![A-Za-z0-9_.])[-−–]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?|"
    r"(?<![A-Za-z0-9_.])[-−]?\.\d+)(?P<sci>\s?(?:x|×|\*)\s?10\^\s?[-−]?\d+)?(?P<mult>\s?(?:[kKMB]|mn|bn|thousand|million|"
    r"billion|trillion)(?![A-Za-z]))?")
_WORD_NUM_RX = re.compile(r"\b(?:(?:a |an )?(?:" + "|".join(sorted(list(_WORDS) + list(_SCALES), key=len, reverse=True))
                          + r")(?:[\s-]+(?:and\s+)?(?:" + "|".join(list(_WORDS) + list(_SCALES))
                          + r"))*|half a dozen|a dozen|dozen|a couple of|a pair of|twice|thrice|a decade|decade|"
                          r"a century|century)\b", re.I)
#: Every word that can start a match of :data:`_WORD_NUM_RX` (lower case): its number words and idioms.
_NUMBER_WORD_TOKENS = frozenset(list(_WORDS) + list(_SCALES) + "dozen couple pair twice thrice decade century".split())


def _word_number_matches(text: str):
    """The matches of :data:`_WORD_NUM_RX` in ``text``, without running it on ASCII text with no number word.

    Every match starts with a whole word of :data:`_NUMBER_WORD_TOKENS` (after an optional "a"/"an"),
    so an ASCII text none of whose words is one has no match: one set test instead of the long
    alternation tried at every position (a fast path; the matches are the same).
    """
    if text.isascii() and not _NUMBER_WORD_TOKENS.intersection(re.findall(r"\w+", text.lower())):
        return ()
    return _WORD_NUM_RX.finditer(text)


# (the lookahead only skips fast the positions where neither a Chinese numeral nor a digit starts)
_ZH_NUM_RX = re.compile(r"(?=[零〇一二两三四五六七八九十百千万亿点\d])(百分之)?([零〇一二两三四五六七八九十百千万亿点]+|\d+(?:\.\d+)?)(万|亿|千)?")
#: "300K" is 300 kelvin, not 300 thousand, in a request about temperatures.
_TEMPERATURE_TALK = re.compile(r"\b(?:temperatures?|temps?|kelvin|thermal|thermo\w*|heat(?:ing|ed)?|entropy|"
                               r"enthalpy|gas(?:es)?|cool(?:ing|ed)?|warm(?:ing|ed)?)\b", re.I)
#: Temperatures named in a conversion ("72 F to C", "300 K in C", "in Celsius", 华氏): a bare C/F/K is a scale.
_TEMPERATURE_SCALES = re.compile(r"(?<![A-Za-z])°?[CFK]\s+(?:to|in|into)\s+°?[CFK](?![A-Za-z])|"
                                 r"\b(?:celsius|fahrenheit|centigrade|kelvin)\b|摄氏|华氏|开氏", re.I)
_SCALE_LETTERS = {"C": ("°C", "temperature"), "F": ("°F", "temperature"), "K": ("K", "temperature")}
#: Settings and readings that are temperatures ("set the thermostat to 70 F", "preheat the oven to 180 C"), and
#: the words of circuits and charges that keep a bare C or F coulombs or farads ("a 2 F capacitor").
_TEMPERATURE_SETTING = re.compile(r"\b(?:thermostat|heating|heater|oven|preheat|bake|fridge|freezer|fever|"
                                  r"temperatures?|temps?|weather|degrees?)\b", re.I)
_ELECTRIC_TALK = re.compile(r"capacit|charge|coulomb|farad|circuit|volt|current|electr|battery", re.I)


def _scale_letter_is_temperature(text: str) -> bool:
    """Whether a bare C, F or K after a figure is a temperature scale: in a conversion between scales, or in a
    setting or reading of a temperature that speaks of no circuit."""
    return _TEMPERATURE_SCALES.search(text) is not None or (
        _TEMPERATURE_SETTING.search(text) is not None and _ELECTRIC_TALK.search(text) is None)
_ASSIGN_RX = re.compile(r"(?<![\w.])([A-Za-z][A-Za-z0-9_]{0,20})\s*(?:=|:|equals?(?: to)?|is)\s*(?=[-−$€£]?\d)")


def _to_float(raw: str) -> float:
    return float(raw.replace(",", "").replace("−", "-").replace("–", "-"))


def _hyphen_unit(text: str, end: int, noun: str) -> tuple[str, str]:
    """``(unit, dimension)`` of a number joined to its unit by a hyphen ("a 7-day trip", "a 3-km walk").

    Any other noun is its own unit with no dimension ("3 bedrooms").
    """
    if text[end:end + 1] == "-" and noun in gz.UNITS:
        return gz.UNITS[noun]
    return noun, ""


def temperature_talk(text: str) -> bool:
    """Whether the text speaks of temperatures (words like "heat", a scale named, "72 F to C")."""
    return _TEMPERATURE_TALK.search(text) is not None or _TEMPERATURE_SCALES.search(text) is not None


def _unit_match(text: str, end: int) -> re.Match | None:
    """The unit written right after ``end``: as cased, or a long spelling in any case ("150 Euros"); a longer
    unit of several words in any case wins ("20 degrees Celsius" is °C, not "degrees")."""
    m = _UNIT_RE.match(text, end)
    mi = _UNIT_RE_I.match(text, end)
    if mi and (len(mi.group(1)) < 3 or not mi.group(1).isalpha()) and " " not in mi.group(1):
        mi = None
    if mi and (m is None or mi.end() > m.end() and " " in mi.group(1)):
        return mi
    return m


def _unit_after(text: str, end: int) -> tuple[str, str, str, int]:
    """``(canonical unit, dimension, surface, end)`` of a unit right after position ``end``."""
    # "2个小时": the measure word, then the unit
    if text.startswith("个", end) and re.match(r"个(?:小时|钟头|星期|月)", text[end:end + 3]):
        unit = _unit_after(text, end + 1)
        if unit[1]:
            return unit
    m = _unit_match(text, end)
    if m and m.group(1) in _AMBIGUOUS_UNITS and text[end:end + 1] == " " and not (
            m.group(1) in _SCALE_LETTERS and temperature_talk(text)) and not re.match(
            r"[\s]*(?:[.,;:)?!]|$|and\b|or\b|tall\b|long\b|wide\b|away\b)", text[m.end():]) and not _compound_part(
            text, end, m.group(1), m.end()):
        m = None  # "35000 in the next 5 years": "in" is not inches
    if m:
        surface = m.group(1)
        canon, dim = gz.UNITS.get(surface) or gz.UNITS.get(surface.lower()) or (surface, "")
        if surface in _SCALE_LETTERS and _scale_letter_is_temperature(text):  # "72 F to C": °F, not farads
            canon, dim = _SCALE_LETTERS[surface]
        if dim == "money" and weighing_pound(text, m.start(1), m.end(1)):
            canon, dim = "lb", "mass"
        stop = m.end()
        # compound units: "meters/second", "m/s^2", "grams/mole"
        tail = re.match(r"(?:/|\s?per\s)\s?([A-Za-z]+(?:\^?[23²³])?)", text[stop:])
        if tail and dim not in ("speed", "acceleration"):
            surface = text[m.start(1): stop + tail.end()]
            stop += tail.end()
            canon = gz.UNITS.get(surface.lower(), (surface, dim))[0]
            dim = gz.UNITS.get(surface.lower(), (surface, "rate" if dim else ""))[1]
        return canon, dim, surface, stop
    m = None if text.isascii() else re.match(r"\s?个?(人|位)(?!置|数)", text[end:])
    if m:  # "4个人", "4位": people, as Chinese counts them
        return "人", "", m.group(0).strip(), end + m.end()
    m = re.match(r"\s?(?:-\s?)?([A-Za-z]{3,}(?:\s(?:per|of)\s[A-Za-z]+)?)", text[end:])
    if m:  # a plain noun after the number: "3 bedrooms", "100 generations"
        noun = m.group(1).split()[0].lower()
        if noun not in lang.STOPWORDS and noun not in ("and", "or", "to", "in", "of", "at", "for", "per", "times"):
            canon, dim = _hyphen_unit(text, end, noun)
            return canon, dim, m.group(1).split()[0], end + m.start(1) + len(noun)
    return "", "", "", end


def _inside_word_or_code(text: str, m: re.Match) -> bool:
    """Whether a digit match is part of a word ("DNA123", "C6H12O6") or a code ("3D", "2x2"): no number."""
    s, raw = m.start("num"), m.group("num")
    if s > 0 and (text[s - 1].isascii() and text[s - 1].isalpha() or text[s - 1] in "_") and raw[0] not in "-−":
        return True
    after = text[m.end("num"): m.end("num") + 1]
    return after.isalpha() and after.lower() not in "kmbx" and not _UNIT_RE.match(text, m.end("num")) and \
        re.match(r"[A-Za-z]+\d", text[m.end("num"):]) is not None


def _digit_value(text: str, m: re.Match) -> tuple[float, int, str, str]:
    """``(value, end, currency, multiplier)`` of a number in digits: its exponent and multiplier
    ("1.2M", "$2k", "5e3") applied, ``end`` after the multiplier when it is one ("300K" in
    temperature talk is kelvin, not thousands)."""
    raw, e = m.group("num"), m.end()
    value = _to_float(raw)
    if m.group("sci"):
        value *= 10 ** int(re.sub(r"[^\d-]", "", m.group("sci").replace("−", "-"))[2:] or 0)
    currency = _CURRENCY_SIGNS.get((m.group("cur") or "").strip(), "")
    mult = (m.group("mult") or "").strip()
    if mult:
        kelvin = mult == "K" and not currency and temperature_talk(text)
        if not kelvin and (mult == "M" or mult.lower() in ("million", "billion", "trillion", "thousand", "mn", "bn")
                           or (currency and mult.lower() in ("k", "m", "b")) or mult in ("K", "B")):
            value *= _MULT[mult.lower()]
        else:
            e = m.end("num")
    else:
        e = m.end("num") if not m.group("sci") else m.end("sci")
    return value, e, currency, mult


def _digit_mention(text: str, m: re.Match) -> Mention:
    """The number mention of one digit match: value, unit or currency after it, ordinal, "per ...",
    hemisphere of a coordinate ("33.4484 N, 112.0740 W")."""
    s, raw = m.start("num"), m.group("num")
    value, e, currency, mult = _digit_value(text, m)
    is_int = re.fullmatch(r"[-−–]?[\d,]+", raw) is not None and value == int(value)
    unit, dim, surface, stop = ("", "", "", e)
    ordinal = re.match(r"(?:st|nd|rd|th)\b", text[e:e + 3]) if is_int and not mult and not currency else None
    if ordinal:  # "the 19th century", "2nd, 3rd and 4th floors": the number, then what follows it
        e += ordinal.end()
        stop = e
    if currency:
        unit, dim = currency, "money"
    else:
        unit, dim, surface, stop = _unit_after(text, e)
        if unit in ("USD", "EUR", "GBP", "JPY", "CNY"):
            dim = "money"
    per = _PER_RE.match(text, stop)
    extra: list[tuple[str, Any]] = [("int", is_int and not mult)]
    if per:
        extra.append(("per", per.group(1).lower()))
    # coordinates: "33.4484 N, 112.0740 W"
    hemi = re.match(r"\s?°?\s?([NSEW])(?![A-Za-z])", text[e:])
    if hemi and not unit[:1].isupper() or (hemi and unit in ("N", "S", "E", "W")):
        if hemi.group(1) in "SW":
            value = -abs(value)
        unit, dim, stop = "deg", "angle", e + hemi.end()
    if unit == "%":
        extra.append(("percent", True))
    if ordinal:
        extra.append(("ordinal", True))
    value = int(value) if is_int and value == int(value) and not mult else value
    if mult and float(value).is_integer():
        value = int(value)
    return Mention("number", value, text[m.start():stop], m.start() if currency else s, stop, unit, dim,
                   extra=tuple(extra))


def _special_word_value(text: str, m: re.Match, phrase: str) -> float | None:
    """The value of a special number word ("a dozen", "a couple of", "decade"), or None where it is no
    number ("once", "a six", "the 19th century")."""
    value = _SPECIAL[phrase]
    if phrase in ("once", "single", "half") or phrase.startswith("a ") and phrase not in (
            "a dozen", "a decade", "a century", "a hundred", "a thousand", "a million", "a billion"):
        if phrase not in ("a couple of", "a pair of"):
            return None
    if phrase in ("decade", "century") and not re.search(
            r"\b(?:past|last|next|coming|one|per|each|every|this|that)\s+$", text[max(0, m.start() - 8):m.start()],
            re.I):
        return None  # "the 19th century" names a century, it is not 100 years
    return value


def _word_value(text: str, m: re.Match, phrase: str) -> float | None:
    """The value of number words ("twenty-five", "a hundred"), or None where they are no number ("one"
    as a pronoun: "the one", "one of")."""
    words = re.split(r"[\s-]+", phrase)
    if words[0] in ("a", "an"):
        # "a hundred" is 100, but "a six" is six
        words = ["one"] + words[1:] if len(words) > 1 and words[1] in _SCALES else words[1:]
        if not words:
            return None
    parsed = parse_number_words(words)
    if parsed is None:
        return None
    if words == ["one"]:
        # "one" is mostly a pronoun ("the one", "one of"); keep it only before a noun or unit
        nxt = text[m.end(): m.end() + 12].lower()
        if not re.match(r"\s(?:[a-z]+s\b|year|day|hour|minute|second|week|month|meter|mile|kilo|dollar|person|"
                        r"adult|child|room|bed|time|unit)", nxt):
            return None
    return parsed[0]


def _word_mention(text: str, m: re.Match) -> Mention | None:
    """The number mention of number words, with the unit after them; None when they are no number."""
    phrase = m.group(0).lower()
    value = _special_word_value(text, m, phrase) if phrase in _SPECIAL else _word_value(text, m, phrase)
    if value is None:
        return None
    unit, dim, surface, stop = _unit_after(text, m.end())
    if phrase in ("a decade", "decade", "a century", "century"):
        unit, dim, stop = "year", "time", m.end()
    return Mention("number", value, text[m.start():stop], m.start(), stop, unit, dim,
                   extra=(("int", float(value).is_integer()), ("words", True)))


#: Chinese units a numeral may stand before (三英里, 两磅, 五分钟), the longer first where one holds another.
_ZH_UNITS = ("小时|钟头|分钟|秒|天|星期|公里|千米|毫米|厘米|海里|英里|英尺|英寸|米|公斤|千克|毫克|克|吨|磅|盎司|加仑|毫升|"
             "华氏度|摄氏度|度|美元|欧元|元|块")


def _zh_value(text: str, m: re.Match) -> float | None:
    """The value of a Chinese numeral match ("三十七", "2点5", "3万"), or None where it is no number
    ("一下", "一些")."""
    core = m.group(2)
    if len(core) == 1 and core in "一二两三四五六七八九十" and not m.group(3) and not re.match(
            r"个|天|年|月|周|次|本|张|条|家|位|人|台|杯|瓶|盒|包|袋|双|套|支|箱|罐|辆|间|篇|项|名|件|份|只|号|日|点|"
            + _ZH_UNITS + r"|$|[^\u3400-\u9fff]", text[m.end():]):
        return None  # "一下", "一些": not numbers
    if re.fullmatch(r"[\d.]+", core):
        value: float | None = float(core)
    elif "点" in core:
        a, _, b = core.partition("点")
        ia = lang.chinese_number(a)
        value = None if ia is None or not b else float(f"{ia}.{''.join(str(lang.chinese_number(c)) for c in b)}")
    else:
        value = lang.chinese_number(core)
    if value is None or core in ("万", "亿", "千", "百"):
        return None
    if m.group(3):
        value *= _MULT[m.group(3)]
    return value


def _zh_mention(text: str, m: re.Match) -> Mention | None:
    """The number mention of a Chinese numeral, with its Chinese unit or a percent (百分之...)."""
    if not lang.is_chinese(m.group(0)) and not m.group(3) and not m.group(1):
        return None
    value = _zh_value(text, m)
    if value is None:
        return None
    unit, dim, surface, stop = _unit_after(text, m.end())
    zh_unit = re.match(r"(个半|个)?(" + _ZH_UNITS + r"|周|个月|月|年|英镑|日元|人|次|本|张|条|家|位)", text[m.end():])
    if zh_unit:
        # 个 is the measure word of a month (两个月, 一个半月), which 月 alone is not (3月: March)
        surface = "个月" if zh_unit.group(1) and zh_unit.group(2) == "月" else zh_unit.group(2)
        unit, dim = gz.UNITS.get(surface, (surface, ""))
        stop = m.end() + zh_unit.end()
        if zh_unit.group(1) == "个半" and dim == "time":
            value += 0.5  # 一个半小时, 两个半月: one and a half hours, two and a half months
    extra = [("int", float(value).is_integer())]
    if m.group(1):
        unit, dim = "%", "percent"
        extra.append(("percent", True))
    value = int(value) if float(value).is_integer() else value
    return Mention("number", value, text[m.start():stop], m.start(), stop, unit, dim, extra=tuple(extra))


def _numbers(text: str, taken: list[tuple[int, int]]) -> list[Mention]:
    """Every number of the text: digits, then number words, then Chinese numerals, each where no
    mention read before took its characters; ``taken`` gets every span read (from where the number
    starts to the end of its unit)."""
    out: list[Mention] = []

    def free(s: int, e: int) -> bool:
        return not any(a < e and s < b for a, b in taken)

    for m in _NUM_RX.finditer(text):
        if not free(m.start("num"), m.end("num")) or _inside_word_or_code(text, m):
            continue
        mention = _digit_mention(text, m)
        out.append(mention)
        taken.append((m.start("num"), mention.end))
    for m in _word_number_matches(text):
        if free(m.start(), m.end()) and (mention := _word_mention(text, m)) is not None:
            out.append(mention)
            taken.append((m.start(), mention.end))
    # on ASCII text every match is plain digits, which _zh_mention turns down (no Chinese, no 百分之, no 万)
    for m in (() if text.isascii() else _ZH_NUM_RX.finditer(text)):
        if free(m.start(), m.end()) and (mention := _zh_mention(text, m)) is not None:
            out.append(mention)
            taken.append((m.start(), mention.end))
    return out


_FREQUENCY = {"annually": 1, "yearly": 1, "semi-annually": 2, "semiannually": 2, "biannually": 2, "quarterly": 4,
              "monthly": 12, "weekly": 52, "daily": 365}


_CURRENCY_NAMES = [k for k in gz.CURRENCIES if k not in ("$", "¥", "元")]
_CURRENCY_RX = re.compile(r"(?<![A-Za-z])" + gz.starts_with_one_of(_CURRENCY_NAMES) + "(" + "|".join(
    sorted((re.escape(k) for k in _CURRENCY_NAMES), key=len, reverse=True)) + r")(?![A-Za-z])", re.I)


#: "2 pounds of butter", "ounces in a pound": pounds that weigh (not sterling).
_WEIGHT_TALK = re.compile(r"\b(?:ounces?|oz|grams?|kilo(?:gram)?s?|kg|lbs?|weigh\w*|heavy|tons?|stones?|"
                          r"cups?|tablespoons?|teaspoons?)\b", re.I)


def weighing_pound(text: str, start: int, end: int) -> bool:
    """Whether the "pound(s)" at ``text[start:end]`` is a weight: "of" something follows, or weights are talked of."""
    if not re.fullmatch(r"pounds?", text[start:end], re.I) or re.search(r"(?:£|british|sterling|gbp)\s*[\d.,]*\s*$",
                                                                       text[max(0, start - 12):start], re.I):
        return False
    return re.match(r"\s+(?:of\s+(?!sterling)|(?:bags?|box(?:es)?|sacks?|packs?|blocks?|loaf|tubs?|cans?|jars?)\b)",
                    text[end:], re.I) is not None or _WEIGHT_TALK.search(text) is not None


def _currencies(text: str) -> list[Mention]:
    """Currencies named in words or codes: "euros", "US dollars", "JPY", "人民币" -> ISO 4217 codes."""
    out = []
    for m in _CURRENCY_RX.finditer(text):
        word = m.group(1)
        if weighing_pound(text, m.start(1), m.end(1)):
            continue
        if word.isupper() or len(word) > 3 or lang.is_chinese(word):
            out.append(Mention("currency", gz.currency_code(word), word, m.start(), m.end()))
    return out


def _frequencies(text: str, taken: list[tuple[int, int]]) -> list[Mention]:
    """"compounded quarterly": 4 times a year (for a slot that counts periods per year)."""
    out = []
    for m in re.finditer(r"\b(" + "|".join(_FREQUENCY) + r")\b", text, re.I):
        if not any(a <= m.start() < b for a, b in taken):
            out.append(Mention("number", _FREQUENCY[m.group(1).lower()], m.group(0), m.start(), m.end(), "per year",
                               "", extra=(("int", True), ("frequency", True))))
    return out


_IMPLICIT_RX = re.compile(r"\b(?:(?:every|each)|(?:the\s+)?(?:next|coming|upcoming|past|last|following))\s+"
                          r"(second|minute|hour|day|week|fortnight|month|quarter|year|decade|century)\b", re.I)
_IMPLICIT_UNITS = {"second": "s", "minute": "min", "hour": "h", "day": "day", "week": "week", "fortnight": "week",
                   "month": "month", "quarter": "month", "year": "year", "decade": "year", "century": "year"}
_IMPLICIT_COUNT = {"fortnight": 2, "quarter": 3, "decade": 10, "century": 100}


_SPOKEN_UNIT = r"(second|minute|hour|day|week|month|year)s?"
_NUMBER_SAID = r"(\d+|" + "|".join(_WORDS) + r")"
#: Spoken amounts of time: "an hour and a half", "two and a half hours", "3 hours and a half", "half an hour",
#: "for a month" (an article for one, after a word that says how long).
_SPOKEN_TIMES = (
    (re.compile(r"\b(?:an?|one)\s+" + _SPOKEN_UNIT + r"\s+and\s+a\s+half\b", re.I), lambda m: 1.5, 1),
    (re.compile(r"\b" + _NUMBER_SAID + r"\s+and\s+a\s+half\s+" + _SPOKEN_UNIT + r"\b", re.I),
     lambda m: _said_number(m.group(1)) + 0.5, 2),
    (re.compile(r"\b" + _NUMBER_SAID + r"\s+" + _SPOKEN_UNIT + r"\s+and\s+a\s+half\b", re.I),
     lambda m: _said_number(m.group(1)) + 0.5, 2),
    (re.compile(r"\bhalf\s+an?\s+" + _SPOKEN_UNIT + r"\b", re.I), lambda m: 0.5, 1),
    (re.compile(r"\b(?P<lead>for|in|of|about|around|within|after|over|lasting|than|takes?|took|spend|spent)\s+"
                r"(?P<q>(?:an?|one)\s+" + _SPOKEN_UNIT + r")\b(?!\s+(?:ago|later|from|before|and\s+a\s+half))", re.I),
     lambda m: 1, 3),
)


#: "dim the lights to half", "at half brightness", "half volume": a level of fifty per cent.
_HALF_LEVEL = re.compile(r"\b(?:(?:to|at)\s+half\b(?!\s+(?:an?|past|of|the)\b)|half\s+(?=(?:brightness|volume|power|speed)\b))", re.I)


def _half_levels(text: str, taken: list[tuple[int, int]]) -> list[Mention]:
    """"Dim the lights to half": 50 %, for a level slot in per cent (50) or in 0..1 (0.5)."""
    out = []
    for m in _HALF_LEVEL.finditer(text):
        if not any(a < m.end() and m.start() < b for a, b in taken):
            out.append(Mention("number", 50, m.group(0), m.start(), m.end(), "%", "percent",
                               extra=(("int", True), ("percent", True), ("words", True))))
    return out


def _rate_before(text: str, at: int) -> bool:
    """Whether a number stands earlier in the clause that ends at ``at`` ("500 lbs of trash | in a year")."""
    clause = re.split(r"[,.;!?]", text[:at])[-1]
    return bool(re.search(r"\d|\b(?:" + "|".join(_WORDS) + r")\b", clause, re.I))


def _said_number(word: str) -> float:
    return float(word) if word.isdigit() else _WORDS[word.lower()]


def _spoken_times(text: str, taken: list[tuple[int, int]]) -> list[Mention]:
    """Amounts of time said in words: "an hour and a half" (1.5 h), "half an hour" (0.5 h), "two and a half days",
    "for a month" (1 month); the unit of each is its unit of time, so a slot in minutes or days converts it."""
    out: list[Mention] = []
    for rx, value_of, unit_group in _SPOKEN_TIMES:
        for m in rx.finditer(text):
            q = "q" if "q" in rx.groupindex else 0  # the amount, without the word before it that says how long
            start, end = m.start(q), m.end(q)
            if any(a < end and start < b for a, b in taken) or any(o.start < end and start < o.end for o in out):
                continue
            if "lead" in rx.groupindex and m.group("lead").lower() in ("in", "of") and _rate_before(text, m.start()):
                continue  # "500 lbs of trash in a year": a quantity per year, no year of its own
            value = value_of(m)
            value = int(value) if float(value).is_integer() else value
            unit = _IMPLICIT_UNITS[m.group(unit_group).lower()]
            out.append(Mention("number", value, m.group(q), start, end, unit, "time",
                               extra=(("int", float(value).is_integer()), ("words", True))))
    return out


def _implicit_ones(text: str, taken: list[tuple[int, int]]) -> list[Mention]:
    """"every hour", "the next week", "past month": one unit of time, said without a number."""
    out = []
    for m in _IMPLICIT_RX.finditer(text):
        if any(a < m.end() and m.start() < b for a, b in taken):
            continue
        if re.search(r"\d\s*$|\b(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|several)\s+$",
                     text[max(0, m.start() - 12):m.start()], re.I):
            continue  # "5 per hour", "two every week": the number is said
        word = m.group(1).lower()
        every = m.group(0).lower().split()[0] in ("every", "each", "per")
        out.append(Mention("number", _IMPLICIT_COUNT.get(word, 1), m.group(0), m.start(), m.end(),
                           _IMPLICIT_UNITS[word], "time",
                           extra=(("int", True), ("implicit", True)) + ((("every", True),) if every else ())))
    return out


_ONE_OF = re.compile(r"\b(?:a|an|one)\s+([a-z]{3,})\b", re.I)


def _counted_ones(text: str, numbers: list[Mention]) -> list[Mention]:
    """"2 adults and a child", "a child and 2 adults": "a" counts one, beside a counted noun.

    Only next to a count of other things (a number whose unit is a noun) and joined to it by
    "and" or a comma; elsewhere "a child" is no number.
    """
    out = []
    counted = [n for n in numbers if n.unit and not n.dim and isinstance(n.value, int)]
    for n in counted:
        after = re.match(r"\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)", text[n.end:])
        m = _ONE_OF.match(text, n.end + after.end()) if after else None
        if m is None:  # "a child and 2 adults"
            m = next((x for x in _ONE_OF.finditer(text, max(0, n.start - 25), n.start)
                      if re.fullmatch(r"\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)", text[x.end():n.start])), None)
        if m and m.group(1).lower() not in lang.STOPWORDS and not any(
                a.start < m.end() and m.start() < a.end for a in numbers + out):
            out.append(Mention("number", 1, m.group(0), m.start(), m.end(), m.group(1).lower(), "",
                               extra=(("int", True), ("words", True))))
    return out


#: factors[larger][smaller]: how many of the smaller unit make one of the larger ("ft" -> "in": 12), for the
#: compound quantities of :func:`_compound_quantities` (``course_lib/data/compound_units.json``).
COMPOUND_FACTORS: dict[str, dict[str, int]] = load_json("compound_units.json")["factors"]
#: What may join the parts of one quantity: a space, "and", or nothing after a Chinese unit ("2小时30分钟").
_COMPOUND_JOIN = re.compile(r"\s*(?:and\s+)?")


_FIGURE_UNIT = r"(\d+(?:\.\d+)?)\s?([A-Za-z]+)"


def _compound_part(text: str, end: int, surface: str, stop: int) -> bool:
    """Whether the short unit ``surface`` after the figure ending at ``end`` is a part of a compound quantity: the
    unit of a figure before it is larger ("5 ft 10 in"), or the unit of a figure after it smaller ("1 h 15 min")."""
    canon = (gz.UNITS.get(surface) or ("", ""))[0]
    before = re.search(_FIGURE_UNIT + r"\s+(?:and\s+)?\d+(?:\.\d+)?$", text[:end])
    if before and canon in COMPOUND_FACTORS.get((gz.UNITS.get(before.group(2)) or ("", ""))[0], {}):
        return True
    after = re.match(r"\s+(?:and\s+)?" + _FIGURE_UNIT, text[stop:])
    return bool(after) and (gz.UNITS.get(after.group(2)) or ("", ""))[0] in COMPOUND_FACTORS.get(canon, {})


def _compound_quantities(text: str, numbers: list[Mention]) -> list[Mention]:
    """"5ft 10in", "1 mile 200 yards", "5 pounds 3 ounces", "2小时30分钟", "1 h 15 min 30 s": one quantity each, in
    its last (smallest) unit (70 in, 1960 yd, 83 oz, 150 min, 4530 s).

    A part joins the figure before it when its unit is smaller by a factor of :data:`COMPOUND_FACTORS`, it is
    less than one of the unit before ("1 h 75 min" stays two), and the figure before it is whole. The quantity's
    detail ``parts`` names the units it was written in (("h", "min")).
    """
    out: list[Mention] = []
    for n in sorted(numbers, key=lambda n: n.start):
        prev = out[-1] if out else None
        factor = COMPOUND_FACTORS.get(prev.unit, {}).get(n.unit) if prev else None
        if factor and 0 <= n.value < factor and float(prev.value).is_integer() and \
                _COMPOUND_JOIN.fullmatch(text, prev.end, n.start):
            value = prev.value * factor + n.value
            whole = float(value).is_integer()
            parts = (prev.get("parts") or (prev.unit,)) + (n.unit,)
            out[-1] = Mention("number", int(value) if whole else value, text[prev.start:n.end], prev.start, n.end,
                              n.unit, n.dim, prev.label, extra=(("int", whole), ("parts", parts)))
        else:
            out.append(n)
    return out


#: Words that say a body starts with no speed: "from rest", "dropped", "released".
AT_REST = re.compile(r"\b(?:from|at)\s+rest\b|\b(?:dropped|released|let go)\b", re.I)


def _at_rest(text: str, taken: list[tuple[int, int]]) -> list[Mention]:
    """"started from rest", "dropped from rest": an initial speed of 0 (a physics idiom)."""
    out = []
    for m in AT_REST.finditer(text):
        if not any(a <= m.start() < b for a, b in taken):
            out.append(Mention("number", 0, m.group(0), m.start(), m.end(), "m/s", "speed", "initial",
                               extra=(("int", True), ("idiom", True))))
    return out


def _unsaid_rest(text: str, idioms: list[Mention], numbers: list[Mention]) -> list[Mention]:
    """The "at rest" idioms of :func:`_at_rest` that no speed said in figures overrides.

    "Dropped with an initial speed of 0 m/s": the figure says the same fact where it belongs (after
    its "the first object ..."), so the idiom adds no value that could stand for it elsewhere; and
    "had a speed of 5 m/s and was dropped from 20 m": the figure of its sentence wins.
    """
    speeds = [n for n in numbers if n.dim == "speed"]
    if any(n.value == 0 for n in speeds):
        return []
    return [m for m in idioms if not any(_same_sentence(text, m.start, n.start) for n in speeds)]


def _same_sentence(text: str, a: int, b: int) -> bool:
    """Whether positions ``a`` and ``b`` of ``text`` lie in one sentence (no ``.?!`` + space between)."""
    lo, hi = sorted((a, b))
    return re.search(r"[.?!。？！]\s", text[lo:hi]) is None


def _label_numbers(text: str, numbers: list[Mention]) -> list[Mention]:
    """Attach the name a number is given: "a = 3", "x=1", "alpha equals to 0.05"."""
    starts = {n.start: i for i, n in enumerate(numbers)}
    out = list(numbers)
    for m in _ASSIGN_RX.finditer(text):
        pos = m.end()
        while pos < len(text) and text[pos] == " ":
            pos += 1
        i = starts.get(pos)
        if i is not None and not out[i].label:
            n = out[i]
            out[i] = Mention(n.kind, n.value, n.text, n.start, n.end, n.unit, n.dim, m.group(1), n.extra)
    return out


# ---------------------------------------------------------------------------- other kinds
_QUOTE_RX = re.compile(r"\"([^\"]+)\"|“([^”]+)”|「([^」]+)」|『([^』]+)』|《([^》]+)》|`([^`]+)`|‘([^’]+)’|"
                       # 'It's fresh': an apostrophe inside; ASCII edges, so 名为'DevelopmentEnv'的 is quoted too
                       r"(?<![A-Za-z0-9_])'((?:[^']|(?<=[A-Za-z0-9])'(?=[A-Za-z0-9]))+?)'(?![A-Za-z0-9_])")


def _quoted(text: str) -> list[Mention]:
    out = []
    for m in _QUOTE_RX.finditer(text):
        inner = next(g for g in m.groups() if g is not None).strip()
        if inner:
            # "'name': 'John Doe'": a quoted key labels the value after it, it is no value itself
            key = re.match(r"\s*:", text[m.end():m.end() + 3]) is not None
            out.append(Mention("quoted", inner, m.group(0), m.start(), m.end(), extra=(("key", True),) if key else ()))
    return out


_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")


_CJK_FIRST = re.compile(r"[\s\W\d]*[\u3400-\u9fff]")


def _chinese_in_english(text: str, quoted: list[Mention]) -> list[Mention]:
    """"create task 写周报 high priority": Chinese words inside an English request stand out as a value, as
    quoted text does, unless they are a place, a currency, a unit or a word of the lexicon (天气, 航班)."""
    runs = [m for m in _CJK_RUN.finditer(text) if not any(q.start <= m.start() < q.end for q in quoted)]
    if not runs or len(re.findall(r"[A-Za-z]{2,}", text)) < 3 or sum(len(m.group(0)) for m in runs) * 2 > len(
            re.sub(r"[^A-Za-z]", "", text)) or _CJK_FIRST.match(text):
        return []  # "在 engineering wiki 里搜索 VPN 设置指南": a Chinese request with English words in it
    out = []
    for m in runs:
        word = m.group(0)
        if len(word) < 2 or gz.PLACE_ZH.fullmatch(word) or word in gz.CURRENCIES or word in gz.UNITS or \
                lang.chinese_concepts(word) or lang.find_cities(word):
            continue
        out.append(Mention("quoted", word, word, m.start(), m.end()))
    return out


def _literal(raw: str) -> Any:
    s = raw.strip()
    try:
        return json.loads(s)
    except ValueError:
        pass
    try:
        return ast.literal_eval(s.replace("(", "[").replace(")", "]") if s[0] == "(" else s)
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return None


def _groups(text: str) -> list[Mention]:
    """Bracketed literals: ``[1, 2]``, ``(3,4)``, ``[[1, 2], [3, 4]]``, ``{'a': 1}``."""
    out: list[Mention] = []
    if "[" not in text and "(" not in text and "{" not in text:
        return out  # a fast path: a group starts at a bracket (same result)
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "[({":
            close = {"[": "]", "(": ")", "{": "}"}[ch]
            depth, j = 0, i
            while j < len(text):
                if text[j] in "[({":
                    depth += 1
                elif text[j] in "])}":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            if j < len(text) and text[j] == close:
                raw = text[i: j + 1]
                value = _literal(raw)
                if isinstance(value, (list, tuple)) and value and all(
                        isinstance(v, (int, float, str, list, tuple)) for v in value):
                    value = [list(v) if isinstance(v, tuple) else v for v in value]
                    if not (len(value) == 1 and isinstance(value[0], str) and ch == "("):
                        out.append(Mention("group", value, raw, i, j + 1))
                        i = j + 1
                        continue
                elif isinstance(value, dict) and value:
                    out.append(Mention("dict", value, raw, i, j + 1))
                    i = j + 1
                    continue
                elif ch == "(" and re.fullmatch(r"\(\s*-?[\d.]+\s*[NS]?\s*,\s*-?[\d.]+\s*[EW]?\s*\)", raw):
                    nums = [n.value for n in _numbers(raw, [])]
                    out.append(Mention("group", nums, raw, i, j + 1))
                    i = j + 1
                    continue
        i += 1
    return out


_EXPR_RX = re.compile(
    r"(?:(?:[a-zA-Z]\s*\(\s*[a-z]\s*\)|y)\s*=\s*)?"
    r"(?P<e>[-+]?\s*(?:\d+(?:\.\d+)?\s*\*?\s*)?(?:(?<![/A-Za-z])[xyztn]\s*(?:\^|\*\*)\s*\d+(?:\.\d+)?|\d+(?:\.\d+)?\s*\*?\s*x|"
    r"(?:sin|cos|tan|exp|log|ln|sqrt)\s*\(\s*[^)]*\))"
    r"(?:\s*[-+*/]\s*(?:\d+(?:\.\d+)?\s*\*?\s*)?(?:[a-z]\s*(?:\^|\*\*)\s*\d+(?:\.\d+)?|"
    r"(?:sin|cos|tan|exp|log|ln|sqrt)\s*\(\s*[^)]*\)|[a-z](?![a-z])|\d+(?:\.\d+)?(?!\d)(?!\.\d)))*)")


#: What every match of :data:`_EXPR_RX` contains besides "^", "**" or "(": a figure times x ("3x", "2.5 * x").
_TIMES_X = re.compile(r"\d\s*\*?\s*x")


def _expressions(text: str) -> list[Mention]:
    out = []
    if "^" not in text and "**" not in text and "(" not in text and not _TIMES_X.search(text):
        return out  # a fast path: no power, function call or multiple of x, so no expression (same result)
    for m in _EXPR_RX.finditer(text):
        e = m.group("e").strip()
        if len(e) < 2 or not re.search(r"[a-z]", e) or re.fullmatch(r"\d+\s*x", e) and "^" not in text[m.start():m.end()]:
            if not re.search(r"[a-z]\s*(?:\^|\*\*)", e) and not re.search(r"\d\s*\*?\s*x\s*[-+]", e):
                continue
        out.append(Mention("expr", e.replace("**", "^"), m.group(0), m.start(), m.end(),
                           extra=(("full", m.group(0).strip()),)))
    return out


#: A digit run's edges: a date or time may touch Chinese characters ("2026-12-01从北京", "19:00在"), which
#: ``\\b`` does not separate from digits (both are word characters), but not other letters or digits.
_D0, _D1 = r"(?<![0-9A-Za-z])", r"(?![0-9A-Za-z])"
_DATE_RXS = [
    (re.compile(_D0 + r"(\d{4})-(\d{1,2})-(\d{1,2})(?:" + _D1 + r"|(?=T\d{1,2}:\d{2}))"), "ymd"),  # also ISO 8601 "...T19:00"
    (re.compile(_D0 + r"(\d{4})/(\d{1,2})/(\d{1,2})" + _D1), "ymd"),
    (re.compile(r"(?<!version )(?<![vV])" + _D0 + r"((?:19|20)\d{2})\s?\.\s?(\d{1,2})\.(\d{1,2})(?!\d|\.\d)"), "ymd"),  # "2023.10.1", "on 2023.4.15."
    (re.compile(_D0 + r"(\d{1,2})([/-])(\d{1,2})\2(\d{4})" + _D1), "slash"),
    (re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]"), "ymd"),
    (re.compile(r"\b(" + _MONTH + r")\.?\s*(\d{1,2})(?:st|nd|rd|th)?(?:,|\s)\s*(\d{4})" + _D1, re.I), "Mdy"),
    (re.compile(_D0 + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(" + _MONTH + r")\.?,?\s*(\d{4})" + _D1, re.I), "dMy"),
    (re.compile(_D0 + r"(\d{4}),?\s+(" + _MONTH + r")\.?\s+(\d{1,2})(?:st|nd|rd|th)?" + _D1, re.I), "yMd"),
    (re.compile(_D0 + r"((?:19|20)\d{2}),?\s+(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\s+of\s+(" + _MONTH + r")\b", re.I), "ydM"),
    (re.compile(r"\b(" + _MONTH + r")\.?\s+(\d{1,2})(?:st|nd|rd|th)?" + _D1 + r"(?!\s*(?:,\s*)?\d{4})", re.I), "Md"),
    (re.compile(_D0 + r"(\d{1,2})(?:st|nd|rd|th)\s+(?:of\s+)?(" + _MONTH + r")\b", re.I), "dM"),
    (re.compile(r"(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]"), "md"),
    # "on 12/24", "due 24/12": a day and a month with no year, read as a date only where a date is
    # said (after "on", "by", "until"... or beside Chinese text), not "1/2 cup" or "3/4 of the class"
    (re.compile(r"(?:\b(?:on|by|until|till|before|after|from|to|due|dated|since|through|thru|starting|between|and|"
                r"date|day|for)\s+(?:the\s+)?|(?:在|于|从|到|至|改到|截止)\s*)(\d{1,2})(/)(\d{1,2})(?![0-9A-Za-z/])"
                r"(?!\s*(?:of|cups?|[a-z]+s)\b)", re.I), "slash"),
    (re.compile(r"(?<![0-9A-Za-z/.])(\d{1,2})(/)(\d{1,2})(?=\s*(?:出发|之前|以前|前|起|当天|那天|晚上|上午|下午))"), "slash"),
]


def _day_and_month(a: int, b: int) -> tuple[int, int, bool]:
    """``(month, day, ambiguous)`` of "a/b": the one over 12 is the day; both 12 or under read month first
    (the US order, the common default), which a description asking for DD/MM turns round."""
    if a > 12 >= b:
        return b, a, False
    return a, b, a <= 12 and b <= 12 and a != b


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_RELATIVE_RX = re.compile(gz.starts_with_one_of(("today", "tonight", "tomorrow", "day", "next", "this", "coming")
                                                + _WEEKDAYS + ("今", "明", "后", "大"))
                          + r"(?:\b(?:(today|tonight|tomorrow night|tomorrow|day after tomorrow)|(?:(next|this|coming)\s+)?("
                          + "|".join(_WEEKDAYS) + r"))\b|(今天|明天|后天|大后天|今日|明日|今晚|明晚))", re.I)
_ZH_DAYS = {"今天": 0, "今日": 0, "今晚": 0, "明天": 1, "明日": 1, "明晚": 1, "后天": 2, "大后天": 3}


def _relative_dates(text: str, taken: list[Mention], today: tuple[int, int, int] | None = None) -> list[Mention]:
    """"tomorrow", "next Friday", 明天, 周五, 下周一: a date counted from today, as a model resolves it (``extra``
    relative; Chinese weekdays by :func:`_zh_weekday`).

    ``today``: the day the user said they are in ("today is 2023.10.1"), else the machine's date.
    """
    import datetime as _dt

    said = today is not None
    try:
        today = _dt.date(*today) if today else _dt.date.today()
    except ValueError:
        today = _dt.date.today()
    out = []
    for m in _RELATIVE_RX.finditer(text):
        if any(d.start <= m.start() < d.end for d in taken):
            continue
        if said and re.match(r"(?:'s date)?\s*(?:is|=|:|是)", text[m.end():]):
            continue  # "today is 2024-02-29" says what today is, it asks for no date
        word, lead, weekday, zh = m.group(1), m.group(2), m.group(3), m.group(4)
        if zh:
            ahead = _ZH_DAYS[zh]
        elif word:
            ahead = {"today": 0, "tonight": 0, "tomorrow": 1, "tomorrow night": 1, "day after tomorrow": 2}[word.lower()]
        else:
            ahead = (_WEEKDAYS.index(weekday.lower()) - today.weekday()) % 7
            if ahead == 0 or (lead or "").lower() == "next" and ahead < 1:
                ahead += 7  # "Friday" said on a Friday: the next one
        day = today + _dt.timedelta(days=ahead)
        out.append(Mention("date", (day.year, day.month, day.day), m.group(0), m.start(), m.end(),
                           extra=(("relative", True),)))
    for m in _ZH_WEEKDAY_RX.finditer(text):
        if not any(d.start <= m.start() < d.end for d in taken + out):
            day = _zh_weekday(today, m.group(1), _CLOCK_WORDS["zh_weekdays"][m.group(2)])
            out.append(Mention("date", (day.year, day.month, day.day), m.group(0), m.start(), m.end(),
                               extra=(("relative", True),)))
    return sorted(out, key=lambda d: d.start)


_CLOCK_WORDS: dict = load_json("clock_words.json")
#: A Chinese weekday: 周五, 星期三, 礼拜天, 下周一, 这个星期五 (not 周末, not 一周: a lead and a day of data/clock_words.json).
_ZH_WEEKDAY_RX = re.compile("(?<![一二两三四五六七八九十几\\d个每上])(" + "|".join(_CLOCK_WORDS["zh_next_week"] + _CLOCK_WORDS["zh_this_week"]) + ")?(?:"
                            + "|".join(_CLOCK_WORDS["zh_weekday_leads"]) + ")([" + "".join(_CLOCK_WORDS["zh_weekdays"])
                            + "])")


def _zh_weekday(today, lead: str | None, weekday: int):
    """The day a Chinese weekday names, counted from ``today`` (a ``datetime.date``): 周五 is the coming Friday
    (a week on when today is Friday, like "Friday" in English), 下周五 next week's Friday (the week starts on
    Monday), 这周五/本周五 this week's Friday, or the coming one when it has passed."""
    import datetime as _dt

    ahead = (weekday - today.weekday()) % 7
    if lead in _CLOCK_WORDS["zh_next_week"]:
        ahead = 7 - today.weekday() + weekday  # Monday of next week, then the day
    elif lead in _CLOCK_WORDS["zh_this_week"]:
        ahead = weekday - today.weekday() if weekday >= today.weekday() else ahead
    elif ahead == 0:
        ahead = 7
    return today + _dt.timedelta(days=ahead)


#: A month's name where a word starts: every written-out date of :data:`_DATE_RXS` has one there.
_ANY_MONTH = re.compile(r"\b" + _MONTH, re.I)


def _date_patterns(text: str) -> list[tuple[re.Pattern[str], str]]:
    """The patterns of :data:`_DATE_RXS` that can match ``text`` (a fast path; the dates found are the same).

    Every pattern needs a digit, and those with a month's name need one at the start of a word:
    two quick searches spare the ten scans of a text that has neither.
    """
    if not _DIGIT.search(text):
        return []
    if _ANY_MONTH.search(text):
        return _DATE_RXS
    return [(rx, order) for rx, order in _DATE_RXS if order not in _MONTH_ORDERS]


_DIGIT = re.compile(r"\d")
_MONTH_ORDERS = frozenset({"Mdy", "dMy", "yMd", "ydM", "Md", "dM"})  # the patterns of _DATE_RXS with a month's name


def _dates(text: str) -> tuple[list[Mention], tuple[int, int] | None]:
    """The dates of ``text`` and the span of the statement of the day the user is in ("today is 2023.10.1"), if any."""
    out: list[Mention] = []
    for rx, order in _date_patterns(text):
        for m in rx.finditer(text):
            if any(d.start <= m.start() < d.end for d in out):
                continue
            g = m.groups()
            try:
                if order == "ymd":
                    y, mo, d = int(g[0]), int(g[1]), int(g[2])
                elif order == "slash":
                    mo, d, ambiguous = _day_and_month(int(g[0]), int(g[2]))
                    y = int(g[3]) if len(g) > 3 else 0
                    if not (1 <= mo <= 12 and 1 <= d <= 31):
                        continue
                    extra = (("slashed", (int(g[0]), int(g[2]))),) if ambiguous else ()
                    out.append(Mention("date", (y, mo, d), text[m.start(1):m.end()], m.start(1), m.end(), extra=extra))
                    continue
                elif order == "Mdy":
                    mo, d, y = MONTHS[g[0].lower()[:4].rstrip(".") if g[0].lower()[:4] == "sept" else g[0].lower()[:3]], int(g[1]), int(g[2])
                elif order == "dMy":
                    d, mo, y = int(g[0]), MONTHS[g[1].lower()[:3]], int(g[2])
                elif order == "yMd":
                    y, mo, d = int(g[0]), MONTHS[g[1].lower()[:3]], int(g[2])
                elif order == "ydM":
                    y, d, mo = int(g[0]), int(g[1]), MONTHS[g[2].lower()[:3]]
                elif order == "Md":
                    mo, d, y = MONTHS[g[0].lower()[:3]], int(g[1]), 0
                elif order == "dM":
                    d, mo, y = int(g[0]), MONTHS[g[1].lower()[:3]], 0
                else:
                    mo, d, y = int(g[0]), int(g[1]), 0
            except (KeyError, ValueError):
                continue
            if not (1 <= mo <= 12 and 1 <= d <= 31):
                continue
            out.append(Mention("date", (y, mo, d), m.group(0), m.start(), m.end()))
    said, out = _day_said(text, out)
    today = said.value if said else None
    years = [d.value[0] for d in sorted(out, key=lambda d: d.start) if d.value[0]]
    stated = _YEAR_STATED.search(text)
    years = years or ([int(next(g for g in stated.groups() if g))] if stated else []) or (
        [today[0]] if today and today[0] else [])
    if today and not today[0]:  # "today is March 15th": in the year the request names, else this year
        today = (years[0] if years else _dt.date.today().year, today[1], today[2])
    out = [_in_year(d, text, years, today) if not d.value[0] else d for d in out]
    span = (said.start, said.end) if said else None
    return out or _relative_dates(text, [said] if said else [], today), span  # "tomorrow, June 1 2023": the date written out wins


def _day_said(text: str, dates: list[Mention]) -> tuple[Mention | None, list[Mention]]:
    """The date that says which day the user is in ("today is 2023.10.1", "Today is Friday 2023-09-29",
    "today is 2023-10-1 monday"), spanning the whole statement with its weekday, and the other dates:
    the day the user is in is no date to act on, and its weekday asks for no date either."""
    for d in dates:
        lead = _TODAY_IS.search(text[:d.start])
        if lead:
            tail = _WEEKDAY_AFTER.match(text, d.end)
            span = Mention(d.kind, d.value, d.text, lead.start(), tail.end() if tail else d.end, extra=d.extra)
            return span, [x for x in dates if x is not d]
    return None, dates


#: A weekday's name right after a date, part of it ("2023-10-1 monday", "March 1st, a Wednesday").
_WEEKDAY_AFTER = re.compile(r"\s*,?\s*(?:an?\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day\b", re.I)
#: "April 13th of next year", "March 3rd next year": the year counted from the year the user is in.
_YEAR_AFTER = re.compile(r"\s*,?\s*(?:of\s+|in\s+)?(next|last|this)\s+year\b", re.I)


def _in_year(d: Mention, text: str, years: list[int], today: tuple[int, int, int] | None) -> Mention:
    """A date written without its year, in the year the request names: "... of next year" counts from the year
    the user is in (``today``, else this year), any other takes the first year said (``years``), else stays 0."""
    rel = _YEAR_AFTER.match(text, d.end)
    if rel:
        base = today[0] if today else _dt.date.today().year
        year = base + {"next": 1, "last": -1, "this": 0}[rel.group(1).lower()]
        return Mention(d.kind, (year, d.value[1], d.value[2]), text[d.start:rel.end()], d.start, rel.end(), extra=d.extra)
    if not years:
        return d
    return Mention(d.kind, (years[0], d.value[1], d.value[2]), d.text, d.start, d.end, extra=d.extra)


#: What introduces the day the user is in ("today is", "today's date is", "the current date:").
_TODAY_IS = re.compile(r"\b(?:today(?:'s date)?|the current date|current date|the date today)\s*(?:is|=|:)\s*"
                       r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s*)?$|"
                       r"(?:今天是|今天|今日是|当前日期是?|现在是)\s*[:：]?\s*$", re.I)
#: The year the user says they are in: "it's 2023 right now", "the current year is 2023", "2023 now".
_YEAR_STATED = re.compile(r"\b(?:it'?s|it is|the year is|this year is|current year is|we are in|now is)\s+((?:19|20)\d{2})\b|"
                          r"\b((?:19|20)\d{2})\s+(?:right\s+)?now\b|(?:现在是|今年是|今年)((?:19|20)\d{2})年", re.I)


_TIME_RX = re.compile(_D0 + r"(\d{1,2})(?:[:.](\d{2}))?\s*(a\.?m\.?|p\.?m\.?)(?![a-z])|(?<![0-9A-Za-z:])(\d{1,2}):(\d{2})"
                      r"(?![0-9A-Za-z:])|\b(noon|midnight)\b", re.I)
#: A Chinese clock time: "晚上7点", "下午三点半", "10点15分", "九点钟"; a part of the day moves the hour past noon.
_ZH_TIME_RX = re.compile(r"(凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里|今晚|明晚)?\s*(\d{1,2}|[一二两三四五六七八九十]{1,3})\s*[点點]"
                         r"(?:\s*(半|一刻|三刻|(\d{1,2}|[一二三四五六七八九十]{1,3})\s*分)|钟)?")
_AFTERNOON = frozenset({"下午", "傍晚", "晚上", "夜里", "今晚", "明晚"})


def _zh_times(text: str) -> list[Mention]:
    out = []
    for m in _ZH_TIME_RX.finditer(text):
        part, hour, half, minutes = m.group(1), m.group(2), m.group(3), m.group(4)
        if not part and not hour.isdigit() and not half and not m.group(0).endswith("钟"):
            continue  # "三点建议" (three points): a spelled-out hour needs a part of the day or minutes
        h = int(hour) if hour.isdigit() else lang.chinese_number(hour)
        mi = 30 if half == "半" else 15 if half == "一刻" else 45 if half == "三刻" else 0
        if minutes:
            mi = int(minutes) if minutes.isdigit() else (lang.chinese_number(minutes) or 0)
        if h is None or h > 24 or mi >= 60:
            continue
        if part in _AFTERNOON and h < 12 or part == "中午" and h < 3:
            h += 12
        # the span starts at the hour: 今晚 before it is also the date
        out.append(Mention("time", (h % 24, mi), text[m.start(2):m.end()], m.start(2), m.end()))
    return out


def _times(text: str) -> list[Mention]:
    out = _zh_times(text) if lang.is_chinese(text) else []
    for m in _TIME_RX.finditer(text):
        if any(t.start <= m.start() < t.end for t in out):
            continue
        if m.group(6):
            h, mi = (12 if m.group(6).lower() == "noon" else 0), 0
        elif m.group(1):
            h, mi = int(m.group(1)) % 12, int(m.group(2) or 0)
            if m.group(3).lower().startswith("p"):
                h += 12
        else:
            h, mi = int(m.group(4)), int(m.group(5))
        if h < 24 and mi < 60:
            out.append(Mention("time", (h, mi), m.group(0), m.start(), m.end()))
    out += [t for t in _spoken_clocks(text) if not any(o.start < t.end and t.start < o.end for o in out)]
    for m in _ISO_TIME_RX.finditer(text):  # "2026-12-02T19:00(:00)": the clock time of an ISO 8601 date-time
        h, mi = int(m.group(1)), int(m.group(2))
        if h < 24 and mi < 60:
            extra = (("seconds", m.group(3)),) if m.group(3) else ()
            extra += (("offset", m.group(4)),) if m.group(4) else ()  # "Z", "+08:00": the zone it was written in
            out = [t for t in out if not m.start() < t.start < m.end()]  # "+08:00" is its offset, no clock time
            out.append(Mention("time", (h, mi), m.group(0), m.start(), m.end(), extra=extra))
    return sorted(out, key=lambda t: t.start)


def _alternation(words) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))


_CW = load_json("clock_words.json")
_HOUR_SAID = r"(" + _alternation(_CW["hours"]) + r"|1[0-2]|0?[1-9])"
_DAY_PART = r"(?:\s*(?P<part>" + _alternation(_CW["evening"] + _CW["morning"]) + r"))?(?![A-Za-z])"
#: "half past seven", "a quarter to nine", "ten past six", "20 minutes to five", "seven o'clock", "at seven thirty".
_SPOKEN_CLOCK_RX = re.compile(
    r"(?<![\w:])(?:(?P<past>" + _alternation(_CW["minutes_past"]) + r"|\d{1,2})(?:\s+minutes?)?\s+(?:"
    + _alternation(_CW["after"]) + r")\s+" + _HOUR_SAID.replace("(", "(?P<h1>", 1)
    + r"|(?P<before>(?:a\s+)?quarter|(?:\d{1,2}|" + _alternation(_CW["minutes_past"]) + r")\s+minutes?)\s+(?:"
    + _alternation(_CW["before"]) + r")\s+" + _HOUR_SAID.replace("(", "(?P<h2>", 1)
    + r"|" + _HOUR_SAID.replace("(", "(?P<h3>", 1) + r"\s+o['’]?\s?clock"
    + r"|(?<=\b(?:at|by)\s)" + _HOUR_SAID.replace("(", "(?P<h4>", 1) + r"[\s-]+(?P<mins>"
    + _alternation(_CW["minutes_after_hour"]) + r"))\b" + _DAY_PART, re.I)


def _spoken_clocks(text: str) -> list[Mention]:
    """Times of day said in words (data/clock_words.json): "half past seven" (7, 30), "a quarter to nine" (8, 45),
    "ten past six", "seven o'clock", "at seven thirty"; "in the evening", "pm", "tonight" after it move the hour
    past noon. Without a part of the day the hour stays as said (a clock face's: "half past seven" is 07:30)."""
    out = []
    for m in _SPOKEN_CLOCK_RX.finditer(text):
        hour_word = next(m.group(g) for g in ("h1", "h2", "h3", "h4") if m.group(g))
        h = int(hour_word) if hour_word.isdigit() else _CW["hours"][re.sub(r"\s+", " ", hour_word.lower())]
        mi = 0
        if m.group("past"):
            mi = _clock_minutes(m.group("past"))
        elif m.group("before"):
            mi = 60 - _clock_minutes(re.sub(r"^a\s+|\s+minutes?$", "", m.group("before"), flags=re.I))
            h = (h - 1) or 12
        elif m.group("mins"):
            mi = _CW["minutes_after_hour"][re.sub(r"[\s-]+", " ", m.group("mins").lower()).replace("forty five",
                                                                                                "forty-five")]
        part = re.sub(r"\s+", " ", (m.group("part") or "").lower())
        if part in _CW["evening"] and h < 12:
            h += 12
        elif part in _CW["morning"] and h == 12:
            h = 0
        if 0 < mi < 60 or m.group("h3"):
            end = m.end() if not re.match(r"(?:tonight|this|tomorrow)\b", part) else m.start("part")
            end = len(text[:end].rstrip())  # "... tomorrow morning": the date is a mention of its own
            out.append(Mention("time", (h % 24, mi), text[m.start():end], m.start(), end, extra=(("words", True),)))
    return out


def _clock_minutes(said: str) -> int:
    """The minutes of "half" (30), "quarter" (15), "ten" (10), "25"; 0 when it is none of them."""
    said = re.sub(r"\s+", " ", said.lower())
    if said.isdigit():
        return int(said)
    return _CW["minutes_past"].get(said, _CW["minutes_past"].get("a " + said, 0))


_ISO_TIME_RX = re.compile(r"(?<=\d[T])(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?(?![0-9A-Za-z:])")


_CODE_RX = re.compile(r"(?<![\w@./-])(?:[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}(?![\w-])|"
                      r"(?=[0-9a-fA-F]{7,}(?![\w-]))\d+[a-fA-F]+\d[0-9a-fA-F]*|(?=[A-Za-z0-9]{6,}(?![\w-]))\d+(?![x×]\d+(?:\.\d+)?[a-z]*(?![\w-]))[A-Za-z]+\d[A-Za-z0-9]*|\d+(?:\.\d+)?\s?[x×]\s?\d+(?:\.\d+)?(?![\w^])|(?:19|20)\d\d[-–/](?:19|20)?\d\d(?![\d/-])|[A-Za-z]:[\\/][\w./\\-]+|[\w.+-]+@[\w-]+\.[\w.]+|https?://\S+|"
                      r"(?:[\w-]+/)+[\w.-]+\.\w{1,5}|(?<![\w.])[A-Za-z_.][\w.-]+/(?:[\w.-]+/)*(?=[\s,;:!?)]|\.?$|\.\s)|[\w-]+\.(?:csv|json|txt|xlsx?|pdf|png|jpg|py|md|html|xml|yaml|yml|sql|db)\b|"
                      r"(?:www\.)?[A-Za-z][\w-]+\.(?:com|org|net|io|gov|edu|co\.uk|ai|dev|info)\b|~(?:/[\w.-]+)+/?|(?:/[\w.-]*[A-Za-z][\w.-]*)+/?|"
                      r"\d+/[A-Za-z]+\d+|\d+(?:\.\d+){2,}(?!\.?\d)|\d+(?:-\d+)+(?![.\d])|[A-Za-z]+[-_]?\d[\w-]*|\d+[-_][A-Za-z][\w-]*|[A-Za-z]+_[\w]+)(?![\w@/])")


#: (A UUID and a hexadecimal id that starts with a digit, "3f2b8c1e", are read whole, first: their digits are
#: no numbers, "9e7" in one no exponent.)
#: Chinese characters and punctuation, which ``\\w`` would join to a code (用户u-77的资料): blanked for codes.
_CJK_CHAR = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")


def _codes(text: str) -> list[Mention]:
    out = []
    latin = _CJK_CHAR.sub(" ", text) if not text.isascii() else text  # same positions, codes end at Chinese
    for m in _CODE_RX.finditer(latin):
        raw = m.group(0).rstrip(".")
        if raw.startswith(("http://", "https://")):  # "...on https://example.com?": the question mark ends the sentence
            raw = raw.rstrip(".,;:!?)]}'\"")
        if re.fullmatch(r"[A-Za-z]+\d?", raw) and "_" not in raw:
            continue
        if re.fullmatch(r"\d+[a-zA-Z]{1,2}", raw) or re.fullmatch(r"(?:mp3|mp4|h264|3d|2d|4k|x\d)", raw.lower()):
            continue
        if re.fullmatch(r"\d+(?:\.\d+)?-[A-Za-z]+", raw) and raw.split("-")[1].lower() in gz.UNITS:
            continue  # "7-day", "3-km": a number and its unit
        if re.fullmatch(r"[\d-]+", raw) and not _YEARS.fullmatch(raw) and not _digit_code(raw.split("-")):
            continue  # "10-15": a range of two numbers ("098-293", "555-01-77" are codes)
        out.append(Mention("code", raw, raw, m.start(), m.start() + len(raw)))
    return out


_YEARS = re.compile(r"(?:19|20)\d\d-(?:19|20)?\d\d")  # "1990-2000", "2019-20": a span of years, one code


def _digit_code(groups: list[str]) -> bool:
    """Whether digits joined by dashes are one code: three groups or more, or a group with a leading zero."""
    return len(groups) >= 3 or any(len(g) > 1 and g.startswith("0") for g in groups)


_CAP_WORD = re.compile(r"[A-Z][\w'’&.-]*|[A-Z]{2,}|\d+[A-Za-z]*")


def _names(text: str, taken: list[tuple[int, int]]) -> list[Mention]:
    """Runs of capitalised words: ``"LeBron James"``, ``"Battle of Stalingrad"``, ``"Maroon 5"``."""
    out = []
    tokens = [(m.group(0), m.start(), m.end()) for m in re.finditer(r"[\w'’&.-]+|[^\w\s]", text)]
    i = 0
    sentence_start = True
    while i < len(tokens):
        word, s, e = tokens[i]
        if word in ".?!;:":
            sentence_start = True
            i += 1
            continue
        cap = word[:1].isupper() and not word.isdigit()
        if not cap or word.lower().strip(".") in _NOT_NAMES and (sentence_start or word.lower() in ("i", "i'm")):
            # "...the pricing. Can you": a word that ends its sentence starts the next one
            sentence_start = sentence_start and not word[:1].isalnum() or _ends_sentence(word)
            i += 1
            continue
        j = i
        end_tok = i
        initial_ends = False
        while j + 1 < len(tokens):
            nxt = tokens[j + 1][0]
            if tokens[j][0].endswith(".") and len(tokens[j][0]) > 2 and tokens[j][0].lower() not in _HONORIFICS:
                break  # "Liverpool F.C. Include its...": the abbreviation ends the name ("Mr. X" goes on)
            if tokens[j][0].endswith(".") and nxt.lower() in _NOT_NAMES:
                initial_ends = True  # "substance A. The experiment...": an initial before a sentence's first word
                break
            if nxt[:1].isupper() or (nxt.isdigit() and len(nxt) <= 4 and tokens[j + 1][1] == tokens[j][2] + 1):
                j += 1
                end_tok = j
            elif nxt.lower() in _CONNECT and j + 2 < len(tokens) and tokens[j + 2][0][:1].isupper():
                j += 2
                end_tok = j
            else:
                break
        start, end = tokens[i][1], tokens[end_tok][2]
        phrase = text[start:end].rstrip(".,") if not text[start:end].endswith(("Inc.", "Ltd.", "Co.", "D.C.", "Jr.", "Sr.")) \
            else text[start:end]
        words = phrase.split()
        while words and words[0].lower().strip(".") in _NOT_NAMES and sentence_start:
            words = words[1:]
        title = next((k for k, w in enumerate(words) if w.lower() in _HONORIFICS), 0)
        words = words[title:]  # "Records of Dr. Watson": the name starts at the title
        possessive = bool(words) and re.search(r"['’]s$", words[-1]) is not None and \
            words[-1][:-2].lower() not in _NOT_NAMES | _NOT_POSSESSORS
        if words and re.search(r"['’]s$", words[-1]) and not _POSSESSIVE_IS_NAME.match(text, end):
            words[-1] = words[-1][:-2]  # "Ronaldo's matches": the name is Ronaldo ("at Luigi's." is the name)
        if words and len(words) == 1 and sentence_start and not words[0].isupper() and not possessive:
            words = []  # "Remind me...": a capitalised first word is rarely a name on its own ("Luigi's, 3 people" is)
        if len(words) == 1 and words[0].lower().rstrip(".:#") in _LABELS:
            words = []  # "the event with ID efJG9": the label of the value after it, not a name
        if words:
            phrase = " ".join(words)
            start = text.index(phrase, start)
            end = start + len(phrase)
            if not any(a < end and start < b for a, b in taken):
                out.append(Mention("name", phrase, phrase, start, end))
        sentence_start = _ends_sentence(tokens[end_tok][0]) or initial_ends  # "in Hilton New York. Can you..."
        i = end_tok + 1
    return out


#: A figure glued to a letter that makes a format's name: "3D", "2D", "4DX" films, "5G", "4G" networks.
_FORMAT_AFTER = re.compile(r"(?:DX|D|G)(?![A-Za-z0-9])")


def _no_format_names(text: str, numbers: list[Mention]) -> list[Mention]:
    """Drop the figures of format names ("a 3D movie" is no 3 of anything; the name stays for an enum)."""
    return [m for m in numbers if not (m.kind == "number" and m.end < len(text) and text[m.end - 1].isdigit()
                                       and _FORMAT_AFTER.match(text, m.end))]


#: A temperature scale written before its number in Chinese: 华氏100度 is 100 °F, 摄氏30度 is 30 °C.
_ZH_SCALE_BEFORE = {"华氏": "°F", "摄氏": "°C"}


def _scale_before(text: str, numbers: list[Mention]) -> list[Mention]:
    """"华氏100度": the scale before the number decides its unit ("度" alone reads as °C), and its words join it."""
    out = []
    for m in numbers:
        scale = _ZH_SCALE_BEFORE.get(text[max(0, m.start - 2):m.start])
        if scale and m.kind == "number" and m.dim == "temperature" and m.text.endswith("度"):
            m = Mention(m.kind, m.value, text[m.start - 2:m.end], m.start - 2, m.end, scale, m.dim, m.label, m.extra)
        out.append(m)
    return out


def _names_end(text: str, n: Mention) -> bool:
    """Whether the bare number ``n`` ends a name ("Maroon 5, with...", "Taylor Swift and Blink 182").

    A short whole number with no unit right after a capitalised word inside a sentence, then a
    comma, "and"/"or" or the end: it numbers the name, it is no value of its own.
    """
    if n.unit or n.dim or n.get("words") or not isinstance(n.value, int) or not 0 <= n.value < 1000:
        return False
    lead = text[:n.start]  # up to the digits
    return re.search(r"\w[ ,]+[A-Z][a-z]+ $", lead) is not None and re.match(r"\s*(?:[,;)]|\.(?:\s|$)|$|(?:and|or)\b)", text[n.end:]) is not None


def _unit_after_number(text: str, n: Mention, numbers: list[Mention]) -> bool:
    """Whether the name ``n`` is a unit that ends a quantity ("25 degrees *Celsius*", "300 *Kelvin*")."""
    return n.text.lower() in gz.UNITS and any(m.end <= n.start and not text[m.end:n.start].strip()
                                               for m in numbers)


def _company_suffix(text: str, n: Mention) -> bool:
    """Whether the name ``n`` is only the legal suffix of the name before it ("Amazon.com, *Inc.*").

    It belongs to that name; read alone it would look like a second company in a list.
    """
    return re.fullmatch(r"(?:Inc|Ltd|LLC|Corp|Co|PLC|GmbH|AG|SA)\.?", n.text) is not None and \
        re.search(r"\S,\s*$", text[:n.start]) is not None


#: What may follow a possessive that is itself the name ("a table at Luigi's for 4", "lunch at Denny's."):
#: the end, a stop, or a word that starts another detail; anything else is what the name owns.
#: Words whose "'s" is "is" or "us" ("It's", "Here's", "Let's"), not a possessive: no name starts with them.
_NOT_POSSESSORS = frozenset("it he she that there here who let what where how everyone everything nobody one".split())
_POSSESSIVE_IS_NAME = re.compile(r"\s*(?:$|[.,!?;:)。，！？]|(?:for|on|at|in|tonight|tomorrow|today|this|next|with|"
                                 r"please|by|from|around|near|instead)\b)", re.I)


def _ends_sentence(word: str) -> bool:
    return word.endswith(".") and len(word) > 2 and word.lower() not in _HONORIFICS and not re.fullmatch(
        r"(?:[A-Za-z]\.)+|(?:Inc|Ltd|Co|Jr|Sr|St|Mt|vs|etc)\.", word)


#: A world city in lower case where a place is said: after "in", "to", "from"... or opening the request.
_CITY_LOWER = re.compile(r"(?:^|\b(?:in|to|from|at|near|for|of|between|and|vs)\s+)("
                         + "|".join(sorted((re.escape(c.lower()) for c in gz.CITIES), key=len, reverse=True))
                         + r")(?![A-Za-z])")


def _places(text: str) -> list[Mention]:
    out: list[Mention] = []
    for m in gz.PLACE_EN.finditer(text):
        geo = re.match(r"\s+(" + "|".join(g for g in _GEO_NOUNS if g not in ("state", "city")) + r")\b", text[m.end():], re.I)
        if geo:
            full = text[m.start(): m.end() + geo.end()]
            out.append(Mention("place", full, full, m.start(), m.end() + geo.end(), extra=(("kind", "area"),)))
            continue
        out.append(Mention("place", m.group(1), m.group(1), m.start(), m.end(),
                           extra=(("kind", gz.place_kind(m.group(1)) or "city"),)))
    if not text.isupper():
        for m in _CITY_LOWER.finditer(text):  # "weather in beijing": a world city typed in lower case
            name = lang.find_cities(m.group(1))[0][0] if lang.find_cities(m.group(1)) else None
            if name and m.group(1) != name and not any(p.start <= m.start(1) < p.end for p in out):
                out.append(Mention("place", name, m.group(1), m.start(1), m.end(1), extra=(("kind", "city"),)))
    for m in gz.PLACE_ZH.finditer(text):
        if not lang.zh_word_at(text, m.start(), m.end()):
            continue  # 晚上海底捞: 上海 is split between 晚上 and 海底, no place
        out.append(Mention("place", m.group(0), m.group(0), m.start(), m.end(),
                           extra=(("kind", gz.place_kind(m.group(0)) or "city"),)))
    return out


_STATE_TAIL = re.compile(r",\s*([A-Z]{2,3})(?![A-Za-z])|,\s*([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)")


def _with_states(text: str, places: list[Mention]) -> list[Mention]:
    """A city followed by its state or country is one place: "Chicago, Illinois", "Fremont, CA", "Letterkenny,Ireland".

    Applies to known cities and to names read as places ("in Lagunitas, CA"); the state or country must be one
    the gazetteer knows, so "in Paris, Berlin" stays two places. The merged place keeps the city as its value and
    the whole as ``as_written`` (a description asking for "City, State" gets it).
    """
    merged: list[Mention] = []
    i = 0
    places = sorted(places, key=lambda p: p.start)
    while i < len(places):
        p = places[i]
        tail = _STATE_TAIL.match(text, p.end) if p.get("kind") in ("city", "guess") and not p.get("state") else None
        state = None
        if tail:
            code, word = tail.group(1), tail.group(2)
            if code and (code in gz.US_STATES or code in gz.COUNTRIES):
                state = code
            elif word and (gz.state_code(word) or word in gz.COUNTRIES):
                state = word
        if state:
            end = tail.end()
            merged.append(Mention("place", p.value, text[p.start:end], p.start, end,
                                  extra=(("kind", "city"), ("state", state), ("as_written", text[p.start:end]))))
            i += 1
            while i < len(places) and places[i].start < end:
                i += 1
            continue
        merged.append(p)
        i += 1
    return merged


def _geo_names(text: str, names: list[Mention], places: list[Mention]) -> list[Mention]:
    """Names that read as places: after "in"/"near"/"from", or followed by "river", "county"..."""
    out = []
    for n in names:
        if any(p.start <= n.start < p.end or n.start <= p.start < n.end for p in places):
            continue
        before = text[max(0, n.start - 12): n.start]
        geo = re.match(r"\s+(" + "|".join(_GEO_NOUNS) + r")\b", text[n.end:], re.I)
        if geo:
            full = text[n.start: n.end + geo.end()]
            out.append(Mention("place", full, full, n.start, n.end + geo.end(), extra=(("kind", "area"),)))
        elif _PLACE_PREP.search(before) and not re.match(r"\s*(?:Inc|Ltd|Corp|LLC)\b", text[n.end:]):
            out.append(Mention("place", n.value, n.text, n.start, n.end, extra=(("kind", "guess"),)))
    return out


_STATE_OR_COUNTRY = frozenset(w.lower() for w in list(gz.COUNTRIES) + list(gz.US_STATES.values()))


def _extends_place(text: str, place: Mention, name: Mention) -> bool:
    """True when ``name`` is ``place`` plus words that make another name ("Chicago *Bulls*")."""
    if name.end - name.start <= place.end - place.start or place.get("state"):
        return False
    rest = (text[name.start:place.start] + " " + text[place.end:name.end]).strip(" ,")
    if not rest or rest.lower() in _STATE_OR_COUNTRY or "," in text[place.end:name.end]:
        return False
    words = rest.split()
    # "Treaty of Lisbon", "Bank of America": capitalised words joined to the place by "of" make one name
    joined = [w for w in words if w.lower() not in ("of", "the", "de")]
    if len(joined) < len(words) and len(joined) < 2 and not text[:name.start].strip(" \"'“‘([")[-1:].isalnum():
        return False  # "Weather of Paris today": a capitalised first word of the sentence makes no name
    return bool(joined) and all(w[:1].isupper() or w[:1].isdigit() or w.lower() in ("of", "the", "de") for w in words) \
        and not any(w.lower() in _GEO_NOUNS or w.lower() in MONTHS for w in words)


_UNIT_ASKED = re.compile(r"\b(?:in|into|to|as|using|per|how many|how much)\s+(?:the\s+)?([A-Za-z°%/^²³]+(?:/[A-Za-z]+)?)",
                         re.I)


def _units_alone(text: str, taken: list[tuple[int, int]]) -> list[Mention]:
    """Units named without a number: "in miles", "to km/h", "in Celsius", "grams/mole", 换算成公里."""
    out = []
    for m in _UNIT_ASKED.finditer(text):
        s = m.start(1)
        if any(a <= s < b for a, b in taken):
            continue
        word = m.group(1)
        hit = gz.UNITS.get(word) or gz.UNITS.get(word.lower())
        if hit is None and "/" in word:
            hit = (word, "rate")
        if hit is None:
            continue
        out.append(Mention("unit", word, word, s, s + len(word), unit=hit[0], dim=hit[1]))
    for word, (unit, dim), s in gz.chinese_units(text):  # 换算成公里, 多少华氏度: the Chinese name, as written
        if not any(a <= s < b for a, b in taken):
            out.append(Mention("unit", word, word, s, s + len(word), unit=unit, dim=dim))
    return out


def _ranges(text: str, numbers: list[Mention]) -> list[Mention]:
    """"from 1 to 3", "between 2 and 5", "1-5", "x=1 to x=3": a ``(low, high)`` pair."""
    out = []
    by_start = sorted(numbers, key=lambda n: n.start)
    for a, b in zip(by_start, by_start[1:]):
        gap = text[a.end: b.start]
        before = text[max(0, a.start - 14): a.start].lower()
        if re.fullmatch(r"\s*(?:to|and|through|until|till|-|–|~|至|到)\s*(?:[a-z]\s*=\s*)?", gap, re.I) and (
                re.search(r"(?:from|between|range|within|interval|limits?)\s*(?:of\s*)?(?:[a-z]\s*=\s*)?\$?$", before)
                or gap.strip() in ("-", "–", "~", "至", "到")):
            if gap.strip() in ("-", "–") and (a.unit and a.unit != b.unit or re.search(r"\d-\d", text[a.start:b.end]) and
                                              len(str(a.value)) == 4):
                continue
            out.append(Mention("range", (a.value, b.value), text[a.start:b.end], a.start, b.end,
                               unit=b.unit or a.unit, dim=b.dim or a.dim))
    return out


_GAP_LEAD = re.compile(r"^\s*(?:,|;)?\s*(?:(?:and|or|then|and then|and finally|finally)\s+)?", re.I)


def _repeats_lead(text: str, first: Mention, gap: str) -> bool:
    """"the factorial of 5, the factorial of 7": the gap repeats the words that led to the first member."""
    core = _GAP_LEAD.sub("", gap).strip()
    if not core or len(core.split()) > 5:
        return False
    lead = text[max(0, first.start - len(core) - 2): first.start].strip()
    return lead.lower().endswith(core.lower()) and len(core) >= 3


#: What may stand between two members of a coordination ("5, 10 and 15", "in Paris and in Rome", 北京和上海).
_JOINING_GAP = re.compile(r"\s*(?:(?:,|，|、|;)\s*(?:(?:and|or|&)\s+)?|(?:and|or|&)\s+|(?:和|跟|同|及|与|以及|或|还有))"
                          r"\s*(?:also\s+)?(?:the\s+)?(?:for\s+|in\s+|of\s+|at\s+)?", re.I)
#: Between two places compared ("colder in Oslo than in Madrid", 北京比上海).
_COMPARING_GAP = re.compile(r"\s*(?:(?:is\s+)?(?:\w+er|more\s+\w+|less\s+\w+)\s+)?than\s+(?:in\s+|at\s+)?|\s*比\s*", re.I)


def _coordinations(text: str, mentions: list[Mention]) -> list[list[int]]:
    """Mentions of one kind joined only by commas, "and", "or", "和", "、": ``5, 10 and 15``."""
    # nested mentions (the numbers inside a range) do not coordinate
    order = [i for i in sorted(range(len(mentions)), key=lambda i: mentions[i].start)
             if not any(j != i and mentions[j].start <= mentions[i].start and mentions[i].end <= mentions[j].end
                        and (mentions[j].end - mentions[j].start) > (mentions[i].end - mentions[i].start)
                        for j in range(len(mentions)))]
    groups: list[list[int]] = []
    current: list[int] = []
    for i in order:
        m = mentions[i]
        if current:
            prev = mentions[current[-1]]
            gap = text[prev.end: m.start]
            same = prev.kind == m.kind or {prev.kind, m.kind} <= {"name", "place", "quoted", "code"}
            if prev.kind == "number" == m.kind and prev.unit != m.unit and prev.unit and not (
                    len(current) >= 2 and prev.dim and prev.dim == m.dim):
                # "5 kg and 3 m" are two quantities, "2 hours and 30 minutes" one; "10, 20 and 30 years" share
                # a unit, and a list of three durations may end in another unit ("1, 2, 3 weeks and 1 month")
                same = False
            if same and (_JOINING_GAP.fullmatch(gap)
                         or _repeats_lead(text, mentions[current[0]], gap)
                         # "colder in Oslo than in Madrid": two places compared are two of a kind
                         or {prev.kind, m.kind} <= {"place", "name"} and _COMPARING_GAP.fullmatch(gap)):
                current.append(i)
                continue
            if len(current) > 1:
                groups.append(current)
        current = [i]
    if len(current) > 1:
        groups.append(current)
    return groups


# ---------------------------------------------------------------------------- the reading
@lru_cache(maxsize=1024)
def read(text: str, compounds: bool = True) -> Reading:
    """Read ``text`` once: every mention, in order, and the coordinations between them; with ``compounds`` false
    a compound quantity stays its parts ("1 hour 15 minutes": 1 h and 15 min, for a tool with both slots).

    Example:
        >>> [m.value for m in read("radius of 4 inches and height 2.5 m").of_kind("number")]
        [4, 2.5]
    """
    taken: list[tuple[int, int]] = []
    quoted = [q for q in _quoted(text) if (q.end - q.start) < 0.8 * len(text.strip())]  # a request in quotes
    if text.isascii() is False:
        quoted += _chinese_in_english(text, quoted)
    taken += [(q.start, q.end) for q in quoted]
    codes = [c for c in _codes(text) if not any(q.start <= c.start < q.end for q in quoted)]
    groups = [g for g in _groups(text) if not any(q.start <= g.start < q.end for q in quoted)]
    quoted = [q for q in quoted if not any(g.start <= q.start < g.end for g in groups)]
    taken += [(g.start, g.end) for g in groups]
    dates, said = _dates(text)
    dates = [d for d in dates if not any(a <= d.start < b for a, b in taken)]
    taken += [(d.start, d.end) for d in dates] + ([said] if said else [])  # "today is March 15th" is no number
    times = [t for t in _times(text) if not any(a <= t.start < b for a, b in taken)]
    taken += [(t.start, t.end) for t in times]
    exprs = [x for x in _expressions(text) if not any(a <= x.start < b for a, b in taken)]
    taken += [(x.start, x.end) for x in exprs]
    spoken = _spoken_times(text, taken) if not text.isascii() or " a" in text or "alf" in text else []
    spoken += _half_levels(text, taken) if "alf" in text else []
    taken += [(x.start, x.end) for x in spoken]
    codes = [c for c in codes if not any(a <= c.start < b for a, b in taken)]
    numbers = _no_format_names(text, _scale_before(text, _label_numbers(text, _numbers(text, list(taken) + [(c.start, c.end) for c in codes]))))
    for g in groups:  # "(45, 60)": a pair for a list parameter, or two numbers for two parameters
        if g.kind == "group" and 1 < len(g.value) <= 4 and all(isinstance(v, (int, float)) for v in g.value):
            inner = _numbers(g.text, [])
            if len(inner) == len(g.value):
                numbers += [Mention("number", v.value, v.text, g.start + v.start, g.start + v.end, v.unit, v.dim,
                                    extra=v.extra + (("grouped", g.start),)) for v in inner]
    numbers = _compound_quantities(text, numbers + spoken) if compounds else numbers + spoken
    numbers += _unsaid_rest(text, _at_rest(text, taken), numbers) + _frequencies(text, taken)
    numbers += _implicit_ones(text, taken + [(n.start, n.end) for n in numbers])
    numbers += _counted_ones(text, numbers)
    taken += [(c.start, c.end) for c in codes]
    ranges = _ranges(text, numbers)
    places = [p for p in _places(text) if not any(a <= p.start < b for a, b in taken)]
    numbered = [n for n in numbers if _names_end(text, n)]
    taken_names = taken + [(n.start, n.end) for n in numbers if not n.get("words") and n not in numbered]
    names = _names(text, taken_names)
    numbers = [n for n in numbers if n not in numbered or not any(m.start < n.end and n.start < m.end for m in names)]
    places = _with_states(text, places + _geo_names(text, names, places))
    # "Manchester United", "Chicago Bulls": a place followed by more capitalised words is a name
    longer = [n for n in names if any(n.start <= p.start and p.end <= n.end and _extends_place(text, p, n)
                                      for p in places)]
    places = [p for p in places if not any(n.start <= p.start and p.end <= n.end for n in longer)]
    names = [n for n in names if n in longer or
             not any(p.start <= n.start < p.end or n.start <= p.start < n.end for p in places)]
    units = _units_alone(text, taken + [(n.start, n.end) for n in numbers])
    currencies = [c for c in _currencies(text) if not any(q.start <= c.start < q.end for q in quoted)]
    names = [n for n in names if not any(c.start <= n.start < c.end for c in currencies)]
    names = [n for n in names if not _company_suffix(text, n) and not _unit_after_number(text, n, numbers)]
    places = [p for p in places if not any(c.start <= p.start < c.end for c in currencies)]
    mentions = sorted(quoted + codes + groups + dates + times + exprs + numbers + ranges + places + names + units
                      + currencies,
                      key=lambda m: (m.start, -m.end))
    words = [(w.group(0).lower(), w.start(), w.end()) for w in re.finditer(r"[A-Za-z][A-Za-z0-9'_-]*", text)]
    return Reading(text, mentions, _coordinations(text, [m for m in mentions]), words)


#: How much of a user message the engine reads, in characters: the first READ_LIMIT (cut at the last
#: sentence end or space before it). A longer message is accepted whole; what follows is not read, so the
#: time to decide stays bounded (benchmarks/request_size.py measures it from 1 KB to 1 MB). Requests that
#: ask for tool calls are far shorter: BFCL's longest synthetic request is 740 characters.
READ_LIMIT = 2048


def read_limited(text: str, limit: int | None = None) -> str:
    """The part of ``text`` the engine reads: all of it up to ``limit`` characters (default
    :data:`READ_LIMIT`), else its first ``limit`` characters cut back to the last sentence end (or space)
    in their second half."""
    limit = READ_LIMIT if limit is None else limit
    if len(text) <= limit:
        return text
    head = text[:limit]
    cut = max(head.rfind(". "), head.rfind("? "), head.rfind("! "), head.rfind("\n"), head.rfind("。"))
    if cut < limit // 2:
        cut = head.rfind(" ")
    return head[: cut + 1].rstrip() if cut >= limit // 2 else head
