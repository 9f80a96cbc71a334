"""Follow-up questions answered from a tool result already in the conversation.

After ``get_order_status`` returned ``{"status": "shipped", "estimated_delivery": "2026-12-08"}``, "When will it
arrive?" is answered from that result, as a model rereads its context: no new call and no "none of my tools can
help". A field answers when its name shares a word with the question or with what the question word asks for
("when" -> a date, time or delivery field; "Which carrier?" -> ``carrier``; 它什么时候到？ likewise), and an item
of a list answers "Which day is sunny?" by the value it holds (its date). Words are data
(``course_lib/data/result_questions.json``). A question the result does not answer gets None here: the caller
then calls the tool again when the tool's own words name what is asked, or says the result does not say.
Taught in lesson 01 (the model answers from tool results).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from . import language as lang
from .reading import read
from .answer import _fmt_value, _key_label, _parse, _subject, _unit, error_of, join_sentences, zh_words
from ..package_data import load_json

#: Question words that carry no topic of their own ("what", "is", "it"): never matched against field names.
_QUESTION_WORDS = frozenset(lang.stem(w) for w in "what when where which who whom whose why how is are was were will "
                            "would does do did can could has have it its they them this that the my me please tell "
                            "show say day".split())


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    d = load_json("result_questions.json")
    asks = {(k if lang.is_chinese(k) else lang.stem(k)): frozenset(lang.stem(w) for w in v) for k, v in d["asks"].items()}
    return {"asks": asks, "labels": tuple(d["labels"]), "question": re.compile(d["question"], re.I)}


def is_question(text: str) -> bool:
    """Whether ``text`` asks something ("When will it arrive?", "Which day is sunny", 它什么时候到)."""
    return _data()["question"].search(text) is not None


def _leaves(value: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """``(key path, scalar)`` of every scalar inside a result (lists of scalars count as one value)."""
    if isinstance(value, dict):
        return [x for k, v in value.items() for x in _leaves(v, path + (str(k),))]
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return [x for v in value for x in _leaves(v, path)]
    return [(path, value)] if path else []


def _wanted(question: str, args: dict) -> tuple[set[str], set[str]]:
    """``(topic stems, field words the question words ask for)``; the call's own argument names and values
    (the order id, the city) are the subject, not what is asked."""
    asks = _data()["asks"]
    subject = {s for k, v in args.items() for s in lang.content_stems(f"{k} {v}")}
    question = re.sub(r"'s\b|'re\b|'ll\b", "", question)
    stems = [s for s in lang.content_stems(question) if s not in _QUESTION_WORDS and s not in subject]
    stems += [lang.stem(w) for w in re.findall(r"\b(?:when|where|who|much|many|long)\b", question, re.I)]
    topic = {s for s in stems if s not in asks} | set(lang.chinese_concepts(question))
    asked = {w for s in stems if s in asks for w in asks[s]}
    asked |= {w for zh, words in asks.items() if lang.is_chinese(zh) and zh in question for w in words}
    return topic - subject, asked


def _field_score(path: tuple[str, ...], topic: set[str], asked: set[str]) -> int:
    words = [lang.stem(w) for w in lang.split_identifier(path[-1])]
    return 2 * sum(any(lang.word_matches(w, t) for t in topic) for w in words) + sum(w in asked for w in words)


def _by_field(name: str, args: dict, result: Any, question: str) -> str | None:
    """The fields whose names answer the question, as one sentence; None when none does."""
    topic, asked = _wanted(question, args)
    leaves = [(p, v) for p, v in _leaves(result) if not isinstance(v, (dict, list)) or v]
    scored = [(_field_score(p, topic, asked), p, v) for p, v in leaves]
    best = max((s for s, _, _ in scored), default=0)
    if best < 1:
        return None
    hits = [(p, v) for s, p, v in scored if s == best][:3]
    zh = lang.is_chinese(question)
    labels = zh_words("result_labels", "labels") if zh else {}
    said = [f"{labels.get(p[-1].lower(), _key_label(p[-1]))} {_fmt_value(v)}{_unit(p[-1], args, result)}"
            for p, v in hits]
    subject = _subject(name, args, question)
    return f"{subject}{'：' if zh else ': '}{('，' if zh else ', ').join(said)}"


def _dates_asked(question: str) -> set[str]:
    """The dates the question names ("on Saturday", 周六), as ISO strings."""
    out = set()
    for m in read(question).of_kind("date"):
        if isinstance(m.value, tuple) and len(m.value) == 3 and all(isinstance(x, int) for x in m.value):
            out.add("%04d-%02d-%02d" % m.value)
    return out


def _by_value(name: str, args: dict, result: Any, question: str) -> str | None:
    """"Which day is sunny?": the items of a list in the result whose values hold a word of the question,
    named by their label field (date, day, name); "Will it rain on Saturday?": that date's item, yes or no.
    None when the result has no such list, no word asked, or no item of the date asked."""
    items = [v for v in (result.values() if isinstance(result, dict) else [result]) if isinstance(v, list)]
    items = [x for lst in items for x in lst if isinstance(x, dict)]
    topic, _ = _wanted(question, args)
    dates = _dates_asked(question)
    labelled = [(next((item[k] for k in _data()["labels"] if k in item), None), item) for item in items]
    labelled = [(label, item) for label, item in labelled if label is not None
                and (not dates or any(str(label).startswith(d) for d in dates))]
    if not labelled or not topic:
        return None
    zh = lang.is_chinese(question)
    found, other = [], []
    for label, item in labelled:
        texts = [v for v in item.values() if isinstance(v, str) and v != label]
        hit = next((v for v in texts if any(lang.matches_any(t, set(lang.content_stems(v)) |
                                                              set(lang.chinese_concepts(v))) for t in topic)), None)
        shown = hit or ", ".join(texts)
        (found if hit else other).append(f"{_fmt_value(label)}（{shown}）" if zh else f"{_fmt_value(label)} ({shown})")
    subject = _subject(name, args, question)
    lead = f"{subject}{'：' if zh else ': '}"
    if dates:  # a yes/no question about the days named
        yes = bool(found)
        return (("是的，" if yes else "不，") if zh else ("Yes, " if yes else "No, ")) + lead + (
            "、" if zh else ", ").join(found or other)
    return lead + ("、" if zh else ", ").join(found) if found else None


def answer(results: list[tuple[str, dict, str]], question: str) -> str | None:
    """The answer to a follow-up question from earlier tool results, or None when they do not hold it.

    Args:
        results: ``(tool name, arguments, result content)`` of the last round of calls before the question.
        question: the user's new message.

    Returns:
        One sentence quoting the result ("A-1042: estimated delivery 2026-12-08."; "Paris: 2026-12-06
        (sunny)."), in the question's language; None for a message that asks nothing, a failed result, or a
        question no field and no list item of the results answers.
    """
    if not is_question(question):
        return None
    sentences = []
    for name, args, content in results:
        result = _parse(content)
        if not isinstance(result, (dict, list)) or error_of(result):
            continue
        said = _by_value(name, args, result, question) or _by_field(name, args, result, question)
        if said:
            sentences.append(said)
    return join_sentences(sentences, lang.is_chinese(question)) if sentences else None




#: A question that points back at what was found ("it", "its", "that", "the ...", 它, 这个): about the earlier result.
_REFERS_BACK = re.compile(r"\b(?:it|its|it's|that|this|they|them|their|the)\b|它|这个|那个|这|那", re.I)


def refers_back(question: str) -> bool:
    """Whether ``question`` asks about the earlier result ("What's its tracking number?", 它多重？)."""
    return is_question(question) and _REFERS_BACK.search(question) is not None


def asked_topic(question: str, args: dict) -> set[str]:
    """The stems of what ``question`` asks about, without question words and the earlier call's subject."""
    return _wanted(question, args)[0]


def not_in_result(name: str, args: dict, question: str) -> str:
    """The honest reply when the earlier result of ``name`` does not hold what a follow-up asks, and the tool
    does not say it gives it: "The get_order_status result (A-1042) does not say that; I have no tool that does." """
    subject = _subject(name, args, question)
    if lang.is_chinese(question):
        return f"{name} 的结果（{subject}）里没有这一项，我的工具也查不到它。"
    return f"The {name} result ({subject}) does not say that, and none of my tools gives it."
