"""Does the request ask for what the tool gives? A check beyond shared words.

Sharing words is not enough: "What is the *freezing point* of water?" shares "point",
"water" and "pressure" with a boiling-point calculator, and "the *acceleration* of a ball
thrown upwards" shares "thrown upwards" and "velocity" with a maximum-height calculator. A
model declines both because the thing asked for is not the thing the tool computes.

The mock checks four kinds of mismatch, each a short rule on words:

* **alternatives**: the request names one of a set of alternatives ("freezing") and the
  tool's name names another ("boiling"), never the one asked for;
* **another quantity**: the request asks for one quantity of a family (area, volume,
  perimeter...; mean, variance, p-value...) and the tool's name computes another;
* **a person from a calculator**: "Who won...?" asked of a tool that calculates;
* **another object**: the tool's own verb done to another kind of thing ("Book a hotel room" of ``book_table``,
  "convert a string to an int" of ``convert_currency``), from the kinds of things each everyday verb is done to
  (``course_lib/data/verb_objects.json``).

Each rule returns the words it read, so ``MockLLM.explain`` can say why no tool was called.
Deliberate shortcut: small hand-written tables (in full below), no semantics beyond them.
Taught in lesson 02 (a tool is chosen for its purpose, not for a shared word).
"""
from __future__ import annotations

import re
from functools import lru_cache

from . import arithmetic
from . import language as lang
from .phrases import FUNCTION_WORDS, VERBS
from ..package_data import load_json

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

#: Opposite actions on a thing: a tool that adds does not remove, and the other way round.
_ADDING = frozenset("add create insert book schedule put make new append register save post set".split())
_REMOVING = frozenset("remove delete cancel drop clear erase unschedule unregister discard purge".split())
_READING = frozenset("list get search find show read fetch view query lookup count check".split())
_ZH_ACTIONS = load_json("zh_actions.json")
_ZH_ADD = "|".join("(?!" + "|".join(_ZH_ACTIONS["nouns"]) + ")" + "".join(
    f"(?<!{c})" for c in _ZH_ACTIONS["noun_after"].get(a, ())) + a for a in _ZH_ACTIONS["add"])
_ACTION_RX = re.compile(r"\b(add|create|insert|book|schedule|put|append|register|remind|remove|delete|cancel|drop|clear|"
                        r"erase|unschedule|unregister|discard|purge|get rid of)\b|(" + "|".join(_ZH_ACTIONS["remove"]) + ")|"
                        r"(" + _ZH_ADD + r")|\b(list|show|read|view|see|check|what|which|how many|"
                        r"any)\b|(" + "|".join(_ZH_ACTIONS["read"]) + ")", re.I)


def _actions(text: str) -> list[tuple[int, str]]:
    """``(position, "add" | "remove" | "read")`` of every action verb of the request, in order."""
    out = []
    for m in _ACTION_RX.finditer(text):
        if m.group(1):
            word = m.group(1).lower()
            out.append((m.start(), "remove" if word in _REMOVING or word == "get rid of" else "add"))
        else:
            out.append((m.start(), "remove" if m.group(2) else "add" if m.group(3) else "read"))
    return out


def _request_action(text: str, objects: frozenset[str]) -> str | None:
    """"add", "remove" or "read": what the request does to the tool's thing ("Clear the cache and *list* my
    todos": the verb nearest before the first word naming the thing), else its first action verb."""
    acts = _actions(text)
    if not acts:
        return None
    for m in re.finditer(r"[A-Za-z][\w'-]*", text):
        if lang.stem(m.group(0).lower()) in objects:
            before = [a for pos, a in acts if pos < m.start()]
            return before[-1] if before else None
    return acts[0][1]


@lru_cache(maxsize=4096)
def _name_verbs(name: str) -> frozenset[str]:
    """Stems of the words of a tool's name that can be its verb: the first two ("add_todo",
    "calendar_create_event"), not a noun at its end ("sports_match_schedule")."""
    return frozenset(lang.stem(w) for w in lang.split_identifier(name)[:2])


def name_action(name: str) -> str | None:
    """What a tool does to its thing by the verb of its name: "add" (``add_to_cart``, ``create_event``), "remove"
    (``remove_from_cart``, ``delete_event``), "read" (``view_cart``, ``git_log``'s none), or None when its name says
    none or more than one."""
    verbs = _name_verbs(name)
    kinds = {k for k, words in (("add", _ADDING), ("remove", _REMOVING), ("read", _READING))
             if verbs & {lang.stem(w) for w in words}}
    return kinds.pop() if len(kinds) == 1 else None


