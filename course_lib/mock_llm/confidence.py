"""How sure the mock is of a decision, and what it says instead of a call it is not sure of.

A wrong call teaches a learner that their tool definition is broken; an honest "I could not read
this" does not. So before a call goes out the engine rates it:

* each **argument** by how its value was read (:data:`RULE_CLASSES`): *said* (a labelled value, quoted
  text, a number with its unit, an enum value written out, a date: 1.0), *read* from the role of the
  words (a place after "in", a capitalised name, a description's example: 0.85), *free words* (a span of
  the request taken as free text: 0.65) or a *guess* (a value nothing in the text points at, or a query
  that is most of a long request: 0.4);
* the **coverage** of the request: every value the request states (a number, a date, a time, a place,
  quoted text) that no call uses multiplies the confidence by :data:`UNUSED_FACTOR`, a figure, date, clock
  time or street address by :data:`STRONG_UNUSED_FACTOR` (below the threshold on its own): the calls
  probably missed what the user meant;
* the **tool choice** margin (the chosen tool's score over the best tool not called) is reported
  beside them; on the benchmark data it separates right from wrong calls too weakly to gate on.

A call below :data:`THRESHOLD` is not made. The reply asks for the weakest argument when the weakness
is one value, or says in one sentence that the offline mock could not map the request, which tool came
closest and why, and that a real model may do better (README, "Use a real model instead of the mock").

The classes and the threshold were chosen on half of the BFCL data (the even-numbered items of each
category, "dev"), as one rule for all: per-argument accuracy by class there was 0.93-1.0 for *said*,
0.78-0.94 for *read*, 0.4-0.7 for *free words* and under 0.6 for *guesses*. The other half checks it.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from . import language as lang
from .reading import _TODAY_IS, read

#: Confidence of a value by how it was read.
CLASSES = {"said": 1.0, "read": 0.85, "free words": 0.65, "guess": 0.4}
#: Each stated value that no call uses multiplies the confidence by this.
UNUSED_FACTOR = 0.8
#: ... and by this when the value is a figure, a date, a clock time or a street address ("2023", "123 Main St",
#: "March 5th"): a request rarely states one that its call can leave out, so the reading missed what it was for
#: (BFCL's live requests: 6 of 75 such calls right, against 21 of 50 for an unused name or quoted word).
STRONG_UNUSED_FACTOR = 0.45
#: Below this a call is not made (an honest reply instead).
THRESHOLD = 0.5
#: A query or text argument that is the whole request without its framing ("Search the web for the latest
#: Python release" -> "the latest Python release") is a guess when the request is longer than this many words
#: (a Chinese word counted as two characters) or nothing is left: a real model writes a query from a long
#: message, it does not send the message. Chosen on BFCL's dev items: every such call on a request of over 19
#: words was wrong there, the right ones had at most 15.
LONG_REQUEST_WORDS = 20
_WHOLE_REQUEST = "the request without its framing"

#: Evidence rules (:class:`~.arguments.Evidence` ``rule``, up to its first ":" or ",") by class; rules not
#: listed are *read*.
RULE_CLASSES: dict[str, str] = {
    **dict.fromkeys(("labelled", "quoted", "named number", "number with unit", "enum", "enum list", "option",
                     "code", "list", "list of lists", "expr", "percent", "amount", "currency", "time", "date",
                     "date and clock time", "range", "musical key", "unit", "unit of a number", "schema default",
                     "nullable", "default in the description", "language of the request", "literal",
                     "the reply to the question about it", "boolean (negated)", "coefficient of the equation",
                     "quarter", "a format pattern", "start plus the stay", "none said", "state of the city",
                     "invented"), "said"),
    **dict.fromkeys(("words", "list of words", "what is asked for", "the request without its framing"),
                    "free words"),
    # a city the format wants with its state ("City, State") that the mock cannot place: adding one is a guess
    "place without the region its format asks for": "guess",
}
#: One class down: a value taken as the best reading of a required argument nothing points at.
_DOWN = {"said": "read", "read": "free words", "free words": "free words", "guess": "guess"}
#: A word used as a verb: after "to", or before an object ("transfer $250", "establish a new server").
_VERB_USE = r"(?:\bto\s+{w}\b|\b{w}\s+(?:(?:a|an|the|my|our|some|any|it|them|me)\b|\$|\d))"
#: Mentions whose value a request states: one no call uses lowers the confidence.
_STATED_KINDS = frozenset({"number", "quoted", "date", "time", "place", "name"})
#: A code made of figures only: "098-293", "2.1.3", "2023-0101" (a mistyped date).
_FIGURES = re.compile(r"\d+(?:[.-]\d+)+")
_NOW = frozenset({"today", "tonight", "now", "今天", "今晚", "今日", "现在"})


def rule_class(rule: str, value: Any = None, request: str = "") -> str:
    """The class of an evidence rule: ``"said"``, ``"read"``, ``"free words"`` or ``"guess"``.

    A best reading ("best reading: name": a required value nothing points at, the only candidate of its
    type) is one class below the rule it read with.
    """
    if rule.startswith("best reading:"):
        return _DOWN[rule_class(rule[len("best reading:"):].strip(), value, request)]
    head = rule.split(":")[0].split(",")[0].strip()
    if head.startswith("number with unit"):
        head = "number with unit"
    return RULE_CLASSES.get(head, "read")


@dataclass
class Confidence:
    """How sure the engine is of its calls.

    Attributes:
        value: the decision's confidence, 0..1 (the weakest call's).
        margin: the chosen tool's score minus the best score of a tool not called (0 when alone).
        arguments: per call index and argument name, ``(confidence, class, rule)``.
        unused: stated values of the request no call uses (their words).
        weakest: ``(call index, argument)`` of the weakest argument, or None.
        tool_doubt: why the choice of tool itself is in doubt ("a question to the assistant": "What changed in
            commit a1b2c3d?" read as git_commit's message), "" when it is not; the reply then says it could not map
            the request rather than ask for the weak value.
    """

    value: float = 1.0
    margin: float = 0.0
    arguments: dict[tuple[int, str], tuple[float, str, str]] = field(default_factory=dict)
    unused: list[str] = field(default_factory=list)
    weakest: tuple[int, str] | None = None
    tool_doubt: str = ""

    @property
    def sure(self) -> bool:
        """True when the calls may go out (:data:`THRESHOLD` or more)."""
        return self.value >= THRESHOLD

    def summary(self) -> str:
        """One line: ``confidence 0.52 (threshold 0.5): weakest city (guess 0.40); unused: '5 articles'``."""
        bits = [f"confidence {self.value:.2f} (threshold {THRESHOLD})"]
        if self.weakest is not None:
            conf, kind, _ = self.arguments[self.weakest]
            bits.append(f"weakest {self.weakest[1]} ({kind} {conf:.2f})")
        if self.unused:
            bits.append("not used: " + ", ".join(repr(u) for u in self.unused[:4]))
        bits.append(f"tool margin {self.margin:.1f}")
        return bits[0] + ": " + "; ".join(bits[1:])

    def __repr__(self) -> str:
        return f"Confidence({self.summary()})"


def _words(text: str) -> int:
    """How many words ``text`` has: runs of letters or digits, and Chinese characters two to a word."""
    return len(re.findall(r"[^\W\u4e00-\u9fff]+", text)) + (len(re.findall(r"[\u4e00-\u9fff]", text)) + 1) // 2


#: Property names or descriptions that take a day or a clock time; a street address.
_WHEN_WORDS = re.compile(r"date|time|day|when|year|start|end|begin|until|deadline|schedul", re.I)
_WHO_WORDS = re.compile(r"cast|actor|actress|artist|author|singer|band|person|receiver|recipient|attendee|"
                        r"participant|contact|player|owner|assignee|^name$|full_?name", re.I)
_WHERE_WORDS = re.compile(r"address|locat|destination|place|street|loc\b|origin|pickup|drop", re.I)


def _strong(m: Any, props: list[tuple[str, dict]], filled: frozenset[str] = frozenset()) -> bool:
    """A stated value a call can hardly leave out: a figure, a date, a clock time or a street address that one
    of the called tools has an argument for ("3 nights" for a tool that takes only a city is just not its
    business), or a person's full name while a person's argument (cast, artist, recipient) is left empty.
    ``props``: ``(name, schema)`` of every property of the called tools; ``filled``: the names the calls fill."""
    def fits(pattern: re.Pattern, types: tuple[str, ...] = ("string",)) -> bool:
        return any(str(spec.get("type")) in types and (pattern.search(name) or pattern.search(
            str(spec.get("description", ""))) or spec.get("format") in ("date", "date-time", "time"))
            for name, spec in props)
    if m.kind in ("date", "time"):
        return fits(_WHEN_WORDS)
    if m.kind == "number" and re.search(r"\d", m.text) or m.kind == "code" and _FIGURES.fullmatch(m.text):
        return any(str(spec.get("type")) in ("integer", "number") for _, spec in props) or fits(_WHEN_WORDS)
    words = m.text.split()
    if m.kind == "name" and len(words) > 1 and not any(w.isupper() for w in words):
        # "Ed Sheeran" (not "MTNA RDS", an acronym): a person the tool has an empty place for
        return any(name not in filled and _WHO_WORDS.search(name) for name, _ in props)
    return m.kind == "place" and bool(re.match(r"\s*\d", m.text)) and fits(_WHERE_WORDS)


def _props(calls: list, tools: list | None) -> list[tuple[str, dict]]:
    """``(name, schema)`` of every property of the called tools."""
    called = {c.name for c in calls}
    return [(n, spec) for t in tools or [] if getattr(t, "name", None) in called
            for n, spec in ((getattr(t, "parameters", None) or {}).get("properties") or {}).items()
            if isinstance(spec, dict)]


def _date_used(value: Any, blob: str) -> bool:
    """Whether a date mention's day is in a call's values in one of the usual spellings (ISO, US, day first)."""
    if not (isinstance(value, tuple) and len(value) == 3 and all(isinstance(x, int) for x in value)):
        return False
    y, mo, d = value
    forms = [f"{mo:02d}-{d:02d}", f"{mo:02d}/{d:02d}", f"{d:02d}/{mo:02d}", f"{d:02d}-{mo:02d}", f"{mo}/{d}"]
    return any(f in blob for f in forms) and (not y or str(y) in blob)  # a year said must be the year sent


def _defaults(calls: list, tools: list | None) -> str:
    """The called tools' schema defaults and descriptions: a value the tool takes anyway ("significance level
    0.05" for an ``alpha`` whose default is 0.05) or names itself ("type 2 diabetes" for a tool that predicts
    "diabetes type 2") is no value the calls missed."""
    called = {c.name for c in calls}
    out = []
    for t in tools or []:
        if getattr(t, "name", None) in called:
            out.append(str(getattr(t, "description", "")))  # "diabetes type 2": a figure the tool itself names
            for spec in ((getattr(t, "parameters", None) or {}).get("properties") or {}).values():
                if isinstance(spec, dict):
                    out += [str(spec.get("default", "")), str(spec.get("description", ""))]
    return " ".join(out).lower()


def _figure_in(figure: str, text: str) -> bool:
    """Whether ``figure`` stands in ``text`` as a whole figure: no digit or point before it, no digit after
    ("5" in "alpha 0.05" is not; "0.05" is). What ``(?<![\\d.])figure(?![\\d])`` finds, without compiling a
    pattern for every new number of a request (``\\d`` is ``str.isdecimal``)."""
    at = text.find(figure)
    while at != -1:
        end = at + len(figure)
        if (at == 0 or not (text[at - 1] == "." or text[at - 1].isdecimal())) and not text[end:end + 1].isdecimal():
            return True
        at = text.find(figure, at + 1)
    return False


def _unused(calls: list, reading: Any, tool_names: list[str], tools: list | None = None) -> list[tuple[str, bool]]:
    """The stated values no call uses, each with whether it is strong (:func:`_strong`)."""
    blob = " ".join(str(v).lower() for c in calls for v in c.arguments.values())
    blob += " " + " ".join(_read_span(str(getattr(e, "words", ""))).lower() for c in calls for e in c.evidence.values())
    defaults = _defaults(calls, tools)
    today = [d.span() for d in re.finditer(r"\d[\d年月日号./-]*", reading.text) if _TODAY_IS.search(reading.text[:d.start()])]
    props = _props(calls, tools)
    filled = frozenset(k for c in calls for k in c.arguments)
    names = {_squeezed(n) for n in tool_names}
    out = []
    for m in reading.mentions:
        if m.kind not in _STATED_KINDS and not (m.kind == "code" and _FIGURES.fullmatch(m.text)):
            continue  # a code of figures ("20023-04-02", "098-293") is stated as much as a number is
        text = m.text.strip().strip("'\"").lower()
        if m.kind == "number" and not re.search(r"\d", m.text):
            continue  # "monthly", "four circles": counts and frequencies said in words rarely are a value
        if m.kind == "date" and text in _NOW:
            continue  # "the weather today": what a tool without a date gives anyway
        if m.get("parts") and _parts_used(m, reading.text, blob):
            continue  # "1 hour 15 minutes" as hours 1 and minutes 15
        if not text or _names_a_tool(text, names) or text in blob or str(m.value).lower() in blob:
            continue
        if m.kind == "number" and _figure_in(str(m.value).lower(), defaults):
            continue  # the tool's default or the value its description names: taken anyway
        if m.kind in ("number", "date", "code") and any(a <= m.start < b for a, b in today):
            continue  # "today is 2031.2.28": the day the user is in, read as the reference of "tomorrow"
        if m.kind == "date" and _date_used(m.value, blob):
            continue  # written in the tool's format: "March 19, 2024" as 2024-03-19
        # quoted text is a value the user gave on purpose: a call that leaves it out missed what it was for
        strong = _strong(m, props, filled) or (m.kind == "quoted" and not m.get("key"))
        if m.kind == "name" and not strong:
            continue  # a capitalised name is context more often than a value ("a Tennis player, Serena")
        out.append((m.text.strip(), strong))
    return out


#: Options that say nothing of what the user wants ("True", "None", "Other"): no sign of a tool not called.
_BLANK_OPTIONS = frozenset({"true", "false", "none", "null", "other", "default", "unknown", "dontcare"})


def _options_of_tools_not_called(calls: list, reading: Any, tools: list | None) -> list[str]:
    """The options of tools not called that the request names and no call took: "a Comedy movie with Jim Carrey"
    sent to play_movie(title='Jim Carrey') while find_movies offers the genre 'Comedy' — the words point to the
    other tool, so the choice of tool is in doubt (a strong unused value, :data:`STRONG_UNUSED_FACTOR`).

    An option counts as :func:`_named_options` says, unless it is a word of the called tools' own definitions
    (their name, description, parameters and options: those words asked for the called tool)."""
    called = {c.name for c in calls}
    own = " ".join(json.dumps([getattr(t, "name", ""), getattr(t, "description", ""), getattr(t, "parameters", {})])
                   for t in tools or [] if getattr(t, "name", None) in called).lower()
    blob, out = _taken(calls), []
    for t in tools or []:
        if getattr(t, "name", None) in called:
            continue
        for spec in ((getattr(t, "parameters", None) or {}).get("properties") or {}).values():
            for option in _named_options(spec, reading):
                if _norm(option) not in blob and option.lower() not in own and option not in out:
                    out.append(option)
    return out


def _other_options_named(calls: list, reading: Any, tools: list | None) -> list[str]:
    """Options of an argument the calls set that the request names besides the one taken, and no call took:
    "every order, open or shipped" sent as status='shipped' alone, "by train or coach" as transport='plane' — the
    user asked for more than the calls do (a strong unused value). An option inside a value taken ('Comedy' in
    'Comedy-drama') or named by the called tool's name or description is no such sign."""
    blob, out = _taken(calls), []
    for call in calls:
        own = _own_words(call, tools)
        for name in call.arguments:
            for option in _named_options(_spec(call, name, tools), reading):
                if _norm(option) not in blob and option.lower() not in own and option not in out:
                    out.append(option)
    return out


