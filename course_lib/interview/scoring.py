"""Scoring a typed answer against a question's framework: which points did it make?

Interviewers listen for the structure of an answer: did the candidate name the five
layers, mention ``tool_call_id``, say *why*? The scorer approximates that by looking for
each framework point's and bonus point's keywords in the answer:

* text is compared case-insensitively, with ``_``, ``-`` and ``/`` read as spaces (so
  ``tool_call_id``, ``tool-call id`` and ``Tool Call ID`` are the same words);
* an English keyword of 4+ characters matches at the start of a word and may continue
  (``validat`` matches "validation", "validates"); shorter ones must be whole words
  (``sse`` does not match "assessment");
* a keyword containing CJK characters matches anywhere (Chinese has no spaces);
* a point written in Chinese (a question of ``load_bank(lang="zh")``) is also matched on the Chinese text
  itself: the answer makes it when it shares enough of the point's character bigrams (two adjacent Han
  characters, the usual unit of Chinese text retrieval since words are not separated), each bigram
  weighted by how rare it is among all the bank's Chinese points (inverse document frequency: 工具 or 模型
  occur everywhere and say little, 幂等 or 退避 say a lot). At least :data:`BIGRAM_COVERAGE` of the point's
  weight must be present (:func:`bigram_coverage`). English keywords still apply, so an answer in English to
  a Chinese card scores as it would on the English card.

Rules that keep vocabulary alone from scoring well, and let meaning in other words score:

* **a point needs a sentence, not just its word.** A keyword counts fully only inside a
  statement: a segment (a clause, between ``.``, ``;``, ``!``, ``?``, line breaks or list bullets, cut
  again at commas and 、) that, once the question's keywords are taken out, still says something: 2+
  words of its own, a verb (``is``, ``has``, ``must``...), or 1 word and a relating one (``to``,
  ``with``, ``not``); in Chinese 4+ Han characters, or 2+ with a 的/是/把/不/只/然后... (:func:`is_statement`);
  a label before a colon counts when what follows says anything. A point whose keywords appear only in a
  bare list is *named* and earns :data:`NAMED_WEIGHT` of its weight (shown ``~``); a mostly listed answer
  gets the hint to explain each point (:attr:`AnswerScore.listed`);
* **a paraphrase counts.** ``course_lib/data/interview_synonyms.json`` groups a keyword with the words an
  answer may use for it (``meaning``: 含义, 语义, 意义): any of them matches the keyword, and the Chinese
  ones are read as one word in the bigram comparison (:func:`canonical`), so 只保证格式，不保证语义
  makes "shape, not meaning" (no segmenter is installed in the course's environment: bigrams stay);
* **a point said against itself is not made.** A segment that denies the point ("the server does not request
  completions", 服务器不会请求) or says one of its relations the other way round ("the model requests a completion
  from the server" for "the server requests a completion from the host's model"; passives read as such) does
  not count for it, nor does its label (:func:`contradicts`, :func:`consistent_part`; the parties and negation
  words are data: ``course_lib/data/interview_relations.json``). Denying the reversed claim agrees, and so do
  two denials of one thing ("does not need an API key" = "needs no API key");
* **a pitfall stated as true counts against the answer.** A question's ``pitfall_claims``
  (:class:`~course_lib.interview.bank.PitfallClaim`) are phrases that state one of its
  pitfalls ("the model calls the API"); when one occurs, the point it contradicts is not
  made, whatever its keywords, and the answer loses 20 per pitfall stated.

Score: 100 × (points made + 0.2 × points only named) / framework points + 10 per bonus point,
capped at 100, minus 20 per pitfall stated; a late answer (over the question's time budget)
loses 20. Deliberate shortcut: this still reads words, not meaning, so the model answer is
always shown beside the score. Taught in ``notebooks/interview/00_practice.ipynb``.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache

from .localize import N_
from .bank import Question
from ..package_data import load_json

BONUS_WEIGHT = 10
#: the share of a point's weight earned by only naming it in a list of terms: knowing the word is not knowing
#: the point (a bare list of all five terms scores 20, two points explained 40)
NAMED_WEIGHT = 0.2
LATE_PENALTY = 20
#: points lost per pitfall the answer states as true
PITFALL_PENALTY = 20
#: the hint under the feedback of an answer that is mostly a list of key terms (:attr:`AnswerScore.listed`)
EXPLAIN_EACH_POINT = N_("You listed the key terms: that is a good start. Now explain each point: say in a sentence "
                        "what it does and why, as you would to an interviewer.")
_CJK = re.compile(r"[\u3000-\u9fff\uf900-\ufaff]")
_HAN_RUN = re.compile(r"[\u4e00-\u9fff\uf900-\ufaff]+")
#: share of a Chinese point's bigram weight an answer must contain to make the point. Measured on the 51
#: translated questions: each question's own one-sentence + follow-up answers score 78.9 on average (75.4 at
#: 0.3, 83.6 at 0.2; English, by keywords: 92.0), another topic's answer + framework 8.6 (7.9 at 0.3,
#: 10.8 at 0.2), another question of the same topic 23.0 (they share points); 0.25 balances the two
BIGRAM_COVERAGE = 0.25
#: a point needs at least this many distinct bigrams to be matched on its Chinese text (shorter: keywords only)
MIN_BIGRAMS = 4
#: words that tie terms into a statement: a segment without any of them is a list of terms
_CONNECTING = frozenset("""
a an the is are was be been it its this that they them their so then when which who whom what because but
and or to of in on by for from with as into back not never no each every must should can will does do did
has have had i we you my our your us he she there here if than per only at after before until via over
without through
""".split())
#: the connecting words that relate one thing to another (verbs, prepositions, negation...), not mere glue of
#: a list (articles, pronouns, "and"): "writes must be idempotent" relates, "the final answer" does not
_RELATING = _CONNECTING - frozenset("a an the it its this that they them their and or each every i we you my our "
                                    "your us he she there here".split())
#: the relating words that are verbs: one is enough to state a relation between two terms ("a request has a method")
_VERBS = frozenset("is are was be been must should can will would could may might does do did has have had".split())
#: words that lead into a list of terms rather than say anything about them ("I would mention ..."): a segment
#: with one has no verb of its own, only its other words
_LEAD_IN = frozenset("""
mention mentions mentioning cover covers talk talks discuss list name names include includes including
key points point terms following also about
""".split())
_CJK_LEAD_IN = re.compile(r"主要|包括|提到|涉及|几点|方面|以下|等等|关键")
_CJK_CONNECTING = re.compile(r"[的是把给由会再并就要让不没只能可被在从对向都也还才先后得了着过]|然后|因为|所以")
_NEGATED = re.compile(r"(\bnot|\bnever|n't|不|没)[^.;,()]{0,20}$")
#: a clause ends at . ; ! ? followed by a space (not inside `json.loads` or `2.0`), a line break, or 。；！？
#: and at a space between two Chinese characters: written Chinese has none inside a clause, so 重试 降级 熔断 is a list;
#: a list bullet (``-``, ``*``, ``•``, ``1.``, ``2)``, ``3、`` at the start or after a space) starts one
_CLAUSE = re.compile(r"(?:^|(?<=\s))(?:[-*•]|\d{1,2}[.)、])\s+|[.;!?](?:\s+|$)|\n+|[。；！？]+|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")
#: a segment (the unit a term must be explained in) ends where a clause does, and at a comma or 、:
#: "retry with backoff, fallback, idempotency keys" is three segments and none says anything
_SEGMENT = re.compile(r"[,，、]\s*")
#: a colon after a label: "Retry: ...", "重试：..." (not the one inside ``https://``)
_LABEL = re.compile(r":(?=\s)|：")


def normalise(text: str) -> str:
    """Lower-case, ``_``/``-``/``/`` as spaces, whitespace collapsed."""
    return " ".join(re.sub(r"[_\-/]+", " ", text.lower()).split())


@lru_cache(maxsize=4096)
def _pattern(keyword: str) -> re.Pattern:
    kw = normalise(keyword)
    if _CJK.search(kw):
        return re.compile(re.escape(kw))
    head = r"(?<![a-z0-9])" if re.match(r"[a-z0-9]", kw) else ""
    tail = r"(?![a-z0-9])" if len(kw) < 4 and re.search(r"[a-z0-9]$", kw) else ""
    return re.compile(head + re.escape(kw) + tail)


@lru_cache(maxsize=1)
def synonym_groups() -> tuple[tuple[str, ...], ...]:
    """The groups of interchangeable wordings of key terms (``course_lib/data/interview_synonyms.json``): each
    a bank keyword and the words an answer may use for it, e.g. ``("meaning", "semantic", "含义", "语义", ...)``.

    Raises:
        ValueError: a term is in two groups (it would be read two ways).
    """
    data = load_json("interview_synonyms.json")
    groups = tuple(tuple(g) for g in data["groups"])
    seen: dict[str, int] = {}
    for n, group in enumerate(groups):
        for term in group:
            if seen.setdefault(normalise(term), n) != n:
                raise ValueError(f"interview_synonyms.json: {term!r} is in two groups")
    return groups


@lru_cache(maxsize=4096)
def _terms(keyword: str) -> tuple[str, ...]:
    """``keyword`` and the other wordings of its synonym group or, for an organisation, its other names
    (``interview_relations.json``'s ``makers``); just ``(keyword,)`` otherwise."""
    norm = normalise(keyword)
    for group in synonym_groups():
        if norm in (normalise(t) for t in group):
            return (keyword, *(t for t in group if normalise(t) != norm))
    for spellings in _relations_data()["makers"].values():  # an organisation by any of its names: Google, 谷歌
        if norm in (normalise(t) for t in spellings):
            return (keyword, *(t for t in spellings if normalise(t) != norm))
    return (keyword,)


@lru_cache(maxsize=1)
def _canonical_forms() -> tuple[re.Pattern | None, dict[str, str]]:
    """(a pattern of the Chinese wordings to replace, {wording: the first Chinese term of its group})."""
    forms = {}
    for group in synonym_groups():
        han = [t for t in group if _HAN_RUN.search(t)]
        forms.update({t: han[0] for t in han[1:]})
    if not forms:
        return None, forms
    return re.compile("|".join(re.escape(t) for t in sorted(forms, key=len, reverse=True))), forms


def canonical(text: str) -> str:
    """``text`` with each Chinese wording of a synonym group read as the group's first Chinese term, so that a
    paraphrase shares its bigrams with the bank's point.

    >>> canonical("只保证格式，不保证语义；相辅相成")
    '只保证格式，不保证含义；互补'
    """
    pattern, forms = _canonical_forms()
    return pattern.sub(lambda m: forms[m.group(0)], text) if pattern else text


def mentions(text: str, keywords: tuple[str, ...] | list[str]) -> list[str]:
    """The keywords that occur in ``text`` (see the module docstring for the rules).

    Example:
        >>> mentions("Use exponential backoff, then a fallback tool.", ["retry", "backoff", "fallback"])
        ['backoff', 'fallback']
    """
    norm = normalise(text)
    return [k for k in keywords if any(_pattern(t).search(norm) for t in _terms(k))]


def bigrams(text: str) -> set[str]:
    """The distinct pairs of adjacent Han characters of ``text`` (runs broken by anything else).

    >>> sorted(bigrams("指数退避 retry"))
    ['指数', '数退', '退避']
    """
    return {run[i:i + 2] for run in _HAN_RUN.findall(text) for i in range(len(run) - 1)}


@lru_cache(maxsize=4)
def _document_frequency(lang: str, _mtime: int) -> tuple[dict[str, int], int]:
    """``({bigram: how many Chinese points contain it}, number of Chinese points)`` of the ``lang`` bank."""
    from .bank import load_bank

    points = [p.point for q in load_bank(lang=lang) for p in (*q.framework, *q.bonus) if _HAN_RUN.search(p.point)]
    df: dict[str, int] = {}
    for text in points:
        for b in bigrams(canonical(text)):
            df[b] = df.get(b, 0) + 1
    return df, len(points)


def _weights(point_bigrams: set[str]) -> dict[str, float]:
    import math

    from .localize import catalog_file

    po = catalog_file("zh")
    df, n = _document_frequency("zh", po.stat().st_mtime_ns if po.exists() else 0)
    return {b: math.log(1 + (n + 1) / (df.get(b, 0) + 1)) for b in point_bigrams}


def bigram_coverage(point: str, text: str) -> float:
    """The share (0..1) of ``point``'s bigram weight that ``text`` contains (0.0 when the point has fewer than
    :data:`MIN_BIGRAMS` bigrams, i.e. is not Chinese). Weights: ``log(1 + (N + 1) / (df + 1))`` over the N
    Chinese points of the bank (``df``: points containing the bigram)."""
    wanted = bigrams(canonical(point))
    if len(wanted) < MIN_BIGRAMS:
        return 0.0
    weights = _weights(wanted)
    have = bigrams(canonical(text))
    return sum(w for b, w in weights.items() if b in have) / sum(weights.values())


def _makes(point, text: str) -> bool:
    """Whether ``text`` names ``point``: one of its keywords, or (a Chinese point) enough of its bigrams."""
    return bool(mentions(text, point.keywords)) or bigram_coverage(point.point, text) >= BIGRAM_COVERAGE


def _content(text: str) -> set[str]:
    """:func:`_stems` of ``text`` with the parties it names (as their roles: "the app" is the host)."""
    return _stems(text) | _parties(text)


def _says(point, statements: str, about: set[str] | None = None) -> bool:
    """Whether ``statements`` (one clause's statements per line, :func:`_statements`) make ``point``: a line names two of
    its keywords, or names one and says something more of the subject (a word or party of ``about``: by default
    the point's text and keywords, in :func:`score_answer` the whole question's, :func:`_topic`: "OpenAI shipped
    function calling" for "June 2023: OpenAI's function calling"), or (a Chinese point) enough of its bigrams are there. An English line with a keyword and nothing of
    the point around it ("I really like OpenAI", "MCP is cool") only names the point: knowing a word is not
    knowing the point. A Chinese line needs no more than its keyword (然后降级 is a step of an answer, 一个 host
    应用 says what the host is): Chinese clauses are short and their words are not cut apart here, so the
    Chinese edition keeps this shortcut (我很喜欢 OpenAI still makes a point).

    >>> from course_lib.interview.bank import load_bank
    >>> p = load_bank()["fc-origins"].framework[0]
    >>> _says(p, "I really like OpenAI"), _says(p, "OpenAI shipped function calling")
    (False, True)
    """
    if bigram_coverage(point.point, statements) >= BIGRAM_COVERAGE:
        return True
    about = about if about is not None else _content(point.point)
    about = about | {s for k in point.keywords for t in _terms(k) for s in _stems(t)}
    for line in statements.split("\n"):
        named = mentions(line, point.keywords)
        if len(named) >= 2 or named and _HAN_RUN.search(line):
            return True
        if named and (_content(line) - {s for t in _terms(named[0]) for s in _content(t)}) & about:
            return True
    return False


def consistent_part(point: str, text: str, keywords: tuple[str, ...] | list[str] = ()) -> str:
    """``text`` without the segments that contradict ``point`` (:func:`contradicts`), clause by clause: what an
    answer says about a point once what it says against it is set aside. A dropped segment takes its label with
    it ("Sampling: the model requests a completion from the server" names sampling to say it wrong).

    ``keywords``: the point's; a segment that names them only to deny them ("not the Linux Foundation") goes
    too (:func:`denies_term`).

    >>> consistent_part("Sampling: the server requests a completion from the host's model.",
    ...                 "Sampling: the model requests a completion from the server, and it needs no API key.")
    'and it needs no API key'
    """
    kept = []
    for clause in (c for c in _CLAUSE.split(text) if c and c.strip()):
        parts = [s.strip() for s in _SEGMENT.split(clause) if s.strip()]
        verb = _clause_verb(clause)
        keep = [s for s in parts if not contradicts(point, s) and not misattributes(point, s)
                and not denies_term(point, keywords, s) and not misassigns(point, s, verb)]
        if keep:
            kept.append(", ".join(keep))
    return "\n".join(kept)


def _denied_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` in normalised ``text`` of what each negation denies: from the negator ("not", "never",
    "nothing to do with", 不是...) to its second word that is not glue in English ("not created by google", "never
    by the linux foundation"), to the 4 characters after it in Chinese (auxiliaries skipped: 不是谷歌做的; 用不了的时候
    要优雅降级 does not deny 降级), or to its English words (而不是 Linux Foundation, 不用 resources/subscribe); and
    the subject of a thing said to be of no use ("idempotency keys are useless", listChanged 没用). A "no" after "if", "with"... states a
    condition ("if no tool works"), not a denial."""
    rel = _relations()
    spans = []
    for m in rel["negator"].finditer(text):
        if rel["not_negator"].match(text, m.start()):
            continue
        rest = re.split(r"[.;:!?,()。，；：！？、（）→\"“”]", text[m.end():])[0]
        start = m.end()
        if _CJK.match(m.group(0)):
            skip = len(_ZH_AUX.match(rest).group(0))
            skip += len(_ZH_LIGHT.match(rest[skip:]).group(0))  # 不用 resources/subscribe: the thing, not 用
            start, rest = start + skip, rest[skip:]
            if not re.match(r"\s*[a-z0-9]", rest):  # 不是谷歌做的: the word after it (4 characters at most)
                spans.append((m.start(), start + min(len(rest), 4)))
                continue
        before = re.findall(r"[a-z][a-z0-9']+", text[:m.start()])
        if m.group(0) == "no" and before and before[-1] in _CONDITIONS:
            continue
        content = [w for w in re.finditer(r"[a-z0-9][a-z0-9'-]*", rest) if w.group(0) not in _CONNECTING]
        if content:
            spans.append((m.start(), start + content[min(1, len(content) - 1)].end()))
    for m in (*_NEEDLESS.finditer(text), *_ZH_NEEDLESS.finditer(text)):  # "timeouts are not needed", X 没用
        words = [w for w in re.finditer(r"[a-z0-9][a-z0-9'_./-]*|[\u4e00-\u9fff]+", m.group(1))
                 if w.group(0) not in _CONNECTING]
        if words:  # the subject: its last two words ("idempotency keys"), not the clause before it
            spans.append((m.start(1) + words[-2:][0].start(), m.end(1)))
    return spans


def _inside(text: str, keywords: tuple[str, ...] | list[str], spans: list[tuple[int, int]]) -> list[str]:
    """The keywords of which every occurrence in ``text`` lies within one of ``spans``."""
    found = []
    for k in keywords:
        hits = [m for t in _terms(k) for m in _pattern(t).finditer(text)]
        if hits and all(any(a <= h.start() and h.end() <= b for a, b in spans) for h in hits):
            found.append(k)
    return found


def denies_term(point: str, keywords: tuple[str, ...] | list[str], segment: str) -> bool:
    """Whether ``segment`` names ``point``'s keywords only inside a negation ("A2A is governed by Google, not the
    Linux Foundation", "was not created by Google", "MCP has nothing to do with Anthropic", 而不是谷歌), while the
    point itself does not deny them: it denies one of the point's terms, so it neither makes nor names the point,
    whatever else of the point it names ("A2A" in "A2A was not created by Google"). A keyword also said outside
    the negation ("retry with backoff rather than retrying at once") is not denied.

    >>> p = "Governance: A2A moved to the Linux Foundation (June 2025)."
    >>> [denies_term(p, ["linux foundation"], s) for s in ("not the Linux Foundation", "the Linux Foundation")]
    [True, False]
    >>> denies_term("the server needs no API key", ["api key"], "the server does not need an API key")
    False
    """
    norm = normalise(segment)
    # a keyword that is itself a denial ("no id", "method not found") is affirmed by its negation, not denied
    keywords = [k for k in keywords if not _relations()["negator"].search(normalise(k))]
    if not mentions(norm, keywords):
        return False
    spans = _denied_spans(norm)
    denied = _inside(norm, keywords, spans) if spans else []
    if not denied:
        return False
    point_norm = normalise(point)
    return not _inside(point_norm, denied, _denied_spans(point_norm))


# ----------------------------------------------------------------------------- who does what, and what is denied
@lru_cache(maxsize=1)
def _relations_data() -> dict:
    """``course_lib/data/interview_relations.json`` as it is stored."""
    return load_json("interview_relations.json")


@lru_cache(maxsize=1)
def _relations() -> dict:
    """``course_lib/data/interview_relations.json``, with its role words as one pattern (longest first)."""
    data = _relations_data()
    role_of = {normalise(t): role for role, terms in data["roles"].items() for t in terms}
    words = sorted(role_of, key=len, reverse=True)
    alternation = "|".join(re.escape(w) if _CJK.search(w) else rf"(?<![a-z0-9]){re.escape(w)}(?:'s)?(?![a-z0-9])"
                           for w in words)

    def any_of(terms: list[str]) -> str:
        return "|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True))
    neg = data["negators"]
    return {"roles": re.compile(alternation), "role_of": role_of,
            "negator": re.compile(rf"(?:{any_of(neg['zh'])})|(?<![a-z])(?:{any_of(neg['en'] + neg['weak'])})(?![a-z])"),
            "weak": frozenset(neg["weak"]),
            "not_negator": re.compile(any_of(data["not_negators"]["en"] + data["not_negators"]["zh"])),
            "excluder": re.compile(rf"(?:{any_of(data['excluders']['en'] + data['excluders']['zh'])})\s*(?:the |a |an )?$")}


def _stems(text: str) -> set[str]:
    """The content of ``text`` as comparable units: English words that are not glue, cut to their first 4
    letters (requests, request -> requ; id stays id), and Chinese character bigrams (:func:`canonical`: 语义 is 含义);
    the parties (:func:`relations`) are left out.

    >>> sorted(_stems("the server requests a completion 请求补全"))
    ['comp', 'requ', '求补', '补全', '请求']
    """
    norm = _relations()["roles"].sub(" | ", normalise(text))  # the parties are who, not what (relations)
    words = {w[:4] for w in re.findall(r"[a-z][a-z0-9']+", norm)
             if w not in _CONNECTING and w not in _VERBS and w not in _LEAD_IN}
    return words | bigrams(canonical(norm))


def _actors(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, role)`` of every party named in normalised ``text``, except one put aside ("not the model")."""
    rel = _relations()
    found = []
    for m in rel["roles"].finditer(text):
        if not rel["excluder"].search(text[max(0, m.start() - 14):m.start()]):
            found.append((m.start(), m.end(), rel["role_of"][m.group(0).removesuffix("'s")]))
    return found


@lru_cache(maxsize=4096)
def relations(text: str) -> frozenset[tuple[str, str, frozenset]]:
    """``(doer, done-to, what)`` for every two parties one clause of ``text`` names in order: ``what`` is the
    :func:`_stems` of the words between them and after the second (to the next party); a passive ("by", 由, 被
    between them) swaps the two.

    >>> sorted((a, b) for a, b, _ in relations("The server requests a completion from the host's model."))
    [('host', 'model'), ('server', 'host'), ('server', 'model')]
    >>> sorted((a, b) for a, b, _ in relations("the model is asked by the server for a completion"))
    [('server', 'model')]
    >>> sorted((a, b) for a, b, _ in relations("补全请求由服务器发给模型"))
    [('server', 'model')]
    """
    found = set()
    for clause in (c for c in _CLAUSE.split(normalise(text)) if c and c.strip()):
        actors = _actors(clause)
        for i, (_s1, e1, a) in enumerate(actors):
            for j, (s2, e2, b) in enumerate(actors[i + 1:], start=i + 1):
                if a == b:
                    continue
                between = clause[e1:s2]
                after = clause[e2:actors[j + 1][0] if j + 1 < len(actors) else len(clause)]
                what = frozenset(_stems(between + " " + after[:40]))
                passive = re.search(r"(?<![a-z])by(?![a-z])|由|被", between)
                found.add((b, a, what) if passive else (a, b, what))
    return frozenset(found)


def reverses(point: str, segment: str) -> bool:
    """Whether ``segment`` says one of ``point``'s relations the other way round: the point has ``(a, b, what)``
    and the segment ``(b, a, what')`` with ``what`` and ``what'`` sharing a word, and never ``(a, b, ...)`` so.

    >>> p = "Sampling: the server requests a completion from the host's model."
    >>> reverses(p, "the model requests a completion from the server"), reverses(p, "the server asks the LLM for a completion")
    (True, False)
    """
    said, meant = relations(segment), relations(point)
    for a, b, what in meant:
        if any(x == b and y == a and what & w for x, y, w in meant):
            continue  # the point says it both ways ("Agent: model + registry + Agent loop"): no direction to reverse
        backwards = any(x == b and y == a and what & w for x, y, w in said)
        if backwards and not any(x == a and y == b and what & w for x, y, w in said):
            return True
    return False


#: a year in an answer or a point (1950-2049), not a quantity ("2000 ms", "2048 tokens", 2000 秒)
_YEAR = re.compile(r"(?<![\d.-])(19[5-9]\d|20[0-4]\d)(?![\d.])(?!\s*(?:ms|s\b|kb|mb|bytes|tokens|%|秒|毫秒|字节))")


@lru_cache(maxsize=1)
def _makers() -> tuple[re.Pattern, dict[str, str]]:
    """The ``makers`` of ``interview_relations.json`` as one pattern (longest spelling first) and spelling -> maker."""
    of = {normalise(s): maker for maker, spellings in _relations_data()["makers"].items() for s in spellings}
    words = sorted(of, key=len, reverse=True)
    return re.compile("|".join(re.escape(w) if _CJK.search(w) else rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])"
                               for w in words)), of


def facts(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """``(makers, years)`` that ``text`` names: the organisations of ``interview_relations.json``'s ``makers``
    (any spelling, English or Chinese) and the years 1950-2049 that are no quantities.

    >>> [sorted(f) for f in facts("June 2023: OpenAI's function calling; 谷歌的 A2A, a 2000 ms timeout")]
    [['google', 'openai'], ['2023']]
    """
    pattern, of = _makers()
    norm = normalise(text)
    return frozenset(of[m.group(0)] for m in pattern.finditer(norm)), frozenset(_YEAR.findall(norm))


def misattributes(point: str, segment: str) -> bool:
    """Whether ``segment`` gives ``point``'s facts to others: the point names makers (or years) and the segment
    names makers (or years) of which none is the point's. Who made a thing and when is what an origins point
    says, so "Google invented function calling in 2021" makes no part of "June 2023: OpenAI's function calling";
    a segment that names one of the point's makers and years too ("OpenAI in 2023, then Anthropic in 2024")
    still can.

    >>> p = "June 2023: OpenAI's function calling (`functions`, then `tools` in November 2023)."
    >>> [misattributes(p, s) for s in ("Google invented function calling in June 2021", "OpenAI shipped it in 2023",
    ...  "function calling came first", "OpenAI in 2023, Anthropic's MCP in 2024")]
    [True, False, False, False]
    """
    (point_makers, point_years), (said_makers, said_years) = facts(point), facts(segment)
    return (bool(point_makers and said_makers and not point_makers & said_makers)
            or bool(point_years and said_years and not point_years & said_years))


def _agents(text: str, verb: str | None = None) -> set[tuple[str, str]]:
    """``(verb, party)`` for each thing ``text`` says a party does to it, in the passive or a compound:
    "model-controlled", "controlled by the user", 由模型控制; ``verb`` (cut to 4 letters, or a Chinese bigram):
    the one an elliptic "resources by the model" borrows from its clause.

    >>> sorted(_agents("Tools: model-controlled actions")), sorted(_agents("由用户控制的模板"))
    ([('cont', 'model')], [('控制', 'user')])
    """
    rel, norm = _relations(), normalise(text)
    found = set()
    for m in rel["roles"].finditer(norm):
        role = rel["role_of"][m.group(0).removesuffix("'s")]
        after, before = norm[m.end():], norm[:m.start()]
        compound = re.match(r"\s?([a-z]{3,}ed)(?![a-z])", after)  # "model controlled" (the hyphen is a space)
        if compound:
            found.add((compound.group(1)[:4], role))
        passive = re.search(r"(?:(?<![a-z])([a-z]{3,}ed)\s+)?by\s+(?:the |a |an |its |their )?$", before)
        if passive and (passive.group(1) or verb):
            found.add(((passive.group(1) or verb)[:4], role))
        zh = re.match(r"\s*([\u4e00-\u9fff]{2})", after) if re.search(r"由\s*$", before) else None
        if zh:
            found.add((zh.group(1), role))
    return found


def misassigns(point: str, segment: str, verb: str | None = None) -> bool:
    """Whether ``segment`` gives what ``point`` says a party does to another party (:func:`_agents`): the point
    has ``(verb, a)`` and the segment ``(verb, b)`` with ``b`` not ``a``, and never ``(verb, a)``.

    >>> p = "Tools: model-controlled actions, listed with `tools/list`."
    >>> [misassigns(p, s) for s in ("tools are controlled by the user", "the model controls tools")]
    [True, False]
    """
    meant, said = _agents(point), _agents(segment, verb)
    return any(v == w and a != b and (v, b) not in meant and (v, a) not in said for v, a in meant for w, b in said)


def _clause_verb(clause: str) -> str | None:
    """The verb of a clause's first passive ("controlled by"), which its later segments may leave out."""
    m = re.search(r"(?<![a-z])([a-z]{3,}ed)\s+by(?![a-z])", normalise(clause))
    return m.group(1) if m else None


def _puts_aside(text: str, negator: re.Match) -> bool:
    """Whether the negation ``negator`` only puts a party aside ("not the model", 而不是模型): it denies who, not what."""
    rel = _relations()
    gap = re.match(r"\s*(?:the |a |an |your )?(?:是)?", text[negator.end():]).group(0)  # "not the ", 不 + 是
    excluder = rel["excluder"].search(text[max(0, negator.start() - 2):negator.end() + len(gap)])
    return bool(excluder) and bool(rel["roles"].match(text, negator.end() + len(gap)))


#: the words after which "no" states a condition ("with no unsupported keywords"), not a denial
_CONDITIONS = frozenset("with and or for of in on at by to from if when".split())
#: what a Chinese negation skips before the word it denies: auxiliaries (不会请求, 不能, 不用, 不必, 没有被)
_ZH_AUX = re.compile(r"^(?:会|能|可以|必须|必|应该|应|该|得|再|是|被)*")  # not 直接, 一定: 不直接回答 denies the manner


#: what a Chinese negation skips before the thing it denies, after the auxiliaries: 不用 X, 不使用 X, 不需要 X
_ZH_LIGHT = re.compile(r"^(?:使用|采用|调用|需要|用)?\s*")
#: a thing said to be of no use, in Chinese: the thing comes first (listChanged 没用, 超时没必要)
_ZH_NEEDLESS = re.compile(r"((?:[a-z0-9][a-z0-9_./ -]*?)|[\u4e00-\u9fff]{1,4}?)\s*(?:是)?(?:没用|没有用|没必要|没有必要|无用|不需要|不必要)")
#: verbs that carry no claim of their own after a negation: "do not use backoff" denies backoff, not using
_LIGHT_VERBS = frozenset("use using apply add implement include bother have do".split())
#: a thing said to be of no use: "timeouts are not needed", "idempotency keys are useless" deny the thing
_NEEDLESS = re.compile(r"([a-z][a-z0-9' -]{0,40}?)\s+(?:is|are)\s+(?:not\s+(?:needed|required|necessary|useful|"
                       r"important)|useless|unnecessary|pointless|never\s+needed)(?![a-z])")


@lru_cache(maxsize=4096)
def negations(text: str) -> tuple[tuple[frozenset[str], frozenset[str], frozenset[str]], ...]:
    """Each negation of ``text`` as ``(head, needs, scope)``: the stems it denies first (the word after "not",
    "never", "cannot"; the first bigram or word after 不/没..., auxiliaries skipped), the stems that
    must also be present for another text to affirm it ("needs no API key": ``need``, since "no" denies a thing
    only together with its verb), and every stem it denies (20 characters in English, the clause in Chinese).
    "not only", 不同 and a party put aside ("not the model", 而不是模型) are no negations.

    >>> [(sorted(h), sorted(n)) for h, n, _ in negations("the server does not request completions")]
    [(['requ'], [])]
    >>> [(sorted(h), sorted(n)) for h, n, _ in negations("the server needs no API key")]
    [(['api'], ['need'])]
    >>> [sorted(h) for h, _, _ in negations("服务器不需要 API key，也不会请求补全")]
    [['需要'], ['请求']]
    """
    rel = _relations()
    norm = normalise(text)
    found = []
    for m in rel["negator"].finditer(norm):
        if rel["not_negator"].match(norm, m.start()) or _puts_aside(norm, m):
            continue
        if _CJK.match(m.group(0)):
            scope = re.split(r"[.;:!?,()。，；：！？、（）→\"“”]", norm[m.end():])[0]
            scope = scope[len(_ZH_AUX.match(scope).group(0)):]
            found.append((frozenset(_ordered_stems(scope)[:1]), frozenset(), frozenset(_stems(scope))))
            continue
        scope = re.split(r"[.;:!?,()→\"“”]", norm[m.end():])[0][:21]
        words = [w for w in re.findall(r"[a-z][a-z0-9']+", scope) if _stems(w)]
        if not words:
            continue
        needs = frozenset()
        if m.group(0) in rel["weak"]:  # "a tool without `strict`": a condition; it only agrees with a denial
            found.append((frozenset(), frozenset(), frozenset(_stems(scope))))
            continue
        if m.group(0) == "no":  # "no" denies a thing with its verb: "needs no API key", "no tool works"
            phrase = re.split(r"[.;!?,()→]", norm[:m.start()])[-1]
            before = re.findall(r"[a-z][a-z0-9']+", phrase)
            if before and before[-1] in _CONDITIONS or not before and not phrase.rstrip().endswith(":"):
                # "with no unsupported keywords", "if no tool works", a segment cut at a comma: a condition, which
                # agrees with a denial of the same thing but denies nothing by itself (as "without")
                found.append((frozenset(), frozenset(), frozenset(_stems(scope))))
                continue
            verb = before[-1:] if before and not phrase.rstrip().endswith(":") else words[1:2]
            needs = frozenset(_stems(verb[0])) if verb else frozenset()  # "Notification: no id": the id alone
        if words[0] in _LIGHT_VERBS and len(words) > 1 and m.group(0) != "no":  # "do not use backoff": backoff
            words = words[1:]
        found.append((frozenset(_stems(words[0])), needs, frozenset(_stems(scope))))
    for m in _NEEDLESS.finditer(norm):  # "timeouts are not needed", "idempotency keys are useless"
        subject = [w for w in re.findall(r"[a-z][a-z0-9']+", re.split(r"[.;:!?,()→]", m.group(1))[-1]) if _stems(w)]
        if subject:
            found.append((frozenset(_stems(subject[0])), frozenset(), frozenset(_stems(" ".join(subject)))))
    return tuple(found)


def _ordered_stems(text: str) -> list[str]:
    """The :func:`_stems` of ``text`` in the order they occur (an English word, then the bigrams of a Han run)."""
    out: list[str] = []
    norm = canonical(_relations()["roles"].sub(" | ", normalise(text)))
    for token in re.findall(r"[a-z][a-z0-9']+|[\u4e00-\u9fff\uf900-\ufaff]+", norm):
        for stem in (sorted(_stems(token)) if token[0].isascii() else [token[i:i + 2] for i in range(len(token) - 1)]):
            if stem not in out:
                out.append(stem)
    return out


def _restricted(text: str) -> frozenset[str]:
    """The first stem after each "only"/"just"/只/仅 of ``text``: "supports only a subset" (只支持) does not affirm
    what "unsupported keywords" (不支持的关键字) denies; it says the same from the other side."""
    norm = normalise(text)
    found = set()
    for m in re.finditer(r"(?<![a-z])(?:only|just)(?![a-z])|只|仅", norm):
        rest = _ordered_stems(norm[m.end():m.end() + 24])
        found.update(rest[:1])
    return frozenset(found)


def _parties(text: str) -> set[str]:
    """The roles (:func:`relations`' parties) ``text`` names."""
    return {role for _, _, role in _actors(normalise(text))}


def _closest_part(point: str, segment: str) -> str | None:
    """The segment of ``point`` that shares the most stems with ``segment`` (2 at least), or None."""
    have = _stems(segment)
    shared, best = max(((len(_stems(p) & have), p) for p in segments(point)), default=(0, None))
    return best if shared >= 2 else None


def _affirms(text: str, other: str, context_of: tuple[str, str] | None = None) -> bool:
    """Whether ``other`` affirms what a negation of ``text`` denies: the negation's head (all of it) and what it
    needs are in ``other``, ``other`` denies none of the head, and the two share context beyond the head (2
    more words, or a party: a party counts 2), so that "not portable" is not read against "for portability";
    ``context_of``: the two texts to take that context from (default ``text`` and ``other``)."""
    have, denied = _stems(other) - _restricted(other), frozenset().union(*(scope for _, _, scope in negations(other)))
    one, two = context_of or (text, other)
    shared, parties = _stems(one) & _stems(two), len(_parties(one) & _parties(two))
    for head, needs, _ in negations(text):
        context = len(shared - head) + 2 * parties
        if head and head <= have and not head & denied and needs <= have and context >= 2:
            return True
    return False


def negates(point: str, segment: str) -> bool:
    """Whether ``segment`` denies what ``point`` affirms, or affirms what it denies. The segment is compared with
    the part of the point it is about (:func:`_closest_part`: 2 shared words at least); the two agree when
    both deny something in common ("does not need an API key" = "needs no API key"). A segment that is no
    statement (:func:`is_statement`: a bare term) negates nothing.

    >>> p = "Sampling keeps the host in control, and the server needs no API key."
    >>> negates(p, "the server needs an API key"), negates(p, "the server does not need an API key")
    (True, False)
    >>> negates("Graceful degradation: no tool works, tell the LLM the tool is unavailable.",
    ...         "degrade gracefully by telling the model the tool is unavailable")
    False
    """
    part = _closest_part(point, segment) if is_statement(segment) else None
    if part is None:
        return False
    mine, theirs = negations(segment), negations(part)
    both = frozenset().union(*(s for _, _, s in mine)) & frozenset().union(*(s for _, _, s in theirs))
    whole = (point, segment)  # the context is the whole point's: "Notification: no id, the server must not reply"
    return not both and (_affirms(segment, part, whole) or _affirms(part, segment, whole))


def contradicts(point: str, segment: str) -> bool:
    """Whether ``segment`` contradicts ``point``: it denies it (:func:`negates`) or says who does what the other
    way round (:func:`reverses`), but not both (denying the reversed claim agrees: "the model does not call the
    server"). English and Chinese alike.

    >>> p = "Sampling: the server requests a completion from the host's model."
    >>> [contradicts(p, s) for s in ("the server requests a completion from the model", "the model requests a "
    ...  "completion from the server", "the server does not request a completion", "the model does not request "
    ...  "a completion from the server")]
    [False, True, True, False]
    >>> z = "Sampling：服务器向 host 的模型请求一次生成。"
    >>> [contradicts(z, s) for s in ("服务器向主机的模型请求生成", "模型向服务器请求生成", "服务器不会向模型请求生成")]
    [False, True, True]
    """
    return negates(point, segment) != reverses(point, segment)


def is_statement(clause: str, keywords: tuple[str, ...] | list[str] = (), *, loose: bool = False) -> bool:
    """Whether a segment says something about its terms (a relation between them) rather than listing them.

    The question's ``keywords`` are taken out of the segment, and so are the words that only lead into a list
    ("I would mention"). A statement keeps 2+ words of its own, or a verb (``is``, ``has``, ``must``...), or 1
    word and a word that relates it (``to``, ``with``, ``not``...: not ``the`` or ``and``); in Chinese, 4+ Han characters, or 2+ with a relating
    one (的, 是, 把, 由, 不, 只, 要...). A bare list of the keywords keeps nothing, a noun phrase around one keeps
    an article or one word ("idempotency keys", "the final answer", 优雅降级). ``loose``: any word of its own
    or relating word, or 2+ Han characters, is enough (what follows a label's colon: "Client: one per server").

    Example:
        >>> kws = ["definition", "tool_calls", "parse", "tool_call_id", "loop", "final answer"]
        >>> is_statement("the app parses the arguments", kws)
        True
        >>> is_statement("definition, tool_calls, parse, tool_call_id, loop", kws)
        False
        >>> is_statement("I would mention the final answer", kws), is_statement("只保证格式", ["格式"])
        (False, True)
    """
    rest = normalise(clause)
    for k in sorted({t for k in keywords for t in _terms(k)}, key=len, reverse=True):
        rest = _pattern(k).sub(" ", rest)
    words = [w for w in re.findall(r"[a-z0-9']+", rest) if len(w) > 1 or w in ("a", "i")]
    leads = any(w in _LEAD_IN for w in words)
    words = [w for w in words if not (leads and (w in _LEAD_IN or w in _VERBS))]
    own = [w for w in words if w not in _CONNECTING and w not in _VERBS]
    han = "".join(_HAN_RUN.findall(_CJK_LEAD_IN.sub("", rest)))
    if loose:
        return bool(own) or any(w in _RELATING for w in words) or len(han) >= 2
    if len(own) >= 2 or any(w in _VERBS for w in words) or (own and any(w in _RELATING for w in words)):
        return True
    return len(han) >= 4 or (len(han) >= 2 and bool(_CJK_CONNECTING.search(han)))


def segments(text: str) -> list[str]:
    """``text`` cut into the segments a key term must be explained in: clauses, cut again at commas, 、 and
    list bullets.

    >>> segments("Retry with backoff, fallback. 1. 幂等键 2. 超时")
    ['Retry with backoff', 'fallback', '幂等键', '超时']
    """
    return [s.strip() for c in _CLAUSE.split(text) for s in _SEGMENT.split(c) if s and s.strip()]


def _clause_statements(clause: str, keywords: tuple[str, ...] | list[str]) -> list[str]:
    """The segments of one clause that are statements. A label before a colon ("Client: one per server
    connection") is one too when what follows the colon says anything of its own (``loose``
    :func:`is_statement`): the label's term is what it explains. "Key points: retry, fallback" says nothing."""
    parts = [s.strip() for s in _SEGMENT.split(clause) if s.strip()]
    said = [s for s in parts if is_statement(s, keywords)]
    head, body = (_LABEL.split(clause, maxsplit=1) + [""])[:2]
    label = ([s.strip() for s in _SEGMENT.split(head) if s.strip()] or [""])[-1]
    explained = [s.strip() for s in _SEGMENT.split(body) if s.strip() and is_statement(s, keywords, loose=True)]
    if body and label and label not in said and explained:
        said.append(label + ": " + ", ".join(explained))  # the label with what explains it (:func:`_says`)
    return said


def _statements(text: str, keywords: tuple[str, ...] | list[str]) -> str:
    """The segments of ``text`` that are statements (the text a point must be *made* in): those of one clause
    on one line, joined by commas, so that :func:`_says` reads a term in its clause ("the model must not
    (`none`)")."""
    clauses = (", ".join(_clause_statements(c, keywords)) for c in _CLAUSE.split(text) if c and c.strip())
    return "\n".join(c for c in clauses if c)


def stated_pitfalls(question: Question, text: str) -> list[int]:
    """Indexes of ``question.pitfalls`` that ``text`` states as true (via its ``pitfall_claims``).

    Example:
        >>> from course_lib.interview.bank import load_bank
        >>> stated_pitfalls(load_bank()["fc-five-steps"], "The model itself calls the get_weather API.")
        [0]
    """
    norm = normalise(text)

    def says(pattern: str) -> bool:   # a match right after "not"/"never" in its clause is the opposite claim
        return any(not _NEGATED.search(norm[max(0, m.start() - 24):m.start()]) for m in re.finditer(pattern, norm))

    return sorted({c.pitfall for c in question.pitfall_claims if any(says(p) for p in c.patterns)})


@dataclass
class AnswerScore:
    """How one answer scored.

    Attributes:
        question_id: the question answered.
        made: indexes (0-based) of the framework points the answer made.
        missed: indexes of the framework points it missed.
        bonus: indexes of the bonus points it made.
        seconds: time taken (None when untimed); late: over the time budget.
        score: 0–100.
        named: indexes of the points only named in a list of terms (:data:`NAMED_WEIGHT`; also in ``missed``).
        pitfalls: indexes of the question's pitfalls the answer states as true.
        contradicted: indexes of the points those pitfalls contradict (also in ``missed``).
    """

    question_id: str
    made: list[int]
    missed: list[int]
    bonus: list[int]
    seconds: float | None = None
    late: bool = False
    score: int = 0
    named: list[int] = field(default_factory=list)
    pitfalls: list[int] = field(default_factory=list)
    contradicted: list[int] = field(default_factory=list)

    @property
    def listed(self) -> bool:
        """Whether the answer is mostly a list of key terms: 2+ points only named, more than the points made."""
        return len(self.named) >= 2 and len(self.named) > len(self.made)

    def __repr__(self) -> str:
        n = len(self.made) + len(self.missed)
        late = ", late" if self.late else ""
        return (f"AnswerScore({self.question_id}: {self.score}/100, points {len(self.made)}/{n}, "
                f"bonus {len(self.bonus)}{late})")


def _english_twin(question: Question) -> Question | None:
    """The English question of a translated one (same id and points), or None: an English answer to a Chinese
    card is about the English wording of its points too."""
    from .bank import load_bank

    if not any(_HAN_RUN.search(p.point) for p in question.framework):
        return None
    try:
        twin = load_bank()[question.id]
    except KeyError:
        return None
    return twin if len(twin.framework) == len(question.framework) else None


def _topic(question: Question) -> set[str]:
    """What ``question`` is about, as :func:`_content`: its text and the text of its framework and bonus points,
    in English too for a translated question (an English answer to a Chinese card)."""
    texts = [question.question, *(p.point for p in (*question.framework, *question.bonus))]
    twin = _english_twin(question)
    if twin:
        texts += [twin.question, *(p.point for p in (*twin.framework, *twin.bonus))]
    return set().union(*(_content(t) for t in texts))


def score_answer(question: Question, text: str, *, seconds: float | None = None,
                 budget: float | None = None) -> AnswerScore:
    """Score ``text`` as an answer to ``question``.

    Args:
        question: the question (its framework and bonus keywords are used).
        text: the candidate's answer, any language mix.
        seconds: how long the answer took (optional).
        budget: the time allowed in seconds; over it the answer is late (−20).

    Returns:
        An :class:`AnswerScore` (0 for an empty answer); the rules are in the module docstring.
    """
    pitfalls = stated_pitfalls(question, text)
    contradicted = sorted({c.point for c in question.pitfall_claims
                           if c.pitfall in pitfalls and c.point is not None})
    keywords = [k for p in (*question.framework, *question.bonus) for k in p.keywords]
    made, named = [], []
    about = _topic(question)
    for i, p in enumerate(question.framework):
        if i in contradicted:
            continue
        own = consistent_part(p.point, text, p.keywords)
        if _says(p, _statements(own, keywords), about):
            made.append(i)
        elif _makes(p, own):
            named.append(i)
    missed = [i for i in range(len(question.framework)) if i not in made]
    bonus = [i for i, p in enumerate(question.bonus) if _says(p, _statements(consistent_part(p.point, text, p.keywords), keywords), about)]
    raw = 100 * (len(made) + NAMED_WEIGHT * len(named)) / len(question.framework) + BONUS_WEIGHT * len(bonus)
    late = seconds is not None and budget is not None and seconds > budget
    penalty = PITFALL_PENALTY * len(pitfalls) + (LATE_PENALTY if late else 0)
    score = max(0, min(100, round(raw)) - penalty)
    return AnswerScore(question.id, made, missed, bonus, seconds, late, score, named, pitfalls, contradicted)


def _mark(question: Question, result: AnswerScore, i: int, lang: str | None = None) -> tuple[str, str]:
    """(symbol, why) of framework point ``i``: made ✓, only named ~, contradicted or missed ✗."""
    from .localize import _t

    if i in result.made:
        return "✓", ""
    if i in result.contradicted:
        said = [question.pitfalls[c.pitfall] for c in question.pitfall_claims
                if c.point == i and c.pitfall in result.pitfalls]
        return "✗", (_t(" (your answer says the opposite: {pitfall})", lang).format(pitfall=said[0]) if said
                     else _t(" (your answer contradicts it)", lang))
    if i in result.named:
        return "~", _t(" (named in a list, not said: say who does what, in a sentence)", lang)
    return "✗", ""


def feedback(question: Question, result: AnswerScore, lang: str | None = None) -> str:
    """Plain-text feedback: the points made (✓), missed (✗) and bonus points hit (+).

    ``lang``: the language of the labels (default: the learner's); the points are in the question's own text.
    """
    from .localize import _t

    lines = []
    for i, p in enumerate(question.framework):
        mark, why = _mark(question, result, i, lang)
        lines.append(f"  {mark} {i + 1}. {p.point}{why}")
    for i in result.bonus:
        lines.append(_t("  + bonus: {point}", lang).format(point=question.bonus[i].point))
    for i in result.pitfalls:
        lines.append(_t("  ! pitfall (−{penalty}): {pitfall}", lang).format(penalty=PITFALL_PENALTY,
                                                                            pitfall=question.pitfalls[i]))
    if result.listed:
        lines.append("  → " + _t(EXPLAIN_EACH_POINT, lang))
    return "\n".join(lines)


def feedback_markdown(question: Question, result: AnswerScore, lang: str | None = None) -> str:
    """The same feedback as a Markdown list, for widgets (inline code renders as code)."""
    from .localize import _t

    n, made, bonus = len(question.framework), len(result.made), len(result.bonus)
    head = (_t("**Your answer made {made} of {n} framework points:**", lang) if not bonus else
            _t("**Your answer made {made} of {n} framework points and {bonus} bonus point:**", lang) if bonus == 1
            else _t("**Your answer made {made} of {n} framework points and {bonus} bonus points:**", lang))
    lines = [head.format(made=made, n=n, bonus=bonus), ""]
    words = {"✓": _t("✓ made:", lang), "~": _t("~ named only:", lang), "✗": _t("✗ missed:", lang)}
    for i, p in enumerate(question.framework):
        mark, why = _mark(question, result, i, lang)
        lines.append(f"- {words[mark]} {p.point}{why}")
    lines += [_t("- ★ bonus: {point}", lang).format(point=question.bonus[i].point) for i in result.bonus]
    lines += [_t("- ⚠ pitfall (−{penalty}): {pitfall}", lang).format(penalty=PITFALL_PENALTY,
                                                                     pitfall=question.pitfalls[i])
              for i in result.pitfalls]
    if result.listed:
        lines += ["", "**→** " + _t(EXPLAIN_EACH_POINT, lang)]
    return "\n".join(lines)
