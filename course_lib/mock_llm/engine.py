"""The mock LLM's decision: answer in text, call one tool, or call several.

Theory of operation. For the user's last message the engine

1. scores every tool by the words they share (tool name words weigh most, then the
   description, then parameter names and enum values; Chinese words are mapped to the
   English concepts of :data:`~course_lib.mock_llm.language.ZH_LEXICON` and CJK bigrams
   match Chinese descriptions directly);
2. keeps the tools that score above :data:`THRESHOLD` with at least one strong word:
   none -> a text answer (a greeting, or an honest "no tool fits");
3. splits the request into clauses ("... in Paris, and what time is it in Tokyo") so
   each clause can pick its own tool, and expands a clause naming several places into
   parallel calls of the same tool;
4. fills the arguments from the words (:mod:`.arguments`); a required argument that is
   nowhere in the text makes it ask a clarifying question instead of guessing;
5. after ``role: "tool"`` results, calls what is still missing (the next city when
   ``parallel_tool_calls`` is false, an alternative tool when one failed), or writes
   the final answer from the results (:mod:`.answer`).

In a conversation it also reads the turns before: the user's answer to its own clarifying
question completes the call it asked about (values from both messages), and a question that a
tool result already in the conversation answers ("Should I take an umbrella?") gets its answer
without a new call.

A clause that refers back to what earlier clauses produce ("get the 2024 revenue, then
save *a summary* to the wiki") waits for their results: its text argument (``content``,
``text``, ``summary``...) is written from those results, as a model writes a summary of
what a tool returned, instead of being copied from the request.

The same request always yields the same decision. :class:`Decision` keeps the scores and
the evidence so a lesson can show *why* a tool was chosen.
"""
from __future__ import annotations

import bisect
import json
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from . import arithmetic
from . import confidence
from . import gazetteer as gz
from . import language as lang
from . import purpose
from . import relations
from . import specialists
from . import tickers
from . import unit_enums
from .answer import advice, compose_answer, error_of
from .arguments import Evidence, LOCATION_HINTS, fill_arguments, labelled, slots_of
from .reading import AT_REST, read
from .wire import ChatRequest, ToolSpec

THRESHOLD = 1.5
MAX_TOOL_ROUNDS = 6
_GREETING = re.compile(r"^\s*(hi|hello|hey|good (morning|afternoon|evening)|你好|您好|嗨)\b", re.I)
#: A message that is nothing but thanks, agreement or goodbye ("Thanks, that is all!", "好的，谢谢"): it asks
#: for nothing, so it gets a courtesy reply, neither a tool call nor the "no tool fits" refusal.
_COURTESY = re.compile(
    r"^(?:(?:ok(?:ay)?|great|perfect|cool|nice|awesome|good|alright|all right|got it|sounds good|thanks?(?: you)?"
    r"(?: (?:so|very) much| a lot| a bunch| again)?|thx|ty|cheers|many thanks|much appreciated|appreciate it|"
    r"that(?:'s| is| was| will be) (?:all|it|everything|great|helpful|perfect|enough)(?: for (?:now|today))?|"
    r"bye|goodbye|see you|nothing (?:more|else)(?: for now)?|no more questions|i'?m (?:done|good|all set)|"
    r"(?:好的|好|行|嗯|谢谢(?:你|您)?|多谢|感谢|辛苦了|没有?(?:别的|其他)?(?:的)?(?:问题|事情?)?了|就这样(?:吧)?|再见|拜拜|不用了|"
    r"明白了|知道了|太好了))[\s,.!?~，。！？、]*)+$", re.I)
_THANKED = re.compile(r"thank|thx|\bty\b|cheers|appreciat|谢|感谢|辛苦", re.I)
_FAREWELL = re.compile(r"\bbye\b|goodbye|see you|再见|拜拜", re.I)


def courtesy_reply(text: str) -> str | None:
    """The reply to a message of thanks, agreement or goodbye, or None when ``text`` asks something.

    "Thanks, that is all!" -> "You're welcome! Let me know if you need anything else."; "好的，谢谢" ->
    "不客气！还有需要随时告诉我。" A real model answers these politely without calling a tool; lesson 01
    shows the loop ending on such a text answer.
    """
    if not _COURTESY.match(text.strip()):
        return None
    zh = lang.is_chinese(text)
    if _THANKED.search(text):
        return "不客气！还有需要随时告诉我。" if zh else "You're welcome! Let me know if you need anything else."
    if _FAREWELL.search(text):
        return "再见！" if zh else "Goodbye!"
    return "好的，还有需要随时告诉我。" if zh else "Glad I could help. Let me know if you need anything else."


_FOLLOW_UP = re.compile(r"^\s*(and|what about|how about|also|same for|then)\b|呢[？?]?\s*$|^\s*那", re.I)
_CLAUSE_SPLIT = re.compile(r"(?:\.(?!\d)|[;!?。；！？\n])+|,\s*(?:and\s+)?(?=(?:what|how|who|when|where|please|also|then)\b)|"
                           r"\s+(?:and then|and also|also|then|as well as)\s+|"
                           r"\s+and\s+(?=(?:what|how|who|when|where|tell|get|find|search|create|list|show|check|book|convert|send|"
                           r"schedule|reserve|order|buy|cancel|translate|calculate|compute|add|remind|set up)\b)|"
                           r"(?:然后|并且|另外|再|还有|同时)", re.I)


@dataclass
class PlannedCall:
    """A tool call the model decided to make.

    ``clause`` is the index of the request clause it serves; ``from_results`` names the
    arguments to be written from the results of earlier clauses (the call waits for them).
    """

    name: str
    arguments: dict
    evidence: dict[str, Evidence] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    clause: int = 0
    from_results: tuple[str, ...] = ()

    def key(self) -> str:
        return self.name + json.dumps(self.arguments, sort_keys=True, ensure_ascii=False)

    def __repr__(self) -> str:
        return f"{self.name}({json.dumps(self.arguments, ensure_ascii=False)})"


@dataclass
class Decision:
    """What the mock decided for one request, and why.

    Attributes:
        tool_calls: the calls to emit (empty for a text answer).
        content: the text answer (None when calling tools).
        reason: one sentence on why, for lessons and ``MockLLM.explain``.
        scores: every tool's relevance score for the user's last message.
        matched: the words that produced each tool's score.
        confidence: how sure the engine is of the calls it planned (:class:`~.confidence.Confidence`),
            also when it held them back for being unsure; None when it planned no call.
    """

    tool_calls: list[PlannedCall] = field(default_factory=list)
    content: str | None = None
    reason: str = ""
    scores: dict[str, float] = field(default_factory=dict)
    matched: dict[str, list[str]] = field(default_factory=dict)
    confidence: Any = None

    def __repr__(self) -> str:
        what = ", ".join(map(repr, self.tool_calls)) if self.tool_calls else repr(self.content)
        return f"Decision({what}; {self.reason})"


# --------------------------------------------------------------------------- scoring
#: Words in tool names that say little about what the tool is for.
GENERIC_NAME_WORDS = frozenset("get set calculate calc compute find fetch retrieve do make run perform info "
                               "information details detail data api tool function by for of and the a to in on "
                               "with from v1 v2 v3 util utils helper service query check lookup look".split())
# The weights lessons print (lesson 02, interview notebooks): keep them stable.
NAME_WEIGHT, NAMESPACE_WEIGHT, DESC_WEIGHT, PARAM_WEIGHT, ENUM_WEIGHT = 3.0, 3.0, 1.0, 0.7, 1.0


@dataclass(frozen=True)
class _Profile:
    name_words: tuple[tuple[str, float], ...]  # (stem, weight) of the name's words
    weights: dict[str, float]  # stem -> weight, for description, parameter and enum words
    strong: frozenset[str]
    has_location: bool
    vocab: frozenset[str]  # every stem the definition uses (not argument material)
    zh: frozenset[str]  # Chinese bigrams and concepts of the description
    by_prefix: dict[str, tuple[str, ...]] = field(default_factory=dict)  # weights' stems by their first 4 letters
    # per name word: its multi-word synonyms (an acronym's words) and whether it may be an acronym spelled out;
    # computed once per tool because scoring runs on every request and every clause
    name_checks: tuple[tuple[str, float, tuple[str, ...], bool], ...] = ()
    weight_keys: frozenset[str] = frozenset()  # the stems of ``weights``, for set intersections


_PROFILES: dict[int, tuple[ToolSpec, _Profile]] = {}


def _profile(tool: ToolSpec) -> _Profile:
    hit = _PROFILES.get(id(tool))
    if hit is not None and hit[0] is tool:
        return hit[1]
    prof = _build_profile(tool)
    if len(_PROFILES) > 4096:
        _PROFILES.clear()
    _PROFILES[id(tool)] = (tool, prof)
    return prof


