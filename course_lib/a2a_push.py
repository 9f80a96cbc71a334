"""A2A push notifications: the agent calls the client back, and the client checks it is really the agent.

Streaming keeps a connection open for the whole task; a client that cannot (a phone, a serverless
function, a task that runs for hours) registers a **webhook** instead: a
``TaskPushNotificationConfig`` ``{taskId, url, token}`` (A2A 1.0 §3.1.7-3.1.10:
``CreateTaskPushNotificationConfig``, ``GetTaskPushNotificationConfig``,
``ListTaskPushNotificationConfigs``, ``DeleteTaskPushNotificationConfig``). Each time the task
changes, the agent POSTs the event (a ``StreamResponse``: ``statusUpdate``, ``artifactUpdate``) to
the URL with the header ``X-A2A-Notification-Token: <token>``.

The two sides, both on the official ``a2a-sdk``:

* :func:`push_options` gives an agent the SDK's config store and sender
  (``InMemoryPushNotificationConfigStore``, ``BasePushNotificationSender``), with a URL policy
  (:func:`kit_push_url_validator`) and a bound on configs per task;
* :class:`WebhookReceiver` is the client's webhook (:func:`start_receiver` serves it on 127.0.0.1):
  it accepts a notification only when its token matches the one the client registered (a
  constant-time comparison), refuses anything else with 401 (a **forged callback**: anyone who
  learns the URL can POST to it), and records every call into a
  :class:`~course_lib.tracing.Trace`, so the sequence diagram is drawn from the real messages.

Why a URL policy: the agent makes HTTP requests to URLs its *clients* choose. Unchecked, that is a
server-side request forgery (SSRF) hole: "notify ``http://169.254.169.254/...``" reads a cloud
metadata service. The SDK's ``validate_push_notification_url`` refuses every private and loopback
address; the kit runs on loopback only, so :func:`kit_push_url_validator` allows loopback and public
names and refuses the rest (link-local, private, multicast, other schemes).

Taught in lesson 11 (push notifications).
"""
from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import logging
import secrets
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any

import httpx
from a2a.server.context import ServerCallContext
from a2a.server.tasks import BasePushNotificationSender, InMemoryPushNotificationConfigStore
from a2a.types import TaskPushNotificationConfig
from a2a.utils.errors import InvalidParamsError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .a2a_wire import describe_result
from .servers import LocalServer, start_server
from .tracing import Trace

TOKEN_HEADER = "X-A2A-Notification-Token"
WEBHOOK_PATH = "/a2a/webhook"
MAX_CONFIGS_PER_TASK = 10
MAX_RECORDED = 1000  # notifications a receiver keeps
MAX_NOTIFICATION_BYTES = 1024 * 1024
PUSH_TIMEOUT = 5.0  # seconds the agent waits for a webhook to answer
UNKNOWN_CALLER = "Unknown caller"  # the lane of a call the webhook refused


async def kit_push_url_validator(url: str) -> bool:
    """The kit's policy for push URLs: http(s) only; an IP address must be loopback or public.

    Loopback (``127.0.0.1``, ``::1``, ``localhost``) is allowed because every server of the course runs
    there; link-local (``169.254.x.x``, cloud metadata), private, multicast, reserved and unspecified
    addresses are refused. Host names other than ``localhost`` are allowed without resolving them:
    in production use the SDK's ``a2a.utils.push_url_validator.validate_push_notification_url``,
    which resolves the name and refuses loopback too.

    Example:
        >>> import asyncio
        >>> [asyncio.run(kit_push_url_validator(u)) for u in ("http://127.0.0.1:8000/hook",
        ...  "http://169.254.169.254/latest/meta-data", "file:///etc/passwd", "https://example.com/webhook")]
        [True, False, False, True]
    """
    try:
        parsed = urllib.parse.urlparse(url)
        parsed.port  # noqa: B018  (raises ValueError for a bad port)
    except ValueError:
        return False
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        return False
    host = parsed.hostname
    if host == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return "." in host or host.isalnum()  # a DNS name (resolved, if at all, when a notification is sent)
    if address.is_loopback:
        return True
    return address.is_global and not (address.is_multicast or address.is_reserved)


class BoundedPushConfigStore(InMemoryPushNotificationConfigStore):
    """The SDK's in-memory push config store with at most ``max_per_task`` configs per task.

    Raises:
        a2a.utils.errors.InvalidParamsError: (-32602) on a new config beyond the bound.
    """

    def __init__(self, max_per_task: int = MAX_CONFIGS_PER_TASK) -> None:
        super().__init__()
        self.max_per_task = max_per_task

    async def set_info(self, task_id: str, notification_config: TaskPushNotificationConfig,
                       context: ServerCallContext) -> TaskPushNotificationConfig:  # noqa: D102
        existing = await self.get_info(task_id, context)
        replaces = bool(notification_config.id) and any(c.id == notification_config.id for c in existing)
        if len(existing) >= self.max_per_task and not replaces:
            raise InvalidParamsError(message=f"at most {self.max_per_task} push notification configs per task")
        return await super().set_info(task_id, notification_config, context)


