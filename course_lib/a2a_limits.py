"""Limits for an A2A server that strangers can reach: bounded input, bounded memory, errors by the spec.

The ``a2a-sdk`` gives the protocol; a server still has to decide how much it accepts and keeps.
This module is the kit's answer, applied to every agent :func:`course_lib.a2a_agents.build_agent_app`
builds:

* :class:`LimitsMiddleware` (ASGI, in front of the SDK's routes): a body over
  :attr:`Limits.max_body_bytes` is refused with HTTP 413 before it is read to the end; JSON nested
  deeper than :attr:`Limits.max_json_depth` is refused (JSON-RPC ``-32600``, REST 400) before the
  SDK parses it; a JSON-RPC **notification** (a valid request without ``id``) gets no response body
  (HTTP 204: JSON-RPC 2.0 §4.1 says the server MUST NOT reply); an unknown ``ListTasks`` status
  filter is ``-32602`` (REST 400) instead of being read as "no filter";
* :class:`CourseJsonRpcDispatcher`: the SDK's JSON-RPC dispatcher, except that an error of a
  streaming method (``SendStreamingMessage``, ``SubscribeToTask``) comes back as an event of an
  event stream, which is what a client that asked for a stream reads (A2A 1.0 §3.1.6, §9.4);
* :class:`BoundedTaskStore`: the SDK's in-memory task store holding at most
  :attr:`Limits.max_tasks` tasks (finished ones are forgotten first, oldest first) and at most
  :attr:`Limits.max_history` messages per task;
* :func:`truncate_logs`: every log line of the SDK and of the kit's agents cut to
  :attr:`Limits.max_log_chars` characters, so one huge request cannot fill a disk.

Taught in lesson 11 (what an agent on a network needs) and used by every A2A server of the kit.
Sources: JSON-RPC 2.0 §4-§5; A2A 1.0 specification §3 (operations), §9 (JSON-RPC binding).
"""
from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, AsyncGenerator, Awaitable, Callable

from a2a.server.context import ServerCallContext
from a2a.server.jsonrpc_models import JSONParseError
from a2a.server.request_handlers.response_helpers import build_error_response
from a2a.server.routes.jsonrpc_dispatcher import JsonRpcDispatcher
from a2a.server.tasks import InMemoryTaskStore
from a2a.server.tasks.task_store import TaskStore
from a2a.types import ListTasksRequest, ListTasksResponse, Task, TaskState
from a2a.utils.error_handlers import build_rest_error_payload
from a2a.utils.errors import A2AError, InvalidParamsError, InvalidRequestError
from starlette.routing import Route

from .a2a_states import TERMINAL, state_of
from .asgi_replay import replaying


@dataclass(frozen=True)
class Limits:
    """How much an A2A server accepts and keeps.

    Attributes:
        max_body_bytes: the largest request body, in bytes (4 MiB: a text message never needs more; files
            belong in URLs, not inline bytes).
        max_json_depth: the deepest nesting of objects and arrays in a request (A2A messages need < 10).
        max_tasks: tasks kept in memory; past it, finished tasks are forgotten, oldest first.
        max_history: messages kept in one task's history (the oldest are dropped).
        max_log_chars: characters of one log line.
    """

    max_body_bytes: int = 4 * 1024 * 1024
    max_json_depth: int = 32
    max_tasks: int = 1000
    max_history: int = 100
    max_log_chars: int = 2000


DEFAULT_LIMITS = Limits()


def json_depth(value: Any, limit: int | None = None) -> int:
    """How deeply ``value`` nests dicts and lists (a scalar is 0, ``{"a": [1]}`` is 2).

    Iterative, so a value nested 100 000 levels deep is measured without recursion. With ``limit``
    it stops as soon as the depth passes ``limit`` and returns ``limit + 1``.

    Example:
        >>> json_depth({"message": {"parts": [{"text": "hi"}]}})
        4
    """
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if limit is not None and deepest > limit:
            return limit + 1
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return deepest


_STATE_NAMES = frozenset(TaskState.keys()) - {"TASK_STATE_UNSPECIFIED"}
_STATE_NUMBERS = frozenset(TaskState.values()) - {0}