def _build_profile(tool: ToolSpec) -> _Profile:
    weights: dict[str, float] = {}

    def add(concept: str, w: float) -> None:
        if concept in lang.WEAK:
            w = min(w, 0.3)
        weights[concept] = max(weights.get(concept, 0.0), w)

    parts = tool.name.replace("-", "_").split(".") if "." in tool.name else [tool.name]
    name_words: dict[str, float] = {}
    segments = re.split(r"[.]", tool.name)
    for k, seg in enumerate(segments):
        for part in lang.split_identifier(seg):
            if part in lang.STOPWORDS:
                continue
            w = NAMESPACE_WEIGHT if k < len(segments) - 1 else NAME_WEIGHT
            st = lang.stem(part)
            if st in lang.WEAK:
                w = 0.3
            name_words[st] = max(name_words.get(st, 0.0), w)
    del parts
    for st in lang.content_stems(tool.description):
        add(st, DESC_WEIGHT)
    for c in lang.chinese_concepts(tool.description) + lang.chinese_concepts(tool.name):
        add(c, DESC_WEIGHT)
    unit_zh: set[str] = set()
    has_location = False
    for pname, spec in (tool.parameters.get("properties") or {}).items():
        spec = spec if isinstance(spec, dict) else {}
        for part in lang.split_identifier(pname):
            if part not in lang.STOPWORDS:
                add(lang.stem(part), PARAM_WEIGHT)
        for st in lang.content_stems(str(spec.get("description", ""))):
            add(st, 0.4)
        enum = spec.get("enum") or []
        unit_enum = unit_enums.is_unit_enum(tuple(enum))
        for v in enum:
            for st in lang.content_stems(str(v)):
                add(st, ENUM_WEIGHT)
            for form in unit_enums.forms(str(v)) if unit_enum else ():  # "miles" for "mi", "公里" for "km"
                if lang.is_chinese(form):
                    unit_zh.add(form)
                elif len(form) >= 2 and form.isalpha():
                    add(lang.stem(form), ENUM_WEIGHT)
        hints = " ".join(lang.split_identifier(pname)) + " " + str(spec.get("description", "")).lower()
        if any(h in hints.split() or h in hints for h in LOCATION_HINTS):
            has_location = True
    zh = frozenset(lang.cjk_bigrams(tool.description)) | frozenset(lang.chinese_concepts(tool.description)) | \
        frozenset(g for form in unit_zh for g in lang.cjk_bigrams(form))
    strong = frozenset(c for c, w in weights.items() if w >= 1.0) | frozenset(
        st for st, w in name_words.items() if w >= NAMESPACE_WEIGHT)
    # what the definition names itself: its name's words, its parameters' names and the words of its
    # description, but not the values the description shows as examples ("e.g. 'fraud'"): users type those
    param_names = {lang.stem(p) for pname in (tool.parameters.get("properties") or {})
                   for p in lang.split_identifier(pname)}
    # proper names the description uses outside its examples ("the Mohs hardness"): part of the tool
    vocab = frozenset(name_words) | frozenset(param_names) | _described_names(tool.description)
    by_prefix: dict[str, tuple[str, ...]] = {}
    for st, w in weights.items():
        if len(st) >= 4 and w >= PARAM_WEIGHT and st.isalpha():  # not the values parameter descriptions show
            by_prefix[st[:4]] = by_prefix.get(st[:4], ()) + (st,)
    checks = tuple((st, w, tuple(syn for syn in lang.synonyms(st) if " " in syn),
                    3 <= len(st) <= 5 and st.isalpha() and w >= NAMESPACE_WEIGHT) for st, w in name_words.items())
    return _Profile(tuple(name_words.items()), weights, strong, has_location, vocab, zh, by_prefix, checks,
                    frozenset(weights))


_EXAMPLES_RX = re.compile(r"'[^']*'|\"[^\"]*\"|\b(?:e\.g\.|eg\.|i\.e\.|for example|for instance|such as|like|"
                          r"including|examples?:?)[^.;)]*", re.I)


def _described_names(description: str) -> frozenset[str]:
    """Stems of the capitalised words inside a description's sentences, without the examples it shows."""
    plain = _EXAMPLES_RX.sub(" ", description)
    return frozenset(lang.stem(m.group(1)) for m in re.finditer(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]{2,})\b", plain))


#: "How many ounces in 2 pounds", "how much is 100 euro in USD": a conversion asked without the word.
_HOW_MANY_IN = re.compile(r"\b(?:[Hh]ow (?:many|much)|worth|equals?)\b|\d.*\bin\s+[A-Z]{3}\b|等于|多少")


#: What a question word asks for: "When did X happen?" asks for a date.
_QUESTION_ASKS = ((re.compile(r"^\s*(?:when|what year|in what year|which year)\b", re.I), frozenset({"date", "year"})),)


def _asked_for(text: str) -> frozenset[str]:
    """The concepts a question word asks for ("When was the treaty signed?" -> date, year)."""
    out: frozenset[str] = frozenset()
    for rx, concepts in _QUESTION_ASKS:
        if rx.search(text):
            out |= concepts
    return out


def _conversion_asked(text: str) -> set[str]:
    """The concepts of a conversion the request asks for by naming two units or currencies of one kind.

    "How many Canadian dollars for 500 US dollars?" names two currencies; "How many ounces in
    2 pounds?" an amount in one unit and another unit of the same dimension. A model reads both
    as "convert", as a person would; the tool's name or description must still say convert.
    """
    if not _HOW_MANY_IN.search(text):
        return set()
    mentions = read(text).mentions
    currencies = {m.value for m in mentions if m.kind == "currency"} | {
        m.unit for m in mentions if m.kind == "unit" and m.dim == "money"}  # "how many yen is 1 CNY"
    if len(currencies) >= 2:
        return {"convert", "conversion", "currency", "exchang"}
    amounts = [m for m in mentions if m.kind == "number" and m.dim and m.dim not in ("money", "percent")]
    if amounts and lang.is_chinese(text):  # "5磅是多少公斤": another Chinese unit of the amount's kind
        if any(dim == amounts[0].dim and not any(a.start <= at < a.end for a in amounts)
               for _, (_, dim), at in gz.chinese_units(text)):
            return {"convert", "conversion", "unit"}
    if amounts:
        inside = [(m.start, m.end) for m in amounts]
        for w in re.finditer(r"[A-Za-z]+", text):  # another unit of the amount's dimension: the one asked for
            unit = gz.UNITS.get(w.group(0).lower()) or gz.UNITS.get(w.group(0))
            if unit and (unit[1] == amounts[0].dim or {unit[1], amounts[0].dim} == {"mass", "volume"}) and not any(
                    a <= w.start() < b for a, b in inside):  # cups of flour weigh grams: mass and volume convert
                return {"convert", "conversion", "unit"}
    return set()


@lru_cache(maxsize=1024)
def _user_concepts(text: str) -> tuple[frozenset[str], str, dict[str, tuple[str, ...]]]:
    """The request's stems, the initials of its words (for acronyms) and its long stems by first 4 letters."""
    stems = frozenset(lang.content_stems(text)) | frozenset(lang.chinese_concepts(text)) | _conversion_asked(text) \
        | _asked_for(text) | arithmetic.concepts(text) | tickers.concepts(text)
    stems |= frozenset(c for st in stems for c in lang.IMPLIED.get(st, ()))
    stems |= relations.concepts(text, stems)  # todo ~ task, multiply -> calculator, "trading at" -> stock price
    initials = "".join(w[0] for w in re.findall(r"[A-Za-z]+", text.lower()) if w not in ("of", "the", "and", "a"))
    by_prefix: dict[str, tuple[str, ...]] = {}
    for c in sorted(stems):
        if len(c) >= 4:
            by_prefix[c[:4]] = by_prefix.get(c[:4], ()) + (c,)
    return stems, initials, by_prefix


def _name_hit(st: str, multiword: tuple[str, ...], acronym: bool, concepts: frozenset[str], text_low: str,
              initials: str, by_prefix: dict[str, tuple[str, ...]]) -> str | None:
    if st in concepts:
        return st
    if len(st) >= 4:  # an abbreviation: "hypot" ~ "hypotenuse" (synonyms are not enough: see lesson 02)
        for c in by_prefix.get(st[:4], ()):
            if (c.startswith(st) or st.startswith(c)) and lang.word_matches(c, st):
                return c
    for syn in multiword:
        if syn in text_low:
            return syn  # an acronym's words: "greatest common divisor" for gcd
    if acronym and st in initials:
        return st.upper()  # an acronym spelled out: "greatest common divisor" -> gcd
    return None


@dataclass(frozen=True)
class _ToolSetIndex:
    """What scoring needs of one tool set, computed once per set and reused by every request and clause.

    A notebook (or an agent loop) sends the same tools with each new question, as a real server's
    prompt cache assumes, so the per-tool work is done here once: the profiles, how many tools use
    each stem (``df``), and inverted indexes from a word of the request to the tools it can score
    for. Scoring then visits only those tools: a tool that shares no word, prefix or Chinese
    bigram with the request scores exactly 0 with nothing matched, whatever the text.
    """

    tools: tuple[ToolSpec, ...]  # kept so the cache key (their ids) cannot be reused by other objects
    profiles: tuple[_Profile, ...]
    df: dict[str, int]  # stem -> how many of the tools use it (name, description, parameters)
    by_stem: dict[str, tuple[int, ...]]  # stem -> tools with it as a name word or a weighted word
    by_prefix: dict[str, tuple[int, ...]]  # first 4 letters -> tools with a name word or long word so starting
    by_zh: dict[str, tuple[int, ...]]  # Chinese bigram or concept -> tools whose description has it
    phrases: tuple[tuple[str, int], ...]  # (multi-word synonym of a name word, tool): found in the lower-case text
    acronyms: tuple[tuple[str, int], ...]  # (name word that may be an acronym, tool): found in the words' initials
    no_distinct: dict[str, float]  # every tool's name -> 0.0: the tie-break value of a tool that matched nothing

    def candidates(self, concepts: frozenset[str], prefixes: dict[str, tuple[str, ...]], bigrams: set[str],
                   text_low: str, initials: str) -> set[int]:
        """The tools that can score anything for a request with these stems, prefixes, bigrams and initials."""
        out = {i for phrase, i in self.phrases if phrase in text_low}
        out.update(i for word, i in self.acronyms if word in initials)
        for table, keys in ((self.by_stem, concepts), (self.by_prefix, prefixes), (self.by_zh, bigrams)):
            for k in keys:
                hit = table.get(k)
                if hit:
                    out.update(hit)
        return out


