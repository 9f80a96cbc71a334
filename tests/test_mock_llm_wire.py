"""The mock LLM through the real openai SDK: wire format, errors, streaming, modes."""
from __future__ import annotations

import json

import openai
import pytest

from conftest import GET_TIME, WEATHER


def ask(client, text, tools=(WEATHER,), **kw):
    return client.chat.completions.create(model="mock-llm", messages=[{"role": "user", "content": text}],
                                          tools=list(tools), **kw)


def calls_of(response):
    return [(c.function.name, json.loads(c.function.arguments)) for c in response.choices[0].message.tool_calls or []]


def test_single_call_english_and_chinese(client):
    assert calls_of(ask(client, "What's the weather in Shanghai?")) == [("get_weather", {"city": "Shanghai"})]
    assert calls_of(ask(client, "帮我查一下上海的天气")) == [("get_weather", {"city": "上海"})]


def test_arguments_is_a_json_string_and_finish_reason(client):
    r = ask(client, "Weather in Paris?")
    call = r.choices[0].message.tool_calls[0]
    assert isinstance(call.function.arguments, str)
    assert call.id.startswith("call_") and len(call.id) == 29
    assert r.choices[0].finish_reason == "tool_calls"


def test_same_request_same_ids(client):
    assert ask(client, "Weather in Paris?").choices[0].message.tool_calls[0].id == \
        ask(client, "Weather in Paris?").choices[0].message.tool_calls[0].id


def test_parallel_calls_and_switch_off(client):
    assert calls_of(ask(client, "Weather in Beijing and in Shanghai")) == [
        ("get_weather", {"city": "Beijing"}), ("get_weather", {"city": "Shanghai"})]
    assert calls_of(ask(client, "Weather in Beijing and in Shanghai", parallel_tool_calls=False)) == [
        ("get_weather", {"city": "Beijing"})]


def test_two_different_tools_from_two_clauses(client):
    r = ask(client, "What's the weather in Paris, and what time is it in Tokyo?", tools=(WEATHER, GET_TIME))
    assert calls_of(r) == [("get_weather", {"city": "Paris"}), ("get_time", {"city": "Tokyo"})]


def test_tool_choice_variants(client):
    assert ask(client, "What's the weather in Paris?", tool_choice="none").choices[0].message.tool_calls is None
    forced = ask(client, "Paris please", tools=(WEATHER, GET_TIME),
                 tool_choice={"type": "function", "function": {"name": "get_time"}})
    assert calls_of(forced) == [("get_time", {"city": "Paris"})]
    required = ask(client, "Tell me about Paris", tool_choice="required")
    assert calls_of(required)[0][0] == "get_weather"
    assert ask(client, "What is the capital of France?").choices[0].message.tool_calls is None


def test_enum_synonym_and_clarifying_question(client):
    assert calls_of(ask(client, "Weather in Tokyo in °F"))[0][1] == {"city": "Tokyo", "unit": "fahrenheit"}
    r = ask(client, "What's the weather like?")
    assert r.choices[0].message.tool_calls is None
    assert "city" in r.choices[0].message.content


def test_final_answer_is_grounded_in_results(client):
    msgs = [{"role": "user", "content": "What's the weather in Shanghai?"}]
    first = client.chat.completions.create(model="m", messages=msgs, tools=[WEATHER]).choices[0].message
    msgs += [first.model_dump(exclude_none=True),
             {"role": "tool", "tool_call_id": first.tool_calls[0].id, "content": '{"temp": 28, "humidity": 65}'}]
    answer = client.chat.completions.create(model="m", messages=msgs, tools=[WEATHER]).choices[0].message.content
    assert answer == "Shanghai: 28 °C, humidity 65 %."


def test_sequential_calls_when_parallel_is_off(client):
    msgs = [{"role": "user", "content": "Weather in Beijing and Shanghai"}]
    seen = []
    for _ in range(3):
        m = client.chat.completions.create(model="m", messages=msgs, tools=[WEATHER],
                                           parallel_tool_calls=False).choices[0].message
        if not m.tool_calls:
            break
        msgs.append(m.model_dump(exclude_none=True))
        for c in m.tool_calls:
            city = json.loads(c.function.arguments)["city"]
            seen.append(city)
            msgs.append({"role": "tool", "tool_call_id": c.id, "content": json.dumps({"temp": len(city)})})
    assert seen == ["Beijing", "Shanghai"]
    assert "Beijing: 7 °C" in m.content and "Shanghai: 8 °C" in m.content


def test_streaming_assembles_to_the_same_calls(client):
    plain = ask(client, "Weather in Paris and Tokyo?")
    with client.chat.completions.stream(model="mock-llm", tools=[WEATHER],
                                        messages=[{"role": "user", "content": "Weather in Paris and Tokyo?"}]) as s:
        for _ in s:
            pass
        final = s.get_final_completion()
    got = [(c.id, c.function.name, c.function.arguments) for c in final.choices[0].message.tool_calls]
    want = [(c.id, c.function.name, c.function.arguments) for c in plain.choices[0].message.tool_calls]
    assert got == want
    assert final.choices[0].finish_reason == "tool_calls"


def test_raw_stream_deltas_carry_index(client):
    stream = ask(client, "Weather in Paris and Tokyo?", stream=True)
    indexes = [d.index for chunk in stream for d in (chunk.choices[0].delta.tool_calls or [])]
    assert set(indexes) == {0, 1} and indexes == sorted(indexes)


