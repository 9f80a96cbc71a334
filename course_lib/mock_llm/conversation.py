"""The conversation around the last request: earlier turns, answers to questions, text replies.

Reads the turn (the user's last message, the tool results after it, the assistant's question
before it), completes a call from the user's answer to a clarifying question, follows up on the
previous turn ("and in Tokyo?"), answers from results already in the conversation, and writes the
text replies that need no call: courtesy, clarifying questions, "no tool fits".
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from . import followups
from . import gazetteer as gz
from . import paths
from . import language as lang
from . import unit_enums
from .answer import advice, zh_words
from .arguments import Evidence, slots_of
from .decision import PlannedCall
from .planning import _calls_for, plan_calls
from .reading import read
from .reading import read_limited
from .wire import ToolSpec


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


def _text_of(message: dict) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return " ".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content or ""


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


#: The end of a labelled value: a line break, a semicolon, or a comma before the next label ("Title: 1:1, Date: ...").
_VALUE_END = r"(?=\s*(?:[\n;；]|[,，、]\s*(?:{labels})\s*[:：]|$))"


def _labels_of(name: str) -> list[str]:
    """How a reply may label argument ``name``: its name, its words ("start time"), its Chinese word (标题)."""
    words = lang.split_identifier(name)
    zh = zh_words("arguments").get(name.lower())
    return list(dict.fromkeys([name, " ".join(words), *([zh] if zh else [])]))


def _labelled_answers(reply: str, tool: ToolSpec) -> tuple[dict[str, Any], str]:
    """The values a reply gives under labels ("Title: 1:1", "标题：周会", "Attendees: Ana, Ben"), and the reply
    without them.

    A label is an argument's name, its words or its Chinese word, then a colon; its value is everything up to
    the end of the line, a semicolon or the next label, taken whole ("1:1" is a title, not a time). Only string
    arguments that are no date or time (their reading turns "tomorrow 3pm" into a date) and lists of strings
    (split at commas, 、 and "and"/和) are taken: other values stay in the text for the usual reading.
    """
    taken = {sl.name: sl for sl in slots_of(tool.parameters) if not sl.options and sl.role not in ("date", "time")
             and (sl.kind == "string" or sl.kind == "array" and sl.item_kind in ("string", ""))}
    by_label = {lab.lower(): sl for sl in taken.values() for lab in _labels_of(sl.name)}
    if not by_label:
        return {}, reply
    every = "|".join(re.escape(lab) for sl in slots_of(tool.parameters) for lab in _labels_of(sl.name))
    alts = "|".join(sorted(map(re.escape, by_label), key=len, reverse=True))
    rx = re.compile(rf"(?:^|(?<=[\n;；,，、]))\s*({alts})\s*[:：]\s*(.+?){_VALUE_END.format(labels=every)}",
                    re.I | re.M)
    values: dict[str, Any] = {}
    for m in rx.finditer(reply):
        sl, value = by_label[m.group(1).lower()], m.group(2).strip().strip("\"'“”‘’")
        if value:
            values[sl.name] = value if sl.kind == "string" else [
                v.strip() for v in re.split(r"\s*(?:[,，、]|\band\b|和)\s*", value) if v.strip()]
    return values, rx.sub("", reply).strip(" \n,，;；") if values else reply


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
    labelled, text = _labelled_answers(turn.question, tool)
    replies = _calls_for(tool, text)
    reply = replies[0]
    joined = _calls_for(tool, f"{turn.asked_after.rstrip(' .?!。？！')}. {text}")[0]
    args = {**joined.arguments, **before.arguments, **reply.arguments, **labelled}
    evidence = {**joined.evidence, **before.evidence, **reply.evidence,
                **{k: Evidence("the labelled reply to the question", str(v)) for k, v in labelled.items()}}
    props = tool.parameters.get("properties") or {}
    required = [r for r in tool.parameters.get("required") or [] if r in props]
    for name, words in _bare_answers(text, [r for r in required if r not in args], props, evidence):
        args[name], evidence[name] = words, Evidence("the reply to the question about it", words)
    asked = _asked_argument(turn.asked, tool)
    if asked and asked not in labelled and len(replies) == 1:  # "What is the order ID?" -> "It's O1.": the reply is that value
        typed = reply.arguments.get(asked) if reply.evidence.get(asked) and reply.evidence[asked].rule not in (
            "words", "the request without its framing") and not reply.evidence[asked].rule.startswith("best reading") else None
        bare = _POLITE.sub("", turn.question.strip().rstrip(".!?。！？")).strip()
        if isinstance(typed, str) and bare and bare != typed and bare in typed:
            typed = None  # "It's O1" read whole: the value is what is left without the polite lead
        if typed is not None or (bare and len(bare.split()) <= 6 and _kind(props.get(asked)) == "string"
                                 and _allowed(props.get(asked), bare)):
            args[asked] = typed if typed is not None else bare
            evidence[asked] = Evidence("the reply to the question about it", turn.question.strip())
    _join_named_path(tool, f"{turn.asked_after.rstrip(' .?!。？！')} {text}", args, evidence)
    if args == before.arguments:
        return []  # the reply gives nothing for this tool
    if len(replies) > 1:  # "Paris and Tokyo": one call each, with what the first message gave
        return [PlannedCall(tool.name, {k: v for k, v in {**args, **r.arguments}.items()}, {**evidence, **r.evidence},
                            [q for q in required if q not in {**args, **r.arguments}]) for r in replies]
    return [PlannedCall(tool.name, {k: args[k] for k in props if k in args}, evidence,
                        [r for r in required if r not in args])]


def _join_named_path(tool: ToolSpec, text: str, args: dict, evidence: dict) -> None:
    """"make a new directory called backups" -> "Where?" -> "in /Users/alice": the name the request gave inside
    the directory the reply gives is one path (``/Users/alice/backups``), as in a single message
    (:func:`.paths.named_inside`); the reply's directory alone is not the path asked for."""
    inside = paths.named_inside(text)
    slot = paths.path_slot(tool.parameters) if inside else None
    if slot is not None:
        args[slot], evidence[slot] = inside, Evidence("name inside a directory, across the question", inside)


