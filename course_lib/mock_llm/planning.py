"""Stage 4 of the pipeline: plan the calls a request needs (one, parallel, in order, or none yet).

The request is split into clauses ("... in Paris, and what time is it in Tokyo?") so each can pick
its own tool (:mod:`.choosing`); a clause naming several values of one kind becomes parallel calls
of the same tool; values said once per subject go with their subject; a clause that refers back to
what earlier clauses produce waits for their results. The arguments of each call are filled by
:mod:`.arguments` (stage 3). Taught in lessons 01 and 06.
"""
from __future__ import annotations

import bisect
import json
import re
from dataclasses import replace
from functools import lru_cache
from typing import Any

from . import accounts
from . import arithmetic
from . import conditions
from . import language as lang
from . import purpose
from . import specialists
from . import speech_acts
from .arguments import Evidence, fill_arguments, labelled
from .confidence import _off_format, rule_class
from .choosing import (GENERIC_NAME_WORDS, NAMESPACE_WEIGHT, THRESHOLD, _DISTINCT, _best, _profile, _user_concepts,
                       score_tools, unsaid_actions)
from .decision import PlannedCall
from .reading import AT_REST, read
from .wire import ToolSpec
from ..package_data import load_json


#: (The lookahead of the first characters the alternatives can start with changes no split: it rejects in
#: one test the positions, most of them, where none can match.)
#: The dot of an initial ("J.K. Simmons", "C.J. Rush") ends no clause, nor a dot inside a word ("a.txt").
_CLAUSE_SPLIT = re.compile(r"(?=[.;!?。；！？\n,，\s然并另再还同顺而])(?:(?:(?<!\b(?-i:[A-Z]))\.(?!\w)|[;!?。；！？\n])+|,\s*(?:and\s+)?(?=(?:what|how|who|when|where|please|also|then)\b)|"
                           r"\s+(?:and then|and also|also|then|as well as)\s+|"
                           r"\s+and\s+(?=(?:what|how|who|when|where|tell|get|find|search|create|list|show|check|book|convert|send|"
                           r"schedule|reserve|order|buy|cancel|translate|calculate|compute|add|remind|set up)\b)|"
                           r"(?:然后|并且|另外|再|还有|同时)|[，,]\s*(?:并|而且|顺便)(?=[\u4e00-\u9fff])|"
                           # "Turn on the disco ball and play some music, dim the lights": a verb of
                           # course_lib/data/tool_actions.json starting its own object after 'and' or a comma
                           r"(?:\s+and|,)\s+(?=(?:" + "|".join(load_json("tool_actions.json")["verbs"]) +
                           r")\s+(?:the|a|an|some|my|our|all)\b))", re.I)


#: A runner-up within this share of the best score is as good a reading of the request (chosen on BFCL dev data).
FILLABLE_SHARE = 0.7


def _fillable_choice(ranked: list[tuple[ToolSpec, float, list[str]]], best: tuple[ToolSpec, float, list[str]],
                     text: str, made: dict[str, list[PlannedCall]]) -> ToolSpec:
    """The best tool, unless it lacks a required value that a close runner-up does not need.

    "Find action movies in New York" scores ``BuyMovieTickets`` and ``FindMovies`` alike; the ticket tool
    would have to ask for a count and a date nobody said, the search tool is complete: a model calls the
    search. Close means within :data:`FILLABLE_SHARE` of the best score. ``made`` keeps the calls planned
    for each tool tried (by name), so the chosen one's are not planned twice.
    """
    made[best[0].name] = _calls_for(best[0], text)
    if not any(c.missing for c in made[best[0].name]):
        return best[0]
    for tool, score, matched in ranked:
        if tool is best[0] or score < best[1] * FILLABLE_SHARE or score < THRESHOLD:
            continue
        if unsaid_actions(tool, matched, best[0]) and not unsaid_actions(best[0], best[2], tool):
            continue  # "search for Fight movies": PlayMovie is complete with a title, but nobody asked to play
        made[tool.name] = _calls_for(tool, text)
        if not any(c.missing for c in made[tool.name]):
            return tool
    return best[0]


def _give(call: PlannedCall, key: str, value: Any, evidence: Any) -> None:
    """Set one argument of a planned call, with the words it came from; it is no longer missing."""
    call.arguments[key], call.evidence[key] = value, evidence
    if key in call.missing:
        call.missing.remove(key)


@lru_cache(maxsize=1)
def _detail_frames() -> re.Pattern[str]:
    """The frames of a clause that only states a value (``course_lib/data/clause_frames.json``), as one pattern."""
    data = load_json("clause_frames.json")
    frames = data["detail"]["en"] + data["detail"]["zh"]
    return re.compile(r"\s*(?:" + "|".join(f"(?:{f})" for f in frames) + ")", re.I)


def states_a_detail(clause: str) -> bool:
    """True when ``clause`` only states a value ("My user ID is 12345", "The API key is 'k-1'", "id 1234",
    "我的用户ID是12345"): a detail of the request it belongs to, which picks no tool of its own. A model reads
    "Show my API tokens. My user ID is 12345" as one request with its user ID, not as two calls."""
    return _detail_frames().match(clause) is not None


def split_clauses(text: str) -> list[str]:
    """Split a request into the clauses that may each need their own tool."""
    return [c.strip(" ,，") for c in _CLAUSE_SPLIT.split(text) if c and c.strip(" ,，")]


#: A dot that ends an abbreviation ("Apple Inc. (AAPL)", "Dr. Lee") or an initial ("J.K. Simmons") ends no sentence.
_NO_ABBREVIATION = "".join(rf"(?<!\b{a}\.)" for a in ("Inc", "Ltd", "Corp", "Co", "Mr", "Mrs", "Ms", "Dr", "St", "vs",
                                                      "(?-i:[A-Z])"))


#: (The dot is looked behind for first: the ten abbreviation look-behinds then run only after a dot. The
#: lookahead of the characters an alternative can start with, or a CJK stop before, changes no split.)
_SEGMENT_SPLIT = re.compile(
    r"(?=[\s,，；;然另还同以再]|(?<=[。？！；]))(?:"
    r"(?<=[?!;])\s+|(?<=[。？！；])\s*|(?<=\.)" + _NO_ABBREVIATION + r"\s+(?!(?-i:[a-z]))|,?\s+(?:and\s+)?(?:then|also|while|plus|finally|lastly|after that)\s+(?=\w)|"
    r",\s*(?:and\s+)?next\s+|,\s*(?:and\s+)?(?=(?:the\s+)?(?:first|second|third|fourth|fifth|last|other|latter)\b)|"
    r",\s*(?:and\s+)?(?=(?:another|the same|do the same|repeat)\b)|,\s*and\s+(?=(?:one|for|in|at|with|do|same|the)\b)|"
    r"\s+and\s+(?=(?:another|one|ones|those|the same|repeat|do the same)\b)|,?\s+and\s+(?=(?:how|what)\s)|,\s*(?=(?:considering|assuming)\s+(?:both|each|all|every)\b)|"
    r"(?:然后|另外|还有|同时|以及)|[，,；;]\s*(?:再|接着|接下来|之后|最后)|再(?=把|查|帮|给|订|换|算|发|看|告诉|问))", re.I)


def _segments(text: str) -> list[str]:
    return [s.strip(" ,，") for s in _SEGMENT_SPLIT.split(text) if s and len(s.strip(" ,，")) > 2]


_WEAK_RULES = frozenset({"nullable", "schema default", "default in the description"})


#: A clause about every call so far ("for each day", "both", "with these parameters").
_REFERS_TO_ALL = re.compile(r"\b(?:each|both|every|all (?:of )?(?:these|those|them|the)|these|those)\b|每|都|两个都",
                            re.I)


