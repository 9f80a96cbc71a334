"""Filling a tool's arguments from the user's words, guided by its JSON Schema.

The second step of reading a request (the first is :mod:`.reading`). Each property of the
schema becomes a *slot*: what type it wants, which words name it (its name, its
description, their synonyms), which dimension it measures ("seconds" -> time), what role a
string plays (a place, a date, an id, a formula...). Each mention of the text is scored
against each slot:

* **label**: the mention is explicitly named after the slot ("a = 3", "x=1");
* **context**: the slot's words stand right before ("a radius *of* 4") or right after
  ("3 *bedrooms*", "the *employees* database") the mention;
* **unit**: the mention's unit measures what the slot measures ("5 *seconds*" -> ``time``);
* **role**: a place for a city, a date for a date, a quoted title for a name, an id for an id;
* **order**: when nothing else decides, the first number goes to the first numeric slot.

Then the best (slot, mention) pairs are taken greedily, each mention used once. A required
slot takes its best candidate; an optional slot only takes a value the text clearly gives,
otherwise it is left out and the tool's default applies, as a real model does. A required
slot with nothing to fill it is reported ``missing`` (the engine then asks a question).

Every value keeps its :class:`Evidence` (the rule and the words), which is what
``MockLLM.explain`` shows. Deliberate shortcut: rules, not learning; each rule is short
and named after the kind of phrase it reads. Taught in lessons 01 and 02.
"""
from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Any

from . import gazetteer as gz
from . import language as lang
from . import phrases as phrases_mod
from . import timezones
from . import slot_units, unit_enums
from .reading import _NOT_NAMES, Mention, Reading, read
from ..package_data import load_json
from .paths import PATH_WORDS

LOCATION_HINTS = ("city", "location", "place", "town", "region", "country", "destination", "area", "地点", "城市",
                  "address", "state", "county", "origin", "venue", "where")
QUERY_HINTS = ("query", "keyword", "keywords", "search", "question", "prompt", "term", "q", "searchterm")
TEXT_HINTS = ("text", "content", "message", "body", "sentence", "paragraph", "review", "comment", "note", "input",
              "statement", "passage", "tweet", "post", "transcript")
DATE_HINTS = ("date", "day", "when", "日期", "birthday", "deadline")

_SYNONYMS: dict[str, tuple[str, ...]] = {
    "celsius": ("°c", "celsius", "centigrade", "摄氏", "metric"),
    "fahrenheit": ("°f", "fahrenheit", "华氏", "imperial"),
    "metric": ("metric", "celsius", "°c", "kilometers", "km", "meters"),
    "imperial": ("imperial", "fahrenheit", "°f", "miles", "feet"),
    "high": ("high", "urgent", "important", "critical", "asap", "高", "紧急"),
    "medium": ("medium", "normal", "moderate", "中"),
    "low": ("low", "minor", "whenever", "低"),
    "todo": ("todo", "to do", "to-do", "not started", "open", "pending", "待办", "未开始"),
    "in_progress": ("in progress", "in-progress", "ongoing", "started", "working on", "进行中"),
    "done": ("done", "finished", "complete", "completed", "closed", "已完成", "完成"),
    "asc": ("ascending", "asc", "smallest first", "oldest first", "lowest first", "increasing", "升序"),
    "desc": ("descending", "desc", "largest first", "newest first", "highest first", "decreasing", "降序"),
    "ascending": ("ascending", "asc", "smallest first", "lowest first", "increasing", "升序"),
    "descending": ("descending", "desc", "largest first", "highest first", "decreasing", "降序"),
    "km": ("km", "kilometer", "kilometers", "kilometre", "kilometres", "公里"),
    "mi": ("mi", "mile", "miles", "英里"),
    "miles": ("mi", "mile", "miles", "英里"),
    "kilometers": ("km", "kilometer", "kilometers", "kilometre", "kilometres", "公里"),
    "male": ("male", "man", "men", "boy", "男"), "female": ("female", "woman", "women", "girl", "女"),
    "true": ("yes", "true"), "false": ("no", "false"),
    "daily": ("daily", "every day", "each day", "per day", "每天"), "weekly": ("weekly", "every week", "每周"),
    "monthly": ("monthly", "every month", "each month", "per month", "每月"),
    "yearly": ("yearly", "annually", "annual", "every year", "per year", "每年"),
    "annually": ("annually", "annual", "yearly", "every year", "per year"),
    "quarterly": ("quarterly", "every quarter", "each quarter"),
    "indoor": ("indoor", "indoors", "inside", "室内"), "outdoor": ("outdoor", "outdoors", "outside", "户外", "室外"),
    "vegetarian": ("vegetarian", "veggie", "素食"), "vegan": ("vegan", "plant-based"),
    "fastest": ("fastest", "quickest"), "shortest": ("shortest",),
    "today": ("today", "tonight", "this evening", "今天", "今日", "今晚"),
    "tomorrow": ("tomorrow", "tomorrow night", "明天", "明日", "明晚"),
    "day_after_tomorrow": ("day after tomorrow", "后天"),
    "economy": ("economy", "coach", "经济舱"), "premium": ("premium economy", "premium", "超级经济舱"),
    "premium_economy": ("premium economy", "超级经济舱"), "business": ("business class", "business", "商务舱"),
    "first": ("first class", "头等舱"),
    "transit": ("transit", "public transport", "public transportation", "public transit"),
    "driving": ("driving", "drive", "by car"), "walking": ("walking", "walk", "on foot"),
    "bicycling": ("bicycling", "cycling", "by bike", "bike"), "walk": ("walk", "walking", "on foot"),
    "drive": ("drive", "driving", "by car"), "bike": ("bike", "biking", "cycling", "bicycle", "bicycling"),
    # departments and teams, as Chinese requests name them (工程 wiki, 人事部)
    "engineering": ("engineering", "工程", "研发", "技术部"), "hr": ("hr", "人事", "人力资源", "人力"),
    "sales": ("sales", "销售"), "finance": ("finance", "财务"), "marketing": ("marketing", "市场部", "营销"),
    "legal": ("legal", "法务"), "support": ("support", "客服", "技术支持"), "operations": ("operations", "运营"),
}
_OPTION_WORDS = {o: frozenset(w) for o, w in load_json("option_synonyms.json")["options"].items()}
for _option, _words in _OPTION_WORDS.items():  # kinds of film, music, book: 'scary' names 'Horror'
    _SYNONYMS[_option] = tuple(dict.fromkeys((*_SYNONYMS.get(_option, (_option,)), _option, *sorted(_words))))
_GENERIC_KEYS = frozenset("the a an of to in on for by with and or is are be get set use value values data info "
                          "information type number num given specified specific provided optional default "
                          "which that this it its parameter param field input output result whether list "
                          "name".split())
_NUMBERISH_NAMES = re.compile(r"^(?:[a-z]|[a-z]\d|num\d*|number\d+|value\d*|n\d*|x\d*|y\d*|arg\d*|side\d+|"
                              r"[a-z]+_?\d+|operand\d*)$", re.I)


@dataclass
class Evidence:
    """Where an argument value came from: the rule that found it and the words it read."""

    rule: str
    words: str

    def __repr__(self) -> str:
        return f"{self.rule}: {self.words!r}"


@dataclass
class Filled:
    """The outcome of filling one tool's arguments.

    Attributes:
        arguments: the values, by property name (only what was found).
        evidence: for each filled property, the rule and the words behind it.
        missing: required properties nothing in the text could fill.
        spread: properties whose value came from a coordination ("5, 10 and 15") that
            held more values than one call can take, with all those values: the engine
            turns them into parallel calls.
    """

    arguments: dict[str, Any] = field(default_factory=dict)
    evidence: dict[str, Evidence] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    spread: dict[str, list[tuple[Any, Evidence, int]]] = field(default_factory=dict)
    strength: dict[str, float] = field(default_factory=dict)
    echoes: bool = False  # a filled slot has a strong unused runner-up: the text may ask for several calls

    def __repr__(self) -> str:
        return f"Filled({json.dumps(self.arguments, ensure_ascii=False)}, missing={self.missing})"


def accepts_null(spec: dict) -> bool:
    """True when the property schema allows ``null`` (``type: [..., "null"]``, a null ``anyOf`` branch or enum value)."""
    t = spec.get("type")
    if t == "null" or (isinstance(t, list) and "null" in t):
        return True
    if None in (spec.get("enum") or []):
        return True
    return any(isinstance(b, dict) and b.get("type") == "null" for b in spec.get("anyOf") or spec.get("oneOf") or [])


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
#: The Chinese framing of a search, the words English's _LEAD / "our" strip: polite or command openers
#: (帮我, 请, 去 ...), the search verbs (longest first), and possessives before the topic (我们的退款政策 -> 退款政策).
_ZH_OPENERS = ("请你", "请", "麻烦你", "麻烦", "帮我", "帮忙", "能不能", "可以", "你能", "你去", "去", "到", "给我")
_ZH_SEARCH_VERBS = ("搜索一下", "搜索", "搜一下", "搜", "查找", "查询", "查一查", "查一下", "查看", "查", "检索", "找一下", "找找",
                    "找出", "找到", "搜出", "列出", "找", "看看", "看一下")
_ZH_POSSESSIVES = ("我们的", "咱们的", "我的")
_ZH_OPEN = "(?:" + "|".join(map(re.escape, _ZH_OPENERS)) + r")*\s*"
_ZH_VERBS = "(?:" + "|".join(map(re.escape, sorted(_ZH_SEARCH_VERBS, key=len, reverse=True))) + ")"
#: 在公司 Wiki 里 / 从知识库中 / 去 wiki 里: where to search, not what.
_ZH_PLACE = re.compile(_ZH_OPEN + r"(?:在|从|去(?!年)|到)[^，。,？?]{1,24}?(?:里面|里|中|上|内)\s*")
_ZH_VERB = re.compile(_ZH_OPEN + _ZH_VERBS + r"(?:一下)?\s*(?:关于)?\s*")
_ZH_OWN = re.compile("^(?:" + "|".join(map(re.escape, _ZH_POSSESSIVES)) + r")\s*(?=\S)")
#: "前 3 个", "5 条", "三篇": how many results, not what (Chinese counts things with a classifier).
_ZH_COUNT = r"(?:前|头|最新的?|最近的?)?\s*(?:\d+|[一二两三四五六七八九十]+)\s*(?:个|篇|条|项|份|则)"
_ZH_COUNT_LEAD = re.compile(r"^" + _ZH_COUNT + r"\s*")
#: "...的前 3 个 wiki 页面", "...相关的资料": what is returned (pages, documents), not what they are about.
_ZH_RESULT_TAIL = re.compile(r"(?:\s*的)?(?:\s*相关)?(?:\s*的)?\s*(?:" + _ZH_COUNT + r")?\s*(?:wiki|Wiki|WIKI|维基|知识库)?\s*"
                             r"(?:页面|文档|资料|文章|结果|内容|信息|条目|记录)?$")
#: "别告诉我天气，去 wiki 里查一下休假政策": the search asked for starts after a clause's end.
_ZH_LATER_LEAD = re.compile(r"[，,；;：:。！!？?]\s*(?=" + _ZH_OPEN + r"(?:(?:在|从|去(?!年)|到)[^，。,？?]{1,15}?(?:里面|里|中|上|内)\s*)?"
                            + _ZH_VERBS + ")")


#: "in the company wiki", "on the web", "from our docs" at the end: where to search (the tool's own scope), not what.
_SCOPE_TAIL = re.compile(r"\s+(?:in|on|from|within|inside|across|through)\s+(?:the\s+|our\s+|my\s+)?(?:company(?:'s)?\s+|team\s+|"
                         r"internal\s+|online\s+)?(?:wiki|docs?|documentation|knowledge ?base|database|intranet|web|"
                         r"internet|confluence|notion)\b[\s?.!]*$", re.I)
#: "Not the weather: search the wiki for onboarding": the search asked for starts after a clause's end.
_LATER_LEAD = re.compile(r"[:;,.!?]\s+(?=(?:please\s+|can you\s+|could you\s+)?(?:search|look up|find|query|google)\b)", re.I)


#: "What does the wiki say about X?", "what do our docs say on X": the topic is X.
_SAYS_ABOUT = re.compile(r"^(?:what|how)\s+(?:does|do|did)\s+(?:the\s+|our\s+|my\s+)?(?:company\s+)?[\w-]+\s+"
                         r"(?:say|says|tell us|mention|write)\s+(?:about|on|regarding|of)\s+", re.I)


def _query(text: str) -> str:
    text = text.strip()
    if not _LEAD.match(text) and (later := _LATER_LEAD.search(text)):
        text = text[later.end():]
    elif not _ZH_PLACE.match(text) and not _ZH_VERB.match(text) and (later := _ZH_LATER_LEAD.search(text)):
        text = text[later.end():]
    q = _LEAD.sub("", text)
    q = _SCOPE_TAIL.sub("", q)
    q = _SAYS_ABOUT.sub("", q)
    q = re.sub(r"^(?:our|my)\s+(?=\w)", "", q, flags=re.I)
    q = re.sub(r"^(?:for|about)\s+", "", q, flags=re.I)
    q = _QUANTITY.sub("", q)
    q = _ZH_OWN.sub("", _ZH_VERB.sub("", _ZH_PLACE.sub("", q), count=1))
    if lang.is_chinese(q):
        q = _zh_topic(q)
    return q.strip(" ?.!。？！") or text.strip()


def _zh_topic(q: str) -> str:
    """The topic of a Chinese search with its verb gone: "3 篇关于入职的页面" -> "入职" (the count, 关于
    and the kind of result returned are framing, like English "the top 3 pages about")."""
    q = _ZH_COUNT_LEAD.sub("", q.strip(" ?.!。？！"))
    q = re.sub(r"^关于\s*", "", q)
    topic = _ZH_RESULT_TAIL.sub("", q).strip()
    return topic or q


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


# ---------------------------------------------------------------------------- slots
@dataclass(frozen=True)
class Slot:
    """One schema property, as the filler sees it."""

    name: str
    spec_json: str
    kind: str  # integer | number | string | boolean | array | object | enum
    required: bool
    index: int
    keys: frozenset[str]  # stems of the name and its synonyms
    desc_keys: frozenset[str]  # stems of the description's content words
    dims: frozenset[str]
    role: str
    item_kind: str = ""
    options: tuple = ()  # enum values, or options quoted in the description
    percent_as_number: bool = False  # "as a percentage": 5% -> 5.0, not 0.05
    numberish: bool = False  # a, b, c / x, y / num1, num2: filled in order
    nullable: bool = False  # required but nullable: strict mode's way to say optional
    category: str = ""  # the kind of thing it names ("genre", "color"...), see gazetteer.CATEGORIES
    examples: tuple[str, ...] = ()  # values its description shows ("e.g. 'gas', 'diesel'")

    @cached_property
    def spec(self) -> dict:
        """The property's JSON Schema, parsed once per slot (slots are shared: never modify it)."""
        return json.loads(self.spec_json)

    def __repr__(self) -> str:
        return f"Slot({self.name}: {self.kind}/{self.role}{' required' if self.required else ''})"


def _types(spec: dict) -> list[str]:
    t = spec.get("type")
    if isinstance(t, list):
        return [x for x in t if x != "null"] or ["string"]
    if t:
        return [t]
    if "enum" in spec:
        return ["string"]
    if "properties" in spec:
        return ["object"]
    if "items" in spec:
        return ["array"]
    return ["string"]


def _kind_of(spec: dict) -> str:
    if spec.get("enum"):
        return "enum"
    t = _types(spec)[0]
    return t if t in ("integer", "number", "string", "boolean", "array", "object") else "string"


_ROLE_RULES: list[tuple[str, tuple[str, ...]]] = [
    ("expr", ("function", "equation", "expression", "formula", "polynomial", "lambda")),
    ("date", ("date", "birthday", "deadline", "dob", "日期")),
    ("time", ("time of day", "hh:mm", "clock time", "showtime", "departure time", "start time", "end time")),
    ("email", ("email", "e-mail", "mail address")),
    ("path", ("path", "file", "filename", "directory", "folder", "url", "link", "uri", "website", "site", "domain")),
    ("currency", ("currency", "currencies")),
    ("unit", ("unit", "units", "measure", "measurement")),
    ("id", ("id", "identifier", "number", "code", "docket", "key", "uuid", "sku", "isbn", "zip", "postal",
            "ticker", "symbol", "serial", "account", "reference", "version", "rsid", "snp", "phone")),
    ("state", ("state", "province")),
    ("country", ("country", "nation", "nationality", "countries")),
    ("city", ("city", "cities", "town", "城市")),
    ("place", ("location", "place", "region", "area", "address", "destination", "origin", "venue", "where",
               "county", "jurisdiction", "locality", "neighborhood", "neighbourhood", "地点", "位置", "start_location",
               "end_location", "start", "end", "from", "to", "departure", "arrival", "route", "court")),
    ("person", ("person", "name", "author", "artist", "actor", "player", "director", "composer", "writer",
                "president", "leader", "scientist", "inventor", "user", "customer", "employee", "lawyer",
                "owner", "singer", "band", "musician", "painter", "creator", "manager", "assignee", "recipient",
                "athlete", "coach", "individual", "victim", "student", "who", "attendee", "attendees",
                "participant", "participants", "invitee", "invitees", "guest", "guests")),
    ("org", ("company", "organization", "organisation", "team", "club", "institution", "bank", "brand", "league",
             "manufacturer", "maker", "vendor", "producer", "retailer",
             "tournament", "competition", "championship", "cup", "conference", "exchange", "network", "channel",
             "firm", "store", "university", "school", "league", "publisher", "studio", "platform", "entity")),
    ("title", ("title", "book", "movie", "film", "song", "album", "game", "show", "series", "track", "event",
               "battle", "war", "treaty", "act", "law", "case", "painting", "artwork", "sculpture", "paper")),
    ("query", QUERY_HINTS),
    ("text", TEXT_HINTS),
]


def _place_narrowed(role: str, desc_low: str) -> str:
    """A place slot whose description names a narrower kind: ``region``, "Two-letter US state code", is a state."""
    if role != "place":
        return role
    first = re.split(r"[.;(]", desc_low, maxsplit=1)[0]
    if re.search(r"\bstate (?:code|abbreviation|name)s?\b|\bu\.?s\.? state\b", first):
        return "state"
    if re.search(r"\bcountry (?:code|name)s?\b|\biso[ -]?3166", first):
        return "country"
    return role


_VAGUE_NAMES = frozenset({"to", "from", "start", "end", "q", "value", "type", "target", "source", "input", "key", "item",
                          "name", "number", "id", "data", "text", "body", "content", "field"})


_WEAK_ROLE_WORDS = frozenset({"to", "from", "start", "end", "where", "route", "court", "area", "departure", "arrival",
                              "origin", "key", "number", "code", "account", "version", "reference", "phone", "event",
                              "act", "case", "law", "show", "game", "track", "series", "paper", "state", "time of day"})


#: Names of arguments that hold a moment: "start", "end_time", "at", "begins"...
_CLOCK_NAMES = re.compile(r"(?:start|end|begin|begins|finish|from|until|till|to|at|when|time|starts?_?at|"
                          r"ends?_?at)(?:_?time)?|(?:start|end|begin|meeting|event|pickup|alarm|reminder)_?time", re.I)
#: A description that speaks of a clock time ("Start time", "HH:MM", "2pm"), not of a zone, a date or a length.
_CLOCK_DESC = re.compile(r"\b(?:time(?! ?zone)(?! span)(?! period)(?! frame)|hh:mm|o'clock|clock|[ap]\.?m\.?)\b", re.I)


def _is_clock_slot(name: str, desc: str, kind: str, spec: dict) -> bool:
    """Whether a string argument takes a time of day ("14:30", "2pm", 下午三点): its format says ``time``, or
    its name is a moment's ("start", "end", "meeting_time") and its description speaks of a clock time. A
    time of day is its own kind of value: never a duration, never a person's name."""
    if kind != "string":
        return False
    if spec.get("format") == "time":
        return True
    if spec.get("format") == "date-time":
        return False  # the day and the time together (see _date_times)
    if re.search(r"\b(?:date|duration|minutes?|seconds?|hours?|length|yyyy|mm-dd|iso ?8601)\b", desc, re.I) and \
            not re.search(r"hh:mm", desc, re.I):
        return False
    return _CLOCK_NAMES.fullmatch(name) is not None and (name.lower().endswith("time") or bool(_CLOCK_DESC.search(desc)))


def _role(name: str, desc: str, kind: str) -> str:
    if kind == "string" and lang.FOR_AN_AGENT.search(desc):
        return "text"
    words = lang.split_identifier(name)
    if name.lower() in _VAGUE_NAMES:
        low = desc.lower()
        # "start": "ISO 8601 start" is a moment (an ISO 8601 duration is no date)
        for role, hints in (("email", ("email", "e-mail")),
                            ("date", ("date", "yyyy", "mm-dd", "dd/mm", "mm/dd", "iso 8601", "iso8601", "date-time",
                                      "datetime", "timestamp") if "duration" not in low else ()),
                            ("path", ("file path", "url"))):
            if any(re.search(rf"\b{h}\b", low) for h in hints):
                return role
    name_text = " ".join(words)
    low = desc.lower()
    # "team_name", "dish_name": the other words say what is named; "name" alone names a person
    named = [w for w in words if w not in ("name", "names")]
    for role, hints in _ROLE_RULES:
        for h in hints:
            if h == "name":
                continue
            if h in named or (" " in h and h in name_text) or h == name.lower():
                if role == "id" and h == "number" and kind in ("integer", "number"):
                    continue
                return _place_narrowed(role, low)
    if len(named) < len(words):
        if not named or set(named) <= {"full", "first", "last", "user", "given", "family", "display", "nick", "real"}:
            return "person"
        return "title"
    # the description decides when the name does not
    if kind == "string" and re.search(r"\b(?:iso|code|currenc)", low) and any(
            gz.CURRENCIES.get(c.lower()) == c for c in re.findall(r"\b[A-Z]{3}\b", desc)):
        return "currency"  # "ISO code, e.g. USD": a currency named by its code
    first = re.split(r"[.;(]", low, maxsplit=1)[0]
    if kind in ("string", "array"):
        for role, hints in _ROLE_RULES:
            if role in ("unit", "id", "query", "text", "title", "person", "org", "path"):
                continue
            for h in hints:
                if h in _WEAK_ROLE_WORDS:
                    continue  # "to", "from", "where" occur in any description
                if re.search(rf"\b{re.escape(h)}\b", first):
                    return role
    if re.search(r"\bin the format (?:of )?(?:yyyy|mm|dd)|yyyy-mm-dd|mm/dd|dd/mm|mm-dd", low):
        return "date"
    return "free"


_PERCENT_NUMBER = re.compile(r"\b(?:as|in) (?:a )?percent(?:age)?\b|\bpercentage (?:value|points?)\b|\(%\)|"
                             r"\bin %|\bpercent(?:age)? form\b|\be\.g\.,? \d+(?:\.\d+)? for \d+(?:\.\d+)?%|"
                             r"\b\d+% (?:is|=|as) \d+(?:\.0)?\b(?!\.\d)", re.I)
_PERCENT_FRACTION = re.compile(r"\bdecimal\b|\bfraction\b|\b\d+% (?:is|=|as) 0\.\d+|between 0 and 1|0(?:\.0)? (?:to|and) 1\b",
                               re.I)
_PERCENT_SLOTS = load_json("percent_slots.json")
#: Slot names that take a percent as written (tip_percentage: 15) or as a share (tip_rate: 0.15), see
#: ``course_lib/data/percent_slots.json``.
_PERCENT_WHOLE_NAMES = frozenset(_PERCENT_SLOTS["whole_number_names"])
_PERCENT_SHARE_NAMES = frozenset(_PERCENT_SLOTS["fraction_names"])


def _percent_as_number(words: list[str], desc: str) -> bool:
    """Whether a number slot takes "15%" as 15 (else as 0.15): its description says so ("in percent", "e.g. 5 for
    5%") unless it says a fraction ("as a decimal", "between 0 and 1"); with neither, its name does: a
    *percentage* slot takes 15, a *rate*, *fraction* or plain slot 0.15 (of both, the name's last word decides).

    >>> _percent_as_number(["tip", "percentage"], "The tip percentage."), _percent_as_number(["tip", "rate"], "")
    (True, False)
    >>> _percent_as_number(["tip", "percentage"], "The tip percentage as a decimal.")
    False
    """
    if _PERCENT_FRACTION.search(desc):
        return False
    if _PERCENT_NUMBER.search(desc):
        return True
    said = [w for w in words if w in _PERCENT_WHOLE_NAMES or w in _PERCENT_SHARE_NAMES]
    return bool(said) and said[-1] in _PERCENT_WHOLE_NAMES  # the last says what it is: rate_percent is a percent


_VAGUE_MONEY = frozenset({"value", "amount", "sum", "net", "balance", "flow", "charge", "fund"})
_MONEY_TALK = re.compile(r"money|price|cost|\$|dollar|currenc|usd|eur\b|payment|invest|cash|salary|loan|budget|"
                         r"financ|revenue|income|profit|fee|worth|spend|deposit", re.I)


def _dims(words: list[str], desc: str) -> frozenset[str]:
    dims = set()
    text = " ".join(words) + " " + desc.lower()
    desc_words = set(re.findall(r"[a-z]+", desc.lower()))
    for dim, hints in gz.DIMENSION_WORDS.items():
        if dim == "amount" and "mol" not in text:
            continue  # "quantity", "amount": of anything; an amount of substance says moles
        hit = [h for h in hints if h in words]
        if dim == "money" and set(hit) <= _VAGUE_MONEY and not _MONEY_TALK.search(text):
            continue  # "value", "amount": money only when the description talks of money
        if hit:
            dims.add(dim)
        elif dim in ("percent",) and desc_words & {"percent", "percentage", "rate"}:
            dims.add(dim)
    for m in re.finditer(r"\b(?:in|as|per|of)\s+([a-z°%/^²³]+(?:\s[a-z]+)?)", text):
        for cand in (m.group(1), m.group(1).split()[0]):
            hit = gz.UNITS.get(cand)
            if hit:
                dims.add(hit[1])
                break
    for m in re.finditer(r"\(([a-zA-Zµ°/^²³%]+)\)", desc):
        hit = gz.UNITS.get(m.group(1))
        if hit:
            dims.add(hit[1])
    return frozenset(dims)


def _identifier_options(desc: str, default: Any) -> tuple[str, ...]:
    """Options a description names as identifiers: "normal deck includes joker, without_joker deck excludes it"."""
    names = re.findall(r"\b[a-z]+(?:_[a-z]+)+\b", desc)
    vals = ([default] if isinstance(default, str) and default else []) + names
    return tuple(dict.fromkeys(vals)) if names and len(set(vals)) >= 2 else ()


def _quoted_options(desc: str) -> tuple[str, ...]:
    """Options a description lists in quotes: "Can be 'melting', 'freezing' or 'boiling'"."""
    opts = re.findall(r"'([^']{1,40})'|\"([^\"]{1,40})\"", desc)
    vals = [a or b for a, b in opts]
    # "can be 'melting' or 'boiling'" lists the choices; "e.g. 'Shanghai'" only shows an example
    if len(vals) >= 2 and (re.search(r"\b(?:can be|one of|options?|choices?|either|could be|must be|should be|"
                                     r"supported|accepted|allowed|available|possible values?)\b", desc, re.I)
                           # "'12h' or '24h'", "'real' for real roots, 'all' for both": choices side by side
                           or not re.search(r"\b(?:e\.g\.|eg\.|for example|for instance|such as|like|etc)\b|"
                                            r"\be\.g\.", desc, re.I) and (
                               re.search(r"'[^']{1,40}'\s*(?:,|or|/)\s*'[^']{1,40}'", desc)
                               or len(re.findall(r"'[^']{1,40}'\s+(?:for|means|to|if)\b", desc)) >= 2)):
        return tuple(dict.fromkeys(vals))
    return ()


@lru_cache(maxsize=8192)
def make_slot(name: str, spec_json: str, required: bool, index: int) -> Slot:
    """The :class:`Slot` for property ``name`` with JSON Schema ``spec_json`` (cached)."""
    spec = json.loads(spec_json)
    kind = _kind_of(spec)
    desc = str(spec.get("description", ""))
    # "temperature1", "year2": a numbered name still says what it measures (the number orders them)
    words = [re.sub(r"(?<=[a-z]{3})\d+$", "", w) for w in lang.split_identifier(name)]
    keys = {lang.stem(w) for w in words if w not in _GENERIC_KEYS and len(w) > 1}
    if not keys:
        keys = {lang.stem(w) for w in words}
    for w in list(keys):
        keys.update(lang.synonyms(w))
    first_sentence = re.split(r"(?<=[a-z0-9)])\.\s|;", desc, maxsplit=1)[0]
    desc_keys = {s for s in lang.content_stems(first_sentence) if s not in _GENERIC_KEYS and len(s) > 2}
    item_kind = ""
    options: tuple = tuple(spec.get("enum") or ())
    if kind == "array":
        items = spec.get("items") if isinstance(spec.get("items"), dict) else {}
        item_kind = _kind_of(items)
        options = tuple(items.get("enum") or ()) or _quoted_options(str(items.get("description", "")) + " " + desc)
    elif kind == "string" and not options:
        options = _quoted_options(desc) or _identifier_options(desc, spec.get("default"))
    role = "time" if _is_clock_slot(name, desc, kind, spec) else "date" if kind == "string" and spec.get(
        "format") in ("date", "date-time") else _role(name, desc, kind)
    if kind == "array" and role in ("city", "place", "country", "state", "person", "org", "title"):
        pass
    dims = _dims(words, desc)
    category = gz.category_of(words) or (gz.category_of(re.findall(r"[a-z]+", re.split(r"[.;(,]", desc.lower())[0])[:4])
                                         if role in ("free", "title") else None) or ""
    return Slot(name, spec_json, kind, required, index, frozenset(keys), frozenset(desc_keys), dims, role,
                item_kind, options, _percent_as_number(words, desc),
                bool(_NUMBERISH_NAMES.match(name)), accepts_null(spec) or bool(spec.get("x-nullable")),
                category if kind in ("string", "array") else "", _examples(desc) if kind in ("string", "array") else ())


_EXAMPLE_LEAD = re.compile(r"\b(?:e\.g\.|eg\.|for example|for instance|such as|like|i\.e\.|examples?:?|"
                           r"can be|could be|one of|options?:?|either)(?![A-Za-z])\s*[:,]?\s*", re.I)