def _named_options(spec: Any, reading: Any) -> list[str]:
    """The string options of an argument's schema that the request writes as whole words, in the schema's order:
    four letters or more, not one of :data:`_BLANK_OPTIONS` or a stop word, and not inside a date or a clock time
    the reader took ("7pm tomorrow" is a date-time, whatever a day argument offers)."""
    low, out = reading.text.lower(), []
    when = [(m.start, m.end) for m in reading.mentions if m.kind in ("date", "time")]
    for option in (spec.get("enum") or []) if isinstance(spec, dict) else []:
        word = str(option).lower()
        if not (isinstance(option, str) and re.fullmatch(r"[a-z][a-z &'-]{3,}", word) and word not in _BLANK_OPTIONS
                and word not in lang.STOPWORDS):
            continue
        hit = re.search(rf"(?<!\w){re.escape(word)}(?!\w)", low)
        if hit and not any(a <= hit.start() < b for a, b in when):
            out.append(option)
    return out


def _taken(calls: list) -> str:
    """The calls' values and the words they were read from, normalised (:func:`_norm`), in one string."""
    return " | ".join([_norm(str(v)) for c in calls for v in c.arguments.values()] + [
        _norm(_read_span(str(getattr(e, "words", "")))) for c in calls for e in c.evidence.values()])


