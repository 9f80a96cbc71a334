"""Denials said with a light verb ("do not use backoff") or after the thing ("timeouts are not needed",
"idempotency keys are useless") deny the thing (course_lib.interview.scoring.negations)."""
from __future__ import annotations

from course_lib.interview.bank import load_bank
from course_lib.interview.scoring import negations, score_answer

QUESTION = next(q for q in load_bank(lang="en").questions if q.id == "q3-fault-tolerance")


def heads(text: str) -> list[list[str]]:
    return [sorted(head) for head, _, _ in negations(text)]


def test_a_light_verb_after_a_negation_passes_the_denial_to_its_object():
    assert heads("do not use exponential backoff") == [["expo"]]
    assert heads("the server does not request completions") == [["requ"]]   # a real verb keeps the denial


def test_a_thing_said_to_be_of_no_use_is_denied():
    assert ["idem"] in heads("Idempotency keys are useless")
    assert ["time"] in heads("Timeouts are not needed")
    assert heads("Timeouts are needed per tool") == []


def test_an_answer_that_denies_each_point_no_longer_makes_them():
    denied = ("Do not use exponential backoff or jitter. Do not fall back to a backup tool. Never tell the model a "
              "tool is unavailable. Idempotency keys are useless. Timeouts are not needed.")
    meant = ("Retry temporary errors with exponential backoff and jitter. Fall back to a backup tool. Tell the model "
             "the tool is unavailable. Writes need idempotency keys. Give each tool its own timeout.")
    assert 0 not in score_answer(QUESTION, denied).made          # was made: 'backoff' and 'jitter' were enough
    assert score_answer(QUESTION, denied).score < 60 <= score_answer(QUESTION, meant).score