def _examples(desc: str) -> tuple[str, ...]:
    """Values a description shows: quoted ones, and those listed after "e.g." / "such as"."""
    out = [a or b for a, b in re.findall(r"'([^']{1,30})'|\"([^\"]{1,30})\"", desc)]
    for group in re.findall(r"\(([\w -]{1,20}(?:,\s*[\w -]{1,20}){2,})\)", desc):  # "(walk, bike, transit, drive)"
        out += [w.strip() for w in re.split(r",\s*(?:or\s+|and\s+)?", group) if w.strip()]
    for m in _EXAMPLE_LEAD.finditer(desc):
        tail = re.split(r"[.;)]|\betc\b", desc[m.end():], maxsplit=1)[0]
        for part in re.split(r",\s*|\s+or\s+|\s+and\s+", tail):
            part = part.strip(" '\"")
            if part and len(part.split()) <= 3 and not re.search(r"\b(?:the|a|an|is|are|of)\b", part, re.I):
                out.append(part)
    return tuple(dict.fromkeys(x for x in out if x.strip()))


_SLOTS: dict[int, tuple[dict, dict | None, list[Slot]]] = {}


def slots_of(parameters: dict, root: dict | None = None) -> list[Slot]:
    """The slots of a tool's ``parameters`` schema, in declaration order (local ``$ref`` followed).

    Cached by the schema object: the wire layer hands the same object for the same tool.
    """
    hit = _SLOTS.get(id(parameters))
    if hit is not None and hit[0] is parameters and hit[1] is root:
        return hit[2]
    slots = _slots_of(parameters, root)
    if len(_SLOTS) > 4096:
        _SLOTS.clear()
    _SLOTS[id(parameters)] = (parameters, root, slots)
    return slots


def _slots_of(parameters: dict, root: dict | None = None) -> list[Slot]:
    props = parameters.get("properties") or {}
    required = set(parameters.get("required") or [])
    out = []
    for i, (name, spec) in enumerate(props.items()):
        spec = deref(spec, root or parameters) if isinstance(spec, dict) else {}
        if "$ref" not in spec and ("anyOf" in spec or "oneOf" in spec) and "type" not in spec:
            nullable = accepts_null(spec)
            spec = one_branch(spec, root or parameters)  # Optional[X] as pydantic writes it
            if nullable and "anyOf" not in spec and "oneOf" not in spec:
                spec["x-nullable"] = True
        out.append(make_slot(name, json.dumps(spec, sort_keys=True), name in required, i))
    return out


# ---------------------------------------------------------------------------- context
_SKIP = frozenset("of is are was = : as at to be about around approximately roughly the a an its their his her "
                  "with for equals equal equaling having has have being set called named titled by per "
                  "value given say like eg e.g. i.e. my our your this that".split())
_CLAUSE_BREAK = re.compile(r"[.;!?。；！？]|,\s*(?:and|but|then|also)\b|\b(?:and|but|then|also|while|whereas)\b", re.I)


_BREAK = re.compile(r"[;!?。；！？]|\.(?:\s|$)")


def _left_words(reading: Reading, pos: int, limit: int = 7) -> list[str]:
    """Lower-case words before ``pos``, nearest first, stopping at a sentence break.

    Read once per reading and position (every slot looks at the words around the same mentions).
    """
    key = ("left", pos, limit)
    hit = reading.cache.get(key)
    if hit is None:
        hit = reading.cache[key] = tuple(_left_words_uncached(reading, pos, limit))
    return list(hit)


def _word_bounds(reading: Reading) -> tuple[list[int], list[int]]:
    """The starts and the ends of the reading's words (both ascending: words do not overlap), kept in
    its cache, so the words around a position are found by bisection instead of a scan from the edge."""
    hit = reading.cache.get("word bounds")
    if hit is None:
        hit = reading.cache["word bounds"] = ([s for _, s, _ in reading.words], [e for _, _, e in reading.words])
    return hit


def _left_words_uncached(reading: Reading, pos: int, limit: int) -> list[str]:
    out = []
    text = reading.text
    words = reading.words
    for k in range(bisect.bisect_right(_word_bounds(reading)[1], pos) - 1, -1, -1):  # the words ending by pos
        w, s, e = words[k]
        if _BREAK.search(text, e, pos):
            break
        out.append(w)
        if len(out) >= limit:
            break
        pos = s
    return out


def _right_words(reading: Reading, pos: int, limit: int = 3) -> list[str]:
    """Lower-case words after ``pos``, up to ``limit``, stopping at punctuation or after a connector (cached);
    "in the cast." goes on to its noun (:data:`_THE_NOUN_ENDS`)."""
    key = ("right", pos, limit)
    hit = reading.cache.get(key)
    if hit is None:
        hit = reading.cache[key] = tuple(_right_words_uncached(reading, pos, limit))
    return list(hit)


_RIGHT_BREAK = re.compile(r"[,.;!?()\[\]]")


def _right_words_uncached(reading: Reading, pos: int, limit: int) -> list[str]:
    out = []
    words = reading.words
    for k in range(bisect.bisect_left(_word_bounds(reading)[0], pos), len(words)):  # the words from pos on
        w, s, e = words[k]
        if _RIGHT_BREAK.search(reading.text, pos, s):  # punctuation between the words
            break
        out.append(w)
        if len(out) >= limit or w in ("and", "or", "with", "in", "for", "at", "from", "to", "on") and not (
                w in ("in", "on") and _THE_NOUN_ENDS.match(reading.text, e)):
            break
        pos = e
    return out


#: "in the cast", "on the album" ending a clause: the preposition leads to the noun that names the value's role.
_THE_NOUN_ENDS = re.compile(r"\s+the\s+[a-z]+\s*(?:[,.;!?]|$)")


@lru_cache(maxsize=65536)
def _one_typo(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one typed letter (one added, dropped, changed or two swapped)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and \
            a[diff[1]] == b[diff[0]]
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k in range(len(short)) if short[k] != long_[k]), len(short))
    return short[i:] == long_[i + 1:]


@lru_cache(maxsize=65536)
def _names_slot(word_stem: str, keys: frozenset[str]) -> bool:
    """Whether a word names a slot with ``keys``: a key, a synonym, an abbreviation, or one typo away.

    Cached per word stem and key set, like :func:`~.language.stem` (slots' key sets are shared).
    """
    return lang.matches_any(word_stem, keys) or len(word_stem) >= 7 and any(
        _one_typo(word_stem, k) for k in keys if len(k) >= 6)


def _word_hits(words: list[str], keys: frozenset[str], skip_connectors: bool = True) -> float:
    """The strength of the nearest word of ``words`` that names the slot (1.0 adjacent, less further)."""
    dist = 0
    names = _names_slot if isinstance(keys, frozenset) else _names_slot.__wrapped__
    for w in words:
        if names(lang.stem(w), keys):
            return 1.0 / (1.0 + 0.45 * dist)  # "acceleeration": one slip of the keyboard still names it
        if w in ("and", "or", "but") and dist > 0 or w in ("until", "till"):
            return 0.0  # "starting at 10:00 AM until April 27": the end of a span names no start
        if not (skip_connectors and w in _SKIP):
            dist += 1
        if dist > 5:
            break
    return 0.0


def _context_score(slot: Slot, reading: Reading, m: Mention, vocab: frozenset[str] = frozenset()
                   ) -> tuple[float, str]:
    """How strongly the words around ``m`` name ``slot``, and those words (for the evidence)."""
    left = _left_words(reading, m.start)
    right = _right_words(reading, m.end)
    score = 3.0 * _word_hits(left, slot.keys)
    if m.kind == "number" and m.unit and (not m.dim and lang.matches_any(lang.stem(m.unit), slot.keys) or m.dim and any(
            lang.matches_any(lang.stem(w), slot.keys) for w in re.findall(r"[A-Za-z]{4,}", m.text))):
        score = max(score, 3.0)  # "3 bedrooms", "500 calories" for max_calories
    elif m.kind == "number" and m.unit and not m.dim and lang.stem(m.unit) in slot.desc_keys - vocab:
        # "16 measures" for a length "in measures": the description names the unit; a word before the number
        # that the description also says tells "the first N lines" (head) from "the last N lines" (tail)
        told = _word_hits(left[:2], slot.desc_keys - vocab - {lang.stem(m.unit)})
        score = max(score, 2.5 + 0.5 * told)
    score = max(score, 2.4 * _word_hits(right, slot.keys))
    desc_keys = slot.desc_keys - vocab if vocab else slot.desc_keys  # the tool's own words name no slot
    if score == 0 and desc_keys:
        score = 0.8 * max(_word_hits(left[:3], desc_keys), _word_hits(right[:2], desc_keys))
    # "the number of times interest is applied per time period is 4": the description's own wording
    if len(slot.desc_keys) >= 3 and len(left) >= 3:
        clause = {lang.stem(w) for w in left[:10]}
        same = len(clause & slot.desc_keys)
        if same >= 3 and same * 2 >= len(slot.desc_keys):
            score = max(score, min(4.0, 0.9 * same))
    words = " ".join(reversed(left[:3])) + f" [{m.text}] " + " ".join(right[:2])
    return score, words.strip()


# ---------------------------------------------------------------------------- per-kind scoring
def _place_in_group(reading: Reading, m: Mention) -> int:
    """The place of the number ``m`` inside its bracket ("(9, 12, 15)": 15 is at 2)."""
    members = [n for n in reading.mentions if n.kind == "number" and n.get("grouped") == m.get("grouped")]
    return next((k for k, n in enumerate(members) if n.start == m.start), -1)


_DESC_RANGE = re.compile(r"(?<![\w.])(-?\d+(?:\.\d+)?)\s*(?:-|–|to|through|and)\s*(-?\d+(?:\.\d+)?)(?![\w.%])")


def _scale_of(slot: Slot) -> tuple[float, float] | None:
    """The range of a level slot that is not in per cent: its schema's minimum and maximum, or "1-254", "0 to 255"
    in its description; None for a per cent (0..100) or share (0..1) slot, or a slot that says per cent."""
    desc = str(slot.spec.get("description", ""))
    if slot.kind not in ("integer", "number") or "percent" in slot.dims or re.search(r"percent|%|百分", desc + slot.name, re.I):
        return None
    low, high = slot.spec.get("minimum"), slot.spec.get("maximum")
    if not isinstance(high, (int, float)) or isinstance(high, bool):
        said = _DESC_RANGE.search(desc)
        low, high = (float(said.group(1)), float(said.group(2))) if said else (None, None)
    low = low if isinstance(low, (int, float)) and not isinstance(low, bool) else 0
    if high is None or high in (1, 100) or high <= 1 or low >= high or low < 0:
        return None
    return float(low), float(high)


def _number_value(slot: Slot, m: Mention) -> Any:
    v = m.value
    scale = _scale_of(slot) if m.get("percent") and 0 <= v <= 100 else None
    if scale:  # "40%" on a 1-254 brightness: 102, on a 0-10 volume: 4 (the level, in the slot's own range)
        low, high = scale
        v = low + (high - low) * v / 100
        return int(round(v)) if slot.kind == "integer" else round(v, 10)
    if m.get("percent") and slot.kind == "number" and not slot.percent_as_number:
        v = round(v / 100, 10)
    if not _prefixed_base(slot, m):  # "5 km" for a length "in meters": _convert_prefixed below
        v = slot_units.in_slot_unit(slot.name, str(slot.spec.get("description", "")), v, m.unit)
        if slot.kind == "integer" and isinstance(v, float) and v != m.value:
            v = int(round(v))  # "3 miles" for an integer distance_km: 5
    v = _convert_time(slot, m, v)
    if slot.kind == "integer" and isinstance(v, float) and v.is_integer():
        v = int(v)
    if slot.kind == "number" and isinstance(v, float) and v.is_integer() and m.get("int"):
        v = int(v)
    return _convert_prefixed(slot, m, v)


_SECONDS = {"s": 1, "min": 60, "h": 3600, "day": 86400, "week": 604800, "month": 2592000, "year": 31536000}
_TIME_UNIT_WORDS = {"second": "s", "seconds": "s", "minute": "min", "minutes": "min", "hour": "h", "hours": "h",
                    "day": "day", "days": "day", "week": "week", "weeks": "week", "month": "month", "months": "month",
                    "year": "year", "years": "year"}
_SLOT_TIME_UNIT = re.compile(r"\b(?:in|of|number of|\()\s*(seconds|minutes|hours|days|weeks|months|years)\b", re.I)


def slot_time_unit(slot: Slot) -> str | None:
    """The unit of time a slot counts in ("days_ahead" -> day, "duration in minutes" -> min), if it says."""
    for w in lang.split_identifier(slot.name):
        if w in _TIME_UNIT_WORDS and w.endswith("s"):
            return _TIME_UNIT_WORDS[w]
    m = _SLOT_TIME_UNIT.search(str(slot.spec.get("description", "")))
    return _TIME_UNIT_WORDS[m.group(1).lower()] if m else None


def _convert_time(slot: Slot, m: Mention, v: Any) -> Any:
    """"next week" for ``days`` -> 7, "3 minutes" for a length in seconds -> 180 (only when the slot names its unit)."""
    if m.dim != "time" or m.unit not in _SECONDS or slot.kind not in ("integer", "number"):
        return v
    want = slot_time_unit(slot)
    if want is None or want == m.unit:
        return v
    out = v * _SECONDS[m.unit] / _SECONDS[want]
    return int(round(out)) if abs(out - round(out)) < 1e-9 else round(out, 6)


_PREFIXED = {"µF": ("F", 1e-6), "uF": ("F", 1e-6), "nF": ("F", 1e-9), "pF": ("F", 1e-12), "mH": ("H", 1e-3),
             "kPa": ("Pa", 1e3), "kW": ("W", 1e3), "kJ": ("J", 1e3), "kHz": ("Hz", 1e3), "MHz": ("Hz", 1e6),
             "GHz": ("Hz", 1e9), "ms": ("s", 1e-3), "mm": ("m", 1e-3), "cm": ("m", 1e-2), "km": ("m", 1e3),
             "g": ("kg", 1e-3), "mg": ("kg", 1e-6)}
_BASE_WORDS = {"F": ("farad",), "H": ("henr",), "Pa": ("pascal",), "W": ("watt",), "J": ("joule",), "Hz": ("hertz",),
               "s": ("in seconds", "(s)"), "m": ("in meters", "in metres", "(m)"), "kg": ("in kilograms", "(kg)", "in kg")}


def _convert_prefixed(slot: Slot, m: Mention, v: Any) -> Any:
    """"100µF" for a capacitance "in farads" -> 0.0001 (only when the description names the base unit)."""
    if _prefixed_base(slot, m):
        return float(f"{v * _PREFIXED[m.unit][1]:.12g}")
    return v


def _prefixed_base(slot: Slot, m: Mention) -> bool:
    """Whether ``m`` is in a prefixed unit ("100µF", "5 km") and the number slot's description names its base."""
    hit = _PREFIXED.get(m.unit)
    if not hit or slot.kind != "number":
        return False
    desc = str(slot.spec.get("description", "")).lower()
    return any(w in desc for w in _BASE_WORDS.get(hit[0], ())) or f"({hit[0].lower()})" in desc


@lru_cache(maxsize=4096)
def _name_stems(name: str) -> frozenset[str]:
    return frozenset(lang.stem(re.sub(r"(?<=[a-z]{3})\d+$", "", w)) for w in lang.split_identifier(name)
                     if w not in _GENERIC_KEYS)


def _score_number(slot: Slot, reading: Reading, m: Mention, rank: int, slot_rank: int,
                  vocab: frozenset[str] = frozenset(), names: frozenset[str] = frozenset(),
                  numeric_names: frozenset[str] = frozenset()) -> tuple[float, str]:
    """How well the number mention ``m`` fits ``slot``, and the words of the request that say so.

    ``rank``/``slot_rank`` are the places of the mention among the numbers and of the slot among the
    numeric slots; ``names`` and ``numeric_names`` are the tool's argument names (all, numeric).
    """
    ctx, words = _context_score(slot, reading, m, vocab)
    score = ctx
    if m.unit and not m.dim and numeric_names and not lang.matches_any(lang.stem(m.unit), slot.keys) and any(
            lang.matches_any(lang.stem(m.unit), _name_stems(n)) for n in numeric_names):
        score -= 3.0  # "3 guests for 5 nights": a number's own noun names another argument
    score, named = _number_label_score(score, slot, m, names)
    score = _number_kind_score(score, slot, m, ctx)
    score, how_many = _number_count_score(score, slot, reading, m, vocab)
    score = _number_value_score(score, slot, m)
    if _is_count(m) and not how_many and (slot.numberish or not ({"count", "number", "num", "quantiti", "total", "size"} & slot.keys or
                             lang.stem(m.unit) in slot.desc_keys or lang.matches_any(lang.stem(m.unit), slot.keys))):
        score -= 3.0  # "two charges", "two numbers": a count of the values that follow, not one of them
    score -= 0.25 * abs(rank - slot_rank) if slot.numberish or ctx == 0 else 0.05 * abs(rank - slot_rank)
    if slot.numberish and not named:
        score += 0.8
        if m.get("grouped") is not None and _place_in_group(reading, m) == slot_rank:
            score += 1.5  # "the point (9, 12, 15)": a bracket's members are x, y and z in turn
    elif slot.required and not slot.nullable:
        score += 0.6  # a required number takes the best number there is
    return score, words


def _number_label_score(score: float, slot: Slot, m: Mention, names: frozenset[str]) -> tuple[float, bool]:
    """``score`` after the mention's label ("a = 5"), and whether a label named a slot."""
    label = m.label.lower()
    if not label:
        return score, False
    if label == slot.name.lower() or lang.matches_any(lang.stem(label), slot.keys):
        return score + 6.0, True
    if (len(label) <= 3 or re.search(r"[_\d]", label)) and slot.numberish and (not names or label in names):
        return score - 3.0, True  # "b = 6" is not the slot "a" (when the tool has a "b"; "at x = 1" may fill "value")
    return score, False


def _number_kind_score(score: float, slot: Slot, m: Mention, ctx: float) -> float:
    """``score`` after what kind of quantity the number is (a dimension, a percentage, a frequency)."""
    if m.dim:
        if m.dim in slot.dims:
            score += 2.0
        elif slot.dims:
            score -= 2.5 if m.dim != "percent" or slot.kind == "integer" else 1.5
    elif m.unit and slot.dims and not ctx:
        score -= 0.5
    if m.get("percent"):
        score += 1.0 if "percent" in slot.dims else -1.5 if slot.kind == "integer" else -0.5
        # a share is no count: "the success rate drops to 50%" is a probability, not 50 successes
    if m.get("implicit") and m.dim not in slot.dims:
        score -= 1.5  # "in a year", "every day": a number only for a slot that counts time
    elif m.get("every") and ({"frequenc", "interv", "rate", "every"} & slot.keys):
        score += 1.5
    if m.get("frequency"):
        desc = str(slot.spec.get("description", "")).lower()
        if {"n", "compound", "frequenc", "times"} & slot.keys or re.search(
                r"per year|times|frequency|compound", desc):
            score += 3.0
        else:
            score -= 3.0
    return score


def _number_count_score(score: float, slot: Slot, reading: Reading, m: Mention,
                        vocab: frozenset[str]) -> tuple[float, bool]:
    """``score`` after what the number counts (people, things ordered, results), and whether the slot
    counts results."""
    if _counts_people(slot) and not m.dim and (
            m.unit and (lang.stem(m.unit.lower()) in _PEOPLE or m.unit in ("人", "位")) or not m.unit and
            _FOR_N.search(reading.text[max(0, m.start - 20): m.start])):
        score += 3.0  # "a table for 4", "4 people", "4个人": how many people a booking is for
    if slot.kind == "integer" and {"quantity", "qty"} & set(lang.split_identifier(slot.name)) and m.unit and \
            not m.dim and m.get("int") and not m.get("words") and lang.stem(m.unit) not in vocab:
        score += 2.5  # "2 mugs", "3 tickets": how many of the thing ordered
    elif slot.kind == "integer" and {"quantity", "qty"} & set(lang.split_identifier(slot.name)) and not m.dim and \
            m.get("int") and _ZH_MEASURE.match(reading.text, m.end):
        score += 2.5  # "两个马克杯", "3 张票": a Chinese count of things has its classifier
    how_many = _counts_results(slot)
    if m.unit in _COUNTED and how_many:
        score += 2.5  # "5 results", "top 3 pages": how many to return
    elif how_many and m.get("int") and not m.dim and 0 < m.value <= 1000 and _counts_things(reading, m):
        score += 3.0  # "the top three plants", "ten major events": how many things to return
    return score, how_many


def _number_value_score(score: float, slot: Slot, m: Mention) -> float:
    """``score`` after the value itself: a fraction for an integer slot, a year-like number."""
    v = m.value
    if slot.kind == "integer" and isinstance(v, float) and not float(v).is_integer() and not m.get("percent") and (
            not m.dim or m.dim not in slot.dims or isinstance(_number_value(slot, m), float)):
        score -= 3.0  # a fraction for a count; "一个半月" for days is 45 days, a whole number in the slot's unit
    year_like = isinstance(v, int) and 1800 <= v <= 2100 and not m.unit
    if year_like:
        score += 2.5 if ({"year", "yr"} & slot.keys or "year" in slot.name.lower()) else -0.8
    elif {"year"} & slot.keys and "year" in slot.name.lower() and not (m.unit in ("year",) or m.dim == "time"):
        score -= 1.0
    return score


_VENUES = ("restaurant", "venue", "hotel", "store", "shop", "bar", "cafe", "pub", "bistro", "diner", "eatery",
           "theater", "theatre", "cinema", "museum", "gym", "salon", "clinic")


def _names_venue(slot: Slot) -> bool:
    """Whether ``slot`` names a venue (``restaurant``, "Name of the hotel"): a name said after "at" fills it."""
    if slot.role in ("city", "place", "state", "country"):
        return False  # "location of the hotel" is where the hotel is, not its name
    keys = slot.keys | (slot.desc_keys if set(lang.split_identifier(slot.name)) <= {"name", "title"} else frozenset())
    return any(k.startswith(v[:5]) for k in keys for v in _VENUES if len(k) >= 3)


#: 在海底捞订位, 去海底捞吃饭: the Chinese name between 在/去/到 and the verb of a booking or a meal.
_ZH_VENUE = re.compile(r"(?:^|[，,。；\s]|在|去|到)(?:今天|明天|今晚|明晚|晚上|中午|下午|早上|上午)*"
                       r"((?!帮|请|我|给|你|麻烦|想|要|订|预|在|去|到)(?:(?!今天|明天|今晚|明晚|晚上|中午|下午)[\u4e00-\u9fff]){2,10}?"
                       r"|[A-Za-z][\w' &.-]{1,40}?)\s*(?:订|预订|预约|定|吃)")
#: 订一张桌子，晚上7点，在全聚德: 在 and a name closing a clause of a booking said earlier (the place named last).
_ZH_VENUE_LAST = re.compile(r"(?:^|[，,；;\s])在((?:(?!今天|明天|今晚|明晚|晚上|中午|下午|早上|上午)[\u4e00-\u9fff]){2,10})"
                            r"(?=\s*(?:[，,。；;！!？?]|$))")
_ZH_BOOKING = re.compile(r"订|预订|预约|定|吃")
#: "Put a dentist appointment in my calendar", "add a meeting with Bob to...", 加一个会议: the thing put on a
#: calendar or list is the words after the verb and its article, up to where, when or for whom.
_ITEM_AFTER_VERB = re.compile(
    r"\b(?:put|add|schedule|create|set up|plan|arrange|make|book)\s+(?:a|an|my|the|our)\s+"
    r"((?:(?!(?:in|into|to|on|at|for|from|tomorrow|today|tonight|next|this|every)\b)[A-Za-z][\w'-]*\s?){1,5}?"
    r"(?:\s?with\s+(?:[A-Z][\w'-]*|the\s+\w+|my\s+\w+)(?:\s+(?:and\s+)?[A-Z][\w'-]*)?)?)"
    r"(?=\s+(?:in|into|to|on|at|for|tomorrow|today|tonight|next|this|every)\b|\s*[,.;!?]|\s*$)", re.I)
_ZH_ITEM_AFTER_VERB = re.compile(r"(?:加|添加|安排|创建|新建|建)(?:一个|一场|一次|个|场|次)?([\u4e00-\u9fff]{2,8}?)(?=[，,。；;！!？?]|$|在)")
_ITEM_TOOLS = frozenset({"event", "meet", "appointment", "calendar"})
#: "meeting", "appointment", 会议: the kind of calendar entry alone (``course_lib/data/event_nouns.json``).
_GENERIC_ITEMS = frozenset(load_json("event_nouns.json")["generic"])
_WITH_TAIL = re.compile(r"\s+with\b.*$", re.I | re.S)


def _generic_item(item: str) -> bool:
    """Whether the words after a booking verb only say the kind of entry ("meeting with Dana", "a call",
    会议), so that they are no title; "dentist appointment", "team sync" and 周会 are titles."""
    return _WITH_TAIL.sub("", item.strip()).strip().lower() in _GENERIC_ITEMS
#: "a meeting called Budget review on ...", "a task named Call the bank", "a document titled Q3 report",
#: 一个名为周报的文档: the name given, up to where, when, for whom or the end of the clause.
_CALLED_STOP = (r"(?:on|at|for|due|by|with|in|into|from|to|tomorrow|today|tonight|next|this|every|and|that|which|is|are|"
                r"was|were|has|have|had|will|would|can|could|should|sounds?|seems?|looks?)\b")
_CALLED = re.compile(
    r"\b(?:called|named|titled|entitled)\s+(?![\"'“‘])((?:(?!" + _CALLED_STOP + r")[\w][\w'&/.-]*\s?){1,6}?)"
    r"(?=\s+" + _CALLED_STOP + r"|\s*[,;!?]|\.\s|\.?\s*$)"
    r"|(?:名为|名叫|叫做|标题为|标题是|题为)([^\s，,。；;！!？?“”\"']{1,20}?)(?=的|[，,。；;！!？?]|$)", re.I)
#: Slots that take the name given: a title, or a name that is not a person's ("name", "playlist_name").
_CALLED_SLOT_WORDS = frozenset({"title", "name", "summary", "subject", "label"})


_QUARTER = re.compile(r"\bQ([1-4])\b|\b(first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter\b|第?([一二三四1-4])季度", re.I)
_QUARTER_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4,
                  "一": 1, "二": 2, "三": 3, "四": 4}


_PEOPLE = frozenset(lang.stem(w) for w in ("guest", "guests", "people", "person", "persons", "party", "pax", "diner",
                                            "diners", "traveler", "travelers", "traveller", "travellers", "passenger",
                                            "passengers", "attendee", "attendees", "adults", "covers"))
_FOR_N = re.compile(r"\bfor\s+(?:a\s+(?:party|group)\s+of\s+)?\s*$", re.I)


_LIST_EDGE = re.compile(r"[，,；;。！!？?]")  # not 、: 张伟、李娜 is one list of one value


def _listed_values(st: "_FillState") -> None:
    """A bare value in a Chinese comma list fills the one required string slot nothing else filled: "订一张桌子，
    海底捞，3个人，晚上7点" -> ``restaurant='海底捞'`` (3个人 and 晚上7点 are read as what they are; the first part is
    the request). Only one such part and one such slot: otherwise which goes where is a guess, and the mock asks."""
    text = st.reading.text
    if not lang.is_chinese(text):
        return
    open_slots = [s for s in st.slots if s.required and s.kind == "string" and not s.options and s.name not in st.filled
                  and s.role not in ("time", "date", "query", "text") and not is_moment_slot(s)]
    if len(open_slots) != 1:
        return
    parts, start = [], 0
    for edge in list(_LIST_EDGE.finditer(text)) + [None]:
        end = edge.start() if edge else len(text)
        parts.append((start, end))
        start = edge.end() if edge else end
    bare = []
    for a, b in parts[1:]:
        word = text[a:b].strip()
        a += len(text[a:b]) - len(text[a:b].lstrip())
        if not word or any(m.start < a + len(word) and a < m.end for m in st.mentions) or \
                not re.fullmatch(r"[\u4e00-\u9fffA-Za-z][\u4e00-\u9fffA-Za-z0-9'&· -]{1,15}", word) or \
                any(w in word for w in _THINGS["list_stops"]):
            continue
        bare.append(word)
    if len(bare) == 1:
        st.filled[open_slots[0].name] = (bare[0], Evidence("a value listed", bare[0]), 2.0, ())


def _counts_people(slot: Slot) -> bool:
    """Whether ``slot`` is a number of people (``party_size``, "Number of guests", ``passengers``)."""
    return slot.kind == "integer" and bool((slot.keys | slot.desc_keys) & _PEOPLE)


_COUNT_NAMES = frozenset({"limit", "count", "top", "max", "num", "number", "k", "n", "size", "results", "topn"})


@lru_cache(maxsize=4096)
def _counts_results_cached(name: str, desc: str) -> bool:
    words = set(lang.split_identifier(name))
    if "results" in words or ("num" in words or "number" in words or "count" in words) and len(words) <= 2 and (
            not words - {"num", "number", "count", "results", "result", "of", "top", "max", "items"} or
            re.search(r"\b(?:number of|how many)\b", desc, re.I)):
        return True
    return bool(words & {"limit", "top", "topn", "max"}) and not words & {"price", "cost", "distance", "radius", "time"}


def _counts_results(slot: Slot) -> bool:
    """Whether ``slot`` says how many things to return ("num_results", "top", "limit", "count")."""
    return slot.kind == "integer" and _counts_results_cached(slot.name, str(slot.spec.get("description", "")))


_PLURAL_AHEAD = re.compile(r"(?:\s+(?!(?:and|or|of|in|on|for|to|with|by|from|at)\b)[A-Za-z-]+){0,2}?\s+[a-z]{3,}s\b")


def _counts_things(reading: Reading, m: Mention) -> bool:
    """"the top three plants", "ten major historical events": a whole number before the plural noun of what is counted."""
    before = reading.text[max(0, m.start - 12):m.start].lower()
    if re.search(r"\b(?:top|first|best|last|latest)\s+$", before):
        return True
    if _ZH_COUNTED.match(reading.text, m.end) or re.search(r"(?:前|头|最近|最新|近)\s*$", before):
        return True  # "5 条结果", "三篇文章", "前 3 个", "最近5次提交": Chinese counts things with a classifier
    return _PLURAL_AHEAD.match(reading.text, m.end if not m.unit else m.start + len(m.text) - len(m.unit) - 1) is not None


#: Classifiers of things bought or booked after a count ("两个", "3 张", "一袋").
_ZH_MEASURE = re.compile(r"\s*(?:个|件|台|杯|瓶|份|张|本|只|盒|包|袋|双|套|支|把|箱|罐|辆|间)")
#: A classifier of documents and results after a count ("3 篇", "5 条"), or 个 before what is returned.
_ZH_COUNTED = re.compile(r"\s*(?:篇|条|项|份|则|个(?=[^，。,？?；;]{0,12}?(?:结果|页面|文档|文章|资料|记录|条目|链接|新闻|"
                         r"帖子|建议|推荐|例子|问题|图片|视频|歌|评论)))")


