"""The MCP ↔ registry bridge in both directions, in both protocol eras (lesson 10)."""
from __future__ import annotations

import json

import psutil
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from course_lib.agent import Agent
from course_lib.mcp_bridge import (SEARCH_WIKI_SCHEMA, MCPToolset, RegistryMCPServer, close_all_toolsets,
                                   course_registry)
from course_lib.mcp_servers import project_manager_server, wiki_server
from course_lib.mcp_transports import course_server_params, start_http
from course_lib.mock_llm import MockLLM
from course_lib.servers import stop_server
from course_lib.tool_registry import ToolRegistry

ERAS = ["legacy", "auto"]


def _call(name, args, id="c1"):
    return {"id": id, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}


@pytest.fixture(autouse=True)
def _close():
    yield
    close_all_toolsets()


@pytest.mark.parametrize("mode", ERAS)
def test_mcp_tools_join_the_registry_losslessly_and_dispatch(mode):
    server = wiki_server()
    registry = ToolRegistry("t", env={})
    with MCPToolset(server, "wiki", mode=mode) as wiki:
        assert wiki.protocol_version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
        assert wiki.register_into(registry) == ["search_wiki"]
        entry = registry.get("search_wiki")
        mcp_tool = wiki.tools[0]
        assert entry.toolset == "mcp:wiki"
        assert entry.parameters == mcp_tool.input_schema  # unchanged: enums, bounds, anyOf, additionalProperties
        assert entry.meta["outputSchema"] == mcp_tool.output_schema and entry.meta["mcp_name"] == "search_wiki"
        ok = json.loads(registry.dispatch(_call("search_wiki", {"query": "onboarding", "space": "hr"}))["content"])
        assert [h["id"] for h in ok["result"]] == ["hr-1", "hr-3"]
        bad = json.loads(registry.dispatch(_call("search_wiki", {"query": "x", "limit": 99}))["content"])
        assert bad["kind"] == "invalid_arguments"  # validated by the registry, before any MCP traffic
        mcp_def = registry.definitions("mcp")[0]
        assert mcp_def["inputSchema"] == mcp_tool.input_schema and mcp_def["outputSchema"] == mcp_tool.output_schema


def test_is_error_results_become_tool_errors_the_model_can_read():
    registry = ToolRegistry("t", env={})
    with MCPToolset(project_manager_server(), "pm") as pm:
        pm.register_into(registry, permission="write")
        assert registry.get("create_task").permission == "write"
        failed = json.loads(registry.dispatch(_call("update_task_status", {"task_id": 7, "status": "done"}))["content"])
    assert failed["kind"] == "handler_error" and "no task with id 7" in failed["error"] and failed["server"] == "pm"


def test_the_agent_uses_an_mcp_tool_like_a_built_in():
    registry = ToolRegistry("agent", env={})

    @registry.tool(toolset="weather")
    def get_weather(city: str) -> dict:
        """Get the current weather (temperature, humidity) for a city."""
        return {"temp": 28, "humidity": 65}

    with MCPToolset(project_manager_server(), "pm", prefix="pm_") as pm:
        assert pm.register_into(registry) == ["pm_create_task", "pm_list_tasks", "pm_update_task_status"]
        result = Agent(MockLLM().client(), registry).run("Create a task titled 'Write lesson 10' with high priority")
        assert [c["name"] for c in result.tool_calls] == ["pm_create_task"]
        assert json.loads(result.tool_calls[0]["arguments"]) == {"title": "Write lesson 10", "priority": "high"}
        assert result.stop_reason == "answer" and "Write lesson 10" in result.answer
        listed = pm.call("list_tasks", {}).structured_content["result"]
    assert [(t["id"], t["title"], t["priority"]) for t in listed] == [(1, "Write lesson 10", "high")]


def test_stdio_and_http_toolsets_and_cleanup():
    registry = ToolRegistry("t", env={})
    handle = start_http(project_manager_server(), "test-bridge-http")
    try:
        with MCPToolset(course_server_params("wiki"), "wiki-stdio") as wiki, \
                MCPToolset(handle.url + "/mcp", "pm-http", mode="legacy", prefix="http_") as pm:
            children = psutil.Process().children(recursive=True)
            assert any("course_lib.mcp_servers" in " ".join(c.cmdline()) for c in children)
            wiki.register_into(registry)
            pm.register_into(registry)
            got = json.loads(registry.dispatch(_call("http_create_task", {"title": "via HTTP"}))["content"])
            assert got["id"] == 1
            assert json.loads(registry.dispatch(_call("search_wiki", {"query": "vacation"}))["content"])["result"][0][
                "id"] == "hr-2"
        gone = [c for c in children if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]
        assert gone == [], "closing the toolset stops the stdio server"
    finally:
        stop_server("test-bridge-http")


def test_same_name_replaces_the_old_connection():
    first = MCPToolset(wiki_server(), "dup").start()
    second = MCPToolset(wiki_server(), "dup").start()
    assert not first.connected and second.connected
    assert close_all_toolsets() == ["dup"] and not second.connected
    with pytest.raises(ConnectionError):
        second.call("search_wiki", {"query": "x"})


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ERAS)
async def test_registry_served_as_mcp(mode):
    registry = course_registry()
    server = RegistryMCPServer(registry)
    async with Client(server, mode=mode) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        assert sorted(tools) == ["get_weather", "search_wiki"]
        assert tools["search_wiki"].input_schema == SEARCH_WIKI_SCHEMA["parameters"]
        r = await c.call_tool("get_weather", {"city": "上海"})
        assert r.structured_content == {"temp": 28, "humidity": 65}
        r = await c.call_tool("get_weather", {"city": "Atlantis"})
        assert r.is_error and "UnknownCity" in r.content[0].text
        r = await c.call_tool("search_wiki", {"query": "x", "space": "sales"})
        assert r.is_error and "space" in r.content[0].text
        registry.disable("wiki")  # decided at every request: the toolset disappears
        # (bypass the client's response cache, which 2026-07-28 list results enable)
        assert [t.name for t in (await c.list_tools(cache_mode="bypass")).tools] == ["get_weather"]
        with pytest.raises(MCPError) as e:
            await c.call_tool("search_wiki", {"query": "vacation"})
        assert e.value.error.code == -32602


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.mark.anyio
async def test_c12_sync_bridge_api_works_inside_a_running_event_loop():
    """A notebook cell runs inside the kernel's loop: the sync API must not call asyncio.run there."""
    registry = ToolRegistry("t", env={})
    toolset = MCPToolset(wiki_server(), "loop").start()  # called from a coroutine: a loop is running
    try:
        toolset.register_into(registry)
        reply = json.loads(registry.dispatch(_call("search_wiki", {"query": "vacation"}))["content"])
        assert reply["result"][0]["id"] == "hr-2"
    finally:
        toolset.close()


def test_course_mcp_serve_over_http_prints_a_url_that_already_accepts():
    import re
    import subprocess
    import sys

    import anyio

    from course_lib.mcp_transports import http_client

    proc = subprocess.Popen([sys.executable, "-m", "course_lib.cli", "mcp", "serve", "--transport", "http"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()  # printed once the socket is bound and listening
        url = re.search(r"http://127\.0\.0\.1:\d+/mcp", line).group(0)

        async def call() -> dict:
            async with http_client(url, mode="legacy") as c:
                return (await c.call_tool("get_weather", {"city": "Paris"})).structured_content

        assert anyio.run(call) == {"temp": 18, "humidity": 72}
    finally:
        proc.terminate()
        proc.wait(timeout=15)
        proc.stderr.close()
