"""Writing the final answer from tool results, grounded in them and nothing else.

After the program sends ``role: "tool"`` messages back, a model writes a sentence from
them. The mock does it with templates: the subject of each call (its place or main
argument), then every value of the result with a unit inferred from its key (``temp``
-> °C, ``humidity`` -> %). A value that is not in the results never appears in the
answer. Errors are reported as errors. Chinese questions get Chinese answers, e.g.
``{"temp": 28, "humidity": 65}`` for 上海 -> "上海现在 28°C，湿度 65%。" (seed 000 §2.1).

Units follow one convention per language, on purpose: English answers write a space before
a unit symbol as SI does ("28 °C", "65 %"), Chinese answers write none, as Chinese text
commonly does ("28°C", "65%").

A tool that *does* something (``book_flight``, ``create_task``) reports what happened, as a
sentence about the result: "Your flight from CDG to NRT on 2025-12-01 is confirmed (PNR XK42QZ)."; in
Chinese the same report reads as a Chinese sentence, when and where before the thing and the
outcome after it: "你 2025-12-01 从北京到上海的航班已确认（PNR XK42QZ）。"
A conversion says what the value is in the other unit: "100 F is 37.78 C."
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..package_data import load_json
from . import arithmetic
from . import language as lang
from .phrases import VERBS


@lru_cache(maxsize=None)
def zh_words(family: str, table: str = "words") -> dict[str, str]:
    """One word table of ``course_lib/data/zh_answer_words.json``: the Chinese words of the mock's replies.

    ``family`` is one of ``result_labels`` (table ``labels``: a result field -> its label), ``things`` (what an
    action tool acts on: ``flight`` -> 航班), ``done`` ("has been <verb>ed": ``booked`` -> 已预订) or ``arguments``
    (how a clarifying question names a missing argument: ``title`` -> 标题). Keys are lower-case English names.
    The table is read once and shared: do not modify it.

    Raises:
        KeyError: no such family or table in the data file.
    """
    return load_json("zh_answer_words.json")[family][table]


#: A result field -> the label a Chinese answer gives it (``currency`` -> 货币; ``temp`` -> "": the value alone).
_ZH_LABELS = zh_words("result_labels", "labels")

_UNITS = {"temp": "°C", "temperature": "°C", "temp_c": "°C", "temperature_c": "°C", "temp_f": "°F",
          "temperature_f": "°F", "humidity": "%", "humidity_pct": "%", "chance_of_rain": "%",
          "precipitation_probability": "%"}
_ERROR_KEYS = ("error", "err", "error_message", "detail")


def _parse(content: Any) -> Any:
    if isinstance(content, list):  # content parts: [{"type": "text", "text": ...}]
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    if isinstance(content, str):
        try:
            content = json.loads(content)
        except ValueError:
            return content.strip()
    data = content.get("untrusted_data") if isinstance(content, dict) else None
    if isinstance(data, dict) and "content" in data:
        # Tool output marked as data (lesson 05's ``as_untrusted``): the model reads the data inside
        # the wrapper, and as always only quotes it.
        return _parse(data["content"])
    return content


def _unit(key: str, args: dict, result: Any = None) -> str:
    """The unit symbol of a result field: by its name, turned to °F when the result itself or else the call
    says fahrenheit (``{"temperature": "72", "unit": "fahrenheit"}`` is 72 °F whatever was asked)."""
    unit = _UNITS.get(key.lower(), "")
    said = result if isinstance(result, dict) and ("unit" in result or "units" in result) else args
    if unit == "°C" and str(said.get("unit", said.get("units", ""))).lower().startswith("f"):
        return "°F"
    return unit


def _fmt_value(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (list, tuple)):
        return ", ".join(_fmt_value(v) for v in value[:5]) + (" …" if len(value) > 5 else "")
    if isinstance(value, dict):
        return ", ".join(f"{k} {_fmt_value(v)}" for k, v in list(value.items())[:4])
    return str(value)


def _subject(name: str, args: dict, asked: str = "") -> str:
    for v in args.values():
        if isinstance(v, str) and v:
            # a whole request passed on ("message": "Get the 2023 net profit from...", "从财务 Agent 获取公司
            # 2024 年的营收", a clause of the user's own question) names no subject: the answer would repeat it
            return v if len(v) <= 40 and not _passes_on_request(v, asked) else ""
    return " ".join(lang.split_identifier(name))


def _passes_on_request(value: str, asked: str) -> bool:
    """True for a Chinese value of clause length (12 characters or more: a name or title is shorter) that the
    user's question contains: a request passed on to another agent, not a subject. English clauses are over
    the 40 characters :func:`_subject` already leaves out."""
    v = value.strip(" 。？！.?!")
    return len(v) >= 12 and lang.is_chinese(v) and v in asked


def _lead(subject: str, text: str, sep: str = ": ") -> str:
    return f"{subject}{sep}{text}" if subject else text[:1].upper() + text[1:]


def error_of(result: Any) -> str | None:
    """The error message a tool result carries, if it is an error report."""
    if isinstance(result, dict):
        for k in _ERROR_KEYS:
            if result.get(k):
                return str(result[k])
        if result.get("ok") is False or result.get("isError") is True:
            return str(result.get("message") or result)
    if isinstance(result, str) and result.lower().startswith(("error", "tool error", "unavailable")):
        return result
    return None


#: Verbs of tools that change something, with the word that says it happened.
_DONE = {"book": "booked", "reserve": "reserved", "create": "created", "add": "added", "send": "sent",
         "schedule": "scheduled", "order": "ordered", "buy": "bought", "purchase": "purchased",
         "cancel": "cancelled", "delete": "deleted", "remove": "removed", "update": "updated", "save": "saved",
         "register": "registered", "submit": "submitted", "post": "posted", "publish": "published",
         "upload": "uploaded", "transfer": "transferred", "pay": "paid", "set": "set", "assign": "assigned"}
_FROM_KEYS = frozenset({"from", "origin", "source", "departure", "start", "src"})
_TO_KEYS = frozenset({"to", "destination", "dest", "arrival", "target", "end"})
#: A value that is a date or a clock time ("2026-12-04T15:00", "15:00"): a start or end of that kind is a when.
_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2})?|\d{1,2}:\d{2}")
_WHEN_KEYS = frozenset({"date", "day", "when", "time", "datetime"})
_PATH_KEYS = frozenset({"path", "file", "filename", "filepath", "folder", "directory", "url"})
_TITLE_KEYS = frozenset({"title", "name", "subject", "item", "product"})
_OUTCOMES = frozenset({"pending", "done", "complete", "active", "ok", "success", "successful", "open"})


def _action(name: str) -> tuple[str, str] | None:
    """``("booked", "flight")`` for ``book_flight``: the tool's verb in the past and what it acts on."""
    words = lang.split_identifier(name)
    if len(words) >= 2 and words[0] in _DONE:
        return _DONE[words[0]], " ".join(words[1:])
    return None


