"""The Responses API on the mock: stored state (previous_response_id), errors in items' terms, options.

Through the real ``openai`` SDK (``client.responses.create/retrieve/delete/input_items/stream``).
"""
from __future__ import annotations

import json

import openai
import pytest

from course_lib.mock_llm import MockLLM
from course_lib.mock_llm.limits import Limits
from course_lib.mock_llm.response_store import ResponseStore
from course_lib.mock_llm.responses_api import parse_responses_request

WEATHER = {"type": "function", "name": "get_weather", "description": "Get the current weather for a city",
           "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
RESULT = '{"temp": 28, "humidity": 65}'


def outputs_for(response) -> list[dict]:
    return [{"type": "function_call_output", "call_id": o.call_id, "output": RESULT}
            for o in response.output if o.type == "function_call"]


def test_previous_response_id_continues_the_stored_conversation(client):
    first = client.responses.create(model="m", input="What's the weather in Shanghai and Beijing?", tools=[WEATHER])
    assert [(o.type, o.arguments) for o in first.output] == [
        ("function_call", '{"city": "Shanghai"}'), ("function_call", '{"city": "Beijing"}')]
    second = client.responses.create(model="m", previous_response_id=first.id, tools=[WEATHER],
                                     input=outputs_for(first))  # only what is new: the two results
    assert second.output_text == "Shanghai: 28 °C, humidity 65 %. Beijing: 28 °C, humidity 65 %."
    assert second.previous_response_id == first.id
    third = client.responses.create(model="m", previous_response_id=second.id, tools=[WEATHER], input="And in Paris?")
    assert [(o.name, o.arguments) for o in third.output] == [("get_weather", '{"city": "Paris"}')]


def test_stored_responses_can_be_retrieved_listed_and_deleted(client):
    first = client.responses.create(model="m", input="What's the weather in Shanghai?", tools=[WEATHER])
    second = client.responses.create(model="m", previous_response_id=first.id, tools=[WEATHER],
                                     input=outputs_for(first))
    assert client.responses.retrieve(second.id).output_text == second.output_text
    items = client.responses.input_items.list(second.id).data  # newest first
    assert [i.type for i in items] == ["function_call_output", "function_call", "message"]
    client.responses.delete(first.id)
    with pytest.raises(openai.NotFoundError):
        client.responses.retrieve(first.id)
    with pytest.raises(openai.BadRequestError) as caught:
        client.responses.create(model="m", previous_response_id=first.id, input="again")
    assert caught.value.code == "previous_response_not_found"
    # the continuation stored its own copy of the conversation: deleting an ancestor does not break it
    later = client.responses.create(model="m", previous_response_id=second.id, tools=[WEATHER], input="And Paris?")
    assert later.output[0].arguments == '{"city": "Paris"}'


def test_an_unknown_id_and_store_false_get_previous_response_not_found(client):
    with pytest.raises(openai.BadRequestError) as caught:
        client.responses.create(model="m", previous_response_id="resp_nobody", input="hi")
    assert caught.value.status_code == 400
    assert caught.value.body == {"message": "Previous response with id 'resp_nobody' not found.",
                                 "type": "invalid_request_error", "param": "previous_response_id",
                                 "code": "previous_response_not_found"}
    unstored = client.responses.create(model="m", input="Hello", store=False)
    assert unstored.store is False
    with pytest.raises(openai.BadRequestError, match=f"Previous response with id '{unstored.id}' not found"):
        client.responses.create(model="m", previous_response_id=unstored.id, input="hi")


def test_the_store_is_bounded_oldest_dropped_first():
    mock = MockLLM(limits=Limits(store_limit=3))
    client = mock.client(max_retries=0)
    ids = [client.responses.create(model="m", input=f"Hello number {i}").id for i in range(5)]
    assert len(mock.store) == 3 and [i in mock.store for i in ids] == [False, False, True, True, True]
    store = ResponseStore(limit=100, max_bytes=3000)
    for i in range(10):
        store.put({"id": f"resp_{i}", "output": [{"type": "message", "content": "x" * 500}]}, (), 0)
    assert store.bytes <= 3000 and "resp_9" in store and "resp_0" not in store


def test_instructions_apply_to_their_own_request_only():
    store = ResponseStore(10, 10**6)
    mock = MockLLM()
    first = mock.client(max_retries=0).responses.create(model="m", input="Hello", instructions="Answer in French.")
    chained = parse_responses_request({"model": "m", "input": "Again", "previous_response_id": first.id}, mock.store)
    assert [m["role"] for m in chained.chat_body["messages"]] == ["user", "assistant", "user"]
    own = parse_responses_request({"model": "m", "input": "Again", "instructions": "Be brief."}, store)
    assert own.chat_body["messages"][0] == {"role": "system", "content": "Be brief."}


def test_errors_on_responses_speak_of_items_not_chat_roles(client):
    with pytest.raises(openai.BadRequestError) as caught:
        client.responses.create(model="m", tools=[WEATHER], input=[
            {"role": "user", "content": "Weather in Paris?"},
            {"type": "function_call_output", "call_id": "call_nowhere", "output": "sunny"}])
    assert caught.value.body["message"] == "No tool call found for function call output with call_id call_nowhere."
    assert caught.value.body["param"] == "input"
    first = client.responses.create(model="m", input="What's the weather in Shanghai?", tools=[WEATHER])
    with pytest.raises(openai.BadRequestError) as caught:
        client.responses.create(model="m", previous_response_id=first.id, tools=[WEATHER], input="thanks")
    assert caught.value.body["message"] == f"No tool output found for function call {first.output[0].call_id}."
    with pytest.raises(openai.BadRequestError) as caught:
        client.responses.create(model="m", input=[{"type": "tool", "content": "x"}])
    assert caught.value.body["param"] == "input[0].type" and "role" not in caught.value.body["message"]
    with pytest.raises(openai.BadRequestError) as caught:
        client.responses.create(model="m", input="hi", tools=[{"type": "function", "function": WEATHER}])
    assert "flat" in caught.value.body["message"] and caught.value.body["param"] == "tools[0]"
    bad_schema = dict(WEATHER, parameters={"type": "object", "properties": {"city": {"type": "town"}}})
    with pytest.raises(openai.BadRequestError) as caught:
        client.responses.create(model="m", input="hi", tools=[bad_schema])
    assert caught.value.body["param"] == "tools[0].parameters"


def test_function_call_outputs_may_come_after_other_items(client):
    first = client.responses.create(model="m", input="What's the weather in Shanghai?", tools=[WEATHER])
    call = first.output[0].model_dump(exclude_none=True)
    r = client.responses.create(model="m", tools=[WEATHER], input=[
        {"role": "user", "content": "What's the weather in Shanghai?"}, call,
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call_output", "call_id": call["call_id"], "output": RESULT}])
    assert r.output_text == "Shanghai: 28 °C, humidity 65 %."


def test_item_reference_points_at_a_stored_item(client):
    first = client.responses.create(model="m", input="What's the weather in Shanghai?", tools=[WEATHER])
    r = client.responses.create(model="m", tools=[WEATHER], input=[
        {"role": "user", "content": "What's the weather in Shanghai?"},
        {"type": "item_reference", "id": first.output[0].id},
        {"type": "function_call_output", "call_id": first.output[0].call_id, "output": RESULT}])
    assert r.output_text == "Shanghai: 28 °C, humidity 65 %."
    with pytest.raises(openai.BadRequestError, match="Item with id 'fc_nothing' not found"):
        client.responses.create(model="m", input=[{"type": "item_reference", "id": "fc_nothing"}])


def test_max_output_tokens_and_max_tool_calls_are_honoured(client):
    cut = client.responses.create(model="m", input="Hello", max_output_tokens=16)
    assert cut.status == "completed"  # 16 tokens hold the whole greeting
    many = client.responses.create(model="m", input="What's the weather in Shanghai, Beijing and Paris?",
                                   tools=[WEATHER], max_tool_calls=1)
    assert [o.arguments for o in many.output] == ['{"city": "Shanghai"}']
    mock = MockLLM().script("word " * 40)
    short = mock.client(max_retries=0).responses.create(model="m", input="Talk", max_output_tokens=16)
    assert (short.status, short.incomplete_details.reason) == ("incomplete", "max_output_tokens")
    assert short.output_text == ("word " * 40)[:64]


def test_truncation_auto_drops_the_oldest_items_disabled_refuses():
    mock = MockLLM(limits=Limits(max_context_tokens=60))
    client = mock.client(max_retries=0)
    history = [{"role": "user", "content": "Tell me something long " * 10},
               {"role": "assistant", "content": "Something long " * 10}, {"role": "user", "content": "Hello"}]
    with pytest.raises(openai.BadRequestError) as caught:
        client.responses.create(model="m", input=history)
    assert caught.value.code == "context_length_exceeded"
    r = client.responses.create(model="m", input=history, truncation="auto")
    assert r.output_text == "Hello! How can I help you today?" and r.truncation == "auto"


def test_streaming_a_continuation_keeps_one_response_id(client):
    first = client.responses.create(model="m", input="What's the weather in Shanghai?", tools=[WEATHER])
    with client.responses.stream(model="m", previous_response_id=first.id, tools=[WEATHER],
                                 input=outputs_for(first)) as stream:
        kinds = [ev.type for ev in stream]
        final = stream.get_final_response()
    assert kinds[0] == "response.created" and kinds[-1] == "response.completed"
    assert final.output_text == "Shanghai: 28 °C, humidity 65 %."
    assert client.responses.retrieve(final.id).previous_response_id == first.id


@pytest.mark.parametrize("extra, param", [({"include": ["message.output_text.logprobs"]}, "include"),
                                          ({"top_logprobs": 3}, "top_logprobs"), ({"background": True}, "background"),
                                          ({"conversation": "conv_1"}, "conversation")])
def test_what_responses_cannot_do_is_a_clear_400(client, extra, param):
    with pytest.raises(openai.BadRequestError) as caught:
        client.responses.create(model="m", input="Hello", **extra)
    assert caught.value.body["param"] == param
    assert caught.value.body["message"].startswith("The course's mock LLM does not support")


def test_n_is_not_a_responses_parameter(mock):
    reply = mock.handle("POST", "/v1/responses", {}, json.dumps({"model": "m", "input": "hi", "n": 2}).encode())
    assert reply.status == 400 and json.loads(reply.body)["error"]["message"] == "Unknown parameter: 'n'."


def test_over_http_the_server_keeps_its_own_store_and_streams_structured_output():
    """The store belongs to the served mock: a continuation works over a real socket with the SDK."""
    from pydantic import BaseModel

    from course_lib.servers import start_server, stop_server

    class Trip(BaseModel):
        city: str
        days: int

    server = start_server("test-mock-responses-http", MockLLM().asgi_app())
    try:
        client = openai.OpenAI(base_url=server.url + "/v1", api_key="not-needed", max_retries=0)
        first = client.responses.create(model="m", input="What's the weather in Shanghai?", tools=[WEATHER])
        second = client.responses.create(model="m", previous_response_id=first.id, tools=[WEATHER],
                                         input=outputs_for(first))
        assert second.output_text == "Shanghai: 28 °C, humidity 65 %."
        with client.chat.completions.stream(model="m", response_format=Trip,
                                            messages=[{"role": "user", "content": "Plan 3 days in Paris"}]) as s:
            for _ in s:
                pass
            assert s.get_final_completion().choices[0].message.parsed == Trip(city="Paris", days=3)
        with pytest.raises(openai.BadRequestError, match="previous_response_not_found|not found"):
            MockLLM().client(max_retries=0).responses.create(model="m", previous_response_id=first.id, input="x")
    finally:
        stop_server("test-mock-responses-http")


def test_truncation_of_a_long_conversation_counts_the_prompt_a_logarithmic_number_of_times(monkeypatch):
    """The shortest dropped prefix is found by bisection (item by item, 8,000 messages took 212 s)."""
    from course_lib.mock_llm import responses_api

    counted = []
    real = responses_api.chat_messages
    def counting(items, instructions):
        counted.append(len(items))
        return real(items, instructions)

    monkeypatch.setattr(responses_api, "chat_messages", counting)
    call = {"type": "function_call", "call_id": "call_0", "name": "get_weather", "arguments": '{"city": "Paris"}'}
    items = [{"role": "user", "content": "What's the weather in Paris?"}, call,
             {"type": "function_call_output", "call_id": "call_0", "output": RESULT}]
    items += [{"role": "user" if i % 2 else "assistant", "content": f"message number {i} " * 5} for i in range(4000)]
    items.append({"role": "user", "content": "Hello"})
    req = parse_responses_request({"model": "m", "input": items, "truncation": "auto"}, ResponseStore(10, 10**7),
                                  max_context_tokens=500)
    kept = req.items
    assert len(counted) <= 2 * 13 + 4  # log2(4004) ~ 12: bisection plus the chat body, not thousands of counts
    prompt = lambda its: responses_api.count_tokens(json.dumps(real(its, None), ensure_ascii=False))  # noqa: E731
    assert kept[-1]["content"] == "Hello" and prompt(kept) <= 500 < prompt(items[len(items) - len(kept) - 1:])
    small = parse_responses_request({"model": "m", "input": items[:5] + [items[-1]], "truncation": "auto"},
                                    ResponseStore(10, 10**7), max_context_tokens=40).items
    assert all(it.get("type") != "function_call_output" for it in small[:1]) and call not in small
    assert not any(it.get("call_id") == "call_0" for it in small)  # the call went, and its output with it


def test_the_store_counts_what_each_continuation_holds_and_indexes_items():
    """A thousand continuations of one long conversation stay within the byte cap; item_reference is one lookup."""
    store = ResponseStore(limit=1000, max_bytes=200_000)
    long = tuple({"type": "message", "role": "user", "content": "hi", "id": f"msg_{i}"} for i in range(2000))
    store.put({"id": "resp_root", "output": []}, long, len(long))
    for i in range(200):
        store.put({"id": f"resp_{i}", "output": [{"type": "message", "id": f"out_{i}", "content": []}]},
                  long + ({"type": "message", "role": "user", "content": f"more {i}"},), 1)
    assert store.bytes <= 200_000 and len(store) < 20  # each holds 2,001 items: 16 kB of pointers counted
    assert store.item("out_199")["id"] == "out_199" and store.item("msg_5") is None  # root dropped, its items too
    store.delete("resp_199")
    assert store.item("out_199") is None and "resp_199" not in store
    store.clear()
    assert (len(store), store.bytes, store.item("out_198")) == (0, 0, None)
