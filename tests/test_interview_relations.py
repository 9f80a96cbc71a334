"""The interview scorer notices what an answer denies and who it says does what (scoring.contradicts).

Before, a key point was made by its words alone: "the model requests a completion from the server" scored like
"the server requests a completion from the host's model", and "the server does not request completions" like
"the server requests a completion". Now a segment that denies a point, or says one of its relations the other
way round, does not make it (English and Chinese), while every graded answer (tests/graded_answers.py, 52) and
every model answer and framework of the bank (204 texts, both languages) scores what it scored before.
"""
from __future__ import annotations

import pytest
from graded_answers import GRADED

from course_lib.interview.bank import load_bank
from course_lib.interview.scoring import (consistent_part, contradicts, negates, relations, reverses,
                                          score_answer)

BANKS = {"en": load_bank(), "zh": load_bank(lang="zh")}
SAMPLING = "Sampling: the server requests a completion from the host's model, `sampling/createMessage`."


@pytest.mark.parametrize("lang, qid, point, answer, made", [
    # who does what (the brief's example: the server calls the model, not the other way round)
    ("en", "mcp-capabilities", 3, "Sampling: the server requests a completion from the host's model.", True),
    ("en", "mcp-capabilities", 3, "Sampling: the model requests a completion from the server.", False),
    ("en", "mcp-capabilities", 3, "Sampling: the host's model requests a completion from the server.", False),
    ("en", "mcp-capabilities", 3, "Sampling: the model is asked by the server for a completion.", True),   # passive
    ("zh", "mcp-capabilities", 3, "Sampling：服务器向主机的模型请求生成。", True),
    ("zh", "mcp-capabilities", 3, "Sampling：模型向服务器请求生成。", False),
    ("en", "mcp-authorization", 0, "The MCP server is a resource server that checks tokens; a separate "
                                   "authorization server issues them.", True),
    ("en", "mcp-authorization", 0, "The authorization server checks tokens and the resource server issues them.",
     False),
    # what is denied
    ("en", "mcp-capabilities", 3, "With sampling the server does not request completions from the host's model.",
     False),
    ("zh", "mcp-capabilities", 3, "Sampling 时服务器不会向主机的模型请求生成。", False),
    ("en", "jsonrpc-basics", 2, "A notification has no id, and the server must not reply to it.", True),
    ("en", "jsonrpc-basics", 2, "A notification carries no id because the server never replies.", True),
    ("en", "jsonrpc-basics", 2, "A notification has an id and the server must reply to it.", False),
    ("zh", "jsonrpc-basics", 2, "通知没有 id，服务端不得回复它。", True),
    ("en", "a2a-push", 2, "The agent POSTs each status update to the webhook URL with the notification token "
                          "header.", True),
    ("en", "a2a-push", 2, "The agent does not POST status updates to the webhook URL.", False),
    ("en", "a2a-push", 3, "The webhook verifies the token in constant time and answers 401 otherwise.", True),
    ("en", "a2a-push", 3, "The webhook does not verify the token, it accepts any call.", False),
])
def test_a_point_is_made_only_when_the_answer_does_not_deny_or_reverse_it(lang, qid, point, answer, made):
    assert (point in score_answer(BANKS[lang][qid], answer).made) is made


def test_needs_no_and_does_not_need_agree_and_needs_contradicts():
    """The brief's "does not need" vs "needs": on the point "... and the server needs no API key"."""
    point = BANKS["en"]["mcp-capabilities"].framework[4].point
    assert negates(point, "the server needs an API key")
    assert not negates(point, "the server does not need an API key")
    assert not negates(point, "the server needs no API key")
    zh = BANKS["zh"]["mcp-capabilities"].framework[4].point
    assert negates(zh, "服务器需要 API key") and not negates(zh, "服务器不需要 API key")


def test_denying_the_reversed_claim_agrees():
    assert reverses(SAMPLING, "the model requests a completion from the server")
    assert not contradicts(SAMPLING, "the model does not request a completion from the server")
    assert contradicts(SAMPLING, "the server does not request a completion from the model")


def test_relations_read_order_passive_and_parties_put_aside():
    assert {(a, b) for a, b, _ in relations("the server requests a completion from the model")} == {("server", "model")}
    assert {(a, b) for a, b, _ in relations("the model is asked by the server for a completion")} == {("server", "model")}
    assert relations("The app (not the model) parses `arguments` and runs the real function.") == frozenset()
    assert relations("由应用（而不是模型）解析 arguments") == frozenset()


def test_a_contradicted_segment_takes_its_label_and_a_bare_term_claims_nothing():
    assert consistent_part(SAMPLING, "Sampling: the model requests a completion from the server, and it needs "
                                     "no API key.") == "and it needs no API key"
    q = BANKS["zh"]["schema-strict-limits"]
    assert score_answer(q, "格式、语义").named == [0]       # named, not contradicted by 而不是含义
    assert 0 in score_answer(q, "只保证格式，不保证语义。").made   # "only format, not meaning" agrees


#: the graded answers' scores with the scorer before this change (measured 2026-12-03): good, partial, lists, off
BEFORE = {"q3-fault-tolerance": ([100], [40], [20, 20], [0]), "fc-five-steps": ([100], [40], [20, 16], [0]),
          "schema-strict-limits": ([100], [40], {"en": [20], "zh": [12]}, [0]),
          "jsonrpc-basics": ([100], [40], {"en": [20], "zh": [8]}, [0]),
          "q2-fc-vs-mcp": ([100], [40], {"en": [20], "zh": [12]}, [0]),
          "schema-structured-vs-tool": ([100], [50], [10], [0])}


def test_the_graded_answers_score_as_before():
    """Noticing denials and reversals costs no good answer anything: all 52 score what they scored before."""
    got: dict[tuple[str, str, str], list[int]] = {}
    for qid, lang, grade, text in GRADED:
        got.setdefault((qid, lang, grade), []).append(score_answer(BANKS[lang][qid], text).score)
    for (qid, lang, grade), scores in got.items():
        want = BEFORE[qid][("good", "partial", "list", "off").index(grade)]
        assert scores == (want[lang] if isinstance(want, dict) else want), (qid, lang, grade)