_COUNTED = frozenset("result results page pages item items entry entries article articles document documents record "
                     "records row rows hit hits link links match matches answer answers example examples suggestion "
                     "suggestions option options recommendation recommendations post posts headline headlines "
                     "question questions review reviews image images video videos song songs".split())


#: A description asking for a place with its region: "City, State", "city and state", "'Berkeley, CA'",
#: "in the format 'City, Country'" ("such as 'Paris, France'").
_WANTS_REGION = re.compile(r"\b(?:(?i:city and state|city,\s*(?:state|country)|format (?:it )?as city,? (?:state|country))|"
                           r"[A-Z][a-z]+(?: [A-Z][a-z]+)?, [A-Z]{2}\b)")


def _wants_region(desc: str) -> bool:
    """Whether a place slot's description asks for the city with its state or country."""
    return _WANTS_REGION.search(desc) is not None


def _lacks_region(slot: Slot, value: Any) -> bool:
    """A city for a slot that asks "City, State" which the mock could not place ("Pinole" alone): the state it
    would add is world knowledge it does not have, so the value is a guess (it asks instead)."""
    if slot.role not in ("place", "city") or not isinstance(value, str) or "," in value or lang.is_chinese(value):
        return False
    if not _wants_region(str(slot.spec.get("description", ""))):
        return False
    return gz.place_kind(value) not in ("state", "country") and gz.city_region(value) is None


#: A description's example of a non-US place with a two-letter region: "Paris, FR" writes countries as their codes.
_REGION_CODE_EXAMPLE = re.compile(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)?, ([A-Z]{2})\b")


def _two_letter_country(desc: str) -> bool:
    """Whether a country slot's description asks for the ISO 3166-1 alpha-2 code ("ISO country code", "e.g. FR"),
    not a three-letter code (which the gazetteer does not hold) nor a telephone country code."""
    return bool(re.search(r"\b(?:two[- ]letter|alpha[- ]?2|iso(?:[ -]?3166(?:-1)?)?\b.{0,20}\bcode|"
                          r"country code|e\.g\.,? [A-Z]{2}\b)", desc, re.I)) \
        and not re.search(r"\b(?:alpha[- ]?3|three[- ]letter|calling|dial(?:ling)?|phone|telephone)\b", desc, re.I)


def _country_as_code(desc: str) -> bool:
    """Whether a place slot's description writes a country as its ISO code ('Paris, FR', not 'Paris, France'):
    an example's two letters that are a country's code and no US state's ('CA' could be either)."""
    return any(c not in gz.US_STATES and gz.is_country_code(c) for c in _REGION_CODE_EXAMPLE.findall(desc))


def _in_described_form(value: str, desc: str) -> str:
    """A "City, Region" value in the form the description's examples use: the country as its code where they
    write one ("Nairobi, Kenya" -> "Nairobi, KE"), and a city without its "City" where an example writes it so
    ("New York City, NY" -> "New York, NY" after "e.g. 'New York, NY'"; "e.g. New York City, NY" keeps it)."""
    city, sep, region = value.rpartition(", ")
    if not sep:
        return value
    if (code := gz.country_code(region)) and region not in gz.US_STATES.values() and _country_as_code(desc):
        return f"{city}, {code}"
    if city.endswith(" City") and re.search(rf"\b{re.escape(city[:-5])}, {re.escape(region)}\b", desc):
        return f"{city[:-5]}, {region}"
    return value


def _place_value(slot: Slot, m: Mention) -> str:
    """The place written the way the slot's description asks ("City, ST", full state, "City, FR"...)."""
    value = _place_written(slot, m)
    if slot.role in ("place", "city") and isinstance(value, str) and _wants_region(desc := str(slot.spec.get(
            "description", ""))):
        return _in_described_form(value, desc)
    return value


def _place_written(slot: Slot, m: Mention) -> str:
    """The place with the region the slot's description asks for ("City, ST", full state...)."""
    desc = str(slot.spec.get("description", ""))
    name = m.value
    state = m.get("state")
    if slot.role == "state":
        code = gz.state_code(state or name) if (state or gz.place_kind(name) == "state") else None
        if code is None and gz.place_kind(name) == "city":
            code = gz.city_state(name)
        if code:
            return code if re.search(r"\b(?:abbreviat|two[- ]letter|code|e\.g\.,? [A-Z]{2}\b|such as [A-Z]{2}\b)", desc) \
                else gz.US_STATES.get(code, code) if not state or len(state) == 2 else state
        return state or name
    if slot.role == "country" and _two_letter_country(desc) and (code := gz.country_code(name)):
        return code
    if slot.role == "country" and state and state in gz.COUNTRIES:
        return state
    wants_state = _wants_region(desc)
    if wants_state and slot.role in ("place", "city") and name in gz.CITY_ALIASES:
        name = gz.CITY_ALIASES[name]  # "LA" -> "Los Angeles, CA" where the format asks for the state
    tail = re.fullmatch(r"(.+?),? ([A-Z]{2}|[A-Z][a-z]+(?: [A-Z][a-z]+)?)", name) if wants_state else None
    if tail and gz.state_code(tail.group(2)):
        name, state = tail.group(1), tail.group(2)  # "Long Beach CA", "Berkeley California": a city and its state
    if wants_state and slot.role in ("place", "city") and m.get("as_written") and "," in m.get("as_written"):
        return m.get("as_written")  # "Boston, MA" is already a city and its state
    if wants_state and "," not in name and m.get("kind") in ("city", "guess", None) and not lang.is_chinese(name):
        region = ("state", gz.state_code(state)) if state and gz.state_code(state) else gz.city_region(name)
        if region and region[0] == "state":  # "Washington, D.C." is complete; "Campbell" -> "Campbell, CA"
            code = region[1]
            full = re.search(r"\b(?!City\b)[A-Z][a-z]+(?: [A-Z][a-z]+)?, (?!State\b)[A-Z][a-z]{3,}\b", desc) and not re.search(
                r", [A-Z]{2}\b", desc)
            return f"{name}, {gz.US_STATES.get(code, code) if full else code}"
        if region:
            return f"{name}, {region[1]}"  # "London" -> "London, UK": the country where a state would be
    if m.get("kind") == "area":
        return m.text
    if slot.role == "place" and m.get("as_written"):
        return m.get("as_written")  # "Boston, MA" as the user wrote it
    return name


def _date_value(slot: Slot, m: Mention) -> str:
    y, mo, d = m.value
    desc = str(slot.spec.get("description", "")).lower()
    if m.get("relative") and not re.search(r"yyyy|mm|dd|iso|format", desc) and slot.spec.get("format") not in (
            "date", "date-time"):
        return m.text  # "next Friday" for a date of no stated format: the words, as said
    if not y:
        import datetime as _dt

        y = _dt.date.today().year
    if m.get("slashed") and re.search(r"\b(?:dd|day)\s*[-/.]\s*(?:mm|month)\b", desc) and not re.search(
            r"\b(?:mm|month)\s*[-/.]\s*(?:dd|day)\b", desc):
        d, mo = m.get("slashed")  # "03/04" for a DD/MM date: the user wrote it in the order asked for
    # "MM-DD-YYYY", "mm/dd/yy", "(month-day-year)": the order and separator the description asks for
    fmt = re.search(r"\b(mm|dd|month|day)([-/.])(mm|dd|month|day)\2(y{2,4}|year)\b", desc)
    if fmt and {fmt.group(1)[0], fmt.group(3)[0]} == {"m", "d"}:
        sep = fmt.group(2)
        first, second = (f"{mo:02d}", f"{d:02d}") if fmt.group(1)[0] == "m" else (f"{d:02d}", f"{mo:02d}")
        return f"{first}{sep}{second}{sep}{y}"
    return f"{y}-{mo:02d}-{d:02d}"


def _time_value(slot: Slot, m: Mention) -> Any:
    h, mi = m.value
    if slot.kind == "integer":
        return h
    desc = str(slot.spec.get("description", "")).lower()
    if re.search(r"hh:mm|24|military", desc) or lang.is_chinese(m.text):
        return f"{h:02d}:{mi:02d}"  # 下午三点 -> "15:00": the part of the day is read into the hour
    return m.text


def _measured_kinds(mentions: list[Mention]) -> set[str]:
    """The kinds of quantity the numbers of a request measure ("50 km in 2 hours": length and time).

    A count of things ("four circles", "3 guests") measures nothing: it does not make the unit of
    "a radius of 5cm" ambiguous, and no unit argument would take its noun.
    """
    return {n.dim for n in mentions if n.kind == "number" and n.unit and n.dim and not n.get("idiom")}


@dataclass
class _StringSlot:
    """A string slot being filled, with what every reader of a mention needs."""

    slot: Slot
    reading: Reading
    mentions: list[Mention]
    tool_vocab: frozenset[str]
    out: list = field(default_factory=list)

    @cached_property
    def role(self) -> str:
        return self.slot.role

    @cached_property
    def wants_from(self) -> bool:
        return bool({"start", "origin", "from", "departur", "source", "begin", "initi", "sender", "base"} & self.slot.keys)

    @cached_property
    def wants_to(self) -> bool:
        return bool({"end", "destin", "to", "arriv", "target", "final", "recipi"} & self.slot.keys)


def _place_as_string(sc: _StringSlot, m: Mention, i: int, ctx: float) -> tuple[float, Any, str] | None:
    """A place for a place-like slot (its role, the preposition before it, the form the description asks)."""
    slot, reading, role, wants_from, wants_to = sc.slot, sc.reading, sc.role, sc.wants_from, sc.wants_to
    base, value, rule = ctx, None, m.kind
    kind = m.get("kind")
    if role in ("city", "place", "state", "country"):
        base += 3.0
        if role == "country" and kind not in ("country",):
            base -= 2.5 if kind == "city" else 1.0
        if role == "state" and kind not in ("state",) and not m.get("state"):
            base -= 1.5
        if role == "city" and kind == "country":
            base -= 4.5  # a country is no city: ask which city rather than send "France"
        elif role == "city" and kind == "state":
            base -= 1.5
        if kind == "guess":
            base -= 0.8
    elif kind == "guess" and role in ("person", "org", "title"):
        base += 1.5  # "in Premier League": a capitalised name the mock took for a place
    elif role == "org" and {"team", "club", "squad"} & slot.keys:
        base += 1.5  # "scored for Barcelona": clubs are named after their cities
    elif role in ("free", "query", "text", "title", "org"):
        base += 0.2 if ctx else -0.5
    else:
        base -= 1.0
    prep = re.search(r"\b(from|to|towards|into|between|and|in|at|near|around)\s+(?:the\s+)?$",
                     reading.text[max(0, m.start - 14): m.start], re.I)
    p = prep.group(1).lower() if prep else ""
    if wants_from:
        base += 2.0 if p in ("from", "between") else -1.2 if p in ("to", "towards", "into") else 0
    if wants_to:
        base += 2.0 if p in ("to", "towards", "into") or p == "and" and "between" in reading.text[
            max(0, m.start - 40): m.start] else -1.2 if p in ("from", "between") else 0
    if kind == "guess" and _names_venue(slot) and p in ("at", "in"):
        base += 2.5  # "a table at Denny's": the name after "at" is the restaurant the slot names
    value = _place_value(slot, m)
    if _lacks_region(slot, value):
        rule = "place without the region its format asks for"
    if role in ("state", "country") and kind == "city" and value != m.value:
        # the state of a named city ("San Francisco" -> CA): read, not consumed
        sc.out.append((base + 0.5, value, i, Evidence("state of the city", m.text)))
        return None
    return base, value, rule


#: Words that say "identifier" without naming what is identified ("API key", "ID"): no noun of a thing.
_ID_WORDS = frozenset({"key", "id", "api", "code", "number", "token", "no", "name", "identifier", "uuid"})


def _name_as_string(sc: _StringSlot, m: Mention, i: int, ctx: float) -> tuple[float, Any, str] | None:
    """A capitalised name: for a person, an organisation or a title, without the tool's own words."""
    reading, tool_vocab, role = sc.reading, sc.tool_vocab, sc.role
    base, value, rule = ctx, None, m.kind
    if role == "title" and ctx == 0 and len(m.value.split()) == 1:
        base -= 0.5  # one capitalised word with nothing calling it a title: likely a person
    elif role in ("person", "org", "title", "free", "query", "text", "id"):
        base += 1.5 if role != "id" else 0.3
    elif role in ("city", "place", "country", "state"):
        base += 0.4 if re.search(r"\b(?:in|at|near|from|to)\s+$", reading.text[max(0, m.start - 6):m.start]) else -0.6
    elif role in ("expr", "date", "time", "email", "path", "unit", "currency"):
        base -= 3.0
    value = m.value
    words_ = value.split()
    if not all(lang.stem(w.lower()) in tool_vocab for w in words_):
        while len(words_) > 1 and lang.stem(words_[0].lower()) in tool_vocab and (words_[1].lower() not in (
                "of", "de", "the", "and") or words_[1].lower() == "the" and m.start == 0):
            # "Battle of Stalingrad" keeps its head; "Hold the Atlas room" opens with the tool's own verb
            words_ = words_[1:]  # "Lawyer John Doe" for a lawyer tool: the name is "John Doe"
            if words_[0] == "the" and len(words_) > 1:
                words_ = words_[1:]  # ("The Weeknd" keeps its capital The)
    value = " ".join(words_)
    if all(lang.stem(w.lower()) in tool_vocab for w in words_):
        base -= 3.0  # the tool's own words ("NBA" in a basketball tool) are rarely the argument
    nxt = re.match(r"\s+([a-z]+)", reading.text[m.end:])
    prev = re.search(r"\b([a-z]+)\s+$", reading.text[max(0, m.start - 20):m.start])
    noun = [w.group(1) for w in (nxt, prev) if w and lang.stem(w.group(1)) in sc.slot.keys
            and w.group(1) not in _ID_WORDS]
    if noun and role in ("free", "title", "org", "place", "id"):
        base += 1.5  # "the Orion room", "room Orion" for a room argument: the name of the thing it names
    elif nxt and lang.stem(nxt.group(1)) in tool_vocab and len(words_) == 1:
        base -= 1.0  # "Patent lawsuit": a modifier of the tool's noun, not the entity
    return base, value, rule


def _quoted_as_string(sc: _StringSlot, m: Mention, i: int, ctx: float) -> tuple[float, Any, str] | None:
    """Quoted text: a strong value; a quoted sentence is text to work on."""
    slot, role = sc.slot, sc.role
    base, value, rule = ctx, None, m.kind
    if m.get("key"):
        return None  # "'name': 'John'": the key names a value, it is none
    base += 2.0 if role not in ("expr", "date", "unit", "currency") else 0.5
    value = m.value
    if len(value.split()) >= 4 or re.search(r"[.!?]\s", value):  # a quoted sentence is text to work on
        base += 1.0 if role in ("text", "query") else -2.0 if slot.category else 0.0
    return base, value, rule


_VERSION = re.compile(r"[vV]?\d+(?:\.\d+){2,}")


def _code_as_string(sc: _StringSlot, m: Mention, i: int, ctx: float) -> tuple[float, Any, str] | None:
    """An id, a path, an email, a URL."""
    slot, role = sc.slot, sc.role
    base, value, rule = ctx, None, m.kind
    base += 2.5 if role in ("id", "path", "email") else 0.6 if role in ("free", "title", "org", "query", "text", "person") else -1.0
    if role == "email" and "@" not in m.value or role == "path" and not re.search(r"[/\\.]", m.value):
        base -= 1.5
    if role in ("free", "title", "org", "person") and _VERSION.fullmatch(m.value) and "version" not in slot.keys:
        base -= 1.5  # "v 1.2.3": a version number names no project, title or person
    elif "version" in slot.keys and _VERSION.fullmatch(m.value):
        base += 2.0  # ... and is what a version argument takes ("my_version_proj" only shares its word)
    if role != "path" and re.search(r"[/\\]", m.value) and re.search(
            r"\b(?:path|file|directory|folder|url)\b", str(slot.spec.get("description", "")), re.I):
        base += 2.0  # "~/data/scan.nii" for "the path where the data is stored"
    value = m.value
    return base, value, rule


def _expr_as_string(sc: _StringSlot, m: Mention, i: int, ctx: float) -> tuple[float, Any, str] | None:
    """A formula."""
    role = sc.role
    base, value, rule = ctx, None, m.kind
    base += 4.0 if role == "expr" else -3.0
    value = m.value
    return base, value, rule


def _date_as_string(sc: _StringSlot, m: Mention, i: int, ctx: float) -> tuple[float, Any, str] | None:
    """A date, in the form the description asks."""
    slot, role = sc.slot, sc.role
    base, value, rule = ctx, None, m.kind
    base += 4.0 if role == "date" else -2.0
    value = _date_value(slot, m)
    return base, value, rule


def _time_as_string(sc: _StringSlot, m: Mention, i: int, ctx: float) -> tuple[float, Any, str] | None:
    """A clock time."""
    slot, role = sc.slot, sc.role
    base, value, rule = ctx, None, m.kind
    base += 3.0 if role == "time" or {"time"} & slot.keys else -2.0
    value = _time_value(slot, m)
    return base, value, rule


def _number_as_string(sc: _StringSlot, m: Mention, i: int, ctx: float) -> tuple[float, Any, str] | None:
    """A number as a string: an id, a year, a unit, a span of time as written."""
    slot, reading, mentions = sc.slot, sc.reading, sc.mentions
    tool_vocab, role, wants_from, wants_to = sc.tool_vocab, sc.role, sc.wants_from, sc.wants_to
    base, value, rule = ctx, None, m.kind
    if m.unit and not m.dim and lang.matches_any(lang.stem(m.unit), tool_vocab) and not lang.matches_any(
            lang.stem(m.unit), slot.keys):
        return None  # "four chords": a count of something the tool names, no id or text
    if role == "id" and m.unit and not m.dim and not lang.matches_any(lang.stem(m.unit), slot.keys):
        return None  # "80 BPM" is a measure, no id or key
    if role in ("id", "place", "city", "person", "org", "title") and m.dim == "time" and m.unit in _SECONDS:
        return None  # "45 minutes", 一个小时: a length of time is no id, place or name
    if role in ("country", "place") and not m.unit:
        return None  # "in their respective countries for year 2023": a bare figure names no place
    if role == "date" and m.dim == "time" and (slot.spec.get("format") in ("date", "date-time") or _FORMAT_RX.search(
            str(slot.spec.get("description", "")))):
        return None  # "for one week", 一个周: a length of time is no day written as YYYY-MM-DD
    if role == "id" or ctx >= 2.0 and not m.unit:
        base += 1.0 if role == "id" else 0.0
        value = m.text.strip() if m.get("int") else str(m.value)
        if m.unit and not m.dim:
            value = str(m.value)
    elif role == "unit" and m.unit and m.dim and not m.get("words"):
        dims = _measured_kinds(mentions)
        if len(dims) > 1 or m.dim in ("money", "percent"):
            return None  # "50 km in 2 hours": which unit would the answer be in?
        base += 1.5 + (2.0 if not slot.dims or m.dim in slot.dims else -1.0)
        value = m.text[len(m.text.rstrip()) - len(m.text.rstrip()):]
        value = _unit_surface(reading, m)
        rule = "unit of a number"
        if not value:
            return None
        if wants_from or wants_to:  # "2 tablespoons": the unit an amount is in is converted from
            base += 1.0 if wants_from else -1.5
    elif ({"year", "season", "edition", "vintag"} & slot.keys or "year" in slot.desc_keys) and \
            isinstance(m.value, int) and 1800 <= m.value <= 2100 and (
                not m.unit or lang.matches_any(lang.stem(m.unit), slot.keys)):  # "in 2022 season"
        base += 2.0  # "the 2021 season" for a string season
        value = str(m.value)
    elif (m.dim == "time" or m.unit in ("century", "centuries") and m.get("ordinal")) and (
            not m.get("implicit") or role == "date" or {"timefram", "period", "when"} & slot.keys) and (
            slot.dims & {"time"} or {"duration", "period", "timefram", "time", "span", "length", "date", "when"}
            & slot.keys):
        base += 2.0  # "for the last 2 weeks", "in the 19th century", "next month" for a string time: as written
        value = _time_words(reading, m)
    else:
        return None
    return base, value, rule


def _currency_as_string(sc: _StringSlot, m: Mention, i: int, ctx: float) -> tuple[float, Any, str] | None:
    """A currency: for a currency slot with its from/to role, or named as a topic."""
    slot, reading, role, wants_from, wants_to = sc.slot, sc.reading, sc.role, sc.wants_from, sc.wants_to
    base, value, rule = ctx, None, m.kind
    if m.kind == "currency" and slot.role in ("free", "title", "query", "text") and not (
        {"currenc", "from", "to", "base", "target"} & slot.keys):
        base += 0.5  # "news on Bitcoin": a currency named as a topic, as written
        value = m.text
        rule = "words"
    elif m.kind == "currency":
        if role != "currency" and not ({"currenc", "from", "to", "base", "target"} & slot.keys and "currenc" in
                                        " ".join(lang.content_stems(str(slot.spec.get("description", ""))))):
            return None
        base += 3.5
        prep = re.search(r"\b(from|to|into|in|for)\s+(?:the\s+)?(?:[\d.,]+\s*)?$",
                         reading.text[max(0, m.start - 20): m.start], re.I)
        p = prep.group(1).lower() if prep else ""
        if _after_amount(reading.text, m.start):
            p = "from"  # "for 500 US dollars": the currency of the amount is the one converted from
        elif re.search(r"\bhow (?:many|much)\s+$", reading.text[max(0, m.start - 10): m.start], re.I):
            p = "to"  # "how many Canadian dollars...": the currency asked for
        if wants_from:
            base += 2.0 if p == "from" or (not p and reading.text[:m.start].count(" to ") == 0) else -1.2
        if wants_to:
            base += 2.0 if p in ("to", "into", "in") else -1.2
        value = m.value
        rule = "currency"
    else:
        return None
    return base, value, rule


def _unit_as_string(sc: _StringSlot, m: Mention, i: int, ctx: float) -> tuple[float, Any, str] | None:
    """A unit named alone ("in ounces"): for a unit slot, with its from/to role."""
    slot, role, wants_from, wants_to = sc.slot, sc.role, sc.wants_from, sc.wants_to
    base, value, rule = ctx, None, m.kind
    if role == "unit" or "unit" in slot.keys or {"format", "measur"} & slot.keys:
        base += 3.0 + (1.0 if not slot.dims or m.dim in slot.dims else -1.0)
        value = m.value
        if wants_from or wants_to:  # "how many teaspoons", "in ounces": the unit asked for
            base += 1.5 if wants_to else -1.5
    else:
        return None
    return base, value, rule


#: How each kind of mention is read as a string value.
_STRING_READERS = {"place": _place_as_string, "name": _name_as_string, "quoted": _quoted_as_string, "code": _code_as_string, "expr": _expr_as_string, "date": _date_as_string, "time": _time_as_string, "number": _number_as_string, "currency": _currency_as_string, "unit": _unit_as_string}


def _string_candidates(slot: Slot, reading: Reading, mentions: list[Mention], tool_vocab: frozenset[str]
                       ) -> list[tuple[float, Any, int, Evidence]]:
    """Candidates ``(score, value, mention index, evidence)`` for a string slot, one per mention that fits:
    read by the reader of its kind (:data:`_STRING_READERS`), then scored for what all kinds share."""
    sc = _StringSlot(slot, reading, mentions, tool_vocab)
    role, out = slot.role, sc.out
    for i, m in enumerate(mentions):
        if m.kind == "unit" and m.dim == "money" and role == "currency":
            if any(n.kind == "currency" and n.start <= m.start < n.end for n in mentions):
                continue  # the same words are already read as a currency
            m = Mention("currency", m.unit, m.text, m.start, m.end)  # "how many yen...": a currency named alone
        reader = _STRING_READERS.get(m.kind)
        if reader is None:
            continue
        ctx, words = _context_score(slot, reading, m, tool_vocab)
        got = reader(sc, m, i, ctx)
        if got is None:
            continue
        base, value, rule = got
        if value is None or value == "":
            continue
        base, value, rule = _string_shared(sc, m, ctx, base, value, rule)
        out.append((base, value, i, Evidence(rule, words if ctx else m.text)))
    return out


def _string_shared(sc: _StringSlot, m: Mention, ctx: float, base: float, value: Any, rule: str
                   ) -> tuple[float, Any, str]:
    """What scores a string value whatever its kind: a member of the slot's kind, a described example, an
    owner ("Germany's team"), a demonym, a name that says what it is ("Premier League"), optional slots."""
    slot, reading, role = sc.slot, sc.reading, sc.role
    if slot.category and m.kind in ("name", "place") and gz.category_members(slot.category, m.text):
        base += 4.0  # "Christianity" for religion: a member of the kind the slot names
        rule = slot.category
        if isinstance(value, str):
            value = _with_version(reading.text, m.end, value)
    elif slot.examples and m.kind in ("name", "place") and isinstance(value, str) and any(
            value.lower() == ex.lower() for ex in slot.examples):
        base += 3.5  # "a Yamaha flute" for a brand whose description shows 'Yamaha'
        rule = "example in the description"
    if m.kind in ("name", "place") and role in ("org", "person", "city", "place", "country", "state"):
        owner = re.match(r"['’]s\s+(?:[a-z]+\s+){0,2}([a-z]+)", reading.text[m.end:])
        if owner and lang.matches_any(lang.stem(owner.group(1)), slot.keys):
            base += 2.0  # "Germany's men soccer team" for team_name: the owner names the team
    if slot.role == "country" and isinstance(value, str) and value.lower() in gz.DEMONYMS:
        value = gz.DEMONYMS[value.lower()]  # "German history" for a country: Germany
        base += 1.0
    named_after = m.kind in ("name", "place") and len(m.text.split()) > 1 and (lang.matches_any(
        lang.stem(m.text.split()[-1].lower()), slot.keys) or re.match(r"\w+ of ", m.text) is not None and
        lang.matches_any(lang.stem(m.text.split()[0].lower()), slot.keys))  # "Battle of Stalingrad" for battle
    if named_after:
        base += 2.5  # "Premier League" for league, "Plaza Hotel" for hotel_name: the name says what it is
        own = [lang.stem(w) for w in lang.split_identifier(slot.name)]
        last = m.text.split()[-1]
        if own[-1] not in ("name", "titl") and lang.stem(last.lower()) in own[:-1] and isinstance(value, str) \
                and value.endswith(last):
            value = value[: -len(last)].strip()  # "Hilton Hotel" for hotel_chain: the chain is Hilton
    elif not slot.required and ctx < 1.0 and m.kind in ("name", "place") and rule == m.kind and not (
            slot.role in ("city", "place", "state", "country") and m.kind == "place"):
        base = min(base, 1.5)  # an optional value needs words that point at it
    return base, value, rule


_EXPLAINED = re.compile(r"['\"]([^'\"]{1,20})['\"]\s*(?:for|means|=|is|:)\s+([A-Za-z][\w -]{1,30}?)\s*(?=[,.;)]|\bor\b|$)")


@lru_cache(maxsize=4096)
def _option_meanings(desc: str) -> tuple[tuple[str, str], ...]:
    return tuple((m.group(1), m.group(2)) for m in _EXPLAINED.finditer(desc))


_NUM_TOKEN = r"[-−]?\d[\d,]*(?:\.\d+)?"
_RESPECTIVE = re.compile(rf"\b([A-Za-z]+)\s+and\s+([A-Za-z]+)\s+(?:as|are|of|being|were|is|=|:)\s+(?:the\s+)?"
                         rf"({_NUM_TOKEN})\s*[A-Za-z°%]*\s+and\s+({_NUM_TOKEN})", re.I)
_BY = re.compile(rf"({_NUM_TOKEN})\s*[A-Za-z.°]*\s*(?:by|x|×)\s*({_NUM_TOKEN})", re.I)
_EXTENTS = ("length", "width", "height", "depth")


def _said_in_pairs(slots: list[Slot], filled: dict, mentions: list[Mention], text: str) -> None:
    """Values said in the order their names were: "its base and height as 6cm and 10cm" (base 6, height 10),
    and "30 feet by 12 feet" for a length and a height (the first extent named first)."""
    numeric = [s for s in slots if s.kind in ("integer", "number")]
    if len(numeric) < 2:
        return

    def at(pos: int) -> int | None:
        return next((i for i, m in enumerate(mentions) if m.kind == "number" and m.start <= pos < m.end), None)

    def put(s: Slot, i: int | None, why: str) -> None:
        if i is not None:
            filled[s.name] = (_number_value(s, mentions[i]), Evidence(why, mentions[i].text.strip()), 4.0, (i,))

    for m in _RESPECTIVE.finditer(text):
        first = [s for s in numeric if lang.matches_any(lang.stem(m.group(1).lower()), s.keys)]
        second = [s for s in numeric if lang.matches_any(lang.stem(m.group(2).lower()), s.keys)]
        if len(first) == 1 and len(second) == 1 and first[0] is not second[0]:
            put(first[0], at(m.start(3)), "respectively")
            put(second[0], at(m.start(4)), "respectively")
    extents = sorted((s for s in numeric if any(e in lang.split_identifier(s.name) for e in _EXTENTS)),
                     key=lambda s: next(k for k, e in enumerate(_EXTENTS) if e in lang.split_identifier(s.name)))
    if len(extents) == 2:
        m = _BY.search(text)
        if m:
            put(extents[0], at(m.start(1)), "A by B")
            put(extents[1], at(m.start(2)), "A by B")


def _numbered_in_order(slots: list[Slot], filled: dict, mentions: list[Mention]) -> None:
    """"Mix yellow and blue": ``color1``/``color2`` (or ``a1``/``a2``) take their values in the order the text says them."""
    families: dict[str, list[Slot]] = {}
    for s in slots:
        m = re.fullmatch(r"(.*?[a-z_])(\d)", s.name, re.I)
        if m and s.kind in ("string", "integer", "number"):
            families.setdefault(m.group(1).lower() + "/" + s.kind, []).append(s)
    for members in families.values():
        got = [filled.get(s.name) for s in members]
        if len(members) < 2 or any(g is None or len(g[3]) != 1 or g[3][0] >= len(mentions) for g in got):
            continue
        # a member of a kind read inside a phrase is keyed by -1 - its position in the text
        order = sorted(got, key=lambda g: mentions[g[3][0]].start if g[3][0] >= 0 else -1 - g[3][0])
        for s, g in zip(sorted(members, key=lambda s: s.name), order):
            filled[s.name] = g


