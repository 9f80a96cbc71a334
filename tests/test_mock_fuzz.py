"""Fuzz test of the mock LLM: a few hundred generated bad requests, each answered with an OpenAI error body.

No hypothesis in the lock, so a small seeded generator (``random.Random``) builds the requests:
valid requests with one field replaced by a value of another JSON type, broken conversations and
tools (129 or more tools, schemas over the 5,000-object cap), random bytes, truncated and deeply nested JSON, lone surrogates, random fault headers, on
both endpoints. Each answer must be a 4xx with the API's error shape (or a 200 completion when
a mutation happened to be valid), never a 500 or a traceback; the server answers a normal request
afterwards. The seed is fixed, so a failure is reproducible (its request is in the message).
"""
from __future__ import annotations

import json
import random
from typing import Any, Iterator

import httpx
import pytest

from conftest import WEATHER
from course_lib.mock_llm import MockLLM
from course_lib.servers import start_server, stop_server

SEED = 20261201
CHAT = {"model": "mock-llm", "messages": [{"role": "user", "content": "What's the weather in Paris?"}],
        "tools": [WEATHER]}
RESPONSES = {"model": "mock-llm", "input": "What's the weather in Paris?",
             "tools": [{"type": "function", "name": "get_weather", "description": "Weather for a city",
                        "parameters": WEATHER["function"]["parameters"]}]}
CHAT_FIELDS = ["model", "messages", "tools", "tool_choice", "parallel_tool_calls", "stream", "stream_options",
               "temperature", "top_p", "max_tokens", "max_completion_tokens", "n", "stop", "seed", "user", "metadata",
               "logit_bias", "logprobs", "top_logprobs", "presence_penalty", "frequency_penalty", "response_format",
               "service_tier", "store", "reasoning_effort", "modalities", "unknown_field"]
RESPONSES_FIELDS = ["model", "input", "instructions", "tools", "tool_choice", "parallel_tool_calls", "stream",
                    "previous_response_id", "store", "text", "max_output_tokens", "max_tool_calls", "temperature",
                    "truncation", "include", "reasoning", "metadata", "background", "conversation", "unknown_field"]


