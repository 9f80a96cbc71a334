"""Does the request ask for what the tool gives? A check beyond shared words.

Sharing words is not enough: "What is the *freezing point* of water?" shares "point",
"water" and "pressure" with a boiling-point calculator, and "the *acceleration* of a ball
thrown upwards" shares "thrown upwards" and "velocity" with a maximum-height calculator. A
model declines both because the thing asked for is not the thing the tool computes.

The mock checks three kinds of mismatch, each a short rule on words:

* **alternatives**: the request names one of a set of alternatives ("freezing") and the
  tool's name names another ("boiling"), never the one asked for;
* **another quantity**: the request asks for one quantity of a family (area, volume,
  perimeter...; mean, variance, p-value...) and the tool's name computes another;
* **a person from a calculator**: "Who won...?" asked of a tool that calculates.

Each rule returns the words it read, so ``MockLLM.explain`` can say why no tool was called.
Deliberate shortcut: small hand-written tables (in full below), no semantics beyond them.
Taught in lesson 02 (a tool is chosen for its purpose, not for a shared word).
"""
from __future__ import annotations

import re
from functools import lru_cache

from . import language as lang
from .phrases import FUNCTION_WORDS, VERBS

#: Sets of alternatives: asking for one is not asking for another.
ALTERNATIVES: tuple[tuple[str, ...], ...] = (
    ("internal", "external"), ("maximum", "minimum"), ("boiling", "freezing", "melting"),
    ("simple", "compound"), ("highest", "lowest"), ("best", "worst"), ("buy", "sell"), ("import", "export"),
    ("sunrise", "sunset"), ("increase", "decrease"), ("upload", "download"), ("encrypt", "decrypt"),
    ("arithmetic", "geometric"), ("sine", "cosine", "tangent"), ("similar", "complementary", "complimentary"),
    ("assist", "scoring", "goal", "rebound"), ("rank", "score"), ("import", "export"), ("deposit", "withdraw"),
    ("inflow", "outflow"), ("ascending", "descending"), ("north", "south"), ("east", "west"),
)

#: Families of quantities: a tool that computes one does not compute the others.
QUANTITIES: tuple[tuple[str, ...], ...] = (
    ("area", "volume", "perimeter", "circumference", "hypotenuse", "diagonal", "surface"),
    ("acceleration", "velocity", "speed", "height", "displacement", "distance", "force", "momentum", "energy",
     "power", "pressure", "torque"),
    ("mean", "median", "mode", "variance", "deviation", "correlation", "probability", "average"),
    ("interest", "mortgage", "roi", "margin", "profit", "revenue", "loss", "dividend", "tax"),
    ("timezone", "sunrise", "sunset"),
)

_CALCULATORS = frozenset("calculate calc compute solve convert play estimate simulate".split())
_PERSON_WORDS = re.compile(r"\b(?:who|person|people|name|player|winner|author|individual|founder|inventor|"
                           r"discoverer|president|leader|champion|scientist|artist|director|member)s?\b", re.I)
_LEAD = re.compile(
    r"(?:^|[.?!]\s+)\s*(?:(?:can|could|would|will) you\s+(?:please\s+)?|please\s+|i (?:want|need|would like) to "
    r"(?:know\s+)?|tell me\s+|help me\s+)*(?:what(?:'s| is| are| was| were| will be| would be)|calculate|compute|"
    r"find(?: out)?|get|determine|estimate|predict|identify|give me|show me|provide|retrieve|fetch|"
    r"how (?:many|much))\s+(?:me\s+)?(?:all\s+)?(?:the\s+|a\s+|an\s+)?", re.I)


def _index(groups: tuple[tuple[str, ...], ...]) -> dict[str, tuple[int, frozenset[str]]]:
    out = {}
    for i, g in enumerate(groups):
        stems = frozenset(lang.stem(w) for w in g)
        for w in g:
            out[lang.stem(w)] = (i, stems - {lang.stem(w)})
    return out


_ALT = _index(ALTERNATIVES)
_QTY = _index(QUANTITIES)


def target_words(text: str) -> list[str]:
    """The words of what the request asks for: "What is *the acceleration* a ball..." -> ``["acceleration"]``."""
    m = _LEAD.search(text)
    if not m:
        return []
    words: list[str] = []
    for w in re.findall(r"[A-Za-z][A-Za-z'-]*|[^\sA-Za-z]", text[m.end():]):
        low = w.lower()
        if low in FUNCTION_WORDS or low in VERBS or not w[0].isalpha():
            if words:
                break
            continue
        words.append(low)
    return words


def _covered(st: str, stems: set[str]) -> bool:
    return any(lang.word_matches(st, s) for s in stems)


@lru_cache(maxsize=4096)
def _tool_words(name: str, description: str) -> tuple[frozenset[str], frozenset[str]]:
    name_stems = frozenset(lang.stem(w) for w in lang.split_identifier(name))
    return name_stems, name_stems | frozenset(lang.content_stems(description))


def mismatch(text: str, name: str, description: str) -> str | None:
    """Why the tool ``name`` (with ``description``) does not give what ``text`` asks for, or None.

    Args:
        text: the user's request.
        name, description: the tool's name and description.

    Returns:
        A short reason ("asks for freezing, the tool gives boiling") or None when no rule applies.
    """
    asked = set(lang.content_stems(text))
    name_stems, tool_stems = _tool_words(name, description)
    for st in asked:
        alt = _ALT.get(st)
        if alt and not _covered(st, set(tool_stems)):
            other = alt[1] & name_stems
            if other:
                return f"asks for {st}, {name} gives {', '.join(sorted(other))}"
    target = target_words(text)
    heads = [lang.stem(w) for w in target if lang.stem(w) in _QTY]
    if heads:
        h = heads[-1]
        other = _QTY[h][1] & name_stems
        if other and not _covered(h, set(tool_stems)) and not any(_covered(o, asked) for o in other):
            return f"asks for {h}, {name} computes {', '.join(sorted(other))}"
    if re.match(r"\s*who\b", text, re.I) and name_stems & {lang.stem(c) for c in _CALCULATORS} \
            and not _PERSON_WORDS.search(name.replace("_", " ") + " " + description):
        return f"asks who, {name} calculates"
    return None