def _index_tools(tools: tuple[ToolSpec, ...]) -> _ToolSetIndex:
    profiles = tuple(_profile(t) for t in tools)
    df: dict[str, int] = {}
    by_stem: dict[str, list[int]] = {}
    by_prefix: dict[str, list[int]] = {}
    by_zh: dict[str, list[int]] = {}
    phrases: list[tuple[str, int]] = []
    acronyms: list[tuple[str, int]] = []
    for i, prof in enumerate(profiles):
        for st, _ in prof.name_words:
            df[st] = df.get(st, 0) + 1
        for st in prof.weights:
            df[st] = df.get(st, 0) + 1
        for st, _, multiword, acronym in prof.name_checks:
            by_stem.setdefault(st, []).append(i)
            by_prefix.setdefault(st[:4], []).append(i)
            phrases += [(syn, i) for syn in multiword]
            if acronym:
                acronyms.append((st, i))
        for st in prof.weight_keys:
            by_stem.setdefault(st, []).append(i)
        for prefix in prof.by_prefix:
            by_prefix.setdefault(prefix, []).append(i)
        for g in prof.zh:
            by_zh.setdefault(g, []).append(i)

    def frozen(table: dict[str, list[int]]) -> dict[str, tuple[int, ...]]:
        return {k: tuple(dict.fromkeys(v)) for k, v in table.items()}

    return _ToolSetIndex(tools, profiles, df, frozen(by_stem), frozen(by_prefix), frozen(by_zh), tuple(phrases),
                         tuple(acronyms), dict.fromkeys((t.name for t in tools), 0.0))


_INDEXES: "OrderedDict[tuple[int, ...], _ToolSetIndex]" = OrderedDict()
_INDEXES_MAX = 256


def _tool_set_index(tools: list[ToolSpec]) -> _ToolSetIndex:
    """The :class:`_ToolSetIndex` of ``tools``, cached on the identity of its tool objects.

    The wire layer hands the same :class:`ToolSpec` objects for the same tool definitions
    (``wire._check_tools``), so the key is stable across requests; the entry keeps the objects
    alive, so an id in a key always belongs to the same tool.
    """
    key = tuple(map(id, tools))
    hit = _INDEXES.get(key)
    if hit is not None:
        _INDEXES.move_to_end(key)
        return hit
    index = _index_tools(tuple(tools))
    _INDEXES[key] = index
    if len(_INDEXES) > _INDEXES_MAX:
        _INDEXES.popitem(last=False)
    return index


_DISTINCT: dict[str, float] = {}  # the last scoring's tie-break values, read right after by plan_calls


def score_tools(text: str, tools: list[ToolSpec]) -> list[tuple[ToolSpec, float, list[str]]]:
    """Score every tool against ``text``; best first, ties broken by declaration order.

    The score adds the weights of the tool's words that the request uses: words of the
    tool's name weigh most (3), then its description (1), its parameters (0.6); a word
    shared by all the tools offered counts less (it cannot tell them apart). Words match
    by stem, synonym, abbreviation ("hypot" ~ "hypotenuse") or acronym ("GCD").

    Only the tools that share a word, a 4-letter prefix or a Chinese bigram with ``text`` are
    scored one by one (:class:`_ToolSetIndex`); every other tool scores 0.

    Returns:
        ``(tool, score, matched words)`` for every tool.
    """
    concepts, initials, by_prefix = _user_concepts(text)
    bigrams = lang.cjk_bigrams(text)
    index = _tool_set_index(tools)
    n = len(tools)
    df = index.df if n > 1 else {}
    text_low = text.lower()
    candidates = index.candidates(concepts, by_prefix, bigrams, text_low, initials)
    context = _ScoringContext(text, text_low, concepts, initials, by_prefix, bigrams, df, n)
    _DISTINCT.update(index.no_distinct)
    scored: dict[int, tuple[ToolSpec, float, list[str]]] = {}
    for i in candidates:
        tool = tools[i]
        score, matched, _DISTINCT[tool.name] = _score_one(index.profiles[i], context)
        scored[i] = (tool, score, matched)
    # best first, ties in declaration order (lessons print this list); the rest scored 0, in declaration order
    best = sorted((i for i, r in scored.items() if r[1]), key=lambda i: (-scored[i][1], i))
    ranked = [scored[i] for i in best]
    if len(ranked) < n:
        ranked += [scored.get(i) or (tool, 0, []) for i, tool in enumerate(tools) if i not in scored or not scored[i][1]]
    return ranked


class _ScoringContext:
    """The request's side of scoring, read once per text and shared by every tool scored against it."""

    __slots__ = ("text", "text_low", "concepts", "initials", "by_prefix", "bigrams", "df", "n", "_has_place")

    def __init__(self, text: str, text_low: str, concepts: frozenset[str], initials: str,
                 by_prefix: dict[str, tuple[str, ...]], bigrams: set[str], df: dict[str, int], n: int) -> None:
        self.text, self.text_low = text, text_low
        self.concepts, self.initials, self.by_prefix, self.bigrams = concepts, initials, by_prefix, bigrams
        self.df, self.n = df, n
        self._has_place: bool | None = None

    @property
    def has_place(self) -> bool:
        """Whether the request names a known city (looked up only when a strong tool takes a location)."""
        if self._has_place is None:
            self._has_place = bool(lang.find_cities(self.text))
        return self._has_place

    def idf(self, stem: str) -> float:
        """1 for a word only this tool uses, less the more of the offered tools share it."""
        n = self.n
        return 1.0 if n == 1 else (1.0 / (1.0 + 2.0 * (self.df.get(stem, 1) - 1) / max(n - 1, 1)))


def _score_one(prof: _Profile, ctx: _ScoringContext) -> tuple[float, list[str], float]:
    """``(score, sorted matched words, distinct)`` of one tool for the request in ``ctx``."""
    concepts, by_prefix = ctx.concepts, ctx.by_prefix
    matched: list[str] = []
    score = 0  # an int when nothing matches, as lessons print it
    distinct = 0.0  # the same, weighed by how few of the offered tools share each word (tie-break)
    strong = False
    seen: set[str] = set()
    for st, w, multiword, acronym in prof.name_checks:
        if st not in concepts and st[:4] not in by_prefix and not multiword and not acronym:
            continue  # the common case, decided without a call (scoring runs per tool, clause and request)
        hit = _name_hit(st, multiword, acronym, concepts, ctx.text_low, ctx.initials, by_prefix)
        if hit is None:
            continue
        score += w
        distinct += w * ctx.idf(st)
        matched.append(st if hit == st else f"{st}~{hit}")
        seen.add(st)
        if hit in concepts:
            seen.add(hit)
        if w >= NAMESPACE_WEIGHT:
            strong = True
    # only the request's words this tool uses, or abbreviates, can add to its score
    relevant = concepts & prof.weight_keys
    for prefix in by_prefix.keys() & prof.by_prefix.keys():
        relevant = relevant | frozenset(by_prefix[prefix])
    for c in concepts if relevant else ():
        if c in seen or c not in relevant:
            continue
        w = prof.weights.get(c)
        key = c
        near_candidates = prof.by_prefix.get(c[:4]) if not w and len(c) >= 4 else None
        if near_candidates:  # "remind" ~ "reminder": one word abbreviating the other
            near = next((k for k in near_candidates if k not in seen and lang.word_matches(c, k)), None)
            if near is not None:
                w, key = prof.weights[near], near
                seen.add(near)
        if w:
            score += w
            distinct += w * ctx.idf(key)
            matched.append(c)
            if key in prof.strong:
                strong = strong or w >= 1.0
    zh_hits = sorted(g for g in ctx.bigrams if g in prof.zh)
    if zh_hits:
        score += 1.5 * len(zh_hits)
        matched += zh_hits
        strong = True
    if not strong:
        score = min(score, THRESHOLD - 0.01)  # weak words alone never justify a call
    elif prof.has_location and ctx.has_place:
        score += 1.0
    return round(score, 2), sorted(matched), distinct


def _best(ranked: list[tuple[ToolSpec, float, list[str]]], distinct: dict[str, float], text: str = ""
          ) -> tuple[ToolSpec, float, list[str]]:
    """The chosen tool: the top score; among equal scores the one with a place for the dates the request
    gives ("the rate *at January 1, 2022*": the tool that takes a date), then the one whose words the
    others share least."""
    top = [r for r in ranked if r[1] == ranked[0][1]]
    dates = len(top) > 1 and any(m.kind == "date" for m in read(text).mentions)
    return max(top, key=lambda r: (_takes_a_date(r[0]) if dates else 0, distinct.get(r[0].name, 0.0), -top.index(r)))


