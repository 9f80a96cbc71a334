"""The mock LLM as one object: a sans-IO ``handle`` plus thin in-process and ASGI adapters.

:meth:`MockLLM.handle` maps an HTTP request (method, path, headers, body bytes) to a
:class:`HTTPReply` and never touches a socket, a clock or an event loop. Around it:

* :meth:`MockLLM.client` / :meth:`MockLLM.async_client`: an unmodified ``openai`` client
  whose HTTP transport calls ``handle`` directly: no port, no thread, no network;
* :meth:`MockLLM.asgi_app`: the same handler as an ASGI app, served over HTTP by
  ``course llm serve`` (``/v1/chat/completions``, ``/v1/responses``, ``/v1/models``).

Why the transports call ``handle`` and not the ASGI app: a *sync* ``OpenAI`` client in a
notebook runs inside the kernel's event loop, where an async app cannot be awaited;
a pure handler works from both worlds. Taught in lessons 00 and 01.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from .completions import chat_completion, sse_lines, stream_chunks, tool_calls_json
from .engine import Decision, PlannedCall, decide
from .errors import MockAPIError
from .faults import HTTP_FAULTS, FaultPlan, corrupt_tool_calls, parse_fault_header, scripted_decision_parts
from .responses_api import output_items, response_object, stream_events, to_chat_body
from .wire import ChatRequest, parse_chat_request, tools_key

DEFAULT_MODEL = "mock-llm"
LOG_LIMIT = 500  # exchanges kept in MockLLM.log; older ones are dropped
MEMO_LIMIT = 256  # decisions remembered per MockLLM (the same request gets the same answer)


@dataclass
class HTTPReply:
    """What the handler answers: status, headers, and a body or a stream of chunks.

    ``delay`` (seconds) is latency the adapters add before replying (fault injection).
    """

    status: int
    headers: dict[str, str]
    body: bytes = b""
    chunks: Iterable[bytes] | None = None
    delay: float = 0.0


@dataclass
class Exchange:
    """One request the mock received and what it answered (for showing the wire)."""

    path: str
    request: Any
    response: Any
    status: int
    decision: Decision | None = None

    def __repr__(self) -> str:
        return f"Exchange({self.path} -> {self.status})"


def _json_reply(status: int, obj: Any, headers: dict[str, str] | None = None) -> HTTPReply:
    return HTTPReply(status, {"content-type": "application/json", **(headers or {})},
                     json.dumps(obj, ensure_ascii=False).encode())


_TRANSPORT_FIELDS = ("stream", "stream_options")


def _canonical(value: Any) -> str:
    """The JSON text the seed hashes: sorted keys, UTF-8 as written."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


#: ``_canonical(tools)`` by :func:`~.wire.tools_key`: the same tools come with every request of a notebook.
_CANONICAL_TOOLS: OrderedDict[str, str] = OrderedDict()


def _canonical_tools(tools: Any, key: str) -> str:
    """``_canonical(tools)``, cached on the tools' compact JSON ``key`` (which keeps key order, so is exact)."""
    text = _CANONICAL_TOOLS.get(key)
    if text is None:
        text = _CANONICAL_TOOLS[key] = _canonical(tools)
        if len(_CANONICAL_TOOLS) > MEMO_LIMIT:
            _CANONICAL_TOOLS.popitem(last=False)
    else:
        _CANONICAL_TOOLS.move_to_end(key)
    return text


def _seed(body: Any, tools_json: str | None = None) -> str:
    """A hash of what the request asks (not how it is delivered), so streaming keeps the ids.

    ``tools_json`` is ``_canonical(body["tools"])`` when the caller made it already (it also keys
    the cache of validated tools): the hashed text is then put together from it and the other
    fields, exactly as ``_canonical(body)`` writes it, without serialising the tools twice.
    """
    if not isinstance(body, dict):
        return hashlib.sha256(_canonical(body).encode()).hexdigest()
    fields = sorted((k, v) for k, v in body.items() if k not in _TRANSPORT_FIELDS)
    if tools_json is None or not all(isinstance(k, str) for k, _ in fields):
        return hashlib.sha256(_canonical(dict(fields)).encode()).hexdigest()
    text = "{" + ", ".join(_canonical(k) + ": " + (tools_json if k == "tools" else _canonical(v)) for k, v in fields) + "}"
    return hashlib.sha256(text.encode()).hexdigest()


def _prompt_text(req: ChatRequest) -> str:
    return " ".join(str(m.get("content") or "") for m in req.messages)


