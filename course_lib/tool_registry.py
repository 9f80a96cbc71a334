"""A Hermes-style tool registry: define, register, filter, and dispatch tools (seed 000 §2.4).

Theory of operation. Every tool is a :class:`ToolEntry` (``name``, ``toolset``, ``schema``,
``handler``, ``check_fn``, ``requires_env``, ``is_async``, plus ``timeout``, ``idempotent``,
``permission`` and ``strict`` for later lessons) held by a :class:`ToolRegistry` under a
unique name. Two questions are answered at request time, not at registration time:

* **what does the model see now?** :meth:`ToolRegistry.definitions` keeps the tools whose
  toolset is enabled (the seed's ``tools enable/disable``), whose environment variables are
  set and whose ``check_fn`` passes (no Docker -> no docker tool), applies
  ``dynamic_schema_overrides`` (a description computed from configuration), and returns
  the definitions in the Chat Completions, Responses or MCP shape.
  :meth:`ToolRegistry.visibility` says why each hidden tool is hidden.
* **what happens when the model calls one?** :meth:`ToolRegistry.dispatch` parses the
  arguments (``""``/``null`` = no arguments, vllm-project/vllm#19419), validates them against the schema
  (``additionalProperties: false`` rejects misspelled keys, modelcontextprotocol/python-sdk#3067), converts values to the
  handler's annotated types (``"2026-05-04"`` -> ``date``, an object -> a dataclass, with
  pydantic), calls the sync or async handler (with its timeout), serialises the result (dict, dataclass, pydantic model, text)
  and returns the ``role: "tool"`` message. Every failure (unknown tool, hidden tool,
  invalid JSON, non-object arguments, invalid arguments, a handler exception, a timeout)
  becomes a tool message whose content is ``{"error", "tool", "kind", ...}``: the model can
  act on it, and the caller never sees an exception.

Sync and async. :meth:`~ToolRegistry.dispatch` is sync and safe inside a running event loop
(a notebook): an async handler then runs in a worker thread with its own loop, never
``asyncio.run`` in the kernel's loop (deepset-ai/haystack-core-integrations#1621). In async code use
``await registry.adispatch(call)``; :meth:`~ToolRegistry.adispatch_all` runs a message's
calls concurrently (sync handlers in worker threads, as the MCP SDK does).

Extension points for later lessons. ``before_call`` hooks see each validated
:class:`Invocation` and may refuse it by raising :class:`ToolError` (permissions, approval,
circuit breakers: lessons 04-05); ``after_call`` hooks may rewrite the :class:`ToolResult`
(marking tool output as data, truncation). Handlers are plain callables, so resilience
wrappers (retry, fallback) wrap the handler before registration. MCP tools register as a
toolset with an async handler and their schema as given (lesson 10), and
``definitions(format="mcp")`` + :meth:`~ToolRegistry.acall` are what an MCP server built on
the registry needs. Taught in lesson 03.
"""
from __future__ import annotations

import asyncio
import collections.abc
import concurrent.futures
import copy
import dataclasses
import enum
import functools
import inspect
import json
import os
import queue
import threading
import time
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Iterator, Literal, Mapping, Sequence

from .function_calling import ToolArgumentsError, as_dict, parse_arguments
from .i18n import _
from .schema_values import integral_to_int, mentions_integer
from .strict_mode import restore_defaults, to_strict
from .tool_schemas import (
    NAME_PATTERN,
    argument_validator,
    check_schema,
    function_schema,
    to_chat_tool,
    to_mcp_tool,
    to_responses_tool,
    tool_shape,
    validate_arguments,
    validation_error_content,
)
from .tool_schemas import _parts as _tool_parts

Handler = Callable[..., Any]
DefinitionFormat = Literal["chat", "responses", "mcp"]

#: Conventional values of :attr:`ToolEntry.permission` (lesson 05 builds its policy on them).
PERMISSIONS = ("read", "write", "execute", "network")

#: The ``kind`` of every failure :meth:`ToolRegistry.dispatch` can report.
ERROR_KINDS = ("unknown_tool", "unavailable", "invalid_json", "not_an_object", "invalid_arguments", "denied",
               "handler_error", "timeout")


# =========================================================================== errors
class DuplicateToolError(ValueError):
    """A different tool is already registered under this name (tool names must be unique)."""


class ToolUnavailable(Exception):
    """Raised by a ``check_fn`` to say *why* its tool is unavailable (the message is the reason)."""


class ToolError(Exception):
    """Raised by a handler or a ``before_call`` hook for an error the model should read as-is.

    Args:
        message: what went wrong, phrased for the model.
        kind: the error kind reported (default ``"handler_error"``; hooks use ``"denied"``).
        **details: extra JSON-able fields added to the error content.
    """

    def __init__(self, message: str, *, kind: str = "handler_error", **details: Any) -> None:
        super().__init__(message)
        self.kind = kind
        self.details = details


# =========================================================================== records
@dataclass
class ToolEntry:
    """One registered tool (the seed's ``ToolEntry``, plus what lessons 04-05 and 10 need).

    Attributes:
        name: unique name the model calls (``^[a-zA-Z0-9_-]{1,64}$``).
        toolset: the group it belongs to (``"web"``, ``"file"``, ``"mcp:wiki"``...).
        schema: ``{"name", "description", "parameters"}`` as registered (seed 000 §2.2 shape).
        handler: the function called with the arguments as keyword arguments.
        check_fn: availability check, called at request time: returns True/False or raises
            :class:`ToolUnavailable` with the reason. None = always available.
        requires_env: environment variables that must be set (non-empty) for the tool to show.
        is_async: the handler is a coroutine function (detected at registration).
        timeout: seconds the handler may run before the call fails with kind ``"timeout"``
            (None = no limit).
        idempotent: calling twice with the same arguments is safe (retries, lesson 04). None =
            inferred: True for ``permission == "read"``.
        permission: what the tool may do: ``"read"`` (default), ``"write"``, ``"execute"``,
            ``"network"`` (lesson 05's policy reads it).
        strict: advertise the tool with OpenAI strict mode (the schema is converted with
            :func:`~course_lib.strict_mode.to_strict`; incoming ``null`` for an omitted optional
            argument is mapped back to its default).
        schema_override: a zero-argument callable returning schema fields to override at
            request time (``{"description": ...}``); see ``dynamic_schema_overrides``.
        meta: free-form extras (MCP ``title``/``annotations``/``outputSchema``, the source server...).
    """

    name: str
    toolset: str
    schema: dict
    handler: Handler
    check_fn: Callable[[], Any] | None = None
    requires_env: tuple[str, ...] = ()
    is_async: bool = False
    timeout: float | None = None
    idempotent: bool | None = None
    permission: str = "read"
    strict: bool = False
    schema_override: Callable[[], Mapping[str, Any]] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    #: parameter -> pydantic TypeAdapter turning JSON values into the annotated Python type
    #: (``date``, ``Enum``, dataclasses, models, tuples); built at registration from the type hints.
    coercers: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def description(self) -> str:
        """The registered description (before dynamic overrides)."""
        return self.schema.get("description") or ""

    @property
    def parameters(self) -> dict:
        """The registered JSON Schema of the arguments."""
        return self.schema.get("parameters") or {"type": "object", "properties": {}}

    @property
    def is_idempotent(self) -> bool:
        """:attr:`idempotent`, or True for read-only tools when it was not given."""
        return self.idempotent if self.idempotent is not None else self.permission == "read"

    def __repr__(self) -> str:
        extras = "".join([", async" if self.is_async else "", f", timeout={self.timeout}s" if self.timeout else "",
                          f", permission={self.permission!r}" if self.permission != "read" else "",
                          ", strict" if self.strict else ""])
        return f"ToolEntry({self.name!r}, toolset={self.toolset!r}{extras})"