def _key_label(key: str) -> str:
    """``pnr`` -> "PNR", ``booking_id`` -> "booking ID": how a person writes a field name."""
    words = [w.upper() if len(w) <= 3 and w.isalpha() and w not in ("of", "to", "in", "on", "at", "by")
             else w for w in lang.split_identifier(key)]
    return " ".join(words)


_ZH_THINGS = zh_words("things")  # what an action tool acts on: flight -> 航班
_ZH_DONE = zh_words("done")  # "has been <verb>ed": booked -> 已预订
_AT_KEYS = frozenset({"restaurant", "venue", "hotel", "place", "store", "shop"})
_CLOCK_KEYS = frozenset({"time", "hour"})
#: Result fields that only say "it worked" (``"ok": true``): the sentence already says so.
_SUCCESS_FLAGS = frozenset({"ok", "success", "successful", "done"})


@dataclass
class _Done:
    """What an action tool did, read from its arguments and result, before it is put into words."""

    done: str  # the past participle of the tool's verb ("booked")
    thing: str  # what it acts on ("flight")
    origin: str | None = None
    destination: str | None = None
    date: str | None = None
    clock: str | None = None
    venue: str | None = None
    title: str | None = None
    path: str | None = None
    outcome: str | None = None  # the result's status when it says what happened ("confirmed")
    extras: list[tuple[str, Any]] = field(default_factory=list)  # other result fields, (key, value)