def _read_span(words: str) -> str:
    """The words an argument was read from without the context around them: "for [living] rooms" -> "living"."""
    span = re.search(r"\[([^\]]+)\]", words)
    return span.group(1) if span else words


def _own_words(call: Any, tools: list | None) -> str:
    """The called tool's name and description, lower case: an option they name asked for the tool itself."""
    tool = next((t for t in tools or [] if getattr(t, "name", None) == call.name), None)
    return f"{getattr(tool, 'name', '')} {getattr(tool, 'description', '')}".lower()


@lru_cache(maxsize=8192)
def _squeezed(name: str) -> str:
    """A tool name without case and separators: "random_forest.train" (as the user writes it) is the tool
    random_forest_train (as the harness or an SDK spells it). Cached: the tools' names come with every request."""
    return _SEPARATORS.sub("", name).lower()


_SEPARATORS = re.compile(r"[\W_]+")


def _names_a_tool(text: str, names: set[str]) -> bool:
    """Whether ``text`` is a tool's name or a part of one ("Adriel" for get_adriel_projects) however the user writes
    it: "random_forest.train" is the tool random_forest_train (:func:`_squeezed`)."""
    squeezed = _squeezed(text)
    return len(squeezed) >= 3 and any(squeezed in n for n in names)


def _parts_used(m: Any, text: str, blob: str) -> bool:
    """Whether the calls took each part of the compound quantity ``m`` ("5 ft 10 in": 5 and 10) on its own."""
    parts = [n for n in read(text, compounds=False).mentions if n.kind == "number" and m.start <= n.start < m.end]
    return bool(parts) and all(re.search(rf"(?<![\d.]){re.escape(str(n.value))}(?![\d])", blob) for n in parts)