def _zh_named_option(slot: Slot, text: str) -> tuple[Any, str] | None:
    """The English option a Chinese word of the request names (买个水壶 -> 'kettle', via
    :data:`~.language.ZH_LEXICON`): every word of the option among the request's concepts, one option only."""
    if not lang.is_chinese(text):
        return None
    concepts = set(lang.chinese_concepts(text))
    named = [o for o in slot.options if isinstance(o, str) and o.isascii() and
             (words := re.findall(r"[a-z]+", o.lower())) and all(lang.stem(w) in concepts for w in words)]
    return (named[0], str(named[0])) if len(named) == 1 else None


def _explained_option(slot: Slot, text: str) -> tuple[Any, str] | None:
    """The option whose meaning the request says: "in Celsius" for "'c' for Celsius, 'f' for Fahrenheit"."""
    pairs = [(o, meaning) for o, meaning in _option_meanings(str(slot.spec.get("description", "")))
             if o in slot.options or o.lower() in {str(x).lower() for x in slot.options}]
    if len(pairs) < 2:
        return None
    for option, meaning in pairs:
        hit = match_enum(text, [meaning])
        if hit:
            return next(x for x in slot.options if str(x).lower() == option.lower()), hit[1]
    return None


def _with_version(text: str, end: int, value: str) -> str:
    """"Windows 10", "Python 3.12": a member of a kind and the version number right after it (not "4 kg")."""
    version = re.match(r"\s+(\d+(?:\.\d+)?)\b(?!\s*%)\s*([A-Za-z]*)", text[end:])
    if version and not (version.group(2) and (gz.UNITS.get(version.group(2)) or gz.UNITS.get(version.group(2).lower()))):
        return f"{value} {version.group(1)}"
    return value


def _words_taken(filled: dict, but: str) -> list[str]:
    """The words other arguments took from inside phrases: options, enum lists, examples and category members."""
    out = []
    for name, (value, ev, _, _) in filled.items():
        if name == but:
            continue
        if ev.rule in ("enum", "option", "enum list"):
            out += ev.words.split(", ")
        elif (ev.rule == "example in the description" or ev.rule in gz.CATEGORIES) and isinstance(value, str):
            out.append(value)
    return out


def _without_option_words(value: str, option_words: list[str]) -> str:
    """"gluten-free cookie" when ``diet`` took "gluten-free": the words an option took leave the phrase."""
    for words in option_words:
        w = re.sub(r"(?:\\ |\\-|-)", r"[\\s-]", re.escape(words.strip()))  # "gluten free" ~ "gluten-free"
        if not w:
            continue
        trimmed = re.sub(rf"^{w}\s+|\s+{w}$", "", value, flags=re.I).strip()
        if trimmed:
            value = trimmed
    return value


def _as_described(slot: Slot, value: str, filled: dict) -> str:
    """A value rewritten as the slot's description asks: a company as its ticker, a city without the country
    another argument already takes ("Sydney, Australia" -> "Sydney" when ``country`` is "Australia")."""
    desc = str(slot.spec.get("description", "")).lower()
    if zone := timezones.as_zone(slot.name, desc, value):  # "Tokyo" for a time zone: "Asia/Tokyo"
        return zone
    if "ticker" in desc or "symbol" in slot.name.lower():
        return gz.TICKERS.get(value.lower(), value)
    if slot.role in ("place", "city") and ", " in value:
        city, _, rest = value.partition(", ")
        if any(v[0] == rest and n != slot.name for n, v in filled.items()):
            return city
    return value


_IRREGULAR = {"men": "man", "women": "woman", "children": "child", "people": "person", "feet": "foot", "teeth": "tooth",
              "mice": "mouse", "geese": "goose"}


def _singular(word: str) -> str:
    low = word.lower().strip()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    for suffix, repl in (("ies", "y"), ("oes", "o"), ("ches", "ch"), ("shes", "sh"), ("sses", "ss"), ("s", "")):
        if low.endswith(suffix) and len(low) > len(suffix) + 1 and not low.endswith("ss"):
            return low[: len(low) - len(suffix)] + repl
    return low


def _example_form(slot: Slot, value: str) -> str:
    """``value`` written the way the description's examples write it ("tablespoons" -> 'tablespoon', "mile" -> 'miles')."""
    key = _singular(value)
    default = slot.spec.get("default")
    for ex in slot.examples + ((default,) if isinstance(default, str) and default else ()):
        if ex != value and (_singular(ex) == key or value.lower() in _SYNONYMS.get(ex.lower(), ())):
            return ex  # the same word, or a way to say it ("public transportation" for 'transit')
    if isinstance(default, str) and default.lower() in _IRREGULAR and value.lower() in _IRREGULAR.values():
        return next(p for p, sg in _IRREGULAR.items() if sg == value.lower())  # default 'men': "woman" -> "women"
    return value


def _time_words(reading: Reading, m: Mention) -> str:
    """A span of time as the request says it: "19th century", "next month", "the last 2 weeks" -> "last 2 weeks"."""
    words = m.text.strip()
    if m.get("implicit"):
        lead = re.search(r"\b(next|last|past|coming|this|previous)\s+$", reading.text[max(0, m.start - 12):m.start], re.I)
        if lead and not words.lower().startswith(lead.group(1).lower()):
            words = f"{lead.group(1)} {words}"
    return words


def _after_amount(text: str, pos: int) -> bool:
    """Whether a currency at ``pos`` is written right after an amount ("500 US dollars", "100 EUR")."""
    return re.search(r"\d(?:\s*(?:k|m|bn|thousand|million|billion))?\s*$", text[max(0, pos - 16):pos], re.I) is not None


def _unit_surface(reading: Reading, m: Mention) -> str:
    """The unit as written after a number: "4 inches" -> "inches", "5英里" -> "英里"; of a compound quantity the
    unit its value is in ("3 feet 6 inches", read as 42 inches: "inches")."""
    text = m.text
    if lang.is_chinese(text):  # the longest Chinese unit name that ends it (5千克, 五英里, 100米): as written
        surface = next((text[k:] for k in range(len(text)) if lang.is_chinese(text[k]) and text[k:] in gz.UNITS), "")
        if gz.UNITS.get(text[:2] + surface, ("",))[0] == m.unit:
            return text[:2] + surface  # 华氏100度, 摄氏20度: the scale written before the figure (华氏度, 摄氏度)
        return surface if not m.unit or gz.UNITS.get(surface, ("",))[0] == m.unit else m.unit
    num = re.match(r"[^A-Za-z°%µ]*", text)
    rest = text[num.end():].strip() if num else ""
    return re.split(r"\d[\d.,]*\s*", rest)[-1].strip()  # "3 feet 6 inches" (read as 42 in): "inches"


# ---------------------------------------------------------------------------- phrases
_VERBS = phrases_mod.VERBS | phrases_mod.FUNCTION_WORDS | phrases_mod.FRAMING
#: Prepositions that introduce each kind of free-text value.
_PREP_ROLES = {"about": ("topic", "subject", "theme", "query", "keyword", "question", "regard"),
               "on": ("topic", "subject", "theme", "keyword"), "regarding": ("topic", "subject", "query"),
               "by": ("author", "artist", "creator", "writer", "director", "composer", "manufactur", "brand",
                      "make", "publish", "sort", "order"),
               "from": ("source", "origin", "website", "site", "store", "manufactur", "brand", "provider",
                        "database", "publish", "vendor", "start"),
               "for": ("purpose", "occasion", "event", "recipient", "dish", "meal", "target"),
               "with": ("ingredient", "feature", "amenit", "include", "option", "filter", "condition"),
               "in": ("region", "area", "field", "domain", "categori", "compartment", "organ", "language", "locat",
                      "context", "environ", "habitat", "medium", "format", "genre", "subject")}


def _phrases(reading: Reading, tool_vocab: frozenset[str], used_spans: list[tuple[int, int]]) -> list[Mention]:
    """The request's noun phrases (see :mod:`.phrases`) as ``phrase`` mentions."""
    return [p.as_mention() for p in phrases_mod.phrases(reading, tool_vocab, used_spans)]


def _example_hit(slot: Slot, phrase: str) -> str | None:
    """The description's example that ``phrase`` names ("gas-powered" -> 'gas'), if any."""
    low = phrase.lower()
    for ex in slot.examples:
        e = ex.lower()
        if len(e) < 2:
            continue
        word, prefix = _example_patterns(e)
        if word.search(low) or (len(e) >= 3 and prefix.search(low)):
            return ex
    return None


