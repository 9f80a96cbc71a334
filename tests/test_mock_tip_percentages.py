"""A percent in a request fills a number slot after what the slot means: a *percentage* slot takes "15%" as 15, a
*rate* or *fraction* slot (or one whose description says 0-1 or "as a decimal") as 0.15; and Chinese tip and
share requests ("84.5元的账单给15%小费", "账单84.5元，小费15%") reach a tip tool and a calculator.

Our own tip and calculator tools, through the real ``openai`` client.
"""
from __future__ import annotations

import pytest

from course_lib.mock_llm import arithmetic
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

CALC = tool("calculator", "Evaluate a math expression.", {"expression": {"type": "string"}})


def tip_tool(percent_name: str, percent_description: str = "") -> dict:
    """A ``calculate_tip(bill_amount, <percent_name>)`` tool, the percent slot described or not."""
    percent = {"type": "number", **({"description": percent_description} if percent_description else {})}
    return tool("calculate_tip", "Calculate the tip for a restaurant bill.",
                {"bill_amount": {"type": "number"}, percent_name: percent})


@pytest.mark.parametrize("text, bill, percent", [
    ("What's a 15% tip on $84.50?", 84.5, 15),
    ("Tip 20 percent on a 60 dollar bill", 60, 20),
    ("Work out an 18% tip for a bill of $42", 42, 18),
])
def test_a_percentage_slot_takes_the_figure_as_written(client, text, bill, percent):
    assert calls(client, text, [tip_tool("tip_percentage")]) == [
        ("calculate_tip", {"bill_amount": bill, "tip_percentage": percent})]


@pytest.mark.parametrize("name, description", [
    ("tip_rate", ""),                                                # a rate: a share of one
    ("tip_fraction", ""),
    ("tip_percentage", "The tip percentage as a decimal."),          # the description wins over the name
    ("tip_percentage", "Tip as a fraction between 0 and 1."),
])
def test_a_rate_or_fraction_slot_takes_the_share(client, name, description):
    assert calls(client, "What's a 15% tip on $84.50?", [tip_tool(name, description)]) == [
        ("calculate_tip", {"bill_amount": 84.5, name: 0.15})]


def test_a_description_in_percent_keeps_the_figure_for_any_name(client):
    out = calls(client, "What's a 15% tip on $84.50?", [tip_tool("tip_rate", "The tip rate in percent, e.g. 15.")])
    assert out == [("calculate_tip", {"bill_amount": 84.5, "tip_rate": 15})]


@pytest.mark.parametrize("text, bill, percent", [
    ("84.5元的账单给15%小费", 84.5, 15),
    ("账单84.5元，小费15%是多少", 84.5, 15),
    ("给120元的餐费付百分之十八的小费", 120, 18),
])
def test_chinese_tip_requests_fill_the_tip_tool(client, text, bill, percent):
    assert calls(client, text, [tip_tool("tip_percentage")]) == [
        ("calculate_tip", {"bill_amount": bill, "tip_percentage": percent})]
    assert calls(client, text, [tip_tool("tip_rate")]) == [
        ("calculate_tip", {"bill_amount": bill, "tip_rate": round(percent / 100, 10)})]


@pytest.mark.parametrize("text, expression, value", [
    ("84.5元的账单给15%小费", "15 / 100 * 84.5", 12.675),
    ("账单84.5元，小费15%是多少", "15 / 100 * 84.5", 12.675),
    ("200元的餐费加10%服务费是多少", "10 / 100 * 200", 20),
    ("80的百分之十五", "15 / 100 * 80", 12),
    ("300的百分之二十五是多少？", "25 / 100 * 300", 75),
])
def test_chinese_shares_fill_a_calculator(client, text, expression, value):
    assert calls(client, text, [CALC]) == [("calculator", {"expression": expression})]
    assert arithmetic.evaluate(expression) == pytest.approx(value)


@pytest.mark.parametrize("text", ["2023年的15%税", "我有3，15%税", "买了3件，15%的税"])
def test_no_chinese_share_without_an_amount_of_money(text):
    """A year or a bare count before the percent is no amount the share is of."""
    assert not any(a.operation == "pct" for a in arithmetic.find(text))
    assert [a.expression for a in arithmetic.find("50元的账单给10%小费")] == ["10 / 100 * 50"]  # the control