#: A runner-up within this share of the best score is as good a reading of the request (chosen on BFCL dev data).
FILLABLE_SHARE = 0.7


def _fillable_choice(ranked: list[tuple[ToolSpec, float, list[str]]], best: tuple[ToolSpec, float, list[str]],
                     text: str) -> ToolSpec:
    """The best tool, unless it lacks a required value that a close runner-up does not need.

    "Find action movies in New York" scores ``BuyMovieTickets`` and ``FindMovies`` alike; the ticket tool
    would have to ask for a count and a date nobody said, the search tool is complete: a model calls the
    search. Close means within :data:`FILLABLE_SHARE` of the best score.
    """
    first = _calls_for(best[0], text)
    if not any(c.missing for c in first):
        return best[0]
    for tool, score, _ in ranked:
        if tool is best[0] or score < best[1] * FILLABLE_SHARE or score < THRESHOLD:
            continue
        if not any(c.missing for c in _calls_for(tool, text)):
            return tool
    return best[0]


def _takes_a_date(tool: ToolSpec) -> int:
    """1 when one of the tool's parameters is a date."""
    return int(any(s.role == "date" for s in slots_of(tool.parameters)))


# --------------------------------------------------------------------------- planning
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


def _text_of(message: dict) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return " ".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content or ""


def _give(call: PlannedCall, key: str, value: Any, evidence: Any) -> None:
    """Set one argument of a planned call, with the words it came from; it is no longer missing."""
    call.arguments[key], call.evidence[key] = value, evidence
    if key in call.missing:
        call.missing.remove(key)


def split_clauses(text: str) -> list[str]:
    """Split a request into the clauses that may each need their own tool."""
    return [c.strip(" ,，") for c in _CLAUSE_SPLIT.split(text) if c and c.strip(" ,，")]


#: A dot that ends an abbreviation ("Apple Inc. (AAPL)", "Dr. Lee") ends no sentence.
_NO_ABBREVIATION = "".join(rf"(?<!\b{a}\.)" for a in ("Inc", "Ltd", "Corp", "Co", "Mr", "Mrs", "Ms", "Dr", "St", "vs"))
_SEGMENT_SPLIT = re.compile(
    r"(?<=[?!;])\s+|(?<=[。？！；])\s*|" + _NO_ABBREVIATION + r"(?<=\.)\s+(?!(?-i:[a-z]))|,?\s+(?:and\s+)?(?:then|also|while|plus|finally|lastly|after that)\s+(?=\w)|"
    r",\s*(?:and\s+)?next\s+|,\s*(?:and\s+)?(?=(?:the\s+)?(?:first|second|third|fourth|fifth|last|other|latter)\b)|"
    r",\s*(?:and\s+)?(?=(?:another|the same|do the same|repeat)\b)|,\s*and\s+(?=(?:one|for|in|at|with|do|same|the)\b)|"
    r"\s+and\s+(?=(?:another|one|ones|those|the same|repeat|do the same)\b)|,?\s+and\s+(?=(?:how|what)\s)|,\s*(?=(?:considering|assuming)\s+(?:both|each|all|every)\b)|"
    r"(?:然后|另外|还有|同时|以及)|[，,；;]\s*(?:再|接着|接下来|之后|最后)|再(?=把|查|帮|给|订|换|算|发|看|告诉|问)", re.I)


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


def _calls_by_clause(tool: ToolSpec, text: str, filled, vocab: frozenset[str]) -> list[PlannedCall]:
    """One call (or several) per clause that gives its own values: "...for $2000. Do the same for $5000."

    A clause that only adds details merges into the call before it; a value not repeated is
    inherited from the call before ("the same", "another one with...") or from the sentence.
    """
    segs = _segments(text)
    if len(segs) < 2:
        return []
    parts = []
    dropped: list[str] = []
    for seg in segs:
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
        if said:
            parts.append((seg, sub, said, " ".join(dropped + [seg])))
            dropped = []
        else:
            dropped.append(seg)  # no values, but its words may frame the next clause ("and what if we | ...")
    conflict = any(k in a[2] and k in b[2] and a[2][k][0] != b[2][k][0]
                   for i, a in enumerate(parts) for b in parts[i + 1:] for k in a[2]) or \
        any(_NEW_CASE.search(p[3]) for p in parts[1:])
    if len(parts) < 2 or not conflict:
        return []
    calls: list[PlannedCall] = []
    last: list[PlannedCall] = []  # the calls of the previous clause
    shared = {k: (v, filled.evidence[k]) for k, v in filled.arguments.items()
              if not any(k in p[2] for p in parts)}  # details said once for all ("in Paris")
    props = list(tool.parameters.get("properties") or {})
    inherited: dict[int, set[str]] = {}  # id(call) -> the arguments it took from the call before or the sentence
    for seg, sub, strong, lead in parts:
        if len(calls) >= 2 and _REFERS_TO_ALL.search(seg) and not _ONE_MORE.search(seg):
            # "...for each day", "with these parameters": a question about the calls so far asks no new one;
            # it may only add what none of them has yet, or ask each in several ways ("in both X and Y")
            renew = {k: (v, e) for k, (v, e) in strong.items() if _explicit(e)
                     and any(k in c.arguments and c.arguments[k] != v for c in calls)}
            if renew:  # "...then estimate both of them for 2023": every call again, with the new values
                again = []
                for c in calls:
                    again.append(PlannedCall(tool.name, {**c.arguments, **{k: v for k, (v, _) in renew.items()}},
                                             {**c.evidence, **{k: e for k, (_, e) in renew.items()}},
                                             [m for m in c.missing if m not in renew]))
                    inherited[id(again[-1])] = inherited.get(id(c), set()) - set(renew)
                calls.extend(again)
                last = again
                continue
            many = {k: col for k, col in sub.spread.items() if len(col) >= 2 and k in strong}
            at = text.find(seg)
            if not many and at >= 0:  # the whole request saw the list the clause alone lost to another slot
                many = {k: col for k, col in filled.spread.items() if len(col) >= 2 and k in strong
                        and all(at <= pos < at + len(seg) for _, _, pos in col)}
            if len(many) == 1:
                (k, col), = many.items()
                crossed = []
                for c in calls:
                    for v, e, _ in col:
                        crossed.append(PlannedCall(tool.name, {**c.arguments, k: v}, {**c.evidence, k: e},
                                                   [m for m in c.missing if m != k]))
                        inherited[id(crossed[-1])] = inherited.get(id(c), set())
                calls[:] = crossed
                last = crossed
                continue
            for c in calls:
                for k, (v, e) in strong.items():
                    if k not in c.arguments:
                        _give(c, k, v, e)
            continue
        clash = {k for c in last for k, (v, _) in strong.items() if k in c.arguments and c.arguments[k] != v}
        if last and clash and not _ONE_MORE.search(lead) and not _NEW_CASE.search(lead) and \
                not _VARIATION.search(seg) and all(k in inherited.get(id(c), ()) for c in last for k in clash if k in c.arguments):
            # "The second one is in X. I don't need Y for this case": the clause corrects what its
            # call only inherited, it asks no new call
            for c in last:
                for k, (v, e) in strong.items():
                    if k in clash or k not in c.arguments:
                        _give(c, k, v, e)
                        inherited.get(id(c), set()).discard(k)
            continue
        if last and not clash and _NEW_CASE.search(lead) and any(k not in c.arguments for c in last for k in strong):
            # "...and then what if we allow transfers?": the same call once more, with the new detail
            new = []
            for c in last:
                args, ev = dict(c.arguments), dict(c.evidence)
                for k, (v, e) in strong.items():
                    args[k], ev[k] = v, e
                new.append(PlannedCall(tool.name, args, ev, [m for m in c.missing if m not in args]))
                inherited[id(new[-1])] = set(c.arguments) - set(strong)
            calls.extend(new)
            last = new
            continue
        if last and not clash:
            # more details of the same call(s); "for each of them..." details every call so far
            for c in (calls if _FOR_ALL.search(seg) or _while_at_end(text, seg) else last):
                for k, (v, e) in strong.items():
                    if k not in c.arguments:
                        _give(c, k, v, e)
            continue
        prev = _inherits_from(calls, last, seg)
        seg_calls = _combine(tool.name, sub, seg) if any(len(v) >= 2 for v in sub.spread.values()) else \
            [PlannedCall(tool.name, dict(sub.arguments), dict(sub.evidence), list(sub.missing))]
        new = []
        for sc in seg_calls:
            args: dict = {}
            ev: dict = {}
            took: set[str] = set()
            for k in props:
                if k in sc.arguments and (k in strong or sub.strength.get(k, 0) >= 0.8 and not _outranked(
                        k, sc.evidence[k], filled) or k in sub.spread):
                    args[k], ev[k] = sc.arguments[k], sc.evidence[k]
                elif prev is not None and k in prev.arguments:
                    args[k], ev[k] = prev.arguments[k], prev.evidence[k]  # "the same", "another one with..."
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
            new.append(PlannedCall(tool.name, args, ev, list(dict.fromkeys(missing))))
            inherited[id(new[-1])] = took
        calls.extend(new)
        last = new
    complete = [c for c in calls if not c.missing]
    # a clause that set one value before the real ones ("a two-day trip. On the first day...") is no call
    return complete if complete and len(complete) < len(calls) else calls


