"""The mock LLM against hostile and clumsy input (issue 14, mock side): clear 4xx, never a crash.

Each request is one a learner or an attacker really sends: a wrong type, an out-of-range value,
a body nested 3,000 levels deep, a lone surrogate, a bad fault header, an oversized body. The
answer is the OpenAI error body (``{"error": {message, type, param, code}}``) with the status
the API uses, and the server keeps answering.
"""
from __future__ import annotations

import json
import threading
import time

import httpx
import openai
import pytest

from conftest import WEATHER
from course_lib.mock_llm import MockLLM
from course_lib.mock_llm.faults import MAX_FAULT_SECONDS
from course_lib.mock_llm.limits import Limits
from course_lib.servers import start_server, stop_server

HI = [{"role": "user", "content": "Hello"}]


def post(mock: MockLLM, body, path: str = "/v1/chat/completions", headers: dict | None = None):
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    reply = mock.handle("POST", path, headers or {}, raw)
    return reply.status, json.loads(reply.body)


def error_of(mock: MockLLM, body, path: str = "/v1/chat/completions", headers: dict | None = None):
    status, payload = post(mock, body, path, headers)
    assert set(payload) == {"error"} and set(payload["error"]) == {"message", "type", "param", "code"}
    return status, payload["error"]


@pytest.mark.parametrize("field, value, param, code", [
    ("temperature", "hot", "temperature", "invalid_type"),
    ("temperature", 5, "temperature", "decimal_above_max_value"),
    ("top_p", -0.5, "top_p", "decimal_below_min_value"),
    ("max_tokens", -1, "max_tokens", "integer_below_min_value"),
    ("max_completion_tokens", 2.5, "max_completion_tokens", "invalid_type"),
    ("seed", "42", "seed", "invalid_type"),
    ("stop", ["a", "b", "c", "d", "e"], "stop", "array_above_max_length"),
    ("presence_penalty", True, "presence_penalty", "invalid_type"),
    ("metadata", {"k": 1}, "metadata.k", "invalid_type"),
    ("n", 0, "n", "integer_below_min_value"),
    ("modalities", [["text"], 1], "modalities", "invalid_type"),  # found by a longer fuzz run (was a TypeError)
])
def test_wrong_types_and_ranges_get_the_apis_400(mock, field, value, param, code):
    status, err = error_of(mock, {"model": "m", "messages": HI, field: value})
    assert (status, err["param"], err["code"], err["type"]) == (400, param, code, "invalid_request_error")
    assert f"'{param}'" in err["message"]


def test_an_unknown_parameter_is_refused_as_each_api_words_it(mock):
    assert error_of(mock, {"model": "m", "messages": HI, "top_k": 5}) == (
        400, {"message": "Unrecognized request argument supplied: top_k", "type": "invalid_request_error",
              "param": None, "code": None})
    status, err = error_of(mock, {"model": "m", "input": "hi", "top_k": 5}, "/v1/responses")
    assert (status, err["message"], err["param"], err["code"]) == (400, "Unknown parameter: 'top_k'.", "top_k",
                                                                   "unknown_parameter")


@pytest.mark.parametrize("field, value", [("n", 2), ("logprobs", True), ("top_logprobs", 3),
                                          ("modalities", ["text", "audio"]), ("audio", {"voice": "alloy"}),
                                          ("functions", [{"name": "f"}]), ("web_search_options", {})])
def test_what_the_mock_cannot_do_is_a_clear_400_never_silently_ignored(mock, field, value):
    status, err = error_of(mock, {"model": "m", "messages": HI, field: value})
    assert status == 400 and err["param"] == field
    assert err["code"] in ("unsupported_parameter", "unsupported_value")
    assert err["message"].startswith("The course's mock LLM does not support")


def test_parameters_a_deterministic_mock_cannot_change_are_checked_then_change_nothing(client):
    plain = client.chat.completions.create(model="m", messages=HI)
    tuned = client.chat.completions.create(model="m", messages=HI, temperature=0.2, top_p=0.9, seed=7, user="u1",
                                           presence_penalty=0.5, logprobs=False, n=1, metadata={"lesson": "01"})
    assert tuned.choices[0].message.content == plain.choices[0].message.content == "Hello! How can I help you today?"


