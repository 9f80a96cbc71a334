"""Meaning beyond shared words: the word relations the mock uses to choose a tool.

"Add milk to my todo list" asks a ``create_task`` tool, "what's in this folder?" a ``list_directory``
tool, "What are MSFT and GOOG trading at?" a stock price tool, 闹钟 a reminder tool: a model knows
that these words mean the tools' words although they share none. The mock knows it from a file of
relations, ``course_lib/data/word_relations.json``, kept as data a learner can read and extend:

* **synonyms**: words that name the same thing, both ways (todo ~ task, folder ~ directory), as a
  WordNet synset groups them;
* **broader**: a request word and the broader words a tool may be named after, one way (multiply ->
  calculator, alarm -> reminder, inbox -> email), as a WordNet hypernym;
* **phrases**: expressions whose meaning is more than their words ("trading at" -> stock price,
  "look up" -> search, "what's in this folder" -> list directory);
* **zh**: Chinese words and the English concepts they ask for (文件夹 -> folder, 行情 -> stock price).

:func:`concepts` gives the stems these relations add to a request's own; the engine scores tools on
both. A relation only widens what the request is *about*: it never supplies an argument value, and a
tool still needs its own strong words to be called (the engine's threshold), so a request that merely
shares a related word with an unrelated tool stays unanswered (``benchmarks/bfcl.py`` irrelevance).

Why a curated file and not a package: WordNet (``nltk``'s or ``wn``'s data) is fetched from the
internet at first use, which the offline course cannot do, and its synsets are broad (``table`` ~
``board``); the relations tool requests need are few and everyday. Loading the file costs about a
millisecond, once.
"""
from __future__ import annotations

import re
from functools import lru_cache

from . import language as lang
from ..package_data import load_json

FAMILIES = ("synonyms", "broader", "phrases", "zh")


@lru_cache(maxsize=1)
def load() -> dict:
    """The relations file as read (``{"synonyms": {"groups": [...]}, "broader": ..., "phrases": ..., "zh": ...}``)."""
    return load_json("word_relations.json")


def _stem(word: str) -> str:
    return word if lang.is_chinese(word) else lang.stem(word.lower())


@lru_cache(maxsize=1)
def _tables() -> tuple[dict[str, frozenset[str]], tuple[tuple[re.Pattern[str], frozenset[str]], ...],
                       tuple[tuple[str, frozenset[str]], ...]]:
    """``(stem -> related stems, (phrase pattern, stems), (Chinese word, stems))``, built once."""
    data = load()
    words: dict[str, set[str]] = {}
    for group in data["synonyms"]["groups"]:
        stems = {_stem(w) for w in group}
        for st in stems:
            words.setdefault(st, set()).update(stems - {st})
    for word, broader in data["broader"]["groups"].items():
        words.setdefault(_stem(word), set()).update(_stem(w) for w in broader)
    phrases = tuple((re.compile(r"(?<![\w'])(?:" + rx + r")(?![\w])", re.I), frozenset(_stem(w) for w in ws))
                    for rx, ws in data["phrases"]["groups"].items())
    zh = tuple((word, frozenset(_stem(w) for w in ws)) for word, ws in data["zh"]["groups"].items())
    return {k: frozenset(v) for k, v in words.items()}, phrases, zh


@lru_cache(maxsize=1)
def _zh_meet_with() -> re.Pattern[str]:
    """约 + a person's name ("约张伟和李娜明天下午3点讨论预算", "明天约老王"): arranging to meet someone, as
    约个 is; a name is a common surname (or 小/老) and more characters (``course_lib/data/zh_people.json``).
    大约, 节约, 约10公里 ("about") are not: no name follows or 约 belongs to the word before."""
    people = load_json("zh_people.json")
    names = "|".join(people["two_character_surnames"] + [f"[{people['surnames']}{people['familiar_prefixes']}]"])
    return re.compile(rf"(?<![大节签合预隐制条婚契])约(?:{names})[\u4e00-\u9fff]")


@lru_cache(maxsize=1)
def _any_phrase() -> re.Pattern[str]:
    """Every phrase pattern of the relations in one alternation: it finds a match wherever one of them does
    (each alternative is tried, with backtracking, at every position), so no match means none of them matches."""
    alternatives = "|".join(f"(?:{rx})" for rx in load()["phrases"]["groups"])
    return re.compile(r"(?<![\w'])(?:" + alternatives + r")(?![\w])", re.I)


def related(word: str) -> frozenset[str]:
    """The stems a single word relates to by synonym or broader word (``"todo"`` -> ``{"task", "chore", ...}``)."""
    return _tables()[0].get(_stem(word), frozenset())


@lru_cache(maxsize=2048)
def concepts(text: str, stems: frozenset[str]) -> frozenset[str]:
    """The concept stems the relations add to a request (``stems``: the request's own), without those.

    Example:
        >>> sorted(concepts("What's in this folder?", frozenset({"folder"})))
        ['dir', 'directory', 'file', 'list']
    """
    words, phrases, zh = _tables()
    out: set[str] = set()
    for st in stems:
        out.update(words.get(st, ()))
    if _any_phrase().search(text):  # most requests say none of the phrases: one scan instead of one each
        for rx, related_stems in phrases:
            if rx.search(text):
                out.update(related_stems)
    if not text.isascii():
        for word, related_stems in zh:
            if word in text:
                out.update(related_stems)
        if _zh_meet_with().search(text):  # 约张伟明天开会: 约 + a name, as 约个会
            out.update(dict(zh).get("约个", ()))
    return frozenset(out - stems)