#: ...unless it asks one more ("another", "a third", "again").
_ONE_MORE = re.compile(r"\b(?:another|again|one more|second|third|fourth|fifth|next|last|other|same)\b|再|另", re.I)


#: A clause that sets up another scenario ("what if...", "...instead").
_NEW_CASE = re.compile(r"\b(?:what if|how about|what about|instead|suppose|scenario|if (?:we|i|you|they|it))\b|如果|假如",
                       re.I)


#: A clause that varies one setting of the first call ("then at a *lower volume of* 1.5", "the rate *drops to* 5%").
_VARIATION = re.compile(r"\b(?:higher|lower|larger|smaller|bigger|greater|longer|shorter|faster|slower|heavier|"
                        r"lighter|warmer|colder|hotter|cooler|deeper|shallower)\s+(?:\w+\s+){0,2}(?:of|at)\b|"
                        r"\b(?:increases?|increased|decreases?|decreased|drops?|dropped|rises?|rose|falls?|fell|"
                        r"goes (?:up|down)|went (?:up|down))\s+to\b|更高|更低|更大|更小|降到|升到|增加到|减少到", re.I)


_FOR_ALL = re.compile(r"\b(?:each|all|both|every|these|those|them|their|they)\b|每|都|分别", re.I)


def _alternate(a: list, b: list) -> bool:
    """True when the values of two slots come in pairs through the text: "$30 in Chicago, $52 in Sacramento"."""
    return all(max(a[i][2], b[i][2]) < min(a[i + 1][2], b[i + 1][2]) for i in range(len(a) - 1))


_ORDINAL = re.compile(r"\b(first|second|third|fourth|fifth|sixth|1st|2nd|3rd|4th|5th|6th)\b|第([一二三四五六1-6])",
                      re.I)


def _ordinal_before(text: str, pos: int) -> str | None:
    """The ordinal that labels the value at ``pos`` ("the *second* object ... 5 m/s"), in its sentence."""
    start = max(text.rfind(".", 0, pos), text.rfind("?", 0, pos), text.rfind("!", 0, pos), 0)
    hits = list(_ORDINAL.finditer(text, start, pos))
    return hits[-1].group(0).lower() if hits else None


def _same_ordinals(text: str, a: list, b: list) -> bool:
    """True when "the first ... the second ..." labels the values of two columns alike: they pair up."""
    la = [_ordinal_before(text, pos) for _, _, pos in a]
    lb = [_ordinal_before(text, pos) for _, _, pos in b]
    return None not in la and len(set(la)) == len(la) and la == lb


def _respective_columns(filled, text: str) -> bool:
    """True when "respectively" pairs lists of values that span the request's sentences.

    "You bought at $150, $200 and $250. You sold them at $180, $210 and $300 respectively.
    You received dividends of $20, $30 and $40": three lists of three, each in its own sentence,
    one call per position; clause by clause they would read as separate calls.
    """
    if not re.search(r"\brespectively\b|分别", text, re.I) or _NEW_CASE.search(text):
        return False
    cols = [col for col in filled.spread.values() if len(col) >= 2]
    return len(cols) >= 2 and len({len(col) for col in cols}) == 1 and not filled.missing


def _respective_members(filled, cols: dict[str, list], text: str) -> dict[str, list]:
    """A list argument that "respectively" pairs with other values: one member per call.

    "Prices for Apple, Microsoft and Tesla over 1, 2 and 3 weeks respectively": the list of
    companies has as many members as the durations, so each call takes one company (as a
    one-member list), in the order said.

    Returns:
        ``{argument: [([member], evidence, position), ...]}`` for such lists, else ``{}``.
    """
    sizes = {len(col) for col in cols.values()}
    if len(sizes) != 1:
        return {}
    n = sizes.pop()
    out = {}
    for k, v in filled.arguments.items():
        if k not in cols and isinstance(v, list) and len(v) == n and all(isinstance(x, str) for x in v):
            at = [text.find(x) for x in v]
            if -1 not in at and at == sorted(at):
                out[k] = [([x], filled.evidence[k], pos) for x, pos in zip(v, at)]
    return out


def _combine(name: str, filled, text: str) -> list[PlannedCall]:
    """The calls a request with several values per argument asks for.

    Arguments whose values alternate through the text ("$30 in Chicago, $52 in Sacramento"), that
    are each said again with their call's value ("in 2000 and 2010 ... 1.2 billion in 2000 and 1.3
    billion in 2010"), or
    that the request pairs with "respectively", go together (one call per pair); independent lists
    multiply ("rock and jazz concerts in Paris and Berlin": four calls).
    """
    cols = {k: v for k, v in filled.spread.items() if len(v) >= 2}
    respectively = re.search(r"\brespectively\b|分别", text, re.I) is not None
    if respectively:
        cols.update(_respective_members(filled, cols, text))
    clusters: list[list[str]] = []
    for k in sorted(cols, key=lambda k: cols[k][0][2]):
        for cl in clusters:
            if len(cols[cl[0]]) == len(cols[k]) and (respectively or _alternate(cols[cl[0]], cols[k])
                                                     or _same_ordinals(text, cols[cl[0]], cols[k])
                                                     or labelled(cols[cl[0]], cols[k], text)):
                cl.append(k)
                break
        else:
            clusters.append([k])
    combos: list[tuple[dict, dict]] = [({}, {})]
    for cl in clusters:
        combos = [({**a, **{k: cols[k][j][0] for k in cl}}, {**e, **{k: cols[k][j][1] for k in cl}})
                  for a, e in combos for j in range(len(cols[cl[0]]))]
    if len(clusters) == 1:
        for k, parts in _lists_by_subject(filled, [cols[k] for k in clusters[0]], text).items():
            for (a, _), part in zip(combos, parts):
                a[k] = part
    return [PlannedCall(name, {**filled.arguments, **a}, {**filled.evidence, **e}, list(filled.missing))
            for a, e in combos]


def _lists_by_subject(filled, cols: list[list], text: str) -> dict[str, list[list]]:
    """A list argument whose members are each said in one subject's stretch of the request.

    "An Italian restaurant in New York that has vegetarian options and a Japanese one in Los
    Angeles that delivers": the calls go with (Italian, New York) and (Japanese, Los Angeles); the
    stretch from one call's first value to the next call's holds that call's members.

    Returns:
        ``{argument: [members of call 0, members of call 1, ...]}`` where every member falls in
        one stretch and every call gets one; else nothing for that argument.
    """
    n = len(cols[0])
    starts = [min(col[j][2] for col in cols) for j in range(n)] + [len(text)]
    low = text.lower()
    out = {}
    for k, v in filled.arguments.items():
        if not isinstance(v, list) or len(v) < 2 or not all(isinstance(x, str) for x in v):
            continue
        parts: list[list] = [[] for _ in range(n)]
        for x in v:
            at = low.find(x.lower())
            j = next((j for j in range(n) if starts[j] <= at < starts[j + 1]), None) if at >= starts[0] else None
            if j is None:
                break
            parts[j].append(x)
        else:
            if all(parts):
                out[k] = parts
    return out


#: "my home in San Francisco", "my friend's house in San Jose": a place of one's own, named once.
_OWN_PLACE = re.compile(r"\b((?:my|our|his|her|their)(?:\s+\w+'s)?\s+(?:home|house|office|work|workplace|hotel|"
                        r"school|apartment|flat))\s+(?:in|at)\s+([A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*)*)")


def resolve_own_places(text: str) -> str:
    """``text`` with "my home", "my office" said again replaced by the place they were said to be in.

    "...from my home in San Francisco to my office in Palo Alto, then from my office to ...,
    and back to my home": the later "my office" is Palo Alto and "my home" San Francisco, as a
    model reads them; the words that name the place the first time stay as they are.
    """
    for own, place in {m.group(1): m.group(2) for m in _OWN_PLACE.finditer(text)}.items():
        text = re.sub(r"\b" + re.escape(own) + r"\b(?!\s+(?:in|at)\s+[A-Z])", place, text)
    return text


