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
import logging
import os
import re
import sys
import tempfile
import time
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable

import anyio

from .asgi_replay import replaying

logger = logging.getLogger(__name__)

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


# -- what every transport checks before the SDK sees a message (sans-IO) ----------------------

#: JSON nested deeper than this many arrays/objects is a parse error (-32700). It is the limit of
#: pydantic-core's JSON parser, which the SDK itself uses over streamable HTTP; stdio and TCP parse with the
#: same parser, so every transport draws the line at the same depth (a 1000-level line no longer kills a
#: stdio server).
MAX_JSON_DEPTH = 200

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = -32700, -32600, -32602


def error_reply(code: int, message: str, id: Any = None) -> dict[str, Any]:
    """A JSON-RPC 2.0 error response object (``id`` None when the request's id could not be read)."""
    return {"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}


def _is_id(value: Any) -> bool:
    # MCP (basic/index "Requests"): "a string or integer ID", and "MUST NOT be null". bool is an int in Python.
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _json_type(value: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null",
            int: "an integer", float: "a fractional number"}.get(type(value), type(value).__name__)


def decode_json(raw: bytes) -> tuple[Any, dict[str, Any] | None]:
    """Parse one received message: ``(value, None)``, or ``(None, -32700 error reply)``.

    UTF-8 only (whatever the locale); nesting deeper than :data:`MAX_JSON_DEPTH` and
    lone surrogates (``"\\ud800"``) are parse errors, never a crash.
    """
    import pydantic_core

    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return None, error_reply(PARSE_ERROR, "Parse error: the message is not valid UTF-8")
    try:
        return pydantic_core.from_json(raw), None
    except ValueError as e:
        if "recursion limit" in str(e):
            return None, error_reply(PARSE_ERROR, f"Parse error: JSON nested deeper than {MAX_JSON_DEPTH} levels")
        return None, error_reply(PARSE_ERROR, "Parse error: the message is not valid JSON")


def check_message(data: Any) -> dict[str, Any] | None:
    """The error reply a parsed message gets before the SDK sees it, or None when it is well formed.

    JSON-RPC 2.0 (§4, §5, §6) as MCP narrows it (basic/index "Messages"):

    * an array → -32600: MCP removed batching in revision 2025-06-18; anything but an
      object (``null``, a number, a string) → -32600;
    * ``"jsonrpc"`` must be ``"2.0"``; ``"method"`` a string; ``"params"`` an object (an array in a
      request → -32602, since every MCP method takes named params);
    * an ``"id"`` that is present must be a string or an integer: ``null``, ``1.5``, ``true``, ``{}``
      → -32600 with ``"id": null`` (the SDK would take such a message for a notification and
      never answer);
    * a response (no ``"method"``) needs a valid id and exactly one of ``result``/``error``.

    Returns:
        An error response object (its ``id`` echoes the request's when that id is valid), or None.
        A well-formed notification is never answered, by the caller, whatever it holds.
    """
    if isinstance(data, list):
        return error_reply(INVALID_REQUEST, "Invalid Request: MCP does not accept JSON-RPC batches "
                                            "(removed in revision 2025-06-18); send one object per message")
    if not isinstance(data, dict):
        return error_reply(INVALID_REQUEST, f"Invalid Request: a message must be a JSON object, not {_json_type(data)}")
    has_id = "id" in data
    echo = data["id"] if has_id and _is_id(data["id"]) else None
    if data.get("jsonrpc") != "2.0":
        return error_reply(INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be exactly "2.0"', echo)
    if "method" in data:
        if not isinstance(data["method"], str):
            return error_reply(INVALID_REQUEST, 'Invalid Request: "method" must be a string', echo)
        if has_id and echo is None:
            return error_reply(INVALID_REQUEST, 'Invalid Request: "id" must be a string or an integer, '
                                                f"not {_json_type(data['id'])} (MCP never allows a null id)")
        params = data.get("params", {})
        if params is not None and not isinstance(params, (dict, list)):
            return error_reply(INVALID_REQUEST, 'Invalid Request: "params" must be an object', echo)
        if isinstance(params, list) and has_id:
            return error_reply(INVALID_PARAMS, 'Invalid params: MCP methods take "params" as an object, not an array',
                               echo)
        return None
    if not ("result" in data) ^ ("error" in data):
        return error_reply(INVALID_REQUEST, 'Invalid Request: not a request (no "method") and not a response '
                                            '(exactly one of "result" or "error")', echo)
    if echo is None and not ("error" in data and data.get("id", 0) is None):
        return error_reply(INVALID_REQUEST, 'Invalid Request: a response needs the "id" of the request it answers')
    return None


def is_notification(data: Any) -> bool:
    """True for a JSON-RPC notification: an object with a ``method`` and no ``id`` member."""
    return isinstance(data, dict) and "method" in data and "id" not in data


# -- the server side of stdio (and any line-based stream), with strict framing ----------------

def _error_line(reply: dict[str, Any]) -> bytes:
    return (json.dumps(reply) + "\n").encode()


def parse_line(line: bytes) -> tuple[Any, bytes | None]:
    """Frame one received line: ``(SessionMessage, None)``, ``(None, error reply line)`` or ``(None, None)``.

    The rules: at most :data:`MAX_LINE_BYTES` (else -32600 with the request's id, so that one
    call fails and the session goes on), then :func:`decode_json` (-32700) and
    :func:`check_message` (-32600/-32602). ``(None, None)`` means "drop it silently": a
    notification the SDK cannot take (JSON-RPC §4.1: a notification is never answered).
    """
    from mcp.shared.message import SessionMessage

    if len(line) > MAX_LINE_BYTES:
        # Answer the request it carried (when it can be read) so the caller fails at once, not at its timeout.
        big, _ = decode_json(line)
        id = big.get("id") if isinstance(big, dict) and _is_id(big.get("id")) else None
        return None, _error_line(error_reply(INVALID_REQUEST,
                                             f"message larger than MAX_LINE_BYTES ({MAX_LINE_BYTES} bytes)", id))
    data, error = decode_json(line)
    if error is None:
        message, error = sdk_message(data)
        if message is not None:
            return SessionMessage(message), None
    return None, (None if error is None else _error_line(error))


def sdk_message(data: Any) -> tuple[Any, dict[str, Any] | None]:
    """A parsed message as the SDK's ``JSONRPCMessage``: ``(message, None)``, ``(None, error reply)``,
    or ``(None, None)`` for a notification the SDK cannot take (dropped: a notification is never answered).

    :func:`check_message` first (the spec's codes and plain sentences), then the SDK's own model, whose
    failures would otherwise reach the peer as -32602 with pydantic's internals.
    """
    from mcp import types

    error = check_message(data)
    if error is not None:
        return None, error
    try:
        return types.jsonrpc_message_adapter.validate_python(data, by_name=False), None
    except ValueError:
        if is_notification(data):
            logger.info("dropped a malformed notification %r", str(data.get("method"))[:80])
            return None, None
        return None, error_reply(INVALID_REQUEST, "Invalid Request: not a valid MCP message",
                                 data.get("id") if _is_id(data.get("id")) else None)


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
    write_lock = anyio.Lock()
    raw_send = send_bytes

    async def send_bytes(data: bytes) -> None:  # type: ignore[no-redef]
        async with write_lock:  # error replies (reader) and SDK replies (writer) never interleave
            await raw_send(data)

    async def reader() -> None:
        async with read_send:
            while line := await receive_line():
                if not line.strip():
                    continue
                message, error = parse_line(line.rstrip(b"\r\n"))
                if error is not None:
                    await send_bytes(error)
                elif message is not None:
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

    def write_all(data: bytes) -> None:
        view = memoryview(data)
        while view:  # a raw write may take part of a big message (a pipe holds 64 kB)
            view = view[wire_out.write(view):]

    async def send_bytes(data: bytes) -> None:
        await anyio.to_thread.run_sync(write_all, data)

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


#: Idle seconds after which a streamable-HTTP session of a course server is closed (the SDK's default is
#: 30 minutes). A connected ``mcp.Client`` keeps its GET stream open, so only abandoned sessions expire.
SESSION_IDLE_TIMEOUT = 600.0
#: At most this many open sessions per course server (about 42 kB each): a new one beyond gets HTTP 503.
MAX_SESSIONS = 500


class StrictJSONRPC:
    """ASGI wrapper around the SDK's streamable-HTTP handler: JSON-RPC checked as on stdio.

    For each POST, after the SDK's own Host/Origin/Content-Type checks (so a DNS-rebinding
    attempt still gets 421/403 first):

    * the body is read with a cap (``max_body_size``, the SDK's ``max_request_body_size``: 413);
      a client that disconnects half-way logs one line, not a ``ClientDisconnect`` traceback;
    * :func:`decode_json` and :func:`check_message` run on it: a batch, ``null``, an invalid id
      (``null``, ``1.5``, ``true``...) get HTTP 400 with JSON-RPC -32600 and ``"id": null``
      (the SDK answers 202 with no body, or -32602 with pydantic's internals), too deep JSON
      -32700;
    * everything else goes on to the SDK unchanged (the body replayed).

    :meth:`CourseMCPServer.streamable_http_app <course_lib.mcp_servers.CourseMCPServer>` installs it
    with :func:`install_strict_http`.
    """

    def __init__(self, app: Any, *, max_body_size: int, security: Any = None) -> None:
        self.app = app
        self.max_body_size = max_body_size
        self.security = security

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            return await self.app(scope, receive, send)
        if self.security is not None:
            from starlette.requests import Request

            refusal = await self.security.validate_request(Request(scope), is_post=True)
            if refusal is not None:
                return await refusal(scope, receive, send)
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                logger.warning("MCP over HTTP: the client disconnected after %d bytes of its request body; "
                               "nothing was processed", size)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_size:
                return await _send_json(send, 413, error_reply(
                    INVALID_REQUEST, f"Invalid Request: body larger than {self.max_body_size} bytes"))
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        data, error = decode_json(body)
        if error is None:
            message, error = sdk_message(data)
            if message is None and error is None:  # a malformed notification: accepted, never answered
                return await send_accepted(send)
        if error is not None:
            return await _send_json(send, 400, error)
        await self.app(scope, replaying(body, receive), send)


async def send_accepted(send: Any) -> None:
    """HTTP 202 with no body: what streamable HTTP answers to a notification."""
    await send({"type": "http.response.start", "status": 202, "headers": [(b"content-length", b"0")]})
    await send({"type": "http.response.body", "body": b""})


async def _send_json(send: Any, status: int, body: dict[str, Any]) -> None:
    data = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})


