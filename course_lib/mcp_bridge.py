"""MCP ↔ tool registry, both directions (seed 000 §2.4 "MCP 桥接", §3.4 ``hermes mcp-serve``).

* **MCP → registry.** :class:`MCPToolset` connects to an MCP server (an ``MCPServer`` in
  this process, a stdio command, or a streamable-HTTP URL) and registers its tools into a
  :class:`~course_lib.tool_registry.ToolRegistry` as one toolset (``mcp:<name>``). Their
  ``inputSchema`` becomes the registry schema unchanged (lossless: ``$defs``/``$ref``,
  enums, bounds, ``additionalProperties`` all kept; ``outputSchema``, ``title`` and
  ``annotations`` go to ``ToolEntry.meta``), so the agent loop calls them like built-ins:
  the registry validates the arguments, the handler sends ``tools/call``, an ``isError``
  result becomes a tool error the model can read.

  The MCP client lives in a **background thread with its own event loop**: registry
  handlers are plain functions that may be called from the kernel's thread (``dispatch``),
  from worker threads (``adispatch``), or from the agent loop, and an ``mcp.Client`` must
  stay in the task that opened it (SDK-NOTES §2.2 item 7). Re-creating a toolset with the
  same name closes the old connection first (idempotent cells).

* **Registry → MCP.** :class:`RegistryMCPServer` is a :class:`~course_lib.mcp_servers.CourseMCPServer`
  whose tools are whatever the registry shows *now* (toolsets enabled, availability checks,
  dynamic descriptions), served over any transport; ``course mcp serve`` runs it for
  :func:`course_registry` over stdio or streamable HTTP, so any MCP host (the MCP Inspector,
  Claude Desktop, an IDE) can use the course's tools.

Taught in lesson 10.
"""
from __future__ import annotations

import asyncio
import atexit
import re
import threading
from typing import Any, Sequence

from .mcp_servers import CourseMCPServer
from .tool_registry import ToolError, ToolRegistry

#: Seconds to connect, and per tool call, before the bridge gives up.
CONNECT_TIMEOUT = 30.0
CALL_TIMEOUT = 30.0

_OPEN: dict[str, "MCPToolset"] = {}
_OPEN_LOCK = threading.Lock()


def _tool_name(prefix: str, name: str) -> str:
    # Registry (and OpenAI) names must match ^[a-zA-Z0-9_-]{1,64}$; MCP allows more (dots, slashes).
    return re.sub(r"[^a-zA-Z0-9_-]", "_", prefix + name)[:64]