#: "there" pointing back at a place ("what time is it there?"), not "there is/are"; 那里, 那儿, 那边.
_THERE = re.compile(r"\bthere\b(?!\s*(?:is|are|was|were|'s|will be|be)\b)|那里|那儿|那边", re.I)


def places_said_again(clauses: list[str]) -> list[str]:
    """``clauses`` with a later "there" (那里) replaced by the place an earlier clause named last.

    ``["What is the weather like in New York", "what time is it there"]`` ->
    ``[..., "what time is it in New York"]``: the second question is about New York, as a model reads it.
    A clause that names a place of its own, or "there is/are", is left as it is."""
    out: list[str] = []
    last: str | None = None
    for k, clause in enumerate(clauses):
        there = bool(last) and _THERE.search(clause) is not None
        # the last clause's places matter only to its own "there" (no clause after it reads them)
        places = lang.find_cities(clause) if there or k < len(clauses) - 1 else []
        if there and not places:
            zh = lang.is_chinese(clause)
            clause = _THERE.sub(lambda m: last if zh else f"in {last}", clause)
        out.append(clause)
        last = places[-1][0] if places else last
    return out


def _calls_for(tool: ToolSpec, text: str) -> list[PlannedCall]:
    """The calls of ``tool`` that ``text`` asks for: one, or several from lists, pairs or clauses."""
    text = resolve_own_places(text)
    vocab = _profile(tool).vocab
    filled = fill_arguments(tool.parameters, text, tool_words=vocab)
    computed = specialists.calls(tool, text, filled)  # a calculator's expression, tickers, a SQL statement
    if computed is not None:
        return [PlannedCall(tool.name, *c) for c in computed]
    _no_echo_of_the_tool(filled, vocab)
    base = PlannedCall(tool.name, filled.arguments, filled.evidence, filled.missing)
    spread = any(len(v) >= 2 for v in filled.spread.values())
    if spread and _respective_columns(filled, text):
        return _combine(tool.name, filled, text)
    if filled.echoes or spread or _NEW_CASE.search(text) or _kinds_recur(text):
        by_clause = _no_echoed_calls(_calls_by_clause(tool, text, filled, vocab), base)
        if len(by_clause) >= 2:
            return by_clause
    if spread:
        return _no_echoed_calls(_combine(tool.name, filled, text), base)
    return [base]


def _no_echoed_calls(calls: list[PlannedCall], whole: PlannedCall) -> list[PlannedCall]:
    """Drop the extra calls that set a value apart by copying another argument's value of the same call.

    "The host is 'plgah.ca' ... the nickname 'PrimaryDB'": a clause that reads the host again as the nickname
    (``nickname="plgah.ca", host="plgah.ca"``) asks for no second server; "play Sabaton ... their album The
    Great War" read as ``track="The Great War", album="The Great War"`` is no second song. A route in legs
    ("from A to B, then from B to C") keeps its calls: B moves between arguments of different calls.
    """
    if len(calls) < 2:
        return calls
    kept = [calls[0]]
    for call in calls[1:]:
        new = {k for k, v in call.arguments.items() if any(k not in c.arguments or c.arguments[k] != v for c in kept)}
        copied = any(isinstance(call.arguments[k], str) and call.arguments[k] and any(
            o != k and v == call.arguments[k] for o, v in call.arguments.items()) for k in new)
        if not copied:
            kept.append(call)
    return kept


def _no_echo_of_the_tool(filled, vocab: frozenset[str]) -> None:
    """"Add a todo" with ``add_todo(text)``: a text read from the request that says nothing but the tool's own
    words names no value; a required one is asked for ("what should it say?") instead of echoing the request."""
    for k, v in list(filled.arguments.items()):
        e = filled.evidence.get(k)
        if not isinstance(v, str) or not isinstance(e, Evidence) or not re.search(r"framing|words|put on the", e.rule):
            continue
        stems = set(lang.content_stems(v))
        if stems and all(lang.matches_any(st, vocab) for st in stems) and not lang.is_chinese(v):
            del filled.arguments[k]
            filled.evidence.pop(k, None)
            filled.missing.append(k)


_RECURRING = frozenset({"number", "place", "name", "quoted", "group", "date", "code", "time"})


def _kinds_recur(text: str) -> bool:
    """True when values of one kind appear in two clauses ("John chose 36 and 48, while Mary chose 60 and 96").

    A cheap test on the reading the fill already made: only then is each clause filled on its own.
    """
    cuts = [m.end() for m in _SEGMENT_SPLIT.finditer(text)]
    if not cuts:
        return False
    seen: dict[str, int] = {}
    for m in read(text).mentions:
        if m.kind in _RECURRING:
            seg = bisect.bisect_right(cuts, m.start)
            if seen.setdefault(m.kind, seg) != seg:
                return True
    return False


def _counts(text: str) -> frozenset[str]:
    """The counts of things a clause announces ("two objects", "four sets", "twice"): how many calls, no value."""
    out = {m.text.strip().lower() for m in read(text).mentions
           if m.kind == "number" and m.get("words") and (m.unit and not m.dim or m.unit == "")
           and re.fullmatch(r"(?:[a-z]+\s+[a-z]+|twice|thrice|once)", m.text.strip().lower())}
    return frozenset(out)


def _said_none(tool: ToolSpec, name: str, clause: str) -> tuple[Any, Evidence] | None:
    """``(0, evidence)`` (or False) when ``clause`` says there is none of what ``name`` counts.

    "...without any acceleration", "did not pay any dividends", "no deposit": a number is 0
    and a flag false, instead of the value the clause would otherwise inherit.
    """
    spec = (tool.parameters.get("properties") or {}).get(name)
    kind = spec.get("type") if isinstance(spec, dict) else None
    if kind not in ("integer", "number", "boolean"):
        return None
    words = [w for w in lang.split_identifier(name) if w not in lang.STOPWORDS and len(w) >= 3]
    for w in words:
        m = re.search(r"\b(?:without(?:\s+any)?|no|zero|(?:not|n't|never)\s+(?:\w+\s+){0,2}any)\s+(?:\w+\s+)?"
                      + re.escape(w[:max(4, len(w) - 2)]) + r"\w*", clause, re.I)
        if m:
            return (False if kind == "boolean" else 0), Evidence("none said", m.group(0))
    return None


def _outranked(name: str, e: Evidence, filled) -> bool:
    """Whether a clause's value for ``name`` is mere words while the request says it outright elsewhere.

    "You are given the data set 'sales_q3' ... experiment with different numbers of trees": the
    clause's "trees" (nothing points at it) is no other data set than the quoted one.
    """
    whole = filled.evidence.get(name)
    return e.rule == "words" and whole is not None and _explicit(whole) and filled.strength.get(name, 0) >= 2.0


def _idiom(e: Evidence) -> bool:
    """Whether a value was only implied by an idiom ("two objects were *dropped*": a start speed of 0).

    Such a clause sets the scene of every call; it asks for no call of its own.
    """
    return AT_REST.fullmatch(_bracketed(e.words)) is not None


def _explicit(e: Evidence) -> bool:
    """Whether a value was said outright (a figure, an option, a name), not implied ("each day" as 24 hours)."""
    return any(ch.isdigit() for ch in _bracketed(e.words)) or e.rule in (
        "enum", "option", "quoted", "place", "name", "date", "code")


def _bracketed(words: str) -> str:
    """The words inside the ``[...]`` of an evidence ("look up [two orders] for" -> "two orders")."""
    m = re.search(r"\[([^\]]*)\]", words)
    return (m.group(1) if m else words).strip().lower()


