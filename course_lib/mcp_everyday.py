"""Small MCP servers for the everyday features of lessons 08 and 10, each showing one thing on the official SDK.

* :func:`seed_style_server`: seed 001 §19.3's project manager written as the seed writes it,
  with the SDK's **low-level** ``Server``: the seed's decorators (``@server.list_tools()``,
  ``@server.call_tool()``) are mcp 1.x; mcp 2.3 takes the same functions as constructor
  arguments, ``Server(name, on_list_tools=..., on_call_tool=...)``, each receiving
  ``(ctx, params)`` and returning the result model (:data:`SEED_TO_SDK` maps them all).
* :func:`paged_server`: ``tools/list`` in pages (``nextCursor``), the spec's pagination.
* :func:`annotated_server`: tool **annotations** (``readOnlyHint``...), an ``outputSchema``
  with ``structuredContent``, and a **resource link** in a tool result.
* :func:`cached_server`: list results with a freshness hint (``ttlMs``, ``cacheScope``:
  2026-07-28's SEP-2549) that the SDK's client cache honours.
* :func:`slow_server`: a slow tool that records its own cancellation (:func:`server_events`
  waits for it), and a tool that asks the client for its **roots** (handshake era).

Taught in lessons 08 and 10.
"""
# No `from __future__ import annotations`: the SDK reads the tools' annotations at run time.

import json
from typing import Any

import anyio
from mcp import types
from mcp.server import MCPServer
from mcp.server.lowlevel import Server
from mcp.server.mcpserver import Context
from pydantic import BaseModel, Field

#: Seed 001's mcp 1.x decorators -> mcp 2.3's low-level ``Server(...)`` arguments (same functions, ``(ctx, params)``).
SEED_TO_SDK: dict[str, str] = {
    "@server.list_tools()": "on_list_tools=", "@server.call_tool()": "on_call_tool=",
    "@server.list_resources()": "on_list_resources=", "@server.read_resource()": "on_read_resource=",
    "@server.list_prompts()": "on_list_prompts=", "@server.get_prompt()": "on_get_prompt=",
    "@server.completion()": "on_completion=", "@server.set_logging_level()": "on_set_logging_level=",
    "@server.subscribe_resource()": "on_subscribe_resource=",
}

#: Seed 001 §19.3's three tools, as it declares them (descriptions in English).
SEED_TOOLS = [
    types.Tool(name="create_task", description="Create a new task", input_schema={
        "type": "object", "properties": {"title": {"type": "string", "description": "Task title"},
                                         "priority": {"type": "string", "enum": ["low", "medium", "high"]},
                                         "assignee": {"type": "string", "description": "Who does it"}},
        "required": ["title"]}),
    types.Tool(name="list_tasks", description="List all tasks, optionally filtered by status", input_schema={
        "type": "object", "properties": {"status": {"type": "string", "enum": ["todo", "in_progress", "done"]}}}),
    types.Tool(name="update_task_status", description="Update a task's status", input_schema={
        "type": "object", "properties": {"task_id": {"type": "integer"},
                                         "status": {"type": "string", "enum": ["todo", "in_progress", "done"]}},
        "required": ["task_id", "status"]}),
]


def seed_style_server() -> Server:
    """Seed 001 §19.3's project manager on mcp 2.3's low-level ``Server`` (tasks in a list, as in the seed).

    The seed's ``@server.list_tools()`` function becomes ``on_list_tools``, its
    ``@server.call_tool()`` function ``on_call_tool``; both take ``(ctx, params)`` and return
    ``ListToolsResult`` / ``CallToolResult`` (mcp 1.x returned a bare list of tools or of content).
    Deliberately the seed's shortcuts: ids are ``len(tasks) + 1`` and nothing validates the
    arguments (lesson 08 §2's ``CourseMCPServer`` does both properly).
    """
    tasks: list[dict[str, Any]] = []

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=SEED_TOOLS)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        args = params.arguments or {}
        if params.name == "create_task":
            task = {"id": len(tasks) + 1, "title": args["title"], "priority": args.get("priority", "medium"),
                    "assignee": args.get("assignee", "unassigned"), "status": "todo"}
            tasks.append(task)
            text = f"Task created: {json.dumps(task)}"
        elif params.name == "list_tasks":
            text = json.dumps([t for t in tasks if "status" not in args or t["status"] == args["status"]])
        elif params.name == "update_task_status":
            found = next((t for t in tasks if t["id"] == args["task_id"]), None)
            if found is None:
                return types.CallToolResult(is_error=True, content=[types.TextContent(
                    type="text", text=f"Task {args['task_id']} not found")])
            found["status"] = args["status"]
            text = f"Task {found['id']} status set to {args['status']}"
        else:
            from mcp.shared.exceptions import MCPError
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)])

    server = Server("project-manager", on_list_tools=list_tools, on_call_tool=call_tool)
    server.tasks = tasks  # type: ignore[attr-defined]
    return server


def paged_server(count: int = 25, page_size: int = 10) -> Server:
    """A server with ``count`` tools, listed ``page_size`` at a time (``nextCursor``; the cursor is opaque).

    Raises:
        ValueError: ``page_size`` below 1.
    """
    if page_size < 1:
        raise ValueError("page_size must be at least 1")
    tools = [types.Tool(name=f"report_{i:02d}", description=f"Report number {i}",
                        input_schema={"type": "object", "properties": {}}) for i in range(1, count + 1)]

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        cursor = getattr(params, "cursor", None)
        try:
            start = int(cursor[len("page-"):]) if cursor else 0
        except ValueError:
            from mcp.shared.exceptions import MCPError
            raise MCPError(code=types.INVALID_PARAMS, message=f"Invalid cursor: {cursor!r}") from None
        end = start + page_size
        return types.ListToolsResult(tools=tools[start:end], next_cursor=f"page-{end}" if end < count else None)

    return Server("reports", on_list_tools=list_tools)


