"""The reply accounts for every clause (issue 13): a clause the mock does not act on says why (forbidden, advice,
the past, taken back), a clause none of the tools serves says that, and a clause no tool serves lends no value to
another tool's call ("... and book me a flight to Rome" with a weather tool calls no weather in Rome). Our own
tools, through the openai SDK, English and Chinese."""
from __future__ import annotations

import json

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

WEATHER = tool("get_weather", "Get the current weather for a city.", {"city": {"type": "string"}})
DELETE = tool("delete_file", "Delete a file.", {"path": {"type": "string"}})
CANCEL = tool("cancel_order", "Cancel an order.", {"order_id": {"type": "string"}})
HOROSCOPE = tool("get_horoscope", "Get today's horoscope for an astrological sign.", {"sign": {"type": "string"}})
TOOLS = [WEATHER, DELETE, CANCEL]


@pytest.mark.parametrize("text, why", [
    ("Never delete a.txt", "asked me not to"),
    ("不要删除a.txt", "要求不要"),
    ("Should I cancel order A-1042?", "advice"),
    ("I already cancelled order A-1042 yesterday", "already done"),
    ("Delete notes.md. Actually no, keep it.", "took it back"),
])
def test_a_clause_set_aside_says_why(client, text, why):
    reply = calls(client, text, TOOLS)
    assert isinstance(reply, str) and why in reply
    assert "none of my tools" not in reply.lower() and "都不适合" not in reply


@pytest.mark.parametrize("text, held, left", [
    ("Don't delete a.txt, just tell me a joke", "Don't delete a.txt", "tell me a joke"),
    ("Never cancel order A-1042. What is the capital of Peru?", "Never cancel order A-1042", "capital of Peru"),
    ("不要删除a.txt，给我讲个笑话", "不要删除a.txt", "给我讲个笑话"),
])
def test_set_aside_and_unserved_both_said(client, text, held, left):
    reply = calls(client, text, TOOLS)
    assert held in reply and left in reply


def _final(client, text: str, tools: list[dict], result: dict):
    messages = [{"role": "user", "content": text}]
    msg = client.chat.completions.create(model="mock", messages=messages, tools=tools).choices[0].message
    made = [(c.function.name, json.loads(c.function.arguments)) for c in msg.tool_calls]
    messages.append({"role": "assistant", "content": None, "tool_calls": [
        {"id": c.id, "type": "function", "function": {"name": c.function.name, "arguments": c.function.arguments}}
        for c in msg.tool_calls]})
    messages += [{"role": "tool", "tool_call_id": c.id, "content": json.dumps(result)} for c in msg.tool_calls]
    final = client.chat.completions.create(model="mock", messages=messages, tools=tools).choices[0].message.content
    return made, final


@pytest.mark.parametrize("text, tools, want, said", [
    ("What's the weather in Paris and book me a flight to Rome", [WEATHER], [("get_weather", {"city": "Paris"})],
     "book me a flight to Rome"),
    ("Delete a.txt and tell me a joke", [DELETE], [("delete_file", {"path": "a.txt"})], "tell me a joke"),
    ("Never delete a.txt, and what's the weather in Oslo?", [WEATHER, DELETE], [("get_weather", {"city": "Oslo"})],
     "Never delete a.txt"),
    ("查一下北京的天气，然后给我讲个笑话", [WEATHER], [("get_weather", {"city": "北京"})], "讲个笑话"),
])
def test_the_answer_after_results_says_the_rest(client, text, tools, want, said):
    made, final = _final(client, text, tools, {"condition": "cloudy", "temp_c": 9, "deleted": True})
    assert made == want and said in final


def test_a_detail_is_no_clause_of_its_own(client):
    made, final = _final(client, "What's my horoscope for today? I am an Aquarius.", [HOROSCOPE],
                         {"sign": "Aquarius", "horoscope": "A calm day."})
    assert made == [("get_horoscope", {"sign": "Aquarius"})] and "can help" not in final