class MCPToolset:
    """The tools of one MCP server, usable from sync code and registrable into a tool registry.

    Args:
        target: what to connect to: an ``MCPServer`` (in this process), a URL
            (``http://127.0.0.1:PORT/mcp``, streamable HTTP) or ``mcp.StdioServerParameters``
            (a child process, through :class:`~course_lib.mcp_transports.StdioMCP`).
        name: a short name; the toolset is ``mcp:<name>``. Creating another ``MCPToolset`` with
            the same name closes this one.
        mode: ``"auto"`` (2026-07-28) or ``"legacy"`` (2025-11-25 handshake).
        prefix: put in front of every tool name in the registry (``"wiki_"``), to avoid clashes.
        call_timeout: seconds per call.
        client_kwargs: more ``mcp.Client`` arguments (``sampling_callback``...).

    Use: ``with MCPToolset(server, "wiki") as wiki: wiki.register_into(registry)``, or
    ``wiki = MCPToolset(...).start()`` in one cell and ``wiki.close()`` in a later one.

    Raises (from :meth:`start`):
        ConnectionError: the server could not be reached (the cause is chained).
    """

    def __init__(self, target: Any, name: str, *, mode: str = "auto", prefix: str = "",
                 call_timeout: float = CALL_TIMEOUT, **client_kwargs: Any) -> None:
        self.target = target
        self.name = name
        self.mode = mode
        self.prefix = prefix
        self.call_timeout = call_timeout
        self.client_kwargs = client_kwargs
        self.tools: list[Any] = []
        self.protocol_version: str | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._client: Any = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    # ---------------------------------------------------------------- lifecycle
    def start(self) -> "MCPToolset":
        """Connect (in a background thread) and list the server's tools; returns self."""
        with _OPEN_LOCK:
            old = _OPEN.pop(self.name, None)
        if old is not None and old is not self:
            old.close()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True,
                                        name=f"mcp-toolset-{self.name}")
        self._thread.start()
        if not self._ready.wait(CONNECT_TIMEOUT) or self._error is not None:
            self.close()
            raise ConnectionError(f"could not connect to MCP server {self.name!r}: {self._error!r}") from self._error
        with _OPEN_LOCK:
            _OPEN[self.name] = self
        return self

    def _connect(self) -> Any:
        from mcp import Client, StdioServerParameters
        from mcp.server import MCPServer

        from .mcp_transports import StdioMCP, http_client

        kwargs = {"read_timeout_seconds": self.call_timeout, **self.client_kwargs}
        if isinstance(self.target, str):
            return http_client(self.target, mode=self.mode, **kwargs)
        if isinstance(self.target, StdioServerParameters):
            return StdioMCP(self.target, mode=self.mode, call_timeout=self.call_timeout, **self.client_kwargs)
        if isinstance(self.target, MCPServer):
            return Client(self.target, mode=self.mode, **kwargs)
        return Client(self.target, mode=self.mode, **kwargs)  # any transport context manager

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        try:
            async with self._connect() as client:
                self._client = client
                self.protocol_version = client.protocol_version
                self.tools = list((await client.list_tools()).tools)
                self._ready.set()
                await self._stop.wait()
        except BaseException as e:  # reported to start(); the thread ends
            self._error = e
        finally:
            self._client = None
            self._ready.set()

    def close(self) -> None:
        """Disconnect (stops a stdio child process); safe to call twice."""
        if self._loop is not None and self._stop is not None and not self._loop.is_closed():
            try:
                self._loop.call_soon_threadsafe(self._stop.set)
            except RuntimeError:  # the loop already ended
                pass
        if self._thread is not None:
            self._thread.join(CONNECT_TIMEOUT)
        with _OPEN_LOCK:
            if _OPEN.get(self.name) is self:
                del _OPEN[self.name]

    def __enter__(self) -> "MCPToolset":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def connected(self) -> bool:
        return self._client is not None and self._thread is not None and self._thread.is_alive()

    # ---------------------------------------------------------------- calls
    def call(self, tool: str, arguments: dict | None = None, *, timeout: float | None = None) -> Any:
        """Send ``tools/call`` for ``tool`` (its MCP name); returns the SDK's ``CallToolResult``.

        Args:
            tool: the tool's MCP name.
            arguments: its arguments (a JSON object).
            timeout: seconds to wait for this call (default ``call_timeout``). It is the SDK's
                ``read_timeout_seconds``: when it passes, the SDK sends ``notifications/cancelled``
                for the request, so the server stops working for nobody (MCP spec, Basic
                utilities: Cancellation; lesson 10 §5.2).

        Raises:
            ConnectionError: the toolset is not connected.
            mcp.shared.exceptions.MCPError: a protocol error (e.g. unknown tool).
            TimeoutError: no answer within ``timeout`` seconds (the server was told to cancel).
        """
        from mcp.shared.exceptions import MCPError
        from mcp.types import REQUEST_TIMEOUT

        if not self.connected or self._loop is None:
            raise ConnectionError(f"MCP toolset {self.name!r} is not connected (call start())")
        seconds = self.call_timeout if timeout is None else timeout
        future = asyncio.run_coroutine_threadsafe(
            self._client.call_tool(tool, arguments or {}, read_timeout_seconds=seconds), self._loop)
        try:
            return future.result(seconds + 1.0)
        except MCPError as e:
            if e.code == REQUEST_TIMEOUT:
                raise TimeoutError(f"{tool} sent no answer within {seconds} s; the server was sent "
                                   f"notifications/cancelled") from e
            raise
        except TimeoutError:  # the SDK's own timer did not end the call: cancel it here
            future.cancel()
            raise

    def handler(self, tool: str, *, timeout: float | None = None) -> Any:
        """A registry handler for MCP tool ``tool``: keyword arguments in, result value out.

        Returns ``structuredContent`` when the server sent one (a dict), else the text content.
        An ``isError`` result raises :class:`~course_lib.tool_registry.ToolError` with the
        server's message, which the registry turns into a tool message the model can read.
        ``timeout`` (seconds, default ``call_timeout``) goes to :meth:`call`: when it passes, the
        server is sent ``notifications/cancelled`` and the handler raises ``TimeoutError``.
        """
        def call_mcp_tool(**arguments: Any) -> Any:
            result = self.call(tool, arguments, timeout=timeout)
            text = "\n".join(getattr(c, "text", "") for c in result.content if getattr(c, "type", "") == "text")
            if result.is_error:
                raise ToolError(text or f"{tool} failed", server=self.name)
            if result.structured_content is not None:
                return result.structured_content
            return text

        call_mcp_tool.__name__ = call_mcp_tool.__qualname__ = _tool_name(self.prefix, tool)
        call_mcp_tool.__module__ = f"mcp:{self.name}"  # re-registering after a reconnect replaces, not clashes
        return call_mcp_tool

    def register_into(self, registry: ToolRegistry, *, toolset: str | None = None, trust_annotations: bool = False,
                      **options: Any) -> list[str]:
        """Register every tool of the server into ``registry`` as toolset ``mcp:<name>``; returns the names.

        The MCP ``inputSchema`` is the registry schema, unchanged; ``outputSchema``, ``title``
        and ``annotations`` go to ``meta``. ``options`` go to ``registry.register`` (``timeout``...);
        a registry ``timeout`` (seconds, lesson 04) is also each call's MCP timeout, so when it fires the
        server is sent ``notifications/cancelled`` instead of working on for nobody.
        A tool's permission is ``permission=`` if given, else ``"network"``; ``"read"`` for a
        ``readOnlyHint`` tool only with ``trust_annotations=True``: MCP's tools section says clients
        MUST treat annotations as untrusted unless the server is trusted (lesson 10a §8, lesson 12 §7).
        """
        toolset = toolset or f"mcp:{self.name}"
        permission = options.pop("permission", None)
        names = []
        for tool in self.tools:
            name = _tool_name(self.prefix, tool.name)
            schema = {"name": name, "description": tool.description or "", "inputSchema": tool.input_schema}
            meta: dict[str, Any] = {"mcp_server": self.name, "mcp_name": tool.name}
            if tool.output_schema:
                meta["outputSchema"] = tool.output_schema
            if tool.title:
                meta["title"] = tool.title
            if tool.annotations is not None:
                meta["annotations"] = tool.annotations.model_dump(by_alias=True, exclude_none=True)
            read_only = trust_annotations and bool(meta.get("annotations", {}).get("readOnlyHint"))
            registry.register(name, toolset, schema, self.handler(tool.name, timeout=options.get("timeout")),
                              meta=meta, replace=True,
                              permission=permission or ("read" if read_only else "network"), **options)
            names.append(name)
        return names

    def __repr__(self) -> str:
        state = f"{len(self.tools)} tools, {self.protocol_version}" if self.connected else "closed"
        return f"MCPToolset({self.name!r}, {state})"


