"""Two requests in one Chinese sentence (issue 13, kind 'two tools' actions'): after a comma, 并 / 顺便 / 而且 open a
clause of its own, so each clause that asks a different tool gets its call (parallel tool_calls), as "..., and
convert 100 USD to CNY" does in English. Our own tools, through the openai SDK."""
from __future__ import annotations

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

WEATHER = tool("get_weather", "Get the current weather for a city.", {"city": {"type": "string"}})
CONVERT = tool("convert_currency", "Convert an amount from one currency to another.",
               {"amount": {"type": "number"}, "from_currency": {"type": "string"}, "to_currency": {"type": "string"}})
TIME = tool("get_time", "Get the current local time in a city.", {"city": {"type": "string"}})
REMIND = tool("create_reminder", "Create a reminder with a text.", {"text": {"type": "string"}})
TOOLS = [WEATHER, CONVERT, TIME, REMIND]


@pytest.mark.parametrize("text, want", [
    ("上海天气怎么样，并把100美元换成人民币",
     [("get_weather", {"city": "上海"}), ("convert_currency", {"amount": 100, "from_currency": "USD", "to_currency": "CNY"})]),
    ("查一下东京的天气，顺便把50欧元换成日元",
     [("get_weather", {"city": "东京"}), ("convert_currency", {"amount": 50, "from_currency": "EUR", "to_currency": "JPY"})]),
    ("告诉我巴黎的天气，并告诉我那里现在几点", [("get_weather", {"city": "巴黎"}), ("get_time", {"city": "巴黎"})]),
    ("查一下北京天气，并提醒我明天开会", [("get_weather", {"city": "北京"}), ("create_reminder", {"text": "明天开会"})]),
])
def test_each_clause_its_own_tool(client, text, want):
    assert calls(client, text, TOOLS) == want


def test_one_tool_after_bing_stays_one_call(client):
    """并 inside a word or one request of one tool splits nothing that plans a second call."""
    assert calls(client, "查询并告诉我上海的天气", TOOLS) == [("get_weather", {"city": "上海"})]
