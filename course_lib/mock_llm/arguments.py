"""Filling a tool's arguments from the user's words, guided by its JSON Schema.

For each property the schema tells the mock what to look for: an ``enum`` is matched by
value or synonym, ``integer``/``number`` by the number written nearest to the property's
name, ``boolean`` by phrasing, ``array`` by a list ("a, b and c"), nested ``object`` by
recursion, and ``string`` by what its name and description say it holds (a place, a
date, a quoted title, a search query...). Optional properties with nothing in the text
are left out, so the tool's defaults apply, as a real model does; a required but nullable
property (how strict mode spells "optional") gets ``null``.

Every filled value records the words it came from (:class:`Evidence`), which is what
``MockLLM.explain`` shows. Deliberate shortcut: rules, not learning; each rule is short
and named after the kind of phrase it reads.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import language as lang

LOCATION_HINTS = ("city", "location", "place", "town", "region", "country", "destination", "area", "地点", "城市")
QUERY_HINTS = ("query", "keyword", "search", "question", "prompt", "topic", "term", "text", "q", "content", "message")
DATE_HINTS = ("date", "day", "when", "日期")

_SYNONYMS: dict[str, tuple[str, ...]] = {
    "celsius": ("°c", "celsius", "centigrade", "摄氏", "metric"),
    "fahrenheit": ("°f", "fahrenheit", "华氏", "imperial"),
    "high": ("high", "urgent", "important", "critical", "asap", "高", "紧急"),
    "medium": ("medium", "normal", "moderate", "中"),
    "low": ("low", "minor", "whenever", "低"),
    "todo": ("todo", "to do", "to-do", "not started", "open", "pending", "待办", "未开始"),
    "in_progress": ("in progress", "in-progress", "ongoing", "started", "working on", "进行中"),
    "done": ("done", "finished", "complete", "completed", "closed", "已完成", "完成"),
    "asc": ("ascending", "asc", "smallest first", "oldest first"),
    "desc": ("descending", "desc", "largest first", "newest first", "latest"),
}


@dataclass
class Evidence:
    """Where an argument value came from: the rule that found it and the words it read."""

    rule: str
    words: str

    def __repr__(self) -> str:
        return f"{self.rule}: {self.words!r}"


@dataclass
class Filled:
    """The outcome of filling one tool's arguments."""

    arguments: dict[str, Any] = field(default_factory=dict)
    evidence: dict[str, Evidence] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)


def _hints(name: str, spec: dict) -> str:
    return (" ".join(lang.split_identifier(name)) + " " + str(spec.get("description", ""))).lower()


