"""Conditional requests: the consequence waits for the condition's result.

"If it rains in Shanghai, remind me to take an umbrella" asks a model to look at the weather first and
to set the reminder only when the result says rain; 如果北京下雨，提醒我带伞 the same. The planner
(:func:`.planning.plan_calls`) plans the condition's calls now and marks the consequence's calls with the
condition they wait for (:attr:`~.decision.PlannedCall.condition`); after the results, :func:`holds`
decides. A condition the results cannot decide is said so, and the consequence is not called: a wrong
action is worse than an honest "I could not tell". Words are data (``course_lib/data/conditions.json``).
Taught in lesson 06 (serial, parallel and conditional calls).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from . import language as lang
from ..package_data import load_json


@dataclass(frozen=True)
class Conditional:
    """A request split into its condition and its consequence.

    ``condition``: the words of the condition without its lead ("it rains in Shanghai");
    ``consequence``: what to do when it holds ("remind me to take an umbrella");
    ``negated``: True for "unless" (除非): the consequence is done when the condition does *not* hold;
    ``otherwise``: what to do when it does not hold ("..., otherwise set it to 18°C"), or "".
    """

    condition: str
    consequence: str
    negated: bool = False
    otherwise: str = ""


def _alternatives(words: list[str]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))


@lru_cache(maxsize=1)
def _patterns() -> dict[str, Any]:
    """The compiled patterns of ``conditions.json``: leading, trailing and Chinese conditions, comparisons."""
    d = load_json("conditions.json")
    lead_en, then_en = _alternatives(d["leads"]["en"]), _alternatives(d["then"]["en"])
    lead_zh, then_zh = _alternatives(d["leads"]["zh"]), _alternatives(d["then"]["zh"])
    end_zh = _alternatives(d["zh_condition_end"])
    embedded = _alternatives(d["embedded_before"])
    return {
        "lead": re.compile(rf"^\s*(?P<lead>{lead_en})\s+(?P<cond>[^,;.?!]+?)(?:\s*,\s*(?:(?:{then_en})\s+)?|"
                           rf"\s+(?:{then_en})\s+)(?P<then>\S.*)$", re.I | re.S),
        "trail": re.compile(rf"^\s*(?P<then>\S[^,;?!]*?)\s+(?P<lead>"
                            rf"{_alternatives(d['trailing']['en'])})\s+(?P<cond>[^,;?!]+?)\s*[.?!]?\s*$", re.I | re.S),
        "zh": re.compile(rf"^\s*(?P<lead>{lead_zh})(?P<cond>[^，,。；;？?！!]+?)(?:{end_zh})?"
                         rf"(?:[，,]\s*(?:{then_zh})?|(?:{then_zh}))(?P<then>[^，,].*)$", re.S),
        "hypothetical": re.compile(rf"^\s*(?:{_alternatives(d['hypothetical']['en'])})\b|"
                                   rf"^\s*(?:{_alternatives(d['hypothetical']['zh'])})", re.I),
        "otherwise": re.compile(rf"\s*[,;，；]?\s*(?:\b(?:{_alternatives(d['otherwise']['en'])})\b|"
                                rf"(?:{_alternatives(d['otherwise']['zh'])}))[\s,，]*", re.I),
        "embedded": re.compile(rf"\b(?:{embedded})\s*$", re.I),
        "unless": re.compile(_alternatives(d["unless"]["en"] + d["unless"]["zh"]), re.I),
        "neg_en": re.compile(rf"(?:\b|(?<=n))(?:{_alternatives(d['negations']['en'])})\b", re.I),
        "neg_zh": re.compile(_alternatives(d["negations"]["zh"])),
        "above": re.compile(_alternatives(d["above"]["en"] + d["above"]["zh"]), re.I),
        "below": re.compile(_alternatives(d["below"]["en"] + d["below"]["zh"]), re.I),
    }


def split(text: str) -> Conditional | None:
    """The condition and consequence of a one-sentence conditional request, else None.

    Args:
        text: the user's request.

    Returns:
        A :class:`Conditional`: ``split("If it rains in Shanghai, remind me to take an umbrella")`` ->
        ``Conditional("it rains in Shanghai", "remind me to take an umbrella")``; "Remind me to water the
        plants if it is sunny" and 如果北京下雨，提醒我带伞 likewise. "Check if the file exists" is an
        embedded question, "if we increase the sales by 10%" a scenario the user sets (its subject is the
        speaker): None. Whether each half asks its own tool is the planner's test.
    """
    p = _patterns()
    m = p["lead"].match(text) or p["zh"].match(text)
    if m is None:
        m = p["trail"].match(text)
        if m is None or p["embedded"].search(m.group("then")):
            return None  # "check if ...", "tell me if ...": an embedded question
    cond, then = m.group("cond").strip(), m.group("then").strip(" ,，")
    if p["hypothetical"].search(cond):
        return None
    parts = p["otherwise"].split(then, maxsplit=1)
    then, otherwise = parts[0].strip(" ,，"), (parts[1].strip(" ,，。.") if len(parts) > 1 else "")
    if len(cond) < 2 or len(then) < 2:
        return None
    return Conditional(cond, then, p["unless"].fullmatch(m.group("lead").strip()) is not None, otherwise)


def checked_text(conditional: Conditional) -> str:
    """The condition without the number it compares ("it's warmer than 20°C in London" -> "it's in London"):
    what the condition's calls take; the number is for the result, not an argument."""
    p = _patterns()
    out = conditional.condition
    for rx in (p["above"], p["below"]):
        out = re.sub(rf"(?:{rx.pattern})\s*-?[\d.,]+\s*(?:%|°\s*[CF]|[^\W\d_]+)?", "", out, flags=re.I)
    return re.sub(r"\s{2,}", " ", out).strip()


