"""A share of an amount written as a percent before its noun: "15% tip on $84.50" is 15 % of 84.50, for a
calculator's expression as for "15 % of 80"; a discount (which may ask for the new price) is not read so.

Our own calculator tool, through the real ``openai`` client.
"""
from __future__ import annotations

import pytest

from course_lib.mock_llm import arithmetic
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

CALC = tool("calculator", "Evaluate a math expression.", {"expression": {"type": "string"}})


@pytest.mark.parametrize("text, expression, value", [
    ("15% tip on $84.50", "15 / 100 * 84.5", 12.675),
    ("What's a 20 percent tip on a $45 bill?", "20 / 100 * 45", 9),
    ("How much is 8% sales tax on $250?", "8 / 100 * 250", 20),
    ("18% gratuity for the €120 dinner", "18 / 100 * 120", 21.6),
])
def test_percent_share_on_an_amount_fills_the_expression(client, text, expression, value):
    assert calls(client, text, [CALC]) == [("calculator", {"expression": expression})]
    assert arithmetic.evaluate(expression) == pytest.approx(value)


@pytest.mark.parametrize("text", ["15% discount on $80", "a 15% tip on top, please"])
def test_no_share_read_without_its_noun_or_amount(text):
    assert not any("/ 100 *" in a.expression for a in arithmetic.find(text))
    assert [a.expression for a in arithmetic.find("15% of 80")] == ["15 / 100 * 80"]  # the check's own control
