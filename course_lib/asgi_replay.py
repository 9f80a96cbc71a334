"""One ASGI helper the course's HTTP guards share: hand a request body they have already read on to the app.

A guard in front of an SDK's app (request size and shape in :mod:`course_lib.a2a_limits` and
:mod:`course_lib.mcp_transports`, tool scopes in :mod:`course_lib.mcp_auth`) must read the whole body to judge
it; the app behind then reads it again from ``receive``. ASGI spec, HTTP connection scope: a request body
arrives as ``http.request`` messages, the last with ``more_body`` false; after it, ``receive`` carries
``http.disconnect``.
"""
from __future__ import annotations

from typing import Any, Awaitable, Callable

Receive = Callable[[], Awaitable[dict[str, Any]]]


def replaying(body: bytes, receive: Receive) -> Receive:
    """An ASGI ``receive`` whose first message is the whole ``body`` (one ``http.request``, ``more_body`` false);
    every later call is passed to the real ``receive`` (so the app still hears ``http.disconnect``)."""
    replayed = False

    async def replay() -> dict[str, Any]:
        nonlocal replayed
        if not replayed:
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
