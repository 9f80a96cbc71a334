"""See every JSON-RPC message an MCP client and server exchange, as it really travelled.

:func:`wiretap` wraps any client transport of the official ``mcp`` SDK (in-memory, stdio,
streamable HTTP, SSE, or your own) and records each message passing through it, in both
directions, into a :class:`course_lib.tracing.Trace`. The trace is built from the real
``SessionMessage`` objects the SDK sends and receives, not from a drawing of what they
should be, so a learner sees exactly what ``tools/call`` looks like on the wire, in either
protocol era (2025-11-25's ``initialize`` handshake, or 2026-07-28's ``server/discover``
and per-request ``_meta``).

Shortcut: the in-memory ``Client(server)`` in 2026-07-28 mode skips JSON-RPC entirely (a
direct dispatcher); :func:`traced_client` therefore always goes through the SDK's
``InMemoryTransport``, which frames real JSON-RPC messages in both eras.

Taught in lesson 08 (used in 09 and 10).
"""
from __future__ import annotations

import json
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

import anyio

from .i18n import _
from .text_table import cut
from .tracing import Trace

#: ``_meta`` keys of 2026-07-28 that repeat on every request; :func:`short_payload` folds them.
META_PREFIX = "io.modelcontextprotocol/"


def message_dict(item: Any) -> dict[str, Any] | None:
    """The wire form of a ``SessionMessage`` (what ``json.loads`` of the line would give), or None."""
    message = getattr(item, "message", None)
    if message is None:
        return None
    return json.loads(message.model_dump_json(by_alias=True, exclude_unset=True))


def describe(msg: dict[str, Any]) -> tuple[str, str]:
    """A short label and a trace kind (``request``/``response``/``notification``/``error``) for a message."""
    if "method" in msg:
        params = msg.get("params") or {}
        what = msg["method"]
        if what in ("tools/call", "prompts/get") and "name" in params:
            what += f" {params['name']}"
        elif what == "resources/read" and "uri" in params:
            what += f" {params['uri']}"
        elif what == "initialize":
            what += f" {params.get('protocolVersion', '')}"
        if "id" not in msg:
            return what, "notification"
        return f"{what} (id {msg['id']})", "request"
    if "error" in msg:
        return f"error {msg['error'].get('code')} {msg['error'].get('message', '')[:40]} (id {msg.get('id')})", "error"
    result = msg.get("result") or {}
    label = "result"
    if result.get("isError"):
        label = "result isError"
    elif result.get("resultType") == "input_required":
        label = "input_required"
    elif "protocolVersion" in result:
        label = f"result {result['protocolVersion']}"
    elif "supportedVersions" in result:
        label = f"result {','.join(result['supportedVersions'])}"
    return f"{label} (id {msg.get('id')})", "response"


def short_payload(msg: dict[str, Any]) -> dict[str, Any]:
    """``msg`` with the repetitive 2026-07-28 ``_meta`` entries folded into one line (for display)."""
    params = msg.get("params")
    if isinstance(params, dict) and isinstance(params.get("_meta"), dict):
        meta = params["_meta"]
        folded = {k: v for k, v in meta.items() if not k.startswith(META_PREFIX)}
        keys = [k[len(META_PREFIX):] for k in meta if k.startswith(META_PREFIX)]
        if keys:
            folded[META_PREFIX + "*"] = ", ".join(keys)
        msg = {**msg, "params": {**params, "_meta": folded}}
    return msg


@asynccontextmanager
async def wiretap(transport: Any, trace: Trace, *, client: str = "Client", server: str = "Server",
                  ) -> AsyncIterator[tuple[Any, Any]]:
    """Wrap an MCP client transport; record every message in ``trace`` (layer ``mcp``).

    Args:
        transport: anything ``mcp.Client`` accepts as a transport (an async context manager
            yielding ``(read_stream, write_stream)``), e.g. ``InMemoryTransport(server)``,
            ``stdio_client(params, errlog=...)``, ``streamable_http_client(url)``.
        trace: where to record; each event's payload is the message's wire JSON.
        client, server: lane names for the diagram.

    Yields:
        ``(read_stream, write_stream)`` for ``mcp.Client(...)`` / ``ClientSession``.
    """
    async with transport as (read, write):
        to_server_send, to_server_recv = anyio.create_memory_object_stream(0)
        to_client_send, to_client_recv = anyio.create_memory_object_stream(0)

        def record(src: str, dst: str, item: Any) -> None:
            msg = message_dict(item)
            if msg is None:  # a transport error travelling to the session: show it too
                trace.add(src, dst, _("transport error {name}").format(name=type(item).__name__), kind="error", layer="mcp",
                          payload={"error": repr(item)})
                return
            label, kind = describe(msg)
            trace.add(src, dst, label, kind=kind, layer="mcp", payload=msg)

        async def client_to_server() -> None:
            async with to_server_recv:
                async for item in to_server_recv:
                    record(client, server, item)
                    await write.send(item)

        async def server_to_client() -> None:
            async with to_client_send:
                async for item in read:
                    record(server, client, item)
                    await to_client_send.send(item)

        async with anyio.create_task_group() as tg:
            tg.start_soon(client_to_server)
            tg.start_soon(server_to_client)
            try:
                yield to_client_recv, to_server_send
            finally:
                tg.cancel_scope.cancel()