@lru_cache(maxsize=4096)
def _example_patterns(example: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The patterns of a (lower-case) example as a word ("gas", "gases") and as a prefix ("gas-powered"), compiled once."""
    esc = re.escape(example)
    return re.compile(rf"(?<![\w]){esc}(?:s|es)?(?![\w])"), re.compile(rf"(?<![\w]){esc}-\w+")


def _phrase_value(base: float, slot: Slot, reading: Reading, m: Mention) -> tuple[float, Any, str, int]:
    """The value the phrase ``m`` gives ``slot``: a member of the slot's kind or an example of its
    description read inside the phrase, else the phrase itself.

    Returns:
        ``(base after the reading, value, rule, member)``: ``member`` is the offset of a member read inside
        a longer phrase ("the large red umbrella"), else -1.
    """
    value, rule, member = m.value, "words", -1
    if slot.category:
        hits = gz.category_members(slot.category, m.value)
        if hits:
            value = " ".join(h[0] for h in hits) if len(hits) > 1 and slot.category in ("diet",) else hits[0][0]
            base += 4.0
            rule = slot.category
            member = m.start + hits[0][1]
            value = _with_version(reading.text, m.start + hits[0][2], value)
        else:
            base -= 0.6
    ex = _example_hit(slot, m.value) if slot.examples else None
    if ex is not None:
        base += 3.5
        value, rule = (ex if len(ex) < len(m.value) else value), "example in the description"
        at = m.value.lower().find(ex.lower())
        if len(ex) < len(m.value) and at >= 0 and member < 0:
            member = m.start + at  # "vegan chocolate cake": the example alone is consumed, the phrase stays
    return base, value, rule, member


def _phrase_candidates(slot: Slot, reading: Reading, phrases: list[Mention], offset: int,
                       tool_vocab_all: frozenset[str] = frozenset(), flags: frozenset[str] = frozenset()
                       ) -> list[tuple[float, Any, int, Evidence]]:
    out = []
    slot_words = " ".join(sorted(slot.keys | slot.desc_keys))
    for j, m in enumerate(phrases):
        ctx, words = _context_score(slot, reading, m, tool_vocab_all)
        base = 0.3 + ctx
        base, value, rule, member = _phrase_value(base, slot, reading, m)
        pw = m.value.lower().split()
        prep = m.get("prep")
        if prep and any(h in slot_words for h in _PREP_ROLES.get(prep, ())):
            base += 1.2
        lead = m.get("lead") or ""
        if prep == "of" and lead and lang.stem(lead) in tool_vocab_all:
            base += 0.7  # "the boiling point of [water]": the object of the tool's own words
        head = m.get("head_after") or ""
        if head and lang.matches_any(lang.stem(head), slot.keys):
            base += 1.0  # "gas-powered [vehicle]" for vehicle_type: a modifier of the parameter's noun
        elif head:
            base += 0.5  # "organic [bananas] brands": what the tool's noun is about
        content = [w for w in pw if w not in ("of", "the", "a", "an")]
        if len(content) > 3:
            base -= 0.4 * (len(content) - 3)
        if m.get("joined"):
            base += 0.2 if slot.role in ("title", "free", "query", "text") else -0.5
            if lang.matches_any(lang.stem(pw[0]), slot.keys | slot.desc_keys):
                base += 1.0  # "the theory of evolution" for "a discovery or theory": the whole name
        if slot.role in ("expr", "date", "time", "email", "path", "unit", "currency", "id", "city", "state",
                         "country"):
            base -= 2.5  # common words are not a city, a date or an id: better to ask
        elif slot.role == "place":
            base -= 1.0 if ctx or prep in ("in", "at", "near", "around", "from", "to") else 2.0
        before = re.search(r"([A-Za-z]+)\W*$", reading.text[:m.start]) if head and m.get("after_tool") else None
        if m.get("after_tool") and not (head and before and lang.stem(before.group(1).lower()) in flags):
            # "the Mohs scale": the tool's own noun phrase goes on, no new value ("organic [bananas] brands":
            # a flag's word before it is no noun of the tool)
            base -= 1.5
        if not slot.required and ctx < 1.0 and rule == "words":
            base = min(base, 1.5)  # an optional value needs words that point at it
        out.append((base, value, offset + j if member < 0 else -1 - member, Evidence(rule, words if ctx else m.text)))
    return out


# ---------------------------------------------------------------------------- enums, booleans
_SHORT_UNITS = {"h": "hour", "hr": "hour", "d": "day", "m": "minute", "min": "minute", "s": "second", "y": "year",
                "yr": "year", "w": "week", "wk": "week"}


@lru_cache(maxsize=4096)
def _enum_forms(sv: str) -> tuple[tuple[str, re.Pattern[str], re.Pattern[str] | None], ...]:
    """How an enum value may be written: ``(form, its pattern, its stem's pattern)``; compiled once per value."""
    forms = {sv, sv.replace("_", " "), sv.replace("-", " "), sv.replace(" ", "-"), sv.replace("_", "-")} | set(
        _SYNONYMS.get(sv, ()))
    short = re.fullmatch(r"(\d+)\s?(h|hr|d|m|min|s|y|yr|w|wk)", sv)
    if short:  # '24h' is "24 hour", '7d' "7 days"
        word = _SHORT_UNITS[short.group(2)]
        forms |= {f"{short.group(1)} {word}", f"{short.group(1)}-{word}", f"{short.group(1)} {word}s"}
    if sv.isalpha() and sv.isascii() and 3 <= len(sv) < 4:  # "2 mugs" for 'mug' (longer values match by stem)
        forms.add(sv + ("es" if sv.endswith(("s", "x")) else "s"))
    out = []
    for form in sorted(f for f in forms if f):
        # ASCII edges, not \b: "HR空间里" names the 'hr' option (Chinese characters are word characters to \b)
        pat = re.escape(form) if lang.is_chinese(form) or not form[0].isalnum() else \
            rf"(?<![A-Za-z0-9_]){re.escape(form)}(?![A-Za-z0-9_])"
        stem_pat = re.compile(rf"\b{re.escape(lang.stem(form))}\w*") if len(form) >= 4 and form.isalpha() else None
        if stem_pat is None and " " in form and re.fullmatch(r"[a-z]+(?: [a-z]+){1,3}", form):
            # "historical records" named as "historical record": each word by its stem
            stem_pat = re.compile(r"\b" + r"\w*\s+".join(re.escape(lang.stem(w)) for w in form.split()) + r"\w*")
        out.append((form, re.compile(pat), stem_pat))
    return tuple(out)


def match_enum(text: str, values: list[Any]) -> tuple[Any, str] | None:
    """The enum value ``text`` mentions (by value, case-insensitive, a synonym, or a stem)."""
    low = text.lower()
    best: tuple[int, int, Any, str, tuple] | None = None
    exact: list[tuple[int, int, Any, str]] = []
    for v in values:
        if v is None:
            continue
        for form, pat, stem_pat in _enum_forms(str(v).lower()):
            m = pat.search(low)
            if m is not None:
                exact.append((m.start(), m.end(), v, text[m.start(): m.end()]))
            elif stem_pat is not None:
                m = stem_pat.search(low)
            # an option's own spelling before a word only said for it ("something thrilling... an Action movie")
            rank = (form in _OPTION_WORDS.get(str(v).lower(), ()), -len(form), m.start()) if m else None
            if m and (best is None or rank < best[4]):
                best = (-len(form), m.start(), v, text[m.start(): m.end()], rank)
    if best is None:
        return None
    # a stem match whose words hold another value written out ("to done": 'to do' by stems, 'done' as said)
    # stands for that value
    a, b = best[1], best[1] + len(best[3])
    inside = [e for e in exact if e[2] != best[2] and a <= e[0] and e[1] <= b and e[3].lower() != best[3].lower()]
    if best[3].lower() not in {e[3].lower() for e in exact if e[2] == best[2]} and inside:
        return inside[0][2], inside[0][3]
    return best[2], best[3]


_COORDINATED = re.compile(r"\s*(?:,|and|or|&|/|as well as|vs\.?|versus|,\s*and|,\s*or|和|跟|与|及|或|、|以及)\s*(?:the\s+|an?\s+)?",
                          re.I)


def _branded_members(s: Slot, text: str, cands: list) -> list[tuple[float, str, Evidence]]:
    """A member of the argument's kind with the brand and model said before it ("a *Yamaha P125* piano").

    The kind's noun alone ("piano") would lose the thing asked about; the name before it is the
    value a model sends ("Yamaha P125 piano").
    """
    out = []
    for score, slot, value, _, ev in list(cands):
        if slot is not s or ev.rule != s.category or not isinstance(value, str):
            continue
        for m in re.finditer(r"\b" + re.escape(value) + r"\b", text):
            lead = re.search(r"[a-z,]\s+((?:[A-Z][\w-]*\s+){1,3})$", text[:m.start()])  # not a sentence's start
            if lead and not any(w.lower() in _NOT_NAMES for w in lead.group(1).split()):
                out.append((score + 0.5, lead.group(1) + value, Evidence(s.category + ", with its name",
                                                                        lead.group(1) + value)))
                break
    return out


def _option_before_noun(s: Slot, text: str) -> tuple[Any, str] | None:
    """The one option said right before the argument's own noun ("find *all roots*, real or complex").

    Other options may be named too ("real or complex" qualifies the roots); the one that names
    the thing the argument is about (``root_type``: roots) is the choice.
    """
    nouns = [w for w in lang.split_identifier(s.name) if w not in ("type", "kind", "mode", "option") and len(w) >= 3]
    hits = []
    for v in s.options:
        for noun in nouns:
            m = _option_noun_pattern(str(v), noun).search(text)
            if m:
                hits.append((v, m.group(1)))
                break
    return hits[0] if len(hits) == 1 else None


@lru_cache(maxsize=4096)
def _option_noun_pattern(option: str, noun: str) -> re.Pattern[str]:
    """An option said right before the argument's noun (or its stem), compiled once per option and noun."""
    return re.compile(r"\b(" + re.escape(option) + r")\s+" + re.escape(noun[:max(3, len(noun) - 1)]) + r"\w*", re.I)


#: "the status and *scheduled* trial date": one qualifying word before the next option keeps the coordination.
_COORDINATED_QUALIFIED = re.compile(r"\s*(?:,\s*)?(?:and|or|as well as)\s+(?:the\s+|an?\s+)?[a-z]{4,}\s+", re.I)


def _enum_all(text: str, values: list[Any]) -> list[tuple[Any, str, int]]:
    """Options named side by side ("both *ascending and descending*"): ``(value, words, position)`` each."""
    low = text.lower()
    hits: list[tuple[int, int, Any]] = []
    for v in values:
        hit = match_enum(text, [v])
        if hit:
            pos = low.find(hit[1].lower())
            if pos >= 0 and not any(a <= pos < b or pos <= a < pos + len(hit[1]) for a, b, _ in hits):
                hits.append((pos, pos + len(hit[1]), v))
    hits.sort()
    if len(hits) < 2 or not all(_COORDINATED.fullmatch(text[a[1]:b[0]]) or _COORDINATED_QUALIFIED.fullmatch(
            text[a[1]:b[0]]) for a, b in zip(hits, hits[1:])):
        return []
    return [(v, text[a:b], a) for a, b, v in hits]


def _enum_partners(slots: list[Slot], filled: dict, spread: dict, text: str) -> None:
    """Options that go with each value of a spread: "stage 7 in *easy* mode and stage 3 in *hard* mode".

    An enum slot whose options are named once each, as many times as a spread has values and
    alternating with them through the text, spreads too (the engine zips the two).
    """
    anchor = min(spread.values(), key=lambda col: col[0][2])
    for s in slots:
        if s.name in spread or s.name not in filled or not (s.kind == "enum" or s.kind == "string" and s.options):
            continue
        low = text.lower()
        hits = []
        for v in s.options:
            hit = match_enum(text, [v])
            if hit:
                pos = low.find(hit[1].lower())
                if pos >= 0 and low.find(hit[1].lower(), pos + 1) < 0:  # each option named once
                    hits.append((pos, v, hit[1]))
        hits.sort(key=lambda h: h[0])
        if len(hits) != len(anchor) or len(hits) < 2:
            continue
        col = [(v, Evidence("enum" if s.kind == "enum" else "option", w), pos) for pos, v, w in hits]
        if all(max(anchor[i][2], col[i][2]) < min(anchor[i + 1][2], col[i + 1][2]) for i in range(len(col) - 1)):
            spread[s.name] = col


_NEGATION = re.compile(r"\b(?:no|not|without|exclude|excluding|except|disable|disabled|never|don'?t|do not|"
                       r"(?:does|is|are|should|must|can|would|won|was|were)n'?t|skip|omit|avoid(?:ing)?|turn off|off|false|hide|minus|ignore|ignoring)\b|不要|不|没有|关闭|无需",
                       re.I)
_BOOL_GENERIC = frozenset("is has include includes including use using enable enabled show get return with for "
                          "allow should do flag want need consider the a an of to in".split())


_SIDES = re.compile(r"(?:return\s+)?(?:an?\s+)?([\w -]{2,30}?)\s+if\s+true\s*[,;]?\s*(?:and\s+|or\s+|otherwise\s+)?"
                    r"(?:an?\s+)?([\w -]{2,30}?)\s+if\s+false", re.I)


_QUADRATIC = re.compile(r"(-?\s*\d*\.?\d*)\s*x\s*(?:\^\s*2|²|\*\*\s*2)\s*(?:([+-])\s*(\d*\.?\d*)\s*x(?![\w^²*]))?"
                        r"\s*(?:([+-])\s*(\d+\.?\d*))?\s*=\s*0")


def _quadratic_coefficients(slots: list[Slot], text: str) -> dict[str, list[tuple[Any, Evidence, int]]]:
    """``a``, ``b`` and ``c`` read from each quadratic equation written out ("5x^2 - 7x + 3 = 0": 5, -7, 3).

    Only for a tool whose number arguments are named a, b and c; one column entry per equation,
    so two equations ask two calls.
    """
    names = {s.name.lower(): s for s in slots if s.kind in ("integer", "number")}
    if not {"a", "b", "c"} <= set(names):
        return {}
    out: dict[str, list[tuple[Any, Evidence, int]]] = {}
    for m in _QUADRATIC.finditer(text):
        lead = m.group(1).replace(" ", "")
        a = -1.0 if lead == "-" else float(lead) if lead not in ("", "-") else 1.0
        b = 0.0 if m.group(2) is None else float(m.group(2) + (m.group(3) or "1"))
        c = 0.0 if m.group(4) is None else float(m.group(4) + m.group(5))
        ev = Evidence("coefficient of the equation", m.group(0))
        for key, v in (("a", a), ("b", b), ("c", c)):
            s = names[key]
            value = int(v) if v.is_integer() else v
            out.setdefault(s.name, []).append((value, ev, m.start()))
    return out


def _described_sides(slot: Slot, text: str) -> list[tuple[bool, Evidence, int]]:
    """The flag's values whose results the request names, when the description says what each gives.

    "Return formatted string if true, array if false": "as a formatted string" is true, "as an
    array" false, both named ask the call both ways. Returns ``[(value, evidence, position)]`` in
    the order said (empty when the description says no such thing or the request names neither).
    """
    m = _SIDES.search(str(slot.spec.get("description", "")))
    if not m:
        return []
    out = []
    for value, words in ((True, m.group(1)), (False, m.group(2))):
        head = words.split()[-1]  # "formatted string" -> string
        hit = re.search(r"\b" + re.escape(head[:max(4, len(head) - 1)]) + r"\w*", text, re.I)
        if hit:
            out.append((value, Evidence("what the flag gives", hit.group(0)), hit.start()))
    return sorted(out, key=lambda x: x[2])


def _flag_sides(slot: Slot) -> dict[str, Any]:
    """The 'true' and 'false' options of a flag written as options, by their lower-case spelling; else empty."""
    sides = {str(o).lower(): o for o in slot.options if str(o).lower() in ("true", "false")}
    return sides if len(sides) == 2 else {}


def _flag_option(slot: Slot, reading: Reading) -> tuple[Any, str] | None:
    """A yes/no flag written as options ('True', 'False', 'dontcare'): read like a boolean of the same name.

    "a house *with laundry service*" sets ``has_laundry_service`` to its 'True' option, "*no* laundry
    service" to 'False'; a request that names neither leaves it to its default (a "no" elsewhere in
    the request is no answer to this flag). Said with indifference ("I don't mind if there's an entry fee"),
    it takes the no-preference option ('dontcare'), or none (:func:`_indifferent`).
    """
    sides = _flag_sides(slot)
    b = _boolean(slot, reading) if sides else None
    if b is not None and (shrug := _indifferent(b[1].words, reading.text)):
        either = [o for o in slot.options if str(o).lower() in _FLAG_WORDS["no_preference_options"]]
        return (either[0], shrug) if either else None
    return (sides[str(b[0]).lower()], b[1].words) if b else None


_FLAG_WORDS = load_json("flag_words.json")
_INDIFFERENT = re.compile("|".join(rf"(?<![\w']){re.escape(w)}(?![\w'])" if w.isascii() else re.escape(w)
                                   for w in _FLAG_WORDS["indifferent"]), re.I)


def _indifferent(words: str, text: str) -> str:
    """The indifferent phrase ("don't mind", "not too concerned", 无所谓) said in the clause of ``words`` before
    them, or ''."""
    at = text.find(words) if words else -1
    if at < 0:
        return ""
    before = re.split(r"[.;!?。；！？]|\bbut\b", text[:at + len(words)])[-1]
    m = _INDIFFERENT.search(before)
    return m.group(0) if m else ""


def _absence_flag(slot: Slot, reading: Reading) -> tuple[bool, Evidence] | None:
    """A flag whose description says one side as the absence of the flag's own thing ("only attractions with *no
    entry fee*" of ``free_entry``; "false for no ...": the false side): "with no entry fees", "without a fee"
    make it true, "need fee to entry" false. None when the description says no absence of a thing the flag's
    name says, the request does not name it, or it names the flag's own other word ('free': the ordinary
    reading, :func:`_boolean`). Words: ``course_lib/data/flag_words.json``.

    Returns:
        ``(value, evidence)`` or None."""
    absent = "|".join(re.escape(w) for w in _FLAG_WORDS["absence"])
    desc = str(slot.spec.get("description", "")).lower()
    m = re.search(rf"\b(?:{absent})\s+((?:[a-z][\w-]*\s*){{1,3}})", desc)
    if m is None:
        return None
    when_absent = not re.search(r"\bfalse\W*(?:for|if|when|means)?\W*$", desc[max(0, m.start() - 20):m.start()])
    stop = _BOOL_GENERIC | {"be", "should", "is", "are", "for", "or", "and", "only", "listed", "shown"}
    things = set()
    for w in m.group(1).split():
        if w in stop:
            break
        things.add(lang.stem(w))
    named = {lang.stem(w) for w in lang.split_identifier(slot.name) if w not in _BOOL_GENERIC}
    own = named - things
    said = [(s, e) for word, s, e in reading.words if lang.stem(word) in things]
    if not things & named or not said or any(lang.stem(word) in own for word, _, _ in reading.words):
        return None  # "has_quality_problem ... (false for no record)": the absent record is not the flag's own thing
    s, e = said[0]
    window = re.split(r"[,.;]|\band\b", reading.text.lower()[max(0, s - 30): s])[-1]
    words_read = reading.text[max(0, s - 20): said[-1][1]].strip()
    if _NEGATION.search(window):
        return when_absent, Evidence("boolean (absence said)", words_read)
    return not when_absent, Evidence("boolean (presence said)", words_read)


_POWER_NAMES = frozenset({"power", "on", "state", "switch", "powered", "turned"})
_ON_OFF_DESC = re.compile(r"\bon\s+or\s+off\b|\boff\s+or\s+on\b|\bturn(?:ed)?\s+on\b", re.I)
_TURNED = re.compile(r"\b(?:turn|switch|power|flip|put)(?:ed|s|ing)?\s+(?:(?:it|them|the\s+[\w -]{1,30}?)\s+)?(on|off)\b"
                     r"|\bshut(?:s|ting)?\s+(?:down|off)\b|(打开|开启|开一下|关掉|关闭|关上)", re.I)


def _switched(slot: Slot, reading: Reading) -> tuple[bool, Evidence] | None:
    """A power switch (``power``, ``on``, "Whether to turn the disco ball on or off") from "turn on the disco ball",
    "switch it off", "shut down", 打开/关掉: on is true, off is false."""
    names = set(lang.split_identifier(slot.name))
    if not (names & _POWER_NAMES or _ON_OFF_DESC.search(str(slot.spec.get("description", "")))):
        return None
    m = _TURNED.search(reading.text)
    if m is None:
        return None
    said = (m.group(1) or m.group(2) or m.group(0)).lower()
    return said in ("on", "打开", "开启", "开一下"), Evidence("switched on or off", m.group(0))


@lru_cache(maxsize=1)
def _state_pairs() -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """``course_lib/data/boolean_states.json``'s pairs as ``(yes words, no words)``."""
    return tuple((tuple(p["yes"]), tuple(p["no"])) for p in load_json("boolean_states.json")["pairs"])


def _says(low: str, word: str) -> re.Match | None:
    """Where lower-cased ``low`` says ``word``: a whole English word (phrase), or Chinese as written."""
    if not word.isascii():
        return re.search(re.escape(word), low)
    return re.search(rf"(?<![a-z0-9_-]){re.escape(word)}(?![a-z0-9_-])", low)


def _stated_state(slot: Slot, reading: Reading) -> tuple[bool, Evidence] | None:
    """A flag named after a state ('on', ``is_on``, ``enabled``, ``locked``) that the request does not name, read
    from the words of that state or its opposite (``boolean_states.json``): "Turn off the kitchen lights" makes
    ``on`` false, 打开卧室的灯 true. None when the request says neither side, or both.

    Args:
        slot: a boolean slot.
        reading: the request's reading.

    Returns:
        ``(value, evidence)`` or None.
    """
    names = {w.lower() for w in lang.split_identifier(slot.name)} - {"is", "set", "turn", "turned", "should"}
    low = reading.text.lower()
    for yes, no in _state_pairs():
        named_yes, named_no = yes[0] in names, no[0] in names
        if named_yes == named_no:
            continue
        said_yes = next((m for w in yes if (m := _says(low, w))), None)
        said_no = next((m for w in no if (m := _says(low, w))), None)
        if bool(said_yes) == bool(said_no):
            continue
        said = said_yes or said_no
        return bool(said_yes) == named_yes, Evidence("boolean (state word)", reading.text[said.start():said.end()])
    return None


def _boolean(slot: Slot, reading: Reading) -> tuple[bool, Evidence] | None:
    if (switch := _switched(slot, reading)) is not None:
        return switch
    if (absence := _absence_flag(slot, reading)) is not None:
        return absence
    words = [w for w in lang.split_identifier(slot.name) if w not in _BOOL_GENERIC and len(w) > 1]
    if not words:
        return _stated_state(slot, reading)
    low = reading.text.lower()
    parts = lang.split_identifier(slot.name)
    # "good_for_kids", "available_for_pet": what follows 'for' is who the flag is about, and must be said
    subject = {w for w in parts[parts.index("for") + 1:] if w in words} if "for" in parts[:-1] else set()
    hits = []
    for w in words:
        st = lang.stem(w)
        found = None
        for word, s, e in reading.words:
            if lang.word_matches(lang.stem(word), st) or "-" in word and lang.word_matches(
                    lang.stem(word.replace("-", "")), st):  # "multi-player" for multiplayer
                found = (s, e)
                break
        if found:
            hits.append(found)
        elif w in subject:
            return None
    need = 1 if len(words) <= 2 else 2
    if not hits:
        return _stated_state(slot, reading)
    if len(hits) < min(need, len(words)):
        return None
    s, e = min(hits)
    window = low[max(0, s - 30): s]
    window = re.split(r"[,.;]|\band\b", window)[-1]
    after = low[e: e + 20]
    words_read = reading.text[max(0, s - 20): max(e2 for _, e2 in hits)].strip()
    if _NEGATION.search(window) or re.match(r"\s*(?:avoided|excluded|disabled|off|not needed)\b", after) or \
            re.search(r"\bless\s+$", window):  # "a less detailed description": not the detailed one
        # "avoid" in the slot's own name ("avoid_tolls") turns the negation into a yes
        if any(lang.word_matches(lang.stem(n), "avoid") for n in lang.split_identifier(slot.name)):
            return True, Evidence("boolean", words_read)
        return False, Evidence("boolean (negated)", words_read)
    return True, Evidence("boolean", words_read)


# ---------------------------------------------------------------------------- arrays, objects
#: Words just before a list of names that make them the people of a meeting: "a call with Ann and Bo",
#: "invite Ann and Bo", 邀请张三和李四, 和张三、李四一起 (the 一起 after the names is not required).
_WITH_PEOPLE = re.compile(r"(?:\b(?:with|invite|inviting|invited|invites)\s+|(?:邀请|邀|和|跟|与|同)\s*)$", re.I)
_PEOPLE_WORDS = frozenset(lang.stem(w) for w in ("people", "person", "persons", "attendee", "attendees", "participant",
                                                  "participants", "invitee", "invitees", "guest", "guests", "invite",
                                                  "members", "who"))


@lru_cache(maxsize=1)
def _zh_people() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """How a Chinese request invites people (``course_lib/data/zh_people.json``): the pattern of a run of names
    after an inviting word or a label of the list (参会人：, 与会者) (group 1: the names with their separators),
    and the pattern of a separator."""
    data = load_json("zh_people.json")
    surname = "|".join(data["two_character_surnames"] + [f"[{data['surnames']}]"])
    name = f"(?:(?:{surname})[\u4e00-\u9fff]{{1,2}}?|[{data['familiar_prefixes']}][\u4e00-\u9fff])"
    sep = f"[{re.escape(data['separators'])}]"
    label = f"(?:{'|'.join(data['labels'])})[{data['label_marks']}]?\\s*"  # 参会人：张三、李四
    run = f"(?:{label}|{'|'.join(data['before'])})({name}(?:{sep}{name})*)(?={'|'.join(data['after'])})"
    return re.compile(run), re.compile(sep)


def _zh_invited_names(text: str) -> list[tuple[list[str], str]]:
    """Each run of invited names in ``text`` as ``(names, words read)``.

    ``"明天和张三、李四一起开会"`` -> ``[(["张三", "李四"], "和张三、李四")]``; ``"邀请王小明参加"`` -> ``[(["王小明"], ...)]``.
    A name is a common surname and one or two characters, or 小/老 and one (:func:`_zh_people`)."""
    run, sep = _zh_people()
    return [([n for n in sep.split(m.group(1)) if n], m.group(0)) for m in run.finditer(text)]


def _people_slot(slot: Slot, tool_vocab: frozenset[str]) -> bool:
    """Whether ``slot`` is the list of people of a meeting: recognised by what its name or description means
    (``attendees``, ``participants``, ``guests``, "People to invite"), the tool by its calendar words
    (:data:`_ITEM_TOOLS`)."""
    people = slot.role == "person" or bool((slot.keys | slot.desc_keys) & _PEOPLE_WORDS)
    return people and bool(tool_vocab & _ITEM_TOOLS)


def _invited(slot: Slot, text: str, start: int, tool_vocab: frozenset[str]) -> bool:
    """Whether the names starting at ``text[start]`` are the people of a meeting whose list of people ``slot`` is:
    :func:`_people_slot`, and the word before the names (:data:`_WITH_PEOPLE`)."""
    return _people_slot(slot, tool_vocab) and bool(_WITH_PEOPLE.search(text[max(0, start - 12):start]))


_ArrayCandidate = tuple[float, Any, list[int], Evidence]


def _array_candidates(slot: Slot, reading: Reading, mentions: list[Mention], tool_vocab: frozenset[str]
                      ) -> list[_ArrayCandidate]:
    """Lists for an array slot: a bracketed group, a coordination, a range, enum values.

    Returns:
        ``[(score, list value, indexes of the mentions used, evidence)]``, in the order they were read.
    """
    ik = slot.item_kind
    out = _enum_list(slot, reading) + _bracket_and_range_lists(slot, reading, mentions, tool_vocab)
    if ik in ("string", "") and lang.is_chinese(reading.text) and _people_slot(slot, tool_vocab):
        for names, words in _zh_invited_names(reading.text):  # names the reader does not know: 邀请张三和李四
            out.append((3.0, names, [], Evidence("list", words)))
    grouped = {k for g in reading.groups for k in g}
    for k, m in enumerate(reading.mentions):  # one person: "a call with Ann", 邀请王五
        if k not in grouped and m.kind == "name" and ik in ("string", "") and m in mentions and \
                _invited(slot, reading.text, m.start, tool_vocab):
            out.append((3.0, [m.value], [mentions.index(m)], Evidence("list", m.text)))
    out += _coordination_lists(slot, reading, mentions, tool_vocab)
    if ik in ("string", "") and not any(c[0] >= 2.0 for c in out):
        lst = _word_list(slot, reading, tool_vocab)
        if lst:
            out.append(lst)
    return out


def _enum_list(slot: Slot, reading: Reading) -> list[_ArrayCandidate]:
    """The enum values the request names, in the order it names them."""
    if not (slot.options and slot.item_kind in ("enum", "string")):
        return []
    hits = []
    for opt in slot.options:
        h = match_enum(reading.text, [opt])
        if h:
            hits.append((reading.text.lower().find(h[1].lower()), opt))
    if not hits:
        return []
    vals = [v for _, v in sorted(hits)]
    return [(4.0, vals, [], Evidence("enum list", ", ".join(map(str, vals))))]


def _bracket_and_range_lists(slot: Slot, reading: Reading, mentions: list[Mention], tool_vocab: frozenset[str]
                             ) -> list[_ArrayCandidate]:
    """A bracketed group ("[1, 2, 3]") whose items have the slot's item type, or a range ("from 1 to 5")."""
    out: list[_ArrayCandidate] = []
    ik = slot.item_kind
    for i, m in enumerate(mentions):
        ctx, words = _context_score(slot, reading, m, tool_vocab)
        if m.kind == "group":
            flat = m.value
            numeric = all(isinstance(v, (int, float)) for v in flat)
            nested = all(isinstance(v, list) for v in flat)
            if ik in ("integer", "number") and numeric or ik == "array" and nested or ik in ("string", "enum") and not numeric:
                vals = [int(v) if ik == "integer" and isinstance(v, float) and v.is_integer() else v for v in flat]
                if ik == "string":
                    vals = [str(v) for v in vals]
                out.append((3.0 + ctx, vals, [i], Evidence("list", m.text)))
            elif ik in ("string",) and numeric:
                out.append((0.5 + ctx, [str(v) for v in flat], [i], Evidence("list", m.text)))
        elif m.kind == "range" and ik in ("integer", "number", ""):
            lo, hi = m.value
            bonus = 2.0 if {"interv", "range", "limit", "bound", "span"} & slot.keys or re.search(
                r"\b(?:two|2|pair|lower and upper|start and end|range|interval)\b", str(slot.spec.get("description", "")),
                re.I) else 0.5
            vals = [float(lo), float(hi)] if ik == "number" else [lo, hi]
            out.append((bonus + ctx, vals, [i], Evidence("range", m.text)))
    return out


def _coordination_lists(slot: Slot, reading: Reading, mentions: list[Mention], tool_vocab: frozenset[str]
                        ) -> list[_ArrayCandidate]:
    """The groups the reader found ("Paris, Rome and Oslo", "3, 5 and 8") whose members suit the item type."""
    out: list[_ArrayCandidate] = []
    ik = slot.item_kind
    items = slot.spec.get("items") if isinstance(slot.spec.get("items"), dict) else {}
    for g in reading.groups:
        members = [reading.mentions[k] for k in g]
        kinds = {mm.kind for mm in members}
        idx = [mentions.index(mm) for mm in members if mm in mentions]
        first = members[0]
        ctx, words = _context_score(slot, reading, first, tool_vocab)
        if ik in ("integer", "number") and kinds == {"number"}:
            vals = [_number_value(make_slot("_", json.dumps(items or {"type": ik}), False, 0), mm) for mm in members]
            out.append((2.5 + ctx, vals, idx, Evidence("list", reading.text[first.start: members[-1].end])))
        elif ik in ("string", "enum", "") and kinds <= {"name", "place", "quoted", "code"}:
            vals = [mm.value for mm in members]
            bonus = 2.5 if slot.role in ("city", "place", "country", "state") and kinds == {"place"} else \
                3.0 if kinds == {"name"} and _invited(slot, reading.text, first.start, tool_vocab) else 2.0
            out.append((bonus + ctx, vals, idx, Evidence("list", reading.text[first.start: members[-1].end])))
        elif ik == "array" and kinds == {"group"}:
            out.append((2.5 + ctx, [mm.value for mm in members], idx, Evidence("list of lists", "")))
    return out


_LIST_RX = re.compile(r"((?:[\w'’-]+\s){0,3}[\w'’-]+)((?:\s*,\s*(?:[\w'’-]+\s){0,3}[\w'’-]+)*)\s*,?\s+(?:and|or|&)\s+"
                      r"((?:[\w'’-]+\s){0,3}[\w'’-]+)")


_MEASURE_OF = re.compile(r"^(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|a dozen|dozen)"
                         r"(?:[\s-]+[a-z]+){0,2}?\s+of\s+", re.I)


def _list_member(part: str) -> str:
    """A list member without the words that lead into it: "uses chicken" -> "chicken", "12 pack of water" -> "water"."""
    words = part.split()
    while len(words) > 1 and words[0].lower().strip("'’") in _VERBS:
        words = words[1:]  # "buy apples", "I am efficient", "also pet food"
    out = _MEASURE_OF.sub("", " ".join(words))
    return re.sub(r"^(?:the|a|an)\s+", "", out)


_ITEM = r"(?:[^,.;:?!]|\.(?=\d))+"  # a decimal point does not end a list member
_WORD_LIST_RX = re.compile(rf"(?:{_ITEM},\s*)+(?:and|or)\s+{_ITEM}|(?:{_ITEM},\s*)*{_ITEM}\s(?:and|or|&)\s{_ITEM}")


def _word_list(slot: Slot, reading: Reading, tool_vocab: frozenset[str]) -> tuple | None:
    """"points per game, assists, and minutes per game" -> a list of short phrases."""
    text = reading.text
    best = None
    for m in _WORD_LIST_RX.finditer(text):
        chunk = m.group(0)
        parts = [p.strip() for p in re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+", chunk) if p.strip()]
        if len(parts) < 2:
            continue
        # trim the first part to its last words (after the verb/preposition that introduces the list)
        first = re.split(r"\b(?:of|for|with|including|include|includes|like|as|are|is|about|on|in|to|from|that|has|have|"
                         r"such as|namely|between|the|their|its|these|those|my|our|some)\s+", parts[0])[-1]
        last = re.split(r"\s+(?:in|for|on|at|from|with|to|of|by|using|and then|that|which)\s",
                        _MEASURE_OF.sub("", parts[-1]))[0]
        parts = [_list_member(p) for p in [first] + parts[1:-1] + [last]]
        if re.search(r"\d", parts[0]) and not any(re.search(r"\d", p) for p in parts[1:]):
            parts = parts[1:]  # "a 4.5 star rating, selling tomatoes and pet food": the measure leads in
        if len(parts) < 2:
            continue
        if any(len(p.split()) > 4 or not p for p in parts):
            continue
        content = [p for p in parts if any(w.lower() not in _VERBS for w in p.split())]
        if len(content) != len(parts):
            continue
        score = 1.0 + _word_hits(_left_words(reading, m.start()), slot.keys) * 2.0
        if best is None or score > best[0]:
            best = (score, parts, [], Evidence("list of words", ", ".join(parts)))
    return best


def _object_value(slot: Slot, reading: Reading, mentions: list[Mention], depth: int, root: dict | None = None
                  ) -> tuple[Any, Evidence] | None:
    spec = slot.spec
    for m in mentions:
        if m.kind == "dict":
            return m.value, Evidence("literal", m.text)
    if spec.get("properties") and depth < 3:
        sub = _fill(spec, reading, depth + 1, frozenset(), root)
        if sub.arguments:
            return sub.arguments, Evidence("object", ", ".join(f"{k}={v!r}" for k, v in sub.arguments.items()))
    return None


# ---------------------------------------------------------------------------- assignment
def fill_arguments(parameters: dict, text: str, root: dict | None = None, *,
                   tool_words: frozenset[str] = frozenset()) -> Filled:
    """Fill the arguments of a tool whose ``parameters`` schema is given, from ``text``.

    Args:
        parameters: the tool's JSON Schema (``{"type": "object", "properties": ...}``).
        text: the user's request (one clause of it when the request asks several things).
        root: the tool's whole schema, where ``$ref`` targets (``$defs``) live (default: ``parameters``).
        tool_words: stems of the tool's name and parameter names; words the tool already
            knows are not taken as free-text argument values.

    Returns:
        :class:`Filled` with the arguments found, the evidence for each, the names of
        required properties the text did not provide, and the coordinations that could
        spread into parallel calls.

    Example:
        >>> fill_arguments({"type": "object", "properties": {"city": {"type": "string"}},
        ...                 "required": ["city"]}, "What's the weather in Shanghai?").arguments
        {'city': 'Shanghai'}
    """
    reading = read(text)
    if _names_the_parts(parameters, reading):
        reading = read(text, compounds=False)
    return _fill(parameters, reading, 0, tool_words, root or parameters)


def _names_the_parts(parameters: dict, reading: Reading) -> bool:
    """Whether the tool's parameters name two units a compound quantity was written in (``hours`` and
    ``minutes`` for "1 hour 15 minutes", ``feet`` and ``inches`` for "5 ft 10 in"): then each part fills its slot."""
    compounds = [m for m in reading.mentions if m.kind == "number" and m.get("parts")]
    if not compounds or not isinstance(parameters.get("properties"), dict):
        return False
    named = {(gz.UNITS.get(w) or ("", ""))[0] for name in parameters["properties"]
             for w in lang.split_identifier(str(name))}
    return any(len(named & set(m.get("parts"))) >= 2 for m in compounds)


_NOTE_SLOTS = frozenset({"key", "note", "scale", "tonic", "root"})
#: "C sharp major", "F# minor", "B flat", "in C key": a musical key (capital letter, then an accidental or a mode).
_MUSICAL_KEY = re.compile(r"(?<![\w#])([A-G])(?:\s*(#|♯|sharp|♭|flat)|(?=\s+(?:major|minor|key|scale)\b))"
                          r"(?:\s+(major|minor))?(?![\w#])")
_ACCIDENTAL = {"#": "#", "♯": "#", "sharp": "#", "♭": "b", "flat": "b"}

#: Parameters that name which aspect of a thing to return ("Find the *size* of the sculpture").
_ASPECT_NAMES = frozenset({"detail", "details", "stat", "stats", "statistic", "attribute", "metric", "aspect",
                           "property", "info", "information"})


def _asked_aspect(text: str, vocab: frozenset[str]) -> str:
    """The words of what a request asks for ("What's the power rating for...": "power rating"), if new words."""
    from .purpose import target_words

    words = [w for w in target_words(text) if w not in phrases_mod.FRAMING and lang.stem(w) not in vocab]
    return " ".join(words[:3]) if words and len(words) <= 3 else ""


#: "in the format of YYYY", "as DD/MM/YYYY", "HH:mm": a date or time pattern written out.
_FORMAT_RX = re.compile(r"(?<![\w])(?:YYYY|YY|MM|DD|HH|hh|mm|ss)(?:[-/.: ](?:YYYY|YY|MM|DD|HH|hh|mm|ss))*(?![\w])")

_GOODS_KEYS = frozenset({"item", "product", "good", "goods", "articl", "sku", "merchandis"})
#: 买个水壶, 订购两台显示器: what is bought follows the verb and its count (the object of 买), to the clause's end.
_ZH_BOUGHT = re.compile(r"(?:购买|订购|买)(?:\s*(?:\d+|[一二两三四五六七八九十几]+)?\s*(?:个|件|台|杯|瓶|份|张|本|只|盒|包|袋|双|套|支|把|箱|罐))?"
                        r"\s*([\u4e00-\u9fffA-Za-z][\u4e00-\u9fffA-Za-z0-9 -]{0,15}?)\s*(?=[，,。；;！!？?、]|和|跟|吧|$)")
_TASK_KEYS = frozenset({"titl", "task", "text", "note", "remind", "reminder", "todo", "item", "descript", "action",
                        "content", "messag"})
#: "Remind me to call Ada", "add a task to renew the passport": what to do is the words after "to".
_TODO_RX = re.compile(r"\b(?:remind(?:s|er)?\s+(?:me|us|them|him|her)\s+to|reminder\s+to|remember\s+to|"
                      r"(?:task|to-?do|note)\s+to)\s+([^:;.!?]{2,80})|"
                      # "a task: fix the login bug", "任务：写周报": what follows the colon, to the clause's end
                      r"(?:\b(?:task|to-?do|note|reminder|title|item)|任务|待办|事项|提醒|标题|笔记)\s*[:：]\s*"
                      r"([^:;.!?,，。；！？]{2,80})|"
                      # 提醒我明天买牛奶, 记得交房租: what to do follows 提醒我/记得
                      r"(?:提醒(?:我|我们|他|她|一下)?|记得|别忘了)\s*([^:;.!?,，。；！？：]{2,40})", re.I)

#: "for Ada", "assign it to Bob": the person a task or message is for (a capitalised name).
_FOR_PERSON = re.compile(r"\b(?:for|assign(?:ed)?(?:\s+(?:it|this|them))?\s+to)\s+([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)\b"
                         r"(?!\s*(?:'s|’s))")


def _zh_labelled(text: str, keys: frozenset[str]) -> list[tuple[str, str, str]]:
    """``(label, value, words)`` for "负责人小王", "负责人：小王", "标题是周报", '标题为 "周报"': a Chinese label naming the
    slot, then its value (the quoted words whole where they are quoted)."""
    out = []
    for label, concepts in lang.ZH_LEXICON.items():
        if len(label) < 2 or label not in text or not {lang.stem(c) for c in concepts.split()} & keys:
            continue
        # an id in Latin letters and digits ends where the Chinese starts (用户u-77的资料: u-77, not u-77的资料)
        for m in re.finditer(re.escape(label) + r"\s*(?:是|为|叫|：|:)?\s*(?:[\"'“‘「『]([^\"'”’」』]{1,60})[\"'”’」』]|"
                             r"([A-Za-z0-9_@.-]*[A-Za-z0-9])(?![\w@.-]*[A-Za-z0-9])"
                             r"|(?![\"'“‘「『])([\u4e00-\u9fffA-Za-z0-9_@.-]{1,12}?)(?=[，,。；;！!？?\s]|$))", text):
            value = m.group(1) or m.group(2) or m.group(3)
            if m.group(3) and value in ("是", "为", "叫") and re.match(r"\s*[\"'“‘「『]", text[m.end():]):
                continue  # 标题为 "周报": the connector is no title, the quoted words after it are (read above)
            if re.search(r"[^\W_]", value):  # "我想订餐厅. 海底捞...": a label ending its clause labels no '.'
                out.append((label, value, m.group(0)))
    return out


#: Set to a list to collect every (score, slot, value, rule, words) candidate of each fill.
TRACE: list | None = None


@dataclass
class _FillState:
    """What one fill works on: the slots and mentions, the candidates found, the values taken so far.

    The stages of :func:`_fill` (candidates, values read without consuming mentions, greedy choice,
    output, spreads) each read and extend it.
    """

    slots: list[Slot]
    reading: Reading
    depth: int
    tool_words: frozenset[str]
    root: dict | None
    vocab: frozenset[str]
    cands: list = field(default_factory=list)  # (score, slot, value, mention indexes, evidence)
    filled: dict = field(default_factory=dict)  # name -> (value, evidence, score, mention indexes)
    taken: set = field(default_factory=set)  # mention indexes already used
    many: dict = field(default_factory=dict)  # name -> several values (parallel calls)
    array_alts: list = field(default_factory=list)
    derived: dict = field(default_factory=dict)  # (name, mention index) -> a value read from a mention another slot takes
    alias: dict = field(default_factory=dict)  # member key -> the phrase it sits in
    phrases: list = field(default_factory=list)
    all_mentions: list = field(default_factory=list)

    @cached_property
    def mentions(self) -> list[Mention]:
        return self.reading.mentions

    @cached_property
    def numbers(self) -> list[tuple[int, Mention]]:
        return [(i, m) for i, m in enumerate(self.mentions) if m.kind == "number"]

    @cached_property
    def num_slots(self) -> list[Slot]:
        return [s for s in self.slots if s.kind in ("integer", "number")]

    @cached_property
    def unit_slots(self) -> list[Slot]:
        return [s for s in self.slots if s.kind == "enum" and unit_enums.is_unit_enum(s.options)]


def _fill(parameters: dict, reading: Reading, depth: int, tool_words: frozenset[str], root: dict | None = None
          ) -> Filled:
    """Fill one schema from one reading: candidates for every slot, then the best taken greedily.

    The stages: :func:`_scalar_candidates` (numbers, strings, venues...), :func:`_phrase_slot_candidates`
    (noun phrases, kinds of things, musical keys, labelled values...), :func:`_read_without_consuming`
    (enums, options, booleans, arrays, objects), :func:`_take_best` (greedy, each mention once, then the
    best reading of a required value), :func:`_write_out` (values in the form described, defaults,
    missing), :func:`_spread_out` (values for parallel calls).
    """
    slots = slots_of(parameters, root)
    out = Filled()
    if not slots:
        return out
    st = _FillState(slots, reading, depth, tool_words, root, tool_words | frozenset(k for s in slots for k in s.keys))
    _scalar_candidates(st)
    _phrase_slot_candidates(st)
    _purpose_candidates(st)
    _message_candidates(st)
    _topic_candidates(st)
    _credited_candidates(st)
    _activity_candidates(st)
    _glob_candidates(st)
    _no_counts_for_paths(st)
    if TRACE is not None:  # developers: every candidate, to see why one won (benchmarks, tests)
        TRACE.append(sorted(((round(c[0], 2), c[1].name, c[2], c[4].rule, c[4].words) for c in st.cands),
                            key=lambda c: (c[1], -c[0])))
    _read_without_consuming(st)
    _take_best(st)
    _listed_values(st)
    _numbered_in_order(slots, st.filled, st.all_mentions)
    _said_in_pairs(slots, st.filled, st.mentions, reading.text)
    _prefer_codes(slots, st.filled, st.mentions, reading.text)
    _write_out(st, out)
    if depth == 0:
        _spread_out(st, out)
    _moments_only(slots, out, reading)
    _date_times(slots, st.mentions, out, reading.text)
    _shapes_kept(slots, out)
    _slashed_whole(slots, out, reading.text)
    _read_once(slots, out)
    return out


def _slashed_whole(slots: list[Slot], out: Filled, text: str) -> None:
    """A name written with a slash is one value: a word value that the request writes joined by '/' to more
    ("a branch called feature/login", "the team infra/db", "label bug/ui") becomes the whole name, not its first
    part ('feature', or 'dark-mode' of ui/dark-mode). Units ("km/h"), numbers and dates are no such names (unit, currency, date and time slots
    and values with digits alone are left as they are)."""
    for slot in slots:
        value = out.arguments.get(slot.name)
        if slot.kind != "string" or slot.options or slot.role in ("unit", "currency", "date", "time") or \
                not isinstance(value, str) or not re.fullmatch(r"[A-Za-z][\w.-]*", value):
            continue
        whole = [w for w in re.findall(r"(?<![\w/])(?:[A-Za-z][\w.-]*/)*" + re.escape(value) +
                                       r"(?:/[A-Za-z][\w.-]*)*(?![\w/])", text) if "/" in w]
        if len(set(whole)) == 1:
            out.arguments[slot.name] = whole[0]


_EDGE_JOIN = re.compile(r"(?:\s|,|，|\b(?:at|on|by|before|around|from|this|next|in the|the)\b|(?:在|的|于))+$", re.I)
_ZH_DAY_PART = re.compile(r"^(?:凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里)")
_ZH_DAY_PART_END = re.compile(r"(?:凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里)$")


def _moment_kinds(slot: Slot) -> set[str]:
    """The kinds of mention a slot writes a moment from: a clock slot times, a date slot dates, a date-time or
    moment slot (``when``) both; none for any other."""
    if _is_date_time(slot) or slot.role not in ("time", "date") and is_moment_slot(slot):
        return {"date", "time"}
    return {slot.role} if slot.role in ("time", "date") else set()


def _without_moments(what: str, moments: list[Mention]) -> str:
    """A reminder's task without the time and date said at its ends, when another argument takes them: "water pot 3
    at 7pm" -> "water pot 3", "明天早上8点给妈妈打电话" -> "给妈妈打电话" (the words between them stay)."""
    texts = sorted({m.text.strip() for m in moments if m.text.strip()}, key=len, reverse=True)
    changed = True
    while changed and what:
        changed = False
        for t in texts:
            if what.endswith(t):  # "... at 7pm", "...晚上7点": the time and the part of the day before it
                what, changed = _EDGE_JOIN.sub("", _ZH_DAY_PART_END.sub("", what[:-len(t)].rstrip())), True
            elif what.startswith(t):  # "明天早上8点给...": the date, then the part of the day the time follows
                what, changed = _ZH_DAY_PART.sub("", what[len(t):].lstrip(" ,，")), True
    return what.strip(" ,，")


_MOMENTS = load_json("clock_words.json")
_MOMENT_WORDS = frozenset(_MOMENTS["moment_words"])
_ZH_MOMENT_RX = re.compile("|".join(sorted(map(re.escape, _MOMENTS["zh_moment_words"]), key=len, reverse=True)))


def is_moment_slot(slot: Slot) -> bool:
    """Whether ``slot`` holds a moment (a string named ``when``, ``time``, ``due_date``, ``remind_at``...; data/
    clock_words.json ``moment_names``) and not a length, a zone or a format of one (``duration_words``)."""
    if slot.kind != "string" or slot.options:
        return False
    words = {w.lower() for w in lang.split_identifier(slot.name)}
    desc = str(slot.spec.get("description", ""))
    said = words | set(re.findall(r"[a-z]+", desc.lower())) | {w for w in _MOMENTS["duration_words"] if w in desc}
    return bool(words & set(_MOMENTS["moment_names"]) or any(w in slot.name for w in _MOMENTS["moment_names"]
                                                            if not w.isascii())) and not said & set(
        _MOMENTS["duration_words"])


def says_a_moment(value: str) -> bool:
    """Whether ``value`` is nothing but a time or date expression: what is left once its dates, times and numbers
    (:func:`.reading.read`), moment words ("tomorrow", "evening", 明天, 早上) and joining words are taken out is
    no word. "tomorrow at 6pm", "every Monday", "2026-12-05", 明天早上8点 are; "call mom", 明天给妈妈打电话 are not."""
    if re.fullmatch(r"[\d\s:T+.,/-]*Z?", value):
        return True  # "2026-12-05T19:00:00+00:00", "19:00", "12/05": written in digits
    rest = list(value)
    for m in read(value).mentions:
        if m.kind in ("date", "time", "number", "code"):
            rest[m.start:m.end] = " " * (m.end - m.start)
    left = _ZH_MOMENT_RX.sub(" ", "".join(rest))
    words = re.findall(r"[A-Za-z][A-Za-z.'’]*|[\u4e00-\u9fff]", left)
    return not [w for w in words if w.lower().rstrip(".") not in _MOMENT_WORDS and w.lower() not in _MOMENT_WORDS]


def _moments_only(slots: list[Slot], out: Filled, reading: Reading) -> None:
    """A moment slot (:func:`is_moment_slot`) keeps only a time or date expression (:func:`says_a_moment`):
    "Remind me to call mom at 6pm" gave ``when='call mom'``. Its value is then the time and date the request says
    (one of each at most: '6pm', '2026-12-05', '2026-12-05 08:00'), else nothing (a required one is asked for)."""
    for slot in slots:
        value = out.arguments.get(slot.name)
        if not isinstance(value, str) or not is_moment_slot(slot) or says_a_moment(value):
            continue
        del out.arguments[slot.name]
        out.evidence.pop(slot.name, None)
        said = None if _is_date_time(slot) else _said_moment(reading)  # a date-time one: _date_times writes it
        if said:
            words = " ".join(m.text for m in reading.mentions if m.kind in ("date", "time"))
            out.arguments[slot.name], out.evidence[slot.name] = said, Evidence("the time said", words)
        elif slot.required and slot.name not in out.missing:
            out.missing.append(slot.name)


def _said_moment(reading: Reading) -> str | None:
    """The one time and/or one date of ``reading``, written as a moment slot takes them: the time as typed in an
    English request ('6pm'), HH:MM in a Chinese one, after the date (YYYY-MM-DD) when one is said; None when there
    is none, or more than one of a kind."""
    times, dates = reading.of_kind("time"), [d for d in reading.of_kind("date") if d.value[0]]
    if len(times) > 1 or len(dates) > 1 or not (times or dates):
        return None
    day = "{:04d}-{:02d}-{:02d}".format(*dates[0].value) if dates else ""
    clock = ""
    if times:
        t = times[0]
        clock = t.text.strip() if t.text.isascii() and not dates else "{:02d}:{:02d}".format(*t.value)
    return " ".join(x for x in (day, clock) if x)


_PURPOSE_SLOTS = frozenset({"purpose", "reason", "occasion"})
#: "a reminder for meeting", "a countdown for my tea": what a timer or reminder is for, after 'for'.
_FOR_WHAT = re.compile(r"\b(?:reminder|alarm|timer|countdown|alert)\s+for\s+(?:the\s+|my\s+|a\s+|an\s+)?"
                       r"((?:(?!(?:in|at|on|from|to|of|every|tomorrow|today|tonight|\d)\b)[A-Za-z][\w'-]*\s?){1,3}?)"
                       r"(?=\s+(?:in|at|on|from|every|tomorrow|today|tonight)\b|\s*[,.;!?]|\s*$)", re.I)


def _purpose_candidates(st: "_FillState") -> None:
    """A slot for what a reminder or timer is for (``purpose``, ``reason``) takes the words after 'for': "Set a
    reminder for meeting in a minute" -> ``purpose='meeting'``."""
    slots = [s for s in st.slots if s.kind == "string" and not s.options
             and set(lang.split_identifier(s.name)) & _PURPOSE_SLOTS]
    m = _FOR_WHAT.search(st.reading.text) if slots else None
    if m is None or not m.group(1).strip() or _CLOCK_WORDS.search(m.group(1)):
        return
    for s in slots:
        st.cands.append((4.0, s, m.group(1).strip(), (), Evidence("what it is for", m.group(0))))


_MESSAGE_LEADS = load_json("message_leads.json")
_MESSAGE_LEAD = re.compile("|".join(f"(?:{rx})" for rx in _MESSAGE_LEADS["en"] + _MESSAGE_LEADS["zh"]), re.I)
_QUOTED_FIRST = re.compile(r"[\"'“‘「『]([^\"”’」』]+?)[\"'”’」』](?![\w])")
_MESSAGE_END = re.compile(r"[.!?](?=\s+[A-Z]|\s*$)|[。！？；;]")
_MESSAGE_TAIL = re.compile(r"(?:[\s,，]+(?:please|thanks|thank you|asap|请|谢谢)\b)?[\s.!?。！？,，]*$", re.I)


def said_message(text: str) -> tuple[str, int, int] | None:
    """What a message says, as the request gives it: the words after 'saying (that)', 'telling her (that)', 'with
    the message', 说, 告诉他, 内容是... to the end of that sentence (``course_lib/data/message_leads.json``).

    Returns ``(message, start, end)`` (character offsets of the message in ``text``), or None when no lead words
    introduce one or nothing follows them.

    Example:
        >>> said_message("email bob@x.com saying that the meeting moved to 3pm")[0]
        'the meeting moved to 3pm'
    """
    lead = _MESSAGE_LEAD.search(text)
    if lead is None:
        return None
    start = lead.end()
    if q := _QUOTED_FIRST.match(text, start):  # "a to-do item that says 'go shopping' from my list": the quote
        return q.group(1), q.start(1), q.end(1)
    stop = _MESSAGE_END.search(text, start)
    end = stop.start() if stop else len(text)
    body = _MESSAGE_TAIL.sub("", text[start:end]).strip()
    return (body, start, start + len(body)) if len(body) >= 2 else None


_MESSAGE_SLOT_WORDS = frozenset(_MESSAGE_LEADS["slot_words"])


def _message_slot(s: Slot) -> bool:
    """Whether a slot holds a message's text: read as free text, or named body, message, content, note..."""
    return s.kind == "string" and not s.options and (
        s.role == "text" or bool(set(lang.split_identifier(s.name.lower())) & _MESSAGE_SLOT_WORDS))


def _address_candidates(st: "_FillState") -> None:
    """A recipient slot (``to``, ``recipient``, "Recipient address") takes the email address the request gives:
    "email bob@x.com saying ..." -> ``to='bob@x.com'``, where the words after 'saying' had taken ``to``."""
    slots = [s for s in st.slots if s.kind == "string" and not s.options and not _message_slot(s)
             and _names_an_address(s) and not {"from", "sender"} & set(lang.split_identifier(s.name.lower()))]
    for i, m in enumerate(st.mentions) if slots else ():
        if m.kind == "code" and _EMAIL.fullmatch(m.text):
            for s in slots:
                st.cands.append((6.0, s, m.text, (i,), Evidence("the address", m.text)))


def _message_candidates(st: "_FillState") -> None:
    """A message slot (role ``text``: body, message, content, note...) takes the whole message the request gives
    after 'saying', 'telling her', 说... (:func:`said_message`), and every mention inside it is used up: "email
    bob@x.com saying that the meeting moved to 3pm" -> ``body='the meeting moved to 3pm'``, and neither 3pm nor
    'meeting moved' goes to another slot. Where the message is quoted, the quoted words are it."""
    _address_candidates(st)
    slots = [s for s in st.slots if _message_slot(s)]
    said = said_message(st.reading.text) if slots else None
    if said is None:
        return
    body, a, b = said
    lead = _MESSAGE_LEAD.search(st.reading.text)
    within = tuple(i for i, m in enumerate(st.all_mentions) if a <= m.start < b or (
        m.kind == "phrase" and m.start < a and m.end > lead.start()))  # "#general saying": 'saying' is no name
    for s in slots:
        st.cands.append((6.0, s, body, within, Evidence("the message said", st.reading.text[a:b])))


_TOPICS = load_json("topic_phrases.json")
_TOPIC_SLOT_WORDS = frozenset(_TOPICS["slot_words"])
_TOPIC_RX = re.compile(r"\b(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in _TOPICS["en_leads"]) +
                       r")\s+(?:the\s+|a\s+|an\s+|our\s+|my\s+|their\s+|his\s+|her\s+)?"
                       r"((?:(?!(?:" + "|".join(map(re.escape, _TOPICS["en_ends"])) + r")\b)[\w'&/-]+\s?){1,8})", re.I)
_ZH_TOPIC_RX = [re.compile(rx) for rx in _TOPICS["zh"]]


def _topic_slot(s: Slot) -> bool:
    """Whether a string slot holds what something is about: named or described topic, subject, theme, agenda."""
    if s.kind != "string" or s.options or s.role in ("query", "email") and "subject" not in s.name.lower():
        return False
    desc = set(re.findall(r"[a-z]+", str(s.spec.get("description", "")).lower()))
    return bool((set(lang.split_identifier(s.name.lower())) | desc) & _TOPIC_SLOT_WORDS)


def said_topic(text: str) -> tuple[str, int, int] | None:
    """The whole noun phrase a request says something is about: "a meeting about the Q3 planning" -> 'Q3 planning',
    "about the new hiring plan tomorrow at 10am" -> 'new hiring plan', 关于季度预算的会议 -> '季度预算'
    (``course_lib/data/topic_phrases.json``). Returns ``(topic, start, end)`` in ``text``, or None.

    Example:
        >>> said_topic("schedule a meeting about the Q3 planning")[0]
        'Q3 planning'
    """
    m = _TOPIC_RX.search(text)
    if m is not None and (q := _QUOTED_FIRST.match(text, m.start(1))):  # "the topic of 'trading' within ...": the quote
        return q.group(1), q.start(1), q.end(1)
    if m is not None:
        topic = m.group(1).strip(" '-/")
        if topic and not re.fullmatch(r"(?:it|this|that|them|me|us|him|her|\d+)", topic, re.I):
            return topic, m.start(1), m.start(1) + len(topic)
    for rx in _ZH_TOPIC_RX:
        if (z := rx.search(text)) and z.group(1).strip():
            return z.group(1).strip(), z.start(1), z.end(1)
    return None


def _topic_candidates(st: "_FillState") -> None:
    """A topic slot (:func:`_topic_slot`) takes the whole noun phrase after 'about', 'regarding', 'to discuss', 关于...的
    (:func:`said_topic`), and the mentions inside it are used up: ``topic='Q3 planning'``, where the name 'Q3'
    alone had been taken."""
    slots = [s for s in st.slots if _topic_slot(s) and not _message_slot(s)]
    addresses = [m.text.lower() for m in st.mentions if m.kind == "code" and _EMAIL.fullmatch(m.text)]
    if addresses:  # "email bob@x.com": no subject 'bob@x.com', 'x' or 'bob' made up from the address
        st.cands[:] = [c for c in st.cands if not (c[1] in slots and isinstance(c[2], str) and c[2].strip() and any(
            c[2].strip().lower() in re.split(r"[@.]", a) + [a] for a in addresses))]
    said = said_topic(st.reading.text) if slots else None
    if said is None:
        return
    topic, a, b = said
    within = tuple(i for i, m in enumerate(st.all_mentions) if a <= m.start and m.end <= b)
    for s in slots:
        st.cands.append((5.0, s, topic, within, Evidence("what it is about", st.reading.text[a:b])))


_FILE_KINDS = load_json("file_kinds.json")["extensions"]
_KIND_FILES = re.compile(r"\b(" + "|".join(re.escape(k) for k in sorted(_FILE_KINDS, key=len, reverse=True)) +
                         r")\s*(?:(?:source\s+|script\s+)?files\b|(?:源)?文件|脚本)", re.I)
#: "every .py file", "*.log", "**/*.md": a pattern said as one.
_SAID_GLOB = re.compile(r"(?<![\w*])\.([A-Za-z0-9]{1,5})\s*(?:files?\b|文件)|(?<!\S)((?:\*\*/)?[\w-]*\*[\w.*?-]*)(?=[\s,;!?)]|$)")


def _glob_candidates(st: "_FillState") -> None:
    """A glob pattern slot (``pattern``, described as a glob) takes ``*.ext`` for the kind of file the request names
    ("Find all Python files under ~/src", 找出所有 Python 文件 -> ``'*.py'``; ``course_lib/data/file_kinds.json``), or
    the pattern the request says ("every .py file" -> ``'*.py'``, "files named *.log" -> ``'*.log'``)."""
    slots = [s for s in st.slots if s.kind == "string" and not s.options and (
        "pattern" in lang.split_identifier(s.name) or "glob" in str(s.spec.get("description", "")).lower())]
    said = _SAID_GLOB.search(st.reading.text) if slots else None
    if said is not None:
        within = tuple(i for i, m in enumerate(st.mentions) if said.start() <= m.start < said.end())
        for s in slots:
            st.cands.append((5.5, s, said.group(2) or f"*.{said.group(1).lower()}", within,
                             Evidence("the pattern said", said.group(0))))
        return
    m = _KIND_FILES.search(st.reading.text) if slots else None
    if m is not None:
        within = tuple(i for i, x in enumerate(st.mentions) if m.start() <= x.start < m.end())
        for s in slots:
            st.cands.append((5.0, s, f"*.{_FILE_KINDS[m.group(1).lower()]}", within,
                             Evidence("the kind of file", m.group(0))))


_ACTIVITIES = load_json("activities.json")


def _phrase_rx(words) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))


#: "went running", "did some yoga", "went for a swim", "30 minutes of cycling", "running for 30 minutes", "I ran".
_ACTIVITY_RX = re.compile(
    r"\b(?:" + _phrase_rx(_ACTIVITIES["lead_verbs"]) + r")\s+(?:(?:" + _phrase_rx(_ACTIVITIES["fillers"])
    + r")\s+)?(?P<led>[a-z]{3,}(?:ing)?)\b|\b(?:minutes?|mins?|hours?|hrs?|km|miles?|kilometers?|laps?)\s+of\s+"
    r"(?:(?:" + _phrase_rx(_ACTIVITIES["fillers"]) + r")\s+)?(?P<of>[a-z]{3,})\b|\b(?P<ing>[a-z]{3,}ing)\s+for\s+"
    r"(?=\S*\d|an?\b|half|one|two|three|four|five|ten|twenty|thirty|forty|fifty|sixty|ninety)|\b(?P<past>"
    + _phrase_rx(_ACTIVITIES["past_verbs"]) + r")\b", re.I)
_ZH_ACTIVITY_RX = re.compile(_phrase_rx(_ACTIVITIES["zh_activities"]))
_NOT_ACTIVITIES = frozenset({"that", "this", "there", "home", "out", "back", "well", "good", "great", "nothing",
                             "something", "anything", "today", "yesterday", "lunch", "dinner", "breakfast", "it"})


def _activity_candidates(st: "_FillState") -> None:
    """An activity slot (``activity``, ``exercise``, ``sport``...; data/activities.json) takes the activity said,
    never the verb that carries it: "I went running for 30 minutes" -> ``'running'`` (was ``'went'``), "did some
    yoga" -> ``'yoga'``, "45 minutes of cycling", "I swam for an hour" -> ``'swimming'``, 我跑步跑了30分钟 -> 跑步."""
    slots = [s for s in st.slots if s.kind == "string" and not s.options and (
        set(lang.split_identifier(s.name)) & set(_ACTIVITIES["slot_words"])
        or any(w in s.name for w in _ACTIVITIES["slot_words"] if not w.isascii()))]
    if not slots:
        return
    text = st.reading.text
    found = _ZH_ACTIVITY_RX.search(text) if lang.is_chinese(text) else None
    value, words = (found.group(0), found.group(0)) if found else (None, "")
    for m in ([] if found else _ACTIVITY_RX.finditer(text)):
        said = next(g for g in ("led", "of", "ing", "past") if m.group(g))
        word = m.group(said).lower()
        if word in _NOT_ACTIVITIES or lang.stem(word) in st.vocab and said != "past":
            continue
        value, words = _ACTIVITIES["past_verbs"].get(word, word) if said == "past" else word, m.group(0)
        break
    if value:
        for s in slots:
            st.cands.append((4.5, s, value, (), Evidence("the activity", words)))


_CREDITS = load_json("credit_roles.json")
#: A person's or band's name: one to four capitalised words or initials ("C.J. Rush", "J. Patrick McNamara",
#: "Thurop Van Orman", "Christina-Ann Zalamea"), 'van'/'de'... between them; a full stop ends it ("Jim Carrey. Which").
_NAME_TOKEN = r"(?:(?:[A-Z]\.){1,3}|[A-Z][\w'\u2019-]*[^\W_])"
_CREDIT_NAME = (rf"(?P<q>['\"\u2018\u201c]?)(?P<name>{_NAME_TOKEN}(?:[ \t]+(?:(?:van|von|de|da|del|der|di|du|le|la)[ \t]+)?"
                rf"(?:{_NAME_TOKEN}|[A-Z](?![\w.]))){{0,3}})(?P=q)")


def _cue_rx(cues: list[str]) -> str:
    return "|".join(re.escape(c).replace(r"\ ", r"\s+") for c in sorted(cues, key=len, reverse=True))


@lru_cache(maxsize=None)
def _credit_patterns(role: str) -> tuple[re.Pattern, re.Pattern | None, re.Pattern]:
    """The role's cue-before-name, name-before-cue and bare-cue ('by') patterns. A bare 'by' after another role's
    verb ("acted by", "directed by") is that role's, not this one's."""
    spec = _CREDITS["roles"][role]
    lead = r"(?i:\s+(?:(?-i:the)\s+)?(?:actor|actress|artist|band|singer)?\s*)"  # "by The Rolling Stones": a name
    rx_before = re.compile(rf"(?i:\b(?:{_cue_rx(spec['before'])})){lead}{_CREDIT_NAME}(?![\w'-])")
    after = spec.get("after") or []
    rx_after = re.compile(rf"(?<![\w'-]){_CREDIT_NAME}(?i:\s*(?:{_cue_rx(after)})\b)") if after else None
    theirs = sorted({c.split()[0] for r, sp in _CREDITS["roles"].items() if r != role for c in sp["before"]
                     if len(c.split()) == 2 and c.split()[1] in _CREDITS["bare"]} - {c.split()[0] for c in spec["before"]})
    not_theirs = "(?i:" + "".join(rf"(?<!\b{re.escape(w)}\s)" for w in theirs) + ")"
    rx_bare = re.compile(rf"{not_theirs}(?i:\b(?:{_cue_rx(_CREDITS['bare'])})){lead}{_CREDIT_NAME}(?![\w'-])")
    return rx_before, rx_after, rx_bare


def _credit_role(slot: Slot) -> str:
    """The role a string slot credits (``cast``, ``artist``, ``director``, ``author``: its name's words, else its
    description's), or ''."""
    if slot.kind != "string" or slot.options:
        return ""
    words = {lang.stem(w) for w in lang.split_identifier(slot.name)}
    for keys in (words, slot.desc_keys):
        for role, spec in _CREDITS["roles"].items():
            if keys & {lang.stem(w) for w in spec["slot_words"]}:
                return role
    return ""


def _credited_name(m: re.Match, reading: Reading, after: bool) -> tuple[str, tuple[int, ...]]:
    """The name a cue matched and the mentions it covers, or ``('', ())`` when it is a day, a date or a time ("by
    Friday", "by March 3") or one word that is no name. Before a cue (``after``), leading words that are no name
    go: "Can Zach Woods acts in" -> 'Zach Woods'."""
    words = m.group("name").split()
    while after and words and words[0].lower().strip(".") in _NOT_NAMES and not (words[0] == "The" and len(words) > 1):
        words.pop(0)
    if not words or len(words) == 1 and words[0].lower().strip(".") in _NOT_NAMES:
        return "", ()
    end = m.end("name")
    start = end - len(" ".join(words)) if after else m.start("name")
    over = [i for i, x in enumerate(reading.mentions) if x.start < end and start < x.end]
    if any(reading.mentions[i].kind in ("date", "time", "number") for i in over):
        return "", ()
    return " ".join(words), tuple(over)


def _credited_candidates(st: "_FillState") -> None:
    """A slot that credits someone with a work (an actor ``cast``/``starring``, an ``artist``, ``directed_by``, an
    ``author``) takes the capitalised name said beside that role's cues (``course_lib/data/credit_roles.json``):
    "Find horror movies featuring Tom Hanks" -> ``starring='Tom Hanks'``, "songs by Ariana Grande" ->
    ``artist='Ariana Grande'``, "movies Zach Woods acted in" -> ``cast='Zach Woods'``, "something by Riley
    Stearns" -> ``directed_by`` when the tool's one creator slot is the director's. The name's mentions are
    the slot's, so a title slot does not take it too; a word of the tool's options or slot names is no name
    ("with Family Genre")."""
    roles = [(s, r) for s in st.slots if (r := _credit_role(s))]
    if not roles:
        return
    other = {str(o).lower() for s in st.slots for o in s.options} | {k for s in st.slots for k in s.keys}
    creators = [s for s, r in roles if _CREDITS["roles"][r]["creator"]]
    for s, role in roles:
        rx_before, rx_after, rx_bare = _credit_patterns(role)
        found = [(m, False) for m in rx_before.finditer(st.reading.text)]
        found += [(m, True) for m in rx_after.finditer(st.reading.text)] if rx_after is not None else []
        if len(creators) == 1 and creators[0] is s:
            found += [(m, False) for m in rx_bare.finditer(st.reading.text)]
        for m, after in found:
            name, over = _credited_name(m, st.reading, after)
            if name and not any(w.lower() in other or lang.stem(w) in other for w in name.split()):
                st.cands.append((4.5, s, name, over, Evidence(f"the {role} named", m.group(0))))


_CLOCK_WORDS = re.compile(r"\b(?:second|minute|hour|day|week|month|year|am|pm|noon|midnight)s?\b", re.I)
_CLOCK_FORMAT = re.compile(r"(?<![\w])(HH:MM:SS|MM:SS|HH:MM)(?![\w])", re.I)


def _in_clock_format(slot: Slot, value: str, mentions: list[Mention]) -> str:
    """A duration for a string slot described as ``'MM:SS'``, ``'HH:MM:SS'`` or ``'HH:MM'`` in that form: "in a
    minute" -> ``'01:00'``, "an hour and a half" -> ``'01:30:00'``; else ``value`` as it is."""
    fmt = _CLOCK_FORMAT.search(str(slot.spec.get("description", "")))
    m = next((m for m in mentions if m.kind == "number" and m.dim == "time" and m.unit in _SECONDS), None)
    if fmt is None or m is None or m.unit in ("day", "week", "month", "year"):
        return value
    seconds = int(round(m.value * _SECONDS[m.unit]))
    h, rest = divmod(seconds, 3600)
    form = fmt.group(1).upper()
    if form == "MM:SS":
        return f"{seconds // 60:02d}:{seconds % 60:02d}"
    if form == "HH:MM":
        return f"{h:02d}:{rest // 60:02d}"
    return f"{h:02d}:{rest // 60:02d}:{rest % 60:02d}"


def _no_counts_for_paths(st: "_FillState") -> None:
    """A path slot (``repo_path``, ``directory``) takes no bare number: "显示 /repo 最近5次提交" gives ``/repo`` to
    ``repo_path`` and 5 to ``max_count``, where the number said right after 'repo' had taken the path."""
    def pathlike(slot: Slot) -> bool:
        return slot.kind == "string" and bool(set(lang.split_identifier(slot.name)) & PATH_WORDS)
    st.cands = [c for c in st.cands if not (pathlike(c[1]) and isinstance(c[2], (str, int, float))
                                            and re.fullmatch(r"\d+(?:\.\d+)?", str(c[2]).strip()))]


def _read_once(slots: list[Slot], out: Filled) -> None:
    """Drop a value taken from the free words around another slot's value that is that value again, or a piece
    of it: "Create a new branch called hotfix" gives ``branch_name='hotfix'`` (called) and nothing to
    ``from_branch`` (the words 'called [hotfix] in' again); "a branch called feature/login" gives no base branch
    'feature'. A required slot left so becomes missing (the mock asks)."""
    for slot in slots:
        value, ev = out.arguments.get(slot.name), out.evidence.get(slot.name)
        if not isinstance(value, str) or ev is None or ev.rule != "words" or not value.strip():
            continue
        for other in slots:
            theirs, their_ev = out.arguments.get(other.name), out.evidence.get(other.name)
            if other is slot or not isinstance(theirs, str) or their_ev is None or their_ev.rule == "words":
                continue
            if value == theirs or value in re.split(r"[/\\:]", theirs):
                del out.arguments[slot.name], out.evidence[slot.name]
                if slot.required and slot.name not in out.missing:
                    out.missing.append(slot.name)
                break


#: String formats whose shape a value must have, checked with jsonschema's format checker.
_SHAPED_FORMATS = frozenset({"email", "idn-email", "uuid", "ipv4", "ipv6"})
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
#: RFC 3339's date-time (section 5.6), which JSON Schema's ``format: date-time`` means: a day without a clock time
#: ("tomorrow" -> "2026-12-04") is none, so a required one is asked for.
_RFC3339 = re.compile(r"\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(?:\.\d+)?(?:[Zz]|[+-]\d\d:\d\d)")


_ADDRESS_NAME_WORDS = frozenset({"email", "mail", "e", "to", "from", "cc", "bcc", "recipient", "recipients", "sender",
                                 "address", "addr", "contact", "user", "customer", "reply"})


def _names_an_address(slot: Slot) -> bool:
    """An email slot that holds an address ("to": "Recipient email address", ``user_email``), not a message
    (``email_body``, ``email_subject``)."""
    words = set(lang.split_identifier(slot.name.lower()))
    return words <= _ADDRESS_NAME_WORDS or "address" in str(slot.spec.get("description", "")).lower()


def _shapes_kept(slots: list[Slot], out: Filled) -> None:
    """Drop a value that has not the shape its slot asks for: an email address slot (``format: email``, or
    named or described as one) never takes "3pm", a ``uuid`` slot never takes a word, a ``date-time`` slot never
    a day without its clock time. A required one becomes
    missing, so the mock asks instead of sending a call its own schema rejects (newcomer run: after a
    clarifying answer, ``send_email(to='3pm')``)."""
    from jsonschema import FormatChecker

    checker = FormatChecker(_SHAPED_FORMATS)
    for slot in slots:
        value = out.arguments.get(slot.name)
        if not isinstance(value, str):
            continue
        fmt = slot.spec.get("format")
        bad = (fmt in _SHAPED_FORMATS and not checker.conforms(value, fmt)) or (
            fmt == "date-time" and not _RFC3339.fullmatch(value)) or (
            slot.role == "email" and fmt is None and _names_an_address(slot) and not _EMAIL.fullmatch(value.strip())) or (
            slot.role == "id" and not slot.options and _a_count_word(value))
        if bad:
            del out.arguments[slot.name]
            out.evidence.pop(slot.name, None)
            out.spread.pop(slot.name, None)
            if slot.required and slot.name not in out.missing:
                out.missing.append(slot.name)


#: 一个, 两条, 几张: a count written as a numeral word and its classifier (data/counted_things.json numeral_words).
_ZH_CLASSIFIED = re.compile(r"^[一二两三四五六七八九十几某]+\s*(?:个|条|张|件|项|份|次|本|位|只|台|场|封|笔|单|篇|则|些)?$")


def _a_count_word(value: str) -> bool:
    """Whether ``value`` is only a count said in words ("one", "a", 一, 一个, 两条): an indefinite article or a
    numeral, never an identifier ("删掉一个日程" named no event id '一'; 'Cancel one order' none 'one')."""
    v = value.strip().lower()
    return v in _THINGS["numeral_words"] or bool(_ZH_CLASSIFIED.match(v))


def _scalar_candidates(st: _FillState) -> None:
    """Candidates read from the mentions for number and string slots (added to ``st.cands``)."""
    number_ctx = _NumberContext.of(st) if any(s.kind in ("integer", "number") for s in st.slots) else None
    for s in st.slots:
        if number_ctx is not None and s.kind in ("integer", "number"):
            _number_slot_candidates(st, s, number_ctx)
        elif s.kind == "string":
            _string_slot_candidates(st, s)


@dataclass(frozen=True)
class _NumberContext:
    """What every number slot of one request is scored against, read once per request."""

    ranks: dict[int, int]  # mention index -> its place among the numbers that are no count
    slot_names: frozenset[str]
    numeric_names: frozenset[str]
    #: the units the tool converts between: "42 km" is the value to convert, whatever its name suggests
    enum_units: frozenset[str]

    @classmethod
    def of(cls, st: _FillState) -> "_NumberContext":
        values = [i for i, m in st.numbers if not _is_count(m)]
        return cls({j: r for r, j in enumerate(values)}, frozenset(o.name.lower() for o in st.slots),
                   frozenset(o.name.lower() for o in st.num_slots),
                   frozenset({unit_enums.canonical(str(o)) for u in st.unit_slots for o in u.options} - {None}))


def _number_slot_candidates(st: _FillState, s: Slot, ctx: _NumberContext) -> None:
    """The numbers, ranges, clock times and quarters that may fill the number slot ``s``."""
    slots, reading, mentions, tool_words = st.slots, st.reading, st.mentions, st.tool_words
    cands, numbers, num_slots = st.cands, st.numbers, st.num_slots
    slot_names, numeric_names, enum_units = ctx.slot_names, ctx.numeric_names, ctx.enum_units
    rank_slot = num_slots.index(s)
    for i, m in numbers:
        if "mass" in s.dims and "money" not in s.dims and slot_units.is_mass_pounds(
                reading.text, m.text, m.start, m.unit):
            m = replace(m, unit="lb", dim="mass")  # "a parcel of 2 pounds" for weight_kg: a weight, not money
        rank = ctx.ranks.get(i, len(ctx.ranks))
        score, words = _score_number(s, reading, m, rank, rank_slot, tool_words, slot_names, numeric_names)
        if m.dim and m.dim not in s.dims and (m.unit in enum_units or
                                              unit_enums.canonical(m.unit or "") in enum_units):
            score += 4.5
        cands.append((score, s, _number_value(s, m), (i,), Evidence(_number_rule(m), words)))
    side = _range_side(s)
    for m in mentions:
        if m.kind == "range" and side is not None:
            # "from 2012 to 2015" -> from_year=2012, to_year=2015 (the range is read, not consumed)
            cands.append((4.5, s, m.value[0] if side == 0 else m.value[1], (), Evidence("range", m.text)))
        if m.kind == "time" and s.kind == "integer" and "minut" in " ".join(s.keys) and any(
                "hour" in o.keys for o in slots if o is not s):
            # "6:30" split into hour=6, minute=30; a "minutes" argument alone is a length, not 14:30's 30
            cands.append((3.0, s, m.value[1], (), Evidence("time", m.text)))
        elif m.kind == "time" and s.kind == "integer" and (
                {"hour", "time", "open", "close"} & s.keys or
                "hour" in str(s.spec.get("description", "")).lower()):  # not "minutes past the hour"
            hour = m.value[0]
            if "clock" in str(s.spec.get("description", "")).lower() and hour > 12:
                hour -= 12  # the hour on a clock face: 6:30 PM is 6
            cands.append((3.0, s, hour, (), Evidence("time", m.text)))
    if s.kind == "integer" and "quarter" in s.name.lower():
        for q in _QUARTER.finditer(reading.text):  # "Q3 2024", "the third quarter", 第二季度
            n = next(g for g in q.groups() if g)
            cands.append((5.0, s, int(_QUARTER_WORDS.get(n.lower(), n)), (), Evidence("quarter", q.group(0))))


def _string_slot_candidates(st: _FillState, s: Slot) -> None:
    """The strings that may fill ``s``: read from the mentions, a venue (在海底捞订), a name given
    ("called Budget review"), the thing put on a calendar."""
    reading, mentions, tool_words, vocab, cands = st.reading, st.mentions, st.tool_words, st.vocab, st.cands
    for score, value, i, ev in _string_candidates(s, reading, mentions, vocab):
        consumes = not (ev.rule in ("unit of a number", "state of the city")) and i >= 0
        cands.append((score, s, value, (i,) if consumes else (), ev))
        if not consumes and i >= 0:
            st.derived[(s.name, i)] = (value, ev)  # read from mention i, which another slot takes
    if _names_venue(s) and lang.is_chinese(reading.text):
        for m in _ZH_VENUE.finditer(reading.text):  # 在海底捞订个位: the place where the booking is
            if not gz.PLACE_ZH.fullmatch(m.group(1)):  # 在上海订: a city, not the restaurant
                cands.append((3.0, s, m.group(1), (), Evidence("venue", m.group(0))))
        for m in _ZH_VENUE_LAST.finditer(reading.text):
            if _ZH_BOOKING.search(reading.text[:m.start()]) and not gz.PLACE_ZH.fullmatch(m.group(1)):
                cands.append((3.0, s, m.group(1), (), Evidence("venue", m.group(0))))
    if s.role == "title" or lang.split_identifier(s.name)[-1:] and \
            lang.split_identifier(s.name)[-1] in _CALLED_SLOT_WORDS:
        for m in _CALLED.finditer(reading.text):  # "called Budget review": the name given, whole
            a, b = m.span(1) if m.group(1) else m.span(2)
            inside = tuple(i for i, n in enumerate(mentions) if n.start < b and a < n.end)
            cands.append((5.0, s, reading.text[a:b].strip(), inside, Evidence("called", m.group(0))))
    if s.role == "title" and tool_words & _ITEM_TOOLS:
        for rx in (_ITEM_AFTER_VERB, _ZH_ITEM_AFTER_VERB):
            for m in rx.finditer(reading.text):
                if _generic_item(m.group(1)):
                    continue  # "a meeting with Dana" names no title: asked for, never invented
                cands.append((3.0, s, m.group(1).strip(), (), Evidence("what is put on the calendar", m.group(0))))


def _phrase_slot_candidates(st: _FillState) -> None:
    """Candidates from noun phrases and from phrases of a kind (members, keys, tasks, labels, formats)."""
    slots, reading, mentions, vocab, cands, alias = st.slots, st.reading, st.mentions, st.vocab, st.cands, st.alias
    flags = frozenset(lang.stem(w) for s in slots if s.kind == "boolean" for w in lang.split_identifier(s.name))
    used_spans = [(m.start, m.end) for m in mentions if m.kind not in ("phrase",)]
    phrases = st.phrases = _phrases(reading, vocab, used_spans)
    st.all_mentions = list(mentions) + phrases
    n0 = len(mentions)
    overlaps = [tuple(n0 + k for k, q in enumerate(phrases) if q.start < p.end and p.start < q.end) for p in phrases]
    for s in slots:
        if s.kind == "string" and not s.options and s.role != "query":
            for score, value, i, ev in _phrase_candidates(s, reading, phrases, len(mentions), vocab, flags):
                if i < 0:  # one member of a kind inside a phrase: it alone is consumed
                    cands.append((score, s, value, (i,), ev))
                    alias[i] = next(n0 + k for k, q in enumerate(phrases) if q.start <= -1 - i < q.end)
                else:
                    cands.append((score, s, value, overlaps[i - len(mentions)], ev))
        if s.kind == "string" and s.category and not s.options:
            # "through the train" for a transport: a member of the kind, even where it is no noun phrase
            spans = [(m.start, m.end) for m in mentions]
            for word, a, b in gz.category_members(s.category, reading.text):
                if any(x <= a < y for x, y in spans) or any(p.start <= a < p.end for p in phrases):
                    continue  # read as a mention or inside a phrase already
                ctx, words = _context_score(s, reading, Mention("phrase", word, word, a, b), vocab)
                cands.append((0.3 + ctx + 4.0, s, word, (-1 - a,), Evidence(s.category, words if ctx else word)))
            for score, value, ev in _branded_members(s, reading.text, cands):
                cands.append((score, s, value, (), ev))
        if s.kind == "string" and not s.options and set(lang.split_identifier(s.name)) & _NOTE_SLOTS and (
                note := _MUSICAL_KEY.search(reading.text)):
            # "C sharp major", "in C# minor": a note and its accidental; a scale keeps its mode ("C Major")
            value = note.group(1).upper() + _ACCIDENTAL.get((note.group(2) or "").lower(), "")
            if "scale" in lang.split_identifier(s.name) and "type" not in lang.split_identifier(s.name) and note.group(3):
                value += " " + note.group(3).capitalize()
            within = tuple(i for i, m in enumerate(mentions) if note.start() <= m.start < note.end())
            cands.append((6.0, s, value, within, Evidence("musical key", note.group(0))))
        if s.kind == "string" and not s.options and set(lang.split_identifier(s.name)) <= _ASPECT_NAMES and (
                asked := _asked_aspect(reading.text, vocab)):
            cands.append((3.0, s, asked, (), Evidence("what is asked for", asked)))
        if s.kind == "string" and s.keys & _TASK_KEYS and (todo := _TODO_RX.search(reading.text)):
            what = (todo.group(1) or todo.group(2) or todo.group(3)).strip(" .!?")
            taken_by = {k for o in slots if o is not s for k in _moment_kinds(o)}
            if taken_by:  # "water pot 3 at 7pm" with a time argument: the task is "water pot 3"
                what = _without_moments(what, [m for m in mentions if m.kind in taken_by]) or what
            quoted = re.fullmatch(r"[\"'“‘「『](.+)[\"'”’」』]", what)  # 标题: "购物清单": the quoted words, once
            within = tuple(i for i, m in enumerate(mentions) if quoted and todo.start() <= m.start < todo.end())
            cands.append((4.5, s, quoted.group(1) if quoted else what, within,
                          Evidence("the thing to do", todo.group(0).strip(" .!?"))))
        if s.kind == "string" and not s.options and s.role not in ("query", "text") and lang.is_chinese(reading.text):
            for label, value, words in _zh_labelled(reading.text, s.keys):  # 负责人小王, 标题：周报
                cands.append((4.0, s, value, (), Evidence(f"labelled {label}", words)))
        if s.kind == "string" and not s.options and s.keys & _GOODS_KEYS and (got := _ZH_BOUGHT.search(reading.text)):
            cands.append((3.5, s, got.group(1), (), Evidence("what is bought", got.group(0))))
        if s.kind == "string" and set(lang.split_identifier(s.name)) & {"assignee", "owner", "assigned", "assign"} and (
                who := _FOR_PERSON.search(reading.text)):
            cands.append((3.0, s, who.group(1), (), Evidence("the person it is for", who.group(0))))
        if s.kind == "string" and "format" in s.keys and (fmt := _FORMAT_RX.search(reading.text)):
            cands.append((4.0, s, fmt.group(0), (), Evidence("a format pattern", fmt.group(0))))
        if s.kind == "string" and s.role in ("query", "text") and not any(m.kind == "quoted" for m in mentions):
            q = _query_text(reading.text, [m for m in mentions if m.kind == "number" and m.unit])
            cands.append((4.0, s, q, (), Evidence("the request without its framing", q)))


def _read_without_consuming(st: _FillState) -> None:
    """Enums, options, booleans, arrays and objects first: they read the text without consuming mentions."""
    slots, reading, mentions, vocab, depth, root = st.slots, st.reading, st.mentions, st.vocab, st.depth, st.root
    filled, taken, many, array_alts = st.filled, st.taken, st.many, st.array_alts
    for name, col in _quadratic_coefficients(slots, reading.text).items():
        filled[name] = (col[0][0], col[0][1], 6.0, ())
        if len(col) >= 2 and depth == 0:
            many[name] = col
    for s in slots:
        if s.kind == "enum" or (s.kind == "string" and s.options):
            counted = _counted_option(s, slots, reading)
            hit = (_explained_option(s, reading.text) or _flag_option(s, reading)) if _flag_sides(s) else \
                counted or _option_before_noun(s, reading.text) or \
                (match_enum(reading.text, list(s.options)) if counted is None else None) or \
                _explained_option(s, reading.text) or _zh_named_option(s, reading.text)
            if hit:
                rule = "enum" if s.kind == "enum" else "option"
                filled[s.name] = (hit[0], Evidence(rule, hit[1]), 5.0, ())
                # "on Saturday" for ``day``: the same words are no name for another argument
                taken.update(i for i, m in enumerate(mentions)
                             if m.kind in ("name", "place", "quoted") and m.text.lower() == hit[1].lower())
                both = _enum_all(reading.text, list(s.options)) if depth == 0 else []
                if len(both) >= 2:
                    many[s.name] = [(v, Evidence(rule, w), pos) for v, w, pos in both]
        elif s.kind == "boolean":
            b = _boolean(s, reading)
            sides = _described_sides(s, reading.text)
            if len(sides) == 2 and depth == 0:  # "as a formatted string as well as an array": both ways
                filled[s.name] = (sides[0][0], sides[0][1], 4.0, ())
                many[s.name] = sides
            elif sides and (b is None or sides[0][0] is False):
                filled[s.name] = (sides[0][0], sides[0][1], 4.0, ())
            elif b:
                filled[s.name] = (b[0], b[1], 4.0, ())
        elif s.kind == "array":
            options = [c for c in _array_candidates(s, reading, list(mentions), vocab)
                       if not any(i in taken for i in c[2])]
            best = max(options, key=lambda c: c[0], default=None)
            if best and (s.required or best[0] >= 2.5):
                filled[s.name] = (best[1], best[3], best[0], tuple(best[2]))
                taken.update(best[2])
                alts = [c for c in options if c is not best and c[3].rule == "list"
                        and len(c[2]) == 1 and c[0] >= max(2.5, 0.5 * best[0])]
                array_alts.append((s, alts))
                # the numbers inside a list that is an array's value (or another call's) are no scalar values
                starts = {mentions[i].start for c in [best] + alts for i in c[2] if 0 <= i < len(mentions)}
                taken.update(j for j, m in enumerate(mentions) if m.kind == "number" and m.get("grouped") in starts)
        elif s.kind == "object":
            obj = _object_value(s, reading, list(mentions), depth, root)
            if obj:
                filled[s.name] = (obj[0], obj[1], 3.0, ())
    if st.unit_slots:
        _unit_roles(st.unit_slots, reading.text, filled, many, st.num_slots, st.numbers)


_COUNT_BEFORE_NOUN = re.compile(r"(?<![\w.])(\d+)\s*-\s*([A-Za-z]+)")


def _counted_option(slot: Slot, slots: list[Slot], reading: Reading) -> tuple[Any, str] | bool | None:
    """A count written as an option ('1', '2', '3') from the number said with this slot's noun: "book two rooms"
    gives ``number_of_rooms`` '2', "a 3-star hotel" ``star_rating`` '3'. False when every count said belongs to
    another slot's noun (the '3' of "a 3-star hotel" is no number of rooms: no bare option match); None when the
    options are no counts or no said count has a noun of a slot."""
    opts = {str(o): o for o in slot.options if re.fullmatch(r"\d+", str(o))}
    if len(opts) < 2:
        return None
    said = [(m.value, lang.stem(str(m.unit).lower()), m.text.strip()) for m in reading.mentions
            if m.kind == "number" and m.unit and isinstance(m.value, (int, float)) and float(m.value).is_integer()]
    said += [(int(x.group(1)), lang.stem(x.group(2).lower()), x.group(0)) for x in _COUNT_BEFORE_NOUN.finditer(reading.text)]
    others = {k for o in slots if o is not slot for k in o.keys} - slot.keys
    for value, noun, words in said:
        if noun in slot.keys and str(int(value)) in opts:
            return opts[str(int(value))], words
    return False if any(noun in others for _, noun, _ in said) else None


_PATH_SLOT_WORDS = PATH_WORDS | {"filename"}
#: A path or a file/folder name: separators, a home or relative start, or one token ("src", "README.md").
_PATH_SHAPED = re.compile(r"[~.]?[/\\]|[A-Za-z]:[/\\]|~$|[\w.@-]+$|.*[/\\]", re.A)


def _not_a_path(slot: Slot, value: Any) -> bool:
    """Whether ``value`` cannot be what a path argument takes: words ("有什么区别", "what was committed since
    yesterday") in ``repo_path``. A model leaves such an argument out or asks; it never sends a sentence as a path."""
    if slot.kind != "string" or slot.options or not isinstance(value, str) or \
            not set(lang.split_identifier(slot.name)) & _PATH_SLOT_WORDS:
        return False
    return _PATH_SHAPED.match(value.strip()) is None


def _take_best(st: _FillState) -> None:
    """The candidates taken greedily, best first, each mention once; then what required slots still lack."""
    slots, reading, mentions, vocab, depth = st.slots, st.reading, st.mentions, st.vocab, st.depth
    st.cands[:] = [c for c in st.cands if not _not_a_path(c[1], c[2])
                   and not (_counted_thing(c[4]) and _counts_heads(c[1]))]  # 订一张桌子: one table, no party of one
    cands, filled, taken = st.cands, st.filled, st.taken
    if st.tool_words & _ITEM_TOOLS:  # "a meeting with Dana": "meeting" is no title of a calendar entry
        cands[:] = [c for c in cands if not (c[1].role == "title" and isinstance(c[2], str) and _generic_item(c[2]))]
    cands.sort(key=lambda c: (-c[0], c[1].index))
    for score, s, value, idx, ev in cands:
        if s.name in filled or any(i in taken for i in idx):
            continue
        if score < _threshold(s, ev):
            continue
        filled[s.name] = (value, ev, score, idx)
        taken.update(idx)
    _give_required(slots, cands, filled, taken)
    if depth == 0:
        _end_from_length(slots, filled, mentions, reading.text)
        _one_for_a_superlative(slots, filled, reading.text, vocab)
    # A required value nothing points at: a model still calls, with its best reading of the
    # text, when the text holds something of the right type that no other argument took.
    # Only when nothing is left does it ask (lesson 02: "What's the weather like?" -> asks).
    for score, s, value, idx, ev in cands:
        if s.name in filled or not s.required or s.nullable or any(i in taken for i in idx):
            continue
        if score < _BEST_READING_FLOOR or s.category == "language" and ev.rule == "words":
            continue  # no language named: the request's own language is the reading (below)
        if s.role == "title" and st.tool_words & _ITEM_TOOLS:
            continue  # a calendar entry's title is asked for, never guessed from a leftover word ("Put")
        filled[s.name] = (value, Evidence("best reading: " + ev.rule, ev.words), score, idx)
        taken.update(idx)


_THINGS = load_json("counted_things.json")


def _counts_heads(slot: Slot) -> bool:
    """Whether ``slot`` is a number of people (``party_size``, ``guests``, described 人数; data/counted_things.json)."""
    if slot.kind not in ("integer", "number"):
        return False
    words = {w.lower() for w in lang.split_identifier(slot.name)} | set(
        re.findall(r"[a-z]+", str(slot.spec.get("description", "")).lower()))
    desc = str(slot.spec.get("description", ""))
    return bool(words & set(_THINGS["people_slots"])) or any(w in desc or w in slot.name
                                                              for w in _THINGS["people_slots"] if not w.isascii())


def _counted_thing(ev: Evidence) -> bool:
    """Whether the count behind ``ev`` was counted with a Chinese classifier of things (一张, 两本), not of people."""
    unit = ev.rule.removeprefix("number with unit ").strip() if ev.rule.startswith("number with unit ") else ""
    return bool(unit) and not unit.isascii() and len(unit) == 1 and unit not in _THINGS["people_classifiers"] and \
        bool(re.search(r"[一二两三四五六七八九十几\d]" + re.escape(unit), ev.words))


def _write_out(st: _FillState, out: Filled) -> None:
    """The values in the form the schema describes; defaults, nulls or ``missing`` for what nothing gave."""
    slots, reading, filled, depth = st.slots, st.reading, st.filled, st.depth
    for s in slots:
        if s.name in filled:
            value, ev, score, idx = filled[s.name]
            if (s.examples or isinstance(s.spec.get("default"), str)) and isinstance(value, str):
                value = _example_form(s, value)
            if isinstance(value, str) and s.kind == "string":
                value = _as_described(s, value, filled)
                if _CLOCK_FORMAT.search(str(s.spec.get("description", ""))):
                    value = _in_clock_format(s, value, [st.mentions[i] for i in idx or ()
                                                        if isinstance(i, int) and 0 <= i < len(st.mentions)])
                if ev.rule == "words":
                    value = _without_option_words(value, _words_taken(filled, s.name))
            out.arguments[s.name] = value
            out.evidence[s.name] = ev
            out.strength[s.name] = score
        elif s.required:
            default = s.spec.get("default")
            if s.nullable:
                # A strict schema lists every field as required and marks the optional ones
                # nullable: a model sends null for what the user did not say.
                out.arguments[s.name] = None
                out.evidence[s.name] = Evidence("nullable", "not mentioned")
                out.strength[s.name] = 0.1
            elif default is not None:
                out.arguments[s.name] = default
                out.evidence[s.name] = Evidence("schema default", repr(default))
                out.strength[s.name] = 0.1
            elif (said := described_default(s)) is not None:
                out.arguments[s.name] = said[0]
                out.evidence[s.name] = Evidence("default in the description", said[1])
                out.strength[s.name] = 0.1
            elif s.category == "language" and s.kind == "string" and depth == 0 and not _TARGET_NAME.search(s.name):
                # the language a text is written in, when no language is named: the request's own
                out.arguments[s.name] = "Chinese" if lang.is_chinese(reading.text) else "English"
                out.evidence[s.name] = Evidence("language of the request", reading.text[:40])
                out.strength[s.name] = 0.1
            else:
                out.missing.append(s.name)


#: An argument for the language to translate into: the request's own language is no default for it.
_TARGET_NAME = re.compile(r"(?:^|_)(?:tgt|target|to|dest|destination|output|into)(?:_|$)|^(?:tgt|target|to)[A-Z]", re.I)


def _spread_out(st: _FillState, out: Filled) -> None:
    """Several values for one slot ("5, 10 and 15", two enum values, a list per call): the spreads the engine
    turns into parallel calls; and whether a strong unused runner-up means the text asks for several."""
    slots, reading, mentions, filled, taken, cands = st.slots, st.reading, st.mentions, st.filled, st.taken, st.cands
    many, phrases, all_mentions, derived, alias = st.many, st.phrases, st.all_mentions, st.derived, st.alias
    array_alts = st.array_alts
    # "the first set is [1, 2], the second set is [3, 4]": one list per call
    for s, alts in array_alts:
        alts = [c for c in alts if not any(i in taken for i in c[2])]
        if alts and s.name in filled:
            first = filled[s.name]
            vals = sorted([(mentions[c[2][0]].start, c[1], c[3]) for c in alts] +
                          [(mentions[first[3][0]].start if first[3] else 0, first[0], first[1])], key=lambda x: x[0])
            many[s.name] = [(v, e, pos) for pos, v, e in vals]
    plain = [k for k, q in enumerate(phrases) if not q.get("joined")]
    groups = list(reading.groups) + [[len(mentions) + plain[k] for k in g]
                                     for g in _coordinations_of(reading, [phrases[k] for k in plain])]
    out.spread = _spreads(slots, filled, groups, all_mentions, taken, cands, reading.text, alias)
    # "Chicago, Illinois, ... Sacramento, California": a value read from each city of a spread
    for (name, i), _ in derived.items():
        if name in out.spread or name not in filled or filled[name][1].rule != "state of the city":
            continue
        for col in out.spread.values():
            idx = [next((j for j, m in enumerate(all_mentions) if m.start == pos), -1) for _, _, pos in col]
            if i in idx and all((name, j) in derived for j in idx):
                out.spread[name] = [(*derived[(name, j)], pos) for j, (_, _, pos) in zip(idx, col)]
                break
    for name, vals in many.items():
        out.spread.setdefault(name, vals)
    for name, vals in _clock_spreads(filled, mentions, reading.text).items():
        out.spread.setdefault(name, vals)
    out.spread.update(_pair_spreads(filled, all_mentions, reading.text))
    for s in slots:  # "London and Sydney" for a time zone: each place as its zone
        if s.name in out.spread and s.kind == "string":
            desc = str(s.spec.get("description", ""))
            out.spread[s.name] = [(timezones.as_zone(s.name, desc, v) or v, e, p) for v, e, p in out.spread[s.name]]
    if out.spread:
        _enum_partners(slots, filled, out.spread, reading.text)
    chosen = {name: v for name, v in filled.items() if len(v[3]) == 1 and v[3][0] >= 0}
    out.echoes = any(cs.name in chosen and idx and 0 <= idx[0] and idx[0] not in taken and score >= 0.8
                     and all_mentions[idx[0]].kind == all_mentions[chosen[cs.name][3][0]].kind
                     for score, cs, value, idx, ev in cands)


#: A description that lists a clock time alone among its formats ("'YYYY-MM-DD HH:MM:SS', 'HH:MM' or ...").
_CLOCK_FIRST = re.compile(r"(?<![Dd] )'HH:MM(?::SS)?'", re.I)
#: A string argument that holds a moment, not a day: "ISO 8601 date-time", "format: date-time", a timestamp.
_DATE_TIME_DESC = re.compile(r"date[- ]?time|timestamp|yyyy-mm-dd[t ]hh|iso[- ]?8601(?! date\b)", re.I)


def _is_date_time(slot: Slot) -> bool:
    if slot.kind != "string":
        return False
    desc = str(slot.spec.get("description", ""))
    return slot.spec.get("format") == "date-time" or "datetime" in slot.name.lower().replace("_", "") or bool(
        _DATE_TIME_DESC.search(desc) and (slot.role in ("date", "time") or {"time", "date", "when"} & slot.keys
                                          or re.search(r"\b(?:time|date|when)\b", desc, re.I)))


def _date_times(slots: list[Slot], mentions: list[Mention], out: Filled, text: str = "") -> None:
    """A date-time argument takes the day and the clock time of the request together.

    "tomorrow at 7pm" -> ``"2026-12-01T19:00"``, "2026-12-02T19:00" typed as such stays whole; a
    clock time alone is today's ("at 8pm" -> today at 20:00). Seconds appear where the user typed
    them or the description's format shows them (``HH:MM:SS``).
    """
    times = [m for m in mentions if m.kind == "time"]
    if not times:
        return
    dates = [m for m in mentions if m.kind == "date"]
    import datetime as _dt

    order = 0  # the first date-time argument takes the first clock time, the next one the next ("from 10:30 to 7pm")
    first = ""
    for s in slots:
        if not _is_date_time(s):
            continue
        value = out.arguments.get(s.name)
        day = value if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) else None
        clock_said = isinstance(value, str) and (re.fullmatch(r"\d{1,2}:\d{2}", value) or
                                                 any(value == m.text.strip() for m in times))
        if value is not None and day is None and not clock_said:
            continue  # something else was read for it
        desc = str(s.spec.get("description", ""))
        d = next((m.value for m in dates if m.value[0]), None)
        if day is None:
            day = f"{d[0]}-{d[1]:02d}-{d[2]:02d}" if d else _dt.date.today().isoformat()
        if order >= len(times) and (not s.required or _range_side(s) == 1):
            if value is None or value == day or value == out.arguments.get(first, ""):
                out.arguments.pop(s.name, None)  # one clock time said: it starts the span, it does not end it
                out.evidence.pop(s.name, None)
                end = _start_plus_length(out.arguments.get(first), mentions) if _range_side(s) == 1 else None
                if end:  # "at 14:30 for 45 minutes": the end is the start plus the length
                    out.arguments[s.name], out.evidence[s.name] = end
                    out.missing = [n for n in out.missing if n != s.name]
                elif s.required and s.name not in out.missing:
                    out.missing.append(s.name)  # a required end nobody said: ask, never copy the start
            continue
        t = times[min(order, len(times) - 1)]
        first = s.name if order == 0 else first
        order += 1
        h, mi = t.value
        seconds = t.get("seconds") or ("00" if re.search(r"hh:mm:ss", desc, re.I) else None)
        clock = f"{h:02d}:{mi:02d}" + (f":{seconds}" if seconds else "")
        if _says_utc(desc):  # "Start time in UTC": the moment said, in UTC (from the zone said, else local time)
            out.arguments[s.name] = _in_utc(day, h, mi, int(seconds or 0), _zone_said(t, mentions, text), desc)
        elif s.spec.get("format") == "date-time":  # JSON Schema's date-time is RFC 3339's: seconds and an offset
            out.arguments[s.name] = _rfc3339(day, h, mi, int(seconds or 0), t.get("offset"))
        elif d is None and (not value or clock_said) and _CLOCK_FIRST.search(desc):
            out.arguments[s.name] = f"{h:02d}:{mi:02d}"  # no date said and a clock time alone is a format it takes
        else:  # "YYYY-MM-DD HH:mm:ss" spelled with a space gets one; ISO 8601's "T" otherwise
            sep = " " if re.search(r"yyyy-mm-dd hh", desc, re.I) else "T"
            out.arguments[s.name] = f"{day}{sep}{clock}"
        out.evidence[s.name] = Evidence("date and clock time", t.text)
        if s.name in out.missing:
            out.missing.remove(s.name)


