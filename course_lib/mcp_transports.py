"""MCP transports for notebooks: stdio done safely, streamable HTTP and legacy SSE on 127.0.0.1, and your own.

The official SDK provides the transports; this module adds what a notebook needs around
them (each item names the public bug report of what goes wrong without it):

* :class:`StdioMCP`: start an MCP server as a child process and connect ``mcp.Client`` to
  it. The server's stderr always goes to a **real file** (a kernel's ``sys.stderr`` has no
  file descriptor under nbval: modelcontextprotocol/python-sdk#1103); if you pass a stream without one (``io.StringIO``,
  the kernel's stderr), a temporary file is used and its text copied into your stream
  afterwards. A server that dies, before or during a call, raises :class:`MCPServerDied`
  naming its **exit code** and the end of its stderr, within seconds, never a hang (modelcontextprotocol/python-sdk#428).
* :func:`run_stdio_server`: serve an ``MCPServer`` over stdio with strict framing: UTF-8
  **bytes** whatever the locale (MemPalace/mempalace#1241), a ``-32700`` reply for a line that is not UTF-8 or
  not JSON, ``-32600`` for a JSON-RPC batch (MCP removed batching in revision 2025-06-18),
  where the SDK's own stdio server stays silent and the client would wait forever.
* :func:`start_http` / :func:`start_sse`: streamable HTTP (and, once, the deprecated
  HTTP+SSE transport) through :func:`course_lib.servers.start_server`: a daemon thread,
  127.0.0.1, a free port, a fresh app on every (re)start, stopped by ``stop_all()``.
* :func:`serve_tcp` / :func:`tcp_client`: a custom transport (newline-delimited JSON-RPC
  over a TCP socket) in a screenful, to show that MCP's transports are pluggable (seed 003).

Taught in lesson 09 (used in 10).
"""
from __future__ import annotations

import io
import json
import os
import re
import sys
import tempfile
import time
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable

import anyio

#: Seconds any single request (the first one included) may take before the client gives up. A server
#: that dies is reported at once (its pipe closes); this bounds a server that hangs.
CALL_TIMEOUT = 30.0
#: A stdio/TCP line longer than this (bytes) is refused with an error reply; the session stays usable.
MAX_LINE_BYTES = 16 * 1024 * 1024

_EXIT_MARK = "[course] MCP server exited with code "
# A tiny supervisor run in front of the server: it waits for the real server and writes its exit code
# to stderr (the SDK reaps the process itself and never reports the code). Standard library only.
_LAUNCHER = (
    "import signal, subprocess, sys\n"
    "p = subprocess.Popen(sys.argv[1:])\n"
    "signal.signal(signal.SIGTERM, lambda s, f: p.terminate())\n"
    "rc = p.wait()\n"
    f"sys.stderr.write('\\n{_EXIT_MARK}%d\\n' % rc)\n"
    "sys.exit(rc if rc >= 0 else 128 - rc)\n"
)


class MCPServerDied(RuntimeError):
    """The stdio server process ended (or never started): its exit code and the end of its stderr.

    Attributes:
        exit_code: the server's exit code (negative: killed by that signal), or None if unknown.
        stderr: the last lines the server wrote to stderr.
        log_path: the file holding all of its stderr.
    """

    def __init__(self, exit_code: int | None, stderr: str, log_path: Path | None) -> None:
        code = "an unknown code" if exit_code is None else f"code {exit_code}"
        tail = stderr.strip() or "(nothing on stderr)"
        super().__init__(f"the MCP server exited with {code}; its stderr ends with:\n{tail}\n(full log: {log_path})")
        self.exit_code = exit_code
        self.stderr = stderr
        self.log_path = log_path


def course_server_params(name: str, *, env: dict[str, str] | None = None) -> Any:
    """``StdioServerParameters`` to run a course server (``project-manager``, ``wiki``, ``demo``) over stdio.

    Uses ``sys.executable`` (never a bare ``python``, which may be another interpreter: SDK-NOTES §1.6).
    """
    from mcp import StdioServerParameters

    return StdioServerParameters(command=sys.executable, args=["-m", "course_lib.mcp_servers", name], env=env)


def _has_fileno(stream: Any) -> bool:
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return False
    return True


