"""The interview scorer on graded answers (issue 20 item 5): the set itself, and how the scorer orders it.

The answers are in ``tests/graded_answers.py``: six questions, English and Chinese, each answered well, partly,
as a bare list of key terms and off the subject. A real interviewer ranks them in that order.
"""
from __future__ import annotations

import re
from collections import Counter

import pytest
from graded_answers import GRADED, GRADES

from course_lib.interview.bank import load_bank

BANKS = {"en": load_bank(), "zh": load_bank(lang="zh")}
QUESTIONS = sorted({(qid, lang) for qid, lang, _, _ in GRADED})


def test_the_set_has_every_grade_for_every_question_in_both_languages():
    assert len(GRADED) >= 40
    assert {lang for _, lang in QUESTIONS} == {"en", "zh"}
    assert {qid for qid, _ in QUESTIONS} <= set(q.id for q in BANKS["en"])
    for qid, lang in QUESTIONS:
        grades = Counter(g for q, la, g, _ in GRADED if (q, la) == (qid, lang))
        assert set(grades) == set(GRADES), (qid, lang, grades)
    for qid in {q for q, _ in QUESTIONS}:
        assert (qid, "en") in QUESTIONS and (qid, "zh") in QUESTIONS, qid


@pytest.mark.parametrize("qid, lang, grade, text", [g for g in GRADED if g[2] == "list"])
def test_a_list_answer_is_only_terms(qid, lang, grade, text):
    """A 'list' answer has no sentence: one line or one line per item, each item a few words."""
    items = [i for i in re.split(r"[,，、\n]|\band\b", text) if i.strip()]
    assert len(items) >= 4, text
    assert all(len(i.split()) <= 6 and len(i) <= 40 for i in items), text
