"""Stage 2 of the pipeline: choose the tools a request is about, by the words they share.

Every tool gets a relevance score for the request: tool name words weigh most, then the
description, then parameter names and enum values; Chinese words are mapped to English
concepts (:data:`~.language.ZH_LEXICON`) and CJK bigrams match Chinese descriptions directly;
related words (:mod:`.relations`), tickers and arithmetic add concepts. Tools above
:data:`THRESHOLD` with a strong word are candidates. An index per tool set (built once) visits
only the tools that share something with the text. Taught in lesson 02 (why descriptions matter).
"""
from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

from . import arithmetic
from . import gazetteer as gz
from . import language as lang
from . import relations
from . import tickers
from . import unit_enums
from ..package_data import load_json
from .arguments import LOCATION_HINTS, slots_of
from .reading import read
from .wire import ToolSpec


THRESHOLD = 1.5


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
    opening: str | None = None  # the verb the description opens with, when not a name word (:func:`_opening_word`)


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

    name_words = _name_words(tool.name)
    for st in lang.content_stems(tool.description):
        add(st, DESC_WEIGHT)
    for c in lang.chinese_concepts(tool.description) + lang.chinese_concepts(tool.name):
        add(c, DESC_WEIGHT)
    unit_zh, has_location = _add_parameter_concepts(tool.parameters, add)
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
                    frozenset(weights), _opening_word(tool.description, name_words))


_GENERIC_STEMS = frozenset(lang.stem(w) for w in GENERIC_NAME_WORDS) | lang.WEAK


def _opening_word(description: str, name_words: dict[str, float]) -> str | None:
    """The stem of the word a description opens with ("Switches branches" -> ``switch``, "Stream the selected
    movie" -> ``stream``): the tool's action, said in its description rather than its name (git_checkout). None
    when the name has it already, or it is a generic verb ("Get ...", "Returns ...") or a stop word."""
    m = re.match(r"\s*([A-Za-z]{3,})\b", description)
    if m is None or m.group(1).lower() in lang.STOPWORDS:
        return None
    st = lang.stem(m.group(1))
    return None if st in name_words or st in _GENERIC_STEMS else st


_LEADS = load_json("request_leads.json")
_EN_LEADS = re.compile(r"^(?:(?:" + "|".join(_LEADS["en"]) + r")\b[\s,]*)*", re.I)
_ZH_LEADS = re.compile(r"^(?:" + "|".join(_LEADS["zh"]) + r")*")
_CLAUSE_BREAK = re.compile(r"[.!?;:。！？；，,、]+\s*|\s+(?:and|then|and then)\s+|然后|并且|再")


@lru_cache(maxsize=1024)
def opening_verbs(text: str) -> frozenset[str]:
    """The stems of the verbs ``text``'s sentences and clauses open with, after a polite or framing lead
    (``course_lib/data/request_leads.json``): "Please switch to develop, then create a branch" -> ``switch``,
    ``creat``; "切换到 develop 分支" -> ``switch``. The action asked, as opposed to the things it is about.

    Example:
        >>> sorted(opening_verbs("Can you find a movie for me? Something with Brad Pitt"))
        ['find', 'someth']
    """
    out: set[str] = set()
    for piece in _CLAUSE_BREAK.split(text):
        piece = piece.strip()
        if not piece:
            continue
        if lang.is_chinese(piece[0]):
            rest = _ZH_LEADS.sub("", piece)
            out.update(lang.chinese_concepts(rest[:2]))
            continue
        rest = piece[_EN_LEADS.match(piece).end():]
        m = re.match(r"([A-Za-z]{3,})\b", rest)
        if m and m.group(1).lower() not in lang.STOPWORDS:
            out.add(lang.stem(m.group(1)))
    return frozenset(out)


def _name_words(name: str) -> dict[str, float]:
    """The stems of a tool name's words with their weights: a namespace segment ("finance." of
    "finance.get_quote") weighs less than the last segment; weak words weigh 0.3."""
    name_words: dict[str, float] = {}
    segments = re.split(r"[.]", name)
    for k, seg in enumerate(segments):
        for part in lang.split_identifier(seg):
            if part in lang.STOPWORDS:
                continue
            w = NAMESPACE_WEIGHT if k < len(segments) - 1 else NAME_WEIGHT
            st = lang.stem(part)
            if st in lang.WEAK:
                w = 0.3
            name_words[st] = max(name_words.get(st, 0.0), w)
    return name_words


def _add_parameter_concepts(parameters: dict, add: Callable[[str, float], None]) -> tuple[set[str], bool]:
    """Add the concepts of each parameter (its name, description and enum values, a unit enum's other
    spellings: "miles" for "mi") through ``add(concept, weight)``.

    Returns:
        ``(Chinese unit names, whether a parameter takes a location)``.
    """
    unit_zh: set[str] = set()
    has_location = False
    for pname, spec in (parameters.get("properties") or {}).items():
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
    return unit_zh, has_location


