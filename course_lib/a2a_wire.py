"""A2A on the wire: record what really travels, and speak raw JSON-RPC to an agent.

Two tools for lesson 11:

* :class:`TracingTransport` wraps the ``httpx`` transport an A2A client uses (the SDK's own
  client, unchanged) and records every HTTP exchange into a :class:`~course_lib.tracing.Trace`:
  the Agent Card fetch, each JSON-RPC request with its ``method``/``params``/``id``, each
  response, and each Server-Sent Event of a stream **when it arrives**, so a timeline shows
  the real pacing of ``working`` updates (and shows that ``httpx.ASGITransport`` buffers a
  whole stream until it ends: SDK-NOTES §3.6).
* :func:`rpc` and :func:`rpc_stream` post one hand-written A2A 1.0 JSON-RPC request (PascalCase
  ``method``, the ``A2A-Version: 1.0`` header, ProtoJSON enums such as ``ROLE_USER``) and return
  the decoded reply or the list of SSE events: the protocol without any SDK in between.

Deliberate shortcuts: only ``application/json`` and ``text/event-stream`` bodies are decoded
for the trace (A2A uses nothing else over HTTP); compressed bodies are recorded as bytes counts.

Taught in lesson 11.
"""
from __future__ import annotations

import itertools
import json
from typing import Any, AsyncIterator

import httpx

from .tracing import Trace

A2A_VERSION = "1.0"
#: Headers every A2A 1.0 HTTP request carries; without ``A2A-Version`` a 1.x server assumes 0.3.
A2A_HEADERS = {"Content-Type": "application/json", "A2A-Version": A2A_VERSION}
CARD_PATH = "/.well-known/agent-card.json"
_LABEL_TEXT = 48  # characters of message text shown in a trace label


def _short(text: str, n: int = _LABEL_TEXT) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _text_of(message: dict | None) -> str:
    parts = (message or {}).get("parts") or []
    return " ".join(p["text"] for p in parts if "text" in p)


def _state(status: dict | None) -> str:
    return (status or {}).get("state", "?")


def describe_request(method: str, path: str, body: Any) -> str:
    """A one-line label for an HTTP request: the JSON-RPC ``method`` and the message text.

    Example:
        >>> describe_request("POST", "/a2a/jsonrpc", {"jsonrpc": "2.0", "id": 1, "method": "GetTask",
        ...                                          "params": {"id": "t-1"}})
        'GetTask'
        >>> describe_request("GET", "/.well-known/agent-card.json", None)
        'GET /.well-known/agent-card.json'
    """
    if isinstance(body, dict) and "method" in body:
        message = (body.get("params") or {}).get("message")
        return f"{body['method']}" + (f' "{_short(_text_of(message))}"' if message else "")
    if isinstance(body, dict) and "message" in body:  # HTTP+JSON binding: POST /message:send
        return f'{method} {path} "{_short(_text_of(body["message"]))}"'
    return f"{method} {path}"


def describe_result(body: Any) -> str:
    """A one-line label for an A2A response body or stream event (JSON-RPC envelope or bare).

    Example:
        >>> describe_result({"jsonrpc": "2.0", "id": 3, "result": {"statusUpdate": {"status": {
        ...     "state": "TASK_STATE_WORKING", "message": {"parts": [{"text": "Running SQL"}]}}}}})
        'statusUpdate TASK_STATE_WORKING "Running SQL"'
        >>> describe_result({"jsonrpc": "2.0", "id": 4, "error": {"code": -32001, "message": "Task not found"}})
        'error -32001 Task not found'
    """
    if not isinstance(body, dict):
        return f"{len(body or b'')} bytes" if isinstance(body, (bytes, bytearray)) else str(body)
    if "error" in body:
        err = body["error"]
        return f"error {err.get('code')} {err.get('message', '')}".strip()
    result = body.get("result", body)
    if result is None:  # e.g. DeleteTaskPushNotificationConfig: a result with nothing in it
        return "result null"
    if not isinstance(result, dict):
        return _short(json.dumps(result, ensure_ascii=False), 70)
    if not result:  # ProtoJSON leaves out empty lists: ListTaskPushNotificationConfigs with none
        return "empty result"
    if "supportedInterfaces" in result or "skills" in result:
        return f'Agent Card "{result.get("name", "")}" ({len(result.get("skills") or [])} skills)'
    if "statusUpdate" in result:
        status = result["statusUpdate"].get("status") or {}
        note = _text_of(status.get("message"))
        return f"statusUpdate {_state(status)}" + (f' "{_short(note)}"' if note else "")
    if "artifactUpdate" in result:
        art = result["artifactUpdate"].get("artifact") or {}
        return f'artifactUpdate "{art.get("name", "")}"'
    if "message" in result:
        return f'Message "{_short(_text_of(result["message"]))}"'
    if "url" in result and "taskId" in result:  # a TaskPushNotificationConfig
        return f'push config -> {result["url"]}'
    if "configs" in result:
        return f"{len(result['configs'])} push config{'s' * (len(result['configs']) != 1)}"
    if "tasks" in result:
        return f"{len(result['tasks'])} of {result.get('totalSize', '?')} tasks" + (
            ", more pages" if result.get("nextPageToken") else "")
    task = result.get("task", result)
    if "status" in task:
        n = len(task.get("artifacts") or [])
        return f"Task {_state(task['status'])}" + (f", {n} artifact{'s' * (n != 1)}" if n else "")
    return _short(json.dumps(result, ensure_ascii=False), 70)