class StdioMCP:
    """Run an MCP server as a child process and connect an ``mcp.Client`` to it over stdio.

    Args:
        params: ``mcp.StdioServerParameters`` (see :func:`course_server_params`).
        errlog: where the server's stderr goes: None (a temporary log file, see :attr:`log_path`),
            an open file, or any text stream (a stream without a file descriptor gets the text
            copied in when the connection closes).
        mode: ``"auto"`` (2026-07-28 with an mcp 2.3 server) or ``"legacy"`` (2025-11-25 handshake).
        call_timeout: seconds per request, the discovery/handshake included (default :data:`CALL_TIMEOUT`).
        client_kwargs: more ``mcp.Client`` arguments (callbacks, ``log_level``...).

    Use ``async with StdioMCP(params) as client:``. Raises :class:`MCPServerDied` when the
    server exits early, and ``TimeoutError`` when it does not answer within the bounds.
    """

    def __init__(self, params: Any, *, errlog: Any = None, mode: str = "auto", call_timeout: float = CALL_TIMEOUT,
                 **client_kwargs: Any) -> None:
        self.params = params
        self.mode = mode
        self.client_kwargs = {"read_timeout_seconds": call_timeout, **client_kwargs}
        self._user_errlog = errlog
        self.log_path: Path | None = None
        self._log_file: Any = None
        self._stack: AsyncExitStack | None = None

    def _open_log(self) -> Any:
        if self._user_errlog is not None and _has_fileno(self._user_errlog):
            self.log_path = Path(getattr(self._user_errlog, "name", "")) if hasattr(self._user_errlog, "name") else None
            return self._user_errlog
        fd, path = tempfile.mkstemp(prefix="mcp-server-", suffix=".log")
        os.close(fd)
        self.log_path = Path(path)
        self._log_file = open(path, "w", encoding="utf-8")
        return self._log_file

    def log_text(self) -> str:
        """Everything the server wrote to stderr so far (without the supervisor's exit line)."""
        if self.log_path is None or not self.log_path.is_file():
            return ""
        text = self.log_path.read_text(encoding="utf-8", errors="replace")
        return re.sub(rf"\n?{re.escape(_EXIT_MARK)}-?\d+\n?", "", text)

    @property
    def exit_code(self) -> int | None:
        """The server's exit code once it has ended (None while it runs or if unknown)."""
        if self.log_path is None or not self.log_path.is_file():
            return None
        found = re.findall(rf"{re.escape(_EXIT_MARK)}(-?\d+)", self.log_path.read_text(encoding="utf-8", errors="replace"))
        return int(found[-1]) if found else None

    def _died(self) -> MCPServerDied:
        deadline = time.monotonic() + 2.0  # the supervisor writes the code right after the exit
        while self.exit_code is None and time.monotonic() < deadline:
            time.sleep(0.02)
        lines = self.log_text().strip().splitlines()
        return MCPServerDied(self.exit_code, "\n".join(lines[-15:]), self.log_path)

    async def __aenter__(self) -> Any:
        from mcp import Client, StdioServerParameters, stdio_client

        p = self.params
        supervised = StdioServerParameters(command=sys.executable, args=["-c", _LAUNCHER, p.command, *p.args],
                                           env=p.env, cwd=p.cwd, encoding="utf-8")
        self._stack = AsyncExitStack()
        errlog = self._open_log()
        client = Client(stdio_client(supervised, errlog=errlog), mode=self.mode, **self.client_kwargs)
        try:
            return await self._stack.enter_async_context(client)
        except BaseException as exc:
            await self._close_quietly()
            raise self._translate(exc) from None

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        try:
            assert self._stack is not None
            await self._stack.__aexit__(exc_type, exc, tb)
        except BaseException as closing:
            self._finish_log()
            raise self._translate(closing) from None
        self._finish_log()
        if exc is not None:
            translated = self._translate(exc)
            if translated is not exc:
                raise translated from None
        return False

    async def _close_quietly(self) -> None:
        try:
            if self._stack is not None:
                await self._stack.aclose()
        except BaseException:  # the connection is already broken; the original error matters
            pass
        self._finish_log()

    def _finish_log(self) -> None:
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
            if self._user_errlog is not None:  # a stream without a file descriptor: copy the text in
                self._user_errlog.write(self.log_text())

    def _translate(self, exc: BaseException) -> BaseException:
        """Turn the SDK's "Connection closed" (deep in exception groups) into :class:`MCPServerDied`."""
        leaves = _leaves(exc)
        if any(_is_connection_closed(e) for e in leaves):
            return self._died()
        if any(isinstance(e, (TimeoutError, anyio.BrokenResourceError, anyio.ClosedResourceError)) for e in leaves) \
                and self.exit_code is not None:
            return self._died()
        if isinstance(exc, BaseExceptionGroup) and len(leaves) == 1:
            return leaves[0]  # one real error: show it, not a nest of task groups
        return exc

    def __repr__(self) -> str:
        return f"StdioMCP({' '.join([self.params.command, *self.params.args][-3:])!r}, mode={self.mode!r})"


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for e in exc.exceptions for leaf in _leaves(e)]
    return [exc]


