"""The floor for the MCP benchmarks: bare ``mcp`` SDK servers doing the same work as the course's, nothing more.

``python benchmarks/bare_mcp_server.py demo`` serves the demo server's ``echo`` and ``add`` over
stdio with the SDK's own ``MCPServer.run("stdio")``: no course code is imported, so its start-up
time is the SDK's own. :func:`bare_server` builds the in-process twins of each course server
(same tool bodies, plain ``MCPServer``, no strict checks) for the in-memory and HTTP rows of
``benchmarks/layers.py``.
"""
# No `from __future__ import annotations`: the SDK reads tool annotations at run time (local types too).

import sys
from typing import Any


def bare_demo() -> Any:
    """The SDK-only twin of ``demo_server()``'s ``echo`` and ``add``."""
    from mcp.server import MCPServer

    server = MCPServer("bare-demo", log_level="WARNING")

    @server.tool()
    def echo(text: str) -> str:
        """Return the text unchanged."""
        return text

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    return server


def bare_server(name: str) -> Any:
    """A plain ``MCPServer`` with the same tool bodies as the course server ``name``.

    ``name``: ``demo``, ``wiki``, ``project-manager`` or ``course mcp serve`` (the registry's tools).
    """
    from mcp.server import MCPServer

    if name == "demo":
        return bare_demo()
    server = MCPServer(f"bare-{name}", log_level="WARNING")
    if name == "wiki":
        from course_lib.examples import search_wiki

        @server.tool(name="search_wiki")
        def search(query: str, space: str | None = None, limit: int = 5) -> list[dict]:
            """Search the company wiki."""
            return search_wiki(query, space, limit)
    elif name == "project-manager":
        from course_lib.mcp_servers import Task, TaskStore

        store = TaskStore()

        @server.tool()
        def create_task(title: str, priority: str = "medium", assignee: str = "unassigned") -> Task:
            """Create a task."""
            return store.create(title, priority, assignee)

        @server.tool()
        def list_tasks(status: str | None = None) -> list[Task]:
            """List tasks."""
            return store.list(status)
    elif name == "course mcp serve":
        from course_lib.examples import get_weather as weather

        @server.tool()
        def get_weather(city: str, unit: str = "celsius") -> dict:
            """The current weather of a city."""
            return weather(city, unit)
    else:
        raise ValueError(f"no bare twin for {name!r}")
    return server


if __name__ == "__main__":
    bare_demo().run(sys.argv[2] if len(sys.argv) > 2 else "stdio")