class _OneLineFailure(logging.Filter):
    """A webhook that does not answer is the client's problem, not the agent's: one log line, no traceback."""

    def filter(self, record: logging.LogRecord) -> bool:  # noqa: D102
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            record.msg = f"{record.getMessage()} ({type(error).__name__}: {str(error)[:120]})"
            record.args, record.exc_info, record.exc_text = None, None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


logging.getLogger("a2a.server.tasks.base_push_notification_sender").addFilter(_OneLineFailure())


class _LoopClients:
    """One ``httpx.AsyncClient`` per event loop (an app may be served by a thread or used in-process)."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._clients: dict[int, httpx.AsyncClient] = {}

    def _client(self) -> httpx.AsyncClient:
        key = id(asyncio.get_running_loop())
        client = self._clients.get(key)
        if client is None or client.is_closed:
            client = self._clients[key] = httpx.AsyncClient(timeout=self.timeout)
        return client

    async def post(self, url: str, **kwargs: Any) -> httpx.Response:
        return await self._client().post(url, **kwargs)

    async def aclose(self) -> None:
        key = id(asyncio.get_running_loop())
        client = self._clients.pop(key, None)
        if client is not None:
            await client.aclose()


class KitPushSender(BasePushNotificationSender):
    """The SDK's push sender with a short timeout and one HTTP client per event loop."""

    def __init__(self, store: InMemoryPushNotificationConfigStore, *, timeout: float = PUSH_TIMEOUT) -> None:
        self._clients = _LoopClients(timeout)
        super().__init__(self._clients, store, push_url_validator=kit_push_url_validator)  # type: ignore[arg-type]

    async def aclose(self) -> None:
        """Close this loop's HTTP client (the agent's app calls it when its server stops)."""
        await self._clients.aclose()


def push_options(*, max_per_task: int = MAX_CONFIGS_PER_TASK, timeout: float = PUSH_TIMEOUT) -> dict[str, Any]:
    """Keyword arguments that give an agent push notifications (for :func:`course_lib.a2a_agents.build_agent_app`).

    Returns:
        ``{"push_config_store", "push_sender", "push_url_validator"}`` for the SDK's request handler. The
        card must also say ``capabilities.pushNotifications: true``.
    """
    store = BoundedPushConfigStore(max_per_task)
    return {"push_config_store": store, "push_sender": KitPushSender(store, timeout=timeout),
            "push_url_validator": kit_push_url_validator}


# --------------------------------------------------------------------------- the client's webhook

@dataclass
class Notification:
    """One call to the webhook.

    Attributes:
        accepted: True when its token matched.
        status: the HTTP status the receiver answered (204 accepted, 401 refused, 400 unreadable).
        body: the decoded JSON (a ``StreamResponse`` in ProtoJSON), or None.
        token_sent: whether the call carried the token header at all.
        at: seconds since the receiver started.
    """

    accepted: bool
    status: int
    body: Any
    token_sent: bool
    at: float

    @property
    def label(self) -> str:
        """A one-line description (``statusUpdate TASK_STATE_WORKING``)."""
        return describe_result(self.body) if isinstance(self.body, dict) else "unreadable body"