def _is_connection_closed(exc: BaseException) -> bool:
    from mcp.shared.exceptions import MCPError

    return isinstance(exc, MCPError) and "Connection closed" in str(exc)


# -- the server side of stdio (and any line-based stream), with strict framing ----------------

def _error_line(code: int, message: str, id: Any = None) -> bytes:
    return (json.dumps({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}) + "\n").encode()


def parse_line(line: bytes) -> tuple[Any, bytes | None]:
    """Frame one received line: ``(SessionMessage, None)``, or ``(None, error reply line)``.

    The rules: UTF-8 bytes (invalid UTF-8 → -32700), JSON (else -32700), one object, not a
    batch (an array → -32600: MCP has no batches since 2025-06-18), a valid JSON-RPC message
    (else -32600, echoing the id when there is one), at most :data:`MAX_LINE_BYTES` (else
    -32600 with the request's id, so that one call fails and the session goes on).
    """
    from mcp import types
    from mcp.shared.message import SessionMessage

    if len(line) > MAX_LINE_BYTES:
        # Answer the request it carried (when it can be read) so the caller fails at once, not at its timeout.
        try:
            big = json.loads(line)
            id = big.get("id") if isinstance(big, dict) and isinstance(big.get("id"), (str, int)) else None
        except ValueError:
            id = None
        return None, _error_line(-32600, f"message larger than MAX_LINE_BYTES ({MAX_LINE_BYTES} bytes)", id)
    try:
        data = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError:
        return None, _error_line(-32700, "Parse error: the message is not valid UTF-8")
    except ValueError:
        return None, _error_line(-32700, "Parse error: the message is not valid JSON")
    if isinstance(data, list):
        return None, _error_line(-32600, "Invalid Request: MCP does not accept JSON-RPC batches")
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_python(data, by_name=False)), None
    except ValueError:
        id = data.get("id") if isinstance(data, dict) and isinstance(data.get("id"), (str, int)) else None
        return None, _error_line(-32600, "Invalid Request: not a JSON-RPC 2.0 message", id)


async def serve_lines(server: Any, receive_line: Callable[[], Awaitable[bytes]],
                      send_bytes: Callable[[bytes], Awaitable[None]]) -> None:
    """Run an ``MCPServer`` over any line-based byte stream (stdio, a TCP socket...).

    Args:
        server: the ``MCPServer``.
        receive_line: returns the next line (bytes, with or without ``\\n``), ``b""`` at EOF.
        send_bytes: writes bytes to the peer.
    """
    from mcp.shared.message import SessionMessage

    lowlevel = server._lowlevel_server  # the SDK's own InMemoryTransport uses it the same way
    read_send, read_recv = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_send, write_recv = anyio.create_memory_object_stream[SessionMessage](0)

    async def reader() -> None:
        async with read_send:
            while line := await receive_line():
                if not line.strip():
                    continue
                message, error = parse_line(line.rstrip(b"\r\n"))
                if error is not None:
                    await send_bytes(error)
                else:
                    await read_send.send(message)

    async def writer() -> None:
        async with write_recv:
            async for message in write_recv:
                text = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                await send_bytes(text.encode("utf-8") + b"\n")

    async with anyio.create_task_group() as tg:
        tg.start_soon(reader)
        tg.start_soon(writer)
        await lowlevel.run(read_recv, write_send, lowlevel.create_initialization_options())
        tg.cancel_scope.cancel()


def run_stdio_server(server: Any) -> None:
    """Serve ``server`` on this process's stdin/stdout until EOF (``python -m course_lib.mcp_servers NAME``).

    The wire uses private copies of fds 0 and 1; fd 1 then points at stderr, so a stray
    ``print`` in a tool cannot corrupt the JSON-RPC stream.
    """
    wire_in = os.fdopen(os.dup(0), "rb", buffering=0)
    wire_out = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    reader = io.BufferedReader(wire_in, buffer_size=1 << 16)

    async def receive_line() -> bytes:
        return await anyio.to_thread.run_sync(reader.readline, abandon_on_cancel=True)

    async def send_bytes(data: bytes) -> None:
        await anyio.to_thread.run_sync(wire_out.write, data)

    anyio.run(serve_lines, server, receive_line, send_bytes)


