"""The interview scorer: a key term with nothing of its point around it, and a key term named to be denied.

A candidate who says "I really like OpenAI" to "Where do function calling, MCP and A2A come from?" has said the
word of a point, not the point; one who says "A2A was not created by Google" has said its opposite. Before this
change each scored 25 (a whole point of four); a sentence that says something of the point still makes it.
"""
from __future__ import annotations

import pytest

from course_lib.interview.bank import load_bank
from course_lib.interview.scoring import denies_term, score_answer
from course_lib.interview.timed import SCORER_READS_WORDS, MockInterview

EN, ZH = load_bank(), load_bank(lang="zh")
ORIGINS = "fc-origins"  # points: 0 OpenAI's function calling, 1 Anthropic's MCP, 2 Google's A2A, 3 governance


@pytest.mark.parametrize("bank, text, point", [
    (EN, "I really like OpenAI.", 0),
    (EN, "MCP is cool.", 1),
    (EN, "Google is a big company.", 2),
    (EN, "There was something in 2023 I think.", 0),
])
def test_a_key_term_with_nothing_of_its_point_only_names_it(bank, text, point):
    result = score_answer(bank[ORIGINS], text)
    assert result.made == [] and result.named == [point] and result.score == 5, result


@pytest.mark.parametrize("bank, text, point", [
    (EN, "OpenAI shipped function calling in June 2023.", 0),
    (EN, "A2A was donated to the Linux Foundation in 2025.", 3),
    (EN, "Anthropic released MCP in November 2024.", 1),
    (ZH, "A2A 于 2025 年由谷歌发布。", 2),
])
def test_a_sentence_about_the_point_still_makes_it(bank, text, point):
    assert score_answer(bank[ORIGINS], text).made == [point]


@pytest.mark.parametrize("bank, text", [
    (EN, "A2A was not created by Google."),
    (EN, "MCP has nothing to do with Anthropic."),
    (EN, "It is governed by OpenAI, never by the Linux Foundation."),
    (ZH, "A2A 不是谷歌做的。"),
])
def test_a_point_whose_term_is_denied_is_not_made(bank, text):
    result = score_answer(bank[ORIGINS], text)
    denied = {"Google": 2, "谷歌": 2, "Anthropic": 1, "Linux": 3}
    point = next(i for word, i in denied.items() if word in text)
    assert point not in result.made and point not in result.named, result


def test_denial_keeps_what_is_said_outside_it_and_what_the_point_denies_itself():
    governance = EN[ORIGINS].framework[3]
    assert denies_term(governance.point, governance.keywords, "governed by Google, not the Linux Foundation")
    assert not denies_term(governance.point, governance.keywords, "now with the Linux Foundation")
    # the term is also said outside the negation: not denied
    assert not denies_term("Retry with exponential backoff.", ["retry"], "retry with backoff rather than retrying at once")
    # a point that itself denies: "no id" is affirmed by "has no id", and a condition ("if no tool works") denies nothing
    assert not denies_term("Notification: no `id`, the server must not reply.", ["no id", "notification"],
                           "a notification has no id")
    assert not denies_term("Graceful degradation: tell the model the tool is unavailable.", ["degrad"],
                           "if no tool works the agent degrades gracefully")
    # Chinese: the word right after 不/不是 is denied, not the rest of the clause
    assert denies_term("2025 年 4 月：Google 推出 A2A。", ["google"], "A2A 不是谷歌做的")
    assert not denies_term("优雅降级：告诉模型工具不可用。", ["降级"], "所有工具都用不了的时候要优雅降级")


def test_the_mock_interview_report_says_how_it_scores():
    ticks = iter([0, 10])
    interview = MockInterview(n=1, seed=3, clock=lambda: next(ticks))
    interview.start()
    interview.answer("I really like OpenAI.")
    text = interview.report().text()
    assert text.endswith(SCORER_READS_WORDS) and "does not understand meaning" in text
    assert SCORER_READS_WORDS not in interview.report().text(details=False)


@pytest.mark.parametrize("lang, text", [
    ("en", "It does not use notifications/tools/list_changed and it does not use resources/subscribe; listChanged "
           "is useless. The client just polls."),
    ("zh", "不用 notifications/tools/list_changed，也不用 resources/subscribe，listChanged 没用，客户端轮询就行。"),
    ("en", "Subscriptions are not needed: resources/subscribe is useless, the client polls."),
])
def test_an_answer_that_denies_every_mechanism_scores_nothing(lang, text):
    """Before: 25 (English) and 50 (Chinese, 'points 1 and 2 made') for an answer that rejects both mechanisms."""
    bank = EN if lang == "en" else ZH
    for card in (bank["mcp-subscriptions"], (ZH if bank is EN else EN)["mcp-subscriptions"]):
        result = score_answer(card, text)
        assert result.made == [] and result.score <= 5, result


@pytest.mark.parametrize("text, made", [
    ("Tools are controlled by the user, resources by the model, prompts by the application.", []),
    ("Tools are controlled by the model, resources by the application, prompts by the user.", [0, 1, 2]),
])
def test_who_controls_each_capability_said_the_wrong_way_is_not_made(text, made):
    """Before: the swapped answer scored 60, as the right one (a newcomer's mock interview)."""
    result = score_answer(EN["mcp-capabilities"], text)
    assert [i for i in result.made if i < 3] == made, result
