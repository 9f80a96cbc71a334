"""The everyday MCP server features the SDK leaves to the application, done once for every course server.

``MCPServer`` (mcp 2.3) serves tools, resources and prompts; these request methods it
answers only if the application registers a handler, so a course server gets them here
(:func:`install`, called by :class:`~course_lib.mcp_servers.CourseMCPServer`):

* **``logging/setLevel``** (handshake era, MCP 2025-11-25 server/utilities/logging): the
  client sets the lowest level it wants; :class:`LevelFilteringContext` then drops lower
  ``notifications/message`` for that session (the SDK sends every level in that era and
  leaves filtering to this handler). In 2026-07-28 the method is gone: the client puts
  ``io.modelcontextprotocol/logLevel`` in each request's ``_meta`` and the SDK filters.
* **``completion/complete``** (server/utilities/completion): suggestions for a prompt
  argument or a resource-template variable, from the completers a server registers with
  :func:`add_completer`. An unknown prompt or template is ``-32602`` (the spec's "Invalid
  prompt name"); an argument with no completer gets an empty list.
* **``resources/subscribe``/``unsubscribe``** (handshake era): per-session URIs; when a
  resource changes, :func:`resource_updated` sends ``notifications/resources/updated`` to
  the sessions subscribed to it **and** publishes the event on the SDK's subscription bus,
  which is what 2026-07-28 clients hear on their ``subscriptions/listen`` stream.
* **``list_changed``**: :func:`list_changed` does the same for ``notifications/tools/list_changed``
  (and prompts, resources): every session seen (handshake era) and the bus (2026-07-28).

Taught in lessons 08 (completions, subscriptions) and 10 (logging levels).
"""
from __future__ import annotations

import weakref
from typing import Any, Callable, Iterable

from mcp import types
from mcp.server.mcpserver import Context
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import PromptsListChanged, ResourcesListChanged, ResourceUpdated, ToolsListChanged

#: RFC 5424 severities in MCP's spelling, lowest first (MCP server/utilities/logging).
LOG_LEVELS: tuple[str, ...] = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")

#: A completer: ``(partial value, other arguments already filled) -> candidate values``.
Completer = Callable[[str, dict[str, str]], Iterable[str]]

#: At most this many values in one ``completion/complete`` answer (the spec's limit).
MAX_COMPLETIONS = 100


def connection_of(session: Any) -> Any:
    """The client connection behind a request's ``ctx.session``.

    mcp 2.3 builds a new ``ServerSession`` proxy for every inbound request; what lasts from
    one request of a client to the next is its ``Connection``, so per-client state (the
    chosen log level, subscriptions) is keyed by it.
    """
    return getattr(session, "_connection", session)


class Features:
    """Per-server state of the features above (kept on ``server.features``), keyed by client connection."""

    def __init__(self) -> None:
        self.levels: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
        self.subscribers: dict[str, weakref.WeakSet[Any]] = {}
        self.sessions: weakref.WeakSet[Any] = weakref.WeakSet()
        self.completers: dict[tuple[str, str, str], Completer] = {}

    def min_level(self, session: Any) -> str:
        """The lowest level the client of ``session`` asked for with ``logging/setLevel`` (``"debug"``: all)."""
        return self.levels.get(connection_of(session), "debug")

    def subscribed(self, uri: str) -> list[Any]:
        """The live client connections subscribed to ``uri``."""
        return list(self.subscribers.get(uri, ()))