def install_strict_http(session_manager: Any) -> None:
    """Put :class:`StrictJSONRPC` in front of an SDK ``StreamableHTTPSessionManager`` (inside routing and auth)."""
    from mcp.server.transport_security import TransportSecurityMiddleware

    settings = session_manager.security_settings
    session_manager.asgi_app = StrictJSONRPC(
        session_manager.asgi_app, max_body_size=session_manager.max_request_body_size,
        security=TransportSecurityMiddleware(settings) if settings is not None else None)


def start_http(server: Any, name: str = "mcp-http", *, stateless: bool = False, json_response: bool = False,
               **security: Any) -> Any:
    """Serve ``server`` over streamable HTTP on 127.0.0.1 (a free port); re-running replaces it.

    Args:
        server: the ``MCPServer`` (a :class:`~course_lib.mcp_servers.CourseMCPServer` gets strict
            JSON-RPC checks and expiring sessions: :class:`StrictJSONRPC`, :data:`SESSION_IDLE_TIMEOUT`).
        name: the ``course_lib.servers`` registry name (one server per name).
        stateless: no ``Mcp-Session-Id`` in the handshake era (every request stands alone).
        json_response: answer handshake-era requests with ``application/json`` instead of SSE.
        security: ``transport_security=TransportSecuritySettings(...)`` behind a proxy.

    Returns:
        The ``LocalServer``; the MCP endpoint is ``handle.url + "/mcp"``.
    """
    from .servers import start_server

    app = server.streamable_http_app(stateless_http=stateless, json_response=json_response, **security)
    if not isinstance(server.session_manager.asgi_app, StrictJSONRPC):  # a plain MCPServer: the same checks
        install_strict_http(server.session_manager)
    return start_server(name, app)  # a fresh app each time (SDK-NOTES §1.6)


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