def _arg(args: dict, keys: frozenset[str]) -> str | None:
    return next((v for k, v in args.items() if set(lang.split_identifier(k)) & keys and isinstance(v, str) and v),
                None)


def _read_done(name: str, args: dict, result: dict) -> _Done | None:
    """The parts of an action's report (``book_flight`` + result), or None for a tool that only reads."""
    action = _action(name)
    if action is None:
        return None
    d = _Done(*action)
    d.origin, d.destination = _arg(args, _FROM_KEYS), _arg(args, _TO_KEYS)
    d.clock = _arg(args, _CLOCK_KEYS)
    d.date = _arg(args, _WHEN_KEYS - _CLOCK_KEYS) or (None if d.clock else None)
    if d.origin and _DATETIME.match(d.origin):  # a meeting's start is when it begins, not where one sets out
        d.date, d.clock = (d.date if d.date != d.origin else None) or d.origin.replace("T", " "), None
        d.origin = None
    if d.destination and _DATETIME.match(d.destination):  # ... and its end when it ends
        d.destination = None
    d.venue = _arg(args, _AT_KEYS)
    d.title = next((v for k, v in args.items() if set(lang.split_identifier(k)) & _TITLE_KEYS and isinstance(v, str)
                    and len(v) <= 60), None)
    d.path = _arg(args, _PATH_KEYS)
    said = {v.lower() for v in (d.origin, d.destination, d.date, d.clock, d.venue, d.title, d.path) if v}
    status = result.get("status")
    # an outcome ("confirmed", "pending", "sent") says what happened; a state ("todo") is one more detail
    if isinstance(status, str) and (status.endswith("ed") or status in _OUTCOMES or status in _DONE.values()):
        d.outcome = status
    d.extras = [(k, v) for k, v in result.items()
                if not (k == "status" and d.outcome) and v not in (None, "", [], {}) and str(v).lower() not in said
                and not (v is True and k.lower() in _SUCCESS_FLAGS)]
    return d


def _done_sentence(name: str, args: dict, result: dict) -> str | None:
    """"Your flight from CDG to NRT on 2025-12-01 is confirmed (PNR XK42QZ).", for a tool that does something."""
    d = _read_done(name, args, result)
    if d is None:
        return None
    where = "".join(f" {prep} {v}" for prep, v in (("at", d.venue), ("from", d.origin), ("to", d.destination),
                                                   ("on", d.date), ("at", d.clock)) if v)
    extras = [f"{_key_label(k)} {_fmt_value(v)}" for k, v in d.extras]
    tail = f" ({', '.join(extras[:4])})" if extras else ""
    if d.path:  # "saved to notes/paris.md": where the thing now is
        tail = f" {'to' if d.done in ('saved', 'uploaded', 'sent', 'posted', 'published', 'added') else 'at'} {d.path}{tail}"
    title = f" “{d.title}”" if d.title else ""
    return f"Your {d.thing}{title}{where} is {d.outcome or d.done}{tail}."