class MockLLM:
    """A deterministic tool-calling "model" that speaks the OpenAI wire format.

    Each instance keeps its own script, faults and log, so a lesson can give one client a
    flaky model and another a healthy one.

    Args:
        model: the model id reported by ``GET /v1/models`` (any name is accepted in requests).

    Example:
        >>> mock = MockLLM()
        >>> client = mock.client()
        >>> r = client.chat.completions.create(model="mock-llm",
        ...     messages=[{"role": "user", "content": "Hello"}])
        >>> r.choices[0].message.content
        'Hello! How can I help you today?'
    """

    def __init__(self, model: str = DEFAULT_MODEL) -> None:
        self.model = model
        self.faults = FaultPlan()
        self.log: deque[Exchange] = deque(maxlen=LOG_LIMIT)
        self._script: deque[Any] = deque()
        self._memo: OrderedDict[str, Decision] = OrderedDict()

    def __repr__(self) -> str:
        return (f"MockLLM(model={self.model!r}, scripted={len(self._script)}, faults={len(self.faults)}, "
                f"requests={len(self.log)})")

    # ------------------------------------------------------------------ control
    def script(self, *responses: Any) -> "MockLLM":
        """Queue canned responses, used (oldest first) before the engine decides again.

        Each item is ``"text"``, ``{"content": ...}``, ``{"tool_calls": [{"name", "arguments"}]}``
        (``arguments`` may be a raw string, even invalid JSON) or ``{"error": {"status", ...}}``.
        """
        for item in responses:
            scripted_decision_parts(item)  # validate now, fail at the call site
            self._script.append(item)
        return self

    def inject(self, kind: str, times: int | None = 1, **params: Any) -> "MockLLM":
        """Apply fault ``kind`` to the next ``times`` requests; see :mod:`.faults`."""
        self.faults.add(kind, times, **params)
        return self

    def reset(self) -> None:
        """Forget the script, the faults and the log."""
        self._script.clear()
        self.faults.clear()
        self.log.clear()
        self._memo.clear()

    def explain(self, messages: list[dict], tools: list[dict] | None = None, **options: Any) -> "Explanation":
        """What the engine would decide for this conversation, and why.

        Args:
            messages: the conversation (Chat Completions ``messages``).
            tools: the Chat Completions ``tools`` offered.
            **options: other request fields (``tool_choice``, ``parallel_tool_calls``...).

        Returns:
            An :class:`~.explain.Explanation`: the :class:`Decision` (``tool_calls``,
            ``content``, ``reason``, ``scores``, ``matched``) plus every candidate's score and
            the words behind each argument; printing it shows a table (lesson 02).

        Raises:
            MockAPIError: for a request the API would reject.
        """
        from .explain import Explanation

        body = {"model": self.model, "messages": messages, **({"tools": tools} if tools else {}), **options}
        req = parse_chat_request(body)
        last_user = next((m for m in reversed(req.messages) if m["role"] == "user"), {})
        text = last_user.get("content") if isinstance(last_user.get("content"), str) else ""
        return Explanation.of(decide(req), text or "")

    @property
    def last(self) -> Exchange | None:
        """The most recent exchange, or None."""
        return self.log[-1] if self.log else None

    # ------------------------------------------------------------------ sans-IO core
    def handle(self, method: str, path: str, headers: dict[str, str], body: bytes) -> HTTPReply:
        """Answer one HTTP request. Never raises: every failure is an OpenAI-style error reply.

        Args:
            method: ``"GET"`` or ``"POST"``.
            path: the URL path, e.g. ``"/v1/chat/completions"``.
            headers: request headers (lower-case names); ``x-mock-fault`` asks for a fault.
            body: the raw request body (UTF-8 JSON).

        Returns:
            An :class:`HTTPReply`.
        """
        route = path.rstrip("/")
        for prefix in ("/v1", ""):
            if route.startswith(prefix + "/") or route == prefix:
                route = route[len(prefix):]
                break
        try:
            if route == "/models" and method == "GET":
                return _json_reply(200, {"object": "list", "data": [
                    {"id": self.model, "object": "model", "created": 0, "owned_by": "agent-tool-systems"}]})
            if route not in ("/chat/completions", "/responses"):
                raise MockAPIError(f"Invalid URL ({method} {path})", status=404, code="unknown_url")
            if method != "POST":
                raise MockAPIError(f"Method {method} not allowed for {path}; use POST.", status=405)
            try:
                data = json.loads(body.decode("utf-8") or "null")
            except (UnicodeDecodeError, ValueError) as e:
                raise MockAPIError(f"We could not parse the JSON body of your request ({e}). The body must be "
                                   "UTF-8 JSON.") from None
            fault = self._fault_for(headers)
            reply = self._chat(data, fault) if route == "/chat/completions" else self._responses(data, fault)
            if fault is not None and fault.kind == "latency":
                reply.delay = fault.seconds
            return reply
        except MockAPIError as e:
            self.log.append(Exchange(path, _safe_json(body), e.body(), e.status))
            return _json_reply(e.status, e.body(), e.headers)
        except Exception as e:  # the mock must never crash the learner's kernel
            err = MockAPIError(f"The course mock failed unexpectedly: {type(e).__name__}: {e}", status=500)
            self.log.append(Exchange(path, _safe_json(body), err.body(), 500))
            return _json_reply(500, err.body())

    def _fault_for(self, headers: dict[str, str]):
        header = headers.get("x-mock-fault")
        fault = parse_fault_header(header) if header else self.faults.take()
        if fault is not None and fault.kind in HTTP_FAULTS:
            raise fault.as_error()
        return fault

    def _decide(self, req: ChatRequest, seed: str = "") -> tuple[Decision, list[dict] | None]:
        if not self._script:
            # The engine is a pure function of the request: the same request (same seed) is
            # answered from memory, which is also what keeps re-run notebooks fast.
            hit = self._memo.get(seed) if seed else None
            if hit is None:
                hit = decide(req)
                if seed:
                    self._memo[seed] = hit
                    if len(self._memo) > MEMO_LIMIT:
                        self._memo.popitem(last=False)
            return hit, None
        content, calls, error = scripted_decision_parts(self._script.popleft())
        if error is not None:
            raise error
        decision = Decision(content=content, reason="scripted")
        if calls is None:
            return decision, None
        decision.tool_calls = [PlannedCall(c["name"], {}) for c in calls]
        seed = _seed({"script": calls, "n": len(req.messages)})
        return decision, [{"id": f"call_{seed[:24]}{i}", "type": "function",
                           "function": {"name": c["name"], "arguments": c["arguments"]}}
                          for i, c in enumerate(calls)]

    def _chat(self, data: Any, fault) -> HTTPReply:
        # the tools are serialised once per request: their key finds the validated tools and their seed text
        key = tools_key(data["tools"]) if isinstance(data, dict) and data.get("tools") is not None else None
        req = parse_chat_request(data, tools_key=key)
        seed = _seed(data, _canonical_tools(data["tools"], key) if key is not None else None)
        decision, calls = self._decide(req, seed)
        if calls is None and decision.tool_calls:
            calls = tool_calls_json(decision, seed)
        if fault is not None and calls:
            calls = corrupt_tool_calls(fault.kind, calls, req.tools)
        completion = chat_completion(decision, model=req.model, seed=seed, prompt_text=_prompt_text(req),
                                     tool_calls=calls or [])
        self.log.append(Exchange("/v1/chat/completions", data, completion, 200, decision))
        if not req.stream:
            return _json_reply(200, completion)
        return HTTPReply(200, {"content-type": "text/event-stream", "cache-control": "no-cache"},
                         chunks=list(sse_lines(stream_chunks(completion, include_usage=req.include_usage))))

    def _responses(self, data: Any, fault) -> HTTPReply:
        chat_body = to_chat_body(data)
        req = parse_chat_request(chat_body)
        decision, calls = self._decide(req)
        seed = _seed(data)
        output = output_items(decision, seed)
        if calls is not None:  # scripted calls keep their raw arguments
            output = [{"type": "function_call", "id": f"fc_{c['id'][5:]}", "call_id": c["id"],
                       "name": c["function"]["name"], "arguments": c["function"]["arguments"], "status": "completed"}
                      for c in calls]
        response = response_object(decision, body=data, seed=seed, prompt_text=_prompt_text(req), output=output)
        self.log.append(Exchange("/v1/responses", data, response, 200, decision))
        if not chat_body["stream"]:
            return _json_reply(200, response)
        return HTTPReply(200, {"content-type": "text/event-stream", "cache-control": "no-cache"},
                         chunks=list(stream_events(response)))

    # ------------------------------------------------------------------ adapters
    def client(self, **kwargs: Any):
        """An ``openai.OpenAI`` client wired to this mock in-process (no network).

        Keyword arguments go to ``openai.OpenAI`` (e.g. ``max_retries=0``).
        """
        from ..llm_client import in_process_client

        return in_process_client(self, **kwargs)

    def async_client(self, **kwargs: Any):
        """An ``openai.AsyncOpenAI`` client wired to this mock in-process (no network)."""
        from ..llm_client import in_process_client

        return in_process_client(self, async_client=True, **kwargs)

    def asgi_app(self):
        """This mock as an ASGI application, for ``uvicorn`` or an ASGI test transport."""
        return _ASGIApp(self)