async def list_all_tools(client: Any) -> tuple[list[Any], int]:
    """Follow ``nextCursor`` until the last page; ``(tools, pages)``."""
    tools, cursor, pages = [], None, 0
    while True:
        page = await client.list_tools(cursor=cursor)
        pages += 1
        tools += page.tools
        cursor = page.next_cursor
        if not cursor:
            return tools, pages


class TaskSummary(BaseModel):
    """How many tasks are open and done, and the oldest open one."""

    open: int = Field(description="Tasks not done")
    done: int
    oldest_open: str | None = Field(default=None, description="Title of the oldest open task")


def annotated_server() -> MCPServer:
    """Annotations, an output schema with ``structuredContent``, and a resource link in a result."""
    server = MCPServer("annotated", log_level="WARNING")
    tasks = {1: ("Write the report", "todo"), 2: ("Fix the build", "done"), 3: ("Plan the offsite", "todo")}

    @server.tool(annotations=types.ToolAnnotations(title="Count tasks", readOnlyHint=True, openWorldHint=False))
    def count_tasks() -> TaskSummary:
        """Count open and done tasks."""
        open_ = [title for title, status in tasks.values() if status != "done"]
        return TaskSummary(open=len(open_), done=len(tasks) - len(open_), oldest_open=open_[0] if open_ else None)

    @server.tool(annotations=types.ToolAnnotations(destructiveHint=True, idempotentHint=True, openWorldHint=False))
    def delete_task(task_id: int) -> str:
        """Delete a task for good (deleting it twice is the same as once)."""
        tasks.pop(task_id, None)
        return f"task {task_id} deleted"

    @server.tool(structured_output=False, annotations=types.ToolAnnotations(readOnlyHint=True))
    def find_task(words: str) -> list[types.ContentBlock]:
        """Find tasks whose title contains the words; returns links to them, not their content."""
        hits = [i for i, (title, _) in tasks.items() if words.lower() in title.lower()]
        return [types.TextContent(type="text", text=f"{len(hits)} task(s) match {words!r}"),
                *(types.ResourceLink(type="resource_link", uri=f"tasks://{i}", name=f"task {i}",
                                     mime_type="application/json") for i in hits)]

    @server.resource("tasks://{task_id}", mime_type="application/json")
    def task(task_id: str) -> str:
        """One task as JSON."""
        title, status = tasks[int(task_id)]
        return json.dumps({"id": int(task_id), "title": title, "status": status})

    return server


def cached_server(ttl_ms: int = 60_000) -> MCPServer:
    """A server whose ``tools/list`` results say they stay fresh ``ttl_ms`` milliseconds, for everyone (``public``)."""
    from mcp.server.caching import CacheHint

    server = MCPServer("cached", log_level="WARNING", cache_hints={"tools/list": CacheHint(ttl_ms=ttl_ms,
                                                                                            scope="public")})

    @server.tool()
    def ping_me() -> str:
        """Answer pong."""
        return "pong"

    return server


def slow_server() -> MCPServer:
    """``slow_report`` (sleeps, and notes when it is cancelled) and ``where_am_i`` (asks the client's roots).

    ``server.events`` lists what the server saw (``"started"``, ``"cancelled"``, ``"finished"``).
    """
    server = MCPServer("slow", log_level="WARNING")
    events: list[str] = []
    server.events = events  # type: ignore[attr-defined]

    @server.tool()
    async def slow_report(seconds: float = 5.0) -> str:
        """Build a report (takes ``seconds``)."""
        events.append("started")
        try:
            await anyio.sleep(seconds)
        except anyio.get_cancelled_exc_class():
            events.append("cancelled")  # the client gave up: stop working, nobody reads the result
            raise
        events.append("finished")
        return "report ready"

    @server.tool()
    async def where_am_i(ctx: Context) -> list[str]:
        """The folders the client lets this server work in (MCP roots, ``roots/list``)."""
        roots = await ctx.session.list_roots()
        return [f"{r.name}: {r.uri}" for r in roots.roots]

    return server


def server_events(server: Any, *, until: str, seconds: float = 5.0) -> list[str]:
    """What a :func:`slow_server` saw, once ``until`` (``"cancelled"``, ``"finished"``) is among them.

    A cancellation reaches the server a moment after the client gave up, so a lesson that prints
    ``server.events`` right after a timeout waits here first (polling every 20 ms, at most
    ``seconds``); returns ``server.events`` as it is then (without ``until`` if it never came).
    """
    import time

    deadline = time.monotonic() + seconds
    while until not in server.events and time.monotonic() < deadline:
        time.sleep(0.02)
    return list(server.events)


def roots_callback(*folders: tuple[str, str]) -> Any:
    """A client's ``list_roots_callback`` answering with ``(name, file:// URI)`` pairs."""
    async def answer(ctx: Any) -> types.ListRootsResult:
        return types.ListRootsResult(roots=[types.Root(uri=uri, name=name) for name, uri in folders])
    return answer