def _names_tool(value: Any, name: str) -> bool:
    """True when ``value`` is the tool's own name ("use the 'random_forest.train' function"): no argument."""
    return isinstance(value, str) and re.sub(r"[^a-z0-9]+", "_", value.lower()).strip("_") == name.lower()


def _while_at_end(text: str, clause: str) -> bool:
    """Whether ``clause`` is a closing ", while ..." of the request ("..., and finally back home, while
    avoiding toll roads"): a manner of every call, not only of the last one."""
    at = text.rfind(clause)
    return at > 0 and re.search(r"\bwhile\s*$", text[:at]) is not None and \
        not text[at + len(clause):].strip(" .?!\"'")


def _inherits_from(calls: list[PlannedCall], last: list[PlannedCall], clause: str) -> PlannedCall | None:
    """The call whose values a new clause's call takes where it says none of its own.

    The call just before ("the same", "another one with..."), but the first call when the clause
    varies one of its settings ("... at 350 K, and then at a lower volume of 1.5 m^3": the
    volume changes from the first setting, the temperature is the first one again).
    """
    if calls and _VARIATION.search(clause):
        return calls[0]
    return last[-1] if last else None


def _said_in(tool: ToolSpec, seg: str, filled, vocab: frozenset[str]):
    """The values one clause says on its own, strongly enough to ask a call of their own.

    Returns ``(sub, said)``: the clause's own filling and ``{argument: (value, evidence)}`` without
    weak or guessed readings, counts ("two orders"), idioms, the tool's own name and the words of an
    option read again as a free-text value ("the Lamarck model").
    """
    sub = fill_arguments(tool.parameters, seg, tool_words=vocab)
    said = {k: (v, sub.evidence[k]) for k, v in sub.arguments.items()
            if sub.strength.get(k, 0) >= 0.5 and sub.evidence[k].rule not in _WEAK_RULES
            and not sub.evidence[k].rule.startswith("best reading") and not _names_tool(v, tool.name)}
    counts = _counts(seg)
    said = {k: (v, e) for k, (v, e) in said.items() if _bracketed(e.words) not in counts and not _idiom(e)
            and not _outranked(k, e, filled)}
    options = {str(v).lower() for v, e in said.values() if e.rule in ("enum", "option")}
    said = {k: (v, e) for k, (v, e) in said.items()  # "the Lamarck model": an option's words name nothing else
            if e.rule in ("enum", "option") or not isinstance(v, str) or v.lower() not in options}
    return sub, said


def _clause_parts(tool: ToolSpec, segs: list[str], filled, vocab: frozenset[str]) -> list[tuple]:
    """The clauses that say values, each as ``(clause, filling, values said, clause with its lead)``.

    A clause without values is kept as the lead of the next one: its words may frame it ("and what
    if we | ...").
    """
    parts = []
    dropped: list[str] = []
    for seg in segs:
        sub, said = _said_in(tool, seg, filled, vocab)
        if said:
            parts.append((seg, sub, said, " ".join(dropped + [seg])))
            dropped = []
        else:
            dropped.append(seg)
    return parts


def _parts_conflict(parts: list[tuple]) -> bool:
    """Whether the clauses ask separate calls: two give one argument different values, or a later
    one opens a new case ("what if ...")."""
    return any(k in a[2] and k in b[2] and a[2][k][0] != b[2][k][0]
               for i, a in enumerate(parts) for b in parts[i + 1:] for k in a[2]) or \
        any(_NEW_CASE.search(p[3]) for p in parts[1:])


class _ClausePlan:
    """The calls planned so far, clause by clause: every call, the previous clause's calls (``last``)
    and, per call (by ``id``), the arguments it took from the call before or the sentence."""

    def __init__(self) -> None:
        self.calls: list[PlannedCall] = []
        self.last: list[PlannedCall] = []
        self.inherited: dict[int, set[str]] = {}

    def add(self, new: list[PlannedCall]) -> None:
        """Add one clause's new calls; they become the calls the next clause refers to."""
        self.calls.extend(new)
        self.last = new


def _about_all(plan: _ClausePlan, tool: ToolSpec, text: str, seg: str, sub, strong: dict, filled) -> None:
    """A question about the calls so far ("...for each day", "with these parameters") asks no new one.

    It may only add what none of them has yet, or ask each in several ways ("in both X and Y"), or
    ask every call again with new values ("...then estimate both of them for 2023").
    """
    renew = {k: (v, e) for k, (v, e) in strong.items() if _explicit(e)
             and any(k in c.arguments and c.arguments[k] != v for c in plan.calls)}
    if renew:
        again = []
        for c in plan.calls:
            again.append(PlannedCall(tool.name, {**c.arguments, **{k: v for k, (v, _) in renew.items()}},
                                     {**c.evidence, **{k: e for k, (_, e) in renew.items()}},
                                     [m for m in c.missing if m not in renew]))
            plan.inherited[id(again[-1])] = plan.inherited.get(id(c), set()) - set(renew)
        plan.add(again)
        return
    many = {k: col for k, col in sub.spread.items() if len(col) >= 2 and k in strong}
    at = text.find(seg)
    if not many and at >= 0:  # the whole request saw the list the clause alone lost to another slot
        many = {k: col for k, col in filled.spread.items() if len(col) >= 2 and k in strong
                and all(at <= pos < at + len(seg) for _, _, pos in col)}
    if len(many) == 1:
        (k, col), = many.items()
        crossed = []
        for c in plan.calls:
            for v, e, _ in col:
                crossed.append(PlannedCall(tool.name, {**c.arguments, k: v}, {**c.evidence, k: e},
                                           [m for m in c.missing if m != k]))
                plan.inherited[id(crossed[-1])] = plan.inherited.get(id(c), set())
        plan.calls[:] = crossed
        plan.last = crossed
        return
    for c in plan.calls:
        for k, (v, e) in strong.items():
            if k not in c.arguments:
                _give(c, k, v, e)


def _corrects_inherited(plan: _ClausePlan, seg: str, lead: str, strong: dict, clash: set[str]) -> bool:
    """"The second one is in X. I don't need Y for this case": a clause that only corrects what its
    calls inherited asks no new call; it sets its values on them. Returns whether it did."""
    last = plan.last
    if not (last and clash and not _ONE_MORE.search(lead) and not _NEW_CASE.search(lead) and
            not _VARIATION.search(seg) and
            all(k in plan.inherited.get(id(c), ()) for c in last for k in clash if k in c.arguments)):
        return False
    for c in last:
        for k, (v, e) in strong.items():
            if k in clash or k not in c.arguments:
                _give(c, k, v, e)
                plan.inherited.get(id(c), set()).discard(k)
    return True


def _once_more(plan: _ClausePlan, tool: ToolSpec, strong: dict) -> None:
    """"...and then what if we allow transfers?": the previous calls once more, with the new details."""
    new = []
    for c in plan.last:
        args, ev = dict(c.arguments), dict(c.evidence)
        for k, (v, e) in strong.items():
            args[k], ev[k] = v, e
        new.append(PlannedCall(tool.name, args, ev, [m for m in c.missing if m not in args]))
        plan.inherited[id(new[-1])] = set(c.arguments) - set(strong)
    plan.add(new)


def _clause_call(tool: ToolSpec, seg: str, sc: PlannedCall, sub, strong: dict, prev: PlannedCall | None,
                 shared: dict, filled) -> tuple[PlannedCall, set[str]]:
    """One new call of a clause: its own values, then the call before's ("the same", "another one
    with..."), then the details said once for all. Returns the call and the arguments it inherited."""
    args: dict = {}
    ev: dict = {}
    took: set[str] = set()
    for k in list(tool.parameters.get("properties") or {}):
        if k in sc.arguments and (k in strong or sub.strength.get(k, 0) >= 0.8 and not _outranked(
                k, sc.evidence[k], filled) or k in sub.spread):
            args[k], ev[k] = sc.arguments[k], sc.evidence[k]
        elif prev is not None and k in prev.arguments:
            args[k], ev[k] = prev.arguments[k], prev.evidence[k]
            took.add(k)
        elif k in shared:
            args[k], ev[k] = shared[k]
            took.add(k)
        elif k in sc.arguments:
            args[k], ev[k] = sc.arguments[k], sc.evidence[k]
    for k in list(took):  # "a third car ... without any acceleration": not the value before, none
        none = _said_none(tool, k, seg)
        if none is not None:
            args[k], ev[k] = none
            took.discard(k)
    missing = [m for m in filled.missing + sc.missing if m not in args]
    return PlannedCall(tool.name, args, ev, list(dict.fromkeys(missing))), took