def test_max_tokens_cuts_the_answer_and_says_length(client):
    full = client.chat.completions.create(model="m", messages=HI).choices[0]
    cut = client.chat.completions.create(model="m", messages=HI, max_tokens=2).choices[0]
    assert (full.finish_reason, cut.finish_reason) == ("stop", "length")
    assert cut.message.content == full.message.content[:8] == "Hello! H"
    call = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Weather in Shanghai?"}],
                                          tools=[WEATHER], max_completion_tokens=2).choices[0]
    assert call.finish_reason == "length" and call.message.tool_calls[0].function.arguments == '{"city":'


def test_stop_ends_the_text_where_the_sequence_first_appears(client):
    r = client.chat.completions.create(model="m", messages=HI, stop=["How", "!"]).choices[0]
    assert (r.message.content, r.finish_reason) == ("Hello", "stop")


def test_stream_options_without_stream_is_refused(mock):
    status, err = error_of(mock, {"model": "m", "messages": HI, "stream_options": {"include_usage": True}})
    assert (status, err["param"]) == (400, "stream_options")


def test_duplicate_tool_call_ids_and_object_arguments_are_refused(mock):
    call = {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
    dup = [{"role": "user", "content": "Weather in Paris twice"},
           {"role": "assistant", "content": None, "tool_calls": [call, call]},
           {"role": "tool", "tool_call_id": "call_1", "content": "sunny"}]
    status, err = error_of(mock, {"model": "m", "messages": dup, "tools": [WEATHER]})
    assert (status, err["param"]) == (400, "messages[1].tool_calls[1].id")
    assert "duplicate tool call id 'call_1'" in err["message"]
    as_object = {**call, "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}
    msgs = [dup[0], {"role": "assistant", "content": None, "tool_calls": [as_object]}, dup[2]]
    status, err = error_of(mock, {"model": "m", "messages": msgs, "tools": [WEATHER]})
    assert (status, err["param"], err["code"]) == (400, "messages[1].tool_calls[0].function.arguments", "invalid_type")


def _tool_with(parameters: dict) -> dict:
    return {"type": "function", "function": {"name": "lookup", "description": "Look a thing up", "parameters": parameters}}


@pytest.mark.parametrize("ref", ["#/$defs/Missing", "https://example.com/schema.json", "other.json#/a", "#/properties/x/0"])
def test_a_ref_that_points_nowhere_inside_the_schema_is_refused(mock, ref):
    params = {"type": "object", "properties": {"x": {"$ref": ref}}, "$defs": {"Thing": {"type": "string"}}}
    status, err = error_of(mock, {"model": "m", "messages": HI, "tools": [_tool_with(params)]})
    assert (status, err["param"], err["code"]) == (400, "tools[0].function.parameters", "invalid_function_parameters")
    assert f"reference '{ref}' can't be resolved" in err["message"]


def test_local_refs_are_followed_as_before(client):
    params = {"type": "object", "properties": {"city": {"$ref": "#/$defs/City"}}, "required": ["city"],
              "$defs": {"City": {"type": "string", "description": "A city name"}}}
    r = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Look up Paris"}],
                                       tools=[_tool_with(params)])
    assert r.choices[0].message.tool_calls[0].function.arguments == '{"city": "Paris"}'


def test_a_body_nested_3000_levels_is_a_400_not_a_recursion_error(mock):
    deep = b'{"model": "m", "messages": ' + b"[" * 3000 + b"]" * 3000 + b"}"
    status, err = error_of(mock, deep)
    assert (status, err["code"]) == (400, "invalid_json")
    assert "nest more than 64 levels" in err["message"]
    moderate = {"model": "m", "messages": HI, "metadata": None, "tools": [_tool_with(
        {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "array", "items": {
            "type": "array", "items": {"type": "array", "items": {"type": "string"}}}}}}}})]}
    assert post(mock, moderate)[0] == 200