@pytest.mark.parametrize("messages, fragment", [
    ([{"role": "tool", "tool_call_id": "x", "content": "1"}], "must be a response to a preceding message"),
    ([{"role": "user", "content": "hi"},
      {"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
      {"role": "user", "content": "well?"}], "did not have response messages: a"),
    ([{"role": "user", "content": "hi"},
      {"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
      {"role": "tool", "tool_call_id": "b", "content": "x"}], "'tool_call_id' of 'b' not found"),
    ([], "empty array"),
    ([{"role": "robot", "content": "hi"}], "Invalid value: 'robot'"),
])
def test_malformed_conversations_get_openai_400(client, messages, fragment):
    with pytest.raises(openai.BadRequestError) as e:
        client.chat.completions.create(model="m", messages=messages, tools=[WEATHER])
    assert fragment in e.value.message
    assert e.value.body["type"] == "invalid_request_error"


def test_missing_messages_and_bad_schema(client):
    with pytest.raises(openai.BadRequestError) as e:
        client.chat.completions.create(model="m", messages=None)  # type: ignore[arg-type]
    assert e.value.body["param"] == "messages" and e.value.body["code"] == "missing_required_parameter"
    bad = {"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {"a": {"type": "strin"}}}}}
    with pytest.raises(openai.BadRequestError) as e:
        ask(client, "hi", tools=(bad,))
    assert e.value.body["code"] == "invalid_function_parameters"


def test_strict_mode_rejects_then_accepts(client):
    from course_lib.strict_mode import to_strict
    raw = {"type": "object", "properties": {"username": {"type": "string"}, "address": {"type": "object",
           "properties": {"zip": {"type": "string"}}, "required": ["zip"]}}, "required": ["username", "address"]}
    tool = {"type": "function", "function": {"name": "save_user", "strict": True, "parameters": raw}}
    with pytest.raises(openai.BadRequestError) as e:
        ask(client, "save user Ada", tools=(tool,))
    assert "additionalProperties" in e.value.message and e.value.body["param"] == "tools[0].function.parameters"
    tool["function"]["parameters"] = to_strict(raw)
    ask(client, "save user Ada", tools=(tool,))  # accepted


def test_scripted_mode(mock, client):
    mock.script({"tool_calls": [{"name": "get_weather", "arguments": '{"city": "Par'}]}, "scripted text")
    first = ask(client, "anything")
    assert first.choices[0].message.tool_calls[0].function.arguments == '{"city": "Par'
    assert ask(client, "anything").choices[0].message.content == "scripted text"
    assert calls_of(ask(client, "Weather in Oslo, Paris?"))  # back to the engine


def test_fault_injection_http_errors(mock, client):
    mock.inject("rate_limit", retry_after=1)
    with pytest.raises(openai.RateLimitError) as e:
        ask(client, "Weather in Paris?")
    assert e.value.response.headers["retry-after"] == "1"
    mock.inject("server_error")
    with pytest.raises(openai.InternalServerError):
        ask(client, "Weather in Paris?")
    assert calls_of(ask(client, "Weather in Paris?")) == [("get_weather", {"city": "Paris"})]


@pytest.mark.parametrize("kind, check", [
    ("malformed_arguments", lambda c: pytest.raises(json.JSONDecodeError, json.loads, c.function.arguments)),
    ("hallucinated_tool", lambda c: c.function.name == "get_weather_v2" or pytest.fail(c.function.name)),
    ("missing_required", lambda c: "city" not in json.loads(c.function.arguments) or pytest.fail("city kept")),
])
def test_fault_injection_argument_faults(mock, client, kind, check):
    mock.inject(kind)
    check(ask(client, "Weather in Paris?").choices[0].message.tool_calls[0])


def test_sdk_retries_a_429_by_itself(mock):
    mock.inject("rate_limit", times=2, retry_after=0)
    client = mock.client(max_retries=2)
    assert calls_of(ask(client, "Weather in Paris?")) == [("get_weather", {"city": "Paris"})]
    assert [x.status for x in mock.log][-3:] == [429, 429, 200]


def test_models_endpoint_and_unknown_path(client):
    assert [m.id for m in client.models.list()] == ["mock-llm"]
    with pytest.raises(openai.NotFoundError):
        client.post("/nope", body={}, cast_to=object)


def test_responses_api_round_trip(client):
    flat = {"type": "function", "name": "get_weather", "description": "Get the current weather for a city",
            "parameters": WEATHER["function"]["parameters"]}
    r = client.responses.create(model="m", input="Weather in Paris and Tokyo?", tools=[flat])
    calls = [o for o in r.output if o.type == "function_call"]
    assert [json.loads(c.arguments) for c in calls] == [{"city": "Paris"}, {"city": "Tokyo"}]
    follow = [{"role": "user", "content": "Weather in Paris and Tokyo?"}] + [c.model_dump(exclude_none=True) for c in calls]
    follow += [{"type": "function_call_output", "call_id": c.call_id, "output": '{"temp": 20}'} for c in calls]
    r2 = client.responses.create(model="m", input=follow, tools=[flat])
    assert r2.output_text == "Paris: 20 °C. Tokyo: 20 °C."
    with client.responses.stream(model="m", input="Weather in Paris?", tools=[flat]) as s:
        for _ in s:
            pass
        final = s.get_final_response()
    assert final.output[0].name == "get_weather"


def test_async_client(mock):
    import asyncio

    async def main():
        c = mock.async_client(max_retries=0)
        r = await c.chat.completions.create(model="m", messages=[{"role": "user", "content": "Weather in Rome?"}],
                                            tools=[WEATHER])
        return calls_of(r)

    assert asyncio.run(main()) == [("get_weather", {"city": "Rome"})]
