"""Who made a thing and when: an origins point is not made by an answer that gives it to another maker or year
(course_lib.interview.scoring.misattributes; the makers are data in course_lib/data/interview_relations.json)."""
from __future__ import annotations

import pytest

from course_lib.interview.bank import load_bank
from course_lib.interview.scoring import facts, misattributes, score_answer

BANKS = {"en": load_bank(), "zh": load_bank(lang="zh")}
ORIGINS = "fc-origins"  # points: 0 function calling (OpenAI, 2023), 1 MCP (Anthropic, 2024), 2 A2A (Google, 2025)


@pytest.mark.parametrize("lang, answer, point, made", [
    ("en", "OpenAI added function calling to its API in June 2023.", 0, True),
    ("en", "Google invented function calling in June 2021.", 0, False),
    ("en", "Function calling came from Anthropic.", 0, False),
    ("en", "Anthropic announced MCP in November 2024.", 1, True),
    ("en", "Microsoft released MCP in 2022.", 1, False),
    ("en", "A2A came from Google in April 2025.", 2, True),
    ("en", "A2A came from OpenAI in April 2025.", 2, False),
    ("zh", "MCP 是 Anthropic 在 2024 年 11 月推出的。", 1, True),
    ("zh", "MCP 是微软在 2022 年推出的。", 1, False),
])
def test_an_origins_point_needs_its_own_maker_and_year(lang, answer, point, made):
    assert (point in score_answer(BANKS[lang][ORIGINS], answer).made) is made


def test_an_answer_with_every_maker_and_year_wrong_no_longer_scores_full_marks():
    wrong = ("Google invented function calling in June 2021. OpenAI released MCP in November 2023. Microsoft "
             "announced A2A in April 2024.")
    right = ("OpenAI added function calling in June 2023. Anthropic announced MCP in November 2024. Google "
             "announced A2A in April 2025.")
    question = BANKS["en"][ORIGINS]
    assert score_answer(question, right).made[:3] == [0, 1, 2]
    assert len(score_answer(question, wrong).made) <= 1  # was all three: any year or maker word was enough


def test_facts_read_makers_in_both_languages_and_years_that_are_no_quantities():
    assert facts("谷歌 and Microsoft in 2024, a 2000 ms timeout, 2048 tokens") == (
        frozenset({"google", "microsoft"}), frozenset({"2024"}))
    assert facts("block the call for 30 s") == (frozenset(), frozenset())  # 'block' is a verb, not the company


def test_naming_one_of_the_points_makers_or_no_maker_at_all_is_no_misattribution():
    point = "Governance: A2A moved to the Linux Foundation (June 2025); MCP to the Agentic AI Foundation."
    assert not misattributes(point, "A2A now sits in the Linux Foundation")
    assert not misattributes(point, "both moved to neutral foundations")
    assert misattributes(point, "Microsoft governs A2A")