def _reused_or_verb(name: str, value: Any, call: Any, request: str) -> bool:
    """A best-reading word that another argument already took ("music" for the genre and the city), or a
    word the request uses as its verb ("transfer $250 to Svetlana" for the receiver): no value at all."""
    if not isinstance(value, str) or not value.strip():
        return False
    low = value.strip().lower()
    for other, v in call.arguments.items():
        if other != name and isinstance(v, str) and low in v.lower() and len(v) < 0.6 * len(request):
            return True  # (a text argument that is most of the request holds every word of it: no sign)
    # only a word can be a verb: "to /srv/ana/final.txt" is a destination, not "to transfer"
    return re.fullmatch(r"[a-z][a-z'-]*", low) is not None and value == low and re.search(
        _VERB_USE.format(w=re.escape(low)), request) is not None


def _held_by_another(name: str, value: Any, call: Any) -> bool:
    """Whether another argument of ``call`` holds the same text (a described example matched the words that
    argument was read from: one mention cannot be both units of a conversion)."""
    if not isinstance(value, str) or not value.strip():
        return False
    low = value.strip().lower()
    return any(other != name and isinstance(v, str) and v.strip().lower() == low for other, v in call.arguments.items())


#: The format a description asks for: "in the format 'City, State'", "format of 'MM:SS'", "formatted as 'YYYY-MM-DD'".
_FORMAT = re.compile(r"\bformat(?:ted)?(?:\s+(?:of|as|like))?\s*[:(]?\s*['\"`]([^'\"`]{2,30})['\"`]", re.I)
#: Placeholders of a date, a time or a number in a format ("HH:MM", "YYYY-MM-DD", "MM:SS").
_PLACEHOLDER = re.compile(r"\b(?:Y{2,4}|M{1,2}|D{1,2}|H{1,2}|h{1,2}|m{2}|S{1,2}|s{2})\b|\d")
#: A word used as a verb in free words: after a relative pronoun ("the brain that produces GABA", "any song that
#: came out"), before an object ("ensure the transaction"), or after "to" with its object ("love to hear songs";
#: not "send it to wang", a recipient).
_FREE_VERB = (r"\b(?:that|which|who)\s+{w}\b|\b{w}\s+(?:(?:a|an|the|my|our|some|any|it|them|me)\b|\$|\d)"
              r"|\bto\s+{w}\s+(?!(?:please|now|for|at|on|in|by|and|or|with|from|about|too)\b)[a-z]")