def _done_sentence_zh(name: str, args: dict, result: dict) -> str | None:
    """"你 2025-12-01 从北京到上海的航班已确认（PNR XK42QZ）": the same report as a Chinese sentence.

    Chinese puts when, then where, before the noun they describe, and the outcome after it as
    已 + verb ("has been ..."); an outcome with no Chinese word is given as 状态为 X.
    """
    d = _read_done(name, args, result)
    if d is None:
        return None
    thing = _ZH_THINGS.get(d.thing, _ZH_THINGS.get(d.thing.split()[-1], d.thing))
    before: list[str] = [v for v in (d.date, d.clock) if v]
    if d.venue:
        before += ["在", d.venue]
    if d.origin and d.destination:
        before += ["从", d.origin, "到", d.destination]
    elif d.destination:
        before += ["发给" if d.done in ("sent", "posted", "transferred", "paid") else "去", d.destination]
    elif d.origin:
        before += ["从", d.origin, "出发"]
    if d.outcome and d.outcome.lower() not in _ZH_DONE:
        state = [_ZH_DONE.get(d.done, "已" + d.done), "，状态为", d.outcome]
    else:
        state = [_ZH_DONE.get((d.outcome or d.done).lower(), "已" + d.done)]
    if d.path:
        state += ["到" if d.done in ("saved", "uploaded", "sent", "posted", "published", "added") else "在", d.path]
    extras = [f"{_ZH_LABELS.get(k.lower()) or _key_label(k)} {_fmt_value(v)}" for k, v in d.extras]
    tail = f"（{'，'.join(extras[:4])}）" if extras else ""
    return _zh_join(["你", *before, "的", thing, f"“{d.title}”" if d.title else "", *state]) + tail


def _zh_join(pieces: list[str]) -> str:
    """Pieces of a Chinese sentence, with a space where Chinese meets Latin letters or digits ("你 2025-12-01 从")."""
    out = ""
    for piece in (p for p in pieces if p):
        if out and (_cjk_end(out) != _cjk_end(piece[0])) and (out[-1].isalnum() and piece[0].isalnum()):
            out += " "
        out += piece
    return out


def _cjk_end(text: str) -> bool:
    return bool(lang.CJK.match(text[-1]))