def _new_clause_calls(plan: _ClausePlan, tool: ToolSpec, seg: str, sub, strong: dict, shared: dict, filled) -> None:
    """The calls of a clause that asks its own (several when it lists values of one kind)."""
    prev = _inherits_from(plan.calls, plan.last, seg)
    seg_calls = _combine(tool.name, sub, seg) if any(len(v) >= 2 for v in sub.spread.values()) else \
        [PlannedCall(tool.name, dict(sub.arguments), dict(sub.evidence), list(sub.missing))]
    new = []
    for sc in seg_calls:
        call, took = _clause_call(tool, seg, sc, sub, strong, prev, shared, filled)
        new.append(call)
        plan.inherited[id(call)] = took
    plan.add(new)


def _plan_clause(plan: _ClausePlan, tool: ToolSpec, text: str, part: tuple, shared: dict, filled) -> None:
    """Plan one clause that says values: about every call so far, a correction, the same call once
    more, more details of the calls before, or calls of its own."""
    seg, sub, strong, lead = part
    if len(plan.calls) >= 2 and _REFERS_TO_ALL.search(seg) and not _ONE_MORE.search(seg):
        _about_all(plan, tool, text, seg, sub, strong, filled)
        return
    last = plan.last
    clash = {k for c in last for k, (v, _) in strong.items() if k in c.arguments and c.arguments[k] != v}
    if _corrects_inherited(plan, seg, lead, strong, clash):
        return
    if last and not clash and _NEW_CASE.search(lead) and any(k not in c.arguments for c in last for k in strong):
        _once_more(plan, tool, strong)
        return
    if last and not clash:
        # more details of the same call(s); "for each of them..." details every call so far
        for c in (plan.calls if _FOR_ALL.search(seg) or _while_at_end(text, seg) else last):
            for k, (v, e) in strong.items():
                if k not in c.arguments:
                    _give(c, k, v, e)
        return
    _new_clause_calls(plan, tool, seg, sub, strong, shared, filled)


def _calls_by_clause(tool: ToolSpec, text: str, filled, vocab: frozenset[str]) -> list[PlannedCall]:
    """One call (or several) per clause that gives its own values: "...for $2000. Do the same for $5000."

    A clause that only adds details merges into the call before it; a value not repeated is
    inherited from the call before ("the same", "another one with...") or from the sentence.
    """
    segs = _segments(text)
    if len(segs) < 2:
        return []
    parts = _clause_parts(tool, segs, filled, vocab)
    if len(parts) < 2 or not _parts_conflict(parts):
        return []
    shared = {k: (v, filled.evidence[k]) for k, v in filled.arguments.items()
              if not any(k in p[2] for p in parts)}  # details said once for all ("in Paris")
    plan = _ClausePlan()
    for part in parts:
        _plan_clause(plan, tool, text, part, shared, filled)
    complete = [c for c in plan.calls if not c.missing]
    # a clause that set one value before the real ones ("a two-day trip. On the first day...") is no call
    return complete if complete and len(complete) < len(plan.calls) else plan.calls


#: A clause that asks *not* to do something ("don't check the weather, ...", "no need to ...", "不要查天气").
_NEGATED_LEAD = re.compile(r"^\s*(?:(?:please|just|but|and)\s+)?(?:don'?t|do not|no need to|there'?s no need to|"
                           r"you don'?t (?:need|have) to|never mind|without)\b|^\s*(?:不要|别|不用|无需|不需要|不必)", re.I)


#: (A dot inside a word, "a.txt", "v1.2", ends no clause.)
_CLAUSE_EDGE = re.compile(r"((?:[,;!?，。；！？]|\.(?!\w))+\s*|\s+(?:but|instead)\s+)")


def _names_a_tool(clause: str, tools: list[ToolSpec]) -> bool:
    """Whether ``clause`` uses a word of some tool's name ("weather" for ``get_weather``): it names the action."""
    concepts = _user_concepts(clause)[0]
    return any(w >= NAMESPACE_WEIGHT and st in concepts for t in tools for st, w in _profile(t).name_words)


def without_negated(text: str, tools: list[ToolSpec]) -> str:
    """``text`` without the clauses that ask not to do what a tool does, or only speak of it: they must not call it.

    "Don't check the weather, just tell me the capital of France" -> "just tell me the capital of France".
    A request that is nothing but such clauses ("Don't book anything yet.") asks for no call at all.
    A negated detail that names no tool ("Don't include the window area") stays: it is an argument.
    A clause that forbids, asks for advice, tells of the past or asks about a state (:mod:`.speech_acts`:
    "Never delete ...", "Should I delete ...?", "I cancelled ...", "Is the light on?") is left out when it names
    a tool that changes something; a clause that withdraws ("Actually no, keep it") takes all before it along.
    """
    return set_aside(text, tools)[0]


def set_aside(text: str, tools: list[ToolSpec]) -> tuple[str, list[tuple[str, str]]]:
    """The request without the clauses it asks no action of, and those clauses with why (:func:`without_negated`).

    Returns:
        ``(kept text, [(clause, kind), ...])``, ``kind`` one of ``"negated"`` ("Don't check the weather"),
        :func:`.speech_acts.not_asked`'s kinds (``"forbidding"``, ``"advice"``, ``"past"``,
        ``"state_questions"``) or ``"withdrawn"`` (a request taken back: "Delete a.txt. Actually no, keep it.").
    """
    parts = _CLAUSE_EDGE.split(text)
    clauses = [(parts[k], parts[k + 1] if k + 1 < len(parts) else "") for k in range(0, len(parts), 2)]
    last_withdrawal = max((i for i, (c, _) in enumerate(clauses) if i and speech_acts.withdraws(c)), default=0)
    aside: list[tuple[str, str]] = []
    if last_withdrawal:
        aside += [(c.strip(), "withdrawn") for c, _ in clauses[:last_withdrawal] if c.strip()]
        end = last_withdrawal  # "Actually no, keep it": the clauses that go on taking it back are the withdrawal's
        while end + 1 < len(clauses) and not _names_a_tool(clauses[end + 1][0], tools) and \
                speech_acts.withdraws("".join(c + sep for c, sep in clauses[last_withdrawal:end + 2])):
            end += 1
        clauses = clauses[end + 1:]
    negated = _NEGATED_LEAD.search(text) or re.search(r"[,;.!?，。；！？]\s*(?:don'?t|do not|no need|不要|别|不用)",
                                                       text, re.I)
    changing = [t for t in tools if speech_acts.changes_something(t.name)]
    kept = []
    for c, sep in clauses:
        kind = "negated" if negated and _NEGATED_LEAD.search(c) and _names_a_tool(c, tools) else (
            speech_acts.not_asked(c + sep) if changing and _names_a_tool(c, changing) else None)
        if kind:
            aside.append((c.strip(), kind))
        else:
            kept.append(c + sep)
    if not last_withdrawal and len(kept) == len(clauses):
        return text, []
    return "".join(kept).strip(" ,，"), aside