#: Arguments that take a time, a date or a duration (not a time zone: a place gives that).
_TIME_NAMES = re.compile(r"time(?!_?zone)|date|day|duration|hour|when", re.I)
#: Doubts of :func:`_free_words_doubt` that put the tool in doubt, not only the value.
_TOOL_DOUBTS = frozenset({"a question to the assistant", "the whole request"})
#: A request that opens with its verb ("Revert the last commit"), not a statement of the user's own ("I've
#: submitted a complaint...", which a statement argument carries whole).
_IMPERATIVE = re.compile(r"(?!(?:i|i'm|i've|i'd|i'll|we|we're|my|our|me|it|it's|this|that|there|the|a|an|he|she|"
                         r"they|you)\b)[A-Za-z]", re.I)
_QUERY_NAMES = re.compile(r"query|keyword|search|term|^q$|prompt", re.I)
#: A request that is a question to the assistant ("What changed in commit a1b2c3d?"): its words are no message,
#: note or content to write ("Can you...", "Could you..." ask for an action, so they are left out).
_QUESTION = re.compile(r"\s*(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|does|do|did)\b|"
                       r".*(?:什么|多少|怎么|为什么|哪|吗|呢)[？?]?\s*$", re.I)


def _spec(call: Any, name: str, tools: list | None) -> dict:
    """The schema of argument ``name`` of the called tool (empty when unknown)."""
    for t in tools or []:
        if getattr(t, "name", None) == call.name:
            spec = ((getattr(t, "parameters", None) or {}).get("properties") or {}).get(name)
            return spec if isinstance(spec, dict) else {}
    return {}


def _other_options(call: Any, name: str, tools: list | None) -> set[str]:
    """Every enum value of the offered tools' arguments other than ``name`` of the called tool, normalised."""
    out = set()
    for t in tools or []:
        for prop, spec in ((getattr(t, "parameters", None) or {}).get("properties") or {}).items():
            if isinstance(spec, dict) and not (getattr(t, "name", None) == call.name and prop == name):
                out.update(_norm(v) for v in spec.get("enum") or [] if isinstance(v, str))
    return out