# -- HTTP: streamable HTTP (current) and HTTP+SSE (deprecated), via course_lib.servers ----------

#: The biggest SSE event the kit's HTTP client accepts (bytes). The SDK's default is 1 MiB, too small for
#: a 1 MB tool result, which travels twice (``content`` text and ``structuredContent``).
MAX_SSE_EVENT_BYTES = 16 * 1024 * 1024


def http_client(url: str, *, mode: str = "auto", max_event_bytes: int = MAX_SSE_EVENT_BYTES,
                **client_kwargs: Any) -> Any:
    """An ``mcp.Client`` for a streamable-HTTP endpoint, with a named cap on event size.

    Args:
        url: the endpoint, e.g. ``handle.url + "/mcp"``.
        mode: ``"auto"`` (2026-07-28) or ``"legacy"`` (2025-11-25 sessions).
        max_event_bytes: a server-sent event larger than this fails that request (an ``MCPError``);
            the session stays usable.
        client_kwargs: more ``mcp.Client`` arguments.
    """
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    return Client(streamable_http_client(url, max_sse_event_size=max_event_bytes), mode=mode, **client_kwargs)


def refuse_batches(app: Any) -> Any:
    """ASGI wrapper: a JSON array POSTed to the MCP endpoint gets ``400`` + JSON-RPC ``-32600`` (batching was removed in MCP 2025-06-18).

    MCP removed JSON-RPC batching in 2025-06-18; the SDK answers an array with a -32602
    validation error. The spec's code for "not a valid request object" is -32600.
    """
    async def wrapped(scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            return await app(scope, receive, send)
        chunks, more = [], True
        while more:
            message = await receive()
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        body = b"".join(chunks)
        if body.lstrip()[:1] == b"[":
            reply = json.dumps({"jsonrpc": "2.0", "id": None, "error": {
                "code": -32600, "message": "Invalid Request: MCP does not accept JSON-RPC batches"}}).encode()
            await send({"type": "http.response.start", "status": 400,
                        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(reply)).encode())]})
            await send({"type": "http.response.body", "body": reply})
            return
        replayed = False

        async def replay() -> dict:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await app(scope, replay, send)

    return wrapped


def start_http(server: Any, name: str = "mcp-http", *, stateless: bool = False, json_response: bool = False,
               **security: Any) -> Any:
    """Serve ``server`` over streamable HTTP on 127.0.0.1 (a free port); re-running replaces it.

    Args:
        server: the ``MCPServer``.
        name: the ``course_lib.servers`` registry name (one server per name).
        stateless: no ``Mcp-Session-Id`` in the handshake era (every request stands alone).
        json_response: answer handshake-era requests with ``application/json`` instead of SSE.
        security: ``transport_security=TransportSecuritySettings(...)`` behind a proxy.

    Returns:
        The ``LocalServer``; the MCP endpoint is ``handle.url + "/mcp"``.
    """
    from .servers import start_server

    app = server.streamable_http_app(stateless_http=stateless, json_response=json_response, **security)
    return start_server(name, _WithLifespan(refuse_batches(app), app))  # a fresh app each time (SDK-NOTES §1.6)


class _WithLifespan:
    """Send HTTP to ``http_app`` and lifespan events to ``inner`` (the MCP app needs its lifespan)."""

    def __init__(self, http_app: Any, inner: Any) -> None:
        self.http_app, self.inner = http_app, inner

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        target = self.inner if scope["type"] == "lifespan" else self.http_app
        await target(scope, receive, send)


def start_sse(server: Any, name: str = "mcp-sse") -> Any:
    """Serve ``server`` over the **deprecated** HTTP+SSE transport (2024-11-05); endpoint ``url + "/sse"``."""
    from .servers import start_server

    return start_server(name, server.sse_app())


# -- a custom transport: newline-delimited JSON-RPC over TCP --------------------------------------

@asynccontextmanager
async def serve_tcp(server: Any) -> AsyncIterator[int]:
    """Serve ``server`` on 127.0.0.1 over raw TCP, one JSON-RPC message per line; yields the port.

    Every connection gets its own session. Stops when the ``async with`` block ends.
    """
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=0)

    async def handle(conn: Any) -> None:
        from anyio.streams.buffered import BufferedByteReceiveStream

        buffered = BufferedByteReceiveStream(conn)

        async def receive_line() -> bytes:
            try:
                return await buffered.receive_until(b"\n", MAX_LINE_BYTES) + b"\n"
            except (anyio.IncompleteRead, anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError):
                return b""

        async with conn:
            await serve_lines(server, receive_line, conn.send)

    async with listener, anyio.create_task_group() as tg:
        tg.start_soon(listener.serve, handle)
        yield listener.extra(anyio.abc.SocketAttribute.local_port)
        tg.cancel_scope.cancel()


