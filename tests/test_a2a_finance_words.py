"""The finance agent reads what a request asks about in English and Chinese (issue 20 item 6).

Skill selection (``skill_score``/``Orchestrator.choose``) and the agent's plan (``plan_finance_request``) share one
data file of finance words, ``course_lib/data/finance_words.json``: a measure said in words no tag holds
(收入, 销售额, 营业额, 净收入, sales, income, earnings) still finds the revenue/profit skill, and a measure the
table does not hold (支出, expenses, 成本) is refused with that reason, in the request's language.
"""
from __future__ import annotations

import pytest

from course_lib.a2a_agents import (AskInput, Orchestrator, Reject, RunQuery, finance_agent_card, finance_concepts,
                                   plan_finance_request, skill_score)
from course_lib.package_data import load_json

CARD = finance_agent_card("http://finance.local")


def _chosen(request: str) -> str | None:
    orch = Orchestrator()
    orch.cards = {"http://finance.local": CARD}
    ref = orch.choose(request)
    return ref.id if ref else None


@pytest.mark.parametrize("request_text, concepts", [
    ("上个季度的营收是多少？", ("revenue", "finance")),
    ("上个季度的收入是多少？", ("revenue", "finance")),
    ("查一下2024年的营业额", ("revenue", "finance")),
    ("2023年销售额多少", ("revenue", "finance")),
    ("Show 2023 sales", ("revenue", "finance")),
    ("What was our income in 2024?", ("revenue", "finance")),
    ("2024年的净收入是多少", ("net_profit", "finance")),  # 净收入 is net profit, not also 收入
    ("What was the net income in 2023?", ("net_profit", "finance")),
    ("去年的盈利怎么样", ("net_profit", "finance")),
    ("今年的支出是多少", ("expenses", "finance")),
    ("What were our costs in 2023?", ("expenses", "finance")),
    ("营收和利润", ("revenue", "net_profit", "finance")),
    ("财务数据库有哪些表", ("finance",)),
    ("上海天气怎么样", ()),
    ("What's the weather in Paris?", ()),
    ("This costume is nice", ()),  # whole English words: 'cost' is not in 'costume'
])
def test_finance_concepts(request_text, concepts):
    assert finance_concepts(request_text) == concepts


@pytest.mark.parametrize("request_text", [
    "上个季度的营收是多少？", "上个季度的收入是多少？", "查一下2024年的营业额", "2024年的净收入是多少", "去年的盈利怎么样",
    "Show 2023 sales", "What were the earnings in 2022?",
])
def test_a_finance_request_in_other_words_finds_the_report_skill(request_text):
    scores = [skill_score(s, request_text) for s in CARD.skills]
    assert scores[0] > scores[1] >= 0 and _chosen(request_text) == "finance_report"


def test_no_finance_word_no_skill():
    for request in ("上海天气怎么样", "What's the weather in Paris?", "帮我订一张去北京的机票"):
        assert [skill_score(s, request) for s in CARD.skills] == [0, 0] and _chosen(request) is None
    assert _chosen("SELECT year FROM finance") == "sql_query"


def test_the_plan_reads_the_same_words():
    assert plan_finance_request(["上个季度的收入是多少？"]) == AskInput("哪一年？财务数据库有 2022–2024 年的数据。")
    plan = plan_finance_request(["查一下2024年的营业额"])
    assert isinstance(plan, RunQuery) and (plan.metrics, plan.years, plan.chinese) == (("revenue",), (2024,), True)
    plan = plan_finance_request(["2023年的净收入和销售额"])
    assert plan.metrics == ("revenue", "net_profit") and plan.years == (2023,)
    assert plan_finance_request(["What was our income in 2024?"]).metrics == ("revenue",)


def test_a_measure_the_table_does_not_hold_is_refused_with_the_reason_in_the_requests_language():
    assert plan_finance_request(["今年的支出是多少"]) == Reject("财务数据库只有营收和净利润，没有支出的数据。")
    assert plan_finance_request(["2023年的成本"]) == Reject("财务数据库只有营收和净利润，没有支出的数据。")
    assert plan_finance_request(["What were our expenses in 2023?"]) == Reject(
        "The finance database holds revenue and net profit, not expenses.")
    assert plan_finance_request(["上海天气怎么样"]).reason.startswith("我只回答公司营收和净利润的问题")


def test_the_words_are_data():
    data = load_json("finance_words.json")
    assert set(data["measures"]) == {"revenue", "net_profit", "expenses"}
    assert all(entry["en"] and entry["zh"] for entry in data["measures"].values())
    assert {e["column"] for e in data["measures"].values()} == {"revenue", "net_profit", None}
