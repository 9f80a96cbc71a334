"""Which LLM the course talks to, and the clear errors when a configured endpoint is wrong.

Each error is provoked for real: a closed port, a web server that is not an LLM API (404), one that
refuses the key (401), and the course's own mock served over HTTP as a working endpoint.
"""
from __future__ import annotations

import pytest
from starlette.applications import Starlette
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Route

from course_lib import llm_client
from course_lib.llm_client import EndpointError, backend, get_client
from course_lib.mock_llm import MockLLM
from course_lib.servers import free_port, start_server, stop_server


@pytest.fixture
def env(monkeypatch):
    for name in ("COURSE_LLM", "OPENAI_BASE_URL", "OPENAI_API_KEY", "COURSE_MODEL"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_the_mock_is_the_default_and_a_key_alone_selects_the_real_api(env):
    assert backend().kind == "mock"
    env.setenv("OPENAI_API_KEY", "sk-test")
    b = backend()
    assert (b.kind, b.base_url) == ("endpoint", "https://api.openai.com/v1")
    env.setenv("COURSE_LLM", "mock")
    assert backend().kind == "mock"
    env.setenv("COURSE_LLM", "mocks")
    with pytest.raises(EndpointError, match="COURSE_LLM='mocks' is not understood"):
        backend()


def test_a_closed_port_says_it_cannot_reach_the_endpoint(env):
    env.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{free_port()}/v1")
    with pytest.raises(EndpointError, match=r"Cannot reach the LLM endpoint .*COURSE_LLM=mock"):
        get_client(timeout=2.0)


def test_a_key_alone_is_named_as_what_selected_the_real_api(env, monkeypatch):
    env.setenv("OPENAI_API_KEY", "sk-test")
    unreachable = f"http://127.0.0.1:{free_port()}/v1"  # stands in for api.openai.com: no network in tests
    monkeypatch.setattr(llm_client, "backend", lambda: llm_client.Backend("endpoint", unreachable, "gpt-4o-mini"))
    with pytest.raises(EndpointError, match=r"OPENAI_API_KEY alone selects it\), set COURSE_LLM=mock"):
        get_client(timeout=2.0)


def test_a_web_server_that_is_not_an_llm_api_is_named_as_such(env):
    app = Starlette(routes=[Route("/", lambda request: PlainTextResponse("a blog"))])
    server = start_server("test-not-an-llm", app)
    try:
        env.setenv("OPENAI_BASE_URL", server.url)  # the /v1 is missing
        with pytest.raises(EndpointError) as info:
            get_client(timeout=5.0)
        message = str(info.value)
        assert "not as an OpenAI-compatible API" in message and "HTTP 404" in message and "/v1" in message
    finally:
        stop_server("test-not-an-llm")


def test_a_refused_key_names_the_key(env):
    app = Starlette(routes=[Route("/v1/models", lambda request: JSONResponse({"error": "bad key"}, 401))])
    server = start_server("test-refuses-key", app)
    try:
        env.setenv("OPENAI_BASE_URL", server.url + "/v1")
        env.setenv("OPENAI_API_KEY", "sk-wrong")
        with pytest.raises(EndpointError, match=r"refused the API key \(HTTP 401\)\. Check OPENAI_API_KEY"):
            get_client(timeout=5.0)
    finally:
        stop_server("test-refuses-key")


def test_a_server_error_is_not_taken_for_a_working_endpoint(env):
    app = Starlette(routes=[Route("/v1/models", lambda request: PlainTextResponse("down", 503))])
    server = start_server("test-503", app)
    try:
        env.setenv("OPENAI_BASE_URL", server.url + "/v1")
        with pytest.raises(EndpointError, match=r"not ready: GET .*/v1/models gave HTTP 503"):
            get_client(timeout=5.0)
    finally:
        stop_server("test-503")


def test_a_working_endpoint_gives_an_openai_client_that_answers(env):
    server = start_server("test-mock-endpoint", MockLLM().asgi_app())
    try:
        env.setenv("OPENAI_BASE_URL", server.url + "/v1")
        env.setenv("COURSE_MODEL", "mock-llm")
        client = get_client(timeout=5.0)
        assert str(client.base_url).rstrip("/") == server.url + "/v1"
        reply = client.chat.completions.create(model=llm_client.default_model(),
                                               messages=[{"role": "user", "content": "Hello"}])
        assert reply.choices[0].message.content == "Hello! How can I help you today?"
    finally:
        stop_server("test-mock-endpoint")


def test_in_a_notebook_the_error_shows_its_message_without_a_traceback():
    error = EndpointError("Cannot reach the LLM endpoint http://127.0.0.1:9/v1")
    assert error._render_traceback_() == ["EndpointError: Cannot reach the LLM endpoint http://127.0.0.1:9/v1"]


def test_a_base_url_that_is_no_url_says_so_and_how_to_apply_the_fix(env, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", "not-a-url")
    with pytest.raises(EndpointError) as caught:
        get_client()
    message = str(caught.value)
    assert message.startswith("OPENAI_BASE_URL='not-a-url' is not a URL: it starts with http:// or https://")
    assert message.endswith("set the variable in a cell (%env NAME=value) and run the cell again, or restart "
                            "JupyterLab from a shell where it is set.")


_GRAMMAR_PROBE = r"""
import json, sys
from course_lib.llm_client import get_client
import course_lib.tool_schemas, course_lib.mock_llm.wire
from jsonschema import Draft202012Validator, FormatChecker
seen = {m: m in sys.modules for m in ("jsonschema", "rfc3987_syntax", "lark")}
iri = Draft202012Validator({"format": "iri"}, format_checker=FormatChecker())
uri = Draft202012Validator({"format": "uri"}, format_checker=Draft202012Validator.FORMAT_CHECKER)
print(json.dumps({"imported": seen,
                  "iri_ok": iri.is_valid("https://例子.测试/路径"), "iri_bad": iri.is_valid("no iri at all"),
                  "uri_bad": uri.is_valid("no scheme"), "uri_ok": uri.is_valid("https://example.com/a?b=1"),
                  "grammar_after_iri_check": "rfc3987_syntax" in sys.modules}))
"""


def test_importing_the_client_does_not_build_the_iri_grammar_and_iri_formats_still_check():
    """Issue 15: jsonschema's [format-nongpl] iri checker builds a lark grammar at import (0.85 s)."""
    import json
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _GRAMMAR_PROBE], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    facts = json.loads(out.stdout)
    assert facts["imported"] == {"jsonschema": True, "rfc3987_syntax": False, "lark": False}
    # the iri formats are still checked, by the lazy checker that imports the grammar on first use
    assert (facts["iri_ok"], facts["iri_bad"], facts["grammar_after_iri_check"]) == (True, False, True)
    assert (facts["uri_ok"], facts["uri_bad"]) == (True, False)


_FIRST_CELL_PROBE = r"""
import json, sys
from course_lib.examples import WEATHER_TOOL
from course_lib.function_calling import tool_loop
from course_lib.tool_schemas import function_schema, to_responses_tool
from course_lib.tool_registry import ToolRegistry
from course_lib.agent import Agent
from course_lib.llm_client import backend, default_mock, default_model, get_client
from course_lib.mock_llm import MockLLM
client, mock = get_client(), default_mock()
before = {m: m in sys.modules for m in ("course_lib.mock_llm.engine", "course_lib.mock_llm.wire", "jsonschema")}
reply = client.chat.completions.create(model=default_model(), tools=[WEATHER_TOOL],
                                       messages=[{"role": "user", "content": "Weather in Paris?"}])
after = {m: m in sys.modules for m in before}
print(json.dumps({"before": before, "after": after, "call": reply.choices[0].message.tool_calls[0].function.name,
                  "mock_is_MockLLM": isinstance(mock, MockLLM)}))
"""


def test_a_first_cell_imports_neither_the_mock_engine_nor_jsonschema_until_the_first_request():
    """Issue 15: the engine (its regular expressions) and jsonschema load with the first request, not the client."""
    import json
    import os
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _FIRST_CELL_PROBE], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "COURSE_LLM": "mock"})
    assert out.returncode == 0, out.stderr
    facts = json.loads(out.stdout)
    assert facts["before"] == {"course_lib.mock_llm.engine": False, "course_lib.mock_llm.wire": False,
                               "jsonschema": False}
    assert facts["after"] == {"course_lib.mock_llm.engine": True, "course_lib.mock_llm.wire": True,
                              "jsonschema": True}
    assert (facts["call"], facts["mock_is_MockLLM"]) == ("get_weather", True)


def test_the_mock_engine_facade_hands_out_each_modules_own_name_at_every_use(monkeypatch):
    """server._engine: every name it lists is that module's object, looked up at use (a patch is seen)."""
    import importlib

    from course_lib.mock_llm import server, structured_output

    for name, home in server._Engine.HOMES.items():
        assert getattr(server._engine, name) is getattr(importlib.import_module(f"course_lib.mock_llm.{home}"), name)
    monkeypatch.setattr(structured_output, "answer", "patched")
    assert server._engine.answer == "patched"
    with pytest.raises(AttributeError, match="no 'handle'"):
        server._engine.handle