def sse_data(block: str) -> Any:
    """The decoded ``data:`` of one Server-Sent Event block (None if it has no data)."""
    lines = [ln[5:].lstrip() for ln in block.splitlines() if ln.startswith("data:")]
    if not lines:
        return None
    text = "\n".join(lines)
    try:
        return json.loads(text)
    except ValueError:
        return text


def _decode(raw: bytes, headers: httpx.Headers) -> Any:
    if headers.get("content-encoding"):
        return raw
    try:
        return json.loads(raw) if raw else None
    except ValueError:
        return raw.decode("utf-8", "replace")


class TracingTransport(httpx.AsyncBaseTransport):
    """An ``httpx`` transport that records every A2A exchange into a :class:`~course_lib.tracing.Trace`.

    Give it to the SDK's client through ``httpx.AsyncClient(transport=...)`` and
    ``ClientConfig(httpx_client=...)``; nothing else changes.

    Args:
        trace: where events go (layer ``"a2a"``; lanes are ``client`` and the agent's name).
        inner: the transport that really sends (default: a fresh ``httpx.AsyncHTTPTransport``;
            pass ``httpx.ASGITransport(app=...)`` for an in-process agent).
        client: the lane name of the caller, e.g. ``"Orchestrator"``.
        names: ``{"host:port": "lane name"}``; unknown hosts show as ``host:port`` until
            :meth:`name` renames them (e.g. once the Agent Card told us the agent's name).

    Events: one ``request`` per HTTP request (payload: the JSON body, or method + URL), then
    one ``response`` (``error`` for a JSON-RPC error or an HTTP status >= 400) per JSON body,
    or one ``notification`` per SSE event as it arrives.
    """

    def __init__(self, trace: Trace, inner: httpx.AsyncBaseTransport | None = None, *, client: str = "Client",
                 names: dict[str, str] | None = None) -> None:
        self.trace = trace
        self.inner = inner or httpx.AsyncHTTPTransport()
        self.client = client
        self.names = dict(names or {})

    def lane(self, url: httpx.URL | str) -> str:
        """The lane name of the server at ``url``."""
        url = httpx.URL(str(url))
        key = f"{url.host}:{url.port}" if url.port else url.host
        return self.names.get(key, key)

    def name(self, url: str, lane: str) -> None:
        """Call the server at ``url`` ``lane`` from now on, and in the events already recorded."""
        old = self.lane(url)
        u = httpx.URL(url)
        self.names[f"{u.host}:{u.port}" if u.port else u.host] = lane
        for event in self.trace.events:
            event.src = lane if event.src == old else event.src
            event.dst = lane if event.dst == old else event.dst

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        server = self.lane(request.url)
        body = _decode(await request.aread(), request.headers) if request.content else None
        payload = body if body is not None else {"method": request.method, "url": str(request.url)}
        self.trace.add(self.client, server, describe_request(request.method, request.url.path, body),
                       kind="request", layer="a2a", payload=payload)
        response = await self.inner.handle_async_request(request)
        if "text/event-stream" in response.headers.get("content-type", ""):
            stream = _TracedEvents(response.stream, self.trace, server, self.client)
        else:
            raw = b"".join([chunk async for chunk in response.stream])
            await response.aclose()
            data = _decode(raw, response.headers)
            failed = response.status_code >= 400 or (isinstance(data, dict) and "error" in data)
            self.trace.add(server, self.client, describe_result(data), kind="error" if failed else "response",
                           layer="a2a", payload=data)
            stream = httpx.ByteStream(raw)
        return httpx.Response(response.status_code, headers=response.headers, stream=stream,
                              request=request, extensions=response.extensions)

    async def aclose(self) -> None:
        await self.inner.aclose()

    def __repr__(self) -> str:
        return f"TracingTransport(client={self.client!r}, names={self.names!r}, {len(self.trace)} events)"