_UTC_DESC = re.compile(r"\b(?:" + "|".join(_MOMENTS["utc_words"]) + r")\b(?![+-]\d)|(?:ss|SS|mm|MM)(?:\.\w+)?'?Z\b", re.I)
_ABBREVIATIONS = _MOMENTS["zone_abbreviations"]
_ZONE_AFTER = re.compile(r"\s*(?:\(?\s*(?P<abbr>" + "|".join(_ABBREVIATIONS) + r")(?![A-Za-z])\s*(?:(?P<sign>[+-])\s*"
                         r"(?P<hours>\d{1,2})(?::?(?P<mins>\d{2}))?)?\)?)")


def _says_utc(desc: str) -> bool:
    """Whether a date-time slot's description asks for UTC ("in UTC", "GMT", "YYYY-MM-DDTHH:MM:SSZ")."""
    return bool(_UTC_DESC.search(desc))


def _zone_said(t: Mention, mentions: list[Mention], text: str):
    """The time zone the user wrote for the clock time ``t``, as a ``tzinfo``: its own offset ("Z", "+08:00"), an
    abbreviation or offset right after it ("9am PST", "15:00 UTC+8"), or a place before "time"/时间 near it ("3pm
    Beijing time", 北京时间下午3点); None when no zone is said (the user's local time)."""
    import datetime as _dt
    from zoneinfo import ZoneInfo

    if t.get("offset"):
        off = t.get("offset")
        if off.upper() == "Z":
            return _dt.timezone.utc
        sign = -1 if off[0] == "-" else 1
        digits = off[1:].replace(":", "")
        return _dt.timezone(sign * _dt.timedelta(hours=int(digits[:2]), minutes=int(digits[2:4] or 0)))
    after = _ZONE_AFTER.match(text, t.end) if text else None
    if after and after.group("abbr"):
        if after.group("sign"):
            sign = -1 if after.group("sign") == "-" else 1
            return _dt.timezone(sign * _dt.timedelta(hours=int(after.group("hours")), minutes=int(after.group("mins") or 0)))
        return ZoneInfo(_ABBREVIATIONS[after.group("abbr")])
    for m in mentions:
        if m.kind == "place" and abs(m.start - t.start) < 40 and re.match(r"\s*(?:time|时间)", text[m.end:m.end + 6]):
            zone = timezones.zone_of(str(m.value))
            if zone:
                return ZoneInfo(zone)
    return None