@asynccontextmanager
async def tcp_client(port: int, host: str = "127.0.0.1") -> AsyncIterator[tuple[Any, Any]]:
    """The client half of :func:`serve_tcp`: a transport for ``mcp.Client(tcp_client(port))``."""
    from anyio.streams.buffered import BufferedByteReceiveStream
    from mcp import types
    from mcp.shared.message import SessionMessage

    conn = await anyio.connect_tcp(host, port)
    buffered = BufferedByteReceiveStream(conn)
    read_send, read_recv = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_send, write_recv = anyio.create_memory_object_stream[SessionMessage](0)

    async def reader() -> None:
        async with read_send:
            while True:
                try:
                    line = await buffered.receive_until(b"\n", MAX_LINE_BYTES)
                except (anyio.IncompleteRead, anyio.EndOfStream, anyio.ClosedResourceError):
                    return
                message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                await read_send.send(SessionMessage(message))

    async def writer() -> None:
        async with write_recv:
            async for message in write_recv:
                await conn.send(message.message.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n")

    async with conn, anyio.create_task_group() as tg:
        tg.start_soon(reader)
        tg.start_soon(writer)
        try:
            yield read_recv, write_send
        finally:
            tg.cancel_scope.cancel()


# -- latency -------------------------------------------------------------------------------------

async def time_calls(client: Any, tool: str, arguments: dict, n: int = 20) -> list[float]:
    """Call ``tool`` ``n`` times on a connected client; returns each round trip in milliseconds."""
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        await client.call_tool(tool, arguments)
        times.append((time.perf_counter() - t0) * 1000)
    return times


def latency_chart(measurements: dict[str, list[float]], *, title: str = "tools/call round trip") -> Any:
    """Round-trip times in ms per transport: every measurement as a dot, the median as a bar with its value.

    No error bars to decode: the dots *are* the spread (n per transport is in each label), the bar and the
    number beside it the median; the legend says which is which.
    """
    from statistics import median

    from .diagrams import FONT_SMALL, FONT_TITLE, INK, MAX_WIDTH, OKABE_ITO, figure

    names = list(measurements)
    meds = [median(measurements[k]) for k in names]
    text = "\n".join(f"{k:<18} median {median(v):7.2f} ms  (min {min(v):.2f}, max {max(v):.2f}, n={len(v)})"
                     for k, v in measurements.items())
    height = 1.4 + 0.55 * max(1, len(names))
    fig = figure(MAX_WIDTH, height, text=text)
    ax = fig.add_axes((2.3 / MAX_WIDTH, 0.95 / height, (MAX_WIDTH - 3.2) / MAX_WIDTH, (height - 1.5) / height))
    colours = [OKABE_ITO[c] for c in ("green", "blue", "purple", "orange", "sky", "vermillion")]
    top = max(max(v) for v in measurements.values()) if measurements else 1.0
    rows = range(len(names))
    ax.barh(rows, meds, height=0.55, color=[colours[i % len(colours)] for i in rows], alpha=0.35, label="median")
    for i, k in enumerate(names):
        values = measurements[k]
        jitter = [((j * 37) % 11 - 5) / 40 for j in range(len(values))]  # spread the dots over the row
        ax.plot(values, [i + d for d in jitter], linestyle="none", marker="o", markersize=3.5,
                color=colours[i % len(colours)], label="one measurement" if i == 0 else "_nolegend_")
        ax.text(max(values) + top * 0.02, i, f"median {meds[i]:.2f} ms", va="center", ha="left", fontsize=FONT_SMALL,
                color=INK)
    ax.set_yticks(list(rows), [f"{k} (n={len(measurements[k])})" for k in names])
    ax.set_ylim(len(names) - 0.5, -0.5)
    ax.set_xlim(0, top * 1.3)
    ax.set_xlabel("round trip (ms)")
    ax.tick_params(axis="y", length=0)
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", bbox_to_anchor=(0.5, 0.02 / height), ncol=2, frameon=False,
               fontsize=FONT_SMALL)
    fig.suptitle(title, fontsize=FONT_TITLE, y=1 - 0.08 / height, va="top")
    return fig
