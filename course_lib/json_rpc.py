"""JSON-RPC 2.0, built by hand: a sans-IO dispatcher and two thin transports.

JSON-RPC 2.0 (https://www.jsonrpc.org/specification) defines four JSON shapes (request,
response, notification, error) and batches, and says nothing about how bytes travel. So
the protocol logic here is *sans-IO*: :meth:`Dispatcher.handle` takes the text of one
message and returns the text of the reply, or ``None`` when the spec says "no reply"
(a notification, a batch of notifications). Each transport is then a few lines around it:

* :func:`serve_stdio` / :class:`StdioClient`: newline-delimited JSON over a child process's
  stdin/stdout, the way MCP's stdio transport frames messages (UTF-8 bytes whatever the
  locale; an undecodable line gets a -32700 reply, never silence);
* :func:`asgi_app` / :func:`http_call`: one HTTP POST per message; a reply travels as
  ``200 application/json``, "no reply" as ``204 No Content`` with an empty body.

Deliberate shortcuts: handlers are synchronous functions (the lesson is about the
protocol, not concurrency); batch entries run in order, one after the other.

Spec sections implemented: §4 request object (params by position or by name), §4.1
notifications, §5 response object, §5.1 error object and codes, §6 batch, §7 examples
(:data:`SPEC_EXAMPLES`). Seed 003 ("协议 JSON-RPC 2.0"). Taught in lesson 07.
"""
from __future__ import annotations

import inspect
import json
import logging
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

try:
    from .i18n import N_
except ImportError:  # run as a script (the stdio server, run_path): the titles are only marked, never shown
    def N_(message: str) -> str:
        """Mark ``message`` for the catalogs; the text itself (course_lib.i18n.N_ without the package)."""
        return message

#: The standard error codes of spec §5.1 (-32000 to -32099 are left to servers).
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SERVER_ERROR = -32000

ERROR_MESSAGES = {
    PARSE_ERROR: "Parse error",
    INVALID_REQUEST: "Invalid Request",
    METHOD_NOT_FOUND: "Method not found",
    INVALID_PARAMS: "Invalid params",
    INTERNAL_ERROR: "Internal error",
    SERVER_ERROR: "Server error",
}

#: A message (or a reply) bigger than this is refused with an error; the connection stays usable.
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
#: JSON nested deeper than this is a parse error (-32700), never a ``RecursionError`` that kills the server.
MAX_DEPTH = 100

_NO_ID = object()  # "the message has no id member": a notification
logger = logging.getLogger(__name__)


class JsonRpcError(Exception):
    """Raise inside a method handler to reply with a JSON-RPC error object.

    Args:
        code: an integer error code (-32602 for bad params, -32000..-32099 for server errors,
            any other integer for application errors).
        message: a short sentence (spec §5.1: "SHOULD be limited to a concise single sentence").
        data: optional extra information (any JSON value).
    """

    def __init__(self, code: int, message: str | None = None, data: Any = None) -> None:
        super().__init__(message or ERROR_MESSAGES.get(code, "Error"))
        self.code = code
        self.message = message or ERROR_MESSAGES.get(code, "Error")
        self.data = data

    def to_dict(self) -> dict[str, Any]:
        """The spec's error object: ``{"code", "message"[, "data"]}``."""
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error

    def __repr__(self) -> str:
        return f"JsonRpcError({self.code}, {self.message!r})"


def error_response(code: int, id: Any = None, message: str | None = None, data: Any = None) -> dict[str, Any]:
    """A response object carrying an error (``id`` is ``None`` when it could not be read)."""
    return {"jsonrpc": "2.0", "error": JsonRpcError(code, message, data).to_dict(), "id": id}


def _valid_id(value: Any) -> bool:
    # Spec §4: "String, Number, or NULL". bool is an int subclass in Python: exclude it.
    return value is None or isinstance(value, str) or (isinstance(value, (int, float)) and not isinstance(value, bool))