class _TracedEvents(httpx.AsyncByteStream):
    """Passes an SSE body through unchanged, recording each event when its last byte arrives."""

    def __init__(self, inner: Any, trace: Trace, server: str, client: str) -> None:
        self.inner, self.trace, self.server, self.client = inner, trace, server, client

    async def __aiter__(self) -> AsyncIterator[bytes]:
        buffer = ""
        async for chunk in self.inner:
            buffer += chunk.decode("utf-8", "replace").replace("\r\n", "\n")
            *blocks, buffer = buffer.split("\n\n")
            for block in blocks:
                self._record(block)
            yield chunk
        if buffer.strip():
            self._record(buffer)

    def _record(self, block: str) -> None:
        data = sse_data(block)
        if data is None:  # a keep-alive comment
            return
        failed = isinstance(data, dict) and "error" in data
        self.trace.add(self.server, self.client, describe_result(data), kind="error" if failed else "notification",
                       layer="a2a", payload=data)

    async def aclose(self) -> None:
        await self.inner.aclose()


_ids = itertools.count(1)


def rpc_request(method: str, params: dict | None = None, *, id: int | str | None = None) -> dict:
    """A JSON-RPC 2.0 request object (``jsonrpc``, ``id``, ``method``, ``params``)."""
    return {"jsonrpc": "2.0", "id": next(_ids) if id is None else id, "method": method, "params": params or {}}


def text_message(text: str, *, message_id: str = "m-1", task_id: str | None = None,
                 context_id: str | None = None) -> dict:
    """A user Message in A2A 1.0 ProtoJSON: ``{"messageId", "role": "ROLE_USER", "parts": [{"text"}]}``."""
    message: dict[str, Any] = {"messageId": message_id, "role": "ROLE_USER", "parts": [{"text": text}]}
    if task_id:
        message["taskId"] = task_id
    if context_id:
        message["contextId"] = context_id
    return message


async def rpc(http: httpx.AsyncClient, url: str, method: str, params: dict | None = None, *,
              headers: dict[str, str] | None = None, id: int | str | None = None) -> dict:
    """POST one JSON-RPC request to an A2A endpoint and return the decoded response object.

    Args:
        http: the client to send with (give it a :class:`TracingTransport` to record the exchange).
        url: the JSON-RPC endpoint (the card's ``supportedInterfaces[].url`` with binding ``JSONRPC``).
        method: an A2A 1.0 method: ``SendMessage``, ``GetTask``, ``CancelTask``, ``ListTasks``...
        params: the method's params in ProtoJSON (camelCase fields, enum names).
        headers: replaces :data:`A2A_HEADERS` (drop ``A2A-Version`` to see the 0.3 fallback).
        id: the request ``id`` (default: a counter).

    Returns:
        The JSON-RPC response: ``{"jsonrpc", "id", "result"}`` or ``{"jsonrpc", "id", "error"}``.

    Raises:
        httpx.HTTPError: the agent could not be reached.
    """
    response = await http.post(url, json=rpc_request(method, params, id=id),
                               headers=A2A_HEADERS if headers is None else headers)
    return response.json()


async def rpc_stream(http: httpx.AsyncClient, url: str, method: str, params: dict | None = None, *,
                     id: int | str | None = None) -> list[dict]:
    """POST a streaming JSON-RPC request (``SendStreamingMessage``) and collect its SSE events.

    Returns:
        One decoded JSON-RPC response object per Server-Sent Event, in arrival order.
    """
    events = []
    headers = {**A2A_HEADERS, "Accept": "text/event-stream"}
    async with http.stream("POST", url, json=rpc_request(method, params, id=id), headers=headers) as response:
        buffer = ""
        async for chunk in response.aiter_text():
            buffer += chunk.replace("\r\n", "\n")
            *blocks, buffer = buffer.split("\n\n")
            events += [d for d in map(sse_data, blocks) if d is not None]
    if buffer.strip() and (last := sse_data(buffer)) is not None:
        events.append(last)
    return events


__all__ = ["A2A_HEADERS", "A2A_VERSION", "CARD_PATH", "TracingTransport", "describe_request", "describe_result",
           "rpc", "rpc_request", "rpc_stream", "sse_data", "text_message"]