def test_brackets_and_escapes_inside_strings_do_not_count_as_nesting(mock):
    """The depth check skips strings by splitting at quotes: escaped quotes and backslashes must not shift it."""
    from course_lib.mock_llm.limits import nests_deeper

    text = json.dumps({"a": ['[[[{\\"', "\\", '\\"]]]', {"b": ["x"]}]}).encode()
    assert [nests_deeper(text, d, valid_json=True) for d in (3, 4)] == [True, False]
    assert [nests_deeper(text, d) for d in (3, 4)] == [True, False]  # the regex way, for text not yet parsed
    assert nests_deeper(b'["x", "[[[', 3) is True  # an unclosed last quote opens no string: its brackets count
    content = "ok " + "[" * 80 + '\\"' + "{" * 80
    assert post(mock, {"model": "m", "messages": [{"role": "user", "content": content}]})[0] == 200


def _depth(value) -> int:
    """How deep arrays and objects nest in a decoded JSON value (the oracle for the byte-level check)."""
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


def test_the_depth_check_on_parsed_bodies_agrees_with_the_decoded_depth():
    """Mixed arrays and objects, siblings of different depths, brackets, quotes and backslashes in keys
    and strings: the check for parsed bodies (one replace per level) says what walking the value says."""
    import random

    from course_lib.mock_llm.limits import nests_deeper

    rnd = random.Random(13)
    pieces = ["[", "]", "{", "}", '"', "\\", '\\"', "a", " ", "中"]

    def text() -> str:
        return "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 5)))

    def value(level: int):
        r = rnd.random()
        if level > 8 or r < 0.3:
            return text()
        if r < 0.65:
            return [value(level + 1) for _ in range(rnd.randint(0, 3))]
        return {text(): value(level + 1) for _ in range(rnd.randint(0, 3))}

    for _ in range(400):
        tree = value(0)
        body = json.dumps(tree, ensure_ascii=rnd.random() < 0.5).encode()
        for limit in (0, 1, 2, 4, 6):
            assert nests_deeper(body, limit, valid_json=True) is (_depth(tree) > limit), (body, limit)
            assert nests_deeper(body, limit) is (_depth(tree) > limit), (body, limit)
    assert nests_deeper(b'[[{"a": []}], {}, [[[[]]]]]', 4, valid_json=True) is True  # 5 deep in the last
    assert nests_deeper(b'[[{"a": []}], {}, [[[]]]]', 4, valid_json=True) is False


def test_a_lone_surrogate_is_a_400_naming_the_field(mock):
    raw = b'{"model": "m", "messages": [{"role": "user", "content": "hi \\ud800 there"}]}'
    status, err = error_of(mock, raw)
    assert (status, err["param"], err["code"]) == (400, "messages[0].content", "invalid_value")
    assert "lone UTF-16 surrogate" in err["message"]
    pair = '{"model": "m", "messages": [{"role": "user", "content": "Hello \\ud83d\\ude00"}]}'.encode()
    assert post(mock, pair)[0] == 200  # a complete pair is one character (an emoji)


@pytest.mark.parametrize("value, kind", [(5, "an integer"), (None, "null"), ({"role": "user"}, "an object")])
def test_responses_input_that_is_neither_text_nor_items_is_a_400(mock, value, kind):
    status, err = error_of(mock, {"model": "m", "input": value}, "/v1/responses")
    assert (status, err["param"], err["code"]) == (400, "input", "invalid_type")
    assert err["message"] == ("Invalid type for 'input': expected one of a string or an array of input items, but "
                              f"got {kind} instead.")


