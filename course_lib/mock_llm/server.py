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
import importlib
import json
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from .errors import MockAPIError
from .faults import HTTP_FAULTS, FaultPlan, corrupt_tool_calls, parse_fault_header, scripted_decision_parts
from .limits import BoundedCache, Limits, check_context, decode_body, too_large
from .response_store import ResponseStore

if TYPE_CHECKING:
    from .engine import Decision
    from .wire import ChatRequest



class _Engine:
    """The engine, the wire checks (jsonschema) and the reply builders, imported on first use.

    Creating a MockLLM (every lesson's first cell) then costs no engine import (~0.35 s of CPU: its
    readers compile hundreds of regular expressions); the first request pays it once. ``_engine.NAME``
    is ``NAME`` of the module :attr:`HOMES` names, looked up at every use (a ``sys.modules`` hit once
    imported), so a test that patches, say, ``structured_output.answer`` is seen.

    Raises:
        AttributeError: for a name that is not in :attr:`HOMES`.
    """

    #: name -> the module of this package that defines it
    HOMES = {
        "decide": "engine", "Decision": "engine", "PlannedCall": "engine",
        "parse_chat_request": "wire", "tools_key": "wire",
        "chat_completion": "completions", "count_tokens": "completions", "cut_calls": "completions",
        "cut_text": "completions", "seeded_id": "completions", "sse_lines": "completions",
        "stream_chunks": "completions", "tool_calls_json": "completions",
        "answer": "structured_output", "Explanation": "explain",
        "as_responses_error": "responses_api", "output_items": "responses_api",
        "parse_responses_request": "responses_api", "response_object": "responses_api",
        "stream_events": "responses_api",
    }

    def __getattr__(self, name: str) -> Any:
        home = self.HOMES.get(name)
        if home is None:
            raise AttributeError(f"the mock's engine facade has no {name!r}")
        qualified = f"{__package__}.{home}"
        module = sys.modules.get(qualified) or importlib.import_module(qualified)  # a dict hit once imported
        return getattr(module, name)

    def __repr__(self) -> str:
        return f"<mock engine facade: {len(self.HOMES)} names from {len(set(self.HOMES.values()))} modules>"


_engine = _Engine()

DEFAULT_MODEL = "mock-llm"
LOG_LIMIT = Limits().log_limit  # exchanges kept in MockLLM.log; older ones are dropped (also a byte cap)
MEMO_LIMIT = 256  # decisions remembered per MockLLM (the same request gets the same answer)
#: ... and at most this many bytes of them: an answer made from a tool result can hold the whole result
#: (hundreds of kB), so 256 of them bounded by count alone could keep over 100 MB.
MEMO_BYTES = 16 * 1024 * 1024
#: POSTs read and held at once by the ASGI adapter (each up to ``max_request_bytes``): 64 x 4 MiB at most.
MAX_POSTS_IN_FLIGHT = 64
#: Bytes of body a GET (``/v1/models``, a stored response) may carry: it needs none.
MAX_GET_BODY_BYTES = 64 * 1024
#: Seconds a POST's body may take to arrive once its turn comes (a 4 MiB body on loopback takes
#: milliseconds): a client that sends a byte now and then cannot keep one of the slots above forever.
BODY_READ_SECONDS = 30.0
#: One engine decision at a time in this process: the engine keeps module-level caches, and with the
#: GIL two CPU-bound decisions in parallel would finish no sooner than one after the other. Only the
#: decision holds it: checking a request (its schemas may take seconds when huge) happens outside, so
#: a request with a huge tool list shares the CPU with the others instead of making them wait.
_ENGINE_LOCK = threading.Lock()


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
    size: int = 0  # bytes of the request and response bodies, for the log's byte cap

    def __repr__(self) -> str:
        return f"Exchange({self.path} -> {self.status})"


