"""Conditional requests (issue 13): "If it rains in Shanghai, remind me to take an umbrella" calls the condition's
tool alone first; the consequence's tool is called after the result, only if the result says the condition
holds; otherwise the answer says it does not (or that the result cannot tell) and nothing is done. Our own
tools, through the openai SDK, English and Chinese, leading and trailing conditions, 'unless', numbers."""
from __future__ import annotations

import json

import pytest

from mock_support import client, tool  # noqa: F401 (client: the module's fixture)

WEATHER = tool("get_weather", "Get the current weather for a city.", {"city": {"type": "string"}})
REMIND = tool("create_reminder", "Create a reminder with a text.", {"text": {"type": "string"}})
PRICE = tool("get_stock_price", "Get the latest stock price for a ticker symbol.", {"ticker": {"type": "string"}})
BUY = tool("buy_stock", "Buy shares of a stock.", {"ticker": {"type": "string"}, "shares": {"type": "integer"}})
EMAIL = tool("send_email", "Send an email to someone.", {"to": {"type": "string"}, "body": {"type": "string"}})
ORDER = tool("get_order_status", "Get the status of an order.", {"order_id": {"type": "string"}})
CANCEL = tool("cancel_order", "Cancel an order.", {"order_id": {"type": "string"}})


def _run(client, text: str, tools: list[dict], results: dict[str, dict]) -> tuple[list[list[tuple]], str]:
    """Every round of calls until the final text, each tool answering ``results[name]``."""
    messages = [{"role": "user", "content": text}]
    rounds = []
    for _ in range(4):
        msg = client.chat.completions.create(model="mock", messages=messages, tools=tools).choices[0].message
        if not msg.tool_calls:
            return rounds, msg.content
        rounds.append([(c.function.name, json.loads(c.function.arguments)) for c in msg.tool_calls])
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": c.id, "type": "function", "function": {"name": c.function.name, "arguments": c.function.arguments}}
            for c in msg.tool_calls]})
        messages += [{"role": "tool", "tool_call_id": c.id, "content": json.dumps(results[c.function.name])}
                     for c in msg.tool_calls]
    raise AssertionError("no final answer")


RAIN = {"get_weather": {"condition": "light rain", "temp_c": 14}, "create_reminder": {"id": 3, "status": "created"}}
SUN = {"get_weather": {"condition": "sunny", "temp_c": 26}, "create_reminder": {"id": 3, "status": "created"}}


@pytest.mark.parametrize("text, city, thing", [
    ("If it rains in Shanghai, remind me to take an umbrella", "Shanghai", "take an umbrella"),
    ("Remind me to close the windows if it rains in Oslo", "Oslo", "close the windows"),
    ("如果北京下雨，提醒我带伞", "北京", "带伞"),
    ("要是杭州下雨的话就提醒我收衣服", "杭州", "收衣服"),
])
def test_condition_first_then_consequence_when_it_holds(client, text, city, thing):
    rounds, final = _run(client, text, [WEATHER, REMIND], RAIN)
    assert rounds == [[("get_weather", {"city": city})], [("create_reminder", {"text": thing})]]
    assert "3" in final  # the reminder's result is told


@pytest.mark.parametrize("text", [
    "If it rains in Shanghai, remind me to take an umbrella",
    "Remind me to close the windows if it rains in Oslo",
    "如果北京下雨，提醒我带伞",
])
def test_no_consequence_when_the_result_says_otherwise(client, text):
    rounds, final = _run(client, text, [WEATHER, REMIND], SUN)
    assert rounds == [[("get_weather", {"city": rounds[0][0][1]["city"]})]]
    assert "create_reminder" in final and "sunny" in final
    assert "not" in final or "没有" in final


def test_unless_turns_the_condition_round(client):
    text = "Unless it is sunny in Madrid, remind me to take a jacket"
    assert _run(client, text, [WEATHER, REMIND], SUN)[0] == [[("get_weather", {"city": "Madrid"})]]
    rounds, _ = _run(client, text, [WEATHER, REMIND], RAIN)
    assert rounds[1] == [("create_reminder", {"text": "take a jacket"})]


@pytest.mark.parametrize("price, bought", [(142.5, True), (171.0, False)])
def test_a_number_compared(client, price, bought):
    text = "If AAPL is below 150 dollars, buy 10 shares of AAPL"
    rounds, final = _run(client, text, [PRICE, BUY], {"get_stock_price": {"ticker": "AAPL", "price": price},
                                                       "buy_stock": {"status": "filled"}})
    assert rounds[0] == [("get_stock_price", {"ticker": "AAPL"})]
    assert (rounds[1:] == [[("buy_stock", {"ticker": "AAPL", "shares": 10})]]) is bought
    if not bought:
        assert "buy_stock" in final


@pytest.mark.parametrize("status, cancelled", [("processing", False), ("shipped", True)])
def test_a_state_in_the_result(client, status, cancelled):
    text = "If order B-77 has shipped, cancel order B-77"
    rounds, _ = _run(client, text, [ORDER, CANCEL], {"get_order_status": {"order_id": "B-77", "status": status},
                                                     "cancel_order": {"status": "cancelled"}})
    assert rounds[0] == [("get_order_status", {"order_id": "B-77"})]
    assert (len(rounds) == 2) is cancelled


@pytest.mark.parametrize("text, want", [
    ("Check if it rains in Paris", [[("get_weather", {"city": "Paris"})]]),  # an embedded question: no condition
    ("Remind me to buy milk", [[("create_reminder", {"text": "buy milk"})]]),
])
def test_no_condition_no_wait(client, text, want):
    assert _run(client, text, [WEATHER, REMIND], RAIN)[0] == want


THERMO = tool("set_thermostat", "Set the thermostat temperature.", {"temperature": {"type": "number"}})


@pytest.mark.parametrize("temp, want", [(24, 20), (15, 18)])
def test_otherwise_is_done_when_the_condition_fails(client, temp, want):
    """The compared number (20°C) is for the result, no argument of the weather call; one branch is called."""
    text = "If it's warmer than 20°C in London, set the thermostat to 20°C, otherwise set it to 18°C."
    rounds, _ = _run(client, text, [WEATHER, THERMO], {"get_weather": {"condition": "cloudy", "temp_c": temp},
                                                       "set_thermostat": {"ok": True}})
    assert rounds == [[("get_weather", {"city": "London"})], [("set_thermostat", {"temperature": want})]]


def test_a_scenario_the_user_sets_is_no_condition(client):
    """'if we increase the sales by 10%' is a value of one call, not a state to check first."""
    rev = tool("forecast_revenue", "Forecast a company's revenue.", {"company": {"type": "string"},
                                                                     "increase_percentage": {"type": "number"}})
    got = _run(client, "How much revenue would ACME make if we increase sales by 10%?", [rev, REMIND],
               {"forecast_revenue": {"revenue": 1}})[0]
    assert got == [[("forecast_revenue", {"company": "ACME", "increase_percentage": 10})]]