def _norm(text: str) -> str:
    return re.sub(r"[\s_\-]+", " ", text.strip().lower())


def _off_format(value: str, spec: dict) -> bool:
    """Whether ``value`` lacks the shape of the format the argument's description asks for: no comma for
    'City, State', no digit for 'MM:SS' or 'YYYY-MM-DD'."""
    m = _FORMAT.search(str(spec.get("description", "")))
    if not m:
        return False
    pattern = m.group(1)
    if "," in pattern and "," not in value:
        return True
    return bool(_PLACEHOLDER.search(pattern)) and not re.search(r"\d", value)


def _tool_words(tool_name: str) -> set[str]:
    """The words of a tool's name ("search_web_tool" -> search, web, tool), three letters or more, weak verbs left out."""
    return {w for w in lang.split_identifier(tool_name) if len(w) >= 3 and lang.stem(w) not in lang.WEAK}


def _opens_with_tool_word(value: str, call: Any) -> bool:
    """Whether ``value``'s first word is a word of the tool's name ("Email Ada that..." of send_mail): the request
    asked for this tool by name, so it was understood."""
    first = re.match(r"[A-Za-z]+", value.strip())
    w = lang.stem(first.group(0).lower()) if first else ""
    return bool(w) and any(t in w or w in t for t in (lang.stem(x) for x in _tool_words(call.name)) if len(t) >= 4)


def _forwards_request(name: str, call: Any, tools: list | None) -> bool:
    """Whether the called tool passes the user's words on to another agent (A2A skill tools, hand-offs), so the
    whole request or a question is the right value of its text argument ``name``."""
    desc = str(_spec(call, name, tools).get("description", ""))
    return bool(lang.HANDS_OFF.search(f"{_own_words(call, tools).replace('_', ' ')} {desc}")
                or lang.FOR_AN_AGENT.search(desc))


def _framing_left(name: str, value: str, call: Any) -> bool:
    """A text taken as the request without its framing that still holds the words that asked for the tool
    ("play baby shark song" for play_song, "trigger web search; where is ..." for web_search): a query with
    them in it, or any text that starts with one (the request's verb: "Translate Hello ..."; the text's own first
    word, so "从财务 Agent 获取..." whose first Latin word is a tool word does not start with it)."""
    tool = {lang.stem(t) for t in _tool_words(call.name)}
    words = [lang.stem(w) for w in re.findall(r"[A-Za-z]+", value)]  # "tools" for search_web_tool
    hit = [i for i, w in enumerate(words) if any(w == t or (len(w) >= 4 and t.startswith(w)) for t in tool)]
    starts = hit and hit[0] == 0 and re.match(r"[A-Za-z]", value.lstrip()) is not None
    return bool(hit) and (bool(_QUERY_NAMES.search(name)) or bool(starts))


#: a priority, quarter, level or size code ("p4", "Q3", "L2"): free words that are one name no company or person
_LEVEL_CODE = re.compile(r"[A-Za-z]{1,2}\d{1,2}")
_NAMES_SOMEONE = re.compile(r"\b(?:company|customer|client|organi[sz]ation|person|people|user|employee|author)\b"
                            r"|\bname of\b|\bfull name\b|_name\b|^name\b", re.I)