#: What a question asks about when it names no argument: "What is the meeting *about*?" -> its topic.
_ASKED_ABOUT = {"about": ("topic", "subject", "title", "summary", "purpose", "agenda")}


def _kind(spec: Any) -> str:
    t = spec.get("type") if isinstance(spec, dict) else None
    return t if isinstance(t, str) else "string"


def _allowed(spec: Any, value: str) -> bool:
    """Whether a bare reply ``value`` may stand as the value of ``spec``: any text for a free string, only one of
    the options (case aside) for an enum ("off" is no room of ``["kitchen", "bedroom"]``: the mock asks again)."""
    options = spec.get("enum") if isinstance(spec, dict) else None
    return not options or value.casefold() in {str(o).casefold() for o in options}


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


#: "on", "at", 在: the words that tie a date or time to the rest of a reply part ("Dentist on 2026-12-03 at 10:00").
_WHEN_TIE = re.compile(r"(?:\s+(?:on|at|from|by)|在|于)\s*$", re.I)


def _without_when(part: str) -> str:
    """A reply part without the dates and times it ends with, which other arguments take: "Dentist on
    2026-12-03 at 10:00" -> "Dentist" (the answer to "I need the title and date"); a part that is only a
    date or time, or has one in its middle ("meet at 3pm in Rome"), stays as it is."""
    spans = [m for m in read(part).mentions if m.kind in ("date", "time")]
    rest = part
    for m in sorted(spans, key=lambda m: -m.start):
        if rest[m.end:].strip():
            return part  # words after the date or time: no value stands alone in front of it
        rest = _WHEN_TIE.sub("", rest[:m.start].rstrip())
    return rest.strip() if spans and rest.strip() else part


def _bare_answers(reply: str, missing: list[str], props: dict, evidence: dict) -> list[tuple[str, str]]:
    """The parts of a reply that are nothing but a value ("海底捞", "全聚德，4个人"), for the string
    arguments still missing, in order: a short part that no other argument was read from."""
    if not missing:
        return []
    used = " ".join(str(e.words) for e in evidence.values() if isinstance(e, Evidence))
    free = []
    for part in re.split(r"[，,、;；。.!！?？\n]+", reply):
        part = _POLITE.sub("", _without_when(part.strip())).strip()
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
    than the ones already made), as a model rereads its context before calling again: advice from a
    weather result, else the fields or list items that answer the question (:mod:`.followups`: "When will
    it arrive?" after an order status, "Which day is sunny?" after a forecast).
    """
    if turn.done or turn.last_user < 1:
        return None
    earlier = _earlier_results(messages, turn.last_user)
    if not earlier:
        return None
    made = {name + json.dumps(args, sort_keys=True, ensure_ascii=False) for name, args, _ in earlier}
    if any(not c.missing and c.key() not in made for c in plan):
        return None  # a new city, a new thing: call again
    return advice(earlier, turn.question) or followups.answer(earlier, turn.question)


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
        return f"要调用 {call.name}，我还需要知道{_named_zh(missing)}。请补充一下？"
    return f"To use {call.name} I need the {what}. Could you tell me?"


def _named_zh(missing: list[str]) -> str:
    """"标题（`title`）和参会人（`attendees`）": missing arguments named in Chinese words, each argument name kept
    in backticks (``course_lib/data/zh_answer_words.json``); a name with no Chinese word is given in backticks alone."""
    words = zh_words("arguments")
    named = [f"{words[m.lower()]}（`{m}`）" if m.lower() in words else f"`{m}`" for m in missing]
    return "、".join(named[:-1]) + "和" + named[-1] if len(named) > 1 else named[0]


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
