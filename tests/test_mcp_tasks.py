"""The Tasks extension on the SDK's extension framework: a task handle, polling, cancel, and plain results without it."""
from __future__ import annotations

import asyncio

import anyio
import pytest
from mcp import Client, types
from mcp.shared.exceptions import MCPError

from course_lib.mcp_tasks import CancelTaskRequest, GetTaskRequest, TaskIdParams, TaskState, TasksClient, reports_server
from course_lib.mcp_trace import traced_client
from course_lib.tracing import Trace


def test_a_declaring_client_gets_a_task_handle_and_polls_it_to_the_result():
    server, ext = reports_server(0.3)
    client_ext, trace = TasksClient(), Trace("tasks")

    async def main():
        async with traced_client(server, trace, extensions=[client_ext]) as c:
            return await c.call_tool("build_report", {"quarter": "Q3"})
    result = anyio.run(main)
    assert result.content[0].text == "report for Q3: revenue up 12%"
    handle = next(e.payload["result"] for e in trace.events if e.label.startswith("result") and
                  (e.payload.get("result") or {}).get("resultType") == "task")
    assert handle["status"] == "working" and handle["pollIntervalMs"] == 100 and handle["ttlMs"] == 600000
    polls = [e for e in trace.events if e.label.startswith("tasks/get")]
    assert len(polls) >= 2 and sum(client_ext.polls.values()) == len(polls)
    discover = trace.events[1].payload["result"]["capabilities"]["extensions"]
    assert "io.modelcontextprotocol/tasks" in discover
    assert [t.status for t in ext.tasks.values()] == ["completed"]


def test_without_the_extension_the_same_call_answers_plainly():
    server, ext = reports_server(0.05)

    async def main():
        async with Client(server) as c:
            return await c.call_tool("build_report", {"quarter": "Q4"})
    assert anyio.run(main).content[0].text == "report for Q4: revenue up 12%"
    assert ext.tasks == {}  # no task was made: the client did not declare the extension


def test_cancel_and_unknown_task():
    server, ext = reports_server(5.0)

    async def main():
        async with Client(server, extensions=[TasksClient()]) as c:
            call = asyncio.ensure_future(c.call_tool("build_report", {"quarter": "Q1"}))
            while not ext.tasks:
                await asyncio.sleep(0.02)
            task_id = next(iter(ext.tasks))
            await c.session.send_request(CancelTaskRequest(params=TaskIdParams(taskId=task_id)), types.EmptyResult)
            with pytest.raises(MCPError, match="task cancelled"):
                await call
            with pytest.raises(MCPError) as e:
                await c.session.send_request(GetTaskRequest(params=TaskIdParams(taskId="nope")), TaskState)
            return task_id, e.value.error.code
    task_id, code = anyio.run(main)
    assert ext.tasks[task_id].status == "cancelled" and code == -32602