def _free_words_doubt(name: str, value: Any, rule: str, call: Any, request: str, tools: list | None) -> str:
    """Why a value read from free words is no value at all, or "" when nothing speaks against it.

    * ``"an option of another argument"``: the value is an enum value another argument (of this or another
      offered tool) lists ("cheap" as a location while price_range offers "cheap", "drama" as a movie's name
      while a genre offers "Drama"): the words answer that argument, or another tool is meant;
    * ``"not in its format"``: the description asks for a format the value lacks ("Ha Noi" for 'City, Country',
      "minute" for 'MM:SS');
    * ``"a verb or a greeting"``: one word the request uses as a verb ("that produces", "to watch", "ensure
      the"), a stop word ("Hi") or the capitalised word that opens a sentence ("Initiate a payment ...");
    * ``"a place for a time"``: a place read for an argument that takes a time or a date;
    * ``"a code for a name"``: a short letter-and-digit code ("p4", "Q3") for an argument that names a company or
      a person ("获取阿迪达斯的p4工单", "Get p4 tickets": p4 is the tickets' priority);
    * ``"the framing left in"``: the request without its framing still holds the tool's own words
      (:func:`_framing_left`);
    * ``"the whole request"``: a message or text (no query) that is the request itself, nothing framed away
      ("Revert the last commit" as git_commit's message): the request was not understood, so the mock asks;
    * ``"the words of another value"``: a best reading inside the words another argument was read from
      (:func:`_inside_another`).
    """
    if isinstance(value, list):  # "dependencies fastapi" and "project 'my-app'" beside project_name='my-app'
        return "the words of another value" if any(isinstance(v, str) and _holds_another(name, v, call)
                                                   for v in value) else ""
    if not isinstance(value, str) or not value.strip():
        return ""
    text, spec = value.strip(), _spec(call, name, tools)
    if _norm(text) in _other_options(call, name, tools):
        return "an option of another argument"
    if _off_format(text, spec):
        return "not in its format"
    if rule == _WHOLE_REQUEST:
        if _forwards_request(name, call, tools):
            return ""  # "Get the company's 2024 revenue from the finance agent" is the agent's task, word for word
        if _framing_left(name, text, call):
            return "the framing left in"
        if _QUESTION.match(text) and not _QUERY_NAMES.search(name):
            return "a question to the assistant"
        if not _QUERY_NAMES.search(name) and _IMPERATIVE.match(text) and not _opens_with_tool_word(text, call) \
                and _norm(text.rstrip(".!?。！？")) == _norm(request.rstrip(".!?。！？")):
            return "the whole request"  # 'Revert the last commit' as a commit message: the request, not understood
        return ""
    if " " not in text:
        low = text.lower()
        # a capitalised word that opens a sentence before its object: the imperative ("Initiate a payment ...");
        # not a bare answer ("Dentist on 2026-12-03")
        opener = re.search(rf"(?:^|[.!?;]\s+){re.escape(text)}\s+(?:a|an|the|my|our|some|me|to|into|over|back)\b", request)
        verb = text == low and re.search(_FREE_VERB.format(w=re.escape(low)), request)
        if low in lang.STOPWORDS or opener or verb:
            return "a verb or a greeting"
    if rule.endswith("place") and _TIME_NAMES.search(name):
        return "a place for a time"
    if _LEVEL_CODE.fullmatch(text) and _NAMES_SOMEONE.search(f"{name} {spec.get('description', '')}"):
        return "a code for a name"
    if rule.startswith("best reading") and _inside_another(name, text, call) or _part_of_another(name, text, call):
        return "the words of another value"
    return ""


def _holds_another(name: str, item: str, call: Any) -> bool:
    """Whether a list item read from free words holds another argument's value whole ("project 'my-app'" as a
    dependency of the project 'my-app'): the list ran over the words of other values."""
    low = item.lower()
    return any(other != name and isinstance(v, str) and v.strip() and len(v) < len(item) and re.search(
        rf"(?<!\w){re.escape(v.lower())}(?!\w)", low) for other, v in (getattr(call, "arguments", None) or {}).items())


def _part_of_another(name: str, value: str, call: Any) -> bool:
    """Whether free words are a piece of another argument's short value ("summer" as the tag of a photo in the album
    "summer-trip", "feature" as the base branch of "feature/login"): one name's words cannot be a second value too.
    A longer text (three words or more: a message, a note) may well name what another argument holds."""
    low = value.lower()
    return any(other != name and isinstance(v, str) and len(v) > len(value) and len(v.split()) < 3 and re.search(
        rf"(?<!\w){re.escape(low)}(?!\w)", v.lower()) for other, v in (getattr(call, "arguments", None) or {}).items())


def _inside_another(name: str, value: str, call: Any) -> bool:
    """Whether a best reading is a word of the span another argument was read from ("dollar" as the receiver
    when the amount was read from "a ninety dollar"): those words are that value's, not a second one."""
    for other, ev in (getattr(call, "evidence", None) or {}).items():
        words = str(getattr(ev, "words", "") or "")
        span = re.search(r"\[([^\]]+)\]", words)
        if other != name and span and re.search(rf"(?<!\w){re.escape(value)}(?!\w)", span.group(1), re.I):
            return True
    return False


def _required(call: Any, tools: list | None) -> set[str]:
    """The required arguments of the called tool (all of them when the tool is unknown)."""
    for t in tools or []:
        if getattr(t, "name", None) == call.name:
            return set((getattr(t, "parameters", None) or {}).get("required") or [])
    return set(call.arguments)


def without_doubtful_options(calls: list, request: str, tools: list | None = None) -> list:
    """The calls without the optional arguments whose free-words value is no value (:func:`_free_words_doubt`):
    a model leaves out an optional value it cannot read rather than hold the call back for it ("Remind me at 7:30
    to water the plants" keeps its time and drops a note that would be "Remind me at 7:30 ...").

    Args:
        calls: the planned calls (:class:`~.engine.PlannedCall`); ``request``: the user's words;
        tools: the request's tools (their ``required`` lists).

    Returns:
        The same list when nothing is dropped, else new calls with those arguments (and their evidence) left out.
    """
    out = []
    for call in calls:
        required = _required(call, tools)
        drop = [name for name, value in call.arguments.items() if name not in required and (
            ev := call.evidence.get(name)) is not None and rule_class(ev.rule) == "free words"
            and _free_words_doubt(name, value, ev.rule, call, request, tools)]
        if drop:
            call = replace(call, arguments={k: v for k, v in call.arguments.items() if k not in drop},
                           evidence={k: v for k, v in call.evidence.items() if k not in drop})
        out.append(call)
    return out