def _opposite_action(text: str, name_stems: frozenset[str], tool_stems: frozenset[str],
                     verbs: frozenset[str]) -> str | None:
    """Why a tool whose name's verb does the opposite of what the request asks does not fit, or None:
    "Remove the todo" of ``add_todo``, "What are my todos?" of ``add_todo``, "Add..." of ``delete_x``."""
    adds = {lang.stem(w) for w in _ADDING}
    removes = {lang.stem(w) for w in _REMOVING}
    reads = {lang.stem(w) for w in _READING}
    action = _request_action(text, name_stems - adds - removes - reads)
    if action == "remove" and not tool_stems & removes:
        if verbs & adds:
            return "asks to remove, the tool adds"
        if verbs & reads:
            return "asks to remove, the tool only reads"
    elif action == "add" and verbs & removes and not verbs & adds:
        return "asks to add, the tool removes"
    elif action == "add" and verbs & reads and not verbs & adds and not name_stems & adds and _only_adds(text):
        return "asks to add, the tool only reads"
    elif action == "read" and verbs & (adds | removes) and not name_stems & reads and not _ADDS_IN_WORDS.search(text):
        return "asks to see, the tool changes"
    return None


#: Words that join a second request or a condition to the first ("and", 并, 然后, "if", 如果): a reading tool may serve it.
_ANOTHER_PART = re.compile(r"\b(?:and|then|also|if|unless|when|once|after|before|while)\b|[;；]|并|然后|顺便|再|如果|要是|假如|"
                           r"的话|除非|之后|以后|之前|同时|还要|另外", re.I)


def _only_adds(text: str) -> bool:
    """Whether a request asks only to add, in one part ("帮我建一个日程", "Create an event Friday"): every action
    verb adds and nothing joins another request or a condition a reading tool could serve."""
    acts = _actions(text)
    return bool(acts) and all(a == "add" for _, a in acts) and not _ANOTHER_PART.search(text)


#: A question may still ask for a change ("Can you add...?", "what if I book..."): then it is no mere reading.
_ADDS_IN_WORDS = re.compile(r"\b(?:add|create|insert|book|schedule|put|append|register|remove|delete|cancel|make|"
                            r"set|new|save|remind)\b|添加|新建|创建|建(?![议筑])|订|删除|提醒", re.I)


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


@lru_cache(maxsize=1)
def _verb_objects() -> tuple[tuple[frozenset[str], tuple[str, ...], dict[str, tuple[str, frozenset[str], tuple[str, ...]]]], ...]:
    """Per verb of ``course_lib/data/verb_objects.json``: ``(its forms' stems, its Chinese forms, {kind: (its Chinese
    name, its English words' stems, its Chinese words)})``, built once."""
    out = []
    for entry in load_json("verb_objects.json")["verbs"].values():
        verbs = frozenset(lang.stem(v) for v in entry["verbs"] if not lang.is_chinese(v))
        zh_verbs = tuple(sorted((v for v in entry["verbs"] if lang.is_chinese(v)), key=len, reverse=True))
        kinds = {k: (kind["zh"], frozenset(lang.stem(w.lower()) for w in kind["words"] if not lang.is_chinese(w)),
                     tuple(w for w in kind["words"] if lang.is_chinese(w))) for k, kind in entry["kinds"].items()}
        out.append((verbs, zh_verbs, kinds))
    return tuple(out)


#: Words between a verb and its object that name neither: "book *me a* hotel room", "convert *this* string".
_OBJECT_LEAD = frozenset("me us him her them a an the my our your this that these those some another one two "
                         "new please".split())
_CLAUSE_END = re.compile(r"[.,;:!?，。；：！？]")


def _object_words(text: str, verbs: frozenset[str]) -> dict[str, str]:
    """The words that follow one of ``verbs`` used in ``text`` (up to 8, within its clause), stem -> as written:
    "Can you book me a flight to Chicago" -> ``{"flight": "flight", "to": "to", "chicago": "Chicago"}``."""
    words = list(re.finditer(r"[A-Za-z][\w'-]*|[.,;:!?]", text))
    out: dict[str, str] = {}
    for i, m in enumerate(words):
        if m.group(0)[0].isalpha() and lang.stem(m.group(0).lower()) in verbs:
            for w in words[i + 1:i + 9]:
                if not w.group(0)[0].isalpha():
                    break
                if w.group(0).lower() not in _OBJECT_LEAD:
                    out.setdefault(lang.stem(w.group(0).lower()), w.group(0))
    return out


def _zh_object(text: str, zh_verbs: tuple[str, ...]) -> str:
    """What follows a Chinese verb of the request, to its clause's end (订一间酒店房间，明天 -> 一间酒店房间)."""
    out = []
    for v in zh_verbs:
        for m in re.finditer(re.escape(v), text):
            out.append(_CLAUSE_END.split(text[m.end():m.end() + 16])[0])
    return " ".join(out)


