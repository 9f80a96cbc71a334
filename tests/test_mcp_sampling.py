"""Sampling, elicitation, progress and logging in both protocol eras (lesson 10)."""
from __future__ import annotations

import warnings

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

from course_lib.mcp_sampling import ElicitationForm, ElicitationRecorder, Notifications, llm_sampling_callback
from course_lib.mcp_servers import project_manager_server
from course_lib.mcp_trace import traced_client
from course_lib.mock_llm import MockLLM
from course_lib.tracing import Trace

pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")]


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
def server():
    s = project_manager_server(interactive=True)
    s.store.create("Write lesson 10", "high", "Ada")
    return s


@pytest.mark.parametrize("mode, server_request", [("legacy", "sampling/createMessage"), ("auto", None)])
async def test_portable_sampling_in_both_eras(server, mode, server_request):
    mock = MockLLM().script("One task: Ada writes lesson 10.")
    asked = []
    trace = Trace()
    async with traced_client(server, trace, mode=mode, sampling_callback=llm_sampling_callback(mock.client(),
                                                                                               log=asked)) as c:
        r = await c.call_tool("summarize_tasks", {})
    assert r.content[0].text == "One task: Ada writes lesson 10. (written by mock-llm)"
    messages, answer = asked[0]
    assert messages[0] == {"role": "system", "content": "You are a concise project assistant."}
    assert "#1 Write lesson 10 (high, todo, Ada)" in messages[1]["content"]
    from_server = [e.payload.get("method") for e in trace.events if e.src == "Server" and "method" in e.payload]
    results = [e.payload["result"].get("resultType") for e in trace.events if e.src == "Server"
               and "result" in e.payload]
    if server_request:  # 2025-11-25: a real request from the server, inside the tools/call
        assert from_server == [server_request]
    else:  # 2026-07-28: input_required, then the client retries tools/call with inputResponses
        assert from_server == [] and "input_required" in results
        retry = [e.payload["params"] for e in trace.events if e.payload.get("method") == "tools/call"][1]
        assert "inputResponses" in retry and "requestState" in retry


async def test_direct_sampling_needs_a_back_channel(server):
    mock = MockLLM().script("A summary.")
    async with Client(server, mode="legacy", sampling_callback=llm_sampling_callback(mock.client())) as c:
        assert (await c.call_tool("summarize_tasks_direct", {})).content[0].text.startswith("A summary.")
    async with Client(server, sampling_callback=llm_sampling_callback(mock.client())) as c:
        with pytest.raises(MCPError) as e:
            await c.call_tool("summarize_tasks_direct", {})
    assert e.value.error.code == -32600 and "back-channel" in e.value.error.message


def test_sampling_is_deprecated_with_a_user_warning():
    assert issubclass(MCPDeprecationWarning, UserWarning)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_elicitation_decline_then_form(server, mode):
    recorder = ElicitationRecorder()
    async with Client(server, mode=mode, elicitation_callback=recorder) as c:
        declined = await c.call_tool("schedule_review", {"task_id": 1})
    assert declined.content[0].text == "review of task 1 not scheduled (the user chose decline)"
    schema = recorder.requests[0].requested_schema
    assert schema["required"] == ["date", "reviewer"] and schema["properties"]["minutes"]["default"] == 30
    form = ElicitationForm(schema, answers={"date": "2026-12-01", "reviewer": "Grace"})
    assert form.missing() == [] and "* reviewer     [string] = \"Grace\"" in form.text()
    async with Client(server, mode=mode, elicitation_callback=form.callback) as c:
        r = await c.call_tool("schedule_review", {"task_id": 1})
    assert r.content[0].text == "review of task 1 on 2026-12-01 with Grace (30 min)"
    empty = ElicitationForm(schema)
    assert empty.missing() == ["date", "reviewer"]
    async with Client(server, mode=mode, elicitation_callback=empty.callback) as c:
        r = await c.call_tool("schedule_review", {"task_id": 1})
    assert r.content[0].text.endswith("(the user chose cancel)")


@pytest.mark.parametrize("mode, level, expect_logs", [("legacy", None, True), ("auto", None, False),
                                                     ("auto", "info", True)])
async def test_progress_and_logging(server, mode, level, expect_logs):
    notes = Notifications()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        async with Client(server, mode=mode, logging_callback=notes.log, log_level=level) as c:
            r = await c.call_tool("import_tasks", {"titles": ["a", "b"]}, progress_callback=notes.progress)
    assert [t["title"] for t in r.structured_content["result"]] == ["a", "b"]
    progress = [line for line in notes.lines if line.startswith("progress")]
    logs = [line for line in notes.lines if line.startswith("log")]
    assert progress == ["progress 1/2: imported 'a'", "progress 2/2: imported 'b'"]  # each count said once
    assert (logs == ["log [info] created task #2: a", "log [info] created task #3: b"]) == expect_logs
    assert bool(logs) == expect_logs


def test_the_form_text_is_unchanged_in_english_and_lines_up_in_chinese(monkeypatch):
    schema = {"type": "object", "properties": {"priority": {"enum": ["low", "high"]}, "标题": {"type": "string"}},
              "required": ["标题"]}
    monkeypatch.setenv("COURSE_LANG", "en")
    form = ElicitationForm(schema, {"标题": "x"}, "Which?")
    assert form.text() == ('Which?\n  priority     [one of low/high] = null\n* 标题         [string] = "x"\n'
                           "(* required; decline: no)")
    monkeypatch.setenv("COURSE_LANG", "zh")
    lines = form.text().splitlines()
    assert lines[1:] == ["  priority     [取值之一：low/high] = null", '* 标题         [string] = "x"', "（* 必填；拒绝：否）"]
    assert repr(Notifications()) == "（没有通知）"