def _in_utc(day: str, hour: int, minute: int, second: int, zone, desc: str) -> str:
    """A clock time on a day, in ``zone`` (a ``tzinfo``; None: the machine's local zone, where the mock's "now"
    comes from), as UTC in the format the description shows: "YYYY-MM-DD HH:MM" as that, else ISO 8601 with
    seconds and "Z" ("2026-12-05T07:00:00Z" for 3pm Beijing time)."""
    import datetime as _dt

    y, m, d = (int(x) for x in day.split("-"))
    moment = _dt.datetime(y, m, d, hour, minute, second, tzinfo=zone) if zone else \
        _dt.datetime(y, m, d, hour, minute, second).astimezone()
    utc = moment.astimezone(_dt.timezone.utc)
    if re.search(r"yyyy-mm-dd hh:mm", desc, re.I):
        return utc.strftime("%Y-%m-%d %H:%M" + (":%S" if re.search(r"hh:mm:ss", desc, re.I) else ""))
    return utc.strftime("%Y-%m-%dT%H:%M:%SZ")


def _rfc3339(day: str, hour: int, minute: int, second: int = 0, offset: str | None = None) -> str:
    """A clock time on a day as RFC 3339 writes a date-time (JSON Schema's ``format: date-time``): seconds and
    the offset the user wrote ("Z", "+08:00"), else the UTC offset of the machine's local time zone on that day,
    where the mock's "today" comes from too ("2026-12-04", 19, 0 -> "2026-12-04T19:00:00+00:00" on a machine on
    UTC). RFC 3339 (section 5.6) requires the offset; a time said without a zone is the user's local time."""
    import datetime as _dt

    y, m, d = (int(x) for x in day.split("-"))
    if offset:
        zone = "Z" if offset.upper() == "Z" else f"{offset[:3]}:{offset[-2:]}"
        return f"{y:04d}-{m:02d}-{d:02d}T{hour:02d}:{minute:02d}:{second:02d}{zone}"
    local = _dt.datetime(y, m, d, hour, minute, second).astimezone()
    return local.isoformat(timespec="seconds")


def _start_plus_length(start: Any, mentions: list[Mention]) -> tuple[str, Evidence] | None:
    """The end of a span given by its start ("2026-12-02T14:30") and one length said in the request ("for 45
    minutes", 一个小时), written like the start; None when there is no start or not exactly one length."""
    import datetime as _dt

    lengths = [m for m in mentions if m.kind == "number" and m.dim == "time" and m.unit in ("s", "min", "h")]
    if not isinstance(start, str) or len(lengths) != 1:
        return None
    sep = "T" if "T" in start else " "
    try:
        t0 = _dt.datetime.fromisoformat(start.replace(" ", "T"))
    except ValueError:
        return None
    end = t0 + _dt.timedelta(seconds=float(lengths[0].value) * _SECONDS[lengths[0].unit])
    text = end.isoformat(sep=sep, timespec="seconds" if re.search(r"\d:\d\d:\d", start) else "minutes")
    return text, Evidence("start plus the stay", lengths[0].text)


def _threshold(s: Slot, ev: Evidence) -> float:
    """The score a candidate needs to fill ``s``: low for a required value, high for an optional one."""
    if ev.rule == "words" and s.required:
        return 0.8  # a free-text value with nothing pointing at it: better to ask
    return 0.25 if s.required and not s.nullable else (2.0 if s.kind in ("integer", "number") else 2.2)


_STAY = re.compile(r"\bfor\s+(\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|fourteen)\s+(nights?|days?|weeks?)\b",
                   re.I)
_SMALL = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
          "ten": 10, "fourteen": 14}


def _end_from_length(slots: list[Slot], filled: dict, mentions: list[Mention], text: str) -> None:
    """"3 nights starting from 1st June 2022": the end date is the start plus the stay, as a person counts it."""
    import datetime as _dt

    stay = _STAY.search(text)
    ends = [s for s in slots if s.role == "date" and s.name not in filled and _range_side(s) == 1]
    starts = [s for s in slots if s.role == "date" and s.name in filled and _range_side(s) == 0]
    if not stay or len(ends) != 1 or len(starts) != 1 or not filled[starts[0].name][3] or not (
            0 <= filled[starts[0].name][3][0] < len(mentions)):
        return
    m = mentions[filled[starts[0].name][3][0]]
    if m.kind != "date" or not m.value[0]:
        return
    n = int(stay.group(1)) if stay.group(1).isdigit() else _SMALL[stay.group(1).lower()]
    days = n * (7 if stay.group(2).lower().startswith("week") else 1)
    end = _dt.date(*m.value) + _dt.timedelta(days=days)
    shifted = Mention("date", (end.year, end.month, end.day), m.text, m.start, m.end)
    filled[ends[0].name] = (_date_value(ends[0], shifted), Evidence("start plus the stay", stay.group(0)), 3.0, ())