def _kinds_named(words: dict[str, str], zh_text: str, kinds: dict) -> list[tuple[str, str]]:
    """``(kind, the word that names it, as written)`` of the kinds whose words are among ``words`` (stem -> as
    written) or in ``zh_text``."""
    out = []
    for kind, (_, stems, zh) in kinds.items():
        hit = next((words[w] for w in sorted(words) if w in stems), None) or next((w for w in zh if w in zh_text), None)
        if hit:
            out.append((kind, hit))
    return out


def another_object(text: str, name: str, description: str) -> tuple[str, str, str, str] | None:
    """``(the verb, the kind the tool's words name, the kind the request names, the request's word for it)`` when
    the request does the tool's own action to another kind of thing ("Book a hotel room" of ``book_table``:
    ``("book", "restaurant tables", "hotel rooms", "hotel")``), else None.

    The tool's verb is a word of its name (or its description's first word) among a verb's forms in
    ``course_lib/data/verb_objects.json``; the request's object is what follows that verb in the request. Only a
    request whose object names a kind of that verb's things, none of them a kind the tool's name and description
    name, is another object: a tool whose words name no kind, or a request that names none, decides nothing.
    """
    name_stems, tool_stems = _tool_words(name, description)
    first_word = re.match(r"\s*([A-Za-z]+)", description)
    own_verbs = name_stems | ({lang.stem(first_word.group(1).lower())} if first_word else set())
    tool_zh = name + description
    for verbs, zh_verbs, kinds in _verb_objects():
        if not (own_verbs & verbs or any(v in tool_zh for v in zh_verbs if len(v) > 1)):
            continue
        tool_kinds = {k for k, _ in _kinds_named({st: st for st in tool_stems}, tool_zh, kinds)}
        if not tool_kinds:
            continue
        asked = _kinds_named(_object_words(text, verbs), _zh_object(text, zh_verbs), kinds)
        if asked and not any(k in tool_kinds for k, _ in asked):
            verb = next((v for v in sorted(verbs) if v in own_verbs), sorted(verbs)[0])
            return verb, sorted(tool_kinds)[0], asked[0][0], asked[0][1]
    return None


def object_reply(text: str, tools: list) -> str | None:
    """The honest sentence when the request's object is another kind than every offered tool's (see
    :func:`another_object`): what the closest tool is for, and that no tool serves the request; else None.

    >>> from course_lib.mock_llm.wire import ToolSpec
    >>> object_reply("Book a hotel room", [ToolSpec("book_table", "Book a table at a restaurant.", {})])
    "Sorry, book_table is for restaurant tables, not hotel rooms ('hotel'), so none of my tools can do this, and I won't guess."
    """
    for tool in tools:
        other = another_object(text, tool.name, tool.description)
        if other:
            _, tool_kind, asked_kind, word = other
            if lang.is_chinese(text):
                zh = {k: v[0] for _, _, kinds in _verb_objects() for k, v in kinds.items()}
                return (f"抱歉，{tool.name} 管的是{zh[tool_kind]}，不是{zh[asked_kind]}（“{word}”）；我的工具都帮不上"
                        "这个忙，我不会乱猜。")
            return (f"Sorry, {tool.name} is for {tool_kind}, not {asked_kind} ('{word}'), so none of my tools can do "
                    "this, and I won't guess.")
    return None


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
    # "what is 3 plus 4" asks for a sum: an ``add`` tool computes it, it adds nothing to a list
    arithmetic_tool = arithmetic.tool_operation(name) is not None and bool(arithmetic.find(text))
    opposite = None if arithmetic_tool else _opposite_action(text, name_stems, tool_stems, _name_verbs(name))
    if opposite:
        return opposite.replace("the tool", name)
    target = target_words(text)
    heads = [lang.stem(w) for w in target if lang.stem(w) in _QTY]
    if heads:
        h = heads[-1]
        other = _QTY[h][1] & name_stems
        if other and not _covered(h, set(tool_stems)) and not any(_covered(o, asked) for o in other):
            return f"asks for {h}, {name} computes {', '.join(sorted(other))}"
    other = another_object(text, name, description)
    if other:
        return f"asks to {other[0]} {other[2]} ('{other[3]}'), {name} is for {other[1]}"
    if re.match(r"\s*who\b", text, re.I) and name_stems & {lang.stem(c) for c in _CALCULATORS} \
            and not _PERSON_WORDS.search(name.replace("_", " ") + " " + description):
        return f"asks who, {name} calculates"
    return None
