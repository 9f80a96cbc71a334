"""Scoring a typed answer against a question's framework: which points did it make?

Interviewers listen for the structure of an answer: did the candidate name the five
layers, mention ``tool_call_id``, say *why*? The scorer approximates that by looking for
each framework point's and bonus point's keywords in the answer:

* text is compared case-insensitively, with ``_``, ``-`` and ``/`` read as spaces (so
  ``tool_call_id``, ``tool-call id`` and ``Tool Call ID`` are the same words);
* an English keyword of 4+ characters matches at the start of a word and may continue
  (``validat`` matches "validation", "validates"); shorter ones must be whole words
  (``sse`` does not match "assessment");
* a keyword containing CJK characters matches anywhere (Chinese has no spaces).

Score: 100 × (framework points made / framework points) + 10 per bonus point, capped at
100; a late answer (over the question's time budget) loses 20. Deliberate shortcut: this
rewards vocabulary, not correctness, so the model answer is always shown beside the
score. Taught in ``notebooks/interview/00_practice.ipynb``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .bank import Question

BONUS_WEIGHT = 10
LATE_PENALTY = 20
_CJK = re.compile(r"[\u3000-\u9fff\uf900-\ufaff]")


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
    """

    question_id: str
    made: list[int]
    missed: list[int]
    bonus: list[int]
    seconds: float | None = None
    late: bool = False
    score: int = 0

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
        An :class:`AnswerScore` (0 for an empty answer).
    """
    made = [i for i, p in enumerate(question.framework) if mentions(text, p.keywords)]
    missed = [i for i in range(len(question.framework)) if i not in made]
    bonus = [i for i, p in enumerate(question.bonus) if mentions(text, p.keywords)]
    raw = 100 * len(made) / len(question.framework) + BONUS_WEIGHT * len(bonus)
    late = seconds is not None and budget is not None and seconds > budget
    score = max(0, min(100, round(raw)) - (LATE_PENALTY if late else 0))
    return AnswerScore(question.id, made, missed, bonus, seconds, late, score)


def feedback(question: Question, result: AnswerScore) -> str:
    """Plain-text feedback: the points made (✓), missed (✗) and bonus points hit (+)."""
    lines = []
    for i, p in enumerate(question.framework):
        lines.append(f"  {'✓' if i in result.made else '✗'} {i + 1}. {p.point}")
    for i in result.bonus:
        lines.append(f"  + bonus: {question.bonus[i].point}")
    return "\n".join(lines)


def feedback_markdown(question: Question, result: AnswerScore) -> str:
    """The same feedback as a Markdown list, for widgets (inline code renders as code)."""
    lines = [f"**Your answer made {len(result.made)} of {len(question.framework)} framework points"
             + (f" and {len(result.bonus)} bonus point{'s' if len(result.bonus) != 1 else ''}" if result.bonus else "")
             + ":**", ""]
    lines += [f"- {'✓ made:' if i in result.made else '✗ missed:'} {p.point}"
              for i, p in enumerate(question.framework)]
    lines += [f"- ★ bonus: {question.bonus[i].point}" for i in result.bonus]
    return "\n".join(lines)