def _conversion_sentence(name: str, args: dict, result: Any, zh: bool = False) -> str | None:
    """"100 F is 37.78 C." ("100 F 等于 37.78 C"): a conversion's answer names both quantities."""
    if "convert" not in lang.split_identifier(name):
        return None
    amount = next((v for v in args.values() if isinstance(v, (int, float)) and not isinstance(v, bool)), None)
    units = {k: v for k, v in args.items() if isinstance(v, str)}
    src = next((v for k, v in units.items() if set(lang.split_identifier(k)) & _FROM_KEYS), None)
    dst = next((v for k, v in units.items() if set(lang.split_identifier(k)) & _TO_KEYS), None)
    value = result
    if isinstance(result, dict):
        numbers = [v for v in result.values() if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if len(numbers) != 1:
            return None
        value = numbers[0]
        dst = next((v for k, v in result.items() if isinstance(v, str) and "unit" in k.lower()), dst)
    if amount is None or not isinstance(value, (int, float)) or isinstance(value, bool):
        return None
    verb, end = (" 等于 ", "") if zh else (" is ", ".")
    return f"{_fmt_value(amount)}{' ' + src if src else ''}{verb}{_fmt_value(round(value, 2))}{' ' + dst if dst else ''}{end}"


def _failed(name: str, subject: str, err: str) -> str:
    """"I could not get the weather for Atlantis: ...": the tool's own verb when its name starts with one."""
    words = lang.split_identifier(name)
    if len(words) >= 2 and (words[0] in VERBS or words[0] in _DONE):
        what = f"{words[0]} the {' '.join(words[1:])}"
    else:
        what = "get " + " ".join(words)
    return f"I could not {what} for {subject}: {err}" if subject else f"I could not {what}: {err}"


def _describe_en(name: str, args: dict, result: Any, asked: str = "") -> str:
    subject = _subject(name, args, asked)
    err = error_of(result)
    if err:
        return _failed(name, subject, err)
    if computed := arithmetic.answer(name, args, result):  # "17 × 23 = 391"
        return computed
    converted = _conversion_sentence(name, args, result)
    if converted:
        return converted
    if isinstance(result, dict) and (done := _done_sentence(name, args, result)):
        return done
    if isinstance(result, dict):
        parts = []
        for i, (k, v) in enumerate(result.items()):
            if isinstance(v, str) and v == subject:
                continue
            if k.lower() in ("unit", "units") and _unit("temperature", args, result) == "°F":
                continue  # said by the °F beside the temperature
            unit = _unit(k, args, result)
            text = f"{_fmt_value(v)}{' ' + unit if unit else ''}"
            is_temp = unit in ("°C", "°F")
            parts.append(text if is_temp and i == 0 else f"{k.replace('_', ' ')} {text}")
        return _lead(subject, ", ".join(parts)) if parts else _lead(subject, "no data")
    if isinstance(result, list):
        if not result:
            return _lead(subject, "no results")
        shown = "; ".join(_fmt_value(_title(x)) for x in result[:5])
        return _lead(subject, f"{len(result)} result{'s' if len(result) != 1 else ''}: {shown}")
    return _lead(subject, _fmt_value(result))


def _title(item: Any) -> Any:
    if isinstance(item, dict):
        for k in ("title", "name", "id", "summary"):
            if k in item:
                return item[k]
    return item


def _describe_zh(name: str, args: dict, result: Any, asked: str = "") -> str:
    subject = _subject(name, args, asked)
    err = error_of(result)
    if err:
        return f"{subject}：调用 {name} 失败（{err}）" if subject else f"调用 {name} 失败（{err}）"
    if computed := arithmetic.answer(name, args, result):
        return computed
    if converted := _conversion_sentence(name, args, result, zh=True):
        return converted
    if isinstance(result, dict) and (done := _done_sentence_zh(name, args, result)):
        return done
    if isinstance(result, dict):
        parts = []
        for k, v in result.items():
            if isinstance(v, str) and v == subject:
                continue
            unit = _unit(k, args, result)
            label = _ZH_LABELS.get(k.lower(), k)
            parts.append(f"{label + ' ' if label else ''}{_fmt_value(v)}{unit}")
        lead = "现在 " if any(_unit(k, args, result) in ("°C", "°F") for k in result) else "："
        return f"{subject}{lead}{'，'.join(parts)}" if subject else "，".join(parts)
    if isinstance(result, list):
        return f"{subject + '：' if subject else ''}共 {len(result)} 条结果：" + "；".join(
            _fmt_value(_title(x)) for x in result[:5])
    return f"{subject}：{_fmt_value(result)}" if subject else _fmt_value(result)


#: "Should I take an umbrella?": what each thing one takes along is for, read from a weather result.
_ADVICE = (
    (re.compile(r"umbrella|raincoat|rain ?jacket|wellies|雨伞|带伞|伞|雨衣", re.I),
     re.compile(r"rain|drizzl|shower|storm|thunder|雨", re.I), "rain"),
    (re.compile(r"sunscreen|sun ?cream|sunglasses|\bhat\b|防晒|墨镜|太阳镜", re.I),
     re.compile(r"sun|clear|晴", re.I), "sun"),
    (re.compile(r"\b(?:coat|jacket|sweater|jumper|scarf|gloves)\b|外套|大衣|毛衣|围巾", re.I), None, "cold"),
)
_TEMP_KEYS = ("temp_c", "temperature_c", "temp", "temperature", "temp_f", "temperature_f")
#: "Is it colder in Oslo than in Madrid?", "哪个更冷": a comparison of two results by temperature.
_COMPARE = re.compile(r"\b(colder|cooler|chillier|warmer|hotter)\b|(更冷|更凉|更暖和?|更热|冷一些|热一些|"
                      r"(?<=[\u4e00-\u9fff])(?:冷|凉|暖和|热)(?=吗|么|不|[？?]))", re.I)


def _temperature(result: Any) -> float | None:
    if not isinstance(result, dict):
        return None
    for k in _TEMP_KEYS:
        if isinstance(result.get(k), (int, float)):
            return float(result[k])
    return None


def _condition(result: Any) -> str:
    if not isinstance(result, dict):
        return str(result)
    return " ".join(str(v) for k, v in result.items() if isinstance(v, str) and k.lower() in (
        "condition", "conditions", "summary", "weather", "description", "forecast", "sky"))


def advice(results: list[tuple[str, dict, Any]], question: str) -> str | None:
    """A yes/no answer to "Should I take an umbrella?" read from weather results already given, or None.

    Rain words in the condition say yes to an umbrella, sun to sunscreen, a temperature under 12 °C to a
    coat; the answer quotes the values it rests on (lesson 01: the model answers only from tool results).
    """
    zh = lang.is_chinese(question)
    for asked, rx, kind in _ADVICE:
        thing = asked.search(question)
        if not thing:
            continue
        for name, args, content in results:
            result = _parse(content)
            cond, temp = _condition(result), _temperature(result)
            if kind == "cold":
                if temp is None:
                    continue
                yes = temp < 12
            else:
                if not cond:
                    continue
                yes = bool(rx.search(cond))
            subject = _subject(name, args)
            said = ("，" if zh else ", ").join(x for x in (cond, f"{_fmt_value(temp)} °C" if temp is not None else "") if x)
            if zh:
                return (f"{'要' if yes else '不用'}带{thing.group(0).lstrip('带')}：{subject}现在是{said}。")
            what = thing.group(0).lower()
            article = "" if what.endswith("s") or what in ("sunscreen", "sun cream") else \
                "an " if what[0] in "aeiou" else "a "
            return (f"Yes, take {article}{what}: {subject} reports {said}." if yes else
                    f"No {what} needed: {subject} reports {said}.")
    return None


def comparison(results: list[tuple[str, dict, Any]], question: str) -> str | None:
    """"Is it colder in Oslo than in Madrid?" answered from two temperature results, or None."""
    m = _COMPARE.search(question)
    temps = [(_subject(n, a), _temperature(_parse(c))) for n, a, c in results]
    temps = [(who, t) for who, t in temps if t is not None]
    if not m or len(temps) != 2:
        return None
    word = (m.group(1) or m.group(2)).lower()
    warmer_asked = word in ("warmer", "hotter") or any(w in word for w in ("暖", "热"))
    (a, ta), (b, tb) = temps
    if ta == tb:
        return f"{a}和{b}一样：都是 {_fmt_value(ta)} °C。" if lang.is_chinese(question) else \
            f"Neither: {a} and {b} are both {_fmt_value(ta)} °C."
    first_is = (ta > tb) if warmer_asked else (ta < tb)
    if re.search(r"\b(?:which|where)\b|哪个|哪里|哪儿|哪边", question, re.I):  # "which is colder?": name it
        who = a if first_is else b
        if lang.is_chinese(question):
            return f"{who}更{'热' if warmer_asked else '冷'}：{a} {_fmt_value(ta)} °C，{b} {_fmt_value(tb)} °C。"
        adjective = m.group(1).lower() if m.group(1) else ("warmer" if warmer_asked else "colder")
        return f"{who} is {adjective}: {a} {_fmt_value(ta)} °C, {b} {_fmt_value(tb)} °C."
    if lang.is_chinese(question):
        adj = "热" if warmer_asked else "冷"
        lead = f"是的，{a}比{b}{adj}" if first_is else f"不，{a}没有{b}{adj}"
        return f"{lead}：{a} {_fmt_value(ta)} °C，{b} {_fmt_value(tb)} °C。"
    adjective = word if m.group(1) else ("warmer" if warmer_asked else "colder")
    if first_is:
        return f"Yes: {a} ({_fmt_value(ta)} °C) is {adjective} than {b} ({_fmt_value(tb)} °C)."
    return f"No: {a} ({_fmt_value(ta)} °C) is not {adjective} than {b} ({_fmt_value(tb)} °C)."


def compose_answer(results: list[tuple[str, dict, Any]], question: str) -> str:
    """The final answer for a list of ``(tool name, arguments, tool message content)``.

    Args:
        results: one entry per tool call answered since the user's last message.
        question: the user's last message (its language picks the answer's language).

    Returns:
        One or more sentences that state only values present in the results.

    Example:
        >>> compose_answer([("get_weather", {"city": "Shanghai"}, '{"temp": 28, "humidity": 65}')], "Weather?")
        'Shanghai: 28 °C, humidity 65 %.'
    """
    zh = lang.is_chinese(question)
    if not any(error_of(_parse(c)) for _, _, c in results):
        special = comparison(results, question) or advice(results, question)
        if special:
            return special
    base = _describe_zh if zh else _describe_en

    def describe(name: str, args: dict, result: Any) -> str:
        return base(name, args, result, question)
    parsed = [(name, args, _parse(content)) for name, args, content in results]
    sentences = []
    used: set[int] = set()
    for i, (name, args, result) in enumerate(parsed):
        if i in used:
            continue
        err = error_of(result)
        j = _replacement(parsed, i, used) if err else None
        if j is None:
            sentences.append(describe(name, args, result))
            continue
        # a fallback that worked: say what failed, what was used instead, and what it gave
        used.add(j)
        other = parsed[j][0]
        found = describe(*parsed[j])
        if zh:
            sentences.append(f"{name} 调用失败（{_short(err)}），我改用了 {other}：{found}")
        else:
            sentences.append(f"{name} did not work ({_short(err)}), so I used {other} instead. {found}")
    return join_sentences(sentences, zh)


#: Punctuation that ends a sentence, ASCII and full-width: no period goes after it ("。。", "？.").
_ENDS = (".", "!", "?", "。", "！", "？")


def join_sentences(sentences: list[str], zh: bool) -> str:
    """Sentences joined into one answer, each ended once whatever punctuation a tool's text already brought.

    Args:
        sentences: pieces, possibly ending in "。", "；", "." or nothing (a tool result's own text).
        zh: join the Chinese way (clauses by "；", one "。" at the end) rather than by spaces and periods.

    Returns:
        The answer: ``["北京：晴，25°C。", "上海：多云"]`` -> ``"北京：晴，25°C；上海：多云。"``; in English
        ``["Paris: 晴。", "Rome: sunny"]`` -> ``"Paris: 晴。 Rome: sunny."``.
    """
    pieces = [s.strip() for s in sentences if s and s.strip()]
    if zh:
        out = ""
        for s in pieces:
            s = s.rstrip("；;，,、")
            if s.endswith("。"):
                s = s.rstrip("。")
            if out and not out.endswith(_ENDS):
                out += "；"
            out += s
        return out if out.endswith(_ENDS) else out + "。"
    return " ".join(s if s.endswith(_ENDS) else s + "." for s in pieces)


def _short(err: str, limit: int = 120) -> str:
    err = err.strip().rstrip(".")
    return err if len(err) <= limit else err[: limit - 1].rstrip() + "…"


def _replacement(parsed: list[tuple[str, dict, Any]], i: int, used: set[int]) -> int | None:
    """The later successful call of another tool that stood in for failed call ``i`` (same subject first)."""
    name, args, _ = parsed[i]
    later = [j for j in range(i + 1, len(parsed)) if j not in used and parsed[j][0] != name
             and not error_of(parsed[j][2])]
    subject = _subject(name, args)
    same = [j for j in later if subject and _subject(parsed[j][0], parsed[j][1]) == subject]
    return (same or later or [None])[0]
