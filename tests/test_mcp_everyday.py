"""The small servers of lessons 08 and 10: seed-style low-level server, pagination, annotations, caching, cancellation, roots."""
from __future__ import annotations

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from course_lib import mcp_everyday as me
from course_lib.mcp_trace import traced_client
from course_lib.tracing import Trace

pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_the_seeds_decorator_code_runs_as_on_list_tools_and_on_call_tool(mode):
    async def main():
        server = me.seed_style_server()
        async with Client(server, mode=mode) as c:
            names = [t.name for t in (await c.list_tools()).tools]
            created = await c.call_tool("create_task", {"title": "Port the seed"})
            missing = await c.call_tool("update_task_status", {"task_id": 9, "status": "done"})
            with pytest.raises(MCPError) as e:
                await c.call_tool("nope", {})
        return names, created, missing, e.value.error.code, server.tasks
    names, created, missing, code, tasks = anyio.run(main)
    assert names == ["create_task", "list_tasks", "update_task_status"]
    assert created.content[0].text.startswith('Task created: {"id": 1') and tasks[0]["priority"] == "medium"
    assert missing.is_error and code == -32602
    assert me.SEED_TO_SDK["@server.call_tool()"] == "on_call_tool="


def test_pagination_follows_next_cursor_and_refuses_a_forged_one():
    async def main():
        async with Client(me.paged_server(count=25, page_size=10)) as c:
            first = await c.list_tools()
            tools, pages = await me.list_all_tools(c)
            with pytest.raises(MCPError):
                await c.list_tools(cursor="page-x")
        return first, tools, pages
    first, tools, pages = anyio.run(main)
    assert len(first.tools) == 10 and first.next_cursor == "page-10"
    assert pages == 3 and [t.name for t in tools] == [f"report_{i:02d}" for i in range(1, 26)]
    with pytest.raises(ValueError):
        me.paged_server(page_size=0)


def test_annotations_output_schema_and_resource_links():
    async def main():
        async with Client(me.annotated_server()) as c:
            tools = {t.name: t for t in (await c.list_tools()).tools}
            count = await c.call_tool("count_tasks", {})
            found = await c.call_tool("find_task", {"words": "plan"})
            linked = await c.read_resource(found.content[1].uri)
        return tools, count, found, linked
    tools, count, found, linked = anyio.run(main)
    assert tools["count_tasks"].annotations.read_only_hint is True and tools["delete_task"].annotations.destructive_hint
    assert set(tools["count_tasks"].output_schema["properties"]) == {"open", "done", "oldest_open"}
    assert count.structured_content == {"open": 2, "done": 1, "oldest_open": "Write the report"}
    assert [b.type for b in found.content] == ["text", "resource_link"] and str(found.content[1].uri) == "tasks://3"
    assert '"title": "Plan the offsite"' in linked.contents[0].text


def test_a_ttl_hint_lets_the_client_cache_and_bypass_asks_again():
    trace = Trace("cache")

    async def main():
        async with traced_client(me.cached_server(ttl_ms=60_000), trace) as c:
            for mode in ("use", "use", "bypass"):
                await c.list_tools(cache_mode=mode)
    anyio.run(main)
    assert [e.label for e in trace.events if e.kind == "request"] == ["server/discover (id 1)", "tools/list (id 2)",
                                                                      "tools/list (id 3)"]
    assert trace.events[3].payload["result"]["ttlMs"] == 60000


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_timeout_sends_notifications_cancelled_and_the_server_stops(mode):
    server, trace = me.slow_server(), Trace("cancel")

    async def main():
        async with traced_client(server, trace, mode=mode) as c:
            with pytest.raises(MCPError, match="timed out"):
                await c.call_tool("slow_report", {"seconds": 5}, read_timeout_seconds=0.3)
            await anyio.sleep(0.1)
    anyio.run(main)
    cancelled = [e.payload for e in trace.events if e.label.startswith("notifications/cancelled")]
    assert cancelled and cancelled[0]["params"]["reason"] == "timed out after 0.3s"
    assert server.events == ["started", "cancelled"]


def test_roots_are_asked_in_the_handshake_era_only():
    server = me.slow_server()
    answer = me.roots_callback(("project", "file:///home/ada/project"))

    async def main():
        async with Client(server, mode="legacy", list_roots_callback=answer) as c:
            legacy = (await c.call_tool("where_am_i", {})).structured_content
        async with Client(server, list_roots_callback=answer) as c:
            with pytest.raises(MCPError, match="back-channel"):
                await c.call_tool("where_am_i", {})
        return legacy
    assert anyio.run(main) == {"result": ["project: file:///home/ada/project"]}


def test_the_bridge_believes_read_only_hints_only_when_told_to_trust_the_server():
    from course_lib.mcp_bridge import MCPToolset
    from course_lib.tool_registry import ToolRegistry

    with MCPToolset(me.annotated_server(), "annotated-bridge") as toolset:
        untrusted, trusted = ToolRegistry("untrusted", env={}), ToolRegistry("trusted", env={})
        toolset.register_into(untrusted)
        toolset.register_into(trusted, trust_annotations=True)
    assert untrusted.get("count_tasks").permission == "network"  # the hint is kept in meta, not believed
    assert untrusted.get("count_tasks").meta["annotations"]["readOnlyHint"] is True
    assert trusted.get("count_tasks").permission == "read" and trusted.get("delete_task").permission == "network"


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_registry_timeout_on_a_bridged_tool_cancels_the_call_on_the_server(mode):
    import asyncio
    import time

    from course_lib.mcp_bridge import MCPToolset
    from course_lib.mcp_trace import traced_transport
    from course_lib.tool_registry import ToolRegistry

    server, trace = me.slow_server(), Trace("registry timeout")
    with MCPToolset(traced_transport(server, trace), f"slow-{mode}", mode=mode) as toolset:
        registry = ToolRegistry("timeouts", env={})
        toolset.register_into(registry, timeout=0.3)  # lesson 04's timeout, set on the registry
        sync = registry.call("slow_report", {"seconds": 5})
        first = me.server_events(server, until="cancelled")  # the cancellation lands a moment after the timeout
        later = asyncio.run(registry.acall("slow_report", {"seconds": 5}))  # the async path too
        deadline = time.monotonic() + 3
        while server.events.count("cancelled") < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    assert sync.error == "timeout" and later.error == "timeout"
    assert first == ["started", "cancelled"]
    assert server.events == ["started", "cancelled", "started", "cancelled"]  # neither report was finished
    calls = [e.payload["id"] for e in trace.events if e.label.startswith("tools/call")]
    cancelled = [e.payload["params"] for e in trace.events if e.label.startswith("notifications/cancelled")]
    assert [c["requestId"] for c in cancelled] == calls and cancelled[0]["reason"] == "timed out after 0.3s"