@dataclass(frozen=True)
class Visibility:
    """Whether the model sees a tool right now, and why not when it does not."""

    name: str
    toolset: str
    visible: bool
    reason: str = ""

    def __repr__(self) -> str:
        return f"{'✅' if self.visible else '🚫'} {self.toolset}/{self.name}" + ("" if self.visible else f": {self.reason}")


@dataclass
class Invocation:
    """A validated call on its way to the handler (what ``before_call`` hooks see).

    Attributes:
        registry: the registry dispatching.
        entry: the tool.
        call_id: the ``tool_call_id`` (``""`` for a direct :meth:`ToolRegistry.call`).
        arguments: the validated arguments (a hook may change them).
        meta: scratch space for hooks (e.g. an approval decision).
    """

    registry: "ToolRegistry"
    entry: ToolEntry
    call_id: str
    arguments: dict
    meta: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"Invocation({self.entry.name}({json.dumps(self.arguments, ensure_ascii=False, default=str)}))"


@dataclass
class ToolResult:
    """The outcome of one tool call, in every shape a caller may need.

    Attributes:
        call_id: the ``tool_call_id`` / ``call_id`` it answers.
        name: the tool name the model asked for.
        content: the text the model reads (JSON for structured values and for errors).
        error: None on success, else one of :data:`ERROR_KINDS`.
        value: the handler's raw return value (None on error).
        arguments: the arguments the handler received (None if it was never called).
        duration: seconds spent (parsing, validation, handler).
        shape: ``"chat"`` or ``"responses"``: the shape of the call, for :meth:`reply`.
    """

    call_id: str
    name: str
    content: str
    error: str | None = None
    value: Any = None
    arguments: dict | None = None
    duration: float = 0.0
    shape: str = "chat"

    @property
    def ok(self) -> bool:
        """True when the handler ran and returned."""
        return self.error is None

    def message(self) -> dict:
        """The Chat Completions tool message: ``{"role": "tool", "tool_call_id", "content"}``."""
        return {"role": "tool", "tool_call_id": self.call_id, "content": self.content}

    def output_item(self) -> dict:
        """The Responses API input item: ``{"type": "function_call_output", "call_id", "output"}``."""
        return {"type": "function_call_output", "call_id": self.call_id, "output": self.content}

    def reply(self) -> dict:
        """:meth:`message` or :meth:`output_item`, matching the shape of the call."""
        return self.output_item() if self.shape == "responses" else self.message()

    def mcp_result(self) -> dict:
        """An MCP ``tools/call`` result: ``{"content": [text], "isError"[, "structuredContent"]}``."""
        out: dict[str, Any] = {"content": [{"type": "text", "text": self.content}], "isError": not self.ok}
        if self.ok and not isinstance(self.value, str):
            try:
                structured = json.loads(self.content)
            except ValueError:
                structured = None
            if isinstance(structured, dict):  # MCP structuredContent must be an object
                out["structuredContent"] = structured
        return out

    def __repr__(self) -> str:
        status = "ok" if self.ok else self.error
        return f"ToolResult({self.name} [{status}] {self.content[:80]!r})"