def install(server: Any) -> Features:
    """Register ``logging/setLevel``, ``completion/complete`` and ``resources/(un)subscribe`` on ``server``.

    Args:
        server: an ``MCPServer``; its capabilities then advertise ``logging``,
            ``completions`` and ``resources.subscribe`` (the SDK derives them from the handlers).

    Returns:
        The :class:`Features` state, also set as ``server.features``.
    """
    features = Features()
    server.features = features
    low = server._lowlevel_server

    async def set_level(ctx: Any, params: types.SetLevelRequestParams) -> types.EmptyResult:
        features.levels[connection_of(ctx.session)] = params.level
        return types.EmptyResult()

    async def subscribe(ctx: Any, params: types.SubscribeRequestParams) -> types.EmptyResult:
        uri = str(params.uri)
        await _check_resource_exists(server, uri)
        features.subscribers.setdefault(uri, weakref.WeakSet()).add(connection_of(ctx.session))
        return types.EmptyResult()

    async def unsubscribe(ctx: Any, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        features.subscribers.get(str(params.uri), weakref.WeakSet()).discard(connection_of(ctx.session))
        return types.EmptyResult()

    async def complete(ctx: Any, params: types.CompleteRequestParams) -> types.CompleteResult:
        return types.CompleteResult(completion=completion_for(server, params))

    low.add_request_handler("logging/setLevel", types.SetLevelRequestParams, set_level)
    low.add_request_handler("resources/subscribe", types.SubscribeRequestParams, subscribe)
    low.add_request_handler("resources/unsubscribe", types.UnsubscribeRequestParams, unsubscribe)
    low.add_request_handler("completion/complete", types.CompleteRequestParams, complete)
    server.middleware.append(_remember_sessions(features))
    return features


def _remember_sessions(features: Features) -> Any:
    async def remember(ctx: Any, call_next: Any) -> Any:
        session = getattr(ctx, "session", None)
        if session is not None and getattr(ctx, "protocol_version", None) != "2026-07-28":
            try:
                features.sessions.add(connection_of(session))
            except TypeError:  # not weak-referenceable: nothing to notify later
                pass
        return await call_next(ctx)
    return remember


async def _check_resource_exists(server: Any, uri: str) -> None:
    names = {str(r.uri) for r in await server.list_resources()}
    if uri in names:
        return
    templates = server._resource_manager.list_templates()
    if any(t.matches(uri) is not None for t in templates):
        return
    raise MCPError(code=-32002, message=f"Resource not found: {uri}", data={"uri": uri})


def add_completer(server: Any, kind: str, name: str, argument: str, completer: Completer | Iterable[str]) -> None:
    """Offer completions for one argument of a prompt (``kind="prompt"``) or a template variable (``"template"``).

    Args:
        server: a server on which :func:`install` ran.
        kind: ``"prompt"`` (``ref/prompt``, ``name`` is the prompt name) or ``"template"``
            (``ref/resource``, ``name`` is the URI template, e.g. ``"tasks://{task_id}"``).
        argument: the prompt argument or template variable.
        completer: a fixed list of values, or a function ``(partial, context_arguments) -> values``.

    Raises:
        ValueError: ``kind`` is neither ``"prompt"`` nor ``"template"``.
    """
    if kind not in ("prompt", "template"):
        raise ValueError(f"kind must be 'prompt' or 'template', not {kind!r}")
    if not callable(completer):
        values = list(completer)
        completer = lambda partial, _ctx, values=values: values  # noqa: E731
    server.features.completers[(kind, name, argument)] = completer


def completion_for(server: Any, params: types.CompleteRequestParams) -> types.Completion:
    """The ``completion`` of a ``completion/complete`` request: matching values, best first.

    Values that start with the typed text come first, then those that contain it
    (case-insensitive); at most :data:`MAX_COMPLETIONS`, with ``total`` and ``hasMore``.

    Raises:
        MCPError: ``-32602`` for a prompt or resource template the server does not have.
    """
    ref = params.ref
    if isinstance(ref, types.PromptReference):
        kind, name = "prompt", ref.name
        known = name in {p.name for p in server._prompt_manager.list_prompts()}
        what = "prompt"
    else:
        kind, name = "template", str(ref.uri)
        known = name in {t.uri_template for t in server._resource_manager.list_templates()}
        what = "resource template"
    if not known:
        raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown {what}: {name}", data={"ref": name})
    completer = server.features.completers.get((kind, name, params.argument.name))
    if completer is None:
        return types.Completion(values=[], total=0, has_more=False)
    typed = params.argument.value.lower()
    context = dict((params.context.arguments or {}) if params.context else {})
    candidates = [str(v) for v in completer(params.argument.value, context)]
    ranked = [v for v in candidates if v.lower().startswith(typed)]
    ranked += [v for v in candidates if typed in v.lower() and v not in ranked]
    return types.Completion(values=ranked[:MAX_COMPLETIONS], total=len(ranked),
                            has_more=len(ranked) > MAX_COMPLETIONS)


class LevelFilteringContext(Context):
    """The SDK's tool ``Context`` with ``logging/setLevel`` honoured in the handshake era.

    A log entry below the level the session chose is dropped (2025-11-25). In 2026-07-28
    the SDK already filters by the request's ``io.modelcontextprotocol/logLevel``.
    """

    async def log(self, level: Any, data: Any, *, logger_name: str | None = None) -> None:
        features = getattr(self._mcp_server, "features", None)
        if features is not None and self._request_context is not None:
            wanted = features.min_level(self._request_context.session)
            if LOG_LEVELS.index(level) < LOG_LEVELS.index(wanted):
                return
        await super().log(level, data, logger_name=logger_name)


async def resource_updated(server: Any, uri: str) -> int:
    """Tell subscribers that resource ``uri`` changed, in both protocol eras.

    Handshake era: ``notifications/resources/updated`` to each session subscribed with
    ``resources/subscribe``. 2026-07-28: a ``ResourceUpdated`` event on the SDK's
    subscription bus, delivered on the ``subscriptions/listen`` streams whose filter names ``uri``.

    Returns:
        How many handshake-era sessions were notified.
    """
    sent = 0
    for session in server.features.subscribed(uri):
        try:
            await session.send_resource_updated(uri)
            sent += 1
        except Exception:  # a session that went away: forget it
            server.features.subscribers.get(uri, weakref.WeakSet()).discard(session)
    await server._subscriptions.publish(ResourceUpdated(uri=uri))
    return sent


_LIST_EVENTS = {"tools": ToolsListChanged, "prompts": PromptsListChanged, "resources": ResourcesListChanged}


async def list_changed(server: Any, kind: str = "tools") -> int:
    """Announce that the server's ``kind`` list (``tools``, ``prompts``, ``resources``) changed.

    Handshake era: ``notifications/<kind>/list_changed`` to every live session the server
    has seen. 2026-07-28: the matching event on the subscription bus (``subscriptions/listen``).

    Returns:
        How many handshake-era sessions were notified.

    Raises:
        ValueError: an unknown ``kind``.
    """
    if kind not in _LIST_EVENTS:
        raise ValueError(f"kind must be one of {sorted(_LIST_EVENTS)}, not {kind!r}")
    sent = 0
    for session in list(server.features.sessions):
        try:
            await getattr(session, f"send_{kind[:-1]}_list_changed")()
            sent += 1
        except Exception:
            server.features.sessions.discard(session)
    await server._subscriptions.publish(_LIST_EVENTS[kind]())
    return sent