@dataclass
class Dispatcher:
    """A JSON-RPC 2.0 server without I/O: message in, reply (or nothing) out.

    Register methods with :meth:`method` (a decorator) or :meth:`add`; then feed messages
    to :meth:`handle` (text or bytes) or :meth:`handle_object` (already-parsed JSON).

    Example:
        >>> rpc = Dispatcher()
        >>> @rpc.method()
        ... def subtract(minuend: int, subtrahend: int) -> int:
        ...     return minuend - subtrahend
        >>> rpc.handle('{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}')
        '{"jsonrpc": "2.0", "result": 19, "id": 1}'
        >>> rpc.handle('{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23]}') is None
        True

    Attributes:
        methods: name -> handler function.
        log: every (message, reply) pair handled, for tracing (``None`` reply = no reply).
    """

    methods: dict[str, Callable[..., Any]] = field(default_factory=dict)
    log: list[tuple[Any, Any]] = field(default_factory=list, repr=False)

    def method(self, name: str | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator: register the function as method ``name`` (default: its own name)."""
        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            self.add(fn, name)
            return fn
        return register

    def add(self, fn: Callable[..., Any], name: str | None = None) -> None:
        """Register ``fn`` as method ``name``. Names starting with ``rpc.`` are reserved (spec §4).

        Raises:
            ValueError: the name is reserved or already taken.
        """
        name = name or fn.__name__
        if name.startswith("rpc."):
            raise ValueError(f"method names starting with 'rpc.' are reserved by the spec: {name!r}")
        if name in self.methods:
            raise ValueError(f"method {name!r} is already registered")
        self.methods[name] = fn

    # -- the sans-IO core ------------------------------------------------------------

    def handle(self, message: str | bytes) -> str | None:
        """Handle the text of one message (a request, a notification or a batch).

        Args:
            message: JSON text, or UTF-8 bytes (invalid UTF-8 is a parse error, -32700).

        Returns:
            The JSON text of the reply, or ``None`` when nothing must be sent back.
        """
        if len(message) > MAX_MESSAGE_BYTES:
            reply: Any = error_response(INVALID_REQUEST, message=f"message larger than MAX_MESSAGE_BYTES "
                                                                 f"({MAX_MESSAGE_BYTES} bytes)")
            self.log.append((message[:200], reply))
            return _dumps(reply)
        try:
            text = message.decode("utf-8") if isinstance(message, (bytes, bytearray)) else message
            parsed = json.loads(text, parse_constant=_not_json)  # NaN and Infinity are not JSON
            problem = _value_problem(parsed)
        except RecursionError:
            problem = f"nested deeper than MAX_DEPTH ({MAX_DEPTH} levels)"
        except (UnicodeDecodeError, ValueError):
            problem = "not valid JSON"
        if problem is not None:
            reply = error_response(PARSE_ERROR, data=problem)
            self.log.append((message, reply))
            return _dumps(reply)
        reply = self.handle_object(parsed)
        return None if reply is None else _dumps(reply)

    def handle_object(self, message: Any) -> dict | list | None:
        """Like :meth:`handle` for an already-parsed JSON value; returns a JSON-able value or None."""
        if isinstance(message, list):
            reply: Any = self._batch(message)
        else:
            reply = self.handle_one(message)
        self.log.append((message, reply))
        return reply

    def _batch(self, batch: list) -> list | dict | None:
        if not batch:  # spec §6: an empty array is one Invalid Request, not an empty array
            return error_response(INVALID_REQUEST)
        replies = [r for r in (self.handle_one(m) for m in batch) if r is not None]
        return replies or None  # all notifications: "the server MUST NOT return an empty Array"

    def handle_one(self, message: Any) -> dict | None:
        """Handle one parsed, non-batch message: the reply object, or None for a notification."""
        if not isinstance(message, dict):
            return error_response(INVALID_REQUEST)
        id = message.get("id", _NO_ID)
        reply_id = id if id is not _NO_ID and _valid_id(id) else None
        if (message.get("jsonrpc") != "2.0" or not isinstance(message.get("method"), str)
                or not _valid_id(message.get("id"))
                or not isinstance(message.get("params", []), (list, dict))):
            return error_response(INVALID_REQUEST, reply_id)
        is_notification = id is _NO_ID  # id: null is a request (discouraged, but answered)
        try:
            result = self._call(message["method"], message.get("params", []))
        except JsonRpcError as e:
            reply = {"jsonrpc": "2.0", "error": e.to_dict(), "id": reply_id}
        except Exception as e:  # a bug in a handler: say so, without leaking a traceback
            reply = error_response(INTERNAL_ERROR, reply_id, data=type(e).__name__)
        else:
            reply = {"jsonrpc": "2.0", "result": result, "id": reply_id}
        if is_notification:  # spec §4.1: never reply to a notification, not even with an error
            return None
        if len(_dumps(reply).encode("utf-8")) > MAX_MESSAGE_BYTES:
            return error_response(SERVER_ERROR, reply_id, f"reply larger than MAX_MESSAGE_BYTES ({MAX_MESSAGE_BYTES})")
        return reply

    def _call(self, name: str, params: list | dict) -> Any:
        fn = self.methods.get(name)
        if fn is None:
            raise JsonRpcError(METHOD_NOT_FOUND, data={"method": name})
        try:
            bound = inspect.signature(fn).bind(*params) if isinstance(params, list) else \
                inspect.signature(fn).bind(**params)
        except TypeError as e:  # wrong number or names of params: the caller's fault
            raise JsonRpcError(INVALID_PARAMS, data=str(e)) from None
        return fn(*bound.args, **bound.kwargs)

    def __repr__(self) -> str:
        return f"Dispatcher(methods={sorted(self.methods)})"


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False)


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def _value_problem(value: Any) -> str | None:
    """Why a parsed value cannot be handled: too deep, or text that is not Unicode; None if fine (linear)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (dict, list)):
            if depth > MAX_DEPTH:
                return f"nested deeper than MAX_DEPTH ({MAX_DEPTH} levels)"
            items = [*node.keys(), *node.values()] if isinstance(node, dict) else node
            stack.extend((item, depth + 1) for item in items if isinstance(item, (dict, list, str)))
        elif isinstance(node, str) and not node.isascii() and _SURROGATE.search(node):
            return "a string holds a lone surrogate (\\ud800...), which is not Unicode text"
    return None