@pytest.mark.parametrize("header, says", [
    (";", "X-Mock-Fault is empty"),
    ("latency; seconds=abc", "seconds='abc' is not a number of seconds"),
    ("latency; seconds=1e9", f"seconds must be a number of seconds from 0 to {MAX_FAULT_SECONDS:g}"),
    ("latency; seconds=-1", "seconds must be a number of seconds from 0"),
    ("latency; seconds=nan", "seconds must be a number of seconds from 0"),
    ("rate_limit; retry_after=inf", "retry_after must be a number of seconds"),
    ("rate_limit; retry_after=1; retry_after=2", "given twice"),
    ("latency; pause", "Unknown X-Mock-Fault parameter 'pause'"),
    ("meltdown", "unknown fault kind 'meltdown'"),
])
def test_fault_headers_are_checked_and_capped(mock, header, says):
    status, err = error_of(mock, {"model": "m", "messages": HI}, headers={"x-mock-fault": header})
    assert (status, err["param"], err["code"]) == (400, "X-Mock-Fault", "invalid_fault")
    assert says in err["message"]


def test_faults_set_from_python_are_checked_too(mock):
    with pytest.raises(ValueError, match="seconds must be a number of seconds from 0 to 60"):
        mock.inject("latency", seconds=1e9)
    with pytest.raises(ValueError, match="times must be a positive integer"):
        mock.inject("server_error", times=0)
    reply = mock.inject("latency", seconds=0.5).handle("POST", "/v1/chat/completions", {},
                                                       json.dumps({"model": "m", "messages": HI}).encode())
    assert (reply.status, reply.delay) == (200, 0.5)


def test_a_body_over_the_size_limit_is_a_413_and_a_long_prompt_a_context_length_error():
    mock = MockLLM(limits=Limits(max_request_bytes=2000, max_context_tokens=100))
    status, err = error_of(mock, {"model": "m", "messages": [{"role": "user", "content": "x" * 3000}]})
    assert (status, err["code"]) == (413, "request_too_large")
    assert "at most 2,000" in err["message"] and "max_request_bytes" in err["message"]
    status, err = error_of(mock, {"model": "m", "messages": [{"role": "user", "content": "word " * 200}]})
    assert (status, err["code"], err["param"]) == (400, "context_length_exceeded", "messages")
    assert err["message"] == ("This model's maximum context length is 100 tokens. However, your messages resulted in "
                              "250 tokens. Please reduce the length of the messages.")
    status, err = error_of(mock, {"model": "m", "input": "word " * 200}, "/v1/responses")
    assert (status, err["code"], err["param"]) == (400, "context_length_exceeded", "input")


def test_the_request_log_is_bounded_in_count_and_bytes():
    mock = MockLLM(limits=Limits(log_limit=5, log_bytes=20_000))
    for i in range(12):
        post(mock, {"model": "m", "messages": [{"role": "user", "content": f"Hello {i}"}]})
    assert len(mock.log) == 5 and mock.log[-1].request["messages"][0]["content"] == "Hello 11"
    for i in range(4):
        post(mock, {"model": "m", "messages": [{"role": "user", "content": f"Hello {i} " + "y" * 8000}]})
    assert mock.log.bytes <= 20_000 and len(mock.log) == 2
    mock.reset()
    assert (len(mock.log), mock.log.bytes) == (0, 0)


def test_the_sdk_raises_its_own_errors_for_these_400s(client):
    with pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(model="m", messages=HI, temperature="hot")
    assert caught.value.status_code == 400 and caught.value.param == "temperature"


@pytest.fixture
def served():
    mock = MockLLM()
    server = start_server("test-mock-hostile", mock.asgi_app())
    try:
        yield mock, server.url
    finally:
        stop_server("test-mock-hostile")


def test_over_http_a_long_request_never_stalls_get_models(served):
    """The POST is held inside the mock until GET /v1/models has answered: on the event loop it never would."""
    mock, url = served
    release, entered = threading.Event(), threading.Event()
    real = mock.handle

    def held(method, path, headers, body):
        if method == "POST":
            entered.set()
            release.wait(30)
        return real(method, path, headers, body)

    mock.handle = held  # type: ignore[method-assign]
    answers = {}
    post_thread = threading.Thread(target=lambda: answers.setdefault("post", httpx.post(
        url + "/v1/chat/completions", json={"model": "m", "messages": HI}, timeout=60)))
    post_thread.start()
    assert entered.wait(10)
    models = httpx.get(url + "/v1/models", timeout=10)  # answered while the POST is still inside the mock
    assert models.status_code == 200 and models.json()["data"][0]["id"] == "mock-llm"
    release.set()
    post_thread.join(30)
    assert answers["post"].json()["choices"][0]["message"]["content"] == "Hello! How can I help you today?"