# =========================================================================== helpers
def _json_default(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def serialize_result(value: Any) -> str:
    """A handler's return value as tool message content.

    Text stays text; ``bytes`` are decoded as UTF-8; dicts, lists, numbers, booleans and
    ``None`` become JSON; dataclasses and pydantic models become the JSON of their fields;
    dates become ISO 8601, enums their value, sets sorted lists. Non-ASCII stays readable
    (``ensure_ascii=False``).

    Example:
        >>> serialize_result({"city": "上海", "temp": 28})
        '{"city": "上海", "temp": 28}'

    Taught in lesson 03.
    """
    if isinstance(value, str):
        return value
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", errors="replace")
    return json.dumps(value, ensure_ascii=False, default=_json_default)


def error_content(tool: str, kind: str, message: str, **details: Any) -> str:
    """The content of a tool message reporting a failure: ``{"error", "tool", "kind", ...}``.

    Example:
        >>> error_content("get_time", "unknown_tool", "no tool named 'get_time'")
        '{"error": "no tool named \\'get_time\\'", "tool": "get_time", "kind": "unknown_tool"}'
    """
    return json.dumps({"error": message, "tool": tool, "kind": kind, **details}, ensure_ascii=False,
                      default=_json_default)


#: At most this many sync handlers run at once in worker threads (more wait their turn).
MAX_HANDLER_THREADS = 32


class HandlerPool:
    """A bounded pool of reused **daemon** threads for sync handlers.

    ``concurrent.futures.ThreadPoolExecutor`` (and asyncio's default executor) joins its threads at
    interpreter exit, so one hung handler would keep a notebook kernel or a stdio server from
    exiting; a thread per call (what this replaced) costs an OS thread start on every call
    (about a third of an in-memory MCP ``tools/call``). Here at most ``max_workers`` daemon threads
    are started, on demand, and reused; calls beyond that queue.

    Args:
        max_workers: the most threads ever started.
    """

    def __init__(self, max_workers: int = MAX_HANDLER_THREADS) -> None:
        self.max_workers = max_workers
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._threads = 0
        self._unfinished = 0  # jobs submitted and not finished yet

    def submit(self, fn: Callable[[], Any]) -> concurrent.futures.Future:
        """Run ``fn()`` in a worker thread; returns its ``concurrent.futures.Future``."""
        future: concurrent.futures.Future = concurrent.futures.Future()
        with self._lock:
            self._unfinished += 1
            start = self._unfinished > self._threads and self._threads < self.max_workers  # every thread is busy
            if start:
                self._threads += 1
        self._jobs.put((future, fn))
        if start:
            threading.Thread(target=self._work, daemon=True, name=f"tool-handler-{self._threads}").start()
        return future

    def _work(self) -> None:
        while True:
            future, fn = self._jobs.get()
            try:
                if future.set_running_or_notify_cancel():
                    try:
                        future.set_result(fn())
                    except BaseException as e:  # delivered to the waiting caller
                        future.set_exception(e)
            finally:
                with self._lock:
                    self._unfinished -= 1

    def __repr__(self) -> str:
        return f"HandlerPool({self._threads}/{self.max_workers} threads)"


_POOL = HandlerPool()


def _run_in_thread(fn: Callable[[], Any]) -> concurrent.futures.Future:
    """Run ``fn`` in a reused daemon thread (:class:`HandlerPool`); a hung handler never blocks exit."""
    return _POOL.submit(fn)


def run_sync(awaitable: Awaitable[Any], timeout: float | None = None) -> Any:
    """Run a coroutine to completion from sync code, even inside a running event loop.

    Without a running loop in this thread it uses ``asyncio.run``; inside one (a Jupyter
    kernel) it runs the coroutine in a worker thread with its own loop instead of failing
    with "asyncio.run() cannot be called from a running event loop" (no nest_asyncio).

    Args:
        awaitable: the coroutine.
        timeout: seconds before ``TimeoutError`` (the coroutine is cancelled).

    Raises:
        TimeoutError: the timeout passed; whatever the coroutine raised.

    Taught in lesson 03.
    """
    async def bounded() -> Any:
        return await asyncio.wait_for(awaitable, timeout) if timeout is not None else await awaitable

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(bounded())
    future = _run_in_thread(lambda: asyncio.run(bounded()))
    # The coroutine is cancelled at `timeout`; the grace second covers a handler that
    # blocks its loop without awaiting (its thread is left behind as a daemon).
    return future.result(None if timeout is None else timeout + 1.0)


def _call_id(call: dict) -> str:
    return str(call.get("id") or call.get("call_id") or "")


def _normalise_call(call: Any) -> tuple[str, str, Any, str]:
    """(call_id, name, raw arguments, shape) of a tool call in any accepted form."""
    # A plain dict (the usual case) skips the probing: hasattr misses and an isinstance check against
    # typing.Mapping (a generic alias, not the ABC) cost about 2 µs of a ~10 µs dispatch.
    if type(call) is not dict:
        if hasattr(call, "model_dump") or hasattr(call, "to_dict"):
            call = as_dict(call)
        if not isinstance(call, collections.abc.Mapping):
            return "", "", None, "chat"
        call = dict(call)
    fn = call.get("function")
    if type(fn) is dict or isinstance(fn, collections.abc.Mapping):  # Chat Completions tool_calls[i]
        return _call_id(call), str(fn.get("name") or ""), fn.get("arguments"), "chat"
    shape = "responses" if call.get("type") == "function_call" else "chat"
    return _call_id(call), str(call.get("name") or ""), call.get("arguments"), shape


@dataclass
class _Compiled:
    """What dispatch needs of one tool, cached (see ``ToolRegistry._compile``)."""

    entry: ToolEntry
    key: tuple
    schema: dict
    parameters: dict
    validator: Any
    integers: bool  # the parameters type something as "integer" somewhere
    fast: Callable[[Any], Any] | None = None  # a compiled "is it valid?" check, when it agrees with jsonschema

    def argument_errors(self, arguments: dict, *, from_json: bool) -> list:
        """``validate_arguments`` with the cached validator; the fast check first for arguments parsed from JSON."""
        if from_json and self.fast is not None:
            try:
                self.fast(arguments)
                return []
            except Exception:  # invalid (or unsure): jsonschema decides and says why
                pass
        return validate_arguments(arguments, self.parameters, validator=self.validator)


# Keywords whose meaning is the same in draft-07 (what fastjsonschema implements) and in 2020-12 (what
# validate_arguments checks). A schema using only these, with no "format" and no keyword beside a "$ref",
# is judged alike by both; fastjsonschema's compiled code answers "valid" about 15 times faster.
_SAME_IN_BOTH_DRAFTS = frozenset({
    "type", "properties", "required", "additionalProperties", "enum", "const", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "items", "minItems",
    "maxItems", "uniqueItems", "minProperties", "maxProperties", "anyOf", "oneOf", "allOf", "not", "$ref", "$defs",
    "definitions", "description", "title", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly"})
_ANNOTATIONS = frozenset({"description", "title", "default", "examples", "$comment", "deprecated"})


def _same_in_both_drafts(schema: Any) -> bool:
    if isinstance(schema, bool):
        return True
    if not isinstance(schema, dict) or not set(schema) <= _SAME_IN_BOTH_DRAFTS:
        return False
    if "$ref" in schema and (not str(schema["$ref"]).startswith("#") or set(schema) - _ANNOTATIONS - {"$ref"}):
        return False  # draft-07 ignores a $ref's siblings; 2020-12 applies them
    if isinstance(schema.get("items"), list):
        return False  # tuple form: prefixItems in 2020-12
    subschemas = [schema.get(k) for k in ("additionalProperties", "items", "not") if k in schema]
    subschemas += [v for k in ("properties", "$defs", "definitions") for v in (schema.get(k) or {}).values()]
    subschemas += [v for k in ("anyOf", "oneOf", "allOf") for v in (schema.get(k) or [])]
    return all(_same_in_both_drafts(sub) for sub in subschemas)


def _fast_check(parameters: dict) -> Callable[[Any], Any] | None:
    """A compiled check that accepts exactly what ``validate_arguments`` accepts, or None when unsure."""
    if not _same_in_both_drafts(parameters):
        return None
    try:
        import fastjsonschema

        return fastjsonschema.compile(parameters, use_default=False, use_formats=False)
    except Exception:  # a schema it cannot compile: jsonschema alone decides
        return None


# =========================================================================== the registry
class ToolRegistry:
    """Tools by name, grouped in toolsets; what the model sees now; validated dispatch.

    Args:
        name: shown in ``repr`` and pictures.
        env: where ``requires_env`` looks (default ``os.environ``; tests pass a dict).

    Example:
        >>> reg = ToolRegistry("demo", env={})
        >>> @reg.tool(toolset="weather")
        ... def get_weather(city: str) -> dict:
        ...     '''Get the current weather for a city.'''
        ...     return {"city": city, "temp": 28}
        >>> [d["function"]["name"] for d in reg.definitions()]
        ['get_weather']
        >>> reg.dispatch({"id": "call_1", "type": "function",
        ...               "function": {"name": "get_weather", "arguments": '{"city": "上海"}'}})
        {'role': 'tool', 'tool_call_id': 'call_1', 'content': '{"city": "上海", "temp": 28}'}
        >>> bad = reg.dispatch({"id": "call_2", "type": "function",
        ...                     "function": {"name": "get_weather", "arguments": '{"town": "Paris"}'}})
        >>> json.loads(bad["content"])["error"]
        "invalid arguments: missing required argument 'city'; unexpected argument 'town' (allowed: city)"

    Taught in lesson 03.
    """

    def __init__(self, name: str = "registry", *, env: Mapping[str, str] | None = None) -> None:
        self.name = name
        self.env: Mapping[str, str] = os.environ if env is None else env
        self._tools: dict[str, ToolEntry] = {}
        self._disabled: set[str] = set()
        #: name -> zero-argument callable returning schema fields to override at request time.
        self.dynamic_schema_overrides: dict[str, Callable[[], Mapping[str, Any]]] = {}
        self._before: list[Callable[[Invocation], Any]] = []
        self._after: list[Callable[[Invocation, ToolResult], ToolResult | None]] = []
        self._lock = threading.RLock()
        self._compiled: dict[str, _Compiled] = {}  # per tool: effective schema + validator (see _compile)

    # ------------------------------------------------------------------ registration
    def register(self, name: str | None = None, toolset: str = "default", schema: Any = None,
                 handler: Handler | None = None, check_fn: Callable[[], Any] | None = None,
                 requires_env: Sequence[str] = (), *, timeout: float | None = None,
                 idempotent: bool | None = None, permission: str = "read", strict: bool = False,
                 schema_override: Callable[[], Mapping[str, Any]] | None = None,
                 meta: Mapping[str, Any] | None = None, replace: bool = False) -> ToolEntry:
        """Register a tool (the seed's ``registry.register(name=, toolset=, schema=, handler=, ...)``).

        Args:
            name: tool name; default: the schema's name, else ``handler.__name__``.
            toolset: the group (enable/disable works per toolset).
            schema: the definition in any shape (seed ``{"name", "description", "parameters"}``,
                Chat Completions, Responses, MCP ``inputSchema``); default: generated from the
                handler's signature and docstring (:func:`~course_lib.tool_schemas.function_schema`).
            handler: the function to call (sync or ``async def``), with keyword arguments.
            check_fn, requires_env, timeout, idempotent, permission, strict, schema_override,
                meta: see :class:`ToolEntry`.
            replace: replace an existing tool of the same name instead of refusing.

        Returns:
            The new :class:`ToolEntry`.

        Raises:
            DuplicateToolError: the name is taken by a different handler. Re-registering the
                same function (same module and qualified name, as when a notebook cell runs
                again) replaces the entry instead.
            ValueError: invalid name, invalid schema (metaschema), or schema/name mismatch.
            TypeError: no handler, or a signature with no JSON form.
        """
        if handler is None or not callable(handler):
            raise TypeError(f"register({name!r}): handler must be a callable, got {handler!r}")
        if schema is None:
            fn = function_schema(handler, name=name)["function"]
        else:
            sname, description, parameters, sstrict, extras = _tool_parts(_as_tool(schema, name or handler.__name__))
            fn = {"name": sname, "description": description or "", "parameters": copy.deepcopy(parameters)}
            strict = strict or bool(sstrict)
            if extras:
                meta = {**extras, **(meta or {})}
        tool_name = name or fn["name"]
        if fn["name"] != tool_name:
            raise ValueError(f"register({tool_name!r}): the schema is named {fn['name']!r}; use one name")
        if not NAME_PATTERN.match(tool_name):
            raise ValueError(f"tool name {tool_name!r} must match {NAME_PATTERN.pattern}")
        problems = check_schema(fn["parameters"])
        if problems:
            raise ValueError(f"register({tool_name!r}): invalid parameters schema: {'; '.join(problems)}")
        entry = ToolEntry(name=tool_name, toolset=toolset, schema=fn, handler=handler, check_fn=check_fn,
                          requires_env=tuple(requires_env), is_async=_is_async(handler), timeout=timeout,
                          idempotent=idempotent, permission=permission, strict=strict,
                          schema_override=schema_override, meta=dict(meta or {}), coercers=_coercers(handler))
        with self._lock:
            old = self._tools.get(tool_name)
            if old is not None and not replace and not _same_function(old.handler, handler):
                raise DuplicateToolError(
                    f"a tool named {tool_name!r} is already registered (toolset {old.toolset!r}, handler "
                    f"{_qualname(old.handler)}); tool names must be unique because the model calls by name. "
                    "Pick another name, unregister the old tool, or pass replace=True.")
            self._tools[tool_name] = entry
        return entry

    def tool(self, fn: Handler | None = None, /, *, name: str | None = None, toolset: str = "default",
             schema: Any = None, **options: Any) -> Any:
        """Decorator form of :meth:`register`; the function is returned unchanged.

        ``@registry.tool`` or ``@registry.tool(toolset="web", requires_env=["API_KEY"])``.
        Without ``schema`` the schema comes from the signature and docstring.
        """
        def decorate(f: Handler) -> Handler:
            self.register(name, toolset, schema, f, **options)
            return f

        return decorate(fn) if fn is not None else decorate

    def unregister(self, name: str) -> ToolEntry:
        """Remove a tool; returns its entry. Raises KeyError if there is none."""
        with self._lock:
            entry = self._tools.pop(name)
            self.dynamic_schema_overrides.pop(name, None)
            return entry

    def remove_toolset(self, toolset: str) -> list[str]:
        """Remove every tool of ``toolset`` (e.g. an MCP server that went away); returns their names."""
        with self._lock:
            names = [n for n, e in self._tools.items() if e.toolset == toolset]
            for n in names:
                self.unregister(n)
            return names

    def copy(self, name: str | None = None) -> "ToolRegistry":
        """An independent registry with the same entries, toolset switches and overrides."""
        other = ToolRegistry(name or self.name, env=self.env)
        other._tools = dict(self._tools)
        other._disabled = set(self._disabled)
        other.dynamic_schema_overrides = dict(self.dynamic_schema_overrides)
        other._before, other._after = list(self._before), list(self._after)
        return other

    # ------------------------------------------------------------------ lookup
    def get(self, name: str) -> ToolEntry:
        """The entry named ``name``. Raises KeyError (listing the names there are)."""
        try:
            return self._tools[name]
        except KeyError:
            raise KeyError(f"no tool named {name!r}; registered: {', '.join(self._tools) or 'none'}") from None

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __len__(self) -> int:
        return len(self._tools)

    def __iter__(self) -> Iterator[ToolEntry]:
        return iter(list(self._tools.values()))

    @property
    def names(self) -> list[str]:
        """Every registered tool name, in registration order."""
        return list(self._tools)

    def toolsets(self) -> dict[str, list[str]]:
        """``{toolset: [tool names]}`` for every registered tool."""
        out: dict[str, list[str]] = {}
        for e in self._tools.values():
            out.setdefault(e.toolset, []).append(e.name)
        return out

    # ------------------------------------------------------------------ toolsets and availability
    def enable(self, *toolsets: str) -> None:
        """Show the tools of these toolsets again (``hermes tools enable``)."""
        self._disabled.difference_update(toolsets)

    def disable(self, *toolsets: str) -> None:
        """Hide the tools of these toolsets from the model (``hermes tools disable``)."""
        self._disabled.update(toolsets)

    def is_enabled(self, toolset: str) -> bool:
        return toolset not in self._disabled

    @property
    def disabled_toolsets(self) -> set[str]:
        return set(self._disabled)

    def availability(self, name: str, toolsets: Sequence[str] | None = None) -> Visibility:
        """Whether ``name`` is visible now and, if not, the first reason why.

        Checked in order: the toolset is disabled (or not among ``toolsets`` asked for this
        request); a ``requires_env`` variable is unset or empty; ``check_fn`` returned a false
        value, raised :class:`ToolUnavailable` (its message is the reason) or failed.
        """
        entry = self.get(name)
        if not self.is_enabled(entry.toolset):
            return Visibility(name, entry.toolset, False, f"toolset {entry.toolset!r} is disabled")
        if toolsets is not None and entry.toolset not in toolsets:
            return Visibility(name, entry.toolset, False, f"toolset {entry.toolset!r} not selected for this request")
        missing = [v for v in entry.requires_env if not self.env.get(v)]
        if missing:
            return Visibility(name, entry.toolset, False,
                              f"missing environment variable{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
        if entry.check_fn is not None:
            try:
                ok = entry.check_fn()
            except ToolUnavailable as e:
                return Visibility(name, entry.toolset, False, str(e) or f"{_qualname(entry.check_fn)} failed")
            except Exception as e:  # a broken check hides the tool rather than breaking the request
                return Visibility(name, entry.toolset, False,
                                  f"{_qualname(entry.check_fn)} raised {type(e).__name__}: {e}")
            if not ok:
                return Visibility(name, entry.toolset, False, f"{_qualname(entry.check_fn)}() returned {ok!r}")
        return Visibility(name, entry.toolset, True)

    def visibility(self, toolsets: Sequence[str] | None = None) -> list[Visibility]:
        """:meth:`availability` of every tool, in registration order."""
        return [self.availability(n, toolsets) for n in self.names]

    # ------------------------------------------------------------------ what the model sees
    def effective_schema(self, name: str) -> dict:
        """The schema of ``name`` as advertised now: dynamic overrides applied, strict converted.

        Overrides come from ``dynamic_schema_overrides[name]`` (registry-level) and then the
        entry's own ``schema_override``; each returns fields such as ``description`` or
        ``parameters`` to replace. Returns a copy the caller may change.
        """
        self.get(name)  # KeyError naming the registered tools
        return copy.deepcopy(self._compile(name).schema)

    def _compile(self, name: str) -> "_Compiled":
        """The effective schema and argument validator of ``name``, built once and reused.

        Rebuilt only when something they depend on changes: the entry (``register`` again,
        ``replace=True``, ``unregister``) or what an override returns now (compared as JSON, and
        only for tools that have overrides). Dispatch then neither deep-copies a schema nor builds a
        validator per call. Edit a tool by registering it again, not by mutating
        ``entry.schema`` in place.
        """
        entry = self._tools[name]
        fields = [dict(o()) for o in (self.dynamic_schema_overrides.get(name), entry.schema_override) if o is not None]
        key = tuple(json.dumps(f, sort_keys=True, default=str) for f in fields)
        compiled = self._compiled.get(name)
        if compiled is not None and compiled.entry is entry and compiled.key == key:
            return compiled
        schema = copy.deepcopy(entry.schema)
        for f in fields:
            schema.update(copy.deepcopy(f))
        schema["name"] = name
        if entry.strict:
            schema["parameters"] = to_strict(schema.get("parameters") or {"type": "object", "properties": {}})
            schema["strict"] = True
        parameters = schema.get("parameters") or {}
        compiled = _Compiled(entry, key, schema, parameters, argument_validator(parameters),
                             mentions_integer(parameters), _fast_check(parameters))
        self._compiled[name] = compiled
        return compiled

    def parameters_schema(self, name: str) -> dict:
        """The effective ``parameters`` of ``name`` (read-only: the cached object itself, not a copy)."""
        self.get(name)
        return self._compile(name).parameters

    def definitions(self, format: DefinitionFormat = "chat", *, toolsets: Sequence[str] | None = None) -> list[dict]:
        """The tool definitions to send with the next request: only what is visible now.

        Args:
            format: ``"chat"`` (Chat Completions ``tools``), ``"responses"`` (Responses API
                flat function tools) or ``"mcp"`` (``tools/list`` entries with ``inputSchema``).
            toolsets: restrict this request to these toolsets (besides the disabled ones).

        Returns:
            A list of tool definitions, in registration order.
        """
        out = []
        for entry in self:
            if not self.availability(entry.name, toolsets).visible:
                continue
            schema = self.effective_schema(entry.name)
            chat = to_chat_tool({"type": "function", "function": schema})
            if format == "chat":
                out.append(chat)
            elif format == "responses":
                out.append(to_responses_tool(chat))
            elif format == "mcp":
                extras = {k: v for k, v in entry.meta.items() if k in ("title", "annotations", "outputSchema", "icons")}
                if "annotations" not in extras:
                    extras["annotations"] = {"readOnlyHint": entry.permission == "read",
                                             "idempotentHint": entry.is_idempotent}
                out.append(to_mcp_tool(chat, **extras))
            else:
                raise ValueError(f"format must be 'chat', 'responses' or 'mcp', not {format!r}")
        return out

    # ------------------------------------------------------------------ hooks
    def before_call(self, hook: Callable[[Invocation], Any]) -> Callable[[Invocation], Any]:
        """Register a hook run before every handler call (decorator-friendly).

        The hook receives the validated :class:`Invocation`; raising :class:`ToolError`
        refuses the call (kind ``"denied"`` unless the error says otherwise).
        """
        self._before.append(hook)
        return hook

    def after_call(self, hook: Callable[[Invocation, ToolResult], ToolResult | None]) -> Callable:
        """Register a hook run after every handler call; it may return a replacement :class:`ToolResult`."""
        self._after.append(hook)
        return hook

    # ------------------------------------------------------------------ dispatch
    def _prepare(self, call: Any, toolsets: Sequence[str] | None) -> Invocation | ToolResult:
        """Everything before the handler: resolve, check visibility, parse, validate, hooks."""
        started = time.perf_counter()
        call_id, name, raw, shape = _normalise_call(call)

        def fail(kind: str, message: str, **details: Any) -> ToolResult:
            return ToolResult(call_id, name, error_content(name, kind, message, **details), kind,
                              duration=time.perf_counter() - started, shape=shape)

        if name not in self._tools:
            visible = [v.name for v in self.visibility(toolsets) if v.visible]
            return fail("unknown_tool", f"no tool named {name!r}", available=visible)
        vis = self.availability(name, toolsets)
        if not vis.visible:
            return fail("unavailable", f"tool {name!r} is unavailable now: {vis.reason}")
        try:
            arguments = parse_arguments(raw)
        except ToolArgumentsError as e:
            kind = "not_an_object" if str(e).startswith("arguments must be") else "invalid_json"
            return fail(kind, str(e))
        compiled = self._compile(name)
        errors = compiled.argument_errors(arguments, from_json=isinstance(raw, str))
        if errors:
            return ToolResult(call_id, name, validation_error_content(name, errors, compiled.schema.get("parameters")),
                              "invalid_arguments", duration=time.perf_counter() - started, shape=shape)
        entry = compiled.entry
        if entry.strict:
            arguments = restore_defaults(arguments, entry.schema.get("parameters") or {})
        if compiled.integers:  # 60.0 for an integer reaches the handler as 60
            arguments = integral_to_int(arguments, compiled.parameters)
        if entry.coercers:
            try:
                arguments = _coerce(arguments, entry.coercers)
            except ValueError as e:
                return fail("invalid_arguments", f"invalid arguments: {e}")
        inv = Invocation(self, entry, call_id, arguments)
        for hook in self._before:
            try:
                hook(inv)
            except ToolError as e:
                return fail(e.kind if e.kind != "handler_error" else "denied", str(e), **e.details)
            except Exception as e:  # a broken policy refuses rather than letting the call through
                return fail("denied", f"refused: {type(e).__name__}: {e}")
        inv.meta["started"] = started
        inv.meta["shape"] = shape
        return inv

    def _finish(self, inv: Invocation, value: Any = None, exc: BaseException | None = None) -> ToolResult:
        entry = inv.entry
        duration = time.perf_counter() - inv.meta["started"]
        shape = inv.meta.get("shape", "chat")
        if exc is None:
            try:
                content = serialize_result(value)
            except Exception as e:  # a result that cannot be serialised is the tool's fault
                exc = e
            else:
                result = ToolResult(inv.call_id, entry.name, content, None, value, inv.arguments, duration, shape)
        if exc is not None:
            if isinstance(exc, (TimeoutError, asyncio.TimeoutError, concurrent.futures.TimeoutError)):
                kind, message, details = "timeout", f"{entry.name} did not finish within {entry.timeout} s", {}
            elif isinstance(exc, ToolError):
                kind, message, details = exc.kind, str(exc), exc.details
            else:
                kind, message, details = "handler_error", f"{type(exc).__name__}: {exc}", {}
            result = ToolResult(inv.call_id, entry.name, error_content(entry.name, kind, message, **details), kind,
                                None, inv.arguments, duration, shape)
        for hook in self._after:
            try:
                replaced = hook(inv, result)
            except Exception as e:  # an after-hook must not lose the result
                replaced = dataclasses.replace(result, content=error_content(
                    entry.name, "handler_error", f"after_call hook failed: {type(e).__name__}: {e}"),
                    error="handler_error")
            if replaced is not None:
                result = replaced
        return result

    def run(self, call: Any, *, toolsets: Sequence[str] | None = None) -> ToolResult:
        """Execute one tool call synchronously; returns a :class:`ToolResult` (never raises).

        Args:
            call: a tool call: an SDK object or dict in the Chat Completions shape
                (``{"id", "type": "function", "function": {"name", "arguments"}}``), a Responses
                ``function_call`` item (``{"call_id", "name", "arguments"}``), or ``{"name", "arguments"}``.
                ``arguments`` may be a JSON string, a dict, ``""`` or ``None``.
            toolsets: only these toolsets are callable for this request.
        """
        prepared = self._prepare(call, toolsets)
        if isinstance(prepared, ToolResult):
            return prepared
        inv, entry = prepared, prepared.entry
        try:
            if entry.is_async:
                value = run_sync(entry.handler(**inv.arguments), entry.timeout)
            elif entry.timeout is not None:
                value = _run_in_thread(functools.partial(entry.handler, **inv.arguments)).result(entry.timeout)
            else:
                value = entry.handler(**inv.arguments)
                if inspect.isawaitable(value):  # a sync wrapper returning a coroutine
                    value = run_sync(value)
        except BaseException as e:  # every failure becomes a message the model can read
            if isinstance(e, (KeyboardInterrupt, SystemExit)):
                raise
            return self._finish(inv, exc=e)
        return self._finish(inv, value)

    async def arun(self, call: Any, *, toolsets: Sequence[str] | None = None) -> ToolResult:
        """Async :meth:`run`: awaits async handlers, runs sync ones in a worker thread."""
        prepared = self._prepare(call, toolsets)
        if isinstance(prepared, ToolResult):
            return prepared
        inv, entry = prepared, prepared.entry
        try:
            if entry.is_async:
                value = await asyncio.wait_for(entry.handler(**inv.arguments), entry.timeout)
            else:
                future = _run_in_thread(functools.partial(entry.handler, **inv.arguments))
                value = await asyncio.wait_for(asyncio.wrap_future(future), entry.timeout)
                if inspect.isawaitable(value):
                    value = await asyncio.wait_for(value, entry.timeout)
        except asyncio.CancelledError:
            raise
        except Exception as e:
            return self._finish(inv, exc=e)
        return self._finish(inv, value)

    def dispatch(self, call: Any, *, toolsets: Sequence[str] | None = None) -> dict:
        """Execute one tool call and return the message to append (never raises).

        Returns:
            ``{"role": "tool", "tool_call_id", "content"}`` for a Chat Completions call, or
            ``{"type": "function_call_output", "call_id", "output"}`` for a Responses one.
        """
        return self.run(call, toolsets=toolsets).reply()

    async def adispatch(self, call: Any, *, toolsets: Sequence[str] | None = None) -> dict:
        """Async :meth:`dispatch`."""
        return (await self.arun(call, toolsets=toolsets)).reply()

    def dispatch_all(self, message_or_calls: Any, *, toolsets: Sequence[str] | None = None) -> list[dict]:
        """One reply per call of an assistant message (or a list of calls), in order, one after another."""
        return [self.dispatch(c, toolsets=toolsets) for c in _calls_of(message_or_calls)]

    async def adispatch_all(self, message_or_calls: Any, *, toolsets: Sequence[str] | None = None) -> list[dict]:
        """Like :meth:`dispatch_all`, but the calls run concurrently (``asyncio.gather``); order kept."""
        results = await asyncio.gather(*(self.arun(c, toolsets=toolsets) for c in _calls_of(message_or_calls)))
        return [r.reply() for r in results]

    def call(self, name: str, arguments: Mapping[str, Any] | str | None = None) -> ToolResult:
        """Call a tool by name (no model involved: an MCP ``tools/call``, a test, a script)."""
        return self.run({"name": name, "arguments": dict(arguments) if isinstance(arguments, Mapping) else arguments})

    async def acall(self, name: str, arguments: Mapping[str, Any] | str | None = None) -> ToolResult:
        """Async :meth:`call`."""
        return await self.arun({"name": name,
                                "arguments": dict(arguments) if isinstance(arguments, Mapping) else arguments})

    # ------------------------------------------------------------------ pictures
    def diagram(self, *, toolsets: Sequence[str] | None = None, title: str | None = None) -> Any:
        """A picture of the registry: one column per toolset, visible tools green, hidden grey with the reason.

        Columns fit the figure (at most :data:`~course_lib.diagrams.MAX_WIDTH` inches wide; more toolsets
        wrap into a second band), names and reasons are wrapped to their box; ✔ and ✘ say what colour says.

        Returns:
            A :class:`~course_lib.diagrams.CourseFigure` (text fallback: :meth:`describe`).
        """
        from .diagrams import FONT, FONT_SMALL, FONT_TITLE, GREY, INK, MAX_WIDTH, figure, wrap_to_width

        vis = {v.name: v for v in self.visibility(toolsets)}
        groups = list(self.toolsets().items())
        per_band = max(1, min(len(groups), 4))
        bands = [groups[i:i + per_band] for i in range(0, len(groups), per_band)] or [[]]
        col_w = (MAX_WIDTH - 0.2) / per_band
        box_h = {n: 0.3 + (0.19 * len(wrap_to_width(vis[n].reason, col_w - 0.35, FONT_SMALL, max_lines=3))
                           if not vis[n].visible else 0.0) for n in vis}
        band_h = [0.45 + max([sum(box_h[n] + 0.1 for n in names) for _toolset, names in band] + [0.4]) for band in bands]
        title_h = 0.55
        height = title_h + sum(band_h) + 0.1
        fig = figure(MAX_WIDTH if len(groups) > 1 else max(4.5, col_w), height, text=self.describe(toolsets=toolsets))
        width = fig.get_figwidth()
        col_w = min(col_w, width - 0.2)
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, width)
        ax.set_ylim(0, height)
        ax.axis("off")
        top = height - title_h
        for band, bh in zip(bands, band_h):
            for c, (toolset, names) in enumerate(band):
                x = 0.1 + c * col_w
                enabled = self.is_enabled(toolset)
                ax.text(x + col_w / 2, top - 0.2, toolset + ("" if enabled else _(" (disabled)")), ha="center",
                        va="center", fontsize=FONT, weight="bold", color=INK if enabled else GREY)
                y = top - 0.45
                for n in names:
                    v = vis[n]
                    h = box_h[n]
                    face, edge = ("#D5F0E6", "#009E73") if v.visible else ("#F2F2F2", GREY)
                    ax.add_patch(_box(x + 0.08, y - h, col_w - 0.16, h, face, edge))
                    name = wrap_to_width(("✔ " if v.visible else "✘ ") + n, col_w - 0.35, FONT_SMALL, max_lines=1)[0]
                    ax.text(x + col_w / 2, y - 0.15, name, ha="center", va="center", fontsize=FONT_SMALL, color=INK,
                            weight="bold" if v.visible else "normal")
                    if not v.visible:
                        reason = wrap_to_width(v.reason, col_w - 0.35, FONT_SMALL, max_lines=3)
                        ax.text(x + col_w / 2, y - 0.3, "\n".join(reason), ha="center", va="top", fontsize=FONT_SMALL,
                                color="#4D4D4D", linespacing=1.2)
                    y -= h + 0.1
            top -= bh
        shown = sum(v.visible for v in vis.values())
        heading = title or _("{name}: the model sees {shown} of {total} tools").format(
            name=self.name, shown=shown, total=len(vis))
        fig.suptitle("\n".join(wrap_to_width(heading, width - 0.3, FONT_TITLE, max_lines=2)), fontsize=FONT_TITLE,
                     y=1 - 0.08 / height, va="top")
        return fig

    def describe(self, *, toolsets: Sequence[str] | None = None) -> str:
        """A text table of every tool: toolset, name, visible or the reason it is hidden."""
        lines = []
        for toolset, names in self.toolsets().items():
            lines.append(f"[{toolset}]" + ("" if self.is_enabled(toolset) else " (disabled)"))
            for n in names:
                v = self.availability(n, toolsets)
                lines.append(f"  {'✔' if v.visible else '✘'} {n:<22}" + ("" if v.visible else f" hidden: {v.reason}"))
        return "\n".join(lines)

    def __repr__(self) -> str:
        sets = ", ".join(f"{t}: {len(n)}" + ("" if self.is_enabled(t) else " (off)") for t, n in self.toolsets().items())
        return f"ToolRegistry({self.name!r}, {len(self)} tools; {sets or 'empty'})"


def _box(x: float, y: float, w: float, h: float, face: str, edge: str) -> Any:
    from matplotlib.patches import FancyBboxPatch

    return FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0.02", fc=face, ec=edge, lw=1.2)


def _short(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _calls_of(message_or_calls: Any) -> list[Any]:
    if isinstance(message_or_calls, (list, tuple)):
        return list(message_or_calls)
    return list(as_dict(message_or_calls).get("tool_calls") or [])


def _as_tool(schema: Any, default_name: str) -> dict:
    """Accept the seed's bare ``{"name", "description", "parameters"}`` besides the three wire shapes."""
    if hasattr(schema, "model_dump") and not isinstance(schema, dict):
        schema = schema.model_dump(by_alias=True, exclude_none=True)
    if not isinstance(schema, Mapping):
        raise ValueError(f"schema must be a dict, got {type(schema).__name__}")
    schema = dict(schema)
    try:
        tool_shape(schema)
        return schema
    except ValueError:
        pass
    if "parameters" in schema or "description" in schema:
        return {"type": "function", "function": {"name": schema.get("name", default_name), **schema}}
    if schema.get("type") == "object":  # only a parameters schema
        return {"type": "function", "function": {"name": default_name, "parameters": schema}}
    raise ValueError("schema must be a tool definition ({'name', 'description', 'parameters'}, Chat, Responses "
                     "or MCP shape) or a parameters schema ({'type': 'object', ...})")


_JSON_NATIVE = (str, int, float, bool, type(None), Any, dict, list)


def _json_native(annotation: Any) -> bool:
    """True when a JSON value already has the annotated Python type (no conversion needed)."""
    if annotation in _JSON_NATIVE or annotation is inspect.Parameter.empty:
        return True
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is Literal:
        return True
    if origin is typing.Annotated:
        return _json_native(args[0])
    if origin in (list, dict, typing.Union, types.UnionType):
        return all(_json_native(a) for a in args)
    return False


def _coercers(handler: Callable[..., Any]) -> dict[str, Any]:
    """A pydantic ``TypeAdapter`` per parameter whose annotation JSON cannot carry as-is.

    A model sends ``"2026-05-04"`` for ``day: date`` and an object for ``owner: Person``; the
    handler should receive a ``date`` and a ``Person``, as its signature says.
    """
    try:
        params = inspect.signature(handler).parameters
        hints = typing.get_type_hints(handler, include_extras=True)
    except Exception:  # builtins, unresolvable forward references: pass values through unchanged
        return {}
    out: dict[str, Any] = {}
    for name, param in params.items():
        annotation = hints.get(name, inspect.Parameter.empty)
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD) or _json_native(annotation):
            continue
        try:
            from pydantic import TypeAdapter

            out[name] = TypeAdapter(annotation)
        except Exception:  # a type pydantic cannot handle: leave that argument as JSON gave it
            continue
    return out


def _coerce(arguments: dict, coercers: Mapping[str, Any]) -> dict:
    """``arguments`` with each value converted to its annotated type.

    Raises:
        ValueError: a value does not convert; the message names where and why, not the value.
    """
    out = dict(arguments)
    for name, adapter in coercers.items():
        if name not in out or out[name] is None:
            continue
        try:
            out[name] = adapter.validate_python(out[name])
        except Exception as e:  # pydantic.ValidationError: keep locations and reasons, drop the inputs
            errors = getattr(e, "errors", lambda: [])()
            reasons = "; ".join(f"{'/'.join(str(p) for p in (name, *err.get('loc', ())))}: {err.get('msg')}"
                                for err in errors) or f"{name}: cannot be converted"
            raise ValueError(reasons) from None
    return out


def _is_async(fn: Callable[..., Any]) -> bool:
    target = fn
    while isinstance(target, functools.partial):
        target = target.func
    return inspect.iscoroutinefunction(target) or inspect.iscoroutinefunction(getattr(target, "__call__", None))


def _qualname(fn: Any) -> str:
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"


def _same_function(a: Any, b: Any) -> bool:
    """Same module + qualified name: the same function defined again (a re-run or edited notebook cell).

    Lambdas all share the name ``<lambda>``, so for them the code location must match too.
    """
    if a is b:
        return True
    if not hasattr(a, "__qualname__") or _qualname(a) != _qualname(b):
        return False
    if a.__qualname__.endswith("<lambda>"):
        ca, cb = getattr(a, "__code__", None), getattr(b, "__code__", None)
        return ca is not None and cb is not None and (ca.co_filename, ca.co_firstlineno) == (cb.co_filename,
                                                                                               cb.co_firstlineno)
    return True


# =========================================================================== the default registry
#: The process-wide registry (Hermes keeps one singleton that every tool module registers into
#: at import time). Convenient for applications; tests and lessons use their own instances so
#: that no state leaks between them.
default_registry = ToolRegistry("default")


def tool(fn: Handler | None = None, /, **options: Any) -> Any:
    """``@tool`` / ``@tool(toolset=...)``: register into :data:`default_registry` (see :meth:`ToolRegistry.tool`)."""
    return default_registry.tool(fn, **options)


__all__ = [
    "DuplicateToolError", "ERROR_KINDS", "Invocation", "PERMISSIONS", "ToolEntry", "ToolError", "ToolRegistry",
    "ToolResult", "ToolUnavailable", "Visibility", "default_registry", "error_content", "run_sync",
    "serialize_result", "tool",
]