def without_unserved_actions(text: str, tools: list[ToolSpec]) -> str:
    """``text`` without the clauses that ask an action of their own which no tool does (:func:`.accounts.unserved`):
    "What's the weather in Paris and book me a flight to Rome" with only a weather tool asks no weather in Rome;
    the flight's city is no value for another tool's call. Clauses without such a verb, or with a word of some
    tool after it ("..., and add breakfast" of a hotel tool offering breakfast), stay: their words may be details
    of the request. The reply says which clause none of the tools helps with."""
    vocab = frozenset().union(*(_profile(t).vocab | frozenset(_profile(t).weights) for t in tools)) if tools else frozenset()
    for clause in accounts.unserved(text, tools):
        at = text.find(clause)
        if at >= 0 and accounts.ACTION_LEAD.match(clause) and not any(
                lang.matches_any(st, vocab) for st in lang.content_stems(clause)[1:]):  # (a word of a tool: a detail)
            head = re.sub(r"(?:[\s,，;；]*(?:\band\b|\bthen\b|\balso\b|然后|并且|再))*[\s,，;；]*$", "", text[:at])
            text = (head + text[at + len(clause):]).strip(" ,，")
    return text


def plan_calls(text: str, tools: list[ToolSpec]
               ) -> tuple[list[PlannedCall], dict[str, float], dict[str, list[str]], str]:
    """Every call the request ``text`` needs, with the scores behind the choice.

    Clauses that ask not to do something are left out first (:func:`without_negated`).

    Returns:
        ``(calls, scores, matched words, why not)``: ``why not`` says why a tool that shares
        words with the request was not called (:mod:`.purpose`), else "".
    """
    text = without_unserved_actions(without_negated(text, tools), tools)
    ranked = score_tools(text, tools)
    distinct = dict(_DISTINCT)  # as the whole request left it, before its clauses are scored
    scores = {t.name: s for t, s, _ in ranked}
    matched = {t.name: m for t, _, m in ranked}
    if not ranked or ranked[0][1] < THRESHOLD:
        return [], scores, matched, ""
    keep, why_not = _serving_purpose(text, ranked)
    # (before the reminders' contents are set aside: "Remind me to close the windows if it rains in Oslo")
    gated = conditional_calls(text, [r[0] for r in keep]) if keep and keep[0][1] >= THRESHOLD else []
    if gated:
        return gated, scores, matched, ""
    keep = _reminded(text, keep)
    if not keep or keep[0][1] < THRESHOLD:
        return [], scores, matched, why_not
    if len(keep) < len(ranked):
        ranked = keep
        tools = [r[0] for r in keep]
    planned: dict[str, list[PlannedCall]] = {}  # the whole request's calls of each tool tried, planned once
    picks = _picks(text, tools, ranked, distinct, planned)
    calls: list[PlannedCall] = []
    wholes: dict[str, Any] = {}
    for index, (tool, clause) in enumerate(picks):
        earlier = any(not c.from_results for c in calls)  # something before it produces results
        slots = _result_slots(tool, clause) if earlier and clause != text else ()
        for call in (planned.pop(tool.name) if clause == text and tool.name in planned else _calls_for(tool, clause)):
            _place_call(call, index, slots, tool, clause, text, wholes)
            if all(c.key() != call.key() for c in calls):
                calls.append(call)
    calls += [PlannedCall(t.name, a, clause=len(picks)) for t, a in arithmetic.unserved(  # "7 + 5, and 20 - 8"
        tools, text, [(c.name, c.arguments) for c in calls])]
    asked_by = [clause if clause != text else "" for _, clause in picks]
    calls = without_competing_values(one_place_as_written(calls, text), tools, text)
    return without_bare_calls(calls, tools, text, asked_by), scores, matched, ""


def conditional_calls(text: str, tools: list[ToolSpec]) -> list[PlannedCall]:
    """The calls of a conditional request: the condition's now, the consequence's waiting for its results.

    "If it rains in Shanghai, remind me to take an umbrella" -> ``get_weather(city="Shanghai")`` and
    ``create_reminder(text="take an umbrella")`` with ``condition="it rains in Shanghai"`` (made after the
    weather result, only if it says rain: :func:`.conditions.holds`); an "otherwise" part's calls are clause 2,
    made when it does not hold. The condition's calls take its words without the number it compares
    ("warmer than 20°C": :func:`.conditions.checked_text`). Only when each half picks a tool of
    its own above the threshold, different ones; else ``[]`` ("If I invest $5000 at 5%, what is the
    interest?" is one call of one tool with those values).
    """
    cond = conditions.split(text) if len(tools) > 1 else None
    if cond is None:
        return []
    pair = _condition_and_consequence(cond, tools)
    if pair is None:
        return []  # the consequence asks the condition's own tool again, or none
    first, then = pair
    now = _calls_for(first[0], conditions.checked_text(cond))
    later = [replace(c, clause=1, condition=cond.condition) for c in _calls_for(then[0], cond.consequence)]
    if cond.otherwise:  # "..., otherwise set it to 18°C": the consequence's tool unless it names another
        other = next((r for r in score_tools(cond.otherwise, tools) if r[0].name != first[0].name), then)
        tool = other[0] if other[1] >= THRESHOLD and _names_its_action(other, first[0]) else then[0]
        later += [replace(c, clause=2, condition=cond.condition) for c in _calls_for(tool, cond.otherwise)]
    return now + later


def _condition_and_consequence(cond, tools: list[ToolSpec]) -> tuple[tuple, tuple] | None:
    """The scored tools of a condition and of its consequence, two different ones: the condition's best tool and
    the consequence's best other tool that names its own action, or else the consequence's best tool and the
    condition's best other one ("If order B-77 has shipped, cancel order B-77": cancel_order scores the condition's
    "order" too). None when no such pair is above the threshold."""
    on_cond, on_then = score_tools(cond.condition, tools), score_tools(cond.consequence, tools)
    for first, then in ((on_cond[0], next((r for r in on_then if r[0].name != on_cond[0][0].name), None)),
                        (next((r for r in on_cond if r[0].name != on_then[0][0].name), None), on_then[0])):
        if first is not None and then is not None and min(first[1], then[1]) >= THRESHOLD and \
                _names_its_action(then, first[0]):
            return first, then
    return None


def _names_its_action(ranked: tuple[ToolSpec, float, list[str]], other: ToolSpec) -> bool:
    """Whether a scored tool matched a word of its own name that ``other``'s name lacks ("buy" of buy_stock
    beside get_stock_price in "buy 10 shares of AAPL"; "remind" of create_reminder): it is asked for itself."""
    tool, _, matched = ranked
    mine = {st for st, _ in _profile(tool).name_words} - {st for st, _ in _profile(other).name_words}
    return any(lang.word_matches(m, st) for m in matched for st in mine)


def _serving_purpose(text: str, ranked: list) -> tuple[list, str]:
    """The ranked tools whose purpose the request asks for, and why the first one left out was left out.

    A tool that shares words but gives something else is not a candidate (freezing vs boiling point,
    :mod:`.purpose`); tools below the threshold are kept as they are (they are not called anyway).
    """
    why_not = ""
    keep = []
    for r in ranked:
        why = purpose.mismatch(text, r[0].name, r[0].description) if r[1] >= THRESHOLD else None
        if why:
            why_not = why_not or why
        else:
            keep.append(r)
    return keep, why_not


@lru_cache(maxsize=1)
def _reminder_words() -> tuple[re.Pattern, frozenset[str]]:
    data = load_json("reminders.json")
    return re.compile("|".join(data["frames"]), re.I), frozenset(data["tool_words"])


def reminds(tool: ToolSpec) -> bool:
    """Whether ``tool`` sets reminders: its name or description has a word of ``reminders.json``'s ``tool_words``
    (``set_reminder``, ``create_alarm``, "Add a to-do", 设置提醒)."""
    words = _reminder_words()[1]
    said = {w.lower() for w in lang.split_identifier(tool.name)} | set(re.findall(r"[a-z-]+", tool.description.lower()))
    return bool(said & words) or any(w in tool.description for w in words if not w.isascii())