def close_all_toolsets() -> list[str]:
    """Close every open :class:`MCPToolset` (a lesson's last cell); returns their names."""
    with _OPEN_LOCK:
        open_now = list(_OPEN.values())
    for toolset in open_now:
        toolset.close()
    return [t.name for t in open_now]


atexit.register(close_all_toolsets)


# ---------------------------------------------------------------------- registry → MCP server

class RegistryMCPServer(CourseMCPServer):
    """An MCP server whose tools are the registry's visible tools, decided at every request.

    Args:
        registry: the :class:`~course_lib.tool_registry.ToolRegistry` to serve.
        name: the server name clients see.
        toolsets: serve only these toolsets (None: every enabled toolset).

    ``tools/list`` returns ``registry.definitions("mcp")``; ``tools/call`` goes through
    ``registry.arun`` (validation, hooks, timeouts; sync handlers on the registry's bounded pool of
    reused threads, no schema copied per call), and a registry error becomes a result
    with ``isError: true``. An unknown or hidden tool is a -32602 protocol error (MCP spec, Tools,
    "Error Handling"; modelcontextprotocol/servers#4159 answered it with an ``isError`` result instead).
    """

    def __init__(self, registry: ToolRegistry, name: str = "course-tools", *,
                 toolsets: Sequence[str] | None = None, **kwargs: Any) -> None:
        super().__init__(name, instructions=f"Tools of the course registry {registry.name!r}.", **kwargs)
        self.registry = registry
        self.toolsets = list(toolsets) if toolsets is not None else None

    def tool_schema(self, name: str) -> dict[str, Any] | None:
        if name not in self.registry or not self.registry.availability(name, self.toolsets).visible:
            return None
        return self.registry.parameters_schema(name) or {"type": "object", "properties": {}}  # cached, not copied

    def _argument_problems(self, schema: dict[str, Any], arguments: Any) -> list[str]:
        return []  # registry.arun validates (and reports invalid_arguments as an isError result): once is enough

    def _tool_input_schema(self, name: str) -> dict[str, Any] | None:
        return self.tool_schema(name)

    async def list_tools(self) -> list[Any]:
        from mcp import types

        return [types.Tool.model_validate(d) for d in self.registry.definitions("mcp", toolsets=self.toolsets)]

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        from mcp import types

        result = await self.registry.arun({"name": name, "arguments": arguments}, toolsets=self.toolsets)
        return types.CallToolResult.model_validate(result.mcp_result())

    def __repr__(self) -> str:
        return f"RegistryMCPServer({self.name!r}, registry={self.registry.name!r}, tools={self.registry.names})"