_SUPERLATIVE = re.compile(r"\bthe\s+(?:single\s+)?(?:most|highest|best|top|largest|biggest|lowest|cheapest|"
                          r"closest|nearest|fastest|greatest|richest|tallest|oldest|newest|leading)\s+"
                          r"((?:[a-z-]+\s+){0,2}[a-z]+)\b", re.I)


def _one_for_a_superlative(slots: list[Slot], filled: dict, text: str, vocab: frozenset[str]) -> None:
    """"the highest grossing bank" for a ``top_n``: one of the tool's things, so 1 (not the default list)."""
    for s in slots:
        if s.name in filled or not _counts_results(s):
            continue
        for m in _SUPERLATIVE.finditer(text):
            # the first of the next words that names the tool's thing: singular asks for one of them
            noun = next((w for w in m.group(1).lower().split() if lang.stem(w) in vocab), "")
            if noun and not noun.endswith("s"):
                filled[s.name] = (1, Evidence("one: a superlative", m.group(0)), 2.5, ())
                return


def _has_default(s: Slot) -> bool:
    return s.spec.get("default") is not None or described_default(s) is not None


def _give_required(slots: list[Slot], cands: list, filled: dict, taken: set[int]) -> None:
    """A required slot left empty takes its best value back from the slot that holds it.

    Greedy assignment can let one slot take the only value another needs ("duration 4
    beats" taken by ``tempo``, "for 10 years" by an optional ``compounds_per_year``). A
    model fills what is required first: the holder moves to its next best free value, and
    an optional holder with none left is simply left out (its default applies).
    """
    by_name = {s.name: s for s in slots}
    for s in slots:
        if s.name in filled or not s.required or s.nullable:
            continue
        for score, cs, value, idx, ev in cands:
            if cs is not s or not idx or score < max(_threshold(s, ev), 1.0):
                continue
            holders = [n for n, v in filled.items() if set(v[3]) & set(idx)]
            if len(holders) != 1 or holders[0] not in by_name:
                continue
            h = by_name[holders[0]]
            held = filled[h.name]
            if not held[3] or h.kind not in ("integer", "number", "string"):
                continue
            free = taken - set(held[3])
            alt = next((c for c in cands if c[1] is h and c[3] and not set(c[3]) & (free | set(idx))
                        and c[0] >= _threshold(h, c[4])), None)
            has_default = _has_default(h)
            if alt is None and (h.required and not h.nullable or held[2] > score + 0.5 and not has_default):
                continue  # the holder needs it more (an optional one with a default can do without)
            del filled[h.name]
            taken.difference_update(held[3])
            filled[s.name] = (value, ev, score, idx)
            taken.update(idx)
            if alt is not None:
                filled[h.name] = (alt[2], alt[4], alt[0], alt[3])
                taken.update(alt[3])
            break


_ASKS_CODE = re.compile(r"\b(?:IATA|ICAO|airport[ _]codes?|(?:three|3)[- ]letter (?:\w+ )?codes?)\b", re.I)
_CODE_IN = re.compile(r"(?<![\w-])[A-Z]{3}(?![\w-])")
_BRACKETED_CODE = re.compile(r"\s*[(（]\s*([A-Z]{3,4})\s*[)）]")


def _asks_code(s: Slot) -> bool:
    """Whether a string slot's description or name asks for a code ("IATA code", ``origin_iata``)."""
    return s.kind == "string" and bool(_ASKS_CODE.search(str(s.spec.get("description", "")) + " " +
                                                         s.name.replace("_", " ")))


def _prefer_codes(slots: list[Slot], filled: dict, mentions: list[Mention] = (), text: str = "") -> None:
    """"from Paris CDG", "from Paris (CDG)" for an origin whose description asks for IATA codes: the code, as a
    model sends it (a place with its code in brackets right after it gives the code).

    A slot asks when its own description or name does, or a sibling of the same role does (origin /
    destination). ``filled``: name -> (value, evidence, score, indexes into ``mentions``), rewritten in place.
    """
    asking = {s.role for s in slots if _asks_code(s)}
    if not asking:
        return
    for s in slots:
        got = filled.get(s.name)
        if got is None or not isinstance(got[0], str) or s.kind != "string":
            continue
        if s.role in asking or _asks_code(s):
            codes = _CODE_IN.findall(got[0])
            if len(codes) == 1 and codes[0] != got[0]:
                filled[s.name] = (codes[0], Evidence(got[1].rule + ", the code the description asks for",
                                                     got[1].words), got[2], got[3])
            elif not codes and len(got[3]) == 1 and next(iter(got[3])) < len(mentions):
                after = _BRACKETED_CODE.match(text, mentions[next(iter(got[3]))].end)
                if after:
                    filled[s.name] = (after.group(1), Evidence(got[1].rule + ", its code in brackets",
                                                               after.group(0).strip()), got[2], got[3])


def _unit_roles(unit_slots: list[Slot], text: str, filled: dict, many: dict, num_slots: list[Slot] = (),
                numbers: list[tuple[int, Mention]] = ()) -> None:
    """Fill unit enums by spelling and role: "100 F to Celsius" -> from F, to C (see :mod:`.unit_enums`)."""
    options = tuple(dict.fromkeys(str(o) for s in unit_slots for o in s.options))
    hits = unit_enums.mentions(text, options)
    if not hits:
        return
    src, dst = unit_enums.roles(text, hits)
    if len(unit_slots) == 2 and _unit_roles_per_clause(unit_slots, text, options, filled, many, num_slots, numbers):
        return
    if len(unit_slots) == 1:
        s = unit_slots[0]
        value = src or dst
        if s.name not in filled and value in s.options:
            filled[s.name] = (value, Evidence("enum", text[hits[0][1]:hits[0][2]]), 5.0, ())
        return
    i_src, i_dst = unit_enums.slot_roles([s.name for s in unit_slots])
    if i_src is None:
        return
    for index, value in ((i_src, src), (i_dst, dst)):
        s = unit_slots[index]
        many.pop(s.name, None)
        if value is None or value not in s.options:
            filled.pop(s.name, None)  # not said: ask, rather than repeat the other unit
            continue
        words = next(text[a:b] for v, a, b, _ in hits if v == value)
        filled[s.name] = (value, Evidence("enum", words), 5.0, ())


def _unit_roles_per_clause(unit_slots: list[Slot], text: str, options: tuple[str, ...], filled: dict, many: dict,
                           num_slots: list[Slot], numbers: list[tuple[int, Mention]]) -> bool:
    """"10 miles to km, and 5 km to miles": each amount's clause has its own from and to units.

    The clause of an amount runs from its number to the next amount's number. When every clause
    names both units and they differ between clauses, each unit slot gets one value per clause, in
    ``many`` beside the amounts, so the calls pair them up (:func:`engine._combine`). Returns True
    when it did; otherwise the units are read over the whole request.
    """
    i_src, i_dst = unit_enums.slot_roles([s.name for s in unit_slots])
    if i_src is None:
        return False
    cuts = [m.start() for m in _AMOUNT_BEFORE_UNIT.finditer(text)
            if any(a == m.end() for _, a, _, after in unit_enums.mentions(text, options) if after)]
    if len(cuts) < 2:
        return False
    pairs = []
    for k, start in enumerate(cuts):
        clause = text[start: cuts[k + 1] if k + 1 < len(cuts) else len(text)]
        src, dst = unit_enums.roles(clause, unit_enums.mentions(clause, options))
        if src is None or dst is None:
            return False
        said = re.sub(r"[\s,;，；、]*(?:and(?: then)?|then|再|然后|还有|并且)?[\s,;，；、]*(?:把)?$", "", clause, flags=re.I)
        pairs.append((src, dst, start, said))
    if len({(a, b) for a, b, _, _ in pairs}) < 2:
        return False
    for index, col in ((i_src, 0), (i_dst, 1)):
        if any(p[col] not in unit_slots[index].options for p in pairs):
            return False
    amounts = [next((m for _, m in numbers if m.start == cut), None) for cut in cuts]
    if len(num_slots) == 1 and None not in amounts:  # "100 F ... and 30 C": each clause's amount, too
        many[num_slots[0].name] = [(_number_value(num_slots[0], m), Evidence("number, in its own clause", m.text),
                                    m.start) for m in amounts]
    for index, col in ((i_src, 0), (i_dst, 1)):
        s = unit_slots[index]
        many[s.name] = [(p[col], Evidence("enum, in its own clause", p[3]), p[2] + col) for p in pairs]
        filled[s.name] = (pairs[0][col], many[s.name][0][1], 5.0, ())
    return True


_AMOUNT_BEFORE_UNIT = re.compile(r"(?<![\w.])(?:\d+(?:[.,]\d+)?|[零一二两三四五六七八九十百千万]+)\s*(?=\S)")


#: How weak a required slot's best remaining candidate may be and still be used (a guess a
#: model would make) rather than asking: below it, the candidate is of the wrong type.
_BEST_READING_FLOOR = -1.0
_DEFAULT_RX = re.compile(r"\b(?:default(?:s)?(?:\s+value)?(?:\s+is|\s+to|\s*[:=])?|by default(?:,)?(?:\s+it\s+is)?)\s*"
                         r"(?:set\s+to\s+|is\s+)?['\"`]?([^'\"`,;)]+?)['\"`]?\s*(?:[.,;)]|$)", re.I)


def described_default(slot: Slot) -> tuple[Any, str] | None:
    """The default a description states ("Default is true", "defaults to 'x'") in the slot's type.

    Returns ``(value, words)`` or None when the description states none (or one of another type).
    """
    desc = str(slot.spec.get("description", ""))
    m = _DEFAULT_RX.search(desc)
    if m is None:
        return None
    raw = m.group(1).strip()
    low = raw.lower()
    if slot.kind == "boolean":
        if low in ("true", "yes", "on", "enabled"):
            return True, m.group(0).strip()
        if low in ("false", "no", "off", "disabled"):
            return False, m.group(0).strip()
        return None
    if slot.kind in ("integer", "number"):
        try:
            v = float(raw.replace(",", ""))
        except ValueError:
            return None
        return (int(v) if slot.kind == "integer" or v.is_integer() else v), m.group(0).strip()
    if slot.kind == "enum":
        hit = next((o for o in slot.options if str(o).lower() == low), None)
        return (hit, m.group(0).strip()) if hit is not None else None
    if slot.kind == "string" and raw and low not in ("none", "null", "empty", "all", "not specified") and len(raw) <= 40:
        return raw, m.group(0).strip()
    return None


def _query_text(text: str, quantities: list[Mention]) -> str:
    """What a search is about: the request without "search the wiki for", "top 3 pages about"."""
    q = _query(text)
    return q


_LOW_WORDS = frozenset({"start", "from", "min", "minimum", "lower", "low", "begin", "first", "initi", "earliest", "floor"})
_HIGH_WORDS = frozenset({"end", "to", "max", "maximum", "upper", "high", "stop", "last", "final", "latest", "ceil"})


def _range_side(s: Slot) -> int | None:
    """0 for a slot that takes a range's low end (start_year, min_x), 1 for the high end, else None."""
    words = {lang.stem(w) for w in lang.split_identifier(s.name)}
    if words & _LOW_WORDS and not words & _HIGH_WORDS:
        return 0
    if words & _HIGH_WORDS and not words & _LOW_WORDS:
        return 1
    return None


def _is_count(m: Mention) -> bool:
    """"two numbers", "three sides": a count of things named in words, not a value to pass."""
    return bool(m.get("words")) and bool(m.unit) and not m.dim


def _nested(mentions: list[Mention], m: Mention) -> bool:
    return any(o is not m and o.kind == "range" and o.start <= m.start and m.end <= o.end for o in mentions)


def _number_rule(m: Mention) -> str:
    if m.label:
        return "named number"
    if m.get("percent"):
        return "percent"
    if m.dim == "money":
        return "amount"
    if m.unit:
        return f"number with unit {m.unit}"
    if m.get("words"):
        return "number in words"
    return "number"


_MANY = re.compile(r"\b(?:and|another|also|respectively|each|both|then|same|as well|vs\.?|versus|or|than)\b|,|、|和|跟|与|以及|分别|比",
                   re.I)


def _coordinations_of(reading: Reading, phrases: list[Mention]) -> list[list[int]]:
    from .reading import _coordinations

    return _coordinations(reading.text, phrases) if len(phrases) > 1 else []


def _spreads(slots: list[Slot], filled: dict, groups: list[list[int]], mentions: list[Mention], taken: set[int],
             cands: list, text: str, alias: dict[int, int] | None = None) -> dict[str, list[tuple[Any, Evidence, int]]]:
    """Values that ask for several calls: "factorial of 5, 10 and 15", "3 and 4, 5 and 12".

    1. A coordination whose first members went to k slots and that holds n*k members: n calls.
    2. "(45, 60) and (81, 27)": each bracket of k numbers is a call.
    3. Otherwise, for each slot, the other mentions of the same kind that fit this slot best of
       all slots: "$500,000 from HSBC ... and $700,000 for Wells Fargo" -> two amounts, two banks.

    Returns:
        ``{slot: [(value, evidence, position in the text), ...]}`` for slots with 2+ values, in
        text order; the engine zips the slots that alternate and crosses the others.
    """
    if not _MANY.search(text):
        return {}
    out = _spreads_core(slots, filled, groups, mentions, taken, cands, text, alias)
    if out:
        _partners(out, filled, mentions, taken, cands, text, alias or {})
    return out


def _slot_candidates(cands: list, alias: dict[int, int]
                     ) -> tuple[dict[str, dict[int, tuple[float, Any, Evidence]]], dict[int, tuple[float, str]]]:
    """The single-mention candidates of each slot, ``{slot: {mention: (score, value, evidence)}}``
    (the best per mention), and the slot each mention fits best, ``{mention: (score, slot)}``."""
    by_slot_cands: dict[str, dict[int, tuple[float, Any, Evidence]]] = {}
    best_slot: dict[int, tuple[float, str]] = {}
    for score, s, value, idx, ev in cands:
        if len(idx) == 1:
            i = alias.get(idx[0], idx[0])
            if i < 0:
                continue
            if i in by_slot_cands.get(s.name, {}) and idx[0] >= 0 and by_slot_cands[s.name][i][0] > score:
                continue
            by_slot_cands.setdefault(s.name, {})[i] = (score, value, ev)
            if i not in best_slot or score > best_slot[i][0]:
                best_slot[i] = (score, s.name)
    return by_slot_cands, best_slot


def _coordination_spreads(groups: list[list[int]], chosen: dict[str, int], filled: dict, mentions: list[Mention],
                          taken: set[int], by_slot_cands: dict, best_slot: dict
                          ) -> dict[str, list[tuple[Any, Evidence, int]]]:
    """A coordination whose first members went to k slots and that holds n*k members: n calls."""
    out: dict[str, list[tuple[Any, Evidence, int]]] = {}
    for g in groups:
        owners = sorted(((g.index(i), name) for name, i in chosen.items() if i in g))
        if not owners:
            continue
        k = len(owners)
        others = [i for i in g if i not in chosen.values()]
        if any(i in taken for i in others) or len(g) <= k or len(g) % k:
            continue
        if k > 1 and [p for p, _ in owners] != list(range(k)):
            continue
        n = len(g) // k
        for p, name in owners:
            col = []
            for j in range(n):
                member = g[j * k + p] if k > 1 else g[j]
                hit = by_slot_cands.get(name, {}).get(member)
                if hit is None or k == 1 and mentions[member].kind != mentions[chosen[name]].kind and \
                        best_slot.get(member, (0, name))[1] != name and hit[0] < 0.8 * filled[name][2]:
                    col = []  # "Paris and for Blur": Blur fits the band better than the city
                    break
                col.append((hit[1], hit[2], mentions[member].start))
            if col:
                out[name] = col
    return out


def _bracket_spreads(chosen: dict[str, int], mentions: list[Mention], by_slot_cands: dict
                     ) -> dict[str, list[tuple[Any, Evidence, int]]]:
    """"(45, 60) and (81, 27)": k slots took the k numbers of one bracket; each other bracket of k is
    a call. Empty unless every one of the k slots gets a value from every bracket."""
    grouped = {name: mentions[i].get("grouped") for name, i in chosen.items() if mentions[i].get("grouped") is not None}
    if not grouped or len(set(grouped.values())) != 1:
        return {}
    g0 = next(iter(grouped.values()))
    brackets: dict[int, list[int]] = {}
    for j, m in enumerate(mentions):
        if m.kind == "number" and m.get("grouped") is not None:
            brackets.setdefault(m.get("grouped"), []).append(j)
    k = len(grouped)
    order = sorted(grouped, key=lambda n: chosen[n])
    same = [b for b in sorted(brackets) if len(brackets[b]) == k]
    if len(same) <= 1 or g0 not in same:
        return {}
    out: dict[str, list[tuple[Any, Evidence, int]]] = {}
    for p, name in enumerate(order):
        col = []
        for b in same:
            hit = by_slot_cands.get(name, {}).get(brackets[b][p])
            if hit is None:
                break
            col.append((hit[1], hit[2], mentions[brackets[b][p]].start))
        if len(col) == len(same):
            out[name] = col
    return out if len(out) == k else {}


def _kind_spreads(chosen: dict[str, int], filled: dict, mentions: list[Mention], taken: set[int],
                  by_slot_cands: dict, best_slot: dict, text: str) -> dict[str, list[tuple[Any, Evidence, int]]]:
    """For each slot, the other mentions of the same kind that fit this slot best of all slots, set
    apart by "and", a comma, "then"...: "$500,000 from HSBC ... and $700,000 for Wells Fargo"."""
    out: dict[str, list[tuple[Any, Evidence, int]]] = {}
    for name, i in chosen.items():
        score0 = filled[name][2]
        kind = mentions[i].kind
        if kind not in ("number", "place", "name", "date", "code", "time", "quoted") or score0 < 1.5:
            continue
        options = [(mentions[j].start, mentions[j].end, c[1], c[2]) for j, c in by_slot_cands.get(name, {}).items()
                   if j != i and j not in taken and _same_kind(mentions[j], mentions[i])
                   and best_slot.get(j, (0, ""))[1] == name
                   and (c[0] >= max(1.5, 0.6 * score0) or c[0] >= 1.5 and mentions[j].unit and
                        mentions[j].unit == mentions[i].unit)
                   and c[1] != filled[name][0] and not _is_count(mentions[j])]
        if options:
            m0 = mentions[i]
            vals = sorted(options + [(m0.start, m0.end, filled[name][0], filled[name][1])], key=lambda x: x[0])
            # values of separate calls are set apart by "and", a comma, "then"...: "in Paris and in Rome",
            # not "at the Whole Foods in Los Angeles"
            if all(_APART.search(text[a[1]:b[0]]) for a, b in zip(vals, vals[1:])):
                out[name] = [(v, e, pos) for pos, _, v, e in vals]
    return out


def _spreads_core(slots: list[Slot], filled: dict, groups: list[list[int]], mentions: list[Mention], taken: set[int],
                  cands: list, text: str, alias: dict[int, int] | None = None
                  ) -> dict[str, list[tuple[Any, Evidence, int]]]:
    """The spreads of :func:`_spreads` before their partners: by coordination, else by brackets, else
    by mentions of one kind."""
    alias = alias or {}
    by_slot_cands, best_slot = _slot_candidates(cands, alias)
    chosen = {name: alias.get(v[3][0], v[3][0]) for name, v in filled.items() if len(v[3]) == 1}
    chosen = {name: i for name, i in chosen.items() if i >= 0}
    return _coordination_spreads(groups, chosen, filled, mentions, taken, by_slot_cands, best_slot) or \
        _bracket_spreads(chosen, mentions, by_slot_cands) or \
        _kind_spreads(chosen, filled, mentions, taken, by_slot_cands, best_slot, text)


_PAIR_GAP = re.compile(r"\s*(?:to|into|->|→|/|到|换成)\s*", re.I)


def _pair_spreads(filled: dict, mentions: list[Mention], text: str) -> dict[str, list[tuple[Any, Evidence, int]]]:
    """Pairs said in a row for two arguments ("USD to AUD and USD to CAD"): one call per pair.

    Two arguments took the two members of "A to B"; every other value of that kind in the request
    sits in such a pair too, the pairs set apart by "and" or commas: each argument spreads over
    its side of the pairs (a value may repeat, which no coordination would read).

    Returns:
        ``{argument: [(value, evidence, position), ...]}`` for both sides, else ``{}``.
    """
    chosen = {name: (v[3][0], v) for name, v in filled.items() if len(v[3]) == 1 and v[3][0] >= 0}
    for a_name, (i, va) in chosen.items():
        for b_name, (j, vb) in chosen.items():
            a, b = mentions[i], mentions[j]
            if a.kind != b.kind or a.end > b.start or not _PAIR_GAP.fullmatch(text[a.end:b.start]) or \
                    (va[0], vb[0]) != (a.value, b.value):
                continue
            same = [m for m in mentions if m.kind == a.kind]
            firsts = [k for k in range(0, len(same) - 1, 2)]
            if len(same) < 4 or len(same) % 2 or same[0] is not a or not all(
                    _PAIR_GAP.fullmatch(text[same[k].end:same[k + 1].start]) for k in firsts) or not all(
                    _APART.search(text[same[k + 1].end:same[k + 2].start]) for k in firsts[:-1]):
                continue
            return {a_name: [(same[k].value, Evidence(va[1].rule, same[k].text), same[k].start) for k in firsts],
                    b_name: [(same[k + 1].value, Evidence(vb[1].rule, same[k + 1].text), same[k + 1].start)
                             for k in firsts]}
    return {}


def _clock_spreads(filled: dict, mentions: list[Mention], text: str) -> dict[str, list[tuple[Any, Evidence, int]]]:
    """Clock times said as a list ("at 8:20 and 11:50") for an hour and a minutes argument: one call each.

    The hour and minutes arguments both read one time without taking it, so the coordinations
    that spread other values never see them; each time of the list gives its hour and its minutes
    (on a clock face, when the first hour was read so: 23:50 is 11).

    Returns:
        ``{slot: [(value, evidence, position), ...]}`` for those arguments, else ``{}``.
    """
    times = [m for m in mentions if m.kind == "time"]
    if len(times) < 2 or not all(_APART.search(text[a.end:b.start]) for a, b in zip(times, times[1:])):
        return {}
    read_from = {name: v for name, v in filled.items() if v[1].rule == "time" and not v[3]}
    firsts = [m for m in times if any(m.text == v[1].words for v in read_from.values())]
    if len(firsts) != 1:
        return {}  # "opens at 9:00 and closes at 17:00": each argument has its own time
    first = firsts[0]
    parts = {name: v[0] == first.value[1] and v[0] not in (first.value[0], first.value[0] - 12)
             for name, v in read_from.items()}  # True: the minutes of the time
    if len(set(parts.values())) < len(parts):
        return {}  # two hours from one time ("open_hour", "close_hour"): no list of times
    out = {}
    for name, (value, ev, _, _) in read_from.items():
        minutes = parts[name]
        face = not minutes and value != first.value[0]
        col = []
        for m in times:
            v = m.value[1] if minutes else m.value[0] - 12 if face and m.value[0] > 12 else m.value[0]
            col.append((v, Evidence("time", m.text), m.start))
        out[name] = col
    return out


_PARTNER_KINDS = ("number", "place", "name", "date", "code", "time", "quoted")


def _partners(out: dict[str, list[tuple[Any, Evidence, int]]], filled: dict, mentions: list[Mention],
              taken: set[int], cands: list, text: str, alias: dict[int, int]) -> None:
    """Values that go with each value of a spread: "3000 sq ft in New York and 4000 sq ft in Los Angeles".

    One slot spread over n values (the cities) while another slot took one of n values of one
    kind that alternate with them through the text (the sizes), or that "respectively" pairs
    with them: that slot spreads too, one value per call, and the engine zips the two. Several
    slots of one kind ("from March 10 to March 20 ... from April 5 to April 15") take their
    run of n*k values in turn. Updates ``out`` in place.
    """
    anchor = min(out.values(), key=lambda col: col[0][2])
    n = len(anchor)
    spread_starts = {pos for col in out.values() for _, _, pos in col}
    respectively = re.search(r"\brespectively\b|分别", text, re.I) is not None
    by_slot: dict[str, dict[int, tuple[float, Any, Evidence]]] = {}
    for score, s, value, idx, ev in cands:
        if len(idx) == 1 and idx[0] >= 0:
            prev = by_slot.setdefault(s.name, {}).get(idx[0])
            if prev is None or score > prev[0]:
                by_slot[s.name][idx[0]] = (score, value, ev)
    chosen = {name: v[3][0] for name, v in filled.items() if name not in out and len(v[3]) == 1
              and 0 <= v[3][0] < len(mentions) and mentions[v[3][0]].kind in _PARTNER_KINDS}
    used = set(taken) | {i for i, m in enumerate(mentions) if m.start in spread_starts}
    # "in 2000 and 2010 ... 1.267 billion in 2000 and 1.341 billion in 2010": a spread value said
    # again labels its call; it is no partner value
    said = {str(v) for col in out.values() for v, _, _ in col}
    used |= {i for i, m in enumerate(mentions) if m.kind == "number" and str(m.value) in said}
    done: set[str] = set()
    for name, i in sorted(chosen.items(), key=lambda x: mentions[x[1]].start):
        if name in done:
            continue
        m0 = mentions[i]
        # the slots that took a value of the same kind (and unit): they share the run of values
        team = [t for t, j in chosen.items() if t not in done and _same_kind(mentions[j], m0)
                and mentions[j].unit == m0.unit]
        team.sort(key=lambda t: mentions[chosen[t]].start)
        done.update(team)
        k = len(team)
        pool = sorted({chosen[t] for t in team} | {
            j for j, m in enumerate(mentions) if j not in used and _same_kind(m, m0) and m.unit == m0.unit
            and not _is_count(m) and not _nested(mentions, m) and any(
                by_slot.get(t, {}).get(j, (0.0,))[0] >= max(0.5, 0.3 * filled[t][2]) for t in team)},
            key=lambda j: mentions[j].start)
        if len(pool) != n * k or any(pool.index(chosen[t]) % k != p for p, t in enumerate(team)):
            continue
        cols: dict[str, list[tuple[Any, Evidence, int]]] = {}
        for p, t in enumerate(team):
            col = []
            for c in range(n):
                j = pool[c * k + p]
                hit = by_slot.get(t, {}).get(j)
                if hit is None:
                    break
                col.append((hit[1], hit[2], mentions[j].start))
            if len(col) == n and len({json.dumps(v, sort_keys=True, default=str) for v, _, _ in col}) > 1:
                cols[t] = col
        if len(cols) != k:
            continue
        if respectively or all(_interleaved(anchor, col) or labelled(anchor, col, text) for col in cols.values()):
            out.update(cols)


def labelled(anchor: list, col: list, text: str) -> bool:
    """True when each value of ``col`` is said with its call's value of ``anchor`` again, in order.

    "China in 2000 and 2010, ... 1.267 billion in 2000 and 1.341 billion in 2010" (the label
    after the value) or "2021年收成1500吨，2023年收成1800吨" (before it, in the same clause): the
    repeated years say which call each value belongs to.
    """
    own = {p for _, _, p in anchor}  # the list itself is no label said again
    for (_, _, pos), (label, _, _) in zip(col, anchor):
        mark = re.compile(r"(?<![\d.])" + re.escape(str(label)) + r"(?![\d.])")
        clause = re.match(r"(?:[^,;.?!，；。？！]|[.,](?=\d)){0,40}", text[pos:]).group(0)
        after = [m for m in mark.finditer(clause) if pos + m.start() not in own]
        lo = max(0, pos - 30)
        before = [m for m in mark.finditer(text, lo, pos) if m.start() not in own
                  and not re.search(r"[\d,;?!，；。？！]|\.(?!\d)", text[m.end():pos])]
        between = re.sub(r"^\s*\D?[\d.,]+", "", clause[:after[0].start()]) if after else ""  # past the value
        if not (after and not re.search(r"\d", between) or before):
            return False
    return True


def _interleaved(a: list, b: list) -> bool:
    """True when two columns of values come in pairs through the text (each pair before the next)."""
    return all(max(a[i][2], b[i][2]) < min(a[i + 1][2], b[i + 1][2]) for i in range(len(a) - 1))


_APART = re.compile(r"\b(?:and|or|then|also|vs\.?|versus|another|respectively)\b|[,;.?!]|、|和|跟|与|或|然后|以及", re.I)


def _same_kind(a: Mention, b: Mention) -> bool:
    names = ("name", "place", "quoted")
    return a.kind == b.kind or (a.kind in names and b.kind in names)


def _message_text(message: dict) -> str:
    content = message.get("content")
    if isinstance(content, list):  # content parts: keep the text ones
        return " ".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") in ("text", "input_text"))
    return content if isinstance(content, str) else ""


def fill_schema(schema: dict, messages: list[dict]) -> tuple[dict[str, Any], list[str]]:
    """Fill a JSON Schema object (a ``response_format`` schema) from a conversation, as tool arguments are filled.

    The readers are the ones that fill tool arguments (:func:`fill_arguments`): the newest user message
    is read first; a property it does not give is looked for in the user's earlier messages, newest first.
    System and assistant messages are instructions and replies, never values. A value read only as a
    guess ("best reading": nothing in the text points at the property) is not taken: what the
    conversation does not say is reported missing, never invented.

    Args:
        schema: a JSON Schema with ``type: "object"`` and ``properties`` (``$ref`` into its ``$defs`` allowed).
        messages: Chat Completions messages (``{"role": ..., "content": str | list of parts}``).

    Returns:
        ``(values, missing)``: the values found by property name (top level; nested objects filled the same
        way), and the names of the *required* properties nothing in the conversation gives, in schema order.
        A nullable required property the conversation does not give is ``None`` in ``values``, not missing.

    Example:
        >>> fill_schema({"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
        ...              "required": ["city", "days"]},
        ...             [{"role": "user", "content": "Plan 3 days in Paris"}])
        ({'city': 'Paris', 'days': 3}, [])
    """
    texts = [t for m in reversed(messages or []) if m.get("role") == "user" and (t := _message_text(m).strip())]
    props = schema.get("properties") or {}
    values: dict[str, Any] = {}
    for text in texts:
        filled = fill_arguments(schema, text, schema)
        for key, value in filled.arguments.items():
            rule = filled.evidence[key].rule if key in filled.evidence else ""
            if key in values and values[key] is not None or rule.startswith("best reading"):
                continue
            if rule in ("nullable",) and key in values:
                continue
            values[key] = value
        if all(k in values and values[k] is not None for k in schema.get("required") or []):
            break
    values = {k: values[k] for k in props if k in values}
    missing = [k for k in props if k in (schema.get("required") or []) and k not in values]
    return values, missing