def valid_state_filter(value: Any) -> bool:
    """True when ``value`` names a task state as ``ListTasks`` accepts it (``"TASK_STATE_WORKING"`` or its
    number); ``""``/absent means no filter and is valid too."""
    if value in (None, "", 0, "TASK_STATE_UNSPECIFIED"):
        return True
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value in _STATE_NUMBERS
    return isinstance(value, str) and value in _STATE_NAMES


def _jsonrpc_error(code_error: A2AError, id: Any = None) -> bytes:
    return json.dumps(build_error_response(id if isinstance(id, (str, int)) and not isinstance(id, bool) else None,
                                           code_error)).encode()


class LimitsMiddleware:
    """ASGI middleware in front of an A2A app: size, depth, notifications and ``ListTasks`` filters.

    Args:
        app: the Starlette app with the SDK's routes.
        limits: the :class:`Limits`.
        jsonrpc_paths: the paths of JSON-RPC endpoints (their errors are JSON-RPC error objects).
        rest_prefix: the path prefix of the HTTP+JSON binding (its errors are ``{"error": {...}}`` bodies;
            ``""`` when it is mounted at the root, None when there is none).

    Every refusal is a complete, well-formed response; nothing the SDK would do is skipped otherwise.
    """

    def __init__(self, app: Any, limits: Limits = DEFAULT_LIMITS, *, jsonrpc_paths: tuple[str, ...] = (),
                 rest_prefix: str | None = None) -> None:
        self.app, self.limits = app, limits
        self.jsonrpc_paths = {p.rstrip("/") or "/" for p in jsonrpc_paths}
        self.rest_prefix = None if rest_prefix is None else rest_prefix.rstrip("/")  # "" = at the root

    def _kind(self, path: str) -> str | None:
        if (path.rstrip("/") or "/") in self.jsonrpc_paths:
            return "jsonrpc"
        prefix = self.rest_prefix
        if prefix is not None and (prefix == "" or path == prefix or path.startswith(prefix + "/")):
            return "rest"
        return None

    async def __call__(self, scope: dict, receive: Callable[[], Awaitable[dict]], send: Callable) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        kind = self._kind(scope.get("path", ""))
        if kind == "rest" and scope["method"] == "GET" and scope["path"].endswith("/tasks"):
            from urllib.parse import parse_qs

            status = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("status", [""])[0]
            if not valid_state_filter(status):
                return await self._rest_error(send, 400, InvalidParamsError(message=_status_message(status)))
        if kind is None or scope["method"] != "POST":
            return await self.app(scope, receive, send)

        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limits.max_body_bytes:
            return await self._too_large(kind, send)
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limits.max_body_bytes:
                return await self._too_large(kind, send)
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        body = b"".join(chunks)

        refusal = self._check(kind, body)
        if refusal is not None:
            status, payload = refusal
            return await self._respond(send, status, payload)

        await self.app(scope, replaying(body, receive), send)

    def _check(self, kind: str, body: bytes) -> tuple[int, bytes | None] | None:
        """``(status, body)`` of a refusal, or None to let the SDK handle the request."""
        try:
            text = body.decode("utf-8")  # RFC 8259 §8.1: JSON between systems is UTF-8 (json.loads would guess)
        except UnicodeDecodeError:
            if kind == "rest":
                return 400, json.dumps(build_rest_error_payload(InvalidRequestError(message=_NOT_UTF8))).encode()
            return 200, json.dumps(build_error_response(None, JSONParseError(message=_NOT_UTF8))).encode()
        try:
            value = json.loads(text)
        except RecursionError:
            value = _TOO_DEEP
        except ValueError:
            return None  # the SDK answers -32700 Parse error (or REST 400) itself
        too_deep = value is _TOO_DEEP or json_depth(value, self.limits.max_json_depth) > self.limits.max_json_depth
        message = f"JSON nested deeper than {self.limits.max_json_depth} levels"
        if kind == "rest":
            if too_deep:
                return 400, json.dumps(build_rest_error_payload(InvalidRequestError(message=message))).encode()
            return None
        request_id = value.get("id") if isinstance(value, dict) else None
        if too_deep:
            return 200, _jsonrpc_error(InvalidRequestError(message=message), request_id)
        if not isinstance(value, dict):
            return None  # batches and bare values: the SDK's -32600
        if value.get("jsonrpc") == "2.0" and isinstance(value.get("method"), str) and "id" not in value:
            return 204, None  # a notification: no reply at all
        if value.get("method") == "ListTasks" and isinstance(value.get("params"), dict):
            status = value["params"].get("status")
            if not valid_state_filter(status):
                return 200, _jsonrpc_error(InvalidParamsError(message=_status_message(status)), request_id)
        return None

    async def _too_large(self, kind: str, send: Callable) -> None:
        message = f"Payload too large: at most {self.limits.max_body_bytes} bytes"
        if kind == "rest":
            payload = build_rest_error_payload(InvalidRequestError(message=message))
            payload["error"]["code"] = 413
            return await self._respond(send, 413, json.dumps(payload).encode())
        return await self._respond(send, 413, _jsonrpc_error(InvalidRequestError(message=message)))

    async def _rest_error(self, send: Callable, status: int, error: A2AError) -> None:
        await self._respond(send, status, json.dumps(build_rest_error_payload(error)).encode())

    @staticmethod
    async def _respond(send: Callable, status: int, payload: bytes | None) -> None:
        headers = [(b"content-type", b"application/json")] if payload is not None else []
        headers.append((b"content-length", str(len(payload or b"")).encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": payload or b""})

    def __repr__(self) -> str:
        return f"LimitsMiddleware({self.limits})"


_TOO_DEEP = object()
_NOT_UTF8 = "Parse error: the body is not UTF-8 text"


def _status_message(status: Any) -> str:
    shown = str(status)[:40]
    return f"Invalid status filter {shown!r}: use one of {', '.join(sorted(_STATE_NAMES))}"


class CourseJsonRpcDispatcher(JsonRpcDispatcher):
    """The SDK's JSON-RPC dispatcher; an error of a streaming method is sent as a stream event.

    ``a2a-sdk`` 1.3 answers ``SubscribeToTask`` on an unknown task with a plain JSON response,
    although the client asked for ``text/event-stream``. Here the same JSON-RPC error object
    arrives as the one event of an event stream (``event: error``), so a streaming client reads
    it where it reads everything else.
    """

    async def _process_streaming_request(self, request_id: Any, request_obj: Any,
                                         context: ServerCallContext) -> AsyncGenerator[dict[str, Any], None]:
        try:
            return await super()._process_streaming_request(request_id, request_obj, context)
        except A2AError as error:
            payload = build_error_response(request_id, error)  # (``error`` is unbound after the except block)

        async def one_error() -> AsyncGenerator[dict[str, Any], None]:
            yield payload

        return one_error()


def jsonrpc_routes(handler: Any, rpc_url: str) -> list[Route]:
    """``create_jsonrpc_routes`` with :class:`CourseJsonRpcDispatcher`: one ``POST rpc_url`` route."""
    dispatcher = CourseJsonRpcDispatcher(request_handler=handler)
    return [Route(path=rpc_url, endpoint=dispatcher.handle_requests, methods=["POST"])]


class BoundedTaskStore(TaskStore):
    """The SDK's ``InMemoryTaskStore`` with a bound on tasks and on each task's history.

    Args:
        limits: :attr:`Limits.max_tasks` and :attr:`Limits.max_history` apply.

    When a save makes the store hold more than ``max_tasks`` tasks, the oldest **finished** tasks
    (completed, failed, canceled, rejected) are deleted; if all are unfinished, the oldest tasks
    waiting for input are deleted; a working task is never deleted. A later ``GetTask`` on a
    forgotten task gives ``TaskNotFoundError`` (-32001), as for any unknown id.
    """

    def __init__(self, limits: Limits = DEFAULT_LIMITS) -> None:
        self.limits = limits
        self._inner = InMemoryTaskStore()
        self._order: OrderedDict[str, tuple[str, ServerCallContext]] = OrderedDict()  # id -> (state, context)
        self._lock = threading.Lock()

    async def save(self, task: Task, context: ServerCallContext) -> None:  # noqa: D102
        if len(task.history) > self.limits.max_history:
            kept = list(task.history)[-self.limits.max_history:]
            del task.history[:]
            task.history.extend(kept)
        await self._inner.save(task, context)
        with self._lock:
            self._order.pop(task.id, None)
            self._order[task.id] = (_state_name(task), context)
            victims = self._victims()
        for task_id, victim_context in victims:
            await self._inner.delete(task_id, victim_context)

    def _victims(self) -> list[tuple[str, ServerCallContext]]:
        excess = len(self._order) - self.limits.max_tasks
        if excess <= 0:  # the common case: no scan, no copy of the order (a save stays O(1))
            return []
        victims: list[tuple[str, ServerCallContext]] = []
        for wanted in (TERMINAL, frozenset({"input-required", "auth-required"})):
            for task_id, (state, context) in self._order.items():  # oldest first; stops at the excess
                if len(victims) >= excess:
                    break
                if state in wanted:
                    victims.append((task_id, context))
            for task_id, _ in victims:
                self._order.pop(task_id, None)
            if len(victims) >= excess:
                break
        return victims

    async def get(self, task_id: str, context: ServerCallContext) -> Task | None:  # noqa: D102
        return await self._inner.get(task_id, context)

    async def list(self, params: ListTasksRequest, context: ServerCallContext) -> ListTasksResponse:  # noqa: D102
        return await self._inner.list(params, context)

    async def delete(self, task_id: str, context: ServerCallContext) -> None:  # noqa: D102
        with self._lock:
            self._order.pop(task_id, None)
        await self._inner.delete(task_id, context)

    def __len__(self) -> int:
        with self._lock:
            return len(self._order)

    def __repr__(self) -> str:
        return f"BoundedTaskStore({len(self)}/{self.limits.max_tasks} tasks)"


def _state_name(task: Task) -> str:
    try:
        return state_of(task.status.state)
    except KeyError:
        return "submitted"


class TruncatingFilter(logging.Filter):
    """A logging filter that cuts each record's message to ``max_chars`` characters."""

    def __init__(self, max_chars: int) -> None:
        super().__init__()
        self.max_chars = max_chars

    def filter(self, record: logging.LogRecord) -> bool:  # noqa: D102
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not format: leave it to logging
            return True
        if len(message) > self.max_chars:
            record.msg = message[: self.max_chars] + f" …[{len(message) - self.max_chars} characters cut]"
            record.args = None
        if record.exc_info and record.exc_info[1] is not None and not record.exc_text:
            text = _FORMATTER.formatException(record.exc_info)
            if len(text) > self.max_chars:  # the last line repeats the exception's text, which may hold the request
                record.exc_text = text[: self.max_chars] + f" …[{len(text) - self.max_chars} characters cut]"
        return True


_FORMATTER = logging.Formatter()
_FILTERED: set[str] = set()


def truncate_logs(limits: Limits = DEFAULT_LIMITS, prefixes: tuple[str, ...] = ("a2a", "course_lib")) -> int:
    """Cut every log line of the loggers under ``prefixes`` to :attr:`Limits.max_log_chars` characters.

    Tracebacks are cut the same way: a request's content never reaches a log file whole. Idempotent.

    Returns:
        How many loggers got the filter on this call.
    """
    names = [n for n in list(logging.root.manager.loggerDict) if n.split(".")[0] in prefixes]
    added = 0
    for name in names + list(prefixes):
        if name in _FILTERED:
            continue
        logging.getLogger(name).addFilter(TruncatingFilter(limits.max_log_chars))
        _FILTERED.add(name)
        added += 1
    return added


__all__ = ["BoundedTaskStore", "CourseJsonRpcDispatcher", "DEFAULT_LIMITS", "Limits", "LimitsMiddleware",
           "TruncatingFilter", "json_depth", "jsonrpc_routes", "truncate_logs", "valid_state_filter"]