def _safe_json(body: bytes) -> Any:
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return body[:200].decode("utf-8", "replace")


class _ASGIApp:
    """A thin ASGI adapter around :meth:`MockLLM.handle` (HTTP only; lifespan accepted)."""

    def __init__(self, mock: MockLLM) -> None:
        self.mock = mock

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        reply = self.mock.handle(scope["method"], scope["path"], headers, body)
        if reply.delay:
            await asyncio.sleep(reply.delay)
        raw_headers = [(k.encode(), v.encode()) for k, v in reply.headers.items()]
        if reply.chunks is None:  # a known length: one write, no chunked framing
            raw_headers.append((b"content-length", str(len(reply.body)).encode()))
        await send({"type": "http.response.start", "status": reply.status, "headers": raw_headers})
        if reply.chunks is None:
            await send({"type": "http.response.body", "body": reply.body})
            return
        for chunk in reply.chunks:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b""})


def iter_chunks(reply: HTTPReply) -> Iterator[bytes]:
    """The body of ``reply`` as a sequence of byte chunks."""
    if reply.chunks is None:
        yield reply.body
    else:
        yield from reply.chunks


def sleep_for(reply: HTTPReply) -> None:
    """Block for the reply's injected latency (sync adapters)."""
    if reply.delay:
        time.sleep(reply.delay)