def test_over_http_an_oversized_body_gets_its_413_and_the_server_goes_on(served):
    mock, url = served
    big = json.dumps({"model": "m", "messages": [{"role": "user", "content": "x" * (5 * 1024 * 1024)}]})
    r = httpx.post(url + "/v1/chat/completions", content=big, headers={"content-type": "application/json"},
                   timeout=30)
    assert r.status_code == 413 and r.json()["error"]["code"] == "request_too_large"
    deep = b'{"model": "m", "messages": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    r = httpx.post(url + "/v1/chat/completions", content=deep, timeout=30)
    assert r.status_code == 400 and r.headers["content-type"] == "application/json"
    assert r.json()["error"]["code"] == "invalid_json"
    ok = httpx.post(url + "/v1/chat/completions", json={"model": "m", "messages": HI}, timeout=30)
    assert ok.status_code == 200


def test_the_caches_keyed_by_tools_text_are_bounded_in_bytes():
    from course_lib.mock_llm.limits import BoundedCache
    from course_lib.mock_llm.wire import _VALID_LISTS, parse_chat_request

    cache = BoundedCache(max_items=100, max_bytes=10_000)
    for i in range(50):
        cache.put(f"key{i}" + "x" * 500, i)
    assert cache.bytes <= 10_000 and len(cache) == 19 and cache.get("key49" + "x" * 500) == 49
    cache.put("huge" + "y" * 5000, "not kept")  # over a quarter of the cap
    assert cache.get("huge" + "y" * 5000) is None
    big_tool = _tool_with({"type": "object", "properties": {f"p{i}": {"type": "string", "description": "z" * 200}
                                                            for i in range(40_000 // 200)}})
    before = _VALID_LISTS.bytes
    for i in range(3):
        parse_chat_request({"model": "m", "messages": HI,
                            "tools": [dict(big_tool, function=dict(big_tool["function"], name=f"t{i}"))]})
    assert 3 * 40_000 < _VALID_LISTS.bytes - before < 3 * 50_000  # each list counted by its size
    assert _VALID_LISTS.bytes <= _VALID_LISTS.max_bytes


def test_course_llm_serve_stops_promptly_on_sigterm_during_a_long_request():
    """SIGTERM while a request is held (an injected 30 s latency): the server exits within seconds, not after it."""
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen([sys.executable, "-m", "course_lib.cli", "llm", "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().split()[3]  # "Mock LLM at http://127.0.0.1:PORT/v1  (...)"
        deadline = time.monotonic() + 30
        while not _answers(url + "/models") and time.monotonic() < deadline:
            time.sleep(0.1)
        replies: list = []
        held = threading.Thread(target=lambda: replies.append(_quiet_post(url + "/chat/completions")), daemon=True)
        held.start()
        time.sleep(0.5)  # the held request is inside the server now
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=15)  # before the fix it waited the whole 30 s for the held reply
        assert proc.returncode in (0, -signal.SIGTERM)
        held.join(10)
        reply = replies[0]  # the held request is answered, as the OpenAI API words a 503
        assert reply is not None and reply.status_code == 503
        assert reply.json()["error"]["code"] == "server_shutting_down"
        assert "Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


def _quiet_post(url: str) -> httpx.Response | None:
    try:
        return httpx.post(url, json={"model": "m", "messages": HI}, headers={"x-mock-fault": "latency; seconds=30"},
                          timeout=40)
    except httpx.HTTPError:
        return None  # the server went away without a reply


def test_course_llm_serve_flags_set_the_limits(capsys):
    import argparse

    from course_lib.commands.llm import mock_from_args

    mock = mock_from_args(argparse.Namespace(model="m", max_request_bytes=1000, max_context_tokens=50))
    assert (mock.limits.max_request_bytes, mock.limits.max_context_tokens, mock.model) == (1000, 50, "m")
    assert mock_from_args(argparse.Namespace(model="m")).limits == Limits()  # flags left out: the defaults
    with pytest.raises(SystemExit) as stop:
        mock_from_args(argparse.Namespace(model="m", max_request_bytes=0, max_context_tokens=None))
    assert stop.value.code == 2
    assert "max_request_bytes must be a positive integer, got 0" in capsys.readouterr().err


# ---------------------------------------------------------------------- cost bounded before the costly checks
def _tools(n: int) -> list[dict]:
    return [{"type": "function", "function": {"name": f"tool_{i}", "description": f"Tool number {i}",
                                              "parameters": {"type": "object", "properties": {}}}} for i in range(n)]


def test_more_than_128_tools_is_the_apis_400_on_both_apis(mock):
    assert post(mock, {"model": "m", "messages": HI, "tools": _tools(128)})[0] == 200
    status, err = error_of(mock, {"model": "m", "messages": HI, "tools": _tools(129)})
    assert (status, err["param"], err["code"]) == (400, "tools", "array_above_max_length")
    assert err["message"] == ("Invalid 'tools': array too long. Expected an array with maximum length 128, but got an "
                              "array with length 129 instead.")
    flat = [{"type": "function", "name": t["function"]["name"], "parameters": t["function"]["parameters"]}
            for t in _tools(200)]
    status, err = error_of(mock, {"model": "m", "input": "hi", "tools": flat}, "/v1/responses")
    assert (status, err["param"], err["code"]) == (400, "tools", "array_above_max_length")


def test_schemas_over_the_object_cap_are_refused_before_the_meta_schema_check(mock, monkeypatch):
    """Checking a schema costs ~1.7 ms a property: a 100,000-property schema is refused without that check."""
    import jsonschema

    from course_lib.mock_llm.limits import MAX_SCHEMA_OBJECTS

    def never(*args, **kwargs):
        raise AssertionError("the meta-schema check ran on an oversized schema")

    wide = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(100_000)}}
    monkeypatch.setattr(jsonschema.Draft202012Validator, "check_schema", classmethod(never))
    status, err = error_of(mock, {"model": "m", "messages": HI, "tools": [_tool_with(wide)]})
    assert (status, err["param"], err["code"]) == (400, "tools", "schema_too_large")
    assert f"more than {MAX_SCHEMA_OBJECTS:,} JSON objects" in err["message"]
    fmt = {"type": "json_schema", "json_schema": {"name": "Wide", "schema": wide}}
    status, err = error_of(mock, {"model": "m", "messages": HI, "response_format": fmt})
    assert (status, err["param"], err["code"]) == (400, "response_format.json_schema.schema", "schema_too_large")
    # spread over many tools, the objects count together
    spread = [_tool_with({"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(60)}})
              for _ in range(100)]
    for i, t in enumerate(spread):
        t["function"]["name"] = f"lookup_{i}"
    assert error_of(mock, {"model": "m", "messages": HI, "tools": spread})[1]["code"] == "schema_too_large"


def test_checking_a_request_runs_outside_the_engine_lock(mock, monkeypatch):
    """Only the decision is one at a time: a huge tool list being checked does not make other requests wait."""
    from course_lib.mock_llm import server, wire

    seen = {}
    check, decide = wire._check_tool_uncached, server.decide

    def checking(*args):
        seen["check"] = server._ENGINE_LOCK.locked()
        return check(*args)

    def deciding(req):
        seen["decide"] = server._ENGINE_LOCK.locked()
        return decide(req)

    monkeypatch.setattr(wire, "_check_tool_uncached", checking)
    monkeypatch.setattr(server, "decide", deciding)
    tool = _tool_with({"type": "object", "properties": {"term": {"type": "string", "description": "a fresh one"}}})
    assert post(mock, {"model": "m", "messages": HI, "tools": [tool]})[0] == 200
    assert seen == {"check": False, "decide": True}


def test_remembered_decisions_are_bounded_in_bytes(monkeypatch):
    """An answer made from a long tool result holds the result: the memo of decisions counts its bytes."""
    from course_lib.mock_llm import server

    monkeypatch.setattr(server, "MEMO_BYTES", 1_000_000)
    mock = MockLLM()
    call = {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
    for i in range(12):
        status, body = post(mock, {"model": "m", "tools": [WEATHER], "messages": [
            {"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "call_1", "content": f"report {i}: " + "sunny and warm " * 13_000}]})
        assert status == 200 and len(body["choices"][0]["message"]["content"]) > 190_000
    assert mock._memo.bytes <= 1_000_000 and 2 <= len(mock._memo) <= 5


def _counting(app, seen: dict):
    """``app`` behind a layer that adds up, per request (header ``x-tag``), the body bytes the app has read."""
    async def wrapped(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        tag = dict(scope["headers"]).get(b"x-tag", b"").decode()
        seen[tag] = 0

        async def counted():
            message = await receive()
            seen[tag] += len(message.get("body", b""))
            return message
        await app(scope, counted, send)
    return wrapped


def test_over_http_at_most_in_flight_posts_are_read_and_held_at_once():
    """in_flight=2 and three 400 kB POSTs: the third's body is not read until one of the first two has finished."""
    mock = MockLLM()
    seen: dict[str, int] = {}
    server = start_server("test-mock-in-flight", _counting(mock.asgi_app(in_flight=2), seen))
    url = server.url
    turns, lock = threading.Semaphore(0), threading.Lock()
    entered: list[tuple[str, int]] = []  # (tag, how many had finished when it entered)
    finished: list[str] = []
    real = mock.handle

    def held(method, path, headers, body):
        if method != "POST":
            return real(method, path, headers, body)
        with lock:
            entered.append((headers["x-tag"], len(finished)))
        turns.acquire(timeout=30)
        try:
            return real(method, path, headers, body)
        finally:
            with lock:
                finished.append(headers["x-tag"])

    mock.handle = held  # type: ignore[method-assign]
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "Hello " + "x" * 400_000}]}).encode()
    answers: dict[str, httpx.Response] = {}

    def send(tag: str) -> None:
        answers[tag] = httpx.post(url + "/v1/chat/completions", content=body, timeout=60,
                                  headers={"content-type": "application/json", "x-tag": tag})

    threads = [threading.Thread(target=send, args=(tag,)) for tag in "abc"]
    try:
        for t in threads:
            t.start()
        deadline = time.monotonic() + 20
        while (len(entered) < 2 or len(seen) < 3) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # time enough for a third read, were it allowed
        assert len(entered) == 2 and not finished
        waiting = (set("abc") - {tag for tag, _ in entered}).pop()
        assert seen[waiting] == 0  # not a byte of its body read by the app
        assert sum(seen.values()) == 2 * len(body)  # what the app holds: two bodies, not three
        assert httpx.get(url + "/v1/models", timeout=10).status_code == 200  # GETs do not queue behind POSTs
        turns.release()  # one of the first two finishes...
        deadline = time.monotonic() + 20
        while len(entered) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert entered[2] == (waiting, 1)  # ...and only then is the third read
        turns.release()
        turns.release()
        for t in threads:
            t.join(30)
        assert [answers[tag].status_code for tag in "abc"] == [200, 200, 200]
        assert seen[waiting] == len(body)
    finally:
        for _ in range(3):
            turns.release()
        stop_server("test-mock-in-flight")


def test_over_http_a_body_that_never_arrives_gets_a_408_and_frees_its_slot():
    """in_flight=1: a client that sends 10 of its 100 bytes gets the 408 after read_seconds; the next POST is served."""
    import socket

    mock = MockLLM()
    server = start_server("test-mock-slow-body", mock.asgi_app(in_flight=1, read_seconds=0.5))
    try:
        host, port = server.url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as slow:
            slow.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                         b"content-length: 100\r\n\r\n" + b'{"model": ')
            started = time.monotonic()
            raw = b""
            while b"\r\n\r\n" not in raw or not raw.rstrip().endswith(b"}"):
                chunk = slow.recv(65536)
                if not chunk:
                    break
                raw += chunk
            waited = time.monotonic() - started
        head, _, payload = raw.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408") and 0.4 < waited < 5
        error = json.loads(payload)["error"]
        assert error["code"] == "request_timeout" and set(error) == {"message", "type", "param", "code"}
        ok = httpx.post(server.url + "/v1/chat/completions", json={"model": "m", "messages": HI}, timeout=10)
        assert ok.status_code == 200  # the one slot is free again
        assert [e.status for e in mock.log] == [408, 200]
    finally:
        stop_server("test-mock-slow-body")


@pytest.mark.parametrize("kwargs", [{"in_flight": 0}, {"in_flight": 2.5}, {"read_seconds": 0}])
def test_the_in_flight_settings_are_checked(kwargs):
    with pytest.raises(ValueError):
        MockLLM().asgi_app(**kwargs)


DEEP = "[" * 100_000 + "]" * 100_000  # JSON text inside a message, nested far past Python's recursion limit


def _deep_conversation(arguments: str = '{"city": "Paris"}', result: str = "sunny") -> list[dict]:
    call = {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": arguments}}
    return [{"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "c1", "content": result}]


@pytest.mark.parametrize("messages, index, field", [
    (_deep_conversation(result=DEEP), 2, "content"),
    (_deep_conversation(result=[{"type": "text", "text": DEEP}]), 2, "content"),
    (_deep_conversation(arguments=DEEP), 1, "tool_calls[0].function.arguments"),
])
@pytest.mark.parametrize("extra", [{}, {"response_format": {"type": "json_object"}}])
def test_json_text_nested_too_deep_inside_a_message_is_a_400_not_a_recursion_error(mock, messages, index, field, extra):
    """A tool result or a call's arguments nesting 100,000 levels was a 500 (RecursionError in the readers)."""
    if extra:  # json_object needs the word JSON in the conversation: one system message more before the rest
        messages, index = [{"role": "system", "content": "Answer in JSON."}, *messages], index + 1
    status, error = error_of(mock, {"model": "m", "messages": messages, "tools": [WEATHER], **extra})
    assert (status, error["param"], error["code"]) == (400, f"messages[{index}].{field}", "invalid_value")
    assert "64 levels" in error["message"]


def test_json_text_inside_messages_within_the_depth_limit_is_read_as_before(mock):
    nested = json.dumps({"report": [[[[{"temp": 21}]]]]})
    status, payload = post(mock, {"model": "m", "messages": _deep_conversation(result=nested), "tools": [WEATHER]})
    assert status == 200 and payload["choices"][0]["finish_reason"] == "stop"
    status, payload = post(mock, {"model": "m", "messages": _deep_conversation(result="[[[ not json, just brackets"),
                                  "tools": [WEATHER]})
    assert status == 200  # text that is not deep JSON stays text


def test_responses_items_nested_too_deep_are_a_400_in_items_words(mock):
    items = [{"type": "message", "role": "user", "content": "Weather in Paris?"},
             {"type": "function_call", "call_id": "c1", "name": "get_weather", "arguments": '{"city": "Paris"}'},
             {"type": "function_call_output", "call_id": "c1", "output": DEEP}]
    status, error = error_of(mock, {"model": "m", "input": items, "tools": [dict(WEATHER["function"], type="function")]},
                             "/v1/responses")
    assert status == 400 and error["param"] == "input" and "input items" in error["message"]


def test_over_http_a_get_carries_at_most_a_small_body(served):
    """Bodies sent with GETs are not held past MAX_GET_BODY_BYTES (they would bypass the POSTs' in-flight bound)."""
    from course_lib.mock_llm.server import MAX_GET_BODY_BYTES

    mock, url = served
    big = httpx.request("GET", url + "/v1/models", content=b"x" * (MAX_GET_BODY_BYTES + 1), timeout=30)
    assert big.status_code == 413 and big.json()["error"]["code"] == "request_too_large"
    assert f"at most {MAX_GET_BODY_BYTES:,}" in big.json()["error"]["message"]
    small = httpx.request("GET", url + "/v1/models", content=b"{}", timeout=30)
    assert small.status_code == 200 and small.json()["data"][0]["id"] == "mock-llm"
