"""One function for the LLM client every notebook uses: the offline mock, or a real endpoint.

``get_client()`` returns an unmodified ``openai.OpenAI`` client. By default it talks to
the embedded mock LLM in-process (offline, no API key, deterministic). When the learner
sets ``OPENAI_BASE_URL`` and/or ``OPENAI_API_KEY`` it talks to that OpenAI-compatible
endpoint instead, and the notebook code stays the same. Environment variables:

=================== =====================================================================
``COURSE_LLM``      ``mock`` (force the mock) or ``endpoint`` (force the real endpoint);
                    unset: the endpoint when ``OPENAI_BASE_URL``/``OPENAI_API_KEY`` is set
``OPENAI_BASE_URL`` the endpoint, e.g. ``http://localhost:11434/v1`` (Ollama)
``OPENAI_API_KEY``  its key (any text for local servers that ignore it)
``COURSE_MODEL``    the model name to send (default: ``mock-llm``, or ``gpt-4o-mini``
                    for a real endpoint)
=================== =====================================================================

Taught in lesson 00.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, AsyncIterator, Iterator

import httpx2
import openai

from .i18n import _
from .mock_llm import MockLLM
from .mock_llm.server import DaemonWorkers, HTTPReply, iter_chunks, sleep_for

MOCK_BASE_URL = "http://mock-llm.invalid/v1"  # never resolved: the transport answers in-process
DEFAULT_ENDPOINT_MODEL = "gpt-4o-mini"
_DEFAULT_MOCK: MockLLM | None = None


#: How a change of these variables reaches a notebook: its kernel copied the environment when it started.
APPLY_CHANGES = (" A running kernel keeps the environment it started with: set the variable in a cell "
                 "(%env NAME=value) and run the cell again, or restart JupyterLab from a shell where it is set.")


class EndpointError(RuntimeError):
    """The configured real endpoint cannot be used; the message says what to change.

    In a notebook it is shown as its message alone, without the traceback: the cause is in the
    environment, not in the learner's code, and the message says what to change.
    """

    def _render_traceback_(self) -> list[str]:  # IPython's hook for how an exception is displayed
        return [f"EndpointError: {self}"]


@dataclass(frozen=True)
class Backend:
    """Which LLM the course talks to: ``kind`` is ``"mock"`` or ``"endpoint"``."""

    kind: str
    base_url: str
    model: str

    def __str__(self) -> str:
        if self.kind == "mock":
            return _("the course's offline mock LLM (model {model}, in-process, no network)").format(
                model=repr(self.model))
        return _("a real OpenAI-compatible endpoint at {url} (model {model})").format(
            url=self.base_url, model=repr(self.model))


def default_mock() -> MockLLM:
    """The process-wide :class:`MockLLM` behind :func:`get_client` (created on first use)."""
    global _DEFAULT_MOCK
    if _DEFAULT_MOCK is None:
        _DEFAULT_MOCK = MockLLM()
    return _DEFAULT_MOCK


def backend() -> Backend:
    """Read the environment and say which backend :func:`get_client` will use.

    Raises:
        EndpointError: ``COURSE_LLM`` has a value other than ``mock``/``endpoint``.
    """
    choice = os.environ.get("COURSE_LLM", "").strip().lower()
    if choice not in ("", "mock", "endpoint"):
        raise EndpointError(f"COURSE_LLM={choice!r} is not understood: use 'mock' or 'endpoint' (or unset it).")
    has_endpoint = bool(os.environ.get("OPENAI_BASE_URL") or os.environ.get("OPENAI_API_KEY"))
    if choice == "mock" or (choice == "" and not has_endpoint):
        return Backend("mock", MOCK_BASE_URL, os.environ.get("COURSE_MODEL") or "mock-llm")
    base = os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
    return Backend("endpoint", base, os.environ.get("COURSE_MODEL") or DEFAULT_ENDPOINT_MODEL)


def default_model() -> str:
    """The model name notebooks pass as ``model=`` (see ``COURSE_MODEL``)."""
    return backend().model


# ---------------------------------------------------------------------- in-process transport
class _ReplyStream(httpx2.SyncByteStream):
    def __init__(self, reply: HTTPReply) -> None:
        self._reply = reply

    def __iter__(self) -> Iterator[bytes]:
        return iter_chunks(self._reply)


class _AsyncReplyStream(httpx2.AsyncByteStream):
    def __init__(self, reply: HTTPReply) -> None:
        self._reply = reply

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in iter_chunks(self._reply):
            yield chunk


def _call(mock: MockLLM, request: httpx2.Request) -> HTTPReply:
    headers = {k.lower(): v for k, v in request.headers.items()}
    return mock.handle(request.method, request.url.path, headers, request.read())


class InProcessTransport(httpx2.BaseTransport):
    """An httpx2 transport that hands each request to ``mock.handle`` (no socket)."""

    def __init__(self, mock: MockLLM) -> None:
        self.mock = mock

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        reply = _call(self.mock, request)
        sleep_for(reply)
        return httpx2.Response(reply.status, headers=reply.headers, stream=_ReplyStream(reply), request=request)


_ASYNC_WORKERS = DaemonWorkers(2)


class AsyncInProcessTransport(httpx2.AsyncBaseTransport):
    """The async twin of :class:`InProcessTransport` (latency via ``asyncio.sleep``).

    The mock's work runs in a worker thread, so a long request does not freeze the event
    loop it was awaited on (the kernel's, with its other tasks: servers, widgets).
    """

    def __init__(self, mock: MockLLM) -> None:
        self.mock = mock

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        import asyncio

        await request.aread()
        reply = await _ASYNC_WORKERS.run(_call, self.mock, request)
        if reply.delay:
            await asyncio.sleep(reply.delay)
        return httpx2.Response(reply.status, headers=reply.headers, stream=_AsyncReplyStream(reply), request=request)


def in_process_client(mock: MockLLM, *, async_client: bool = False, **kwargs: Any):
    """An ``openai`` client whose HTTP goes straight to ``mock`` (see :class:`InProcessTransport`)."""
    kwargs.setdefault("api_key", "mock-key-not-secret")
    kwargs.setdefault("base_url", MOCK_BASE_URL)
    if async_client:
        return openai.AsyncOpenAI(http_client=httpx2.AsyncClient(transport=AsyncInProcessTransport(mock)), **kwargs)
    return openai.OpenAI(http_client=httpx2.Client(transport=InProcessTransport(mock)), **kwargs)


# ---------------------------------------------------------------------- the one entry point
def _check_endpoint(b: Backend, timeout: float) -> None:
    """Fail early, with a clear message, when the endpoint cannot be reached or is not an LLM API.

    Sends ``GET {base_url}/models`` (every OpenAI-compatible server answers it: OpenAI, vLLM,
    Ollama, LM Studio, llama.cpp) and accepts a 2xx answer only.

    Raises:
        EndpointError: no connection; the key refused (401/403); no such route (404/405: the base URL
            is wrong, it usually ends in ``/v1``); any other non-2xx status.
    """
    key = os.environ.get("OPENAI_API_KEY") or "not-needed"
    url = b.base_url.rstrip("/") + "/models"
    use_mock = "or unset OPENAI_BASE_URL and OPENAI_API_KEY (or set COURSE_LLM=mock) to use the offline mock."
    if not os.environ.get("OPENAI_BASE_URL"):  # the learner may not know that a key alone picks the real API
        use_mock = ("or, if you did not mean to use the real API (OPENAI_API_KEY alone selects it), set COURSE_LLM=mock "
                    "or unset OPENAI_API_KEY to use the offline mock.")
    use_mock += APPLY_CHANGES
    if not b.base_url.startswith(("http://", "https://")):
        raise EndpointError(f"OPENAI_BASE_URL={b.base_url!r} is not a URL: it starts with http:// or https:// and "
                            f"usually ends in /v1 (e.g. http://127.0.0.1:11434/v1 for Ollama). Fix it, {use_mock}")
    try:
        r = httpx2.get(url, headers={"Authorization": f"Bearer {key}"}, timeout=timeout)
    except httpx2.HTTPError as e:
        raise EndpointError(
            f"Cannot reach the LLM endpoint {b.base_url} ({type(e).__name__}: {e}). Check OPENAI_BASE_URL, {use_mock}"
        ) from None
    if r.status_code in (401, 403):
        raise EndpointError(f"The endpoint {b.base_url} refused the API key (HTTP {r.status_code}). "
                            f"Check OPENAI_API_KEY, {use_mock}")
    if r.status_code in (404, 405):
        raise EndpointError(
            f"{b.base_url} answers, but not as an OpenAI-compatible API: GET {url} gave HTTP {r.status_code}. "
            "Check OPENAI_BASE_URL: it is the API's base, which usually ends in /v1 "
            f"(e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 for Ollama), {use_mock}")
    if not 200 <= r.status_code < 300:
        raise EndpointError(f"The endpoint {b.base_url} is not ready: GET {url} gave HTTP {r.status_code}. "
                            f"Try again later or check the server, {use_mock}")


def get_client(*, async_client: bool = False, check: bool = True, timeout: float = 5.0, **kwargs: Any):
    """The ``openai`` client for this course: the offline mock unless the environment says otherwise.

    Args:
        async_client: return ``openai.AsyncOpenAI`` (for ``await``) instead of ``openai.OpenAI``.
        check: for a real endpoint, verify it answers ``GET /models`` first, so a wrong URL
            fails here with a clear message rather than later with "Connection error.".
        timeout: seconds for that check.
        **kwargs: passed to the ``openai`` client (``max_retries``, ``timeout``...).

    Returns:
        ``openai.OpenAI`` or ``openai.AsyncOpenAI``.

    Raises:
        EndpointError: the real endpoint is unreachable, refuses the key, or is not an
            OpenAI-compatible API at that URL (see :func:`_check_endpoint`).

    Example:
        >>> client = get_client()  # doctest: +SKIP
        >>> client.chat.completions.create(model=default_model(), messages=[...])  # doctest: +SKIP
    """
    b = backend()
    if b.kind == "mock":
        return in_process_client(default_mock(), async_client=async_client, **kwargs)
    if check:
        _check_endpoint(b, timeout)
    kwargs.setdefault("base_url", b.base_url)
    kwargs.setdefault("api_key", os.environ.get("OPENAI_API_KEY") or "not-needed")
    return (openai.AsyncOpenAI if async_client else openai.OpenAI)(**kwargs)