def reminder_contents(text: str) -> list[tuple[int, int]]:
    """The spans of ``text`` that a reminder reminds of: from a frame ("remind me to", 提醒我) to the clause's end.

    >>> text = "Remind me to water pot 3 at 7pm"
    >>> [text[a:b] for a, b in reminder_contents(text)]
    ['water pot 3 at 7pm']
    """
    spans = []
    for m in _reminder_words()[0].finditer(text):
        edge = _CLAUSE_EDGE.search(text, m.end())
        start = m.end() + len(text[m.end():]) - len(text[m.end():].lstrip())
        spans.append((start, edge.start() if edge else len(text)))
    return spans


def _reminded(text: str, ranked: list) -> list:
    """``ranked`` without the tools chosen only for what a reminder reminds of ("Remind me to send the report":
    ``send_report`` is the reminder's content, not an action asked for now); a reminder tool stays.
    A tool still above the threshold with the reminders' contents left out is asked for on its own."""
    spans = reminder_contents(text)
    if not spans or not ranked:
        return ranked
    masked = list(text)
    for a, b in spans:
        masked[a:b] = " " * (b - a)
    others = [r[0] for r in ranked if not reminds(r[0])]
    still = {t.name: s for t, s, _ in score_tools("".join(masked), others)} if others else {}
    return [r for r in ranked if reminds(r[0]) or still.get(r[0].name, 0.0) >= THRESHOLD]


def _picks(text: str, tools: list[ToolSpec], ranked: list, distinct: dict,
           planned: dict[str, list[PlannedCall]]) -> list[tuple[ToolSpec, str]]:
    """Which tool serves which part of the request: ``[(tool, clause)]``, a clause being ``text`` itself
    when one tool serves the whole request (then its calls may already be in ``planned``)."""
    clauses = split_clauses(text)
    picks: list[tuple[ToolSpec, str]] = []
    if len(clauses) > 1 and len(tools) > 1 and len(tools) <= 64:
        for clause in places_said_again(clauses):
            if states_a_detail(clause):
                continue  # a value for the request around it, not a request of its own
            best = score_tools(clause, tools)[0]
            if best[1] >= THRESHOLD:
                picks.append((best[0], clause))
    if len({t.name for t, _ in picks}) <= 1 and len(tools) > 1:
        picks = _two_things_asked(text, tools) or picks
    if len({t.name for t, _ in picks}) <= 1:
        picks = [(_fillable_choice(ranked, _best(ranked, distinct, text), text, planned), text)]
    return picks


def _place_call(call: PlannedCall, index: int, slots: tuple, tool: ToolSpec, clause: str, text: str,
                wholes: dict[str, Any]) -> None:
    """Set ``call`` (planned from ``clause``, the ``index``-th part) in its place in the request ``text``.

    Its ``slots`` are written later from the earlier clauses' results, not copied from the words; a value
    the clause omits but the whole sentence says is taken from the whole (read once per tool into ``wholes``,
    not once per clause: linear in the text).
    """
    call.clause = index
    if slots:
        call.from_results = slots
        for slot in slots:
            call.arguments.pop(slot, None)
            call.evidence.pop(slot, None)
        call.missing = [m for m in call.missing if m not in slots]
    if call.missing and clause != text:
        if tool.name not in wholes:
            wholes[tool.name] = fill_arguments(tool.parameters, text, tool_words=_profile(tool).vocab)
        whole = wholes[tool.name]
        for m in list(call.missing):
            if m in whole.arguments:
                call.arguments[m] = whole.arguments[m]
                call.evidence[m] = whole.evidence[m]
                call.missing.remove(m)


#: "the weather and time in San Francisco", 北京的天气和时间: two things asked of one place.
_TWO_THINGS = re.compile(r"\b(?:the\s+)?([a-z]+)\s+and\s+(?:the\s+)?([a-z]+)(?=\s+(?:in|for|at|of)\s+\S)"
                         r"|的([\u4e00-\u9fff]{2})(?:和|与|跟)([\u4e00-\u9fff]{2})", re.I)


def _two_things_asked(text: str, tools: list[ToolSpec]) -> list[tuple[ToolSpec, str]]:
    """Two tools for one clause that asks two things of one place, each its tool's own word: "What's the weather
    and time in San Francisco?" -> get_weather for "weather in San Francisco", get_time for "time in ...".
    Each reading is the request with one of the two words left out; both must pick a tool, not the same one."""
    m = _TWO_THINGS.search(text)
    if m is None:
        return []
    a, b = (1, 2) if m.group(1) else (3, 4)
    first = text[:m.start(a)] + text[m.start(a):m.end(a)] + text[m.end(b):]
    second = text[:m.start(a)] + text[m.start(b):m.end(b)] + text[m.end(b):]
    picks = []
    for clause, word in ((first, m.group(a)), (second, m.group(b))):
        best = score_tools(clause, tools)[0]
        if best[1] < THRESHOLD or not _names_it(best[0], word, best[2]):
            return []
        picks.append((best[0], clause))
    return picks if picks[0][0].name != picks[1][0].name else []


def _names_it(tool: ToolSpec, word: str, matched: list[str]) -> bool:
    """Whether ``word`` is one of ``tool``'s own name words ("weather" for get_weather), or, in Chinese, a word it
    matched: "go online and search for movies" asks no streaming tool that only describes itself as online."""
    if lang.is_chinese(word):
        return word in matched or any(c in matched for c in lang.chinese_concepts(word))
    st = lang.stem(word)
    return any(n == st or lang.word_matches(n, st) for n, _ in _profile(tool).name_words)


#: The evidence rule of a text argument that is its clause without the clause's framing.
_OWN_CLAUSE = "the request without its framing"


def _own_values(call: PlannedCall, others: list[PlannedCall], text: str, clauses: list[str] | None = None
                ) -> list[str]:
    """The arguments of ``call`` that the request said or that were read from its words (not free words, not
    a guess; a clause of its own as the text, "ask the agent for X, then ...", is said) with a value no other
    call carries, or that every call carrying it read in the clause that asked for it (``clauses``, by
    :attr:`PlannedCall.clause`): "北京天气怎么样？那里现在几点？" asks both tools about 北京, each in its own clause;
    a value one call only copied from the rest of the request stays a copy."""
    def key(v: Any) -> str:
        return json.dumps(v, sort_keys=True, default=str)
    theirs = {key(v) for c in others for v in c.arguments.values()}
    def strong(k: str, v: Any) -> bool:
        rule = getattr(call.evidence.get(k), "rule", "") or ""
        return rule == _OWN_CLAUSE or rule_class(rule, v, text) in ("said", "read")
    def in_own_clause(c: PlannedCall, k: str) -> bool:
        words = getattr(c.evidence.get(k), "words", "") or ""
        clause = _clause_of(c, clauses)
        return bool(words) and bool(clause) and words in clause
    def own(k: str, v: Any) -> bool:
        if key(v) not in theirs:
            return True
        holders = [(c, j) for c in others for j, w in c.arguments.items() if key(w) == key(v)]
        return isinstance(v, (str, bool)) and in_own_clause(call, k) and all(in_own_clause(c, j) for c, j in holders)
    return [k for k, v in call.arguments.items() if strong(k, v) and own(k, v)]


def _differ_in_one(a: PlannedCall, b: PlannedCall) -> str | None:
    """The one argument two calls of the same tool differ in, or None (another tool, or more than one)."""
    if a.name != b.name or a.arguments.keys() != b.arguments.keys():
        return None
    diff = [k for k in a.arguments if a.arguments[k] != b.arguments[k]]
    return diff[0] if len(diff) == 1 else None


