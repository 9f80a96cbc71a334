"""The course's MCP servers through the SDK's in-memory client, in both protocol eras (lesson 08).

C-16 (unknown tool vs failing tool), C-17 (misspelled arguments), C-18 (batches on an MCP
server), the project-manager server on SQLite, and the tracer built from real messages.
"""
from __future__ import annotations

import json
import logging

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from course_lib.mcp_servers import CourseMCPServer, argument_problems, project_manager_server, wiki_server
from course_lib.mcp_trace import raw_session, traced_client
from course_lib.tracing import Trace

pytestmark = pytest.mark.anyio
ERAS = ["legacy", "auto"]  # 2025-11-25 handshake, 2026-07-28 stateless


@pytest.fixture
def anyio_backend():
    return "asyncio"


def _init(version="2025-11-25"):
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}


@pytest.mark.parametrize("mode", ERAS)
async def test_project_manager_round_trip(mode):
    server = project_manager_server()
    async with Client(server, mode=mode) as c:
        assert c.protocol_version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
        a = (await c.call_tool("create_task", {"title": "A", "priority": "high", "assignee": "Ada"})).structured_content
        b = (await c.call_tool("create_task", {"title": "B"})).structured_content
        assert (a["id"], a["priority"], a["status"], b["id"], b["priority"], b["assignee"]) == \
            (1, "high", "todo", 2, "medium", "unassigned")
        done = await c.call_tool("update_task_status", {"task_id": 2, "status": "done"})
        assert done.structured_content["status"] == "done"
        todo = await c.call_tool("list_tasks", {"status": "todo"})
        assert [t["title"] for t in todo.structured_content["result"]] == ["A"]
        missing = await c.call_tool("update_task_status", {"task_id": 42, "status": "done"})
        assert missing.is_error and "no task with id 42" in missing.content[0].text
        bad = await c.call_tool("create_task", {"title": "C", "priority": "urgent"})
        assert bad.is_error and "priority" in bad.content[0].text and "low" in bad.content[0].text
        empty = await c.call_tool("create_task", {"title": ""})
        assert empty.is_error
        listed = json.loads((await c.read_resource("tasks://all")).contents[0].text)
        assert [(t["id"], t["status"]) for t in listed] == [(1, "todo"), (2, "done")]
        assert json.loads((await c.read_resource("tasks://1")).contents[0].text)["title"] == "A"
        with pytest.raises(MCPError):
            await c.read_resource("tasks://99")
        prompt = await c.get_prompt("code_review", {"code": "x = 1", "language": "python"})
        assert "```python\nx = 1\n```" in prompt.messages[0].content.text


async def test_tasks_persist_in_sqlite_and_ids_come_from_the_database(tmp_path):
    db = str(tmp_path / "tasks.db")
    async with Client(project_manager_server(db)) as c:
        await c.call_tool("create_task", {"title": "first"})
    server = project_manager_server(db)  # a new server process would do the same
    assert [t.title for t in server.store.list()] == ["first"]
    server.store._db.execute("DELETE FROM tasks")
    server.store._db.commit()
    async with Client(server) as c:
        again = await c.call_tool("create_task", {"title": "second"})
    assert again.structured_content["id"] == 2  # AUTOINCREMENT: never reuses id 1


@pytest.mark.parametrize("mode", ERAS)
async def test_c16_unknown_tool_is_invalid_params_naming_it(mode):
    async with Client(project_manager_server(), mode=mode) as c:
        with pytest.raises(MCPError) as e:
            await c.call_tool("no_such_tool", {})
    assert e.value.error.code == -32602 and "no_such_tool" in e.value.error.message


@pytest.mark.parametrize("mode", ERAS)
async def test_c16_tool_that_raises_is_an_error_result_without_traceback(mode, caplog):
    server = CourseMCPServer("t")

    @server.tool()
    def fail(msg: str) -> str:
        raise ValueError(msg)

    with caplog.at_level(logging.INFO):
        async with Client(server, mode=mode) as c:
            r = await c.call_tool("fail", {"msg": "boom"})
    assert r.is_error and r.content[0].text == "Error executing tool fail"
    assert "Traceback" not in r.content[0].text
    assert not any(rec.exc_info for rec in caplog.records), "a course server logs one line, not a traceback"


