"""The Responses API loop: every output item goes back, reasoning items stay with their calls."""
from __future__ import annotations

import json
from types import SimpleNamespace

from openai.types.responses import ResponseFunctionToolCall, ResponseReasoningItem

from course_lib.examples import WEATHER_TOOL, get_weather
from course_lib.function_calling import (missing_reasoning, responses_follow_up, responses_tool_loop,
                                         run_function_call)
from course_lib.mock_llm import MockLLM
from course_lib.tool_schemas import to_responses_tool

FUNCTIONS = {"get_weather": get_weather}
REASONING_OUTPUT = [
    ResponseReasoningItem(type="reasoning", id="rs_1", summary=[]),
    ResponseFunctionToolCall(type="function_call", id="fc_1", call_id="call_1", name="get_weather",
                             arguments='{"city": "Paris"}'),
]


def test_function_call_outputs_carry_results_and_errors_by_call_id():
    ok = run_function_call({"type": "function_call", "call_id": "c1", "name": "get_weather",
                            "arguments": '{"city": "Paris"}'}, FUNCTIONS)
    assert ok == {"type": "function_call_output", "call_id": "c1", "output": json.dumps(get_weather("Paris"))}
    bad = run_function_call({"type": "function_call", "call_id": "c2", "name": "get_weather", "arguments": "[1]"},
                            FUNCTIONS)
    assert bad["call_id"] == "c2" and json.loads(bad["output"])["error"].startswith("arguments must be a JSON object")


def test_the_follow_up_keeps_every_output_item_in_order_then_the_outputs():
    items = responses_follow_up("Weather in Paris?", SimpleNamespace(output=REASONING_OUTPUT), FUNCTIONS)
    assert [i.get("type", "message") for i in items] == ["message", "reasoning", "function_call",
                                                         "function_call_output"]
    assert items[0] == {"role": "user", "content": "Weather in Paris?"} and items[3]["call_id"] == "call_1"
    assert missing_reasoning(items, REASONING_OUTPUT) == []


def test_a_call_sent_without_its_reasoning_item_gets_the_apis_400_message():
    only_call = [REASONING_OUTPUT[1].model_dump()]
    assert missing_reasoning(only_call, REASONING_OUTPUT) == [
        "Item 'fc_1' of type 'function_call' was provided without its required 'reasoning' item: 'rs_1'."]
    plain = [{"type": "function_call", "id": "fc_9", "call_id": "c", "name": "f", "arguments": "{}"}]
    assert missing_reasoning(plain, plain) == []  # no reasoning model, nothing required


def test_the_stateless_loop_sends_instructions_every_time_and_the_whole_conversation():
    mock = MockLLM()
    client = mock.client(max_retries=0)
    answer, responses = responses_tool_loop(client, "Weather in Beijing and in Shanghai?",
                                            [to_responses_tool(WEATHER_TOOL)], FUNCTIONS, instructions="Be brief.")
    assert len(responses) == 2 and "22" in answer and "28" in answer
    bodies = [e.request for e in mock.log]
    assert [b["instructions"] for b in bodies] == ["Be brief.", "Be brief."]
    assert [i.get("type", "message") for i in bodies[1]["input"]] == [
        "message", "function_call", "function_call", "function_call_output", "function_call_output"]
    assert all(t["strict"] is False for b in bodies for t in b["tools"])


def test_the_stateful_loop_sends_previous_response_id_and_only_the_new_items():
    mock = MockLLM()
    client = mock.client(max_retries=0)
    answer, responses = responses_tool_loop(client, "Weather in Beijing and in Shanghai?",
                                            [to_responses_tool(WEATHER_TOOL)], FUNCTIONS, instructions="Be brief.",
                                            stateful=True)
    assert len(responses) == 2 and "22" in answer and "28" in answer
    first, second = [e.request for e in mock.log]
    assert "previous_response_id" not in first and first["input"] == "Weather in Beijing and in Shanghai?"
    assert second["previous_response_id"] == responses[0].id
    assert [i["type"] for i in second["input"]] == ["function_call_output", "function_call_output"]
    assert {i["call_id"] for i in second["input"]} == {o.call_id for o in responses[0].output}
    assert [first["instructions"], second["instructions"]] == ["Be brief.", "Be brief."]  # never carried over