def _has_hint(hints: str, words: tuple[str, ...]) -> bool:
    return any(re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", hints) for w in words)


def _types(spec: dict) -> list[str]:
    t = spec.get("type")
    if isinstance(t, list):
        return [x for x in t if x != "null"]
    if t:
        return [t]
    if "enum" in spec:
        return ["string"]
    if "properties" in spec:
        return ["object"]
    return ["string"]


def accepts_null(spec: dict) -> bool:
    """True when the property schema allows ``null`` (``type: [..., "null"]``, a null ``anyOf`` branch or enum value)."""
    t = spec.get("type")
    if t == "null" or (isinstance(t, list) and "null" in t):
        return True
    if None in (spec.get("enum") or []):
        return True
    return any(isinstance(b, dict) and b.get("type") == "null" for b in spec.get("anyOf") or spec.get("oneOf") or [])


def match_enum(text: str, values: list[Any]) -> tuple[Any, str] | None:
    """The enum value ``text`` mentions (by value, case-insensitive, or a synonym)."""
    low = text.lower()
    best: tuple[int, Any, str] | None = None
    for v in values:
        if v is None:
            continue
        sv = str(v).lower()
        forms = {sv, sv.replace("_", " "), sv.replace("-", " ")} | set(_SYNONYMS.get(sv, ()))
        for form in forms:
            pat = re.escape(form) if lang.is_chinese(form) or not form[0].isalnum() else rf"\b{re.escape(form)}\b"
            m = re.search(pat, low)
            if m and (best is None or m.start() < best[0]):
                best = (m.start(), v, text[m.start() : m.end()])
    return (best[1], best[2]) if best else None


def _number_near(name: str, spec: dict, text: str, numbers: list[tuple[float, int, int]], used: set[int]):
    """The unused number closest to a mention of the property's name words."""
    free = [n for n in numbers if n[1] not in used]
    if not free:
        return None
    keys = [w for w in lang.split_identifier(name) if len(w) > 2] + [
        w for w in re.findall(r"[a-z]{4,}", str(spec.get("description", "")).lower()) if w not in lang.STOPWORDS
    ][:3]
    low = text.lower()
    anchors = [m.start() for k in keys for m in re.finditer(rf"\b{re.escape(lang.stem(k))}", low)]
    if anchors:
        return min(free, key=lambda n: min(abs(n[1] - a) for a in anchors))
    return free[0]


def _coerce_number(value: float, spec: dict, types: list[str]):
    if "integer" in types and "number" not in types:
        return int(round(value))
    return value


_TRUE = re.compile(r"\b(include|including|with|enable|enabled|yes|true|turn on|show)\b|包含|开启|需要", re.I)
_FALSE = re.compile(r"\b(exclude|excluding|without|disable|disabled|no|false|turn off|hide|don'?t|do not)\b|不要|关闭|不包含", re.I)


def _boolean(name: str, spec: dict, text: str) -> tuple[bool, str] | None:
    words = [w for w in lang.split_identifier(name) if w not in ("is", "has", "include", "use", "enable", "show")]
    low = text.lower()
    for w in words:
        pos = low.find(lang.stem(w))
        if pos < 0:
            continue
        window = low[max(0, pos - 25) : pos]
        if _FALSE.search(window):
            return False, text[max(0, pos - 25) : pos + len(w)].strip()
        return True, text[max(0, pos - 25) : pos + len(w)].strip()
    return None


def _location(text: str) -> list[tuple[str, str]]:
    cities = lang.find_cities(text)
    if cities:
        return [(c, c) for c, _ in cities]
    m = re.search(r"\b(?:in|for|at|of|near|to)\s+((?:[A-Z][\w'.-]+)(?:\s+[A-Z][\w'.-]+)*)", text)
    if m:
        return [(m.group(1), m.group(0))]
    m = re.search(r"([\u3400-\u9fff]{2,4}?)(?:市)?(?:今天|明天|现在|的)", text)
    if m:
        return [(m.group(1), m.group(0))]
    return []


_LEAD = re.compile(
    r"^(?:please\s+|can you\s+|could you\s+|i want to\s+|i need to\s+|help me\s+)*"
    r"(?:search|look up|find|query|google|check|ask)\b(?:\s+(?:the|our|my)?\s*[\w-]*\s*(?:wiki|web|docs?|database|internet|for|about))*\s*",
    re.I,
)


#: "the top 3 wiki pages about", "5 results on": how many, not what (the topic follows).
_QUANTITY = re.compile(
    r"^(?:the\s+|a\s+|an\s+)?(?:(?:top|first|best|latest|last|most|relevant|\d+|[a-z]+)\s+){0,3}?"
    r"(?:pages?|results?|articles?|documents?|docs|entries|links?|items?|hits?)\s+"
    r"(?:about|on|for|regarding|mentioning|related to)\s+", re.I)
#: 在公司 Wiki 里 / 从知识库中: where to search, not what.
_ZH_PLACE = re.compile(r"^(?:帮我|请|麻烦)?(?:在|从)[^，。,？?]{1,15}?(?:里面|里|中|上|内)")
_ZH_VERB = re.compile(r"^(?:帮我|请|麻烦)?(?:搜索|查找|查一下|查询|检索|搜一下|找一下|找)(?:一下)?(?:关于)?")


def _query(text: str) -> str:
    q = _LEAD.sub("", text.strip())
    q = re.sub(r"^(?:for|about)\s+", "", q, flags=re.I)
    q = _QUANTITY.sub("", q)
    q = _ZH_VERB.sub("", _ZH_PLACE.sub("", q))
    q = re.sub(r"(?:的)?(?:相关)?(?:页面|文档|资料)$", "", q)
    return q.strip(" ?.!。？！") or text.strip()


def deref(spec: dict, root: dict) -> dict:
    """``spec`` with a local ``$ref`` (``#/$defs/X``) replaced by its target (its own keys win)."""
    seen = 0
    while isinstance(spec.get("$ref"), str) and spec["$ref"].startswith("#/") and seen < 8:
        target: Any = root
        for part in spec["$ref"][2:].split("/"):
            target = target.get(part.replace("~1", "/").replace("~0", "~")) if isinstance(target, dict) else None
        if not isinstance(target, dict):
            return spec
        spec = {**target, **{k: v for k, v in spec.items() if k != "$ref"}}
        seen += 1
    return spec


def one_branch(spec: dict, root: dict) -> dict:
    """pydantic's ``Optional[X]`` is ``anyOf: [X, {"type": "null"}]``: fill it as ``X``."""
    branches = spec.get("anyOf") or spec.get("oneOf")
    if not isinstance(branches, list) or "type" in spec:
        return spec
    real = [deref(b, root) for b in branches if isinstance(b, dict) and b.get("type") != "null"]
    if len(real) != 1:
        return spec
    return {**real[0], **{k: v for k, v in spec.items() if k not in ("anyOf", "oneOf")}}


def fill_arguments(parameters: dict, text: str, root: dict | None = None) -> Filled:
    """Fill the arguments of a tool whose ``parameters`` schema is given, from ``text``.

    Args:
        parameters: the tool's JSON Schema (``{"type": "object", "properties": ...}``).
        text: the user's request (one clause of it when the request asks several things).
        root: the tool's whole schema, where ``$ref`` targets (``$defs``) live (default: ``parameters``).

    Returns:
        :class:`Filled` with the arguments found, the evidence for each, and the names
        of required properties the text did not provide.

    Example:
        >>> fill_arguments({"type": "object", "properties": {"city": {"type": "string"}},
        ...                 "required": ["city"]}, "What's the weather in Shanghai?").arguments
        {'city': 'Shanghai'}
    """
    props: dict = parameters.get("properties") or {}
    required = list(parameters.get("required") or [])
    order = required + [p for p in props if p not in required]
    numbers = lang.find_numbers(text)
    quoted = lang.quoted_strings(text)
    used_numbers: set[int] = set()
    used_quotes: set[int] = set()
    out = Filled()
    for name in order:
        declared = deref(props.get(name) or {}, root or parameters)  # lossless schemas keep $defs + $ref
        spec = one_branch(declared, root or parameters)
        value = _fill_one(name, spec, text, numbers, quoted, used_numbers, used_quotes, root or parameters)
        if value is None:
            if name in required and accepts_null(declared):
                # A strict schema lists every field as required and marks the optional ones
                # nullable: a model sends null for what the user did not say (C-03).
                out.arguments[name], out.evidence[name] = None, Evidence("nullable", "not mentioned")
            elif name in required:
                out.missing.append(name)
            continue
        out.arguments[name], out.evidence[name] = value
    return out


def _fill_one(name, spec, text, numbers, quoted, used_numbers, used_quotes, root=None):
    types = _types(spec)
    hints = _hints(name, spec)
    if "enum" in spec:
        hit = match_enum(text, spec["enum"])
        return (hit[0], Evidence("enum", hit[1])) if hit else None
    kind = types[0]
    if kind in ("integer", "number"):
        hit = _number_near(name, spec, text, numbers, used_numbers)
        if hit is None:
            return None
        used_numbers.add(hit[1])
        return _coerce_number(hit[0], spec, types), Evidence("number", text[hit[1] : hit[2]])
    if kind == "boolean":
        hit = _boolean(name, spec, text)
        return (hit[0], Evidence("boolean", hit[1])) if hit else None
    if kind == "array":
        return _array(name, spec, text)
    if kind == "object":
        sub = fill_arguments(spec, text, root)
        if not sub.arguments:
            return None
        return sub.arguments, Evidence("object", ", ".join(f"{k}={v!r}" for k, v in sub.arguments.items()))
    return _string(name, spec, hints, text, quoted, used_quotes)


def _string(name, spec, hints, text, quoted, used_quotes):
    if _has_hint(hints, LOCATION_HINTS):
        found = _location(text)
        return (found[0][0], Evidence("place", found[0][1])) if found else None
    for i, (inner, _, _) in enumerate(quoted):
        if i not in used_quotes:
            used_quotes.add(i)
            return inner, Evidence("quoted", inner)
    if _has_hint(hints, DATE_HINTS):
        m = re.search(r"\d{4}-\d{2}-\d{2}|\b(?:today|tomorrow|yesterday)\b|今天|明天|昨天", text, re.I)
        return (m.group(0), Evidence("date", m.group(0))) if m else None
    if _has_hint(hints, QUERY_HINTS):
        q = _query(text)
        return q, Evidence("query", q)
    m = re.search(rf"\b{re.escape(lang.split_identifier(name)[-1])}\s*(?:is|=|:|of|named|called)?\s+([A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)", text)
    if m:
        return m.group(1), Evidence("after name", m.group(0))
    return None


def _array(name, spec, text):
    items = spec.get("items") or {}
    item_types = _types(items)
    if "enum" in items:
        hits = [v for v in items["enum"] if match_enum(text, [v])]
        return (hits, Evidence("enum list", ", ".join(map(str, hits)))) if hits else None
    if item_types[0] in ("integer", "number"):
        nums = [_coerce_number(v, items, item_types) for v, _, _ in lang.find_numbers(text)]
        return (nums, Evidence("number list", ", ".join(map(str, nums)))) if nums else None
    if _has_hint(_hints(name, spec), LOCATION_HINTS):
        cities = [c for c, _ in lang.find_cities(text)]
        return (cities, Evidence("places", ", ".join(cities))) if cities else None
    quoted = [q for q, _, _ in lang.quoted_strings(text)]
    if quoted:
        return quoted, Evidence("quoted list", ", ".join(quoted))
    m = re.search(r"([\w'-]+(?:\s*,\s*[\w'-]+)*\s*,?\s+(?:and|or)\s+[\w'-]+)", text)
    if m:
        parts = [p.strip() for p in re.split(r"\s*,\s*|\s+(?:and|or)\s+", m.group(1)) if p.strip()]
        return parts, Evidence("list", m.group(1))
    return None
