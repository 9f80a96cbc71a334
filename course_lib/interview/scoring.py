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

Two rules keep vocabulary alone from scoring well:

* **a point needs a sentence, not just its word.** A keyword counts fully only inside a
  statement: a clause (text between ``.``, ``;``, ``!``, ``?`` or line breaks) that, once the
  question's keywords are taken out, still has words of its own (2+, or 1 that is a connecting
  word such as ``the``, ``is``, ``to``; in Chinese 4+ characters, or a 的/是/把/然后...),
  because a point is a relation (who does what), not a term. A point whose keywords appear
  only in a bare list is *named* and earns half its weight (shown ``~``);
* **a pitfall stated as true counts against the answer.** A question's ``pitfall_claims``
  (:class:`~course_lib.interview.bank.PitfallClaim`) are phrases that state one of its
  pitfalls ("the model calls the API"); when one occurs, the point it contradicts is not
  made, whatever its keywords, and the answer loses 20 per pitfall stated.

Score: 100 × (points made + ½ × points only named) / framework points + 10 per bonus point,
capped at 100, minus 20 per pitfall stated; a late answer (over the question's time budget)
loses 20. Deliberate shortcut: this still reads words, not meaning, so the model answer is
always shown beside the score. Taught in ``notebooks/interview/00_practice.ipynb``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from .bank import Question

BONUS_WEIGHT = 10
LATE_PENALTY = 20
#: points lost per pitfall the answer states as true
PITFALL_PENALTY = 20
_CJK = re.compile(r"[\u3000-\u9fff\uf900-\ufaff]")
_HAN_RUN = re.compile(r"[\u4e00-\u9fff\uf900-\ufaff]+")
#: share of a Chinese point's bigram weight an answer must contain to make the point. Measured on the 51
#: translated questions: each question's own one-sentence + follow-up answers score 78.9 on average (75.4 at
#: 0.3, 83.6 at 0.2; English, by keywords: 92.0), another topic's answer + framework 8.6 (7.9 at 0.3,
#: 10.8 at 0.2), another question of the same topic 23.0 (they share points); 0.25 balances the two
BIGRAM_COVERAGE = 0.25
#: a point needs at least this many distinct bigrams to be matched on its Chinese text (shorter: keywords only)
MIN_BIGRAMS = 4
#: words that tie terms into a statement: a clause without any of them is a list of terms
_CONNECTING = frozenset("""
a an the is are was be been it its this that they them their so then when which who whom what because but
and or to of in on by for from with as into back not never no each every must should can will does do did
has have had i we you my our your us he she there here if than per only at after before until via over
without through
""".split())
_CJK_CONNECTING = re.compile(r"[的是把给由会再并就要让]|然后|因为|所以")
_NEGATED = re.compile(r"(\bnot|\bnever|n't|不|没)[^.;,()]{0,20}$")
#: a clause ends at . ; ! ? followed by a space (not inside `json.loads` or `2.0`), a line break, or 。；！？
#: and at a space between two Chinese characters: written Chinese has none inside a clause, so 重试 降级 熔断 is a list
_CLAUSE = re.compile(r"[.;!?](?:\s+|$)|\n+|[。；！？]+|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")


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


def mentions(text: str, keywords: tuple[str, ...] | list[str]) -> list[str]:
    """The keywords that occur in ``text`` (see the module docstring for the rules).

    Example:
        >>> mentions("Use exponential backoff, then a fallback tool.", ["retry", "backoff", "fallback"])
        ['backoff', 'fallback']
    """
    norm = normalise(text)
    return [k for k in keywords if _pattern(k).search(norm)]


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
        for b in bigrams(text):
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
    wanted = bigrams(point)
    if len(wanted) < MIN_BIGRAMS:
        return 0.0
    weights = _weights(wanted)
    have = bigrams(text)
    return sum(w for b, w in weights.items() if b in have) / sum(weights.values())


def _makes(point, text: str) -> bool:
    """Whether ``text`` makes ``point``: one of its keywords, or (a Chinese point) enough of its bigrams."""
    return bool(mentions(text, point.keywords)) or bigram_coverage(point.point, text) >= BIGRAM_COVERAGE


def is_statement(clause: str, keywords: tuple[str, ...] | list[str] = ()) -> bool:
    """Whether a clause says something (a relation between terms) rather than listing terms.

    The question's ``keywords`` are taken out of the clause; a statement keeps 2+ other words, or 1 other
    word that is a connecting word (``the``, ``is``, ``to``...); in Chinese, 4+ other characters, or 1+ with a
    connecting character (的, 是, 把, 然后...). A bare list of the keywords keeps nothing.

    Example:
        >>> kws = ["definition", "tool_calls", "parse", "tool_call_id", "loop"]
        >>> is_statement("the app parses the arguments", kws)
        True
        >>> is_statement("definition, tool_calls, parse, tool_call_id, loop", kws)
        False
    """
    rest = normalise(clause)
    for k in sorted(keywords, key=len, reverse=True):
        rest = _pattern(k).sub(" ", rest)
    words = [w for w in re.findall(r"[a-z0-9']+", rest) if len(w) > 1 or w in ("a", "i")]
    if len(words) >= 2 or (words and any(w in _CONNECTING for w in words)):
        return True
    cjk = _CJK.findall(rest)
    return len(cjk) >= 4 or (bool(cjk) and bool(_CJK_CONNECTING.search(rest)))


def _statements(text: str, keywords: tuple[str, ...] | list[str]) -> str:
    """The clauses of ``text`` that are statements, joined (the text a point must be *made* in)."""
    return "\n".join(c for c in _CLAUSE.split(text) if is_statement(c, keywords))


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
        named: indexes of the points only named in a list of terms (half weight; also in ``missed``).
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

    def __repr__(self) -> str:
        n = len(self.made) + len(self.missed)
        late = ", late" if self.late else ""
        return (f"AnswerScore({self.question_id}: {self.score}/100, points {len(self.made)}/{n}, "
                f"bonus {len(self.bonus)}{late})")


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
    stated = _statements(text, keywords)
    made, named = [], []
    for i, p in enumerate(question.framework):
        if i in contradicted:
            continue
        if _makes(p, stated):
            made.append(i)
        elif _makes(p, text):
            named.append(i)
    missed = [i for i in range(len(question.framework)) if i not in made]
    bonus = [i for i, p in enumerate(question.bonus) if _makes(p, stated)]
    raw = 100 * (len(made) + len(named) / 2) / len(question.framework) + BONUS_WEIGHT * len(bonus)
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
    return "\n".join(lines)