def rate(calls: list, scores: dict[str, float], reading: Any, request: str, tools: list | None = None) -> Confidence:
    """Rate planned calls (:class:`~.engine.PlannedCall`) for the request they answer.

    Args:
        calls: the calls about to be made (their ``arguments`` and ``evidence``).
        scores: every tool's relevance score (``Decision.scores``).
        reading: the :class:`~.reading.Reading` of the request.
        request: the request's text.
        tools: the request's tools (:class:`~.wire.ToolSpec`), for their defaults; optional.

    Returns:
        A :class:`Confidence`; ``value`` 1.0 when there is no call.
    """
    conf = Confidence()
    if not calls:
        return conf
    called = {c.name for c in calls}
    top = max(scores.get(n, 0.0) for n in called)
    conf.margin = round(top - max([s for n, s in scores.items() if n not in called], default=0.0), 2)
    lowest = 1.0
    several = len({getattr(c, "clause", 0) for c in calls}) > 1
    for i, call in enumerate(calls):
        for name, value in call.arguments.items():
            # one instruction in a long message: the rest is context a model condenses into the value; a list of
            # instructions ("Get the revenue from the finance agent, then ...") gives each call its own clause
            context = str(value) if several else request
            ev = call.evidence.get(name)
            rule = getattr(ev, "rule", "") or ""
            kind = rule_class(rule, value, request)
            if rule.startswith("best reading") and _reused_or_verb(name, value, call, request):
                kind = "guess"
            elif rule == "example in the description" and _held_by_another(name, value, call):
                kind = "guess"  # "Convert 72 F to C": the 'C' to_unit read is no from_unit because an example says C
            elif rule == _WHOLE_REQUEST and (not str(value).strip() or _words(context) > LONG_REQUEST_WORDS):
                kind = "guess"  # a long message (a pasted prompt, a story) is no search query as it stands
            if kind == "free words" and (doubt := _free_words_doubt(name, value, rule, call, request, tools)):
                kind = "guess"
                conf.tool_doubt = conf.tool_doubt or (doubt if doubt in _TOOL_DOUBTS else "")
            conf.arguments[(i, name)] = (CLASSES[kind], kind, rule)
            if CLASSES[kind] < lowest:
                lowest, conf.weakest = CLASSES[kind], (i, name)
    unused = _unused(calls, reading, list(scores), tools) + [(w, True) for w in _options_of_tools_not_called(
        calls, reading, tools) + _other_options_named(calls, reading, tools)]
    conf.unused = [text for text, _ in unused]
    strong = sum(1 for _, is_strong in unused if is_strong)
    conf.value = round(lowest * UNUSED_FACTOR ** (len(unused) - strong) * STRONG_UNUSED_FACTOR ** strong, 3)
    return conf


def unsure_reply(call: Any, conf: Confidence, request: str, matched: list[str], tool_description: str = "") -> str:
    """The one-sentence reply instead of a call the engine is not sure of.

    Args:
        call: the best call it could plan; ``conf``: its rating; ``request``: the user's words;
        matched: the words the request shares with the tool (``Decision.matched``).

    Returns:
        English or Chinese text (the request's language) naming the closest tool, why it came closest, what
        could not be read, and that a real model may do better (README: "Use a real model instead of the mock").
    """
    zh = lang.is_chinese(request)
    shared = ", ".join(f"'{w}'" for w in matched[:3])
    what = ""
    if conf.weakest is not None and conf.arguments[conf.weakest][1] in ("guess", "free words"):
        what = conf.weakest[1]
    if zh:
        why = f"（共有的词：{shared}）" if shared else ""
        gap = f"但读不出 {what} 的值" if what else "但请求里还有它用不上的内容：" + "、".join(conf.unused[:3])
        return (f"离线模拟模型没能把这个请求可靠地对应到工具上：最接近的是 {call.name}{why}，{gap}。"
                f"真实模型可能做得更好（见 README 的“Use a real model instead of the mock”）。")
    why = f" (it shares {shared} with the request)" if shared else ""
    if what:
        gap = f"but I could not tell which of your words is its {what}"
    else:
        gap = "but the request also says " + ", ".join(repr(u) for u in conf.unused[:3]) + ", which none of its arguments took"
    return (f"The offline mock could not map this request to a tool with confidence: the closest is {call.name}{why}, "
            f"{gap}. A real model may do better (README: \"Use a real model instead of the mock\").")