_EXAMPLES_RX = re.compile(r"'[^']*'|\"[^\"]*\"|\b(?:e\.g\.|eg\.|i\.e\.|for example|for instance|such as|like|"
                          r"including|examples?:?)[^.;)]*", re.I)


def _described_names(description: str) -> frozenset[str]:
    """Stems of the capitalised words inside a description's sentences, without the examples it shows."""
    plain = _EXAMPLES_RX.sub(" ", description)
    return frozenset(lang.stem(m.group(1)) for m in re.finditer(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]{2,})\b", plain))


#: "How many ounces in 2 pounds", "how much is 100 euro in USD": a conversion asked without the word.
_HOW_MANY_IN = re.compile(r"\b(?:[Hh]ow (?:many|much)|worth|equals?)\b|\b[Ww]hat(?:'s| is| are)\s.*\d.*\sin\s+\S|\d.*\bin\s+[A-Z]{3}\b|等于|多少")


#: An amount on one temperature scale and another scale asked for: "30 C in F", "100°F to °C", "300 K in C",
#: "100 degrees Fahrenheit in Celsius".
_SCALE = r"(?:degrees?\s+)?°?\s*(C|F|K|celsius|fahrenheit|kelvin|centigrade)\b"
_DEGREES_PAIR = re.compile(r"\d\s*" + _SCALE + r".*?\b(?:in|to|into)\s+" + _SCALE, re.I)


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
    if (pair := _DEGREES_PAIR.search(text)) and pair.group(1)[0].upper() != pair.group(2)[0].upper():
        return {"convert", "conversion", "unit", "temperatur"}  # "what is 30 C in F?": degrees, not a name
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


_ACTION_NOUNS = load_json("action_nouns.json")
_LEAD = r"(?:" + "|".join(_ACTION_NOUNS["leads"]) + r")"
#: "the last 5 commits", "my orders", "recent searches": a plural after a determiner, possessive or
#: quantifier (``course_lib/data/action_nouns.json``), with more such words between.
_NOUN_USE = re.compile(rf"\b{_LEAD}\s+(?:{_LEAD}\s+)*([a-z]+s)\b", re.I)
_LISTING = frozenset(_ACTION_NOUNS["listing"])


def _noun_uses(text: str) -> frozenset[str]:
    """The stems of the words ``text`` uses as plural nouns ("show the last 5 commits" -> ``commit``), unless
    it also uses them as a verb ("commit my changes and list the commits" keeps the verb)."""
    nouns = {lang.stem(m.group(1)) for m in _NOUN_USE.finditer(text)}
    verbs = {lang.stem(w) for w in re.findall(r"[A-Za-z]+", text) if not w.lower().endswith("s")}
    return frozenset(n for n in nouns if n not in verbs)


def _action_words(tools: tuple[ToolSpec, ...]) -> tuple[str | None, ...]:
    """Each tool's action word: its name's first word, or the second when the first is a prefix that other
    offered tools share and its own description does not use (git_commit "Records changes to the repository",
    git_log: ``commit``, ``log``; search_web "Search the web": ``search``). None when the name has no other
    word, the word is a plural (game_rewards_get: the rewards are its things) or the name starts with a
    generic verb (get_sensor_readings: its action is "get", the rest are its things)."""
    firsts = [lang.split_identifier(t.name.split(".")[-1]) for t in tools]
    out = []
    for t, words in zip(tools, firsts):
        if len(words) < 2 or words[0] in GENERIC_NAME_WORDS:
            out.append(None)
            continue
        shared = sum(1 for w in firsts if w and w[0] == words[0]) > 1
        prefix = shared and lang.stem(words[0]) not in lang.content_stems(t.description)
        word = words[1] if prefix else words[0]
        out.append(None if word.endswith("s") else lang.stem(word))
    return tuple(out)