#: A clause that asks *not* to do something ("don't check the weather, ...", "no need to ...", "不要查天气").
_NEGATED_LEAD = re.compile(r"^\s*(?:(?:please|just|but|and)\s+)?(?:don'?t|do not|no need to|there'?s no need to|"
                           r"you don'?t (?:need|have) to|never mind|without)\b|^\s*(?:不要|别|不用|无需|不需要|不必)", re.I)
_CLAUSE_EDGE = re.compile(r"([,;.!?，。；！？]+\s*|\s+(?:but|instead)\s+)")


def _names_a_tool(clause: str, tools: list[ToolSpec]) -> bool:
    """Whether ``clause`` uses a word of some tool's name ("weather" for ``get_weather``): it names the action."""
    concepts = _user_concepts(clause)[0]
    return any(w >= NAMESPACE_WEIGHT and st in concepts for t in tools for st, w in _profile(t).name_words)


def without_negated(text: str, tools: list[ToolSpec]) -> str:
    """``text`` without the clauses that ask not to do what a tool does: they must not call it.

    "Don't check the weather, just tell me the capital of France" -> "just tell me the capital of France".
    A request that is nothing but such clauses ("Don't book anything yet.") asks for no call at all.
    A negated detail that names no tool ("Don't include the window area") stays: it is an argument.
    """
    if not _NEGATED_LEAD.search(text) and not re.search(r"[,;.!?，。；！？]\s*(?:don'?t|do not|no need|不要|别|不用)",
                                                         text, re.I):
        return text
    parts = _CLAUSE_EDGE.split(text)
    kept = [c + (parts[k + 1] if k + 1 < len(parts) else "") for k, c in enumerate(parts[::2]) for k in [2 * k]
            if not (_NEGATED_LEAD.search(c) and _names_a_tool(c, tools))]
    return "".join(kept).strip(" ,，")


def plan_calls(text: str, tools: list[ToolSpec]
               ) -> tuple[list[PlannedCall], dict[str, float], dict[str, list[str]], str]:
    """Every call the request ``text`` needs, with the scores behind the choice.

    Clauses that ask not to do something are left out first (:func:`without_negated`).

    Returns:
        ``(calls, scores, matched words, why not)``: ``why not`` says why a tool that shares
        words with the request was not called (:mod:`.purpose`), else "".
    """
    text = without_negated(text, tools)
    ranked = score_tools(text, tools)
    distinct = dict(_DISTINCT)
    scores = {t.name: s for t, s, _ in ranked}
    matched = {t.name: m for t, _, m in ranked}
    if not ranked or ranked[0][1] < THRESHOLD:
        return [], scores, matched, ""
    # a tool that shares words but gives something else is not a candidate (freezing vs boiling point)
    why_not = ""
    keep = []
    for r in ranked:
        why = purpose.mismatch(text, r[0].name, r[0].description) if r[1] >= THRESHOLD else None
        if why:
            why_not = why_not or why
        else:
            keep.append(r)
    if not keep or keep[0][1] < THRESHOLD:
        return [], scores, matched, why_not
    if len(keep) < len(ranked):
        ranked = keep
        tools = [r[0] for r in keep]
    clauses = split_clauses(text)
    picks: list[tuple[ToolSpec, str]] = []
    if len(clauses) > 1 and len(tools) > 1 and len(tools) <= 64:
        for clause in clauses:
            best = score_tools(clause, tools)[0]
            if best[1] >= THRESHOLD:
                picks.append((best[0], clause))
    if len({t.name for t, _ in picks}) <= 1:
        picks = [(_fillable_choice(ranked, _best(ranked, distinct, text), text), text)]
    calls: list[PlannedCall] = []
    wholes: dict[str, Any] = {}
    for index, (tool, clause) in enumerate(picks):
        earlier = any(not c.from_results for c in calls)  # something before it produces results
        slots = _result_slots(tool, clause) if earlier and clause != text else ()
        for call in _calls_for(tool, clause):
            call.clause = index
            if slots:  # written later from the earlier clauses' results, not copied from the words
                call.from_results = slots
                for slot in slots:
                    call.arguments.pop(slot, None)
                    call.evidence.pop(slot, None)
                call.missing = [m for m in call.missing if m not in slots]
            if call.missing and clause != text:  # a clause may omit what the sentence says
                if tool.name not in wholes:  # read once per tool, not once per clause: linear in the text
                    wholes[tool.name] = fill_arguments(tool.parameters, text, tool_words=_profile(tool).vocab)
                whole = wholes[tool.name]
                for m in list(call.missing):
                    if m in whole.arguments:
                        call.arguments[m] = whole.arguments[m]
                        call.evidence[m] = whole.evidence[m]
                        call.missing.remove(m)
            if all(c.key() != call.key() for c in calls):
                calls.append(call)
    calls += [PlannedCall(t.name, a, clause=len(picks)) for t, a in arithmetic.unserved(  # "7 + 5, and 20 - 8"
        tools, text, [(c.name, c.arguments) for c in calls])]
    return calls, scores, matched, ""


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


# --------------------------------------------------------------------------- conversation
@dataclass
class _Turn:
    question: str
    last_user: int
    done: list[tuple[dict, str]]  # (assistant tool_call, tool result content)
    rounds: int
    previous_call: dict | None  # the last tool call before this question (for follow-ups)
    round_of: dict[str, int] = field(default_factory=dict)  # tool_call id -> the model call that made it
    asked: str = ""  # the assistant's question right before this message ("Could you tell me the city?")
    asked_after: str = ""  # the user request that question was about ("What's the weather?")


def _read_turn(messages: list[dict]) -> _Turn:
    last_user = max((i for i, m in enumerate(messages) if m["role"] == "user"), default=-1)
    question = read_limited(_text_of(messages[last_user])) if last_user >= 0 else ""
    results = {m["tool_call_id"]: _text_of(m) if not isinstance(m.get("content"), str) else m["content"]
               for m in messages[last_user + 1 :] if m["role"] == "tool"}
    done, rounds, round_of = [], 0, {}
    for m in messages[last_user + 1 :]:
        if m["role"] == "assistant" and m.get("tool_calls"):
            rounds += 1
            done.extend((c, results.get(c["id"], "")) for c in m["tool_calls"])
            round_of.update((c["id"], rounds) for c in m["tool_calls"])
    previous = None
    for m in reversed(messages[: max(last_user, 0)]):
        if m["role"] == "assistant" and m.get("tool_calls"):
            previous = m["tool_calls"][-1]
            break
    asked, asked_after = _question_before(messages, last_user)
    return _Turn(question, last_user, done, rounds, previous, round_of, asked, asked_after)


def _question_before(messages: list[dict], last_user: int) -> tuple[str, str]:
    """The assistant's text question just before message ``last_user``, and the user request it answered.

    ``("To use get_weather I need the city. Could you tell me?", "What's the weather?")``, or
    ``("", "")`` when the message before the user's last one is no question in text.
    """
    if last_user < 1:
        return "", ""
    prev = messages[last_user - 1]
    text = _text_of(prev) if prev["role"] == "assistant" and not prev.get("tool_calls") else ""
    if not re.search(r"[?？]", text):
        return "", ""
    before = next((m for m in reversed(messages[: last_user - 1]) if m["role"] == "user"), None)
    return (read_limited(text), read_limited(_text_of(before))) if before else ("", "")


def _args_of(call: dict) -> dict:
    try:
        args = json.loads(call["function"].get("arguments") or "{}")
    except (ValueError, TypeError):
        return {}
    return args if isinstance(args, dict) else {}


def _follow_up(turn: _Turn, tools: list[ToolSpec]) -> list[PlannedCall]:
    """"And in Tokyo?" after a weather call: the same tool with the new details."""
    prev = turn.previous_call
    if not prev or not (_FOLLOW_UP.search(turn.question) or len(turn.question.split()) <= 4):
        return []
    tool = next((t for t in tools if t.name == prev["function"]["name"]), None)
    if tool is None:
        return []
    new = _calls_for(tool, turn.question)
    old_args = _args_of(prev)
    calls = []
    for call in new:
        if not call.arguments:
            continue
        merged = {**old_args, **call.arguments}
        calls.append(PlannedCall(tool.name, merged, call.evidence, []))
    return calls