def traced_client(server: Any, trace: Trace, *, mode: str = "auto", **client_kwargs: Any) -> Any:
    """An ``mcp.Client`` on an in-memory transport to ``server`` that records its messages in ``trace``.

    Args:
        server: an ``MCPServer`` (in this process).
        trace: the :class:`~course_lib.tracing.Trace` to fill.
        mode: ``"auto"`` (2026-07-28 with an mcp 2.3 server) or ``"legacy"`` (2025-11-25 handshake).
        client_kwargs: passed to ``mcp.Client`` (callbacks, ``log_level``...).

    Returns:
        The client (use ``async with traced_client(...) as client:``).
    """
    from mcp import Client
    from mcp.client._memory import InMemoryTransport  # private module: the SDK's own in-memory transport

    return Client(wiretap(InMemoryTransport(server), trace), mode=mode, **client_kwargs)


def wire_text(trace: Trace, *, width: int = 150) -> str:
    """One line per recorded message: direction and its wire JSON (``_meta`` folded, cut to ``width`` display
    columns, :func:`~course_lib.text_table.cut`: Chinese text counts two per character)."""
    lines = []
    for e in trace.events:
        arrow = "-->" if e.src != e.dst and e.src == trace.lanes[0] else "<--"
        body = json.dumps(short_payload(e.payload), ensure_ascii=False) if isinstance(e.payload, dict) else e.label
        lines.append(f"{arrow} {cut(body, width)}")
    return "\n".join(lines)


async def raw_session(server: Any, messages: list[Any], *, timeout: float = 10.0) -> list[tuple[str, Any]]:
    """Talk to ``server`` by hand: send raw JSON-RPC messages, collect what comes back.

    Runs the server over newline-delimited JSON in memory (the same framing as stdio,
    :func:`course_lib.mcp_transports.serve_lines`), so nothing hides what is on the wire:
    no handshake is done for you, and broken messages can be sent on purpose.

    Args:
        server: an ``MCPServer``.
        messages: dicts (sent as JSON) or str/bytes (sent as they are, one line each).
        timeout: seconds to wait for the reply to each message that has an ``id``.

    Returns:
        ``[("-->", sent), ("<--", received), ...]`` in order; parsed JSON where possible.
    """
    from .mcp_transports import serve_lines

    to_server_send, to_server_recv = anyio.create_memory_object_stream[bytes](100)
    from_server_send, from_server_recv = anyio.create_memory_object_stream[bytes](100)
    log: list[tuple[str, Any]] = []

    async def receive_line() -> bytes:
        try:
            return await to_server_recv.receive()
        except anyio.EndOfStream:
            return b""

    async with anyio.create_task_group() as tg:
        tg.start_soon(serve_lines, server, receive_line, from_server_send.send)
        for m in messages:
            line = m if isinstance(m, bytes) else (m if isinstance(m, str) else json.dumps(m)).encode("utf-8")
            log.append(("-->", _parsed(line)))
            await to_server_send.send(line + b"\n")
            wants_reply = not isinstance(m, dict) or "id" in m
            if wants_reply:
                with anyio.move_on_after(timeout):
                    while True:  # server notifications may come first; stop at a reply
                        got = _parsed(await from_server_recv.receive())
                        log.append(("<--", got))
                        if not isinstance(got, dict) or "method" not in got:
                            break
            else:
                with anyio.move_on_after(0.05):  # nothing is expected; show it if something comes
                    log.append(("<--", _parsed(await from_server_recv.receive())))
        await to_server_send.aclose()
        tg.cancel_scope.cancel()
    return log


def _parsed(line: bytes) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return line.decode("utf-8", errors="replace")


def show_raw(log: list[tuple[str, Any]], *, width: int = 160) -> str:
    """The lines of :func:`raw_session` as text (``_meta`` folded, long lines cut to ``width`` display columns)."""
    out = []
    for arrow, msg in log:
        body = json.dumps(short_payload(msg), ensure_ascii=False) if isinstance(msg, dict) else str(msg)
        out.append(f"{arrow} {cut(body, width)}")
    return "\n".join(out)


def traced_transport(server: Any, trace: Trace, *, client: str = "Client", server_lane: str | None = None) -> Any:
    """An in-memory transport to ``server`` that records its messages in ``trace`` (for ``MCPToolset``...).

    Unlike :func:`traced_client` it returns the transport, not a client, so it can be handed
    to anything that accepts one (``mcp.Client(...)``, :class:`course_lib.mcp_bridge.MCPToolset`).
    A transport is single-use: build a new one for each connection.
    """
    from mcp.client._memory import InMemoryTransport

    return wiretap(InMemoryTransport(server), trace, client=client, server=server_lane or f"{server.name} server")