def course_registry() -> ToolRegistry:
    """The course's own tools in one registry: ``weather`` (get_weather) and ``wiki`` (search_wiki).

    What ``course mcp serve`` exposes (seed 000 §3.4: "hermes mcp-serve" exposes Hermes' tools).
    """
    from . import examples

    registry = ToolRegistry("course")
    registry.register("get_weather", "weather", examples.WEATHER_TOOL, examples.get_weather)
    registry.register("search_wiki", "wiki", SEARCH_WIKI_SCHEMA, examples.search_wiki)
    return registry


#: The wiki search as a tool definition (exercise 02's shape: query, space enum, limit 1-20 default 5).
SEARCH_WIKI_SCHEMA: dict[str, Any] = {
    "name": "search_wiki",
    "description": "Search the company wiki (engineering, product, hr and finance pages) for internal processes, "
                   "policies and plans; returns page ids, titles and snippets, best first.",
    "parameters": {
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 1, "description": "What to look for"},
            "space": {"type": "string", "enum": ["engineering", "product", "hr", "finance"],
                      "description": "Search only this wiki space"},
            "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5,
                      "description": "At most this many pages"},
        },
        "required": ["query"],
        "additionalProperties": False,
    },
}


def serve(registry: ToolRegistry | None = None, *, transport: str = "stdio", port: int = 0,
          toolsets: Sequence[str] | None = None, server: Any = None) -> None:
    """Serve ``registry`` (default :func:`course_registry`) as an MCP server until stopped.

    Args:
        transport: ``"stdio"`` (for a host that starts the process) or ``"http"`` (streamable
            HTTP on 127.0.0.1; the URL is printed to stderr).
        port: HTTP port (0: a free one).
        toolsets: serve only these toolsets.
        server: serve this ``MCPServer`` instead (``course mcp serve --profile``, :mod:`course_lib.mcp_profiles`).
    """
    import sys

    server = server or RegistryMCPServer(registry or course_registry(), toolsets=toolsets)
    if transport == "stdio":
        from .mcp_transports import run_stdio_server

        run_stdio_server(server)
        return
    from .servers import serve_forever, tcp_listener

    # Bind before printing the URL, so a host that connects as soon as it reads it is not refused.
    sock = tcp_listener("127.0.0.1", port)  # TCP_NODELAY: no 40 ms Nagle stall per reply
    from .i18n import _

    print(_("MCP server (streamable HTTP) at {url}  (Ctrl+C stops)").format(
        url=f"http://127.0.0.1:{sock.getsockname()[1]}/mcp"), file=sys.stderr, flush=True)
    serve_forever("course-mcp-serve", server.streamable_http_app(), sock)


def describe_tools(tools: Sequence[Any]) -> str:
    """One line per MCP tool: name, required arguments, description's first line."""
    lines = []
    for t in tools:
        schema = t.input_schema if hasattr(t, "input_schema") else t.get("inputSchema", {})
        name = t.name if hasattr(t, "name") else t["name"]
        desc = (t.description if hasattr(t, "description") else t.get("description")) or ""
        lines.append(f"{name}({', '.join(schema.get('required', []))}): {desc.strip().splitlines()[0] if desc else ''}")
    return "\n".join(lines)


__all__ = ["MCPToolset", "RegistryMCPServer", "close_all_toolsets", "course_registry", "describe_tools", "serve"]