def _listed(profiles: tuple[_Profile, ...]) -> frozenset[str]:
    """The words of the tools that list things (a name with 'list', 'log' or 'history': git_log "Shows the
    commit logs", list_orders): the near-twins a noun use of another tool's action word is about."""
    out: set[str] = set()
    for prof in profiles:
        if {st for st, _ in prof.name_words} & _LISTING:
            out.update(st for st, _ in prof.name_words)
            out.update(prof.weights)
    return frozenset(out)


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
    actions: tuple[str | None, ...] = ()  # each tool's action word (:func:`_action_words`)
    listed: frozenset[str] = frozenset()  # the words of the listing tools (:func:`_listed`)
    noun_words: frozenset[str] = frozenset()  # the action words the listing tools use (``actions`` & ``listed``)

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

    actions, listed = _action_words(tools), _listed(profiles)
    return _ToolSetIndex(tools, profiles, df, frozen(by_stem), frozen(by_prefix), frozen(by_zh), tuple(phrases),
                         tuple(acronyms), dict.fromkeys((t.name for t in tools), 0.0), actions, listed,
                         frozenset(actions) & listed)


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
    context.noun_words = index.noun_words if len(tools) > 1 else frozenset()
    context.openers = opening_verbs(text)
    _DISTINCT.update(index.no_distinct)
    scored: dict[int, tuple[ToolSpec, float, list[str]]] = {}
    for i in candidates:
        tool = tools[i]
        context.action = index.actions[i]
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

    __slots__ = ("text", "text_low", "concepts", "initials", "by_prefix", "bigrams", "df", "n", "_has_place",
                 "_nouns", "noun_words", "action", "openers")

    def __init__(self, text: str, text_low: str, concepts: frozenset[str], initials: str,
                 by_prefix: dict[str, tuple[str, ...]], bigrams: set[str], df: dict[str, int], n: int) -> None:
        self.text, self.text_low = text, text_low
        self.concepts, self.initials, self.by_prefix, self.bigrams = concepts, initials, by_prefix, bigrams
        self.df, self.n = df, n
        self._has_place: bool | None = None
        self._nouns: frozenset[str] | None = None
        self.noun_words: frozenset[str] = frozenset()  # the tool set's action words that a listing tool uses
        self.action: str | None = None  # the action word of the tool being scored
        self.openers: frozenset[str] = frozenset()  # the verbs the request's clauses open with (:func:`opening_verbs`)

    @property
    def has_place(self) -> bool:
        """Whether the request names a known city (looked up only when a strong tool takes a location)."""
        if self._has_place is None:
            self._has_place = bool(lang.find_cities(self.text))
        return self._has_place

    @property
    def nouns(self) -> frozenset[str]:
        """The tool set's action words that the request uses as plural nouns (:func:`_noun_uses`), read only
        when a tool being scored asks (a listing tool's name word, or its own action word matched)."""
        if self._nouns is None:
            self._nouns = _noun_uses(self.text) & self.noun_words if self.noun_words else frozenset()
        return self._nouns

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
        if st in _LISTING and ctx.nouns and ctx.nouns & (prof.weight_keys | {s for s, _ in prof.name_words}):
            concepts = concepts | {st}  # "the last 5 commits": what git_log ("Shows the commit logs") lists
        if st not in concepts and st[:4] not in by_prefix and not multiword and not acronym:
            continue  # the common case, decided without a call (scoring runs per tool, clause and request)
        hit = _name_hit(st, multiword, acronym, concepts, ctx.text_low, ctx.initials, by_prefix)
        if hit is None:
            continue
        if st == ctx.action and st in ctx.nouns:
            w = min(w, DESC_WEIGHT)  # "the last 5 commits" names the things git_commit makes, not its action
        score += w
        distinct += w * ctx.idf(st)
        matched.append(st if hit == st else f"{st}~{hit}")
        seen.add(st)
        if hit in concepts:
            seen.add(hit)
        if w >= NAMESPACE_WEIGHT:
            strong = True
    named = strong  # a word of its name matched
    # only the request's words this tool uses, or abbreviates, can add to its score
    relevant = concepts & prof.weight_keys
    for prefix in by_prefix.keys() & prof.by_prefix.keys():
        relevant = relevant | frozenset(by_prefix[prefix])
    # in sorted order, each of the tool's words counted once: "remind" and "reminder" in the request both
    # match the tool's "remind" (directly and as its abbreviation), which counts once whichever comes first
    for c in sorted(relevant):
        if c in seen:
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
            seen.add(key)
            score += w
            distinct += w * ctx.idf(key)
            matched.append(c)
            if key in prof.strong:
                strong = strong or w >= 1.0
    if named and prof.opening in ctx.openers and prof.opening in seen:
        # "switch to the develop branch": the action git_checkout's description opens with ("Switches branches")
        # weighs as a name word, as git_create_branch's "create" would for "create a branch"; only beside a
        # name word the request says ("git", "branch"): the verb alone ("search for something") chooses nothing
        bonus = NAME_WEIGHT - prof.weights.get(prof.opening, 0.0)
        score += bonus
        distinct += bonus * ctx.idf(prof.opening)
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


_ACTIONS = frozenset(lang.stem(w) for w in load_json("tool_actions.json")["verbs"])


def unsaid_actions(tool: ToolSpec, matched: list[str], other: ToolSpec | None = None) -> set[str]:
    """The action verbs of ``tool``'s name (``course_lib/data/tool_actions.json``: play, buy, list...) that the
    request does not say (``matched``: the words scoring found, related words included) and ``other``'s name does
    not share: Media_PlayMovie's ``play`` when the request asks to find movies."""
    said = {m.split("~")[0] for m in matched}
    own = {st for st, _ in _profile(other).name_words} if other is not None else set()
    return {st for st, _ in _profile(tool).name_words if st in _ACTIONS and st not in said and st not in own}


def _takes_a_date(tool: ToolSpec) -> int:
    """1 when one of the tool's parameters is a date."""
    return int(any(s.role == "date" for s in slots_of(tool.parameters)))
