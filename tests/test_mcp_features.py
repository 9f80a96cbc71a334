"""logging/setLevel, completion/complete, resource subscriptions and list_changed on the course servers, both eras."""
from __future__ import annotations

import warnings

import anyio
import pytest
from mcp import Client, types
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

from course_lib.mcp_features import add_completer, list_changed
from course_lib.mcp_servers import project_manager_server, wiki_server

pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")


def prompt_ref(name):
    return types.PromptReference(type="ref/prompt", name=name)


def template_ref(uri):
    return types.ResourceTemplateReference(type="ref/resource", uri=uri)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_completions_rank_prefix_matches_first_and_follow_the_data(mode):
    async def main():
        server = project_manager_server()
        async with Client(server, mode=mode) as c:
            langs = (await c.complete(prompt_ref("code_review"), {"name": "language", "value": "ja"})).completion
            assert langs.values == ["javascript", "java"]  # the completer's own order (its relevance)
            assert langs.total == 2 and langs.has_more is False
            script = (await c.complete(prompt_ref("code_review"), {"name": "language", "value": "script"})).completion
            assert script.values == ["javascript", "typescript"]  # contained, not prefixed
            await c.call_tool("create_task", {"title": "Write report"})
            await c.call_tool("create_task", {"title": "Fix bug"})
            ids = (await c.complete(template_ref("tasks://{task_id}"), {"name": "task_id", "value": ""})).completion
            assert ids.values == ["1", "2"]
            none = (await c.complete(prompt_ref("code_review"), {"name": "code", "value": "x"})).completion
            assert none.values == []  # an argument with no completer: nothing suggested, no error
            with pytest.raises(MCPError) as e:
                await c.complete(prompt_ref("no_such_prompt"), {"name": "language", "value": ""})
            assert e.value.error.code == -32602
            caps = c.server_capabilities
            assert caps.completions is not None
    anyio.run(main)


def test_add_completer_rejects_an_unknown_kind():
    with pytest.raises(ValueError, match="prompt"):
        add_completer(wiki_server(), "tool", "search_wiki", "query", ["x"])


def test_logging_set_level_filters_lower_levels_in_the_handshake_era():
    async def main():
        server = project_manager_server(interactive=True)
        got = []

        async def on_log(params):
            got.append(params.level)

        async with Client(server, mode="legacy", logging_callback=on_log) as c:
            assert c.server_capabilities.logging is not None
            await c.call_tool("import_tasks", {"titles": ["a"]})
            assert got == ["info"]
            await c.set_logging_level("warning")
            await c.call_tool("import_tasks", {"titles": ["b", "c"]})
            assert got == ["info"]  # info is below warning: dropped for this session
            await c.set_logging_level("debug")
            await c.call_tool("import_tasks", {"titles": ["d"]})
            assert got == ["info", "info"]
    anyio.run(main)


def test_resources_subscribe_gets_updated_notifications_for_that_uri_only():
    async def main():
        server = project_manager_server()
        updated = []

        async def on_message(message):
            if getattr(message, "method", None) == "notifications/resources/updated":
                updated.append(str(message.params.uri))

        async with Client(server, mode="legacy", message_handler=on_message) as c:
            assert c.server_capabilities.resources.subscribe is True
            await c.subscribe_resource("tasks://all")
            await c.call_tool("create_task", {"title": "Write report"})
            await anyio.sleep(0.05)
            assert updated == ["tasks://all"]  # not tasks://1: nobody subscribed to it
            await c.unsubscribe_resource("tasks://all")
            await c.call_tool("create_task", {"title": "Another"})
            await anyio.sleep(0.05)
            assert updated == ["tasks://all"]
            with pytest.raises(MCPError) as e:
                await c.subscribe_resource("tasks://nope/x")
            assert e.value.error.code == -32002
    anyio.run(main)


def test_subscriptions_listen_carries_the_same_update_in_2026():
    async def main():
        server = project_manager_server()
        async with Client(server, mode="auto") as c:
            assert c.protocol_version == "2026-07-28"
            async with c.listen(resource_subscriptions=["tasks://all"], tools_list_changed=True) as sub:
                await c.call_tool("create_task", {"title": "Write report"})
                with anyio.fail_after(5):
                    event = await sub.__anext__()
                assert getattr(event, "uri", None) == "tasks://all"
                await list_changed(server, "tools")
                with anyio.fail_after(5):
                    event = await sub.__anext__()
                assert type(event).__name__ == "ToolsListChanged"
    anyio.run(main)


def test_list_changed_reaches_handshake_sessions_and_rejects_unknown_kinds():
    async def main():
        server = wiki_server()
        seen = []

        async def on_message(message):
            if hasattr(message, "method"):
                seen.append(message.method)

        async with Client(server, mode="legacy", message_handler=on_message) as c:
            await c.list_tools()
            assert await list_changed(server, "tools") == 1
            await anyio.sleep(0.05)
            assert seen == ["notifications/tools/list_changed"]
        with pytest.raises(ValueError):
            await list_changed(server, "widgets")
    anyio.run(main)