def _answered_question(turn: _Turn, tools: list[ToolSpec], plan: list[PlannedCall]) -> list[PlannedCall]:
    """The user's reply to the assistant's question about a call: the values it gives fill that call.

    "Book a table" -> "To use book_table I need the restaurant ... Could you tell me?" -> "At Nopa,
    2 people, 2026-12-02T19:00": the tool is the one the earlier request planned (or the question
    names), its arguments gathered across both user messages, the reply's values winning where both
    give one. Not used when the reply is a complete request of its own for another tool (a new topic).
    """
    if not turn.asked or courtesy_reply(turn.question) or _WITHDRAWN.search(turn.question):
        return []
    if plan and not any(c.missing for c in plan):
        return []  # a complete request of its own
    earlier = plan_calls(turn.asked_after, tools)[0]
    names = [c.name for c in earlier] or [t.name for t in tools if re.search(rf"\b{re.escape(t.name)}\b", turn.asked)]
    if not names:  # "Which square do you want to bet on?": the one tool with the argument the question names
        names = [t.name for t in tools if _asked_argument(turn.asked, t)][:2]
        names = names if len(names) == 1 else []
    tool = next((t for t in tools if names and t.name == names[0]), None)
    if tool is None or (plan and plan[0].name != tool.name):
        return []
    before = next((c for c in earlier if c.name == tool.name), None) or _calls_for(tool, turn.asked_after)[0]
    replies = _calls_for(tool, turn.question)
    reply = replies[0]
    joined = _calls_for(tool, f"{turn.asked_after.rstrip(' .?!。？！')}. {turn.question}")[0]
    args = {**joined.arguments, **before.arguments, **reply.arguments}
    evidence = {**joined.evidence, **before.evidence, **reply.evidence}
    props = tool.parameters.get("properties") or {}
    required = [r for r in tool.parameters.get("required") or [] if r in props]
    for name, words in _bare_answers(turn.question, [r for r in required if r not in args], props, evidence):
        args[name], evidence[name] = words, Evidence("the reply to the question about it", words)
    asked = _asked_argument(turn.asked, tool)
    if asked and len(replies) == 1:  # "What is the order ID?" -> "It's O1.": the reply is that value
        typed = reply.arguments.get(asked) if reply.evidence.get(asked) and reply.evidence[asked].rule not in (
            "words", "the request without its framing") and not reply.evidence[asked].rule.startswith("best reading") else None
        bare = _POLITE.sub("", turn.question.strip().rstrip(".!?。！？")).strip()
        if isinstance(typed, str) and bare and bare != typed and bare in typed:
            typed = None  # "It's O1" read whole: the value is what is left without the polite lead
        if typed is not None or (bare and len(bare.split()) <= 6 and _kind(props.get(asked)) == "string"):
            args[asked] = typed if typed is not None else bare
            evidence[asked] = Evidence("the reply to the question about it", turn.question.strip())
    if args == before.arguments:
        return []  # the reply gives nothing for this tool
    if len(replies) > 1:  # "Paris and Tokyo": one call each, with what the first message gave
        return [PlannedCall(tool.name, {k: v for k, v in {**args, **r.arguments}.items()}, {**evidence, **r.evidence},
                            [q for q in required if q not in {**args, **r.arguments}]) for r in replies]
    return [PlannedCall(tool.name, {k: args[k] for k in props if k in args}, evidence,
                        [r for r in required if r not in args])]


#: What a question asks about when it names no argument: "What is the meeting *about*?" -> its topic.
_ASKED_ABOUT = {"about": ("topic", "subject", "title", "summary", "purpose", "agenda")}


def _kind(spec: Any) -> str:
    t = spec.get("type") if isinstance(spec, dict) else None
    return t if isinstance(t, str) else "string"


def _asked_argument(question: str, tool: ToolSpec) -> str | None:
    """The argument of ``tool`` an assistant's question asks for: the one whose name's words the question
    says ("What is the order ID?" -> ``order_id``, "Which repository? ... its path" -> ``repo_path``), or a
    topic-like one for "what is it about?"; None when none or several fit equally."""
    low = question.lower()
    props = tool.parameters.get("properties") or {}
    hits = []
    for name in props:
        words = [w for w in lang.split_identifier(name) if len(w) > 1]
        if words and all(re.search(rf"\b{re.escape(w[:5])}", low) for w in words):
            hits.append((len(words), name))
    if not hits:
        for cue, names in _ASKED_ABOUT.items():
            if re.search(rf"\b{cue}\b", low):
                hits = [(1, n) for n in props if n.lower() in names]
    hits.sort(reverse=True)
    if not hits or len(hits) > 1 and hits[0][0] == hits[1][0]:
        return None
    return hits[0][1]


#: "Never mind", "forget it", 算了: the user drops the request instead of answering the question.
_WITHDRAWN = re.compile(r"\b(?:never ?mind|forget (?:it|about it)|no(?:,)? (?:thanks|thank you)|cancel (?:it|that)|"
                        r"don'?t bother|skip it)\b|算了|不用了|不要了|取消吧", re.I)
_POLITE = re.compile(r"^(?:please|pls|it'?s|it is|that'?s|the|请|是|就)\s*|\s*(?:please|pls|thanks?|thank you|吧|谢谢)$", re.I)


def _bare_answers(reply: str, missing: list[str], props: dict, evidence: dict) -> list[tuple[str, str]]:
    """The parts of a reply that are nothing but a value ("海底捞", "全聚德，4个人"), for the string
    arguments still missing, in order: a short part that no other argument was read from."""
    if not missing:
        return []
    used = " ".join(str(e.words) for e in evidence.values() if isinstance(e, Evidence))
    free = []
    for part in re.split(r"[，,、;；。.!！?？\n]+", reply):
        part = _POLITE.sub("", part.strip()).strip()
        if not part or re.search(r"\d", part) or len(part.split()) > 4 or part in used:
            continue
        if read(part).mentions and any(m.kind in ("date", "time", "number") for m in read(part).mentions):
            continue
        free.append(part)
    slots = [m for m in missing if isinstance(props.get(m), dict) and props[m].get("type", "string") == "string"
             and not props[m].get("enum")]
    return list(zip(slots, free))


def _earlier_results(messages: list[dict], last_user: int) -> list[tuple[str, dict, str]]:
    """``(tool name, arguments, result)`` of the last round of tool calls before the user's last message."""
    for i in range(last_user - 1, -1, -1):
        m = messages[i]
        if m["role"] == "assistant" and m.get("tool_calls"):
            results = {r["tool_call_id"]: r["content"] if isinstance(r.get("content"), str) else _text_of(r)
                       for r in messages[i + 1 : last_user] if r["role"] == "tool"}
            return [(c["function"]["name"], _args_of(c), results[c["id"]]) for c in m["tool_calls"] if c["id"] in results]
    return []


def _from_earlier_results(messages: list[dict], turn: _Turn, plan: list[PlannedCall]) -> str | None:
    """"Thanks! Should I take an umbrella?" after a weather result: the answer is in the conversation already.

    Used only when the question names nothing new for a call (no complete call with other arguments
    than the ones already made), as a model rereads its context before calling again.
    """
    if turn.done or turn.last_user < 1:
        return None
    earlier = _earlier_results(messages, turn.last_user)
    if not earlier:
        return None
    made = {name + json.dumps(args, sort_keys=True, ensure_ascii=False) for name, args, _ in earlier}
    if any(not c.missing and c.key() not in made for c in plan):
        return None  # a new city, a new thing: call again
    return advice(earlier, turn.question)


def _said_as(name: str, tool: str) -> str:
    """An argument's name as a person says it: ``to_currency`` of ``convert_currency`` -> "currency to convert
    to", ``from_date`` -> "from date" when the tool's name starts with no verb; ``party_size`` -> "party size"."""
    words = lang.split_identifier(name)
    verb = (lang.split_identifier(tool) or [""])[0]
    if len(words) >= 2 and words[0] in ("to", "from", "into") and verb in _PHRASE_VERBS:
        return f"{' '.join(words[1:])} to {verb} {words[0]}"
    return " ".join(words)


def _described(spec: Any) -> str:
    """" (ISO code of the currency wanted)": a one-word argument name explained by its description's first
    phrase, when the description is short enough to say; else ""."""
    desc = str(spec.get("description", "")) if isinstance(spec, dict) else ""
    head = re.split(r"[.;(]|,?\s+e\.g\.|,\s+(?:such as|like|for example)\b", desc, maxsplit=1)[0].strip()
    if head[1:2].islower():
        head = head[:1].lower() + head[1:]
    return f" ({head})" if head and len(head.split()) <= 8 else ""


#: Argument names that say little by themselves: the question adds their description.
_VAGUE_NAMES = frozenset("target source value q input output key data item to from src dst dest kind type mode "
                         "arg args param params x y z".split())


#: Verbs a tool's name starts with that read well in "the currency to convert to".
_PHRASE_VERBS = frozenset("convert translate send move transfer copy change switch exchange fly travel ship "
                          "export import migrate redirect forward".split())


def _clarify(call: PlannedCall, question: str, tools: list[ToolSpec] = ()) -> str:
    tool = next((t for t in tools if t.name == call.name), None)
    props = (tool.parameters.get("properties") or {}) if tool else {}
    order = list(props)
    missing = sorted(call.missing, key=lambda m: order.index(m) if m in order else len(order))
    said = [_said_as(m, call.name) + (_described(props.get(m)) if m.lower() in _VAGUE_NAMES else "")
            for m in missing]
    what = ", ".join(said[:-1]) + " and " + said[-1] if len(said) > 1 else said[0]
    if lang.is_chinese(question):
        return f"要调用 {call.name}，我还需要知道：{'、'.join(call.missing)}。请补充一下？"
    return f"To use {call.name} I need the {what}. Could you tell me?"