#: After two values a comma apart, what makes them items of a list ("navy, purple and maroon", "New York, Los
#: Angeles, London and Tokyo", "gold, silver, platinum, and palladium"), not a place and its region.
_LIST_GOES_ON = re.compile(r"\s*(?:,\s*)?(?:and|or|&)\b|\s*,\s*[^,.?!;]{1,30}?(?:\s(?:and|or)\b|,)", re.I)


def _in_a_list(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` ("A, B") is part of a longer list: an item before it or after it."""
    return bool(re.search(r",\s*$|\band\s*$", text[:start])) or bool(_LIST_GOES_ON.match(text, end))


def one_place_as_written(calls: list[PlannedCall], text: str) -> list[PlannedCall]:
    """Two calls of one tool that differ only in a text value the request writes as one place, its parts a comma
    apart ("Lagunitas, CA", "Vancouver, BC", "London, England"), become one call: the place is one value, not
    two ("the weather in Lagunitas, CA" asks for one forecast). The first call stays with the place as written,
    or as it is when it already holds a region ("London, UK" for "London, England" in a 'City, Country' format).
    """
    out = list(calls)
    for i, a in enumerate(calls):
        for b in calls[i + 1:]:
            key = _differ_in_one(a, b) if a in out and b in out else None
            va, vb = (a.arguments.get(key), b.arguments.get(key)) if key else (None, None)
            if not (isinstance(va, str) and isinstance(vb, str) and va and vb):
                continue
            head = va.split(",")[0].strip()
            written = re.search(rf"(?<!\w){re.escape(head)},\s*{re.escape(vb)}(?!\w)", text, re.I)
            if not written or (not re.fullmatch(r"[A-Z]{2,3}", vb) and _in_a_list(text, *written.span())):
                continue  # "navy, purple and maroon": a list; "Vancouver, BC": a place and its region
            value = va if "," in va else written.group(0)
            out[out.index(a)] = replace(a, arguments={**a.arguments, key: value})
            out.remove(b)
    return out


def _weak_value(call: PlannedCall, key: str, other: PlannedCall, spec: dict, text: str = "",
                vocab: frozenset[str] = frozenset()) -> bool:
    """Whether ``call``'s value of ``key`` loses to ``other``'s: it is the value another of its own arguments holds
    (a password that is the database's name; text values only), it lacks the format the description asks for (a departure date
    "JFK" for 'YYYY-MM-DD'), it is one of the tool's own words that ``text`` only capitalises because a sentence
    starts with it (:func:`_sentence_opener`), or it is part of the other value ("Karan" beside "Karan Sharma")."""
    mine, theirs = call.arguments[key], other.arguments[key]
    if not (isinstance(mine, str) and isinstance(theirs, str)):
        return False  # (a number may well equal another: a charge of 2 at 2 meters)
    if any(v == mine for k, v in call.arguments.items() if k != key):
        return True
    if _sentence_opener(mine, text, vocab) and not _sentence_opener(theirs, text, vocab):
        return True
    if _off_format(mine, spec) and not _off_format(theirs, spec):
        return True
    return len(mine) < len(theirs) and re.search(rf"(?<!\w){re.escape(mine)}(?!\w)", theirs) is not None


#: The verbs a request opens a sentence with ("Find", "Get", "Check"): the generic words of tool names.
_REQUEST_VERBS = frozenset(lang.stem(w) for w in GENERIC_NAME_WORDS)


def _sentence_opener(value: str, text: str, vocab: frozenset[str]) -> bool:
    """Whether ``value`` is one word of the tool's own or a request verb (``vocab``, stems) that ``text`` writes only where a sentence
    or a clause starts ("..., Find a selection of tracks", "Query this to the llm"): a verb the request opens
    with, capitalised by its place, not a name."""
    if not value or " " in value.strip() or lang.stem(value.lower()) not in vocab:
        return False
    at = [m.start() for m in re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", text)]
    return bool(at) and all(re.search(r"(?:^|[.!?;:,]\s*)$", text[:i]) for i in at)


def without_competing_values(calls: list[PlannedCall], tools: list[ToolSpec], text: str = "") -> list[PlannedCall]:
    """Of two calls of one tool that differ in one argument, the call whose value there is weak
    (:func:`_weak_value`) while the other's is not: the request states one value, the reading found two
    candidates for it ("the database 'maindb' ... the password 'securepassword123'" read a password twice).
    Two sound values ("Paris and Tokyo") both stay."""
    specs = {t.name: ((t.parameters or {}).get("properties") or {}) for t in tools}
    vocabs = {t.name: _profile(t).vocab | frozenset(_profile(t).weights) | _REQUEST_VERBS for t in tools}
    out = list(calls)
    for i, a in enumerate(calls):
        for b in calls[i + 1:]:
            key = _differ_in_one(a, b) if a in out and b in out else None
            if key is None:
                continue
            spec = specs.get(a.name, {}).get(key) or {}
            vocab = vocabs.get(a.name, frozenset())
            weak_a, weak_b = _weak_value(a, key, b, spec, text, vocab), _weak_value(b, key, a, spec, text, vocab)
            if weak_a != weak_b:
                out.remove(a if weak_a else b)
    return out


def without_bare_calls(calls: list[PlannedCall], tools: list[ToolSpec], text: str,
                       clauses: list[str] | None = None) -> list[PlannedCall]:
    """The calls without those that carry nothing of their own beside the others.

    A model calls a second tool for a second thing the user said: a call of another tool whose every value is
    free words, a guess or a copy of another call's ("the status" read as a project name, the page size of the
    first call copied into an alerts tool), or that fills none of its parameters, is no such thing; nor is a
    call of the same tool whose arguments an earlier call of it holds too (an earlier call with fewer
    arguments stays: "by bus, and then with transfers allowed" varies it). A tool without parameters has
    nothing to carry ("what time is it?"): its call stays. A lone call always stays.
    """
    if len(calls) < 2:
        return calls
    takes = {t.name: bool((t.parameters or {}).get("properties")) for t in tools}
    kept = list(calls)
    for i, call in enumerate(calls):
        others = [c for c in kept if c is not call]
        same = [c for c in others if c.name == call.name]
        earlier = [c for c in calls[:i] if c.name == call.name and c in kept]  # (a later one may vary an earlier)
        if any(call.arguments.items() <= c.arguments.items() for c in earlier) or (
                not same and takes.get(call.name, True) and not call.from_results
                and not _own_values(call, others, text, clauses)):
            kept = others
    return kept


def _clause_of(call: PlannedCall, clauses: list[str] | None) -> str:
    """The clause that asked for ``call`` (its own tool's pick), or "" when the whole request did."""
    return clauses[call.clause] if clauses and 0 <= call.clause < len(clauses) else ""


#: Words by which a clause points back at what earlier clauses produce ("save *it*", "*a summary*").
_REFERS_BACK = re.compile(r"\b(?:it|them|the (?:results?|answers?|numbers?|figures?|totals?|findings|outcome)|"
                          r"(?:a|the|short|brief) summary|summari[sz]e)\b|结果|总结|摘要|汇总", re.I)


#: Names of text arguments that carry such a summary.
_RESULT_SLOT_WORDS = frozenset({"content", "text", "body", "summary", "message", "note", "notes", "report",
                                "details"})


def _result_slots(tool: ToolSpec, clause: str) -> tuple[str, ...]:
    """The free-text arguments of ``tool`` to write from earlier results, when ``clause`` refers to them."""
    if not _REFERS_BACK.search(clause):
        return ()
    out = []
    for name, spec in (tool.parameters.get("properties") or {}).items():
        spec = spec if isinstance(spec, dict) else {}
        words = set(lang.split_identifier(name))
        if spec.get("type") == "string" and not spec.get("enum") and words & _RESULT_SLOT_WORDS:
            out.append(name)
    return tuple(out)
