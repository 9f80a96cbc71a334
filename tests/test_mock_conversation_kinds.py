"""Conversations as other models and tutorials write them (issue 13 item 3): results, clarifying questions.

The earlier assistant turns in a learner's conversation often come from a tutorial or another model,
not from the mock: their calls carry more arguments, their questions are worded their own way.
"""
from __future__ import annotations

from course_lib.mock_llm import MockLLM


def tool(name, description, properties, required):
    return {"type": "function", "function": {"name": name, "description": description,
                                             "parameters": {"type": "object", "properties": properties,
                                                            "required": required}}}


WEATHER = tool("get_weather", "Get the current weather in a given location",
               {"location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, ["location"])
ALERTS = tool("get_alerts", "Get weather alerts for a US state",
              {"state": {"type": "string", "description": "Two-letter US state code (e.g. CA, NY)"}}, ["state"])
CANCEL = tool("cancel_order", "Cancel an order", {"order_id": {"type": "string", "description": "The order's id"}},
              ["order_id"])
BET = tool("roulette_wheel", "Check if the square is a winner", {"square": {"type": "integer"}}, ["square"])


def reply(messages, *tools):
    return MockLLM().explain(messages, list(tools))


def after(question, name, arguments, result):
    return [{"role": "user", "content": question},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": name, "arguments": arguments}}]},
            {"role": "tool", "tool_call_id": "call_1", "content": result}]


def test_a_made_call_with_fuller_arguments_is_answered_not_made_again():
    e = reply(after("What's the weather like in Denver?", "get_weather",
                    '{"location": "Denver, CO", "unit": "fahrenheit"}', "41°F, light snow"), WEATHER)
    assert e.tool_calls == [] and "41" in e.content


def test_a_state_called_by_its_code_is_the_same_call():
    e = reply(after("Any weather alerts in Oregon?", "get_alerts", '{"state": "OR"}', '{"alerts": []}'), ALERTS)
    assert e.tool_calls == []


def test_a_chinese_city_written_fuller_is_the_same_call():
    e = reply(after("成都天气怎么样", "get_weather", '{"location": "成都市"}', '{"temperature": 18}'), WEATHER)
    assert e.tool_calls == [] and "18" in e.content


def test_the_unit_a_result_states_is_the_unit_said():
    e = reply(after("What's the weather like in Denver?", "get_weather", '{"location": "Denver, CO"}',
                    '{"temperature": "41", "unit": "fahrenheit"}'), WEATHER)
    assert "41 °F" in e.content and "°C" not in e.content


def test_an_answer_to_another_models_question_fills_the_argument_it_names():
    messages = [{"role": "user", "content": "I want to cancel my order."},
                {"role": "assistant", "content": "I can help with that. What is the order ID?"},
                {"role": "user", "content": "It's K77."}]
    e = reply(messages, CANCEL)
    assert [(c.name, c.arguments) for c in e.tool_calls] == [("cancel_order", {"order_id": "K77"})]


def test_the_tool_with_the_argument_the_question_names_when_the_request_named_none():
    messages = [{"role": "user", "content": "I want to place a bet"},
                {"role": "assistant", "content": "Which square do you want to bet on?"},
                {"role": "user", "content": "twenty-one"}]
    e = reply(messages, BET, CANCEL)
    assert [(c.name, c.arguments) for c in e.tool_calls] == [("roulette_wheel", {"square": 21})]