def _units_named(text: str) -> list[tuple[str, str]]:
    """``(as written, canonical unit)`` of every unit of measure ``text`` names ("5 kg" -> ("kg", "kg"))."""
    mentions = read(text).mentions
    weighs = any(m.dim == "mass" for m in mentions)
    out = []
    for m in mentions:
        if m.kind not in ("number", "unit") or not m.unit:
            continue
        surface = re.sub(r"^[\s\d.,+-]+", "", m.text).strip() or m.unit
        unit, dim = m.unit, m.dim
        if dim == "money" and weighs and surface.lower() in ("pound", "pounds", "lb", "lbs"):
            unit, dim = "lb", "mass"  # "5 kg to pounds": pounds that weigh
        if dim and dim not in ("money", "percent", "time") and all(s != surface for s, _ in out):
            out.append((surface, unit_enums.canonical(unit) or unit))
    for surface, (unit, dim), _ in gz.chinese_units(text):  # "换成磅": a Chinese unit named alone
        if dim not in ("money", "percent", "time") and all(surface not in s for s, _ in out):
            out.append((surface, unit_enums.canonical(unit) or unit))
    return out


def _unsupported_units(call: PlannedCall, tools: list[ToolSpec], question: str) -> str | None:
    """"convert_units does not support kg or pounds; it converts C, F, km and mi.", when the request names units
    the tool's unit enums leave out and the call lacks a unit because of it (instead of asking which unit)."""
    tool = next((t for t in tools if t.name == call.name), None)
    if tool is None:
        return None
    props = tool.parameters.get("properties") or {}
    unit_slots = [k for k, v in props.items() if isinstance(v, dict) and unit_enums.is_unit_enum(tuple(v.get("enum") or ()))]
    if not unit_slots or not set(unit_slots) & set(call.missing):
        return None
    options = list(dict.fromkeys(str(o) for k in unit_slots for o in props[k]["enum"]))
    supported = {unit_enums.canonical(o) for o in options}
    unsupported = [surface for surface, unit in _units_named(question) if unit not in supported]
    if not unsupported:
        return None
    if lang.is_chinese(question):
        return f"{call.name} 不支持{'和'.join(unsupported)}：它支持的单位只有 {'、'.join(options)}。"
    said = " or ".join(unsupported)
    listed = ", ".join(options[:-1]) + f" and {options[-1]}" if len(options) > 1 else options[0]
    return f"{call.name} does not support {said}: the units it knows are {listed}."


def _no_tool_answer(question: str, tools: list[ToolSpec]) -> tuple[str, str]:
    zh = lang.is_chinese(question)
    if _GREETING.search(question):
        if tools:
            names = ", ".join(t.name for t in tools)
            return ((f"你好！我可以使用这些工具帮你：{names}。" if zh else
                     f"Hello! I can help using these tools: {names}. What would you like to do?"), "greeting")
        return ("你好！有什么可以帮你？" if zh else "Hello! How can I help you today?"), "greeting"
    if tools:
        names = ", ".join(t.name for t in tools)
        return ((f"抱歉，我的工具（{names}）都不适合回答这个问题。" if zh else
                 f"Sorry, none of my tools ({names}) can help with that, and I won't guess."), "no tool fits")
    return (("我是课程的离线模拟模型：没有通用知识，只会使用你提供的工具。" if zh else
             "I'm the course's offline mock model: I have no general knowledge, only the tools you give me."),
            "no tools given")


def decide(req: ChatRequest) -> Decision:
    """Decide the assistant's next message for a validated request.

    Args:
        req: the request (messages, tools, ``tool_choice``, ``parallel_tool_calls``).

    Returns:
        A :class:`Decision`: tool calls to emit, or a text answer, with the reason.

    Example:
        >>> from course_lib.mock_llm.wire import parse_chat_request
        >>> weather = {"type": "function", "function": {"name": "get_weather",
        ...     "description": "Get the current weather for a city",
        ...     "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
        ...                    "required": ["city"]}}}
        >>> decide(parse_chat_request({"model": "m", "tools": [weather],
        ...     "messages": [{"role": "user", "content": "帮我查一下上海的天气"}]})).tool_calls
        [get_weather({"city": "上海"})]
    """
    turn = _read_turn(req.messages)
    tools = req.tools if req.tool_choice != "none" else []
    plan, scores, matched, why_not = plan_calls(turn.question, req.tools)
    decision = Decision(scores=scores, matched=matched)
    if turn.done:
        return _after_results(req, turn, plan, decision)
    if req.tool_choice == "function":
        tool = req.tool(req.forced_tool)
        calls = [c for c in plan if c.name == tool.name] or _unfit_guesses_dropped(_calls_for(tool, turn.question))
        return _emit(req, decision, calls, f"tool_choice forces {tool.name}")
    if req.tool_choice == "auto" and (said := _from_earlier_results(req.messages, turn, plan)):
        decision.content, decision.reason = said, "answered from a tool result already in the conversation"
        return decision
    courtesy = courtesy_reply(turn.question) if not plan and req.tool_choice != "required" else None
    if not courtesy and not plan and turn.asked and req.tool_choice != "required" and _WITHDRAWN.search(turn.question):
        # "never mind" after its own question: the request is dropped, which needs no tool and no apology
        courtesy = ("好的，那就不办了。还有别的需要吗？" if lang.is_chinese(turn.question) else
                    "All right, I'll leave it. Anything else I can do?")
    if courtesy:
        decision.content, decision.reason = courtesy, "thanks or goodbye: nothing to do, no tool"
        return decision
    answered = _answered_question(turn, req.tools, plan) if req.tools else []
    if answered:
        plan = answered
        decision.reason = f"the reply answers the question about {plan[0].name}: values from both messages"
    if not plan and req.tools:
        plan = _follow_up(turn, req.tools)
        if plan:
            decision.reason = "follow-up: the same tool as the previous turn, with the new details"
    if not tools:
        if plan and req.tool_choice == "none":
            what = ", ".join(map(repr, plan))
            decision.content = (f"Tool use is switched off for this request (tool_choice='none'); "
                                f"to answer I would call {what}.")
            decision.reason = "tool_choice='none'"
            return decision
        decision.content, decision.reason = _no_tool_answer(turn.question, req.tools if req.tool_choice != "none" else [])
        return decision
    if not plan:
        if req.tool_choice == "required":
            best = score_tools(turn.question, req.tools)[0][0]
            return _emit(req, decision, _unfit_guesses_dropped(_calls_for(best, turn.question)),
                         "tool_choice='required': best-scoring tool")
        decision.content, decision.reason = _no_tool_answer(turn.question, req.tools)
        if why_not:
            decision.reason += f" ({why_not})"
        return decision
    waiting = [c for c in plan if c.from_results and any(p.clause < c.clause for p in plan if not p.from_results)]
    if waiting:  # first the calls whose results they need
        plan = [c for c in plan if c not in waiting]
    incomplete = [c for c in plan if c.missing]
    if incomplete and req.tool_choice == "auto":
        unsupported = _unsupported_units(incomplete[0], req.tools, turn.question)
        if unsupported:
            decision.content = unsupported
            decision.reason = f"{incomplete[0].name} has no such unit in its enum: say so, no call"
            return decision
        decision.content = _clarify(incomplete[0], turn.question, req.tools)
        decision.reason = f"required argument(s) {incomplete[0].missing} not in the request: ask"
        return decision
    if req.tool_choice == "auto" and _held_back(decision, plan, turn.question, req.tools):
        return decision
    reason = decision.reason or f"best match: {plan[0].name} (score {scores[plan[0].name]})"
    if waiting:
        reason += f"; {', '.join(dict.fromkeys(c.name for c in waiting))} waits for these results"
    return _emit(req, decision, plan, reason)


def _held_back(decision: Decision, plan: list[PlannedCall], question: str, tools: list[ToolSpec]) -> bool:
    """Rate the planned calls (:mod:`.confidence`); when unsure, write the honest reply into ``decision``.

    The weakest value a guess and nothing else amiss: ask for it, as for a missing argument. Otherwise one
    sentence on the closest tool and what could not be read. Returns True when the calls are held back.
    """
    conf = confidence.rate(plan, decision.scores, read(question), question)
    decision.confidence = conf
    if conf.sure:
        return False
    index, name = conf.weakest if conf.weakest is not None else (0, "")
    call = plan[index]
    if name and conf.arguments[conf.weakest][1] == "guess" and not conf.unused:
        asked = PlannedCall(call.name, {k: v for k, v in call.arguments.items() if k != name},
                            {k: v for k, v in call.evidence.items() if k != name}, [name])
        decision.content = _clarify(asked, question, tools)
        decision.reason = f"{call.name}: the value of {name} would be a guess ({conf.summary()}): ask"
    else:
        decision.content = confidence.unsure_reply(call, conf, question, decision.matched.get(call.name, []))
        decision.reason = f"unsure of {call.name} ({conf.summary()}): no call"
    return True


#: What a model invents for a required string that nothing in the request gives, by the argument's role.
_INVENTED_STRINGS = (("city", "London"), ("location", "London"), ("place", "London"), ("country", "United Kingdom"),
                     ("email", "user@example.com"), ("url", "https://example.com"), ("date", ""))