async def test_c16_unknown_method_is_method_not_found_on_the_wire():
    log = await raw_session(project_manager_server(), [
        _init(), {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tasks/explode"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "no_such_tool", "arguments": {}}}])
    replies = {m["id"]: m for d, m in log if d == "<--" and isinstance(m, dict)}
    assert replies[2]["error"]["code"] == -32601
    assert replies[3]["error"]["code"] == -32602 and replies[3]["error"]["data"] == {"name": "no_such_tool"}


@pytest.mark.parametrize("mode", ERAS)
async def test_c17_misspelled_argument_is_rejected_before_the_body_runs(mode, caplog):
    server = CourseMCPServer("docs")
    ran = []

    @server.tool()
    def read_doc(topic: str = "") -> str:
        ran.append(topic)
        return topic

    with caplog.at_level(logging.DEBUG):
        async with Client(server, mode=mode) as c:
            schema = (await c.list_tools()).tools[0].input_schema
            r = await c.call_tool("read_doc", {"path": "guide.md"})
    assert schema["additionalProperties"] is False
    assert r.is_error and "'path'" in r.content[0].text
    assert ran == []
    assert "guide.md" not in caplog.text, "argument values must not reach the server log"


def test_argument_problems_name_fields_not_values():
    schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}, "s": {"enum": ["a", "b"]}},
              "required": ["n"], "additionalProperties": False}
    assert argument_problems(schema, {"n": 1}) == []
    assert argument_problems(schema, {"x": "secret", "n": 1}) == ["unexpected argument 'x' (allowed: n, s)"]
    assert argument_problems(schema, {}) == ["missing required argument 'n'"]
    assert "secret" not in " ".join(argument_problems(schema, {"n": 1, "s": "secret"}))
    assert argument_problems(schema, ["n"]) == ["arguments must be a JSON object"]


async def test_c18_mcp_framing_refuses_batches_and_never_goes_silent():
    log = await raw_session(project_manager_server(), [
        _init(), "[]", '[{"jsonrpc":"2.0","id":7,"method":"tools/list"}]',
        '[{"jsonrpc":"2.0","method":"notify_progress","params":{}}]', b"not json", b"\xff\xfe",
        {"jsonrpc": "2.0", "id": 8, "method": "ping"}])
    replies = [m for d, m in log if d == "<--"]
    assert [r["error"]["code"] for r in replies[1:6]] == [-32600, -32600, -32600, -32700, -32700]
    assert replies[6] == {"jsonrpc": "2.0", "id": 8, "result": {}}  # the session is still usable


async def test_c15_version_negotiation_by_hand():
    newest = (await raw_session(project_manager_server(), [_init("2099-01-01")]))[1][1]
    older = (await raw_session(project_manager_server(), [_init("2025-06-18")]))[1][1]
    assert newest["result"]["protocolVersion"] == "2025-11-25"  # the newest handshake revision, never 2099
    assert older["result"]["protocolVersion"] == "2025-06-18"


@pytest.mark.parametrize("mode, first", [("legacy", "initialize"), ("auto", "server/discover")])
async def test_tracer_records_the_real_messages(mode, first):
    trace = Trace()
    async with traced_client(wiki_server(), trace, mode=mode) as c:
        await c.call_tool("search_wiki", {"query": "deployment"})
    methods = [e.payload.get("method") for e in trace.events if e.src == "Client"]
    assert methods[0] == first
    assert ("notifications/initialized" in methods) == (mode == "legacy")
    call = next(e.payload for e in trace.events if e.payload.get("method") == "tools/call")
    reply = next(e.payload for e in trace.events if e.src == "Server" and e.payload.get("id") == call["id"])
    assert call["params"]["arguments"] == {"query": "deployment"}
    assert reply["result"]["structuredContent"]["result"][0]["id"] == "eng-1"
    assert all(e.layer == "mcp" for e in trace.events)


@pytest.mark.parametrize("mode", ERAS)
async def test_wiki_server(mode):
    async with Client(wiki_server(), mode=mode) as c:
        r = await c.call_tool("search_wiki", {"query": "onboarding", "space": "hr"})
        assert [h["id"] for h in r.structured_content["result"]] == ["hr-1", "hr-3"]
        assert (await c.call_tool("search_wiki", {"query": "x", "limit": 50})).is_error
        assert (await c.call_tool("search_wiki", {"query": "x", "space": "sales"})).is_error
        page = (await c.read_resource("wiki://pages/hr-2")).contents[0].text
        assert page.startswith("# Vacation and holiday policy") and "25 vacation days" in page


async def test_c14_a_message_over_the_named_cap_fails_alone(monkeypatch):
    import course_lib.mcp_transports as transports

    monkeypatch.setattr(transports, "MAX_LINE_BYTES", 10_000)
    log = await raw_session(project_manager_server(), [
        _init(), {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call",
         "params": {"name": "create_task", "arguments": {"title": "x" * 20_000}}},
        {"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "create_task", "arguments": {"title": "ok"}}}])
    replies = {m["id"]: m for d, m in log if d == "<--" and isinstance(m, dict) and "id" in m}
    assert replies[5]["error"]["code"] == -32600 and "MAX_LINE_BYTES" in replies[5]["error"]["message"]
    assert replies[6]["result"]["structuredContent"]["title"] == "ok"  # the session stays usable