def _strings(value: Any) -> list[str]:
    """Every string (and key) inside a tool result, depth first."""
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [str(k)] + _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


def _numbers(value: Any, key: str = "") -> list[tuple[str, float]]:
    """``(key, number)`` of every number inside a tool result (booleans are no numbers)."""
    if isinstance(value, dict):
        return [x for k, v in value.items() for x in _numbers(v, str(k))]
    if isinstance(value, list):
        return [x for v in value for x in _numbers(v, key)]
    return [(key, float(value))] if isinstance(value, (int, float)) and not isinstance(value, bool) else []


def _parsed(content: Any) -> Any:
    try:
        return json.loads(content) if isinstance(content, str) else content
    except ValueError:
        return content


def _compared(cond: str, results: list[Any]) -> bool | None:
    """"above 30", 高于30度: the condition's number against the result's number its words name, else None."""
    p = _patterns()
    over, under = p["above"].search(cond), p["below"].search(cond)
    nums = lang.find_numbers(cond)
    if (over is None and under is None) or not nums:
        return None
    limit = nums[-1][0]
    words = set(lang.content_stems(cond)) | set(lang.chinese_concepts(cond))
    found = [(k, v) for r in results for k, v in _numbers(r)]
    named = [v for k, v in found if any(lang.matches_any(w, words) for w in lang.content_stems(k.replace("_", " ")))]
    values = named or ([found[0][1]] if len(found) == 1 else [])
    if not values:
        return None
    above = over is not None and (under is None or over.start() < under.start())
    return values[0] > limit if above else values[0] < limit


def holds(conditional: Conditional, results: list[tuple[str, dict, Any]]) -> bool | None:
    """Whether the condition holds by the tool results of its calls, or None when they cannot tell.

    Args:
        conditional: the request's :class:`Conditional`.
        results: ``(tool name, arguments, result content)`` of the condition's calls.

    Returns:
        True when a word of the condition that is no argument of the calls ("rains" beside "Shanghai";
        下雨 read as rain) is in the results' text ("condition": "light rain"), False when the results
        describe something else, a number compared the other way ("above 30" and 25 °C), and the opposite
        for a negated condition ("if it does not rain", 如果不下雨, "unless"); None without a result or words.
    """
    p = _patterns()
    cond = conditional.condition
    parsed = [_parsed(c) for _, _, c in results]
    if not parsed:
        return None
    verdict = _compared(cond, parsed)
    if verdict is None:
        said = {str(v).lower() for _, args, _ in results for v in args.values()}
        said_stems = {s for v in said for s in lang.content_stems(v)}
        said_stems |= {lang.stem(w) for name, _, _ in results for w in lang.split_identifier(name)}  # its tool's words
        words = [w for w in lang.content_stems(cond) + lang.chinese_concepts(cond)
                 if w not in said_stems and not any(w in v for v in said) and len(w) >= 3]
        text = " ".join(_strings(parsed)).lower()
        stems = set(lang.content_stems(text)) | set(lang.chinese_concepts(text))
        if not words or not text:
            return None
        verdict = any(lang.matches_any(w, stems) for w in words) or any(
            ch in text for ch in re.findall(r"[\u4e00-\u9fff]", cond) if ch in "雨雪晴阴风云雾")
    negated = bool(p["neg_en"].search(cond) or p["neg_zh"].search(cond)) != conditional.negated
    return verdict != negated


def not_done_reply(conditional: Conditional, verdict: bool | None, tools: list[str], question: str) -> str:
    """The sentence that says the consequence was not done, and why (the condition failed, or no result told).

    ``tools`` are the consequence's tool names. English or Chinese as the ``question``.
    """
    names = ", ".join(dict.fromkeys(tools))
    if lang.is_chinese(question):
        if verdict is None:
            return f"从结果看不出“{conditional.condition}”是否成立，所以我没有调用 {names}。"
        return f"“{conditional.condition}”不成立，所以我没有调用 {names}。"
    if verdict is None:
        return f"I could not tell from the result whether {conditional.condition}, so I did not call {names}."
    return f"The condition ({conditional.condition}) does not hold, so I did not call {names}."