def invented_value(name: str, spec: dict) -> Any:
    """A schema-valid value for a required argument the request does not give (forced ``tool_choice``).

    ``tool_choice="required"`` (or a named function) obliges the model to call even when the request
    gives no value: a real model then makes one up. The mock does so visibly and the same way every
    time: the schema's default or first enum value, its minimum (or 1), ``False``, an empty list, an
    object with its own required fields, the description's first example, or a common value for the
    argument's role ("London" for a city, today's date for a date). Lesson 01 shows why forcing a call
    on an unrelated request yields invented arguments.
    """
    import datetime as _dt

    from .arguments import _examples

    spec = spec if isinstance(spec, dict) else {}
    if "default" in spec:
        return spec["default"]
    if spec.get("enum"):
        return spec["enum"][0]
    kind = spec.get("type")
    kind = next((k for k in kind if k != "null"), "string") if isinstance(kind, list) else kind
    if kind in ("integer", "number"):
        low = spec.get("minimum", spec.get("exclusiveMinimum", 0) + 1 if "exclusiveMinimum" in spec else 1)
        return int(low) if kind == "integer" else low
    if kind == "boolean":
        return False
    if kind == "array":
        return []
    if kind == "object" or "properties" in spec:
        props = spec.get("properties") or {}
        return {k: invented_value(k, props.get(k, {})) for k in spec.get("required") or []}
    desc = str(spec.get("description", ""))
    examples = _examples(desc)
    if examples:
        return examples[0]
    words = " ".join(lang.split_identifier(name)) + " " + desc.lower()
    for hint, value in _INVENTED_STRINGS:
        if re.search(rf"\b{hint}", words):
            return value or _dt.date.today().isoformat()
    return "unknown"


def _unfit_guesses_dropped(calls: list[PlannedCall]) -> list[PlannedCall]:
    """A call forced on a request its tool does not fit ("Tell me a joke" -> book_table) keeps only the values
    the request really names (a place, a number, a date, quoted text): a free word read as a best guess
    ("joke" as the restaurant) is no value, so the argument is invented like any other missing one."""
    for call in calls:
        for k, e in list(call.evidence.items()):
            if isinstance(e, Evidence) and e.rule.startswith("best reading") and k in call.arguments:
                del call.arguments[k], call.evidence[k]
                call.missing.append(k)
    return calls


def _invent_missing(req: ChatRequest, calls: list[PlannedCall]) -> None:
    """A forced call never goes out without its required arguments: fill them as a model would."""
    for call in calls:
        if not call.missing:
            continue
        tool = req.tool(call.name)
        props = (tool.parameters.get("properties") or {}) if tool else {}
        for m in call.missing:
            call.arguments[m] = invented_value(m, props.get(m, {}))
            call.evidence[m] = Evidence("invented: tool_choice forces a call", "not in the request")
        call.missing = []
        order = list(props)  # in the schema's order, as a model writes them
        call.arguments = dict(sorted(call.arguments.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order
                                     else len(order)))


def _emit(req: ChatRequest, decision: Decision, calls: list[PlannedCall], reason: str) -> Decision:
    if req.tool_choice != "auto":
        _invent_missing(req, calls)
    decision.tool_calls = calls if req.parallel_tool_calls else calls[:1]
    decision.reason = reason + ("" if req.parallel_tool_calls or len(calls) <= 1 else
                                f"; parallel_tool_calls=false: 1 of {len(calls)} calls now")
    return decision


def _after_results(req: ChatRequest, turn: _Turn, plan: list[PlannedCall], decision: Decision) -> Decision:
    made = {c["function"]["name"] + json.dumps(_args_of(c), sort_keys=True, ensure_ascii=False) for c, _ in turn.done}
    tried = {c["function"]["name"] for c, _ in turn.done}
    remaining = [c for c in plan if not c.from_results and c.key() not in made and not c.missing
                 and not _made_alike(c, turn)]
    remaining += _written_from_results(plan, turn, remaining)
    if not remaining:  # "(3+4)*2" with add and multiply: the next step, from the results so far
        remaining = [PlannedCall(t.name, args) for t, args in arithmetic.next_calls(
            req.tools, turn.question, [(c["function"]["name"], _args_of(c), _maybe_json(r)) for c, r in turn.done])]
    # A failure that a later call of the same tool repaired (a corrected retry) needs no fallback.
    succeeded = {c["function"]["name"] for c, r in turn.done if not error_of(_maybe_json(r))}
    # A refusal ("kind": "denied": a permission or approval policy said no) is final: looking for
    # another tool to do what was refused is what a security policy must prevent, so no fallback.
    failed = [(c, r) for c, r in turn.done if error_of(_maybe_json(r)) and c["function"]["name"] not in succeeded
              and not _refused(_maybe_json(r))]
    # A failure that a later call of another tool stood in for (a fallback that worked) is handled too.
    ok_rounds = [turn.round_of.get(c["id"], 0) for c, r in turn.done if not error_of(_maybe_json(r))]
    failed = [(c, r) for c, r in failed if not any(k > turn.round_of.get(c["id"], 0) for k in ok_rounds)]
    if req.tool_choice != "none" and turn.rounds < MAX_TOOL_ROUNDS:
        if failed and not remaining:
            # a step waiting for the failed results is part of the plan, not an alternative to it
            remaining = _fallbacks(req, turn, failed, tried | {c.name for c in plan if c.from_results})
            if remaining:
                return _emit(req, decision, remaining, f"{failed[0][0]['function']['name']} failed: trying an alternative")
        elif remaining:
            return _emit(req, decision, remaining, "calls still needed for the request")
    results = [(c["function"]["name"], _args_of(c), r) for c, r in turn.done]
    # A failed call that a later call of the same tool replaced is history, not news.
    later_ok = {name for name, _, r in results if not error_of(_maybe_json(r))}
    results = [x for x in results if x[0] not in later_ok or not error_of(_maybe_json(x[2]))]
    decision.content = compose_answer(results, turn.question)
    decision.reason = "answer from the tool results"
    return decision


def _alike(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        if gz.state_code(a) and gz.state_code(a) == (gz.state_code(b) or b):
            return True  # "Texas" and "TX"
        x, y = re.sub(r"[\W_]+", "", a.lower()), re.sub(r"[\W_]+", "", b.lower())
        return bool(x and y) and (x in y or y in x)
    return a == b


def _made_alike(call: PlannedCall, turn: _Turn) -> bool:
    """Whether a call made in this turn already did what ``call`` would: the same tool with the same values
    for every argument ``call`` has, the made call possibly writing them fuller or adding others
    (``location="San Francisco, CA", unit="fahrenheit"`` answers ``location="San Francisco"``;
    ``timezone="Europe/Warsaw"`` answers ``"Warsaw"``). Its result is there: answer, do not call again."""
    for c, _ in turn.done:
        args = _args_of(c)
        if c["function"]["name"] == call.name and all(k in args and _alike(v, args[k]) for k, v in call.arguments.items()):
            return True
    return False


def _made(call: PlannedCall, turn: _Turn) -> bool:
    """Whether ``call`` was already made (arguments written from results are not compared)."""
    for c, _ in turn.done:
        args = {k: v for k, v in _args_of(c).items() if k not in call.from_results}
        if c["function"]["name"] == call.name and args == call.arguments:
            return True
    return False


def _written_from_results(plan: list[PlannedCall], turn: _Turn, pending: list[PlannedCall]) -> list[PlannedCall]:
    """The waiting calls whose earlier clauses have all answered, with their text written from those answers.

    A waiting call is dropped when an earlier result is an error: a summary of a failure is not
    what the user asked to save (the final answer reports the failure instead).
    """
    out = []
    for call in plan:
        if not call.from_results or call.missing or _made(call, turn):
            continue
        earlier = [p for p in plan if p.clause < call.clause and not p.from_results]
        if any(p in pending for p in earlier):
            continue  # an earlier call has not been made yet
        keys = {p.key() for p in earlier}
        inputs = [(c["function"]["name"], _args_of(c), r) for c, r in turn.done
                  if c["function"]["name"] + json.dumps(_args_of(c), sort_keys=True, ensure_ascii=False) in keys]
        if not inputs or any(error_of(_maybe_json(r)) for _, _, r in inputs):
            continue
        text = compose_answer(inputs, turn.question)
        ready = PlannedCall(call.name, {**call.arguments, **{slot: text for slot in call.from_results}},
                            dict(call.evidence), [], call.clause, call.from_results)
        out.append(ready)
    return out


def _refused(result: Any) -> bool:
    """Whether a tool result is a refusal by a policy (the registry's ``"kind": "denied"``)."""
    return isinstance(result, dict) and result.get("kind") == "denied"


def _maybe_json(content: str) -> Any:
    try:
        return json.loads(content)
    except (ValueError, TypeError):
        return content


def _fallbacks(req: ChatRequest, turn: _Turn, failed, tried: set[str]) -> list[PlannedCall]:
    """Another tool that fits the same request, when the one we used failed."""
    ranked = [(t, s) for t, s, _ in score_tools(turn.question, req.tools) if t.name not in tried and s >= THRESHOLD]
    if not ranked:
        return []
    tool = ranked[0][0]
    call = _calls_for(tool, turn.question)[0]
    if call.missing:  # reuse what the failed call was given
        prev = _args_of(failed[0][0])
        props = tool.parameters.get("properties") or {}
        call.arguments.update({k: v for k, v in prev.items() if k in props and k not in call.arguments})
        call.missing = [m for m in call.missing if m not in call.arguments]
    return [] if call.missing else [call]