class ExchangeLog(deque):
    """The exchanges a mock keeps, newest last: at most ``limit`` of them and ``max_bytes`` of bodies.

    A ``deque`` (``log[-1]``, ``len(log)``, iteration) that drops its oldest exchanges when
    either cap is passed, so a learner's loop of big requests cannot fill the kernel's memory.
    """

    def __init__(self, limit: int, max_bytes: int) -> None:
        super().__init__()
        self.limit, self.max_bytes, self.bytes = limit, max_bytes, 0

    def append(self, exchange: Exchange) -> None:  # type: ignore[override]
        super().append(exchange)
        self.bytes += exchange.size
        while len(self) > 1 and (len(self) > self.limit or self.bytes > self.max_bytes):
            self.bytes -= self.popleft().size

    def clear(self) -> None:
        super().clear()
        self.bytes = 0


def _json_reply(status: int, obj: Any, headers: dict[str, str] | None = None) -> HTTPReply:
    return HTTPReply(status, {"content-type": "application/json", **(headers or {})},
                     json.dumps(obj, ensure_ascii=False).encode())


_TRANSPORT_FIELDS = ("stream", "stream_options")


def _canonical(value: Any) -> str:
    """The JSON text the seed hashes: sorted keys, UTF-8 as written."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


#: ``_canonical(tools)`` by :func:`~.wire.tools_key`: the same tools come with every request of a notebook.
_CANONICAL_TOOLS = BoundedCache(MEMO_LIMIT)


def _canonical_tools(tools: Any, key: str) -> str:
    """``_canonical(tools)``, cached on the tools' compact JSON ``key`` (which keeps key order, so is exact)."""
    text = _CANONICAL_TOOLS.get(key)
    if text is None:
        text = _canonical(tools)
        _CANONICAL_TOOLS.put(key, text, len(key) + len(text))
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


def _within_budget(output: list[dict], options: Any) -> tuple[list[dict], str | None]:
    """Responses output cut to ``max_tool_calls`` and ``max_output_tokens``; the reason when it was cut."""
    calls = [o for o in output if o["type"] == "function_call"]
    if calls:
        if options.max_tool_calls is not None:
            calls = calls[: options.max_tool_calls]
        chat_calls = [{"function": {"arguments": c["arguments"]}} for c in calls]
        kept, cut = _engine.cut_calls(chat_calls, options)
        calls = [dict(c, arguments=k["function"]["arguments"], status="incomplete" if cut and c is calls[len(kept) - 1]
                      else c["status"]) for c, k in zip(calls, kept)]
        return calls, "max_output_tokens" if cut else None
    part = output[0]["content"][0]
    if part["type"] != "output_text":
        return output, None
    text, ended = _engine.cut_text(part["text"], options)
    if ended is None:
        return output, None
    item = dict(output[0], content=[dict(part, text=text)], status="incomplete" if ended == "length" else "completed")
    return [item], "max_output_tokens" if ended == "length" else None


def decide(req: ChatRequest) -> Decision:
    """The engine's decision for ``req`` (:func:`.engine.decide`, imported on the first request)."""
    return _engine.decide(req)


def _decision_bytes(decision: Decision) -> int:
    """A rough size of ``decision`` in bytes (its texts, arguments, scores and matched words)."""
    return (256 + len(decision.content or "") + len(decision.reason)
            + sum(len(c.name) + len(str(c.arguments)) for c in decision.tool_calls)
            + sum(len(k) + 32 for k in decision.scores)
            + sum(len(w) + 8 for words in decision.matched.values() for w in words))


def _prompt_text(req: ChatRequest) -> str:
    return " ".join(str(m.get("content") or "") for m in req.messages)