@dataclass
class WebhookReceiver:
    """A client's webhook for A2A push notifications, verifying the token of every call.

    Args:
        token: the secret the client registers in its ``TaskPushNotificationConfig`` (default: 32 random
            bytes, URL-safe).
        trace: where calls are recorded: each call a ``request`` from its caller to ``lane`` (``POST …``) and
            this webhook's reply back (``204``; a refused call comes from ``"Unknown caller"`` and is answered
            with an ``error``, ``401 refused: wrong token``).
        agent: the lane name of the caller.
        lane: this receiver's lane name.

    Thread-safe: the server thread records, a notebook cell reads :attr:`received` or :meth:`wait_for`.
    """

    token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    trace: Trace = field(default_factory=lambda: Trace("A2A push notifications"))
    agent: str = "Agent"
    lane: str = "Webhook"
    received: list[Notification] = field(default_factory=list)
    server: LocalServer | None = None
    _t0: float = field(default_factory=time.monotonic, repr=False)
    _changed: threading.Condition = field(default_factory=threading.Condition, repr=False)

    @property
    def url(self) -> str:
        """The webhook's URL (``http://127.0.0.1:<port>/a2a/webhook``) once :func:`start_receiver` serves it."""
        if self.server is None:
            raise RuntimeError("the receiver is not served: use start_receiver()")
        return self.server.url + WEBHOOK_PATH

    def check(self, headers: dict[str, str], body: bytes) -> tuple[int, Any]:
        """Decide on one call (sans-IO): ``(status, decoded body)``.

        401 when the token header is missing or wrong (``hmac.compare_digest``: no timing leak), 413 for a
        body over :data:`MAX_NOTIFICATION_BYTES`, 400 when the body is not a JSON object, else 204.
        """
        sent = headers.get(TOKEN_HEADER.lower(), "")
        if not hmac.compare_digest(sent.encode(), self.token.encode()):
            return 401, None
        if len(body) > MAX_NOTIFICATION_BYTES:
            return 413, None
        try:
            decoded = json.loads(body)
        except ValueError:
            return 400, None
        return (204, decoded) if isinstance(decoded, dict) else (400, decoded)

    def _record(self, status: int, body: Any, token_sent: bool) -> None:
        note = Notification(status == 204, status, body, token_sent, time.monotonic() - self._t0)
        with self._changed:
            self.received.append(note)
            del self.received[:-MAX_RECORDED]
            self._changed.notify_all()
        self._draw(note)

    def _draw(self, note: Notification) -> None:
        """Two arrows per call, as on the wire: the caller's ``POST`` to this webhook, then the webhook's answer.

        An accepted call is the agent's (``Finance DB agent → Webhook: POST statusUpdate …``, then ``204``). One
        refused for its token comes from :data:`UNKNOWN_CALLER` (the receiver cannot tell who sent it: not the
        agent, as far as it knows) and is answered ``401`` as an error; one refused for its body (400, 413)
        carried the token, so it is the agent's.
        """
        caller = UNKNOWN_CALLER if note.status == 401 else self.agent  # 400 and 413 came with the right token
        why = {401: "wrong token" if note.token_sent else "no token", 413: "too large", 400: "not a JSON object"}
        said = f", {why[401]}" if note.status == 401 else ""
        self.trace.add(caller, self.lane, f"POST {note.label}{said}", kind="request", layer="a2a", payload=note.body)
        if note.accepted:
            self.trace.add(self.lane, caller, "204 No Content", kind="response", layer="a2a")
        else:
            self.trace.add(self.lane, caller, f"{note.status} refused: {why.get(note.status, 'refused')}",
                           kind="error", layer="a2a")

    async def _endpoint(self, request: Request) -> Response:
        body = await request.body()
        status, decoded = self.check({k.lower(): v for k, v in request.headers.items()}, body)
        try:
            shown = decoded if decoded is not None else json.loads(body)
        except ValueError:
            shown = None
        self._record(status, shown if status != 413 else None, TOKEN_HEADER.lower() in
                     {k.lower() for k in request.headers})
        if status == 204:
            return Response(status_code=204)
        return JSONResponse({"error": {401: "unknown or missing notification token", 413: "too large",
                                       400: "not a JSON object"}[status]}, status_code=status)

    def app(self) -> Starlette:
        """The receiver as a Starlette app (``POST /a2a/webhook``)."""
        return Starlette(routes=[Route(WEBHOOK_PATH, self._endpoint, methods=["POST"])])

    @property
    def accepted(self) -> list[Notification]:
        """The calls whose token matched, in arrival order."""
        with self._changed:
            return [n for n in self.received if n.accepted]

    def states(self) -> list[str]:
        """The task states the accepted notifications reported (``TASK_STATE_WORKING``...), in order."""
        found = []
        for note in self.accepted:
            result = note.body.get("statusUpdate") or note.body.get("task") or {}
            state = (result.get("status") or {}).get("state")
            if state:
                found.append(state)
        return found

    def wait_for(self, state: str, timeout: float = 10.0) -> bool:
        """Block until an accepted notification reports ``state`` (e.g. ``"TASK_STATE_COMPLETED"``); True if one did."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while state not in self.states():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
        return True

    def __repr__(self) -> str:
        where = self.server.url if self.server else "not served"
        return f"WebhookReceiver({where}, {len(self.accepted)} accepted / {len(self.received)} calls)"


def start_receiver(name: str = "a2a-webhook", *, token: str | None = None, trace: Trace | None = None,
                   agent: str = "Agent") -> WebhookReceiver:
    """Serve a :class:`WebhookReceiver` on 127.0.0.1 (a free port); re-running replaces the previous one.

    Args:
        name: the server's registry name (see :func:`course_lib.servers.start_server`).
        token: the secret to expect (default: a new random one).
        trace: record calls into this trace (e.g. the orchestrator's, for one diagram of both directions).
        agent: the lane name of the agent that calls back.

    Returns:
        The receiver; ``.url`` is what goes into ``TaskPushNotificationConfig.url``.
    """
    receiver = WebhookReceiver(agent=agent, **({"token": token} if token else {}),
                               **({"trace": trace} if trace is not None else {}))
    receiver.server = start_server(name, receiver.app())
    return receiver


async def forge_notification(url: str, body: dict, *, token: str | None = None) -> int:
    """POST ``body`` to a webhook as an attacker would (a guessed token or none); the HTTP status it got."""
    headers = {TOKEN_HEADER: token} if token else {}
    async with httpx.AsyncClient(timeout=10) as http:
        return (await http.post(url, json=body, headers=headers)).status_code


__all__ = ["BoundedPushConfigStore", "KitPushSender", "MAX_CONFIGS_PER_TASK", "Notification", "TOKEN_HEADER",
           "WEBHOOK_PATH", "WebhookReceiver", "forge_notification", "kit_push_url_validator", "push_options",
           "start_receiver"]