def junk(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value, sometimes nested, sometimes with odd strings."""
    kinds = ["null", "bool", "int", "float", "str", "list", "dict"] if depth < 3 else ["null", "bool", "int", "str"]
    kind = rng.choice(kinds)
    if kind == "null":
        return None
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "int":
        return rng.choice([0, -1, 1, 2, 7, 10**12, -(10**18), 2**63])
    if kind == "float":
        return rng.choice([0.5, -3.25, 1e308, 2.0, 1e-9])
    if kind == "str":
        return rng.choice(["", "x", "hot", "auto", "none", "required", "user", "function", "#/$defs/X", "🙂",
                           "上海", "a" * 300, "\u0000", "json", "text", "json_schema"])
    if kind == "list":
        return [junk(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(["type", "role", "content", "name", "x", "function", "schema", "id"]): junk(rng, depth + 1)
            for _ in range(rng.randint(0, 3))}


def broken_messages(rng: random.Random) -> Any:
    user = {"role": "user", "content": "Weather in Paris?"}
    call = {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
    choices = [
        [],
        [{"role": junk(rng), "content": "hi"}],
        [{"role": "user", "content": junk(rng)}],
        [{"role": "user", "content": [junk(rng), {"type": "text", "text": junk(rng)}]}],
        [{"role": "tool", "tool_call_id": "call_9", "content": "orphan"}],
        [user, {"role": "assistant", "content": None, "tool_calls": [call]}],
        [user, {"role": "assistant", "content": None, "tool_calls": [call, call]},
         {"role": "tool", "tool_call_id": "call_1", "content": "x"}],
        [user, {"role": "assistant", "content": None, "tool_calls": [{**call, "function": junk(rng)}]},
         {"role": "tool", "tool_call_id": "call_1", "content": "x"}],
        [user, {"role": "assistant", "content": None, "tool_calls": [{**call, "id": junk(rng)}]},
         {"role": "tool", "tool_call_id": junk(rng), "content": junk(rng)}],
        [user, {"role": "assistant", "content": None, "tool_calls": junk(rng)}],
        [{"role": "user", "content": "hi", "name": junk(rng)}],
        [junk(rng)],
    ]
    return rng.choice(choices)


def broken_tools(rng: random.Random) -> Any:
    fn = WEATHER["function"]
    choices = [
        junk(rng),
        [junk(rng)],
        [{"type": "function", "function": {**fn, "name": junk(rng)}}],
        [{"type": "function", "function": {**fn, "parameters": junk(rng)}}],
        [{"type": "function", "function": {**fn, "parameters": {"type": "object", "properties": junk(rng)}}}],
        [{"type": "function", "function": {**fn, "parameters": {
            "type": "object", "properties": {"city": {"$ref": junk(rng)}}}}}],
        [{"type": "function", "function": {**fn, "strict": True}}],
        [WEATHER, WEATHER],
        [{"type": "function", "name": "flat", "parameters": {"type": "object"}}],
    ]
    return rng.choice(choices)


def oversized(rng: random.Random, responses: bool) -> dict:
    """A request over a count cap: 129+ tools, or schemas over the 5,000-object cap (tools or format)."""
    fn = WEATHER["function"]
    wide = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(rng.choice([5001, 20_000]))}}
    kind = rng.choice(["many tools", "wide tool", "wide format"])
    if kind == "many tools":
        tools = [{"type": "function", "function": {**fn, "name": f"tool_{i}"}} for i in range(rng.choice([129, 300]))]
    elif kind == "wide tool":
        tools = [{"type": "function", "function": {**fn, "parameters": wide}}]
    else:
        tools = [WEATHER]
    if responses:
        body = dict(RESPONSES, tools=[{"type": "function", **t["function"]} for t in tools])
        return dict(body, text={"format": {"type": "json_schema", "name": "Wide", "schema": wide}}) \
            if kind == "wide format" else body
    body = dict(CHAT, tools=tools)
    return dict(body, response_format={"type": "json_schema", "json_schema": {"name": "Wide", "schema": wide}}) \
        if kind == "wide format" else body


def mutated(rng: random.Random, base: dict, fields: list[str], responses: bool) -> dict:
    body = json.loads(json.dumps(base))
    for _ in range(rng.randint(1, 2)):
        name = rng.choice(fields)
        if name == "messages" and rng.random() < 0.7:
            body[name] = broken_messages(rng)
        elif name == "tools" and rng.random() < 0.7:
            body[name] = broken_tools(rng)
        elif name == "input" and rng.random() < 0.5:
            body[name] = [rng.choice([junk(rng), {"type": "function_call_output", "call_id": junk(rng),
                                                   "output": junk(rng)},
                                      {"type": "function_call", "call_id": "c1", "name": junk(rng)},
                                      {"type": junk(rng), "content": junk(rng)},
                                      {"role": junk(rng), "content": junk(rng)}])]
        elif name in ("response_format", "text") and rng.random() < 0.6:
            fmt = {"type": rng.choice(["json_schema", "json_object", "text", "xml"]), "name": junk(rng),
                   "schema": rng.choice([junk(rng), {"type": "object", "properties": junk(rng)},
                                         {"type": "object", "properties": {"a": {"$ref": junk(rng)}}}]),
                   "strict": junk(rng)}
            body[name] = {"format": fmt} if name == "text" else {"type": fmt["type"], "json_schema": fmt}
        elif name == "previous_response_id" and rng.random() < 0.5:
            body[name] = rng.choice(["resp_nobody", "", "resp_" + "x" * 40])
        elif rng.random() < 0.2:
            body.pop(name, None)
        else:
            body[name] = junk(rng)
    return body


def raw_bodies(rng: random.Random) -> Iterator[bytes]:
    good = json.dumps(CHAT).encode()
    yield good[: rng.randint(1, len(good) - 1)]                      # truncated JSON
    yield bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))  # random bytes
    yield b'{"model": "m", "messages": ' + b"[" * 2000 + b"]" * 2000 + b"}"
    yield b'{"model": "m", "messages": [{"role": "user", "content": "a\\udc00b"}]}'
    yield b'{"model": "m", "messages": [{"role": "user", "content": "' + b"\xff\xfe" + b'"}]}'
    yield b'{"model": "m", "messages": ' + b'{"a": ' * 500 + b"1" + b"}" * 500 + b"}"
    yield b"[]"
    yield b'"just a string"'
    yield b""


def fault_headers(rng: random.Random) -> dict[str, str]:
    kind = rng.choice(["latency", "rate_limit", "server_error", "melt", "", ";", "latency;;", "malformed_arguments"])
    params = rng.choice(["", "; seconds=abc", "; seconds=1e9", "; seconds=-2", "; retry_after=nan", "; seconds",
                         "; =1", "; seconds=1; seconds=2", "; retry_after=999999"])
    return {"x-mock-fault": kind + params}


def cases(n: int) -> Iterator[tuple[str, dict, bytes]]:
    rng = random.Random(SEED)
    for i in range(n):
        roll = rng.random()
        if roll < 0.45:
            yield "/v1/chat/completions", {}, json.dumps(mutated(rng, CHAT, CHAT_FIELDS, False)).encode()
        elif roll < 0.75:
            yield "/v1/responses", {}, json.dumps(mutated(rng, RESPONSES, RESPONSES_FIELDS, True)).encode()
        elif roll < 0.84:
            path = rng.choice(["/v1/chat/completions", "/v1/responses"])
            yield path, {}, rng.choice(list(raw_bodies(rng)))
        elif roll < 0.87:
            responses = rng.random() < 0.5
            path = "/v1/responses" if responses else "/v1/chat/completions"
            yield path, {}, json.dumps(oversized(rng, responses)).encode()
        else:
            yield "/v1/chat/completions", fault_headers(rng), json.dumps(CHAT).encode()


def check_answer(status: int, body: bytes, request: bytes) -> None:
    shown = request[:300]
    injected = status == 500 and b"injected by the course mock" in body  # X-Mock-Fault: server_error asked for it
    assert status != 500 or injected, f"500 for {shown!r}: {body[:400]!r}"
    if injected:
        return
    if status == 200:
        text = body.decode()
        assert text.startswith("{") or text.startswith("data:") or text.startswith("event:"), shown
        return
    assert status in (400, 404, 413, 429), f"{status} for {shown!r}"
    payload = json.loads(body)
    err = payload["error"]
    assert set(err) == {"message", "type", "param", "code"}, shown
    assert isinstance(err["message"], str) and err["message"], shown
    assert err["type"] in ("invalid_request_error", "rate_limit_exceeded"), shown
    assert err["param"] is None or isinstance(err["param"], str), shown
    assert err["code"] is None or isinstance(err["code"], str), shown


def test_hundreds_of_bad_requests_in_process_each_get_a_well_formed_error():
    mock = MockLLM()
    counted = {"errors": 0, "ok": 0}
    for path, headers, raw in cases(400):
        reply = mock.handle("POST", path, headers, raw)
        body = reply.body if reply.chunks is None else b"".join(reply.chunks)
        check_answer(reply.status, body, raw)
        counted["errors" if reply.status >= 400 else "ok"] += 1
    assert counted["errors"] >= 300  # the generator does make bad requests
    after = mock.handle("POST", "/v1/chat/completions", {}, json.dumps(CHAT).encode())
    assert after.status == 200 and "get_weather" in after.body.decode()


@pytest.fixture
def served():
    server = start_server("test-mock-fuzz", MockLLM().asgi_app())
    try:
        yield server.url
    finally:
        stop_server("test-mock-fuzz")


def test_bad_requests_over_http_get_error_bodies_and_the_server_still_answers(served):
    with httpx.Client(base_url=served, timeout=30) as http:
        for path, headers, raw in list(cases(400))[::4]:  # every 4th case, over a real socket
            r = http.post(path, content=raw, headers={"content-type": "application/json", **headers})
            check_answer(r.status_code, r.content, raw)
            assert r.status_code == 200 or r.headers["content-type"] == "application/json"
        assert http.get("/v1/models").status_code == 200
        ok = http.post("/v1/chat/completions", json=CHAT)
        assert ok.status_code == 200 and ok.json()["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == \
            "get_weather"