class MockLLM:
    """A deterministic tool-calling "model" that speaks the OpenAI wire format.

    Each instance keeps its own script, faults and log, so a lesson can give one client a
    flaky model and another a healthy one.

    Args:
        model: the model id reported by ``GET /v1/models`` (any name is accepted in requests).
        limits: what one request may hold and what the mock keeps (:class:`~.limits.Limits`:
            request bytes, JSON depth, context tokens, log and store caps).

    Example:
        >>> mock = MockLLM()
        >>> client = mock.client()
        >>> r = client.chat.completions.create(model="mock-llm",
        ...     messages=[{"role": "user", "content": "Hello"}])
        >>> r.choices[0].message.content
        'Hello! How can I help you today?'
    """

    def __init__(self, model: str = DEFAULT_MODEL, *, limits: Limits | None = None) -> None:
        self.model = model
        self.limits = limits or Limits()
        self.faults = FaultPlan()
        self.log = ExchangeLog(self.limits.log_limit, self.limits.log_bytes)
        self.store = ResponseStore(self.limits.store_limit, self.limits.store_bytes)
        self._script: deque[Any] = deque()
        self._memo = BoundedCache(MEMO_LIMIT, MEMO_BYTES)  # seed -> Decision

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
        """Forget the script, the faults, the log and the stored responses."""
        self._script.clear()
        self.faults.clear()
        self.log.clear()
        self._memo.clear()
        self.store.clear()

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
        body = {"model": self.model, "messages": messages, **({"tools": tools} if tools else {}), **options}
        req = _engine.parse_chat_request(body)
        last_user = next((m for m in reversed(req.messages) if m["role"] == "user"), {})
        text = last_user.get("content") if isinstance(last_user.get("content"), str) else ""
        return _engine.Explanation.of(decide(req), text or "")

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
            if route.startswith("/responses/"):
                return self._stored(method, route[len("/responses/"):])
            if route not in ("/chat/completions", "/responses"):
                raise MockAPIError(f"Invalid URL ({method} {path})", status=404, code="unknown_url")
            if method != "POST":
                raise MockAPIError(f"Method {method} not allowed for {path}; use POST.", status=405)
            data = decode_body(body, self.limits)
            fault = self._fault_for(headers)
            reply, response, decision = (self._chat if route == "/chat/completions" else self._responses)(data, fault)
            if fault is not None and fault.kind == "latency":
                reply.delay = fault.seconds
            size = len(body) + (len(reply.body) if reply.chunks is None else sum(map(len, reply.chunks)))
            self.log.append(Exchange("/v1" + route, data, response, reply.status, decision, size))
            return reply
        except MockAPIError as e:
            return self._error_reply(path, body, e)
        except Exception as e:  # the mock must never crash the learner's kernel (RecursionError included)
            err = MockAPIError(f"The course mock failed unexpectedly: {type(e).__name__}: {str(e)[:300]}", status=500)
            return self._error_reply(path, body, err)

    def _error_reply(self, path: str, body: bytes, error: MockAPIError) -> HTTPReply:
        reply = _json_reply(error.status, error.body(), error.headers)
        self.log.append(Exchange(path, _safe_json(body), error.body(), error.status, size=len(body) + len(reply.body)))
        return reply


    def _stored(self, method: str, rest: str) -> HTTPReply:
        """``GET``/``DELETE /v1/responses/{id}`` and ``GET /v1/responses/{id}/input_items`` on the store."""
        response_id, _, sub = rest.partition("/")
        if response_id not in self.store or sub not in ("", "input_items") or (sub and method != "GET"):
            if sub not in ("", "input_items"):
                raise MockAPIError(f"Invalid URL ({method} /v1/responses/{rest})", status=404, code="unknown_url")
            raise MockAPIError(f"Response with id '{response_id}' not found.", status=404, param="response_id")
        if method == "DELETE":
            self.store.delete(response_id)
            return _json_reply(200, {"id": response_id, "object": "response", "deleted": True})
        if method != "GET":
            raise MockAPIError(f"Method {method} not allowed for /v1/responses/{rest}; use GET or DELETE.", status=405)
        entry = self.store.get(response_id)
        if not sub:
            return _json_reply(200, entry.response)
        items = [dict(it, id=it.get("id") or _engine.seeded_id("item_", f"{response_id}/{i}"))
                 for i, it in enumerate(entry.history[: entry.input_count])][::-1]  # newest first, as the API lists
        return _json_reply(200, {"object": "list", "data": items, "first_id": items[0]["id"] if items else None,
                                 "last_id": items[-1]["id"] if items else None, "has_more": False})

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
                    self._memo.put(seed, hit, len(seed) + _decision_bytes(hit))
            return hit, None
        content, calls, error = scripted_decision_parts(self._script.popleft())
        if error is not None:
            raise error
        decision = _engine.Decision(content=content, reason="scripted")
        if calls is None:
            return decision, None
        decision.tool_calls = [_engine.PlannedCall(c["name"], {}) for c in calls]
        seed = _seed({"script": calls, "n": len(req.messages)})
        return decision, [{"id": f"call_{seed[:24]}{i}", "type": "function",
                           "function": {"name": c["name"], "arguments": c["arguments"]}}
                          for i, c in enumerate(calls)]

    def _chat(self, data: Any, fault) -> tuple[HTTPReply, dict, Decision]:
        # the tools are serialised once per request: their key finds the validated tools and their seed text
        key = _engine.tools_key(data["tools"]) if isinstance(data, dict) and data.get("tools") is not None else None
        req = _engine.parse_chat_request(data, tools_key=key)
        check_context(_engine.count_tokens(_prompt_text(req)) + (len(key) // 4 if key else 0), self.limits)
        seed = _seed(data, _canonical_tools(data["tools"], key) if key is not None else None)
        with _ENGINE_LOCK:
            decision, calls = self._decide(req, seed)
            if calls is None and decision.tool_calls:
                calls = _engine.tool_calls_json(decision, seed)
            if fault is not None and calls:
                calls = corrupt_tool_calls(fault.kind, calls, req.tools)
            structured = None
            if req.response_format is not None and not calls:
                structured = _engine.answer(req.response_format, req.messages, decision.content)
        completion = _engine.chat_completion(decision, model=req.model, seed=seed, prompt_text=_prompt_text(req),
                                     tool_calls=calls or [], options=req.options, structured=structured)
        if not req.stream:
            reply = _json_reply(200, completion)
        else:
            reply = HTTPReply(200, {"content-type": "text/event-stream", "cache-control": "no-cache"},
                              chunks=list(_engine.sse_lines(_engine.stream_chunks(completion, include_usage=req.include_usage))))
        return reply, completion, decision

    def _responses(self, data: Any, fault) -> tuple[HTTPReply, dict, Decision]:
        rreq = _engine.parse_responses_request(data, self.store, self.limits.max_context_tokens)
        try:
            req = _engine.parse_chat_request(rreq.chat_body)
        except MockAPIError as e:
            raise _engine.as_responses_error(e) from None
        check_context(_engine.count_tokens(_prompt_text(req)), self.limits, "input")
        seed = _seed(data)  # the response's ids; the decision is remembered by the whole resolved conversation
        with _ENGINE_LOCK:
            decision, calls = self._decide(req, _seed(rreq.chat_body) if rreq.new_items < len(rreq.items) else seed)
            if rreq.text_format is not None and not decision.tool_calls:
                sa = _engine.answer(rreq.text_format, req.messages, decision.content)
                output = _engine.output_items(decision, seed, text=sa.content, refusal=sa.refusal)
            else:
                output = _engine.output_items(decision, seed)
        if calls is not None:  # scripted calls keep their raw arguments
            output = [{"type": "function_call", "id": f"fc_{c['id'][5:]}", "call_id": c["id"],
                       "name": c["function"]["name"], "arguments": c["function"]["arguments"], "status": "completed"}
                      for c in calls]
        output, incomplete = _within_budget(output, rreq.options)
        response = _engine.response_object(decision, body=data, seed=seed, prompt_text=_prompt_text(req), output=output,
                                   text_format=rreq.text_format_sent, incomplete=incomplete)
        if rreq.store:
            self.store.put(response, tuple(rreq.items), rreq.new_items)
        if not rreq.chat_body["stream"]:
            return _json_reply(200, response), response, decision
        return HTTPReply(200, {"content-type": "text/event-stream", "cache-control": "no-cache"},
                         chunks=list(_engine.stream_events(response))), response, decision

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

    def asgi_app(self, *, in_flight: int = MAX_POSTS_IN_FLIGHT, read_seconds: float = BODY_READ_SECONDS):
        """This mock as an ASGI application, for ``uvicorn`` or an ASGI test transport.

        Args:
            in_flight: how many POSTs are read and held at once (the others wait unread).
            read_seconds: how long a POST's body may take to arrive once read (then a 408).

        Raises:
            ValueError: ``in_flight`` below 1 or ``read_seconds`` not positive.
        """
        return _ASGIApp(self, in_flight=in_flight, read_seconds=read_seconds)


def _safe_json(body: bytes, limit: int = 1024 * 1024) -> Any:
    """The body as JSON for the log, or its first 200 characters when it is not JSON (or over ``limit`` bytes)."""
    if len(body) <= limit:
        try:
            return json.loads(body)
        except (ValueError, UnicodeDecodeError, RecursionError):
            pass
    return body[:200].decode("utf-8", "replace")


class DaemonWorkers:
    """A few daemon threads that run blocking calls for an event loop (the mock's request handling).

    Daemon threads, not the loop's default executor: a process asked to stop (SIGTERM, Ctrl+C)
    exits at once even while a long request is still being read, instead of joining its worker
    at exit. The threads start on first use and wait on a queue between requests.

    Args:
        size: how many calls run at once; more wait in the queue.
    """

    def __init__(self, size: int = 4) -> None:
        import queue

        self.size = size
        self._queue: "queue.SimpleQueue" = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def _start(self) -> None:
        with self._lock:
            while len(self._threads) < self.size:
                t = threading.Thread(target=self._work, daemon=True, name=f"mock-llm-worker-{len(self._threads)}")
                t.start()
                self._threads.append(t)

    def _work(self) -> None:
        while True:
            loop, future, fn, args = self._queue.get()
            try:
                outcome = (True, fn(*args))
            except BaseException as e:  # handed to the awaiting task
                outcome = (False, e)
            try:
                loop.call_soon_threadsafe(_settle, future, *outcome)
            except RuntimeError:  # the loop closed meanwhile: nobody waits for this answer
                pass

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``await`` ``fn(*args)`` run in a worker thread (its exception is raised here)."""
        if len(self._threads) < self.size:
            self._start()
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._queue.put((loop, future, fn, args))
        return await future


def _settle(future: "asyncio.Future", ok: bool, value: Any) -> None:
    if not future.done():
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)


class _ASGIApp:
    """A thin ASGI adapter around :meth:`MockLLM.handle` (HTTP only; lifespan accepted).

    ``GET`` requests are answered on the event loop (they are instant); a ``POST`` is read
    up to the mock's ``max_request_bytes`` (a larger one gets its 413 without being read
    whole) and handled in a worker thread, so one long request never keeps the server from
    answering ``GET /v1/models`` or accepting a shutdown. At most ``in_flight`` POSTs are
    read and held at once (default :data:`MAX_POSTS_IN_FLIGHT`); the others wait, unread, in
    their connections (uvicorn stops reading a connection once 64 KiB of its body are
    buffered; the kernel's socket buffers hold the rest, then the client waits), so a thousand
    clients each sending 4 MiB cannot make the server hold 4 GB. A body that has not arrived ``read_seconds`` after its
    turn came gets a 408 (code ``request_timeout``), so slow senders cannot keep the slots.
    A request still unanswered when the server stops (Ctrl+C, SIGTERM: uvicorn cancels it after
    its graceful-shutdown wait) gets a 503 ``server_shutting_down`` error body, not a traceback
    and uvicorn's plain-text 500.
    """

    def __init__(self, mock: MockLLM, workers: int = 4, in_flight: int = MAX_POSTS_IN_FLIGHT,
                 read_seconds: float = BODY_READ_SECONDS) -> None:
        if not (isinstance(in_flight, int) and in_flight >= 1):
            raise ValueError(f"in_flight must be a whole number of POSTs, at least 1 (got {in_flight!r})")
        if not read_seconds > 0:
            raise ValueError(f"read_seconds must be positive (got {read_seconds!r})")
        self.mock = mock
        self.workers = DaemonWorkers(workers)
        self.in_flight = in_flight
        self.read_seconds = read_seconds
        self._slots: tuple[Any, asyncio.Semaphore] | None = None  # (its loop, the semaphore)

    def _slots_here(self) -> asyncio.Semaphore:
        """The semaphore of the running loop (an app served again on a new loop gets a new one)."""
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots[0] is not loop:
            self._slots = (loop, asyncio.Semaphore(self.in_flight))
        return self._slots[1]

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":
            return
        try:
            reply = await self._reply(scope, receive)
        except asyncio.CancelledError:  # the server stops (Ctrl+C, SIGTERM) while this request is not answered yet
            reply = self._stopping(scope["path"])
        await _send_reply(send, reply)

    async def _reply(self, scope: dict, receive: Any) -> HTTPReply:
        """The reply to one HTTP request, its injected latency waited."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if scope["method"] == "POST":
            async with self._slots_here():
                body = await self._read_in_time(receive, headers, scope["path"])
                reply = body if isinstance(body, HTTPReply) else await self.workers.run(
                    self.mock.handle, scope["method"], scope["path"], headers, body)
        else:  # a GET needs no body: a small cap, so bodies sent with GETs cannot pass the bound above
            body = await self._read_in_time(receive, headers, scope["path"], cap=MAX_GET_BODY_BYTES)
            reply = body if isinstance(body, HTTPReply) else self.mock.handle(scope["method"], scope["path"], headers,
                                                                               body)
        if reply.delay:
            await asyncio.sleep(reply.delay)
        return reply

    def _stopping(self, path: str) -> HTTPReply:
        """The 503 a request still waiting when the server stops gets (an OpenAI error body, not uvicorn's text 500)."""
        error = MockAPIError("The server is shutting down: the mock LLM was stopped (Ctrl+C or SIGTERM) before this "
                             "reply was due. Start it again and retry.", status=503, code="server_shutting_down")
        reply = _json_reply(503, error.body(), {"connection": "close"})
        self.mock.log.append(Exchange(path, "(server stopping)", error.body(), 503, size=len(reply.body)))
        return reply

    async def _read_in_time(self, receive: Any, headers: dict[str, str], path: str,
                            cap: int | None = None) -> bytes | HTTPReply:
        """:meth:`_read_body` within ``read_seconds``, or the 408 reply."""
        try:
            return await asyncio.wait_for(self._read_body(receive, headers, path, cap), self.read_seconds)
        except asyncio.TimeoutError:
            error = MockAPIError(f"Request timeout: the body did not arrive within {self.read_seconds:g} s.",
                                 status=408, code="request_timeout")
            reply = _json_reply(408, error.body(), {"connection": "close"})
            self.mock.log.append(Exchange(path, "(body not read in time)", error.body(), 408,
                                          size=len(reply.body)))
            return reply

    async def _read_body(self, receive: Any, headers: dict[str, str], path: str,
                         cap: int | None = None) -> bytes | HTTPReply:
        """The request body, or the 413 reply when it is (or says it is) over ``cap`` bytes
        (default: the mock's ``max_request_bytes``)."""
        cap = self.mock.limits.max_request_bytes if cap is None else cap
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > cap:
            return self._too_large(int(declared), path, cap)
        parts, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > cap:
                return self._too_large(size, path, cap)
            parts.append(chunk)
            if not message.get("more_body"):
                break
        return b"".join(parts)

    def _too_large(self, size: int, path: str, cap: int) -> HTTPReply:
        error = too_large(size, self.mock.limits) if cap == self.mock.limits.max_request_bytes else MockAPIError(
            f"Request too large: the body is {size:,} bytes and a GET to the course mock carries at most {cap:,}.",
            status=413, code="request_too_large")
        reply = _json_reply(413, error.body(), {"connection": "close"})
        self.mock.log.append(Exchange(path, "(body not read)", error.body(), 413, size=len(reply.body)))
        return reply


async def _send_reply(send: Any, reply: HTTPReply) -> None:
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
