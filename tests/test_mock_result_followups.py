"""Follow-up questions about an earlier tool result (issue 13): "When will it arrive?" after an order status,
"Which day is sunny?" after a forecast, 它什么时候到？ are answered from the result in the conversation (no new call,
no "none of my tools can help") when it holds the answer; when it does not, the tool is called again if its own
words say it gives that, else the reply says the result does not say. Our own tools, through the openai SDK."""
from __future__ import annotations

import json

import pytest

from mock_support import client, tool  # noqa: F401 (client: the module's fixture)

ORDER = tool("get_order_status", "Get the status of an order.", {"order_id": {"type": "string"}})
TRACKED = tool("get_order_status", "Get the status of an order, with its carrier and tracking number.",
               {"order_id": {"type": "string"}})
FORECAST = tool("get_forecast", "Get the weather forecast for the next days in a city.",
                {"city": {"type": "string"}, "days": {"type": "integer"}})
BOOKING = tool("get_booking", "Look up a restaurant booking.", {"booking_id": {"type": "string"}})
STOCK = tool("get_stock_price", "Get the latest stock price for a ticker symbol.", {"ticker": {"type": "string"}})


def _after(client, call: tuple[str, dict], result: dict, question: str, tools: list[dict]):
    """The reply to ``question`` after one earlier call and its result: ``[(name, arguments)]`` or text."""
    name, args = call
    messages = [{"role": "user", "content": "x"},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]},
                {"role": "tool", "tool_call_id": "c1", "content": json.dumps(result)},
                {"role": "assistant", "content": "Done."},
                {"role": "user", "content": question}]
    msg = client.chat.completions.create(model="mock", messages=messages, tools=tools).choices[0].message
    return [(c.function.name, json.loads(c.function.arguments)) for c in msg.tool_calls] if msg.tool_calls \
        else msg.content


SHIPPED = {"order_id": "A-1042", "status": "shipped", "estimated_delivery": "2026-12-08", "carrier": "DHL"}
DAYS = {"city": "Paris", "days": [{"date": "2026-12-05", "condition": "rain"},
                                  {"date": "2026-12-06", "condition": "sunny"},
                                  {"date": "2026-12-07", "condition": "cloudy"}]}


@pytest.mark.parametrize("call, result, question, tools, said", [
    (("get_order_status", {"order_id": "A-1042"}), SHIPPED, "When will it arrive?", [ORDER], "2026-12-08"),
    (("get_order_status", {"order_id": "A-1042"}), SHIPPED, "Which carrier is it with?", [ORDER], "DHL"),
    (("get_order_status", {"order_id": "A-1042"}), SHIPPED, "它什么时候到？", [ORDER], "2026-12-08"),
    (("get_forecast", {"city": "Paris", "days": 3}), DAYS, "Which day is sunny?", [FORECAST], "2026-12-06"),
    (("get_forecast", {"city": "Paris", "days": 3}), DAYS, "哪天是晴天？", [FORECAST], "2026-12-06"),
    (("get_booking", {"booking_id": "R-9"}), {"restaurant": "Luigi's", "time": "19:30", "party_size": 4},
     "What time is the table?", [BOOKING], "19:30"),
    (("get_booking", {"booking_id": "R-9"}), {"restaurant": "Luigi's", "time": "19:30", "party_size": 4},
     "How many people is it for?", [BOOKING], "4"),
    (("get_stock_price", {"ticker": "NVDA"}), {"ticker": "NVDA", "price": 131.2, "currency": "USD"},
     "How much is it?", [STOCK], "131.2"),
])
def test_answered_from_the_result(client, call, result, question, tools, said):
    reply = _after(client, call, result, question, tools)
    assert isinstance(reply, str) and said in reply and "none of my tools" not in reply and "都不适合" not in reply


@pytest.mark.parametrize("question, yes", [("Will it rain on Saturday?", True), ("Will it rain on Sunday?", False)])
def test_a_day_named_is_that_days_item(client, question, yes):
    reply = _after(client, ("get_forecast", {"city": "Paris", "days": 3}), DAYS, question, [FORECAST])
    assert reply.startswith("Yes" if yes else "No") and ("2026-12-05" if yes else "2026-12-06") in reply


def test_not_in_the_result_said_so(client):
    reply = _after(client, ("get_order_status", {"order_id": "A-1042"}), {"order_id": "A-1042", "status": "shipped"},
                   "When will it arrive?", [ORDER])
    assert "does not say" in reply and "get_order_status" in reply


def test_not_in_the_result_but_the_tool_gives_it_called_again(client):
    reply = _after(client, ("get_order_status", {"order_id": "A-1042"}), {"order_id": "A-1042", "status": "shipped"},
                   "What's its tracking number?", [TRACKED])
    assert reply == [("get_order_status", {"order_id": "A-1042"})]


def test_a_new_subject_is_a_new_call(client):
    assert _after(client, ("get_forecast", {"city": "Paris", "days": 3}), DAYS, "And in London for 3 days?",
                  [FORECAST]) == [("get_forecast", {"city": "London", "days": 3})]