_SURROGATE = re.compile("[\ud800-\udfff]")


# -- the spec's own examples (§7) ------------------------------------------------------

def spec_dispatcher() -> Dispatcher:
    """A dispatcher with the methods the spec's examples call (``subtract``, ``sum``...).

    ``update``, ``notify_hello`` and ``notify_sum`` are only ever sent as notifications in
    the examples; ``foobar`` is deliberately missing (the "method not found" example).
    """
    rpc = Dispatcher()

    @rpc.method()
    def subtract(minuend: float, subtrahend: float) -> float:
        return minuend - subtrahend

    @rpc.method("sum")
    def sum_(*numbers: float) -> float:
        return sum(numbers)

    @rpc.method()
    def get_data() -> list:
        return ["hello", 5]

    for name in ("update", "notify_hello", "notify_sum"):
        rpc.add(lambda *args: None, name)
    return rpc


#: Spec §7, verbatim: (title, what is sent, what must come back; None = nothing at all). The titles are the
#: spec's English, marked for translation: exercise 07's check names them in the learner's language.
SPEC_EXAMPLES: list[tuple[str, str, Any]] = [
    (N_("rpc call with positional parameters"),
     '{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}',
     {"jsonrpc": "2.0", "result": 19, "id": 1}),
    (N_("rpc call with positional parameters (2)"),
     '{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}',
     {"jsonrpc": "2.0", "result": -19, "id": 2}),
    (N_("rpc call with named parameters"),
     '{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}',
     {"jsonrpc": "2.0", "result": 19, "id": 3}),
    (N_("rpc call with named parameters (2)"),
     '{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}',
     {"jsonrpc": "2.0", "result": 19, "id": 4}),
    (N_("a notification"),
     '{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}', None),
    (N_("a notification (2)"), '{"jsonrpc": "2.0", "method": "foobar"}', None),
    (N_("rpc call of non-existent method"),
     '{"jsonrpc": "2.0", "method": "foobar", "id": "1"}',
     {"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "1"}),
    (N_("rpc call with invalid JSON"),
     '{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]',
     {"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": None}),
    (N_("rpc call with invalid Request object"),
     '{"jsonrpc": "2.0", "method": 1, "params": "bar"}',
     {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": None}),
    (N_("rpc call Batch, invalid JSON"),
     '[\n  {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},\n  {"jsonrpc": "2.0", "method"\n]',
     {"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": None}),
    (N_("rpc call with an empty Array"), "[]",
     {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": None}),
    (N_("rpc call with an invalid Batch (but not empty)"), "[1]",
     [{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": None}]),
    (N_("rpc call with invalid Batch"), "[1,2,3]",
     [{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": None}] * 3),
    (N_("rpc call Batch"),
     '[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},'
     ' {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},'
     ' {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},'
     ' {"foo": "boo"},'
     ' {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},'
     ' {"jsonrpc": "2.0", "method": "get_data", "id": "9"}]',
     [{"jsonrpc": "2.0", "result": 7, "id": "1"},
      {"jsonrpc": "2.0", "result": 19, "id": "2"},
      {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": None},
      {"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "5"},
      {"jsonrpc": "2.0", "result": ["hello", 5], "id": "9"}]),
    (N_("rpc call Batch (all notifications)"),
     '[{"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]},'
     ' {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}]', None),
]


def same_reply(got: Any, expected: Any) -> bool:
    """Compare replies as the spec does: ignore the optional ``data`` member of errors.

    ``got`` and ``expected`` are parsed JSON (dict, list, or None for "no reply"). Batch
    replies are compared in order (the spec allows any order; this dispatcher keeps it).
    """
    def strip(x: Any) -> Any:
        if isinstance(x, list):
            return [strip(i) for i in x]
        if isinstance(x, dict) and isinstance(x.get("error"), dict):
            return {**x, "error": {k: v for k, v in x["error"].items() if k != "data"}}
        return x
    return strip(got) == strip(expected)


def run_spec_examples(handle: Callable[[str], str | None]) -> list[tuple[str, bool, Any]]:
    """Send every :data:`SPEC_EXAMPLES` message to ``handle`` (text in, text or None out).

    Returns:
        ``(title, passed, what came back parsed)`` per example.
    """
    results = []
    for title, sent, expected in SPEC_EXAMPLES:
        raw = handle(sent)
        got = None if raw is None or raw == "" else json.loads(raw)
        results.append((title, same_reply(got, expected), got))
    return results


# -- transport 1: newline-delimited JSON over stdio pipes ------------------------------

def serve_stdio(dispatcher: Dispatcher, stdin: Any = None, stdout: Any = None) -> None:
    """Serve ``dispatcher`` on binary stdin/stdout, one JSON message per line, until EOF.

    Bytes, not text: the locale's encoding (``PYTHONIOENCODING=cp1252``...) never matters;
    a line that is not UTF-8 gets a -32700 reply. Replies never contain a raw newline
    (``json.dumps`` escapes them), which is what makes newline framing safe.
    """
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    for line in _bounded_lines(stdin, MAX_MESSAGE_BYTES):
        if not line.strip():
            continue
        reply = dispatcher.handle(line.rstrip(b"\r\n"))
        if reply is not None:
            stdout.write(reply.encode("utf-8") + b"\n")
            stdout.flush()


def _bounded_lines(stream: Any, limit: int) -> Iterable[bytes]:
    """The lines of ``stream``; one longer than ``limit`` bytes is cut to ``limit + 1`` (memory stays bounded)."""
    while line := stream.readline(limit + 1):
        if len(line) > limit and not line.endswith(b"\n"):
            while (rest := stream.readline(limit + 1)) and not rest.endswith(b"\n"):
                pass  # drop the rest of the line: the dispatcher refuses it as too large
        yield line


class StdioClient:
    """Talk newline-delimited JSON-RPC to a child process (the client half of :func:`serve_stdio`).

    Args:
        command: the server command line, e.g. :func:`stdio_server_command` ``()``.
        timeout: seconds to wait for one reply before giving up (the child is then killed).

    Use as a context manager; the child is stopped on exit. ``call`` sends a request and
    returns the parsed reply; ``notify`` sends a notification and returns nothing.
    """

    def __init__(self, command: list[str], *, timeout: float = 10.0) -> None:
        self.command = command
        self.timeout = timeout
        self.proc: subprocess.Popen | None = None
        self._next_id = 0
        self._pending = b""  # bytes read from the server and not yet returned as a reply

    def __enter__(self) -> "StdioClient":
        env = {**os.environ, "PYTHONIOENCODING": "cp1252"}  # prove the locale does not matter
        self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env, bufsize=0)
        return self

    def send_line(self, text: str | bytes) -> None:
        """Write one raw line (a message, or something broken on purpose)."""
        assert self.proc and self.proc.stdin
        data = text.encode("utf-8") if isinstance(text, str) else text
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()

    def read_reply(self) -> Any:
        """Read one reply line and parse it (``TimeoutError`` if none comes in time).

        Reads the pipe's file descriptor into a buffer of its own: two replies that arrive together
        are both kept (a buffered ``readline`` after ``select`` would hide the second one).
        """
        import selectors
        import time

        assert self.proc and self.proc.stdout
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + self.timeout
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._pending:
                if not sel.select(max(0.0, deadline - time.monotonic())):
                    raise TimeoutError(f"no reply within {self.timeout} s")
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise ConnectionError(f"the server exited (code {self.proc.poll()})")
                self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        return json.loads(line)

    def call(self, method: str, params: Any = None) -> Any:
        """Send a request with the next integer id and return the parsed reply."""
        self._next_id += 1
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "id": self._next_id}
        if params is not None:
            msg["params"] = params
        self.send_line(json.dumps(msg, ensure_ascii=False))
        return self.read_reply()

    def notify(self, method: str, params: Any = None) -> None:
        """Send a notification (no id, so no reply will come)."""
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send_line(json.dumps(msg, ensure_ascii=False))

    def __exit__(self, *exc: Any) -> None:
        if self.proc is not None:
            if self.proc.stdin:
                self.proc.stdin.close()  # EOF: the server's loop ends by itself
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
            if self.proc.stdout:
                self.proc.stdout.close()

    def __repr__(self) -> str:
        state = "not started" if self.proc is None else f"pid {self.proc.pid}"
        return f"StdioClient({' '.join(self.command[-2:])!r}, {state})"


# -- transport 2: HTTP ------------------------------------------------------------------

def asgi_app(dispatcher: Dispatcher) -> Any:
    """An ASGI app serving ``dispatcher`` at ``POST /``: 200 with the reply, 204 for none.

    Serve it with ``course_lib.servers.start_server("json-rpc", asgi_app(d))``.
    """
    from starlette.applications import Starlette
    from starlette.requests import ClientDisconnect, Request
    from starlette.responses import Response
    from starlette.routing import Route

    async def endpoint(request: Request) -> Response:
        body = b""
        try:
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_MESSAGE_BYTES:  # the dispatcher answers "too large"; stop reading
                    break
        except ClientDisconnect:  # a half-sent body: one log line, no traceback
            logger.warning("JSON-RPC over HTTP: the client disconnected after %d bytes of its request", len(body))
            return Response(status_code=400)
        reply = dispatcher.handle(body)
        if reply is None:
            return Response(status_code=204)  # a notification: no body at all
        return Response(reply, media_type="application/json")

    return Starlette(routes=[Route("/", endpoint, methods=["POST"])])


def http_call(url: str, body: str | bytes | dict | list, *, timeout: float = 10.0) -> tuple[int, Any]:
    """POST one JSON-RPC message to ``url``; returns ``(status code, parsed reply or None)``."""
    import httpx

    content = body if isinstance(body, (str, bytes)) else json.dumps(body)
    r = httpx.post(url, content=content, headers={"Content-Type": "application/json"}, timeout=timeout)
    return r.status_code, (r.json() if r.content else None)


def stdio_server_command() -> list[str]:
    """The command line that runs this module's demo server over stdio in a child process.

    It runs this file directly (standard library only), not ``-m course_lib.json_rpc``,
    so the child starts in a few milliseconds instead of importing the whole course.
    """
    return [sys.executable, "-c", "import runpy, sys; runpy.run_path(sys.argv[1], run_name='__main__')", __file__]


def _main(argv: Iterable[str] | None = None) -> None:
    """``python -m course_lib.json_rpc``: serve :func:`spec_dispatcher` over stdio."""
    rpc = spec_dispatcher()

    @rpc.method()
    def echo(text: str) -> str:
        return text

    serve_stdio(rpc)


if __name__ == "__main__":
    _main()


# -- tracing: the same Trace format every lesson uses --------------------------------------

def _describe(message: Any) -> tuple[str, str]:
    """(label, kind) of a parsed message for a trace."""
    if isinstance(message, list):
        return f"batch of {len(message)}", "request"
    if not isinstance(message, dict):
        return f"{message!r} (not an object)", "request"
    if "method" in message:
        kind = "notification" if "id" not in message else "request"
        return f"{message.get('method')}" + ("" if kind == "notification" else f" (id {json.dumps(message['id'])})"), kind
    if "error" in message:
        return f"error {message['error'].get('code')} (id {json.dumps(message.get('id'))})", "error"
    return f"result {json.dumps(message.get('result'), ensure_ascii=False)[:40]} (id {json.dumps(message.get('id'))})", \
        "response"


def traced_exchange(trace: Any, dispatcher: Dispatcher, message: str, *, client: str = "Client",
                    server: str = "Server") -> str | None:
    """Send ``message`` to ``dispatcher`` and record both directions in ``trace`` (a ``tracing.Trace``).

    Returns the reply text (or None). "No reply" is recorded as a note on the server's lane.
    """
    try:
        parsed: Any = json.loads(message)
        label, kind = _describe(parsed)
    except ValueError:
        parsed, label, kind = message, "(unparseable text)", "request"
    trace.add(client, server, label, kind=kind, layer="json-rpc", payload=parsed)
    reply = dispatcher.handle(message)
    if reply is None:
        trace.add(server, server, "no reply (notification)", kind="local", layer="json-rpc")
    else:
        body = json.loads(reply)
        if isinstance(body, list):
            label, kind = f"batch reply of {len(body)}", "response"
            if any("error" in r for r in body):
                kind = "error" if all("error" in r for r in body) else "response"
        else:
            label, kind = _describe(body)
        trace.add(server, client, label, kind=kind, layer="json-rpc", payload=body)
    return reply