def latency_chart(measurements: dict[str, list[float]], *, title: str | None = None) -> Any:
    """Round-trip times in ms per transport: every measurement as a dot, the median as a bar with its value.

    No error bars to decode: the dots *are* the spread (n per transport is in each label), the bar and the
    number beside it the median; the legend says which is which. ``title`` defaults to "tools/call round
    trip"; the labels are in the learner's language, the text fallback's names padded by display width.
    """
    from statistics import median

    from .diagrams import FONT_SMALL, FONT_TITLE, INK, MAX_WIDTH, OKABE_ITO, figure
    from .i18n import _
    from .text_table import pad

    names = list(measurements)
    meds = [median(measurements[k]) for k in names]
    text = "\n".join(pad(k, 18) + " " + _("median {median} ms  (min {min:.2f}, max {max:.2f}, n={n})").format(
        median=f"{median(v):7.2f}", min=min(v), max=max(v), n=len(v)) for k, v in measurements.items())
    height = 1.4 + 0.55 * max(1, len(names))
    fig = figure(MAX_WIDTH, height, text=text)
    ax = fig.add_axes((2.3 / MAX_WIDTH, 0.95 / height, (MAX_WIDTH - 3.2) / MAX_WIDTH, (height - 1.5) / height))
    colours = [OKABE_ITO[c] for c in ("green", "blue", "purple", "orange", "sky", "vermillion")]
    top = max(max(v) for v in measurements.values()) if measurements else 1.0
    rows = range(len(names))
    ax.barh(rows, meds, height=0.55, color=[colours[i % len(colours)] for i in rows], alpha=0.35, label=_("median"))
    for i, k in enumerate(names):
        values = measurements[k]
        jitter = [((j * 37) % 11 - 5) / 40 for j in range(len(values))]  # spread the dots over the row
        ax.plot(values, [i + d for d in jitter], linestyle="none", marker="o", markersize=3.5,
                color=colours[i % len(colours)], label=_("one measurement") if i == 0 else "_nolegend_")
        ax.text(max(values) + top * 0.02, i, _("median {ms:.2f} ms").format(ms=meds[i]), va="center", ha="left", fontsize=FONT_SMALL,
                color=INK)
    ax.set_yticks(list(rows), [f"{k} (n={len(measurements[k])})" for k in names])
    ax.set_ylim(len(names) - 0.5, -0.5)
    ax.set_xlim(0, top * 1.3)
    ax.set_xlabel(_("round trip (ms)"))
    ax.tick_params(axis="y", length=0)
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", bbox_to_anchor=(0.5, 0.02 / height), ncol=2, frameon=False,
               fontsize=FONT_SMALL)
    fig.suptitle(title or _("tools/call round trip"), fontsize=FONT_TITLE, y=1 - 0.08 / height, va="top")
    return fig
